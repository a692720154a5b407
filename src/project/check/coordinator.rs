//! A coordinator checked: its values, datasets, instances, parameters and
//! the submission of its job, with its first action materialized.

use super::document::unloaded_as_checked;
use super::el::{
    GIVE_CONFIGURATION, check_el, free_variables, needed_note, unconfigured_parameters,
};
use super::runs::WorkflowRun;
use crate::check::el::findings;
use crate::check::pipeline::AppEvents;
use crate::diag::FileRef;
use crate::diag::Located;
use crate::diag::rules::{EL_UNKNOWN_VARIABLE, TIME_DATETIME};
use crate::el::library::Library;
use crate::ir::{self, ElText};
use crate::oozie::job::{self, Options};
use crate::oozie::{parameters, places};
use crate::project::load::{self, JobInput, Sources};
use crate::project::locate::AppKind;
use crate::xml;
use rustc_hash::FxHashSet;
use std::path::Path;
use std::sync::Arc;

/// A coordinator's problems, and its events when it could be submitted; or
/// why its configuration could not be read.
pub(super) fn coordinator(
    doc: &xml::Document,
    path: &Path,
    input: &JobInput,
    sources: &mut Sources,
) -> Result<CheckedCoordinator, String> {
    let mut loaded = match unloaded_as_checked(load::coordinator(doc, path, input, sources)) {
        Ok(loaded) => loaded,
        Err(checked) => return checked.map(|(problems, events)| (problems, events, Vec::new())),
    };
    let mut events = None;
    let mut runs = Vec::new();
    let app = &loaded.app;
    let mut texts: Vec<(FileRef, &ElText)> = places::placed_texts(app, &loaded.included)
        .into_iter()
        .map(|(file, text, _)| (file, text))
        .collect();
    texts.push((FileRef::App, &app.frequency));
    texts.extend(app.datasets.iter().map(|d| (d.file, &d.frequency)));
    texts.extend(loaded.included.iter().map(|d| (d.file, &d.frequency)));
    texts.extend(app.includes.iter().map(|t| (FileRef::App, t)));
    let controls = &app.controls;
    texts.extend(
        [
            &controls.timeout,
            &controls.concurrency,
            &controls.execution,
            &controls.throttle,
        ]
        .into_iter()
        .flatten()
        .map(|t| (FileRef::App, t)),
    );
    let mut problems = loaded.include_problems.clone();
    problems.extend(crate::check::datasets::check(app, &loaded.included));
    problems.extend(crate::check::instances::check(app));
    let mut needed = free_variables(
        texts.iter().map(|(_, t)| *t),
        Library::Coordinator,
        &loaded.vars,
    );
    let evaluable = needed.is_empty();
    // (Parameters without a default are names the job must define, read or
    // not; one nothing reads stops no evaluation.)
    needed.extend(
        parameters::missing(&app.parameters, &loaded.vars)
            .into_iter()
            .map(str::to_string),
    );
    if loaded.configured {
        problems.extend(loaded.parameter_problems.iter().cloned());
    } else {
        problems.extend(unconfigured_parameters(&loaded.parameter_problems));
    }
    // Without a configuration, the names the job must define are a note,
    // and a value that reads one is not evaluated; every other value is.
    let unconfigured_note = (!loaded.configured && !needed.is_empty()).then(|| {
        needed_note(
            app.name_span,
            "the job",
            needed.iter().map(String::as_str),
            &format!("{GIVE_CONFIGURATION} to check the values that read them"),
        )
    });
    // A declared parameter the job does not give is CO004, not an unknown name.
    let known: FxHashSet<&str> = loaded
        .vars
        .keys()
        .map(String::as_str)
        .chain(app.parameters.iter().map(|p| p.name.name.as_str()))
        .collect();
    problems.extend(check_el(
        texts.iter().copied(),
        Library::Coordinator,
        loaded.configured.then_some(&known),
    ));
    let options = Options {
        includes_incomplete: !loaded.include_problems.is_empty(),
        ..Options::first_action(
            input.processing_zone,
            input.check_maximum_frequency,
            input.cron_max_year,
        )
    };
    match job::prepare(app, &loaded.included, &loaded.vars, &options) {
        // The first action's materialization, as `oozie job -dryrun` runs it.
        Ok(job) => {
            problems.extend(job.warnings.iter().cloned());
            problems.extend(crate::check::schedule::check(app, &job));
            problems.extend(crate::check::zones::check(app, &job));
            problems.extend(crate::check::cron::check(app, &job));
            let first = job.actions().next();
            let first_action = first.as_ref().and_then(|a| a.as_ref().ok());
            problems.extend(crate::check::data::check(app, &job, first_action));
            // (Named as `read_application` names file 0.)
            let file = Arc::from(path.to_string_lossy());
            events = Some(AppEvents::of(app, &job, file));
            runs.extend(workflow_run(path, first_action, input));
            if let Some(Err(d)) = first {
                problems.push(Located::in_app(d));
            }
        }
        Err(more) => problems.extend(more),
    }
    if let Some(note) = unconfigured_note {
        // (What failed on an undefined name is in the note; what an
        // evaluation could not reach for lack of it is not reported.)
        problems.retain(|p| p.diagnostic.code != EL_UNKNOWN_VARIABLE);
        problems.push(note);
        if !evaluable {
            events = None;
        }
    }
    // A parameter the job does not give (CO004) is not reported again where
    // the evaluation reads it.
    let missing: FxHashSet<&str> = parameters::missing(&app.parameters, &loaded.vars)
        .into_iter()
        .collect();
    let source = sources.application();
    problems.retain(|p| {
        let span = p.diagnostic.span;
        !(p.file == FileRef::App
            && p.diagnostic.code == EL_UNKNOWN_VARIABLE
            && source
                .get(span.start as usize..span.end as usize)
                .is_some_and(|name| missing.contains(name)))
    });
    where_start_and_end_are_set(app, sources, &mut problems);
    if !runs.is_empty() {
        let vars = Arc::new(std::mem::take(&mut loaded.vars));
        for run in &mut runs {
            run.job = Arc::clone(&vars);
        }
    }
    Ok((problems, events, runs))
}

/// The end-before-start error (TM001 at the end) says where the
/// properties its values read are set: `start` at job.properties:2.
fn where_start_and_end_are_set(app: &ir::Coordinator, sources: &Sources, problems: &mut [Located]) {
    let Some(problem) = problems.iter_mut().find(|p| {
        p.file == FileRef::App
            && p.diagnostic.code == TIME_DATETIME
            && p.diagnostic.span == app.end.span
            && p.diagnostic
                .message
                .starts_with("the end must be after the start")
    }) else {
        return;
    };
    let mut places = Vec::new();
    for text in [&app.start, &app.end] {
        for (name, _) in &findings(text.shared(), Library::Coordinator).variables {
            let Some((file, file_name, _, property)) = sources.property_definition(name) else {
                continue;
            };
            let (line, _) = sources.line_column(file, property.name_span.start as usize);
            let place = format!("`{name}` is set at {file_name}:{line}");
            if !places.contains(&place) {
                places.push(place);
            }
        }
    }
    if !places.is_empty() {
        let help = problem.diagnostic.help.take().unwrap_or_default();
        problem.diagnostic.help = Some(format!("{help} ({})", places.join(", ")));
    }
}

/// A coordinator's problems, its events when it could be submitted, and
/// the local workflows its actions run.
type CheckedCoordinator = (Vec<Located>, Option<AppEvents>, Vec<WorkflowRun>);

/// The local workflow a coordinator's actions run, with the configuration
/// its first action gives it; none when its application path is not
/// local (or not resolved).
fn workflow_run(
    path: &Path,
    first: Option<&crate::oozie::action::Action>,
    input: &JobInput,
) -> Option<WorkflowRun> {
    let first = first?;
    let mut given: Vec<(String, String)> = first
        .configuration
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    // The action's app-path is the workflow job's application path
    // (CoordActionStartXCommand.java:153-161).
    given.push((
        AppKind::Workflow.path_property().to_string(),
        first.app_path.to_string(),
    ));
    Some(WorkflowRun {
        app_path: first.app_path.trim().to_string(),
        maps: input.maps.to_vec(),
        submitter: path.to_path_buf(),
        // (The job's variables are attached once the job is done with them.)
        job: Arc::default(),
        given,
    })
}
