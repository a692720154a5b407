//! Java `.properties` files, read as `java.util.Properties.load` reads them
//! (Oozie's CLI loads `job.properties` with it): `=`, `:` or whitespace between
//! key and value, `\` line continuations, `\t \n \r \f \uXXXX` escapes (any other
//! escaped character stands for itself), and `#`/`!` comment lines.

use super::Property;
use crate::diag::Diagnostic;
use crate::diag::rules::CONFIG_SYNTAX;
use crate::span::Span;

/// The properties of `text`, in file order; a later duplicate overrides an
/// earlier one when merged. A malformed `\u` escape is the one error Java raises.
pub fn parse(text: &str) -> Result<Vec<Property>, Diagnostic> {
    let mut out = Vec::new();
    parse_each(text, |p| out.push(p))?;
    Ok(out)
}

/// [`parse`], each property given to `out` as it is read rather than kept:
/// a job.properties of a million entries is merged without a second copy.
/// On an error, the properties before it have been given.
pub(crate) fn parse_each(text: &str, mut out: impl FnMut(Property)) -> Result<(), Diagnostic> {
    let mut at = 0;
    while at < text.len() {
        let rest = &text[at..];
        let length = rest.find(['\n', '\r']).unwrap_or(rest.len());
        let line = &rest[..length];
        if !line.contains('\\') {
            // Most lines have no escape and no continuation: read in place.
            // (Each character of a logical line takes 32 bytes: a 10 MB value
            // read that way took 670 MB.)
            simple_line(line, at, &mut out);
            at += length;
            if text[at..].starts_with("\r\n") {
                at += 2;
            } else if at < text.len() {
                at += 1;
            }
            continue;
        }
        let mut lines = LogicalLines { text, at };
        let Some(line) = lines.next() else {
            break;
        };
        at = lines.at;
        logical_line(line, &mut out)?;
    }
    Ok(())
}

/// The property of the line `line` (at `offset`), which has no `\`.
fn simple_line(line: &str, offset: usize, out: &mut impl FnMut(Property)) {
    let blank = |c: char| matches!(c, ' ' | '\t' | '\x0c');
    let key_start = line.len() - line.trim_start_matches(blank).len();
    let content = &line[key_start..];
    if content.is_empty() || content.starts_with(['#', '!']) {
        return;
    }
    let key_end = key_start
        + content
            .find(['=', ':', ' ', '\t', '\x0c'])
            .unwrap_or(content.len());
    let mut value_start =
        key_end + (line[key_end..].len() - line[key_end..].trim_start_matches(blank).len());
    if line[value_start..].starts_with(['=', ':']) {
        value_start += 1;
        value_start +=
            line[value_start..].len() - line[value_start..].trim_start_matches(blank).len();
    }
    out(Property {
        name: line[key_start..key_end].to_string(),
        name_span: Span::new(offset + key_start, offset + key_end),
        value: line[value_start..].to_string(),
        value_span: Span::new(offset + value_start, offset + line.len()),
    });
}

/// The property of a logical line read escape by escape.
fn logical_line(line: LogicalLine, out: &mut impl FnMut(Property)) -> Result<(), Diagnostic> {
    let chars = line.chars.as_slice();
    let key_start = skip_blanks(chars, 0);
    // (An empty line, or a comment.)
    if matches!(chars.get(key_start), None | Some(('#' | '!', _, false, _))) {
        return Ok(());
    }
    let key_end = key_start
        + chars
            .iter()
            .skip(key_start)
            .take_while(|&&(c, _, escaped, _)| {
                escaped || !matches!(c, '=' | ':' | ' ' | '\t' | '\x0c')
            })
            .count();
    let mut i = skip_blanks(chars, key_end);
    if let Some(('=' | ':', _, false, _)) = chars.get(i) {
        i = skip_blanks(chars, i + 1);
    }
    let span = |from: usize, to: usize| {
        let start = chars.get(from).map_or(line.end, |c| c.1);
        let end = chars
            .get(from..to)
            .and_then(<[_]>::last)
            .map_or(start, |c| c.1 + c.3);
        Span::new(start, end)
    };
    out(Property {
        name: chars
            .iter()
            .take(key_end)
            .skip(key_start)
            .map(|c| c.0)
            .collect(),
        name_span: span(key_start, key_end),
        value: chars.iter().skip(i).map(|c| c.0).collect(),
        value_span: span(i, chars.len()),
    });
    match line.error {
        Some(error) => Err(error),
        None => Ok(()),
    }
}

/// The index of the first character from `i` on that is not an unescaped blank.
fn skip_blanks(chars: &[(char, usize, bool, usize)], i: usize) -> usize {
    i + chars
        .iter()
        .skip(i)
        .take_while(|c| matches!(c, (' ' | '\t' | '\x0c', _, false, _)))
        .count()
}

/// One logical line: `(character, file offset, was escaped, source length)`
/// after escapes and continuations are resolved.
struct LogicalLine {
    chars: Vec<(char, usize, bool, usize)>,
    end: usize,
    error: Option<Diagnostic>,
}

struct LogicalLines<'t> {
    text: &'t str,
    at: usize,
}

impl LogicalLines<'_> {
    fn next(&mut self) -> Option<LogicalLine> {
        let bytes = self.text.as_bytes();
        if self.at >= bytes.len() {
            return None;
        }
        let mut chars = Vec::new();
        let mut error = None;
        // Leading blanks of the natural line, and of each continuation line, are dropped.
        let mut skip_leading = true;
        let mut comment = false;
        loop {
            let Some(c) = self.text[self.at..].chars().next() else {
                return Some(LogicalLine {
                    chars,
                    end: self.at,
                    error,
                });
            };
            let start = self.at;
            if skip_leading && matches!(c, ' ' | '\t' | '\x0c') {
                self.at += 1;
                continue;
            }
            if skip_leading && chars.is_empty() && !comment && matches!(c, '#' | '!') {
                comment = true;
            }
            skip_leading = false;
            match c {
                '\n' | '\r' => {
                    self.at += 1;
                    if c == '\r' && bytes.get(self.at) == Some(&b'\n') {
                        self.at += 1;
                    }
                    return Some(LogicalLine {
                        chars,
                        end: start,
                        error,
                    });
                }
                '\\' if !comment => {
                    let Some(next) = self.text[start + 1..].chars().next() else {
                        // A backslash at the very end of the file is dropped.
                        self.at += 1;
                        return Some(LogicalLine {
                            chars,
                            end: start,
                            error,
                        });
                    };
                    match next {
                        '\n' | '\r' => {
                            self.at = start + 2;
                            if next == '\r' && bytes.get(self.at) == Some(&b'\n') {
                                self.at += 1;
                            }
                            skip_leading = true;
                        }
                        'u' => {
                            let hex = self.text.get(start + 2..start + 6);
                            let code = hex
                                .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
                                .and_then(|h| u32::from_str_radix(h, 16).ok());
                            match code {
                                Some(code) => {
                                    // Java reads UTF-16 units; an unpaired surrogate becomes U+FFFD.
                                    let ch = char::from_u32(code).unwrap_or('\u{fffd}');
                                    chars.push((ch, start, true, 6));
                                    self.at = start + 6;
                                }
                                None => {
                                    let end = (start + 6).min(self.text.len());
                                    error.get_or_insert_with(|| {
                                        Diagnostic::error(
                                            CONFIG_SYNTAX,
                                            Span::new(start, end),
                                            "malformed \\uxxxx encoding",
                                        )
                                        .with_help("write exactly four hexadecimal digits after \\u, or \\\\u for a literal backslash")
                                    });
                                    self.at = start + 2;
                                }
                            }
                        }
                        other => {
                            let ch = match other {
                                't' => '\t',
                                'n' => '\n',
                                'r' => '\r',
                                'f' => '\x0c',
                                c => c,
                            };
                            chars.push((ch, start, true, 1 + other.len_utf8()));
                            self.at = start + 1 + other.len_utf8();
                        }
                    }
                }
                c => {
                    chars.push((c, start, false, c.len_utf8()));
                    self.at += c.len_utf8();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {

    /// A line without `\\` is read in place; read escape by escape it
    /// must give the same property and spans.
    #[test]
    fn lines_read_in_place_are_read_as_escapes_read_them() {
        let lines = [
            "a=1",
            "  a = 1 ",
            "a:1",
            "a 1",
            "a\t=\t1",
            "a",
            "a=",
            "# c",
            "  ! c",
            "",
            "a==b",
            "a :: b",
            "é=ü",
            "\x0ca\x0c=\x0cb",
            "a b c",
            "=x",
            ":",
            "key=value # not a comment",
        ];
        for line in lines {
            let mut fast = Vec::new();
            simple_line(line, 3, &mut |p| fast.push(p));
            let text = format!("xyz{line}");
            let mut logical = LogicalLines { text: &text, at: 3 };
            let mut slow = Vec::new();
            if let Some(read) = logical.next() {
                logical_line(read, &mut |p| slow.push(p)).expect("no escape");
            }
            assert_eq!(fast, slow, "{line:?}");
        }
    }

    use super::*;

    fn pairs(text: &str) -> Vec<(String, String)> {
        parse(text)
            .unwrap()
            .into_iter()
            .map(|p| (p.name, p.value))
            .collect()
    }

    #[test]
    fn separators_comments_and_blanks() {
        let text = "# comment\n! also\n\na=1\nb : 2\nc 3\n  d=  4 \ne\nf=\n=g\n";
        let got = pairs(text);
        let expected = [
            ("a", "1"),
            ("b", "2"),
            ("c", "3"),
            ("d", "4 "),
            ("e", ""),
            ("f", ""),
            ("", "g"),
        ];
        assert_eq!(got, expected.map(|(k, v)| (k.to_string(), v.to_string())));
    }

    #[test]
    fn continuations_and_escapes() {
        let text = "path=/a/\\\n    b/\\\r\n  c\nkey\\ with\\:colon=v\\u00e9\\t\\x\\\\\n#not\\\ncontinued=yes\n";
        let got = pairs(text);
        assert_eq!(got[0], ("path".to_string(), "/a/b/c".to_string()));
        assert_eq!(
            got[1],
            ("key with:colon".to_string(), "vé\tx\\".to_string())
        );
        // A comment line does not continue, even when it ends in a backslash.
        assert_eq!(got[2], ("continued".to_string(), "yes".to_string()));
    }

    #[test]
    fn spans_point_into_the_file() {
        let text = "nameNode=hdfs://nn:8020\n  queue = default";
        let props = parse(text).unwrap();
        assert_eq!(&text[props[0].name_span.range()], "nameNode");
        assert_eq!(&text[props[0].value_span.range()], "hdfs://nn:8020");
        assert_eq!(&text[props[1].name_span.range()], "queue");
        assert_eq!(&text[props[1].value_span.range()], "default");
    }

    #[test]
    fn a_malformed_unicode_escape_is_an_error() {
        let err = parse("a=\\u12x4\n").unwrap_err();
        assert_eq!(err.code, CONFIG_SYNTAX);
        assert_eq!(err.span.start, 2);
    }
}
