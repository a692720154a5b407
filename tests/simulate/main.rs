//! `coordc simulate`: Oozie's known answers on the scenarios of
//! `corpus/simulate/`, seeded random properties, agreement with `check` and
//! `dryrun`, the workflow runner, and the command line.

#[path = "../common/mod.rs"]
mod common;

mod agrees;
mod cli;
mod facts_1;
mod facts_2;
mod properties;
mod scenarios;
mod schema;
mod workflow;
mod workflow_corpus;
mod workflow_properties;
