//! The engine: an Oozie server over simulated time (CoordMaterializeTransitionXCommand.java, CoordActionInputCheckXCommand.java, CoordActionReadyXCommand.java, StatusTransitService.java).
//!
//! Time is an event queue. The periodic services (materialization trigger,
//! StatusTransit, PauseTransit, Recovery) tick on their grids from the
//! server's start (+10 s), and only when they can act; commands (materialize,
//! input check, ready-check) run when due; workflows end when scripted.
//!
//! **Ties.** A command due at `t` runs at `t` plus an instant, as the real
//! server runs it a few milliseconds late: Oozie's `now > x` holds for
//! `x <= t`, `x > now` for `x > t`. Events due at the same time run in the
//! order they were queued.
//!
//! **Skipped checks.** A waiting action's input check re-queues itself every
//! minute; a check that cannot change anything (the first missing path has not
//! arrived, no timeout, skip or wait threshold crossed) is not run, and the
//! chain jumps to the first check time at which something can change. Ops,
//! outages and data written by workflows wake the chains they may affect.

use super::data::{DataStore, MAX_INSTANCES, dependency_path};
use super::inputs::{LogicInputs, Outcome, Unresolved, evaluate, pick};
use super::scenario::{
    ActionRef, DataEntry, Op, Scenario, Settings, Verb, WorkflowEnd, WorkflowScript,
};
use super::status::{ActionStatus, Counts, JobStatus, action_transition_allowed, transit};
use crate::diag::Diagnostic;
use crate::diag::rules::SIMULATE_SCENARIO;
use crate::el::VarMap;
use crate::interp::clock::{Millis, datetime, millis};
use crate::interp::workflow::graph::Graph;
use crate::interp::workflow::run::{
    Run, RunInput, RunStatus, SubWorkflow, SubWorkflows, job_conf, run as workflow_run,
};
use crate::interp::workflow::script::{Scope, Script};
use crate::oozie::action::Action;
use crate::oozie::input_logic::Condition;
use crate::oozie::job::{Execution, Job, Schedule};
use crate::span::Span;
use crate::time::calendar::add;
use crate::time::cron;
use crate::time::datetime::{ProcessingZone, format_utc, parse_datetime};
use chrono::{DateTime, TimeZone, Utc};
use std::borrow::Cow;
use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap};
use std::sync::Arc;

/// Most actions one simulation creates (a 5-minute coordinator for nearly 5
/// years, some 800 MB): past this, the scenario's window is too long for its
/// frequency.
pub const MAX_ACTIONS: usize = 500_000;

const SECOND: Millis = 1_000;
const MINUTE: Millis = 60_000;
/// The services' first run after the server starts (CoordMaterializeTriggerService.java:229-239).
const SERVICE_DELAY: Millis = 10 * SECOND;
/// Submit → first materialization; rerun → input check (CoordSubmitXCommand.java:325-329, CoordRerunXCommand.java:363).
const COMMAND_DELAY: Millis = 100;

/// Why something changed, for the report.
#[derive(Debug, Clone, PartialEq)]
pub enum Why {
    Submitted,
    Materialized,
    FirstMaterialization,
    MaterializationFailed(String),
    NoInputs,
    InputsPresent(usize),
    InputLogic(usize),
    Started {
        running: usize,
        concurrency: i64,
    },
    WorkflowStarted,
    WorkflowEnded,
    /// Its workflow was suspended (a transient error's retries ran out).
    WorkflowSuspended,
    /// Its workflow job could not be submitted.
    WorkflowRefused(String),
    SkippedLastOnly {
        next: Millis,
    },
    SkippedNone {
        nominal: Millis,
        tolerance: i64,
    },
    TimedOut {
        waited: i64,
        timeout: i64,
        base: Millis,
    },
    Suspended,
    Resumed,
    JobKilled,
    ActionsKilled,
    Ignored,
    Rerun,
    StatusTransit,
    PauseReached(Millis),
    Unpaused,
    Changed(String),
    EndBeforeStart,
}

/// One change, in time order: a job's status (`action: None`) or an action's.
#[derive(Debug, Clone)]
pub struct Change {
    pub at: Millis,
    pub job: usize,
    pub action: Option<usize>,
    pub from: Option<Status>,
    pub to: Status,
    pub why: Why,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Job(JobStatus),
    Action(ActionStatus),
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Job(s) => s.name(),
            Status::Action(s) => s.name(),
        }
    }
}

/// A user operation and what the server answered.
#[derive(Debug, Clone)]
pub struct OpRecord {
    pub at: Millis,
    pub what: String,
    /// `None`: done; else Oozie's refusal.
    pub refused: Option<String>,
}

/// An action's workflow.
#[derive(Debug, Clone)]
pub struct Workflow {
    pub started: Millis,
    pub ended: Option<Millis>,
    pub status: Option<WorkflowEnd>,
    /// When a local workflow application ran: what re-runs it for the report.
    pub run: Option<Box<LocalRun>>,
    /// Why its job could not be submitted, when it could not.
    pub refused: Option<String>,
    script: WorkflowScript,
    /// When it ends, while running; its remaining time while suspended.
    due: Option<Millis>,
    remaining: Millis,
    generation: u32,
}

/// What a coordinator action's workflow was: scripted, run from its local
/// application, or refused before it ran.
enum LocalOutcome {
    Scripted,
    Ran(Box<LocalRun>),
    Refused(String),
}

/// A local workflow application, with the app-path and the resolved
/// configuration an action gives its job.
type LocalWorkflow = (Arc<SubWorkflow>, String, Vec<(String, String)>);

/// A coordinator action's workflow run from its local application: its job
/// id and how it ended. (The run's trace is made again for the report, from
/// the same application and configuration: keeping every node of every run,
/// or even every run's configuration, would hold a year's simulation in
/// memory.)
#[derive(Debug, Clone)]
pub struct LocalRun {
    pub id_sequence: u64,
    pub status: RunStatus,
}

/// `value`'s `coord:dataIn` calls with the action's data-ins as its inputs
/// were resolved (or chosen by its input logic); the value as it is when it
/// does not evaluate.
fn resolved_data_ins(value: &str, action: &SimAction, pz: ProcessingZone) -> String {
    struct DataIns<'s>(&'s SimAction<'s>);
    impl crate::el::Context for DataIns<'_> {
        fn call(
            &self,
            def: &'static crate::el::library::FunctionDef,
            args: &[crate::el::Value],
        ) -> Option<Result<crate::el::Value<'static>, String>> {
            if def.namespace != Some("coord") || def.name != "dataIn" {
                return None;
            }
            let wanted = args.first()?.to_text();
            let action = self.0;
            let d = action
                .inputs
                .iter()
                .position(|(name, _, _)| *name == wanted)?;
            let uris = match &action.chosen {
                Some(chosen) => chosen.get(d)?,
                None => &action.inputs.get(d)?.1,
            };
            Some(Ok(crate::el::Value::Str(uris.join(",").into())))
        }
    }
    let Ok(template) = crate::el::parse_template(value, 0) else {
        return value.to_string();
    };
    let env = crate::el::Env {
        vars: &crate::el::NoVariables,
        library: crate::el::Library::Coordinator,
        context: Some(&DataIns(action)),
        processing_zone: pz,
    };
    crate::el::render(&template, &env).map_or_else(|_| value.to_string(), |(v, _)| v)
}

/// The remaining time of a workflow that will not end by itself.
const NEVER: Millis = Millis::MAX / 4;

/// A dependency: an instance and its path with the done-flag. (The data
/// store knows instances by URI: the done-flag appears with the instance.)
#[derive(Debug, Clone)]
pub struct Dep {
    pub uri: String,
    pub path: String,
}

/// A waiting action's chain of input checks.
#[derive(Debug, Clone, Copy)]
struct Chain {
    /// The next check, when the chain is alive.
    next: Option<Millis>,
    /// The last check run or skipped (Oozie's lastModified).
    last: Millis,
    /// The check after `last` comes this much later, then `period` apart.
    first_gap: Millis,
    period: Millis,
    generation: u32,
}

impl SimAction<'_> {
    /// The next input check, while its chain of checks is alive.
    pub fn next_check(&self) -> Option<Millis> {
        self.chain.next
    }
}

pub struct SimAction<'a> {
    /// Unique in the simulation: an action deleted by `-change` and one
    /// created again at its place are told apart by their queued events.
    serial: u32,
    pub number: usize,
    pub nominal: Millis,
    pub created: Millis,
    pub status: ActionStatus,
    pub since: Millis,
    pub timeout: i64,
    /// Per data-in: its name, its resolved URIs (latest/future ones first
    /// once resolved), its unresolved calls.
    pub inputs: Vec<(&'a str, Vec<String>, Vec<Unresolved>)>,
    /// The missing dependencies, in Oozie's order.
    pub missing: Vec<Dep>,
    /// Every dependency, for `<input-logic>`.
    logic_deps: Vec<Vec<Dep>>,
    logic_available: Vec<Vec<bool>>,
    /// With `<input-logic>`: the URIs it chose, per data-in.
    pub chosen: Option<Vec<Vec<String>>>,
    pub outputs: Vec<String>,
    logic: Option<Condition<'a>>,
    pub workflow: Option<Workflow>,
    /// With a local workflow application: its app-path and the action's
    /// resolved configuration, what its workflow job is given.
    /// `Err`: the app-path names a local application that cannot be read.
    local_workflow: Option<Box<Result<LocalWorkflow, String>>>,
    chain: Chain,
    /// When it last changed (READY actions wait for the RecoveryService).
    pub modified: Millis,
}

pub struct SimJob<'a> {
    pub id: String,
    pub app_name: String,
    job: &'a Job<'a>,
    done_flags: Vec<String>,
    pub status: JobStatus,
    pub start: Millis,
    pub end: Millis,
    pub pause: Option<Millis>,
    pub concurrency: i64,
    pub throttle: i64,
    pub timeout: i64,
    pub execution: Execution,
    pub submit: Millis,
    /// Submitted: before, the server has no such job (ops are refused, the
    /// trigger does not see it).
    pub submitted: bool,
    pub next_materialization: Option<Millis>,
    pub last_action_number: usize,
    pub done: bool,
    modified: Millis,
    pub actions: Vec<SimAction<'a>>,
    pub counts: Counts,
    /// READY actions by (nominal, index).
    ready: BTreeSet<(Millis, usize)>,
    /// READY actions by (when they became READY, index), for the
    /// RecoveryService.
    ready_since: BTreeSet<(Millis, usize)>,
    /// WAITING actions whose check chain was dropped.
    lost: BTreeSet<usize>,
    /// STS has something to look at.
    dirty: bool,
    /// A cron schedule's nominal times, listed as far as asked.
    cron_times: std::cell::RefCell<Vec<Millis>>,
    pub ops: Vec<OpRecord>,
    scripts: Vec<(ActionRef, Option<WorkflowEnd>, Option<Millis>)>,
    /// Why the simulation stopped materializing this job, when it did.
    pub failure: Option<String>,
    workflows: &'a dyn SubWorkflows,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Service {
    Materialize,
    Status,
    Pause,
    Recovery,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Event {
    Submit(usize),
    Tick(Service, u32),
    Materialize(usize),
    /// (job, action index, the action's serial, the chain's generation)
    InputCheck(usize, usize, u32, u32),
    ReadyCheck(usize),
    /// (job, action index, the action's serial, the workflow's generation)
    WorkflowEnd(usize, usize, u32, u32),
    Op(usize),
    OutageStart(usize),
    OutageEnd(usize),
}

impl Event {
    /// Lost when the server goes down: commands in its memory queue.
    fn is_command(&self) -> bool {
        matches!(
            self,
            Event::Materialize(_) | Event::InputCheck(..) | Event::ReadyCheck(_) | Event::Tick(..)
        )
    }
}

struct ServiceClock {
    interval: Millis,
    /// Grid origin: the server's (re)start plus the first delay.
    origin: Millis,
    /// The tick queued, and its generation.
    queued: Option<Millis>,
    generation: u32,
}

impl ServiceClock {
    /// The first grid time at or after `t`.
    fn grid_at_or_after(&self, t: Millis) -> Millis {
        if t <= self.origin {
            return self.origin;
        }
        let k = (t - self.origin + self.interval - 1) / self.interval;
        self.origin + k * self.interval
    }
}

/// The simulated server and its jobs.
pub struct Engine<'a> {
    pub settings: Settings,
    pub now: Millis,
    pub until: Millis,
    seq: u64,
    queue: BinaryHeap<Reverse<(Millis, u64, Event)>>,
    pub jobs: Vec<SimJob<'a>>,
    pub data: DataStore,
    pub outages: Vec<(Millis, Millis)>,
    down: bool,
    /// The services' clocks, in [`Service`]'s order.
    services: [ServiceClock; 4],
    pub log: Vec<Change>,
    ops: Vec<Op>,
    workflows: WorkflowScript,
    outputs: bool,
    /// URI → actions whose checks were skipped past now waiting for it.
    watchers: rustc_hash::FxHashMap<String, Vec<(usize, usize, u32)>>,
    pub created: usize,
    /// What workflows run from local applications meet.
    pub script: Script,
    /// The next workflow job's id sequence number.
    next_workflow_id: u64,
}

/// A job to simulate: its id, its submitted definition, when it is submitted.
pub struct JobInput<'a> {
    pub id: String,
    pub job: &'a Job<'a>,
    pub submit: DateTime<Utc>,
    /// Where its actions' workflow applications are read, when they are local.
    pub workflows: &'a dyn SubWorkflows,
}

fn problem(span: Span, message: impl Into<String>) -> Diagnostic {
    Diagnostic::error(SIMULATE_SCENARIO, span, message)
}

/// Jobs by index. Job indexes are positions in `jobs`, made in
/// [`Engine::new`]: the list never changes length after.
#[allow(
    clippy::indexing_slicing,
    reason = "job indexes are positions in `self.jobs`, made in `new`; it never shrinks"
)]
impl<'a> Engine<'a> {
    fn job(&self, j: usize) -> &SimJob<'a> {
        &self.jobs[j]
    }

    fn job_mut(&mut self, j: usize) -> &mut SimJob<'a> {
        &mut self.jobs[j]
    }
}

impl<'a> Engine<'a> {
    fn action(&self, j: usize, a: usize) -> &SimAction<'a> {
        self.job(j).action(a)
    }

    fn action_mut(&mut self, j: usize, a: usize) -> &mut SimAction<'a> {
        self.job_mut(j).action_mut(a)
    }

    /// The server at the scenario's start, its jobs queued for submission and
    /// its data scripted; or the scenario's problems with its jobs.
    pub fn new(
        scenario: &Scenario,
        inputs: Vec<JobInput<'a>>,
    ) -> Result<Engine<'a>, Vec<Diagnostic>> {
        let settings = scenario.settings.clone();
        let start = millis(scenario.start);
        let mut problems = Vec::new();
        let mut jobs: Vec<SimJob<'a>> = inputs
            .into_iter()
            .map(|input| SimJob::new(input, &settings))
            .collect();
        let find = |jobs: &[SimJob], id: &str| jobs.iter().position(|j| j.id == id);
        for w in &scenario.workflow {
            match find(&jobs, &w.job).and_then(|j| jobs.get_mut(j)) {
                Some(job) => job.scripts.push((w.action.clone(), w.status, w.duration)),
                None => problems.push(problem(
                    w.job_span,
                    format!("no job `{}` in this scenario", w.job),
                )),
            }
        }
        for node in &scenario.script.nodes {
            if let Some(job) = &node.job
                && find(&jobs, job).is_none()
            {
                problems.push(problem(
                    node.span,
                    format!("this [[node]] names no job of this scenario: `{job}`"),
                ));
            }
        }
        for op in &scenario.ops {
            if find(&jobs, &op.job).is_none() {
                problems.push(problem(
                    op.job_span,
                    format!("no job `{}` in this scenario", op.job),
                ));
            }
        }
        // More actions than coordc holds are refused before the simulation
        // starts (for a cron schedule, when the run reaches them).
        let until = millis(scenario.until);
        let mut total = 0usize;
        for job in &jobs {
            total = total.saturating_add(job.actions_before(job.end.min(until)));
        }
        if total > MAX_ACTIONS {
            problems.push(problem(
                scenario.until_span,
                format!(
                    "the jobs would create more than {MAX_ACTIONS} actions before `until`: simulate a shorter window"
                ),
            ));
        }
        let mut data = DataStore::default();
        // Ranges first: a `uri` entry overrides them.
        let mut listed = 0usize;
        for entry in &scenario.data {
            if let DataEntry::Range {
                job,
                dataset,
                span,
                from,
                to,
                delay,
                missing,
            } = entry
            {
                let Some(sim_job) = find(&jobs, job).and_then(|j| jobs.get(j)) else {
                    problems.push(problem(*span, format!("no job `{job}` in this scenario")));
                    continue;
                };
                match sim_job.dataset_instances(dataset, *from, *to) {
                    Ok(instances) => {
                        listed += instances.len();
                        if listed > MAX_INSTANCES {
                            problems.push(problem(
                                *span,
                                format!("the [[data]] ranges list more than {MAX_INSTANCES} instances: simulate a shorter window"),
                            ));
                            break;
                        }
                        for (t, uri) in instances {
                            if missing.contains(&t) {
                                data.unset(&uri);
                            } else {
                                data.set(&uri, millis(t) + delay);
                            }
                        }
                    }
                    Err(message) => problems.push(problem(*span, message)),
                }
            }
        }
        for entry in &scenario.data {
            if let DataEntry::Uri { uri, at } = entry {
                data.set(uri, millis(*at));
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        let clock = |interval| ServiceClock {
            interval,
            origin: start + SERVICE_DELAY,
            queued: None,
            generation: 0,
        };
        let mut engine = Engine {
            services: [
                clock(settings.scheduling),
                clock(settings.status_interval),
                clock(settings.pause_interval),
                clock(settings.recovery_interval),
            ],
            settings,
            now: start,
            until: millis(scenario.until),
            seq: 0,
            queue: BinaryHeap::new(),
            jobs,
            data,
            outages: scenario
                .outages
                .iter()
                .map(|(f, t)| (millis(*f), millis(*t)))
                .collect(),
            down: false,
            log: Vec::new(),
            ops: scenario.ops.clone(),
            workflows: scenario.workflows,
            outputs: scenario.outputs,
            watchers: Default::default(),
            created: 0,
            script: scenario.script.clone(),
            next_workflow_id: 0,
        };
        let submits: Vec<Millis> = engine.jobs.iter().map(|job| job.submit).collect();
        for (j, at) in submits.into_iter().enumerate() {
            engine.push(at, Event::Submit(j));
        }
        for (i, op) in scenario.ops.iter().enumerate() {
            engine.push(millis(op.at), Event::Op(i));
        }
        for (i, (from, to)) in engine.outages.clone().into_iter().enumerate() {
            engine.push(from, Event::OutageStart(i));
            engine.push(to, Event::OutageEnd(i));
        }
        Ok(engine)
    }

    /// `service`'s clock.
    fn clock(&mut self, service: Service) -> &mut ServiceClock {
        let [materialize, status, pause, recovery] = &mut self.services;
        match service {
            Service::Materialize => materialize,
            Service::Status => status,
            Service::Pause => pause,
            Service::Recovery => recovery,
        }
    }

    fn push(&mut self, at: Millis, event: Event) {
        self.seq += 1;
        self.queue.push(Reverse((at, self.seq, event)));
    }

    /// Runs every event due before `until` (or at or before `at`, when
    /// given: the state as of that time).
    pub fn run(&mut self, at: Option<Millis>) -> Result<(), Diagnostic> {
        while let Some(Reverse((t, _, event))) = self.queue.peek().copied() {
            let past = match at {
                Some(at) => t > at,
                None => t >= self.until,
            };
            if past {
                break;
            }
            self.queue.pop();
            self.now = t;
            if self.down && event.is_command() {
                continue;
            }
            self.handle(event);
            if self.created > MAX_ACTIONS {
                return Err(Diagnostic::error(
                    SIMULATE_SCENARIO,
                    Span::EMPTY,
                    format!(
                        "the simulation created more than {MAX_ACTIONS} actions by {}: simulate a shorter window (until)",
                        format_utc(datetime(t))
                    ),
                ));
            }
        }
        if let Some(at) = at {
            self.now = at;
        } else {
            self.now = self.until;
        }
        Ok(())
    }

    fn handle(&mut self, event: Event) {
        match event {
            Event::Submit(j) => self.submit(j),
            Event::Tick(service, generation) => {
                let clock = self.clock(service);
                if clock.generation != generation {
                    return;
                }
                clock.queued = None;
                match service {
                    Service::Materialize => self.materialization_trigger(),
                    Service::Status => self.status_transit(),
                    Service::Pause => self.pause_transit(),
                    Service::Recovery => self.recovery(),
                }
            }
            Event::Materialize(j) => self.materialize(j),
            Event::InputCheck(j, a, serial, generation) => {
                if self
                    .job(j)
                    .actions
                    .get(a)
                    .is_some_and(|x| x.serial == serial && x.chain.generation == generation)
                {
                    self.input_check(j, a);
                }
            }
            Event::ReadyCheck(j) => self.ready_check(j),
            Event::WorkflowEnd(j, a, serial, generation) => {
                if self
                    .job(j)
                    .actions
                    .get(a)
                    .is_some_and(|x| x.serial == serial)
                {
                    self.workflow_end(j, a, generation);
                }
            }
            Event::Op(i) => self.op(i),
            Event::OutageStart(_) => self.outage_start(),
            Event::OutageEnd(_) => self.outage_end(),
        }
    }

    // -----------------------------------------------------------------------
    // Services.

    /// Queues `service`'s tick at its first grid time at or after `earliest`
    /// (and after now), unless one is queued by then.
    fn wake(&mut self, service: Service, earliest: Millis) {
        if self.down {
            return;
        }
        let now = self.now;
        let clock = self.clock(service);
        let mut at = clock.grid_at_or_after(earliest.max(now));
        if at <= now && earliest <= now {
            // A tick at this very instant ran (or would run) before: the next.
            at = clock.grid_at_or_after(now + 1);
        }
        if clock.queued.is_some_and(|q| q <= at) {
            return;
        }
        clock.generation += 1;
        clock.queued = Some(at);
        let generation = clock.generation;
        self.push(at, Event::Tick(service, generation));
    }

    /// The trigger (CoordMaterializeTriggerService.java:150-239): jobs due a materialization, oldest first,
    /// `system.limit` of them, each a CMT.
    fn materialization_trigger(&mut self) {
        let now = self.now;
        let lookup = self.settings.lookup;
        let mut due: Vec<usize> = (0..self.jobs.len())
            .filter(|&j| self.job(j).selectable(now, lookup))
            .collect();
        due.sort_by_key(|&j| (self.job(j).modified, j));
        due.truncate(self.settings.system_limit);
        for j in due {
            self.job_mut(j).modified = now;
            self.push(now, Event::Materialize(j));
        }
        self.wake_materialization();
    }

    /// The next trigger tick that can select a job: the earliest time a job
    /// is in its look-ahead, for jobs the throttle lets through.
    fn wake_materialization(&mut self) {
        let lookup = self.settings.lookup;
        let earliest = self
            .jobs
            .iter()
            .filter_map(|job| job.selectable_from(lookup))
            .min();
        if let Some(t) = earliest {
            self.wake(Service::Materialize, t);
        }
    }

    fn status_transit(&mut self) {
        let states_without_error = self.settings.states_without_error;
        for j in 0..self.jobs.len() {
            if !std::mem::take(&mut self.job_mut(j).dirty) {
                continue;
            }
            let job = self.job(j);
            if let Some(status) = transit(job.status, job.done, &job.counts, states_without_error) {
                self.set_job_status(j, status, Why::StatusTransit);
            }
        }
    }

    /// PauseTransitService (PTS:163-207): pause times reached, or moved.
    fn pause_transit(&mut self) {
        let now = self.now;
        for j in 0..self.jobs.len() {
            let job = self.job(j);
            let reached = job.pause.is_some_and(|p| p <= now);
            let to = match (job.status, reached) {
                (JobStatus::Running, true) => Some(JobStatus::Paused),
                (JobStatus::RunningWithError, true) => Some(JobStatus::PausedWithError),
                (JobStatus::Prep, true) => Some(JobStatus::PrepPaused),
                (JobStatus::Paused, false) => Some(JobStatus::Running),
                (JobStatus::PausedWithError, false) => Some(JobStatus::RunningWithError),
                (JobStatus::PrepPaused, false) => Some(JobStatus::Prep),
                _ => None,
            };
            if let Some(to) = to {
                let why = if reached {
                    Why::PauseReached(job.pause.unwrap_or(now))
                } else {
                    Why::Unpaused
                };
                self.set_job_status(j, to, why);
            }
        }
        self.wake_pause();
    }

    fn wake_pause(&mut self) {
        let earliest = self
            .jobs
            .iter()
            .filter_map(|job| match (job.status, job.pause) {
                (JobStatus::Running | JobStatus::RunningWithError | JobStatus::Prep, Some(p)) => {
                    Some(p)
                }
                (JobStatus::Paused | JobStatus::PausedWithError | JobStatus::PrepPaused, p)
                    if p.is_none_or(|p| p > self.now) =>
                {
                    Some(self.now)
                }
                _ => None,
            })
            .min();
        if let Some(t) = earliest {
            self.wake(Service::Pause, t);
        }
    }

    /// RecoveryService (RecoveryService.java:267-365): WAITING actions whose checks were lost
    /// get a check, jobs with READY actions left alone a ready-check.
    fn recovery(&mut self) {
        let now = self.now;
        let older = self.settings.recovery_older_than;
        for j in 0..self.jobs.len() {
            if !matches!(
                self.job(j).status,
                JobStatus::Running | JobStatus::RunningWithError
            ) {
                continue;
            }
            let lost: Vec<usize> = self
                .job(j)
                .lost
                .iter()
                .copied()
                .filter(|&a| {
                    let action = self.action(j, a);
                    action.chain.last <= now - older && action.nominal <= now
                })
                .collect();
            for a in lost {
                self.job_mut(j).lost.remove(&a);
                self.queue_check(j, a, now);
            }
            if self
                .job(j)
                .ready_since
                .first()
                .is_some_and(|&(since, _)| since <= now - older)
            {
                self.push(now, Event::ReadyCheck(j));
            }
        }
        self.wake_recovery();
    }

    fn wake_recovery(&mut self) {
        let older = self.settings.recovery_older_than;
        let earliest = self
            .jobs
            .iter()
            .filter(|job| matches!(job.status, JobStatus::Running | JobStatus::RunningWithError))
            .flat_map(|job| {
                let lost = job.lost.iter().map(|&a| {
                    let action = job.action(a);
                    (action.chain.last + older).max(action.nominal)
                });
                let ready = job.ready_since.first().map(|&(since, _)| since + older);
                lost.chain(ready)
            })
            .min();
        if let Some(t) = earliest {
            self.wake(Service::Recovery, t);
        }
    }

    // -----------------------------------------------------------------------
    // Status changes: every one goes through these.

    fn set_job_status(&mut self, j: usize, to: JobStatus, why: Why) {
        let job = self.job_mut(j);
        if job.status == to {
            return;
        }
        let from = job.status;
        job.status = to;
        self.log.push(Change {
            at: self.now,
            job: j,
            action: None,
            from: Some(Status::Job(from)),
            to: Status::Job(to),
            why,
        });
        // What the new status lets the services do.
        self.wake_materialization();
        self.wake_pause();
        self.wake_recovery();
    }

    fn set_action_status(&mut self, j: usize, a: usize, to: ActionStatus, why: Why) {
        let now = self.now;
        let job = self.job_mut(j);
        let action = job.action(a);
        let (from, nominal, since) = (action.status, action.nominal, action.since);
        assert!(
            action_transition_allowed(Some(from), to),
            "the engine made a transition Oozie does not: {} -> {}",
            from.name(),
            to.name()
        );
        job.counts.remove(from);
        job.counts.add(to);
        if from == ActionStatus::Ready {
            job.ready.remove(&(nominal, a));
            job.ready_since.remove(&(since, a));
        }
        if to == ActionStatus::Ready {
            job.ready.insert((nominal, a));
            job.ready_since.insert((now, a));
        }
        if from == ActionStatus::Waiting {
            job.lost.remove(&a);
        }
        job.dirty = true;
        let action = job.action_mut(a);
        if from == ActionStatus::Waiting {
            action.chain.next = None;
            action.chain.generation += 1;
        }
        action.status = to;
        action.since = now;
        action.modified = now;
        self.log.push(Change {
            at: now,
            job: j,
            action: Some(a),
            from: Some(Status::Action(from)),
            to: Status::Action(to),
            why,
        });
        self.wake(Service::Status, now);
        if from == ActionStatus::Waiting {
            // The throttle may let the trigger through again.
            self.wake_materialization();
        }
        if to == ActionStatus::Ready {
            self.wake_recovery();
        }
    }

    // -----------------------------------------------------------------------
    // Submission and materialization.

    fn submit(&mut self, j: usize) {
        self.log.push(Change {
            at: self.now,
            job: j,
            action: None,
            from: None,
            to: Status::Job(JobStatus::Prep),
            why: Why::Submitted,
        });
        self.job_mut(j).modified = self.now;
        self.job_mut(j).submitted = true;
        self.push(self.now + COMMAND_DELAY, Event::Materialize(j));
        self.wake_materialization();
        self.wake_pause();
    }

    /// CoordMaterializeTransitionXCommand (CoordMaterializeTransitionXCommand.java:231-638).
    fn materialize(&mut self, j: usize) {
        let now = self.now;
        let lookup = self.settings.lookup;
        let job = self.job(j);
        if !job.status.materializes() || job.done {
            return;
        }
        let start_matd = match job.next_materialization {
            Some(next) => {
                if next >= job.end || next > now + lookup {
                    return;
                }
                next
            }
            None => {
                if job.start > now + lookup {
                    return;
                }
                job.start
            }
        };
        if job.pause.is_some_and(|p| start_matd >= p) {
            return;
        }
        let window_end = start_matd + self.settings.window;
        // The catch-up rules (CoordMaterializeTransitionXCommand.java:258-309); `now` is just after `t`.
        let (end_matd, catch_up) = if window_end > now {
            (window_end, false)
        } else {
            let end = match (job.execution, job.job.schedule()) {
                (Execution::LastOnly | Execution::None, _) => now + 1,
                (_, Schedule::Cron(_)) => job.end,
                (_, Schedule::Every(f)) => {
                    let unit = f.unit.calendar_unit();
                    let mut previous = start_matd;
                    let mut chosen = None;
                    let mut last = None;
                    for i in 1..=job.throttle {
                        let Some(instance) =
                            add(&job.job.zone, datetime(start_matd), unit, i * f.count).map(millis)
                        else {
                            break;
                        };
                        last = Some(instance);
                        if instance > now {
                            chosen = Some(previous.max(window_end));
                            break;
                        }
                        previous = instance;
                    }
                    chosen.or(last).unwrap_or(window_end)
                }
            };
            (end, true)
        };
        let end_matd = end_matd.min(job.end);
        let last_only = matches!(job.execution, Execution::LastOnly | Execution::None);
        // LAST_ONLY/NONE take a batch, not the throttle, once the window
        // (capped at the job's end) is behind now (CoordMaterializeTransitionXCommand.java:460-472).
        let mut budget = if last_only && (catch_up || end_matd <= now) {
            self.settings.action_batch.unwrap_or(usize::MAX)
        } else {
            (job.throttle - job.counts.get(ActionStatus::Waiting) as i64).max(0) as usize
        };
        let mut number = job.last_action_number;
        let mut created = Vec::new();
        let next = loop {
            let Some(nominal) = self.job(j).nominal(number + 1) else {
                break None;
            };
            let job = self.job(j);
            if nominal >= end_matd || job.pause.is_some_and(|p| nominal >= p) || budget == 0 {
                break Some(nominal);
            }
            budget -= 1;
            match job.job.resolve_action(number + 1, datetime(nominal)) {
                Ok(action) => created.push(action),
                Err(d) => {
                    // The whole batch is discarded and the job FAILED (CoordMaterializeTransitionXCommand.java:376-404).
                    let message = d.message.clone();
                    self.job_mut(j).failure = Some(message.clone());
                    self.set_job_status(j, JobStatus::Failed, Why::MaterializationFailed(message));
                    return;
                }
            }
            number += 1;
        };
        let first = self.job(j).last_action_number;
        for action in created {
            self.create_action(j, action);
        }
        let job = self.job_mut(j);
        job.last_action_number = number;
        let next = next.unwrap_or(job.end);
        job.next_materialization = Some(next);
        job.done = job.end <= next;
        job.dirty = true;
        if job.status == JobStatus::Prep {
            self.set_job_status(j, JobStatus::Running, Why::FirstMaterialization);
        }
        // Each new action's first check, at its nominal time at the earliest
        // (CoordMaterializeTransitionXCommand.java:165-195): catch-up ones now, in number order.
        for a in first..number {
            let nominal = self.action(j, a).nominal;
            self.queue_check(j, a, nominal.max(now));
        }
        self.wake(Service::Status, now);
        self.wake_materialization();
    }

    fn create_action(&mut self, j: usize, action: Action<'a>) {
        let now = self.now;
        let serial = self.created as u32;
        let job = self.job_mut(j);
        let mut missing = Vec::new();
        let mut inputs = Vec::with_capacity(action.inputs.len());
        let mut logic_deps = Vec::new();
        for (d, event) in action.inputs.iter().enumerate() {
            // (One flag per data-in; Oozie's default if the lists differ.)
            let flag = job.done_flags.get(d).map_or("_SUCCESS", String::as_str);
            let deps: Vec<Dep> = event
                .uris
                .iter()
                .map(|uri| Dep {
                    uri: uri.clone(),
                    path: dependency_path(uri, flag),
                })
                .collect();
            if action.input_logic.is_some() {
                logic_deps.push(deps);
            } else {
                missing.extend(deps);
            }
            let unresolved = event
                .unresolved
                .iter()
                .filter_map(|u| Unresolved::parse(u))
                .collect();
            inputs.push((event.name, event.uris.clone(), unresolved));
        }
        let number = action.number;
        let nominal = millis(action.nominal);
        let a = job.actions.len();
        let local_workflow = job.workflows.load(&action.app_path, None).map(|app| {
            Box::new(app.map(|app| {
                (
                    app,
                    action.app_path.to_string(),
                    action
                        .configuration
                        .iter()
                        .map(|(k, v)| (k.to_string(), v.to_string()))
                        .collect(),
                )
            }))
        });
        job.actions.push(SimAction {
            serial,
            number,
            nominal,
            created: now,
            status: ActionStatus::Waiting,
            since: now,
            timeout: job.timeout,
            inputs,
            missing,
            logic_available: logic_deps.iter().map(|d| vec![false; d.len()]).collect(),
            logic_deps,
            chosen: None,
            outputs: action.outputs.iter().flat_map(|e| e.uris.clone()).collect(),
            logic: action.input_logic,
            workflow: None,
            local_workflow,
            chain: Chain {
                next: None,
                last: now,
                first_gap: 0,
                period: 0,
                generation: 0,
            },
            modified: now,
        });
        job.counts.add(ActionStatus::Waiting);
        job.dirty = true;
        self.created += 1;
        self.log.push(Change {
            at: now,
            job: j,
            action: Some(a),
            from: None,
            to: Status::Action(ActionStatus::Waiting),
            why: Why::Materialized,
        });
    }

    // -----------------------------------------------------------------------
    // Input checks (CAIC).

    /// Starts a check chain: one check at `at`.
    fn queue_check(&mut self, j: usize, a: usize, at: Millis) {
        let period = self.settings.check_interval;
        let action = self.action_mut(j, a);
        action.chain.generation += 1;
        action.chain.next = Some(at);
        action.chain.first_gap = at - action.chain.last;
        action.chain.period = period;
        let event = Event::InputCheck(j, a, action.serial, action.chain.generation);
        self.push(at, event);
    }

    /// Moves a skipped-ahead chain back to its first check time at or after
    /// now: what could change may have changed.
    fn wake_chain(&mut self, j: usize, a: usize) {
        let now = self.now;
        let action = self.action_mut(j, a);
        let Some(next) = action.chain.next else {
            return;
        };
        let first = action.chain.last + action.chain.first_gap;
        let at = if first >= now {
            first
        } else {
            let period = action.chain.period;
            first + (now - first + period - 1) / period * period
        };
        if at >= next {
            return;
        }
        // The skipped checks happened.
        if at > first {
            let period = action.chain.period;
            let skipped = (at - first) / period;
            action.chain.last = first + (skipped - 1) * period;
            action.chain.first_gap = period;
        }
        action.chain.generation += 1;
        action.chain.next = Some(at);
        let generation = action.chain.generation;
        self.push(
            at,
            Event::InputCheck(j, a, self.action(j, a).serial, generation),
        );
    }

    fn wake_job_chains(&mut self, j: usize) {
        for a in 0..self.job(j).actions.len() {
            if self.action(j, a).status == ActionStatus::Waiting {
                self.wake_chain(j, a);
            }
        }
    }

    fn input_check(&mut self, j: usize, a: usize) {
        let now = self.now;
        let settings = self.settings.clone();
        let job = self.job(j);
        let action = job.action(a);
        if action.status != ActionStatus::Waiting {
            return;
        }
        if !job.status.checks_inputs() {
            // Dropped: only the RecoveryService revives the chain (CoordActionInputCheckXCommand.java:519-539).
            let job = self.job_mut(j);
            job.action_mut(a).chain.next = None;
            job.lost.insert(a);
            self.wake_recovery();
            return;
        }
        let (nominal, created) = (action.nominal, action.created);
        if now < nominal {
            // CoordActionInputCheckXCommand.java:98-109: never before the nominal time.
            self.action_mut(j, a).chain.last = now;
            self.queue_check(j, a, nominal);
            return;
        }
        if let Some(why) = self.skip_rule(j, a) {
            self.set_action_status(j, a, ActionStatus::Skipped, why);
            return;
        }
        let base = nominal.max(created);
        let waited = (now - base) / MINUTE;
        let (ready, changed) = self.check_inputs(j, a, waited);
        let job = self.job_mut(j);
        let action = job.action_mut(a);
        action.modified = now;
        if let Some(why) = ready {
            self.set_action_status(j, a, ActionStatus::Ready, why);
            // Synchronously (CoordActionInputCheckXCommand.java:443-461).
            self.ready_check(j);
            return;
        }
        if action.timeout >= 0 && waited > action.timeout {
            let why = Why::TimedOut {
                waited,
                timeout: action.timeout,
                base,
            };
            self.set_action_status(j, a, ActionStatus::Timedout, why);
            return;
        }
        // Re-queued (CoordActionInputCheckXCommand.java:196-205, 310-313): the interval, plus the
        // additional delay when nothing changed.
        let gap = settings.check_interval
            + if changed {
                0
            } else {
                settings.check_additional_delay
            };
        let period = settings.check_interval + settings.check_additional_delay;
        let change_at = self.next_change(j, a, base);
        let until = self.until;
        let action = self.action_mut(j, a);
        action.chain.last = now;
        action.chain.first_gap = gap;
        action.chain.period = period;
        let first = now + gap;
        let at = match change_at {
            Some(t) if t > first => first + (t - first + period - 1) / period * period,
            None => {
                // Nothing scripted can change it: wait for data a workflow
                // writes, or the end of the simulation.
                let horizon = until.max(first);
                first + (horizon - first + period - 1) / period * period
            }
            _ => first,
        };
        action.chain.generation += 1;
        action.chain.next = Some(at);
        let serial = action.serial;
        let event = Event::InputCheck(j, a, serial, action.chain.generation);
        let watched = action
            .missing
            .first()
            .filter(|_| at > first)
            .map(|dep| dep.uri.clone());
        if let Some(uri) = watched {
            self.watchers.entry(uri).or_default().push((j, a, serial));
        }
        self.push(at, event);
    }

    /// The earliest time a check of this action can decide otherwise than
    /// the last one: `Some(now + 1)` when it cannot be known.
    fn next_change(&self, j: usize, a: usize, base: Millis) -> Option<Millis> {
        let now = self.now;
        let job = self.job(j);
        let action = job.action(a);
        let soon = Some(now + 1);
        if action.logic.is_some() || (action.missing.is_empty() && !action.inputs.is_empty()) {
            // Input logic, or latest/future waiting for any instance.
            return soon;
        }
        let arrival = action
            .missing
            .first()
            .and_then(|dep| self.data.arrival(&dep.uri));
        let timeout = (action.timeout >= 0).then(|| base + (action.timeout + 1) * MINUTE);
        let skip = match job.execution {
            Execution::LastOnly => job.next_nominal(action.number),
            Execution::None => Some(action.nominal + self.settings.none_tolerance * MINUTE),
            _ => None,
        };
        [arrival, timeout, skip].into_iter().flatten().min()
    }

    /// The LAST_ONLY/NONE rule (CoordActionInputCheckXCommand.java:116-152, CoordActionReadyXCommand.java:117-165).
    fn skip_rule(&mut self, j: usize, a: usize) -> Option<Why> {
        let now = self.now;
        let job = self.job_mut(j);
        let (number, nominal) = (job.action(a).number, job.action(a).nominal);
        match job.execution {
            Execution::LastOnly => {
                let next = job.next_nominal(number)?;
                (next <= now).then_some(Why::SkippedLastOnly { next })
            }
            Execution::None => {
                let tolerance = self.settings.none_tolerance;
                (nominal + tolerance * MINUTE <= now)
                    .then_some(Why::SkippedNone { nominal, tolerance })
            }
            _ => None,
        }
    }

    /// The pull check (CoordOldInputDependency.java:193-231, CoordActionInputCheckXCommand.java:184-195): `Some(why)` when ready;
    /// and whether the missing list changed.
    fn check_inputs(&mut self, j: usize, a: usize, waited: i64) -> (Option<Why>, bool) {
        let now = self.now;
        let use_current_time = self.settings.latest_use_current_time;
        let data = &self.data;
        // (Borrowed beside `self.data`: `job_mut` would borrow all of `self`.)
        let Some(job) = self.jobs.get_mut(j) else {
            return (None, false);
        };
        let sim_job: &Job = job.job;
        let app = sim_job.app();
        let action = job.action_mut(a);
        if let Some(logic) = &action.logic {
            let mut state = LogicInputs {
                names: action.inputs.iter().map(|(n, _, _)| *n).collect(),
                available: std::mem::take(&mut action.logic_available),
            };
            let before: usize = state.available.iter().flatten().filter(|b| **b).count();
            let deps = &action.logic_deps;
            let dep = |d: usize, i: usize| deps.get(d)?.get(i);
            let outcome = evaluate(
                logic,
                &mut state,
                &mut |d, i| dep(d, i).is_some_and(|dep| data.exists(&dep.uri, now)),
                waited,
            );
            let after: usize = state.available.iter().flatten().filter(|b| **b).count();
            action.logic_available = state.available;
            action.missing = deps
                .iter()
                .zip(&action.logic_available)
                .flat_map(|(list, available)| list.iter().zip(available))
                .filter(|(_, available)| !**available)
                .map(|(dep, _)| dep.clone())
                .collect();
            return match outcome {
                Outcome::True(chosen) => {
                    let mut by_data_in = vec![Vec::new(); deps.len()];
                    for &(d, i) in &chosen {
                        if let (Some(uris), Some(dep)) = (by_data_in.get_mut(d), dep(d, i)) {
                            uris.push(dep.uri.clone());
                        }
                    }
                    action.chosen = Some(by_data_in);
                    (Some(Why::InputLogic(chosen.len())), after != before)
                }
                _ => (None, after != before),
            };
        }
        let before = action.missing.len();
        let found = action
            .missing
            .iter()
            .take_while(|dep| data.exists(&dep.uri, now))
            .count();
        action.missing.drain(..found);
        let changed = found > 0;
        if !action.missing.is_empty() {
            return (None, changed);
        }
        // latest/future: all must resolve in the same check (CoordOldInputDependency.java:272-329).
        let reference = if use_current_time {
            now
        } else {
            action.created
        };
        let mut resolved = Vec::new();
        // (A data-in per input of the application, in its order.)
        for (d, ((_, _, unresolved), input)) in action.inputs.iter().zip(&app.inputs).enumerate() {
            let dataset = input.dataset.name.as_str();
            for call in unresolved {
                match resolve(
                    sim_job,
                    dataset,
                    *call,
                    reference,
                    action.nominal,
                    data,
                    now,
                ) {
                    Some(uris) => resolved.push((d, uris)),
                    None => return (None, changed),
                }
            }
        }
        let mut total = 0;
        for (d, uris) in resolved {
            let Some(entry) = action.inputs.get_mut(d) else {
                continue;
            };
            entry.2.clear();
            // Prepended to the data-in's URIs (CoordOldInputDependency.java:314-322).
            let mut all = uris;
            all.append(&mut entry.1);
            entry.1 = all;
        }
        for (_, uris, _) in &action.inputs {
            total += uris.len();
        }
        let why = if action.inputs.is_empty() || total == 0 && before == 0 {
            Why::NoInputs
        } else {
            Why::InputsPresent(total)
        };
        (Some(why), changed)
    }

    // -----------------------------------------------------------------------
    // Ready-check (CARX) and workflows.

    fn ready_check(&mut self, j: usize) {
        let now = self.now;
        if !self.job(j).status.starts_actions() {
            return;
        }
        let job = self.job(j);
        let execution = job.execution;
        if matches!(execution, Execution::LastOnly | Execution::None) {
            // Every READY action is tested, newest first (CoordActionReadyXCommand.java:117-165).
            let order: Vec<usize> = job.ready.iter().rev().map(|&(_, a)| a).collect();
            for a in order {
                if let Some(why) = self.skip_rule(j, a) {
                    self.set_action_status(j, a, ActionStatus::Skipped, why);
                }
            }
        }
        let job = self.job(j);
        let running =
            job.counts.get(ActionStatus::Running) + job.counts.get(ActionStatus::Submitted);
        let slots = if job.concurrency < 0 {
            usize::MAX
        } else {
            (job.concurrency as usize).saturating_sub(running)
        };
        // The first `slots` READY actions: oldest first for FIFO, newest
        // first otherwise (CAB:141-147).
        let order: Vec<usize> = if execution == Execution::Fifo {
            job.ready.iter().take(slots).map(|&(_, a)| a).collect()
        } else {
            job.ready
                .iter()
                .rev()
                .take(slots)
                .map(|&(_, a)| a)
                .collect()
        };
        let concurrency = job.concurrency;
        for (k, a) in order.into_iter().take(slots).enumerate() {
            self.set_action_status(
                j,
                a,
                ActionStatus::Submitted,
                Why::Started {
                    running: running + k,
                    concurrency,
                },
            );
            let (script, outcome) = self.workflow_for(j, a);
            let generation = self
                .action(j, a)
                .workflow
                .as_ref()
                .map_or(0, |w| w.generation + 1);
            let (run, refused) = match outcome {
                LocalOutcome::Scripted => (None, None),
                LocalOutcome::Ran(run) => (Some(run), None),
                LocalOutcome::Refused(why) => (None, Some(why)),
            };
            let due = now.saturating_add(script.duration);
            self.action_mut(j, a).workflow = Some(Workflow {
                started: now,
                ended: None,
                status: None,
                run,
                refused,
                script,
                due: Some(due),
                remaining: script.duration,
                generation,
            });
            self.set_action_status(j, a, ActionStatus::Running, Why::WorkflowStarted);
            self.push(
                due,
                Event::WorkflowEnd(j, a, self.action(j, a).serial, generation),
            );
        }
    }

    /// What action `a`'s workflow does: a `[[workflow]]` entry's script;
    /// else, when its application is local, what running it says (with
    /// the action's resolved configuration, as CoordActionStartXCommand
    /// passes it); else the scenario's `[workflows]`.
    fn workflow_for(&mut self, j: usize, a: usize) -> (WorkflowScript, LocalOutcome) {
        let scripted = self.job(j).script_for(a, self.workflows);
        let (app, conf) = match self.local_job(j, a) {
            None => return (scripted, LocalOutcome::Scripted),
            Some(Ok(job)) => job,
            // A job that cannot be submitted: the action FAILED at once
            // (CoordActionStartXCommand fails it on the submission's error).
            Some(Err(why)) => {
                let failed = WorkflowScript {
                    status: WorkflowEnd::Failed,
                    duration: 0,
                };
                return (failed, LocalOutcome::Refused(why));
            }
        };
        let id_sequence = self.next_workflow_id;
        let Some(run) = self.run_local(&app, &conf, id_sequence, j, a, self.now) else {
            return (scripted, LocalOutcome::Scripted);
        };
        self.next_workflow_id += run.ids_used;
        let (status, end) = match run.status {
            RunStatus::Succeeded => (WorkflowEnd::Succeeded, run.ended),
            RunStatus::Killed => (WorkflowEnd::Killed, run.ended),
            RunStatus::Failed => (WorkflowEnd::Failed, run.ended),
            RunStatus::Suspended => (WorkflowEnd::Suspended, run.suspended_at),
            // Waiting on a suspended sub-workflow: it does not end.
            RunStatus::Running => (WorkflowEnd::Suspended, None),
        };
        let script = WorkflowScript {
            status,
            duration: end.map_or(NEVER, |e| (e - self.now).min(NEVER)),
        };
        let local = LocalRun {
            id_sequence,
            status: run.status,
        };
        (script, LocalOutcome::Ran(Box::new(local)))
    }

    /// Action `a`'s workflow job when its application is local (and no
    /// `[[workflow]]` scripts it): the application and the job's
    /// configuration, or why it cannot be submitted. (The same each time it
    /// is asked once the action has started: the report asks again.)
    fn local_job(&self, j: usize, a: usize) -> Option<Result<(Arc<SubWorkflow>, VarMap), String>> {
        let job = self.job(j);
        let action = job.action(a);
        let local = action
            .local_workflow
            .as_deref()
            .filter(|_| !job.overridden(a))?;
        let (app, app_path, configuration) = match local {
            Ok(local) => local,
            Err(message) => return Some(Err(message.clone())),
        };
        // A data-in with latest/future instances left `coord:dataIn` as the
        // call at materialization; Oozie evaluates it once they are resolved
        // (CoordActionInputCheckXCommand), as here.
        let pz = job.job.processing_zone();
        let configuration: Vec<(&str, Cow<str>)> = configuration
            .iter()
            .map(|(k, v)| {
                let value = if v.contains("${coord:") {
                    Cow::Owned(resolved_data_ins(v, action, pz))
                } else {
                    Cow::Borrowed(v.as_str())
                };
                (k.as_str(), value)
            })
            .collect();
        // The coordinator job's configuration under the action's
        // (CoordActionStartXCommand.mergeConfig, :109-162).
        let conf = job_conf(
            app,
            Some(job.job.vars()),
            configuration.iter().map(|(k, v)| (*k, v.as_ref())),
            app_path,
        );
        Some(conf.map(|conf| (Arc::clone(app), conf)))
    }

    /// Runs a local workflow application as action `a` of job `j` at `start`.
    fn run_local(
        &self,
        app: &SubWorkflow,
        conf: &VarMap,
        id_sequence: u64,
        j: usize,
        a: usize,
        start: Millis,
    ) -> Option<Run> {
        let graph = Graph::new(&app.workflow).ok()?;
        let job = self.job(j);
        Some(workflow_run(
            &graph,
            &RunInput {
                conf,
                start,
                script: &self.script,
                scope: Scope {
                    job: Some(&job.id),
                    action: Some(job.action(a).number),
                },
                sub_workflows: job.workflows,
                pz: job.job.processing_zone(),
                id_sequence,
            },
        ))
    }

    /// Action `a`'s workflow trace, made again as it ran.
    pub fn workflow_trace(&self, j: usize, a: usize) -> Option<Run> {
        let workflow = self.action(j, a).workflow.as_ref()?;
        let local = workflow.run.as_deref()?;
        let (app, conf) = self.local_job(j, a)?.ok()?;
        let run = self.run_local(&app, &conf, local.id_sequence, j, a, workflow.started)?;
        Some(run.as_of(self.now))
    }

    fn workflow_end(&mut self, j: usize, a: usize, generation: u32) {
        let now = self.now;
        let action = self.action(j, a);
        let Some(workflow) = &action.workflow else {
            return;
        };
        if workflow.generation != generation || workflow.due != Some(now) {
            return;
        }
        if self.down {
            // Noticed once the server is up again.
            let at = self.outage_end_after(now) + SERVICE_DELAY;
            if let Some(w) = &mut self.action_mut(j, a).workflow {
                w.due = Some(at);
            }
            self.push(
                at,
                Event::WorkflowEnd(j, a, self.action(j, a).serial, generation),
            );
            return;
        }
        if action.status != ActionStatus::Running {
            return;
        }
        let status = workflow.script.status;
        let why = match &workflow.refused {
            Some(message) => Why::WorkflowRefused(message.clone()),
            None => Why::WorkflowEnded,
        };
        if status == WorkflowEnd::Suspended {
            // CoordActionUpdateXCommand: the action follows its workflow
            // into SUSPENDED; it waits for a resume.
            if let Some(w) = &mut self.action_mut(j, a).workflow {
                w.status = Some(status);
                w.due = None;
                w.remaining = NEVER;
            }
            self.set_action_status(j, a, ActionStatus::Suspended, Why::WorkflowSuspended);
            return;
        }
        if let Some(w) = &mut self.action_mut(j, a).workflow {
            w.ended = Some(now);
            w.status = Some(status);
            w.due = None;
        }
        let to = match status {
            WorkflowEnd::Succeeded => ActionStatus::Succeeded,
            WorkflowEnd::Failed => ActionStatus::Failed,
            WorkflowEnd::Killed => ActionStatus::Killed,
            WorkflowEnd::Suspended => ActionStatus::Suspended,
        };
        self.set_action_status(j, a, to, why);
        if status == WorkflowEnd::Succeeded && self.outputs {
            let outputs = self.action(j, a).outputs.clone();
            for uri in outputs {
                if self.data.produce(&uri, now)
                    && let Some(watchers) = self.watchers.remove(&uri)
                {
                    for (wj, wa, serial) in watchers {
                        // (Unless -change deleted it.)
                        if self
                            .job(wj)
                            .actions
                            .get(wa)
                            .is_some_and(|x| x.serial == serial)
                        {
                            self.wake_chain(wj, wa);
                        }
                    }
                }
            }
        }
        // CoordActionUpdateXCommand.java:145-148.
        self.push(now, Event::ReadyCheck(j));
    }

    fn outage_end_after(&self, t: Millis) -> Millis {
        self.outages
            .iter()
            .find(|(f, e)| *f <= t && t < *e)
            .map_or(t, |(_, e)| *e)
    }

    // -----------------------------------------------------------------------
    // Outages.

    fn outage_start(&mut self) {
        self.down = true;
        // The command queue is in memory: lost.
        let kept: Vec<_> = std::mem::take(&mut self.queue)
            .into_iter()
            .filter(|Reverse((_, _, e))| !e.is_command())
            .collect();
        self.queue = kept.into_iter().collect();
        for clock in &mut self.services {
            clock.queued = None;
            clock.generation += 1;
        }
        for j in 0..self.jobs.len() {
            for a in 0..self.job(j).actions.len() {
                let action = self.action_mut(j, a);
                if action.status == ActionStatus::Waiting && action.chain.next.is_some() {
                    // Brought to its first check at or after now, the chain's
                    // `last` is the last check that ran before the server
                    // went down (its lastModified for the RecoveryService).
                    self.wake_chain(j, a);
                    let action = self.action_mut(j, a);
                    action.chain.next = None;
                    action.chain.generation += 1;
                    self.job_mut(j).lost.insert(a);
                }
            }
        }
    }

    fn outage_end(&mut self) {
        self.down = false;
        let restart = self.now + SERVICE_DELAY;
        for clock in &mut self.services {
            clock.origin = restart;
        }
        self.wake_materialization();
        self.wake(Service::Status, restart);
        self.wake_pause();
        self.wake_recovery();
    }

    // -----------------------------------------------------------------------
    // Ops.

    fn op(&mut self, i: usize) {
        let now = self.now;
        let Some(op) = self.ops.get(i).cloned() else {
            return;
        };
        let Some(j) = self.jobs.iter().position(|job| job.id == op.job) else {
            return;
        };
        let mut what = match (&op.value, &op.actions) {
            (Some((v, _)), _) => format!("{} -value {v}", verb_name(&op.verb)),
            (_, Some((list, _))) => {
                format!("{} -action {}", verb_name(&op.verb), action_list_text(list))
            }
            _ => verb_name(&op.verb).to_string(),
        };
        if !self.job(j).submitted {
            let submit = self.job(j).submit;
            self.job_mut(j).ops.push(OpRecord {
                at: now,
                what,
                refused: Some(format!(
                    "E0604: the job does not exist yet (it is submitted at {})",
                    format_utc(datetime(submit))
                )),
            });
            return;
        }
        let result = match op.verb {
            Verb::Suspend => self.suspend(j),
            Verb::Resume => self.resume(j),
            Verb::Kill => match &op.actions {
                None => self.kill_job(j),
                Some((list, _)) => self.kill_actions(j, list),
            },
            Verb::Change => self
                .change(j, op.value.as_ref().map_or("", |(v, _)| v))
                .map(|deleted| {
                    if !deleted.is_empty() {
                        let numbers: Vec<String> = deleted.iter().map(usize::to_string).collect();
                        what.push_str(&format!(" (deleted actions {})", numbers.join(", ")));
                    }
                }),
            Verb::Rerun => self.rerun(j, op.actions.as_ref().map_or(&[][..], |(l, _)| l)),
            Verb::Ignore => self.ignore(j, op.actions.as_ref().map_or(&[][..], |(l, _)| l)),
        };
        let refused = result.err();
        self.job_mut(j).ops.push(OpRecord {
            at: now,
            what,
            refused,
        });
        self.wake_job_chains(j);
        self.wake_materialization();
        self.wake_pause();
        self.wake_recovery();
    }

    /// CoordSuspendXCommand (CSUS:101-221).
    fn suspend(&mut self, j: usize) -> Result<(), String> {
        let to = match self.job(j).status {
            JobStatus::Prep | JobStatus::PrepPaused => JobStatus::PrepSuspended,
            JobStatus::Running | JobStatus::Paused => JobStatus::Suspended,
            JobStatus::RunningWithError | JobStatus::PausedWithError => {
                JobStatus::SuspendedWithError
            }
            s if s.is_terminal() => {
                return Err(format!(
                    "E1020: the job is {} and cannot be suspended",
                    s.name()
                ));
            }
            _ => return Ok(()),
        };
        self.set_job_status(j, to, Why::Suspended);
        let now = self.now;
        for a in 0..self.job(j).actions.len() {
            if self.action(j, a).status == ActionStatus::Running {
                if let Some(w) = &mut self.action_mut(j, a).workflow {
                    w.remaining = w.due.map_or(w.remaining, |d| d.saturating_sub(now));
                    w.due = None;
                    w.generation += 1;
                }
                self.set_action_status(j, a, ActionStatus::Suspended, Why::Suspended);
            }
        }
        Ok(())
    }

    /// CoordResumeXCommand (CRES:99-156, RTX:46-60).
    fn resume(&mut self, j: usize) -> Result<(), String> {
        let to = match self.job(j).status {
            JobStatus::PrepSuspended => JobStatus::Prep,
            JobStatus::Suspended => JobStatus::Running,
            JobStatus::SuspendedWithError => JobStatus::RunningWithError,
            s => return Err(format!("E1022: the job is {}, not suspended", s.name())),
        };
        self.set_job_status(j, to, Why::Resumed);
        let now = self.now;
        for a in 0..self.job(j).actions.len() {
            if self.action(j, a).status == ActionStatus::Suspended {
                let mut end = None;
                if let Some(w) = &mut self.action_mut(j, a).workflow {
                    w.generation += 1;
                    let due = now.saturating_add(w.remaining);
                    w.due = Some(due);
                    end = Some((due, w.generation));
                }
                self.set_action_status(j, a, ActionStatus::Running, Why::Resumed);
                if let Some((at, generation)) = end {
                    self.push(
                        at,
                        Event::WorkflowEnd(j, a, self.action(j, a).serial, generation),
                    );
                }
            }
        }
        Ok(())
    }

    /// CoordKillXCommand (CoordKillXCommand.java:102-164).
    fn kill_job(&mut self, j: usize) -> Result<(), String> {
        let status = self.job(j).status;
        if matches!(
            status,
            JobStatus::Succeeded
                | JobStatus::Failed
                | JobStatus::DoneWithError
                | JobStatus::Killed
                | JobStatus::Ignored
        ) {
            return Err(format!(
                "E1020: the job is {} and cannot be killed",
                status.name()
            ));
        }
        self.job_mut(j).done = true;
        self.set_job_status(j, JobStatus::Killed, Why::JobKilled);
        for a in 0..self.job(j).actions.len() {
            let s = self.action(j, a).status;
            if !matches!(
                s,
                ActionStatus::Failed
                    | ActionStatus::Timedout
                    | ActionStatus::Succeeded
                    | ActionStatus::Killed
                    | ActionStatus::Ignored
            ) {
                self.end_workflow_killed(j, a);
                self.set_action_status(j, a, ActionStatus::Killed, Why::JobKilled);
            }
        }
        Ok(())
    }

    fn end_workflow_killed(&mut self, j: usize, a: usize) {
        let now = self.now;
        if let Some(w) = &mut self.action_mut(j, a).workflow
            && w.ended.is_none()
        {
            w.ended = Some(now);
            w.status = Some(WorkflowEnd::Killed);
            w.due = None;
            w.generation += 1;
        }
    }

    /// CoordActionsKillXCommand (CAKX:84-140).
    fn kill_actions(&mut self, j: usize, list: &[(usize, usize)]) -> Result<(), String> {
        let status = self.job(j).status;
        if matches!(
            status,
            JobStatus::Succeeded | JobStatus::Failed | JobStatus::DoneWithError | JobStatus::Killed
        ) {
            return Err(format!(
                "E1020: the job is {} and its actions cannot be killed",
                status.name()
            ));
        }
        let selected = self.select(j, list)?;
        let mut freed = false;
        for a in selected {
            let s = self.action(j, a).status;
            if matches!(
                s,
                ActionStatus::Waiting
                    | ActionStatus::Ready
                    | ActionStatus::Submitted
                    | ActionStatus::Running
                    | ActionStatus::Suspended
            ) {
                freed |= self.action(j, a).workflow.is_some();
                self.end_workflow_killed(j, a);
                self.set_action_status(j, a, ActionStatus::Killed, Why::ActionsKilled);
            }
        }
        if freed {
            self.push(self.now, Event::ReadyCheck(j));
        }
        Ok(())
    }

    /// The actions an `-action` list names; an error for a number no action
    /// has (E0605).
    fn select(&self, j: usize, list: &[(usize, usize)]) -> Result<Vec<usize>, String> {
        let job = self.job(j);
        let mut out = Vec::new();
        for &(from, to) in list {
            for number in from..=to {
                match job.actions.iter().position(|a| a.number == number) {
                    Some(a) => out.push(a),
                    None => return Err(format!("E0605: action {number} does not exist")),
                }
            }
        }
        Ok(out)
    }

    /// CoordActionsIgnoreXCommand (CAIG:76-106).
    fn ignore(&mut self, j: usize, list: &[(usize, usize)]) -> Result<(), String> {
        let selected = self.select(j, list)?;
        if let Some(&a) = selected.iter().find(|&&a| {
            !matches!(
                self.action(j, a).status,
                ActionStatus::Failed | ActionStatus::Killed | ActionStatus::Timedout
            )
        }) {
            let action = self.action(j, a);
            return Err(format!(
                "E1024: action {} is {}; only FAILED, KILLED and TIMEDOUT actions can be ignored",
                action.number,
                action.status.name()
            ));
        }
        for a in selected {
            self.set_action_status(j, a, ActionStatus::Ignored, Why::Ignored);
        }
        Ok(())
    }

    /// CoordRerunXCommand (CoordRerunXCommand.java:127-470), without -refresh.
    fn rerun(&mut self, j: usize, list: &[(usize, usize)]) -> Result<(), String> {
        let status = self.job(j).status;
        if matches!(status, JobStatus::Prep | JobStatus::Ignored) {
            return Err(format!("E1018: a {} job cannot be rerun", status.name()));
        }
        let selected = self.select(j, list)?;
        if let Some(&a) = selected
            .iter()
            .find(|&&a| !self.action(j, a).status.is_terminal())
        {
            let action = self.action(j, a);
            return Err(format!(
                "E1018: action {} is {}: only finished actions can be rerun",
                action.number,
                action.status.name()
            ));
        }
        let to = match status {
            JobStatus::Paused | JobStatus::PausedWithError => status,
            JobStatus::Succeeded | JobStatus::Suspended | JobStatus::Running => JobStatus::Running,
            _ if self.settings.states_without_error => JobStatus::Running,
            _ => JobStatus::RunningWithError,
        };
        self.set_job_status(j, to, Why::Rerun);
        let now = self.now;
        for a in selected {
            if self.action(j, a).status == ActionStatus::Timedout {
                self.action_mut(j, a).created = now;
            }
            self.action_mut(j, a).workflow = None;
            self.set_action_status(j, a, ActionStatus::Waiting, Why::Rerun);
            self.action_mut(j, a).chain.last = now;
            self.queue_check(j, a, now + COMMAND_DELAY);
        }
        Ok(())
    }

    /// CoordChangeXCommand (CoordChangeXCommand.java:208-461): `endtime=`, `pausetime=`,
    /// `concurrency=`, `status=`.
    /// `Ok` with the numbers of the actions deleted.
    fn change(&mut self, j: usize, value: &str) -> Result<Vec<usize>, String> {
        let mut end = None;
        let mut pause = None;
        let mut concurrency = None;
        let mut status = None;
        for pair in value.split(';').filter(|p| !p.trim().is_empty()) {
            let (name, v) = pair
                .split_once('=')
                .ok_or_else(|| format!("E1015: `{pair}` is not name=value"))?;
            let v = v.trim();
            let time = |v: &str| {
                parse_datetime(v, ProcessingZone::UTC)
                    .map(|t| millis(t.instant))
                    .map_err(|e| format!("E1015: invalid {name} `{v}`: {}", e.message))
            };
            match name.trim() {
                "endtime" => end = Some(time(v)?),
                "pausetime" => pause = Some(if v.is_empty() { None } else { Some(time(v)?) }),
                "concurrency" => {
                    concurrency = Some(
                        v.parse::<i32>()
                            .map_err(|_| format!("E1015: invalid concurrency `{v}`"))?,
                    )
                }
                "status" => status = Some(v.to_string()),
                other => return Err(format!("E1015: `{other}` cannot be changed")),
            }
        }
        let job = self.job(j);
        if job.status.is_terminal() && status.is_none() && end.is_none() {
            return Err(format!("E1016: the job is {}", job.status.name()));
        }
        // Actions at or after the new end or pause are deleted, if they have
        // not started; otherwise nothing changes (E1022).
        let cut = [end, pause.flatten()].into_iter().flatten().min();
        let mut deleted = 0;
        if let Some(cut) = cut {
            for action in job.actions.iter().rev() {
                if action.nominal < cut {
                    break;
                }
                if !matches!(action.status, ActionStatus::Waiting | ActionStatus::Ready) {
                    return Err(format!(
                        "E1022: action {} ({}) is {}: actions after {} cannot be deleted",
                        action.number,
                        format_utc(datetime(action.nominal)),
                        action.status.name(),
                        format_utc(datetime(cut))
                    ));
                }
                deleted += 1;
            }
        }
        if let Some(s) = &status {
            let allowed = match s.as_str() {
                "RUNNING" => matches!(
                    job.status,
                    JobStatus::Failed | JobStatus::Killed | JobStatus::Ignored
                ),
                "IGNORED" => matches!(job.status, JobStatus::Failed | JobStatus::Killed),
                _ => false,
            };
            if !allowed {
                return Err(format!(
                    "E1015: the status cannot change from {} to {s}",
                    job.status.name()
                ));
            }
        }
        let mut deleted_numbers = Vec::new();
        for _ in 0..deleted {
            let job = self.job_mut(j);
            let Some(action) = job.actions.pop() else {
                break;
            };
            job.counts.remove(action.status);
            job.ready.remove(&(action.nominal, job.actions.len()));
            job.ready_since.remove(&(action.since, job.actions.len()));
            job.lost.remove(&job.actions.len());
            job.last_action_number = action.number - 1;
            job.next_materialization = Some(action.nominal);
            job.done = false;
            job.dirty = true;
            deleted_numbers.push(action.number);
        }
        if let Some(n) = concurrency {
            let before = self.job(j).concurrency;
            self.job_mut(j).concurrency = i64::from(n);
            if i64::from(n) > before {
                self.push(self.now, Event::ReadyCheck(j));
            }
        }
        if let Some(new_pause) = pause {
            let old = self.job(j).pause;
            self.job_mut(j).pause = new_pause;
            let later = match (old, new_pause) {
                (_, None) => true,
                (Some(o), Some(n)) => n > o,
                (None, Some(_)) => false,
            };
            if later {
                let to = match self.job(j).status {
                    JobStatus::Paused => Some(JobStatus::Running),
                    JobStatus::PausedWithError => Some(JobStatus::RunningWithError),
                    // (PREPPAUSED waits for the PauseTransitService, PTS:189-207.)
                    _ => None,
                };
                if let Some(to) = to {
                    self.set_job_status(j, to, Why::Changed("pause time moved".into()));
                }
            }
        }
        if let Some(e) = end {
            let job = self.job_mut(j);
            job.end = e;
            let next = job.next_materialization.unwrap_or(job.start);
            job.done = e <= next;
            job.dirty = true;
            if e <= job.start {
                if matches!(job.status, JobStatus::Prep | JobStatus::Running) {
                    self.set_job_status(j, JobStatus::Succeeded, Why::EndBeforeStart);
                }
            } else {
                let to = match job.status {
                    JobStatus::Succeeded => Some(JobStatus::Running),
                    JobStatus::DoneWithError | JobStatus::Failed => {
                        Some(if self.settings.states_without_error {
                            JobStatus::Running
                        } else {
                            JobStatus::RunningWithError
                        })
                    }
                    _ => None,
                };
                if let Some(to) = to {
                    self.set_job_status(
                        j,
                        to,
                        Why::Changed(format!("end time {}", format_utc(datetime(e)))),
                    );
                }
            }
        }
        if let Some(s) = status {
            let to = if s == "RUNNING" {
                // Materialization goes on if it had not reached the end
                // (CoordChangeXCommand.java:432-445); the StatusTransitService looks at the job
                // again.
                let job = self.job_mut(j);
                if job.next_materialization.unwrap_or(job.start) < job.end {
                    job.done = false;
                }
                JobStatus::Running
            } else {
                JobStatus::Ignored
            };
            self.job_mut(j).dirty = true;
            self.set_job_status(j, to, Why::Changed(format!("status={s}")));
        }
        self.wake(Service::Status, self.now);
        Ok(deleted_numbers)
    }
}

fn verb_name(verb: &Verb) -> &'static str {
    match verb {
        Verb::Suspend => "suspend",
        Verb::Resume => "resume",
        Verb::Kill => "kill",
        Verb::Change => "change",
        Verb::Rerun => "rerun",
        Verb::Ignore => "ignore",
    }
}

fn action_list_text(list: &[(usize, usize)]) -> String {
    list.iter()
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// Resolves one `latest`/`future` call against what exists at `now`
/// (CoordELFunctions.java:1177-1195, 1494-1558).
fn resolve(
    job: &Job,
    dataset: &str,
    call: Unresolved,
    reference: Millis,
    nominal: Millis,
    data: &DataStore,
    now: Millis,
) -> Option<Vec<String>> {
    let (_, clock) = job.dataset(dataset)?;
    let uri = |t: DateTime<Utc>| job.instance_uri(dataset, t).and_then(Result::ok);
    let mut exists = |u: &String| data.exists(u, now);
    match call {
        Unresolved::Latest { from, to } => {
            // Newest first from the current instance at the reference time,
            // down to the initial instance.
            let reference = datetime(reference);
            const CHUNK: i64 = 64;
            let mut offset = 0;
            let candidates = std::iter::from_fn(move || {
                let chunk = clock
                    .current_range(reference, -(offset + CHUNK - 1), -offset)
                    .ok()?;
                offset += CHUNK;
                (!chunk.is_empty()).then_some(chunk)
            })
            .flatten()
            .filter_map(uri);
            pick(candidates, &mut exists, (-to) as usize, (-from) as usize)
        }
        Unresolved::Future { from, to, limit } => {
            let mut instances = clock.current_range(datetime(nominal), 0, limit).ok()?;
            instances.reverse();
            pick(
                instances.into_iter().filter_map(uri),
                &mut exists,
                from as usize,
                to as usize,
            )
        }
    }
}

/// Action indexes are positions in `actions`, held only while the action
/// exists: `change` pops deleted actions and drops their indexes from
/// `ready`, `ready_since` and `lost`; queued events and watchers check
/// theirs with `get` and the action's serial before use.
#[allow(
    clippy::indexing_slicing,
    reason = "action indexes are held only while their action exists (see above)"
)]
impl<'a> SimJob<'a> {
    fn action(&self, a: usize) -> &SimAction<'a> {
        &self.actions[a]
    }

    fn action_mut(&mut self, a: usize) -> &mut SimAction<'a> {
        &mut self.actions[a]
    }
}

impl<'a> SimJob<'a> {
    fn new(input: JobInput<'a>, settings: &Settings) -> SimJob<'a> {
        let job = input.job;
        let app = job.app();
        let controls = &job.controls;
        let given = |text: &Option<crate::ir::ElText>| {
            text.as_ref().is_some_and(|t| !t.text().trim().is_empty())
        };
        let timeout = if given(&app.controls.timeout) {
            controls.timeout
        } else {
            settings.default_timeout
        };
        let concurrency = if given(&app.controls.concurrency) {
            controls.concurrency
        } else {
            settings.default_concurrency
        };
        let throttle = if given(&app.controls.throttle) {
            controls.throttle
        } else {
            settings.default_throttle
        };
        // CoordSubmitXCommand.java:773-787.
        let throttle = if throttle < 1 || throttle > settings.throttle_cap {
            settings.throttle_cap
        } else {
            throttle
        };
        let done_flags = app
            .inputs
            .iter()
            .map(|d| match job.done_flag(&d.dataset.name) {
                Some(Ok(flag)) => flag,
                // (Submission read the flag: an error there stopped it.)
                _ => "_SUCCESS".to_string(),
            })
            .collect();
        SimJob {
            workflows: input.workflows,
            id: input.id,
            app_name: job.name.to_string(),
            done_flags,
            status: JobStatus::Prep,
            start: millis(job.start),
            end: millis(job.end),
            pause: None,
            concurrency,
            throttle,
            timeout,
            execution: controls.execution,
            submit: millis(input.submit),
            submitted: false,
            next_materialization: None,
            last_action_number: 0,
            done: false,
            modified: millis(input.submit),
            actions: Vec::new(),
            counts: Counts::default(),
            ready: BTreeSet::new(),
            ready_since: BTreeSet::new(),
            lost: BTreeSet::new(),
            dirty: false,
            cron_times: Default::default(),
            ops: Vec::new(),
            scripts: Vec::new(),
            failure: None,
            job,
        }
    }

    /// Instances of `dataset` with nominal times in [from, to), and their URIs.
    fn dataset_instances(
        &self,
        dataset: &str,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> Result<Vec<(DateTime<Utc>, String)>, String> {
        let (_, clock) = self.job.dataset(dataset).ok_or_else(|| {
            format!(
                "job `{}` has no data-in or data-out with dataset `{dataset}`",
                self.id
            )
        })?;
        let last = to - chrono::Duration::milliseconds(1);
        let Some((last_count, _)) = clock.current_instance(last).map_err(|e| e.to_string())? else {
            return Ok(Vec::new());
        };
        let first_count = match clock.current_instance(from).map_err(|e| e.to_string())? {
            Some((c, t)) if t < from => c + 1,
            Some((c, _)) => c,
            None => 0,
        };
        if last_count < first_count {
            return Ok(Vec::new());
        }
        if (last_count - first_count) as usize >= MAX_INSTANCES {
            return Err(format!(
                "the range lists more than {MAX_INSTANCES} instances of dataset `{dataset}`: simulate a shorter window"
            ));
        }
        let mut instances = clock
            .current_range(last, first_count - last_count, 0)
            .map_err(|e| e.to_string())?;
        instances.reverse();
        instances
            .into_iter()
            .map(|t| match self.job.instance_uri(dataset, t) {
                Some(Ok(uri)) => Ok((t, uri)),
                Some(Err(d)) => Err(d.message.clone()),
                None => Err(format!("no dataset `{dataset}`")),
            })
            .collect()
    }

    /// Nominal time of action `k` (1-based), computed afresh from the start
    /// (CoordMaterializeTransitionXCommand.java:484-492); `None` past the calendar.
    pub fn nominal(&self, k: usize) -> Option<Millis> {
        if k == 0 {
            return None;
        }
        match self.job.schedule() {
            Schedule::Every(f) => {
                let origin = if f.end_of {
                    crate::time::frequency::move_to_end(&self.job.zone, self.job.start, f.unit)?
                } else {
                    self.job.start
                };
                let steps = i64::try_from(k - 1).ok()?.checked_mul(f.count)?;
                add(&self.job.zone, origin, f.unit.calendar_unit(), steps).map(millis)
            }
            Schedule::Cron(c) => {
                let mut cron_times = self.cron_times.borrow_mut();
                if cron_times.len() < k {
                    let wanted = (k * 2).max(64);
                    let far = Utc.with_ymd_and_hms(3000, 1, 1, 0, 0, 0).single()?;
                    let times = cron::materialize(
                        c,
                        &self.job.zone,
                        self.job.processing_zone(),
                        self.job.start,
                        far,
                        wanted,
                    )
                    .ok()?;
                    *cron_times = times.into_iter().map(|f| millis(f.nominal)).collect();
                }
                cron_times.get(k - 1).copied()
            }
        }
    }

    /// How many actions have a nominal time before `bound` (a frequency
    /// schedule: found by bisection, at most [`MAX_ACTIONS`] + 1; a cron
    /// schedule: 0, it is counted as it runs).
    fn actions_before(&self, bound: Millis) -> usize {
        if matches!(self.job.schedule(), Schedule::Cron(_)) {
            return 0;
        }
        let before = |k: usize| self.nominal(k).is_some_and(|t| t < bound);
        let (mut low, mut high) = (0usize, MAX_ACTIONS + 1);
        if before(high) {
            return high;
        }
        // Invariant: before(low) (or low == 0), !before(high).
        while high - low > 1 {
            let mid = low + (high - low) / 2;
            if before(mid) {
                low = mid;
            } else {
                high = mid;
            }
        }
        low
    }

    /// The nominal time after action `number`'s, `None` past the end
    /// (CoordCommandUtils.java:880-913: equal to the end is not past it).
    fn next_nominal(&self, number: usize) -> Option<Millis> {
        let next = self.nominal(number + 1)?;
        (next <= self.end).then_some(next)
    }

    /// Whether the trigger selects this job now (CJB:160-167).
    fn selectable(&self, now: Millis, lookup: Millis) -> bool {
        self.selectable_from(lookup).is_some_and(|t| t <= now)
    }

    /// The earliest time the trigger can select this job, as things stand.
    fn selectable_from(&self, lookup: Millis) -> Option<Millis> {
        if !self.submitted
            || !self.status.materializes()
            || self.done
            || self.throttle <= self.counts.get(ActionStatus::Waiting) as i64
        {
            return None;
        }
        match self.next_materialization {
            None => Some(self.start - lookup),
            Some(next) => {
                if next >= self.end || self.pause.is_some_and(|p| p <= next) {
                    return None;
                }
                // nextMat < now + lookup: strictly, so at or after this.
                Some(next - lookup)
            }
        }
    }

    /// Whether a `[[workflow]]` entry scripts action `a`.
    fn overridden(&self, a: usize) -> bool {
        let action = self.action(a);
        self.scripts.iter().any(|(which, _, _)| match which {
            ActionRef::Number(n) => *n == action.number,
            ActionRef::Nominal(t) => millis(*t) == action.nominal,
        })
    }

    fn script_for(&self, a: usize, default: WorkflowScript) -> WorkflowScript {
        let action = self.action(a);
        let mut script = default;
        for (which, status, duration) in &self.scripts {
            let matches = match which {
                ActionRef::Number(n) => *n == action.number,
                ActionRef::Nominal(t) => millis(*t) == action.nominal,
            };
            if matches {
                if let Some(s) = status {
                    script.status = *s;
                }
                if let Some(d) = duration {
                    script.duration = *d;
                }
            }
        }
        script
    }
}
