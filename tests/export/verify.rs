//! The exported DAGs proved with Apache Airflow (`--verify`: no database):
//! they import, their runs are the coordinators' nominal times, and their
//! data-in URIs and resolved configuration those of `coordc dryrun`.
//! Airflow comes from .ci/run's `.venv-airflow` (or $COORDC_AIRFLOW_PYTHON).

use crate::common::{coordc, coordc_in, expect_code, fresh_dir, root, stderr, stdout};

/// The Python with Airflow and coordc-airflow.
pub fn airflow_python() -> String {
    std::env::var("COORDC_AIRFLOW_PYTHON").unwrap_or_else(|_| {
        root()
            .join(".venv-airflow/bin/python")
            .display()
            .to_string()
    })
}

/// Each DAG's summary line of the verifier: `(dag_id, runs, divergences)`
/// (a sampled one says what it kept after them).
pub fn summaries(out: &str) -> Vec<(String, usize, usize)> {
    out.lines()
        .filter_map(|line| {
            let (dag, rest) = line.split_once(": ")?;
            let words: Vec<&str> = rest.split_whitespace().collect();
            match words.as_slice() {
                [runs, "runs,", _, "data-ins,", divergences, "divergences"]
                | [
                    runs,
                    "runs,",
                    _,
                    "data-ins,",
                    divergences,
                    "divergences",
                    "(sampled:",
                    ..,
                ] => Some((
                    dag.to_string(),
                    runs.parse().ok()?,
                    divergences.parse().ok()?,
                )),
                _ => None,
            }
        })
        .collect()
}

/// `coordc export airflow ARGS --verify`, in the checkout, into a fresh
/// folder, with the Python that has Airflow; it must exit 0: each DAG's
/// summary, and the whole output.
fn export_verified(name: &str, args: &[&str]) -> (Vec<(String, usize, usize)>, String) {
    let out_dir = fresh_dir(name).display().to_string();
    let python = airflow_python();
    let mut all = vec![
        "export", "airflow", "--out", &out_dir, "--verify", "--python", &python,
    ];
    all.extend_from_slice(args);
    let out = coordc_in(root(), &all);
    let shown = format!("{}\n{}", stdout(&out), stderr(&out));
    expect_code(&out, 0, &shown);
    (summaries(&stdout(&out)), shown)
}

/// Every corpus coordinator that dry-runs (the spec's worked examples, the
/// simulator's facts, the bundle's), exported and verified over its whole
/// life: zero divergences.
#[test]
#[cfg_attr(
    missing_airflow,
    ignore = "skipped: needs Apache Airflow in .venv-airflow (.ci/run makes it from airflow-runtime/requirements-verify.txt) or $COORDC_AIRFLOW_PYTHON"
)]
fn every_corpus_coordinator_exports_and_verifies() {
    let apps = crate::common::corpus_coordinators_that_dry_run();
    assert!(
        apps.len() >= 70,
        "only {} corpus coordinators dry-run",
        apps.len()
    );
    let mut args: Vec<&str> = apps.iter().map(String::as_str).collect();
    args.push("corpus/bundle/daily-pipeline/bundle.xml");
    let (summaries, shown) = export_verified("export-verify-corpus", &args);
    // One DAG per coordinator, the bundle's two besides.
    assert_eq!(summaries.len(), apps.len() + 2, "{shown}");
    for (dag, runs, divergences) in &summaries {
        assert_eq!(*divergences, 0, "{dag}: {shown}");
        assert!(
            *runs > 0 || dag.starts_with("spec-6.6.11"),
            "{dag} has no run"
        );
    }
}

/// The fixture: its DST schedule on the runtime's timetable, its sensor,
/// and its workflow's tasks render for every run.
#[test]
#[cfg_attr(
    missing_airflow,
    ignore = "skipped: needs Apache Airflow in .venv-airflow (.ci/run makes it from airflow-runtime/requirements-verify.txt) or $COORDC_AIRFLOW_PYTHON"
)]
fn the_fixture_verifies_across_the_dst_switch() {
    let (summaries, shown) = export_verified(
        "export-verify-fixture",
        &[
            "tests/export/fixtures/daily-etl/coordinator.xml",
            "--map",
            "hdfs://nn:8020/apps/etl=tests/export/fixtures/daily-etl/wf",
        ],
    );
    assert_eq!(summaries, [("daily-etl".to_string(), 32, 0)], "{shown}");
}

/// A job too long to compare whole (three years hourly, 26,304 actions) is
/// compared on a sample: each sampled run asked of Airflow's timetable after
/// the action before it, both sides of every DST transition of the job's
/// zone and of its dataset's, and blocks of consecutive actions evenly
/// spread.
#[test]
#[cfg_attr(
    missing_airflow,
    ignore = "skipped: needs Apache Airflow in .venv-airflow (.ci/run makes it from airflow-runtime/requirements-verify.txt) or $COORDC_AIRFLOW_PYTHON"
)]
fn a_long_job_is_verified_on_every_dst_transition_and_a_sample() {
    let (summaries, shown) = export_verified(
        "export-verify-long",
        &["tests/export/fixtures/long-hourly/coordinator.xml"],
    );
    assert_eq!(
        summaries,
        [("long-hourly".to_string(), 19_407, 0)],
        "{shown}"
    );
    // Los Angeles and New York switch at different UTC hours: 12 transitions
    // in 3 years, 64 actions kept on each side of each, then blocks of 50.
    assert!(
        shown.contains("(sampled: 19407 of 26304 actions: the first, the last, 64 on each side of each of 12 DST transitions, and 384 blocks of 50 evenly spread)"),
        "{shown}"
    );
}

/// The verifier can fail: a DAG whose schedule is off by an hour is found,
/// with the run, Oozie's value and Airflow's.
#[test]
#[cfg_attr(
    missing_airflow,
    ignore = "skipped: needs Apache Airflow in .venv-airflow (.ci/run makes it from airflow-runtime/requirements-verify.txt) or $COORDC_AIRFLOW_PYTHON"
)]
fn a_wrong_schedule_is_a_divergence() {
    let dir = fresh_dir("export-verify-wrong");
    let out_dir = dir.join("dags");
    let expected = dir.join("expected");
    let app = "corpus/coord/spec-6.6.3-hours-in-day/coordinator.xml";
    let out = coordc_in(
        root(),
        &[
            "export",
            "airflow",
            app,
            "--out",
            &out_dir.display().to_string(),
        ],
    );
    expect_code(&out, 0, "export");
    // The expected runs, as --verify writes them: the dry run's.
    let dryrun = coordc_in(root(), &["dryrun", app, "--format", "json"]);
    let mut listing: serde_json::Value = serde_json::from_slice(&dryrun.stdout).unwrap();
    listing["dag_id"] = "app-coord".into();
    listing["file"] = app.into();
    std::fs::create_dir_all(&expected).unwrap();
    std::fs::write(expected.join("app-coord.json"), listing.to_string()).unwrap();
    // The DAG on Airflow's daily DeltaTriggerTimetable, wrong across the
    // spring-forward day (it adds 24 hours in UTC).
    let dag_file = out_dir.join("app_coord.py");
    let dag = std::fs::read_to_string(&dag_file).unwrap();
    let wrong = dag.replace(
        "schedule=OOZIE.timetable(),",
        "schedule=DeltaTriggerTimetable(timedelta(days=1)),",
    );
    let wrong = wrong.replace(
        "from airflow.sdk import DAG",
        "from airflow.sdk import DAG, DeltaTriggerTimetable",
    );
    assert_ne!(dag, wrong);
    std::fs::write(&dag_file, wrong).unwrap();
    let verified = std::process::Command::new(airflow_python())
        .args(["-m", "coordc_airflow.verify"])
        .arg(&out_dir)
        .arg(&expected)
        .env("COORDC_BIN", env!("CARGO_BIN_EXE_coordc"))
        .output()
        .unwrap();
    let shown = format!("{}\n{}", stdout(&verified), stderr(&verified));
    assert_eq!(verified.status.code(), Some(1), "{shown}");
    // 2009-03-09 00:00 in Los Angeles is 07:00 UTC; Airflow's next run,
    // 24 hours after the last, is past the DAG's end.
    assert!(
        shown.contains("app-coord: run 2009-03-09T07:00Z: run time:\n  Oozie:   2009-03-09T07:00Z\n  Airflow: (no run)"),
        "{shown}"
    );
    assert!(
        shown.contains("app-coord: 2 runs, 2 data-ins, 1 divergences"),
        "{shown}"
    );
}

/// The trigger rules, run: the DAG of tests/export/fixtures/branching run by
/// Airflow itself (`dag.test()`, on a SQLite database of its own) for three
/// values of `x`. A decision taking the kill node's path fails the run (as
/// Oozie kills the job); a join after a decision inside a fork runs.
#[test]
#[cfg_attr(
    missing_airflow,
    ignore = "skipped: needs Apache Airflow in .venv-airflow (.ci/run makes it from airflow-runtime/requirements-verify.txt) or $COORDC_AIRFLOW_PYTHON"
)]
fn decisions_and_kills_run_as_oozie_runs_them() {
    let fixture = root().join("tests/export/fixtures/branching");
    let map = format!("hdfs://nn/apps/branching={}", fixture.join("wf").display());
    run_with_airflow(
        "export-branching",
        &fixture,
        &map,
        "branching.py",
        &[
            (
                "9",
                "RUN failed\nd success\nd2 skipped\nfail skipped\nfail_reached failed\nj skipped\nlast skipped\nok1 skipped\nq1 skipped\nq2 skipped\nr skipped\n",
            ),
            (
                "1",
                "RUN success\nd success\nd2 success\nfail skipped\nfail_reached skipped\nj success\nlast success\nok1 success\nq1 success\nq2 skipped\nr success\n",
            ),
            (
                "3",
                "RUN success\nd success\nd2 success\nfail skipped\nfail_reached skipped\nj success\nlast success\nok1 success\nq1 skipped\nq2 success\nr success\n",
            ),
        ],
    );
}

/// Sub-workflows as task groups, run: the DAG of
/// tests/export/fixtures/sub-workflows run by Airflow for three values of
/// `x`, which its sub-workflow `load` decides on. Its tasks read its own
/// job (the parent's propagated, its `target`, its config-default.xml's
/// `threads`); a failure inside it fails its kill, then the parent's, as
/// Oozie ends the action in ERROR and takes its error transition
/// (SubWorkflowActionExecutor.end); an ending through its end node goes on
/// to the parent's next action.
#[test]
#[cfg_attr(
    missing_airflow,
    ignore = "skipped: needs Apache Airflow in .venv-airflow (.ci/run makes it from airflow-runtime/requirements-verify.txt) or $COORDC_AIRFLOW_PYTHON"
)]
fn sub_workflows_run_as_oozie_runs_them() {
    let fixture = root().join("tests/export/fixtures/sub-workflows");
    let map = format!("hdfs://nn/apps={}", fixture.display());
    // Every task of every group renders for the run, its decision decides.
    let (summaries, shown) = export_verified(
        "export-sub-workflows-verify",
        &[
            "tests/export/fixtures/sub-workflows/coordinator.xml",
            "--config",
            "tests/export/fixtures/sub-workflows/job.properties",
            "--map",
            "hdfs://nn/apps=tests/export/fixtures/sub-workflows",
        ],
    );
    assert_eq!(summaries, [("sub-workflows".to_string(), 1, 0)], "{shown}");
    let ran = run_with_airflow(
        "export-sub-workflows",
        &fixture,
        &map,
        "sub_workflows.py",
        &[
            (
                "1",
                "RUN success\nfail skipped\nload.broken skipped\nload.check success\nload.copy success\nload.end success\nload.k skipped\nload.mark.done success\nload.mark.end success\nload.mark.k skipped\nreport success\n",
            ),
            (
                "2",
                "RUN failed\nfail failed\nload.broken failed\nload.check success\nload.copy skipped\nload.end upstream_failed\nload.k failed\nload.mark.done skipped\nload.mark.end skipped\nload.mark.k skipped\nreport upstream_failed\n",
            ),
            (
                "3",
                "RUN success\nfail skipped\nload.broken skipped\nload.check success\nload.copy skipped\nload.end success\nload.k skipped\nload.mark.done skipped\nload.mark.end skipped\nload.mark.k skipped\nreport success\n",
            ),
        ],
    );
    // What the tasks ran with: each sub-workflow's own job.
    let logs = &ran[0];
    assert!(logs.contains("/data/20250301 4 etl"), "{logs}");
    assert!(logs.contains("/data/20250301/_DONE etl"), "{logs}");
    assert!(logs.contains("loaded 20250301"), "{logs}");
}

/// Exports `fixture`'s coordinator (its app-paths mapped by `map`) once for
/// each `(x, states)` with `-D x=X`, runs the DAG `dag_file` with Airflow's
/// own `dag.test()` on a SQLite database of its own, and checks the run's
/// state and each task's; the runs' outputs (task logs first).
fn run_with_airflow(
    name: &str,
    fixture: &std::path::Path,
    map: &str,
    dag_file: &str,
    cases: &[(&str, &str)],
) -> Vec<String> {
    let dir = fresh_dir(name);
    let home = dir.join("airflow");
    let python = airflow_python();
    let airflow = |args: &[&str], dags: &std::path::Path| {
        std::process::Command::new(&python)
            .args(args)
            .env("AIRFLOW_HOME", &home)
            .env("AIRFLOW__CORE__DAGS_FOLDER", dags)
            .env("AIRFLOW__CORE__LOAD_EXAMPLES", "False")
            .env("COORDC_BIN", env!("CARGO_BIN_EXE_coordc"))
            .output()
            .unwrap()
    };
    let migrated = airflow(&["-m", "airflow", "db", "migrate"], &dir);
    assert!(migrated.status.success(), "{}", stderr(&migrated));
    let run = crate::common::write(
        &dir,
        "run.py",
        "import sys, importlib.util, datetime\n\
         spec = importlib.util.spec_from_file_location('dag_file', sys.argv[1])\n\
         module = importlib.util.module_from_spec(spec)\n\
         spec.loader.exec_module(module)\n\
         run = module.dag.test(logical_date=datetime.datetime(2025, 3, 1, tzinfo=datetime.timezone.utc))\n\
         print('RUN', run.state)\n\
         for ti in sorted(run.get_task_instances(), key=lambda ti: ti.task_id):\n\
         \x20   print(ti.task_id, ti.state)\n",
    );
    let mut outputs = Vec::new();
    for (x, want) in cases {
        let dags = dir.join(format!("dags-{x}"));
        let out = coordc(&[
            "export",
            "airflow",
            &fixture.join("coordinator.xml").display().to_string(),
            "--out",
            &dags.display().to_string(),
            "--map",
            map,
            "--config",
            &fixture.join("job.properties").display().to_string(),
            "-D",
            &format!("x={x}"),
        ]);
        expect_code(&out, 0, "export");
        // (`dag.test()` runs the DAG the DAG processor stored.)
        let stored = airflow(&["-m", "airflow", "dags", "reserialize"], &dags);
        assert!(stored.status.success(), "{}", stderr(&stored));
        let ran = airflow(
            &[
                &run.display().to_string(),
                &dags.join(dag_file).display().to_string(),
            ],
            &dags,
        );
        let shown = format!("{}{}", stdout(&ran), stderr(&ran));
        let states: String = stdout(&ran)
            .lines()
            // (The task logs come first.)
            .skip_while(|l| !l.starts_with("RUN "))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(states, *want, "x={x}: {shown}");
        outputs.push(shown);
    }
    outputs
}
