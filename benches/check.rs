//! `coordc check DIR --format json` on 10,000 generated coordinator apps of
//! 2-4 KB (varied zones, frequencies including cron, ranges, configuration
//! EL), every rule enabled: the process, as a user runs it. Compared in
//! docs/performance.md with `xmllint --noout --schema` validating the same
//! files against the coordinator 0.4 schema.
//!
//! The apps are written to target/bench-check/ (and kept, for xmllint):
//! `cargo bench --bench check` generates them before measuring.

mod shared;

use criterion::{Criterion, criterion_group, criterion_main};
use std::path::{Path, PathBuf};

const ZONES: &[&str] = &[
    "UTC",
    "America/Los_Angeles",
    "Europe/London",
    "Asia/Kolkata",
    "America/New_York",
    "GMT+05:30",
    "Europe/Berlin",
];
const FREQUENCIES: &[&str] = &[
    "${coord:hours(1)}",
    "${coord:days(1)}",
    "60",
    "${coord:minutes(30)}",
    "${coord:months(1)}",
    "0 3 * * *",
];
/// Each dataset frequency with the uri-template fields that resolve it.
const DATASETS: &[(&str, &str)] = &[
    ("${coord:hours(1)}", "${YEAR}/${MONTH}/${DAY}/${HOUR}"),
    ("${coord:days(1)}", "${YEAR}/${MONTH}/${DAY}"),
    (
        "${coord:minutes(15)}",
        "${YEAR}/${MONTH}/${DAY}/${HOUR}/${MINUTE}",
    ),
];

/// App `i`: the choices follow from `i` (a fixed xorshift), so every run
/// checks the same files.
fn app(i: usize) -> String {
    let mut seed = (i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let mut pick = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut zone = ZONES[pick(ZONES.len())];
    let frequency = FREQUENCIES[pick(FREQUENCIES.len())];
    if frequency.contains(' ') {
        // Oozie evaluates cron in the processing zone (CR008).
        zone = "UTC";
    }
    let (dataset_frequency, fields) = DATASETS[pick(DATASETS.len())];
    // 24 hourly instances for a daily job in a DST zone would be DST002.
    let range = match 1 + pick(30) {
        23 => 22,
        n => n,
    };
    let properties: String = (0..2 + pick(7))
        .map(|j| {
            format!(
                "\n        <property>\n          <name>prop{j}</name>\n          <value>${{coord:formatTime(coord:nominalTime(), 'yyyy-MM-dd')}}/{j}</value>\n        </property>"
            )
        })
        .collect();
    format!(
        r#"<coordinator-app name="app-{i}" frequency="{frequency}" start="2020-01-01T00:00Z" end="2021-01-01T00:00Z" timezone="{zone}" xmlns="uri:oozie:coordinator:0.4">
  <controls>
    <timeout>60</timeout>
    <concurrency>2</concurrency>
    <execution>FIFO</execution>
  </controls>
  <datasets>
    <dataset name="logs" frequency="{dataset_frequency}" initial-instance="2019-01-01T00:00Z" timezone="{zone}">
      <uri-template>hdfs://nn:8020/data/logs/{fields}</uri-template>
    </dataset>
    <dataset name="out" frequency="${{coord:days(1)}}" initial-instance="2019-01-01T00:00Z" timezone="{zone}">
      <uri-template>hdfs://nn:8020/data/out/app-{i}/${{YEAR}}/${{MONTH}}/${{DAY}}</uri-template>
    </dataset>
  </datasets>
  <input-events>
    <data-in name="input" dataset="logs">
      <start-instance>${{coord:current(-{range})}}</start-instance>
      <end-instance>${{coord:current(0)}}</end-instance>
    </data-in>
  </input-events>
  <output-events>
    <data-out name="output" dataset="out">
      <instance>${{coord:current(0)}}</instance>
    </data-out>
  </output-events>
  <action>
    <workflow>
      <app-path>hdfs://nn:8020/apps/wf-{i}</app-path>
      <configuration>
        <property>
          <name>input</name>
          <value>${{coord:dataIn('input')}}</value>
        </property>
        <property>
          <name>output</name>
          <value>${{coord:dataOut('output')}}</value>
        </property>{properties}
      </configuration>
    </workflow>
  </action>
</coordinator-app>
"#
    )
}

/// Writes the 10,000 apps (once) and returns their folder.
fn generate() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-check");
    std::fs::create_dir_all(&dir).expect("target/ is writable");
    for i in 0..10_000 {
        let path = dir.join(format!("app{i:05}.xml"));
        let text = app(i);
        if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            std::fs::write(&path, text).expect("target/ is writable");
        }
    }
    dir
}

fn bench(c: &mut Criterion) {
    let dir = generate();
    let coordc = env!("CARGO_BIN_EXE_coordc");
    // The apps are valid: the check finds no error and no warning. (Each
    // app's input comes from outside the 10,000, which is a note, PL002.)
    shared::assert_checks_clean(coordc, &dir);
    shared::bench_check(c, "10k_apps", coordc, &dir);
}

criterion_group!(benches, bench);
criterion_main!(benches);
