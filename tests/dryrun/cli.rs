//! `coordc dryrun` end to end: the spec's worked results as assertions (with the
//! corrections docs/dryrun.md and docs/time.md give), snapshots of every corpus
//! application's dry run (reviewed), and bad input.

use crate::common;

use common::{coordc, stderr, stdout};
use std::path::Path;

fn corpus(name: &str) -> String {
    format!(
        "{}/corpus/coord/{name}/coordinator.xml",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn dryrun_json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["dryrun", "--format", "json"];
    all.extend_from_slice(args);
    let out = coordc(&all);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    serde_json::from_str(&stdout(&out)).expect("one JSON document")
}

fn config(action: &serde_json::Value, name: &str) -> String {
    action["workflow"]["configuration"][name]
        .as_str()
        .unwrap_or_else(|| panic!("{name} in {action}"))
        .to_string()
}

#[test]
fn spec_6_3_example_2_worked_results() {
    // Coordinator spec §6.3 example 2: "The workflow job invocation for the first
    // coordinator action would resolve to ... 200901/02/data", the second to 03.
    let run = dryrun_json(&[&corpus("spec-6.3-example-2"), "--limit", "2"]);
    assert_eq!(run["app"], "hello-coord");
    let actions = run["actions"].as_array().unwrap();
    assert_eq!(actions[0]["nominal_time"], "2009-01-02T08:00Z");
    assert_eq!(
        config(&actions[0], "wfInput"),
        "hdfs://bar:8020/app/logs/200901/02/data"
    );
    assert_eq!(
        config(&actions[0], "wfOutput"),
        "hdfs://bar:8020/app/stats/2009/01/02/data"
    );
    assert_eq!(
        config(&actions[1], "wfInput"),
        "hdfs://bar:8020/app/logs/200901/03/data"
    );
    assert_eq!(
        config(&actions[1], "wfOutput"),
        "hdfs://bar:8020/app/stats/2009/01/03/data"
    );
    // A year of daily actions in Los Angeles: 365, each at local midnight, so
    // 08:00Z in winter and 07:00Z in summer (CoordMaterializeTransitionXCommand).
    let all = dryrun_json(&[&corpus("spec-6.3-example-2")]);
    let all = all["actions"].as_array().unwrap();
    assert_eq!(all.len(), 365);
    assert_eq!(all[100]["nominal_time"], "2009-04-12T07:00Z");
}

#[test]
fn spec_6_3_example_1_single_action() {
    // §6.3 example 1 (end corrected from the start to one day later): one action,
    // resolved to the same URIs as example 2's first.
    let run = dryrun_json(&[&corpus("spec-6.3-example-1")]);
    let actions = run["actions"].as_array().unwrap();
    assert_eq!(actions.len(), 1);
    assert_eq!(
        actions[0]["inputs"]["input"][0],
        "hdfs://bar:8020/app/logs/200901/02/data"
    );
    assert_eq!(
        actions[0]["outputs"]["output"][0],
        "hdfs://bar:8020/app/stats/2009/01/02/data"
    );
}

#[test]
fn spec_6_3_example_3_ranges_newest_first() {
    // §6.3 example 3 with 24:00 written as 00:00 of the next day: the range
    // current(-6)..current(0) lists seven daily instances newest first (Oozie's
    // order, CoordELFunctions currentRange; the spec lists them oldest first, with
    // typos: 05 twice, 16), and the day in each URI is the day after the spec's
    // "end of day" one.
    let run = dryrun_json(&[&corpus("spec-6.3-example-3"), "--limit", "2"]);
    let actions = run["actions"].as_array().unwrap();
    let first: Vec<String> = (2..=8)
        .rev()
        .map(|d| format!("hdfs://bar:8020/app/logs/200901/{d:02}"))
        .collect();
    assert_eq!(actions[0]["inputs"]["input"], serde_json::json!(first));
    assert_eq!(config(&actions[0], "wfInput"), first.join(","));
    assert_eq!(
        config(&actions[0], "wfOutput"),
        "hdfs://bar:8020/app/weeklystats/2009/01/08"
    );
    assert_eq!(actions[1]["nominal_time"], "2009-01-15T00:00Z");
    assert_eq!(
        actions[1]["inputs"]["input"][6],
        "hdfs://bar:8020/app/logs/200901/09"
    );
}

#[test]
fn spec_7_dst_use_cases() {
    // §7.1: the first action keeps only the initial instance (§6.6.11, with
    // Oozie's off-by-one), then 24 hourly instances a day.
    let run = dryrun_json(&[&corpus("spec-7.1"), "--limit", "2"]);
    let actions = run["actions"].as_array().unwrap();
    assert_eq!(
        actions[0]["inputs"]["inputLogs"].as_array().unwrap().len(),
        1
    );
    assert_eq!(
        actions[1]["inputs"]["inputLogs"].as_array().unwrap().len(),
        24
    );
    // §7.2 use case 1: 23 instances on the spring-forward day, each URI in UTC
    // (the processing zone), the action at local midnight.
    let run = dryrun_json(&[
        &corpus("spec-7.2-use-case-1"),
        "--from",
        "2009-03-07T00:00Z",
        "--limit",
        "3",
    ]);
    let actions = run["actions"].as_array().unwrap();
    let counts: Vec<usize> = actions
        .iter()
        .map(|a| a["inputs"]["EC"].as_array().unwrap().len())
        .collect();
    assert_eq!(counts, [24, 23, 24]);
    assert_eq!(actions[1]["nominal_time"], "2009-03-08T05:00Z");
    assert_eq!(actions[1]["number"], 66, "numbered from the job's start");
    assert_eq!(actions[2]["nominal_time"], "2009-03-09T04:00Z");
    assert_eq!(
        actions[1]["inputs"]["EC"][0],
        "hdfs://bar:8020/app/logs/eastcoast/2009/03/08/05"
    );
    assert_eq!(
        actions[1]["inputs"]["EC"][22],
        "hdfs://bar:8020/app/logs/eastcoast/2009/03/07/07"
    );
    // Use case 3: Berlin shifted by tzOffset()/60 = 6 hours before the US switch.
    let run = dryrun_json(&[
        &corpus("spec-7.2-use-case-3"),
        "--from",
        "2009-03-08T00:00Z",
        "--limit",
        "1",
    ]);
    let eu = run["actions"][0]["inputs"]["EU"].as_array().unwrap();
    assert_eq!(eu.len(), 24);
    assert_eq!(eu[0], "hdfs://bar:8020/app/logs/europe/2009/03/07/23");
}

#[test]
fn spec_12_sla_resolved_per_action() {
    // §12: each <sla:info> element is evaluated for the action
    // (CoordCommandUtils.materializeSLA); MINUTES is 1 in SLA EL.
    let run = dryrun_json(&[&corpus("spec-12-sla"), "--limit", "1"]);
    let sla = &run["actions"][0]["sla"];
    assert_eq!(sla["nominal-time"], "2009-01-02T08:01Z");
    assert_eq!(sla["should-end"], "55");
    assert_eq!(
        sla["notification-msg"],
        "log processor run for: 2009-01-02T08:01Z"
    );
}

#[test]
fn spec_6_10_input_logic() {
    // Coordinator spec §6.10 examples 1, 2, 5: the condition with each input's min and
    // wait as Oozie's InputLogicParser hands them down; coord:dataIn of a named
    // condition depends on which data exist, so it stays the call
    // (CoordInputLogicEvaluatorUtil.getInputDependencies returns the call until
    // the condition holds); coord:dataIn of a data-in is all its URIs.
    let run = dryrun_json(&[&corpus("spec-6.10-or"), "--limit", "2"]);
    let action = &run["actions"][1];
    assert_eq!(
        action["input_logic"],
        serde_json::json!({"or": [{"data_in": "A", "min": 2, "wait": 10}, {"data_in": "B", "min": 2}], "name": "AorB"})
    );
    assert_eq!(
        config(action, "inputCheckDataAorB"),
        "${coord:dataIn('AorB')}"
    );
    let a = action["inputs"]["A"].as_array().unwrap();
    assert_eq!(a.len(), 5);
    assert_eq!(config(action, "inputA").split(',').count(), 5);
    // Example 6: the parent's min and wait reach both inputs (the spec's
    // "min = 2" there is a typo for the 5 it sets).
    let run = dryrun_json(&[&corpus("spec-6.10-min-wait-parent"), "--limit", "1"]);
    assert_eq!(
        run["actions"][0]["input_logic"]["or"],
        serde_json::json!([{"data_in": "A", "min": 5, "wait": 10}, {"data_in": "B", "min": 5, "wait": 10}])
    );
    // Examples 2 and 7 as written: C and D are no data-ins (E1028 in Oozie).
    let out = coordc(&["dryrun", &corpus("spec-6.10-nested-as-written")]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert_eq!(err.matches("error[CO007]").count(), 2, "{err}");
    assert!(err.contains("coordinator.xml:30:28"), "{err}");
    // A combine of unequal ranges fails the action that has them.
    let dir = common::fresh_dir("dryrun-combine");
    let app = dir.join("coordinator.xml");
    let text = std::fs::read_to_string(corpus("spec-6.10-combine"))
        .unwrap()
        .replacen("${coord:current(-5)}", "${coord:current(-4)}", 1);
    std::fs::write(&app, text).unwrap();
    std::fs::write(
        dir.join("job.properties"),
        "nameNode=hdfs://nn\nexamplesRoot=x\nuser.name=joe\n",
    )
    .unwrap();
    // Action 1 has three instances of each (the earlier ones precede the
    // initial instance); action 2 has four of A and five of B.
    let out = coordc(&["dryrun", app.to_str().unwrap(), "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let listed: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(listed["actions"].as_array().unwrap().len(), 1);
    assert!(stderr(&out).contains("(A: 4, B: 5)"), "{}", stderr(&out));
}

#[test]
fn spec_6_8_hcatalog_functions() {
    // Coordinator spec §6.8.4: the 2009-01-02T00:00Z action reads the 24 hourly
    // partitions 2009010101..2009010200, newest first as Oozie lists ranges;
    // HCatELFunctions builds the pig filter with quoted values.
    let run = dryrun_json(&[&corpus("spec-6.8-example-1"), "--limit", "1"]);
    let action = &run["actions"][0];
    assert_eq!(config(action, "IN_DB"), "myInputDatabase");
    assert_eq!(config(action, "IN_TABLE"), "myInputTable");
    let filter = config(action, "FILTER");
    let terms: Vec<&str> = filter.split(" OR ").collect();
    assert_eq!(terms.len(), 24);
    assert_eq!(terms[0], "(datestamp=='2009010200' AND region=='USA')");
    assert_eq!(terms[23], "(datestamp=='2009010101' AND region=='USA')");
    assert_eq!(config(action, "OUT_DB"), "myOutputDatabase");
    assert_eq!(config(action, "OUT_TABLE"), "myOutputTable");
    // The daily output instances start at 01:00: current(0) is 2009-01-01T01:00Z.
    assert_eq!(config(action, "OUT_PARTITIONS"), "'datestamp=20090101'");
    // §6.8.7: string min and max of the partition values.
    let run = dryrun_json(&[&corpus("spec-6.8-example-2"), "--limit", "1"]);
    let action = &run["actions"][0];
    assert_eq!(config(action, "DATE_MIN"), "2009010101");
    assert_eq!(config(action, "DATE_MAX"), "2009010200");
    assert_eq!(config(action, "OUT_PARTITION_VAL_REGION"), "USA");
    assert_eq!(config(action, "OUT_PARTITION_VAL_DATE"), "20090101");
    // §6.8.8: one partition, in hive-export form.
    let run = dryrun_json(&[&corpus("spec-6.8-example-3"), "--limit", "2"]);
    assert_eq!(
        config(&run["actions"][1], "EXPORT_PARTITION"),
        "year='2014',month='03',day='28',hour='09'"
    );
    assert_eq!(config(&run["actions"][1], "IMPORT_DB"), "myInputDatabase2");
    assert_eq!(
        config(&run["actions"][1], "EXPORT_PATH"),
        "hdfs://bar:8020/staging/2014-03-28-09/data"
    );
}

/// The dry run of a coordinator that reads `dataset` of corpus/datasets/`file`
/// as `<instance>${coord:current(0)}</instance>`, one action per instance from
/// the initial one (`frequency`, `start`, `zone` are the dataset's).
fn dataset_harness(
    file: &str,
    dataset: &str,
    frequency: &str,
    start: &str,
    zone: &str,
) -> std::process::Output {
    let dir = common::fresh_dir(&format!("dryrun-datasets-{}", file.replace('.', "-")));
    let include = format!("{}/corpus/datasets/{file}", env!("CARGO_MANIFEST_DIR"));
    let app = dir.join("coordinator.xml");
    std::fs::write(
        &app,
        format!(
            r#"<coordinator-app name="harness" frequency="{frequency}" start="{start}" end="2012-01-01T00:00Z" timezone="{zone}" xmlns="uri:oozie:coordinator:0.4">
  <datasets><include>{include}</include></datasets>
  <input-events><data-in name="in" dataset="{dataset}"><instance>${{coord:current(0)}}</instance></data-in></input-events>
  <action><workflow><app-path>hdfs://nn/wf</app-path></workflow></action>
</coordinator-app>"#
        ),
    )
    .unwrap();
    coordc(&[
        "dryrun",
        app.to_str().unwrap(),
        "--limit",
        "3",
        "--format",
        "json",
        "-D",
        "market=us",
    ])
}

fn harness_uris(out: &std::process::Output) -> Vec<String> {
    assert_eq!(out.status.code(), Some(0), "{}", stderr(out));
    let run: serde_json::Value = serde_json::from_str(&stdout(out)).unwrap();
    run["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["inputs"]["in"][0].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn spec_5_dataset_examples() {
    let la = "America/Los_Angeles";
    // §5.1 example 1; the spec's listing (…/usr/app/[market]/2009/02/15/data)
    // does not follow its own uri-template.
    let out = dataset_harness(
        "spec-5.1-example-1.xml",
        "logs",
        "${coord:days(1)}",
        "2009-02-15T08:15Z",
        la,
    );
    assert_eq!(
        harness_uris(&out),
        [
            "hdfs://foo:8020/app/logs/us/200902/15/data",
            "hdfs://foo:8020/app/logs/us/200902/16/data",
            "hdfs://foo:8020/app/logs/us/200902/17/data"
        ]
    );
    // Example 2: monthly on the 10th.
    let out = dataset_harness(
        "spec-5.1-example-2.xml",
        "stats",
        "${coord:months(1)}",
        "2009-01-10T10:00Z",
        la,
    );
    assert_eq!(
        harness_uris(&out),
        [
            "hdfs://foo:8020/usr/app/stats/2009/01/data",
            "hdfs://foo:8020/usr/app/stats/2009/02/data",
            "hdfs://foo:8020/usr/app/stats/2009/03/data"
        ]
    );
    // Example 3: quarterly from January 31 (April 30, July 31).
    let out = dataset_harness(
        "spec-5.1-example-3.xml",
        "stats",
        "${coord:months(3)}",
        "2009-01-31T20:00Z",
        la,
    );
    assert_eq!(
        harness_uris(&out),
        [
            "hdfs://foo:8020/usr/app/stats/2009/01/data",
            "hdfs://foo:8020/usr/app/stats/2009/04/data",
            "hdfs://foo:8020/usr/app/stats/2009/07/data"
        ]
    );
    // Examples 4 and 5: a finer template keeps the initial instance's hour and
    // minute (UTC fields: 10:30Z).
    let out = dataset_harness(
        "spec-5.1-example-4.xml",
        "logs",
        "${coord:days(1)}",
        "2009-01-01T10:30Z",
        la,
    );
    assert_eq!(
        harness_uris(&out),
        [
            "hdfs://foo:8020/usr/app/logs/2009/01/01/data",
            "hdfs://foo:8020/usr/app/logs/2009/01/02/data",
            "hdfs://foo:8020/usr/app/logs/2009/01/03/data"
        ]
    );
    let out = dataset_harness(
        "spec-5.1-example-5.xml",
        "logs",
        "${coord:days(1)}",
        "2009-01-01T10:30Z",
        la,
    );
    assert_eq!(
        harness_uris(&out),
        [
            "hdfs://foo:8020/usr/app/logs/2009/01/01/10/30/data",
            "hdfs://foo:8020/usr/app/logs/2009/01/02/10/30/data",
            "hdfs://foo:8020/usr/app/logs/2009/01/03/10/30/data"
        ]
    );
    // §5.2: an HCatalog partition; the template has no time fields.
    let out = dataset_harness(
        "spec-5.2-hcatalog.xml",
        "logs",
        "${coord:days(1)}",
        "2009-02-15T08:15Z",
        la,
    );
    assert_eq!(
        harness_uris(&out)[0],
        "hcat://myhcatmetastore:9080/database1/table1/myfirstpartitionkey=myfirstvalue;mysecondpartitionkey=mysecondvalue"
    );
    // §5.4: the definitions file and its include (found beside it); every 12 hours.
    let out = dataset_harness(
        "spec-5.4-definitions.xml",
        "logs",
        "${coord:hours(12)}",
        "2009-02-15T08:15Z",
        la,
    );
    assert_eq!(
        harness_uris(&out),
        [
            "hdfs://foo:8020/app/logs/us/200902/15/08/15/data",
            "hdfs://foo:8020/app/logs/us/200902/15/20/15/data",
            "hdfs://foo:8020/app/logs/us/200902/16/08/15/data"
        ]
    );
    let out = dataset_harness(
        "spec-5.4-definitions.xml",
        "globallogs",
        "${coord:hours(1)}",
        "2009-01-01T00:00Z",
        "UTC",
    );
    assert_eq!(
        harness_uris(&out)[2],
        "hdfs://foo:8020/app/globallogs/2009/01/01/02"
    );
    // As written: Americas/Los_Angeles is no zone; reported with the fix.
    let out = dataset_harness(
        "spec-5.4-definitions-as-written.xml",
        "logs",
        "${coord:hours(12)}",
        "2009-02-15T08:15Z",
        la,
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("error[TM002]"), "{err}");
    assert!(err.contains("America/Los_Angeles"), "{err}");
    assert!(
        err.contains("spec-5.4-definitions-as-written.xml:7:"),
        "{err}"
    );
}

/// The first `n` actions of a corpus application, as JSON.
fn corpus_actions(name: &str, n: usize) -> Vec<serde_json::Value> {
    let run = dryrun_json(&[&corpus(name), "--limit", &n.to_string()]);
    run["actions"].as_array().unwrap().clone()
}

#[test]
fn spec_6_5_to_6_9_worked_results() {
    // §6.5 example 2: jobEnd is not given, so the <parameters> default ends the job.
    let out = coordc(&["dryrun", &corpus("spec-6.5-example-2"), "--limit", "1"]);
    assert!(
        stdout(&out)
            .starts_with("coordinator app-coord (UTC), 2009-01-02T00:00Z to 2012-12-01T22:00Z")
    );
    // §6.6.2 example 2: the -90 minute start is fast-forwarded to current(-1).
    let a = &corpus_actions("spec-6.6.2-example-2", 1)[0];
    assert_eq!(
        a["inputs"]["input"],
        serde_json::json!([
            "hdfs://bar:8020/app/logs/2009/01/02/00",
            "hdfs://bar:8020/app/logs/2009/01/01/23"
        ])
    );
    // §6.6.11: the first action keeps the initial instance (the spec says it reads one).
    let a = &corpus_actions("spec-6.6.11-before-initial", 1)[0];
    assert_eq!(
        a["inputs"]["inputLogs"],
        serde_json::json!([
            "hdfs://bar:8020/app/logs/2009/01/01/01",
            "hdfs://bar:8020/app/logs/2009/01/01/00"
        ])
    );
    // §6.7.1: current(-(hoursInDay(0)-1))..current(-1) is 23 instances, 01..23 of
    // January 1st, newest first (the spec lists a 24th, "2009/02/00/00").
    let a = &corpus_actions("spec-6.7.1-data-in", 1)[0];
    let joined = config(a, "wfInput");
    let uris: Vec<&str> = joined.split(',').collect();
    assert_eq!(uris.len(), 23);
    assert_eq!(uris[0], "hdfs://bar:8020/app/logs/2009/01/01/23");
    assert_eq!(uris[22], "hdfs://bar:8020/app/logs/2009/01/01/01");
    // §6.7.2: the daily output (the spec's ".../app/logs/2009/01/02" misses the
    // daily-logs of the dataset's template).
    let a = &corpus_actions("spec-6.7.2-data-out", 1)[0];
    assert_eq!(
        config(a, "wfOutput"),
        "hdfs://bar:8020/app/daily-logs/2009/01/02"
    );
    // §6.7.3: nominal times from 2009-01-02T00:00Z, a day apart.
    let actions = corpus_actions("spec-6.7.3-nominal-time", 3);
    let times: Vec<&str> = actions
        .iter()
        .map(|a| a["nominal_time"].as_str().unwrap())
        .collect();
    assert_eq!(
        times,
        [
            "2009-01-02T00:00Z",
            "2009-01-03T00:00Z",
            "2009-01-04T00:00Z"
        ]
    );
    assert_eq!(config(&actions[0], "nextInstance"), "2009-01-03T00:00Z");
    // §11: the job configuration as a Hadoop XML file gives user.name and
    // nameNode to the same application.
    let config_file = format!(
        "{}/corpus/config/spec-11-job-configuration.xml",
        env!("CARGO_MANIFEST_DIR")
    );
    let run = dryrun_json(&[
        &corpus("spec-6.7.3-nominal-time"),
        "--config",
        &config_file,
        "--limit",
        "1",
    ]);
    assert_eq!(
        run["actions"][0]["workflow"]["app_path"],
        "hdfs://foo:8020/user/joe/examples/apps/aggregator"
    );
    // §6.7.4: coord:actualTime() is the server's; the value is left as written.
    let a = &corpus_actions("spec-6.7.4-actual-time", 1)[0];
    assert_eq!(
        config(a, "actualTime"),
        "${coord:formatTime(coord:actualTime(), 'yyyy-MM-dd')}"
    );
    // §6.9.1 and §6.9.2 (dateTzOffset prints the Los Angeles wall time with a
    // literal Z: 16:00, where the spec says 15:00; CEF:231-237, docs/time.md).
    let a = &corpus_actions("spec-6.9.1-date-offset", 1)[0];
    assert_eq!(config(a, "nextInstance"), "2009-01-02T23:00Z");
    assert_eq!(config(a, "previousInstance"), "2008-12-31T23:00Z");
    let a = &corpus_actions("spec-6.9.2-date-tz-offset", 1)[0];
    assert_eq!(config(a, "myDate"), "2009-01-01T16:00Z");
}

#[test]
fn corpus_snapshots() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/coord");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for name in names {
        let app = format!("corpus/coord/{name}/coordinator.xml");
        let out = common::coordc_in(
            env!("CARGO_MANIFEST_DIR"),
            &["dryrun", &app, "--limit", "2"],
        );
        let shown = format!(
            "exit: {:?}\n--- stdout\n{}--- stderr\n{}",
            out.status.code(),
            stdout(&out),
            stderr(&out)
        );
        insta::assert_snapshot!(format!("dryrun_{name}"), shown);
    }
}

#[test]
fn configuration_files_definitions_and_parameters() {
    let dir = common::fresh_dir("dryrun-config");
    let app = dir.join("coordinator.xml");
    std::fs::write(
        &app,
        r#"<coordinator-app name="p" frequency="${freq}" start="${start}" end="2009-01-01T03:00Z" timezone="UTC" xmlns="uri:oozie:coordinator:0.4">
  <parameters>
    <property><name>market</name><value>us</value></property>
    <property><name>queue</name></property>
  </parameters>
  <action><workflow><app-path>${nameNode}/apps/${market}</app-path>
    <configuration><property><name>queue</name><value>${queue}</value></property>
      <property><name>user</name><value>${coord:user()}</value></property></configuration>
  </workflow></action>
</coordinator-app>"#,
    )
    .unwrap();
    // job.properties beside the application is read when no --config is given.
    std::fs::write(
        dir.join("job.properties"),
        "nameNode=hdfs://nn:8020\nfreq=60\nstart = 2009-01-01T00:00Z\nuser.name=joe\n",
    )
    .unwrap();
    let app = app.to_str().unwrap();
    let out = coordc(&["dryrun", app]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("error[CO004]"), "{}", stderr(&out));
    assert!(stderr(&out).contains("`queue`"), "{}", stderr(&out));
    let run = dryrun_json(&[app, "-D", "queue=etl", "-D", "market=eu"]);
    let actions = run["actions"].as_array().unwrap();
    assert_eq!(actions.len(), 3);
    assert_eq!(actions[0]["workflow"]["app_path"], "hdfs://nn:8020/apps/eu");
    assert_eq!(config(&actions[0], "queue"), "etl");
    assert_eq!(config(&actions[0], "user"), "joe");
    // An XML configuration given explicitly replaces job.properties.
    let xml = dir.join("job.xml");
    std::fs::write(&xml, "<configuration><property><name>nameNode</name><value>hdfs://other</value></property><property><name>freq</name><value>60</value></property><property><name>start</name><value>2009-01-01T01:00Z</value></property><property><name>queue</name><value>q</value></property></configuration>").unwrap();
    let run = dryrun_json(&[app, "--config", xml.to_str().unwrap()]);
    let actions = run["actions"].as_array().unwrap();
    assert_eq!(actions.len(), 2);
    assert_eq!(actions[0]["workflow"]["app_path"], "hdfs://other/apps/us");
}

#[test]
fn properties_are_trimmed_and_expanded_as_the_server_does() {
    // BaseJobsServlet.doPost: conf.trim().resolve() before anything reads the
    // job's properties, so a property may build on another.
    let dir = common::fresh_dir("dryrun-resolve");
    let app = dir.join("coordinator.xml");
    std::fs::write(
        &app,
        r#"<coordinator-app name="r" frequency="60" start="2009-01-01T00:00Z" end="2009-01-01T01:00Z" timezone="UTC" xmlns="uri:oozie:coordinator:0.2">
  <action><workflow><app-path>${appPath}</app-path>
    <configuration><property><name>later</name><value>${later}</value></property></configuration>
  </workflow></action>
</coordinator-app>"#,
    )
    .unwrap();
    let props = dir.join("job.properties");
    std::fs::write(
        &props,
        "nameNode=hdfs://nn:8020  \nappPath=${nameNode}/apps/${app}\napp=daily\nlater=${nameNode}/${nowhere}/${app}\n",
    )
    .unwrap();
    let run = dryrun_json(&[app.to_str().unwrap()]);
    let action = &run["actions"][0];
    assert_eq!(action["workflow"]["app_path"], "hdfs://nn:8020/apps/daily");
    // Expansion stops at the first reference to no property; the EL then
    // renders the value as a plain string.
    assert_eq!(config(action, "later"), "hdfs://nn:8020/${nowhere}/${app}");
    // A property that refers to itself: the server's depth error, at the value.
    std::fs::write(&props, "nameNode=hdfs://nn\nappPath=${appPath}/x\n").unwrap();
    let out = coordc(&["dryrun", app.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("error[CF003]"), "{err}");
    assert!(err.contains("job.properties:2:9"), "{err}");
}

#[test]
fn includes_are_mapped_followed_and_checked() {
    let dir = common::fresh_dir("dryrun-include");
    let shared = dir.join("shared");
    std::fs::create_dir_all(&shared).unwrap();
    std::fs::write(
        shared.join("datasets.xml"),
        r#"<datasets>
  <include>more.xml</include>
  <dataset name="logs" frequency="60" initial-instance="2009-01-01T00:00Z" timezone="UTC"><uri-template>hdfs://nn/logs/${YEAR}${MONTH}${DAY}${HOUR}</uri-template></dataset>
</datasets>"#,
    )
    .unwrap();
    std::fs::write(
        shared.join("more.xml"),
        r#"<datasets><dataset name="stats" frequency="60" initial-instance="2009-01-01T00:00Z" timezone="UTC"><uri-template>hdfs://nn/included-stats/${HOUR}</uri-template></dataset></datasets>"#,
    )
    .unwrap();
    let app = dir.join("coordinator.xml");
    let write_app = |include: &str, embedded: &str| {
        std::fs::write(
            &app,
            format!(
                r#"<coordinator-app name="i" frequency="60" start="2009-01-01T05:00Z" end="2009-01-01T06:00Z" timezone="UTC" xmlns="uri:oozie:coordinator:0.2">
  <datasets><include>{include}</include>{embedded}</datasets>
  <input-events><data-in name="in" dataset="logs"><start-instance>${{coord:current(-1)}}</start-instance><end-instance>${{coord:current(0)}}</end-instance></data-in></input-events>
  <output-events><data-out name="out" dataset="stats"><instance>${{coord:current(0)}}</instance></data-out></output-events>
  <action><workflow><app-path>hdfs://nn/wf</app-path></workflow></action>
</coordinator-app>"#
            ),
        )
        .unwrap();
    };
    let app_path = app.to_str().unwrap().to_string();
    // hdfs:// paths are mapped to local folders; nested includes are relative
    // to the including file.
    write_app("hdfs://nn:8020/apps/shared/datasets.xml", "");
    let map = format!("hdfs://nn:8020/apps={}", dir.display());
    let run = dryrun_json(&[&app_path, "--map", &map]);
    let action = &run["actions"][0];
    assert_eq!(
        action["inputs"]["in"],
        serde_json::json!(["hdfs://nn/logs/2009010105", "hdfs://nn/logs/2009010104"])
    );
    assert_eq!(action["outputs"]["out"][0], "hdfs://nn/included-stats/05");
    // An embedded dataset overrides an included one (spec §10.1.1).
    write_app(
        "shared/datasets.xml",
        r#"<dataset name="stats" frequency="60" initial-instance="2009-01-01T00:00Z" timezone="UTC"><uri-template>hdfs://nn/embedded-stats/${HOUR}</uri-template></dataset>"#,
    );
    let run = dryrun_json(&[&app_path]);
    assert_eq!(
        run["actions"][0]["outputs"]["out"][0],
        "hdfs://nn/embedded-stats/05"
    );
    // An include that cannot be resolved is the error; the datasets it may have
    // defined are not reported missing on top of it.
    write_app("${datasetsFile}", "");
    let out = coordc(&["dryrun", &app_path]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("error[EL005]") && !err.contains("undefined dataset"),
        "{err}"
    );
    // Two included files defining one dataset, and an include loop, are errors.
    write_app("shared/datasets.xml", "");
    std::fs::write(shared.join("more.xml"), r#"<datasets><include>datasets.xml</include><dataset name="logs" frequency="60" initial-instance="2009-01-01T00:00Z" timezone="UTC"><uri-template>x</uri-template></dataset></datasets>"#).unwrap();
    let out = coordc(&["dryrun", &app_path]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("error[CO002]") && err.contains("Duplicate Dataset logs"),
        "{err}"
    );
    assert!(err.contains("includes itself"), "{err}");
    assert!(err.contains("more.xml"), "{err}");
}

#[test]
fn unresolved_latest_and_bad_ranges() {
    let dir = common::fresh_dir("dryrun-ranges");
    let app = dir.join("coordinator.xml");
    let write_app = |start: &str, end: &str| {
        std::fs::write(
            &app,
            format!(
                r#"<coordinator-app name="r" frequency="60" start="2009-01-01T05:00Z" end="2009-01-01T06:00Z" timezone="UTC" xmlns="uri:oozie:coordinator:0.2">
  <datasets><dataset name="logs" frequency="60" initial-instance="2009-01-01T00:00Z" timezone="UTC"><uri-template>hdfs://nn/${{HOUR}}</uri-template></dataset></datasets>
  <input-events><data-in name="in" dataset="logs"><start-instance>{start}</start-instance><end-instance>{end}</end-instance></data-in></input-events>
  <action><workflow><app-path>hdfs://nn/wf</app-path><configuration><property><name>input</name><value>${{coord:dataIn('in')}}</value></property></configuration></workflow></action>
</coordinator-app>"#
            ),
        )
        .unwrap();
    };
    let app_path = app.to_str().unwrap().to_string();
    // latest needs data: left unresolved, and dataIn echoes itself (CEF:451-477).
    write_app("${coord:latest(-2)}", "${coord:latest(0)}");
    let run = dryrun_json(&[&app_path]);
    let action = &run["actions"][0];
    assert_eq!(action["unresolved"]["in"][0], "${coord:latestRange(-2,0)}");
    assert_eq!(config(action, "input"), "${coord:dataIn('in')}");
    // offset ranges fast-forward the start (§6.6.2).
    write_app(
        "${coord:offset(-90, 'MINUTE')}",
        "${coord:offset(0, 'MINUTE')}",
    );
    let run = dryrun_json(&[&app_path]);
    assert_eq!(
        run["actions"][0]["inputs"]["in"],
        serde_json::json!(["hdfs://nn/05", "hdfs://nn/04"])
    );
    // absolute(ts) becomes the current() index of ts at each action
    // (CoordELFunctions.ph2_coord_absolute_range).
    write_app(
        "${coord:absolute('2009-01-01T02:00Z')}",
        "${coord:current(0)}",
    );
    let run = dryrun_json(&[&app_path]);
    assert_eq!(
        run["actions"][0]["inputs"]["in"],
        serde_json::json!([
            "hdfs://nn/05",
            "hdfs://nn/04",
            "hdfs://nn/03",
            "hdfs://nn/02"
        ])
    );
    // A reversed range, mixed functions, and an absolute time that is not an
    // instance fail the action as in Oozie (E1010).
    for (start, end, expected) in [
        (
            "${coord:current(0)}",
            "${coord:current(-1)}",
            "should be equal or earlier than the end-instance",
        ),
        (
            "${coord:current(-1)}",
            "${coord:latest(0)}",
            "both should be either latest or current",
        ),
        (
            "${coord:absolute('2009-01-01T02:30Z')}",
            "${coord:current(0)}",
            "not in phase",
        ),
        (
            "${coord:absolute('2009-01-01T02:00Z')}",
            "${coord:latest(0)}",
            "Only start-instance as absolute",
        ),
    ] {
        write_app(start, end);
        let out = coordc(&["dryrun", &app_path]);
        assert_eq!(out.status.code(), Some(1), "{start} {end}");
        let err = stderr(&out);
        assert!(
            err.contains("error[CO005]") && err.contains(expected),
            "{err}"
        );
    }
}

#[test]
fn bad_input_is_diagnosed_never_a_panic() {
    let dir = common::fresh_dir("dryrun-bad");
    let app = dir.join("coordinator.xml");
    let cases = [
        ("<coordinator-app name=\"a\"", "XML001"),
        (
            "<workflow-app xmlns=\"uri:oozie:coordinator:0.2\" name=\"w\"/>",
            "XML003",
        ),
        (
            r#"<coordinator-app name="a" frequency="1" start="2009-01-01T00:00Z" end="2009-01-02T00:00Z" timezone="Americas/Los_Angeles" xmlns="uri:oozie:coordinator:0.1"><action><workflow><app-path>p</app-path></workflow></action></coordinator-app>"#,
            "TM002",
        ),
        (
            r#"<coordinator-app name="a" frequency="1" start="2009-01-01T00:00Z" end="2009-01-02T00:00Z" timezone="UTC" xmlns="uri:oozie:coordinator:0.1"><action><workflow><app-path>p</app-path></workflow></action></coordinator-app>"#,
            "below Oozie's 5-minute minimum",
        ),
        (
            r#"<coordinator-app name="a" frequency="60" start="2009-01-01T00:00Z" end="2009-01-02T00:00Z" timezone="UTC" xmlns="uri:oozie:coordinator:0.1"><datasets><dataset name="d" frequency="60" initial-instance="2009-01-01T00:00Z" timezone="UTC"><uri-template>${x}</uri-template></dataset></datasets><input-events><data-in name="in" dataset="d"><instance>${coord:current(-1000000000)}</instance></data-in></input-events><action><workflow><app-path>p</app-path></workflow></action></coordinator-app>"#,
            "EL005",
        ),
    ];
    for (text, expected) in cases {
        std::fs::write(&app, text).unwrap();
        let out = coordc(&["dryrun", app.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1), "{text}");
        assert!(stderr(&out).contains(expected), "{text}: {}", stderr(&out));
    }
    // No entity beyond XML's five: a billion-laughs DTD is refused up front.
    std::fs::write(&app, "<?xml version=\"1.0\"?><!DOCTYPE a [<!ENTITY a \"aaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;\">]><coordinator-app name=\"&b;\"/>").unwrap();
    let out = coordc(&["dryrun", app.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("error[XML001]"), "{}", stderr(&out));
    // A 100 MB file is refused by its size, before it is read.
    let big = dir.join("big.xml");
    let file = std::fs::File::create(&big).unwrap();
    file.set_len(100 * 1024 * 1024).unwrap();
    let out = coordc(&["dryrun", big.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("error[XML002]"), "{}", stderr(&out));
    std::fs::remove_file(&big).unwrap();
    // A huge instance range ends in an error, not in a long wait.
    std::fs::write(&app, r#"<coordinator-app name="a" frequency="60" start="2009-01-01T00:00Z" end="2009-01-02T00:00Z" timezone="UTC" xmlns="uri:oozie:coordinator:0.1"><datasets><dataset name="d" frequency="1" initial-instance="1970-01-01T00:00Z" timezone="UTC"><uri-template>u</uri-template></dataset></datasets><input-events><data-in name="in" dataset="d"><start-instance>${coord:current(-1000000000)}</start-instance><end-instance>${coord:current(0)}</end-instance></data-in></input-events><action><workflow><app-path>p</app-path></workflow></action></coordinator-app>"#).unwrap();
    let out = coordc(&["dryrun", app.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("error[CO005]"), "{}", stderr(&out));
    // Usage errors exit 2.
    let out = coordc(&["dryrun", "/nonexistent/coordinator.xml"]);
    assert_eq!(out.status.code(), Some(2));
    let out = coordc(&["dryrun", app.to_str().unwrap(), "--from", "2009-01-01"]);
    assert_eq!(out.status.code(), Some(2));
}

/// One action (as `coordc check` materializes it) is evaluated from the values
/// as written, many from values compiled and bound once per job: the first
/// action must come out the same either way, for every corpus application.
#[test]
fn the_first_action_is_the_same_listed_alone_or_with_others() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/coord");
    let mut compared = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let app = entry.unwrap().path().join("coordinator.xml");
        let run = |limit: &str| {
            coordc(&[
                "dryrun",
                "--format",
                "json",
                app.to_str().unwrap(),
                "--limit",
                limit,
            ])
        };
        let (alone, with_others) = (run("1"), run("3"));
        assert_eq!(alone.status.code(), with_others.status.code(), "{app:?}");
        if alone.status.code() != Some(0) {
            assert_eq!(stderr(&alone), stderr(&with_others), "{app:?}");
            continue;
        }
        let first = |out: &std::process::Output| {
            let run: serde_json::Value = serde_json::from_str(&stdout(out)).unwrap();
            run["actions"][0].clone()
        };
        assert_eq!(first(&alone), first(&with_others), "{app:?}");
        compared += 1;
    }
    assert!(compared > 30, "only {compared} corpus apps dry-run");
}

/// A data-in's or data-out's `dataset` written with EL names the dataset it
/// resolves to with the job's properties: Oozie resolves it before looking
/// the dataset up (CoordSubmitXCommand.resolveIODataset:956-969). One that
/// cannot be resolved is reported where it is written.
#[test]
fn dataset_names_with_el_are_resolved_at_submission() {
    let dir = common::fresh_dir("dryrun-dataset-names");
    let app = dir.join("coordinator.xml");
    std::fs::write(
        &app,
        r#"<coordinator-app name="p" frequency="60" start="2009-01-01T00:00Z" end="2009-01-01T01:00Z" timezone="UTC" xmlns="uri:oozie:coordinator:0.4">
  <datasets>
    <dataset name="raw_web" frequency="60" initial-instance="2009-01-01T00:00Z" timezone="UTC">
      <uri-template>hdfs://nn/raw/web/${YEAR}${MONTH}${DAY}${HOUR}</uri-template>
    </dataset>
  </datasets>
  <input-events>
    <data-in name="in" dataset="raw_${source}"><instance>${coord:current(0)}</instance></data-in>
  </input-events>
  <action><workflow><app-path>hdfs://nn/wf</app-path>
    <configuration><property><name>in</name><value>${coord:dataIn('in')}</value></property></configuration>
  </workflow></action>
</coordinator-app>"#,
    )
    .unwrap();
    let app = app.to_str().unwrap();
    let run = dryrun_json(&[app, "-D", "source=web"]);
    assert_eq!(
        config(&run["actions"][0], "in"),
        "hdfs://nn/raw/web/2009010100"
    );
    let out = coordc(&["dryrun", app, "-D", "source=app"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("raw_app"), "{}", stderr(&out));
    let out = coordc(&["dryrun", app, "-D", "other=x"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("error[EL005]"), "{}", stderr(&out));
    assert!(stderr(&out).contains("source"), "{}", stderr(&out));
    // `check` reports the name that does not resolve, not also the dataset
    // it then cannot find.
    let out = coordc(&["check", app, "-D", "other=x", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let codes: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["EL005"], "{report:#}");
}

/// A cron schedule whose every fire time coordc counts comes before
/// `--from` is an error saying so, not an empty listing.
#[test]
fn a_cron_window_too_far_from_the_start_is_refused() {
    let dir = common::fresh_dir("dryrun-cron-window");
    let app = dir.join("coordinator.xml");
    std::fs::write(
        &app,
        r#"<coordinator-app name="c" frequency="*/5 * * * *" start="1970-01-01T00:00Z" end="9999-01-01T00:00Z" timezone="UTC" xmlns="uri:oozie:coordinator:0.5">
  <action><workflow><app-path>hdfs://nn/wf</app-path></workflow></action>
</coordinator-app>"#,
    )
    .unwrap();
    let app = app.to_str().unwrap();
    let out = coordc(&["dryrun", app, "--from", "9000-01-01T00:00Z", "--limit", "2"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("come before the window's start"),
        "{}",
        stderr(&out)
    );
    // Near the start, the window is listed.
    let run = dryrun_json(&[app, "--from", "1970-01-02T00:00Z", "--limit", "1"]);
    assert_eq!(run["actions"][0]["nominal_time"], "1970-01-02T00:00Z");
}

/// A 5-minute coordinator over 20 years: more actions than the dry run's
/// cap (docs/dryrun.md: without `--limit`, at most 1,000,000 are listed).
const PAST_THE_CAP: &str = r#"<coordinator-app name="cap" frequency="${coord:minutes(5)}"
    start="2009-01-01T00:00Z" end="2029-01-01T00:00Z" timezone="UTC"
    xmlns="uri:oozie:coordinator:0.4">
  <action><workflow><app-path>hdfs://nn/wf</app-path></workflow></action>
</coordinator-app>
"#;

/// A listing coordc's cap cuts says so on stderr, naming the way to see the
/// rest; a listing whose window ends exactly at the cap's last action was
/// not cut, and says nothing; a `--limit` the user gave is no cap either.
#[test]
fn the_dry_run_says_when_it_stops_at_its_cap() {
    let dir = common::fresh_dir("dryrun-cap");
    let app = dir.join("coordinator.xml");
    std::fs::write(&app, PAST_THE_CAP).unwrap();
    let app = app.display().to_string();
    let out = coordc(&["dryrun", &app]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let listing = stdout(&out);
    assert_eq!(listing.matches("\naction ").count(), 1_000_000);
    assert!(listing.ends_with(
        "\naction 1000000 at 2018-07-05T05:15Z (2018-07-05 05:15 UTC)\n  workflow hdfs://nn/wf\n"
    ));
    drop(listing);
    assert_eq!(
        stderr(&out),
        "note: cap: stopped after 1000000 actions (coordc's cap); use --from/--to for a later window, or --limit N to list more\n"
    );
    // The window ends right after the 1,000,000th action: nothing was cut.
    let out = coordc(&["dryrun", &app, "--to", "2018-07-05T05:20Z"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("\naction 1000000 at 2018-07-05T05:15Z"));
    assert_eq!(stderr(&out), "");
    // A limit is what was asked for.
    let out = coordc(&["dryrun", &app, "--limit", "2"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
}
