//! Where `coordc check` spends its time on one coordinator, stage by stage:
//! the cost (best of five passes, one thread, files already in memory) and
//! the allocations of each stage, averaged over the files of a folder.
//!
//! `cargo run --release --example check_stages -- target/bench-check`
//! (the folder `cargo bench --bench check` writes). docs/performance.md
//! reports its figures; the wall-clock target is measured by the bench.

use coordc::oozie::job::{Options, prepare};
use coordc::project::files::Files;
use coordc::project::load::{self, JobInput, JobSource, Sources};
use coordc::time::cron::MaxYear;
use coordc::time::datetime::ProcessingZone;
use std::alloc::{GlobalAlloc, Layout};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::Instant;

/// mimalloc (as the binary uses), counting allocations.
struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Relaxed);
        unsafe { coordc::alloc::MiMalloc.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { coordc::alloc::MiMalloc.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Relaxed);
        unsafe { coordc::alloc::MiMalloc.realloc(ptr, layout, size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

const STAGES: [&str; 5] = [
    "parse (XML tree)",
    "validate (XSD)",
    "load (validate again, lower: IR + EL, job)",
    "prepare (submission checks)",
    "first action",
];

/// Time and allocations per stage, accumulated.
#[derive(Default, Clone, Copy)]
struct Totals {
    seconds: [f64; 5],
    allocations: [usize; 5],
}

/// Ends stage `k` of the file being checked.
struct Lap {
    at: Instant,
    allocations: usize,
}

impl Lap {
    fn start() -> Lap {
        Lap {
            at: Instant::now(),
            allocations: ALLOCATIONS.load(Relaxed),
        }
    }

    fn end(&mut self, k: usize, totals: &mut Totals) {
        let next = Lap::start();
        totals.seconds[k] += (next.at - self.at).as_secs_f64();
        totals.allocations[k] += next.allocations - self.allocations;
        *self = next;
    }
}

fn main() {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: check_stages DIR (coordinator apps, e.g. target/bench-check)");
        std::process::exit(2);
    };
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("a readable folder")
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "xml"))
        .collect();
    paths.sort();
    let texts: Vec<String> = paths
        .iter()
        .map(|p| std::fs::read_to_string(p).expect("a readable file"))
        .collect();
    let files = Files::default();
    let input = JobInput {
        configs: &[],
        files: &files,
        job: JobSource::Own,
        defines: &[],
        maps: &[],
        processing_zone: ProcessingZone::parse_option("UTC").expect("UTC"),
        check_maximum_frequency: true,
        // A server started in 2026 (a fixed year: the figures do not depend on the date).
        cron_max_year: MaxYear::for_server_started_in(2026),
    };
    // As `coordc check` materializes: the first action only.
    let options = Options::first_action(input.processing_zone, true, input.cron_max_year);
    // The floor under the first stage: quick-xml's events alone, no tree.
    let tokenize = (0..5)
        .map(|_| {
            let at = Instant::now();
            for text in &texts {
                let mut reader = quick_xml::Reader::from_str(text);
                while !matches!(
                    reader.read_event(),
                    Ok(quick_xml::events::Event::Eof) | Err(_)
                ) {}
            }
            at.elapsed().as_secs_f64()
        })
        .fold(f64::MAX, f64::min);
    let mut best: Option<Totals> = None;
    for _pass in 0..5 {
        let mut totals = Totals::default();
        for (text, path) in texts.iter().zip(&paths) {
            let mut lap = Lap::start();
            let arena = coordc::xml::tree::arena_for(text.len());
            let Ok(doc) = coordc::xml::parse(text, &arena) else {
                continue;
            };
            lap.end(0, &mut totals);
            let valid = coordc::xml::validate(&doc).is_empty();
            lap.end(1, &mut totals);
            if !valid {
                continue;
            }
            let mut sources = Sources::default();
            sources.add(path.display().to_string(), text.as_str());
            let Ok(loaded) = load::coordinator(&doc, path, &input, &mut sources) else {
                continue;
            };
            lap.end(2, &mut totals);
            if let Ok(job) = prepare(&loaded.app, &loaded.included, &loaded.vars, &options) {
                lap.end(3, &mut totals);
                std::hint::black_box(job.actions().next());
                lap.end(4, &mut totals);
            }
        }
        best = Some(match best {
            None => totals,
            Some(mut b) => {
                for k in 0..STAGES.len() {
                    if totals.seconds[k] < b.seconds[k] {
                        b.seconds[k] = totals.seconds[k];
                    }
                }
                b.allocations = totals.allocations;
                b
            }
        });
    }
    let best = best.expect("five passes");
    let files = texts.len().max(1) as f64;
    println!("{} files", texts.len());
    println!(
        "{:<44} {:6.2} µs",
        "(tokenize: quick-xml events, no tree)",
        tokenize * 1e6 / files
    );
    for (k, stage) in STAGES.iter().enumerate() {
        println!(
            "{stage:<44} {:6.2} µs {:6.0} allocations",
            best.seconds[k] * 1e6 / files,
            best.allocations[k] as f64 / files
        );
    }
}
