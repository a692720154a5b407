//! `coordc simulate` against known-answer facts 21 to 40 of Oozie's
//! coordinator engine, and the Coordinator spec's §6.1 and §6.3 examples:
//! each runs a scenario of `corpus/simulate/` (its README cites the Oozie code
//! and tests it comes from) through the real binary and asserts what Oozie's
//! code gives, to the second.
//!
//! Times: the server's periodic services first run 10 s after it starts, then
//! every 300 s (materialization) or 60 s (status, pause, recovery); a
//! submission materializes 100 ms later; an input check runs at
//! max(nominal, created), then every 60 s.

use crate::common::simulate::{action, job, simulate, strings, text};

use serde_json::Value;

/// The only job of a report.
fn only_job(doc: &Value) -> &Value {
    let jobs = doc["jobs"].as_array().expect("jobs");
    assert_eq!(jobs.len(), 1);
    &jobs[0]
}

/// A status history as "AT STATUS" lines; a job's notes that keep its status
/// (an action deleted by -change) are not status changes and are left out.
fn history(v: &Value) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut last: Option<&str> = None;
    for change in v["history"].as_array().expect("history") {
        let status = text(&change["status"]);
        if last == Some(status) {
            continue;
        }
        last = Some(status);
        lines.push(format!("{} {status}", text(&change["at"])));
    }
    lines
}

/// The numbers and statuses of a job's actions, in order.
fn statuses(job: &Value) -> Vec<String> {
    job["actions"]
        .as_array()
        .expect("actions")
        .iter()
        .map(|a| format!("@{} {}", a["number"], text(&a["status"])))
        .collect()
}

fn inputs(action: &Value, data_in: &str) -> Vec<String> {
    strings(&action["inputs"][data_in])
}

fn missing(action: &Value) -> Vec<String> {
    strings(&action["missing"])
}

/// `base` + each suffix.
fn under(base: &str, suffixes: &[&str]) -> Vec<String> {
    suffixes.iter().map(|s| format!("{base}{s}")).collect()
}

/// WAITING at `created`, then READY, SUBMITTED and RUNNING at `started`,
/// then `end` at `ended`.
fn ran(created: &str, started: &str, ended: &str, end: &str) -> Vec<String> {
    vec![
        format!("{created} WAITING"),
        format!("{started} READY"),
        format!("{started} SUBMITTED"),
        format!("{started} RUNNING"),
        format!("{ended} {end}"),
    ]
}

// ---------------------------------------------------------------------------
// Facts 21-24: input checks.

/// Fact 21 (TCAIC:152-170; OID:193-231): the check walks the missing list in
/// order and stops at the first missing path, so 01/15 stays listed though
/// it exists; a timeout keeps the list.
#[test]
fn fact_21_the_missing_list_scan_stops_at_the_first_missing_path() {
    let base = "hdfs://nn:8020/data/a/2009/";
    let listed = under(base, &["02/05", "01/29", "01/22", "01/15", "01/08"]);
    let still_missing = under(
        base,
        &[
            "01/29/_SUCCESS",
            "01/22/_SUCCESS",
            "01/15/_SUCCESS",
            "01/08/_SUCCESS",
        ],
    );
    let doc = simulate("fact21/scenario.toml", Some("2009-02-02T00:00Z"));
    let job = only_job(&doc);
    let a = action(job, 1);
    assert_eq!(a["nominal_time"], "2009-02-01T23:59Z");
    assert_eq!(a["created_time"], "2009-02-01T23:59:00.100Z");
    assert_eq!(a["status"], "WAITING");
    assert_eq!(inputs(a, "A"), listed);
    assert_eq!(missing(a), still_missing);

    // Timeout 10, from max(nominal, created): TIMEDOUT at the check of
    // created + 11 min, the missing list unchanged.
    let doc = simulate("fact21/scenario.toml", None);
    let a = action(only_job(&doc), 1);
    assert_eq!(
        history(a),
        [
            "2009-02-01T23:59:00.100Z WAITING",
            "2009-02-02T00:10:00.100Z TIMEDOUT"
        ]
    );
    assert_eq!(missing(a), still_missing);
}

/// Fact 22 (TCAIC:255-308, 390-441; CEF:1551-1558, OD:1537-1538):
/// latestRange(-3,0) counts back from the current instance at the creation
/// time (02/12), newest first, ignoring later instances; with
/// `latest-el.use-current-time` from the check's clock.
#[test]
fn fact_22_latest_counts_from_the_creation_time_or_the_check_clock() {
    let base = "hdfs://nn:8020/data/a/2009/";
    for (scenario, expected) in [
        (
            "fact22/scenario.toml",
            under(base, &["02/12", "02/05", "01/22", "01/08"]),
        ),
        (
            "fact22/scenario-use-current-time.toml",
            under(base, &["03/05", "02/19", "02/12", "02/05"]),
        ),
    ] {
        // Unresolved until the instances exist.
        let doc = simulate(scenario, Some("2009-03-05T23:59Z"));
        let a = action(only_job(&doc), 1);
        assert_eq!(a["status"], "WAITING", "{scenario}");
        assert_eq!(a["created_time"], "2009-02-15T23:55:10Z", "{scenario}");
        assert_eq!(inputs(a, "A"), Vec::<String>::new(), "{scenario}");
        assert_eq!(missing(a), Vec::<String>::new(), "{scenario}");

        let doc = simulate(scenario, None);
        let a = action(only_job(&doc), 1);
        assert_eq!(
            history(a),
            ran(
                "2009-02-15T23:55:10Z",
                "2009-03-06T00:00:00Z",
                "2009-03-06T00:10:00Z",
                "SUCCEEDED"
            ),
            "{scenario}"
        );
        assert_eq!(inputs(a, "A"), expected, "{scenario}");
    }
}

/// Fact 23 (TCAIC:524-571; CEF:1494-1496): futureRange(0,3,'5') stays
/// unresolved with 3 available instances within current(0)..current(5) (03/26
/// is current(6)); with the fourth it resolves, oldest first.
#[test]
fn fact_23_future_range_waits_for_four_instances_within_its_limit() {
    let doc = simulate("fact23/scenario.toml", Some("2009-02-16T00:29Z"));
    let a = action(only_job(&doc), 1);
    assert_eq!(a["status"], "WAITING");
    assert_eq!(inputs(a, "A"), Vec::<String>::new());

    let doc = simulate("fact23/scenario.toml", None);
    let a = action(only_job(&doc), 1);
    assert_eq!(
        history(a),
        ran(
            "2009-02-15T23:55:10Z",
            "2009-02-16T00:30:00Z",
            "2009-02-16T00:40:00Z",
            "SUCCEEDED"
        )
    );
    assert_eq!(
        inputs(a, "A"),
        under(
            "hdfs://nn:8020/data/a/2009/",
            &["02/12", "02/26", "03/05", "03/12"]
        )
    );
}

/// Fact 24 (TCAIC:676-780; CAIC:443-461): without input events one check
/// takes the action WAITING -> READY -> RUNNING, a slot being free; again
/// after it is put back to WAITING (a rerun, whose check is 100 ms later).
#[test]
fn fact_24_no_input_events_one_check_to_running() {
    let doc = simulate("fact24/scenario.toml", None);
    let job = only_job(&doc);
    let a = action(job, 1);
    let mut expected = ran(
        "2009-02-01T23:55:10Z",
        "2009-02-01T23:59:00Z",
        "2009-02-02T00:09:00Z",
        "SUCCEEDED",
    );
    expected.extend(ran(
        "2009-02-02T00:30:00Z",
        "2009-02-02T00:30:00.100Z",
        "2009-02-02T00:40:00.100Z",
        "SUCCEEDED",
    ));
    assert_eq!(history(a), expected);
    assert_eq!(
        history(job),
        [
            "2009-02-01T23:00:00Z PREP",
            "2009-02-01T23:55:10Z RUNNING",
            "2009-02-02T00:09:10Z SUCCEEDED",
            "2009-02-02T00:30:00Z RUNNING",
            "2009-02-02T00:40:10Z SUCCEEDED"
        ]
    );
}

// ---------------------------------------------------------------------------
// Facts 25-31: job status.

/// Fact 25 (TSTS:98-150, 755-778; CSTX:126-158): a done job whose actions all
/// ended is SUCCEEDED (all SUCCEEDED) or DONEWITHERROR (KILLED + SUCCEEDED x2,
/// TIMEDOUT x3), at the status run after the last end; no RUNNINGWITHERROR
/// before on a default server.
#[test]
fn fact_25_a_done_job_ends_succeeded_or_done_with_error() {
    let doc = simulate("fact25/scenario.toml", None);
    let start = ["2009-01-01T00:00:00Z PREP", "2009-01-01T00:55:10Z RUNNING"];

    let succeeded = job(&doc, "succeeded");
    assert_eq!(
        history(succeeded),
        [start[0], start[1], "2009-01-01T03:10:10Z SUCCEEDED"]
    );
    assert_eq!(
        statuses(succeeded),
        ["@1 SUCCEEDED", "@2 SUCCEEDED", "@3 SUCCEEDED"]
    );

    let killed = job(&doc, "killed");
    assert_eq!(
        history(killed),
        [start[0], start[1], "2009-01-01T03:10:10Z DONEWITHERROR"]
    );
    assert_eq!(
        statuses(killed),
        ["@1 KILLED", "@2 SUCCEEDED", "@3 SUCCEEDED"]
    );
    assert_eq!(
        history(action(killed, 1)),
        ran(
            "2009-01-01T00:55:10Z",
            "2009-01-01T01:00:00Z",
            "2009-01-01T01:10:00Z",
            "KILLED"
        )
    );

    let timedout = job(&doc, "timedout");
    assert_eq!(
        history(timedout),
        [start[0], start[1], "2009-01-01T03:11:10Z DONEWITHERROR"]
    );
    for (n, created, timed_out) in [
        (1, "2009-01-01T00:55:10Z", "2009-01-01T01:11:00Z"),
        (2, "2009-01-01T01:55:10Z", "2009-01-01T02:11:00Z"),
        (3, "2009-01-01T02:55:10Z", "2009-01-01T03:11:00Z"),
    ] {
        assert_eq!(
            history(action(timedout, n)),
            [
                format!("{created} WAITING"),
                format!("{timed_out} TIMEDOUT")
            ]
        );
    }
}

/// Fact 26 (TSTS:570-641; CSTX:196-203, SU:154-171): not done, KILLED +
/// RUNNING x2: RUNNING on a default server, RUNNINGWITHERROR with
/// `states.without.error` = false.
#[test]
fn fact_26_a_killed_action_and_the_error_flag() {
    for (scenario, expected) in [
        (
            "fact26/scenario.toml",
            vec!["2009-01-01T00:00:00Z PREP", "2009-01-01T00:55:10Z RUNNING"],
        ),
        (
            "fact26/scenario-with-error-states.toml",
            vec![
                "2009-01-01T00:00:00Z PREP",
                "2009-01-01T00:55:10Z RUNNING",
                "2009-01-01T03:30:10Z RUNNINGWITHERROR",
            ],
        ),
    ] {
        let doc = simulate(scenario, None);
        let job = only_job(&doc);
        assert_eq!(
            statuses(job),
            ["@1 KILLED", "@2 RUNNING", "@3 RUNNING"],
            "{scenario}"
        );
        assert_eq!(
            action(job, 1)["workflow"]["ended"],
            "2009-01-01T03:30:00Z",
            "{scenario}"
        );
        assert_eq!(history(job), expected, "{scenario}");
    }
}

/// Fact 27 (TSTS:282-394; CSTX:126-158, 172-193): a suspended done job with
/// all actions SUCCEEDED becomes SUCCEEDED; with SUCCEEDED + SUSPENDED x3 it
/// is SUSPENDED; with KILLED + SUSPENDED x3 SUSPENDEDWITHERROR
/// (`states.without.error` = false). (The tests' RUNNING job with SUSPENDED
/// actions needs a workflow suspended outside the coordinator; here the
/// actions are suspended with the job.)
#[test]
fn fact_27_a_suspended_job_and_the_status_runs() {
    let doc = simulate("fact27/scenario.toml", None);
    let start = [
        "2009-01-01T00:00:00Z PREP",
        "2009-01-01T00:55:10Z RUNNING",
        "2009-01-01T01:51:00Z SUSPENDED",
    ];

    let all = job(&doc, "all-succeeded");
    assert_eq!(
        history(all),
        [
            start[0],
            start[1],
            start[2],
            "2009-01-01T01:51:10Z SUCCEEDED"
        ]
    );
    assert_eq!(
        statuses(all),
        [
            "@1 SUCCEEDED",
            "@2 SUCCEEDED",
            "@3 SUCCEEDED",
            "@4 SUCCEEDED"
        ]
    );
    assert_eq!(action(all, 4)["workflow"]["ended"], "2009-01-01T01:50:30Z");

    let suspended = job(&doc, "suspended");
    assert_eq!(history(suspended), start);
    assert_eq!(
        statuses(suspended),
        [
            "@1 SUCCEEDED",
            "@2 SUSPENDED",
            "@3 SUSPENDED",
            "@4 SUSPENDED"
        ]
    );
    for n in 2..=4 {
        assert_eq!(
            history(action(suspended, n))[4..],
            ["2009-01-01T01:51:00Z SUSPENDED"]
        );
    }

    let killed = job(&doc, "killed");
    assert_eq!(
        history(killed),
        [
            start[0],
            start[1],
            start[2],
            "2009-01-01T01:51:10Z SUSPENDEDWITHERROR"
        ]
    );
    assert_eq!(
        statuses(killed),
        ["@1 KILLED", "@2 SUSPENDED", "@3 SUSPENDED", "@4 SUSPENDED"]
    );
}

/// Fact 28 (TSTS:668-753; CSTX:161-169): with `states.without.error` =
/// false, a PAUSED job with KILLED + RUNNING becomes PAUSEDWITHERROR, and a
/// PAUSEDWITHERROR one with SUCCEEDED + RUNNING (the KILLED action ignored)
/// becomes PAUSED.
#[test]
fn fact_28_a_paused_job_follows_its_errors() {
    let doc = simulate("fact28/scenario.toml", None);
    let job = only_job(&doc);
    assert_eq!(
        history(job),
        [
            "2009-01-01T00:00:00Z PREP",
            "2009-01-01T00:55:10Z RUNNING",
            "2009-01-01T03:30:10Z PAUSED",
            "2009-01-01T03:40:10Z PAUSEDWITHERROR",
            "2009-01-01T03:50:10Z PAUSED"
        ]
    );
    // No action at or after the pause time.
    assert_eq!(statuses(job), ["@1 SUCCEEDED", "@2 IGNORED", "@3 RUNNING"]);
    let killed = history(action(job, 2));
    assert_eq!(
        killed[4..],
        [
            "2009-01-01T03:40:00Z KILLED",
            "2009-01-01T03:50:00Z IGNORED"
        ]
    );
}

/// Fact 29 (TSTS:780-797, TCKX:74-131; CSTX:132-135, CKX): a killed job
/// stays KILLED though its actions SUCCEEDED, and creates no more actions.
#[test]
fn fact_29_a_killed_job_stays_killed() {
    let doc = simulate("fact29/scenario.toml", None);
    let job = only_job(&doc);
    assert_eq!(
        history(job),
        [
            "2009-01-01T00:00:00Z PREP",
            "2009-01-01T00:55:10Z RUNNING",
            "2009-01-01T02:30:00Z KILLED"
        ]
    );
    assert_eq!(statuses(job), ["@1 SUCCEEDED", "@2 SUCCEEDED"]);
    assert_eq!(
        history(action(job, 2)),
        ran(
            "2009-01-01T01:55:10Z",
            "2009-01-01T02:00:00Z",
            "2009-01-01T02:10:00Z",
            "SUCCEEDED"
        )
    );
}

/// Fact 30 (TCKX:74-131, 264-310; CKX:136-164, CAB:176-179): a job kill
/// makes the job KILLED and done, and its RUNNING (workflow killed), READY
/// and WAITING actions KILLED.
#[test]
fn fact_30_a_job_kill_kills_ready_running_and_waiting_actions() {
    let doc = simulate("fact30/scenario.toml", Some("2009-01-01T03:29Z"));
    assert_eq!(
        statuses(only_job(&doc)),
        ["@1 RUNNING", "@2 READY", "@3 WAITING"]
    );

    let doc = simulate("fact30/scenario.toml", None);
    let job = only_job(&doc);
    assert_eq!(
        history(job),
        [
            "2009-01-01T00:00:00Z PREP",
            "2009-01-01T00:55:10Z RUNNING",
            "2009-01-01T03:30:00Z KILLED"
        ]
    );
    // Done: the 04:00 and 05:00 actions are never created.
    assert_eq!(statuses(job), ["@1 KILLED", "@2 KILLED", "@3 KILLED"]);
    let running = action(job, 1);
    assert_eq!(
        history(running)[3..],
        [
            "2009-01-01T01:00:00Z RUNNING",
            "2009-01-01T03:30:00Z KILLED"
        ]
    );
    assert_eq!(running["workflow"]["status"], "KILLED");
    assert_eq!(running["workflow"]["ended"], "2009-01-01T03:30:00Z");
    assert_eq!(
        history(action(job, 2)),
        [
            "2009-01-01T01:55:10Z WAITING",
            "2009-01-01T02:00:00Z READY",
            "2009-01-01T03:30:00Z KILLED"
        ]
    );
    assert_eq!(action(job, 2)["workflow"], Value::Null);
    let waiting = action(job, 3);
    assert_eq!(
        history(waiting),
        [
            "2009-01-01T02:55:10Z WAITING",
            "2009-01-01T03:30:00Z KILLED"
        ]
    );
    assert_eq!(
        missing(waiting),
        ["hdfs://nn:8020/logs/2009/01/01/03/_SUCCESS"]
    );
}

/// Fact 31 (TCSUS:55-122, TCRES:53-115, TSTS:451-496; CSUS:199-221,
/// RTX:46-60): RUNNING -> SUSPENDED -> RUNNING; PREP -> PREPSUSPENDED (kept
/// by the status runs) -> PREP; RUNNINGWITHERROR -> SUSPENDEDWITHERROR ->
/// RUNNINGWITHERROR; PAUSEDWITHERROR -> SUSPENDEDWITHERROR; SUCCEEDED
/// unchanged.
#[test]
fn fact_31_suspend_and_resume() {
    let doc = simulate("fact31/scenario.toml", None);
    let submitted = "2009-01-01T00:00:00Z PREP";
    let started = "2009-01-01T00:55:10Z RUNNING";

    let running = job(&doc, "running");
    assert_eq!(
        history(running)[..4],
        [
            submitted,
            started,
            "2009-01-01T01:20:00Z SUSPENDED",
            "2009-01-01T01:40:00Z RUNNING"
        ]
    );
    // Its running action is suspended and resumed with it; the workflow's
    // remaining 20 minutes run after the resume.
    assert_eq!(
        history(action(running, 1))[3..],
        [
            "2009-01-01T01:00:00Z RUNNING",
            "2009-01-01T01:20:00Z SUSPENDED",
            "2009-01-01T01:40:00Z RUNNING",
            "2009-01-01T02:00:00Z SUCCEEDED"
        ]
    );

    let prep = job(&doc, "prep");
    assert_eq!(
        history(prep),
        [
            submitted,
            "2009-01-01T01:00:00Z PREPSUSPENDED",
            "2009-01-01T02:00:00Z PREP"
        ]
    );
    assert_eq!(prep["actions"], serde_json::json!([]));

    let with_error = job(&doc, "runningwitherror");
    assert_eq!(
        history(with_error)[..5],
        [
            submitted,
            started,
            "2009-01-01T01:10:10Z RUNNINGWITHERROR",
            "2009-01-01T01:20:00Z SUSPENDEDWITHERROR",
            "2009-01-01T01:40:00Z RUNNINGWITHERROR"
        ]
    );

    let paused = job(&doc, "pausedwitherror");
    assert_eq!(
        history(paused),
        [
            submitted,
            started,
            "2009-01-01T01:10:10Z RUNNINGWITHERROR",
            "2009-01-01T01:30:10Z PAUSEDWITHERROR",
            "2009-01-01T01:40:00Z SUSPENDEDWITHERROR"
        ]
    );

    let succeeded = job(&doc, "succeeded");
    assert_eq!(
        history(succeeded),
        [submitted, started, "2009-01-01T01:10:10Z SUCCEEDED"]
    );
    assert_eq!(succeeded["ops"][0]["at"], "2009-01-01T01:20:00Z");
}

// ---------------------------------------------------------------------------
// Facts 32-34: changes and failures.

/// Fact 32 (TCCX:607-682; CCX:241-311): `pausetime=03:00` deletes the
/// WAITING @3 (03:00) and @4 (04:00): lastActionNumber 2, the job RUNNING.
#[test]
fn fact_32_pausetime_deletes_the_waiting_actions_after_it() {
    let doc = simulate("fact32/scenario.toml", Some("2013-08-01T02:29Z"));
    assert_eq!(
        statuses(only_job(&doc)),
        ["@1 SUCCEEDED", "@2 SUCCEEDED", "@3 WAITING", "@4 WAITING"]
    );
    let doc = simulate("fact32/scenario.toml", Some("2013-08-01T02:30Z"));
    let job = only_job(&doc);
    assert_eq!(job["status"], "RUNNING");
    assert_eq!(job["ops"][0]["refused"], Value::Null);
    assert_eq!(statuses(job), ["@1 SUCCEEDED", "@2 SUCCEEDED"]);
    assert_eq!(
        history(job),
        ["2013-08-01T00:00:00Z PREP", "2013-08-01T00:55:10Z RUNNING"]
    );
}

/// Fact 32 (TCCX:607-682; CCX:241-311, PTS:163-187), continued: after the
/// deletion nothing more is created, and the pause time is reached at the
/// PauseTransitService run of 03:00:10.
#[test]
fn fact_32_after_the_deletion_the_job_pauses() {
    let doc = simulate("fact32/scenario.toml", None);
    let job = only_job(&doc);
    assert_eq!(
        history(job),
        [
            "2013-08-01T00:00:00Z PREP",
            "2013-08-01T00:55:10Z RUNNING",
            "2013-08-01T03:00:10Z PAUSED"
        ]
    );
    assert_eq!(statuses(job), ["@1 SUCCEEDED", "@2 SUCCEEDED"]);
}

/// Fact 32 (TCCX:713-746; CCX:285-289): the same change while @3 is RUNNING
/// is refused (E1022) and changes nothing: no action deleted, no pause.
#[test]
fn fact_32_pausetime_over_a_running_action_is_refused() {
    let doc = simulate("fact32/scenario-running.toml", None);
    let job = only_job(&doc);
    let op = &job["ops"][0];
    assert_eq!(op["at"], "2013-08-01T03:30:00Z");
    assert!(
        text(&op["refused"]).starts_with("E1022"),
        "{}",
        op["refused"]
    );
    assert_eq!(
        history(job),
        ["2013-08-01T00:00:00Z PREP", "2013-08-01T00:55:10Z RUNNING"]
    );
    assert_eq!(
        statuses(job),
        ["@1 SUCCEEDED", "@2 SUCCEEDED", "@3 SUCCEEDED", "@4 WAITING"]
    );
    assert_eq!(
        history(action(job, 3))[3..],
        [
            "2013-08-01T03:00:00Z RUNNING",
            "2013-08-01T04:00:00Z SUCCEEDED"
        ]
    );
}

/// Fact 33 (TCCX:484-521; CCX:241-311): `endtime=08-05` over SUCCEEDED,
/// RUNNING, WAITING x4 (08-01 .. 08-06) deletes 08-05 and 08-06:
/// lastActionNumber 4, next materialization 08-05 - which a later end of
/// 08-07 shows: the next run creates action 5 for 08-05.
#[test]
fn fact_33_endtime_deletes_the_actions_after_the_new_end() {
    let doc = simulate("fact33/scenario.toml", Some("2013-08-02T11:59Z"));
    assert_eq!(
        statuses(only_job(&doc)),
        [
            "@1 SUCCEEDED",
            "@2 RUNNING",
            "@3 WAITING",
            "@4 WAITING",
            "@5 WAITING",
            "@6 WAITING"
        ]
    );
    let doc = simulate("fact33/scenario.toml", Some("2013-08-02T12:00Z"));
    let job = only_job(&doc);
    assert_eq!(job["status"], "RUNNING");
    assert_eq!(
        statuses(job),
        ["@1 SUCCEEDED", "@2 RUNNING", "@3 WAITING", "@4 WAITING"]
    );

    let doc = simulate("fact33/scenario.toml", None);
    let job = only_job(&doc);
    for (n, nominal, created) in [
        (4, "2013-08-04T00:00Z", "2013-07-31T23:55:10Z"),
        (5, "2013-08-05T00:00Z", "2013-08-04T23:55:10Z"),
        (6, "2013-08-06T00:00Z", "2013-08-04T23:55:10Z"),
    ] {
        let a = action(job, n);
        assert_eq!(a["nominal_time"], nominal, "@{n}");
        assert_eq!(a["created_time"], created, "@{n}");
    }
    assert_eq!(job["actions"].as_array().unwrap().len(), 6);
    assert_eq!(
        history(job),
        [
            "2013-07-31T23:00:00Z PREP",
            "2013-07-31T23:55:10Z RUNNING",
            "2013-08-06T00:10:10Z SUCCEEDED"
        ]
    );
}

/// Fact 34 (TCMT:602-629; CMT:376-404): an error while materializing (a
/// data-in from current(0) to latest(0), E1010) fails the job, no action.
#[test]
fn fact_34_a_materialization_error_fails_the_job() {
    let doc = simulate("fact34/scenario.toml", None);
    let job = only_job(&doc);
    assert_eq!(
        history(job),
        ["2010-01-04T23:00:00Z PREP", "2010-01-04T23:55:10Z FAILED"]
    );
    assert_eq!(job["actions"], serde_json::json!([]));
}

// ---------------------------------------------------------------------------
// Facts 35-37: input logic.

/// Fact 35 (TCIL:364-428; P1:82-131, 240-258, OJI:46-79): or(A min 3, B min 3)
/// with A 2/6 and B 3/6 is READY with B's three; and(A min 2, B min 3, C min 0)
/// with A's two and B's three (C none).
#[test]
fn fact_35_input_logic_min_in_or_and_and() {
    let doc = simulate("fact35/scenario.toml", None);
    let a_uris = under("hdfs://nn:8020/input-data/a/2014/10/", &["08/00", "07/23"]);
    let b_uris = under(
        "hdfs://nn:8020/input-data/b/2014/10/07/",
        &["21", "20", "19"],
    );
    for (id, a_chosen) in [("or", vec![]), ("and", a_uris)] {
        let a = action(job(&doc, id), 1);
        assert_eq!(
            history(a),
            ran(
                "2014-10-07T23:55:10Z",
                "2014-10-08T00:00:00Z",
                "2014-10-08T00:10:00Z",
                "SUCCEEDED"
            ),
            "{id}"
        );
        assert_eq!(inputs(a, "A"), a_chosen, "{id}");
        assert_eq!(inputs(a, "B"), b_uris, "{id}");
        assert_eq!(inputs(a, "C"), Vec::<String>::new(), "{id}");
    }
}

/// Fact 36 (TCIL:511-579; P1:148-221): combine(A, B) over six instances is
/// READY with six when A has the 3 newest and B the 3 oldest; with A 2 and B
/// 2, indexes 2 and 5 in neither, it stays WAITING.
#[test]
fn fact_36_combine_covers_each_index_from_either_input() {
    let doc = simulate("fact36/scenario.toml", None);
    let covered = action(job(&doc, "covered"), 1);
    assert_eq!(
        history(covered),
        ran(
            "2014-10-07T23:55:10Z",
            "2014-10-08T00:00:00Z",
            "2014-10-08T00:10:00Z",
            "SUCCEEDED"
        )
    );
    assert_eq!(
        inputs(covered, "A"),
        under(
            "hdfs://nn:8020/covered/a/2014/10/",
            &["08/00", "07/23", "07/22"]
        )
    );
    assert_eq!(
        inputs(covered, "B"),
        under("hdfs://nn:8020/covered/b/2014/10/07/", &["21", "20", "19"])
    );

    let uncovered = action(job(&doc, "uncovered"), 1);
    assert_eq!(history(uncovered), ["2014-10-07T23:55:10Z WAITING"]);
}

/// Fact 37 (TCIL:722-752, 646-682; P1:133-142, ILR:73-86): or(A, B) min 4
/// wait 180 with B 5/6 and A none stays WAITING (A waits, and a waiting first
/// branch holds the or) until 180 minutes from the nominal time, then takes
/// B's five; combine(A, B) min 4 wait 1 is READY with the five at the check
/// one minute after the nominal time.
#[test]
fn fact_37_wait_counts_from_the_nominal_time() {
    let five = |root: &str| {
        under(
            &format!("hdfs://nn:8020/{root}/b/2014/10/"),
            &["08/00", "07/23", "07/22", "07/21", "07/20"],
        )
    };
    let doc = simulate("fact37/scenario.toml", Some("2014-10-08T02:59Z"));
    assert_eq!(action(job(&doc, "or"), 1)["status"], "WAITING");

    let doc = simulate("fact37/scenario.toml", None);
    let or = action(job(&doc, "or"), 1);
    assert_eq!(
        history(or),
        ran(
            "2014-10-07T23:55:10Z",
            "2014-10-08T03:00:00Z",
            "2014-10-08T03:10:00Z",
            "SUCCEEDED"
        )
    );
    assert_eq!(inputs(or, "A"), Vec::<String>::new());
    assert_eq!(inputs(or, "B"), five("or"));

    let combine = action(job(&doc, "combine"), 1);
    assert_eq!(
        history(combine),
        ran(
            "2014-10-07T23:55:10Z",
            "2014-10-08T00:01:00Z",
            "2014-10-08T00:11:00Z",
            "SUCCEEDED"
        )
    );
    assert_eq!(inputs(combine, "A"), Vec::<String>::new());
    assert_eq!(inputs(combine, "B"), five("combine"));
}

// ---------------------------------------------------------------------------
// Facts 38-40.

/// Fact 38 (TCRX:689-787; CRX:421-434, 455-470): with `states.without.error`
/// = false a rerun makes a DONEWITHERROR job RUNNINGWITHERROR, leaves PAUSED
/// and PAUSEDWITHERROR jobs (and their pause time) as they are, and is
/// allowed in a KILLED job, its action going back to WAITING.
#[test]
fn fact_38_the_job_status_a_rerun_leaves() {
    let doc = simulate("fact38/scenario.toml", Some("2009-12-15T02:30Z"));
    let submitted = "2009-12-15T00:00:00Z PREP";
    let started = "2009-12-15T00:55:10Z RUNNING";

    let done = job(&doc, "donewitherror");
    assert_eq!(
        history(done),
        [
            submitted,
            started,
            "2009-12-15T02:10:10Z DONEWITHERROR",
            "2009-12-15T02:30:00Z RUNNINGWITHERROR"
        ]
    );
    assert_eq!(
        history(action(done, 2))[4..],
        [
            "2009-12-15T02:10:00Z FAILED",
            "2009-12-15T02:30:00Z WAITING"
        ]
    );

    let paused = job(&doc, "paused");
    assert_eq!(
        history(paused),
        [submitted, started, "2009-12-15T01:30:10Z PAUSED"]
    );
    assert_eq!(action(paused, 1)["status"], "WAITING");

    let paused_with_error = job(&doc, "pausedwitherror");
    assert_eq!(
        history(paused_with_error),
        [
            submitted,
            started,
            "2009-12-15T01:10:10Z RUNNINGWITHERROR",
            "2009-12-15T01:30:10Z PAUSEDWITHERROR"
        ]
    );
    assert_eq!(action(paused_with_error, 1)["status"], "WAITING");

    let killed = job(&doc, "killed");
    assert_eq!(
        history(killed),
        [
            submitted,
            started,
            "2009-12-15T01:30:00Z KILLED",
            "2009-12-15T02:30:00Z RUNNINGWITHERROR"
        ]
    );
    assert_eq!(killed["ops"][1]["refused"], Value::Null);
    assert_eq!(
        history(action(killed, 1))[4..],
        [
            "2009-12-15T01:10:00Z SUCCEEDED",
            "2009-12-15T02:30:00Z WAITING"
        ]
    );

    // Then: the reruns' checks (100 ms later) start the actions; the paused
    // jobs stay paused (the error flag follows the actions), the others end.
    let doc = simulate("fact38/scenario.toml", None);
    assert_eq!(
        history(job(&doc, "donewitherror"))[4..],
        [
            "2009-12-15T02:30:10Z RUNNING",
            "2009-12-15T02:40:10Z DONEWITHERROR"
        ]
    );
    assert_eq!(
        history(job(&doc, "paused")),
        [submitted, started, "2009-12-15T01:30:10Z PAUSED"]
    );
    assert_eq!(
        history(job(&doc, "pausedwitherror"))[4..],
        [
            "2009-12-15T02:30:10Z PAUSED",
            "2009-12-15T02:40:10Z PAUSEDWITHERROR"
        ]
    );
    assert_eq!(
        history(job(&doc, "killed"))[4..],
        [
            "2009-12-15T02:30:10Z RUNNING",
            "2009-12-15T02:40:10Z SUCCEEDED"
        ]
    );
    assert_eq!(
        history(action(job(&doc, "killed"), 1))[5..],
        ran(
            "2009-12-15T02:30:00Z",
            "2009-12-15T02:30:00.100Z",
            "2009-12-15T02:40:00.100Z",
            "SUCCEEDED"
        )
    );
}

/// Fact 39 (TPAT:60-157, TFAT:64-200; CMT:528, CAIC:269-275): catch-up and
/// current actions keep the timeout of 10: each times out at the first check
/// at or after max(nominal, created) + 11 min.
#[test]
fn fact_39_past_and_current_actions_keep_the_timeout() {
    let doc = simulate("fact39/scenario.toml", None);
    let created = "2009-02-01T03:00:00.100Z";

    let past = job(&doc, "past");
    assert_eq!(past["actions"].as_array().unwrap().len(), 4);
    for (n, nominal) in [
        (1, "2009-02-01T01:00Z"),
        (2, "2009-02-01T01:15Z"),
        (3, "2009-02-01T01:30Z"),
        (4, "2009-02-01T01:45Z"),
    ] {
        let a = action(past, n);
        assert_eq!(a["nominal_time"], nominal);
        assert_eq!(
            history(a),
            [
                format!("{created} WAITING"),
                "2009-02-01T03:11:00.100Z TIMEDOUT".to_string()
            ],
            "past @{n}"
        );
    }

    let current = job(&doc, "current");
    assert_eq!(current["actions"].as_array().unwrap().len(), 12);
    for (n, timed_out) in [
        (1, "2009-02-01T03:11:00.100Z"),
        (3, "2009-02-01T03:11:00.100Z"),
        (4, "2009-02-01T03:11:00.100Z"),
        (5, "2009-02-01T03:16:00Z"),
        (6, "2009-02-01T03:21:00Z"),
        (12, "2009-02-01T03:51:00Z"),
    ] {
        assert_eq!(
            history(action(current, n)),
            [
                format!("{created} WAITING"),
                format!("{timed_out} TIMEDOUT")
            ],
            "current @{n}"
        );
    }
}

/// Fact 40 (CMT:180-183, XC:299-306, CQS:695-755, CARX:111, 167-191): LIFO,
/// concurrency 1, all ten actions past and all data present: @1 starts first
/// (the catch-up checks run in number order), then each end starts the newest
/// READY action: @10, @9, ... @2.
#[test]
fn fact_40_lifo_catch_up_starts_the_first_action_first() {
    let doc = simulate("fact40/scenario.toml", None);
    let job = only_job(&doc);
    let created = "2009-01-01T12:00:00.100Z";
    let order = [1, 10, 9, 8, 7, 6, 5, 4, 3, 2];
    let times = [
        "12:00", "12:10", "12:20", "12:30", "12:40", "12:50", "13:00", "13:10", "13:20", "13:30",
        "13:40",
    ];
    for (k, n) in order.into_iter().enumerate() {
        let a = action(job, n);
        assert_eq!(a["created_time"], created, "@{n}");
        let started = format!("2009-01-01T{}:00.100Z", times[k]);
        let ended = format!("2009-01-01T{}:00.100Z", times[k + 1]);
        assert_eq!(
            history(a),
            [
                format!("{created} WAITING"),
                format!("{created} READY"),
                format!("{started} SUBMITTED"),
                format!("{started} RUNNING"),
                format!("{ended} SUCCEEDED")
            ],
            "@{n}"
        );
    }
    assert_eq!(
        history(job),
        [
            "2009-01-01T12:00:00Z PREP",
            "2009-01-01T12:00:00.100Z RUNNING",
            "2009-01-01T13:40:10Z SUCCEEDED"
        ]
    );
}

// ---------------------------------------------------------------------------
// The spec's examples.

/// Spec §6.1.2-6.1.3 (CSTX:196-203, SU:154-171, CMT:284-308): PREP, RUNNING (5
/// minutes before the start), RUNNINGWITHERROR after a failed workflow,
/// SUSPENDEDWITHERROR, RUNNINGWITHERROR on resume, DONEWITHERROR; the
/// actions due while suspended are created after the resume, late, none lost
/// (03:00 and 04:00 at the first trigger run, 05:00, the newest due, at the
/// next: CMT:284-308).
#[test]
fn spec_6_1_job_statuses_and_actions_delayed_not_lost() {
    let doc = simulate("spec-6.1/scenario.toml", None);
    let job = only_job(&doc);
    assert_eq!(
        history(job),
        [
            "2009-01-01T00:00:00Z PREP",
            "2009-01-01T00:55:10Z RUNNING",
            "2009-01-01T02:10:10Z RUNNINGWITHERROR",
            "2009-01-01T02:30:00Z SUSPENDEDWITHERROR",
            "2009-01-01T05:30:00Z RUNNINGWITHERROR",
            "2009-01-01T08:10:10Z DONEWITHERROR"
        ]
    );
    // (number, hour, created, first check = READY, started, ended, status):
    // every instance is there on time, the slot frees as the previous
    // workflow (10 minutes) ends.
    let expected = [
        (
            1,
            "01",
            "00:55:10",
            "01:00:00",
            "01:00:00",
            "01:10:00",
            "SUCCEEDED",
        ),
        (
            2, "02", "01:55:10", "02:00:00", "02:00:00", "02:10:00", "FAILED",
        ),
        (
            3,
            "03",
            "05:30:10",
            "05:30:10",
            "05:30:10",
            "05:40:10",
            "SUCCEEDED",
        ),
        (
            4,
            "04",
            "05:30:10",
            "05:30:10",
            "05:40:10",
            "05:50:10",
            "SUCCEEDED",
        ),
        (
            5,
            "05",
            "05:35:10",
            "05:35:10",
            "05:50:10",
            "06:00:10",
            "SUCCEEDED",
        ),
        (
            6,
            "06",
            "05:55:10",
            "06:00:00",
            "06:00:10",
            "06:10:10",
            "SUCCEEDED",
        ),
        (
            7,
            "07",
            "06:55:10",
            "07:00:00",
            "07:00:00",
            "07:10:00",
            "SUCCEEDED",
        ),
        (
            8,
            "08",
            "07:55:10",
            "08:00:00",
            "08:00:00",
            "08:10:00",
            "SUCCEEDED",
        ),
    ];
    assert_eq!(job["actions"].as_array().unwrap().len(), 8);
    let t = |hms: &str| format!("2009-01-01T{hms}Z");
    for (n, hour, created, ready, started, ended, end) in expected {
        let a = action(job, n);
        assert_eq!(a["nominal_time"], format!("2009-01-01T{hour}:00Z"), "@{n}");
        assert_eq!(a["created_time"], t(created), "@{n}");
        assert_eq!(
            history(a),
            [
                format!("{} WAITING", t(created)),
                format!("{} READY", t(ready)),
                format!("{} SUBMITTED", t(started)),
                format!("{} RUNNING", t(started)),
                format!("{} {end}", t(ended))
            ],
            "@{n}"
        );
        assert_eq!(
            inputs(a, "input"),
            [format!("hdfs://bar:8020/app/logs/200901/01/{hour}")]
        );
    }
}

/// Spec §6.1.2 on a default server (OD:1963-1964, SU:154-171): no *WITHERROR
/// state; the failed workflow shows only in the final DONEWITHERROR.
#[test]
fn spec_6_1_on_a_default_server() {
    let doc = simulate("spec-6.1/scenario-default-server.toml", None);
    let job = only_job(&doc);
    assert_eq!(
        history(job),
        [
            "2009-01-01T00:00:00Z PREP",
            "2009-01-01T00:55:10Z RUNNING",
            "2009-01-01T02:30:00Z SUSPENDED",
            "2009-01-01T05:30:00Z RUNNING",
            "2009-01-01T08:10:10Z DONEWITHERROR"
        ]
    );
    assert_eq!(
        statuses(job),
        [
            "@1 SUCCEEDED",
            "@2 FAILED",
            "@3 SUCCEEDED",
            "@4 SUCCEEDED",
            "@5 SUCCEEDED",
            "@6 SUCCEEDED",
            "@7 SUCCEEDED",
            "@8 SUCCEEDED"
        ]
    );
}

/// Spec §6.3, examples 1 to 3 (example 1 ending a day after its start,
/// example 3 with 24:00 as 00:00 and its data-out's dataset): each action
/// waits for its logs (30 minutes late), reads the URIs Oozie resolves -
/// example 3 the seven days newest first, not the spec's list.
#[test]
fn spec_6_3_examples_1_to_3() {
    let doc = simulate("spec-6.3/examples.toml", None);

    let one = job(&doc, "example-1");
    assert_eq!(
        history(one),
        [
            "2009-01-02T07:00:00Z PREP",
            "2009-01-02T07:55:10Z RUNNING",
            "2009-01-02T08:40:10Z SUCCEEDED"
        ]
    );
    assert_eq!(one["actions"].as_array().unwrap().len(), 1);
    let a = action(one, 1);
    assert_eq!(
        history(a),
        ran(
            "2009-01-02T07:55:10Z",
            "2009-01-02T08:30:00Z",
            "2009-01-02T08:40:00Z",
            "SUCCEEDED"
        )
    );
    assert_eq!(
        inputs(a, "input"),
        ["hdfs://bar:8020/app/logs/200901/02/data"]
    );

    let two = job(&doc, "example-2");
    for (n, day) in [(1, "02"), (2, "03"), (3, "04")] {
        let a = action(two, n);
        assert_eq!(a["nominal_time"], format!("2009-01-{day}T08:00Z"));
        let prev = format!("2009-01-{day}T07:55:10Z");
        assert_eq!(
            history(a),
            ran(
                &prev,
                &format!("2009-01-{day}T08:30:00Z"),
                &format!("2009-01-{day}T08:40:00Z"),
                "SUCCEEDED"
            ),
            "@{n}"
        );
        assert_eq!(
            inputs(a, "input"),
            [format!("hdfs://bar:8020/app/logs/200901/{day}/data")]
        );
    }

    let three = job(&doc, "example-3");
    assert_eq!(three["actions"].as_array().unwrap().len(), 2);
    for (n, day, days) in [
        (1, "08", ["08", "07", "06", "05", "04", "03", "02"]),
        (2, "15", ["15", "14", "13", "12", "11", "10", "09"]),
    ] {
        let a = action(three, n);
        assert_eq!(a["nominal_time"], format!("2009-01-{day}T00:00Z"));
        assert_eq!(
            inputs(a, "input"),
            under("hdfs://bar:8020/app/logs/200901/", &days)
        );
        assert_eq!(
            history(a)[1],
            format!("2009-01-{day}T00:30:00Z READY"),
            "@{n}"
        );
    }
}

/// Spec §6.3, the LAST_ONLY example as it can happen (fact 16; CAIC:98-109,
/// 460; CARX:111, 119-143, 167-191): @2 READY from 16:50 is SKIPPED at 17:10,
/// when @3's check makes it READY; @3 starts at 17:20 when @1 ends. With @1
/// running until 17:40, @3 is skipped too, at the first ready-check after
/// 17:30 (its next nominal time, the end): the RecoveryService's, 17:30:10
/// (RS:267-365, READY for over 10 minutes).
#[test]
fn spec_6_3_last_only_corrected() {
    let doc = simulate("spec-6.3/last-only.toml", None);
    let on_time = job(&doc, "last-only");
    assert_eq!(
        history(action(on_time, 1)),
        ran(
            "2009-01-01T16:25:10Z",
            "2009-01-01T16:30:00Z",
            "2009-01-01T17:20:00Z",
            "SUCCEEDED"
        )
    );
    assert_eq!(
        history(action(on_time, 2)),
        [
            "2009-01-01T16:25:10Z WAITING",
            "2009-01-01T16:50:00Z READY",
            "2009-01-01T17:10:00Z SKIPPED"
        ]
    );
    assert_eq!(
        history(action(on_time, 3)),
        [
            "2009-01-01T16:25:10Z WAITING",
            "2009-01-01T17:10:00Z READY",
            "2009-01-01T17:20:00Z SUBMITTED",
            "2009-01-01T17:20:00Z RUNNING",
            "2009-01-01T17:30:00Z SUCCEEDED"
        ]
    );
    assert_eq!(
        history(on_time),
        [
            "2009-01-01T16:00:00Z PREP",
            "2009-01-01T16:25:10Z RUNNING",
            "2009-01-01T17:30:10Z SUCCEEDED"
        ]
    );

    let late = job(&doc, "late");
    assert_eq!(statuses(late), ["@1 SUCCEEDED", "@2 SKIPPED", "@3 SKIPPED"]);
    assert_eq!(
        history(action(late, 3)),
        [
            "2009-01-01T16:25:10Z WAITING",
            "2009-01-01T17:10:00Z READY",
            "2009-01-01T17:30:10Z SKIPPED"
        ]
    );
    assert_eq!(history(late)[2], "2009-01-01T17:40:10Z SUCCEEDED");
}

/// Spec §6.3, the NONE example as it can happen (CAIC:134-152,
/// CARX:144-165): @2 (17:00) READY at 17:00 is SKIPPED at 17:10 by the
/// ready-check @3's READY runs; @3 (17:10) is SKIPPED at 17:20 by the one
/// @1's end runs. SKIPPED is no error: the job SUCCEEDED.
#[test]
fn spec_6_3_none_corrected() {
    let doc = simulate("spec-6.3/none.toml", None);
    let job = only_job(&doc);
    assert_eq!(
        history(action(job, 2)),
        [
            "2009-01-01T16:45:10Z WAITING",
            "2009-01-01T17:00:00Z READY",
            "2009-01-01T17:10:00Z SKIPPED"
        ]
    );
    assert_eq!(
        history(action(job, 3)),
        [
            "2009-01-01T16:45:10Z WAITING",
            "2009-01-01T17:10:00Z READY",
            "2009-01-01T17:20:00Z SKIPPED"
        ]
    );
    assert_eq!(action(job, 1)["workflow"]["ended"], "2009-01-01T17:20:00Z");
    assert_eq!(
        history(job),
        [
            "2009-01-01T16:00:00Z PREP",
            "2009-01-01T16:45:10Z RUNNING",
            "2009-01-01T17:20:10Z SUCCEEDED"
        ]
    );
}

/// Spec §6.3, LAST_ONLY with the server down for an hour (CAIC:116-133,
/// RS:267-365): the six actions due meanwhile (13:00 .. 13:50) are
/// re-driven by the RecoveryService at the restart (13:57:10); the five whose
/// next nominal time has passed are SKIPPED, only 13:50 runs.
#[test]
fn spec_6_3_last_only_after_an_outage() {
    let doc = simulate("spec-6.3/last-only-outage.toml", None);
    let job = only_job(&doc);
    for n in 7..=11 {
        assert_eq!(
            history(action(job, n)),
            [
                "2009-01-01T12:55:10Z WAITING",
                "2009-01-01T13:57:10Z SKIPPED"
            ],
            "@{n}"
        );
    }
    let current = action(job, 12);
    assert_eq!(current["nominal_time"], "2009-01-01T13:50Z");
    assert_eq!(
        history(current),
        ran(
            "2009-01-01T12:55:10Z",
            "2009-01-01T13:57:10Z",
            "2009-01-01T14:02:10Z",
            "SUCCEEDED"
        )
    );
    let skipped = statuses(job)
        .iter()
        .filter(|s| s.ends_with("SKIPPED"))
        .count();
    assert_eq!(skipped, 5);
    assert_eq!(job["actions"].as_array().unwrap().len(), 18);
    assert_eq!(job["status"], "SUCCEEDED");
}
