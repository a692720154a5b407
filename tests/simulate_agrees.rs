//! `coordc simulate` and `coordc dryrun` agree with `coordc check` and with
//! each other (issue 31): the quick form on a fine-grained dataset, the
//! processing zone and `coordc.toml`, the workflows Oozie refuses at
//! submission, `--explain` of a TIMEDOUT action, the dry run's cap.

mod common;

use serde_json::Value;
use std::path::Path;
use std::process::Output;

fn write(dir: &Path, name: &str, text: &str) {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn json_of(out: &Output, what: &str) -> Value {
    common::expect_code(out, 0, what);
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{what}: not JSON: {e}"))
}

/// An hourly job for one day reading the last hour of a 5-minute dataset
/// (`current(-11)..current(0)`), the next instance (`current(1)`) and the
/// newest one there (`latest(0)`).
const HOURLY_ON_FIVE_MINUTES: &str = r#"<coordinator-app name="fine" frequency="${coord:hours(1)}"
    start="2009-01-01T00:00Z" end="2009-01-02T00:00Z" timezone="UTC"
    xmlns="uri:oozie:coordinator:0.4">
  <datasets>
    <dataset name="ticks" frequency="${coord:minutes(5)}" initial-instance="2000-01-01T00:00Z" timezone="UTC">
      <uri-template>hdfs://nn:8020/ticks/${YEAR}/${MONTH}/${DAY}/${HOUR}/${MINUTE}</uri-template>
    </dataset>
  </datasets>
  <input-events>
    <data-in name="hour" dataset="ticks">
      <start-instance>${coord:current(-11)}</start-instance>
      <end-instance>${coord:current(0)}</end-instance>
    </data-in>
    <data-in name="next" dataset="ticks"><instance>${coord:current(1)}</instance></data-in>
    <data-in name="newest" dataset="ticks"><instance>${coord:latest(0)}</instance></data-in>
  </input-events>
  <action><workflow><app-path>hdfs://nn:8020/wf</app-path></workflow></action>
</coordinator-app>
"#;

/// The quick form makes present the instances the actions read, each at its
/// own nominal time (docs/simulate.md): a one-day job on a 5-minute dataset
/// simulates (it was refused: a year of 5-minute instances is over the
/// 100,000 one range lists), every action succeeds with the URIs the dry
/// run lists, and an action waits for its `current(1)` instance, which
/// comes 5 minutes after its nominal time. `latest(0)` finds the instance of
/// the action's creation time there: latest() counts instances up to the
/// action's creation by default (`ELService.latest-el.use-current-time`,
/// false by default, core/src/main/resources/oozie-default.xml:1537-1538;
/// the walk starts at the current instance of the action's created time,
/// core/src/main/java/org/apache/oozie/coord/CoordELFunctions.java:1551-1558,
/// apache/oozie at 8bdac8be, after release-5.2.1).
#[test]
fn the_quick_form_simulates_a_day_on_a_five_minute_dataset() {
    let dir = common::fresh_dir("agrees-fine");
    write(&dir, "coordinator.xml", HOURLY_ON_FIVE_MINUTES);
    let d = dir.display().to_string();
    let report = json_of(
        &common::coordc_in(&d, &["simulate", "coordinator.xml", "--format", "json"]),
        "simulate",
    );
    let listing = json_of(
        &common::coordc_in(&d, &["dryrun", "coordinator.xml", "--format", "json"]),
        "dryrun",
    );
    let actions = report["jobs"][0]["actions"].as_array().unwrap();
    let listed = listing["actions"].as_array().unwrap();
    assert_eq!(actions.len(), 24);
    assert_eq!(listed.len(), 24);
    for (action, listed) in actions.iter().zip(listed) {
        let n = &action["number"];
        assert_eq!(action["status"], "SUCCEEDED", "action {n}: {action}");
        assert_eq!(action["nominal_time"], listed["nominal_time"]);
        assert_eq!(
            action["inputs"]["hour"], listed["inputs"]["hour"],
            "action {n}"
        );
        assert_eq!(action["inputs"]["hour"].as_array().unwrap().len(), 12);
        assert_eq!(
            action["inputs"]["next"], listed["inputs"]["next"],
            "action {n}"
        );
        // Ready once current(1) is there: at the first check at or after
        // nominal + 5 minutes (checks every minute from the nominal time).
        let ready = action["history"]
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["status"] == "READY")
            .unwrap_or_else(|| panic!("action {n} never READY: {action}"));
        let nominal = listed["nominal_time"].as_str().unwrap();
        let ready_at = ready["at"].as_str().unwrap();
        let at_five = format!("{}:05:00", &nominal[..13]);
        assert!(
            ready_at.starts_with(&at_five),
            "action {n} READY at {ready_at}, not at {at_five}"
        );
        // latest(0) counts instances up to the action's creation (Oozie's
        // default, oozie.service.ELService.latest-el.use-current-time=false):
        // every one exists, so it is the instance of the creation time.
        let created = action["created_time"].as_str().unwrap();
        let minute: u32 = created[14..16].parse().unwrap();
        let newest = format!(
            "hdfs://nn:8020/ticks/{}/{}/{}/{}/{:02}",
            &created[0..4],
            &created[5..7],
            &created[8..10],
            &created[11..13],
            minute - minute % 5
        );
        assert_eq!(
            action["inputs"]["newest"],
            serde_json::json!([newest]),
            "action {n}"
        );
    }
}
