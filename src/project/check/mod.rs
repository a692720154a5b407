//! The check of a set of applications: every problem of every document, in
//! one run. `coordc check` prints what this returns; `coordc lsp` keeps it
//! per document and publishes it.
//!
//! Files or folders (searched for `.xml`); each document is classified by its
//! root element and checked as Oozie reads it: the schema, the lowering, the
//! EL of every value (syntax, functions, arity, argument types, place), and
//! for coordinators the job configuration, includes, parameters and the
//! submission checks of the dry run, plus the first action's materialization.
//! Files are checked in parallel and reported in path order; one bad file never
//! hides the others' diagnostics.
//!
//! The run, in order: `discover` finds the files, `parallel` checks them on
//! every core, each as `document` says (`coordinator`, `workflow`, `bundle`,
//! `datasets`, with the EL checks of `el`); then the coordinators bundles
//! submit (`bundle`), the workflows coordinators and parent workflows run
//! (`runs`), the pipeline rules across applications (`pipeline`), the unused
//! suppressions (`suppressions`); `filters` applies each folder's settings
//! and says each problem once.

mod bundle;
mod coordinator;
mod datasets;
mod discover;
mod document;
mod el;
mod filters;
mod parallel;
mod pipeline;
mod runs;
mod suppressions;
mod workflow;

pub(crate) use discover::SKIPPED_FOLDERS;
pub use filters::MOST_PER_CODE;
pub(crate) use pipeline::pipeline_problems;

use super::files::{ConfigFile, Files, normal};
use super::load::{self, Sources};
use super::settings::{Folder, Refused, SETTINGS_FILE};
use crate::check::pipeline::AppEvents;
use crate::check::select::Selection;
use crate::check::suppress::Suppression;
use crate::diag::FileRef;
use crate::diag::Located;
use crate::diag::Severity;
use crate::diag::rules::EL_UNKNOWN_VARIABLE;
use crate::oozie::servers::Server;
use crate::time::cron::MaxYear;
use bundle::{Member, check_members};
use discover::discover;
use filters::report_each_problem_once;
use parallel::check_all;
use pipeline::add_pipeline_problems;
use runs::{WorkflowRun, check_runs};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use suppressions::add_unused_suppressions;

/// What a check is given besides the paths: the job (configuration files,
/// `-D`, `--map`s), Oozie's processing zone, and what to keep.
#[derive(Clone)]
pub struct CheckOptions {
    /// Job configuration files; without any, each application's own
    /// job.properties.
    pub configs: Vec<PathBuf>,
    pub defines: Vec<(String, String)>,
    pub maps: Vec<(String, String)>,
    /// Oozie's processing time zone; without it, each folder's coordc.toml's,
    /// else UTC.
    pub processing_timezone: Option<String>,
    /// The server profile checked against; without it, each folder's
    /// coordc.toml's, else the newest Apache release.
    pub server: Option<Server>,
    /// Whether the pipeline checks run across the files checked (a server
    /// runs them across its whole workspace instead, with
    /// [`pipeline_problems`]).
    pub pipeline: bool,
    /// Folders not searched (by name: `.git`, `target`...), when a folder
    /// is; a batch run searches every one.
    pub ignored_folders: Vec<String>,
    /// Whether a clean file's report keeps its sources (what it was read
    /// from, for [`Report::depends_on`]); a batch run drops them.
    pub keep_sources: bool,
    /// The command line's rule selection, over each folder's coordc.toml's.
    pub selection: Selection,
    /// The last year the server's Quartz finds a cron fire time in.
    pub cron_max_year: MaxYear,
}

/// What a check found: a report per file checked (bundles' coordinators
/// after their bundle), and the files that could not be read.
pub struct Checked {
    pub targets: Vec<Target>,
    pub reports: Vec<Report>,
    pub io_errors: Vec<String>,
}

/// What checking one file found.
pub struct Report {
    pub sources: Sources,
    pub problems: Vec<Located>,
    /// A usage or I/O error (exit 2), for a file that could not be read.
    pub io_error: Option<String>,
    /// How many problems were left out because their rule is not selected
    /// (`--select`, `--ignore`, a coordc.toml's `[check]`).
    pub unselected: usize,
    /// Whether the file is no Oozie document (another namespace's XML).
    skipped: bool,
    /// A submitted coordinator's data-ins and data-outs, for the pipeline
    /// checks across files.
    events: Option<AppEvents>,
    /// The file's `<!-- coordc: ignore -->` comments, for those checks too.
    silenced: Vec<Suppression>,
    /// For a bundle: the coordinators it submits, to check next.
    members: Vec<Member>,
    /// For a coordinator checked as a bundle's: the bundle's file. The
    /// pipeline checks run across the coordinators of one bundle, and across
    /// the coordinators given on their own.
    bundle: Option<Arc<Path>>,
    /// For a coordinator: the local workflows its actions run, to check
    /// with the configuration it gives them.
    runs: Vec<WorkflowRun>,
    /// For a workflow: whether it was checked without a job configuration
    /// (its variables then wait for a submitter of the check).
    unconfigured_workflow: bool,
}

impl Report {
    /// For a coordinator checked as a bundle submits it: the bundle's file.
    pub(crate) fn bundle(&self) -> Option<&Path> {
        self.bundle.as_deref()
    }

    /// The files this report was read from (the application, its
    /// configuration, its includes; kept with [`CheckOptions::keep_sources`]),
    /// those looked for and not found, the configuration files beside the
    /// application and the coordc.toml: a change to any of them can change
    /// the report.
    pub(crate) fn depends_on(&self, target: &Target) -> Vec<PathBuf> {
        let mut paths: Vec<PathBuf> = self
            .sources
            .files
            .iter()
            .map(|(name, _)| PathBuf::from(name))
            .filter(|p| !p.as_os_str().is_empty() && !p.starts_with("<"))
            .chain(self.sources.absent.iter().cloned())
            .collect();
        // The configuration files that would be read if they were there,
        // and the settings.
        if let Some(dir) = target.path.parent() {
            paths.extend(load::CONFIGURATION_FILES.iter().map(|f| dir.join(f)));
        }
        // (Every coordc.toml nearer than the one read would be read instead.)
        let base = &target.folder.base;
        paths.extend(
            normal(&target.path)
                .ancestors()
                .skip(1)
                .take_while(|dir| dir.starts_with(base))
                .map(|dir| dir.join(SETTINGS_FILE)),
        );
        if let Some(member) = &target.member {
            paths.push(member.bundle_path.clone());
        }
        if let Some(run) = &target.run {
            paths.push(run.submitter.clone());
        }
        paths
    }

    /// Whether the application was checked without a job configuration
    /// while reading names its job must define: the note (or, for a
    /// workflow, the warning) that lists them is in its problems, and the
    /// values that read them were not evaluated.
    pub(crate) fn unconfigured(&self) -> bool {
        self.problems.iter().any(|p| {
            p.file == FileRef::App
                && p.diagnostic.code == EL_UNKNOWN_VARIABLE
                && p.diagnostic.severity != Severity::Error
        })
    }

    /// Whether the file is XML of another namespace than Oozie's, skipped.
    pub(crate) fn skipped(&self) -> bool {
        self.skipped
    }

    /// A file that could not be checked: a usage or I/O error (exit 2).
    fn failed(message: String) -> Report {
        Report {
            sources: Sources::default(),
            problems: Vec::new(),
            io_error: Some(message),
            unselected: 0,
            skipped: false,
            events: None,
            silenced: Vec::new(),
            members: Vec::new(),
            bundle: None,
            runs: Vec::new(),
            unconfigured_workflow: false,
        }
    }
}

/// Checks every file `paths` name (files, or folders searched for `.xml`
/// files) as Oozie would read each; what `files` has in a buffer is read
/// from there.
pub fn check(paths: &[PathBuf], options: &CheckOptions, files: &Files) -> Result<Checked, Refused> {
    // A schema is read when a file first needs it, by the worker checking
    // it, while the others wait. When folders are searched (milliseconds),
    // the schemas of the documents coordc checks (13 files, 3 ms) are read
    // meanwhile instead; a check of files alone reads only what it needs.
    // (A thread that cannot start leaves them to the workers.)
    let (targets, mut io_errors) = std::thread::scope(|scope| {
        if paths.iter().any(|p| p.is_dir()) {
            let _ = std::thread::Builder::new().spawn_scoped(scope, || {
                crate::xml::schema::schemas().read_ahead(&[
                    "uri:oozie:coordinator",
                    "uri:oozie:workflow",
                    "uri:oozie:sla",
                ])
            });
        }
        discover(paths, options, files)
    })?;
    let configs: Vec<ConfigFile> = options.configs.iter().map(|p| files.config(p)).collect();
    let plan = Plan {
        options,
        configs: &configs,
        files,
    };
    let reports = check_all(&targets, &plan);
    let (targets, reports) = check_members(targets, reports, &plan);
    let mut reports = check_runs(&targets, reports, &plan);
    if options.pipeline {
        add_pipeline_problems(&targets, files, &mut reports);
        // (Only once every check that may use a suppression has run.)
        add_unused_suppressions(&targets, files, &mut reports);
    }
    report_each_problem_once(&targets, &mut reports);
    // (A configuration file every coordinator reads fails once, not per file.)
    for e in reports.iter().filter_map(|r| r.io_error.as_ref()) {
        if !io_errors.contains(e) {
            io_errors.push(e.clone());
        }
    }
    Ok(Checked {
        targets,
        reports,
        io_errors,
    })
}

/// A file to check, and the folder it was found in.
pub struct Target {
    pub path: PathBuf,
    folder: Arc<Folder>,
    /// A coordinator reached through a bundle: how the bundle submits it.
    member: Option<Member>,
    /// A workflow checked as a coordinator of the check runs it.
    run: Option<WorkflowRun>,
}

impl Target {
    /// Where rule pages are linked for this file: its coordc.toml's
    /// `docs-url`, if it sets one.
    pub(crate) fn docs_url(&self) -> Option<&str> {
        self.folder.settings.docs_url.as_deref()
    }
}

/// What every file's check needs.
struct Plan<'a> {
    options: &'a CheckOptions,
    configs: &'a [ConfigFile],
    files: &'a Files,
}

/// `path` as the file system names it, to tell one file reached by two
/// spellings (`./c/`, `c`).
fn real(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}
