//! The dry run of benches/data/hourly_10y.xml (87,600 hourly actions over ten
//! years in Los Angeles, a 24-instance range each), from the XML text to the
//! JSON listing written to a sink: what `coordc dryrun --format json` does,
//! compared in docs/performance.md with the target (≤ 0.3 s).

use coordc::cli::dryrun::write_json;
use coordc::el::VarMap;
use coordc::ir::lower;
use coordc::oozie::job::{Options, prepare};
use coordc::time::cron::MaxYear;
use coordc::time::datetime::ProcessingZone;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

// The allocator the `coordc` binary uses (src/main.rs).
#[global_allocator]
static GLOBAL: coordc::alloc::MiMalloc = coordc::alloc::MiMalloc;

fn bench(c: &mut Criterion) {
    let text = include_str!("data/hourly_10y.xml");
    let mut group = c.benchmark_group("dryrun");
    group.sample_size(10);
    group.bench_function("hourly_10y_json", |b| {
        b.iter(|| {
            let arena = coordc::xml::Arena::new();
            let doc = coordc::xml::parse(black_box(text), &arena).unwrap();
            assert!(coordc::xml::validate(&doc).is_empty());
            let (app, problems) = lower::coordinator(&doc.root);
            assert!(problems.is_empty());
            let vars = VarMap::default();
            let options = Options::all_actions(
                ProcessingZone::UTC,
                true,
                // A server started in 2026 (a fixed year: the figures do not depend on the date).
                MaxYear::for_server_started_in(2026),
            );
            let job =
                prepare(&app, &[], &vars, &options).unwrap_or_else(|_| panic!("the app is valid"));
            let failed = write_json(&job, &mut std::io::sink()).unwrap();
            assert!(failed.is_none());
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
