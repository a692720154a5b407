//! What users do to jobs and actions (suspend, resume, kill, ignore, rerun, change), as Oozie's commands for them do it.

use super::*;
use crate::interp::simulate::scenario::model::ChangeValue;

impl<'a> Engine<'a> {
    pub(super) fn op(&mut self, i: usize) {
        let now = self.now;
        let Some(JobOp {
            job: j,
            command,
            text: mut what,
            ..
        }) = self.ops.get(i).cloned()
        else {
            return;
        };
        if !self.job(j).submitted {
            let submit = self.job(j).submit;
            self.log.ops.push(OpRecord {
                at: now,
                job: j,
                what,
                refused: Some(format!(
                    "E0604: the job does not exist yet (it is submitted at {})",
                    format_utc(datetime(submit))
                )),
            });
            return;
        }
        let result = match &command {
            Command::Suspend => self.suspend(j),
            Command::Resume => self.resume(j),
            Command::Kill(None) => self.kill_job(j),
            Command::Kill(Some(list)) => self.kill_actions(j, list),
            Command::Change(change) => change
                .clone()
                .and_then(|change| self.change(j, change))
                .map(|deleted| {
                    if !deleted.is_empty() {
                        let numbers: Vec<String> = deleted.iter().map(usize::to_string).collect();
                        what.push_str(&format!(" (deleted actions {})", numbers.join(", ")));
                    }
                }),
            Command::Rerun(list) => self.rerun(j, list),
            Command::Ignore(list) => self.ignore(j, list),
        };
        let refused = result.err();
        self.log.ops.push(OpRecord {
            at: now,
            job: j,
            what,
            refused,
        });
        self.wake_job_chains(j);
        self.wake_materialization();
        self.wake_pause();
        self.wake_recovery();
    }

    /// CoordSuspendXCommand (CSUS:101-221).
    pub(super) fn suspend(&mut self, j: usize) -> Result<(), String> {
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
                    if let Some(live) = &mut w.live {
                        live.suspended_since = Some(now);
                    }
                }
                self.set_action_status(j, a, ActionStatus::Suspended, Why::Suspended);
            }
        }
        Ok(())
    }

    /// CoordResumeXCommand (CRES:99-156, RTX:46-60).
    pub(super) fn resume(&mut self, j: usize) -> Result<(), String> {
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
                    match &mut w.live {
                        // Its jobs still run: their end comes later.
                        Some(live) => {
                            let since = live.suspended_since.take().unwrap_or(now);
                            live.paused += now - since;
                        }
                        None => {
                            let due = now.saturating_add(w.remaining);
                            w.due = Some(due);
                            end = Some((due, w.generation));
                        }
                    }
                }
                self.set_action_status(j, a, ActionStatus::Running, Why::Resumed);
                // Their end takes the place it would take ended already.
                let place = self.queue.hold_place();
                if let Some(live) = self
                    .action_mut(j, a)
                    .workflow
                    .as_mut()
                    .and_then(|w| w.live.as_mut())
                {
                    live.end = place;
                }
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
    pub(super) fn kill_job(&mut self, j: usize) -> Result<(), String> {
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

    pub(super) fn end_workflow_killed(&mut self, j: usize, a: usize) {
        let now = self.now;
        if let Some(w) = &mut self.action_mut(j, a).workflow
            && w.ended.is_none()
        {
            w.ended = Some(now);
            w.status = Some(WorkflowEnd::Killed);
            w.due = None;
            w.generation += 1;
            // Its jobs are killed with it: their queued steps find none, and
            // its trace is made again to this moment, with the ids they took.
            if let Some(local) = &mut w.run {
                local.killed = true;
                if let Some(live) = &w.live {
                    local.child_ids = live.tree.child_ids().to_vec();
                }
            }
            w.live = None;
        }
    }

    /// CoordActionsKillXCommand (CAKX:84-140).
    pub(super) fn kill_actions(&mut self, j: usize, list: &[(usize, usize)]) -> Result<(), String> {
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
    pub(super) fn select(&self, j: usize, list: &[(usize, usize)]) -> Result<Vec<usize>, String> {
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
    pub(super) fn ignore(&mut self, j: usize, list: &[(usize, usize)]) -> Result<(), String> {
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
    pub(super) fn rerun(&mut self, j: usize, list: &[(usize, usize)]) -> Result<(), String> {
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
    pub(super) fn change(&mut self, j: usize, change: ChangeValue) -> Result<Vec<usize>, String> {
        let ChangeValue {
            end,
            pause,
            concurrency,
            status,
        } = change;
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
            let allowed = match s {
                StatusChange::Running => matches!(
                    job.status,
                    JobStatus::Failed | JobStatus::Killed | JobStatus::Ignored
                ),
                StatusChange::Ignored => {
                    matches!(job.status, JobStatus::Failed | JobStatus::Killed)
                }
                StatusChange::Other(_) => false,
            };
            if !allowed {
                return Err(format!(
                    "E1015: the status cannot change from {} to {}",
                    job.status.name(),
                    s.name()
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
            let to = if s == StatusChange::Running {
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
            self.set_job_status(j, to, Why::Changed(format!("status={}", s.name())));
        }
        self.wake(Service::Status, self.now);
        Ok(deleted_numbers)
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{coordinator, history, simulate};
    use super::*;

    /// Three WAITING actions (no data), and the ops each test adds.
    const SCENARIO: &str = "start = \"2009-01-01T00:00Z\"\nuntil = \"2009-01-01T01:00Z\"\n[server]\n\"oozie.service.CoordMaterializeTriggerService.materialization.window\" = 10800\n";

    fn op(at: &str, verb: &str, extra: &str) -> String {
        format!("[[op]]\nat = \"{at}\"\njob = \"c\"\ndo = \"{verb}\"\n{extra}")
    }

    fn app() -> String {
        coordinator("2009-01-01T03:00Z", "")
    }

    /// Suspend, then resume: the job's status and back
    /// (CoordSuspendXCommand.java:101-221, CoordResumeXCommand.java:99-156).
    #[test]
    fn suspend_and_resume_the_job() {
        let scenario = format!(
            "{SCENARIO}{}{}",
            op("2009-01-01T00:20Z", "suspend", ""),
            op("2009-01-01T00:40Z", "resume", "")
        );
        simulate(&app(), &scenario, None, |engine| {
            let job: Vec<(String, &str, Why)> = history(engine, None).into_iter().skip(2).collect();
            assert_eq!(
                job,
                [
                    ("2009-01-01T00:20Z".into(), "SUSPENDED", Why::Suspended),
                    ("2009-01-01T00:40Z".into(), "RUNNING", Why::Resumed),
                ]
            );
        });
    }

    /// Kill: the job KILLED, and its actions that have not ended
    /// (CoordKillXCommand.java:102-164).
    #[test]
    fn kill_ends_the_job_and_its_actions() {
        let scenario = format!("{SCENARIO}{}", op("2009-01-01T00:20Z", "kill", ""));
        simulate(&app(), &scenario, None, |engine| {
            assert_eq!(engine.jobs[0].status, JobStatus::Killed);
            assert!(
                engine.jobs[0]
                    .actions
                    .iter()
                    .all(|a| a.status == ActionStatus::Killed)
            );
        });
    }

    /// A new end time deletes the actions at or after it that have not
    /// started (CoordChangeXCommand.java:208-461).
    #[test]
    fn a_new_end_time_deletes_the_actions_after_it() {
        let scenario = format!(
            "{SCENARIO}{}",
            op(
                "2009-01-01T00:20Z",
                "change",
                "value = \"endtime=2009-01-01T01:00Z\"\n"
            )
        );
        simulate(&app(), &scenario, None, |engine| {
            let job = &engine.jobs[0];
            assert_eq!(job.actions.len(), 1);
            assert_eq!(job.end, super::super::fixture::at("2009-01-01T01:00Z"));
            let record = &engine.log.ops[0];
            assert_eq!(
                record.what,
                "change -value endtime=2009-01-01T01:00Z (deleted actions 3, 2)"
            );
            assert_eq!(record.refused, None);
        });
    }

    /// A value Oozie cannot parse is refused with E1015 when the op runs,
    /// and changes nothing (CoordChangeXCommand.java:208-461).
    #[test]
    fn a_change_oozie_cannot_parse_is_refused() {
        let scenario = format!(
            "{SCENARIO}{}",
            op(
                "2009-01-01T00:20Z",
                "change",
                "value = \"concurrency=many\"\n"
            )
        );
        simulate(&app(), &scenario, None, |engine| {
            let job = &engine.jobs[0];
            assert_eq!(
                engine.log.ops[0].refused.as_deref(),
                Some("E1015: invalid concurrency `many`")
            );
            assert_eq!(job.concurrency, 1);
        });
    }
}
