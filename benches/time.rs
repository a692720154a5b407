//! Time throughput, compared in docs/performance.md with the JVM baseline
//! (Quartz's getNextValidTimeAfter, measured with the development corpus's
//! harness, kept outside this repository):
//! - cron next-fire over the same 12 Oozie-style crons as its CronBench.java, 100
//!   consecutive fire times each from 2009-01-01T00:00Z, in UTC;
//! - 10 years of hourly nominal times (87,600) in America/Los_Angeles, and 10
//!   years of daily and monthly ones.

use chrono::{DateTime, Utc};
use coordc::time::cron::{Cron, MaxYear};
use coordc::time::datetime::ProcessingZone;
use coordc::time::frequency::{Frequency, FrequencyUnit, nominal_times};
use coordc::time::zone::Zone;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

// The allocator the `coordc` binary uses (src/main.rs).
#[global_allocator]
static GLOBAL: coordc::alloc::MiMalloc = coordc::alloc::MiMalloc;

/// CronBench.java's crons, without the `?` Oozie adds (Oozie's 5-field form).
const CRONS: [&str; 12] = [
    "10 9 * * ?",
    "10,30,45 9 * * ?",
    "0 * 30 JAN ?",
    "0/20 9-17 ? * 2-5",
    "1 2 L-3 * ?",
    "1 2 6W 3 ?",
    "1 2 ? 3 3#2",
    "0 10,13 ? * MON-FRI",
    "0/10 1/2 * * ?",
    "0 0 L * ?",
    "0 0 ? * 6L",
    "15 3 LW * ?",
];

fn bench(c: &mut Criterion) {
    // A server started in 2026 (a fixed year: the figures do not depend on the date).
    let max_year = MaxYear::for_server_started_in(2026);
    let crons: Vec<Cron> = CRONS
        .iter()
        .map(|s| Cron::parse(s, max_year).unwrap())
        .collect();
    let start: DateTime<Utc> = "2009-01-01T00:00:00Z".parse().unwrap();
    let mut group = c.benchmark_group("time");
    group.throughput(Throughput::Elements(crons.len() as u64 * 100));
    group.bench_function("cron_next_fire", |b| {
        b.iter(|| {
            for cron in &crons {
                let mut t = start;
                for _ in 0..100 {
                    t = cron.next_after(t, ProcessingZone::UTC).unwrap();
                }
                black_box(t);
            }
        })
    });
    let la = Zone::parse("America/Los_Angeles").unwrap();
    let end: DateTime<Utc> = "2019-01-01T00:00:00Z".parse().unwrap();
    for (name, count, unit) in [
        ("hourly_10y_la", 60, FrequencyUnit::Minute),
        ("daily_10y_la", 1, FrequencyUnit::Day),
        ("monthly_10y_la", 1, FrequencyUnit::Month),
    ] {
        let f = Frequency {
            count,
            unit,
            end_of: false,
        };
        let n = nominal_times(f, &la, start, end, usize::MAX).len();
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function(name, |b| {
            b.iter(|| black_box(nominal_times(f, &la, black_box(start), end, usize::MAX)))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
