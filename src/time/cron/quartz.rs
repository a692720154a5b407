//! One Quartz expression (seconds fixed at 0, every year): the sets its
//! fields select, and the search for its next fire time in Quartz's order
//! (`CronExpression.getTimeAfter`).

use chrono::{Datelike, Duration, NaiveDate, NaiveDateTime, Timelike};

/// Quartz's years start at 1970: a cron never fires before.
const FIRST_YEAR: i32 = 1970;

/// The last year Quartz 2.3.2 looks in for a fire time:
/// `CronExpression.MAX_YEAR`, the year the server loaded the class plus 100
/// (`getTimeAfter`: `if (cl.get(Calendar.YEAR) > MAX_YEAR) return null`).
/// A fact of the server, not of the application: an Oozie server started in
/// 2026 finds nothing after 2126, and refuses a cron that fires only later.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MaxYear(i32);

impl MaxYear {
    /// Quartz's bound on a server started (its JVM loading Quartz) in `year`.
    pub fn for_server_started_in(year: i32) -> MaxYear {
        MaxYear(year + 100)
    }
}

/// One Quartz expression (seconds fixed at 0, every year).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Quartz {
    pub(super) minutes: u64,
    pub(super) hours: u32,
    pub(super) months: u16,
    pub(super) month_days: MonthDays,
    pub(super) week_days: WeekDays,
}

impl Quartz {
    /// The first fire time after `after`, searched in Quartz's order
    /// (`CronExpression.getTimeAfter`): the time of day first (none left
    /// moves to the next day), then the day, then the month. Only `nW`
    /// depends on that order; the other day rules hold of a date alone.
    /// Nothing after `max_year`.
    pub(super) fn next_after(
        &self,
        after: NaiveDateTime,
        max_year: MaxYear,
    ) -> Option<NaiveDateTime> {
        // Fire times are whole minutes: start at the next minute.
        let first = after.with_second(0)?.with_nanosecond(0)? + Duration::minutes(1);
        let first = first.max(NaiveDate::from_ymd_opt(FIRST_YEAR, 1, 1)?.and_hms_opt(0, 0, 0)?);
        let mut date = first.date();
        let mut from_minute = first.hour() * 60 + first.minute();
        while date.year() <= max_year.0 {
            let Some(minute) = self.first_time_from(from_minute) else {
                date = date.succ_opt()?;
                from_minute = 0;
                continue;
            };
            if let MonthDays::NearestWeekday(target) = self.month_days {
                let to = nearest_weekday_turn(date, target, minute, after)?;
                if to != date {
                    date = to;
                    from_minute = 0;
                    continue;
                }
            }
            if self.months & (1 << date.month()) == 0 {
                date = first_of_next_month(date)?;
                from_minute = 0;
                continue;
            }
            if self.day_matches(date) {
                return date.and_hms_opt(minute / 60, minute % 60, 0);
            }
            date = date.succ_opt()?;
            from_minute = 0;
        }
        None
    }

    /// The first minute of the day (h × 60 + m) at or after `from` that fires.
    fn first_time_from(&self, from: u32) -> Option<u32> {
        (from / 60..24)
            .filter(|h| self.hours & (1 << h) != 0)
            .find_map(|h| {
                let low = if h == from / 60 { from % 60 } else { 0 };
                let mask = self.minutes & !((1u64 << low) - 1);
                (mask != 0).then(|| h * 60 + mask.trailing_zeros())
            })
    }

    fn day_matches(&self, date: NaiveDate) -> bool {
        let day = date.day();
        let last = crate::time::calendar::days_in_month(date);
        let weekday = date.weekday().number_from_sunday();
        match self.month_days {
            MonthDays::Unspecified => {}
            MonthDays::Set(bits) => return bits & (1 << day) != 0,
            MonthDays::Last {
                offset,
                weekday: false,
            } => return last.checked_sub(offset) == Some(day),
            MonthDays::Last {
                offset,
                weekday: true,
            } => {
                return last
                    .checked_sub(offset)
                    .filter(|d| *d >= 1)
                    .is_some_and(|target| nearest_weekday(date, target, last) == day);
            }
            MonthDays::NearestWeekday(target) => return nearest_weekday(date, target, last) == day,
        }
        match self.week_days {
            WeekDays::Unspecified => false,
            WeekDays::Set(bits) => bits & (1 << weekday) != 0,
            WeekDays::Last(d) => weekday == d && day + 7 > last,
            WeekDays::Nth(d, n) => weekday == d && (day - 1) / 7 + 1 == n,
        }
    }
}

/// Quartz's `W` rule: Saturday moves to Friday (or to Monday the 3rd when it is
/// the 1st), Sunday to Monday (or to Friday when it is the last day). Quartz
/// finds the weekday with a lenient calendar, so a day past the month's end
/// (`31W` in November) takes the weekday of the date it rolls over to.
fn nearest_weekday(in_month: NaiveDate, target: u32, last: u32) -> u32 {
    let from_day = i64::from(target) - i64::from(in_month.day());
    let Some(date) = in_month.checked_add_signed(Duration::days(from_day)) else {
        return 0;
    };
    match date.weekday().number_from_sunday() {
        7 if target == 1 => target + 2,
        7 => target - 1,
        1 if target == last => target - 2,
        1 => target + 1,
        _ => target,
    }
}

/// One turn of Quartz's `nW` search (`getTimeAfter`, the `nearestWeekday`
/// branch) standing on `date` at `minute` of the day: the date the search
/// moves to, or `date` itself when it fires there (None only past chrono's
/// calendar). Quartz takes the nearest weekday of the search's month; when
/// that time is not after `after`, it goes on from day n of the next month,
/// set on a lenient calendar. From the month before a month too short for n
/// (January for `30W`, or for `29W` outside leap years; the month before a
/// 30-day month for `31W`), day n of that month is in the month after, so the
/// short month never fires: `0 0 29W * ?` from
/// 2025-01-30 next fires on 2025-03-28, though 2025-02-28 is the Friday
/// nearest to 29 February (that one fires only when the search starts in
/// February). Oozie, searching from each fire time, skips it (C18 in
/// docs/robustness.md).
fn nearest_weekday_turn(
    date: NaiveDate,
    target: u32,
    minute: u32,
    after: NaiveDateTime,
) -> Option<NaiveDate> {
    let day = nearest_weekday(date, target, crate::time::calendar::days_in_month(date));
    let weekday =
        date.checked_add_signed(Duration::days(i64::from(day) - i64::from(date.day())))?;
    // Quartz's test is `nTime.before(afterTime)`, with afterTime one second
    // past `after`: a time at `after` itself has gone by too.
    if weekday.and_hms_opt(minute / 60, minute % 60, 0)? <= after {
        return first_of_next_month(date)?
            .checked_add_signed(Duration::days(i64::from(target) - 1));
    }
    Some(weekday)
}

fn first_of_next_month(date: NaiveDate) -> Option<NaiveDate> {
    let (y, m) = if date.month() == 12 {
        (date.year() + 1, 1)
    } else {
        (date.year(), date.month() + 1)
    };
    NaiveDate::from_ymd_opt(y, m, 1)
}

/// The days a day-of-month field selects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum MonthDays {
    /// `?`: the day-of-week field decides.
    Unspecified,
    /// Bit d for day d (1..=31).
    Set(u32),
    /// `L`, `L-n`, `LW`, `L-nW`.
    Last { offset: u32, weekday: bool },
    /// `nW`: the weekday nearest to day n, within the month.
    NearestWeekday(u32),
}

/// The days a day-of-week field selects (1=SUN … 7=SAT).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum WeekDays {
    Unspecified,
    /// Bit d for weekday d.
    Set(u8),
    /// `nL`: the last weekday n of the month.
    Last(u32),
    /// `n#k`: the k-th weekday n of the month.
    Nth(u32, u32),
}
