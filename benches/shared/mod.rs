//! What the check benchmarks share.

use criterion::Criterion;
use std::path::Path;
use std::process::Command;

/// Asserts that `coordc check DIR --deny-warnings` finds nothing (an
/// error or warning there would make the figure the cost of rendering
/// diagnostics, not of checking).
pub fn assert_checks_clean(coordc: &str, dir: &Path) {
    let out = Command::new(coordc)
        .args([
            "check",
            dir.to_str().unwrap(),
            "--format",
            "json",
            "--deny-warnings",
        ])
        .output()
        .expect("coordc runs");
    let report = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        &report[..report.len().min(2000)]
    );
}

/// Measures `coordc check DIR --format json`, the process as a user runs
/// it, as benchmark `name` of the group `check`.
pub fn bench_check(c: &mut Criterion, name: &str, coordc: &str, dir: &Path) {
    let mut group = c.benchmark_group("check");
    group.sample_size(20);
    group.bench_function(name, |b| {
        b.iter(|| {
            let out = Command::new(coordc)
                .args(["check", dir.to_str().unwrap(), "--format", "json"])
                .output()
                .expect("coordc runs");
            assert!(out.status.success());
        })
    });
    group.finish();
}
