//! The suppressions (`<!-- coordc: ignore CODE -->`) that silenced nothing
//! in any check of their file.

use super::filters::apply_settings;
use super::pipeline::keep_text;
use super::{Report, Target, real};
use crate::check::suppress::{self, Suppression};
use crate::diag::{Located, Severity};
use crate::project::files::{Files, normal};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

/// SU002: the suppressions of each file that silenced nothing in any of its
/// checks (a file is checked alone and through each bundle that submits
/// it), said once, in its first report. Only for a file checked in full at
/// least once, without an error (an error can stop the checks after it)
/// and with its job's configuration (without one, values are not
/// evaluated): else a suppression may be unused only because its rule did
/// not run. A code not reported in the file (not selected, off, ignored)
/// is not said to be unused either.
pub(super) fn add_unused_suppressions(targets: &[Target], files: &Files, reports: &mut [Report]) {
    // The reports of each file with suppressions, by its real path.
    let mut by_file: BTreeMap<PathBuf, Vec<usize>> = BTreeMap::new();
    for (i, (target, report)) in targets.iter().zip(reports.iter()).enumerate() {
        if !report.silenced.is_empty() {
            by_file.entry(real(&target.path)).or_default().push(i);
        }
    }
    for checks in by_file.values() {
        let complete = checks.iter().any(|&i| {
            reports.get(i).is_some_and(|r| {
                r.io_error.is_none()
                    && !r.skipped
                    && !r.unconfigured()
                    && !r
                        .problems
                        .iter()
                        .any(|p| p.diagnostic.severity == Severity::Error)
            })
        });
        let (Some(&first), true) = (checks.first(), complete) else {
            continue;
        };
        // A code used in any check of the file is used.
        for &other in checks.iter().skip(1) {
            if let (Some(a), Some(b)) = (reports.get(first), reports.get(other)) {
                mark_used_as(&a.silenced, &b.silenced);
            }
        }
        let (Some(target), Some(report)) = (targets.get(first), reports.get_mut(first)) else {
            continue;
        };
        let folder = &target.folder;
        let path = normal(&target.path);
        let relative = path.strip_prefix(&folder.base).unwrap_or(&path);
        let reported = |code: &str| {
            let Some(rule) = crate::diag::rules::rule(code) else {
                return false;
            };
            folder.rules.contains(rule.code)
                && folder
                    .settings
                    .level(relative, rule.code, rule.severity)
                    .is_some()
        };
        let source = report
            .sources
            .files
            .first()
            .map(|(_, text)| Arc::clone(text));
        let source = match source {
            Some(text) => text,
            None => match files.read(&target.path) {
                Ok(text) => text,
                Err(_) => continue,
            },
        };
        let mut found: Vec<Located> = report
            .silenced
            .iter()
            .filter_map(|s| suppress::unused(s, &source, reported))
            .map(Located::in_app)
            .collect();
        report.unselected += apply_settings(target, &mut found);
        if !found.is_empty() && keep_text(target, files, report) {
            report.problems.extend(found);
            report
                .problems
                .sort_by_key(|p| (p.file.order(), p.diagnostic.span.start));
        }
    }
}

/// Marks in `into` the codes `from` used: the same file's suppressions, in
/// the same order (one text, read twice).
pub(super) fn mark_used_as(into: &[Suppression], from: &[Suppression]) {
    for (a, b) in into.iter().zip(from) {
        for (x, y) in a.codes.iter().zip(&b.codes) {
            if y.used() {
                x.mark_used();
            }
        }
    }
}
