//! Helpers shared by the integration tests: they drive the real `coordc` binary.
//! Each test binary uses a different subset of them.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

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
pub fn coordc_in(dir: &str, args: &[&str]) -> Output {
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
pub mod lsp;
pub mod rng;
