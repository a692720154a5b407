//! Static checks. One file per rule family; `rules` is the code registry.

pub(crate) mod actions;
pub(crate) mod cron;
pub(crate) mod data;
pub(crate) mod datasets;
pub(crate) mod dst_reads;
pub mod el;
pub(crate) mod instances;
pub(crate) mod pipeline;
pub(crate) mod schedule;
pub(crate) mod select;
pub(crate) mod server;
pub(crate) mod settings;
pub(crate) mod suppress;
pub mod workflow;
pub(crate) mod zones;
