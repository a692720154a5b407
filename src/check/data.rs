//! Data mistakes Oozie never reports: instances silently dropped because
//! they fall before the dataset's initial-instance (spec §6.6.11), and
//! uri-templates whose time fields do not match the dataset's frequency, so
//! that instances share one URI or carry a field that never changes.

use super::rules::{DATA_DROPPED, DATA_URI_RESOLUTION};
use crate::diag::Diagnostic;
use crate::el::ast::ExprKind;
use crate::interp::action::Action;
use crate::interp::job::{Job, Located};
use crate::ir::{Coordinator, Dataset, ElText, Instances};
use crate::time::frequency::{Frequency, FrequencyUnit};
use crate::time::instance::DatasetClock;

/// How many actions, and how many instances in all, are looked at to find
/// the first action with every instance: the scan stays bounded however long
/// the job or its ranges.
const SCAN_ACTIONS: usize = 10_000;
const SCAN_INSTANCES: usize = 1_000_000;

/// `first` is the job's first action, when it materialized: its inputs, in
/// the order of `app.inputs`, hold the instances the first action gets, so
/// they are not counted again.
pub fn check(app: &Coordinator, job: &Job, first: Option<&Action>) -> Vec<Located> {
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
        if !seen.contains(&dataset.name.name.as_str()) {
            seen.push(&dataset.name.name);
            out.extend(
                uri_resolution(dataset, &clock.frequency).map(|diagnostic| Located {
                    file: dataset.file,
                    diagnostic,
                }),
            );
        }
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

/// The finest time field a uri-template reads, as its length in minutes
/// (a month and a year in nominal minutes, for comparison only).
fn finest_field(template: &ElText) -> Option<(&'static str, i64)> {
    const FIELDS: [(&str, i64); 5] = [
        ("MINUTE", 1),
        ("HOUR", 60),
        ("DAY", 1440),
        ("MONTH", 28 * 1440),
        ("YEAR", 365 * 1440),
    ];
    let mut finest: Option<(&'static str, i64)> = None;
    for expr in template.template().exprs() {
        expr.walk(&mut |e| {
            if let ExprKind::Var(name) = &e.kind
                && let Some(&(field, minutes)) = FIELDS.iter().find(|(f, _)| **f == **name)
                && finest.is_none_or(|(_, m)| minutes < m)
            {
                finest = Some((field, minutes));
            }
        });
    }
    finest
}

/// A frequency's length in nominal minutes (a month as 28 days, its shortest).
fn nominal_minutes(f: &Frequency) -> i64 {
    f.count
        * match f.unit {
            FrequencyUnit::Minute => 1,
            FrequencyUnit::Day => 1440,
            FrequencyUnit::Week => 7 * 1440,
            FrequencyUnit::Month => 28 * 1440,
        }
}

fn uri_resolution(dataset: &Dataset, frequency: &Frequency) -> Option<Diagnostic> {
    let (field, field_minutes) = finest_field(&dataset.uri_template)?;
    let every = nominal_minutes(frequency);
    let name = &dataset.name.name;
    if every < field_minutes {
        return Some(
            Diagnostic::warning(
                DATA_URI_RESOLUTION,
                dataset.uri_template.span,
                format!(
                    "dataset `{name}` has an instance more often than its uri-template changes (its finest field is ${{{field}}}): several instances resolve to one URI, so their data overwrite each other"
                ),
            )
            .with_help("add the finer fields to the uri-template (${HOUR}, ${MINUTE}), or make the frequency match it"),
        );
    }
    let coarsest_needed = match frequency.unit {
        FrequencyUnit::Minute if every % 60 != 0 => 1,
        FrequencyUnit::Minute if every % 1440 != 0 => 60,
        FrequencyUnit::Minute | FrequencyUnit::Day | FrequencyUnit::Week => 1440,
        FrequencyUnit::Month => 28 * 1440,
    };
    (field_minutes < coarsest_needed).then(|| {
        Diagnostic::warning(
            DATA_URI_RESOLUTION,
            dataset.uri_template.span,
            format!(
                "dataset `{name}`'s uri-template reads ${{{field}}}, finer than its frequency: every instance has the same {} as the initial-instance, so the field only repeats it",
                field.to_lowercase()
            ),
        )
        .with_help("drop the field from the uri-template if the data is not laid out by it, or check the frequency")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interp::job::{Options, prepare};
    use crate::project::files::Files;
    use crate::project::load::{self, JobInput, JobSource, Sources};
    use crate::time::datetime::ProcessingZone;

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
        let arena = crate::xml::tree::arena_for(text.len());
        let doc = crate::xml::parse(&text, &arena).expect("well-formed");
        let files = Files::default();
        let utc = ProcessingZone::parse_option("UTC").expect("UTC");
        let input = JobInput {
            configs: &[],
            files: &files,
            job: JobSource::Own,
            defines: &[],
            maps: &[],
            processing_zone: utc,
            check_maximum_frequency: true,
        };
        let mut sources = Sources::default();
        sources.add("coordinator.xml".to_string(), text.as_str());
        let path = std::path::Path::new("coordinator.xml");
        let Ok(loaded) = load::coordinator(&doc, path, &input, &mut sources) else {
            panic!("the app loads");
        };
        let options = Options::first_action(utc, true);
        let Ok(job) = prepare(&loaded.app, &loaded.included, &loaded.vars, &options) else {
            panic!("the job prepares");
        };
        let first = job
            .actions()
            .next()
            .expect("an action")
            .expect("it materializes");
        let messages = |first: Option<&Action>| -> Vec<String> {
            check(&loaded.app, &job, first)
                .into_iter()
                .map(|p| p.diagnostic.message.clone())
                .collect()
        };
        (messages(Some(&first)), messages(None))
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
}
