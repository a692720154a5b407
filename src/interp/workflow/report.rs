//! A workflow run, written: JSON (the run and each node, with its resolved
//! definition and why it went where it went), an indented text trace, JSON
//! lines per node event, and the graph as SVG with the path taken.

use super::graph::{Graph, Kind};
use super::run::{NodeRun, NodeStatus, Predicate, Resolved, Run, Why};
use crate::interp::clock::{Millis, time_text};
use crate::interp::markup::escape;

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use std::io::{self, Write};

/// A run as JSON (`--format json`, and a coordinator action's `workflow`).
pub(crate) struct RunJson<'a>(pub &'a Run);

impl Serialize for RunJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let run = self.0;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("id", &run.id)?;
        map.serialize_entry("name", &run.name)?;
        map.serialize_entry("app_path", &run.app_path)?;
        map.serialize_entry("status", run.status.name())?;
        map.serialize_entry("started", &time_text(run.started))?;
        map.serialize_entry("ended", &run.ended.map(time_text))?;
        map.serialize_entry("end_node", &run.end_node)?;
        map.serialize_entry("error_code", &run.error_code)?;
        map.serialize_entry("error_message", &run.error_message)?;
        map.serialize_entry("kill_message", &run.kill_message)?;
        let nodes: Vec<NodeJson> = run.nodes.iter().map(NodeJson).collect();
        map.serialize_entry("nodes", &nodes)?;
        map.end()
    }
}

struct NodeJson<'a>(&'a NodeRun);

impl Serialize for NodeJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let n = self.0;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("name", &n.name)?;
        map.serialize_entry("type", n.type_name)?;
        map.serialize_entry("started", &time_text(n.started))?;
        map.serialize_entry("ended", &n.ended.map(time_text))?;
        map.serialize_entry("status", n.status.name())?;
        map.serialize_entry("transition", &n.transition)?;
        map.serialize_entry("retries", &n.retries)?;
        let failed = n.status != NodeStatus::Ok;
        map.serialize_entry("why", &n.why.as_ref().map(|w| WhyJson(w, failed)))?;
        map.serialize_entry("resolved", &n.resolved.as_ref().map(ResolvedJson))?;
        if let Some(action_type) = &n.action_type {
            map.serialize_entry("action_type", action_type)?;
        }
        // (A kill node's E0729/E0756 and a failed decision's EL_ERROR too.)
        if n.action_type.is_some() || n.error_code.is_some() {
            map.serialize_entry("error_code", &n.error_code)?;
            map.serialize_entry("error_message", &n.error_message)?;
        }
        if n.action_type.is_some() {
            map.serialize_entry("external_id", &n.external_id)?;
            map.serialize_entry("external_status", &n.external_status)?;
        }
        if let Some(child) = &n.child {
            map.serialize_entry("workflow", &RunJson(child))?;
        }
        map.end()
    }
}

/// Why a node went where it went; `.1`: it failed (a decision that failed
/// took no case: `"case": null`).
struct WhyJson<'a>(&'a Why, bool);

impl Serialize for WhyJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Why::Text(text) => serializer.serialize_str(text),
            Why::Decision { predicates, taken } => {
                let mut map = serializer.serialize_map(Some(2))?;
                map.serialize_entry(
                    "case",
                    &match taken {
                        _ if self.1 => serde_json::Value::Null,
                        Some(i) => serde_json::json!(i + 1),
                        None => serde_json::json!("default"),
                    },
                )?;
                let list: Vec<serde_json::Value> = predicates
                    .iter()
                    .map(|p| match &p.value {
                        Ok(v) => serde_json::json!({"to": p.to, "predicate": p.text, "value": v}),
                        Err(e) => serde_json::json!({"to": p.to, "predicate": p.text, "error": e}),
                    })
                    .collect();
                map.serialize_entry("predicates", &list)?;
                map.end()
            }
        }
    }
}

/// Values that repeat (`arg`, `job-xml`) become lists.
struct ResolvedJson<'a>(&'a Resolved);

impl Serialize for ResolvedJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let resolved = self.0;
        let mut names: Vec<&str> = Vec::new();
        for (name, _) in &resolved.values {
            if !names.contains(&name.as_str()) {
                names.push(name);
            }
        }
        let mut map = serializer.serialize_map(None)?;
        for name in names {
            let values: Vec<&str> = resolved
                .values
                .iter()
                .filter(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
                .collect();
            match values.as_slice() {
                [one] => map.serialize_entry(name, one)?,
                many => map.serialize_entry(name, many)?,
            }
        }
        if !resolved.configuration.is_empty() {
            let configuration: serde_json::Map<String, serde_json::Value> = resolved
                .configuration
                .iter()
                .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
                .collect();
            map.serialize_entry("configuration", &configuration)?;
        }
        map.end()
    }
}

pub fn write_json(run: &Run, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, &RunJson(run))?;
    out.write_all(b"\n")
}

fn duration_text(ms: Millis) -> String {
    let s = ms / 1000;
    match (s / 3600, s / 60 % 60, s % 60) {
        (0, 0, s) => format!("{s}s"),
        (0, m, 0) => format!("{m}m"),
        (0, m, s) => format!("{m}m{s}s"),
        (h, 0, 0) => format!("{h}h"),
        (h, m, _) => format!("{h}h{m}m"),
    }
}

fn predicate_text(p: &Predicate) -> String {
    match &p.value {
        Ok(v) => format!("{} → {v:?}", p.text.trim()),
        Err(e) => format!("{} → error: {e}", p.text.trim()),
    }
}

/// The run as an indented trace: one line per node, indented by forks (and
/// sub-workflows), with its time, status, where it went and why.
pub fn write_text(run: &Run, out: &mut dyn Write) -> io::Result<()> {
    write_trace(run, 0, out)
}

fn write_trace(run: &Run, indent: usize, out: &mut dyn Write) -> io::Result<()> {
    let pad = "  ".repeat(indent);
    let ended = match run.ended {
        Some(t) => format!(" at {}", time_text(t)),
        None => String::new(),
    };
    writeln!(
        out,
        "{pad}workflow {} ({}): {}{ended}",
        run.name,
        run.id,
        run.status.name()
    )?;
    for n in &run.nodes {
        let pad = "  ".repeat(indent + 1 + n.depth);
        let took = match n.ended {
            Some(e) if e > n.started => format!(" ({})", duration_text(e - n.started)),
            _ => String::new(),
        };
        let to = n
            .transition
            .as_ref()
            .map(|t| format!(" → {t}"))
            .unwrap_or_default();
        let retries = match n.retries {
            0 => String::new(),
            1 => ", 1 retry".to_string(),
            k => format!(", {k} retries"),
        };
        writeln!(
            out,
            "{pad}{}  {} {}: {}{to}{took}{retries}",
            time_text(n.started),
            n.action_type.as_deref().unwrap_or(n.type_name),
            n.name,
            n.status.name(),
        )?;
        match &n.why {
            Some(Why::Decision { predicates, taken }) => {
                // (A decision that failed took nothing.)
                let taken = taken.filter(|_| n.status == NodeStatus::Ok);
                for (i, p) in predicates.iter().enumerate() {
                    let mark = if Some(i) == taken { "*" } else { " " };
                    writeln!(out, "{pad}    {mark} case {}: {}", i + 1, predicate_text(p))?;
                }
                if taken.is_none() && n.status == NodeStatus::Ok {
                    writeln!(out, "{pad}    * default")?;
                }
            }
            Some(Why::Text(text)) if n.status != NodeStatus::Ok || n.retries > 0 => {
                writeln!(out, "{pad}    {text}")?;
            }
            _ => {}
        }
        if let Some(child) = &n.child {
            write_trace(child, indent + 2 + n.depth, out)?;
        }
    }
    if let Some(message) = &run.kill_message {
        writeln!(out, "{pad}kill message: {message}")?;
    } else if let (Some(code), Some(message)) = (&run.error_code, &run.error_message) {
        // (Oozie's messages often start with their code already.)
        if message.starts_with(&format!("{code}:")) {
            writeln!(out, "{pad}error {message}")?;
        } else {
            writeln!(out, "{pad}error {code}: {message}")?;
        }
    }
    Ok(())
}

/// Each node's start and end as a JSON line, in time order.
pub(crate) fn write_events(run: &Run, out: &mut dyn Write) -> io::Result<()> {
    let mut events: Vec<(Millis, usize, serde_json::Value)> = Vec::new();
    collect_events(run, &mut events);
    events.sort_by_key(|(at, order, _)| (*at, *order));
    for (_, _, line) in events {
        serde_json::to_writer(&mut *out, &line)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

fn collect_events(run: &Run, events: &mut Vec<(Millis, usize, serde_json::Value)>) {
    for n in &run.nodes {
        let order = events.len();
        events.push((
            n.started,
            order,
            serde_json::json!({"at": time_text(n.started), "workflow": run.id, "node": n.name, "event": "started"}),
        ));
        if let Some(child) = &n.child {
            collect_events(child, events);
        }
        if let Some(ended) = n.ended {
            let order = events.len();
            events.push((
                ended,
                order,
                serde_json::json!({
                    "at": time_text(ended), "workflow": run.id, "node": n.name, "event": "ended",
                    "status": n.status.name(), "transition": n.transition,
                }),
            ));
        }
    }
    if let Some(ended) = run.ended {
        let order = events.len();
        events.push((
            ended,
            order,
            serde_json::json!({"at": time_text(ended), "workflow": run.id, "event": "job ended", "status": run.status.name()}),
        ));
    }
}

const BOX_W: f64 = 170.0;
const BOX_H: f64 = 40.0;
const GAP_X: f64 = 30.0;
const GAP_Y: f64 = 36.0;

fn fill(status: Option<NodeStatus>) -> &'static str {
    match status {
        None => "#f5f5f5",
        Some(NodeStatus::Ok) => "#c8e6c9",
        Some(NodeStatus::Error | NodeStatus::Failed | NodeStatus::Killed) => "#ffcdd2",
        Some(NodeStatus::StartManual) => "#e1bee7",
        Some(NodeStatus::Running) => "#bbdefb",
    }
}

/// The graph, a row per layer (the longest path from `start`), each node a
/// box coloured by how it ended, with its time; the transitions taken drawn
/// thick, `error` transitions dashed.
pub(crate) fn write_svg(graph: &Graph, run: &Run, out: &mut dyn Write) -> io::Result<()> {
    let n = graph.nodes.len();
    let edges: Vec<(usize, usize, bool)> = graph
        .nodes
        .iter()
        .enumerate()
        .flat_map(|(i, kind)| {
            let targets: Vec<(usize, bool)> = match kind {
                Kind::Action { ok, error } => vec![(*ok, false), (*error, true)],
                Kind::Decision { cases, default } => cases
                    .iter()
                    .map(|&t| (t, false))
                    .chain([(*default, false)])
                    .collect(),
                Kind::Fork { paths } => paths.iter().map(|&p| (p, false)).collect(),
                Kind::Join { to } => vec![(*to, false)],
                Kind::Kill | Kind::End => Vec::new(),
            };
            targets.into_iter().map(move |(t, e)| (i, t, e))
        })
        .collect();
    // Layers by the longest path from start (the graph has no cycles once
    // checked; a bound keeps a cyclic one finite).
    let mut layer = vec![usize::MAX; n];
    if let Some(start) = layer.get_mut(graph.start) {
        *start = 0;
    }
    for _ in 0..n {
        let mut changed = false;
        for &(from, to, _) in &edges {
            let Some(&at) = layer.get(from) else {
                continue;
            };
            let want = at.saturating_add(1);
            if at != usize::MAX
                && want < n
                && let Some(target) = layer.get_mut(to)
                && (*target == usize::MAX || *target < want)
            {
                *target = want;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let unreached = layer
        .iter()
        .filter(|&&l| l != usize::MAX)
        .max()
        .map_or(0, |m| m + 1);
    for l in &mut layer {
        if *l == usize::MAX {
            *l = unreached;
        }
    }
    let layers = layer.iter().max().map_or(1, |m| m + 1);
    // Each node's column: how many nodes of its layer came before it.
    let mut widths = vec![0usize; layers];
    let column: Vec<usize> = layer
        .iter()
        .map(|&l| {
            widths.get_mut(l).map_or(0, |w| {
                *w += 1;
                *w - 1
            })
        })
        .collect();
    let most = widths.iter().copied().max().unwrap_or(1).max(1);
    let width = 20.0 + most as f64 * (BOX_W + GAP_X);
    let height = 50.0 + layers as f64 * (BOX_H + GAP_Y);
    let positions: Vec<(f64, f64)> = layer
        .iter()
        .zip(&column)
        .map(|(&l, &c)| {
            let row_width = widths.get(l).copied().unwrap_or(0) as f64 * (BOX_W + GAP_X);
            let left = (width - row_width) / 2.0;
            (
                left + c as f64 * (BOX_W + GAP_X) + GAP_X / 2.0,
                40.0 + l as f64 * (BOX_H + GAP_Y),
            )
        })
        .collect();
    // (Edges join nodes of the graph: `Graph::new` resolved them.)
    let position = |i: usize| positions.get(i).copied().unwrap_or_default();
    let runs: Vec<Option<&NodeRun>> = (0..n)
        .map(|i| run.nodes.iter().rev().find(|r| r.node == i))
        .collect();
    let taken = |from: usize, to: usize| {
        let (Some(Some(r)), true) = (runs.get(from), to < n) else {
            return false;
        };
        let to = graph.name(to);
        // (A fork's transition is `*`: every path.)
        r.transition.as_deref().is_some_and(|t| t == "*" || t == to)
    };
    writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="11">"#
    )?;
    writeln!(
        out,
        r#"<text x="8" y="18">workflow {} ({}): {}</text>"#,
        escape(&run.name),
        escape(&run.id),
        run.status.name()
    )?;
    for &(from, to, error) in &edges {
        let (x1, y1) = position(from);
        let (x2, y2) = position(to);
        let on = taken(from, to);
        writeln!(
            out,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="{}"{}/>"#,
            x1 + BOX_W / 2.0,
            y1 + BOX_H,
            x2 + BOX_W / 2.0,
            y2,
            if on { "#1565c0" } else { "#bdbdbd" },
            if on { 3 } else { 1 },
            if error {
                r#" stroke-dasharray="4 3""#
            } else {
                ""
            }
        )?;
    }
    for (((i, kind), node_run), &(x, y)) in
        graph.nodes.iter().enumerate().zip(&runs).zip(&positions)
    {
        let status = node_run.map(|r| r.status);
        writeln!(
            out,
            r#"<rect x="{x}" y="{y}" width="{BOX_W}" height="{BOX_H}" rx="6" fill="{}" stroke="{}"/>"#,
            fill(status),
            if status.is_some() {
                "#424242"
            } else {
                "#bdbdbd"
            }
        )?;
        writeln!(
            out,
            r#"<text x="{}" y="{}">{} {}</text>"#,
            x + 6.0,
            y + 15.0,
            kind.type_name(),
            escape(graph.name(i))
        )?;
        if let Some(r) = node_run {
            // (The time of day: past `YYYY-MM-DDT`.)
            let started = time_text(r.started);
            writeln!(
                out,
                r##"<text x="{}" y="{}" fill="#424242">{} {}</text>"##,
                x + 6.0,
                y + 31.0,
                started.get(11..).unwrap_or_default(),
                r.status.name()
            )?;
        }
    }
    writeln!(out, "</svg>")
}
