//! An action node's life (ActionStartXCommand, ActionEndXCommand): its definition resolved, its attempts, user and transient retries, its end, the file system commands of an fs action.

use super::*;

impl Runner<'_, '_> {
    pub(super) fn start_action(&mut self, node: usize, forks: Forks) {
        let graph = Arc::clone(&self.tree.job.graph);
        let Some(action) = graph.action(node) else {
            return;
        };
        let r = self.new_node_run(node, forks.len());
        let name = graph.name(node);
        let resolved = self.resolve(action, name);
        let resolved = match resolved {
            Ok(resolved) => resolved,
            Err(message) => {
                // ActionStartXCommand: the action FAILED, the job too; no
                // error transition.
                let n = self.tree.job.run.node_mut(r);
                n.error_code = Some(EL_ERROR.to_string());
                n.error_message = Some(message.clone());
                n.why = Some(Why::Text(format!(
                    "its definition's EL cannot be evaluated: {message}"
                )));
                self.close(r, NodeStatus::Failed, None);
                self.fail(EL_ERROR, &message);
                return;
            }
        };
        let behaviour = self.world.script.behaviour(name, self.world.scope);
        let (user_retry_max, user_retry_interval) = match self.user_retries(&resolved) {
            Ok(retries) => retries,
            Err(message) => {
                // LiteWorkflowStoreService (:150-178): Integer.parseInt
                // fails the job with E0700 as the node is entered.
                let n = self.tree.job.run.node_mut(r);
                n.error_code = Some("E0700".to_string());
                n.error_message = Some(message.clone());
                self.close(r, NodeStatus::Failed, None);
                self.fail("E0700", &message);
                return;
            }
        };
        let exponential = resolved
            .get("@retry-policy")
            .is_some_and(|p| p.trim().eq_ignore_ascii_case("exponential"));
        self.tree.job.run.node_mut(r).resolved = Some(resolved);
        if action.kind.name != "fs" {
            self.apply_fs_commands(r, false);
        }
        // (`new_node_run` made `r`'s slot.)
        if let Some(live) = self.tree.job.live.get_mut(r) {
            *live = Some(Live {
                behaviour,
                attempts: 0,
                user_retry_max,
                user_retry_interval,
                exponential,
                forks,
            });
        }
        if action.kind.name == "sub-workflow" && self.start_sub_workflow(r, action) {
            return;
        }
        self.attempt_start(r);
    }

    /// The action's `retry-max` (capped by the server; `None` without the
    /// attribute) and `retry-interval` (minutes; Oozie's default 10), read
    /// as Java ints; or why they are not numbers (E0700).
    pub(super) fn user_retries(
        &self,
        resolved: &Resolved,
    ) -> Result<(Option<u32>, Millis), String> {
        let int = |attribute: &str| -> Result<Option<i32>, String> {
            match resolved.get(attribute) {
                None => Ok(None),
                Some(text) => text.trim().parse::<i32>().map(Some).map_err(|_| {
                    format!(
                        "E0700: XML error, {} [{text}] is not an integer",
                        attribute.trim_start_matches('@')
                    )
                }),
            }
        };
        let cap = self.world.script.settings.user_retry_max;
        let max = int("@retry-max")?.map(|m| m.clamp(0, cap.min(i32::MAX as u32) as i32) as u32);
        let interval = int("@retry-interval")?.map_or(10, |m| i64::from(m.max(0)));
        Ok((max, interval * 60_000))
    }

    pub(super) fn attempt_start(&mut self, r: usize) {
        let node = self.tree.job.run.node(r).node;
        let graph = Arc::clone(&self.tree.job.graph);
        let Some(action) = graph.action(node) else {
            return;
        };
        let Some(Some(live)) = self.tree.job.live.get_mut(r) else {
            return;
        };
        live.attempts += 1;
        let duration = live.behaviour.duration_of(&action.kind.name);
        self.tree.job.external_ids += 1;
        let n = self.tree.job.run.node_mut(r);
        if action.kind.name == "fs" {
            // FsActionExecutor runs in the server: no external job.
            n.external_id.get_or_insert_with(|| "-".to_string());
            n.tracker_uri.get_or_insert_with(|| "-".to_string());
        }
        n.external_id.get_or_insert_with(|| {
            format!(
                "job_{:013}_{:04}",
                self.tree.job.id_sequence, self.tree.job.external_ids
            )
        });
        n.tracker_uri.get_or_insert_with(|| {
            format!(
                "http://coordc:8088/proxy/application_{:013}_{:04}/",
                self.tree.job.id_sequence, self.tree.job.external_ids
            )
        });
        self.push(self.now.saturating_add(duration), Step::AttemptEnd(r));
    }

    pub(super) fn attempt_end(&mut self, r: usize) {
        let node = self.tree.job.run.node(r).node;
        let graph = Arc::clone(&self.tree.job.graph);
        let (Some(action), Some(&Kind::Action { ok, error })) =
            (graph.action(node), graph.nodes.get(node))
        else {
            return;
        };
        let Some(Some(live)) = self.tree.job.live.get(r) else {
            return;
        };
        if self.tree.job.run.node(r).status != NodeStatus::Running {
            return;
        }
        let settings = self.world.script.settings;
        let retries = self.tree.job.run.node(r).retries;
        let transient = live.attempts <= live.behaviour.transient_failures;
        if transient && live.user_retry_max.is_none() {
            if retries < settings.retries_max {
                // ActionXCommand.handleTransient: the server retries.
                let at = self.now.saturating_add(settings.retry_interval);
                self.tree.job.run.node_mut(r).retries += 1;
                self.push(at, Step::RetryStart(r));
                return;
            }
            // ActionXCommand.handleNonTransient: START_MANUAL, the job
            // SUSPENDED until a user resumes it.
            let failures = live.behaviour.transient_failures;
            let code = Some(TRANSIENT_ERROR.to_string());
            let message = Some(format!(
                "a transient error, and the server's {} retries (oozie.action.retries.max) ran out",
                settings.retries_max
            ));
            let n = self.tree.job.run.node_mut(r);
            n.status = NodeStatus::StartManual;
            n.error_code = code.clone();
            n.error_message = message.clone();
            n.why = Some(Why::Text(format!(
                "{failures} transient failure(s): the server retried {} times, then suspended the job",
                settings.retries_max
            )));
            self.tree.job.run.error_code = code;
            self.tree.job.run.error_message = message;
            self.finish(RunStatus::Suspended);
            return;
        }
        let behaviour = &live.behaviour;
        let failed = transient || behaviour.outcome == Outcome::Error;
        if failed {
            let (code, message) = if transient {
                (
                    TRANSIENT_ERROR.to_string(),
                    "a retryable error (the scenario's transient_failures)".to_string(),
                )
            } else {
                (
                    behaviour.error_code.clone(),
                    behaviour.error_message.clone(),
                )
            };
            // ActionXCommand.handleUserRetry: an error whose code the server
            // retries, while the action has retries left, starts it again.
            let user_retry_max = live.user_retry_max.unwrap_or(0);
            if retries < user_retry_max && USER_RETRY_CODES.contains(&code.as_str()) {
                let delay = live.user_retry_delay(retries);
                let at = self.now.saturating_add(delay);
                self.tree.job.run.node_mut(r).retries += 1;
                self.push(at, Step::RetryStart(r));
                return;
            }
            if retries > 0 {
                self.tree.job.run.node_mut(r).why = Some(Why::Text(format!(
                    "error {code} after {retries} user retr{} (retry-max {}, the server's cap {})",
                    if retries == 1 { "y" } else { "ies" },
                    user_retry_max,
                    settings.user_retry_max
                )));
            }
            // (A failed fs action's external status is ERROR:
            // ActionXCommand.handleError's setExecutionData("ERROR").)
            let external = behaviour
                .external_status
                .clone()
                .or_else(|| (action.kind.name == "fs").then(|| "ERROR".to_string()));
            self.tree.job.run.node_mut(r).external_status = external;
            self.error(r, error, &code, &message);
            return;
        }
        let behaviour = behaviour.clone();
        let forks = live.forks.clone();
        let captures = action
            .body
            .elements
            .iter()
            .any(|e| e.name == "capture-output");
        let n = self.tree.job.run.node_mut(r);
        if captures {
            n.action_data = behaviour.action_data.clone();
        }
        n.counters = behaviour.counters.clone();
        // (FsActionExecutor runs in the server: its external status is OK,
        // FsActionExecutor.java:675; a Hadoop job's is SUCCEEDED.)
        let synchronous = action.kind.name == "fs";
        n.external_status = Some(
            behaviour
                .external_status
                .unwrap_or_else(|| if synchronous { "OK" } else { "SUCCEEDED" }.to_string()),
        );
        if n.retries > 0 {
            n.why = Some(Why::Text(format!(
                "succeeded after {} retr{}",
                n.retries,
                if n.retries == 1 { "y" } else { "ies" }
            )));
        }
        if action.kind.name == "fs" {
            self.apply_fs_commands(r, true);
        }
        self.close(r, NodeStatus::Ok, Some(ok));
        self.signal(vec![(ok, forks)]);
    }

    /// Action run `r` ends in ERROR and takes its `error` transition.
    /// (Only from the event loop: a node that fails as it starts fails
    /// through [`Runner::fail_at_start`], so that no path of nodes recurses.)
    pub(super) fn error(&mut self, r: usize, to: usize, code: &str, message: &str) {
        let forks = self
            .tree
            .job
            .live
            .get(r)
            .and_then(Option::as_ref)
            .map(|l| l.forks.clone())
            .unwrap_or_default();
        let n = self.tree.job.run.node_mut(r);
        // (A failed sub-workflow leaves its action without a code.)
        n.error_code = (!code.is_empty()).then(|| code.to_string());
        n.error_message = (!message.is_empty()).then(|| message.to_string());
        n.external_status
            .get_or_insert_with(|| "FAILED/KILLED".to_string());
        if n.why.is_none() {
            n.why = Some(Why::Text(format!("error {code}: {message}")));
        }
        self.tree.job.last_error_node = Some(n.name.clone());
        self.close(r, NodeStatus::Error, Some(to));
        self.signal(vec![(to, forks)]);
    }

    /// Action run `r` fails at once, as an ERROR an executor reports when it
    /// starts: its `error` transition, taken from the event loop.
    pub(super) fn fail_at_start(&mut self, r: usize, code: &str, message: &str) {
        let behaviour = Behaviour {
            outcome: Outcome::Error,
            error_code: code.to_string(),
            error_message: message.to_string(),
            duration: Some(0),
            ..Behaviour::default()
        };
        if let Some(Some(live)) = self.tree.job.live.get_mut(r) {
            live.behaviour = behaviour;
            live.user_retry_max = None;
        }
        self.attempt_start(r);
    }

    /// The action's definition, `<global>` merged in, its EL evaluated with
    /// the job's configuration (ActionStartXCommand evaluates the action XML).
    pub(super) fn resolve(&self, action: &WorkflowAction, name: &str) -> Result<Resolved, String> {
        let functions = Functions {
            run: self.view(),
            current: name,
        };
        let eval = |text: &ElText| {
            render_in(
                Library::Workflow,
                text,
                &self.tree.job.conf,
                Some(&functions),
                self.world.pz,
            )
            .map(Cow::into_owned)
            .map_err(|d: Diagnostic| d.message.clone())
        };
        let mut resolved = Resolved::default();
        for (attribute, value) in &action.attributes {
            resolved
                .values
                .push((format!("@{}", attribute.name), eval(value)?));
        }
        let global = self.tree.job.graph.wf.global.as_ref();
        let merged = merged_values(&action.kind.name, &action.body, global);
        for (name, value) in merged {
            resolved.values.push((name.to_string(), eval(value)?));
        }
        let kind = action.kind.name.as_str();
        if let Some(g) = global.filter(|_| checks_configuration(kind)) {
            for p in &g.configuration {
                resolved
                    .configuration
                    .push((eval(&p.name)?, eval(&p.value)?));
            }
        }
        for p in &action.body.configuration {
            let (k, v) = (eval(&p.name)?, eval(&p.value)?);
            match resolved.configuration.iter_mut().find(|(n, _)| *n == k) {
                Some(slot) => slot.1 = v,
                None => resolved.configuration.push((k, v)),
            }
        }
        Ok(resolved)
    }

    /// The file system commands of an action's definition: an `fs`
    /// action's mkdir, delete, move and touchz (when it succeeds), another
    /// action's `<prepare>` deletes and mkdirs (as it starts).
    pub(super) fn apply_fs_commands(&mut self, r: usize, fs_action: bool) {
        let Some(resolved) = self.tree.job.run.node(r).resolved.as_ref() else {
            return;
        };
        let mut commands = Vec::new();
        let mut source: Option<&str> = None;
        for (name, value) in &resolved.values {
            match name.as_str() {
                "delete@path" => commands.push(FsCommand::Delete(value.clone())),
                "mkdir@path" => commands.push(FsCommand::Mkdir(value.clone())),
                "touchz@path" if fs_action => commands.push(FsCommand::Touchz(value.clone())),
                "move@source" if fs_action => source = Some(value),
                "move@target" if fs_action => {
                    if let Some(from) = source.take() {
                        commands.push(FsCommand::Move(from.to_string(), value.clone()));
                    }
                }
                _ => {}
            }
        }
        for command in commands {
            let fs = self.fs_mut();
            match command {
                FsCommand::Delete(path) => {
                    fs.delete(&path);
                }
                FsCommand::Mkdir(path) => fs.add_dir(&path),
                FsCommand::Touchz(path) if !fs.exists(&path) => fs.add_file(&path, 0),
                FsCommand::Touchz(_) => {}
                FsCommand::Move(from, to) => fs.rename(&from, &to),
            }
        }
    }
}
