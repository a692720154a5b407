//! Embeds every XML schema in `grammar/xsd/` (adding a schema version means
//! adding a file there; src/xml/schema.rs reads the list this writes) and
//! every rule page in `docs/rules/` (`coordc explain`).

use std::fmt::Write;
use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("grammar/xsd");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("grammar/xsd exists")
        .map(|entry| entry.expect("a readable directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "xsd"))
        .collect();
    files.sort();
    let mut out = String::from(
        "/// `(file name, text)` of every schema in grammar/xsd/.\npub static SCHEMA_FILES: &[(&str, &str)] = &[\n",
    );
    for path in files {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = path.file_name().expect("a file name").to_string_lossy();
        writeln!(
            out,
            "    ({name:?}, include_str!({:?})),",
            path.display().to_string()
        )
        .expect("writing to a String");
    }
    out.push_str("];\n");
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    std::fs::write(Path::new(&out_dir).join("schemas.rs"), out).expect("OUT_DIR is writable");
    std::fs::write(Path::new(&out_dir).join("rule_pages.rs"), rule_pages())
        .expect("OUT_DIR is writable");
}

/// Every rule's page in docs/rules/, for `coordc explain CODE`.
fn rule_pages() -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut pages: Vec<_> = std::fs::read_dir(&dir)
        .expect("docs/rules exists")
        .map(|entry| entry.expect("a readable directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    let mut out = String::from(
        "/// `(code, page)` of every rule page in docs/rules/.\npub static RULE_PAGES: &[(&str, &str)] = &[\n",
    );
    for path in pages {
        println!("cargo:rerun-if-changed={}", path.display());
        let code = path.file_stem().expect("a file name").to_string_lossy();
        writeln!(
            out,
            "    ({code:?}, include_str!({:?})),",
            path.display().to_string()
        )
        .expect("writing to a String");
    }
    out.push_str("];\n");
    out
}
