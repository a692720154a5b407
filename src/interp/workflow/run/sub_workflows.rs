//! A sub-workflow action: its child job, submitted as the action starts and
//! run beside its parent on the tree's queue; the action ends when the child
//! does (SubWorkflowActionExecutor).

use super::*;

impl Runner<'_, '_> {
    /// Submits a sub-workflow whose app-path is local as a child job;
    /// whether it did (else the action is scripted as any other).
    pub(super) fn start_sub_workflow(&mut self, r: usize, action: &WorkflowAction) -> bool {
        let Some(resolved) = self.tree.job.run.node(r).resolved.as_ref() else {
            return false;
        };
        let app_path = resolved.get("app-path").unwrap_or("").trim().to_string();
        let Some(loaded) = self
            .world
            .sub_workflows
            .load(&app_path, self.tree.job.path.as_deref())
        else {
            return false;
        };
        // What the child could not be submitted for reaches the action as an
        // ERROR: SubWorkflowActionExecutor.start's convertException names
        // the client's exception (ActionExecutor.java:446-453).
        const SUBMISSION: &str = "OozieClientException";
        let loaded = match loaded {
            Ok(loaded) => loaded,
            Err(message) => {
                self.fail_at_start(r, SUBMISSION, &message);
                return true;
            }
        };
        let depth = self.tree.job.depth + 1;
        let max_depth = self.world.script.settings.subworkflow_max_depth;
        if depth > max_depth {
            // SubWorkflowActionExecutor.start (:147-155): an ERROR, so the
            // error transition. (ActionExecutorException prefixes the code, :87.)
            let message = format!(
                "SUBWF001: Depth [{depth}] cannot exceed maximum subworkflow depth [{max_depth}]"
            );
            self.tree.job.run.node_mut(r).why = Some(Why::Text(format!(
                "the chain of sub-workflows is deeper than oozie.action.subworkflow.max.depth ({max_depth}), or loops back through {app_path}"
            )));
            self.fail_at_start(r, "SUBWF001", &message);
            return true;
        }
        let propagate = action
            .body
            .elements
            .iter()
            .any(|e| e.name == "propagate-configuration");
        let configuration = resolved
            .configuration
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()));
        // Without propagation the child still has the parent's user: the
        // executor copies the proto action configuration, which holds it
        // (SubWorkflowActionExecutor.java:204-205, WorkflowAppService.java:174-176
        // at release-5.2.1).
        let user_only: VarMap;
        let base = if propagate {
            &self.tree.job.conf
        } else {
            user_only = self
                .tree
                .job
                .conf
                .get_key_value("user.name")
                .map(|(k, v)| (k.clone(), v.clone()))
                .into_iter()
                .collect();
            &user_only
        };
        let conf = match job_conf(&loaded, Some(base), configuration, &app_path) {
            Ok(conf) => conf,
            Err(message) => {
                self.fail_at_start(r, SUBMISSION, &message);
                return true;
            }
        };
        let graph = match Graph::new(Arc::clone(&loaded.workflow)) {
            Ok(g) => g,
            Err(problems) => {
                let message = format!(
                    "{}: {}",
                    loaded.path,
                    problems.first().map_or("", |d| d.message.as_str())
                );
                self.fail_at_start(r, SUBMISSION, &message);
                return true;
            }
        };
        // Its id is the next the server gives (UUIDService).
        let id_sequence = self.server.next_id();
        self.tree.child_ids.push(id_sequence);
        let mut child = Job::new(Arc::new(graph), conf, id_sequence, self.now, self.world.pz);
        child.depth = depth;
        child.path = Some(loaded.path.clone());
        child.parent = Some((self.tree.current, r));
        let n = self.tree.job.run.node_mut(r);
        n.external_id = Some(child.run.id.clone());
        n.tracker_uri = Some("local".to_string());
        let start = child.graph.start;
        let k = self.tree.adopt(child);
        // The child starts at once, inside the step that submits it.
        let parent = self.tree.current;
        self.tree.switch_to(k);
        self.signal(vec![(start, Vec::new())]);
        self.tree.switch_to(parent);
        true
    }

    /// Sub-workflow `child` (its file `path`), run by action run `r`, ended
    /// (or cannot go on):
    /// the action ends now, as its child ended.
    pub(super) fn child_ended(&mut self, r: usize, child: Run, path: &str) {
        let ended = child.ended.is_some();
        let behaviour = Behaviour {
            outcome: if child.status == RunStatus::Succeeded {
                Outcome::Ok
            } else {
                Outcome::Error
            },
            // SubWorkflowActionExecutor.end: ERROR, with no code of its own.
            error_code: String::new(),
            error_message: String::new(),
            duration: Some(0),
            external_status: Some(child.status.name().to_string()),
            ..Behaviour::default()
        };
        // (Its parent still has its run: a job gives its own only once
        // every sub-workflow of its has been given.)
        let Some(n) = self.tree.job.run.nodes.get_mut(r) else {
            return;
        };
        n.why = Some(Why::Text(format!(
            "its sub-workflow {} ({}) ended {}",
            child.id,
            path,
            child.status.name()
        )));
        n.child = Some(Box::new(child));
        if self.tree.job.finished {
            return;
        }
        match self.tree.job.live.get_mut(r) {
            Some(Some(live)) if ended => {
                live.behaviour = behaviour;
                self.attempt_start(r);
            }
            // Suspended (or waiting on its own suspended child): the
            // action waits.
            Some(live) => *live = None,
            None => {}
        }
    }
}
