//! `coordc diff` of benches/data/hourly_10y.xml (87,600 hourly actions over
//! ten years in Los Angeles, a 24-instance range each) against a copy whose
//! range is one instance wider, side by side with the two dry runs it stands
//! for (each written as `coordc dryrun --format json` writes it, to a sink).
//! The target: the diff under twice the two dry runs (docs/performance.md).

use coordc::cli::dryrun::write_json;
use coordc::el::VarMap;
use coordc::interp::diff::compare;
use coordc::ir::{Coordinator, lower};
use coordc::oozie::job::{Job, Options, prepare};
use coordc::time::cron::MaxYear;
use coordc::time::datetime::ProcessingZone;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

// The allocator the `coordc` binary uses (src/main.rs).
#[global_allocator]
static GLOBAL: coordc::alloc::MiMalloc = coordc::alloc::MiMalloc;

/// The coordinator of `text`, lowered.
fn lowered(text: &str) -> Coordinator {
    let arena = coordc::xml::Arena::new();
    let doc = coordc::xml::parse(text, &arena).unwrap();
    let (app, problems) = lower::coordinator(&doc.root);
    assert!(problems.is_empty());
    app
}

/// `app` submitted, every action listed.
fn job<'a>(app: &'a Coordinator, vars: &'a VarMap) -> Job<'a> {
    // A server started in 2026 (a fixed year: the figures do not depend on the date).
    let options = Options::all_actions(
        ProcessingZone::UTC,
        true,
        MaxYear::for_server_started_in(2026),
    );
    prepare(app, &[], vars, &options).unwrap_or_else(|_| panic!("the app is valid"))
}

fn bench(c: &mut Criterion) {
    let old_text = include_str!("data/hourly_10y.xml");
    let new_text = old_text.replace("${coord:current(-23)}", "${coord:current(-24)}");
    assert_ne!(old_text, new_text);
    let (old, new) = (lowered(old_text), lowered(&new_text));
    let vars = VarMap::default();
    let mut group = c.benchmark_group("diff");
    group.sample_size(10);
    group.bench_function("two_dry_runs_hourly_10y", |b| {
        b.iter(|| {
            for app in [&old, &new] {
                let failed = write_json(&job(black_box(app), &vars), &mut std::io::sink()).unwrap();
                assert!(failed.is_none());
            }
        })
    });
    group.bench_function("diff_hourly_10y", |b| {
        b.iter(|| {
            let (old_job, new_job) = (job(black_box(&old), &vars), job(black_box(&new), &vars));
            let comparison =
                compare(old_job.actions(), new_job.actions(), &new_job.zone.clone()).unwrap();
            assert_eq!(comparison.groups.len(), 2);
            black_box(comparison.old_actions)
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
