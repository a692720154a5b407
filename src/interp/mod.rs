//! The submission model (`oozie/`) run over simulated time: the simulator
//! runs coordinators (`simulate/`) and workflows (`workflow/`).

pub(crate) mod clock;
pub mod diff;
pub(crate) mod markup;
pub(crate) mod queue;
pub mod simulate;
pub mod workflow;
