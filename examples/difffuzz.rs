//! The coordc side of the differential fuzzer (`scripts/difffuzz.sh`): reads the
//! JSON lines one of the JVM oracles of the development corpus (kept outside
//! this repository) reads, and writes
//! one answer per line in that oracle's answer shape, in one process.
//!
//! ```sh
//! cargo run --release --example difffuzz -- el       < cases.jsonl
//! cargo run --release --example difffuzz -- cron     < cases.jsonl
//! cargo run --release --example difffuzz -- calendar < cases.jsonl
//! ```
//!
//! Each kind makes the library calls the fidelity tests make for the same
//! question (`tests/oracles/el.rs` through `coordc eval --batch`,
//! `tests/oracles/cron.rs` through `coordc cron`, `tests/oracles/calendar.rs`):
//! - `el`: `{"id","expr","vars","functions"?}` → `{"id","ok","value","type"}` or
//!   `{"id","ok":false,"error"}` (`parse_template` + `render_into`, the
//!   coordinator library, or the workflow one for `"functions":"wf"`);
//! - `cron`: `{"id","cron","timezone","start","end","max"}` → `{"id","expect"}`
//!   or `{"id","expect_error":true,"error"}` (`Cron::parse`, `Zone::parse`,
//!   `parse_datetime`, `materialize`);
//! - `calendar`: `{"id","op":"add|format|local|zone",...}` → the oracle's
//!   answer field (`result`, `text`, `local`+`offset_min`+`dst`+`days_in_month`,
//!   `canonical`) or `error`.
//!
//! A panic in the library is caught and answered as `{"id","panic":message}`,
//! so the comparer lists it and the run goes on. Unparsable lines get
//! `{"id":null,"bad_input":...}`.

use chrono::{DateTime, Utc};
use coordc::el::{Env, Library, VarMap, parse_template, render_into};
use coordc::time::calendar::{CalendarUnit, add, days_in_month};
use coordc::time::cron::{Cron, MaxYear, materialize};
use coordc::time::datetime::{ProcessingZone, format_utc, parse_datetime};
use coordc::time::format::format;
use coordc::time::zone::Zone;
use serde_json::{Map, Value, json};
use std::io::{BufRead, BufWriter, Write};

fn main() {
    let kind = std::env::args().nth(1).unwrap_or_default();
    let answer: fn(&Value) -> Value = match kind.as_str() {
        "el" => el,
        "cron" => cron,
        "calendar" => calendar,
        _ => {
            eprintln!("usage: difffuzz el|cron|calendar < cases.jsonl");
            std::process::exit(2);
        }
    };
    // Panics are reported in the answer line, not on stderr.
    std::panic::set_hook(Box::new(|_| {}));
    let stdin = std::io::stdin();
    let mut out = BufWriter::new(std::io::stdout().lock());
    for line in stdin.lock().lines() {
        let Ok(line) = line else {
            eprintln!("difffuzz: stdin is not UTF-8 text");
            std::process::exit(2);
        };
        if line.trim().is_empty() {
            continue;
        }
        let result = match serde_json::from_str::<Value>(&line) {
            Ok(case) => {
                match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| answer(&case))) {
                    Ok(v) => v,
                    Err(payload) => {
                        let message = payload
                            .downcast_ref::<String>()
                            .cloned()
                            .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                            .unwrap_or_else(|| "panic".to_string());
                        json!({"id": field(&case, "id"), "panic": message})
                    }
                }
            }
            Err(e) => json!({"id": null, "bad_input": e.to_string()}),
        };
        if writeln!(out, "{result}").is_err() {
            std::process::exit(1);
        }
    }
    if out.flush().is_err() {
        std::process::exit(1);
    }
}

/// A member of a case, `null` when missing.
fn field<'a>(case: &'a Value, key: &str) -> &'a Value {
    case.get(key).unwrap_or(&Value::Null)
}

fn text<'a>(case: &'a Value, key: &str) -> &'a str {
    field(case, key).as_str().unwrap_or_default()
}

/// `coordc eval --batch` (src/cli/eval.rs `evaluate`): parse, then render as
/// Oozie renders a text value. (The CLI swaps a failure's message for the
/// static check's when that explains it better: only the message changes.)
fn el(case: &Value) -> Value {
    let id = field(case, "id").clone();
    let mut vars = VarMap::default();
    if let Some(map) = field(case, "vars").as_object() {
        for (name, value) in map {
            vars.insert(name.clone(), value.as_str().map(str::to_string));
        }
    }
    let library = if field(case, "functions") == "wf" {
        Library::Workflow
    } else {
        Library::Coordinator
    };
    let env = Env {
        vars: &vars,
        library,
        context: None,
        processing_zone: ProcessingZone::UTC,
    };
    let mut value = String::new();
    let result = parse_template(text(case, "expr"), 0)
        .and_then(|template| render_into(&template, &env, &mut value));
    match result {
        Ok(ty) => json!({"id": id, "ok": true, "value": value, "type": ty}),
        Err(d) => json!({"id": id, "ok": false, "error": d.message, "code": d.code}),
    }
}

/// `coordc cron CRON --from START --to END --timezone TZ --count MAX`
/// (src/cli/cron.rs), in the processing zone UTC.
fn cron(case: &Value) -> Value {
    let id = field(case, "id").clone();
    let error = |stage: &str, message: String| json!({"id": id, "expect_error": true, "error_stage": stage, "error": message});
    let pz = ProcessingZone::UTC;
    // A server started in 2026, fixed: the JVM oracle's bound is its run's year + 100.
    let max_year = MaxYear::for_server_started_in(2026);
    let cron = match Cron::parse(text(case, "cron"), max_year) {
        Ok(c) => c,
        Err(e) => return error("frequency", e.message),
    };
    let mut hour_24 = false;
    let mut time = |key: &str| {
        parse_datetime(text(case, key), pz).map(|t| {
            hour_24 |= t.hour_24;
            t.instant
        })
    };
    let (start, end) = match (time("start"), time("end")) {
        (Ok(s), Ok(e)) => (s, e),
        (Err(e), _) | (_, Err(e)) => return error("dates", e.message),
    };
    let zone = match Zone::parse(text(case, "timezone")) {
        Ok(z) => z,
        Err(_) => return error("timezone", "unknown zone".to_string()),
    };
    if start >= end {
        return error("validate", "the end is not after the start".to_string());
    }
    let limit = field(case, "max")
        .as_u64()
        .map_or(1000, |m| usize::try_from(m).unwrap_or(usize::MAX));
    let mut answer = match materialize(&cron, &zone, pz, start, end, limit) {
        Ok(times) => {
            let list: Vec<String> = times.iter().map(|t| format_utc(t.nominal)).collect();
            let spec: Vec<String> = times.iter().map(|t| format_utc(t.cron)).collect();
            json!({"id": id, "expect": list, "expect_spec": spec})
        }
        Err(kind) => error("validate", format!("{kind:?}")),
    };
    if let (true, Some(fields)) = (hour_24, answer.as_object_mut()) {
        // coordc reads the spec's 24:00 (with a warning) where Oozie fails.
        fields.insert("hour_24".to_string(), Value::Bool(true));
    }
    answer
}

fn instant(case: &Value) -> Result<DateTime<Utc>, String> {
    parse_datetime(text(case, "t"), ProcessingZone::UTC)
        .map(|t| t.instant)
        .map_err(|e| e.message)
}

/// The calendar oracle's operations (CalendarOracle.java) as
/// tests/oracles/calendar.rs and `coord:formatTime` call them.
fn calendar(case: &Value) -> Value {
    let mut answer = Map::new();
    answer.insert("id".to_string(), field(case, "id").clone());
    let result = match text(case, "op") {
        "add" => calendar_add(case),
        "format" => calendar_format(case),
        "local" => calendar_local(case),
        "zone" => {
            // Oozie accepts an ID when Java gives it back unchanged.
            let id = text(case, "id_text");
            Ok(match Zone::parse(id) {
                Ok(_) => json!({"accepted": true}),
                Err(_) => json!({"accepted": false}),
            })
        }
        op => Err(format!("unknown op {op}")),
    };
    match result {
        Ok(Value::Object(fields)) => answer.extend(fields),
        Ok(other) => {
            answer.insert("value".to_string(), other);
        }
        Err(e) => {
            answer.insert("error".to_string(), Value::String(e));
        }
    }
    Value::Object(answer)
}

fn zone_of(case: &Value) -> Result<Zone, String> {
    let id = field(case, "tz").as_str().unwrap_or("UTC");
    Zone::parse(id).map_err(|_| format!("unknown zone {id}"))
}

fn calendar_add(case: &Value) -> Result<Value, String> {
    let zone = zone_of(case)?;
    let t = instant(case)?;
    let unit = CalendarUnit::parse(text(case, "unit")).ok_or("unknown unit")?;
    let n = field(case, "n").as_i64().ok_or("no n")?;
    let result = add(&zone, t, unit, n).ok_or("out of range")?;
    Ok(json!({"result": format_utc(result)}))
}

/// `coord:formatTime` (src/el/time_functions.rs `format_time`): the wall time
/// in the processing zone (UTC or GMT±HHMM), formatted with a fixed zone.
fn calendar_format(case: &Value) -> Result<Value, String> {
    let id = field(case, "tz").as_str().unwrap_or("UTC");
    let pz = ProcessingZone::parse(id).ok_or(format!("not a processing zone: {id}"))?;
    let t = instant(case)?;
    let zone = pz.format_zone();
    let local = t.naive_utc() + chrono::Duration::minutes(i64::from(pz.offset_minutes));
    let text = format(local, zone, text(case, "pattern"))?;
    Ok(json!({"text": text}))
}

fn calendar_local(case: &Value) -> Result<Value, String> {
    let zone = zone_of(case)?;
    let t = instant(case)?;
    let local = zone.local(t);
    Ok(json!({
        "local": local.format("%Y-%m-%d %H:%M").to_string(),
        "offset_min": zone.offset_seconds(t) / 60,
        "dst": zone.dst_seconds(t) != 0,
        "days_in_month": days_in_month(local.date()),
    }))
}
