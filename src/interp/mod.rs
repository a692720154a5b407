//! The submission model (`oozie/`) run over simulated time: the simulator
//! runs coordinators (`simulate/`) and workflows (`workflow/`).

pub mod clock;
pub mod markup;
pub mod queue;
pub mod simulate;
pub mod workflow;
