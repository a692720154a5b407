//! `coordc simulate workflow.xml`, the workflow interpreter, end to end: the
//! workflow spec examples of `corpus/wf/` (§3.1 control nodes, §3.1.5 fork and
//! join, §3.2.1.4 action recovery, §3.2.2.2 config-class) and Oozie's
//! behaviours past the spec (`corpus/wf/oozie-*.xml`), each run with a
//! scenario of `corpus/simulate/wf-*/` (whose README says what it shows and
//! cites the Oozie source), through the real binary, the JSON report
//! asserted: the job's status, where it ended, its messages, each node's
//! status, transition, retries and times.
//!
//! Oozie sources are cited by file and line: paths under
//! `core/src/main/java/org/apache/oozie/` (tests under
//! `core/src/test/java/org/apache/oozie/`) of apache/oozie at 8bdac8be.

use crate::common;
use crate::common::{coordc, root};

use serde_json::{Value, json};
use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

const SPEC_4_1: &str = "corpus/wf/spec-4.1-control-nodes.xml";
const SPEC_4_1_5: &str = "corpus/wf/spec-4.1.5-fork-join.xml";
const SPEC_4_2_1_4: &str = "corpus/wf/spec-4.2.1.4-action-recovery.xml";
const SPEC_4_2_2_2: &str = "corpus/wf/spec-4.2.2.2-config-class.xml";
const SUBWF_PARENT: &str = "corpus/wf/oozie-subwf-propagate.xml";
const CYCLE: &str = "corpus/wf/oozie-subwf-cycle.xml";

/// The child application of `oozie-subwf-propagate.xml`, read from the
/// scenario folder.
const CHILD_MAP: &[&str] = &[
    "--map",
    "hdfs://nn.example.com:8020/user/joe/apps/child=corpus/simulate/wf-oozie-subwf-propagate/child",
];

/// `oozie-subwf-cycle.xml` as an HDFS application whose `${wf:appPath()}`
/// is itself.
const CYCLE_ARGS: &[&str] = &[
    "-D",
    "oozie.wf.application.path=hdfs://nn.example.com:8020/user/joe/apps/oozie-subwf-cycle.xml",
    "--map",
    "hdfs://nn.example.com:8020/user/joe/apps=corpus/wf",
];

/// A scenario folder of `corpus/simulate/` and how its README runs it.
struct Scenario {
    dir: &'static str,
    workflow: &'static str,
    /// Whether the folder's `job.properties` is given with `--config` (coordc
    /// reads the job.properties beside the workflow, not beside the scenario).
    config: bool,
    extra: &'static [&'static str],
}

const fn scenario(dir: &'static str, workflow: &'static str) -> Scenario {
    Scenario {
        dir,
        workflow,
        config: false,
        extra: &[],
    }
}

const fn configured(dir: &'static str, workflow: &'static str) -> Scenario {
    Scenario {
        dir,
        workflow,
        config: true,
        extra: &[],
    }
}

/// Every `corpus/simulate/wf-*` scenario.
const SCENARIOS: &[Scenario] = &[
    configured("wf-spec-4.1-case-1", SPEC_4_1),
    configured("wf-spec-4.1-case-2", SPEC_4_1),
    configured("wf-spec-4.1-case-3", SPEC_4_1),
    configured("wf-spec-4.1-default", SPEC_4_1),
    configured("wf-spec-4.1-no-input", SPEC_4_1),
    scenario("wf-spec-4.1.5-fork-join-ok", SPEC_4_1_5),
    scenario("wf-spec-4.1.5-fork-join-error", SPEC_4_1_5),
    configured("wf-spec-4.2.2.2-config-class-error", SPEC_4_2_2_2),
    scenario("wf-spec-4.2.1.4-transient-2", SPEC_4_2_1_4),
    scenario("wf-spec-4.2.1.4-transient-4", SPEC_4_2_1_4),
    scenario("wf-spec-4.2.1.4-user-retry-error", SPEC_4_2_1_4),
    scenario("wf-spec-4.2.1.4-exponential", SPEC_4_2_1_4),
    scenario("wf-spec-4.2.1.4-suspended", SPEC_4_2_1_4),
    scenario(
        "wf-oozie-fork-kill-running",
        "corpus/wf/oozie-fork-kill-running.xml",
    ),
    scenario(
        "wf-oozie-decision-not-true",
        "corpus/wf/oozie-decision-not-true.xml",
    ),
    scenario(
        "wf-oozie-el-error-action",
        "corpus/wf/oozie-el-error-action.xml",
    ),
    scenario(
        "wf-oozie-decision-el-error",
        "corpus/wf/oozie-decision-el-error.xml",
    ),
    scenario(
        "wf-oozie-action-data-0",
        "corpus/wf/oozie-action-data-decision.xml",
    ),
    scenario(
        "wf-oozie-action-data-42",
        "corpus/wf/oozie-action-data-decision.xml",
    ),
    scenario(
        "wf-oozie-last-error-node",
        "corpus/wf/oozie-last-error-node.xml",
    ),
    scenario(
        "wf-oozie-last-error-node-default",
        "corpus/wf/oozie-last-error-node.xml",
    ),
    Scenario {
        dir: "wf-oozie-subwf-propagate",
        workflow: SUBWF_PARENT,
        config: true,
        extra: CHILD_MAP,
    },
    Scenario {
        dir: "wf-oozie-subwf-child-killed",
        workflow: SUBWF_PARENT,
        config: true,
        extra: CHILD_MAP,
    },
    Scenario {
        dir: "wf-oozie-subwf-cycle",
        workflow: CYCLE,
        config: false,
        extra: CYCLE_ARGS,
    },
    scenario(
        "wf-oozie-fs-mkdir-exists",
        "corpus/wf/oozie-fs-mkdir-exists.xml",
    ),
    scenario(
        "wf-oozie-kill-message-el-error",
        "corpus/wf/oozie-kill-message-el-error.xml",
    ),
];

/// The command line of scenario `dir` with `--format format`.
fn args_of(dir: &str, format: &str) -> Vec<String> {
    let s = SCENARIOS
        .iter()
        .find(|s| s.dir == dir)
        .unwrap_or_else(|| panic!("{dir} is not in SCENARIOS"));
    let folder = format!("corpus/simulate/{}", s.dir);
    let mut args: Vec<String> = vec!["simulate".into(), s.workflow.into()];
    if s.config {
        args.extend(["--config".into(), format!("{folder}/job.properties")]);
    }
    args.extend(s.extra.iter().map(|a| a.to_string()));
    args.extend([
        "--scenario".into(),
        format!("{folder}/scenario.toml"),
        "--format".into(),
        format.into(),
    ]);
    args
}

fn run_scenario(dir: &str, format: &str) -> Output {
    let args = args_of(dir, format);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    coordc(&refs)
}

/// Scenario `dir`'s JSON report.
fn report(dir: &str) -> Value {
    let out = run_scenario(dir, "json");
    common::expect_code(&out, 0, dir);
    parse(&out.stdout, dir)
}

/// A JSON report. A chain of 50 sub-workflows nests deeper (154 levels)
/// than serde_json's parser takes (128, without its `unbounded_depth`
/// feature): sonic-rs parses it (on a thread with room for its recursion in
/// a debug build), serde_json holds it.
fn parse(bytes: &[u8], what: &str) -> Value {
    let bytes = bytes.to_vec();
    let parsed = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let value: sonic_rs::Value = sonic_rs::from_slice(&bytes).map_err(|e| e.to_string())?;
            serde_json::to_value(&value).map_err(|e| e.to_string())
        })
        .unwrap()
        .join()
        .unwrap();
    parsed.unwrap_or_else(|e| panic!("{what}: not JSON: {e}"))
}

/// A time of 2009-01-01 (every scenario starts at 00:00), `HH:MM` or
/// `HH:MM:SS`, as the report writes it.
fn at(time: &str) -> String {
    if time.len() == 5 {
        format!("2009-01-01T{time}:00Z")
    } else {
        format!("2009-01-01T{time}Z")
    }
}

/// Each node run as `name STATUS -> transition` (`-` for none), in the order
/// they started.
fn steps(run: &Value) -> Vec<String> {
    nodes(run)
        .iter()
        .map(|n| {
            format!(
                "{} {} -> {}",
                n["name"].as_str().unwrap(),
                n["status"].as_str().unwrap(),
                n["transition"].as_str().unwrap_or("-")
            )
        })
        .collect()
}

fn nodes(run: &Value) -> &Vec<Value> {
    run["nodes"]
        .as_array()
        .unwrap_or_else(|| panic!("no nodes: {run}"))
}

/// The (last) run of node `name`.
fn node<'a>(run: &'a Value, name: &str) -> &'a Value {
    nodes(run)
        .iter()
        .rev()
        .find(|n| n["name"] == name)
        .unwrap_or_else(|| panic!("no node {name} in {run:#}"))
}

/// A node's `[started, ended]`, as `HH:MM:SS` (`-` for no end).
fn span(run: &Value, name: &str) -> [String; 2] {
    let n = node(run, name);
    let clock = |v: &Value| {
        v.as_str()
            .map_or("-".to_string(), |t| t[11..19].to_string())
    };
    [clock(&n["started"]), clock(&n["ended"])]
}

/// The job-level fields of a run: status, end node, error code, kill message.
fn outcome(run: &Value) -> (Value, Value, Value, Value) {
    (
        run["status"].clone(),
        run["end_node"].clone(),
        run["error_code"].clone(),
        run["kill_message"].clone(),
    )
}

// ---------------------------------------------------------------------------
// Workflow spec §3.1: start, end, kill, decision.

/// The trace of a workflow spec §3.1 run that reaches the decision: both map-reduce
/// jobs ok, 10m then 20m (scenario), the decision at 00:30.
fn assert_spec_4_1_reaches_decision(run: &Value) {
    assert_eq!(run["name"], "foo-wf");
    assert_eq!(run["started"], at("00:00"));
    assert_eq!(span(run, "firstHadoopJob"), ["00:00:00", "00:10:00"]);
    assert_eq!(span(run, "secondjob"), ["00:10:00", "00:30:00"]);
    assert_eq!(span(run, "mydecision"), ["00:30:00", "00:30:00"]);
    // Each job's definition, resolved with the job.properties given.
    let first = node(run, "firstHadoopJob");
    assert_eq!(first["resolved"]["job-tracker"], "jt.example.com:8021");
    assert_eq!(first["resolved"]["name-node"], "hdfs://nn.example.com:8020");
}

/// The spec's three predicates with their values, as `why` lists them.
fn spec_4_1_predicates(values: [&str; 3]) -> Value {
    json!([
        {"to": "reconsolidatejob",
         "predicate": "${fs:fileSize(secondjobOutputDir) gt 10 * GB}",
         "value": values[0]},
        {"to": "rexpandjob",
         "predicate": "${fs:fileSize(secondjobOutputDir) lt 100 * MB}",
         "value": values[1]},
        {"to": "recomputejob",
         "predicate": "${ hadoop:counters('secondjob')[RECORDS][REDUCE_OUT] lt 1000000 }",
         "value": values[2]},
    ])
}

#[test]
fn spec_4_1_4_case_1_more_than_10_gb() {
    // §3.1.4: predicates in order, the first true one taken. Every predicate
    // is evaluated (ActionStartXCommand.java:207-210 evaluates the whole
    // <switch>); the first whose trimmed text is exactly "true" wins
    // (DecisionActionExecutor.java:35,56-61; TestDecisionActionExecutor
    // .java:151-161): case 3 is true too, case 1 is taken.
    let run = report("wf-spec-4.1-case-1");
    assert_spec_4_1_reaches_decision(&run);
    assert_eq!(
        steps(&run),
        [
            "firstHadoopJob OK -> secondjob",
            "secondjob OK -> mydecision",
            "mydecision OK -> reconsolidatejob",
            "reconsolidatejob OK -> end",
            "end OK -> -",
        ]
    );
    assert_eq!(
        node(&run, "mydecision")["why"],
        json!({"case": 1, "predicates": spec_4_1_predicates(["true", "false", "true"])})
    );
    // §3.1.2: end, SUCCEEDED; the fs action takes no time (§3.2.1.2).
    assert_eq!(
        outcome(&run),
        (json!("SUCCEEDED"), json!("end"), json!(null), json!(null))
    );
    assert_eq!(run["ended"], at("00:30"));
    assert_eq!(
        node(&run, "reconsolidatejob")["resolved"]["delete@path"],
        "hdfs://nn.example.com:8020/user/joe/secondjob/output/tmp"
    );
}

#[test]
fn spec_4_1_4_case_2_less_than_100_mb() {
    let run = report("wf-spec-4.1-case-2");
    assert_spec_4_1_reaches_decision(&run);
    assert_eq!(
        steps(&run),
        [
            "firstHadoopJob OK -> secondjob",
            "secondjob OK -> mydecision",
            "mydecision OK -> rexpandjob",
            "rexpandjob OK -> end",
            "end OK -> -",
        ]
    );
    // 1 MB: case 2 is the first true one (case 3, true too, is not taken;
    // TestDecisionActionExecutor.java:151-161).
    assert_eq!(
        node(&run, "mydecision")["why"],
        json!({"case": 2, "predicates": spec_4_1_predicates(["false", "true", "true"])})
    );
    assert_eq!(run["status"], "SUCCEEDED");
    assert_eq!(run["ended"], at("00:30"));
}

#[test]
fn spec_4_1_4_case_3_counters() {
    // 1 GB and 500 reduce output records: hadoop:counters(node)[RECORDS]
    // [REDUCE_OUT] reads the action's counters (HadoopELFunctions.java:49-58;
    // RECORDS and REDUCE_OUT are the constants of :39-44).
    let run = report("wf-spec-4.1-case-3");
    assert_spec_4_1_reaches_decision(&run);
    assert_eq!(
        steps(&run),
        [
            "firstHadoopJob OK -> secondjob",
            "secondjob OK -> mydecision",
            "mydecision OK -> recomputejob",
            "recomputejob OK -> end",
            "end OK -> -",
        ]
    );
    assert_eq!(
        node(&run, "mydecision")["why"],
        json!({"case": 3, "predicates": spec_4_1_predicates(["false", "false", "true"])})
    );
    assert_eq!(run["status"], "SUCCEEDED");
}

#[test]
fn spec_4_1_4_default() {
    // No predicate true: <default> (DecisionActionExecutor.java:62-67).
    let run = report("wf-spec-4.1-default");
    assert_spec_4_1_reaches_decision(&run);
    assert_eq!(
        steps(&run),
        [
            "firstHadoopJob OK -> secondjob",
            "secondjob OK -> mydecision",
            "mydecision OK -> end",
            "end OK -> -",
        ]
    );
    assert_eq!(
        node(&run, "mydecision")["why"],
        json!({"case": "default", "predicates": spec_4_1_predicates(["false", "false", "false"])})
    );
    assert_eq!(
        outcome(&run),
        (json!("SUCCEEDED"), json!("end"), json!(null), json!(null))
    );
    assert_eq!(run["ended"], at("00:30"));
}

#[test]
fn spec_4_1_3_kill_when_the_first_job_fails() {
    // §3.1.3: the error transition to killBecauseNoInput; the job KILLED
    // with the message, code E0729 (SignalXCommand.java:314-343).
    let run = report("wf-spec-4.1-no-input");
    assert_eq!(
        steps(&run),
        [
            "firstHadoopJob ERROR -> killBecauseNoInput",
            "killBecauseNoInput OK -> -",
        ]
    );
    assert_eq!(
        outcome(&run),
        (
            json!("KILLED"),
            json!("killBecauseNoInput"),
            json!("JA018"),
            json!("Input unavailable")
        )
    );
    let first = node(&run, "firstHadoopJob");
    assert_eq!(first["error_code"], "JA018");
    assert_eq!(
        first["error_message"],
        "Input path does not exist: hdfs://nn.example.com:8020/user/joe/input"
    );
    assert_eq!(first["retries"], 0);
    assert_eq!(span(&run, "firstHadoopJob"), ["00:00:00", "00:10:00"]);
    assert_eq!(run["ended"], at("00:10"));
}

// ---------------------------------------------------------------------------
// Workflow spec §3.1.5: fork and join.

#[test]
fn spec_4_1_5_fork_join_waits_for_the_last_path() {
    // Paths start in <path> order at the fork (LiteWorkflowAppParser.java
    // :240-245, ControlNodeHandler.java:164-176) and run concurrently; the
    // join's action is made when the last path arrives (ControlNodeHandler
    // .java:65-83). The fork's transition is `*` (LiteWorkflowInstance.java
    // :238-240).
    let run = report("wf-spec-4.1.5-fork-join-ok");
    assert_eq!(
        steps(&run),
        [
            "forking OK -> *",
            "firstparalleljob OK -> joining",
            "secondparalleljob OK -> joining",
            "joining OK -> nextaction",
            "nextaction OK -> end",
            "end OK -> -",
        ]
    );
    assert_eq!(span(&run, "firstparalleljob"), ["00:00:00", "00:10:00"]);
    assert_eq!(span(&run, "secondparalleljob"), ["00:00:00", "00:25:00"]);
    assert_eq!(span(&run, "joining"), ["00:25:00", "00:25:00"]);
    assert_eq!(span(&run, "nextaction"), ["00:25:00", "00:25:00"]);
    assert_eq!(
        outcome(&run),
        (json!("SUCCEEDED"), json!("end"), json!(null), json!(null))
    );
    assert_eq!(run["ended"], at("00:25"));
}

#[test]
fn spec_4_1_5_a_failed_path_kills_its_sibling() {
    // A path's error transition to a kill node kills the job; the other
    // path's running action is KILLED (LiteWorkflowInstance.java:297-311,
    // SignalXCommand.java:251-261; workflow spec §3.1.3).
    let run = report("wf-spec-4.1.5-fork-join-error");
    assert_eq!(
        steps(&run),
        [
            "forking OK -> *",
            "firstparalleljob ERROR -> kill",
            "secondparalleljob KILLED -> -",
            "kill OK -> -",
        ]
    );
    assert_eq!(
        outcome(&run),
        (
            json!("KILLED"),
            json!("kill"),
            json!("JA018"),
            json!("failed")
        )
    );
    assert_eq!(span(&run, "firstparalleljob"), ["00:00:00", "00:10:00"]);
    assert_eq!(span(&run, "secondparalleljob"), ["00:00:00", "00:10:00"]);
    assert_eq!(node(&run, "secondparalleljob")["external_status"], "KILLED");
    assert_eq!(node(&run, "firstparalleljob")["error_code"], "JA018");
    assert_eq!(run["ended"], at("00:10"));
}

// ---------------------------------------------------------------------------
// Workflow spec §3.2.2.2: config-class.

#[test]
fn spec_4_2_2_2_error_message_in_the_kill_message() {
    // The kill message's EL, evaluated when the kill node is reached
    // (SignalXCommand.java:320-333): wf:lastErrorNode() is mr-node
    // (DagELFunctions.java:134-136), wf:errorMessage its message
    // (TestActionErrors.testKillNodeErrorMessage, :249).
    let run = report("wf-spec-4.2.2.2-config-class-error");
    assert_eq!(steps(&run), ["mr-node ERROR -> fail", "fail OK -> -"]);
    assert_eq!(
        outcome(&run),
        (
            json!("KILLED"),
            json!("fail"),
            json!("JA018"),
            json!("Map/Reduce failed, error message[No user set]")
        )
    );
    let mr = node(&run, "mr-node");
    assert_eq!(
        mr["resolved"],
        json!({
            "job-tracker": "jt.example.com:8021",
            "name-node": "hdfs://nn.example.com:8020",
            "job-xml": "job.xml",
            "config-class": "com.example.MyConfigClass",
            "configuration": {"mapred.job.queue.name": "default"},
        })
    );
    assert_eq!(span(&run, "mr-node"), ["00:00:00", "00:15:00"]);
    assert_eq!(run["ended"], at("00:15"));
}

// ---------------------------------------------------------------------------
// Workflow spec §3.2.1.4: action recovery.

#[test]
fn spec_4_2_1_4_user_retries_of_an_error_run_out() {
    // JA018 is in the server's user-retry codes (oozie-default.xml
    // :2386-2387): after each failed attempt the action is started again
    // retry-interval minutes later (ActionXCommand.handleUserRetry :226-246,
    // from ActionEndXCommand.java:213-236; TestActionUserRetry.testUserRetry,
    // :68); retry-max 5 is capped at the server's 3 (LiteWorkflowStoreService
    // .java:168-175). Then ERROR and the error transition.
    let run = report("wf-spec-4.2.1.4-user-retry-error");
    assert_eq!(steps(&run), ["load ERROR -> fail", "fail OK -> -"]);
    let load = node(&run, "load");
    assert_eq!(load["retries"], 3);
    assert_eq!(load["error_code"], "JA018");
    // Attempts at 00:00, 00:03, 00:06, 00:09, a minute each.
    assert_eq!(span(&run, "load"), ["00:00:00", "00:10:00"]);
    assert_eq!(
        outcome(&run),
        (
            json!("KILLED"),
            json!("fail"),
            json!("JA018"),
            json!(
                "load failed: [JA018] Output directory hdfs://nn.example.com:8020/out already exists"
            )
        )
    );
    assert_eq!(run["ended"], at("00:10"));
}

#[test]
fn spec_4_2_1_4_exponential_user_retries() {
    // retry-policy="exponential": 2^count × retry-interval
    // (ActionXCommand.getRetryDelay :284-294; TestActionUserRetry
    // .testUserRetryPolicy, :139): attempts at 00:02, 00:04, 00:07, 00:12.
    let run = report("wf-spec-4.2.1.4-exponential");
    assert_eq!(
        steps(&run),
        [
            "load OK -> publish",
            "publish OK -> archive",
            "archive ERROR -> fail",
            "fail OK -> -",
        ]
    );
    assert_eq!(node(&run, "archive")["retries"], 3);
    assert_eq!(span(&run, "archive"), ["00:02:00", "00:13:00"]);
    assert_eq!(run["status"], "KILLED");
    assert_eq!(
        run["kill_message"],
        "archive failed: [JA018] Output directory hdfs://nn.example.com:8020/archive already exists"
    );
}

#[test]
fn spec_4_2_1_4_transient_failures_without_retry_max_suspend_the_job() {
    // No retry-max: the server's retries (oozie.action.retries.max, 3;
    // handleTransient, ActionXCommand.java:88-111), then START_MANUAL and
    // the job SUSPENDED (ActionStartXCommand.java:307-313, handleNonTransient
    // :125-144; TestActionErrors.testStartTransient, :156).
    let run = report("wf-spec-4.2.1.4-suspended");
    assert_eq!(
        steps(&run),
        ["load OK -> publish", "publish START_MANUAL -> -"]
    );
    assert_eq!(run["status"], "SUSPENDED");
    assert_eq!(run["ended"], Value::Null);
    assert_eq!(run["end_node"], Value::Null);
    let publish = node(&run, "publish");
    assert_eq!(publish["error_code"], "JA009");
    assert_eq!(publish["ended"], Value::Null);
    // coordc counts the server's retries it made; Oozie's own action row
    // shows 0 (ActionStartXCommand.java:311 resets it when it gives up).
    assert_eq!(publish["retries"], 3);
    assert_eq!(publish["started"], at("00:01"));
}

#[test]
fn spec_4_2_1_4_transient_failures_with_retry_max_are_user_retries() {
    // With retry-max, a scenario's transient failure is a retryable error
    // reported as the attempt ends: JA009, in the server's user-retry list
    // (oozie-default.xml :2386-2387), so ActionEndXCommand's handleUserRetry
    // (ActionXCommand.java:226-246) starts the action again retry-interval
    // minutes (2) after each failure. (Without retry-max they are the
    // server's transient retries at start, the test above.)
    let run = report("wf-spec-4.2.1.4-transient-2");
    assert_eq!(
        steps(&run),
        [
            "load OK -> publish",
            "publish OK -> archive",
            "archive OK -> end",
            "end OK -> -",
        ]
    );
    assert_eq!(node(&run, "load")["retries"], 2);
    // Attempts 00:00-00:01, 00:03-00:04, 00:06-00:07.
    assert_eq!(span(&run, "load"), ["00:00:00", "00:07:00"]);
    assert_eq!(run["status"], "SUCCEEDED");
    assert_eq!(run["ended"], at("00:09"));
}

#[test]
fn spec_4_2_1_4_user_retries_capped_by_the_server_run_out_into_the_error_transition() {
    // retry-max="5" is capped at the server's user.retry.max, 3
    // (LiteWorkflowStoreService.java:168-175, E0820); once they run out the
    // action keeps ERROR and takes its error transition
    // (ActionEndXCommand.java:213-236; TestDagELFunctions
    // .testLastErrorNodeWithRetryFail, :166).
    let run = report("wf-spec-4.2.1.4-transient-4");
    assert_eq!(steps(&run), ["load ERROR -> fail", "fail OK -> -"]);
    let load = node(&run, "load");
    assert_eq!(load["retries"], 3);
    assert_eq!(load["error_code"], "JA009");
    // Four attempts of 1m, 2m apart: 00:00, 00:03, 00:06, 00:09.
    assert_eq!(span(&run, "load"), ["00:00:00", "00:10:00"]);
    assert_eq!(run["status"], "KILLED");
    assert_eq!(run["end_node"], "fail");
}

#[test]
fn spec_4_2_1_4_errors_outside_the_retry_list_are_not_retried() {
    // handleUserRetry retries only the codes of the list (ActionXCommand
    // .java:226-246): load's retry-max does not apply to a code outside it.
    let dir = common::fresh_dir("wf-retry-not-in-list");
    let scenario = dir.join("scenario.toml");
    std::fs::write(
        &scenario,
        "start = \"2009-01-01T00:00Z\"\n\n[[node]]\nname = \"load\"\noutcome = \"error\"\nerror_code = \"JA011\"\nerror_message = \"no such queue\"\n",
    )
    .unwrap();
    let out = coordc(&[
        "simulate",
        SPEC_4_2_1_4,
        "--scenario",
        scenario.to_str().unwrap(),
        "--format",
        "json",
    ]);
    common::expect_code(&out, 0, "JA011");
    let run = parse(&out.stdout, "the run");
    assert_eq!(steps(&run), ["load ERROR -> fail", "fail OK -> -"]);
    assert_eq!(node(&run, "load")["retries"], 0);
    assert_eq!(span(&run, "load"), ["00:00:00", "00:01:00"]);
    assert_eq!(run["kill_message"], "load failed: [JA011] no such queue");
}

// ---------------------------------------------------------------------------
// Oozie past the spec.

#[test]
fn a_fork_path_at_a_kill_node_kills_the_running_sibling() {
    // TestLiteWorkflowLib.testWFKillWithRunningNodes (:609): one path at a
    // kill node, the other's running action killed (LiteWorkflowInstance
    // .java:297-311, SignalXCommand.java:251-261).
    let run = report("wf-oozie-fork-kill-running");
    assert_eq!(
        steps(&run),
        [
            "forking OK -> *",
            "longjob KILLED -> -",
            "probe OK -> checkinput",
            "checkinput OK -> noinput",
            "noinput OK -> -",
        ]
    );
    assert_eq!(
        outcome(&run),
        (
            json!("KILLED"),
            json!("noinput"),
            Value::Null,
            json!("no input: hdfs://nn.example.com:8020/data/in/_SUCCESS is missing")
        )
    );
    // longjob (2h) is killed when probe (5m) leads to the kill node.
    assert_eq!(span(&run, "longjob"), ["00:00:00", "00:05:00"]);
    assert_eq!(span(&run, "probe"), ["00:00:00", "00:05:00"]);
    assert_eq!(span(&run, "noinput"), ["00:05:00", "00:05:00"]);
    assert_eq!(node(&run, "longjob")["external_status"], "KILLED");
    assert_eq!(run["ended"], at("00:05"));
}

#[test]
fn a_predicate_that_is_not_exactly_true_is_not_taken() {
    // DecisionActionExecutor.java:35,56-61: TRUE.equals(getTextTrim()), no
    // error for anything else.
    let run = report("wf-oozie-decision-not-true");
    assert_eq!(
        steps(&run),
        ["route OK -> fallback", "fallback OK -> end", "end OK -> -"]
    );
    assert_eq!(
        node(&run, "route")["why"],
        json!({"case": "default", "predicates": [
            {"to": "saidYes", "predicate": "${'yes'}", "value": "yes"},
            {"to": "saidUpperTrue", "predicate": "TRUE", "value": "TRUE"},
            {"to": "saidOne", "predicate": "${1}", "value": "1"},
        ]})
    );
    assert_eq!(run["status"], "SUCCEEDED");
}

#[test]
fn an_el_error_in_an_action_fails_the_job_without_its_error_transition() {
    // ActionStartXCommand.java:207-237: EL_ERROR, failJob (ActionXCommand
    // .java:195-216): the action and the job FAILED, no error transition;
    // KillXCommand (:129,148-178) kills the other running action.
    let run = report("wf-oozie-el-error-action");
    assert_eq!(
        steps(&run),
        [
            "forking OK -> *",
            "longjob KILLED -> -",
            "badjob FAILED -> -",
        ]
    );
    assert_eq!(run["status"], "FAILED");
    assert_eq!(run["end_node"], Value::Null);
    assert_eq!(run["kill_message"], Value::Null);
    assert_eq!(run["error_code"], "EL_ERROR");
    let bad = node(&run, "badjob");
    assert_eq!(bad["error_code"], "EL_ERROR");
    // The message of ELEvaluator.Context.resolveVariable (util/ELEvaluator
    // .java:107-111).
    assert_eq!(
        bad["error_message"],
        "variable [outputDir] cannot be resolved"
    );
    assert_eq!(bad["resolved"], Value::Null);
    assert!(nodes(&run).iter().all(|n| n["name"] != "fail"));
    assert_eq!(span(&run, "longjob"), ["00:00:00", "00:00:00"]);
    assert_eq!(run["ended"], at("00:00"));
}

#[test]
fn an_el_error_in_any_predicate_fails_the_decision_and_the_job() {
    // The whole <switch> is evaluated (ActionStartXCommand.java:207-210):
    // the second predicate's error fails the decision after a true first one;
    // hadoop:counters of a node without counters throws (HadoopELFunctions
    // .java:74-80). FAILED with EL_ERROR (:232-237).
    let run = report("wf-oozie-decision-el-error");
    assert_eq!(steps(&run), ["mark OK -> route", "route FAILED -> -"]);
    assert_eq!(run["status"], "FAILED");
    assert_eq!(run["error_code"], "EL_ERROR");
    assert_eq!(
        run["error_message"],
        "Hadoop counters not available for action [mark]"
    );
    assert_eq!(run["end_node"], Value::Null);
    // It took no case: a FAILED decision has no transition.
    assert_eq!(node(&run, "route")["why"]["case"], Value::Null);
    assert_eq!(
        node(&run, "route")["why"]["predicates"],
        json!([
            {"to": "end",
             "predicate": "${fs:exists('hdfs://nn.example.com:8020/data/marker')}",
             "value": "true"},
            {"to": "fail",
             "predicate": "${hadoop:counters('mark')[RECORDS][MAP_IN] gt 0}",
             "error": "Hadoop counters not available for action [mark]"},
        ])
    );
}

#[test]
fn a_decision_on_captured_action_data() {
    // wf:actionData(node)['k'] reads <capture-output/> (DagELFunctions.java
    // :262-278).
    let none = report("wf-oozie-action-data-0");
    assert_eq!(
        steps(&none),
        [
            "count-rows OK -> any-rows",
            "any-rows OK -> end",
            "end OK -> -",
        ]
    );
    assert_eq!(node(&none, "any-rows")["why"]["case"], 1);
    assert_eq!(none["ended"], at("00:03"));
    let some = report("wf-oozie-action-data-42");
    assert_eq!(
        steps(&some),
        [
            "count-rows OK -> any-rows",
            "any-rows OK -> process",
            "process OK -> end",
            "end OK -> -",
        ]
    );
    assert_eq!(node(&some, "any-rows")["why"]["case"], "default");
    assert_eq!(span(&some, "process"), ["00:03:00", "00:23:00"]);
    assert_eq!(some["status"], "SUCCEEDED");
    assert_eq!(some["ended"], at("00:23"));
}

#[test]
fn without_capture_output_action_data_is_empty() {
    // DagELFunctions.java:262-278: no <capture-output/>, an empty map. The
    // scenario's action_data for `job` (a map-reduce action without
    // capture-output) is not seen.
    let dir = common::fresh_dir("wf-no-capture");
    let wf = dir.join("workflow.xml");
    std::fs::write(
        &wf,
        r#"<workflow-app name="no-capture" xmlns="uri:oozie:workflow:0.5">
    <start to="job"/>
    <action name="job">
        <map-reduce>
            <job-tracker>jt:8021</job-tracker>
            <name-node>hdfs://nn:8020</name-node>
        </map-reduce>
        <ok to="check"/>
        <error to="fail"/>
    </action>
    <decision name="check">
        <switch>
            <case to="end">${empty wf:actionData('job')}</case>
            <default to="fail"/>
        </switch>
    </decision>
    <kill name="fail"><message>count is [${wf:actionData('job')['count']}]</message></kill>
    <end name="end"/>
</workflow-app>
"#,
    )
    .unwrap();
    let scenario = dir.join("scenario.toml");
    std::fs::write(
        &scenario,
        "[[node]]\nname = \"job\"\naction_data = { count = \"7\" }\n",
    )
    .unwrap();
    let out = coordc(&[
        "simulate",
        wf.to_str().unwrap(),
        "--scenario",
        scenario.to_str().unwrap(),
        "--format",
        "json",
    ]);
    common::expect_code(&out, 0, "no capture-output");
    let run = parse(&out.stdout, "the run");
    assert_eq!(
        steps(&run),
        ["job OK -> check", "check OK -> end", "end OK -> -"]
    );
    assert_eq!(node(&run, "check")["why"]["predicates"][0]["value"], "true");
    // The default start (2000-01-01T00:00Z) without `start`.
    assert_eq!(run["started"], "2000-01-01T00:00:00Z");
}

#[test]
fn the_last_error_node_and_its_code_in_a_decision() {
    // DagELFunctions.setActionInfo (:100-137): an action that ends ERROR is
    // the last error node (:134-136), with its code and message (:230-244).
    let run = report("wf-oozie-last-error-node");
    assert_eq!(
        steps(&run),
        [
            "load ERROR -> triage",
            "triage OK -> cleanup",
            "cleanup OK -> end",
            "end OK -> -",
        ]
    );
    assert_eq!(
        node(&run, "triage")["why"]["predicates"][0]["value"],
        "true"
    );
    assert_eq!(
        outcome(&run),
        (json!("SUCCEEDED"), json!("end"), json!(null), json!(null))
    );
    assert_eq!(run["ended"], at("00:10"));

    let other = report("wf-oozie-last-error-node-default");
    assert_eq!(
        steps(&other),
        ["load ERROR -> triage", "triage OK -> fail", "fail OK -> -"]
    );
    assert_eq!(
        outcome(&other),
        (
            json!("KILLED"),
            json!("fail"),
            json!("JA017"),
            json!("load failed: [JA017] Could not lookup launched hadoop Job ID [job_1_0001]")
        )
    );
}

#[test]
fn a_kill_message_whose_el_fails_is_e0756_and_the_job_still_killed() {
    // SignalXCommand.java:336-339; TestActionErrors
    // .testKillNodeErrorMessageError2 (:274).
    let run = report("wf-oozie-kill-message-el-error");
    assert_eq!(steps(&run), ["load ERROR -> fail", "fail ERROR -> -"]);
    assert_eq!(run["status"], "KILLED");
    assert_eq!(run["end_node"], "fail");
    // The kill node carries E0756; the job's error is what led there.
    let kill = node(&run, "fail");
    assert_eq!(kill["status"], "ERROR");
    assert_eq!(kill["error_code"], "E0756");
    assert_eq!(
        kill["error_message"],
        "E0756: Exception parsing Kill node message [variable [bar] cannot be resolved]"
    );
    assert_eq!(run["error_code"], node(&run, "load")["error_code"]);
    assert_eq!(run["ended"], at("00:05"));
}

#[test]
fn fs_exists_sees_what_an_fs_action_made() {
    // FsActionExecutor.start does its operations when the action runs
    // (:669-680); fs:exists, fs:isDir read the file system (FsELFunctions
    // .java:126-154).
    let run = report("wf-oozie-fs-mkdir-exists");
    assert_eq!(
        steps(&run),
        [
            "before OK -> make-staging",
            "make-staging OK -> after",
            "after OK -> end",
            "end OK -> -",
        ]
    );
    assert_eq!(
        node(&run, "before")["why"]["predicates"][0]["value"],
        "true"
    );
    assert_eq!(node(&run, "after")["why"]["predicates"][0]["value"], "true");
    // An fs action is synchronous (workflow spec §3.2.1.2): no time; no external job
    // (FsActionExecutor.java:672, "-").
    let make = node(&run, "make-staging");
    assert_eq!(make["external_id"], "-");
    assert_eq!(span(&run, "make-staging"), ["00:00:00", "00:00:00"]);
    assert_eq!(run["status"], "SUCCEEDED");
}

#[test]
fn fs_action_external_status_is_ok_or_error() {
    // FsActionExecutor runs in the server: OK when it succeeds
    // (FsActionExecutor.java:675, setExecutionData("OK")), ERROR when it
    // fails (an ERROR-type exception, ActionXCommand.handleError's
    // setExecutionData("ERROR"), then the error transition).
    let run = report("wf-oozie-fs-mkdir-exists");
    assert_eq!(node(&run, "make-staging")["external_status"], "OK");
    let dir = common::fresh_dir("wf-fs-error");
    let scenario = dir.join("scenario.toml");
    std::fs::write(
        &scenario,
        "[[node]]\nname = \"make-staging\"\noutcome = \"error\"\nerror_code = \"FS009\"\nerror_message = \"permission denied\"\n",
    )
    .unwrap();
    let out = coordc(&[
        "simulate",
        "corpus/wf/oozie-fs-mkdir-exists.xml",
        "--scenario",
        scenario.to_str().unwrap(),
        "--format",
        "json",
    ]);
    common::expect_code(&out, 0, "fs error");
    let run = parse(&out.stdout, "the run");
    assert_eq!(node(&run, "make-staging")["status"], "ERROR");
    assert_eq!(node(&run, "make-staging")["external_status"], "ERROR");
}

// ---------------------------------------------------------------------------
// Sub-workflows.

#[test]
fn a_sub_workflow_gets_the_parents_configuration_and_the_actions_wins() {
    // SubWorkflowActionExecutor.start (:182-223): the parent's conf with
    // <propagate-configuration/>, then the action's <configuration>
    // (TestSubWorkflowActionExecutor.testConfigPropagation, :190). Child
    // SUCCEEDED gives the action OK (:252-263).
    let run = report("wf-oozie-subwf-propagate");
    assert_eq!(steps(&run), ["run-child OK -> end", "end OK -> -"]);
    let action = node(&run, "run-child");
    assert_eq!(
        action["resolved"]["configuration"],
        json!({"mode": "from-action"})
    );
    let child = &action["workflow"];
    assert_eq!(child["id"], "0000001-000000000000000-oozie-coordc-W");
    assert_eq!(action["external_id"], child["id"]);
    assert_eq!(child["name"], "child-wf");
    assert_eq!(
        child["app_path"],
        "hdfs://nn.example.com:8020/user/joe/apps/child"
    );
    assert_eq!(steps(child), ["child-job OK -> end", "end OK -> -"]);
    // The child defines neither: owner is the parent's, mode the action's.
    assert_eq!(
        node(child, "child-job")["resolved"]["configuration"],
        json!({"owner": "joe", "mode": "from-action"})
    );
    assert_eq!(child["status"], "SUCCEEDED");
    assert_eq!(child["started"], at("00:00"));
    assert_eq!(child["ended"], at("00:30"));
    assert_eq!(span(&run, "run-child"), ["00:00:00", "00:30:00"]);
    assert_eq!(run["status"], "SUCCEEDED");
    assert_eq!(run["id"], "0000000-000000000000000-oozie-coordc-W");
}

#[test]
fn a_sub_workflow_without_propagation_still_has_the_parents_user() {
    // SubWorkflowActionExecutor.start copies the proto action configuration,
    // which holds the parent job's user (:204-205, WorkflowAppService.java:
    // 174-176 at release-5.2.1): the child's wf:user() is the parent's, not
    // the local machine's.
    let dir = common::fresh_dir("simulate-subwf-user");
    let parent = common::write(
        &dir,
        "parent.xml",
        r#"<workflow-app name="p" xmlns="uri:oozie:workflow:0.5"><start to="s"/><action name="s"><sub-workflow><app-path>child</app-path></sub-workflow><ok to="end"/><error to="k"/></action><kill name="k"><message>x</message></kill><end name="end"/></workflow-app>"#,
    );
    common::write(
        &dir,
        "child/workflow.xml",
        r#"<workflow-app name="c" xmlns="uri:oozie:workflow:0.5"><start to="j"/><action name="j"><fs><mkdir path="/u/${wf:user()}"/></fs><ok to="end"/><error to="k"/></action><kill name="k"><message>x</message></kill><end name="end"/></workflow-app>"#,
    );
    let out = common::coordc(&[
        "simulate",
        &parent.display().to_string(),
        "-D",
        "user.name=joe",
        "--format",
        "json",
    ]);
    common::expect_code(&out, 0, "simulate");
    let run = parse(&out.stdout, "the run");
    let child = &node(&run, "s")["workflow"];
    assert_eq!(
        node(child, "j")["resolved"],
        json!({"mkdir@path": "/u/joe"})
    );
}

#[test]
fn a_killed_sub_workflow_is_its_actions_error() {
    // SubWorkflowActionExecutor.end (:252-263): a child not SUCCEEDED gives
    // ERROR, with no error code of its own (it sets none), and the error
    // transition; the external status is the child's (check, :265-286).
    let run = report("wf-oozie-subwf-child-killed");
    assert_eq!(
        steps(&run),
        ["run-child ERROR -> child-failed", "child-failed OK -> -"]
    );
    let action = node(&run, "run-child");
    assert_eq!(action["error_code"], Value::Null);
    assert_eq!(action["external_status"], "KILLED");
    let child = &action["workflow"];
    assert_eq!(
        steps(child),
        ["child-job ERROR -> child-fail", "child-fail OK -> -"]
    );
    assert_eq!(
        outcome(child),
        (
            json!("KILLED"),
            json!("child-fail"),
            json!("JA018"),
            json!(
                "child-job failed: Output directory hdfs://nn.example.com:8020/user/joe/out already exists"
            )
        )
    );
    assert_eq!(
        outcome(&run),
        (
            json!("KILLED"),
            json!("child-failed"),
            Value::Null,
            json!("sub-workflow 0000001-000000000000000-oozie-coordc-W ended KILLED")
        )
    );
    assert_eq!(run["ended"], at("00:30"));
}

/// The chain of jobs of a sub-workflow cycle: each job and its `again`
/// action, top first.
fn cycle_chain(run: &Value) -> Vec<&Value> {
    let mut chain = vec![run];
    let mut job = run;
    while let Some(child) = nodes(job).first().and_then(|n| n.get("workflow")) {
        chain.push(child);
        job = child;
    }
    chain
}

#[test]
fn a_sub_workflow_cycle_stops_at_the_maximum_depth() {
    // SubWorkflowActionExecutor.verifyAndInjectSubworkflowDepth (:147-155):
    // a child is refused when its parent's depth is already
    // oozie.action.subworkflow.max.depth (50): the top job and 50 children;
    // the deepest's action is SUBWF001, an ERROR, so the error transition;
    // every job KILLED (TestSubWorkflowActionExecutor.testSubworkflowDepth,
    // :431, with a maximum of 3).
    let started = Instant::now();
    let run = report("wf-oozie-subwf-cycle");
    assert!(
        // (A guard against a blow-up, not a speed target: 50 levels take
        // a few seconds in a debug build under load.)
        started.elapsed() < Duration::from_secs(120),
        "{:?}",
        started.elapsed()
    );
    let chain = cycle_chain(&run);
    assert_eq!(chain.len(), 51);
    for (depth, job) in chain.iter().enumerate() {
        assert_eq!(
            job["id"],
            format!("{depth:07}-000000000000000-oozie-coordc-W"),
            "depth {depth}"
        );
        assert_eq!(job["status"], "KILLED", "depth {depth}");
        assert_eq!(job["end_node"], "fail", "depth {depth}");
        assert_eq!(
            job["app_path"],
            "hdfs://nn.example.com:8020/user/joe/apps/oozie-subwf-cycle.xml"
        );
        assert_eq!(steps(job), ["again ERROR -> fail", "fail OK -> -"]);
        assert_eq!(job["ended"], at("00:00"));
        let again = &nodes(job)[0];
        if depth < 50 {
            assert_eq!(again["external_status"], "KILLED");
            assert_eq!(again["error_code"], Value::Null);
            // wf:errorMessage of an action without one is "" (DagELFunctions.java:230-244; TestDagELFunctions.java:147).
            assert_eq!(job["kill_message"], "Sub workflow failed, error message[]");
        } else {
            assert_eq!(again["error_code"], "SUBWF001");
            assert!(again.get("workflow").is_none());
            let message = again["error_message"].as_str().unwrap();
            assert!(
                message.contains("Depth [51] cannot exceed maximum subworkflow depth [50]"),
                "{message}"
            );
        }
    }
}

#[test]
fn the_subwf001_message_is_oozies() {
    // ActionExecutorException.java:87 prefixes the code;
    // SubWorkflowActionExecutor.java:151-152.
    let run = report("wf-oozie-subwf-cycle");
    let deepest = *cycle_chain(&run).last().unwrap();
    assert_eq!(
        nodes(deepest)[0]["error_message"],
        "SUBWF001: Depth [51] cannot exceed maximum subworkflow depth [50]"
    );
    assert_eq!(
        deepest["kill_message"],
        "Sub workflow failed, error message[SUBWF001: Depth [51] cannot exceed maximum subworkflow depth [50]]"
    );
}

/// The cycle with `oozie.action.subworkflow.max.depth` set to `depth`.
fn cycle_with_max_depth(depth: u32) -> Output {
    let dir = common::fresh_dir(&format!("wf-cycle-{depth}"));
    let scenario = dir.join("scenario.toml");
    std::fs::write(
        &scenario,
        format!("[server]\n\"oozie.action.subworkflow.max.depth\" = {depth}\n"),
    )
    .unwrap();
    let mut args = vec!["simulate", CYCLE];
    args.extend_from_slice(CYCLE_ARGS);
    args.extend(["--scenario", scenario.to_str().unwrap(), "--format", "json"]);
    coordc(&args)
}

#[test]
fn a_sub_workflow_cycle_with_oozies_test_maximum_of_3() {
    // TestSubWorkflowActionExecutor.testSubworkflowDepth (:431-480): with
    // the maximum 3, jobs 0 to 3 are KILLED and no fifth job is made; the
    // fourth's action fails with Depth [4].
    let out = cycle_with_max_depth(3);
    common::expect_code(&out, 0, "max depth 3");
    let run = parse(&out.stdout, "the run");
    let chain = cycle_chain(&run);
    assert_eq!(chain.len(), 4);
    assert!(chain.iter().all(|job| job["status"] == "KILLED"));
    let deepest = nodes(chain[3]).first().unwrap();
    assert_eq!(deepest["error_code"], "SUBWF001");
    assert!(
        deepest["error_message"]
            .as_str()
            .unwrap()
            .contains("Depth [4] cannot exceed maximum subworkflow depth [3]")
    );
}

#[test]
fn a_deep_sub_workflow_cycle_runs_and_a_deeper_maximum_is_refused() {
    // Each level is a nested run: coordc takes a maximum up to 200 (Oozie
    // takes any), runs that deep without overflowing its stack, and refuses
    // more as a scenario problem.
    let out = cycle_with_max_depth(200);
    common::expect_code(&out, 0, "max depth 200");
    let run = parse(&out.stdout, "max depth 200");
    let chain = cycle_chain(&run);
    assert_eq!(chain.len(), 201);
    assert!(chain.iter().all(|job| job["status"] == "KILLED"));
    let out = cycle_with_max_depth(2000);
    common::expect_code(&out, 1, "max depth 2000");
    let err = common::stderr(&out);
    assert!(err.contains("error[SI001]"), "{err}");
    assert!(
        err.contains("coordc simulates this setting from 0 to"),
        "{err}"
    );
}

// ---------------------------------------------------------------------------
// The command: formats, determinism, bad scenarios.

#[test]
fn text_events_and_svg_formats() {
    let dir = "wf-spec-4.1.5-fork-join-error";
    // text: a line per node, indented by forks, and the kill message.
    let out = run_scenario(dir, "text");
    common::expect_code(&out, 0, "text");
    let text = common::stdout(&out);
    assert!(
        text.starts_with("workflow sample-wf (0000000-000000000000000-oozie-coordc-W): KILLED at 2009-01-01T00:10:00Z\n"),
        "{text}"
    );
    assert!(
        text.contains("map-reduce firstparalleljob: ERROR → kill (10m)"),
        "{text}"
    );
    assert!(
        text.contains("map-reduce secondparalleljob: KILLED (10m)"),
        "{text}"
    );
    assert!(text.ends_with("kill message: failed\n"), "{text}");

    // events: JSON lines in time order, the job's end last.
    let out = run_scenario(dir, "events");
    common::expect_code(&out, 0, "events");
    let events: Vec<Value> = common::stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    let times: Vec<&str> = events.iter().map(|e| e["at"].as_str().unwrap()).collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "{times:?}");
    assert_eq!(
        events.last().unwrap(),
        &json!({"at": at("00:10"), "workflow": "0000000-000000000000000-oozie-coordc-W",
                "event": "job ended", "status": "KILLED"})
    );
    assert!(events.iter().any(|e| e["node"] == "secondparalleljob"
        && e["event"] == "ended"
        && e["status"] == "KILLED"));

    // svg: well-formed XML, a box per node of the graph.
    let out = run_scenario(dir, "svg");
    common::expect_code(&out, 0, "svg");
    let svg = common::stdout(&out);
    assert_eq!(well_formed_root(&svg), "svg");
    assert_eq!(svg.matches("<rect").count(), 7, "{svg}");
    for name in [
        "forking",
        "firstparalleljob",
        "secondparalleljob",
        "joining",
        "nextaction",
        "kill",
        "end",
    ] {
        assert!(svg.contains(&format!(" {name}</text>")), "{name}: {svg}");
    }
}

/// The root element's name of `xml`, which must be well-formed: every start
/// tag closed by its own end tag, one root (quick-xml checks the names).
fn well_formed_root(xml: &str) -> String {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut depth = 0usize;
    let mut roots = Vec::new();
    loop {
        match reader.read_event() {
            Ok(Event::Start(e)) => {
                if depth == 0 {
                    roots.push(String::from_utf8_lossy(e.name().as_ref()).into_owned());
                }
                depth += 1;
            }
            Ok(Event::End(_)) => {
                depth = depth.checked_sub(1).expect("an end tag without a start");
            }
            Ok(Event::Empty(e)) if depth == 0 => {
                roots.push(String::from_utf8_lossy(e.name().as_ref()).into_owned());
            }
            Ok(Event::Text(t)) if depth == 0 => {
                assert!(
                    t.iter().all(u8::is_ascii_whitespace),
                    "text outside the root"
                );
            }
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(e) => panic!(
                "not well-formed at {}: {e}\n{xml}",
                reader.buffer_position()
            ),
        }
    }
    assert_eq!(depth, 0, "unclosed elements");
    assert_eq!(roots.len(), 1, "{roots:?}");
    roots.remove(0)
}

#[test]
fn every_scenario_gives_the_same_bytes_twice_in_every_format() {
    for s in SCENARIOS {
        for format in ["json", "text", "events", "svg"] {
            let first = run_scenario(s.dir, format);
            common::expect_code(&first, 0, &format!("{} {format}", s.dir));
            let second = run_scenario(s.dir, format);
            assert!(
                first.stdout == second.stdout,
                "{} --format {format}: two runs differ",
                s.dir
            );
            if format == "svg" {
                well_formed_root(&common::stdout(&first));
            }
        }
    }
}

#[test]
fn every_workflow_scenario_folder_is_run_here_and_has_a_readme() {
    let mut found: Vec<String> = std::fs::read_dir(root().join("corpus/simulate"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("wf-"))
        .collect();
    found.sort();
    let mut listed: Vec<String> = SCENARIOS.iter().map(|s| s.dir.to_string()).collect();
    listed.sort();
    assert_eq!(found, listed);
    for s in SCENARIOS {
        let folder = root().join("corpus/simulate").join(s.dir);
        for file in ["README.md", "scenario.toml"] {
            assert!(folder.join(file).is_file(), "{}/{file}", s.dir);
        }
        assert_eq!(
            folder.join("job.properties").is_file(),
            s.config,
            "{}: job.properties",
            s.dir
        );
        assert!(
            Path::new(&root()).join(s.workflow).is_file(),
            "{}",
            s.workflow
        );
        // The README gives the command the test runs.
        let readme = std::fs::read_to_string(folder.join("README.md")).unwrap();
        let command = format!("coordc {}", args_of(s.dir, "json").join(" "));
        assert!(readme.contains(&command), "{}: {command}", s.dir);
    }
}

/// Writes a scenario with `text` to a fresh folder; its path.
fn scenario_file(name: &str, text: &str) -> String {
    let dir = common::fresh_dir(name);
    let path = dir.join("scenario.toml");
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn a_scenario_with_an_unknown_key_is_refused_at_its_line() {
    let path = scenario_file(
        "wf-unknown-key",
        "start = \"2009-01-01T00:00Z\"\n\n[[node]]\nname = \"load\"\nduratoin = \"5m\"\n",
    );
    let out = coordc(&[
        "simulate",
        SPEC_4_2_1_4,
        "--scenario",
        &path,
        "--format",
        "json",
    ]);
    common::expect_code(&out, 1, "unknown key");
    assert!(out.stdout.is_empty());
    let err = common::stderr(&out);
    assert!(err.contains("error[SI001]"), "{err}");
    assert!(err.contains("unknown field `duratoin`"), "{err}");
    assert!(err.contains(&format!("{path}:5:1")), "{err}");
    assert!(err.contains("5 │ duratoin = \"5m\""), "{err}");
}

#[test]
fn a_workflow_scenario_refuses_node_scopes_and_coordinator_keys() {
    // `job` and `action` scope a [[node]] to a coordinator's workflows.
    let path = scenario_file(
        "wf-node-job",
        "start = \"2009-01-01T00:00Z\"\n\n[[node]]\nname = \"load\"\njob = \"ingest\"\n",
    );
    let out = coordc(&["simulate", SPEC_4_2_1_4, "--scenario", &path]);
    common::expect_code(&out, 1, "[[node]] job");
    let err = common::stderr(&out);
    assert!(err.contains("error[SI001]"), "{err}");
    assert!(
        err.contains("`job` and `action` scope a [[node]] inside a coordinator scenario"),
        "{err}"
    );
    assert!(err.contains(&format!("{path}:4:8")), "{err}");
    // `until` is a coordinator scenario's.
    let path = scenario_file(
        "wf-until",
        "start = \"2009-01-01T00:00Z\"\nuntil = \"2009-01-02T00:00Z\"\n",
    );
    let out = coordc(&["simulate", SPEC_4_2_1_4, "--scenario", &path]);
    common::expect_code(&out, 1, "until");
    let err = common::stderr(&out);
    assert!(
        err.contains("`until` is for coordinator scenarios"),
        "{err}"
    );
}
