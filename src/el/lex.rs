//! The tokens inside `${...}`, as commons-el 1.0's ELParser.jj defines them; the
//! fast path of parsing (see `parse.rs`). `grammar/el.pest` defines the same tokens
//! and is the reference: `tests/el_grammar.rs` checks the two agree.

use logos::Logos;

/// Longest match wins (as in JavaCC), so `true1`, `div2` and `#a` are names and
/// `1.` and `.5` are floating-point literals; a keyword of the same length as a
/// name is a keyword. Only space, tab, CR and LF are whitespace (commons-el SKIP).
#[derive(Logos, Debug, Clone, Copy, PartialEq, Eq)]
#[logos(skip r"[ \t\n\r]+")]
pub(crate) enum Tok {
    #[token("}")]
    BlockEnd,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token(",")]
    Comma,
    #[token(":")]
    Colon,
    #[token("?")]
    Question,
    #[token(".")]
    Dot,
    #[token("||")]
    #[token("or")]
    Or,
    #[token("&&")]
    #[token("and")]
    And,
    #[token("==")]
    #[token("eq")]
    Eq,
    #[token("!=")]
    #[token("ne")]
    Ne,
    #[token("<")]
    #[token("lt")]
    Lt,
    #[token(">")]
    #[token("gt")]
    Gt,
    #[token("<=")]
    #[token("le")]
    Le,
    #[token(">=")]
    #[token("ge")]
    Ge,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("/")]
    #[token("div")]
    Slash,
    #[token("%")]
    #[token("mod")]
    Percent,
    #[token("!")]
    #[token("not")]
    Not,
    #[token("empty")]
    Empty,
    #[token("true")]
    True,
    #[token("false")]
    False,
    #[token("null")]
    Null,
    #[regex(r"[0-9]+")]
    Integer,
    #[regex(r"[0-9]+\.[0-9]*([eE][+-]?[0-9]+)?|\.[0-9]+([eE][+-]?[0-9]+)?|[0-9]+[eE][+-]?[0-9]+")]
    Float,
    /// Only `\\` and the enclosing quote are escapes.
    #[regex(r#"'([^'\\]|\\['\\])*'|"([^"\\]|\\["\\])*""#)]
    Str,
    /// LETTER (LETTER | DIGIT)*, or `#` then the same (IMPL_OBJ_START); the letter
    /// and digit ranges are commons-el's, not Unicode's.
    #[regex(r"[#$A-Z_a-z\u{c0}-\u{d6}\u{d8}-\u{f6}\u{f8}-\u{ff}\u{100}-\u{1fff}\u{3040}-\u{318f}\u{3300}-\u{337f}\u{3400}-\u{3d2d}\u{4e00}-\u{9fff}\u{f900}-\u{faff}][$A-Z_a-z\u{c0}-\u{d6}\u{d8}-\u{f6}\u{f8}-\u{ff}\u{100}-\u{1fff}\u{3040}-\u{318f}\u{3300}-\u{337f}\u{3400}-\u{3d2d}\u{4e00}-\u{9fff}\u{f900}-\u{faff}0-9\u{660}-\u{669}\u{6f0}-\u{6f9}\u{966}-\u{96f}\u{9e6}-\u{9ef}\u{a66}-\u{a6f}\u{ae6}-\u{aef}\u{b66}-\u{b6f}\u{be7}-\u{bef}\u{c66}-\u{c6f}\u{ce6}-\u{cef}\u{d66}-\u{d6f}\u{e50}-\u{e59}\u{ed0}-\u{ed9}\u{1040}-\u{1049}]*")]
    Ident,
}
