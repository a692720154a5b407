//! Scenarios beyond Oozie's known answers (tests/simulate_facts_*.rs): a bundle's coordinators
//! feeding each other, and a LAST_ONLY window capped at the job's end.

use crate::common;
use crate::common::simulate::{job, simulate};

use serde_json::Value;

/// When an action became `status`.
fn became(action: &Value, status: &str) -> String {
    action["history"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["status"] == status)
        .map(|h| h["at"].as_str().unwrap().to_string())
        .unwrap_or_default()
}

/// A bundle's coordinators are jobs `BUNDLE/NAME`, submitted at the first
/// PauseTransitService run at or after the kick-off (PTS:150-153: the
/// server started 23:00, so 00:00:10), each with the bundle's configuration
/// (its `<configuration>` over the job.properties). ingest's data-out,
/// written when its workflow SUCCEEDS, is report's data-in: report's action
/// is READY when ingest's ends (01:30), not at its own nominal time.
#[test]
fn a_bundle_pipeline_runs_in_order() {
    let report = simulate("bundle-pipeline/scenario.toml", None);
    let ingest = job(&report, "daily-pipeline-prod/ingest-prod");
    let consumer = job(&report, "daily-pipeline-prod/report-prod");
    for j in [ingest, consumer] {
        assert_eq!(j["history"][0]["at"], "2024-01-01T00:00:10Z");
        assert_eq!(j["status"], "SUCCEEDED");
        assert_eq!(j["actions"].as_array().unwrap().len(), 3);
    }
    let first = &ingest["actions"][0];
    // The raw data lands at 01:00; the rawRoot of the coordinator's own
    // <configuration> in the bundle.
    assert_eq!(
        first["inputs"]["input"],
        serde_json::json!(["hdfs://nn:8020/data/prod/raw/2024/01/01"])
    );
    assert_eq!(became(first, "READY"), "2024-01-01T01:00:10.100Z");
    assert_eq!(first["workflow"]["ended"], "2024-01-01T01:30:10.100Z");
    let second = &ingest["actions"][1];
    assert_eq!(second["workflow"]["ended"], "2024-01-02T01:30:00Z");
    // report's first action: checked every minute from 00:00:10.100, ready
    // at the first check after ingest's output appeared.
    assert_eq!(
        became(&consumer["actions"][0], "READY"),
        "2024-01-01T01:30:10.100Z"
    );
    assert_eq!(
        consumer["actions"][1]["inputs"]["input"],
        serde_json::json!([
            "hdfs://nn:8020/data/prod/clean/2024/01/02",
            "hdfs://nn:8020/data/prod/clean/2024/01/01"
        ])
    );
    assert_eq!(
        became(&consumer["actions"][1], "READY"),
        "2024-01-02T01:30:00Z"
    );
}

/// CMT:460-472: LAST_ONLY takes a batch, not the throttle, when the window
/// capped at the end is behind now: all three actions at 12:05:00.100, each
/// skipped at its first check (CAIC:116-133; the last one's next nominal,
/// 12:00, is the end, not after it: CCU:908-911).
#[test]
fn last_only_after_the_end_creates_everything_at_once() {
    let report = simulate("last-only-ended-window/scenario.toml", None);
    let j = job(&report, "ended");
    let actions = j["actions"].as_array().unwrap();
    assert_eq!(actions.len(), 3);
    for action in actions {
        assert_eq!(action["created_time"], "2009-01-01T12:05:00.100Z");
        assert_eq!(action["status"], "SKIPPED");
        assert_eq!(became(action, "SKIPPED"), "2009-01-01T12:05:00.100Z");
    }
    assert_eq!(j["status"], "SUCCEEDED");
}

/// `--explain` on an action that does not exist says which control holds
/// it; on one that does, how it got there.
#[test]
fn explain_names_what_holds_an_action() {
    let root = env!("CARGO_MANIFEST_DIR");
    let scenario = "corpus/simulate/last-only-ended-window/scenario.toml";
    // Past the job's end there is no such action.
    let out = common::coordc_in(root, &["simulate", scenario, "--explain", "ended@4"]);
    assert_eq!(out.status.code(), Some(2));
    let out = common::coordc_in(
        root,
        &[
            "simulate",
            "corpus/simulate/bundle-pipeline/scenario.toml",
            "--at",
            "2024-01-01T12:00Z",
            "--explain",
            "daily-pipeline-prod/ingest-prod@3",
        ],
    );
    let text = common::stdout(&out);
    assert!(
        text.contains(
            "daily-pipeline-prod/ingest-prod@3 (nominal 2024-01-03T00:00Z) is not materialized"
        ) && text.contains("The next materialization starts at 2024-01-02T00:00Z"),
        "{text}"
    );
    let out = common::coordc_in(root, &["simulate", scenario, "--explain", "ended@3"]);
    let text = common::stdout(&out);
    assert!(
        text.contains("LAST_ONLY: the next action's nominal time 2009-01-01T12:00Z has passed"),
        "{text}"
    );
    let bundle = "corpus/simulate/bundle-pipeline/scenario.toml";
    let out = common::coordc_in(
        root,
        &[
            "simulate",
            bundle,
            "--at",
            "2024-01-02T01:10Z",
            "--explain",
            "daily-pipeline-prod/report-prod@2",
        ],
    );
    let text = common::stdout(&out);
    assert!(
        text.contains("It waits for hdfs://nn:8020/data/prod/clean/2024/01/02/_SUCCESS")
            && text
                .contains("daily-pipeline-prod/ingest-prod@2 writes it when its workflow succeeds"),
        "{text}"
    );
}

const HOURLY: &str = r#"<coordinator-app name="c4" frequency="${coord:hours(1)}" start="2009-01-01T00:00Z" end="2009-01-01T04:00Z" timezone="UTC" xmlns="uri:oozie:coordinator:0.4">
  <controls><concurrency>1</concurrency></controls>
  <action><workflow><app-path>hdfs://nn/wf</app-path></workflow></action>
</coordinator-app>
"#;

fn events(name: &str, scenario: &str) -> Vec<Value> {
    let dir = common::fresh_dir(name);
    std::fs::write(dir.join("coord.xml"), HOURLY).unwrap();
    std::fs::write(dir.join("scenario.toml"), scenario).unwrap();
    let out = common::coordc_in(
        dir.display().to_string(),
        &["simulate", "scenario.toml", "--format", "events"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", common::stderr(&out));
    common::stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// CCX:459-461: -change concurrency queues a ready-check only when the new
/// value is greater; -1 (unlimited) is not, so READY action 2 waits for the
/// RecoveryService (READY for 600 s: the tick at 01:10:10 on the grid from
/// 23:50:10).
#[test]
fn unlimited_concurrency_by_change_waits_for_the_recovery_service() {
    let e = events(
        "sim-concurrency-minus-one",
        "start = \"2008-12-31T23:50Z\"\nuntil = \"2009-01-01T06:00Z\"\n[workflows]\nduration = \"5h\"\n[[job]]\nid = \"c4\"\napp = \"coord.xml\"\n[[op]]\nat = \"2009-01-01T01:03Z\"\njob = \"c4\"\ndo = \"change\"\nvalue = \"concurrency=-1\"\n",
    );
    let started = e
        .iter()
        .find(|c| c["action"] == 2 && c["to"] == "SUBMITTED")
        .unwrap();
    assert_eq!(started["at"], "2009-01-01T01:10:10Z");
}

/// CCX:350-402: a new end after the start takes a SUCCEEDED job back to
/// RUNNING; materialization is done (end <= next), so the status transit
/// makes it SUCCEEDED again at its next run.
#[test]
fn an_end_changed_on_a_succeeded_job_runs_it_again_until_the_status_transit() {
    let e = events(
        "sim-end-after-success",
        "start = \"2008-12-31T23:50Z\"\nuntil = \"2009-01-01T06:00Z\"\n[[job]]\nid = \"c4\"\napp = \"coord.xml\"\n[[op]]\nat = \"2009-01-01T05:00Z\"\njob = \"c4\"\ndo = \"change\"\nvalue = \"endtime=2009-01-01T03:30Z\"\n",
    );
    let after: Vec<(&str, &str)> = e
        .iter()
        .filter(|c| c["action"].is_null() && c["at"].as_str().unwrap() >= "2009-01-01T05")
        .map(|c| (c["at"].as_str().unwrap(), c["to"].as_str().unwrap()))
        .collect();
    assert_eq!(
        after,
        [
            ("2009-01-01T05:00:00Z", "RUNNING"),
            ("2009-01-01T05:00:10Z", "SUCCEEDED")
        ]
    );
}
