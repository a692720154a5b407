//! What the subcommands share in their output: how problems found while
//! reading an application are printed, and the exit code they make.

use super::{EXIT_ERRORS, EXIT_USAGE};
use crate::diag::Located;
use crate::project::load::{Sources, Stop};
use std::io::Write;

pub(super) fn print_problems(sources: &Sources, problems: &[Located]) -> i32 {
    let mut err = std::io::stderr().lock();
    for p in problems {
        let _ = write!(err, "{}", sources.render(p));
    }
    EXIT_ERRORS
}

pub(super) fn usage(message: String) -> i32 {
    eprintln!("error: {message}");
    EXIT_USAGE
}

/// The exit of a command stopped while reading the application.
pub(super) fn stopped(sources: &Sources, stop: Stop) -> i32 {
    match stop {
        Stop::Usage(message) => usage(message),
        Stop::Problems(problems) => print_problems(sources, &problems),
    }
}

/// A [`load::ProblemSink`] that prints what it is told, keeping in `exit`
/// the exit code that calls for when loading fails: a usage error's (2),
/// else an error's.
pub(super) fn printer(exit: &mut i32) -> impl FnMut(&Sources, Stop) + '_ {
    move |sources, stop| *exit = (*exit).max(stopped(sources, stop))
}
