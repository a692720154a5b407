//! `coordc check --fix`, `--unsafe-fixes` and `--diff`: each kind of fix
//! (`coordc::diag::fixes::FixKind`) applied by the flag its safety asks
//! for, said, and gone from the check that follows; the safe ones shown to
//! keep what Oozie runs; nothing edited twice, values written through EL
//! left alone, and `--diff` writing nothing.

use crate::common;
use crate::common::{folder, root};

use coordc::diag::fixes::FixKind;
use std::path::Path;

fn corpus(path: &str) -> String {
    std::fs::read_to_string(root().join("corpus").join(path)).unwrap()
}

/// One kind of fix at work: the files of an application that has it, the
/// safety it must have, and the edit `--fix` says it makes (`FILE:LINE:COL
/// CODE: `OLD` -> `NEW``, the file as `./NAME`).
struct Example {
    kind: &'static str,
    safety: &'static str,
    files: Vec<(&'static str, String)>,
    said: &'static [&'static str],
}

/// A workflow with one shell action and a kill node, `body` as its
/// action's content and `to` where its `<ok>` goes.
fn shell_workflow(shell: &str, to: &str, message: &str) -> String {
    format!(
        r#"<workflow-app name="w" xmlns="uri:oozie:workflow:0.5">
  <start to="s"/>
  <action name="s">
    {shell}
      <job-tracker>jt</job-tracker>
      <name-node>nn</name-node>
      <exec>run.sh</exec>
    </shell>
    <ok to="{to}"/>
    <error to="k"/>
  </action>
  <kill name="k"><message>{message}</message></kill>
  <end name="end"/>
</workflow-app>
"#
    )
}

fn examples() -> Vec<Example> {
    let shell = r#"<shell xmlns="uri:oozie:shell-action:0.3">"#;
    vec![
        Example {
            kind: "legacy-zone-id",
            safety: "safe",
            files: vec![("app.xml", corpus("invalid/TM005/coordinator.xml"))],
            said: &["./app.xml:2:78 TM005: `EST` -> `GMT-05:00`"],
        },
        Example {
            kind: "hour-24",
            safety: "safe",
            files: vec![("app.xml", corpus("invalid/TM004/coordinator.xml"))],
            said: &["./app.xml:2:25 TM004: `2023-12-31T24:00Z` -> `2024-01-01T00:00Z`"],
        },
        Example {
            kind: "cron-unix-day-names",
            safety: "unsafe",
            files: vec![("app.xml", corpus("invalid/CR005/coordinator.xml"))],
            said: &["./app.xml:1:57 CR005: `1-5` -> `MON-FRI`"],
        },
        Example {
            kind: "action-namespace",
            safety: "unsafe",
            files: vec![("workflow.xml", shell_workflow("<shell>", "end", "failed"))],
            said: &["./workflow.xml:4:11 XML004: `` -> ` xmlns=\"uri:oozie:shell-action:0.3\"`"],
        },
        Example {
            kind: "function-prefix",
            safety: "unsafe",
            files: vec![(
                "workflow.xml",
                shell_workflow(shell, "end", "${errorMessage(wf:lastErrorNode())}"),
            )],
            said: &["./workflow.xml:12:29 EL002: `errorMessage` -> `wf:errorMessage`"],
        },
        Example {
            kind: "function-did-you-mean",
            safety: "unsafe",
            files: vec![(
                "workflow.xml",
                shell_workflow(shell, "end", "${wf:errorMesage(wf:lastErrorNode())}"),
            )],
            said: &["./workflow.xml:12:29 EL002: `wf:errorMesage` -> `wf:errorMessage`"],
        },
        Example {
            kind: "variable-did-you-mean",
            safety: "unsafe",
            files: vec![
                (
                    "workflow.xml",
                    shell_workflow(shell, "end", "${wf:id()} failed at ${nodeNme}"),
                ),
                ("job.properties", "nodeName=s\n".to_string()),
            ],
            said: &["./workflow.xml:12:50 EL005: `nodeNme` -> `nodeName`"],
        },
        Example {
            kind: "dataset-did-you-mean",
            safety: "unsafe",
            files: vec![("app.xml", corpus("invalid/CO001/coordinator.xml"))],
            said: &["./app.xml:10:36 CO001: `log` -> `logs`"],
        },
        Example {
            kind: "data-in-did-you-mean",
            safety: "unsafe",
            files: vec![(
                "app.xml",
                corpus("invalid/CO007/coordinator.xml").replace(
                    "<or>\n      <data-in dataset=\"input\"/>\n      <data-in dataset=\"backup\"/>\n    </or>",
                    "<data-in dataset=\"inptu\"/>",
                ),
            )],
            said: &["./app.xml:16:23 CO007: `inptu` -> `input`"],
        },
        Example {
            kind: "unused-suppression",
            safety: "safe",
            files: vec![("app.xml", corpus("invalid/SU002/coordinator.xml"))],
            said: &["./app.xml:4:3 SU002: `<!-- coordc: ignore TM005 -->` -> ``"],
        },
        Example {
            kind: "transition-did-you-mean",
            safety: "unsafe",
            files: vec![("workflow.xml", shell_workflow(shell, "endd", "failed"))],
            said: &["./workflow.xml:9:13 WF004: `endd` -> `end`"],
        },
        Example {
            kind: "server-schema-version",
            safety: "safe",
            files: vec![
                ("coordc.toml", corpus("invalid/SV001/coordc.toml")),
                ("workflow.xml", corpus("invalid/SV001/workflow.xml")),
                ("job.properties", corpus("invalid/SV001/job.properties")),
            ],
            said: &["./workflow.xml:1:45 SV001: `uri:oozie:workflow:1.0` -> `uri:oozie:workflow:0.5`"],
        },
    ]
}

/// The texts of the folder's files, by name.
fn texts(dir: &Path, files: &[(&str, String)]) -> Vec<String> {
    files
        .iter()
        .map(|(file, _)| std::fs::read_to_string(dir.join(file)).unwrap())
        .collect()
}

/// `coordc check . ARGS` in `dir`.
fn check_in(dir: &Path, args: &[&str]) -> std::process::Output {
    let mut all = vec!["check", "."];
    all.extend_from_slice(args);
    common::coordc_in(dir.to_str().unwrap(), &all)
}

/// The JSON report's diagnostics of `dir`.
fn diagnostics(dir: &Path) -> Vec<serde_json::Value> {
    let out = check_in(dir, &["--format", "json"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", common::stdout(&out)));
    doc["diagnostics"].as_array().unwrap().clone()
}

/// The edits a run said it made.
fn said(out: &std::process::Output) -> Vec<String> {
    common::stderr(out)
        .lines()
        .filter_map(|l| l.strip_prefix("fixed ").map(str::to_string))
        .collect()
}

/// Each kind of fix has the safety its example says; `--fix` applies it only
/// if it is safe, `--fix --unsafe-fixes` always; and then the check reports
/// no more problems of its code.
#[test]
fn each_fix_is_applied_by_the_flags_its_safety_allows() {
    for example in examples() {
        let kind = example.kind;
        let dir = folder(&format!("fix-{kind}"), &example.files);
        let before = texts(&dir, &example.files);
        let found = diagnostics(&dir);
        let with_fix: Vec<&serde_json::Value> =
            found.iter().filter(|d| d["fix"]["kind"] == kind).collect();
        assert!(!with_fix.is_empty(), "{kind}: no such fix in {found:#?}");
        let code = with_fix[0]["code"].as_str().unwrap().to_string();
        for d in &with_fix {
            assert_eq!(d["fix"]["applicability"], example.safety, "{kind}: {d:#}");
        }

        let out = check_in(&dir, &["--fix"]);
        if example.safety == "safe" {
            assert_eq!(said(&out), example.said, "{kind}: {}", common::stderr(&out));
        } else {
            assert!(said(&out).is_empty(), "{kind}: {}", common::stderr(&out));
            assert_eq!(texts(&dir, &example.files), before, "{kind}: --fix edited");
            let hint = format!(
                "{} hidden fix{} can be enabled with the `--unsafe-fixes` option",
                example.said.len(),
                if example.said.len() == 1 { "" } else { "es" }
            );
            assert!(
                common::stderr(&out).contains(&hint),
                "{kind}: {}",
                common::stderr(&out)
            );
            let out = check_in(&dir, &["--fix", "--unsafe-fixes"]);
            assert_eq!(said(&out), example.said, "{kind}: {}", common::stderr(&out));
        }
        assert_ne!(
            texts(&dir, &example.files),
            before,
            "{kind}: nothing edited"
        );
        let left: Vec<serde_json::Value> = diagnostics(&dir)
            .into_iter()
            .filter(|d| d["code"] == code.as_str())
            .collect();
        assert!(left.is_empty(), "{kind}: {code} left: {left:#?}");
    }
}

/// A kind of fix added to the table gets an example here.
#[test]
fn every_kind_of_fix_has_an_example() {
    let examples = examples();
    for kind in FixKind::ALL {
        assert!(
            examples.iter().any(|e| e.kind == kind.name()),
            "no example of {}",
            kind.name()
        );
    }
    assert_eq!(examples.len(), FixKind::ALL.len());
}

/// `--fix` applies the safe fixes of several files at once, says each, and
/// a second run has nothing left to apply; the unsafe one is left and
/// counted.
#[test]
fn safe_fixes_are_applied_said_and_not_applied_twice() {
    let files = [
        ("hour24.xml", corpus("invalid/TM004/coordinator.xml")),
        ("zone.xml", corpus("invalid/TM005/coordinator.xml")),
        ("cron.xml", corpus("invalid/CR005/coordinator.xml")),
    ];
    let dir = folder("check-fix", &files);
    let out = check_in(&dir, &["--fix"]);
    let err = common::stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(
        said(&out),
        [
            "./hour24.xml:2:25 TM004: `2023-12-31T24:00Z` -> `2024-01-01T00:00Z`",
            "./zone.xml:2:78 TM005: `EST` -> `GMT-05:00`",
        ],
        "{err}"
    );
    assert!(
        err.ends_with(
            "no fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option)\nchecked 3 files: 0 errors, 1 warning, 0 notes\n"
        ),
        "{err}"
    );
    // Exactly the values changed.
    let now = texts(&dir, &files);
    assert_eq!(
        now[0],
        files[0].1.replace("2023-12-31T24:00Z", "2024-01-01T00:00Z")
    );
    assert_eq!(
        now[1],
        files[1]
            .1
            .replace("timezone=\"EST\"", "timezone=\"GMT-05:00\"")
    );
    assert_eq!(now[2], files[2].1);
    // Nothing left to fix.
    let again = check_in(&dir, &["--fix"]);
    assert!(said(&again).is_empty(), "{}", common::stderr(&again));
    assert_eq!(texts(&dir, &files), now);
}

/// The human report marks each problem that has a fix, `[*]` safe and
/// `[-]` unsafe, and ends with how many `--fix` would apply.
#[test]
fn the_human_report_marks_fixes_by_safety() {
    let files = [
        ("zone.xml", corpus("invalid/TM005/coordinator.xml")),
        ("cron.xml", corpus("invalid/CR005/coordinator.xml")),
    ];
    let dir = folder("check-fix-marks", &files);
    let out = check_in(&dir, &[]);
    let text = common::stdout(&out);
    assert!(
        text.contains("= [*] safe fix: replace `EST` with `GMT-05:00` (`--fix` applies it)"),
        "{text}"
    );
    assert!(
        text.contains(
            "= [-] unsafe fix, it changes the days the job runs on: replace `1-5` with `MON-FRI` (only `--unsafe-fixes` applies it)"
        ),
        "{text}"
    );
    let err = common::stderr(&out);
    assert!(
        err.contains("[*] 1 fixable with the `--fix` option (1 hidden fix can be enabled with the `--unsafe-fixes` option)\n"),
        "{err}"
    );
    // With --unsafe-fixes, both count as fixable.
    let out = check_in(&dir, &["--unsafe-fixes"]);
    assert!(
        common::stderr(&out).contains("[*] 2 fixable with the `--fix` option\n"),
        "{}",
        common::stderr(&out)
    );
    assert_eq!(
        texts(&dir, &files),
        [files[0].1.clone(), files[1].1.clone()]
    );
}

/// `--diff` prints what `--fix` (and with `--unsafe-fixes`, what that) would
/// change, writes nothing, and exits 1; with nothing to fix, 0.
#[test]
fn the_diff_shows_what_the_fixes_would_change_and_writes_nothing() {
    let files = [
        ("hour24.xml", corpus("invalid/TM004/coordinator.xml")),
        ("zone.xml", corpus("invalid/TM005/coordinator.xml")),
        ("cron.xml", corpus("invalid/CR005/coordinator.xml")),
    ];
    let dir = folder("check-fix-diff", &files);
    let before = texts(&dir, &files);
    let out = check_in(&dir, &["--diff"]);
    assert_eq!(out.status.code(), Some(1), "{}", common::stderr(&out));
    insta::assert_snapshot!("diff_safe", common::stdout(&out));
    assert_eq!(
        common::stderr(&out),
        "would fix 2 problems in 2 files; no fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option)\n"
    );
    assert_eq!(texts(&dir, &files), before);

    let out = check_in(&dir, &["--diff", "--unsafe-fixes"]);
    assert_eq!(out.status.code(), Some(1), "{}", common::stderr(&out));
    insta::assert_snapshot!("diff_unsafe", common::stdout(&out));
    assert_eq!(common::stderr(&out), "would fix 3 problems in 3 files\n");
    // (--fix with --diff writes nothing either.)
    let out = check_in(&dir, &["--fix", "--diff"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(texts(&dir, &files), before);

    // What --diff showed is what --fix writes.
    let fixed = check_in(&dir, &["--fix", "--unsafe-fixes"]);
    assert_eq!(fixed.status.code(), Some(0), "{}", common::stderr(&fixed));
    let out = check_in(&dir, &["--diff", "--unsafe-fixes"]);
    assert_eq!(out.status.code(), Some(0), "{}", common::stderr(&out));
    assert_eq!(common::stdout(&out), "");
    assert_eq!(common::stderr(&out), "would fix 0 problems in 0 files\n");
}

/// An extension action without its namespace gets the one its schema
/// declares, and then (a second pass: the schema error stopped the EL
/// checks) misspelt functions their did-you-mean; `--diff` shows both
/// passes' edits at once.
#[test]
fn a_missing_action_namespace_then_misspelt_functions() {
    let text = r#"<workflow-app name="w" xmlns="uri:oozie:workflow:0.5">
  <start to="s"/>
  <action name="s">
    <shell>
      <job-tracker>jt</job-tracker>
      <name-node>nn</name-node>
      <exec>run.sh</exec>
    </shell>
    <ok to="d"/>
    <error to="k"/>
  </action>
  <decision name="d">
    <switch>
      <case to="end">${wf:lastErorNode() eq ''}</case>
      <default to="k"/>
    </switch>
  </decision>
  <kill name="k"><message>${wf:errorMesage(wf:lastErrorNode())}</message></kill>
  <end name="end"/>
</workflow-app>
"#;
    let files = [("workflow.xml", text.to_string())];
    let dir = folder("check-fix-workflow", &files);
    let diff = check_in(&dir, &["--diff", "--unsafe-fixes"]);
    insta::assert_snapshot!("diff_two_passes", common::stdout(&diff));
    assert_eq!(texts(&dir, &files), [text]);
    let out = check_in(&dir, &["--fix", "--unsafe-fixes"]);
    let err = common::stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(
        said(&out),
        [
            "./workflow.xml:4:11 XML004: `` -> ` xmlns=\"uri:oozie:shell-action:0.3\"`",
            "./workflow.xml:14:24 EL002: `wf:lastErorNode` -> `wf:lastErrorNode`",
            "./workflow.xml:18:29 EL002: `wf:errorMesage` -> `wf:errorMessage`",
        ]
    );
    let fixed = &texts(&dir, &files)[0];
    assert!(fixed.contains(r#"<shell xmlns="uri:oozie:shell-action:0.3">"#));
    assert!(fixed.contains("${wf:lastErrorNode() eq ''}"));
    assert!(fixed.contains("${wf:errorMessage(wf:lastErrorNode())}"));
}

/// `coordc dryrun --format json` of `text` (written as `app.xml` in `dir`):
/// every action's nominal time, inputs and resolved configuration.
fn dryrun(dir: &Path, text: &str) -> String {
    let app = dir.join("app.xml");
    std::fs::write(&app, text).unwrap();
    let out = common::coordc(&["dryrun", app.to_str().unwrap(), "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", common::stderr(&out));
    common::stdout(&out)
}

/// A safe fix is a promise: the job as `coordc dryrun` materializes it
/// (nominal times, the dataset instances read, `coord:hoursInDay`) is the
/// same after `--fix` as before, across a DST switch of the job's zone
/// (`PST`: the nominal time moves from 00:00Z to 23:00Z) with a dataset in
/// a fixed one (`EST`), and for `24:00`. The unsafe cron fix, by contrast,
/// changes the days the job runs on.
#[test]
fn safe_fixes_keep_what_the_job_runs_and_the_unsafe_one_does_not() {
    let zones = r#"<coordinator-app name="z" frequency="${coord:days(1)}"
                 start="2024-03-05T24:00Z" end="2024-03-15T08:00Z" timezone="PST"
                 xmlns="uri:oozie:coordinator:0.4">
  <datasets>
    <dataset name="logs" frequency="${coord:hours(1)}" initial-instance="2024-01-01T00:00Z" timezone="EST">
      <uri-template>hdfs://nn:8020/logs/${YEAR}/${MONTH}/${DAY}/${HOUR}</uri-template>
    </dataset>
  </datasets>
  <input-events>
    <data-in name="input" dataset="logs">
      <start-instance>${coord:current(-(coord:hoursInDay(0) - 1))}</start-instance>
      <end-instance>${coord:current(0)}</end-instance>
    </data-in>
  </input-events>
  <action>
    <workflow>
      <app-path>hdfs://nn:8020/apps/z</app-path>
      <configuration>
        <property><name>input</name><value>${coord:dataIn('input')}</value></property>
      </configuration>
    </workflow>
  </action>
</coordinator-app>
"#;
    let dir = common::fresh_dir("check-fix-dryrun");
    let before = dryrun(&dir, zones);
    let out = common::coordc(&["check", dir.join("app.xml").to_str().unwrap(), "--fix"]);
    let codes: Vec<String> = said(&out)
        .iter()
        .map(|l| {
            l.split(' ')
                .nth(1)
                .unwrap_or("")
                .trim_end_matches(':')
                .to_string()
        })
        .collect();
    assert_eq!(
        codes,
        ["TM004", "TM005", "TM005"],
        "{}",
        common::stderr(&out)
    );
    let fixed = std::fs::read_to_string(dir.join("app.xml")).unwrap();
    assert!(fixed.contains(r#"start="2024-03-06T00:00Z""#), "{fixed}");
    assert!(
        fixed.contains(r#"timezone="America/Los_Angeles""#),
        "{fixed}"
    );
    assert!(fixed.contains(r#"timezone="GMT-05:00""#), "{fixed}");
    assert!(
        before.contains("\"nominal_time\":\"2024-03-10T23:00Z\""),
        "{before}"
    );
    assert_eq!(dryrun(&dir, &fixed), before);

    let cron = corpus("invalid/CR005/coordinator.xml");
    let before = dryrun(&dir, &cron);
    let out = common::coordc(&[
        "check",
        dir.join("app.xml").to_str().unwrap(),
        "--fix",
        "--unsafe-fixes",
    ]);
    assert_eq!(said(&out).len(), 1, "{}", common::stderr(&out));
    let fixed = std::fs::read_to_string(dir.join("app.xml")).unwrap();
    // 2024-01-07 is a Sunday: Quartz's `1-5` runs on it, `MON-FRI` does not.
    assert!(before.contains("2024-01-07T06:00Z"), "{before}");
    assert!(!dryrun(&dir, &fixed).contains("2024-01-07T06:00Z"));
}

/// The JDK reads each legacy ID with the same rules as the ID its fix
/// writes (`TimeZone.hasSameRules`), and gives both IDs back unchanged (so
/// Oozie accepts both, DateUtils.getTimeZone). Needs `java` (11+, which runs
/// a source file).
#[test]
#[cfg_attr(
    missing_java,
    ignore = "skipped: no java here (install a JDK 11+, e.g. Debian's default-jdk-headless, or set COORDC_JAVA)"
)]
fn the_jdk_reads_each_legacy_zone_as_its_fix() {
    use coordc::time::zone::{JAVA_SHORT_IDS, Zone};
    let java = std::env::var("COORDC_JAVA").unwrap_or_else(|_| "java".to_string());
    let dir = common::fresh_dir("check-fix-jdk");
    let source = dir.join("SameRules.java");
    std::fs::write(
        &source,
        r#"import java.util.TimeZone;
public class SameRules {
    public static void main(String[] pairs) {
        for (String pair : pairs) {
            String[] ids = pair.split("=");
            TimeZone legacy = TimeZone.getTimeZone(ids[0]);
            TimeZone canonical = TimeZone.getTimeZone(ids[1]);
            System.out.println(pair + " " + legacy.getID().equals(ids[0]) + " "
                + canonical.getID().equals(ids[1]) + " " + legacy.hasSameRules(canonical));
        }
    }
}
"#,
    )
    .unwrap();
    let pairs: Vec<String> = JAVA_SHORT_IDS
        .iter()
        .map(|(id, _)| *id)
        .chain(["EST", "MST", "HST"])
        .map(|id| {
            let canonical = Zone::parse(id).unwrap().canonical_id().unwrap();
            format!("{id}={canonical}")
        })
        .collect();
    let out = std::process::Command::new(&java)
        .arg(&source)
        .args(&pairs)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::stderr(&out));
    let answers = common::stdout(&out);
    let lines: Vec<&str> = answers.lines().collect();
    assert_eq!(lines.len(), pairs.len(), "{answers}");
    for (line, pair) in lines.iter().zip(&pairs) {
        assert_eq!(*line, format!("{pair} true true true"));
    }
}

#[test]
fn the_json_report_carries_the_fix_and_el_values_are_left_alone() {
    let zone = root().join("corpus/invalid/TM005/coordinator.xml");
    let out = common::coordc(&["check", zone.to_str().unwrap(), "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let d = &doc["diagnostics"][0];
    assert_eq!(d["code"], "TM005");
    assert_eq!(
        d["fix"],
        serde_json::json!({"line": 2, "column": 78, "end_line": 2, "end_column": 81,
            "replacement": "GMT-05:00", "applicability": "safe", "kind": "legacy-zone-id"})
    );
    // A zone that comes from the job's configuration: warned, not edited.
    let dir = common::fresh_dir("check-fix-el");
    let text = std::fs::read_to_string(&zone)
        .unwrap()
        .replace("timezone=\"EST\"", "timezone=\"${tz}\"");
    let app = dir.join("coordinator.xml");
    std::fs::write(&app, &text).unwrap();
    let out = common::coordc(&["check", app.to_str().unwrap(), "-D", "tz=PST", "--fix"]);
    let err = common::stderr(&out);
    assert!(!err.contains("fixed "), "{err}");
    assert!(
        common::stdout(&out).contains("TM005"),
        "{}",
        common::stdout(&out)
    );
    assert_eq!(std::fs::read_to_string(&app).unwrap(), text);
}

/// SARIF carries the same edit as a result's `fixes` (SARIF 2.1.0 §3.55),
/// which code-scanning tools offer to apply, its safety in its description.
#[test]
fn sarif_results_carry_the_fix() {
    let zone = root().join("corpus/invalid/TM005/coordinator.xml");
    let out = common::coordc(&["check", zone.to_str().unwrap(), "--format", "sarif"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let fix = &doc["runs"][0]["results"][0]["fixes"][0];
    assert_eq!(fix["description"]["text"], "write `GMT-05:00` (safe fix)");
    let replacement = &fix["artifactChanges"][0]["replacements"][0];
    assert_eq!(
        replacement["deletedRegion"],
        serde_json::json!({"startLine": 2, "startColumn": 78, "endLine": 2, "endColumn": 81})
    );
    assert_eq!(replacement["insertedContent"]["text"], "GMT-05:00");
}

/// docs/check.md lists every kind of fix, with its code and safety, as the
/// `--fix` help does (both from `FixKind`'s table).
#[test]
fn the_docs_and_the_help_list_every_fix_with_its_safety() {
    let docs = std::fs::read_to_string(root().join("docs/check.md")).unwrap();
    let help = common::stdout(&common::coordc(&["check", "--help"]));
    for kind in FixKind::ALL {
        let row = format!(
            "| `{}` | {} | {} |",
            kind.name(),
            kind.code(),
            kind.safety().name()
        );
        assert!(docs.contains(&row), "docs/check.md has no row {row}");
        let line = format!(
            "- {} {} ({}): ",
            kind.code(),
            kind.name(),
            kind.safety().name()
        );
        assert!(help.contains(&line), "check --help has no {line}");
    }
}
