//! `coordc export airflow`: a coordinator as an Apache Airflow 3 DAG file
//! (Python), with the report of what maps exactly, with a difference, or not
//! at all.
//!
//! The DAG imports the runtime package `coordc_airflow` (airflow-runtime/ in
//! this repository). Its `OozieCoordinator` holds the coordinator's schedule,
//! datasets, data-ins and action configuration as written, with the job's
//! properties; the runtime computes every nominal time, data-in URI and
//! resolved configuration by running coordc on them, so Oozie's calendar
//! rules have one definition. Where every nominal time is the same elapsed
//! time apart, the DAG uses Airflow's own `DeltaTriggerTimetable`
//! (`schedule.rs` says why that is exact). `coordc export airflow --verify`
//! proves, with Airflow's own code, that the runs and the data-in URIs equal
//! the dry run's.

mod jinja;
mod python;
pub mod report;
pub mod sample;
mod schedule;
mod sub_workflows;
mod tasks;

use crate::ir::{DataIn, Dataset, ElText, Instances};
use crate::oozie::job::{Execution, Job};
use crate::project::load::{LoadedCoordinator, Sources};
use chrono::{DateTime, Utc};
use python::string;
use report::{AppReport, Place, Status};
use std::fmt::Write;

pub use tasks::WorkflowFile;

/// Finds and reads the workflow application at an app-path: through
/// `--map`, else by its name in the checkout, as `check` finds it.
pub trait FindWorkflow {
    /// The workflow at `app_path`, named by the application in file
    /// `from` (a relative app-path is beside it); or why there is none.
    fn find(&self, app_path: &str, from: &str) -> Result<Workflow, String>;
}

/// What the exporter reads of one coordinator.
pub struct Source<'a> {
    /// The coordinator file, as given.
    pub file: &'a str,
    /// In a bundle, the bundle file.
    pub bundle: Option<&'a str>,
    pub sources: &'a Sources,
    pub loaded: &'a LoadedCoordinator,
    pub job: &'a Job<'a>,
    /// The workflow its actions run (the first action's app-path), read; or
    /// why it could not be.
    pub workflow: Result<Workflow, String>,
    /// Finds the workflows its sub-workflow actions run.
    pub find: &'a dyn FindWorkflow,
    /// coordc's version, which the runtime package's must equal.
    pub version: &'a str,
}

/// A workflow application, read.
pub struct Workflow {
    pub app_path: String,
    pub workflow: std::sync::Arc<crate::ir::Workflow>,
    /// The workflow's `config-default.xml`.
    pub defaults: crate::el::VarMap,
    /// Found by its name in the checkout, not by a `--map`.
    pub found_by_name: bool,
    /// Its file, and the file's text as its only source.
    pub path: String,
    pub sources: Sources,
}

impl Workflow {
    pub(super) fn file(&self) -> WorkflowFile<'_> {
        WorkflowFile {
            path: &self.path,
            sources: &self.sources,
        }
    }
}

/// A DAG file, and its report.
pub struct DagFile {
    pub python: String,
    pub report: AppReport,
}

/// The DAG id of a coordinator job named `name` (Airflow's letters).
pub fn dag_id(name: &str) -> String {
    python::airflow_id(name)
}

/// The DAG of `source`, as `dag_id` in `file_name`.
pub fn export(source: &Source, dag_id: &str, file_name: &str) -> DagFile {
    let mut report = AppReport {
        app: source.file.to_string(),
        bundle: source.bundle.map(str::to_string),
        dag_id: dag_id.to_string(),
        dag_file: file_name.to_string(),
        items: Vec::new(),
    };
    let mut imports = Imports::default();
    let plan = schedule::plan(source.job);
    let app = &source.loaded.app;
    let frequency = plan
        .as_ref()
        .map_or_else(|| app.frequency.text().to_string(), |p| p.frequency.clone());
    // The workflow's config-default.xml and <parameters> defaults (both give
    // a value only where the job has none).
    let defaults = match &source.workflow {
        Ok(wf) => sub_workflows::defaults(wf, &mut report),
        Err(_) => Vec::new(),
    };
    let oozie = runtime_coordinator(source, &frequency, &defaults, &mut imports);
    // (The tasks name the jobs the arguments list: made first, reported after.)
    let mut tasks_report = AppReport {
        items: Vec::new(),
        ..report.clone()
    };
    let body = dag_body(source, &defaults, &mut tasks_report, &mut imports);
    let args = dag_arguments(
        source,
        dag_id,
        plan.as_ref(),
        &body.jobs,
        &mut report,
        &mut imports,
    );
    report.items.extend(tasks_report.items);
    let mut python = docstring(&doc(source, &report, &frequency, plan.as_ref()));
    python.push_str("# Written by `coordc export airflow`; `coordc export airflow --verify` proves with\n# Airflow that its runs and data-in URIs are those of `coordc dryrun`.\n");
    python.push_str(&imports.text());
    python.push('\n');
    python.push_str(&oozie);
    for (_, definition) in &body.jobs {
        python.push('\n');
        python.push_str(definition);
    }
    python.push_str("\nwith DAG(\n");
    python.push_str(&args);
    python.push_str(") as dag:\n");
    match body.text.is_empty() {
        true => python.push_str("    pass\n"),
        false => python.push_str(&body.text),
    }
    DagFile { python, report }
}

/// Where `span` of the coordinator file is.
fn place(source: &Source, span: crate::span::Span) -> Place {
    Place::of(source.file, source.sources, span)
}

/// `OOZIE = OozieCoordinator(...)`: the coordinator as the runtime reads it.
fn runtime_coordinator(
    source: &Source,
    frequency: &str,
    defaults: &[(String, String)],
    imports: &mut Imports,
) -> String {
    let job = source.job;
    let app = &source.loaded.app;
    let pz = job.processing_zone();
    // The coordinator, as the runtime reads it.
    let mut oozie = String::from("OOZIE = OozieCoordinator(\n");
    imports.coordc.insert("OozieCoordinator");
    let mut field = |name: &str, value: String| {
        let _ = writeln!(oozie, "    {name}={value},");
    };
    field("name", string(&job.name));
    field(
        "xmlns",
        string(&format!("uri:oozie:coordinator:{}", app.version)),
    );
    field("frequency", string(frequency));
    field("timezone", string(job.zone.id()));
    field("start", string(&pz.format(job.start)));
    field("end", string(&pz.format(job.end)));
    field("processing_timezone", string(&pz.id()));
    let mut properties: Vec<(&String, &String)> = source
        .loaded
        .vars
        .iter()
        .filter_map(|(k, v)| v.as_ref().map(|v| (k, v)))
        .collect();
    properties.sort();
    field(
        "properties",
        dict(properties.iter().map(|(k, v)| (k.as_str(), string(v))), 8),
    );

    // Datasets and events.
    let mut used = Vec::new();
    for name in app
        .inputs
        .iter()
        .map(|d| &d.dataset)
        .chain(app.outputs.iter().map(|d| &d.dataset))
    {
        if !used.iter().any(|(n, _): &(&str, &Dataset)| *n == name.name)
            && let Some((dataset, _)) = job.dataset(&name.name)
        {
            used.push((name.name.as_str(), dataset));
        }
    }
    if !used.is_empty() {
        imports.coordc.insert("OozieDataset");
    }
    field(
        "datasets",
        dict(used.iter().map(|(name, d)| (*name, dataset(d))), 8),
    );
    if !app.inputs.is_empty() {
        imports.coordc.insert("OozieDataIn");
    }
    field(
        "data_in",
        dict(
            app.inputs
                .iter()
                .map(|d| (d.name.name.as_str(), data_in(d))),
            8,
        ),
    );
    if !app.outputs.is_empty() {
        imports.coordc.insert("OozieDataOut");
    }
    field(
        "data_out",
        dict(
            app.outputs.iter().map(|d| {
                (
                    d.name.name.as_str(),
                    format!(
                        "OozieDataOut(dataset={}, instance={})",
                        string(&d.dataset.name),
                        string(d.instance.text())
                    ),
                )
            }),
            8,
        ),
    );
    if let Some(logic) = &app.input_logic {
        let span = logic.element_span;
        let text = source
            .sources
            .files
            .first()
            .and_then(|(_, text)| text.get(span.start as usize..span.end as usize));
        field("input_logic", string(text.unwrap_or_default()));
    }
    field(
        "configuration",
        dict(
            app.action
                .configuration
                .iter()
                .map(|p| (p.name.text(), string(p.value.text()))),
            8,
        ),
    );
    field(
        "workflow_defaults",
        dict(defaults.iter().map(|(k, v)| (k.as_str(), string(v))), 8),
    );
    oozie.push_str(")\n");
    oozie
}

/// The DAG's arguments: its schedule, its window and the controls, each
/// with its report item.
fn dag_arguments(
    source: &Source,
    dag_id: &str,
    plan: Option<&schedule::Plan>,
    jobs: &[(String, String)],
    report: &mut AppReport,
    imports: &mut Imports,
) -> String {
    let job = source.job;
    let app = &source.loaded.app;
    // The DAG's arguments.
    let mut args = String::new();
    let mut arg = |name: &str, value: String, comment: Option<String>| {
        let _ = write!(args, "    {name}={value},");
        if let Some(comment) = comment {
            let _ = write!(args, "  # {comment}");
        }
        args.push('\n');
    };
    arg("dag_id", string(dag_id), None);
    match &plan {
        None => {
            report.push(
                Status::Exact,
                "schedule",
                "no action between the start and the end: a DAG with no run",
            );
            arg(
                "schedule",
                "None".to_string(),
                Some("no nominal time between start and end".to_string()),
            );
        }
        Some(plan) => {
            let local = |t: DateTime<Utc>| {
                format!(
                    "{} {}",
                    job.zone.local(t).format("%Y-%m-%d %H:%M"),
                    job.zone.id()
                )
            };
            match plan.step {
                Some(step) => {
                    imports.sdk.insert("DeltaTriggerTimetable");
                    imports.timedelta = true;
                    let delta = schedule::timedelta(step);
                    report.push(
                        Status::Exact,
                        "schedule",
                        format!(
                            "`{}` in {}: Airflow's DeltaTriggerTimetable({delta}), as all {} nominal times are {delta} apart",
                            plan.frequency,
                            job.zone.id(),
                            plan.count
                        ),
                    );
                    arg(
                        "schedule",
                        format!("DeltaTriggerTimetable({delta})"),
                        Some(format!("{} in {}", plan.frequency, job.zone.id())),
                    );
                }
                None => {
                    report.push(
                        // (Unless some times go back: said below.)
                        if plan.backwards.0 == 0 { Status::Exact } else { Status::Refused },
                        "schedule",
                        format!(
                            "`{}` in {}: coordc_airflow's OozieTimetable (Oozie's calendar rules, computed by coordc), {} runs",
                            plan.frequency,
                            job.zone.id(),
                            plan.count
                        ),
                    );
                    arg(
                        "schedule",
                        "OOZIE.timetable()".to_string(),
                        Some(format!("{} in {}", plan.frequency, job.zone.id())),
                    );
                }
            }
            if let (n, Some(first)) = plan.backwards {
                report.push(
                    Status::Refused,
                    "schedule (going back)",
                    format!(
                        "{n} nominal time(s) come before the one before them (the first {}, Oozie's cron DST shift in {}): Airflow's runs only move forward, so those actions have no run",
                        crate::time::datetime::format_utc(first),
                        job.zone.id()
                    ),
                );
            }
            arg(
                "start_date",
                python_datetime(plan.first),
                Some(format!("the first nominal time, {}", local(plan.first))),
            );
            arg(
                "end_date",
                python_datetime(plan.last),
                Some(format!(
                    "the last nominal time, {} (Airflow's end is inclusive)",
                    local(plan.last)
                )),
            );
        }
    }
    arg(
        "catchup",
        "True".to_string(),
        Some("Oozie materializes every action from the start".to_string()),
    );
    let controls = &job.controls;
    if controls.concurrency >= 1 {
        arg(
            "max_active_runs",
            controls.concurrency.to_string(),
            Some("<concurrency>".to_string()),
        );
        report.push(
            Status::Mapped,
            "concurrency",
            format!(
                "max_active_runs={}: Oozie counts only running actions, Airflow also the runs whose sensors wait for data, so late data holds later runs back",
                controls.concurrency
            ),
        );
    } else {
        report.push(
            Status::Mapped,
            "concurrency",
            format!("{} (unlimited in Oozie): Airflow caps running runs at its `max_active_runs_per_dag` (16 by default)", controls.concurrency),
        );
    }
    let execution = match controls.execution {
        Execution::Fifo => None,
        Execution::Lifo => Some("LIFO"),
        Execution::LastOnly => Some("LAST_ONLY"),
        Execution::None => Some("NONE"),
    };
    match execution {
        None => report.push(Status::Mapped, "execution", "FIFO: Airflow's scheduler starts waiting runs oldest first, as FIFO does; it makes no promise of the order"),
        Some(order) => report.push(Status::Mapped, "execution", format!("{order} has no Airflow equivalent: runs start oldest first")),
    }
    report.push(
        Status::Mapped,
        "throttle",
        format!("{}: no Airflow equivalent (Airflow creates every due run; nothing caps the runs waiting for data)", controls.throttle),
    );
    // The sub-workflows' jobs by the names of their variables.
    let macros: Vec<String> = std::iter::once("\"oozie\": OOZIE".to_string())
        .chain(
            jobs.iter()
                .map(|(var, _)| format!("{}: {var}", string(var))),
        )
        .collect();
    arg(
        "user_defined_macros",
        format!("{{{}}}", macros.join(", ")),
        Some("templates read the run's Oozie values: oozie.conf(logical_date, NAME)".to_string()),
    );
    arg("doc_md", "__doc__".to_string(), None);
    if let Some(sla) = &app.action.sla {
        let at = sla
            .fields
            .first()
            .map_or(app.action.app_path.span, |(name, _)| name.span);
        report.push_at(
            Status::Mapped,
            "sla",
            "the action's <sla:info> is not exported (Airflow 3 has deadline alerts instead)",
            place(source, at),
        );
    }

    args
}

/// The DAG's body, and the sub-workflows' jobs its templates read.
struct DagBody {
    /// The statements inside the DAG's `with`.
    text: String,
    /// Each sub-workflow's job: its variable and its definition.
    jobs: Vec<(String, String)>,
}

/// The DAG's tasks: a sensor per data-in, then the workflow's, and their
/// dependencies.
fn dag_body(
    source: &Source,
    defaults: &[(String, String)],
    report: &mut AppReport,
    imports: &mut Imports,
) -> DagBody {
    let job = source.job;
    let app = &source.loaded.app;
    let controls = &job.controls;
    // The tasks: a sensor per data-in, then the workflow.
    let mut body = String::new();
    let mut sensors = Vec::new();
    // The sensors' variables and task ids, which the workflow's tasks avoid.
    let mut reserved = std::collections::BTreeSet::new();
    let timeout = schedule::timedelta(chrono::TimeDelta::minutes(controls.timeout.max(0)));
    if let Some(logic) = &app.input_logic {
        report.push_at(
            Status::Refused,
            "input-logic",
            "<input-logic> is not exported yet: its data-ins' sensors fail instead of choosing among the data",
            place(source, logic.span),
        );
    }
    for input in &app.inputs {
        let var = python::identifier(&format!("data_in_{}", input.name.name));
        let task_id = python::airflow_id(&format!("data_in_{}", input.name.name));
        reserved.extend([var.clone(), task_id.clone()]);
        let unresolved = instance_texts(input)
            .iter()
            .any(|t| t.calls_any(&["latest", "future"]));
        if app.input_logic.is_some() {
            let task = tasks::failing(&mut imports.operators, &task_id, "<input-logic>");
            let _ = writeln!(body, "    {var} = {task}");
        } else if unresolved {
            report.push_at(
                Status::Refused,
                format!("data-in {}", input.name.name),
                "coord:latest and coord:future instances are not exported yet (they depend on which data exists when the action runs)",
                place(source, input.span),
            );
            let task = tasks::failing(
                &mut imports.operators,
                &task_id,
                "coord:latest/coord:future instances",
            );
            let _ = writeln!(body, "    {var} = {task}");
        } else {
            imports.coordc.insert("OozieDataInSensor");
            imports.timedelta = true;
            report.push_at(
                Status::Mapped,
                format!("data-in {}", input.name.name),
                format!(
                    "OozieDataInSensor: the URIs are coord:dataIn's (checked by --verify), each waited for with its done-flag; it times out {} minutes after its first check (Oozie counts the <timeout> from the action's creation)",
                    controls.timeout.max(0)
                ),
                place(source, input.span),
            );
            let _ = writeln!(
                body,
                "    {var} = OozieDataInSensor(task_id={}, coordinator=OOZIE, data_in={}, timeout={timeout}, poke_interval=60, mode=\"reschedule\")",
                string(&task_id),
                string(&input.name.name)
            );
        }
        sensors.push(var);
    }
    for output in &app.outputs {
        report.push_at(
            Status::Exact,
            format!("data-out {}", output.name.name),
            "documented: OOZIE.data_out(logical_date, NAME) gives its URIs; nothing waits for them, as in Oozie",
            place(source, output.span),
        );
    }
    let mut edges = Vec::new();
    let mut jobs = Vec::new();
    match &source.workflow {
        Ok(wf) => {
            if wf.found_by_name {
                report.push_at(
                    Status::Mapped,
                    "workflow",
                    format!(
                        "its app-path `{}` is read from {}, found by its name in the checkout (give --map PREFIX=DIR to be sure)",
                        wf.app_path, wf.path
                    ),
                    place(source, app.action.app_path.span),
                );
            }
            let first_run = first_run_job(source, wf, defaults);
            let tasks = tasks::tasks(
                wf,
                &first_run,
                source.find,
                job.processing_zone(),
                report,
                &reserved,
            );
            imports.operators.extend(tasks.operators.iter().copied());
            if tasks.grouped {
                imports.sdk.insert("TaskGroup");
            }
            tasks::write_items(&mut body, &tasks.items, 1);
            for first in &tasks.first {
                edges.extend(sensors.iter().map(|s| (s.clone(), first.clone())));
            }
            edges.extend(tasks.edges);
            jobs = tasks.jobs;
        }
        Err(why) => {
            report.push_at(
                Status::Refused,
                "workflow",
                why.clone(),
                place(source, app.action.app_path.span),
            );
            let task = tasks::failing(
                &mut imports.operators,
                "workflow",
                &format!("the workflow: {why}"),
            );
            let _ = writeln!(body, "    workflow = {task}");
            edges.extend(sensors.iter().map(|s| (s.clone(), "workflow".to_string())));
        }
    }
    if !edges.is_empty() {
        body.push('\n');
    }
    for (from, to) in &edges {
        let _ = writeln!(body, "    {from} >> {to}");
    }
    DagBody { text: body, jobs }
}

/// The coordinator action's workflow job for the first run: the action's
/// resolved configuration over the job properties over the workflow's
/// defaults (what its sub-workflows' app-paths resolve with).
fn first_run_job(
    source: &Source,
    wf: &Workflow,
    defaults: &[(String, String)],
) -> sub_workflows::Job {
    let mut conf: crate::el::VarMap = defaults
        .iter()
        .map(|(k, v)| (k.clone(), Some(v.clone())))
        .collect();
    conf.extend(
        source
            .loaded
            .vars
            .iter()
            .map(|(k, v)| (k.clone(), v.clone())),
    );
    if let Some(Ok(action)) = source.job.actions().next() {
        conf.extend(
            action
                .configuration
                .iter()
                .map(|(k, v)| (k.to_string(), Some(v.to_string()))),
        );
    }
    sub_workflows::Job {
        conf,
        app_path: wf.app_path.clone(),
    }
}

/// The texts of a data-in's instances.
fn instance_texts(input: &DataIn) -> Vec<&ElText> {
    match &input.instances {
        Instances::List(list) => list.iter().collect(),
        Instances::Range { start, end } => vec![start, end],
    }
}

fn data_in(input: &DataIn) -> String {
    let dataset = string(&input.dataset.name);
    match &input.instances {
        Instances::Range { start, end } => format!(
            "OozieDataIn(dataset={dataset}, start_instance={}, end_instance={})",
            string(start.text()),
            string(end.text())
        ),
        Instances::List(list) => format!(
            "OozieDataIn(dataset={dataset}, instances=[{}])",
            list.iter()
                .map(|t| string(t.text()))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

fn dataset(d: &Dataset) -> String {
    let done_flag = d
        .done_flag
        .as_ref()
        .map_or_else(|| "None".to_string(), |t| string(t.text()));
    format!(
        "OozieDataset(\n            frequency={},\n            initial_instance={},\n            timezone={},\n            uri_template={},\n            done_flag={done_flag},\n        )",
        string(d.frequency.text()),
        string(d.initial_instance.text()),
        string(d.timezone.text()),
        string(d.uri_template.text()),
    )
}

/// A Python dict literal of `entries` (values already Python), one entry a
/// line at `indent`.
fn dict<'k>(entries: impl Iterator<Item = (&'k str, String)>, indent: usize) -> String {
    let mut out = String::from("{");
    let mut any = false;
    for (key, value) in entries {
        let _ = write!(out, "\n{:indent$}{}: {value},", "", string(key));
        any = true;
    }
    if any {
        let _ = write!(out, "\n{:width$}", "", width = indent - 4);
    }
    out.push('}');
    out
}

fn python_datetime(t: DateTime<Utc>) -> String {
    use chrono::{Datelike, Timelike};
    format!(
        "datetime({}, {}, {}, {}, {}, tzinfo=timezone.utc)",
        t.year(),
        t.month(),
        t.day(),
        t.hour(),
        t.minute()
    )
}

/// The module docstring: what the DAG is, and what differs from Oozie.
fn doc(
    source: &Source,
    report: &AppReport,
    frequency: &str,
    plan: Option<&schedule::Plan>,
) -> String {
    let job = source.job;
    let mut doc = format!(
        "{}: the Oozie coordinator {}, exported by coordc {}.\n\n",
        job.name, source.file, source.version
    );
    match plan {
        Some(plan) => {
            let _ = writeln!(
                doc,
                "Schedule: `{frequency}` in {}, {} runs from {} to {} (UTC).",
                job.zone.id(),
                plan.count,
                crate::time::datetime::format_utc(plan.first),
                crate::time::datetime::format_utc(plan.last)
            );
        }
        None => {
            let _ = writeln!(
                doc,
                "Schedule: `{frequency}` in {}: no run between the start and the end.",
                job.zone.id()
            );
        }
    }
    if let Ok(wf) = &source.workflow {
        let _ = writeln!(doc, "Workflow: {} ({}).", wf.app_path, wf.path);
    }
    let notes: Vec<_> = report.notes().collect();
    if !notes.is_empty() {
        doc.push_str("\nDifferences from Oozie, and what is not exported (tasks that fail when they run):\n\n");
        for item in notes {
            let _ = writeln!(
                doc,
                "- {} ({}): {}",
                item.what,
                match item.status {
                    Status::Refused => "not exported",
                    _ => "mapped",
                },
                item.detail
            );
        }
    }
    doc
}

/// `text` as a triple-quoted module docstring.
fn docstring(text: &str) -> String {
    format!(
        "\"\"\"{}\"\"\"\n",
        text.replace('\\', "\\\\").replace("\"\"\"", "\\\"\\\"\\\"")
    )
}

/// What a DAG file imports.
#[derive(Default)]
struct Imports {
    timedelta: bool,
    operators: std::collections::BTreeSet<&'static str>,
    sdk: std::collections::BTreeSet<&'static str>,
    coordc: std::collections::BTreeSet<&'static str>,
}

impl Imports {
    fn text(&self) -> String {
        let mut out = String::from(if self.timedelta {
            "from datetime import datetime, timedelta, timezone\n\n"
        } else {
            "from datetime import datetime, timezone\n\n"
        });
        for operator in &self.operators {
            // (Airflow's standard provider, and the SMTP provider Airflow installs.)
            let module = match *operator {
                "BashOperator" => "standard.operators.bash",
                "EmptyOperator" => "standard.operators.empty",
                "EmailOperator" => "smtp.operators.smtp",
                _ => "standard.operators.python",
            };
            let _ = writeln!(out, "from airflow.providers.{module} import {operator}");
        }
        let sdk: Vec<&str> = std::iter::once("DAG")
            .chain(self.sdk.iter().copied())
            .collect();
        let _ = writeln!(out, "from airflow.sdk import {}", sdk.join(", "));
        let coordc: Vec<&str> = self.coordc.iter().copied().collect();
        let _ = writeln!(out, "from coordc_airflow import {}", coordc.join(", "));
        out
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use crate::ir::{ElText, NodeKind};
    use crate::project::load::{parse_document, workflow};

    /// The workflow of `xml`, parsed and lowered.
    pub(crate) fn workflow_of(xml: &str) -> crate::ir::Workflow {
        let arena = crate::xml::Arena::new();
        let doc = parse_document(xml, &arena).ok().unwrap();
        workflow(&doc).ok().unwrap()
    }

    /// The `<exec>` value of a shell action whose exec is `text`.
    pub(crate) fn shell_exec(text: &str) -> ElText {
        let wf = workflow_of(&format!(
            r#"<workflow-app name="w" xmlns="uri:oozie:workflow:0.5"><start to="a"/><action name="a"><shell xmlns="uri:oozie:shell-action:0.3"><exec>{text}</exec></shell><ok to="end"/><error to="end"/></action><end name="end"/></workflow-app>"#
        ));
        match &wf.nodes[0].kind {
            NodeKind::Action(action) => action.body.values[0].1.clone(),
            _ => panic!("an action"),
        }
    }
}
