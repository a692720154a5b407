//! A dry run's actions as JSON, as `coordc dryrun --format json` writes
//! them: for the listing, and for what `coordc export airflow --verify`
//! compares an exported DAG with.

use crate::diag::Diagnostic;
use crate::oozie::action::{Action, Event};
use crate::oozie::job::Job;
use crate::time::datetime::format_utc;
use std::io::Write;

/// The JSON listing (`coordc dryrun --format json`) of `actions` of `job`.
pub(super) fn write_json_of<'a>(
    job: &Job<'a>,
    actions: impl Iterator<Item = Result<Action<'a>, Diagnostic>>,
    out: &mut impl Write,
) -> std::io::Result<Option<Diagnostic>> {
    write!(
        out,
        "{{\"app\": {}, \"actions\": [",
        serde_json::to_string(&job.name)?
    )?;
    let failure = write_json_actions(actions.map(|a| (None, a)), out)?;
    writeln!(out, "\n]}}")?;
    Ok(failure)
}

/// Writes `actions` as the elements of a JSON array, one a line, each with
/// its coordinator's name when it has one, until one fails: that failure.
pub(super) fn write_json_actions<'a, F>(
    actions: impl Iterator<Item = (Option<&'a str>, Result<Action<'a>, F>)>,
    out: &mut impl Write,
) -> std::io::Result<Option<F>> {
    // sonic-rs escapes strings with SIMD: a dry run writes hundreds of MB of URIs.
    let mut buffer = Vec::with_capacity(64 * 1024);
    for (i, (coordinator, action)) in actions.enumerate() {
        let action = match action {
            Ok(a) => a,
            Err(failure) => {
                out.write_all(&buffer)?;
                return Ok(Some(failure));
            }
        };
        if i > 0 {
            buffer.push(b',');
        }
        buffer.push(b'\n');
        sonic_rs::to_writer(
            &mut buffer,
            &ActionJson {
                action: &action,
                coordinator,
            },
        )
        .map_err(std::io::Error::other)?;
        // Written in large pieces, which pass the writer's own buffer by.
        if buffer.len() >= 60 * 1024 {
            out.write_all(&buffer)?;
            buffer.clear();
        }
    }
    out.write_all(&buffer)?;
    Ok(None)
}

/// An action as the JSON object of the output, serialized straight to the
/// writer (no intermediate value tree); in a bundle, with its coordinator's
/// name first.
struct ActionJson<'a> {
    action: &'a Action<'a>,
    coordinator: Option<&'a str>,
}

/// Events as `{"name": [uris...]}` in document order; with `unresolved`, the
/// events' unresolved calls instead, for the events that have some.
struct EventsJson<'a> {
    events: &'a [Event<'a>],
    unresolved: bool,
}

impl serde::Serialize for EventsJson<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let entries = self.events.iter().filter_map(|e| match self.unresolved {
            false => Some((&e.name, &e.uris)),
            true => (!e.unresolved.is_empty()).then_some((&e.name, &e.unresolved)),
        });
        serializer.collect_map(entries)
    }
}

impl serde::Serialize for ActionJson<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let action = self.action;
        let pending = action.inputs.iter().any(|e| !e.unresolved.is_empty());
        let mut map = serializer.serialize_map(None)?;
        if let Some(name) = self.coordinator {
            map.serialize_entry("coordinator", name)?;
        }
        map.serialize_entry("number", &action.number)?;
        map.serialize_entry("nominal_time", &format_utc(action.nominal))?;
        map.serialize_entry(
            "inputs",
            &EventsJson {
                events: &action.inputs,
                unresolved: false,
            },
        )?;
        map.serialize_entry(
            "outputs",
            &EventsJson {
                events: &action.outputs,
                unresolved: false,
            },
        )?;
        if let Some(condition) = &action.input_logic {
            map.serialize_entry("input_logic", condition)?;
        }
        map.serialize_entry("workflow", &WorkflowJson(action))?;
        if !action.sla.is_empty() {
            map.serialize_entry("sla", &Pairs(&action.sla))?;
        }
        if pending {
            map.serialize_entry(
                "unresolved",
                &EventsJson {
                    events: &action.inputs,
                    unresolved: true,
                },
            )?;
        }
        map.end()
    }
}

struct WorkflowJson<'a>(&'a Action<'a>);

/// `(name, value)` pairs as a JSON object, in order.
struct Pairs<'a, K, V>(&'a [(K, V)]);

impl<K: serde::Serialize, V: serde::Serialize> serde::Serialize for Pairs<'_, K, V> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

impl serde::Serialize for WorkflowJson<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("app_path", &self.0.app_path)?;
        map.serialize_entry("configuration", &Pairs(&self.0.configuration))?;
        map.end()
    }
}
