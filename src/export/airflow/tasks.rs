//! A workflow as Airflow tasks: each action a task, fork and join as
//! dependencies (a join an `EmptyOperator`), a kill node a task that fails
//! with its message, reached by `one_failed` from the actions whose error
//! transition goes to it, and a sub-workflow action a `TaskGroup` of its
//! workflow's tasks, ending at the task of its end node. What has no
//! translation yet is a task that fails with the reason, and a refused item
//! of the report at its place: never a silent gap.

use super::jinja::{Translation, translate};
use super::python::{airflow_id, has_jinja_tag, identifier, jinja_text, shell_word, string};
use super::report::{AppReport, Place, Status};
use super::sub_workflows::{self, Job};
use super::{FindWorkflow, Workflow};
use crate::ir::{ActionBody, ElText, NodeKind, WorkflowAction};
use crate::project::load::Sources;
use crate::span::Span;
use crate::time::datetime::ProcessingZone;
use std::collections::{BTreeSet, HashMap};
use std::fmt::Write;

/// The tasks of a workflow, as Python statements inside the DAG's `with`.
pub(super) struct Tasks {
    pub(super) items: Vec<Item>,
    /// `upstream >> downstream`, by variable.
    pub(super) edges: Vec<(String, String)>,
    /// The tasks the workflow starts with (after the data-in sensors).
    pub(super) first: Vec<String>,
    /// The operators used: `BashOperator`, `EmptyOperator`,
    /// `BranchPythonOperator`, `EmailOperator`.
    pub(super) operators: BTreeSet<&'static str>,
    /// Whether a sub-workflow is a `TaskGroup`.
    pub(super) grouped: bool,
    /// The sub-workflows' jobs (`OozieSubWorkflow`): each one's variable,
    /// which templates also call it by, and its definition, parents first.
    pub(super) jobs: Vec<(String, String)>,
}

/// A task's statement, or a sub-workflow's group of them.
pub(super) enum Item {
    Task {
        var: String,
        definition: String,
    },
    Group {
        var: String,
        group_id: String,
        tooltip: String,
        items: Vec<Item>,
    },
}

/// Writes `items` at `depth` levels of indentation.
pub(super) fn write_items(out: &mut String, items: &[Item], depth: usize) {
    let indent = "    ".repeat(depth);
    for item in items {
        match item {
            Item::Task { var, definition } => {
                let _ = writeln!(out, "{indent}{var} = {definition}");
            }
            Item::Group {
                var,
                group_id,
                tooltip,
                items,
            } => {
                let _ = writeln!(
                    out,
                    "{indent}with TaskGroup(group_id={}, tooltip={}) as {var}:",
                    string(group_id),
                    string(tooltip)
                );
                write_items(out, items, depth + 1);
            }
        }
    }
}

/// Where the workflow is, to point at its values.
pub struct WorkflowFile<'a> {
    pub path: &'a str,
    /// The workflow file's text, as its only source.
    pub sources: &'a Sources,
}

impl WorkflowFile<'_> {
    pub(super) fn place(&self, span: Span) -> Place {
        Place::of(self.path, self.sources, span)
    }
}

/// What a node of the graph becomes.
#[derive(Clone)]
enum Target {
    Task(String),
    /// A kill node's task.
    Kill(String),
    End,
}

/// The tasks of the coordinator's workflow `wf`, whose job for the first
/// run is `job`; their variables and ids other than `reserved` (the
/// sensors' and the file's own names).
pub(super) fn tasks(
    wf: &Workflow,
    job: &Job,
    find: &dyn FindWorkflow,
    pz: ProcessingZone,
    report: &mut AppReport,
    reserved: &BTreeSet<String>,
) -> Tasks {
    let mut builder = Builder {
        tasks: Tasks {
            items: Vec::new(),
            edges: Vec::new(),
            first: Vec::new(),
            operators: BTreeSet::new(),
            grouped: false,
            jobs: Vec::new(),
        },
        taken: reserved.clone(),
        on_failure: BTreeSet::new(),
        ids: HashMap::new(),
        report,
        find,
        pz,
    };
    let scope = Scope {
        template: "oozie".to_string(),
        python: "OOZIE".to_string(),
        var_prefix: String::new(),
        id_prefix: String::new(),
        files: vec![wf.path.clone()],
    };
    let graph = builder.graph(wf, job, &scope, reserved);
    let mut tasks = builder.tasks;
    tasks.items = graph.items;
    tasks.first = graph.first;
    // A kill node reached from errors runs when one of those actions
    // failed; a task where paths meet (a join, or a decision's paths) runs
    // when none failed, after the ones taken (the others are skipped).
    trigger_rules(&mut tasks.items, &tasks.edges, &builder.on_failure);
    tasks
}

/// A workflow job's place in the DAG file.
struct Scope {
    /// What templates call its job (`oozie`, `oozie_load`).
    template: String,
    /// Its job's Python variable (`OOZIE`, `oozie_load`).
    python: String,
    /// Its tasks' variables start with this (`load_`).
    var_prefix: String,
    /// Its tasks' ids start with this (`load.`): Airflow's group prefix.
    id_prefix: String,
    /// The workflow files from the coordinator's down to this one.
    files: Vec<String>,
}

/// What the graphs of a DAG's workflows share.
struct Builder<'b> {
    tasks: Tasks,
    /// The Python names given.
    taken: BTreeSet<String>,
    /// The tasks that run on `one_failed`: kills reached by errors.
    on_failure: BTreeSet<String>,
    /// Each task's whole id (with its groups'), by variable.
    ids: HashMap<String, String>,
    report: &'b mut AppReport,
    find: &'b dyn FindWorkflow,
    pz: ProcessingZone,
}

/// One workflow's tasks.
struct Graph {
    items: Vec<Item>,
    first: Vec<String>,
    /// In a group, the task of its end node.
    end: Option<String>,
}

/// A sub-workflow action's group: where it starts, where it ends (the task
/// of its end node), and every task in it (a failure of any is the action's).
struct Group {
    first: Vec<String>,
    end: String,
    all: Vec<String>,
    item: Item,
}

/// The nodes of a workflow, and what each becomes.
struct Nodes<'w> {
    wf: &'w crate::ir::Workflow,
    /// Each node's variable (none for a fork).
    variables: Vec<Option<String>>,
    /// The sub-workflow actions exported as groups, by node index.
    groups: HashMap<usize, Group>,
    /// In a group, the task of the end node.
    end: Option<String>,
}

impl Nodes<'_> {
    /// The tasks a transition to `name` reaches: a fork's paths, a group's
    /// first tasks; the end none (in a group, its end task).
    fn targets(&self, name: &str, depth: usize) -> Vec<Target> {
        if name == self.wf.end.name {
            return vec![self.end.clone().map_or(Target::End, Target::Task)];
        }
        let Some(index) = self.wf.nodes.iter().position(|n| n.name.name == name) else {
            return Vec::new();
        };
        let node = self.wf.nodes.get(index);
        match (
            node.map(|n| &n.kind),
            self.variables.get(index).cloned().flatten(),
        ) {
            // (A fork of forks is bounded by the nodes; a cycle, which the
            // check reports, stops here.)
            (Some(NodeKind::Fork { paths }), _) if depth < self.wf.nodes.len() => paths
                .iter()
                .flat_map(|p| self.targets(&p.name, depth + 1))
                .collect(),
            (Some(NodeKind::Kill { .. }), Some(var)) => vec![Target::Kill(var)],
            (_, Some(var)) => match self.groups.get(&index) {
                Some(group) => group.first.iter().cloned().map(Target::Task).collect(),
                None => vec![Target::Task(var)],
            },
            _ => Vec::new(),
        }
    }

    /// The task an ok transition of node `index` leaves from.
    fn exit(&self, index: usize, var: &str) -> String {
        self.groups
            .get(&index)
            .map_or_else(|| var.to_string(), |g| g.end.clone())
    }

    /// The tasks whose failure is node `index`'s.
    fn failing(&self, index: usize, var: &str) -> Vec<String> {
        self.groups
            .get(&index)
            .map_or_else(|| vec![var.to_string()], |g| g.all.clone())
    }
}

impl Builder<'_> {
    /// A Python name from `name`, not given before.
    fn name(&mut self, name: &str) -> String {
        let mut var = identifier(name);
        while !self.taken.insert(var.clone()) {
            var.push('_');
        }
        var
    }

    /// The tasks of `wf`, run as `job` in `scope`, their ids other than
    /// `reserved`.
    fn graph(
        &mut self,
        wf: &Workflow,
        job: &Job,
        scope: &Scope,
        reserved: &BTreeSet<String>,
    ) -> Graph {
        let file = wf.file();
        let workflow = &*wf.workflow;
        let variables: Vec<Option<String>> = workflow
            .nodes
            .iter()
            .map(|node| match node.kind {
                NodeKind::Fork { .. } => None,
                _ => Some(self.name(&format!("{}{}", scope.var_prefix, node.name.name))),
            })
            .collect();
        let mut ids_taken = reserved.clone();
        let mut unique_id = |name: &str| {
            let mut id = airflow_id(name);
            while !ids_taken.insert(id.clone()) {
                id.push('_');
            }
            id
        };
        let mut task_ids: HashMap<String, String> = HashMap::new();
        for (node, var) in workflow.nodes.iter().zip(&variables) {
            if let Some(var) = var {
                task_ids.insert(var.clone(), unique_id(&node.name.name));
            }
        }
        // In a group, the end node is a task: where the action's ok leaves from.
        let end = (!scope.id_prefix.is_empty()).then(|| {
            let var = self.name(&format!("{}{}", scope.var_prefix, workflow.end.name));
            task_ids.insert(var.clone(), unique_id(&workflow.end.name));
            var
        });
        for (var, id) in &task_ids {
            self.ids
                .insert(var.clone(), format!("{}{id}", scope.id_prefix));
        }
        let mut groups = HashMap::new();
        // The sub-workflow actions that cannot be groups: why (reported).
        let mut refused = HashMap::new();
        for (index, (node, var)) in workflow.nodes.iter().zip(&variables).enumerate() {
            if let (NodeKind::Action(action), Some(var)) = (&node.kind, var)
                && action.kind.name == "sub-workflow"
                && let Some(id) = task_ids.get(var)
            {
                match self.sub_workflow(action, &node.name.name, var, id, wf, job, scope) {
                    Ok(group) => {
                        groups.insert(index, group);
                    }
                    Err(why) => {
                        refused.insert(index, why);
                    }
                }
            }
        }
        let mut nodes = Nodes {
            wf: workflow,
            variables,
            groups,
            end,
        };
        // A kill node reached by error transitions and by others (a decision's
        // case, an ok) is two tasks: the kill's, on `one_failed`, for the
        // errors, and `KILL_reached` for the others, which fails whenever it runs.
        let error_kills: BTreeSet<String> = workflow
            .nodes
            .iter()
            .filter_map(|node| match &node.kind {
                NodeKind::Action(action) => Some(nodes.targets(&action.error.name, 0)),
                _ => None,
            })
            .flatten()
            .filter_map(|t| match t {
                Target::Kill(var) => Some(var),
                _ => None,
            })
            .collect();
        self.on_failure.extend(error_kills.iter().cloned());
        let target = |nodes: &Nodes, name: &str| -> Vec<Target> {
            nodes
                .targets(name, 0)
                .into_iter()
                .map(|t| match t {
                    Target::Kill(var) if error_kills.contains(&var) => {
                        Target::Kill(format!("{var}_reached"))
                    }
                    t => t,
                })
                .collect()
        };
        let first: Vec<String> = target(&nodes, &workflow.start.name)
            .into_iter()
            .filter_map(|t| match t {
                Target::Task(v) | Target::Kill(v) => Some(v),
                Target::End => None,
            })
            .collect();
        let mut items = Vec::new();
        for (index, node) in workflow.nodes.iter().enumerate() {
            let Some(var) = nodes.variables.get(index).cloned().flatten() else {
                continue;
            };
            let Some(task_id) = task_ids.get(&var).cloned() else {
                continue;
            };
            let definition = match &node.kind {
                NodeKind::Fork { .. } => continue,
                NodeKind::Join { to } => {
                    for t in target(&nodes, &to.name) {
                        self.edge(&var, t);
                    }
                    self.tasks.operators.insert("EmptyOperator");
                    format!("EmptyOperator(task_id={})", string(&task_id))
                }
                NodeKind::Kill { message } => {
                    self.report.push_at(
                        Status::Exact,
                        format!("kill {}", node.name.name),
                        "a task that fails with the kill message",
                        file.place(node.span),
                    );
                    let message = match translate(message, &scope.template) {
                        Ok(t) => t.shell_word(),
                        Err(_) => {
                            self.report.push_at(
                                Status::Mapped,
                                format!("kill {} message", node.name.name),
                                "its EL has no Airflow equivalent: the message is shown as written",
                                file.place(message.span),
                            );
                            jinja_text(&shell_word(message.text()))
                        }
                    };
                    bash(
                        &mut self.tasks.operators,
                        &task_id,
                        &format!("echo {message} >&2; exit 1"),
                    )
                }
                NodeKind::Decision { cases, default } => {
                    for to in cases.iter().map(|(_, to)| to).chain([default]) {
                        for t in target(&nodes, &to.name) {
                            self.edge(&var, t);
                        }
                    }
                    let what = format!("decision {}", node.name.name);
                    match cases.iter().find_map(|(case, _)| unrenderable(case)) {
                        Some((why, at)) => {
                            self.report
                                .push_at(Status::Refused, what, why.clone(), file.place(at));
                            failing(&mut self.tasks.operators, &task_id, &why)
                        }
                        None => {
                            self.report.push_at(
                                Status::Mapped,
                                what,
                                "a BranchPythonOperator: coordc renders each case with the run's configuration on the worker and the first `true` wins, as in Oozie",
                                file.place(node.span),
                            );
                            let ids = |name: &str| -> String {
                                let ids: Vec<String> = target(&nodes, name)
                                    .iter()
                                    .filter_map(|t| match t {
                                        Target::Task(v) | Target::Kill(v) => {
                                            self.id_of(v).map(|id| string(&id))
                                        }
                                        Target::End => None,
                                    })
                                    .collect();
                                format!("[{}]", ids.join(", "))
                            };
                            let cases: Vec<String> = cases
                                .iter()
                                .map(|(case, to)| {
                                    format!("({}, {})", string(case.text()), ids(&to.name))
                                })
                                .collect();
                            let default = ids(&default.name);
                            self.tasks.operators.insert("BranchPythonOperator");
                            format!(
                                "BranchPythonOperator(task_id={}, python_callable={}.branch, op_kwargs={{\"cases\": [{}], \"default\": {default}}})",
                                string(&task_id),
                                scope.python,
                                cases.join(", "),
                            )
                        }
                    }
                }
                NodeKind::Action(action) => {
                    let exit = nodes.exit(index, &var);
                    for t in target(&nodes, &action.ok.name) {
                        self.edge(&exit, t);
                    }
                    for t in nodes.targets(&action.error.name, 0) {
                        match t {
                            Target::Kill(kill) => {
                                for from in nodes.failing(index, &var) {
                                    self.tasks.edges.push((from, kill.clone()));
                                }
                            }
                            Target::End | Target::Task(_) => self.report.push_at(
                                Status::Refused,
                                format!("action {} error transition", node.name.name),
                                format!(
                                    "an error transition to `{}`, not to a kill node, is not exported yet: the run fails where Oozie would go on",
                                    action.error.name
                                ),
                                file.place(action.error.span),
                            ),
                        }
                    }
                    if let Some(group) = nodes.groups.remove(&index) {
                        items.push(group.item);
                        continue;
                    }
                    if let Some(why) = refused.get(&index) {
                        items.push(Item::Task {
                            var,
                            definition: failing(&mut self.tasks.operators, &task_id, why),
                        });
                        continue;
                    }
                    action_task(
                        &mut self.tasks,
                        &task_id,
                        &node.name.name,
                        action,
                        workflow,
                        &file,
                        &scope.template,
                        self.report,
                    )
                }
            };
            items.push(Item::Task { var, definition });
        }
        if let Some(end) = &nodes.end
            && let Some(id) = task_ids.get(end)
        {
            self.tasks.operators.insert("EmptyOperator");
            items.push(Item::Task {
                var: end.clone(),
                definition: format!("EmptyOperator(task_id={})", string(id)),
            });
        }
        self.reached_kills(&mut items, &error_kills, &task_ids);
        Graph {
            items,
            first,
            end: nodes.end,
        }
    }

    /// Sub-workflow action `name` (its variable `var`, its task id `id`) of
    /// `parent`, run as `job`, as a group of its workflow's tasks; or, when
    /// it cannot be one, why (reported: the action is then a failing task).
    #[allow(clippy::too_many_arguments)]
    fn sub_workflow(
        &mut self,
        action: &WorkflowAction,
        name: &str,
        var: &str,
        id: &str,
        parent: &Workflow,
        job: &Job,
        scope: &Scope,
    ) -> Result<Group, String> {
        let what = format!("action {name} (sub-workflow)");
        let file = parent.file();
        let refuse = |builder: &mut Self, why: String, at: Span| {
            builder
                .report
                .push_at(Status::Refused, what.clone(), why.clone(), file.place(at));
            Err(why)
        };
        let read = match sub_workflows::read_action(action, job, self.pz) {
            Ok(read) => read,
            Err(r) => return refuse(self, r.why, r.at),
        };
        let sub = match self.find.find(&read.app_path, &parent.path) {
            Ok(sub) => sub,
            Err(why) => return refuse(self, why, read.app_path_text.span),
        };
        if scope.files.contains(&sub.path) {
            return refuse(
                self,
                format!(
                    "it runs {}, which runs it again: Oozie goes on until oozie.action.subworkflow.max.depth and fails the action with SUBWF001",
                    sub.path
                ),
                read.app_path_text.span,
            );
        }
        let defaults = sub_workflows::defaults(&sub, self.report);
        let child =
            match sub_workflows::child_job(&read, job, &defaults, scope.files.len(), self.pz) {
                Ok(child) => child,
                Err(r) => return refuse(self, r.why, r.at),
            };
        // The child's job: the runtime builds its configuration for each run.
        let python = self.name(&format!("oozie_{var}"));
        let dict = |pairs: &mut dyn Iterator<Item = (String, String)>| -> String {
            let entries: Vec<String> = pairs
                .map(|(k, v)| format!("\n        {}: {},", string(&k), string(&v)))
                .collect();
            match entries.is_empty() {
                true => "{}".to_string(),
                false => format!("{{{}\n    }}", entries.concat()),
            }
        };
        let definition = format!(
            "{python} = {}.sub_workflow(\n    action={},\n    app_path={},\n    propagate={},\n    configuration={},\n    defaults={},\n)\n",
            scope.python,
            string(name),
            string(&read.app_path),
            if read.propagate { "True" } else { "False" },
            dict(
                &mut read
                    .configuration
                    .iter()
                    .map(|(n, v)| (n.text().to_string(), v.text().to_string()))
            ),
            dict(&mut defaults.iter().cloned()),
        );
        self.tasks.jobs.push((python.clone(), definition));
        self.tasks.grouped = true;
        self.report.push_at(
            Status::Mapped,
            what,
            format!(
                "a TaskGroup of the tasks of {}{} (its app-path `{}`, resolved with the first run's configuration); its job's configuration is built for each run as Oozie builds it{}",
                sub.path,
                if sub.found_by_name { ", found by its name in the checkout" } else { "" },
                read.app_path,
                if read.propagate { ", the parent's propagated" } else { "" }
            ),
            file.place(action.kind.span),
        );
        let mut files = scope.files.clone();
        files.push(sub.path.clone());
        let inner = Scope {
            template: python.clone(),
            python,
            var_prefix: format!("{var}_"),
            id_prefix: format!("{}{id}.", scope.id_prefix),
            files,
        };
        let graph = self.graph(&sub, &child, &inner, &BTreeSet::new());
        let mut all = Vec::new();
        task_vars(&graph.items, &mut all);
        Ok(Group {
            first: graph.first,
            // (A group's graph always has its end task.)
            end: graph.end.unwrap_or_default(),
            all,
            item: Item::Group {
                var: var.to_string(),
                group_id: id.to_string(),
                tooltip: format!("Oozie sub-workflow {}", read.app_path),
                items: graph.items,
            },
        })
    }

    /// A task's whole id, with its groups' (a `KILL_reached` task's from its kill's).
    fn id_of(&self, var: &str) -> Option<String> {
        match self.ids.get(var) {
            Some(id) => Some(id.clone()),
            None => Some(format!(
                "{}_reached",
                self.ids.get(var.strip_suffix("_reached")?)?
            )),
        }
    }

    fn edge(&mut self, from: &str, to: Target) {
        match to {
            Target::Task(to) | Target::Kill(to) => self.tasks.edges.push((from.to_string(), to)),
            Target::End => {}
        }
    }

    /// The `KILL_reached` task of each kill of `error_kills` that another
    /// transition reaches: the kill's command under its own id.
    fn reached_kills(
        &mut self,
        items: &mut Vec<Item>,
        error_kills: &BTreeSet<String>,
        task_ids: &HashMap<String, String>,
    ) {
        for kill in error_kills {
            let reached = format!("{kill}_reached");
            let Some(id) = task_ids.get(kill) else {
                continue;
            };
            let definition = items.iter().find_map(|item| match item {
                Item::Task { var, definition } if var == kill => Some(definition.clone()),
                _ => None,
            });
            let Some(definition) = definition else {
                continue;
            };
            if !self.tasks.edges.iter().any(|(_, to)| *to == reached) {
                continue;
            }
            let definition = definition.replacen(
                &format!("task_id={}", string(id)),
                &format!("task_id={}", string(&format!("{id}_reached"))),
                1,
            );
            items.push(Item::Task {
                var: reached,
                definition,
            });
        }
    }
}

/// Every task variable of `items`, in groups too.
fn task_vars(items: &[Item], out: &mut Vec<String>) {
    for item in items {
        match item {
            Item::Task { var, .. } => out.push(var.clone()),
            Item::Group { items, .. } => task_vars(items, out),
        }
    }
}

/// Each task's trigger rule: `one_failed` for the kills reached by errors,
/// `none_failed_min_one_success` where paths meet.
fn trigger_rules(items: &mut [Item], edges: &[(String, String)], on_failure: &BTreeSet<String>) {
    for item in items {
        match item {
            Item::Task { var, definition } => {
                let rule = if on_failure.contains(var) {
                    Some("one_failed")
                } else if edges.iter().filter(|(_, to)| to == var).count() > 1 {
                    Some("none_failed_min_one_success")
                } else {
                    None
                };
                if let Some(rule) = rule
                    && let Some(open) = definition.rfind(')')
                {
                    definition.insert_str(open, &format!(", trigger_rule=\"{rule}\""));
                }
            }
            Item::Group { items, .. } => trigger_rules(items, edges, on_failure),
        }
    }
}

/// Why a decision's case cannot be rendered on a worker, and where: a
/// function that needs the cluster or the running workflow
/// ([`super::jinja::impure_call`]), or text Jinja would read.
fn unrenderable(case: &ElText) -> Option<(String, Span)> {
    if has_jinja_tag(case.text()) {
        return Some((
            "a case with Jinja's `{{`, `{%` or `{#` is not exported yet".to_string(),
            case.span,
        ));
    }
    case.template().exprs().find_map(|expr| {
        let (name, at) = super::jinja::impure_call(expr)?;
        Some((
            format!("the decision reads `{name}()`, which needs the cluster or the running workflow: not exported yet"),
            case.file_span(at),
        ))
    })
}

fn bash(operators: &mut BTreeSet<&'static str>, task_id: &str, command: &str) -> String {
    operators.insert("BashOperator");
    // (A command ending in `.sh` would be read as a template file's name.)
    let command = match command.ends_with(".sh") || command.ends_with(".bash") {
        true => format!("{command} "),
        false => command.to_string(),
    };
    format!(
        "BashOperator(task_id={}, bash_command={})",
        string(task_id),
        string(&command)
    )
}

/// A task that fails with `reason`: what stands where nothing was exported
/// (the operator it uses added to `operators`).
pub(super) fn failing(
    operators: &mut BTreeSet<&'static str>,
    task_id: &str,
    reason: &str,
) -> String {
    let message = format!("not exported from Oozie by coordc: {reason}");
    bash(
        operators,
        task_id,
        &format!("echo {} >&2; exit 1", jinja_text(&shell_word(&message))),
    )
}

/// One action's task: a command for the actions a command does, else a
/// failing task with the reason.
#[allow(clippy::too_many_arguments)]
fn action_task(
    tasks: &mut Tasks,
    task_id: &str,
    name: &str,
    action: &WorkflowAction,
    wf: &crate::ir::Workflow,
    file: &WorkflowFile,
    job: &str,
    report: &mut AppReport,
) -> String {
    let what = format!("action {name} ({})", action.kind.name);
    let place = file.place(action.kind.span);
    let kind = action.kind.name.as_str();
    if kind == "email" {
        return email_task(tasks, task_id, what, place, &action.body, file, job, report);
    }
    let command = match (kind, COMMANDS.iter().find(|c| c.kind == kind)) {
        ("fs", _) => fs_command(&action.body, job),
        (_, Some(spec)) => command_line(spec, &action.body, job),
        (other, None) => Err(Refusal::Kind(other.to_string())),
    };
    match command {
        Ok(command) => {
            let mut differences = command.differences;
            if wf.global.is_some() || !action.body.configuration.is_empty() {
                differences.push(
                    "its Hadoop configuration (`<configuration>`, `<global>`) is not passed: the command reads the worker's".to_string(),
                );
            }
            if !action.attributes.is_empty() {
                differences.push(
                    "its retry and credential attributes are not mapped (set the task's `retries`)"
                        .to_string(),
                );
            }
            let status = if differences.is_empty() {
                Status::Exact
            } else {
                Status::Mapped
            };
            report.push_at(
                status,
                what,
                if differences.is_empty() {
                    command.summary.clone()
                } else {
                    format!("{}; {}", command.summary, differences.join("; "))
                },
                place,
            );
            bash(&mut tasks.operators, task_id, &command.text)
        }
        Err(refusal) => {
            let (reason, at) = match refusal {
                Refusal::Kind(kind) => (format!("the `{kind}` action is not exported yet"), place),
                Refusal::Value { text, why } => (why, file.place(text)),
            };
            report.push_at(Status::Refused, what, reason.clone(), at);
            failing(&mut tasks.operators, task_id, &reason)
        }
    }
}

/// An email action as the SMTP provider's `EmailOperator`: its recipients,
/// subject and body as templates.
#[allow(clippy::too_many_arguments)]
fn email_task(
    tasks: &mut Tasks,
    task_id: &str,
    what: String,
    place: Place,
    body: &ActionBody,
    file: &WorkflowFile,
    job: &str,
    report: &mut AppReport,
) -> String {
    let mut differences = vec![
        "Airflow's `EmailOperator` sends it through its SMTP connection (`smtp_default`), the body as HTML".to_string(),
    ];
    let mut arguments = vec![format!("task_id={}", string(task_id))];
    for (element, argument) in [
        ("to", "to"),
        ("cc", "cc"),
        ("bcc", "bcc"),
        ("subject", "subject"),
        ("body", "html_content"),
    ] {
        for text in values(body, element) {
            match translated(text, job, &mut differences) {
                Ok(t) => {
                    let mut template = t.template();
                    // (A value ending in `.html` would be read as a template
                    // file's name: an empty expression ends it instead.)
                    if template.ends_with(".html") {
                        template.push_str("{{ '' }}");
                    }
                    arguments.push(format!("{argument}={}", string(&template)));
                }
                Err(Refusal::Value { text, why }) => {
                    report.push_at(Status::Refused, what, why.clone(), file.place(text));
                    return failing(&mut tasks.operators, task_id, &why);
                }
                Err(Refusal::Kind(_)) => {}
            }
        }
    }
    if let Some(content_type) = values(body, "content_type").next() {
        differences.push(format!(
            "its `<content_type>` ({}) is not kept",
            content_type.text()
        ));
    }
    if values(body, "attachment").next().is_some() {
        differences.push("its attachments (HDFS paths) are not sent".to_string());
    }
    report.push_at(
        Status::Mapped,
        what,
        format!("an EmailOperator; {}", differences.join("; ")),
        place,
    );
    tasks.operators.insert("EmailOperator");
    format!("EmailOperator({})", arguments.join(", "))
}

/// A command that does what an action does.
struct Command {
    text: String,
    summary: String,
    differences: Vec<String>,
}

enum Refusal {
    Kind(String),
    /// A value (at the span) that has no translation.
    Value {
        text: Span,
        why: String,
    },
}

/// Each value named `name` of `body`, translated.
fn values<'b>(body: &'b ActionBody, name: &str) -> impl Iterator<Item = &'b ElText> {
    body.values
        .iter()
        .filter(move |(n, _)| n.name == name)
        .map(|(_, v)| v)
}

fn translated(
    text: &ElText,
    job: &str,
    differences: &mut Vec<String>,
) -> Result<Translation, Refusal> {
    let t = translate(text, job).map_err(refusal)?;
    differences.extend(t.differences.iter().cloned());
    Ok(t)
}

fn refusal(refused: super::jinja::Refused) -> Refusal {
    Refusal::Value {
        text: refused.span,
        why: format!(
            "`{}` has no Airflow template equivalent yet",
            refused.expression
        ),
    }
}

/// `text` split at the spaces of its literal text, each word translated.
fn translated_words(
    text: &ElText,
    job: &str,
    differences: &mut Vec<String>,
) -> Result<Vec<Translation>, Refusal> {
    let words = super::jinja::translate_words(text, job).map_err(refusal)?;
    differences.extend(words.iter().flat_map(|w| w.differences.iter().cloned()));
    Ok(words)
}

/// `<prepare>`'s deletes and mkdirs, as `hdfs dfs` commands.
fn prepare(
    body: &ActionBody,
    job: &str,
    differences: &mut Vec<String>,
) -> Result<Vec<String>, Refusal> {
    let mut commands = Vec::new();
    for (name, text) in &body.values {
        let command = match name.name.as_str() {
            "delete@path" => "hdfs dfs -rm -r -f",
            "mkdir@path" => "hdfs dfs -mkdir -p",
            _ => continue,
        };
        commands.push(format!(
            "{command} {}",
            translated(text, job, differences)?.shell_word()
        ));
    }
    Ok(commands)
}

fn fs_command(body: &ActionBody, job: &str) -> Result<Command, Refusal> {
    let mut differences = Vec::new();
    let mut commands = Vec::new();
    let mut pending_move: Option<String> = None;
    for (name, text) in &body.values {
        let word = |d: &mut Vec<String>| translated(text, job, d).map(|t| t.shell_word());
        match name.name.as_str() {
            "delete@path" => {
                commands.push(format!("hdfs dfs -rm -r -f {}", word(&mut differences)?))
            }
            "mkdir@path" => {
                commands.push(format!("hdfs dfs -mkdir -p {}", word(&mut differences)?))
            }
            "touchz@path" => commands.push(format!("hdfs dfs -touchz {}", word(&mut differences)?)),
            "move@source" => pending_move = Some(word(&mut differences)?),
            "move@target" => match pending_move.take() {
                Some(source) => {
                    commands.push(format!("hdfs dfs -mv {source} {}", word(&mut differences)?))
                }
                None => {
                    return Err(Refusal::Value {
                        text: name.span,
                        why: "a `<move>` target without its source".to_string(),
                    });
                }
            },
            "name-node" => {}
            other => {
                return Err(Refusal::Value {
                    text: name.span,
                    why: format!("the fs operation `{other}` is not exported yet"),
                });
            }
        }
    }
    differences.push(
        "`hdfs dfs` on the Airflow worker (it needs the HDFS client); Oozie runs the operations in its launcher".to_string(),
    );
    Ok(Command {
        text: commands.join(" && "),
        summary: "a BashOperator running the operations as `hdfs dfs` commands, in order, stopping at the first failure"
            .to_string(),
        differences,
    })
}

/// How an action's values make the words of the command that does what it
/// does, on the Airflow worker.
enum Word {
    /// Fixed text (already shell).
    Literal(&'static str),
    /// Each value of the element, one word each.
    Each(&'static str),
    /// Each value of the element after a flag: `--flag VALUE`.
    Flag(&'static str, &'static str),
    /// Each value of the element, split at its spaces as Oozie splits it.
    Split(&'static str),
    /// Each `NAME=VALUE` of the element, exported before the command.
    Export(&'static str),
}

/// The command of an action kind, what it runs, and how it differs.
struct CommandSpec {
    kind: &'static str,
    words: &'static [Word],
    summary: &'static str,
    difference: &'static str,
}

/// The actions a command does (fs, a sequence of commands, is its own).
const COMMANDS: &[CommandSpec] = &[
    CommandSpec {
        kind: "shell",
        words: &[
            Word::Export("env-var"),
            Word::Each("exec"),
            Word::Each("argument"),
        ],
        summary: "a BashOperator running the `<exec>` with its arguments",
        difference: "the command runs on the Airflow worker",
    },
    CommandSpec {
        kind: "java",
        words: &[
            Word::Literal("java"),
            Word::Split("java-opts"),
            Word::Each("java-opt"),
            Word::Literal("-cp \"$COORDC_JAVA_CLASSPATH\""),
            Word::Each("main-class"),
            Word::Each("arg"),
        ],
        summary: "a BashOperator running the main class with `java`",
        difference: "the classpath is `COORDC_JAVA_CLASSPATH` on the Airflow worker (in Oozie: the workflow's lib/ folder)",
    },
    CommandSpec {
        kind: "hive",
        words: &[
            Word::Literal("hive"),
            Word::Flag("-f", "script"),
            Word::Flag("--hivevar", "param"),
            Word::Each("argument"),
        ],
        summary: "a BashOperator running the script with the Hive CLI",
        difference: "the `hive` CLI runs on the Airflow worker, with the script there (in Oozie: shipped from the workflow's folder)",
    },
    CommandSpec {
        kind: "hive2",
        words: &[
            Word::Literal("beeline"),
            Word::Flag("-u", "jdbc-url"),
            Word::Flag("-p", "password"),
            Word::Flag("-f", "script"),
            Word::Flag("-e", "query"),
            Word::Flag("--hivevar", "param"),
            Word::Each("argument"),
        ],
        summary: "a BashOperator running the script or query with Beeline",
        difference: "`beeline` runs on the Airflow worker, with the script there (in Oozie: shipped from the workflow's folder)",
    },
    CommandSpec {
        kind: "sqoop",
        words: &[
            Word::Literal("sqoop"),
            Word::Split("command"),
            Word::Each("arg"),
        ],
        summary: "a BashOperator running the Sqoop command",
        difference: "`sqoop` runs on the Airflow worker (Airflow's Sqoop provider was removed)",
    },
    CommandSpec {
        kind: "spark",
        words: &[
            Word::Literal("spark-submit"),
            Word::Flag("--master", "master"),
            Word::Flag("--deploy-mode", "mode"),
            Word::Flag("--name", "name"),
            Word::Flag("--class", "class"),
            Word::Split("spark-opts"),
            Word::Each("jar"),
            Word::Each("arg"),
        ],
        summary: "a BashOperator running `spark-submit`",
        difference: "`spark-submit` runs on the Airflow worker, with the jar there",
    },
    CommandSpec {
        kind: "distcp",
        words: &[Word::Literal("hadoop distcp"), Word::Each("arg")],
        summary: "a BashOperator running `hadoop distcp`",
        difference: "`hadoop distcp` runs on the Airflow worker (its java-opts are not passed)",
    },
    CommandSpec {
        kind: "ssh",
        words: &[
            Word::Literal("ssh -o BatchMode=yes"),
            Word::Each("host"),
            Word::Each("command"),
            Word::Each("args"),
            Word::Each("arg"),
        ],
        summary: "a BashOperator running the command on the host with `ssh`",
        difference: "`ssh` runs from the Airflow worker, with its keys",
    },
];

/// The command `spec` makes of `body`: `<prepare>` first, then its words.
fn command_line(spec: &CommandSpec, body: &ActionBody, job: &str) -> Result<Command, Refusal> {
    let mut differences = vec![spec.difference.to_string()];
    let mut words = prepare(body, job, &mut differences)?;
    if !words.is_empty() {
        words = vec![format!("{} &&", words.join(" && "))];
    }
    for word in spec.words {
        match word {
            Word::Literal(text) => words.push(text.to_string()),
            Word::Each(name) => {
                for text in values(body, name) {
                    words.push(translated(text, job, &mut differences)?.shell_word());
                }
            }
            Word::Flag(flag, name) => {
                for text in values(body, name) {
                    words.push(format!(
                        "{flag} {}",
                        translated(text, job, &mut differences)?.shell_word()
                    ));
                }
            }
            Word::Split(name) => {
                for text in values(body, name) {
                    for piece in translated_words(text, job, &mut differences)? {
                        words.push(piece.shell_word());
                    }
                }
            }
            Word::Export(name) => {
                for text in values(body, name) {
                    words.push(format!(
                        "export {} &&",
                        translated(text, job, &mut differences)?.shell_word()
                    ));
                }
            }
        }
    }
    if values(body, "file").next().is_some() || values(body, "archive").next().is_some() {
        differences.push(
            "its `<file>`s and `<archive>`s are not shipped: the command runs in the worker's working folder".to_string(),
        );
    }
    if body.elements.iter().any(|e| e.name == "capture-output") {
        differences.push(
            "`<capture-output/>`: the last line of output goes to XCom (`wf:actionData` reads Java properties)".to_string(),
        );
    }
    Ok(Command {
        text: words.join(" "),
        summary: spec.summary.to_string(),
        differences,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::airflow::tests::workflow_of;

    /// Workflow files by app-path (each its own file `APP_PATH.xml`).
    struct Apps(Vec<(&'static str, String)>);

    /// A workflow application read from `xml`, as the file `path`.
    fn read(app_path: &str, path: &str, xml: &str) -> Workflow {
        let mut sources = Sources::default();
        sources.add(path.to_string(), xml.to_string());
        Workflow {
            app_path: app_path.to_string(),
            workflow: std::sync::Arc::new(workflow_of(xml)),
            defaults: crate::el::VarMap::default(),
            found_by_name: false,
            path: path.to_string(),
            sources,
        }
    }

    impl FindWorkflow for Apps {
        fn find(&self, app_path: &str, _: &str) -> Result<Workflow, String> {
            let (path, xml) = self
                .0
                .iter()
                .find(|(p, _)| *p == app_path)
                .ok_or_else(|| format!("no workflow at {app_path}"))?;
            Ok(read(app_path, &format!("{path}.xml"), xml))
        }
    }

    impl Tasks {
        /// Every task's variable and definition, in groups too.
        fn definitions(&self) -> Vec<(String, String)> {
            fn flat(items: &[Item], out: &mut Vec<(String, String)>) {
                for item in items {
                    match item {
                        Item::Task { var, definition } => {
                            out.push((var.clone(), definition.clone()))
                        }
                        Item::Group { items, .. } => flat(items, out),
                    }
                }
            }
            let mut out = Vec::new();
            flat(&self.items, &mut out);
            out
        }

        /// The definition of the task `var`.
        fn definition(&self, var: &str) -> String {
            self.definitions()
                .into_iter()
                .find(|(v, _)| v == var)
                .map(|(_, d)| d)
                .unwrap_or_else(|| panic!("no task {var}"))
        }

        /// The edges, as text.
        fn edge_pairs(&self) -> Vec<(&str, &str)> {
            self.edges
                .iter()
                .map(|(a, b)| (a.as_str(), b.as_str()))
                .collect()
        }
    }

    fn export(xml: &str) -> (Tasks, AppReport) {
        export_with(xml, Apps(Vec::new()))
    }

    /// The tasks of workflow `xml` (its job's configuration `nameNode` and
    /// `user.name`), its sub-workflows found in `apps`.
    fn export_with(xml: &str, apps: Apps) -> (Tasks, AppReport) {
        let wf = read("hdfs://nn/apps/main", "wf.xml", xml);
        let mut report = AppReport {
            app: "c.xml".to_string(),
            bundle: None,
            dag_id: "d".to_string(),
            dag_file: "d.py".to_string(),
            items: Vec::new(),
        };
        let job = Job {
            conf: [("nameNode", "hdfs://nn"), ("user.name", "joe")]
                .into_iter()
                .map(|(k, v)| (k.to_string(), Some(v.to_string())))
                .collect(),
            app_path: wf.app_path.clone(),
        };
        let tasks = tasks(
            &wf,
            &job,
            &apps,
            ProcessingZone::UTC,
            &mut report,
            &BTreeSet::new(),
        );
        (tasks, report)
    }

    const FORKED: &str = r#"<workflow-app name="w" xmlns="uri:oozie:workflow:0.5">
<start to="f"/>
<fork name="f"><path start="a"/><path start="b"/></fork>
<action name="a"><shell xmlns="uri:oozie:shell-action:0.3"><exec>a.sh</exec></shell><ok to="j"/><error to="k"/></action>
<action name="b"><fs><mkdir path="/x"/></fs><ok to="j"/><error to="k"/></action>
<join name="j" to="end"/>
<kill name="k"><message>failed</message></kill>
<end name="end"/>
</workflow-app>"#;

    #[test]
    fn forks_fan_out_joins_wait_and_kills_run_on_a_failure() {
        let (tasks, report) = export(FORKED);
        assert_eq!(tasks.first, ["a", "b"]);
        assert_eq!(
            tasks.edge_pairs(),
            [("a", "j"), ("a", "k"), ("b", "j"), ("b", "k")]
        );
        let definition = |var: &str| tasks.definition(var);
        assert_eq!(
            definition("k"),
            r#"BashOperator(task_id="k", bash_command="echo failed >&2; exit 1", trigger_rule="one_failed")"#
        );
        // (A command ending in .sh gets a space: Airflow would read a file.)
        assert_eq!(
            definition("a"),
            r#"BashOperator(task_id="a", bash_command="a.sh ")"#
        );
        // A join runs when no path failed (a decision may skip some).
        assert_eq!(
            definition("j"),
            r#"EmptyOperator(task_id="j", trigger_rule="none_failed_min_one_success")"#
        );
        assert_eq!(report.refused(), 0);
    }

    #[test]
    fn a_decision_branches_to_the_tasks_of_its_cases_and_their_paths_meet() {
        let xml = r#"<workflow-app name="w" xmlns="uri:oozie:workflow:0.5">
<start to="d"/>
<decision name="d"><switch><case to="one">${wf:conf('size') gt 10}</case><case to="f">${trim(mode) eq 'both'}</case><default to="end"/></switch></decision>
<action name="one"><shell xmlns="uri:oozie:shell-action:0.3"><exec>one</exec></shell><ok to="c"/><error to="k"/></action>
<fork name="f"><path start="a"/><path start="b"/></fork>
<action name="a"><shell xmlns="uri:oozie:shell-action:0.3"><exec>a</exec></shell><ok to="j"/><error to="k"/></action>
<action name="b"><shell xmlns="uri:oozie:shell-action:0.3"><exec>b</exec></shell><ok to="j"/><error to="k"/></action>
<join name="j" to="c"/>
<action name="c"><shell xmlns="uri:oozie:shell-action:0.3"><exec>c</exec></shell><ok to="end"/><error to="k"/></action>
<kill name="k"><message>failed</message></kill>
<end name="end"/>
</workflow-app>"#;
        let (tasks, report) = export(xml);
        let definition = |var: &str| tasks.definition(var);
        assert_eq!(
            definition("d"),
            r#"BranchPythonOperator(task_id="d", python_callable=OOZIE.branch, op_kwargs={"cases": [("${wf:conf('size') gt 10}", ["one"]), ("${trim(mode) eq 'both'}", ["a", "b"])], "default": []})"#
        );
        // Where the decision's paths meet, the task runs after the path taken.
        assert!(
            definition("c").ends_with(r#"trigger_rule="none_failed_min_one_success")"#),
            "{}",
            definition("c")
        );
        assert!(!definition("a").contains("trigger_rule"));
        assert!(definition("j").contains("none_failed_min_one_success"));
        assert_eq!(report.refused(), 0);
        assert!(tasks.operators.contains("BranchPythonOperator"));
    }

    #[test]
    fn a_kill_reached_by_a_decision_and_by_errors_is_two_tasks() {
        let xml = r#"<workflow-app name="w" xmlns="uri:oozie:workflow:0.5">
<start to="d"/>
<decision name="d"><switch><case to="a">${x eq 1}</case><default to="fail"/></switch></decision>
<action name="a"><shell xmlns="uri:oozie:shell-action:0.3"><exec>a</exec></shell><ok to="end"/><error to="fail"/></action>
<kill name="fail"><message>{{ no }} {</message></kill>
<end name="end"/>
</workflow-app>"#;
        let (tasks, _) = export(xml);
        assert_eq!(
            tasks.edge_pairs(),
            [("d", "a"), ("d", "fail_reached"), ("a", "fail")]
        );
        let definition = |var: &str| tasks.definition(var);
        // The message, literal, is out of Jinja's reach.
        assert_eq!(
            definition("fail"),
            r#"BashOperator(task_id="fail", bash_command="echo {{ '\\'{{ no }} {\\'' }} >&2; exit 1", trigger_rule="one_failed")"#
        );
        assert_eq!(
            definition("fail_reached"),
            r#"BashOperator(task_id="fail_reached", bash_command="echo {{ '\\'{{ no }} {\\'' }} >&2; exit 1")"#
        );
    }

    #[test]
    fn an_email_action_is_an_email_operator_of_templates() {
        let xml = r#"<workflow-app name="w" xmlns="uri:oozie:workflow:0.5">
<start to="m"/>
<action name="m"><email xmlns="uri:oozie:email-action:0.2"><to>a@x.org,${owner}</to><subject>done {{x}}</subject><body>at ${wf:id()}</body></email><ok to="end"/><error to="end"/></action>
<end name="end"/>
</workflow-app>"#;
        let (tasks, report) = export(xml);
        assert_eq!(
            tasks.definitions()[0].1,
            r#"EmailOperator(task_id="m", to="a@x.org,{{ oozie.conf(logical_date, 'owner') }}", subject="{{ 'done {{x}}' }}", html_content="at {{ run_id }}")"#
        );
        let item = report
            .items
            .iter()
            .find(|i| i.what == "action m (email)")
            .unwrap();
        assert_eq!(item.status, Status::Mapped);
        assert!(item.detail.contains("run_id"), "{}", item.detail);
    }

    #[test]
    fn what_has_no_translation_fails_at_run_time_and_is_reported_at_its_place() {
        let xml = r#"<workflow-app name="w" xmlns="uri:oozie:workflow:0.5">
<start to="d"/>
<decision name="d"><switch><case to="h">${fs:exists(x)}</case><default to="end"/></switch></decision>
<action name="h"><pig><script>q.pig</script></pig><ok to="end"/><error to="s"/></action>
<action name="s"><shell xmlns="uri:oozie:shell-action:0.3"><exec>${wf:lastErrorNode()}</exec></shell><ok to="end"/><error to="end"/></action>
<end name="end"/>
</workflow-app>"#;
        let (tasks, report) = export(xml);
        let refused: Vec<(String, usize, usize)> = report
            .items
            .iter()
            .filter(|i| i.status == Status::Refused)
            .map(|i| {
                let at = i.at.as_ref().unwrap();
                (i.what.clone(), at.line, at.column)
            })
            .collect();
        assert_eq!(
            refused,
            [
                ("decision d".to_string(), 3, 43),
                ("action h error transition".to_string(), 4, 76),
                ("action h (pig)".to_string(), 4, 19),
                ("action s error transition".to_string(), 5, 127),
                ("action s (shell)".to_string(), 5, 66),
            ]
        );
        for (_, definition) in tasks.definitions() {
            assert!(definition.contains("exit 1"), "{definition}");
        }
    }

    const PARENT: &str = r#"<workflow-app name="main" xmlns="uri:oozie:workflow:0.5">
<start to="s"/>
<action name="s"><sub-workflow><app-path>${nameNode}/apps/load</app-path><propagate-configuration/><configuration><property><name>x</name><value>${wf:conf('n')}</value></property></configuration></sub-workflow><ok to="after"/><error to="fail"/></action>
<action name="after"><shell xmlns="uri:oozie:shell-action:0.3"><exec>after</exec></shell><ok to="end"/><error to="fail"/></action>
<kill name="fail"><message>failed</message></kill>
<end name="end"/>
</workflow-app>"#;

    const LOAD: &str = r#"<workflow-app name="load" xmlns="uri:oozie:workflow:0.5">
<start to="d"/>
<decision name="d"><switch><case to="a">${x eq 1}</case><default to="end"/></switch></decision>
<action name="a"><shell xmlns="uri:oozie:shell-action:0.3"><exec>${x}</exec></shell><ok to="end"/><error to="k"/></action>
<kill name="k"><message>load failed</message></kill>
<end name="end"/>
</workflow-app>"#;

    #[test]
    fn a_sub_workflow_is_a_group_of_its_tasks_reading_its_own_job() {
        let (tasks, report) = export_with(
            PARENT,
            Apps(vec![("hdfs://nn/apps/load", LOAD.to_string())]),
        );
        assert_eq!(report.refused(), 0, "{:?}", report.items);
        assert_eq!(tasks.first, ["s_d"]);
        assert!(tasks.grouped);
        let Item::Group {
            var,
            group_id,
            items,
            ..
        } = &tasks.items[0]
        else {
            panic!("a group first");
        };
        assert_eq!((var.as_str(), group_id.as_str()), ("s", "s"));
        let inside: Vec<String> = items
            .iter()
            .map(|i| match i {
                Item::Task { var, .. } | Item::Group { var, .. } => var.clone(),
            })
            .collect();
        assert_eq!(inside, ["s_d", "s_a", "s_k", "s_end"]);
        assert_eq!(
            tasks.edge_pairs(),
            [
                // The sub-workflow's graph, ending at its end node's task.
                ("s_d", "s_a"),
                ("s_d", "s_end"),
                ("s_a", "s_end"),
                ("s_a", "s_k"),
                // The action's ok leaves from there; its error from any task.
                ("s_end", "after"),
                ("s_d", "fail"),
                ("s_a", "fail"),
                ("s_k", "fail"),
                ("s_end", "fail"),
                ("after", "fail"),
            ]
        );
        let definition = |var: &str| tasks.definition(var);
        // Its decision reads its own job, and names the tasks by their whole ids.
        assert_eq!(
            definition("s_d"),
            r#"BranchPythonOperator(task_id="d", python_callable=oozie_s.branch, op_kwargs={"cases": [("${x eq 1}", ["s.a"])], "default": ["s.end"]})"#
        );
        assert_eq!(
            definition("s_a"),
            r#"BashOperator(task_id="a", bash_command="{{ oozie.quote(oozie_s.conf(logical_date, 'x')) }}")"#
        );
        assert_eq!(
            definition("s_end"),
            r#"EmptyOperator(task_id="end", trigger_rule="none_failed_min_one_success")"#
        );
        assert!(definition("s_k").ends_with(r#"trigger_rule="one_failed")"#));
        assert!(definition("fail").ends_with(r#"trigger_rule="one_failed")"#));
        // Its job: the parent's propagated, its configuration resolved in the parent.
        assert_eq!(
            tasks.jobs,
            [(
                "oozie_s".to_string(),
                "oozie_s = OOZIE.sub_workflow(\n    action=\"s\",\n    app_path=\"hdfs://nn/apps/load\",\n    propagate=True,\n    configuration={\n        \"x\": \"${wf:conf('n')}\",\n    },\n    defaults={},\n)\n".to_string()
            )]
        );
    }

    #[test]
    fn a_sub_workflow_that_cannot_be_a_group_is_a_failing_task_and_refused() {
        let looping = PARENT.replace("${nameNode}/apps/load", "${wf:appPath()}");
        let (tasks, report) = export_with(
            &looping,
            Apps(vec![("hdfs://nn/apps/main", looping.clone())]),
        );
        let refused: Vec<&str> = report
            .items
            .iter()
            .filter(|i| i.status == Status::Refused)
            .map(|i| i.detail.as_str())
            .collect();
        assert_eq!(refused.len(), 1, "{refused:?}");
        assert!(refused[0].contains("which runs it again"), "{}", refused[0]);
        // (The loop is found by the file: wf.xml runs main.xml, which runs
        // main.xml again: that action fails.)
        let definitions = tasks.definitions();
        let (_, inner) = definitions.iter().find(|(v, _)| v == "s_s").unwrap();
        assert!(
            inner.contains("which runs it again") && inner.contains("exit 1"),
            "{inner}"
        );
        let (tasks, report) = export_with(PARENT, Apps(Vec::new()));
        assert_eq!(report.refused(), 1);
        assert!(!tasks.grouped);
        let (_, s) = &tasks.definitions()[0];
        assert!(
            s.contains("not exported from Oozie by coordc: no workflow at hdfs://nn/apps/load"),
            "{s}"
        );
    }
}
