//! `coordc simulate` on a year of a 5-minute coordinator (105,120 actions):
//! each hourly input instance arrives 0–40 minutes late (seeded), 3% never
//! (those actions time out), concurrency 3, workflows of 4 minutes; from the
//! scenario and XML text to the JSON report written to a sink. The target
//! (issue 20): ≤ 1 s and ≤ 256 MB peak RSS; docs/performance.md ("Simulate")
//! keeps the figures. The scenario is also written to
//! target/bench-simulate/ so the peak RSS can be measured on the binary.

use coordc::el::VarMap;
use coordc::interp::simulate::engine::{Engine, JobInput};
use coordc::interp::simulate::report::write_json;
use coordc::interp::simulate::scenario::model::Scenario;
use coordc::interp::workflow::run::NoSubWorkflows;
use coordc::ir::lower;
use coordc::oozie::job::{Options, prepare};
use coordc::time::cron::MaxYear;
use coordc::time::datetime::ProcessingZone;
use criterion::{Criterion, criterion_group, criterion_main};
use std::fmt::Write;
use std::hint::black_box;

// The allocator the `coordc` binary uses (src/main.rs).
#[global_allocator]
static GLOBAL: coordc::alloc::MiMalloc = coordc::alloc::MiMalloc;

const APP: &str = r#"<coordinator-app name="five" frequency="${coord:minutes(5)}" start="2009-01-01T00:00Z" end="2010-01-01T00:00Z" timezone="UTC" xmlns="uri:oozie:coordinator:0.4">
  <controls><concurrency>3</concurrency></controls>
  <datasets>
    <dataset name="logs" frequency="${coord:hours(1)}" initial-instance="2008-01-01T00:00Z" timezone="UTC">
      <uri-template>hdfs://bar:8020/app/logs/${YEAR}/${MONTH}/${DAY}/${HOUR}</uri-template>
    </dataset>
  </datasets>
  <input-events>
    <data-in name="input" dataset="logs"><instance>${coord:current(0)}</instance></data-in>
  </input-events>
  <action><workflow><app-path>hdfs://bar:8020/app/wf</app-path></workflow></action>
</coordinator-app>
"#;

/// The scenario: every hour of 2009, its instance late by 0–40 minutes or
/// (3%) never there.
fn scenario() -> String {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut text = String::from(
        "start = \"2009-01-01T00:00Z\"\nuntil = \"2010-01-01T00:00Z\"\n[workflows]\nduration = \"4m\"\n[[job]]\nid = \"five\"\napp = \"coordinator.xml\"\n",
    );
    let start = chrono::DateTime::parse_from_rfc3339("2009-01-01T00:00:00Z").unwrap();
    for hour in 0..365 * 24 {
        let t = start + chrono::Duration::hours(hour);
        if next() % 100 < 3 {
            continue;
        }
        let at = t + chrono::Duration::minutes((next() % 41) as i64);
        writeln!(
            text,
            "[[data]]\nuri = \"hdfs://bar:8020/app/logs/{}\"\nat = \"{}\"",
            t.format("%Y/%m/%d/%H"),
            at.format("%Y-%m-%dT%H:%MZ")
        )
        .unwrap();
    }
    text
}

fn bench(c: &mut Criterion) {
    let scenario_text = scenario();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-simulate");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("scenario.toml"), &scenario_text).unwrap();
    std::fs::write(dir.join("coordinator.xml"), APP).unwrap();
    let mut group = c.benchmark_group("simulate");
    group.sample_size(10);
    group.bench_function("five_minutes_one_year_json", |b| {
        b.iter(|| {
            let scenario = Scenario::read(black_box(&scenario_text)).unwrap();
            let arena = coordc::xml::Arena::new();
            let doc = coordc::xml::parse(APP, &arena).unwrap();
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
            let input = JobInput {
                id: "five".into(),
                job: &job,
                submit: scenario.start,
                workflows: &NoSubWorkflows,
            };
            let simulation = scenario.resolve([("five", &job)]).unwrap();
            let mut engine = Engine::new(simulation, vec![input]);
            engine.run(None).unwrap();
            assert_eq!(engine.created, 105_120);
            write_json(&engine.into_record(), &mut std::io::sink()).unwrap();
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
