//! A workflow checked: its schema, graph, actions and values, with its job's
//! configuration when it has one, and the sub-workflows it runs.

use super::el::{check_el, free_variables, unconfigured_parameters};
use super::runs::WorkflowRun;
use crate::diag::FileRef;
use crate::diag::rules::{EL_UNKNOWN_VARIABLE, WF_LENGTH};
use crate::diag::{Diagnostic, Located};
use crate::el::VarMap;
use crate::el::library::Library;
use crate::ir::{self, ElText};
use crate::oozie::job;
use crate::oozie::parameters;
use crate::project::load::{self, JobInput, Sources, Stop, schema_problems};
use crate::project::locate::AppKind;
use crate::span::Span;
use crate::xml;
use rustc_hash::FxHashSet;
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

/// A workflow's problems, and whether its job was given a configuration;
/// or why its configuration could not be read.
pub(super) fn workflow(
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
        wf.texts().into_iter().map(|t| (FileRef::App, t)),
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
