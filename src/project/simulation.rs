//! The jobs a simulation runs, loaded: a scenario's coordinators and
//! bundles (each bundle's coordinators, submitted at its kick-off), ready
//! for the engine; or one workflow job, ready to run. `coordc simulate`
//! and the `simulate` fuzz target both load them here; what goes wrong is
//! told to a [`ProblemSink`].

use super::files::{ConfigFile, Files, normal};
use super::load::{
    self, JobInput, JobSource, LoadedCoordinator, LocalWorkflows, ProblemSink, Sources, Stop,
};
use super::locate::AppKind;
use super::settings::{Finder, Folder, Refused};
use crate::diag::Located;
use crate::diag::closest;
use crate::diag::rules::{REFUSED_AT_WORKFLOW_SUBMISSION, SIMULATE_SCENARIO, XML_UNKNOWN_DOCUMENT};
use crate::diag::{Diagnostic, Severity};
use crate::el::VarMap;
use crate::interp::clock::millis;
use crate::interp::simulate::engine::{self};
use crate::interp::simulate::scenario::model::{JobEntry, Scenario, WorkflowScenario};
use crate::interp::workflow::graph::Graph;
use crate::interp::workflow::run::{self, ChildIds, Run, RunInput, SubWorkflow, SubWorkflows};
use crate::interp::workflow::script::{Scope, Script};
use crate::ir;
use crate::oozie::job::{Job, Options};
use crate::span::Span;
use crate::time::cron::MaxYear;
use crate::time::datetime::ProcessingZone;
use chrono::{DateTime, Utc};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

/// One job of a scenario, its application loaded, with the sources its
/// problems point into.
pub struct ScenarioJob {
    pub id: Option<String>,
    /// Its `app` in the scenario.
    pub span: Span,
    pub sources: Sources,
    pub loaded: LoadedCoordinator,
    pub submit: DateTime<Utc>,
    /// Where its actions' workflow applications are read: the `map`s of its
    /// entry, then its `coordc.toml`'s, and its coordinator's folder for
    /// relative app-paths.
    pub maps: Vec<(String, String)>,
    pub folder: PathBuf,
    /// The processing zone and frequency check it is submitted with.
    pub processing_zone: ProcessingZone,
    pub check_maximum_frequency: bool,
    /// The last year the server's Quartz finds a cron fire time in.
    pub cron_max_year: MaxYear,
    /// Its `coordc.toml`'s settings (rule levels for its workflows).
    pub settings: Arc<Folder>,
}

/// The settings each job of `scenario` (whose paths are relative to
/// `base`) is loaded with: those of its application's nearest `coordc.toml`
/// (the processing zone, the frequency check, `[map]`), as `coordc check`
/// applies them to that file; the first wrong one refuses the run.
pub fn scenario_settings(
    scenario: &Scenario,
    base: &Path,
    finder: &Finder,
) -> Result<Vec<Arc<Folder>>, Refused> {
    scenario
        .jobs
        .iter()
        .map(|entry| finder.of_file(&base.join(&entry.app)))
        .collect()
}

/// Every job of `scenario` (whose paths are relative to `base`), loaded
/// with its settings (`settings`, one per `[[job]]`, from
/// [`scenario_settings`]): a coordinator is one job, a bundle one per
/// coordinator it submits (named `ID/NAME`). The scenario's
/// `oozie.service.coord.check.maximum.frequency`, when it sets it, is the
/// server's, over every `coordc.toml`. None after the first application
/// that cannot be loaded, its problems told to `sink`. A cron frequency
/// fires no later than `cron_max_year`, the server's Quartz bound.
pub fn scenario_jobs(
    scenario: &Scenario,
    base: &Path,
    files: &Files,
    settings: &[Arc<Folder>],
    cron_max_year: MaxYear,
    sink: ProblemSink,
) -> Option<Vec<ScenarioJob>> {
    let mut jobs = Vec::new();
    for (entry, folder) in scenario.jobs.iter().zip(settings) {
        let app = base.join(&entry.app);
        let configs: Vec<ConfigFile> = entry
            .config
            .iter()
            .flatten()
            .map(|c| files.config(&base.join(c)))
            .collect();
        let maps: Vec<(String, String)> = entry
            .map
            .iter()
            .map(|(prefix, dir)| (prefix.clone(), base.join(dir).display().to_string()))
            .chain(folder.maps.iter().cloned())
            .collect();
        let input = JobInput {
            configs: &configs,
            files,
            job: JobSource::Own,
            defines: &entry.properties,
            maps: &maps,
            processing_zone: folder.processing_zone,
            check_maximum_frequency: scenario
                .settings
                .check_maximum_frequency
                .unwrap_or(folder.settings.check_maximum_frequency),
            cron_max_year,
        };
        jobs.append(&mut entry_jobs(
            &app, &input, entry, scenario, folder, sink,
        )?);
    }
    Some(jobs)
}

/// The jobs of one `[[job]]`: its coordinator, or each coordinator its
/// bundle submits.
fn entry_jobs(
    app: &Path,
    input: &JobInput,
    entry: &JobEntry,
    scenario: &Scenario,
    folder: &Arc<Folder>,
    sink: ProblemSink,
) -> Option<Vec<ScenarioJob>> {
    let mut sources = Sources::default();
    match application_jobs(app, input, entry, scenario, folder, &mut sources, sink) {
        Ok(jobs) => jobs,
        Err(stop) => {
            sink(&sources, stop);
            None
        }
    }
}

/// [`entry_jobs`], its application's own problems returned (a bundle's
/// coordinators' are told to `sink`).
fn application_jobs(
    app: &Path,
    input: &JobInput,
    entry: &JobEntry,
    scenario: &Scenario,
    folder: &Arc<Folder>,
    sources: &mut Sources,
    sink: ProblemSink,
) -> Result<Option<Vec<ScenarioJob>>, Stop> {
    load::with_application(app, input.files, sources, |sources, opened| {
        let (kind, doc) = opened?;
        match kind {
            Some(AppKind::Coordinator) => {
                let loaded = load::coordinator(doc, app, input, sources)?;
                Ok(Some(vec![ScenarioJob {
                    id: entry.id.clone(),
                    span: entry.app_span,
                    sources: std::mem::take(sources),
                    loaded,
                    submit: entry.submit,
                    maps: input.maps.to_vec(),
                    folder: folder_of(app),
                    processing_zone: input.processing_zone,
                    check_maximum_frequency: input.check_maximum_frequency,
                    cron_max_year: input.cron_max_year,
                    settings: Arc::clone(folder),
                }]))
            }
            Some(AppKind::Bundle) => {
                let bundle = load::bundle(doc, app, input, sources)?;
                let (submitted, problems) = crate::oozie::bundle::submit(
                    &bundle.bundle,
                    &bundle.config,
                    input.processing_zone,
                );
                let Some(members) =
                    load::bundle_members(app, input, &bundle, &submitted, problems, sources, sink)
                else {
                    return Ok(None);
                };
                let id = entry.id.clone().unwrap_or_else(|| submitted.name.clone());
                let submit = kick_off(scenario, entry.submit, submitted.kick_off);
                Ok(Some(
                    members
                        .into_iter()
                        .map(|member| ScenarioJob {
                            id: Some(format!("{id}/{}", member.submitted.name)),
                            span: entry.app_span,
                            folder: member.sources.files.first().map_or_else(
                                || folder_of(app),
                                |(name, _)| folder_of(Path::new(name)),
                            ),
                            sources: member.sources,
                            loaded: member.loaded,
                            submit,
                            maps: input.maps.to_vec(),
                            processing_zone: input.processing_zone,
                            check_maximum_frequency: input.check_maximum_frequency,
                            cron_max_year: input.cron_max_year,
                            settings: Arc::clone(folder),
                        })
                        .collect(),
                ))
            }
            _ => Err(Stop::Problems(vec![Located::in_app(Diagnostic::error(
                XML_UNKNOWN_DOCUMENT,
                doc.root.name_span,
                format!(
                    "coordc simulate runs a <coordinator-app> or a <bundle-app>, not <{}>",
                    doc.root.name
                ),
            ))])),
        }
    })
}

/// When a bundle submitted at `submit` submits its coordinators: when the
/// PauseTransitService (first at the scenario's start + 10 s, then every
/// pause interval) finds its kick-off time come (PTS:150-153); without one,
/// at once (BundleSubmitXCommand:156-160).
fn kick_off(
    scenario: &Scenario,
    submit: DateTime<Utc>,
    kick_off: Option<DateTime<Utc>>,
) -> DateTime<Utc> {
    match kick_off {
        Some(k) if k > submit => {
            let interval = scenario.settings.pause_interval;
            let origin = millis(scenario.start) + 10_000;
            let due = millis(k).max(origin);
            crate::interp::clock::datetime(
                origin + (due - origin + interval - 1) / interval * interval,
            )
        }
        _ => submit,
    }
}

fn folder_of(file: &Path) -> PathBuf {
    file.parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// Each job submitted as the dry run submits it, every action, with its
/// processing zone and frequency check; None after the first that Oozie
/// refuses, its problems told to `sink` (and every job's warnings).
pub fn submit_all<'a>(jobs: &'a [ScenarioJob], sink: ProblemSink) -> Option<Vec<Job<'a>>> {
    jobs.iter()
        .map(|job| {
            let options = Options::all_actions(
                job.processing_zone,
                job.check_maximum_frequency,
                job.cron_max_year,
            );
            load::submit(&job.loaded, &job.sources, &options, sink)
        })
        .collect()
}

/// Where each job's workflow applications are read (those Oozie refuses
/// at submission refused: [`SubmittedWorkflows`]).
pub fn local_workflows<'a>(
    jobs: &'a [ScenarioJob],
    files: &'a Files,
) -> Vec<SubmittedWorkflows<'a>> {
    jobs.iter()
        .map(|job| {
            SubmittedWorkflows::new(
                LocalWorkflows::new(&job.maps, job.folder.clone(), files),
                &job.settings,
            )
        })
        .collect()
}

/// What `coordc check` reports in workflow `wf` (read from `path`, its text
/// `definition_bytes` long) that Oozie refuses the job for at submission
/// ([`REFUSED_AT_WORKFLOW_SUBMISSION`]), with the job's configuration `vars` (`None`:
/// not known, as for a coordinator action's workflow before its run), at
/// the level the workflow's `coordc.toml` (`folder`) gives each rule: only
/// what stays an error. The check's own functions give them, so the
/// diagnostics are the ones `coordc check` prints.
pub(crate) fn refused_at_submission(
    wf: &ir::Workflow,
    definition_bytes: usize,
    vars: Option<&VarMap>,
    path: &Path,
    folder: &Folder,
) -> Vec<Diagnostic> {
    let path = normal(path);
    let relative = path.strip_prefix(&folder.base).unwrap_or(&path);
    crate::check::actions::submission_el(wf, vars)
        .into_iter()
        .chain(crate::check::actions::check(wf, definition_bytes, vars))
        .filter(|d| {
            REFUSED_AT_WORKFLOW_SUBMISSION.contains(&d.code)
                && folder.settings.level(relative, d.code, d.severity) == Some(Severity::Error)
        })
        .collect()
}

/// Local workflow applications as a coordinator action or a sub-workflow
/// action submits them: read by [`LocalWorkflows`], and one `coordc check`
/// finds Oozie would refuse at submission ([`refused_at_submission`]) is
/// not run: its first such error is the reason the action fails (as its
/// first line renders). Each application is checked once.
pub struct SubmittedWorkflows<'a> {
    local: LocalWorkflows<'a>,
    folder: Arc<Folder>,
    /// Each file checked, and why it is refused.
    checked: Mutex<HashMap<String, Option<String>>>,
}

impl<'a> SubmittedWorkflows<'a> {
    pub(crate) fn new(local: LocalWorkflows<'a>, folder: &Arc<Folder>) -> Self {
        SubmittedWorkflows {
            local,
            folder: Arc::clone(folder),
            checked: Mutex::default(),
        }
    }

    /// Why Oozie refuses `sub` at submission, if it does.
    fn refusal(&self, sub: &SubWorkflow) -> Option<String> {
        let mut checked = self.checked.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(known) = checked.get(&sub.path) {
            return known.clone();
        }
        let path = Path::new(&sub.path);
        let bytes = self.local.files.read(path).map_or(0, |text| text.len());
        let refusal = refused_at_submission(&sub.workflow, bytes, None, path, &self.folder)
            .first()
            .map(|d| format!("error[{}]: {}", d.code, d.message));
        checked.insert(sub.path.clone(), refusal.clone());
        refusal
    }
}

impl SubWorkflows for SubmittedWorkflows<'_> {
    fn load(
        &self,
        app_path: &str,
        parent: Option<&str>,
    ) -> Option<Result<Arc<SubWorkflow>, String>> {
        let found = self.local.load(app_path, parent)?;
        Some(found.and_then(|sub| match self.refusal(&sub) {
            Some(refusal) => Err(refusal),
            None => Ok(sub),
        }))
    }
}

/// The jobs as the engine takes them: each with its id (its own, else its
/// coordinator's name), submitted at its time (or at `submit_all_at`), its
/// workflows read from `workflows`. Two jobs of one id are refused, at the
/// second's `app`.
pub fn engine_inputs<'a>(
    jobs: &'a [ScenarioJob],
    submitted: &'a [Job<'a>],
    workflows: &'a [SubmittedWorkflows<'a>],
    submit_all_at: Option<DateTime<Utc>>,
) -> Result<Vec<engine::JobInput<'a>>, Diagnostic> {
    let mut inputs: Vec<engine::JobInput> = Vec::with_capacity(jobs.len());
    for ((job, prepared), workflows) in jobs.iter().zip(submitted).zip(workflows) {
        let id = job.id.clone().unwrap_or_else(|| prepared.name.to_string());
        if inputs.iter().any(|i| i.id == id) {
            return Err(Diagnostic::error(
                SIMULATE_SCENARIO,
                job.span,
                format!("two jobs are called `{id}`: give each an `id`"),
            ));
        }
        inputs.push(engine::JobInput {
            workflows,
            id,
            job: prepared,
            submit: submit_all_at.unwrap_or(job.submit),
        });
    }
    Ok(inputs)
}

/// A workflow application to run as one job (`coordc simulate
/// workflow.xml`, and the fuzz target that drives the same path).
pub struct WorkflowRequest<'a> {
    /// The application, read from `path` (file 0 of the sources).
    pub doc: &'a crate::xml::Document<'a>,
    pub path: &'a Path,
    pub job: &'a JobInput<'a>,
    /// The settings that apply to it (its `coordc.toml`, the maps).
    pub folder: &'a Arc<Folder>,
    pub files: &'a Files,
    pub scenario: &'a WorkflowScenario,
}

/// Why a workflow was not run.
pub enum WorkflowNotRun {
    /// Loading or submitting it failed; the problems were told to the sink.
    Refused,
    /// Its graph is not one Oozie runs (problems in the application).
    Graph(Vec<Diagnostic>),
    /// The scenario names action nodes the workflow does not have
    /// (problems in the scenario).
    Scenario(Vec<Diagnostic>),
}

/// Runs the workflow `request` names against its scenario, as Oozie runs
/// the job: loaded and submitted ([`workflow_to_run`], its problems told to
/// `sink`), its graph built, the scenario's nodes checked against it, its
/// local sub-workflows found through the maps; then `report` is given the
/// graph and the run.
pub fn run_workflow(
    request: &WorkflowRequest,
    sources: &mut Sources,
    sink: ProblemSink,
    report: impl FnOnce(&Graph, &Run),
) -> Result<(), WorkflowNotRun> {
    let Some((wf, conf)) = workflow_to_run(
        request.doc,
        request.path,
        request.job,
        request.folder,
        sources,
        sink,
    ) else {
        return Err(WorkflowNotRun::Refused);
    };
    let graph = Arc::new(Graph::new(Arc::new(wf)).map_err(WorkflowNotRun::Graph)?);
    let unknown = unknown_nodes(&graph, &request.scenario.script);
    if !unknown.is_empty() {
        return Err(WorkflowNotRun::Scenario(unknown));
    }
    let app_dir = request.path.parent().unwrap_or(Path::new("."));
    let sub_workflows = SubmittedWorkflows::new(
        LocalWorkflows::new(&request.folder.maps, app_dir.to_path_buf(), request.files),
        request.folder,
    );
    let run = run::run(
        &graph,
        &RunInput {
            conf: &conf,
            start: millis(request.scenario.start),
            script: &request.scenario.script,
            scope: Scope::default(),
            sub_workflows: &sub_workflows,
            pz: request.folder.processing_zone,
            id_sequence: 0,
            child_ids: ChildIds::Counted,
            path: None,
        },
    );
    report(&graph, &run);
    Ok(())
}

/// The workflow `doc` read from `path` (file 0 of `sources`), with its job
/// configuration, as Oozie runs it: None when Oozie refuses the job (a
/// parameter without a value, E0738, or what [`refused_at_submission`]
/// finds with `folder`'s rule levels), its problems told to `sink`. The
/// configuration names the application's folder as
/// `oozie.wf.application.path` when the job does not (as the command line
/// names it, for `wf:appPath()`).
pub(crate) fn workflow_to_run(
    doc: &crate::xml::Document,
    path: &Path,
    input: &JobInput,
    folder: &Folder,
    sources: &mut Sources,
    sink: ProblemSink,
) -> Option<(ir::Workflow, VarMap)> {
    let loaded = load::workflow(doc).and_then(|wf| {
        let job = load::workflow_job(&wf, path, input, sources)?;
        Ok((wf, job))
    });
    let (wf, job) = match loaded {
        Ok(loaded) => loaded,
        Err(stop) => {
            sink(sources, stop);
            return None;
        }
    };
    // What `coordc check` says Oozie refuses at submission, as it says it:
    // the parameters, then the rest (refused_at_submission), with the job's
    // configuration when one was given or found beside it, as the check
    // reads it (without one, the names the job must define are not errors).
    let mut refused = job.parameter_problems;
    refused.extend(
        refused_at_submission(
            &wf,
            sources.application().len(),
            job.configured.then_some(&job.vars),
            path,
            folder,
        )
        .into_iter()
        .map(Located::in_app),
    );
    if !refused.is_empty() {
        sink(sources, Stop::Problems(refused));
        return None;
    }
    let mut conf = job.vars;
    let folder = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.display().to_string(),
        _ => ".".to_string(),
    };
    conf.entry("oozie.wf.application.path".to_string())
        .or_insert_with(|| Some(folder));
    Some((wf, conf))
}

/// The `[[node]]` entries that name no action node of the workflow (when it
/// has no sub-workflow, whose own nodes they could name).
fn unknown_nodes(graph: &Graph, script: &Script) -> Vec<Diagnostic> {
    let actions: Vec<&str> = (0..graph.nodes.len())
        .filter(|&n| graph.action(n).is_some())
        .map(|n| graph.name(n))
        .collect();
    let has_children = (0..graph.nodes.len()).any(|n| {
        graph
            .action(n)
            .is_some_and(|a| a.kind.name == "sub-workflow")
    });
    if has_children {
        return Vec::new();
    }
    script
        .nodes
        .iter()
        .filter(|entry| !actions.contains(&entry.name.as_str()))
        .map(|entry| {
            let help = match closest(&entry.name, actions.iter().map(|a| a.to_string())) {
                Some(best) => format!("did you mean `{best}`?"),
                None => format!("its action nodes: {}", actions.join(", ")),
            };
            Diagnostic::error(
                SIMULATE_SCENARIO,
                entry.span,
                format!(
                    "this [[node]] names no action node of the workflow: `{}`",
                    entry.name
                ),
            )
            .with_help(help)
        })
        .collect()
}
