//! Oozie's periodic services: the materialization trigger (CoordMaterializeTriggerService), the status and pause transit services, and recovery (RecoveryService), each on its grid.

use super::*;

impl<'a> Engine<'a> {
    /// The trigger (CoordMaterializeTriggerService.java:150-239): jobs due a materialization, oldest first,
    /// `system.limit` of them, each a CMT.
    pub(super) fn materialization_trigger(&mut self) {
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
    pub(super) fn wake_materialization(&mut self) {
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

    pub(super) fn status_transit(&mut self) {
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
    pub(super) fn pause_transit(&mut self) {
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

    pub(super) fn wake_pause(&mut self) {
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
    pub(super) fn recovery(&mut self) {
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

    pub(super) fn wake_recovery(&mut self) {
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
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{coordinator, history, simulate};
    use super::*;

    /// The StatusTransitService, on its grid from the server's start + 10 s,
    /// makes SUCCEEDED a job whose materialization is done and whose
    /// actions all succeeded (CoordStatusTransitXCommand.java:140-142).
    #[test]
    fn status_transit_ends_a_job_whose_actions_succeeded() {
        let scenario = "start = \"2009-01-01T00:00Z\"\nuntil = \"2009-01-01T01:00Z\"\n[[data]]\nuri = \"hdfs://nn/logs/2009010100\"\n";
        simulate(
            &coordinator("2009-01-01T01:00Z", ""),
            scenario,
            None,
            |engine| {
                assert_eq!(
                    history(engine, None).last(),
                    Some(&("2009-01-01T00:10Z".into(), "SUCCEEDED", Why::StatusTransit))
                );
            },
        );
    }

    /// The materialization trigger selects a job when its next action is
    /// within the lookup interval (CoordMaterializeTriggerService.java:158): the
    /// 01:00 action is created at 00:55, not before.
    #[test]
    fn the_trigger_materializes_within_the_lookup_interval() {
        let scenario = "start = \"2009-01-01T00:00Z\"\nuntil = \"2009-01-01T01:00Z\"\n";
        simulate(
            &coordinator("2009-01-01T03:00Z", ""),
            scenario,
            None,
            |engine| {
                assert_eq!(
                    history(engine, Some(2)),
                    [("2009-01-01T00:55Z".into(), "WAITING", Why::Materialized)]
                );
            },
        );
    }
}
