//! Interpretation of the IR against time: a coordinator job's submission
//! (`job.rs`) and the resolution of one of its actions (`action.rs`, with
//! `input_logic.rs` for `<input-logic>` and `hcat.rs` for the HCatalog
//! functions), which the dry run lists (`dryrun.rs`) and the simulator will
//! run; `parameters.rs` for `<parameters>`, `bundle.rs` for a bundle's
//! submission.

pub mod action;
pub mod bundle;
pub mod dryrun;
pub mod hcat;
pub mod input_logic;
pub mod job;
pub mod parameters;
pub mod simulate;
pub mod workflow;
