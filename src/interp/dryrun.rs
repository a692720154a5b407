//! The dry run: every action a coordinator materializes, resolved as Oozie
//! resolves it (research/oozie-semantics.md §2-§5).
//!
//! [`prepare`] does what Oozie does at submission: parameters, the job's
//! attributes, frequencies, datasets and their uri-templates (first phase: job
//! properties in, `${YEAR}`... kept), reporting every problem. [`Job::actions`]
//! then materializes actions one at a time, as Oozie's materialization service
//! does over time: the nominal time, each data-in's instances (ranges through
//! Oozie's echo pass, newest first, instances before the initial one dropped),
//! the URIs (second phase: the instance's fields in the processing zone), the
//! data-outs, and the workflow's app-path and configuration with the action
//! functions. `latest` and `future` need data, so they stay unresolved.

use crate::check::rules::{
    CONTROLS, DUPLICATE_DATASET, DUPLICATE_EVENT, EL_EVAL, EL_MISPLACED, INSTANCE_RANGE,
    INSTANCE_SYNTAX, TIME_DATETIME, TIME_FREQUENCY, TIME_HOUR_24, UNDEFINED_DATASET,
};
use crate::diag::{Diagnostic, Severity};
use crate::el::ast::{Part, Template};
use crate::el::eval::{Context, Env, Variables};
use crate::el::frequency::{LoweredFrequency, lower_frequency, lower_timeout};
use crate::el::library::{FunctionDef, Library, Place, first_misplaced};
use crate::el::parse::find_block;
use crate::el::{Compiled, NoVariables, Value, VarMap, parse_template, render_into};
use crate::interp::hcat;
use crate::interp::input_logic::{self, Condition};
use crate::ir::{Coordinator, DataIn, Dataset, ElText, Instances, Logic};
use crate::time::calendar::CalendarUnit;
use crate::time::cron::{self, Cron};
use crate::time::datetime::{ProcessingZone, format_utc, parse_datetime};
use crate::time::frequency::{Frequency, FrequencyUnit, nominal_time_iter};
use crate::time::instance::DatasetClock;
use crate::time::zone::Zone;
use chrono::{DateTime, Datelike, Timelike, Utc};
use rustc_hash::{FxHashMap, FxHashSet};
use std::borrow::Cow;
use std::cell::OnceCell;

/// Most actions one dry run lists unless `--limit` or `--to` says otherwise.
pub const DEFAULT_MAX_ACTIONS: usize = 1_000_000;

/// How many actions before a window's start (`--from`) a dry run walks past
/// before it gives up (an action every 5 minutes for 95 years).
pub const MAX_SKIPPED: usize = 10_000_000;

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
}

impl Options {
    /// The first action only, as `coordc check` materializes it.
    pub fn first_action(processing_zone: ProcessingZone, check_maximum_frequency: bool) -> Options {
        Options {
            includes_incomplete: false,
            from: None,
            to: None,
            limit: Some(1),
            processing_zone,
            check_maximum_frequency,
        }
    }
}

/// A diagnostic in the application (`file: None`) or in included file `file`.
#[derive(Debug, Clone)]
pub struct Located {
    pub file: Option<usize>,
    pub diagnostic: Diagnostic,
}

impl Located {
    /// A diagnostic in the application file itself.
    pub fn in_app(diagnostic: Diagnostic) -> Located {
        Located {
            file: None,
            diagnostic,
        }
    }
}

/// A submitted job, ready to materialize.
pub struct Job<'a> {
    app: &'a Coordinator,
    /// What the submission found that does not stop the job (a 24:00).
    pub warnings: Vec<Located>,
    pub name: Cow<'a, str>,
    pub controls: Controls,
    pub zone: Zone,
    pub start: DateTime<Utc>,
    pub end: DateTime<Utc>,
    schedule: Schedule,
    datasets: FxHashMap<&'a str, JobDataset<'a>>,
    vars: &'a VarMap,
    pz: ProcessingZone,
    window: (Option<DateTime<Utc>>, Option<DateTime<Utc>>),
    limit: Option<usize>,
    /// Per data-in: its range's echo, once read, when it cannot change between
    /// actions (no `hoursInDay`, `daysInMonth` or `tzOffset` in it).
    constant_echoes: Vec<Option<OnceCell<(EchoCall, EchoCall)>>>,
    /// The `<input-logic>` condition, and the names of its named nodes.
    logic: Option<&'a Logic>,
    logic_names: Vec<&'a str>,
    values: ActionValues<'a>,
}

/// The workflow app-path and configuration and the SLA fields, ready for
/// every action.
struct ActionValues<'a> {
    app_path: ActionValue<'a>,
    configuration: Vec<(ActionValue<'a>, ActionValue<'a>)>,
    sla: Vec<(&'a str, ActionValue<'a>)>,
}

impl<'a> ActionValues<'a> {
    /// `many`: the values will be rendered for more than one action.
    fn new(app: &'a Coordinator, vars: &VarMap, many: bool) -> ActionValues<'a> {
        let value = |text| ActionValue::new(text, vars, many);
        ActionValues {
            app_path: value(&app.action.app_path),
            configuration: app
                .action
                .configuration
                .iter()
                .map(|p| (value(&p.name), value(&p.value)))
                .collect(),
            sla: app
                .action
                .sla
                .iter()
                .flat_map(|s| &s.fields)
                .map(|(name, text)| (name.name.as_str(), value(text)))
                .collect(),
        }
    }
}

/// A value evaluated for every action, compiled and bound to the job's
/// properties once: between actions only the action functions change. (For
/// one action, as `coordc check` materializes, compiling costs more than it
/// saves: the value is evaluated as written, to the same result.)
struct ActionValue<'a> {
    text: &'a ElText,
    /// (Boxed: a template is large, and one action's values, as `check`
    /// materializes, are not compiled; nor is a value without EL, which
    /// renders as its text.)
    compiled: Option<Box<Compiled>>,
    /// Calls `coord:actualTime()` or `coord:actionId()`, known only to the
    /// server when it creates the action: such a value is printed as written,
    /// never with a made-up time or id.
    server_only: bool,
}

impl<'a> ActionValue<'a> {
    fn new(text: &'a ElText, vars: &VarMap, many: bool) -> ActionValue<'a> {
        let template = text.template();
        ActionValue {
            text,
            compiled: (many && template.plain_text().is_none())
                .then(|| Box::new(Compiled::new(template.clone()).bind(vars))),
            server_only: text.calls_any(&["actualTime", "actionId"]),
        }
    }

    fn render(
        &self,
        vars: &VarMap,
        context: &dyn Context,
        pz: ProcessingZone,
    ) -> Result<Cow<'a, str>, Diagnostic> {
        if self.server_only {
            return Ok(Cow::Borrowed(self.text.text()));
        }
        let Some(compiled) = &self.compiled else {
            return render(self.text, vars, Some(context), pz);
        };
        let env = Env {
            vars,
            library: Library::Coordinator,
            context: Some(context),
            processing_zone: pz,
        };
        // (Room for the text as written: one allocation, see `el::render`.)
        let mut out = String::with_capacity(self.text.span.range().len());
        compiled
            .render_into(&env, &mut out)
            .map_err(|d| self.text.in_file(d))?;
        Ok(Cow::Owned(out))
    }
}

/// `text` without surrounding whitespace: a lent text sliced, an owned one
/// trimmed in place.
fn trimmed(text: Cow<str>) -> Cow<str> {
    match text {
        Cow::Borrowed(text) => Cow::Borrowed(text.trim()),
        Cow::Owned(mut text) => {
            let lead = text.len() - text.trim_start().len();
            text.truncate(text.trim_end().len().max(lead));
            text.drain(..lead);
            Cow::Owned(text)
        }
    }
}

/// When a job's actions are due.
pub enum Schedule {
    Every(Frequency),
    Cron(Cron),
}

struct JobDataset<'a> {
    dataset: &'a Dataset,
    clock: DatasetClock,
    /// The uri-template after the submission phase, as text, and ready for
    /// the second.
    submitted: Cow<'a, str>,
    uri: SecondPhase,
}

/// A submitted uri-template, for its second phase.
enum SecondPhase {
    /// Only text and `${YEAR}`-style fields, the common form: no evaluator.
    Fields(Vec<UriPiece>),
    /// Anything else, parsed (second-phase errors point at the start of the
    /// uri-template); boxed, the rarer and much larger form.
    Template(Box<Template>),
}

/// One materialized action.
#[derive(Debug, Clone, PartialEq)]
pub struct Action<'a> {
    pub number: usize,
    pub nominal: DateTime<Utc>,
    pub inputs: Vec<Event<'a>>,
    pub outputs: Vec<Event<'a>>,
    pub app_path: Cow<'a, str>,
    pub configuration: Vec<(Cow<'a, str>, Cow<'a, str>)>,
    /// The resolved `<sla:info>` elements, by local name; empty without SLA.
    pub sla: Vec<(&'a str, Cow<'a, str>)>,
    /// The `<input-logic>` condition with this action's min and wait values.
    pub input_logic: Option<Condition<'a>>,
}

/// A data-in or data-out of an action.
#[derive(Debug, Clone, PartialEq)]
pub struct Event<'a> {
    /// The event's name, as written in the application.
    pub name: &'a str,
    pub uris: Vec<String>,
    /// `latest`/`future` instances, as Oozie leaves them until data arrives.
    pub unresolved: Vec<String>,
}

/// Evaluates `text` with job variables (and the `${YEAR}`... echoes of the
/// submission phase when `echo_constants`). A value without EL is its
/// text, lent.
pub(crate) fn render<'t>(
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
        library: Library::Coordinator,
        context,
        processing_zone: pz,
    };
    crate::el::render(text.template(), &env)
        .map(|(rendered, _)| Cow::Owned(rendered))
        .map_err(|d| text.in_file(d))
}

/// Variables over a base, with some names answered first.
struct Layered<'a, S = &'static str> {
    first: &'a [(&'static str, S)],
    base: &'a dyn Variables,
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
const ECHO_CONSTANTS: &[(&str, &str)] = &[
    ("YEAR", "${YEAR}"),
    ("MONTH", "${MONTH}"),
    ("DAY", "${DAY}"),
    ("HOUR", "${HOUR}"),
    ("MINUTE", "${MINUTE}"),
];

/// A value evaluated as Oozie evaluates it at submission (`coord-job-submit-nofuncs`:
/// job properties, `coord:conf`, `coord:user`; `${YEAR}`... kept), e.g. an `<include>`.
pub fn submit_text(text: &ElText, vars: &VarMap, pz: ProcessingZone) -> Result<String, Diagnostic> {
    let layered = Layered {
        first: ECHO_CONSTANTS,
        base: vars,
    };
    render(text, &layered, None, pz).map(Cow::into_owned)
}

/// A datetime value computed at an action: the rendered text parsed as Oozie
/// parses it (a 24:00 is an error here: Oozie rejects it).
pub(crate) fn datetime(
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
        Ok(t) => Ok((
            t.instant,
            Some(
                Diagnostic::warning(
                    TIME_HOUR_24,
                    text.span,
                    format!(
                        "`{}`: the spec reads 24:00 as 00:00 of the next day, but Oozie servers reject it (since 3.3, OOZIE-649)",
                        rendered.trim()
                    ),
                )
                .with_help("write 00:00 of the next day"),
            ),
        )),
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
fn application_datetime(
    text: &ElText,
    rendered: &str,
    pz: ProcessingZone,
    file: Option<usize>,
    problems: &mut Vec<Located>,
) -> Result<DateTime<Utc>, Diagnostic> {
    let (t, warning) = submitted_datetime(text, rendered, pz)?;
    problems.extend(warning.map(|diagnostic| Located { file, diagnostic }));
    Ok(t)
}

/// `lower` on the EL tree of `text`, its diagnostic pointed into the file;
/// for a value whose EL does not parse (the lowering reported it), the
/// parser's diagnostic, which stops what needs the value.
fn lowered<T>(
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

fn zone(text: &ElText, rendered: &str) -> Result<Zone, Diagnostic> {
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
        .and_then(|s| application_datetime(&app.start, &s, pz, None, &mut problems));
    let end = submitted(&app.end)
        .and_then(|s| application_datetime(&app.end, &s, pz, None, &mut problems));
    let job_zone = submitted(&app.timezone).and_then(|s| zone(&app.timezone, &s));
    let schedule = match lowered(&app.frequency, |t| lower_frequency(t, vars)) {
        Ok(LoweredFrequency::Every(f)) => {
            job_frequency(f, app.frequency.span, options.check_maximum_frequency)
                .map(Schedule::Every)
        }
        Ok(LoweredFrequency::Cron(text)) => Cron::parse(&text)
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
        problems.push(Located::in_app(Diagnostic::error(
            TIME_DATETIME,
            app.end.span,
            "the end must be after the start (Oozie rejects equal times too, E1003)",
        )));
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
            problems.push(Located::in_app(
                Diagnostic::error(
                    UNDEFINED_DATASET,
                    event.span,
                    format!("undefined dataset: {} (E0803)", event.name),
                )
                .with_help("define it in <datasets>, or include a file that defines it"),
            ));
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
    // names too (CSX:801, 993-1030, 1143).
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
    // some functions and constants (research/oozie-semantics.md §2).
    problems.extend(misplaced(app, included, vars));
    // CSX:376-454: an instance element must hold one instance, not be empty or
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

/// Included datasets by name: Oozie reads the included files' datasets into
/// one list and refuses a name twice, within a file or across files
/// (CSX:1143-1148, E0803).
pub fn included_by_name<'a>(
    included: &'a [Dataset],
    problems: &mut Vec<Located>,
) -> FxHashMap<&'a str, &'a Dataset> {
    let mut by_name: FxHashMap<&str, &Dataset> = FxHashMap::default();
    for dataset in included {
        if let Some(first) = by_name.insert(&dataset.name.name, dataset) {
            let mut diagnostic = Diagnostic::error(
                DUPLICATE_DATASET,
                dataset.name.span,
                format!(
                    "Duplicate Dataset {}: included files may not define a dataset twice (E0803)",
                    dataset.name.name
                ),
            );
            // (File 0 is the file checked: a datasets file checked on its own.)
            diagnostic = match first.file {
                f if f == dataset.file => {
                    diagnostic.with_label(first.name.span, "first defined here")
                }
                None | Some(0) => diagnostic
                    .with_help("the first definition is in the file that includes this one"),
                Some(f) => {
                    diagnostic.with_help(format!("the first definition is in included file #{f}"))
                }
            };
            problems.push(Located {
                file: dataset.file,
                diagnostic,
            });
        }
    }
    by_name
}

/// Every problem submission finds in one dataset, as it reads every
/// dataset of the application and of its included files (CSX:1009-1030):
/// frequency, initial-instance, zone, uri-template (its job properties and
/// the `${YEAR}`... constants), with its warnings (TM004).
pub fn dataset_problems(dataset: &Dataset, vars: &VarMap, pz: ProcessingZone) -> Vec<Located> {
    let submit_vars = Layered {
        first: ECHO_CONSTANTS,
        base: vars,
    };
    let mut found = Vec::new();
    if let Err(mut problems) = prepare_dataset(dataset, vars, &submit_vars, pz, &mut found) {
        found.append(&mut problems);
    }
    found
}

/// A dataset's values with their places (the EL group each is evaluated
/// with); its frequency is read by [`dataset_frequency`].
pub fn dataset_texts(dataset: &Dataset) -> impl Iterator<Item = (Option<usize>, &ElText, Place)> {
    [
        (&dataset.initial_instance, Place::InitialInstance),
        (&dataset.timezone, Place::Submit),
        (&dataset.uri_template, Place::Submit),
    ]
    .into_iter()
    .chain(dataset.done_flag.iter().map(|d| (d, Place::Submit)))
    .map(|(text, place)| (dataset.file, text, place))
}

/// Every value Oozie evaluates at submission or materialization, with the file
/// it is in (`None`: the application) and its place, whose EL group decides
/// which functions and constants it may use (research/oozie-semantics.md §2).
pub fn placed_texts<'a>(
    app: &'a Coordinator,
    included: &'a [Dataset],
) -> Vec<(Option<usize>, &'a ElText, Place)> {
    // (Sized for the usual values up front: the list is made twice a file.)
    let mut texts: Vec<(Option<usize>, &ElText, Place)> = Vec::with_capacity(
        4 + 4 * (app.datasets.len() + included.len())
            + 2 * app.inputs.len()
            + app.outputs.len()
            + 2 * app.action.configuration.len(),
    );
    texts.extend([
        (None, &app.start, Place::Submit),
        (None, &app.end, Place::Submit),
        (None, &app.timezone, Place::Submit),
        (None, &app.action.app_path, Place::Submit),
    ]);
    for dataset in app.datasets.iter().chain(included) {
        texts.extend(dataset_texts(dataset));
    }
    for data_in in &app.inputs {
        match &data_in.instances {
            Instances::List(list) => texts.extend(list.iter().map(|t| (None, t, Place::Instance))),
            Instances::Range { start, end } => {
                texts.push((None, start, Place::RangeInstance));
                texts.push((None, end, Place::RangeInstance));
            }
        }
    }
    texts.extend(
        app.outputs
            .iter()
            .map(|d| (None, &d.instance, Place::Instance)),
    );
    for property in &app.action.configuration {
        texts.push((None, &property.name, Place::ActionConfig));
        texts.push((None, &property.value, Place::ActionConfig));
    }
    texts.extend(
        app.action
            .sla
            .iter()
            .flat_map(|s| &s.fields)
            .map(|(_, v)| (None, v, Place::Sla)),
    );
    // The input check's min and wait are evaluated with the action's data
    // evaluator (CoordCommandUtils.evaluateInputCheck).
    texts.extend(
        app.input_logic
            .iter()
            .flat_map(|l| &l.roots)
            .flat_map(input_logic::values)
            .map(|t| (None, t, Place::ActionConfig)),
    );
    texts
}

/// The values that use a function or constant their place does not define
/// (EL009).
pub fn misplaced(app: &Coordinator, included: &[Dataset], vars: &dyn Variables) -> Vec<Located> {
    misplaced_in(placed_texts(app, included), vars)
}

/// Those of `texts` that use a function or constant their place does not
/// define (EL009).
pub fn misplaced_in<'a>(
    texts: impl IntoIterator<Item = (Option<usize>, &'a ElText, Place)>,
    vars: &dyn Variables,
) -> Vec<Located> {
    let mut problems = Vec::new();
    for (file, text, place) in texts {
        if let Some(m) = first_misplaced(text.template(), place, vars) {
            let kind = if m.is_function {
                "function"
            } else {
                "constant"
            };
            problems.push(Located {
                file,
                diagnostic: Diagnostic::error(
                    EL_MISPLACED,
                    text.file_span(m.span),
                    format!(
                        "{} cannot be used in {}: Oozie's EL there has no such {kind}",
                        m.what,
                        place.describe()
                    ),
                ),
            });
        }
    }
    problems
}

/// A coordinator's frequency as submission checks it (CSX:340-352): with
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

/// A dataset's frequency as submission reads it (CSX:1015-1017): an integer
/// (a frequency function, or minutes), not cron, greater than zero
/// (`ParamChecker.checkGTZero`, ParamChecker.java:136-142).
pub fn dataset_frequency(dataset: &Dataset, vars: &VarMap) -> Result<Frequency, Diagnostic> {
    match lowered(&dataset.frequency, |t| lower_frequency(t, vars))? {
        LoweredFrequency::Every(f) if f.count > 0 => Ok(f),
        LoweredFrequency::Every(f) => Err(Diagnostic::error(
            TIME_FREQUENCY,
            dataset.frequency.span,
            format!(
                "parameter [frequency] = [{}] must be greater than zero (E1003)",
                f.count
            ),
        )
        .with_help(
            "a dataset frequency is how often an instance is produced, e.g. ${coord:hours(1)}",
        )),
        LoweredFrequency::Cron(_) => Err(Diagnostic::error(
            TIME_FREQUENCY,
            dataset.frequency.span,
            "a dataset frequency must be an integer or a frequency function, not cron (E1003)",
        )),
    }
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

fn prepare_dataset<'a>(
    dataset: &'a Dataset,
    vars: &VarMap,
    submit_vars: &dyn Variables,
    pz: ProcessingZone,
    warnings: &mut Vec<Located>,
) -> Result<JobDataset<'a>, Vec<Located>> {
    let mut problems = Vec::new();
    let mut problem = |d: Diagnostic| {
        problems.push(Located {
            file: dataset.file,
            diagnostic: d,
        })
    };
    let frequency = dataset_frequency(dataset, vars).map_err(&mut problem).ok();
    let initial = render(&dataset.initial_instance, vars, None, pz)
        .and_then(|s| {
            application_datetime(&dataset.initial_instance, &s, pz, dataset.file, warnings)
        })
        .and_then(|t| {
            if t.year() < 1970 {
                Err(Diagnostic::error(
                    TIME_DATETIME,
                    dataset.initial_instance.span,
                    "the initial instance must not be before 1970-01-01T00:00Z (E1021)",
                ))
            } else {
                Ok(t)
            }
        })
        .map_err(&mut problem)
        .ok();
    let zone = render(&dataset.timezone, submit_vars, None, pz)
        .and_then(|s| zone(&dataset.timezone, &s))
        .map_err(&mut problem)
        .ok();
    // The submission phase: job properties in, the ${YEAR}... constants kept.
    let span = dataset.uri_template.span;
    let uri = render(&dataset.uri_template, submit_vars, None, pz)
        .and_then(|phase_one| {
            let second = match fields_only(&phase_one) {
                Some(pieces) => SecondPhase::Fields(pieces),
                None => {
                    let template = parse_template(&phase_one, 0).map_err(|mut d| {
                        d.span = span;
                        d
                    })?;
                    SecondPhase::Template(Box::new(template))
                }
            };
            Ok((phase_one, second))
        })
        .map_err(&mut problem)
        .ok();
    let (Some(frequency), Some(initial), Some(zone), Some((submitted, uri))) =
        (frequency, initial, zone, uri)
    else {
        return Err(problems);
    };
    let clock = DatasetClock::new(initial, frequency, zone).map_err(|e| {
        vec![Located {
            file: dataset.file,
            diagnostic: Diagnostic::error(EL_EVAL, dataset.initial_instance.span, e.to_string()),
        }]
    })?;
    Ok(JobDataset {
        dataset,
        clock,
        submitted,
        uri,
    })
}

impl<'a> Job<'a> {
    pub fn schedule(&self) -> &Schedule {
        &self.schedule
    }

    pub fn processing_zone(&self) -> ProcessingZone {
        self.pz
    }

    /// The dataset a data-in or data-out names, as submitted: its definition
    /// and its instance clock.
    pub fn dataset(&self, name: &str) -> Option<(&'a Dataset, &DatasetClock)> {
        self.datasets.get(name).map(|d| (d.dataset, &d.clock))
    }

    /// A dataset's uri-template as submitted: job properties in, `${YEAR}`...
    /// kept (what identifies the data across applications).
    pub fn submitted_uri(&self, name: &str) -> Option<&str> {
        self.datasets.get(name).map(|d| &*d.submitted)
    }

    /// The nominal times of the actions in [start, end), without resolving
    /// the actions (a cron schedule gives as many as the listing would).
    pub fn nominal_times_all(&self) -> impl Iterator<Item = DateTime<Utc>> + '_ {
        self.nominal_times(self.end).map_while(Result::ok)
    }

    /// The actions, in order. Each is resolved when asked for, so memory does not
    /// grow with their number.
    /// With a window start, the actions before it are counted, not resolved;
    /// more than [`MAX_SKIPPED`] of them is an error rather than a walk of
    /// billions of nominal times.
    pub fn actions(&self) -> impl Iterator<Item = Result<Action<'a>, Diagnostic>> + '_ {
        let (from, to) = self.window;
        let to = to.map_or(self.end, |t| t.min(self.end));
        let limit = self.limit.unwrap_or(DEFAULT_MAX_ACTIONS);
        self.nominal_times(to)
            .enumerate()
            .filter(move |(index, t)| match (from, t) {
                (Some(f), Ok(t)) => *t >= f || *index >= MAX_SKIPPED,
                _ => true,
            })
            .take(limit)
            .map(move |(index, t)| match (from, t) {
                (Some(f), Ok(nominal)) if nominal < f => Err(self.too_far_to_window(MAX_SKIPPED)),
                (_, t) => t.and_then(|nominal| self.action(index + 1, nominal)),
            })
    }

    /// More actions before the window's start than coordc counts (`counted`).
    fn too_far_to_window(&self, counted: usize) -> Diagnostic {
        let from = self.window.0.map(format_utc).unwrap_or_default();
        Diagnostic::error(
            TIME_FREQUENCY,
            self.app.frequency.span,
            format!(
                "more than {counted} actions come before the window's start {from}: coordc does not count that far"
            ),
        )
        .with_help(
            "start the window closer to the coordinator's start, or list from the start with --limit",
        )
    }

    fn nominal_times(
        &self,
        to: DateTime<Utc>,
    ) -> Box<dyn Iterator<Item = Result<DateTime<Utc>, Diagnostic>> + '_> {
        match &self.schedule {
            Schedule::Every(f) => {
                Box::new(nominal_time_iter(*f, self.zone.clone(), self.start, to).map(Ok))
            }
            Schedule::Cron(c) => {
                // Enough fire times for the listing: those before `--from` are
                // skipped, so with a window start there can be more of them.
                let listed = self.limit.unwrap_or(DEFAULT_MAX_ACTIONS);
                let limit = match self.window.0 {
                    None => listed,
                    Some(_) => listed.saturating_add(DEFAULT_MAX_ACTIONS),
                };
                match cron::materialize(c, &self.zone, self.pz, self.start, self.end, limit) {
                    // Every fire time counted came before the window: the
                    // listing would be empty, as if there were no action.
                    Ok(times)
                        if times.len() == limit
                            && self.window.0.is_some_and(|from| {
                                times.last().is_some_and(|last| last.nominal < from)
                            }) =>
                    {
                        Box::new(std::iter::once(Err(self.too_far_to_window(limit))))
                    }
                    Ok(times) => Box::new(
                        times
                            .into_iter()
                            .map(|f| f.nominal)
                            .filter(move |t| *t < to)
                            .map(Ok),
                    ),
                    Err(kind) => Box::new(std::iter::once(Err(
                        c.materialize_diagnostic(kind, self.app.frequency.span.start as usize)
                    ))),
                }
            }
        }
    }

    fn action(&self, number: usize, nominal: DateTime<Utc>) -> Result<Action<'a>, Diagnostic> {
        let mut inputs = Vec::with_capacity(self.app.inputs.len());
        for (index, data_in) in self.app.inputs.iter().enumerate() {
            inputs.push(self.data_in(index, data_in, nominal)?);
        }
        let mut outputs = Vec::with_capacity(self.app.outputs.len());
        for data_out in &self.app.outputs {
            let dataset = &self.datasets[data_out.dataset.name.as_str()];
            let mut event = Event {
                name: &data_out.name.name,
                uris: Vec::new(),
                unresolved: Vec::new(),
            };
            self.instance(dataset, &data_out.instance, nominal, &mut event)?;
            outputs.push(event);
        }
        let context = ActionContext {
            nominal,
            pz: self.pz,
            raw_name: self.app.name.text(),
            inputs: &inputs,
            outputs: &outputs,
            logic_names: &self.logic_names,
        };
        let input_logic = match self.logic {
            Some(root) => {
                let condition = input_logic::resolve(root, &mut |t| {
                    render(t, self.vars, Some(&context), self.pz).map(Cow::into_owned)
                })?;
                input_logic::check_combines(&condition, &|name| {
                    inputs
                        .iter()
                        .find(|e| e.name == name)
                        .map_or((0, false), |e| (e.uris.len(), !e.unresolved.is_empty()))
                })?;
                Some(condition)
            }
            None => None,
        };
        let evaluate = |value: &ActionValue<'a>| value.render(self.vars, &context, self.pz);
        let app_path = trimmed(evaluate(&self.values.app_path)?);
        let mut configuration = Vec::with_capacity(self.values.configuration.len());
        for (name, value) in &self.values.configuration {
            configuration.push((trimmed(evaluate(name)?), evaluate(value)?));
        }
        // The SLA block, each element's trimmed text (CoordCommandUtils.materializeSLA).
        let mut sla = Vec::with_capacity(self.values.sla.len());
        for (name, value) in &self.values.sla {
            sla.push((*name, evaluate(value)?));
        }
        Ok(Action {
            number,
            nominal,
            inputs,
            outputs,
            app_path,
            configuration,
            sla,
            input_logic,
        })
    }

    fn data_in(
        &self,
        index: usize,
        data_in: &'a DataIn,
        nominal: DateTime<Utc>,
    ) -> Result<Event<'a>, Diagnostic> {
        let dataset = &self.datasets[data_in.dataset.name.as_str()];
        let mut event = Event {
            name: &data_in.name.name,
            uris: Vec::new(),
            unresolved: Vec::new(),
        };
        match &data_in.instances {
            Instances::List(list) => {
                for instance in list {
                    self.instance(dataset, instance, nominal, &mut event)?;
                }
            }
            Instances::Range { start, end } => {
                let cache = self.constant_echoes[index].as_ref();
                self.range(dataset, start, end, nominal, cache, &mut event)?
            }
        }
        Ok(event)
    }

    fn instance_context<'c>(
        &'c self,
        dataset: &'c JobDataset,
        nominal: DateTime<Utc>,
        echo: bool,
    ) -> InstanceContext<'c> {
        InstanceContext {
            clock: &dataset.clock,
            nominal,
            job_zone: &self.zone,
            pz: self.pz,
            echo,
            last: std::cell::Cell::new(None),
        }
    }

    /// One `<instance>`: its datetime's URI, nothing when it falls before the
    /// initial instance, or the call itself when it needs data.
    fn instance(
        &self,
        dataset: &JobDataset,
        text: &ElText,
        nominal: DateTime<Utc>,
        event: &mut Event,
    ) -> Result<(), Diagnostic> {
        let context = self.instance_context(dataset, nominal, false);
        let value = render(text, self.vars, Some(&context), self.pz)?;
        let value = value.trim();
        if value.is_empty() {
            return Ok(());
        }
        if value.starts_with("${coord:") {
            event.unresolved.push(value.to_string());
            return Ok(());
        }
        let t = match context.last.get() {
            Some(t) if self.pz.format(t) == value => t,
            _ => datetime(text, value, self.pz)?,
        };
        event.uris.push(self.uri(dataset, t)?);
        Ok(())
    }

    /// A start-instance/end-instance range, through Oozie's echo pass
    /// (CoordCommandUtils.resolveInstanceRange).
    fn range(
        &self,
        dataset: &JobDataset,
        start: &ElText,
        end: &ElText,
        nominal: DateTime<Utc>,
        cache: Option<&OnceCell<(EchoCall, EchoCall)>>,
        event: &mut Event,
    ) -> Result<(), Diagnostic> {
        let echo = || -> Result<(EchoCall, EchoCall), Diagnostic> {
            let context = self.instance_context(dataset, nominal, true);
            let start_echo = render(start, self.vars, Some(&context), self.pz)?;
            let end_echo = render(end, self.vars, Some(&context), self.pz)?;
            Ok((
                EchoCall::read(&start_echo, start)?,
                EchoCall::read(&end_echo, end)?,
            ))
        };
        let owned;
        let (start_call, end_call) = match cache {
            Some(cell) => match cell.get() {
                Some(calls) => calls,
                None => {
                    let calls = echo()?;
                    cell.get_or_init(|| calls)
                }
            },
            None => {
                owned = echo()?;
                &owned
            }
        };
        let range_error = |message: String| Diagnostic::error(INSTANCE_RANGE, start.span, message);
        let times = match (start_call.function.as_str(), end_call.function.as_str()) {
            ("current", "current") => {
                let (s, e) = (start_call.int(0, start)?, end_call.int(0, end)?);
                if s > e {
                    return Err(range_error(format!(
                        "start-instance should be equal or earlier than the end-instance (E1010): current({s}) is after current({e})"
                    )));
                }
                dataset
                    .clock
                    .current_range(nominal, s, e)
                    .map_err(|e| range_error(e.to_string()))?
            }
            ("offset", "offset") => {
                let s = (start_call.int(0, start)?, start_call.unit(1, start)?);
                let e = (end_call.int(0, end)?, end_call.unit(1, end)?);
                // Oozie's pre-check multiplies Calendar field constants by the
                // counts (CCU:288), so it is only right for equal units.
                if java_field(s.1) * s.0 > java_field(e.1) * e.0 {
                    return Err(range_error(
                        "start-instance should be equal or earlier than the end-instance"
                            .to_string(),
                    ));
                }
                dataset
                    .clock
                    .offset_range(nominal, s, e)
                    .map_err(|e| range_error(e.to_string()))?
            }
            // Left for the data to resolve, as CoordCommandUtils writes them.
            ("latest", "latest") => {
                let (s, e) = (start_call.int(0, start)?, end_call.int(0, end)?);
                event
                    .unresolved
                    .push(format!("${{coord:latestRange({s},{e})}}"));
                return Ok(());
            }
            ("future", "future") => {
                let (s, e) = (start_call.int(0, start)?, end_call.int(0, end)?);
                let limit = end_call.args.last().map_or("", String::as_str);
                event
                    .unresolved
                    .push(format!("${{coord:futureRange({s},{e},'{limit}')}}"));
                return Ok(());
            }
            ("absolute", "current") => {
                let stamp = start_call
                    .args
                    .first()
                    .map_or("", |a| a.trim_matches(['"', '\'']));
                let at = datetime(start, stamp, self.pz)?;
                let end_index = end_call.int(0, end)?;
                self.absolute_range(dataset, at, end_index, nominal)
                    .map_err(range_error)?
            }
            (function @ ("endOfDays" | "endOfWeeks" | "endOfMonths"), "current") => {
                let unit = match function {
                    "endOfDays" => FrequencyUnit::Day,
                    "endOfWeeks" => FrequencyUnit::Week,
                    _ => FrequencyUnit::Month,
                };
                let n = start_call.int(0, start)?;
                let end_index = end_call.int(0, end)?;
                let at = dataset
                    .clock
                    .end_of_range_start(nominal, unit, n)
                    .map_err(|e| range_error(e.to_string()))?;
                self.absolute_range(dataset, at, end_index, nominal)
                    .map_err(range_error)?
            }
            ("absolute" | "endOfDays" | "endOfWeeks" | "endOfMonths", _) => {
                return Err(range_error(
                    "Only start-instance as absolute/endOfMonths/endOfWeeks/endOfDays and end-instance as current is supported (E1010)".to_string(),
                ));
            }
            _ => {
                return Err(range_error(
                    "start-instance and end-instance both should be either latest or current or future or offset (E1010)"
                        .to_string(),
                ));
            }
        };
        for t in times {
            event.uris.push(self.uri(dataset, t)?);
        }
        Ok(())
    }

    /// `coord:absoluteRange(at, end)` (CoordELFunctions.ph2_coord_absolute_range):
    /// `at` must be an instance, and is turned into the `current` index it has
    /// at this action.
    fn absolute_range(
        &self,
        dataset: &JobDataset,
        at: DateTime<Utc>,
        end: i64,
        nominal: DateTime<Utc>,
    ) -> Result<Vec<DateTime<Utc>>, String> {
        let clock = &dataset.clock;
        let formatted = self.pz.format(at);
        let Some((at_count, instance)) = clock.current_instance(at).map_err(|e| e.to_string())?
        else {
            return Err(format!(
                "initial-instance should be equal or earlier than the start-instance (E1010): the start-instance is {formatted}"
            ));
        };
        if instance != at {
            return Err(format!(
                "initial-instance is not in phase with start-instance (E1010): {formatted} is not an instance of the dataset"
            ));
        }
        let Some((nominal_count, _)) =
            clock.current_instance(nominal).map_err(|e| e.to_string())?
        else {
            return Err(
                "initial-instance should be equal or earlier than the nominal time (E1010)"
                    .to_string(),
            );
        };
        let start = at_count - nominal_count;
        if start > end {
            return Err(format!(
                "start-instance should be equal or earlier than the end-instance (E1010): {formatted} is current({start}), after current({end})"
            ));
        }
        clock
            .current_range(nominal, start, end)
            .map_err(|e| e.to_string())
    }

    /// The second phase of the uri-template: the instance's fields, in the
    /// processing zone (CoordCommandUtils:433-471).
    fn uri(&self, dataset: &JobDataset, t: DateTime<Utc>) -> Result<String, Diagnostic> {
        let local = match self.pz.offset_minutes {
            0 => t.naive_utc(),
            offset => t.naive_utc() + chrono::Duration::minutes(i64::from(offset)),
        };
        let template = match &dataset.uri {
            SecondPhase::Fields(pieces) => return Ok(fields_uri(pieces, local)),
            SecondPhase::Template(template) => template,
        };
        let fields = [
            ("YEAR", format!("{:04}", local.year())),
            ("MONTH", format!("{:02}", local.month())),
            ("DAY", format!("{:02}", local.day())),
            ("HOUR", format!("{:02}", local.hour())),
            ("MINUTE", format!("{:02}", local.minute())),
        ];
        let vars = Layered {
            first: &fields,
            base: &NoVariables,
        };
        let env = Env {
            vars: &vars,
            library: Library::Coordinator,
            context: None,
            processing_zone: self.pz,
        };
        let mut out = String::with_capacity(template.span.range().len());
        // (Its text is the submitted value: its errors point at the start of
        // the uri-template.)
        let at = dataset.dataset.uri_template.span.start;
        render_into(template, &env, &mut out).map_err(|d| {
            d.map_spans(|_| at).with_help(format!(
                "the uri-template of dataset `{}` is evaluated again for each instance, with only YEAR, MONTH, DAY, HOUR and MINUTE defined",
                dataset.dataset.name.name
            ))
        })?;
        Ok(out)
    }
}

/// A piece of a uri-template made of text and the instance fields only, the
/// common form, which needs no evaluator.
#[derive(Debug, PartialEq)]
enum UriPiece {
    Text(String),
    Field(u8),
}

const FIELDS: [&str; 5] = ["YEAR", "MONTH", "DAY", "HOUR", "MINUTE"];

/// The pieces, when the submitted text is only text and blocks written
/// exactly `${YEAR}` (or another field): what the EL parser would read as
/// text parts and those variables, read without it. Anything else (spaces in
/// a block, another expression) is left to the parser.
fn fields_only(text: &str) -> Option<Vec<UriPiece>> {
    let mut pieces = Vec::new();
    let mut rest = text;
    while let Some(open) = find_block(rest.as_bytes(), 0) {
        if open > 0 {
            pieces.push(UriPiece::Text(rest[..open].to_string()));
        }
        let block = &rest[open + 2..];
        let close = block.find('}')?;
        let field = FIELDS.iter().position(|f| *f == &block[..close])?;
        pieces.push(UriPiece::Field(field as u8));
        rest = &block[close + 1..];
    }
    if !rest.is_empty() {
        pieces.push(UriPiece::Text(rest.to_string()));
    }
    Some(pieces)
}

/// What rendering the template with the fields as strings gives.
fn fields_uri(pieces: &[UriPiece], local: chrono::NaiveDateTime) -> String {
    let mut out = String::with_capacity(64);
    let two = |out: &mut String, n: u32| {
        out.push(char::from(b'0' + (n / 10 % 10) as u8));
        out.push(char::from(b'0' + (n % 10) as u8));
    };
    for piece in pieces {
        match piece {
            UriPiece::Text(text) => out.push_str(text),
            UriPiece::Field(0) if (0..10_000).contains(&local.year()) => {
                two(&mut out, local.year() as u32 / 100);
                two(&mut out, local.year() as u32 % 100);
            }
            UriPiece::Field(0) => out.push_str(&format!("{:04}", local.year())),
            UriPiece::Field(1) => two(&mut out, local.month()),
            UriPiece::Field(2) => two(&mut out, local.day()),
            UriPiece::Field(3) => two(&mut out, local.hour()),
            UriPiece::Field(_) => two(&mut out, local.minute()),
        }
    }
    out
}

/// `Calendar` field constants, as `TimeUnit.getCalendarUnit()` gives them.
fn java_field(unit: CalendarUnit) -> i64 {
    match unit {
        CalendarUnit::Year => 1,
        CalendarUnit::Month => 2,
        CalendarUnit::Week => 3,
        CalendarUnit::Day => 5,
        CalendarUnit::Hour => 10,
        CalendarUnit::Minute => 12,
    }
}

/// Why an instance element's text is not one instance, as the checks of
/// CSX:376-454 (StringUtils.java:63-103) see it.
pub fn instance_problem(text: &ElText) -> Option<String> {
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

/// Whether evaluating `text` reads the action's nominal time through
/// `coord:hoursInDay`, `daysInMonth` or `tzOffset`.
fn reads_the_nominal_time(text: &ElText) -> bool {
    text.calls_any(&["hoursInDay", "daysInMonth", "tzOffset"])
}

/// Whether `text` calls one of the functions `names` anywhere.
/// An echoed instance call, `${coord:current(-23)}`, read back as Oozie reads
/// it: the function by substring, in its order of precedence (CCU:161-188),
/// and the arguments between the parentheses.
struct EchoCall {
    function: String,
    args: Vec<String>,
}

impl EchoCall {
    fn read(echo: &str, text: &ElText) -> Result<EchoCall, Diagnostic> {
        const FUNCTIONS: [&str; 8] = [
            "current",
            "latest",
            "future",
            "offset",
            "absolute",
            "endOfMonths",
            "endOfWeeks",
            "endOfDays",
        ];
        // Where `coord:{f}(` first stands in the echo.
        let position = |f: &str| {
            echo.match_indices("coord:").map(|(at, _)| at).find(|&at| {
                let rest = &echo[at + 6..];
                rest.starts_with(f) && rest[f.len()..].starts_with('(')
            })
        };
        let Some((function, at)) = FUNCTIONS.iter().find_map(|f| position(f).map(|at| (f, at)))
        else {
            return Err(Diagnostic::error(
                INSTANCE_RANGE,
                text.span,
                format!(
                    "`{echo}` is not an instance function: a range needs coord:current, offset, latest, future or absolute (E1021)"
                ),
            ));
        };
        let open = at + "coord:".len() + function.len() + 1;
        let close = echo.rfind(')').filter(|c| *c >= open).unwrap_or(echo.len());
        let args = echo[open..close]
            .split(',')
            .map(|a| a.trim().to_string())
            .collect();
        Ok(EchoCall {
            function: function.to_string(),
            args,
        })
    }

    /// Argument `i` as Oozie reads it: `(int) Double.parseDouble`.
    fn int(&self, i: usize, text: &ElText) -> Result<i64, Diagnostic> {
        self.args
            .get(i)
            .and_then(|a| a.parse::<f64>().ok())
            .map(|d| d as i32 as i64)
            .ok_or_else(|| {
                Diagnostic::error(
                    EL_EVAL,
                    text.span,
                    format!("coord:{} needs a number here", self.function),
                )
            })
    }

    fn unit(&self, i: usize, text: &ElText) -> Result<CalendarUnit, Diagnostic> {
        let unit = self
            .args
            .get(i)
            .map(|a| a.trim_matches(['\'', '"']))
            .unwrap_or("");
        CalendarUnit::parse(unit).ok_or_else(|| {
            Diagnostic::error(
                EL_EVAL,
                text.span,
                format!("No enum constant org.apache.oozie.coord.TimeUnit.{unit}"),
            )
        })
    }
}

/// The dataset functions of instance elements.
struct InstanceContext<'c> {
    clock: &'c DatasetClock,
    nominal: DateTime<Utc>,
    job_zone: &'c Zone,
    pz: ProcessingZone,
    /// The first pass of a range: instance functions echo themselves.
    echo: bool,
    /// The last instance written as a datetime, so that reading the value
    /// back can skip the parser when it is that text unchanged.
    last: std::cell::Cell<Option<DateTime<Utc>>>,
}

fn text(s: String) -> Value<'static> {
    Value::Str(Cow::Owned(s))
}

/// Argument `i` of a call as text; empty when there is none.
fn arg_text(args: &[Value], i: usize) -> String {
    args.get(i)
        .map_or_else(String::new, |a| a.to_text().into_owned())
}

impl Context for InstanceContext<'_> {
    fn call(
        &self,
        def: &'static FunctionDef,
        args: &[Value],
    ) -> Option<Result<Value<'static>, String>> {
        if def.namespace != Some("coord") {
            return None;
        }
        let arg = |i: usize| arg_text(args, i);
        // The call written back, `${coord:current(-1)}`, as one string.
        let echo = || {
            let mut out = String::with_capacity(24 + def.name.len());
            out.push_str("${coord:");
            out.push_str(def.name);
            out.push('(');
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                a.write_to(&mut out);
            }
            out.push_str(")}");
            text(out)
        };
        let long = |i: usize| args.get(i).map_or(Ok(0), |a| a.to_long());
        let formatted = |t: Result<Option<DateTime<Utc>>, crate::time::instance::InstanceError>| {
            t.map(|t| {
                self.last.set(t);
                text(t.map_or_else(String::new, |t| self.pz.format(t)))
            })
            .map_err(|e| e.to_string())
        };
        Some(match def.name {
            "current" | "offset" | "absolute" | "endOfDays" | "endOfWeeks" | "endOfMonths"
                if self.echo =>
            {
                Ok(echo())
            }
            "latest" | "future" | "latestRange" | "futureRange" => Ok(echo()),
            "current" => long(0).and_then(|n| formatted(self.clock.current(self.nominal, n))),
            "offset" => long(0).and_then(|n| {
                let unit = arg(1);
                let unit = CalendarUnit::parse(&unit).ok_or_else(|| {
                    format!("No enum constant org.apache.oozie.coord.TimeUnit.{unit}")
                })?;
                formatted(self.clock.offset(self.nominal, n, unit))
            }),
            "hoursInDay" => long(0).and_then(|n| {
                self.clock
                    .hours_in_day(self.nominal, n)
                    .map(|h| Value::Long(h.into()))
                    .map_err(|e| e.to_string())
            }),
            "daysInMonth" => long(0).and_then(|n| {
                self.clock
                    .days_in_month(self.nominal, n)
                    .map(|d| Value::Long(d.into()))
                    .map_err(|e| e.to_string())
            }),
            "tzOffset" => Ok(Value::Long(
                self.clock.tz_offset(self.nominal, self.job_zone).into(),
            )),
            _ => return None,
        })
    }
}

impl ActionContext<'_> {
    /// The HCatalog functions (spec §6.8), on the URIs of the event named by
    /// the first argument; `None` for any other function.
    fn hcatalog(&self, function: &str, args: &[Value]) -> Option<Result<Value<'static>, String>> {
        let reads_inputs = match function {
            "databaseIn"
            | "tableIn"
            | "dataInPartitionFilter"
            | "dataInPartitionMin"
            | "dataInPartitionMax"
            | "dataInPartitions" => true,
            "databaseOut" | "tableOut" | "dataOutPartitions" | "dataOutPartitionValue" => false,
            _ => return None,
        };
        let args: Vec<String> = args.iter().map(|a| a.to_text().into_owned()).collect();
        let wanted = args.first().map_or("", String::as_str);
        let mut all = self.inputs.iter().chain(self.outputs);
        if !all.any(|e| e.name == wanted) {
            // HCatELFunctions.isValidDataEvent, at submission.
            return Some(Err(format!("data set name {wanted} is not valid")));
        }
        let events = if reads_inputs {
            self.inputs
        } else {
            self.outputs
        };
        let event = events.iter().find(|e| e.name == wanted);
        hcat::call(
            function,
            &args,
            event.map(|e| e.uris.as_slice()),
            event.is_some_and(|e| !e.unresolved.is_empty()),
        )
        .map(|r| r.map(text))
    }
}

/// The action functions of the workflow configuration (`coord-action-start`).
struct ActionContext<'c> {
    nominal: DateTime<Utc>,
    pz: ProcessingZone,
    raw_name: &'c str,
    inputs: &'c [Event<'c>],
    outputs: &'c [Event<'c>],
    /// Named `<input-logic>` nodes: which data they select is known only when
    /// the data are, so `coord:dataIn` of one stays the call (CEF:451-477).
    logic_names: &'c [&'c str],
}

impl Context for ActionContext<'_> {
    fn call(
        &self,
        def: &'static FunctionDef,
        args: &[Value],
    ) -> Option<Result<Value<'static>, String>> {
        if def.namespace != Some("coord") {
            return None;
        }
        let name = || arg_text(args, 0);
        if let Some(result) = self.hcatalog(def.name, args) {
            return Some(result);
        }
        let events = |events: &[Event], kind: &str| {
            let wanted = name();
            match events.iter().find(|e| e.name == wanted) {
                // Unresolved instances leave the call itself (CEF:451-477).
                Some(e) if !e.unresolved.is_empty() => {
                    Ok(text(format!("${{coord:{kind}('{wanted}')}}")))
                }
                Some(e) => Ok(text(e.uris.join(","))),
                None if kind == "dataIn" && self.logic_names.contains(&wanted.as_str()) => {
                    Ok(text(format!("${{coord:dataIn('{wanted}')}}")))
                }
                None => {
                    let what = if kind == "dataIn" {
                        "data-in"
                    } else {
                        "data-out"
                    };
                    let names: Vec<&str> = events.iter().map(|e| e.name).collect();
                    Err(match names.as_slice() {
                        [] => {
                            format!("{wanted} is not a {what} of this coordinator, which has none")
                        }
                        names => format!(
                            "{wanted} is not a {what} of this coordinator (its {what}s: {})",
                            names.join(", ")
                        ),
                    })
                }
            }
        };
        Some(match def.name {
            "nominalTime" => Ok(text(self.pz.format(self.nominal))),
            "dataIn" => events(self.inputs, "dataIn"),
            "dataOut" => events(self.outputs, "dataOut"),
            "name" => Ok(text(self.raw_name.to_string())),
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::el::ast::ExprKind;

    #[test]
    fn a_job_frequency_must_move_forward_with_or_without_the_minimum() {
        let span = crate::span::Span::new(0, 1);
        let f = |count, unit| Frequency {
            count,
            unit,
            end_of: false,
        };
        // Oozie's rule (CSX:340-352): 0, and under 5 minutes.
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

    /// The pieces as the EL parser reads the text, when it is only text and
    /// field variables: what `fields_only` must agree with.
    fn parsed_pieces(text: &str) -> Option<Vec<UriPiece>> {
        let template = parse_template(text, 0).ok()?;
        template
            .parts
            .iter()
            .map(|part| match part {
                Part::Text { text, .. } => Some(UriPiece::Text(text.to_string())),
                Part::Block { expr, .. } => match &expr.kind {
                    ExprKind::Var(name) => FIELDS
                        .iter()
                        .position(|f| f == &&**name)
                        .map(|i| UriPiece::Field(i as u8)),
                    _ => None,
                },
            })
            .collect()
    }

    #[test]
    fn uri_fields_are_read_as_the_el_parser_reads_them() {
        let texts = [
            "",
            "hdfs://nn:8020/data/${YEAR}/${MONTH}/${DAY}/${HOUR}/${MINUTE}",
            "${YEAR}${MONTH}${DAY}",
            "s3://b/k=${YEAR}-${MONTH}/_SUCCESS",
            "no fields at all",
            "$ {YEAR} and $YEAR and {YEAR}",
            "tail ${YEAR}}",
            "a$${YEAR}",
        ];
        for text in texts {
            assert_eq!(fields_only(text), parsed_pieces(text), "{text:?}");
            assert!(fields_only(text).is_some(), "{text:?}");
        }
        // Left to the parser: what it would read otherwise, or not read.
        for text in [
            "x/${ YEAR }",
            "x/${year}",
            "x/${coord:user()}",
            "x/${YEAR",
            "x/${YEAR + 1}",
            "x/${SECOND}",
        ] {
            assert_eq!(fields_only(text), None, "{text:?}");
        }
    }
}
