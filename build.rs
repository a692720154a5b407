//! Embeds every XML schema in `grammar/xsd/` (adding a schema version means
//! adding a file there; src/xml/schema.rs reads the list this writes) and
//! every rule page in `docs/rules/` (`coordc explain`).

use std::fmt::Write;
use std::path::Path;

fn main() {
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let schemas = embed(
        "grammar/xsd",
        "xsd",
        "/// `(file name, text)` of every schema in grammar/xsd/.\npub static SCHEMA_FILES",
        |path| path.file_name(),
    );
    std::fs::write(Path::new(&out_dir).join("schemas.rs"), schemas).expect("OUT_DIR is writable");
    let pages = embed(
        "docs/rules",
        "md",
        "/// `(code, page)` of every rule page in docs/rules/.\npub static RULE_PAGES",
        |path| path.file_stem(),
    );
    std::fs::write(Path::new(&out_dir).join("rule_pages.rs"), pages).expect("OUT_DIR is writable");
    // The `coordc` binary is linked at a fixed address, not position
    // independent: its 39,000 pointers in constant tables (time zones,
    // schemas, the EL library) are then written by the linker instead of
    // being relocated by the loader at every start, and code reaches its
    // data without going through a table. (The library and the tests are
    // unchanged; only the linking of binaries differs.)
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}

/// Rust source for `declaration: &[(&str, &str)]`, the `(key, text)` of every
/// file of folder `dir` ending in `.extension`, in name order; `key` names
/// each from its path.
fn embed(
    dir: &str,
    extension: &str,
    declaration: &str,
    key: fn(&Path) -> Option<&std::ffi::OsStr>,
) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{} cannot be read: {e}", dir.display()))
        .map(|entry| entry.expect("a readable directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == extension))
        .collect();
    files.sort();
    let mut out = format!("{declaration}: &[(&str, &str)] = &[\n");
    for path in files {
        println!("cargo:rerun-if-changed={}", path.display());
        let key = key(&path).expect("a file name").to_string_lossy();
        writeln!(
            out,
            "    ({key:?}, include_str!({:?})),",
            path.display().to_string()
        )
        .expect("writing to a String");
    }
    out.push_str("];\n");
    out
}
