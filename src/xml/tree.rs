//! The element tree of an XML text, a value: every name, attribute value and
//! text piece keeps its byte span in the file ([`super::read`] builds it).
//!
//! The tree borrows from the text: names, and values and text pieces without
//! a reference, are slices of it (a tree is built for every file checked, and
//! copying each piece was most of the cost of building it). Everything else
//! (the lists of children, attributes and text pieces, decoded values) is
//! placed in an [`Arena`] the caller owns: building a tree makes no
//! allocation per element, and dropping it frees nothing piece by piece.

use super::read::MAX_FILE_LEN;
use crate::span::Span;
use std::borrow::Cow;

/// Where a tree's lists and decoded values live; a tree borrows it as it
/// borrows its text. One arena per document: it is freed at once with it.
pub type Arena = bumpalo::Bump;

/// A parsed document: the root element, and the comments (where suppressions live).
#[derive(Debug)]
pub struct Document<'s> {
    pub root: Element<'s>,
    pub comments: Vec<Comment<'s>>,
}

#[derive(Debug)]
pub struct Comment<'s> {
    pub text: &'s str,
    pub span: Span,
}

#[derive(Debug, Clone, Copy)]
pub struct Element<'s> {
    /// The namespace URI, `None` when the element is in no namespace.
    pub namespace: Option<&'s str>,
    pub name: &'s str,
    /// The name in the start tag, prefix included.
    pub name_span: Span,
    /// From `<` of the start tag to `>` of the end tag.
    pub span: Span,
    pub attributes: &'s [Attribute<'s>],
    pub children: &'s [Element<'s>],
    /// Character data directly inside this element, in document order.
    pub text: &'s [TextPiece<'s>],
}

#[derive(Debug, Clone, Copy)]
pub struct Attribute<'s> {
    pub namespace: Option<&'s str>,
    pub name: &'s str,
    pub name_span: Span,
    /// The value with entity and character references replaced.
    pub value: &'s str,
    /// The raw value between the quotes.
    pub value_span: Span,
    /// Where the value and the raw text stop moving together (see [`Text`]);
    /// empty when they never do (no reference in the value).
    pub breaks: &'s [(u32, u32)],
}

impl<'s> Attribute<'s> {
    /// The value as a [`Text`], for EL parsing with spans in the file.
    pub(crate) fn text(&self) -> Text<'s> {
        Text {
            value: Cow::Borrowed(self.value),
            span: self.value_span,
            breaks: self.breaks.to_vec(),
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub struct TextPiece<'s> {
    pub text: &'s str,
    pub span: Span,
}

/// An element's character data as one value: its pieces joined, spanning from
/// the first to the last. Entities shorten the value against its span; the EL
/// front end maps positions through [`file_offset`].
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Text<'s> {
    /// The file's own text when it holds no reference and is one piece.
    pub value: Cow<'s, str>,
    pub span: Span,
    /// `(value offset, file offset)` at every point where the two stop moving
    /// together (after an entity or between pieces); the value starts at the
    /// span's start without one.
    pub breaks: Vec<(u32, u32)>,
}

impl Text<'_> {
    /// Where byte `offset` of the value is in the file.
    pub(crate) fn source_offset(&self, offset: usize) -> usize {
        file_offset(self.span.start, &self.breaks, offset as u32) as usize
    }
}

/// Where byte `offset` of a value is in the file, for a value starting at
/// file offset `start` with [`Text::breaks`] `breaks`.
pub(crate) fn file_offset(start: u32, breaks: &[(u32, u32)], offset: u32) -> u32 {
    let (value_at, file_at) = breaks
        .iter()
        .rev()
        .find(|(v, _)| *v <= offset)
        .copied()
        .unwrap_or((0, start));
    file_at + (offset - value_at)
}

impl<'s> Element<'s> {
    pub(crate) fn attribute(&self, name: &str) -> Option<&Attribute<'s>> {
        self.attributes
            .iter()
            .find(|a| a.namespace.is_none() && a.name == name)
    }

    /// The character data, trimmed of surrounding whitespace as Oozie's JDOM
    /// `getTextTrim` reads it; the span covers the trimmed value.
    pub(crate) fn text_trimmed(&self) -> Text<'s> {
        // The common case: one piece, the file's own text (a reference is a
        // piece of its own), so value offsets are file offsets from its start.
        if let [piece] = self.text
            && piece.text.len() == piece.span.range().len()
        {
            let raw = piece.text;
            let (lead, kept) = trim_bounds(raw);
            let start = piece.span.start as usize;
            return Text {
                value: Cow::Borrowed(&raw[lead..kept]),
                span: Span::new(start + lead, start + kept),
                breaks: Vec::new(),
            };
        }
        let joined = self.text_value();
        let (lead, kept) = trim_bounds(&joined.value);
        let start = joined.source_offset(lead);
        let end = if kept == lead {
            start
        } else {
            joined.source_offset(kept - 1) + 1
        };
        let breaks = joined
            .breaks
            .iter()
            .filter(|(v, _)| (*v as usize) > lead && (*v as usize) < kept)
            .map(|(v, f)| (v - lead as u32, *f))
            .collect();
        // Trimmed in place: the joined value is this call's own.
        let mut value = joined.value.into_owned();
        value.truncate(kept);
        value.drain(..lead);
        Text {
            value: Cow::Owned(value),
            span: Span::new(start, end.max(start)),
            breaks,
        }
    }

    fn text_value(&self) -> Text<'s> {
        let mut value = String::new();
        let mut breaks = Vec::new();
        for (i, piece) in self.text.iter().enumerate() {
            // The first piece starts where the span does: no break needed.
            if i > 0 {
                breaks.push((value.len() as u32, piece.span.start));
            }
            value.push_str(piece.text);
        }
        let span = match (self.text.first(), self.text.last()) {
            (Some(first), Some(last)) => {
                Span::new(first.span.start as usize, last.span.end as usize)
            }
            _ => {
                let at = self.name_span.end as usize;
                Span::new(at, at)
            }
        };
        Text {
            value: Cow::Owned(value),
            span,
            breaks,
        }
    }

    /// The child elements with this local name, in any namespace.
    pub(crate) fn children_named<'e>(
        &'e self,
        name: &'e str,
    ) -> impl Iterator<Item = &'e Element<'s>> + 'e {
        self.children.iter().filter(move |c| c.name == name)
    }

    pub(crate) fn child(&self, name: &str) -> Option<&Element<'s>> {
        self.children.iter().find(|c| c.name == name)
    }
}

/// Where `text` trimmed of surrounding whitespace starts and ends (`lead ==
/// kept` when it is all whitespace).
fn trim_bounds(text: &str) -> (usize, usize) {
    let lead = text.len() - text.trim_start().len();
    (lead, text.trim_end().len().max(lead))
}

/// An arena with room for the tree of a text of `len` bytes: the tree is
/// built in one block (a generated coordinator's takes 3 to 5 times its
/// length; a larger one grows the arena by another block).
pub fn arena_for(len: usize) -> Arena {
    Arena::with_capacity(len.saturating_mul(5).min(MAX_FILE_LEN))
}

/// Only XML's whitespace: space, tab, line feed, carriage return.
pub(crate) fn is_xml_whitespace(text: &str) -> bool {
    text.bytes()
        .all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xml::read::parse;
    #[test]
    fn indentation_beside_children_is_not_text_and_values_keep_their_whitespace() {
        let src = "<a>\n  <b> </b>\n  <c>&lt; &gt;</c>\n  <d> <!-- c --> x </d>\n</a>";
        let arena = Arena::new();
        let doc = parse(src, &arena).unwrap();
        assert!(doc.root.text.is_empty(), "{:?}", doc.root.text);
        let value = |name: &str| doc.root.child(name).unwrap().text_value().value;
        assert_eq!(value("b"), " ");
        assert_eq!(value("c"), "< >");
        assert_eq!(value("d"), "  x ");
        // Text beside children that is not whitespace is kept (and reported
        // by validation where the content model allows no text).
        let arena = Arena::new();
        let doc = parse("<a> x <b/> y </a>", &arena).unwrap();
        let pieces: Vec<&str> = doc.root.text.iter().map(|p| p.text).collect();
        assert_eq!(pieces, [" x ", " y "]);
    }

    #[test]
    fn trimmed_text_points_at_the_kept_characters() {
        // One piece (sliced from the file) and several (joined, then mapped).
        let src = "<a><b>  x y \n</b><c> </c><d> x &amp; y </d></a>";
        let arena = Arena::new();
        let doc = parse(src, &arena).unwrap();
        let trimmed = |name: &str| doc.root.child(name).unwrap().text_trimmed();
        let b = trimmed("b");
        assert_eq!((&*b.value, &src[b.span.range()]), ("x y", "x y"));
        let c = trimmed("c");
        let blank = src.find("<c> ").unwrap() + "<c> ".len();
        assert_eq!((&*c.value, c.span.range()), ("", blank..blank));
        let d = trimmed("d");
        assert_eq!((&*d.value, &src[d.span.range()]), ("x & y", "x &amp; y"));
    }
}
