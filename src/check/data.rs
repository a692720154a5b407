//! Data mistakes Oozie never reports: instances silently dropped because
//! they fall before the dataset's initial-instance (spec §6.6.11), and
//! uri-templates whose time fields do not match the dataset's frequency, so
//! that instances share one URI or carry a field that never changes.

use crate::diag::Diagnostic;
use crate::diag::Located;
use crate::diag::rules::{DATA_DROPPED, DATA_URI_RESOLUTION};
use crate::ir::{Coordinator, Dataset, ElText, Instances};
use crate::oozie::action::Action;
use crate::oozie::job::Job;
use crate::time::datetime::ProcessingZone;
use crate::time::frequency::FrequencyUnit;
use crate::time::instance::DatasetClock;
use chrono::{DateTime, Datelike, NaiveDateTime, Timelike, Utc};
use rustc_hash::FxHashMap;

/// How many actions, and how many instances in all, are looked at to find
/// the first action with every instance: the scan stays bounded however long
/// the job or its ranges.
const SCAN_ACTIONS: usize = 10_000;
const SCAN_INSTANCES: usize = 1_000_000;

/// `first` is the job's first action, when it materialized: its inputs, in
/// the order of `app.inputs`, hold the instances the first action gets, so
/// they are not counted again.
pub(crate) fn check(app: &Coordinator, job: &Job, first: Option<&Action>) -> Vec<Located> {
    let mut out = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for (index, data_in) in app.inputs.iter().enumerate() {
        let Some((dataset, clock)) = job.dataset(&data_in.dataset.name) else {
            continue;
        };
        let first_count = first
            .and_then(|a| a.inputs.get(index))
            .map(|e| e.uris.len());
        let data_in_dropped = dropped(
            job,
            clock,
            &data_in.instances,
            first_count,
            &data_in.name.name,
            dataset,
        );
        if let Some(d) = data_in_dropped {
            out.push(Located::in_app(d));
        }
    }
    // Every dataset an event reads or writes, once.
    for event in app
        .inputs
        .iter()
        .map(|d| &d.dataset)
        .chain(app.outputs.iter().map(|d| &d.dataset))
    {
        let Some((dataset, clock)) = job.dataset(&event.name) else {
            continue;
        };
        if seen.contains(&dataset.name.name.as_str()) {
            continue;
        }
        seen.push(&dataset.name.name);
        out.extend(
            uri_resolution(job, &event.name, dataset, clock).map(|diagnostic| Located {
                file: dataset.file,
                diagnostic,
            }),
        );
    }
    out
}

/// The `coord:current(a)..coord:current(b)` pairs of a data-in, when every
/// instance is written with literal numbers.
fn literal_ranges(instances: &Instances) -> Option<(Vec<(i64, i64)>, &ElText)> {
    match instances {
        Instances::Range { start, end } => Some((
            vec![(start.literal_current()?, end.literal_current()?)],
            start,
        )),
        Instances::List(list) => {
            let pairs = list
                .iter()
                .map(|t| t.literal_current().map(|n| (n, n)))
                .collect::<Option<Vec<_>>>()?;
            Some((pairs, list.first()?))
        }
    }
}

fn instance_count(
    clock: &DatasetClock,
    nominal: chrono::DateTime<chrono::Utc>,
    ranges: &[(i64, i64)],
) -> Option<usize> {
    ranges
        .iter()
        .map(|&(a, b)| clock.current_range(nominal, a, b).ok().map(|r| r.len()))
        .sum()
}

/// The first actions get fewer instances than the data-in names: Oozie
/// drops those before the initial-instance without a word.
fn dropped(
    job: &Job,
    clock: &DatasetClock,
    instances: &Instances,
    first_count: Option<usize>,
    name: &str,
    dataset: &Dataset,
) -> Option<Diagnostic> {
    let (ranges, at) = literal_ranges(instances)?;
    // (A range too long to list is reported where it is listed, CO005.)
    let expected = ranges.iter().try_fold(0usize, |sum, &(a, b)| {
        let len = b.checked_sub(a)?.checked_add(1)?;
        sum.checked_add(usize::try_from(len).unwrap_or(0))
    })?;
    let mut nominals = job.nominal_times_all().take(SCAN_ACTIONS);
    let first = nominals.next()?;
    let first_count = match first_count {
        Some(n) => n,
        None => instance_count(clock, first, &ranges)?,
    };
    if first_count >= expected {
        return None;
    }
    let mut last_short = (1, first);
    let mut full = false;
    let mut budget = SCAN_INSTANCES.saturating_sub(expected);
    for (i, nominal) in nominals.enumerate() {
        if budget < expected {
            break;
        }
        budget -= expected;
        if instance_count(clock, nominal, &ranges)? >= expected {
            full = true;
            break;
        }
        last_short = (i + 2, nominal);
    }
    let format = |t: chrono::DateTime<chrono::Utc>| t.format("%Y-%m-%dT%H:%MZ").to_string();
    let which = match (last_short.0, full) {
        (1, true) => format!("action 1 ({}) gets", format(first)),
        (n, true) => format!(
            "actions 1 to {n} ({} to {}) get",
            format(first),
            format(last_short.1)
        ),
        (n, false) => format!(
            "at least the first {n} actions (from {}) get",
            format(first)
        ),
    };
    let what = match expected {
        1 => "no instance".to_string(),
        n => format!("fewer than the {n} instances"),
    };
    Some(
        Diagnostic::warning(
            DATA_DROPPED,
            at.span,
            format!(
                "{which} {what} of `{name}`: Oozie silently drops the instances of `{}` before its initial-instance {}",
                dataset.name.name,
                format(clock.initial)
            ),
        )
        .with_help("move the dataset's initial-instance back, or the coordinator's start forward, if every action needs all its inputs (spec §6.6.11)"),
    )
}

/// How a field is read from a wall time.
type FieldOf = fn(&NaiveDateTime) -> u32;

/// The instance fields a uri-template can read, coarsest first, with how
/// each is read from an instance's wall time in the processing zone (the
/// uri-template's second phase: CoordELEvaluator.createURIELEvaluator,
/// CoordELEvaluator.java:255-266, evaluated by CoordCommandUtils.java:433-470
/// at release-5.2.1).
const FIELDS: [(&str, FieldOf); 5] = [
    ("YEAR", |t| t.year().unsigned_abs()),
    ("MONTH", |t| t.month()),
    ("DAY", |t| t.day()),
    ("HOUR", |t| t.hour()),
    ("MINUTE", |t| t.minute()),
];

/// How many consecutive instances are compared, from the job's first action
/// on: two that share a URI are found among them (a template coarser than
/// the frequency shares one between neighbours; one without `${YEAR}`
/// repeats within a year of monthly instances).
const COMPARED: i64 = 16;

/// How far the walk goes while a field of the template has not changed
/// though a coarser one has (a daily dataset's `${HOUR}`): a year of daily
/// instances, so that a DST switch of the dataset's zone, which moves the
/// hour, is met.
const CONFIRMED: i64 = 400;

/// DA002, from the instances themselves: consecutive instances of the
/// dataset named `name` (as an event names it) from the job's first action
/// on, compared by the fields they give the uri-template. Two that give the
/// same fields resolve to one URI (shown as an action resolves it,
/// [`Job::instance_uri`]), which is a warning (the
/// template is coarser than the frequency); so is a field of the template
/// that keeps one value in every instance while a coarser field changes (it
/// is finer than the frequency, and only repeats the initial-instance's).
fn uri_resolution(
    job: &Job,
    name: &str,
    dataset: &Dataset,
    clock: &DatasetClock,
) -> Option<Diagnostic> {
    // (The template as submitted: a field can be written to survive the
    // first phase, `${"$"}{MONTH + 0}`.)
    let read = job.uri_fields(name)?;
    if !read.contains(&true) {
        return None;
    }
    let from = job
        .nominal_times_all()
        .next()
        .filter(|&t| t >= clock.initial)
        .unwrap_or(clock.initial);
    let pz = job.processing_zone();
    let offset = chrono::Duration::minutes(i64::from(pz.offset_minutes));
    // The fields each instance gives the template, with the first instance
    // that gave them: a URI is a function of those fields (the job's
    // properties are the same for every instance), so two instances that
    // give the same ones resolve to one URI.
    let mut seen: FxHashMap<[u32; 5], DateTime<Utc>> = FxHashMap::default();
    let mut first_fields: Option<[u32; 5]> = None;
    let mut changed = [false; 5];
    let mut walked = 0;
    let mut want = walk_length(&read, clock);
    seen.reserve(usize::try_from(want).unwrap_or(0));
    loop {
        // (Oldest first: `current_range` lists the newest first.)
        let mut batch = clock.current_range(from, walked, want - 1).ok()?;
        if batch.is_empty() {
            return None;
        }
        while let Some(t) = batch.pop() {
            walked += 1;
            let local = t.naive_utc() + offset;
            let fields = FIELDS.map(|(_, get)| get(&local));
            let mut given = fields;
            for (g, &r) in given.iter_mut().zip(&read) {
                if !r {
                    *g = 0;
                }
            }
            if let Some(&earlier) = seen.get(&given) {
                // (Resolved as an action resolves it, for the message; a
                // template that fails to resolve is another rule's.)
                let uri = job.instance_uri(name, t)?.ok()?;
                return Some(shared_uri(dataset, clock, pz, (earlier, t), &uri));
            }
            seen.insert(given, t);
            let first = *first_fields.get_or_insert(fields);
            for (c, (a, b)) in changed.iter_mut().zip(first.iter().zip(&fields)) {
                *c |= a != b;
            }
        }
        // A field read that never changed while a coarser one did.
        let mut coarser_changed = false;
        let mut repeating = Vec::new();
        for (i, (&r, &c)) in read.iter().zip(&changed).enumerate() {
            if r && !c && coarser_changed {
                repeating.push(i);
            }
            coarser_changed |= c;
        }
        if repeating.is_empty() && walked >= want {
            return None;
        }
        if walked >= CONFIRMED {
            let first = first_fields?;
            let walk = (walked, pz.format(from));
            return Some(repeated_fields(dataset, clock, &repeating, &first, walk));
        }
        want = want.max(CONFIRMED);
    }
}

/// How many consecutive instances show whether two share a URI. A template
/// that reads every field down to its finest (`${YEAR}/${MONTH}/${DAY}`)
/// is in time order, so only neighbours can share one; for a frequency in
/// minutes (elapsed time, and the fields are read at a fixed offset) the
/// instances' places within that finest field repeat after
/// length / gcd(frequency, length) instances, so that many show every
/// neighbouring pair there is (`coord:minutes(1439)` with `${DAY}`: one
/// pair in 1,440 shares a day). A template that skips a coarser field
/// (`${MONTH}/${DAY}`, no year) repeats over that field: a year of
/// instances, as far as [`CONFIRMED`] goes.
fn walk_length(read: &[bool; 5], clock: &DatasetClock) -> i64 {
    let Some(finest) = read.iter().rposition(|&r| r) else {
        return COMPARED;
    };
    if read.iter().take(finest).any(|&r| !r) {
        return CONFIRMED;
    }
    // The length of DAY, HOUR and MINUTE in minutes.
    let length: i64 = match finest {
        2 => 1440,
        3 => 60,
        _ => 1,
    };
    if finest < 2 || clock.frequency.unit != FrequencyUnit::Minute {
        return COMPARED;
    }
    let gcd = |mut a: i64, mut b: i64| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    let cycle = length / gcd(clock.frequency.count, length).max(1);
    (cycle + 1).max(COMPARED)
}

/// The dataset's frequency as its instances step: "every 60 minutes".
fn frequency_text(clock: &DatasetClock) -> String {
    let f = &clock.frequency;
    let unit = match f.unit {
        FrequencyUnit::Minute => "minute",
        FrequencyUnit::Day => "day",
        FrequencyUnit::Week => "week",
        FrequencyUnit::Month => "month",
    };
    match f.count {
        1 => format!("every {unit}"),
        n => format!("every {n} {unit}s"),
    }
}

fn shared_uri(
    dataset: &Dataset,
    clock: &DatasetClock,
    pz: ProcessingZone,
    (earlier, later): (DateTime<Utc>, DateTime<Utc>),
    uri: &str,
) -> Diagnostic {
    Diagnostic::warning(
        DATA_URI_RESOLUTION,
        dataset.uri_template.span,
        format!(
            "dataset `{}`'s instances {} and {} both resolve to `{uri}`: its uri-template changes less often than its frequency ({}), so one instance's data overwrite another's, and a wait for one is met by the other",
            dataset.name.name,
            pz.format(earlier),
            pz.format(later),
            frequency_text(clock),
        ),
    )
    .with_help("add the finer fields to the uri-template (${DAY}, ${HOUR}, ${MINUTE}, as the frequency needs), or make the frequency match it")
}

/// `walk`: how many instances were compared, and the first one's time.
fn repeated_fields(
    dataset: &Dataset,
    clock: &DatasetClock,
    repeating: &[usize],
    first: &[u32; 5],
    (walked, from): (i64, String),
) -> Diagnostic {
    let named: Vec<String> = repeating
        .iter()
        .filter_map(|&i| {
            let (name, _) = FIELDS.get(i)?;
            Some(format!("${{{name}}} (always {:02})", first.get(i)?))
        })
        .collect();
    let what = match named.len() {
        1 => "the field keeps",
        _ => "each field keeps",
    };
    Diagnostic::warning(
        DATA_URI_RESOLUTION,
        dataset.uri_template.span,
        format!(
            "dataset `{}`'s uri-template reads {}, finer than its frequency ({}): in {walked} instances from {from}, {what} the initial-instance's value",
            dataset.name.name,
            named.join(" and "),
            frequency_text(clock),
        ),
    )
    .with_help("drop the field from the uri-template if the data is not laid out by it, or check the frequency")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oozie::action::tests::with_job;

    /// DA001's messages for a coordinator reading hourly `logs` with
    /// `range` from a dataset whose initial-instance is `initial`: counted
    /// from the first action's inputs (as `coordc check` does) and counted
    /// afresh, which must agree.
    fn dropped_both_ways(range: (&str, &str), initial: &str) -> (Vec<String>, Vec<String>) {
        let text = format!(
            r#"<coordinator-app name="daily" frequency="${{coord:days(1)}}"
                 start="2024-01-01T00:00Z" end="2024-01-10T00:00Z" timezone="UTC"
                 xmlns="uri:oozie:coordinator:0.4">
  <datasets>
    <dataset name="logs" frequency="${{coord:hours(1)}}" initial-instance="{initial}" timezone="UTC">
      <uri-template>hdfs://nn/logs/${{YEAR}}/${{MONTH}}/${{DAY}}/${{HOUR}}</uri-template>
    </dataset>
  </datasets>
  <input-events>
    <data-in name="input" dataset="logs">
      <start-instance>{}</start-instance>
      <end-instance>{}</end-instance>
    </data-in>
  </input-events>
  <action><workflow><app-path>hdfs://nn/apps/daily</app-path></workflow></action>
</coordinator-app>"#,
            range.0, range.1
        );
        with_job(&text, &[], |app, job| {
            let first = job
                .actions()
                .next()
                .expect("an action")
                .expect("it materializes");
            let messages = |first: Option<&Action>| -> Vec<String> {
                check(app, job, first)
                    .into_iter()
                    .filter(|p| p.diagnostic.code == DATA_DROPPED)
                    .map(|p| p.diagnostic.message.clone())
                    .collect()
            };
            (messages(Some(&first)), messages(None))
        })
    }

    #[test]
    fn the_first_actions_inputs_count_as_its_instances_do() {
        // Spec §6.6.11: instances before the initial-instance are dropped.
        let (from_action, counted) = dropped_both_ways(
            ("${coord:current(-23)}", "${coord:current(0)}"),
            "2024-01-01T00:00Z",
        );
        assert_eq!(from_action, counted);
        assert_eq!(from_action.len(), 1);
        assert!(from_action[0].starts_with("action 1 (2024-01-01T00:00Z) gets fewer than the 24"));
        // Two days of history: actions 1 and 2 are short.
        let (from_action, counted) = dropped_both_ways(
            ("${coord:current(-47)}", "${coord:current(0)}"),
            "2024-01-01T00:00Z",
        );
        assert_eq!(from_action, counted);
        assert!(
            from_action[0].starts_with("actions 1 to 2 "),
            "{from_action:?}"
        );
        // Nothing before the initial-instance: nothing reported either way.
        let (from_action, counted) = dropped_both_ways(
            ("${coord:current(-23)}", "${coord:current(0)}"),
            "2023-12-01T00:00Z",
        );
        assert!(from_action.is_empty() && counted.is_empty());
    }

    /// DA002's messages for a dataset of `frequency` (EL), `template`,
    /// `initial` and `zone`, read by a daily job from 2024-03-01 (and, when
    /// `write` is set, written by it too).
    fn da002(frequency: &str, template: &str, initial: &str, zone: &str) -> Vec<String> {
        let text = format!(
            r#"<coordinator-app name="daily" frequency="${{coord:days(1)}}"
                 start="2024-03-01T00:00Z" end="2025-03-01T00:00Z" timezone="UTC"
                 xmlns="uri:oozie:coordinator:0.4">
  <datasets>
    <dataset name="data" frequency="${{{frequency}}}" initial-instance="{initial}" timezone="{zone}">
      <uri-template>hdfs://nn/data/{template}</uri-template>
    </dataset>
  </datasets>
  <input-events>
    <data-in name="input" dataset="data"><instance>${{coord:current(0)}}</instance></data-in>
  </input-events>
  <action><workflow><app-path>hdfs://nn/apps/daily</app-path></workflow></action>
</coordinator-app>"#
        );
        with_job(&text, &[], |app, job| {
            check(app, job, None)
                .into_iter()
                .filter(|p| p.diagnostic.code == DATA_URI_RESOLUTION)
                .map(|p| p.diagnostic.message.clone())
                .collect()
        })
    }

    const YMD: &str = "${YEAR}/${MONTH}/${DAY}";
    const YMDH: &str = "${YEAR}/${MONTH}/${DAY}/${HOUR}";
    const YMDHM: &str = "${YEAR}/${MONTH}/${DAY}/${HOUR}/${MINUTE}";
    const UTC_2020: &str = "2020-01-01T00:00Z";

    /// Spec §5.1: an instance's URI is its uri-template with the instance's
    /// YEAR, MONTH, DAY, HOUR and MINUTE (in the processing zone,
    /// CoordELEvaluator.java:255-266 at release-5.2.1). DA002 is said only
    /// when two instances really resolve to one URI: each pair below is
    /// decided by the URIs, not by comparing the frequency with the finest
    /// field.
    #[test]
    fn shared_uris_are_found_from_the_instances() {
        let shared = |frequency: &str, template: &str, initial: &str| {
            let found = da002(frequency, template, initial, "UTC");
            assert_eq!(found.len(), 1, "{frequency} {template}: {found:?}");
            assert!(
                found[0].contains("both resolve to"),
                "{frequency} {template}: {found:?}"
            );
            found[0].clone()
        };
        let distinct = |frequency: &str, template: &str, initial: &str| {
            let found = da002(frequency, template, initial, "UTC");
            assert!(found.is_empty(), "{frequency} {template}: {found:?}");
        };
        // The issue's case: a yearly dataset with only ${YEAR} never shares.
        distinct("coord:months(12)", "${YEAR}", UTC_2020);
        distinct("coord:months(24)", "${YEAR}", UTC_2020);
        distinct("coord:months(18)", "${YEAR}", UTC_2020);
        // Every six months does: January and July of one year.
        let message = shared("coord:months(6)", "${YEAR}", UTC_2020);
        assert!(
            message.starts_with("dataset `data`'s instances 2024-01-01T00:00Z and 2024-07-01T00:00Z both resolve to `hdfs://nn/data/2024`"),
            "{message}"
        );
        // The true positive DA002 was made for: hourly, read by the day.
        let message = shared("coord:hours(1)", YMD, UTC_2020);
        assert!(message.contains("(every 60 minutes)"), "{message}");
        shared("coord:minutes(45)", YMDH, UTC_2020);
        shared("coord:minutes(1439)", YMD, UTC_2020);
        shared("coord:days(2)", "${YEAR}/${MONTH}", UTC_2020);
        shared("coord:days(1)", "${YEAR}/${MONTH}", UTC_2020);
        shared("coord:months(3)", "${YEAR}", UTC_2020);
        // A template without ${YEAR} repeats within a year.
        shared("coord:months(1)", "${MONTH}", UTC_2020);
        shared("coord:hours(1)", "${HOUR}", UTC_2020);
        // Frequencies that step over a field's length, not onto it.
        distinct("coord:minutes(90)", YMDH, UTC_2020);
        distinct("coord:minutes(61)", YMDH, UTC_2020);
        distinct("coord:hours(25)", YMD, UTC_2020);
        distinct("coord:days(31)", "${YEAR}/${MONTH}", UTC_2020);
        distinct("coord:days(7)", YMD, UTC_2020);
        distinct("coord:hours(1)", YMDH, UTC_2020);
        distinct("coord:minutes(15)", YMDHM, UTC_2020);
        distinct("coord:months(1)", "${YEAR}/${MONTH}", UTC_2020);
        distinct("coord:months(1)", "${YEAR}${MONTH}", UTC_2020);
        distinct("coord:endOfDays(1)", YMD, UTC_2020);
        distinct("coord:endOfMonths(1)", "${YEAR}-${MONTH}", UTC_2020);
    }

    /// A field finer than the frequency keeps the initial-instance's value
    /// in every instance, unless the instances' wall times move it: a day
    /// clamped at a month's end, a DST switch of the dataset's zone (the
    /// fields are read in the processing zone).
    #[test]
    fn fields_that_only_repeat_are_found_from_the_instances() {
        let repeats = |frequency: &str, template: &str, initial: &str, zone: &str| {
            let found = da002(frequency, template, initial, zone);
            assert_eq!(found.len(), 1, "{frequency} {template} {zone}: {found:?}");
            assert!(found[0].contains("finer than its frequency"), "{found:?}");
            found[0].clone()
        };
        let changes = |frequency: &str, template: &str, initial: &str, zone: &str| {
            let found = da002(frequency, template, initial, zone);
            assert!(found.is_empty(), "{frequency} {template} {zone}: {found:?}");
        };
        let message = repeats("coord:days(1)", YMDH, UTC_2020, "UTC");
        assert_eq!(
            message,
            "dataset `data`'s uri-template reads ${HOUR} (always 00), finer than its frequency (every day): in 400 instances from 2024-03-01T00:00Z, the field keeps the initial-instance's value"
        );
        repeats("coord:minutes(1440)", YMDH, UTC_2020, "UTC");
        let message = repeats("coord:months(1)", YMDHM, UTC_2020, "UTC");
        assert!(
            message
                .contains("${DAY} (always 01) and ${HOUR} (always 00) and ${MINUTE} (always 00)"),
            "{message}"
        );
        repeats("coord:months(12)", "${YEAR}/${MONTH}", UTC_2020, "UTC");
        repeats("coord:hours(1)", YMDHM, UTC_2020, "UTC");
        // A monthly dataset from the 31st: Feb 29, Mar 31, Apr 30...
        changes("coord:months(1)", YMD, "2020-01-31T00:00Z", "UTC");
        // Midnight in Los Angeles is 08:00 or 07:00 UTC, by the season.
        changes(
            "coord:days(1)",
            YMDH,
            "2020-01-01T08:00Z",
            "America/Los_Angeles",
        );
        repeats("coord:days(1)", YMDH, "2020-01-01T08:00Z", "Asia/Kolkata");
        // Fields the frequency moves.
        changes("coord:hours(6)", YMDH, UTC_2020, "UTC");
        changes("coord:days(1)", YMD, UTC_2020, "UTC");
        changes("coord:minutes(90)", YMDHM, UTC_2020, "UTC");
    }

    /// The fields are those of the template as submitted: `${"$"}{HOUR + 0}`
    /// is `${HOUR + 0}` after the first phase, read in the second (the first
    /// phase evaluates the whole template, CoordSubmitXCommand.java:1027 at
    /// release-5.2.1, and `${"$"}` is a dollar sign), so an hourly dataset
    /// laid out that way (as wikimedia's analytics-refinery lays out its
    /// webrequest data) has one URI per hour.
    #[test]
    fn fields_written_for_the_second_phase_count() {
        let escaped = r#"${YEAR}/${"$"}{MONTH + 0}/${"$"}{DAY + 0}/${"$"}{HOUR + 0}"#;
        let found = da002("coord:hours(1)", escaped, UTC_2020, "UTC");
        assert!(found.is_empty(), "{found:?}");
        // Without the hour, it is read by the day.
        let by_day = r#"${YEAR}/${"$"}{MONTH + 0}/${"$"}{DAY + 0}"#;
        let found = da002("coord:hours(1)", by_day, UTC_2020, "UTC");
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].contains("both resolve to `hdfs://nn/data/2024/3/1`"),
            "{found:?}"
        );
    }

    /// The instances compared are the job's, from its first action on (the
    /// dataset's initial-instance when that is later), and outputs count.
    #[test]
    fn da002_compares_the_jobs_instances_and_reads_outputs() {
        let found = da002("coord:hours(1)", YMD, "2024-06-01T05:00Z", "UTC");
        assert!(
            found[0].contains("instances 2024-06-01T05:00Z and 2024-06-01T06:00Z"),
            "{found:?}"
        );
        let text = r#"<coordinator-app name="daily" frequency="${coord:days(1)}"
                 start="2024-03-01T00:00Z" end="2025-03-01T00:00Z" timezone="UTC"
                 xmlns="uri:oozie:coordinator:0.4">
  <datasets>
    <dataset name="out" frequency="${coord:hours(1)}" initial-instance="2020-01-01T00:00Z" timezone="UTC">
      <uri-template>hdfs://nn/out/${YEAR}/${MONTH}/${DAY}</uri-template>
    </dataset>
  </datasets>
  <output-events>
    <data-out name="output" dataset="out"><instance>${coord:current(0)}</instance></data-out>
  </output-events>
  <action><workflow><app-path>hdfs://nn/apps/daily</app-path></workflow></action>
</coordinator-app>"#;
        let found: Vec<String> = with_job(text, &[], |app, job| {
            check(app, job, None)
                .into_iter()
                .map(|p| p.diagnostic.message.clone())
                .collect()
        });
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with("dataset `out`'s instances 2024-03-01T00:00Z and 2024-03-01T01:00Z both resolve to `hdfs://nn/out/2024/03/01`"),
            "{found:?}"
        );
    }
}
