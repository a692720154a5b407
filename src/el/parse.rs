//! Text → EL syntax tree.
//!
//! Accepted text takes the fast path: the logos lexer (`lex.rs`) and a recursive
//! descent parser that mirrors commons-el's productions. Rejected text is parsed
//! again with the pest grammar in `grammar/el.pest`, the reference grammar, whose
//! record of what it tried at the failing column gives the "expected ..." message.
//! `tests/el_grammar.rs` checks that both accept exactly the same texts.
//!
//! Nesting is bounded while parsing, so hostile input (1 MB of `(((`, 10^5 nested
//! calls) gets a diagnostic instead of exhausting the stack.

use super::ast::{
    Access, Binary, BinaryOp, Call, Conditional, Expr, ExprKind, Part, Suffix, Template, Unary,
    UnaryOp,
};
use super::lex::Tok;
use crate::diag::Diagnostic;
use crate::diag::rules::{EL_LIMIT, EL_SYNTAX};
use crate::span::Span;
use logos::Logos;
use pest::Parser as _;
use smallvec::SmallVec;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/el.pest"]
pub(crate) struct ElGrammar;

/// Longest text value we parse. Oozie itself caps a whole workflow definition at
/// 100,000 bytes (`oozie.service.WorkflowAppService.WorkflowDefinitionMaxLength`).
pub(crate) const MAX_TEXT_LEN: usize = 512 * 1024;

/// Deepest nesting of `(`, `[`, call arguments and `?:` we accept. Real apps stay
/// below 10; the bound keeps recursion in the parser and evaluator shallow.
pub(crate) const MAX_NESTING: usize = 32;

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
    if let Some(plain) = plain_template(text, base) {
        return Ok(plain);
    }
    // The token buffer is reused across calls: a text value is parsed in well under
    // a microsecond, and a fresh buffer would be a good part of that.
    thread_local!(static TOKENS: std::cell::RefCell<Vec<Token>> = const { std::cell::RefCell::new(Vec::new()) });
    TOKENS.with_borrow_mut(|tokens| parse_blocks(text, base, tokens))
}

/// `text` as one text part, when it holds no `${` (most values): nothing to
/// lex or to keep.
fn plain_template(text: &str, base: usize) -> Option<Template> {
    if find_block(text.as_bytes(), 0).is_some() {
        return None;
    }
    Some(literal_template(text, base))
}

/// `text` taken as it is written, its `${` unread: one text part (none when
/// empty) at `base`. What a text without blocks parses to, and what stands
/// for a value whose EL does not parse.
pub(crate) fn literal_template(text: &str, base: usize) -> Template {
    let parts = if text.is_empty() {
        Vec::new()
    } else {
        vec![text_part(text, base, 0, text.len())]
    };
    Template {
        parts,
        span: Span::new(base, base + text.len()),
    }
}

fn parse_blocks(text: &str, base: usize, tokens: &mut Vec<Token>) -> Result<Template, Diagnostic> {
    let mut parts = Vec::with_capacity(1);
    let mut pos = 0;
    let mut calls = 0;
    while pos < text.len() {
        let Some(open) = find_block(text.as_bytes(), pos) else {
            parts.push(text_part(text, base, pos, text.len()));
            break;
        };
        if open > pos {
            parts.push(text_part(text, base, pos, open));
        }
        lex_block(text, open + 2, tokens);
        let mut parser = Parser {
            text,
            base,
            tokens,
            next: 0,
            depth: 0,
            calls,
        };
        // Parsed in place, in the part it belongs to.
        parts.push(Part::Block {
            expr: Expr::PLACEHOLDER,
            span: Span::EMPTY,
        });
        let Some(Part::Block { expr, span }) = parts.last_mut() else {
            unreachable!("a block was just pushed")
        };
        parser.block(expr).map_err(|fail| match fail {
            Fail::Diagnostic(d) => d,
            Fail::Syntax(at) => syntax_diagnostic(text, base, at),
        })?;
        pos = parser.token(parser.next - 1).range().end;
        calls = parser.calls;
        *span = Span::new(base + open, base + pos);
    }
    Ok(Template {
        parts,
        span: Span::new(base, base + text.len()),
    })
}

/// Where the next `${` at or after `from` starts.
pub(crate) fn find_block(bytes: &[u8], from: usize) -> Option<usize> {
    let mut at = from;
    while let Some(k) = bytes
        .get(at..)
        .and_then(|rest| rest.iter().position(|&b| b == b'$'))
    {
        at += k + 1;
        if bytes.get(at) == Some(&b'{') {
            return Some(at - 1);
        }
    }
    None
}

fn text_part(text: &str, base: usize, start: usize, end: usize) -> Part {
    Part::Text {
        text: text[start..end].into(),
        span: Span::new(base + start, base + end),
    }
}

#[derive(Debug, Clone, Copy)]
struct Token {
    /// `None`: a character no token starts with, or the end of the text.
    tok: Option<Tok>,
    // u32 (texts are at most MAX_TEXT_LEN long): a token is 12 bytes, not 24.
    start: u32,
    end: u32,
}

impl Token {
    fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// Lexes one block, from after its `${` up to and including its `}` (which appears
/// nowhere else in the grammar), or up to the first bad character or the end.
fn lex_block(text: &str, from: usize, tokens: &mut Vec<Token>) {
    tokens.clear();
    let mut lexer = Tok::lexer(&text[from..]);
    while let Some(next) = lexer.next() {
        let span = lexer.span();
        let tok = next.ok();
        tokens.push(Token {
            tok,
            start: (from + span.start) as u32,
            end: (from + span.end) as u32,
        });
        if tok.is_none() || tok == Some(Tok::BlockEnd) {
            return;
        }
    }
    tokens.push(Token {
        tok: None,
        start: text.len() as u32,
        end: text.len() as u32,
    });
}

enum Fail {
    /// The text does not match the grammar; the byte where the fast path stopped.
    Syntax(usize),
    /// A grammatical text that commons-el still rejects, or a limit.
    Diagnostic(Diagnostic),
}

struct Parser<'t> {
    text: &'t str,
    base: usize,
    tokens: &'t [Token],
    next: usize,
    depth: usize,
    /// The calls parsed so far in the text, in every block: the next one's
    /// [`Call::index`].
    calls: u32,
}

impl Parser<'_> {
    /// Token `index`. The parser stops at the block's last token (its `}`, a
    /// bad character or the end of the text), so it never looks past it; a
    /// token past it would read as the end of the text.
    fn token(&self, index: usize) -> Token {
        self.tokens.get(index).copied().unwrap_or(Token {
            tok: None,
            start: self.text.len() as u32,
            end: self.text.len() as u32,
        })
    }

    fn peek(&self) -> Option<Tok> {
        self.token(self.next).tok
    }

    fn peek_at(&self, ahead: usize) -> Option<Tok> {
        self.tokens.get(self.next + ahead).and_then(|t| t.tok)
    }

    fn token_span(&self, index: usize) -> Span {
        let range = self.token(index).range();
        Span::new(self.base + range.start, self.base + range.end)
    }

    /// Start of the next token, where the rule about to be parsed begins.
    fn start(&self) -> usize {
        self.base + self.token(self.next).range().start
    }

    /// The span from `start` to the end of the last token taken.
    fn since(&self, start: usize) -> Span {
        Span::new(start, self.base + self.token(self.next - 1).range().end)
    }

    fn expect(&mut self, tok: Tok) -> Result<(), Fail> {
        if self.peek() != Some(tok) {
            return Err(self.unexpected());
        }
        self.next += 1;
        Ok(())
    }

    fn unexpected(&self) -> Fail {
        Fail::Syntax(self.token(self.next).range().start)
    }

    fn text_of(&self, index: usize) -> &str {
        self.text.get(self.token(index).range()).unwrap_or("")
    }

    /// `expression "}"`.
    fn block(&mut self, out: &mut Expr) -> Result<(), Fail> {
        self.expression(out)?;
        self.expect(Tok::BlockEnd)
    }

    /// An expression one level deeper than the current one, opened by the token
    /// just taken (`(`, `[`, or `?`).
    fn nested<T>(&mut self, parse: impl FnOnce(&mut Self) -> Result<T, Fail>) -> Result<T, Fail> {
        if self.depth == MAX_NESTING {
            return Err(Fail::Diagnostic(
                Diagnostic::error(
                    EL_LIMIT,
                    self.token_span(self.next - 1),
                    format!("expression nested more than {MAX_NESTING} levels deep"),
                )
                .with_help("split the expression, or define intermediate values as job properties"),
            ));
        }
        self.depth += 1;
        let result = parse(self);
        self.depth -= 1;
        result
    }

    // Each rule parses into `out`, the place its node ends up in (a parent's
    // field, a list slot): returned by value, a node was copied at every level,
    // and each copy of one just written stalled store forwarding.

    /// Expression := OrExpression ("?" Expression ":" Expression)?
    fn expression(&mut self, out: &mut Expr) -> Result<(), Fail> {
        let start = self.start();
        self.binary(0, out)?;
        if self.peek() != Some(Tok::Question) {
            return Ok(());
        }
        self.next += 1;
        let mut node = Box::new(Conditional {
            cond: std::mem::replace(out, Expr::PLACEHOLDER),
            then: Expr::PLACEHOLDER,
            otherwise: Expr::PLACEHOLDER,
        });
        self.nested(|p| {
            p.expression(&mut node.then)?;
            p.expect(Tok::Colon)?;
            p.expression(&mut node.otherwise)
        })?;
        *out = Expr {
            kind: ExprKind::Conditional(node),
            span: self.since(start),
        };
        Ok(())
    }

    /// The operators of `level` and above (0: `||`, the lowest; then `&&`, equality,
    /// relational, additive, multiplicative), each level's operators one flat list
    /// as in commons-el's BinaryOperatorExpression: `a + b * c - d` is the list
    /// `a + (b * c) - d`. A level is entered only when its operator appears, so a
    /// lone operand costs no recursion through the levels.
    fn binary(&mut self, level: u8, out: &mut Expr) -> Result<(), Fail> {
        let start = self.start();
        self.unary(out)?;
        let mut next_op = self.peek().and_then(binary_op);
        while let Some(first_op) = next_op
            && first_op.level() >= level
        {
            let op_level = first_op.level();
            let mut node = Box::new(Binary {
                first: std::mem::replace(out, Expr::PLACEHOLDER),
                rest: SmallVec::new(),
            });
            while let Some(op) = next_op
                && op.level() == op_level
            {
                let op_span = self.token_span(self.next);
                self.next += 1;
                let mut operand = Expr::PLACEHOLDER;
                self.binary(op_level + 1, &mut operand)?;
                node.rest.push((op, op_span, operand));
                next_op = self.peek().and_then(binary_op);
            }
            // What stopped the list is an operator of a lower level, or none.
            *out = Expr {
                kind: ExprKind::Binary(node),
                span: self.since(start),
            };
        }
        Ok(())
    }

    /// UnaryExpression: any number of `! not - empty`, then a value.
    #[inline(always)]
    fn unary(&mut self, out: &mut Expr) -> Result<(), Fail> {
        let start = self.start();
        let mut ops = SmallVec::new();
        loop {
            let op = match self.peek() {
                Some(Tok::Not) => UnaryOp::Not,
                Some(Tok::Minus) => UnaryOp::Minus,
                Some(Tok::Empty) => UnaryOp::Empty,
                _ => break,
            };
            ops.push((op, self.token_span(self.next)));
            self.next += 1;
        }
        if ops.is_empty() {
            return self.value(out);
        }
        let mut node = Box::new(Unary {
            ops,
            operand: Expr::PLACEHOLDER,
        });
        self.value(&mut node.operand)?;
        *out = Expr {
            kind: ExprKind::Unary(node),
            span: self.since(start),
        };
        Ok(())
    }

    /// Value: a prefix, then `.name` and `[expr]` suffixes.
    #[inline(always)]
    fn value(&mut self, out: &mut Expr) -> Result<(), Fail> {
        let start = self.start();
        self.prefix(out)?;
        if !matches!(self.peek(), Some(Tok::Dot | Tok::LBracket)) {
            return Ok(());
        }
        let mut node = Box::new(Access {
            base: std::mem::replace(out, Expr::PLACEHOLDER),
            suffixes: Vec::new(),
        });
        loop {
            let suffix_start = self.start();
            match self.peek() {
                Some(Tok::Dot) => {
                    self.next += 1;
                    self.expect(Tok::Ident)?;
                    node.suffixes.push(Suffix::Property {
                        name: self.text_of(self.next - 1).into(),
                        span: self.since(suffix_start),
                    });
                }
                Some(Tok::LBracket) => {
                    self.next += 1;
                    let mut index = Expr::PLACEHOLDER;
                    self.nested(|p| {
                        p.expression(&mut index)?;
                        p.expect(Tok::RBracket)
                    })?;
                    node.suffixes.push(Suffix::Index {
                        index,
                        span: self.since(suffix_start),
                    });
                }
                _ => break,
            }
        }
        *out = Expr {
            kind: ExprKind::Access(node),
            span: self.since(start),
        };
        Ok(())
    }

    #[inline(always)]
    fn prefix(&mut self, out: &mut Expr) -> Result<(), Fail> {
        let index = self.next;
        let span = self.token_span(index);
        let kind = match self.peek() {
            Some(Tok::Integer) => match self.text_of(index).parse::<i64>() {
                Ok(v) => ExprKind::Long(v),
                // commons-el builds the Long when it parses (IntegerLiteral), so an
                // out-of-range literal fails the whole text, evaluated or not.
                Err(_) => return Err(Fail::Diagnostic(Diagnostic::error(
                    EL_SYNTAX,
                    span,
                    format!("integer literal {} does not fit in a 64-bit long", self.text_of(index)),
                )
                .with_help("the largest integer is 9223372036854775807; write a floating-point literal (e.g. `1e20`) for bigger numbers"))),
            },
            // Rust and Java both round decimal literals correctly, so they agree.
            // (The lexer admits only valid floats.)
            Some(Tok::Float) => ExprKind::Double(
                self.text_of(index)
                    .parse::<f64>()
                    .map_err(|_| self.unexpected())?,
            ),
            Some(Tok::Str) => ExprKind::Str(unescape(self.text_of(index)).into()),
            Some(Tok::True) => ExprKind::Bool(true),
            Some(Tok::False) => ExprKind::Bool(false),
            Some(Tok::Null) => ExprKind::Null,
            Some(Tok::LParen) => {
                self.next += 1;
                return self.nested(|p| {
                    p.expression(out)?;
                    p.expect(Tok::RParen)
                });
            }
            // A name followed by `(`, or `ns:name(`, is a function call (the
            // LOOKAHEAD of commons-el's FunctionInvocation); `a ? b:c` is not.
            Some(Tok::Ident) => match (self.peek_at(1), self.peek_at(2), self.peek_at(3)) {
                (Some(Tok::LParen), ..) => return self.call(false, out),
                (Some(Tok::Colon), Some(Tok::Ident), Some(Tok::LParen)) => {
                    return self.call(true, out);
                }
                _ => ExprKind::Var(self.text_of(index).into()),
            },
            _ => return Err(self.unexpected()),
        };
        self.next += 1;
        *out = Expr { kind, span };
        Ok(())
    }

    /// FunctionInvocation := (ns ":")? name "(" (Expression ("," Expression)*)? ")"
    fn call(&mut self, namespaced: bool, out: &mut Expr) -> Result<(), Fail> {
        let start = self.start();
        let namespace = namespaced.then(|| {
            self.next += 2;
            self.text_of(self.next - 2).into()
        });
        let name = self.text_of(self.next).into();
        let name_span = Span::new(start, self.base + self.token(self.next).range().end);
        self.next += 2;
        let mut node = Box::new(Call {
            namespace,
            name,
            name_span,
            args: SmallVec::new(),
            index: self.calls,
        });
        self.calls += 1;
        self.nested(|p| {
            if p.peek() == Some(Tok::RParen) {
                p.next += 1;
                return Ok(());
            }
            loop {
                let mut arg = Expr::PLACEHOLDER;
                p.expression(&mut arg)?;
                node.args.push(arg);
                match p.peek() {
                    Some(Tok::Comma) => p.next += 1,
                    Some(Tok::RParen) => {
                        p.next += 1;
                        return Ok(());
                    }
                    _ => return Err(p.unexpected()),
                }
            }
        })?;
        *out = Expr {
            kind: ExprKind::Call(node),
            span: self.since(start),
        };
        Ok(())
    }
}

/// The binary operator `tok` stands for, with its precedence level (0: `||`, the
/// lowest; 5: `*` `/` `%`, the highest).
fn binary_op(tok: Tok) -> Option<BinaryOp> {
    Some(match tok {
        Tok::Or => BinaryOp::Or,
        Tok::And => BinaryOp::And,
        Tok::Eq => BinaryOp::Eq,
        Tok::Ne => BinaryOp::Ne,
        Tok::Lt => BinaryOp::Lt,
        Tok::Gt => BinaryOp::Gt,
        Tok::Le => BinaryOp::Le,
        Tok::Ge => BinaryOp::Ge,
        Tok::Plus => BinaryOp::Add,
        Tok::Minus => BinaryOp::Sub,
        Tok::Star => BinaryOp::Mul,
        Tok::Slash => BinaryOp::Div,
        Tok::Percent => BinaryOp::Mod,
        _ => return None,
    })
}

/// Strips the quotes and resolves `\\`, `\'`, `\"` (the only escapes, per
/// commons-el StringLiteral; the lexer has already rejected any other).
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

/// The diagnostic for a text the fast path rejected at byte `at`: the reference
/// grammar says what it expected there.
fn syntax_diagnostic(text: &str, base: usize, at: usize) -> Diagnostic {
    // pest recurses through many frames per nesting level (hundreds of KB per level
    // in a debug build); the fast path has bounded the nesting before `at`, so this
    // much stack is enough on any thread.
    let per_level = if cfg!(debug_assertions) {
        512 * 1024
    } else {
        64 * 1024
    };
    let needed = (MAX_NESTING + 2) * per_level;
    match stacker::maybe_grow(needed, needed + (1 << 20), || {
        ElGrammar::parse(Rule::template, text).map(|_| ())
    }) {
        Err(e) => syntax_error(text, base, e),
        Ok(()) => Diagnostic::error(
            EL_SYNTAX,
            Span::new(base + at, base + at),
            format!(
                "coordc's parser stopped here, but its reference grammar accepts this text: {}",
                "this is a coordc bug, please report it with this text"
            ),
        ),
    }
}

/// Whether the reference grammar (`grammar/el.pest`) accepts `text`; for the tests
/// that keep the fast path in step with it.
pub fn reference_grammar_accepts(text: &str) -> bool {
    ElGrammar::parse(Rule::template, text).is_ok()
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
    if let Some(quote @ ('\'' | '"')) = rest.chars().next() {
        return string_error(rest, quote, base + pos);
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

/// The error in the string literal at the start of `rest`, which opens with `quote`.
fn string_error(rest: &str, quote: char, at: usize) -> Diagnostic {
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

    #[test]
    fn a_text_without_blocks_is_its_own_rendering() {
        // What `plain_text` lends must be what rendering would write.
        let env = crate::el::Env {
            vars: &crate::el::NoVariables,
            library: crate::el::library::Library::Coordinator,
            context: None,
            processing_zone: crate::time::datetime::ProcessingZone::UTC,
        };
        for text in ["", "UTC", " hdfs://nn/a b ", "$ {x}", "a$b"] {
            let template = parse_template(text, 0).unwrap();
            let rendered = crate::el::render(&template, &env).unwrap().0;
            assert_eq!(template.plain_text(), Some(rendered.as_str()), "{text:?}");
        }
        for text in ["${1}", "a${x}", "${coord:current(0)}/b"] {
            assert_eq!(parse_template(text, 0).unwrap().plain_text(), None);
        }
    }
}
