//! `el`: arbitrary text as an EL text value: parsed, statically checked and
//! evaluated with each function library (Coordinator, Workflow, Bundle), with
//! the oracle cases' variables, in a processing zone the text's length picks.
//! Also: folding (`Compiled`) and binding the variables never change a
//! result or an error (src/el/fold.rs says so), every diagnostic lies within
//! the text, and every diagnostic renders.
#![no_main]

mod common;

use coordc::check::el::{ElCheckContext, check_template};
use coordc::el::{Compiled, Env, Library, NoVariables, parse_template, render};
use libfuzzer_sys::fuzz_target;

const LIBRARIES: [Library; 3] = [Library::Coordinator, Library::Workflow, Library::Bundle];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let template = match parse_template(text, 0) {
        Ok(t) => t,
        Err(d) => {
            common::assert_span_in(&d, text);
            common::render(&d, text);
            return;
        }
    };
    let vars = common::vars();
    let known: rustc_hash::FxHashSet<&str> = vars.keys().map(String::as_str).collect();
    let pz = common::processing_zone(text.len() as u8);
    let compiled = Compiled::new(template.clone());
    let bound = compiled.bind(vars);
    for library in LIBRARIES {
        for known_variables in [None, Some(&known)] {
            let ctx = ElCheckContext {
                library,
                known_variables,
            };
            for d in check_template(&template, &ctx) {
                common::assert_span_in(&d, text);
                common::render(&d, text);
            }
        }
        let env = Env {
            vars,
            library,
            context: None,
            processing_zone: pz,
        };
        let plain = render(&template, &env);
        if let Err(d) = &plain {
            common::assert_span_in(d, text);
            common::render(d, text);
        }
        let mut out = String::new();
        let folded = compiled.render_into(&env, &mut out).map(|ty| (out, ty));
        assert_eq!(plain, folded, "folding changed the result of {text:?}");
        let mut out = String::new();
        let with_bound = bound.render_into(&env, &mut out).map(|ty| (out, ty));
        assert_eq!(
            plain, with_bound,
            "binding the variables changed the result of {text:?}"
        );
        // Without any variable, as constant folding and a uri-template's
        // second phase evaluate.
        let bare = Env {
            vars: &NoVariables,
            library,
            context: None,
            processing_zone: pz,
        };
        if let Err(d) = render(&template, &bare) {
            common::assert_span_in(&d, text);
        }
    }
});
