//! `<parameters>`, as Oozie's ParameterVerifier checks them at submission
//! (core/src/main/java/org/apache/oozie/util/ParameterVerifier.java:49-91),
//! for coordinators (CoordSubmitXCommand.java:223) and workflows
//! (LiteWorkflowAppParser.java:182) alike: a property whose `<name>` is empty
//! once trimmed is E0739 (:64-68); a name the job configuration does not
//! define takes its `<value>` as a default (:69-73), and without one it is
//! missing, E0738 (:74-84). Oozie reads `<parameters>` from coordinator 0.4
//! and workflow 0.4 on (:38-39, 93-104), the versions whose schema allows it.

use crate::diag::Diagnostic;
use crate::diag::Located;
use crate::diag::rules::{
    COORD_EMPTY_PARAMETER, Code, MISSING_PARAMETER, WF_EMPTY_PARAMETER, WF_MISSING_PARAMETER,
};
use crate::el::VarMap;
use crate::ir::Parameter;

/// The rule codes of one kind of application's `<parameters>` problems.
pub(crate) struct ParameterRules {
    /// A parameter without a default that the job does not define (E0738).
    pub missing: Code,
    /// A parameter whose name is empty (E0739).
    pub empty_name: Code,
}

/// A coordinator's rules: CO004, CO011.
pub(crate) const COORDINATOR: ParameterRules = ParameterRules {
    missing: MISSING_PARAMETER,
    empty_name: COORD_EMPTY_PARAMETER,
};

/// A workflow's rules: WF011, WF012.
pub(crate) const WORKFLOW: ParameterRules = ParameterRules {
    missing: WF_MISSING_PARAMETER,
    empty_name: WF_EMPTY_PARAMETER,
};

/// The job's variables: its configuration, then the defaults of the
/// parameters it does not define; and the problems of `parameters`, each with
/// its rule in `rules`.
pub(crate) fn verify(
    parameters: &[Parameter],
    config: VarMap,
    rules: &ParameterRules,
) -> (VarMap, Vec<Located>) {
    // (Taken, not copied: a job's configuration can be large.)
    let mut vars = config;
    let mut problems = Vec::new();
    for parameter in parameters {
        let name = &parameter.name;
        if name.name.is_empty() {
            problems.push(Located::in_app(
                Diagnostic::error(
                    rules.empty_name,
                    name.span,
                    "Parameter name cannot be empty (E0739)",
                )
                .with_help("name the parameter, or remove its <property>"),
            ));
            continue;
        }
        if vars.contains_key(&name.name) {
            continue;
        }
        match &parameter.default {
            Some(default) => {
                vars.insert(name.name.clone(), Some(default.text().to_string()));
            }
            None => problems.push(Located::in_app(
                Diagnostic::error(
                    rules.missing,
                    name.span,
                    format!(
                        "the job does not define `{}`, a parameter without a default (E0738)",
                        name.name
                    ),
                )
                .with_help(format!(
                    "define it in the job configuration (-D {}=...) or give it a <value>",
                    name.name
                )),
            )),
        }
    }
    (vars, problems)
}

/// The names of `parameters` without a default that `vars` (the job's
/// variables after [`verify`]) does not define, in document order.
pub(crate) fn missing<'a>(parameters: &'a [Parameter], vars: &VarMap) -> Vec<&'a str> {
    parameters
        .iter()
        .filter(|p| p.default.is_none() && !p.name.name.is_empty())
        .map(|p| p.name.name.as_str())
        .filter(|name| !vars.contains_key(*name))
        .collect()
}
