//! Text → EL syntax tree, with the pest grammar in `grammar/el.pest`.
//!
//! Input size and nesting are bounded before pest runs, so hostile input (1 MB of
//! `(((`, 10^5 nested calls) gets a diagnostic instead of exhausting the stack.

use super::ast::{BinaryOp, Call, Expr, ExprKind, Part, Suffix, Template, UnaryOp};
use crate::check::rules::{EL_LIMIT, EL_SYNTAX};
use crate::diag::Diagnostic;
use crate::span::Span;
use pest::Parser;
use pest::iterators::Pair;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/el.pest"]
struct ElParser;

/// Longest text value we parse. Oozie itself caps a whole workflow definition at
/// 100,000 bytes (`oozie.service.WorkflowAppService.WorkflowDefinitionMaxLength`).
pub const MAX_TEXT_LEN: usize = 512 * 1024;

/// Deepest nesting of `(`, `[`, call arguments and `?:` we accept. Real apps stay
/// below 10; the bound keeps recursion in the parser and evaluator shallow.
pub const MAX_NESTING: usize = 32;

/// Parses a text value. `base` is the byte offset of `text` in the original file,
/// added to every span so diagnostics point into that file.
pub fn parse_template(text: &str, base: usize) -> Result<Template, Diagnostic> {
    if text.len() > MAX_TEXT_LEN {
        return Err(Diagnostic::error(
            EL_LIMIT,
            Span::new(base, base + text.len()),
            format!(
                "text value is {} bytes long; coordc reads at most {MAX_TEXT_LEN} bytes in one value",
                text.len()
            ),
        )
        .with_help("no Oozie application holds a value this long: Oozie rejects workflow definitions over 100,000 bytes"));
    }
    let depth = check_nesting(text, base)?;
    // pest recurses through many frames per nesting level (hundreds of KB per level
    // in a debug build), so make sure the stack can take this text's depth on any
    // thread; a fresh segment is allocated only when the current one is short.
    let per_level = if cfg!(debug_assertions) {
        512 * 1024
    } else {
        64 * 1024
    };
    let needed = (depth + 2) * per_level;
    stacker::maybe_grow(needed, needed + (1 << 20), || parse_unchecked(text, base))
}

fn parse_unchecked(text: &str, base: usize) -> Result<Template, Diagnostic> {
    let mut pairs =
        ElParser::parse(Rule::template, text).map_err(|e| syntax_error(text, base, e))?;
    let template = pairs.next().expect("template rule always yields one pair");
    let mut parts = Vec::new();
    for pair in template.into_inner() {
        match pair.as_rule() {
            Rule::text => parts.push(Part::Text {
                text: pair.as_str().to_string(),
                span: span_of(&pair, base),
            }),
            Rule::block => {
                let span = span_of(&pair, base);
                let inner = pair.into_inner().next().expect("block holds an expression");
                parts.push(Part::Block {
                    expr: build(inner, base)?,
                    span,
                });
            }
            Rule::EOI => {}
            r => unreachable!("unexpected rule {r:?} in template"),
        }
    }
    Ok(Template {
        parts,
        span: Span::new(base, base + text.len()),
    })
}

fn span_of(pair: &Pair<Rule>, base: usize) -> Span {
    let s = pair.as_span();
    Span::new(base + s.start(), base + s.end())
}

/// The span of an expression rule, without the trailing whitespace pest's
/// implicit whitespace leaves inside a repetition.
fn expr_span(pair: &Pair<Rule>, base: usize) -> Span {
    let start = base + pair.as_span().start();
    let text = pair.as_str().trim_end_matches([' ', '\t', '\n', '\r']);
    Span::new(start, start + text.len())
}

fn build(pair: Pair<Rule>, base: usize) -> Result<Expr, Diagnostic> {
    let span = expr_span(&pair, base);
    let rule = pair.as_rule();
    match rule {
        Rule::expression => {
            let mut inner = pair.into_inner();
            let cond = build(inner.next().expect("condition"), base)?;
            if inner.next().is_none() {
                return Ok(cond);
            }
            let then = build(inner.next().expect("then branch"), base)?;
            inner.next(); // the colon
            let otherwise = build(inner.next().expect("else branch"), base)?;
            Ok(Expr {
                kind: ExprKind::Conditional {
                    cond: Box::new(cond),
                    then: Box::new(then),
                    otherwise: Box::new(otherwise),
                },
                span,
            })
        }
        Rule::or_expr | Rule::and_expr | Rule::eq_expr | Rule::rel_expr | Rule::add_expr | Rule::mul_expr => {
            let mut inner = pair.into_inner();
            let first = build(inner.next().expect("first operand"), base)?;
            let mut rest = Vec::new();
            while let Some(op) = inner.next() {
                let op_span = expr_span(&op, base);
                let op = binary_op(op.as_str());
                let operand = build(inner.next().expect("operand after operator"), base)?;
                rest.push((op, op_span, operand));
            }
            if rest.is_empty() {
                return Ok(first);
            }
            Ok(Expr {
                kind: ExprKind::Binary {
                    first: Box::new(first),
                    rest,
                },
                span,
            })
        }
        Rule::unary_expr => {
            let mut ops = Vec::new();
            let mut operand = None;
            for p in pair.into_inner() {
                if p.as_rule() == Rule::unary_op {
                    let op = match p.as_str() {
                        "-" => UnaryOp::Minus,
                        "empty" => UnaryOp::Empty,
                        _ => UnaryOp::Not,
                    };
                    ops.push((op, expr_span(&p, base)));
                } else {
                    operand = Some(build(p, base)?);
                }
            }
            let operand = operand.expect("unary expression has an operand");
            if ops.is_empty() {
                return Ok(operand);
            }
            Ok(Expr {
                kind: ExprKind::Unary {
                    ops,
                    operand: Box::new(operand),
                },
                span,
            })
        }
        Rule::value => {
            let mut inner = pair.into_inner();
            let base_expr = build(inner.next().expect("value prefix"), base)?;
            let mut suffixes = Vec::new();
            for s in inner {
                let s_span = expr_span(&s, base);
                match s.as_rule() {
                    Rule::property => {
                        let name = s.into_inner().next().expect("property name").as_str().to_string();
                        suffixes.push(Suffix::Property { name, span: s_span });
                    }
                    _ => {
                        let index = build(s.into_inner().next().expect("index expression"), base)?;
                        suffixes.push(Suffix::Index { index, span: s_span });
                    }
                }
            }
            if suffixes.is_empty() {
                return Ok(base_expr);
            }
            Ok(Expr {
                kind: ExprKind::Access {
                    base: Box::new(base_expr),
                    suffixes,
                },
                span,
            })
        }
        Rule::paren => build(pair.into_inner().next().expect("parenthesised expression"), base),
        Rule::call => {
            let mut namespace = None;
            let mut name = None;
            let mut name_end = span.start;
            let mut args = Vec::new();
            for p in pair.into_inner() {
                match p.as_rule() {
                    Rule::namespace => namespace = Some(p.as_str().to_string()),
                    Rule::identifier if name.is_none() => {
                        name_end = expr_span(&p, base).end;
                        name = Some(p.as_str().to_string());
                    }
                    Rule::comma | Rule::paren_end => {}
                    _ => args.push(build(p, base)?),
                }
            }
            Ok(Expr {
                kind: ExprKind::Call(Box::new(Call {
                    namespace,
                    name: name.expect("call has a name"),
                    name_span: Span {
                        start: span.start,
                        end: name_end,
                    },
                    args,
                })),
                span,
            })
        }
        Rule::identifier => Ok(Expr {
            kind: ExprKind::Var(pair.as_str().to_string()),
            span,
        }),
        Rule::integer_literal => match pair.as_str().parse::<i64>() {
            Ok(v) => Ok(Expr {
                kind: ExprKind::Long(v),
                span,
            }),
            // commons-el builds the Long when it parses (IntegerLiteral), so an
            // out-of-range literal fails the whole text, evaluated or not.
            Err(_) => Err(Diagnostic::error(
                EL_SYNTAX,
                span,
                format!("integer literal {} does not fit in a 64-bit long", pair.as_str()),
            )
            .with_help("the largest integer is 9223372036854775807; write a floating-point literal (e.g. `1e20`) for bigger numbers")),
        },
        Rule::float_literal => Ok(Expr {
            // Rust and Java both round decimal literals correctly, so they agree.
            kind: ExprKind::Double(pair.as_str().parse::<f64>().expect("grammar admits only valid floats")),
            span,
        }),
        Rule::string_literal => Ok(Expr {
            kind: ExprKind::Str(unescape(pair.as_str())),
            span,
        }),
        Rule::true_literal => Ok(Expr {
            kind: ExprKind::Bool(true),
            span,
        }),
        Rule::false_literal => Ok(Expr {
            kind: ExprKind::Bool(false),
            span,
        }),
        Rule::null_literal => Ok(Expr {
            kind: ExprKind::Null,
            span,
        }),
        r => unreachable!("unexpected rule {r:?} in expression"),
    }
}

fn binary_op(token: &str) -> BinaryOp {
    match token {
        "||" | "or" => BinaryOp::Or,
        "&&" | "and" => BinaryOp::And,
        "==" | "eq" => BinaryOp::Eq,
        "!=" | "ne" => BinaryOp::Ne,
        "<" | "lt" => BinaryOp::Lt,
        ">" | "gt" => BinaryOp::Gt,
        "<=" | "le" => BinaryOp::Le,
        ">=" | "ge" => BinaryOp::Ge,
        "+" => BinaryOp::Add,
        "-" => BinaryOp::Sub,
        "*" => BinaryOp::Mul,
        "/" | "div" => BinaryOp::Div,
        "%" | "mod" => BinaryOp::Mod,
        t => unreachable!("unknown operator {t}"),
    }
}

/// Strips the quotes and resolves `\\`, `\'`, `\"` (the only escapes, per
/// commons-el StringLiteral; the grammar has already rejected any other).
fn unescape(token: &str) -> String {
    let body = &token[1..token.len() - 1];
    if !body.contains('\\') {
        return body.to_string();
    }
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(next) = chars.next() {
                out.push(next);
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Rejects nesting deeper than [`MAX_NESTING`] before the recursive parser sees it;
/// returns the deepest nesting found.
fn check_nesting(text: &str, base: usize) -> Result<usize, Diagnostic> {
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut deepest = 0;
    while i < bytes.len() {
        if !(bytes[i] == b'$' && bytes.get(i + 1) == Some(&b'{')) {
            i += 1;
            continue;
        }
        // Inside a block: each open bracket is a level, and so is each `?`
        // within the current bracket level (the else branch nests).
        let mut levels: Vec<usize> = vec![0];
        let mut depth = 0usize;
        i += 2;
        deepest = deepest.max(1);
        while i < bytes.len() {
            match bytes[i] {
                q @ (b'\'' | b'"') => {
                    i += 1;
                    while i < bytes.len() && bytes[i] != q {
                        i += if bytes[i] == b'\\' { 2 } else { 1 };
                    }
                }
                b'(' | b'[' => {
                    levels.push(0);
                    depth += 1;
                }
                b'?' => {
                    *levels.last_mut().expect("levels never empty") += 1;
                    depth += 1;
                }
                b')' | b']' if levels.len() > 1 => {
                    depth -= 1 + levels.pop().expect("checked len");
                }
                b'}' => break,
                _ => {}
            }
            deepest = deepest.max(depth);
            if depth > MAX_NESTING {
                return Err(Diagnostic::error(
                    EL_LIMIT,
                    Span::new(base + i, base + i + 1),
                    format!("expression nested more than {MAX_NESTING} levels deep"),
                )
                .with_help(
                    "split the expression, or define intermediate values as job properties",
                ));
            }
            i += 1;
        }
    }
    Ok(deepest)
}

fn syntax_error(text: &str, base: usize, err: pest::error::Error<Rule>) -> Diagnostic {
    let pos = match err.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let rest = &text[pos..];
    let found = describe_found(rest);
    let span_end = pos + rest.chars().next().map_or(0, char::len_utf8);
    let span = Span::new(base + pos, base + span_end);

    // A few mistakes deserve a precise message rather than a list of tokens.
    if rest.starts_with('\'') || rest.starts_with('"') {
        return string_error(rest, base + pos);
    }
    let expected = match &err.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => expected_list(positives),
        pest::error::ErrorVariant::CustomError { message } => message.clone(),
    };
    let mut diag = Diagnostic::error(
        EL_SYNTAX,
        span,
        format!("unexpected {found}; expected {expected}"),
    );
    if rest.starts_with('+') && expected.starts_with("an operand") {
        diag = diag.with_help("EL has no unary `+`: remove it");
    } else if rest.is_empty() {
        if let Some(open) = text[..pos].rfind("${") {
            diag = diag
                .with_label(
                    Span::new(base + open, base + open + 2),
                    "expression opened here",
                )
                .with_help("close the expression with `}`");
        }
    } else if rest.starts_with('=') && !rest.starts_with("==") {
        diag = diag.with_help("to compare, write `==` (or `eq`); EL has no assignment");
    }
    diag
}

fn describe_found(rest: &str) -> String {
    match rest.chars().next() {
        None => "end of text".to_string(),
        Some(c) if c.is_alphanumeric() || c == '_' || c == '$' => {
            let word: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
                .collect();
            format!("`{word}`")
        }
        Some(c) if c.is_whitespace() || c.is_control() => format!("character U+{:04X}", c as u32),
        Some(c) => format!("`{c}`"),
    }
}

fn string_error(rest: &str, at: usize) -> Diagnostic {
    let quote = rest.chars().next().expect("starts with a quote");
    let mut chars = rest.char_indices().skip(1);
    while let Some((i, c)) = chars.next() {
        if c == quote {
            break;
        }
        if c == '\\' {
            match chars.next() {
                Some((_, e)) if e == '\\' || e == quote => {}
                Some((j, e)) => {
                    return Diagnostic::error(
                        EL_SYNTAX,
                        Span::new(at + i, at + j + e.len_utf8()),
                        format!("invalid escape `\\{e}` in a {quote}-quoted string"),
                    )
                    .with_help(format!(
                        "in EL string literals only `\\\\` and `\\{quote}` are escapes; write `\\\\{e}` for a backslash followed by `{e}`"
                    ));
                }
                None => break,
            }
        }
    }
    Diagnostic::error(
        EL_SYNTAX,
        Span::new(at, at + 1),
        "string literal is never closed",
    )
    .with_help(format!("end the string with a matching `{quote}`"))
}

fn expected_list(rules: &[Rule]) -> String {
    let operand = |r: &Rule| {
        matches!(
            r,
            Rule::expression
                | Rule::or_expr
                | Rule::and_expr
                | Rule::eq_expr
                | Rule::rel_expr
                | Rule::add_expr
                | Rule::mul_expr
                | Rule::unary_expr
                | Rule::value
                | Rule::integer_literal
                | Rule::float_literal
                | Rule::unary_op
        )
    };
    if rules.iter().any(operand) {
        return "an operand (a number, a string, true, false, null, a name, a function call, `(`, or one of `-` `!` `not` `empty`)"
            .to_string();
    }
    let mut names: Vec<&str> = Vec::new();
    let mut operator = false;
    for r in rules {
        let name = match r {
            Rule::block_end => "`}`",
            Rule::paren_end => "`)`",
            Rule::index_end => "`]`",
            Rule::comma => "`,`",
            Rule::colon => "`:`",
            Rule::identifier => "a name",
            Rule::EOI => "end of text",
            _ => {
                operator = true;
                continue;
            }
        };
        if !names.contains(&name) {
            names.push(name);
        }
    }
    if operator {
        names.push("an operator");
    }
    match names.as_slice() {
        [] => "`}`".to_string(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ast(text: &str) -> Template {
        parse_template(text, 0).unwrap_or_else(|d| panic!("{text}: {}", d.message))
    }

    #[test]
    fn ast_snapshots() {
        // Precedence (JSP.2.3): ?: < || < && < ==  < relational < + - < * / % < unary.
        insta::assert_debug_snapshot!(
            "precedence",
            ast("${a || b && c == 1 + 2 * -d < 3 ? x : y}")
        );
        insta::assert_debug_snapshot!(
            "dataset_range",
            ast("${coord:current(-(coord:hoursInDay(0) - 1))}")
        );
        insta::assert_debug_snapshot!("mixed_text", ast("hdfs://bar/${market}/${YEAR}"));
        insta::assert_debug_snapshot!(
            "counters",
            ast("${hadoop:counters('x')[RECORDS][REDUCE_OUT]}")
        );
        insta::assert_debug_snapshot!("literals", ast("${1.5e3 ne 'it\\'s' and not empty null}"));
    }

    #[test]
    fn spans_are_offset_into_the_file() {
        let t = parse_template("${x + 1}", 100).unwrap();
        let e = t.single_expr().unwrap();
        assert_eq!(e.span, Span::new(102, 107));
        let err = parse_template("${1 +}", 40).unwrap_err();
        assert_eq!(err.span, Span::new(45, 46));
    }

    #[test]
    fn keywords_need_a_word_boundary() {
        assert!(matches!(
            ast("${true1}").single_expr().unwrap().kind,
            ExprKind::Var(_)
        ));
        assert!(matches!(
            ast("${div2}").single_expr().unwrap().kind,
            ExprKind::Var(_)
        ));
        assert!(parse_template("${3gt2}", 0).is_err());
        assert!(parse_template("${10 div2}", 0).is_err());
        // `#` starts an identifier in commons-el 1.0 (IMPL_OBJ_START).
        assert!(matches!(
            ast("${#a}").single_expr().unwrap().kind,
            ExprKind::Var(_)
        ));
    }

    #[test]
    fn nesting_limit_counts_brackets_and_conditionals() {
        let ok = format!(
            "${{{}1{}}}",
            "(".repeat(MAX_NESTING),
            ")".repeat(MAX_NESTING)
        );
        assert!(parse_template(&ok, 0).is_ok());
        let deep = format!(
            "${{{}1{}}}",
            "(".repeat(MAX_NESTING + 1),
            ")".repeat(MAX_NESTING + 1)
        );
        assert_eq!(parse_template(&deep, 0).unwrap_err().code, EL_LIMIT);
        // Brackets inside string literals do not count.
        let quoted = format!("${{'{}'}}", "(".repeat(1000));
        assert!(parse_template(&quoted, 0).is_ok());
    }
}
