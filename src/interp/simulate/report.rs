//! What a simulation shows: per job its status history and its actions
//! (text or JSON), every change in time order (JSON lines), and in words
//! why one action is where it is.

use super::engine::{Change, OpRecord, Record, SimAction, SimJob, Status, Why};
use super::scenario::model::WorkflowEnd;
use super::status::ActionStatus;
use crate::interp::clock::{Millis, datetime, time_text};
use crate::interp::workflow::report::RunJson;
use crate::interp::workflow::run::Run;
use crate::oozie::job::Execution;
use crate::time::datetime::format_utc;
use serde::Serialize;
use serde_json::{Value, json};
use std::io::{self, Write};

fn minutes_text(t: Millis) -> String {
    format_utc(datetime(t))
}

/// The changes of each action, and of each job, by index.
pub(crate) struct Histories<'e> {
    jobs: Vec<Vec<&'e Change>>,
    actions: Vec<Vec<Vec<&'e Change>>>,
}

impl<'e> Histories<'e> {
    pub(crate) fn new(record: &'e Record) -> Histories<'e> {
        let mut jobs = vec![Vec::new(); record.jobs.len()];
        let mut actions: Vec<Vec<Vec<&Change>>> = record
            .jobs
            .iter()
            .map(|j| vec![Vec::new(); j.actions.len()])
            .collect();
        for change in &record.log.changes {
            match change.action {
                None if change.from != Some(change.to) => {
                    if let Some(list) = jobs.get_mut(change.job) {
                        list.push(change);
                    }
                }
                None => {}
                Some(a) => {
                    // (An action deleted by -change and created again keeps
                    // only its new history.)
                    if let Some(list) = actions.get_mut(change.job).and_then(|l| l.get_mut(a)) {
                        if change.from.is_none() {
                            list.clear();
                        }
                        list.push(change);
                    }
                }
            }
        }
        Histories { jobs, actions }
    }

    /// The changes of job `j` (none for a job the record does not have).
    pub(crate) fn job(&self, j: usize) -> &[&'e Change] {
        self.jobs.get(j).map_or(&[], Vec::as_slice)
    }

    /// The changes of action `a` of job `j` (none for one the record does
    /// not have).
    pub(crate) fn action(&self, j: usize, a: usize) -> &[&'e Change] {
        self.actions
            .get(j)
            .and_then(|actions| actions.get(a))
            .map_or(&[], Vec::as_slice)
    }
}

/// A change's reason in words.
pub(crate) fn why_text(why: &Why) -> String {
    match why {
        Why::Submitted => "submitted".into(),
        Why::Materialized => "materialized".into(),
        Why::FirstMaterialization => "first materialization".into(),
        Why::MaterializationFailed(m) => format!("materialization failed: {m}"),
        Why::NoInputs => "no inputs to wait for".into(),
        Why::InputsPresent(n) => format!("all {n} inputs present"),
        Why::InputLogic(n) => format!("input logic satisfied ({n} instances)"),
        Why::Started {
            running,
            concurrency,
        } => {
            if *concurrency < 0 {
                "started (unlimited concurrency)".into()
            } else {
                format!("a concurrency slot was free ({running} of {concurrency} in use)")
            }
        }
        Why::WorkflowStarted => "workflow started".into(),
        Why::WorkflowEnded => "workflow ended".into(),
        Why::WorkflowSuspended => "workflow suspended".into(),
        Why::WorkflowRefused(message) => format!("workflow not submitted: {message}"),
        Why::SkippedLastOnly { next } => format!(
            "LAST_ONLY: the next action's nominal time {} has passed",
            minutes_text(*next)
        ),
        Why::SkippedNone { nominal, tolerance } => format!(
            "NONE: more than {tolerance} min after its nominal time {}",
            minutes_text(*nominal)
        ),
        Why::TimedOut {
            waited,
            timeout,
            base,
        } => format!(
            "waited {waited} min since {} (more than its timeout of {timeout} min)",
            time_text(*base)
        ),
        Why::Suspended => "suspended".into(),
        Why::Resumed => "resumed".into(),
        Why::JobKilled => "job killed".into(),
        Why::ActionsKilled => "action killed".into(),
        Why::Ignored => "ignored".into(),
        Why::Rerun => "rerun".into(),
        Why::StatusTransit => "status transit".into(),
        Why::PauseReached(p) => format!("pause time {} reached", minutes_text(*p)),
        Why::Unpaused => "pause time moved or reset".into(),
        Why::Changed(what) => format!("change: {what}"),
        Why::EndBeforeStart => "change: the end is not after the start".into(),
    }
}

fn workflow_status(status: WorkflowEnd) -> &'static str {
    match status {
        WorkflowEnd::Succeeded => "SUCCEEDED",
        WorkflowEnd::Failed => "FAILED",
        WorkflowEnd::Killed => "KILLED",
        WorkflowEnd::Suspended => "SUSPENDED",
    }
}

/// A status change, as the JSON report lists it.
#[derive(Serialize)]
struct ChangeJson {
    at: String,
    status: &'static str,
    why: String,
}

fn changes_json(history: &[&Change]) -> Vec<ChangeJson> {
    history
        .iter()
        .map(|c| ChangeJson {
            at: time_text(c.at),
            status: c.to.name(),
            why: why_text(&c.why),
        })
        .collect()
}

#[derive(Serialize)]
struct WorkflowJson {
    started: String,
    ended: Option<String>,
    status: Option<&'static str>,
}

/// The URIs per data-in, as `coord:dataIn` gives them once the action is
/// ready (with input logic, those the logic chose), in the data-ins' order.
struct InputsJson<'a>(&'a SimAction<'a>);

impl Serialize for InputsJson<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let action = self.0;
        let mut map = serializer.serialize_map(Some(action.inputs.len()))?;
        for (d, (name, uris, _)) in action.inputs.iter().enumerate() {
            // (The logic chooses among each data-in's URIs: one list a data-in.)
            let uris = action
                .chosen
                .as_ref()
                .and_then(|chosen| chosen.get(d))
                .unwrap_or(uris);
            map.serialize_entry(name, uris)?;
        }
        map.end()
    }
}

#[derive(Serialize)]
struct ActionJson<'a> {
    number: usize,
    nominal_time: String,
    created_time: String,
    status: &'static str,
    history: Vec<ChangeJson>,
    inputs: InputsJson<'a>,
    missing: Vec<&'a str>,
    workflow: Option<ActionWorkflowJson<'a>>,
}

/// A scripted workflow's times and status, or a local application's run.
#[derive(Serialize)]
#[serde(untagged)]
enum ActionWorkflowJson<'a> {
    Scripted(WorkflowJson),
    Ran(RunJson<'a>),
}

fn action_json<'a>(
    action: &'a SimAction<'a>,
    history: &[&Change],
    trace: Option<&'a Run>,
) -> ActionJson<'a> {
    ActionJson {
        number: action.number,
        nominal_time: minutes_text(action.nominal),
        created_time: time_text(action.created),
        status: action.status.name(),
        history: changes_json(history),
        inputs: InputsJson(action),
        missing: action.missing.iter().map(|d| d.path.as_str()).collect(),
        workflow: action.workflow.as_ref().map(|w| match trace {
            Some(run) => ActionWorkflowJson::Ran(RunJson(run)),
            None => ActionWorkflowJson::Scripted(WorkflowJson {
                started: time_text(w.started),
                ended: w.ended.map(time_text),
                status: w.status.map(workflow_status),
            }),
        }),
    }
}

fn job_head_json<'r>(
    job: &SimJob,
    history: &[&Change],
    ops: impl Iterator<Item = &'r OpRecord>,
) -> Value {
    json!({
        "id": job.id,
        "app": job.app_name,
        "status": job.status.name(),
        "history": changes_json(history),
        "ops": ops.map(|op| json!({
            "at": time_text(op.at),
            "op": op.what,
            "refused": op.refused,
        })).collect::<Vec<_>>(),
    })
}

/// The JSON report, streamed one action at a time.
pub fn write_json(record: &Record, out: &mut dyn Write) -> io::Result<()> {
    let histories = Histories::new(record);
    write!(out, "{{\"at\":{},\"jobs\":[", json!(time_text(record.now)))?;
    for (j, job) in record.jobs.iter().enumerate() {
        if j > 0 {
            out.write_all(b",")?;
        }
        let head = job_head_json(job, histories.job(j), record.log.ops_of(j)).to_string();
        // The head without its closing brace, then the actions.
        write!(out, "{},\"actions\":[", &head[..head.len() - 1])?;
        for (a, action) in job.actions.iter().enumerate() {
            if a > 0 {
                out.write_all(b",")?;
            }
            let trace = record.workflow_trace(j, a);
            let json = action_json(action, histories.action(j, a), trace.as_ref());
            serde_json::to_writer(&mut *out, &json)?;
        }
        out.write_all(b"]}")?;
    }
    out.write_all(b"]}\n")
}

/// Every change as a JSON line, in time order.
pub(crate) fn write_events(record: &Record, out: &mut dyn Write) -> io::Result<()> {
    for change in &record.log.changes {
        let Some(job) = record.jobs.get(change.job) else {
            continue;
        };
        let line = json!({
            "at": time_text(change.at),
            "job": job.id,
            // (Action n is at index n - 1: numbers follow creation, and
            // -change deletes from the end, so a deleted one keeps its number.)
            "action": change.action.map(|a| a + 1),
            "from": change.from.map(Status::name),
            "to": change.to.name(),
            "why": why_text(&change.why),
        });
        serde_json::to_writer(&mut *out, &line)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// A table per job: its actions, their status and why, and the job's
/// status history.
pub fn write_text(record: &Record, out: &mut dyn Write) -> io::Result<()> {
    let histories = Histories::new(record);
    writeln!(out, "as of {}", time_text(record.now))?;
    for (j, job) in record.jobs.iter().enumerate() {
        writeln!(out)?;
        writeln!(
            out,
            "job {} ({}): {}",
            job.id,
            job.app_name,
            job.status.name()
        )?;
        for change in histories.job(j) {
            writeln!(
                out,
                "  {}  {:<18} {}",
                time_text(change.at),
                change.to.name(),
                why_text(&change.why)
            )?;
        }
        for op in record.log.ops_of(j) {
            match &op.refused {
                None => writeln!(out, "  {}  op {}", time_text(op.at), op.what)?,
                Some(why) => {
                    writeln!(out, "  {}  op {} refused: {why}", time_text(op.at), op.what)?
                }
            }
        }
        if let Some(failure) = &job.failure {
            writeln!(out, "  materialization failed: {failure}")?;
        }
        writeln!(
            out,
            "  {:>6}  {:<17}  {:<10} {:<20}  why",
            "action", "nominal", "status", "since"
        )?;
        for (a, action) in job.actions.iter().enumerate() {
            let why = histories
                .action(j, a)
                .last()
                .map(|c| why_text(&c.why))
                .unwrap_or_default();
            let why = match (action.status, action.missing.first()) {
                (ActionStatus::Waiting, Some(dep)) => format!("missing {}", dep.path),
                _ => why,
            };
            writeln!(
                out,
                "  {:>6}  {:<17}  {:<10} {:<20}  {why}",
                action.number,
                minutes_text(action.nominal),
                action.status.name(),
                time_text(action.since)
            )?;
        }
    }
    Ok(())
}

/// Why action `number` of job `j` is in its state, in words.
pub fn explain(record: &Record, j: usize, number: usize) -> Option<String> {
    explanation(record, j, number).map(|e| e.lines.join("\n"))
}

/// What `--explain` says of one action: the facts, and the sentences that
/// say them (`lines`).
pub(crate) struct Explanation {
    pub job: String,
    pub number: usize,
    pub nominal: Millis,
    /// `None` while it is not materialized.
    pub created: Option<Millis>,
    /// Its status (`NOT_MATERIALIZED` before it is), since when.
    pub status: &'static str,
    pub since: Option<Millis>,
    /// A WAITING or TIMEDOUT action's missing dependencies, in Oozie's
    /// order (after its last check), each with its data-in.
    pub missing: Vec<MissingInput>,
    /// Its `latest`/`future` instances still unresolved (WAITING, TIMEDOUT).
    pub unresolved: Vec<(String, String)>,
    /// A WAITING or TIMEDOUT action's timeout: minutes, counted from, and
    /// the first check at or after which it times out.
    pub timeout: Option<(i64, Millis, Millis)>,
    pub lines: Vec<String>,
}

/// One dependency an action lacks: the data-in that reads it, the
/// instance's URI, the path checked (with its done-flag), since when it
/// has been missing (the action's first input check, at max(nominal,
/// created)), and when it arrives, if it ever does in the scenario.
pub(crate) struct MissingInput {
    pub data_in: String,
    pub uri: String,
    pub path: String,
    pub since: Millis,
    pub arrives: Option<Millis>,
}

impl Explanation {
    /// The JSON object `--explain --format json` writes (docs/simulate.md).
    pub(crate) fn to_json(&self) -> Value {
        let time = |t: Option<Millis>| t.map(time_text);
        json!({
            "job": self.job,
            "action": self.number,
            "nominal_time": minutes_text(self.nominal),
            "created_time": time(self.created),
            "status": self.status,
            "since": time(self.since),
            "missing": self.missing.iter().map(|m| json!({
                "data_in": m.data_in,
                "uri": m.uri,
                "path": m.path,
                "missing_since": time_text(m.since),
                "arrives": time(m.arrives),
            })).collect::<Vec<_>>(),
            "unresolved": self.unresolved.iter().map(|(data_in, call)| json!({
                "data_in": data_in,
                "instance": call,
            })).collect::<Vec<_>>(),
            "timeout": self.timeout.map(|(minutes, from, at)| json!({
                "minutes": minutes,
                "counted_from": time_text(from),
                "deadline": time_text(at),
            })),
            "explanation": self.lines,
        })
    }
}

/// The missing dependencies of `action`, each with its data-in, the time
/// it has been missing since, and when it arrives.
fn missing_inputs(record: &Record, action: &SimAction) -> Vec<MissingInput> {
    let since = action.nominal.max(action.created);
    action
        .missing
        .iter()
        .map(|dep| MissingInput {
            data_in: action
                .inputs
                .iter()
                .find(|(_, uris, _)| uris.contains(&dep.uri))
                .map_or_else(String::new, |(name, _, _)| (*name).to_string()),
            uri: dep.uri.clone(),
            path: dep.path.clone(),
            since,
            arrives: record.data.arrival(&dep.uri),
        })
        .collect()
}

/// [`explain`]'s facts and sentences; `None` when there is no such action.
pub(crate) fn explanation(record: &Record, j: usize, number: usize) -> Option<Explanation> {
    let job = record.jobs.get(j)?;
    let Some((a, action)) = job
        .actions
        .iter()
        .enumerate()
        .find(|(_, a)| a.number == number)
    else {
        let lines = not_materialized(record, j, number)?;
        return Some(Explanation {
            job: job.id.clone(),
            number,
            nominal: job.nominal(number)?,
            created: None,
            status: "NOT_MATERIALIZED",
            since: None,
            missing: Vec::new(),
            unresolved: Vec::new(),
            timeout: None,
            lines,
        });
    };
    let histories = Histories::new(record);
    let waits = matches!(
        action.status,
        ActionStatus::Waiting | ActionStatus::Timedout
    );
    let base = action.nominal.max(action.created);
    let mut explanation = Explanation {
        job: job.id.clone(),
        number,
        nominal: action.nominal,
        created: Some(action.created),
        status: action.status.name(),
        since: Some(action.since),
        missing: if waits {
            missing_inputs(record, action)
        } else {
            Vec::new()
        },
        unresolved: if waits {
            action
                .inputs
                .iter()
                .flat_map(|(name, _, calls)| {
                    calls.iter().map(|c| ((*name).to_string(), c.to_string()))
                })
                .collect()
        } else {
            Vec::new()
        },
        timeout: (waits && action.timeout >= 0)
            .then(|| (action.timeout, base, base + (action.timeout + 1) * 60_000)),
        lines: Vec::new(),
    };
    let mut lines = vec![format!(
        "{}@{number} (nominal {}, created {}) is {} since {}.",
        job.id,
        minutes_text(action.nominal),
        time_text(action.created),
        action.status.name(),
        time_text(action.since)
    )];
    if let Some(last) = histories.action(j, a).last() {
        lines.push(format!(
            "It became {}: {}.",
            last.to.name(),
            why_text(&last.why)
        ));
    }
    let job_status = job.status;
    match action.status {
        ActionStatus::Waiting => {
            if let Some(dep) = action.missing.first() {
                let arrival = record.data.arrival(&dep.uri);
                lines.push(format!(
                    "It waits for {} ({} missing in all){}.",
                    dep.path,
                    action.missing.len(),
                    match arrival {
                        Some(t) if t > record.now => format!("; it arrives at {}", time_text(t)),
                        Some(_) => "; it is there now, and the next check will see it".into(),
                        None => match producer(record, &dep.uri) {
                            Some((job, number)) => format!(
                                "; {job}@{number} writes it when its workflow succeeds"
                            ),
                            None => "; nothing in the scenario makes it arrive (no [[data]], no action of the scenario's jobs writes it yet)".into(),
                        },
                    }
                ));
            } else if action.inputs.iter().any(|(_, _, u)| !u.is_empty()) {
                lines.push(
                    "Its inputs are present; its latest/future instances are not resolved yet."
                        .into(),
                );
            }
            if !job_status.checks_inputs() {
                lines.push(format!(
                    "The job is {}: input checks do not run (the RecoveryService re-drives them once it runs again).",
                    job_status.name()
                ));
            }
            match action.next_check() {
                Some(t) => lines.push(format!("Its next input check is at {}.", time_text(t))),
                None => lines.push(
                    "Its input checks were dropped (the job was not running, or the server was down): the RecoveryService re-drives it once it has been left alone for its interval.".into(),
                ),
            }
            let base = action.nominal.max(action.created);
            if action.timeout >= 0 {
                lines.push(format!(
                    "It times out at the first check at or after {} (waited more than {} min since {}).",
                    time_text(base + (action.timeout + 1) * 60_000),
                    action.timeout,
                    time_text(base)
                ));
            }
            match job.execution {
                Execution::LastOnly => lines.push(
                    "LAST_ONLY: it is skipped once the next action's nominal time has passed."
                        .into(),
                ),
                Execution::None => lines.push(format!(
                    "NONE: it is skipped once more than {} min past its nominal time.",
                    record.settings.none_tolerance
                )),
                _ => {}
            }
        }
        ActionStatus::Ready => {
            let running: Vec<String> = job
                .actions
                .iter()
                .filter(|x| matches!(x.status, ActionStatus::Running | ActionStatus::Submitted))
                .map(|x| x.number.to_string())
                .collect();
            if job.concurrency >= 0 && running.len() as i64 >= job.concurrency {
                lines.push(format!(
                    "All {} concurrency slots are taken, by action{} {}.",
                    job.concurrency,
                    if running.len() == 1 { "" } else { "s" },
                    running.join(", ")
                ));
            }
            let ahead = job
                .actions
                .iter()
                .filter(|x| x.status == ActionStatus::Ready && x.number != number)
                .filter(|x| match job.execution {
                    Execution::Fifo => x.nominal < action.nominal,
                    _ => x.nominal > action.nominal,
                })
                .count();
            if ahead > 0 {
                lines.push(format!(
                    "{ahead} READY action{} start before it ({:?} order).",
                    if ahead == 1 { "" } else { "s" },
                    job.execution
                ));
            }
            if !job_status.starts_actions() {
                lines.push(format!("The job is {}: nothing starts.", job_status.name()));
            }
        }
        ActionStatus::Running => {
            if let Some(w) = &action.workflow {
                lines.push(format!("Its workflow started at {}.", time_text(w.started)));
            }
        }
        ActionStatus::Timedout => {
            // What it lacked, and since when: Oozie's missing list as its
            // last check left it (the scan stops at the first path missing,
            // so a later one may have come meanwhile).
            for m in &explanation.missing {
                let data_in = match m.data_in.as_str() {
                    "" => String::new(),
                    name => format!(" (data-in {name})"),
                };
                let arrival = match m.arrives {
                    Some(t) if t <= action.since => format!(
                        "; it was there from {}, but no check reached it before the first missing path",
                        time_text(t)
                    ),
                    Some(t) => format!("; it arrived at {}, after the timeout", time_text(t)),
                    None => "; it never arrived".into(),
                };
                lines.push(format!(
                    "It lacked {}{data_in}, missing since its first input check at {}{arrival}.",
                    m.path,
                    time_text(m.since)
                ));
            }
            for (data_in, call) in &explanation.unresolved {
                lines.push(format!(
                    "Its {call} (data-in {data_in}) was never resolved: latest/future instances are resolved only once every other input is there."
                ));
            }
        }
        _ => {}
    }
    explanation.lines = lines;
    Some(explanation)
}

/// Why action `number` does not exist yet: the controls that hold its
/// materialization; `None` past the job's end (there is no such action).
fn not_materialized(record: &Record, j: usize, number: usize) -> Option<Vec<String>> {
    let job = record.jobs.get(j)?;
    let nominal = job.nominal(number)?;
    if number <= job.last_action_number {
        return Some(vec![format!(
            "{}@{number} was deleted by a -change (its nominal time {} is at or after the new end or pause time).",
            job.id,
            minutes_text(nominal)
        )]);
    }
    let mut lines = vec![format!(
        "{}@{number} (nominal {}) is not materialized.",
        job.id,
        minutes_text(nominal)
    )];
    if nominal >= job.end {
        // No such action: it would be past the job's end.
        return None;
    }
    if job.pause.is_some_and(|p| nominal >= p) {
        lines.push(format!(
            "Its nominal time is at or after the pause time {}: nothing from there is materialized until the pause time moves.",
            minutes_text(job.pause.unwrap_or_default())
        ));
    }
    if !job.status.materializes() {
        lines.push(format!(
            "The job is {}: the materialization trigger does not select it.",
            job.status.name()
        ));
    }
    let waiting = job.counts.get(ActionStatus::Waiting);
    if waiting as i64 >= job.throttle {
        lines.push(format!(
            "The throttle holds it: {waiting} actions are WAITING, the throttle is {}; the trigger selects the job again once one leaves WAITING.",
            job.throttle
        ));
    }
    let lookup = record.settings.lookup;
    if let Some(next) = job.next_materialization {
        lines.push(format!(
            "The next materialization starts at {}, once the trigger runs at or after {} (its look-ahead is {} s); each run creates the actions of one window ({} s) at most.",
            minutes_text(next),
            time_text(next - lookup),
            lookup / 1000,
            record.settings.window / 1000
        ));
    }
    Some(lines)
}

/// The action whose data-out is `uri`, if one is materialized.
fn producer<'e>(record: &'e Record, uri: &str) -> Option<(&'e str, usize)> {
    record.jobs.iter().find_map(|job| {
        job.actions
            .iter()
            .find(|a| a.outputs.iter().any(|o| o == uri))
            .map(|a| (job.id.as_str(), a.number))
    })
}
