//! What the check benchmarks share.

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
