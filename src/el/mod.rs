//! The JSP 2.0 expression language as Oozie evaluates it (commons-el 1.0):
//! grammar (`grammar/el.pest`), syntax tree, evaluator and function library.

pub(crate) mod ast;
pub(crate) mod eval;
pub(crate) mod fold;
pub mod frequency;
pub(crate) mod java_double;
pub(crate) mod lex;
pub(crate) mod library;
pub mod parse;
pub(crate) mod shared;
mod time_functions;
pub(crate) mod value;

pub use ast::{Expr, ExprKind, Template};
pub use eval::{Context, Env, NoVariables, VarMap, Variables, render, render_into};
pub use fold::Compiled;
pub use library::Library;
pub use parse::parse_template;
pub(crate) use value::{Value, ValueType};
