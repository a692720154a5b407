//! The fast parser (logos lexer + recursive descent) and the reference grammar
//! (`grammar/el.pest`) must accept exactly the same texts: the fast path decides
//! what parses, the reference grammar explains what does not. Checked on every
//! expression of the oracle files and the spec, on single-character mutations of
//! them, and on random token soups.

use crate::common;

use common::rng::Rng;
use coordc::diag::rules::EL_SYNTAX;
use coordc::el::parse::{parse_template, reference_grammar_accepts};

/// The fast path's verdict on the grammar alone: `None` when it rejected the text
/// for a reason beyond the grammar (a limit, an integer literal above Long.MAX).
fn fast_path_accepts(text: &str) -> Option<bool> {
    match parse_template(text, 0) {
        Ok(_) => Some(true),
        Err(d) if d.code == EL_SYNTAX && d.message.starts_with("integer literal") => None,
        Err(d) if d.code == EL_SYNTAX => {
            assert!(
                !d.message.contains("reference grammar accepts"),
                "{text:?}: {}",
                d.message
            );
            Some(false)
        }
        Err(_) => None,
    }
}

fn assert_agree(text: &str) -> bool {
    let Some(fast) = fast_path_accepts(text) else {
        return false;
    };
    assert_eq!(
        fast,
        reference_grammar_accepts(text),
        "the parsers disagree on {text:?} (fast path accepts: {fast})"
    );
    fast
}

/// The parsers agree on every text, and the texts test both sides of the
/// grammar: many accepted and many rejected.
fn assert_agree_on_both_sides(texts: &[String]) {
    let accepted = texts.iter().filter(|t| assert_agree(t)).count();
    let rejected = texts.len() - accepted;
    assert!(
        accepted > 1000 && rejected > 1000,
        "{accepted} / {rejected}"
    );
}

fn corpus() -> Vec<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
    let mut texts = Vec::new();
    for file in [
        "el_cases.jsonl",
        "el_matrix_cases.jsonl",
        "el_wf_function_cases.jsonl",
    ] {
        let data = std::fs::read_to_string(format!("{dir}/{file}")).unwrap();
        for line in data.lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            texts.push(v["expr"].as_str().unwrap().to_string());
        }
    }
    let spec = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/corpus/el/spec-expressions.tsv"
    ))
    .unwrap();
    for line in spec.lines().filter(|l| !l.starts_with('#')) {
        if let Some(expr) = line.splitn(4, '\t').nth(3) {
            texts.push(expr.to_string());
        }
    }
    texts
}

/// A draw of `rng` in `0..n`, as an index.
fn index(rng: &mut Rng, n: usize) -> usize {
    rng.below(n as u64) as usize
}

#[test]
fn corpus_texts_parse_alike() {
    let texts = corpus();
    assert!(texts.len() > 7000, "{} texts", texts.len());
    let accepted = texts.iter().filter(|t| assert_agree(t)).count();
    assert!(accepted > 6000, "{accepted} accepted");
}

#[test]
fn mutated_texts_parse_alike() {
    // Each mutation deletes, duplicates or replaces one character, so the
    // texts sit right at the edge of the grammar.
    const ALPHABET: &[char] = &[
        '(', ')', '[', ']', '{', '}', '$', '.', ',', ':', '?', '\'', '"', '\\', '=', '!', '<', '>',
        '&', '|', '+', '-', '*', '/', '%', '#', 'e', 'E', '0', '9', ' ', '\u{c}', 'é',
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut texts = Vec::new();
    for text in corpus().iter().step_by(3) {
        let chars: Vec<char> = text.chars().collect();
        for _ in 0..4 {
            let mut m = chars.clone();
            let at = index(&mut rng, m.len().max(1));
            match index(&mut rng, 3) {
                0 if !m.is_empty() => {
                    m.remove(at);
                }
                1 if !m.is_empty() => m.insert(at, m[at]),
                _ => m.insert(at.min(m.len()), ALPHABET[index(&mut rng, ALPHABET.len())]),
            }
            texts.push(m.into_iter().collect());
        }
    }
    assert_agree_on_both_sides(&texts);
}

#[test]
fn token_soups_parse_alike() {
    const PIECES: &[&str] = &[
        "${", "}", "(", ")", "[", "]", ",", ":", "?", ".", "||", " or ", "&&", " and ", "==",
        " eq ", "!=", "=", "<", "<=", " lt ", ">", " ge ", "+", "-", "*", "/", " div ", "%",
        " mod ", "!", " not ", " empty ", "true", "false", "null", "1", "1.", ".5", "1e3", "1e",
        "2.5E-3", "'a'", "\"b\"", "'\\''", "'\\x'", "'", "a", "ns:f", "f", "#x", "x1", "div2", " ",
        "\t", "\n", "\u{c}", "é", "$", "{", "&", "|", "text/",
    ];
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut texts = Vec::new();
    for _ in 0..30_000 {
        let mut text = String::from("${");
        for _ in 0..1 + index(&mut rng, 10) {
            text.push_str(PIECES[index(&mut rng, PIECES.len())]);
        }
        if index(&mut rng, 4) > 0 {
            text.push('}');
        }
        texts.push(text);
    }
    assert_agree_on_both_sides(&texts);
}
