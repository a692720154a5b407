//! Every workflow of the corpus runs under `coordc simulate` (issue 21):
//! with every action ok, and with every action in error, each ending where
//! its graph allows, without a panic. And a coordinator whose actions run a
//! local workflow application (corpus/simulate/coord-workflow): each
//! action's status is its workflow's, with the trace under "workflow".
//! (The real-world workflows are run by scripts/realworld-simulate-workflows.sh.)

use crate::common;
use crate::common::root;

use serde_json::Value;
use std::path::PathBuf;

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

/// The graph pictures of the spec's fork-join and control-node workflows,
/// run as they are and with every action failing: each name and its SVG,
/// checked for the path taken and each node's status.
fn workflow_svgs() -> Vec<(String, Vec<u8>)> {
    let errors = root().join("corpus/simulate/all-actions-error/scenario.toml");
    let mut svgs = Vec::new();
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
        svgs.push((name.to_string(), ok.stdout));
        args.extend(["--scenario", errors.to_str().unwrap()]);
        let failed = common::coordc(&args);
        assert!(common::stdout(&failed).contains("KILLED"));
        svgs.push((format!("{name}-error"), failed.stdout));
    }
    svgs
}

#[test]
fn the_workflow_svg_shows_the_path_and_statuses() {
    assert_eq!(workflow_svgs().len(), 4);
}

#[test]
#[cfg_attr(
    missing_rsvg_convert,
    ignore = "skipped: no rsvg-convert here (Debian: apt-get install librsvg2-bin)"
)]
fn the_workflow_svg_renders_as_an_image() {
    let dir = common::fresh_dir("simulate-workflow-svg");
    for (name, svg) in workflow_svgs() {
        common::assert_svg_renders(&svg, &dir, &name);
    }
}

/// corpus/simulate/coord-workflow-conf: the coordinator job's properties
/// reach its actions' workflows (CoordActionStartXCommand.mergeConfig,
/// :109-162), and a workflow suspended after its transient retries
/// (ActionXCommand.handleTransient, 3 × 10 s) suspends its action then.
#[test]
fn coordinator_properties_reach_the_workflow_and_suspension_follows_it() {
    let scenario = root().join("corpus/simulate/coord-workflow-conf/scenario.toml");
    let report = json(&["simulate", scenario.to_str().unwrap(), "--format", "json"]);
    let actions = report["jobs"][0]["actions"].as_array().unwrap();
    let run = &actions[0]["workflow"]["nodes"][0];
    assert_eq!(run["resolved"]["job-tracker"], "jt:8032");
    assert_eq!(run["resolved"]["name-node"], "hdfs://nn");
    assert_eq!(
        run["resolved"]["configuration"]["mapred.job.queue.name"],
        "etl"
    );
    assert_eq!(run["resolved"]["arg"], "00");
    let second = &actions[1];
    assert_eq!(second["status"], "SUSPENDED");
    let history: Vec<(&str, &str)> = second["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (h["at"].as_str().unwrap(), h["status"].as_str().unwrap()))
        .collect();
    // Four attempts of a minute, 10 s apart: suspended 4m30s after the start.
    assert_eq!(
        &history[history.len() - 2..],
        [
            ("2009-01-01T01:00:00Z", "RUNNING"),
            ("2009-01-01T01:04:30Z", "SUSPENDED")
        ]
    );
    let workflow = &second["workflow"];
    assert_eq!(workflow["status"], "SUSPENDED");
    assert_eq!(workflow["nodes"][0]["status"], "START_MANUAL");
    assert_eq!(workflow["nodes"][0]["retries"], 3);
    // As of a moment before, the workflow is still running.
    let before = json(&[
        "simulate",
        scenario.to_str().unwrap(),
        "--format",
        "json",
        "--at",
        "2009-01-01T01:03Z",
    ]);
    let second = &before["jobs"][0]["actions"][1];
    assert_eq!(second["status"], "RUNNING");
    assert_eq!(second["workflow"]["status"], "RUNNING");
}

/// A mapped application that is not there fails the coordinator action at
/// once, saying why.
#[test]
fn a_mapped_workflow_that_is_not_there_fails_the_action() {
    let dir = common::fresh_dir("coord-workflow-missing");
    let source = root().join("corpus/simulate/coord-workflow-conf");
    std::fs::copy(source.join("coordinator.xml"), dir.join("coordinator.xml")).unwrap();
    let scenario = std::fs::read_to_string(source.join("scenario.toml"))
        .unwrap()
        .replace("= \"wf\" }", "= \"nowhere\" }");
    std::fs::write(dir.join("scenario.toml"), scenario).unwrap();
    let report = json(&[
        "simulate",
        dir.join("scenario.toml").to_str().unwrap(),
        "--format",
        "json",
    ]);
    let first = &report["jobs"][0]["actions"][0];
    assert_eq!(first["status"], "FAILED");
    let why = first["history"].as_array().unwrap().last().unwrap()["why"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        why.starts_with(
            "workflow not submitted: E0505: App definition [hdfs://nn/apps/run-wf] does not exist"
        ),
        "{why}"
    );
}

/// Sub-workflow app-paths are read beside the workflow that names them;
/// `retry-max` that is not a Java int fails the job (E0700,
/// LiteWorkflowStoreService.java:150-178).
#[test]
fn relative_sub_workflows_and_retry_attributes_that_are_not_ints() {
    let dir = common::fresh_dir("wf-relative");
    std::fs::create_dir_all(dir.join("a/b")).unwrap();
    let sub = |to: &str| {
        format!(
            r#"<workflow-app name="w" xmlns="uri:oozie:workflow:0.5"><start to="s"/><action name="s"><sub-workflow><app-path>{to}</app-path></sub-workflow><ok to="end"/><error to="k"/></action><kill name="k"><message>${{wf:errorMessage(wf:lastErrorNode())}}</message></kill><end name="end"/></workflow-app>"#
        )
    };
    // top → a (beside top) → b (beside a, not beside top).
    std::fs::write(dir.join("workflow.xml"), sub("a")).unwrap();
    std::fs::write(dir.join("a/workflow.xml"), sub("b")).unwrap();
    std::fs::write(
        dir.join("a/b/workflow.xml"),
        r#"<workflow-app name="leaf" xmlns="uri:oozie:workflow:0.5"><start to="end"/><end name="end"/></workflow-app>"#,
    )
    .unwrap();
    let top = dir.join("workflow.xml");
    let run = json(&["simulate", top.to_str().unwrap(), "--format", "json"]);
    assert_eq!(run["status"], "SUCCEEDED", "{run:#}");
    let leaf = &run["nodes"][0]["workflow"]["nodes"][0]["workflow"];
    assert_eq!(leaf["name"], "leaf");
    let bad = dir.join("bad.xml");
    std::fs::write(
        &bad,
        r#"<workflow-app name="w" xmlns="uri:oozie:workflow:0.5"><start to="a"/><action name="a" retry-max="three"><fs><mkdir path="/x"/></fs><ok to="end"/><error to="end"/></action><end name="end"/></workflow-app>"#,
    )
    .unwrap();
    let run = json(&["simulate", bad.to_str().unwrap(), "--format", "json"]);
    assert_eq!(run["status"], "FAILED");
    assert_eq!(run["error_code"], "E0700");
    assert_eq!(
        run["error_message"],
        "E0700: XML error, retry-max [three] is not an integer"
    );
    assert_eq!(run["nodes"][0]["status"], "FAILED");
}

/// Runs the workflow spec §3.1.5 fork/join workflow with the scenario `text`
/// (written as `name`), which must be refused: its stderr.
fn refused_scenario(name: &str, text: &str) -> String {
    let dir = common::fresh_dir(&format!("wf-refused-{name}"));
    let scenario = dir.join(name);
    std::fs::write(&scenario, text).unwrap();
    let wf = root().join("corpus/wf/spec-4.1.5-fork-join.xml");
    let out = common::coordc(&[
        "simulate",
        wf.to_str().unwrap(),
        "--scenario",
        scenario.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{name}");
    common::stderr(&out)
}

/// A `[[node]]` that names no action node of the workflow is an error at
/// its line, with the name meant.
#[test]
fn a_node_entry_for_no_action_node_is_refused() {
    let err = refused_scenario(
        "typo.toml",
        "[[node]]\nname = \"fristparalleljob\"\noutcome = \"error\"\n",
    );
    assert!(err.contains("error[SI001]"), "{err}");
    assert!(err.contains("typo.toml:2:8"), "{err}");
    assert!(err.contains("did you mean `firstparalleljob`?"), "{err}");
}

/// corpus/simulate/coord-workflow-latest: `coord:dataIn` of a latest(0)
/// data-in, left as the call at materialization, is evaluated once the
/// input check resolved it (CoordActionInputCheckXCommand): the workflow is
/// given the 01:00 instance.
#[test]
fn a_latest_data_in_reaches_the_workflow_resolved() {
    let scenario = root().join("corpus/simulate/coord-workflow-latest/scenario.toml");
    let report = json(&["simulate", scenario.to_str().unwrap(), "--format", "json"]);
    let action = &report["jobs"][0]["actions"][0];
    assert_eq!(action["status"], "SUCCEEDED");
    assert_eq!(action["inputs"]["in"][0], "hdfs://nn/logs/2009010101");
    assert_eq!(
        action["workflow"]["nodes"][0]["resolved"]["arg"],
        "hdfs://nn/logs/2009010101"
    );
}

/// A coordinator's key in a workflow's scenario is refused where it is written.
#[test]
fn a_coordinator_table_in_a_workflow_scenario_is_pointed_at() {
    let err = refused_scenario(
        "s.toml",
        "start = \"2009-01-01T00:00Z\"\n\n[[job]]\napp = \"x.xml\"\n",
    );
    assert!(
        err.contains("`[[job]]` is for coordinator scenarios"),
        "{err}"
    );
    assert!(err.contains("s.toml:3:1"), "{err}");
}
