//! Pipelines across the coordinators checked together: an application that
//! writes a dataset (a data-out) feeds every application that reads a dataset
//! with the same uri-template (a data-in), as Oozie's dependency checks see
//! them — by URI, whatever each application names its dataset. On that graph:
//! cycles, inputs no given application produces, a consumer whose dataset
//! definition disagrees with the producer's, and outputs two applications
//! both write. Oozie checks none of this: each job is submitted alone.

use super::rules::{DATA_SHARED_OUTPUT, PIPELINE_CYCLE, PIPELINE_MISALIGNED, PIPELINE_UNPRODUCED};
use crate::diag::Diagnostic;
use crate::el::VarMap;
use crate::interp::dryrun::{Job, submit_text};
use crate::ir::Coordinator;
use crate::span::Span;
use crate::time::datetime::ProcessingZone;
use crate::time::frequency::{Frequency, FrequencyUnit};
use crate::time::zone::Zone;
use chrono::{DateTime, Datelike, Utc};
use std::collections::HashMap;

/// What the pipeline checks need of one coordinator.
pub struct AppEvents {
    pub name: String,
    pub inputs: Vec<Event>,
    pub outputs: Vec<Event>,
}

/// A data-in or data-out, with its dataset as the job submitted it.
pub struct Event {
    pub name: String,
    /// The event's element, in the application file.
    pub span: Span,
    pub dataset: DatasetFacts,
}

#[derive(Clone)]
pub struct DatasetFacts {
    pub name: String,
    /// The uri-template after the submission phase: job properties replaced,
    /// `${YEAR}`... kept. Two datasets with the same one are the same data.
    pub uri: String,
    pub frequency: Frequency,
    pub initial: DateTime<Utc>,
    pub zone: Zone,
}

impl AppEvents {
    pub fn of(app: &Coordinator, job: &Job, vars: &VarMap, pz: ProcessingZone) -> AppEvents {
        let event = |name: &str, span: Span, dataset: &str| -> Option<Event> {
            let (definition, clock) = job.dataset(dataset)?;
            let uri = submit_text(&definition.uri_template, vars, pz).ok()?;
            Some(Event {
                name: name.to_string(),
                span,
                dataset: DatasetFacts {
                    name: definition.name.name.clone(),
                    uri: uri.trim().to_string(),
                    frequency: clock.frequency,
                    initial: clock.initial,
                    zone: clock.zone.clone(),
                },
            })
        };
        AppEvents {
            name: job.name.clone(),
            inputs: app
                .inputs
                .iter()
                .filter_map(|d| event(&d.name.name, d.span, &d.dataset.name))
                .collect(),
            outputs: app
                .outputs
                .iter()
                .filter_map(|d| event(&d.name.name, d.span, &d.dataset.name))
                .collect(),
        }
    }
}

/// The pipeline problems of `apps` (the coordinators of one check, `None`
/// for files that are not one or could not be submitted), each with the
/// index of the application it is in.
pub fn check(apps: &[Option<&AppEvents>]) -> Vec<(usize, Diagnostic)> {
    let given: Vec<(usize, &AppEvents)> = apps
        .iter()
        .enumerate()
        .filter_map(|(i, a)| a.map(|a| (i, a)))
        .collect();
    let mut out = Vec::new();
    if given.len() < 2 {
        return out;
    }
    // Who writes each URI.
    let mut writers: HashMap<&str, Vec<(usize, &Event)>> = HashMap::new();
    for &(i, app) in &given {
        for output in &app.outputs {
            writers
                .entry(&output.dataset.uri)
                .or_default()
                .push((i, output));
        }
    }
    let name_of = |i: usize| {
        given
            .iter()
            .find(|(j, _)| *j == i)
            .map_or("", |(_, a)| a.name.as_str())
    };
    for list in writers.values().filter(|l| l.len() > 1) {
        for &(i, output) in list {
            let others: Vec<String> = list
                .iter()
                .filter(|(j, _)| *j != i)
                .map(|(j, e)| format!("`{}` (data-out `{}`)", name_of(*j), e.name))
                .collect();
            out.push((
                i,
                Diagnostic::warning(
                    DATA_SHARED_OUTPUT,
                    output.span,
                    format!(
                        "`{}` writes `{}`, and so does {}: the applications overwrite each other's instances",
                        name_of(i),
                        output.dataset.uri,
                        others.join(", ")
                    ),
                )
                .with_help("give each application its own output location, or make one of them the only writer"),
            ));
        }
    }
    // Edges producer -> consumer, found by URI, with the data-in they go to.
    let mut feeds: HashMap<usize, Vec<(usize, &Event)>> = HashMap::new();
    for &(consumer, app) in &given {
        for input in &app.inputs {
            let Some(producers) = writers.get(input.dataset.uri.as_str()) else {
                out.push((
                    consumer,
                    Diagnostic::note(
                        PIPELINE_UNPRODUCED,
                        input.span,
                        format!(
                            "no application checked here writes `{}` (data-in `{}`): it must come from elsewhere",
                            input.dataset.uri, input.name
                        ),
                    ),
                ));
                continue;
            };
            for &(producer, output) in producers {
                if producer == consumer {
                    continue;
                }
                feeds.entry(producer).or_default().push((consumer, input));
                if let Some(d) = misaligned(input, output, name_of(producer)) {
                    out.push((consumer, d));
                }
            }
        }
    }
    out.extend(cycles(&given, &feeds, &name_of));
    out
}

/// The consumer's definition of a dataset against the producer's.
fn misaligned(input: &Event, output: &Event, producer: &str) -> Option<Diagnostic> {
    let (mine, theirs) = (&input.dataset, &output.dataset);
    let describe = |d: &DatasetFacts| {
        format!(
            "every {} from {} in {}",
            frequency_text(&d.frequency),
            d.initial.format("%Y-%m-%dT%H:%MZ"),
            d.zone.id()
        )
    };
    let same_grid = mine.frequency == theirs.frequency
        && mine.zone.id() == theirs.zone.id()
        && on_grid(theirs, mine.initial);
    (!same_grid).then(|| {
            Diagnostic::warning(
                PIPELINE_MISALIGNED,
                input.span,
                format!(
                    "`{}` reads `{}` as {}, but `{producer}` writes it as {}: the instances this application waits for are not the ones produced",
                    input.name,
                    mine.uri,
                    describe(mine),
                    describe(theirs)
                ),
            )
            .with_help("define the dataset once (a shared <include> file) so producer and consumer agree")
        })
}

/// Whether `t` is an instance time of `dataset`'s clock (before or after its
/// initial instance): the same minute of the period for minutes, the same
/// wall time (and day of the month, for months) in its zone for calendar units.
fn on_grid(dataset: &DatasetFacts, t: DateTime<Utc>) -> bool {
    let f = &dataset.frequency;
    match f.unit {
        FrequencyUnit::Minute => (t - dataset.initial).num_minutes() % f.count == 0,
        unit => {
            let (a, b) = (dataset.zone.local(dataset.initial), dataset.zone.local(t));
            a.time() == b.time() && (unit != FrequencyUnit::Month || a.day() == b.day())
        }
    }
}

fn frequency_text(f: &Frequency) -> String {
    let unit = match f.unit {
        FrequencyUnit::Minute => "minute",
        FrequencyUnit::Day => "day",
        FrequencyUnit::Week => "week",
        FrequencyUnit::Month => "month",
    };
    let end = if f.end_of { " (end of)" } else { "" };
    match f.count {
        1 => format!("{unit}{end}"),
        n => format!("{n} {unit}s{end}"),
    }
}

/// Each cycle of the producer -> consumer graph once, reported at the data-in
/// that closes it in the application that comes first in the check.
fn cycles<'a>(
    given: &[(usize, &AppEvents)],
    feeds: &HashMap<usize, Vec<(usize, &'a Event)>>,
    name_of: &dyn Fn(usize) -> &'a str,
) -> Vec<(usize, Diagnostic)> {
    let mut out = Vec::new();
    let mut reported: Vec<Vec<usize>> = Vec::new();
    for &(start, _) in given {
        // Depth-first from `start`, looking for a path back to it.
        let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
        let mut path: Vec<(usize, Option<&Event>)> = vec![(start, None)];
        while let Some(&mut (node, ref mut next)) = stack.last_mut() {
            let edges = feeds.get(&node).map_or(&[][..], Vec::as_slice);
            let Some(&(to, input)) = edges.get(*next) else {
                stack.pop();
                path.pop();
                continue;
            };
            *next += 1;
            if to == start {
                let mut members: Vec<usize> = path.iter().map(|(n, _)| *n).collect();
                members.sort_unstable();
                if !reported.contains(&members) {
                    reported.push(members);
                    let names: Vec<&str> = path
                        .iter()
                        .map(|(n, _)| name_of(*n))
                        .chain([name_of(start)])
                        .collect();
                    out.push((
                        start,
                        Diagnostic::warning(
                            PIPELINE_CYCLE,
                            input.span,
                            format!(
                                "the applications feed each other in a cycle: {}",
                                names.join(" -> ")
                            ),
                        )
                        .with_help("a cycle waits forever unless one side reads an earlier instance (coord:current(-1)); check that one does"),
                    ));
                }
                continue;
            }
            if path.iter().all(|(n, _)| *n != to) {
                stack.push((to, 0));
                path.push((to, Some(input)));
            }
        }
    }
    out
}
