//! What `coordc check` used to miss or say too little about (issue 31, part
//! 5): a dataset without `<uri-template>` in a datasets file, DA002 on
//! templates whose instances never share a URI, did-you-means for dataset,
//! event and node names, the end-before-start error without its values; and
//! `coordc cron`'s weekdays and warnings. Each test drives the binary.

mod common;

use common::{coordc_in, fresh_dir, stderr, stdout};
use std::path::Path;

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).unwrap();
}

/// `coordc check --format json` in `dir`: the exit code and the document.
fn check_json(dir: &Path, args: &[&str]) -> (Option<i32>, serde_json::Value) {
    let mut all = vec!["check", "--format", "json"];
    all.extend_from_slice(args);
    let out = coordc_in(dir.to_str().unwrap(), &all);
    let doc = serde_json::from_str(&stdout(&out))
        .unwrap_or_else(|e| panic!("one JSON document ({e}):\n{}{}", stdout(&out), stderr(&out)));
    (out.status.code(), doc)
}

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
