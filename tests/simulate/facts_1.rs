//! `coordc simulate` against known-answer facts 1–20 of Oozie's coordinator
//! engine. Each fact is a scenario under `corpus/simulate/factNN/` whose README
//! cites the Oozie code and tests it comes from (docs/oozie-sources.md reads
//! the citations) and says how the Oozie test's "now"-relative setup became
//! concrete times; each test runs the real binary and asserts the values
//! Oozie's code gives (statuses, times to the millisecond, counts), not what
//! the engine happens to print.
//!
//! Times: the server's periodic services first tick 10 s after the scenario's
//! start, then every interval (materialization trigger 5 min, status transit
//! and pause transit 1 min); a submission's own materialization runs 100 ms
//! after it; a command due at t runs just after t.

use crate::common::simulate::{action, actions, job, nominals, simulate, text};

use serde_json::Value;

/// A job's or an action's history: (at, status) pairs.
fn history(x: &Value) -> Vec<(&str, &str)> {
    x["history"]
        .as_array()
        .expect("history")
        .iter()
        .map(|h| (text(&h["at"]), text(&h["status"])))
        .collect()
}

fn created(job: &Value) -> Vec<&str> {
    actions(job)
        .iter()
        .map(|a| text(&a["created_time"]))
        .collect()
}

fn statuses(job: &Value) -> Vec<&str> {
    actions(job).iter().map(|a| text(&a["status"])).collect()
}

fn count(job: &Value, status: &str) -> usize {
    statuses(job).iter().filter(|s| **s == status).count()
}

/// `n` copies of `t`.
fn times(t: &str, n: usize) -> Vec<&str> {
    vec![t; n]
}

/// Nominal times `first + k * step_min` minutes, k in 0..n, for a day in
/// 2009-03-06 (HH:MM strings, no day change).
fn minutes_grid(day: &str, first: (u32, u32), step_min: u32, n: u32) -> Vec<String> {
    (0..n)
        .map(|k| {
            let m = first.0 * 60 + first.1 + k * step_min;
            format!("{day}T{:02}:{:02}Z", m / 60, m % 60)
        })
        .collect()
}

/// Fact 1: start 10:00, end 10:14, every 5 minutes → exactly 3 actions,
/// 10:00, 10:05, 10:10 (TCMT:526-540). Submitted at its start, the job's first
/// run (10:00:00.100) creates all three (its window, capped at the end) and
/// finishes materialization; the job is SUCCEEDED once @3 (10:10-10:11) ends,
/// at the status tick of 10:11:10.
#[test]
fn fact01_start_1000_end_1014_every_5_min_makes_3_actions() {
    let report = simulate("fact01/scenario.toml", None);
    let j = job(&report, "fact01");
    assert_eq!(
        nominals(j),
        [
            "2009-03-06T10:00Z",
            "2009-03-06T10:05Z",
            "2009-03-06T10:10Z"
        ]
    );
    assert_eq!(created(j), times("2009-03-06T10:00:00.100Z", 3));
    assert_eq!(
        history(j),
        [
            ("2009-03-06T10:00:00Z", "PREP"),
            ("2009-03-06T10:00:00.100Z", "RUNNING"),
            ("2009-03-06T10:11:10Z", "SUCCEEDED"),
        ]
    );
}

/// Fact 2: start 10:00, end 10:14, 5 minutes, pause 10:04 → one action
/// (10:00); pause 10:08 → 10:00 and 10:05 (TCMT:505-524). The pause times are
/// set (09:51) before the first run, the trigger's tick of 09:55:10; no action
/// at or after the pause time is ever created, and the PauseTransitService
/// pauses each job at its first tick after the pause time.
#[test]
fn fact02_no_action_at_or_after_the_pause_time() {
    let report = simulate("fact02/scenario.toml", None);
    let early = job(&report, "pause-1004");
    assert_eq!(nominals(early), ["2009-03-06T10:00Z"]);
    assert_eq!(created(early), ["2009-03-06T09:55:10Z"]);
    assert_eq!(
        history(early),
        [
            ("2009-03-06T09:50:00Z", "PREP"),
            ("2009-03-06T09:55:10Z", "RUNNING"),
            ("2009-03-06T10:04:10Z", "PAUSED"),
        ]
    );
    let late = job(&report, "pause-1008");
    assert_eq!(nominals(late), ["2009-03-06T10:00Z", "2009-03-06T10:05Z"]);
    assert_eq!(created(late), times("2009-03-06T09:55:10Z", 2));
    assert_eq!(
        history(late),
        [
            ("2009-03-06T09:50:00Z", "PREP"),
            ("2009-03-06T09:55:10Z", "RUNNING"),
            ("2009-03-06T10:08:10Z", "PAUSED"),
        ]
    );
    for j in [early, late] {
        assert!(j["ops"][0]["refused"].is_null(), "{j:#}");
    }
}

/// Fact 3: a PREP job with start = now + 3 min is RUNNING after one
/// materialization run; start = now + 6 min stays PREP; start in 2099 stays
/// PREP (TCMT:588-600, 631-642, 574-586). "now" = 10:00, the submission; its
/// run is at 10:00:00.100 and needs start ≤ now + 300 s.
#[test]
fn fact03_prep_job_materializes_within_the_look_ahead_only() {
    let at = simulate("fact03/scenario.toml", Some("2009-03-06T10:05Z"));
    let plus3 = job(&at, "start-plus-3m");
    assert_eq!(plus3["status"], "RUNNING");
    assert_eq!(
        history(plus3),
        [
            ("2009-03-06T10:00:00Z", "PREP"),
            ("2009-03-06T10:00:00.100Z", "RUNNING"),
        ]
    );
    assert_eq!(nominals(plus3), ["2009-03-06T10:03Z"]);
    assert_eq!(created(plus3), ["2009-03-06T10:00:00.100Z"]);
    for id in ["start-plus-6m", "start-2099"] {
        let j = job(&at, id);
        assert_eq!(j["status"], "PREP", "{id}");
        assert_eq!(history(j), [("2009-03-06T10:00:00Z", "PREP")], "{id}");
        assert!(actions(j).is_empty(), "{id}");
    }
    // Later: the +6 min job at the first tick with start ≤ tick + 300 s
    // (10:05:10); the 2099 job never.
    let end = simulate("fact03/scenario.toml", None);
    let plus6 = job(&end, "start-plus-6m");
    assert_eq!(
        history(plus6),
        [
            ("2009-03-06T10:00:00Z", "PREP"),
            ("2009-03-06T10:05:10Z", "RUNNING"),
        ]
    );
    assert_eq!(nominals(plus6), ["2009-03-06T10:06Z"]);
    let far = job(&end, "start-2099");
    assert_eq!(far["status"], "PREP");
    assert!(actions(far).is_empty());
}

/// Fact 4: start = now, 5 minutes, throttle 20, end now + 3 h → 12 actions
/// and nextMat = start + 1 h; an immediate second run adds nothing
/// (TCMT:707-721, 1251-1269). The ticks of 10:00:10 … 10:50:10 add nothing;
/// the next action, 11:00 (= nextMat), comes at the first tick with
/// 11:00 < tick + 300 s: 10:55:10, which creates the next window's 12.
#[test]
fn fact04_five_minute_job_creates_one_window_of_12() {
    let at = simulate("fact04/scenario.toml", Some("2009-03-06T10:55Z"));
    let j = job(&at, "fact04");
    assert_eq!(nominals(j), minutes_grid("2009-03-06", (10, 0), 5, 12));
    assert_eq!(created(j), times("2009-03-06T10:00:00.100Z", 12));
    let end = simulate("fact04/scenario.toml", None);
    let j = job(&end, "fact04");
    assert_eq!(nominals(j), minutes_grid("2009-03-06", (10, 0), 5, 24));
    let mut expected = times("2009-03-06T10:00:00.100Z", 12);
    expected.extend(times("2009-03-06T10:55:10Z", 12));
    assert_eq!(created(j), expected);
}

/// Fact 5: start = now, daily, throttle 10 or 20 → 1 action,
/// nextMat = start + 1 day (TCMT:691-705, 723-736). The second action (start + 1 day) is
/// created at the first tick with nextMat < tick + 300 s: 2009-03-07T09:55:10.
#[test]
fn fact05_daily_job_creates_one_action_per_run() {
    let at = simulate("fact05/scenario.toml", Some("2009-03-07T09:55Z"));
    for id in ["throttle-10", "throttle-20"] {
        let j = job(&at, id);
        assert_eq!(nominals(j), ["2009-03-06T10:00Z"], "{id}");
        assert_eq!(created(j), ["2009-03-06T10:00:00.100Z"], "{id}");
        assert_eq!(j["status"], "RUNNING", "{id}");
    }
    let end = simulate("fact05/scenario.toml", None);
    for id in ["throttle-10", "throttle-20"] {
        let j = job(&end, id);
        assert_eq!(
            nominals(j),
            ["2009-03-06T10:00Z", "2009-03-07T10:00Z"],
            "{id}"
        );
        assert_eq!(
            created(j),
            ["2009-03-06T10:00:00.100Z", "2009-03-07T09:55:10Z"],
            "{id}"
        );
    }
}

/// Fact 6: daily, start = now − 3 days, end = start + 3 days, throttle 10 →
/// the first run sets nextMat = start + 3 days: 3 actions (TCMT:674-689). The
/// catch-up run of the submission (2009-03-09T10:00:00.100) creates them all
/// and finishes materialization: no other action; the job is SUCCEEDED at the
/// status tick after the last of the three 10-minute workflows (run one at a
/// time, from 10:00:00.100): 10:30:10.
#[test]
fn fact06_catch_up_daily_creates_3_actions_in_one_run() {
    let report = simulate("fact06/scenario.toml", None);
    let j = job(&report, "fact06");
    assert_eq!(
        nominals(j),
        [
            "2009-03-06T10:00Z",
            "2009-03-07T10:00Z",
            "2009-03-08T10:00Z"
        ]
    );
    assert_eq!(created(j), times("2009-03-09T10:00:00.100Z", 3));
    assert_eq!(
        history(j),
        [
            ("2009-03-09T10:00:00Z", "PREP"),
            ("2009-03-09T10:00:00.100Z", "RUNNING"),
            ("2009-03-09T10:30:10Z", "SUCCEEDED"),
        ]
    );
}

/// Fact 7: hourly from 2009-02-01T01:00 in catch-up, throttle 10 → the first
/// run creates 10, nextMat = 2009-02-01T11:00; daily, throttle 3 → nextMat =
/// start + 3 days (TCMT:644-672). The next run (tick of 00:00:10) starts at
/// nextMat.
#[test]
fn fact07_catch_up_runs_create_throttle_actions_each() {
    let report = simulate("fact07/scenario.toml", None);
    let hourly = job(&report, "hourly");
    let all = actions(hourly);
    assert_eq!(all.len(), 20);
    assert_eq!(
        nominals(hourly),
        (0..20)
            .map(|k| format!("2009-02-01T{:02}:00Z", 1 + k))
            .collect::<Vec<_>>()
    );
    let mut expected = times("2009-03-01T00:00:00.100Z", 10);
    expected.extend(times("2009-03-01T00:00:10Z", 10));
    assert_eq!(created(hourly), expected);
    assert_eq!(action(hourly, 11)["nominal_time"], "2009-02-01T11:00Z");

    let daily = job(&report, "daily");
    assert_eq!(
        nominals(daily),
        [
            "2009-02-01T01:00Z",
            "2009-02-02T01:00Z",
            "2009-02-03T01:00Z",
            "2009-02-04T01:00Z",
            "2009-02-05T01:00Z",
            "2009-02-06T01:00Z",
        ]
    );
    let mut expected = times("2009-03-01T00:00:00.100Z", 3);
    expected.extend(times("2009-03-01T00:00:10Z", 3));
    assert_eq!(created(daily), expected);
}

/// Fact 8: the throttle counts WAITING actions only: a running job with 2
/// WAITING actions and throttle 2 is not selected by the trigger, with
/// throttle 3 it is (TCMTS:154-183); a throttled run leaves exactly `throttle`
/// WAITING actions (TCMT:560-566).
#[test]
fn fact08_throttle_counts_waiting_actions_only() {
    let report = simulate("fact08/scenario.toml", None);
    // Throttle 2: the catch-up run leaves 2 WAITING; never selected again.
    let two = job(&report, "throttle-2");
    assert_eq!(nominals(two), ["2009-03-06T00:00Z", "2009-03-06T01:00Z"]);
    assert_eq!(created(two), times("2009-03-06T12:00:00.100Z", 2));
    assert_eq!(statuses(two), ["WAITING", "WAITING"]);
    // Throttle 3: @3's input is there, so it leaves WAITING at once; with 2
    // WAITING (and @3 RUNNING) the tick of 12:00:10 selects the job, whose run
    // creates 3 − 2 = 1 action; 3 WAITING then, and no more runs.
    let three = job(&report, "throttle-3");
    assert_eq!(
        nominals(three),
        [
            "2009-03-06T00:00Z",
            "2009-03-06T01:00Z",
            "2009-03-06T02:00Z",
            "2009-03-06T03:00Z"
        ]
    );
    assert_eq!(
        created(three),
        [
            "2009-03-06T12:00:00.100Z",
            "2009-03-06T12:00:00.100Z",
            "2009-03-06T12:00:00.100Z",
            "2009-03-06T12:00:10Z"
        ]
    );
    assert_eq!(
        history(action(three, 3))[..4],
        [
            ("2009-03-06T12:00:00.100Z", "WAITING"),
            ("2009-03-06T12:00:00.100Z", "READY"),
            ("2009-03-06T12:00:00.100Z", "SUBMITTED"),
            ("2009-03-06T12:00:00.100Z", "RUNNING"),
        ]
    );
    assert_eq!(count(three, "WAITING"), 3);
    // At the tick of 12:00:10, @3 was RUNNING (a 10-minute workflow).
    let at = simulate("fact08/scenario.toml", Some("2009-03-06T12:01Z"));
    assert_eq!(
        statuses(job(&at, "throttle-3")),
        ["WAITING", "WAITING", "RUNNING", "WAITING"]
    );
}

/// Fact 9: cron `0/10 * * * *`, 2013-07-18 00:00–01:00, throttle 3, catch-up
/// → 00:00, 00:10, 00:20; nextMat 00:30, not done (TCMT:319-344). The next
/// run (tick of 02:00:10) creates from 00:30 on, the last three.
#[test]
fn fact09_cron_catch_up_is_bounded_by_the_throttle() {
    let report = simulate("fact09/scenario.toml", None);
    let j = job(&report, "fact09");
    assert_eq!(
        nominals(j),
        [
            "2013-07-18T00:00Z",
            "2013-07-18T00:10Z",
            "2013-07-18T00:20Z",
            "2013-07-18T00:30Z",
            "2013-07-18T00:40Z",
            "2013-07-18T00:50Z"
        ]
    );
    let mut expected = times("2013-07-18T02:00:00.100Z", 3);
    expected.extend(times("2013-07-18T02:00:10Z", 3));
    assert_eq!(created(j), expected);
    // Done with the second run: SUCCEEDED after the last 1-minute workflow
    // (the six run one after another from 02:00:00.100).
    assert_eq!(
        history(j),
        [
            ("2013-07-18T02:00:00Z", "PREP"),
            ("2013-07-18T02:00:00.100Z", "RUNNING"),
            ("2013-07-18T02:06:10Z", "SUCCEEDED"),
        ]
    );
}

/// Fact 10: LAST_ONLY, 10 minutes, start now − 3 h, end now + 3 h, throttle
/// 12 → one run creates 19 WAITING actions (the throttle is ignored); with
/// start = now → 6 (the window) (TCMT:1069-1092). "now" = 12:00.
#[test]
fn fact10_last_only_catch_up_ignores_the_throttle() {
    let report = simulate("fact10/scenario.toml", None);
    let past = job(&report, "start-3h-ago");
    let grid: Vec<String> = (0..19)
        .map(|k| {
            let m = 9 * 60 + 10 * k;
            format!("2009-03-06T{:02}:{:02}Z", m / 60, m % 60)
        })
        .collect();
    assert_eq!(nominals(past), grid);
    assert_eq!(created(past), times("2009-03-06T12:00:00.100Z", 19));
    for a in actions(past) {
        assert_eq!(history(a)[0], ("2009-03-06T12:00:00.100Z", "WAITING"));
    }
    let now = job(&report, "start-now");
    assert_eq!(nominals(now), minutes_grid("2009-03-06", (12, 0), 10, 6));
    assert_eq!(created(now), times("2009-03-06T12:00:00.100Z", 6));
    for a in actions(now) {
        assert_eq!(history(a)[0], ("2009-03-06T12:00:00.100Z", "WAITING"));
    }
}

/// Fact 11: LAST_ONLY, 10 minutes, start now − 65 min: @1 (nominal now − 65,
/// next now − 55) is SKIPPED by its check; @7 (now − 5, next now + 5) stays
/// WAITING; an action at now + 55 stays WAITING, not examined; with
/// end = now + 3 min @7 stays WAITING; with end = now − 60 min @1 is not skipped (its
/// next nominal is after the end) (TCAIC:839-890). "now" = 12:00; inputs never
/// arrive; the default timeout (120 min, from the creation at 12:00:00.100)
/// ends the actions never skipped.
#[test]
fn fact11_last_only_skip_test_of_the_input_check() {
    let report = simulate("fact11/scenario.toml", None);
    let long = job(&report, "end-plus-235m");
    let a1 = action(long, 1);
    assert_eq!(a1["nominal_time"], "2009-03-06T10:55Z");
    assert_eq!(
        history(a1),
        [
            ("2009-03-06T12:00:00.100Z", "WAITING"),
            ("2009-03-06T12:00:00.100Z", "SKIPPED"),
        ]
    );
    let a7 = action(long, 7);
    assert_eq!(a7["nominal_time"], "2009-03-06T11:55Z");
    // WAITING at now; skipped by the first check after its next nominal time.
    assert_eq!(
        history(a7),
        [
            ("2009-03-06T12:00:00.100Z", "WAITING"),
            ("2009-03-06T12:05:00.100Z", "SKIPPED"),
        ]
    );
    // now + 55 min (@13 on this grid): created by the tick of 12:00:10, first
    // checked at its nominal time, skipped once its next nominal (13:05) passes.
    let a13 = action(long, 13);
    assert_eq!(a13["nominal_time"], "2009-03-06T12:55Z");
    assert_eq!(
        history(a13),
        [
            ("2009-03-06T12:00:10Z", "WAITING"),
            ("2009-03-06T13:05:00Z", "SKIPPED"),
        ]
    );
    let at = simulate("fact11/scenario.toml", Some("2009-03-06T12:54Z"));
    let long_at = job(&at, "end-plus-235m");
    assert_eq!(action(long_at, 13)["status"], "WAITING");
    assert_eq!(
        history(action(long_at, 13)),
        [("2009-03-06T12:00:10Z", "WAITING")]
    );

    // End = now + 3 min: @7's next nominal (12:05) is after the end: never
    // skipped; it times out 121 minutes after its creation.
    let short = job(&report, "end-plus-3m");
    assert_eq!(actions(short).len(), 7);
    assert_eq!(
        history(action(short, 7)),
        [
            ("2009-03-06T12:00:00.100Z", "WAITING"),
            ("2009-03-06T14:01:00.100Z", "TIMEDOUT"),
        ]
    );
    // End = now − 60 min: only @1, never skipped.
    let ended = job(&report, "end-minus-60m");
    assert_eq!(nominals(ended), ["2009-03-06T10:55Z"]);
    assert_eq!(
        history(action(ended, 1)),
        [
            ("2009-03-06T12:00:00.100Z", "WAITING"),
            ("2009-03-06T14:01:00.100Z", "TIMEDOUT"),
        ]
    );
}

/// Fact 12: NONE, tolerance 1 min: actions at now − 60, now − 5, now − 2 are
/// SKIPPED at their check; one at now + 60 stays WAITING (TCAIC:892-929).
/// "now" = 12:00; inputs never arrive.
#[test]
fn fact12_none_skips_actions_more_than_the_tolerance_late() {
    let report = simulate("fact12/scenario.toml", None);
    let j = job(&report, "start-60m-ago");
    // The catch-up run creates 11:00 … 12:00; its checks skip 11:00 … 11:55.
    for n in 1..=12 {
        let a = action(j, n);
        assert_eq!(
            history(a),
            [
                ("2009-03-06T12:00:00.100Z", "WAITING"),
                ("2009-03-06T12:00:00.100Z", "SKIPPED"),
            ],
            "@{n}"
        );
    }
    assert_eq!(action(j, 1)["nominal_time"], "2009-03-06T11:00Z");
    assert_eq!(action(j, 12)["nominal_time"], "2009-03-06T11:55Z");
    // 12:00 itself: not late at 12:00:00.100, skipped by the check a minute later.
    assert_eq!(
        history(action(j, 13)),
        [
            ("2009-03-06T12:00:00.100Z", "WAITING"),
            ("2009-03-06T12:01:00.100Z", "SKIPPED"),
        ]
    );
    // now + 60: WAITING through its first check (13:00), skipped at 13:01.
    let a25 = action(j, 25);
    assert_eq!(a25["nominal_time"], "2009-03-06T13:00Z");
    assert_eq!(
        history(a25),
        [
            ("2009-03-06T12:55:10Z", "WAITING"),
            ("2009-03-06T13:01:00Z", "SKIPPED"),
        ]
    );
    let at = simulate("fact12/scenario.toml", Some("2009-03-06T13:00Z"));
    assert_eq!(action(job(&at, "start-60m-ago"), 25)["status"], "WAITING");
    // now − 2 min.
    let b = job(&report, "start-2m-ago");
    let b1 = action(b, 1);
    assert_eq!(b1["nominal_time"], "2009-03-06T11:58Z");
    assert_eq!(
        history(b1),
        [
            ("2009-03-06T12:00:00.100Z", "WAITING"),
            ("2009-03-06T12:00:00.100Z", "SKIPPED"),
        ]
    );
}

/// The state fact 13 and 14 reach at "now" (12:00): @1 RUNNING, @2 and @3
/// SKIPPED, @4 READY, @5 (and the later ones) WAITING.
fn assert_ready_check_skips(fact: &str) {
    let at = simulate(&format!("{fact}/scenario.toml"), Some("2009-03-06T12:00Z"));
    let j = job(&at, fact);
    assert_eq!(
        nominals(j),
        minutes_grid("2009-03-06", (11, 44), 5, 8),
        "{fact}"
    );
    assert_eq!(
        statuses(j),
        [
            "RUNNING", "SKIPPED", "SKIPPED", "READY", "WAITING", "WAITING", "WAITING", "WAITING"
        ],
        "{fact}"
    );
    // @2 skipped by @3's ready-check (11:54), @3 by @4's (11:59).
    assert_eq!(
        history(action(j, 2)),
        [
            ("2009-03-06T11:40:10Z", "WAITING"),
            ("2009-03-06T11:49:00Z", "READY"),
            ("2009-03-06T11:54:00Z", "SKIPPED"),
        ],
        "{fact}"
    );
    assert_eq!(
        history(action(j, 3)),
        [
            ("2009-03-06T11:40:10Z", "WAITING"),
            ("2009-03-06T11:54:00Z", "READY"),
            ("2009-03-06T11:59:00Z", "SKIPPED"),
        ],
        "{fact}"
    );
    assert_eq!(
        history(action(j, 4)),
        [
            ("2009-03-06T11:40:10Z", "WAITING"),
            ("2009-03-06T11:59:00Z", "READY"),
        ],
        "{fact}"
    );
    assert_eq!(action(j, 1)["workflow"]["started"], "2009-03-06T11:44:00Z");
}

/// Fact 13: LAST_ONLY, 5 minutes, concurrency 1: @1 RUNNING (now − 16), @2,
/// @3, @4 READY (now − 11, − 6, − 1), @5 WAITING (now + 4) → after the
/// ready-check @2, @3 SKIPPED, @4 stays READY, @5 WAITING (TCARX:51-100).
#[test]
fn fact13_last_only_ready_check_skips_ready_actions() {
    assert_ready_check_skips("fact13");
}

/// Fact 14: the same with NONE and tolerance 5: @2 (11 min late) and @3 (6
/// late) SKIPPED, @4 (1 late) READY (TCARX:56-60, 62-100). @4 is skipped by
/// the next ready-check more than 5 minutes after its nominal time: @5's, at
/// 12:04.
#[test]
fn fact14_none_ready_check_skips_actions_past_the_tolerance() {
    assert_ready_check_skips("fact14");
    let report = simulate("fact14/scenario.toml", None);
    assert_eq!(
        history(action(job(&report, "fact14"), 4)),
        [
            ("2009-03-06T11:40:10Z", "WAITING"),
            ("2009-03-06T11:59:00Z", "READY"),
            ("2009-03-06T12:04:00Z", "SKIPPED"),
        ]
    );
}

/// Fact 15: LAST_ONLY hourly, start 00:00, end 03:00, submitted at 05:00 with
/// all data present → 00:00, 01:00, 02:00 all SKIPPED (02:00's next nominal
/// 03:00 = end is not "after the end"), job SUCCEEDED (CCU:908-911,
/// CAIC:116-133, CSTX:140-143).
#[test]
fn fact15_last_only_skips_even_the_last_action_when_the_end_is_on_the_grid() {
    let report = simulate("fact15/scenario.toml", None);
    let j = job(&report, "fact15");
    assert_eq!(
        nominals(j),
        [
            "2009-03-06T00:00Z",
            "2009-03-06T01:00Z",
            "2009-03-06T02:00Z"
        ]
    );
    for a in actions(j) {
        assert_eq!(
            history(a),
            [
                ("2009-03-06T05:00:00.100Z", "WAITING"),
                ("2009-03-06T05:00:00.100Z", "SKIPPED"),
            ]
        );
        assert!(a["workflow"].is_null());
    }
    assert_eq!(
        history(j),
        [
            ("2009-03-06T05:00:00Z", "PREP"),
            ("2009-03-06T05:00:00.100Z", "RUNNING"),
            ("2009-03-06T05:00:10Z", "SUCCEEDED"),
        ]
    );
}

/// Fact 16: the spec's LAST_ONLY example, corrected: start 16:30, 20 minutes,
/// concurrency 1; @1 RUNNING until 17:20; @2 (16:50) READY since 16:50; @3
/// (17:10) with its data → at 17:10 its check makes it READY, the ready-check
/// skips @2 and keeps @3; at 17:20 @1 ends and @3 starts. Had @1 run past
/// 17:30, @3 would be SKIPPED then (CAIC:98-109, 460; CARX:111, 119-143,
/// 167-191).
#[test]
fn fact16_spec_last_only_example_as_oozie_runs_it() {
    let report = simulate("fact16/scenario.toml", None);
    let a = job(&report, "first-ends-1720");
    assert_eq!(a["actions"][0]["workflow"]["ended"], "2009-03-06T17:20:00Z");
    assert_eq!(
        history(action(a, 2)),
        [
            ("2009-03-06T16:25:10Z", "WAITING"),
            ("2009-03-06T16:50:00Z", "READY"),
            ("2009-03-06T17:10:00Z", "SKIPPED"),
        ]
    );
    assert_eq!(
        history(action(a, 3))[..4],
        [
            ("2009-03-06T16:25:10Z", "WAITING"),
            ("2009-03-06T17:10:00Z", "READY"),
            ("2009-03-06T17:20:00Z", "SUBMITTED"),
            ("2009-03-06T17:20:00Z", "RUNNING"),
        ]
    );
    assert_eq!(action(a, 3)["workflow"]["started"], "2009-03-06T17:20:00Z");

    let b = job(&report, "first-ends-1740");
    assert_eq!(b["actions"][0]["workflow"]["ended"], "2009-03-06T17:40:00Z");
    assert_eq!(action(b, 2)["status"], "SKIPPED");
    assert_eq!(
        history(action(b, 3)),
        [
            ("2009-03-06T16:25:10Z", "WAITING"),
            ("2009-03-06T17:10:00Z", "READY"),
            ("2009-03-06T17:30:00Z", "SKIPPED"),
        ]
    );
    assert!(action(b, 3)["workflow"].is_null());
    assert_eq!(action(b, 4)["workflow"]["started"], "2009-03-06T17:40:00Z");
}

/// Fact 17: timeout 10, data missing, created 12 min before the check →
/// TIMEDOUT, missing list unchanged (TCAIC:782-794); latest unresolved and
/// created long enough before → TIMEDOUT (TCAIC:796-811). The scenario's
/// checks are 12 minutes apart: the one after the first is 12 minutes after
/// the creation (10:00:00.100).
#[test]
fn fact17_timeout_counts_from_the_creation_of_a_late_action() {
    let at = simulate("fact17/scenario.toml", Some("2009-03-06T10:11Z"));
    for id in ["missing", "latest"] {
        assert_eq!(statuses(job(&at, id)), ["WAITING"], "{id}");
    }
    let report = simulate("fact17/scenario.toml", None);
    for id in ["missing", "latest"] {
        let j = job(&report, id);
        assert_eq!(created(j), ["2009-03-06T10:00:00.100Z"], "{id}");
        assert_eq!(
            history(action(j, 1)),
            [
                ("2009-03-06T10:00:00.100Z", "WAITING"),
                ("2009-03-06T10:12:00.100Z", "TIMEDOUT"),
            ],
            "{id}"
        );
    }
    let missing = action(job(&report, "missing"), 1);
    assert_eq!(
        missing["missing"],
        serde_json::json!(["hdfs://nn:8020/dirx/20090306"])
    );
    let latest = action(job(&report, "latest"), 1);
    assert_eq!(latest["inputs"]["input"], serde_json::json!([]));
}

/// Fact 18: default timeout, normal-mode action, nominal 10:00, data never
/// arrives → TIMEDOUT at the first check ≥ 12:01 (waited 121 > 120)
/// (CAIC:269-275, CSX:757).
#[test]
fn fact18_default_timeout_is_121_minutes_after_the_nominal_time() {
    let at = simulate("fact18/scenario.toml", Some("2009-03-06T12:00Z"));
    assert_eq!(statuses(job(&at, "fact18")), ["WAITING"]);
    let report = simulate("fact18/scenario.toml", None);
    let j = job(&report, "fact18");
    assert_eq!(created(j), ["2009-03-06T09:55:10Z"]);
    assert_eq!(
        history(action(j, 1)),
        [
            ("2009-03-06T09:55:10Z", "WAITING"),
            ("2009-03-06T12:01:00Z", "TIMEDOUT"),
        ]
    );
}

/// Fact 19: `<timeout>0</timeout>`, nominal 10:00, data missing → still
/// WAITING after the 10:00 check, TIMEDOUT at the 10:01 check; data present
/// at 10:00 → READY (CAIC:193-215, 269-275).
#[test]
fn fact19_timeout_zero_times_out_a_minute_after_the_nominal_time() {
    let at = simulate("fact19/scenario.toml", Some("2009-03-06T10:00Z"));
    assert_eq!(statuses(job(&at, "data-missing")), ["WAITING"]);
    let report = simulate("fact19/scenario.toml", None);
    assert_eq!(
        history(action(job(&report, "data-missing"), 1)),
        [
            ("2009-03-06T09:55:10Z", "WAITING"),
            ("2009-03-06T10:01:00Z", "TIMEDOUT"),
        ]
    );
    assert_eq!(
        history(action(job(&report, "data-present"), 1))[..4],
        [
            ("2009-03-06T09:55:10Z", "WAITING"),
            ("2009-03-06T10:00:00Z", "READY"),
            ("2009-03-06T10:00:00Z", "SUBMITTED"),
            ("2009-03-06T10:00:00Z", "RUNNING"),
        ]
    );
}

/// Fact 20: a catch-up action, nominal 02:00, created at 10:30 with timeout 10
/// → TIMEDOUT at the first check ≥ 10:41, not immediately (the base is the
/// creation) (CAIC:269-275).
#[test]
fn fact20_catch_up_action_times_out_from_its_creation() {
    let report = simulate("fact20/scenario.toml", None);
    let j = job(&report, "fact20");
    assert_eq!(nominals(j), ["2009-03-06T02:00Z"]);
    assert_eq!(created(j), ["2009-03-06T10:30:00.100Z"]);
    assert_eq!(
        history(action(j, 1)),
        [
            ("2009-03-06T10:30:00.100Z", "WAITING"),
            ("2009-03-06T10:41:00.100Z", "TIMEDOUT"),
        ]
    );
}
