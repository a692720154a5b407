//! A coordinator loaded with its job's configuration and its includes, and
//! submitted as Oozie submits it.

use super::config::{COORD_CONFIG_DEFAULT, JobInput, job};
use super::includes::Includes;
use super::{ProblemSink, Sources, Stop, app_dir, lowered};
use crate::diag::FileRef;
use crate::diag::Located;
use crate::el::VarMap;
use crate::ir::{self, Coordinator, Dataset};
use crate::oozie::job::{Job, Options, prepare};
use crate::oozie::parameters;
use crate::project::locate::AppKind;
use crate::time::datetime::ProcessingZone;
use crate::xml;
use std::path::Path;

/// A coordinator as submitted: its IR, the job's variables (configuration and
/// parameter defaults), the datasets of its includes, and the include
/// problems (reported with the submission's).
pub struct LoadedCoordinator {
    pub app: Coordinator,
    pub vars: VarMap,
    pub included: Vec<Dataset>,
    pub include_problems: Vec<Located>,
    /// `<parameters>` without a default that the job does not define (CO004).
    pub parameter_problems: Vec<Located>,
    /// Whether the job was given a configuration (files, the job.properties
    /// beside the application, or `-D`): only then do undefined names count.
    pub configured: bool,
}

/// The coordinator of `doc` (file 0 of `sources`, already parsed) with its job.
pub fn coordinator(
    doc: &xml::Document,
    app_path: &Path,
    input: &JobInput,
    sources: &mut Sources,
) -> Result<LoadedCoordinator, Stop> {
    let app = lowered(doc, ir::lower::coordinator)?;
    let app_dir = app_dir(app_path);
    // The coord-config-default.xml beside it is injected as defaults before
    // anything reads the configuration (CoordSubmitXCommand.java:212, 556-578).
    let defaults = input.files.beside(&app_dir, COORD_CONFIG_DEFAULT);
    let (config, configured) = job(
        app_path,
        AppKind::Coordinator,
        defaults.as_deref(),
        input,
        sources,
    )?;
    let (vars, mut parameter_problems) = parameters::verify(
        &app.parameters,
        config.into_vars(),
        &parameters::COORDINATOR,
    );
    let mut app = app;
    if configured {
        parameter_problems.extend(resolve_dataset_names(
            &mut app,
            &vars,
            input.processing_zone,
        ));
    }
    let mut included = Vec::new();
    let mut include_problems = Vec::new();
    let includes = Includes {
        files: input.files,
        maps: input.maps,
        vars: &vars,
        pz: input.processing_zone,
    };
    includes.read(
        &app.includes,
        FileRef::App,
        &app_dir,
        &mut Vec::new(),
        sources,
        &mut included,
        &mut include_problems,
    );
    Ok(LoadedCoordinator {
        app,
        vars,
        included,
        include_problems,
        parameter_problems,
        configured,
    })
}

/// The `dataset` of each data-in and data-out, where it is written with EL,
/// resolved with the job's variables as Oozie resolves it at submission,
/// before the datasets are looked up (CoordSubmitXCommand.resolveIODataset,
/// 956-969): `dataset="raw_${source}"` names the dataset `raw_web`. What
/// cannot be resolved is reported.
fn resolve_dataset_names(app: &mut Coordinator, vars: &VarMap, pz: ProcessingZone) -> Vec<Located> {
    let names = app
        .inputs
        .iter_mut()
        .map(|d| &mut d.dataset)
        .chain(app.outputs.iter_mut().map(|d| &mut d.dataset));
    let mut problems = Vec::new();
    for name in names.filter(|n| n.name.contains("${")) {
        let base = name.span.start as usize;
        let resolved = crate::el::parse_template(&name.name, base).and_then(|template| {
            let env = crate::el::Env {
                vars,
                library: crate::el::Library::Coordinator,
                context: None,
                processing_zone: pz,
            };
            crate::el::render(&template, &env)
        });
        match resolved {
            Ok((value, _)) => name.name = value,
            // (At the whole value: the text was decoded, and the offsets
            // of what failed in it are not the file's where an entity was.)
            Err(mut d) => {
                d.span = name.span;
                problems.push(Located::in_app(d));
            }
        }
    }
    problems
}

/// A loaded coordinator submitted as Oozie submits it (`prepare`), its
/// warnings told to `sink`; None when Oozie refuses it, its problems told
/// (include problems and submission problems together).
pub fn submit<'a>(
    loaded: &'a LoadedCoordinator,
    sources: &Sources,
    options: &Options,
    sink: ProblemSink,
) -> Option<Job<'a>> {
    if !loaded.parameter_problems.is_empty() {
        sink(sources, Stop::Problems(loaded.parameter_problems.clone()));
        return None;
    }
    let options = Options {
        includes_incomplete: !loaded.include_problems.is_empty(),
        ..*options
    };
    let mut problems = loaded.include_problems.clone();
    match prepare(&loaded.app, &loaded.included, &loaded.vars, &options) {
        Ok(job) if problems.is_empty() => {
            if !job.warnings.is_empty() {
                sink(sources, Stop::Problems(job.warnings.clone()));
            }
            Some(job)
        }
        Ok(_) => {
            sink(sources, Stop::Problems(problems));
            None
        }
        Err(more) => {
            problems.extend(more);
            sink(sources, Stop::Problems(problems));
            None
        }
    }
}
