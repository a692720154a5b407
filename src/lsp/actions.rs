//! Code actions: the fixes diagnostics carry (`diag::Fix`), the same edits
//! `coordc check --fix` (the safe ones) and `--unsafe-fixes` make, offered
//! where the editor asks; only the safe ones preferred.

use super::proto;
use super::session::Session;
use super::text::Position;
use crate::diag::Safety;
use serde_json::Value;
use std::path::Path;

/// The quick fixes of the problems of the document at `path` that touch
/// `range` (an LSP range).
pub(super) fn code_actions(session: &Session, path: &Path, range: &Value) -> Value {
    let Some(doc) = session.documents.get(path) else {
        return proto::empty_list();
    };
    let encoding = session.encoding;
    let offset = |key: &str| {
        range
            .get(key)
            .and_then(Position::from_json)
            .map(|p| doc.index.offset(&doc.text, p, encoding))
    };
    let (Some(start), Some(end)) = (offset("start"), offset("end")) else {
        return proto::empty_list();
    };
    let Some(found) = session.problems(path) else {
        return proto::empty_list();
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
        let range = (doc.index).range(
            &doc.text,
            fix.span.start as usize,
            fix.span.end as usize,
            encoding,
        );
        // Only a safe fix is preferred (an editor may apply it with one key,
        // or on save); an unsafe one says what it changes.
        let safe = fix.safety() == Safety::Safe;
        let title = if safe {
            format!("{}: {}", d.code, fix.describe(&doc.text))
        } else {
            format!(
                "{}: {} (unsafe: it {})",
                d.code,
                fix.describe(&doc.text),
                fix.kind.effect()
            )
        };
        actions.push(proto::quick_fix(
            title,
            safe,
            &doc.uri,
            range,
            &fix.replacement,
        ));
    }
    Value::Array(actions)
}
