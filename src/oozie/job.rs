//! Submission: what Oozie does when a coordinator job is submitted, all that
//! does not depend on an action (CoordSubmitXCommand.java, CoordELFunctions.java).
//!
//! [`prepare`] reads the job's attributes and `<controls>`, the frequencies,
//! and the datasets with their uri-templates (first phase: job properties in,
//! `${YEAR}`... kept; the datasets' submission is in `datasets.rs`, which a
//! datasets file checked on its own goes through too), reporting every
//! problem, and gives the [`Job`]; [`placed_texts`] gives each
//! value its place, whose EL group [`misplaced`] checks. One action of the
//! job is resolved in `action/`; the dry run lists them in `dryrun.rs`.

use crate::diag::rules::{
    CONTROLS, DUPLICATE_EVENT, INSTANCE_SYNTAX, TIME_DATETIME, TIME_FREQUENCY, TIME_HOUR_24,
};
use crate::diag::{Diagnostic, FileRef, Located, Severity};
use crate::el::ast::{Part, Template};
use crate::el::eval::{Context, Env, Variables};
use crate::el::frequency::{LoweredFrequency, lower_frequency, lower_timeout};
use crate::el::library::Library;
use crate::el::{VarMap, parse_template};
use crate::ir::{Coordinator, Dataset, ElText, Instances, Logic};
use crate::oozie::action::{ActionValues, EchoCall, reads_the_nominal_time};
use crate::oozie::datasets::{
    JobDataset, dataset_problems, included_by_name, prepare_dataset, undefined_dataset,
};
use crate::oozie::input_logic;
use crate::oozie::places;
use crate::time::cron::{Cron, MaxYear};
use crate::time::datetime::{ProcessingZone, parse_datetime};
use crate::time::frequency::{Frequency, FrequencyUnit};
use crate::time::instance::DatasetClock;
use crate::time::zone::Zone;
use chrono::{DateTime, Utc};
use rustc_hash::{FxHashMap, FxHashSet};
use std::borrow::Cow;
use std::cell::OnceCell;

#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Some `<include>` could not be read: a dataset not found may be defined
    /// there, so its absence is not reported (the include's problem is).
    pub includes_incomplete: bool,
    pub from: Option<DateTime<Utc>>,
    pub to: Option<DateTime<Utc>>,
    pub limit: Option<usize>,
    pub processing_zone: ProcessingZone,
    /// `oozie.service.coord.check.maximum.frequency` (on by default): a
    /// frequency under 5 minutes is refused.
    pub check_maximum_frequency: bool,
    /// The last year the server's Quartz finds a cron fire time in.
    pub cron_max_year: MaxYear,
}

impl Options {
    /// Every action, as the simulator and the benchmarks materialize them.
    pub fn all_actions(
        processing_zone: ProcessingZone,
        check_maximum_frequency: bool,
        cron_max_year: MaxYear,
    ) -> Options {
        Options {
            limit: None,
            ..Options::first_action(processing_zone, check_maximum_frequency, cron_max_year)
        }
    }

    /// The first action only, as `coordc check` materializes it.
    pub fn first_action(
        processing_zone: ProcessingZone,
        check_maximum_frequency: bool,
        cron_max_year: MaxYear,
    ) -> Options {
        Options {
            includes_incomplete: false,
            from: None,
            to: None,
            limit: Some(1),
            processing_zone,
            check_maximum_frequency,
            cron_max_year,
        }
    }
}

/// A submitted job, ready to materialize.
pub struct Job<'a> {
    pub(super) app: &'a Coordinator,
    /// What the submission found that does not stop the job (a 24:00).
    pub warnings: Vec<Located>,
    pub name: Cow<'a, str>,
    pub controls: Controls,
    pub zone: Zone,
    pub start: DateTime<Utc>,
    pub end: DateTime<Utc>,
    pub(super) schedule: Schedule,
    pub(super) datasets: FxHashMap<&'a str, JobDataset<'a>>,
    pub(super) vars: &'a VarMap,
    pub(super) pz: ProcessingZone,
    pub(super) window: (Option<DateTime<Utc>>, Option<DateTime<Utc>>),
    pub(super) limit: Option<usize>,
    /// Per data-in: its range's echo, once read, when it cannot change between
    /// actions (no `hoursInDay`, `daysInMonth` or `tzOffset` in it).
    pub(super) constant_echoes: Vec<Option<OnceCell<(EchoCall, EchoCall)>>>,
    /// The `<input-logic>` condition, and the names of its named nodes.
    pub(super) logic: Option<&'a Logic>,
    pub(super) logic_names: Vec<&'a str>,
    pub(super) values: ActionValues<'a>,
}

/// When a job's actions are due.
pub(crate) enum Schedule {
    Every(Frequency),
    Cron(Cron),
}

/// Evaluates `text` with job variables (and the `${YEAR}`... echoes of the
/// submission phase when `echo_constants`). A value without EL is its
/// text, lent.
pub(super) fn render<'t>(
    text: &'t ElText,
    vars: &dyn Variables,
    context: Option<&dyn Context>,
    pz: ProcessingZone,
) -> Result<Cow<'t, str>, Diagnostic> {
    render_in(Library::Coordinator, text, vars, context, pz)
}

/// [`render`] with the functions of `library`.
pub(crate) fn render_in<'t>(
    library: Library,
    text: &'t ElText,
    vars: &dyn Variables,
    context: Option<&dyn Context>,
    pz: ProcessingZone,
) -> Result<Cow<'t, str>, Diagnostic> {
    if let Some(plain) = text.template().plain_text() {
        return Ok(Cow::Borrowed(plain));
    }
    let env = Env {
        vars,
        library,
        context,
        processing_zone: pz,
    };
    text.shared()
        .render(&env)
        .map(|(rendered, _)| Cow::Owned(rendered))
        .map_err(|d| text.in_file(d))
}

/// Variables over a base, with some names answered first.
pub(super) struct Layered<'a, S = &'static str> {
    pub(super) first: &'a [(&'static str, S)],
    pub(super) base: &'a dyn Variables,
}

impl<S: AsRef<str>> Variables for Layered<'_, S> {
    fn lookup(&self, name: &str) -> Option<Option<&str>> {
        match self.first.iter().find(|(n, _)| *n == name) {
            Some((_, v)) => Some(Some(v.as_ref())),
            None => self.base.lookup(name),
        }
    }
}

/// The submission phase keeps the uri-template constants for later
/// (`CoordELConstants`: each evaluates to its own `${NAME}`).
pub(super) const ECHO_CONSTANTS: &[(&str, &str)] = &[
    ("YEAR", "${YEAR}"),
    ("MONTH", "${MONTH}"),
    ("DAY", "${DAY}"),
    ("HOUR", "${HOUR}"),
    ("MINUTE", "${MINUTE}"),
];

/// A value evaluated as Oozie evaluates it at submission (`coord-job-submit-nofuncs`:
/// job properties, `coord:conf`, `coord:user`; `${YEAR}`... kept), e.g. an `<include>`.
pub(crate) fn submit_text(
    text: &ElText,
    vars: &VarMap,
    pz: ProcessingZone,
) -> Result<String, Diagnostic> {
    let layered = Layered {
        first: ECHO_CONSTANTS,
        base: vars,
    };
    render(text, &layered, None, pz).map(Cow::into_owned)
}

/// A datetime value computed at an action: the rendered text parsed as Oozie
/// parses it (a 24:00 is an error here: Oozie rejects it).
pub(super) fn datetime(
    text: &ElText,
    rendered: &str,
    pz: ProcessingZone,
) -> Result<DateTime<Utc>, Diagnostic> {
    match submitted_datetime(text, rendered, pz)? {
        (t, None) => Ok(t),
        (_, Some(mut hour_24)) => {
            hour_24.severity = Severity::Error;
            hour_24.code = TIME_DATETIME;
            Err(hour_24)
        }
    }
}

/// A datetime of the application (start, end, an initial-instance): the
/// spec's `24:00` (§4.1.1) is 00:00 of the next day, with the TM004 warning
/// that Oozie servers reject it.
fn submitted_datetime(
    text: &ElText,
    rendered: &str,
    pz: ProcessingZone,
) -> Result<(DateTime<Utc>, Option<Diagnostic>), Diagnostic> {
    match parse_datetime(rendered, pz) {
        Ok(t) if !t.hour_24 => Ok((t.instant, None)),
        Ok(t) => {
            let next_day = pz.format(t.instant);
            let d = Diagnostic::warning(
                TIME_HOUR_24,
                text.span,
                format!(
                    "`{}`: the spec reads 24:00 as 00:00 of the next day, but Oozie servers reject it (since 3.3, OOZIE-649)",
                    rendered.trim()
                ),
            )
            .with_help(format!("write `{next_day}`, 00:00 of the next day"));
            // The datetime written as it is: the same instant, as servers take it.
            let d = match text.literal_span() {
                Some(span) => d.with_fix(crate::diag::fixes::FixKind::Hour24, span, next_day),
                None => d,
            };
            Ok((t.instant, Some(d)))
        }
        Err(e) if rendered == text.text() => Err(e.to_diagnostic(text.span.start as usize, pz)),
        Err(e) => {
            let mut d = e.to_diagnostic(text.span.start as usize, pz);
            d.span = text.span;
            d.message = format!("{} (the value is `{rendered}`)", d.message);
            Err(d)
        }
    }
}

/// [`submitted_datetime`], its warning kept in `problems`.
pub(super) fn application_datetime(
    text: &ElText,
    rendered: &str,
    pz: ProcessingZone,
    file: FileRef,
    problems: &mut Vec<Located>,
) -> Result<DateTime<Utc>, Diagnostic> {
    let (t, warning) = submitted_datetime(text, rendered, pz)?;
    problems.extend(warning.map(|diagnostic| Located { file, diagnostic }));
    Ok(t)
}

/// `lower` on the EL tree of `text`, its diagnostic pointed into the file;
/// for a value whose EL does not parse (the lowering reported it), the
/// parser's diagnostic, which stops what needs the value.
pub(super) fn lowered<T>(
    text: &ElText,
    lower: impl FnOnce(&Template) -> Result<T, Diagnostic>,
) -> Result<T, Diagnostic> {
    let template = if text.parsed {
        Cow::Borrowed(text.template())
    } else {
        Cow::Owned(parse_template(text.text(), 0).map_err(|d| text.in_file(d))?)
    };
    lower(&template).map_err(|d| text.in_file(d))
}

/// The end is not after the start ("Coordinator Start Time must be earlier
/// than End Time.", an IllegalArgumentException, so E1003:
/// CoordSubmitXCommand.java:334-338 and 264-267 at release-5.2.1): both
/// values, as submitted, and what each is written as when it is not
/// written as it is (`${end}`).
fn end_not_after_start(
    app: &Coordinator,
    start: DateTime<Utc>,
    end: DateTime<Utc>,
    pz: ProcessingZone,
) -> Diagnostic {
    let (start_text, end_text) = (pz.format(start), pz.format(end));
    let relation = if start == end { "equal to" } else { "before" };
    let shown = |text: &ElText, value: &str| match text.template().plain_text() {
        Some(_) => value.to_string(),
        None => format!("`{}` = {value}", text.text()),
    };
    let mut d = Diagnostic::error(
        TIME_DATETIME,
        app.end.span,
        format!(
            "the end must be after the start (Oozie rejects equal times too, E1003): the end, {}, is {relation} the start, {}",
            shown(&app.end, &end_text),
            shown(&app.start, &start_text)
        ),
    );
    if app.start.span != app.end.span {
        d = d.with_label(app.start.span, format!("the start, {start_text}"));
    }
    let mut read = Vec::new();
    for text in [&app.end, &app.start] {
        for expr in text.template().exprs() {
            expr.walk(&mut |e| {
                if let crate::el::ast::ExprKind::Var(name) = &e.kind
                    && !read.contains(&name.to_string())
                {
                    read.push(name.to_string());
                }
            });
        }
    }
    match read.as_slice() {
        [] => d.with_help("move the end later, or the start earlier"),
        names => d.with_help(format!(
            "the values come from the job's properties ({}): check what the job configuration sets",
            names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

pub(super) fn zone(text: &ElText, rendered: &str) -> Result<Zone, Diagnostic> {
    Zone::parse(rendered).map_err(|e| e.to_diagnostic(rendered, text.span))
}

/// Submission: everything that does not depend on an action, with every
/// problem reported. `included` are the datasets of the included files.
pub fn prepare<'a>(
    app: &'a Coordinator,
    included: &'a [Dataset],
    vars: &'a VarMap,
    options: &Options,
) -> Result<Job<'a>, Vec<Located>> {
    let pz = options.processing_zone;
    let mut problems = Vec::new();
    let submit_vars = Layered {
        first: ECHO_CONSTANTS,
        base: vars,
    };
    let submitted = |text: &'a ElText| render(text, &submit_vars, None, pz);
    let start = submitted(&app.start)
        .and_then(|s| application_datetime(&app.start, &s, pz, FileRef::App, &mut problems));
    let end = submitted(&app.end)
        .and_then(|s| application_datetime(&app.end, &s, pz, FileRef::App, &mut problems));
    let job_zone = submitted(&app.timezone).and_then(|s| zone(&app.timezone, &s));
    let schedule = match lowered(&app.frequency, |t| lower_frequency(t, vars)) {
        Ok(LoweredFrequency::Every(f)) => {
            job_frequency(f, app.frequency.span, options.check_maximum_frequency)
                .map(Schedule::Every)
        }
        Ok(LoweredFrequency::Cron(text)) => Cron::parse(&text, options.cron_max_year)
            .map(Schedule::Cron)
            .map_err(|e| e.to_diagnostic(app.frequency.span.start as usize)),
        Err(d) => Err(d),
    };
    let controls = match job_controls(app, vars, &submitted) {
        Ok(controls) => Some(controls),
        Err(found) => {
            problems.extend(found.into_iter().map(Located::in_app));
            None
        }
    };
    let name = submitted(&app.name);
    let start = in_app(start, &mut problems);
    let end = in_app(end, &mut problems);
    let job_zone = in_app(job_zone, &mut problems);
    let schedule = in_app(schedule, &mut problems);
    let name = in_app(name, &mut problems);
    if let (Some(s), Some(e)) = (start, end)
        && s >= e
    {
        problems.push(Located::in_app(end_not_after_start(app, s, e, pz)));
    }
    // Datasets: included ones may not share a name; embedded ones override them.
    let mut by_name = included_by_name(included, &mut problems);
    for dataset in &app.datasets {
        by_name.insert(&dataset.name.name, dataset);
    }
    let mut datasets = FxHashMap::default();
    let mut missing_from_includes = false;
    // Each dataset is prepared (and its problems reported) once, however many
    // events read it.
    let mut prepared = FxHashSet::default();
    let mut read = FxHashSet::default();
    for event in app
        .inputs
        .iter()
        .map(|d| &d.dataset)
        .chain(app.outputs.iter().map(|d| &d.dataset))
    {
        if prepared.contains(event.name.as_str()) {
            continue;
        }
        let Some(dataset) = by_name.get(event.name.as_str()) else {
            if options.includes_incomplete {
                missing_from_includes = true;
                continue;
            }
            problems.push(Located::in_app(undefined_dataset(event, &by_name)));
            continue;
        };
        prepared.insert(event.name.as_str());
        read.insert(std::ptr::from_ref::<Dataset>(dataset));
        match prepare_dataset(dataset, vars, &submit_vars, pz, &mut problems) {
            Ok(ready) => {
                datasets.insert(event.name.as_str(), ready);
            }
            Err(mut found) => problems.append(&mut found),
        }
    }
    // Submission reads every dataset, embedded or included, that no event
    // names too (CoordSubmitXCommand.java:801, 993-1030, 1143).
    for dataset in app.datasets.iter().chain(included) {
        if !read.contains(&std::ptr::from_ref(dataset)) {
            problems.extend(dataset_problems(dataset, vars, pz));
        }
    }
    let mut seen = FxHashSet::default();
    for data_in in &app.inputs {
        if !seen.insert(data_in.name.name.as_str()) {
            problems.push(Located::in_app(Diagnostic::error(
                DUPLICATE_EVENT,
                data_in.name.span,
                format!("Duplicate dataIn name {} (E0803)", data_in.name.name),
            )));
        }
    }
    // Each value is evaluated by the EL group of its place, which defines only
    // some functions and constants (oozie-default.xml, `oozie.service.ELService.*`).
    problems.extend(places::misplaced(app, included, vars));
    // CoordSubmitXCommand.java:376-454: an instance element must hold one instance, not be empty or
    // list several with commas; Oozie inspects only the first data-in and the
    // first data-out.
    let first_in = app
        .inputs
        .first()
        .into_iter()
        .flat_map(|d| match &d.instances {
            Instances::List(list) => list.iter().collect::<Vec<_>>(),
            Instances::Range { start, end } => vec![start, end],
        });
    let first_out = app.outputs.first().map(|d| &d.instance);
    for text in first_in.chain(first_out) {
        if let Some(problem) = instance_problem(text) {
            problems.push(Located::in_app(
                Diagnostic::error(INSTANCE_SYNTAX, text.span, problem).with_help(
                    "write one instance per <instance> element, e.g. ${coord:current(0)}",
                ),
            ));
        }
    }
    let logic = match app.input_logic.as_ref().map(input_logic::root) {
        Some(Ok(root)) => root,
        Some(Err(diagnostic)) => {
            problems.push(Located::in_app(diagnostic));
            None
        }
        None => None,
    };
    if let Some(root) = logic {
        let data_ins: Vec<&str> = app.inputs.iter().map(|d| d.name.name.as_str()).collect();
        problems.extend(
            input_logic::check_references(root, &data_ins)
                .into_iter()
                .map(Located::in_app),
        );
    }
    let (Some(start), Some(end), Some(zone), Some(schedule), Some(name), Some(controls), true) = (
        start,
        end,
        job_zone,
        schedule,
        name,
        controls,
        problems
            .iter()
            .all(|p| p.diagnostic.severity != Severity::Error)
            && !missing_from_includes,
    ) else {
        return Err(problems);
    };
    Ok(Job {
        app,
        warnings: problems,
        name,
        controls,
        zone,
        start,
        end,
        schedule,
        datasets,
        vars,
        pz,
        window: (options.from, options.to),
        limit: options.limit,
        logic,
        logic_names: logic.map(input_logic::names).unwrap_or_default(),
        values: ActionValues::new(app, vars, options.limit != Some(1)),
        constant_echoes: app
            .inputs
            .iter()
            .map(|d| match &d.instances {
                Instances::Range { start, end }
                    if !reads_the_nominal_time(start) && !reads_the_nominal_time(end) =>
                {
                    Some(OnceCell::new())
                }
                _ => None,
            })
            .collect(),
    })
}

/// A coordinator's frequency as submission checks it (CoordSubmitXCommand.java:340-352): with
/// `oozie.service.coord.check.maximum.frequency` (the default) 0, and under 5
/// in minutes, is refused. Oozie accepts any other count, but one that is not
/// positive never moves forward: its materialization adds `number × frequency`
/// to the start and loops while that is before the end
/// (CoordMaterializeTransitionXCommand:486-545), so every action lands at or
/// before the start, without end. coordc refuses it too.
fn job_frequency(
    f: Frequency,
    span: crate::span::Span,
    check_maximum: bool,
) -> Result<Frequency, Diagnostic> {
    let plural = if f.count == 1 { "" } else { "s" };
    if check_maximum && (f.count == 0 || (f.unit == FrequencyUnit::Minute && f.count < 5)) {
        return Err(Diagnostic::error(
            TIME_FREQUENCY,
            span,
            format!(
                "a frequency of {} {}{plural} is below Oozie's 5-minute minimum (E1003)",
                f.count,
                f.unit.name()
            ),
        )
        .with_help("the server setting oozie.service.coord.check.maximum.frequency=false lifts the limit; the frequency must still be greater than zero"));
    }
    if f.count <= 0 {
        return Err(Diagnostic::error(
            TIME_FREQUENCY,
            span,
            format!(
                "a frequency of {} {}{plural} never moves forward: Oozie accepts it with check.maximum.frequency off, and materializes every action at or before the start, without end",
                f.count,
                f.unit.name()
            ),
        )
        .with_help("a frequency must be greater than zero, e.g. ${coord:hours(1)}"));
    }
    Ok(f)
}

/// A job's `<controls>`, with Oozie's defaults (CoordSubmitXCommand:735-796,
/// oozie-default.xml).
#[derive(Debug, Clone, PartialEq)]
pub struct Controls {
    /// Minutes an action waits for its inputs (default 120; -1 and anything
    /// over 86400 are 86400).
    pub timeout: i64,
    /// Actions running at once; negative is unlimited (default 1).
    pub concurrency: i64,
    /// Actions waiting at once; as written, clamped by the server (default 12).
    pub throttle: i64,
    pub execution: Execution,
}

/// The order waiting actions run in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Execution {
    Fifo,
    Lifo,
    LastOnly,
    None,
}

/// `<controls>` read as at submission: the timeout with the timeout evaluator,
/// the others with the job's properties; each must be a Java `int`, and the
/// execution exactly one of the four orders.
fn job_controls<'a>(
    app: &'a Coordinator,
    vars: &VarMap,
    attribute: &dyn Fn(&'a ElText) -> Result<Cow<'a, str>, Diagnostic>,
) -> Result<Controls, Vec<Diagnostic>> {
    let c = &app.controls;
    let timeout = match &c.timeout {
        Some(t) => lowered(t, |t| lower_timeout(t, vars)).map(|t| t.unwrap_or(120)),
        None => Ok(120),
    };
    let integer = |text: &'a Option<ElText>, what: &str, default: i64| -> Result<i64, Diagnostic> {
        let Some(text) = text else { return Ok(default) };
        let value = attribute(text)?;
        let value = value.trim();
        if value.is_empty() {
            return Ok(default);
        }
        value.parse::<i32>().map(i64::from).map_err(|_| {
            Diagnostic::error(
                CONTROLS,
                text.span,
                format!("the {what} must be an integer, not `{value}` (E1003)"),
            )
        })
    };
    let concurrency = integer(&c.concurrency, "concurrency", 1);
    let throttle = integer(&c.throttle, "throttle", 12);
    let execution = match &c.execution {
        None => Ok(Execution::Fifo),
        Some(text) => attribute(text).and_then(|value| match value.trim() {
            "" | "FIFO" => Ok(Execution::Fifo),
            "LIFO" => Ok(Execution::Lifo),
            "LAST_ONLY" => Ok(Execution::LastOnly),
            "NONE" => Ok(Execution::None),
            other => Err(Diagnostic::error(
                CONTROLS,
                text.span,
                format!(
                    "the execution order `{other}` is none of FIFO, LIFO, LAST_ONLY, NONE (E1003)"
                ),
            )
            .with_help("the values are case-sensitive")),
        }),
    };
    match (timeout, concurrency, throttle, execution) {
        (Ok(timeout), Ok(concurrency), Ok(throttle), Ok(execution)) => Ok(Controls {
            timeout,
            concurrency,
            throttle,
            execution,
        }),
        (t, c, th, e) => Err([t.err(), c.err(), th.err(), e.err()]
            .into_iter()
            .flatten()
            .collect()),
    }
}

/// The value, or `None` with its problem (in the application file) recorded.
fn in_app<T>(result: Result<T, Diagnostic>, problems: &mut Vec<Located>) -> Option<T> {
    result
        .map_err(|diagnostic| problems.push(Located::in_app(diagnostic)))
        .ok()
}

impl<'a> Job<'a> {
    pub(crate) fn schedule(&self) -> &Schedule {
        &self.schedule
    }

    pub(crate) fn processing_zone(&self) -> ProcessingZone {
        self.pz
    }

    /// The dataset a data-in or data-out names, as submitted: its definition
    /// and its instance clock.
    pub(crate) fn dataset(&self, name: &str) -> Option<(&'a Dataset, &DatasetClock)> {
        self.datasets.get(name).map(|d| (d.dataset, &d.clock))
    }

    /// The application submitted.
    pub(crate) fn app(&self) -> &'a Coordinator {
        self.app
    }

    /// The done-flag of a dataset a data-in or data-out names, evaluated with
    /// the job's properties: `_SUCCESS` by default, empty for the directory
    /// itself (CoordUtils:68-75).
    pub(crate) fn done_flag(&self, name: &str) -> Option<Result<String, Diagnostic>> {
        let dataset = self.datasets.get(name)?.dataset;
        Some(match &dataset.done_flag {
            None => Ok("_SUCCESS".to_string()),
            Some(text) => {
                render(text, self.vars, None, self.pz).map(|flag| flag.trim().to_string())
            }
        })
    }

    /// The job's properties, which its EL reads as variables.
    pub(crate) fn vars(&self) -> &'a VarMap {
        self.vars
    }

    /// A dataset's uri-template as submitted: job properties in, `${YEAR}`...
    /// kept (what identifies the data across applications).
    pub(crate) fn submitted_uri(&self, name: &str) -> Option<&str> {
        self.datasets.get(name).map(|d| &*d.submitted)
    }

    /// The nominal times of the actions in [start, end), without resolving
    /// the actions (a cron schedule gives as many as the listing would).
    pub(crate) fn nominal_times_all(&self) -> impl Iterator<Item = DateTime<Utc>> + '_ {
        self.nominal_times(self.end).map_while(Result::ok)
    }
}

/// Why an instance element's text is not one instance, as the checks of
/// CoordSubmitXCommand.java:376-454 (StringUtils.java:63-103) see it.
pub(crate) fn instance_problem(text: &ElText) -> Option<String> {
    if text.text().trim().is_empty() {
        return Some("an empty instance: Oozie rejects it at submission (E1021)".to_string());
    }
    let comma_outside = text
        .template()
        .parts
        .iter()
        .any(|p| matches!(p, Part::Text { text, .. } if text.contains(',')));
    comma_outside.then(|| {
        "a `,` outside ${...}: one instance element holds one instance (E1021)".to_string()
    })
}

/// The coordinator `app` (no job properties), submitted as the dry run
/// submits it (every action, UTC processing zone), handed to `f`.
#[cfg(test)]
pub(crate) fn with_job<R>(app: &str, f: impl FnOnce(&Job) -> R) -> R {
    let arena = crate::xml::Arena::new();
    let doc = crate::xml::parse(app, &arena).unwrap();
    let (coordinator, problems) = crate::ir::lower::coordinator(&doc.root);
    assert!(problems.is_empty(), "{problems:?}");
    // (A server started in 2026: the tests' crons fire well before 2126.)
    let options = Options::all_actions(
        ProcessingZone::UTC,
        true,
        crate::time::cron::MaxYear::for_server_started_in(2026),
    );
    let vars = VarMap::default();
    let job = prepare(&coordinator, &[], &vars, &options)
        .unwrap_or_else(|_| panic!("the coordinator is valid"));
    f(&job)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_frequency_must_move_forward_with_or_without_the_minimum() {
        let span = crate::span::Span::new(0, 1);
        let f = |count, unit| Frequency {
            count,
            unit,
            end_of: false,
        };
        // Oozie's rule (CoordSubmitXCommand.java:340-352): 0, and under 5 minutes.
        for (count, unit) in [(0, FrequencyUnit::Day), (4, FrequencyUnit::Minute)] {
            let e = job_frequency(f(count, unit), span, true).unwrap_err();
            assert!(e.message.contains("5-minute minimum"), "{}", e.message);
        }
        // Negative days pass Oozie's rule, and every count passes without it,
        // but one that is not positive never moves forward.
        for check in [true, false] {
            for count in [0, -1, i64::from(i32::MIN)] {
                let e = job_frequency(f(count, FrequencyUnit::Day), span, check);
                assert_eq!(e.unwrap_err().code, TIME_FREQUENCY, "{count} {check}");
            }
        }
        assert!(job_frequency(f(1, FrequencyUnit::Minute), span, false).is_ok());
        assert!(job_frequency(f(i64::from(i32::MAX), FrequencyUnit::Month), span, true).is_ok());
    }
}
