//! `coordc simulate workflow.xml`: one workflow job run against a scenario
//! (`--scenario`, or every action ok), reported as a trace, JSON, events or
//! the graph.

use super::super::output::{printer, stopped, usage};
use super::super::{EXIT_ERRORS, EXIT_OK};
use super::{SimulateArgs, SimulateFormat, scenario_problems};
use crate::diag::Located;
use crate::interp::simulate::scenario::model::{DEFAULT_WORKFLOW_START, WorkflowScenario};
use crate::interp::workflow::report;
use crate::interp::workflow::script::Script;
use crate::project::files::{Files, ReadError, read_source};
use crate::project::load::{Sources, Stop};
use crate::project::simulation::{self, WorkflowNotRun, WorkflowRequest};
use crate::time::datetime::{ProcessingZone, parse_datetime};
use std::io::Write;

/// The workflow `doc` read from `args.input` (file 0 of `sources`), run.
pub(super) fn run(args: &SimulateArgs, doc: &crate::xml::Document, mut sources: Sources) -> i32 {
    if args.until.is_some() || args.at.is_some() || args.explain.is_some() {
        return usage(
            "--until, --at and --explain are for coordinators: a workflow runs to its end (its trace says why each node went where it went)"
                .into(),
        );
    }
    let (scenario, scenario_name, scenario_text) = match &args.scenario {
        Some(path) => {
            let name = path.display().to_string();
            let text = match read_source(path) {
                Ok(text) => text,
                Err(ReadError::Io(e)) => return usage(format!("{name}: {e}")),
                Err(ReadError::Refused(d)) => return scenario_problems(&name, "", &[d]),
            };
            match WorkflowScenario::read(&text) {
                Ok(s) => (s, name, text),
                Err(problems) => return scenario_problems(&name, &text, &problems),
            }
        }
        None => {
            let scenario = WorkflowScenario {
                start: parse_datetime(DEFAULT_WORKFLOW_START, ProcessingZone::UTC)
                    .map(|t| t.instant)
                    .unwrap_or_default(),
                script: Script::default(),
            };
            (scenario, String::new(), String::new())
        }
    };
    let configs = args.job.read_configs();
    let files = Files::default();
    let settings = match args
        .job
        .settings(&files, args.processing_timezone.as_deref(), &args.input)
    {
        Ok(settings) => settings,
        Err(exit) => return exit,
    };
    let input = args.job.own_job(&configs, &files, &settings);
    let request = WorkflowRequest {
        doc,
        path: &args.input,
        job: &input,
        folder: &settings,
        files: &files,
        scenario: &scenario,
    };
    let mut exit = EXIT_ERRORS;
    let ran = simulation::run_workflow(
        &request,
        &mut sources,
        &mut printer(&mut exit),
        |graph, run| {
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            let result = match args.format {
                SimulateFormat::Text => report::write_text(run, &mut out),
                SimulateFormat::Json => report::write_json(run, &mut out),
                SimulateFormat::Events => report::write_events(run, &mut out),
                SimulateFormat::Svg => report::write_svg(graph, run, &mut out),
            };
            // (A closed stdout, e.g. piped into `head`, ends the report quietly.)
            let _ = result.and_then(|()| out.flush());
        },
    );
    match ran {
        Ok(()) => EXIT_OK,
        Err(WorkflowNotRun::Refused) => exit,
        Err(WorkflowNotRun::Graph(problems)) => {
            let located = problems.into_iter().map(Located::in_app).collect();
            stopped(&sources, Stop::Problems(located))
        }
        Err(WorkflowNotRun::Scenario(problems)) => {
            scenario_problems(&scenario_name, &scenario_text, &problems)
        }
    }
}
