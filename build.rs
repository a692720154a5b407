//! Embeds every XML schema in `grammar/xsd/`: adding a schema version means
//! adding a file there (src/xml/schema.rs reads the list this writes).

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
    let target =
        Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("schemas.rs");
    std::fs::write(target, out).expect("OUT_DIR is writable");
}
