//! The machine and human formats of a `coordc check` report: human (rustc-like,
//! coloured on a terminal), concise (a line a problem), json, SARIF 2.1.0 (a
//! small serde model of our own) and GitHub workflow commands; the CI
//! servers' formats are in `ci.rs`. Each writes every report, in order.

use crate::diag::Located;
use crate::diag::rules::{self, Code, RULES};
use crate::diag::{Diagnostic, Fix, Related, Safety, Severity};
use crate::project::check::{Report, Target};
use std::io::Write;

/// What a format writes: the reports of a check, each with its target
/// (the file named, and its folder's settings), in the same order.
#[derive(Clone, Copy)]
pub(super) struct Checked<'a> {
    pub targets: &'a [Target],
    pub reports: &'a [Report],
}

impl<'a> Checked<'a> {
    /// Every problem, with its report's index and its report.
    pub(super) fn problems(self) -> impl Iterator<Item = (usize, &'a Report, &'a Located)> {
        self.reports
            .iter()
            .enumerate()
            .flat_map(|(i, r)| r.problems.iter().map(move |p| (i, r, p)))
    }

    /// The documentation URL of rule `code` for the file of report `index`
    /// (its coordc.toml's `docs-url`, else the default).
    pub(super) fn docs_url(self, index: usize, code: &str) -> String {
        let template = self.targets.get(index).and_then(Target::docs_url);
        rules::docs_url(template, code)
    }
}

pub(super) fn write_human(
    checked: Checked,
    colour: bool,
    out: &mut impl Write,
) -> std::io::Result<()> {
    for (_, report, p) in checked.problems() {
        let notes = |text: &str| p.diagnostic.fix.iter().map(|f| fix_note(f, text)).collect();
        write!(out, "{}", report.sources.render_styled(p, colour, notes))?;
    }
    Ok(())
}

/// One line a problem, `file:line:col: severity[CODE]: message`, as gcc and
/// rustc's short format write them (editors' quickfix lists read it).
pub(super) fn write_concise(checked: Checked, out: &mut impl Write) -> std::io::Result<()> {
    for (_, report, p) in checked.problems() {
        let (file, (line, column), _) = position(report, p);
        let d = &p.diagnostic;
        writeln!(
            out,
            "{file}:{line}:{column}: {}[{}]: {}",
            severity_name(d.severity),
            d.code,
            one_line(&d.message)
        )?;
    }
    Ok(())
}

/// `error`, `warning` or `note`.
pub(super) fn severity_name(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

/// `text` on one line: its line breaks as spaces.
pub(super) fn one_line(text: &str) -> String {
    text.split(['\r', '\n'])
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The message with its help after it, for formats with one text field.
pub(super) fn message_and_help(d: &Diagnostic) -> String {
    match &d.help {
        Some(help) => format!("{}\nhelp: {help}", d.message),
        None => d.message.clone(),
    }
}

/// Where a related place is, as [`position`] gives a problem's; `None` when
/// its file's text could not be read.
pub(super) fn related_position(
    report: &Report,
    related: &Related,
) -> Option<((usize, usize), (usize, usize))> {
    let file = report.sources.index_of(&related.file)?;
    Some((
        report
            .sources
            .line_column(file, related.span.start as usize),
        report.sources.line_column(file, related.span.end as usize),
    ))
}

/// A problem's fix, marked as ruff marks them: `[*]` safe, `[-]` unsafe.
fn fix_note(fix: &Fix, text: &str) -> String {
    match fix.safety() {
        Safety::Safe => format!("[*] safe fix: {} (`--fix` applies it)", fix.describe(text)),
        Safety::Unsafe => format!(
            "[-] unsafe fix, it {}: {} (only `--unsafe-fixes` applies it)",
            fix.kind.effect(),
            fix.describe(text)
        ),
    }
}

/// Where a problem is: its file's name, and its span as 1-based lines and
/// columns.
pub(super) fn position(report: &Report, p: &Located) -> (String, (usize, usize), (usize, usize)) {
    let file = report.sources.index(p.file);
    let name = report.sources.files.get(file).map_or("", |(name, _)| name);
    let span = p.diagnostic.span;
    (
        name.to_string(),
        report.sources.line_column(file, span.start as usize),
        report.sources.line_column(file, span.end as usize),
    )
}

pub(super) fn write_json(checked: Checked, out: &mut impl Write) -> std::io::Result<()> {
    let diagnostics: Vec<serde_json::Value> = checked
        .problems()
        .map(|(i, r, p)| {
            let (file, (line, column), (end_line, end_column)) = position(r, p);
            let d = &p.diagnostic;
            // The edit `--fix` applies, where it replaces (as the diagnostic's
            // own position: line and column, 1-based, the end excluded).
            let fix = d.fix.as_ref().map(|fix| {
                let file = r.sources.index(p.file);
                let (line, column) = r.sources.line_column(file, fix.span.start as usize);
                let (end_line, end_column) = r.sources.line_column(file, fix.span.end as usize);
                serde_json::json!({
                    "line": line, "column": column, "end_line": end_line,
                    "end_column": end_column, "replacement": fix.replacement,
                    "applicability": fix.safety(), "kind": fix.kind.name(),
                })
            });
            let mut json = serde_json::json!({
                "file": file,
                "line": line,
                "column": column,
                "end_line": end_line,
                "end_column": end_column,
                "severity": d.severity,
                "code": d.code,
                "name": d.code.rule().map(|rule| rule.name),
                "url": checked.docs_url(i, d.code.as_str()),
                "message": d.message,
                "help": d.help,
            });
            // (Only where there is one: the rest of the document is as before.)
            if let (Some(fix), Some(object)) = (fix, json.as_object_mut()) {
                object.insert("fix".to_string(), fix);
            }
            if let (false, Some(object)) = (d.related.is_empty(), json.as_object_mut()) {
                let related = d
                    .related
                    .iter()
                    .map(|related| {
                        let at = related_position(r, related);
                        serde_json::json!({
                            "file": &*related.file,
                            "line": at.map(|((line, _), _)| line),
                            "column": at.map(|((_, column), _)| column),
                            "end_line": at.map(|(_, (line, _))| line),
                            "end_column": at.map(|(_, (_, column))| column),
                            "message": related.message,
                        })
                    })
                    .collect();
                object.insert("related".to_string(), related);
            }
            json
        })
        .collect();
    let doc = serde_json::json!({
        "files_checked": checked.reports.len(),
        "diagnostics": diagnostics,
    });
    serde_json::to_writer(&mut *out, &doc)?;
    writeln!(out)
}

/// SARIF 2.1.0 (OASIS): one run, the rules as the driver's `rules`, a result
/// per problem. A small model of our own, serialized with serde.
pub(super) fn write_sarif(checked: Checked, out: &mut impl Write) -> std::io::Result<()> {
    use serde::Serialize;

    #[derive(Serialize)]
    struct Log<'a> {
        #[serde(rename = "$schema")]
        schema: &'static str,
        version: &'static str,
        runs: [Run<'a>; 1],
    }
    #[derive(Serialize)]
    struct Run<'a> {
        tool: Tool<'a>,
        results: Vec<SarifResult>,
    }
    #[derive(Serialize)]
    struct Tool<'a> {
        driver: Driver<'a>,
    }
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Driver<'a> {
        name: &'static str,
        version: &'static str,
        information_uri: &'static str,
        rules: Vec<Rule<'a>>,
    }
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Rule<'a> {
        id: Code,
        name: &'a str,
        short_description: Text,
        full_description: Text,
        help_uri: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        help: Option<Help>,
        default_configuration: Configuration,
        #[serde(skip_serializing_if = "Option::is_none")]
        properties: Option<RuleProperties>,
    }
    /// SARIF's property bag: the Oozie error code of the rule, when there is one.
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct RuleProperties {
        oozie_error_code: &'static str,
    }
    /// A rule's page, as text and as the Markdown it is.
    #[derive(Serialize)]
    struct Help {
        text: &'static str,
        markdown: &'static str,
    }
    #[derive(Serialize)]
    struct Configuration {
        level: &'static str,
    }
    #[derive(Serialize)]
    struct Text {
        text: String,
    }
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct SarifResult {
        rule_id: Code,
        rule_index: usize,
        level: &'static str,
        message: Text,
        locations: [Location; 1],
        /// The places in other files the diagnostic names.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        related_locations: Vec<RelatedLocation>,
        /// The certain edit (`coordc check --fix`), when there is one.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        fixes: Vec<SarifFix>,
    }
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct SarifFix {
        description: Text,
        artifact_changes: [ArtifactChange; 1],
    }
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct ArtifactChange {
        artifact_location: ArtifactLocation,
        replacements: [Replacement; 1],
    }
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Replacement {
        deleted_region: Region,
        inserted_content: Text,
    }
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Location {
        physical_location: PhysicalLocation,
    }
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct RelatedLocation {
        id: usize,
        physical_location: PhysicalLocation,
        message: Text,
    }
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct PhysicalLocation {
        artifact_location: ArtifactLocation,
        /// (Unknown only for a related place whose file could not be read.)
        #[serde(skip_serializing_if = "Option::is_none")]
        region: Option<Region>,
    }
    #[derive(Serialize)]
    struct ArtifactLocation {
        uri: String,
    }
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Region {
        start_line: usize,
        start_column: usize,
        end_line: usize,
        end_column: usize,
    }

    // (SARIF's levels are coordc's severities.)
    let level = severity_name;
    let results = checked
        .problems()
        .map(|(_, r, p)| {
            let (file, (start_line, start_column), (end_line, end_column)) = position(r, p);
            let d = &p.diagnostic;
            let text = message_and_help(d);
            let related_locations = d
                .related
                .iter()
                .enumerate()
                .map(|(id, related)| RelatedLocation {
                    id,
                    physical_location: PhysicalLocation {
                        artifact_location: ArtifactLocation {
                            uri: uri_reference(&related.file),
                        },
                        region: related_position(r, related).map(
                            |((start_line, start_column), (end_line, end_column))| Region {
                                start_line,
                                start_column,
                                end_line,
                                end_column,
                            },
                        ),
                    },
                    message: Text {
                        text: related.message.clone(),
                    },
                })
                .collect();
            let fixes = d
                .fix
                .iter()
                .map(|fix| {
                    let index = r.sources.index(p.file);
                    let (start_line, start_column) =
                        r.sources.line_column(index, fix.span.start as usize);
                    let (end_line, end_column) =
                        r.sources.line_column(index, fix.span.end as usize);
                    SarifFix {
                        description: Text {
                            text: format!(
                                "write `{}` ({} fix)",
                                fix.replacement,
                                fix.safety().name()
                            ),
                        },
                        artifact_changes: [ArtifactChange {
                            artifact_location: ArtifactLocation {
                                uri: uri_reference(&file),
                            },
                            replacements: [Replacement {
                                deleted_region: Region {
                                    start_line,
                                    start_column,
                                    end_line,
                                    end_column,
                                },
                                inserted_content: Text {
                                    text: fix.replacement.clone(),
                                },
                            }],
                        }],
                    }
                })
                .collect();
            SarifResult {
                rule_id: d.code,
                rule_index: RULES
                    .iter()
                    .position(|rule| rule.code == d.code)
                    .unwrap_or(0),
                level: level(d.severity),
                message: Text { text },
                locations: [Location {
                    physical_location: PhysicalLocation {
                        artifact_location: ArtifactLocation {
                            uri: uri_reference(&file),
                        },
                        region: Some(Region {
                            start_line,
                            start_column,
                            end_line,
                            end_column,
                        }),
                    },
                }],
                related_locations,
                fixes,
            }
        })
        .collect();
    // The rules are listed once for the run: their pages are linked as the
    // first file's coordc.toml says.
    let docs_url = checked.targets.first().and_then(Target::docs_url);
    let log = Log {
        schema: "https://json.schemastore.org/sarif-2.1.0.json",
        version: "2.1.0",
        runs: [Run {
            tool: Tool {
                driver: Driver {
                    name: "coordc",
                    version: env!("CARGO_PKG_VERSION"),
                    information_uri: rules::repository(),
                    rules: RULES
                        .iter()
                        .map(|rule| Rule {
                            id: rule.code,
                            name: rule.name,
                            short_description: Text {
                                text: rule.summary.to_string(),
                            },
                            full_description: Text {
                                text: rules::page(rule.code.as_str())
                                    .map_or_else(|| rule.summary.to_string(), full_description),
                            },
                            help_uri: rules::docs_url(docs_url, rule.code.as_str()),
                            help: rules::page(rule.code.as_str()).map(|page| Help {
                                text: page,
                                markdown: page,
                            }),
                            default_configuration: Configuration {
                                level: level(rule.severity),
                            },
                            properties: rule.oozie.map(|code| RuleProperties {
                                oozie_error_code: code,
                            }),
                        })
                        .collect(),
                },
            },
            results,
        }],
    };
    serde_json::to_writer(&mut *out, &log)?;
    writeln!(out)
}

/// What a rule's page says it does and why that matters (its first two
/// paragraphs, without their bold lead-ins), as one text.
fn full_description(page: &str) -> String {
    page.split("\n\n")
        .filter_map(|paragraph| {
            ["**What it does.**", "**Why it matters.**"]
                .iter()
                .find_map(|lead| paragraph.strip_prefix(lead))
        })
        .map(|text| one_line(text.trim()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A file path as a URI reference: `/` kept, anything outside RFC 3986's
/// unreserved characters percent-encoded.
fn uri_reference(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// GitHub Actions workflow commands: one annotation per problem.
pub(super) fn write_github(checked: Checked, out: &mut impl Write) -> std::io::Result<()> {
    for (_, report, p) in checked.problems() {
        let (file, (line, column), (end_line, end_column)) = position(report, p);
        let d = &p.diagnostic;
        let level = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "notice",
        };
        writeln!(
            out,
            "::{level} file={},line={line},col={column},endLine={end_line},endColumn={end_column},title={}::{}",
            escape_property(&file),
            d.code,
            escape_data(&message_and_help(d))
        )?;
    }
    Ok(())
}

/// The escapes GitHub's workflow commands require in a message.
fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// ... and in a property value.
fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}
