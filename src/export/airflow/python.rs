//! Python source text: string literals, identifiers, and the Jinja and shell
//! quoting an exported DAG's templates need.

use std::fmt::Write;

/// `text` as a Python string literal, in double quotes (UTF-8 source: only
/// quotes, backslashes and control characters are escaped).
pub(super) fn string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `text` as a Jinja string literal, in single quotes (Jinja reads Python's
/// escapes).
pub(super) fn jinja_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('\'');
    for c in text.chars() {
        match c {
            '\'' => out.push_str("\\'"),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// `text` as one shell word, as Python's `shlex.quote` writes it.
pub(super) fn shell_word(text: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "@%+=:,./_-".contains(c);
    if !text.is_empty() && text.chars().all(safe) {
        return text.to_string();
    }
    format!("'{}'", text.replace('\'', "'\"'\"'"))
}

/// Whether Jinja would read part of `text` as a tag.
pub(super) fn has_jinja_tag(text: &str) -> bool {
    ["{{", "{%", "{#"].iter().any(|tag| text.contains(tag))
}

/// Literal text inside a Jinja template: as it is unless Jinja would read
/// part of it as a tag, then as a Jinja expression of its string.
pub(super) fn jinja_text(text: &str) -> String {
    // (A `{` at the end, or a `}` at the start, would join an expression's
    // own braces.)
    if has_jinja_tag(text) || text.ends_with('{') || text.starts_with('}') {
        format!("{{{{ {} }}}}", jinja_string(text))
    } else {
        text.to_string()
    }
}

/// An Airflow task id or DAG id from an Oozie name: letters, digits, `_`,
/// `-` and `.` kept, anything else `_` (Airflow's KEY_REGEX).
pub(super) fn airflow_id(name: &str) -> String {
    let id: String = name
        .trim()
        .chars()
        .map(|c| match c {
            c if c.is_ascii_alphanumeric() || "_-.".contains(c) => c,
            _ => '_',
        })
        .collect();
    if id.is_empty() { "_".to_string() } else { id }
}

/// A Python identifier from an Oozie name (a task's variable).
pub(super) fn identifier(name: &str) -> String {
    let mut id: String = name
        .trim()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if id.is_empty() || id.starts_with(|c: char| c.is_ascii_digit()) || KEYWORDS.contains(&&*id) {
        id.insert_str(0, "task_");
    }
    id
}

/// Python's keywords, and the names an exported file binds itself.
const KEYWORDS: &[&str] = &[
    "False",
    "None",
    "True",
    "and",
    "as",
    "assert",
    "async",
    "await",
    "break",
    "class",
    "continue",
    "def",
    "del",
    "elif",
    "else",
    "except",
    "finally",
    "for",
    "from",
    "global",
    "if",
    "import",
    "in",
    "is",
    "lambda",
    "nonlocal",
    "not",
    "or",
    "pass",
    "raise",
    "return",
    "try",
    "while",
    "with",
    "yield",
    "dag",
    "datetime",
    "timedelta",
    "timezone",
    "DAG",
    "OOZIE",
    "BashOperator",
    "EmptyOperator",
    "BranchPythonOperator",
    "EmailOperator",
    "DeltaTriggerTimetable",
    "OozieCoordinator",
    "OozieDataIn",
    "OozieDataOut",
    "OozieDataInSensor",
    "OozieDataset",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_python_and_jinja_literals() {
        assert_eq!(string("a\"b\\c\nd\u{1}"), r#""a\"b\\c\nd\u0001""#);
        assert_eq!(jinja_string("it's \\"), r"'it\'s \\'");
        assert_eq!(jinja_text("a {{ b }}"), "{{ 'a {{ b }}' }}");
        assert_eq!(jinja_text("plain ${x}"), "plain ${x}");
        assert_eq!(jinja_text("{"), "{{ '{' }}");
    }

    #[test]
    fn shell_words_are_quoted_as_shlex_quotes_them() {
        assert_eq!(shell_word("run.sh"), "run.sh");
        assert_eq!(shell_word(""), "''");
        assert_eq!(shell_word("a b"), "'a b'");
        assert_eq!(shell_word("it's"), "'it'\"'\"'s'");
    }

    #[test]
    fn names_become_ids_and_identifiers() {
        assert_eq!(airflow_id("my app:v2"), "my_app_v2");
        assert_eq!(identifier("load-data"), "load_data");
        assert_eq!(identifier("2nd"), "task_2nd");
        assert_eq!(identifier("dag"), "task_dag");
    }
}
