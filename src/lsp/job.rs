//! An open application loaded as `coordc check` and `coordc dryrun` load it
//! (its job configuration, includes and parameters, with the editor's
//! unsaved buffers, and its coordc.toml's processing zone and maps), for
//! what hover and completion say about it: the job's variables and where
//! each is defined, and the actions the dry run materializes. A coordinator
//! is loaded as its own job, not as a bundle would submit it.

use super::session::Session;
use crate::config::Property;
use crate::el::VarMap;
use crate::interp::job::{self, Job, Options};
use crate::ir::{self, Coordinator, Dataset};
use crate::project::files::Files;
use crate::project::load::{self, JobInput, JobSource, Sources};
use crate::span::Span;
use crate::time::datetime::ProcessingZone;
use crate::xml;
use std::path::Path;

/// The job's variables of the coordinator or workflow at `path`, and the
/// files they were read from (file 0 is the application).
pub fn variables(session: &Session, path: &Path) -> Option<(VarMap, Sources)> {
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
pub fn with_coordinator<R>(
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
            ..Options::first_action(input.processing_zone, input.check_maximum_frequency)
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
    let settings = Settings::of(session, path, &files);
    let mut sources = Sources::default();
    let text = load::read_application(path, &files, &mut sources).ok()?;
    let arena = xml::Arena::new();
    let doc = load::parse_document(&text, &arena).ok()?;
    f(&doc, &settings.input(&files), sources)
}

/// What the coordc.toml that applies to a file says of its job.
struct Settings {
    processing_zone: ProcessingZone,
    check_maximum_frequency: bool,
    /// Its `[map]`, made absolute.
    maps: Vec<(String, String)>,
}

impl Settings {
    fn of(session: &Session, path: &Path, files: &Files) -> Settings {
        let folder = session.settings_folder(path);
        let read = files
            .read(&folder.join("coordc.toml"))
            .ok()
            .and_then(|text| crate::check::settings::Settings::parse(&text).ok())
            .unwrap_or_else(crate::check::settings::Settings::none);
        let zone = read.processing_timezone.as_deref().unwrap_or("UTC");
        Settings {
            processing_zone: ProcessingZone::parse_option(zone).unwrap_or_default(),
            check_maximum_frequency: read.check_maximum_frequency,
            maps: read
                .maps
                .iter()
                .map(|(prefix, dir)| {
                    (
                        prefix.clone(),
                        folder.join(dir).to_string_lossy().into_owned(),
                    )
                })
                .collect(),
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
        }
    }
}

/// Where the job property `name` is defined among the configuration files
/// of `sources` (the last definition wins, as the merge does): the file's
/// name, its text and the property.
pub fn property_definition<'s>(
    sources: &'s Sources,
    name: &str,
) -> Option<(&'s str, &'s str, Property)> {
    sources.files.iter().skip(1).rev().find_map(|(file, text)| {
        let properties = properties_of(file, text)?;
        let found = properties.into_iter().rev().find(|p| p.name == name)?;
        Some((file.as_str(), &**text, found))
    })
}

/// The properties of a configuration file (`.properties`, else Hadoop XML).
pub fn properties_of(file: &str, text: &str) -> Option<Vec<Property>> {
    if file.ends_with(".xml") {
        crate::config::parse_hadoop_xml(text).ok()
    } else {
        crate::config::properties::parse(text).ok()
    }
}

/// The 1-based line of `span` in `text`.
pub fn line_of(text: &str, span: Span) -> usize {
    text.get(..span.start as usize)
        .map_or(1, |before| before.matches('\n').count() + 1)
}
