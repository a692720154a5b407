//! The scenario file of `coordc simulate` (docs/simulate.md): TOML read with
//! serde, unknown keys refused, then every value checked and turned into
//! times and durations, each error pointing at its line.
//!
//! The serde types here are also the source of `docs/simulate.schema.json`
//! (schemars): what the file may say is written once.

use crate::diag::Diagnostic;
use crate::diag::rules::SIMULATE_SCENARIO;
use crate::interp::clock::Millis;
use crate::interp::workflow::script::{
    Behaviour, FileSystem, NodeScript, Outcome, RetrySettings, Script,
};
use crate::span::Span;
use crate::time::datetime::{ProcessingZone, parse_datetime};
use chrono::{DateTime, Utc};
use schemars::JsonSchema;
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// A scenario, as written.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "coordc simulate scenario")]
pub struct ScenarioFile {
    /// When the simulated Oozie server starts (an Oozie datetime,
    /// YYYY-MM-DDTHH:mmZ); for a workflow, when it starts (default
    /// 2000-01-01T00:00Z).
    #[schemars(with = "Option<String>")]
    pub start: Option<Spanned<String>>,
    /// When the simulation ends (exclusive); coordinator scenarios only.
    #[schemars(with = "Option<String>")]
    pub until: Option<Spanned<String>>,
    /// oozie-site settings, with Oozie's names, units and defaults.
    #[serde(default)]
    pub server: ServerFile,
    /// The jobs submitted.
    #[serde(default, rename = "job")]
    pub jobs: Vec<JobFile>,
    /// When data instances complete.
    #[serde(default)]
    pub data: Vec<DataFile>,
    /// What every action's workflow does once it runs (default: SUCCEEDED after 10m).
    #[serde(default)]
    pub workflows: WorkflowsFile,
    /// What one action's workflow does.
    #[serde(default, rename = "workflow")]
    pub workflow: Vec<WorkflowFile>,
    /// What users do, with the Oozie CLI's verbs.
    #[serde(default, rename = "op")]
    pub ops: Vec<OpFile>,
    /// Times the server is down.
    #[serde(default, rename = "outage")]
    pub outages: Vec<OutageFile>,
    /// What every workflow action node does (default: ok, 1m; an fs action 0s).
    #[serde(default)]
    pub actions: Option<NodeFile>,
    /// What one workflow action node does.
    #[serde(default, rename = "node")]
    pub nodes: Vec<NodeFile>,
    /// The file system the fs: and hcat: functions see.
    #[serde(default)]
    pub fs: Option<FsFile>,
}

/// A workflow action node's script (`[actions]`: every node's).
#[derive(Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct NodeFile {
    /// The action node (`[[node]]` only).
    #[schemars(with = "Option<String>")]
    pub name: Option<Spanned<String>>,
    /// Inside a coordinator simulation: only this job's workflows (`[[node]]` only).
    pub job: Option<String>,
    /// ... and only this action's, numbered from 1 (`[[node]]` only).
    #[schemars(with = "Option<i64>")]
    pub action: Option<Spanned<i64>>,
    /// ok or error (a non-transient error: the error transition).
    #[schemars(with = "Option<String>")]
    pub outcome: Option<Spanned<String>>,
    /// wf:errorCode after an error.
    pub error_code: Option<String>,
    /// wf:errorMessage after an error.
    pub error_message: Option<String>,
    /// Each attempt's duration (30s, 5m, 2h, 1d).
    #[schemars(with = "Option<String>")]
    pub duration: Option<Spanned<String>>,
    /// Its first attempts fail this many times with a retryable error.
    #[schemars(with = "Option<i64>")]
    pub transient_failures: Option<Spanned<i64>>,
    /// Its <capture-output> properties (wf:actionData).
    pub action_data: Option<BTreeMap<String, String>>,
    /// wf:actionExternalStatus.
    pub external_status: Option<String>,
    /// hadoop:counters: group -> counter -> value.
    pub counters: Option<BTreeMap<String, BTreeMap<String, i64>>>,
}

/// The file system the workflow functions see.
#[derive(Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct FsFile {
    /// Files, path = size in bytes (their folders exist too).
    #[serde(default)]
    pub files: BTreeMap<String, i64>,
    /// Folders.
    #[serde(default)]
    pub dirs: Vec<String>,
    /// fs:blockSize of every file (134217728).
    pub block_size: Option<i64>,
}

/// The oozie-site settings the engine reads (oozie-default.xml's names).
#[derive(Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct ServerFile {
    /// Seconds; how far ahead the materialization trigger looks (300).
    #[serde(rename = "oozie.service.CoordMaterializeTriggerService.lookup.interval")]
    #[schemars(with = "Option<i64>")]
    pub lookup_interval: Option<Spanned<i64>>,
    /// Seconds between two materialization trigger runs (the lookup interval).
    #[serde(rename = "oozie.service.CoordMaterializeTriggerService.scheduling.interval")]
    #[schemars(with = "Option<i64>")]
    pub scheduling_interval: Option<Spanned<i64>>,
    /// Seconds of actions one materialization creates ahead (3600).
    #[serde(rename = "oozie.service.CoordMaterializeTriggerService.materialization.window")]
    #[schemars(with = "Option<i64>")]
    pub materialization_window: Option<Spanned<i64>>,
    /// Actions one LAST_ONLY/NONE catch-up run creates (10000; -1 unlimited).
    #[serde(rename = "oozie.service.CoordMaterializeTriggerService.action.batch.size")]
    #[schemars(with = "Option<i64>")]
    pub action_batch_size: Option<Spanned<i64>>,
    /// Jobs one materialization trigger run selects (50).
    #[serde(rename = "oozie.service.CoordMaterializeTriggerService.materialization.system.limit")]
    #[schemars(with = "Option<i64>")]
    pub materialization_system_limit: Option<Spanned<i64>>,
    /// Minutes an action waits for its inputs when the app sets no timeout (120).
    #[serde(rename = "oozie.service.coord.normal.default.timeout")]
    #[schemars(with = "Option<i64>")]
    pub default_timeout: Option<Spanned<i64>>,
    /// Actions running at once when the app sets no concurrency (1).
    #[serde(rename = "oozie.service.coord.default.concurrency")]
    #[schemars(with = "Option<i64>")]
    pub default_concurrency: Option<Spanned<i64>>,
    /// Actions waiting at once when the app sets no throttle (12).
    #[serde(rename = "oozie.service.coord.default.throttle")]
    #[schemars(with = "Option<i64>")]
    pub default_throttle: Option<Spanned<i64>>,
    /// The throttle's cap is this fraction of the queue size (0.05).
    #[serde(rename = "oozie.service.coord.materialization.throttling.factor")]
    #[schemars(with = "Option<f64>")]
    pub throttling_factor: Option<Spanned<f64>>,
    /// The command queue's size (10000), for the throttle's cap.
    #[serde(rename = "oozie.service.CallableQueueService.queue.size")]
    #[schemars(with = "Option<i64>")]
    pub queue_size: Option<Spanned<i64>>,
    /// Milliseconds between two input checks of a waiting action (60000).
    #[serde(rename = "oozie.service.coord.input.check.requeue.interval")]
    #[schemars(with = "Option<i64>")]
    pub input_check_interval: Option<Spanned<i64>>,
    /// Seconds added to that interval when a check found nothing new (0).
    #[serde(rename = "oozie.service.coord.input.check.requeue.interval.additional.delay")]
    #[schemars(with = "Option<i64>")]
    pub input_check_additional_delay: Option<Spanned<i64>>,
    /// Minutes after its nominal time a NONE action is skipped (1).
    #[serde(rename = "oozie.coord.execution.none.tolerance")]
    #[schemars(with = "Option<i64>")]
    pub none_tolerance: Option<Spanned<i64>>,
    /// latest() counts from the check's time, not the action's creation (false).
    #[serde(rename = "oozie.service.ELService.latest-el.use-current-time")]
    #[schemars(with = "Option<bool>")]
    pub latest_use_current_time: Option<Spanned<bool>>,
    /// Seconds between two RecoveryService runs (60).
    #[serde(rename = "oozie.service.RecoveryService.interval")]
    #[schemars(with = "Option<i64>")]
    pub recovery_interval: Option<Spanned<i64>>,
    /// Seconds an action is left alone before the RecoveryService re-drives it (600).
    #[serde(rename = "oozie.service.RecoveryService.coord.older.than")]
    #[schemars(with = "Option<i64>")]
    pub recovery_older_than: Option<Spanned<i64>>,
    /// Seconds between two StatusTransitService runs (60).
    #[serde(rename = "oozie.service.StatusTransitService.statusTransit.interval")]
    #[schemars(with = "Option<i64>")]
    pub status_transit_interval: Option<Spanned<i64>>,
    /// No RUNNINGWITHERROR, SUSPENDEDWITHERROR, PAUSEDWITHERROR states (true).
    #[serde(
        rename = "oozie.service.StatusTransitService.backward.support.for.states.without.error"
    )]
    #[schemars(with = "Option<bool>")]
    pub states_without_error: Option<Spanned<bool>>,
    /// Seconds between two PauseTransitService runs (60).
    #[serde(rename = "oozie.service.PauseTransitService.PauseTransit.interval")]
    #[schemars(with = "Option<i64>")]
    pub pause_transit_interval: Option<Spanned<i64>>,
    /// A frequency under 5 minutes is refused at submission (true).
    #[serde(rename = "oozie.service.coord.check.maximum.frequency")]
    #[schemars(with = "Option<bool>")]
    pub check_maximum_frequency: Option<Spanned<bool>>,
    /// The cap on an action's retry-max (3).
    #[serde(rename = "oozie.service.LiteWorkflowStoreService.user.retry.max")]
    #[schemars(with = "Option<i64>")]
    pub user_retry_max: Option<Spanned<i64>>,
    /// Transient retries of an action before its workflow is suspended (3).
    #[serde(rename = "oozie.action.retries.max")]
    #[schemars(with = "Option<i64>")]
    pub action_retries_max: Option<Spanned<i64>>,
    /// Seconds between transient retries (10).
    #[serde(rename = "oozie.action.retry.interval")]
    #[schemars(with = "Option<i64>")]
    pub action_retry_interval: Option<Spanned<i64>>,
    /// How deep sub-workflows may nest (50).
    #[serde(rename = "oozie.action.subworkflow.max.depth")]
    #[schemars(with = "Option<i64>")]
    pub subworkflow_max_depth: Option<Spanned<i64>>,
}

/// One job submitted.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct JobFile {
    /// The job's name in the scenario (default: the application's name).
    pub id: Option<String>,
    /// A coordinator or bundle XML file, relative to the scenario file.
    #[schemars(with = "String")]
    pub app: Spanned<String>,
    /// Job configuration files, as --config (default: the job.properties beside the app).
    pub config: Option<Vec<String>>,
    /// Job properties, as -D.
    #[serde(default)]
    pub properties: BTreeMap<String, String>,
    /// Where included paths are found, as --map: PREFIX = local folder.
    #[serde(default)]
    pub map: BTreeMap<String, String>,
    /// When it is submitted (default: the start).
    #[schemars(with = "Option<String>")]
    pub submit: Option<Spanned<String>>,
}

/// Data that completes: one instance by `uri`, or a job's dataset over a range.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DataFile {
    /// One instance's URI (its done-flag appears; the directory itself when the flag is empty).
    pub uri: Option<String>,
    /// When it completes (default: already there at the start). With `uri` only.
    #[schemars(with = "Option<String>")]
    pub at: Option<Spanned<String>>,
    /// With `dataset`: the job whose dataset this is.
    pub job: Option<String>,
    /// A dataset name of that job (as a data-in or data-out's dataset= says).
    pub dataset: Option<String>,
    /// The first nominal time of the range (inclusive).
    #[schemars(with = "Option<String>")]
    pub from: Option<Spanned<String>>,
    /// The end of the range (exclusive).
    #[schemars(with = "Option<String>")]
    pub to: Option<Spanned<String>>,
    /// Each instance completes at its nominal time plus this (30s, 5m, 2h, 1d; default 0).
    #[schemars(with = "Option<String>")]
    pub delay: Option<Spanned<String>>,
    /// Nominal times in the range that never arrive.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub missing: Vec<Spanned<String>>,
}

/// What an action's workflow does once RUNNING.
#[derive(Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct WorkflowsFile {
    /// SUCCEEDED, FAILED or KILLED (default SUCCEEDED).
    #[schemars(with = "Option<String>")]
    pub status: Option<Spanned<String>>,
    /// How long it runs (default 10m).
    #[schemars(with = "Option<String>")]
    pub duration: Option<Spanned<String>>,
    /// A SUCCEEDED action's data-out instances complete when it ends (default true).
    pub outputs: Option<bool>,
}

/// One action's workflow.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WorkflowFile {
    #[schemars(with = "String")]
    pub job: Spanned<String>,
    /// The action's number.
    pub action: Option<u32>,
    /// Or its nominal time.
    #[schemars(with = "Option<String>")]
    pub nominal: Option<Spanned<String>>,
    /// SUCCEEDED, FAILED or KILLED.
    #[schemars(with = "Option<String>")]
    pub status: Option<Spanned<String>>,
    #[schemars(with = "Option<String>")]
    pub duration: Option<Spanned<String>>,
}

/// What a user does at a time.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OpFile {
    #[schemars(with = "String")]
    pub at: Spanned<String>,
    #[schemars(with = "String")]
    pub job: Spanned<String>,
    /// suspend, resume, kill, change, rerun or ignore.
    #[serde(rename = "do")]
    #[schemars(with = "String")]
    pub verb: Spanned<String>,
    /// For change: endtime=T;pausetime=T;concurrency=N;status=S (the CLI's -value).
    #[schemars(with = "Option<String>")]
    pub value: Option<Spanned<String>>,
    /// For kill, rerun, ignore: action numbers, e.g. 1-3,7 (the CLI's -action).
    #[schemars(with = "Option<String>")]
    pub actions: Option<Spanned<String>>,
}

/// The server is down in [from, to).
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OutageFile {
    #[schemars(with = "String")]
    pub from: Spanned<String>,
    #[schemars(with = "String")]
    pub to: Spanned<String>,
}

// ---------------------------------------------------------------------------
// The scenario, checked.

/// The server's settings, Oozie's defaults unless the scenario says otherwise.
#[derive(Debug, Clone)]
pub struct Settings {
    pub lookup: Millis,
    pub scheduling: Millis,
    pub window: Millis,
    /// LAST_ONLY/NONE catch-up batch; `None` is unlimited.
    pub action_batch: Option<usize>,
    pub system_limit: usize,
    pub default_timeout: i64,
    pub default_concurrency: i64,
    pub default_throttle: i64,
    /// The throttle's cap: queue size × throttling factor.
    pub throttle_cap: i64,
    pub check_interval: Millis,
    pub check_additional_delay: Millis,
    pub none_tolerance: i64,
    pub latest_use_current_time: bool,
    pub recovery_interval: Millis,
    pub recovery_older_than: Millis,
    pub status_interval: Millis,
    pub states_without_error: bool,
    pub pause_interval: Millis,
    /// `oozie.service.coord.check.maximum.frequency` when the scenario sets
    /// it; else each job's `coordc.toml` says (default true).
    pub check_maximum_frequency: Option<bool>,
    /// What workflows' runs read.
    pub retry: RetrySettings,
}

impl Default for Settings {
    /// oozie-default.xml.
    fn default() -> Settings {
        Settings {
            lookup: 300_000,
            scheduling: 300_000,
            window: 3_600_000,
            action_batch: Some(10_000),
            system_limit: 50,
            default_timeout: 120,
            default_concurrency: 1,
            default_throttle: 12,
            throttle_cap: 500,
            check_interval: 60_000,
            check_additional_delay: 0,
            none_tolerance: 1,
            latest_use_current_time: false,
            recovery_interval: 60_000,
            recovery_older_than: 600_000,
            status_interval: 60_000,
            states_without_error: true,
            pause_interval: 60_000,
            check_maximum_frequency: None,
            retry: RetrySettings::default(),
        }
    }
}

/// A workflow's scripted end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorkflowScript {
    pub status: WorkflowEnd,
    pub duration: Millis,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorkflowEnd {
    Succeeded,
    Failed,
    Killed,
    /// A workflow run from its application that was suspended (not a
    /// status a scenario scripts).
    Suspended,
}

/// Which action a `[[workflow]]` entry scripts.
#[derive(Debug, Clone, PartialEq)]
pub enum ActionRef {
    Number(usize),
    Nominal(DateTime<Utc>),
}

#[derive(Debug, Clone)]
pub struct WorkflowOverride {
    pub job: String,
    pub job_span: Span,
    pub action: ActionRef,
    pub status: Option<WorkflowEnd>,
    pub duration: Option<Millis>,
}

#[derive(Debug, Clone)]
pub struct JobEntry {
    pub id: Option<String>,
    pub app: String,
    pub app_span: Span,
    pub config: Option<Vec<String>>,
    pub properties: Vec<(String, String)>,
    pub map: Vec<(String, String)>,
    pub submit: DateTime<Utc>,
}

#[derive(Debug, Clone)]
pub enum DataEntry {
    Uri {
        uri: String,
        at: DateTime<Utc>,
    },
    Range {
        job: String,
        dataset: String,
        span: Span,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
        delay: Millis,
        missing: Vec<DateTime<Utc>>,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verb {
    Suspend,
    Resume,
    Kill,
    Change,
    Rerun,
    Ignore,
}

#[derive(Debug, Clone)]
pub struct Op {
    pub at: DateTime<Utc>,
    pub job: String,
    pub job_span: Span,
    pub verb: Verb,
    pub value: Option<(String, Span)>,
    pub actions: Option<(Vec<(usize, usize)>, Span)>,
}

/// A scenario whose every value was read.
#[derive(Debug, Clone)]
pub struct Scenario {
    pub start: DateTime<Utc>,
    pub until: DateTime<Utc>,
    /// Where `until` is written (empty for the quick form).
    pub until_span: Span,
    pub settings: Settings,
    pub jobs: Vec<JobEntry>,
    pub data: Vec<DataEntry>,
    pub workflows: WorkflowScript,
    pub outputs: bool,
    pub workflow: Vec<WorkflowOverride>,
    pub ops: Vec<Op>,
    pub outages: Vec<(DateTime<Utc>, DateTime<Utc>)>,
    /// What workflows run from local applications meet.
    pub script: Script,
}

/// A workflow's scenario (`coordc simulate workflow.xml --scenario S`).
#[derive(Debug, Clone)]
pub struct WorkflowScenario {
    pub start: DateTime<Utc>,
    pub script: Script,
}

/// The most retries of one kind a scenario may allow an action.
pub const MAX_RETRIES: i64 = 1_000;

/// The deepest sub-workflow nesting a scenario may allow: each level is a
/// nested run (Oozie's default is 50).
pub const MAX_SUBWORKFLOW_DEPTH: i64 = 200;

/// When a workflow starts unless its scenario says.
pub const DEFAULT_WORKFLOW_START: &str = "2000-01-01T00:00Z";

impl WorkflowScenario {
    /// Reads a workflow scenario's text: every problem found, or the scenario.
    pub fn read(text: &str) -> Result<WorkflowScenario, Vec<Diagnostic>> {
        let file: ScenarioFile = toml::from_str(text).map_err(|e| {
            let span = e.span().map_or(Span::EMPTY, |r| Span::new(r.start, r.end));
            vec![problem(span, e.message().to_string())]
        })?;
        let mut problems = Vec::new();
        let coordinator_only = [
            ("until", file.until.is_some()),
            ("[[job]]", !file.jobs.is_empty()),
            ("[[data]]", !file.data.is_empty()),
            (
                "[workflows]",
                file.workflows.status.is_some()
                    || file.workflows.duration.is_some()
                    || file.workflows.outputs.is_some(),
            ),
            ("[[workflow]]", !file.workflow.is_empty()),
            ("[[op]]", !file.ops.is_empty()),
            ("[[outage]]", !file.outages.is_empty()),
        ];
        for (key, present) in coordinator_only {
            if present {
                let span = match &file.until {
                    Some(until) if key == "until" => span_of(until),
                    _ => header_span(text, key),
                };
                problems.push(
                    problem(
                        span,
                        format!("`{key}` is for coordinator scenarios: a workflow's scenario has start, [server], [actions], [[node]] and [fs]"),
                    )
                    .with_help("remove it, or simulate the coordinator that runs this workflow"),
                );
            }
        }
        let start = match &file.start {
            Some(t) => keep(&mut problems, time(t)),
            None => parse_datetime(DEFAULT_WORKFLOW_START, ProcessingZone::UTC)
                .ok()
                .map(|t| t.instant),
        };
        let settings = keep(&mut problems, settings(&file.server));
        let script = script(&file, text, &mut problems, false);
        match (start, settings) {
            (Some(start), Some(settings)) if problems.is_empty() => Ok(WorkflowScenario {
                start,
                script: Script {
                    settings: settings.retry,
                    ..script
                },
            }),
            _ => Err(problems),
        }
    }
}

/// Where the table header `header` (`[[job]]`) first starts a line of
/// `text`, to point at it; nowhere when it is written otherwise.
fn header_span(text: &str, header: &str) -> Span {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if trimmed.starts_with(header) {
            let start = offset + (line.len() - trimmed.len());
            return Span::new(start, start + header.len());
        }
        offset += line.len();
    }
    Span::EMPTY
}

/// `[actions]`, `[[node]]` and `[fs]`, checked; `scoped`: whether `[[node]]`
/// may name a job and an action (coordinator scenarios).
fn script(file: &ScenarioFile, text: &str, problems: &mut Vec<Diagnostic>, scoped: bool) -> Script {
    let mut default = Behaviour::default();
    if let Some(actions) = &file.actions {
        let not_here = [
            ("name", actions.name.as_ref().map(span_of)),
            ("action", actions.action.as_ref().map(span_of)),
        ];
        for (key, span) in not_here {
            if let Some(span) = span {
                problems.push(problem(
                    span,
                    format!("`{key}` is for a [[node]]: [actions] is every node's default"),
                ));
            }
        }
        if actions.job.is_some() {
            problems.push(problem(
                header_span(text, "[actions]"),
                "`job` is for a [[node]]: [actions] is every node's default",
            ));
        }
        if let Some(entry) = keep(problems, node_script(actions)) {
            entry.apply(&mut default);
        }
    }
    let mut nodes = Vec::new();
    for entry in &file.nodes {
        let Some(name) = &entry.name else {
            problems.push(problem(
                Span::EMPTY,
                "a [[node]] names its action node: `name = \"...\"`",
            ));
            continue;
        };
        if !scoped && (entry.job.is_some() || entry.action.is_some()) {
            problems.push(problem(
                span_of(name),
                "`job` and `action` scope a [[node]] inside a coordinator scenario; a workflow's scenario runs one workflow",
            ));
            continue;
        }
        if let Some(script) = keep(problems, node_script(entry)) {
            nodes.push(NodeScript {
                name: name.get_ref().clone(),
                span: span_of(name),
                ..script
            });
        }
    }
    let fs = match &file.fs {
        Some(fs) => {
            if let Some((path, _)) = fs.files.iter().find(|(_, size)| **size < 0) {
                problems.push(problem(
                    header_span(text, "[fs]"),
                    format!("[fs] file {path}: a size is a count of bytes, 0 or more"),
                ));
            }
            let mut system = FileSystem::new(fs.files.clone(), fs.dirs.iter().cloned().collect());
            if let Some(b) = fs.block_size {
                system.block_size = b;
            }
            system
        }
        None => FileSystem::new(BTreeMap::new(), Default::default()),
    };
    Script {
        default,
        nodes,
        fs,
        settings: RetrySettings::default(),
    }
}

/// One `[[node]]` (or `[actions]`), its values checked.
fn node_script(entry: &NodeFile) -> Result<NodeScript, Diagnostic> {
    let outcome = match &entry.outcome {
        None => None,
        Some(o) => Some(match o.get_ref().as_str() {
            "ok" => Outcome::Ok,
            "error" => Outcome::Error,
            other => {
                return Err(problem(
                    span_of(o),
                    format!("`{other}` is not an outcome: write \"ok\" or \"error\""),
                ));
            }
        }),
    };
    let duration = entry.duration.as_ref().map(duration).transpose()?;
    let transient_failures = match &entry.transient_failures {
        Some(n) if !(0..=1_000).contains(n.get_ref()) => {
            return Err(problem(
                span_of(n),
                "transient_failures is a count of failed attempts, 0 to 1000",
            ));
        }
        Some(n) => Some(*n.get_ref() as u32),
        None => None,
    };
    let action = match &entry.action {
        Some(n) if *n.get_ref() < 1 => {
            return Err(problem(span_of(n), "actions are numbered from 1"));
        }
        Some(n) => Some(*n.get_ref() as usize),
        None => None,
    };
    Ok(NodeScript {
        name: String::new(),
        span: Span::EMPTY,
        job: entry.job.clone(),
        action,
        outcome,
        error_code: entry.error_code.clone(),
        error_message: entry.error_message.clone(),
        duration,
        transient_failures,
        action_data: entry
            .action_data
            .as_ref()
            .map(|d| d.iter().map(|(k, v)| (k.clone(), v.clone())).collect()),
        external_status: entry.external_status.clone(),
        counters: entry.counters.as_ref().map(|groups| {
            groups
                .iter()
                .map(|(g, c)| (g.clone(), c.iter().map(|(k, v)| (k.clone(), *v)).collect()))
                .collect()
        }),
    })
}

/// The latest `until` coordc simulates to: beyond, the simulated years are
/// more than any schedule needs (and than its event queue should hold).
const LAST_YEAR: i32 = 2999;

fn span_of<T>(value: &Spanned<T>) -> Span {
    let r = value.span();
    Span::new(r.start, r.end)
}

fn problem(span: Span, message: impl Into<String>) -> Diagnostic {
    Diagnostic::error(SIMULATE_SCENARIO, span, message)
}

fn time(value: &Spanned<String>) -> Result<DateTime<Utc>, Diagnostic> {
    use chrono::Datelike;
    let t = parse_datetime(value.get_ref(), ProcessingZone::UTC)
        .map_err(|e| {
            problem(
                span_of(value),
                format!(
                    "`{}` is not an Oozie datetime: {}",
                    value.get_ref(),
                    e.message
                ),
            )
            .with_help("write YYYY-MM-DDTHH:mmZ, e.g. 2009-01-01T00:00Z")
        })?
        .instant;
    if t.year() > LAST_YEAR {
        return Err(problem(
            span_of(value),
            format!(
                "coordc simulates up to the year {LAST_YEAR}, not {}",
                t.year()
            ),
        ));
    }
    Ok(t)
}

/// A duration: a count and a unit, `30s`, `5m`, `2h` or `1d`.
pub fn parse_duration(text: &str) -> Option<Millis> {
    let text = text.trim();
    let unit = text.chars().last()?;
    let count: i64 = text[..text.len() - unit.len_utf8()].parse().ok()?;
    let scale = match unit {
        's' => 1_000,
        'm' => 60_000,
        'h' => 3_600_000,
        'd' => 86_400_000,
        _ => return None,
    };
    // Up to a thousand years: more is no duration a schedule has.
    (0..=365_000 * 86_400_000 / scale)
        .contains(&count)
        .then(|| count * scale)
}

fn duration(value: &Spanned<String>) -> Result<Millis, Diagnostic> {
    parse_duration(value.get_ref()).ok_or_else(|| {
        problem(
            span_of(value),
            format!("`{}` is not a duration", value.get_ref()),
        )
        .with_help("write a whole count and a unit: 30s, 5m, 2h or 1d")
    })
}

fn workflow_end(value: &Spanned<String>) -> Result<WorkflowEnd, Diagnostic> {
    match value.get_ref().as_str() {
        "SUCCEEDED" => Ok(WorkflowEnd::Succeeded),
        "FAILED" => Ok(WorkflowEnd::Failed),
        "KILLED" => Ok(WorkflowEnd::Killed),
        other => Err(problem(
            span_of(value),
            format!("a workflow ends SUCCEEDED, FAILED or KILLED, not `{other}`"),
        )),
    }
}

/// Oozie's `-action` list: numbers and ranges, `1-3,7`.
pub fn action_list(text: &str) -> Option<Vec<(usize, usize)>> {
    text.split(',')
        .map(|part| {
            let part = part.trim();
            let (a, b) = part.split_once('-').unwrap_or((part, part));
            let (a, b): (usize, usize) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
            (a >= 1 && a <= b).then_some((a, b))
        })
        .collect()
}

impl Scenario {
    /// Reads a scenario file's text: every problem found, or the scenario.
    pub fn read(text: &str) -> Result<Scenario, Vec<Diagnostic>> {
        let file: ScenarioFile = toml::from_str(text).map_err(|e| {
            let span = e.span().map_or(Span::EMPTY, |r| Span::new(r.start, r.end));
            vec![problem(span, e.message().to_string())]
        })?;
        let mut problems = Vec::new();
        fn required<'v>(
            value: &'v Option<Spanned<String>>,
            key: &str,
        ) -> Result<&'v Spanned<String>, Diagnostic> {
            value.as_ref().ok_or_else(|| {
                problem(Span::EMPTY, format!("missing field `{key}`"))
                    .with_help("a coordinator scenario says when the server starts (`start`) and when the simulation ends (`until`)")
            })
        }
        let start = keep(&mut problems, required(&file.start, "start").and_then(time));
        let until = keep(&mut problems, required(&file.until, "until").and_then(time));
        let until_span = file.until.as_ref().map_or(Span::EMPTY, span_of);
        let settings = keep(&mut problems, settings(&file.server));
        let script = script(&file, text, &mut problems, true);
        let default_status = match &file.workflows.status {
            Some(s) => keep(&mut problems, workflow_end(s)),
            None => Some(WorkflowEnd::Succeeded),
        };
        let default_duration = match &file.workflows.duration {
            Some(d) => keep(&mut problems, duration(d)),
            None => Some(600_000),
        };
        let mut jobs = Vec::new();
        for job in &file.jobs {
            let submit = match &job.submit {
                Some(s) => keep(&mut problems, time(s)),
                None => start,
            };
            if let Some(submit) = submit {
                jobs.push(JobEntry {
                    id: job.id.clone(),
                    app: job.app.get_ref().clone(),
                    app_span: span_of(&job.app),
                    config: job.config.clone(),
                    properties: job.properties.clone().into_iter().collect(),
                    map: job.map.clone().into_iter().collect(),
                    submit,
                });
            }
        }
        let mut data = Vec::new();
        for entry in &file.data {
            if let Some(d) = keep(&mut problems, data_entry(entry, start)) {
                data.push(d);
            }
        }
        let mut workflow = Vec::new();
        for entry in &file.workflow {
            let action = match (&entry.action, &entry.nominal) {
                (Some(n), None) if *n >= 1 => Some(ActionRef::Number(*n as usize)),
                (None, Some(t)) => keep(&mut problems, time(t)).map(ActionRef::Nominal),
                _ => keep(
                    &mut problems,
                    Err(problem(
                        span_of(&entry.job),
                        "a [[workflow]] names its action by `action` (a number from 1) or by `nominal`, one of them",
                    )),
                ),
            };
            let status = entry
                .status
                .as_ref()
                .map(|s| keep(&mut problems, workflow_end(s)));
            let duration = entry
                .duration
                .as_ref()
                .map(|d| keep(&mut problems, duration(d)));
            if let (Some(action), Some(status), Some(duration)) = (
                action,
                status.map_or(Some(None), |s| s.map(Some)),
                duration.map_or(Some(None), |d| d.map(Some)),
            ) {
                workflow.push(WorkflowOverride {
                    job: entry.job.get_ref().clone(),
                    job_span: span_of(&entry.job),
                    action,
                    status,
                    duration,
                });
            }
        }
        let mut ops = Vec::new();
        for entry in &file.ops {
            if let Some(op) = keep(&mut problems, op(entry)) {
                ops.push(op);
            }
        }
        let mut outages = Vec::new();
        for entry in &file.outages {
            if let (Some(from), Some(to)) = (
                keep(&mut problems, time(&entry.from)),
                keep(&mut problems, time(&entry.to)),
            ) {
                if from >= to {
                    problems.push(problem(
                        span_of(&entry.to),
                        "an outage must end after it starts",
                    ));
                } else {
                    outages.push((from, to));
                }
            }
        }
        outages.sort();
        for pair in outages.windows(2) {
            if matches!(pair, [(_, end), (next, _)] if next < end) {
                problems.push(problem(
                    Span::EMPTY,
                    "two outages overlap: write them as one",
                ));
            }
        }
        if let (Some(s), Some(u)) = (start, until)
            && s >= u
        {
            problems.push(problem(until_span, "`until` must be after `start`"));
        }
        for op in &ops {
            if let Some((from, to)) = outages.iter().find(|(f, t)| *f <= op.at && op.at < *t) {
                problems.push(
                    problem(
                        op.job_span,
                        format!(
                            "this op falls in the outage {} to {}: the server cannot take it",
                            crate::time::datetime::format_utc(*from),
                            crate::time::datetime::format_utc(*to)
                        ),
                    )
                    .with_help("move it after the outage"),
                );
            }
        }
        match (start, until, settings, default_status, default_duration) {
            (Some(start), Some(until), Some(settings), Some(status), Some(duration))
                if problems.is_empty() =>
            {
                Ok(Scenario {
                    start,
                    until,
                    until_span,
                    script: Script {
                        settings: settings.retry,
                        ..script
                    },
                    settings,
                    jobs,
                    data,
                    workflows: WorkflowScript { status, duration },
                    outputs: file.workflows.outputs.unwrap_or(true),
                    workflow,
                    ops,
                    outages,
                })
            }
            _ => Err(problems),
        }
    }
}

/// The value, or `None` with its problem recorded.
fn keep<T>(problems: &mut Vec<Diagnostic>, result: Result<T, Diagnostic>) -> Option<T> {
    result.map_err(|d| problems.push(d)).ok()
}

fn data_entry(entry: &DataFile, start: Option<DateTime<Utc>>) -> Result<DataEntry, Diagnostic> {
    let at = entry.at.as_ref().map(time).transpose()?;
    match (&entry.uri, &entry.job, &entry.dataset) {
        (Some(uri), None, None) => {
            if entry.from.is_some()
                || entry.to.is_some()
                || entry.delay.is_some()
                || !entry.missing.is_empty()
            {
                return Err(problem(
                    entry.at.as_ref().map_or(Span::EMPTY, span_of),
                    "a [[data]] with `uri` is one instance: `from`, `to`, `delay` and `missing` belong to a `job` and `dataset` range",
                ));
            }
            Ok(DataEntry::Uri {
                uri: uri.clone(),
                at: at.or(start).unwrap_or_default(),
            })
        }
        (None, Some(job), Some(dataset)) => {
            let (Some(from), Some(to)) = (&entry.from, &entry.to) else {
                return Err(problem(
                    Span::EMPTY,
                    format!(
                        "the [[data]] range of {job}'s dataset {dataset} needs `from` and `to`"
                    ),
                ));
            };
            if let Some(at) = &entry.at {
                return Err(problem(
                    span_of(at),
                    "`at` is for one `uri`; a range's instances complete at their nominal time plus `delay`",
                ));
            }
            let (from_t, to_t) = (time(from)?, time(to)?);
            if from_t >= to_t {
                return Err(problem(span_of(to), "`to` must be after `from`"));
            }
            Ok(DataEntry::Range {
                job: job.clone(),
                dataset: dataset.clone(),
                span: span_of(from),
                from: from_t,
                to: to_t,
                delay: entry.delay.as_ref().map(duration).transpose()?.unwrap_or(0),
                missing: entry.missing.iter().map(time).collect::<Result<_, _>>()?,
            })
        }
        _ => Err(problem(
            entry
                .at
                .as_ref()
                .or(entry.from.as_ref())
                .map_or(Span::EMPTY, span_of),
            "a [[data]] entry names either one `uri`, or a `job` and its `dataset`",
        )),
    }
}

fn op(entry: &OpFile) -> Result<Op, Diagnostic> {
    let at = time(&entry.at)?;
    let verb = match entry.verb.get_ref().as_str() {
        "suspend" => Verb::Suspend,
        "resume" => Verb::Resume,
        "kill" => Verb::Kill,
        "change" => Verb::Change,
        "rerun" => Verb::Rerun,
        "ignore" => Verb::Ignore,
        other => {
            return Err(problem(
                span_of(&entry.verb),
                format!("`{other}` is none of suspend, resume, kill, change, rerun, ignore"),
            ));
        }
    };
    let actions = match &entry.actions {
        Some(text) => Some((
            action_list(text.get_ref()).ok_or_else(|| {
                problem(
                    span_of(text),
                    format!("`{}` is not an action list", text.get_ref()),
                )
                .with_help("write action numbers and ranges, e.g. 1-3,7")
            })?,
            span_of(text),
        )),
        None => None,
    };
    let needs_actions = matches!(verb, Verb::Rerun | Verb::Ignore);
    let takes_actions = needs_actions || verb == Verb::Kill;
    if needs_actions && actions.is_none() {
        return Err(problem(
            span_of(&entry.verb),
            "rerun and ignore need `actions`, e.g. actions = \"1-3\"",
        ));
    }
    if !takes_actions && let Some((_, span)) = &actions {
        return Err(problem(*span, "`actions` is for kill, rerun and ignore"));
    }
    let value = entry
        .value
        .as_ref()
        .map(|v| (v.get_ref().clone(), span_of(v)));
    match (&verb, &value) {
        (Verb::Change, None) => {
            return Err(problem(
                span_of(&entry.verb),
                "change needs a `value`, e.g. value = \"endtime=2009-01-02T00:00Z;concurrency=3\"",
            ));
        }
        (Verb::Change, _) | (_, None) => {}
        (_, Some((_, span))) => {
            return Err(problem(*span, "`value` is for change"));
        }
    }
    Ok(Op {
        at,
        job: entry.job.get_ref().clone(),
        job_span: span_of(&entry.job),
        verb,
        value,
        actions,
    })
}

fn settings(file: &ServerFile) -> Result<Settings, Diagnostic> {
    let mut s = Settings::default();
    // A count in its unit, within what the server could hold.
    let count = |v: &Option<Spanned<i64>>, min: i64, scale: i64, into: &mut i64| {
        if let Some(v) = v {
            let n = *v.get_ref();
            if n < min || n > i64::from(i32::MAX) {
                return Err(problem(
                    span_of(v),
                    format!("this setting must be between {min} and {}", i32::MAX),
                ));
            }
            *into = n * scale;
        }
        Ok(())
    };
    count(&file.lookup_interval, 1, 1000, &mut s.lookup)?;
    s.scheduling = s.lookup;
    count(&file.scheduling_interval, 1, 1000, &mut s.scheduling)?;
    count(&file.materialization_window, 1, 1000, &mut s.window)?;
    let mut batch = 10_000;
    count(&file.action_batch_size, -1, 1, &mut batch)?;
    s.action_batch = (batch >= 0).then_some(batch as usize);
    let mut limit = 50;
    count(&file.materialization_system_limit, 1, 1, &mut limit)?;
    s.system_limit = limit as usize;
    count(&file.default_timeout, -1, 1, &mut s.default_timeout)?;
    count(&file.default_concurrency, -1, 1, &mut s.default_concurrency)?;
    count(&file.default_throttle, 1, 1, &mut s.default_throttle)?;
    let mut queue = 10_000;
    count(&file.queue_size, 1, 1, &mut queue)?;
    let factor = file
        .throttling_factor
        .as_ref()
        .map_or(0.05, |f| *f.get_ref());
    if !(0.0..=1.0).contains(&factor) {
        return Err(problem(
            file.throttling_factor.as_ref().map_or(Span::EMPTY, span_of),
            "the throttling factor is a fraction between 0 and 1",
        ));
    }
    // CoordSubmitXCommand.java:773-787: (int) (queueSize * factor).
    s.throttle_cap = (queue as f64 * factor) as i64;
    count(&file.input_check_interval, 1, 1, &mut s.check_interval)?;
    count(
        &file.input_check_additional_delay,
        0,
        1000,
        &mut s.check_additional_delay,
    )?;
    count(&file.none_tolerance, 0, 1, &mut s.none_tolerance)?;
    count(&file.recovery_interval, 1, 1000, &mut s.recovery_interval)?;
    count(
        &file.recovery_older_than,
        0,
        1000,
        &mut s.recovery_older_than,
    )?;
    count(
        &file.status_transit_interval,
        1,
        1000,
        &mut s.status_interval,
    )?;
    count(&file.pause_transit_interval, 1, 1000, &mut s.pause_interval)?;
    if let Some(v) = &file.latest_use_current_time {
        s.latest_use_current_time = *v.get_ref();
    }
    if let Some(v) = &file.states_without_error {
        s.states_without_error = *v.get_ref();
    }
    if let Some(v) = &file.check_maximum_frequency {
        s.check_maximum_frequency = Some(*v.get_ref());
    }
    let retry = &mut s.retry;
    // Retry counts and the sub-workflow depth are bounded: each retry is an
    // event and each level a nested run, so a huge value would run (or
    // recurse) without end.
    let bounded = |v: &Option<Spanned<i64>>, most: i64, into: &mut i64| {
        if let Some(v) = v
            && !(0..=most).contains(v.get_ref())
        {
            return Err(problem(
                span_of(v),
                format!("coordc simulates this setting from 0 to {most}"),
            ));
        }
        if let Some(v) = v {
            *into = *v.get_ref();
        }
        Ok(())
    };
    let (mut user, mut retries, mut depth) = (
        i64::from(retry.user_retry_max),
        i64::from(retry.retries_max),
        i64::from(retry.subworkflow_max_depth),
    );
    bounded(&file.user_retry_max, MAX_RETRIES, &mut user)?;
    bounded(&file.action_retries_max, MAX_RETRIES, &mut retries)?;
    bounded(
        &file.subworkflow_max_depth,
        MAX_SUBWORKFLOW_DEPTH,
        &mut depth,
    )?;
    let mut interval = retry.retry_interval;
    count(&file.action_retry_interval, 0, 1000, &mut interval)?;
    retry.user_retry_max = user as u32;
    retry.retries_max = retries as u32;
    // (ActionExecutor: an interval of 0 or less means 60 s.)
    retry.retry_interval = if interval > 0 { interval } else { 60_000 };
    retry.subworkflow_max_depth = depth as u32;
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_are_a_count_and_a_unit() {
        assert_eq!(parse_duration("30s"), Some(30_000));
        assert_eq!(parse_duration("5m"), Some(300_000));
        assert_eq!(parse_duration("2h"), Some(7_200_000));
        assert_eq!(parse_duration("1d"), Some(86_400_000));
        assert_eq!(parse_duration("0m"), Some(0));
        for bad in ["", "m", "5", "-5m", "5x", "1.5h", "99999999999999d"] {
            assert_eq!(parse_duration(bad), None, "{bad}");
        }
    }

    #[test]
    fn action_lists_are_numbers_and_ranges() {
        assert_eq!(action_list("1-3,7"), Some(vec![(1, 3), (7, 7)]));
        assert_eq!(action_list("2"), Some(vec![(2, 2)]));
        for bad in ["", "0", "3-1", "a", "1,,2"] {
            assert_eq!(action_list(bad), None, "{bad}");
        }
    }

    #[test]
    fn an_unknown_key_is_named_with_its_place() {
        let text = "start = \"2009-01-01T00:00Z\"\nuntil = \"2009-01-02T00:00Z\"\n[[job]]\napp = \"a.xml\"\nbogus = 1\n";
        let problems = Scenario::read(text).unwrap_err();
        assert!(
            problems[0].message.contains("unknown field `bogus`"),
            "{}",
            problems[0].message
        );
        assert_eq!(&text[problems[0].span.range()], "bogus");
    }

    #[test]
    fn every_bad_value_is_reported_at_its_place() {
        let text = "start = \"2009-01-01T00:00Z\"\nuntil = \"10000-01-01T00:00Z\"\n[[outage]]\nfrom = \"2009-01-01T05:00Z\"\nto = \"2009-01-01T04:00Z\"\n[workflows]\nduration = \"5 minutes\"\n";
        let problems = Scenario::read(text).unwrap_err();
        let places: Vec<&str> = problems.iter().map(|p| &text[p.span.range()]).collect();
        assert_eq!(
            places,
            [
                "\"10000-01-01T00:00Z\"",
                "\"5 minutes\"",
                "\"2009-01-01T04:00Z\""
            ],
            "{problems:?}"
        );
    }

    #[test]
    fn settings_default_to_oozie_default_xml() {
        let text = "start = \"2009-01-01T00:00Z\"\nuntil = \"2009-01-02T00:00Z\"\n[server]\n\"oozie.service.CoordMaterializeTriggerService.lookup.interval\" = 60\n";
        let s = Scenario::read(text).unwrap().settings;
        // The scheduling interval follows the lookup interval (oozie-default.xml:590-599).
        assert_eq!(
            (s.lookup, s.scheduling, s.window),
            (60_000, 60_000, 3_600_000)
        );
        assert_eq!(s.throttle_cap, 500);
    }
}

#[cfg(test)]
mod schema_tests {
    /// docs/simulate.schema.json is the schema of the serde types; run with
    /// COORDC_WRITE_SCHEMA=1 to write it after changing them.
    #[test]
    fn the_shipped_schema_is_the_generated_one() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/simulate.schema.json");
        let schema = schemars::schema_for!(super::ScenarioFile);
        let generated = serde_json::to_string_pretty(&schema).unwrap() + "\n";
        if std::env::var_os("COORDC_WRITE_SCHEMA").is_some() {
            std::fs::write(path, &generated).unwrap();
        }
        let shipped = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            shipped == generated,
            "docs/simulate.schema.json is not the schema of the scenario types: run COORDC_WRITE_SCHEMA=1 cargo test the_shipped_schema"
        );
    }
}
