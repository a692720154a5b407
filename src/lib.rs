//! coordc: a toolchain for Apache Oozie coordinator and workflow applications.
//!
//! Data flows one way: text → syntax (`el`, later `xml`) → IR → check/interpret →
//! report (`cli`). See `docs/architecture.md`.

pub mod alloc;
pub mod check;
pub mod cli;
pub mod config;
pub mod diag;
pub mod el;
pub mod interp;
pub mod ir;
pub mod lsp;
pub mod project;
pub mod span;
pub mod time;
pub mod xml;
