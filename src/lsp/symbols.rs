//! Document symbols (datasets, data-ins and data-outs, workflow nodes; job
//! properties in a configuration file) and semantic tokens for the EL
//! inside attribute values and character data.

use super::navigate::{self, Tag};
use super::proto;
use super::text::{Encoding, LineIndex};
use crate::el::lex::Tok;
use logos::Logos;
use serde_json::Value;
use std::path::Path;

/// LSP `SymbolKind`s.
const PROPERTY: u32 = 7;
const FUNCTION: u32 = 12;
const CONSTANT: u32 = 14;
const STRUCT: u32 = 23;
const EVENT: u32 = 24;

/// The symbols of a document, each at its start tag (its name selected).
pub(super) fn document_symbols(
    path: &Path,
    text: &str,
    index: &LineIndex,
    encoding: Encoding,
) -> Value {
    let range = |start: usize, end: usize| index.range(text, start, end, encoding);
    let mut symbols = Vec::new();
    if path.extension().is_none_or(|e| e != "xml") {
        let file = path.to_string_lossy();
        for p in super::job::properties_of(&file, text).unwrap_or_default() {
            let (start, end) = (p.name_span.start as usize, p.value_span.end as usize);
            symbols.push(proto::document_symbol(
                &p.name,
                &p.value,
                CONSTANT,
                range(start, end.max(start)),
                range(start, p.name_span.end as usize),
            ));
        }
        return Value::Array(symbols);
    }
    for tag in navigate::tags(text) {
        let Some((kind, detail)) = symbol_kind(&tag) else {
            continue;
        };
        let Some(&(_, start, end)) = tag.attributes.iter().find(|a| a.0 == "name") else {
            continue;
        };
        symbols.push(proto::document_symbol(
            &text[start..end],
            detail,
            kind,
            range(tag.start, tag.end),
            range(start, end),
        ));
    }
    Value::Array(symbols)
}

fn symbol_kind(tag: &Tag) -> Option<(u32, &'static str)> {
    Some(match tag.name {
        "dataset" => (STRUCT, "dataset"),
        "data-in" if !tag.in_input_logic() => (EVENT, "data-in"),
        "data-out" => (EVENT, "data-out"),
        "action" => (FUNCTION, "action"),
        "decision" | "fork" | "join" | "kill" | "end" => (FUNCTION, "control node"),
        "coordinator" => (PROPERTY, "coordinator"),
        _ => return None,
    })
}

/// The token types of the legend, in its order.
pub(super) const TOKEN_TYPES: &[&str] = &[
    "namespace",
    "function",
    "variable",
    "property",
    "string",
    "number",
    "keyword",
    "operator",
];

/// The semantic tokens of the EL in `text` (the document at `path`): LSP's relative encoding, five
/// numbers a token (line delta, start delta, length, type, modifiers).
pub(super) fn semantic_tokens(
    path: &Path,
    text: &str,
    index: &LineIndex,
    encoding: Encoding,
) -> Vec<u32> {
    let mut data = Vec::new();
    let (mut last_line, mut last_start) = (0u32, 0u32);
    for (from, to) in navigate::expressions(path, text) {
        let expr = &text[from..to];
        let tokens: Vec<(Tok, std::ops::Range<usize>)> = Tok::lexer(expr)
            .spanned()
            .filter_map(|(t, span)| t.ok().map(|t| (t, span)))
            .collect();
        for (i, (token, span)) in tokens.iter().enumerate() {
            let next = tokens.get(i + 1).map(|t| t.0);
            let after_next = tokens.get(i + 2).map(|t| t.0);
            let previous = i.checked_sub(1).and_then(|p| tokens.get(p)).map(|t| t.0);
            let kind = match token {
                Tok::Ident if next == Some(Tok::Colon) && after_next == Some(Tok::Ident) => 0,
                Tok::Ident if next == Some(Tok::LParen) => 1,
                Tok::Ident if previous == Some(Tok::Dot) => 3,
                Tok::Ident => 2,
                Tok::Str => 4,
                Tok::Integer | Tok::Float => 5,
                Tok::True | Tok::False | Tok::Null | Tok::Empty => 6,
                Tok::Colon if next == Some(Tok::Ident) && previous == Some(Tok::Ident) => continue,
                _ if expr[span.clone()].starts_with(|c: char| c.is_ascii_alphabetic()) => 6,
                _ => 7,
            };
            let (start, end) = (from + span.start, from + span.end);
            let at = index.position(text, start, encoding);
            let end_at = index.position(text, end, encoding);
            if end_at.line != at.line {
                continue;
            }
            let delta_start = if at.line == last_line {
                at.character - last_start
            } else {
                at.character
            };
            data.extend([
                at.line - last_line,
                delta_start,
                end_at.character - at.character,
                kind,
                0,
            ]);
            (last_line, last_start) = (at.line, at.character);
        }
    }
    data
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn el_is_split_into_tokens() {
        let text = "<a b=\"${coord:days(1) + x.y}\"/>";
        let index = LineIndex::new(text);
        let data = semantic_tokens(Path::new("a.xml"), text, &index, Encoding::Utf8);
        // coord, days, (, 1, ), +, x, ., y: a namespace, a function, ...
        let types: Vec<u32> = data.chunks(5).map(|t| t[3]).collect();
        assert_eq!(types, [0, 1, 7, 5, 7, 7, 2, 7, 3]);
        assert_eq!(&data[..5], &[0, 8, 5, 0, 0]);
    }
}
