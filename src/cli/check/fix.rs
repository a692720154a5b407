//! `coordc check --fix`, `--unsafe-fixes` and `--diff`: the edits
//! diagnostics carry ([`crate::diag::Fix`]), those the safety asked for
//! applied to the files' texts, each file once, and said; written back, or
//! shown as a unified diff. The same edits are what an editor offers as quick
//! fixes.

use crate::diag::render::Lines;
use crate::diag::rules::Code;
use crate::diag::{Fix, Safety};
use crate::project::check::Report;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Whether `fix` is applied: a safe one always, an unsafe one only with
/// `--unsafe-fixes`.
pub(super) fn applies(fix: &Fix, unsafe_fixes: bool) -> bool {
    unsafe_fixes || fix.safety() == Safety::Safe
}

/// One edit of one file, and what it fixes.
struct Edit<'r> {
    start: usize,
    end: usize,
    replacement: &'r str,
    code: Code,
}

/// A file the fixes changed: its name (as it was read), its text before and
/// after.
pub(super) struct FixedFile {
    pub name: String,
    pub before: Arc<str>,
    pub after: String,
}

/// The fixes of `reports` that [`applies`] allows, applied to their files'
/// texts (nothing is written); each edit said in `said` (`FILE:LINE:COL
/// CODE: `OLD` -> `NEW``). Edits that overlap an earlier one in the file are
/// left (the next pass finds them again).
pub(super) fn apply(
    reports: &[Report],
    unsafe_fixes: bool,
    said: &mut Vec<String>,
) -> Vec<FixedFile> {
    // Per file (by name, as it was read): its text and its edits.
    let mut files: BTreeMap<&str, (&Arc<str>, Vec<Edit>)> = BTreeMap::new();
    for report in reports {
        for p in &report.problems {
            let Some(fix) = p
                .diagnostic
                .fix
                .as_ref()
                .filter(|fix| applies(fix, unsafe_fixes))
            else {
                continue;
            };
            let Some((name, text)) = report.sources.files.get(report.sources.index(p.file)) else {
                continue;
            };
            let range = fix.span.range();
            if range.end > text.len()
                || !text.is_char_boundary(range.start)
                || !text.is_char_boundary(range.end)
            {
                continue;
            }
            let entry = files
                .entry(name.as_str())
                .or_insert_with(|| (text, Vec::new()));
            entry.1.push(Edit {
                start: range.start,
                end: range.end,
                replacement: &fix.replacement,
                code: p.diagnostic.code,
            });
        }
    }
    let mut changed = Vec::new();
    for (name, (text, mut edits)) in files {
        edits.sort_by_key(|e| (e.start, e.end));
        // (One file can be reported from several applications: the same
        // edit once.)
        edits.dedup_by(|a, b| {
            a.start == b.start && a.end == b.end && a.replacement == b.replacement
        });
        let mut fixed = String::with_capacity(text.len());
        let lines = Lines::new(text);
        let mut at = 0;
        for edit in &edits {
            if edit.start < at {
                continue;
            }
            fixed.push_str(&text[at..edit.start]);
            fixed.push_str(edit.replacement);
            at = edit.end;
            let (line, column) = lines.line_column(text, edit.start);
            said.push(format!(
                "{name}:{line}:{column} {}: `{}` -> `{}`",
                edit.code,
                &text[edit.start..edit.end],
                edit.replacement
            ));
        }
        fixed.push_str(&text[at..]);
        if fixed != **text {
            changed.push(FixedFile {
                name: name.to_string(),
                before: Arc::clone(text),
                after: fixed,
            });
        }
    }
    changed
}

/// How many of the problems of `reports` have a fix of each safety: (safe,
/// unsafe).
pub(super) fn available(reports: &[Report]) -> (usize, usize) {
    let fixes = reports
        .iter()
        .flat_map(|r| &r.problems)
        .filter_map(|p| p.diagnostic.fix.as_ref());
    fixes.fold((0, 0), |(safe, not), fix| match fix.safety() {
        Safety::Safe => (safe + 1, not),
        Safety::Unsafe => (safe, not + 1),
    })
}

/// The unified diff (3 lines of context) from `before` to `after` of the
/// file `name`, its headers `--- name` and `+++ name`.
pub(super) fn unified_diff(name: &str, before: &str, after: &str) -> String {
    similar::TextDiff::from_lines(before, after)
        .unified_diff()
        .context_radius(3)
        .header(name, name)
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diff_shows_the_changed_line_in_its_context() {
        let before = "a\nb\nc\nd\ne\nf\ng\n";
        let after = "a\nb\nc\nD\ne\nf\ng\n";
        assert_eq!(
            unified_diff("x.xml", before, after),
            "--- x.xml\n+++ x.xml\n@@ -1,7 +1,7 @@\n a\n b\n c\n-d\n+D\n e\n f\n g\n"
        );
    }

    #[test]
    fn a_file_without_a_final_newline_says_so() {
        let diff = unified_diff("x.xml", "a", "b");
        assert!(diff.contains("\\ No newline at end of file"), "{diff}");
    }
}
