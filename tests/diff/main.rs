//! `coordc diff OLD NEW` through the real binary: what pull-request-like
//! changes do to what will run (tests/diff/fixtures: each an `old/` and a
//! `new/` version of one coordinator), in each format (reviewed
//! snapshots), with its exit code; and no change for a version compared
//! with itself.

#[path = "../common/mod.rs"]
mod common;

use common::{coordc_in, root, stdout};

/// The fixtures' year: every action of their jobs.
const YEAR: [&str; 4] = ["--from", "2025-01-01T00:00Z", "--to", "2026-01-01T00:00Z"];

/// Fixture `name`'s diff as text, which must find a change (exit 1).
fn changed(name: &str) -> String {
    let (out, code) = diff(name, &[]);
    assert_eq!(code, Some(1), "{out}");
    out
}

/// `coordc diff` of fixture `name`'s two versions over [`YEAR`], with
/// `extra` arguments: its output and exit code.
fn diff(name: &str, extra: &[&str]) -> (String, Option<i32>) {
    let old = format!("tests/diff/fixtures/{name}/old/coordinator.xml");
    let new = format!("tests/diff/fixtures/{name}/new/coordinator.xml");
    let mut args = vec!["diff", old.as_str(), new.as_str()];
    args.extend(YEAR);
    args.extend_from_slice(extra);
    let out = coordc_in(root(), &args);
    (stdout(&out), out.status.code())
}

/// A daily job's frequency `${coord:days(1)}` written `${coord:hours(24)}`:
/// from the spring switch to the fall one, every action runs an hour later
/// in UTC (the same local midnight is no longer kept).
#[test]
fn a_dst_frequency_change_moves_the_summer_actions() {
    insta::assert_snapshot!("dst_frequency", changed("dst-frequency"));
}

/// A range widened by one instance: every action reads one more hour, and
/// the property made of `coord:dataIn` changes with it.
#[test]
fn a_widened_range_reads_one_more_uri_every_day() {
    insta::assert_snapshot!("range_widened", changed("range-widened"));
}

/// A property renamed: the old name is no longer set, the new one is.
#[test]
fn a_renamed_property_is_unset_and_set() {
    insta::assert_snapshot!("renamed_property", changed("renamed-property"));
}

/// A daily dataset moved from Los Angeles to UTC: from the spring switch
/// on, `current(-1)` is another day's instance, the wrong data read after
/// a DST switch.
#[test]
fn a_dataset_in_another_zone_reads_other_instances_in_summer() {
    insta::assert_snapshot!("dataset_zone", changed("dataset-zone"));
}

/// The start moved a week later: its first seven actions disappear.
#[test]
fn a_later_start_drops_the_first_actions() {
    insta::assert_snapshot!("start_moved", changed("start-moved"));
}

/// The other formats, on the DST case: JSON (every group with its examples),
/// Markdown for a pull request's comment, GitHub annotations.
#[test]
fn the_formats_for_programs_reviews_and_ci() {
    let (json, code) = diff("dataset-zone", &["--format", "json"]);
    assert_eq!(code, Some(1));
    let parsed: serde_json::Value = serde_json::from_str(&json).unwrap();
    let group = &parsed["apps"][0]["comparison"]["groups"][0];
    assert_eq!(group["kind"], "data-in");
    assert_eq!(group["name"], "yesterday");
    assert_eq!(group["count"], 239);
    insta::assert_snapshot!(
        "dataset_zone_markdown",
        diff("dataset-zone", &["--format", "markdown"]).0
    );
    insta::assert_snapshot!(
        "dst_frequency_github",
        diff("dst-frequency", &["--format", "github"]).0
    );
    insta::assert_snapshot!(
        "dst_frequency_json",
        diff("dst-frequency", &["--format", "json"]).0
    );
}

/// Every corpus coordinator that dry-runs, compared with itself over a long
/// window: no change, exit 0.
#[test]
fn a_version_compared_with_itself_changes_nothing() {
    let apps = common::corpus_coordinators_that_dry_run();
    assert!(
        apps.len() >= 70,
        "only {} corpus coordinators dry-run",
        apps.len()
    );
    for app in &apps {
        let out = coordc_in(
            root(),
            &[
                "diff",
                app,
                app,
                "--from",
                "2000-01-01T00:00Z",
                "--to",
                "2030-01-01T00:00Z",
            ],
        );
        let shown = stdout(&out);
        assert_eq!(out.status.code(), Some(0), "{app}: {shown}");
        assert!(shown.trim_end().ends_with("no change"), "{app}: {shown}");
    }
}

/// Two folders: each coordinator compared with the one of the same path;
/// one only the new folder has is added (a change: exit 1).
#[test]
fn folders_pair_their_coordinators_by_path() {
    let dir = common::fresh_dir("diff-folders");
    let base =
        std::fs::read_to_string(root().join("tests/diff/fixtures/start-moved/old/coordinator.xml"))
            .unwrap();
    common::write(&dir, "old/a/coordinator.xml", &base);
    common::write(&dir, "new/a/coordinator.xml", &base);
    common::write(&dir, "new/b/coordinator.xml", &base);
    let old = dir.join("old").display().to_string();
    let new = dir.join("new").display().to_string();
    let mut args = vec!["diff", old.as_str(), new.as_str()];
    args.extend(YEAR);
    let out = common::coordc(&args);
    let shown = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{shown}");
    assert!(
        shown.contains("a/coordinator.xml: 365 old and 365 new actions"),
        "{shown}"
    );
    assert!(shown.contains("no change"), "{shown}");
    assert!(
        shown.contains("b/coordinator.xml: added: the old version has no such coordinator"),
        "{shown}"
    );
    // A file against a folder is a usage error.
    let mixed = common::coordc(&[
        "diff",
        &old,
        &dir.join("new/a/coordinator.xml").display().to_string(),
    ]);
    assert_eq!(mixed.status.code(), Some(2));
}

/// Git revisions: `coordc diff HEAD~1 HEAD` compares the current folder at
/// two commits; `coordc diff HEAD` compares a commit with the files as they
/// are. (The files are read through `git archive`; nothing is checked out.)
#[test]
fn git_revisions_are_versions_of_the_current_folder() {
    let repo = common::fresh_dir("diff-git");
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .args([
                "-c",
                "user.name=coordc",
                "-c",
                "user.email=coordc@example.org",
            ])
            .args(args)
            .current_dir(&repo)
            .output()
            .expect("git runs");
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            common::stderr(&out)
        );
    };
    let fixture = |side: &str| {
        std::fs::read_to_string(root().join(format!(
            "tests/diff/fixtures/dst-frequency/{side}/coordinator.xml"
        )))
        .unwrap()
    };
    git(&["init", "-q"]);
    common::write(&repo, "apps/daily/coordinator.xml", fixture("old"));
    git(&["add", "-A"]);
    git(&["commit", "-qm", "daily"]);
    common::write(&repo, "apps/daily/coordinator.xml", fixture("new"));
    let mut args = vec!["diff", "HEAD"];
    args.extend(YEAR);
    let out = coordc_in(&repo, &args);
    let shown = stdout(&out);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{shown}{}",
        common::stderr(&out)
    );
    assert!(
        shown.starts_with("apps/daily/coordinator.xml: 365 old and 365 new actions")
            && shown.contains("238 actions move 1 h later"),
        "{shown}"
    );
    git(&["commit", "-qam", "hours(24)"]);
    let mut args = vec!["diff", "HEAD~1", "HEAD"];
    args.extend(YEAR);
    let between = coordc_in(repo.join("apps"), &args);
    assert_eq!(between.status.code(), Some(1));
    assert!(
        stdout(&between).starts_with("daily/coordinator.xml: 365 old and 365 new actions"),
        "{}",
        stdout(&between)
    );
    // A revision's file is named by the revision, not the temporary
    // folder it is read from.
    let mut args = vec!["diff", "HEAD~1", "HEAD", "--format", "json"];
    args.extend(YEAR);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&coordc_in(&repo, &args))).unwrap();
    assert_eq!(doc["apps"][0]["old"], "HEAD~1:./apps/daily/coordinator.xml");
    assert_eq!(doc["apps"][0]["new"], "HEAD:./apps/daily/coordinator.xml");
    // The same commit twice: nothing changes.
    let mut args = vec!["diff", "HEAD", "HEAD"];
    args.extend(YEAR);
    assert_eq!(coordc_in(&repo, &args).status.code(), Some(0));
    // A revision whose file cannot be read: the problem, and which
    // revision the temporary folder held.
    common::write(&repo, "apps/daily/coordinator.xml", "<coordinator-app");
    git(&["commit", "-qam", "broken"]);
    let mut args = vec!["diff", "HEAD", "HEAD~1"];
    args.extend(YEAR);
    let broken = coordc_in(&repo, &args);
    assert_eq!(broken.status.code(), Some(2));
    assert!(
        common::stderr(&broken)
            .contains("held the files of git revision HEAD while they were read"),
        "{}",
        common::stderr(&broken)
    );
    let unknown = coordc_in(&repo, &["diff", "no-such-revision"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(
        common::stderr(&unknown)
            .contains("no-such-revision is not a file, a folder or a git revision"),
        "{}",
        common::stderr(&unknown)
    );
}

/// A bundle: each coordinator it submits, with the configuration it gives
/// it, compared with the same-named one of the other version (in folders,
/// through the bundle only, not again as a file of its own).
#[test]
fn a_bundles_coordinators_are_compared_by_their_names_in_it() {
    let dir = common::fresh_dir("diff-bundle");
    let source = root().join("corpus/bundle/daily-pipeline");
    for side in ["old", "new"] {
        for file in [
            "bundle.xml",
            "job.properties",
            "ingest/coordinator.xml",
            "report/coordinator.xml",
        ] {
            let text = std::fs::read_to_string(source.join(file)).unwrap();
            // The new version writes the ingest coordinator's raw data elsewhere.
            let text = match (side, file) {
                ("new", "bundle.xml") => text.replace("/raw</value>", "/raw-v2</value>"),
                _ => text,
            };
            common::write(&dir, &format!("{side}/{file}"), text);
        }
        // Each version reads the bundle's hdfs:// paths in its own folder.
        common::write(
            &dir,
            &format!("{side}/coordc.toml"),
            "[map]\n\"hdfs://nn:8020/user/etl/daily-pipeline\" = \".\"\n",
        );
    }
    let (old, new) = (dir.join("old"), dir.join("new"));
    let out = common::coordc(&[
        "diff",
        &old.display().to_string(),
        &new.display().to_string(),
        "--from",
        "2024-01-01T00:00Z",
        "--to",
        "2024-02-01T00:00Z",
    ]);
    let shown = stdout(&out);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{shown}{}",
        common::stderr(&out)
    );
    let headlines: Vec<&str> = shown
        .lines()
        .filter(|l| !l.starts_with(' ') && !l.is_empty())
        .collect();
    assert_eq!(
        headlines,
        [
            "bundle.xml#ingest-prod: 3 old and 3 new actions from 2024-01-01T00:00Z to 2024-02-01T00:00Z: 0 unchanged",
            "bundle.xml#report-prod: 3 old and 3 new actions from 2024-01-01T00:00Z to 2024-02-01T00:00Z: no change",
        ],
        "{shown}"
    );
    assert!(
        shown.contains("  data-in `input` reads 1 other URI in place of 1 (3 actions"),
        "{shown}"
    );
}
