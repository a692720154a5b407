//! The differential test: random coordinators (frequencies of every unit,
//! Oozie crons, zones with DST at midnight, a 30-minute DST, the southern
//! hemisphere, starts in DST gaps and overlaps, datasets with ranges and
//! `hoursInDay`, instances before the initial instance), each exported and
//! verified with Airflow: zero divergence between the DAG's runs and URIs
//! and `coordc dryrun`'s. `COORDC_EXPORT_CASES` sets how many (2,000 by
//! default); the seed is fixed, so a failure reproduces.

use crate::common::rng::Rng;
use crate::common::{coordc, expect_code, fresh_dir, stderr, stdout, write};
use crate::verify::{airflow_python, summaries};

/// Zones: none; DST at 02:00 (north, south); at midnight (Havana, Santiago,
/// Asunción); 30 minutes (Lord Howe); fixed offsets with minutes.
const ZONES: &[&str] = &[
    "UTC",
    "America/New_York",
    "Europe/Berlin",
    "Australia/Sydney",
    "America/Havana",
    "America/Santiago",
    "America/Asuncion",
    "Australia/Lord_Howe",
    "Asia/Kolkata",
    "America/St_Johns",
    "Europe/London",
    "Pacific/Chatham",
];

/// Instants near DST switches of the zones above (and quiet ones): a start
/// is drawn within a few days of one, at any quarter hour, so starts fall
/// in gaps and overlaps and the runs cross switches.
const ANCHORS: &[&str] = &[
    "2024-03-10T07:00Z",
    "2024-11-03T06:00Z",
    "2025-03-30T01:00Z",
    "2025-10-26T01:00Z",
    "2025-04-06T15:30Z",
    "2025-10-05T15:30Z",
    "2025-03-09T05:00Z",
    "2025-11-02T05:00Z",
    "2024-09-08T04:00Z",
    "2025-04-06T03:00Z",
    "2025-06-15T12:00Z",
    "2024-12-31T23:00Z",
];

const FREQUENCIES: &[(&str, i64)] = &[
    // (frequency, its length in minutes, roughly: the job spans ~40 of them)
    ("15", 15),
    ("${coord:minutes(45)}", 45),
    ("${coord:hours(1)}", 60),
    ("${coord:hours(3)}", 180),
    ("${coord:hours(24)}", 1440),
    ("${coord:days(1)}", 1440),
    ("${coord:days(2)}", 2880),
    ("${coord:days(7)}", 10080),
    ("${coord:months(1)}", 43200),
    ("${coord:months(5)}", 216000),
    ("${coord:endOfDays(1)}", 1440),
    ("${coord:endOfMonths(1)}", 43200),
    ("0 2 * * *", 1440),
    ("30 1 * * 1-5", 1440),
    ("0 */6 * * *", 360),
    ("15 3 1 * *", 43200),
    ("0,30 0-3 * * *", 360),
];

const DATASET_FREQUENCIES: &[&str] = &[
    "${coord:hours(1)}",
    "${coord:minutes(30)}",
    "${coord:days(1)}",
    "${coord:months(1)}",
];

fn utc(text: &str) -> chrono::DateTime<chrono::Utc> {
    chrono::DateTime::parse_from_rfc3339(&text.replace('Z', ":00Z"))
        .unwrap()
        .with_timezone(&chrono::Utc)
}

fn oozie(t: chrono::DateTime<chrono::Utc>) -> String {
    t.format("%Y-%m-%dT%H:%MZ").to_string()
}

/// One random coordinator application.
fn coordinator(rng: &mut Rng, index: usize) -> String {
    let zone = rng.pick(ZONES);
    let (frequency, minutes) = rng.pick(FREQUENCIES);
    let anchor = utc(rng.pick(ANCHORS));
    let start = anchor + chrono::Duration::minutes(15 * rng.range(-4 * 24 * 3, 4 * 24 * 3));
    let end = start + chrono::Duration::minutes(minutes * rng.range(1, 40) + rng.range(0, 59));
    let mut datasets = String::new();
    let mut inputs = String::new();
    let mut configuration = String::from(
        "<property><name>nominal</name><value>${coord:nominalTime()}</value></property>",
    );
    if rng.chance(75) {
        let dataset_frequency = rng.pick(DATASET_FREQUENCIES);
        let dataset_zone = if rng.chance(70) {
            zone
        } else {
            rng.pick(ZONES)
        };
        // Sometimes after the start: the instances before it are dropped.
        let initial = start + chrono::Duration::hours(rng.range(-24 * 40, 24 * 3));
        let initial =
            initial - chrono::Duration::minutes(i64::from(chrono::Timelike::minute(&initial)));
        let done_flag = match rng.below(3) {
            0 => "",
            1 => "<done-flag></done-flag>",
            _ => "<done-flag>_READY</done-flag>",
        };
        datasets = format!(
            r#"<datasets><dataset name="logs" frequency="{dataset_frequency}" initial-instance="{}" timezone="{dataset_zone}"><uri-template>${{root}}/logs/${{YEAR}}/${{MONTH}}/${{DAY}}/${{HOUR}}/${{MINUTE}}</uri-template>{done_flag}</dataset></datasets>"#,
            oozie(initial)
        );
        let instances = match rng.below(4) {
            0 => format!(
                "<start-instance>${{coord:current({})}}</start-instance><end-instance>${{coord:current(0)}}</end-instance>",
                -rng.range(0, 30)
            ),
            1 if dataset_frequency == "${coord:hours(1)}" => {
                "<start-instance>${coord:current(-(coord:hoursInDay(0) - 1))}</start-instance><end-instance>${coord:current(0)}</end-instance>".to_string()
            }
            2 => format!(
                "<instance>${{coord:current({})}}</instance><instance>${{coord:current(0)}}</instance>",
                -rng.range(1, 5)
            ),
            _ => format!(
                "<start-instance>${{coord:current({})}}</start-instance><end-instance>${{coord:current({})}}</end-instance>",
                -rng.range(2, 6),
                -rng.range(0, 1)
            ),
        };
        inputs = format!(
            r#"<input-events><data-in name="input" dataset="logs">{instances}</data-in></input-events>"#
        );
        configuration.push_str(
            "<property><name>input</name><value>${coord:dataIn('input')}</value></property>",
        );
    }
    format!(
        r#"<coordinator-app name="random-{index}" frequency="{frequency}" start="{}" end="{}" timezone="{zone}" xmlns="uri:oozie:coordinator:0.4">
<controls><concurrency>{}</concurrency></controls>
{datasets}{inputs}
<action><workflow><app-path>hdfs://nn:8020/apps/wf</app-path><configuration>{configuration}</configuration></workflow></action>
</coordinator-app>
"#,
        oozie(start),
        oozie(end),
        rng.range(1, 3)
    )
}

#[test]
#[cfg_attr(
    missing_airflow,
    ignore = "skipped: needs Apache Airflow in .venv-airflow (.ci/run makes it from airflow-runtime/requirements-verify.txt) or $COORDC_AIRFLOW_PYTHON"
)]
fn random_coordinators_export_without_divergence() {
    let cases: usize = std::env::var("COORDC_EXPORT_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(2000);
    let dir = fresh_dir("export-differential");
    let mut rng = Rng::new(34);
    let mut apps = Vec::new();
    let mut refused = 0;
    for index in 0..cases {
        let text = coordinator(&mut rng, index);
        let app = write(&dir, &format!("app-{index}.xml"), &text);
        // Only what Oozie accepts (coordc's dry run says, as the server
        // would): an impossible draw is skipped, and counted.
        let listed = coordc(&[
            "dryrun",
            &app.display().to_string(),
            "-D",
            "root=hdfs://nn/data",
            "--limit",
            "1",
        ]);
        if listed.status.success() {
            apps.push(app.display().to_string());
        } else {
            refused += 1;
        }
    }
    assert!(
        refused * 10 <= cases,
        "{refused} of {cases} random coordinators do not dry-run: the generator drifted"
    );
    let out_dir = dir.join("dags");
    let out_arg = out_dir.display().to_string();
    let python = airflow_python();
    let mut args = vec![
        "export",
        "airflow",
        "--out",
        &out_arg,
        "-D",
        "root=hdfs://nn/data",
        "--verify",
        "--python",
        &python,
    ];
    args.extend(apps.iter().map(String::as_str));
    let out = coordc(&args);
    let divergent: Vec<String> = stdout(&out)
        .lines()
        .filter(|l| !l.starts_with("  ") && !l.contains(" -> "))
        .take(60)
        .map(str::to_string)
        .collect();
    expect_code(
        &out,
        0,
        &format!("{}\n{}", divergent.join("\n"), stderr(&out)),
    );
    let summaries = summaries(&stdout(&out));
    assert_eq!(summaries.len(), apps.len());
    let runs: usize = summaries.iter().map(|(_, runs, _)| runs).sum();
    assert!(summaries.iter().all(|(_, _, d)| *d == 0));
    eprintln!(
        "{} random coordinators, {runs} runs, 0 divergences ({refused} draws skipped)",
        apps.len()
    );
}
