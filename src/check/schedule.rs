//! A coordinator whose frequency materializes no action in [start, end):
//! Oozie rejects that for cron (CR004) but accepts it for a frequency,
//! silently — an `endOf*` frequency always advances to the next boundary, so
//! a short window can hold none (CoordMaterializeTransitionXCommand.java).

use crate::diag::Diagnostic;
use crate::diag::Located;
use crate::diag::rules::NO_ACTIONS;
use crate::ir::Coordinator;
use crate::oozie::job::{Job, Schedule};

pub(crate) fn check(app: &Coordinator, job: &Job) -> Option<Located> {
    let Schedule::Every(_) = job.schedule() else {
        return None;
    };
    if job.nominal_times_all().next().is_some() {
        return None;
    }
    Some(Located::in_app(Diagnostic::warning(
            NO_ACTIONS,
            app.frequency.span,
            format!(
                "the frequency `{}` materializes no action between the start {} and the end {}: Oozie accepts the job, which then does nothing",
                app.frequency.text(),
                job.start.format("%Y-%m-%dT%H:%MZ"),
                job.end.format("%Y-%m-%dT%H:%MZ")
            ),
        )
        .with_help("move the end later (an endOf* frequency's first action is at the next boundary after the start)")))
}
