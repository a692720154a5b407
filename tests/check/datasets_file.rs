//! `coordc check datasets.xml`: a datasets file checked on its own gets what
//! submission checks in an embedded or included dataset (frequency, initial
//! instance, zone, uri-template, names), and its own includes are read.

use crate::common;

use common::{coordc, fresh_dir, stdout};

/// The (code, line) of each diagnostic of `check --format json` on `path`.
fn diagnostics(path: &std::path::Path) -> Vec<(String, u64)> {
    let out = coordc(&["check", "--format", "json", &path.to_string_lossy()]);
    assert!(matches!(out.status.code(), Some(0 | 1)), "{}", stdout(&out));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap(),
            )
        })
        .collect()
}

fn dataset(name: &str, frequency: &str, initial: &str, zone: &str, uri: &str) -> String {
    format!(
        "  <dataset name=\"{name}\" frequency=\"{frequency}\" initial-instance=\"{initial}\" timezone=\"{zone}\">\n    <uri-template>{uri}</uri-template>\n  </dataset>\n"
    )
}

#[test]
fn each_dataset_gets_the_submission_checks() {
    let dir = fresh_dir("datasets-file");
    let ok = "hdfs://nn/logs/${YEAR}/${MONTH}";
    let text = [
        "<datasets>\n".to_string(),
        // line 2: frequency 0 (it divided by zero in an embedded dataset)
        dataset("a", "0", "2009-01-01T00:00Z", "UTC", ok),
        // line 5: cron is no dataset frequency
        dataset("b", "0 * * * *", "2009-01-01T00:00Z", "UTC", ok),
        // line 8: before 1970
        dataset("c", "60", "1969-12-31T00:00Z", "UTC", ok),
        // line 11: an unknown zone
        dataset("d", "60", "2009-01-01T00:00Z", "Americas/Los_Angeles", ok),
        // line 14: an instance function in the uri-template (line 15)
        dataset(
            "e",
            "60",
            "2009-01-01T00:00Z",
            "UTC",
            "hdfs://nn/${coord:current(0)}",
        ),
        // line 17: a name defined again (line 2)
        dataset("a", "60", "2009-01-01T00:00Z", "UTC", ok),
        // line 20: an offset datetime Oozie reads only in another processing zone
        dataset("f", "60", "2009-01-01T01:00+0900", "UTC", ok),
        // line 23: a job property: a note, not evaluated
        dataset("g", "${freq}", "2009-01-01T00:00Z", "UTC", ok),
        "</datasets>\n".to_string(),
    ]
    .concat();
    let path = dir.join("datasets.xml");
    std::fs::write(&path, text).unwrap();
    let found = diagnostics(&path);
    let has = |code: &str, line: u64| found.iter().any(|(c, l)| c == code && *l == line);
    for (code, line) in [
        ("EL005", 1),
        ("TM003", 2),
        ("TM003", 5),
        ("TM001", 8),
        ("TM002", 11),
        ("EL009", 15),
        ("CO002", 17),
        ("TM001", 20),
    ] {
        assert!(has(code, line), "{code} at line {line}: {found:?}");
    }
    assert_eq!(found.len(), 8, "{found:?}");
}

#[test]
fn its_includes_are_read_and_names_are_unique_across_them() {
    let dir = fresh_dir("datasets-file-include");
    let ok = "hdfs://nn/logs/${YEAR}";
    std::fs::write(
        dir.join("datasets.xml"),
        format!(
            "<datasets>\n  <include>hdfs://nn:8020/shared/more.xml</include>\n{}</datasets>\n",
            dataset("logs", "60", "2009-01-01T00:00Z", "UTC", ok)
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("more.xml"),
        format!(
            "<datasets>\n{}{}</datasets>\n",
            dataset("logs", "60", "2009-01-01T00:00Z", "UTC", ok),
            dataset("more", "-5", "2009-01-01T00:00Z", "UTC", ok)
        ),
    )
    .unwrap();
    let out = coordc(&[
        "check",
        "--format",
        "json",
        &dir.join("datasets.xml").to_string_lossy(),
    ]);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let found: Vec<(String, String)> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let file = d["file"].as_str().unwrap();
            let file = file.rsplit('/').next().unwrap().to_string();
            (d["code"].as_str().unwrap().to_string(), file)
        })
        .collect();
    assert_eq!(
        found,
        [
            ("CO002".to_string(), "more.xml".to_string()),
            ("TM003".to_string(), "more.xml".to_string())
        ],
        "{doc}"
    );
    // A clean file with a clean include is clean.
    std::fs::write(
        dir.join("more.xml"),
        format!(
            "<datasets>\n{}</datasets>\n",
            dataset("more", "5", "2009-01-01T00:00Z", "UTC", ok)
        ),
    )
    .unwrap();
    assert_eq!(diagnostics(&dir.join("datasets.xml")), []);
}

#[test]
fn a_coordinators_datasets_no_event_reads_are_checked_too() {
    // Oozie resolves every dataset at submission (CoordSubmitXCommand
    // resolveDataSets), named by an event or not.
    let dir = fresh_dir("datasets-unread");
    let ok = "hdfs://nn/logs/${YEAR}";
    std::fs::write(
        dir.join("more.xml"),
        format!(
            "<datasets>\n{}</datasets>\n",
            dataset("more", "-5", "2009-01-01T00:00Z", "UTC", ok)
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("coordinator.xml"),
        format!(
            "<coordinator-app name=\"z\" frequency=\"60\" start=\"2024-01-01T00:00Z\" end=\"2024-01-02T00:00Z\" timezone=\"UTC\" xmlns=\"uri:oozie:coordinator:0.4\">\n<datasets>\n  <include>more.xml</include>\n{}</datasets>\n<action><workflow><app-path>hdfs://nn/app</app-path></workflow></action>\n</coordinator-app>\n",
            dataset("unused", "0", "2009-01-01T00:00Z", "UTC", ok)
        ),
    )
    .unwrap();
    let out = coordc(&[
        "check",
        "--format",
        "json",
        &dir.join("coordinator.xml").to_string_lossy(),
    ]);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let found: Vec<(&str, &str)> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let file = d["file"].as_str().unwrap();
            (
                d["code"].as_str().unwrap(),
                file.rsplit('/').next().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [("TM003", "coordinator.xml"), ("TM003", "more.xml")],
        "{doc}"
    );
}

#[test]
fn with_a_configuration_its_values_are_evaluated() {
    let dir = fresh_dir("datasets-file-config");
    let path = dir.join("datasets.xml");
    std::fs::write(
        &path,
        format!(
            "<datasets>\n{}{}</datasets>\n",
            dataset(
                "a",
                "${freq}",
                "2009-01-01T00:00Z",
                "UTC",
                "${root}/a/${YEAR}"
            ),
            dataset("b", "60", "${start}", "UTC", "${root}/b/${MONHT}")
        ),
    )
    .unwrap();
    let run = |defines: &[&str]| {
        let mut args = vec!["check", "--format", "json"];
        args.extend_from_slice(defines);
        let path = path.to_string_lossy().into_owned();
        args.push(&path);
        let out = coordc(&args);
        let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        doc["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                (
                    d["code"].as_str().unwrap().to_string(),
                    d["severity"].as_str().unwrap().to_string(),
                    d["line"].as_u64().unwrap(),
                )
            })
            .collect::<Vec<_>>()
    };
    let s = |code: &str, severity: &str, line: u64| (code.to_string(), severity.to_string(), line);
    // Without one: the names, in a note.
    assert_eq!(run(&[]), [s("EL005", "note", 1)]);
    // With one: a frequency of 0 from -D, a datetime before 1970, and the
    // one name the job does not define (a typo of MONTH).
    let got = run(&[
        "-D",
        "freq=0",
        "-D",
        "root=hdfs://nn",
        "-D",
        "start=1969-01-01T00:00Z",
    ]);
    assert_eq!(
        got,
        [
            s("TM003", "error", 2),
            s("TM001", "error", 5),
            s("EL005", "error", 6)
        ]
    );
}
