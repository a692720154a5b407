//! `coordc dryrun`: read a coordinator, its included dataset files and its job
//! configuration, and list the actions Oozie would materialize.

use super::args::JobArgs;
use super::output::{print_problems, printer, stopped};
use super::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE, Format};
use crate::diag::Diagnostic;
use crate::diag::Located;
use crate::diag::render::human;
use crate::oozie::action::{Action, Event};
use crate::oozie::job::{Job, Options};
use crate::project::files::Files;
use crate::project::load::{self, Sources};
use crate::project::locate::AppKind;
use crate::time::datetime::{format_utc, parse_datetime};
use clap::Args;

pub(super) mod bundle;
use std::io::Write;
use std::path::PathBuf;

#[derive(Args)]
pub(crate) struct DryrunArgs {
    /// The coordinator application XML file.
    app: PathBuf,
    #[command(flatten)]
    job: JobArgs,
    /// List only actions at or after this nominal time.
    #[arg(long, value_name = "T")]
    from: Option<String>,
    /// List only actions before this nominal time.
    #[arg(long, value_name = "T")]
    to: Option<String>,
    /// List at most N actions.
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
    /// Oozie's processing time zone (`oozie.processing.timezone`): UTC or
    /// GMT±HHMM. Default: the `coordc.toml` that applies to the
    /// application's, else UTC.
    #[arg(long, value_name = "TZ")]
    processing_timezone: Option<String>,
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

pub(crate) fn run(args: DryrunArgs) -> i32 {
    let files = Files::default();
    // The coordc.toml that applies to the application, as `coordc check`
    // reads it: a wrong one stops the run before anything is read.
    let settings = match args
        .job
        .settings(&files, args.processing_timezone.as_deref(), &args.app)
    {
        Ok(settings) => settings,
        Err(exit) => return exit,
    };
    let pz = settings.processing_zone;
    let mut window = [None, None];
    for (slot, (flag, text)) in window
        .iter_mut()
        .zip([("--from", &args.from), ("--to", &args.to)])
    {
        if let Some(text) = text {
            match parse_datetime(text, pz) {
                Ok(t) => *slot = Some(t.instant),
                Err(e) => {
                    eprint!(
                        "{}",
                        human(&e.to_diagnostic(0, pz), &format!("<{flag}>"), text)
                    );
                    return EXIT_USAGE;
                }
            }
        }
    }
    let configs = args.job.read_configs();
    let input = args.job.own_job(&configs, &files, &settings);
    let options = Options {
        includes_incomplete: false,
        from: window[0],
        to: window[1],
        limit: args.limit,
        processing_zone: pz,
        check_maximum_frequency: input.check_maximum_frequency,
        cron_max_year: input.cron_max_year,
    };
    let mut sources = Sources::default();
    load::with_application(&args.app, &files, &mut sources, |sources, opened| {
        let (kind, doc) = match opened {
            Ok(opened) => opened,
            Err(stop) => return stopped(sources, stop),
        };
        match kind {
            Some(AppKind::Coordinator) => {
                let loaded = match load::coordinator(doc, &args.app, &input, sources) {
                    Ok(loaded) => loaded,
                    Err(stop) => return stopped(sources, stop),
                };
                let job = match submit(&loaded, sources, &options) {
                    Ok(job) => job,
                    Err(exit) => return exit,
                };
                let tally = Tally::default();
                let exit = write_listing(|out| {
                    let failure = match args.format {
                        Format::Text => write_text(&job, tally.count(job.actions()), out),
                        Format::Json => write_json_of(&job, tally.count(job.actions()), out),
                    }?;
                    Ok(failure.map(|d| sources.render(&Located::in_app(d))))
                });
                if exit == EXIT_OK {
                    tally.note_cap(&job);
                }
                exit
            }
            Some(AppKind::Bundle) => {
                bundle::run(&args, doc, &input, std::mem::take(sources), &options)
            }
            _ => print_problems(
                sources,
                &[Located::in_app(Diagnostic::error(
                    crate::diag::rules::XML_UNKNOWN_DOCUMENT,
                    doc.root.name_span,
                    format!(
                        "coordc dryrun reads a <coordinator-app> or a <bundle-app>, not <{}>",
                        doc.root.name
                    ),
                ))],
            ),
        }
    })
}

/// Submits a loaded coordinator (its `sources` rendering the problems):
/// the job, its warnings printed; or the exit code after its problems.
pub(super) fn submit<'a>(
    loaded: &'a load::LoadedCoordinator,
    sources: &Sources,
    options: &Options,
) -> Result<Job<'a>, i32> {
    let mut exit = EXIT_ERRORS;
    let job = load::submit(loaded, sources, options, &mut printer(&mut exit));
    job.ok_or(exit)
}

/// Writes a listing to stdout with `write`: exit 0, or 1 with the problem
/// (rendered) of the action where it stopped.
fn write_listing(
    write: impl FnOnce(&mut std::io::BufWriter<std::io::StdoutLock>) -> std::io::Result<Option<String>>,
) -> i32 {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let result = write(&mut out);
    let _ = out.flush();
    match result {
        Ok(None) => EXIT_OK,
        Ok(Some(problem)) => {
            eprint!("{problem}");
            EXIT_ERRORS
        }
        // A closed stdout (e.g. piped into `head`) ends the listing quietly.
        Err(_) => EXIT_OK,
    }
}

/// How many actions a listing wrote, and the number of the last.
#[derive(Default)]
pub(super) struct Tally(std::cell::Cell<(usize, usize)>);

impl Tally {
    /// `actions`, each counted as it is taken.
    pub(super) fn count<'t, 'a: 't, E: 't>(
        &'t self,
        actions: impl Iterator<Item = Result<Action<'a>, E>> + 't,
    ) -> impl Iterator<Item = Result<Action<'a>, E>> + 't {
        actions.inspect(move |a| {
            if let Ok(a) = a {
                let (listed, _) = self.0.get();
                self.0.set((listed + 1, a.number));
            }
        })
    }

    /// Says on stderr when `job`'s listing stopped at coordc's cap
    /// ([`crate::oozie::materialize::DEFAULT_MAX_ACTIONS`]) with actions left in its window. (A
    /// listing `--limit` stops was asked to stop: nothing is said.)
    pub(super) fn note_cap(&self, job: &Job) {
        let (listed, last) = self.0.get();
        if job.stopped_at_cap(listed, last) {
            eprintln!(
                "note: {}: stopped after {listed} actions (coordc's cap); use --from/--to for a later window, or --limit N to list more",
                job.name
            );
        }
    }
}

fn write_text<'a>(
    job: &Job<'a>,
    actions: impl Iterator<Item = Result<Action<'a>, Diagnostic>>,
    out: &mut impl Write,
) -> std::io::Result<Option<Diagnostic>> {
    writeln!(
        out,
        "coordinator {} ({}), {} to {}",
        job.name,
        job.zone.id(),
        format_utc(job.start),
        format_utc(job.end)
    )?;
    for action in actions {
        match action {
            Ok(action) => write_action_text(job, &action, "action", out)?,
            Err(d) => return Ok(Some(d)),
        }
    }
    Ok(None)
}

/// One action of `job` as text, headed `heading` (`action`, or in a bundle
/// the coordinator's name).
fn write_action_text(
    job: &Job,
    action: &Action,
    heading: &str,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let local = job.zone.local(action.nominal).format("%Y-%m-%d %H:%M");
    writeln!(
        out,
        "\n{heading} {} at {} ({local} {})",
        action.number,
        format_utc(action.nominal),
        job.zone.id()
    )?;
    let events = |out: &mut dyn Write, kind: &str, events: &[Event]| -> std::io::Result<()> {
        for event in events {
            writeln!(out, "  {kind} {}:", event.name)?;
            for uri in &event.uris {
                writeln!(out, "    {uri}")?;
            }
            for call in &event.unresolved {
                writeln!(out, "    {call}  (unresolved: needs data)")?;
            }
        }
        Ok(())
    };
    events(out, "data-in", &action.inputs)?;
    if let Some(condition) = &action.input_logic {
        writeln!(
            out,
            "  input logic {condition}  (which data it selects: needs data)"
        )?;
    }
    events(out, "data-out", &action.outputs)?;
    writeln!(out, "  workflow {}", action.app_path)?;
    for (name, value) in &action.configuration {
        writeln!(out, "    {name} = {value}")?;
    }
    if !action.sla.is_empty() {
        writeln!(out, "  sla")?;
        for (name, value) in &action.sla {
            writeln!(out, "    {name} = {value}")?;
        }
    }
    Ok(())
}

/// One JSON object, written as the actions are produced.
/// Writes the JSON listing of `job`'s actions (public for the benchmark, which
/// measures exactly what `coordc dryrun --format json` does). Returns the
/// diagnostic of an action that failed to resolve, where the listing stopped.
pub fn write_json(job: &Job, out: &mut impl Write) -> std::io::Result<Option<Diagnostic>> {
    write_json_of(job, job.actions(), out)
}

/// [`write_json`] of the listing `actions` of `job`.
pub(super) fn write_json_of<'a>(
    job: &Job<'a>,
    actions: impl Iterator<Item = Result<Action<'a>, Diagnostic>>,
    out: &mut impl Write,
) -> std::io::Result<Option<Diagnostic>> {
    write!(
        out,
        "{{\"app\": {}, \"actions\": [",
        serde_json::to_string(&job.name)?
    )?;
    let failure = write_json_actions(actions.map(|a| (None, a)), out)?;
    writeln!(out, "\n]}}")?;
    Ok(failure)
}

/// Writes `actions` as the elements of a JSON array, one a line, each with
/// its coordinator's name when it has one, until one fails: that failure.
fn write_json_actions<'a, F>(
    actions: impl Iterator<Item = (Option<&'a str>, Result<Action<'a>, F>)>,
    out: &mut impl Write,
) -> std::io::Result<Option<F>> {
    // sonic-rs escapes strings with SIMD: a dry run writes hundreds of MB of URIs.
    let mut buffer = Vec::with_capacity(64 * 1024);
    for (i, (coordinator, action)) in actions.enumerate() {
        let action = match action {
            Ok(a) => a,
            Err(failure) => {
                out.write_all(&buffer)?;
                return Ok(Some(failure));
            }
        };
        if i > 0 {
            buffer.push(b',');
        }
        buffer.push(b'\n');
        sonic_rs::to_writer(
            &mut buffer,
            &ActionJson {
                action: &action,
                coordinator,
            },
        )
        .map_err(std::io::Error::other)?;
        // Written in large pieces, which pass the writer's own buffer by.
        if buffer.len() >= 60 * 1024 {
            out.write_all(&buffer)?;
            buffer.clear();
        }
    }
    out.write_all(&buffer)?;
    Ok(None)
}

/// An action as the JSON object of the output, serialized straight to the
/// writer (no intermediate value tree); in a bundle, with its coordinator's
/// name first.
struct ActionJson<'a> {
    action: &'a Action<'a>,
    coordinator: Option<&'a str>,
}

/// Events as `{"name": [uris...]}` in document order; with `unresolved`, the
/// events' unresolved calls instead, for the events that have some.
struct EventsJson<'a> {
    events: &'a [Event<'a>],
    unresolved: bool,
}

impl serde::Serialize for EventsJson<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let entries = self.events.iter().filter_map(|e| match self.unresolved {
            false => Some((&e.name, &e.uris)),
            true => (!e.unresolved.is_empty()).then_some((&e.name, &e.unresolved)),
        });
        serializer.collect_map(entries)
    }
}

impl serde::Serialize for ActionJson<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let action = self.action;
        let pending = action.inputs.iter().any(|e| !e.unresolved.is_empty());
        let mut map = serializer.serialize_map(None)?;
        if let Some(name) = self.coordinator {
            map.serialize_entry("coordinator", name)?;
        }
        map.serialize_entry("number", &action.number)?;
        map.serialize_entry("nominal_time", &format_utc(action.nominal))?;
        map.serialize_entry(
            "inputs",
            &EventsJson {
                events: &action.inputs,
                unresolved: false,
            },
        )?;
        map.serialize_entry(
            "outputs",
            &EventsJson {
                events: &action.outputs,
                unresolved: false,
            },
        )?;
        if let Some(condition) = &action.input_logic {
            map.serialize_entry("input_logic", condition)?;
        }
        map.serialize_entry("workflow", &WorkflowJson(action))?;
        if !action.sla.is_empty() {
            map.serialize_entry("sla", &Pairs(&action.sla))?;
        }
        if pending {
            map.serialize_entry(
                "unresolved",
                &EventsJson {
                    events: &action.inputs,
                    unresolved: true,
                },
            )?;
        }
        map.end()
    }
}

struct WorkflowJson<'a>(&'a Action<'a>);

/// `(name, value)` pairs as a JSON object, in order.
struct Pairs<'a, K, V>(&'a [(K, V)]);

impl<K: serde::Serialize, V: serde::Serialize> serde::Serialize for Pairs<'_, K, V> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

impl serde::Serialize for WorkflowJson<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("app_path", &self.0.app_path)?;
        map.serialize_entry("configuration", &Pairs(&self.0.configuration))?;
        map.end()
    }
}
