//! Resolving one action of a submitted [`Job`] at its nominal time, as
//! Oozie's materialization does (CoordCommandUtils.java, CoordELFunctions.java, CoordELEvaluator.java):
//! [`Job::resolve_action`] gives each data-in's instances (ranges through
//! Oozie's echo pass, newest first, instances before the initial one dropped),
//! the URIs (second phase of the uri-template, `uri_template.rs`), the
//! data-outs, and the workflow's app-path and configuration and the SLA
//! values with the action functions. `latest` and `future` need data, so
//! they stay unresolved. The EL contexts of those evaluations are in
//! `context.rs`, a child module: only this one builds them.

mod context;

use crate::diag::Diagnostic;
use crate::diag::rules::{EL_EVAL, INSTANCE_RANGE, UNDEFINED_DATASET};
use crate::el::eval::{Context, Env};
use crate::el::library::Library;
use crate::el::{Compiled, VarMap};
use crate::ir::{Coordinator, DataIn, ElText, Instances, Name};
use crate::oozie::datasets::JobDataset;
use crate::oozie::input_logic::{self, Condition};
use crate::oozie::job::{Job, datetime, render};
use crate::time::calendar::CalendarUnit;
use crate::time::datetime::ProcessingZone;
use crate::time::frequency::FrequencyUnit;
use chrono::{DateTime, Utc};
use context::{ActionContext, InstanceContext};
use std::borrow::Cow;
use std::cell::OnceCell;

/// The workflow app-path and configuration and the SLA fields, ready for
/// every action.
pub(super) struct ActionValues<'a> {
    app_path: ActionValue<'a>,
    configuration: Vec<(ActionValue<'a>, ActionValue<'a>)>,
    sla: Vec<(&'a str, ActionValue<'a>)>,
}

impl<'a> ActionValues<'a> {
    /// `many`: the values will be rendered for more than one action.
    pub(super) fn new(app: &'a Coordinator, vars: &VarMap, many: bool) -> ActionValues<'a> {
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
    /// The instance (its nominal datetime) of each of `uris`, in order: when
    /// the simulator's quick form makes it present.
    pub times: Vec<DateTime<Utc>>,
    /// `latest`/`future` instances, as Oozie leaves them until data arrives.
    pub unresolved: Vec<String>,
}

impl<'a> Job<'a> {
    /// Action `number` (counted from 1) at its nominal time `nominal`, resolved
    /// as Oozie materializes it.
    pub(crate) fn resolve_action(
        &self,
        number: usize,
        nominal: DateTime<Utc>,
    ) -> Result<Action<'a>, Diagnostic> {
        let mut inputs = Vec::with_capacity(self.app.inputs.len());
        for (index, data_in) in self.app.inputs.iter().enumerate() {
            inputs.push(self.data_in(index, data_in, nominal)?);
        }
        let mut outputs = Vec::with_capacity(self.app.outputs.len());
        for data_out in &self.app.outputs {
            let dataset = self.event_dataset(&data_out.dataset)?;
            let mut event = Event {
                name: &data_out.name.name,
                uris: Vec::new(),
                times: Vec::new(),
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

    /// The dataset an event names. (Submission refuses a job whose events
    /// name an undefined one, so the error is not expected here.)
    fn event_dataset(&self, name: &Name) -> Result<&JobDataset<'a>, Diagnostic> {
        self.datasets.get(name.name.as_str()).ok_or_else(|| {
            Diagnostic::error(
                UNDEFINED_DATASET,
                name.span,
                format!("undefined dataset: {} (E0803)", name.name),
            )
        })
    }

    fn data_in(
        &self,
        index: usize,
        data_in: &'a DataIn,
        nominal: DateTime<Utc>,
    ) -> Result<Event<'a>, Diagnostic> {
        let dataset = self.event_dataset(&data_in.dataset)?;
        let mut event = Event {
            name: &data_in.name.name,
            uris: Vec::new(),
            times: Vec::new(),
            unresolved: Vec::new(),
        };
        match &data_in.instances {
            Instances::List(list) => {
                for instance in list {
                    self.instance(dataset, instance, nominal, &mut event)?;
                }
            }
            Instances::Range { start, end } => {
                let cache = self.constant_echoes.get(index).and_then(Option::as_ref);
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
        event.times.push(t);
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
                // counts (CoordCommandUtils.java:288), so it is only right for equal units.
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
        event.uris.reserve(times.len());
        for &t in &times {
            event.uris.push(self.uri(dataset, t)?);
        }
        event.times = times;
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

/// Whether evaluating `text` reads the action's nominal time through
/// `coord:hoursInDay`, `daysInMonth` or `tzOffset`.
pub(super) fn reads_the_nominal_time(text: &ElText) -> bool {
    text.calls_any(&["hoursInDay", "daysInMonth", "tzOffset"])
}

/// An echoed instance call, `${coord:current(-23)}`, read back as Oozie reads
/// it: the function by substring, in its order of precedence (CoordCommandUtils.java:161-188),
/// and the arguments between the parentheses.
pub(super) struct EchoCall {
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::oozie::job::{Options, prepare};
    use crate::project::files::Files;
    use crate::project::load::{self, JobInput, JobSource, Sources};
    use crate::time::cron::MaxYear;

    /// `f` on the coordinator `text` and its job, prepared as `coordc check`
    /// prepares it (UTC processing zone, the first action) with the job
    /// properties `defines`. (The checks' tests that need a job share it.)
    pub(crate) fn with_job<R>(
        text: &str,
        defines: &[(String, String)],
        f: impl FnOnce(&Coordinator, &Job) -> R,
    ) -> R {
        let arena = crate::xml::tree::arena_for(text.len());
        let doc = crate::xml::parse(text, &arena).expect("well-formed");
        let files = Files::default();
        let utc = ProcessingZone::parse_option("UTC").expect("UTC");
        let input = JobInput {
            configs: &[],
            files: &files,
            job: JobSource::Own,
            defines,
            maps: &[],
            processing_zone: utc,
            check_maximum_frequency: true,
            // (A server started in 2026: the tests' crons fire well before 2126.)
            cron_max_year: MaxYear::for_server_started_in(2026),
        };
        let mut sources = Sources::default();
        sources.add("coordinator.xml".to_string(), text);
        let path = std::path::Path::new("coordinator.xml");
        let Ok(loaded) = load::coordinator(&doc, path, &input, &mut sources) else {
            panic!("the app loads");
        };
        let options = Options::first_action(utc, true, input.cron_max_year);
        let Ok(job) = prepare(&loaded.app, &loaded.included, &loaded.vars, &options) else {
            panic!("the job prepares");
        };
        f(&loaded.app, &job)
    }

    #[test]
    fn an_instance_uri_is_its_datasets_second_phase() {
        use chrono::TimeZone;
        let text = r#"<coordinator-app name="hourly" frequency="${coord:hours(1)}"
                 start="2024-01-01T00:00Z" end="2024-01-02T00:00Z" timezone="UTC"
                 xmlns="uri:oozie:coordinator:0.4">
  <datasets>
    <dataset name="logs" frequency="${coord:hours(1)}" initial-instance="2024-01-01T00:00Z" timezone="UTC">
      <uri-template>hdfs://nn/${root}/${YEAR}/${MONTH}/${DAY}/${HOUR}</uri-template>
    </dataset>
    <dataset name="marks" frequency="${coord:days(1)}" initial-instance="2024-01-01T00:00Z" timezone="UTC">
      <uri-template>hdfs://nn/marks/${YEAR}${MONTH}</uri-template>
    </dataset>
    <dataset name="unread" frequency="${coord:days(1)}" initial-instance="2024-01-01T00:00Z" timezone="UTC">
      <uri-template>hdfs://nn/unread/${YEAR}</uri-template>
    </dataset>
  </datasets>
  <input-events>
    <data-in name="input" dataset="logs"><instance>${coord:current(-1)}</instance></data-in>
  </input-events>
  <output-events>
    <data-out name="output" dataset="marks"><instance>${coord:current(0)}</instance></data-out>
  </output-events>
  <action><workflow><app-path>hdfs://nn/apps/hourly</app-path></workflow></action>
</coordinator-app>"#;
        let defines = [("root".to_string(), "logs".to_string())];
        with_job(text, &defines, |_, job| {
            let at = Utc.with_ymd_and_hms(2024, 1, 1, 5, 0, 0).unwrap();
            // The instance's fields, in the template as submitted (job properties
            // in).
            let uri = |dataset| job.instance_uri(dataset, at).map(|r| r.expect("resolves"));
            assert_eq!(uri("logs").as_deref(), Some("hdfs://nn/logs/2024/01/01/05"));
            assert_eq!(uri("marks").as_deref(), Some("hdfs://nn/marks/202401"));
            // By the dataset's name, not the event's; a dataset no event reads
            // was not prepared.
            assert_eq!(uri("input"), None);
            assert_eq!(uri("unread"), None);
            // What resolving an action gives for the same instance.
            let nominal = Utc.with_ymd_and_hms(2024, 1, 1, 6, 0, 0).unwrap();
            let action = job.resolve_action(7, nominal).expect("it resolves");
            assert_eq!(action.number, 7);
            assert_eq!(action.inputs[0].uris, [uri("logs").unwrap()]);
        });
    }
}
