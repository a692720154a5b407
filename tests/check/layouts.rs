//! `coordc check` on applications laid out as real repositories lay them
//! out: properties files under other names, a `coordc.toml` folders above,
//! workflows with a config-default.xml, coordinators running the workflow
//! beside them, sub-workflows. Each test writes a small repository (with a
//! `.git` folder at its root) and drives the binary.

use crate::common;

use common::{check_json, coordc_in, folder, stderr};
use serde_json::Value;
use std::path::PathBuf;

/// A repository of `files` in a fresh folder; its root.
fn repository(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let root = folder(name, files);
    std::fs::create_dir_all(root.join(".git")).unwrap();
    root
}

/// Each diagnostic as `file:line:column SEVERITY CODE message`.
fn found(json: &Value) -> Vec<String> {
    json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            format!(
                "{}:{}:{} {} {} {}",
                d["file"].as_str().unwrap(),
                d["line"],
                d["column"],
                d["severity"].as_str().unwrap(),
                d["code"].as_str().unwrap(),
                d["message"].as_str().unwrap()
            )
        })
        .collect()
}

const SHELL_WORKFLOW: &str = r#"<workflow-app name="shell-wf" xmlns="uri:oozie:workflow:0.5">
  <start to="run"/>
  <action name="run">
    <shell xmlns="uri:oozie:shell-action:0.3">
      <job-tracker>${jobTracker}</job-tracker>
      <name-node>${nameNode}</name-node>
      <exec>run.sh</exec>
      <argument>${inputDir}</argument>
    </shell>
    <ok to="end"/>
    <error to="fail"/>
  </action>
  <kill name="fail"><message>failed: ${wf:errorMessage(wf:lastErrorNode())}</message></kill>
  <end name="end"/>
</workflow-app>"#;

/// The most reported Oozie failure: a variable the job does not define
/// fails every run when the action starts (ActionStartXCommand, EL_ERROR
/// "variable [jobTracker] cannot be resolved"; DagELFunctions.java:60-74
/// makes the job configuration's properties the variables).
#[test]
fn a_workflows_undefined_variables_are_errors_at_their_place() {
    let root = repository(
        "layout-shell",
        &[
            ("apps/shell/workflow.xml", SHELL_WORKFLOW),
            (
                "apps/shell/job.properties",
                "nameNode=hdfs://nn:8020\njobTrackr=rm:8032\noozie.wf.application.path=${nameNode}/apps/shell\n",
            ),
        ],
    );
    let (code, json) = check_json(&root, &["apps/shell/workflow.xml"]);
    assert_eq!(code, Some(1), "{json:#}");
    assert_eq!(
        found(&json),
        [
            "apps/shell/workflow.xml:5:22 error EL005 variable `jobTracker` is not defined",
            "apps/shell/workflow.xml:8:19 error EL005 variable `inputDir` is not defined",
        ]
    );
    assert_eq!(json["diagnostics"][0]["help"], "did you mean `jobTrackr`?");
    // Defined, it is clean; a config-default.xml beside the workflow
    // defines what it defines (SubmitXCommand.java:156-174).
    std::fs::write(
        root.join("apps/shell/job.properties"),
        "nameNode=hdfs://nn:8020\njobTracker=rm:8032\n",
    )
    .unwrap();
    std::fs::write(
        root.join("apps/shell/config-default.xml"),
        "<configuration><property><name>inputDir</name><value>/in</value></property></configuration>",
    )
    .unwrap();
    let (code, json) = check_json(&root, &["apps/shell/workflow.xml"]);
    assert_eq!((code, found(&json)), (Some(0), Vec::<String>::new()));
}

#[test]
fn a_hyphenated_name_is_explained_as_the_subtraction_el_reads() {
    let root = repository(
        "layout-hyphen",
        &[
            (
                "wf/workflow.xml",
                &SHELL_WORKFLOW.replace("${inputDir}", "${compute-result-dir}"),
            ),
            (
                "wf/job.properties",
                "nameNode=hdfs://nn:8020\njobTracker=rm:8032\ncompute-result-dir=/out\n",
            ),
        ],
    );
    let (code, json) = check_json(&root, &["wf"]);
    assert_eq!(code, Some(1));
    assert_eq!(
        found(&json),
        [
            "wf/workflow.xml:8:19 error EL005 `compute-result-dir` is not a variable name: EL reads it as the subtraction `compute - result - dir`, and `compute`, `result`, `dir` are not defined"
        ]
    );
    assert!(
        json["diagnostics"][0]["help"]
            .as_str()
            .unwrap()
            .contains("${wf:conf('compute-result-dir')}")
    );
}

const DAILY_COORDINATOR: &str = r#"<coordinator-app name="daily" frequency="${coord:days(1)}"
    start="${start}" end="2020-13-01T00:00Z" timezone="UTC" xmlns="uri:oozie:coordinator:0.4">
  <action>
    <workflow>
      <app-path>${nameNode}/user/etl/apps/daily</app-path>
      <configuration>
        <property><name>inputDir</name><value>/data/${coord:formatTime(coord:nominalTime(), 'yyyy-MM-dd')}</value></property>
      </configuration>
    </workflow>
  </action>
</coordinator-app>"#;

/// A coordinator.properties whose application path names the folder is
/// the job's configuration, as `oozie job -config coordinator.properties`
/// would submit it; without one, the values that read no undefined name
/// are still checked, and the summary says what was not.
#[test]
fn a_configuration_under_another_name_is_found_and_without_one_nothing_goes_quiet() {
    let properties = "nameNode=hdfs://nn:8020\nstart=2020-01-01T00:00Z\noozie.coord.application.path=${nameNode}/user/etl/apps/daily\n";
    let root = repository(
        "layout-coordinator-properties",
        &[
            ("apps/daily/coordinator.xml", DAILY_COORDINATOR),
            ("apps/daily/coordinator.properties", properties),
        ],
    );
    let (code, json) = check_json(&root, &["apps/daily/coordinator.xml"]);
    assert_eq!(code, Some(1));
    assert_eq!(
        found(&json),
        ["apps/daily/coordinator.xml:2:32 error TM001 invalid datetime: month 13 does not exist"]
    );
    // Named for another folder, it is not this job's: the literal end is
    // still checked, the note names what the job must define, and the
    // summary counts the application checked without a configuration.
    std::fs::write(
        root.join("apps/daily/coordinator.properties"),
        properties.replace("apps/daily", "apps/weekly"),
    )
    .unwrap();
    let (code, json) = check_json(&root, &["apps/daily/coordinator.xml"]);
    assert_eq!(code, Some(1));
    let found = found(&json);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].contains("note EL005 the job must define `nameNode`, `start`"));
    assert!(found[1].contains("error TM001 invalid datetime: month 13 does not exist"));
    let out = coordc_in(root.to_str().unwrap(), &["check", "apps/daily"]);
    assert!(
        stderr(&out).ends_with("checked 1 file: 1 error, 0 warnings, 1 note; 1 application checked without a job configuration (values that read job variables not evaluated)\n"),
        "{}",
        stderr(&out)
    );
    // An explicit --config takes any name.
    std::fs::write(root.join("my.conf"), properties).unwrap();
    let (_, json) = check_json(
        &root,
        &["apps/daily/coordinator.xml", "--config", "my.conf"],
    );
    assert_eq!(json["diagnostics"].as_array().unwrap().len(), 1);
}

const WORKFLOW_READING: &str = r#"<workflow-app name="daily-wf" xmlns="uri:oozie:workflow:0.5">
  <start to="copy"/>
  <action name="copy">
    <fs><mkdir path="${nameNode}${inputDir}/${outputDir}"/></fs>
    <ok to="end"/>
    <error to="fail"/>
  </action>
  <kill name="fail"><message>failed</message></kill>
  <end name="end"/>
</workflow-app>"#;

/// A workflow the coordinator beside it runs gets the coordinator job's
/// configuration with the action's `<configuration>` over it
/// (CoordActionStartXCommand.java:109-161): `inputDir` comes from the
/// action, `nameNode` from the job, `outputDir` from nowhere.
#[test]
fn a_workflow_run_by_a_coordinator_is_checked_with_what_the_coordinator_gives_it() {
    let root = repository(
        "layout-coordinator-runs",
        &[
            (
                "apps/daily/coordinator.xml",
                &DAILY_COORDINATOR.replace("2020-13-01", "2020-02-01"),
            ),
            ("apps/daily/workflow.xml", WORKFLOW_READING),
            (
                "apps/daily/job.properties",
                "nameNode=hdfs://nn:8020\nstart=2020-01-01T00:00Z\noozie.coord.application.path=${nameNode}/user/etl/apps/daily\n",
            ),
        ],
    );
    let expected = ["apps/daily/workflow.xml:4:47 error EL005 variable `outputDir` is not defined"];
    let (code, json) = check_json(&root, &["apps/daily"]);
    assert_eq!(
        (code, found(&json)),
        (Some(1), expected.map(String::from).to_vec())
    );
    assert!(
        json["diagnostics"][0]["help"].as_str().unwrap().contains(
            "this workflow runs with the configuration apps/daily/coordinator.xml gives it"
        )
    );
    // The workflow named alone (a commit that changes only it): the
    // coordinator beside it is read for its configuration.
    let (code, json) = check_json(&root, &["apps/daily/workflow.xml"]);
    assert_eq!(
        (code, found(&json)),
        (Some(1), expected.map(String::from).to_vec())
    );
    // Without a coordinator that runs it, one warning says what is not
    // checked (the names the job.properties beside it does not define)
    // and how to give it.
    std::fs::remove_file(root.join("apps/daily/coordinator.xml")).unwrap();
    let (code, json) = check_json(&root, &["apps/daily/workflow.xml"]);
    assert_eq!(code, Some(0));
    assert_eq!(
        found(&json),
        [
            "apps/daily/workflow.xml:1:2 warning EL005 the variables this workflow reads (`inputDir`, `outputDir`) are not checked: the configuration beside it submits a coordinator, and no coordinator checked here runs this workflow"
        ]
    );
}

/// A sub-workflow gets its parent action's `<configuration>`, and the
/// parent job's configuration only with `<propagate-configuration/>`
/// (SubWorkflowActionExecutor.java:180-212).
#[test]
fn a_sub_workflow_is_checked_with_what_its_parent_gives_it() {
    let parent = |propagate: &str| {
        format!(
            r#"<workflow-app name="parent" xmlns="uri:oozie:workflow:0.5">
  <start to="child"/>
  <action name="child">
    <sub-workflow>
      <app-path>${{nameNode}}/apps/child</app-path>
      {propagate}
      <configuration>
        <property><name>inputDir</name><value>/in</value></property>
      </configuration>
    </sub-workflow>
    <ok to="end"/>
    <error to="fail"/>
  </action>
  <kill name="fail"><message>failed</message></kill>
  <end name="end"/>
</workflow-app>"#
        )
    };
    let child = WORKFLOW_READING.replace("/${outputDir}", "");
    let root = repository(
        "layout-sub-workflow",
        &[
            ("apps/parent/workflow.xml", &parent("")),
            ("apps/parent/job.properties", "nameNode=hdfs://nn:8020\n"),
            ("apps/child/workflow.xml", &child),
        ],
    );
    // Not propagated: the child has `inputDir` but not `nameNode`.
    let (code, json) = check_json(&root, &["apps"]);
    assert_eq!(code, Some(1));
    assert_eq!(
        found(&json),
        ["apps/child/workflow.xml:4:24 error EL005 variable `nameNode` is not defined"]
    );
    std::fs::write(
        root.join("apps/parent/workflow.xml"),
        parent("<propagate-configuration/>"),
    )
    .unwrap();
    let (code, json) = check_json(&root, &["apps"]);
    assert_eq!((code, found(&json)), (Some(0), Vec::<String>::new()));
}

/// The coordc.toml that applies is the nearest one up to the repository
/// root, whether a folder or a file is named (as pre-commit names files).
#[test]
fn the_nearest_coordc_toml_applies_to_named_files_and_a_wrong_one_stops() {
    let coordinator = r#"<coordinator-app name="fast" frequency="1" start="2020-01-01T00:00Z"
    end="2020-01-02T00:00Z" timezone="UTC" xmlns="uri:oozie:coordinator:0.4">
  <action><workflow><app-path>hdfs://nn/apps/fast</app-path></workflow></action>
</coordinator-app>"#;
    let root = repository(
        "layout-settings",
        &[
            ("oozie/apps/fast/coordinator.xml", coordinator),
            ("coordc.toml", "check-maximum-frequency = false\n"),
        ],
    );
    // (Without the file, a 1-minute frequency is below Oozie's minimum.)
    let (code, json) = check_json(&root, &["oozie/apps/fast/coordinator.xml"]);
    assert_eq!((code, found(&json)), (Some(0), Vec::<String>::new()));
    let (code, json) = check_json(root.join("oozie/apps/fast"), &["coordinator.xml"]);
    assert_eq!((code, found(&json)), (Some(0), Vec::<String>::new()));
    std::fs::remove_file(root.join("coordc.toml")).unwrap();
    let (_, json) = check_json(&root, &["oozie/apps/fast/coordinator.xml"]);
    assert!(found(&json)[0].contains("TM003"), "{json:#}");
    // A mistake stops the run before anything is checked.
    std::fs::write(root.join("oozie/coordc.toml"), "colour = 1\n").unwrap();
    let out = coordc_in(
        root.to_str().unwrap(),
        &["check", "oozie/apps/fast/coordinator.xml"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("oozie/coordc.toml") && stderr(&out).contains("unknown field"),
        "{}",
        stderr(&out)
    );
    assert!(out.stdout.is_empty());
}

/// The end-before-start error (CoordSubmitXCommand.java:334-338, E1003)
/// shows both values and where the properties they read are set.
#[test]
fn end_before_start_says_where_the_properties_are_set() {
    let root = repository(
        "layout-end-before-start",
        &[
            (
                "c/coordinator.xml",
                r#"<coordinator-app name="c" frequency="${coord:days(1)}" start="${start}" end="${end}" timezone="UTC" xmlns="uri:oozie:coordinator:0.4">
  <action><workflow><app-path>hdfs://nn/apps/c</app-path></workflow></action>
</coordinator-app>"#,
            ),
            (
                "c/job.properties",
                "nameNode=hdfs://nn\nstart=2024-02-01T00:00Z\nend=2024-01-01T00:00Z\n",
            ),
        ],
    );
    let (code, json) = check_json(&root, &["c"]);
    assert_eq!(code, Some(1));
    let d = &json["diagnostics"][0];
    assert_eq!(d["code"], "TM001");
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .ends_with("the end, `${end}` = 2024-01-01T00:00Z, is before the start, `${start}` = 2024-02-01T00:00Z"),
        "{d}"
    );
    assert!(
        d["help"].as_str().unwrap().ends_with(
            "(`start` is set at c/job.properties:2, `end` is set at c/job.properties:3)"
        ),
        "{d}"
    );
}
