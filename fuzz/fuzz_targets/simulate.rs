//! `simulate`: a scenario (TOML) over an application of corpus/simulate/,
//! as `coordc simulate` runs it. The input's first line names the folder
//! (an unknown name picks one by its bytes), the rest is the scenario,
//! mutated from the folder's own:
//!
//! - a coordinator scenario: `Scenario::read`, its jobs loaded and
//!   submitted (`project::simulation`, as the command does: coordinators
//!   and bundles), bound to them (`Scenario::resolve`), then the simulated
//!   server (`Engine::new`, `Engine::run`)
//!   and its reports. The simulated time is bounded: `until` is cut to 3
//!   days after the scenario's start (the engine's own limits, 500,000
//!   actions, are seconds per input).
//! - a workflow scenario (`wf-*` folders): `WorkflowScenario::read`, the
//!   workflow its README's `coordc simulate` command names, with that
//!   command's `--config`, `-D` and `--map`, loaded, its graph built and
//!   run (`interp::workflow::run`), and its reports.
//!
//! The folders are found when the target starts, and every file of
//! corpus/ is read then, as editor buffers: an input reads no disk.
#![no_main]

mod common;

use chrono::Duration;
use coordc::interp::simulate::engine::Engine;
use coordc::interp::simulate::scenario::model::{Scenario, WorkflowScenario};
use coordc::project::files::{ConfigFile, Files};
use coordc::project::load::{JobInput, JobSource, Sources, Stop, parse_document, read_application};
use coordc::project::settings::Finder;
use coordc::project::simulation;
use coordc::time::datetime::ProcessingZone;
use libfuzzer_sys::fuzz_target;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// The longest simulated time.
const MAX_DAYS: i64 = 3;

/// A folder of corpus/simulate/.
struct Sim {
    key: String,
    folder: PathBuf,
    /// For a `wf-*` folder: the workflow its README's command runs.
    workflow: Option<WorkflowCommand>,
}

/// `coordc simulate WORKFLOW [--config F] [-D N=V] [--map P=D] ...`, its
/// paths from the repository's root.
#[derive(Default)]
struct WorkflowCommand {
    app: PathBuf,
    configs: Vec<PathBuf>,
    defines: Vec<(String, String)>,
    maps: Vec<(String, String)>,
}

struct Corpus {
    sims: Vec<Sim>,
    files: Files,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn corpus() -> &'static Corpus {
    static CORPUS: OnceLock<Corpus> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let root = root();
        let mut sims: Vec<Sim> = std::fs::read_dir(root.join("corpus/simulate"))
            .expect("corpus/simulate")
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|folder| has_scenario(folder))
            .map(|folder| {
                let key = folder
                    .file_name()
                    .expect("a name")
                    .to_string_lossy()
                    .into_owned();
                let workflow = key
                    .starts_with("wf-")
                    .then(|| readme_command(&root, &folder))
                    .flatten();
                Sim {
                    key,
                    folder,
                    workflow,
                }
            })
            .collect();
        sims.sort_by(|a, b| a.key.cmp(&b.key));
        assert!(!sims.is_empty(), "no scenarios in corpus/simulate");
        let mut buffers = Vec::new();
        let mut folders = vec![root.join("corpus")];
        while let Some(folder) = folders.pop() {
            for path in std::fs::read_dir(&folder)
                .expect("a corpus folder")
                .filter_map(Result::ok)
                .map(|e| e.path())
            {
                if path.is_dir() {
                    folders.push(path);
                } else if let Ok(text) = std::fs::read_to_string(&path) {
                    buffers.push((path, Arc::<str>::from(text)));
                }
            }
        }
        Corpus {
            sims,
            files: Files::with_buffers(buffers),
        }
    })
}

/// Whether `folder` holds a scenario (a `.toml` file: most have one
/// scenario.toml, spec-6.3 has several).
fn has_scenario(folder: &Path) -> bool {
    std::fs::read_dir(folder).is_ok_and(|entries| {
        entries
            .filter_map(Result::ok)
            .any(|e| e.path().extension().is_some_and(|x| x == "toml"))
    })
}

/// The workflow command of a `wf-*` folder's README (its line starting
/// `coordc simulate `).
fn readme_command(root: &Path, folder: &Path) -> Option<WorkflowCommand> {
    let readme = std::fs::read_to_string(folder.join("README.md")).ok()?;
    let line = readme
        .lines()
        .find_map(|l| l.strip_prefix("coordc simulate "))?;
    let mut command = WorkflowCommand::default();
    let mut words = line.split_whitespace();
    while let Some(word) = words.next() {
        let pair = |text: Option<&str>| {
            let (a, b) = text?.split_once('=')?;
            Some((a.to_string(), b.to_string()))
        };
        match word {
            "--config" => command.configs.push(root.join(words.next()?)),
            "-D" => command.defines.push(pair(words.next())?),
            "--map" => {
                let (prefix, dir) = pair(words.next())?;
                command
                    .maps
                    .push((prefix, root.join(dir).display().to_string()));
            }
            "--scenario" | "--format" => {
                words.next();
            }
            app if !app.starts_with('-') => command.app = root.join(app),
            _ => {}
        }
    }
    Some(command)
}

fn find(key: &str) -> &'static Sim {
    let sims = &corpus().sims;
    sims.iter().find(|s| s.key == key).unwrap_or_else(|| {
        let h = key
            .bytes()
            .fold(0usize, |h, b| h.wrapping_mul(31).wrapping_add(b as usize));
        &sims[h % sims.len()]
    })
}

fn render_all(problems: &[coordc::diag::Diagnostic], text: &str) {
    for d in problems {
        if common::verbose() {
            eprint!("{}", coordc::diag::render::human(d, "scenario", text));
        }
        common::render(d, text);
    }
}

/// What loading tells: rendered, as the command prints it.
fn rendered(sources: &Sources, stop: Stop) {
    if let Stop::Problems(problems) = stop {
        for p in &problems {
            std::hint::black_box(sources.render(p));
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (key, scenario_text) = text.split_once('\n').unwrap_or((text, ""));
    let sim = find(key.trim());
    if common::verbose() {
        eprintln!("===== {}\n{scenario_text}\n=====", sim.key);
    }
    match &sim.workflow {
        Some(command) => run_workflow(command, scenario_text),
        None => run_coordinators(&sim.folder, scenario_text),
    }
});

fn run_coordinators(base: &Path, text: &str) {
    let mut scenario = match Scenario::read(text) {
        Ok(s) => s,
        Err(problems) => return render_all(&problems, text),
    };
    if let Some(cut) = scenario.start.checked_add_signed(Duration::days(MAX_DAYS)) {
        scenario.until = scenario.until.min(cut);
    }
    let files = &corpus().files;
    let finder = Finder::new(files, None, &[]);
    let Ok(settings) = simulation::scenario_settings(&scenario, base, &finder) else {
        return;
    };
    let Some(jobs) = simulation::scenario_jobs(
        &scenario,
        base,
        files,
        &settings,
        common::cron_max_year(),
        &mut rendered,
    ) else {
        return;
    };
    let Some(submitted) = simulation::submit_all(&jobs, &mut rendered) else {
        return;
    };
    let workflows = simulation::local_workflows(&jobs, files);
    let inputs = match simulation::engine_inputs(&jobs, &submitted, &workflows, None) {
        Ok(inputs) => inputs,
        Err(d) => return common::render(&d, text),
    };
    let simulation =
        match scenario.resolve(inputs.iter().map(|input| (input.id.as_str(), input.job))) {
            Ok(simulation) => simulation,
            Err(problems) => return render_all(&problems, text),
        };
    let mut engine = Engine::new(simulation, inputs);
    if let Err(d) = engine.run(None) {
        common::render(&d, text);
        return;
    }
    let record = engine.into_record();
    let mut out = std::io::sink();
    let _ = coordc::interp::simulate::report::write_json(&record, &mut out);
    if common::verbose() {
        let _ = coordc::interp::simulate::report::write_text(&record, &mut std::io::stderr());
    } else {
        let _ = coordc::interp::simulate::report::write_text(&record, &mut out);
    }
    for (j, job) in record.jobs.iter().enumerate() {
        std::hint::black_box((
            &job.id,
            coordc::interp::simulate::report::explain(&record, j, 1),
        ));
    }
}

fn run_workflow(command: &WorkflowCommand, text: &str) {
    let scenario = match WorkflowScenario::read(text) {
        Ok(s) => s,
        Err(problems) => return render_all(&problems, text),
    };
    let files = &corpus().files;
    let path = &command.app;
    let mut sources = Sources::default();
    let Ok(app_text) = read_application(path, files, &mut sources) else {
        return;
    };
    let arena = coordc::xml::Arena::new();
    let Ok(doc) = parse_document(&app_text, &arena) else {
        return;
    };
    let configs: Vec<ConfigFile> = command.configs.iter().map(|c| files.config(c)).collect();
    let input = JobInput {
        configs: &configs,
        files,
        job: JobSource::Own,
        defines: &command.defines,
        maps: &command.maps,
        processing_zone: ProcessingZone::UTC,
        check_maximum_frequency: true,
        cron_max_year: common::cron_max_year(),
    };
    let Ok(folder) = Finder::new(files, None, &command.maps).of_file(path) else {
        return;
    };
    let request = simulation::WorkflowRequest {
        doc: &doc,
        path,
        job: &input,
        folder: &folder,
        files,
        scenario: &scenario,
    };
    let ran = simulation::run_workflow(&request, &mut sources, &mut rendered, |_, run| {
        let mut out = std::io::sink();
        let _ = coordc::interp::workflow::report::write_json(run, &mut out);
        if common::verbose() {
            let _ = coordc::interp::workflow::report::write_text(run, &mut std::io::stderr());
        } else {
            let _ = coordc::interp::workflow::report::write_text(run, &mut out);
        }
    });
    match ran {
        Err(simulation::WorkflowNotRun::Graph(problems)) => render_all(&problems, &app_text),
        Err(simulation::WorkflowNotRun::Scenario(problems)) => render_all(&problems, text),
        Ok(()) | Err(simulation::WorkflowNotRun::Refused) => {}
    }
}
