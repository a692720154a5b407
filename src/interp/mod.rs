//! Interpretation of the IR against time: the dry run (`dryrun.rs`, with
//! `input_logic.rs` for `<input-logic>`, `parameters.rs` for `<parameters>`)
//! now, the simulator later.

pub mod bundle;
pub mod dryrun;
pub mod hcat;
pub mod input_logic;
pub mod parameters;
