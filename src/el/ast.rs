//! The typed EL syntax tree. Every node carries its [`Span`] in the original file.
//!
//! The shape follows commons-el 1.0's own tree, because its evaluation order is part
//! of the semantics: a binary level is one flat list evaluated left to right
//! (`BinaryOperatorExpression`), unary operators are a list applied innermost first
//! (`UnaryOperatorExpression`), and `.name`/`[expr]` suffixes hang off one value
//! (`ComplexValue`).

use crate::span::Span;
use compact_str::CompactString;
use smallvec::SmallVec;

/// A text value: literal text mixed with `${...}` blocks. Only what was
/// written: what the checks and the library find in it is kept beside the
/// tree, in the parse cache's entry for its text (`el::shared::Shared`),
/// and for a compiled value in [`super::Compiled`].
#[derive(Debug, Clone, PartialEq)]
pub struct Template {
    pub parts: Vec<Part>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Part {
    /// Literal text, copied verbatim (no escapes exist outside `${}`).
    // (Inline up to 24 bytes, as are names below: most are short, and a
    // tree is built for every distinct value.)
    Text { text: CompactString, span: Span },
    /// One `${...}` block; `span` covers the `${` and `}`.
    Block { expr: Expr, span: Span },
}

impl Template {
    /// The names of the functions it calls, in any namespace, in the order
    /// of its text.
    pub(crate) fn called(&self) -> Vec<CompactString> {
        let mut names = Vec::new();
        for expr in self.exprs() {
            expr.walk(&mut |e| {
                if let ExprKind::Call(call) = &e.kind {
                    names.push(call.name.clone());
                }
            });
        }
        names
    }

    /// The expression, when the whole text is exactly one `${...}` block. Oozie
    /// then sees the expression's own type rather than a string.
    pub(crate) fn single_expr(&self) -> Option<&Expr> {
        match self.parts.as_slice() {
            [Part::Block { expr, .. }] => Some(expr),
            _ => None,
        }
    }

    /// The text, when there is no `${...}` block: what rendering it gives,
    /// without rendering.
    pub(crate) fn plain_text(&self) -> Option<&str> {
        match self.parts.as_slice() {
            [] => Some(""),
            [Part::Text { text, .. }] => Some(text),
            _ => None,
        }
    }

    /// Every expression block, in order.
    pub fn exprs(&self) -> impl Iterator<Item = &Expr> {
        self.parts.iter().filter_map(|p| match p {
            Part::Block { expr, .. } => Some(expr),
            Part::Text { .. } => None,
        })
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

impl Expr {
    /// What a node's place holds until its parser fills it.
    pub(super) const PLACEHOLDER: Expr = Expr {
        kind: ExprKind::Null,
        span: Span::EMPTY,
    };
}

// A word-sized tag keeps every payload word-aligned: with a byte tag, moving an
// `Expr` through `Result`s copied odd byte ranges and stalled store forwarding.
#[derive(Debug, Clone, PartialEq)]
#[repr(u64)]
pub enum ExprKind {
    Null,
    Bool(bool),
    Long(i64),
    Double(f64),
    Str(Box<str>),
    /// A variable: a job property or an EL constant.
    Var(Box<str>),
    // The compound nodes are boxed whole, so an `Expr` stays four words wide
    // (parsing and evaluation pass them by value at every level).
    Call(Box<Call>),
    Unary(Box<Unary>),
    Binary(Box<Binary>),
    Conditional(Box<Conditional>),
    Access(Box<Access>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Unary {
    /// In source order; the last one applies first.
    pub ops: SmallVec<[(UnaryOp, Span); 1]>,
    pub operand: Expr,
}

/// `first op1 e1 op2 e2 ...`, all operators of one precedence level.
#[derive(Debug, Clone, PartialEq)]
pub struct Binary {
    pub first: Expr,
    // Inline: most levels hold one operator, so the node is one allocation.
    pub rest: SmallVec<[(BinaryOp, Span, Expr); 1]>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Conditional {
    pub cond: Expr,
    pub then: Expr,
    pub otherwise: Expr,
}

/// `base.name` and `base[expr]` suffixes, applied left to right.
#[derive(Debug, Clone, PartialEq)]
pub struct Access {
    pub base: Expr,
    pub suffixes: Vec<Suffix>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// `coord` in `coord:current(0)`; `None` for `concat(a, b)`.
    pub namespace: Option<CompactString>,
    pub name: CompactString,
    /// Span of `ns:name`, without the arguments.
    pub name_span: Span,
    /// Inline up to two: nearly every call has one or two.
    pub args: SmallVec<[Expr; 2]>,
    /// Which call of its text it is, counted from 0 in the order of the
    /// text (a call before its arguments): what is found about a call is
    /// kept beside the tree under this number (`library::Resolved`).
    pub index: u32,
}

impl Call {
    /// The name as Oozie's function mapper looks it up: `ns:name` or `name`.
    pub(crate) fn qualified_name(&self) -> String {
        match &self.namespace {
            Some(ns) => format!("{ns}:{}", self.name),
            None => self.name.to_string(),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Suffix {
    Property { name: CompactString, span: Span },
    Index { index: Expr, span: Span },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnaryOp {
    Not,
    Minus,
    Empty,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

impl BinaryOp {
    /// Precedence (JSP.2.3): `||` binds loosest (0), `* / %` tightest (5).
    pub(crate) fn level(self) -> u8 {
        match self {
            BinaryOp::Or => 0,
            BinaryOp::And => 1,
            BinaryOp::Eq | BinaryOp::Ne => 2,
            BinaryOp::Lt | BinaryOp::Gt | BinaryOp::Le | BinaryOp::Ge => 3,
            BinaryOp::Add | BinaryOp::Sub => 4,
            BinaryOp::Mul | BinaryOp::Div | BinaryOp::Mod => 5,
        }
    }
}

impl Expr {
    /// The value of an integer literal, or of `-` and one: `3`, `-23`.
    pub(crate) fn literal_long(&self) -> Option<i64> {
        match &self.kind {
            ExprKind::Long(n) => Some(*n),
            ExprKind::Unary(u) if matches!(u.ops.as_slice(), [(UnaryOp::Minus, _)]) => {
                match u.operand.kind {
                    ExprKind::Long(n) => n.checked_neg(),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Visits this expression and every one inside it, parents first.
    /// (Generic, not `dyn`: the checks walk every tree several times, and a
    /// visit inlined into the walk costs no indirect call per node.)
    pub fn walk<'a, F: FnMut(&'a Expr)>(&'a self, visit: &mut F) {
        visit(self);
        match &self.kind {
            ExprKind::Call(call) => call.args.iter().for_each(|a| a.walk(visit)),
            ExprKind::Unary(unary) => unary.operand.walk(visit),
            ExprKind::Binary(binary) => {
                binary.first.walk(visit);
                binary.rest.iter().for_each(|(_, _, e)| e.walk(visit));
            }
            ExprKind::Conditional(c) => {
                c.cond.walk(visit);
                c.then.walk(visit);
                c.otherwise.walk(visit);
            }
            ExprKind::Access(access) => {
                access.base.walk(visit);
                for s in &access.suffixes {
                    if let Suffix::Index { index, .. } = s {
                        index.walk(visit);
                    }
                }
            }
            ExprKind::Null
            | ExprKind::Bool(_)
            | ExprKind::Long(_)
            | ExprKind::Double(_)
            | ExprKind::Str(_)
            | ExprKind::Var(_) => {}
        }
    }
}
