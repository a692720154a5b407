//! Reading `coordc simulate`'s JSON report.

use chrono::{DateTime, NaiveDateTime, Utc};
use serde_json::Value;

/// The report of `coordc simulate corpus/simulate/SCENARIO --format json`
/// (with `--at AT`), which must succeed.
pub fn simulate(scenario: &str, at: Option<&str>) -> Value {
    let path = super::root().join("corpus/simulate").join(scenario);
    let path = path.to_str().expect("a UTF-8 path");
    let mut args = vec!["simulate", path, "--format", "json"];
    if let Some(at) = at {
        args.extend(["--at", at]);
    }
    let out = super::coordc(&args);
    assert!(
        out.status.success(),
        "{scenario}: {}{}",
        super::stdout(&out),
        super::stderr(&out)
    );
    serde_json::from_str(&super::stdout(&out)).expect("one JSON document")
}

pub fn text(v: &Value) -> &str {
    v.as_str().unwrap_or_else(|| panic!("not a string: {v}"))
}

pub fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("not a list: {v}"))
        .iter()
        .map(|s| text(s).to_string())
        .collect()
}

/// The job `id` of the report.
pub fn job<'v>(report: &'v Value, id: &str) -> &'v Value {
    report["jobs"]
        .as_array()
        .expect("jobs")
        .iter()
        .find(|j| j["id"] == id)
        .unwrap_or_else(|| panic!("no job {id}"))
}

/// The actions of a job of the report.
pub fn actions(job: &Value) -> &Vec<Value> {
    job["actions"].as_array().expect("actions")
}

/// Action number `n` of `job`.
pub fn action(job: &Value, n: u64) -> &Value {
    actions(job)
        .iter()
        .find(|a| a["number"] == n)
        .unwrap_or_else(|| panic!("no action {n} in {}", job["id"]))
}

/// The nominal times of `job`'s actions, in order.
pub fn nominals(job: &Value) -> Vec<&str> {
    actions(job)
        .iter()
        .map(|a| text(&a["nominal_time"]))
        .collect()
}

/// A time of the report: RFC 3339, or Oozie's `YYYY-MM-DDTHH:MMZ`.
pub fn instant(text: &str) -> DateTime<Utc> {
    if let Ok(t) = DateTime::parse_from_rfc3339(text) {
        return t.with_timezone(&Utc);
    }
    NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%MZ")
        .unwrap_or_else(|e| panic!("`{text}` is not a time: {e}"))
        .and_utc()
}

/// `t` as Oozie writes a UTC time.
pub fn oozie(t: DateTime<Utc>) -> String {
    t.format("%Y-%m-%dT%H:%MZ").to_string()
}
