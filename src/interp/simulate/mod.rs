//! `coordc simulate`: the coordinator engine over simulated time and data
//! (docs/simulate.md).
//!
//! `scenario/` reads the scenario file into a typed model and binds it to
//! its jobs; `engine/` is the server (its services, commands and the ops
//! users run, a file per kind of command), over `calendar.rs` (a job's
//! nominal times and dataset instances), `data.rs` (when instances
//! complete), `inputs.rs` (latest/future and input logic at run time) and
//! `status.rs` (statuses and their transitions). The engine writes its
//! log as it runs and hands over its record when done (`engine/record.rs`:
//! the log and the server's final state); `report.rs` and `svg.rs` write
//! the outcome from the record alone. Submission and each action's resolution are the dry run's
//! (`oozie::job`, `oozie::action`).

pub(crate) mod calendar;
pub(crate) mod data;
pub mod engine;
pub(crate) mod inputs;
pub mod report;
pub mod scenario;
pub(crate) mod status;
pub(crate) mod svg;
