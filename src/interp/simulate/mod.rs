//! `coordc simulate`: the coordinator engine over simulated time and data
//! (docs/simulate.md).
//!
//! `scenario.rs` reads the scenario file; `engine/` is the server (its
//! services, commands and the ops users run, a file per kind of command), over `data.rs` (when instances
//! complete), `inputs.rs` (latest/future and input logic at run time) and
//! `status.rs` (statuses and their transitions); `report.rs` writes the
//! outcome. Submission and each action's resolution are the dry run's
//! (`oozie::job`, `oozie::action`).

pub mod data;
pub mod engine;
pub mod inputs;
pub mod report;
pub mod scenario;
pub mod status;
pub mod svg;
