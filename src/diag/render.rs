//! Human rendering of diagnostics (rustc-like: code, message, `--> file:line:col`,
//! numbered excerpt with carets, help). The only place that knows about terminals.

use crate::diag::{Diagnostic, Severity};
use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label as CsLabel};
use codespan_reporting::files::{self, Files, SimpleFile};
use codespan_reporting::term::{self, Config};

/// Lines longer than this (minified XML, a generated workflow on one line) are
/// shown as a window around the diagnostic.
const MAX_SHOWN_LINE: usize = 240;
/// Context kept on each side of the labels in such a window.
const WINDOW_CONTEXT: usize = 60;
const ELLIPSIS: &str = "…";

/// Renders `diag` against `source`, named `file_name` in the `-->` line.
pub fn human(diag: &Diagnostic, file_name: &str, source: &str) -> String {
    let clamp = |r: std::ops::Range<usize>| r.start.min(source.len())..r.end.min(source.len());
    let mut ranges = vec![clamp(diag.span.range())];
    ranges.extend(diag.labels.iter().map(|l| clamp(l.span.range())));
    let window = Window::around(source, &ranges);
    let file = WindowedFile {
        file: SimpleFile::new(file_name, window.text.as_str()),
        window: &window,
    };
    let mut cs = match diag.severity {
        Severity::Error => CsDiagnostic::error(),
        Severity::Warning => CsDiagnostic::warning(),
        Severity::Note => CsDiagnostic::note(),
    }
    .with_code(diag.code)
    .with_message(&diag.message);
    let mut labels = vec![CsLabel::primary((), window.map(&ranges[0]))];
    labels.extend(
        diag.labels
            .iter()
            .zip(&ranges[1..])
            .map(|(l, r)| CsLabel::secondary((), window.map(r)).with_message(&l.message)),
    );
    cs = cs.with_labels(labels);
    if let Some(help) = &diag.help {
        cs = cs.with_notes(vec![format!("help: {help}")]);
    }
    term::emit_into_string(&Config::default(), &file, &cs)
        .unwrap_or_else(|e| format!("{}: {}\n", diag.code, e))
}

/// The source as shown: itself, or with one overlong line cut down to the
/// part around the labels (when they are all on that line).
struct Window {
    text: String,
    cut: Option<Cut>,
}

struct Cut {
    /// The cut line's index.
    line: usize,
    /// The byte range of the original that is shown.
    kept: std::ops::Range<usize>,
    /// Where it starts in the shown text.
    shown_at: usize,
    /// Characters of the line dropped before it.
    dropped: usize,
}

impl Window {
    fn around(source: &str, ranges: &[std::ops::Range<usize>]) -> Window {
        let first = ranges.iter().map(|r| r.start).min().unwrap_or(0);
        let last = ranges.iter().map(|r| r.end).max().unwrap_or(0);
        let line_start = source[..first].rfind('\n').map_or(0, |i| i + 1);
        let line_end = source[first..]
            .find('\n')
            .map_or(source.len(), |i| first + i);
        if line_end - line_start <= MAX_SHOWN_LINE || last > line_end {
            return Window {
                text: source.to_string(),
                cut: None,
            };
        }
        let from =
            floor_char_boundary(source, first.saturating_sub(WINDOW_CONTEXT).max(line_start));
        let to = floor_char_boundary(source, (last + WINDOW_CONTEXT).min(line_end));
        let mut text =
            String::with_capacity(source.len() - (line_end - line_start) + (to - from) + 6);
        text.push_str(&source[..line_start]);
        if from > line_start {
            text.push_str(ELLIPSIS);
        }
        let shown_at = text.len();
        text.push_str(&source[from..to]);
        if to < line_end {
            text.push_str(ELLIPSIS);
        }
        text.push_str(&source[line_end..]);
        Window {
            text,
            cut: Some(Cut {
                line: source[..line_start].matches('\n').count(),
                kept: from..to,
                shown_at,
                dropped: source[line_start..from].chars().count(),
            }),
        }
    }

    /// A range of the original source, in the shown text.
    fn map(&self, r: &std::ops::Range<usize>) -> std::ops::Range<usize> {
        match &self.cut {
            None => r.clone(),
            Some(cut) => {
                let shift = |o: usize| {
                    o.clamp(cut.kept.start, cut.kept.end) - cut.kept.start + cut.shown_at
                };
                shift(r.start)..shift(r.end)
            }
        }
    }
}

/// The shown text, with the columns of the file: on a cut line, the
/// characters dropped before the window (less the ellipsis) are added back.
struct WindowedFile<'a> {
    file: SimpleFile<&'a str, &'a str>,
    window: &'a Window,
}

impl<'a> Files<'a> for WindowedFile<'a> {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: ()) -> Result<&'a str, files::Error> {
        Files::name(&self.file, id)
    }

    fn source(&'a self, id: ()) -> Result<&'a str, files::Error> {
        Files::source(&self.file, id)
    }

    fn line_index(&'a self, id: (), byte_index: usize) -> Result<usize, files::Error> {
        self.file.line_index(id, byte_index)
    }

    fn line_range(
        &'a self,
        id: (),
        line_index: usize,
    ) -> Result<std::ops::Range<usize>, files::Error> {
        self.file.line_range(id, line_index)
    }

    fn column_number(
        &'a self,
        id: (),
        line_index: usize,
        byte_index: usize,
    ) -> Result<usize, files::Error> {
        let shown = self.file.column_number(id, line_index, byte_index)?;
        Ok(match &self.window.cut {
            // The ellipsis stands for the dropped characters.
            Some(cut) if cut.line == line_index && cut.dropped > 0 => shown - 1 + cut.dropped,
            _ => shown,
        })
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::Span;

    #[test]
    fn an_overlong_line_is_shown_as_a_window_with_the_files_column() {
        let source = format!(
            "<a>\n{}<bad/>{}\n</a>\n",
            "x".repeat(1000),
            "y".repeat(1000)
        );
        let at = source.find("<bad/>").unwrap();
        let d = Diagnostic::error("XML004", Span::new(at + 1, at + 4), "here");
        let shown = human(&d, "f.xml", &source);
        // The header keeps the file's line and column; the excerpt is short.
        assert!(shown.contains("f.xml:2:1002"), "{shown}");
        let excerpt = shown.lines().find(|l| l.contains("<bad/>")).unwrap();
        assert!(excerpt.chars().count() < 200, "{excerpt}");
        assert!(excerpt.contains('…'), "{excerpt}");
        // The caret is under `bad`.
        let caret_line = shown.lines().find(|l| l.contains('^')).unwrap();
        let caret = caret_line[..caret_line.find('^').unwrap()].chars().count();
        let under: String = excerpt.chars().skip(caret).take(3).collect();
        assert_eq!(under, "bad", "{shown}");
        // A short line is shown whole.
        let d = Diagnostic::error("XML004", Span::new(1, 2), "here");
        assert!(human(&d, "f.xml", &source).contains("1 │ <a>"));
    }
}
