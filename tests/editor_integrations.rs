//! Where else users run a linter (issue 22): the pre-commit hook of
//! `.pre-commit-hooks.yaml`, run by PyPI's pre-commit (`try-repo`, which
//! builds coordc with cargo as it would for a user), and the GitHub Action of
//! `action.yml`, its step's script run directly.
//!
//! The pre-commit test needs pre-commit: `COORDC_PRE_COMMIT`, else
//! `.venv-tools/bin/pre-commit` (what `.ci/run` installs), else one on PATH.
//! Without one it says it is skipped, except under `CI`, where it fails.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn pre_commit() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("COORDC_PRE_COMMIT") {
        return Some(PathBuf::from(p));
    }
    let venv = root().join(".venv-tools/bin/pre-commit");
    if venv.is_file() {
        return Some(venv);
    }
    let on_path = Command::new("pre-commit").arg("--version").output();
    on_path
        .is_ok_and(|o| o.status.success())
        .then(|| PathBuf::from("pre-commit"))
}

/// A git repository with a workflow with a mistake, a good one, and other XML.
fn repository(name: &str) -> PathBuf {
    let dir = common::fresh_dir(name);
    std::fs::copy(
        root().join("corpus/invalid/WF001/workflow.xml"),
        dir.join("bad.xml"),
    )
    .unwrap();
    std::fs::copy(
        root().join("corpus/wf/spec-4.1.5-fork-join.xml"),
        dir.join("good.xml"),
    )
    .unwrap();
    std::fs::write(dir.join("pom.xml"), "<project/>\n").unwrap();
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args(args)
            .current_dir(&dir)
            .output()
            .expect("git runs");
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    git(&["init", "-q"]);
    git(&["add", "."]);
    dir
}

#[test]
fn the_pre_commit_hook_checks_the_xml_of_a_commit() {
    let Some(pre_commit) = pre_commit() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "pre-commit is not installed (.ci/run installs it in .venv-tools)"
        );
        eprintln!("skipped: no pre-commit (pip install pre-commit, or set COORDC_PRE_COMMIT)");
        return;
    };
    // try-repo clones this project: a checkout without git history cannot be.
    let is_git = Command::new("git")
        .args(["-C", root().to_str().unwrap(), "rev-parse", "--git-dir"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !is_git {
        eprintln!("skipped: {} is not a git checkout", root().display());
        return;
    }
    let repo = repository("pre-commit-repo");
    let home = common::fresh_dir("pre-commit-home");
    let run = |files: &[&str]| {
        let mut command = Command::new(&pre_commit);
        command
            .args([
                "try-repo",
                root().to_str().unwrap(),
                "coordc-check",
                "--files",
            ])
            .args(files)
            .current_dir(&repo)
            .env("PRE_COMMIT_HOME", &home)
            // (The hook's `cargo install` builds in a folder of its own,
            // kept from one run to the next: not the project's release
            // build, which a clone elsewhere would make stale.)
            .env("CARGO_TARGET_DIR", root().join("target/pre-commit"))
            // (A checkout owned by another user is still this project.)
            .env("GIT_CONFIG_COUNT", "1")
            .env("GIT_CONFIG_KEY_0", "safe.directory")
            .env("GIT_CONFIG_VALUE_0", "*");
        command.output().expect("pre-commit runs")
    };
    let out = run(&["bad.xml", "good.xml", "pom.xml"]);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("coordc check....") && text.contains("Failed"),
        "{text}"
    );
    assert!(text.contains("error[WF001]"), "{text}");
    assert!(text.contains("bad.xml:17:17"), "{text}");
    let out = run(&["good.xml", "pom.xml"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("Passed"), "{text}");
}

/// The action's step (action.yml runs scripts/github-action.sh), with the
/// coordc under test on PATH: annotations, and coordc's exit code.
#[test]
fn the_github_action_annotates_and_fails_on_errors() {
    let action = std::fs::read_to_string(root().join("action.yml")).unwrap();
    assert!(action.contains(r#""$GITHUB_ACTION_PATH/scripts/github-action.sh""#));
    assert!(action.contains("using: composite"));
    let repo = repository("github-action");
    let binary = Path::new(env!("CARGO_BIN_EXE_coordc"));
    let path = format!(
        "{}:{}",
        binary.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let run = |paths: &str| {
        Command::new(root().join("scripts/github-action.sh"))
            .current_dir(&repo)
            .env("PATH", &path)
            .env("GITHUB_ACTION_PATH", root())
            .env("INPUT_PATHS", paths)
            .env("INPUT_ARGS", "")
            .output()
            .expect("the action's script runs")
    };
    let out = run("bad.xml good.xml");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("::error file=bad.xml,line=17,") && l.contains("WF001")),
        "{text}"
    );
    let out = run("good.xml");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}
