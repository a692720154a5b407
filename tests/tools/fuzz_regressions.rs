//! Every input a fuzzer found a crash with (`tests/data/fuzz/TARGET-NAME`,
//! docs/robustness.md) goes through the binary again, as the fuzz target
//! fed it to the library: it must end with a diagnostic or an answer, never
//! a panic. A structure-aware target's input (`xml_check_structured`, and
//! `dryrun` when it needs more than its coordinator) is kept as the files it
//! stands for, as `FUZZ_VERBOSE=1` prints them.

use crate::common;

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
        "xml_check" => common::coordc(&["check", &file("app.xml")]),
        "xml_check_structured" => common::coordc(&["check", &write_printed(&text, dir)]),
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
        "dryrun" => {
            let app = if text.starts_with("===== ") {
                write_printed(&text, dir)
            } else {
                file("coordinator.xml")
            };
            common::coordc(&["dryrun", &app, "--limit", "20"])
        }
        other => panic!("tests/data/fuzz: no way to replay target `{other}`: add one here"),
    }
}

/// Writes the files of `printed` ([`printed_files`]) to `dir`: the path
/// of the first, the application.
fn write_printed(printed: &str, dir: &Path) -> String {
    let files = printed_files(printed);
    for (name, content) in &files {
        std::fs::write(dir.join(name), content).expect("written");
    }
    let (app, _) = files.first().expect("a printed file");
    dir.join(app).to_string_lossy().into_owned()
}

/// The files in `FUZZ_VERBOSE` output (`common::show_files` of the fuzz
/// targets): `===== NAME (N bytes)`, a line break, the N bytes and a line
/// break each, then `=====`. The first is the one checked.
fn printed_files(text: &str) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let mut rest = text;
    while let Some(header_end) = rest.find('\n') {
        let header = &rest[..header_end];
        let Some((name, size)) = header
            .strip_prefix("===== ")
            .and_then(|h| h.strip_suffix(" bytes)"))
            .and_then(|h| h.rsplit_once(" ("))
        else {
            break;
        };
        let size: usize = size.parse().expect("a byte count");
        let body = &rest[header_end + 1..];
        files.push((name.to_string(), body[..size].to_string()));
        rest = &body[size + 1..];
    }
    assert!(rest.starts_with("====="), "printed files end with `=====`");
    files
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
