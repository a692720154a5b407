//! `simulate`: a scenario (TOML) over an application of corpus/simulate/,
//! as `coordc simulate SCENARIO.toml` runs it. The input's first line names
//! the folder (see `simulate/apps.rs`; an unknown name picks one by its
//! bytes), the rest is the scenario, mutated from the folder's own:
//!
//! - a coordinator scenario: `Scenario::read`, each `[[job]]`'s coordinator
//!   loaded (`load::coordinator`) and submitted (`prepare`, every action),
//!   then the simulated server (`Engine::new`, `Engine::run`) and its JSON
//!   report. The simulated time is bounded: `until` is cut to 3 days after
//!   the scenario's start (the engine's own limits, 500,000 actions, are
//!   seconds per input). Bundles are not run (their loading is the CLI's).
//! - a workflow scenario (`wf-*` folders): `WorkflowScenario::read`, the
//!   workflow loaded, its graph built and run (`interp::workflow::run`),
//!   and its JSON report.
//!
//! Every file is an editor buffer under /fuzz/sim/FOLDER (nothing on disk).
#![no_main]

mod common;
#[path = "simulate/apps.rs"]
mod sims;

use chrono::Duration;
use coordc::interp::job::{Options, prepare};
use coordc::interp::simulate::engine::{self, Engine, millis};
use coordc::interp::simulate::scenario::{Scenario, WorkflowScenario};
use coordc::interp::workflow::graph::Graph;
use coordc::interp::workflow::run::{self, RunInput};
use coordc::interp::workflow::script::Scope;
use coordc::project::files::{ConfigFile, Files};
use coordc::project::load::{
    self, JobInput, JobSource, LoadedCoordinator, LocalWorkflows, Sources, parse_document,
    read_application,
};
use coordc::time::datetime::ProcessingZone;
use libfuzzer_sys::fuzz_target;
use sims::{SIMS, Sim};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The longest simulated time.
const MAX_DAYS: i64 = 3;

fn find(key: &str) -> &'static Sim {
    SIMS.iter().find(|s| s.key == key).unwrap_or_else(|| {
        let h = key
            .bytes()
            .fold(0usize, |h, b| h.wrapping_mul(31).wrapping_add(b as usize));
        &SIMS[h % SIMS.len()]
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

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (key, scenario_text) = text.split_once('\n').unwrap_or((text, ""));
    let sim = find(key.trim());
    if common::verbose() {
        eprintln!("===== {} ({})\n{scenario_text}\n=====", sim.key, base_name(sim));
    }
    let base = Path::new("/fuzz/sim").join(sim.key);
    let files = Files::with_buffers(
        sim.files
            .iter()
            .map(|(p, t)| (base.join(p), Arc::<str>::from(*t))),
    );
    match sim.workflow {
        Some(workflow) => run_workflow(sim, workflow, &base, &files, scenario_text),
        None => run_coordinators(&base, &files, scenario_text),
    }
});

fn base_name(sim: &Sim) -> &'static str {
    match sim.workflow {
        Some(w) => w,
        None => "coordinator scenario",
    }
}

fn run_coordinators(base: &Path, files: &Files, text: &str) {
    let mut scenario = match Scenario::read(text) {
        Ok(s) => s,
        Err(problems) => return render_all(&problems, text),
    };
    if let Some(cut) = scenario.start.checked_add_signed(Duration::days(MAX_DAYS)) {
        scenario.until = scenario.until.min(cut);
    }
    let pz = ProcessingZone::UTC;
    struct Loaded {
        id: Option<String>,
        sources: Sources,
        loaded: LoadedCoordinator,
        submit: chrono::DateTime<chrono::Utc>,
        maps: Vec<(String, String)>,
        folder: PathBuf,
    }
    let mut jobs = Vec::new();
    for entry in &scenario.jobs {
        let app = base.join(&entry.app);
        let configs: Vec<ConfigFile> = entry
            .config
            .iter()
            .flatten()
            .map(|c| files.config(&base.join(c)))
            .collect();
        let maps: Vec<(String, String)> = entry
            .map
            .iter()
            .map(|(prefix, dir)| (prefix.clone(), base.join(dir).display().to_string()))
            .collect();
        let input = JobInput {
            configs: &configs,
            files,
            job: JobSource::Own,
            defines: &entry.properties,
            maps: &maps,
            processing_zone: pz,
            check_maximum_frequency: scenario.settings.check_maximum_frequency,
        };
        let mut sources = Sources::default();
        let Ok(app_text) = read_application(&app, files, &mut sources) else {
            return;
        };
        let arena = coordc::xml::Arena::new();
        let Ok(doc) = parse_document(&app_text, &arena) else {
            return;
        };
        if doc.root.name != "coordinator-app" {
            return;
        }
        let loaded = match load::coordinator(&doc, &app, &input, &mut sources) {
            Ok(l) => l,
            Err(_) => return,
        };
        drop(doc);
        jobs.push(Loaded {
            id: entry.id.clone(),
            sources,
            loaded,
            submit: entry.submit,
            maps,
            folder: app.parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf),
        });
    }
    let options = Options::all_actions(pz, scenario.settings.check_maximum_frequency);
    let mut submitted = Vec::new();
    for job in &jobs {
        if !job.loaded.parameter_problems.is_empty() || !job.loaded.include_problems.is_empty() {
            return;
        }
        match prepare(&job.loaded.app, &job.loaded.included, &job.loaded.vars, &options) {
            Ok(j) => submitted.push(j),
            Err(problems) => {
                for p in &problems {
                    std::hint::black_box(job.sources.render(p));
                }
                return;
            }
        }
    }
    let workflows: Vec<LocalWorkflows> = jobs
        .iter()
        .map(|job| LocalWorkflows::new(&job.maps, job.folder.clone(), files))
        .collect();
    let mut inputs = Vec::new();
    for ((job, prepared), workflows) in jobs.iter().zip(&submitted).zip(&workflows) {
        let id = job.id.clone().unwrap_or_else(|| prepared.name.to_string());
        if inputs.iter().any(|i: &engine::JobInput| i.id == id) {
            return;
        }
        inputs.push(engine::JobInput {
            workflows,
            id,
            job: prepared,
            submit: job.submit,
        });
    }
    let mut engine = match Engine::new(&scenario, inputs) {
        Ok(e) => e,
        Err(problems) => return render_all(&problems, text),
    };
    if let Err(d) = engine.run(None) {
        common::render(&d, text);
        return;
    }
    let mut out = std::io::sink();
    let _ = coordc::interp::simulate::report::write_json(&engine, &mut out);
    if common::verbose() {
        let _ = coordc::interp::simulate::report::write_text(&engine, &mut std::io::stderr());
    } else {
        let _ = coordc::interp::simulate::report::write_text(&engine, &mut out);
    }
    for (j, job) in engine.jobs.iter().enumerate() {
        std::hint::black_box((&job.id, coordc::interp::simulate::report::explain(&engine, j, 1)));
    }
}

fn run_workflow(sim: &Sim, workflow: &str, base: &Path, files: &Files, text: &str) {
    let scenario = match WorkflowScenario::read(text) {
        Ok(s) => s,
        Err(problems) => return render_all(&problems, text),
    };
    let path = base.join(workflow);
    let mut sources = Sources::default();
    let Ok(app_text) = read_application(&path, files, &mut sources) else {
        return;
    };
    let arena = coordc::xml::Arena::new();
    let Ok(doc) = parse_document(&app_text, &arena) else {
        return;
    };
    let Ok(wf) = load::workflow(&doc) else {
        return;
    };
    let configs: Vec<ConfigFile> = sim.config.iter().map(|c| files.config(&base.join(c))).collect();
    let maps: Vec<(String, String)> = sim
        .maps
        .iter()
        .map(|(prefix, dir)| (prefix.to_string(), base.join(dir).display().to_string()))
        .collect();
    let input = JobInput {
        configs: &configs,
        files,
        job: JobSource::Own,
        defines: &[],
        maps: &maps,
        processing_zone: ProcessingZone::UTC,
        check_maximum_frequency: true,
    };
    let Ok(job) = load::workflow_job(&wf, &path, &input, &mut sources) else {
        return;
    };
    if !job.parameter_problems.is_empty() {
        return;
    }
    let mut conf = job.vars;
    conf.entry("oozie.wf.application.path".to_string())
        .or_insert_with(|| Some(base.display().to_string()));
    let graph = match Graph::new(&wf) {
        Ok(g) => g,
        Err(problems) => return render_all(&problems, &app_text),
    };
    let sub_workflows = LocalWorkflows::new(&maps, base.to_path_buf(), files);
    let run = run::run(
        &graph,
        &RunInput {
            conf: &conf,
            start: millis(scenario.start),
            script: &scenario.script,
            scope: Scope::default(),
            sub_workflows: &sub_workflows,
            pz: ProcessingZone::UTC,
            id_sequence: 0,
        },
    );
    let mut out = std::io::sink();
    let _ = coordc::interp::workflow::report::write_json(&run, &mut out);
    if common::verbose() {
        let _ = coordc::interp::workflow::report::write_text(&run, &mut std::io::stderr());
    } else {
        let _ = coordc::interp::workflow::report::write_text(&run, &mut out);
    }
}
