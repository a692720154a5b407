//! What Oozie does with an application at submission, as data: a
//! coordinator job's submission (`job.rs`, with `datasets.rs` for its
//! datasets) and the resolution of one of its actions (`action/`, with
//! `uri_template.rs` for an instance's URI, `input_logic.rs` for
//! `<input-logic>` and `hcat.rs` for the HCatalog functions), listed in order over a window as
//! Oozie's materialization makes them (`materialize.rs`, the dry run); `parameters.rs` for
//! `<parameters>`, `bundle.rs` for a bundle's submission, `places.rs` for
//! which EL group evaluates a value where it is written, `executors.rs` for
//! what Oozie's action executors take. The checks (`check/`) and the
//! interpreters (`interp/`) both read this model; it reads neither.

pub(crate) mod action;
pub(crate) mod bundle;
pub(crate) mod datasets;
pub(crate) mod executors;
pub(crate) mod hcat;
pub(crate) mod input_logic;
pub mod job;
pub(crate) mod materialize;
pub(crate) mod parameters;
pub(crate) mod places;
pub mod servers;
mod uri_template;
