//! `coordc cron` and `coordc timezones` as a user runs them.

use crate::common;

use common::{coordc, stderr, stdout};

#[test]
fn cron_text_output_shows_local_time_and_dst_shift() {
    // `10 23 * * *` in LA from 2016-03-11T23:10Z gives 23:10Z, 23:10Z, 22:10Z,
    // 22:10Z: a daily cron's nominal time is shifted by the DST difference from
    // the start (OOZIE-2494, CMT:580-591; docs/time.md).
    let out = coordc(&[
        "cron",
        "10 23 * * *",
        "--from",
        "2016-03-11T23:10Z",
        "--count",
        "4",
        "--timezone",
        "America/Los_Angeles",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    insta::assert_snapshot!("cron_text_dst", stdout(&out));
    // As `coordc check` warns for this frequency in an LA job (CR008): the
    // cron is read in the processing zone, UTC.
    assert!(
        stderr(&out).starts_with("warning[CR008]: Oozie evaluates the cron `10 23 * * *` in the processing zone (UTC), not in the job's America/Los_Angeles"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn cron_errors_point_at_the_field() {
    for (cron, code) in [
        ("0 24 * * *", "CR002"),
        ("@daily", "CR001"),
        ("0 0 * * 0", "CR002"),
        ("0 10 30 2 *", "CR003"),
    ] {
        let out = coordc(&["cron", cron, "--from", "2013-01-01T00:00Z"]);
        assert_eq!(out.status.code(), Some(1), "{cron}");
        assert!(
            stderr(&out).contains(&format!("error[{code}]")),
            "{cron}: {}",
            stderr(&out)
        );
    }
    insta::assert_snapshot!("cron_range_error", stderr(&coordc(&["cron", "0 0 * * 0"])));
    let out = coordc(&["cron", "0 0 * * *", "--timezone", "Americas/Los_Angeles"]);
    insta::assert_snapshot!("cron_unknown_zone", stderr(&out));
    let out = coordc(&["cron", "0 0 * * *", "--from", "2009-01-01T00:15:00Z"]);
    insta::assert_snapshot!("cron_bad_datetime", stderr(&out));
}

#[test]
fn timezones_lists_java_ids_with_offsets() {
    let out = coordc(&["timezones", "--at", "2024-07-01T00:00Z", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let zones = v["timezones"].as_array().unwrap();
    assert!(zones.len() > 500, "{}", zones.len());
    let find = |id: &str| zones.iter().find(|z| z["id"] == id).cloned();
    let la = find("America/Los_Angeles").unwrap();
    assert_eq!(
        (la["offset"].as_str(), la["dst"].as_bool()),
        (Some("-07:00"), Some(true))
    );
    let kolkata = find("Asia/Kolkata").unwrap();
    assert_eq!(
        (kolkata["offset"].as_str(), kolkata["dst"].as_bool()),
        (Some("+05:30"), Some(false))
    );
    let pst = find("PST").unwrap();
    assert_eq!(
        (pst["offset"].as_str(), pst["legacy"].as_bool()),
        (Some("-07:00"), Some(true))
    );
    assert!(find("ROC").is_none() && find("america/los_angeles").is_none());
}
