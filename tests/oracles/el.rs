//! Every case the real commons-el 1.0 computed (tests/data/*.jsonl, from
//! scripts/gen_el_cases.py and the development corpus's JVM oracle, kept
//! outside this repository) must come out of
//! `coordc eval --batch` with the same value and type, or fail where it failed.

use crate::common;

use serde_json::Value;

fn check_file(file: &str, min_cases: usize) {
    let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    let input = std::fs::read_to_string(&path).expect("case file");
    let cases: Vec<Value> = input
        .lines()
        .map(|l| serde_json::from_str(l).expect("case json"))
        .collect();
    assert!(
        cases.len() >= min_cases,
        "{file}: only {} cases",
        cases.len()
    );
    let out = common::coordc_stdin(&["eval", "--batch", "-"], &input);
    let results: Vec<Value> = common::stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("result json"))
        .collect();
    assert_eq!(
        results.len(),
        cases.len(),
        "{file}: one result line per case"
    );
    let mut mismatches = Vec::new();
    for (case, got) in cases.iter().zip(&results) {
        assert_eq!(case["id"], got["id"], "results come back in input order");
        let ok = case["ok"] == got["ok"]
            && (case["ok"] == false
                || (case["value"] == got["value"] && case["type"] == got["type"]));
        if !ok {
            mismatches.push(format!(
                "{} {}: want {} {} / got {}",
                case["id"], case["expr"], case["value"], case["type"], got
            ));
        }
    }
    assert!(
        mismatches.is_empty(),
        "{file}: {} mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}

/// The public commons-el cases: arithmetic, division, coercions, comparison,
/// logic, empty, ternary, strings, mixed text, syntax errors, random expressions.
#[test]
fn commons_el_public_cases() {
    check_file("el_cases.jsonl", 690);
}

/// Oozie's workflow-only basic functions (ELConstantsFunctions).
#[test]
fn workflow_function_cases() {
    check_file("el_wf_function_cases.jsonl", 19);
}

/// Every operator over a grid of operand types (JSP.2.3 and JSP.2.8, as commons-el
/// implements them).
#[test]
fn operator_coercion_matrix() {
    check_file("el_matrix_cases.jsonl", 6000);
}

/// Doubles print as Java's Double.toString (JDK <= 18 FloatingDecimal), including
/// the values where that is not the shortest form.
#[test]
fn java_double_printing() {
    check_file("java_double_cases.jsonl", 3000);
}

#[test]
fn malformed_batch_lines_get_their_own_error() {
    let input = "{\"id\": 1, \"expr\": \"${1+1}\", \"vars\": {}}\nnot json\n{\"id\": 3, \"expr\": \"${x}\", \"vars\": {\"x\": null}}\n";
    let out = common::coordc_stdin(&["eval", "--batch", "-"], input);
    let lines: Vec<Value> = common::stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["value"], "2");
    assert_eq!(lines[1]["ok"], false);
    assert!(lines[1]["error"].as_str().unwrap().contains("line 2"));
    assert_eq!(lines[2]["ok"], true);
    assert_eq!(lines[2]["type"], "null");
    assert_eq!(
        out.status.code(),
        Some(1),
        "a failed line makes the batch exit 1"
    );
}
