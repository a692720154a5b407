//! Every scenario in `corpus/simulate/` is valid by docs/simulate.schema.json
//! (what editors check as users type), and the schema refuses what the
//! scenario reader refuses: unknown keys.

use crate::common::root;

use std::path::{Path, PathBuf};

fn scenarios(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            scenarios(&path, out);
        } else if path.extension().is_some_and(|e| e == "toml") {
            out.push(path);
        }
    }
}

fn validator() -> jsonschema::Validator {
    let text = std::fs::read_to_string(root().join("docs/simulate.schema.json")).unwrap();
    let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
    jsonschema::validator_for(&schema).unwrap()
}

fn as_json(toml_text: &str) -> serde_json::Value {
    let value: toml::Value = toml::from_str(toml_text).unwrap();
    serde_json::to_value(value).unwrap()
}

#[test]
fn every_corpus_scenario_is_valid_by_the_schema() {
    let validator = validator();
    let mut found = Vec::new();
    scenarios(&root().join("corpus/simulate"), &mut found);
    assert!(found.len() >= 40, "{} scenarios", found.len());
    for path in found {
        let json = as_json(&std::fs::read_to_string(&path).unwrap());
        let errors: Vec<String> = validator
            .iter_errors(&json)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{}: {errors:?}", path.display());
    }
}

#[test]
fn the_schema_refuses_unknown_keys_and_wrong_types() {
    let validator = validator();
    let good = "start = \"2009-01-01T00:00Z\"\nuntil = \"2009-01-02T00:00Z\"\n";
    assert!(validator.is_valid(&as_json(good)));
    for bad in [
        "bogus = 1\n",
        "[[job]]\napp = \"a.xml\"\nsubmitt = \"2009-01-01T00:00Z\"\n",
        "[server]\n\"oozie.service.CoordMaterializeTriggerService.lookup.intervall\" = 300\n",
        "[server]\n\"oozie.service.CoordMaterializeTriggerService.lookup.interval\" = \"300\"\n",
        "[[op]]\nat = \"2009-01-01T00:00Z\"\njob = \"a\"\n",
    ] {
        let json = as_json(&format!("{good}{bad}"));
        assert!(!validator.is_valid(&json), "{bad}");
    }
}
