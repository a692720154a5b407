//! Validation of a document against the schema of its root's namespace, as
//! Oozie's validator (Xerces) does before anything else reads the document, but
//! reporting every violation rather than the first.
//!
//! Content models are matched on sets of child positions: each particle maps
//! the positions where it may start to the positions where it may end, and a
//! repeated particle only works on positions it has not seen, so a model is
//! matched in time linear in the number of children whatever its ambiguity.

use super::content_dfa::ContentDfa;
use super::schema::{
    Builtin, ComplexType, GroupKind, Particle, Schema, Schemas, TypeRef, Wildcard,
    registered_together, schemas, split_version,
};
use super::tree::{Document, Element, TextPiece, is_xml_whitespace};
use crate::diag::Diagnostic;
use crate::diag::rules::{XML_ATTRIBUTE, XML_CONTENT, XML_UNKNOWN_DOCUMENT, XML_VALUE};
use crate::span::Span;
use smallvec::SmallVec;
use std::borrow::Cow;

const XSI: &str = "http://www.w3.org/2001/XMLSchema-instance";

/// Validates `doc`; an empty list means valid.
pub fn validate(doc: &Document) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let root = &doc.root;
    // A dataset file for `<include>` has no namespace: Oozie parses included
    // files without validating them and reads their datasets by local name
    // (CoordSubmitXCommand.java:1131-1165).
    if root.name == "datasets" && root.namespace.is_none() {
        return out;
    }
    let all = schemas();
    let Some(schema) = root.namespace.and_then(|ns| all.get(ns)) else {
        out.push(unknown_namespace(root, all));
        return out;
    };
    match schema.global(root.name) {
        Some(decl) => validate_element(root, decl.ty, schema, &mut out),
        None => out.push(Diagnostic::error(
            XML_UNKNOWN_DOCUMENT,
            root.name_span,
            format!(
                "`<{}>` is not a document element of {}",
                root.name, schema.namespace
            ),
        )),
    }
    out
}

fn unknown_namespace(root: &Element, all: &Schemas) -> Diagnostic {
    let known = all.namespaces_with_root(root.name);
    let message = match &root.namespace {
        Some(ns) => format!("no Oozie schema has the namespace `{ns}`"),
        None => format!("`<{}>` has no namespace", root.name),
    };
    let diagnostic = Diagnostic::error(XML_UNKNOWN_DOCUMENT, root.name_span, message);
    match known.as_slice() {
        [] => diagnostic.with_help(
            "coordc reads coordinator-app, bundle-app, datasets and workflow-app documents in the uri:oozie:... namespaces",
        ),
        namespaces @ [.., last] => diagnostic.with_help(format!(
            "`<{}>` is defined in {}; declare one with xmlns=\"{}\"",
            root.name,
            namespaces.join(", "),
            last,
        )),
    }
}

fn validate_element(element: &Element, ty: TypeRef, schema: &Schema, out: &mut Vec<Diagnostic>) {
    match ty {
        TypeRef::Complex(index) => {
            // (The schema made `index`: it is always one of its types.)
            if let Some(complex) = schema.complex(index) {
                validate_complex(element, complex, schema, out);
            }
        }
        simple => {
            for attribute in element.attributes {
                if attribute.namespace != Some(XSI) {
                    out.push(undeclared_attribute(
                        element,
                        attribute.name,
                        attribute.name_span,
                    ));
                }
            }
            validate_text_content(element, simple, schema, out);
        }
    }
}

/// The content of an element of simple type, or of a complex type with simple
/// content: text only, of type `ty`.
fn validate_text_content(
    element: &Element,
    ty: TypeRef,
    schema: &Schema,
    out: &mut Vec<Diagnostic>,
) {
    if let Some(child) = element.children.first() {
        out.push(Diagnostic::error(
            XML_CONTENT,
            child.name_span,
            format!(
                "`<{}>` holds text only; `<{}>` is not allowed in it",
                element.name, child.name
            ),
        ));
    }
    let raw: Cow<str> = match element.text {
        [] => Cow::Borrowed(""),
        [one] => Cow::Borrowed(one.text),
        pieces => Cow::Owned(pieces.iter().map(|p| p.text).collect()),
    };
    if let Some(problem) = check_value(&raw, ty, schema) {
        out.push(Diagnostic::error(
            XML_VALUE,
            element.text_trimmed().span,
            format!("the value of `<{}>` {problem}", element.name),
        ));
    }
}

fn undeclared_attribute(element: &Element, name: &str, span: crate::span::Span) -> Diagnostic {
    Diagnostic::error(
        XML_ATTRIBUTE,
        span,
        format!("`<{}>` has no attribute `{name}`", element.name),
    )
}

fn validate_complex(
    element: &Element,
    ty: &ComplexType,
    schema: &Schema,
    out: &mut Vec<Diagnostic>,
) {
    for attribute in element.attributes {
        if attribute.namespace == Some(XSI) {
            continue;
        }
        let declared = attribute
            .namespace
            .is_none()
            .then(|| ty.attributes.iter().find(|d| d.name == attribute.name))
            .flatten();
        match declared {
            None => {
                let mut d = undeclared_attribute(element, attribute.name, attribute.name_span);
                if let Some(close) = crate::diag::closest(
                    attribute.name,
                    ty.attributes.iter().map(|d| d.name.as_str()),
                ) {
                    d = d.with_help(format!("did you mean `{close}`?"));
                }
                out.push(d);
            }
            Some(decl) => {
                if let Some(problem) = check_value(attribute.value, decl.ty, schema) {
                    out.push(Diagnostic::error(
                        XML_VALUE,
                        attribute.value_span,
                        format!("the value of `{}` {problem}", attribute.name),
                    ));
                }
            }
        }
    }
    for decl in ty.attributes.iter().filter(|d| d.required) {
        if element.attribute(&decl.name).is_none() {
            out.push(Diagnostic::error(
                XML_ATTRIBUTE,
                element.name_span,
                format!(
                    "`<{}>` is missing the required attribute `{}`",
                    element.name, decl.name
                ),
            ));
        }
    }
    if let Some(simple) = ty.simple_content {
        validate_text_content(element, simple, schema, out);
        return;
    }
    let is_text = |p: &&TextPiece| !is_xml_whitespace(p.text);
    if !ty.mixed
        && let Some(piece) = element.text.iter().find(is_text)
    {
        out.push(
            Diagnostic::error(
                XML_CONTENT,
                piece.span,
                format!(
                    "text is not allowed directly inside `<{}>`, only elements",
                    element.name
                ),
            )
            .with_help("put the text in the child element it belongs to"),
        );
    }
    let Some(content) = &ty.content else {
        if let Some(child) = element.children.first() {
            out.push(Diagnostic::error(
                XML_CONTENT,
                child.name_span,
                format!(
                    "`<{}>` must be empty; `<{}>` is not allowed in it",
                    element.name, child.name
                ),
            ));
        }
        return;
    };
    // The schema's namespace, as the element's own text: an element is only
    // validated against the schema of its namespace, and its children in
    // that namespace mostly share the text, so compare with it at once.
    debug_assert!(element.namespace.is_none_or(|ns| ns == schema.namespace));
    let namespace = element.namespace.unwrap_or(&schema.namespace);
    if let Some(dfa) = &ty.dfa
        && let Some(states) = in_order(element.children, dfa, namespace)
    {
        // Each child's type is its state's (the same name's type in
        // `child_types`, which the automaton was built to agree with).
        for (child, state) in element.children.iter().zip(states) {
            if let Some(child_type) = dfa.child_type(state) {
                validate_element(child, child_type, schema, out);
            }
        }
        return;
    }
    if let Some(problem) = match_content(element, ty, content, schema, namespace) {
        out.push(problem);
    }
    // Every child with a declaration is checked, even when the content is not
    // in order, so one mistake does not hide others.
    for child in element.children {
        if in_namespace(child, namespace) {
            if let Some(&child_type) = ty.child_types.get(child.name) {
                validate_element(child, child_type, schema, out);
            }
        } else if let Some(other) = child.namespace.and_then(|ns| schemas().get(ns)) {
            // An `xs:any` child (an action's element, an SLA) in a namespace
            // coordc has a schema for: wildcards are strict, so it is valid
            // only as a global element of that schema, and only of a schema
            // Oozie registers for this kind of document.
            if !registered_together(&schema.namespace, &other.namespace) {
                out.push(Diagnostic::error(
                    XML_CONTENT,
                    child.name_span,
                    format!(
                        "`<{}>` of {} cannot be used in {}: Oozie validates such a document against its own kind's schemas only, and the wildcard here is strict (E0701)",
                        child.name, other.namespace, schema.namespace
                    ),
                ));
                continue;
            }
            match other.global(child.name) {
                Some(decl) => validate_element(child, decl.ty, other, out),
                None => out.push(undeclared_global(child, other, schema)),
            }
        }
        // A child of a namespace coordc has no schema for fails a strict
        // wildcard in Xerces too ("cvc-complex-type.2.4.c: The matching
        // wildcard is strict, but no declaration can be found", Oozie's
        // E0701), unless the server registered that namespace's schema
        // (oozie.service.SchemaService.wf.ext.schemas, for a custom action).
        // The only such wildcard is a workflow action's `##other`, and the
        // action check reports it after lowering (WF008, which a project with
        // a custom action turns off), so it is not reported here.
    }
}

/// `child`, in the namespace of schema `other`, which declares no global
/// element of its name; `parent` is the schema of the element holding it.
fn undeclared_global(child: &Element, other: &Schema, parent: &Schema) -> Diagnostic {
    let declared: Vec<String> = other.global_names().map(|n| format!("`<{n}>`")).collect();
    let d = Diagnostic::error(
        XML_CONTENT,
        child.name_span,
        format!(
            "`<{}>` is not an element of {} (which declares {})",
            child.name,
            other.namespace,
            declared.join(", ")
        ),
    );
    match own_namespace_help(child.name, parent) {
        Some(help) => d.with_help(help),
        None => d.with_help(format!(
            "an element of {} is one of {}",
            other.namespace,
            declared.join(", ")
        )),
    }
}

/// When some schema declares a global `<name>`: the namespace to declare it
/// in, in a document of schema `document`.
fn own_namespace(name: &str, document: &Schema) -> Option<&'static str> {
    schemas().namespace_for(name, &document.namespace)
}

fn own_namespace_help(name: &str, document: &Schema) -> Option<String> {
    let own = own_namespace(name, document)?;
    let family = split_version(own).0;
    Some(format!(
        "`<{name}>` is declared by its own schema: write `<{name} xmlns=\"{own}\">` ({family} has versions {})",
        and_list(&schemas().versions(family))
    ))
}

/// `a`, `a and b`, `a, b and c`.
pub(crate) fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The state after each child, when `children`, all in `namespace`, are
/// content `dfa` accepts. (Decided before any child is validated: a child
/// validated and then read again by the matchers would be validated twice,
/// at every level of nesting.)
fn in_order(
    children: &[Element],
    dfa: &ContentDfa,
    namespace: &str,
) -> Option<SmallVec<[u32; 16]>> {
    let mut states = SmallVec::new();
    let mut state = ContentDfa::START;
    for child in children {
        if !in_namespace(child, namespace) {
            return None;
        }
        state = dfa.step(state, child.name)?;
        states.push(state);
    }
    dfa.accepts(state).then_some(states)
}

/// Why `value` is not of type `ty`, if it is not.
fn check_value(value: &str, ty: TypeRef, schema: &Schema) -> Option<String> {
    let (base, simple) = match ty {
        TypeRef::Builtin(b) => (b, None),
        TypeRef::Simple(i) => {
            let simple = schema.simple(i)?;
            (simple.base, Some(simple))
        }
        TypeRef::Complex(_) => return None,
    };
    // xs:string keeps whitespace; the other built-ins collapse it first.
    let text: Cow<str> = match base {
        Builtin::String => Cow::Borrowed(value),
        _ => match value.trim() {
            trimmed if !trimmed.contains(char::is_whitespace) => Cow::Borrowed(trimmed),
            _ => Cow::Owned(value.split_whitespace().collect::<Vec<_>>().join(" ")),
        },
    };
    match base {
        Builtin::String => {}
        Builtin::Boolean => {
            if !matches!(&*text, "true" | "false" | "1" | "0") {
                return Some(format!("`{value}` is not a boolean (true, false, 1 or 0)"));
            }
        }
        Builtin::Integer { min, max } => match text.parse::<i64>() {
            Err(_) => return Some(format!("`{value}` is not an integer")),
            Ok(n) if min.is_some_and(|m| n < m) || max.is_some_and(|m| n > m) => {
                let bound = |b: Option<i64>| b.map_or_else(|| "any".to_string(), |b| b.to_string());
                return Some(format!("{n} is outside {} to {}", bound(min), bound(max)));
            }
            Ok(_) => {}
        },
    }
    let simple = simple?;
    if !simple.enumeration.is_empty() && !simple.enumeration.iter().any(|e| *e == *text) {
        return Some(format!(
            "`{text}` is not one of {}",
            simple.enumeration.join(", ")
        ));
    }
    if let Some((pattern, _)) = simple.patterns.iter().find(|(_, re)| !re.is_match(&text)) {
        return Some(format!(
            "`{text}` does not match the {} pattern `{pattern}`",
            simple.name
        ));
    }
    None
}

/// Matches the children of `element` (of type `ty`, in `schema`) against
/// `content`, the type's model; the first place where no reading of the model
/// can go on, as a diagnostic.
fn match_content(
    element: &Element,
    ty: &ComplexType,
    content: &Particle,
    schema: &Schema,
    namespace: &str,
) -> Option<Diagnostic> {
    // A greedy reading that takes in every child is a match: the content is
    // valid, and the exact matcher below (which follows every reading, to say
    // where and why none fits) is not needed.
    let greedy = Greedy {
        children: element.children,
        namespace,
    };
    if greedy.repeat(content, 0) == Some(element.children.len()) {
        return None;
    }
    let mut matcher = Matcher {
        children: element.children,
        namespace,
        furthest: 0,
        expected: SmallVec::new(),
        reached: 0,
    };
    let n = element.children.len();
    let mut start = Positions::empty(n + 1);
    start.insert(0);
    let ends = matcher.particle(content, &start);
    if ends.contains(n) {
        return None;
    }
    // Past the furthest place where something was expected, the content was
    // complete: the child there is one too many.
    if matcher.reached > matcher.furthest {
        matcher.furthest = matcher.reached;
        matcher.expected.clear();
    }
    let expected = describe(&matcher.expected);
    Some(match element.children.get(matcher.furthest) {
        Some(child) => {
            let message = format!(
                "`<{}>` is not allowed here in `<{}>`",
                child.name, element.name
            );
            let help = misplaced_help(element, child, ty, content, schema, &matcher.expected)
                .unwrap_or_else(|| {
                    if expected.is_empty() {
                        format!("nothing more may follow in `<{}>` here", element.name)
                    } else {
                        format!("expected {expected} here")
                    }
                });
            let d = Diagnostic::error(XML_CONTENT, child.name_span, message).with_help(help);
            match missing_own_namespace(element, child, schema, &matcher.expected) {
                // Declared right after the name: `<shell xmlns="...">`.
                Some(own) => {
                    let end = child.name_span.end as usize;
                    d.with_fix(
                        crate::diag::fixes::FixKind::ActionNamespace,
                        Span::new(end, end),
                        format!(" xmlns=\"{own}\""),
                    )
                }
                None => d,
            }
        }
        None => Diagnostic::error(
            XML_CONTENT,
            element.name_span,
            format!("`<{}>` is incomplete: expected {expected}", element.name),
        ),
    })
}

/// The namespace an extension action written in its parent's namespace
/// (`<shell>` without `xmlns`, no prefix) is declared in, where a wildcard
/// would take it.
fn missing_own_namespace(
    element: &Element,
    child: &Element,
    schema: &Schema,
    expected: &[Expected],
) -> Option<&'static str> {
    let unprefixed = child.name_span.range().len() == child.name.len();
    let inherited = child.namespace == element.namespace;
    if !unprefixed || !inherited {
        return None;
    }
    let own = own_namespace(child.name, schema)?;
    expected
        .iter()
        .any(|e| matches!(e, Expected::Wildcard(w) if w.admits(Some(own))))
        .then_some(own)
}

/// The fix for the common mistakes behind a `child` the content of `element`
/// does not allow where it is (`expected` there, instead):
/// - an extension action written in the workflow's namespace (`<shell>`
///   without `xmlns`): name the namespace its schema declares it in;
/// - an element the type allows once, repeated: say so, and for
///   `<java-opts>` name `<java-opt>`, which repeats, and the schema
///   versions that have it.
fn misplaced_help(
    element: &Element,
    child: &Element,
    ty: &ComplexType,
    content: &Particle,
    schema: &Schema,
    expected: &[Expected],
) -> Option<String> {
    // (Where no wildcard was expected, the schemas are not searched: finding
    // the namespaces that declare a name reads every schema.)
    let admits = |ns: &str| {
        expected
            .iter()
            .any(|e| matches!(e, Expected::Wildcard(w) if w.admits(Some(ns))))
    };
    if expected.iter().any(|e| matches!(e, Expected::Wildcard(_)))
        && let Some(own) = own_namespace(child.name, schema)
        && child.namespace != Some(own)
        && admits(own)
    {
        return own_namespace_help(child.name, schema);
    }
    let at = element
        .children
        .iter()
        .position(|c| std::ptr::eq(c, child))?;
    let before = element.children.get(..at)?;
    let repeated = before
        .iter()
        .any(|c| c.name == child.name && c.namespace == child.namespace);
    if !repeated || !at_most_once(content, child.name) {
        return None;
    }
    let once = format!(
        "`<{}>` may appear only once in `<{}>`",
        child.name, element.name
    );
    // A plural element with a repeatable singular beside it (java-opts, java-opt).
    let Some(single) = child.name.strip_suffix('s') else {
        return Some(once);
    };
    if ty.child_types.contains_key(single) {
        return Some(format!(
            "{once}: write each value in a `<{single}>` of its own instead"
        ));
    }
    let all = schemas();
    let family = split_version(&schema.namespace).0;
    let having: Vec<&str> = all
        .versions(family)
        .into_iter()
        .filter(|v| {
            all.get(&format!("{family}:{v}")).is_some_and(|s| {
                s.complex_types().iter().any(|t| {
                    t.child_types.contains_key(child.name) && t.child_types.contains_key(single)
                })
            })
        })
        .collect();
    Some(match having.as_slice() {
        [] => format!("{once}: merge them into one"),
        versions => format!(
            "{once}: merge them into one, or use `<{single}>`, one for each value, which {family}:{} {}",
            and_list(versions),
            if versions.len() == 1 { "has" } else { "have" }
        ),
    })
}

/// Whether `name` is declared in `particle` where it may occur once at most
/// (the declaration, and every group around it, at most once).
fn at_most_once(particle: &Particle, name: &str) -> bool {
    particle.occurs().max == Some(1)
        && match particle {
            Particle::Element(decl) => decl.name == name,
            Particle::Group { items, .. } => items.iter().any(|p| at_most_once(p, name)),
            Particle::Any { .. } => false,
        }
}

fn describe(expected: &[Expected]) -> String {
    let names: Vec<String> = expected
        .iter()
        .map(|e| match e {
            Expected::Element(name) => format!("`<{name}>`"),
            Expected::Wildcard(_) => "an element of another namespace".to_string(),
        })
        .collect();
    match names.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// What the content model expected where it stopped; described only when a
/// diagnostic is made (the matcher records one at every optional element).
#[derive(PartialEq)]
enum Expected<'a> {
    Element(&'a str),
    Wildcard(&'a Wildcard),
}

/// Whether `child` is what the element declaration or wildcard `leaf` takes,
/// in a schema of `namespace` (a group takes no single child): the one test
/// both matchers make.
fn takes(leaf: &Particle, child: &Element, namespace: &str) -> bool {
    match leaf {
        Particle::Element(decl) => child.name == decl.name && in_namespace(child, namespace),
        Particle::Any { namespaces, .. } => namespaces.admits(child.namespace),
        Particle::Group { .. } => false,
    }
}

/// Whether `element` is in `namespace`; at once when its namespace is the
/// same text (the `xmlns` value every element in its scope shares).
fn in_namespace(element: &Element, namespace: &str) -> bool {
    element
        .namespace
        .is_some_and(|ns| std::ptr::eq(ns, namespace) || ns == namespace)
}

/// Matches children against a content model taking every repetition it can
/// and, in a choice, the first item that moves on. XML Schema's Unique
/// Particle Attribution makes Oozie's content models deterministic, so a
/// valid element is read this way; a miss is decided by [`Matcher`].
struct Greedy<'a> {
    children: &'a [Element<'a>],
    namespace: &'a str,
}

impl Greedy<'_> {
    /// The position after `particle` repeated as often as it occurs, from `at`.
    fn repeat(&self, particle: &Particle, at: usize) -> Option<usize> {
        let occurs = particle.occurs();
        let (mut at, mut count) = (at, 0);
        while occurs.max.is_none_or(|max| count < max) {
            match self.once(particle, at) {
                Some(next) if next > at => {
                    at = next;
                    count += 1;
                }
                // Matching nothing, it can match nothing as often as needed.
                Some(_) => return Some(at),
                None => break,
            }
        }
        (count >= occurs.min).then_some(at)
    }

    fn once(&self, particle: &Particle, at: usize) -> Option<usize> {
        match particle {
            Particle::Element(_) | Particle::Any { .. } => {
                let child = self.children.get(at)?;
                takes(particle, child, self.namespace).then_some(at + 1)
            }
            Particle::Group {
                kind: GroupKind::Sequence,
                items,
                ..
            } => items.iter().try_fold(at, |at, item| self.repeat(item, at)),
            Particle::Group {
                kind: GroupKind::Choice,
                items,
                ..
            } => {
                let mut empty = None;
                for item in items {
                    match self.repeat(item, at) {
                        Some(next) if next > at => return Some(next),
                        Some(next) => empty = Some(next),
                        None => {}
                    }
                }
                empty
            }
            // Left to the exact matcher.
            Particle::Group {
                kind: GroupKind::All,
                ..
            } => None,
        }
    }
}

/// A set of child positions `0..len`: the places a partial match can stand.
/// Inline up to 128 positions, since the matcher makes one per particle step
/// and elements rarely have more children.
#[derive(Clone)]
struct Positions {
    words: SmallVec<[u64; 2]>,
    len: usize,
}

impl Positions {
    fn empty(len: usize) -> Positions {
        Positions {
            words: SmallVec::from_elem(0, len.div_ceil(64)),
            len,
        }
    }

    fn len(&self) -> usize {
        self.len
    }

    fn insert(&mut self, at: usize) {
        assert!(at < self.len, "position {at} outside 0..{}", self.len);
        if let Some(word) = self.words.get_mut(at / 64) {
            *word |= 1 << (at % 64);
        }
    }

    fn contains(&self, at: usize) -> bool {
        at < self.len
            && self
                .words
                .get(at / 64)
                .is_some_and(|word| word & (1 << (at % 64)) != 0)
    }

    fn is_clear(&self) -> bool {
        self.words.iter().all(|w| *w == 0)
    }

    fn union_with(&mut self, other: &Positions) {
        for (w, o) in self.words.iter_mut().zip(&other.words) {
            *w |= o;
        }
    }

    fn difference_with(&mut self, other: &Positions) {
        for (w, o) in self.words.iter_mut().zip(&other.words) {
            *w &= !o;
        }
    }

    fn ones(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    i * 64 + bit
                })
            })
        })
    }
}

struct Matcher<'a> {
    children: &'a [Element<'a>],
    namespace: &'a str,
    /// The furthest child position where an element was expected and not found,
    /// and what was expected there.
    furthest: usize,
    expected: SmallVec<[Expected<'a>; 4]>,
    /// The furthest child position any match reached.
    reached: usize,
}

impl<'a> Matcher<'a> {
    fn expect(&mut self, at: usize, what: Expected<'a>) {
        if at > self.furthest {
            self.furthest = at;
            self.expected.clear();
        }
        if at == self.furthest && !self.expected.contains(&what) {
            self.expected.push(what);
        }
    }

    /// `particle` matched between its minimum and maximum number of times.
    fn particle(&mut self, particle: &'a Particle, starts: &Positions) -> Positions {
        let occurs = particle.occurs();
        let mut ends = Positions::empty(starts.len());
        if occurs.min == 0 {
            ends.union_with(starts);
        }
        let mut frontier = starts.clone();
        let mut count = 0u32;
        while !frontier.is_clear() && occurs.max.is_none_or(|max| count < max) {
            let next = self.once(particle, &frontier);
            count += 1;
            if count < occurs.min {
                frontier = next;
                continue;
            }
            // From here on only new positions can lead anywhere new.
            let mut fresh = next.clone();
            fresh.difference_with(&ends);
            ends.union_with(&next);
            frontier = if occurs.max.is_none() { fresh } else { next };
        }
        ends
    }

    fn once(&mut self, particle: &'a Particle, starts: &Positions) -> Positions {
        let n = self.children.len();
        let mut ends = Positions::empty(n + 1);
        match particle {
            Particle::Element(_) | Particle::Any { .. } => {
                for at in starts.ones() {
                    let child = self.children.get(at);
                    if child.is_some_and(|c| takes(particle, c, self.namespace)) {
                        ends.insert(at + 1);
                        self.reached = self.reached.max(at + 1);
                    } else if let Particle::Element(decl) = particle {
                        self.expect(at, Expected::Element(&decl.name));
                    } else if let Particle::Any { namespaces, .. } = particle {
                        self.expect(at, Expected::Wildcard(namespaces));
                    }
                }
            }
            Particle::Group {
                kind: GroupKind::Sequence,
                items,
                ..
            } => {
                let mut at = starts.clone();
                for item in items {
                    at = self.particle(item, &at);
                }
                ends = at;
            }
            Particle::Group {
                kind: GroupKind::Choice,
                items,
                ..
            } => {
                for item in items {
                    let reached = self.particle(item, starts);
                    ends.union_with(&reached);
                }
            }
            Particle::Group {
                kind: GroupKind::All,
                items,
                ..
            } => {
                // Each item at most its max once, in any order: for Oozie's
                // schemas (no xs:all so far) a choice repeated per item is close
                // enough to report misplaced elements.
                let mut at = starts.clone();
                for _ in items {
                    let mut step = at.clone();
                    for item in items {
                        step.union_with(&self.particle(item, &at));
                    }
                    at = step;
                }
                ends = at;
            }
        }
        ends
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xml::read::parse;
    use crate::xml::tree::Arena;

    fn diagnostics(src: &str) -> Vec<Diagnostic> {
        let arena = Arena::new();
        let doc = parse(src, &arena).unwrap();
        validate(&doc)
    }

    fn problems(src: &str) -> Vec<String> {
        let arena = Arena::new();
        let doc = parse(src, &arena).unwrap();
        validate(&doc)
            .into_iter()
            .map(|d| format!("{} {}: {}", d.code, &src[d.span.range()], d.message))
            .collect()
    }

    const APP: &str = r#"<coordinator-app name="a" frequency="60" start="2009-01-01T00:00Z" end="2009-01-02T00:00Z" timezone="UTC" xmlns="uri:oozie:coordinator:0.1">
  <controls><timeout>10</timeout><concurrency>1</concurrency></controls>
  <datasets>
    <dataset name="logs" frequency="60" initial-instance="2009-01-01T00:00Z" timezone="UTC">
      <uri-template>hdfs://bar/${YEAR}</uri-template>
    </dataset>
  </datasets>
  <input-events>
    <data-in name="input" dataset="logs"><instance>${coord:current(0)}</instance></data-in>
  </input-events>
  <action><workflow><app-path>hdfs://bar/wf</app-path></workflow></action>
</coordinator-app>"#;

    /// An element `name` in `namespace` with nothing in it, as content models
    /// see a child.
    fn empty_element<'a>(namespace: &'a str, name: &'a str) -> Element<'a> {
        Element {
            namespace: Some(namespace),
            name,
            name_span: Span::EMPTY,
            span: Span::EMPTY,
            attributes: &[],
            children: &[],
            text: &[],
        }
    }

    /// Random child lists (names the type declares, and one it does not) for
    /// every content model of every schema, each with the exact matcher's
    /// verdict, given to `visit`.
    fn with_random_contents(
        mut seed: u64,
        mut visit: impl FnMut(&Schema, &ComplexType, &Particle, &[Element], bool),
    ) {
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for schema in schemas().all() {
            for ty in schema.complex_types() {
                let Some(content) = &ty.content else { continue };
                let mut names: Vec<&str> = ty.child_types.keys().map(String::as_str).collect();
                names.sort();
                names.push("unknown");
                for _ in 0..3000 {
                    let children: Vec<Element> = (0..next(9))
                        .map(|_| empty_element(&schema.namespace, names[next(names.len())]))
                        .collect();
                    let mut matcher = Matcher {
                        children: &children,
                        namespace: &schema.namespace,
                        furthest: 0,
                        expected: SmallVec::new(),
                        reached: 0,
                    };
                    let mut start = Positions::empty(children.len() + 1);
                    start.insert(0);
                    let exact = matcher.particle(content, &start).contains(children.len());
                    visit(schema, ty, content, &children, exact);
                }
            }
        }
    }

    /// The automaton of a content model accepts exactly what the exact
    /// matcher accepts, on random child lists (in order, out of order,
    /// unknown) for every content model that has one; and every model
    /// without a wildcard or `xs:all` has one but one, so valid content is
    /// read by it.
    #[test]
    fn the_content_automaton_agrees_with_the_exact_matcher() {
        fn open_ended(p: &Particle) -> bool {
            match p {
                Particle::Element(_) => false,
                Particle::Any { .. } => true,
                Particle::Group { kind, items, .. } => {
                    *kind == GroupKind::All || items.iter().any(open_ended)
                }
            }
        }
        let (mut models, mut without) = (0, 0);
        for ty in schemas().all().flat_map(|s| s.complex_types()) {
            match (&ty.content, &ty.dfa) {
                (Some(_), Some(_)) => models += 1,
                (Some(content), None) => without += usize::from(!open_ended(content)),
                (None, _) => {}
            }
        }
        assert!(
            models > 100,
            "too few content models with an automaton: {models}"
        );
        // Only coordinator 0.5's COMBINE, `(data-in{2,})*` as written, is
        // not deterministic (a third data-in starts a repeat of either).
        assert_eq!(without, 1, "content models without an automaton");
        let (mut valid, mut accepted) = (0, 0);
        with_random_contents(
            0x9e37_79b9_7f4a_7c15,
            |schema, ty, content, children, exact| {
                let Some(dfa) = &ty.dfa else { return };
                let by_dfa = in_order(children, dfa, &schema.namespace).is_some();
                let names: Vec<&str> = children.iter().map(|c| c.name).collect();
                assert_eq!(by_dfa, exact, "{names:?} in {}: {content:?}", schema.file);
                valid += usize::from(exact);
                accepted += usize::from(by_dfa);
            },
        );
        assert!(valid > 1000, "too few valid samples: {valid}");
        assert_eq!(valid, accepted);
    }

    #[test]
    fn a_content_automaton_follows_its_model() {
        use crate::xml::schema::{ElementDecl, Occurs};
        let (string, boolean) = (
            TypeRef::Builtin(Builtin::String),
            TypeRef::Builtin(Builtin::Boolean),
        );
        let type_of = |name: &str| if name == "c" { boolean } else { string };
        let element = |name: &str, min, max| {
            Particle::Element(ElementDecl {
                name: name.to_string(),
                ty: type_of(name),
                occurs: Occurs { min, max },
            })
        };
        let model = Particle::Group {
            kind: GroupKind::Sequence,
            items: vec![
                element("p", 2, None),
                element("a", 1, Some(1)),
                element("b", 0, Some(1)),
                element("c", 1, None),
            ],
            occurs: Occurs {
                min: 1,
                max: Some(1),
            },
        };
        let types = ["p", "a", "b", "c"]
            .into_iter()
            .map(|n| (n.to_string(), type_of(n)))
            .collect();
        let dfa = ContentDfa::build(&model, &types).expect("deterministic");
        let reads = |names: &[&str]| {
            let mut state = ContentDfa::START;
            for name in names {
                match dfa.step(state, name) {
                    Some(next) => state = next,
                    None => return false,
                }
            }
            dfa.accepts(state)
        };
        assert!(reads(&["p", "p", "a", "c"]));
        assert!(reads(&["p", "p", "p", "a", "b", "c", "c"]));
        assert!(!reads(&["p", "a", "c"]), "two paths at least");
        assert!(!reads(&["p", "p", "a", "b", "b", "c"]), "one b at most");
        assert!(!reads(&["p", "p", "a"]), "a c at least");
        assert!(!reads(&["p", "p", "c", "a"]), "in order");
        // The states `in_order` passes through carry each child's type.
        let children: Vec<Element> = ["p", "p", "a", "c"]
            .into_iter()
            .map(|name| empty_element("ns", name))
            .collect();
        let states = in_order(&children, &dfa, "ns").expect("in order");
        let read: Vec<Option<TypeRef>> = states.iter().map(|&s| dfa.child_type(s)).collect();
        assert_eq!(
            read,
            [Some(string), Some(string), Some(string), Some(boolean)]
        );
        assert_eq!(dfa.child_type(ContentDfa::START), None);
        // A name declared with two types gets no automaton.
        let mut other = types.clone();
        other.insert("c".to_string(), string);
        assert!(ContentDfa::build(&model, &other).is_none());
    }

    /// The greedy reading only ever accepts what the exact matcher accepts
    /// (it is a shortcut for valid content, never a different verdict), and
    /// it accepts nearly all valid content: random child lists for every
    /// content model of every schema.
    #[test]
    fn the_greedy_reading_agrees_with_the_exact_matcher() {
        let (mut valid, mut greedy_valid) = (0, 0);
        with_random_contents(
            0x2545_f491_4f6c_dd1d,
            |schema, _, content, children, exact| {
                let greedy = Greedy {
                    children,
                    namespace: &schema.namespace,
                };
                let by_greedy = greedy.repeat(content, 0) == Some(children.len());
                let names: Vec<&str> = children.iter().map(|c| c.name).collect();
                assert!(
                    !by_greedy || exact,
                    "greedy accepted {names:?} in {}",
                    schema.file
                );
                valid += usize::from(exact);
                greedy_valid += usize::from(by_greedy);
            },
        );
        assert!(valid > 1000, "too few valid samples: {valid}");
        assert!(
            greedy_valid * 100 >= valid * 99,
            "greedy read {greedy_valid} of {valid} valid lists"
        );
    }

    #[test]
    fn a_valid_coordinator_has_no_problems() {
        assert_eq!(problems(APP), Vec::<String>::new());
    }

    #[test]
    fn content_errors_name_the_element_and_what_was_expected() {
        // `throttle` arrived with schema 0.2.
        let src = APP.replace(
            "<concurrency>1</concurrency>",
            "<concurrency>1</concurrency><throttle>2</throttle>",
        );
        assert_eq!(
            problems(&src),
            ["XML004 throttle: `<throttle>` is not allowed here in `<controls>`"]
        );
        let src = APP.replace(
            "<action><workflow><app-path>hdfs://bar/wf</app-path></workflow></action>",
            "",
        );
        assert_eq!(
            problems(&src),
            [
                "XML004 coordinator-app: `<coordinator-app>` is incomplete: expected `<output-events>` or `<action>`"
            ]
        );
        // Out of order: datasets after input-events.
        let src = APP
            .replace(
                "<controls><timeout>10</timeout><concurrency>1</concurrency></controls>",
                "",
            )
            .replacen("<input-events>", "<input-events-x/><input-events>", 1);
        assert_eq!(
            problems(&src)[0],
            "XML004 input-events-x: `<input-events-x>` is not allowed here in `<coordinator-app>`"
        );
    }

    #[test]
    fn one_element_too_many_is_the_one_reported() {
        // timeout, concurrency, execution are all 0.1 allows: the throttle after
        // them is the misplaced one, not an earlier element.
        let src = APP.replace(
            "<concurrency>1</concurrency>",
            "<concurrency>1</concurrency><execution>FIFO</execution><throttle>2</throttle>",
        );
        assert_eq!(
            problems(&src),
            ["XML004 throttle: `<throttle>` is not allowed here in `<controls>`"]
        );
    }

    #[test]
    fn attribute_errors() {
        let src = APP.replace(r#"timezone="UTC" xmlns"#, r#"timezon="UTC" xmlns"#);
        assert_eq!(
            problems(&src),
            [
                "XML005 timezon: `<coordinator-app>` has no attribute `timezon`",
                "XML005 coordinator-app: `<coordinator-app>` is missing the required attribute `timezone`",
            ]
        );
        let src = APP.replace(r#"dataset name="logs""#, r#"dataset name="2logs""#);
        assert_eq!(
            problems(&src),
            [
                "XML006 2logs: the value of `name` `2logs` does not match the IDENTIFIER pattern `([a-zA-Z]([\\-_a-zA-Z0-9])*){1,39}`"
            ]
        );
    }

    #[test]
    fn the_application_name_is_free_text_as_oozie_publishes_it() {
        // Oozie's published coordinator schemas type the app `name` xs:string
        // (the spec's appendix says IDENTIFIER); real apps write `name="x-${env}"`.
        for version in ["0.1", "0.2", "0.3", "0.4", "0.5"] {
            let src = APP
                .replace(r#"name="a""#, r#"name="ingest-${env} hourly""#)
                .replace("coordinator:0.1", &format!("coordinator:{version}"));
            assert_eq!(problems(&src), Vec::<String>::new(), "schema {version}");
        }
        // Dataset names stay identifiers in every version.
        let src = APP
            .replace(r#"dataset name="logs""#, r#"dataset name="${logs}""#)
            .replace("coordinator:0.1", "coordinator:0.4");
        assert_eq!(problems(&src).len(), 1);
    }

    #[test]
    fn every_problem_is_reported_not_only_the_first() {
        let src = APP
            .replace(r#"dataset name="logs""#, r#"dataset name="bad name""#)
            .replace("<uri-template>", "<uri-templat>")
            .replace("</uri-template>", "</uri-templat>")
            .replace(r#"<data-in name="input""#, r#"<data-in"#);
        let found = problems(&src);
        assert_eq!(found.len(), 3, "{found:#?}");
    }

    #[test]
    fn sla_children_are_validated_with_their_own_schema() {
        let src = APP
            .replace("uri:oozie:coordinator:0.1", "uri:oozie:coordinator:0.4")
            .replace("</workflow></action>", "</workflow><sla:info xmlns:sla=\"uri:oozie:sla:0.2\"><sla:nominal-time>${coord:nominalTime()}</sla:nominal-time></sla:info></action>");
        assert_eq!(
            problems(&src),
            [
                "XML004 sla:info: `<info>` is incomplete: expected `<should-start>` or `<should-end>`"
            ]
        );
    }

    #[test]
    fn include_files_without_a_namespace_are_not_schema_checked() {
        let src = r#"<datasets><dataset name="d" frequency="60" initial-instance="2009-01-01T00:00Z" timezone="UTC"><uri-template>u</uri-template></dataset></datasets>"#;
        assert_eq!(problems(src), Vec::<String>::new());
    }

    #[test]
    fn unknown_namespaces_point_to_the_known_ones() {
        let src = APP.replace("uri:oozie:coordinator:0.1", "uri:oozie:coordinator:0.9");
        let arena = Arena::new();
        let doc = parse(&src, &arena).unwrap();
        let found = validate(&doc);
        assert_eq!(found[0].code, XML_UNKNOWN_DOCUMENT);
        assert!(
            found[0]
                .help
                .as_deref()
                .unwrap()
                .contains("uri:oozie:coordinator:0.5")
        );
    }

    #[test]
    fn workflow_versions_differ_as_oozie_publishes_them() {
        let workflow = |version: &str, body: &str| {
            format!(
                r#"<workflow-app xmlns="uri:oozie:workflow:{version}" name="wf">{body}<kill name="fail"><message>m</message></kill><end name="end"/></workflow-app>"#
            )
        };
        let fs = |op: &str| {
            format!(
                r#"<start to="a"/><action name="a"><fs>{op}</fs><ok to="end"/><error to="fail"/></action>"#
            )
        };
        // chgrp arrived with 0.5, touchz with 0.4; 0.1 had ssh as a core action.
        assert_eq!(
            problems(&workflow("0.5", &fs(r#"<chgrp path="p" group="g"/>"#))),
            Vec::<String>::new()
        );
        assert_eq!(
            problems(&workflow("0.4", &fs(r#"<touchz path="p"/>"#))),
            Vec::<String>::new()
        );
        assert!(
            problems(&workflow("0.4", &fs(r#"<chgrp path="p" group="g"/>"#)))[0]
                .starts_with("XML004 chgrp")
        );
        let ssh = r#"<start to="a"/><action name="a"><ssh><host>h</host><command>c</command></ssh><ok to="end"/><error to="fail"/></action>"#;
        assert_eq!(problems(&workflow("0.1", ssh)), Vec::<String>::new());
        // In 0.2 ssh is an extension action: in the workflow namespace it is unknown.
        assert!(problems(&workflow("0.2", ssh))[0].starts_with("XML004 ssh"));
        // An extension action in its own namespace passes.
        let shell = r#"<start to="a"/><action name="a"><shell xmlns="uri:oozie:shell-action:0.3"><exec>x</exec></shell><ok to="end"/><error to="fail"/></action>"#;
        assert_eq!(problems(&workflow("0.5", shell)), Vec::<String>::new());
        // The application name is xs:string in every version since OOZIE-637
        // (oozie-workflow-0.1.xsd:42, oozie-workflow-0.4.xsd:46).
        let named = |version: &str| {
            workflow(version, r#"<start to="end"/>"#).replace(r#"name="wf""#, r#"name="my wf""#)
        };
        assert_eq!(problems(&named("0.2")), Vec::<String>::new());
        assert_eq!(problems(&named("0.4")), Vec::<String>::new());
        // Before 0.4 the fs operations come in any order (a choice,
        // oozie-workflow-0.3.xsd:179-185, since OOZIE-817); setrep is 0.5's
        // (oozie-workflow-0.5.xsd:218), chgrp arrived with 0.4.5
        // (oozie-workflow-0.4.5.xsd:215), credentials with 0.2.5
        // (oozie-workflow-0.2.5.xsd:32), retry-max with 0.3 (oozie-workflow-0.3.xsd:136).
        assert_eq!(
            problems(&workflow(
                "0.1",
                &fs(r#"<mkdir path="p"/><delete path="p"/>"#)
            )),
            Vec::<String>::new()
        );
        let setrep = fs(r#"<setrep path="p" replication-factor="2"/>"#);
        assert_eq!(problems(&workflow("0.5", &setrep)), Vec::<String>::new());
        assert!(problems(&workflow("0.4.5", &setrep))[0].starts_with("XML004 setrep"));
        assert!(
            problems(&workflow("0.5", &setrep.replace('2', "two")))[0].starts_with("XML006 two")
        );
        assert_eq!(
            problems(&workflow("0.4.5", &fs(r#"<chgrp path="p" group="g"/>"#))),
            Vec::<String>::new()
        );
        let credentials = |version: &str| {
            workflow(
                version,
                r#"<credentials><credential name="c" type="hcat"/></credentials><start to="a"/><action name="a" cred="c" retry-max="2"><fs/><ok to="end"/><error to="fail"/></action>"#,
            )
        };
        assert_eq!(problems(&credentials("0.3")), Vec::<String>::new());
        assert_eq!(
            problems(&credentials("0.2.5")),
            ["XML005 retry-max: `<action>` has no attribute `retry-max`"]
        );
        assert!(problems(&credentials("0.2"))[0].starts_with("XML004 credentials"));
        // 1.0 (Oozie 5): resource-manager instead of job-tracker, <launcher>,
        // and the fs operations of the included oozie-common-1.0.
        let java = r#"<start to="a"/><action name="a"><java><resource-manager>rm</resource-manager><name-node>nn</name-node><launcher><memory.mb>2048</memory.mb><queue>q</queue></launcher><main-class>M</main-class></java><ok to="end"/><error to="fail"/></action>"#;
        assert_eq!(problems(&workflow("1.0", java)), Vec::<String>::new());
        assert!(problems(&workflow("0.5", java))[0].starts_with("XML004 resource-manager"));
        assert_eq!(
            problems(&workflow(
                "1.0",
                &fs(r#"<chgrp path="p" group="g"><recursive/></chgrp>"#)
            )),
            Vec::<String>::new()
        );
        let memory = java.replace("2048", "lots");
        assert!(problems(&workflow("1.0", &memory))[0].starts_with("XML006 lots"));
    }

    /// A workflow of schema `version` with `actions` between start and end.
    fn workflow_with(version: &str, actions: &str) -> String {
        format!(
            r#"<workflow-app xmlns="uri:oozie:workflow:{version}" name="wf"><start to="a"/>{actions}<kill name="fail"><message>m</message></kill><end name="end"/></workflow-app>"#
        )
    }

    fn action(name: &str, body: &str) -> String {
        format!(r#"<action name="{name}">{body}<ok to="end"/><error to="fail"/></action>"#)
    }

    /// Each element an action's `xs:any namespace="##other"` takes
    /// (oozie-workflow-0.5.xsd:153, strict) is validated against the schema
    /// of its namespace, nested elements included, every problem at once.
    #[test]
    fn extension_actions_are_validated_with_their_own_schema() {
        let shell = |body: &str| {
            action(
                "a",
                &format!(r#"<shell xmlns="uri:oozie:shell-action:0.3">{body}</shell>"#),
            )
        };
        let valid = shell(
            "<job-tracker>jt</job-tracker><name-node>nn</name-node><prepare><delete path=\"p\"/></prepare><exec>run.sh</exec><argument>a</argument><capture-output/>",
        );
        assert_eq!(
            problems(&workflow_with("0.5", &valid)),
            Vec::<String>::new()
        );
        // `exec` is required (shell-action-0.3.xsd:33); a misspelt prepare
        // operation, a misplaced argument and an attribute, in three actions.
        let src = workflow_with(
            "0.5",
            &[
                shell("<argument>a</argument>"),
                shell("<prepare><delet path=\"p\"/></prepare><exec>x</exec>"),
                shell("<exec>x</exec><capture-output kind=\"all\"/>"),
            ]
            .concat(),
        );
        assert_eq!(
            problems(&src),
            [
                "XML004 argument: `<argument>` is not allowed here in `<shell>`",
                "XML004 delet: `<delet>` is not allowed here in `<prepare>`",
                "XML005 kind: `<capture-output>` has no attribute `kind`",
            ]
        );
        // The 1.0 schemas' included types (oozie-common-1.0.xsd:24, LAUNCHER's
        // memory.mb is xs:unsignedInt), in spark-action-1.0.xsd:35.
        let spark = |memory: &str| {
            workflow_with(
                "1.0",
                &action(
                    "a",
                    &format!(
                        r#"<spark xmlns="uri:oozie:spark-action:1.0"><resource-manager>rm</resource-manager><name-node>nn</name-node><launcher><memory.mb>{memory}</memory.mb></launcher><master>yarn</master><name>n</name><jar>j.jar</jar></spark>"#
                    ),
                ),
            )
        };
        assert_eq!(problems(&spark("2048")), Vec::<String>::new());
        assert_eq!(
            problems(&spark("-1")),
            ["XML006 -1: the value of `<memory.mb>` -1 is outside 0 to 4294967295"]
        );
    }

    #[test]
    fn an_action_in_the_workflow_namespace_is_told_its_own() {
        let bare = action("a", "<shell><exec>x</exec></shell>");
        let found = diagnostics(&workflow_with("0.5", &bare));
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].message,
            "`<shell>` is not allowed here in `<action>`"
        );
        assert_eq!(
            found[0].help.as_deref(),
            Some(
                r#"`<shell>` is declared by its own schema: write `<shell xmlns="uri:oozie:shell-action:0.3">` (uri:oozie:shell-action has versions 0.1, 0.2, 0.3 and 1.0)"#
            )
        );
        // Workflow 1.0 pairs with the 1.0 actions; git has 1.0 only.
        let help = |version: &str, element: &str| {
            let src = workflow_with(version, &action("a", &format!("<{element}/>")));
            diagnostics(&src)[0].help.clone().unwrap()
        };
        assert!(help("1.0", "shell").contains(r#"xmlns="uri:oozie:shell-action:1.0""#));
        assert!(help("0.5", "git").contains(r#"xmlns="uri:oozie:git-action:1.0""#));
        // ssh was a core action of workflow 0.1 only.
        assert!(help("0.2", "ssh").contains(r#"xmlns="uri:oozie:ssh-action:0.2""#));
        // An element its namespace's schema does not declare.
        let wrong = action(
            "a",
            r#"<hive xmlns="uri:oozie:shell-action:0.3"><script>q</script></hive>"#,
        );
        let found = diagnostics(&workflow_with("0.5", &wrong));
        assert_eq!(
            found[0].message,
            "`<hive>` is not an element of uri:oozie:shell-action:0.3 (which declares `<shell>`)"
        );
        assert!(
            found[0]
                .help
                .as_deref()
                .unwrap()
                .contains(r#"write `<hive xmlns="uri:oozie:hive-action:0.6">`"#)
        );
        // The workflow schemas declare their core actions globally too
        // (oozie-workflow-0.4.xsd:139-143), so another version's `<java>` is
        // what the action's `##other` takes, as in Xerces.
        let java = action(
            "a",
            r#"<java xmlns="uri:oozie:workflow:0.4"><main-class>M</main-class></java>"#,
        );
        assert_eq!(problems(&workflow_with("0.5", &java)), Vec::<String>::new());
        // A namespace coordc has no schema for is the action check's (WF008).
        let custom = action("a", r#"<sge xmlns="uri:custom:sge-action:1.0"/>"#);
        assert_eq!(
            problems(&workflow_with("0.5", &custom)),
            Vec::<String>::new()
        );
    }

    /// `java-opts` is one element in every version; `java-opt`, repeatable,
    /// is its alternative from 0.4 (oozie-workflow-0.5.xsd:232-233;
    /// oozie-workflow-0.3.xsd:196 has java-opts alone).
    #[test]
    fn a_repeated_java_opts_is_told_of_java_opt() {
        let java = action(
            "a",
            "<java><job-tracker>jt</job-tracker><name-node>nn</name-node><main-class>M</main-class><java-opts>-Xmx1g</java-opts><java-opts>-Da=b</java-opts></java>",
        );
        let help = |version: &str| {
            let found = diagnostics(&workflow_with(version, &java));
            assert_eq!(found.len(), 1, "{found:?}");
            assert_eq!(
                found[0].message,
                "`<java-opts>` is not allowed here in `<java>`"
            );
            found[0].help.clone().unwrap()
        };
        assert_eq!(
            help("0.5"),
            "`<java-opts>` may appear only once in `<java>`: write each value in a `<java-opt>` of its own instead"
        );
        assert_eq!(
            help("0.3"),
            "`<java-opts>` may appear only once in `<java>`: merge them into one, or use `<java-opt>`, one for each value, which uri:oozie:workflow:0.4, 0.4.5, 0.5 and 1.0 have"
        );
        // distcp has java-opts alone, in every version (distcp-action-0.2.xsd:31).
        let distcp = action(
            "a",
            r#"<distcp xmlns="uri:oozie:distcp-action:0.2"><java-opts>-Xmx1g</java-opts><java-opts>-Da=b</java-opts></distcp>"#,
        );
        assert_eq!(
            diagnostics(&workflow_with("0.5", &distcp))[0]
                .help
                .as_deref(),
            Some("`<java-opts>` may appear only once in `<distcp>`: merge them into one")
        );
        // Repeated elements without a plural form are named alone.
        let shell = action(
            "a",
            r#"<shell xmlns="uri:oozie:shell-action:0.3"><exec>a</exec><exec>b</exec></shell>"#,
        );
        assert_eq!(
            diagnostics(&workflow_with("0.5", &shell))[0]
                .help
                .as_deref(),
            Some("`<exec>` may appear only once in `<shell>`")
        );
    }

    #[test]
    fn matching_is_linear_in_the_number_of_children() {
        // 20,000 datasets under an unbounded choice: a backtracking matcher
        // would not finish; this one visits each position once per particle.
        let dataset = r#"<dataset name="d" frequency="60" initial-instance="2009-01-01T00:00Z" timezone="UTC"><uri-template>u</uri-template></dataset>"#;
        let src = format!(
            r#"<datasets xmlns="uri:oozie:coordinator:0.5">{}<bogus/></datasets>"#,
            dataset.repeat(20_000)
        );
        let found = problems(&src);
        assert_eq!(found.len(), 1);
        assert!(found[0].starts_with("XML004 bogus"), "{found:?}");
    }
}
