//! Human rendering of diagnostics (rustc-like: code, message, `--> file:line:col`,
//! numbered excerpt with carets, help). The only place that knows about terminals.

use crate::diag::{Diagnostic, Severity};
use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label as CsLabel};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, Config};

/// Renders `diag` against `source`, named `file_name` in the `-->` line.
pub fn human(diag: &Diagnostic, file_name: &str, source: &str) -> String {
    let file = SimpleFile::new(file_name, source);
    let clamp = |r: std::ops::Range<usize>| r.start.min(source.len())..r.end.min(source.len());
    let mut cs = match diag.severity {
        Severity::Error => CsDiagnostic::error(),
        Severity::Warning => CsDiagnostic::warning(),
        Severity::Note => CsDiagnostic::note(),
    }
    .with_code(diag.code)
    .with_message(&diag.message);
    let mut labels = vec![CsLabel::primary((), clamp(diag.span.range()))];
    labels.extend(
        diag.labels
            .iter()
            .map(|l| CsLabel::secondary((), clamp(l.span.range())).with_message(&l.message)),
    );
    cs = cs.with_labels(labels);
    if let Some(help) = &diag.help {
        cs = cs.with_notes(vec![format!("help: {help}")]);
    }
    term::emit_into_string(&Config::default(), &file, &cs)
        .unwrap_or_else(|e| format!("{}: {}\n", diag.code, e))
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_column(source: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(source.len());
    let before = &source[..floor_char_boundary(source, offset)];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}
