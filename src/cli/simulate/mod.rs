//! `coordc simulate`: run a scenario (or one coordinator, the quick form)
//! through the simulated Oozie server, and report what happened.

use super::dryrun::bundle::load_members;
use super::dryrun::{print_problems, stopped, submit, usage};
use super::job::JobArgs;
use super::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE};
use crate::check::rules::{SIMULATE_SCENARIO, XML_UNKNOWN_DOCUMENT};
use crate::diag::Diagnostic;
use crate::diag::render::human;
use crate::interp::job::{Job, Located, Options};
use crate::interp::simulate::engine::{self, Engine, millis};
use crate::interp::simulate::scenario::{
    DataEntry, JobEntry, Scenario, Settings, WorkflowEnd, WorkflowScript,
};
use crate::interp::simulate::{report, svg};
use crate::interp::workflow::script::Script;
use crate::project::files::{ConfigFile, Files, ReadError, read_source};
use crate::project::load::{
    self, JobInput, JobSource, LoadedCoordinator, LocalWorkflows, Sources, parse_document,
    read_application,
};
use crate::span::Span;
use crate::time::datetime::{ProcessingZone, parse_datetime};
use chrono::{DateTime, Duration, Utc};
use clap::{Args, ValueEnum};
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
pub struct SimulateArgs {
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
    #[arg(long, value_enum, default_value = "text")]
    format: SimulateFormat,
}

fn time_argument(flag: &str, text: &str) -> Result<DateTime<Utc>, i32> {
    parse_datetime(text, ProcessingZone::UTC)
        .map(|t| t.instant)
        .map_err(|e| {
            eprint!(
                "{}",
                human(
                    &e.to_diagnostic(0, ProcessingZone::UTC),
                    &format!("<{flag}>"),
                    text
                )
            );
            EXIT_USAGE
        })
}

/// A scenario's problems, printed against its file.
fn scenario_problems(name: &str, text: &str, problems: &[Diagnostic]) -> i32 {
    let mut err = std::io::stderr().lock();
    for d in problems {
        let _ = write!(err, "{}", human(d, name, text));
    }
    EXIT_ERRORS
}

/// One job's application, loaded, with the sources its problems point into.
struct LoadedJob {
    id: Option<String>,
    /// Its `app` in the scenario.
    span: Span,
    sources: Sources,
    loaded: LoadedCoordinator,
    submit: DateTime<Utc>,
    /// Where its actions' workflow applications are read: the `--map`s
    /// of its job, and its coordinator's folder for relative app-paths.
    maps: Vec<(String, String)>,
    folder: PathBuf,
}

pub fn run(args: SimulateArgs) -> i32 {
    let at = match args
        .at
        .as_deref()
        .map(|t| time_argument("--at", t))
        .transpose()
    {
        Ok(t) => t,
        Err(code) => return code,
    };
    let is_scenario = args.input.extension().is_some_and(|e| e == "toml");
    if !is_scenario {
        let mut sources = Sources::default();
        let text = match read_application(&args.input, &Files::default(), &mut sources) {
            Ok(text) => text,
            Err(stop) => return stopped(&sources, stop),
        };
        let arena = crate::xml::Arena::new();
        let doc = match parse_document(&text, &arena) {
            Ok(doc) => doc,
            Err(stop) => return stopped(&sources, stop),
        };
        if doc.root.name == "workflow-app" {
            return workflow::run(&args, &doc, sources);
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
                let message = if d.code == crate::check::rules::XML_LIMIT {
                    format!(
                        "the scenario file is over {} bytes, more than coordc reads",
                        crate::xml::tree::MAX_FILE_LEN
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
        .map(|t| time_argument("--until", t))
        .transpose()
    {
        Ok(t) => t,
        Err(code) => return code,
    };
    // Load every job's application.
    let files = Files::default();
    let mut jobs = Vec::new();
    for entry in &scenario.jobs {
        let app = base.join(&entry.app);
        let configs: Vec<ConfigFile> = entry
            .config
            .iter()
            .flatten()
            .map(|c| ConfigFile::read(&base.join(c)))
            .collect();
        let maps: Vec<(String, String)> = entry
            .map
            .iter()
            .map(|(prefix, dir)| (prefix.clone(), base.join(dir).display().to_string()))
            .collect();
        let input = JobInput {
            configs: &configs,
            files: &files,
            job: JobSource::Own,
            defines: &entry.properties,
            maps: &maps,
            processing_zone: ProcessingZone::UTC,
            check_maximum_frequency: scenario.settings.check_maximum_frequency,
        };
        let start = millis(scenario.start);
        let pause_interval = scenario.settings.pause_interval;
        // A bundle's coordinators are submitted when the PauseTransitService
        // (first at start + 10 s, then every interval) finds its kick-off
        // time come (PTS:150-153); without one, at once
        // (BundleSubmitXCommand:156-160).
        let kick_off = |submit: DateTime<Utc>, kick_off: Option<DateTime<Utc>>| match kick_off {
            Some(k) if k > submit => {
                let origin = start + 10_000;
                let due = millis(k).max(origin);
                let tick =
                    origin + (due - origin + pause_interval - 1) / pause_interval * pause_interval;
                engine::datetime(tick)
            }
            _ => submit,
        };
        match load_job(&app, &input, entry, &kick_off) {
            Ok(mut loaded) => jobs.append(&mut loaded),
            Err(code) => return code,
        }
    }
    // Submitted as the dry run submits them.
    let options = Options::all_actions(
        ProcessingZone::UTC,
        scenario.settings.check_maximum_frequency,
    );
    let mut submitted: Vec<Job> = Vec::new();
    for job in &jobs {
        match submit(&job.loaded, &job.sources, &options) {
            Ok(j) => submitted.push(j),
            Err(code) => return code,
        }
    }
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
    let workflows: Vec<LocalWorkflows> = jobs
        .iter()
        .map(|job| LocalWorkflows::new(&job.maps, job.folder.clone(), &files))
        .collect();
    let mut inputs: Vec<engine::JobInput> = Vec::new();
    for ((job, prepared), workflows) in jobs.iter().zip(&submitted).zip(&workflows) {
        let id = job.id.clone().unwrap_or_else(|| prepared.name.to_string());
        if inputs.iter().any(|i| i.id == id) {
            return scenario_problems(
                &scenario_name,
                &scenario_text,
                &[Diagnostic::error(
                    SIMULATE_SCENARIO,
                    job.span,
                    format!("two jobs are called `{id}`: give each an `id`"),
                )],
            );
        }
        inputs.push(engine::JobInput {
            workflows,
            id,
            job: prepared,
            submit: if is_scenario {
                job.submit
            } else {
                scenario.start
            },
        });
    }
    if !is_scenario {
        for (job, input) in submitted.iter().zip(&inputs) {
            quick_data(&mut scenario, job, &input.id);
        }
    }
    let mut engine = match Engine::new(&scenario, inputs) {
        Ok(engine) => engine,
        Err(problems) => return scenario_problems(&scenario_name, &scenario_text, &problems),
    };
    if let Err(d) = engine.run(at.map(millis)) {
        return scenario_problems(&scenario_name, &scenario_text, &[d]);
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if let Some(which) = &args.explain {
        let found = which.rsplit_once('@').and_then(|(job, n)| {
            let j = engine.jobs.iter().position(|x| x.id == job)?;
            report::explain(&engine, j, n.parse().ok()?)
        });
        return match found {
            Some(text) => {
                let _ = writeln!(out, "{text}");
                EXIT_OK
            }
            None => usage(format!(
                "--explain {which}: no such action (write JOB@N; the jobs: {})",
                engine
                    .jobs
                    .iter()
                    .map(|j| j.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        };
    }
    let result = match args.format {
        SimulateFormat::Text => report::write_text(&engine, &mut out),
        SimulateFormat::Json => report::write_json(&engine, &mut out),
        SimulateFormat::Events => report::write_events(&engine, &mut out),
        SimulateFormat::Svg => svg::write_svg(&engine, &mut out),
    };
    // (A closed stdout, e.g. piped into `head`, ends the report quietly.)
    let _ = result.and_then(|()| out.flush());
    EXIT_OK
}

/// The jobs of one `[[job]]`: its coordinator, or each coordinator its
/// bundle submits (named `ID/NAME`), loaded.
fn load_job(
    app: &Path,
    input: &JobInput,
    entry: &JobEntry,
    kick_off: &dyn Fn(DateTime<Utc>, Option<DateTime<Utc>>) -> DateTime<Utc>,
) -> Result<Vec<LoadedJob>, i32> {
    let mut sources = Sources::default();
    let text =
        read_application(app, input.files, &mut sources).map_err(|stop| stopped(&sources, stop))?;
    let arena = crate::xml::Arena::new();
    let doc = parse_document(&text, &arena).map_err(|stop| stopped(&sources, stop))?;
    match doc.root.name {
        "coordinator-app" => {
            let loaded = load::coordinator(&doc, app, input, &mut sources)
                .map_err(|stop| stopped(&sources, stop))?;
            Ok(vec![LoadedJob {
                id: entry.id.clone(),
                span: entry.app_span,
                sources,
                loaded,
                submit: entry.submit,
                maps: input.maps.to_vec(),
                folder: folder_of(app),
            }])
        }
        "bundle-app" => {
            let bundle = load::bundle(&doc, app, input, &mut sources)
                .map_err(|stop| stopped(&sources, stop))?;
            let (submitted, problems) = crate::interp::bundle::submit(
                &bundle.bundle,
                &bundle.config,
                input.processing_zone,
            );
            let members = load_members(app, input, &bundle, &submitted, problems, &sources)?;
            let id = entry.id.clone().unwrap_or_else(|| submitted.name.clone());
            let submit = kick_off(entry.submit, submitted.kick_off);
            Ok(members
                .into_iter()
                .map(|member| LoadedJob {
                    id: Some(format!("{id}/{}", member.submitted.name)),
                    span: entry.app_span,
                    folder: member
                        .sources
                        .files
                        .first()
                        .map_or_else(|| folder_of(app), |(name, _)| folder_of(Path::new(name))),
                    sources: member.sources,
                    loaded: member.loaded,
                    submit,
                    maps: input.maps.to_vec(),
                })
                .collect())
        }
        other => Err(print_problems(
            &sources,
            &[Located::in_app(Diagnostic::error(
                XML_UNKNOWN_DOCUMENT,
                doc.root.name_span,
                format!(
                    "coordc simulate runs a <coordinator-app> or a <bundle-app>, not <{other}>"
                ),
            ))],
        )),
    }
}

fn folder_of(file: &Path) -> PathBuf {
    file.parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
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

/// Every instance of every dataset the job reads is there at its nominal
/// time: from a year before the start (as far back as latest() usually
/// looks) to the end of the simulation.
fn quick_data(scenario: &mut Scenario, job: &Job, id: &str) {
    let mut seen = Vec::new();
    for data_in in &job.app().inputs {
        let dataset = data_in.dataset.name.as_str();
        if seen.contains(&dataset) {
            continue;
        }
        seen.push(dataset);
        scenario.data.push(DataEntry::Range {
            job: id.to_string(),
            dataset: dataset.to_string(),
            span: Span::EMPTY,
            from: scenario.start - Duration::days(366),
            to: scenario.until,
            delay: 0,
            missing: Vec::new(),
        });
    }
}
