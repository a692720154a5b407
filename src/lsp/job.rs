//! An open application loaded as `coordc check` and `coordc dryrun` load it
//! (its job configuration, includes and parameters, with the editor's
//! unsaved buffers, and its coordc.toml's processing zone and maps), for
//! what hover and completion say about it: the job's variables and where
//! each is defined, and the actions the dry run materializes. A coordinator
//! is loaded as its own job, not as a bundle would submit it.

use super::session::Session;
use crate::el::VarMap;
use crate::ir::{self, Coordinator, Dataset};
use crate::oozie::job::{self, Job, Options};
use crate::project::files::Files;
use crate::project::load::{self, JobInput, JobSource, Sources};
use crate::project::settings::Finder;
use crate::span::Span;
use crate::time::cron::MaxYear;
use crate::time::datetime::ProcessingZone;
use crate::xml;
use std::path::Path;

/// The job's variables of the coordinator or workflow at `path`, and the
/// files they were read from (file 0 is the application).
pub(super) fn variables(session: &Session, path: &Path) -> Option<(VarMap, Sources)> {
    with_document(session, path, |doc, input, mut sources| {
        match doc.root.name {
            "coordinator-app" => {
                let loaded = load::coordinator(doc, path, input, &mut sources).ok()?;
                Some((loaded.vars, sources))
            }
            "workflow-app" => {
                let (wf, _) = ir::lower::workflow(&doc.root);
                let job = load::workflow_job(&wf, path, input, &mut sources).ok()?;
                Some((job.vars, sources))
            }
            _ => None,
        }
    })
}

/// What `f` makes of the coordinator at `path` and of its job as the dry
/// run prepares it (`None` when the job cannot be submitted).
pub(super) fn with_coordinator<R>(
    session: &Session,
    path: &Path,
    f: impl FnOnce(&Coordinator, &[Dataset], Option<&Job>) -> R,
) -> Option<R> {
    with_document(session, path, |doc, input, mut sources| {
        if doc.root.name != "coordinator-app" {
            return None;
        }
        let loaded = load::coordinator(doc, path, input, &mut sources).ok()?;
        // (Enough actions for a cron's next five times.)
        let options = Options {
            limit: Some(5),
            ..Options::first_action(
                input.processing_zone,
                input.check_maximum_frequency,
                input.cron_max_year,
            )
        };
        let prepared = job::prepare(&loaded.app, &loaded.included, &loaded.vars, &options).ok();
        Some(f(&loaded.app, &loaded.included, prepared.as_ref()))
    })
}

/// What `f` makes of the document at `path`, read (its buffer, or the
/// file) and parsed, with the job it is submitted in and its sources.
fn with_document<R>(
    session: &Session,
    path: &Path,
    f: impl FnOnce(&xml::Document, &JobInput, Sources) -> Option<R>,
) -> Option<R> {
    let files = session.files();
    let settings = Settings::of(path, &files, session.cron_max_year());
    let mut sources = Sources::default();
    load::with_application(path, &files, &mut sources, |sources, opened| {
        let (_, doc) = opened.ok()?;
        f(doc, &settings.input(&files), std::mem::take(sources))
    })
}

/// What the coordc.toml that applies to a file says of its job (a wrong
/// one is said by the check; here it is as if there were none).
struct Settings {
    processing_zone: ProcessingZone,
    check_maximum_frequency: bool,
    /// Its `[map]`, made absolute.
    maps: Vec<(String, String)>,
    /// The session's (not the coordc.toml's).
    cron_max_year: MaxYear,
}

impl Settings {
    fn of(path: &Path, files: &Files, cron_max_year: MaxYear) -> Settings {
        match Finder::new(files, None, &[]).of_file(path) {
            Ok(folder) => Settings {
                processing_zone: folder.processing_zone,
                check_maximum_frequency: folder.settings.check_maximum_frequency,
                maps: folder.maps.clone(),
                cron_max_year,
            },
            Err(_) => Settings {
                processing_zone: ProcessingZone::UTC,
                check_maximum_frequency: true,
                maps: Vec::new(),
                cron_max_year,
            },
        }
    }

    /// The application's own job: the job.properties beside it.
    fn input<'a>(&'a self, files: &'a Files) -> JobInput<'a> {
        JobInput {
            configs: &[],
            files,
            job: JobSource::Own,
            defines: &[],
            maps: &self.maps,
            processing_zone: self.processing_zone,
            check_maximum_frequency: self.check_maximum_frequency,
            cron_max_year: self.cron_max_year,
        }
    }
}

pub(super) use crate::project::load::properties_of;

/// The 1-based line of `span` in `text`.
pub(super) fn line_of(text: &str, span: Span) -> usize {
    crate::lines::line_of(text, span.start as usize) + 1
}
