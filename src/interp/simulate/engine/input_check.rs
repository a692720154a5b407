//! The input check of a waiting action (CoordActionInputCheckXCommand): its data, the skip and timeout rules, and when it looks again.

use super::*;

impl<'a> Engine<'a> {
    /// Starts a check chain: one check at `at`.
    pub(super) fn queue_check(&mut self, j: usize, a: usize, at: Millis) {
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
    pub(super) fn wake_chain(&mut self, j: usize, a: usize) {
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

    pub(super) fn wake_job_chains(&mut self, j: usize) {
        for a in 0..self.job(j).actions.len() {
            if self.action(j, a).status == ActionStatus::Waiting {
                self.wake_chain(j, a);
            }
        }
    }

    pub(super) fn input_check(&mut self, j: usize, a: usize) {
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
    pub(super) fn next_change(&self, j: usize, a: usize, base: Millis) -> Option<Millis> {
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
    pub(super) fn skip_rule(&mut self, j: usize, a: usize) -> Option<Why> {
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
    pub(super) fn check_inputs(&mut self, j: usize, a: usize, waited: i64) -> (Option<Why>, bool) {
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
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{at, coordinator, history, simulate};
    use super::*;

    const APP_END: &str = "2009-01-01T01:00Z";

    /// An action whose inputs are there is READY at its first check
    /// (CoordActionInputCheckXCommand.java:192-194), and the ready check
    /// runs at once (CoordActionInputCheckXCommand.java:443-461): SUBMITTED,
    /// then RUNNING once its workflow starts.
    #[test]
    fn present_inputs_make_an_action_ready() {
        let scenario = "start = \"2009-01-01T00:00Z\"\nuntil = \"2009-01-01T00:05Z\"\n[[data]]\nuri = \"hdfs://nn/logs/2009010100\"\n";
        simulate(&coordinator(APP_END, ""), scenario, None, |engine| {
            let statuses: Vec<(&str, Why)> = history(engine, Some(1))
                .into_iter()
                .map(|(_, status, why)| (status, why))
                .collect();
            assert_eq!(
                statuses,
                [
                    ("WAITING", Why::Materialized),
                    ("READY", Why::InputsPresent(1)),
                    (
                        "SUBMITTED",
                        Why::Started {
                            running: 0,
                            concurrency: 1
                        }
                    ),
                    ("RUNNING", Why::WorkflowStarted),
                ]
            );
        });
    }

    /// No check runs before the action's nominal time
    /// (CoordActionInputCheckXCommand.java:98-109): created early, it is READY
    /// only at 00:00.
    #[test]
    fn no_check_runs_before_the_nominal_time() {
        let scenario = "start = \"2008-12-31T23:00Z\"\nuntil = \"2009-01-01T00:05Z\"\n[[data]]\nuri = \"hdfs://nn/logs/2009010100\"\n";
        simulate(&coordinator(APP_END, ""), scenario, None, |engine| {
            let history = history(engine, Some(1));
            let ready = history.iter().find(|(_, status, _)| *status == "READY");
            assert_eq!(ready.map(|(t, _, _)| t.as_str()), Some("2009-01-01T00:00Z"));
            assert!(engine.jobs[0].actions[0].created < at("2009-01-01T00:00Z"));
        });
    }

    /// Missing inputs past the timeout: TIMEDOUT, the wait counted in whole
    /// minutes from the later of the nominal time and the action's creation
    /// (CoordActionInputCheckXCommand.java:269-275), here 100 ms after the
    /// submission (CoordSubmitXCommand.java:325-329).
    #[test]
    fn an_action_times_out_when_its_inputs_do_not_come() {
        let scenario = "start = \"2009-01-01T00:00Z\"\nuntil = \"2009-01-01T00:30Z\"\n";
        let app = coordinator(APP_END, "<timeout>10</timeout>");
        simulate(&app, scenario, None, |engine| {
            assert_eq!(
                history(engine, Some(1)).last(),
                Some(&(
                    "2009-01-01T00:11Z".into(),
                    "TIMEDOUT",
                    Why::TimedOut {
                        waited: 11,
                        timeout: 10,
                        base: at("2009-01-01T00:00Z") + COMMAND_DELAY
                    }
                ))
            );
        });
    }
}
