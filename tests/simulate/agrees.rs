//! `coordc simulate` and `coordc dryrun` agree with `coordc check` and with
//! each other (issue 31): the quick form on a fine-grained dataset, the
//! processing zone and `coordc.toml`, the workflows Oozie refuses at
//! submission, `--explain` of a TIMEDOUT action, the dry run's cap.

use crate::common;
use crate::common::{json_of, write};

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

/// A coordinator whose datetimes are written in a GMT+0530 processing zone
/// (Oozie reads and writes datetimes in `oozie.processing.timezone`:
/// core/src/main/java/org/apache/oozie/util/DateUtils.java:56-70, apache/oozie
/// at 8bdac8be); in UTC its start is refused.
const IN_GMT_0530: &str = r#"<coordinator-app name="zoned" frequency="${coord:hours(1)}"
    start="2009-01-04T13:30+0530" end="2009-01-04T16:30+0530" timezone="UTC"
    xmlns="uri:oozie:coordinator:0.4">
  <datasets>
    <dataset name="hourly" frequency="${coord:hours(1)}" initial-instance="2009-01-01T05:30+0530" timezone="UTC">
      <uri-template>hdfs://nn/h/${YEAR}/${MONTH}/${DAY}/${HOUR}/${MINUTE}</uri-template>
    </dataset>
  </datasets>
  <input-events>
    <data-in name="in" dataset="hourly"><instance>${coord:current(0)}</instance></data-in>
  </input-events>
  <action><workflow><app-path>hdfs://nn/wf</app-path>
    <configuration><property><name>nominal</name><value>${coord:nominalTime()}</value></property></configuration>
  </workflow></action>
</coordinator-app>
"#;

/// Two repositories holding the same coordinator: `with/` has a
/// `coordc.toml` two folders above it saying `text`, `without/` has none.
/// The coordinators' paths, relative to `root`.
fn two_repositories(name: &str, text: &str, app: &str) -> (std::path::PathBuf, String, String) {
    let root = common::fresh_dir(name);
    for repo in ["with", "without"] {
        std::fs::create_dir_all(root.join(repo).join(".git")).unwrap();
    }
    write(&root, "with/coordc.toml", text);
    write(&root, "with/apps/zoned/coordinator.xml", app);
    write(&root, "without/coordinator.xml", app);
    (
        root,
        "with/apps/zoned/coordinator.xml".into(),
        "without/coordinator.xml".into(),
    )
}

/// The `coordc.toml` that applies to an application (the nearest, up to the
/// repository root) sets `dryrun`'s and `simulate`'s processing zone as
/// `--processing-timezone` does, as `coordc check` reads it; without either
/// the GMT+0530 datetimes are refused (UTC reads `Z` only).
#[test]
fn a_coordc_toml_sets_the_processing_zone_as_the_option_does() {
    let (root, with, without) = two_repositories(
        "agrees-zone",
        "processing-timezone = \"GMT+0530\"\n",
        IN_GMT_0530,
    );
    let d = root.display().to_string();
    let zone = ["--processing-timezone", "GMT+0530"];
    for command in [
        &["dryrun", "--format", "json"][..],
        &["simulate", "--format", "json"][..],
    ] {
        let run = |app: &str, extra: &[&str]| {
            let mut args = command.to_vec();
            args.push(app);
            args.extend_from_slice(extra);
            common::coordc_in(&d, &args)
        };
        let by_file = run(&with, &[]);
        let by_option = run(&without, &zone);
        common::expect_code(&by_file, 0, "the coordc.toml's zone");
        common::expect_code(&by_option, 0, "--processing-timezone");
        assert_eq!(
            common::stdout(&by_file),
            common::stdout(&by_option),
            "{command:?}"
        );
        // The zone shows: the URI's fields are its wall time, and so is
        // the dry run's coord:nominalTime() (the simulation reports times
        // in UTC).
        let report = common::stdout(&by_file);
        assert!(report.contains("hdfs://nn/h/2009/01/04/13/30"), "{report}");
        if command[0] == "dryrun" {
            assert!(
                report.contains("\"nominal\":\"2009-01-04T13:30+0530\""),
                "{report}"
            );
        } else {
            assert!(
                report.contains("\"nominal_time\":\"2009-01-04T08:00Z\""),
                "{report}"
            );
        }
        // Without it, UTC: the start is refused.
        let in_utc = run(&without, &[]);
        assert_eq!(in_utc.status.code(), Some(1), "{command:?}");
        assert!(
            common::stderr(&in_utc).contains("+0530"),
            "{}",
            common::stderr(&in_utc)
        );
        // The option wins over the file.
        let both = run(&with, &["--processing-timezone", "UTC"]);
        assert_eq!(both.status.code(), Some(1), "{command:?}");
    }
}

/// A wrong `coordc.toml` stops `dryrun` and `simulate` (each form) with
/// exit 2 before anything is read, as it stops `coordc check`.
#[test]
fn a_wrong_coordc_toml_stops_dryrun_and_simulate() {
    let (root, with, _) = two_repositories("agrees-wrong", "colour = 1\n", IN_GMT_0530);
    write(&root, "with/apps/zoned/workflow.xml", WF009);
    write(
        &root,
        "with/apps/zoned/scenario.toml",
        "start = \"2009-01-04T00:00Z\"\nuntil = \"2009-01-05T00:00Z\"\n[[job]]\napp = \"coordinator.xml\"\n",
    );
    let d = root.display().to_string();
    for args in [
        vec!["dryrun", &with],
        vec!["simulate", &with],
        vec!["simulate", "with/apps/zoned/workflow.xml"],
        vec!["simulate", "with/apps/zoned/scenario.toml"],
    ] {
        let out = common::coordc_in(&d, &args);
        let err = common::stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.starts_with("error: ") && err.contains("coordc.toml"),
            "{args:?}: {err}"
        );
        assert!(err.contains("unknown field"), "{args:?}: {err}");
        assert_eq!(common::stdout(&out), "", "{args:?}");
    }
}

/// A coordinator every minute: Oozie refuses it while
/// `oozie.service.coord.check.maximum.frequency` is on (its default;
/// core/src/main/java/org/apache/oozie/command/coord/CoordSubmitXCommand.java:334-352,
/// apache/oozie at 8bdac8be).
const EVERY_MINUTE: &str = r#"<coordinator-app name="minutely" frequency="1"
    start="2009-01-01T00:00Z" end="2009-01-01T00:10Z" timezone="UTC"
    xmlns="uri:oozie:coordinator:0.4">
  <action><workflow><app-path>hdfs://nn/wf</app-path></workflow></action>
</coordinator-app>
"#;

/// `check-maximum-frequency = false` in the `coordc.toml` lets `dryrun`,
/// `diff` and `simulate` take a 1-minute coordinator, as it lets `coordc
/// check`; a scenario's own `[server]` setting is the server's and wins.
#[test]
fn a_coordc_toml_sets_the_frequency_check() {
    let (root, with, without) = two_repositories(
        "agrees-frequency",
        "check-maximum-frequency = false\n",
        EVERY_MINUTE,
    );
    let d = root.display().to_string();
    for command in ["dryrun", "simulate", "check"] {
        let allowed = common::coordc_in(&d, &[command, &with]);
        common::expect_code(&allowed, 0, command);
        let refused = common::coordc_in(&d, &[command, &without]);
        assert_eq!(refused.status.code(), Some(1), "{command}");
        assert!(
            common::stderr(&refused).contains("5-minute minimum")
                || common::stdout(&refused).contains("5-minute minimum"),
            "{command}: {}",
            common::stderr(&refused)
        );
    }
    // `diff` compares the coordinator with itself: no change; without the
    // setting it cannot (exit 2), for the same reason.
    let window = ["--from", "2009-01-01T00:00Z", "--to", "2009-01-02T00:00Z"];
    let same = common::coordc_in(&d, &[&["diff", &with, &with][..], &window].concat());
    common::expect_code(&same, 0, "diff");
    let refused = common::coordc_in(&d, &[&["diff", &without, &without][..], &window].concat());
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        common::stderr(&refused).contains("5-minute minimum"),
        "{}",
        common::stderr(&refused)
    );
    let scenario = "start = \"2009-01-01T00:00Z\"\nuntil = \"2009-01-02T00:00Z\"\n[[job]]\napp = \"coordinator.xml\"\n";
    write(&root, "with/apps/zoned/scenario.toml", scenario);
    let out = common::coordc_in(&d, &["simulate", "with/apps/zoned/scenario.toml"]);
    common::expect_code(&out, 0, "the coordc.toml's setting");
    let server = "[server]\n\"oozie.service.coord.check.maximum.frequency\" = true\n";
    write(
        &root,
        "with/apps/zoned/scenario.toml",
        scenario.replace("[[job]]", &format!("{server}[[job]]")),
    );
    let out = common::coordc_in(&d, &["simulate", "with/apps/zoned/scenario.toml"]);
    assert_eq!(out.status.code(), Some(1), "{}", common::stderr(&out));
}

/// corpus/invalid/WF009: a hive action without job-tracker or name-node.
const WF009: &str = include_str!("../../corpus/invalid/WF009/workflow.xml");

/// The workflow examples of the rules whose errors Oozie gives when the
/// job is submitted: an action element no schema is registered for (WF008,
/// E0723/E0701), a Hadoop action without job-tracker or name-node (WF009,
/// E0701: LiteWorkflowAppParser fills them from <global> and the server's
/// defaults, empty on a stock server, then refuses the workflow), a
/// definition over 100,000 bytes (WF010, E0736:
/// core/src/main/java/org/apache/oozie/service/WorkflowAppService.java:130),
/// a name resolved with a function at submission (WF019, E0803), a
/// parameter without a value (WF011, E0738). `coordc simulate` refuses each
/// with exactly what `coordc check` prints (code, message, place, help).
#[test]
fn simulate_refuses_a_workflow_oozie_refuses_at_submission_as_check_says() {
    let root = env!("CARGO_MANIFEST_DIR");
    for code in ["WF008", "WF009", "WF010", "WF011", "WF019"] {
        let app = format!("corpus/invalid/{code}/workflow.xml");
        let checked = common::coordc_in(root, &["check", &app]);
        let simulated = common::coordc_in(root, &["simulate", &app]);
        assert_eq!(checked.status.code(), Some(1), "{code}");
        assert_eq!(simulated.status.code(), Some(1), "{code}");
        let said = common::stdout(&checked);
        assert!(
            said.starts_with(&format!("error[{code}]")),
            "{code}: {said}"
        );
        assert_eq!(common::stderr(&simulated), said, "{code}");
        assert_eq!(common::stdout(&simulated), "", "{code}");
    }
    // A rule a coordc.toml turns off (a server with default job-tracker and
    // name-node) no longer refuses the run, as it no longer fails the check.
    let dir = common::fresh_dir("agrees-wf009-off");
    std::fs::create_dir_all(dir.join(".git")).unwrap();
    write(&dir, "coordc.toml", "[rules]\nWF009 = \"off\"\n");
    write(&dir, "workflow.xml", WF009);
    let d = dir.display().to_string();
    common::expect_code(
        &common::coordc_in(&d, &["check", "workflow.xml"]),
        0,
        "check",
    );
    let out = common::coordc_in(&d, &["simulate", "workflow.xml", "--format", "json"]);
    assert_eq!(json_of(&out, "simulate")["status"], "SUCCEEDED");
    // A name the job must define (WF019, E0803): with a configuration that
    // lacks it both refuse it alike; with none, check only notes what the
    // job must define, and simulate runs (as it was told nothing wrong).
    let named = WF009.replace(r#"name="daily-report-wf""#, r#"name="${wfName}""#);
    write(&dir, "named.xml", &named);
    let checked = common::coordc_in(&d, &["check", "named.xml", "-D", "other=1"]);
    let simulated = common::coordc_in(&d, &["simulate", "named.xml", "-D", "other=1"]);
    assert_eq!(checked.status.code(), Some(1));
    assert_eq!(simulated.status.code(), Some(1));
    assert!(common::stdout(&checked).starts_with("error[WF019]: variable [wfName]"));
    assert_eq!(common::stderr(&simulated), common::stdout(&checked));
    common::expect_code(&common::coordc_in(&d, &["check", "named.xml"]), 0, "check");
    common::expect_code(
        &common::coordc_in(&d, &["simulate", "named.xml"]),
        0,
        "simulate",
    );
}

/// A coordinator whose actions run a local workflow Oozie refuses at
/// submission (WF009): each action's workflow cannot be submitted, so the
/// action fails when it starts, the check's diagnostic its reason
/// (CoordActionStartXCommand submits the workflow with the action's
/// configuration; a refused submission fails the action:
/// core/src/main/java/org/apache/oozie/command/coord/CoordActionStartXCommand.java,
/// apache/oozie at 8bdac8be).
#[test]
fn a_coordinator_action_whose_workflow_oozie_refuses_fails_with_the_check_s_reason() {
    let dir = common::fresh_dir("agrees-coord-wf009");
    std::fs::create_dir_all(dir.join(".git")).unwrap();
    write(&dir, "wf/workflow.xml", WF009);
    write(
        &dir,
        "coordinator.xml",
        r#"<coordinator-app name="runs-wf009" frequency="${coord:hours(1)}"
    start="2009-01-01T00:00Z" end="2009-01-01T02:00Z" timezone="UTC"
    xmlns="uri:oozie:coordinator:0.4">
  <action><workflow><app-path>wf</app-path></workflow></action>
</coordinator-app>
"#,
    );
    let d = dir.display().to_string();
    let report = json_of(
        &common::coordc_in(&d, &["simulate", "coordinator.xml", "--format", "json"]),
        "simulate",
    );
    let actions = report["jobs"][0]["actions"].as_array().unwrap();
    assert_eq!(actions.len(), 2);
    for action in actions {
        assert_eq!(action["status"], "FAILED", "{action}");
        let why = action["history"].as_array().unwrap().last().unwrap()["why"]
            .as_str()
            .unwrap();
        assert!(
            why.contains("error[WF009]: No job-tracker or resource-manager and no name-node defined for action [first] (E0701)"),
            "{why}"
        );
    }
}

/// Hourly with a 10-minute timeout, reading its hour, the hour before and
/// the newest instance (`latest(0)`).
const TIMES_OUT: &str = r#"<coordinator-app name="hourly" frequency="${coord:hours(1)}"
    start="2009-01-01T01:00Z" end="2009-01-01T04:00Z" timezone="UTC"
    xmlns="uri:oozie:coordinator:0.4">
  <controls><timeout>10</timeout></controls>
  <datasets>
    <dataset name="logs" frequency="${coord:hours(1)}" initial-instance="2009-01-01T00:00Z" timezone="UTC">
      <uri-template>hdfs://nn:8020/logs/${YEAR}/${MONTH}/${DAY}/${HOUR}</uri-template>
    </dataset>
  </datasets>
  <input-events>
    <data-in name="input" dataset="logs"><instance>${coord:current(0)}</instance></data-in>
    <data-in name="before" dataset="logs"><instance>${coord:current(-1)}</instance></data-in>
    <data-in name="newest" dataset="logs"><instance>${coord:latest(0)}</instance></data-in>
  </input-events>
  <action><workflow><app-path>hdfs://nn:8020/apps/wf</app-path></workflow></action>
</coordinator-app>
"#;

/// The 01:00 instance is there from the start, 02:00 never comes, 03:00
/// comes at 05:00.
const TIMES_OUT_SCENARIO: &str = r#"start = "2009-01-01T00:00Z"
until = "2009-01-01T06:00Z"

[[job]]
id = "h"
app = "coordinator.xml"

[[data]]
uri = "hdfs://nn:8020/logs/2009/01/01/01"
at = "2009-01-01T00:00Z"

[[data]]
uri = "hdfs://nn:8020/logs/2009/01/01/03"
at = "2009-01-01T05:00Z"
"#;

/// `--explain` of a TIMEDOUT action names what it lacked: each path of
/// Oozie's missing list as its last check left it (the scan stops at the
/// first missing path, so a later one there all along is still listed:
/// core/src/main/java/org/apache/oozie/coord/input/dependency/CoordOldInputDependency.java:193-231,
/// apache/oozie at 8bdac8be, after release-5.2.1), with its data-in, since
/// the first input check (at max(nominal, created), from which the timeout
/// counts: core/src/main/java/org/apache/oozie/command/coord/CoordActionInputCheckXCommand.java:269-275),
/// and when (if ever) it arrived; and the latest/future instances never
/// resolved (tried only once every other input is there,
/// CoordActionInputCheckXCommand.java:184-187).
/// With `--format json`, the same as one JSON object (docs/simulate.md).
#[test]
fn explain_of_a_timed_out_action_names_its_missing_inputs_in_text_and_json() {
    let dir = common::fresh_dir("agrees-explain-timedout");
    write(&dir, "coordinator.xml", TIMES_OUT);
    write(&dir, "scenario.toml", TIMES_OUT_SCENARIO);
    let d = dir.display().to_string();
    let out = common::coordc_in(&d, &["simulate", "scenario.toml", "--explain", "h@2"]);
    common::expect_code(&out, 0, "explain h@2");
    assert_eq!(
        common::stdout(&out),
        "h@2 (nominal 2009-01-01T02:00Z, created 2009-01-01T01:55:10Z) is TIMEDOUT since 2009-01-01T02:11:00Z.
It became TIMEDOUT: waited 11 min since 2009-01-01T02:00:00Z (more than its timeout of 10 min).
It lacked hdfs://nn:8020/logs/2009/01/01/02/_SUCCESS (data-in input), missing since its first input check at 2009-01-01T02:00:00Z; it never arrived.
It lacked hdfs://nn:8020/logs/2009/01/01/01/_SUCCESS (data-in before), missing since its first input check at 2009-01-01T02:00:00Z; it was there from 2009-01-01T00:00:00Z, but no check reached it before the first missing path.
Its ${coord:latest(0)} (data-in newest) was never resolved: latest/future instances are resolved only once every other input is there.
"
    );
    let out = common::coordc_in(
        &d,
        &[
            "simulate",
            "scenario.toml",
            "--explain",
            "h@3",
            "--format",
            "json",
        ],
    );
    let said = json_of(&out, "explain h@3 as JSON");
    assert_eq!(
        said,
        serde_json::json!({
            "job": "h",
            "action": 3,
            "nominal_time": "2009-01-01T03:00Z",
            "created_time": "2009-01-01T02:55:10Z",
            "status": "TIMEDOUT",
            "since": "2009-01-01T03:11:00Z",
            "missing": [
                {
                    "data_in": "input",
                    "uri": "hdfs://nn:8020/logs/2009/01/01/03",
                    "path": "hdfs://nn:8020/logs/2009/01/01/03/_SUCCESS",
                    "missing_since": "2009-01-01T03:00:00Z",
                    "arrives": "2009-01-01T05:00:00Z"
                },
                {
                    "data_in": "before",
                    "uri": "hdfs://nn:8020/logs/2009/01/01/02",
                    "path": "hdfs://nn:8020/logs/2009/01/01/02/_SUCCESS",
                    "missing_since": "2009-01-01T03:00:00Z",
                    "arrives": null
                }
            ],
            "unresolved": [{"data_in": "newest", "instance": "${coord:latest(0)}"}],
            "timeout": {
                "minutes": 10,
                "counted_from": "2009-01-01T03:00:00Z",
                "deadline": "2009-01-01T03:11:00Z"
            },
            "explanation": [
                "h@3 (nominal 2009-01-01T03:00Z, created 2009-01-01T02:55:10Z) is TIMEDOUT since 2009-01-01T03:11:00Z.",
                "It became TIMEDOUT: waited 11 min since 2009-01-01T03:00:00Z (more than its timeout of 10 min).",
                "It lacked hdfs://nn:8020/logs/2009/01/01/03/_SUCCESS (data-in input), missing since its first input check at 2009-01-01T03:00:00Z; it arrived at 2009-01-01T05:00:00Z, after the timeout.",
                "It lacked hdfs://nn:8020/logs/2009/01/01/02/_SUCCESS (data-in before), missing since its first input check at 2009-01-01T03:00:00Z; it never arrived.",
                "Its ${coord:latest(0)} (data-in newest) was never resolved: latest/future instances are resolved only once every other input is there."
            ]
        })
    );
    // An action not materialized yet, as JSON: its status says so.
    let out = common::coordc_in(
        &d,
        &[
            "simulate",
            "scenario.toml",
            "--explain",
            "h@3",
            "--format",
            "json",
            "--at",
            "2009-01-01T01:00Z",
        ],
    );
    let said = json_of(&out, "explain h@3 before it exists");
    assert_eq!(said["status"], "NOT_MATERIALIZED");
    assert_eq!(said["created_time"], serde_json::Value::Null);
    assert!(
        said["explanation"][0]
            .as_str()
            .unwrap()
            .contains("is not materialized")
    );
}
