//! The invariants of docs/architecture.md ("Architecture invariants") that
//! the source text shows, read from every library file outside its unit
//! tests (which may load applications through `project`, as a user would):
//! - the layers of `src/` import one way: each top-level module names only
//!   the modules of the layers below it (`crate::MODULE`), never one above,
//!   nor another module of its own layer;
//! - only the edges (`cli/`, `lsp/`) print;
//! - the library reads no clock (the edges read it and pass the year in);
//! - every rule page names the modules that make or read its diagnostics.

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
    // Exports to other schedulers, from loaded applications.
    &["export"],
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

/// Every library source file, relative to `src/`, with its text before its
/// unit tests.
fn library_sources() -> Vec<(String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    files
        .iter()
        .map(|file| {
            let relative = file.strip_prefix(&src).expect("under src/");
            let text = std::fs::read_to_string(file).expect("a readable source file");
            (
                relative.display().to_string(),
                without_tests(&text).to_string(),
            )
        })
        .collect()
}

/// Whether `text` holds `word` with no identifier character on either side.
fn has_word(text: &str, word: &str) -> bool {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

#[test]
fn only_the_edges_print() {
    // (docs/architecture.md, "Architecture invariants": below `cli/` and
    // `lsp/`, everything returns data.)
    const PRINTING: [&str; 8] = [
        "println!",
        "print!",
        "eprintln!",
        "eprint!",
        "dbg!",
        "stdout()",
        "stderr()",
        "stdin()",
    ];
    let wrong: Vec<String> = library_sources()
        .into_iter()
        .filter(|(file, _)| !file.starts_with("cli/") && !file.starts_with("lsp/"))
        .filter(|(file, _)| file != "main.rs")
        .flat_map(|(file, text)| {
            PRINTING
                .iter()
                .filter(|p| {
                    has_word(&text, p.trim_end_matches(['!', '(', ')'])) && text.contains(*p)
                })
                .map(move |p| format!("src/{file}: {p}"))
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "printing below the edges:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_library_reads_no_clock() {
    // Simulated time is the only time: what coordc computes is a function
    // of its input. Even Quartz's bound (its CronExpression looks for fire
    // times up to the year the server started plus 100, MAX_YEAR) is given:
    // the edges read the year and pass it in (`time::cron::MaxYear`).
    const CLOCKS: [&str; 4] = ["Utc::now", "Local::now", "SystemTime::now", "Instant::now"];
    let mut readers: Vec<String> = library_sources()
        .into_iter()
        .filter(|(file, _)| !file.starts_with("cli/") && !file.starts_with("lsp/"))
        .filter(|(_, text)| CLOCKS.iter().any(|c| text.contains(c)))
        .map(|(file, _)| file)
        .collect();
    readers.sort();
    assert!(
        readers.is_empty(),
        "library files that read the clock: {readers:?}"
    );
}

#[test]
fn every_rule_page_names_the_modules_that_make_or_read_its_diagnostics() {
    // A code's constant in diag/rules.rs, named in a module outside diag/
    // (where the registries are), is that module making the rule's
    // diagnostics or reading them (a follow-on check, a filter).
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rules = std::fs::read_to_string(root.join("src/diag/rules.rs")).expect("rules.rs");
    let sources: Vec<(String, String)> = library_sources()
        .into_iter()
        .filter(|(file, _)| !file.starts_with("diag/"))
        .collect();
    let mut wrong = Vec::new();
    let mut pages = 0;
    for line in rules.lines() {
        let Some(rest) = line
            .strip_prefix("pub const ")
            .or_else(|| line.strip_prefix("pub(crate) const "))
        else {
            continue;
        };
        let Some((name, code)) = rest.split_once(": Code = Code(\"") else {
            continue;
        };
        let code = code.trim_end_matches("\");");
        let modules: Vec<String> = sources
            .iter()
            .filter(|(_, text)| has_word(text, name))
            .map(|(file, _)| format!("`src/{file}`"))
            .collect();
        let expected = format!("**In the code.** {}.", modules.join(", "));
        let page =
            std::fs::read_to_string(root.join(format!("docs/rules/{code}.md"))).unwrap_or_default();
        pages += 1;
        if !page.lines().any(|l| l == expected) {
            wrong.push(format!(
                "docs/rules/{code}.md: expected the line\n{expected}"
            ));
        }
    }
    assert!(
        pages > 80,
        "the rules' constants were not found in rules.rs"
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
