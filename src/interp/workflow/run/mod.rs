//! One workflow job over simulated time: control nodes in an instant, action
//! nodes asynchronous with scripted outcomes and durations, fork paths
//! concurrent, retries, kill and end (workflow spec §3-4, Oozie 5.x where the
//! spec is silent; docs/simulate.md "Workflows").

use super::functions::{Functions, RunView};
use super::graph::{Graph, Kind};
use super::script::{Behaviour, FileSystem, Outcome, Scope, Script};
use crate::diag::Diagnostic;
use crate::el::{Library, VarMap};
use crate::interp::clock::Millis;
use crate::interp::queue::EventQueue;

use crate::ir::{ActionBody, ElText, WorkflowAction};
use crate::oozie::executors::{CLUSTER_ACTIONS, checks_configuration};
use crate::oozie::job::render_in;
use crate::time::datetime::ProcessingZone;
use std::borrow::Cow;
use std::sync::Arc;

mod actions;
mod control;
mod sub_workflows;
#[cfg(test)]
pub(crate) mod test_apps;
mod tree;

pub(crate) use tree::Tree;
pub use tree::run;
use tree::{Job, Runner};

/// A workflow job's status at the end of a run (WorkflowJob.Status).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RunStatus {
    Succeeded,
    Killed,
    Failed,
    Suspended,
    /// Still running when nothing more can happen: a sub-workflow it waits
    /// for was suspended.
    #[default]
    Running,
}

impl RunStatus {
    pub fn name(self) -> &'static str {
        match self {
            RunStatus::Succeeded => "SUCCEEDED",
            RunStatus::Killed => "KILLED",
            RunStatus::Failed => "FAILED",
            RunStatus::Suspended => "SUSPENDED",
            RunStatus::Running => "RUNNING",
        }
    }
}

/// A node's status (WorkflowAction.Status, as `oozie job -info` shows it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeStatus {
    Running,
    Ok,
    Error,
    Killed,
    Failed,
    /// Transient retries ran out: waiting for a user to resume the workflow.
    StartManual,
}

impl NodeStatus {
    pub(crate) fn name(self) -> &'static str {
        match self {
            NodeStatus::Running => "RUNNING",
            NodeStatus::Ok => "OK",
            NodeStatus::Error => "ERROR",
            NodeStatus::Killed => "KILLED",
            NodeStatus::Failed => "FAILED",
            NodeStatus::StartManual => "START_MANUAL",
        }
    }
}

/// Why a node went where it went.
#[derive(Debug, Clone, PartialEq)]
pub enum Why {
    /// A decision: each predicate's value (or its EL error), and the case
    /// taken (`None`: the default).
    Decision {
        predicates: Vec<Predicate>,
        taken: Option<usize>,
    },
    Text(String),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Predicate {
    pub to: String,
    pub text: String,
    pub value: Result<String, String>,
}

/// An action's definition with its EL evaluated: what it is given.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Resolved {
    /// Each value element or attribute (`job-tracker`, `arg`, `delete@path`,
    /// ...), in order, `<global>`'s merged in.
    pub values: Vec<(String, String)>,
    pub configuration: Vec<(String, String)>,
}

impl Resolved {
    /// The value of element (or `element@attribute`) `name`.
    pub(crate) fn get(&self, name: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// One node's execution.
#[derive(Debug, Clone)]
pub struct NodeRun {
    /// Its index in the graph.
    pub node: usize,
    pub name: String,
    pub type_name: &'static str,
    /// An action's element (`map-reduce`, `java`, `fs`...: Oozie's action type).
    pub action_type: Option<String>,
    pub started: Millis,
    pub ended: Option<Millis>,
    pub status: NodeStatus,
    /// The node it went to.
    pub transition: Option<String>,
    pub retries: u32,
    pub why: Option<Why>,
    pub resolved: Option<Resolved>,
    pub error_code: Option<String>,
    pub error_message: Option<String>,
    pub external_id: Option<String>,
    pub tracker_uri: Option<String>,
    pub external_status: Option<String>,
    pub action_data: Vec<(String, String)>,
    pub counters: super::script::Counters,
    /// The child job of a sub-workflow action run here.
    pub child: Option<Box<Run>>,
    /// How many forks it is inside.
    pub depth: usize,
}

/// A workflow job's run.
#[derive(Debug, Clone, Default)]
pub struct Run {
    pub id: String,
    pub name: String,
    pub app_path: String,
    pub status: RunStatus,
    pub started: Millis,
    pub ended: Option<Millis>,
    /// The `end` or `kill` node it ended at.
    pub end_node: Option<String>,
    pub error_code: Option<String>,
    pub error_message: Option<String>,
    pub kill_message: Option<String>,
    /// In the order they started; `start` left out.
    pub nodes: Vec<NodeRun>,
    /// When it was suspended.
    pub suspended_at: Option<Millis>,
}

impl Run {
    /// The run as it stood at `now`: what started later left out, what
    /// ended later still running.
    pub(crate) fn cut_at(mut self, now: Millis) -> Run {
        if self.ended.is_some_and(|e| e <= now) || self.suspended_at.is_some_and(|s| s <= now) {
            return self;
        }
        self.nodes.retain(|n| n.started <= now);
        for n in &mut self.nodes {
            if n.ended.is_some_and(|e| e > now) {
                n.ended = None;
                n.status = NodeStatus::Running;
                n.transition = None;
                n.why = None;
            }
            if let Some(child) = n.child.take() {
                n.child = Some(Box::new(child.cut_at(now)));
            }
        }
        {
            self.status = RunStatus::Running;
            self.ended = None;
            self.suspended_at = None;
            self.end_node = None;
            self.error_code = None;
            self.error_message = None;
            self.kill_message = None;
        }
        self
    }
}

/// A run's node runs as [`Runner`] makes them: its node run indexes are
/// made by [`Runner::new_node_run`], and the list only grows.
#[allow(
    clippy::indexing_slicing,
    reason = "node run indexes are made by `Runner::new_node_run`; `nodes` only grows"
)]
impl Run {
    fn node(&self, r: usize) -> &NodeRun {
        &self.nodes[r]
    }

    fn node_mut(&mut self, r: usize) -> &mut NodeRun {
        &mut self.nodes[r]
    }
}

impl Run {
    /// The run killed at `now` with the action that runs it (a parent's,
    /// SubWorkflowActionExecutor.kill :288-302; a coordinator action's,
    /// CoordKillXCommand): what had happened, then KILLED.
    pub(crate) fn killed_at(self, now: Millis) -> Run {
        let mut run = self.cut_at(now);
        if matches!(run.status, RunStatus::Running | RunStatus::Suspended) {
            run.status = RunStatus::Killed;
            run.ended = Some(now);
            for n in &mut run.nodes {
                if matches!(n.status, NodeStatus::Running | NodeStatus::StartManual) {
                    n.status = NodeStatus::Killed;
                    n.ended = Some(now);
                    n.why = Some(Why::Text("killed with its parent's action".to_string()));
                }
                if let Some(child) = n.child.take() {
                    n.child = Some(Box::new(child.killed_at(now)));
                }
            }
        }
        run
    }
}

/// Workflow ids in Oozie's form (UUIDService): a sequence number, the
/// server's start time (coordc's server starts at 0) and the system id.
pub(crate) fn workflow_id(sequence: u64) -> String {
    format!("{sequence:07}-000000000000000-oozie-coordc-W")
}

/// A sub-workflow's application, loaded by whoever can read files.
pub struct SubWorkflow {
    pub workflow: Arc<crate::ir::Workflow>,
    /// The job configuration its `config-default.xml` gives.
    pub defaults: VarMap,
    /// The local file (for messages).
    pub path: String,
    /// The file's text (what an export points into).
    pub text: Arc<str>,
}

/// Where sub-workflow app-paths are read: `None` when the path is not a
/// local application (the action is then scripted like any other). A
/// relative path is read from `parent`'s folder (a [`SubWorkflow::path`];
/// `None`: the top workflow's).
pub trait SubWorkflows {
    fn load(
        &self,
        app_path: &str,
        parent: Option<&str>,
    ) -> Option<Result<Arc<SubWorkflow>, String>>;
}

/// No sub-workflow is local.
pub struct NoSubWorkflows;

impl SubWorkflows for NoSubWorkflows {
    fn load(&self, _: &str, _: Option<&str>) -> Option<Result<Arc<SubWorkflow>, String>> {
        None
    }
}

/// What a run is given besides its workflow.
pub struct RunInput<'a> {
    /// The job's configuration (with `<parameters>` applied).
    pub conf: &'a VarMap,
    pub start: Millis,
    pub script: &'a Script,
    pub scope: Scope<'a>,
    pub sub_workflows: &'a dyn SubWorkflows,
    pub pz: ProcessingZone,
    /// This job's id sequence number.
    pub id_sequence: u64,
    /// Where its sub-workflows take their ids.
    pub child_ids: ChildIds<'a>,
    /// Its application's own file, beside which its relative sub-workflow
    /// app-paths are read (`None`: where `sub_workflows` reads them from).
    pub path: Option<&'a str>,
}

/// Where a job run alone gives its sub-workflows their ids.
#[derive(Debug, Clone, Copy)]
pub enum ChildIds<'a> {
    /// The next after its own, in the order they are submitted.
    Counted,
    /// The ids a run on a server gave them, in the order they were
    /// submitted; past them (sub-workflows that run had not submitted yet),
    /// the server's next, from `then`.
    Given { ids: &'a [u64], then: u64 },
}

impl<'a> RunInput<'a> {
    /// A job run on its own, as the unit tests and benches run one: from
    /// time 0 in UTC, in no coordinator action, with no local sub-workflow
    /// application, the first job id.
    pub fn alone(conf: &'a VarMap, script: &'a Script) -> RunInput<'a> {
        RunInput {
            conf,
            start: 0,
            script,
            scope: Scope::default(),
            sub_workflows: &NoSubWorkflows,
            pz: ProcessingZone::UTC,
            id_sequence: 0,
            child_ids: ChildIds::Counted,
            path: None,
        }
    }
}

/// A job's configuration as Oozie builds it for a workflow application
/// `app`: its `config-default.xml` under `base` (a coordinator job's
/// configuration, or a parent's with `propagate-configuration`), the
/// action's `configuration` over both, the app-path (SubmitXCommand:165-185,
/// CoordActionStartXCommand.mergeConfig, SubWorkflowActionExecutor:182-223),
/// then `<parameters>` defaults; or why the job cannot be submitted (E0738).
pub(crate) fn job_conf<'c>(
    app: &SubWorkflow,
    base: Option<&VarMap>,
    configuration: impl IntoIterator<Item = (&'c str, &'c str)>,
    app_path: &str,
) -> Result<VarMap, String> {
    let mut given = app.defaults.clone();
    for (k, v) in base.into_iter().flatten() {
        given.insert(k.clone(), v.clone());
    }
    for (k, v) in configuration {
        given.insert(k.to_string(), Some(v.to_string()));
    }
    given.insert(
        "oozie.wf.application.path".to_string(),
        Some(app_path.to_string()),
    );
    let (conf, problems) = crate::oozie::parameters::verify(
        &app.workflow.parameters,
        given,
        &crate::oozie::parameters::WORKFLOW,
    );
    match problems.first() {
        Some(problem) => Err(format!("{}: {}", app.path, problem.diagnostic.message)),
        None => Ok(conf),
    }
}

/// The most node executions a job and its sub-workflows make together (a
/// graph without cycles enters each node once per path; sub-workflows that
/// fan out into themselves would multiply without end).
pub(crate) const MAX_NODE_RUNS: usize = 1_000_000;

/// 3000-01-01T00:00Z: no run goes past it (the coordinator simulator's last
/// year, too).
const HORIZON: Millis = 32_503_680_000_000;

/// The error code Oozie's ActionStartXCommand gives an action whose
/// definition's EL fails (ActionStartXCommand.java, `EL_ERROR`).
pub(crate) const EL_ERROR: &str = "EL_ERROR";

/// A file system command of an action's definition.
enum FsCommand {
    Delete(String),
    Mkdir(String),
    Touchz(String),
    Move(String, String),
}

/// A queued happening of a job: an action attempt ends, or a retry starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    AttemptEnd(usize),
    RetryStart(usize),
}

/// A step of one job of a tree (its index), as the server queues it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct JobStep {
    job: usize,
    step: Step,
}

/// What the steps of a tree read besides the tree: the scenario's script,
/// where sub-workflow applications are found, the processing zone, and
/// the coordinator action it runs for.
pub(crate) struct World<'w> {
    pub script: &'w Script,
    pub sub_workflows: &'w dyn SubWorkflows,
    pub pz: ProcessingZone,
    pub scope: Scope<'w>,
}

/// The server a tree runs in: it queues the tree's steps, and gives each
/// sub-workflow the next job id as it is submitted (UUIDService).
pub(crate) trait Server {
    fn schedule(&mut self, at: Millis, step: JobStep);
    fn next_id(&mut self) -> u64;
}

/// Where a path is: the fork activations it is inside, innermost last.
type Forks = Vec<usize>;

#[derive(Debug)]
struct Activation {
    expected: usize,
    arrived: usize,
}

#[derive(Debug)]
struct Live {
    behaviour: Behaviour,
    attempts: u32,
    /// `retry-max` capped by the server; `None` without the attribute.
    user_retry_max: Option<u32>,
    user_retry_interval: Millis,
    exponential: bool,
    forks: Forks,
}

impl Live {
    /// The wait before user retry `count` + 1 (ActionXCommand.getRetryDelay:
    /// periodic, or exponential: 2^count intervals).
    fn user_retry_delay(&self, count: u32) -> Millis {
        if self.exponential {
            self.user_retry_interval
                .saturating_mul(1_i64.checked_shl(count.min(62)).unwrap_or(i64::MAX))
        } else {
            self.user_retry_interval
        }
    }
}

/// The error codes the server retries for `retry-max`
/// (oozie.service.LiteWorkflowStoreService.user.retry.error.code).
pub(crate) const USER_RETRY_CODES: &[&str] = &[
    "JA008", "JA009", "JA017", "JA018", "JA019", "FS009", "FS008", "FS014",
];

/// The code of the scenario's retryable failures: JA009, a launcher's
/// failure to reach the cluster, which the server retries.
pub(crate) const TRANSIENT_ERROR: &str = "JA009";

/// An action's values with `<global>`'s merged in as
/// LiteWorkflowAppParser.handleDefaultsAndGlobal (:484-560) does: global
/// job-xmls the action lacks first, then its own values, then a name-node
/// (cluster, `fs` and `sub-workflow` actions) and a job-tracker (the same
/// but `fs`) when it has none.
fn merged_values<'b>(
    kind: &str,
    body: &'b ActionBody,
    global: Option<&'b ActionBody>,
) -> Vec<(&'b str, &'b ElText)> {
    let own = body.values.iter().map(|(n, v)| (n.name.as_str(), v));
    let Some(global) = global else {
        return own.collect();
    };
    let has = |names: &[&str]| {
        body.values
            .iter()
            .any(|(n, _)| names.contains(&n.name.as_str()))
    };
    let from_global = |names: &'static [&'static str]| {
        global
            .values
            .iter()
            .filter(move |(n, _)| names.contains(&n.name.as_str()))
            .map(|(n, v)| (n.name.as_str(), v))
    };
    let cluster = CLUSTER_ACTIONS.contains(&kind);
    let mut merged: Vec<(&str, &ElText)> = Vec::new();
    if checks_configuration(kind) {
        merged.extend(from_global(&["job-xml"]).filter(|(_, g)| {
            !body
                .values
                .iter()
                .any(|(n, v)| n.name == "job-xml" && v.text() == g.text())
        }));
    }
    merged.extend(own);
    if (cluster || kind == "fs" || kind == "sub-workflow") && !has(&["name-node"]) {
        merged.extend(from_global(&["name-node"]));
    }
    if (cluster || kind == "sub-workflow") && !has(&["job-tracker", "resource-manager"]) {
        merged.extend(from_global(&["job-tracker", "resource-manager"]));
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interp::workflow::script::NodeScript;

    fn run_xml(body: &str, script: &Script) -> Run {
        run_xml_with(body, script, &VarMap::default())
    }

    fn run_xml_with(body: &str, script: &Script, conf: &VarMap) -> Run {
        run_tree(body, script, conf, &NoSubWorkflows)
    }

    /// The workflow of `body` (with a `fail` kill and an `end`), lowered.
    fn workflow(name: &str, body: &str) -> Arc<crate::ir::Workflow> {
        super::test_apps::workflow(&format!(
            r#"<workflow-app name="{name}" xmlns="uri:oozie:workflow:0.5">{body}<kill name="fail"><message>failed at ${{wf:lastErrorNode()}}</message></kill><end name="end"/></workflow-app>"#
        ))
    }

    fn run_tree(body: &str, script: &Script, conf: &VarMap, apps: &dyn SubWorkflows) -> Run {
        let graph = Graph::new(workflow("t", body)).unwrap_or_else(|_| panic!("a graph"));
        run(
            &Arc::new(graph),
            &RunInput {
                id_sequence: 7,
                sub_workflows: apps,
                ..RunInput::alone(conf, script)
            },
        )
    }

    /// Sub-workflow applications: (app-path, body).
    fn apps(apps: &[(&str, &str)]) -> super::test_apps::TestApps {
        super::test_apps::TestApps::new(
            apps.iter()
                .map(|&(path, body)| (path.to_string(), workflow(path, body))),
        )
    }

    fn sub_workflow(name: &str, app_path: &str, ok: &str) -> String {
        format!(
            r#"<action name="{name}"><sub-workflow><app-path>{app_path}</app-path></sub-workflow><ok to="{ok}"/><error to="fail"/></action>"#
        )
    }

    /// The child job a node run ran, by the node's name.
    fn child<'a>(run: &'a Run, name: &str) -> &'a Run {
        let node = run.nodes.iter().find(|n| n.name == name).unwrap();
        node.child.as_deref().unwrap()
    }

    /// Sub-workflows are jobs of their own, stepping beside their parent on
    /// the tree's one queue: each takes the next id as the server submits it
    /// (UUIDService's sequence), so `b`'s child, submitted at the fork with
    /// `a`'s, comes before the grandchild `a`'s child submits a minute later.
    #[test]
    fn sub_workflow_ids_follow_the_order_of_submission() {
        let apps = apps(&[
            (
                "/a",
                &format!(
                    r#"<start to="x"/>{}{}"#,
                    java("x", "", "g"),
                    sub_workflow("g", "/leaf", "end")
                ),
            ),
            ("/b", &format!(r#"<start to="y"/>{}"#, java("y", "", "end"))),
            (
                "/leaf",
                &format!(r#"<start to="z"/>{}"#, java("z", "", "end")),
            ),
        ]);
        let body = format!(
            r#"<start to="f"/><fork name="f"><path start="a"/><path start="b"/></fork>{}{}<join name="j" to="end"/>"#,
            sub_workflow("a", "/a", "j"),
            sub_workflow("b", "/b", "j"),
        );
        let run = run_tree(&body, &Script::default(), &VarMap::default(), &apps);
        assert_eq!(run.status, RunStatus::Succeeded);
        let id = |run: &Run| run.id[..7].parse::<u64>().unwrap();
        assert_eq!(
            (id(&run), id(child(&run, "a")), id(child(&run, "b"))),
            (7, 8, 9)
        );
        assert_eq!(id(child(child(&run, "a"), "g")), 10);
        // `a` ends when its child does: x (1 min), then the leaf's z (1 min).
        let a = run.nodes.iter().find(|n| n.name == "a").unwrap();
        assert_eq!(a.ended, Some(2 * MINUTE));
        assert_eq!(run.ended, Some(2 * MINUTE));
    }

    /// The tree shares one file system, changed when a job's action does it:
    /// what a sub-workflow's fs action makes at minute 3 is not there for
    /// its parent's decision at minute 1, and is there at minute 4.
    #[test]
    fn a_sub_workflow_changes_the_file_system_when_its_action_runs() {
        let apps = apps(&[(
            "/maker",
            &format!(
                r#"<start to="w"/>{}<action name="touch"><fs><touchz path="/flag"/></fs><ok to="end"/><error to="fail"/></action>"#,
                java("w", "", "touch")
            ),
        )]);
        let decision = |name: &str, to: &str| {
            format!(
                r#"<decision name="{name}"><switch><case to="{to}">${{fs:exists('/flag')}}</case><default to="{to}"/></switch></decision>"#
            )
        };
        let body = format!(
            r#"<start to="f"/><fork name="f"><path start="m"/><path start="early"/></fork>{}{}{}{}{}<join name="j" to="end"/>"#,
            sub_workflow("m", "/maker", "j"),
            java("early", "", "d1"),
            decision("d1", "late"),
            java("late", "", "d4"),
            decision("d4", "j"),
        );
        let script = Script {
            nodes: vec![
                node("w", |n| n.duration = Some(3 * MINUTE)),
                node("late", |n| n.duration = Some(3 * MINUTE)),
            ],
            ..Script::default()
        };
        let run = run_tree(&body, &script, &VarMap::default(), &apps);
        assert_eq!(run.status, RunStatus::Succeeded);
        let seen = |name: &str| match &run.nodes.iter().find(|n| n.name == name).unwrap().why {
            Some(Why::Decision { predicates, .. }) => predicates[0].value.clone(),
            other => panic!("{other:?}"),
        };
        assert_eq!(seen("d1"), Ok("false".to_string()));
        assert_eq!(seen("d4"), Ok("true".to_string()));
    }

    fn java(name: &str, attributes: &str, ok: &str) -> String {
        format!(
            r#"<action name="{name}"{attributes}><java><job-tracker>jt</job-tracker><name-node>nn</name-node><main-class>M</main-class></java><ok to="{ok}"/><error to="fail"/></action>"#
        )
    }

    fn node(name: &str, f: impl FnOnce(&mut NodeScript)) -> NodeScript {
        let mut n = NodeScript {
            name: name.to_string(),
            ..NodeScript::default()
        };
        f(&mut n);
        n
    }

    const MINUTE: Millis = 60_000;

    #[test]
    fn a_join_fires_when_its_last_path_arrives() {
        let body = format!(
            r#"<start to="f"/><fork name="f"><path start="a"/><path start="b"/></fork>{}{}<join name="j" to="c"/>{}"#,
            java("a", "", "j"),
            java("b", "", "j"),
            java("c", "", "end")
        );
        let script = Script {
            nodes: vec![node("b", |n| n.duration = Some(3 * MINUTE))],
            ..Script::default()
        };
        let run = run_xml(&body, &script);
        assert_eq!(run.status, RunStatus::Succeeded);
        let names: Vec<&str> = run.nodes.iter().map(|n| n.name.as_str()).collect();
        assert_eq!(names, ["f", "a", "b", "j", "c", "end"]);
        let join = &run.nodes[3];
        assert_eq!((join.started, join.ended), (3 * MINUTE, Some(3 * MINUTE)));
        assert_eq!(run.ended, Some(4 * MINUTE));
        assert_eq!(run.nodes[0].transition.as_deref(), Some("*"));
        assert_eq!(run.id, "0000007-000000000000000-oozie-coordc-W");
    }

    /// Every run-time function as an action after `a` is given it
    /// (DagELFunctions, FsELFunctions, HadoopELFunctions, HCatELFunctions,
    /// ELConstantsFunctions.timestamp).
    #[test]
    fn run_time_functions_read_the_run() {
        let args = [
            "${wf:id()}",
            "${wf:name()}",
            "${wf:appPath()}",
            "${wf:conf('k')}",
            "${wf:user()}",
            "${wf:group()}",
            "${wf:callback('DONE')}",
            "${wf:transition('a')}",
            "${wf:run()}",
            "${wf:actionExternalId('a')}",
            "${wf:actionTrackerUri('a')}",
            "${wf:actionExternalStatus('a')}",
            "[${wf:lastErrorNode()}]",
            "${fs:dirSize('/d')}",
            "${fs:dirSize('/nothing')}",
            "${fs:blockSize('/d/f')}",
            "${fs:fileSize('/d')}",
            "${hcat:exists('hcat://s/db/t/k=v')}",
            "${timestamp()}",
            "[${hadoop:conf('jt', 'mapreduce.job.queuename')}]",
        ];
        let b = format!(
            r#"<action name="b"><java><job-tracker>jt</job-tracker><name-node>nn</name-node><main-class>M</main-class>{}</java><ok to="end"/><error to="fail"/></action>"#,
            args.iter()
                .map(|a| format!("<arg>{a}</arg>"))
                .collect::<String>()
        );
        let body = format!(r#"<start to="a"/>{}{b}"#, java("a", "", "b"));
        let mut conf = VarMap::default();
        for (k, v) in [
            ("k", "v"),
            ("user.name", "joe"),
            ("group.name", "eng"),
            ("oozie.wf.application.path", "hdfs://nn/apps/t"),
        ] {
            conf.insert(k.to_string(), Some(v.to_string()));
        }
        let script = Script {
            fs: FileSystem::new(
                [
                    ("/d/f".to_string(), 10),
                    ("/d/g".to_string(), 5),
                    ("/d/sub/h".to_string(), 100),
                    ("hcat://s/db/t/k=v".to_string(), 0),
                ]
                .into(),
                Default::default(),
            ),
            ..Script::default()
        };
        let run = run_xml_with(&body, &script, &conf);
        let resolved = run.nodes[1].resolved.as_ref().unwrap();
        let got: Vec<&str> = resolved
            .values
            .iter()
            .filter(|(n, _)| n == "arg")
            .map(|(_, v)| v.as_str())
            .collect();
        assert_eq!(
            got,
            [
                "0000007-000000000000000-oozie-coordc-W",
                "t",
                "hdfs://nn/apps/t",
                "v",
                "joe",
                "eng",
                "http://localhost:11000/oozie/callback?id=0000007-000000000000000-oozie-coordc-W@b&status=DONE",
                "b",
                "0",
                "job_0000000000007_0001",
                "http://coordc:8088/proxy/application_0000000000007_0001/",
                "SUCCEEDED",
                "[]",
                "15",
                "-1",
                "134217728",
                "0",
                "true",
                "1970-01-01T00:01Z",
                "[]",
            ]
        );
    }

    #[test]
    fn exponential_user_retries_double_the_interval() {
        // ActionXCommand.getRetryDelay: 2^count intervals.
        let body = format!(
            r#"<start to="a"/>{}"#,
            java(
                "a",
                r#" retry-max="3" retry-interval="1" retry-policy="exponential""#,
                "end"
            )
        );
        let script = Script {
            nodes: vec![node("a", |n| n.transient_failures = Some(3))],
            ..Script::default()
        };
        let run = run_xml(&body, &script);
        let a = &run.nodes[0];
        assert_eq!(a.retries, 3);
        // Attempts: 0-1, +1 → 2-3, +2 → 5-6, +4 → 10-11.
        assert_eq!(a.ended, Some(11 * MINUTE));
        assert_eq!(a.status, NodeStatus::Ok);
    }

    #[test]
    fn transient_retries_run_out_into_a_suspended_job() {
        let body = format!(r#"<start to="a"/>{}"#, java("a", "", "end"));
        let script = Script {
            nodes: vec![node("a", |n| n.transient_failures = Some(9))],
            ..Script::default()
        };
        let run = run_xml(&body, &script);
        assert_eq!(run.status, RunStatus::Suspended);
        assert_eq!(run.ended, None);
        let a = &run.nodes[0];
        assert_eq!(a.status, NodeStatus::StartManual);
        assert_eq!(a.retries, 3);
    }

    #[test]
    fn a_kill_message_that_cannot_be_evaluated_is_e0756_and_still_killed() {
        let body = format!(
            r#"<start to="a"/>{}<kill name="bad"><message>${{undefined}}</message></kill>"#,
            java("a", "", "bad")
        );
        let run = run_xml(&body, &Script::default());
        assert_eq!(run.status, RunStatus::Killed);
        let kill = run.nodes.last().unwrap();
        assert_eq!(kill.status, NodeStatus::Error);
        assert_eq!(kill.error_code.as_deref(), Some("E0756"));
        assert_eq!(run.kill_message, None);
    }

    #[test]
    fn a_run_as_of_a_moment_keeps_what_had_happened() {
        let body = format!(
            r#"<start to="a"/>{}{}"#,
            java("a", "", "b"),
            java("b", "", "end")
        );
        let run = run_xml(&body, &Script::default()).cut_at(MINUTE + 1);
        assert_eq!(run.status, RunStatus::Running);
        assert_eq!(run.nodes.len(), 2);
        assert_eq!(run.nodes[0].status, NodeStatus::Ok);
        assert_eq!(run.nodes[1].status, NodeStatus::Running);
        assert_eq!(run.nodes[1].ended, None);
    }

    #[test]
    fn global_values_are_merged_into_each_action() {
        // LiteWorkflowAppParser.handleDefaultsAndGlobal: the global
        // job-tracker and name-node where the action has none, its job-xml
        // first, its configuration under the action's.
        let text = r#"<workflow-app name="g" xmlns="uri:oozie:workflow:0.5">
  <global><job-tracker>gjt</job-tracker><name-node>gnn</name-node><job-xml>g.xml</job-xml>
    <configuration><property><name>q</name><value>global</value></property><property><name>only</name><value>g</value></property></configuration></global>
  <start to="a"/>
  <action name="a"><java><name-node>own</name-node><job-xml>a.xml</job-xml>
    <configuration><property><name>q</name><value>action</value></property></configuration>
    <main-class>M</main-class></java><ok to="end"/><error to="end"/></action>
  <end name="end"/></workflow-app>"#;
        let arena = crate::xml::Arena::new();
        let doc = crate::xml::parse(text, &arena).unwrap();
        let (wf, _) = crate::ir::lower::workflow(&doc.root);
        let graph = Arc::new(Graph::new(Arc::new(wf)).unwrap_or_else(|_| panic!("a graph")));
        let conf = VarMap::default();
        let script = Script::default();
        let run = run(&graph, &RunInput::alone(&conf, &script));
        let resolved = run.nodes[0].resolved.as_ref().unwrap();
        let values: Vec<(&str, &str)> = resolved
            .values
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert_eq!(
            values,
            [
                ("job-xml", "g.xml"),
                ("name-node", "own"),
                ("job-xml", "a.xml"),
                ("main-class", "M"),
                ("job-tracker", "gjt"),
            ]
        );
        assert_eq!(
            resolved.configuration,
            [
                ("q".to_string(), "action".to_string()),
                ("only".to_string(), "g".to_string())
            ]
        );
    }

    /// A suspended sub-workflow keeps its run while its own sub-workflows
    /// go on: `s` is suspended when `x`'s transient retries run out, and
    /// its child `g`, an hour long, ends later and is told to it (not to
    /// the top job, which waits on `s` to the end).
    #[test]
    fn a_sub_workflow_of_a_suspended_one_ends_into_it() {
        let apps = apps(&[
            (
                "/s",
                &format!(
                    r#"<start to="f"/><fork name="f"><path start="x"/><path start="g"/></fork>{}{}<join name="j" to="end"/>"#,
                    java("x", "", "j"),
                    sub_workflow("g", "/g", "j")
                ),
            ),
            (
                "/g",
                &format!(r#"<start to="long"/>{}"#, java("long", "", "end")),
            ),
        ]);
        let script = Script {
            nodes: vec![
                node("x", |n| n.transient_failures = Some(9)),
                node("long", |n| n.duration = Some(60 * MINUTE)),
            ],
            ..Script::default()
        };
        let body = format!(r#"<start to="s"/>{}"#, sub_workflow("s", "/s", "end"));
        let run = run_tree(&body, &script, &VarMap::default(), &apps);
        assert_eq!(run.status, RunStatus::Running);
        let s = child(&run, "s");
        assert_eq!(s.status, RunStatus::Suspended);
        let g = child(s, "g");
        assert_eq!(
            (g.status, g.ended),
            (RunStatus::Succeeded, Some(60 * MINUTE))
        );
    }

    /// A job that fails kills the sub-workflows it runs, and one that ended
    /// in the same step is given with the node killed as the job failed,
    /// not as its child ended.
    #[test]
    fn a_failing_job_takes_its_sub_workflows_with_it() {
        let apps = apps(&[
            (
                "/s",
                &format!(r#"<start to="g"/>{}"#, sub_workflow("g", "/g", "end")),
            ),
            ("/g", r#"<start to="end"/>"#),
        ]);
        let body = format!(
            r#"<start to="f"/><fork name="f"><path start="a"/><path start="b"/></fork>{}<action name="b"><java><job-tracker>jt</job-tracker><name-node>nn</name-node><main-class>${{undefined}}</main-class></java><ok to="j"/><error to="fail"/></action><join name="j" to="end"/>"#,
            sub_workflow("a", "/s", "j"),
        );
        let run = run_tree(&body, &Script::default(), &VarMap::default(), &apps);
        assert_eq!(run.status, RunStatus::Failed);
        let a = run.nodes.iter().find(|n| n.name == "a").unwrap();
        assert_eq!(a.status, NodeStatus::Killed);
        assert_eq!(
            a.why,
            Some(Why::Text("killed when the job failed".to_string()))
        );
        assert_eq!(child(child(&run, "a"), "g").status, RunStatus::Succeeded);
    }
}
