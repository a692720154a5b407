//! The formats CI servers read a linter's findings in: JUnit XML (Jenkins,
//! GitLab test reports), Checkstyle XML (Jenkins' warnings, reviewdog) and
//! GitLab Code Quality JSON. The XML is written with quick-xml, which
//! escapes text and attributes.

use super::format::{
    Checked, message_and_help, one_line, position, related_position, severity_name,
};
use crate::diag::Located;
use crate::diag::Severity;
use crate::project::check::Report;
use quick_xml::Writer;
use quick_xml::events::{BytesDecl, BytesText, Event};
use std::io::Write;

/// A problem, with its report's index and its report.
type Problem<'a> = (usize, &'a Report, &'a Located);

/// The problems of a check by file, in the order the files come (each file
/// named in the check first, with none when it is clean; then any other
/// file a problem is in, an include, a configuration), each problem with
/// its report's index and its report.
fn by_file(checked: Checked) -> Vec<(String, Vec<Problem>)> {
    let mut files: Vec<(String, Vec<Problem>)> = Vec::new();
    let mut at: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut place = |files: &mut Vec<_>, name: String| -> usize {
        *at.entry(name.clone()).or_insert_with(|| {
            files.push((name, Vec::new()));
            files.len() - 1
        })
    };
    for target in checked.targets {
        place(&mut files, target.path.to_string_lossy().into_owned());
    }
    for (i, report, p) in checked.problems() {
        let (name, _, _) = position(report, p);
        let index = place(&mut files, name);
        if let Some((_, list)) = files.get_mut(index) {
            list.push((i, report, p));
        }
    }
    files
}

/// What a problem says, in full, for formats with room for text: where it
/// is, its message, help, related places and rule page.
fn details(checked: Checked, index: usize, report: &Report, p: &Located) -> String {
    let (file, (line, column), _) = position(report, p);
    let d = &p.diagnostic;
    let mut text = format!(
        "{file}:{line}:{column}: {}[{}]: {}",
        severity_name(d.severity),
        d.code,
        message_and_help(d)
    );
    for related in &d.related {
        text.push_str(&format!("\nnote: {}", related.message));
        match related_position(report, related) {
            Some(((line, column), _)) => {
                text.push_str(&format!("\n  --> {}:{line}:{column}", related.file))
            }
            None => text.push_str(&format!("\n  --> {}", related.file)),
        }
    }
    text.push_str(&format!(
        "\nsee {}",
        checked.docs_url(index, d.code.as_str())
    ));
    text
}

/// The message, and its help in parentheses, on one line.
fn message_on_one_line(d: &crate::diag::Diagnostic) -> String {
    match &d.help {
        Some(help) => format!("{} (help: {})", one_line(&d.message), one_line(help)),
        None => one_line(&d.message),
    }
}

/// JUnit XML: a test suite per file, a test case per problem. Errors and
/// warnings are failures; a note is a passing case that says it (in its
/// `system-out`); a clean file is one passing case, so that every file
/// checked is counted.
pub(super) fn write_junit(checked: Checked, out: &mut impl Write) -> std::io::Result<()> {
    let files = by_file(checked);
    let fails = |p: &Located| p.diagnostic.severity != Severity::Note;
    let tests: usize = files.iter().map(|(_, list)| list.len().max(1)).sum();
    let failures = files
        .iter()
        .flat_map(|(_, list)| list)
        .filter(|(_, _, p)| fails(p))
        .count();
    let mut w = Writer::new_with_indent(out, b' ', 2);
    w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    w.create_element("testsuites")
        .with_attribute(("name", "coordc check"))
        .with_attribute(("tests", tests.to_string().as_str()))
        .with_attribute(("failures", failures.to_string().as_str()))
        .with_attribute(("errors", "0"))
        .write_inner_content(|w| {
            for (file, list) in &files {
                let failed = list.iter().filter(|(_, _, p)| fails(p)).count();
                w.create_element("testsuite")
                    .with_attribute(("name", file.as_str()))
                    .with_attribute(("tests", list.len().max(1).to_string().as_str()))
                    .with_attribute(("failures", failed.to_string().as_str()))
                    .with_attribute(("errors", "0"))
                    .with_attribute(("skipped", "0"))
                    .write_inner_content(|w| {
                        if list.is_empty() {
                            w.create_element("testcase")
                                .with_attribute(("name", "coordc check"))
                                .with_attribute(("classname", file.as_str()))
                                .write_empty()?;
                        }
                        for &(i, report, p) in list {
                            let (_, (line, column), _) = position(report, p);
                            let d = &p.diagnostic;
                            let body = details(checked, i, report, p);
                            w.create_element("testcase")
                                .with_attribute((
                                    "name",
                                    format!("{} at {line}:{column}", d.code).as_str(),
                                ))
                                .with_attribute(("classname", file.as_str()))
                                .write_inner_content(|w| {
                                    let element = if fails(p) { "failure" } else { "system-out" };
                                    let mut e = w.create_element(element);
                                    if fails(p) {
                                        e = e
                                            .with_attribute((
                                                "message",
                                                one_line(&d.message).as_str(),
                                            ))
                                            .with_attribute(("type", d.code.as_str()));
                                    }
                                    e.write_text_content(BytesText::new(&body))?;
                                    Ok(())
                                })?;
                        }
                        Ok(())
                    })?;
            }
            Ok(())
        })?;
    writeln!(w.get_mut())
}

/// Checkstyle XML: a `<file>` per file (a clean one empty), an `<error>` per
/// problem, its source `coordc.CODE`.
pub(super) fn write_checkstyle(checked: Checked, out: &mut impl Write) -> std::io::Result<()> {
    let files = by_file(checked);
    let mut w = Writer::new_with_indent(out, b' ', 2);
    w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    w.create_element("checkstyle")
        .with_attribute(("version", "4.3"))
        .write_inner_content(|w| {
            for (file, list) in &files {
                let element = w
                    .create_element("file")
                    .with_attribute(("name", file.as_str()));
                if list.is_empty() {
                    element.write_empty()?;
                    continue;
                }
                element.write_inner_content(|w| {
                    for &(_, report, p) in list {
                        let (_, (line, column), _) = position(report, p);
                        let d = &p.diagnostic;
                        let severity = match d.severity {
                            Severity::Error => "error",
                            Severity::Warning => "warning",
                            Severity::Note => "info",
                        };
                        w.create_element("error")
                            .with_attribute(("line", line.to_string().as_str()))
                            .with_attribute(("column", column.to_string().as_str()))
                            .with_attribute(("severity", severity))
                            // (A line break in an attribute is read as a
                            // space: the help goes in parentheses.)
                            .with_attribute(("message", message_on_one_line(d).as_str()))
                            .with_attribute(("source", format!("coordc.{}", d.code).as_str()))
                            .write_empty()?;
                    }
                    Ok(())
                })?;
            }
            Ok(())
        })?;
    writeln!(w.get_mut())
}

/// GitLab Code Quality: a JSON array, an issue per problem. Its fingerprint
/// is a hash of the file, the code, the message and the text of the
/// problem's line (not of its line number, nor of the run's order), so an
/// issue keeps it when lines above it move; two alike on one line are told
/// apart by their order there.
pub(super) fn write_gitlab(checked: Checked, out: &mut impl Write) -> std::io::Result<()> {
    let mut seen: std::collections::HashMap<u64, usize> = std::collections::HashMap::new();
    let issues: Vec<serde_json::Value> = checked
        .problems()
        .map(|(i, report, p)| {
            let (file, (line, _), (end_line, _)) = position(report, p);
            let d = &p.diagnostic;
            let line_text = report
                .sources
                .line_text(report.sources.index(p.file), d.span.start as usize);
            let hash = fingerprint(&[&file, d.code.as_str(), &d.message, line_text.trim()]);
            let occurrence = seen.entry(hash).or_insert(0);
            *occurrence += 1;
            let fingerprint = match *occurrence {
                1 => format!("{hash:016x}"),
                n => format!("{hash:016x}-{n}"),
            };
            let severity = match d.severity {
                Severity::Error => "major",
                Severity::Warning => "minor",
                Severity::Note => "info",
            };
            serde_json::json!({
                "type": "issue",
                "description": format!("{}: {}", d.code, one_line(&d.message)),
                "check_name": d.code,
                "fingerprint": fingerprint,
                "severity": severity,
                "categories": ["Bug Risk"],
                "content": {
                    "body": format!("{}\n\n{}", message_and_help(d), checked.docs_url(i, d.code.as_str())),
                },
                "location": {
                    "path": file,
                    "lines": { "begin": line, "end": end_line },
                },
            })
        })
        .collect();
    serde_json::to_writer(&mut *out, &issues)?;
    writeln!(out)
}

/// FNV-1a (64 bits) of `parts`, each followed by a 0 byte: a hash that
/// is the same in every run and every build, as a fingerprint must be.
fn fingerprint(parts: &[&str]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    parts
        .iter()
        .flat_map(|part| part.bytes().chain([0]))
        .fold(OFFSET, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(PRIME)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fingerprint_is_fnv_1a_and_separates_its_parts() {
        // FNV-1a's published value for the empty input, then a 0 byte each.
        assert_eq!(fingerprint(&[]), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fingerprint(&["a"]), fingerprint(&["a"]));
        assert_ne!(fingerprint(&["ab", "c"]), fingerprint(&["a", "bc"]));
    }
}
