//! `coordc simulate` as a command: the quick form on every valid coordinator
//! of the corpus (against `coordc dryrun`), determinism, the SVG picture,
//! `--explain`, `--at`, and how bad scenarios are refused.
//!
//! The engine's behaviour over time is pinned by `facts_1.rs`, `facts_2.rs` and
//! `properties.rs`; this file is about the command around it.

use crate::common;
use crate::common::simulate::{instant, oozie, strings, text};
use crate::common::{coordc, json_of, root, write};

use chrono::{DateTime, Duration, Utc};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Instant;

// ---------------------------------------------------------------------------
// The quick form on the corpus.

/// Every coordinator application under `corpus/` but `corpus/invalid/`.
fn corpus_coordinators() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n == "invalid") {
                    continue;
                }
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "xml")
                && std::fs::read_to_string(&path).is_ok_and(|t| t.contains("<coordinator-app"))
            {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(&root().join("corpus"), &mut out);
    out
}

/// The job properties the scenarios beside `app` submit it with, one set per
/// distinct `[[job]]` that names it (none: the app runs with its own
/// configuration, the job.properties beside it if any).
fn scenario_properties(app: &Path) -> Vec<Vec<(String, String)>> {
    let dir = app.parent().unwrap();
    let name = app.file_name().unwrap().to_str().unwrap();
    let mut sets: Vec<Vec<(String, String)>> = Vec::new();
    let mut scenarios: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    scenarios.sort();
    for scenario in scenarios {
        let Ok(table) = std::fs::read_to_string(&scenario)
            .unwrap()
            .parse::<toml::Table>()
        else {
            continue;
        };
        for job in table
            .get("job")
            .and_then(|j| j.as_array())
            .into_iter()
            .flatten()
        {
            if job.get("app").and_then(|a| a.as_str()) != Some(name) {
                continue;
            }
            let set: Vec<(String, String)> = job
                .get("properties")
                .and_then(|p| p.as_table())
                .into_iter()
                .flatten()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
                .collect();
            if !sets.contains(&set) {
                sets.push(set);
            }
        }
    }
    if sets.is_empty() {
        sets.push(Vec::new());
    }
    sets
}

/// What one coordinator's quick form showed.
enum Outcome {
    /// Compared with the dry run: this many actions both list.
    Compared(usize),
    /// Neither the dry run nor the simulation can run it without more
    /// configuration (both said so, exit 1).
    NeedsConfiguration,
}

/// The quick form of `app` with `defines`: no panic, and the actions both it
/// and the dry run list (up to three days after the first nominal time) have
/// the same nominal times and input URIs.
fn quick_form_matches_dryrun(app: &Path, defines: &[(String, String)]) -> Result<Outcome, String> {
    let app_text = std::fs::read_to_string(app).unwrap();
    let app = app.display().to_string();
    let mut base: Vec<String> = vec![app.clone()];
    for (k, v) in defines {
        base.push("-D".into());
        base.push(format!("{k}={v}"));
    }
    let with = |cmd: &str, more: &[&str]| -> Output {
        let mut args: Vec<&str> = vec![cmd];
        args.extend(base.iter().map(String::as_str));
        args.extend(more);
        coordc(&args)
    };
    // The default run: to the job's end (at most 31 days), plus a day.
    let default = with("simulate", &["--format", "json"]);
    let first = with("dryrun", &["--format", "json", "--limit", "1"]);
    if first.status.code() != Some(0) {
        // Then the simulation must refuse it the same way, without a panic.
        let dry_err = common::stderr(&first);
        let sim_err = common::stderr(&default);
        if default.status.code() != Some(1) || first.status.code() != Some(1) {
            return Err(format!(
                "dry run exit {:?}, simulate exit {:?}:\n{dry_err}\n{sim_err}",
                first.status.code(),
                default.status.code()
            ));
        }
        let first_error = |s: &str| {
            s.lines()
                .find(|l| l.starts_with("error"))
                .map(str::to_string)
        };
        if first_error(&dry_err).is_none() || first_error(&dry_err) != first_error(&sim_err) {
            return Err(format!(
                "the dry run and the simulation refuse it differently:\n{dry_err}\n{sim_err}"
            ));
        }
        return Ok(Outcome::NeedsConfiguration);
    }
    if default.status.code() != Some(0) {
        return Err(format!(
            "simulate exit {:?}: {}",
            default.status.code(),
            common::stderr(&default)
        ));
    }
    serde_json::from_slice::<Value>(&default.stdout).map_err(|e| format!("not JSON: {e}"))?;
    let first: Value = serde_json::from_slice(&first.stdout).unwrap();
    let Some(first) = first["actions"].as_array().and_then(|a| a.first()) else {
        return Ok(Outcome::Compared(0));
    };
    let bound = oozie(instant(text(&first["nominal_time"])) + Duration::days(3));
    let dry = with("dryrun", &["--format", "json", "--to", &bound]);
    let sim = with("simulate", &["--format", "json", "--until", &bound]);
    if sim.status.code() != Some(0) || dry.status.code() != Some(0) {
        return Err(format!(
            "to {bound}: dry run exit {:?}, simulate exit {:?}: {}{}",
            dry.status.code(),
            sim.status.code(),
            common::stderr(&dry),
            common::stderr(&sim)
        ));
    }
    let dry: Value = serde_json::from_slice(&dry.stdout).unwrap();
    let sim: Value = serde_json::from_slice(&sim.stdout).unwrap();
    let listed: BTreeMap<u64, &Value> = dry["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| (a["number"].as_u64().unwrap(), a))
        .collect();
    let simulated = sim["jobs"][0]["actions"].as_array().unwrap();
    if simulated.is_empty() && !listed.is_empty() {
        return Err(format!(
            "the simulation to {bound} created no action; the dry run lists {}",
            listed.len()
        ));
    }
    let logic = app_text.contains("<input-logic");
    let mut compared = 0;
    for action in simulated {
        let n = action["number"].as_u64().unwrap();
        let Some(expected) = listed.get(&n) else {
            continue;
        };
        compared += 1;
        if action["nominal_time"] != expected["nominal_time"] {
            return Err(format!(
                "@{n}: nominal {} simulated, {} in the dry run",
                action["nominal_time"], expected["nominal_time"]
            ));
        }
        let dry_inputs = expected["inputs"].as_object().unwrap();
        let sim_inputs = action["inputs"].as_object().unwrap();
        if dry_inputs.keys().collect::<Vec<_>>() != sim_inputs.keys().collect::<Vec<_>>() {
            return Err(format!(
                "@{n}: data-ins {:?} simulated, {:?} in the dry run",
                sim_inputs.keys().collect::<Vec<_>>(),
                dry_inputs.keys().collect::<Vec<_>>()
            ));
        }
        for (name, uris) in dry_inputs {
            let dry_uris = strings(uris);
            let sim_uris = strings(&sim_inputs[name]);
            let unresolved = expected["unresolved"][name]
                .as_array()
                .is_some_and(|u| !u.is_empty());
            let ok = if logic {
                // With input logic the report lists the URIs the logic chose:
                // each is one the data-in resolved.
                sim_uris.iter().all(|u| dry_uris.contains(u))
            } else if unresolved {
                // latest/future ones, once resolved, come before the
                // current()-based ones (OID:314-322).
                sim_uris.ends_with(&dry_uris)
            } else {
                sim_uris == dry_uris
            };
            if !ok {
                return Err(format!(
                    "@{n} ({}): data-in {name}: simulated {sim_uris:?}, dry run {dry_uris:?}",
                    text(&action["nominal_time"])
                ));
            }
        }
    }
    Ok(Outcome::Compared(compared))
}

#[test]
fn quick_form_runs_every_valid_corpus_coordinator_as_the_dry_run_lists_it() {
    let apps = corpus_coordinators();
    assert!(apps.len() >= 80, "only {} coordinators found", apps.len());
    let mut failures = Vec::new();
    let (mut checked, mut compared_apps, mut compared_actions, mut unconfigured) = (0, 0, 0, 0);
    for app in &apps {
        let check = coordc(&["check", &app.display().to_string()]);
        if check.status.code() != Some(0) {
            continue;
        }
        checked += 1;
        for defines in scenario_properties(app) {
            match quick_form_matches_dryrun(app, &defines) {
                Ok(Outcome::Compared(n)) => {
                    compared_apps += 1;
                    compared_actions += n;
                }
                Ok(Outcome::NeedsConfiguration) => unconfigured += 1,
                Err(e) => failures.push(format!("{} {defines:?}: {e}", app.display())),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    // The walk found what the corpus holds: most apps run (the bundle's
    // coordinators take their start and end from the bundle).
    assert!(checked >= 80, "{checked} coordinators pass coordc check");
    assert!(compared_apps >= 90, "{compared_apps} runs compared");
    assert!(
        compared_actions >= 1000,
        "{compared_actions} actions compared"
    );
    assert!(
        unconfigured <= 2,
        "{unconfigured} runs lack a configuration"
    );
}

/// The quick form's own data: every input instance at its nominal time, so
/// with default controls every action of a past job runs and succeeds.
#[test]
fn quick_form_runs_every_action_of_a_finished_job() {
    let app = root().join("corpus/simulate/fact30/coordinator.xml");
    let doc = json_of(
        &coordc(&["simulate", &app.display().to_string(), "--format", "json"]),
        "quick form",
    );
    let job = &doc["jobs"][0];
    assert_eq!(job["status"], "SUCCEEDED", "{job:#}");
    let actions = job["actions"].as_array().unwrap();
    assert_eq!(actions.len(), 5);
    for a in actions {
        assert_eq!(a["status"], "SUCCEEDED", "{a:#}");
        assert_eq!(a["missing"], serde_json::json!([]));
    }
    // Submitted at the job's start; the default until: its end plus a day.
    assert_eq!(job["history"][0]["at"], "2009-01-01T01:00:00Z");
    assert_eq!(doc["at"], "2009-01-02T06:00:00Z");
}

// ---------------------------------------------------------------------------
// Determinism and formats.

/// The coordinator scenarios of the corpus (a workflow's has no `until`).
fn corpus_scenarios() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in std::fs::read_dir(root().join("corpus/simulate")).unwrap() {
        let dir = dir.unwrap().path();
        for f in std::fs::read_dir(&dir).unwrap() {
            let f = f.unwrap().path();
            if f.extension().is_some_and(|e| e == "toml")
                && std::fs::read_to_string(&f)
                    .unwrap()
                    .parse::<toml::Table>()
                    .is_ok_and(|t| t.contains_key("until"))
            {
                out.push(f);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn the_same_scenario_gives_the_same_bytes() {
    let scenarios = corpus_scenarios();
    assert!(scenarios.len() >= 40);
    for scenario in &scenarios {
        let s = scenario.display().to_string();
        for format in ["json", "events", "text"] {
            let first = coordc(&["simulate", &s, "--format", format]);
            common::expect_code(&first, 0, &s);
            let second = coordc(&["simulate", &s, "--format", format]);
            assert!(
                first.stdout == second.stdout,
                "{s} --format {format}: two runs differ"
            );
        }
    }
    // The quick form too, from another working directory.
    let app = root().join("corpus/coord/spec-6.6.7-future/coordinator.xml");
    let a = app.display().to_string();
    let first = coordc(&[
        "simulate",
        &a,
        "--format",
        "events",
        "--until",
        "2009-01-05T00:00Z",
    ]);
    common::expect_code(&first, 0, &a);
    let second = common::coordc_in(
        "/",
        &[
            "simulate",
            &a,
            "--format",
            "events",
            "--until",
            "2009-01-05T00:00Z",
        ],
    );
    assert!(first.stdout == second.stdout, "{a}: two runs differ");
}

/// The events and the JSON report tell the same story: every action's last
/// event is its status, every job's its status.
#[test]
fn events_and_the_json_report_agree() {
    for scenario in corpus_scenarios() {
        let s = scenario.display().to_string();
        let doc = json_of(&coordc(&["simulate", &s, "--format", "json"]), &s);
        let events = coordc(&["simulate", &s, "--format", "events"]);
        common::expect_code(&events, 0, &s);
        let mut last: BTreeMap<(String, Option<u64>), String> = BTreeMap::new();
        let mut previous = None;
        for line in common::stdout(&events).lines() {
            let e: Value = serde_json::from_str(line).unwrap();
            let at = instant(text(&e["at"]));
            assert!(previous <= Some(at), "{s}: events out of order at {line}");
            previous = Some(at);
            last.insert(
                (text(&e["job"]).to_string(), e["action"].as_u64()),
                text(&e["to"]).to_string(),
            );
        }
        for job in doc["jobs"].as_array().unwrap() {
            let id = text(&job["id"]).to_string();
            if let Some(status) = last.get(&(id.clone(), None)) {
                assert_eq!(job["status"], status.as_str(), "{s}: job {id}");
            }
            for a in job["actions"].as_array().unwrap() {
                let n = a["number"].as_u64();
                assert_eq!(
                    last.get(&(id.clone(), n)).map(String::as_str),
                    a["status"].as_str(),
                    "{s}: {id}@{n:?}"
                );
            }
        }
    }
}

/// Well-formed XML, with `svg` as its root: every start tag closed in order.
fn assert_well_formed_svg(svg: &str, what: &str) {
    use quick_xml::Reader;
    use quick_xml::events::Event;
    let mut reader = Reader::from_str(svg);
    let mut stack: Vec<String> = Vec::new();
    let mut root = None;
    let mut elements = 0;
    loop {
        match reader.read_event() {
            Ok(Event::Start(e)) => {
                let name = String::from_utf8(e.name().as_ref().to_vec()).unwrap();
                for attribute in e.attributes() {
                    let attribute = attribute.unwrap_or_else(|e| panic!("{what}: {e}"));
                    attribute
                        .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                        .unwrap_or_else(|e| panic!("{what}: {e}"));
                }
                root.get_or_insert(name.clone());
                stack.push(name);
                elements += 1;
            }
            Ok(Event::Empty(e)) => {
                assert!(root.is_some(), "{what}: content before the root");
                for attribute in e.attributes() {
                    let attribute = attribute.unwrap_or_else(|e| panic!("{what}: {e}"));
                    attribute
                        .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                        .unwrap_or_else(|e| panic!("{what}: {e}"));
                }
                elements += 1;
            }
            Ok(Event::End(e)) => {
                let name = String::from_utf8(e.name().as_ref().to_vec()).unwrap();
                assert_eq!(stack.pop().as_deref(), Some(name.as_str()), "{what}");
            }
            Ok(Event::Text(t)) => {
                t.decode().unwrap_or_else(|e| panic!("{what}: {e}"));
                let raw = String::from_utf8(t.to_vec()).unwrap();
                quick_xml::escape::unescape(&raw).unwrap_or_else(|e| panic!("{what}: {e}"));
                if stack.is_empty() {
                    assert!(raw.trim().is_empty(), "{what}: text outside the root");
                }
            }
            Ok(Event::GeneralRef(r)) => {
                let name = String::from_utf8(r.to_vec()).unwrap();
                assert!(
                    ["lt", "gt", "amp", "quot", "apos"].contains(&name.as_str())
                        || name.starts_with('#'),
                    "{what}: unknown entity &{name};"
                );
            }
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(e) => panic!("{what}: not XML at {}: {e}", reader.buffer_position()),
        }
    }
    assert!(stack.is_empty(), "{what}: unclosed {stack:?}");
    assert_eq!(root.as_deref(), Some("svg"), "{what}");
    assert!(elements >= 2, "{what}: {elements} elements");
}

/// The SVG charts of several runs (a job id needing escaping, with
/// operations and several actions; the corpus scenarios; the quick form of
/// a cron coordinator; a run without any action): what each is, and its
/// bytes.
fn svg_charts(dir: &Path) -> Vec<(String, Vec<u8>)> {
    // A job whose id needs escaping, with ops and several actions.
    std::fs::copy(
        root().join("corpus/simulate/fact30/coordinator.xml"),
        dir.join("coordinator.xml"),
    )
    .unwrap();
    let odd = write(
        dir,
        "odd.toml",
        r#"start = "2009-01-01T00:00Z"
until = "2009-01-01T08:00Z"

[[job]]
id = "a<b & \"c\" 'd' ]]> é"
app = "coordinator.xml"

[[data]]
job = "a<b & \"c\" 'd' ]]> é"
dataset = "logs"
from = "2009-01-01T00:00Z"
to = "2009-01-01T04:00Z"

[[op]]
at = "2009-01-01T02:30Z"
job = "a<b & \"c\" 'd' ]]> é"
do = "suspend"

[[op]]
at = "2009-01-01T03:30Z"
job = "a<b & \"c\" 'd' ]]> é"
do = "resume"
"#,
    )
    .display()
    .to_string();
    let mut inputs: Vec<(String, Vec<String>)> = vec![(
        odd.clone(),
        vec!["simulate".into(), odd, "--format".into(), "svg".into()],
    )];
    for s in [
        "fact30/scenario.toml",
        "fact40/scenario.toml",
        "spec-6.3/examples.toml",
        "spec-6.1/scenario.toml",
    ] {
        let path = root().join("corpus/simulate").join(s).display().to_string();
        inputs.push((
            s.into(),
            vec!["simulate".into(), path, "--format".into(), "svg".into()],
        ));
    }
    // The quick form of a cron coordinator; and a run with no action at all.
    let cron = root()
        .join("corpus/coord/spec-4.4.3-cron/coordinator.xml")
        .display()
        .to_string();
    inputs.push((
        "cron".into(),
        vec![
            "simulate".into(),
            cron.clone(),
            "--format".into(),
            "svg".into(),
        ],
    ));
    inputs.push((
        "cron-empty".into(),
        vec![
            "simulate".into(),
            cron,
            "--format".into(),
            "svg".into(),
            "--at".into(),
            "2000-01-01T00:00Z".into(),
        ],
    ));
    inputs
        .into_iter()
        .map(|(what, args)| {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let out = coordc(&args);
            common::expect_code(&out, 0, &what);
            (what, out.stdout)
        })
        .collect()
}

#[test]
fn svg_output_is_well_formed() {
    let dir = common::fresh_dir("simulate-svg");
    for (what, svg) in svg_charts(&dir) {
        let svg = String::from_utf8(svg).expect("UTF-8");
        assert_well_formed_svg(&svg, &what);
    }
}

#[test]
#[cfg_attr(
    missing_rsvg_convert,
    ignore = "skipped: no rsvg-convert here (Debian: apt-get install librsvg2-bin)"
)]
fn svg_output_renders_as_an_image() {
    let dir = common::fresh_dir("simulate-svg-render");
    for (k, (_, svg)) in svg_charts(&dir).iter().enumerate() {
        common::assert_svg_renders(svg, &dir, &format!("svg{k}"));
    }
}

// ---------------------------------------------------------------------------
// --explain.

/// Hourly, reading its hour's instance, never timing out; `concurrency`.
fn hourly_app(concurrency: i64) -> String {
    format!(
        r#"<coordinator-app name="hourly" frequency="${{coord:hours(1)}}"
                 start="2009-01-01T01:00Z" end="2009-01-01T08:00Z" timezone="UTC"
                 xmlns="uri:oozie:coordinator:0.4">
  <controls>
    <timeout>-1</timeout>
    <concurrency>{concurrency}</concurrency>
  </controls>
  <datasets>
    <dataset name="logs" frequency="${{coord:hours(1)}}" initial-instance="2009-01-01T00:00Z" timezone="UTC">
      <uri-template>hdfs://nn:8020/logs/${{YEAR}}/${{MONTH}}/${{DAY}}/${{HOUR}}</uri-template>
    </dataset>
  </datasets>
  <input-events>
    <data-in name="input" dataset="logs">
      <instance>${{coord:current(0)}}</instance>
    </data-in>
  </input-events>
  <action>
    <workflow>
      <app-path>hdfs://nn:8020/apps/wf</app-path>
    </workflow>
  </action>
</coordinator-app>
"#
    )
}

fn explain(scenario: &str, which: &str) -> Output {
    coordc(&["simulate", scenario, "--explain", which])
}

#[test]
fn explain_names_the_missing_path_of_a_waiting_action() {
    let dir = common::fresh_dir("simulate-explain-waiting");
    write(&dir, "coordinator.xml", hourly_app(1));
    // 01:00 and 02:00 arrive; 03:00 never does, 04:00 at 09:00.
    let s = write(
        &dir,
        "scenario.toml",
        r#"start = "2009-01-01T00:00Z"
until = "2009-01-01T06:00Z"

[[job]]
id = "h"
app = "coordinator.xml"

[[data]]
job = "h"
dataset = "logs"
from = "2009-01-01T01:00Z"
to = "2009-01-01T03:00Z"

[[data]]
uri = "hdfs://nn:8020/logs/2009/01/01/04"
at = "2009-01-01T09:00Z"
"#,
    )
    .display()
    .to_string();
    let out = explain(&s, "h@3");
    common::expect_code(&out, 0, "explain h@3");
    let said = common::stdout(&out);
    assert!(said.contains("is WAITING"), "{said}");
    assert!(
        said.contains("hdfs://nn:8020/logs/2009/01/01/03/_SUCCESS"),
        "{said}"
    );
    assert!(
        said.contains("nothing in the scenario makes it arrive"),
        "{said}"
    );
    // One whose data comes later says when.
    let out = explain(&s, "h@4");
    common::expect_code(&out, 0, "explain h@4");
    let said = common::stdout(&out);
    assert!(
        said.contains("hdfs://nn:8020/logs/2009/01/01/04/_SUCCESS"),
        "{said}"
    );
    assert!(said.contains("2009-01-01T09:00:00Z"), "{said}");
    // The JSON report agrees.
    let doc = json_of(&coordc(&["simulate", &s, "--format", "json"]), "json");
    let a3 = &doc["jobs"][0]["actions"][2];
    assert_eq!(a3["status"], "WAITING");
    assert_eq!(
        strings(&a3["missing"]),
        ["hdfs://nn:8020/logs/2009/01/01/03/_SUCCESS"]
    );
}

#[test]
fn explain_names_the_actions_holding_the_concurrency_slots() {
    let dir = common::fresh_dir("simulate-explain-ready");
    // Concurrency 2: @1 and @2 run for 5 hours, @3 and @4 wait READY.
    write(&dir, "coordinator.xml", hourly_app(2));
    let s = write(
        &dir,
        "scenario.toml",
        r#"start = "2009-01-01T00:00Z"
until = "2009-01-01T05:30Z"

[[job]]
id = "h"
app = "coordinator.xml"

[[data]]
job = "h"
dataset = "logs"
from = "2009-01-01T00:00Z"
to = "2009-01-01T08:00Z"

[workflows]
duration = "5h"
"#,
    )
    .display()
    .to_string();
    let doc = json_of(&coordc(&["simulate", &s, "--format", "json"]), "json");
    let statuses: Vec<&str> = doc["jobs"][0]["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| text(&a["status"]))
        .collect();
    assert_eq!(statuses[..4], ["RUNNING", "RUNNING", "READY", "READY"]);
    let out = explain(&s, "h@3");
    common::expect_code(&out, 0, "explain h@3");
    let said = common::stdout(&out);
    assert!(said.contains("is READY"), "{said}");
    assert!(said.contains("actions 1, 2"), "{said}");
    // FIFO: @4 also waits behind @3.
    let out = explain(&s, "h@4");
    let said = common::stdout(&out);
    assert!(said.contains("actions 1, 2"), "{said}");
    assert!(said.contains("1 READY action start before it"), "{said}");
}

#[test]
fn explain_of_an_unknown_action_is_a_usage_error() {
    let s = root()
        .join("corpus/simulate/fact30/scenario.toml")
        .display()
        .to_string();
    for which in [
        "fact30@99",
        "fact30@0",
        "nosuch@1",
        "fact30",
        "fact30@x",
        "@1",
        "",
    ] {
        let out = explain(&s, which);
        common::expect_code(&out, 2, &format!("--explain {which:?}"));
        let err = common::stderr(&out);
        assert!(err.contains("no such action"), "{which:?}: {err}");
        assert!(
            err.contains("fact30"),
            "{which:?}: the jobs are listed: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    let out = explain(&s, "fact30@3");
    common::expect_code(&out, 0, "fact30@3");
}

// ---------------------------------------------------------------------------
// --at.

/// Statuses of jobs and actions in a JSON report.
fn statuses(doc: &Value) -> Vec<(String, Option<u64>, String)> {
    let mut out = Vec::new();
    for job in doc["jobs"].as_array().unwrap() {
        let id = text(&job["id"]).to_string();
        out.push((id.clone(), None, text(&job["status"]).to_string()));
        for a in job["actions"].as_array().unwrap() {
            out.push((
                id.clone(),
                a["number"].as_u64(),
                text(&a["status"]).to_string(),
            ));
        }
    }
    out
}

/// `--at T` shows what a run with `until` just after T shows: for T on the
/// minute grid with no event in (T, T + 1 min), a run to T + 1 min; and at
/// every T, the events up to T replayed.
#[test]
fn at_shows_the_state_of_a_run_stopped_just_after() {
    let dir = common::fresh_dir("simulate-at");
    let mut scenarios: Vec<String> = [
        "fact30/scenario.toml",
        "fact31/scenario.toml",
        "fact40/scenario.toml",
        "spec-6.3/last-only-outage.toml",
        "spec-6.1/scenario.toml",
    ]
    .iter()
    .map(|s| root().join("corpus/simulate").join(s).display().to_string())
    .collect();
    // One with data arriving late, a timeout, a rerun and a concurrency change.
    write(&dir, "coordinator.xml", hourly_app(1));
    scenarios.push(
        write(
            &dir,
            "busy.toml",
            r#"start = "2009-01-01T00:00Z"
until = "2009-01-01T10:00Z"

[[job]]
id = "h"
app = "coordinator.xml"

[[data]]
job = "h"
dataset = "logs"
from = "2009-01-01T00:00Z"
to = "2009-01-01T08:00Z"
delay = "25m"
missing = ["2009-01-01T03:00Z"]

[workflows]
duration = "70m"

[[workflow]]
job = "h"
action = 2
status = "FAILED"

[[op]]
at = "2009-01-01T04:00Z"
job = "h"
do = "change"
value = "concurrency=3"

[[op]]
at = "2009-01-01T05:17Z"
job = "h"
do = "rerun"
actions = "2"
"#,
        )
        .display()
        .to_string(),
    );
    for s in &scenarios {
        let full = json_of(&coordc(&["simulate", s, "--format", "json"]), s);
        let events = coordc(&["simulate", s, "--format", "events"]);
        common::expect_code(&events, 0, s);
        let events: Vec<Value> = common::stdout(&events)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let times: Vec<DateTime<Utc>> = events.iter().map(|e| instant(text(&e["at"]))).collect();
        let first = times[0];
        let end = instant(text(&full["at"]));
        // Every 17 minutes through the scenario.
        let mut t = first + Duration::minutes(1);
        let mut compared_runs = 0;
        while t < end {
            let at = oozie(t);
            let shown = json_of(
                &coordc(&["simulate", s, "--format", "json", "--at", &at]),
                s,
            );
            assert_eq!(instant(text(&shown["at"])), t, "{s} --at {at}");
            // The events up to T, replayed.
            let mut replayed: BTreeMap<(String, Option<u64>), String> = BTreeMap::new();
            for (e, when) in events.iter().zip(&times) {
                if *when <= t {
                    replayed.insert(
                        (text(&e["job"]).to_string(), e["action"].as_u64()),
                        text(&e["to"]).to_string(),
                    );
                }
            }
            for (job, action, status) in statuses(&shown) {
                let key = (job.clone(), action);
                // (A job not submitted yet has no event.)
                if let Some(expected) = replayed.get(&key) {
                    assert_eq!(&status, expected, "{s} --at {at}: {job}@{action:?}");
                } else {
                    assert!(
                        action.is_none() && status == "PREP",
                        "{s} --at {at}: {job}@{action:?} {status} has no event"
                    );
                }
            }
            let quiet = !times
                .iter()
                .any(|w| *w > t && *w < t + Duration::minutes(1));
            if quiet {
                let stopped = write(
                    &dir,
                    "stopped.toml",
                    with_until(s, &oozie(t + Duration::minutes(1))),
                )
                .display()
                .to_string();
                let out = coordc(&["simulate", &stopped, "--format", "json"]);
                let stopped = json_of(&out, &format!("{s} until {at} + 1 min"));
                assert_eq!(
                    statuses(&shown),
                    statuses(&stopped),
                    "{s}: --at {at} and until {at} + 1 min"
                );
                compared_runs += 1;
            }
            t += Duration::minutes(17);
        }
        assert!(
            compared_runs > 3,
            "{s}: {compared_runs} stopped runs compared"
        );
    }
}

/// The scenario at `path` with its `until` replaced, and its apps named by
/// absolute paths (so that it can be written elsewhere).
fn with_until(path: &str, until: &str) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let dir = Path::new(path).parent().unwrap();
    let mut out = String::new();
    let mut replaced = false;
    for line in text.lines() {
        if !replaced && line.starts_with("until") {
            out.push_str(&format!("until = \"{until}\"\n"));
            replaced = true;
        } else if let Some(app) = line
            .strip_prefix("app = \"")
            .and_then(|l| l.strip_suffix('"'))
        {
            out.push_str(&format!("app = \"{}\"\n", dir.join(app).display()));
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    assert!(replaced, "{path} has no until");
    out
}

// ---------------------------------------------------------------------------
// Bad input.

/// A scenario in a fresh folder beside an hourly coordinator; what
/// simulating it prints on stderr, after checking it failed cleanly.
fn refused(name: &str, scenario: &str) -> (String, String) {
    let dir = common::fresh_dir(&format!("simulate-bad-{name}"));
    write(&dir, "coordinator.xml", hourly_app(1));
    write(&dir, "scenario.toml", scenario);
    let out = common::coordc_in(
        dir.display().to_string(),
        &["simulate", "scenario.toml", "--format", "json"],
    );
    let err = common::stderr(&out);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{name}: exit {:?}\n{err}",
        out.status.code()
    );
    assert!(!err.contains("panicked"), "{name}: {err}");
    assert!(out.stdout.is_empty(), "{name}: printed a report");
    (err, scenario.to_string())
}

/// The diagnostic names the scenario, the line of `needle`, and says `what`.
fn assert_points_at(err: &str, scenario: &str, needle: &str, what: &str) {
    let line = scenario
        .lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no {needle} in the scenario"))
        + 1;
    assert!(
        err.contains(&format!("scenario.toml:{line}:")),
        "expected scenario.toml:{line}: in\n{err}"
    );
    assert!(err.contains("error[SI001]"), "{err}");
    assert!(err.contains(what), "expected `{what}` in\n{err}");
}

const HEAD: &str = "start = \"2009-01-01T00:00Z\"\nuntil = \"2009-01-02T00:00Z\"\n\n[[job]]\nid = \"h\"\napp = \"coordinator.xml\"\n";

#[test]
fn an_unknown_key_is_refused_at_its_line() {
    let s = format!(
        "{HEAD}\n[[op]]\nat = \"2009-01-01T03:00Z\"\njob = \"h\"\ndo = \"suspend\"\nwhen = \"now\"\n"
    );
    let (err, s) = refused("unknown-key", &s);
    assert_points_at(&err, &s, "when =", "unknown field `when`");
    let s = format!("{HEAD}\n[server]\n\"oozie.service.coord.default.throttel\" = 3\n");
    let (err, s) = refused("unknown-setting", &s);
    assert_points_at(&err, &s, "throttel", "unknown field");
}

#[test]
fn a_bad_time_is_refused_at_its_line() {
    for (k, bad) in [
        "2009-02-30T00:00Z",
        "2009-01-01",
        "tomorrow",
        "2009-01-01T25:00Z",
    ]
    .iter()
    .enumerate()
    {
        let s = format!("{HEAD}\n[[op]]\nat = \"{bad}\"\njob = \"h\"\ndo = \"suspend\"\n");
        let (err, s) = refused(&format!("bad-time-{k}"), &s);
        assert_points_at(
            &err,
            &s,
            &format!("at = \"{bad}\""),
            "is not an Oozie datetime",
        );
    }
    let s = HEAD.replace("2009-01-02T00:00Z", "2009-01-02 00:00");
    let (err, s) = refused("bad-until", &s);
    assert_points_at(&err, &s, "until", "is not an Oozie datetime");
}

#[test]
fn an_op_on_an_unknown_job_is_refused_at_its_line() {
    let s =
        format!("{HEAD}\n[[op]]\nat = \"2009-01-01T03:00Z\"\njob = \"hourly\"\ndo = \"kill\"\n");
    let (err, s) = refused("unknown-job", &s);
    assert_points_at(&err, &s, "job = \"hourly\"", "no job `hourly`");
}

#[test]
fn an_outage_ending_before_it_starts_is_refused_at_its_line() {
    let s =
        format!("{HEAD}\n[[outage]]\nfrom = \"2009-01-01T05:00Z\"\nto = \"2009-01-01T04:00Z\"\n");
    let (err, s) = refused("outage", &s);
    assert_points_at(&err, &s, "to = ", "an outage must end after it starts");
    let s =
        format!("{HEAD}\n[[outage]]\nfrom = \"2009-01-01T05:00Z\"\nto = \"2009-01-01T05:00Z\"\n");
    let (err, s) = refused("outage-empty", &s);
    assert_points_at(&err, &s, "to = ", "an outage must end after it starts");
}

#[test]
fn until_in_year_9999_is_refused_at_its_line() {
    let s = HEAD.replace("2009-01-02T00:00Z", "9999-01-01T00:00Z");
    let (err, s) = refused("until-9999", &s);
    assert_points_at(&err, &s, "9999", "2999");
}

/// A 5-minute coordinator over 1,000 years.
const FIVE_MINUTES_FOR_1000_YEARS: &str = r#"<coordinator-app name="c5" frequency="${coord:minutes(5)}"
                 start="2009-01-01T00:00Z" end="2999-01-01T00:00Z" timezone="UTC"
                 xmlns="uri:oozie:coordinator:0.4">
  <datasets>
    <dataset name="d5" frequency="${coord:minutes(5)}" initial-instance="2009-01-01T00:00Z" timezone="UTC">
      <uri-template>hdfs://nn/d5/${YEAR}/${MONTH}/${DAY}/${HOUR}/${MINUTE}</uri-template>
    </dataset>
  </datasets>
  <input-events>
    <data-in name="in" dataset="d5"><instance>${coord:current(0)}</instance></data-in>
  </input-events>
  <action><workflow><app-path>hdfs://nn/wf</app-path></workflow></action>
</coordinator-app>
"#;

/// Wall-time bounds against a blow-up, not speed targets (the benchmarks
/// measure speed): a refusal that came after the work it should cut short
/// (10^8 actions) would take many minutes, and a run quadratic in its
/// actions hours, while a debug build under the load of `cargo test` on two
/// cores takes a few seconds; these leave room for any such load.
const REFUSAL_BOUND: std::time::Duration = std::time::Duration::from_secs(30);
const RUN_BOUND: std::time::Duration = std::time::Duration::from_secs(120);

#[test]
fn a_5_minute_coordinator_over_1000_years_fails_fast() {
    let dir = common::fresh_dir("simulate-1000-years");
    write(&dir, "c5.xml", FIVE_MINUTES_FOR_1000_YEARS);
    let s = "start = \"2009-01-01T00:00Z\"\nuntil = \"2999-01-01T00:00Z\"\n\n[[job]]\napp = \"c5.xml\"\n";
    write(&dir, "scenario.toml", s);
    let started = Instant::now();
    let out = common::coordc_in(dir.display().to_string(), &["simulate", "scenario.toml"]);
    let took = started.elapsed();
    let err = common::stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(took < REFUSAL_BOUND, "took {took:?}");
    assert_points_at(&err, s, "until", "actions before `until`");
    // The quick form, asked for the same.
    let started = Instant::now();
    let out = common::coordc_in(
        dir.display().to_string(),
        &["simulate", "c5.xml", "--until", "2999-01-01T00:00Z"],
    );
    let took = started.elapsed();
    let err = common::stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(took < REFUSAL_BOUND, "took {took:?}");
    assert!(err.contains("simulate a shorter window"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// The quick form's refusals point at what was asked, not at the first line
/// of the application: the `--until` bound is no line of it.
#[test]
fn quick_form_until_problems_name_the_until_argument() {
    let dir = common::fresh_dir("simulate-quick-until");
    write(&dir, "c5.xml", FIVE_MINUTES_FOR_1000_YEARS);
    let d = dir.display().to_string();
    let out = common::coordc_in(&d, &["simulate", "c5.xml", "--until", "2999-01-01T00:00Z"]);
    let err = common::stderr(&out);
    assert!(err.contains("--until"), "{err}");
    assert!(!err.contains("c5.xml:1:1"), "{err}");
    let out = common::coordc_in(&d, &["simulate", "c5.xml", "--until", "9999-01-01T00:00Z"]);
    let err = common::stderr(&out);
    assert!(err.contains("2999"), "{err}");
    // `until` before the job's start: the scenario form refuses it.
    let out = common::coordc_in(&d, &["simulate", "c5.xml", "--until", "2008-01-01T00:00Z"]);
    assert_ne!(out.status.code(), Some(0), "{}", common::stdout(&out));
}

#[test]
fn a_data_range_of_a_5_minute_dataset_over_1000_years_is_refused() {
    let dir = common::fresh_dir("simulate-1000-years-data");
    write(&dir, "c5.xml", FIVE_MINUTES_FOR_1000_YEARS);
    let s = "start = \"2009-01-01T00:00Z\"\nuntil = \"2009-01-02T00:00Z\"\n\n[[job]]\napp = \"c5.xml\"\n\n[[data]]\njob = \"c5\"\ndataset = \"d5\"\nfrom = \"2009-01-01T00:00Z\"\nto = \"2999-01-01T00:00Z\"\n";
    write(&dir, "scenario.toml", s);
    let started = Instant::now();
    let out = common::coordc_in(dir.display().to_string(), &["simulate", "scenario.toml"]);
    let took = started.elapsed();
    let err = common::stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(took < REFUSAL_BOUND, "took {took:?}");
    assert_points_at(&err, s, "from =", "instances of dataset `d5`");
}

#[test]
fn a_hundred_thousand_data_uris_run_in_bounded_time() {
    let dir = common::fresh_dir("simulate-many-uris");
    write(&dir, "c5.xml", FIVE_MINUTES_FOR_1000_YEARS);
    let mut s = String::from(
        "start = \"2009-01-01T00:00Z\"\nuntil = \"2009-01-03T00:00Z\"\n\n[[job]]\napp = \"c5.xml\"\n\n[workflows]\nduration = \"2m\"\n",
    );
    // 10^5 instances of d5, 5 minutes apart (347 days), each 3 minutes late,
    // but the one at 2009-01-01T06:00, which never comes.
    let origin = instant("2009-01-01T00:00Z");
    for k in 0..100_000i64 {
        let t = origin + Duration::minutes(5 * k);
        if t == instant("2009-01-01T06:00Z") {
            continue;
        }
        s.push_str(&format!(
            "\n[[data]]\nuri = \"hdfs://nn/d5/{}\"\nat = \"{}\"\n",
            t.format("%Y/%m/%d/%H/%M"),
            oozie(t + Duration::minutes(3))
        ));
    }
    write(&dir, "scenario.toml", &s);
    let started = Instant::now();
    let out = common::coordc_in(
        dir.display().to_string(),
        &["simulate", "scenario.toml", "--format", "json"],
    );
    let took = started.elapsed();
    let doc = json_of(&out, "10^5 uris");
    assert!(took < RUN_BOUND, "took {took:?}");
    let actions = doc["jobs"][0]["actions"].as_array().unwrap();
    // Two days of 5-minute actions, and the lookahead's.
    assert!(actions.len() >= 576, "{}", actions.len());
    for a in actions {
        let nominal = instant(text(&a["nominal_time"]));
        if nominal >= instant("2009-01-02T20:00Z") {
            continue;
        }
        let expected = if nominal == instant("2009-01-01T06:00Z") {
            // The default timeout: 120 min after the nominal time.
            "TIMEDOUT"
        } else {
            "SUCCEEDED"
        };
        assert_eq!(a["status"], expected, "{a:#}");
    }
    let six = actions
        .iter()
        .find(|a| a["nominal_time"] == "2009-01-01T06:00Z")
        .unwrap();
    assert_eq!(six["status"], "TIMEDOUT");
    // The others ran as their data came, 3 minutes after the nominal time
    // (concurrency 1, 2-minute workflows): @1, created at 00:00:00.100,
    // checked every minute from then, at 00:03:00.100; @2 from its nominal
    // time, at 00:08.
    let first = &actions[0];
    assert_eq!(first["workflow"]["started"], "2009-01-01T00:03:00.100Z");
    let second = &actions[1];
    assert_eq!(second["workflow"]["started"], "2009-01-01T00:08:00Z");
}

/// Every action change in `--format events` names its action, also for an
/// action a `-change` deleted afterwards (and did not create again).
#[test]
fn events_name_an_action_that_change_deleted() {
    let dir = common::fresh_dir("simulate-deleted-events");
    write(&dir, "coordinator.xml", hourly_app(1));
    // @3 (03:00) is WAITING when the end moves to 03:00: it is deleted.
    let s = write(
        &dir,
        "scenario.toml",
        r#"start = "2009-01-01T00:00Z"
until = "2009-01-01T06:00Z"

[[job]]
id = "h"
app = "coordinator.xml"

[[data]]
job = "h"
dataset = "logs"
from = "2009-01-01T01:00Z"
to = "2009-01-01T03:00Z"

[[op]]
at = "2009-01-01T03:30Z"
job = "h"
do = "change"
value = "endtime=2009-01-01T03:00Z"
"#,
    )
    .display()
    .to_string();
    let doc = json_of(&coordc(&["simulate", &s, "--format", "json"]), "json");
    let op = text(&doc["jobs"][0]["ops"][0]["op"]);
    assert!(op.contains("deleted actions 3"), "{op}");
    let out = coordc(&["simulate", &s, "--format", "events"]);
    common::expect_code(&out, 0, "events");
    let job_statuses = [
        "PREP",
        "RUNNING",
        "RUNNINGWITHERROR",
        "PREPSUSPENDED",
        "SUSPENDED",
        "SUSPENDEDWITHERROR",
        "PREPPAUSED",
        "PAUSED",
        "PAUSEDWITHERROR",
        "SUCCEEDED",
        "DONEWITHERROR",
        "KILLED",
        "FAILED",
        "IGNORED",
    ];
    let mut created = Vec::new();
    for line in common::stdout(&out).lines() {
        let e: Value = serde_json::from_str(line).unwrap();
        if e["action"].is_null() {
            assert!(
                job_statuses.contains(&text(&e["to"])) && e["why"] != "materialized",
                "an action change without its action: {line}"
            );
        } else if e["from"].is_null() {
            created.push(e["action"].as_u64().unwrap());
        }
    }
    assert_eq!(created, [1, 2, 3]);
}

/// A minutely cron coordinator over the quick form's default window (its 31
/// days and one more: 44,640 actions), one action at a time with 10-minute
/// workflows: READY actions pile up (40,032 at the end). With unlimited
/// concurrency the same run takes about a second in a debug build; one at a
/// time it takes minutes (13.8 s in a release build), as every ready-check
/// lists and orders all READY actions: quadratic in the backlog.
#[test]
fn a_growing_ready_backlog_runs_in_bounded_time() {
    let dir = common::fresh_dir("simulate-backlog");
    let app = write(
        &dir,
        "coordinator.xml",
        r#"<coordinator-app name="minutely" frequency="* * * * *" start="2017-01-01T00:00Z" end="2017-02-01T00:00Z"
                 timezone="UTC" xmlns="uri:oozie:coordinator:0.2">
  <controls><concurrency>1</concurrency></controls>
  <action><workflow><app-path>hdfs://nn/wf</app-path></workflow></action>
</coordinator-app>
"#,
    ).display().to_string();
    let started = Instant::now();
    let out = coordc(&["simulate", &app, "--format", "json"]);
    let took = started.elapsed();
    let doc = json_of(&out, "minutely");
    assert_eq!(doc["jobs"][0]["actions"].as_array().unwrap().len(), 44_640);
    assert!(took < RUN_BOUND, "took {took:?}");
}
