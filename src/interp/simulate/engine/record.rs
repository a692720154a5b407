//! The record the engine writes: every status change, in the order it
//! happened, with its reason, and the answer to each user operation. The
//! reports are written from it (and from the jobs' final states).

use super::super::status::{ActionStatus, JobStatus};
use crate::interp::clock::Millis;

/// What happened in a simulation, in order.
#[derive(Debug, Clone, Default)]
pub struct Record {
    pub changes: Vec<Change>,
    /// In the order they were run.
    pub ops: Vec<OpRecord>,
}

impl Record {
    /// The answers to the operations on job `j`, in order.
    pub fn ops_of(&self, j: usize) -> impl Iterator<Item = &OpRecord> {
        self.ops.iter().filter(move |op| op.job == j)
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
    /// The job's index.
    pub job: usize,
    pub what: String,
    /// `None`: done; else Oozie's refusal.
    pub refused: Option<String>,
}
