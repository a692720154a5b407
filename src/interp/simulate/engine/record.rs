//! The record of a simulation, all the reports are written from: the log
//! the engine writes as it runs (every status change, in the order it
//! happened, with its reason, and the answer to each user operation), and
//! where the run left the server (its jobs and actions, its data, its
//! settings, the time).

use super::super::data::DataStore;
use super::super::scenario::model::Settings;
use super::super::status::{ActionStatus, JobStatus};
use super::SimJob;
use crate::interp::clock::Millis;
use crate::interp::workflow::run::{ChildIds, Run};
use crate::interp::workflow::script::Script;

/// What happened in a simulation, in order.
#[derive(Debug, Clone, Default)]
pub struct Log {
    pub changes: Vec<Change>,
    /// In the order they were run.
    pub ops: Vec<OpRecord>,
}

impl Log {
    /// The answers to the operations on job `j`, in order.
    pub(crate) fn ops_of(&self, j: usize) -> impl Iterator<Item = &OpRecord> {
        self.ops.iter().filter(move |op| op.job == j)
    }
}

/// A finished simulation: its log, and the server as the run left it.
pub struct Record<'a> {
    pub log: Log,
    /// The time the record stops at.
    pub now: Millis,
    pub settings: Settings,
    /// Their actions as they ended, by index.
    pub jobs: Vec<SimJob<'a>>,
    pub data: DataStore,
    /// What the workflows run from local applications met.
    script: Script,
    /// The id the server would give the next workflow job.
    next_workflow_id: u64,
}

impl<'a> Record<'a> {
    pub(super) fn new(
        log: Log,
        now: Millis,
        settings: Settings,
        jobs: Vec<SimJob<'a>>,
        data: DataStore,
        script: Script,
        next_workflow_id: u64,
    ) -> Record<'a> {
        Record {
            log,
            now,
            settings,
            jobs,
            data,
            script,
            next_workflow_id,
        }
    }

    /// Action `a`'s workflow trace as of the record's time, made again as
    /// it ran, with the ids its jobs were given (keeping every run's nodes
    /// would hold a year's simulation in memory). A workflow killed with
    /// its action stands as it was killed.
    pub(crate) fn workflow_trace(&self, j: usize, a: usize) -> Option<Run> {
        let job = self.jobs.get(j)?;
        let workflow = job.actions.get(a)?.workflow.as_ref()?;
        let local = workflow.run.as_deref()?;
        let ids = ChildIds::Given {
            ids: &local.child_ids,
            then: self.next_workflow_id,
        };
        let run = job.run_local(a, local.id_sequence, ids, workflow.started, &self.script)?;
        Some(match (local.killed, workflow.ended) {
            (true, Some(at)) => run.killed_at(at),
            _ => run.cut_at(self.now),
        })
    }
}

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
    pub(crate) fn name(self) -> &'static str {
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
    /// The job's index.
    pub job: usize,
    pub what: String,
    /// `None`: done; else Oozie's refusal.
    pub refused: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{at, coordinator, record};
    use super::*;

    /// The record holds the log and the server as the run left it: the time
    /// it was run to, and each action at the status its last change took.
    #[test]
    fn the_record_is_the_log_and_the_final_state() {
        let scenario = "start = \"2009-01-01T00:00Z\"\nuntil = \"2009-01-01T06:00Z\"\n[workflows]\nduration = \"2h\"\n[[data]]\nuri = \"hdfs://nn/logs/2009010100\"\n";
        let app = coordinator("2009-01-01T03:00Z", "");
        record(&app, scenario, Some("2009-01-01T01:30Z"), |record| {
            assert_eq!(record.now, at("2009-01-01T01:30Z"));
            let job = &record.jobs[0];
            assert!(!job.actions.is_empty());
            for (a, action) in job.actions.iter().enumerate() {
                let last = record
                    .log
                    .changes
                    .iter()
                    .rfind(|change| change.job == 0 && change.action == Some(a))
                    .map(|change| change.to);
                assert_eq!(last, Some(Status::Action(action.status)));
            }
        });
    }
}
