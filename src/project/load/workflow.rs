//! A workflow loaded: its definition, valid and with a graph Oozie accepts,
//! and its job's configuration.

use super::config::{CONFIG_DEFAULT, JobInput, JobSource, job};
use super::{Sources, Stop, app_dir, lowered};
use crate::config::JobConfig;
use crate::diag::Located;
use crate::el::VarMap;
use crate::ir;
use crate::oozie::parameters;
use crate::project::locate::AppKind;
use crate::xml;
use std::path::Path;

/// The workflow of `doc` (file 0), valid, lowered, and with transitions
/// that all lead to nodes and a graph Oozie accepts (the graph errors
/// `coordc check` reports); or every problem that stops it.
pub(crate) fn workflow(doc: &xml::Document) -> Result<ir::Workflow, Stop> {
    let wf = lowered(doc, ir::lower::workflow)?;
    let graph: Vec<Located> = crate::check::workflow::check(&wf)
        .into_iter()
        .filter(|d| d.severity == crate::diag::Severity::Error)
        .map(Located::in_app)
        .collect();
    if graph.is_empty() {
        Ok(wf)
    } else {
        Err(Stop::Problems(graph))
    }
}

/// A workflow's job: the variables of its configuration, with `<parameters>`
/// applied, and their problems (WF011, WF012); and whether the job was given
/// a configuration (files, the job.properties beside it, or `-D`) that
/// submits the workflow itself.
pub(crate) struct WorkflowJob {
    pub vars: VarMap,
    pub parameter_problems: Vec<Located>,
    pub configured: bool,
    /// What the configuration submits when it is not this workflow: a
    /// coordinator, a bundle, or another workflow file (its application
    /// path names it). This workflow then runs with another configuration
    /// (a coordinator action's, a parent workflow's), which coordc does not
    /// have, so the job counts as not configured.
    pub submits_other: Option<String>,
}

/// The properties naming the application a job submits (OozieClient.java:
/// 103-107).
const WORKFLOW_PATH: &str = "oozie.wf.application.path";
const OTHER_PATHS: &[(&str, &str)] = &[
    ("oozie.coord.application.path", "a coordinator"),
    ("oozie.bundle.application.path", "a bundle"),
];

/// What `config` submits if not the workflow file `file_name`: the file
/// its workflow application path names (a folder's `workflow.xml`,
/// WorkflowAppService.java:124-125), else a coordinator or bundle.
fn submits_other(config: &JobConfig, file_name: &str) -> Option<String> {
    match config.get(WORKFLOW_PATH) {
        Some(path) => {
            let last = path.trim_end_matches('/').rsplit('/').next().unwrap_or("");
            let submitted = if last.ends_with(".xml") {
                last
            } else {
                "workflow.xml"
            };
            (submitted != file_name).then(|| format!("the workflow `{submitted}`"))
        }
        None => OTHER_PATHS
            .iter()
            .find(|(property, _)| config.get(property).is_some())
            .map(|(_, what)| (*what).to_string()),
    }
}

/// The job of the workflow `wf` at `app_path`: its configuration as a
/// coordinator's is found, over the config-default.xml beside the workflow,
/// whose values the server injects as defaults before it verifies the
/// parameters (SubmitXCommand.java:156-187, LiteWorkflowAppParser.java:182).
pub(crate) fn workflow_job(
    wf: &ir::Workflow,
    app_path: &Path,
    input: &JobInput,
    sources: &mut Sources,
) -> Result<WorkflowJob, Stop> {
    let app_dir = app_dir(app_path);
    let defaults = input.files.beside(&app_dir, CONFIG_DEFAULT);
    let (config, configured) = job(
        app_path,
        AppKind::Workflow,
        defaults.as_deref(),
        input,
        sources,
    )?;
    let file_name = app_path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    // (A workflow run by another application gets that one's configuration.)
    let submits_other = match input.job {
        JobSource::Run => None,
        _ => submits_other(&config, file_name),
    };
    let (vars, parameter_problems) =
        parameters::verify(&wf.parameters, config.into_vars(), &parameters::WORKFLOW);
    Ok(WorkflowJob {
        vars,
        parameter_problems,
        configured: configured && submits_other.is_none(),
        submits_other,
    })
}
