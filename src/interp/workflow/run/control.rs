//! The control nodes as Oozie's SignalXCommand walks them: start, decision (its predicates in order), fork, join, kill and end.

use super::*;

impl Runner<'_, '_> {
    /// Enters each (node, forks) in turn, and every node they lead to in
    /// this instant: control nodes take no time.
    pub(super) fn signal(&mut self, start: Vec<(usize, Forks)>) {
        let mut pending: std::collections::VecDeque<(usize, Forks)> = start.into();
        while let Some((node, forks)) = pending.pop_front() {
            if self.tree.job.finished {
                return;
            }
            let left = self.tree.budget;
            if left == 0 {
                self.fail(
                    "E0000",
                    &format!(
                        "coordc stops a job and its sub-workflows after {MAX_NODE_RUNS} node executions: a sub-workflow that runs itself more than once fans out without end"
                    ),
                );
                return;
            }
            self.tree.budget = left - 1;
            let graph = Arc::clone(&self.tree.job.graph);
            let name = graph.name(node);
            match graph.nodes.get(node).unwrap_or(&Kind::End) {
                Kind::Action { .. } => self.start_action(node, forks),
                Kind::Decision { cases, default } => {
                    let r = self.new_node_run(node, forks.len());
                    match self.decide(&graph, node, cases, *default) {
                        Ok((to, why)) => {
                            // DecisionActionExecutor: external status the
                            // chosen node, ids "-".
                            let to_name = graph.name(to).to_string();
                            let n = self.tree.job.run.node_mut(r);
                            n.why = Some(why);
                            n.external_id = Some("-".to_string());
                            n.tracker_uri = Some("-".to_string());
                            n.external_status = Some(to_name);
                            self.close(r, NodeStatus::Ok, Some(to));
                            pending.push_back((to, forks));
                        }
                        Err((why, message)) => {
                            let n = self.tree.job.run.node_mut(r);
                            n.why = Some(why);
                            n.error_code = Some(EL_ERROR.to_string());
                            n.error_message = Some(message.clone());
                            self.close(r, NodeStatus::Failed, None);
                            self.fail(EL_ERROR, &message);
                        }
                    }
                }
                Kind::Fork { paths } => {
                    let r = self.new_node_run(node, forks.len());
                    self.close(r, NodeStatus::Ok, None);
                    // (LiteWorkflowInstance records a fork's transition as `*`.)
                    self.tree.job.run.node_mut(r).transition = Some("*".to_string());
                    self.tree.job.activations.push(Activation {
                        expected: paths.len(),
                        arrived: 0,
                    });
                    let activation = self.tree.job.activations.len() - 1;
                    for &path in paths {
                        let mut inner = forks.clone();
                        inner.push(activation);
                        pending.push_back((path, inner));
                    }
                }
                Kind::Join { to } => {
                    let mut outer = forks;
                    let Some(activation) = outer.pop() else {
                        let r = self.new_node_run(node, 0);
                        self.close(r, NodeStatus::Failed, None);
                        self.fail("E0742", "a join was reached outside of any fork");
                        return;
                    };
                    // The join's action is made when the last path
                    // arrives (ControlNodeHandler.enter).
                    // (Made by its fork, above, before any of its paths ran.)
                    let Some(a) = self.tree.job.activations.get_mut(activation) else {
                        continue;
                    };
                    a.arrived += 1;
                    if a.arrived == a.expected {
                        let join = self.new_node_run(node, outer.len());
                        self.close(join, NodeStatus::Ok, Some(*to));
                        pending.push_back((*to, outer));
                    }
                }
                Kind::Kill => {
                    let r = self.new_node_run(node, forks.len());
                    let Some(message) = graph.kill_message(node) else {
                        continue;
                    };
                    let text = render_in(
                        Library::Workflow,
                        message,
                        &self.tree.job.conf,
                        Some(&Functions {
                            run: self.view(),
                            current: name,
                        }),
                        self.world.pz,
                    )
                    .map(Cow::into_owned);
                    self.close(r, NodeStatus::Ok, None);
                    self.tree.job.run.end_node = Some(name.to_string());
                    // SignalXCommand (:314-343): the message on the kill
                    // node's action, E0729; one that cannot be evaluated is
                    // E0756 and the action ERROR. The job is KILLED either way.
                    let (code, message) = match text {
                        Ok(text) => {
                            self.tree.job.run.kill_message = Some(text.clone());
                            ("E0729", text)
                        }
                        Err(d) => {
                            self.tree.job.run.node_mut(r).status = NodeStatus::Error;
                            (
                                "E0756",
                                format!(
                                    "E0756: Exception parsing Kill node message [{}]",
                                    d.message
                                ),
                            )
                        }
                    };
                    let n = self.tree.job.run.node_mut(r);
                    n.error_code = Some(code.to_string());
                    n.error_message = Some(message);
                    // (Oozie's job has no error of its own: the report's is
                    // what led here, the last action in error, if any.)
                    let cause = self.tree.job.last_error_node.as_ref().and_then(|name| {
                        self.tree
                            .job
                            .run
                            .nodes
                            .iter()
                            .rev()
                            .find(|n| &n.name == name)
                    });
                    self.tree.job.run.error_code = cause.and_then(|n| n.error_code.clone());
                    self.tree.job.run.error_message = cause.and_then(|n| n.error_message.clone());
                    self.finish(RunStatus::Killed);
                }
                Kind::End => {
                    let r = self.new_node_run(node, forks.len());
                    self.close(r, NodeStatus::Ok, None);
                    self.tree.job.run.end_node = Some(name.to_string());
                    self.finish(RunStatus::Succeeded);
                }
            }
        }
    }

    /// The first case whose predicate is `true`, else the default; each
    /// predicate's value. Every predicate is evaluated (Oozie evaluates the
    /// whole `<switch>` before it reads the cases), so an EL error in any
    /// of them fails the job.
    pub(super) fn decide(
        &self,
        graph: &Graph,
        node: usize,
        cases: &[usize],
        default: usize,
    ) -> Result<(usize, Why), (Why, String)> {
        let functions = Functions {
            run: self.view(),
            current: graph.name(node),
        };
        let mut predicates = Vec::with_capacity(cases.len());
        let mut taken = None;
        let mut error = None;
        for (i, (text, to)) in graph.predicates(node).zip(cases).enumerate() {
            let value = render_in(
                Library::Workflow,
                text,
                &self.tree.job.conf,
                Some(&functions),
                self.world.pz,
            )
            .map(|v| v.trim().to_string())
            .map_err(|d| d.message.clone());
            if let Err(e) = &value {
                error.get_or_insert_with(|| e.clone());
            }
            // DecisionActionExecutor: only the text `true` matches.
            if taken.is_none() && value.as_deref() == Ok("true") {
                taken = Some(i);
            }
            predicates.push(Predicate {
                to: graph.name(*to).to_string(),
                text: text.text().to_string(),
                value,
            });
        }
        let to = taken.and_then(|i| cases.get(i)).map_or(default, |&to| to);
        let why = Why::Decision { predicates, taken };
        match error {
            Some(e) => Err((why, e)),
            None => Ok((to, why)),
        }
    }
}
