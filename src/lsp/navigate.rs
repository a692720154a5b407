//! Go to definition, references and rename, for the names an application
//! defines and refers to: datasets (across the files a coordinator
//! includes), data-ins and data-outs (in their coordinator), workflow nodes
//! (in their workflow), and job properties (between the job.properties and
//! the applications that read it). Read from the text as the editor has it,
//! through its tree, recovered while the text is not well-formed.

use super::cursor::{self, Spot};
use super::job::properties_of;
use super::session::Session;
use crate::span::Span;
use crate::xml::{self, Element};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What kind of name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Dataset,
    Event,
    Node,
    Property,
}

/// One place a name is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Occurrence {
    pub path: PathBuf,
    pub start: usize,
    pub end: usize,
    pub definition: bool,
}

/// The elements that are workflow nodes.
const NODES: &[&str] = &["action", "decision", "fork", "join", "kill", "end"];

/// The workflow functions whose first argument is a node's name.
const NODE_FUNCTIONS: &[&str] = &[
    "wf:actionData",
    "wf:actionExternalId",
    "wf:actionTrackerUri",
    "wf:actionExternalStatus",
    "wf:errorCode",
    "wf:errorMessage",
    "hadoop:counters",
];

/// The name at byte `offset` of `text` (the file at `path`), and its kind.
pub(super) fn name_at(path: &Path, text: &str, offset: usize) -> Option<(Kind, String)> {
    if !is_xml(path) {
        // A configuration file: the property whose name is at the cursor.
        let file = path.to_string_lossy();
        let properties = properties_of(&file, text)?;
        let p = properties.into_iter().find(|p| {
            (p.name_span.start as usize) <= offset && offset <= p.name_span.end as usize
        })?;
        return Some((Kind::Property, p.name));
    }
    let at = cursor::at(text, offset);
    let value = at.value()?;
    if let Some(expr) = cursor::expression_at(text, value, offset) {
        if let Some((function, start, end)) = cursor::string_argument_at(text, expr, offset) {
            let name = text[start..end].to_string();
            if function.starts_with("coord:dataIn") || function.starts_with("coord:dataOut") {
                return Some((Kind::Event, name));
            }
            if NODE_FUNCTIONS.contains(&function) {
                return Some((Kind::Node, name));
            }
            return None;
        }
        let (start, end) = cursor::word_at(text, expr, offset)?;
        let called = text[end..].trim_start().starts_with('(');
        let word = &text[start..end];
        return (!called && is_property_name(word)).then(|| (Kind::Property, word.to_string()));
    }
    // A workflow's `<parameters>` declare properties by `<name>`.
    if let Spot::Text { start, end } = at.spot
        && at.element() == Some("name")
        && at.elements.contains(&"parameters")
    {
        let name = text[start..end].trim();
        return is_property_name(name).then(|| (Kind::Property, name.to_string()));
    }
    let Spot::AttributeValue {
        element,
        attribute,
        start,
        end,
    } = at.spot
    else {
        return None;
    };
    let name = text[start..end].to_string();
    let in_logic = at.elements.contains(&"input-logic");
    let kind = match (element, attribute) {
        ("dataset", "name") => Kind::Dataset,
        ("data-in" | "data-out", "dataset") if !in_logic => Kind::Dataset,
        ("data-in" | "data-out", "name") if !in_logic => Kind::Event,
        ("data-in", "dataset") => Kind::Event,
        (e, "name") if NODES.contains(&e) => Kind::Node,
        (_, "to") | ("path" | "start", "start") => Kind::Node,
        _ => return None,
    };
    Some((kind, name))
}

/// The words of EL that name no variable.
const KEYWORDS: &[&str] = &[
    "and",
    "or",
    "not",
    "eq",
    "ne",
    "lt",
    "gt",
    "le",
    "ge",
    "div",
    "mod",
    "empty",
    "true",
    "false",
    "null",
    "instanceof",
];

/// Whether `word` in EL is a job property's name: a name (dots allowed, as
/// Oozie's properties have them), not a keyword nor an EL constant
/// (`YEAR`, `MINUTE`...).
fn is_property_name(word: &str) -> bool {
    let mut chars = word.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.'))
        && !KEYWORDS.contains(&word)
        && !crate::el::library::CONSTANTS.iter().any(|c| c.name == word)
}

fn is_xml(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "xml")
}

/// Every place the name at `offset` of the document at `path` is written,
/// in the files it is shared across.
pub(super) fn occurrences(
    session: &Session,
    path: &Path,
    offset: usize,
) -> Option<(Kind, String, Vec<Occurrence>)> {
    let files = session.related(path);
    let (_, text) = files.first()?;
    let (kind, name) = name_at(path, text, offset)?;
    if name.is_empty() {
        return None;
    }
    // Data-ins and nodes belong to their own document.
    let shared = matches!(kind, Kind::Dataset | Kind::Property);
    let mut found = Vec::new();
    for (file, text) in files.iter().take(if shared { usize::MAX } else { 1 }) {
        found.extend(in_file(file, text, kind, &name));
    }
    Some((kind, name, found))
}

/// The places `name` (of `kind`) is written in `text`.
fn in_file(path: &Path, text: &Arc<str>, kind: Kind, name: &str) -> Vec<Occurrence> {
    let at = |start: usize, definition: bool| Occurrence {
        path: path.to_path_buf(),
        start,
        end: start + name.len(),
        definition,
    };
    if !is_xml(path) || is_configuration(text) {
        if kind != Kind::Property {
            return Vec::new();
        }
        let file = path.to_string_lossy();
        let mut found: Vec<Occurrence> = properties_of(&file, text)
            .unwrap_or_default()
            .into_iter()
            .filter(|p| p.name == name)
            .map(|p| at(p.name_span.start as usize, true))
            .collect();
        // (`out=${nameNode}/out`: a value reads another property.)
        for (from, to) in expressions(path, text) {
            found.extend(in_expression(text, from, to, kind, name).map(|s| at(s, false)));
        }
        found.sort_by_key(|o| o.start);
        return found;
    }
    let mut found = Vec::new();
    for tag in tags(text) {
        for &(attribute, start, end) in &tag.attributes {
            if &text[start..end] != name {
                continue;
            }
            let hit = match (kind, tag.name, attribute) {
                (Kind::Dataset, "dataset", "name") => Some(true),
                (Kind::Dataset, "data-in" | "data-out", "dataset") if !tag.in_logic => Some(false),
                (Kind::Event, "data-in" | "data-out", "name") if !tag.in_logic => Some(true),
                (Kind::Event, "data-in", "dataset") if tag.in_logic => Some(false),
                (Kind::Node, e, "name") if NODES.contains(&e) => Some(true),
                (Kind::Node, _, "to") | (Kind::Node, "path" | "start", "start") => Some(false),
                _ => None,
            };
            if let Some(definition) = hit {
                found.push(at(start, definition));
            }
        }
    }
    for (from, to) in expressions(path, text) {
        found.extend(in_expression(text, from, to, kind, name).map(|s| at(s, false)));
    }
    if kind == Kind::Property {
        found.extend(parameters(text, name).into_iter().map(|s| at(s, true)));
    }
    found.sort_by_key(|o| o.start);
    found
}

/// Where `name` is declared in `<parameters>` (`<property><name>NAME</name>`),
/// the application's own definition of a job property; read from the tree.
fn parameters(text: &str, name: &str) -> Vec<usize> {
    let arena = xml::tree::arena_for(text.len());
    let Some(document) = xml::read(text, &arena).document else {
        return Vec::new();
    };
    let names = document
        .root
        .children_named("parameters")
        .flat_map(|p| p.children_named("property"))
        .filter_map(|property| property.child("name"))
        .map(|n| n.text_trimmed().span.range());
    names
        .filter(|span| text.get(span.clone()) == Some(name))
        .map(|span| span.start)
        .collect()
}

/// Whether an XML file is a Hadoop configuration (`<configuration>`).
fn is_configuration(text: &str) -> bool {
    let first = text
        .match_indices('<')
        .map(|(i, _)| &text[i..])
        .find(|rest| !(rest.starts_with("<?") || rest.starts_with("<!")));
    first.is_some_and(|rest| rest.starts_with("<configuration"))
}

/// The starts of `name` in the EL expression `from..to` of `text`, where it
/// is a `kind` name.
fn in_expression<'t>(
    text: &'t str,
    from: usize,
    to: usize,
    kind: Kind,
    name: &'t str,
) -> impl Iterator<Item = usize> + 't {
    let expr = &text[from..to];
    expr.match_indices(name).filter_map(move |(i, _)| {
        let before = expr[..i].chars().next_back();
        let after = expr[i + name.len()..].chars().next();
        let start = from + i;
        match kind {
            Kind::Property => {
                let word = |c: char| {
                    c.is_ascii_alphanumeric() || matches!(c, '_' | ':' | '.' | '\'' | '"')
                };
                let free = !before.is_some_and(word) && !after.is_some_and(|c| word(c) || c == '(');
                free.then_some(start)
            }
            Kind::Event | Kind::Node => {
                let quoted = matches!(before, Some('\'' | '"')) && after == before;
                let (function, _, _) =
                    cursor::string_argument_at(text, (from, to), start + 1.min(name.len()))?;
                let names = match kind {
                    Kind::Event => {
                        function.starts_with("coord:dataIn")
                            || function.starts_with("coord:dataOut")
                    }
                    _ => NODE_FUNCTIONS.contains(&function),
                };
                (quoted && names).then_some(start)
            }
            Kind::Dataset => None,
        }
    })
}

/// A start tag, read from the text: its name and its attributes' value
/// spans; whether it is inside `<input-logic>`.
pub(super) struct Tag<'t> {
    pub name: &'t str,
    pub start: usize,
    pub end: usize,
    pub attributes: Vec<(&'t str, usize, usize)>,
    in_logic: bool,
}

impl Tag<'_> {
    /// Whether the tag is inside `<input-logic>` (where `data-in` names a
    /// data-in rather than defining one).
    pub(super) fn in_input_logic(&self) -> bool {
        self.in_logic
    }
}

/// The start tags of `text`, in order, read from its tree: recovered where
/// the text is not well-formed, as while it is typed.
pub(super) fn tags(text: &str) -> Vec<Tag<'_>> {
    let arena = xml::tree::arena_for(text.len());
    let mut tags = Vec::new();
    if let Some(document) = xml::read(text, &arena).document {
        collect_tags(text, &document.root, false, &mut tags);
    }
    tags
}

/// The start tags of `element` and the elements in it, in order.
fn collect_tags<'t>(text: &'t str, element: &Element, in_logic: bool, tags: &mut Vec<Tag<'t>>) {
    // (Names and values sliced from the text by their spans: the tree lives
    // in this call's arena.)
    let slice = |span: Span| &text[span.range()];
    let name = local_name(slice(element.name_span));
    let attributes = element.attributes.iter().map(|a| {
        let value = a.value_span.range();
        (local_name(slice(a.name_span)), value.start, value.end)
    });
    tags.push(Tag {
        name,
        start: element.span.start as usize,
        end: start_tag_end(text, element),
        attributes: attributes.collect(),
        in_logic,
    });
    let inside = in_logic || name == "input-logic";
    for child in element.children {
        collect_tags(text, child, inside, tags);
    }
}

/// Where the start tag of `element` ends: after the `>` that follows its
/// name and attributes.
fn start_tag_end(text: &str, element: &Element) -> usize {
    let last = element
        .attributes
        .iter()
        .map(|a| a.value_span.end as usize + 1);
    let from = last
        .fold(element.name_span.end as usize, usize::max)
        .min(text.len());
    text[from..].find('>').map_or(text.len(), |n| from + n + 1)
}

fn local_name(name: &str) -> &str {
    name.rsplit(':').next().unwrap_or(name)
}

/// The `${...}` expressions of the document at `path`, in order: in its
/// attribute values and character data (XML, read from its recovered tree,
/// so none in a comment) or in its properties' values. Each runs from after
/// `${` to before `}`, or to its line's or its value's end while it is typed.
pub(super) fn expressions(path: &Path, text: &str) -> Vec<(usize, usize)> {
    let values = if is_xml(path) {
        value_spans(text)
    } else {
        let file = path.to_string_lossy();
        let properties = properties_of(&file, text).unwrap_or_default();
        properties.iter().map(|p| p.value_span.range()).collect()
    };
    let mut found = Vec::new();
    for value in values {
        let Some(raw) = text.get(value.clone()) else {
            continue;
        };
        let mut i = 0;
        while let Some(n) = raw[i..].find("${") {
            let from = i + n + 2;
            let to = raw[from..]
                .find(['}', '\n'])
                .map_or(raw.len(), |e| from + e);
            found.push((value.start + from, value.start + to));
            i = to;
        }
    }
    found.sort_unstable();
    found
}

/// Where the attribute values and the character data of `text` are, as
/// written (the pieces of one run of text, split at its references, joined).
fn value_spans(text: &str) -> Vec<std::ops::Range<usize>> {
    fn collect(element: &Element, spans: &mut Vec<std::ops::Range<usize>>) {
        spans.extend(element.attributes.iter().map(|a| a.value_span.range()));
        let mut run: Option<std::ops::Range<usize>> = None;
        for piece in element.text {
            let span = piece.span.range();
            run = match run {
                Some(r) if r.end == span.start => Some(r.start..span.end),
                Some(r) => {
                    spans.push(r);
                    Some(span)
                }
                None => Some(span),
            };
        }
        spans.extend(run);
        for child in element.children {
            collect(child, spans);
        }
    }
    let arena = xml::tree::arena_for(text.len());
    let mut spans = Vec::new();
    if let Some(document) = xml::read(text, &arena).document {
        collect(&document.root, &mut spans);
    }
    spans
}

/// Whether `name` may be a new name of `kind`: text that stays one value
/// of its attribute, or one EL name.
pub(super) fn valid_new_name(kind: Kind, name: &str) -> bool {
    match kind {
        Kind::Property => is_property_name(name),
        _ => {
            !name.is_empty()
                && !name.contains(['"', '\'', '<', '>', '&'])
                && !name.contains(char::is_whitespace)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_tags_are_read_from_the_text() {
        let text = r#"<a x="1"><!-- <b y="2"> --><input-logic><data-in dataset='i'/></input-logic><data-in name="n" dataset="d"/></a>"#;
        let tags = tags(text);
        let names: Vec<&str> = tags.iter().map(|t| t.name).collect();
        assert_eq!(names, ["a", "input-logic", "data-in", "data-in"]);
        assert!(tags[2].in_logic && !tags[3].in_logic);
        let (_, s, e) = tags[3].attributes[1];
        assert_eq!(&text[s..e], "d");
        assert_eq!(
            &text[tags[3].start..tags[3].end],
            r#"<data-in name="n" dataset="d"/>"#
        );
    }

    #[test]
    fn start_tags_of_a_document_being_typed_come_from_its_recovered_tree() {
        // An unclosed `<input-logic>`, a stray end tag, a tag cut short.
        let text = r#"<c:coordinator-app xmlns:c="uri:c"><c:input-logic><data-in dataset="i"></x></c:coordinator-app><dataset name="late" x="#;
        let tags = tags(text);
        let names: Vec<&str> = tags.iter().map(|t| t.name).collect();
        assert_eq!(names, ["coordinator-app", "input-logic", "data-in"]);
        assert!(tags[2].in_logic);
        let (name, s, e) = tags[2].attributes[0];
        assert_eq!((name, &text[s..e]), ("dataset", "i"));
        assert_eq!(
            &text[tags[2].start..tags[2].end],
            r#"<data-in dataset="i">"#
        );
    }

    #[test]
    fn numbers_keywords_and_constants_are_no_properties() {
        for word in ["1", "YEAR", "true", "and", "a-b", ""] {
            assert!(!is_property_name(word), "{word}");
        }
        for word in ["nameNode", "oozie.wf.application.path", "_x1"] {
            assert!(is_property_name(word), "{word}");
        }
        let text = "<w><!-- ${a} -->${a}<parameters><property><name> a </name></property></parameters></w>";
        assert_eq!(expressions(Path::new("w.xml"), text), [(18, 19)]);
        assert_eq!(parameters(text, "a"), [text.find(" a ").unwrap() + 1]);
    }

    #[test]
    fn expressions_end_with_their_value_and_span_references() {
        // One being typed ends at its attribute's quote; one in text runs
        // across a reference; the tree goes on past an unclosed element.
        let text = "<w><a x=\"${wf:conf('a')\" y=\"1\"><b>${c &amp;&amp; d}</b></w>";
        let found = expressions(Path::new("w.xml"), text);
        let words: Vec<&str> = found.iter().map(|&(f, t)| &text[f..t]).collect();
        assert_eq!(words, ["wf:conf('a')", "c &amp;&amp; d"]);
    }

    #[test]
    fn a_property_is_a_whole_name_in_el() {
        let text = "<a>${a} ${a.b} ${coord:conf('a')} ${ab + a}</a>";
        let found: Vec<usize> = expressions(Path::new("a.xml"), text)
            .into_iter()
            .flat_map(|(f, t)| in_expression(text, f, t, Kind::Property, "a").collect::<Vec<_>>())
            .collect();
        assert_eq!(found, [5, text.rfind("+ a").unwrap() + 2]);
        // A job.properties: in values only, not in comments.
        let text = "# ${a}\nout=${a}/x ${b\n";
        let found = expressions(Path::new("job.properties"), text);
        let words: Vec<&str> = found.iter().map(|&(f, t)| &text[f..t]).collect();
        assert_eq!(words, ["a", "b"]);
    }
}
