//! The layers of `src/` import one way (docs/architecture.md, "Architecture
//! invariants"): each top-level module may name only the modules of the
//! layers below it, never one above, nor another module of its own layer.
//! Read from the source text: every `crate::MODULE` a file names outside
//! its unit tests (which may load applications through `project`, as a user
//! would).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The layers, bottom up. A module reads only what is below its layer.
const LAYERS: &[&[&str]] = &[
    // Text positions and the allocator.
    &["span", "lines", "alloc"],
    // Diagnostics as data, with the rule and fix registries.
    &["diag"],
    // Syntax: datetimes, zones, cron; XML and its schemas.
    &["time", "xml"],
    // The expression language (its datetime functions read `time`).
    &["el"],
    // The typed IR of an application; job configuration files.
    &["ir", "config"],
    // What Oozie does with an application at submission.
    &["oozie"],
    // Static checks, and the interpreters over simulated time, side by side.
    &["check", "interp"],
    // A run over files: discovery, loading, the checks of every document.
    &["project"],
    // The edges: the language server, then the command line, which starts it.
    &["lsp"],
    &["cli"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The text of a file before its unit tests: a `#[cfg(test)]` test module,
/// the last item of a file. (A test-only item elsewhere, such as a
/// `#[cfg(test)]` function, is read like the rest.)
fn without_tests(text: &str) -> &str {
    let mut from = 0;
    while let Some(at) = text[from..].find("#[cfg(test)]") {
        let at = from + at;
        let after = text[at + "#[cfg(test)]".len()..].trim_start();
        // (A test module may be `pub(crate)`, for other modules' tests.)
        let item = after
            .strip_prefix("pub(crate) ")
            .or_else(|| after.strip_prefix("pub "))
            .unwrap_or(after);
        if item.starts_with("mod ") {
            return &text[..at];
        }
        from = at + 1;
    }
    text
}

/// The top-level modules `text` names as `crate::MODULE`.
fn named_modules(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut rest = text;
    while let Some(at) = rest.find("crate::") {
        let after = &rest[at + "crate::".len()..];
        let name: String = after
            .chars()
            .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
            .collect();
        // (`coordc::crate::`-like text in comments does not occur; a word
        // ending in `crate::` would, and is skipped by the layer lookup.)
        if !name.is_empty() {
            found.insert(name);
        }
        rest = after;
    }
    found
}

#[test]
fn imports_run_one_way_through_the_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut wrong = Vec::new();
    let mut seen_modules = BTreeSet::new();
    for file in &files {
        let relative = file.strip_prefix(&src).expect("under src/");
        let Some(first) = relative.components().next() else {
            continue;
        };
        let module = first
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        if module == "lib" || module == "main" {
            continue;
        }
        let Some(own) = layer_of(&module) else {
            wrong.push(format!("src/{module}: in no layer (add it to LAYERS)"));
            continue;
        };
        seen_modules.insert(module.clone());
        let text = std::fs::read_to_string(file).expect("a readable source file");
        for named in named_modules(without_tests(&text)) {
            if named == module {
                continue;
            }
            let Some(theirs) = layer_of(&named) else {
                continue;
            };
            if theirs >= own {
                wrong.push(format!(
                    "src/{}: `{module}` (layer {own}) names `crate::{named}` (layer {theirs})",
                    relative.display()
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layers:\n{}",
        wrong.join("\n")
    );
    // Every module of the table exists: the table is not a stale list.
    for layer in LAYERS {
        for module in *layer {
            assert!(
                seen_modules.contains(*module),
                "LAYERS names `{module}`, which src/ does not have"
            );
        }
    }
}

#[test]
fn the_reader_finds_imports_and_skips_unit_tests() {
    let text = "use crate::diag::Diagnostic;\n#[cfg(test)]\nfn g() { crate::el::x(); }\nfn f() { crate::time::zone::x(); }\n#[cfg(test)]\nmod tests { use crate::project::load; }\n";
    let found = named_modules(without_tests(text));
    assert_eq!(
        found.into_iter().collect::<Vec<_>>(),
        ["diag".to_string(), "el".to_string(), "time".to_string()]
    );
}
