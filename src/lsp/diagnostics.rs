//! coordc's problems as LSP diagnostics: the same codes, severities, help
//! and related places as `coordc check`, a link to the rule's page, and the
//! fix a diagnostic carries (for code actions).

use super::session::{Found, Session};
use super::text::LineIndex;
use crate::diag::Severity;
use crate::diag::rules;
use crate::project::files::normal;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::path::Path;

/// Where a rule's page is linked from (`codeDescription.href`): the
/// client's `initializationOptions.rulesUrl` (a URL with `{code}` in it),
/// else the `docs-url` of the coordc.toml of the application the problem
/// was found in, else coordc's published pages ([`rules::docs_url`]).
pub fn rule_url(client: Option<&str>, folder: Option<&str>, code: &str) -> String {
    rules::docs_url(client.or(folder), code)
}

/// The diagnostics of the file at `path` (`None`: not a document coordc
/// checks, nothing to publish).
pub fn of_file(session: &Session, path: &Path, rules_url: Option<&str>) -> Option<Vec<Value>> {
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
    let mut out = json!({
        "range": range(d.span.start, d.span.end),
        "severity": match d.severity {
            Severity::Error => 1,
            Severity::Warning => 2,
            Severity::Note => 3,
        },
        "code": d.code,
        "source": "coordc",
        "message": message,
    });
    let href = rule_url(rules_url, found.docs_url, d.code.as_str());
    super::set(&mut out, "codeDescription", json!({ "href": href }));
    if !d.labels.is_empty() || !d.related.is_empty() {
        let mut related: Vec<Value> = d
            .labels
            .iter()
            .map(|l| {
                json!({
                    "location": { "uri": uri, "range": range(l.span.start, l.span.end) },
                    "message": l.message,
                })
            })
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
                None => json!({
                    "start": { "line": 0, "character": 0 },
                    "end": { "line": 0, "character": 0 },
                }),
            };
            related.push(json!({
                "location": { "uri": place_uri, "range": place_range },
                "message": place.message,
            }));
        }
        super::set(&mut out, "relatedInformation", Value::Array(related));
    }
    if let Some(fix) = &d.fix {
        let fix = json!({
            "fix": {
                "range": range(fix.span.start, fix.span.end),
                "newText": fix.replacement,
                "applicability": fix.safety(),
            }
        });
        super::set(&mut out, "data", fix);
    }
    out
}
