//! Which actions `--verify` compares for a job too long to compare whole:
//! the first and the last, the actions on both sides of every DST
//! transition (of the job's zone and of its data-ins' datasets' zones,
//! where Oozie's calendar and Airflow's most easily part), and blocks of
//! consecutive actions evenly spread over the rest. (Blocks, not single
//! actions: the runtime asks coordc for a window of actions at a time, and
//! a window costs the same for one action as for a thousand.)

use crate::oozie::job::Job;

/// The actions compared of a long job.
#[derive(Debug, PartialEq, Eq)]
pub struct Sample {
    /// The kept actions' indexes (from 0), ascending.
    pub kept: Vec<usize>,
    /// The job's actions.
    pub total: usize,
    /// The DST transitions met between two actions.
    pub transitions: usize,
    /// How many actions are kept on each side of a transition.
    pub per_side: usize,
    /// How many blocks of [`BLOCK`] consecutive actions are kept besides.
    pub blocks: usize,
}

/// The consecutive actions of an evenly spread block.
pub const BLOCK: usize = 50;

/// Most actions kept on each side of a transition (2 days and more of an
/// hourly job).
const MOST_PER_SIDE: usize = 64;

/// The actions of `job` to compare when it has more than `most`, else
/// `None` (the whole life is compared).
pub fn sample(job: &Job, most: usize) -> Option<Sample> {
    let mut zones = vec![job.zone.clone()];
    for input in &job.app().inputs {
        if let Some((_, clock)) = job.dataset(&input.dataset.name)
            && !zones.contains(&clock.zone)
        {
            zones.push(clock.zone.clone());
        }
    }
    // A transition lies between two actions whose offsets differ in a zone:
    // it is kept as the index of the later one.
    let mut transitions = Vec::new();
    // Each zone's offset at the action before (a job can have millions).
    let mut offsets: Vec<Option<i32>> = vec![None; zones.len()];
    let mut total = 0;
    for (index, t) in job.nominal_times_all().enumerate() {
        let mut moved = false;
        for (zone, offset) in zones.iter().zip(offsets.iter_mut()) {
            let now = zone.offset_seconds(t);
            moved |= offset.is_some_and(|before| before != now);
            *offset = Some(now);
        }
        if moved {
            transitions.push(index);
        }
        total = index + 1;
    }
    if total <= most {
        return None;
    }
    // Half the actions for the transitions, the rest evenly spread.
    let per_side = ((most / 2) / (2 * transitions.len()).max(1)).clamp(1, MOST_PER_SIDE);
    let mut kept: Vec<usize> = vec![0, total - 1];
    for &at in &transitions {
        kept.extend(at.saturating_sub(per_side)..(at + per_side).min(total));
    }
    kept.sort_unstable();
    kept.dedup();
    let blocks = (most.saturating_sub(kept.len()) / BLOCK).max(1);
    let spacing = total / blocks;
    for block in 0..blocks {
        let start = block * spacing;
        kept.extend(start..(start + BLOCK).min(total));
    }
    kept.sort_unstable();
    kept.dedup();
    Some(Sample {
        kept,
        total,
        transitions: transitions.len(),
        per_side,
        blocks,
    })
}

impl Sample {
    /// Whether the action at `index` is kept.
    pub fn keeps(&self, index: usize) -> bool {
        self.kept.binary_search(&index).is_ok()
    }

    /// What was kept, for a person.
    pub fn describe(&self) -> String {
        format!(
            "{} of {} actions: the first, the last, {} on each side of each of {} DST transitions, and {} blocks of {BLOCK} evenly spread",
            self.kept.len(),
            self.total,
            self.per_side,
            self.transitions,
            self.blocks
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oozie::job::with_job;

    /// An hourly coordinator in `zone` from `start` to `end`, reading the
    /// current hour of a dataset in `dataset_zone`.
    fn hourly(zone: &str, dataset_zone: &str, start: &str, end: &str) -> String {
        format!(
            r#"<coordinator-app name="c" frequency="${{coord:hours(1)}}" start="{start}" end="{end}" timezone="{zone}" xmlns="uri:oozie:coordinator:0.4">
  <datasets>
    <dataset name="logs" frequency="${{coord:hours(1)}}" initial-instance="2008-01-01T00:00Z" timezone="{dataset_zone}">
      <uri-template>hdfs://nn/logs/${{YEAR}}${{MONTH}}${{DAY}}${{HOUR}}</uri-template>
    </dataset>
  </datasets>
  <input-events><data-in name="logs" dataset="logs"><instance>${{coord:current(0)}}</instance></data-in></input-events>
  <action><workflow><app-path>hdfs://nn/wf</app-path></workflow></action>
</coordinator-app>"#
        )
    }

    #[test]
    fn a_short_job_is_compared_whole() {
        let app = hourly(
            "America/Los_Angeles",
            "UTC",
            "2009-03-01T00:00Z",
            "2009-04-01T00:00Z",
        );
        assert_eq!(with_job(&app, |job| sample(job, 10_000)), None);
    }

    #[test]
    fn a_long_job_keeps_both_sides_of_every_dst_transition_and_an_even_sample() {
        // Three years hourly in Los Angeles: six transitions.
        let app = hourly(
            "America/Los_Angeles",
            "UTC",
            "2009-01-01T08:00Z",
            "2012-01-01T08:00Z",
        );
        let sample = with_job(&app, |job| sample(job, 2_000)).unwrap();
        assert_eq!(sample.total, 26_280);
        assert_eq!(sample.transitions, 6);
        assert_eq!(sample.per_side, 64);
        assert!(sample.kept.len() <= 2_000, "{}", sample.kept.len());
        assert!(sample.keeps(0) && sample.keeps(26_279));
        // 2009-03-08T10:00Z, the first hour after the spring switch (02:00
        // PST became 03:00 PDT), is 1,586 hours after the start.
        let switch = 1_586;
        assert!((switch - 64..switch + 64).all(|i| sample.keeps(i)));
        // The rest in blocks of 50, evenly spread: the budget left after the
        // transitions (2,000 - 6 * 128 - 2) holds 24 of them, 1,095 apart.
        assert_eq!(sample.blocks, 24);
        assert!((0..24).all(|b| (b * 1_095..b * 1_095 + 50).all(|i| sample.keeps(i))));
        assert!(!sample.keeps(50) && !sample.keeps(1_094));
    }

    #[test]
    fn a_dataset_zone_counts_its_own_transitions() {
        // A UTC job reading a dataset in Los Angeles: the dataset's switches.
        let app = hourly(
            "UTC",
            "America/Los_Angeles",
            "2009-01-01T00:00Z",
            "2010-01-01T00:00Z",
        );
        let kept = with_job(&app, |job| sample(job, 1_000)).unwrap();
        assert_eq!(kept.transitions, 2);
        let utc = hourly("UTC", "UTC", "2009-01-01T00:00Z", "2010-01-01T00:00Z");
        let kept = with_job(&utc, |job| sample(job, 1_000)).unwrap();
        assert_eq!(kept.transitions, 0);
    }
}
