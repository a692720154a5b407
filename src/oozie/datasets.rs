//! The datasets' submission: how CoordSubmitXCommand reads the datasets of
//! a job, embedded or included (CoordSubmitXCommand.java:993-1030, 1143-1148):
//! each one's frequency, initial-instance, zone and uri-template (its first
//! phase) into a [`JobDataset`], every problem reported; a name defined
//! twice across the included files; an event naming no dataset. [`prepare`]
//! (`job.rs`) reads a coordinator's through it, and a datasets file checked
//! on its own goes through it too ([`dataset_problems`], [`included_by_name`]).
//!
//! [`prepare`]: crate::oozie::job::prepare

use crate::diag::rules::{
    DUPLICATE_DATASET, EL_EVAL, TIME_DATETIME, TIME_FREQUENCY, UNDEFINED_DATASET,
};
use crate::diag::{Diagnostic, FileRef, Located};
use crate::el::eval::Variables;
use crate::el::frequency::{LoweredFrequency, lower_frequency};
use crate::el::{VarMap, parse_template};
use crate::ir::Dataset;
use crate::oozie::job::{ECHO_CONSTANTS, Layered, application_datetime, lowered, render, zone};
use crate::oozie::uri_template::{SecondPhase, fields_only};
use crate::time::datetime::ProcessingZone;
use crate::time::frequency::Frequency;
use crate::time::instance::DatasetClock;
use chrono::Datelike;
use rustc_hash::FxHashMap;
use std::borrow::Cow;

/// A dataset as submitted: its instance clock and its uri-template.
pub(super) struct JobDataset<'a> {
    pub(super) dataset: &'a Dataset,
    pub(super) clock: DatasetClock,
    /// The uri-template after the submission phase, as text, and ready for
    /// the second.
    pub(super) submitted: Cow<'a, str>,
    pub(super) uri: SecondPhase,
}

/// Included datasets by name: Oozie reads the included files' datasets into
/// one list and refuses a name twice, within a file or across files
/// (CoordSubmitXCommand.java:1143-1148, E0803).
pub(crate) fn included_by_name<'a>(
    included: &'a [Dataset],
    problems: &mut Vec<Located>,
) -> FxHashMap<&'a str, &'a Dataset> {
    let mut by_name: FxHashMap<&str, &Dataset> = FxHashMap::default();
    for dataset in included {
        if let Some(first) = by_name.insert(&dataset.name.name, dataset) {
            let mut diagnostic = Diagnostic::error(
                DUPLICATE_DATASET,
                dataset.name.span,
                format!(
                    "Duplicate Dataset {}: included files may not define a dataset twice (E0803)",
                    dataset.name.name
                ),
            );
            // (The application is the file checked: a datasets file checked
            // on its own.)
            diagnostic = match first.file {
                f if f == dataset.file => {
                    diagnostic.with_label(first.name.span, "first defined here")
                }
                FileRef::App | FileRef::CommandLine => diagnostic
                    .with_help("the first definition is in the file that includes this one"),
                FileRef::Read(f) => {
                    diagnostic.with_help(format!("the first definition is in included file #{f}"))
                }
            };
            problems.push(Located {
                file: dataset.file,
                diagnostic,
            });
        }
    }
    by_name
}

/// Every problem submission finds in one dataset, as it reads every
/// dataset of the application and of its included files (CoordSubmitXCommand.java:1009-1030):
/// frequency, initial-instance, zone, uri-template (its job properties and
/// the `${YEAR}`... constants), with its warnings (TM004).
pub(crate) fn dataset_problems(
    dataset: &Dataset,
    vars: &VarMap,
    pz: ProcessingZone,
) -> Vec<Located> {
    let submit_vars = Layered {
        first: ECHO_CONSTANTS,
        base: vars,
    };
    let mut found = Vec::new();
    if let Err(mut problems) = prepare_dataset(dataset, vars, &submit_vars, pz, &mut found) {
        found.append(&mut problems);
    }
    found
}

/// A dataset's frequency as submission reads it (CoordSubmitXCommand.java:1015-1017): an integer
/// (a frequency function, or minutes), not cron, greater than zero
/// (`ParamChecker.checkGTZero`, ParamChecker.java:136-142).
pub(crate) fn dataset_frequency(dataset: &Dataset, vars: &VarMap) -> Result<Frequency, Diagnostic> {
    match lowered(&dataset.frequency, |t| lower_frequency(t, vars))? {
        LoweredFrequency::Every(f) if f.count > 0 => Ok(f),
        LoweredFrequency::Every(f) => Err(Diagnostic::error(
            TIME_FREQUENCY,
            dataset.frequency.span,
            format!(
                "parameter [frequency] = [{}] must be greater than zero (E1003)",
                f.count
            ),
        )
        .with_help(
            "a dataset frequency is how often an instance is produced, e.g. ${coord:hours(1)}",
        )),
        LoweredFrequency::Cron(_) => Err(Diagnostic::error(
            TIME_FREQUENCY,
            dataset.frequency.span,
            "a dataset frequency must be an integer or a frequency function, not cron (E1003)",
        )),
    }
}

pub(super) fn prepare_dataset<'a>(
    dataset: &'a Dataset,
    vars: &VarMap,
    submit_vars: &dyn Variables,
    pz: ProcessingZone,
    warnings: &mut Vec<Located>,
) -> Result<JobDataset<'a>, Vec<Located>> {
    let mut problems = Vec::new();
    let mut problem = |d: Diagnostic| {
        problems.push(Located {
            file: dataset.file,
            diagnostic: d,
        })
    };
    let frequency = dataset_frequency(dataset, vars).map_err(&mut problem).ok();
    let initial = render(&dataset.initial_instance, vars, None, pz)
        .and_then(|s| {
            application_datetime(&dataset.initial_instance, &s, pz, dataset.file, warnings)
        })
        .and_then(|t| {
            if t.year() < 1970 {
                Err(Diagnostic::error(
                    TIME_DATETIME,
                    dataset.initial_instance.span,
                    "the initial instance must not be before 1970-01-01T00:00Z (E1021)",
                ))
            } else {
                Ok(t)
            }
        })
        .map_err(&mut problem)
        .ok();
    let zone = render(&dataset.timezone, submit_vars, None, pz)
        .and_then(|s| zone(&dataset.timezone, &s))
        .map_err(&mut problem)
        .ok();
    // The submission phase: job properties in, the ${YEAR}... constants kept.
    let span = dataset.uri_template.span;
    let uri = render(&dataset.uri_template, submit_vars, None, pz)
        .and_then(|phase_one| {
            let second = match fields_only(&phase_one) {
                Some(pieces) => SecondPhase::Fields(pieces),
                None => {
                    let template = parse_template(&phase_one, 0).map_err(|mut d| {
                        d.span = span;
                        d
                    })?;
                    SecondPhase::Template(Box::new(template))
                }
            };
            Ok((phase_one, second))
        })
        .map_err(&mut problem)
        .ok();
    let (Some(frequency), Some(initial), Some(zone), Some((submitted, uri))) =
        (frequency, initial, zone, uri)
    else {
        return Err(problems);
    };
    let clock = DatasetClock::new(initial, frequency, zone).map_err(|e| {
        vec![Located {
            file: dataset.file,
            diagnostic: Diagnostic::error(EL_EVAL, dataset.initial_instance.span, e.to_string()),
        }]
    })?;
    Ok(JobDataset {
        dataset,
        clock,
        submitted,
        uri,
    })
}

/// An event's `dataset` names no dataset of the application or its
/// includes (CoordSubmitXCommand.java:627-662 at release-5.2.1, E0803); the
/// closest name is suggested, and offered as a fix where the name is written
/// as it is.
pub(super) fn undefined_dataset(
    event: &crate::ir::Name,
    by_name: &FxHashMap<&str, &Dataset>,
) -> Diagnostic {
    let d = Diagnostic::error(
        UNDEFINED_DATASET,
        event.span,
        format!("undefined dataset: {} (E0803)", event.name),
    );
    let mut names: Vec<&str> = by_name.keys().copied().collect();
    names.sort_unstable();
    match crate::diag::closest(&event.name, names.iter().map(|n| n.to_string())) {
        Some(best) => {
            let d = d.with_help(format!("did you mean `{best}`?"));
            if event.span.range().len() == event.name.len() {
                d.with_fix(
                    crate::diag::fixes::FixKind::DatasetDidYouMean,
                    event.span,
                    best,
                )
            } else {
                d
            }
        }
        None if names.is_empty() => {
            d.with_help("define it in <datasets>, or include a file that defines it")
        }
        None => {
            let shown = names.iter().take(8).copied().collect::<Vec<_>>().join(", ");
            let more = if names.len() > 8 { ", ..." } else { "" };
            d.with_help(format!(
                "define it in <datasets>, or include a file that defines it (the datasets: {shown}{more})"
            ))
        }
    }
}
