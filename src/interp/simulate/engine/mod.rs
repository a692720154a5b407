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

use super::calendar::{MAX_ACTIONS, frequency_nominal};
use super::data::{DataStore, dependency_path};
use super::inputs::{LogicInputs, Outcome, Unresolved, evaluate, pick};
use super::scenario::model::{
    ActionScript, Command, JobOp, Settings, Simulation, StatusChange, WorkflowEnd, WorkflowScript,
};
use super::status::{ActionStatus, Counts, JobStatus, action_transition_allowed, transit};
use crate::diag::Diagnostic;
use crate::diag::rules::SIMULATE_SCENARIO;
use crate::el::VarMap;
use crate::interp::clock::{Millis, datetime, millis};
use crate::interp::queue::{EventQueue, Place};
use crate::interp::workflow::graph::Graph;
use crate::interp::workflow::run::{
    JobStep, Run, RunInput, RunStatus, Server, SubWorkflow, SubWorkflows, Tree, World, job_conf,
    run as workflow_run,
};
use crate::interp::workflow::script::{Scope, Script};
use crate::oozie::action::Action;
use crate::oozie::input_logic::Condition;
use crate::oozie::job::{Execution, Job, Schedule};
use crate::span::Span;
use crate::time::calendar::add;
use crate::time::cron;
use crate::time::datetime::{ProcessingZone, format_utc};
use chrono::{DateTime, TimeZone, Utc};
use std::borrow::Cow;
use std::collections::BTreeSet;
use std::sync::Arc;

#[cfg(test)]
pub(super) mod fixture;
mod input_check;
mod materialize;
mod ops;
mod outage;
mod ready;
mod record;
mod services;
mod sim_job;

pub(crate) use record::{Change, Log, OpRecord, Record, Status, Why};

const SECOND: Millis = 1_000;
const MINUTE: Millis = 60_000;
/// The services' first run after the server starts (CoordMaterializeTriggerService.java:229-239).
const SERVICE_DELAY: Millis = 10 * SECOND;
/// Submit → first materialization; rerun → input check (CoordSubmitXCommand.java:325-329, CoordRerunXCommand.java:363).
const COMMAND_DELAY: Millis = 100;

/// An action's workflow.
#[derive(Debug)]
pub struct Workflow {
    pub started: Millis,
    pub ended: Option<Millis>,
    pub status: Option<WorkflowEnd>,
    /// When a local workflow application runs: what re-runs it for the report.
    pub run: Option<Box<LocalRun>>,
    /// A local workflow application's jobs, while they run.
    live: Option<Box<LiveWorkflow>>,
    /// Why its job could not be submitted, when it could not.
    pub refused: Option<String>,
    script: WorkflowScript,
    /// When it ends, while running; its remaining time while suspended.
    due: Option<Millis>,
    remaining: Millis,
    generation: u32,
}

/// What a coordinator action's workflow is: scripted, run from its local
/// application (its graph, its job's configuration and its file), or
/// refused before it ran.
enum LocalOutcome {
    Scripted,
    Local(Box<(Graph, VarMap, String)>),
    Refused(String),
}

/// A workflow job (with its sub-workflows) running from its local
/// application, its steps on the engine's queue.
#[derive(Debug)]
struct LiveWorkflow {
    tree: Tree,
    /// The place its steps and its end take among events due at the same
    /// time: where its end was queued when a run was made at once (as the
    /// action started, or as it was resumed).
    steps: Place,
    end: Place,
    /// While its action is suspended: since when. (The jobs run on; the
    /// action takes their end as long after as it was suspended.)
    suspended_since: Option<Millis>,
    /// How long its action was suspended, in the suspensions that ended.
    paused: Millis,
}

/// A local workflow application, with the app-path and the resolved
/// configuration an action gives its job.
type LocalWorkflow = (Arc<SubWorkflow>, String, Vec<(String, String)>);

/// A coordinator action's workflow run from its local application: its job
/// id and its sub-workflows'. (The run's trace is made again for the
/// report, from the same application, configuration and ids: keeping every
/// node of every run, or even every run's configuration, would hold a
/// year's simulation in memory.)
#[derive(Debug, Clone)]
pub struct LocalRun {
    pub id_sequence: u64,
    /// The ids its sub-workflows were given, in the order they were submitted.
    pub child_ids: Vec<u64>,
    /// It was killed with its action (CoordKillXCommand, CoordActionsKillXCommand).
    pub killed: bool,
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
    pub(crate) fn next_check(&self) -> Option<Millis> {
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
    /// Its `[[workflow]]` entries.
    scripts: Vec<ActionScript>,
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Event {
    Submit(usize),
    Tick(Service, u32),
    Materialize(usize),
    /// (job, action index, the action's serial, the chain's generation)
    InputCheck(usize, usize, u32, u32),
    ReadyCheck(usize),
    /// (job, action index, the action's serial, the workflow's generation)
    WorkflowEnd(usize, usize, u32, u32),
    /// (job, action index, its workflow job's id sequence, the step)
    WorkflowStep(usize, usize, u64, JobStep),
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
    queue: EventQueue<Event>,
    pub jobs: Vec<SimJob<'a>>,
    pub data: DataStore,
    pub outages: Vec<(Millis, Millis)>,
    down: bool,
    /// The services' clocks, in [`Service`]'s order.
    services: [ServiceClock; 4],
    pub log: Log,
    ops: Vec<JobOp>,
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

    /// The server at the simulation's start, its jobs (`inputs`, in the
    /// order `simulation` names them by) queued for submission and its data
    /// scripted.
    pub fn new(simulation: Simulation, inputs: Vec<JobInput<'a>>) -> Engine<'a> {
        let Simulation {
            start,
            until,
            settings,
            workflows,
            outputs,
            action_scripts,
            ops,
            arrivals,
            outages,
            script,
        } = simulation;
        let mut jobs: Vec<SimJob<'a>> = inputs
            .into_iter()
            .map(|input| SimJob::new(input, &settings))
            .collect();
        for (job, scripts) in jobs.iter_mut().zip(action_scripts) {
            job.scripts = scripts;
        }
        let mut data = DataStore::default();
        for arrival in &arrivals {
            match arrival.at {
                Some(at) => data.set(&arrival.uri, at),
                None => data.unset(&arrival.uri),
            }
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
            until,
            queue: EventQueue::default(),
            jobs,
            data,
            outages,
            down: false,
            log: Log::default(),
            ops,
            workflows,
            outputs,
            watchers: Default::default(),
            created: 0,
            script,
            next_workflow_id: 0,
        };
        let submits: Vec<Millis> = engine.jobs.iter().map(|job| job.submit).collect();
        for (j, at) in submits.into_iter().enumerate() {
            engine.push(at, Event::Submit(j));
        }
        let op_times: Vec<Millis> = engine.ops.iter().map(|op| op.at).collect();
        for (i, at) in op_times.into_iter().enumerate() {
            engine.push(at, Event::Op(i));
        }
        for (i, (from, to)) in engine.outages.clone().into_iter().enumerate() {
            engine.push(from, Event::OutageStart(i));
            engine.push(to, Event::OutageEnd(i));
        }
        engine
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
        self.queue.push(at, event);
    }

    /// Runs every event due before `until` (or at or before `at`, when
    /// given: the state as of that time).
    pub fn run(&mut self, at: Option<Millis>) -> Result<(), Diagnostic> {
        while let Some(t) = self.queue.next_at() {
            let past = match at {
                Some(at) => t > at,
                None => t >= self.until,
            };
            if past {
                break;
            }
            let Some((t, event)) = self.queue.pop() else {
                break;
            };
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

    /// The record of the run so far, and the server as it stands: what the
    /// reports are written from.
    pub fn into_record(mut self) -> Record<'a> {
        for action in self.jobs.iter_mut().flat_map(|job| job.actions.iter_mut()) {
            if let Some(w) = &mut action.workflow
                && let (Some(live), Some(run)) = (&w.live, &mut w.run)
            {
                run.child_ids = live.tree.child_ids().to_vec();
            }
        }
        Record::new(
            self.log,
            self.now,
            self.settings,
            self.jobs,
            self.data,
            self.script,
            self.next_workflow_id,
        )
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
            Event::WorkflowStep(j, a, id_sequence, step) => {
                if self.job(j).actions.get(a).is_some_and(|x| {
                    x.workflow.as_ref().is_some_and(|w| {
                        w.live.is_some()
                            && w.run.as_ref().is_some_and(|r| r.id_sequence == id_sequence)
                    })
                }) {
                    self.step_workflow(j, a, Some(step));
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

    fn set_job_status(&mut self, j: usize, to: JobStatus, why: Why) {
        let job = self.job_mut(j);
        if job.status == to {
            return;
        }
        let from = job.status;
        job.status = to;
        self.log.changes.push(Change {
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
        self.log.changes.push(Change {
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
