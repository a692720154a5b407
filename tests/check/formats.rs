//! `coordc check`'s output formats on one small check with problems of every
//! severity, one of them with a place in another file (PL003), and a clean
//! file: each format's snapshot, and each validated against the schema its
//! consumers publish (JUnit: Jenkins' xUnit XSD; Checkstyle: Checkstyle's
//! report XSD, both with xmllint; GitLab: GitLab's own Code Quality schema;
//! SARIF: OASIS's 2.1.0 schema). Colour: escapes with `--color always`,
//! none when piped or with NO_COLOR.

use crate::common;

use common::{expect_code, root, stdout};
use std::process::Command;

/// The check every format writes: a PL003 whose producer is in another
/// file, two EL002 errors with a PL002 note, a TM005 warning, and a
/// workflow with no problem.
const FIXTURE: [&str; 4] = [
    "corpus/invalid/PL003",
    "corpus/invalid/EL002",
    "corpus/invalid/TM005",
    "corpus/wf/oozie-action-data-decision.xml",
];

/// `coordc check FIXTURE --format FORMAT` from the repository's root (paths
/// relative): its stdout.
fn check_raw(format: &str) -> String {
    let mut args = vec!["check"];
    args.extend(FIXTURE);
    args.extend(["--format", format]);
    let out = common::coordc_in(root(), &args);
    expect_code(&out, 1, format);
    stdout(&out)
}

/// [`check_raw`], with coordc's repository and version written
/// `[repository]` and `[version]` (rule URLs hold them), for snapshots.
fn check(format: &str) -> String {
    redact(&check_raw(format))
}

fn redact(text: &str) -> String {
    text.replace(coordc::diag::rules::repository(), "[repository]")
        .replace(env!("CARGO_PKG_VERSION"), "[version]")
}

/// Whether xmllint finds the XML `document` valid against the XSD
/// `schema`: `Err` with what it says when not. (The tests that call it
/// are ignored, saying why, where build.rs found no xmllint.)
fn xmllint(schema: &str, document: &str, name: &str) -> Result<(), String> {
    let dir = common::fresh_dir(&format!("formats-{name}"));
    let file = dir.join(format!("{name}.xml"));
    std::fs::write(&file, document).unwrap();
    let out = Command::new("xmllint")
        .args(["--noout", "--schema"])
        .arg(format!("{}/tests/data/{schema}", root().display()))
        .arg(&file)
        .output()
        .expect("xmllint runs (Debian: apt-get install libxml2-utils)");
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

#[test]
fn concise_is_one_line_a_problem() {
    let out = check("concise");
    assert_eq!(out.lines().count(), 5, "{out}");
    insta::assert_snapshot!("concise", out);
}

#[test]
fn json_has_the_rules_name_url_and_related_places() {
    let out = check("json");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let pl003 = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "PL003")
        .unwrap();
    assert_eq!(pl003["name"], "pipeline-misaligned");
    assert!(
        pl003["url"]
            .as_str()
            .unwrap()
            .ends_with("/blob/v[version]/docs/rules/PL003.md"),
        "{pl003:#}"
    );
    assert_eq!(
        pl003["related"][0]["file"],
        "corpus/invalid/PL003/clean.xml"
    );
    insta::assert_json_snapshot!("json", doc);
}

#[test]
fn junit_report() {
    insta::assert_snapshot!("junit", check("junit"));
}

#[test]
#[cfg_attr(
    missing_xmllint,
    ignore = "skipped: no xmllint here (Debian: apt-get install libxml2-utils)"
)]
fn junit_is_valid_against_jenkins_schema() {
    let out = check("junit");
    assert_eq!(xmllint("junit-10.xsd", &out, "junit"), Ok(()), "{out}");
    // The schema is what is checked: a report without a suite's name fails.
    let broken = out.replacen("<testsuite name=", "<testsuite title=", 1);
    assert!(xmllint("junit-10.xsd", &broken, "junit-broken").is_err());
}

#[test]
fn checkstyle_report() {
    insta::assert_snapshot!("checkstyle", check("checkstyle"));
}

#[test]
#[cfg_attr(
    missing_xmllint,
    ignore = "skipped: no xmllint here (Debian: apt-get install libxml2-utils)"
)]
fn checkstyle_is_valid_against_checkstyles_schema() {
    let out = check("checkstyle");
    assert_eq!(
        xmllint("checkstyle-report-1.0.0.xsd", &out, "checkstyle"),
        Ok(()),
        "{out}"
    );
}

#[test]
fn gitlab_is_valid_code_quality_with_stable_fingerprints() {
    let out = check("gitlab");
    let issues: serde_json::Value = serde_json::from_str(&out).unwrap();
    let schema: serde_json::Value =
        serde_json::from_str(include_str!("../data/gitlab-codeclimate.schema.json")).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("GitLab's schema compiles");
    let issues = issues.as_array().unwrap();
    assert_eq!(issues.len(), 5);
    let mut fingerprints = std::collections::BTreeSet::new();
    for issue in issues {
        let errors: Vec<String> = validator
            .iter_errors(issue)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{errors:#?}\n{issue:#}");
        // What GitLab's documentation asks beyond its schema: one of its
        // severities, a path, a line, a fingerprint of its own.
        let severity = issue["severity"].as_str().unwrap();
        assert!(
            ["info", "minor", "major", "critical", "blocker"].contains(&severity),
            "{severity}"
        );
        assert!(!issue["location"]["path"].as_str().unwrap().is_empty());
        assert!(issue["location"]["lines"]["begin"].as_u64().unwrap() >= 1);
        assert!(fingerprints.insert(issue["fingerprint"].as_str().unwrap().to_string()));
    }
    // The schema can fail: an issue without a fingerprint is refused.
    let mut broken = issues[0].clone();
    broken.as_object_mut().unwrap().remove("fingerprint");
    assert!(!validator.is_valid(&broken));
    // The same problems checked in another order keep their fingerprints.
    let mut args = vec!["check"];
    args.extend(FIXTURE.iter().rev());
    args.extend(["--format", "gitlab"]);
    let again: serde_json::Value =
        serde_json::from_str(&stdout(&common::coordc_in(root(), &args))).unwrap();
    let again: std::collections::BTreeSet<String> = again
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["fingerprint"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(again, fingerprints);
    insta::assert_json_snapshot!("gitlab", issues);
}

#[test]
fn sarif_rules_have_help_and_results_their_related_locations() {
    let log: serde_json::Value = serde_json::from_str(&check_raw("sarif")).unwrap();
    let schema: serde_json::Value =
        serde_json::from_str(include_str!("../data/sarif-schema-2.1.0.json")).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("the SARIF schema compiles");
    let errors: Vec<String> = validator.iter_errors(&log).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let driver = &log["runs"][0]["tool"]["driver"];
    assert!(
        !driver["informationUri"]
            .as_str()
            .unwrap()
            .contains("oozie.apache.org")
    );
    for rule in driver["rules"].as_array().unwrap() {
        let id = rule["id"].as_str().unwrap();
        assert!(
            rule["helpUri"]
                .as_str()
                .unwrap()
                .ends_with(&format!("/docs/rules/{id}.md")),
            "{rule:#}"
        );
        let markdown = rule["help"]["markdown"].as_str().unwrap();
        assert!(markdown.starts_with(&format!("# {id} ")), "{rule:#}");
        assert!(!rule["fullDescription"]["text"].as_str().unwrap().is_empty());
    }
    // The results (the rules are the registry's, whose pages have their
    // own test): PL003 with the producer's data-out as a related location.
    let results = serde_json::to_string_pretty(&log["runs"][0]["results"]).unwrap();
    insta::assert_snapshot!("sarif_results", redact(&results));
}

#[test]
fn colour_with_always_and_never_when_piped_or_with_no_color() {
    let run = |args: &[&str], no_color: Option<&str>| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_coordc"));
        command
            .current_dir(root())
            .args(["check", "corpus/invalid/TM005"])
            .args(args)
            .env_remove("NO_COLOR");
        if let Some(value) = no_color {
            command.env("NO_COLOR", value);
        }
        stdout(&command.output().unwrap())
    };
    // A test's stdout is a pipe: `auto` is plain, and so is `never`.
    let plain = run(&[], None);
    assert!(!plain.contains('\x1b'), "{plain}");
    assert_eq!(run(&["--color", "never"], None), plain);
    // `always` colours, NO_COLOR or not (an option given wins, as
    // no-color.org asks), and is the plain text once its escapes go.
    let coloured = run(&["--color", "always"], None);
    assert!(coloured.contains("\x1b["), "{coloured}");
    assert_eq!(run(&["--color", "always"], Some("1")), coloured);
    let escapes = regex::Regex::new("\x1b\\[[0-9;]*m").unwrap();
    assert_eq!(escapes.replace_all(&coloured, ""), plain);
    // An empty NO_COLOR is as if unset (no-color.org); a set one keeps
    // `auto` plain (here it is plain anyway: stdout is a pipe).
    assert_eq!(run(&[], Some("")), plain);
    assert_eq!(run(&[], Some("1")), plain);
    insta::assert_snapshot!("human_colour", coloured.replace('\x1b', "\\e"));
}

/// `auto` on a terminal: coordc run under util-linux's `script`, which
/// gives it a pseudo-terminal for stdout.
#[test]
#[cfg_attr(
    missing_script,
    ignore = "skipped: no `script` here (Debian: apt-get install bsdutils)"
)]
fn auto_colours_a_terminal_unless_no_color_is_set() {
    let on_terminal = |no_color: Option<&str>| {
        let mut command = Command::new("script");
        command
            .current_dir(root())
            .args(["-qec"])
            .arg(format!(
                "'{}' check corpus/invalid/TM005",
                env!("CARGO_BIN_EXE_coordc")
            ))
            .arg("/dev/null")
            .env_remove("NO_COLOR")
            .env("TERM", "xterm");
        if let Some(value) = no_color {
            command.env("NO_COLOR", value);
        }
        command.output()
    };
    let coloured = stdout(&on_terminal(None).expect("script runs (Debian: bsdutils)"));
    assert!(coloured.contains("\x1b["), "{coloured}");
    let plain = stdout(&on_terminal(Some("1")).unwrap());
    assert!(plain.contains("warning[TM005]"), "{plain}");
    assert!(!plain.contains('\x1b'), "{plain}");
}

#[test]
fn a_coordc_toml_sets_where_rule_pages_are_linked() {
    let dir = common::fresh_dir("formats-docs-url");
    std::fs::copy(
        format!("{}/corpus/invalid/TM005/coordinator.xml", root().display()),
        dir.join("coordinator.xml"),
    )
    .unwrap();
    let toml = dir.join("coordc.toml");
    std::fs::write(
        &toml,
        "docs-url = \"https://docs.example.org/coordc/{version}/{code}.html\"\n",
    )
    .unwrap();
    let app = dir.join("coordinator.xml");
    let app = app.to_str().unwrap();
    let out = common::coordc(&["check", app, "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        doc["diagnostics"][0]["url"],
        format!(
            "https://docs.example.org/coordc/{}/TM005.html",
            env!("CARGO_PKG_VERSION")
        )
    );
    let sarif: serde_json::Value = serde_json::from_str(&stdout(&common::coordc(&[
        "check", app, "--format", "sarif",
    ])))
    .unwrap();
    let rules = sarif["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    assert!(rules.iter().all(|r| {
        r["helpUri"]
            .as_str()
            .unwrap()
            .starts_with("https://docs.example.org/")
    }));
    // A mistake in it stops the check, as the file's other mistakes do.
    std::fs::write(&toml, "docs-url = \"https://docs.example.org/rules\"\n").unwrap();
    let out = common::coordc(&["check", app]);
    expect_code(&out, 2, "a docs-url without {code}");
    assert!(
        common::stderr(&out).contains("no `{code}`"),
        "{}",
        common::stderr(&out)
    );
}
