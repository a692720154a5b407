//! Every case of tests/data/cron_cases.jsonl (the public cases) and
//! cron_generated_cases.jsonl (random crons from scripts/gen_cron_cases.py), all
//! computed by the real Quartz 2.3.2 driven exactly as Oozie 5.1+ drives it
//! (the development corpus's cron oracle, kept outside this repository),
//! through `coordc cron`: the same nominal times, or a
//! failure where Oozie fails. And cron_difffuzz_cases.jsonl: the findings of
//! the differential fuzzing (docs/robustness.md, scripts/difffuzz/
//! fidelity_cases.py), each answered by the same oracle; those marked
//! `coordc_refuses` are the deliberate differences, where coordc reports an
//! error for a text Quartz reads only in part.

use crate::common;

use common::{coordc, stderr, stdout};
use serde_json::Value;

#[test]
fn quartz_public_cases() {
    check_file(include_str!("../data/cron_cases.jsonl"), 470);
}

#[test]
fn quartz_generated_cases() {
    check_file(include_str!("../data/cron_generated_cases.jsonl"), 1500);
}

#[test]
fn differential_fuzzing_findings() {
    check_file(include_str!("../data/cron_difffuzz_cases.jsonl"), 60);
}

fn check_file(data: &str, min_cases: usize) {
    let mut checked = 0;
    let mut failures = Vec::new();
    for line in data.lines() {
        let case: Value = serde_json::from_str(line).unwrap();
        let s = |k: &str| case[k].as_str().unwrap().to_string();
        let mut args = vec![
            "cron".to_string(),
            s("cron"),
            "--from".into(),
            s("start"),
            "--to".into(),
            s("end"),
            "--timezone".into(),
            s("timezone"),
            "--format".into(),
            "json".into(),
        ];
        if let Some(max) = case["max"].as_u64() {
            args.extend(["--count".to_string(), max.to_string()]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = coordc(&args);
        let id = s("id");
        if let Some(reason) = case["coordc_refuses"].as_str() {
            if out.status.code() != Some(1) || !stderr(&out).contains("error[") {
                failures.push(format!(
                    "{id} {:?}: coordc refuses it on purpose ({reason}), but it answered {}",
                    s("cron"),
                    stdout(&out)
                ));
            }
        } else if case["expect_error"] == true {
            if out.status.code() != Some(1) || !stderr(&out).contains("error[") {
                failures.push(format!(
                    "{id} {:?}: expected an error, got {}",
                    s("cron"),
                    stdout(&out)
                ));
            }
        } else if out.status.code() != Some(0) {
            failures.push(format!("{id} {:?}: failed: {}", s("cron"), stderr(&out)));
        } else {
            let got: Value = serde_json::from_str(&stdout(&out)).unwrap();
            if got["times"] != case["expect"] {
                failures.push(format!(
                    "{id} {:?} {} {}..{}: expected {}, got {}",
                    s("cron"),
                    s("timezone"),
                    s("start"),
                    s("end"),
                    case["expect"],
                    got["times"]
                ));
            }
        }
        checked += 1;
    }
    assert!(checked >= min_cases, "{checked} cases");
    // Long time lists are cut so a failure report stays readable.
    let shown: Vec<String> = failures
        .iter()
        .take(15)
        .map(|f| f.chars().take(300).collect())
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {checked} cases differ:\n{}",
        failures.len(),
        shown.join("\n")
    );
}
