//! What is reported of the problems found: the rules selected and the levels
//! of each file's folder, at most [`MOST_PER_CODE`] of a code, and each
//! problem once.

use super::{Report, Target, real};
use crate::diag::rules::{Code, Finding};
use crate::diag::{Diagnostic, FileRef, Located};
use crate::project::files::normal;
use crate::span::Span;
use rustc_hash::FxHashMap;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The rules selected for the folder, and its coordc.toml levels and
/// ignores, on `problems` of `target`; how many were left out because
/// their rule is not selected.
pub(super) fn apply_settings(target: &Target, problems: &mut Vec<Located>) -> usize {
    if problems.is_empty() {
        return 0;
    }
    let folder = &target.folder;
    let path = normal(&target.path);
    let relative = path.strip_prefix(&folder.base).unwrap_or(&path);
    let before = problems.len();
    problems.retain(|p| folder.rules.contains(p.diagnostic.code));
    let unselected = before - problems.len();
    problems.retain_mut(|p| {
        match folder
            .settings
            .level(relative, p.diagnostic.code, p.diagnostic.severity)
        {
            Some(severity) => {
                p.diagnostic.severity = severity;
                true
            }
            None => false,
        }
    });
    limit_per_code(problems);
    unselected
}

/// How many problems of one code in one file are reported; past it, one
/// more says how many were left out. 300,000 attributes on one element
/// are as many XML005s: rendering them took seconds, and no one reads them.
pub const MOST_PER_CODE: usize = 100;

/// Keeps the first [`MOST_PER_CODE`] problems of each code in each file,
/// and says, at the last one kept, how many more there were.
fn limit_per_code(problems: &mut Vec<Located>) {
    if problems.len() <= MOST_PER_CODE {
        return;
    }
    let mut seen: FxHashMap<(FileRef, Code), usize> = FxHashMap::default();
    let mut last_kept: Vec<((FileRef, Code), usize)> = Vec::new();
    let mut kept = 0;
    for at in 0..problems.len() {
        let Some(problem) = problems.get(at) else {
            break;
        };
        let key = (problem.file, problem.diagnostic.code);
        let count = seen.entry(key).or_insert(0);
        *count += 1;
        if *count <= MOST_PER_CODE {
            if *count == MOST_PER_CODE {
                last_kept.push((key, kept));
            }
            problems.swap(kept, at);
            kept += 1;
        }
    }
    problems.truncate(kept);
    for (key, at) in last_kept {
        let more = seen
            .get(&key)
            .map_or(0, |count| count.saturating_sub(MOST_PER_CODE));
        if more == 0 {
            continue;
        }
        // (`at` is below `kept`, the length after the truncation.)
        let Some(last) = problems.get(at) else {
            continue;
        };
        let severity = last.diagnostic.severity;
        let mut summary = Diagnostic::error(
            key.1,
            last.diagnostic.span,
            format!(
                "and {more} more {} problem(s) in this file, not shown: coordc reports the first {MOST_PER_CODE} of each code in a file",
                key.1
            ),
        );
        summary.severity = severity;
        summary = summary.with_help("fix these and check again to see the rest");
        problems.push(Located {
            file: key.0,
            diagnostic: summary,
        });
    }
}

/// When bundles brought their coordinators in, each problem once: a file
/// checked both alone and through a bundle (or through two bundles, or
/// twice through one) finds some problems in each check. Kept where first
/// reported, in the order of the reports.
pub(super) fn report_each_problem_once(targets: &[Target], reports: &mut [Report]) {
    if !reports.iter().any(|r| r.bundle.is_some()) {
        return;
    }
    // (A problem is told from another by its file, code, place and message.)
    let mut seen: HashSet<(PathBuf, Code, u32, u32, String)> = HashSet::new();
    for (target, report) in targets.iter().zip(reports.iter_mut()) {
        let path = real(&target.path);
        let files: Vec<PathBuf> = report
            .sources
            .files
            .iter()
            .enumerate()
            .map(|(i, (name, _))| {
                if i == 0 {
                    path.clone()
                } else {
                    real(Path::new(name))
                }
            })
            .collect();
        report.problems.retain(|p| {
            let d = &p.diagnostic;
            let file = files
                .get(report.sources.index(p.file))
                .cloned()
                .unwrap_or_default();
            seen.insert((file, d.code, d.span.start, d.span.end, d.message.clone()))
        });
    }
}

/// One report of each problem: the static checks and the evaluation can find
/// the same one at the same place. Each rule's [`Finding`] says how its
/// findings follow from others: an evaluation fault (EL005 to EL007, a
/// datetime that does not parse) inside a text fault's span is that fault's
/// consequence (an argument that cannot convert fails to convert; a
/// misplaced function has no context; a dotted name's variable is
/// undefined; an instance list is no datetime), and so is a data-in's or
/// data-out's dataset whose name failed to evaluate where the failure is
/// reported.
pub(super) fn dedup(mut problems: Vec<Located>) -> Vec<Located> {
    let finding = |p: &Located| p.diagnostic.code.rule().map(|r| r.finding);
    let spans_of = |kind: Finding| -> Vec<(FileRef, Span)> {
        problems
            .iter()
            .filter(|p| finding(p) == Some(kind))
            .map(|p| (p.file, p.diagnostic.span))
            .collect()
    };
    let text_faults = spans_of(Finding::TextFault);
    let evaluation_faults = spans_of(Finding::EvaluationFault);
    let mut seen = HashSet::new();
    problems.retain(|p| {
        let span = p.diagnostic.span;
        let consequence = match finding(p) {
            Some(Finding::EvaluationFault) => text_faults
                .iter()
                .any(|(file, s)| *file == p.file && s.start <= span.start && span.end <= s.end),
            Some(Finding::UnresolvedName) => evaluation_faults.contains(&(p.file, span)),
            _ => false,
        };
        !consequence && seen.insert((p.file, p.diagnostic.code, span))
    });
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Severity;
    use crate::diag::rules::{EL_SYNTAX, XML_ATTRIBUTE};

    fn problem(file: FileRef, code: Code, at: usize) -> Located {
        Located {
            file,
            diagnostic: Diagnostic::warning(code, Span::new(at, at + 1), format!("{code} {at}")),
        }
    }

    #[test]
    fn problems_are_limited_per_code_and_file() {
        let mut problems: Vec<Located> = (0..250)
            .map(|i| problem(FileRef::App, XML_ATTRIBUTE, i))
            .collect();
        problems.extend((0..3).map(|i| problem(FileRef::App, EL_SYNTAX, 1_000 + i)));
        problems.extend((0..150).map(|i| problem(FileRef::Read(1), XML_ATTRIBUTE, i)));
        problems.extend((0..MOST_PER_CODE).map(|i| problem(FileRef::Read(2), XML_ATTRIBUTE, i)));
        limit_per_code(&mut problems);
        let count = |file, code| {
            problems
                .iter()
                .filter(|p| p.file == file && p.diagnostic.code == code)
                .count()
        };
        // The first hundred of each, and one more saying how many were left.
        assert_eq!(count(FileRef::App, XML_ATTRIBUTE), MOST_PER_CODE + 1);
        assert_eq!(count(FileRef::Read(1), XML_ATTRIBUTE), MOST_PER_CODE + 1);
        assert_eq!(count(FileRef::Read(2), XML_ATTRIBUTE), MOST_PER_CODE);
        assert_eq!(count(FileRef::App, EL_SYNTAX), 3);
        let kept: Vec<&str> = problems
            .iter()
            .filter(|p| p.file == FileRef::App && p.diagnostic.code == XML_ATTRIBUTE)
            .map(|p| p.diagnostic.message.as_str())
            .collect();
        assert_eq!(kept[0], "XML005 0");
        assert_eq!(kept[99], "XML005 99");
        assert!(
            kept[100].starts_with("and 150 more XML005 problem(s) in this file"),
            "{}",
            kept[100]
        );
        let summary = problems.last().expect("a summary");
        assert_eq!(summary.diagnostic.severity, Severity::Warning);
        assert!(summary.diagnostic.message.starts_with("and 50 more"));
        assert_eq!(summary.diagnostic.span, Span::new(99, 100));
    }
}
