//! Hover: what the text under the cursor means to Oozie. A diagnostic's
//! rule; an EL function (signature, result, where it is legal, an example);
//! a variable (its value in the job and where it is defined); a dataset or
//! a data-in/data-out (its definition, and a data-in's instances in the
//! first action); a frequency, start or end (in words, with the first
//! nominal times); a cron frequency (the next times, in UTC and the job's
//! zone).

use super::cursor::{self, Cursor};
use super::job;
use super::session::{Document, Session};
use crate::el::library::{CONSTANTS, FUNCTIONS, FunctionDef, Place, Ty};
use crate::ir::{Coordinator, Dataset};
use crate::oozie::job::{Job, Schedule};
use crate::time::datetime::format_utc;
use std::fmt::Write;
use std::path::Path;

/// The markdown shown for the byte `offset` of the document at `path`,
/// and the byte range it is about.
pub(super) fn hover(
    session: &Session,
    path: &Path,
    offset: usize,
) -> Option<(String, usize, usize)> {
    let doc = session.documents.get(path)?;
    let text: &str = &doc.text;
    let at = cursor::at(text, offset);
    let mut parts = Vec::new();
    let mut range = (offset, offset);
    if let Some((markdown, start, end)) = rule(session, path, doc, offset) {
        parts.push(markdown);
        range = (start, end);
    }
    if let Some((markdown, start, end)) = value(session, path, text, &at, offset) {
        parts.push(markdown);
        range = (start, end);
    }
    (!parts.is_empty()).then(|| (parts.join("\n\n---\n\n"), range.0, range.1))
}

/// The rule of each diagnostic at `offset`.
fn rule(
    session: &Session,
    path: &Path,
    doc: &Document,
    offset: usize,
) -> Option<(String, usize, usize)> {
    let found = session.problems(path)?;
    let mut out = String::new();
    let mut range = None;
    for f in found {
        let d = &f.problem.diagnostic;
        if !std::sync::Arc::ptr_eq(f.text, &doc.text) {
            continue;
        }
        let (start, end) = (d.span.start as usize, d.span.end as usize);
        if offset < start || offset > end {
            continue;
        }
        let Some(rule) = crate::diag::rules::RULES.iter().find(|r| r.code == d.code) else {
            continue;
        };
        if !out.is_empty() {
            out.push('\n');
        }
        let oozie = rule
            .oozie
            .map(|c| format!(" (Oozie: {c})"))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "**{}** `{}`{oozie}: {} (`coordc explain {}` prints its page.)",
            rule.code, rule.name, rule.summary, rule.code
        );
        range.get_or_insert((start, end));
    }
    let (start, end) = range?;
    Some((out.trim_end().to_string(), start, end))
}

/// What the value under the cursor means.
fn value(
    session: &Session,
    path: &Path,
    text: &str,
    at: &Cursor,
    offset: usize,
) -> Option<(String, usize, usize)> {
    let value = at.value()?;
    let schedule_value = at.element() == Some("coordinator-app")
        && matches!(at.attribute(), Some("frequency" | "start" | "end"));
    let mut found = if let Some(expr) = cursor::expression_at(text, value, offset) {
        el(session, path, text, at, expr, offset)
    } else {
        let (start, end) = value;
        let written = text.get(start..end)?.trim();
        let markdown = match (at.element()?, at.attribute()) {
            ("data-in" | "data-out", Some("dataset")) => dataset(session, path, written),
            ("data-in", Some("name")) => event(session, path, "coord:dataIn", written),
            ("data-out", Some("name")) => event(session, path, "coord:dataOut", written),
            ("dataset", Some("name")) => dataset(session, path, written),
            _ => None,
        };
        markdown.map(|m| (m, start, end))
    };
    if schedule_value && let Some(reading) = schedule(session, path) {
        found = Some(match found {
            Some((markdown, start, end)) => (format!("{markdown}\n\n---\n\n{reading}"), start, end),
            None => (reading, value.0, value.1),
        });
    }
    found
}

/// What the word under the cursor in the EL expression `expr` is.
fn el(
    session: &Session,
    path: &Path,
    text: &str,
    at: &Cursor,
    expr: (usize, usize),
    offset: usize,
) -> Option<(String, usize, usize)> {
    if let Some((function, start, end)) = cursor::string_argument_at(text, expr, offset) {
        let name = &text[start..end];
        if let Some(markdown) = event(session, path, function, name) {
            return Some((markdown, start, end));
        }
    }
    let (start, end) = cursor::word_at(text, expr, offset)?;
    let word = &text[start..end];
    let called = text[end..].trim_start().starts_with('(');
    let markdown = if called {
        function(word, at.place())?
    } else {
        variable(session, path, word, at.place())?
    };
    Some((markdown, start, end))
}

/// An EL function: its signature, result, places and an example.
fn function(word: &str, place: Option<Place>) -> Option<String> {
    let defs: Vec<&FunctionDef> = FUNCTIONS
        .iter()
        .filter(|f| f.qualified_name() == word)
        .collect();
    let first = defs.first()?;
    let mut out = String::new();
    for f in &defs {
        let _ = writeln!(out, "```\n{}\n```", f.signature());
    }
    let _ = writeln!(out, "{}\n", first.doc);
    let _ = writeln!(out, "Returns {}.", article(first.ret));
    let mut places: Vec<&str> = defs
        .iter()
        .flat_map(|f| f.places.iter().map(|p| p.describe()))
        .collect();
    places.dedup();
    let _ = writeln!(out, "\nLegal in: {}.", places.join("; "));
    if let Some(place) = place
        && !defs.iter().any(|f| f.places.contains(&place))
    {
        let _ = writeln!(out, "\n**Not legal here** ({}).", place.describe());
    }
    let _ = write!(out, "\nExample: `${{{}}}`", example(first));
    Some(out)
}

fn article(ty: Ty) -> String {
    let name = ty.name();
    let vowel = name.starts_with(['a', 'e', 'i', 'o', 'u', 'A', 'E', 'I', 'O', 'U']);
    format!("{} `{name}`", if vowel { "an" } else { "a" })
}

/// A call of `f` with an argument of each parameter's type.
fn example(f: &FunctionDef) -> String {
    let args: Vec<String> = f
        .params
        .iter()
        .map(|t| match t {
            Ty::String => "'name'".to_string(),
            Ty::Boolean => "true".to_string(),
            _ => "1".to_string(),
        })
        .collect();
    format!("{}({})", f.qualified_name(), args.join(", "))
}

/// A variable: an EL constant, or a job property with its value and where it
/// is defined.
fn variable(session: &Session, path: &Path, word: &str, place: Option<Place>) -> Option<String> {
    if let Some(constant) = CONSTANTS.iter().find(|c| {
        c.name == word && place.is_none_or(|p| c.places.contains(&p) || c.in_library(p.library()))
    }) {
        return Some(format!(
            "`{}` (EL constant): {}",
            constant.name, constant.doc
        ));
    }
    let (vars, sources) = job::variables(session, path)?;
    let mut out = format!("`{word}`");
    match vars.get(word) {
        Some(Some(value)) => {
            let _ = write!(out, " = `{value}`");
        }
        Some(None) => {
            let _ = write!(out, " = null");
        }
        None => {
            let _ = write!(out, ": not defined by the job");
        }
    }
    if let Some((_, file, text, property)) = sources.property_definition(word) {
        let line = job::line_of(text, property.name_span);
        let name = Path::new(file)
            .file_name()
            .map_or(file.into(), |n| n.to_string_lossy());
        let _ = write!(out, "\n\nDefined in {name}:{line}");
    }
    Some(out)
}

/// A dataset's definition.
fn dataset(session: &Session, path: &Path, name: &str) -> Option<String> {
    job::with_coordinator(session, path, |app, included, _| {
        find_dataset(app, included, name).map(describe_dataset)
    })
    .flatten()
}

fn find_dataset<'a>(
    app: &'a Coordinator,
    included: &'a [Dataset],
    name: &str,
) -> Option<&'a Dataset> {
    // (The application's own definition wins over an included one.)
    app.datasets
        .iter()
        .chain(included)
        .find(|d| d.name.name == name)
}

fn describe_dataset(d: &Dataset) -> String {
    let mut out = format!(
        "dataset `{}`\n\n| | |\n|---|---|\n| frequency | `{}` |\n| initial-instance | `{}` |\n| timezone | `{}` |\n| uri-template | `{}` |",
        d.name.name,
        d.frequency.text(),
        d.initial_instance.text(),
        d.timezone.text(),
        d.uri_template.text()
    );
    if let Some(flag) = &d.done_flag {
        let _ = write!(out, "\n| done-flag | `{}` |", flag.text());
    }
    out
}

/// A data-in (or data-out): its dataset, and the instances the first
/// action resolves.
fn event(session: &Session, path: &Path, function: &str, name: &str) -> Option<String> {
    let input = function.starts_with("coord:dataIn");
    let output = function.starts_with("coord:dataOut");
    if !input && !output {
        return None;
    }
    job::with_coordinator(session, path, |app, included, job| {
        let dataset_name = if input {
            app.inputs
                .iter()
                .find(|e| e.name.name == name)
                .map(|e| &e.dataset.name)
        } else {
            app.outputs
                .iter()
                .find(|e| e.name.name == name)
                .map(|e| &e.dataset.name)
        }?;
        let kind = if input { "data-in" } else { "data-out" };
        let mut out = format!("{kind} `{name}` of dataset `{dataset_name}`");
        if let Some(d) = find_dataset(app, included, dataset_name) {
            let _ = write!(out, "\n\n{}", describe_dataset(d));
        }
        if let Some(first) = job.and_then(|j| j.actions().next()).and_then(Result::ok) {
            let events = if input { &first.inputs } else { &first.outputs };
            if let Some(event) = events.iter().find(|e| e.name == name) {
                let _ = write!(
                    out,
                    "\n\nIn the first action ({}):",
                    format_utc(first.nominal)
                );
                for uri in event.uris.iter().chain(&event.unresolved).take(MAX_LISTED) {
                    let _ = write!(out, "\n- `{uri}`");
                }
                let more = (event.uris.len() + event.unresolved.len()).saturating_sub(MAX_LISTED);
                if more > 0 {
                    let _ = write!(out, "\n- … and {more} more");
                }
            }
        }
        Some(out)
    })
    .flatten()
}

/// How many instances a hover lists.
const MAX_LISTED: usize = 24;

/// The job's schedule in words, with its first nominal times (the next
/// cron times in UTC and the job's zone).
fn schedule(session: &Session, path: &Path) -> Option<String> {
    job::with_coordinator(session, path, |_, _, job| job.map(describe_schedule)).flatten()
}

fn describe_schedule(job: &Job) -> String {
    let zone = job.zone.id();
    let (reading, count) = match job.schedule() {
        Schedule::Every(f) => {
            let unit = f.unit.name();
            let plural = if f.count == 1 { "" } else { "s" };
            let end_of = if f.end_of {
                format!(", at the end of each {unit} in {zone}")
            } else {
                String::new()
            };
            (format!("every {} {unit}{plural}{end_of}", f.count), 3)
        }
        Schedule::Cron(cron) => (
            format!("at the times of the cron `{}` in {zone}", cron.text()),
            5,
        ),
    };
    let mut out = format!(
        "Runs {reading}, from {} to {} (end excluded).\n\nFirst nominal times:",
        format_utc(job.start),
        format_utc(job.end)
    );
    for t in job.nominal_times_all().take(count) {
        let local = job.zone.local(t).format("%Y-%m-%d %H:%M");
        let _ = write!(out, "\n- {} ({local} {zone})", format_utc(t));
    }
    out
}
