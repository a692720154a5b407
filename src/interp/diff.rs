//! What a change does to what will run: the dry runs of two versions of a
//! coordinator, compared action by action as they stream.
//!
//! Actions with the same nominal time are the same action: their data-in
//! and data-out URIs, app-path and resolved configuration are compared.
//! Between two such matches, the actions only one side has are paired in
//! order as moves (an action that now runs at another time: a DST
//! frequency change, a start moved by less than a period); what is left
//! appears or disappears. Each difference falls into a group a person reads
//! ("14 actions move 1 h later"), which keeps a bounded number of examples,
//! so memory does not grow with the job's length.

use crate::diag::Diagnostic;
use crate::oozie::action::Action;
use crate::time::datetime::format_utc;
use crate::time::zone::Zone;
use chrono::{DateTime, Datelike, Utc};
use std::collections::{BTreeMap, VecDeque};

/// Examples kept per group.
pub const EXAMPLES: usize = 20;

/// Unmatched actions held on one side before the oldest is let go: a side
/// that runs ahead (a start moved by months) does not grow memory.
const MOST_PENDING: usize = 10_000;

/// An action as the comparison reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    pub nominal: DateTime<Utc>,
    pub inputs: Vec<(String, Vec<String>)>,
    pub outputs: Vec<(String, Vec<String>)>,
    pub app_path: String,
    pub configuration: Vec<(String, String)>,
}

impl From<Action<'_>> for Run {
    /// The action's values, moved (not copied: a long window makes many).
    fn from(action: Action<'_>) -> Run {
        let events = |events: Vec<crate::oozie::action::Event>| {
            events
                .into_iter()
                .map(|e| (e.name.to_string(), e.uris))
                .collect()
        };
        Run {
            nominal: action.nominal,
            inputs: events(action.inputs),
            outputs: events(action.outputs),
            app_path: action.app_path.into_owned(),
            configuration: action
                .configuration
                .into_iter()
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect(),
        }
    }
}

/// What kind of difference a group holds.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Change {
    /// Only the new version has these actions.
    Appears,
    /// Only the old version has these actions.
    Disappears,
    /// The action runs `minutes` later (earlier when negative).
    Moves {
        minutes: i64,
    },
    /// A data-in's URIs: `added` more, `removed` fewer.
    DataIn {
        name: String,
        added: usize,
        removed: usize,
    },
    DataOut {
        name: String,
        added: usize,
        removed: usize,
    },
    AppPath,
    /// A property of the resolved configuration: set, unset or changed.
    Property {
        name: String,
        how: PropertyChange,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PropertyChange {
    Added,
    Removed,
    Changed,
}

/// One action's difference, for the detail.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Example {
    /// The action's nominal time: the old one for what disappears or moves.
    pub nominal: String,
    /// Where it moves to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// The old value(s), the new value(s).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub old: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub new: Vec<String>,
}

/// The actions that differ in one way.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Group {
    #[serde(flatten)]
    pub change: Change,
    pub count: usize,
    /// The nominal times of the first and last of them (the old times of
    /// what disappears or moves).
    #[serde(serialize_with = "oozie_time")]
    pub first: DateTime<Utc>,
    #[serde(serialize_with = "oozie_time")]
    pub last: DateTime<Utc>,
    /// When all of them (more than one) fall in the job zone's daylight
    /// saving time and other actions compared do not:
    /// `America/Los_Angeles daylight saving time`. A DST change shows as a
    /// group of the DST days.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub season: Option<String>,
    /// How many of them fall in daylight saving time.
    #[serde(skip)]
    in_dst: usize,
    /// The first [`EXAMPLES`] of them.
    pub examples: Vec<Example>,
}

/// A time as Oozie writes it (`2025-01-01T00:00Z`).
fn oozie_time<S: serde::Serializer>(t: &DateTime<Utc>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format_utc(*t))
}

/// The comparison of one coordinator's two versions.
#[derive(Debug, Default, serde::Serialize)]
pub struct Comparison {
    /// Actions listed on each side.
    pub old_actions: usize,
    pub new_actions: usize,
    /// Actions on both sides with nothing changed.
    pub unchanged: usize,
    pub groups: Vec<Group>,
}

impl Comparison {
    pub fn changed(&self) -> bool {
        !self.groups.is_empty()
    }
}

/// Compares two action streams, each in its order, of a job in `zone`
/// (the seasons of the groups are its); stops at the first action that
/// does not resolve (its side and diagnostic).
pub fn compare<'a>(
    old: impl Iterator<Item = Result<Action<'a>, Diagnostic>>,
    new: impl Iterator<Item = Result<Action<'a>, Diagnostic>>,
    zone: &Zone,
) -> Result<Comparison, (Side, Diagnostic)> {
    compare_runs(
        old.map(|a| a.map(Run::from).map_err(|d| (Side::Old, d))),
        new.map(|a| a.map(Run::from).map_err(|d| (Side::New, d))),
        zone,
    )
}

/// [`compare`] over runs: merged by nominal time, one of each side held.
fn compare_runs<E>(
    mut old: impl Iterator<Item = Result<Run, E>>,
    mut new: impl Iterator<Item = Result<Run, E>>,
    zone: &Zone,
) -> Result<Comparison, E> {
    let mut state = State {
        zone,
        winter: None,
        seen: 0,
        seen_dst: 0,
        comparison: Comparison::default(),
        pending_old: VecDeque::new(),
        pending_new: VecDeque::new(),
        groups: BTreeMap::new(),
    };
    let mut next_old = old.next().transpose()?;
    let mut next_new = new.next().transpose()?;
    loop {
        match (next_old.take(), next_new.take()) {
            (None, None) => break,
            (Some(o), Some(n)) if o.nominal == n.nominal => {
                state.flush();
                state.same_time(&o, &n);
                next_old = old.next().transpose()?;
                next_new = new.next().transpose()?;
            }
            (Some(o), n) if n.as_ref().is_none_or(|n| o.nominal < n.nominal) => {
                state.old_only(o);
                next_old = old.next().transpose()?;
                next_new = n;
            }
            (o, Some(n)) => {
                state.new_only(n);
                next_new = new.next().transpose()?;
                next_old = o;
            }
            (Some(_), None) => unreachable!("handled above"),
        }
    }
    state.flush();
    let mut comparison = state.comparison;
    // (Said only where it sets the group apart: some action compared is
    // in standard time.)
    let some_standard = state.seen_dst < state.seen;
    comparison.groups = state
        .groups
        .into_values()
        .map(|group| Group {
            season: (some_standard && group.count > 1 && group.in_dst == group.count)
                .then(|| format!("{} daylight saving time", zone.id())),
            ..group
        })
        .collect();
    Ok(comparison)
}

/// Which version an action came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Old,
    New,
}

struct State<'z> {
    zone: &'z Zone,
    /// The year last asked about and its winter offset in the zone.
    winter: Option<(i32, i32)>,
    /// The nominal times met (a moved action's twice: its old and new
    /// time) and those in summer time.
    seen: usize,
    seen_dst: usize,
    comparison: Comparison,
    pending_old: VecDeque<DateTime<Utc>>,
    pending_new: VecDeque<DateTime<Utc>>,
    groups: BTreeMap<Change, Group>,
}

impl State<'_> {
    /// Whether `t` is in the zone's summer time (daylight saving time):
    /// its offset above the year's winter one.
    fn in_dst(&mut self, t: DateTime<Utc>) -> bool {
        let year = t.year();
        let winter = match self.winter {
            Some((y, offset)) if y == year => offset,
            _ => {
                let offset = self.zone.winter_offset_seconds(year);
                self.winter = Some((year, offset));
                offset
            }
        };
        self.zone.offset_seconds(t) > winter
    }

    /// Counts a nominal time met, and whether it is in DST.
    fn meet(&mut self, t: DateTime<Utc>) {
        self.seen += 1;
        if self.in_dst(t) {
            self.seen_dst += 1;
        }
    }

    fn old_only(&mut self, run: Run) {
        self.meet(run.nominal);
        self.comparison.old_actions += 1;
        self.pending_old.push_back(run.nominal);
        if self.pending_old.len() > MOST_PENDING && self.pending_new.is_empty() {
            let t = self.pending_old.pop_front().unwrap_or(run.nominal);
            self.record(Change::Disappears, t, || example(t));
        }
    }

    fn new_only(&mut self, run: Run) {
        self.meet(run.nominal);
        self.comparison.new_actions += 1;
        self.pending_new.push_back(run.nominal);
        if self.pending_new.len() > MOST_PENDING && self.pending_old.is_empty() {
            let t = self.pending_new.pop_front().unwrap_or(run.nominal);
            self.record(Change::Appears, t, || example(t));
        }
        self.pair_pending();
    }

    /// Pairs what both sides hold unmatched, oldest first: moves.
    fn pair_pending(&mut self) {
        while !self.pending_old.is_empty() && !self.pending_new.is_empty() {
            if let (Some(from), Some(to)) =
                (self.pending_old.pop_front(), self.pending_new.pop_front())
            {
                let minutes = (to - from).num_minutes();
                self.record(Change::Moves { minutes }, from, || Example {
                    to: Some(format_utc(to)),
                    ..example(from)
                });
            }
        }
    }

    /// At a match: what only one side holds appears or disappears.
    fn flush(&mut self) {
        self.pair_pending();
        while let Some(t) = self.pending_old.pop_front() {
            self.record(Change::Disappears, t, || example(t));
        }
        while let Some(t) = self.pending_new.pop_front() {
            self.record(Change::Appears, t, || example(t));
        }
    }

    /// The same action on both sides. (Every action of a long window
    /// comes here: values are compared in place, and copied only into the
    /// examples kept.)
    fn same_time(&mut self, old: &Run, new: &Run) {
        self.meet(old.nominal);
        self.comparison.old_actions += 1;
        self.comparison.new_actions += 1;
        let t = old.nominal;
        let mut changed = false;
        for (kind, old_events, new_events) in [
            (EventKind::In, &old.inputs, &new.inputs),
            (EventKind::Out, &old.outputs, &new.outputs),
        ] {
            let names = union(
                old_events.iter().map(|(n, _)| n),
                new_events.iter().map(|(n, _)| n),
            );
            for name in names {
                let (was, now) = (uris_of(old_events, name), uris_of(new_events, name));
                if was == now {
                    continue;
                }
                changed = true;
                let removed: Vec<&String> = was.iter().filter(|u| !now.contains(u)).collect();
                let added: Vec<&String> = now.iter().filter(|u| !was.contains(u)).collect();
                let (name, added_count, removed_count) = (name.clone(), added.len(), removed.len());
                let change = match kind {
                    EventKind::In => Change::DataIn {
                        name,
                        added: added_count,
                        removed: removed_count,
                    },
                    EventKind::Out => Change::DataOut {
                        name,
                        added: added_count,
                        removed: removed_count,
                    },
                };
                self.record(change, t, || {
                    let owned = |uris: &[&String]| uris.iter().map(|u| u.to_string()).collect();
                    // (Same URIs in another order: the whole lists show it.)
                    let (old, new) = if added.is_empty() && removed.is_empty() {
                        (was.to_vec(), now.to_vec())
                    } else {
                        (owned(&removed), owned(&added))
                    };
                    Example {
                        old,
                        new,
                        ..example(t)
                    }
                });
            }
        }
        if old.app_path != new.app_path {
            changed = true;
            self.record(Change::AppPath, t, || Example {
                old: vec![old.app_path.clone()],
                new: vec![new.app_path.clone()],
                ..example(t)
            });
        }
        let names = union(
            old.configuration.iter().map(|(k, _)| k),
            new.configuration.iter().map(|(k, _)| k),
        );
        for name in names {
            let (was, now) = (
                value_of(&old.configuration, name),
                value_of(&new.configuration, name),
            );
            let how = match (was, now) {
                (Some(a), Some(b)) if a == b => continue,
                (Some(_), Some(_)) => PropertyChange::Changed,
                (None, _) => PropertyChange::Added,
                (_, None) => PropertyChange::Removed,
            };
            changed = true;
            let change = Change::Property {
                name: name.clone(),
                how,
            };
            self.record(change, t, || Example {
                old: was.into_iter().cloned().collect(),
                new: now.into_iter().cloned().collect(),
                ..example(t)
            });
        }
        if !changed {
            self.comparison.unchanged += 1;
        }
    }

    /// Counts an action of `change`'s group; its example is made only
    /// while the group keeps examples.
    fn record(&mut self, change: Change, t: DateTime<Utc>, example: impl FnOnce() -> Example) {
        // (A move's group is of its old time, in the new job's zone.)
        let in_dst = self.in_dst(t);
        let group = self
            .groups
            .entry(change)
            .or_insert_with_key(|change| Group {
                change: change.clone(),
                count: 0,
                first: t,
                last: t,
                season: None,
                in_dst: 0,
                examples: Vec::new(),
            });
        group.count += 1;
        if in_dst {
            group.in_dst += 1;
        }
        group.last = t;
        if group.examples.len() < EXAMPLES {
            group.examples.push(example());
        }
    }
}

enum EventKind {
    In,
    Out,
}

fn example(t: DateTime<Utc>) -> Example {
    Example {
        nominal: format_utc(t),
        to: None,
        old: Vec::new(),
        new: Vec::new(),
    }
}

/// The URIs of event `name` (none when the action has no such event).
fn uris_of<'r>(events: &'r [(String, Vec<String>)], name: &str) -> &'r [String] {
    events
        .iter()
        .find(|(n, _)| n == name)
        .map_or(&[][..], |(_, uris)| uris.as_slice())
}

/// The value of property `name`: the last one set, as a configuration reads it.
fn value_of<'r>(configuration: &'r [(String, String)], name: &str) -> Option<&'r String> {
    configuration
        .iter()
        .rev()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v)
}

/// The names of both lists, each once, in the order they come.
fn union<'s>(
    a: impl Iterator<Item = &'s String>,
    b: impl Iterator<Item = &'s String>,
) -> Vec<&'s String> {
    let mut names: Vec<&String> = Vec::new();
    for name in a.chain(b) {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

impl Group {
    /// What changes, without how many actions or when: `actions move 1 h
    /// later`, `data-in `logs` reads 1 more URI`.
    pub fn headline(&self) -> String {
        match &self.change {
            Change::Appears => "actions appear".to_string(),
            Change::Disappears => "actions disappear".to_string(),
            Change::Moves { minutes } => format!(
                "actions move {} {}",
                duration(minutes.unsigned_abs()),
                if *minutes >= 0 { "later" } else { "earlier" }
            ),
            Change::DataIn {
                name,
                added,
                removed,
            } => format!("data-in `{name}` {}", uris_change(*added, *removed)),
            Change::DataOut {
                name,
                added,
                removed,
            } => format!("data-out `{name}` {}", uris_change(*added, *removed)),
            Change::AppPath => "the workflow's app-path changes".to_string(),
            Change::Property { name, how } => format!(
                "property `{name}` {}",
                match how {
                    PropertyChange::Added => "is set",
                    PropertyChange::Removed => "is no longer set",
                    PropertyChange::Changed => "changes value",
                }
            ),
        }
    }

    /// The group as a sentence: its headline, how many actions, when.
    pub fn describe(&self) -> String {
        let n = self.count;
        let (first, last) = (format_utc(self.first), format_utc(self.last));
        let span = match (&self.season, first == last) {
            (_, true) => format!("at {first}"),
            (Some(season), false) => format!("from {first} to {last}, all in {season}"),
            (None, false) => format!("from {first} to {last}"),
        };
        let headline = self.headline();
        match headline.strip_prefix("actions ") {
            // "1 action moves", "2 actions move".
            Some(verb) if n == 1 => {
                let (first, rest) = match verb.split_once(' ') {
                    Some((first, rest)) => (first, format!(" {rest}")),
                    None => (verb, String::new()),
                };
                format!("1 action {first}s{rest} ({span})")
            }
            Some(verb) => format!("{n} actions {verb} ({span})"),
            None => format!(
                "{headline} ({n} {}, {span})",
                if n == 1 { "action" } else { "actions" }
            ),
        }
    }
}

fn uris_change(added: usize, removed: usize) -> String {
    let uris = |n: usize| if n == 1 { "URI" } else { "URIs" };
    match (added, removed) {
        (0, 0) => "reads its URIs in another order".to_string(),
        (a, 0) => format!("reads {a} more {}", uris(a)),
        (0, r) => format!("reads {r} fewer {}", uris(r)),
        (a, r) => format!("reads {a} other {} in place of {r}", uris(a)),
    }
}

/// Minutes as a person says them: `1 h`, `30 min`, `1 day`, `1 h 30 min`.
fn duration(minutes: u64) -> String {
    let (days, hours, mins) = (minutes / 1440, minutes % 1440 / 60, minutes % 60);
    let mut parts = Vec::new();
    if days > 0 {
        parts.push(format!("{days} {}", if days == 1 { "day" } else { "days" }));
    }
    if hours > 0 {
        parts.push(format!("{hours} h"));
    }
    if mins > 0 || parts.is_empty() {
        parts.push(format!("{mins} min"));
    }
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn run(hour: u32, uris: &[&str], conf: &[(&str, &str)]) -> Run {
        Run {
            nominal: Utc.with_ymd_and_hms(2025, 1, 1, hour, 0, 0).unwrap(),
            inputs: vec![(
                "logs".to_string(),
                uris.iter().map(|u| u.to_string()).collect(),
            )],
            outputs: Vec::new(),
            app_path: "hdfs://nn/wf".to_string(),
            configuration: conf
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }

    /// `compare` over runs already made.
    fn diff(old: Vec<Run>, new: Vec<Run>) -> Comparison {
        let ok = |runs: Vec<Run>| runs.into_iter().map(Ok::<Run, ()>);
        compare_runs(ok(old), ok(new), &Zone::utc()).unwrap()
    }

    #[test]
    fn the_same_runs_differ_in_nothing() {
        let runs: Vec<Run> = (0..5).map(|h| run(h, &["a"], &[("k", "v")])).collect();
        let c = diff(runs.clone(), runs);
        assert!(!c.changed());
        assert_eq!((c.old_actions, c.new_actions, c.unchanged), (5, 5, 5));
    }

    #[test]
    fn actions_only_one_side_has_between_matches_are_moves() {
        // 0, 1, 3 against 0, 2, 3: between the matches at 0 and 3, the
        // action at 1 moves to 2.
        let old = vec![run(0, &[], &[]), run(1, &[], &[]), run(3, &[], &[])];
        let new = vec![run(0, &[], &[]), run(2, &[], &[]), run(3, &[], &[])];
        let c = diff(old, new);
        assert_eq!(c.groups.len(), 1);
        assert_eq!(c.groups[0].change, Change::Moves { minutes: 60 });
        assert_eq!(
            c.groups[0].describe(),
            "1 action moves 1 h later (at 2025-01-01T01:00Z)"
        );
        assert_eq!(
            c.groups[0].examples[0].to.as_deref(),
            Some("2025-01-01T02:00Z")
        );
    }

    #[test]
    fn a_shorter_job_loses_its_last_actions_and_a_longer_one_gains() {
        let old: Vec<Run> = (0..5).map(|h| run(h, &[], &[])).collect();
        let new: Vec<Run> = (2..8).map(|h| run(h, &[], &[])).collect();
        let c = diff(old, new);
        let described: Vec<String> = c.groups.iter().map(Group::describe).collect();
        assert_eq!(
            described,
            [
                "3 actions appear (from 2025-01-01T05:00Z to 2025-01-01T07:00Z)",
                "2 actions disappear (from 2025-01-01T00:00Z to 2025-01-01T01:00Z)",
            ]
        );
    }

    #[test]
    fn uris_and_properties_are_compared_on_the_same_action() {
        let old = vec![run(0, &["a", "b"], &[("q", "1"), ("gone", "x")])];
        let new = vec![run(0, &["a", "b", "c"], &[("q", "2"), ("new", "y")])];
        let c = diff(old, new);
        let described: Vec<String> = c.groups.iter().map(Group::describe).collect();
        assert_eq!(
            described,
            [
                "data-in `logs` reads 1 more URI (1 action, at 2025-01-01T00:00Z)",
                "property `gone` is no longer set (1 action, at 2025-01-01T00:00Z)",
                "property `new` is set (1 action, at 2025-01-01T00:00Z)",
                "property `q` changes value (1 action, at 2025-01-01T00:00Z)",
            ]
        );
        assert_eq!(c.groups[0].examples[0].new, ["c"]);
        assert_eq!(c.unchanged, 0);
    }

    /// A group whose actions are all in DST, among actions that are not,
    /// says so; one that covers every action compared does not.
    #[test]
    fn a_group_of_the_dst_days_says_so() {
        let la = Zone::parse("America/Los_Angeles").unwrap();
        let day = |m: u32, d: u32, conf: &str| Run {
            nominal: Utc.with_ymd_and_hms(2025, m, d, 8, 0, 0).unwrap(),
            ..run(0, &[], &[("k", conf)])
        };
        // March 8 and 20 November are standard time, 10 March to 1 November
        // daylight saving time (in 2025).
        let old = vec![
            day(3, 8, "a"),
            day(3, 10, "a"),
            day(6, 1, "a"),
            day(11, 20, "a"),
        ];
        let new = vec![
            day(3, 8, "a"),
            day(3, 10, "b"),
            day(6, 1, "b"),
            day(11, 20, "a"),
        ];
        let ok = |runs: Vec<Run>| runs.into_iter().map(Ok::<Run, ()>);
        let c = compare_runs(ok(old.clone()), ok(new.clone()), &la).unwrap();
        assert_eq!(
            c.groups[0].describe(),
            "property `k` changes value (2 actions, from 2025-03-10T08:00Z to 2025-06-01T08:00Z, all in America/Los_Angeles daylight saving time)"
        );
        let summer = |runs: Vec<Run>| runs.into_iter().skip(1).take(2).map(Ok::<Run, ()>);
        let c = compare_runs(summer(old), summer(new), &la).unwrap();
        assert_eq!(c.groups[0].season, None);
    }

    #[test]
    fn durations_read_as_a_person_says_them() {
        assert_eq!(duration(60), "1 h");
        assert_eq!(duration(90), "1 h 30 min");
        assert_eq!(duration(1440), "1 day");
        assert_eq!(duration(0), "0 min");
    }
}
