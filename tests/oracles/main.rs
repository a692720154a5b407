//! Answers checked against references outside the code: the JDK's and
//! Oozie's answers recorded as cases (EL, cron, calendar), the EL grammar,
//! the specs' examples, the dry run's fidelity to Oozie, and arithmetic at
//! its limits.

#[path = "../common/mod.rs"]
mod common;

mod arithmetic_limits;
mod calendar;
mod cron;
mod el;
mod el_grammar;
mod el_spec;
mod fidelity;
mod workflow_spec;
