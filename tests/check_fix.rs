//! `coordc check --fix` (issue 22: the fixes an editor will offer, shared):
//! the certain edits applied and said, the rest reported, nothing edited
//! twice, and values written through EL left alone.

mod common;

use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn certain_fixes_are_applied_said_and_not_applied_twice() {
    let dir = common::fresh_dir("check-fix");
    for (code, name) in [
        ("TM004", "hour24.xml"),
        ("TM005", "zone.xml"),
        ("CR005", "cron.xml"),
    ] {
        std::fs::copy(
            root().join(format!("corpus/invalid/{code}/coordinator.xml")),
            dir.join(name),
        )
        .unwrap();
    }
    let before = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    let (hour24, zone, cron) = (before("hour24.xml"), before("zone.xml"), before("cron.xml"));
    let out = common::coordc(&["check", dir.to_str().unwrap(), "--fix"]);
    let err = common::stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let said: Vec<&str> = err.lines().filter(|l| l.starts_with("fixed ")).collect();
    assert_eq!(said.len(), 3, "{err}");
    let name = |n: &str| dir.join(n).display().to_string();
    assert!(
        said.contains(
            &format!("fixed {}:1:57 CR005: `1-5` -> `MON-FRI`", name("cron.xml")).as_str()
        ),
        "{err}"
    );
    assert!(
        said.contains(
            &format!(
                "fixed {}:2:25 TM004: `2023-12-31T24:00Z` -> `2024-01-01T00:00Z`",
                name("hour24.xml")
            )
            .as_str()
        ),
        "{err}"
    );
    assert!(
        said.contains(
            &format!(
                "fixed {}:2:78 TM005: `EST` -> `GMT-05:00`",
                name("zone.xml")
            )
            .as_str()
        ),
        "{err}"
    );
    assert!(
        err.ends_with("checked 3 files: 0 errors, 0 warnings, 0 notes\n"),
        "{err}"
    );
    // Exactly the values changed.
    assert_eq!(
        before("hour24.xml"),
        hour24.replace("2023-12-31T24:00Z", "2024-01-01T00:00Z")
    );
    assert_eq!(
        before("zone.xml"),
        zone.replace("timezone=\"EST\"", "timezone=\"GMT-05:00\"")
    );
    assert_eq!(before("cron.xml"), cron.replacen("1-5", "MON-FRI", 1));
    // Nothing left to fix.
    let again = common::coordc(&["check", dir.to_str().unwrap(), "--fix"]);
    assert!(
        !common::stderr(&again).contains("fixed "),
        "{}",
        common::stderr(&again)
    );
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
        serde_json::json!({"line": 2, "column": 78, "end_line": 2, "end_column": 81, "replacement": "GMT-05:00"})
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

/// An extension action without its namespace gets the one its schema
/// declares, and then (a second pass: the schema error stopped the EL
/// checks) misspelt functions their did-you-mean.
#[test]
fn a_missing_action_namespace_then_misspelt_functions() {
    let dir = common::fresh_dir("check-fix-workflow");
    let app = dir.join("workflow.xml");
    std::fs::write(
        &app,
        r#"<workflow-app name="w" xmlns="uri:oozie:workflow:0.5">
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
"#,
    )
    .unwrap();
    let out = common::coordc(&["check", app.to_str().unwrap(), "--fix"]);
    let err = common::stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let file = app.display().to_string();
    let said: Vec<&str> = err.lines().filter(|l| l.starts_with("fixed ")).collect();
    assert_eq!(
        said,
        [
            format!("fixed {file}:4:11 XML004: `` -> ` xmlns=\"uri:oozie:shell-action:0.3\"`"),
            format!("fixed {file}:14:24 EL002: `wf:lastErorNode` -> `wf:lastErrorNode`"),
            format!("fixed {file}:18:29 EL002: `wf:errorMesage` -> `wf:errorMessage`"),
        ]
    );
    let text = std::fs::read_to_string(&app).unwrap();
    assert!(text.contains(r#"<shell xmlns="uri:oozie:shell-action:0.3">"#));
    assert!(text.contains("${wf:lastErrorNode() eq ''}"));
    assert!(text.contains("${wf:errorMessage(wf:lastErrorNode())}"));
}

/// SARIF carries the same edit as a result's `fixes` (SARIF 2.1.0 §3.55),
/// which code-scanning tools offer to apply.
#[test]
fn sarif_results_carry_the_fix() {
    let zone = root().join("corpus/invalid/TM005/coordinator.xml");
    let out = common::coordc(&["check", zone.to_str().unwrap(), "--format", "sarif"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let fix = &doc["runs"][0]["results"][0]["fixes"][0];
    let replacement = &fix["artifactChanges"][0]["replacements"][0];
    assert_eq!(
        replacement["deletedRegion"],
        serde_json::json!({"startLine": 2, "startColumn": 78, "endLine": 2, "endColumn": 81})
    );
    assert_eq!(replacement["insertedContent"]["text"], "GMT-05:00");
}
