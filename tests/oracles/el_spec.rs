//! Every `${...}` of the spec documents (corpus/el/spec-expressions.tsv, extracted
//! by scripts/extract_spec_el.py): coordc parses exactly those commons-el 1.0
//! parses (the column computed by the oracle); the spec's signature notation such
//! as `${coord:days(int n)}` is rejected by both. The static checks' findings on
//! the rest are snapshotted: they name the spec's typos (e.g. `coord:hoursInDays`).

use coordc::check::el::{ElCheckContext, check_template};
use coordc::el::{Library, parse_template};
use std::fmt::Write;

#[test]
fn spec_expressions_parse_as_commons_el_parses_them() {
    let table = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/corpus/el/spec-expressions.tsv"
    ))
    .unwrap();
    let mut rows = 0;
    let mut disagreements = Vec::new();
    let mut findings = String::new();
    for line in table.lines().filter(|l| !l.starts_with('#')) {
        let cols: Vec<&str> = line.splitn(4, '\t').collect();
        let (file, lineno, parses, expr) = (cols[0], cols[1], cols[2] == "yes", cols[3]);
        rows += 1;
        match parse_template(expr, 0) {
            Ok(t) if parses => {
                // Workflow expressions come from the workflow spec (004).
                let library = if file.starts_with("004") {
                    Library::Workflow
                } else {
                    Library::Coordinator
                };
                for d in check_template(
                    &t,
                    &ElCheckContext {
                        library,
                        known_variables: None,
                    },
                ) {
                    writeln!(
                        findings,
                        "{file}:{lineno} {expr}\n    {} {}",
                        d.code, d.message
                    )
                    .unwrap();
                }
            }
            Err(_) if !parses => {}
            other => disagreements.push(format!(
                "{file}:{lineno} {expr}: commons-el parses={parses}, coordc={}",
                other.is_ok()
            )),
        }
    }
    assert!(rows >= 200, "only {rows} spec expressions");
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
    insta::assert_snapshot!(findings);
}
