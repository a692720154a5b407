//! The JSP 2.0 expression language as Oozie evaluates it (commons-el 1.0):
//! grammar (`grammar/el.pest`), syntax tree, evaluator and function library.

pub mod ast;
pub mod eval;
pub mod fold;
pub mod frequency;
pub mod java_double;
pub mod lex;
pub mod library;
pub mod parse;
pub mod shared;
mod time_functions;
pub mod value;

pub use ast::{Expr, ExprKind, Template};
pub use eval::{Context, Env, NoVariables, VarMap, Variables, render, render_into};
pub use fold::Compiled;
pub use library::Library;
pub use parse::parse_template;
pub use value::{Value, ValueType};
