//! Where else users run a linter (issue 22): the pre-commit hooks of
//! `.pre-commit-hooks.yaml`, run by PyPI's pre-commit (`try-repo`, which
//! installs them as it would for a user: `pip install .` of the root stub,
//! which asks for the coordc wheel), and the GitHub Action of `action.yml`,
//! its step's script run directly.
//!
//! The pre-commit tests need pre-commit: `COORDC_PRE_COMMIT`, else
//! `.venv-tools/bin/pre-commit` (what `.ci/run` installs), else one on PATH;
//! and the coordc wheel of this checkout, in the folder `COORDC_WHEEL_DIR`
//! (`scripts/build-wheels.sh` writes it; `.ci/run` builds it before the
//! tests: a release build is minutes, too long to start from a test). pip
//! installs it offline, so it is that wheel and no other. Without either,
//! `cargo test` lists them as ignored with the reason (build.rs looks),
//! except under `CI`, where they run and fail.

use crate::common;
use crate::common::root;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

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

/// What the pre-commit tests run: pre-commit, and the folder of the wheel
/// it installs. (Where either is missing, or this is no git checkout,
/// build.rs has the tests ignored, saying so; under `CI` they run, and
/// fail here.)
fn hook_tools() -> (PathBuf, PathBuf) {
    let pre_commit = pre_commit().expect(
        "pre-commit is installed (.ci/run installs it in .venv-tools; or set COORDC_PRE_COMMIT)",
    );
    let dir = PathBuf::from(std::env::var_os("COORDC_WHEEL_DIR").expect(
        "COORDC_WHEEL_DIR names the folder of the wheel (scripts/build-wheels.sh --gnu-only target/wheels)",
    ));
    let has_wheel = std::fs::read_dir(&dir).is_ok_and(|entries| {
        entries.flatten().any(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.starts_with("coordc-") && name.ends_with(".whl")
        })
    });
    assert!(
        has_wheel,
        "no coordc-*.whl in COORDC_WHEEL_DIR={}",
        dir.display()
    );
    (pre_commit, dir)
}

/// The folder of the setuptools wheels pre-commit's virtualenv seeds, found
/// through the Python that runs `pre_commit`: the root stub's build needs
/// setuptools, and pip is offline.
fn setuptools_wheels(pre_commit: &Path) -> PathBuf {
    let script = std::fs::read_to_string(pre_commit).unwrap_or_default();
    let python = script
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("#!"))
        .map_or("python3", str::trim);
    let out = Command::new(python)
        .args([
            "-c",
            "import virtualenv.seed.wheels.embed as e; print(e.BUNDLE_FOLDER)",
        ])
        .output()
        .unwrap_or_else(|e| panic!("{python} (pre-commit's Python) runs: {e}"));
    assert!(
        out.status.success(),
        "virtualenv's wheels, through {python}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
}

/// Runs `git` in `dir`, failing the test if it fails.
fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
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
    git(&dir, &["init", "-q"]);
    git(&dir, &["add", "."]);
    dir
}

/// `pre-commit try-repo` of this checkout's hook `hook` in `repo`, with
/// `selection` (`--files ...` or `--all-files`); pip installs the wheel of
/// `wheels` offline.
fn try_repo(
    (pre_commit, wheels): &(PathBuf, PathBuf),
    hook: &str,
    repo: &Path,
    selection: &[&str],
) -> Output {
    let find_links = format!(
        "{} {}",
        wheels.display(),
        setuptools_wheels(pre_commit).display()
    );
    Command::new(pre_commit)
        .args([
            "try-repo",
            root().to_str().unwrap(),
            hook,
            "--color",
            "never",
        ])
        // (--verbose: a hook's output even when it passes, as warnings do.)
        .arg("--verbose")
        .args(selection)
        .current_dir(repo)
        .env("PRE_COMMIT_HOME", repo.with_extension("pre-commit-home"))
        .env("PIP_NO_INDEX", "1")
        .env("PIP_FIND_LINKS", find_links)
        .env("PIP_DISABLE_PIP_VERSION_CHECK", "1")
        // (A checkout owned by another user is still this project.)
        .env("GIT_CONFIG_COUNT", "1")
        .env("GIT_CONFIG_KEY_0", "safe.directory")
        .env("GIT_CONFIG_VALUE_0", "*")
        .output()
        .expect("pre-commit runs")
}

/// What the hook printed: pre-commit's report of `hook` is its id, lines of
/// facts (`- exit code: 1`, `- duration: ...`), an empty line, and that.
fn hook_output<'a>(text: &'a str, hook: &str) -> &'a str {
    let id = format!("- hook id: {hook}\n");
    let start = text.find(&id).unwrap_or_else(|| panic!("{text}")) + id.len();
    let mut rest = &text[start..];
    while rest.starts_with("- ") {
        rest = rest.split_once('\n').map_or("", |(_, after)| after);
    }
    rest.strip_prefix('\n').unwrap_or(rest)
}

fn all_output(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
#[cfg_attr(
    any(missing_pre_commit, missing_coordc_wheel, missing_git_checkout),
    ignore = "skipped: needs pre-commit, a coordc wheel (scripts/build-wheels.sh --gnu-only target/wheels, then COORDC_WHEEL_DIR=$PWD/target/wheels) and a git checkout; .ci/run provides them"
)]
fn the_pre_commit_hook_checks_the_xml_of_a_commit() {
    let tools = hook_tools();
    let repo = repository("pre-commit-repo");
    let out = try_repo(
        &tools,
        "coordc-check",
        &repo,
        &["--files", "bad.xml", "good.xml", "pom.xml"],
    );
    let text = all_output(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("coordc check....") && text.contains("Failed"),
        "{text}"
    );
    assert!(text.contains("error[WF001]"), "{text}");
    assert!(text.contains("bad.xml:17:17"), "{text}");
    let out = try_repo(
        &tools,
        "coordc-check",
        &repo,
        &["--files", "good.xml", "pom.xml"],
    );
    let text = all_output(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("Passed"), "{text}");
}

/// 60 coordinators in one commit, in pairs whose problems only a check
/// across applications sees (PL003: a consumer off its producer's grid;
/// DA003: two writers of one output): the hook reports what one
/// `coordc check` of all the files reports, byte for byte, so pre-commit
/// gave them to one process.
#[test]
#[cfg_attr(
    any(missing_pre_commit, missing_coordc_wheel, missing_git_checkout),
    ignore = "skipped: needs pre-commit, a coordc wheel (scripts/build-wheels.sh --gnu-only target/wheels, then COORDC_WHEEL_DIR=$PWD/target/wheels) and a git checkout; .ci/run provides them"
)]
fn the_pre_commit_hook_compares_every_application_of_a_commit() {
    let tools = hook_tools();
    let repo = common::fresh_dir("pre-commit-pipelines");
    let pairs = 30;
    for pair in 0..pairs {
        let (rule, first, second) = if pair % 2 == 0 {
            ("PL003", "clean.xml", "report.xml")
        } else {
            ("DA003", "clean.xml", "backfill.xml")
        };
        for (app, file) in [("producer", first), ("consumer", second)] {
            let xml = std::fs::read_to_string(root().join("corpus/invalid").join(rule).join(file))
                .unwrap()
                .replace("/data/clean/", &format!("/data/pipeline-{pair}/clean/"));
            let dir = repo.join(format!("pipeline-{pair:02}/{app}"));
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("coordinator.xml"), xml).unwrap();
        }
    }
    git(&repo, &["init", "-q"]);
    git(&repo, &["add", "."]);
    let out = try_repo(&tools, "coordc-check", &repo, &["--all-files"]);
    let text = all_output(&out);
    // (PL003 and DA003 are warnings.)
    assert_eq!(out.status.code(), Some(0), "{text}");
    let hook_output = hook_output(&text, "coordc-check");
    // The same files, in the order pre-commit gives them (git's), to one
    // coordc, its stderr in the same stream as pre-commit reads it.
    let listed = Command::new("git")
        .args(["ls-files", "*.xml"])
        .current_dir(&repo)
        .output()
        .unwrap();
    let files: Vec<String> = String::from_utf8_lossy(&listed.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(files.len(), 2 * pairs);
    let one_run = Command::new("sh")
        .args([
            "-c",
            "\"$0\" check \"$@\" 2>&1",
            env!("CARGO_BIN_EXE_coordc"),
        ])
        .args(&files)
        .current_dir(&repo)
        .output()
        .unwrap();
    let expected = String::from_utf8_lossy(&one_run.stdout);
    assert_eq!(hook_output.trim_end(), expected.trim_end());
    assert!(
        expected.contains(&format!("checked {} files", 2 * pairs)),
        "{expected}"
    );
    assert_eq!(hook_output.matches("warning[PL003]").count(), pairs / 2);
    assert_eq!(hook_output.matches("warning[DA003]").count(), pairs);
}

/// The repository hook checks every application when one file changes, so
/// a consumer is compared with a producer the commit does not touch.
#[test]
#[cfg_attr(
    any(missing_pre_commit, missing_coordc_wheel, missing_git_checkout),
    ignore = "skipped: needs pre-commit, a coordc wheel (scripts/build-wheels.sh --gnu-only target/wheels, then COORDC_WHEEL_DIR=$PWD/target/wheels) and a git checkout; .ci/run provides them"
)]
fn the_repository_hook_compares_with_applications_the_commit_leaves_alone() {
    let tools = hook_tools();
    let repo = common::fresh_dir("pre-commit-repository");
    for file in ["clean.xml", "report.xml"] {
        std::fs::copy(
            root().join("corpus/invalid/PL003").join(file),
            repo.join(file),
        )
        .unwrap();
    }
    git(&repo, &["init", "-q"]);
    git(&repo, &["add", "."]);
    let out = try_repo(
        &tools,
        "coordc-check-repository",
        &repo,
        &["--files", "report.xml"],
    );
    let text = all_output(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    let output = hook_output(&text, "coordc-check-repository");
    assert!(output.contains("warning[PL003]"), "{text}");
    assert!(output.contains("report.xml:10:6"), "{text}");
    // The file hook, given the consumer alone, has no producer to compare.
    let out = try_repo(&tools, "coordc-check", &repo, &["--files", "report.xml"]);
    let text = all_output(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    let output = hook_output(&text, "coordc-check");
    assert!(output.contains("checked 1 file"), "{text}");
    assert!(!output.contains("PL003"), "{text}");
}

/// pre-commit installs the root stub, which asks for the coordc of its own
/// version: the stub, its requirement and Cargo.toml must say one version.
#[test]
fn the_pre_commit_stub_requires_the_cargo_version() {
    let version = env!("CARGO_PKG_VERSION");
    let setup = std::fs::read_to_string(root().join("setup.cfg")).unwrap();
    let lines: Vec<&str> = setup.lines().map(str::trim).collect();
    assert!(lines.contains(&"name = coordc-pre-commit"), "{setup}");
    assert!(
        lines.contains(&format!("version = {version}").as_str()),
        "{setup}"
    );
    assert!(
        lines.contains(&format!("install_requires = coordc=={version}").as_str()),
        "{setup}"
    );
    let pyproject: toml::Table =
        toml::from_str(&std::fs::read_to_string(root().join("python/pyproject.toml")).unwrap())
            .unwrap();
    // The wheel's version is Cargo.toml's: maturin reads it there.
    let dynamic = pyproject["project"]["dynamic"].as_array().unwrap();
    assert!(dynamic.iter().any(|v| v.as_str() == Some("version")));
    assert_eq!(
        pyproject["tool"]["maturin"]["manifest-path"].as_str(),
        Some("../Cargo.toml")
    );
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
