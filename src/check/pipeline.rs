//! Pipelines across the coordinators checked together: an application that
//! writes a dataset (a data-out) feeds every application that reads a dataset
//! with the same uri-template (a data-in), as Oozie's dependency checks see
//! them — by URI, whatever each application names its dataset. On that graph:
//! cycles, inputs no given application produces, a consumer whose dataset
//! definition disagrees with the producer's, and outputs two applications
//! both write. Oozie checks none of this: each job is submitted alone.

use crate::diag::Diagnostic;
use crate::diag::rules::{
    DATA_SHARED_OUTPUT, PIPELINE_CYCLE, PIPELINE_MISALIGNED, PIPELINE_UNPRODUCED,
};
use crate::ir::Coordinator;
use crate::oozie::job::Job;
use crate::span::Span;
use crate::time::frequency::{Frequency, FrequencyUnit};
use crate::time::zone::Zone;
use chrono::{DateTime, Datelike, Utc};
use compact_str::CompactString;
use petgraph::algo::tarjan_scc;
use petgraph::graphmap::DiGraphMap;
use rustc_hash::FxBuildHasher;
use smallvec::SmallVec;
use std::collections::HashMap;
use std::hash::BuildHasher;
use std::sync::Arc;

/// What the pipeline checks need of one coordinator. Kept for every
/// coordinator until all are checked: names are inline (`CompactString`),
/// since thousands of small allocations kept among each file's passing ones
/// cost the whole run more than building them.
pub(crate) struct AppEvents {
    pub name: CompactString,
    /// The application's file, as its report names it: where the other
    /// applications' diagnostics point when they name this one.
    pub file: Arc<str>,
    pub inputs: Vec<Event>,
    pub outputs: Vec<Event>,
}

/// A data-in or data-out, with its dataset as the job submitted it.
pub struct Event {
    pub name: CompactString,
    /// The event's element, in the application file.
    pub span: Span,
    pub dataset: DatasetFacts,
}

#[derive(Clone)]
pub(crate) struct DatasetFacts {
    /// The uri-template after the submission phase: job properties replaced,
    /// `${YEAR}`... kept. Two datasets with the same one are the same data.
    pub uri: String,
    /// `uri`'s hash, made with the event (on the worker that checked its
    /// file), so the serial pass over every event places it without reading
    /// the URI again, which would be a cache miss per event.
    pub uri_hash: u64,
    pub frequency: Frequency,
    pub initial: DateTime<Utc>,
    pub zone: Zone,
}

impl AppEvents {
    pub(crate) fn of(app: &Coordinator, job: &Job, file: Arc<str>) -> AppEvents {
        let event = |name: &str, span: Span, dataset: &str| -> Option<Event> {
            let (_, clock) = job.dataset(dataset)?;
            let uri = job.submitted_uri(dataset)?.trim().to_string();
            Some(Event {
                name: CompactString::from(name),
                span,
                dataset: DatasetFacts {
                    uri_hash: hash_uri(&uri),
                    uri,
                    frequency: clock.frequency,
                    initial: clock.initial,
                    zone: clock.zone.clone(),
                },
            })
        };
        // Sized to the events written: kept for the whole run, these lists
        // would otherwise have room for four (a `collect` of unknown length).
        let mut inputs = Vec::with_capacity(app.inputs.len());
        inputs.extend(
            app.inputs
                .iter()
                .filter_map(|d| event(&d.name.name, d.span, &d.dataset.name)),
        );
        let mut outputs = Vec::with_capacity(app.outputs.len());
        outputs.extend(
            app.outputs
                .iter()
                .filter_map(|d| event(&d.name.name, d.span, &d.dataset.name)),
        );
        AppEvents {
            name: CompactString::from(&*job.name),
            file,
            inputs,
            outputs,
        }
    }
}

/// The pipeline problems of `apps` (the coordinators of one check, `None`
/// for files that are not one or could not be submitted), each with the
/// index of the application it is in.
pub(crate) fn check(apps: &[Option<&AppEvents>]) -> Vec<(usize, Diagnostic)> {
    let given: Vec<(usize, &AppEvents)> = apps
        .iter()
        .enumerate()
        .filter_map(|(i, a)| a.map(|a| (i, a)))
        .collect();
    let mut out = Vec::new();
    if given.len() < 2 {
        return out;
    }
    // Who writes each URI. (Sized up front, since a check can give
    // thousands of applications; most URIs have one writer, kept inline.)
    let mut writers: ByUri<SmallVec<[(usize, &Event); 1]>> = ByUri::default();
    writers.reserve(given.iter().map(|(_, app)| app.outputs.len()).sum());
    for &(i, app) in &given {
        for output in &app.outputs {
            uri_entry(&mut writers, &output.dataset).push((i, output));
        }
    }
    // (`given` is in index order.)
    let app_of = |i: usize| {
        given
            .binary_search_by_key(&i, |(j, _)| *j)
            .ok()
            .and_then(|at| given.get(at))
            .map(|(_, app)| *app)
    };
    let name_of = |i: usize| app_of(i).map_or("", |app| app.name.as_str());
    let file_of = |i: usize| app_of(i).map_or_else(|| Arc::from(""), |app| Arc::clone(&app.file));
    for list in writers.values().filter(|l| l.len() > 1) {
        for &(i, output) in list {
            const SHOWN: usize = 3;
            let shown: Vec<&(usize, &Event)> =
                list.iter().filter(|(j, _)| *j != i).take(SHOWN).collect();
            let mut others: Vec<String> = shown
                .iter()
                .map(|(j, e)| {
                    format!(
                        "`{}` (data-out `{}` in {})",
                        name_of(*j),
                        e.name,
                        file_of(*j)
                    )
                })
                .collect();
            if list.len() - 1 > SHOWN {
                others.push(format!("{} more", list.len() - 1 - SHOWN));
            }
            let mut diagnostic = Diagnostic::warning(
                DATA_SHARED_OUTPUT,
                output.span,
                format!(
                    "`{}` writes `{}`, and so does {}: the applications overwrite each other's instances",
                    name_of(i),
                    output.dataset.uri,
                    others.join(", ")
                ),
            )
            .with_help("give each application its own output location, or make one of them the only writer");
            for (j, e) in shown {
                diagnostic = diagnostic.with_related(
                    file_of(*j),
                    e.span,
                    format!(
                        "`{}` writes `{}` here (data-out `{}`)",
                        name_of(*j),
                        e.dataset.uri,
                        e.name
                    ),
                );
            }
            out.push((i, diagnostic));
        }
    }
    // Edges producer -> consumer, found by URI, with the data-in they go to.
    let mut feeds: HashMap<usize, Vec<(usize, &Event)>> = HashMap::new();
    // Each URI nobody writes, with its first reader and how many read it, in
    // the order first read, and where each is in that list.
    let mut unproduced: Vec<(&str, usize, &Event, usize)> = Vec::new();
    let mut unproduced_at: ByUri<Option<usize>> = ByUri::default();
    for &(consumer, app) in &given {
        for input in &app.inputs {
            let facts = &input.dataset;
            let Some((_, producers)) = writers
                .raw_entry()
                .from_hash(facts.uri_hash, |uri| *uri == facts.uri)
            else {
                let at = uri_entry(&mut unproduced_at, facts);
                match *at {
                    Some(at) => {
                        if let Some(first) = unproduced.get_mut(at) {
                            first.3 += 1;
                        }
                    }
                    None => {
                        *at = Some(unproduced.len());
                        unproduced.push((&facts.uri, consumer, input, 1));
                    }
                }
                continue;
            };
            for &(producer, output) in producers {
                if producer == consumer {
                    continue;
                }
                feeds.entry(producer).or_default().push((consumer, input));
                if let Some(d) = misaligned(input, output, name_of(producer), file_of(producer)) {
                    out.push((consumer, d));
                }
            }
        }
    }
    for (uri, consumer, input, readers) in unproduced {
        let others = match readers {
            1 => String::new(),
            2 => " (and 1 other data-in)".to_string(),
            n => format!(" (and {} other data-ins)", n - 1),
        };
        out.push((
            consumer,
            Diagnostic::note(
                PIPELINE_UNPRODUCED,
                input.span,
                format!(
                    "no application checked here writes `{uri}`, which data-in `{}` reads{others}: it must come from elsewhere",
                    input.name
                ),
            ),
        ));
    }
    out.extend(cycles(&feeds, &name_of));
    out
}

/// The hash a [`ByUri`] map places `uri` by.
fn hash_uri(uri: &str) -> u64 {
    FxBuildHasher.hash_one(uri)
}

/// A map keyed by URI, whose entries are placed by the events' own hashes.
type ByUri<'a, V> = hashbrown::HashMap<&'a str, V, FxBuildHasher>;

/// The entry of `facts`'s URI in `map`, made empty if it has none.
fn uri_entry<'m, 'a, V: Default>(map: &'m mut ByUri<'a, V>, facts: &'a DatasetFacts) -> &'m mut V {
    use hashbrown::hash_map::RawEntryMut;
    match map
        .raw_entry_mut()
        .from_hash(facts.uri_hash, |uri| *uri == facts.uri)
    {
        RawEntryMut::Occupied(entry) => entry.into_mut(),
        RawEntryMut::Vacant(entry) => {
            entry
                .insert_hashed_nocheck(facts.uri_hash, &facts.uri, V::default())
                .1
        }
    }
}

/// The consumer's definition of a dataset against the producer's (in
/// `producer_file`).
fn misaligned(
    input: &Event,
    output: &Event,
    producer: &str,
    producer_file: Arc<str>,
) -> Option<Diagnostic> {
    let (mine, theirs) = (&input.dataset, &output.dataset);
    let describe = |d: &DatasetFacts| {
        format!(
            "every {} from {} in {}",
            frequency_text(&d.frequency),
            d.initial.format("%Y-%m-%dT%H:%MZ"),
            d.zone.id()
        )
    };
    let same_grid = mine.frequency == theirs.frequency
        && mine.zone.id() == theirs.zone.id()
        && on_grid(theirs, mine.initial);
    (!same_grid).then(|| {
            Diagnostic::warning(
                PIPELINE_MISALIGNED,
                input.span,
                format!(
                    "`{}` reads `{}` as {}, but `{producer}` ({producer_file}) writes it as {}: the instances this application waits for are not the ones produced",
                    input.name,
                    mine.uri,
                    describe(mine),
                    describe(theirs)
                ),
            )
            .with_help("define the dataset once (a shared <include> file) so producer and consumer agree")
            .with_related(
                producer_file,
                output.span,
                format!("`{producer}` writes it here (data-out `{}`), as {}", output.name, describe(theirs)),
            )
        })
}

/// Whether `t` is an instance time of `dataset`'s clock (before or after its
/// initial instance): the same minute of the period for minutes, the same
/// wall time (and day of the month, for months) in its zone for calendar units.
fn on_grid(dataset: &DatasetFacts, t: DateTime<Utc>) -> bool {
    let f = &dataset.frequency;
    match f.unit {
        FrequencyUnit::Minute => (t - dataset.initial).num_minutes() % f.count == 0,
        unit => {
            let (a, b) = (dataset.zone.local(dataset.initial), dataset.zone.local(t));
            a.time() == b.time() && (unit != FrequencyUnit::Month || a.day() == b.day())
        }
    }
}

fn frequency_text(f: &Frequency) -> String {
    let unit = f.unit.name();
    let end = if f.end_of { " (end of)" } else { "" };
    match f.count {
        1 => format!("{unit}{end}"),
        n => format!("{n} {unit}s{end}"),
    }
}

/// One cycle per strongly connected group of applications (petgraph's
/// Tarjan), shown from the group's first application in the check and
/// reported at the data-in that closes it there.
fn cycles<'a>(
    feeds: &HashMap<usize, Vec<(usize, &'a Event)>>,
    name_of: &dyn Fn(usize) -> &'a str,
) -> Vec<(usize, Diagnostic)> {
    let mut graph: DiGraphMap<usize, ()> = DiGraphMap::new();
    for (&producer, consumers) in feeds {
        for &(consumer, _) in consumers {
            graph.add_edge(producer, consumer, ());
        }
    }
    let mut out = Vec::new();
    for group in tarjan_scc(&graph).into_iter().filter(|g| g.len() > 1) {
        let Some(&start) = group.iter().min() else {
            continue;
        };
        // Breadth-first from `start` inside the group, back to `start`.
        let mut came_from: HashMap<usize, usize> = HashMap::new();
        let mut queue = std::collections::VecDeque::from([start]);
        let mut closing = None;
        while let Some(node) = queue.pop_front() {
            for &(to, input) in feeds.get(&node).map_or(&[][..], Vec::as_slice) {
                if to == start {
                    closing.get_or_insert((node, input));
                } else if group.contains(&to) && !came_from.contains_key(&to) {
                    came_from.insert(to, node);
                    queue.push_back(to);
                }
            }
            if closing.is_some() {
                break;
            }
        }
        let Some((last, input)) = closing else {
            continue;
        };
        let mut path = vec![last];
        let mut earliest = last;
        while let Some(&before) = came_from.get(&earliest) {
            path.push(before);
            earliest = before;
        }
        if earliest != start {
            path.push(start);
        }
        path.reverse();
        let names: Vec<&str> = path.iter().chain([&start]).map(|&n| name_of(n)).collect();
        out.push((
            start,
            Diagnostic::warning(
                PIPELINE_CYCLE,
                input.span,
                format!(
                    "the applications feed each other in a cycle: {}",
                    names.join(" -> ")
                ),
            )
            .with_help("a cycle waits forever unless one side reads an earlier instance (coord:current(-1)); check that one does"),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dataset(uri: &str) -> DatasetFacts {
        DatasetFacts {
            uri: uri.to_string(),
            uri_hash: hash_uri(uri),
            frequency: Frequency {
                count: 1,
                unit: FrequencyUnit::Day,
                end_of: false,
            },
            initial: "2024-01-01T00:00:00Z".parse().unwrap(),
            zone: Zone::utc(),
        }
    }

    fn event(uri: &str, at: usize) -> Event {
        Event {
            name: compact_str::format_compact!("e{at}"),
            span: Span::new(at, at + 1),
            dataset: dataset(uri),
        }
    }

    /// An application reading `reads` and writing `writes`.
    fn app(name: &str, reads: &[&str], writes: &[&str]) -> AppEvents {
        AppEvents {
            name: name.into(),
            file: format!("{name}.xml").into(),
            inputs: reads.iter().enumerate().map(|(i, u)| event(u, i)).collect(),
            outputs: writes
                .iter()
                .enumerate()
                .map(|(i, u)| event(u, 100 + i))
                .collect(),
        }
    }

    fn codes(found: &[(usize, Diagnostic)]) -> Vec<String> {
        found
            .iter()
            .map(|(i, d)| format!("{i} {} {}", d.code, d.message))
            .collect()
    }

    #[test]
    fn a_cycle_of_three_is_reported_once_with_its_path() {
        let (a, b, c) = (
            app("a", &["/c"], &["/a"]),
            app("b", &["/a"], &["/b"]),
            app("c", &["/b"], &["/c"]),
        );
        let found = check(&[Some(&a), Some(&b), Some(&c)]);
        assert_eq!(
            codes(&found),
            ["0 PL001 the applications feed each other in a cycle: a -> b -> c -> a"]
        );
    }

    #[test]
    fn a_chain_has_no_cycle_and_its_outside_input_is_one_note() {
        let (a, b, c) = (
            app("a", &["/raw"], &["/a"]),
            app("b", &["/a", "/raw"], &["/b"]),
            app("c", &["/b"], &[]),
        );
        let found = check(&[Some(&a), Some(&b), Some(&c)]);
        assert_eq!(
            codes(&found),
            [
                "0 PL002 no application checked here writes `/raw`, which data-in `e0` reads (and 1 other data-in): it must come from elsewhere"
            ]
        );
        // One application alone is no pipeline: nothing to say.
        assert!(check(&[Some(&a), None]).is_empty());
    }

    #[test]
    fn uris_are_found_by_their_hash_and_the_unread_ones_after_their_map_grows() {
        // 200 chains `/i` -> app i -> `/i+1` (the writers' map is sized for
        // them), and 50 inputs nobody writes, each read twice: enough for the
        // map of unread URIs to grow, rehashing what it holds.
        let mut apps: Vec<AppEvents> = (0..200)
            .map(|i| {
                app(
                    &format!("a{i}"),
                    &[&format!("/{i}")],
                    &[&format!("/{}", i + 1)],
                )
            })
            .collect();
        apps.extend((0..100).map(|i| app(&format!("r{i}"), &[&format!("/raw{}", i % 50)], &[])));
        let refs: Vec<Option<&AppEvents>> = apps.iter().map(Some).collect();
        let found = check(&refs);
        let unproduced: Vec<&String> = found
            .iter()
            .filter(|(_, d)| d.code == PIPELINE_UNPRODUCED)
            .map(|(_, d)| &d.message)
            .collect();
        // `/0` (read once) and each `/rawN` (read twice); every other input
        // is written by the application before it.
        assert_eq!(unproduced.len(), 51, "{unproduced:?}");
        assert_eq!(
            unproduced
                .iter()
                .filter(|m| m.contains("(and 1 other data-in)"))
                .count(),
            50
        );
        assert!(found.iter().all(|(_, d)| d.code == PIPELINE_UNPRODUCED));
    }

    #[test]
    fn many_writers_of_one_output_name_three_and_count_the_rest() {
        let apps: Vec<AppEvents> = (0..6)
            .map(|i| app(&format!("w{i}"), &[], &["/out"]))
            .collect();
        let refs: Vec<Option<&AppEvents>> = apps.iter().map(Some).collect();
        let found = check(&refs);
        assert_eq!(found.len(), 6);
        assert!(
            found[0].1.message.contains(
                "`w1` (data-out `e100` in w1.xml), `w2` (data-out `e100` in w2.xml), `w3` (data-out `e100` in w3.xml), 2 more"
            ),
            "{}",
            found[0].1.message
        );
        // Each writer named is a place in its own file.
        let related: Vec<(&str, u32)> = found[0]
            .1
            .related
            .iter()
            .map(|r| (&*r.file, r.span.start))
            .collect();
        assert_eq!(related, [("w1.xml", 100), ("w2.xml", 100), ("w3.xml", 100)]);
    }

    #[test]
    fn a_consumer_off_the_producers_grid_is_misaligned() {
        let producer = app("p", &[], &["/x"]);
        let mut consumer = app("c", &["/x"], &[]);
        // Same day grid, later start: aligned.
        consumer.inputs[0].dataset.initial = "2024-03-01T00:00:00Z".parse().unwrap();
        assert!(check(&[Some(&producer), Some(&consumer)]).is_empty());
        // 06:00 instead of 00:00: not the instances written.
        consumer.inputs[0].dataset.initial = "2024-03-01T06:00:00Z".parse().unwrap();
        let found = check(&[Some(&producer), Some(&consumer)]);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].1.code, PIPELINE_MISALIGNED);
        assert!(
            found[0].1.message.contains("but `p` (p.xml) writes it"),
            "{}",
            found[0].1.message
        );
        // The producer's data-out, in the producer's file.
        let related = &found[0].1.related;
        assert_eq!(related.len(), 1);
        assert_eq!(
            (&*related[0].file, related[0].span),
            ("p.xml", Span::new(100, 101))
        );
    }
}
