//! What consecutive actions read across daylight saving switches (DST002,
//! DST003), found by resolving the job's actions around the switches of the
//! job's zone and of each dataset's zone, as the dry run does, rather than
//! from the look of the application.
//!
//! A data-in *tiles* between two consecutive actions when the second reads
//! from the instance right after the last one the first read: every
//! instance once, none skipped. A data-in that tiles on ordinary days and
//! not at a switch loses or repeats data twice a year. Whose clock decides
//! it: the length of the job's days comes from the job's zone (its nominal
//! times are `Calendar.add(DAY)` in that zone), while an hourly dataset's
//! instances are absolute hours, whatever its zone (one `add(MINUTE, 60)`
//! after another from the initial instance; the zone only enters
//! `coord:hoursInDay`, `coord:tzOffset` and day-or-longer frequencies).
//!
//! - DST002: the actions are 23 or 25 hours apart at a switch of the job's
//!   zone, and the data-in reads what it reads on other days.
//! - DST003: the actions are as far apart as on other days, and what the
//!   data-in reads moved anyway (a dataset whose days follow another zone,
//!   or a range sized by the `coord:hoursInDay` of another zone's days).
//!
//! A data-in shifted by `coord:tzOffset()` is left alone: that is how data
//! in directories named in a zone's local time is read, and there the hour
//! the local clock skips or repeats is the data's own.
//!
//! A rewrite is offered only when the rule has computed, over the same
//! actions, that it reads every instance once.

use crate::diag::Diagnostic;
use crate::diag::Located;
use crate::diag::rules::{DST_FIXED_HOURS, DST_ZONE_MISMATCH};
use crate::ir::{Coordinator, DataIn, Instances};
use crate::oozie::action::Action;
use crate::oozie::job::{Job, Schedule};
use crate::time::calendar::add;
use crate::time::frequency::{Frequency, FrequencyUnit, move_to_end};
use crate::time::instance::DatasetClock;
use crate::time::zone::Zone;
use chrono::{DateTime, Datelike, Duration, TimeZone, Utc};
use std::collections::{BTreeMap, HashMap, VecDeque};

/// How far from the job's start switches are looked for: the next spring
/// and autumn switches of every zone involved.
const HORIZON_DAYS: i64 = 400;
/// How far apart the offsets are compared to find a switch: two switches
/// within fewer days (a zone that leaves summer time and returns to it that
/// quickly, which DST rules do not do) would go unseen.
const SCAN_STEP_DAYS: i64 = 4;
/// Nominal times walked at most to reach the last switch's window.
const SCAN_ACTIONS: usize = 200_000;
/// Actions kept before and after a switch (at least 3 either side, and
/// those within the days below).
const BEFORE: usize = 24;
const AFTER: usize = 48;
const DAYS_BEFORE: i64 = 3;
const DAYS_AFTER: i64 = 6;
/// The actions opening the first window, ordinary days before its switch,
/// where a data-in must read each instance once to be looked at further.
const ORDINARY: usize = 4;
/// Instances one action may read for its data-in to be looked at (a week
/// of minutes): the windows resolve dozens of actions.
const MAX_READ: usize = 10_080;
/// Dataset instances listed at most to read an action's URIs back as instants.
const TABLE_LIMIT: i64 = 40_000;

/// The instants at which `zone`'s UTC offset changes in [from, to).
/// (Found a calendar year at a time, each year of a zone once per thread:
/// the applications of a check share a handful of zones.)
pub(crate) fn switches(zone: &Zone, from: DateTime<Utc>, to: DateTime<Utc>) -> Vec<DateTime<Utc>> {
    type Known = rustc_hash::FxHashMap<(String, i32), Vec<DateTime<Utc>>>;
    thread_local! {
        static KNOWN: std::cell::RefCell<Known> = std::cell::RefCell::default();
    }
    let mut out = Vec::new();
    if zone.has_fixed_offset() || from >= to {
        return out;
    }
    for year in from.year()..=to.year() {
        let (Some(start), Some(end)) = (
            Utc.with_ymd_and_hms(year, 1, 1, 0, 0, 0).single(),
            Utc.with_ymd_and_hms(year + 1, 1, 1, 0, 0, 0).single(),
        ) else {
            // (Past chrono's calendar: scanned as asked.)
            return scanned(zone, from, to);
        };
        let of_year = KNOWN.with(|known| {
            known
                .borrow_mut()
                .entry((zone.id().to_string(), year))
                .or_insert_with(|| scanned(zone, start, end))
                .clone()
        });
        out.extend(of_year.into_iter().filter(|t| *t >= from && *t < to));
    }
    out
}

/// [`switches`], scanned every [`SCAN_STEP_DAYS`] days and found to the
/// minute.
fn scanned(zone: &Zone, from: DateTime<Utc>, to: DateTime<Utc>) -> Vec<DateTime<Utc>> {
    let mut out = Vec::new();
    let mut t = from;
    while t < to {
        // (`to` is an instant of the job, two days inside the calendar.)
        let Some(next) = t.checked_add_signed(Duration::days(SCAN_STEP_DAYS)) else {
            break;
        };
        if zone.offset_seconds(t) != zone.offset_seconds(next) {
            // The first minute of the new offset (offsets change on a minute).
            let (mut lo, mut hi) = (t, next);
            while hi - lo > Duration::minutes(1) {
                let mid = lo + Duration::minutes((hi - lo).num_minutes() / 2);
                if zone.offset_seconds(mid) == zone.offset_seconds(lo) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            if hi >= from && hi < to {
                out.push(hi);
            }
        }
        t = next;
    }
    out
}

/// Consecutive actions: each one's number (from 1) and nominal time.
type Window = Vec<(usize, DateTime<Utc>)>;

/// The consecutive actions around each switch (numbered from 1): those
/// from [`DAYS_BEFORE`] days before it (at least 3, at most [`BEFORE`]) to
/// [`DAYS_AFTER`] days after (at least 3, at most [`AFTER`]); switches whose
/// windows meet share one. A frequency's k-th nominal time is one
/// `Calendar.add` of k frequencies from the start, as the job computes it
/// (`time::frequency::nominal_time_iter`), so the windows are found without
/// walking the actions before them.
fn windows(job: &Job, switches: &[DateTime<Utc>]) -> Vec<Window> {
    let f = match job.schedule() {
        Schedule::Every(f) => *f,
        Schedule::Cron(_) => return windows_walked(job, switches),
    };
    let origin = if f.end_of {
        move_to_end(&job.zone, job.start, f.unit)
    } else {
        Some(job.start)
    };
    let Some(origin) = origin else {
        return Vec::new();
    };
    let unit = f.unit.calendar_unit();
    let nominal =
        |k: i64| add(&job.zone, origin, unit, k.checked_mul(f.count)?).filter(|t| *t < job.end);
    let period = match f.unit {
        FrequencyUnit::Minute => f.count,
        FrequencyUnit::Day => f.count.saturating_mul(1440),
        FrequencyUnit::Week => f.count.saturating_mul(7 * 1440),
        FrequencyUnit::Month => f.count.saturating_mul(28 * 1440),
    }
    .max(1);
    let before =
        usize::try_from(DAYS_BEFORE * 1440 / period).map_or(BEFORE, |n| n.clamp(3, BEFORE));
    let after =
        usize::try_from(DAYS_AFTER * 1440 / period + 1).map_or(AFTER, |n| n.clamp(3, AFTER));
    let mut ranges: Vec<(i64, i64)> = Vec::new();
    for &s in switches {
        // The first action at or after the switch: an estimate, then steps.
        let mut k = ((s - origin).num_minutes() / period).max(0);
        let mut steps = 0;
        while k > 0 && nominal(k).is_some_and(|t| t >= s) && steps < 8 {
            k -= 1;
            steps += 1;
        }
        while nominal(k).is_some_and(|t| t < s) && steps < 16 {
            k += 1;
            steps += 1;
        }
        let (from, to) = (
            k.saturating_sub(before as i64).max(0),
            k.saturating_add(after as i64 - 1),
        );
        match ranges.last_mut() {
            Some(last) if from <= last.1 + 1 => last.1 = last.1.max(to),
            _ => ranges.push((from, to)),
        }
    }
    ranges
        .into_iter()
        .map(|(from, to)| {
            (from..=to)
                .map_while(|k| Some((usize::try_from(k).ok()? + 1, nominal(k)?)))
                .collect::<Window>()
        })
        .filter(|w| w.len() >= 2)
        .collect()
}

/// The consecutive actions around each switch, found by walking the
/// nominal times (a cron schedule's, which `Job` lists): those
/// from [`DAYS_BEFORE`] days before it (at least 3, at most [`BEFORE`]) to
/// [`DAYS_AFTER`] days after (at least 3, at most [`AFTER`]); switches whose
/// windows meet share one.
fn windows_walked(job: &Job, switches: &[DateTime<Utc>]) -> Vec<Window> {
    let mut out = Vec::new();
    let mut recent: VecDeque<(usize, DateTime<Utc>)> = VecDeque::new();
    let mut pending = switches.iter().copied().peekable();
    // The window being filled, the last switch in it, and how many actions
    // came after that switch.
    let mut open: Option<(Window, DateTime<Utc>, usize)> = None;
    for (i, nominal) in job.nominal_times_all().take(SCAN_ACTIONS).enumerate() {
        let item = (i + 1, nominal);
        let mut passed = None;
        while let Some(s) = pending.next_if(|&s| nominal >= s) {
            passed = Some(s);
        }
        open = match (open.take(), passed) {
            (Some((mut window, _, _)), Some(s)) => {
                window.push(item);
                Some((window, s, 1))
            }
            (Some((mut window, s, after)), None) => {
                if after < 3
                    || (after < AFTER
                        && s.checked_add_signed(Duration::days(DAYS_AFTER))
                            .is_none_or(|limit| nominal <= limit))
                {
                    window.push(item);
                    Some((window, s, after + 1))
                } else {
                    out.push(window);
                    None
                }
            }
            (None, Some(s)) => {
                let from = s
                    .checked_sub_signed(Duration::days(DAYS_BEFORE))
                    .unwrap_or(DateTime::<Utc>::MIN_UTC);
                let kept = recent.len();
                let mut window: Vec<_> = recent
                    .iter()
                    .enumerate()
                    .filter(|&(k, &(_, t))| t >= from || k + 3 >= kept)
                    .map(|(_, &x)| x)
                    .collect();
                window.push(item);
                Some((window, s, 1))
            }
            (None, None) => None,
        };
        recent.push_back(item);
        if recent.len() > BEFORE {
            recent.pop_front();
        }
        if open.is_none() && pending.peek().is_none() {
            break;
        }
    }
    if let Some((window, _, _)) = open {
        out.push(window);
    }
    out.retain(|w| w.len() >= 2);
    out
}

/// How two consecutive reads of one data-in meet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Meeting {
    /// Instances the second reads that the first read too (or earlier ones).
    again: usize,
    /// Instances between the two that neither reads.
    skipped: usize,
    /// The first instance read again, or the first skipped.
    at: Option<DateTime<Utc>>,
}

impl Meeting {
    fn tiles(&self) -> bool {
        self.again == 0 && self.skipped == 0
    }
}

/// How `second` follows `first` (both sorted instances of `clock`).
fn meet(
    first: &[DateTime<Utc>],
    second: &[DateTime<Utc>],
    clock: &DatasetClock,
) -> Option<Meeting> {
    let (&last, &next) = (first.last()?, second.first()?);
    let again: Vec<_> = second.iter().filter(|&&t| t <= last).collect();
    let index = |t| clock.current_instance(t).ok().flatten().map(|(i, _)| i);
    let skipped = if next > last {
        usize::try_from(index(next)? - index(last)? - 1).ok()?
    } else {
        0
    };
    let at = match again.first() {
        Some(&&t) => Some(t),
        None if skipped > 0 => clock.current(last, 1).ok().flatten(),
        None => None,
    };
    Some(Meeting {
        again: again.len(),
        skipped,
        at,
    })
}

/// One action of a window: its number, nominal time and what the data-in
/// reads, sorted.
type Read = (usize, DateTime<Utc>, Vec<DateTime<Utc>>);

/// What the actions of a window read of data-in `index`, as instants: the
/// URIs the actions resolved to, read back through the dataset's clock.
/// `None` when some read is unresolved (latest, future), or URIs do not
/// name one instance each.
fn reads(
    job: &Job,
    data_in: &DataIn,
    index: usize,
    clock: &DatasetClock,
    window: &[(usize, DateTime<Utc>, &Action)],
) -> Option<Vec<Read>> {
    let (first, last) = (window.first()?, window.last()?);
    let (first_count, _) = clock.current_instance(first.1).ok()??;
    let (last_count, _) = clock.current_instance(last.1).ok()??;
    let span = last_count - first_count;
    let uris: Vec<&Vec<String>> = window
        .iter()
        .map(|(_, _, a)| {
            let event = a.inputs.get(index)?;
            (event.unresolved.is_empty() && event.uris.len() <= MAX_READ).then_some(&event.uris)
        })
        .collect::<Option<_>>()?;
    let mut margin = 64;
    loop {
        if span + 2 * margin > TABLE_LIMIT {
            return None;
        }
        let all = clock.current_range(last.1, -(span + margin), margin).ok()?;
        let mut table: HashMap<String, DateTime<Utc>> = HashMap::with_capacity(all.len());
        for &t in &all {
            let uri = job.instance_uri(&data_in.dataset.name, t)?.ok()?;
            if table.insert(uri, t).is_some_and(|other| other != t) {
                // Two instances, one URI: which was read is not known.
                return None;
            }
        }
        let found: Option<Vec<Read>> = window
            .iter()
            .zip(&uris)
            .map(|(&(n, t, _), uris)| {
                let mut instants = uris
                    .iter()
                    .map(|u| table.get(u).copied())
                    .collect::<Option<Vec<_>>>()?;
                instants.sort();
                Some((n, t, instants))
            })
            .collect();
        if found.is_some() {
            return found;
        }
        margin *= 8;
    }
}

/// A range a rule suggests, as Oozie resolves it.
#[derive(Debug, Clone, Copy)]
enum Rewrite {
    /// `current(end + 1 - coord:hoursInDay(k))` .. `current(end)`.
    HoursInDay { end: i64, k: i64 },
    /// `current(start)` .. `current(end)`.
    Fixed { start: i64, end: i64 },
}

impl Rewrite {
    fn start_text(&self) -> String {
        match *self {
            Rewrite::HoursInDay { end, k } => {
                let call = format!("coord:hoursInDay({k})");
                match end + 1 {
                    0 => format!("${{coord:current(-{call})}}"),
                    b => format!("${{coord:current({b} - {call})}}"),
                }
            }
            Rewrite::Fixed { start, .. } => format!("${{coord:current({start})}}"),
        }
    }

    fn end_text(&self) -> String {
        match *self {
            Rewrite::HoursInDay { end, .. } | Rewrite::Fixed { end, .. } => {
                format!("${{coord:current({end})}}")
            }
        }
    }

    /// What the range reads at `nominal` with `clock`, sorted.
    fn read(&self, clock: &DatasetClock, nominal: DateTime<Utc>) -> Option<Vec<DateTime<Utc>>> {
        let (start, end) = match *self {
            Rewrite::HoursInDay { end, k } => {
                let hours = clock.hours_in_day(nominal, k).ok()?;
                if hours < 0 {
                    return None;
                }
                ((end + 1).checked_sub(i64::from(hours))?, end)
            }
            Rewrite::Fixed { start, end } => (start, end),
        };
        let mut instances = clock.current_range(nominal, start, end).ok()?;
        instances.sort();
        Some(instances)
    }
}

/// Whether `rewrite` with `clock` reads every instance once across every
/// window, as `original` (the data-in's own reads) were checked.
fn proves(rewrite: &Rewrite, clock: &DatasetClock, original: &[Vec<Read>]) -> bool {
    let mut pairs = 0;
    for window in original {
        let mut reads = Vec::with_capacity(window.len());
        for (_, nominal, _) in window {
            let Some(r) = rewrite.read(clock, *nominal) else {
                return false;
            };
            reads.push(r);
        }
        for pair in reads.windows(2) {
            let [a, b] = pair else { continue };
            if a.is_empty() || b.is_empty() {
                continue;
            }
            match meet(a, b, clock) {
                Some(m) if m.tiles() => pairs += 1,
                _ => return false,
            }
        }
    }
    pairs > 0
}

/// The same dataset in `zone`, when that reads the same instances at every
/// action of the windows: true of an hourly dataset, whose instances are
/// absolute hours.
fn in_zone(clock: &DatasetClock, zone: &Zone, original: &[Vec<Read>]) -> Option<DatasetClock> {
    let moved = DatasetClock::new(clock.initial, clock.frequency, zone.clone()).ok()?;
    let same = original.iter().flatten().all(|(_, nominal, _)| {
        let a = clock.current_range(*nominal, -48, 0).ok();
        a.is_some() && a == moved.current_range(*nominal, -48, 0).ok()
    });
    same.then_some(moved)
}

fn format(t: DateTime<Utc>) -> String {
    t.format("%Y-%m-%dT%H:%MZ").to_string()
}

fn plural(n: i64, unit: &str) -> String {
    format!("{n} {unit}{}", if n == 1 { "" } else { "s" })
}

/// `23 hours`, `1 hour 30 minutes`.
fn duration(minutes: i64) -> String {
    match (minutes / 60, minutes % 60) {
        (h, 0) => plural(h, "hour"),
        (0, m) => plural(m, "minute"),
        (h, m) => format!("{} {}", plural(h, "hour"), plural(m, "minute")),
    }
}

fn hourly(f: &Frequency) -> bool {
    f.unit == FrequencyUnit::Minute && f.count == 60 && !f.end_of
}

/// One problem at a switch: which actions, and how they meet.
struct Found {
    before: (usize, DateTime<Utc>),
    after: (usize, DateTime<Utc>),
    meeting: Meeting,
    minutes_apart: i64,
}

impl Found {
    fn describe(&self, job_zone: &Zone) -> String {
        let (a, b) = (self.before, self.after);
        let local = job_zone.local(b.1).format("%Y-%m-%d %H:%M");
        let what = match (self.meeting.again, self.meeting.skipped, self.meeting.at) {
            (n, 0, Some(t)) => format!(
                "reads {} again (from {}), which action {} read too",
                plural(n as i64, "instance"),
                format(t),
                a.0
            ),
            (0, n, Some(t)) => format!(
                "leaves {} unread (from {}), between what action {} read and what it reads",
                plural(n as i64, "instance"),
                format(t),
                a.0
            ),
            _ => "does not start where action before it ended".to_string(),
        };
        format!(
            "action {} ({}, {local} local, {} after action {}) {what}",
            b.0,
            format(b.1),
            duration(self.minutes_apart),
            a.0
        )
    }
}

/// The actions resolved, by number (`None` for one that fails to resolve).
type Actions<'a> = BTreeMap<usize, Option<Action<'a>>>;

fn resolve<'a>(job: &Job<'a>, actions: &mut Actions<'a>, window: &[(usize, DateTime<Utc>)]) {
    for &(n, t) in window {
        actions
            .entry(n)
            .or_insert_with(|| job.resolve_action(n, t).ok());
    }
}

/// A window's actions, when every one resolved.
fn resolved_in<'s, 'a>(
    actions: &'s Actions<'a>,
    window: &[(usize, DateTime<Utc>)],
) -> Option<Vec<(usize, DateTime<Utc>, &'s Action<'a>)>> {
    window
        .iter()
        .map(|&(n, t)| Some((n, t, actions.get(&n)?.as_ref()?)))
        .collect()
}

/// The end of the part of the job the DST rules look at: its end, or
/// [`HORIZON_DAYS`] after its start.
pub(crate) fn horizon(job: &Job) -> DateTime<Utc> {
    job.start
        .checked_add_signed(Duration::days(HORIZON_DAYS))
        .map_or(job.end, |t| t.min(job.end))
}

pub(crate) fn check(app: &Coordinator, job: &Job) -> Vec<Located> {
    let mut out = Vec::new();
    // A month's actions are as far apart as its days: no ordinary days to
    // compare a switch with.
    if let Schedule::Every(f) = job.schedule()
        && f.unit == FrequencyUnit::Month
    {
        return out;
    }
    let until = horizon(job);
    let mut all_switches = switches(&job.zone, job.start, until);
    for data_in in &app.inputs {
        if let Some((_, clock)) = job.dataset(&data_in.dataset.name)
            && clock.zone != job.zone
        {
            all_switches.extend(switches(&clock.zone, job.start, until));
        }
    }
    if all_switches.is_empty() {
        return out;
    }
    all_switches.sort();
    all_switches.dedup();
    // A read shifted by coord:tzOffset() is how directories named in a
    // zone's local time are read (uri-template fields are written in the
    // processing zone): there the hour the local clock skips or repeats is
    // the data's own, which nothing here can tell.
    let mut candidates: Vec<usize> = (0..app.inputs.len())
        .filter(|&i| {
            app.inputs.get(i).is_some_and(|d| {
                !data_in_calls(d, "tzOffset")
                    && job
                        .dataset(&d.dataset.name)
                        .is_some_and(|(_, clock)| may_move(job.schedule(), clock, &d.instances))
            })
        })
        .collect();
    if candidates.is_empty() {
        return out;
    }
    // (Found only for a data-in that may move: finding them adds calendars.)
    let windows = windows(job, &all_switches);
    // Each action resolved once, for every data-in; first the ordinary
    // days that open the first window, where a data-in that is not read to
    // be read once (most are not: a rolling window, a single instance)
    // shows it, so the rest is resolved only for those that are.
    let mut actions: Actions = BTreeMap::new();
    let Some(first) = windows.first() else {
        return out;
    };
    let opening = first.get(..ORDINARY.min(first.len())).unwrap_or(first);
    resolve(job, &mut actions, opening);
    {
        let Some(opening) = resolved_in(&actions, opening) else {
            return out;
        };
        candidates.retain(|&index| {
            let Some(data_in) = app.inputs.get(index) else {
                return false;
            };
            let Some((_, clock)) = job.dataset(&data_in.dataset.name) else {
                return false;
            };
            reads(job, data_in, index, clock, &opening).is_some_and(|reads| {
                reads.windows(2).any(|pair| match pair {
                    [(_, _, a), (_, _, b)] => meet(a, b, clock).is_some_and(|m| m.tiles()),
                    _ => false,
                })
            })
        });
    }
    if candidates.is_empty() {
        return out;
    }
    for window in &windows {
        resolve(job, &mut actions, window);
    }
    let resolved: Vec<Vec<(usize, DateTime<Utc>, &Action)>> = windows
        .iter()
        .filter_map(|w| resolved_in(&actions, w))
        .collect();
    for index in candidates {
        let Some(data_in) = app.inputs.get(index) else {
            continue;
        };
        let Some((_, clock)) = job.dataset(&data_in.dataset.name) else {
            continue;
        };
        let Some(original) = resolved
            .iter()
            .map(|w| reads(job, data_in, index, clock, w))
            .collect::<Option<Vec<_>>>()
        else {
            continue;
        };
        out.extend(data_in_problems(job, data_in, clock, &original));
    }
    out
}

fn data_in_problems(
    job: &Job,
    data_in: &DataIn,
    clock: &DatasetClock,
    original: &[Vec<Read>],
) -> Vec<Located> {
    let mut tiling_gaps: Vec<i64> = Vec::new();
    // The problems of each window, which is one switch or a few close together.
    let mut problems: Vec<Vec<Found>> = Vec::new();
    for window in original {
        let mut found = Vec::new();
        for pair in window.windows(2) {
            let [(na, ta, a), (nb, tb, b)] = pair else {
                continue;
            };
            if a.is_empty() || b.is_empty() {
                continue;
            }
            let Some(meeting) = meet(a, b, clock) else {
                continue;
            };
            let minutes_apart = (*tb - *ta).num_minutes();
            if meeting.tiles() {
                tiling_gaps.push(minutes_apart);
            } else {
                found.push(Found {
                    before: (*na, *ta),
                    after: (*nb, *tb),
                    meeting,
                    minutes_apart,
                });
            }
        }
        problems.push(found);
    }
    // Reads that never meet end to end (a rolling window, one sample a
    // day) are not this rule's: only a read that tiles on other days and
    // not at a switch.
    // Ordinary days must tile: most pairs do (a range that leaves an hour
    // unread every day, and tiles only where a switch makes up for it, is
    // not read to be read once).
    let problem_pairs: usize = problems.iter().map(Vec::len).sum();
    if tiling_gaps.len() <= problem_pairs {
        return Vec::new();
    }
    // The time between actions of ordinary days: the most frequent among
    // the pairs that tile.
    tiling_gaps.sort_unstable();
    let Some(usual) = tiling_gaps
        .chunk_by(|a, b| a == b)
        .max_by_key(|run| run.len())
        .and_then(|run| run.first().copied())
    else {
        return Vec::new();
    };
    // A window where the job's actions are not the usual time apart is the
    // job's days (DST002), every problem in it; the others moved with the
    // data alone (DST003).
    let (uneven, shifted): (Vec<Vec<Found>>, Vec<Vec<Found>>) = problems
        .into_iter()
        .filter(|w| !w.is_empty())
        .partition(|w| w.iter().any(|p| p.minutes_apart != usual));
    let (uneven, shifted): (Vec<Found>, Vec<Found>) = (
        uneven.into_iter().flatten().collect(),
        shifted.into_iter().flatten().collect(),
    );
    let mut out = Vec::new();
    let name = &data_in.name.name;
    let dataset = &data_in.dataset.name;
    let span = match &data_in.instances {
        Instances::Range { start, .. } => start.span,
        Instances::List(list) => list.first().map_or(data_in.name.span, |t| t.span),
    };
    let examples = |found: &[Found]| {
        found
            .iter()
            .take(2)
            .map(|f| f.describe(&job.zone))
            .collect::<Vec<_>>()
            .join("; ")
    };
    if !uneven.is_empty() {
        let days: Vec<String> = uneven
            .iter()
            .map(|f| duration(f.minutes_apart))
            .filter(|d| *d != duration(usual))
            .fold(Vec::new(), |mut v, d| {
                if !v.contains(&d) {
                    v.push(d);
                }
                v
            });
        let message = format!(
            "`{name}` does not read each instance of `{dataset}` once when the job's actions in {} are {} apart instead of {} (daylight saving time): {}",
            job.zone.id(),
            days.join(" or "),
            duration(usual),
            examples(&uneven)
        );
        let help = rewrite_help(job, data_in, clock, original).unwrap_or_else(|| {
            format!(
                "the range must be as long as the time since the previous action, which is {} on the switch days; coordc found no coord:hoursInDay range that reads each instance once at this job's time of day (`coordc dryrun` from {} shows what each action reads)",
                days.join(" or "),
                uneven.first().map_or(String::new(), |f| format(f.before.1))
            )
        });
        out.push(Located::in_app(
            Diagnostic::warning(DST_FIXED_HOURS, span, message).with_help(help),
        ));
    }
    if !shifted.is_empty() {
        let cause = if data_in_calls(data_in, "hoursInDay") {
            format!(
                "coord:hoursInDay counts the days of the dataset's zone, {}",
                clock.zone.id()
            )
        } else {
            format!(
                "the instances of `{dataset}` follow the days of {}",
                clock.zone.id()
            )
        };
        let message = format!(
            "`{name}` does not read each instance of `{dataset}` once at a daylight saving switch, though the job's actions stay {} apart ({cause}): {}",
            duration(usual),
            examples(&shifted)
        );
        // The hours before the action, ending where the range ends now
        // when that is a fixed index.
        let end = match &data_in.instances {
            Instances::Range { end, .. } => end.literal_current().unwrap_or(-1),
            Instances::List(_) => -1,
        };
        let fixed = Rewrite::Fixed {
            start: end + 1 - usual / 60,
            end,
        };
        let help = if usual % 60 == 0 && hourly(&clock.frequency) && proves(&fixed, clock, original)
        {
            format!(
                "an hourly dataset's instances are absolute hours in every zone, so a fixed range of {} moves exactly as far as the actions do: write <start-instance>{}</start-instance> and <end-instance>{}</end-instance>; coordc resolved that at the actions around the next switches and it reads each instance once",
                plural(usual / 60, "instance"),
                fixed.start_text(),
                fixed.end_text()
            )
        } else {
            format!(
                "`coordc dryrun` from {} shows what each action reads",
                shifted
                    .first()
                    .map_or(String::new(), |f| format(f.before.1))
            )
        };
        out.push(Located::in_app(
            Diagnostic::warning(DST_ZONE_MISMATCH, span, message).with_help(help),
        ));
    }
    out
}

/// Whether a data-in may read every instance once on ordinary days and not
/// at a switch, as far as its text tells before any action is resolved.
/// Fixed `coord:current` indexes read `count` instances a frequency apart:
/// with minutes for the job and the dataset nothing moves at a switch
/// (minutes are absolute), and a count whose instances do not add up to
/// the job's period never reads each instance once.
fn may_move(schedule: &Schedule, clock: &DatasetClock, instances: &Instances) -> bool {
    let Schedule::Every(job) = schedule else {
        return true;
    };
    let count = match instances {
        Instances::Range { start, end } => match (start.literal_current(), end.literal_current()) {
            (Some(a), Some(b)) => b.checked_sub(a).and_then(|n| n.checked_add(1)),
            _ => return true,
        },
        Instances::List(list) => {
            if list.iter().any(|t| t.literal_current().is_none()) {
                return true;
            }
            i64::try_from(list.len()).ok()
        }
    };
    let Some(count) = count else {
        return true;
    };
    let minutes = |f: &Frequency| match f.unit {
        FrequencyUnit::Minute => Some(f.count),
        FrequencyUnit::Day => f.count.checked_mul(1440),
        FrequencyUnit::Week => f.count.checked_mul(7 * 1440),
        FrequencyUnit::Month => None,
    };
    let data = &clock.frequency;
    if job.unit == FrequencyUnit::Minute && data.unit == FrequencyUnit::Minute {
        return false;
    }
    match (minutes(job), minutes(data)) {
        (Some(period), Some(step)) => count.checked_mul(step) == Some(period),
        _ => true,
    }
}

fn data_in_calls(data_in: &DataIn, name: &str) -> bool {
    match &data_in.instances {
        Instances::Range { start, end } => start.calls_any(&[name]) || end.calls_any(&[name]),
        Instances::List(list) => list.iter().any(|t| t.calls_any(&[name])),
    }
}

/// A rewrite of the range's start proved on the same actions: with the
/// dataset as it is, or, when its zone's days are not the job's (a UTC
/// dataset for a Los Angeles job: `coord:hoursInDay` counts the dataset
/// zone's days), with the dataset defined in the job's zone.
fn rewrite_help(
    job: &Job,
    data_in: &DataIn,
    clock: &DatasetClock,
    original: &[Vec<Read>],
) -> Option<String> {
    let Instances::Range { end, .. } = &data_in.instances else {
        return None;
    };
    let end_index = end.literal_current()?;
    if !hourly(&clock.frequency) {
        return None;
    }
    let candidates = [
        Rewrite::HoursInDay {
            end: end_index,
            k: end_index,
        },
        Rewrite::HoursInDay {
            end: end_index,
            k: end_index.checked_sub(23)?,
        },
    ];
    let proved = |clock: &DatasetClock| {
        candidates
            .iter()
            .find(|c| proves(c, clock, original))
            .copied()
    };
    let end_text = end.text().trim();
    if let Some(c) = proved(clock) {
        return Some(format!(
            "write <start-instance>{}</start-instance> (the end-instance stays {end_text}): coord:hoursInDay counts the hours of a local day in the dataset's zone, {}, which is the job's, so the range is as long as the time since the previous action; coordc resolved it at the actions around the next switches and it reads each instance once (spec §6.6.3)",
            c.start_text(),
            clock.zone.id()
        ));
    }
    let moved = in_zone(clock, &job.zone, original)?;
    let c = proved(&moved)?;
    Some(format!(
        "coord:hoursInDay counts the days of the dataset's zone, {}, not the job's: define `{}` in {} (timezone=\"{}\"; an hourly dataset's instances and URIs are the same in every zone) and write <start-instance>{}</start-instance> (the end-instance stays {end_text}); coordc resolved that at the actions around the next switches and it reads each instance once (spec §6.6.3)",
        clock.zone.id(),
        data_in.dataset.name,
        job.zone.id(),
        job.zone.id(),
        c.start_text()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn at(y: i32, m: u32, d: u32, h: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(y, m, d, h, 0, 0).unwrap()
    }

    fn hourly_clock(zone: &str) -> DatasetClock {
        let frequency = Frequency {
            count: 60,
            unit: FrequencyUnit::Minute,
            end_of: false,
        };
        DatasetClock::new(at(2023, 1, 1, 0), frequency, Zone::parse(zone).unwrap()).unwrap()
    }

    #[test]
    fn switches_are_found_to_the_minute_in_both_hemispheres() {
        let (from, to) = (at(2024, 1, 1, 0), at(2025, 1, 1, 0));
        let la = switches(&Zone::parse("America/Los_Angeles").unwrap(), from, to);
        // 02:00 PST and 02:00 PDT.
        assert_eq!(la, [at(2024, 3, 10, 10), at(2024, 11, 3, 9)]);
        let sydney = switches(&Zone::parse("Australia/Sydney").unwrap(), from, to);
        // 03:00 AEDT on 7 April, 02:00 AEST on 6 October.
        assert_eq!(sydney, [at(2024, 4, 6, 16), at(2024, 10, 5, 16)]);
        assert!(switches(&Zone::utc(), from, to).is_empty());
        assert!(switches(&Zone::parse("Asia/Kolkata").unwrap(), from, to).is_empty());
    }

    #[test]
    fn meeting_counts_the_instances_read_again_and_skipped() {
        let clock = hourly_clock("UTC");
        let hours =
            |from: u32, to: u32| (from..=to).map(|h| at(2024, 3, 10, h)).collect::<Vec<_>>();
        let tiles = meet(&hours(0, 5), &hours(6, 9), &clock).unwrap();
        assert!(tiles.tiles());
        let again = meet(&hours(0, 5), &hours(5, 9), &clock).unwrap();
        assert_eq!(
            (again.again, again.skipped, again.at),
            (1, 0, Some(at(2024, 3, 10, 5)))
        );
        let skipped = meet(&hours(0, 5), &hours(8, 9), &clock).unwrap();
        assert_eq!(
            (skipped.again, skipped.skipped, skipped.at),
            (0, 2, Some(at(2024, 3, 10, 6)))
        );
    }

    /// CoordELFunctions.java:560-576 (release-5.2.1): `hoursInDay(n)` counts
    /// the local day of the dataset's zone, so the same rewrite reads 23
    /// hours for a Los Angeles dataset and 24 for a UTC one at the Los
    /// Angeles midnight after the spring switch (2024-03-11T07:00Z).
    #[test]
    fn the_hours_in_day_rewrite_reads_the_dataset_zones_day() {
        let rewrite = Rewrite::HoursInDay { end: -1, k: -1 };
        assert_eq!(
            rewrite.start_text(),
            "${coord:current(-coord:hoursInDay(-1))}"
        );
        let nominal = at(2024, 3, 11, 7);
        let la = rewrite
            .read(&hourly_clock("America/Los_Angeles"), nominal)
            .unwrap();
        assert_eq!(la.len(), 23);
        assert_eq!(la.first(), Some(&at(2024, 3, 10, 8)));
        assert_eq!(la.last(), Some(&at(2024, 3, 11, 6)));
        let utc = rewrite.read(&hourly_clock("UTC"), nominal).unwrap();
        assert_eq!(utc.len(), 24);
        let other = Rewrite::HoursInDay { end: 0, k: -23 };
        assert_eq!(
            other.start_text(),
            "${coord:current(1 - coord:hoursInDay(-23))}"
        );
        let fixed = Rewrite::Fixed { start: -23, end: 0 };
        assert_eq!(
            (fixed.start_text(), fixed.end_text()),
            (
                "${coord:current(-23)}".to_string(),
                "${coord:current(0)}".to_string()
            )
        );
    }

    #[test]
    fn durations_read_as_words() {
        assert_eq!(duration(23 * 60), "23 hours");
        assert_eq!(duration(60), "1 hour");
        assert_eq!(duration(90), "1 hour 30 minutes");
        assert_eq!(duration(5), "5 minutes");
    }
}
