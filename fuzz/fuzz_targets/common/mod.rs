//! What the fuzz targets share: the job variables of the oracle cases, the
//! processing zones, the server's cron bound, and the rendering of diagnostics as the CLI prints them
//! (a diagnostic whose span cannot be rendered is a crash of `coordc` too).
//!
//! Included by each target with `mod common;`; not every target uses all of it.
#![allow(dead_code)]

use coordc::diag::Diagnostic;
use coordc::el::VarMap;
use coordc::time::cron::MaxYear;
use coordc::time::datetime::ProcessingZone;
use std::sync::OnceLock;

/// The variables of `tests/data/el_cases.jsonl` (the union of its
/// `vars`), and a few more that read as datetimes and zones.
pub fn vars() -> &'static VarMap {
    static VARS: OnceLock<VarMap> = OnceLock::new();
    VARS.get_or_init(|| {
        let pairs: &[(&str, Option<&str>)] = &[
            ("x", Some("7")),
            ("y", Some("2.5")),
            ("z", Some("-4")),
            ("s", Some("abc")),
            ("b", Some("true")),
            ("B", Some("TRUE")),
            ("f", Some("false")),
            ("e", Some("")),
            ("n", None),
            ("t", Some("12")),
            ("big", Some("9223372036854775807")),
            ("one", Some("1")),
            ("oneDot", Some("1.0")),
            ("sp", Some(" 7")),
            ("ten", Some("10")),
            ("nine", Some("9")),
            ("a_b", Some("ab")),
            ("$d", Some("dollar")),
            ("x1", Some("x-one")),
            ("sci", Some("1e2")),
            ("neg0", Some("-0")),
            ("hex", Some("0x1F")),
            ("zero", Some("0")),
            ("d", Some("07")),
            ("YEAR", Some("2009")),
            ("MONTH", Some("02")),
            ("user.name", Some("fuzz")),
            ("dt", Some("2009-01-01T00:00Z")),
            ("tz", Some("America/Los_Angeles")),
            ("nameNode", Some("hdfs://nn:8020")),
        ];
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.map(str::to_string)))
            .collect()
    })
}

/// Quartz's bound on the server the fuzzed jobs are submitted to: one
/// started in 2026 (a fixed year, so a run does not depend on the date).
pub fn cron_max_year() -> MaxYear {
    MaxYear::for_server_started_in(2026)
}

/// A processing zone picked by `n`: UTC most often, else a fixed offset
/// (the extremes Oozie accepts included).
pub fn processing_zone(n: u8) -> ProcessingZone {
    const IDS: &[&str] = &[
        "UTC", "UTC", "UTC", "GMT+0000", "GMT+0530", "GMT-0800", "GMT+2359", "GMT-2359",
    ];
    ProcessingZone::parse(IDS[n as usize % IDS.len()]).expect("a processing zone")
}

/// The instant of an Oozie datetime, or `None` after checking and rendering
/// the diagnostic that refuses it.
pub fn datetime(text: &str, pz: ProcessingZone) -> Option<chrono::DateTime<chrono::Utc>> {
    match coordc::time::datetime::parse_datetime(text, pz) {
        Ok(t) => Some(t.instant),
        Err(e) => {
            let d = e.to_diagnostic(0, pz);
            assert_span_in(&d, text);
            render(&d, text);
            None
        }
    }
}

/// Renders `d` against `text` as `coordc` prints it.
pub fn render(d: &Diagnostic, text: &str) {
    std::hint::black_box(coordc::diag::render::human(d, "fuzz", text));
}

/// A diagnostic's span (and its labels') must lie within the text it was
/// reported on (`base` 0): editors are sent these positions, and the CLI
/// renders them. A span may reach one byte past the end: "expected `Z`
/// here" at the end of a value marks the byte after it (the closing quote,
/// in a file). A span may split a character (a datetime's `T` expected where
/// a two-byte character stands): the renderer and the language server move
/// such an offset to the character's start.
pub fn assert_span_in(d: &Diagnostic, text: &str) {
    let mut spans = vec![d.span];
    spans.extend(d.labels.iter().map(|l| l.span));
    for s in spans {
        let (start, end) = (s.start as usize, s.end as usize);
        assert!(
            start <= end && start <= text.len() && end <= text.len() + 1,
            "span {start}..{end} outside a text of {} bytes: {} ({})",
            text.len(),
            d.message,
            d.code
        );
    }
}

/// `coordc check` of `paths`, read from `buffers` (by absolute path; folders
/// that do not exist on disk), every problem rendered as the CLI prints it.
/// A panic inside is caught by `check` (its file then gets an I/O error
/// saying so); libFuzzer's panic hook aborts first, so it is found.
pub fn check_buffers(
    paths: &[std::path::PathBuf],
    buffers: Vec<(std::path::PathBuf, std::sync::Arc<str>)>,
) {
    use coordc::project::check::{CheckOptions, check};
    use coordc::project::files::Files;
    let files = Files::with_buffers(buffers);
    let options = CheckOptions {
        configs: Vec::new(),
        defines: Vec::new(),
        maps: Vec::new(),
        processing_timezone: None,
        pipeline: true,
        ignored_folders: Vec::new(),
        keep_sources: false,
        selection: Default::default(),
        cron_max_year: cron_max_year(),
    };
    match check(paths, &options, &files) {
        Ok(checked) => {
            for report in &checked.reports {
                for p in &report.problems {
                    let rendered = report.sources.render(p);
                    if verbose() {
                        eprint!("{rendered}");
                    }
                    std::hint::black_box(rendered);
                }
                if verbose() {
                    if let Some(e) = &report.io_error {
                        eprintln!("I/O error: {e}");
                    }
                }
            }
        }
        Err(refused) => {
            let rendered = refused.render();
            if verbose() {
                eprint!("{rendered}");
            }
            std::hint::black_box(rendered);
        }
    }
}

pub mod apps;
pub mod mutate;

/// Where an application's files are put: a folder that is not on disk.
pub const APP_DIR: &str = "/fuzz/app";

/// `files` as editor buffers under [`APP_DIR`].
pub fn buffers(files: &[(&str, String)]) -> Vec<(std::path::PathBuf, std::sync::Arc<str>)> {
    files
        .iter()
        .map(|(p, t)| {
            (
                std::path::Path::new(APP_DIR).join(p),
                std::sync::Arc::from(t.as_str()),
            )
        })
        .collect()
}

/// Whether `FUZZ_VERBOSE` is set: the structure-aware targets then print the
/// files they check and what came of them (to read a crash's input:
/// `FUZZ_VERBOSE=1 cargo +nightly fuzz run TARGET fuzz/artifacts/TARGET/crash-...`).
pub fn verbose() -> bool {
    static VERBOSE: OnceLock<bool> = OnceLock::new();
    *VERBOSE.get_or_init(|| std::env::var_os("FUZZ_VERBOSE").is_some())
}

/// Prints `files` (path, text) when [`verbose`].
pub fn show_files(files: &[(&str, String)]) {
    if verbose() {
        for (path, text) in files {
            eprintln!("===== {path} ({} bytes)\n{text}", text.len());
        }
        eprintln!("=====");
    }
}
