//! A job's submission and materialization: its actions created (CoordSubmitXCommand, CoordMaterializeTransitionXCommand).

use super::*;

impl<'a> Engine<'a> {
    pub(super) fn submit(&mut self, j: usize) {
        self.log.changes.push(Change {
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
    pub(super) fn materialize(&mut self, j: usize) {
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

    pub(super) fn create_action(&mut self, j: usize, action: Action<'a>) {
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
        self.log.changes.push(Change {
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
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{JOB, coordinator, history, simulate};
    use super::*;

    const SCENARIO: &str = "start = \"2009-01-01T00:00Z\"\nuntil = \"2009-01-01T00:30Z\"\n";

    /// Submission queues the first materialization (CoordSubmitXCommand.java:325-329),
    /// which creates the actions of one materialization window from the
    /// start, each WAITING (CoordMaterializeTransitionXCommand.java:236-248).
    #[test]
    fn submission_materializes_the_first_window() {
        let app = coordinator("2009-01-01T03:00Z", "");
        simulate(&app, SCENARIO, None, |engine| {
            assert_eq!(engine.jobs[0].id, JOB);
            assert_eq!(
                history(engine, None),
                [
                    ("2009-01-01T00:00Z".into(), "PREP", Why::Submitted),
                    (
                        "2009-01-01T00:00Z".into(),
                        "RUNNING",
                        Why::FirstMaterialization
                    ),
                ]
            );
            assert_eq!(
                history(engine, Some(1)),
                [("2009-01-01T00:00Z".into(), "WAITING", Why::Materialized)]
            );
            // The window is an hour (oozie-default.xml): the 01:00 action waits
            // for the trigger's lookup.
            assert_eq!(engine.jobs[0].actions.len(), 1);
        });
    }

    /// A longer `materialization.window` creates more actions at once, up
    /// to the job's end (CoordMaterializeTransitionXCommand.java:236-248).
    #[test]
    fn the_window_setting_sets_how_many_actions_one_run_creates() {
        let app = coordinator("2009-01-01T03:00Z", "");
        let scenario = format!(
            "{SCENARIO}[server]\n\"oozie.service.CoordMaterializeTriggerService.materialization.window\" = 10800\n"
        );
        simulate(&app, &scenario, None, |engine| {
            let nominals: Vec<usize> = engine.jobs[0].actions.iter().map(|a| a.number).collect();
            assert_eq!(nominals, [1, 2, 3]);
            assert!(engine.jobs[0].done);
        });
    }
}
