//! A job's calendar as the simulation counts it: the nominal times of a
//! frequency schedule's actions, how many fall before a time, and a
//! dataset's instances over a range. Read by the scenario's binding (to
//! refuse a window too long, to list `[[data]]` ranges) and by the engine.

use super::data::MAX_INSTANCES;
use crate::interp::clock::{Millis, millis};
use crate::oozie::job::{Job, Schedule};
use crate::time::calendar::add;
use crate::time::frequency::Frequency;
use chrono::{DateTime, Utc};

/// Most actions one simulation creates (a 5-minute coordinator for nearly 5
/// years, some 800 MB): past this, the scenario's window is too long for its
/// frequency.
pub(crate) const MAX_ACTIONS: usize = 500_000;

/// Nominal time of action `k` (1-based) of a job whose schedule is
/// `every`, computed afresh from the start
/// (CoordMaterializeTransitionXCommand.java:484-492); `None` past the
/// calendar.
pub(crate) fn frequency_nominal(job: &Job, every: &Frequency, k: usize) -> Option<Millis> {
    if k == 0 {
        return None;
    }
    let origin = if every.end_of {
        crate::time::frequency::move_to_end(&job.zone, job.start, every.unit)?
    } else {
        job.start
    };
    let steps = i64::try_from(k - 1).ok()?.checked_mul(every.count)?;
    add(&job.zone, origin, every.unit.calendar_unit(), steps).map(millis)
}

/// How many actions have a nominal time before `bound` (a frequency
/// schedule: found by bisection, at most [`MAX_ACTIONS`] + 1; a cron
/// schedule: 0, it is counted as it runs).
pub(crate) fn actions_before(job: &Job, bound: Millis) -> usize {
    let Schedule::Every(every) = job.schedule() else {
        return 0;
    };
    let before = |k: usize| frequency_nominal(job, every, k).is_some_and(|t| t < bound);
    let (mut low, mut high) = (0usize, MAX_ACTIONS + 1);
    if before(high) {
        return high;
    }
    // Invariant: before(low) (or low == 0), !before(high).
    while high - low > 1 {
        let mid = low + (high - low) / 2;
        if before(mid) {
            low = mid;
        } else {
            high = mid;
        }
    }
    low
}

/// Instances of `dataset` of job `id` with nominal times in [from, to),
/// and their URIs.
pub(crate) fn dataset_instances(
    job: &Job,
    id: &str,
    dataset: &str,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
) -> Result<Vec<(DateTime<Utc>, String)>, String> {
    let (_, clock) = job
        .dataset(dataset)
        .ok_or_else(|| format!("job `{id}` has no data-in or data-out with dataset `{dataset}`"))?;
    let last = to - chrono::Duration::milliseconds(1);
    let Some((last_count, _)) = clock.current_instance(last).map_err(|e| e.to_string())? else {
        return Ok(Vec::new());
    };
    let first_count = match clock.current_instance(from).map_err(|e| e.to_string())? {
        Some((c, t)) if t < from => c + 1,
        Some((c, _)) => c,
        None => 0,
    };
    if last_count < first_count {
        return Ok(Vec::new());
    }
    if (last_count - first_count) as usize >= MAX_INSTANCES {
        return Err(format!(
            "the range lists more than {MAX_INSTANCES} instances of dataset `{dataset}`: simulate a shorter window"
        ));
    }
    let mut instances = clock
        .current_range(last, first_count - last_count, 0)
        .map_err(|e| e.to_string())?;
    instances.reverse();
    instances
        .into_iter()
        .map(|t| match job.instance_uri(dataset, t) {
            Some(Ok(uri)) => Ok((t, uri)),
            Some(Err(d)) => Err(d.message.clone()),
            None => Err(format!("no dataset `{dataset}`")),
        })
        .collect()
}
