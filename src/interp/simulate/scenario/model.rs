//! The scenario as the simulator uses it: every value checked and typed.
//!
//! Two stages. [`Scenario`] (and [`WorkflowScenario`]) is the file read:
//! times, durations, settings, action lists and `-change` values parsed,
//! each with the span its problems point at. [`Simulation`] is that
//! scenario bound to the jobs it submits: every job name an index, every
//! data range listed instance by instance. The engine receives only a
//! [`Simulation`]: no spans into the file, no text left to parse.

use crate::interp::clock::Millis;
use crate::interp::workflow::script::{RetrySettings, Script};
use crate::span::Span;
use chrono::{DateTime, Utc};

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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActionRef {
    Number(usize),
    Nominal(Millis),
}

impl ActionRef {
    /// Whether this names the action numbered `number` at `nominal`.
    pub(crate) fn names(self, number: usize, nominal: Millis) -> bool {
        match self {
            ActionRef::Number(n) => n == number,
            ActionRef::Nominal(t) => t == nominal,
        }
    }
}

/// What a `[[workflow]]` entry says of one action's workflow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ActionScript {
    pub action: ActionRef,
    pub status: Option<WorkflowEnd>,
    pub duration: Option<Millis>,
}

#[derive(Debug, Clone)]
pub struct WorkflowOverride {
    pub job: String,
    pub job_span: Span,
    pub script: ActionScript,
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

/// Oozie's `-action` list: inclusive ranges of action numbers.
pub(crate) type ActionList = Vec<(usize, usize)>;

/// A user operation, as the Oozie CLI's verb and its arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Suspend,
    Resume,
    /// The job, or the listed actions.
    Kill(Option<ActionList>),
    /// The `-value`, parsed; `Err`: the E1015 Oozie answers it with
    /// (CoordChangeXCommand.java:208-461), given when the op runs.
    Change(Result<ChangeValue, String>),
    Rerun(ActionList),
    Ignore(ActionList),
}

/// A `-change` value: what it sets.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChangeValue {
    pub end: Option<Millis>,
    /// `Some(None)`: the pause time is removed.
    pub pause: Option<Option<Millis>>,
    pub concurrency: Option<i32>,
    pub status: Option<StatusChange>,
}

/// A `-change` value's `status=`: one of the two Oozie accepts, or another
/// (refused when the op runs, with the job's status in the message).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StatusChange {
    Running,
    Ignored,
    Other(String),
}

impl StatusChange {
    pub(crate) fn name(&self) -> &str {
        match self {
            StatusChange::Running => "RUNNING",
            StatusChange::Ignored => "IGNORED",
            StatusChange::Other(text) => text,
        }
    }
}

#[derive(Debug, Clone)]
pub struct Op {
    pub at: DateTime<Utc>,
    pub job: String,
    pub job_span: Span,
    pub command: Command,
    /// As the report shows it: the verb and its `-value` or `-action`.
    pub text: String,
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
pub(crate) const MAX_RETRIES: i64 = 1_000;

/// The deepest sub-workflow nesting a scenario may allow: each level is a
/// nested run (Oozie's default is 50).
pub(crate) const MAX_SUBWORKFLOW_DEPTH: i64 = 200;

/// When a workflow starts unless its scenario says.
pub(crate) const DEFAULT_WORKFLOW_START: &str = "2000-01-01T00:00Z";

/// The instance `uri` arrives at `Some` time, or (a range's `missing`
/// instance) never.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arrival {
    pub uri: String,
    pub at: Option<Millis>,
}

/// A user operation on the job at an index of the simulation's jobs.
#[derive(Debug, Clone)]
pub struct JobOp {
    pub at: Millis,
    pub job: usize,
    pub command: Command,
    pub text: String,
}

/// A scenario bound to its jobs (given by index, in the engine's order):
/// what the engine runs.
#[derive(Debug, Clone)]
pub struct Simulation {
    pub start: Millis,
    pub until: Millis,
    pub settings: Settings,
    /// Every action's workflow, unless `action_scripts` says otherwise.
    pub workflows: WorkflowScript,
    pub outputs: bool,
    /// Per job, its `[[workflow]]` entries in the file's order.
    pub action_scripts: Vec<Vec<ActionScript>>,
    /// In the file's order.
    pub ops: Vec<JobOp>,
    /// In order: a later arrival of a URI replaces an earlier one.
    pub arrivals: Vec<Arrival>,
    pub outages: Vec<(Millis, Millis)>,
    /// What workflows run from local applications meet.
    pub script: Script,
}
