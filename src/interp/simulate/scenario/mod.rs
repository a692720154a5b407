//! The scenario of `coordc simulate` (docs/simulate.md): the file as
//! written (`file.rs`), read and checked into the typed model
//! (`read.rs` → `model.rs`), then bound to the jobs it submits
//! (`resolve.rs`), which gives the engine its [`model::Simulation`].

pub(crate) mod file;
pub mod model;
mod read;
mod resolve;
