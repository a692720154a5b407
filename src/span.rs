//! Byte spans into the original source file.

use std::fmt;

/// A half-open byte range `[start, end)` into the original file (not into a
/// decoded or extracted piece of it), so any stage can point back at the text.
/// (Inside an application value's shared EL tree, a range of the value's
/// text, which `ir::ElText` maps into the file.)
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    /// No text: what a node's place holds until its parser fills it.
    pub(crate) const EMPTY: Span = Span { start: 0, end: 0 };

    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }

    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }

    /// Both ends moved through `map` (an offset of a decoded or copied text
    /// to one of the file).
    pub(crate) fn map(self, map: impl Fn(u32) -> u32) -> Span {
        Span {
            start: map(self.start),
            end: map(self.end),
        }
    }
}

impl fmt::Debug for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "@{}..{}", self.start, self.end)
    }
}
