//! `coordc check`'s rule selection (`--select`, `--extend-select`,
//! `--ignore`, a coordc.toml's `[check]`), the suppression rules SU001 and
//! SU002, a run without a path or without an application, and `coordc
//! rules` / `coordc explain`.

use crate::common;

use common::{coordc, coordc_in, root, stderr, stdout};
use std::path::Path;

/// Three examples: a TM005 warning, a DST001 warning, EL005 errors.
const EXAMPLES: [&str; 3] = [
    "corpus/invalid/TM005",
    "corpus/invalid/DST001",
    "corpus/invalid/EL005",
];

/// `coordc check --format json EXAMPLES ARGS` in the repository: the exit
/// code, the codes reported (sorted, once each) and stderr.
fn check_codes(args: &[&str]) -> (Option<i32>, Vec<String>, String) {
    let mut all = vec!["check", "--format", "json"];
    all.extend_from_slice(&EXAMPLES);
    all.extend_from_slice(args);
    let out = coordc_in(root(), &all);
    (out.status.code(), json_codes(&out), stderr(&out))
}

/// The codes of a `--format json` report, sorted, once each.
fn json_codes(out: &std::process::Output) -> Vec<String> {
    let doc: serde_json::Value = serde_json::from_str(&stdout(out))
        .unwrap_or_else(|e| panic!("{e}: {}{}", stdout(out), stderr(out)));
    let mut codes: Vec<String> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect();
    codes.sort();
    codes.dedup();
    codes
}

#[test]
fn select_ignore_and_extend_select_with_the_most_specific_winning() {
    let (code, codes, _) = check_codes(&[]);
    assert_eq!(
        (code, codes),
        (Some(1), strings(&["DST001", "EL005", "TM005"]))
    );
    // A family; the errors of rules not selected do not fail the run.
    let (code, codes, _) = check_codes(&["--select", "DST"]);
    assert_eq!((code, codes), (Some(0), strings(&["DST001"])));
    // Comma-separated or repeated, codes or prefixes, any case.
    for args in [
        &["--select", "dst,tm005"][..],
        &["--select", "DST", "--select", "TM00"],
        &["--select", "DST", "--extend-select", "TM005"],
    ] {
        let (_, codes, _) = check_codes(args);
        assert_eq!(codes, strings(&["DST001", "TM005"]), "{args:?}");
    }
    // The code is more specific than the family: it wins either way round.
    let (_, codes, _) = check_codes(&["--select", "EL,TM", "--ignore", "EL005"]);
    assert_eq!(codes, strings(&["TM005"]));
    let (_, codes, _) = check_codes(&["--select", "EL005", "--ignore", "EL"]);
    assert_eq!(codes, strings(&["EL005"]));
    // ALL is the least specific of all.
    let (_, codes, _) = check_codes(&["--select", "ALL", "--ignore", "EL00,DST"]);
    assert_eq!(codes, strings(&["TM005"]));
    // The human summary says what the selection left out.
    let mut args = vec!["check"];
    args.extend_from_slice(&EXAMPLES);
    args.extend_from_slice(&["--ignore", "EL005,TM"]);
    let out = coordc_in(root(), &args);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stderr(&out)
            .contains("0 errors, 1 warning, 0 notes; 5 problems of rules not selected not shown"),
        "{}",
        stderr(&out)
    );
    // A selection that leaves nothing is said.
    let (code, codes, said) = check_codes(&["--select", "TM", "--ignore", "TM"]);
    assert_eq!((code, codes.len()), (Some(0), 0));
    assert!(said.contains("warning: --select, --extend-select and --ignore leave no rule"));
}

#[test]
fn an_unknown_selector_is_a_usage_error_naming_the_closest() {
    for (args, said) in [
        (
            ["--select", "TM0005"],
            "no rule or prefix TM0005; did you mean TM005?",
        ),
        (
            ["--ignore", "DST04"],
            "no rule or prefix DST04; did you mean DST?",
        ),
        (
            ["--extend-select", "QQ1"],
            "no rule or prefix QQ1 (the families are BU, CF, CO,",
        ),
        (["--select", "C"], "no rule or prefix C"),
    ] {
        let out = coordc_in(root(), &[&["check", EXAMPLES[0]][..], &args].concat());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(said), "{args:?}: {}", stderr(&out));
        assert!(stdout(&out).is_empty());
    }
}

#[test]
fn a_coordc_toml_check_table_selects_and_the_command_line_wins() {
    let dir = common::fresh_dir("select-toml");
    std::fs::create_dir_all(dir.join(".git")).unwrap();
    for example in EXAMPLES {
        let name = Path::new(example).file_name().unwrap();
        copy_folder(&Path::new(root()).join(example), &dir.join(name));
    }
    let toml = dir.join("coordc.toml");
    std::fs::write(
        &toml,
        "[check]\nselect = [\"TM\", \"EL\"]\nignore = [\"EL005\"]\n",
    )
    .unwrap();
    let run = |args: &[&str]| check_dir(&dir, args).1;
    assert_eq!(run(&[]), strings(&["TM005"]));
    // The command line's layer starts from the file's without --select...
    assert_eq!(
        run(&["--extend-select", "DST001"]),
        strings(&["DST001", "TM005"])
    );
    assert!(run(&["--ignore", "TM005"]).is_empty());
    // ... and replaces it with one (the file's ignore too).
    assert_eq!(run(&["--select", "EL005"]), strings(&["EL005"]));
    // `[rules]` levels apply to what is selected; `off` turns a rule off.
    std::fs::write(
        &toml,
        "[check]\nselect = [\"TM\", \"DST\"]\n[rules]\nTM005 = \"error\"\nDST001 = \"off\"\n",
    )
    .unwrap();
    let out = coordc_in(dir.to_str().unwrap(), &["check", "--format", "json", "."]);
    assert_eq!(out.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(doc["diagnostics"].as_array().unwrap().len(), 1);
    assert_eq!(doc["diagnostics"][0]["code"], "TM005");
    assert_eq!(doc["diagnostics"][0]["severity"], "error");
    // A wrong selector in the file stops the run, said where.
    std::fs::write(&toml, "[check]\nextend-select = [\"EL05\"]\n").unwrap();
    let out = coordc_in(dir.to_str().unwrap(), &["check", "."]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("coordc.toml: [check] extend-select: no rule or prefix EL05"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn unused_suppressions_are_reported_where_the_check_ran_in_full_and_fixed() {
    let dir = common::fresh_dir("select-unused");
    let app = dir.join("coordinator.xml");
    let example =
        std::fs::read_to_string(Path::new(root()).join("corpus/invalid/TM005/coordinator.xml"))
            .unwrap();
    // Used: the TM005 it silences is reported on the element after it.
    let used = format!("<!-- coordc: ignore TM005 -->\n{example}");
    std::fs::write(&app, &used).unwrap();
    let (code, codes) = check_dir(&dir, &[]);
    assert_eq!((code, codes), (Some(0), Vec::<String>::new()));
    // Unused: one warning per comment naming the codes that silenced nothing.
    let unused = format!(
        "<!-- coordc: ignore TM005, DST001 EL005 why -->\n{}",
        example.replace("timezone=\"EST\"", "timezone=\"UTC\"")
    );
    std::fs::write(&app, &unused).unwrap();
    let out = coordc_in(dir.to_str().unwrap(), &["check", "."]);
    assert!(
        stdout(&out).contains(
            "warning[SU002]: unused suppression: nothing in the element after it reports TM005 or DST001 or EL005"
        ),
        "{}",
        stdout(&out)
    );
    // A code not reported in the file is not said to be unused.
    let out = coordc_in(
        dir.to_str().unwrap(),
        &["check", ".", "--ignore", "DST001,EL005"],
    );
    assert!(
        stdout(&out).contains("nothing in the element after it reports TM005\n"),
        "{}",
        stdout(&out)
    );
    // --fix removes the comment, and its line.
    let out = coordc_in(dir.to_str().unwrap(), &["check", ".", "--fix"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("SU002"), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(&app).unwrap(),
        example.replace("timezone=\"EST\"", "timezone=\"UTC\"")
    );
    // In a file with an error (it can stop the checks after it), nothing is
    // said to be unused.
    let broken = unused.replace("${coord:days(1)}", "${coord:dayz(1)}");
    std::fs::write(&app, &broken).unwrap();
    let (code, codes) = check_dir(&dir, &[]);
    assert_eq!((code, codes), (Some(1), strings(&["EL002"])));
    // An unknown code is SU001, where it is written.
    std::fs::write(&app, format!("<!-- coordc: ignore TM05 -->\n{example}")).unwrap();
    let (_, codes) = check_dir(&dir, &[]);
    assert_eq!(codes, strings(&["SU001", "TM005"]));
}

#[test]
fn without_a_path_the_current_folder_is_checked_and_an_empty_one_is_said() {
    let dir = common::fresh_dir("select-empty");
    std::fs::create_dir_all(dir.join(".git")).unwrap();
    let out = coordc_in(dir.to_str().unwrap(), &["check"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stderr(&out).contains("warning: no Oozie application found in .\n"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("checked 0 files"), "{}", stderr(&out));
    // XML of another namespace is no application either.
    std::fs::create_dir_all(dir.join("conf")).unwrap();
    std::fs::write(dir.join("conf/site.xml"), "<configuration/>\n").unwrap();
    let out = coordc_in(dir.to_str().unwrap(), &["check", "conf"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stderr(&out).contains("warning: no Oozie application found in conf\n"));
    // An application there: checked, nothing said.
    std::fs::copy(
        Path::new(root()).join("corpus/invalid/TM005/coordinator.xml"),
        dir.join("coordinator.xml"),
    )
    .unwrap();
    let out = coordc_in(dir.to_str().unwrap(), &["check"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains("warning[TM005]"));
    assert!(
        !stderr(&out).contains("no Oozie application"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn rules_have_a_header_and_json_and_explain_takes_names() {
    let out = coordc(&["rules"]);
    let text = stdout(&out);
    let mut lines = text.lines();
    assert_eq!(
        lines.next().unwrap().trim_end(),
        "CODE    LEVEL    OOZIE  NAME                      SUMMARY"
    );
    assert!(
        lines
            .next()
            .unwrap()
            .starts_with("CF001   error    -      config-syntax ")
    );
    let out = coordc(&["rules", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let rules = doc.as_array().expect("an array");
    assert_eq!(rules.len(), text.lines().count() - 1);
    for rule in rules {
        let object = rule.as_object().unwrap();
        let keys: Vec<&str> = object.keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            ["code", "name", "severity", "oozie_code", "summary", "url"]
        );
        assert!(
            rule["url"].as_str().unwrap().ends_with(&format!(
                "/docs/rules/{}.md",
                rule["code"].as_str().unwrap()
            )),
            "{rule}"
        );
        assert!(["error", "warning", "note"].contains(&rule["severity"].as_str().unwrap()));
        assert!(rule["oozie_code"].is_null() || rule["oozie_code"].is_string());
        assert!(!rule["summary"].as_str().unwrap().is_empty());
    }
    let tm005 = rules.iter().find(|r| r["code"] == "TM005").unwrap();
    assert_eq!(tm005["name"], "legacy-zone-id");
    let co007 = rules.iter().find(|r| r["code"] == "CO007").unwrap();
    assert_eq!(co007["oozie_code"], "E1028");

    // By name, any case; a name two rules share shows both pages.
    let out = coordc(&["explain", "Legacy-Zone-ID"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).starts_with("# TM005 legacy-zone-id\n"));
    let out = coordc(&["explain", "missing-parameter"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).starts_with("# CO004 missing-parameter\n"));
    assert!(stdout(&out).contains("\n# WF011 missing-parameter\n"));
    // A miss says the closest.
    let out = coordc(&["explain", "legacy-zone"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no rule legacy-zone; did you mean legacy-zone-id?"),
        "{}",
        stderr(&out)
    );
    let out = coordc(&["explain", "TM0005"]);
    assert!(
        stderr(&out).contains("did you mean TM005?"),
        "{}",
        stderr(&out)
    );
}

/// `coordc check --format json .` in `dir`: the exit code and the codes.
fn check_dir(dir: &Path, args: &[&str]) -> (Option<i32>, Vec<String>) {
    let mut all = vec!["check", "--format", "json", "."];
    all.extend_from_slice(args);
    let out = coordc_in(dir.to_str().unwrap(), &all);
    (out.status.code(), json_codes(&out))
}

fn strings(codes: &[&str]) -> Vec<String> {
    codes.iter().map(|c| c.to_string()).collect()
}

fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
    }
}

/// A folder's walk skips version control, build output and virtual
/// environments (a Maven build copies the applications into `target/`);
/// the same folder named is checked.
#[test]
fn a_walk_skips_build_output_but_a_named_folder_is_checked() {
    let dir = common::fresh_dir("walk-skips-target");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for skipped in ["target", ".git", "node_modules"] {
        std::fs::create_dir_all(dir.join(skipped)).unwrap();
        std::fs::copy(
            root.join("corpus/invalid/WF001/workflow.xml"),
            dir.join(skipped).join("workflow.xml"),
        )
        .unwrap();
    }
    std::fs::create_dir_all(dir.join("app")).unwrap();
    std::fs::copy(
        root.join("corpus/wf/spec-4.1.5-fork-join.xml"),
        dir.join("app/workflow.xml"),
    )
    .unwrap();
    let d = dir.display().to_string();
    let out = common::coordc_in(&d, &["check"]);
    assert_eq!(out.status.code(), Some(0), "{}", common::stderr(&out));
    assert!(
        common::stderr(&out).contains("checked 1 file:"),
        "{}",
        common::stderr(&out)
    );
    let out = common::coordc_in(&d, &["check", "target"]);
    assert_eq!(out.status.code(), Some(1), "{}", common::stderr(&out));
    assert!(
        common::stdout(&out).contains("WF001"),
        "{}",
        common::stdout(&out)
    );
}
