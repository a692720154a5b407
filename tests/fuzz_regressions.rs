//! Every input a fuzzer found a crash with (`tests/data/fuzz/TARGET-NAME`,
//! docs/robustness.md) goes through the binary again, as the fuzz target
//! fed it to the library: it must end with a diagnostic or an answer, never
//! a panic.

mod common;

use std::path::Path;

/// The coordc command that reads `input` as the fuzz target `target` did.
fn run_as(target: &str, input: &[u8], dir: &Path) -> std::process::Output {
    let text = String::from_utf8_lossy(input).into_owned();
    let file = |name: &str| {
        let path = dir.join(name);
        std::fs::write(&path, input).expect("written");
        path.to_string_lossy().into_owned()
    };
    match target {
        "cron" => {
            // The target's lines: the cron, a start, a zone (the start is
            // replaced: no finding needed one).
            let mut lines = text.split('\n');
            let cron = lines.next().unwrap_or_default();
            let mut args = vec!["cron", cron, "--from", "2024-01-01T00:00Z", "--count", "5"];
            if let Some(zone) = lines.nth(1).filter(|z| !z.is_empty()) {
                args.extend(["--timezone", zone]);
            }
            common::coordc(&args)
        }
        "el" => common::coordc(&["eval", &text]),
        "xml_check" | "xml_check_structured" => common::coordc(&["check", &file("app.xml")]),
        "properties" => {
            let app =
                Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/invalid/TM005/coordinator.xml");
            common::coordc(&[
                "check",
                "--config",
                &file("job.properties"),
                app.to_str().expect("a path"),
            ])
        }
        "dryrun" => common::coordc(&["dryrun", &file("coordinator.xml"), "--limit", "20"]),
        other => panic!("tests/data/fuzz: no way to replay target `{other}`: add one here"),
    }
}

#[test]
fn every_fuzz_finding_ends_without_a_panic() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz");
    let mut entries: Vec<_> = std::fs::read_dir(&data)
        .expect("tests/data/fuzz")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    entries.sort();
    assert!(!entries.is_empty(), "no findings to replay");
    let dir = common::fresh_dir("fuzz-regressions");
    for path in entries {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        // (The target is the name's part before the last `-`-separated
        // words: `cron-lone-slash` is the `cron` target's.)
        let target = [
            "xml_check_structured",
            "xml_check",
            "datetime_zone_frequency",
            "properties",
            "simulate",
            "dryrun",
            "cron",
            "el",
        ]
        .into_iter()
        .find(|t| name.starts_with(&format!("{t}-")))
        .unwrap_or_else(|| panic!("{name}: which fuzz target is it from?"));
        let input = std::fs::read(&path).expect("the input");
        let out = run_as(target, &input, &dir);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{name}: {stderr}");
        assert!(
            matches!(out.status.code(), Some(0..=2)),
            "{name}: {:?} {stderr}",
            out.status
        );
    }
}
