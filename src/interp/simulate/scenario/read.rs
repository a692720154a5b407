//! Reading a scenario: the file's TOML ([`super::file`]) checked value by
//! value into the typed [`super::model`], every problem found reported at
//! its place in the file.

use super::file::{DataFile, NodeFile, OpFile, ScenarioFile, ServerFile};
use super::model::{
    ActionList, ActionRef, ActionScript, ChangeValue, Command, DEFAULT_WORKFLOW_START, DataEntry,
    JobEntry, MAX_RETRIES, MAX_SUBWORKFLOW_DEPTH, Op, Scenario, Settings, StatusChange,
    WorkflowEnd, WorkflowOverride, WorkflowScenario, WorkflowScript,
};
use crate::diag::Diagnostic;
use crate::diag::rules::SIMULATE_SCENARIO;
use crate::interp::clock::{Millis, millis};
use crate::interp::workflow::script::{
    Behaviour, FileSystem, NodeScript, Outcome, RetrySettings, Script,
};
use crate::span::Span;
use crate::time::datetime::{ProcessingZone, parse_datetime};
use chrono::{DateTime, Utc};
use std::collections::BTreeMap;
use toml::Spanned;

impl WorkflowScenario {
    /// Reads a workflow scenario's text: every problem found, or the scenario.
    pub fn read(text: &str) -> Result<WorkflowScenario, Vec<Diagnostic>> {
        let file: ScenarioFile = toml::from_str(text).map_err(|e| {
            let span = e.span().map_or(Span::EMPTY, |r| Span::new(r.start, r.end));
            vec![problem(span, e.message().to_string())]
        })?;
        let mut problems = Vec::new();
        let coordinator_only = [
            ("until", file.until.is_some()),
            ("[[job]]", !file.jobs.is_empty()),
            ("[[data]]", !file.data.is_empty()),
            (
                "[workflows]",
                file.workflows.status.is_some()
                    || file.workflows.duration.is_some()
                    || file.workflows.outputs.is_some(),
            ),
            ("[[workflow]]", !file.workflow.is_empty()),
            ("[[op]]", !file.ops.is_empty()),
            ("[[outage]]", !file.outages.is_empty()),
        ];
        for (key, present) in coordinator_only {
            if present {
                let span = match &file.until {
                    Some(until) if key == "until" => span_of(until),
                    _ => header_span(text, key),
                };
                problems.push(
                    problem(
                        span,
                        format!("`{key}` is for coordinator scenarios: a workflow's scenario has start, [server], [actions], [[node]] and [fs]"),
                    )
                    .with_help("remove it, or simulate the coordinator that runs this workflow"),
                );
            }
        }
        let start = match &file.start {
            Some(t) => keep(&mut problems, time(t)),
            None => parse_datetime(DEFAULT_WORKFLOW_START, ProcessingZone::UTC)
                .ok()
                .map(|t| t.instant),
        };
        let settings = keep(&mut problems, settings(&file.server));
        let script = script(&file, text, &mut problems, false);
        match (start, settings) {
            (Some(start), Some(settings)) if problems.is_empty() => Ok(WorkflowScenario {
                start,
                script: Script {
                    settings: settings.retry,
                    ..script
                },
            }),
            _ => Err(problems),
        }
    }
}

/// Where the table header `header` (`[[job]]`) first starts a line of
/// `text`, to point at it; nowhere when it is written otherwise.
fn header_span(text: &str, header: &str) -> Span {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if trimmed.starts_with(header) {
            let start = offset + (line.len() - trimmed.len());
            return Span::new(start, start + header.len());
        }
        offset += line.len();
    }
    Span::EMPTY
}

/// `[actions]`, `[[node]]` and `[fs]`, checked; `scoped`: whether `[[node]]`
/// may name a job and an action (coordinator scenarios).
fn script(file: &ScenarioFile, text: &str, problems: &mut Vec<Diagnostic>, scoped: bool) -> Script {
    let mut default = Behaviour::default();
    if let Some(actions) = &file.actions {
        let not_here = [
            ("name", actions.name.as_ref().map(span_of)),
            ("action", actions.action.as_ref().map(span_of)),
        ];
        for (key, span) in not_here {
            if let Some(span) = span {
                problems.push(problem(
                    span,
                    format!("`{key}` is for a [[node]]: [actions] is every node's default"),
                ));
            }
        }
        if actions.job.is_some() {
            problems.push(problem(
                header_span(text, "[actions]"),
                "`job` is for a [[node]]: [actions] is every node's default",
            ));
        }
        if let Some(entry) = keep(problems, node_script(actions)) {
            entry.apply(&mut default);
        }
    }
    let mut nodes = Vec::new();
    for entry in &file.nodes {
        let Some(name) = &entry.name else {
            problems.push(problem(
                Span::EMPTY,
                "a [[node]] names its action node: `name = \"...\"`",
            ));
            continue;
        };
        if !scoped && (entry.job.is_some() || entry.action.is_some()) {
            problems.push(problem(
                span_of(name),
                "`job` and `action` scope a [[node]] inside a coordinator scenario; a workflow's scenario runs one workflow",
            ));
            continue;
        }
        if let Some(script) = keep(problems, node_script(entry)) {
            nodes.push(NodeScript {
                name: name.get_ref().clone(),
                span: span_of(name),
                ..script
            });
        }
    }
    let fs = match &file.fs {
        Some(fs) => {
            if let Some((path, _)) = fs.files.iter().find(|(_, size)| **size < 0) {
                problems.push(problem(
                    header_span(text, "[fs]"),
                    format!("[fs] file {path}: a size is a count of bytes, 0 or more"),
                ));
            }
            let mut system = FileSystem::new(fs.files.clone(), fs.dirs.iter().cloned().collect());
            if let Some(b) = fs.block_size {
                system.block_size = b;
            }
            system
        }
        None => FileSystem::new(BTreeMap::new(), Default::default()),
    };
    Script {
        default,
        nodes,
        fs,
        settings: RetrySettings::default(),
    }
}

/// One `[[node]]` (or `[actions]`), its values checked.
fn node_script(entry: &NodeFile) -> Result<NodeScript, Diagnostic> {
    let outcome = match &entry.outcome {
        None => None,
        Some(o) => Some(match o.get_ref().as_str() {
            "ok" => Outcome::Ok,
            "error" => Outcome::Error,
            other => {
                return Err(problem(
                    span_of(o),
                    format!("`{other}` is not an outcome: write \"ok\" or \"error\""),
                ));
            }
        }),
    };
    let duration = entry.duration.as_ref().map(duration).transpose()?;
    let transient_failures = match &entry.transient_failures {
        Some(n) if !(0..=1_000).contains(n.get_ref()) => {
            return Err(problem(
                span_of(n),
                "transient_failures is a count of failed attempts, 0 to 1000",
            ));
        }
        Some(n) => Some(*n.get_ref() as u32),
        None => None,
    };
    let action = match &entry.action {
        Some(n) if *n.get_ref() < 1 => {
            return Err(problem(span_of(n), "actions are numbered from 1"));
        }
        Some(n) => Some(*n.get_ref() as usize),
        None => None,
    };
    Ok(NodeScript {
        name: String::new(),
        span: Span::EMPTY,
        job: entry.job.clone(),
        action,
        outcome,
        error_code: entry.error_code.clone(),
        error_message: entry.error_message.clone(),
        duration,
        transient_failures,
        action_data: entry
            .action_data
            .as_ref()
            .map(|d| d.iter().map(|(k, v)| (k.clone(), v.clone())).collect()),
        external_status: entry.external_status.clone(),
        counters: entry.counters.as_ref().map(|groups| {
            groups
                .iter()
                .map(|(g, c)| (g.clone(), c.iter().map(|(k, v)| (k.clone(), *v)).collect()))
                .collect()
        }),
    })
}

/// The latest `until` coordc simulates to: beyond, the simulated years are
/// more than any schedule needs (and than its event queue should hold).
const LAST_YEAR: i32 = 2999;

fn span_of<T>(value: &Spanned<T>) -> Span {
    let r = value.span();
    Span::new(r.start, r.end)
}

pub(super) fn problem(span: Span, message: impl Into<String>) -> Diagnostic {
    Diagnostic::error(SIMULATE_SCENARIO, span, message)
}

fn time(value: &Spanned<String>) -> Result<DateTime<Utc>, Diagnostic> {
    use chrono::Datelike;
    let t = parse_datetime(value.get_ref(), ProcessingZone::UTC)
        .map_err(|e| {
            problem(
                span_of(value),
                format!(
                    "`{}` is not an Oozie datetime: {}",
                    value.get_ref(),
                    e.message
                ),
            )
            .with_help("write YYYY-MM-DDTHH:mmZ, e.g. 2009-01-01T00:00Z")
        })?
        .instant;
    if t.year() > LAST_YEAR {
        return Err(problem(
            span_of(value),
            format!(
                "coordc simulates up to the year {LAST_YEAR}, not {}",
                t.year()
            ),
        ));
    }
    Ok(t)
}

/// A duration: a count and a unit, `30s`, `5m`, `2h` or `1d`.
fn parse_duration(text: &str) -> Option<Millis> {
    let text = text.trim();
    let unit = text.chars().last()?;
    let count: i64 = text[..text.len() - unit.len_utf8()].parse().ok()?;
    let scale = match unit {
        's' => 1_000,
        'm' => 60_000,
        'h' => 3_600_000,
        'd' => 86_400_000,
        _ => return None,
    };
    // Up to a thousand years: more is no duration a schedule has.
    (0..=365_000 * 86_400_000 / scale)
        .contains(&count)
        .then(|| count * scale)
}

fn duration(value: &Spanned<String>) -> Result<Millis, Diagnostic> {
    parse_duration(value.get_ref()).ok_or_else(|| {
        problem(
            span_of(value),
            format!("`{}` is not a duration", value.get_ref()),
        )
        .with_help("write a whole count and a unit: 30s, 5m, 2h or 1d")
    })
}

fn workflow_end(value: &Spanned<String>) -> Result<WorkflowEnd, Diagnostic> {
    match value.get_ref().as_str() {
        "SUCCEEDED" => Ok(WorkflowEnd::Succeeded),
        "FAILED" => Ok(WorkflowEnd::Failed),
        "KILLED" => Ok(WorkflowEnd::Killed),
        other => Err(problem(
            span_of(value),
            format!("a workflow ends SUCCEEDED, FAILED or KILLED, not `{other}`"),
        )),
    }
}

/// Oozie's `-action` list: numbers and ranges, `1-3,7`.
fn action_list(text: &str) -> Option<ActionList> {
    text.split(',')
        .map(|part| {
            let part = part.trim();
            let (a, b) = part.split_once('-').unwrap_or((part, part));
            let (a, b): (usize, usize) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
            (a >= 1 && a <= b).then_some((a, b))
        })
        .collect()
}

impl Scenario {
    /// Reads a scenario file's text: every problem found, or the scenario.
    pub fn read(text: &str) -> Result<Scenario, Vec<Diagnostic>> {
        let file: ScenarioFile = toml::from_str(text).map_err(|e| {
            let span = e.span().map_or(Span::EMPTY, |r| Span::new(r.start, r.end));
            vec![problem(span, e.message().to_string())]
        })?;
        let mut problems = Vec::new();
        fn required<'v>(
            value: &'v Option<Spanned<String>>,
            key: &str,
        ) -> Result<&'v Spanned<String>, Diagnostic> {
            value.as_ref().ok_or_else(|| {
                problem(Span::EMPTY, format!("missing field `{key}`"))
                    .with_help("a coordinator scenario says when the server starts (`start`) and when the simulation ends (`until`)")
            })
        }
        let start = keep(&mut problems, required(&file.start, "start").and_then(time));
        let until = keep(&mut problems, required(&file.until, "until").and_then(time));
        let until_span = file.until.as_ref().map_or(Span::EMPTY, span_of);
        let settings = keep(&mut problems, settings(&file.server));
        let script = script(&file, text, &mut problems, true);
        let default_status = match &file.workflows.status {
            Some(s) => keep(&mut problems, workflow_end(s)),
            None => Some(WorkflowEnd::Succeeded),
        };
        let default_duration = match &file.workflows.duration {
            Some(d) => keep(&mut problems, duration(d)),
            None => Some(600_000),
        };
        let mut jobs = Vec::new();
        for job in &file.jobs {
            let submit = match &job.submit {
                Some(s) => keep(&mut problems, time(s)),
                None => start,
            };
            if let Some(submit) = submit {
                jobs.push(JobEntry {
                    id: job.id.clone(),
                    app: job.app.get_ref().clone(),
                    app_span: span_of(&job.app),
                    config: job.config.clone(),
                    properties: job.properties.clone().into_iter().collect(),
                    map: job.map.clone().into_iter().collect(),
                    submit,
                });
            }
        }
        let mut data = Vec::new();
        for entry in &file.data {
            if let Some(d) = keep(&mut problems, data_entry(entry, start)) {
                data.push(d);
            }
        }
        let mut workflow = Vec::new();
        for entry in &file.workflow {
            let action = match (&entry.action, &entry.nominal) {
                (Some(n), None) if *n >= 1 => Some(ActionRef::Number(*n as usize)),
                (None, Some(t)) => {
                    keep(&mut problems, time(t)).map(|t| ActionRef::Nominal(millis(t)))
                }
                _ => keep(
                    &mut problems,
                    Err(problem(
                        span_of(&entry.job),
                        "a [[workflow]] names its action by `action` (a number from 1) or by `nominal`, one of them",
                    )),
                ),
            };
            let status = entry
                .status
                .as_ref()
                .map(|s| keep(&mut problems, workflow_end(s)));
            let duration = entry
                .duration
                .as_ref()
                .map(|d| keep(&mut problems, duration(d)));
            if let (Some(action), Some(status), Some(duration)) = (
                action,
                status.map_or(Some(None), |s| s.map(Some)),
                duration.map_or(Some(None), |d| d.map(Some)),
            ) {
                workflow.push(WorkflowOverride {
                    job: entry.job.get_ref().clone(),
                    job_span: span_of(&entry.job),
                    script: ActionScript {
                        action,
                        status,
                        duration,
                    },
                });
            }
        }
        let mut ops = Vec::new();
        for entry in &file.ops {
            if let Some(op) = keep(&mut problems, op(entry)) {
                ops.push(op);
            }
        }
        let mut outages = Vec::new();
        for entry in &file.outages {
            if let (Some(from), Some(to)) = (
                keep(&mut problems, time(&entry.from)),
                keep(&mut problems, time(&entry.to)),
            ) {
                if from >= to {
                    problems.push(problem(
                        span_of(&entry.to),
                        "an outage must end after it starts",
                    ));
                } else {
                    outages.push((from, to));
                }
            }
        }
        outages.sort();
        for pair in outages.windows(2) {
            if matches!(pair, [(_, end), (next, _)] if next < end) {
                problems.push(problem(
                    Span::EMPTY,
                    "two outages overlap: write them as one",
                ));
            }
        }
        if let (Some(s), Some(u)) = (start, until)
            && s >= u
        {
            problems.push(problem(until_span, "`until` must be after `start`"));
        }
        for op in &ops {
            if let Some((from, to)) = outages.iter().find(|(f, t)| *f <= op.at && op.at < *t) {
                problems.push(
                    problem(
                        op.job_span,
                        format!(
                            "this op falls in the outage {} to {}: the server cannot take it",
                            crate::time::datetime::format_utc(*from),
                            crate::time::datetime::format_utc(*to)
                        ),
                    )
                    .with_help("move it after the outage"),
                );
            }
        }
        match (start, until, settings, default_status, default_duration) {
            (Some(start), Some(until), Some(settings), Some(status), Some(duration))
                if problems.is_empty() =>
            {
                Ok(Scenario {
                    start,
                    until,
                    until_span,
                    script: Script {
                        settings: settings.retry,
                        ..script
                    },
                    settings,
                    jobs,
                    data,
                    workflows: WorkflowScript { status, duration },
                    outputs: file.workflows.outputs.unwrap_or(true),
                    workflow,
                    ops,
                    outages,
                })
            }
            _ => Err(problems),
        }
    }
}

/// The value, or `None` with its problem recorded.
fn keep<T>(problems: &mut Vec<Diagnostic>, result: Result<T, Diagnostic>) -> Option<T> {
    result.map_err(|d| problems.push(d)).ok()
}

fn data_entry(entry: &DataFile, start: Option<DateTime<Utc>>) -> Result<DataEntry, Diagnostic> {
    let at = entry.at.as_ref().map(time).transpose()?;
    match (&entry.uri, &entry.job, &entry.dataset) {
        (Some(uri), None, None) => {
            if entry.from.is_some()
                || entry.to.is_some()
                || entry.delay.is_some()
                || !entry.missing.is_empty()
            {
                return Err(problem(
                    entry.at.as_ref().map_or(Span::EMPTY, span_of),
                    "a [[data]] with `uri` is one instance: `from`, `to`, `delay` and `missing` belong to a `job` and `dataset` range",
                ));
            }
            Ok(DataEntry::Uri {
                uri: uri.clone(),
                at: at.or(start).unwrap_or_default(),
            })
        }
        (None, Some(job), Some(dataset)) => {
            let (Some(from), Some(to)) = (&entry.from, &entry.to) else {
                return Err(problem(
                    Span::EMPTY,
                    format!(
                        "the [[data]] range of {job}'s dataset {dataset} needs `from` and `to`"
                    ),
                ));
            };
            if let Some(at) = &entry.at {
                return Err(problem(
                    span_of(at),
                    "`at` is for one `uri`; a range's instances complete at their nominal time plus `delay`",
                ));
            }
            let (from_t, to_t) = (time(from)?, time(to)?);
            if from_t >= to_t {
                return Err(problem(span_of(to), "`to` must be after `from`"));
            }
            Ok(DataEntry::Range {
                job: job.clone(),
                dataset: dataset.clone(),
                span: span_of(from),
                from: from_t,
                to: to_t,
                delay: entry.delay.as_ref().map(duration).transpose()?.unwrap_or(0),
                missing: entry.missing.iter().map(time).collect::<Result<_, _>>()?,
            })
        }
        _ => Err(problem(
            entry
                .at
                .as_ref()
                .or(entry.from.as_ref())
                .map_or(Span::EMPTY, span_of),
            "a [[data]] entry names either one `uri`, or a `job` and its `dataset`",
        )),
    }
}

fn op(entry: &OpFile) -> Result<Op, Diagnostic> {
    let at = time(&entry.at)?;
    let verb = entry.verb.get_ref().as_str();
    if !matches!(
        verb,
        "suspend" | "resume" | "kill" | "change" | "rerun" | "ignore"
    ) {
        return Err(problem(
            span_of(&entry.verb),
            format!("`{verb}` is none of suspend, resume, kill, change, rerun, ignore"),
        ));
    }
    let actions = match &entry.actions {
        Some(text) => Some((
            action_list(text.get_ref()).ok_or_else(|| {
                problem(
                    span_of(text),
                    format!("`{}` is not an action list", text.get_ref()),
                )
                .with_help("write action numbers and ranges, e.g. 1-3,7")
            })?,
            span_of(text),
        )),
        None => None,
    };
    let needs_actions = matches!(verb, "rerun" | "ignore");
    let takes_actions = needs_actions || verb == "kill";
    if needs_actions && actions.is_none() {
        return Err(problem(
            span_of(&entry.verb),
            "rerun and ignore need `actions`, e.g. actions = \"1-3\"",
        ));
    }
    if !takes_actions && let Some((_, span)) = &actions {
        return Err(problem(*span, "`actions` is for kill, rerun and ignore"));
    }
    let value = entry.value.as_ref();
    match (verb, value) {
        ("change", None) => {
            return Err(problem(
                span_of(&entry.verb),
                "change needs a `value`, e.g. value = \"endtime=2009-01-02T00:00Z;concurrency=3\"",
            ));
        }
        ("change", _) | (_, None) => {}
        (_, Some(value)) => {
            return Err(problem(span_of(value), "`value` is for change"));
        }
    }
    let text = match (value, &actions) {
        (Some(v), _) => format!("{verb} -value {}", v.get_ref()),
        (_, Some((list, _))) => format!("{verb} -action {}", action_list_text(list)),
        _ => verb.to_string(),
    };
    let list = actions.map(|(list, _)| list);
    let command = match (verb, list) {
        ("suspend", _) => Command::Suspend,
        ("resume", _) => Command::Resume,
        ("kill", list) => Command::Kill(list),
        ("rerun", Some(list)) => Command::Rerun(list),
        ("ignore", Some(list)) => Command::Ignore(list),
        // (The verb is change: its value was required above.)
        _ => Command::Change(change(value.map_or("", |v| v.get_ref()))),
    };
    Ok(Op {
        at,
        job: entry.job.get_ref().clone(),
        job_span: span_of(&entry.job),
        command,
        text,
    })
}

/// A `-change` value, `endtime=T;pausetime=T;concurrency=N;status=S`, as
/// CoordChangeXCommand parses it (CoordChangeXCommand.java:208-461): its
/// first wrong pair is the E1015 Oozie answers the op with.
fn change(value: &str) -> Result<ChangeValue, String> {
    let mut change = ChangeValue::default();
    for pair in value.split(';').filter(|p| !p.trim().is_empty()) {
        let (name, v) = pair
            .split_once('=')
            .ok_or_else(|| format!("E1015: `{pair}` is not name=value"))?;
        let v = v.trim();
        let time = |v: &str| {
            parse_datetime(v, ProcessingZone::UTC)
                .map(|t| millis(t.instant))
                .map_err(|e| format!("E1015: invalid {name} `{v}`: {}", e.message))
        };
        match name.trim() {
            "endtime" => change.end = Some(time(v)?),
            "pausetime" => change.pause = Some(if v.is_empty() { None } else { Some(time(v)?) }),
            "concurrency" => {
                change.concurrency = Some(
                    v.parse::<i32>()
                        .map_err(|_| format!("E1015: invalid concurrency `{v}`"))?,
                )
            }
            "status" => {
                change.status = Some(match v {
                    "RUNNING" => StatusChange::Running,
                    "IGNORED" => StatusChange::Ignored,
                    other => StatusChange::Other(other.to_string()),
                })
            }
            other => return Err(format!("E1015: `{other}` cannot be changed")),
        }
    }
    Ok(change)
}

/// An action list as Oozie's `-action` writes it: `1-3,7`.
fn action_list_text(list: &[(usize, usize)]) -> String {
    list.iter()
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

fn settings(file: &ServerFile) -> Result<Settings, Diagnostic> {
    let mut s = Settings::default();
    // A count in its unit, within what the server could hold.
    let count = |v: &Option<Spanned<i64>>, min: i64, scale: i64, into: &mut i64| {
        if let Some(v) = v {
            let n = *v.get_ref();
            if n < min || n > i64::from(i32::MAX) {
                return Err(problem(
                    span_of(v),
                    format!("this setting must be between {min} and {}", i32::MAX),
                ));
            }
            *into = n * scale;
        }
        Ok(())
    };
    count(&file.lookup_interval, 1, 1000, &mut s.lookup)?;
    s.scheduling = s.lookup;
    count(&file.scheduling_interval, 1, 1000, &mut s.scheduling)?;
    count(&file.materialization_window, 1, 1000, &mut s.window)?;
    let mut batch = 10_000;
    count(&file.action_batch_size, -1, 1, &mut batch)?;
    s.action_batch = (batch >= 0).then_some(batch as usize);
    let mut limit = 50;
    count(&file.materialization_system_limit, 1, 1, &mut limit)?;
    s.system_limit = limit as usize;
    count(&file.default_timeout, -1, 1, &mut s.default_timeout)?;
    count(&file.default_concurrency, -1, 1, &mut s.default_concurrency)?;
    count(&file.default_throttle, 1, 1, &mut s.default_throttle)?;
    let mut queue = 10_000;
    count(&file.queue_size, 1, 1, &mut queue)?;
    let factor = file
        .throttling_factor
        .as_ref()
        .map_or(0.05, |f| *f.get_ref());
    if !(0.0..=1.0).contains(&factor) {
        return Err(problem(
            file.throttling_factor.as_ref().map_or(Span::EMPTY, span_of),
            "the throttling factor is a fraction between 0 and 1",
        ));
    }
    // CoordSubmitXCommand.java:773-787: (int) (queueSize * factor).
    s.throttle_cap = (queue as f64 * factor) as i64;
    count(&file.input_check_interval, 1, 1, &mut s.check_interval)?;
    count(
        &file.input_check_additional_delay,
        0,
        1000,
        &mut s.check_additional_delay,
    )?;
    count(&file.none_tolerance, 0, 1, &mut s.none_tolerance)?;
    count(&file.recovery_interval, 1, 1000, &mut s.recovery_interval)?;
    count(
        &file.recovery_older_than,
        0,
        1000,
        &mut s.recovery_older_than,
    )?;
    count(
        &file.status_transit_interval,
        1,
        1000,
        &mut s.status_interval,
    )?;
    count(&file.pause_transit_interval, 1, 1000, &mut s.pause_interval)?;
    if let Some(v) = &file.latest_use_current_time {
        s.latest_use_current_time = *v.get_ref();
    }
    if let Some(v) = &file.states_without_error {
        s.states_without_error = *v.get_ref();
    }
    if let Some(v) = &file.check_maximum_frequency {
        s.check_maximum_frequency = Some(*v.get_ref());
    }
    let retry = &mut s.retry;
    // Retry counts and the sub-workflow depth are bounded: each retry is an
    // event and each level a nested run, so a huge value would run (or
    // recurse) without end.
    let bounded = |v: &Option<Spanned<i64>>, most: i64, into: &mut i64| {
        if let Some(v) = v
            && !(0..=most).contains(v.get_ref())
        {
            return Err(problem(
                span_of(v),
                format!("coordc simulates this setting from 0 to {most}"),
            ));
        }
        if let Some(v) = v {
            *into = *v.get_ref();
        }
        Ok(())
    };
    let (mut user, mut retries, mut depth) = (
        i64::from(retry.user_retry_max),
        i64::from(retry.retries_max),
        i64::from(retry.subworkflow_max_depth),
    );
    bounded(&file.user_retry_max, MAX_RETRIES, &mut user)?;
    bounded(&file.action_retries_max, MAX_RETRIES, &mut retries)?;
    bounded(
        &file.subworkflow_max_depth,
        MAX_SUBWORKFLOW_DEPTH,
        &mut depth,
    )?;
    let mut interval = retry.retry_interval;
    count(&file.action_retry_interval, 0, 1000, &mut interval)?;
    retry.user_retry_max = user as u32;
    retry.retries_max = retries as u32;
    // (ActionExecutor: an interval of 0 or less means 60 s.)
    retry.retry_interval = if interval > 0 { interval } else { 60_000 };
    retry.subworkflow_max_depth = depth as u32;
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_are_a_count_and_a_unit() {
        assert_eq!(parse_duration("30s"), Some(30_000));
        assert_eq!(parse_duration("5m"), Some(300_000));
        assert_eq!(parse_duration("2h"), Some(7_200_000));
        assert_eq!(parse_duration("1d"), Some(86_400_000));
        assert_eq!(parse_duration("0m"), Some(0));
        for bad in ["", "m", "5", "-5m", "5x", "1.5h", "99999999999999d"] {
            assert_eq!(parse_duration(bad), None, "{bad}");
        }
    }

    #[test]
    fn action_lists_are_numbers_and_ranges() {
        assert_eq!(action_list("1-3,7"), Some(vec![(1, 3), (7, 7)]));
        assert_eq!(action_list("2"), Some(vec![(2, 2)]));
        for bad in ["", "0", "3-1", "a", "1,,2"] {
            assert_eq!(action_list(bad), None, "{bad}");
        }
    }

    /// A `-change` value is parsed while the scenario is read; its first
    /// wrong pair is the E1015 the op is refused with when it runs
    /// (CoordChangeXCommand.java:208-461).
    #[test]
    fn change_values_are_parsed_as_oozie_parses_them() {
        assert_eq!(
            change("endtime=2009-01-02T00:00Z; pausetime=;concurrency=3;status=RUNNING"),
            Ok(ChangeValue {
                end: Some(1_230_854_400_000),
                pause: Some(None),
                concurrency: Some(3),
                status: Some(StatusChange::Running),
            })
        );
        assert_eq!(
            change("status=DONE").map(|c| c.status),
            Ok(Some(StatusChange::Other("DONE".into())))
        );
        for (bad, refusal) in [
            ("endtime", "E1015: `endtime` is not name=value"),
            ("concurrency=x;endtime=y", "E1015: invalid concurrency `x`"),
            ("owner=me", "E1015: `owner` cannot be changed"),
        ] {
            assert_eq!(change(bad), Err(refusal.to_string()), "{bad}");
        }
    }

    #[test]
    fn an_unknown_key_is_named_with_its_place() {
        let text = "start = \"2009-01-01T00:00Z\"\nuntil = \"2009-01-02T00:00Z\"\n[[job]]\napp = \"a.xml\"\nbogus = 1\n";
        let problems = Scenario::read(text).unwrap_err();
        assert!(
            problems[0].message.contains("unknown field `bogus`"),
            "{}",
            problems[0].message
        );
        assert_eq!(&text[problems[0].span.range()], "bogus");
    }

    #[test]
    fn every_bad_value_is_reported_at_its_place() {
        let text = "start = \"2009-01-01T00:00Z\"\nuntil = \"10000-01-01T00:00Z\"\n[[outage]]\nfrom = \"2009-01-01T05:00Z\"\nto = \"2009-01-01T04:00Z\"\n[workflows]\nduration = \"5 minutes\"\n";
        let problems = Scenario::read(text).unwrap_err();
        let places: Vec<&str> = problems.iter().map(|p| &text[p.span.range()]).collect();
        assert_eq!(
            places,
            [
                "\"10000-01-01T00:00Z\"",
                "\"5 minutes\"",
                "\"2009-01-01T04:00Z\""
            ],
            "{problems:?}"
        );
    }

    #[test]
    fn settings_default_to_oozie_default_xml() {
        let text = "start = \"2009-01-01T00:00Z\"\nuntil = \"2009-01-02T00:00Z\"\n[server]\n\"oozie.service.CoordMaterializeTriggerService.lookup.interval\" = 60\n";
        let s = Scenario::read(text).unwrap().settings;
        // The scheduling interval follows the lookup interval (oozie-default.xml:590-599).
        assert_eq!(
            (s.lookup, s.scheduling, s.window),
            (60_000, 60_000, 3_600_000)
        );
        assert_eq!(s.throttle_cap, 500);
    }
}
