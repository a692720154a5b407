//! Cron frequencies that Oozie accepts but that rarely mean what was
//! written: Unix day-of-week numbers (Quartz counts 1=SUN..7=SAT), ranges that
//! wrap around, both day fields given (Oozie fires on either), and a cron in a
//! job whose zone is not the processing zone (Oozie evaluates cron in the
//! processing zone), text Quartz reads other than as written (steps it
//! reduces to one value, what it ignores after a name).
//! CoordCommandUtils.java:800-865.

use crate::diag::Diagnostic;
use crate::diag::Located;
use crate::diag::fixes::FixKind;
use crate::diag::rules::{
    CRON_BOTH_DAYS, CRON_QUARTZ_READING, CRON_UNIX_WEEKDAYS, CRON_WRAPS, CRON_ZONE,
};
use crate::ir::Coordinator;
use crate::oozie::job::{Job, Schedule};
use crate::span::Span;
use crate::time::cron::Cron;
use crate::time::datetime::ProcessingZone;
use crate::time::zone::Zone;
use chrono::{DateTime, Utc};

const FIELD_NAMES: [&str; 5] = ["minute", "hour", "day-of-month", "month", "day-of-week"];
const QUARTZ_DAYS: [&str; 8] = ["", "SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"];
const UNIX_DAYS: [&str; 8] = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN"];

pub(crate) fn check(app: &Coordinator, job: &Job) -> Vec<Located> {
    let Schedule::Cron(cron) = job.schedule() else {
        return Vec::new();
    };
    let base = app.frequency.span.start as usize;
    let literal = app.frequency.literal_span().is_some();
    let mut out = expression(cron, base, literal);
    out.extend(zone_shift(
        app.frequency.span,
        cron,
        &job.zone,
        job.processing_zone(),
        job.nominal_times_all().next(),
    ));
    out.into_iter().map(Located::in_app).collect()
}

/// What the cron's own text says other than it seems to (CR005, CR006,
/// CR007, CR009), whatever the job: `coordc check` reports them for a
/// coordinator's cron frequency, `coordc cron` for the expression it lists.
/// Spans are `base` plus offsets in the cron's text; `literal` is whether
/// that text is written as it is in the file (a fix can then edit it).
pub(crate) fn expression(cron: &Cron, base: usize, literal: bool) -> Vec<Diagnostic> {
    let span = |(s, e): (usize, usize)| Span::new(base + s, base + e);
    let mut out = Vec::new();
    let (weekdays, weekdays_at) = cron.field(4);
    // Numbers are ambiguous; a reading that puts weekend days where the other
    // reading has business days is the likely mistake (`1-5`: SUN-THU, where
    // Unix means MON-FRI), while `2-6` (MON-FRI, Unix TUE-SAT) is Oozie's own
    // way of writing weekdays. (A number Quartz has no day for is CR002.)
    if weekdays.bytes().any(|b| b.is_ascii_digit())
        && let Some(quartz) = rename_days(weekdays, &QUARTZ_DAYS)
        && rename_days(weekdays, &UNIX_DAYS)
            .is_none_or(|u| weekend_days(&quartz) > weekend_days(&u))
    {
        let unix = rename_days(weekdays, &UNIX_DAYS);
        let d = Diagnostic::warning(
            CRON_UNIX_WEEKDAYS,
            span(weekdays_at),
            format!(
                "day-of-week `{weekdays}` is {quartz} in Oozie: its cron counts days as Quartz does, 1=SUN to 7=SAT, not as Unix cron (0=SUN, 1=MON)"
            ),
        );
        // (The fix writes the Unix meaning, the one the numbers were
        // likely meant in; only where the cron is written as it is.)
        out.push(match unix {
            Some(unix) if unix != quartz => {
                let d = d.with_help(format!(
                    "write day names: `{unix}` if the Unix meaning was intended, `{quartz}` to keep Oozie's"
                ));
                if literal {
                    d.with_fix(FixKind::CronDayNames, span(weekdays_at), unix)
                } else {
                    d
                }
            }
            _ => d.with_help(format!("write day names, `{quartz}`, to say so")),
        });
    }
    for (i, name) in FIELD_NAMES.iter().enumerate() {
        let (text, at) = cron.field(i);
        for range in wrapping_ranges(text, i) {
            out.push(
                Diagnostic::warning(
                    CRON_WRAPS,
                    span(at),
                    format!(
                        "{name} range `{range}` runs backwards: Quartz wraps it around the end of the field"
                    ),
                )
                .with_help("write the two parts as a list (e.g. `22-23,0-2` for `22-2`) so the wrap is plain to read"),
            );
        }
    }
    for quirk in cron.quirks() {
        out.push(
            Diagnostic::warning(
                CRON_QUARTZ_READING,
                span((quirk.start, quirk.end)),
                format!("{}; Oozie fires accordingly", quirk.message),
            )
            .with_help("write what Quartz reads, or the list of values that was meant"),
        );
    }
    if cron.both_day_fields() {
        let (days, days_at) = cron.field(2);
        out.push(
            Diagnostic::warning(
                CRON_BOTH_DAYS,
                span((days_at.0, weekdays_at.1)),
                format!(
                    "both day fields are given (`{days}` and `{weekdays}`): Oozie fires on every day that matches either, not only on days that match both"
                ),
            )
            .with_help("put `?` in one of the two day fields if only the other is meant"),
        );
    }
    out
}

/// A cron evaluated in the processing zone `pz` for a job in `zone`, another
/// zone at its first action `first`: that time, as it reads in both zones
/// (CR008). `span` is where the cron is written.
pub(crate) fn zone_shift(
    span: Span,
    cron: &Cron,
    zone: &Zone,
    pz: ProcessingZone,
    first: Option<DateTime<Utc>>,
) -> Option<Diagnostic> {
    let first = first?;
    if zone.offset_seconds(first) == pz.offset_minutes * 60 {
        return None;
    }
    let local = zone.local(first).format("%Y-%m-%d %H:%M");
    Some(
        Diagnostic::warning(
            CRON_ZONE,
            span,
            format!(
                "Oozie evaluates the cron `{}` in the processing zone ({}), not in the job's {}: the first action is at {} there, {local} in {}",
                cron.text(),
                pz.zone().id(),
                zone.id(),
                pz.zone().local(first).format("%Y-%m-%d %H:%M"),
                zone.id()
            ),
        )
        .with_help("write the hours in the processing zone's time; since Oozie 5.1 daily and longer crons then follow the job zone's DST switches, shorter ones do not"),
    )
}

/// The field with each day number renamed by `names` (Quartz's or Unix's
/// numbering), or `None` when a number is out of that numbering. Numbers after
/// `/` (a step) or `#` (the n-th weekday) are not days.
fn rename_days(field: &str, names: &[&str; 8]) -> Option<String> {
    let mut out = String::new();
    let mut chars = field.char_indices().peekable();
    let mut previous = None;
    while let Some((i, c)) = chars.next() {
        if c.is_ascii_digit() && !matches!(previous, Some('/' | '#')) {
            let mut end = i + 1;
            while let Some(&(j, d)) = chars.peek() {
                if !d.is_ascii_digit() {
                    break;
                }
                end = j + 1;
                chars.next();
            }
            let n: usize = field[i..end].parse().ok()?;
            out.push_str(names.get(n).filter(|s| !s.is_empty())?);
            previous = field[..end].chars().last();
            continue;
        }
        out.push(c);
        previous = Some(c);
    }
    Some(out)
}

/// How many of SAT and SUN a day-of-week field in day names selects.
fn weekend_days(names: &str) -> usize {
    let mut days = [false; 8];
    // Positions in QUARTZ_DAYS, so always inside `days`.
    let mut mark = |d: usize| {
        if let Some(day) = days.get_mut(d) {
            *day = true;
        }
    };
    for item in names.split(',') {
        let day = item.split(['/', '#', 'L']).next().unwrap_or("");
        let index = |d: &str| QUARTZ_DAYS.iter().position(|n| !n.is_empty() && *n == d);
        match day.split_once('-') {
            Some((a, b)) => {
                if let (Some(a), Some(b)) = (index(a), index(b)) {
                    let mut d = a;
                    loop {
                        mark(d);
                        if d == b {
                            break;
                        }
                        d = if d == 7 { 1 } else { d + 1 };
                    }
                }
            }
            None => {
                if let Some(d) = index(day) {
                    mark(d);
                }
            }
        }
    }
    let [_, sun, .., sat] = days;
    usize::from(sun) + usize::from(sat)
}

/// The `a-b` ranges of a field with `a > b` (numbers only; a day or month
/// name range such as `FRI-MON` wraps the same way).
fn wrapping_ranges(field: &str, index: usize) -> Vec<String> {
    field
        .split(',')
        .filter_map(|item| {
            let range = item.split('/').next()?;
            let (a, b) = range.split_once('-')?;
            let value = |s: &str| -> Option<u32> {
                s.parse().ok().or_else(|| match index {
                    3 => MONTHS
                        .iter()
                        .position(|m| m.eq_ignore_ascii_case(s))
                        .map(|p| p as u32 + 1),
                    4 => QUARTZ_DAYS
                        .iter()
                        .position(|d| !d.is_empty() && d.eq_ignore_ascii_case(s))
                        .map(|p| p as u32),
                    _ => None,
                })
            };
            (value(a)? > value(b)?).then(|| range.to_string())
        })
        .collect()
}

const MONTHS: [&str; 12] = [
    "JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn day_numbers_read_as_quartz_and_as_unix() {
        // TestCoordCommandUtils:285-292: `2-6` is MON-FRI in Oozie.
        assert_eq!(rename_days("2-6", &QUARTZ_DAYS).as_deref(), Some("MON-FRI"));
        assert_eq!(rename_days("1-5", &QUARTZ_DAYS).as_deref(), Some("SUN-THU"));
        assert_eq!(rename_days("1-5", &UNIX_DAYS).as_deref(), Some("MON-FRI"));
        // A step and an n-th weekday are not days.
        assert_eq!(rename_days("2/2", &QUARTZ_DAYS).as_deref(), Some("MON/2"));
        assert_eq!(rename_days("6#3", &QUARTZ_DAYS).as_deref(), Some("FRI#3"));
        assert_eq!(rename_days("0", &QUARTZ_DAYS), None);
    }

    #[test]
    fn weekend_days_decide_which_reading_is_the_likely_mistake() {
        assert_eq!(weekend_days("SUN-THU"), 1);
        assert_eq!(weekend_days("MON-FRI"), 0);
        assert_eq!(weekend_days("TUE-SAT"), 1);
        assert_eq!(weekend_days("FRI-MON"), 2);
        assert_eq!(weekend_days("SUN,SAT"), 2);
        assert_eq!(weekend_days("MON#1"), 0);
    }

    #[test]
    fn backwards_ranges_are_found_in_numbers_and_names() {
        assert_eq!(wrapping_ranges("22-2", 1), ["22-2"]);
        assert_eq!(wrapping_ranges("1-5,22-2/2", 1), ["22-2"]);
        assert_eq!(wrapping_ranges("NOV-FEB", 3), ["NOV-FEB"]);
        assert_eq!(wrapping_ranges("FRI-MON", 4), ["FRI-MON"]);
        assert!(wrapping_ranges("MON-FRI", 4).is_empty());
        assert!(wrapping_ranges("*/5", 0).is_empty());
    }
}
