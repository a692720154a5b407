//! The workflow interpreter (workflow spec §3-4): a workflow job run over
//! simulated time, on its own (`coordc simulate workflow.xml`) or as a
//! coordinator action's job inside `coordc simulate`.
//!
//! `graph.rs` resolves the transitions once per application; `run/` runs
//! one job; `functions.rs` answers the `wf:`, `fs:`, `hadoop:` and `hcat:`
//! functions from the run; `script.rs` is what the scenario says the outside
//! world does; `report.rs` writes a run.

pub(crate) mod functions;
pub mod graph;
pub mod report;
pub mod run;
pub mod script;
