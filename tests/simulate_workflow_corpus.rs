//! Every workflow of the corpus runs under `coordc simulate` (issue 21):
//! with every action ok, and with every action in error, each ending where
//! its graph allows, without a panic. And a coordinator whose actions run a
//! local workflow application (corpus/simulate/coord-workflow): each
//! action's status is its workflow's, with the trace under "workflow".
//! (The real-world workflows are run by scripts/realworld-simulate-workflows.sh.)

mod common;

use serde_json::Value;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn json(args: &[&str]) -> Value {
    let out = common::coordc(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        common::stderr(&out)
    );
    serde_json::from_slice(&out.stdout).expect("JSON")
}

/// The corpus workflows `coordc check` finds nothing wrong with (given the
/// properties they read).
fn clean_workflows() -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut folders = vec![root().join("corpus/wf"), root().join("corpus/simulate")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "xml")
                && std::fs::read_to_string(&path)
                    .unwrap()
                    .contains("<workflow-app")
            {
                let out = common::coordc(&["check", path.to_str().unwrap()]);
                if out.status.code() == Some(0) {
                    found.push(path);
                }
            }
        }
    }
    found.sort();
    found
}

const DEFINES: &[&str] = &[
    "-D",
    "jobTracker=jt:8032",
    "-D",
    "nameNode=hdfs://nn",
    "-D",
    "queueName=default",
    "-D",
    "secondjobOutputDir=hdfs://nn/out",
];

#[test]
fn every_clean_corpus_workflow_runs_all_ok_and_all_in_error() {
    let workflows = clean_workflows();
    assert!(workflows.len() >= 3, "{workflows:?}");
    let errors = root().join("corpus/simulate/all-actions-error/scenario.toml");
    for wf in &workflows {
        let path = wf.to_str().unwrap();
        let mut args = vec!["simulate", path, "--format", "json"];
        args.extend_from_slice(DEFINES);
        let ok = json(&args);
        // Every action ok: no action ends in ERROR.
        let nodes = ok["nodes"].as_array().unwrap();
        assert!(
            nodes.iter().all(|n| n["status"] != "ERROR"),
            "{path}: {ok:#}"
        );
        args.extend(["--scenario", errors.to_str().unwrap()]);
        let failed = json(&args);
        let status = failed["status"].as_str().unwrap();
        let nodes = failed["nodes"].as_array().unwrap();
        let end = &failed["end_node"];
        match status {
            // At a kill node, through the first action's error transition.
            "KILLED" => {
                let last = nodes.last().unwrap();
                assert_eq!(last["type"], "kill", "{path}: {failed:#}");
                assert_eq!(&last["name"], end, "{path}");
                let first_action = nodes.iter().find(|n| n["type"] == "action").unwrap();
                assert_eq!(first_action["status"], "ERROR", "{path}");
            }
            // A decision or definition whose EL fails.
            "FAILED" => assert!(
                nodes.iter().any(|n| n["status"] == "FAILED"),
                "{path}: {failed:#}"
            ),
            // Only when an error transition leads on to `end`.
            "SUCCEEDED" => assert!(
                nodes
                    .iter()
                    .any(|n| n["status"] == "ERROR" && !n["transition"].is_null()),
                "{path}: {failed:#}"
            ),
            other => panic!("{path}: {other}"),
        }
    }
}

/// Issue 21 part 2 (corpus/simulate/coord-workflow/README.md).
#[test]
fn coordinator_actions_run_their_local_workflow() {
    let scenario = root().join("corpus/simulate/coord-workflow/scenario.toml");
    let report = json(&["simulate", scenario.to_str().unwrap(), "--format", "json"]);
    let actions = report["jobs"][0]["actions"].as_array().unwrap();
    let summary: Vec<(&str, &str, &str)> = actions
        .iter()
        .map(|a| {
            (
                a["status"].as_str().unwrap(),
                a["workflow"]["status"].as_str().unwrap(),
                a["workflow"]["end_node"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("SUCCEEDED", "SUCCEEDED", "end"),
            // [[node]] count, job count, action 2: 2 files.
            ("KILLED", "KILLED", "fewer"),
            ("SUCCEEDED", "SUCCEEDED", "end"),
            // [[node]] process, action 4: JA018.
            ("KILLED", "KILLED", "fail"),
        ]
    );
    // The configuration the action gives its workflow has coord:dataIn
    // resolved (CoordActionStartXCommand passes the action's conf).
    let second = &actions[1]["workflow"];
    assert_eq!(
        second["kill_message"],
        "only 2 files in hdfs://nn/logs/2009010101"
    );
    let count = &second["nodes"][0];
    assert_eq!(count["resolved"]["arg"], "hdfs://nn/logs/2009010101");
    // Each run is its own workflow job, ids in order.
    assert_eq!(
        actions[0]["workflow"]["id"],
        "0000000-000000000000000-oozie-coordc-W"
    );
    assert_eq!(
        actions[3]["workflow"]["id"],
        "0000003-000000000000000-oozie-coordc-W"
    );
    // The action ends when its workflow does: 5m per action (KILLED at
    // `fewer` after one), as the coordinator's history says.
    assert_eq!(second["started"], "2009-01-01T01:00:00Z");
    assert_eq!(second["ended"], "2009-01-01T01:05:00Z");
    let fourth = &actions[3]["workflow"];
    assert_eq!(fourth["ended"], "2009-01-01T03:10:00Z");
    assert_eq!(fourth["nodes"][2]["error_code"], "JA018");
}

/// `--at` before a workflow ends shows it running, without what is later.
#[test]
fn a_trace_as_of_a_moment_stops_there() {
    let scenario = root().join("corpus/simulate/coord-workflow/scenario.toml");
    let report = json(&[
        "simulate",
        scenario.to_str().unwrap(),
        "--format",
        "json",
        "--at",
        "2009-01-01T00:07Z",
    ]);
    let workflow = &report["jobs"][0]["actions"][0]["workflow"];
    assert_eq!(workflow["status"], "RUNNING");
    let nodes: Vec<(&str, &str)> = workflow["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n["name"].as_str().unwrap(), n["status"].as_str().unwrap()))
        .collect();
    assert_eq!(
        nodes,
        [("count", "OK"), ("enough", "OK"), ("process", "RUNNING")]
    );
}

/// The graph picture renders (rsvg-convert), the path taken and each
/// node's status in it.
#[test]
fn the_workflow_svg_renders() {
    let dir = common::fresh_dir("simulate-workflow-svg");
    let errors = root().join("corpus/simulate/all-actions-error/scenario.toml");
    for (name, wf) in [
        ("fork-join", "corpus/wf/spec-4.1.5-fork-join.xml"),
        ("control-nodes", "corpus/wf/spec-4.1-control-nodes.xml"),
    ] {
        let path = root().join(wf);
        let mut args = vec!["simulate", path.to_str().unwrap(), "--format", "svg"];
        args.extend_from_slice(DEFINES);
        let ok = common::coordc(&args);
        assert_eq!(ok.status.code(), Some(0), "{}", common::stderr(&ok));
        let svg = common::stdout(&ok);
        // (The spec's decision reads counters secondjob does not have: FAILED.)
        let status = if name == "fork-join" {
            "SUCCEEDED"
        } else {
            "FAILED"
        };
        assert!(svg.contains(&format!("): {status}</text>")), "{svg}");
        // The path taken is drawn thick.
        assert!(svg.contains(r#"stroke-width="3""#), "{svg}");
        common::assert_svg_renders(&ok.stdout, &dir, name);
        args.extend(["--scenario", errors.to_str().unwrap()]);
        let failed = common::coordc(&args);
        assert!(common::stdout(&failed).contains("KILLED"));
        common::assert_svg_renders(&failed.stdout, &dir, &format!("{name}-error"));
    }
}
