//! `coordc completions SHELL` and `coordc man` (issue 22): the scripts and
//! the page are generated from the same definitions as `--help`, so every
//! command and option is in them; each is checked the way its consumer reads
//! it (bash completes with it, groff renders the page without a warning).

use crate::common;

use std::process::Command;

const COMMANDS: &[&str] = &[
    "eval",
    "check",
    "dryrun",
    "simulate",
    "cron",
    "timezones",
    "rules",
    "explain",
    "completions",
    "man",
];

#[test]
fn every_shell_gets_a_script_naming_every_command() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = common::coordc(&["completions", shell]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{shell}: {}",
            common::stderr(&out)
        );
        let script = common::stdout(&out);
        for command in COMMANDS {
            assert!(script.contains(command), "{shell}: no {command}");
        }
        // (fish writes long options as `-l scenario`.)
        assert!(script.contains("scenario"), "{shell}: no --scenario");
    }
    let out = common::coordc(&["completions", "tcsh"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "an unknown shell is a usage error"
    );
}

/// Bash loads the script and completes `coordc si` to `simulate`, and the
/// options of `coordc simulate --sc` to `--scenario`.
#[test]
fn bash_completes_with_the_script() {
    let dir = common::fresh_dir("completions-bash");
    let script = dir.join("coordc.bash");
    std::fs::write(&script, common::coordc(&["completions", "bash"]).stdout).unwrap();
    let complete = |words: &str, cword: usize| {
        let out = Command::new("bash")
            .arg("-c")
            .arg(format!(
                "source {}; COMP_WORDS=({words}); COMP_CWORD={cword}; COMP_LINE='{words}'; COMP_POINT=${{#COMP_LINE}}; _coordc coordc \"${{COMP_WORDS[$COMP_CWORD]}}\" \"${{COMP_WORDS[$COMP_CWORD-1]}}\"; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
                script.display()
            ))
            .output()
            .expect("bash runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    assert_eq!(complete("coordc si", 1).trim(), "simulate");
    assert!(
        complete("coordc simulate --sc", 2)
            .lines()
            .any(|l| l == "--scenario")
    );
}

#[test]
fn the_manual_page_names_every_command() {
    let out = common::coordc(&["man"]);
    assert_eq!(out.status.code(), Some(0));
    let page = common::stdout(&out);
    assert!(page.contains(".TH coordc 1"), "{page}");
    for command in COMMANDS {
        assert!(page.contains(command), "no {command}");
    }
}

#[test]
#[cfg_attr(
    missing_groff,
    ignore = "skipped: no groff here (Debian: apt-get install groff-base)"
)]
fn groff_renders_the_manual_page_without_a_warning() {
    let out = common::coordc(&["man"]);
    assert_eq!(out.status.code(), Some(0));
    // -ww: every warning groff has.
    let dir = common::fresh_dir("man-page");
    let file = dir.join("coordc.1");
    std::fs::write(&file, &out.stdout).unwrap();
    let rendered = Command::new("groff")
        .args(["-man", "-Tutf8", "-ww"])
        .arg(&file)
        .output()
        .expect("groff runs (Debian: apt-get install groff-base)");
    assert!(rendered.status.success());
    assert_eq!(
        String::from_utf8_lossy(&rendered.stderr),
        "",
        "groff warned"
    );
    assert!(String::from_utf8_lossy(&rendered.stdout).contains("Oozie"));
}

#[test]
fn a_page_per_command_into_a_folder() {
    let dir = common::fresh_dir("man-pages").join("man1");
    let out = common::coordc(&["man", "--dir", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", common::stderr(&out));
    for command in ["coordc.1", "coordc-simulate.1", "coordc-check.1"] {
        let page = std::fs::read_to_string(dir.join(command)).unwrap();
        assert!(page.starts_with(".ie"), "{command}");
    }
    let simulate = std::fs::read_to_string(dir.join("coordc-simulate.1")).unwrap();
    assert!(simulate.contains("scenario"));
}
