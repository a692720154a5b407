//! XML text → its element tree ([`super::tree`]), namespace-resolved, with
//! every error met on the way: reading recovers from what is not well-formed
//! and goes on (see [`read`]), so a document being typed has a tree too.
//!
//! quick-xml does the tokenizing; end tags are matched, namespaces resolved
//! (a stack of `xmlns` scopes) and entity references replaced here, because
//! only XML's five predefined entities and character references exist: a DTD
//! is refused, so no entity can expand into anything larger than itself.

use super::tree::{Arena, Attribute, Comment, Document, Element, TextPiece, is_xml_whitespace};
use crate::diag::Diagnostic;
use crate::diag::rules::{XML_LIMIT, XML_SYNTAX};
use crate::span::Span;
use bumpalo::collections::{String as ArenaString, Vec as ArenaVec};
use quick_xml::errors::IllFormedError;
use quick_xml::events::attributes::AttrError;
use quick_xml::events::{BytesStart, Event};
use quick_xml::reader::Reader;
use smallvec::SmallVec;

/// Largest file read; Oozie itself refuses workflow definitions over 100,000 bytes.
pub(crate) const MAX_FILE_LEN: usize = 16 * 1024 * 1024;
/// How many attributes a tag has before their names are hashed to find one
/// written twice, rather than compared with each other.
const MANY_ATTRIBUTES: usize = 16;

/// Deepest element nesting read; Oozie's documents nest fewer than ten levels.
pub(crate) const MAX_DEPTH: usize = 256;

/// A text read as far as it goes: the tree, best effort, and every error met
/// on the way, in the order of the text. Reading goes on past a malformed
/// piece (see [`read`]), so a document being typed still has a tree.
#[derive(Debug)]
pub struct Parsed<'s> {
    /// `None` only when the text holds no element, or is too long to read.
    pub document: Option<Document<'s>>,
    pub errors: Vec<Diagnostic>,
}

impl<'s> Parsed<'s> {
    /// The tree of a well-formed text, else the first error: what follows a
    /// first error is a guess, and the checks report that error alone.
    pub(crate) fn into_result(self) -> Result<Document<'s>, Diagnostic> {
        match (self.errors.into_iter().next(), self.document) {
            (Some(first), _) => Err(first),
            (None, Some(document)) => Ok(document),
            (None, None) => Err(no_element()),
        }
    }
}

/// Parses `source`, well-formed, or gives the diagnostic of its first error.
pub fn parse<'s>(source: &'s str, arena: &'s Arena) -> Result<Document<'s>, Diagnostic> {
    read(source, arena).into_result()
}

/// Reads `source` into a tree, recovering from what is not well-formed: an
/// end tag closes the elements left open inside the one it names, and one
/// that names no open element is dropped; the end of the text closes what is
/// still open; a malformed attribute ends its tag's attributes, a repeated
/// one is dropped; an unknown reference stays as written; an undeclared
/// prefix leaves its name in no namespace; text outside the root and a
/// second root are dropped. Only a limit (the file's length, the nesting
/// depth) stops the reading.
pub fn read<'s>(source: &'s str, arena: &'s Arena) -> Parsed<'s> {
    if let Some(d) = too_long(source.len() as u64) {
        return Parsed {
            document: None,
            errors: vec![d],
        };
    }
    Builder::new(source, arena).run()
}

fn no_element() -> Diagnostic {
    Diagnostic::about_whole_file(XML_SYNTAX, "the file holds no XML element")
}

/// The diagnostic for a file of `len` bytes, when that is over [`MAX_FILE_LEN`]
/// (callers reading files check it before reading one into memory).
pub(crate) fn too_long(len: u64) -> Option<Diagnostic> {
    (len > MAX_FILE_LEN as u64).then(|| {
        Diagnostic::about_whole_file(
            XML_LIMIT,
            format!("the file is {len} bytes long; coordc reads XML files of at most {MAX_FILE_LEN} bytes"),
        )
        .with_help("Oozie refuses workflow definitions over 100,000 bytes (oozie.service.WorkflowAppService.WorkflowDefinitionMaxLength)")
    })
}

/// An element whose end tag is still to come: its children and text pieces
/// so far are the builder's lists from `first_child` and `first_text` on.
struct Open<'s> {
    namespace: Option<&'s str>,
    name: &'s str,
    name_span: Span,
    start: usize,
    attributes: &'s [Attribute<'s>],
    first_child: usize,
    first_text: usize,
    /// How many namespace bindings this element pushed.
    bindings: usize,
}

struct Builder<'s> {
    source: &'s str,
    arena: &'s Arena,
    reader: Reader<&'s [u8]>,
    /// `(prefix, uri)`; the empty prefix is the default namespace.
    scopes: Vec<(&'s str, &'s str)>,
    stack: Vec<Open<'s>>,
    /// The children and the text pieces of the open elements, innermost
    /// last: an element's are copied into the arena at once when it closes,
    /// so no list grows in the arena (each growth a copy, and room left over).
    children: Vec<Element<'s>>,
    texts: Vec<TextPiece<'s>>,
    /// The attributes of the start tag being read.
    attributes: Vec<Attribute<'s>>,
    /// Whitespace-only text of the innermost open element, not kept yet:
    /// before a first child it is indentation, and dropped; otherwise it is
    /// the element's text (see [`Builder::text`]).
    indentation: Option<TextPiece<'s>>,
    comments: Vec<Comment<'s>>,
    root: Option<Element<'s>>,
    /// What is not well-formed, in the order of the text.
    errors: Vec<Diagnostic>,
}

/// The reading stops: a limit is reached.
struct Limit;

impl<'s> Builder<'s> {
    fn new(source: &'s str, arena: &'s Arena) -> Builder<'s> {
        let mut reader = Reader::from_str(source);
        let config = reader.config_mut();
        // End tags are matched here, where an unmatched one is recovered
        // from (quick-xml's own check pops one element where recovery may
        // close several, and the two stacks would part).
        config.check_end_names = false;
        config.allow_unmatched_ends = true;
        config.check_comments = true;
        Builder {
            source,
            arena,
            reader,
            scopes: Vec::new(),
            // (Sized for an application's usual depth and breadth: growing
            // them would be most of the builder's allocations.)
            stack: Vec::with_capacity(8),
            children: Vec::with_capacity(32),
            texts: Vec::with_capacity(16),
            attributes: Vec::with_capacity(8),
            indentation: None,
            comments: Vec::new(),
            root: None,
            errors: Vec::new(),
        }
    }

    fn report(&mut self, diagnostic: Diagnostic) {
        self.errors.push(diagnostic);
    }

    fn error(&self, at: usize, message: impl Into<String>) -> Diagnostic {
        let at = at.min(self.source.len());
        Diagnostic::error(XML_SYNTAX, Span::new(at, at), message)
    }

    /// The byte offset of `part` inside the source; `part` must borrow from it.
    /// The tree takes its text from the source at these offsets, not from
    /// the events' bytes: the source is `str` already, and quick-xml cuts it
    /// only at ASCII delimiters, which are character boundaries.
    fn offset_of(&self, part: &[u8]) -> usize {
        let base = self.source.as_ptr() as usize;
        let at = part.as_ptr() as usize;
        debug_assert!(at >= base && at <= base + self.source.len());
        at.saturating_sub(base).min(self.source.len())
    }

    fn run(mut self) -> Parsed<'s> {
        let mut end = self.source.len();
        loop {
            let before = self.reader.buffer_position() as usize;
            // Matched in place: moving the event out of its `Result` first
            // made each event a store the next load could not forward from.
            let event = self.reader.read_event();
            let after = self.reader.buffer_position() as usize;
            match event {
                Err(e) => {
                    let at = self.reader.error_position() as usize;
                    let error = self.error(at, format!("not well-formed XML: {e}"));
                    self.report(error);
                    // (quick-xml reads on after the markup it refused; where
                    // it cannot move, nothing more can be read.)
                    if after <= before {
                        break;
                    }
                }
                Ok(Event::Start(tag)) => {
                    if self.open(&tag, before).is_err() {
                        end = before;
                        break;
                    }
                }
                Ok(Event::Empty(tag)) => {
                    if self.open(&tag, before).is_err() {
                        end = before;
                        break;
                    }
                    self.close(after);
                }
                Ok(Event::End(tag)) => {
                    let name = tag.name();
                    let at = self.offset_of(name.as_ref());
                    let name = &self.source[at..at + name.as_ref().len()];
                    self.end_tag(name, before, after);
                }
                Ok(Event::Text(text)) => {
                    let raw = text.into_inner();
                    let start = self.offset_of(&raw);
                    let raw = &self.source[start..start + raw.len()];
                    self.text(raw, start, before);
                }
                Ok(Event::CData(data)) => {
                    let raw = data.into_inner();
                    let start = self.offset_of(&raw);
                    let value = &self.source[start..start + raw.len()];
                    self.push_text(value, Span::new(start, start + raw.len()), before);
                }
                Ok(Event::GeneralRef(reference)) => {
                    let at = self.offset_of(&reference);
                    let name = &self.source[at..at + reference.len()];
                    let value: &'s str = match self.entity(name, before, after) {
                        Some(c) => self.arena.alloc_str(c.encode_utf8(&mut [0; 4])),
                        // (Unknown: the reference stays as written.)
                        None => &self.source[before..after],
                    };
                    self.push_text(value, Span::new(before, after), before);
                }
                Ok(Event::Comment(text)) => {
                    let raw = text.into_inner();
                    let start = self.offset_of(&raw);
                    self.comments.push(Comment {
                        text: &self.source[start..start + raw.len()],
                        span: Span::new(before, after),
                    });
                }
                Ok(Event::DocType(_)) => {
                    let error = self
                        .error(before, "a DOCTYPE declaration is not allowed")
                        .with_help("Oozie refuses DTDs in application XML (disallow-doctype-decl); remove the <!DOCTYPE ...>");
                    self.report(error);
                }
                // The declaration may only open the file (after a byte
                // order mark); Xerces, as Oozie runs it, refuses one
                // anywhere else: "The processing instruction target
                // matching "[xX][mM][lL]" is not allowed".
                Ok(Event::Decl(_)) if before > self.source.starts_with('\u{feff}') as usize * 3 => {
                    let error = self
                        .error(before, "the XML declaration `<?xml ...?>` must be at the very start of the file")
                        .with_help("move it to the first line, before any comment or blank line");
                    self.report(error);
                }
                Ok(Event::Decl(_) | Event::PI(_)) => {}
                Ok(Event::Eof) => {
                    if let Some(open) = self.stack.last() {
                        let name = open.name;
                        let error = self
                            .error(
                                self.source.len(),
                                format!("the file ends inside `<{name}>`"),
                            )
                            .with_label(open.name_span, "opened here");
                        self.report(error);
                    }
                    break;
                }
            }
        }
        // What is still open ends where the reading did.
        while !self.stack.is_empty() {
            self.close(end);
        }
        if self.root.is_none() {
            self.report(no_element());
        }
        Parsed {
            document: self.root.map(|root| Document {
                root,
                comments: self.comments,
            }),
            errors: self.errors,
        }
    }

    /// The end tag `name` at `start..end`: it closes the innermost element,
    /// or, when it names one further out, the ones inside that were left
    /// unclosed and then that one.
    fn end_tag(&mut self, name: &'s str, start: usize, end: usize) {
        let source = self.source;
        let qname = |open: &Open<'s>| &source[open.name_span.range()];
        let Some(innermost) = self.stack.last() else {
            let error = IllFormedError::UnmatchedEndTag(name.to_string());
            let error = self.error(
                start,
                format!(
                    "not well-formed XML: {}",
                    quick_xml::Error::IllFormed(error)
                ),
            );
            return self.report(error);
        };
        let expected = qname(innermost);
        if expected == name {
            return self.close(end);
        }
        let error = IllFormedError::MismatchedEndTag {
            expected: expected.to_string(),
            found: name.to_string(),
        };
        let error = self.error(
            start,
            format!(
                "not well-formed XML: {}",
                quick_xml::Error::IllFormed(error)
            ),
        );
        let named = self.stack.iter().rposition(|open| qname(open) == name);
        self.report(error);
        if let Some(depth) = named {
            while self.stack.len() > depth + 1 {
                self.close(start);
            }
            self.close(end);
        }
    }

    /// The namespace bound to `prefix` (at `at`); none, reported, when the
    /// prefix is not declared.
    fn resolve(&mut self, prefix: &str, at: Span) -> Option<&'s str> {
        if prefix == "xml" {
            return Some("http://www.w3.org/XML/1998/namespace");
        }
        // An empty `&str` may point at no memory (`""` does), and glibc's
        // AVX-512 `memcmp` reads it with a masked load whose fault suppression
        // costs ~100 ns: the default namespace (the empty prefix) is matched
        // by length alone.
        let bound = |p: &str| p.len() == prefix.len() && (prefix.is_empty() || p == prefix);
        match self.scopes.iter().rev().find(|(p, _)| bound(p)) {
            // `xmlns=""` undeclares the default namespace.
            Some(&(_, uri)) => (!uri.is_empty()).then_some(uri),
            None if prefix.is_empty() => None,
            None => {
                self.report(
                    Diagnostic::error(
                        XML_SYNTAX,
                        at,
                        format!("the namespace prefix `{prefix}` is not declared"),
                    )
                    .with_help(format!(
                        "declare it with xmlns:{prefix}=\"...\" on this element or an ancestor"
                    )),
                );
                None
            }
        }
    }

    fn open(&mut self, tag: &BytesStart<'s>, start: usize) -> Result<(), Limit> {
        if self.stack.len() == MAX_DEPTH {
            self.report(Diagnostic::error(
                XML_LIMIT,
                Span::new(start, start + 1),
                format!("elements nested more than {MAX_DEPTH} levels deep"),
            ));
            return Err(Limit);
        }
        if self.stack.is_empty() && self.root.is_some() {
            // (Read, and dropped when it closes.)
            let error = self.error(
                start,
                "a second root element: an XML document has exactly one",
            );
            self.report(error);
        }
        let qname = tag.name();
        let name_start = self.offset_of(qname.as_ref());
        let qname = &self.source[name_start..name_start + qname.as_ref().len()];
        let name_span = Span::new(name_start, name_start + qname.len());
        self.attributes.clear();
        let mut bindings = 0;
        let mut prefixed = false;
        // (quick-xml's duplicate check keeps a list on the heap per tag; the
        // few keys of a tag are compared here instead, and a tag of many,
        // which only a generator or an attacker writes, is hashed: compared
        // with each other, 300,000 attributes took minutes.)
        let mut keys: SmallVec<[&str; 8]> = SmallVec::new();
        let mut many_keys: Option<rustc_hash::FxHashSet<&str>> = None;
        for attribute in tag.attributes().with_checks(false) {
            let attribute = match attribute {
                Ok(attribute) => attribute,
                // The rest of the tag cannot be read as attributes.
                Err(e) => {
                    // quick-xml counts from the start of the tag's name.
                    let at = match e {
                        AttrError::ExpectedEq(p)
                        | AttrError::ExpectedValue(p)
                        | AttrError::UnquotedValue(p)
                        | AttrError::ExpectedQuote(p, _)
                        | AttrError::Duplicated(p, _) => name_start + p,
                    };
                    // Its message starts with that position, which the span shows.
                    let message = e.to_string();
                    let message = message
                        .split_once(": ")
                        .map_or(message.as_str(), |(_, m)| m);
                    let error = self.error(at, format!("not well-formed XML: {message}"));
                    self.report(error);
                    break;
                }
            };
            let key = attribute.key.as_ref();
            let key_start = self.offset_of(key);
            let key = &self.source[key_start..key_start + key.len()];
            let name_span = Span::new(key_start, key_start + key.len());
            let repeated = match &mut many_keys {
                Some(set) => !set.insert(key),
                None if keys.len() >= MANY_ATTRIBUTES => {
                    let mut set: rustc_hash::FxHashSet<&str> = keys.iter().copied().collect();
                    let repeated = !set.insert(key);
                    many_keys = Some(set);
                    repeated
                }
                None => {
                    let repeated = keys.contains(&key);
                    keys.push(key);
                    repeated
                }
            };
            if repeated {
                // (The first one stands.)
                let error = self.error(
                    key_start,
                    format!("not well-formed XML: the attribute `{key}` appears twice in this tag"),
                );
                self.report(error);
                continue;
            }
            let value_start = self.offset_of(&attribute.value);
            let raw_value = &self.source[value_start..value_start + attribute.value.len()];
            let (value, breaks) = self.unescape(raw_value, value_start);
            if key == "xmlns" || key.starts_with("xmlns:") {
                // Namespace declarations apply to the element's own name and
                // to its attributes, wherever they stand in the tag.
                let prefix = key
                    .strip_prefix("xmlns")
                    .unwrap_or("")
                    .trim_start_matches(':');
                self.scopes.push((prefix, value));
                bindings += 1;
            } else {
                let (prefix, local) = split_qname(key);
                prefixed |= !prefix.is_empty();
                self.attributes.push(Attribute {
                    // Unprefixed attributes are in no namespace (Namespaces in
                    // XML §6.2); prefixed ones are resolved below.
                    namespace: None,
                    name: local,
                    name_span,
                    value,
                    value_span: Span::new(value_start, value_start + raw_value.len()),
                    breaks,
                });
            }
        }
        let (prefix, local) = split_qname(qname);
        let namespace = self.resolve(prefix, name_span);
        if prefixed {
            // (Taken out while `resolve` writes `self`, then put back.)
            let mut attributes = std::mem::take(&mut self.attributes);
            for attribute in &mut attributes {
                let span = attribute.name_span;
                let (prefix, _) = split_qname(&self.source[span.range()]);
                if !prefix.is_empty() {
                    attribute.namespace = self.resolve(prefix, span);
                }
            }
            self.attributes = attributes;
        }
        // What stood before this first child was indentation (see `text`).
        self.indentation = None;
        self.stack.push(Open {
            namespace,
            name: local,
            name_span,
            start,
            attributes: in_arena(self.arena, &self.attributes),
            first_child: self.children.len(),
            first_text: self.texts.len(),
            bindings,
        });
        Ok(())
    }

    /// Closes the innermost open element at `end` (the end of its end tag).
    fn close(&mut self, end: usize) {
        let Some(open) = self.stack.pop() else {
            return;
        };
        if let Some(text) = self.indentation.take() {
            // Whitespace that is the whole text of an element is its value.
            self.texts.push(text);
        }
        self.scopes.truncate(self.scopes.len() - open.bindings);
        // (Whatever came after `first_child` and `first_text`, the lengths
        // when the element opened, is its own.)
        let element = Element {
            namespace: open.namespace,
            name: open.name,
            name_span: open.name_span,
            span: Span::new(open.start, end),
            attributes: open.attributes,
            children: in_arena(
                self.arena,
                self.children.get(open.first_child..).unwrap_or_default(),
            ),
            text: in_arena(
                self.arena,
                self.texts.get(open.first_text..).unwrap_or_default(),
            ),
        };
        self.children.truncate(open.first_child);
        self.texts.truncate(open.first_text);
        if !self.stack.is_empty() {
            self.children.push(element);
        } else if self.root.is_none() {
            self.root = Some(element);
        }
    }

    /// Whitespace beside a child element is the indentation of element
    /// content (XML 1.0 §2.10), not a value (Oozie's schemas have no mixed
    /// content): it is not kept, so most elements with children hold no text.
    fn text(&mut self, raw: &'s str, start: usize, before: usize) {
        let span = Span::new(start, start + raw.len());
        if is_xml_whitespace(raw)
            && let Some(open) = self.stack.last()
        {
            if self.children.len() == open.first_child {
                self.keep_indentation();
                self.indentation = Some(TextPiece { text: raw, span });
            }
            return;
        }
        // quick-xml ends a text event at each `&` (the reference comes as an
        // event of its own), so the text is the value as it stands.
        debug_assert!(!raw.contains('&'), "a text event holds no reference");
        self.push_text(raw, span, before)
    }

    /// Whitespace held back by [`Builder::text`] turned out to be part of the
    /// element's text (more text or a reference follows it): kept, in order.
    fn keep_indentation(&mut self) {
        if let Some(text) = self.indentation.take()
            && !self.stack.is_empty()
        {
            self.texts.push(text);
        }
    }

    fn push_text(&mut self, text: &'s str, span: Span, at: usize) {
        self.keep_indentation();
        if !self.stack.is_empty() {
            self.texts.push(TextPiece { text, span });
        } else if !text.trim().is_empty() {
            // (Dropped.)
            let error = self.error(at, "text outside the root element");
            self.report(error);
        }
    }

    /// Replaces `&name;` references in `raw` (at `start` in the file); also
    /// returns the `(value offset, file offset)` after each reference. Most
    /// text (indentation, values) has none, and is `raw` itself. A reference
    /// that is not one stays as written, reported.
    fn unescape(&mut self, raw: &'s str, start: usize) -> Decoded<'s> {
        if !raw.contains('&') {
            return (raw, &[]);
        }
        let mut breaks = ArenaVec::new_in(self.arena);
        let mut out = ArenaString::with_capacity_in(raw.len(), self.arena);
        let mut rest = raw;
        while let Some(amp) = rest.find('&') {
            out.push_str(&rest[..amp]);
            let at = start + (raw.len() - rest.len()) + amp;
            let Some(semi) = rest[amp..].find(';') else {
                let error = self
                    .error(at, "`&` starts a reference that has no `;`")
                    .with_help("write a literal ampersand as &amp;");
                self.report(error);
                rest = &rest[amp..];
                break;
            };
            let name = &rest[amp + 1..amp + semi];
            match self.entity(name, at, at + semi + 1) {
                Some(c) => out.push(c),
                None => out.push_str(&rest[amp..=amp + semi]),
            }
            rest = &rest[amp + semi + 1..];
            breaks.push((out.len() as u32, (at + semi + 1) as u32));
        }
        out.push_str(rest);
        (out.into_bump_str(), breaks.into_bump_slice())
    }

    /// The text of entity or character reference `name` (between `&` and
    /// `;`); none, reported, for a name XML does not define.
    fn entity(&mut self, name: &str, start: usize, end: usize) -> Option<char> {
        let predefined = match name {
            "lt" => Some('<'),
            "gt" => Some('>'),
            "amp" => Some('&'),
            "apos" => Some('\''),
            "quot" => Some('"'),
            _ => None,
        };
        let character = || {
            let code = match name.strip_prefix("#x") {
                Some(hex) => u32::from_str_radix(hex, 16).ok(),
                None => name.strip_prefix('#')?.parse::<u32>().ok(),
            };
            code.and_then(char::from_u32)
        };
        let found = predefined.or_else(character);
        if found.is_none() {
            self.report(Diagnostic::error(
                XML_SYNTAX,
                Span::new(start, end),
                format!("unknown entity `&{name};`"),
            )
            .with_help("XML defines only &lt; &gt; &amp; &apos; &quot; and character references such as &#38;"));
        }
        found
    }
}

/// A decoded value and its breaks (see [`Text`]).
type Decoded<'s> = (&'s str, &'s [(u32, u32)]);

/// A copy of `items` in `arena`; none of an empty list, as most are (a leaf
/// has no children, most elements no attributes), where the copy would still
/// cost a call.
fn in_arena<'s, T: Copy>(arena: &'s Arena, items: &[T]) -> &'s [T] {
    if items.is_empty() {
        &[]
    } else {
        arena.alloc_slice_copy(items)
    }
}

fn split_qname(qname: &str) -> (&str, &str) {
    // (A byte search: names are short, and `split_once(char)` sets up a
    // searcher for each.)
    match qname.bytes().position(|b| b == b':') {
        Some(colon) => (&qname[..colon], &qname[colon + 1..]),
        None => ("", qname),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn names_attributes_and_text_keep_their_spans() {
        let src = "<?xml version=\"1.0\"?>\n<c:app xmlns:c=\"uri:x\" name=\"a&amp;b\"><c:v> x &lt; 1 </c:v><!-- note --></c:app>";
        let arena = Arena::new();
        let doc = parse(src, &arena).unwrap();
        let root = &doc.root;
        assert_eq!((root.namespace, root.name), (Some("uri:x"), "app"));
        assert_eq!(&src[root.name_span.range()], "c:app");
        let name = root.attribute("name").unwrap();
        assert_eq!(name.value, "a&b");
        assert_eq!(&src[name.value_span.range()], "a&amp;b");
        let v = root.child("v").unwrap();
        assert_eq!(v.namespace, Some("uri:x"));
        let text = v.text_trimmed();
        assert_eq!(text.value, "x < 1");
        assert_eq!(&src[text.span.range()], "x &lt; 1");
        // After the entity, value offsets map past its four extra bytes.
        assert_eq!(&src[text.source_offset(4)..text.source_offset(4) + 1], "1");
        assert_eq!(doc.comments[0].text, " note ");
        assert_eq!(&src[root.span.range()], &src[22..]);
    }

    #[test]
    fn attribute_syntax_errors_point_at_the_attribute() {
        let src = "<a>\n  <data-in dataset=\"A\" min=2/></a>";
        let arena = Arena::new();
        let e = parse(src, &arena).unwrap_err();
        assert_eq!(&src[e.span.start as usize..], "2/></a>");
        assert_eq!(
            e.message,
            "not well-formed XML: attribute value must be enclosed in `\"` or `'`"
        );
        let src = "<a x='1' x='2'/>";
        let arena = Arena::new();
        let e = parse(src, &arena).unwrap_err();
        assert_eq!(&src[e.span.start as usize..], "x='2'/>");
    }

    #[test]
    fn a_prefix_declared_later_in_the_tag_applies_to_earlier_attributes() {
        let src = "<a p:k=\"v\" xmlns:p=\"uri:p\" j=\"w&amp;\"/>";
        let arena = Arena::new();
        let doc = parse(src, &arena).unwrap();
        let [k, j] = doc.root.attributes else {
            panic!("two attributes: {:?}", doc.root.attributes)
        };
        assert_eq!((k.namespace, k.name), (Some("uri:p"), "k"));
        assert_eq!((j.namespace, j.name, j.value), (None, "j", "w&"));
        // A value without a reference borrows the text; one with is decoded
        // into the arena.
        let v = src.find("\"v\"").unwrap() + 1;
        assert!(std::ptr::eq(k.value, &src[v..v + 1]));
        assert!(k.breaks.is_empty());
        let after_amp = src.find("&amp;").unwrap() + "&amp;".len();
        assert_eq!(j.breaks, [(2, after_amp as u32)]);
        let arena = Arena::new();
        let twice = parse("<a xmlns:p=\"u\" xmlns:p=\"v\"/>", &arena).unwrap_err();
        assert!(
            twice.message.contains("`xmlns:p` appears twice"),
            "{}",
            twice.message
        );
    }

    #[test]
    fn default_namespace_applies_to_elements_not_attributes() {
        let arena = Arena::new();
        let doc = parse("<a xmlns=\"uri:d\" k=\"v\"><b xmlns=\"\"/></a>", &arena).unwrap();
        assert_eq!(doc.root.namespace, Some("uri:d"));
        assert_eq!(doc.root.attributes[0].namespace, None);
        assert_eq!(doc.root.children[0].namespace, None);
    }

    #[test]
    fn malformed_documents_are_diagnosed_where_they_break() {
        let cases = [
            ("<a><b></a>", "not well-formed"),
            ("<a>", "ends inside `<a>`"),
            ("<a>&bogus;</a>", "unknown entity `&bogus;`"),
            ("<!DOCTYPE a [<!ENTITY x \"y\">]><a>&x;</a>", "DOCTYPE"),
            ("<p:a/>", "prefix `p` is not declared"),
            ("<a/><b/>", "second root"),
            ("", "no XML element"),
            ("<a x=\"1\" x=\"2\"/>", "not well-formed"),
            // A licence comment before the declaration (a real-world app).
            (
                "<!-- c -->\n<?xml version=\"1.0\"?><a/>",
                "very start of the file",
            ),
            ("\n<?xml version=\"1.0\"?><a/>", "very start of the file"),
        ];
        for (src, expected) in cases {
            let arena = Arena::new();
            let err = parse(src, &arena).expect_err(src);
            assert!(err.message.contains(expected), "{src}: {}", err.message);
            assert!(err.span.end as usize <= src.len(), "{src}");
        }
    }

    #[test]
    fn the_declaration_opens_the_file_or_follows_a_byte_order_mark() {
        for src in [
            "<?xml version=\"1.0\"?><a/>",
            "\u{feff}<?xml version=\"1.0\"?><a/>",
            "<?xml version=\"1.0\"?><!-- c --><?pi x?><a/>",
        ] {
            let arena = Arena::new();
            assert!(parse(src, &arena).is_ok(), "{src:?}");
        }
    }

    /// The tree of `src` read with recovery, as `name(child child...)`, and
    /// each error as its message and the text from its start.
    fn recovered(src: &str) -> (String, Vec<(String, String)>) {
        fn shape(e: &Element) -> String {
            let children: Vec<String> = e.children.iter().map(shape).collect();
            let attributes: Vec<String> = e
                .attributes
                .iter()
                .map(|a| format!("@{}={}", a.name, a.value))
                .collect();
            let text: String = e.text.iter().map(|t| t.text).collect();
            let mut parts = attributes;
            if !text.trim().is_empty() {
                parts.push(format!("{:?}", text.trim()));
            }
            parts.extend(children);
            if parts.is_empty() {
                e.name.to_string()
            } else {
                format!("{}({})", e.name, parts.join(" "))
            }
        }
        let arena = Arena::new();
        let parsed = read(src, &arena);
        let tree = parsed.document.map_or("-".to_string(), |d| shape(&d.root));
        let errors = parsed
            .errors
            .iter()
            .map(|e| (e.message.clone(), src[e.span.start as usize..].to_string()))
            .collect();
        (tree, errors)
    }

    fn error(message: &str, from: &str) -> (String, String) {
        (message.to_string(), from.to_string())
    }

    #[test]
    fn an_end_tag_closes_the_elements_left_open_inside_it() {
        let (tree, errors) = recovered("<a><b><c>x</a><d/>");
        assert_eq!(tree, "a(b(c(\"x\")))");
        assert_eq!(
            errors,
            [
                error(
                    "not well-formed XML: ill-formed document: expected `</c>`, but `</a>` was found",
                    "</a><d/>"
                ),
                error(
                    "a second root element: an XML document has exactly one",
                    "<d/>"
                ),
            ]
        );
        // The elements closed early end where the end tag starts.
        let arena = Arena::new();
        let src = "<a><b><c>x</a>";
        let doc = read(src, &arena).document.unwrap();
        let b = doc.root.child("b").unwrap();
        assert_eq!(&src[b.span.range()], "<b><c>x");
        assert_eq!(&src[doc.root.span.range()], src);
    }

    #[test]
    fn an_end_tag_of_no_open_element_is_dropped() {
        let (tree, errors) = recovered("<a><b></x></b></y></a></z>");
        assert_eq!(tree, "a(b)");
        let mismatch = |expected: &str, found: &str| {
            format!(
                "not well-formed XML: ill-formed document: expected `</{expected}>`, but `</{found}>` was found"
            )
        };
        assert_eq!(
            errors,
            [
                error(&mismatch("b", "x"), "</x></b></y></a></z>"),
                error(&mismatch("a", "y"), "</y></a></z>"),
                error(
                    "not well-formed XML: ill-formed document: close tag `</z>` does not match any open tag",
                    "</z>"
                ),
            ]
        );
    }

    #[test]
    fn a_truncated_file_keeps_what_it_has() {
        let src = "<workflow-app name=\"w\"><start to=\"a\"/><action name=\"a\"><java>";
        let (tree, errors) = recovered(src);
        assert_eq!(
            tree,
            "workflow-app(@name=w start(@to=a) action(@name=a java))"
        );
        assert_eq!(errors, [error("the file ends inside `<java>`", "")]);
        // Cut inside a tag: quick-xml refuses the tag, the rest stands.
        let (tree, errors) = recovered("<a><b x=\"1\"/><c y=");
        assert_eq!(tree, "a(b(@x=1))");
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert_eq!(errors[0].1, "<c y=");
        assert_eq!(errors[1], error("the file ends inside `<a>`", ""));
        let (tree, errors) = recovered("<a><!-- half");
        assert_eq!(tree, "a");
        assert_eq!(errors[0].1, "<!-- half");
    }

    #[test]
    fn bad_attributes_lose_only_themselves_and_what_follows_in_their_tag() {
        let (tree, errors) =
            recovered("<a k=\"1\" k=\"2\" j=\"3\"><b x=\"1\" y=2 z=\"3\"/><c/></a>");
        assert_eq!(tree, "a(@k=1 @j=3 b(@x=1) c)");
        assert_eq!(
            errors,
            [
                error(
                    "not well-formed XML: the attribute `k` appears twice in this tag",
                    "k=\"2\" j=\"3\"><b x=\"1\" y=2 z=\"3\"/><c/></a>"
                ),
                error(
                    "not well-formed XML: attribute value must be enclosed in `\"` or `'`",
                    "2 z=\"3\"/><c/></a>"
                ),
            ]
        );
    }

    #[test]
    fn unknown_references_stay_as_written_and_unknown_prefixes_in_no_namespace() {
        let (tree, errors) =
            recovered("<a v=\"x&bad;y&amp;\"><p:b q:k=\"1\">&nope; t</p:b><c w=\"&amp\"/></a>");
        assert_eq!(tree, "a(@v=x&bad;y& b(@k=1 \"&nope; t\") c(@w=&amp))");
        let messages: Vec<&str> = errors.iter().map(|(m, _)| m.as_str()).collect();
        assert_eq!(
            messages,
            [
                "unknown entity `&bad;`",
                "the namespace prefix `p` is not declared",
                "the namespace prefix `q` is not declared",
                "unknown entity `&nope;`",
                "`&` starts a reference that has no `;`",
            ]
        );
        let arena = Arena::new();
        let src = "<a v=\"x&bad;y&amp;z\"/>";
        let doc = read(src, &arena).document.unwrap();
        let v = doc.root.attribute("v").unwrap().text();
        // Offsets still map into the file past both references.
        assert_eq!(&src[v.source_offset(v.value.len() - 1)..][..1], "z");
    }

    #[test]
    fn stray_text_a_second_root_and_a_doctype_are_dropped() {
        let (tree, errors) = recovered("x<!DOCTYPE a><a>1</a>y<b>2</b>");
        assert_eq!(tree, "a(\"1\")");
        let messages: Vec<&str> = errors.iter().map(|(m, _)| m.as_str()).collect();
        assert_eq!(
            messages,
            [
                "text outside the root element",
                "a DOCTYPE declaration is not allowed",
                "text outside the root element",
                "a second root element: an XML document has exactly one",
            ]
        );
        let (tree, errors) = recovered("just text");
        assert_eq!(tree, "-");
        assert_eq!(errors.last().unwrap().0, "the file holds no XML element");
    }

    #[test]
    fn the_first_error_is_what_parse_reports_and_a_limit_stops_the_reading() {
        let src = "<a><b></a></c>";
        let arena = Arena::new();
        let first = parse(src, &arena).unwrap_err();
        let arena = Arena::new();
        let parsed = read(src, &arena);
        assert_eq!(parsed.errors.len(), 2);
        assert_eq!(parsed.errors[0].message, first.message);
        assert_eq!(parsed.errors[0].span, first.span);
        let deep = format!("{}</a>x", "<a>".repeat(MAX_DEPTH + 1));
        let arena = Arena::new();
        let parsed = read(&deep, &arena);
        assert_eq!(parsed.errors.len(), 1);
        assert_eq!(parsed.errors[0].code, XML_LIMIT);
        let mut depth = 0;
        let mut element = parsed.document.as_ref().map(|d| &d.root);
        while let Some(e) = element {
            depth += 1;
            element = e.children.first();
        }
        assert_eq!(depth, MAX_DEPTH);
    }

    #[test]
    fn nesting_is_bounded() {
        let deep = "<a>".repeat(MAX_DEPTH + 1);
        let arena = Arena::new();
        let err = parse(&deep, &arena).unwrap_err();
        assert_eq!(err.code, XML_LIMIT);
    }
}
