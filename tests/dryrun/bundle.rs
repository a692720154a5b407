//! Bundles through the real binary: `coordc check` of a bundle and of every
//! coordinator it submits, with the configuration Oozie gives each
//! (BundleStartXCommand.mergeConfig:287-337), and `coordc dryrun` of a
//! bundle, its coordinators' actions merged in nominal-time order.

use crate::common;

use common::{check_json, coordc_in, folder, fresh_dir, stderr, stdout};
use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const PIPELINE: &str = "corpus/bundle/daily-pipeline/bundle.xml";
const MAP: &str = "hdfs://nn:8020/user/etl/daily-pipeline=corpus/bundle/daily-pipeline";

/// How many diagnostics `keep` keeps.
fn count(json: &serde_json::Value, keep: impl Fn(&serde_json::Value) -> bool) -> usize {
    json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| keep(d))
        .count()
}

/// `(file, code)` of every diagnostic.
fn codes(json: &serde_json::Value) -> Vec<(String, String)> {
    json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["file"].as_str().unwrap().to_string(),
                d["code"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The shipped pipeline checks clean once its coordinators are found: each
/// is checked with the bundle's job.properties and its own configuration
/// (`rawRoot` is defined only by the bundle's `<configuration>` of `ingest`).
#[test]
fn the_corpus_pipeline_checks_through_to_its_coordinators() {
    let (code, json) = check_json(ROOT, &[PIPELINE, "--map", MAP]);
    let found = codes(&json);
    assert_eq!(code, Some(0), "{json:#}");
    // Both coordinators were checked, as members (3 checks in all).
    assert_eq!(json["files_checked"], 3, "{json:#}");
    // The one note: nothing in the pipeline writes the raw data ingest reads.
    assert_eq!(
        found,
        [(
            "corpus/bundle/daily-pipeline/ingest/coordinator.xml".to_string(),
            "PL002".to_string()
        )]
    );
    // Named alone, the bundle finds corpus/coordc.toml's [map] (the
    // nearest coordc.toml up to the repository root): the same note.
    let (code, json) = check_json(ROOT, &[PIPELINE]);
    assert_eq!(code, Some(0));
    assert_eq!(codes(&json), found, "{json:#}");
    // Without a map anywhere, the hdfs:// app-paths cannot be read: a
    // warning on each <app-path>, and the bundle itself is still checked.
    let copy = fresh_dir("bundle-without-map");
    std::fs::create_dir_all(copy.join(".git")).unwrap();
    for file in ["bundle.xml", "job.properties"] {
        std::fs::copy(
            Path::new(ROOT)
                .join("corpus/bundle/daily-pipeline")
                .join(file),
            copy.join(file),
        )
        .unwrap();
    }
    let (code, json) = check_json(copy.to_str().unwrap(), &["bundle.xml"]);
    assert_eq!(code, Some(0));
    let found = codes(&json);
    assert_eq!(found.len(), 2, "{json:#}");
    assert!(
        found
            .iter()
            .all(|(f, c)| f.ends_with("bundle.xml") && c == "BU002")
    );
    // `coordc check corpus/` finds the map in corpus/coordc.toml.
    let (_, json) = check_json(ROOT, &["corpus/"]);
    let bundle_problems: Vec<_> = codes(&json)
        .into_iter()
        .filter(|(f, _)| f.starts_with("corpus/bundle/"))
        .collect();
    assert_eq!(
        bundle_problems,
        [(
            "corpus/bundle/daily-pipeline/ingest/coordinator.xml".to_string(),
            "PL002".to_string()
        )],
        "the pipeline's coordinators are checked through the bundle, and the notes of their unconfigured standalone checks are dropped"
    );
}

/// Writes `files` into a fresh folder; its path.
fn app(name: &str, files: &[(&str, &str)]) -> String {
    folder(name, files).to_str().unwrap().to_string()
}

/// A bundle of one coordinator, `c/`, given `freq`.
const BUNDLE_OF_C: &str = r#"<bundle-app name="b" xmlns="uri:oozie:bundle:0.2">
  <coordinator name="c"><app-path>c</app-path>
    <configuration><property><name>freq</name><value>6</value></property></configuration>
  </coordinator>
</bundle-app>"#;

const COORDINATOR: &str = r#"<coordinator-app name="c" frequency="${coord:hours(freq)}"
    start="${start}" end="2024-01-02T00:00Z" timezone="UTC" xmlns="uri:oozie:coordinator:0.4">
  <action><workflow><app-path>${wf}</app-path></workflow></action>
</coordinator-app>"#;

/// The configuration each coordinator gets: the bundle's job.properties,
/// -D, then its own `<configuration>` over them; diagnostics land in the
/// coordinator's file, once each; a coordinator that is not there is BU002
/// at its `<app-path>` and the others are still checked.
#[test]
fn each_coordinator_is_checked_with_the_configuration_the_bundle_gives_it() {
    let dir = app(
        "bundle-config",
        &[
            (
                "bundle.xml",
                r#"<bundle-app name="b" xmlns="uri:oozie:bundle:0.2">
  <coordinator name="good">
    <app-path>${apps}/c</app-path>
    <configuration>
      <property><name>freq</name><value>6</value></property>
    </configuration>
  </coordinator>
  <coordinator name="bad">
    <app-path>${apps}/c</app-path>
    <configuration>
      <property><name>freq</name><value>${bundle:conf('badFreq')}</value></property>
    </configuration>
  </coordinator>
  <coordinator name="missing"><app-path>${apps}/none</app-path></coordinator>
</bundle-app>"#,
            ),
            (
                "job.properties",
                "apps=hdfs://nn/apps\nstart=2024-01-01T00:00Z\nbadFreq=x\n",
            ),
            ("c/coordinator.xml", COORDINATOR),
        ],
    );
    let map = format!("hdfs://nn/apps={dir}");
    let (code, json) = check_json(
        &dir,
        &["bundle.xml", "--map", &map, "-D", "wf=hdfs://nn/wf"],
    );
    assert_eq!(code, Some(1), "{json:#}");
    let found = codes(&json);
    let coordinator = format!("{dir}/c/coordinator.xml");
    // `good` is clean; `bad` has freq=x (an error in the coordinator's
    // frequency); `missing` is BU002 in the bundle.
    assert!(
        found.contains(&("bundle.xml".to_string(), "BU002".to_string())),
        "{found:?}"
    );
    let in_coordinator: Vec<_> = found.iter().filter(|(f, _)| *f == coordinator).collect();
    assert_eq!(in_coordinator.len(), 1, "{json:#}");
    // Without -D, `wf` is undefined in both coordinators: reported once.
    let (_, json) = check_json(&dir, &["bundle.xml", "--map", &map]);
    let wf_undefined = count(&json, |d| {
        d["code"] == "EL005" && d["message"].as_str().unwrap().contains("wf")
    });
    assert_eq!(wf_undefined, 1, "{json:#}");
}

/// The bundle's own EL: only `bundle:conf` and the job's properties
/// (oozie-default.xml:1245, bundle-submit), so `coord:name()` is an unknown
/// function there (EL002); an undefined name is an error once the job is
/// configured (E1004); a kick-off-time is an Oozie datetime.
#[test]
fn bundle_el_and_kick_off_time() {
    let dir = app(
        "bundle-el",
        &[
            (
                "bundle.xml",
                r#"<bundle-app name="b" xmlns="uri:oozie:bundle:0.2">
  <controls><kick-off-time>2024-01-01T00:00:00Z</kick-off-time></controls>
  <coordinator name="${coord:name()}"><app-path>${undefinedRoot}/c</app-path></coordinator>
</bundle-app>"#,
            ),
            ("job.properties", "nameNode=hdfs://nn\n"),
        ],
    );
    let (code, json) = check_json(&dir, &["bundle.xml"]);
    assert_eq!(code, Some(1));
    let mut found: Vec<String> = codes(&json).into_iter().map(|(_, c)| c).collect();
    found.sort();
    assert_eq!(found, ["EL002", "EL005", "TM001"], "{json:#}");
}

/// `coordc dryrun` of a bundle: its coordinators' actions in nominal-time
/// order, each labelled; JSON `{"bundle", "kick_off_time", "coordinators",
/// "actions": [{"coordinator", ...}]}`.
#[test]
fn dryrun_merges_the_coordinators_actions() {
    let out = coordc_in(
        ROOT,
        &["dryrun", PIPELINE, "--map", MAP, "--format", "json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["bundle"], "daily-pipeline-prod");
    assert_eq!(json["kick_off_time"], "2024-01-01T00:00Z");
    let coordinators: Vec<&str> = json["coordinators"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(coordinators, ["ingest-prod", "report-prod"]);
    let actions: Vec<(String, String)> = json["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["coordinator"].as_str().unwrap().to_string(),
                a["nominal_time"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let expected: Vec<(String, String)> = ["01", "02", "03"]
        .iter()
        .flat_map(|day| {
            ["ingest-prod", "report-prod"].map(|c| (c.to_string(), format!("2024-01-{day}T00:00Z")))
        })
        .collect();
    assert_eq!(actions, expected);
    // rawRoot comes from the bundle's <configuration> of ingest only.
    assert_eq!(
        json["actions"][0]["inputs"]["input"][0],
        "hdfs://nn:8020/data/prod/raw/2024/01/01"
    );
    let text = coordc_in(ROOT, &["dryrun", PIPELINE, "--map", MAP, "--limit", "3"]);
    insta::assert_snapshot!("dryrun_bundle_daily_pipeline", stdout(&text));
}

/// Without a configuration, a bundle that reads job properties gets the note
/// of the names its job must define (a parameter without a default among
/// them), not errors, and its coordinators, which that configuration would
/// reach, are not checked; one that reads none is checked through.
#[test]
fn an_unconfigured_bundle_is_a_note() {
    let dir = app(
        "bundle-unconfigured",
        &[
            (
                "bundle.xml",
                r#"<bundle-app name="b" xmlns="uri:oozie:bundle:0.2">
  <parameters><property><name>env</name></property></parameters>
  <coordinator name="c-${env}"><app-path>${apps}/c</app-path></coordinator>
</bundle-app>"#,
            ),
            ("c/coordinator.xml", COORDINATOR),
        ],
    );
    let (code, json) = check_json(&dir, &["bundle.xml"]);
    assert_eq!(code, Some(0), "{json:#}");
    let diagnostics = json["diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.len(), 1, "{json:#}");
    assert_eq!(diagnostics[0]["severity"], "note");
    assert!(
        diagnostics[0]["message"]
            .as_str()
            .unwrap()
            .contains("`apps`, `env`")
    );
    assert_eq!(json["files_checked"], 1);
}

/// A bundle's coordinators get the bundle job's configuration, which takes
/// in the bundle-config-default.xml beside the bundle
/// (BundleSubmitXCommand.mergeDefaultConfig:224-260), and not the
/// job.properties beside the coordinator, which Oozie never reads then.
#[test]
fn bundle_defaults_reach_the_coordinators_and_their_own_job_properties_do_not() {
    let dir = app(
        "bundle-defaults",
        &[
            ("bundle.xml", BUNDLE_OF_C),
            (
                "bundle-config-default.xml",
                "<configuration><property><name>start</name><value>2024-01-01T00:00Z</value></property></configuration>",
            ),
            ("job.properties", "nameNode=hdfs://nn\n"),
            ("c/coordinator.xml", COORDINATOR),
            ("c/job.properties", "wf=hdfs://nn/wf\n"),
        ],
    );
    let (code, json) = check_json(&dir, &["bundle.xml"]);
    assert_eq!(code, Some(1), "{json:#}");
    let undefined: Vec<&str> = json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["file"].as_str().unwrap().ends_with("c/coordinator.xml"))
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    // `start` came from the bundle's defaults; `wf` is only beside the
    // coordinator, so the bundle's job lacks it.
    assert_eq!(undefined.len(), 1, "{json:#}");
    assert!(undefined[0].contains("`wf`"), "{json:#}");
}

/// The pipeline rules run across the coordinators of one bundle: two that
/// read each other's output make a cycle (PL001), found where neither file
/// alone shows it.
#[test]
fn pipeline_rules_run_across_a_bundles_coordinators() {
    let coordinator = |name: &str, reads: &str, writes: &str| {
        format!(
            r#"<coordinator-app name="{name}" frequency="${{coord:days(1)}}" start="2024-01-02T00:00Z" end="2024-01-05T00:00Z" timezone="UTC" xmlns="uri:oozie:coordinator:0.4">
  <datasets>
    <dataset name="in" frequency="${{coord:days(1)}}" initial-instance="2024-01-01T00:00Z" timezone="UTC"><uri-template>hdfs://nn/{reads}/${{YEAR}}${{MONTH}}${{DAY}}</uri-template></dataset>
    <dataset name="out" frequency="${{coord:days(1)}}" initial-instance="2024-01-01T00:00Z" timezone="UTC"><uri-template>hdfs://nn/{writes}/${{YEAR}}${{MONTH}}${{DAY}}</uri-template></dataset>
  </datasets>
  <input-events><data-in name="i" dataset="in"><instance>${{coord:current(0)}}</instance></data-in></input-events>
  <output-events><data-out name="o" dataset="out"><instance>${{coord:current(0)}}</instance></data-out></output-events>
  <action><workflow><app-path>hdfs://nn/wf</app-path></workflow></action>
</coordinator-app>"#
        )
    };
    let (a, b) = (coordinator("a", "x", "y"), coordinator("b", "y", "x"));
    let dir = app(
        "bundle-pipeline",
        &[
            (
                "bundle.xml",
                r#"<bundle-app name="b" xmlns="uri:oozie:bundle:0.2">
  <coordinator name="a"><app-path>a</app-path></coordinator>
  <coordinator name="b"><app-path>b</app-path></coordinator>
</bundle-app>"#,
            ),
            ("a/coordinator.xml", &a),
            ("b/coordinator.xml", &b),
        ],
    );
    let (_, json) = check_json(&dir, &["bundle.xml"]);
    let cycles = codes(&json)
        .into_iter()
        .filter(|(_, code)| code == "PL001")
        .count();
    assert!(cycles >= 1, "{json:#}");
    // Each coordinator alone reads what nobody writes: no cycle.
    let (_, json) = check_json(&dir, &["a/coordinator.xml"]);
    assert!(!codes(&json).iter().any(|(_, c)| c == "PL001"), "{json:#}");
}

/// A bundle's `<parameters>` defaults are part of its job's configuration
/// (BundleSubmitXCommand:124), read back `${name}`-expanded (126-133), and
/// so reach every coordinator (BundleStartXCommand:288-292): the check is
/// clean and the dry run lists the actions.
#[test]
fn bundle_parameter_defaults_reach_the_coordinators() {
    let dir = app(
        "bundle-parameters",
        &[
            (
                "bundle.xml",
                r#"<bundle-app name="b" xmlns="uri:oozie:bundle:0.2">
  <parameters>
    <property><name>start</name><value>2024-01-01T00:00Z</value></property>
    <property><name>wf</name><value>${nameNode}/wf</value></property>
    <property><name>apps</name><value>${nameNode}/apps</value></property>
  </parameters>
  <coordinator name="c"><app-path>${apps}/c</app-path>
    <configuration><property><name>freq</name><value>6</value></property></configuration>
  </coordinator>
</bundle-app>"#,
            ),
            ("job.properties", "nameNode=hdfs://nn\n"),
            ("c/coordinator.xml", COORDINATOR),
        ],
    );
    let map = format!("hdfs://nn/apps={dir}");
    let (code, json) = check_json(&dir, &["bundle.xml", "--map", &map]);
    assert_eq!(code, Some(0), "{json:#}");
    assert_eq!(json["files_checked"], 2, "{json:#}");
    let out = coordc_in(
        &dir,
        &["dryrun", "bundle.xml", "--map", &map, "--format", "json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let listing: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(listing["actions"].as_array().unwrap().len(), 4);
    assert_eq!(
        listing["actions"][0]["workflow"]["app_path"],
        "hdfs://nn/wf"
    );
}

/// A disabled coordinator is not submitted, but its app-path must exist
/// when the bundle starts (BundleStartXCommand:162-164: mergeConfig, with
/// its existence check, before isEnabled); a path without a scheme is on
/// the cluster's file system, so without --map it is not read.
#[test]
fn disabled_coordinators_paths_are_checked_and_absolute_paths_are_remote() {
    let dir = app(
        "bundle-disabled",
        &[
            (
                "bundle.xml",
                r#"<bundle-app name="b" xmlns="uri:oozie:bundle:0.2">
  <coordinator name="on"><app-path>hdfs://nn/apps/c</app-path></coordinator>
  <coordinator name="off" enabled="false"><app-path>hdfs://nn/apps/missing</app-path></coordinator>
  <coordinator name="near" enabled="false"><app-path>nowhere</app-path></coordinator>
  <coordinator name="hdfs" enabled="false"><app-path>/user/etl/apps/c</app-path></coordinator>
</bundle-app>"#,
            ),
            (
                "job.properties",
                "start=2024-01-01T00:00Z\nfreq=6\nwf=hdfs://nn/wf\n",
            ),
            ("c/coordinator.xml", COORDINATOR),
        ],
    );
    let map = format!("hdfs://nn/apps={dir}");
    let (code, json) = check_json(&dir, &["bundle.xml", "--map", &map]);
    assert_eq!(code, Some(1), "{json:#}");
    let found: Vec<(String, String)> = json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["severity"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        found,
        // Mapped and missing: an error. Absolute without a map, or relative
        // and not beside the bundle (Hadoop reads it from the user's home
        // folder): warnings.
        [
            ("BU002".to_string(), "error".to_string()),
            ("BU002".to_string(), "warning".to_string()),
            ("BU002".to_string(), "warning".to_string())
        ],
        "{json:#}"
    );
    // The dry run stops on the missing one (an error), and lists the
    // disabled coordinators as such once it is fixed.
    let out = coordc_in(&dir, &["dryrun", "bundle.xml", "--map", &map]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    std::fs::create_dir_all(format!("{dir}/missing")).unwrap();
    std::fs::write(format!("{dir}/missing/coordinator.xml"), COORDINATOR).unwrap();
    let out = coordc_in(
        &dir,
        &["dryrun", "bundle.xml", "--map", &map, "--limit", "1"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("coordinator off: disabled, not submitted"),
        "{}",
        stdout(&out)
    );
}

/// One coordinator reached alone (as `c`) and through a bundle (as `./c/`):
/// each problem is reported once, pipeline problems included.
#[test]
fn a_problem_is_reported_once_whatever_path_reaches_it() {
    let dir = app(
        "bundle-once",
        &[
            (
                "bundle.xml",
                r#"<bundle-app name="b" xmlns="uri:oozie:bundle:0.2">
  <coordinator name="c"><app-path>./c/</app-path></coordinator>
</bundle-app>"#,
            ),
            ("job.properties", "start=2024-01-01T00:00Z\nfreq=6\n"),
            ("c/coordinator.xml", COORDINATOR),
            ("c/job.properties", "start=2024-01-01T00:00Z\nfreq=6\n"),
        ],
    );
    let (_, json) = check_json(&dir, &["."]);
    let undefined = count(&json, |d| d["code"] == "EL005");
    assert_eq!(undefined, 1, "{json:#}");
}

/// Without a configuration, a bundle that needs no name still reaches its
/// coordinators, which are then as unconfigured as it is: their own
/// `<configuration>` in the bundle does not make them configured, so what
/// they need is a note, not errors.
#[test]
fn an_unconfigured_bundles_coordinators_are_unconfigured() {
    let dir = app(
        "bundle-unconfigured-members",
        &[
            ("bundle.xml", BUNDLE_OF_C),
            ("c/coordinator.xml", COORDINATOR),
        ],
    );
    let (code, json) = check_json(&dir, &["bundle.xml"]);
    assert_eq!(code, Some(0), "{json:#}");
    let notes: Vec<&str> = json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["severity"].as_str().unwrap())
        .collect();
    assert_eq!(notes, ["note"], "{json:#}");
}
