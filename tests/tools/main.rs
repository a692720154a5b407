//! The rest of the command line and what is built around it: completions
//! and the man page, editor integrations, `coordc time` and `coordc eval`,
//! extreme inputs, and the fuzzers' findings replayed.

#[path = "../common/mod.rs"]
mod common;

mod adversarial;
mod completions_man;
mod editor_integrations;
mod eval_cli;
mod fuzz_regressions;
mod time_cli;
