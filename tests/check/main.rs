//! `coordc check` through the real binary: the command line, the output
//! formats, `--fix`, rule selection, project layouts, the checks' misses,
//! the invalid corpus against the rule pages, the DST rules, datasets files,
//! and the repository's references and registered schemas.

#[path = "../common/mod.rs"]
mod common;

mod cli;
mod datasets_file;
mod dst_rules;
mod fix;
mod formats;
mod invalid_corpus;
mod layouts;
mod misses;
mod references;
mod registered_schemas;
mod select;
mod servers;
