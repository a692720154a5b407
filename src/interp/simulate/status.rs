//! Statuses of coordinator actions and jobs, the action transitions Oozie
//! makes (the coordinator action commands: CoordActionInputCheckXCommand,
//! CoordActionReadyXCommand, CoordActionStartXCommand,
//! CoordActionUpdateXCommand, CoordActionTimeOutXCommand, CoordKillXCommand,
//! CoordRerunXCommand), and the job status the StatusTransitService
//! computes (StatusTransitService.java).

use serde::Serialize;

/// `CoordinatorAction.Status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum ActionStatus {
    Waiting,
    Ready,
    Submitted,
    Running,
    Suspended,
    Timedout,
    Succeeded,
    Killed,
    Failed,
    Ignored,
    Skipped,
}

pub(crate) const ACTION_STATUSES: usize = 11;

impl ActionStatus {
    pub(crate) const ALL: [ActionStatus; ACTION_STATUSES] = [
        ActionStatus::Waiting,
        ActionStatus::Ready,
        ActionStatus::Submitted,
        ActionStatus::Running,
        ActionStatus::Suspended,
        ActionStatus::Timedout,
        ActionStatus::Succeeded,
        ActionStatus::Killed,
        ActionStatus::Failed,
        ActionStatus::Ignored,
        ActionStatus::Skipped,
    ];

    pub(crate) fn name(self) -> &'static str {
        match self {
            ActionStatus::Waiting => "WAITING",
            ActionStatus::Ready => "READY",
            ActionStatus::Submitted => "SUBMITTED",
            ActionStatus::Running => "RUNNING",
            ActionStatus::Suspended => "SUSPENDED",
            ActionStatus::Timedout => "TIMEDOUT",
            ActionStatus::Succeeded => "SUCCEEDED",
            ActionStatus::Killed => "KILLED",
            ActionStatus::Failed => "FAILED",
            ActionStatus::Ignored => "IGNORED",
            ActionStatus::Skipped => "SKIPPED",
        }
    }

    /// Finished: what a rerun may start again (CAB:559-573).
    pub(crate) fn is_terminal(self) -> bool {
        !matches!(
            self,
            ActionStatus::Waiting
                | ActionStatus::Ready
                | ActionStatus::Submitted
                | ActionStatus::Running
                | ActionStatus::Suspended
        )
    }

    /// An error the job's status shows (CSTX:295-299).
    pub(crate) fn is_error(self) -> bool {
        matches!(
            self,
            ActionStatus::Killed | ActionStatus::Failed | ActionStatus::Timedout
        )
    }
}

/// The action transitions the coordinator action commands make, and
/// nothing else: `(from, to)`, `None` for creation.
pub(crate) const ACTION_TRANSITIONS: &[(Option<ActionStatus>, ActionStatus)] = {
    use ActionStatus::*;
    &[
        (None, Waiting),
        (Some(Waiting), Ready),
        (Some(Waiting), Failed),
        (Some(Waiting), Skipped),
        (Some(Waiting), Timedout),
        (Some(Ready), Skipped),
        (Some(Ready), Submitted),
        (Some(Submitted), Running),
        (Some(Submitted), Failed),
        (Some(Running), Suspended),
        (Some(Suspended), Running),
        (Some(Running), Succeeded),
        (Some(Running), Failed),
        (Some(Running), Killed),
        // Kill: the job's (which also takes SKIPPED, CAB:176-179) or actions'.
        (Some(Waiting), Killed),
        (Some(Ready), Killed),
        (Some(Submitted), Killed),
        (Some(Suspended), Killed),
        (Some(Skipped), Killed),
        // Ignore.
        (Some(Failed), Ignored),
        (Some(Killed), Ignored),
        (Some(Timedout), Ignored),
        // Rerun: any terminal status.
        (Some(Timedout), Waiting),
        (Some(Succeeded), Waiting),
        (Some(Killed), Waiting),
        (Some(Failed), Waiting),
        (Some(Ignored), Waiting),
        (Some(Skipped), Waiting),
    ]
};

/// Whether Oozie makes this action transition.
pub(crate) fn action_transition_allowed(from: Option<ActionStatus>, to: ActionStatus) -> bool {
    ACTION_TRANSITIONS.contains(&(from, to))
}

/// `Job.Status` of a coordinator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum JobStatus {
    Prep,
    Running,
    RunningWithError,
    PrepSuspended,
    Suspended,
    SuspendedWithError,
    PrepPaused,
    Paused,
    PausedWithError,
    Succeeded,
    DoneWithError,
    Killed,
    Failed,
    Ignored,
}

impl JobStatus {
    pub(crate) fn name(self) -> &'static str {
        match self {
            JobStatus::Prep => "PREP",
            JobStatus::Running => "RUNNING",
            JobStatus::RunningWithError => "RUNNINGWITHERROR",
            JobStatus::PrepSuspended => "PREPSUSPENDED",
            JobStatus::Suspended => "SUSPENDED",
            JobStatus::SuspendedWithError => "SUSPENDEDWITHERROR",
            JobStatus::PrepPaused => "PREPPAUSED",
            JobStatus::Paused => "PAUSED",
            JobStatus::PausedWithError => "PAUSEDWITHERROR",
            JobStatus::Succeeded => "SUCCEEDED",
            JobStatus::DoneWithError => "DONEWITHERROR",
            JobStatus::Killed => "KILLED",
            JobStatus::Failed => "FAILED",
            JobStatus::Ignored => "IGNORED",
        }
    }

    pub(crate) fn is_terminal(self) -> bool {
        matches!(
            self,
            JobStatus::Succeeded
                | JobStatus::DoneWithError
                | JobStatus::Killed
                | JobStatus::Failed
                | JobStatus::Ignored
        )
    }

    /// Whether the materialization trigger and command take the job
    /// (CJB:160-167, CoordMaterializeTransitionXCommand.java:312-373).
    pub(crate) fn materializes(self) -> bool {
        matches!(
            self,
            JobStatus::Prep | JobStatus::Running | JobStatus::RunningWithError
        )
    }

    /// Whether an input check of its actions runs (CoordActionInputCheckXCommand.java:519-539).
    pub(crate) fn checks_inputs(self) -> bool {
        matches!(
            self,
            JobStatus::Running
                | JobStatus::RunningWithError
                | JobStatus::Paused
                | JobStatus::PausedWithError
        )
    }

    /// Whether a ready-check starts its actions (CoordActionReadyXCommand.java:226-234).
    pub(crate) fn starts_actions(self) -> bool {
        self.checks_inputs() || self == JobStatus::Succeeded
    }

    /// The status as a server with
    /// `backward.support.for.states.without.error` shows it (SU:154-171).
    pub(crate) fn without_error(self) -> JobStatus {
        match self {
            JobStatus::RunningWithError => JobStatus::Running,
            JobStatus::SuspendedWithError => JobStatus::Suspended,
            JobStatus::PausedWithError => JobStatus::Paused,
            other => other,
        }
    }
}

/// How many of a job's actions are in each status.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counts([usize; ACTION_STATUSES]);

#[allow(
    clippy::indexing_slicing,
    reason = "the table has ACTION_STATUSES entries, one per ActionStatus variant, so `status as usize` is inside it"
)]
impl Counts {
    pub(crate) fn get(&self, status: ActionStatus) -> usize {
        self.0[status as usize]
    }

    pub(crate) fn add(&mut self, status: ActionStatus) {
        self.0[status as usize] += 1;
    }

    pub(crate) fn remove(&mut self, status: ActionStatus) {
        self.0[status as usize] -= 1;
    }

    fn all_in(&self, statuses: &[ActionStatus]) -> bool {
        ActionStatus::ALL
            .iter()
            .filter(|s| **s != ActionStatus::Ignored)
            .all(|s| self.get(*s) == 0 || statuses.contains(s))
    }

    fn any_error(&self) -> bool {
        ActionStatus::ALL
            .iter()
            .any(|s| s.is_error() && self.get(*s) > 0)
    }

    fn total(&self) -> usize {
        ActionStatus::ALL
            .iter()
            .filter(|s| **s != ActionStatus::Ignored)
            .map(|s| self.get(*s))
            .sum()
    }
}

/// The StatusTransitService's status for a job (STX:79-93, CSTX:126-236):
/// `done` is doneMaterialization, `pending` whether an action is still in
/// flight (READY, SUBMITTED or RUNNING), IGNORED actions are invisible.
/// `None`: the job keeps its status.
pub(crate) fn transit(
    status: JobStatus,
    done: bool,
    counts: &Counts,
    states_without_error: bool,
) -> Option<JobStatus> {
    use ActionStatus::*;
    if status == JobStatus::Ignored {
        return None;
    }
    let finished = counts.all_in(&[Succeeded, Failed, Killed, Timedout, Skipped]);
    let computed = if (done || matches!(status, JobStatus::Failed | JobStatus::Killed)) && finished
    {
        // Rule 1: terminal (CSTX:132-158).
        let total = counts.total();
        if status == JobStatus::Killed {
            JobStatus::Killed
        } else if done && counts.all_in(&[Succeeded, Skipped]) {
            JobStatus::Succeeded
        } else if total > 0 && counts.get(Killed) == total {
            JobStatus::Killed
        } else if total > 0 && counts.get(Failed) == total {
            JobStatus::Failed
        } else {
            JobStatus::DoneWithError
        }
    } else if status.is_terminal() {
        return None;
    } else {
        match status {
            JobStatus::Paused | JobStatus::PausedWithError => {
                if counts.any_error() {
                    JobStatus::PausedWithError
                } else {
                    JobStatus::Paused
                }
            }
            JobStatus::PrepSuspended | JobStatus::PrepPaused | JobStatus::Prep => return None,
            JobStatus::Suspended | JobStatus::SuspendedWithError => {
                if counts.any_error() {
                    JobStatus::SuspendedWithError
                } else {
                    JobStatus::Suspended
                }
            }
            _ => {
                let pending = counts.get(Waiting)
                    + counts.get(Ready)
                    + counts.get(Submitted)
                    + counts.get(Running)
                    > 0;
                // Bottom-up (CSTX:260-278): done, nothing pending, some
                // SUSPENDED, the rest finished.
                if done && !pending && counts.get(Suspended) > 0 {
                    if counts.all_in(&[Suspended, Succeeded]) {
                        JobStatus::Suspended
                    } else {
                        JobStatus::SuspendedWithError
                    }
                } else if counts.any_error() {
                    JobStatus::RunningWithError
                } else {
                    JobStatus::Running
                }
            }
        }
    };
    let computed = if states_without_error {
        computed.without_error()
    } else {
        computed
    };
    (computed != status).then_some(computed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ActionStatus::*;

    fn counts(statuses: &[ActionStatus]) -> Counts {
        let mut c = Counts::default();
        for s in statuses {
            c.add(*s);
        }
        c
    }

    /// the transition table, row by row: every transition it lists
    /// is allowed, and nothing else.
    #[test]
    fn the_transition_table_is_the_fact_sheets() {
        let listed: &[(&str, &[&str])] = &[
            ("", &["WAITING"]),
            (
                "WAITING",
                &["READY", "FAILED", "SKIPPED", "TIMEDOUT", "KILLED"],
            ),
            ("READY", &["SKIPPED", "SUBMITTED", "KILLED"]),
            ("SUBMITTED", &["RUNNING", "FAILED", "KILLED"]),
            ("RUNNING", &["SUSPENDED", "SUCCEEDED", "FAILED", "KILLED"]),
            ("SUSPENDED", &["RUNNING", "KILLED"]),
            ("SKIPPED", &["KILLED", "WAITING"]),
            ("FAILED", &["IGNORED", "WAITING"]),
            ("KILLED", &["IGNORED", "WAITING"]),
            ("TIMEDOUT", &["IGNORED", "WAITING"]),
            ("SUCCEEDED", &["WAITING"]),
            ("IGNORED", &["WAITING"]),
        ];
        let mut allowed = 0;
        for from in std::iter::once(None).chain(ActionStatus::ALL.map(Some)) {
            for to in ActionStatus::ALL {
                let from_name = from.map_or("", ActionStatus::name);
                let expected = listed
                    .iter()
                    .any(|(f, tos)| *f == from_name && tos.contains(&to.name()));
                assert_eq!(
                    action_transition_allowed(from, to),
                    expected,
                    "{from_name} -> {}",
                    to.name()
                );
                allowed += usize::from(expected);
            }
        }
        assert_eq!(allowed, ACTION_TRANSITIONS.len());
    }

    /// Fact 25 (TSTS:98-150, 755-778).
    #[test]
    fn a_done_job_ends_by_its_actions() {
        let t = |c: &[ActionStatus]| transit(JobStatus::Running, true, &counts(c), true);
        assert_eq!(t(&[Succeeded; 3]), Some(JobStatus::Succeeded));
        assert_eq!(
            t(&[Killed, Succeeded, Succeeded]),
            Some(JobStatus::DoneWithError)
        );
        assert_eq!(t(&[Timedout; 3]), Some(JobStatus::DoneWithError));
        assert_eq!(t(&[Succeeded, Skipped]), Some(JobStatus::Succeeded));
        assert_eq!(t(&[]), Some(JobStatus::Succeeded));
        assert_eq!(t(&[Killed, Killed]), Some(JobStatus::Killed));
        assert_eq!(t(&[Failed]), Some(JobStatus::Failed));
        // IGNORED actions are invisible (CSTX:77-78).
        assert_eq!(t(&[Succeeded, Ignored]), Some(JobStatus::Succeeded));
    }

    /// Fact 26 (TSTS:570-641): the error flag only without backward support.
    #[test]
    fn a_running_job_with_errors() {
        let c = counts(&[Killed, Running, Running]);
        assert_eq!(transit(JobStatus::Running, false, &c, true), None);
        assert_eq!(
            transit(JobStatus::Running, false, &c, false),
            Some(JobStatus::RunningWithError)
        );
        // Not sticky (TSTS:533-568).
        let c = counts(&[Succeeded, Running, Suspended]);
        assert_eq!(
            transit(JobStatus::RunningWithError, false, &c, false),
            Some(JobStatus::Running)
        );
    }

    /// Facts 27-29 (TSTS:282-394, 668-753, 780-797).
    #[test]
    fn suspended_paused_and_killed_jobs() {
        let c = counts(&[Succeeded; 2]);
        assert_eq!(
            transit(JobStatus::Suspended, true, &c, true),
            Some(JobStatus::Succeeded)
        );
        let c = counts(&[Suspended, Suspended, Suspended, Succeeded]);
        assert_eq!(
            transit(JobStatus::Running, true, &c, false),
            Some(JobStatus::Suspended)
        );
        let c = counts(&[Killed, Suspended, Suspended, Suspended]);
        assert_eq!(
            transit(JobStatus::Running, true, &c, false),
            Some(JobStatus::SuspendedWithError)
        );
        let c = counts(&[Killed, Running]);
        assert_eq!(
            transit(JobStatus::Paused, false, &c, false),
            Some(JobStatus::PausedWithError)
        );
        let c = counts(&[Succeeded, Running]);
        assert_eq!(
            transit(JobStatus::PausedWithError, false, &c, false),
            Some(JobStatus::Paused)
        );
        let c = counts(&[Succeeded; 3]);
        assert_eq!(transit(JobStatus::Killed, true, &c, true), None);
        // PREP jobs are left alone; PREPSUSPENDED stays (TSTS:451-496).
        assert_eq!(transit(JobStatus::PrepSuspended, false, &c, true), None);
    }
}
