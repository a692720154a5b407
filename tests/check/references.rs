//! The repository's references stand alone: nothing in it points to a file it
//! does not hold. Three checks over every text file (walked with std::fs):
//!
//! * no reference to the research notes the project was built from, to the
//!   development corpus's spec copies, or to the development corpus
//!   (`../shared`) outside the scripts that read it and say so;
//! * every Oozie citation `ABBR:N` uses an abbreviation docs/oozie-sources.md
//!   defines in its tables;
//! * every repository path docs/*.md and docs/rules/*.md name (in backticks
//!   or not) exists.
//!
//! The exceptions are the explicit lists below, each with its reason.

use globset::Glob;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Folders not walked: build output, version control, the Python tools'
/// environment, and what cargo-fuzz generates (fuzz/.gitignore).
const SKIPPED_DIRS: &[&str] = &[
    "target",
    ".git",
    ".venv-tools",
    ".venv-airflow",
    "__pycache__",
    "fuzz/target",
    "fuzz/corpus",
    "fuzz/artifacts",
    "fuzz/coverage",
];

/// This file: it spells out the references it forbids.
const SELF: &str = "tests/check/references.rs";

/// Text that points to notes that are not in the repository (lowercase; the
/// search ignores case), and why each is not allowed.
const FORBIDDEN: &[(&str, &str)] = &[
    ("research/", "the research notes are not in the repository"),
    (
        "research note",
        "the research notes are not in the repository",
    ),
    ("research §", "a section of the research notes"),
    ("fact sheet", "the research notes' fact sheet"),
    ("oozie-engine.md", "a research note"),
    ("oozie-semantics.md", "a research note"),
    ("oozie-validations.md", "a research note"),
    ("lsp-testing.md", "a research note"),
    (
        "/work/shared",
        "a copy of the development corpus on one machine",
    ),
];

/// The development corpus, beside the project; only the scripts below read
/// it, and each says it is kept outside this repository.
const DEVELOPMENT_CORPUS: &str = "../shared";

/// The files that read the development corpus (real-world applications, JVM
/// oracles, spec copies): each must say, in these words, that it is
/// "outside this repository".
const READS_DEVELOPMENT_CORPUS: &[&str] = &[
    ".ci/run",
    "scripts/difffuzz.sh",
    "scripts/difffuzz/OracleRunner.java",
    "scripts/difffuzz/fidelity_cases.py",
    "scripts/difffuzz/gen.py",
    "scripts/difffuzz/run.py",
    "scripts/extract_spec_el.py",
    "scripts/fuzz-seeds.sh",
    "scripts/gen_calendar_cases.py",
    "scripts/gen_cron_cases.py",
    "scripts/gen_el_cases.py",
    "scripts/realworld-bundles.sh",
    "scripts/realworld-check.sh",
    "scripts/realworld-dryrun.sh",
    "scripts/realworld-export.sh",
    "scripts/realworld-simulate-workflows.sh",
    "scripts/realworld-simulate.sh",
    "scripts/realworld_tree.py",
    "scripts/record-outputs.sh",
];

/// Not searched for citations: the cases the JVM oracles computed, whose
/// text is formatted datetimes (`AM:0184`, `UTC22:0010T`), not prose.
const NOT_PROSE: &[&str] = &["tests/data/"];

/// Tokens shaped like an abbreviation before `:digit` that are no citation.
fn not_a_citation(token: &str) -> Option<&'static str> {
    let bytes = token.as_bytes();
    // `T24:00`, `T00:00`: the time designator of an ISO 8601 datetime.
    if bytes.len() == 3 && bytes[0] == b'T' && bytes[1..].iter().all(u8::is_ascii_digit) {
        return Some("an ISO 8601 time");
    }
    None
}

/// Paths named in docs that are not in the repository on purpose.
const PATH_EXCEPTIONS: &[(&str, &str)] = &[(
    "docs/src/site/markdown",
    "Oozie's own repository, where its specifications are",
)];

/// Placeholders in paths the docs name (`corpus/invalid/CODE/`): each stands
/// for one path segment, and at least one existing path must match.
const PLACEHOLDERS: &[(&str, &str)] = &[
    ("CODE", "a rule's code"),
    ("TARGET", "a fuzz target's name"),
];

/// The top-level folders whose paths docs name.
const PATH_ROOTS: &[&str] = &[
    "benches", "corpus", "docs", "examples", "fuzz", "grammar", "scripts", "src", "tests", "tools",
];

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every file and folder under the repository, as `/`-separated relative
/// paths, without the skipped folders.
struct Tree {
    files: BTreeSet<String>,
    dirs: BTreeSet<String>,
}

fn walk(root: &Path) -> Tree {
    let mut tree = Tree {
        files: BTreeSet::new(),
        dirs: BTreeSet::new(),
    };
    let mut pending = vec![String::new()];
    while let Some(rel) = pending.pop() {
        let dir = root.join(&rel);
        let entries = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
        for entry in entries {
            let entry = entry.unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = if rel.is_empty() {
                name
            } else {
                format!("{rel}/{name}")
            };
            if SKIPPED_DIRS.contains(&path.as_str()) {
                continue;
            }
            let kind = entry
                .file_type()
                .unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
            if kind.is_dir() {
                tree.dirs.insert(path.clone());
                pending.push(path);
            } else {
                tree.files.insert(path);
            }
        }
    }
    tree
}

/// The files' text; files that are not UTF-8 (images, binaries) are left out.
fn texts(root: &Path, tree: &Tree) -> Vec<(String, String)> {
    tree.files
        .iter()
        .filter_map(|path| {
            let bytes = std::fs::read(root.join(path))
                .unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
            String::from_utf8(bytes)
                .ok()
                .map(|text| (path.clone(), text))
        })
        .collect()
}

fn line_of(text: &str, offset: usize) -> usize {
    text[..offset].matches('\n').count() + 1
}

/// The words of `text` with comment leaders (`#`, `*`, `//!`...) dropped, one
/// space apart: a phrase wrapped over comment lines reads as one.
fn words(text: &str) -> String {
    text.split_whitespace()
        .filter(|w| !w.chars().all(|c| matches!(c, '#' | '*' | '/' | '!')))
        .collect::<Vec<_>>()
        .join(" ")
}

fn forbidden_references(path: &str, text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let lower = text.to_lowercase();
    for (needle, why) in FORBIDDEN {
        for (at, _) in lower.match_indices(needle) {
            found.push(format!("{path}:{}: `{needle}`: {why}", line_of(&lower, at)));
        }
    }
    if let Some(at) = text.find(DEVELOPMENT_CORPUS) {
        if !READS_DEVELOPMENT_CORPUS.contains(&path) {
            found.push(format!(
                "{path}:{}: `{DEVELOPMENT_CORPUS}`: the development corpus is not in the repository; only the scripts that read it name it",
                line_of(text, at)
            ));
        } else if !words(text).contains("outside this repository") {
            found.push(format!(
                "{path}: reads `{DEVELOPMENT_CORPUS}` but does not say it is kept outside this repository"
            ));
        }
    }
    found
}

/// The abbreviations of docs/oozie-sources.md: the first cell of each table
/// row, when it is shaped as one.
fn defined_abbreviations(sources: &str) -> BTreeSet<String> {
    sources
        .lines()
        .filter_map(|line| {
            let cell = line.strip_prefix('|')?.split('|').next()?.trim();
            is_abbreviation(cell).then(|| cell.to_string())
        })
        .collect()
}

/// 2 to 6 capital letters and digits, starting with a letter.
fn is_abbreviation(token: &str) -> bool {
    let bytes = token.as_bytes();
    (2..=6).contains(&bytes.len())
        && bytes[0].is_ascii_uppercase()
        && bytes
            .iter()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
}

/// Every `ABBR:N` of `text`: an abbreviation that starts a word (not after a
/// letter, digit, `_`, `.`, `/` or `-`, so `01T24:00` and `a/B:1` are not
/// one), right before `:` and a digit. With its byte offset.
fn citations(text: &str) -> Vec<(usize, &str)> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    for (colon, _) in text.match_indices(':') {
        if !bytes.get(colon + 1).is_some_and(u8::is_ascii_digit) {
            continue;
        }
        let mut start = colon;
        while start > 0 && (bytes[start - 1].is_ascii_alphanumeric()) {
            start -= 1;
        }
        if start > 0 && matches!(bytes[start - 1], b'_' | b'.' | b'/' | b'-') {
            continue;
        }
        let token = &text[start..colon];
        if is_abbreviation(token) {
            found.push((start, token));
        }
    }
    found
}

fn undefined_citations(path: &str, text: &str, defined: &BTreeSet<String>) -> Vec<String> {
    citations(text)
        .into_iter()
        .filter(|(_, token)| !defined.contains(*token) && not_a_citation(token).is_none())
        .map(|(at, token)| {
            format!(
                "{path}:{}: `{token}:` cites an abbreviation docs/oozie-sources.md does not define",
                line_of(text, at)
            )
        })
        .collect()
}

/// The repository paths a doc names: a word starting with one of
/// PATH_ROOTS and `/` (not inside another path or a URL), up to the last
/// letter, digit, `_` or `*` of its path characters.
fn named_paths(text: &str) -> Vec<(usize, &str)> {
    let bytes = text.as_bytes();
    let is_path_char =
        |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'/' | b'-' | b'*');
    let mut found = Vec::new();
    for root in PATH_ROOTS {
        let prefix = format!("{root}/");
        for (start, _) in text.match_indices(&prefix) {
            if start > 0 && is_path_char(bytes[start - 1]) {
                continue;
            }
            let mut end = start + prefix.len();
            while end < bytes.len() && is_path_char(bytes[end]) {
                end += 1;
            }
            while end > start && matches!(bytes[end - 1], b'.' | b'/' | b'-') {
                end -= 1;
            }
            found.push((start, &text[start..end]));
        }
    }
    found
}

fn path_exists(path: &str, tree: &Tree) -> bool {
    // A placeholder is a whole segment or a file name's stem (`CODE.md`).
    let pattern = path
        .split('/')
        .map(|segment| {
            segment
                .split('.')
                .map(|part| {
                    if PLACEHOLDERS.iter().any(|(p, _)| *p == part) {
                        "*"
                    } else {
                        part
                    }
                })
                .collect::<Vec<_>>()
                .join(".")
        })
        .collect::<Vec<_>>()
        .join("/");
    if !pattern.contains('*') {
        return tree.files.contains(&pattern) || tree.dirs.contains(&pattern);
    }
    let glob = Glob::new(&pattern)
        .unwrap_or_else(|e| panic!("`{path}` is not a glob: {e}"))
        .compile_matcher();
    tree.files
        .iter()
        .chain(&tree.dirs)
        .any(|p| glob.is_match(p))
}

fn missing_paths(path: &str, text: &str, tree: &Tree) -> Vec<String> {
    named_paths(text)
        .into_iter()
        .filter(|(_, named)| {
            !PATH_EXCEPTIONS
                .iter()
                .any(|(exception, _)| named.starts_with(exception))
                && !SKIPPED_DIRS
                    .iter()
                    .any(|skipped| named == skipped || named.starts_with(&format!("{skipped}/")))
                && !path_exists(named, tree)
        })
        .map(|(at, named)| {
            format!(
                "{path}:{}: `{named}` is not in the repository",
                line_of(text, at)
            )
        })
        .collect()
}

fn is_doc(path: &str) -> bool {
    let Some(name) = path
        .strip_prefix("docs/rules/")
        .or_else(|| path.strip_prefix("docs/"))
    else {
        return false;
    };
    name.ends_with(".md") && !name.contains('/')
}

#[test]
fn references_stand_alone() {
    let root = repo();
    let tree = walk(&root);
    let texts = texts(&root, &tree);
    let sources = texts
        .iter()
        .find(|(path, _)| path == "docs/oozie-sources.md")
        .map(|(_, text)| text)
        .expect("docs/oozie-sources.md defines the citations");
    let defined = defined_abbreviations(sources);
    assert!(
        defined.contains("CAIC") && defined.contains("TCMT"),
        "docs/oozie-sources.md's tables were not read: {defined:?}"
    );

    let mut problems = Vec::new();
    let (mut cited, mut named, mut docs) = (0, 0, 0);
    for (path, text) in &texts {
        if path == SELF {
            continue;
        }
        problems.extend(forbidden_references(path, text));
        if !NOT_PROSE.iter().any(|prefix| path.starts_with(prefix)) {
            cited += citations(text).len();
            problems.extend(undefined_citations(path, text, &defined));
        }
        if is_doc(path) {
            docs += 1;
            named += named_paths(text).len();
            problems.extend(missing_paths(path, text, &tree));
        }
    }
    for reader in READS_DEVELOPMENT_CORPUS {
        assert!(
            tree.files.contains(*reader),
            "{reader} is listed as reading the development corpus but is not in the repository"
        );
    }
    assert!(
        problems.is_empty(),
        "{} references to what the repository does not hold:\n{}",
        problems.len(),
        problems.join("\n")
    );
    println!(
        "{} text files: no outside reference; {cited} Oozie citations, {} abbreviations defined; {named} paths named in {docs} docs, all there",
        texts.len(),
        defined.len()
    );
}

#[test]
fn citations_are_abbreviations_before_a_line_number() {
    let text = "CAIC:116-133, TCMT:602; P1:82 and (OD:1537). Not: 2009-01-01T24:00Z, \
                a T24:00 time, foo_CMT:1, src/A.rs:12, CMT: 5, Cmt:5, ABCDEFG:1, 10:00.";
    let tokens: Vec<&str> = citations(text).into_iter().map(|(_, t)| t).collect();
    assert_eq!(tokens, ["CAIC", "TCMT", "P1", "OD", "T24"]);
    assert_eq!(not_a_citation("T24"), Some("an ISO 8601 time"));
    assert_eq!(not_a_citation("CAIC"), None);
}

#[test]
fn undefined_abbreviations_are_reported_at_their_line() {
    let defined =
        defined_abbreviations("| abbreviation | file |\n|---|---|\n| CAIC | `x.java` |\n");
    assert_eq!(defined, BTreeSet::from(["CAIC".to_string()]));
    let problems = undefined_citations("a.md", "CAIC:1\nsee CPDC:245 at T00:00", &defined);
    assert_eq!(
        problems,
        ["a.md:2: `CPDC:` cites an abbreviation docs/oozie-sources.md does not define"]
    );
}

#[test]
fn outside_references_are_reported() {
    let problems = forbidden_references(
        "docs/x.md",
        "as the Fact Sheet says\n(`../shared/realworld`)",
    );
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems[0].starts_with("docs/x.md:1: `fact sheet`"));
    assert!(problems[1].starts_with("docs/x.md:2: `../shared`"));
    let unsaid = forbidden_references("scripts/realworld-check.sh", "ROOT=../shared/realworld");
    assert_eq!(unsaid.len(), 1, "{unsaid:?}");
    let said = forbidden_references(
        "scripts/realworld-check.sh",
        "# reads ../shared/realworld (the development corpus, kept outside this\n# repository)",
    );
    assert!(said.is_empty(), "{said:?}");
}

#[test]
fn named_paths_end_at_their_last_path_character() {
    let text = "`src/check/el.rs:12`, tests/simulate/*.rs. In corpus/invalid/CODE/ and \
                core/src/main/x, https://oozie.apache.org/docs/5.2.1/ and (docs/time.md).";
    let paths: Vec<&str> = named_paths(text).into_iter().map(|(_, p)| p).collect();
    assert_eq!(
        paths,
        [
            "corpus/invalid/CODE",
            "docs/time.md",
            "src/check/el.rs",
            "tests/simulate/*.rs"
        ]
    );
    let tree = walk(&repo());
    assert!(path_exists("corpus/invalid/CODE", &tree));
    assert!(path_exists("tests/simulate/*.rs", &tree));
    assert!(!path_exists("docs/no-such-page.md", &tree));
}
