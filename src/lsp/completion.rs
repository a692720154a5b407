//! Completion of the names that are legal where the cursor is: in EL, the
//! functions of the place's group (no `coord:dataIn` in a uri-template),
//! the constants and the job's variables; in `coord:dataIn('…')` and
//! `coord:dataOut('…')` the data-ins and data-outs; in `dataset="…"` the
//! datasets (included ones too); in `to="…"` the workflow's nodes; and the
//! elements and attributes the schema allows.

use super::cursor::{self, Cursor, Spot};
use super::session::Session;
use super::{job, navigate, proto};
use crate::el::library::{CONSTANTS, FUNCTIONS, Place};
use crate::xml;
use crate::xml::schema::{ComplexType, Schema, TypeRef, schemas};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

/// LSP `CompletionItemKind`s.
const FUNCTION: u32 = 3;
const FIELD: u32 = 5;
const VARIABLE: u32 = 6;
const PROPERTY: u32 = 10;
const REFERENCE: u32 = 18;
const CONSTANT: u32 = 21;

/// One name to offer, and what it is.
struct Item {
    label: String,
    kind: u32,
    detail: Option<String>,
    documentation: Option<String>,
}

/// The completion items at byte `offset` of the open document at `path`,
/// each replacing `start..offset` (what is typed of the name).
pub(super) fn complete(
    session: &Session,
    path: &Path,
    offset: usize,
) -> Option<(Vec<Value>, usize)> {
    let doc = session.documents.get(path)?;
    let text: &str = &doc.text;
    let at = cursor::at(text, offset);
    let (items, start) = items(session, path, text, &at, offset)?;
    let typed = text.get(start..offset).unwrap_or("");
    let range = doc.index.range(text, start, offset, session.encoding);
    let values = items
        .into_iter()
        .filter(|i| i.label.starts_with(typed))
        .map(|i| proto::completion_item(i.label, i.kind, &range, i.detail, i.documentation))
        .collect();
    Some((values, start))
}

fn items(
    session: &Session,
    path: &Path,
    text: &str,
    at: &Cursor,
    offset: usize,
) -> Option<(Vec<Item>, usize)> {
    match &at.spot {
        Spot::ElementName { start } => Some((elements(text, at), *start)),
        Spot::AttributeName {
            element, present, ..
        } => {
            let typed_from = cursor::word_start(&text[..offset], |c| !c.is_whitespace());
            Some((attributes(text, at, element, present), typed_from))
        }
        Spot::AttributeValue { .. } | Spot::Text { .. } => {
            let value = at.value()?;
            if let Some(expr) = cursor::expression_at(text, value, offset) {
                return el(session, path, text, at, expr, offset);
            }
            let (start, _) = value;
            let in_logic = at.elements.contains(&"input-logic");
            let names = match (at.element()?, at.attribute()?) {
                // In `<input-logic>`, a data-in names one of the data-ins.
                ("data-in", "dataset") if in_logic => names_of(text, &["data-in"])
                    .into_iter()
                    .map(|n| named(n, REFERENCE, "a data-in of this coordinator"))
                    .collect(),
                ("data-in" | "data-out", "dataset") => datasets(session, path, text),
                (_, "to") | ("path" | "start", "start") => {
                    names_of(text, &["action", "decision", "fork", "join", "kill", "end"])
                        .into_iter()
                        .map(|n| named(n, REFERENCE, "a node of this workflow"))
                        .collect()
                }
                _ => return None,
            };
            Some((names, start))
        }
        Spot::Elsewhere => None,
    }
}

fn named(label: String, kind: u32, detail: &str) -> Item {
    Item {
        label,
        kind,
        detail: Some(detail.to_string()),
        documentation: None,
    }
}

/// In an EL expression: the data-ins or data-outs in a `coord:dataIn('…')`
/// or `coord:dataOut('…')`; else the functions, constants and variables
/// legal here.
fn el(
    session: &Session,
    path: &Path,
    text: &str,
    at: &Cursor,
    expr: (usize, usize),
    offset: usize,
) -> Option<(Vec<Item>, usize)> {
    if let Some((function, start, _)) = cursor::string_argument_at(text, expr, offset) {
        let (element, what) = if function.starts_with("coord:dataIn") {
            ("data-in", "a data-in of this coordinator")
        } else if function.starts_with("coord:dataOut") {
            ("data-out", "a data-out of this coordinator")
        } else {
            return None;
        };
        let names = names_of(text, &[element])
            .into_iter()
            .map(|n| named(n, REFERENCE, what))
            .collect();
        return Some((names, start));
    }
    let start = expr.0
        + cursor::word_start(&text[expr.0..offset], |c| {
            c.is_ascii_alphanumeric() || matches!(c, '_' | ':' | '.')
        });
    let place = at.place()?;
    let mut items: Vec<Item> = Vec::new();
    let mut seen = BTreeSet::new();
    for f in FUNCTIONS.iter().filter(|f| f.places.contains(&place)) {
        let label = f.qualified_name();
        if seen.insert(label.clone()) {
            items.push(Item {
                label,
                kind: FUNCTION,
                detail: Some(f.signature()),
                documentation: Some(f.doc.to_string()),
            });
        }
    }
    for c in CONSTANTS.iter().filter(|c| constant_legal(c.places, place)) {
        items.push(Item {
            label: c.name.to_string(),
            kind: CONSTANT,
            detail: Some("EL constant".into()),
            documentation: Some(c.doc.to_string()),
        });
    }
    if let Some((vars, _)) = job::variables(session, path) {
        let mut vars: Vec<_> = vars.into_iter().collect();
        vars.sort();
        for (name, value) in vars {
            items.push(Item {
                label: name,
                kind: VARIABLE,
                detail: Some(format!("= {}", value.as_deref().unwrap_or("null"))),
                documentation: None,
            });
        }
    }
    Some((items, start))
}

fn constant_legal(places: &[Place], place: Place) -> bool {
    places.contains(&place)
}

/// The datasets a data-in or data-out can name: the coordinator's and its
/// includes' (the document's own, when it cannot be loaded).
fn datasets(session: &Session, path: &Path, text: &str) -> Vec<Item> {
    let loaded = job::with_coordinator(session, path, |app, included, _| {
        app.datasets
            .iter()
            .chain(included)
            .map(|d| {
                let detail = format!("uri-template {}", d.uri_template.text());
                named(d.name.name.clone(), FIELD, &detail)
            })
            .collect::<Vec<_>>()
    });
    loaded.unwrap_or_else(|| {
        names_of(text, &["dataset"])
            .into_iter()
            .map(|n| named(n, FIELD, "a dataset"))
            .collect()
    })
}

/// The `name` attributes of the elements named `elements` in `text`, each
/// once, read from its tree (recovered where the text is not well-formed,
/// as while it is typed).
pub(super) fn names_of(text: &str, elements: &[&str]) -> Vec<String> {
    let names: BTreeSet<&str> = navigate::tags(text)
        .iter()
        .filter(|tag| elements.contains(&tag.name))
        .filter_map(|tag| tag.attributes.iter().find(|a| a.0 == "name"))
        .map(|&(_, start, end)| &text[start..end])
        .collect();
    names.into_iter().map(str::to_string).collect()
}

/// The schema of the document (its root's namespace, read from its
/// recovered tree), and the complex type of the element the cursor's
/// elements lead to.
fn element_type<'s>(text: &str, path: &[&str]) -> Option<(&'s Schema, &'s ComplexType)> {
    let arena = xml::tree::arena_for(text.len());
    let namespace = xml::read(text, &arena).document?.root.namespace?;
    let schema = schemas().get(namespace)?;
    let (root, rest) = path.split_first()?;
    let mut ty = &schema.global(local(root))?.ty;
    for name in rest {
        let TypeRef::Complex(index) = ty else {
            return None;
        };
        ty = schema.complex(*index)?.child_types.get(local(name))?;
    }
    match ty {
        TypeRef::Complex(index) => Some((schema, schema.complex(*index)?)),
        _ => None,
    }
}

fn local(name: &str) -> &str {
    name.rsplit(':').next().unwrap_or(name)
}

/// The elements the schema allows in the element around the cursor (the
/// documents coordc reads, at the top).
fn elements(text: &str, at: &Cursor) -> Vec<Item> {
    if at.elements.is_empty() {
        return ["coordinator-app", "workflow-app", "bundle-app", "datasets"]
            .into_iter()
            .map(|n| named(n.to_string(), PROPERTY, "an Oozie document"))
            .collect();
    }
    let Some((_, ty)) = element_type(text, &at.elements) else {
        return Vec::new();
    };
    let names: BTreeSet<&String> = ty.child_types.keys().collect();
    names
        .into_iter()
        .map(|n| named(n.clone(), PROPERTY, "an element the schema allows here"))
        .collect()
}

/// The attributes the schema allows on `element`, less those it has.
fn attributes(text: &str, at: &Cursor, element: &str, present: &[&str]) -> Vec<Item> {
    let mut path = at.elements.clone();
    path.push(element);
    let Some((_, ty)) = element_type(text, &path) else {
        return Vec::new();
    };
    ty.attributes
        .iter()
        .filter(|a| !present.contains(&a.name.as_str()))
        .map(|a| {
            let detail = if a.required { "required" } else { "optional" };
            named(a.name.clone(), FIELD, detail)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_read_from_start_tags() {
        let text = r#"<a><data-in name="x" dataset="d"/><data-ins/><data-in
            dataset='e' name='y'><!-- <data-in name="z"/> -->"#;
        assert_eq!(names_of(text, &["data-in"]), ["x", "y"]);
    }
}
