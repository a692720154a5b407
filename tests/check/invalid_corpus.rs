//! Every rule has a failing example in `corpus/invalid/CODE/` that really
//! reports the rule (with a reviewed snapshot of its rendered diagnostics), and
//! its page `docs/rules/CODE.md` shows that example.

use crate::common;

use common::{root, stderr, stdout};
use coordc::diag::rules::RULES;
use std::path::PathBuf;

/// Example files over this size are named on the rule page, not shown.
const SHOWN_MAX_BYTES: usize = 4096;

fn example_files(code: &str) -> Vec<PathBuf> {
    let dir = root().join("corpus/invalid").join(code);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|_| panic!("rule {code} has no example folder corpus/invalid/{code}/"))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "corpus/invalid/{code}/ is empty");
    files
}

/// The example run as a user runs it: `coordc check` on the folder, for a
/// rule of `coordc eval` (a `.el` file) `coordc eval --text-file`, for a
/// scenario rule (a `scenario.toml`) `coordc simulate`.
fn run(code: &str, files: &[PathBuf]) -> (std::process::Output, std::process::Output) {
    let dir = format!("corpus/invalid/{code}");
    let root = root().to_str().unwrap();
    if let Some(scenario) = files
        .iter()
        .find(|f| f.file_name().is_some_and(|n| n == "scenario.toml"))
    {
        let scenario = scenario.strip_prefix(root).unwrap().to_str().unwrap();
        return (
            common::coordc_in(root, &["simulate", scenario]),
            common::coordc_in(root, &["simulate", scenario, "--format", "json"]),
        );
    }
    match files
        .iter()
        .find(|f| f.extension().is_some_and(|e| e == "el"))
    {
        Some(el) => {
            let el = el.strip_prefix(root).unwrap().to_str().unwrap();
            (
                common::coordc_in(root, &["eval", "--text-file", el]),
                common::coordc_in(root, &["eval", "--text-file", el, "--format", "json"]),
            )
        }
        None => (
            common::coordc_in(root, &["check", &dir]),
            common::coordc_in(root, &["check", &dir, "--format", "json"]),
        ),
    }
}

#[test]
fn every_rule_has_an_example_that_reports_it() {
    for rule in RULES {
        let files = example_files(rule.code.as_str());
        let (human, json) = run(rule.code.as_str(), &files);
        // `check --format json` lists the codes; `eval` reports on stderr.
        let found = format!("{}{}", stdout(&json), stderr(&json));
        assert!(
            found.contains(&format!("\"code\":\"{}\"", rule.code))
                || found.contains(&format!("[{}]:", rule.code)),
            "corpus/invalid/{} does not report {}:\n{found}",
            rule.code,
            rule.code,
        );
        let shown = format!(
            "exit: {:?}\n--- stdout\n{}--- stderr\n{}",
            human.status.code(),
            stdout(&human),
            stderr(&human)
        );
        insta::assert_snapshot!(format!("invalid_{}", rule.code), shown);
    }
}

#[test]
fn no_example_without_its_rule() {
    for entry in std::fs::read_dir(root().join("corpus/invalid")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert!(
            RULES.iter().any(|r| r.code.as_str() == name),
            "corpus/invalid/{name} names no rule"
        );
    }
}

#[test]
fn every_rule_page_shows_its_failing_example() {
    for rule in RULES {
        let page =
            std::fs::read_to_string(root().join(format!("docs/rules/{}.md", rule.code))).unwrap();
        for file in example_files(rule.code.as_str()) {
            let name = file.file_name().unwrap().to_str().unwrap();
            let text = std::fs::read_to_string(&file).unwrap();
            let reference = format!("corpus/invalid/{}/{name}", rule.code);
            assert!(
                page.contains(&reference),
                "docs/rules/{}.md does not name {reference}",
                rule.code
            );
            if text.len() <= SHOWN_MAX_BYTES {
                assert!(
                    page.contains(&format!("\n{}```\n", text)),
                    "docs/rules/{}.md does not show {reference} as it is",
                    rule.code
                );
            }
        }
    }
}
