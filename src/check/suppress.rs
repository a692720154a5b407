//! `<!-- coordc: ignore CODE[, CODE] -->`: on the line before an element, the
//! comment silences those codes for that element and everything inside it.

use crate::diag::Diagnostic;
use crate::span::Span;
use crate::xml::{Document, Element};

/// An element's extent and the codes silenced in it.
#[derive(Debug, PartialEq)]
pub struct Suppression {
    pub span: Span,
    pub codes: Vec<String>,
}

/// The suppressions of `doc`, whose text is `source`. A comment applies to the
/// first element that starts on the line after it.
pub fn suppressions(doc: &Document, source: &str) -> Vec<Suppression> {
    let mut out = Vec::new();
    for comment in &doc.comments {
        let Some(codes) = comment.text.trim().strip_prefix("coordc: ignore") else {
            continue;
        };
        let codes: Vec<String> = codes
            .split([',', ' ', '\t'])
            .filter(|c| !c.is_empty())
            .map(|c| c.to_ascii_uppercase())
            .collect();
        let Some(element) = first_after(&doc.root, comment.span.end) else {
            continue;
        };
        let line = |offset: u32| {
            source[..(offset as usize).min(source.len())]
                .matches('\n')
                .count()
        };
        if line(element.span.start) == line(comment.span.end) + 1 {
            out.push(Suppression {
                span: element.span,
                codes,
            });
        }
    }
    out
}

/// The first element (in document order) that starts at or after `offset`.
fn first_after<'e, 's>(element: &'e Element<'s>, offset: u32) -> Option<&'e Element<'s>> {
    if element.span.start >= offset {
        return Some(element);
    }
    element.children.iter().find_map(|c| first_after(c, offset))
}

/// Whether `diagnostic` (in the file of `suppressions`) is silenced.
pub fn is_suppressed(suppressions: &[Suppression], diagnostic: &Diagnostic) -> bool {
    suppressions.iter().any(|s| {
        s.span.start <= diagnostic.span.start
            && diagnostic.span.start < s.span.end
            && s.codes.iter().any(|c| c == diagnostic.code)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xml::{Arena, parse};

    #[test]
    fn a_comment_silences_its_codes_in_the_next_lines_element() {
        let src = "<a>\n  <!-- coordc: ignore TM001, el005 -->\n  <b x=\"1\">\n    <c/>\n  </b>\n  <!-- coordc: ignore XML004 --> <d/>\n  <e/>\n</a>";
        let arena = Arena::new();
        let doc = parse(src, &arena).unwrap();
        let found = suppressions(&doc, src);
        // The second comment's element starts on its own line: nothing follows it on the next line but <e/>.
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(&src[found[0].span.range()], "<b x=\"1\">\n    <c/>\n  </b>");
        assert_eq!(found[0].codes, ["TM001", "EL005"]);
        let inside = src.find("<c/>").unwrap();
        let at = |code, offset: usize| Diagnostic::error(code, Span::new(offset, offset + 1), "m");
        assert!(is_suppressed(&found, &at("TM001", inside)));
        assert!(is_suppressed(&found, &at("EL005", inside)));
        assert!(!is_suppressed(&found, &at("XML004", inside)));
        assert!(!is_suppressed(
            &found,
            &at("TM001", src.find("<e/>").unwrap())
        ));
    }
}
