//! The ready check and an action's workflow (CoordActionReadyXCommand, CoordActionStartXCommand): what starts, how its workflow runs and ends.

use super::*;
use crate::interp::workflow::run::ChildIds;

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
            let (local, refused) = match outcome {
                LocalOutcome::Scripted => (None, None),
                LocalOutcome::Local(local) => (Some(local), None),
                LocalOutcome::Refused(why) => (None, Some(why)),
            };
            let Some(local) = local else {
                let due = now.saturating_add(script.duration);
                self.action_mut(j, a).workflow = Some(Workflow {
                    started: now,
                    ended: None,
                    status: None,
                    run: None,
                    live: None,
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
                continue;
            };
            // The workflow job is submitted now and takes the next id; its
            // steps go on the engine's queue, in the place its end took when
            // a run was made at once (queued once the action was RUNNING).
            let (graph, conf, path) = *local;
            let id_sequence = self.next_workflow_id;
            self.next_workflow_id += 1;
            self.action_mut(j, a).workflow = Some(Workflow {
                started: now,
                ended: None,
                status: None,
                run: Some(Box::new(LocalRun {
                    id_sequence,
                    child_ids: Vec::new(),
                    killed: false,
                })),
                live: None,
                refused,
                script,
                due: None,
                remaining: 0,
                generation,
            });
            self.set_action_status(j, a, ActionStatus::Running, Why::WorkflowStarted);
            let place = self.queue.hold_place();
            let pz = self.job(j).job.processing_zone();
            if let Some(w) = &mut self.action_mut(j, a).workflow {
                w.live = Some(Box::new(LiveWorkflow {
                    tree: Tree::new(Arc::new(graph), conf, id_sequence, now, pz, Some(path)),
                    steps: place,
                    end: place,
                    suspended_since: None,
                    paused: 0,
                }));
            }
            self.step_workflow(j, a, None);
        }
    }

    /// Takes a step of action `a`'s workflow jobs (`None`: starts them),
    /// on the engine's queue; when the top job ends, the action learns it.
    pub(super) fn step_workflow(&mut self, j: usize, a: usize, step: Option<JobStep>) {
        let now = self.now;
        let Some(mut live) = self
            .action_mut(j, a)
            .workflow
            .as_mut()
            .and_then(|w| w.live.take())
        else {
            return;
        };
        let Some(job) = self.jobs.get(j) else {
            return;
        };
        let Some(action) = job.actions.get(a) else {
            return;
        };
        let world = World {
            script: &self.script,
            sub_workflows: job.workflows,
            pz: job.job.processing_zone(),
            scope: Scope {
                job: Some(&job.id),
                action: Some(action.number),
            },
        };
        let id_sequence = action
            .workflow
            .as_ref()
            .and_then(|w| w.run.as_ref())
            .map_or(0, |r| r.id_sequence);
        let mut server = EngineServer {
            queue: &mut self.queue,
            next_id: &mut self.next_workflow_id,
            place: live.steps,
            action: (j, a, id_sequence),
        };
        match step {
            None => live.tree.start(&world, &mut server, now),
            Some(step) => live.tree.step(&world, &mut server, now, step),
        }
        if !live.tree.finished() {
            if let Some(w) = &mut self.action_mut(j, a).workflow {
                w.live = Some(live);
            }
            return;
        }
        let LiveWorkflow {
            tree,
            end,
            suspended_since,
            paused,
            ..
        } = *live;
        let child_ids = tree.child_ids().to_vec();
        let run = tree.into_run(&world, &mut server, now);
        let status = match run.status {
            RunStatus::Succeeded => WorkflowEnd::Succeeded,
            RunStatus::Killed => WorkflowEnd::Killed,
            RunStatus::Failed => WorkflowEnd::Failed,
            RunStatus::Suspended | RunStatus::Running => WorkflowEnd::Suspended,
        };
        let serial = action.serial;
        let Some(w) = &mut self.action_mut(j, a).workflow else {
            return;
        };
        w.script = WorkflowScript {
            status,
            duration: now - w.started,
        };
        if let Some(local) = &mut w.run {
            local.child_ids = child_ids;
        }
        // The action takes the end as long after as it was suspended
        // meanwhile (its workflow's end is noticed once it is resumed).
        match suspended_since {
            Some(since) => w.remaining = now + paused - since,
            None => {
                let due = now + paused;
                w.due = Some(due);
                let generation = w.generation;
                self.queue
                    .push_in(due, end, Event::WorkflowEnd(j, a, serial, generation));
            }
        }
    }

    /// What action `a`'s workflow does: a `[[workflow]]` entry's script;
    /// else, when its application is local, its graph and its job's
    /// configuration (the action's resolved configuration, as
    /// CoordActionStartXCommand passes it), to run it; else the scenario's
    /// `[workflows]`.
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
        let Ok(graph) = Graph::new(Arc::clone(&app.workflow)) else {
            return (scripted, LocalOutcome::Scripted);
        };
        let path = app.path.clone();
        (scripted, LocalOutcome::Local(Box::new((graph, conf, path))))
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

    /// Runs action `a`'s local workflow application again from `start`, as
    /// job `id_sequence` with its sub-workflows' `ids`, meeting what
    /// `script` says.
    pub(super) fn run_local(
        &self,
        a: usize,
        id_sequence: u64,
        ids: ChildIds,
        start: Millis,
        script: &Script,
    ) -> Option<Run> {
        let (app, conf) = self.local_job(a)?.ok()?;
        let graph = Arc::new(Graph::new(Arc::clone(&app.workflow)).ok()?);
        Some(workflow_run(
            &graph,
            &RunInput {
                conf: &conf,
                start,
                script,
                scope: Scope {
                    job: Some(&self.id),
                    action: Some(self.action(a).number),
                },
                sub_workflows: self.workflows,
                pz: self.job.processing_zone(),
                id_sequence,
                child_ids: ids,
                path: Some(&app.path),
            },
        ))
    }
}

/// The engine as the server a coordinator action's workflow jobs run in:
/// their steps on its queue, in the place the jobs hold; their ids from its
/// sequence.
struct EngineServer<'q> {
    queue: &'q mut EventQueue<Event>,
    next_id: &'q mut u64,
    place: Place,
    /// (job, action index, its top workflow job's id sequence)
    action: (usize, usize, u64),
}

impl Server for EngineServer<'_> {
    fn schedule(&mut self, at: Millis, step: JobStep) {
        let (j, a, id_sequence) = self.action;
        self.queue
            .push_in(at, self.place, Event::WorkflowStep(j, a, id_sequence, step));
    }

    fn next_id(&mut self) -> u64 {
        let id = *self.next_id;
        *self.next_id += 1;
        id
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{
        at, coordinator, history, local_app, local_apps, record_with, simulate, simulate_with,
    };
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

    /// A local workflow of one java action, two hours long by its node's
    /// script: the scripted workflows' two hours, run from the application.
    const LOCAL: &str = r#"<start to="a"/><action name="a"><java><job-tracker>jt</job-tracker><name-node>nn</name-node><main-class>M</main-class></java><ok to="end"/><error to="end"/></action>"#;
    const TWO_HOURS: &str = "[[node]]\nname = \"a\"\nduration = \"2h\"\n";

    /// Every change of the simulation, in order: (when, action, status).
    fn changes(engine: &Engine) -> Vec<(Millis, Option<usize>, &'static str)> {
        engine
            .log
            .changes
            .iter()
            .map(|c| (c.at, c.action, c.to.name()))
            .collect()
    }

    /// A local workflow's jobs step on the engine's queue, and its end
    /// takes the place the end of a workflow run at once took among the
    /// events of the same instant: with concurrency 1, the ready check at
    /// 02:00 sees action 1 ended and starts action 2, exactly as with a
    /// scripted two-hour workflow.
    #[test]
    fn a_local_workflow_runs_on_the_engine_queue_and_ends_in_its_place() {
        let app = coordinator("2009-01-01T03:00Z", "<concurrency>1</concurrency>");
        let local = local_app(LOCAL);
        let scenario = format!("{SCENARIO}{TWO_HOURS}");
        let mut scripted = Vec::new();
        simulate(&app, &scenario, None, |engine| scripted = changes(engine));
        simulate_with(&app, &local, &scenario, None, |engine| {
            assert_eq!(changes(engine), scripted);
            assert_eq!(
                history(engine, Some(2)).get(2),
                Some(&(
                    "2009-01-01T02:00Z".into(),
                    "SUBMITTED",
                    Why::Started {
                        running: 0,
                        concurrency: 1
                    }
                ))
            );
        });
        // At 01:30 the job is still running: its jobs wait on the queue.
        simulate_with(
            &app,
            &local,
            &scenario,
            Some("2009-01-01T01:30Z"),
            |engine| {
                let workflow = engine.jobs[0].actions[0].workflow.as_ref().unwrap();
                assert!(workflow.live.is_some() && workflow.due.is_none());
                assert_eq!(engine.jobs[0].actions[0].status, ActionStatus::Running);
            },
        );
    }

    /// The jobs run on while their action is suspended; the action takes
    /// their end as long after as it was suspended, as it takes a scripted
    /// workflow's (CoordSuspendXCommand, CoordResumeXCommand): suspended
    /// from 00:30 to 01:30, action 1's two-hour workflow ends it at 03:00.
    #[test]
    fn a_suspended_action_takes_its_local_workflow_end_later() {
        let app = coordinator("2009-01-01T01:00Z", "");
        let local = local_app(LOCAL);
        let ops = "[[op]]\nat = \"2009-01-01T00:30Z\"\njob = \"c\"\ndo = \"suspend\"\n[[op]]\nat = \"2009-01-01T01:30Z\"\njob = \"c\"\ndo = \"resume\"\n";
        let scenario = format!("{SCENARIO}{TWO_HOURS}{ops}");
        let mut scripted = Vec::new();
        simulate(&app, &scenario, None, |engine| scripted = changes(engine));
        simulate_with(&app, &local, &scenario, None, |engine| {
            assert_eq!(changes(engine), scripted);
            assert_eq!(
                history(engine, Some(1)).last(),
                Some(&("2009-01-01T03:00Z".into(), "SUCCEEDED", Why::WorkflowEnded))
            );
        });
    }

    /// The report's trace of a workflow still running is the run as it
    /// stands at the record's time, made again with the ids it was given.
    #[test]
    fn the_trace_of_a_running_local_workflow_stands_at_the_record_time() {
        let app = coordinator("2009-01-01T01:00Z", "");
        let local = local_app(LOCAL);
        let scenario = format!("{SCENARIO}{TWO_HOURS}");
        record_with(
            &app,
            &local,
            &scenario,
            Some("2009-01-01T01:00Z"),
            |record| {
                let trace = record.workflow_trace(0, 0).unwrap();
                assert_eq!(trace.status, RunStatus::Running);
                assert_eq!(trace.id, "0000000-000000000000000-oozie-coordc-W");
                assert_eq!(trace.nodes.len(), 1);
                assert_eq!(
                    trace.nodes[0].status,
                    crate::interp::workflow::run::NodeStatus::Running
                );
            },
        );
    }

    /// A local workflow's end takes the place among the events of its
    /// instant that a workflow run at once took (queued as its action
    /// started), whatever the time its last step was queued. Action 3's
    /// workflow (started at 02:00) ends at 02:55:10, the instant of a
    /// materialization tick queued at 02:50:10, after its last step was
    /// queued (02:54:50): the action ends before the tick materializes, as
    /// with a scripted workflow of the same length. (In the order the
    /// events were queued, the tick would come first.)
    #[test]
    fn a_workflow_end_keeps_its_place_among_the_events_of_its_instant() {
        let app = coordinator("2009-01-01T06:00Z", "<concurrency>2</concurrency>");
        let local = local_app(
            r#"<start to="a"/><action name="a"><java><job-tracker>jt</job-tracker><name-node>nn</name-node><main-class>M</main-class></java><ok to="b"/><error to="end"/></action><action name="b"><java><job-tracker>jt</job-tracker><name-node>nn</name-node><main-class>M</main-class></java><ok to="end"/><error to="end"/></action>"#,
        );
        let scenario = SCENARIO.replace("duration = \"2h\"", "duration = \"3310s\"")
            + "[[node]]\nname = \"a\"\nduration = \"3290s\"\n[[node]]\nname = \"b\"\nduration = \"20s\"\n";
        let mut scripted = Vec::new();
        simulate(&app, &scenario, None, |engine| scripted = changes(engine));
        simulate_with(&app, &local, &scenario, None, |engine| {
            assert_eq!(changes(engine), scripted);
            let tick = at("2009-01-01T02:55Z") + 10_000;
            let at_tick: Vec<(Option<usize>, &str)> = changes(engine)
                .into_iter()
                .filter(|&(t, _, _)| t == tick)
                .map(|(_, action, status)| (action, status))
                .collect();
            assert_eq!(
                at_tick,
                [
                    (Some(2), "SUCCEEDED"),
                    (Some(3), "WAITING"),
                    (Some(4), "WAITING"),
                    (Some(5), "WAITING")
                ]
            );
        });
    }

    /// A workflow killed with its coordinator job stands in the report as
    /// it was killed (CoordKillXCommand kills the workflow jobs), and its
    /// sub-workflow keeps the id it was given when it was submitted: action
    /// 1's child, submitted at 01:30 after action 2's job took id 1, is 2.
    #[test]
    fn a_killed_workflow_trace_stands_at_the_kill_with_its_ids() {
        let java = |name: &str, to: &str| {
            format!(
                r#"<action name="{name}"><java><job-tracker>jt</job-tracker><name-node>nn</name-node><main-class>M</main-class></java><ok to="{to}"/><error to="end"/></action>"#
            )
        };
        let top = format!(
            r#"<start to="a"/>{}<action name="c"><sub-workflow><app-path>child</app-path></sub-workflow><ok to="end"/><error to="end"/></action>"#,
            java("a", "c")
        );
        let child = format!(r#"<start to="z"/>{}"#, java("z", "end"));
        let local = local_apps(&[("child", child.as_str()), ("", top.as_str())]);
        let app = coordinator("2009-01-01T02:00Z", "<concurrency>2</concurrency>");
        let scenario = format!(
            "{SCENARIO}[[node]]\nname = \"a\"\nduration = \"90m\"\n[[node]]\nname = \"z\"\nduration = \"1h\"\n[[op]]\nat = \"2009-01-01T02:00Z\"\njob = \"c\"\ndo = \"kill\"\n"
        );
        record_with(&app, &local, &scenario, None, |record| {
            let trace = record.workflow_trace(0, 0).unwrap();
            assert_eq!(trace.status, RunStatus::Killed);
            assert_eq!(trace.ended, Some(at("2009-01-01T02:00Z")));
            let c = trace.nodes.iter().find(|n| n.name == "c").unwrap();
            let child = c.child.as_deref().unwrap();
            assert_eq!(child.id, "0000002-000000000000000-oozie-coordc-W");
            assert_eq!(child.status, RunStatus::Killed);
            let second = record.workflow_trace(0, 1).unwrap();
            assert_eq!(second.id, "0000001-000000000000000-oozie-coordc-W");
        });
    }

    /// A resumed action's workflow end takes the place it would have taken
    /// queued at the resume, after the status change's own tick: with the
    /// status transit every 15 minutes, action 2 (01:00, a 1750 s workflow)
    /// suspended from 01:15 to 01:16 ends its job when a scripted workflow
    /// of the same length does.
    #[test]
    fn a_resumed_local_workflow_ends_in_the_place_of_its_resume() {
        let app = coordinator("2009-01-01T02:00Z", "<concurrency>2</concurrency>");
        let local = local_app(LOCAL);
        let scenario = SCENARIO
            .replace("duration = \"2h\"", "duration = \"1750s\"")
            .replace(
                "[server]\n",
                "[server]\n\"oozie.service.StatusTransitService.statusTransit.interval\" = 900\n",
            )
            + "[[node]]\nname = \"a\"\nduration = \"1750s\"\n[[op]]\nat = \"2009-01-01T01:15Z\"\njob = \"c\"\ndo = \"suspend\"\n[[op]]\nat = \"2009-01-01T01:16Z\"\njob = \"c\"\ndo = \"resume\"\n";
        let mut scripted = Vec::new();
        simulate(&app, &scenario, None, |engine| scripted = changes(engine));
        simulate_with(&app, &local, &scenario, None, |engine| {
            assert_eq!(changes(engine), scripted);
        });
    }

    /// A relative sub-workflow app-path in a coordinator action's workflow
    /// is read beside that workflow's own file (`app/child` for `child`
    /// in `app/workflow.xml`), as a sub-workflow's own are, not beside the
    /// coordinator.
    #[test]
    fn a_relative_sub_workflow_is_read_beside_the_action_workflow() {
        let top = r#"<start to="c"/><action name="c"><sub-workflow><app-path>child</app-path></sub-workflow><ok to="end"/><error to="end"/></action>"#;
        let child = r#"<start to="z"/><action name="z"><java><job-tracker>jt</job-tracker><name-node>nn</name-node><main-class>M</main-class></java><ok to="end"/><error to="end"/></action>"#;
        let local = local_apps(&[("app/child", child), ("app", top)]);
        let app = coordinator("2009-01-01T01:00Z", "");
        record_with(&app, &local, SCENARIO, None, |record| {
            let trace = record.workflow_trace(0, 0).unwrap();
            let c = &trace.nodes[0];
            let child = c.child.as_deref().unwrap();
            assert_eq!(child.nodes[0].name, "z");
            assert_eq!(trace.status, RunStatus::Succeeded);
        });
    }
}
