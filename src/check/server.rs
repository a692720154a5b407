//! The check of a document against a server profile (`--server`): each
//! element in a namespace, each element and each EL function the server's
//! release or vendor does not have (SV001), has turned off (SV002), or has
//! that coordc cannot check (SV003). The profiles are `oozie::servers`.

use crate::diag::Diagnostic;
use crate::diag::fixes::FixKind;
use crate::diag::rules::{SERVER_DISABLED, SERVER_UNCHECKED, SERVER_UNSUPPORTED};
use crate::el::ast::ExprKind;
use crate::el::library;
use crate::el::shared::parse_template_shared;
use crate::oozie::places;
use crate::oozie::servers::{Acceptance, SPARK3_MIGRATION, Server};
use crate::span::Span;
use crate::xml::schema::split_version;
use crate::xml::tree::Text;
use crate::xml::{self, Document, Element};
use std::cell::OnceCell;

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
    let mut check = Check {
        doc,
        source,
        server,
        // (Workflow EL is the same in every release profiled.)
        reads_el: server.lacks_functions()
            && matches!(doc.root.name, "coordinator-app" | "datasets" | "bundle-app"),
        schema_errors: OnceCell::new(),
        found: ServerFindings::default(),
    };
    let mut path = Vec::new();
    check.walk(&doc.root, None, &mut path);
    check.found
}

struct Check<'d, 's> {
    doc: &'d Document<'s>,
    source: &'d str,
    server: Server,
    reads_el: bool,
    /// The document's schema errors, read once if a fix is to be proved.
    schema_errors: OnceCell<Vec<Diagnostic>>,
    found: ServerFindings,
}

/// Whether a schema version's fix is offered, and why not.
enum Older {
    /// The edit of the declaration's value, and the attribute declaring it.
    Valid(Span, String, String),
    /// The element is not valid, as written, under any version accepted.
    NotValid,
    /// Its namespace is not declared in its own start tag (an ancestor's
    /// prefix): no edit here changes it alone.
    DeclaredElsewhere,
}

impl<'d, 's> Check<'d, 's> {
    fn walk(&mut self, element: &'d Element<'s>, parent: Option<&str>, path: &mut Vec<&'s str>) {
        path.push(element.name);
        let namespace = element.namespace;
        if let Some(ns) = namespace.filter(|ns| ns.starts_with("uri:oozie:")) {
            if Some(ns) != parent {
                self.namespace_problem(element, ns);
            }
            self.element_problem(element, ns);
        }
        if self.reads_el {
            for attribute in element.attributes {
                self.functions(&attribute.text(), path, Some(attribute.name));
            }
            if !element.text.is_empty() {
                self.functions(&element.text_trimmed(), path, None);
            }
        }
        for child in element.children {
            self.walk(child, namespace, path);
        }
        path.pop();
    }

    fn on(&self) -> String {
        format!("{} ({})", self.server.name(), self.server.title())
    }

    /// An element, or an attribute of it, that a later release added to
    /// the schema of `namespace`.
    fn element_problem(&mut self, element: &Element, namespace: &str) {
        let server = self.server;
        let written = std::iter::once((None, element.name_span)).chain(
            element
                .attributes
                .iter()
                .filter(|a| a.namespace.is_none())
                .map(|a| (Some(a.name), a.name_span)),
        );
        for (attribute, span) in written {
            let Some((since, why)) = server.lacks(namespace, element.name, attribute) else {
                continue;
            };
            let what = match attribute {
                Some(attribute) => format!("`{attribute}` on `<{}>`", element.name),
                None => format!("`<{}>`", element.name),
            };
            let d = Diagnostic::error(
                SERVER_UNSUPPORTED,
                span,
                format!(
                    "{} has no {what} in {namespace}: Oozie {} added it ({why})",
                    self.on(),
                    since.line()
                ),
            )
            .with_help(format!(
                "remove it, or check against the server you run (--server, or `server =` in coordc.toml); {} runs Oozie {}",
                server.name(),
                server.release().name()
            ));
            self.found.problems.push(d);
        }
    }

    /// The problem with an element whose namespace differs from its
    /// parent's (a document's root, an action's element, an SLA).
    fn namespace_problem(&mut self, element: &Element, namespace: &str) {
        let (family, _) = split_version(namespace);
        let kind = family.trim_start_matches("uri:oozie:");
        let on = self.on();
        let problem = match self.server.accepts(namespace) {
            Acceptance::Accepted | Acceptance::Unknown => return,
            Acceptance::Unchecked { said, source } => {
                self.found.unchecked.push(element.name_span);
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
            .with_help(vendor_help(family, source)),
            Acceptance::Removed { said, source } => Diagnostic::error(
                SERVER_UNSUPPORTED,
                element.name_span,
                format!(
                    "{on} does not run `<{}>` ({namespace}): {said}",
                    element.name
                ),
            )
            .with_help(vendor_help(family, source)),
            Acceptance::NotYet { since } => {
                let versions = self.server.versions(family);
                let accepted = match versions.as_slice() {
                    [] => format!("it has no {kind} schema"),
                    _ => format!("it accepts {kind} {}", versions.join(", ")),
                };
                let d = Diagnostic::error(
                    SERVER_UNSUPPORTED,
                    element.name_span,
                    format!(
                        "{on} has no schema {namespace}: {accepted} (Oozie {} added {namespace})",
                        since.line()
                    ),
                );
                let elsewhere =
                    "check against the server you run (--server, or `server =` in coordc.toml)";
                match (self.older_valid_version(element, namespace, &versions), versions.last()) {
                    (Older::Valid(span, older, attribute), _) => d
                        .with_help(format!(
                            "write {attribute}=\"{older}\": this `<{}>` is valid under it",
                            element.name
                        ))
                        .with_fix(FixKind::ServerSchemaVersion, span, older),
                    (_, None) => d.with_help(format!("replace it, or {elsewhere}")),
                    (Older::NotValid, Some(newest)) => d.with_help(format!(
                        "rewrite it for {family}:{newest}, the newest {} accepts (this `<{}>` is not valid under any it accepts), or {elsewhere}",
                        self.server.name(),
                        element.name
                    )),
                    (Older::DeclaredElsewhere, Some(newest)) => d.with_help(format!(
                        "declare {family}:{newest}, the newest {} accepts, where this namespace is declared, or {elsewhere}",
                        self.server.name()
                    )),
                }
            }
        };
        self.found.problems.push(problem);
    }

    /// The newest of `versions` (of the family of `namespace`) under which
    /// the element is valid as written: the edit is applied to the
    /// document, which is validated again, and taken when it adds no
    /// schema error inside the element.
    fn older_valid_version(
        &self,
        element: &Element,
        namespace: &str,
        versions: &[String],
    ) -> Older {
        let Some((span, attribute)) = declaration_value(element, namespace, self.source) else {
            return Older::DeclaredElsewhere;
        };
        let (family, _) = split_version(namespace);
        let inside =
            |d: &&Diagnostic, end: u32| d.span.start >= element.span.start && d.span.end <= end;
        let before: Vec<&str> = self
            .schema_errors
            .get_or_init(|| xml::validate(self.doc))
            .iter()
            .filter(|d| inside(d, element.span.end))
            .map(|d| d.message.as_str())
            .collect();
        let found = versions.iter().rev().find_map(|version| {
            let candidate = format!("{family}:{version}");
            let edited = format!(
                "{}{candidate}{}",
                self.source.get(..span.start as usize)?,
                self.source.get(span.end as usize..)?
            );
            let grown = candidate.len() as i64 - namespace.len() as i64;
            let end = (i64::from(element.span.end) + grown) as u32;
            let arena = xml::tree::arena_for(edited.len());
            let doc = xml::parse(&edited, &arena).ok()?;
            let mut unexplained = before.clone();
            let adds = xml::validate(&doc)
                .iter()
                .filter(|d| inside(d, end))
                .any(|d| match unexplained.iter().position(|m| *m == d.message) {
                    Some(at) => {
                        unexplained.swap_remove(at);
                        false
                    }
                    None => true,
                });
            (!adds).then_some(candidate)
        });
        match found {
            Some(candidate) => Older::Valid(span, candidate, attribute),
            None => Older::NotValid,
        }
    }

    /// The calls in `text` (the value at `path`, of `attribute`) of
    /// functions the server's release does not have at its place.
    fn functions(&mut self, text: &Text, path: &[&str], attribute: Option<&str>) {
        if !text.value.contains("${") {
            return;
        }
        let Some(place) = places::place(path, attribute) else {
            return;
        };
        // (A text that does not parse is reported by the EL checks.)
        let Ok(shared) = parse_template_shared(&text.value) else {
            return;
        };
        let server = self.server;
        let on = self.on();
        for expr in shared.template.exprs() {
            expr.walk(&mut |e| {
                let ExprKind::Call(call) = &e.kind else {
                    return;
                };
                // (Where even the newest release has no such function, the
                // EL checks say so: EL002, EL009.)
                let newest_has = library::function(place.library(), call)
                    .is_some_and(|def| def.places.contains(&place));
                let name = call.qualified_name();
                let Some(since) = server.lacks_function(&name, place).filter(|_| newest_has)
                else {
                    return;
                };
                let span = Span::new(
                    text.source_offset(call.name_span.start as usize),
                    text.source_offset(call.name_span.end as usize),
                );
                self.found.problems.push(
                    Diagnostic::error(
                        SERVER_UNSUPPORTED,
                        span,
                        format!(
                            "{on} has no {name}() in {}: Oozie {} added it there",
                            place.describe(),
                            since.line()
                        ),
                    )
                    .with_help(format!(
                        "{} runs Oozie {}; use another function, or check against the server you run",
                        server.name(),
                        server.release().name()
                    )),
                );
            });
        }
    }
}

fn vendor_help(family: &str, source: &str) -> String {
    if family == "uri:oozie:spark-action" {
        format!("{SPARK3_MIGRATION} ({source})")
    } else {
        format!("see {source}")
    }
}

/// The span of the value of the declaration of `namespace` for `element`'s
/// prefix (`xmlns` for an unprefixed name, `xmlns:p` for `p:name`) in its
/// start tag, and that attribute's name.
fn declaration_value(element: &Element, namespace: &str, source: &str) -> Option<(Span, String)> {
    let qualified = source.get(element.name_span.range())?;
    let expected = match qualified.split_once(':') {
        Some((prefix, _)) => format!("xmlns:{prefix}"),
        None => "xmlns".to_string(),
    };
    let tag_end = element
        .children
        .first()
        .map_or(element.span.end, |c| c.span.start);
    let from = element.name_span.end as usize;
    let tag = source.get(from..tag_end as usize)?;
    tag.match_indices(namespace).find_map(|(at, _)| {
        let before = tag.get(..at)?;
        let quote = before
            .chars()
            .next_back()
            .filter(|c| matches!(c, '"' | '\''))?;
        let before = before.strip_suffix(quote)?.trim_end();
        let declared = before.strip_suffix('=')?.trim_end();
        let name = declared.rsplit(char::is_whitespace).next()?;
        let closed = tag.get(at + namespace.len()..)?.starts_with(quote);
        (name == expected && closed).then(|| {
            let start = from + at;
            (Span::new(start, start + namespace.len()), expected.clone())
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn declaration(source: &str) -> Option<(String, String)> {
        let arena = xml::tree::arena_for(source.len());
        let doc = xml::parse(source, &arena).unwrap();
        let element = doc.root.children.first().unwrap_or(&doc.root);
        let ns = element.namespace.unwrap();
        declaration_value(element, ns, source)
            .map(|(span, name)| (source[span.range()].to_string(), name))
    }

    #[test]
    fn the_declaration_edited_is_the_one_of_the_elements_prefix() {
        assert_eq!(
            declaration(r#"<w xmlns="uri:oozie:workflow:1.0"/>"#),
            Some(("uri:oozie:workflow:1.0".into(), "xmlns".into()))
        );
        // The same namespace under a prefix first: the default one is edited.
        let both = r#"<w xmlns:wf="uri:oozie:workflow:1.0" xmlns="uri:oozie:workflow:1.0"/>"#;
        let arena = xml::tree::arena_for(both.len());
        let doc = xml::parse(both, &arena).unwrap();
        let (span, name) = declaration_value(&doc.root, "uri:oozie:workflow:1.0", both).unwrap();
        assert_eq!(name, "xmlns");
        assert_eq!(span.start as usize, both.rfind("uri:").unwrap());
        // A prefixed element declared on its parent: not in its own tag.
        let prefixed = r#"<w xmlns="uri:oozie:workflow:0.5" xmlns:sh="uri:oozie:shell-action:1.0"><sh:shell/></w>"#;
        assert_eq!(declaration(prefixed), None);
        let own = r#"<w xmlns="uri:oozie:workflow:0.5"><sh:shell xmlns:sh='uri:oozie:shell-action:1.0'/></w>"#;
        assert_eq!(
            declaration(own),
            Some(("uri:oozie:shell-action:1.0".into(), "xmlns:sh".into()))
        );
    }
}
