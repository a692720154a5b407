//! The protocol's values, built in this one module: every JSON object the
//! server sends (results, notifications, their parts) is made here from
//! coordc's own values, as rust-analyzer's `to_proto` does.
//!
//! Plain `serde_json`, not the typed `lsp-types`: the server answers a
//! dozen methods with a few dozen fields, which these functions name as
//! the specification does (LSP 3.17); the typed crate would add thousands
//! of types to build, a version to keep with the protocol's, and a second
//! conversion for the members that change by client (the position
//! encoding, pull diagnostics). What arrives is read where it is used,
//! with `serde_json`'s lookups, each tolerating what a client leaves out.

use super::text::Position;
use crate::diag::{Safety, Severity};
use serde_json::{Map, Value, json};

/// Sets the member `key` of `object`, an object built here.
fn set(object: &mut Value, key: &str, value: Value) {
    if let Some(members) = object.as_object_mut() {
        members.insert(key.to_string(), value);
    }
}

/// An empty list (no symbols, no code actions).
pub(super) fn empty_list() -> Value {
    json!([])
}

pub(super) fn position(position: Position) -> Value {
    json!({ "line": position.line, "character": position.character })
}

pub(super) fn range(start: Position, end: Position) -> Value {
    json!({ "start": position(start), "end": position(end) })
}

/// The `InitializeResult`, with the server's capabilities: the position
/// encoding agreed on (`encoding`), and pull diagnostics when the client
/// `pulls` them.
pub(super) fn initialize_result(encoding: &str, pulls: bool, token_types: &[&str]) -> Value {
    let mut capabilities = json!({
        "positionEncoding": encoding,
        "textDocumentSync": {
            "openClose": true,
            // Incremental: a keystroke sends its edit, not the document.
            "change": 2,
            "save": { "includeText": false },
        },
        "codeActionProvider": { "codeActionKinds": ["quickfix"] },
        "hoverProvider": true,
        "definitionProvider": true,
        "referencesProvider": true,
        "renameProvider": { "prepareProvider": true },
        "documentSymbolProvider": true,
        "semanticTokensProvider": {
            "legend": { "tokenTypes": token_types, "tokenModifiers": [] },
            "full": true,
        },
        "completionProvider": { "triggerCharacters": ["{", ":", "'", "\"", "<", " "] },
    });
    if pulls {
        set(
            &mut capabilities,
            "diagnosticProvider",
            json!({
                "identifier": "coordc",
                "interFileDependencies": true,
                "workspaceDiagnostics": false,
            }),
        );
    }
    json!({
        "capabilities": capabilities,
        "serverInfo": { "name": "coordc", "version": env!("CARGO_PKG_VERSION") },
    })
}

/// A diagnostic: where, how severe, its rule (`code`, with its page at
/// `href`) and what it says.
pub(super) fn diagnostic(
    range: Value,
    severity: Severity,
    code: &str,
    message: String,
    href: String,
) -> Value {
    let mut out = json!({
        "range": range,
        "severity": match severity {
            Severity::Error => 1,
            Severity::Warning => 2,
            Severity::Note => 3,
        },
        "code": code,
        "source": "coordc",
        "message": message,
    });
    set(&mut out, "codeDescription", json!({ "href": href }));
    out
}

/// A `DiagnosticRelatedInformation`: a place and what it is to the problem.
pub(super) fn related(uri: &str, range: Value, message: &str) -> Value {
    json!({
        "location": { "uri": uri, "range": range },
        "message": message,
    })
}

/// Adds the related places to `diagnostic`.
pub(super) fn with_related(diagnostic: &mut Value, related: Vec<Value>) {
    set(diagnostic, "relatedInformation", Value::Array(related));
}

/// Adds the fix of `diagnostic` as its `data`: the edit and how safe it is.
pub(super) fn with_fix(diagnostic: &mut Value, range: Value, new_text: &str, safety: Safety) {
    let fix = json!({
        "fix": {
            "range": range,
            "newText": new_text,
            "applicability": safety,
        }
    });
    set(diagnostic, "data", fix);
}

/// A pulled document's diagnostics, all of them.
pub(super) fn diagnostic_report(items: Vec<Value>) -> Value {
    json!({ "kind": "full", "items": items })
}

/// The notification's parameters of a document's diagnostics.
pub(super) fn publish_diagnostics(
    uri: &str,
    version: Option<i32>,
    diagnostics: Vec<Value>,
) -> Value {
    let mut params = json!({ "uri": uri, "diagnostics": diagnostics });
    if let Some(version) = version {
        set(&mut params, "version", json!(version));
    }
    params
}

/// A code action that makes one edit in the document at `uri`.
pub(super) fn quick_fix(
    title: String,
    preferred: bool,
    uri: &str,
    range: Value,
    new_text: &str,
) -> Value {
    let edit = json!({ "range": range, "newText": new_text });
    json!({
        "title": title,
        "kind": "quickfix",
        "isPreferred": preferred,
        "edit": { "changes": { uri: [edit] } },
    })
}

/// A completion item that replaces `range` with `label`.
pub(super) fn completion_item(
    label: String,
    kind: u32,
    range: &Value,
    detail: Option<String>,
    documentation: Option<String>,
) -> Value {
    let mut item = json!({
        "label": label,
        "kind": kind,
        "textEdit": { "range": range, "newText": label },
    });
    if let Some(detail) = detail {
        set(&mut item, "detail", json!(detail));
    }
    if let Some(doc) = documentation {
        set(&mut item, "documentation", markdown(doc));
    }
    item
}

pub(super) fn completion_list(items: Vec<Value>) -> Value {
    json!({ "isIncomplete": false, "items": items })
}

fn markdown(value: String) -> Value {
    json!({ "kind": "markdown", "value": value })
}

pub(super) fn hover(text: String, range: Value) -> Value {
    json!({ "contents": markdown(text), "range": range })
}

pub(super) fn location(uri: String, range: Value) -> Value {
    json!({ "uri": uri, "range": range })
}

pub(super) fn prepare_rename(range: Value, placeholder: &str) -> Value {
    json!({ "range": range, "placeholder": placeholder })
}

/// The edits of a rename: `new_text` at each `(uri, range)`, by document.
pub(super) fn rename_edit(places: impl Iterator<Item = (String, Value)>, new_text: &str) -> Value {
    let mut changes = Map::new();
    for (uri, range) in places {
        let edits = changes.entry(uri).or_insert_with(empty_list);
        if let Some(list) = edits.as_array_mut() {
            list.push(json!({ "range": range, "newText": new_text }));
        }
    }
    json!({ "changes": changes })
}

/// A `DocumentSymbol`.
pub(super) fn document_symbol(
    name: &str,
    detail: &str,
    kind: u32,
    range: Value,
    selection: Value,
) -> Value {
    json!({
        "name": name,
        "detail": detail,
        "kind": kind,
        "range": range,
        "selectionRange": selection,
    })
}

pub(super) fn semantic_tokens(data: Vec<u32>) -> Value {
    json!({ "data": data })
}

/// The parameters of `window/showMessage` for an error.
pub(super) fn error_message(message: String) -> Value {
    json!({ "type": 1, "message": message })
}
