//! `java.util.GregorianCalendar` arithmetic in a zone, the primitive all of Oozie's
//! date arithmetic is built on (java.util.GregorianCalendar, as DateUtils.java uses it). chrono's defaults
//! differ in DST gaps and overlaps, so Java's rules are emulated here:
//! - `add(MINUTE|HOUR, n)` is absolute;
//! - `add(DATE|WEEK_OF_YEAR, n)` shifts the wall-clock date, converts with the
//!   source offset, then corrects once by the offset change unless that changes
//!   the date (GregorianCalendar.add): a wall time inside a spring-forward gap lands
//!   one hour *earlier*;
//! - `add(MONTH|YEAR, n)` and `set(...)` recompute from fields (computeTime): a wall
//!   time in a gap is read with the offset before the gap, one in an overlap as
//!   the later (standard-time) occurrence.

use super::zone::Zone;
use chrono::{DateTime, Datelike, Duration, Months, NaiveDate, NaiveDateTime, Utc};

/// The units of `Calendar.add` that Oozie's `TimeUnit` names (`dateOffset`,
/// `offset`, frequencies).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CalendarUnit {
    Minute,
    Hour,
    Day,
    Week,
    Month,
    Year,
}

impl CalendarUnit {
    pub const ALL: [CalendarUnit; 6] = [
        CalendarUnit::Minute,
        CalendarUnit::Hour,
        CalendarUnit::Day,
        CalendarUnit::Week,
        CalendarUnit::Month,
        CalendarUnit::Year,
    ];

    /// `TimeUnit.valueOf(name)` for the units with a calendar field.
    pub fn parse(name: &str) -> Option<CalendarUnit> {
        Some(match name {
            "MINUTE" => CalendarUnit::Minute,
            "HOUR" => CalendarUnit::Hour,
            "DAY" => CalendarUnit::Day,
            "WEEK" => CalendarUnit::Week,
            "MONTH" => CalendarUnit::Month,
            "YEAR" => CalendarUnit::Year,
            _ => return None,
        })
    }
}

/// `Calendar.add(unit, n)` in `zone`; `None` when the result is out of range.
pub fn add(zone: &Zone, t: DateTime<Utc>, unit: CalendarUnit, n: i64) -> Option<DateTime<Utc>> {
    // `GregorianCalendar.add` returns at once for 0: the wall time is not
    // read again, which in a fall-back overlap would give the later instant.
    if n == 0 {
        return Some(t);
    }
    match unit {
        CalendarUnit::Minute => add_minutes(t, n),
        CalendarUnit::Hour => add_minutes(t, n.checked_mul(60)?),
        CalendarUnit::Day => add_days(zone, t, n),
        CalendarUnit::Week => add_days(zone, t, n.checked_mul(7)?),
        CalendarUnit::Month => add_months(zone, t, n),
        CalendarUnit::Year => add_months(zone, t, n.checked_mul(12)?),
    }
}

pub fn days_in_month(date: NaiveDate) -> u32 {
    match date.month() {
        2 if date.leap_year() => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// The first and last second (Unix time) of the instants coordc computes
/// with: chrono's calendar (years -262143 to 262142) less two days at each
/// end, so that any wall time of an instant (an offset is under a day) and
/// the days around it that [`from_fields`] reads stay in the calendar.
/// Every instant comes from a parsed datetime or from [`add`], which keep to
/// this range; out of it is "out of range", never a panic.
pub(crate) const FIRST_SECOND: i64 = -8_334_601_228_800 + 2 * 86_400;
pub(crate) const LAST_SECOND: i64 = 8_210_266_876_799 - 2 * 86_400;

/// Whether `t` is in the range of [`FIRST_SECOND`]..=[`LAST_SECOND`].
pub fn in_range(t: DateTime<Utc>) -> bool {
    (FIRST_SECOND..=LAST_SECOND).contains(&t.timestamp())
}

/// `Calendar.add(MINUTE, n)`: absolute. `None` when out of range.
pub(crate) fn add_minutes(t: DateTime<Utc>, n: i64) -> Option<DateTime<Utc>> {
    // On the timestamp: the same instant as `checked_add_signed`, at a fraction
    // of the cost (nominal times and instances step by minutes millions of times).
    let seconds = t.timestamp().checked_add(n.checked_mul(60)?)?;
    if !(FIRST_SECOND..=LAST_SECOND).contains(&seconds) {
        return None;
    }
    DateTime::from_timestamp(seconds, t.timestamp_subsec_nanos())
}

/// `Calendar.add(DATE, n)` in `zone`.
pub(crate) fn add_days(zone: &Zone, t: DateTime<Utc>, n: i64) -> Option<DateTime<Utc>> {
    let source_offset = zone.offset_seconds(t) as i64;
    // The wall time `n` days on, read with the source offset, is `t` plus
    // `n` whole days (on the timestamp: chrono's date arithmetic is most of
    // the cost, and instances step by days thousands of times a file).
    let first = add_minutes(t, n.checked_mul(24 * 60)?)?;
    let change = source_offset - zone.offset_seconds(first) as i64;
    if change == 0 {
        return Some(first);
    }
    let local = first.naive_utc() + Duration::seconds(source_offset);
    let corrected = first + Duration::seconds(change);
    // The correction must not move the date (GregorianCalendar.add checks the
    // fixed date again and undoes it if it did).
    if zone.local(corrected).date() == local.date() {
        Some(corrected)
    } else {
        Some(first)
    }
}

/// `Calendar.add(MONTH, n)` in `zone`: the day is clamped to the new month's length.
pub(crate) fn add_months(zone: &Zone, t: DateTime<Utc>, n: i64) -> Option<DateTime<Utc>> {
    let local = zone.local(t);
    let months = Months::new(u32::try_from(n.unsigned_abs()).ok()?);
    let shifted = if n >= 0 {
        local.checked_add_months(months)?
    } else {
        local.checked_sub_months(months)?
    };
    if !in_range(shifted.and_utc()) {
        return None;
    }
    Some(from_fields(zone, shifted))
}

/// The instant of wall time `local` in `zone`, as `GregorianCalendar.computeTime`
/// reads it.
pub(crate) fn from_fields(zone: &Zone, local: NaiveDateTime) -> DateTime<Utc> {
    // Try the offsets in force a day before and a day after: a wall time is
    // valid under an offset when converting back gives the same wall time.
    let as_utc = local.and_utc();
    let before = zone.offset_seconds(as_utc - Duration::days(1)) as i64;
    let after = zone.offset_seconds(as_utc + Duration::days(1)) as i64;
    let with = |offset: i64| (local - Duration::seconds(offset)).and_utc();
    let valid = |offset: i64| zone.offset_seconds(with(offset)) as i64 == offset;
    match (valid(before), valid(after)) {
        // Unique, or an overlap: the later instant is the one with the smaller offset.
        (true, true) => with(before.min(after)),
        (true, false) => with(before),
        (false, true) => with(after),
        // A gap: read with the offset before it, which lands after the gap.
        (false, false) => with(before),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::datetime::format_utc;

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    fn la() -> Zone {
        Zone::parse("America/Los_Angeles").unwrap()
    }

    #[test]
    fn days_in_months() {
        let d = |y, m| days_in_month(NaiveDate::from_ymd_opt(y, m, 1).unwrap());
        assert_eq!(
            (d(2009, 2), d(2012, 2), d(1900, 2), d(2000, 2), d(2009, 4)),
            (28, 29, 28, 29, 30)
        );
    }

    #[test]
    fn daily_steps_keep_wall_clock_across_dst() {
        // 00:00 PST → 00:00 PDT across 2009-03-08.
        let t = add_days(&la(), at("2009-03-08T08:00:00Z"), 1).unwrap();
        assert_eq!(format_utc(t), "2009-03-09T07:00Z");
        // A wall time in the gap lands one hour earlier: TestCoordELFunctions.java:475.
        let t = add_days(&la(), at("2009-03-07T10:00:00Z"), 1).unwrap();
        assert_eq!(format_utc(t), "2009-03-08T09:00Z");
        // Overlap: keeps the source's offset (01:30 PDT).
        let t = add_days(&la(), at("2009-10-31T08:30:00Z"), 1).unwrap();
        assert_eq!(format_utc(t), "2009-11-01T08:30Z");
        // London 01:30 in the gap → 00:30Z.
        let london = Zone::parse("Europe/London").unwrap();
        let t = add_days(&london, at("2009-03-28T01:30:00Z"), 1).unwrap();
        assert_eq!(format_utc(t), "2009-03-29T00:30Z");
    }

    #[test]
    fn field_arithmetic_reads_gaps_and_overlaps_as_java() {
        let local = |s: &str| NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M").unwrap();
        // Gap 02:30 → 03:30 PDT; overlap 01:30 → the PST occurrence.
        assert_eq!(
            format_utc(from_fields(&la(), local("2009-03-08 02:30"))),
            "2009-03-08T10:30Z"
        );
        assert_eq!(
            format_utc(from_fields(&la(), local("2009-11-01 01:30"))),
            "2009-11-01T09:30Z"
        );
        assert_eq!(
            format_utc(from_fields(&la(), local("2009-07-01 12:00"))),
            "2009-07-01T19:00Z"
        );
        // Month steps clamp the day.
        let t = add_months(&Zone::utc(), at("2009-01-31T00:00:00Z"), 1).unwrap();
        assert_eq!(format_utc(t), "2009-02-28T00:00Z");
    }

    /// `GregorianCalendar.add(field, 0)` returns at once: 01:30 PDT, the
    /// first of the two 01:30s of the fall-back night, stays itself, where
    /// reading its wall time again would give the second (differential
    /// fuzzing finding K1, the JDK's answer).
    #[test]
    fn adding_zero_keeps_the_instant() {
        let first_half_hour = at("2009-11-01T08:30:00Z");
        for unit in CalendarUnit::ALL {
            assert_eq!(
                add(&la(), first_half_hour, unit, 0),
                Some(first_half_hour),
                "{unit:?}"
            );
        }
        assert_eq!(
            add(&la(), first_half_hour, CalendarUnit::Month, 1).map(format_utc),
            Some("2009-12-01T09:30Z".to_string())
        );
    }

    #[test]
    fn the_range_is_the_calendars_less_two_days() {
        let first = NaiveDate::MIN
            .and_hms_opt(0, 0, 0)
            .unwrap()
            .and_utc()
            .timestamp();
        let last = NaiveDate::MAX
            .and_hms_opt(23, 59, 59)
            .unwrap()
            .and_utc()
            .timestamp();
        assert_eq!(
            (FIRST_SECOND, LAST_SECOND),
            (first + 2 * 86_400, last - 2 * 86_400)
        );
        // At the ends, every unit is out of range, in any zone, not a panic.
        let zone = Zone::parse("Pacific/Kiritimati").unwrap();
        let end = DateTime::from_timestamp(LAST_SECOND, 0).unwrap();
        let start = DateTime::from_timestamp(FIRST_SECOND, 0).unwrap();
        for unit in CalendarUnit::ALL {
            assert_eq!(add(&zone, end, unit, 1), None, "{unit:?}");
            assert_eq!(add(&zone, start, unit, -1), None, "{unit:?}");
            assert_eq!(add(&zone, end, unit, i64::MIN), None, "{unit:?}");
            let _ = zone.local(end);
            let _ = zone.local(start);
        }
    }
}
