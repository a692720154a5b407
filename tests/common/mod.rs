//! Helpers shared by the integration tests: they drive the real `coordc` binary.
//! Each test binary uses a different subset of them.
#![allow(dead_code)]

use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

pub mod coordinator;
pub mod lsp;
pub mod rng;
pub mod simulate;

/// The repository's folder (where cargo runs the tests, too).
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

pub fn coordc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_coordc"))
        .args(args)
        .output()
        .expect("coordc runs")
}

pub fn coordc_stdin(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_coordc"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("coordc runs");
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = input.to_string();
    // Write from a thread so a large input cannot deadlock against a full stdout pipe.
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("coordc finishes");
    writer
        .join()
        .expect("writer thread")
        .expect("stdin accepted");
    out
}

/// An empty folder of the system's temporary one, named for `name`, this
/// test process and a count (the modules of one test binary run at once,
/// and two of them may choose the same name).
pub fn fresh_dir(name: &str) -> std::path::PathBuf {
    static MADE: AtomicUsize = AtomicUsize::new(0);
    let count = MADE.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("coordc-{name}-{}-{count}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs coordc in `dir`, so paths in its output are relative and stable.
pub fn coordc_in(dir: impl AsRef<Path>, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_coordc"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("coordc runs")
}

/// Renders an SVG to PNG with rsvg-convert (librsvg2-bin) and checks the
/// PNG's signature.
pub fn assert_svg_renders(svg: &[u8], dir: &std::path::Path, name: &str) {
    let input = dir.join(format!("{name}.svg"));
    let output = dir.join(format!("{name}.png"));
    std::fs::write(&input, svg).unwrap();
    let rendered = std::process::Command::new("rsvg-convert")
        .arg("-o")
        .arg(&output)
        .arg(&input)
        .output()
        .expect("rsvg-convert runs (Debian: apt-get install librsvg2-bin)");
    assert!(
        rendered.status.success(),
        "{name}: rsvg-convert: {}",
        String::from_utf8_lossy(&rendered.stderr)
    );
    let png = std::fs::read(&output).unwrap();
    assert!(
        png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 100,
        "{name}: not a PNG"
    );
}

/// Fails with the command's output unless it exited with `code`.
pub fn expect_code(out: &Output, code: i32, what: &str) {
    assert_eq!(
        out.status.code(),
        Some(code),
        "{what}: exit {:?}\nstdout: {}\nstderr: {}",
        out.status.code(),
        stdout(out).chars().take(3000).collect::<String>(),
        stderr(out)
    );
}

/// Every corpus coordinator that `coordc dryrun` lists (the spec's texts
/// written wrong on purpose, a bundle's coordinators that need the bundle,
/// `invalid/` and `lsp/` left out), by its path from the repository's folder.
pub fn corpus_coordinators_that_dry_run() -> Vec<String> {
    let mut apps = Vec::new();
    let mut stack = vec![root().join("corpus")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("a corpus folder") {
            let path = entry.expect("an entry").path();
            let name = path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .to_string();
            if path.is_dir() && name != "invalid" && name != "lsp" {
                stack.push(path);
            } else if name.ends_with(".xml")
                && std::fs::read_to_string(&path).is_ok_and(|t| t.contains("<coordinator-app"))
            {
                let relative = path
                    .strip_prefix(root())
                    .expect("in the corpus")
                    .display()
                    .to_string();
                if coordc_in(root(), &["dryrun", &relative, "--limit", "1"])
                    .status
                    .success()
                {
                    apps.push(relative);
                }
            }
        }
    }
    apps.sort();
    apps
}

/// `text` written to `dir/name` (its folders made first).
pub fn write(dir: &Path, name: &str, text: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().expect("a file in a folder")).expect("a folder");
    std::fs::write(&path, text).expect("written");
    path
}

/// A fresh folder (`fresh_dir(name)`) holding `files`, each a path in it
/// and its text.
pub fn folder<T: AsRef<[u8]>>(name: &str, files: &[(&str, T)]) -> PathBuf {
    let dir = fresh_dir(name);
    for (path, text) in files {
        write(&dir, path, text);
    }
    dir
}

/// `coordc check --format json ARGS` in `dir`: the exit code and the document.
pub fn check_json(dir: impl AsRef<Path>, args: &[&str]) -> (Option<i32>, Value) {
    let mut all = vec!["check", "--format", "json"];
    all.extend_from_slice(args);
    let out = coordc_in(dir, &all);
    let doc = serde_json::from_str(&stdout(&out))
        .unwrap_or_else(|e| panic!("one JSON document ({e}):\n{}{}", stdout(&out), stderr(&out)));
    (out.status.code(), doc)
}

/// The JSON document of `out`, which must have exited with 0 (`what` names
/// the run in a failure).
pub fn json_of(out: &Output, what: &str) -> Value {
    expect_code(out, 0, what);
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{what}: not JSON: {e}"))
}
