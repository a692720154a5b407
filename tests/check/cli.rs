//! `coordc check` end to end: the corpus (every valid application clean, every
//! as-written one reporting its real errors), the output formats, notes
//! without a configuration, and paths that cannot be read.

use crate::common;

use common::{check_json, coordc, root, stderr, stdout};
use std::path::Path;

/// The codes of a JSON report's diagnostics, in order.
fn codes(doc: &serde_json::Value) -> Vec<&str> {
    doc["diagnostics"]
        .as_array()
        .expect("a diagnostics list")
        .iter()
        .map(|d| d["code"].as_str().expect("a code"))
        .collect()
}

#[test]
fn the_corpus_valid_apps_are_clean_and_the_as_written_ones_fail() {
    // Each example checked on its own: the spec's examples are not one
    // pipeline (they share URIs without meaning to feed each other).
    let mut paths: Vec<String> = Vec::new();
    for folder in [
        "corpus/coord",
        "corpus/datasets",
        "corpus/wf",
        "corpus/config",
    ] {
        for entry in std::fs::read_dir(Path::new(root()).join(folder)).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            paths.push(format!("{folder}/{name}"));
        }
    }
    paths.sort();
    let mut files_checked = 0;
    let mut errors: Vec<String> = Vec::new();
    for path in &paths {
        let (code, doc) = check_json(root(), &[path]);
        assert!(matches!(code, Some(0 | 1)), "{path}: {doc}");
        files_checked += doc["files_checked"].as_u64().unwrap();
        errors.extend(
            doc["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| d["severity"] != "note")
                // (A workflow checked alone, without its job's configuration,
                // is told that the variables it reads are not checked.)
                .filter(|d| {
                    !(d["code"] == "EL005"
                        && d["severity"] == "warning"
                        && d["message"].as_str().unwrap().contains("are not checked"))
                })
                .map(|d| d["file"].as_str().unwrap().to_string()),
        );
    }
    // Every file with an error or a warning is an example as written (or the 0.4 variant of
    // the config-class example, which the 0.4 schema rejects).
    for file in &errors {
        assert!(
            file.contains("as-written") || file.contains("config-class-0.4"),
            "{file} should check clean"
        );
    }
    // And every as-written coordinator has at least one (the spec's 24:00 is a
    // warning, TM004).
    let coord = Path::new(root()).join("corpus/coord");
    for entry in std::fs::read_dir(coord).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with("as-written") {
            assert!(
                errors.iter().any(|f| f.contains(&format!("/{name}/"))),
                "{name} reports no error"
            );
        }
    }
    assert!(files_checked > 70);
}

#[test]
fn json_positions_are_one_based_and_cover_the_span() {
    // Spec §6.8 example 1 as written starts and ends at 24:00: a warning (TM004).
    let (code, doc) = check_json(
        root(),
        &["corpus/coord/spec-6.8-example-1-as-written/coordinator.xml"],
    );
    assert_eq!(code, Some(0));
    let d = &doc["diagnostics"][0];
    assert_eq!(d["code"], "TM004");
    assert_eq!(d["severity"], "warning");
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(3), Some(25))
    );
    assert_eq!(
        (d["end_line"].as_u64(), d["end_column"].as_u64()),
        (Some(3), Some(42))
    );
    assert_eq!(
        d["help"],
        "write `2009-01-02T00:00Z`, 00:00 of the next day"
    );
    assert_eq!(doc["files_checked"], 1);
}

#[test]
fn human_and_github_formats() {
    let file = "corpus/coord/spec-6.8-example-1-as-written/coordinator.xml";
    let out = common::coordc_in(root(), &["check", file]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(text.contains("warning[TM004]"), "{text}");
    assert!(text.contains(&format!("{file}:3:25")), "{text}");
    assert!(stderr(&out).contains("checked 1 file: 0 errors, 2 warnings"));
    let out = common::coordc_in(root(), &["check", file, "--deny-warnings"]);
    assert_eq!(out.status.code(), Some(1));
    let out = common::coordc_in(root(), &["check", file, "--format", "github"]);
    let first = stdout(&out).lines().next().unwrap().to_string();
    assert!(
        first.starts_with(&format!(
            "::warning file={file},line=3,col=25,endLine=3,endColumn=42,title=TM004::"
        )),
        "{first}"
    );
    assert!(
        first.contains("%0Ahelp: write `2009-01-02T00:00Z`, 00:00 of the next day"),
        "{first}"
    );
}

#[test]
fn without_a_configuration_the_needed_names_are_a_note() {
    // Spec §6.5 example 1 reads six job properties; without them nothing that
    // evaluates can run, and the note lists them.
    let dir = common::fresh_dir("check-note");
    let app = dir.join("coordinator.xml");
    std::fs::copy(
        Path::new(root()).join("corpus/coord/spec-6.5-example-1/coordinator.xml"),
        &app,
    )
    .unwrap();
    let (code, doc) = check_json(root(), &[app.to_str().unwrap()]);
    assert_eq!(code, Some(0));
    let d = &doc["diagnostics"][0];
    assert_eq!(d["severity"], "note");
    assert_eq!(
        d["message"].as_str().unwrap().split(';').next().unwrap(),
        "the job must define `jobEnd`, `jobStart`, `language`, `logsInitialInstance`, `market`, `timezone`"
    );
    // Given them, the values are checked: a bad zone is an error.
    let (code, doc) = check_json(
        root(),
        &[
            app.to_str().unwrap(),
            "-D",
            "jobStart=2009-01-02T00:00Z",
            "-D",
            "jobEnd=2009-02-01T00:00Z",
            "-D",
            "logsInitialInstance=2009-01-01T01:00Z",
            "-D",
            "timezone=Americas/Los_Angeles",
            "-D",
            "market=us",
            "-D",
            "language=en",
        ],
    );
    assert_eq!(code, Some(1));
    assert!(
        doc["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["code"] == "TM002")
    );
}

#[test]
fn unreadable_paths_exit_2_and_the_others_are_still_checked() {
    let out = common::coordc_in(
        root(),
        &[
            "check",
            "no/such/file.xml",
            "corpus/coord/spec-6.8-example-1-as-written/coordinator.xml",
            "--format",
            "json",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no/such/file.xml: no such file or folder"));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(doc["diagnostics"][0]["code"], "TM004");
    // A file that is no Oozie document is skipped with a note.
    let (code, doc) = check_json(root(), &["corpus/config"]);
    assert_eq!(code, Some(0));
    assert_eq!(doc["diagnostics"][0]["severity"], "note");
    assert!(
        doc["diagnostics"][0]["message"]
            .as_str()
            .unwrap()
            .starts_with("skipped: <configuration>")
    );
    // A --config that cannot be read is an I/O error, said once however many
    // coordinators read it.
    let out = common::coordc_in(
        root(),
        &[
            "check",
            "corpus/invalid/TM002",
            "corpus/invalid/TM004",
            "--config",
            "no/such.properties",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out)
            .matches("cannot read no/such.properties")
            .count(),
        1
    );
}

#[test]
#[cfg(target_os = "linux")]
fn a_pipe_is_read_to_its_end() {
    // A pipe has no length to read to.
    let app = std::fs::read_to_string(
        std::path::Path::new(root()).join("corpus/invalid/TM002/coordinator.xml"),
    )
    .unwrap();
    let out = common::coordc_stdin(&["check", "/dev/stdin", "--format", "json"], &app);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(doc["diagnostics"][0]["code"], "TM002");
}

#[test]
fn rules_and_explain() {
    let out = coordc(&["rules"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    // Code, default severity, Oozie's error code (or -), name, summary.
    assert!(
        text.lines()
            .any(|l| l.starts_with("TM001   error    E1003  datetime ")),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("CO007   error    E1028  input-logic ")),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("DST002  warning  -      fixed-hourly-range ")),
        "{text}"
    );
    // A reader that is gone (`coordc rules | head -1`) is no panic: the pipe
    // is closed before coordc writes.
    for command in ["rules", "timezones"] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_coordc"))
            .arg(command)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{command}: {}", stderr(&out));
    }
    let out = coordc(&["explain", "co007"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).starts_with("# CO007 input-logic"));
    let out = coordc(&["explain", "ZZ999"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn controls_oozie_cannot_read_are_each_reported() {
    let dir = common::fresh_dir("check-controls");
    let app = dir.join("coordinator.xml");
    let write = |controls: &str| {
        std::fs::write(
            &app,
            format!(
                r#"<coordinator-app name="c" frequency="60" start="2009-01-01T00:00Z" end="2009-01-02T00:00Z" timezone="UTC" xmlns="uri:oozie:coordinator:0.2">
  <controls>{controls}</controls>
  <action><workflow><app-path>hdfs://nn/wf</app-path></workflow></action>
</coordinator-app>"#
            ),
        )
        .unwrap();
    };
    // CoordSubmitXCommand:735-796: each of these is E1003, all reported.
    write(
        "<timeout>ten</timeout><concurrency>two</concurrency><execution>fifo</execution><throttle>1.5</throttle>",
    );
    let (code, doc) = check_json(root(), &[app.to_str().unwrap()]);
    assert_eq!(code, Some(1));
    let messages: Vec<&str> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "CO008")
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    assert_eq!(messages.len(), 4, "{messages:?}");
    assert!(
        messages
            .iter()
            .any(|m| m.contains("`fifo` is none of FIFO, LIFO, LAST_ONLY, NONE"))
    );
    // Values Oozie accepts as they are, or changes silently.
    write(
        "<timeout>-1</timeout><concurrency>-1</concurrency><execution>LAST_ONLY</execution><throttle>0</throttle>",
    );
    let (code, doc) = check_json(root(), &[app.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{doc}");
}

#[test]
fn a_comment_on_the_line_before_silences_its_codes_for_that_element() {
    let dir = common::fresh_dir("check-ignore");
    let app = dir.join("coordinator.xml");
    let text = std::fs::read_to_string(
        Path::new(root()).join("corpus/coord/spec-6.8-example-1-as-written/coordinator.xml"),
    )
    .unwrap();
    // Both 24:00 datetimes are on the <coordinator-app> start tag.
    let silenced = text.replacen(
        "<coordinator-app",
        "<!-- coordc: ignore TM004 -->\n<coordinator-app",
        1,
    );
    std::fs::write(&app, &silenced).unwrap();
    let (code, doc) = check_json(root(), &[app.to_str().unwrap(), "--deny-warnings"]);
    assert_eq!(code, Some(0), "{doc}");
    // Another code is not silenced.
    std::fs::write(
        &app,
        text.replacen(
            "<coordinator-app",
            "<!-- coordc: ignore XML004 -->\n<coordinator-app",
            1,
        ),
    )
    .unwrap();
    let (code, _) = check_json(root(), &[app.to_str().unwrap(), "--deny-warnings"]);
    assert_eq!(code, Some(1));
}

#[test]
fn sarif_output_is_valid_sarif_2_1_0() {
    // The OASIS SARIF 2.1.0 schema (tests/data/sarif-schema-2.1.0.json).
    let out = common::coordc_in(root(), &["check", "corpus", "--format", "sarif"]);
    assert_eq!(out.status.code(), Some(1));
    let log: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let schema: serde_json::Value =
        serde_json::from_str(include_str!("../data/sarif-schema-2.1.0.json")).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("the SARIF schema compiles");
    let errors: Vec<String> = validator.iter_errors(&log).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    // Every result names a rule of the driver, by id and index.
    let run = &log["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let results = run["results"].as_array().unwrap();
    assert!(!results.is_empty());
    for r in results {
        let index = r["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], r["ruleId"]);
    }
    // And no file is invalid because of its path: a space is percent-encoded.
    let dir = common::fresh_dir("check sarif");
    let app = dir.join("bad app.xml");
    std::fs::write(&app, "<coordinator-app").unwrap();
    let out = coordc(&["check", app.to_str().unwrap(), "--format", "sarif"]);
    let log: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let uri = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
        ["uri"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(uri.ends_with("/bad%20app.xml"), "{uri}");
    assert!(validator.is_valid(&log));
    // The validation can fail: a wrong version or level is refused.
    let mut broken = log.clone();
    broken["version"] = "2.0.0".into();
    assert!(!validator.is_valid(&broken));
    let mut broken = log;
    broken["runs"][0]["results"][0]["level"] = "fatal".into();
    assert!(!validator.is_valid(&broken));
}

#[test]
fn a_folders_coordc_toml_sets_levels_ignores_and_server_settings() {
    let dir = common::fresh_dir("check-toml");
    std::fs::create_dir_all(dir.join("legacy")).unwrap();
    // A 2-minute frequency (TM003 under Oozie's default check) and a 24:00 end.
    let app = r#"<coordinator-app name="c" frequency="2" start="2009-01-01T00:00Z" end="2009-01-01T24:00Z" timezone="UTC" xmlns="uri:oozie:coordinator:0.2"><action><workflow><app-path>hdfs://nn/wf</app-path></workflow></action></coordinator-app>"#;
    std::fs::write(dir.join("a.xml"), app).unwrap();
    std::fs::write(dir.join("legacy/b.xml"), app).unwrap();
    let listed = |doc: &serde_json::Value| -> Vec<String> {
        doc["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                format!(
                    "{} {} {}",
                    d["file"].as_str().unwrap().rsplit('/').next().unwrap(),
                    d["code"].as_str().unwrap(),
                    d["severity"].as_str().unwrap()
                )
            })
            .collect()
    };
    let (code, doc) = check_json(root(), &[dir.to_str().unwrap()]);
    assert_eq!(code, Some(1));
    assert_eq!(
        listed(&doc),
        [
            "a.xml TM003 error",
            "a.xml TM004 warning",
            "b.xml TM003 error",
            "b.xml TM004 warning"
        ]
    );
    // The server allows short frequencies; legacy/ is ignored; 24:00 is a note.
    std::fs::write(
        dir.join("coordc.toml"),
        "check-maximum-frequency = false\n[rules]\nTM004 = \"note\"\n[ignore]\n\"legacy/**\" = [\"*\"]\n",
    )
    .unwrap();
    let (code, doc) = check_json(root(), &[dir.to_str().unwrap(), "--deny-warnings"]);
    assert_eq!(code, Some(0), "{doc}");
    assert_eq!(listed(&doc), ["a.xml TM004 note"]);
    // And an error, when the team wants it to be.
    std::fs::write(dir.join("coordc.toml"), "[rules]\nTM004 = \"error\"\n").unwrap();
    let (code, _) = check_json(root(), &[dir.to_str().unwrap()]);
    assert_eq!(code, Some(1));
    // A mistake in coordc.toml is a usage error, said where.
    std::fs::write(dir.join("coordc.toml"), "[rules]\nTM999 = \"off\"\n").unwrap();
    let out = coordc(&["check", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("coordc.toml: [rules] TM999: no such rule"),
        "{}",
        stderr(&out)
    );
}

/// A diagnostic about the command line or about a whole file shows no
/// excerpt at 1:1 (there is no place in a text to show): it says where it
/// is instead.
#[test]
fn command_line_and_whole_file_diagnostics_say_where_they_are() {
    let app = format!("{}/corpus/invalid/TM002/coordinator.xml", root().display());
    let out = coordc(&["check", &app, "-D", "YEAR=3", "--color", "never"]);
    let text = stderr(&out) + &stdout(&out);
    assert!(
        text.contains(
            "error[CF002]: `YEAR` is reserved: Oozie rejects a job that defines it (E0808)\n = on the command line (`-D`)\n"
        ),
        "{text}"
    );
    assert!(!text.contains("<-D>:1:1"), "{text}");
    let dir = common::fresh_dir("check-whole-file");
    let binary = dir.join("binary.xml");
    std::fs::write(&binary, [0xffu8, 0xfe, b'<', b'a', b'/', b'>']).unwrap();
    let out = coordc(&["check", binary.to_str().unwrap(), "--color", "never"]);
    let text = stderr(&out) + &stdout(&out);
    assert!(
        text.contains(&format!(
            "error[XML001]: the file is not UTF-8 text (byte 0 is not valid UTF-8)\n = in {} (the whole file)\n",
            binary.display()
        )),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_a_diagnostic_and_the_other_files_are_still_checked() {
    let dir = common::fresh_dir("check-bad");
    // Binary bytes, not UTF-8.
    std::fs::write(
        dir.join("a-binary.xml"),
        [0u8, 159, 146, 150, 0xff, 0xfe, 0],
    )
    .unwrap();
    // 100 MB (sparse): refused by its length before it is read.
    let big = std::fs::File::create(dir.join("b-big.xml")).unwrap();
    big.set_len(100 * 1024 * 1024).unwrap();
    // An entity bomb.
    std::fs::write(
        dir.join("c-bomb.xml"),
        "<?xml version=\"1.0\"?><!DOCTYPE a [<!ENTITY a \"aaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;\">]><coordinator-app name=\"&b;\"/>",
    )
    .unwrap();
    // 100,000 nested elements.
    let deep = "<a>".repeat(100_000) + &"</a>".repeat(100_000);
    std::fs::write(dir.join("d-deep.xml"), deep).unwrap();
    // And one good application, still checked: its mistake is reported.
    std::fs::copy(
        Path::new(root()).join("corpus/invalid/TM002/coordinator.xml"),
        dir.join("e-app.xml"),
    )
    .unwrap();
    let (code, doc) = check_json(root(), &[dir.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{doc}");
    assert_eq!(doc["files_checked"], 5);
    let found: Vec<String> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            format!(
                "{} {}",
                d["file"].as_str().unwrap().rsplit('/').next().unwrap(),
                d["code"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            "a-binary.xml XML001",
            "b-big.xml XML002",
            "c-bomb.xml XML001",
            "d-deep.xml XML002",
            "e-app.xml TM002"
        ],
        "{doc}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_data_in_is_checked_for_instance_lists_not_only_the_first() {
    // Oozie's submission inspects the first data-in only; the second one's
    // list would fail when an action is created. One diagnostic, the list.
    let dir = common::fresh_dir("check-list");
    let app =
        std::fs::read_to_string(Path::new(root()).join("corpus/invalid/CO003/coordinator.xml"))
            .unwrap();
    let second = app.rfind("<data-in name=\"input\"").unwrap();
    let (head, tail) = app.split_at(second);
    let tail = tail
        .replacen("name=\"input\"", "name=\"earlier\"", 1)
        .replacen(
            "<start-instance>${coord:current(-47)}</start-instance>\n      <end-instance>${coord:current(-24)}</end-instance>",
            "<instance>${coord:current(-24)},${coord:current(-25)}</instance>",
            1,
        );
    std::fs::write(dir.join("coordinator.xml"), format!("{head}{tail}")).unwrap();
    let (code, doc) = check_json(root(), &[dir.to_str().unwrap()]);
    assert_eq!(code, Some(1));
    assert_eq!(codes(&doc), ["CO006"], "{doc}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_back_up_the_tree_is_searched_once() {
    let dir = common::fresh_dir("check-loop");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::os::unix::fs::symlink(&dir, dir.join("sub/back")).unwrap();
    std::fs::copy(
        Path::new(root()).join("corpus/invalid/TM002/coordinator.xml"),
        dir.join("app.xml"),
    )
    .unwrap();
    // And an empty file: a diagnostic, not a crash.
    std::fs::write(dir.join("empty.xml"), "").unwrap();
    // The same file given again, directly, is checked once.
    let again = dir.join("sub/back/app.xml");
    let (code, doc) = check_json(root(), &[dir.to_str().unwrap(), again.to_str().unwrap()]);
    assert_eq!(code, Some(1));
    assert_eq!(doc["files_checked"], 2, "{doc}");
    assert_eq!(codes(&doc), ["TM002", "XML001"], "{doc}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_diagnostic_in_a_value_points_at_that_value_in_the_file() {
    // Equal values share one EL tree, whose spans are offsets in the value:
    // each diagnostic must still point at its own value, and past entities
    // (`&lt;` is four bytes of the file and one of the value), whether a
    // static check or the evaluation of the first action found it.
    let dir = common::fresh_dir("value-spans");
    let app = r#"<coordinator-app name="c" frequency="60" start="2009-01-01T00:00Z" end="2009-01-02T00:00Z" timezone="UTC" xmlns="uri:oozie:coordinator:0.4">
  <action>
    <workflow>
      <app-path>hdfs://nn/app</app-path>
      <configuration>
        <property><name>a</name><value>&lt;&amp;${coord:formatTime('x', 'yyyy')}</value></property>
        <property><name>b</name><value>${coord:nope(1)}</value></property>
        <property><name>c</name><value>${coord:nope(1)}</value></property>
        <property><name>d</name><value>&amp;&amp; ${coord:nope(1)}</value></property>
      </configuration>
    </workflow>
  </action>
</coordinator-app>
"#;
    std::fs::write(dir.join("coordinator.xml"), app).unwrap();
    let (code, doc) = check_json(root(), &[dir.to_str().unwrap()]);
    assert_eq!(code, Some(1));
    let found: Vec<(&str, u64, u64, u64)> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap(),
                d["line"].as_u64().unwrap(),
                d["column"].as_u64().unwrap(),
                d["end_column"].as_u64().unwrap(),
            )
        })
        .collect();
    let at = |line: usize, text: &str| {
        let column = app.lines().nth(line - 1).unwrap().find(text).unwrap() as u64 + 1;
        (line as u64, column, column + text.len() as u64)
    };
    let expected: Vec<(&str, u64, u64, u64)> = [
        ("EL006", at(6, "coord:formatTime('x', 'yyyy')")),
        ("EL002", at(7, "coord:nope")),
        ("EL002", at(8, "coord:nope")),
        ("EL002", at(9, "coord:nope")),
    ]
    .into_iter()
    .map(|(code, (line, column, end))| (code, line, column, end))
    .collect();
    assert_eq!(found, expected);
}

#[test]
fn workflow_parameters_are_verified_against_the_jobs_configuration() {
    // ParameterVerifier.java:49-91, for a workflow (LiteWorkflowAppParser.java:182).
    let dir = common::fresh_dir("wf-parameters");
    let wf = dir.join("workflow.xml");
    std::fs::write(
        &wf,
        r#"<workflow-app name="wf" xmlns="uri:oozie:workflow:0.5">
  <parameters>
    <property><name>outputDir</name></property>
    <property><name>queueName</name><value>default</value></property>
    <property><name>inputDir</name></property>
  </parameters>
  <start to="cleanup"/>
  <action name="cleanup">
    <fs><delete path="hdfs://nn:8020${outputDir}"/></fs>
    <ok to="end"/>
    <error to="fail"/>
  </action>
  <kill name="fail"><message>failed</message></kill>
  <end name="end"/>
</workflow-app>"#,
    )
    .unwrap();
    let wf = wf.to_str().unwrap();
    let messages = |doc: &serde_json::Value| -> Vec<String> {
        doc["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| format!("{} {}", d["code"], d["message"]))
            .collect()
    };
    // Without a configuration: one warning that the variables it reads,
    // both required parameters, are not checked.
    let (code, doc) = check_json(root(), &[wf]);
    assert_eq!(code, Some(0), "{doc}");
    let found = messages(&doc);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with("\"EL005\"")
            && found[0].contains(
                "the variables this workflow reads (`inputDir`, `outputDir`) are not checked"
            ),
        "{found:?}"
    );
    assert_eq!(doc["diagnostics"][0]["severity"], "warning");
    // With -D: each one the job does not define is an error (E0738).
    let (code, doc) = check_json(root(), &[wf, "-D", "outputDir=/tmp/out"]);
    assert_eq!(code, Some(1), "{doc}");
    assert_eq!(codes(&doc), ["WF011"]);
    assert!(messages(&doc)[0].contains("`inputDir`"), "{doc}");
    // The job.properties beside the workflow, over its config-default.xml
    // (SubmitXCommand.java:156-174): together they define both.
    std::fs::write(dir.join("job.properties"), "outputDir=/tmp/out\n").unwrap();
    let (code, doc) = check_json(root(), &[wf]);
    assert_eq!((code, codes(&doc)), (Some(1), vec!["WF011"]), "{doc}");
    std::fs::write(
        dir.join("config-default.xml"),
        "<configuration><property><name>inputDir</name><value>/tmp/in</value></property></configuration>",
    )
    .unwrap();
    let (code, doc) = check_json(root(), &[wf]);
    assert_eq!(code, Some(0), "{doc}");
    assert_eq!(codes(&doc), Vec::<&str>::new());
    // config-default.xml alone is not a job's configuration: without the
    // job.properties, the parameter it does not define is in the warning.
    std::fs::remove_file(dir.join("job.properties")).unwrap();
    let (_, doc) = check_json(root(), &[wf]);
    assert_eq!(codes(&doc), ["EL005"]);
    assert_eq!(doc["diagnostics"][0]["severity"], "warning");
    assert!(messages(&doc)[0].contains("reads (`outputDir`)"), "{doc}");
}

#[test]
fn an_empty_parameter_name_is_an_error_with_or_without_a_configuration() {
    // ParameterVerifier.java:63-68 (E0739), in both kinds of application.
    let (code, doc) = check_json(root(), &["corpus/invalid/WF012"]);
    assert_eq!((code, codes(&doc)), (Some(1), vec!["WF012"]), "{doc}");
    let (code, doc) = check_json(root(), &["corpus/invalid/CO011"]);
    assert_eq!((code, codes(&doc)), (Some(1), vec!["CO011"]), "{doc}");
    // A coordinator without a configuration lists its required parameters
    // in the note, read or not, rather than reporting them (CO004).
    let dir = common::fresh_dir("coord-parameters");
    let coord = dir.join("coordinator.xml");
    std::fs::write(
        &coord,
        r#"<coordinator-app name="c" frequency="${coord:days(1)}" start="2024-01-01T00:00Z" end="2024-01-03T00:00Z" timezone="UTC" xmlns="uri:oozie:coordinator:0.4">
  <parameters><property><name>unused</name></property></parameters>
  <action><workflow><app-path>hdfs://nn:8020/app</app-path></workflow></action>
</coordinator-app>"#,
    )
    .unwrap();
    let coord = coord.to_str().unwrap();
    let (code, doc) = check_json(root(), &[coord]);
    assert_eq!(code, Some(0), "{doc}");
    assert_eq!(codes(&doc), ["EL005"]);
    assert_eq!(doc["diagnostics"][0]["severity"], "note");
    assert!(
        doc["diagnostics"][0]["message"]
            .as_str()
            .unwrap()
            .contains("`unused`"),
        "{doc}"
    );
    // With a job.properties, the parameter is missing (CO004), unless the
    // coord-config-default.xml beside the coordinator defines it
    // (CoordSubmitXCommand.java:556-578).
    std::fs::write(dir.join("job.properties"), "queue=default\n").unwrap();
    let (code, doc) = check_json(root(), &[coord]);
    assert_eq!((code, codes(&doc)), (Some(1), vec!["CO004"]), "{doc}");
    std::fs::write(
        dir.join("coord-config-default.xml"),
        "<configuration><property><name>unused</name><value>x</value></property></configuration>",
    )
    .unwrap();
    let (code, doc) = check_json(root(), &[coord]);
    assert_eq!((code, codes(&doc)), (Some(0), Vec::<&str>::new()), "{doc}");
}

#[test]
fn a_workflows_name_and_retry_attributes_are_resolved_with_the_job_properties_only() {
    // SubmitXCommand.java:215 and LiteWorkflowAppParser.java:285-302: the
    // job-submit EL group has the job's properties and nothing else.
    let dir = common::fresh_dir("wf-submission-el");
    let wf = dir.join("workflow.xml");
    std::fs::write(
        &wf,
        r#"<workflow-app name="report-${market}-${wf:id()}" xmlns="uri:oozie:workflow:0.5">
  <start to="cleanup"/>
  <action name="cleanup" retry-max="${retries}">
    <fs><delete path="hdfs://nn:8020/tmp/out"/></fs>
    <ok to="end"/>
    <error to="fail"/>
  </action>
  <kill name="fail"><message>failed</message></kill>
  <end name="end"/>
</workflow-app>"#,
    )
    .unwrap();
    let wf = wf.to_str().unwrap();
    // Without a configuration, the names are in the note; the function fails
    // whatever the job defines.
    let (code, doc) = check_json(root(), &[wf]);
    assert_eq!(
        (code, codes(&doc)),
        (Some(1), vec!["EL005", "WF019"]),
        "{doc}"
    );
    assert!(
        doc["diagnostics"][0]["message"]
            .as_str()
            .unwrap()
            .contains("`market`, `retries`"),
        "{doc}"
    );
    // With one: each undefined variable, and the function, where they are.
    let (code, doc) = check_json(root(), &[wf, "-D", "market=us"]);
    assert_eq!(code, Some(1), "{doc}");
    let found: Vec<String> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| format!("{} {}:{}", d["code"], d["line"], d["column"]))
        .collect();
    assert_eq!(found, ["\"WF019\" 1:40", "\"WF019\" 3:39"], "{doc}");
    // A declared parameter the job does not define is WF011, not again WF019.
    let text = std::fs::read_to_string(wf).unwrap().replace(
        r#"<start to="cleanup"/>"#,
        r#"<parameters><property><name>retries</name></property></parameters><start to="cleanup"/>"#,
    );
    std::fs::write(wf, text).unwrap();
    let (_, doc) = check_json(root(), &[wf, "-D", "market=us"]);
    assert_eq!(codes(&doc), ["WF019", "WF011"], "{doc}");
    // A configuration that submits a coordinator, or another workflow file,
    // is not this workflow's: it runs with what that application passes it,
    // which coordc does not have.
    for (other, says) in [
        (
            "oozie.coord.application.path=hdfs://nn/app",
            "submits a coordinator",
        ),
        (
            "oozie.wf.application.path=hdfs://nn/app/main.xml",
            "submits the workflow `main.xml`",
        ),
    ] {
        let (_, doc) = check_json(root(), &[wf, "-D", other]);
        assert_eq!(codes(&doc), ["EL005", "WF019"], "{doc}");
        let note = doc["diagnostics"][0]["message"].as_str().unwrap();
        assert!(note.contains(says), "{doc}");
    }
    // Its own application path (a folder means its workflow.xml): configured.
    for own in ["hdfs://nn/app/", "hdfs://nn/app/workflow.xml"] {
        let define = format!("oozie.wf.application.path={own}");
        let (_, doc) = check_json(root(), &[wf, "-D", &define]);
        assert_eq!(codes(&doc), ["WF019", "WF019", "WF011"], "{doc}");
    }
}
