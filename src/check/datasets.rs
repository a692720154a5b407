//! Dataset names across the application and its includes, as spec §10.1.1
//! states them: a name defined twice in the application is an error; a
//! dataset embedded in the application overrides an included one of the same
//! name, which is worth a note. (Included files that define a name twice are
//! reported by the submission checks, E0803, as Oozie does.)

use crate::diag::Diagnostic;
use crate::diag::Located;
use crate::diag::rules::{DATASET_OVERRIDE, DUPLICATE_DATASET};
use crate::ir::{Coordinator, Dataset};
use std::collections::HashMap;

pub(crate) fn check(app: &Coordinator, included: &[Dataset]) -> Vec<Located> {
    let mut out = Vec::new();
    let mut embedded: HashMap<&str, &Dataset> = HashMap::new();
    for dataset in &app.datasets {
        let name = dataset.name.name.as_str();
        if let Some(first) = embedded.insert(name, dataset) {
            out.push(Located::in_app(
                Diagnostic::error(
                    DUPLICATE_DATASET,
                    dataset.name.span,
                    format!("dataset `{name}` is defined twice in the application (spec §10.1.1)"),
                )
                .with_label(first.name.span, "first defined here")
                .with_help("Oozie silently keeps the later definition; rename one or remove it"),
            ));
        }
    }
    for dataset in included {
        if let Some(own) = embedded.get(dataset.name.name.as_str()) {
            out.push(Located::in_app(Diagnostic::note(
                    DATASET_OVERRIDE,
                    own.name.span,
                    format!(
                        "dataset `{}` overrides the one of the same name in an included file (spec §10.1.1)",
                        dataset.name.name
                    ),
                )));
        }
    }
    out
}
