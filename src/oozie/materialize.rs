//! The dry run's listing: the actions of a submitted [`Job`] in order, in the
//! window and up to the limit the options give, each resolved when asked for
//! ([`Job::actions`]), as Oozie's materialization service does over time.

use crate::diag::Diagnostic;
use crate::diag::rules::TIME_FREQUENCY;
use crate::oozie::action::Action;
use crate::oozie::job::{Job, Schedule};
use crate::time::cron;
use crate::time::datetime::format_utc;
use crate::time::frequency::nominal_time_iter;
use chrono::{DateTime, Utc};

/// Most actions one dry run lists unless `--limit` or `--to` says otherwise.
pub(crate) const DEFAULT_MAX_ACTIONS: usize = 1_000_000;

/// How many actions before a window's start (`--from`) a dry run walks past
/// before it gives up (an action every 5 minutes for 95 years).
pub(crate) const MAX_SKIPPED: usize = 10_000_000;

impl<'a> Job<'a> {
    /// The actions, in order. Each is resolved when asked for, so memory does not
    /// grow with their number.
    /// With a window start, the actions before it are counted, not resolved;
    /// more than [`MAX_SKIPPED`] of them is an error rather than a walk of
    /// billions of nominal times.
    pub fn actions(&self) -> impl Iterator<Item = Result<Action<'a>, Diagnostic>> + '_ {
        let (from, to) = self.window;
        let to = to.map_or(self.end, |t| t.min(self.end));
        let limit = self.limit.unwrap_or(DEFAULT_MAX_ACTIONS);
        self.nominal_times(to)
            .enumerate()
            .filter(move |(index, t)| match (from, t) {
                (Some(f), Ok(t)) => *t >= f || *index >= MAX_SKIPPED,
                _ => true,
            })
            .take(limit)
            .map(move |(index, t)| match (from, t) {
                (Some(f), Ok(nominal)) if nominal < f => Err(self.too_far_to_window(MAX_SKIPPED)),
                (_, t) => t.and_then(|nominal| self.resolve_action(index + 1, nominal)),
            })
    }

    /// Lists only the actions in [`from`, `to`) from now on (`--from`,
    /// `--to`), e.g. a window both versions of a job share.
    pub fn set_window(&mut self, from: Option<DateTime<Utc>>, to: Option<DateTime<Utc>>) {
        self.window = (from, to);
    }

    /// The actions of the job's whole life whose index (from 0) `kept`
    /// selects, each with the nominal time of the action before it: a
    /// sample of a long job, only the kept ones resolved.
    pub fn kept_actions<'s>(
        &'s self,
        kept: impl Fn(usize) -> bool + 's,
    ) -> impl Iterator<Item = (Option<DateTime<Utc>>, Result<Action<'a>, Diagnostic>)> + 's {
        let mut previous = None;
        self.nominal_times(self.end)
            .enumerate()
            .filter_map(move |(index, t)| {
                let before = std::mem::replace(&mut previous, t.as_ref().ok().copied());
                match t {
                    Ok(_) if !kept(index) => None,
                    t => Some((before, t.and_then(|n| self.resolve_action(index + 1, n)))),
                }
            })
    }

    /// Whether a listing of `listed` actions, the last numbered `last`,
    /// stopped at [`DEFAULT_MAX_ACTIONS`] with more actions in its window
    /// (never when a limit was given: that listing stops where asked).
    pub(crate) fn stopped_at_cap(&self, listed: usize, last: usize) -> bool {
        if self.limit.is_some() || listed < DEFAULT_MAX_ACTIONS {
            return false;
        }
        let to = self.window.1.map_or(self.end, |t| t.min(self.end));
        match &self.schedule {
            // (Numbers count from 1: the next action is at index `last`.)
            Schedule::Every(f) => nominal_time_iter(*f, self.zone.clone(), self.start, to)
                .nth(last)
                .is_some(),
            Schedule::Cron(c) => {
                cron::materialize(c, &self.zone, self.pz, self.start, self.end, last + 1)
                    .ok()
                    .and_then(|times| times.get(last).map(|next| next.nominal < to))
                    .unwrap_or(false)
            }
        }
    }

    /// More actions before the window's start than coordc counts (`counted`).
    fn too_far_to_window(&self, counted: usize) -> Diagnostic {
        let from = self.window.0.map(format_utc).unwrap_or_default();
        Diagnostic::error(
            TIME_FREQUENCY,
            self.app.frequency.span,
            format!(
                "more than {counted} actions come before the window's start {from}: coordc does not count that far"
            ),
        )
        .with_help(
            "start the window closer to the coordinator's start, or list from the start with --limit",
        )
    }

    pub(super) fn nominal_times(
        &self,
        to: DateTime<Utc>,
    ) -> Box<dyn Iterator<Item = Result<DateTime<Utc>, Diagnostic>> + '_> {
        match &self.schedule {
            Schedule::Every(f) => {
                Box::new(nominal_time_iter(*f, self.zone.clone(), self.start, to).map(Ok))
            }
            Schedule::Cron(c) => {
                // Enough fire times for the listing: those before `--from` are
                // skipped, so with a window start there can be more of them.
                let listed = self.limit.unwrap_or(DEFAULT_MAX_ACTIONS);
                let limit = match self.window.0 {
                    None => listed,
                    Some(_) => listed.saturating_add(DEFAULT_MAX_ACTIONS),
                };
                match cron::materialize(c, &self.zone, self.pz, self.start, self.end, limit) {
                    // Every fire time counted came before the window: the
                    // listing would be empty, as if there were no action.
                    Ok(times)
                        if times.len() == limit
                            && self.window.0.is_some_and(|from| {
                                times.last().is_some_and(|last| last.nominal < from)
                            }) =>
                    {
                        Box::new(std::iter::once(Err(self.too_far_to_window(limit))))
                    }
                    Ok(times) => Box::new(
                        times
                            .into_iter()
                            .map(|f| f.nominal)
                            .filter(move |t| *t < to)
                            .map(Ok),
                    ),
                    Err(kind) => Box::new(std::iter::once(Err(
                        c.materialize_diagnostic(kind, self.app.frequency.span.start as usize)
                    ))),
                }
            }
        }
    }
}
