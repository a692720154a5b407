//! `<!-- coordc: ignore CODE[, CODE] -->`: on the line before an element, the
//! comment silences those codes for that element and everything inside it.
//! The codes are the words after `ignore` that look like codes (letters,
//! then digits); what follows them is free text. A code no rule has is
//! SU001; a suppression that silenced nothing in a check is SU002 (as
//! ruff's RUF100 for `# noqa`).

use super::select::suggestion;
use crate::diag::Diagnostic;
use crate::diag::fixes::FixKind;
use crate::diag::rules::{SUPPRESSION_UNKNOWN, SUPPRESSION_UNUSED, rule};
use crate::span::Span;
use crate::xml::{Document, Element};
use std::sync::atomic::{AtomicBool, Ordering};

/// One comment: the element it silences codes in, and the codes.
#[derive(Debug)]
pub(crate) struct Suppression {
    /// The element's extent; `None` when no element starts on the line
    /// after the comment (it silences nothing).
    pub span: Option<Span>,
    /// The comment, `<!--` to `-->`.
    pub comment: Span,
    pub codes: Vec<Code>,
}

/// A code of a suppression, and whether it silenced a problem.
#[derive(Debug)]
pub(crate) struct Code {
    /// Upper case.
    pub code: String,
    pub span: Span,
    /// Set by [`is_suppressed`] (the pipeline checks ask after the file's
    /// own check, through a shared report).
    used: AtomicBool,
}

impl Code {
    pub(crate) fn used(&self) -> bool {
        self.used.load(Ordering::Relaxed)
    }

    /// Counts as used: the same file's check in another context (alone and
    /// through a bundle) silenced its code.
    pub(crate) fn mark_used(&self) {
        self.used.store(true, Ordering::Relaxed);
    }
}

/// The suppressions of `doc`, whose text is `source`. A comment applies to the
/// first element that starts on the line after it.
pub(crate) fn suppressions(doc: &Document, source: &str) -> Vec<Suppression> {
    let mut out = Vec::new();
    for comment in &doc.comments {
        let Some(after) = comment.text.trim_start().strip_prefix("coordc: ignore") else {
            continue;
        };
        // (The comment's text starts after its `<!--`.)
        let mut at = comment.span.start as usize + "<!--".len() + comment.text.len() - after.len();
        let mut codes = Vec::new();
        for word in after.split_inclusive([',', ' ', '\t', '\n', '\r']) {
            let code = word.trim_end_matches([',', ' ', '\t', '\n', '\r']);
            let start = at;
            at += word.len();
            if code.is_empty() {
                continue;
            }
            if !looks_like_code(code) {
                break;
            }
            codes.push(Code {
                code: code.to_ascii_uppercase(),
                span: Span::new(start, start + code.len()),
                used: AtomicBool::new(false),
            });
        }
        let line = |offset: u32| crate::lines::line_of(source, offset as usize);
        let span = first_after(&doc.root, comment.span.end)
            .filter(|element| line(element.span.start) == line(comment.span.end) + 1)
            .map(|element| element.span);
        out.push(Suppression {
            span,
            comment: comment.span,
            codes,
        });
    }
    out
}

/// Letters, then digits: `EL005`, `XX999`; not `reason` or `2024`.
fn looks_like_code(word: &str) -> bool {
    let digits = word.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    digits.len() < word.len() && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// The first element (in document order) that starts at or after `offset`.
fn first_after<'e, 's>(element: &'e Element<'s>, offset: u32) -> Option<&'e Element<'s>> {
    if element.span.start >= offset {
        return Some(element);
    }
    element.children.iter().find_map(|c| first_after(c, offset))
}

/// Whether `diagnostic` (in the file of `suppressions`) is silenced; every
/// code that silences it counts as used.
pub(crate) fn is_suppressed(suppressions: &[Suppression], diagnostic: &Diagnostic) -> bool {
    let mut silenced = false;
    for s in suppressions {
        let Some(span) = s.span else {
            continue;
        };
        if span.start <= diagnostic.span.start && diagnostic.span.start < span.end {
            for c in s
                .codes
                .iter()
                .filter(|c| c.code == diagnostic.code.as_str())
            {
                c.mark_used();
                silenced = true;
            }
        }
    }
    silenced
}

/// SU001: each code of `suppressions` that no rule has (with the closest
/// one), and each suppression that names no code.
pub(crate) fn unknown_codes(suppressions: &[Suppression]) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    for s in suppressions {
        if s.codes.is_empty() {
            found.push(
                Diagnostic::warning(
                    SUPPRESSION_UNKNOWN,
                    s.comment,
                    "this suppression names no rule code",
                )
                .with_help("write the codes after `coordc: ignore`, e.g. `<!-- coordc: ignore EL005, TM005 -->`"),
            );
        }
        for c in s.codes.iter().filter(|c| rule(&c.code).is_none()) {
            found.push(
                Diagnostic::warning(
                    SUPPRESSION_UNKNOWN,
                    c.span,
                    format!(
                        "no rule {}: this code silences nothing{}",
                        c.code,
                        suggestion(&c.code, false)
                    ),
                )
                .with_help("`coordc rules` lists the codes"),
            );
        }
    }
    found
}

/// SU002 for `s` in `source`, when codes that `enabled` says are reported
/// silenced nothing in it: one diagnostic naming them, with the fix that
/// removes them (the whole comment, and its line if it is alone there,
/// when no code is left). Unknown codes are SU001's, not counted here.
pub(crate) fn unused(
    s: &Suppression,
    source: &str,
    enabled: impl Fn(&str) -> bool,
) -> Option<Diagnostic> {
    let known = |c: &&Code| rule(&c.code).is_some();
    let unused: Vec<&Code> = s
        .codes
        .iter()
        .filter(known)
        .filter(|c| !c.used() && enabled(&c.code))
        .collect();
    if unused.is_empty() {
        return None;
    }
    let names: Vec<&str> = unused.iter().map(|c| c.code.as_str()).collect();
    let message = match s.span {
        None => format!(
            "unused suppression of {}: no element starts on the line after it",
            names.join(", ")
        ),
        Some(_) => format!(
            "unused suppression: nothing in the element after it reports {}",
            names.join(" or ")
        ),
    };
    let kept: Vec<&Code> = s
        .codes
        .iter()
        .filter(|c| !names.contains(&c.code.as_str()))
        .collect();
    let (span, replacement) = match (kept.first(), s.codes.first(), s.codes.last()) {
        (Some(_), Some(first), Some(last)) => (
            Span::new(first.span.start as usize, last.span.end as usize),
            kept.iter()
                .map(|c| c.code.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        ),
        _ => (whole_line_or_comment(s.comment, source), String::new()),
    };
    Some(
        Diagnostic::warning(SUPPRESSION_UNUSED, s.comment, message)
            .with_help(
                "remove it, or put it on the line before the element whose problem it silences",
            )
            .with_fix(FixKind::UnusedSuppression, span, replacement),
    )
}

/// The comment's line, with its line end, when nothing else is on it;
/// else the comment alone.
fn whole_line_or_comment(comment: Span, source: &str) -> Span {
    let (start, end) = (comment.start as usize, comment.end as usize);
    let (Some(before), Some(rest)) = (source.get(..start), source.get(end..)) else {
        return comment;
    };
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let after = rest.find('\n').map_or(rest.len(), |i| i + 1);
    let alone = before[line_start..].trim().is_empty() && rest[..after].trim().is_empty();
    if alone {
        Span::new(line_start, end + after)
    } else {
        comment
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::rules::{EL_UNKNOWN_VARIABLE, TIME_DATETIME, XML_CONTENT};
    use crate::xml::{Arena, parse};

    fn codes(s: &Suppression) -> Vec<&str> {
        s.codes.iter().map(|c| c.code.as_str()).collect()
    }

    #[test]
    fn a_comment_silences_its_codes_in_the_next_lines_element() {
        let src = "<a>\n  <!-- coordc: ignore TM001, el005 -->\n  <b x=\"1\">\n    <c/>\n  </b>\n  <!-- coordc: ignore XML004 --> <d/>\n  <e/>\n</a>";
        let arena = Arena::new();
        let doc = parse(src, &arena).unwrap();
        let found = suppressions(&doc, src);
        // The second comment's element starts on its own line: nothing follows it on the next line but <e/>.
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(
            &src[found[0].span.unwrap().range()],
            "<b x=\"1\">\n    <c/>\n  </b>"
        );
        assert_eq!(codes(&found[0]), ["TM001", "EL005"]);
        assert_eq!(&src[found[0].codes[1].span.range()], "el005");
        assert_eq!(found[1].span, None);
        let inside = src.find("<c/>").unwrap();
        let at = |code, offset: usize| Diagnostic::error(code, Span::new(offset, offset + 1), "m");
        assert!(!found[0].codes[0].used());
        assert!(is_suppressed(&found, &at(TIME_DATETIME, inside)));
        assert!(found[0].codes[0].used() && !found[0].codes[1].used());
        assert!(is_suppressed(&found, &at(EL_UNKNOWN_VARIABLE, inside)));
        assert!(!is_suppressed(&found, &at(XML_CONTENT, inside)));
        assert!(!is_suppressed(
            &found,
            &at(TIME_DATETIME, src.find("<e/>").unwrap())
        ));
    }

    #[test]
    fn unknown_codes_and_unused_suppressions_are_said_with_a_fix() {
        let src = "<a>\n  <!-- coordc: ignore TM001, TM09, EL005 the spec's example -->\n  <b/>\n  <!--coordc: ignore DST001--><c/>\n  <!-- coordc: ignore because -->\n  <d/>\n</a>";
        let arena = Arena::new();
        let doc = parse(src, &arena).unwrap();
        let found = suppressions(&doc, src);
        assert_eq!(codes(&found[0]), ["TM001", "TM09", "EL005"]);
        assert!(codes(&found[2]).is_empty());
        let unknown = unknown_codes(&found);
        assert_eq!(unknown.len(), 2);
        assert_eq!(&src[unknown[0].span.range()], "TM09");
        assert_eq!(
            unknown[0].message,
            "no rule TM09: this code silences nothing (the TM rules are TM001, TM002, TM003, TM004, TM005, TM006)"
        );
        assert!(unknown[1].message.contains("names no rule code"));
        // TM001 silenced something; EL005 did not: the codes left stay.
        found[0].codes[0].mark_used();
        let d = unused(&found[0], src, |_| true).unwrap();
        assert_eq!(
            d.message,
            "unused suppression: nothing in the element after it reports EL005"
        );
        let fix = d.fix.as_ref().unwrap();
        assert_eq!(&src[fix.span.range()], "TM001, TM09, EL005");
        assert_eq!(fix.replacement, "TM001, TM09");
        // A code turned off is not said to be unused.
        assert!(unused(&found[0], src, |c| c != "EL005").is_none());
        // Nothing left: the comment goes, with its line when it is alone there.
        found[0].codes[0].used.store(false, Ordering::Relaxed);
        let d = unused(&found[0], src, |_| true).unwrap();
        // (TM09 is SU001's: it is not among the unused, but the fix keeps it.)
        assert_eq!(
            d.message,
            "unused suppression: nothing in the element after it reports TM001 or EL005"
        );
        assert_eq!(d.fix.as_ref().unwrap().replacement, "TM09");
        let d = unused(&found[1], src, |_| true).unwrap();
        let fix = d.fix.as_ref().unwrap();
        assert_eq!(&src[fix.span.range()], "<!--coordc: ignore DST001-->");
        assert_eq!(fix.replacement, "");
    }

    #[test]
    fn a_lone_comment_goes_with_its_line() {
        let src = "<a>\n  <!-- coordc: ignore DST001 -->\n  <b/>\n</a>";
        let arena = Arena::new();
        let doc = parse(src, &arena).unwrap();
        let found = suppressions(&doc, src);
        let d = unused(&found[0], src, |_| true).unwrap();
        let fix = d.fix.as_ref().unwrap();
        assert_eq!(&src[fix.span.range()], "  <!-- coordc: ignore DST001 -->\n");
    }
}
