//! The ready check and an action's workflow (CoordActionReadyXCommand, CoordActionStartXCommand): what starts, how its workflow runs and ends.

use super::*;

impl<'a> Engine<'a> {
    pub(super) fn ready_check(&mut self, j: usize) {
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
    pub(super) fn workflow_for(&mut self, j: usize, a: usize) -> (WorkflowScript, LocalOutcome) {
        let scripted = self.job(j).script_for(a, self.workflows);
        let (app, conf) = match self.job(j).local_job(a) {
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
        let Some(run) = self
            .job(j)
            .run_local(a, &app, &conf, id_sequence, self.now, &self.script)
        else {
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

    pub(super) fn workflow_end(&mut self, j: usize, a: usize, generation: u32) {
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
}

impl SimJob<'_> {
    /// Action `a`'s workflow job when its application is local (and no
    /// `[[workflow]]` scripts it): the application and the job's
    /// configuration, or why it cannot be submitted. (The same each time it
    /// is asked once the action has started: the record's trace asks again.)
    pub(super) fn local_job(&self, a: usize) -> Option<Result<(Arc<SubWorkflow>, VarMap), String>> {
        let job = self;
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

    /// Runs a local workflow application as action `a` at `start`, meeting
    /// what `script` says.
    pub(super) fn run_local(
        &self,
        a: usize,
        app: &SubWorkflow,
        conf: &VarMap,
        id_sequence: u64,
        start: Millis,
        script: &Script,
    ) -> Option<Run> {
        let graph = Arc::new(Graph::new(Arc::clone(&app.workflow)).ok()?);
        Some(workflow_run(
            &graph,
            &RunInput {
                conf,
                start,
                script,
                scope: Scope {
                    job: Some(&self.id),
                    action: Some(self.action(a).number),
                },
                sub_workflows: self.workflows,
                pz: self.job.processing_zone(),
                id_sequence,
            },
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{coordinator, history, simulate};
    use super::*;

    /// Three hourly actions, their data there, each workflow two hours long.
    const SCENARIO: &str = "start = \"2009-01-01T00:00Z\"\nuntil = \"2009-01-01T06:00Z\"\n[server]\n\"oozie.service.CoordMaterializeTriggerService.materialization.window\" = 10800\n[workflows]\nduration = \"2h\"\n[[data]]\nuri = \"hdfs://nn/logs/2009010100\"\n[[data]]\nuri = \"hdfs://nn/logs/2009010101\"\n[[data]]\nuri = \"hdfs://nn/logs/2009010102\"\n";

    /// The ready check starts READY actions, oldest first, while fewer than
    /// the concurrency run (CoordActionReadyXCommand.java:79-100): action 2,
    /// READY at 01:00, starts when action 1 ends at 02:00.
    #[test]
    fn concurrency_holds_ready_actions_until_one_ends() {
        let app = coordinator("2009-01-01T03:00Z", "<concurrency>1</concurrency>");
        simulate(&app, SCENARIO, Some("2009-01-01T01:30Z"), |engine| {
            assert_eq!(engine.jobs[0].actions[1].status, ActionStatus::Ready);
        });
        simulate(&app, SCENARIO, None, |engine| {
            let second: Vec<(String, &str)> = history(engine, Some(2))
                .into_iter()
                .map(|(t, status, _)| (t, status))
                .collect();
            assert_eq!(
                second,
                [
                    ("2009-01-01T00:00Z".into(), "WAITING"),
                    ("2009-01-01T01:00Z".into(), "READY"),
                    ("2009-01-01T02:00Z".into(), "SUBMITTED"),
                    ("2009-01-01T02:00Z".into(), "RUNNING"),
                    ("2009-01-01T04:00Z".into(), "SUCCEEDED"),
                ]
            );
        });
    }

    /// A `[[workflow]]` entry's status is how the action's workflow ends, and
    /// the action takes it (CoordActionUpdateXCommand.java:145-148).
    #[test]
    fn a_scripted_workflow_ends_its_action() {
        let scenario =
            format!("{SCENARIO}[[workflow]]\njob = \"c\"\naction = 1\nstatus = \"FAILED\"\n");
        let app = coordinator("2009-01-01T01:00Z", "");
        simulate(&app, &scenario, None, |engine| {
            assert_eq!(
                history(engine, Some(1)).last(),
                Some(&("2009-01-01T02:00Z".into(), "FAILED", Why::WorkflowEnded))
            );
        });
    }
}
