//! A workflow as Airflow tasks: each action a task, fork and join as
//! dependencies (a join an `EmptyOperator`), a kill node a task that fails
//! with its message, reached by `one_failed` from the actions whose error
//! transition goes to it. What has no translation yet is a task that fails
//! with the reason, and a refused item of the report at its place: never a
//! silent gap.

use super::jinja::{Translation, translate};
use super::python::{airflow_id, has_jinja_tag, identifier, jinja_text, shell_word, string};
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
    /// The operators used: `BashOperator`, `EmptyOperator`,
    /// `BranchPythonOperator`, `EmailOperator`.
    pub(super) operators: BTreeSet<&'static str>,
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

/// The tasks of `wf`, their variables and ids other than `reserved` (the
/// sensors' and the file's own names).
pub(super) fn tasks(
    wf: &Workflow,
    file: &WorkflowFile,
    report: &mut AppReport,
    reserved: &BTreeSet<String>,
) -> Tasks {
    let mut tasks = Tasks {
        definitions: Vec::new(),
        edges: Vec::new(),
        first: Vec::new(),
        operators: BTreeSet::new(),
    };
    let mut taken = reserved.clone();
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
    let mut ids_taken = reserved.clone();
    let task_ids: std::collections::HashMap<String, String> = wf
        .nodes
        .iter()
        .zip(&variables)
        .filter_map(|(node, var)| {
            let mut id = airflow_id(&node.name.name);
            while !ids_taken.insert(id.clone()) {
                id.push('_');
            }
            Some((var.clone()?, id))
        })
        .collect();
    // A kill node reached by error transitions and by others (a decision's
    // case, an ok) is two tasks: the kill's, on `one_failed`, for the
    // errors, and `KILL_reached` for the others, which fails whenever it runs.
    let error_kills: BTreeSet<String> = wf
        .nodes
        .iter()
        .filter_map(|node| match &node.kind {
            NodeKind::Action(action) => Some(targets(wf, &variables, &action.error.name, 0)),
            _ => None,
        })
        .flatten()
        .filter_map(|t| match t {
            Target::Kill(var) => Some(var),
            _ => None,
        })
        .collect();
    let target = |name: &str| -> Vec<Target> {
        targets(wf, &variables, name, 0)
            .into_iter()
            .map(|t| match t {
                Target::Kill(var) if error_kills.contains(&var) => {
                    Target::Kill(format!("{var}_reached"))
                }
                t => t,
            })
            .collect()
    };
    let id_of = |var: &str| -> Option<String> {
        match task_ids.get(var) {
            Some(id) => Some(id.clone()),
            None => Some(format!(
                "{}_reached",
                task_ids.get(var.strip_suffix("_reached")?)?
            )),
        }
    };
    tasks.first = target(&wf.start.name)
        .into_iter()
        .filter_map(|t| match t {
            Target::Task(v) | Target::Kill(v) => Some(v),
            Target::End => None,
        })
        .collect();
    for (node, var) in wf.nodes.iter().zip(&variables) {
        let Some(var) = var else { continue };
        let Some(task_id) = task_ids.get(var).cloned() else {
            continue;
        };
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
                        jinja_text(&shell_word(message.text()))
                    }
                };
                bash(
                    &mut tasks.operators,
                    &task_id,
                    &format!("echo {message} >&2; exit 1"),
                )
            }
            NodeKind::Decision { cases, default } => {
                for to in cases.iter().map(|(_, to)| to).chain([default]) {
                    for t in target(&to.name) {
                        edge(&mut tasks, var, t);
                    }
                }
                let what = format!("decision {}", node.name.name);
                match cases.iter().find_map(|(case, _)| unrenderable(case)) {
                    Some((why, at)) => {
                        report.push_at(Status::Refused, what, why.clone(), file.place(at));
                        failing(&mut tasks.operators, &task_id, &why)
                    }
                    None => {
                        report.push_at(
                            Status::Mapped,
                            what,
                            "a BranchPythonOperator: coordc renders each case with the run's configuration on the worker and the first `true` wins, as in Oozie",
                            file.place(node.span),
                        );
                        let ids = |name: &str| -> String {
                            let ids: Vec<String> = target(name)
                                .iter()
                                .filter_map(|t| match t {
                                    Target::Task(v) | Target::Kill(v) => {
                                        id_of(v).map(|id| string(&id))
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
                        tasks.operators.insert("BranchPythonOperator");
                        format!(
                            "BranchPythonOperator(task_id={}, python_callable=OOZIE.branch, op_kwargs={{\"cases\": [{}], \"default\": {}}})",
                            string(&task_id),
                            cases.join(", "),
                            ids(&default.name)
                        )
                    }
                }
            }
            NodeKind::Action(action) => {
                for t in target(&action.ok.name) {
                    edge(&mut tasks, var, t);
                }
                for t in targets(wf, &variables, &action.error.name, 0) {
                    match t {
                        Target::Kill(kill) => tasks.edges.push((var.clone(), kill)),
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
    reached_kills(&mut tasks, &error_kills, &task_ids);
    // A kill node reached from errors runs when one of those actions
    // failed; a task where paths meet (a join, or a decision's paths) runs
    // when none failed, after the ones taken (the others are skipped).
    let upstream = |var: &String| tasks.edges.iter().filter(|(_, to)| to == var).count();
    let rules: Vec<Option<&str>> = tasks
        .definitions
        .iter()
        .map(|(var, _)| {
            if error_kills.contains(var) {
                Some("one_failed")
            } else if upstream(var) > 1 {
                Some("none_failed_min_one_success")
            } else {
                None
            }
        })
        .collect();
    for ((_, definition), rule) in tasks.definitions.iter_mut().zip(rules) {
        if let Some(rule) = rule
            && let Some(open) = definition.rfind(')')
        {
            definition.insert_str(open, &format!(", trigger_rule=\"{rule}\""));
        }
    }
    tasks
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

/// The `KILL_reached` task of each kill of `error_kills` that another
/// transition reaches: the kill's command under its own id.
fn reached_kills(
    tasks: &mut Tasks,
    error_kills: &BTreeSet<String>,
    task_ids: &std::collections::HashMap<String, String>,
) {
    for kill in error_kills {
        let reached = format!("{kill}_reached");
        let (Some(id), Some(definition)) = (
            task_ids.get(kill),
            tasks.definitions.iter().find(|(var, _)| var == kill),
        ) else {
            continue;
        };
        if !tasks.edges.iter().any(|(_, to)| *to == reached) {
            continue;
        }
        let definition = definition.1.replacen(
            &format!("task_id={}", string(id)),
            &format!("task_id={}", string(&format!("{id}_reached"))),
            1,
        );
        tasks.definitions.push((reached, definition));
    }
}

fn edge(tasks: &mut Tasks, from: &str, to: Target) {
    match to {
        Target::Task(to) | Target::Kill(to) => tasks.edges.push((from.to_string(), to)),
        Target::End => {}
    }
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
    let kind = action.kind.name.as_str();
    if kind == "email" {
        return email_task(tasks, task_id, what, place, &action.body, file, report);
    }
    let command = match (kind, COMMANDS.iter().find(|c| c.kind == kind)) {
        ("fs", _) => fs_command(&action.body),
        (_, Some(spec)) => command_line(spec, &action.body),
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
fn email_task(
    tasks: &mut Tasks,
    task_id: &str,
    what: String,
    place: Place,
    body: &ActionBody,
    file: &WorkflowFile,
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
            match translated(text, &mut differences) {
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

fn translated(text: &ElText, differences: &mut Vec<String>) -> Result<Translation, Refusal> {
    let t = translate(text).map_err(refusal)?;
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
    differences: &mut Vec<String>,
) -> Result<Vec<Translation>, Refusal> {
    let words = super::jinja::translate_words(text).map_err(refusal)?;
    differences.extend(words.iter().flat_map(|w| w.differences.iter().cloned()));
    Ok(words)
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
fn command_line(spec: &CommandSpec, body: &ActionBody) -> Result<Command, Refusal> {
    let mut differences = vec![spec.difference.to_string()];
    let mut words = prepare(body, &mut differences)?;
    if !words.is_empty() {
        words = vec![format!("{} &&", words.join(" && "))];
    }
    for word in spec.words {
        match word {
            Word::Literal(text) => words.push(text.to_string()),
            Word::Each(name) => {
                for text in values(body, name) {
                    words.push(translated(text, &mut differences)?.shell_word());
                }
            }
            Word::Flag(flag, name) => {
                for text in values(body, name) {
                    words.push(format!(
                        "{flag} {}",
                        translated(text, &mut differences)?.shell_word()
                    ));
                }
            }
            Word::Split(name) => {
                for text in values(body, name) {
                    for piece in translated_words(text, &mut differences)? {
                        words.push(piece.shell_word());
                    }
                }
            }
            Word::Export(name) => {
                for text in values(body, name) {
                    words.push(format!(
                        "export {} &&",
                        translated(text, &mut differences)?.shell_word()
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
        (tasks(&wf, &file, &mut report, &BTreeSet::new()), report)
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
        let definition = |var: &str| {
            tasks
                .definitions
                .iter()
                .find(|(v, _)| v == var)
                .map(|(_, d)| d.clone())
                .unwrap()
        };
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
        let edges: Vec<(&str, &str)> = tasks
            .edges
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        assert_eq!(edges, [("d", "a"), ("d", "fail_reached"), ("a", "fail")]);
        let definition = |var: &str| {
            tasks
                .definitions
                .iter()
                .find(|(v, _)| v == var)
                .map(|(_, d)| d.clone())
                .unwrap()
        };
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
            tasks.definitions[0].1,
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
        for (_, definition) in &tasks.definitions {
            assert!(definition.contains("exit 1"), "{definition}");
        }
    }
}
