//! coordc's problems as LSP diagnostics: the same codes, severities, help
//! and related places as `coordc check`, a link to the rule's page, and the
//! fix a diagnostic carries (for code actions).

use super::proto;
use super::session::{Found, Session};
use super::text::{LineIndex, Position};
use crate::diag::rules;
use crate::project::files::normal;
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;

/// Where a rule's page is linked from (`codeDescription.href`): the
/// client's `initializationOptions.rulesUrl` (a URL with `{code}` in it),
/// else the `docs-url` of the coordc.toml of the application the problem
/// was found in, else coordc's published pages ([`rules::docs_url`]).
pub(super) fn rule_url(client: Option<&str>, folder: Option<&str>, code: &str) -> String {
    rules::docs_url(client.or(folder), code)
}

/// The diagnostics of the file at `path` (`None`: not a document coordc
/// checks, nothing to publish).
pub(super) fn of_file(
    session: &Session,
    path: &Path,
    rules_url: Option<&str>,
) -> Option<Vec<Value>> {
    let found = session.problems(path)?;
    // The lines of each text a problem was found in, once (the open
    // document's, when that is the text).
    let mut indexes: HashMap<*const str, LineIndex> = HashMap::new();
    Some(
        found
            .iter()
            .map(|f| {
                let key = std::sync::Arc::as_ptr(f.text);
                let open = session
                    .documents
                    .get(&normal(Path::new(f.file)))
                    .filter(|doc| std::sync::Arc::ptr_eq(&doc.text, f.text));
                let index = match open {
                    Some(doc) => &doc.index,
                    None => &*indexes.entry(key).or_insert_with(|| LineIndex::new(f.text)),
                };
                to_lsp(session, f, index, rules_url)
            })
            .collect(),
    )
}

fn to_lsp(session: &Session, found: &Found, index: &LineIndex, rules_url: Option<&str>) -> Value {
    let d = &found.problem.diagnostic;
    let text: &str = found.text;
    let range =
        |start: u32, end: u32| index.range(text, start as usize, end as usize, session.encoding);
    let mut message = d.message.clone();
    if let Some(help) = &d.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    let uri = url::Url::from_file_path(normal(Path::new(found.file)))
        .map(String::from)
        .unwrap_or_default();
    let href = rule_url(rules_url, found.docs_url, d.code.as_str());
    let range_of = |span: crate::span::Span| range(span.start, span.end);
    let mut out = proto::diagnostic(range_of(d.span), d.severity, d.code.as_str(), message, href);
    if !d.labels.is_empty() || !d.related.is_empty() {
        let mut related: Vec<Value> = d
            .labels
            .iter()
            .map(|l| proto::related(&uri, range_of(l.span), &l.message))
            .collect();
        // Places in other files, in the text the server has of each (a
        // file it did not read is pointed at its start).
        for place in &d.related {
            let path = normal(Path::new(&*place.file));
            let place_uri = url::Url::from_file_path(&path)
                .map(String::from)
                .unwrap_or_default();
            let place_range = match session.text_of(&path) {
                Some(text) => LineIndex::new(text).range(
                    text,
                    place.span.start as usize,
                    place.span.end as usize,
                    session.encoding,
                ),
                None => {
                    let start = Position {
                        line: 0,
                        character: 0,
                    };
                    proto::range(start, start)
                }
            };
            related.push(proto::related(&place_uri, place_range, &place.message));
        }
        proto::with_related(&mut out, related);
    }
    if let Some(fix) = &d.fix {
        proto::with_fix(&mut out, range_of(fix.span), &fix.replacement, fix.safety());
    }
    out
}
