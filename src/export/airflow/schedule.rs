//! A coordinator's schedule for Airflow: the frequency as the runtime's
//! timetable reads it, the first and last nominal times, and the built-in
//! timetable that gives exactly the same runs, when one does.
//!
//! coordc knows every nominal time of the job, so the choice is a proof, not
//! a rule of thumb: when every step between two nominal times is the same
//! elapsed time (minutes and hours always; days, weeks and months only in a
//! zone without DST over the job's life; some crons), Airflow's
//! `DeltaTriggerTimetable(step)` from the first nominal time gives exactly
//! them (it adds the step to the last run's UTC time); otherwise the runtime's
//! `OozieTimetable`, which asks coordc, does.

use crate::oozie::job::{Job, Schedule};
use crate::time::frequency::{Frequency, FrequencyUnit};
use chrono::{DateTime, TimeDelta, Utc};

/// Past this many nominal times the steps are not all compared (the
/// runtime's timetable is exact anyway): a minute-by-minute century.
const MOST_COMPARED: usize = 60 * 24 * 366 * 100;

pub(super) struct Plan {
    /// The frequency as Oozie reads it: a `coord:` call, or the cron.
    pub(super) frequency: String,
    pub(super) first: DateTime<Utc>,
    /// The last nominal time before the end (Airflow's `end_date` is
    /// inclusive, Oozie's end is not).
    pub(super) last: DateTime<Utc>,
    pub(super) count: usize,
    /// The one step between all nominal times, when there is one.
    pub(super) step: Option<TimeDelta>,
    /// The nominal times not after the one before them (Oozie's cron DST
    /// shift can go back): how many, and the first.
    pub(super) backwards: (usize, Option<DateTime<Utc>>),
}

/// The plan of `job`'s schedule, or `None` when it has no action.
pub(super) fn plan(job: &Job) -> Option<Plan> {
    let mut times = job.nominal_times_all();
    let first = times.next()?;
    let (mut last, mut count, mut step, mut compared) = (first, 1, None, true);
    let mut backwards = (0, None);
    for t in times {
        if t <= last {
            backwards = (backwards.0 + 1, backwards.1.or(Some(t)));
        }
        if count >= MOST_COMPARED {
            compared = false;
        }
        let this = t - last;
        if count == 1 {
            step = Some(this);
        } else if step != Some(this) {
            step = None;
        }
        last = t;
        count += 1;
    }
    Some(Plan {
        frequency: frequency_text(job.schedule()),
        first,
        last,
        count,
        step: step.filter(|s| compared && *s > TimeDelta::zero()),
        backwards,
    })
}

/// The frequency as a value Oozie reads back the same: minutes as
/// `coord:minutes`/`coord:hours`, the calendar units as their function.
fn frequency_text(schedule: &Schedule) -> String {
    let Frequency {
        count,
        unit,
        end_of,
    } = match schedule {
        Schedule::Cron(cron) => return cron.text().to_string(),
        Schedule::Every(frequency) => *frequency,
    };
    let function = match (unit, end_of) {
        (FrequencyUnit::Minute, _) if count % 60 == 0 => {
            return format!("${{coord:hours({})}}", count / 60);
        }
        (FrequencyUnit::Minute, _) => "minutes",
        (FrequencyUnit::Day, false) => "days",
        (FrequencyUnit::Day, true) => "endOfDays",
        (FrequencyUnit::Week, _) => "endOfWeeks",
        (FrequencyUnit::Month, false) => "months",
        (FrequencyUnit::Month, true) => "endOfMonths",
    };
    format!("${{coord:{function}({count})}}")
}

/// `step` as a Python `timedelta(...)`.
pub(super) fn timedelta(step: TimeDelta) -> String {
    let seconds = step.num_seconds();
    for (unit, size) in [("days", 86_400), ("hours", 3_600), ("minutes", 60)] {
        if seconds % size == 0 {
            return format!("timedelta({unit}={})", seconds / size);
        }
    }
    format!("timedelta(seconds={seconds})")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_written_in_their_largest_whole_unit() {
        assert_eq!(timedelta(TimeDelta::hours(48)), "timedelta(days=2)");
        assert_eq!(timedelta(TimeDelta::minutes(90)), "timedelta(minutes=90)");
        assert_eq!(timedelta(TimeDelta::hours(3)), "timedelta(hours=3)");
    }

    #[test]
    fn frequencies_are_written_as_oozie_reads_them() {
        let every = |count, unit, end_of| {
            frequency_text(&Schedule::Every(Frequency {
                count,
                unit,
                end_of,
            }))
        };
        assert_eq!(
            every(120, FrequencyUnit::Minute, false),
            "${coord:hours(2)}"
        );
        assert_eq!(
            every(15, FrequencyUnit::Minute, false),
            "${coord:minutes(15)}"
        );
        assert_eq!(every(1, FrequencyUnit::Day, true), "${coord:endOfDays(1)}");
        assert_eq!(every(3, FrequencyUnit::Month, false), "${coord:months(3)}");
    }
}
