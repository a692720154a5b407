//! Frequencies as typed values (spec §4.4), never flattened to minutes when the
//! unit is days, weeks or months, and the nominal times they give.
//!
//! In Oozie a frequency function returns a count in its unit (CoordELFunctions.java:81-181):
//! `coord:hours(n)` is n·60 MINUTE, `coord:days(n)` n DAY, `coord:months(n)` n MONTH,
//! `coord:endOfDays/endOfWeeks/endOfMonths(n)` the same units with an end-of flag.
//! Action k's nominal time is `moveToEnd(start) + k·freq`, one `Calendar.add` from
//! the (moved) start in the job zone, so there is no drift (CoordMaterializeTransitionXCommand.java:426-546).

use super::calendar::{CalendarUnit, add, from_fields};
use super::zone::Zone;
use chrono::{DateTime, Datelike, NaiveTime, Utc};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrequencyUnit {
    Minute,
    Day,
    Week,
    Month,
}

impl FrequencyUnit {
    /// The unit's name in messages: `minute`, `day`, `week`, `month`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            FrequencyUnit::Minute => "minute",
            FrequencyUnit::Day => "day",
            FrequencyUnit::Week => "week",
            FrequencyUnit::Month => "month",
        }
    }

    pub fn calendar_unit(self) -> CalendarUnit {
        match self {
            FrequencyUnit::Minute => CalendarUnit::Minute,
            FrequencyUnit::Day => CalendarUnit::Day,
            FrequencyUnit::Week => CalendarUnit::Week,
            FrequencyUnit::Month => CalendarUnit::Month,
        }
    }
}

/// `count` units; `end_of` for the `coord:endOf*` functions, whose first
/// occurrence is moved to the next unit boundary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frequency {
    pub count: i64,
    pub unit: FrequencyUnit,
    pub end_of: bool,
}

/// `DateUtils.moveToEnd` (DateUtils.java:308-332) in `zone`: always advances, even from a
/// boundary. END_OF_DAY: next day 00:00; END_OF_MONTH: the 1st of next month
/// 00:00; END_OF_WEEK: next week's first day (Sunday, en_US) 00:00. The `add` is
/// immediate, the `set`s are resolved together as fields (computeTime).
pub fn move_to_end(zone: &Zone, t: DateTime<Utc>, unit: FrequencyUnit) -> Option<DateTime<Utc>> {
    let calendar_unit = match unit {
        FrequencyUnit::Minute => return Some(t),
        other => other.calendar_unit(),
    };
    let local = zone.local(add(zone, t, calendar_unit, 1)?);
    let date = match unit {
        FrequencyUnit::Month => local.date().with_day(1)?,
        FrequencyUnit::Week => {
            local.date() - chrono::Days::new(local.date().weekday().num_days_from_sunday().into())
        }
        _ => local.date(),
    };
    Some(from_fields(zone, date.and_time(NaiveTime::MIN)))
}

/// The nominal times of actions from `start` (inclusive) to `end` (exclusive),
/// at most `limit` of them.
pub fn nominal_times(
    frequency: Frequency,
    zone: &Zone,
    start: DateTime<Utc>,
    end: DateTime<Utc>,
    limit: usize,
) -> Vec<DateTime<Utc>> {
    nominal_time_iter(frequency, zone.clone(), start, end)
        .take(limit)
        .collect()
}

/// The nominal times of actions from `start` (inclusive) to `end` (exclusive),
/// computed one at a time, each as one `Calendar.add` from the (moved) start
/// (CoordMaterializeTransitionXCommand: no drift). A count that is not
/// positive gives none: its times never move forward (submission refuses it).
pub(crate) fn nominal_time_iter(
    frequency: Frequency,
    zone: Zone,
    start: DateTime<Utc>,
    end: DateTime<Utc>,
) -> impl Iterator<Item = DateTime<Utc>> {
    let origin = if frequency.count <= 0 {
        None
    } else if frequency.end_of {
        move_to_end(&zone, start, frequency.unit)
    } else {
        Some(start)
    };
    let unit = frequency.unit.calendar_unit();
    origin
        .into_iter()
        .flat_map(move |origin| {
            let zone = zone.clone();
            (0..).map_while(move |k: i64| add(&zone, origin, unit, k.checked_mul(frequency.count)?))
        })
        .take_while(move |t| *t < end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::datetime::format_utc;

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    fn times(f: Frequency, zone: &str, start: &str, end: &str) -> Vec<String> {
        let zone = Zone::parse(zone).unwrap();
        nominal_times(f, &zone, at(start), at(end), 100)
            .into_iter()
            .map(format_utc)
            .collect()
    }

    const fn freq(count: i64, unit: FrequencyUnit, end_of: bool) -> Frequency {
        Frequency {
            count,
            unit,
            end_of,
        }
    }

    #[test]
    fn daily_keeps_wall_clock_across_dst() {
        // Spec §4.4.1.1: a daily LA job at 00:00 local is 08:00Z in winter, 07:00Z in summer.
        let got = times(
            freq(1, FrequencyUnit::Day, false),
            "America/Los_Angeles",
            "2009-03-07T08:00:00Z",
            "2009-03-10T07:00:00Z",
        );
        assert_eq!(
            got,
            [
                "2009-03-07T08:00Z",
                "2009-03-08T08:00Z",
                "2009-03-09T07:00Z"
            ]
        );
        // An hourly (minute-unit) job is absolute: 24 actions a day, DST or not.
        let got = times(
            freq(60, FrequencyUnit::Minute, false),
            "America/Los_Angeles",
            "2009-03-08T00:00:00Z",
            "2009-03-09T00:00:00Z",
        );
        assert_eq!(got.len(), 24);
    }

    #[test]
    fn end_of_always_advances() {
        // CoordELFunctions.java (endOf*), spec §4.4.2.2.
        let got = times(
            freq(1, FrequencyUnit::Day, true),
            "UTC",
            "2009-01-01T00:00:00Z",
            "2009-01-03T00:00:00Z",
        );
        assert_eq!(got, ["2009-01-02T00:00Z"]);
        let got = times(
            freq(1, FrequencyUnit::Month, true),
            "UTC",
            "2009-01-01T00:00:00Z",
            "2009-04-01T00:00:00Z",
        );
        assert_eq!(got, ["2009-02-01T00:00Z", "2009-03-01T00:00Z"]);
        // endOfDays in LA: the next local midnight.
        let got = times(
            freq(1, FrequencyUnit::Day, true),
            "America/Los_Angeles",
            "2009-01-01T10:00:00Z",
            "2009-01-03T00:00:00Z",
        );
        assert_eq!(got, ["2009-01-02T08:00Z"]);
        // endOfWeeks: the next Sunday 00:00 (2009-01-01 is a Thursday).
        let got = times(
            freq(1, FrequencyUnit::Week, true),
            "UTC",
            "2009-01-01T00:00:00Z",
            "2009-01-20T00:00:00Z",
        );
        assert_eq!(
            got,
            [
                "2009-01-04T00:00Z",
                "2009-01-11T00:00Z",
                "2009-01-18T00:00Z"
            ]
        );
    }

    #[test]
    fn monthly_steps_are_single_adds_from_start() {
        // No drift: Jan 31 + 1 month is Feb 28, + 2 months is Mar 31.
        let got = times(
            freq(1, FrequencyUnit::Month, false),
            "UTC",
            "2009-01-31T00:00:00Z",
            "2009-04-01T00:00:00Z",
        );
        assert_eq!(
            got,
            [
                "2009-01-31T00:00Z",
                "2009-02-28T00:00Z",
                "2009-03-31T00:00Z"
            ]
        );
    }

    #[test]
    fn absurd_values_end_without_panic() {
        let zone = Zone::utc();
        let huge = freq(i64::from(i32::MAX), FrequencyUnit::Day, false);
        let got = nominal_times(
            huge,
            &zone,
            at("2009-01-01T00:00:00Z"),
            DateTime::<Utc>::MAX_UTC,
            10,
        );
        assert!(!got.is_empty() && got.len() <= 10);
    }

    /// Spec §4.4.1.1, §4.4.1.2, §4.4.2.1 and §4.4.2.2: each row's first occurrence,
    /// and its "value" (the spec's minutes in the first interval) as the distance
    /// from the first to the second occurrence. Corrected rows are marked.
    #[test]
    fn spec_4_4_tables() {
        use FrequencyUnit::*;
        let days = |n| freq(n, Day, false);
        let end_of_days = |n| freq(n, Day, true);
        let months = |n| freq(n, Month, false);
        let end_of_months = |n| freq(n, Month, true);
        let end_of_weeks = |n| freq(n, Week, true);
        let la = "America/Los_Angeles";
        let rows = [
            // §4.4.1.1 coord:days
            (
                "2009-01-01T08:00:00Z",
                "UTC",
                days(1),
                1440,
                "2009-01-01T08:00Z",
            ),
            (
                "2009-01-01T08:00:00Z",
                la,
                days(1),
                1440,
                "2009-01-01T08:00Z",
            ),
            (
                "2009-01-01T08:00:00Z",
                la,
                days(2),
                2880,
                "2009-01-01T08:00Z",
            ),
            (
                "2009-03-08T08:00:00Z",
                "UTC",
                days(1),
                1440,
                "2009-03-08T08:00Z",
            ),
            (
                "2009-03-08T08:00:00Z",
                "Europe/London",
                days(1),
                1440,
                "2009-03-08T08:00Z",
            ),
            (
                "2009-03-08T08:00:00Z",
                la,
                days(1),
                1380,
                "2009-03-08T08:00Z",
            ),
            (
                "2009-03-08T08:00:00Z",
                "UTC",
                days(2),
                2880,
                "2009-03-08T08:00Z",
            ),
            (
                "2009-03-08T08:00:00Z",
                la,
                days(2),
                2820,
                "2009-03-08T08:00Z",
            ),
            // Spec: first occurrence 07:00Z. coord:days does not move the start.
            (
                "2009-03-09T08:00:00Z",
                la,
                days(1),
                1440,
                "2009-03-09T08:00Z",
            ),
            // §4.4.1.2 coord:endOfDays
            (
                "2009-01-01T08:00:00Z",
                "UTC",
                end_of_days(1),
                1440,
                "2009-01-02T00:00Z",
            ),
            (
                "2009-01-01T08:00:00Z",
                la,
                end_of_days(1),
                1440,
                "2009-01-02T08:00Z",
            ),
            (
                "2009-01-01T08:01:00Z",
                la,
                end_of_days(1),
                1440,
                "2009-01-02T08:00Z",
            ),
            (
                "2009-01-01T18:00:00Z",
                la,
                end_of_days(1),
                1440,
                "2009-01-02T08:00Z",
            ),
            (
                "2009-03-07T09:00:00Z",
                la,
                end_of_days(1),
                1380,
                "2009-03-08T08:00Z",
            ),
            // Spec: 1440. The first interval is 2009-03-08 in LA, 23 hours.
            (
                "2009-03-08T07:00:00Z",
                la,
                end_of_days(1),
                1380,
                "2009-03-08T08:00Z",
            ),
            (
                "2009-03-09T07:00:00Z",
                la,
                end_of_days(1),
                1440,
                "2009-03-10T07:00Z",
            ),
            // §4.4.2.1 coord:months
            (
                "2009-01-01T08:00:00Z",
                "UTC",
                months(1),
                44640,
                "2009-01-01T08:00Z",
            ),
            (
                "2009-01-01T08:00:00Z",
                la,
                months(1),
                44640,
                "2009-01-01T08:00Z",
            ),
            (
                "2009-01-01T08:00:00Z",
                la,
                months(2),
                84960,
                "2009-01-01T08:00Z",
            ),
            // From 03-08 to 04-08: 31 days, less an hour where DST starts in between.
            (
                "2009-03-08T08:00:00Z",
                "UTC",
                months(1),
                44640,
                "2009-03-08T08:00Z",
            ),
            (
                "2009-03-08T08:00:00Z",
                "Europe/London",
                months(1),
                44580,
                "2009-03-08T08:00Z",
            ),
            (
                "2009-03-08T08:00:00Z",
                la,
                months(1),
                44580,
                "2009-03-08T08:00Z",
            ),
            (
                "2009-03-08T08:00:00Z",
                "UTC",
                months(2),
                87840,
                "2009-03-08T08:00Z",
            ),
            (
                "2009-03-08T08:00:00Z",
                la,
                months(2),
                87780,
                "2009-03-08T08:00Z",
            ),
            // §4.4.2.2 coord:endOfMonths
            (
                "2009-01-01T00:00:00Z",
                "UTC",
                end_of_months(1),
                40320,
                "2009-02-01T00:00Z",
            ),
            (
                "2009-01-01T08:00:00Z",
                "UTC",
                end_of_months(1),
                40320,
                "2009-02-01T00:00Z",
            ),
            (
                "2009-01-31T08:00:00Z",
                "UTC",
                end_of_months(1),
                40320,
                "2009-02-01T00:00Z",
            ),
            (
                "2009-01-01T08:00:00Z",
                la,
                end_of_months(1),
                40320,
                "2009-02-01T08:00Z",
            ),
            (
                "2009-02-02T08:00:00Z",
                la,
                end_of_months(1),
                44580,
                "2009-03-01T08:00Z",
            ),
            (
                "2009-02-01T08:00:00Z",
                la,
                end_of_months(1),
                44580,
                "2009-03-01T08:00Z",
            ),
            // Coordinator spec §4.4.3 coord:endOfWeeks: the next Sunday 00:00 in the
            // zone (DateUtils.moveToEnd sets hour and minute to 0).
            (
                "2017-01-04T00:00:00Z",
                "UTC",
                end_of_weeks(1),
                10080,
                "2017-01-08T00:00Z",
            ),
            // Corrected: the spec gives 08:00Z for these two UTC rows, copied
            // from the Los Angeles rows; midnight UTC is 00:00Z.
            (
                "2017-01-04T08:00:00Z",
                "UTC",
                end_of_weeks(1),
                10080,
                "2017-01-08T00:00Z",
            ),
            (
                "2017-01-06T08:00:00Z",
                "UTC",
                end_of_weeks(1),
                10080,
                "2017-01-08T00:00Z",
            ),
            (
                "2017-01-04T08:00:00Z",
                la,
                end_of_weeks(1),
                10080,
                "2017-01-08T08:00Z",
            ),
            (
                "2017-01-06T08:00:00Z",
                la,
                end_of_weeks(1),
                10080,
                "2017-01-08T08:00Z",
            ),
        ];
        for (start, zone, f, minutes, first) in rows {
            let z = Zone::parse(zone).unwrap();
            let got = nominal_times(f, &z, at(start), at("2020-01-01T00:00:00Z"), 2);
            assert_eq!(
                format_utc(got[0]),
                first,
                "{start} {zone} {f:?}: first occurrence"
            );
            assert_eq!(
                (got[1] - got[0]).num_minutes(),
                minutes,
                "{start} {zone} {f:?}: minutes"
            );
        }
    }

    #[test]
    fn a_count_that_does_not_move_forward_gives_no_time() {
        // Without this, 0 would repeat the start and a negative count walk back
        // from it, both without end.
        let z = Zone::parse("UTC").unwrap();
        for count in [0, -1, i64::from(i32::MIN), i64::MIN] {
            for unit in [FrequencyUnit::Minute, FrequencyUnit::Month] {
                let f = freq(count, unit, false);
                let got = nominal_time_iter(
                    f,
                    z.clone(),
                    at("2024-01-01T00:00:00Z"),
                    at("2025-01-01T00:00:00Z"),
                );
                assert_eq!(got.count(), 0, "{f:?}");
            }
        }
        // The largest count steps once, then leaves the calendar.
        let f = freq(i64::MAX, FrequencyUnit::Minute, false);
        let got = nominal_times(
            f,
            &z,
            at("2024-01-01T00:00:00Z"),
            at("2025-01-01T00:00:00Z"),
            10,
        );
        assert_eq!(got.len(), 1);
    }
}
