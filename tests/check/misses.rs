//! What `coordc check` used to miss or say too little about (issue 31, part
//! 5): a dataset without `<uri-template>` in a datasets file, DA002 on
//! templates whose instances never share a URI, did-you-means for dataset,
//! event and node names, the end-before-start error without its values; and
//! `coordc cron`'s weekdays and warnings. Each test drives the binary.

use crate::common;

use common::{check_json, coordc_in, fresh_dir, stderr, stdout, write};

fn diagnostics(doc: &serde_json::Value) -> &Vec<serde_json::Value> {
    doc["diagnostics"].as_array().expect("a diagnostics list")
}

/// The diagnostics of one code.
fn of_code<'a>(doc: &'a serde_json::Value, code: &str) -> Vec<&'a serde_json::Value> {
    diagnostics(doc)
        .iter()
        .filter(|d| d["code"] == code)
        .collect()
}

const DATASETS_WITHOUT_TEMPLATE: &str = r#"<datasets>
  <dataset name="logs" frequency="${coord:hours(1)}" initial-instance="2024-01-01T00:00Z" timezone="UTC">
    <done-flag>_SUCCESS</done-flag>
  </dataset>
  <dataset name="events" frequency="${coord:days(1)}" initial-instance="2024-01-01T00:00Z" timezone="UTC">
    <uri-template>hdfs://nn/events/${YEAR}/${MONTH}/${DAY}</uri-template>
  </dataset>
</datasets>
"#;

/// CoordSubmitXCommand.includeOneDSFile (release-5.2.1, 1130-1164) parses
/// an included file without validating it and calls
/// `getChild("uri-template").setNamespace(...)` on each dataset (1153): a
/// dataset without one is a NullPointerException, E0803 (266-270). coordc
/// reports it at the dataset, checked on its own or through an include.
#[test]
fn a_dataset_without_uri_template_in_a_datasets_file_is_an_error() {
    let dir = fresh_dir("misses-uri-template");
    write(&dir, "datasets.xml", DATASETS_WITHOUT_TEMPLATE);
    let (code, doc) = check_json(&dir, &["datasets.xml"]);
    assert_eq!(code, Some(1), "{doc}");
    let found = of_code(&doc, "CO012");
    assert_eq!(found.len(), 1, "only `logs` lacks one: {doc}");
    assert_eq!(found[0]["severity"], "error");
    assert_eq!(
        (found[0]["line"].as_u64(), found[0]["column"].as_u64()),
        (Some(2), Some(4))
    );
    assert!(
        found[0]["message"]
            .as_str()
            .unwrap()
            .contains("dataset `logs` has no `<uri-template>`"),
        "{doc}"
    );

    // The same file included by a coordinator: reported in the datasets file.
    write(
        &dir,
        "coordinator.xml",
        r#"<coordinator-app name="daily" frequency="${coord:days(1)}"
                 start="2024-01-01T00:00Z" end="2024-02-01T00:00Z" timezone="UTC"
                 xmlns="uri:oozie:coordinator:0.4">
  <datasets>
    <include>datasets.xml</include>
  </datasets>
  <input-events>
    <data-in name="input" dataset="events">
      <instance>${coord:current(0)}</instance>
    </data-in>
  </input-events>
  <action><workflow><app-path>hdfs://nn/apps/daily</app-path></workflow></action>
</coordinator-app>
"#,
    );
    let (code, doc) = check_json(&dir, &["coordinator.xml"]);
    assert_eq!(code, Some(1), "{doc}");
    let found = of_code(&doc, "CO012");
    assert_eq!(found.len(), 1, "{doc}");
    assert_eq!(found[0]["file"], "datasets.xml");

    // In a coordinator, the schema requires it (XML004), and CO012 is not
    // said a second time.
    write(
        &dir,
        "embedded.xml",
        r#"<coordinator-app name="daily" frequency="${coord:days(1)}"
                 start="2024-01-01T00:00Z" end="2024-02-01T00:00Z" timezone="UTC"
                 xmlns="uri:oozie:coordinator:0.4">
  <datasets>
    <dataset name="logs" frequency="${coord:hours(1)}" initial-instance="2024-01-01T00:00Z" timezone="UTC">
      <done-flag>_SUCCESS</done-flag>
    </dataset>
  </datasets>
  <action><workflow><app-path>hdfs://nn/apps/daily</app-path></workflow></action>
</coordinator-app>
"#,
    );
    let (_, doc) = check_json(&dir, &["embedded.xml"]);
    assert!(of_code(&doc, "CO012").is_empty(), "{doc}");
    assert_eq!(of_code(&doc, "XML004").len(), 1, "{doc}");
}

/// CoordSubmitXCommand.validateCoordinatorJob (release-5.2.1, 334-338)
/// refuses a start that is not before the end (E1003, 264-267). The error
/// says both values, and what each is written as when a property gives it.
#[test]
fn the_end_before_the_start_shows_both_values_and_where_they_come_from() {
    let dir = fresh_dir("misses-end-before-start");
    write(
        &dir,
        "coordinator.xml",
        r#"<coordinator-app name="daily" frequency="${coord:days(1)}"
                 start="${start}" end="${end}" timezone="UTC"
                 xmlns="uri:oozie:coordinator:0.4">
  <action><workflow><app-path>hdfs://nn/apps/daily</app-path></workflow></action>
</coordinator-app>
"#,
    );
    write(
        &dir,
        "job.properties",
        "start=2024-02-01T00:00Z\nend=2024-01-01T00:00Z\n",
    );
    let (code, doc) = check_json(&dir, &["coordinator.xml"]);
    assert_eq!(code, Some(1), "{doc}");
    let found = of_code(&doc, "TM001");
    assert_eq!(found.len(), 1, "{doc}");
    assert_eq!(
        found[0]["message"],
        "the end must be after the start (Oozie rejects equal times too, E1003): \
         the end, `${end}` = 2024-01-01T00:00Z, is before the start, `${start}` = 2024-02-01T00:00Z"
    );
    assert!(
        found[0]["help"]
            .as_str()
            .unwrap()
            .contains("(`end`, `start`)"),
        "{doc}"
    );

    // Equal times, written as they are: the values, and the start labelled.
    write(
        &dir,
        "coordinator.xml",
        r#"<coordinator-app name="daily" frequency="${coord:days(1)}"
                 start="2024-01-01T00:00Z" end="2024-01-01T00:00Z" timezone="UTC"
                 xmlns="uri:oozie:coordinator:0.4">
  <action><workflow><app-path>hdfs://nn/apps/daily</app-path></workflow></action>
</coordinator-app>
"#,
    );
    let out = coordc_in(dir.to_str().unwrap(), &["check", "coordinator.xml"]);
    let text = stdout(&out);
    assert!(
        text.contains("the end, 2024-01-01T00:00Z, is equal to the start, 2024-01-01T00:00Z"),
        "{text}"
    );
    assert!(text.contains("the start, 2024-01-01T00:00Z\n"), "{text}");
}

/// A coordinator with a misspelt dataset name, `dataset` as written.
fn coordinator_reading(dataset: &str, value: &str) -> String {
    format!(
        r#"<coordinator-app name="daily" frequency="${{coord:days(1)}}"
                 start="2024-01-01T00:00Z" end="2024-02-01T00:00Z" timezone="UTC"
                 xmlns="uri:oozie:coordinator:0.5">
  <datasets>
    <dataset name="logs" frequency="${{coord:days(1)}}" initial-instance="2024-01-01T00:00Z" timezone="UTC">
      <uri-template>hdfs://nn/logs/${{YEAR}}/${{MONTH}}/${{DAY}}</uri-template>
    </dataset>
    <dataset name="report" frequency="${{coord:days(1)}}" initial-instance="2024-01-01T00:00Z" timezone="UTC">
      <uri-template>hdfs://nn/report/${{YEAR}}/${{MONTH}}/${{DAY}}</uri-template>
    </dataset>
  </datasets>
  <input-events>
    <data-in name="input" dataset="{dataset}">
      <instance>${{coord:current(0)}}</instance>
    </data-in>
  </input-events>
  <output-events>
    <data-out name="output" dataset="report">
      <instance>${{coord:current(0)}}</instance>
    </data-out>
  </output-events>
  <action><workflow><app-path>hdfs://nn/apps/daily</app-path>
  <configuration>
    <property><name>in</name><value>{value}</value></property>
  </configuration></workflow></action>
</coordinator-app>
"#
    )
}

/// An event's `dataset` naming no dataset is E0803 at submission
/// (CoordSubmitXCommand.java:627-662 at release-5.2.1): the closest name
/// is the help and the fix, an unsafe one (a guess), which only
/// `--unsafe-fixes` applies; a name close to none
/// gets the list of datasets.
#[test]
fn an_undefined_dataset_gets_a_did_you_mean_and_its_fix() {
    let dir = fresh_dir("misses-dataset-dym");
    write(&dir, "coordinator.xml", coordinator_reading("log", "x"));
    let (code, doc) = check_json(&dir, &["coordinator.xml"]);
    assert_eq!(code, Some(1), "{doc}");
    let found = of_code(&doc, "CO001");
    assert_eq!(found.len(), 1, "{doc}");
    assert_eq!(found[0]["help"], "did you mean `logs`?");
    assert_eq!(found[0]["fix"]["replacement"], "logs");
    assert_eq!(found[0]["fix"]["applicability"], "unsafe");

    let out = coordc_in(
        dir.to_str().unwrap(),
        &["check", "--fix", "--unsafe-fixes", "coordinator.xml"],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    let fixed = std::fs::read_to_string(dir.join("coordinator.xml")).unwrap();
    assert!(
        fixed.contains(r#"<data-in name="input" dataset="logs">"#),
        "{fixed}"
    );

    write(&dir, "coordinator.xml", coordinator_reading("clicks", "x"));
    let (_, doc) = check_json(&dir, &["coordinator.xml"]);
    let found = of_code(&doc, "CO001");
    assert_eq!(found.len(), 1, "{doc}");
    assert!(found[0].get("fix").is_none(), "{doc}");
    assert_eq!(
        found[0]["help"],
        "define it in <datasets>, or include a file that defines it (the datasets: logs, report)"
    );
}

/// `coord:dataIn('X')`/`coord:dataOut('X')` of no event fails the action
/// (CoordELFunctions.java's ph3 dataIn/dataOut find no event); the message
/// lists the events and says the closest.
#[test]
fn coord_data_in_and_data_out_of_no_event_say_the_closest() {
    let dir = fresh_dir("misses-event-dym");
    for (value, expected) in [
        (
            "${coord:dataIn('inptu')}",
            "inptu is not a data-in of this coordinator (its data-ins: input): did you mean `input`?",
        ),
        (
            "${coord:dataOut('otuput')}",
            "otuput is not a data-out of this coordinator (its data-outs: output): did you mean `output`?",
        ),
        (
            "${coord:dataOut('report')}",
            "report is not a data-out of this coordinator (its data-outs: output)",
        ),
    ] {
        write(&dir, "coordinator.xml", coordinator_reading("logs", value));
        let (code, doc) = check_json(&dir, &["coordinator.xml"]);
        assert_eq!(code, Some(1), "{doc}");
        let found = of_code(&doc, "EL006");
        assert_eq!(found.len(), 1, "{value}: {doc}");
        assert_eq!(found[0]["message"], expected);
    }
}

/// An input-logic `<data-in dataset="X">` names a data-in, not a dataset
/// (CoordSubmitXCommand.resolveInputLogic, "Data set not found", E1028):
/// a close data-in name is the did-you-mean and the fix.
#[test]
fn an_input_logic_name_of_no_data_in_gets_a_did_you_mean() {
    let dir = fresh_dir("misses-logic-dym");
    let app = coordinator_reading("logs", "${coord:dataIn('input')}").replace(
        "  </input-events>",
        "  </input-events>\n  <input-logic><and><data-in dataset=\"inputs\"/><data-in dataset=\"input\"/></and></input-logic>",
    );
    write(&dir, "coordinator.xml", &app);
    let (code, doc) = check_json(&dir, &["coordinator.xml"]);
    assert_eq!(code, Some(1), "{doc}");
    let found = of_code(&doc, "CO007");
    assert_eq!(found.len(), 1, "{doc}");
    assert!(
        found[0]["help"]
            .as_str()
            .unwrap()
            .starts_with("did you mean `input`?"),
        "{doc}"
    );
    assert_eq!(found[0]["fix"]["replacement"], "input");
}

/// LiteWorkflowValidator refuses a transition to no node (E0708); the fork's
/// `<path start>` and the decision's `<case to>` are transitions too. The
/// closest node is the help and the fix.
#[test]
fn a_transition_to_no_node_gets_a_did_you_mean_and_its_fix() {
    let dir = fresh_dir("misses-node-dym");
    let workflow = r#"<workflow-app name="wf" xmlns="uri:oozie:workflow:0.5">
  <start to="fork-it"/>
  <fork name="fork-it">
    <path start="frist"/>
    <path start="second"/>
  </fork>
  <action name="first">
    <fs><mkdir path="hdfs://nn/x"/></fs>
    <ok to="join-it"/>
    <error to="fail"/>
  </action>
  <action name="second">
    <fs><mkdir path="hdfs://nn/y"/></fs>
    <ok to="join-it"/>
    <error to="fail"/>
  </action>
  <join name="join-it" to="decide"/>
  <decision name="decide">
    <switch>
      <case to="ende">${wf:lastErrorNode() eq null}</case>
      <default to="fail"/>
    </switch>
  </decision>
  <kill name="fail"><message>failed</message></kill>
  <end name="end"/>
</workflow-app>
"#;
    write(&dir, "workflow.xml", workflow);
    let (code, doc) = check_json(&dir, &["workflow.xml"]);
    assert_eq!(code, Some(1), "{doc}");
    let found = of_code(&doc, "WF004");
    let pairs: Vec<(&str, &str)> = found
        .iter()
        .map(|d| {
            (
                d["help"].as_str().unwrap(),
                d["fix"]["replacement"].as_str().unwrap_or("-"),
            )
        })
        .collect();
    assert_eq!(
        pairs,
        [
            ("did you mean `first`?", "first"),
            ("did you mean `end`?", "end")
        ],
        "{doc}"
    );
    let out = coordc_in(
        dir.to_str().unwrap(),
        &["check", "--fix", "--unsafe-fixes", "workflow.xml"],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    let fixed = std::fs::read_to_string(dir.join("workflow.xml")).unwrap();
    assert!(fixed.contains(r#"<path start="first"/>"#) && fixed.contains(r#"<case to="end">"#));
}

/// `coordc cron '0 10 * * 1-5'`: Oozie's cron is Quartz's, 1 = SUN
/// (CoordCommandUtils.java:800-865 at release-5.2.1 gives the expression,
/// with a seconds field, to Quartz's CronExpression), so `1-5` is Sunday to
/// Thursday. The listing
/// shows each time's weekday, and the warnings `coordc check` gives for the
/// same cron frequency (CR005 here) go to stderr, or into the JSON document.
#[test]
fn cron_lists_weekdays_and_warns_as_check_does() {
    let dir = fresh_dir("misses-cron");
    let args = [
        "cron",
        "0 10 * * 1-5",
        "--from",
        "2024-01-04T00:00Z",
        "--count",
        "3",
    ];
    let out = coordc_in(dir.to_str().unwrap(), &args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "2024-01-04T10:00Z  2024-01-04 Thu 10:00 UTC (UTC+00:00)\n\
         2024-01-07T10:00Z  2024-01-07 Sun 10:00 UTC (UTC+00:00)\n\
         2024-01-08T10:00Z  2024-01-08 Mon 10:00 UTC (UTC+00:00)\n"
    );
    let warned = stderr(&out);
    assert!(
        warned.starts_with("warning[CR005]: day-of-week `1-5` is SUN-THU in Oozie"),
        "{warned}"
    );
    assert_eq!(warned.matches("warning[").count(), 1, "{warned}");

    // The same expression as a coordinator's frequency: the same warning.
    write(
        &dir,
        "coordinator.xml",
        r#"<coordinator-app name="weekdays" frequency="0 10 * * 1-5"
                 start="2024-01-04T00:00Z" end="2024-02-01T00:00Z" timezone="UTC"
                 xmlns="uri:oozie:coordinator:0.4">
  <action><workflow><app-path>hdfs://nn/apps/weekdays</app-path></workflow></action>
</coordinator-app>
"#,
    );
    let (_, doc) = check_json(&dir, &["coordinator.xml"]);
    let checked = of_code(&doc, "CR005");
    assert_eq!(checked.len(), 1, "{doc}");

    let mut json_args = args.to_vec();
    json_args.extend(["--format", "json"]);
    let out = coordc_in(dir.to_str().unwrap(), &json_args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
    let listed: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        listed["times"],
        serde_json::json!([
            "2024-01-04T10:00Z",
            "2024-01-07T10:00Z",
            "2024-01-08T10:00Z"
        ])
    );
    assert_eq!(listed["weekdays"], serde_json::json!(["Thu", "Sun", "Mon"]));
    let warnings = listed["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{listed}");
    assert_eq!(warnings[0]["code"], "CR005");
    assert_eq!(warnings[0]["message"], checked[0]["message"]);
    assert_eq!(warnings[0]["help"], checked[0]["help"]);
    assert_eq!(
        (
            warnings[0]["column"].as_u64(),
            warnings[0]["end_column"].as_u64()
        ),
        (Some(10), Some(13))
    );

    // `2-6` is how Oozie writes MON-FRI: no warning.
    let out = coordc_in(
        dir.to_str().unwrap(),
        &[
            "cron",
            "0 10 * * 2-6",
            "--from",
            "2024-01-04T00:00Z",
            "--count",
            "2",
        ],
    );
    assert_eq!(stderr(&out), "");
}

/// A coordinator reading dataset `data` of `frequency` and `template`.
fn reading(frequency: &str, template: &str) -> String {
    format!(
        r#"<coordinator-app name="yearly" frequency="${{coord:months(12)}}"
                 start="2024-01-01T00:00Z" end="2030-01-01T00:00Z" timezone="UTC"
                 xmlns="uri:oozie:coordinator:0.4">
  <datasets>
    <dataset name="data" frequency="${{{frequency}}}" initial-instance="2020-01-01T00:00Z" timezone="UTC">
      <uri-template>hdfs://nn/data/{template}</uri-template>
    </dataset>
  </datasets>
  <input-events>
    <data-in name="input" dataset="data"><instance>${{coord:current(0)}}</instance></data-in>
  </input-events>
  <action><workflow><app-path>hdfs://nn/apps/yearly</app-path></workflow></action>
</coordinator-app>
"#
    )
}

/// Spec §5.1: an instance's URI is the uri-template with the instance's
/// fields (CoordELEvaluator.java:255-266 at release-5.2.1). A
/// `coord:months(12)` dataset laid out by `${YEAR}` has one instance a year,
/// one URI each: DA002 used to say several instances shared one. Six-monthly
/// instances do share one, and are reported with the two instances and the
/// URI.
#[test]
fn da002_is_said_only_when_instances_share_a_uri() {
    let dir = fresh_dir("misses-da002");
    write(
        &dir,
        "coordinator.xml",
        reading("coord:months(12)", "${YEAR}"),
    );
    let (code, doc) = check_json(&dir, &["coordinator.xml"]);
    assert_eq!(code, Some(0), "{doc}");
    assert!(diagnostics(&doc).is_empty(), "{doc}");

    write(
        &dir,
        "coordinator.xml",
        reading("coord:months(6)", "${YEAR}"),
    );
    let (code, doc) = check_json(&dir, &["coordinator.xml"]);
    assert_eq!(code, Some(0), "{doc}");
    let found = of_code(&doc, "DA002");
    assert_eq!(found.len(), 1, "{doc}");
    assert!(
        found[0]["message"].as_str().unwrap().starts_with(
            "dataset `data`'s instances 2024-01-01T00:00Z and 2024-07-01T00:00Z both resolve to `hdfs://nn/data/2024`"
        ),
        "{doc}"
    );
}
