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

use super::files::{ConfigFile, Files, normal};
use super::load::{
    self, BundleJob, JobInput, JobSource, Sources, Stop, parse_document, read_application,
    schema_problems,
};
use super::locate::{self, AppKind};
use super::settings::{Finder, Folder, Refused, SETTINGS_FILE};
use crate::check::el::{ElCheckContext, check_template, findings};
use crate::check::pipeline::AppEvents;
use crate::check::select::Selection;
use crate::check::suppress::{self, Suppression, is_suppressed, suppressions};
use crate::diag::Located;
use crate::diag::rules::{
    EL_ARG_TYPE, EL_ARITY, EL_DOTTED_NAME, EL_EVAL, EL_MISPLACED, EL_NEEDS_CONTEXT, EL_SYNTAX,
    EL_UNKNOWN_FUNCTION, EL_UNKNOWN_VARIABLE, INSTANCE_SYNTAX, MISSING_PARAMETER, TIME_DATETIME,
    UNDEFINED_DATASET, WF_LENGTH, WF_MISSING_PARAMETER, WF_SUBMISSION_EL, XML_UNKNOWN_DOCUMENT,
};
use crate::diag::{Diagnostic, Severity, closest};
use crate::el::VarMap;
use crate::el::library::Library;
use crate::ir::{self, ElText};
use crate::oozie::job::{self, Options};
use crate::oozie::parameters;
use crate::span::Span;
use crate::xml;
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// What a check is given besides the paths: the job (configuration files,
/// `-D`, `--map`s), Oozie's processing zone, and what to keep.
#[derive(Clone, Default)]
pub struct CheckOptions {
    /// Job configuration files; without any, each application's own
    /// job.properties.
    pub configs: Vec<PathBuf>,
    pub defines: Vec<(String, String)>,
    pub maps: Vec<(String, String)>,
    /// Oozie's processing time zone; without it, each folder's coordc.toml's,
    /// else UTC.
    pub processing_timezone: Option<String>,
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

/// A workflow application a coordinator's actions (or a parent workflow's
/// sub-workflow action) run, and the configuration they give it: for a
/// coordinator, its job's configuration with the action's `<configuration>`
/// over it and its app-path as `oozie.wf.application.path`
/// (CoordActionStartXCommand.java:109-161 at release-5.2.1), as of its
/// first action.
#[derive(Clone)]
struct WorkflowRun {
    /// The application path, resolved.
    app_path: String,
    /// The `--map`s of the submitter's folder.
    maps: Vec<(String, String)>,
    /// The application whose actions run it.
    submitter: PathBuf,
    /// The submitter job's variables it passes on (shared, not copied: a
    /// job may have a million), empty when it passes none.
    job: Arc<VarMap>,
    /// What the action gives over them.
    given: Vec<(String, String)>,
}

impl WorkflowRun {
    /// The workflow file it runs, when it is local
    /// (`locate::local_application`). (Found only when a workflow of the
    /// check waits for a submitter: finding costs file-system calls.)
    fn workflow(&self, files: &Files) -> Option<PathBuf> {
        let from = self.submitter.parent().unwrap_or(Path::new("."));
        locate::local_application(&self.app_path, from, AppKind::Workflow, &self.maps, files)
    }

    /// The workflow job's configuration, as definitions in order.
    fn defines(&self) -> Vec<(String, String)> {
        self.job
            .iter()
            .filter_map(|(k, v)| Some((k.clone(), v.clone()?)))
            .chain(self.given.iter().cloned())
            .collect()
    }
}

/// A coordinator a bundle submits, checked with the configuration the bundle
/// gives it.
struct Member {
    /// The coordinator application's file.
    file: PathBuf,
    /// Its name in the bundle (the coordinator job's name).
    name: String,
    /// The bundle file.
    bundle_path: PathBuf,
    /// What it is given besides the bundle's configuration files
    /// (`SubmittedBundle::coordinator_defines`).
    defines: Vec<(String, String)>,
    /// The bundle job's configuration files.
    job: BundleJob,
}

impl Report {
    /// For a coordinator checked as a bundle submits it: the bundle's file.
    pub fn bundle(&self) -> Option<&Path> {
        self.bundle.as_deref()
    }

    /// The files this report was read from (the application, its
    /// configuration, its includes; kept with [`CheckOptions::keep_sources`]),
    /// those looked for and not found, the configuration files beside the
    /// application and the coordc.toml: a change to any of them can change
    /// the report.
    pub fn depends_on(&self, target: &Target) -> Vec<PathBuf> {
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
    pub fn unconfigured(&self) -> bool {
        self.problems.iter().any(|p| {
            p.file.is_none()
                && p.diagnostic.code == EL_UNKNOWN_VARIABLE
                && p.diagnostic.severity != Severity::Error
        })
    }

    /// Whether the file is XML of another namespace than Oozie's, skipped.
    pub fn skipped(&self) -> bool {
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
    pub fn docs_url(&self) -> Option<&str> {
        self.folder.settings.docs_url.as_deref()
    }
}

/// What every file's check needs.
struct Plan<'a> {
    options: &'a CheckOptions,
    configs: &'a [ConfigFile],
    files: &'a Files,
}

/// The files to check, in a stable order: files as given, folders searched
/// (recursively, sorted) for `.xml` files, each with its folder (a file's
/// own folder, for a file); and the paths that cannot be read. Or a
/// processing zone that is wrong.
fn discover(
    paths: &[PathBuf],
    options: &CheckOptions,
    files: &Files,
) -> Result<(Vec<Target>, Vec<String>), Refused> {
    let mut targets = Vec::new();
    let mut errors = Vec::new();
    let mut searched = HashSet::new();
    let mut checked = FxHashSet::default();
    // One path's walk finds each file once (each folder is searched once, and
    // names in a folder differ): only files found under several paths need
    // their real paths compared.
    let keyed = paths.len() > 1;
    let finder = Finder::new(files, options.processing_timezone.as_deref(), &options.maps)
        .selecting(&options.selection);
    for path in paths {
        // (A path that does not exist is said below; its folder's settings
        // are still read, so a wrong coordc.toml is never passed over.)
        let folder = finder.of(path)?;
        let given_file = !path.is_dir();
        let mut found = Vec::new();
        if path.is_dir() {
            let mut walk = Walk {
                keyed,
                ignored: &options.ignored_folders,
                files: &mut found,
                errors: &mut errors,
                searched: &mut searched,
            };
            walk.folder(path);
        } else if files.exists(path) {
            let real = keyed.then(|| path.canonicalize().unwrap_or_else(|_| path.clone()));
            found.push((path.clone(), real));
        } else {
            errors.push(format!("{}: no such file or folder", path.display()));
        }
        // A file given twice (or found under two paths) is checked once.
        targets.reserve(found.len());
        for (path, real) in found {
            // (Keyed by the path's bytes: `Path` hashes component by component.)
            if real.is_none_or(|real| checked.insert(real.into_os_string())) {
                // Each file's nearest coordc.toml, which may be below the
                // folder given.
                let folder = if given_file {
                    Arc::clone(&folder)
                } else {
                    finder.of_file(&path)?
                };
                targets.push(Target {
                    path,
                    folder,
                    member: None,
                    run: None,
                });
            }
        }
    }
    Ok((targets, errors))
}

/// The `.xml` files under `dir`, in path order, each with its real path when
/// `keyed`. A folder reached twice (a symbolic link back up the tree, or to a
/// folder already searched) is searched once.
struct Walk<'a> {
    keyed: bool,
    /// Folder names not searched.
    ignored: &'a [String],
    files: &'a mut Vec<(PathBuf, Option<PathBuf>)>,
    errors: &'a mut Vec<String>,
    searched: &'a mut HashSet<PathBuf>,
}

impl Walk<'_> {
    fn folder(&mut self, dir: &Path) {
        let real = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
        if !self.searched.insert(real.clone()) {
            return;
        }
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) => {
                self.errors
                    .push(format!("cannot read {}: {e}", dir.display()));
                return;
            }
        };
        // The entry's type comes with the listing: no stat per file. (Each entry
        // is kept as its path, made once: the name alone would be a second copy.)
        let mut entries: Vec<(PathBuf, bool)> = entries
            .filter_map(|e| {
                let e = e.ok()?;
                let path = e.path();
                let is_dir = match e.file_type() {
                    Ok(t) if t.is_symlink() => path.is_dir(),
                    Ok(t) => t.is_dir(),
                    Err(_) => false,
                };
                Some((path, is_dir))
            })
            .collect();
        // In path order: within one folder, the order of the names' bytes (the
        // paths share the folder's prefix).
        entries.sort_unstable_by(|a, b| {
            a.0.as_os_str()
                .as_encoded_bytes()
                .cmp(b.0.as_os_str().as_encoded_bytes())
        });
        // (Sized once: growing lists of 10,000 paths is fresh memory each time.)
        self.files.reserve(entries.len());
        for (path, is_dir) in entries {
            if is_dir {
                let name = path.file_name().unwrap_or_default();
                if !self.ignored.iter().any(|i| name == i.as_str()) {
                    self.folder(&path);
                }
            } else if path.extension().is_some_and(|e| e == "xml") {
                // Its real path, without a system call per file.
                let key = self
                    .keyed
                    .then(|| real.join(path.file_name().unwrap_or_default()));
                self.files.push((path, key));
            }
        }
    }
}

/// Folders a walk does not enter, as they hold no applications of their
/// own: version control, build output (a Maven build copies the
/// applications into `target/`), dependencies and virtual environments. A
/// folder named on the command line is checked all the same.
pub const SKIPPED_FOLDERS: &[&str] = &[
    ".git",
    ".hg",
    ".svn",
    "target",
    "node_modules",
    ".venv",
    ".venv-tools",
];

const WORKER_STACK_BYTES: usize = 32 * 1024 * 1024;

/// Checks `files` on every core, each report in its file's place. (Each
/// worker writes into the file's own slot: no list per worker to grow, and
/// no sort, whose fresh memory the kernel would have to clear.)
fn check_all(files: &[Target], plan: &Plan) -> Vec<Report> {
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(files.len())
        .max(1);
    let next = AtomicUsize::new(0);
    let slots: Vec<OnceLock<Report>> = files.iter().map(|_| OnceLock::new()).collect();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            // Room for the recursive walks of a large workflow graph.
            let spawned = std::thread::Builder::new()
                .stack_size(WORKER_STACK_BYTES)
                .spawn_scoped(scope, || {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let (Some(target), Some(slot)) = (files.get(i), slots.get(i)) else {
                            break;
                        };
                        let _ = slot.set(check_guarded(target, plan));
                    }
                });
            if spawned.is_err() {
                // The threads started (or this one) do the work.
                break;
            }
        }
    });
    // A file no worker reached (no thread could start at all) is checked here.
    slots
        .into_iter()
        .zip(files)
        .map(|(slot, target)| {
            slot.into_inner()
                .unwrap_or_else(|| check_guarded(target, plan))
        })
        .collect()
}

/// [`check_target`], with a bug in coordc reported as this file's error
/// (exit 2) rather than ending the run: the other files are still checked.
fn check_guarded(target: &Target, plan: &Plan) -> Report {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check_target(target, plan)))
        .unwrap_or_else(|_| {
            Report::failed(format!(
                "{}: coordc failed on this file (a bug: please report it with the file)",
                target.path.display()
            ))
        })
}

/// Checks one file with its folder's settings: the processing zone and the
/// frequency check for the checks, the levels and ignores for the report.
fn check_target(target: &Target, plan: &Plan) -> Report {
    let folder = &target.folder;
    let input = JobInput {
        configs: plan.configs,
        files: plan.files,
        job: JobSource::Own,
        defines: &plan.options.defines,
        maps: &folder.maps,
        processing_zone: folder.processing_zone,
        check_maximum_frequency: folder.settings.check_maximum_frequency,
    };
    let mut report = match (&target.member, &target.run) {
        (Some(member), _) => {
            let input = load::bundle_coordinator_input(&input, &member.job, &member.defines);
            check_file(&target.path, &input, Some(member))
        }
        (None, Some(run)) => {
            let defines = run.defines();
            let input = JobInput {
                configs: &[],
                job: JobSource::Run,
                defines: &defines,
                ..input
            };
            check_file(&target.path, &input, None)
        }
        (None, None) => check_file(&target.path, &input, None),
    };
    if report.problems.is_empty() && !plan.options.keep_sources {
        // Nothing to render from a clean file: its text need not be kept
        // (it is read again if the pipeline checks find something), nor the
        // room its problems had before they were filtered. Every page a run
        // keeps is a page the kernel must clear.
        report.sources = Sources::default();
        report.problems = Vec::new();
    }
    report.unselected = apply_settings(target, &mut report.problems);
    report
}

/// The rules selected for the folder, and its coordc.toml levels and
/// ignores, on `problems` of `target`; how many were left out because
/// their rule is not selected.
fn apply_settings(target: &Target, problems: &mut Vec<Located>) -> usize {
    if problems.is_empty() {
        return 0;
    }
    let folder = &target.folder;
    let path = normal(&target.path);
    let relative = path.strip_prefix(&folder.base).unwrap_or(&path);
    let before = problems.len();
    problems.retain(|p| folder.rules.contains(p.diagnostic.code));
    let unselected = before - problems.len();
    problems.retain_mut(|p| {
        match folder
            .settings
            .level(relative, p.diagnostic.code, p.diagnostic.severity)
        {
            Some(severity) => {
                p.diagnostic.severity = severity;
                true
            }
            None => false,
        }
    });
    limit_per_code(problems);
    unselected
}

/// How many problems of one code in one file are reported; past it, one
/// more says how many were left out. 300,000 attributes on one element
/// are as many XML005s: rendering them took seconds, and no one reads them.
pub const MOST_PER_CODE: usize = 100;

/// Keeps the first [`MOST_PER_CODE`] problems of each code in each file,
/// and says, at the last one kept, how many more there were.
fn limit_per_code(problems: &mut Vec<Located>) {
    if problems.len() <= MOST_PER_CODE {
        return;
    }
    let mut seen: FxHashMap<(Option<usize>, &'static str), usize> = FxHashMap::default();
    let mut last_kept: Vec<((Option<usize>, &'static str), usize)> = Vec::new();
    let mut kept = 0;
    for at in 0..problems.len() {
        let Some(problem) = problems.get(at) else {
            break;
        };
        let key = (problem.file, problem.diagnostic.code);
        let count = seen.entry(key).or_insert(0);
        *count += 1;
        if *count <= MOST_PER_CODE {
            if *count == MOST_PER_CODE {
                last_kept.push((key, kept));
            }
            problems.swap(kept, at);
            kept += 1;
        }
    }
    problems.truncate(kept);
    for (key, at) in last_kept {
        let more = seen
            .get(&key)
            .map_or(0, |count| count.saturating_sub(MOST_PER_CODE));
        if more == 0 {
            continue;
        }
        // (`at` is below `kept`, the length after the truncation.)
        let Some(last) = problems.get(at) else {
            continue;
        };
        let severity = last.diagnostic.severity;
        let mut summary = Diagnostic::error(
            key.1,
            last.diagnostic.span,
            format!(
                "and {more} more {} problem(s) in this file, not shown: coordc reports the first {MOST_PER_CODE} of each code in a file",
                key.1
            ),
        );
        summary.severity = severity;
        summary = summary.with_help("fix these and check again to see the rest");
        problems.push(Located {
            file: key.0,
            diagnostic: summary,
        });
    }
}

/// The pipeline checks across every coordinator of `checked` (a file's
/// own, and those a bundle submits as a pipeline of their own), a list of
/// problems for each report, with its folder's settings applied.
pub fn pipeline_problems(checked: &[(&Target, &Report)]) -> Vec<Vec<Located>> {
    pipeline_problems_counted(checked)
        .into_iter()
        .map(|(problems, _)| problems)
        .collect()
}

/// [`pipeline_problems`], each list with how many problems were left out
/// because their rule is not selected.
fn pipeline_problems_counted(checked: &[(&Target, &Report)]) -> Vec<(Vec<Located>, usize)> {
    let mut found: Vec<Vec<Located>> = (0..checked.len()).map(|_| Vec::new()).collect();
    // One pipeline of the coordinators given on their own, and one of each
    // bundle's coordinators.
    let mut groups: Vec<Option<&Arc<Path>>> = vec![None];
    groups.extend(
        checked
            .iter()
            .filter_map(|(_, r)| r.bundle.as_ref())
            .collect::<BTreeSet<&Arc<Path>>>()
            .into_iter()
            .map(Some),
    );
    for group in groups {
        let apps: Vec<Option<&AppEvents>> = checked
            .iter()
            .map(|(_, r)| r.events.as_ref().filter(|_| r.bundle.as_ref() == group))
            .collect();
        for (i, diagnostic) in crate::check::pipeline::check(&apps) {
            // `i` indexes `apps`, one for each of `checked` and `found`.
            if let (Some((_, report)), Some(list)) = (checked.get(i), found.get_mut(i))
                && !is_suppressed(&report.silenced, &diagnostic)
            {
                list.push(Located::in_app(diagnostic));
            }
        }
    }
    checked
        .iter()
        .zip(found)
        .map(|((target, _), mut problems)| {
            let unselected = apply_settings(target, &mut problems);
            (problems, unselected)
        })
        .collect()
}

/// [`pipeline_problems`] across every report, added to it, with the texts
/// of the other applications they point to.
fn add_pipeline_problems(targets: &[Target], files: &Files, reports: &mut [Report]) {
    let checked: Vec<(&Target, &Report)> = targets.iter().zip(reports.iter()).collect();
    let found = pipeline_problems_counted(&checked);
    // Each application's text, by the name its problems' related places
    // give it: kept by its report, else read again (a clean file's was
    // dropped).
    let mut texts: FxHashMap<Arc<str>, Option<Arc<str>>> = FxHashMap::default();
    for related in found
        .iter()
        .flat_map(|(problems, _)| problems)
        .flat_map(|p| &p.diagnostic.related)
    {
        texts.entry(Arc::clone(&related.file)).or_insert_with(|| {
            let kept = reports.iter().find_map(|r| {
                r.sources
                    .files
                    .first()
                    .filter(|(name, _)| **name == *related.file)
                    .map(|(_, text)| Arc::clone(text))
            });
            kept.or_else(|| files.read(Path::new(&*related.file)).ok())
        });
    }
    for ((target, report), (problems, unselected)) in
        targets.iter().zip(reports.iter_mut()).zip(found)
    {
        report.unselected += unselected;
        if problems.is_empty() || !keep_text(target, files, report) {
            continue;
        }
        for related in problems.iter().flat_map(|p| &p.diagnostic.related) {
            if report.sources.index_of(&related.file).is_none()
                && let Some(Some(text)) = texts.get(&related.file)
            {
                report
                    .sources
                    .add(related.file.to_string(), Arc::clone(text));
            }
        }
        report.problems.extend(problems);
    }
}

/// Whether `report` has its file's text to render problems with: the text
/// of a clean file was dropped, and is read again.
fn keep_text(target: &Target, files: &Files, report: &mut Report) -> bool {
    if report.sources.files.is_empty() {
        match files.read(&target.path) {
            Ok(text) => report.sources.add(target.path.display().to_string(), text),
            Err(_) => return false,
        };
    }
    true
}

/// SU002: the suppressions of each file that silenced nothing in any of its
/// checks (a file is checked alone and through each bundle that submits
/// it), said once, in its first report. Only for a file checked in full at
/// least once, without an error (an error can stop the checks after it)
/// and with its job's configuration (without one, values are not
/// evaluated): else a suppression may be unused only because its rule did
/// not run. A code not reported in the file (not selected, off, ignored)
/// is not said to be unused either.
fn add_unused_suppressions(targets: &[Target], files: &Files, reports: &mut [Report]) {
    // The reports of each file with suppressions, by its real path.
    let mut by_file: BTreeMap<PathBuf, Vec<usize>> = BTreeMap::new();
    for (i, (target, report)) in targets.iter().zip(reports.iter()).enumerate() {
        if !report.silenced.is_empty() {
            by_file.entry(real(&target.path)).or_default().push(i);
        }
    }
    for checks in by_file.values() {
        let complete = checks.iter().any(|&i| {
            reports.get(i).is_some_and(|r| {
                r.io_error.is_none()
                    && !r.skipped
                    && !r.unconfigured()
                    && !r
                        .problems
                        .iter()
                        .any(|p| p.diagnostic.severity == Severity::Error)
            })
        });
        let (Some(&first), true) = (checks.first(), complete) else {
            continue;
        };
        // A code used in any check of the file is used.
        for &other in checks.iter().skip(1) {
            if let (Some(a), Some(b)) = (reports.get(first), reports.get(other)) {
                mark_used_as(&a.silenced, &b.silenced);
            }
        }
        let (Some(target), Some(report)) = (targets.get(first), reports.get_mut(first)) else {
            continue;
        };
        let folder = &target.folder;
        let path = normal(&target.path);
        let relative = path.strip_prefix(&folder.base).unwrap_or(&path);
        let reported = |code: &str| {
            let Some(rule) = crate::diag::rules::rule(code) else {
                return false;
            };
            folder.rules.contains(rule.code)
                && folder
                    .settings
                    .level(relative, rule.code, rule.severity)
                    .is_some()
        };
        let source = report
            .sources
            .files
            .first()
            .map(|(_, text)| Arc::clone(text));
        let source = match source {
            Some(text) => text,
            None => match files.read(&target.path) {
                Ok(text) => text,
                Err(_) => continue,
            },
        };
        let mut found: Vec<Located> = report
            .silenced
            .iter()
            .filter_map(|s| suppress::unused(s, &source, reported))
            .map(Located::in_app)
            .collect();
        report.unselected += apply_settings(target, &mut found);
        if !found.is_empty() && keep_text(target, files, report) {
            report.problems.extend(found);
            report
                .problems
                .sort_by_key(|p| (p.file.unwrap_or(0), p.diagnostic.span.start));
        }
    }
}

/// Marks in `into` the codes `from` used: the same file's suppressions, in
/// the same order (one text, read twice).
fn mark_used_as(into: &[Suppression], from: &[Suppression]) {
    for (a, b) in into.iter().zip(from) {
        for (x, y) in a.codes.iter().zip(&b.codes) {
            if y.used() {
                x.mark_used();
            }
        }
    }
}

/// The coordinators the bundles among `reports` submit, checked as their
/// bundle configures them, each report placed after its bundle's.
fn check_members(
    targets: Vec<Target>,
    mut reports: Vec<Report>,
    plan: &Plan,
) -> (Vec<Target>, Vec<Report>) {
    let mut owners = Vec::new();
    let mut member_targets = Vec::new();
    for (i, (target, report)) in targets.iter().zip(reports.iter_mut()).enumerate() {
        for member in std::mem::take(&mut report.members) {
            owners.push(i);
            member_targets.push(Target {
                path: member.file.clone(),
                folder: Arc::clone(&target.folder),
                member: Some(member),
                run: None,
            });
        }
    }
    if member_targets.is_empty() {
        return (targets, reports);
    }
    let member_reports = check_all(&member_targets, plan);
    let member_paths: HashSet<PathBuf> = member_targets.iter().map(|t| real(&t.path)).collect();
    for (target, report) in targets.iter().zip(reports.iter_mut()) {
        if member_paths.contains(&real(&target.path)) {
            // Checked alone it had no configuration; its bundle gave it one,
            // so the note listing the names the job must define is moot.
            report.problems.retain(|p| {
                !(p.diagnostic.code == EL_UNKNOWN_VARIABLE
                    && p.diagnostic.severity == Severity::Note)
            });
        }
    }
    let mut all_targets = Vec::with_capacity(targets.len() + member_targets.len());
    let mut all_reports = Vec::with_capacity(all_targets.capacity());
    let mut members = member_targets
        .into_iter()
        .zip(member_reports)
        .zip(owners)
        .peekable();
    for (i, (target, report)) in targets.into_iter().zip(reports).enumerate() {
        let bundle: Arc<Path> = Arc::from(target.path.as_path());
        all_targets.push(target);
        all_reports.push(report);
        while let Some(((target, mut report), _)) = members.next_if(|(_, owner)| *owner == i) {
            report.bundle = Some(Arc::clone(&bundle));
            all_targets.push(target);
            all_reports.push(report);
        }
    }
    (all_targets, all_reports)
}

/// The workflows among `reports` checked without a configuration, checked
/// again as the coordinators of the check run them (a coordinator beside
/// one, not given, is read for that too): their variables are then the
/// coordinator's job and action configuration. Each workflow keeps its
/// place; the problems of several coordinators' runs are merged.
fn check_runs(targets: &[Target], mut reports: Vec<Report>, plan: &Plan) -> Vec<Report> {
    // A workflow checked with its submitter's configuration finds the
    // sub-workflows it runs, checked next: a chain as deep as Oozie allows
    // (`oozie.action.subworkflow.max.depth`, 50 by default:
    // oozie-default.xml:2121 at release-5.2.1) is followed.
    for round in 0..MAX_SUB_WORKFLOW_DEPTH {
        let progressed;
        (reports, progressed) = check_runs_round(targets, reports, plan, round == 0);
        if !progressed {
            break;
        }
    }
    reports
}

/// How deep a chain of workflows running workflows is followed.
const MAX_SUB_WORKFLOW_DEPTH: usize = 50;

/// One round of [`check_runs`]: the waiting workflows that reports run,
/// checked again (and, in the first round, the coordinators beside the
/// others read); whether any was.
fn check_runs_round(
    targets: &[Target],
    mut reports: Vec<Report>,
    plan: &Plan,
    read_beside: bool,
) -> (Vec<Report>, bool) {
    let waiting: FxHashMap<PathBuf, usize> = targets
        .iter()
        .zip(&reports)
        .enumerate()
        .filter(|(_, (_, r))| r.unconfigured_workflow)
        .map(|(i, (t, _))| (real(&t.path), i))
        .collect();
    if waiting.is_empty() {
        return (reports, false);
    }
    let mut runs: Vec<(usize, WorkflowRun)> = reports
        .iter()
        .flat_map(|r| &r.runs)
        .filter_map(|run| {
            Some((
                *waiting.get(&real(&run.workflow(plan.files)?))?,
                run.clone(),
            ))
        })
        .collect();
    // The coordinators beside a workflow no coordinator of the check runs
    // (a commit that changes the workflow alone, an editor's one file).
    // (Each folder is listed once.)
    let checked: HashSet<PathBuf> = targets.iter().map(|t| real(&t.path)).collect();
    let mut folders: BTreeMap<&Path, usize> = BTreeMap::new();
    for (path, &i) in waiting.iter().filter(|_| read_beside) {
        if !runs.iter().any(|(j, _)| *j == i) {
            folders.insert(path.parent().unwrap_or(Path::new(".")), i);
        }
    }
    let mut beside = Vec::new();
    for (dir, i) in folders {
        let Some(target) = targets.get(i) else {
            continue;
        };
        let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "xml") && !checked.contains(p))
            .collect();
        found.sort();
        beside.extend(found.into_iter().map(|p| Target {
            path: p,
            folder: Arc::clone(&target.folder),
            member: None,
            run: None,
        }));
    }
    if !beside.is_empty() {
        for report in check_all(&beside, plan) {
            runs.extend(
                report.runs.into_iter().filter_map(|run| {
                    Some((*waiting.get(&real(&run.workflow(plan.files)?))?, run))
                }),
            );
        }
    }
    if runs.is_empty() {
        return (reports, false);
    }
    let run_targets: Vec<Target> = runs
        .iter()
        .filter_map(|(i, run)| {
            let target = targets.get(*i)?;
            Some(Target {
                path: target.path.clone(),
                folder: Arc::clone(&target.folder),
                member: None,
                run: Some(run.clone()),
            })
        })
        .collect();
    let mut rechecked: FxHashMap<usize, Report> = FxHashMap::default();
    for ((i, run), mut report) in runs.iter().zip(check_all(&run_targets, plan)) {
        for p in &mut report.problems {
            if p.diagnostic.code == EL_UNKNOWN_VARIABLE {
                let help = p.diagnostic.help.take().unwrap_or_default();
                p.diagnostic.help = Some(format!(
                    "{help} (this workflow runs with the configuration {} gives it: its job's properties and its action's <configuration>)",
                    run.submitter.display()
                ));
            }
        }
        match rechecked.get_mut(i) {
            // (The workflow's own problems are the same in every run; what
            // differs is in the workflow's text.)
            Some(first) => {
                mark_used_as(&first.silenced, &report.silenced);
                for p in report.problems {
                    let seen = first.problems.iter().any(|q| {
                        q.file == p.file
                            && q.diagnostic.code == p.diagnostic.code
                            && q.diagnostic.span == p.diagnostic.span
                    });
                    if !seen && p.file.unwrap_or(0) == 0 {
                        first.problems.push(p);
                    }
                }
            }
            None => {
                rechecked.insert(*i, report);
            }
        }
    }
    for (i, report) in rechecked {
        if let Some(slot) = reports.get_mut(i) {
            *slot = report;
        }
    }
    (reports, true)
}

/// `path` as the file system names it, to tell one file reached by two
/// spellings (`./c/`, `c`).
fn real(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

/// When bundles brought their coordinators in, each problem once: a file
/// checked both alone and through a bundle (or through two bundles, or
/// twice through one) finds some problems in each check. Kept where first
/// reported, in the order of the reports.
fn report_each_problem_once(targets: &[Target], reports: &mut [Report]) {
    if !reports.iter().any(|r| r.bundle.is_some()) {
        return;
    }
    // (A problem is told from another by its file, code, place and message.)
    let mut seen: HashSet<(PathBuf, &'static str, u32, u32, String)> = HashSet::new();
    for (target, report) in targets.iter().zip(reports.iter_mut()) {
        let path = real(&target.path);
        let files: Vec<PathBuf> = report
            .sources
            .files
            .iter()
            .enumerate()
            .map(|(i, (name, _))| {
                if i == 0 {
                    path.clone()
                } else {
                    real(Path::new(name))
                }
            })
            .collect();
        report.problems.retain(|p| {
            let d = &p.diagnostic;
            let file = files.get(p.file.unwrap_or(0)).cloned().unwrap_or_default();
            seen.insert((file, d.code, d.span.start, d.span.end, d.message.clone()))
        });
    }
}

/// An application loaded, or, when it could not be, what checking it
/// returns: its problems (and nothing else found), or the usage error that
/// stops the check.
fn unloaded_as_checked<T, Found: Default>(
    loaded: Result<T, Stop>,
) -> Result<T, Result<(Vec<Located>, Found), String>> {
    loaded.map_err(|stop| match stop {
        Stop::Usage(message) => Err(message),
        Stop::Problems(problems) => Ok((problems, Found::default())),
    })
}

/// A bundle's problems, and the coordinators it submits (each with the file
/// to check); or why its configuration could not be read.
fn bundle(
    doc: &xml::Document,
    path: &Path,
    input: &JobInput,
    sources: &mut Sources,
) -> Result<(Vec<Located>, Vec<Member>), String> {
    let loaded = match unloaded_as_checked(load::bundle(doc, path, input, sources)) {
        Ok(loaded) => loaded,
        Err(checked) => return checked,
    };
    let bundle = &loaded.bundle;
    let texts = bundle.texts();
    let (submitted, submission) =
        crate::oozie::bundle::submit(bundle, &loaded.config, input.processing_zone);
    // Whether the coordinators are checked: the bundle gives them its
    // configuration, so one it was not given must need none.
    let mut reach_coordinators = true;
    // (The static checks first: where evaluation fails on the same call,
    // their diagnostic, with its help, is the one kept.)
    let mut problems;
    if loaded.job.configured {
        let known: FxHashSet<&str> = submitted
            .vars
            .keys()
            .map(String::as_str)
            .chain(bundle.parameters.iter().map(|p| p.name.name.as_str()))
            .collect();
        problems = check_el(
            texts.iter().map(|t| (None, *t)),
            Library::Bundle,
            Some(&known),
        );
        problems.extend(submission);
    } else {
        // Without a configuration, the names the job must define (parameters
        // without a default among them) are a note, and if there are any, its
        // coordinators, which would be given that configuration, are not
        // checked.
        let mut needed = free_variables(texts.iter().copied(), Library::Bundle, &submitted.vars);
        needed.extend(
            bundle
                .parameters
                .iter()
                .filter(|p| !submitted.vars.contains_key(&p.name.name))
                .map(|p| p.name.name.clone()),
        );
        problems = check_el(texts.iter().map(|t| (None, *t)), Library::Bundle, None);
        problems.extend(submission.into_iter().filter(|p| {
            p.diagnostic.code != EL_UNKNOWN_VARIABLE && p.diagnostic.code != MISSING_PARAMETER
        }));
        if !needed.is_empty() {
            reach_coordinators = false;
            problems.push(needed_note(
                bundle.name_span,
                "the job",
                needed.iter().map(String::as_str),
                "give its configuration (--config FILE, -D NAME=VALUE, or a job.properties beside the bundle) to check the values and the coordinators",
            ));
        }
    }
    let mut members = Vec::new();
    for coordinator in &submitted.coordinators {
        // Every coordinator's app-path must exist when the bundle starts,
        // a disabled one's too (BundleStartXCommand:162-164, mergeConfig
        // before isEnabled); only the enabled ones are submitted.
        match load::coordinator_file(
            &coordinator.app_path,
            path,
            input,
            coordinator.ir.app_path.span,
        ) {
            Ok(file) if reach_coordinators && coordinator.enabled => members.push(Member {
                file,
                name: coordinator.name.clone(),
                bundle_path: path.to_path_buf(),
                defines: submitted.coordinator_defines(input.defines, coordinator),
                job: loaded.job.clone(),
            }),
            Ok(_) => {}
            Err(d) => problems.push(Located::in_app(d)),
        }
    }
    Ok((problems, members))
}

/// Checks the file at `path`; `member` when a bundle submits it.
fn check_file(path: &Path, input: &JobInput, member: Option<&Member>) -> Report {
    let mut sources = Sources::default();
    let mut events = None;
    let mut silenced = Vec::new();
    let mut members = Vec::new();
    let mut runs = Vec::new();
    let mut unconfigured_workflow = false;
    let mut skipped = false;
    // (The tree borrows the text, which `sources` shares.)
    let (text, unread) = match read_application(path, input.files, &mut sources) {
        Ok(text) => (text, None),
        Err(stop) => (Arc::from(""), Some(stop)),
    };
    let arena = xml::tree::arena_for(text.len());
    let parsed = match unread {
        Some(stop) => Err(stop),
        None => parse_document(&text, &arena),
    };
    let problems = match parsed {
        Err(Stop::Usage(message)) => return Report::failed(message),
        Err(Stop::Problems(problems)) => problems,
        Ok(doc) => {
            let problems = match (doc.root.name, member) {
                ("coordinator-app", _) => match coordinator(&doc, path, input, &mut sources) {
                    Ok((mut problems, found, found_runs)) => {
                        events = found;
                        runs = found_runs;
                        if let Some(member) = member {
                            problems.extend(load::refused_in_bundle(
                                &doc,
                                &member.bundle_path,
                                &member.name,
                            ));
                        }
                        problems
                    }
                    // A configuration that cannot be read: an I/O error.
                    Err(message) => return Report::failed(message),
                },
                (_, Some(member)) => {
                    load::not_a_coordinator(&doc, &member.bundle_path, &member.name)
                        .into_iter()
                        .collect()
                }
                ("bundle-app", None) => match bundle(&doc, path, input, &mut sources) {
                    Ok((problems, found)) => {
                        members = found;
                        problems
                    }
                    Err(message) => return Report::failed(message),
                },
                ("workflow-app", None) => match workflow(&doc, path, input, &mut sources) {
                    Ok((problems, configured, found_runs)) => {
                        unconfigured_workflow = !configured;
                        runs = found_runs;
                        problems
                    }
                    Err(message) => return Report::failed(message),
                },
                ("datasets", None) => match datasets(&doc, path, input, &mut sources) {
                    Ok(problems) => problems,
                    Err(message) => return Report::failed(message),
                },
                (other, None) => {
                    let said = unknown_document(&doc.root, other);
                    skipped = said.severity == Severity::Note;
                    vec![Located::in_app(said)]
                }
            };
            // `<!-- coordc: ignore CODE -->` in the application file.
            silenced = suppressions(&doc, &text);
            problems
                .into_iter()
                .chain(
                    suppress::unknown_codes(&silenced)
                        .into_iter()
                        .map(Located::in_app),
                )
                .filter(|p| p.file.unwrap_or(0) != 0 || !is_suppressed(&silenced, &p.diagnostic))
                .collect()
        }
    };
    let mut problems = dedup(problems);
    // In the order of the text, file by file (the application first), as an
    // editor lists them.
    problems.sort_by_key(|p| (p.file.unwrap_or(0), p.diagnostic.span.start));
    Report {
        sources,
        problems,
        io_error: None,
        unselected: 0,
        skipped,
        events,
        silenced,
        members,
        bundle: None,
        runs,
        unconfigured_workflow,
    }
}

/// The roots of the documents coordc checks.
const DOCUMENT_ROOTS: &[&str] = &["coordinator-app", "bundle-app", "workflow-app", "datasets"];

/// A document whose root is none of [`DOCUMENT_ROOTS`]: skipped (a note),
/// unless it is in an Oozie namespace, where the name is a mistake Oozie
/// refuses (an error, with the name meant).
fn unknown_document(root: &xml::Element, name: &str) -> Diagnostic {
    let in_oozie = root
        .namespace
        .is_some_and(|ns| ns.starts_with("uri:oozie:"));
    if !in_oozie {
        return Diagnostic::note(
            XML_UNKNOWN_DOCUMENT,
            root.name_span,
            format!(
                "skipped: <{name}> is not a coordinator, bundle, datasets or workflow document"
            ),
        );
    }
    let namespace = root.namespace.unwrap_or_default();
    let d = Diagnostic::error(
        XML_UNKNOWN_DOCUMENT,
        root.name_span,
        format!(
            "<{name}> is not a document of {namespace}: Oozie refuses it when it validates the application"
        ),
    );
    match closest(name, DOCUMENT_ROOTS.iter().map(|r| r.to_string())) {
        // (No machine fix: the end tag holds the name too.)
        Some(best) => d.with_help(format!("did you mean <{best}>? (rename the end tag too)")),
        None => d.with_help(format!(
            "an Oozie application's root is one of {}",
            DOCUMENT_ROOTS
                .iter()
                .map(|r| format!("<{r}>"))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// One report of each problem: the static checks and the evaluation can find
/// the same one at the same place. An evaluation failure (EL005 to EL007, a
/// datetime that does not parse) inside a value a static rule already
/// reports is that rule's consequence (an argument that cannot convert fails
/// to convert; a misplaced function has no context; a dotted name's variable
/// is undefined; an instance list is no datetime).
fn dedup(mut problems: Vec<Located>) -> Vec<Located> {
    const STATIC: &[&str] = &[
        EL_SYNTAX,
        EL_UNKNOWN_FUNCTION,
        EL_ARITY,
        EL_ARG_TYPE,
        EL_MISPLACED,
        EL_DOTTED_NAME,
        INSTANCE_SYNTAX,
        WF_SUBMISSION_EL,
    ];
    // (A datetime that does not parse, inside an instance list, is the list.)
    const EVALUATION: &[&str] = &[
        EL_UNKNOWN_VARIABLE,
        EL_EVAL,
        EL_NEEDS_CONTEXT,
        TIME_DATETIME,
    ];
    let reported: Vec<(Option<usize>, Span)> = problems
        .iter()
        .filter(|p| STATIC.contains(&p.diagnostic.code))
        .map(|p| (p.file, p.diagnostic.span))
        .collect();
    let evaluation_failures: Vec<(Option<usize>, Span)> = problems
        .iter()
        .filter(|p| EVALUATION.contains(&p.diagnostic.code))
        .map(|p| (p.file, p.diagnostic.span))
        .collect();
    let mut seen = HashSet::new();
    problems.retain(|p| {
        let span = p.diagnostic.span;
        let consequence = EVALUATION.contains(&p.diagnostic.code)
            && reported
                .iter()
                .any(|(file, s)| *file == p.file && s.start <= span.start && span.end <= s.end);
        // A data-in's or data-out's dataset whose name failed to resolve
        // (where the failure is reported) is that failure's consequence.
        let unresolved_dataset =
            p.diagnostic.code == UNDEFINED_DATASET && evaluation_failures.contains(&(p.file, span));
        !consequence && !unresolved_dataset && seen.insert((p.file, p.diagnostic.code, span))
    });
    problems
}

/// The static EL checks of `texts`, in `library`, knowing the defined names
/// when the job was configured.
fn check_el<'a>(
    texts: impl IntoIterator<Item = (Option<usize>, &'a ElText)>,
    library: Library,
    known: Option<&FxHashSet<&str>>,
) -> Vec<Located> {
    let ctx = ElCheckContext {
        library,
        known_variables: known,
    };
    texts
        .into_iter()
        .flat_map(|(file, text)| {
            check_template(text.template(), &ctx)
                .into_iter()
                .map(move |d| Located {
                    file,
                    diagnostic: text.in_file(d),
                })
        })
        .collect()
}

/// A coordinator's problems, and its events when it could be submitted; or
/// why its configuration could not be read.
fn coordinator(
    doc: &xml::Document,
    path: &Path,
    input: &JobInput,
    sources: &mut Sources,
) -> Result<CheckedCoordinator, String> {
    let mut loaded = match unloaded_as_checked(load::coordinator(doc, path, input, sources)) {
        Ok(loaded) => loaded,
        Err(checked) => return checked.map(|(problems, events)| (problems, events, Vec::new())),
    };
    let mut events = None;
    let mut runs = Vec::new();
    let app = &loaded.app;
    let mut texts: Vec<(Option<usize>, &ElText)> = job::placed_texts(app, &loaded.included)
        .into_iter()
        .map(|(file, text, _)| (file, text))
        .collect();
    texts.push((None, &app.frequency));
    texts.extend(app.datasets.iter().map(|d| (d.file, &d.frequency)));
    texts.extend(loaded.included.iter().map(|d| (d.file, &d.frequency)));
    texts.extend(app.includes.iter().map(|t| (None, t)));
    let controls = &app.controls;
    texts.extend(
        [
            &controls.timeout,
            &controls.concurrency,
            &controls.execution,
            &controls.throttle,
        ]
        .into_iter()
        .flatten()
        .map(|t| (None, t)),
    );
    let mut problems = loaded.include_problems.clone();
    problems.extend(crate::check::datasets::check(app, &loaded.included));
    problems.extend(crate::check::instances::check(app));
    let mut needed = free_variables(
        texts.iter().map(|(_, t)| *t),
        Library::Coordinator,
        &loaded.vars,
    );
    let evaluable = needed.is_empty();
    // (Parameters without a default are names the job must define, read or
    // not; one nothing reads stops no evaluation.)
    needed.extend(
        parameters::missing(&app.parameters, &loaded.vars)
            .into_iter()
            .map(str::to_string),
    );
    if loaded.configured {
        problems.extend(loaded.parameter_problems.iter().cloned());
    } else {
        problems.extend(unconfigured_parameters(&loaded.parameter_problems));
    }
    // Without a configuration, the names the job must define are a note,
    // and a value that reads one is not evaluated; every other value is.
    let unconfigured_note = (!loaded.configured && !needed.is_empty()).then(|| {
        needed_note(
            app.name_span,
            "the job",
            needed.iter().map(String::as_str),
            &format!("{GIVE_CONFIGURATION} to check the values that read them"),
        )
    });
    // A declared parameter the job does not give is CO004, not an unknown name.
    let known: FxHashSet<&str> = loaded
        .vars
        .keys()
        .map(String::as_str)
        .chain(app.parameters.iter().map(|p| p.name.name.as_str()))
        .collect();
    problems.extend(check_el(
        texts.iter().copied(),
        Library::Coordinator,
        loaded.configured.then_some(&known),
    ));
    let options = Options {
        includes_incomplete: !loaded.include_problems.is_empty(),
        ..Options::first_action(input.processing_zone, input.check_maximum_frequency)
    };
    match job::prepare(app, &loaded.included, &loaded.vars, &options) {
        // The first action's materialization, as `oozie job -dryrun` runs it.
        Ok(job) => {
            problems.extend(job.warnings.iter().cloned());
            problems.extend(crate::check::schedule::check(app, &job));
            problems.extend(crate::check::zones::check(app, &job));
            problems.extend(crate::check::cron::check(app, &job));
            let first = job.actions().next();
            let first_action = first.as_ref().and_then(|a| a.as_ref().ok());
            problems.extend(crate::check::data::check(app, &job, first_action));
            // (Named as `read_application` names file 0.)
            let file = Arc::from(path.to_string_lossy());
            events = Some(AppEvents::of(app, &job, file));
            runs.extend(workflow_run(path, first_action, input));
            if let Some(Err(d)) = first {
                problems.push(Located::in_app(d));
            }
        }
        Err(more) => problems.extend(more),
    }
    if let Some(note) = unconfigured_note {
        // (What failed on an undefined name is in the note; what an
        // evaluation could not reach for lack of it is not reported.)
        problems.retain(|p| p.diagnostic.code != EL_UNKNOWN_VARIABLE);
        problems.push(note);
        if !evaluable {
            events = None;
        }
    }
    // A parameter the job does not give (CO004) is not reported again where
    // the evaluation reads it.
    let missing: FxHashSet<&str> = parameters::missing(&app.parameters, &loaded.vars)
        .into_iter()
        .collect();
    let source = sources.application();
    problems.retain(|p| {
        let span = p.diagnostic.span;
        !(p.file.is_none()
            && p.diagnostic.code == EL_UNKNOWN_VARIABLE
            && source
                .get(span.start as usize..span.end as usize)
                .is_some_and(|name| missing.contains(name)))
    });
    where_start_and_end_are_set(app, sources, &mut problems);
    if !runs.is_empty() {
        let vars = Arc::new(std::mem::take(&mut loaded.vars));
        for run in &mut runs {
            run.job = Arc::clone(&vars);
        }
    }
    Ok((problems, events, runs))
}

/// The end-before-start error (TM001 at the end) says where the
/// properties its values read are set: `start` at job.properties:2.
fn where_start_and_end_are_set(app: &ir::Coordinator, sources: &Sources, problems: &mut [Located]) {
    let Some(problem) = problems.iter_mut().find(|p| {
        p.file.is_none()
            && p.diagnostic.code == TIME_DATETIME
            && p.diagnostic.span == app.end.span
            && p.diagnostic
                .message
                .starts_with("the end must be after the start")
    }) else {
        return;
    };
    let mut places = Vec::new();
    for text in [&app.start, &app.end] {
        for (name, _) in &findings(text.template(), Library::Coordinator).variables {
            let Some((file, file_name, _, property)) = sources.property_definition(name) else {
                continue;
            };
            let (line, _) = sources.line_column(file, property.name_span.start as usize);
            let place = format!("`{name}` is set at {file_name}:{line}");
            if !places.contains(&place) {
                places.push(place);
            }
        }
    }
    if !places.is_empty() {
        let help = problem.diagnostic.help.take().unwrap_or_default();
        problem.diagnostic.help = Some(format!("{help} ({})", places.join(", ")));
    }
}

/// A coordinator's problems, its events when it could be submitted, and
/// the local workflows its actions run.
type CheckedCoordinator = (Vec<Located>, Option<AppEvents>, Vec<WorkflowRun>);

/// The local workflow a coordinator's actions run, with the configuration
/// its first action gives it; none when its application path is not
/// local (or not resolved).
fn workflow_run(
    path: &Path,
    first: Option<&crate::oozie::action::Action>,
    input: &JobInput,
) -> Option<WorkflowRun> {
    let first = first?;
    let mut given: Vec<(String, String)> = first
        .configuration
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    // The action's app-path is the workflow job's application path
    // (CoordActionStartXCommand.java:153-161).
    given.push((
        AppKind::Workflow.path_property().to_string(),
        first.app_path.to_string(),
    ));
    Some(WorkflowRun {
        app_path: first.app_path.trim().to_string(),
        maps: input.maps.to_vec(),
        submitter: path.to_path_buf(),
        // (The job's variables are attached once the job is done with them.)
        job: Arc::default(),
        given,
    })
}

/// The variables `texts` read that are neither defined nor EL constants.
fn free_variables<'a>(
    texts: impl Iterator<Item = &'a ElText>,
    library: Library,
    vars: &VarMap,
) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for text in texts {
        for (name, _) in &findings(text.template(), library).variables {
            if !vars.contains_key(&**name) {
                names.insert(name.to_string());
            }
        }
    }
    names
}

/// How a note asks for the job's configuration.
const GIVE_CONFIGURATION: &str = "give its configuration (--config FILE, -D NAME=VALUE, or a job.properties beside the application)";

/// The note, at `span`, that `job` must define `names`, and what to do
/// (`then`) to have the values checked: what a check without a
/// configuration says instead of reporting the names undefined.
fn needed_note<'a>(
    span: Span,
    job: &str,
    names: impl Iterator<Item = &'a str>,
    then: &str,
) -> Located {
    let names: Vec<String> = names.map(|n| format!("`{n}`")).collect();
    Located::in_app(Diagnostic::note(
        EL_UNKNOWN_VARIABLE,
        span,
        format!("{job} must define {}; {then}", names.join(", ")),
    ))
}

/// The `<parameters>` problems of a job given no configuration: an empty name
/// (E0739) is one whatever the job defines; a parameter it may define is not.
fn unconfigured_parameters(problems: &[Located]) -> impl Iterator<Item = Located> + '_ {
    problems
        .iter()
        .filter(|p| ![MISSING_PARAMETER, WF_MISSING_PARAMETER].contains(&p.diagnostic.code))
        .cloned()
}

/// A workflow's problems, and whether its job was given a configuration;
/// or why its configuration could not be read.
fn workflow(
    doc: &xml::Document,
    path: &Path,
    input: &JobInput,
    sources: &mut Sources,
) -> Result<CheckedWorkflow, String> {
    let invalid = schema_problems(doc);
    if !invalid.is_empty() {
        return Ok((invalid, true, Vec::new()));
    }
    let definition_bytes = sources.application().len();
    let (wf, problems) = ir::lower::workflow(&doc.root);
    let mut problems: Vec<Located> = problems.into_iter().map(Located::in_app).collect();
    // The job's configuration, when there is one: its variables are what
    // the workflow's EL may read (DagELFunctions.configureEvaluator sets
    // every property of the job's configuration as a variable,
    // DagELFunctions.java:60-74 at release-5.2.1; `<global>`'s
    // configuration is the actions' Hadoop configuration, not variables:
    // LiteWorkflowAppParser.handleDefaultsAndGlobal).
    let mut job_vars = None;
    let mut configured = true;
    match load::workflow_job(&wf, path, input, sources) {
        Ok(job) if job.configured => {
            problems.extend(job.parameter_problems);
            problems.extend(
                crate::check::actions::submission_el(&wf, Some(&job.vars))
                    .into_iter()
                    .map(Located::in_app),
            );
            job_vars = Some(job.vars);
        }
        Ok(job) => {
            configured = false;
            problems.extend(unconfigured_parameters(&job.parameter_problems));
            problems.extend(
                crate::check::actions::submission_el(&wf, None)
                    .into_iter()
                    .map(Located::in_app),
            );
            let read: BTreeSet<String> =
                free_variables(wf.texts().into_iter(), Library::Workflow, &job.vars)
                    .into_iter()
                    .filter(|name| !wf.parameters.iter().any(|p| p.name.name == *name))
                    .chain(
                        parameters::missing(&wf.parameters, &job.vars)
                            .into_iter()
                            .map(str::to_string),
                    )
                    .collect();
            if !read.is_empty() {
                problems.push(unknown_variables_warning(
                    wf.name_span,
                    &read,
                    job.submits_other.as_deref(),
                ));
            }
        }
        Err(Stop::Usage(message)) => return Err(message),
        Err(Stop::Problems(more)) => problems.extend(more),
    }
    let actions = crate::check::actions::check(&wf, definition_bytes, job_vars.as_ref());
    // Oozie refuses a definition over its length before parsing it (E0736):
    // the graph it never sees is not walked.
    if !actions.iter().any(|d| d.code == WF_LENGTH) {
        problems.extend(
            crate::check::workflow::check(&wf)
                .into_iter()
                .map(Located::in_app),
        );
    }
    problems.extend(actions.into_iter().map(Located::in_app));
    // A declared parameter the job does not give is WF011, not an unknown name.
    let known: Option<FxHashSet<&str>> = job_vars.as_ref().map(|vars| {
        vars.keys()
            .map(String::as_str)
            .chain(wf.parameters.iter().map(|p| p.name.name.as_str()))
            .collect()
    });
    problems.extend(check_el(
        wf.texts().into_iter().map(|t| (None, t)),
        Library::Workflow,
        known.as_ref(),
    ));
    let runs = match job_vars {
        Some(vars) => sub_workflow_runs(&wf, path, vars, input),
        None => Vec::new(),
    };
    Ok((problems, configured, runs))
}

/// A workflow's problems, whether its job was given a configuration, and
/// the local workflows its sub-workflow actions run.
type CheckedWorkflow = (Vec<Located>, bool, Vec<WorkflowRun>);

/// The local workflows the sub-workflow actions of `wf` (at `path`, with
/// its job's variables `vars`) run, with what each is given: the parent's
/// job configuration only with `<propagate-configuration/>`, its user, the
/// app-path, then the action's `<configuration>`
/// (SubWorkflowActionExecutor.java:180-212 at release-5.2.1). Values that
/// need more than the job's variables keep their text: the names are what
/// the child's check reads.
fn sub_workflow_runs(
    wf: &ir::Workflow,
    path: &Path,
    vars: VarMap,
    input: &JobInput,
) -> Vec<WorkflowRun> {
    let resolved = |text: &ElText| {
        job::submit_text(text, &vars, input.processing_zone)
            .unwrap_or_else(|_| text.text().to_string())
    };
    let user = vars.get("user.name").cloned().flatten();
    let mut runs = Vec::new();
    for node in &wf.nodes {
        let ir::NodeKind::Action(action) = &node.kind else {
            continue;
        };
        if action.kind.name != "sub-workflow" {
            continue;
        }
        let Some((_, app_path)) = action
            .body
            .values
            .iter()
            .find(|(n, _)| n.name == "app-path")
        else {
            continue;
        };
        let app_path = resolved(app_path).trim().to_string();
        let propagate = action
            .body
            .elements
            .iter()
            .any(|e| e.name == "propagate-configuration");
        let mut given: Vec<(String, String)> = Vec::new();
        if !propagate && let Some(user) = &user {
            given.push(("user.name".to_string(), user.clone()));
        }
        given.push((
            AppKind::Workflow.path_property().to_string(),
            app_path.clone(),
        ));
        given.extend(
            action
                .body
                .configuration
                .iter()
                .map(|p| (resolved(&p.name), resolved(&p.value))),
        );
        runs.push((
            propagate,
            WorkflowRun {
                app_path,
                maps: input.maps.to_vec(),
                submitter: path.to_path_buf(),
                job: Arc::default(),
                given,
            },
        ));
    }
    // (The parent job's variables are shared by the runs that propagate them.)
    let shared = Arc::new(vars);
    runs.into_iter()
        .map(|(propagate, mut run)| {
            if propagate {
                run.job = Arc::clone(&shared);
            }
            run
        })
        .collect()
}

/// The warning that the variables a workflow reads (`read`) cannot be
/// checked: nothing in the check gives it a configuration. (Said once per
/// workflow, at its name.)
fn unknown_variables_warning(span: Span, read: &BTreeSet<String>, other: Option<&str>) -> Located {
    let names: Vec<String> = read.iter().map(|n| format!("`{n}`")).collect();
    let why = match other {
        Some(other) => format!(
            "the configuration beside it submits {other}, and no coordinator checked here runs this workflow"
        ),
        None => {
            "no job configuration submits it, and no coordinator checked here runs it".to_string()
        }
    };
    Located::in_app(
        Diagnostic::warning(
            EL_UNKNOWN_VARIABLE,
            span,
            format!(
                "the variables this workflow reads ({}) are not checked: {why}",
                names.join(", ")
            ),
        )
        .with_help(
            "check it with the coordinator that runs it (both in one `coordc check`), or give its job configuration: --config FILE, -D NAME=VALUE, a job.properties beside it, or a .properties beside it whose oozie.wf.application.path names it",
        ),
    )
}

/// A datasets file checked on its own: what submission checks in each of
/// its datasets and in those it includes, as if a coordinator included it
/// (spec §5.4; CoordSubmitXCommand.java:1009-1030, 1143-1148), with the job configuration given
/// (`--config`, `-D`); without one, the names its values read are a note,
/// and those values are not evaluated. Or why the configuration could not
/// be read.
fn datasets(
    doc: &xml::Document,
    path: &Path,
    input: &JobInput,
    sources: &mut Sources,
) -> Result<Vec<Located>, String> {
    let invalid = schema_problems(doc);
    if !invalid.is_empty() {
        return Ok(invalid);
    }
    let (includes, mut found, problems) = ir::lower::dataset_file(&doc.root, 0);
    let mut problems: Vec<Located> = problems.into_iter().map(Located::in_app).collect();
    let loaded = match load::datasets_file(&includes, path, input, sources) {
        Ok(loaded) => loaded,
        Err(Stop::Usage(message)) => return Err(message),
        Err(Stop::Problems(found)) => return Ok(found),
    };
    problems.extend(loaded.include_problems);
    found.extend(loaded.included);
    let vars = loaded.vars;
    let texts: Vec<(Option<usize>, &ElText)> = includes
        .iter()
        .map(|t| (None, t))
        .chain(found.iter().flat_map(|d| {
            std::iter::once((d.file, &d.frequency))
                .chain(job::dataset_texts(d).map(|(file, text, _)| (file, text)))
        }))
        .collect();
    let known: FxHashSet<&str> = vars.keys().map(String::as_str).collect();
    let known = loaded.configured.then_some(&known);
    problems.extend(check_el(texts.iter().copied(), Library::Coordinator, known));
    problems.extend(job::misplaced_in(
        found.iter().flat_map(job::dataset_texts),
        &vars,
    ));
    job::included_by_name(&found, &mut problems);
    for dataset in &found {
        problems.extend(job::dataset_problems(dataset, &vars, input.processing_zone));
    }
    let needed = free_variables(texts.iter().map(|(_, t)| *t), Library::Coordinator, &vars);
    if !loaded.configured && !needed.is_empty() {
        problems.retain(|p| p.diagnostic.code != EL_UNKNOWN_VARIABLE);
        problems.push(needed_note(
            doc.root.name_span,
            "the job that includes this file",
            needed.iter().map(String::as_str),
            "give its configuration (--config FILE, -D NAME=VALUE) to check the values",
        ));
    }
    Ok(problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(file: Option<usize>, code: &'static str, at: usize) -> Located {
        Located {
            file,
            diagnostic: Diagnostic::warning(code, Span::new(at, at + 1), format!("{code} {at}")),
        }
    }

    #[test]
    fn problems_are_limited_per_code_and_file() {
        let mut problems: Vec<Located> = (0..250).map(|i| problem(None, "XML005", i)).collect();
        problems.extend((0..3).map(|i| problem(None, "EL001", 1_000 + i)));
        problems.extend((0..150).map(|i| problem(Some(1), "XML005", i)));
        problems.extend((0..MOST_PER_CODE).map(|i| problem(Some(2), "XML005", i)));
        limit_per_code(&mut problems);
        let count = |file, code| {
            problems
                .iter()
                .filter(|p| p.file == file && p.diagnostic.code == code)
                .count()
        };
        // The first hundred of each, and one more saying how many were left.
        assert_eq!(count(None, "XML005"), MOST_PER_CODE + 1);
        assert_eq!(count(Some(1), "XML005"), MOST_PER_CODE + 1);
        assert_eq!(count(Some(2), "XML005"), MOST_PER_CODE);
        assert_eq!(count(None, "EL001"), 3);
        let kept: Vec<&str> = problems
            .iter()
            .filter(|p| p.file.is_none() && p.diagnostic.code == "XML005")
            .map(|p| p.diagnostic.message.as_str())
            .collect();
        assert_eq!(kept[0], "XML005 0");
        assert_eq!(kept[99], "XML005 99");
        assert!(
            kept[100].starts_with("and 150 more XML005 problem(s) in this file"),
            "{}",
            kept[100]
        );
        let summary = problems.last().expect("a summary");
        assert_eq!(summary.diagnostic.severity, Severity::Warning);
        assert!(summary.diagnostic.message.starts_with("and 50 more"));
        assert_eq!(summary.diagnostic.span, Span::new(99, 100));
    }
}
