//! `coordc dryrun` through the real binary, of coordinators (the spec's
//! worked results, the corpus's snapshots) and of bundles (with `check` of a
//! bundle's coordinators).

#[path = "../common/mod.rs"]
mod common;

mod bundle;
mod cli;
