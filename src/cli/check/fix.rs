//! `coordc check --fix`: the edits diagnostics carry ([`crate::diag::Fix`])
//! applied to their files, each file once, and said. The same edits are what
//! an editor offers as quick fixes.

use crate::diag::render::Lines;
use crate::project::check::Report;
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::Arc;

/// One edit of one file, and what it fixes.
struct Edit<'r> {
    start: usize,
    end: usize,
    replacement: &'r str,
    code: &'static str,
}

/// Applies every fix of `reports` to its file and writes each fixed file
/// back; says each edit on `log` (`FILE:LINE:COL CODE: `OLD` -> `NEW``).
/// Edits that overlap an earlier one in the file are left (the next run
/// finds them again); a file that cannot be written is an error.
pub(super) fn apply(reports: &[Report], log: &mut dyn Write) -> Result<usize, String> {
    // Per file (by name, as it was read): its text and its edits.
    let mut files: BTreeMap<&str, (&Arc<str>, Vec<Edit>)> = BTreeMap::new();
    for report in reports {
        for p in &report.problems {
            let Some(fix) = &p.diagnostic.fix else {
                continue;
            };
            let Some((name, text)) = report.sources.files.get(p.file.unwrap_or(0)) else {
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
    let mut applied = 0;
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
            let _ = writeln!(
                log,
                "fixed {name}:{line}:{column} {}: `{}` -> `{}`",
                edit.code,
                &text[edit.start..edit.end],
                edit.replacement
            );
            applied += 1;
        }
        fixed.push_str(&text[at..]);
        if fixed != **text {
            std::fs::write(name, fixed)
                .map_err(|e| format!("cannot write the fixed {name}: {e}"))?;
        }
    }
    Ok(applied)
}
