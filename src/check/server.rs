//! The check of a document against a server profile (`--server`): each
//! element in a namespace, each element and each EL function the server's
//! release or vendor does not have (SV001), has turned off (SV002), or has
//! that coordc cannot check (SV003). The profiles are `oozie::servers`.

use crate::diag::Diagnostic;
use crate::diag::fixes::FixKind;
use crate::diag::rules::{SERVER_DISABLED, SERVER_UNCHECKED, SERVER_UNSUPPORTED};
use crate::el::ast::ExprKind;
use crate::el::library;
use crate::el::parse_template;
use crate::oozie::places;
use crate::oozie::servers::{Acceptance, SPARK3_MIGRATION, Server};
use crate::span::Span;
use crate::xml::schema::split_version;
use crate::xml::tree::Text;
use crate::xml::{self, Document, Element};

/// What the check of one document against a server found.
#[derive(Default)]
pub(crate) struct ServerFindings {
    pub problems: Vec<Diagnostic>,
    /// The name spans of the elements the server accepts without coordc
    /// having their schema: what other checks say of them as unknown
    /// (WF008) does not hold on this server.
    pub unchecked: Vec<Span>,
}

/// Checks `doc`, read from `source`, against `server`.
pub(crate) fn check(doc: &Document, source: &str, server: Server) -> ServerFindings {
    let mut found = ServerFindings::default();
    let mut path = Vec::new();
    walk(&doc.root, None, &mut path, source, server, &mut found);
    found
}

fn walk<'s>(
    element: &'s Element<'s>,
    parent_namespace: Option<&str>,
    path: &mut Vec<&'s str>,
    source: &str,
    server: Server,
    found: &mut ServerFindings,
) {
    path.push(element.name);
    let namespace = element.namespace;
    if let Some(ns) = namespace.filter(|ns| ns.starts_with("uri:oozie:")) {
        if Some(ns) != parent_namespace {
            namespace_problem(element, ns, source, server, found);
        }
        if let Some((since, why)) = server.lacks_element(ns, element.name) {
            found.problems.push(
                Diagnostic::error(
                    SERVER_UNSUPPORTED,
                    element.name_span,
                    format!(
                        "{} ({}) has no `<{}>` in {ns}: Oozie {} added it ({why})",
                        server.name(),
                        server.title(),
                        element.name,
                        since.name()
                    ),
                )
                .with_help(format!(
                    "remove it, or check against the server you run (--server, or `server =` in coordc.toml); {} runs Oozie {}",
                    server.name(),
                    server.release().name()
                )),
            );
        }
    }
    if server.lacks_functions() {
        for attribute in element.attributes {
            functions(&attribute.text(), path, Some(attribute.name), server, found);
        }
        if !element.text.is_empty() {
            functions(&element.text_trimmed(), path, None, server, found);
        }
    }
    for child in element.children {
        walk(child, namespace, path, source, server, found);
    }
    path.pop();
}

/// The problem with an element whose namespace differs from its parent's
/// (a document's root, an action's element, an SLA).
fn namespace_problem(
    element: &Element,
    namespace: &str,
    source: &str,
    server: Server,
    found: &mut ServerFindings,
) {
    let (family, _) = split_version(namespace);
    let kind = family.trim_start_matches("uri:oozie:");
    let on = format!("{} ({})", server.name(), server.title());
    let problem = match server.accepts(namespace) {
        Acceptance::Accepted | Acceptance::Unknown => return,
        Acceptance::Unchecked { said, source } => {
            found.unchecked.push(element.name_span);
            Diagnostic::note(
                SERVER_UNCHECKED,
                element.name_span,
                format!(
                    "the content of `<{}>` is not checked: {on} accepts {namespace} ({said}), and coordc has no schema of it",
                    element.name
                ),
            )
            .with_help(format!("its schema, as the vendor publishes it: {source}"))
        }
        Acceptance::Disabled { said, source } => Diagnostic::warning(
            SERVER_DISABLED,
            element.name_span,
            format!("`<{}>` is off by default on {on}: {said}", element.name),
        )
        .with_help(spark_help(family, source)),
        Acceptance::Removed { said, source } => Diagnostic::error(
            SERVER_UNSUPPORTED,
            element.name_span,
            format!(
                "{on} does not run `<{}>` ({namespace}): {said}",
                element.name
            ),
        )
        .with_help(spark_help(family, source)),
        Acceptance::NotYet { since } => {
            let versions = server.versions(family);
            let accepted = match versions.as_slice() {
                [] => format!("it has no {kind} schema"),
                _ => format!("it accepts {kind} {}", versions.join(", ")),
            };
            let d = Diagnostic::error(
                SERVER_UNSUPPORTED,
                element.name_span,
                format!(
                    "{on} has no schema {namespace}: {accepted} (Oozie {} added {namespace})",
                    since.name()
                ),
            );
            match older_valid_version(element, namespace, &versions, source) {
                Some((span, older)) => d
                    .with_help(format!(
                        "write xmlns=\"{older}\": this `<{}>` is valid under it",
                        element.name
                    ))
                    .with_fix(FixKind::ServerSchemaVersion, span, older),
                None => d.with_help(match versions.last() {
                    Some(newest) => format!(
                        "rewrite it for {family}:{newest}, the newest {} accepts (this `<{}>` is not valid under any it accepts), or check against the server you run",
                        server.name(),
                        element.name
                    ),
                    None => "replace the action, or check against the server you run (--server, or `server =` in coordc.toml)".to_string(),
                }),
            }
        }
    };
    found.problems.push(problem);
}

fn spark_help(family: &str, source: &str) -> String {
    if family == "uri:oozie:spark-action" {
        format!("{SPARK3_MIGRATION} ({source})")
    } else {
        format!("see {source}")
    }
}

/// The newest of `versions` (of the family of `namespace`) under which the
/// element is valid, and the span of its namespace declaration's value: the
/// fix is proved by validating the document with it applied.
fn older_valid_version(
    element: &Element,
    namespace: &str,
    versions: &[String],
    source: &str,
) -> Option<(Span, String)> {
    let span = declaration_value(element, namespace, source)?;
    let (family, _) = split_version(namespace);
    versions.iter().rev().find_map(|version| {
        let candidate = format!("{family}:{version}");
        let edited = format!(
            "{}{candidate}{}",
            source.get(..span.start as usize)?,
            source.get(span.end as usize..)?
        );
        let grown = candidate.len() as i64 - namespace.len() as i64;
        let end = (element.span.end as i64 + grown) as u32;
        let arena = xml::tree::arena_for(edited.len());
        let doc = xml::parse(&edited, &arena).ok()?;
        let clean = xml::validate(&doc)
            .iter()
            .all(|d| d.span.end <= element.span.start || d.span.start >= end);
        clean.then_some((span, candidate))
    })
}

/// The span of the value of the `xmlns` declaration of `namespace` in the
/// start tag of `element`.
fn declaration_value(element: &Element, namespace: &str, source: &str) -> Option<Span> {
    let tag_end = element
        .children
        .first()
        .map_or(element.span.end, |c| c.span.start);
    let from = element.name_span.end as usize;
    let tag = source.get(from..tag_end as usize)?;
    let at = tag.find(namespace)?;
    let before = tag.get(..at)?.trim_end_matches(['"', '\'']).trim_end();
    let before = before.strip_suffix('=')?.trim_end();
    let declared = before.rsplit(char::is_whitespace).next()?;
    (declared == "xmlns" || declared.starts_with("xmlns:"))
        .then(|| Span::new(from + at, from + at + namespace.len()))
}

/// The calls in `text` (the value at `path`, of `attribute`) of functions
/// the server's release does not have at its place.
fn functions(
    text: &Text,
    path: &[&str],
    attribute: Option<&str>,
    server: Server,
    found: &mut ServerFindings,
) {
    if !text.value.contains("${") {
        return;
    }
    let Some(place) = places::place(path, attribute) else {
        return;
    };
    // (A text that does not parse is reported by the EL checks.)
    let Ok(template) = parse_template(&text.value, 0) else {
        return;
    };
    for expr in template.exprs() {
        expr.walk(&mut |e| {
            let ExprKind::Call(call) = &e.kind else {
                return;
            };
            // (Where even the newest release has no such function, the EL
            // checks say so: EL002, EL009.)
            let newest_has = library::function(place.library(), call)
                .is_some_and(|def| def.places.contains(&place));
            let name = call.qualified_name();
            if let Some(since) = server
                .lacks_function(&name, place)
                .filter(|_| newest_has)
            {
                let span = Span::new(
                    text.source_offset(call.name_span.start as usize),
                    text.source_offset(call.name_span.end as usize),
                );
                found.problems.push(
                    Diagnostic::error(
                        SERVER_UNSUPPORTED,
                        span,
                        format!(
                            "{} ({}) has no {name}() in {}: Oozie {} added it there",
                            server.name(),
                            server.title(),
                            place.describe(),
                            since.name()
                        ),
                    )
                    .with_help(format!(
                        "{} runs Oozie {}; use another function, or check against the server you run",
                        server.name(),
                        server.release().name()
                    )),
                );
            }
        });
    }
}
