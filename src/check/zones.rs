//! Time zones and daylight saving time: the mistakes Oozie accepts and that
//! shift or drop data twice a year. A job or dataset in a zone with DST lives
//! on wall-clock time only through `coord:days`/`coord:months` and
//! `coord:hoursInDay`; minutes are always real minutes (spec §7, §4.4.1).

use crate::diag::Diagnostic;
use crate::diag::Located;
use crate::diag::fixes::FixKind;
use crate::diag::rules::{DST_DAY_IN_MINUTES, LEGACY_ZONE};
use crate::ir::{Coordinator, ElText};
use crate::oozie::job::{Job, Schedule};
use crate::time::frequency::{Frequency, FrequencyUnit};
use crate::time::zone::Zone;
use chrono::{DateTime, Duration, Utc};

const MINUTES_PER_DAY: i64 = 24 * 60;

pub(crate) fn check(app: &Coordinator, job: &Job) -> Vec<Located> {
    let mut out = Vec::new();
    if let Some(d) = legacy_zone(&job.zone, &app.timezone) {
        out.push(Located::in_app(d));
    }
    // The switches the job lives through (within 400 days of its start,
    // as DST002 looks).
    let until = super::dst_reads::horizon(job);
    if let Schedule::Every(f) = job.schedule()
        && let Some(d) = day_in_minutes(f, &job.zone, (job.start, until), &app.frequency, "the job")
    {
        out.push(Located::in_app(d));
    }
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
            // A dataset's instances drift from its initial instance on: the
            // switches between it (or 400 days before the job's last action,
            // if earlier) and the job's end.
            let from = until
                .checked_sub_signed(Duration::days(400))
                .map_or(clock.initial, |t| t.max(clock.initial));
            let what = format!("dataset `{}`", dataset.name.name);
            out.extend(
                day_in_minutes(
                    &clock.frequency,
                    &clock.zone,
                    (from, until),
                    &dataset.frequency,
                    &what,
                )
                .map(located),
            );
        }
    }
    // What the actions read across the switches (DST002, DST003).
    out.extend(super::dst_reads::check(app, job));
    out
}

/// Java's three-letter IDs (`PST`, `EST`, `IST`...): deprecated, and several
/// do not mean what they seem (`EST` never observes DST; `IST` is India).
fn legacy_zone(zone: &Zone, text: &ElText) -> Option<Diagnostic> {
    let canonical = zone.canonical_id()?;
    let d = Diagnostic::warning(
        LEGACY_ZONE,
        text.span,
        format!(
            "`{}` is one of Java's deprecated three-letter zone IDs, which Oozie accepts without a word",
            zone.id()
        ),
    )
    .with_help(format!(
        "write `{canonical}`, the zone Java reads `{}` as",
        zone.id()
    ));
    // The ID written as it is (not through EL): the same zone by its own name.
    Some(match text.literal_span() {
        Some(span) if text.text().trim() == zone.id() => {
            d.with_fix(FixKind::LegacyZoneId, span, canonical)
        }
        _ => d,
    })
}

/// A whole number of days written in minutes, in a zone whose offset
/// changes within `window` (a job that lives through no switch keeps its
/// wall-clock time, and is not told otherwise).
fn day_in_minutes(
    f: &Frequency,
    zone: &Zone,
    window: (DateTime<Utc>, DateTime<Utc>),
    text: &ElText,
    what: &str,
) -> Option<Diagnostic> {
    if f.unit != FrequencyUnit::Minute || f.count % MINUTES_PER_DAY != 0 {
        return None;
    }
    let first = *super::dst_reads::switches(zone, window.0, window.1).first()?;
    let days = f.count / MINUTES_PER_DAY;
    Some(
        Diagnostic::warning(
            DST_DAY_IN_MINUTES,
            text.span,
            format!(
                "{what} runs every {} minutes in {}, which observes daylight saving time: its wall-clock time moves by an hour at each switch, first at {}",
                f.count,
                zone.id(),
                first.format("%Y-%m-%dT%H:%MZ")
            ),
        )
        .with_help(format!(
            "write ${{coord:days({days})}}: days follow the wall clock across DST (spec §4.4.1)"
        )),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Severity;

    /// The codes `check` gives a coordinator reading hourly dataset `logs`
    /// (zone `data`) from a job in `job` at `start`, for a year.
    fn codes(
        frequency: &str,
        job: &str,
        start: &str,
        end: &str,
        data: &str,
        range: (&str, &str),
    ) -> Vec<(crate::diag::rules::Code, String)> {
        let text = format!(
            r#"<coordinator-app name="daily" frequency="{frequency}" start="{start}" end="{end}" timezone="{job}" xmlns="uri:oozie:coordinator:0.4">
  <datasets>
    <dataset name="logs" frequency="${{coord:hours(1)}}" initial-instance="2023-01-01T00:00Z" timezone="{data}">
      <uri-template>hdfs://nn/logs/${{YEAR}}/${{MONTH}}/${{DAY}}/${{HOUR}}</uri-template>
    </dataset>
  </datasets>
  <input-events>
    <data-in name="input" dataset="logs"><start-instance>{}</start-instance><end-instance>{}</end-instance></data-in>
  </input-events>
  <action><workflow><app-path>hdfs://nn/apps/daily</app-path></workflow></action>
</coordinator-app>"#,
            range.0, range.1
        );
        crate::oozie::action::tests::with_job(&text, &[], check)
            .into_iter()
            .map(|l| {
                assert_eq!(l.diagnostic.severity, Severity::Warning);
                (
                    l.diagnostic.code,
                    l.diagnostic.help.clone().unwrap_or_default(),
                )
            })
            .collect()
    }

    const FIXED: (&str, &str) = ("${coord:current(-24)}", "${coord:current(-1)}");
    const DAYS: &str = "${coord:days(1)}";

    /// A UTC job's days are 24 hours and hourly instances are absolute hours
    /// (CoordELFunctions.java:110-116, release-5.2.1: `coord:hours` is the
    /// MINUTE unit): a fixed 24 reads each hour once, whatever the dataset's
    /// zone. Issue 31 found DST002 and DST003 here.
    #[test]
    fn a_utc_job_reading_a_los_angeles_hourly_dataset_gets_nothing() {
        let found = codes(
            DAYS,
            "UTC",
            "2024-01-01T00:00Z",
            "2025-01-01T00:00Z",
            "America/Los_Angeles",
            FIXED,
        );
        assert!(found.is_empty(), "{found:?}");
    }

    /// A Los Angeles job's days are 23 and 25 hours at the switches
    /// (CoordMaterializeTransitionXCommand.java:390-436: `Calendar.add` in
    /// the job's zone): a fixed 24 of a UTC dataset is DST002, whose help
    /// puts the dataset in the job's zone (hoursInDay counts the dataset
    /// zone's days), not DST003's tzOffset.
    #[test]
    fn a_los_angeles_job_reading_a_utc_hourly_dataset_is_dst002() {
        let found = codes(
            DAYS,
            "America/Los_Angeles",
            "2024-01-01T08:00Z",
            "2025-01-01T08:00Z",
            "UTC",
            FIXED,
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, "DST002");
        assert!(
            found[0].1.contains("timezone=\"America/Los_Angeles\""),
            "{}",
            found[0].1
        );
        assert!(
            found[0]
                .1
                .contains("${coord:current(-coord:hoursInDay(-1))}"),
            "{}",
            found[0].1
        );
    }

    /// The rewrite DST002 suggests is silent, and so is a year without a
    /// switch (nothing to show).
    #[test]
    fn the_rewrite_and_a_window_without_switches_are_silent() {
        let rewrite = (
            "${coord:current(-coord:hoursInDay(-1))}",
            "${coord:current(-1)}",
        );
        let found = codes(
            DAYS,
            "America/Los_Angeles",
            "2024-01-01T08:00Z",
            "2025-01-01T08:00Z",
            "America/Los_Angeles",
            rewrite,
        );
        assert!(found.is_empty(), "{found:?}");
        let found = codes(
            DAYS,
            "America/Los_Angeles",
            "2024-01-01T08:00Z",
            "2024-02-01T08:00Z",
            "America/Los_Angeles",
            FIXED,
        );
        assert!(found.is_empty(), "{found:?}");
    }

    /// A rolling window read every day (a week of hours) never tiles: it is
    /// not read to be read once, and the rule says nothing about it.
    #[test]
    fn a_rolling_window_is_not_this_rules() {
        let week = ("${coord:current(-167)}", "${coord:current(0)}");
        let found = codes(
            DAYS,
            "America/Los_Angeles",
            "2024-01-01T08:00Z",
            "2025-01-01T08:00Z",
            "America/Los_Angeles",
            week,
        );
        assert!(found.is_empty(), "{found:?}");
    }

    /// An hourly job reading hourly instances by fixed indexes: minutes are
    /// absolute for both, nothing moves at a switch, nothing to say (and
    /// nothing is resolved to find that out).
    #[test]
    fn minutes_for_the_job_and_the_dataset_never_move() {
        let hour = ("${coord:current(-1)}", "${coord:current(-1)}");
        let found = codes(
            "${coord:hours(1)}",
            "America/Los_Angeles",
            "2024-01-01T08:00Z",
            "2025-01-01T08:00Z",
            "Europe/London",
            hour,
        );
        assert!(found.is_empty(), "{found:?}");
    }

    /// DST001 is keyed on each frequency's own zone: 1440 minutes drifts in
    /// Los Angeles and not in UTC.
    #[test]
    fn a_day_in_minutes_drifts_only_in_a_dst_zone() {
        let one = ("${coord:current(-1)}", "${coord:current(-1)}");
        let la = codes(
            "1440",
            "America/Los_Angeles",
            "2024-01-01T08:00Z",
            "2025-01-01T08:00Z",
            "UTC",
            one,
        );
        assert_eq!(
            la.iter().map(|f| f.0).collect::<Vec<_>>(),
            ["DST001"],
            "{la:?}"
        );
        let utc = codes(
            "1440",
            "UTC",
            "2024-01-01T00:00Z",
            "2025-01-01T00:00Z",
            "UTC",
            one,
        );
        assert!(utc.is_empty(), "{utc:?}");
        // A job that lives through no switch keeps its wall-clock time
        // (Cloudwick-Team7/DailyDataLoad runs 27-31 August): nothing to say.
        let summer = codes(
            "1440",
            "America/Los_Angeles",
            "2013-08-27T00:00Z",
            "2013-08-31T00:00Z",
            "America/Los_Angeles",
            one,
        );
        assert!(summer.is_empty(), "{summer:?}");
    }
}
