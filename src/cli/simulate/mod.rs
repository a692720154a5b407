//! `coordc simulate`: run a scenario (or one coordinator, the quick form)
//! through the simulated Oozie server, and report what happened.

use super::args::{JobArgs, time_argument};
use super::output::{printer, stopped, usage};
use super::{EXIT_ERRORS, EXIT_OK};
use crate::diag::Diagnostic;
use crate::diag::render::human;
use crate::diag::rules::SIMULATE_SCENARIO;
use crate::interp::clock::millis;
use crate::interp::simulate::calendar::MAX_ACTIONS;
use crate::interp::simulate::engine::Engine;
use crate::interp::simulate::inputs::Unresolved;
use crate::interp::simulate::scenario::model::{
    DataEntry, JobEntry, Scenario, Settings, WorkflowEnd, WorkflowScript,
};
use crate::interp::simulate::{report, svg};
use crate::interp::workflow::script::Script;
use crate::oozie::job::Job;
use crate::project::files::{Files, ReadError, read_source};
use crate::project::load::{self, Sources};
use crate::project::locate::AppKind;
use crate::project::settings::Finder;
use crate::project::simulation;
use crate::span::Span;
use crate::time::datetime::ProcessingZone;
use chrono::{DateTime, Duration, Utc};
use clap::{Args, ValueEnum};
use rustc_hash::FxHashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

mod workflow;

#[derive(Clone, Copy, ValueEnum)]
enum SimulateFormat {
    Text,
    Json,
    Events,
    Svg,
}

#[derive(Args)]
pub(super) struct SimulateArgs {
    /// A scenario file (.toml), or a coordinator application XML file (the
    /// quick form: submitted at its start, every input present at its
    /// nominal time, every workflow SUCCEEDED after 10 minutes), or a
    /// workflow application XML file (run once; see --scenario).
    input: PathBuf,
    /// A workflow's scenario (.toml): its start, what its action nodes do,
    /// its file system. Default: every action ok.
    #[arg(long, value_name = "FILE")]
    scenario: Option<PathBuf>,
    // (The quick form's and a workflow's job; a scenario says its own.)
    #[command(flatten)]
    job: JobArgs,
    /// Quick form: simulate until T (default: the job's end, at most 31 days
    /// after its start, plus a day).
    #[arg(long, value_name = "T")]
    until: Option<String>,
    /// Report the state as of T (events at T included) instead of at the end.
    #[arg(long, value_name = "T")]
    at: Option<String>,
    /// Say in words why action N of job JOB is in its state.
    #[arg(long, value_name = "JOB@N")]
    explain: Option<String>,
    /// Oozie's processing time zone (`oozie.processing.timezone`): UTC or
    /// GMT±HHMM. Default: the `coordc.toml` that applies to each
    /// application's, else UTC.
    #[arg(long, value_name = "TZ")]
    processing_timezone: Option<String>,
    #[arg(long, value_enum, default_value = "text")]
    format: SimulateFormat,
}

/// A scenario's problems, printed against its file.
fn scenario_problems(name: &str, text: &str, problems: &[Diagnostic]) -> i32 {
    let mut err = std::io::stderr().lock();
    for d in problems {
        let _ = write!(err, "{}", human(d, name, text));
    }
    EXIT_ERRORS
}

pub(super) fn run(args: SimulateArgs) -> i32 {
    let at = match args
        .at
        .as_deref()
        .map(|t| time_argument("--at", t, ProcessingZone::UTC))
        .transpose()
    {
        Ok(t) => t,
        Err(code) => return code,
    };
    let is_scenario = args.input.extension().is_some_and(|e| e == "toml");
    let files = Files::default();
    // Each application's coordc.toml, as `coordc check` reads it (the
    // quick form's `--map`s come with its job entry, first).
    let finder = Finder::new(&files, args.processing_timezone.as_deref(), &[]);
    if !is_scenario {
        // A wrong one stops the run before anything is read.
        if let Err(refused) = finder.of_file(&args.input) {
            return super::args::refused(refused);
        }
        let mut sources = Sources::default();
        let ran = load::with_application(&args.input, &files, &mut sources, |sources, opened| {
            match opened {
                Err(stop) => Some(stopped(sources, stop)),
                Ok((Some(AppKind::Workflow), doc)) => {
                    Some(workflow::run(&args, doc, std::mem::take(sources)))
                }
                // (A coordinator or a bundle: the quick form of a scenario.)
                Ok(_) => None,
            }
        });
        if let Some(exit) = ran {
            return exit;
        }
    }
    if args.scenario.is_some() {
        return usage(
            "--scenario is a workflow's scenario: a coordinator's scenario is the file simulated (coordc simulate SCENARIO.toml)"
                .into(),
        );
    }
    let mut scenario_name = args.input.display().to_string();
    let (mut scenario_text, mut scenario, base) = if is_scenario {
        if !args.job.is_empty() || args.until.is_some() {
            return usage(
                "--config, -D, --map and --until are for the quick form: a scenario file says them itself"
                    .into(),
            );
        }
        let text = match read_source(&args.input) {
            Ok(text) => text,
            Err(ReadError::Io(e)) => return usage(format!("{scenario_name}: {e}")),
            Err(ReadError::Refused(d)) => {
                let message = if d.code == crate::diag::rules::XML_LIMIT {
                    format!(
                        "the scenario file is over {} bytes, more than coordc reads",
                        crate::xml::read::MAX_FILE_LEN
                    )
                } else {
                    "the scenario file is not UTF-8 text".to_string()
                };
                let d = Diagnostic::error(SIMULATE_SCENARIO, Span::EMPTY, message).with_help(
                    "a long run's data fits in [[data]] ranges (job, dataset, from, to, delay, missing) rather than one entry per instance",
                );
                return scenario_problems(&scenario_name, "", &[d]);
            }
        };
        match Scenario::read(&text) {
            Ok(s) => (
                text,
                s,
                args.input.parent().unwrap_or(Path::new("")).to_path_buf(),
            ),
            Err(problems) => return scenario_problems(&scenario_name, &text, &problems),
        }
    } else {
        (String::new(), quick_scenario(&args), PathBuf::new())
    };
    let until = match args
        .until
        .as_deref()
        .map(|t| time_argument("--until", t, ProcessingZone::UTC))
        .transpose()
    {
        Ok(t) => t,
        Err(code) => return code,
    };
    // Load every job's application with its settings, submitted as the dry
    // run submits them.
    let settings = match simulation::scenario_settings(&scenario, &base, &finder) {
        Ok(settings) => settings,
        Err(refused) => return super::args::refused(refused),
    };
    let mut exit = EXIT_ERRORS;
    let jobs = simulation::scenario_jobs(
        &scenario,
        &base,
        &files,
        &settings,
        super::cron_max_year(),
        &mut printer(&mut exit),
    );
    let Some(jobs) = jobs else {
        return exit;
    };
    let submitted = simulation::submit_all(&jobs, &mut printer(&mut exit));
    let Some(submitted) = submitted else {
        return exit;
    };
    if !is_scenario {
        quick_times(&mut scenario, &submitted, until);
        // The quick form's `until` is the argument, or the default: what
        // refers to it points there.
        scenario_name = "<--until>".to_string();
        scenario_text = crate::time::datetime::format_utc(scenario.until);
        scenario.until_span = Span::new(0, scenario_text.len());
        if scenario.until <= scenario.start {
            return usage(format!(
                "--until {scenario_text} is not after the job's start {}",
                crate::time::datetime::format_utc(scenario.start)
            ));
        }
        if chrono::Datelike::year(&scenario.until) > 2999 {
            return usage(format!(
                "--until {scenario_text}: coordc simulates up to the year 2999"
            ));
        }
    }
    let workflows = simulation::local_workflows(&jobs, &files);
    let submit_at = (!is_scenario).then_some(scenario.start);
    let inputs = match simulation::engine_inputs(&jobs, &submitted, &workflows, submit_at) {
        Ok(inputs) => inputs,
        Err(d) => return scenario_problems(&scenario_name, &scenario_text, &[d]),
    };
    if !is_scenario {
        for (job, input) in submitted.iter().zip(&inputs) {
            quick_data(&mut scenario, job, &input.id);
        }
    }
    let simulation =
        match scenario.resolve(inputs.iter().map(|input| (input.id.as_str(), input.job))) {
            Ok(simulation) => simulation,
            Err(problems) => return scenario_problems(&scenario_name, &scenario_text, &problems),
        };
    let mut engine = Engine::new(simulation, inputs);
    if let Err(d) = engine.run(at.map(millis)) {
        return scenario_problems(&scenario_name, &scenario_text, &[d]);
    }
    let record = engine.into_record();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if let Some(which) = &args.explain {
        let found = which.rsplit_once('@').and_then(|(job, n)| {
            let j = record.jobs.iter().position(|x| x.id == job)?;
            report::explanation(&record, j, n.parse().ok()?)
        });
        return match found {
            Some(explanation) => {
                let written = match args.format {
                    SimulateFormat::Json => serde_json::to_writer(&mut out, &explanation.to_json())
                        .map_err(std::io::Error::from)
                        .and_then(|()| writeln!(out)),
                    _ => writeln!(out, "{}", explanation.lines.join("\n")),
                };
                let _ = written.and_then(|()| out.flush());
                EXIT_OK
            }
            None => usage(format!(
                "--explain {which}: no such action (write JOB@N; the jobs: {})",
                record
                    .jobs
                    .iter()
                    .map(|j| j.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        };
    }
    let result = match args.format {
        SimulateFormat::Text => report::write_text(&record, &mut out),
        SimulateFormat::Json => report::write_json(&record, &mut out),
        SimulateFormat::Events => report::write_events(&record, &mut out),
        SimulateFormat::Svg => svg::write_svg(&record, &mut out),
    };
    // (A closed stdout, e.g. piped into `head`, ends the report quietly.)
    let _ = result.and_then(|()| out.flush());
    EXIT_OK
}

/// The quick form's scenario: the application as its one job, with Oozie's
/// default settings; its times and data come once the job is submitted.
fn quick_scenario(args: &SimulateArgs) -> Scenario {
    Scenario {
        start: DateTime::<Utc>::MIN_UTC,
        until: DateTime::<Utc>::MIN_UTC,
        until_span: Span::EMPTY,
        settings: Settings::default(),
        jobs: vec![JobEntry {
            id: None,
            app: args.input.display().to_string(),
            app_span: Span::EMPTY,
            config: (!args.job.configs.is_empty()).then(|| {
                args.job
                    .configs
                    .iter()
                    .map(|c| c.display().to_string())
                    .collect()
            }),
            properties: args.job.defines.clone(),
            map: args.job.maps.clone(),
            submit: DateTime::<Utc>::MIN_UTC,
        }],
        data: Vec::new(),
        workflows: WorkflowScript {
            status: WorkflowEnd::Succeeded,
            duration: 10 * 60_000,
        },
        outputs: true,
        workflow: Vec::new(),
        ops: Vec::new(),
        outages: Vec::new(),
        script: Script::default(),
    }
}

/// How long the quick form runs by default: to the job's end, at most this
/// long after its start, and a day more for the last actions to finish.
const QUICK_SPAN_DAYS: i64 = 31;

fn quick_times(scenario: &mut Scenario, jobs: &[Job], until: Option<DateTime<Utc>>) {
    let start = jobs.iter().map(|j| j.start).min().unwrap_or_default();
    let end = jobs.iter().map(|j| j.end).max().unwrap_or_default();
    scenario.start = start;
    scenario.until = until
        .unwrap_or_else(|| end.min(start + Duration::days(QUICK_SPAN_DAYS)) + Duration::days(1));
}

/// The quick form's data: every instance an action of the job reads is
/// there at its own nominal time. The actions are resolved as the dry run
/// resolves them (`Job::actions`), up to the end of the simulation, so only
/// the instances they name are listed, whatever the dataset's frequency. A
/// data-in left to `latest`/`future` reads what exists when it is checked:
/// for it, every instance of its dataset from the one its `latest` reaches
/// back to at the job's submission to the end of the simulation is there
/// at its nominal time. (An action that fails to resolve ends the list: the
/// engine fails the job at it.)
fn quick_data(scenario: &mut Scenario, job: &Job, id: &str) {
    // More actions than the engine holds: it refuses the run, and nothing
    // is resolved for it.
    let due = job
        .nominal_times_all()
        .take_while(|t| *t < scenario.until)
        .take(MAX_ACTIONS + 1)
        .count();
    if due > MAX_ACTIONS {
        return;
    }
    let mut seen: FxHashSet<String> = FxHashSet::default();
    // Per data-in, how far back its latest/future calls reach (None: it has none).
    let mut reach: Vec<Option<i64>> = vec![None; job.app().inputs.len()];
    for action in job.actions().take(due) {
        let Ok(action) = action else { break };
        for (event, reach) in action.inputs.iter().zip(reach.iter_mut()) {
            for (uri, t) in event.uris.iter().zip(&event.times) {
                if seen.insert(uri.clone()) {
                    scenario.data.push(DataEntry::Uri {
                        uri: uri.clone(),
                        at: *t,
                    });
                }
            }
            for call in &event.unresolved {
                let back = match Unresolved::parse(call) {
                    Some(Unresolved::Latest { from, .. }) => from,
                    _ => 0,
                };
                *reach = Some(reach.map_or(back, |r| r.min(back)));
            }
        }
    }
    let mut ranged: Vec<(&str, DateTime<Utc>)> = Vec::new();
    for (data_in, reach) in job.app().inputs.iter().zip(&reach) {
        let Some(back) = *reach else { continue };
        let dataset = data_in.dataset.name.as_str();
        // The instance `latest(back)` names at the submission when every
        // instance is there, and the one before it.
        let from = job
            .dataset(dataset)
            .and_then(|(_, clock)| clock.current_range(scenario.start, back - 1, 0).ok())
            .and_then(|times| times.first().copied())
            .unwrap_or(scenario.start);
        match ranged.iter_mut().find(|(d, _)| *d == dataset) {
            Some((_, earliest)) => *earliest = (*earliest).min(from),
            None => ranged.push((dataset, from)),
        }
    }
    for (dataset, from) in ranged {
        scenario.data.push(DataEntry::Range {
            job: id.to_string(),
            dataset: dataset.to_string(),
            span: Span::EMPTY,
            from,
            to: scenario.until,
            delay: 0,
            missing: Vec::new(),
        });
    }
}
