//! Dataset instances (spec §6.6; CoordELFunctions.java), computed as
//! Oozie's `CoordELFunctions` computes them, including where its arithmetic is
//! incremental (one `Calendar.add` of the frequency after another, which keeps a
//! day-of-month clamped by a short month, or a wall time moved by a DST gap)
//! rather than one `add` from the initial instance.
//!
//! All arithmetic is in the dataset's zone and unit. "Dropped" instances (before
//! the initial instance) are `None` here; Oozie renders them as `""`.

use super::calendar::{CalendarUnit, add, days_in_month, from_fields};
use super::frequency::{Frequency, FrequencyUnit, move_to_end};
use super::zone::Zone;
use chrono::{DateTime, Datelike, Duration, NaiveTime, Timelike, Utc};

/// How many frequency steps coordc takes to walk between an instance and the
/// initial instance before it reports the dataset as too fine for the distance
/// (Oozie walks them all). Only steps that one add cannot replace are walked
/// (days or months in a zone with DST, months from the 29th to the 31st):
/// a million days is 2,700 years, and a million steps about a second.
pub(crate) const MAX_STEPS: i64 = 1_000_000;

/// How many instances coordc lists for one range (`<start-instance>` to
/// `<end-instance>`) of one action. Oozie has no such bound: it writes every
/// instance's URI into the action's XML, so a range of millions of instances
/// is an action XML of hundreds of megabytes (MySQL keeps it in a 16 MB
/// MEDIUMBLOB). A year of 5-minute instances is 105,120.
pub(crate) const MAX_RANGE: i64 = 100_000;

/// Why an instance cannot be computed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InstanceError {
    /// More than [`MAX_STEPS`] frequency steps from the initial instance.
    TooFar,
    /// A range of more than [`MAX_RANGE`] instances.
    RangeTooLong,
    /// A date beyond the calendar's range (year ±262,000).
    OutOfRange,
    /// A frequency that is not greater than zero (Oozie refuses it at
    /// submission, `ParamChecker.checkGTZero`): no instance moves forward.
    NotPositive,
    /// `coord:offset` stepping and adding disagree: Oozie throws
    /// `RuntimeException("Shouldn't happen")` (coord_offset_sync).
    Diverged,
}

impl std::fmt::Display for InstanceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InstanceError::TooFar => write!(
                f,
                "the instance is more than {MAX_STEPS} dataset frequencies away from the initial instance"
            ),
            InstanceError::RangeTooLong => write!(
                f,
                "the range holds more than {MAX_RANGE} instances, the most coordc lists for one action (Oozie would write every instance's URI into the action's XML): read a shorter range, or a dataset of a coarser frequency"
            ),
            InstanceError::OutOfRange => write!(f, "the instance is out of the calendar's range"),
            InstanceError::NotPositive => {
                write!(f, "the dataset frequency must be greater than zero")
            }
            InstanceError::Diverged => write!(
                f,
                "Oozie cannot resolve this offset: one frequency at a time and all at once from the initial instance give different instances, and Oozie fails with \"Shouldn't happen\""
            ),
        }
    }
}

type Result<T> = std::result::Result<T, InstanceError>;

/// The timing of a synchronous dataset.
#[derive(Debug, Clone)]
pub struct DatasetClock {
    /// `initial-instance`, moved to the end of its unit for `coord:endOf*`
    /// frequencies (`getInitialInstanceCal`, CEF).
    pub initial: DateTime<Utc>,
    pub frequency: Frequency,
    pub zone: Zone,
    /// [`DatasetClock::steps_are_regular`], found once: a walk asks it at
    /// every instance of a range.
    regular: bool,
}

impl DatasetClock {
    /// A clock: `frequency` must be greater than zero.
    pub fn new(initial_instance: DateTime<Utc>, frequency: Frequency, zone: Zone) -> Result<Self> {
        if frequency.count <= 0 {
            return Err(InstanceError::NotPositive);
        }
        let initial = if frequency.end_of {
            move_to_end(&zone, initial_instance, frequency.unit).ok_or(InstanceError::OutOfRange)?
        } else {
            initial_instance
        };
        let regular = match frequency.unit {
            FrequencyUnit::Minute => true,
            FrequencyUnit::Day | FrequencyUnit::Week => zone.has_fixed_offset(),
            FrequencyUnit::Month => zone.has_fixed_offset() && zone.local(initial).day() <= 28,
        };
        Ok(DatasetClock {
            initial,
            frequency,
            zone,
            regular,
        })
    }

    fn unit(&self) -> CalendarUnit {
        self.frequency.unit.calendar_unit()
    }

    /// `t` plus `k` frequencies, one `Calendar.add`.
    fn step(&self, t: DateTime<Utc>, k: i64) -> Result<DateTime<Utc>> {
        let amount = k
            .checked_mul(self.frequency.count)
            .ok_or(InstanceError::OutOfRange)?;
        add(&self.zone, t, self.unit(), amount).ok_or(InstanceError::OutOfRange)
    }

    /// The current instance of `nominal` and its index from the initial instance
    /// (`getCurrentInstance`, CEF): `None` when the initial instance is later.
    /// An estimate by elapsed time comes first, then single steps.
    pub fn current_instance(&self, nominal: DateTime<Utc>) -> Result<Option<(i64, DateTime<Utc>)>> {
        let init = self.initial;
        if init > nominal {
            return Ok(None);
        }
        let elapsed = self.units_between(init, nominal);
        let (count, current) = if elapsed > 2 {
            let count = elapsed / self.frequency.count;
            (count, self.step(init, count)?)
        } else {
            (0, init)
        };
        let mut walk = self.walk(current);
        while walk.at <= nominal {
            match walk.step(1) {
                Ok(()) => {}
                // The next instance is past the calendar's end (a frequency
                // of thousands of millennia), so past `nominal`: this one is
                // current.
                Err(InstanceError::OutOfRange) => return Ok(Some((count + walk.steps, walk.at))),
                Err(e) => return Err(e),
            }
        }
        Ok(Some((count + walk.steps - 1, self.step(walk.at, -1)?)))
    }

    /// The units of the frequency from `from` to `to` (negative when `to` is
    /// earlier), whole ones, in elapsed time (minutes, days, weeks) or by
    /// the calendar (months, in the dataset's zone): within one of the
    /// number of steps between them.
    fn units_between(&self, from: DateTime<Utc>, to: DateTime<Utc>) -> i64 {
        match self.frequency.unit {
            FrequencyUnit::Minute => (to - from).num_minutes(),
            FrequencyUnit::Day => (to - from).num_days(),
            FrequencyUnit::Week => (to - from).num_weeks(),
            FrequencyUnit::Month => {
                let (a, b) = (self.zone.local(from), self.zone.local(to));
                (b.year() - a.year()) as i64 * 12 + b.month() as i64 - a.month() as i64
            }
        }
    }

    /// Whether one frequency at a time always lands where one add from the
    /// initial instance does, so that a walk can jump: minutes are elapsed
    /// time; days and weeks in a zone of one offset have no gap to move a
    /// wall time; months too, from a day every month has (none is clamped).
    fn steps_are_regular(&self) -> bool {
        self.regular
    }

    /// A walk from `at`, one frequency at a time.
    fn walk(&self, at: DateTime<Utc>) -> Walk<'_> {
        Walk {
            clock: self,
            at,
            steps: 0,
            taken: 0,
        }
    }

    /// `coord:current(n)`: `None` when the instance is before the initial one,
    /// or the initial instance is after `nominal` (even for n > 0).
    pub fn current(&self, nominal: DateTime<Utc>, n: i64) -> Result<Option<DateTime<Utc>>> {
        Ok(self.current_range(nominal, n, n)?.pop())
    }

    /// `coord:current(start)` .. `coord:current(end)` as Oozie lists a range:
    /// newest first, the instances before the initial one dropped (the initial
    /// instance itself kept). Empty when `start > end`.
    pub fn current_range(
        &self,
        nominal: DateTime<Utc>,
        start: i64,
        end: i64,
    ) -> Result<Vec<DateTime<Utc>>> {
        let Some((count, _)) = self.current_instance(nominal)? else {
            return Ok(Vec::new());
        };
        if start > end {
            return Ok(Vec::new());
        }
        if end.saturating_sub(start) >= MAX_RANGE {
            return Err(InstanceError::RangeTooLong);
        }
        let first = count.checked_add(start).ok_or(InstanceError::OutOfRange)?;
        if self.frequency.unit == FrequencyUnit::Minute {
            return self.minute_range(first, end - start);
        }
        // One add from the initial instance, then one frequency at a time
        // (coord_currentRange_sync).
        let mut instance = self.step(self.initial, first)?;
        let mut instances = Vec::new();
        for k in start..=end {
            if instance >= self.initial {
                instances.push(instance);
            }
            // (No step past the last: it may be past the calendar's end.)
            if k < end {
                instance = self.step(instance, 1)?;
            }
        }
        instances.reverse();
        Ok(instances)
    }

    /// The range of a minute-frequency dataset: minutes are absolute, so the
    /// frequency-at-a-time steps of [`DatasetClock::current_range`] land exactly
    /// on initial + k × frequency, computed here from timestamps (a dry run
    /// expands millions of instances).
    fn minute_range(&self, first: i64, len: i64) -> Result<Vec<DateTime<Utc>>> {
        let out_of_range = || InstanceError::OutOfRange;
        let step = self
            .frequency
            .count
            .checked_mul(60)
            .ok_or_else(out_of_range)?;
        let initial = self.initial.timestamp();
        let mut instants = Instants::default();
        // (Sized for the instances at or after the initial one only: a range
        // reaching far before it would reserve for nothing.)
        let kept = (first + len + 1).clamp(0, len + 1);
        let mut instances = Vec::with_capacity(kept as usize);
        for k in (first..=first + len).rev() {
            if k < 0 {
                break;
            }
            let at = k
                .checked_mul(step)
                .and_then(|s| s.checked_add(initial))
                .ok_or_else(out_of_range)?;
            instances.push(instants.at(at).ok_or_else(out_of_range)?);
        }
        Ok(instances)
    }

    /// `coord:offset(n, unit)`: the current instance plus `n` units, rewound to
    /// the latest instance at or before it (`coord_offset_sync`); `None` before
    /// the initial instance.
    pub fn offset(
        &self,
        nominal: DateTime<Utc>,
        n: i64,
        unit: CalendarUnit,
    ) -> Result<Option<DateTime<Utc>>> {
        match self.current_instance(nominal)? {
            Some((_, current)) => self.offset_from(current, n, unit),
            None => Ok(None),
        }
    }

    /// `resolveOffsetRawTime`: the current instance plus `n` units.
    fn offset_raw(
        &self,
        current: DateTime<Utc>,
        n: i64,
        unit: CalendarUnit,
    ) -> Result<DateTime<Utc>> {
        add(&self.zone, current, unit, n).ok_or(InstanceError::OutOfRange)
    }

    /// [`DatasetClock::offset`] from a known current instance.
    fn offset_from(
        &self,
        current: DateTime<Utc>,
        n: i64,
        unit: CalendarUnit,
    ) -> Result<Option<DateTime<Utc>>> {
        let raw = self.offset_raw(current, n, unit)?;
        self.synced(raw, &mut self.walk(self.initial))
    }

    /// The latest instance at or before `raw` (`coord_offset_sync`), `None`
    /// before the initial instance. `walk` goes forward from the initial
    /// instance and is left where it found the instance, so that one walk
    /// serves a rising series of `raw`s (a range) in one pass.
    fn synced(&self, raw: DateTime<Utc>, walk: &mut Walk) -> Result<Option<DateTime<Utc>>> {
        // Every instance before the initial one is dropped, so only walking
        // forward from the initial instance can find one.
        if raw < self.initial {
            return Ok(None);
        }
        if self.frequency.unit == FrequencyUnit::Minute {
            // Minute steps are absolute: walking and dividing agree.
            let count = (raw - self.initial).num_minutes() / self.frequency.count;
            return self.step(self.initial, count).map(Some);
        }
        walk.approach(raw)?;
        while walk.at < raw {
            walk.step(1)?;
        }
        if walk.at > raw {
            walk.step(-1)?;
        }
        // Oozie walks one frequency at a time, then checks the result against one
        // add from the initial instance and fails when they differ (a monthly
        // dataset on the 31st: Jan 31 + 1 + 1 month is Mar 28, + 2 months Mar 31).
        if self.step(self.initial, walk.steps)? != walk.at {
            return Err(InstanceError::Diverged);
        }
        Ok(Some(walk.at))
    }

    /// A start-instance/end-instance range of `coord:offset`s: the start is
    /// fast-forwarded to the first instance at or after it, the end is the last
    /// instance at or before it (`expandOffsetTimes`); newest first, stopping at
    /// the first instance before the initial one (CoordCommandUtils).
    pub fn offset_range(
        &self,
        nominal: DateTime<Utc>,
        start: (i64, CalendarUnit),
        end: (i64, CalendarUnit),
    ) -> Result<Vec<DateTime<Utc>>> {
        let Some((_, current)) = self.current_instance(nominal)? else {
            return Ok(Vec::new());
        };
        let start_raw = self.offset_raw(current, start.0, start.1)?;
        let end_raw = self.offset_raw(current, end.0, end.1)?;
        // Offsets in frequencies from the current instance, as Oozie counts them.
        let mut walk = self.walk(current);
        walk.approach(start_raw)?;
        if start_raw < walk.at {
            while walk.at > start_raw {
                walk.step(-1)?;
            }
            if walk.at < start_raw {
                walk.step(1)?;
            }
        } else {
            while walk.at < start_raw {
                walk.step(1)?;
            }
        }
        let mut offsets = Vec::new();
        while walk.at <= end_raw {
            if offsets.len() as i64 == MAX_RANGE {
                return Err(InstanceError::RangeTooLong);
            }
            offsets.push(walk.steps);
            walk.step(1)?;
        }
        // Oozie syncs each offset from the initial instance; the offsets
        // rise, so one walk forward serves them all (oldest first), where a
        // walk each would be quadratic in a long range.
        let mut synced = Vec::with_capacity(offsets.len());
        let mut from_initial = self.walk(self.initial);
        for k in offsets {
            let amount = k
                .checked_mul(self.frequency.count)
                .ok_or(InstanceError::OutOfRange)?;
            let raw = self.offset_raw(current, amount, self.unit())?;
            synced.push(self.synced(raw, &mut from_initial)?);
        }
        // Newest first, up to the first before the initial instance.
        Ok(synced
            .into_iter()
            .rev()
            .map_while(|instance| instance)
            .collect())
    }

    /// The nominal time moved by `n` frequencies of this dataset, in its zone;
    /// `None` when the initial instance is after `nominal`
    /// (`getEffectiveNominalTime` and the shift of `hoursInDay`/`daysInMonth`).
    fn shifted_nominal(&self, nominal: DateTime<Utc>, n: i64) -> Result<Option<DateTime<Utc>>> {
        if self.initial > nominal {
            return Ok(None);
        }
        self.step(nominal, n).map(Some)
    }

    /// `coord:hoursInDay(n)`: 23, 24 or 25 for the local day of the nominal time
    /// shifted by n frequencies (not n days: for an hourly dataset n is hours);
    /// -1 when the initial instance is after the nominal time.
    pub fn hours_in_day(&self, nominal: DateTime<Utc>, n: i64) -> Result<i32> {
        let Some(t) = self.shifted_nominal(nominal, n)? else {
            return Ok(-1);
        };
        Ok(hours_in_local_day(&self.zone, t))
    }

    /// `coord:daysInMonth(n)`: the length of the local month of the nominal time
    /// shifted by n frequencies; -1 when the initial instance is after it.
    pub fn days_in_month(&self, nominal: DateTime<Utc>, n: i64) -> Result<i32> {
        let Some(t) = self.shifted_nominal(nominal, n)? else {
            return Ok(-1);
        };
        Ok(days_in_month(self.zone.local(t).date()) as i32)
    }

    /// The first instant of a range whose start-instance is
    /// `coord:endOfDays/endOfWeeks/endOfMonths(n)`
    /// (CoordCommandUtils.StartInstanceFinder.getStartInstance): the nominal
    /// time's date in the dataset zone at 00:00 (for weeks its Sunday, the en_US
    /// first day of the week; for months the 1st), then `n + 1` days, weeks or
    /// months later with `Calendar.add`. Oozie then expands the range as
    /// `coord:absoluteRange` from that instant. So `endOfDays(-1)` is 00:00 of
    /// the nominal day and `endOfMonths(-1)` the 1st of the nominal month.
    pub fn end_of_range_start(
        &self,
        nominal: DateTime<Utc>,
        unit: FrequencyUnit,
        n: i64,
    ) -> Result<DateTime<Utc>> {
        let date = self.zone.local(nominal).date();
        let date = match unit {
            FrequencyUnit::Month => date.with_day(1).ok_or(InstanceError::OutOfRange)?,
            FrequencyUnit::Week => {
                date - chrono::Days::new(date.weekday().num_days_from_sunday().into())
            }
            _ => date,
        };
        let midnight = from_fields(&self.zone, date.and_time(NaiveTime::MIN));
        let steps = n.checked_add(1).ok_or(InstanceError::OutOfRange)?;
        add(&self.zone, midnight, unit.calendar_unit(), steps).ok_or(InstanceError::OutOfRange)
    }

    /// `coord:tzOffset()`: the dataset zone's offset minus the job zone's at the
    /// nominal time, in minutes, DST included (`TimeZone.getOffset`).
    pub fn tz_offset(&self, nominal: DateTime<Utc>, job_zone: &Zone) -> i32 {
        (self.zone.offset_seconds(nominal) - job_zone.offset_seconds(nominal)) / 60
    }
}

/// Instants from Unix timestamps (seconds), reusing the calendar date of the
/// previous one when the day is the same: turning a day count into a date is
/// most of the cost of an instant, and a range of instances spans few days.
#[derive(Default)]
struct Instants {
    last: Option<(i64, chrono::NaiveDate)>,
}

impl Instants {
    fn at(&mut self, timestamp: i64) -> Option<DateTime<Utc>> {
        let (day, second) = (timestamp.div_euclid(86_400), timestamp.rem_euclid(86_400));
        let date = match self.last {
            Some((last_day, date)) if last_day == day => date,
            _ => {
                let date = DateTime::from_timestamp(day.checked_mul(86_400)?, 0)?.date_naive();
                self.last = Some((day, date));
                date
            }
        };
        let time = NaiveTime::from_num_seconds_from_midnight_opt(second as u32, 0)?;
        Some(date.and_time(time).and_utc())
    }
}

/// Oozie's loops of one `Calendar.add` of the frequency after another, bounded
/// by [`MAX_STEPS`].
struct Walk<'c> {
    clock: &'c DatasetClock,
    at: DateTime<Utc>,
    /// Frequencies moved, net (backward steps count negative).
    steps: i64,
    /// Steps taken, for the bound.
    taken: i64,
}

impl Walk<'_> {
    /// Comes near `target` before the caller's loop walks to it one
    /// frequency at a time: when the steps are regular
    /// ([`DatasetClock::steps_are_regular`]) it jumps, with one add, to one
    /// frequency short of the estimate, so the loop still arrives from the
    /// same side in a step or two; otherwise a target further than the
    /// steps left is [`InstanceError::TooFar`] at once, not after walking.
    fn approach(&mut self, target: DateTime<Utc>) -> Result<()> {
        let distance = self.clock.units_between(self.at, target) / self.clock.frequency.count;
        if self.clock.steps_are_regular() {
            let by = distance - distance.signum();
            if by != 0 {
                self.at = self.clock.step(self.at, by)?;
                self.steps += by;
            }
            return Ok(());
        }
        if distance.saturating_abs() - 1 > MAX_STEPS - self.taken {
            return Err(InstanceError::TooFar);
        }
        Ok(())
    }

    fn step(&mut self, by: i64) -> Result<()> {
        self.taken += 1;
        if self.taken > MAX_STEPS {
            return Err(InstanceError::TooFar);
        }
        self.at = self.clock.step(self.at, by)?;
        self.steps += by;
        Ok(())
    }
}

/// `DateUtils.hoursInDay`: 00:30 local of `t`'s date plus 24 hours lands at
/// 01:30 after a 23-hour day, 23:30 after a 25-hour day.
pub fn hours_in_local_day(zone: &Zone, t: DateTime<Utc>) -> i32 {
    let half_past_midnight = NaiveTime::MIN + Duration::minutes(30);
    let start = from_fields(zone, zone.local(t).date().and_time(half_past_midnight));
    match zone.local(start + Duration::hours(24)).hour() {
        1 => 23,
        23 => 25,
        _ => 24,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::datetime::format_utc;

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    fn clock(
        initial: &str,
        count: i64,
        unit: FrequencyUnit,
        end_of: bool,
        zone: &str,
    ) -> DatasetClock {
        let frequency = Frequency {
            count,
            unit,
            end_of,
        };
        DatasetClock::new(at(initial), frequency, Zone::parse(zone).unwrap()).unwrap()
    }

    #[test]
    fn a_frequency_not_greater_than_zero_makes_no_clock() {
        // The crash of issue 19: `elapsed / count` divided by zero.
        for count in [0, -1, i64::from(i32::MIN), i64::MIN] {
            let frequency = Frequency {
                count,
                unit: FrequencyUnit::Minute,
                end_of: false,
            };
            let zone = Zone::parse("UTC").unwrap();
            let got = DatasetClock::new(at("2023-01-01T00:00:00Z"), frequency, zone);
            assert_eq!(got.unwrap_err(), InstanceError::NotPositive, "{count}");
        }
    }

    #[test]
    fn a_frequency_longer_than_the_calendar_has_its_initial_instance() {
        // 2^31-1 days or months: the next instance is past chrono's calendar
        // (Java's reaches it), so the initial instance is current.
        let nominal = at("2024-01-01T00:00:00Z");
        for unit in [FrequencyUnit::Day, FrequencyUnit::Month] {
            let c = clock(
                "2023-01-01T00:00:00Z",
                i64::from(i32::MAX),
                unit,
                false,
                "UTC",
            );
            assert_eq!(
                show(c.current(nominal, 0).unwrap()),
                "2023-01-01T00:00Z",
                "{unit:?}"
            );
            // Instances past either end of chrono's calendar are errors (a
            // range is listed by stepping from its first instance).
            assert_eq!(
                c.current_range(nominal, -1, 0),
                Err(InstanceError::OutOfRange),
                "{unit:?}"
            );
            assert_eq!(
                c.current(nominal, 1),
                Err(InstanceError::OutOfRange),
                "{unit:?}"
            );
        }
    }

    #[test]
    fn extreme_indexes_are_errors_or_empty_never_panics() {
        let nominal = at("2024-01-01T00:00:00Z");
        for unit in [
            FrequencyUnit::Minute,
            FrequencyUnit::Day,
            FrequencyUnit::Month,
        ] {
            let c = clock("2023-01-01T00:00:00Z", 1, unit, false, "America/New_York");
            let extremes = [
                0,
                -1,
                1,
                i64::from(i32::MIN),
                i64::from(i32::MAX),
                i64::MIN,
                i64::MAX,
            ];
            for n in extremes {
                // A range whose start is after its end is empty (the dry run
                // reports it, CO005); one too long is refused.
                if let Some(after) = n.checked_add(1) {
                    assert_eq!(
                        c.current_range(nominal, after, n),
                        Ok(Vec::new()),
                        "{unit:?} {n}"
                    );
                }
                let _ = c.current(nominal, n);
                let _ = c.current_range(nominal, n, 0);
                let _ = c.current_range(nominal, 0, n);
                let _ = c.hours_in_day(nominal, n);
                let _ = c.days_in_month(nominal, n);
                for offset_unit in [CalendarUnit::Minute, CalendarUnit::Day, CalendarUnit::Year] {
                    let _ = c.offset(nominal, n, offset_unit);
                    let _ = c.offset_range(nominal, (n, offset_unit), (0, offset_unit));
                }
            }
            assert_eq!(
                c.current_range(nominal, i64::MIN, i64::MAX),
                Err(InstanceError::RangeTooLong)
            );
        }
    }

    /// Oozie prints 00:00 as 00:00 of the day; the spec writes it as 24:00 of the
    /// day before.
    fn show(t: Option<DateTime<Utc>>) -> String {
        t.map(format_utc).unwrap_or_default()
    }

    // Spec §6.6.1 example 1: 'logs' (daily from 2009-01-01T24:00Z) and
    // 'weeklySiteAccessStats' (every 7 days from 2009-01-07T24:00Z), action at
    // 2009-05-29T24:00Z. The spec's 24:00 times are written as 00:00 of the next day.
    fn logs() -> DatasetClock {
        clock("2009-01-02T00:00:00Z", 1, FrequencyUnit::Day, false, "UTC")
    }

    fn weekly() -> DatasetClock {
        clock("2009-01-08T00:00:00Z", 7, FrequencyUnit::Day, false, "UTC")
    }

    const ACTION: &str = "2009-05-30T00:00:00Z";

    #[test]
    fn spec_6_6_1_current() {
        let table = [
            (0, "2009-05-30T00:00Z", "2009-05-28T00:00Z"),
            (1, "2009-05-31T00:00Z", "2009-06-04T00:00Z"),
            (-1, "2009-05-29T00:00Z", "2009-05-21T00:00Z"),
            (-3, "2009-05-27T00:00Z", "2009-05-07T00:00Z"),
        ];
        for (n, want_logs, want_weekly) in table {
            assert_eq!(
                show(logs().current(at(ACTION), n).unwrap()),
                want_logs,
                "logs current({n})"
            );
            assert_eq!(
                show(weekly().current(at(ACTION), n).unwrap()),
                want_weekly,
                "weekly current({n})"
            );
        }
    }

    #[test]
    fn spec_6_6_2_offset_rewinds() {
        use CalendarUnit::*;
        // (equivalent calls, 'logs' instance, 'weeklySiteAccessStats' instance)
        type Row = (&'static [(i64, CalendarUnit)], &'static str, &'static str);
        let table: &[Row] = &[
            (
                &[(0, Minute), (0, Hour), (0, Day), (0, Month), (0, Year)],
                "2009-05-30T00:00Z",
                "2009-05-28T00:00Z",
            ),
            (
                &[(1440, Minute), (24, Hour), (1, Day)],
                "2009-05-31T00:00Z",
                "2009-05-28T00:00Z",
            ),
            (
                &[(-1440, Minute), (-24, Hour), (-1, Day)],
                "2009-05-29T00:00Z",
                "2009-05-21T00:00Z",
            ),
            (
                &[(-4320, Minute), (-72, Hour), (-3, Day)],
                "2009-05-27T00:00Z",
                "2009-05-21T00:00Z",
            ),
            (
                &[(11520, Minute), (192, Hour), (8, Day)],
                "2009-06-07T00:00Z",
                "2009-06-04T00:00Z",
            ),
            (&[(10, Minute)], "2009-05-30T00:00Z", "2009-05-28T00:00Z"),
        ];
        for (calls, want_logs, want_weekly) in table {
            for &(n, unit) in *calls {
                assert_eq!(
                    show(logs().offset(at(ACTION), n, unit).unwrap()),
                    *want_logs,
                    "logs offset({n}, {unit:?})"
                );
                assert_eq!(
                    show(weekly().offset(at(ACTION), n, unit).unwrap()),
                    *want_weekly,
                    "weekly offset({n}, {unit:?})"
                );
            }
        }
    }

    #[test]
    fn spec_6_6_2_offset_range_fast_forwards_its_start() {
        // Hourly 'logs' from 2009-01-01T01:00Z; start offset(-90, MINUTE) is
        // fast-forwarded to current(-1), end offset(0, DAY) is current(0).
        let hourly = clock(
            "2009-01-01T01:00:00Z",
            60,
            FrequencyUnit::Minute,
            false,
            "UTC",
        );
        let got = hourly
            .offset_range(
                at("2009-01-03T00:00:00Z"),
                (-90, CalendarUnit::Minute),
                (0, CalendarUnit::Day),
            )
            .unwrap();
        let got: Vec<_> = got.into_iter().map(format_utc).collect();
        assert_eq!(got, ["2009-01-03T00:00Z", "2009-01-02T23:00Z"]);
        // The same start as a single instance rewinds instead.
        assert_eq!(
            show(
                hourly
                    .offset(at("2009-01-03T00:00:00Z"), -90, CalendarUnit::Minute)
                    .unwrap()
            ),
            "2009-01-02T22:00Z"
        );
    }

    /// A long `offset` range of a daily dataset syncs every instance from the
    /// initial one, as Oozie does; one walk forward serves them all (a walk
    /// each was quadratic: 30,000 days took half a minute).
    #[test]
    fn a_long_offset_range_is_one_walk() {
        let daily = clock("1970-01-01T00:00:00Z", 1, FrequencyUnit::Day, false, "UTC");
        let got = daily
            .offset_range(
                at("2024-01-01T00:00:00Z"),
                (-30_000, CalendarUnit::Day),
                (0, CalendarUnit::Day),
            )
            .unwrap();
        // Newest first, down to the initial instance (the older ones are
        // before it, and dropped): 19,724 days from 1970 to 2024.
        assert_eq!(got.len(), 19_724);
        assert_eq!(format_utc(got[0]), "2024-01-01T00:00Z");
        assert_eq!(format_utc(got[19_723]), "1970-01-01T00:00Z");
    }

    #[test]
    fn spec_6_6_3_hours_in_day() {
        // The spec says n counts days; in Oozie it counts dataset frequencies,
        // so the table is read with a daily dataset (CoordELFunctions.java:560-575
        // adds n dataset frequencies).
        let table = [
            ("2009-01-01T08:00:00Z", "UTC", false, 0, 24),
            ("2009-01-01T08:00:00Z", "America/Los_Angeles", false, 0, 24),
            ("2009-01-01T08:00:00Z", "America/Los_Angeles", false, -1, 24),
            ("2009-03-08T08:00:00Z", "UTC", false, 0, 24),
            ("2009-03-08T08:00:00Z", "Europe/London", false, 0, 24),
            ("2009-03-08T08:00:00Z", "America/Los_Angeles", false, 0, 23),
            ("2009-03-08T08:00:00Z", "America/Los_Angeles", false, 1, 24),
            ("2009-03-07T08:00:00Z", "America/Los_Angeles", true, 0, 24),
            ("2009-03-07T08:00:00Z", "America/Los_Angeles", true, 1, 23),
        ];
        for (nominal, zone, end_of, n, want) in table {
            let daily = clock("2008-01-01T08:00:00Z", 1, FrequencyUnit::Day, end_of, zone);
            assert_eq!(
                daily.hours_in_day(at(nominal), n),
                Ok(want),
                "{nominal} {zone} {end_of} {n}"
            );
        }
        // A 25-hour day, and n in an hourly dataset's unit: 24 hours later.
        let la = clock(
            "2008-01-01T08:00:00Z",
            1,
            FrequencyUnit::Day,
            false,
            "America/Los_Angeles",
        );
        assert_eq!(la.hours_in_day(at("2009-11-01T08:00:00Z"), 0), Ok(25));
        let hourly = clock(
            "2008-01-01T08:00:00Z",
            60,
            FrequencyUnit::Minute,
            false,
            "America/Los_Angeles",
        );
        assert_eq!(hourly.hours_in_day(at("2009-03-07T08:00:00Z"), 24), Ok(23));
        // Before the initial instance: -1.
        assert_eq!(la.hours_in_day(at("2007-01-01T00:00:00Z"), 0), Ok(-1));
    }

    #[test]
    fn spec_6_6_4_days_in_month() {
        // n counts months: a monthly dataset. The spec's `Americas/Los_Angeles`
        // is a typo for America/Los_Angeles (Oozie rejects the former).
        let table = [
            ("2008-02-01T00:00:00Z", "UTC", false, 0, 29),
            ("2009-02-01T00:00:00Z", "UTC", false, 0, 28),
            ("2009-02-01T00:00:00Z", "UTC", false, -1, 31),
            ("2009-03-01T00:00:00Z", "UTC", false, 1, 30),
            ("2009-02-01T00:00:00Z", "America/Los_Angeles", false, 0, 31),
            ("2008-02-01T00:00:00Z", "UTC", true, 0, 29),
            ("2008-02-01T00:00:00Z", "UTC", true, -1, 31),
            ("2009-02-01T00:00:00Z", "UTC", true, 0, 28),
            ("2009-02-01T00:00:00Z", "UTC", true, -1, 31),
            ("2009-03-01T00:00:00Z", "UTC", true, 1, 30),
            ("2009-02-01T00:00:00Z", "America/Los_Angeles", true, 0, 31),
        ];
        for (nominal, zone, end_of, n, want) in table {
            let monthly = clock(
                "2007-01-01T00:00:00Z",
                1,
                FrequencyUnit::Month,
                end_of,
                zone,
            );
            assert_eq!(
                monthly.days_in_month(at(nominal), n),
                Ok(want),
                "{nominal} {zone} {end_of} {n}"
            );
        }
    }

    #[test]
    fn spec_6_6_5_tz_offset() {
        // LA winter -480, summer -420 (DST included, as TimeZone.getOffset);
        // India +330 (the spec's "-330" has the wrong sign).
        let utc = Zone::utc();
        let la = clock(
            "2008-01-01T08:00:00Z",
            1,
            FrequencyUnit::Day,
            false,
            "America/Los_Angeles",
        );
        assert_eq!(la.tz_offset(at("2009-01-15T00:00:00Z"), &utc), -480);
        assert_eq!(la.tz_offset(at("2009-07-15T00:00:00Z"), &utc), -420);
        let india = clock(
            "2008-01-01T00:00:00Z",
            1,
            FrequencyUnit::Day,
            false,
            "Asia/Kolkata",
        );
        assert_eq!(india.tz_offset(at("2009-01-15T00:00:00Z"), &utc), 330);
        let paris = Zone::parse("Europe/Paris").unwrap();
        // Paris and LA switch DST on different weeks: 9 hours most of the year, 8 in between.
        assert_eq!(la.tz_offset(at("2009-01-15T00:00:00Z"), &paris), -540);
        assert_eq!(la.tz_offset(at("2009-03-20T00:00:00Z"), &paris), -480);
    }

    #[test]
    fn spec_6_6_11_instances_before_the_initial_one_are_dropped() {
        // Hourly logs from 2009-01-01T00:00Z; the first action (01:00) asks for
        // current(-23)..current(0) and gets 01:00 and the initial 00:00 (the spec
        // says one instance: Oozie keeps the initial instance itself).
        let hourly = clock(
            "2009-01-01T00:00:00Z",
            60,
            FrequencyUnit::Minute,
            false,
            "UTC",
        );
        let got: Vec<_> = hourly
            .current_range(at("2009-01-01T01:00:00Z"), -23, 0)
            .unwrap()
            .into_iter()
            .map(format_utc)
            .collect();
        assert_eq!(got, ["2009-01-01T01:00Z", "2009-01-01T00:00Z"]);
        // An action before the initial instance resolves nothing, even current(1).
        assert_eq!(hourly.current(at("2008-12-31T23:00:00Z"), 1), Ok(None));
    }

    #[test]
    fn monthly_offsets_that_oozie_cannot_resolve_are_reported() {
        // Jan 31 plus one month at a time is Feb 28, Mar 28; all at once Mar 31.
        let monthly = clock(
            "2009-01-31T00:00:00Z",
            1,
            FrequencyUnit::Month,
            false,
            "UTC",
        );
        assert_eq!(
            monthly.offset(at("2009-04-15T00:00:00Z"), 0, CalendarUnit::Month),
            Err(InstanceError::Diverged)
        );
        // current() adds once from the initial instance: Mar 31.
        assert_eq!(
            show(monthly.current(at("2009-04-15T00:00:00Z"), 0).unwrap()),
            "2009-03-31T00:00Z"
        );
    }

    /// Every minute from 2000 on, in UTC.
    fn minutely() -> DatasetClock {
        clock(
            "2000-01-01T00:00:00Z",
            1,
            FrequencyUnit::Minute,
            false,
            "UTC",
        )
    }

    /// A range of [`MAX_RANGE`] instances is listed; one more is refused,
    /// for `coord:current` and `coord:offset` ranges alike (the fuzzer's
    /// 7-million-instance range took 25 s and 1.1 GB).
    #[test]
    fn ranges_are_bounded() {
        let minutely = minutely();
        let nominal = at("2009-01-01T00:00:00Z");
        assert_eq!(
            minutely
                .current_range(nominal, -(MAX_RANGE - 1), 0)
                .map(|r| r.len()),
            Ok(MAX_RANGE as usize)
        );
        assert_eq!(
            minutely.current_range(nominal, -MAX_RANGE, 0),
            Err(InstanceError::RangeTooLong)
        );
        let offsets = |n: i64| {
            minutely.offset_range(
                nominal,
                (-n, CalendarUnit::Minute),
                (0, CalendarUnit::Minute),
            )
        };
        assert_eq!(
            offsets(MAX_RANGE - 1).map(|r| r.len()),
            Ok(MAX_RANGE as usize)
        );
        assert_eq!(offsets(MAX_RANGE), Err(InstanceError::RangeTooLong));
    }

    #[test]
    fn absurd_arguments_end() {
        let minutely = minutely();
        let nominal = at("2009-01-01T00:00:00Z");
        assert_eq!(minutely.current(nominal, -1_000_000_000), Ok(None));
        assert_eq!(
            minutely.current_range(nominal, -1_000_000_000, 0),
            Err(InstanceError::RangeTooLong)
        );
        // Nine years of minutes from the initial instance are divided, not walked.
        assert_eq!(
            show(minutely.offset(nominal, -90, CalendarUnit::Minute).unwrap()),
            "2008-12-31T22:30Z"
        );
        // Twenty million days in UTC: one add, where stepping and adding
        // agree (Oozie walks them all, to the same instance).
        let daily = clock("2000-01-01T00:00:00Z", 1, FrequencyUnit::Day, false, "UTC");
        assert_eq!(
            daily.offset(nominal, 20_000_000, CalendarUnit::Day),
            Ok(Some(nominal + Duration::days(20_000_000)))
        );
        assert_eq!(
            daily.current(nominal, i64::MAX),
            Err(InstanceError::OutOfRange)
        );
        // In a zone with DST each step is walked, and more than the bound is
        // refused before walking (the dryrun fuzz finding: an offset of
        // 2,949,120 months on a daily dataset walked 10^7 steps, 11 s).
        let new_york = clock(
            "2000-01-01T05:00:00Z",
            1,
            FrequencyUnit::Day,
            false,
            "America/New_York",
        );
        assert_eq!(
            new_york.offset(nominal, 2_949_120, CalendarUnit::Month),
            Err(InstanceError::TooFar)
        );
        assert_eq!(
            new_york.offset(nominal, 2_000_000, CalendarUnit::Day),
            Err(InstanceError::TooFar)
        );
    }

    /// Where the steps are regular, `coord:offset` jumps instead of walking
    /// from the initial instance; it must find what the walk finds, on
    /// either side of each instance.
    #[test]
    fn jumping_finds_what_walking_finds() {
        let walked = |clock: &DatasetClock, raw: DateTime<Utc>| {
            let mut walk = clock.walk(clock.initial);
            while walk.at < raw {
                walk.step(1).unwrap();
            }
            if walk.at > raw {
                walk.step(-1).unwrap();
            }
            walk.at
        };
        let clocks = [
            clock("2001-03-15T06:00:00Z", 1, FrequencyUnit::Day, false, "UTC"),
            clock(
                "2001-03-15T06:00:00Z",
                3,
                FrequencyUnit::Day,
                false,
                "GMT+05:30",
            ),
            clock(
                "2001-03-15T06:00:00Z",
                2,
                FrequencyUnit::Week,
                false,
                "Etc/GMT-3",
            ),
            clock(
                "2001-01-28T23:00:00Z",
                1,
                FrequencyUnit::Month,
                false,
                "UTC",
            ),
            clock(
                "2001-03-15T06:00:00Z",
                5,
                FrequencyUnit::Month,
                false,
                "EST",
            ),
            clock("2001-03-15T06:00:00Z", 1, FrequencyUnit::Month, true, "UTC"),
        ];
        for clock in &clocks {
            assert!(clock.steps_are_regular());
            for minutes in (1..600_i64).map(|i| i * 1_441 * 5 + i % 5 - 2) {
                let raw = clock.initial + Duration::minutes(minutes);
                assert_eq!(
                    clock.synced(raw, &mut clock.walk(clock.initial)),
                    Ok(Some(walked(clock, raw))),
                    "{clock:?} at {}",
                    format_utc(raw)
                );
            }
        }
        // Not regular: a zone with DST, and months from the 29th.
        for irregular in [
            clock(
                "2001-03-15T06:00:00Z",
                1,
                FrequencyUnit::Day,
                false,
                "Europe/Paris",
            ),
            clock(
                "2001-01-29T00:00:00Z",
                1,
                FrequencyUnit::Month,
                false,
                "UTC",
            ),
        ] {
            assert!(!irregular.steps_are_regular());
        }
    }

    /// Spec §7.2, use case 1: a daily New York job reads the hourly instances of
    /// ${coord:current(-(coord:hoursInDay(0) - 1))} .. ${coord:current(0)}. Its
    /// nominal times keep local midnight across DST, and on the 23-hour day the
    /// range holds 23 instances.
    #[test]
    fn spec_7_2_east_coast_daily_job() {
        use crate::time::frequency::nominal_times;
        let ny = Zone::parse("America/New_York").unwrap();
        let daily = Frequency {
            count: 1,
            unit: FrequencyUnit::Day,
            end_of: false,
        };
        let nominals: Vec<_> = nominal_times(
            daily,
            &ny,
            at("2009-03-07T05:00:00Z"),
            at("2009-03-10T04:00:00Z"),
            10,
        );
        let shown: Vec<_> = nominals.iter().copied().map(format_utc).collect();
        assert_eq!(
            shown,
            [
                "2009-03-07T05:00Z",
                "2009-03-08T05:00Z",
                "2009-03-09T04:00Z"
            ]
        );
        let eastlogs = clock(
            "2009-01-01T06:00:00Z",
            60,
            FrequencyUnit::Minute,
            false,
            "America/New_York",
        );
        let counts: Vec<_> = nominals
            .iter()
            .map(|&nominal| {
                let hours = eastlogs.hours_in_day(nominal, 0).unwrap() as i64;
                let range = eastlogs.current_range(nominal, -(hours - 1), 0).unwrap();
                (hours, range.len(), format_utc(*range.last().unwrap()))
            })
            .collect();
        assert_eq!(
            counts,
            [
                (24, 24, "2009-03-06T06:00Z".to_string()),
                (23, 23, "2009-03-07T07:00Z".to_string()),
                (24, 24, "2009-03-08T05:00Z".to_string()),
            ]
        );
    }

    /// An input range as `(count, oldest, newest)`.
    fn span_of(range: &[DateTime<Utc>]) -> (usize, String, String) {
        let newest = range.first().expect("a non-empty range");
        let oldest = range.last().expect("a non-empty range");
        (range.len(), format_utc(*oldest), format_utc(*newest))
    }

    fn expect(count: usize, oldest: &str, newest: &str) -> (usize, String, String) {
        (count, oldest.to_string(), newest.to_string())
    }

    /// Spec §7.1: a daily UTC job (India, +05:30, written as UTC times) reads
    /// current(-23) .. current(0) of an hourly dataset whose initial instance is
    /// the job start. The first action keeps only the initial instance (the 23
    /// before it are dropped, §6.6.11); from the second on, a day of 24.
    #[test]
    fn spec_7_1_india_daily_job() {
        let logs = clock(
            "2008-12-31T19:30:00Z",
            60,
            FrequencyUnit::Minute,
            false,
            "UTC",
        );
        let ranges: Vec<_> = [
            "2008-12-31T19:30:00Z",
            "2009-01-01T19:30:00Z",
            "2009-06-15T19:30:00Z",
        ]
        .iter()
        .map(|n| span_of(&logs.current_range(at(n), -23, 0).unwrap()))
        .collect();
        assert_eq!(
            ranges,
            [
                expect(1, "2008-12-31T19:30Z", "2008-12-31T19:30Z"),
                expect(24, "2008-12-31T20:30Z", "2009-01-01T19:30Z"),
                expect(24, "2009-06-14T20:30Z", "2009-06-15T19:30Z"),
            ]
        );
    }

    /// Spec §7.2, use case 2: a daily Los Angeles job (01:00 local) reads the New
    /// York logs with current(-(hoursInDay(0) - 1) - 3) .. current(-3) and the Los
    /// Angeles logs with current(-(hoursInDay(0) - 1)) .. current(0); hoursInDay
    /// is each dataset's own day. Around the US switch of 2009-03-08 both days
    /// have 23 hours. (The spec names the second dataset `estlogs` but reads
    /// `westlogs`, and writes `$coord:{current(...)}`: typos, corrected here.)
    #[test]
    fn spec_7_2_east_and_west_coast_daily_job() {
        use crate::time::frequency::nominal_times;
        let la = Zone::parse("America/Los_Angeles").unwrap();
        let daily = Frequency {
            count: 1,
            unit: FrequencyUnit::Day,
            end_of: false,
        };
        let nominals = nominal_times(
            daily,
            &la,
            at("2009-03-07T09:00:00Z"),
            at("2009-03-10T00:00:00Z"),
            10,
        );
        let shown: Vec<_> = nominals.iter().copied().map(format_utc).collect();
        assert_eq!(
            shown,
            [
                "2009-03-07T09:00Z",
                "2009-03-08T09:00Z",
                "2009-03-09T08:00Z"
            ]
        );
        let east = clock(
            "2009-01-01T06:00:00Z",
            60,
            FrequencyUnit::Minute,
            false,
            "America/New_York",
        );
        let west = clock(
            "2009-01-01T09:00:00Z",
            60,
            FrequencyUnit::Minute,
            false,
            "America/Los_Angeles",
        );
        let inputs: Vec<_> = nominals
            .iter()
            .map(|&nominal| {
                let east_hours = i64::from(east.hours_in_day(nominal, 0).unwrap());
                let west_hours = i64::from(west.hours_in_day(nominal, 0).unwrap());
                let ec = east
                    .current_range(nominal, -(east_hours - 1) - 3, -3)
                    .unwrap();
                let wc = west.current_range(nominal, -(west_hours - 1), 0).unwrap();
                (span_of(&ec), span_of(&wc))
            })
            .collect();
        assert_eq!(
            inputs,
            [
                (
                    expect(24, "2009-03-06T07:00Z", "2009-03-07T06:00Z"),
                    expect(24, "2009-03-06T10:00Z", "2009-03-07T09:00Z"),
                ),
                (
                    expect(23, "2009-03-07T08:00Z", "2009-03-08T06:00Z"),
                    expect(23, "2009-03-07T11:00Z", "2009-03-08T09:00Z"),
                ),
                (
                    expect(24, "2009-03-08T06:00Z", "2009-03-09T05:00Z"),
                    expect(24, "2009-03-08T09:00Z", "2009-03-09T08:00Z"),
                ),
            ]
        );
    }

    /// Spec §7.2, use case 3: a daily New York job reads the New York logs with
    /// current(-(hoursInDay(0) - 1)) .. current(-1) and the Berlin logs shifted by
    /// tzOffset()/60 hours, the Berlin-minus-New-York offset, which is 6 hours
    /// until the US switch (2009-03-08) and 5 until the European one
    /// (2009-03-29). (The spec's EU data-in reads `eastlogs`; it means
    /// `europelogs`, corrected here.)
    #[test]
    fn spec_7_2_east_coast_and_europe_daily_job() {
        let ny = Zone::parse("America/New_York").unwrap();
        let east = clock(
            "2009-01-01T06:00:00Z",
            60,
            FrequencyUnit::Minute,
            false,
            "America/New_York",
        );
        let europe = clock(
            "2009-01-01T01:00:00Z",
            60,
            FrequencyUnit::Minute,
            false,
            "Europe/Berlin",
        );
        let inputs: Vec<_> = ["2009-03-08T05:00:00Z", "2009-03-09T04:00:00Z"]
            .iter()
            .map(|n| {
                let nominal = at(n);
                let east_hours = i64::from(east.hours_in_day(nominal, 0).unwrap());
                let europe_hours = i64::from(europe.hours_in_day(nominal, 0).unwrap());
                // `coord:tzOffset()/60` is a Double in EL; coord:current takes an int.
                let shift = i64::from(europe.tz_offset(nominal, &ny) / 60);
                let ec = east.current_range(nominal, -(east_hours - 1), -1).unwrap();
                let eu = europe
                    .current_range(nominal, -(europe_hours - 1) - shift, -shift)
                    .unwrap();
                (shift, span_of(&ec), span_of(&eu))
            })
            .collect();
        assert_eq!(
            inputs,
            [
                (
                    6,
                    expect(22, "2009-03-07T07:00Z", "2009-03-08T04:00Z"),
                    expect(24, "2009-03-07T00:00Z", "2009-03-07T23:00Z"),
                ),
                (
                    5,
                    expect(23, "2009-03-08T05:00Z", "2009-03-09T03:00Z"),
                    expect(24, "2009-03-08T00:00Z", "2009-03-08T23:00Z"),
                ),
            ]
        );
    }
}
