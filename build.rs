//! Embeds every XML schema in `grammar/xsd/` with its target namespace
//! (adding a schema version means adding a file there; src/xml/schema.rs
//! reads the list this writes) and every rule page in `docs/rules/`
//! (`coordc explain`); and tells the tests which of the programs some of
//! them run are missing here (`probe_test_programs`).

use std::fmt::Write;
use std::path::Path;

fn main() {
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let mut schemas = String::from(
        "/// `(file name, target namespace or \"\", text)` of every schema in grammar/xsd/.\npub static SCHEMA_FILES: &[(&str, &str, &str)] = &[\n",
    );
    for path in files("grammar/xsd", "xsd") {
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{} cannot be read: {e}", path.display()));
        writeln!(
            schemas,
            "    ({:?}, {:?}, include_str!({:?})),",
            path.file_name().expect("a file name").to_string_lossy(),
            target_namespace(&text),
            path.display().to_string()
        )
        .expect("writing to a String");
    }
    schemas.push_str("];\n");
    std::fs::write(Path::new(&out_dir).join("schemas.rs"), schemas).expect("OUT_DIR is writable");
    let mut pages = String::from(
        "/// `(code, page)` of every rule page in docs/rules/.\npub static RULE_PAGES: &[(&str, &str)] = &[\n",
    );
    for path in files("docs/rules", "md") {
        writeln!(
            pages,
            "    ({:?}, include_str!({:?})),",
            path.file_stem().expect("a file name").to_string_lossy(),
            path.display().to_string()
        )
        .expect("writing to a String");
    }
    pages.push_str("];\n");
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
    probe_test_programs();
}

/// Every file of folder `dir` ending in `.extension`, in name order (each
/// a reason to build again when it changes).
fn files(dir: &str, extension: &str) -> Vec<std::path::PathBuf> {
    // (Read when the script runs, not when it was compiled: a compiled
    // script can be reused for a copy of the package elsewhere, as
    // `cargo install --path` from a clone does with a shared target folder.)
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let dir = Path::new(&manifest).join(dir);
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{} cannot be read: {e}", dir.display()))
        .map(|entry| entry.expect("a readable directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == extension))
        .collect();
    files.sort();
    for path in &files {
        println!("cargo:rerun-if-changed={}", path.display());
    }
    files
}

/// The `targetNamespace` of the `<xs:schema>` start tag of schema `text`
/// (comments skipped), or "" when it has none; src/xml/schema.rs files each
/// schema under it, to read it only when a document needs it, and checks it
/// against the attribute when it reads the file.
fn target_namespace(text: &str) -> String {
    let mut rest = text;
    loop {
        let tag = rest.find('<').map(|i| &rest[i..]).unwrap_or("");
        if let Some(comment) = tag.strip_prefix("<!--") {
            rest = comment.find("-->").map_or("", |end| &comment[end + 3..]);
        } else if let Some(declaration) = tag.strip_prefix("<?") {
            rest = declaration;
        } else {
            let start = tag.find('>').map_or(tag, |end| &tag[..end]);
            return start
                .split_once("targetNamespace=\"")
                .and_then(|(_, value)| value.split_once('"'))
                .map_or_else(String::new, |(value, _)| value.to_string());
        }
    }
}

/// The programs beyond Rust and Python that some integration tests run,
/// each with the `cfg` set when it is missing and where it may be. A test
/// that needs one carries `#[cfg_attr(missing_X, ignore = "skipped: ...")]`,
/// so `cargo test` prints it as ignored with the reason instead of `ok`.
/// Under `CI` nothing is marked missing: those tests run, and fail where a
/// program is absent (`.ci/run` installs them all).
const TEST_PROGRAMS: &[(&str, &[&str])] = &[
    ("missing_rsvg_convert", &["rsvg-convert"]),
    ("missing_groff", &["groff"]),
    ("missing_gnu_time", &["/usr/bin/time"]),
    ("missing_neovim", &["/usr/bin/nvim", ".venv-tools/bin/nvim"]),
    (
        "missing_pre_commit",
        &[".venv-tools/bin/pre-commit", "pre-commit"],
    ),
    ("missing_xmllint", &["xmllint"]),
    ("missing_script", &["script"]),
    ("missing_java", &["java"]),
    // tests/export/verify.rs proves exported DAGs with Apache Airflow, from
    // the virtual environment .ci/run makes (airflow-runtime/requirements-verify.txt).
    ("missing_airflow", &[".venv-airflow/bin/python"]),
];

fn probe_test_programs() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let path = std::env::var_os("PATH").unwrap_or_default();
    let ci = std::env::var_os("CI").is_some();
    println!("cargo:rerun-if-env-changed=CI");
    println!("cargo:rerun-if-env-changed=PATH");
    // (The tests' own overrides: a program named there counts as present.)
    println!("cargo:rerun-if-env-changed=NVIM_BINS");
    println!("cargo:rerun-if-env-changed=COORDC_PRE_COMMIT");
    println!("cargo:rerun-if-env-changed=COORDC_JAVA");
    println!("cargo:rerun-if-env-changed=COORDC_AIRFLOW_PYTHON");
    // The pre-commit tests install the hooks from a wheel built beforehand
    // (a release build is minutes), and clone this checkout.
    println!("cargo:rerun-if-env-changed=COORDC_WHEEL_DIR");
    println!("cargo::rustc-check-cfg=cfg(missing_coordc_wheel)");
    if !ci && std::env::var_os("COORDC_WHEEL_DIR").is_none() {
        println!("cargo:rustc-cfg=missing_coordc_wheel");
    }
    println!("cargo::rustc-check-cfg=cfg(missing_git_checkout)");
    if !ci && !Path::new(&manifest).join(".git").exists() {
        println!("cargo:rustc-cfg=missing_git_checkout");
    }
    // Installing a program changes its folder: the probe runs again.
    for dir in std::env::split_paths(&path).filter(|d| d.is_dir()) {
        println!("cargo:rerun-if-changed={}", dir.display());
    }
    for venv in [".venv-tools/bin", ".venv-airflow/bin"] {
        let venv = Path::new(&manifest).join(venv);
        if venv.is_dir() {
            println!("cargo:rerun-if-changed={}", venv.display());
        }
    }
    let overridden = |cfg: &str| match cfg {
        "missing_neovim" => std::env::var_os("NVIM_BINS").is_some(),
        "missing_pre_commit" => std::env::var_os("COORDC_PRE_COMMIT").is_some(),
        "missing_java" => std::env::var_os("COORDC_JAVA").is_some(),
        "missing_airflow" => std::env::var_os("COORDC_AIRFLOW_PYTHON").is_some(),
        _ => false,
    };
    for (cfg, places) in TEST_PROGRAMS {
        println!("cargo::rustc-check-cfg=cfg({cfg})");
        let found = places.iter().any(|place| {
            if place.contains('/') {
                Path::new(&manifest).join(place).is_file()
            } else {
                std::env::split_paths(&path).any(|dir| dir.join(place).is_file())
            }
        });
        if !ci && !found && !overridden(cfg) {
            println!("cargo:rustc-cfg={cfg}");
        }
    }
}
