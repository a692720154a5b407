//! Time zones and daylight saving time: the mistakes Oozie accepts and that
//! shift or drop data twice a year. A job or dataset in a zone with DST lives
//! on wall-clock time only through `coord:days`/`coord:months` and
//! `coord:hoursInDay`; minutes are always real minutes (spec §7, §4.4.1).

use super::rules::{DST_DAY_IN_MINUTES, DST_FIXED_HOURS, DST_ZONE_MISMATCH, LEGACY_ZONE};
use crate::diag::Diagnostic;
use crate::interp::job::{Job, Located, Schedule};
use crate::ir::{Coordinator, ElText, Instances};
use crate::time::frequency::{Frequency, FrequencyUnit};
use crate::time::zone::Zone;
use chrono::{DateTime, Datelike, Utc};

const MINUTES_PER_DAY: i64 = 24 * 60;

pub fn check(app: &Coordinator, job: &Job) -> Vec<Located> {
    let mut out = Vec::new();
    let at = job.start;
    if let Some(d) = legacy_zone(&job.zone, &app.timezone) {
        out.push(Located::in_app(d));
    }
    if let Schedule::Every(f) = job.schedule()
        && let Some(d) = day_in_minutes(f, &job.zone, at, &app.frequency, "the job")
    {
        out.push(Located::in_app(d));
    }
    let uses_tz_offset = app
        .action
        .configuration
        .iter()
        .any(|p| p.value.calls_any(&["tzOffset"]))
        || app.inputs.iter().any(|d| match &d.instances {
            Instances::List(list) => list.iter().any(|t| t.calls_any(&["tzOffset"])),
            Instances::Range { start, end } => {
                start.calls_any(&["tzOffset"]) || end.calls_any(&["tzOffset"])
            }
        });
    let mut seen = Vec::new();
    for data_in in &app.inputs {
        let Some((dataset, clock)) = job.dataset(&data_in.dataset.name) else {
            continue;
        };
        let located = |diagnostic| Located {
            file: dataset.file,
            diagnostic,
        };
        // Each dataset once, however many data-ins read it.
        if !seen.contains(&dataset.name.name) {
            seen.push(dataset.name.name.clone());
            out.extend(legacy_zone(&clock.zone, &dataset.timezone).map(located));
            let what = format!("dataset `{}`", dataset.name.name);
            out.extend(
                day_in_minutes(&clock.frequency, &clock.zone, at, &dataset.frequency, &what)
                    .map(located),
            );
        }
        if let Instances::Range { start, end } = &data_in.instances
            && let Some(d) = fixed_hours(job, &clock.frequency, &clock.zone, start, end)
        {
            out.push(Located::in_app(d));
        }
        if !uses_tz_offset && gap_varies(&job.zone, &clock.zone, at) {
            out.push(Located::in_app(Diagnostic::warning(
                    DST_ZONE_MISMATCH,
                    data_in.dataset.span,
                    format!(
                        "the job runs in {} and dataset `{}` in {}: the hours between them change during the year (daylight saving time), and nothing here accounts for it",
                        job.zone.id(),
                        dataset.name.name,
                        clock.zone.id()
                    ),
                )
                .with_help(
                    "use coord:tzOffset() to shift the instances by the offset between the two zones (spec §7.2, use case 3), or put the job and the dataset in one zone",
                )));
        }
    }
    out
}

/// Whether the hours between two zones change during the year of `at`
/// (sampled mid-month): `America/New_York` and `America/Los_Angeles` switch
/// together and stay 3 hours apart, which a fixed `coord:current(-3)` handles
/// (spec §7.2, use case 2); UTC and any DST zone do not.
fn gap_varies(a: &Zone, b: &Zone, at: DateTime<Utc>) -> bool {
    if a == b {
        // One zone: no gap at all, without sampling the year.
        return false;
    }
    let year = at.year();
    let gaps = (1..=12).filter_map(|month| {
        let t = chrono::NaiveDate::from_ymd_opt(year, month, 15)?
            .and_hms_opt(12, 0, 0)?
            .and_utc();
        Some(a.offset_seconds(t) - b.offset_seconds(t))
    });
    let mut gaps = gaps.peekable();
    let first = gaps.peek().copied();
    gaps.any(|g| Some(g) != first)
}

/// Java's three-letter IDs (`PST`, `EST`, `IST`...): deprecated, and several
/// do not mean what they seem (`EST` never observes DST; `IST` is India).
fn legacy_zone(zone: &Zone, text: &ElText) -> Option<Diagnostic> {
    let canonical = zone.canonical_id()?;
    let d = Diagnostic::warning(
        LEGACY_ZONE,
        text.span,
        format!(
            "`{}` is one of Java's deprecated three-letter zone IDs; Oozie warns on it",
            zone.id()
        ),
    )
    .with_help(format!(
        "write `{canonical}`, the zone Java reads `{}` as",
        zone.id()
    ));
    // The ID written as it is (not through EL): the same zone by its own name.
    Some(match text.literal_span() {
        Some(span) if text.text().trim() == zone.id() => d.with_fix(span, canonical),
        _ => d,
    })
}

/// A whole number of days written in minutes, in a zone with DST.
fn day_in_minutes(
    f: &Frequency,
    zone: &Zone,
    at: DateTime<Utc>,
    text: &ElText,
    what: &str,
) -> Option<Diagnostic> {
    if f.unit != FrequencyUnit::Minute || f.count % MINUTES_PER_DAY != 0 || !zone.observes_dst(at) {
        return None;
    }
    let days = f.count / MINUTES_PER_DAY;
    Some(
        Diagnostic::warning(
            DST_DAY_IN_MINUTES,
            text.span,
            format!(
                "{what} runs every {} minutes in {}, which observes daylight saving time: its wall-clock time moves by an hour at each switch",
                f.count,
                zone.id()
            ),
        )
        .with_help(format!(
            "write ${{coord:days({days})}}: days follow the wall clock across DST (spec §4.4.1)"
        )),
    )
}

/// `current(-23)..current(0)` of an hourly dataset for a daily job: 24
/// instances, where a DST day has 23 or 25 hours.
fn fixed_hours(
    job: &Job,
    dataset_frequency: &Frequency,
    dataset_zone: &Zone,
    start: &ElText,
    end: &ElText,
) -> Option<Diagnostic> {
    let daily = match job.schedule() {
        Schedule::Every(f) => {
            (f.unit == FrequencyUnit::Day && f.count == 1)
                || (f.unit == FrequencyUnit::Minute && f.count == MINUTES_PER_DAY)
        }
        Schedule::Cron(_) => false,
    };
    let hourly = dataset_frequency.unit == FrequencyUnit::Minute && dataset_frequency.count == 60;
    let (from, to) = (start.literal_current()?, end.literal_current()?);
    if !daily
        || !hourly
        || to.checked_sub(from) != Some(23)
        || !dataset_zone.observes_dst(job.start)
    {
        return None;
    }
    Some(
        Diagnostic::warning(
            DST_FIXED_HOURS,
            start.span,
            format!(
                "a fixed range of 24 hourly instances for a daily job in {}: on the days daylight saving time starts or ends the day has 23 or 25 hours, so an hour is read twice or missed",
                dataset_zone.id()
            ),
        )
        .with_help(format!(
            "write ${{coord:current({})}}: coord:hoursInDay counts the hours of the action's day (spec §6.6.3)",
            match to {
                0 => "-(coord:hoursInDay(0) - 1)".to_string(),
                to => format!("{to} - (coord:hoursInDay(0) - 1)"),
            }
        )),
    )
}
