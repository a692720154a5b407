//! Static checks. One file per rule family; `rules` is the code registry.

pub mod actions;
pub mod cron;
pub mod data;
pub mod datasets;
pub mod dst_reads;
pub mod el;
pub mod instances;
pub mod pipeline;
pub mod schedule;
pub mod select;
pub mod settings;
pub mod suppress;
pub mod workflow;
pub mod zones;
