//! The machine and human formats of a `coordc check` report: human (rustc-like),
//! json, SARIF 2.1.0 (a small serde model of our own) and GitHub workflow
//! commands. Each writes every report, in order.

use crate::diag::{Fix, Safety, Severity};
use crate::interp::job::Located;
use crate::project::check::Report;
use std::io::Write;

pub(super) fn write_human(reports: &[Report], out: &mut impl Write) -> std::io::Result<()> {
    for report in reports {
        for p in &report.problems {
            let notes = |text: &str| p.diagnostic.fix.iter().map(|f| fix_note(f, text)).collect();
            write!(out, "{}", report.sources.render_noted(p, notes))?;
        }
    }
    Ok(())
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
fn position(report: &Report, p: &Located) -> (String, (usize, usize), (usize, usize)) {
    let file = p.file.unwrap_or(0);
    let name = report.sources.files.get(file).map_or("", |(name, _)| name);
    let span = p.diagnostic.span;
    (
        name.to_string(),
        report.sources.line_column(file, span.start as usize),
        report.sources.line_column(file, span.end as usize),
    )
}

pub(super) fn write_json(reports: &[Report], out: &mut impl Write) -> std::io::Result<()> {
    let diagnostics: Vec<serde_json::Value> = reports
        .iter()
        .flat_map(|r| r.problems.iter().map(move |p| (r, p)))
        .map(|(r, p)| {
            let (file, (line, column), (end_line, end_column)) = position(r, p);
            let d = &p.diagnostic;
            // The edit `--fix` applies, where it replaces (as the diagnostic's
            // own position: line and column, 1-based, the end excluded).
            let fix = d.fix.as_ref().map(|fix| {
                let file = p.file.unwrap_or(0);
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
                "message": d.message,
                "help": d.help,
            });
            // (Only where there is one: the rest of the document is as before.)
            if let (Some(fix), Some(object)) = (fix, json.as_object_mut()) {
                object.insert("fix".to_string(), fix);
            }
            json
        })
        .collect();
    let doc = serde_json::json!({
        "files_checked": reports.len(),
        "diagnostics": diagnostics,
    });
    serde_json::to_writer(&mut *out, &doc)?;
    writeln!(out)
}

/// SARIF 2.1.0 (OASIS): one run, the rules as the driver's `rules`, a result
/// per problem. A small model of our own, serialized with serde.
pub(super) fn write_sarif(reports: &[Report], out: &mut impl Write) -> std::io::Result<()> {
    use crate::check::rules::RULES;
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
        id: &'a str,
        name: &'a str,
        short_description: Text,
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
        rule_id: &'static str,
        rule_index: usize,
        level: &'static str,
        message: Text,
        locations: [Location; 1],
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
    struct PhysicalLocation {
        artifact_location: ArtifactLocation,
        region: Region,
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

    let level = |severity| match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    };
    let results = reports
        .iter()
        .flat_map(|r| r.problems.iter().map(move |p| (r, p)))
        .map(|(r, p)| {
            let (file, (start_line, start_column), (end_line, end_column)) = position(r, p);
            let d = &p.diagnostic;
            let mut text = d.message.clone();
            if let Some(help) = &d.help {
                text.push_str("\nhelp: ");
                text.push_str(help);
            }
            let fixes = d
                .fix
                .iter()
                .map(|fix| {
                    let index = p.file.unwrap_or(0);
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
                        region: Region {
                            start_line,
                            start_column,
                            end_line,
                            end_column,
                        },
                    },
                }],
                fixes,
            }
        })
        .collect();
    let log = Log {
        schema: "https://json.schemastore.org/sarif-2.1.0.json",
        version: "2.1.0",
        runs: [Run {
            tool: Tool {
                driver: Driver {
                    name: "coordc",
                    version: env!("CARGO_PKG_VERSION"),
                    information_uri: "https://oozie.apache.org/docs/5.2.1/CoordinatorFunctionalSpec.html",
                    rules: RULES
                        .iter()
                        .map(|rule| Rule {
                            id: rule.code,
                            name: rule.name,
                            short_description: Text {
                                text: rule.summary.to_string(),
                            },
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
pub(super) fn write_github(reports: &[Report], out: &mut impl Write) -> std::io::Result<()> {
    for report in reports {
        for p in &report.problems {
            let (file, (line, column), (end_line, end_column)) = position(report, p);
            let d = &p.diagnostic;
            let level = match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Note => "notice",
            };
            let mut message = d.message.clone();
            if let Some(help) = &d.help {
                message.push_str("\nhelp: ");
                message.push_str(help);
            }
            writeln!(
                out,
                "::{level} file={},line={line},col={column},endLine={end_line},endColumn={end_column},title={}::{}",
                escape_property(&file),
                d.code,
                escape_data(&message)
            )?;
        }
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
