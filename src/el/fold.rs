//! Constant folding, for text values rendered many times (a coordinator's EL is
//! rendered once per action): every operation whose operands are all literals is
//! evaluated once, at compile time, and a text value that folds entirely is
//! rendered once.
//!
//! Folding never changes a result or an error: an operation that fails is left in
//! place, so it fails at evaluation with its own span and message, exactly as the
//! unfolded tree would; variables and calls are never folded (their meaning depends
//! on the job and the function library).

use super::ast::{Binary, BinaryOp, Expr, ExprKind, Part, Suffix, Template, UnaryOp};
use super::eval::{Env, Variables, eval_constant, render_into, render_resolved_into};
use super::library::Resolved;
use super::value::{Value, ValueType, arithmetic_number};
use crate::diag::Diagnostic;
use crate::span::Span;

/// A template ready to be rendered many times.
#[derive(Debug, Clone, PartialEq)]
pub struct Compiled {
    template: Template,
    /// The rendered text and its type, when the whole template is constant.
    rendered: Option<(String, ValueType)>,
    /// What its calls name, found once for every rendering.
    resolved: Resolved,
}

impl Compiled {
    pub fn new(mut template: Template) -> Compiled {
        let resolved = Resolved::of(&template);
        template.parts.iter_mut().for_each(|part| {
            if let Part::Block { expr, .. } = part {
                fold(expr);
            }
        });
        let constant = template.exprs().all(is_literal);
        let mut rendered = None;
        if constant {
            let mut text = String::new();
            // A constant template renders the same in every environment.
            let env = Env::constant();
            if let Ok(ty) = render_into(&template, &env, &mut text) {
                rendered = Some((text, ty));
            }
        }
        Compiled {
            template,
            rendered,
            resolved,
        }
    }

    /// Renders as [`render_into`] renders the original template.
    pub fn render_into(&self, env: &Env, out: &mut String) -> Result<ValueType, Diagnostic> {
        match &self.rendered {
            Some((text, ty)) => {
                out.push_str(text);
                Ok(*ty)
            }
            None => render_resolved_into(&self.template, Some(&self.resolved), env, out),
        }
    }

    /// This template with the job's variables put in place of their names. A
    /// job's properties do not change between its evaluations (a coordinator's
    /// actions), so each is looked up once per job rather than at every use.
    /// Only names `vars` defines are bound (EL constants and undefined names
    /// are left to evaluation, with their errors), and nothing is folded
    /// further: every evaluation still computes what reads a variable. A
    /// string operand of arithmetic is coerced to its number once.
    pub fn bind(&self, vars: &dyn Variables) -> Compiled {
        let mut template = self.template.clone();
        for part in &mut template.parts {
            if let Part::Block { expr, .. } = part {
                bind(expr, vars);
            }
        }
        Compiled {
            template,
            rendered: self.rendered.clone(),
            resolved: self.resolved.clone(),
        }
    }

    /// The folded template.
    pub fn template(&self) -> &Template {
        &self.template
    }
}

fn is_literal(expr: &Expr) -> bool {
    matches!(
        expr.kind,
        ExprKind::Null
            | ExprKind::Bool(_)
            | ExprKind::Long(_)
            | ExprKind::Double(_)
            | ExprKind::Str(_)
    )
}

fn literal_value(expr: &Expr) -> Option<Value<'_>> {
    if is_literal(expr) {
        eval_constant(expr)
    } else {
        None
    }
}

fn literal(value: Value, span: Span) -> Expr {
    let kind = match value {
        Value::Null => ExprKind::Null,
        Value::Bool(b) => ExprKind::Bool(b),
        Value::Long(l) => ExprKind::Long(l),
        Value::Double(d) => ExprKind::Double(d),
        Value::Str(s) => ExprKind::Str(s.into()),
        Value::Map(_) => unreachable!("only a running workflow's functions make maps"),
    };
    Expr { kind, span }
}

/// Replaces `expr` by its value when it and all its operands are constant.
fn fold_whole(expr: &mut Expr) {
    if let Some(value) = eval_constant(expr) {
        let folded = literal(value.into_owned(), expr.span);
        *expr = folded;
    }
}

fn fold(expr: &mut Expr) {
    match &mut expr.kind {
        ExprKind::Null
        | ExprKind::Bool(_)
        | ExprKind::Long(_)
        | ExprKind::Double(_)
        | ExprKind::Str(_)
        | ExprKind::Var(_) => {}
        ExprKind::Call(call) => call.args.iter_mut().for_each(fold),
        ExprKind::Unary(unary) => {
            fold(&mut unary.operand);
            if is_literal(&unary.operand) {
                fold_whole(expr);
            }
        }
        ExprKind::Binary(binary) => {
            fold(&mut binary.first);
            binary.rest.iter_mut().for_each(|(_, _, e)| fold(e));
            // A level is evaluated left to right, so its longest constant prefix
            // can be evaluated now and the rest later.
            let prefix = if is_literal(&binary.first) {
                binary
                    .rest
                    .iter()
                    .take_while(|(_, _, e)| is_literal(e))
                    .count()
            } else {
                0
            };
            if prefix == binary.rest.len() {
                fold_whole(expr);
            } else if prefix > 0 {
                fold_prefix(binary, prefix);
            }
        }
        ExprKind::Conditional(c) => {
            fold(&mut c.cond);
            fold(&mut c.then);
            fold(&mut c.otherwise);
            // A constant condition picks its branch once (the other is never
            // evaluated). Only a literal branch replaces the conditional: a branch
            // that fails must fail at its own span.
            if let Some(cond) = literal_value(&c.cond).and_then(|v| v.to_bool().ok()) {
                let chosen = if cond { &c.then } else { &c.otherwise };
                if is_literal(chosen) {
                    fold_whole(expr);
                }
            }
        }
        ExprKind::Access(access) => {
            fold(&mut access.base);
            for suffix in &mut access.suffixes {
                if let Suffix::Index { index, .. } = suffix {
                    fold(index);
                }
            }
            let indexes_literal = access.suffixes.iter().all(|s| match s {
                Suffix::Index { index, .. } => is_literal(index),
                Suffix::Property { .. } => true,
            });
            if is_literal(&access.base) && indexes_literal {
                fold_whole(expr);
            }
        }
    }
}

/// Replaces each variable `vars` defines by its value, as a literal: a string,
/// or null (what evaluating the variable gives).
fn bind(expr: &mut Expr, vars: &dyn Variables) {
    match &mut expr.kind {
        ExprKind::Var(name) => {
            if let Some(value) = vars.lookup(name) {
                expr.kind = value.map_or(ExprKind::Null, |v| ExprKind::Str(v.into()));
            }
        }
        ExprKind::Null
        | ExprKind::Bool(_)
        | ExprKind::Long(_)
        | ExprKind::Double(_)
        | ExprKind::Str(_) => {}
        ExprKind::Call(call) => call.args.iter_mut().for_each(|a| bind(a, vars)),
        ExprKind::Unary(unary) => {
            bind(&mut unary.operand, vars);
            // The last operator applies first.
            if unary
                .ops
                .last()
                .is_some_and(|(op, _)| *op == UnaryOp::Minus)
            {
                as_number(&mut unary.operand);
            }
        }
        ExprKind::Binary(binary) => {
            bind(&mut binary.first, vars);
            binary.rest.iter_mut().for_each(|(_, _, e)| bind(e, vars));
            if binary
                .rest
                .first()
                .is_some_and(|(op, _, _)| is_arithmetic(*op))
            {
                as_number(&mut binary.first);
            }
            for (op, _, operand) in &mut binary.rest {
                if is_arithmetic(*op) {
                    as_number(operand);
                }
            }
        }
        ExprKind::Conditional(c) => {
            bind(&mut c.cond, vars);
            bind(&mut c.then, vars);
            bind(&mut c.otherwise, vars);
        }
        ExprKind::Access(access) => {
            bind(&mut access.base, vars);
            for suffix in &mut access.suffixes {
                if let Suffix::Index { index, .. } = suffix {
                    bind(index, vars);
                }
            }
        }
    }
}

fn is_arithmetic(op: BinaryOp) -> bool {
    matches!(
        op,
        BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Mod
    )
}

/// A string operand of arithmetic, coerced once: arithmetic turns it into the
/// same number at every evaluation (a bound property such as `7` or `2.5`).
/// Only a string that is exactly its number's text is replaced, so results
/// and messages stay the same.
fn as_number(expr: &mut Expr) {
    if let ExprKind::Str(s) = &expr.kind
        && let Some(number) = arithmetic_number(s)
    {
        expr.kind = match number {
            Value::Long(l) => ExprKind::Long(l),
            Value::Double(d) => ExprKind::Double(d),
            _ => return,
        };
    }
}

/// Folds the first `prefix` operations of a binary level into its first
/// operand (`prefix` is at least one, and fewer than all).
fn fold_prefix(binary: &mut Binary, prefix: usize) {
    let Some(head @ [.., (_, _, last)]) = binary.rest.get(..prefix) else {
        return;
    };
    let span = Span {
        start: binary.first.span.start,
        end: last.span.end,
    };
    let prefix_expr = Expr {
        kind: ExprKind::Binary(Box::new(Binary {
            first: binary.first.clone(),
            rest: head.iter().cloned().collect(),
        })),
        span,
    };
    if let Some(value) = eval_constant(&prefix_expr) {
        binary.first = literal(value.into_owned(), span);
        binary.rest.drain(..prefix);
    }
}

// The integration tests' generator (the file says why it is shared by
// path); the tests below use only part of it.
#[cfg(test)]
#[allow(dead_code)]
#[path = "../../tests/common/rng.rs"]
mod test_rng;

#[cfg(test)]
mod tests {
    use super::test_rng::Rng;
    use super::*;
    use crate::el::VarMap;
    use crate::el::eval::NoVariables;
    use crate::el::{Library, parse_template};
    use crate::time::datetime::ProcessingZone;

    fn outcome(result: Result<ValueType, Diagnostic>, out: String) -> String {
        match result {
            Ok(ty) => format!("ok {ty:?} {out}"),
            Err(d) => format!("error {} {:?} {}", d.code, d.span, d.message),
        }
    }

    /// Every oracle case renders the same folded and unfolded: value, type, or
    /// error code, span and message.
    #[test]
    fn folding_changes_no_result_or_error() {
        let data = concat!(
            include_str!("../../tests/data/el_cases.jsonl"),
            include_str!("../../tests/data/el_wf_function_cases.jsonl")
        );
        let mut folded_any = 0;
        for line in data.lines() {
            let case: serde_json::Value = serde_json::from_str(line).unwrap();
            let Ok(template) = parse_template(case["expr"].as_str().unwrap(), 0) else {
                continue;
            };
            let vars: VarMap = case["vars"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(k, v)| (k.clone(), v.as_str().map(str::to_string)))
                .collect();
            for library in [Library::Coordinator, Library::Workflow] {
                let env = Env {
                    vars: &vars,
                    library,
                    context: None,
                    processing_zone: ProcessingZone::UTC,
                };
                let mut plain = String::new();
                let expected = outcome(render_into(&template, &env, &mut plain), plain);
                let compiled = Compiled::new(template.clone());
                if compiled.template != template {
                    folded_any += 1;
                }
                let mut out = String::new();
                let got = outcome(compiled.render_into(&env, &mut out), out);
                assert_eq!(got, expected, "{}", case["expr"]);
                // Bound to the case's variables, with none left to look up.
                let mut out = String::new();
                let bound = compiled.bind(&vars);
                let got = outcome(
                    bound.render_into(
                        &Env {
                            vars: &NoVariables,
                            ..env
                        },
                        &mut out,
                    ),
                    out,
                );
                assert_eq!(got, expected, "bound: {}", case["expr"]);
            }
        }
        assert!(folded_any > 500, "only {folded_any} templates folded");
    }

    /// A random well-formed expression over literals, variables and every operator.
    fn random_expr(rng: &mut Rng, depth: u32) -> String {
        const LEAVES: &[&str] = &[
            "0",
            "7",
            "2.5",
            "1e3",
            "null",
            "true",
            "false",
            "'3'",
            "'2.5'",
            "''",
            "'true'",
            "'a'",
            "x",
            "y",
            "s",
            "n",
            "e",
            "b",
            "9223372036854775807",
        ];
        const OPS: &[&str] = &[
            "+", "-", "*", "/", "%", "<", ">=", "==", "!=", "&&", "||", "eq", "lt",
        ];
        let choice = if depth == 0 { 0 } else { rng.below(6) };
        match choice {
            0 | 1 => LEAVES[rng.below(LEAVES.len() as u64) as usize].to_string(),
            2 => {
                let op = ["-", "!", "empty ", "not "][rng.below(4) as usize];
                format!("{op}({})", random_expr(rng, depth - 1))
            }
            3 => format!(
                "({} ? {} : {})",
                random_expr(rng, depth - 1),
                random_expr(rng, depth - 1),
                random_expr(rng, depth - 1)
            ),
            4 => format!("({})['k']", random_expr(rng, depth - 1)),
            _ => {
                let op = OPS[rng.below(OPS.len() as u64) as usize];
                let (a, b) = (random_expr(rng, depth - 1), random_expr(rng, depth - 1));
                format!("({a} {op} {b})")
            }
        }
    }

    #[test]
    fn folding_changes_no_result_on_random_expressions() {
        let vars: VarMap = [
            ("x", Some("7")),
            ("y", Some("2.5")),
            ("s", Some("abc")),
            ("e", Some("")),
            ("b", Some("true")),
            ("n", None),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.map(str::to_string)))
        .collect();
        let env = Env {
            vars: &vars,
            library: Library::Coordinator,
            context: None,
            processing_zone: ProcessingZone::UTC,
        };
        // (The state as it is, not seeded through `Rng::new`: the
        // expressions this test has always drawn.)
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let (mut ok, mut failed) = (0, 0);
        for _ in 0..20_000 {
            let text = format!("${{{}}}", random_expr(&mut rng, 4));
            let template = parse_template(&text, 0).unwrap();
            let mut plain = String::new();
            let expected = outcome(render_into(&template, &env, &mut plain), plain);
            let mut out = String::new();
            let compiled = Compiled::new(template);
            let got = outcome(compiled.render_into(&env, &mut out), out);
            assert_eq!(got, expected, "{text}");
            let mut out = String::new();
            let bound = compiled.bind(&vars);
            let unbound = Env {
                vars: &NoVariables,
                library: Library::Coordinator,
                context: None,
                processing_zone: ProcessingZone::UTC,
            };
            let got = outcome(bound.render_into(&unbound, &mut out), out);
            assert_eq!(got, expected, "bound: {text}");
            if expected.starts_with("ok") {
                ok += 1
            } else {
                failed += 1
            }
        }
        assert!(ok > 5000 && failed > 2000, "{ok} ok, {failed} failed");
    }

    fn folded(text: &str) -> Compiled {
        Compiled::new(parse_template(text, 0).unwrap())
    }

    #[test]
    fn constant_templates_render_once() {
        let c = folded("a${1 / 3}b${'x'}");
        assert_eq!(
            c.rendered,
            Some(("a0.3333333333333333bx".to_string(), ValueType::String))
        );
        assert_eq!(
            folded("${2 * 3.5}").rendered,
            Some(("7.0".to_string(), ValueType::Double))
        );
    }

    #[test]
    fn a_constant_prefix_folds_and_the_rest_stays() {
        let c = folded("${1 + 2 * 3 + x + 4}");
        assert_eq!(c.rendered, None);
        let Some(Expr {
            kind: ExprKind::Binary(b),
            ..
        }) = c.template.single_expr()
        else {
            panic!("{:?}", c.template)
        };
        assert_eq!(b.first.kind, ExprKind::Long(7));
        assert_eq!(b.first.span, Span::new(2, 11));
        assert_eq!(b.rest.len(), 2, "`+ x + 4` is left: x may be a string");
    }

    #[test]
    fn a_constant_condition_picks_a_literal_branch() {
        assert_eq!(
            folded("${(1 < 2) ? 'a' : y}").rendered,
            Some(("a".to_string(), ValueType::String))
        );
        assert_eq!(folded("${(1 < 2) ? x : 'b'}").rendered, None);
    }

    #[test]
    fn failing_operations_stay_to_fail_at_their_span() {
        let c = folded("${x + 7 % 0}");
        let vars: VarMap = [("x".to_string(), Some("1".to_string()))]
            .into_iter()
            .collect();
        let env = Env {
            vars: &vars,
            library: Library::Coordinator,
            context: None,
            processing_zone: ProcessingZone::UTC,
        };
        let err = c.render_into(&env, &mut String::new()).unwrap_err();
        assert_eq!(err.span, Span::new(8, 9), "the `%`");
        assert!(folded("${1 % 0}").rendered.is_none());
    }
}
