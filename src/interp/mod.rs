//! Interpretation of the IR against time: the dry run (`dryrun.rs`) now, the
//! simulator later.

pub mod dryrun;
