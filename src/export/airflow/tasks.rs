//! A workflow as Airflow tasks: each action a task, fork and join as
//! dependencies (a join an `EmptyOperator`), a kill node a task that fails
//! with its message, reached by `one_failed` from the actions whose error
//! transition goes to it. What has no translation yet is a task that fails
//! with the reason, and a refused item of the report at its place: never a
//! silent gap.

use super::jinja::{Translation, translate};
use super::python::{airflow_id, identifier, shell_word, string};
use super::report::{AppReport, Place, Status};
use crate::ir::{ActionBody, ElText, NodeKind, Workflow, WorkflowAction};
use crate::project::load::Sources;
use crate::span::Span;
use std::collections::BTreeSet;

/// The tasks of a workflow, as Python statements inside the DAG's `with`.
pub(super) struct Tasks {
    /// Each task's variable and its definition (`var = Operator(...)`).
    pub(super) definitions: Vec<(String, String)>,
    /// `upstream >> downstream`, by variable.
    pub(super) edges: Vec<(String, String)>,
    /// The tasks the workflow starts with (after the data-in sensors).
    pub(super) first: Vec<String>,
    /// The operators used: `BashOperator`, `EmptyOperator`.
    pub(super) operators: BTreeSet<&'static str>,
}

/// Where the workflow is, to point at its values.
pub struct WorkflowFile<'a> {
    pub path: &'a str,
    /// The workflow file's text, as its only source.
    pub sources: &'a Sources,
}

impl WorkflowFile<'_> {
    fn place(&self, span: Span) -> Place {
        let (line, column) = self.sources.line_column(0, span.start as usize);
        Place {
            file: self.path.to_string(),
            line,
            column,
        }
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

pub(super) fn tasks(wf: &Workflow, file: &WorkflowFile, report: &mut AppReport) -> Tasks {
    let mut tasks = Tasks {
        definitions: Vec::new(),
        edges: Vec::new(),
        first: Vec::new(),
        operators: BTreeSet::new(),
    };
    let mut taken = BTreeSet::new();
    let variables: Vec<Option<String>> = wf
        .nodes
        .iter()
        .map(|node| match node.kind {
            NodeKind::Fork { .. } => None,
            _ => {
                let mut var = identifier(&node.name.name);
                while !taken.insert(var.clone()) {
                    var.push('_');
                }
                Some(var)
            }
        })
        .collect();
    let target = |name: &str| -> Vec<Target> { targets(wf, &variables, name, 0) };
    tasks.first = target(&wf.start.name)
        .into_iter()
        .filter_map(|t| match t {
            Target::Task(v) | Target::Kill(v) => Some(v),
            Target::End => None,
        })
        .collect();
    let mut one_failed = BTreeSet::new();
    for (node, var) in wf.nodes.iter().zip(&variables) {
        let Some(var) = var else { continue };
        let task_id = airflow_id(&node.name.name);
        let definition = match &node.kind {
            NodeKind::Fork { .. } => continue,
            NodeKind::Join { to } => {
                for t in target(&to.name) {
                    edge(&mut tasks, var, t);
                }
                tasks.operators.insert("EmptyOperator");
                format!("EmptyOperator(task_id={})", string(&task_id))
            }
            NodeKind::Kill { message } => {
                report.push_at(
                    Status::Exact,
                    format!("kill {}", node.name.name),
                    "a task that fails with the kill message",
                    file.place(node.span),
                );
                let message = match translate(message) {
                    Ok(t) => t.shell_word(),
                    Err(_) => {
                        report.push_at(
                            Status::Mapped,
                            format!("kill {} message", node.name.name),
                            "its EL has no Airflow equivalent: the message is shown as written",
                            file.place(message.span),
                        );
                        shell_word(message.text())
                    }
                };
                bash(&mut tasks, &task_id, &format!("echo {message} >&2; exit 1"))
            }
            NodeKind::Decision { cases, default } => {
                let reason = "a decision node is not exported yet (its predicates are EL, which would run as Python branching)";
                report.push_at(
                    Status::Refused,
                    format!("decision {}", node.name.name),
                    reason,
                    file.place(node.span),
                );
                for to in cases.iter().map(|(_, to)| to).chain([default]) {
                    for t in target(&to.name) {
                        edge(&mut tasks, var, t);
                    }
                }
                failing(&mut tasks, &task_id, reason)
            }
            NodeKind::Action(action) => {
                for t in target(&action.ok.name) {
                    edge(&mut tasks, var, t);
                }
                for t in target(&action.error.name) {
                    match t {
                        Target::Kill(kill) => {
                            tasks.edges.push((var.clone(), kill.clone()));
                            one_failed.insert(kill);
                        }
                        Target::End | Target::Task(_) => report.push_at(
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
                action_task(
                    &mut tasks,
                    &task_id,
                    &node.name.name,
                    action,
                    wf,
                    file,
                    report,
                )
            }
        };
        tasks.definitions.push((var.clone(), definition));
    }
    // A kill node reached from errors runs when one of those actions failed.
    for (var, definition) in &mut tasks.definitions {
        if one_failed.contains(var)
            && let Some(open) = definition.rfind(')')
        {
            definition.insert_str(open, ", trigger_rule=\"one_failed\"");
        }
    }
    tasks
}

/// The tasks a transition to `name` reaches: a fork's paths, the end none.
fn targets(wf: &Workflow, variables: &[Option<String>], name: &str, depth: usize) -> Vec<Target> {
    if name == wf.end.name {
        return vec![Target::End];
    }
    let Some(index) = wf.nodes.iter().position(|n| n.name.name == name) else {
        return Vec::new();
    };
    let node = wf.nodes.get(index);
    match (
        node.map(|n| &n.kind),
        variables.get(index).cloned().flatten(),
    ) {
        // (A fork of forks is bounded by the nodes; a cycle, which the
        // check reports, stops here.)
        (Some(NodeKind::Fork { paths }), _) if depth < wf.nodes.len() => paths
            .iter()
            .flat_map(|p| targets(wf, variables, &p.name, depth + 1))
            .collect(),
        (Some(NodeKind::Kill { .. }), Some(var)) => vec![Target::Kill(var)],
        (_, Some(var)) => vec![Target::Task(var)],
        _ => Vec::new(),
    }
}

fn edge(tasks: &mut Tasks, from: &str, to: Target) {
    match to {
        Target::Task(to) | Target::Kill(to) => tasks.edges.push((from.to_string(), to)),
        Target::End => {}
    }
}

fn bash(tasks: &mut Tasks, task_id: &str, command: &str) -> String {
    tasks.operators.insert("BashOperator");
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

/// A task that fails with `reason`: what stands where nothing was exported.
fn failing(tasks: &mut Tasks, task_id: &str, reason: &str) -> String {
    let message = format!("not exported from Oozie by coordc: {reason}");
    bash(
        tasks,
        task_id,
        &format!("echo {} >&2; exit 1", shell_word(&message)),
    )
}

/// One action's task: a command for the actions a command does, else a
/// failing task with the reason.
fn action_task(
    tasks: &mut Tasks,
    task_id: &str,
    name: &str,
    action: &WorkflowAction,
    wf: &Workflow,
    file: &WorkflowFile,
    report: &mut AppReport,
) -> String {
    let what = format!("action {name} ({})", action.kind.name);
    let place = file.place(action.kind.span);
    let command = match action.kind.name.as_str() {
        "shell" => shell_command(&action.body),
        "fs" => fs_command(&action.body),
        "java" => java_command(&action.body),
        other => Err(Refusal::Kind(other.to_string())),
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
            bash(tasks, task_id, &command.text)
        }
        Err(refusal) => {
            let (reason, at) = match refusal {
                Refusal::Kind(kind) => (format!("the `{kind}` action is not exported yet"), place),
                Refusal::Value { text, why } => (why, file.place(text)),
            };
            report.push_at(Status::Refused, what, reason.clone(), at);
            failing(tasks, task_id, &reason)
        }
    }
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

fn translated(text: &ElText, differences: &mut Vec<String>) -> Result<Translation, Refusal> {
    let t = translate(text).map_err(|refused| Refusal::Value {
        text: refused.span,
        why: format!(
            "`{}` has no Airflow template equivalent yet",
            refused.expression
        ),
    })?;
    differences.extend(t.differences.iter().cloned());
    Ok(t)
}

/// `<prepare>`'s deletes and mkdirs, as `hdfs dfs` commands.
fn prepare(body: &ActionBody, differences: &mut Vec<String>) -> Result<Vec<String>, Refusal> {
    let mut commands = Vec::new();
    for (name, text) in &body.values {
        let command = match name.name.as_str() {
            "delete@path" => "hdfs dfs -rm -r -f",
            "mkdir@path" => "hdfs dfs -mkdir -p",
            _ => continue,
        };
        commands.push(format!(
            "{command} {}",
            translated(text, differences)?.shell_word()
        ));
    }
    Ok(commands)
}

fn shell_command(body: &ActionBody) -> Result<Command, Refusal> {
    let mut differences = Vec::new();
    let mut words = prepare(body, &mut differences)?;
    if !words.is_empty() {
        words = vec![format!("{} &&", words.join(" && "))];
    }
    for text in values(body, "env-var") {
        words.push(format!(
            "export {} &&",
            translated(text, &mut differences)?.shell_word()
        ));
    }
    for text in values(body, "exec").chain(values(body, "argument")) {
        words.push(translated(text, &mut differences)?.shell_word());
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
        summary: "a BashOperator running the `<exec>` with its arguments on the Airflow worker"
            .to_string(),
        differences,
    })
}

fn fs_command(body: &ActionBody) -> Result<Command, Refusal> {
    let mut differences = Vec::new();
    let mut commands = Vec::new();
    let mut pending_move: Option<String> = None;
    for (name, text) in &body.values {
        let word = |d: &mut Vec<String>| translated(text, d).map(|t| t.shell_word());
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

fn java_command(body: &ActionBody) -> Result<Command, Refusal> {
    let mut differences = Vec::new();
    let mut words = prepare(body, &mut differences)?;
    if !words.is_empty() {
        words = vec![format!("{} &&", words.join(" && "))];
    }
    words.push("java".to_string());
    for text in values(body, "java-opts").chain(values(body, "java-opt")) {
        // (java-opts is a space-separated list, as Oozie splits it.)
        let t = translated(text, &mut differences)?;
        match t.plain() {
            Some(plain) => words.extend(plain.split_whitespace().map(shell_word)),
            None => words.push(t.shell_word()),
        }
    }
    words.push("-cp \"$COORDC_JAVA_CLASSPATH\"".to_string());
    for text in values(body, "main-class").chain(values(body, "arg")) {
        words.push(translated(text, &mut differences)?.shell_word());
    }
    differences.push(
        "the main class runs with `java` on the Airflow worker, its classpath from `COORDC_JAVA_CLASSPATH` (in Oozie: the workflow's lib/ folder)".to_string(),
    );
    Ok(Command {
        text: words.join(" "),
        summary: "a BashOperator running the main class".to_string(),
        differences,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::airflow::tests::workflow_of;

    fn export(xml: &str) -> (Tasks, AppReport) {
        let wf = workflow_of(xml);
        let mut sources = Sources::default();
        sources.add("wf.xml".to_string(), xml.to_string());
        let mut report = AppReport {
            app: "c.xml".to_string(),
            bundle: None,
            dag_id: "d".to_string(),
            dag_file: "d.py".to_string(),
            items: Vec::new(),
        };
        let file = WorkflowFile {
            path: "wf.xml",
            sources: &sources,
        };
        (tasks(&wf, &file, &mut report), report)
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
        let edges: Vec<(&str, &str)> = tasks
            .edges
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        assert_eq!(edges, [("a", "j"), ("a", "k"), ("b", "j"), ("b", "k")]);
        let definition = |var: &str| {
            tasks
                .definitions
                .iter()
                .find(|(v, _)| v == var)
                .map(|(_, d)| d.as_str())
                .unwrap()
        };
        assert_eq!(
            definition("k"),
            r#"BashOperator(task_id="k", bash_command="echo failed >&2; exit 1", trigger_rule="one_failed")"#
        );
        // (A command ending in .sh gets a space: Airflow would read a file.)
        assert_eq!(
            definition("a"),
            r#"BashOperator(task_id="a", bash_command="a.sh ")"#
        );
        assert_eq!(definition("j"), r#"EmptyOperator(task_id="j")"#);
        assert_eq!(report.refused(), 0);
    }

    #[test]
    fn what_has_no_translation_fails_at_run_time_and_is_reported_at_its_place() {
        let xml = r#"<workflow-app name="w" xmlns="uri:oozie:workflow:0.5">
<start to="d"/>
<decision name="d"><switch><case to="h">${x eq 1}</case><default to="end"/></switch></decision>
<action name="h"><hive xmlns="uri:oozie:hive-action:0.5"><script>q.sql</script></hive><ok to="end"/><error to="s"/></action>
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
                ("decision d".to_string(), 3, 2),
                ("action h error transition".to_string(), 4, 112),
                ("action h (hive)".to_string(), 4, 19),
                ("action s error transition".to_string(), 5, 127),
                ("action s (shell)".to_string(), 5, 66),
            ]
        );
        for (_, definition) in &tasks.definitions {
            assert!(definition.contains("exit 1"), "{definition}");
        }
    }
}
