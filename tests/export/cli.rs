//! The exported DAG file and the report, without Airflow.

use crate::common::{coordc_in, expect_code, fresh_dir, root, stderr, stdout};
use serde_json::Value;

const FIXTURE: &str = "tests/export/fixtures/daily-etl";

/// Exports the fixture from the repository's root (stable relative paths):
/// the output, and the folder the DAG went to.
fn export_fixture(name: &str, extra: &[&str]) -> (std::process::Output, std::path::PathBuf) {
    let out = fresh_dir(name);
    let out_arg = out.display().to_string();
    let mut args = vec![
        "export",
        "airflow",
        "tests/export/fixtures/daily-etl/coordinator.xml",
        "--out",
        &out_arg,
        "--map",
        "hdfs://nn:8020/apps/etl=tests/export/fixtures/daily-etl/wf",
        // (The local user's name is a job property: fixed for the snapshot.)
        "-D",
        "user.name=etl",
    ];
    args.extend_from_slice(extra);
    (coordc_in(root(), &args), out)
}

/// The reviewed DAG file: the runtime's coordinator as written, the DST
/// schedule on coordc_airflow's timetable, the sensor, the tasks of the
/// fork, the join and the kill, and the hive action failing loudly.
#[test]
fn a_coordinator_with_its_workflow_exports_as_reviewed() {
    let (out, dir) = export_fixture("export-fixture", &[]);
    expect_code(&out, 0, "export");
    let dag = std::fs::read_to_string(dir.join("daily_etl.py")).unwrap();
    insta::assert_snapshot!("daily_etl_dag", dag);
    insta::assert_snapshot!("daily_etl_report", stdout(&out));
    assert!(
        stderr(&out).contains("warning: 1 part(s) not exported"),
        "{}",
        stderr(&out)
    );
}

/// The JSON report: one entry per application, each item with its status
/// and, for what is in a file, its place.
#[test]
fn the_json_report_gives_each_item_its_status_and_place() {
    let (out, _) = export_fixture("export-json", &["--format", "json"]);
    expect_code(&out, 0, "export --format json");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let app = &report["apps"][0];
    assert_eq!(app["dag_id"], "daily-etl");
    assert_eq!(app["dag_file"], "daily_etl.py");
    let hive = app["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["what"] == "action stats (pig)")
        .unwrap();
    assert_eq!(hive["status"], "refused");
    assert_eq!(
        hive["at"],
        serde_json::json!({"file": format!("{FIXTURE}/wf/workflow.xml"), "line": 59, "column": 6})
    );
    let statuses: Vec<&str> = app["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["status"].as_str().unwrap())
        .collect();
    assert!(statuses.contains(&"exact") && statuses.contains(&"mapped"));
}

/// A bundle gives one DAG per coordinator it submits, each named after the
/// bundle's `<coordinator name>` and with the configuration it gives.
#[test]
fn a_bundle_exports_one_dag_per_coordinator() {
    let out_dir = fresh_dir("export-bundle");
    let out = coordc_in(
        root(),
        &[
            "export",
            "airflow",
            "corpus/bundle/daily-pipeline/bundle.xml",
            "--out",
            &out_dir.display().to_string(),
            "--format",
            "json",
        ],
    );
    expect_code(&out, 0, "export of a bundle");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let ids: Vec<&str> = report["apps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["dag_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["ingest-prod", "report-prod"]);
    let ingest = std::fs::read_to_string(out_dir.join("ingest_prod.py")).unwrap();
    // The bundle's configuration is the job's.
    assert!(
        ingest.contains(r#""rawRoot": "hdfs://nn:8020/data/prod/raw","#),
        "{ingest}"
    );
    assert!(ingest.contains("schedule=DeltaTriggerTimetable(timedelta(days=1))"));
}

/// One application that cannot be read does not stop the others: its
/// problems are reported (exit 1), the others exported.
#[test]
fn a_bad_application_is_reported_and_the_others_exported() {
    let dir = fresh_dir("export-bad");
    let bad = crate::common::write(&dir, "bad.xml", "<coordinator-app name=\"x\"");
    let wf = format!("{FIXTURE}/wf/workflow.xml");
    let out_dir = dir.join("out");
    let out = coordc_in(
        root(),
        &[
            "export",
            "airflow",
            &bad.display().to_string(),
            &wf,
            "corpus/coord/spec-6.6.3-hours-in-day/coordinator.xml",
            "--out",
            &out_dir.display().to_string(),
        ],
    );
    expect_code(&out, 1, "export with a bad file");
    let err = stderr(&out);
    assert!(err.contains("error[XML001]"), "{err}");
    assert!(
        err.contains(
            "coordc export airflow reads a <coordinator-app> or a <bundle-app>, not <workflow-app>"
        ),
        "{err}"
    );
    assert!(out_dir.join("app_coord.py").is_file());
    assert!(stdout(&out).contains("-> app_coord.py (DAG app-coord)"));
}

/// Without a Python that has Airflow, --verify says how to install it.
#[test]
fn verify_without_airflow_says_how_to_install_it() {
    let (out, _) = export_fixture(
        "export-no-airflow",
        &["--verify", "--python", "/nonexistent/python3"],
    );
    expect_code(&out, 2, "export --verify without Python");
    let err = stderr(&out);
    assert!(
        err.contains("--verify needs Apache Airflow 3.2 or newer and coordc-airflow"),
        "{err}"
    );
    assert!(err.contains("pip install"), "{err}");
}

/// The runtime package's version is coordc's: the exported DAGs and the
/// runtime they import are made for each other.
#[test]
fn the_runtime_package_has_coordcs_version() {
    let version = env!("CARGO_PKG_VERSION");
    let pyproject = std::fs::read_to_string(root().join("airflow-runtime/pyproject.toml")).unwrap();
    assert!(
        pyproject.contains(&format!("version = \"{version}\"")),
        "airflow-runtime/pyproject.toml's version is not {version}"
    );
    assert!(
        pyproject.contains(&format!("\"coordc=={version}\"")),
        "coordc-airflow does not require coordc=={version}"
    );
    let init =
        std::fs::read_to_string(root().join("airflow-runtime/coordc_airflow/__init__.py")).unwrap();
    assert!(init.contains(&format!("__version__ = \"{version}\"")));
}

/// More reviewed DAGs: the specification's DST example on the runtime's
/// timetable (a day is 23 hours there); a bundle's coordinator on
/// Airflow's own DeltaTriggerTimetable (UTC, every day 24 hours apart);
/// sub-workflows, each a TaskGroup of its workflow's tasks ending at its end
/// node's task, its job (`OozieSubWorkflow`) built from its parent's, and
/// its tasks' templates reading that job.
#[test]
fn more_exports_as_reviewed() {
    for (name, app, file, extra) in [
        (
            "hours_in_day_dag",
            "corpus/coord/spec-6.6.3-hours-in-day/coordinator.xml",
            "app_coord.py",
            &[][..],
        ),
        (
            "bundle_report_dag",
            "corpus/bundle/daily-pipeline/bundle.xml",
            "report_prod.py",
            &[],
        ),
        (
            "sub_workflows_dag",
            "tests/export/fixtures/sub-workflows/coordinator.xml",
            "sub_workflows.py",
            &[
                "--config",
                "tests/export/fixtures/sub-workflows/job.properties",
                "--map",
                "hdfs://nn/apps=tests/export/fixtures/sub-workflows",
            ],
        ),
    ] {
        let out_dir = fresh_dir(&format!("export-{name}"));
        let out_arg = out_dir.display().to_string();
        let mut args = vec![
            "export",
            "airflow",
            app,
            "--out",
            &out_arg,
            "-D",
            "user.name=etl",
        ];
        args.extend_from_slice(extra);
        let out = coordc_in(root(), &args);
        expect_code(&out, 0, app);
        let dag = std::fs::read_to_string(out_dir.join(file)).unwrap();
        insta::assert_snapshot!(name, dag);
    }
}
