//! Code actions: the fixes diagnostics carry (`diag::Fix`), the same edits
//! `coordc check --fix` makes, offered where the editor asks.

use super::session::Session;
use super::text::Position;
use serde_json::{Value, json};
use std::path::Path;

/// The quick fixes of the problems of the document at `path` that touch
/// `range` (an LSP range).
pub fn code_actions(session: &Session, path: &Path, range: &Value) -> Value {
    let Some(doc) = session.documents.get(path) else {
        return json!([]);
    };
    let encoding = session.encoding;
    let offset = |key: &str| {
        range
            .get(key)
            .and_then(Position::from_json)
            .map(|p| doc.index.offset(&doc.text, p, encoding))
    };
    let (Some(start), Some(end)) = (offset("start"), offset("end")) else {
        return json!([]);
    };
    let Some(found) = session.problems(path) else {
        return json!([]);
    };
    let mut actions = Vec::new();
    for f in found {
        let d = &f.problem.diagnostic;
        let Some(fix) = &d.fix else { continue };
        // (Only a fix made on the text the editor has: an older check's
        // offsets would edit the wrong place.)
        if !std::sync::Arc::ptr_eq(f.text, &doc.text) {
            continue;
        }
        let (from, to) = (d.span.start as usize, d.span.end as usize);
        if to < start || from > end {
            continue;
        }
        let old = doc.text.get(fix.span.range()).unwrap_or("");
        let edit = json!({
            "range": doc.index.range(&doc.text, fix.span.start as usize, fix.span.end as usize, encoding),
            "newText": fix.replacement,
        });
        let title = if old.is_empty() {
            format!("{}: insert `{}`", d.code, fix.replacement)
        } else {
            format!("{}: replace `{old}` with `{}`", d.code, fix.replacement)
        };
        let uri = &doc.uri;
        actions.push(json!({
            "title": title,
            "kind": "quickfix",
            "isPreferred": true,
            "edit": { "changes": { uri.as_str(): [edit] } },
        }));
    }
    Value::Array(actions)
}
