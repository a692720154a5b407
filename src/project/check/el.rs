//! The static EL checks of a document's values, and what a check without
//! the job's configuration says instead of evaluating them.

use crate::check::el::{ElCheckContext, check_shared, findings};
use crate::diag::FileRef;
use crate::diag::rules::{EL_UNKNOWN_VARIABLE, MISSING_PARAMETER, WF_MISSING_PARAMETER};
use crate::diag::{Diagnostic, Located};
use crate::el::VarMap;
use crate::el::library::Library;
use crate::ir::ElText;
use crate::span::Span;
use rustc_hash::FxHashSet;
use std::collections::BTreeSet;

/// The static EL checks of `texts`, in `library`, knowing the defined names
/// when the job was configured.
pub(super) fn check_el<'a>(
    texts: impl IntoIterator<Item = (FileRef, &'a ElText)>,
    library: Library,
    known: Option<&FxHashSet<&str>>,
) -> Vec<Located> {
    let ctx = ElCheckContext {
        library,
        known_variables: known,
    };
    texts
        .into_iter()
        .flat_map(|(file, text)| {
            check_shared(text.shared(), &ctx)
                .into_iter()
                .map(move |d| Located {
                    file,
                    diagnostic: text.in_file(d),
                })
        })
        .collect()
}

/// The variables `texts` read that are neither defined nor EL constants.
pub(super) fn free_variables<'a>(
    texts: impl Iterator<Item = &'a ElText>,
    library: Library,
    vars: &VarMap,
) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for text in texts {
        for (name, _) in &findings(text.shared(), library).variables {
            if !vars.contains_key(&**name) {
                names.insert(name.to_string());
            }
        }
    }
    names
}

/// How a note asks for the job's configuration.
pub(super) const GIVE_CONFIGURATION: &str = "give its configuration (--config FILE, -D NAME=VALUE, or a job.properties beside the application)";

/// The note, at `span`, that `job` must define `names`, and what to do
/// (`then`) to have the values checked: what a check without a
/// configuration says instead of reporting the names undefined.
pub(super) fn needed_note<'a>(
    span: Span,
    job: &str,
    names: impl Iterator<Item = &'a str>,
    then: &str,
) -> Located {
    let names: Vec<String> = names.map(|n| format!("`{n}`")).collect();
    Located::in_app(Diagnostic::note(
        EL_UNKNOWN_VARIABLE,
        span,
        format!("{job} must define {}; {then}", names.join(", ")),
    ))
}

/// The `<parameters>` problems of a job given no configuration: an empty name
/// (E0739) is one whatever the job defines; a parameter it may define is not.
pub(super) fn unconfigured_parameters(problems: &[Located]) -> impl Iterator<Item = Located> + '_ {
    problems
        .iter()
        .filter(|p| ![MISSING_PARAMETER, WF_MISSING_PARAMETER].contains(&p.diagnostic.code))
        .cloned()
}
