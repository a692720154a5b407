//! Human rendering of diagnostics (rustc-like: code, message, `--> file:line:col`,
//! numbered excerpt with carets, help, a `note:` for each place in another
//! file), plain or with a terminal's colours (ANSI escapes). The only place
//! that knows about terminals.

use crate::diag::{Diagnostic, Related, Severity};
use crate::lines::Chars;
use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label as CsLabel};
use codespan_reporting::files::{self, Files};
use codespan_reporting::term::termcolor::Ansi;
use codespan_reporting::term::{self, Config};

/// Lines longer than this (minified XML, a generated workflow on one line) are
/// shown as a window around the diagnostic.
const MAX_SHOWN_LINE: usize = 240;
/// Context kept on each side of the labels in such a window.
const WINDOW_CONTEXT: usize = 60;
const ELLIPSIS: &str = "…";

/// The lines of a text, with columns in characters as rustc counts them:
/// made once per file, so that rendering or locating many diagnostics in one
/// file costs each its own lines, not the file again.
pub(crate) type Lines = crate::lines::Lines<Chars>;

/// Renders `diag` against `source`, named `file_name` in the `-->` line.
pub fn human(diag: &Diagnostic, file_name: &str, source: &str) -> String {
    human_with(diag, file_name, source, &Lines::new(source))
}

/// [`human`], with the lines of `source` already found.
pub(crate) fn human_with(
    diag: &Diagnostic,
    file_name: &str,
    source: &str,
    lines: &Lines,
) -> String {
    human_styled(diag, file_name, source, lines, false, Vec::new())
}

/// [`human_with`], in colour (ANSI escapes) when `colour` says so, with
/// `notes` shown after the help (`= NOTE`). The related places are not
/// rendered here: [`related_note`] renders each against its own file.
pub(crate) fn human_styled(
    diag: &Diagnostic,
    file_name: &str,
    source: &str,
    lines: &Lines,
    colour: bool,
    notes: Vec<String>,
) -> String {
    if diag.whole_file {
        return without_excerpt(
            diag,
            &format!("in {file_name} (the whole file)"),
            colour,
            notes,
        );
    }
    let clamp = |r: std::ops::Range<usize>| {
        source.floor_char_boundary(r.start)..source.floor_char_boundary(r.end)
    };
    let primary = clamp(diag.span.range());
    let mut ranges = vec![primary.clone()];
    ranges.extend(diag.labels.iter().map(|l| clamp(l.span.range())));
    let excerpt = Excerpt::around(file_name, source, lines, &ranges);
    let mut cs = headline(diag);
    let mut labels = vec![CsLabel::primary((), excerpt.map(&primary))];
    labels.extend(
        diag.labels
            .iter()
            .zip(ranges.iter().skip(1))
            .map(|(l, r)| CsLabel::secondary((), excerpt.map(r)).with_message(&l.message)),
    );
    cs = cs.with_labels(labels);
    let notes = help_and(diag, notes);
    if !notes.is_empty() {
        cs = cs.with_notes(notes);
    }
    emit(&excerpt, &cs, colour).unwrap_or_else(|e| format!("{}: {}\n", diag.code, e))
}

/// The diagnostic's severity, code and message, as codespan heads it.
fn headline(diag: &Diagnostic) -> CsDiagnostic<()> {
    match diag.severity {
        Severity::Error => CsDiagnostic::error(),
        Severity::Warning => CsDiagnostic::warning(),
        Severity::Note => CsDiagnostic::note(),
    }
    .with_code(diag.code)
    .with_message(&diag.message)
}

/// The notes under it: its help, then `notes`.
fn help_and(diag: &Diagnostic, notes: Vec<String>) -> Vec<String> {
    diag.help
        .iter()
        .map(|help| format!("help: {help}"))
        .chain(notes)
        .collect()
}

/// A diagnostic about no place in a text (a whole file, the command line):
/// its message, then `where` and its help and `notes` as notes.
pub(crate) fn without_excerpt(
    diag: &Diagnostic,
    place: &str,
    colour: bool,
    notes: Vec<String>,
) -> String {
    let cs = headline(diag).with_notes(
        std::iter::once(place.to_string())
            .chain(help_and(diag, notes))
            .collect(),
    );
    let nothing = Excerpt::around("", "", &Lines::new(""), &[]);
    emit(&nothing, &cs, colour).unwrap_or_else(|e| format!("{}: {}\n", diag.code, e))
}

/// A place in another file, as rustc shows one: `note: message`, its
/// `--> file:line:col` and the excerpt, `source` being that file's text.
pub(crate) fn related_note(related: &Related, source: &str, lines: &Lines, colour: bool) -> String {
    let span = related.span.range();
    let span = source.floor_char_boundary(span.start)..source.floor_char_boundary(span.end);
    let excerpt = Excerpt::around(&related.file, source, lines, std::slice::from_ref(&span));
    let cs = CsDiagnostic::note()
        .with_message(&related.message)
        .with_labels(vec![CsLabel::primary((), excerpt.map(&span))]);
    emit(&excerpt, &cs, colour).unwrap_or_else(|e| format!("note: {}: {e}\n", related.message))
}

/// A related place whose file's text is not at hand: its message and file.
pub(crate) fn related_note_without_text(related: &Related) -> String {
    format!("note: {}\n  --> {}\n", related.message, related.file)
}

fn emit(excerpt: &Excerpt, cs: &CsDiagnostic<()>, colour: bool) -> Result<String, files::Error> {
    if !colour {
        return term::emit_into_string(&Config::default(), excerpt, cs);
    }
    let mut out = Ansi::new(Vec::new());
    term::emit_to_write_style(&mut out, &Config::default(), excerpt, cs)?;
    Ok(String::from_utf8_lossy(&out.into_inner()).into_owned())
}

/// The lines a diagnostic shows, from its first label's to its last's, as
/// the file numbers them; an overlong line (when all the labels are on it)
/// cut down to the part around them.
struct Excerpt<'a> {
    name: &'a str,
    /// The lines shown, with their line ends.
    text: String,
    /// The file's index of the first line shown.
    first_line: usize,
    /// The lines of `text`.
    lines: Lines,
    /// Where the first line shown starts in the file.
    file_start: usize,
    cut: Option<Cut>,
}

struct Cut {
    /// The byte range of the original that is shown.
    kept: std::ops::Range<usize>,
    /// Where it starts in the shown text.
    shown_at: usize,
    /// Characters of the line dropped before it.
    dropped: usize,
}

impl<'a> Excerpt<'a> {
    fn around(
        name: &'a str,
        source: &str,
        lines: &Lines,
        ranges: &[std::ops::Range<usize>],
    ) -> Excerpt<'a> {
        let first = ranges.iter().map(|r| r.start).min().unwrap_or(0);
        let last = ranges.iter().map(|r| r.end).max().unwrap_or(0);
        let first_line = lines.line(first);
        let last_line = lines.line(last);
        let line = lines.range(source, first_line);
        let file_start = line.start;
        if first_line == last_line && line.len() > MAX_SHOWN_LINE {
            let from =
                source.floor_char_boundary(first.saturating_sub(WINDOW_CONTEXT).max(line.start));
            let to = source.floor_char_boundary((last + WINDOW_CONTEXT).min(line.end));
            let mut text = String::with_capacity(to - from + 8);
            if from > line.start {
                text.push_str(ELLIPSIS);
            }
            let shown_at = text.len();
            text.push_str(&source[from..to]);
            if to < line.end {
                text.push_str(ELLIPSIS);
            }
            text.push('\n');
            return Excerpt {
                name,
                lines: Lines::new(&text),
                text,
                first_line,
                file_start,
                cut: Some(Cut {
                    kept: from..to,
                    shown_at,
                    // (`from` is on the line.)
                    dropped: lines.position(source, from).1,
                }),
            };
        }
        let end = lines.range(source, last_line).end;
        let text = source
            .get(file_start..(end + 1).min(source.len()))
            .unwrap_or("")
            .to_string();
        Excerpt {
            name,
            lines: Lines::new(&text),
            text,
            first_line,
            file_start,
            cut: None,
        }
    }

    /// A range of the file, in the shown text.
    fn map(&self, r: &std::ops::Range<usize>) -> std::ops::Range<usize> {
        match &self.cut {
            None => {
                let shift = |o: usize| (o - self.file_start).min(self.text.len());
                shift(r.start)..shift(r.end)
            }
            Some(cut) => {
                let shift = |o: usize| {
                    o.clamp(cut.kept.start, cut.kept.end) - cut.kept.start + cut.shown_at
                };
                shift(r.start)..shift(r.end)
            }
        }
    }
}

impl<'a> Files<'a> for Excerpt<'a> {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, (): ()) -> Result<&'a str, files::Error> {
        Ok(self.name)
    }

    fn source(&'a self, (): ()) -> Result<&'a str, files::Error> {
        Ok(&self.text)
    }

    fn line_index(&'a self, (): (), byte_index: usize) -> Result<usize, files::Error> {
        // (The end of a text ending in `\n` is on the last line shown, not
        // on the empty line after it.)
        let last = self.text.len().saturating_sub(1);
        Ok(self.first_line + self.lines.line(byte_index.min(last)))
    }

    fn line_range(
        &'a self,
        (): (),
        line_index: usize,
    ) -> Result<std::ops::Range<usize>, files::Error> {
        // (A line outside the excerpt is shown empty.)
        let Some(local) = line_index.checked_sub(self.first_line) else {
            return Ok(0..0);
        };
        // (Up to the next line's start: codespan's lines keep their `\n`.)
        let start = self.lines.range(&self.text, local).start;
        let end = self.lines.range(&self.text, local.saturating_add(1)).start;
        Ok(start..end)
    }

    fn column_number(
        &'a self,
        (): (),
        line_index: usize,
        byte_index: usize,
    ) -> Result<usize, files::Error> {
        let start = self.line_range((), line_index)?.start;
        let shown = self
            .lines
            .units_before(&self.text, byte_index)
            .saturating_sub(self.lines.units_before(&self.text, start))
            + 1;
        Ok(match &self.cut {
            // The ellipsis stands for the dropped characters.
            Some(cut) if cut.dropped > 0 => shown - 1 + cut.dropped,
            _ => shown,
        })
    }
}

/// 1-based line and column (in characters) of a byte offset. For many
/// offsets in one text, build its [`Lines`] once instead.
pub(crate) fn line_column(source: &str, offset: usize) -> (usize, usize) {
    // (Only the text before `offset` counts: no need to index the rest.)
    let before = source
        .get(..source.floor_char_boundary(offset))
        .unwrap_or("");
    Lines::new(before).line_column(before, before.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::rules::XML_CONTENT;
    use crate::span::Span;

    #[test]
    fn a_diagnostic_about_a_whole_file_shows_no_place_in_it() {
        let d = Diagnostic::about_whole_file(XML_CONTENT, "not text").with_help("save it as text");
        assert_eq!(
            human(&d, "f.xml", "whatever"),
            "error[XML004]: not text\n = in f.xml (the whole file)\n = help: save it as text\n\n"
        );
    }

    #[test]
    fn an_overlong_line_is_shown_as_a_window_with_the_files_column() {
        let source = format!(
            "<a>\n{}<bad/>{}\n</a>\n",
            "x".repeat(1000),
            "y".repeat(1000)
        );
        let at = source.find("<bad/>").unwrap();
        let d = Diagnostic::error(XML_CONTENT, Span::new(at + 1, at + 4), "here");
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
        let d = Diagnostic::error(XML_CONTENT, Span::new(1, 2), "here");
        assert!(human(&d, "f.xml", &source).contains("1 │ <a>"));
    }

    #[test]
    fn colour_is_ansi_escapes_around_the_same_text() {
        let source = "<a>\n  <b/>\n</a>\n";
        let d = Diagnostic::warning(XML_CONTENT, Span::new(7, 8), "here");
        let lines = Lines::new(source);
        let plain = human_styled(&d, "f.xml", source, &lines, false, Vec::new());
        let coloured = human_styled(&d, "f.xml", source, &lines, true, Vec::new());
        assert!(!plain.contains('\x1b'));
        assert!(coloured.contains("\x1b["), "{coloured:?}");
        // Without its escapes, the coloured text is the plain one.
        let escapes = regex::Regex::new("\x1b\\[[0-9;]*m").unwrap();
        assert_eq!(escapes.replace_all(&coloured, ""), plain);
    }

    #[test]
    fn a_related_place_is_a_note_at_its_own_file() {
        let other = "<x>\n  <data-out name=\"o\"/>\n</x>\n";
        let at = other.find("<data-out").unwrap();
        let related = Related {
            file: "other.xml".into(),
            span: Span::new(at, at + 9),
            message: "written here too".to_string(),
        };
        let shown = related_note(&related, other, &Lines::new(other), false);
        assert!(shown.starts_with("note: written here too\n"), "{shown}");
        assert!(shown.contains("┌─ other.xml:2:3"), "{shown}");
        assert!(shown.contains("^^^^^^^^^"), "{shown}");
    }
}
