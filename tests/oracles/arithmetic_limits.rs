//! Every number a user writes that coordc computes with (frequencies,
//! instance indexes and offsets, date offsets, controls, datetimes far apart,
//! `-D` values that feed them) given 0, -1, i64::MAX and -2^31: `check`,
//! `dryrun`, `eval` and `cron` answer with diagnostics, never a panic, and in
//! bounded time.

use crate::common;

use common::coordinator::{instance, range};
use common::{coordc, fresh_dir, stderr, stdout};
use std::path::Path;

const EXTREMES: [&str; 4] = ["0", "-1", "9223372036854775807", "-2147483648"];

/// A coordinator reading and writing one dataset, with the given pieces.
struct App<'a> {
    frequency: &'a str,
    start: &'a str,
    end: &'a str,
    dataset_frequency: &'a str,
    initial: &'a str,
    /// The data-in's instances: `<instance>` or a start/end pair.
    input: String,
    controls: String,
    property: &'a str,
}

impl Default for App<'_> {
    fn default() -> Self {
        App {
            frequency: "60",
            start: "2024-01-01T00:00Z",
            end: "2024-01-02T00:00Z",
            dataset_frequency: "60",
            initial: "2023-01-01T00:00Z",
            input: instance("${coord:current(0)}"),
            controls: String::new(),
            property: "${coord:nominalTime()}",
        }
    }
}

impl App<'_> {
    fn xml(&self) -> String {
        format!(
            r#"<coordinator-app name="limits" frequency="{}" start="{}" end="{}" timezone="UTC" xmlns="uri:oozie:coordinator:0.4">
  {}
  <datasets>
    <dataset name="logs" frequency="{}" initial-instance="{}" timezone="UTC">
      <uri-template>hdfs://nn/logs/${{YEAR}}${{MONTH}}${{DAY}}${{HOUR}}${{MINUTE}}</uri-template>
    </dataset>
  </datasets>
  <input-events><data-in name="in" dataset="logs">{}</data-in></input-events>
  <output-events><data-out name="out" dataset="logs"><instance>${{coord:current(0)}}</instance></data-out></output-events>
  <action><workflow><app-path>hdfs://nn:8020/apps/x</app-path>
    <configuration><property><name>p</name><value>{}</value></property></configuration>
  </workflow></action>
</coordinator-app>
"#,
            self.frequency,
            self.start,
            self.end,
            self.controls,
            self.dataset_frequency,
            self.initial,
            self.input,
            self.property
        )
    }
}

/// What `check` (JSON) and `dryrun --limit 3` say of one application.
struct Outcome {
    check_codes: Vec<String>,
    dryrun_codes: Vec<String>,
}

/// Runs a command, asserting it ended with a report (exit 0, 1 or 2), not a
/// panic.
fn finished(args: &[&str], what: &str) -> std::process::Output {
    let out = coordc(args);
    let err = stderr(&out);
    assert!(
        matches!(out.status.code(), Some(0..=2))
            && !err.contains("panicked")
            && !err.contains("a bug"),
        "{what}: coordc {args:?} ended with {:?}\n{err}",
        out.status.code()
    );
    out
}

fn codes_of_human(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let rest = l
                .strip_prefix("error[")
                .or_else(|| l.strip_prefix("warning["))?;
            Some(rest.split(']').next()?.to_string())
        })
        .collect()
}

fn run(dir: &Path, name: &str, xml: &str, toml: Option<&str>, defines: &[&str]) -> Outcome {
    let folder = dir.join(name);
    std::fs::create_dir_all(&folder).unwrap();
    let file = folder.join("coordinator.xml");
    std::fs::write(&file, xml).unwrap();
    if let Some(toml) = toml {
        std::fs::write(folder.join("coordc.toml"), toml).unwrap();
    }
    let folder_text = folder.to_string_lossy().into_owned();
    let file_text = file.to_string_lossy().into_owned();
    let mut check = vec!["check", "--format", "json"];
    check.extend_from_slice(defines);
    check.push(&folder_text);
    let out = finished(&check, name);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("a JSON report");
    let check_codes = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect();
    let mut dryrun = vec!["dryrun", "--limit", "3"];
    dryrun.extend_from_slice(defines);
    dryrun.push(&file_text);
    let out = finished(&dryrun, name);
    let dryrun_codes = codes_of_human(&format!("{}{}", stdout(&out), stderr(&out)));
    Outcome {
        check_codes,
        dryrun_codes,
    }
}

fn has(codes: &[String], code: &str) -> bool {
    codes.iter().any(|c| c == code)
}

#[test]
fn dataset_frequencies_not_greater_than_zero_are_tm003() {
    // The crash of issue 19: a dataset with frequency 0 divided by zero.
    let dir = fresh_dir("limits-dataset-frequency");
    for n in EXTREMES {
        let xml = App {
            dataset_frequency: n,
            ..App::default()
        }
        .xml();
        let o = run(&dir, &format!("ds-{n}"), &xml, None, &[]);
        assert!(has(&o.check_codes, "TM003"), "{n}: {:?}", o.check_codes);
        assert!(has(&o.dryrun_codes, "TM003"), "{n}: {:?}", o.dryrun_codes);
    }
    // coord:hours(n) is n × 60 in a Java int: 2^31-1 hours wraps negative.
    let xml = App {
        dataset_frequency: "${coord:hours(2147483647)}",
        ..App::default()
    }
    .xml();
    let o = run(&dir, "ds-hours-wrap", &xml, None, &[]);
    assert!(has(&o.check_codes, "TM003"), "{:?}", o.check_codes);
}

#[test]
fn coordinator_frequencies_not_greater_than_zero_are_refused_with_or_without_the_minimum() {
    let dir = fresh_dir("limits-frequency");
    for n in EXTREMES {
        let xml = App {
            frequency: n,
            ..App::default()
        }
        .xml();
        // i64::MAX is no Java int: Oozie reads it as cron (CR001).
        let expected = if n == "9223372036854775807" {
            "CR001"
        } else {
            "TM003"
        };
        let o = run(&dir, &format!("f-{n}"), &xml, None, &[]);
        assert!(has(&o.check_codes, expected), "{n}: {:?}", o.check_codes);
        assert!(has(&o.dryrun_codes, expected), "{n}: {:?}", o.dryrun_codes);
        // Without Oozie's 5-minute minimum the count must still move forward.
        let toml = Some("check-maximum-frequency = false\n");
        let o = run(&dir, &format!("f-nomax-{n}"), &xml, toml, &[]);
        assert!(has(&o.check_codes, expected), "{n}: {:?}", o.check_codes);
        // The same value from the job configuration.
        let xml = App {
            frequency: "${f}",
            ..App::default()
        }
        .xml();
        let define = format!("f={n}");
        let o = run(&dir, &format!("f-define-{n}"), &xml, None, &["-D", &define]);
        assert!(has(&o.check_codes, expected), "{n}: {:?}", o.check_codes);
        assert!(has(&o.dryrun_codes, expected), "{n}: {:?}", o.dryrun_codes);
    }
    for function in [
        "days",
        "hours",
        "minutes",
        "months",
        "endOfDays",
        "endOfWeeks",
        "endOfMonths",
    ] {
        for n in EXTREMES {
            let frequency = format!("${{coord:{function}({n})}}");
            for (which, app) in [
                (
                    "job",
                    App {
                        frequency: &frequency,
                        ..App::default()
                    },
                ),
                (
                    "dataset",
                    App {
                        dataset_frequency: &frequency,
                        ..App::default()
                    },
                ),
            ] {
                let o = run(
                    &dir,
                    &format!("{function}-{which}-{n}"),
                    &app.xml(),
                    None,
                    &[],
                );
                if n != "9223372036854775807" || function == "minutes" {
                    continue;
                }
                // Far too many units for Oozie's int arithmetic or the calendar.
                assert!(!o.check_codes.is_empty(), "{function}({n}) {which}");
            }
        }
    }
}

#[test]
fn instance_indexes_offsets_and_ranges_at_the_extremes() {
    let dir = fresh_dir("limits-instances");
    for n in EXTREMES {
        let cases = [
            ("current", instance(&format!("${{coord:current({n})}}"))),
            ("latest", instance(&format!("${{coord:latest({n})}}"))),
            ("future", instance(&format!("${{coord:future({n}, {n})}}"))),
            (
                "offset-minute",
                instance(&format!("${{coord:offset({n}, 'MINUTE')}}")),
            ),
            (
                "offset-month",
                instance(&format!("${{coord:offset({n}, 'MONTH')}}")),
            ),
            (
                "hours-in-day",
                instance(&format!("${{coord:current(coord:hoursInDay({n}))}}")),
            ),
            (
                "days-in-month",
                instance(&format!("${{coord:current(coord:daysInMonth({n}))}}")),
            ),
            (
                "range-start",
                range(&format!("${{coord:current({n})}}"), "${coord:current(0)}"),
            ),
            (
                "range-end",
                range("${coord:current(0)}", &format!("${{coord:current({n})}}")),
            ),
            (
                "offset-range",
                range(
                    "${coord:offset(0, 'HOUR')}",
                    &format!("${{coord:offset({n}, 'HOUR')}}"),
                ),
            ),
            (
                "latest-range",
                range(&format!("${{coord:latest({n})}}"), "${coord:latest(0)}"),
            ),
            (
                "future-range",
                range(
                    "${coord:future(0, 5)}",
                    &format!("${{coord:future({n}, {n})}}"),
                ),
            ),
        ];
        for (name, input) in cases {
            let xml = App {
                input,
                ..App::default()
            }
            .xml();
            run(&dir, &format!("{name}-{n}"), &xml, None, &[]);
        }
        // A range whose end is before its start (current(-1), current(-2^31),
        // current(i64::MAX) read as a Java int: -1) is CO005, not a panic.
        if n != "0" {
            let xml = App {
                input: range("${coord:current(0)}", &format!("${{coord:current({n})}}")),
                ..App::default()
            }
            .xml();
            let o = run(&dir, &format!("backwards-{n}"), &xml, None, &[]);
            assert!(has(&o.check_codes, "CO005"), "{n}: {:?}", o.check_codes);
            assert!(has(&o.dryrun_codes, "CO005"), "{n}: {:?}", o.dryrun_codes);
        }
    }
    // Thousands of millions of instances in one range: refused with the limit.
    let xml = App {
        input: range(
            "${coord:current(-2147483648)}",
            "${coord:current(2147483647)}",
        ),
        ..App::default()
    }
    .xml();
    let o = run(&dir, "huge-range", &xml, None, &[]);
    assert!(has(&o.check_codes, "CO005"), "{:?}", o.check_codes);
}

#[test]
fn date_offsets_and_controls_at_the_extremes() {
    let dir = fresh_dir("limits-dates");
    for n in EXTREMES {
        for unit in ["MINUTE", "HOUR", "DAY", "WEEK", "MONTH", "YEAR"] {
            let property = format!("${{coord:dateOffset(coord:nominalTime(), {n}, '{unit}')}}");
            let xml = App {
                property: &property,
                ..App::default()
            }
            .xml();
            run(&dir, &format!("date-offset-{unit}-{n}"), &xml, None, &[]);
            let initial = format!("${{coord:dateOffset('2023-01-01T00:00Z', {n}, '{unit}')}}");
            let xml = App {
                initial: &initial,
                ..App::default()
            }
            .xml();
            run(&dir, &format!("initial-offset-{unit}-{n}"), &xml, None, &[]);
        }
        for control in ["timeout", "concurrency", "throttle"] {
            for value in [n.to_string(), format!("${{coord:days({n})}}")] {
                if control != "timeout" && value.starts_with('$') {
                    continue;
                }
                let xml = App {
                    controls: format!("<controls><{control}>{value}</{control}></controls>"),
                    ..App::default()
                }
                .xml();
                let o = run(
                    &dir,
                    &format!("{control}-{n}-{}", value.len()),
                    &xml,
                    None,
                    &[],
                );
                // i64::MAX is no Java int (CO008); coord:days(n ≤ 0) is EL006.
                if n == "9223372036854775807" && !value.starts_with('$') {
                    assert!(
                        has(&o.check_codes, "CO008"),
                        "{control} {value}: {:?}",
                        o.check_codes
                    );
                }
            }
        }
    }
}

#[test]
fn datetimes_far_apart_and_tiny_frequencies_stay_bounded() {
    let dir = fresh_dir("limits-far");
    // Five-minute actions over eight thousand years, a one-minute dataset from
    // 1970 read in 9999, and the largest years.
    let cases = [
        App {
            frequency: "5",
            start: "1970-01-01T00:00Z",
            end: "9999-12-31T00:00Z",
            ..App::default()
        },
        App {
            dataset_frequency: "1",
            initial: "1970-01-01T00:00Z",
            start: "9999-01-01T00:00Z",
            end: "9999-01-02T00:00Z",
            ..App::default()
        },
        App {
            start: "999999-12-31T00:00Z",
            end: "9999999-12-31T23:00Z",
            ..App::default()
        },
        // The spec's 24:00 on the calendar's last day (a panic before).
        App {
            start: "262142-12-31T24:00Z",
            end: "262142-12-31T23:00Z",
            ..App::default()
        },
        App {
            frequency: "* * * * *",
            start: "1970-01-01T00:00Z",
            end: "9999-12-31T00:00Z",
            ..App::default()
        },
    ];
    for (i, app) in cases.iter().enumerate() {
        run(&dir, &format!("far-{i}"), &app.xml(), None, &[]);
    }
    let last_day = dir.join("far-3").join("coordinator.xml");
    let out = finished(
        &["check", "--format", "json", &last_day.to_string_lossy()],
        "last day",
    );
    assert!(
        stdout(&out).contains("\"code\":\"TM001\""),
        "{}",
        stdout(&out)
    );
    // A window that starts billions of actions after the start: refused with
    // the limit rather than walked.
    let file = dir.join("far-0").join("coordinator.xml");
    let out = finished(
        &[
            "dryrun",
            "--from",
            "9000-01-01T00:00Z",
            &file.to_string_lossy(),
        ],
        "window",
    );
    let text = format!("{}{}", stdout(&out), stderr(&out));
    assert!(
        text.contains("more than 10000000 actions come before"),
        "{text}"
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn eval_and_cron_at_the_extremes() {
    for n in EXTREMES {
        for expression in [
            format!("${{coord:dateOffset('2009-01-01T00:00Z', {n}, 'MINUTE')}}"),
            format!("${{coord:dateOffset('2009-01-01T00:00Z', {n}, 'YEAR')}}"),
            format!(
                "${{coord:formatTime(coord:dateOffset('2009-01-01T00:00Z', {n}, 'DAY'), 'yyyy')}}"
            ),
            format!("${{coord:days({n})}}"),
            format!("${{{n} / 0}} ${{{n} % 0}} ${{{n} * {n}}} ${{{n} % -1}} ${{-{n}}}"),
        ] {
            finished(&["eval", &expression], &expression);
            finished(
                &["eval", "--processing-timezone", "GMT+0900", &expression],
                &expression,
            );
        }
        for cron in [
            format!("*/{n} * * * *"),
            format!("0 0 1-{n} * *"),
            format!("0 0 ? * 2#{n}"),
            format!("0 0 {n}W * *"),
        ] {
            finished(&["cron", "--from", "2024-01-01T00:00Z", &cron], &cron);
        }
        finished(&["cron", "--count", n, "* * * * *"], n);
    }
    finished(
        &[
            "cron",
            "--from",
            "1970-01-01T00:00Z",
            "--to",
            "9999-12-31T00:00Z",
            "0 0 29 2 *",
        ],
        "far",
    );
    // At the calendar's ends, a wall time in the processing zone or another
    // zone is past them (the first and third were panics): an error.
    for (zone, expression) in [
        (
            "GMT+0900",
            "${coord:dateOffset('262142-12-31T14:00+0900', 15, 'HOUR')}",
        ),
        (
            "GMT-0900",
            "${coord:dateOffset('-262143-01-01T10:00-0900', -15, 'HOUR')}",
        ),
        (
            "GMT+0900",
            "${coord:dateTzOffset('262142-12-31T23:00+0900', 'Pacific/Kiritimati')}",
        ),
        (
            "GMT+0900",
            "${coord:dateOffset('262142-12-28T14:00+0900', 80, 'HOUR')}",
        ),
        (
            "UTC",
            "${coord:dateOffset('262142-12-29T14:00Z', 2, 'MONTH')}",
        ),
    ] {
        let out = finished(
            &["eval", "--processing-timezone", zone, expression],
            expression,
        );
        assert_eq!(out.status.code(), Some(1), "{expression}: {}", stdout(&out));
    }
}
