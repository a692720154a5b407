//! A sub-workflow action: its child job, run nested to its end (SubWorkflowActionExecutor).

use super::*;

impl<'r, 'w> Runner<'r, 'w> {
    /// Runs a sub-workflow whose app-path is local as a child job; whether
    /// it did (else the action is scripted as any other).
    pub(super) fn start_sub_workflow(&mut self, r: usize, action: &WorkflowAction) -> bool {
        let Some(resolved) = self.run.node(r).resolved.as_ref() else {
            return false;
        };
        let app_path = resolved.get("app-path").unwrap_or("").trim().to_string();
        let Some(loaded) = self.input.sub_workflows.load(&app_path, self.nesting.path) else {
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
        let depth = self.nesting.depth + 1;
        let max_depth = self.input.script.settings.subworkflow_max_depth;
        if depth > max_depth {
            // SubWorkflowActionExecutor.start (:147-155): an ERROR, so the
            // error transition. (ActionExecutorException prefixes the code, :87.)
            let message = format!(
                "SUBWF001: Depth [{depth}] cannot exceed maximum subworkflow depth [{max_depth}]"
            );
            self.run.node_mut(r).why = Some(Why::Text(format!(
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
        let base = propagate.then_some(self.input.conf);
        let conf = match job_conf(&loaded, base, configuration, &app_path) {
            Ok(conf) => conf,
            Err(message) => {
                self.fail_at_start(r, SUBMISSION, &message);
                return true;
            }
        };
        let graph = match Graph::new(&loaded.workflow) {
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
        let child_input = RunInput {
            conf: &conf,
            start: self.now,
            script: self.input.script,
            scope: self.input.scope,
            sub_workflows: self.input.sub_workflows,
            pz: self.input.pz,
            id_sequence: self.input.id_sequence + self.run.ids_used,
        };
        let nesting = Nesting {
            depth,
            fs: &self.fs,
            path: Some(&loaded.path),
            budget: self.nesting.budget,
        };
        let mut child = run_nested(&graph, &child_input, &nesting);
        self.run.ids_used += child.ids_used;
        // The child runs at once, so what its actions did to the file
        // system is there for the parent from the child's start.
        if let Some(fs) = child.fs.take() {
            self.fs = Cow::Owned(fs);
        }
        // The action ends when its child does, as the child ended.
        let behaviour = Behaviour {
            outcome: if child.status == RunStatus::Succeeded {
                Outcome::Ok
            } else {
                Outcome::Error
            },
            // SubWorkflowActionExecutor.end: ERROR, with no code of its own.
            error_code: String::new(),
            error_message: String::new(),
            duration: child.ended.map(|end| end - self.now),
            external_status: Some(child.status.name().to_string()),
            ..Behaviour::default()
        };
        let n = self.run.node_mut(r);
        n.external_id = Some(child.id.clone());
        n.tracker_uri = Some("local".to_string());
        n.why = Some(Why::Text(format!(
            "its sub-workflow {} ({}) ended {}",
            child.id,
            loaded.path,
            child.status.name()
        )));
        let ended = child.ended.is_some();
        n.child = Some(Box::new(child));
        match self.live.get_mut(r) {
            Some(Some(live)) if ended => {
                live.behaviour = behaviour;
                self.attempt_start(r);
            }
            // Suspended (or waiting on its own suspended child): the
            // action waits.
            Some(live) => *live = None,
            None => {}
        }
        true
    }
}
