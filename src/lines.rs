//! Where a text's lines start, and how many column units come before a point
//! of it. One index serves the diagnostics renderer (lines end at `\n`,
//! columns in characters, as rustc has them) and the language server (lines
//! end at `\n`, `\r\n` or a lone `\r`, columns in UTF-16 units, as LSP has
//! them), so both find lines and count columns the same way.

use std::marker::PhantomData;
use std::ops::Range;

/// The 0-based line (lines end at `\n`) of byte `offset` of `text`, found
/// without an index: for one lookup in a text, where making [`Lines`] would
/// cost more. Past the end, the last line.
pub(crate) fn line_of(text: &str, offset: usize) -> usize {
    let before = text
        .as_bytes()
        .get(..offset.min(text.len()))
        .unwrap_or_default();
    before.iter().filter(|&&b| b == b'\n').count()
}

/// What a column counts.
pub(crate) trait Unit {
    /// The units `c` takes. An ASCII character must take 1: an ASCII text's
    /// columns are counted as bytes, without looking at the text.
    fn len(c: char) -> usize;
}

/// Columns in characters, as rustc and `file:line:column` readers count.
pub(crate) struct Chars;

impl Unit for Chars {
    fn len(_: char) -> usize {
        1
    }
}

/// Columns in UTF-16 code units, the encoding every LSP client accepts.
pub(crate) struct Utf16;

impl Unit for Utf16 {
    fn len(c: char) -> usize {
        c.len_utf16()
    }
}

/// What ends a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Breaks {
    /// `\n` only, as rustc has it (a `\r` before it stays on the line).
    Newline,
    /// `\n`, `\r\n` or a lone `\r`, as LSP has it.
    Any,
}

/// The lines of a text and, when it is not ASCII, the `U` units before
/// points spread through it, so that a column on a long line costs a short
/// count, not the line's. Made once per text, so that locating many points
/// in it costs each its own line, not the text again.
pub(crate) struct Lines<U> {
    /// The byte offset of each line's start (the first is 0).
    starts: Vec<usize>,
    breaks: Breaks,
    /// `(byte offset, units before it)` every [`CHECKPOINT`] bytes or so;
    /// empty when the text is ASCII (units are bytes).
    checkpoints: Vec<(usize, usize)>,
    unit: PhantomData<U>,
}

/// The distance between two unit checkpoints, in bytes.
const CHECKPOINT: usize = 1024;

impl<U: Unit> Lines<U> {
    /// The lines of `text`, ending at `\n`.
    pub(crate) fn new(text: &str) -> Self {
        Self::with_breaks(text, Breaks::Newline)
    }

    /// The lines of `text`, ending as `breaks` says.
    pub(crate) fn with_breaks(text: &str, breaks: Breaks) -> Self {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        starts.extend(
            bytes
                .iter()
                .enumerate()
                .filter(|&(i, &b)| {
                    b == b'\n'
                        || (breaks == Breaks::Any && b == b'\r' && bytes.get(i + 1) != Some(&b'\n'))
                })
                .map(|(i, _)| i + 1),
        );
        let mut checkpoints = Vec::new();
        if !text.is_ascii() {
            let mut units = 0;
            let mut next = 0;
            for (i, c) in text.char_indices() {
                if i >= next {
                    checkpoints.push((i, units));
                    next = i + CHECKPOINT;
                }
                units += U::len(c);
            }
        }
        Lines {
            starts,
            breaks,
            checkpoints,
            unit: PhantomData,
        }
    }

    /// The 0-based line of the byte `offset` (past the end, the last line).
    pub(crate) fn line(&self, offset: usize) -> usize {
        self.starts
            .partition_point(|s| *s <= offset)
            .saturating_sub(1)
    }

    /// The bytes of line `line` of `text`, without its line end; past the
    /// last line, the empty range at the text's end.
    pub(crate) fn range(&self, text: &str, line: usize) -> Range<usize> {
        let Some(&start) = self.starts.get(line) else {
            return text.len()..text.len();
        };
        let end = match self.starts.get(line + 1) {
            None => text.len(),
            Some(&next)
                if self.breaks == Breaks::Any
                    && text.as_bytes().get(next.saturating_sub(2)..next)
                        == Some(b"\r\n".as_slice()) =>
            {
                next - 2
            }
            Some(&next) => next - 1,
        };
        start..end.max(start)
    }

    /// The units of `text` before the byte `offset` (clamped to the text,
    /// and moved down to a character's start).
    pub(crate) fn units_before(&self, text: &str, offset: usize) -> usize {
        let offset = text.floor_char_boundary(offset);
        let k = self
            .checkpoints
            .partition_point(|(byte, _)| *byte <= offset)
            .saturating_sub(1);
        let Some(&(byte, units)) = self.checkpoints.get(k) else {
            // (An ASCII text: its units are its bytes.)
            return offset;
        };
        units
            + text
                .get(byte..offset)
                .map_or(0, |t| t.chars().map(U::len).sum())
    }

    /// The 0-based line of the byte `offset` of `text` and the units before
    /// it on that line (`offset` clamped to the text, and moved down to a
    /// character's start).
    pub(crate) fn position(&self, text: &str, offset: usize) -> (usize, usize) {
        let line = self.line(offset);
        let start = self.starts.get(line).copied().unwrap_or(0);
        let column = self
            .units_before(text, offset)
            .saturating_sub(self.units_before(text, start));
        (line, column)
    }

    /// [`Lines::position`] counted from 1, as `file:line:column` has it.
    pub(crate) fn line_column(&self, text: &str, offset: usize) -> (usize, usize) {
        let (line, column) = self.position(text, offset);
        (line + 1, column + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_of_counts_the_line_ends_before_an_offset() {
        let text = "a\nb\r\nc";
        assert_eq!(line_of(text, 0), 0);
        assert_eq!(line_of(text, 2), 1);
        assert_eq!(line_of(text, 5), 2);
        assert_eq!(line_of(text, 99), 2);
        assert_eq!(Lines::<Chars>::new(text).line(5), line_of(text, 5));
    }

    #[test]
    fn lines_end_at_newlines() {
        let text = "ab\r\ncd\n\n";
        let lines = Lines::<Chars>::new(text);
        let found: Vec<_> = (0..=text.len()).map(|o| lines.line(o)).collect();
        assert_eq!(found, [0, 0, 0, 0, 1, 1, 1, 2, 3]);
        // The `\r` stays on its line.
        assert_eq!(lines.range(text, 0), 0..3);
        assert_eq!(lines.range(text, 1), 4..6);
        assert_eq!(lines.range(text, 2), 7..7);
        assert_eq!(lines.range(text, 3), 8..8);
        assert_eq!(lines.line_column(text, 6), (2, 3));
    }

    #[test]
    fn lines_end_at_any_break_when_asked() {
        let text = "a\r\nb\rc\n\r";
        let lines = Lines::<Utf16>::with_breaks(text, Breaks::Any);
        let ranges: Vec<_> = (0..6).map(|l| lines.range(text, l)).collect();
        assert_eq!(ranges, [0..1, 3..4, 5..6, 7..7, 8..8, 8..8]);
        assert_eq!(lines.line(2), 0);
        assert_eq!(lines.position(text, 3), (1, 0));
        assert_eq!(lines.position(text, 6), (2, 1));
        assert_eq!(lines.position(text, 7), (3, 0));
        assert_eq!(lines.position(text, 8), (4, 0));
    }

    #[test]
    fn columns_on_long_non_ascii_lines_are_counted_in_the_unit() {
        let line = "é😀a".repeat(1_000);
        let text = format!("x\n{line}\n{line}");
        assert!(text.len() > 4 * CHECKPOINT);
        let chars = Lines::<Chars>::new(&text);
        let utf16 = Lines::<Utf16>::new(&text);
        for (offset, _) in text.char_indices().step_by(7) {
            let before = &text[..offset];
            let line = before.matches('\n').count();
            let on_line = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
            assert_eq!(
                chars.position(&text, offset),
                (line, on_line.chars().count())
            );
            assert_eq!(
                utf16.position(&text, offset),
                (line, on_line.encode_utf16().count())
            );
            assert_eq!(chars.units_before(&text, offset), before.chars().count());
        }
    }

    #[test]
    fn offsets_inside_a_character_or_past_the_end_are_clamped() {
        let text = "a😀b\ncé";
        let chars = Lines::<Chars>::new(text);
        let utf16 = Lines::<Utf16>::new(text);
        // Inside 😀: at its start.
        assert_eq!(chars.position(text, 3), (0, 1));
        assert_eq!(utf16.position(text, 3), (0, 1));
        assert_eq!(chars.units_before(text, 3), 1);
        // Past the end: at the end.
        assert_eq!(chars.position(text, 99), (1, 2));
        assert_eq!(utf16.line_column(text, 99), (2, 3));
        assert_eq!(utf16.units_before(text, 99), 7);
        assert_eq!(chars.line(99), 1);
        assert_eq!(chars.range(text, 7), text.len()..text.len());
        // An ASCII text counts bytes.
        let ascii = Lines::<Utf16>::new("ab\ncd");
        assert_eq!(ascii.position("ab\ncd", 99), (1, 2));
    }
}
