//! coordc: a toolchain for Apache Oozie coordinator and workflow applications.
//!
//! Data flows one way: text → syntax (`el`, later `xml`) → IR → check/interpret →
//! report (`cli`). See `docs/architecture.md`.

// coordc reads text written by strangers: no `unwrap`, `expect` or indexing
// that could panic on it (issue 23). Each exception is an `allow` on the
// smallest item, with the reason it cannot panic; tests are exempt
// (clippy.toml).
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

pub mod alloc;
pub mod check;
pub mod cli;
pub mod config;
pub mod diag;
pub mod el;
pub mod export;
pub mod interp;
pub mod ir;
pub mod lines;
pub mod lsp;
pub mod oozie;
pub mod project;
pub mod span;
pub mod time;
pub mod xml;
