//! A datasets file checked on its own, as a coordinator that includes it
//! would see it.

use super::el::{check_el, free_variables, needed_note};
use crate::diag::FileRef;
use crate::diag::Located;
use crate::diag::rules::EL_UNKNOWN_VARIABLE;
use crate::el::library::Library;
use crate::ir::{self, ElText};
use crate::oozie::{datasets, places};
use crate::project::load::{self, JobInput, Sources, Stop, schema_problems};
use crate::xml;
use rustc_hash::FxHashSet;
use std::path::Path;

/// A datasets file checked on its own: what submission checks in each of
/// its datasets and in those it includes, as if a coordinator included it
/// (spec §5.4; CoordSubmitXCommand.java:1009-1030, 1143-1148), with the job configuration given
/// (`--config`, `-D`); without one, the names its values read are a note,
/// and those values are not evaluated. Or why the configuration could not
/// be read.
pub(super) fn datasets(
    doc: &xml::Document,
    path: &Path,
    input: &JobInput,
    sources: &mut Sources,
) -> Result<Vec<Located>, String> {
    let invalid = schema_problems(doc);
    if !invalid.is_empty() {
        return Ok(invalid);
    }
    let (includes, mut found, problems) = ir::lower::dataset_file(&doc.root, FileRef::App);
    let mut problems: Vec<Located> = problems.into_iter().map(Located::in_app).collect();
    let loaded = match load::datasets_file(&includes, path, input, sources) {
        Ok(loaded) => loaded,
        Err(Stop::Usage(message)) => return Err(message),
        Err(Stop::Problems(found)) => return Ok(found),
    };
    problems.extend(loaded.include_problems);
    found.extend(loaded.included);
    let vars = loaded.vars;
    let texts: Vec<(FileRef, &ElText)> = includes
        .iter()
        .map(|t| (FileRef::App, t))
        .chain(found.iter().flat_map(|d| {
            std::iter::once((d.file, &d.frequency))
                .chain(places::dataset_texts(d).map(|(file, text, _)| (file, text)))
        }))
        .collect();
    let known: FxHashSet<&str> = vars.keys().map(String::as_str).collect();
    let known = loaded.configured.then_some(&known);
    problems.extend(check_el(texts.iter().copied(), Library::Coordinator, known));
    problems.extend(places::misplaced_in(
        found.iter().flat_map(places::dataset_texts),
        &vars,
    ));
    datasets::included_by_name(&found, &mut problems);
    for dataset in &found {
        problems.extend(datasets::dataset_problems(
            dataset,
            &vars,
            input.processing_zone,
        ));
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
