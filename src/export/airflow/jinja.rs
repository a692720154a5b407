//! Workflow EL as Jinja: a value of a workflow action, translated where an
//! Airflow template renders the same value, refused (with the place of the
//! expression) where none does.
//!
//! A workflow's variables are its job configuration (the coordinator action's
//! resolved configuration over the job properties, over the workflow's
//! `config-default.xml`), which the runtime's `oozie.conf(logical_date, NAME)`
//! gives for the run; `${NAME}` and `${wf:conf('NAME')}` read it. Any other
//! expression that reads only that configuration is rendered by coordc on
//! the worker (`oozie.el(logical_date, TEXT)`), as Oozie's EL engine would.

use super::python::{has_jinja_tag, jinja_string, jinja_text, shell_word};
use crate::el::ast::{ExprKind, Part};
use crate::ir::ElText;
use crate::span::Span;

/// A value as literal text and Jinja expressions, in order.
#[derive(Default)]
pub(super) struct Translation {
    pieces: Vec<Piece>,
    /// Where the translation differs from Oozie's value (`wf:id()`).
    pub(super) differences: Vec<String>,
}

enum Piece {
    Literal(String),
    Expression(String),
}

/// An expression no Airflow template renders as Oozie does.
pub(super) struct Refused {
    /// In the workflow file.
    pub(super) span: Span,
    pub(super) expression: String,
}

/// `text` translated, its configuration read from `job` (the template name
/// of the workflow job it runs in: `oozie`, or a sub-workflow's), or the
/// first expression that cannot be.
pub(super) fn translate(text: &ElText, job: &str) -> Result<Translation, Refused> {
    let mut translation = Translation {
        pieces: Vec::new(),
        differences: Vec::new(),
    };
    for part in &text.template().parts {
        match part {
            Part::Text { text, .. } => translation.pieces.push(Piece::Literal(text.to_string())),
            Part::Block { expr, span } => {
                let refused = || Refused {
                    span: text.file_span(*span),
                    expression: text
                        .text()
                        .get(span.start as usize..span.end as usize)
                        .unwrap_or_default()
                        .to_string(),
                };
                let expression = match &expr.kind {
                    ExprKind::Var(name) => conf(job, name),
                    ExprKind::Call(call) if call.namespace.as_deref() == Some("wf") => {
                        match (call.name.as_str(), call.args.as_slice()) {
                            ("conf", [arg]) => match &arg.kind {
                                ExprKind::Str(name) => conf(job, name),
                                _ => return Err(refused()),
                            },
                            ("id", []) => {
                                translation.differences.push(
                                    "`${wf:id()}` is the Airflow run's id (`run_id`), not an Oozie workflow id"
                                        .to_string(),
                                );
                                "run_id".to_string()
                            }
                            ("user", []) => conf(job, "user.name"),
                            _ => rendered_by_coordc(text, expr, *span, job).ok_or_else(refused)?,
                        }
                    }
                    _ => rendered_by_coordc(text, expr, *span, job).ok_or_else(refused)?,
                };
                translation.pieces.push(Piece::Expression(expression));
            }
        }
    }
    Ok(translation)
}

/// `text` as the words Oozie splits it into at spaces (`java-opts`, a
/// Sqoop `<command>`): split at the spaces of its literal text, an
/// expression kept inside its word.
pub(super) fn translate_words(text: &ElText, job: &str) -> Result<Vec<Translation>, Refused> {
    let whole = translate(text, job)?;
    let mut words: Vec<Translation> = Vec::new();
    let mut open = false;
    for piece in whole.pieces {
        match piece {
            Piece::Literal(literal) => {
                let mut parts = literal.split(char::is_whitespace).peekable();
                while let Some(part) = parts.next() {
                    if !part.is_empty() {
                        if !open {
                            words.push(Translation::default());
                        }
                        if let Some(word) = words.last_mut() {
                            word.pieces.push(Piece::Literal(part.to_string()));
                        }
                        open = true;
                    }
                    // A space ends the word (not after the last part).
                    if parts.peek().is_some() {
                        open = false;
                    }
                }
            }
            expression => {
                if !open {
                    words.push(Translation::default());
                    open = true;
                }
                if let Some(word) = words.last_mut() {
                    word.pieces.push(expression);
                }
            }
        }
    }
    if let Some(first) = words.first_mut() {
        first.differences = whole.differences;
    }
    Ok(words)
}

/// A block that reads only the run's configuration, rendered by coordc on
/// the worker (`oozie.el`: the same EL engine as everywhere in coordc), or
/// `None` when it calls what needs the cluster or the running workflow.
fn rendered_by_coordc(
    text: &ElText,
    expr: &crate::el::ast::Expr,
    span: Span,
    job: &str,
) -> Option<String> {
    if impure_call(expr).is_some() {
        return None;
    }
    let block = text.text().get(span.start as usize..span.end as usize)?;
    if has_jinja_tag(block) {
        return None;
    }
    Some(format!("{job}.el(logical_date, {})", jinja_string(block)))
}

/// The first call of `expr` that a worker cannot render from the run's
/// configuration: one that needs the cluster or the running workflow. Only
/// `wf:conf`, `wf:user` and the functions of no namespace (`timestamp()`,
/// the clock, aside) can be.
pub(super) fn impure_call(expr: &crate::el::ast::Expr) -> Option<(String, Span)> {
    let mut found = None;
    expr.walk(&mut |e| {
        if let ExprKind::Call(call) = &e.kind {
            let allowed = match call.namespace.as_deref() {
                None => call.name != "timestamp",
                Some("wf") => call.name == "conf" || call.name == "user",
                Some(_) => false,
            };
            if !allowed && found.is_none() {
                let name = match &call.namespace {
                    Some(ns) => format!("{ns}:{}", call.name),
                    None => call.name.to_string(),
                };
                found = Some((name, call.name_span));
            }
        }
    });
    found
}

fn conf(job: &str, name: &str) -> String {
    format!("{job}.conf(logical_date, {})", jinja_string(name))
}

impl Translation {
    /// The value as a Jinja template.
    pub(super) fn template(&self) -> String {
        self.pieces
            .iter()
            .map(|piece| match piece {
                Piece::Literal(text) => jinja_text(text),
                Piece::Expression(e) => format!("{{{{ {e} }}}}"),
            })
            .collect()
    }

    /// The value as one shell word: quoted now when it is literal, else
    /// quoted by the template as it renders (`oozie.quote`).
    pub(super) fn shell_word(&self) -> String {
        if self.pieces.iter().all(|p| matches!(p, Piece::Literal(_))) {
            return jinja_text(&shell_word(&self.literal()));
        }
        let joined: Vec<String> = self
            .pieces
            .iter()
            .map(|piece| match piece {
                Piece::Literal(text) => jinja_string(text),
                Piece::Expression(e) => e.clone(),
            })
            .collect();
        format!("{{{{ oozie.quote({}) }}}}", joined.join(" ~ "))
    }

    /// The text of a value with no expression.
    fn literal(&self) -> String {
        self.pieces
            .iter()
            .map(|piece| match piece {
                Piece::Literal(text) | Piece::Expression(text) => text.as_str(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::airflow::tests::shell_exec;

    #[test]
    fn variables_and_wf_conf_read_the_runs_configuration() {
        let t = translate(&shell_exec("${nameNode}/in/${wf:conf('day')}"), "oozie")
            .ok()
            .unwrap();
        assert_eq!(
            t.shell_word(),
            "{{ oozie.quote(oozie.conf(logical_date, 'nameNode') ~ '/in/' ~ oozie.conf(logical_date, 'day')) }}"
        );
        assert_eq!(
            t.template(),
            "{{ oozie.conf(logical_date, 'nameNode') }}/in/{{ oozie.conf(logical_date, 'day') }}"
        );
        assert!(t.differences.is_empty());
    }

    #[test]
    fn literal_values_are_quoted_at_export() {
        let t = translate(&shell_exec("a b"), "oozie").ok().unwrap();
        assert_eq!(t.shell_word(), "'a b'");
    }

    #[test]
    fn lists_split_at_the_spaces_of_their_text() {
        let words = translate_words(
            &shell_exec("import  --connect ${url}/db --table t${n}x"),
            "oozie",
        )
        .ok()
        .unwrap();
        let shown: Vec<String> = words.iter().map(Translation::shell_word).collect();
        assert_eq!(
            shown,
            [
                "import",
                "--connect",
                "{{ oozie.quote(oozie.conf(logical_date, 'url') ~ '/db') }}",
                "--table",
                "{{ oozie.quote('t' ~ oozie.conf(logical_date, 'n') ~ 'x') }}",
            ]
        );
    }

    #[test]
    fn pure_expressions_are_rendered_by_coordc_for_the_run() {
        let t = translate(
            &shell_exec("${concat(nameNode, '/x')}-${wf:user()}"),
            "oozie",
        )
        .ok()
        .unwrap();
        assert_eq!(
            t.template(),
            "{{ oozie.el(logical_date, '${concat(nameNode, \\'/x\\')}') }}-{{ oozie.conf(logical_date, 'user.name') }}"
        );
    }

    #[test]
    fn other_functions_are_refused_at_their_place() {
        let text = shell_exec("x ${wf:lastErrorNode()}");
        let refused = translate(&text, "oozie").err().unwrap();
        assert_eq!(refused.expression, "${wf:lastErrorNode()}");
        assert_eq!(refused.span.start, text.span.start + 2);
        assert_eq!(refused.span.end, text.span.end);
    }
}
