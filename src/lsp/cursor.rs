//! What is at a place in an XML document, read from the text alone: the
//! elements around it, and whether it is in an element's name, among a
//! start tag's attributes, in an attribute's value or in character data;
//! inside a value, the EL expression and the word at it. Read without
//! parsing the whole document, so it answers in a document being typed
//! (`<data-in ` with no `>` yet) as well as in a valid one.

use crate::el::library::Place;
use crate::oozie::places;

/// Where an offset is.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Spot<'t> {
    /// After `<`, where an element's name is written; `start` is where the
    /// name starts.
    ElementName { start: usize },
    /// In a start tag, where an attribute's name goes; the names it has.
    AttributeName {
        element: &'t str,
        start: usize,
        present: Vec<&'t str>,
    },
    /// In the value of `attribute`, the value's raw text at `start..end`.
    AttributeValue {
        element: &'t str,
        attribute: &'t str,
        start: usize,
        end: usize,
    },
    /// In the character data of the innermost element, at `start..end`.
    Text { start: usize, end: usize },
    /// In a comment, an end tag, a declaration.
    Elsewhere,
}

/// An offset in a document: the elements open around it (local names,
/// outermost first) and the spot.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Cursor<'t> {
    pub elements: Vec<&'t str>,
    pub spot: Spot<'t>,
}

impl<'t> Cursor<'t> {
    /// The value (attribute value or text) at the cursor: its start and end.
    pub(super) fn value(&self) -> Option<(usize, usize)> {
        match self.spot {
            Spot::AttributeValue { start, end, .. } | Spot::Text { start, end } => {
                Some((start, end))
            }
            _ => None,
        }
    }

    /// The innermost element.
    pub(super) fn element(&self) -> Option<&'t str> {
        match &self.spot {
            Spot::AttributeName { element, .. } | Spot::AttributeValue { element, .. } => {
                Some(element)
            }
            _ => self.elements.last().copied(),
        }
    }

    /// The attribute whose value the cursor is in.
    pub(super) fn attribute(&self) -> Option<&'t str> {
        match self.spot {
            Spot::AttributeValue { attribute, .. } => Some(attribute),
            _ => None,
        }
    }

    /// Which of Oozie's EL groups a value here is evaluated in (the
    /// functions legal in it), in a coordinator, workflow, bundle or
    /// datasets document.
    pub(super) fn place(&self) -> Option<Place> {
        // The elements down to the one holding the value, by local name.
        let mut path: Vec<&str> = self.elements.iter().map(|e| local_name(e)).collect();
        if let Spot::AttributeName { element, .. } | Spot::AttributeValue { element, .. } =
            &self.spot
        {
            path.push(local_name(element));
        }
        places::place(&path, self.attribute())
    }
}

/// What is at byte `offset` of `text`.
pub(super) fn at<'t>(text: &'t str, offset: usize) -> Cursor<'t> {
    let offset = offset.min(text.len());
    let bytes = text.as_bytes();
    let mut elements: Vec<&'t str> = Vec::new();
    let mut i = 0;
    let cursor = |elements: Vec<&'t str>, spot: Spot<'t>| Cursor { elements, spot };
    while i < text.len() {
        if bytes.get(i) != Some(&b'<') {
            // Character data, up to the next tag.
            let end = text[i..].find('<').map_or(text.len(), |n| i + n);
            if offset <= end && offset >= i {
                return cursor(elements, Spot::Text { start: i, end });
            }
            i = end;
            continue;
        }
        let rest = &text[i..];
        if let Some((open, close)) = [("<!--", "-->"), ("<?", "?>"), ("<![CDATA[", "]]>")]
            .into_iter()
            .find(|(open, _)| rest.starts_with(open))
        {
            let body = i + open.len();
            let end = text[body..].find(close).map_or(text.len(), |n| body + n);
            if offset > i && offset <= end {
                // (A CDATA section is character data.)
                let spot = if open == "<![CDATA[" {
                    Spot::Text { start: body, end }
                } else {
                    Spot::Elsewhere
                };
                return cursor(elements, spot);
            }
            i = (end + close.len()).min(text.len());
            continue;
        }
        if rest.starts_with("</") || rest.starts_with("<!") {
            let end = text[i..].find('>').map_or(text.len(), |n| i + n);
            if offset > i && offset <= end {
                return cursor(elements, Spot::Elsewhere);
            }
            if rest.starts_with("</") {
                let name = text[i + 2..end].trim();
                // (Unbalanced: close up to the element named, if it is open.)
                if let Some(open) = elements.iter().rposition(|e| *e == name) {
                    elements.truncate(open);
                }
            }
            i = (end + 1).min(text.len());
            continue;
        }
        // A start tag.
        let name_start = i + 1;
        let name_end = name_start + name_length(&text[name_start..]);
        let name = &text[name_start..name_end];
        if offset > i && offset <= name_end {
            return cursor(elements, Spot::ElementName { start: name_start });
        }
        let mut j = name_end;
        let mut present = Vec::new();
        loop {
            while bytes.get(j).is_some_and(u8::is_ascii_whitespace) {
                j += 1;
            }
            // The tag's end: `>`, `/>`, the text's end, or a tag never
            // closed (the next one starts here).
            let next = bytes.get(j).copied();
            if matches!(next, None | Some(b'>' | b'<'))
                || bytes.get(j..).is_some_and(|rest| rest.starts_with(b"/>"))
            {
                if offset > name_end && offset <= j {
                    let spot = Spot::AttributeName {
                        element: name,
                        start: offset,
                        present,
                    };
                    return cursor(elements, spot);
                }
                let Some(next) = next else {
                    return cursor(elements, Spot::Elsewhere);
                };
                if next != b'<' {
                    let self_closing = next == b'/';
                    if !self_closing {
                        elements.push(name);
                    }
                    j += if self_closing { 2 } else { 1 };
                }
                break;
            }
            // An attribute: its name, `=`, its quoted value.
            let attribute_start = j;
            // (At least one character: text that is no name is skipped.)
            let first = text[j..].chars().next().map_or(1, char::len_utf8);
            let attribute_end = j + name_length(&text[j..]).max(first);
            let attribute = &text[attribute_start..attribute_end.min(text.len())];
            if offset >= attribute_start && offset <= attribute_end {
                return cursor(
                    elements,
                    Spot::AttributeName {
                        element: name,
                        start: attribute_start,
                        present,
                    },
                );
            }
            j = attribute_end;
            while bytes
                .get(j)
                .is_some_and(|b| b.is_ascii_whitespace() || *b == b'=')
            {
                j += 1;
            }
            if let Some(&quote @ (b'"' | b'\'')) = bytes.get(j) {
                let quote = char::from(quote);
                let start = j + 1;
                let end = text[start..].find(quote).map_or(text.len(), |n| start + n);
                if offset >= start && offset <= end {
                    return cursor(
                        elements,
                        Spot::AttributeValue {
                            element: name,
                            attribute,
                            start,
                            end,
                        },
                    );
                }
                j = (end + 1).min(text.len());
            }
            present.push(attribute);
        }
        i = j;
    }
    cursor(
        elements,
        Spot::Text {
            start: text.len(),
            end: text.len(),
        },
    )
}

/// Where the first start tag is (past the declaration and comments).
pub(super) fn first_start_tag(text: &str) -> Option<usize> {
    let mut i = 0;
    while let Some(n) = text[i..].find('<') {
        let at = i + n;
        let rest = &text[at..];
        if !(rest.starts_with("<?") || rest.starts_with("<!")) {
            return Some(at);
        }
        let close = if rest.starts_with("<!--") { "-->" } else { ">" };
        i = at + rest.find(close).map_or(rest.len(), |e| e + close.len());
    }
    None
}

/// The name of the root element (its local name), read from the text.
pub(super) fn root_name(text: &str) -> Option<&str> {
    let start = first_start_tag(text)? + 1;
    let name = &text[start..start + name_length(&text[start..])];
    Some(local_name(name))
}

/// `name` without its prefix.
fn local_name(name: &str) -> &str {
    name.rsplit(':').next().unwrap_or(name)
}

/// The length of the XML name at the start of `text` (up to XML's
/// whitespace, which is ASCII, or the punctuation of a tag).
fn name_length(text: &str) -> usize {
    text.find(|c: char| c.is_ascii_whitespace() || matches!(c, '>' | '/' | '=' | '<' | '"' | '\''))
        .unwrap_or(text.len())
}

/// Where the run of characters that are `in_word` ending at the end of
/// `text` starts (after the last character that is not).
pub(super) fn word_start(text: &str, in_word: impl Fn(char) -> bool) -> usize {
    text.char_indices()
        .rev()
        .find(|(_, c)| !in_word(*c))
        .map_or(0, |(i, c)| i + c.len_utf8())
}

/// The `${...}` expression of the value `start..end` of `text` that
/// `offset` is in: from after `${` to before `}` (or the value's end).
pub(super) fn expression_at(
    text: &str,
    (start, end): (usize, usize),
    offset: usize,
) -> Option<(usize, usize)> {
    let before = text.get(start..offset)?;
    let open = before.rfind("${")?;
    if before[open..].contains('}') {
        return None;
    }
    let from = start + open + 2;
    let to = text.get(offset..end)?.find('}').map_or(end, |n| offset + n);
    Some((from, to))
}

/// The word at `offset` in the expression `start..end`: a name, with its
/// `prefix:` and dots (`coord:current`, `wf.app.name`), and its span.
pub(super) fn word_at(
    text: &str,
    (start, end): (usize, usize),
    offset: usize,
) -> Option<(usize, usize)> {
    let is_word = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | ':' | '.');
    let expr = text.get(start..end)?;
    let at = offset.checked_sub(start)?;
    let from = word_start(expr.get(..at)?, is_word);
    let to = expr
        .get(at..)?
        .find(|c| !is_word(c))
        .map_or(expr.len(), |n| at + n);
    (from < to).then_some((start + from, start + to))
}

/// When `offset` is in a string literal that is the first argument of a
/// call in the expression `start..end`: the function's name and the
/// literal's content span (`coord:dataIn('in|put')`).
pub(super) fn string_argument_at(
    text: &str,
    (start, end): (usize, usize),
    offset: usize,
) -> Option<(&str, usize, usize)> {
    let expr = text.get(start..end)?;
    let at = offset.checked_sub(start)?;
    let before = expr.get(..at)?;
    let quote_at = before.rfind(['\'', '"'])?;
    let quote = expr[quote_at..].chars().next()?;
    // Inside a literal: an odd number of quotes of its kind before.
    if before.matches(quote).count() % 2 == 0 {
        return None;
    }
    let call = expr[..quote_at].trim_end().strip_suffix('(')?.trim_end();
    let name_from = word_start(call, |c| {
        c.is_ascii_alphanumeric() || matches!(c, '_' | ':')
    });
    let close = expr[quote_at + 1..]
        .find(quote)
        .map_or(expr.len(), |n| quote_at + 1 + n);
    Some((&call[name_from..], start + quote_at + 1, start + close))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spot_at(text: &str, marker: &str) -> Cursor<'static> {
        let offset = text.find(marker).expect("the marker");
        let text: &'static str = Box::leak(text.replace(marker, "").into_boxed_str());
        at(text, offset)
    }

    #[test]
    fn values_text_names_and_attributes() {
        let doc = r#"<coordinator-app name="a" frequency="${coord:da|ys(1)}"><datasets><dataset name="d" frequency="1"><uri-template>x</uri-template></dataset></datasets></coordinator-app>"#;
        let c = spot_at(doc, "|");
        assert_eq!(c.attribute(), Some("frequency"));
        let doc = doc.replace('|', "");
        assert_eq!(c.place(), Some(Place::Frequency));
        let c = spot_at(&doc.replace("<uri-template>x", "<uri-template>x|"), "|");
        assert_eq!(
            c.elements,
            ["coordinator-app", "datasets", "dataset", "uri-template"]
        );
        assert!(matches!(c.spot, Spot::Text { .. }));
        assert_eq!(c.place(), Some(Place::Submit));
        let c = spot_at(&doc.replace("<datasets>", "<datasets><da|"), "|");
        assert!(matches!(c.spot, Spot::ElementName { .. }));
        assert_eq!(c.elements, ["coordinator-app", "datasets"]);
        let c = spot_at(
            &doc.replace("<dataset name=\"d\"", "<dataset name=\"d\" |"),
            "|",
        );
        assert!(
            matches!(&c.spot, Spot::AttributeName { element: "dataset", present, .. } if present == &["name", "frequency"])
        );
    }

    #[test]
    fn a_document_being_typed() {
        let c = spot_at("<workflow-app><action name=\"a\"><ok to=\"|", "|");
        assert_eq!(c.attribute(), Some("to"));
        assert_eq!(c.element(), Some("ok"));
        assert_eq!(c.elements, ["workflow-app", "action"]);
        let c = spot_at("<coordinator-app><input-events><data-in |", "|");
        assert!(matches!(
            c.spot,
            Spot::AttributeName {
                element: "data-in",
                ..
            }
        ));
        let c = spot_at("<a><!-- <b> | --></a>", "|");
        assert_eq!(c.spot, Spot::Elsewhere);
    }

    #[test]
    fn expressions_words_and_string_arguments() {
        let text = "x ${coord:dataIn('input')} ${a.b}";
        let value = (0, text.len());
        let inside = text.find("input").unwrap() + 2;
        let expr = expression_at(text, value, inside).unwrap();
        assert_eq!(&text[expr.0..expr.1], "coord:dataIn('input')");
        assert_eq!(
            string_argument_at(text, expr, inside).map(|(f, s, e)| (f, &text[s..e])),
            Some(("coord:dataIn", "input"))
        );
        let name = text.find("dataIn").unwrap();
        let word = word_at(text, expr, name).unwrap();
        assert_eq!(&text[word.0..word.1], "coord:dataIn");
        let dotted = text.find("a.b").unwrap() + 2;
        let expr = expression_at(text, value, dotted).unwrap();
        let word = word_at(text, expr, dotted).unwrap();
        assert_eq!(&text[word.0..word.1], "a.b");
        assert_eq!(expression_at(text, value, 1), None);
    }
}
