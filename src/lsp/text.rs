//! A document's text as an editor addresses it: lines, and columns counted
//! in the position encoding the client and server agreed on (UTF-8 bytes or
//! UTF-16 code units). Offsets inside coordc are byte offsets into the text.

use crate::lines::{Breaks, Lines, Utf16};
use serde_json::Value;

/// How a client counts columns (LSP 3.17 `PositionEncodingKind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Encoding {
    Utf8,
    Utf16,
}

impl Encoding {
    /// The encoding to use with a client offering `offered` (in its order of
    /// preference): UTF-8 when offered, as it costs no conversion; else
    /// UTF-16, which every client must accept.
    pub(crate) fn negotiate(offered: &[String]) -> Encoding {
        if offered.iter().any(|e| e == "utf-8") {
            Encoding::Utf8
        } else {
            Encoding::Utf16
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "utf-8",
            Encoding::Utf16 => "utf-16",
        }
    }
}

/// A line and a column, as the protocol has them (both from 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Position {
    pub line: u32,
    pub character: u32,
}

impl Position {
    /// The `position` of an LSP message, if it has one.
    pub(crate) fn from_json(value: &Value) -> Option<Position> {
        Some(Position {
            line: u32::try_from(value.get("line")?.as_u64()?).ok()?,
            character: u32::try_from(value.get("character")?.as_u64()?).ok()?,
        })
    }
}

/// A text's lines as the protocol has them (ending at `\n`, `\r\n` or a
/// lone `\r`), with its UTF-16 columns counted ahead; UTF-8 columns are byte
/// differences and need no count.
pub(crate) struct LineIndex(Lines<Utf16>);

impl LineIndex {
    pub(crate) fn new(text: &str) -> LineIndex {
        LineIndex(Lines::with_breaks(text, Breaks::Any))
    }

    /// The byte offset of `position` in `text`. A position past the end of
    /// its line is the line's end, and past the last line the text's end,
    /// as the protocol says; inside a character, that character's start.
    pub(crate) fn offset(&self, text: &str, position: Position, encoding: Encoding) -> usize {
        // (Past the last line, the range is empty at the text's end.)
        let line = self.0.range(text, position.line as usize);
        let wanted = position.character as usize;
        let mut units = 0;
        for (i, c) in text.get(line.clone()).unwrap_or("").char_indices() {
            if units >= wanted {
                return line.start + i;
            }
            units += match encoding {
                Encoding::Utf8 => c.len_utf8(),
                Encoding::Utf16 => c.len_utf16(),
            };
            if units > wanted {
                return line.start + i;
            }
        }
        line.end
    }

    /// The position of the byte `offset` in `text` (clamped to the text, and
    /// to a character's start).
    pub(crate) fn position(&self, text: &str, offset: usize, encoding: Encoding) -> Position {
        let (line, character) = match encoding {
            Encoding::Utf8 => {
                let offset = text.floor_char_boundary(offset);
                let line = self.0.line(offset);
                (line, offset - self.0.range(text, line).start)
            }
            Encoding::Utf16 => self.0.position(text, offset),
        };
        Position {
            line: u32::try_from(line).unwrap_or(u32::MAX),
            character: u32::try_from(character).unwrap_or(u32::MAX),
        }
    }

    /// The LSP range of the bytes `start..end` of `text`.
    pub(crate) fn range(&self, text: &str, start: usize, end: usize, encoding: Encoding) -> Value {
        super::proto::range(
            self.position(text, start, encoding),
            self.position(text, end.max(start), encoding),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `TODO` after `  <!-- café 😀 ` is at byte
    /// column 18 and UTF-16 column 15 (é is 2 bytes and 1 unit, 😀 4 bytes
    /// and 2 units).
    #[test]
    fn columns_are_counted_in_the_encoding_agreed() {
        let text = "<a>\n  <!-- café 😀 TODO -->\n</a>\n";
        let index = LineIndex::new(text);
        let todo = text.find("TODO").unwrap_or_default();
        for (encoding, column) in [(Encoding::Utf8, 18), (Encoding::Utf16, 15)] {
            let at = index.position(text, todo, encoding);
            assert_eq!(
                at,
                Position {
                    line: 1,
                    character: column
                }
            );
            assert_eq!(index.offset(text, at, encoding), todo);
        }
    }

    #[test]
    fn positions_past_the_end_are_clamped() {
        let text = "ab\r\ncd";
        let index = LineIndex::new(text);
        let far = |line, character| Position { line, character };
        assert_eq!(index.offset(text, far(0, 99), Encoding::Utf16), 2);
        assert_eq!(index.offset(text, far(1, 1), Encoding::Utf8), 5);
        assert_eq!(index.offset(text, far(7, 0), Encoding::Utf8), text.len());
        // Inside a character: at its start.
        let text = "😀x";
        let index = LineIndex::new(text);
        assert_eq!(index.offset(text, far(0, 1), Encoding::Utf16), 0);
        assert_eq!(index.offset(text, far(0, 2), Encoding::Utf8), 0);
        assert_eq!(index.position(text, 2, Encoding::Utf8), far(0, 0));
        assert_eq!(index.position(text, 99, Encoding::Utf16), far(0, 3));
    }

    #[test]
    fn long_lines_and_lone_carriage_returns() {
        let line = "é😀a".repeat(2_000);
        let text = format!("x\r{line}\r\n{line}");
        let index = LineIndex::new(&text);
        let last = text.rfind('a').unwrap_or_default();
        let at = index.position(&text, last, Encoding::Utf16);
        assert_eq!(
            at,
            Position {
                line: 2,
                character: line.encode_utf16().count() as u32 - 1
            }
        );
        assert_eq!(index.offset(&text, at, Encoding::Utf16), last);
        assert_eq!(
            index.position(&text, 2, Encoding::Utf8),
            Position {
                line: 1,
                character: 0
            }
        );
    }

    #[test]
    fn utf8_is_chosen_when_offered() {
        assert_eq!(
            Encoding::negotiate(&["utf-16".into(), "utf-8".into()]),
            Encoding::Utf8
        );
        assert_eq!(Encoding::negotiate(&["utf-32".into()]), Encoding::Utf16);
        assert_eq!(Encoding::negotiate(&[]), Encoding::Utf16);
    }
}
