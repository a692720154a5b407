//! A job as the engine keeps it: its actions, its nominal times, and what
//! its controls let through.

use super::*;

/// Action indexes are positions in `actions`, held only while the action
/// exists: `change` pops deleted actions and drops their indexes from
/// `ready`, `ready_since` and `lost`; queued events and watchers check
/// theirs with `get` and the action's serial before use.
#[allow(
    clippy::indexing_slicing,
    reason = "action indexes are held only while their action exists (see above)"
)]
impl<'a> SimJob<'a> {
    pub(super) fn action(&self, a: usize) -> &SimAction<'a> {
        &self.actions[a]
    }

    pub(super) fn action_mut(&mut self, a: usize) -> &mut SimAction<'a> {
        &mut self.actions[a]
    }
}

impl<'a> SimJob<'a> {
    pub(super) fn new(input: JobInput<'a>, settings: &Settings) -> SimJob<'a> {
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
            scripts: Vec::new(),
            failure: None,
            job,
        }
    }

    /// Nominal time of action `k` (1-based), computed afresh from the start
    /// (CoordMaterializeTransitionXCommand.java:484-492); `None` past the calendar.
    pub(crate) fn nominal(&self, k: usize) -> Option<Millis> {
        if k == 0 {
            return None;
        }
        match self.job.schedule() {
            Schedule::Every(every) => frequency_nominal(self.job, every, k),
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

    /// The nominal time after action `number`'s, `None` past the end
    /// (CoordCommandUtils.java:880-913: equal to the end is not past it).
    pub(super) fn next_nominal(&self, number: usize) -> Option<Millis> {
        let next = self.nominal(number + 1)?;
        (next <= self.end).then_some(next)
    }

    /// Whether the trigger selects this job now (CJB:160-167).
    pub(super) fn selectable(&self, now: Millis, lookup: Millis) -> bool {
        self.selectable_from(lookup).is_some_and(|t| t <= now)
    }

    /// The earliest time the trigger can select this job, as things stand.
    pub(super) fn selectable_from(&self, lookup: Millis) -> Option<Millis> {
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
    pub(super) fn overridden(&self, a: usize) -> bool {
        let action = self.action(a);
        self.scripts
            .iter()
            .any(|script| script.action.names(action.number, action.nominal))
    }

    pub(super) fn script_for(&self, a: usize, default: WorkflowScript) -> WorkflowScript {
        let action = self.action(a);
        let mut script = default;
        for entry in &self.scripts {
            if entry.action.names(action.number, action.nominal) {
                if let Some(s) = entry.status {
                    script.status = s;
                }
                if let Some(d) = entry.duration {
                    script.duration = d;
                }
            }
        }
        script
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{at, coordinator, simulate};
    use super::*;

    /// Nominal times step by the frequency from the start
    /// (CoordMaterializeTransitionXCommand.java:484-492); the next one is past
    /// the end only after it (CoordCommandUtils.java:880-913).
    #[test]
    fn nominal_times_step_from_the_start() {
        let scenario = "start = \"2009-01-01T00:00Z\"\nuntil = \"2009-01-01T00:01Z\"\n";
        simulate(
            &coordinator("2009-01-01T03:00Z", ""),
            scenario,
            None,
            |engine| {
                let job = &engine.jobs[0];
                assert_eq!(job.nominal(0), None);
                assert_eq!(job.nominal(3), Some(at("2009-01-01T02:00Z")));
                assert_eq!(job.next_nominal(2), Some(at("2009-01-01T02:00Z")));
                assert_eq!(job.next_nominal(3), Some(at("2009-01-01T03:00Z")));
                assert_eq!(job.next_nominal(4), None);
            },
        );
    }

    /// A `[[workflow]]` entry scripts the action it names, by number or by
    /// nominal time; the others keep `[workflows]`.
    #[test]
    fn workflow_entries_script_the_actions_they_name() {
        let scenario = "start = \"2009-01-01T00:00Z\"\nuntil = \"2009-01-01T00:01Z\"\n[server]\n\"oozie.service.CoordMaterializeTriggerService.materialization.window\" = 10800\n[[workflow]]\njob = \"c\"\naction = 2\nstatus = \"KILLED\"\n[[workflow]]\njob = \"c\"\nnominal = \"2009-01-01T02:00Z\"\nduration = \"1h\"\n";
        simulate(
            &coordinator("2009-01-01T03:00Z", ""),
            scenario,
            None,
            |engine| {
                let job = &engine.jobs[0];
                let scripts: Vec<WorkflowScript> = (0..3)
                    .map(|a| job.script_for(a, engine.workflows))
                    .collect();
                let default = engine.workflows;
                assert_eq!(
                    scripts,
                    [
                        default,
                        WorkflowScript {
                            status: WorkflowEnd::Killed,
                            ..default
                        },
                        WorkflowScript {
                            duration: 3_600_000,
                            ..default
                        },
                    ]
                );
                assert!(!job.overridden(0) && job.overridden(1) && job.overridden(2));
            },
        );
    }
}
