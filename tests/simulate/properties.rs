//! Properties of `coordc simulate` over random scenarios.
//!
//! A seeded generator (xorshift, no crate) writes a coordinator with random
//! frequency (EL or cron) and controls, reading random ranges of an hourly
//! and/or a 5-minute dataset (current, latest or future instances, sometimes
//! input logic, sometimes the previous action's output), and a scenario with
//! data arriving late or never, workflows of random length and end, user ops
//! (suspend/resume, kills, `-change` of concurrency, end and pause time and
//! status, reruns, ignores), sometimes other server settings, a later
//! submission or an outage. Each is run with `--format events` and
//! `--format json`, and the events are replayed to check:
//!
//! * every action transition is one of Oozie's (docs/simulate.md, "Action
//!   statuses", copied below), creation being `null → WAITING`;
//! * no more than `concurrency` actions are RUNNING or SUBMITTED at any time
//!   (when it is ≥ 0; a `-change concurrency=` counts from its time on);
//! * after every materialization no more actions are WAITING than the
//!   throttle (FIFO/LIFO; LAST_ONLY/NONE ignore it in catch-up, CMT:460-472);
//! * the actions are numbered 1..n, their nominal times distinct, and equal
//!   the first n of `coordc dryrun`'s;
//! * actions `-change` deletes are WAITING or READY, and the last ones;
//! * the events end in the statuses the JSON report shows;
//! * at the end nothing has stalled for longer than the checks, the
//!   RecoveryService and the StatusTransitService take: no WAITING action
//!   whose inputs all arrived or whose timeout or skip time passed, no READY
//!   action with a free slot, no open job whose actions all ended once its
//!   materialization is done;
//! * the same scenario twice gives the same bytes.
//!
//! The generator steers clear of the engine bugs it found (the ignored tests
//! at the end reproduce each), so that these checks keep guarding the rest.
//!
//! A failing case prints its seed and keeps its folder. Environment:
//! `COORDC_SIM_CASES=N` runs N cases (from seed `COORDC_SIM_FIRST`, 1),
//! `COORDC_SIM_SEED=S` only seed S.

use crate::common;

use common::rng::Rng;
use common::simulate::{instant, nominals, oozie, text};

use chrono::{DateTime, Duration, NaiveDateTime, Utc};
use serde_json::Value;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

const CASES: u64 = 150;
const FIRST_SEED: u64 = 1;

/// docs/simulate.md, "Action statuses": (from, to), `None` for creation.
const TRANSITIONS: &[(Option<&str>, &str)] = &[
    // (none) → WAITING: materialization.
    (None, "WAITING"),
    // Input check: inputs found; EL error; LAST_ONLY/NONE; timeout.
    (Some("WAITING"), "READY"),
    (Some("WAITING"), "FAILED"),
    (Some("WAITING"), "SKIPPED"),
    (Some("WAITING"), "TIMEDOUT"),
    // Ready-check: LAST_ONLY/NONE; started under concurrency.
    (Some("READY"), "SKIPPED"),
    (Some("READY"), "SUBMITTED"),
    (Some("SUBMITTED"), "RUNNING"),
    // Workflow submission fails.
    (Some("SUBMITTED"), "FAILED"),
    // Suspend / resume.
    (Some("RUNNING"), "SUSPENDED"),
    (Some("SUSPENDED"), "RUNNING"),
    // The workflow ends.
    (Some("RUNNING"), "SUCCEEDED"),
    (Some("RUNNING"), "FAILED"),
    (Some("RUNNING"), "KILLED"),
    // Job kill (also SKIPPED, CAB:176-179) and action kill.
    (Some("WAITING"), "KILLED"),
    (Some("READY"), "KILLED"),
    (Some("SUBMITTED"), "KILLED"),
    (Some("SUSPENDED"), "KILLED"),
    (Some("SKIPPED"), "KILLED"),
    // -ignore.
    (Some("FAILED"), "IGNORED"),
    (Some("KILLED"), "IGNORED"),
    (Some("TIMEDOUT"), "IGNORED"),
    // Rerun: any terminal status.
    (Some("TIMEDOUT"), "WAITING"),
    (Some("SUCCEEDED"), "WAITING"),
    (Some("KILLED"), "WAITING"),
    (Some("FAILED"), "WAITING"),
    (Some("IGNORED"), "WAITING"),
    (Some("SKIPPED"), "WAITING"),
];

// ---------------------------------------------------------------------------
// The generator.

fn minutes(n: i64) -> Duration {
    Duration::minutes(n)
}

/// The scenario's server start; datasets begin two days before.
const SERVER_START: &str = "2010-01-04T00:00Z";
const INITIAL_INSTANCE: &str = "2010-01-02T00:00Z";

#[derive(Clone, Copy, PartialEq)]
enum Execution {
    Fifo,
    Lifo,
    LastOnly,
    None,
}

impl Execution {
    fn name(self) -> &'static str {
        match self {
            Execution::Fifo => "FIFO",
            Execution::Lifo => "LIFO",
            Execution::LastOnly => "LAST_ONLY",
            Execution::None => "NONE",
        }
    }
}

/// A generated case: its files and what the checks need to know.
struct Case {
    seed: u64,
    xml: String,
    toml: String,
    concurrency: i64,
    throttle: i64,
    execution: Execution,
    start: DateTime<Utc>,
    end: DateTime<Utc>,
    /// The latest end any `-change` asks for (the dry run's end).
    max_end: DateTime<Utc>,
    timeout: i64,
    until: DateTime<Utc>,
    outage: Option<(DateTime<Utc>, DateTime<Utc>)>,
    /// The `[[data]]` of each dataset read.
    data: Vec<DataSpec>,
    settings: Settings,
    /// Every input is a current() instance of the `[[data]]` ranges (no
    /// latest, future or input logic): the checks can tell when an action
    /// must be READY.
    inputs_known: bool,
    /// Succeeded workflows write their data-out instances.
    outputs: bool,
}

/// A dataset's `[[data]]` range, from a day before the server starts to
/// `until`: instances late by `delay`, the `missing` ones never, unless a
/// `uri` entry says when.
struct DataSpec {
    name: &'static str,
    delay: Duration,
    missing: Vec<DateTime<Utc>>,
    late: Vec<(DateTime<Utc>, DateTime<Utc>)>,
}

/// A dataset: name, frequency in minutes.
const DATASETS: [(&str, i64); 2] = [("h", 60), ("f", 5)];

/// The instance of a dataset of `freq` minutes at or before `t`.
fn on_grid(t: DateTime<Utc>, freq: i64) -> DateTime<Utc> {
    let origin = instant(INITIAL_INSTANCE);
    let k = (t - origin).num_minutes().div_euclid(freq);
    origin + minutes(k * freq)
}

fn uri(dataset: &str, t: DateTime<Utc>) -> String {
    format!("hdfs://nn/{dataset}/{}", t.format("%Y/%m/%d/%H/%M"))
}

fn generate(seed: u64) -> Case {
    generate_with(seed, true)
}

/// A case; with `avoid_known_bugs`, none that walks into an engine bug this
/// file reports separately (see the ignored tests at its end).
fn generate_with(seed: u64, avoid_known_bugs: bool) -> Case {
    let mut r = Rng::new(seed);
    let server = instant(SERVER_START);
    let freq = r.pick(&[5i64, 10, 15, 20, 30, 60, 120, 180, 360, 720, 1440]);
    let freq_el = if freq % 1440 == 0 {
        format!("${{coord:days({})}}", freq / 1440)
    } else if freq % 60 == 0 {
        format!("${{coord:hours({})}}", freq / 60)
    } else {
        format!("${{coord:minutes({freq})}}")
    };
    // Sometimes the same schedule as a cron expression.
    let cron = r.chance(20);
    let frequency = if !cron {
        freq_el.clone()
    } else if freq < 60 {
        format!("*/{freq} * * * *")
    } else if freq < 1440 {
        format!("0 */{} * * *", freq / 60)
    } else {
        "0 0 * * *".to_string()
    };
    // From 3 hours before the server starts (catch-up) to 2 hours after.
    let start = server + minutes(r.range(-36, 24) * 5);
    let most = (4 * 1440 / freq).clamp(2, 36);
    let n = r.range(2, most);
    let mut end = start + minutes(n * freq);
    if r.chance(30) {
        end += minutes(r.range(1, freq - 1));
    }
    let until = end.max(server) + minutes(r.range(30, 360));
    let concurrency = r.range(-1, 4);
    let throttle = r.range(1, 20);
    let timeout = if r.chance(15) {
        -1
    } else if r.chance(10) {
        0
    } else {
        r.range(1, 300)
    };
    let execution = r.pick(&[
        Execution::Fifo,
        Execution::Lifo,
        Execution::LastOnly,
        Execution::None,
    ]);

    // Data-ins: none, one or two, each a current(-k)..current(0) range, or
    // sometimes latest or future instances.
    let mut data_ins = String::new();
    let mut used: Vec<(&'static str, i64, i64)> = Vec::new();
    let mut run_time_instances = false;
    let count = r.pick(&[0, 1, 1, 1, 2]);
    for (d, both) in DATASETS.iter().enumerate().take(count) {
        let (name, dfreq) = if count == 2 { *both } else { r.pick(&DATASETS) };
        let k = r.range(0, 3);
        let instances = match r.range(0, 9) {
            0 => {
                run_time_instances = true;
                format!(
                    "<start-instance>${{coord:latest(-{k})}}</start-instance><end-instance>${{coord:latest(0)}}</end-instance>"
                )
            }
            1 => {
                run_time_instances = true;
                format!("<instance>${{coord:future({k}, 4)}}</instance>")
            }
            _ if k == 0 && r.chance(50) => "<instance>${coord:current(0)}</instance>".to_string(),
            _ => format!(
                "<start-instance>${{coord:current(-{k})}}</start-instance><end-instance>${{coord:current(0)}}</end-instance>"
            ),
        };
        let _ = writeln!(
            data_ins,
            r#"    <data-in name="in{d}" dataset="{name}">{instances}</data-in>"#
        );
        used.push((name, dfreq, k));
    }
    // With two data-ins, sometimes input logic over them.
    let logic = (count == 2 && r.chance(40)).then(|| {
        let (a, b) = (r.pick(&["", " min=\"1\""]), r.pick(&["", " min=\"2\""]));
        match r.range(0, 3) {
            0 => format!(
                "  <input-logic>\n    <or name=\"either\"><data-in dataset=\"in0\"{a}/><data-in dataset=\"in1\"{b}/></or>\n  </input-logic>\n"
            ),
            1 => format!(
                "  <input-logic>\n    <and name=\"both\"><data-in dataset=\"in0\"{a}/><data-in dataset=\"in1\"{b}/></and>\n  </input-logic>\n"
            ),
            2 => format!(
                "  <input-logic>\n    <or name=\"waited\" wait=\"{}\"><data-in dataset=\"in0\"/><data-in dataset=\"in1\"/></or>\n  </input-logic>\n",
                r.range(1, 60)
            ),
            _ => format!(
                "  <input-logic>\n    <or name=\"nested\"><and><data-in dataset=\"in0\"/><data-in dataset=\"in1\"/></and><data-in dataset=\"in1\" min=\"{}\"/></or>\n  </input-logic>\n",
                r.range(0, 2)
            ),
        }
    });
    // Sometimes each action also reads what the previous one wrote.
    let chained = r.chance(25);
    let mut data_outs = String::new();
    if chained {
        let _ = writeln!(
            data_ins,
            r#"    <data-in name="previous" dataset="o"><instance>${{coord:current(-1)}}</instance></data-in>"#
        );
        let _ = writeln!(
            data_outs,
            r#"    <data-out name="output" dataset="o"><instance>${{coord:current(0)}}</instance></data-out>"#
        );
    }
    let mut datasets = String::new();
    if chained {
        let _ = writeln!(
            datasets,
            r#"    <dataset name="o" frequency="{freq_el}" initial-instance="{}" timezone="UTC">
      <uri-template>hdfs://nn/o/${{YEAR}}/${{MONTH}}/${{DAY}}/${{HOUR}}/${{MINUTE}}</uri-template>
    </dataset>"#,
            oozie(start)
        );
    }
    for (name, dfreq, _) in &used {
        let _ = writeln!(
            datasets,
            r#"    <dataset name="{name}" frequency="${{coord:minutes({dfreq})}}" initial-instance="{INITIAL_INSTANCE}" timezone="UTC">
      <uri-template>hdfs://nn/{name}/${{YEAR}}/${{MONTH}}/${{DAY}}/${{HOUR}}/${{MINUTE}}</uri-template>
    </dataset>"#
        );
    }
    let xml = format!(
        r#"<!-- simulate_properties seed {seed} -->
<coordinator-app name="sim" frequency="{frequency}" start="${{jobStart}}" end="${{jobEnd}}"
                 timezone="UTC" xmlns="uri:oozie:coordinator:0.5">
  <controls>
    <timeout>{timeout}</timeout>
    <concurrency>{concurrency}</concurrency>
    <execution>{}</execution>
    <throttle>{throttle}</throttle>
  </controls>
{}{}{}{}  <action>
    <workflow>
      <app-path>hdfs://nn/apps/wf</app-path>
    </workflow>
  </action>
</coordinator-app>
"#,
        execution.name(),
        if datasets.is_empty() {
            String::new()
        } else {
            format!("  <datasets>\n{datasets}  </datasets>\n")
        },
        if data_ins.is_empty() {
            String::new()
        } else {
            format!("  <input-events>\n{data_ins}  </input-events>\n")
        },
        logic.clone().unwrap_or_default(),
        if data_outs.is_empty() {
            String::new()
        } else {
            format!("  <output-events>\n{data_outs}  </output-events>\n")
        },
    );

    let mut toml = format!(
        "# simulate_properties seed {seed}\nstart = \"{}\"\nuntil = \"{}\"\n\n[[job]]\nid = \"sim\"\napp = \"coordinator.xml\"\nproperties = {{ jobStart = \"{}\", jobEnd = \"{}\" }}\n",
        oozie(server),
        oozie(until),
        oozie(start),
        oozie(end)
    );
    // Sometimes submitted after the server starts.
    let submit = if r.chance(30) {
        let t = server + minutes(r.range(1, 180));
        let _ = writeln!(toml, "submit = \"{}\"", oozie(t));
        t
    } else {
        server
    };

    // Sometimes other server settings.
    let mut settings = Settings::default();
    if r.chance(40) {
        toml.push_str("\n[server]\n");
        let mut set = |r: &mut Rng, name: &str, values: &[i64]| -> Option<i64> {
            r.chance(40).then(|| {
                let v = r.pick(values);
                let _ = writeln!(toml, "\"{name}\" = {v}");
                v
            })
        };
        const MAT: &str = "oozie.service.CoordMaterializeTriggerService";
        if let Some(v) = set(&mut r, &format!("{MAT}.lookup.interval"), &[60, 300, 600]) {
            settings.lookup = v;
        }
        set(
            &mut r,
            &format!("{MAT}.scheduling.interval"),
            &[60, 300, 900],
        );
        if let Some(v) = set(
            &mut r,
            &format!("{MAT}.materialization.window"),
            &[600, 3600, 7200],
        ) {
            settings.window = v;
        }
        set(&mut r, &format!("{MAT}.action.batch.size"), &[-1, 3, 10000]);
        if let Some(v) = set(
            &mut r,
            "oozie.service.coord.input.check.requeue.interval",
            &[30_000, 60_000, 120_000],
        ) {
            settings.check_interval = v / 1000;
        }
        if let Some(v) = set(
            &mut r,
            "oozie.service.coord.input.check.requeue.interval.additional.delay",
            &[0, 30, 90],
        ) {
            settings.additional_delay = v;
        }
        if let Some(v) = set(&mut r, "oozie.coord.execution.none.tolerance", &[0, 1, 5]) {
            settings.none_tolerance = v;
        }
        if let Some(v) = set(
            &mut r,
            "oozie.service.RecoveryService.interval",
            &[30, 60, 120],
        ) {
            settings.recovery_interval = v;
        }
        if let Some(v) = set(
            &mut r,
            "oozie.service.RecoveryService.coord.older.than",
            &[120, 600],
        ) {
            settings.recovery_older_than = v;
        }
        if let Some(v) = set(
            &mut r,
            "oozie.service.StatusTransitService.statusTransit.interval",
            &[30, 60, 120],
        ) {
            settings.status_interval = v;
        }
        set(
            &mut r,
            "oozie.service.PauseTransitService.PauseTransit.interval",
            &[60, 120],
        );
        if r.chance(30) {
            toml.push_str(
                "\"oozie.service.StatusTransitService.backward.support.for.states.without.error\" = false\n",
            );
        }
        if r.chance(20) {
            toml.push_str("\"oozie.service.ELService.latest-el.use-current-time\" = true\n");
        }
    }

    // Data: each dataset's instances from a day before the server starts,
    // late by a random delay, some never; some of those later by `uri`.
    let mut data = Vec::new();
    for (name, dfreq, k) in &used {
        if data.iter().any(|d: &DataSpec| d.name == *name) {
            continue;
        }
        let (delay, delay_text) = r.pick(&[
            (Duration::zero(), "0m"),
            (Duration::seconds(30), "30s"),
            (minutes(2), "2m"),
            (minutes(10), "10m"),
            (minutes(45), "45m"),
            (minutes(120), "2h"),
        ]);
        let mut missing = Vec::new();
        for _ in 0..r.range(0, 3) {
            let span = (end - start).num_minutes() + k * dfreq;
            let t = on_grid(
                start - minutes(k * dfreq) + minutes(r.range(0, span.max(1))),
                *dfreq,
            );
            if !missing.contains(&t) {
                missing.push(t);
            }
        }
        let _ = write!(
            toml,
            "\n[[data]]\njob = \"sim\"\ndataset = \"{name}\"\nfrom = \"{}\"\nto = \"{}\"\ndelay = \"{delay_text}\"\nmissing = [{}]\n",
            oozie(server - Duration::days(1)),
            oozie(until),
            missing
                .iter()
                .map(|t| format!("\"{}\"", oozie(*t)))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let mut late = Vec::new();
        for &t in &missing {
            if r.chance(40) {
                let at = t + minutes(r.range(1, 300));
                let _ = write!(
                    toml,
                    "\n[[data]]\nuri = \"{}\"\nat = \"{}\"\n",
                    uri(name, t),
                    oozie(at)
                );
                late.push((t, at));
            }
        }
        data.push(DataSpec {
            name,
            delay,
            missing,
            late,
        });
    }

    // Workflows.
    let status = |r: &mut Rng| {
        if r.chance(75) {
            "SUCCEEDED"
        } else {
            r.pick(&["FAILED", "KILLED"])
        }
    };
    let outputs = !r.chance(10);
    let _ = write!(
        toml,
        "\n[workflows]\nstatus = \"{}\"\nduration = \"{}m\"\n{}",
        status(&mut r),
        r.range(1, 180),
        if outputs { "" } else { "outputs = false\n" }
    );
    for _ in 0..r.range(0, 3) {
        let k = r.range(1, n);
        let which = if r.chance(30) {
            format!("nominal = \"{}\"", oozie(start + minutes((k - 1) * freq)))
        } else {
            format!("action = {k}")
        };
        let _ = write!(
            toml,
            "\n[[workflow]]\njob = \"sim\"\n{which}\nstatus = \"{}\"\nduration = \"{}m\"\n",
            status(&mut r),
            r.range(1, 300)
        );
    }

    // Sometimes an outage.
    let total = (until - server).num_minutes();
    let outage = r.chance(25).then(|| {
        let from = server + minutes(r.range(10, total - 10));
        (from, from + minutes(r.range(5, 120)))
    });
    // Engine bug 5: an outage's end wakes the trigger, which materializes a
    // job not submitted yet.
    let outage = outage.filter(|(from, _)| !avoid_known_bugs || *from > submit);
    if let Some((from, to)) = outage {
        let _ = write!(
            toml,
            "\n[[outage]]\nfrom = \"{}\"\nto = \"{}\"\n",
            oozie(from),
            oozie(to)
        );
    }

    // Ops, at distinct minutes outside the outage.
    let mut taken: Vec<DateTime<Utc>> = Vec::new();
    let mut free_time = |r: &mut Rng, lo: DateTime<Utc>| -> Option<DateTime<Utc>> {
        for _ in 0..20 {
            let room = (until - lo).num_minutes() - 1;
            if room < 1 {
                return None;
            }
            let t = lo + minutes(r.range(1, room));
            let in_outage = outage.is_some_and(|(f, e)| f <= t && t < e);
            if !in_outage && !taken.contains(&t) {
                taken.push(t);
                return Some(t);
            }
        }
        None
    };
    let mut ops: Vec<(DateTime<Utc>, String)> = Vec::new();
    let mut max_end = end;
    let actions = |r: &mut Rng| {
        let a = r.range(1, n);
        if r.chance(50) {
            a.to_string()
        } else {
            format!("{a}-{}", r.range(a, n))
        }
    };
    // Engine bug 4: an op before the job's submission is applied to it.
    let first_op = if avoid_known_bugs { submit } else { server };
    for _ in 0..r.range(0, 6) {
        let Some(at) = free_time(&mut r, first_op) else {
            break;
        };
        let body = match r.range(0, 10) {
            0 | 1 => {
                if let Some(back) = free_time(&mut r, at) {
                    ops.push((back, "do = \"resume\"\n".into()));
                }
                "do = \"suspend\"\n".to_string()
            }
            2 => format!("do = \"kill\"\nactions = \"{}\"\n", actions(&mut r)),
            3 => format!(
                "do = \"change\"\nvalue = \"concurrency={}\"\n",
                r.range(-1, 4)
            ),
            // Engine bug 1: an action -change deletes while it waits for
            // another's output makes that output's arrival panic.
            4 | 5 if avoid_known_bugs && chained => format!(
                "do = \"change\"\nvalue = \"concurrency={}\"\n",
                r.range(-1, 4)
            ),
            4 => {
                let mut e = start + minutes(r.range(1, n + 3) * freq);
                if r.chance(30) {
                    e -= minutes(r.range(1, freq - 1));
                }
                max_end = max_end.max(e);
                let also = if r.chance(30) {
                    format!(";concurrency={}", r.range(0, 3))
                } else {
                    String::new()
                };
                format!("do = \"change\"\nvalue = \"endtime={}{also}\"\n", oozie(e))
            }
            5 => {
                if r.chance(25) {
                    "do = \"change\"\nvalue = \"pausetime=\"\n".to_string()
                } else {
                    let p = start + minutes(r.range(1, n + 2) * freq);
                    format!("do = \"change\"\nvalue = \"pausetime={}\"\n", oozie(p))
                }
            }
            6 | 7 => format!("do = \"rerun\"\nactions = \"{}\"\n", actions(&mut r)),
            8 => format!("do = \"ignore\"\nactions = \"{}\"\n", actions(&mut r)),
            // Engine bugs 2 and 3: `status=RUNNING` neither reopens the
            // materialization nor lets the status be computed again.
            9 if r.chance(30) => format!(
                "do = \"change\"\nvalue = \"status={}\"\n",
                if avoid_known_bugs {
                    "IGNORED"
                } else {
                    r.pick(&["RUNNING", "IGNORED"])
                }
            ),
            _ => {
                if r.chance(30) {
                    "do = \"kill\"\n".to_string()
                } else {
                    format!("do = \"rerun\"\nactions = \"{}\"\n", actions(&mut r))
                }
            }
        };
        ops.push((at, body));
    }
    ops.sort_by_key(|(at, _)| *at);
    for (at, body) in &ops {
        let _ = write!(
            toml,
            "\n[[op]]\nat = \"{}\"\njob = \"sim\"\n{body}",
            oozie(*at)
        );
    }
    Case {
        seed,
        xml,
        toml,
        concurrency,
        throttle,
        execution,
        start,
        end,
        max_end,
        timeout,
        until,
        outage,
        data,
        settings,
        inputs_known: !run_time_instances && logic.is_none(),
        outputs,
    }
}

/// The server settings the checks depend on, in seconds (minutes for the
/// tolerance).
struct Settings {
    lookup: i64,
    window: i64,
    check_interval: i64,
    additional_delay: i64,
    none_tolerance: i64,
    recovery_interval: i64,
    recovery_older_than: i64,
    status_interval: i64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            lookup: 300,
            window: 3600,
            check_interval: 60,
            additional_delay: 0,
            none_tolerance: 1,
            recovery_interval: 60,
            recovery_older_than: 600,
            status_interval: 60,
        }
    }
}

impl Settings {
    /// Time enough for a WAITING action's check, a lost one's recovery and a
    /// status transit to have run.
    fn margin(&self) -> Duration {
        Duration::seconds(
            self.recovery_older_than
                + self.recovery_interval
                + 2 * (self.check_interval + self.additional_delay)
                + self.status_interval
                + 120,
        )
    }
}

// ---------------------------------------------------------------------------
// The checks.

/// One line of `--format events`.
struct Event {
    at: DateTime<Utc>,
    action: Option<u64>,
    from: Option<String>,
    to: String,
    why: String,
}

/// One op of the JSON report, as it affects the checks.
struct OpDone {
    at: DateTime<Utc>,
    concurrency: Option<i64>,
    end: Option<DateTime<Utc>>,
    deleted: Vec<u64>,
}

fn ops_done(job: &Value) -> Result<Vec<OpDone>, String> {
    let mut out = Vec::new();
    for op in job["ops"].as_array().ok_or("no ops")? {
        if !op["refused"].is_null() {
            continue;
        }
        let what = text(&op["op"]);
        let mut done = OpDone {
            at: instant(text(&op["at"])),
            concurrency: None,
            end: None,
            deleted: Vec::new(),
        };
        if let Some(value) = what.strip_prefix("change -value ") {
            let (value, deleted) = match value.split_once(" (deleted actions ") {
                Some((v, d)) => (v, d.trim_end_matches(')')),
                None => (value, ""),
            };
            for pair in value.split(';') {
                match pair.split_once('=') {
                    Some(("concurrency", n)) => {
                        done.concurrency = Some(n.parse().map_err(|_| what.to_string())?)
                    }
                    Some(("endtime", t)) => done.end = Some(instant(t)),
                    _ => {}
                }
            }
            for n in deleted.split(", ").filter(|n| !n.is_empty()) {
                done.deleted.push(n.parse().map_err(|_| what.to_string())?);
            }
        }
        out.push(done);
    }
    Ok(out)
}

/// Why-texts of job status changes only.
const JOB_WHYS: &[&str] = &[
    "submitted",
    "first materialization",
    "materialization failed",
    "status transit",
    "pause time",
    "change:",
];
/// Why-texts of both job and action changes (the job's comes first).
const SHARED_WHYS: &[&str] = &["suspended", "resumed", "job killed", "rerun"];

fn run_case(case: &Case, dir: &Path) -> Result<(), String> {
    std::fs::write(dir.join("coordinator.xml"), &case.xml).unwrap();
    std::fs::write(dir.join("scenario.toml"), &case.toml).unwrap();
    let d = dir.display().to_string();
    let simulate = |format: &str| {
        let out = common::coordc_in(&d, &["simulate", "scenario.toml", "--format", format]);
        if out.status.code() != Some(0) {
            return Err(format!(
                "--format {format}: exit {:?}\n{}",
                out.status.code(),
                common::stderr(&out)
            ));
        }
        Ok(out.stdout)
    };
    let events_bytes = simulate("events")?;
    let json_bytes = simulate("json")?;
    if simulate("events")? != events_bytes {
        return Err("two runs give different events".into());
    }
    if simulate("json")? != json_bytes {
        return Err("two runs give different JSON".into());
    }
    let doc: Value = serde_json::from_slice(&json_bytes).map_err(|e| e.to_string())?;
    let job = &doc["jobs"][0];
    let actions = job["actions"].as_array().ok_or("no actions")?;
    let n_final = actions.len() as u64;

    // Numbers 1..n, nominal times increasing, the dry run's first n.
    let dry = common::coordc_in(
        &d,
        &[
            "dryrun",
            "coordinator.xml",
            "--format",
            "json",
            "-D",
            &format!("jobStart={}", oozie(case.start)),
            "-D",
            &format!("jobEnd={}", oozie(case.max_end)),
        ],
    );
    if dry.status.code() != Some(0) {
        return Err(format!("dry run: {}", common::stderr(&dry)));
    }
    let dry: Value = serde_json::from_slice(&dry.stdout).map_err(|e| e.to_string())?;
    let listed: Vec<&str> = dry["actions"]
        .as_array()
        .ok_or("dry run: no actions")?
        .iter()
        .map(|a| text(&a["nominal_time"]))
        .collect();
    for (k, a) in actions.iter().enumerate() {
        if a["number"].as_u64() != Some(k as u64 + 1) {
            return Err(format!(
                "action {k} of the report is numbered {}",
                a["number"]
            ));
        }
        let nominal = text(&a["nominal_time"]);
        if listed.get(k) != Some(&nominal) {
            return Err(format!(
                "@{}: nominal {nominal}, the dry run's {:?}",
                k + 1,
                listed.get(k)
            ));
        }
        if k > 0 && instant(nominal) <= instant(text(&actions[k - 1]["nominal_time"])) {
            return Err(format!(
                "@{}: nominal {nominal} not after the previous",
                k + 1
            ));
        }
    }
    let nominal_of = |number: u64| -> Option<DateTime<Utc>> {
        listed.get(number as usize - 1).map(|t| instant(t))
    };

    // The events, replayed.
    let mut events = Vec::new();
    for line in String::from_utf8_lossy(&events_bytes).lines() {
        let e: Value = serde_json::from_str(line).map_err(|e| format!("{e}: {line}"))?;
        if e["job"] != "sim" {
            return Err(format!("another job: {line}"));
        }
        events.push(Event {
            at: instant(text(&e["at"])),
            action: e["action"].as_u64(),
            from: e["from"].as_str().map(str::to_string),
            to: text(&e["to"]).to_string(),
            why: text(&e["why"]).to_string(),
        });
    }
    let ops = ops_done(job)?;
    let mut next_op = 0;
    let mut alive: Vec<String> = Vec::new();
    let mut job_status: Option<String> = None;
    let mut limit = case.concurrency;
    let mut end = case.end;
    // A lowered concurrency: the actions above it may run on.
    let mut grace = false;
    let mut previous: Option<DateTime<Utc>> = None;
    // The materialization in progress: its time and first action.
    let mut batch: Option<(DateTime<Utc>, u64)> = None;
    // For the end state: when the job's status, the number of actions
    // holding slots and the limit last changed; when each chained output
    // was first written.
    let mut job_since = events.first().map_or(case.until, |e| e.at);
    let mut slots_since = job_since;
    let mut produced: Vec<(DateTime<Utc>, DateTime<Utc>)> = Vec::new();
    let occupied = |alive: &[String], also_suspended: bool| {
        alive
            .iter()
            .filter(|s| {
                s.as_str() == "RUNNING"
                    || s.as_str() == "SUBMITTED"
                    || (also_suspended && s.as_str() == "SUSPENDED")
            })
            .count() as i64
    };
    for (i, e) in events.iter().enumerate() {
        let here = format!("event {} at {}", i + 1, e.at.to_rfc3339());
        if previous.is_some_and(|p| p > e.at) {
            return Err(format!("{here}: out of time order"));
        }
        previous = Some(e.at);
        // Ops before this event (ops at its very time: either side).
        let mut limit_here = limit;
        while next_op < ops.len() && ops[next_op].at <= e.at {
            let op = &ops[next_op];
            if op.at == e.at {
                if let Some(c) = op.concurrency {
                    limit_here = if c < 0 || limit_here < 0 {
                        -1
                    } else {
                        limit_here.max(c)
                    };
                }
                break;
            }
            apply_op(op, &mut alive, &mut limit, &mut end, &mut grace)
                .map_err(|m| format!("{here}: {m}"))?;
            if op.concurrency.is_some() {
                slots_since = slots_since.max(op.at);
            }
            limit_here = limit;
            next_op += 1;
        }
        // Whose change is it?
        let for_job = match e.action {
            Some(_) => false,
            None => {
                JOB_WHYS.iter().any(|w| e.why.starts_with(w))
                    || (SHARED_WHYS.contains(&e.why.as_str())
                        && e.from.is_some()
                        && e.from == job_status)
            }
        };
        if for_job {
            if e.from != job_status {
                return Err(format!(
                    "{here}: job {:?} -> {}, but it was {job_status:?}",
                    e.from, e.to
                ));
            }
            job_status = Some(e.to.clone());
            job_since = e.at;
        } else {
            if !TRANSITIONS.contains(&(e.from.as_deref(), e.to.as_str())) {
                return Err(format!(
                    "{here}: action {:?}: {:?} -> {} is no Oozie transition",
                    e.action, e.from, e.to
                ));
            }
            let number = match (&e.from, e.action) {
                (None, n) => {
                    let number = alive.len() as u64 + 1;
                    if n.is_some_and(|n| n != number) {
                        return Err(format!("{here}: created @{n:?}, expected @{number}"));
                    }
                    if n.is_none() && number <= n_final {
                        return Err(format!("{here}: an action without its number"));
                    }
                    alive.push(String::new());
                    number
                }
                (Some(_), Some(n)) => n,
                (Some(from), None) => {
                    // An action deleted by -change is named `null` (an
                    // engine bug, simulate_cli.rs): one of those, in `from`.
                    let k = (n_final as usize..alive.len())
                        .find(|&k| &alive[k] == from)
                        .ok_or_else(|| format!("{here}: no action is {from}"))?;
                    k as u64 + 1
                }
            };
            let slot = alive
                .get_mut(number as usize - 1)
                .ok_or_else(|| format!("{here}: no action @{number}"))?;
            if let Some(from) = &e.from
                && slot != from
            {
                return Err(format!(
                    "{here}: @{number} {from} -> {}, but it was {slot}",
                    e.to
                ));
            }
            let running_before = occupied(&alive, false);
            let slot = &mut alive[number as usize - 1];
            *slot = e.to.clone();
            if occupied(&alive, false) != running_before {
                slots_since = e.at;
            }
            if e.to == "SUCCEEDED"
                && let Some(nominal) = nominal_of(number)
                && !produced.iter().any(|(n, _)| *n == nominal)
            {
                produced.push((nominal, e.at));
            }
            // Throttle: a materialization is its creations in a row.
            if e.from.is_none() && batch.is_none_or(|(t, _)| t != e.at) {
                batch = Some((e.at, number));
            }
            // Concurrency: a start needs a free slot. Actions resumed with
            // their job take none, and may run above the limit (as may those
            // running when it is lowered) until enough have ended.
            let running = occupied(&alive, false);
            let start = e.to == "SUBMITTED";
            if limit_here >= 0
                && !start
                && running > limit_here
                && e.from.as_deref() == Some("SUSPENDED")
            {
                grace = true;
            }
            if grace && occupied(&alive, true) <= limit_here {
                grace = false;
            }
            if limit_here >= 0 && running > limit_here && (start || !grace) {
                return Err(format!(
                    "{here}: @{number} {:?} -> {}: {running} actions RUNNING or SUBMITTED, concurrency {limit_here}",
                    e.from, e.to
                ));
            }
        }
        // The end of a materialization.
        let batch_ends = events
            .get(i + 1)
            .is_none_or(|next| next.from.is_some() || next.at != e.at);
        if let Some((t, first)) = batch
            && batch_ends
            && e.from.is_none()
            && !for_job
        {
            let catch_up = nominal_of(first)
                .is_none_or(|nominal| (t - nominal).num_seconds() >= case.settings.window)
                || end <= t;
            let bounded = match case.execution {
                Execution::Fifo | Execution::Lifo => true,
                Execution::LastOnly | Execution::None => !catch_up,
            };
            let waiting = alive.iter().filter(|s| s.as_str() == "WAITING").count() as i64;
            if bounded && waiting > case.throttle {
                return Err(format!(
                    "{here}: after the materialization from @{first}, {waiting} actions WAITING, throttle {}",
                    case.throttle
                ));
            }
            batch = None;
        }
    }
    for op in &ops[next_op..] {
        apply_op(op, &mut alive, &mut limit, &mut end, &mut grace)?;
        if op.concurrency.is_some() {
            slots_since = slots_since.max(op.at);
        }
    }
    // The replay ends where the report does.
    if alive.len() as u64 != n_final {
        return Err(format!(
            "the events leave {} actions, the report has {n_final}",
            alive.len()
        ));
    }
    for (k, a) in actions.iter().enumerate() {
        if alive[k] != text(&a["status"]) {
            return Err(format!(
                "@{}: the events end in {}, the report says {}",
                k + 1,
                alive[k],
                a["status"]
            ));
        }
    }
    // (A job not submitted by the end has no event; the report says PREP.)
    let not_submitted = job_status.is_none()
        && job["status"] == "PREP"
        && job["history"].as_array().is_some_and(|h| h.is_empty());
    if job_status.as_deref() != job["status"].as_str() && !not_submitted {
        return Err(format!(
            "the events end the job in {job_status:?}, the report says {}",
            job["status"]
        ));
    }
    let state = EndState {
        job_status: job_status.unwrap_or_default(),
        job_since,
        slots_since,
        limit,
        end,
        running: occupied(&alive, false),
        produced,
    };
    nothing_stalls(case, job, &listed, &state)
}

/// What the replay knows at the end of the run.
struct EndState {
    job_status: String,
    job_since: DateTime<Utc>,
    slots_since: DateTime<Utc>,
    limit: i64,
    end: DateTime<Utc>,
    running: i64,
    produced: Vec<(DateTime<Utc>, DateTime<Utc>)>,
}

/// When the dependency `path` exists, as the scenario scripts it (or the
/// previous action's workflow wrote it).
fn arrival(case: &Case, state: &EndState, path: &str) -> Option<DateTime<Utc>> {
    let rest = path.strip_prefix("hdfs://nn/")?;
    let (name, rest) = rest.split_once('/')?;
    let stamp = rest.strip_suffix("/_SUCCESS")?;
    let t = NaiveDateTime::parse_from_str(stamp, "%Y/%m/%d/%H/%M")
        .ok()?
        .and_utc();
    if name == "o" {
        if !case.outputs {
            return None;
        }
        return state
            .produced
            .iter()
            .find(|(n, _)| *n == t)
            .map(|(_, at)| *at);
    }
    let spec = case.data.iter().find(|d| d.name == name)?;
    let server = instant(SERVER_START);
    if t < server - Duration::days(1) || t >= case.until {
        return None;
    }
    if spec.missing.contains(&t) {
        return spec.late.iter().find(|(n, _)| *n == t).map(|(_, at)| *at);
    }
    Some(t + spec.delay)
}

/// Liveness, at the end of the run: what has had a quarter of an hour to
/// happen (a minute's input check, the RecoveryService's 10 minutes, the
/// StatusTransitService's minute) has happened.
fn nothing_stalls(
    case: &Case,
    job: &Value,
    listed: &[&str],
    state: &EndState,
) -> Result<(), String> {
    let quiet = case.until - case.settings.margin();
    if case.outage.is_some_and(|(_, to)| to + minutes(2) > quiet) {
        return Ok(());
    }
    if state.job_since > quiet {
        return Ok(());
    }
    let actions = job["actions"].as_array().unwrap();
    // Input checks and ready-checks also run for a PAUSED job, but one
    // dropped while it was suspended is only revived by the RecoveryService,
    // which looks at RUNNING jobs only (RS:267-365): a job paused as it resumes
    // keeps its WAITING actions waiting.
    let checking = matches!(state.job_status.as_str(), "RUNNING" | "RUNNINGWITHERROR");
    let mut last_change = instant(SERVER_START);
    for a in actions {
        let number = a["number"].as_u64().unwrap();
        let status = text(&a["status"]);
        let history = a["history"].as_array().unwrap();
        let since = instant(text(&history.last().unwrap()["at"]));
        last_change = last_change.max(since);
        if since > quiet {
            continue;
        }
        let nominal = instant(text(&a["nominal_time"]));
        let created = instant(text(&a["created_time"]));
        let stalled = |why: String| {
            Err(format!(
                "@{number} (nominal {}) is {status} since {since}, the job {} since {}, though {why}",
                oozie(nominal),
                state.job_status,
                state.job_since
            ))
        };
        match status {
            "WAITING" if checking && nominal <= quiet => {
                let base = nominal.max(created);
                if case.timeout >= 0 && base + minutes(case.timeout + 1) <= quiet {
                    return stalled(format!("its timeout of {} min has passed", case.timeout));
                }
                if case.execution == Execution::None
                    && nominal + minutes(case.settings.none_tolerance) <= quiet
                {
                    return stalled("NONE's tolerance has passed".into());
                }
                if case.execution == Execution::LastOnly
                    && let Some(next) = listed.get(number as usize).map(|t| instant(t))
                    && next <= state.end
                    && next < quiet
                {
                    return stalled(format!("the next nominal time {} has passed", oozie(next)));
                }
                let missing: Vec<&str> =
                    a["missing"].as_array().unwrap().iter().map(text).collect();
                if case.inputs_known
                    && missing
                        .iter()
                        .all(|p| arrival(case, state, p).is_some_and(|t| t + minutes(1) <= quiet))
                {
                    return stalled(format!("its missing inputs {missing:?} have all arrived"));
                }
            }
            "READY"
                if checking
                    && state.slots_since <= quiet
                    && (state.limit < 0 || state.running < state.limit) =>
            {
                return stalled(format!(
                    "{} of {} concurrency slots are in use",
                    state.running, state.limit
                ));
            }
            _ => {}
        }
    }
    // The job ends once its materialization is done and its actions are.
    let done = state.job_status == "KILLED"
        || actions.len() == listed.iter().filter(|t| instant(t) < state.end).count();
    let finished = actions.iter().all(|a| {
        matches!(
            text(&a["status"]),
            "SUCCEEDED" | "FAILED" | "KILLED" | "TIMEDOUT" | "SKIPPED" | "IGNORED"
        )
    });
    let open = matches!(
        state.job_status.as_str(),
        "RUNNING"
            | "RUNNINGWITHERROR"
            | "SUSPENDED"
            | "SUSPENDEDWITHERROR"
            | "PAUSED"
            | "PAUSEDWITHERROR"
    );
    if done && finished && open && last_change <= quiet {
        return Err(format!(
            "the job is {} since {}, though its materialization is done and its {} actions finished by {last_change}",
            state.job_status,
            state.job_since,
            actions.len()
        ));
    }
    Ok(())
}

/// An op's effect on the replay: actions deleted (WAITING or READY, the
/// last ones), the concurrency, the end.
fn apply_op(
    op: &OpDone,
    alive: &mut Vec<String>,
    limit: &mut i64,
    end: &mut DateTime<Utc>,
    grace: &mut bool,
) -> Result<(), String> {
    let mut deleted = op.deleted.clone();
    deleted.sort_unstable();
    let expected: Vec<u64> =
        (alive.len() as u64 + 1 - deleted.len() as u64..=alive.len() as u64).collect();
    if deleted != expected {
        return Err(format!(
            "-change at {} deleted {deleted:?}, not the last actions of {}",
            op.at,
            alive.len()
        ));
    }
    for n in deleted.iter().rev() {
        let status = alive.pop().unwrap();
        if status != "WAITING" && status != "READY" {
            return Err(format!(
                "-change at {} deleted @{n}, which was {status}",
                op.at
            ));
        }
    }
    if let Some(c) = op.concurrency {
        let occupied = alive
            .iter()
            .filter(|s| matches!(s.as_str(), "RUNNING" | "SUBMITTED" | "SUSPENDED"))
            .count() as i64;
        if c >= 0 && occupied > c {
            *grace = true;
        }
        *limit = c;
    }
    if let Some(e) = op.end {
        *end = e;
    }
    Ok(())
}

fn seeds() -> Vec<u64> {
    if let Ok(seed) = std::env::var("COORDC_SIM_SEED") {
        return vec![seed.parse().expect("COORDC_SIM_SEED is a number")];
    }
    let cases = std::env::var("COORDC_SIM_CASES")
        .ok()
        .map_or(CASES, |n| n.parse().expect("COORDC_SIM_CASES is a number"));
    let first = std::env::var("COORDC_SIM_FIRST")
        .ok()
        .map_or(FIRST_SEED, |n| {
            n.parse().expect("COORDC_SIM_FIRST is a number")
        });
    (first..first + cases).collect()
}

/// Runs the cases of `seeds` on a few threads; the failures, each with its
/// seed.
fn run_cases(seeds: &[u64], avoid_known_bugs: bool) -> Vec<String> {
    let failures = Mutex::new(Vec::new());
    let next = AtomicU64::new(0);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().min(8));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed) as usize;
                    let Some(&seed) = seeds.get(k) else {
                        break;
                    };
                    let case = generate_with(seed, avoid_known_bugs);
                    let dir = common::fresh_dir(&format!("simprop-{seed}-{avoid_known_bugs}"));
                    match run_case(&case, &dir) {
                        Ok(()) => {
                            let _ = std::fs::remove_dir_all(&dir);
                        }
                        Err(e) => failures.lock().unwrap().push(format!(
                            "seed {} (COORDC_SIM_SEED={}; files in {}): {e}",
                            case.seed,
                            case.seed,
                            dir.display()
                        )),
                    }
                }
            });
        }
    });
    let mut failures = failures.into_inner().unwrap();
    failures.sort();
    failures
}

#[test]
fn random_scenarios_keep_oozie_invariants() {
    let seeds = seeds();
    let failures = run_cases(&seeds, true);
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        seeds.len(),
        failures.join("\n")
    );
}

/// The same, without steering clear of the engine bugs reported below: run
/// it once they are fixed (among seeds 1-400, some two dozen walk into them).
#[test]
fn random_scenarios_keep_oozie_invariants_with_known_bugs() {
    let seeds: Vec<u64> = match std::env::var("COORDC_SIM_CASES") {
        Ok(_) => seeds(),
        Err(_) => (FIRST_SEED..FIRST_SEED + 400).collect(),
    };
    let failures = run_cases(&seeds, false);
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        seeds.len(),
        failures.join("\n")
    );
}

/// The generator itself: deterministic, and varied enough to reach what the
/// checks are about.
#[test]
fn the_generator_is_deterministic_and_varied() {
    let a = generate(7);
    let b = generate(7);
    assert_eq!(
        (a.xml.as_str(), a.toml.as_str()),
        (b.xml.as_str(), b.toml.as_str())
    );
    let cases: Vec<Case> = (FIRST_SEED..FIRST_SEED + CASES).map(generate).collect();
    let with = |needle: &str| cases.iter().filter(|c| c.toml.contains(needle)).count();
    for needle in [
        "do = \"suspend\"",
        "do = \"resume\"",
        "do = \"kill\"",
        "concurrency=",
        "endtime=",
        "pausetime=",
        "do = \"rerun\"",
        "do = \"ignore\"",
        "[[outage]]",
        "missing = [\"",
        "\nuri = ",
        "[[workflow]]",
    ] {
        assert!(
            with(needle) >= 2,
            "only {} cases with {needle}",
            with(needle)
        );
    }
    for execution in ["FIFO", "LIFO", "LAST_ONLY", "NONE"] {
        let n = cases
            .iter()
            .filter(|c| c.xml.contains(&format!("<execution>{execution}<")))
            .count();
        assert!(n >= 3, "only {n} cases with {execution}");
    }
    for c in [-1, 0, 1, 2] {
        assert!(
            cases.iter().any(|x| x.concurrency == c),
            "no case with concurrency {c}"
        );
    }
    assert!(cases.iter().any(|c| c.xml.contains("minutes(5)}\" start")));
    assert!(cases.iter().any(|c| c.xml.contains("days(1)")));
    assert!(cases.iter().any(|c| !c.xml.contains("<data-in")));
}

// ---------------------------------------------------------------------------
// Engine bugs the generator found, each as its smallest scenario. The
// generator steers clear of them (`avoid_known_bugs`) so that the invariants
// above keep guarding everything else.

/// Writes `files` into a fresh folder; runs `simulate scenario.toml` there
/// with `format`.
fn simulate_files(name: &str, files: &[(&str, &str)], format: &str) -> std::process::Output {
    let dir = common::folder(name, files);
    common::coordc_in(&dir, &["simulate", "scenario.toml", "--format", format])
}

fn report(out: &std::process::Output) -> Value {
    assert_eq!(
        out.status.code(),
        Some(0),
        "exit {:?}: {}",
        out.status.code(),
        common::stderr(out)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Hourly, no inputs, one action at a time.
fn hourly(start: &str, end: &str) -> String {
    format!(
        r#"<coordinator-app name="h" frequency="${{coord:hours(1)}}" start="{start}" end="{end}"
                 timezone="UTC" xmlns="uri:oozie:coordinator:0.4">
  <action><workflow><app-path>hdfs://nn/apps/wf</app-path></workflow></action>
</coordinator-app>
"#
    )
}

/// Bug 1. An action waiting for another's output is deleted by `-change`;
/// when that output appears, the engine wakes the deleted action's input
/// checks by its index (`watchers` keeps `(job, index)` pairs past the
/// deletion) and indexes past the end of the job's actions: a panic.
#[test]
fn an_output_awaited_by_a_deleted_action_does_not_panic() {
    let app = r#"<coordinator-app name="chain" frequency="${coord:hours(1)}" start="2009-01-01T01:00Z" end="2009-01-01T05:00Z"
                 timezone="UTC" xmlns="uri:oozie:coordinator:0.4">
  <datasets>
    <dataset name="o" frequency="${coord:hours(1)}" initial-instance="2009-01-01T01:00Z" timezone="UTC">
      <uri-template>hdfs://nn/o/${YEAR}/${MONTH}/${DAY}/${HOUR}</uri-template>
    </dataset>
  </datasets>
  <input-events>
    <data-in name="previous" dataset="o"><instance>${coord:current(-1)}</instance></data-in>
  </input-events>
  <output-events>
    <data-out name="output" dataset="o"><instance>${coord:current(0)}</instance></data-out>
  </output-events>
  <action><workflow><app-path>hdfs://nn/apps/wf</app-path></workflow></action>
</coordinator-app>
"#;
    // @1 (01:00) runs until 04:00 and writes o/01; @2 (02:00) waits for it.
    // At 03:00 the end moves to 02:00: @2 and @3 (WAITING) are deleted.
    let scenario = r#"start = "2009-01-01T00:00Z"
until = "2009-01-01T06:00Z"

[[job]]
id = "chain"
app = "coordinator.xml"

[[workflow]]
job = "chain"
action = 1
duration = "3h"

[[op]]
at = "2009-01-01T03:00Z"
job = "chain"
do = "change"
value = "endtime=2009-01-01T02:00Z"
"#;
    let out = simulate_files(
        "simprop-bug1",
        &[("coordinator.xml", app), ("scenario.toml", scenario)],
        "json",
    );
    let doc = report(&out);
    let job = &doc["jobs"][0];
    assert!(
        text(&job["ops"][0]["op"]).contains("deleted actions"),
        "{job:#}"
    );
    assert_eq!(nominals(job), ["2009-01-01T01:00Z"]);
    assert_eq!(job["actions"][0]["status"], "SUCCEEDED");
    assert_eq!(job["status"], "SUCCEEDED");
}

/// Bug 2. `-change status=RUNNING` on a KILLED job resets its
/// doneMaterialization when its next materialization time is before its end
/// (CCX:432-445), so the trigger materializes the rest. The engine leaves
/// the kill's `done` set: the job stays RUNNING with no more actions.
#[test]
fn status_running_reopens_the_materialization_of_a_killed_job() {
    let scenario = r#"start = "2009-01-01T00:00Z"
until = "2009-01-01T08:00Z"

[[job]]
id = "h"
app = "coordinator.xml"

[[op]]
at = "2009-01-01T02:30Z"
job = "h"
do = "kill"

[[op]]
at = "2009-01-01T02:40Z"
job = "h"
do = "change"
value = "status=RUNNING"
"#;
    let app = hourly("2009-01-01T01:00Z", "2009-01-01T06:00Z");
    let out = simulate_files(
        "simprop-bug2",
        &[("coordinator.xml", &app), ("scenario.toml", scenario)],
        "json",
    );
    let doc = report(&out);
    let job = &doc["jobs"][0];
    assert!(job["ops"][1]["refused"].is_null(), "{job:#}");
    // @3-@5 at the trigger's ticks 5 minutes before their nominal times.
    assert_eq!(
        nominals(job),
        [
            "2009-01-01T01:00Z",
            "2009-01-01T02:00Z",
            "2009-01-01T03:00Z",
            "2009-01-01T04:00Z",
            "2009-01-01T05:00Z"
        ]
    );
    assert_eq!(job["actions"][2]["created_time"], "2009-01-01T02:55:10Z");
    assert_eq!(job["status"], "SUCCEEDED", "{job:#}");
}

/// Bug 3. After `-change status=RUNNING` the job is pending, and the
/// StatusTransitService computes its status again (CJB:142-143: pending,
/// doneMaterialization, modified): done, every action KILLED → KILLED
/// (CSTX:126-158). The engine never looks at it again: RUNNING forever.
#[test]
fn status_running_on_a_finished_killed_job_is_computed_again() {
    let scenario = r#"start = "2009-01-01T00:00Z"
until = "2009-01-01T05:00Z"

[[job]]
id = "h"
app = "coordinator.xml"

[workflows]
duration = "3h"

[[op]]
at = "2009-01-01T02:30Z"
job = "h"
do = "kill"

[[op]]
at = "2009-01-01T03:00Z"
job = "h"
do = "change"
value = "status=RUNNING"
"#;
    let app = hourly("2009-01-01T01:00Z", "2009-01-01T03:00Z");
    let out = simulate_files(
        "simprop-bug3",
        &[("coordinator.xml", &app), ("scenario.toml", scenario)],
        "json",
    );
    let doc = report(&out);
    let job = &doc["jobs"][0];
    let history: Vec<(&str, &str)> = job["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (text(&h["at"]), text(&h["status"])))
        .collect();
    assert_eq!(
        history[2..],
        [
            ("2009-01-01T02:30:00Z", "KILLED"),
            ("2009-01-01T03:00:00Z", "RUNNING"),
            ("2009-01-01T03:00:10Z", "KILLED"),
        ],
        "{job:#}"
    );
}

/// Bug 4. An op before the job's `submit` time is applied to the job not
/// yet submitted (Oozie has no such job then: E0604): its status changes
/// before its submission, and it stays PREPSUSPENDED though its history
/// ends in PREP. The op should be refused (or the scenario rejected).
#[test]
fn an_op_before_the_submission_is_refused() {
    let scenario = r#"start = "2009-01-01T00:00Z"
until = "2009-01-01T05:00Z"

[[job]]
id = "h"
app = "coordinator.xml"
submit = "2009-01-01T01:30Z"

[[op]]
at = "2009-01-01T00:30Z"
job = "h"
do = "suspend"
"#;
    let app = hourly("2009-01-01T01:00Z", "2009-01-01T03:00Z");
    let out = simulate_files(
        "simprop-bug4",
        &[("coordinator.xml", &app), ("scenario.toml", scenario)],
        "json",
    );
    if out.status.code() == Some(1) {
        // Refused as a scenario error, at the op.
        let err = common::stderr(&out);
        assert!(err.contains("scenario.toml:13:"), "{err}");
        return;
    }
    let doc = report(&out);
    let job = &doc["jobs"][0];
    assert_eq!(job["history"][0]["why"], "submitted", "{job:#}");
    assert!(job["ops"][0]["refused"].is_string(), "{job:#}");
    assert_eq!(job["status"], "SUCCEEDED", "{job:#}");
}

/// Bug 5. A job is materialized before its `submit` time whenever something
/// else wakes the materialization trigger: another job's activity, or the
/// end of an outage. Here `late` (submitted 02:30) runs its 01:00 action at
/// 01:00, on `early`'s ticks.
#[test]
fn a_job_is_not_materialized_before_its_submission() {
    let scenario = r#"start = "2009-01-01T00:00Z"
until = "2009-01-01T04:00Z"

[[job]]
id = "early"
app = "coordinator.xml"

[[job]]
id = "late"
app = "coordinator.xml"
submit = "2009-01-01T02:30Z"
"#;
    let app = hourly("2009-01-01T01:00Z", "2009-01-01T03:00Z");
    let out = simulate_files(
        "simprop-bug5",
        &[("coordinator.xml", &app), ("scenario.toml", scenario)],
        "events",
    );
    assert_eq!(out.status.code(), Some(0), "{}", common::stderr(&out));
    let submitted = instant("2009-01-01T02:30Z");
    for line in common::stdout(&out).lines() {
        let e: Value = serde_json::from_str(line).unwrap();
        if e["job"] == "late" {
            assert!(
                instant(text(&e["at"])) >= submitted,
                "before its submission: {line}"
            );
        }
    }
}
