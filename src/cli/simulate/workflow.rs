//! `coordc simulate workflow.xml`: one workflow job run against a scenario
//! (`--scenario`, or every action ok), reported as a trace, JSON, events or
//! the graph.

use super::super::output::{printer, stopped, usage};
use super::super::{EXIT_ERRORS, EXIT_OK};
use super::{SimulateArgs, SimulateFormat, scenario_problems};
use crate::diag::Diagnostic;
use crate::diag::closest;
use crate::diag::rules::SIMULATE_SCENARIO;
use crate::interp::clock::millis;

use crate::interp::simulate::scenario::{DEFAULT_WORKFLOW_START, WorkflowScenario};
use crate::interp::workflow::graph::{Graph, Kind};
use crate::interp::workflow::report;
use crate::interp::workflow::run::{self, RunInput};
use crate::interp::workflow::script::{Scope, Script};
use crate::project::files::{Files, ReadError, read_source};
use crate::project::load::{LocalWorkflows, Sources, Stop};
use crate::project::simulation::{self, SubmittedWorkflows};
use crate::time::datetime::{ProcessingZone, parse_datetime};
use std::io::Write;
use std::path::Path;

/// The workflow `doc` read from `args.input` (file 0 of `sources`), run.
pub fn run(args: &SimulateArgs, doc: &crate::xml::Document, mut sources: Sources) -> i32 {
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
    let mut exit = EXIT_ERRORS;
    let loaded = simulation::workflow_to_run(
        doc,
        &args.input,
        &input,
        &settings,
        &mut sources,
        &mut printer(&mut exit),
    );
    let Some((wf, conf)) = loaded else {
        return exit;
    };
    let graph = match Graph::new(&wf) {
        Ok(graph) => graph,
        Err(problems) => {
            let located: Vec<_> = problems
                .into_iter()
                .map(crate::diag::Located::in_app)
                .collect();
            return stopped(&sources, Stop::Problems(located));
        }
    };
    let unknown = unknown_nodes(&graph, &scenario.script);
    if !unknown.is_empty() {
        return scenario_problems(&scenario_name, &scenario_text, &unknown);
    }
    let app_dir = args.input.parent().unwrap_or(Path::new("."));
    let sub_workflows = SubmittedWorkflows::new(
        LocalWorkflows::new(&settings.maps, app_dir.to_path_buf(), &files),
        &settings,
    );
    let run = run::run(
        &graph,
        &RunInput {
            conf: &conf,
            start: millis(scenario.start),
            script: &scenario.script,
            scope: Scope::default(),
            sub_workflows: &sub_workflows,
            pz: settings.processing_zone,
            id_sequence: 0,
        },
    );
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let result = match args.format {
        SimulateFormat::Text => report::write_text(&run, &mut out),
        SimulateFormat::Json => report::write_json(&run, &mut out),
        SimulateFormat::Events => report::write_events(&run, &mut out),
        SimulateFormat::Svg => report::write_svg(&graph, &run, &mut out),
    };
    // (A closed stdout, e.g. piped into `head`, ends the report quietly.)
    let _ = result.and_then(|()| out.flush());
    EXIT_OK
}

/// The `[[node]]` entries that name no action node of the workflow (when it
/// has no sub-workflow, whose own nodes they could name).
fn unknown_nodes(graph: &Graph, script: &Script) -> Vec<Diagnostic> {
    let actions: Vec<&str> = graph
        .nodes
        .iter()
        .filter(|n| matches!(n.kind, Kind::Action { .. }))
        .map(|n| n.name)
        .collect();
    let has_children = graph.nodes.iter().any(
        |n| matches!(&n.kind, Kind::Action { action, .. } if action.kind.name == "sub-workflow"),
    );
    if has_children {
        return Vec::new();
    }
    script
        .nodes
        .iter()
        .filter(|entry| !actions.contains(&entry.name.as_str()))
        .map(|entry| {
            let help = match closest(&entry.name, actions.iter().map(|a| a.to_string())) {
                Some(best) => format!("did you mean `{best}`?"),
                None => format!("its action nodes: {}", actions.join(", ")),
            };
            Diagnostic::error(
                SIMULATE_SCENARIO,
                entry.span,
                format!(
                    "this [[node]] names no action node of the workflow: `{}`",
                    entry.name
                ),
            )
            .with_help(help)
        })
        .collect()
}
