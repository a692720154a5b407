//! The jobs a simulation runs, loaded: a scenario's coordinators and
//! bundles (each bundle's coordinators, submitted at its kick-off), ready
//! for the engine; or one workflow job, ready to run. `coordc simulate`
//! and the `simulate` fuzz target both load them here; what goes wrong is
//! told to a [`ProblemSink`].

use super::files::{ConfigFile, Files};
use super::load::{
    self, JobInput, JobSource, LoadedCoordinator, LocalWorkflows, ProblemSink, Sources, Stop,
    parse_document, read_application,
};
use super::settings::{Finder, Folder, Refused};
use crate::check::rules::{SIMULATE_SCENARIO, XML_UNKNOWN_DOCUMENT};
use crate::diag::Diagnostic;
use crate::el::VarMap;
use crate::interp::job::{Job, Located, Options};
use crate::interp::simulate::engine::{self, millis};
use crate::interp::simulate::scenario::{JobEntry, Scenario};
use crate::ir;
use crate::span::Span;
use crate::time::datetime::ProcessingZone;
use chrono::{DateTime, Utc};
use std::path::{Path, PathBuf};
use std::sync::Arc;

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
/// that cannot be loaded, its problems told to `sink`.
pub fn scenario_jobs(
    scenario: &Scenario,
    base: &Path,
    files: &Files,
    settings: &[Arc<Folder>],
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
        };
        jobs.append(&mut entry_jobs(&app, &input, entry, scenario, sink)?);
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
    sink: ProblemSink,
) -> Option<Vec<ScenarioJob>> {
    let mut sources = Sources::default();
    match application_jobs(app, input, entry, scenario, &mut sources, sink) {
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
    sources: &mut Sources,
    sink: ProblemSink,
) -> Result<Option<Vec<ScenarioJob>>, Stop> {
    let text = read_application(app, input.files, sources)?;
    let arena = crate::xml::Arena::new();
    let doc = parse_document(&text, &arena)?;
    match doc.root.name {
        "coordinator-app" => {
            let loaded = load::coordinator(&doc, app, input, sources)?;
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
            }]))
        }
        "bundle-app" => {
            let bundle = load::bundle(&doc, app, input, sources)?;
            let (submitted, problems) = crate::interp::bundle::submit(
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
                        folder: member
                            .sources
                            .files
                            .first()
                            .map_or_else(|| folder_of(app), |(name, _)| folder_of(Path::new(name))),
                        sources: member.sources,
                        loaded: member.loaded,
                        submit,
                        maps: input.maps.to_vec(),
                        processing_zone: input.processing_zone,
                        check_maximum_frequency: input.check_maximum_frequency,
                    })
                    .collect(),
            ))
        }
        other => Err(Stop::Problems(vec![Located::in_app(Diagnostic::error(
            XML_UNKNOWN_DOCUMENT,
            doc.root.name_span,
            format!("coordc simulate runs a <coordinator-app> or a <bundle-app>, not <{other}>"),
        ))])),
    }
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
            engine::datetime(origin + (due - origin + interval - 1) / interval * interval)
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
            let options = Options::all_actions(job.processing_zone, job.check_maximum_frequency);
            load::submit(&job.loaded, &job.sources, &options, sink)
        })
        .collect()
}

/// Where each job's workflow applications are read.
pub fn local_workflows<'a>(jobs: &'a [ScenarioJob], files: &'a Files) -> Vec<LocalWorkflows<'a>> {
    jobs.iter()
        .map(|job| LocalWorkflows::new(&job.maps, job.folder.clone(), files))
        .collect()
}

/// The jobs as the engine takes them: each with its id (its own, else its
/// coordinator's name), submitted at its time (or at `submit_all_at`), its
/// workflows read from `workflows`. Two jobs of one id are refused, at the
/// second's `app`.
pub fn engine_inputs<'a>(
    jobs: &'a [ScenarioJob],
    submitted: &'a [Job<'a>],
    workflows: &'a [LocalWorkflows<'a>],
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

/// The workflow `doc` read from `path` (file 0 of `sources`), with its job
/// configuration, as Oozie runs it: None when Oozie refuses the job (a
/// parameter without a value, E0738), its problems told to `sink`. The
/// configuration names the application's folder as
/// `oozie.wf.application.path` when the job does not (as the command line
/// names it, for `wf:appPath()`).
pub fn workflow_to_run(
    doc: &crate::xml::Document,
    path: &Path,
    input: &JobInput,
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
    if !job.parameter_problems.is_empty() {
        sink(sources, Stop::Problems(job.parameter_problems));
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
