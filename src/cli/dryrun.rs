//! `coordc dryrun`: read a coordinator, its included dataset files and its job
//! configuration, and list the actions Oozie would materialize.

use super::actions_json::write_json_of;
use super::args::{JobArgs, time_argument};
use super::output::{print_problems, printer, stopped};
use super::{EXIT_ERRORS, EXIT_OK, Format};
use crate::diag::Diagnostic;
use crate::diag::Located;
use crate::oozie::action::{Action, Event};
use crate::oozie::job::{Job, Options};
use crate::project::files::Files;
use crate::project::load::{self, Sources};
use crate::project::locate::AppKind;
use crate::time::datetime::format_utc;
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
            match time_argument(flag, text, pz) {
                Ok(t) => *slot = Some(t),
                Err(exit) => return exit,
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

/// Writes the JSON listing of `job`'s actions (public for the benchmark, which
/// measures exactly what `coordc dryrun --format json` does). Returns the
/// diagnostic of an action that failed to resolve, where the listing stopped.
pub fn write_json(job: &Job, out: &mut impl Write) -> std::io::Result<Option<Diagnostic>> {
    write_json_of(job, job.actions(), out)
}
