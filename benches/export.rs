//! `coordc export airflow` of benches/data/hourly_1y.xml (an hourly
//! coordinator over a year in Los Angeles, a 24-instance hourly data-in),
//! from the XML text to the DAG file's text: loading, submission, every
//! nominal time (the schedule's proof) and the DAG. The target is under
//! 50 ms (docs/performance.md).

use coordc::export::airflow::{FindWorkflow, Source, Workflow, export};
use coordc::oozie::job::Options;
use coordc::project::files::Files;
use coordc::project::load::{self, JobInput, JobSource, Sources, parse_document};
use coordc::time::cron::MaxYear;
use coordc::time::datetime::ProcessingZone;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::Arc;

// The allocator the `coordc` binary uses (src/main.rs).
#[global_allocator]
static GLOBAL: coordc::alloc::MiMalloc = coordc::alloc::MiMalloc;

/// No workflow is read in the benchmark.
struct NoWorkflows;

impl FindWorkflow for NoWorkflows {
    fn find(&self, _: &str, _: &str) -> Result<Workflow, String> {
        Err("not read in the benchmark".to_string())
    }
}

fn bench(c: &mut Criterion) {
    let path = Path::new("hourly_1y.xml");
    let text: Arc<str> = Arc::from(include_str!("data/hourly_1y.xml"));
    let files = Files::with_buffers([(PathBuf::from(path), text)]);
    // A server started in 2026 (a fixed year: the figures do not depend on the date).
    let max_year = MaxYear::for_server_started_in(2026);
    let options = Options::all_actions(ProcessingZone::UTC, true, max_year);
    let mut group = c.benchmark_group("export");
    group.sample_size(20);
    group.bench_function("airflow_hourly_1y", |b| {
        b.iter(|| {
            let mut sources = Sources::default();
            let text = load::read_application(path, &files, &mut sources)
                .unwrap_or_else(|_| panic!("read"));
            let arena = coordc::xml::Arena::new();
            let doc = parse_document(&text, &arena).unwrap_or_else(|_| panic!("well-formed"));
            let input = JobInput {
                configs: &[],
                files: &files,
                job: JobSource::Own,
                defines: &[],
                maps: &[],
                processing_zone: ProcessingZone::UTC,
                check_maximum_frequency: true,
                cron_max_year: max_year,
            };
            let loaded = load::coordinator(&doc, path, &input, &mut sources)
                .unwrap_or_else(|_| panic!("loads"));
            let job =
                load::submit(&loaded, &sources, &options, &mut |_, _| panic!("valid")).unwrap();
            let source = Source {
                file: "hourly_1y.xml",
                bundle: None,
                sources: &sources,
                loaded: &loaded,
                job: &job,
                workflow: Err("not read in the benchmark".to_string()),
                find: &NoWorkflows,
                version: "bench",
            };
            let dag = export(black_box(&source), "hourly-1y", "hourly_1y.py");
            assert!(
                dag.python
                    .contains("DeltaTriggerTimetable(timedelta(hours=1))")
            );
            black_box(dag.python.len())
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
