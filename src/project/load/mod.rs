//! Reading an application as Oozie receives it: the XML (parsed and validated
//! against its schema), its job configuration, its `<parameters>` and its
//! included dataset files. The commands build on this and only render what it
//! returns: every problem comes back located in the file it is about.
//!
//! `sources` keeps the files read, to render problems with; `config` finds
//! and reads a job's configuration (`user` is the local user it defaults
//! to); `includes` follows `<include>`s; `coordinator`, `workflow` and
//! `bundle` load each kind of application (`subworkflows` the workflows
//! actions run, for the simulator).

mod bundle;
mod config;
mod coordinator;
mod includes;
mod sources;
mod subworkflows;
mod user;
mod workflow;

pub(crate) use bundle::{
    BundleJob, Member, bundle, bundle_coordinator_input, bundle_members, coordinator_file,
    not_a_coordinator, refused_in_bundle,
};
pub use config::{CONFIGURATION_FILES, JobInput, JobSource};
pub use coordinator::{LoadedCoordinator, coordinator, submit};
pub(crate) use includes::datasets_file;
pub use sources::{Sources, properties_of};
pub(crate) use subworkflows::LocalWorkflows;
pub(crate) use workflow::{workflow, workflow_job};

use super::files::{Files, ReadError};
use super::locate::AppKind;
use crate::diag::{Diagnostic, Located};
use crate::xml;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Why an application could not be read to the end.
pub enum Stop {
    /// A usage or I/O error (exit 2).
    Usage(String),
    /// Problems in the files, each located; the application's problems found
    /// so far are all there.
    Problems(Vec<Located>),
}

/// Where loading and submitting tell what they find (warnings too), with
/// the sources the problems point into: `coordc dryrun` and `coordc
/// simulate` print them; the fuzz targets render them and go on.
pub(crate) type ProblemSink<'s> = &'s mut dyn FnMut(&Sources, Stop);

/// Reads the application file into `sources` (as file 0); its text, to parse
/// with [`parse_document`].
pub fn read_application(
    path: &Path,
    files: &Files,
    sources: &mut Sources,
) -> Result<Arc<str>, Stop> {
    // (The same text as `display()`, without going through a formatter.)
    let name = path.to_string_lossy().into_owned();
    let text = match files.read(path) {
        Ok(t) => t,
        Err(ReadError::Io(e)) => return Err(Stop::Usage(format!("cannot read {name}: {e}"))),
        Err(ReadError::Refused(d)) => {
            sources.add(name, String::new());
            return Err(Stop::Problems(vec![Located::in_app(d)]));
        }
    };
    sources.add(name, Arc::clone(&text));
    Ok(text)
}

/// Reads the application file at `path` into `sources` (file 0) and
/// parses it: the one way every command opens an application. `then` gets
/// the sources and the tree with its kind (`None`: a root element that is
/// no application, such as a datasets file), or why there is no tree.
pub(crate) fn with_application<R>(
    path: &Path,
    files: &Files,
    sources: &mut Sources,
    then: impl FnOnce(&mut Sources, Result<(Option<AppKind>, &xml::Document), Stop>) -> R,
) -> R {
    let text = match read_application(path, files, sources) {
        Ok(text) => text,
        Err(stop) => return then(sources, Err(stop)),
    };
    let arena = xml::tree::arena_for(text.len());
    match parse_document(&text, &arena) {
        Ok(doc) => then(sources, Ok((AppKind::of_root(doc.root.name), &doc))),
        Err(stop) => then(sources, Err(stop)),
    }
}

/// The application's tree (file 0), or why it is not well-formed XML.
pub fn parse_document<'s>(text: &'s str, arena: &'s xml::Arena) -> Result<xml::Document<'s>, Stop> {
    xml::parse(text, arena).map_err(|d| Stop::Problems(vec![Located::in_app(d)]))
}

/// The schema violations of the application `doc` (file 0 of its sources).
pub(crate) fn schema_problems(doc: &xml::Document) -> Vec<Located> {
    xml::validate(doc)
        .into_iter()
        .map(Located::in_app)
        .collect()
}

/// The IR of `doc` (file 0), by `lower`, once it is valid against its schema
/// and its EL parses; or every problem that stops it.
fn lowered<T>(
    doc: &xml::Document,
    lower: impl FnOnce(&xml::Element) -> (T, Vec<Diagnostic>),
) -> Result<T, Stop> {
    let invalid = schema_problems(doc);
    if !invalid.is_empty() {
        return Err(Stop::Problems(invalid));
    }
    let (ir, problems) = lower(&doc.root);
    if !problems.is_empty() {
        return Err(Stop::Problems(
            problems.into_iter().map(Located::in_app).collect(),
        ));
    }
    Ok(ir)
}

/// The folder of the application at `app_path`.
fn app_dir(app_path: &Path) -> PathBuf {
    app_path
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}
