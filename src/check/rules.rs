//! The registry of rule codes: one table from code to rule. Every code has a
//! page `docs/rules/CODE.md` (a test keeps the two in step).

use crate::diag::Severity;

pub struct Rule {
    pub code: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    pub summary: &'static str,
}

pub const EL_SYNTAX: &str = "EL001";
pub const EL_UNKNOWN_FUNCTION: &str = "EL002";
pub const EL_ARITY: &str = "EL003";
pub const EL_ARG_TYPE: &str = "EL004";
pub const EL_UNKNOWN_VARIABLE: &str = "EL005";
pub const EL_EVAL: &str = "EL006";
pub const EL_NEEDS_CONTEXT: &str = "EL007";
pub const EL_LIMIT: &str = "EL008";

pub static RULES: &[Rule] = &[
    Rule {
        code: EL_SYNTAX,
        name: "el-syntax",
        severity: Severity::Error,
        summary: "An `${...}` expression that commons-el 1.0 cannot parse.",
    },
    Rule {
        code: EL_UNKNOWN_FUNCTION,
        name: "el-unknown-function",
        severity: Severity::Error,
        summary: "A function Oozie does not define in this kind of EL.",
    },
    Rule {
        code: EL_ARITY,
        name: "el-arity",
        severity: Severity::Error,
        summary: "A function called with the wrong number of arguments.",
    },
    Rule {
        code: EL_ARG_TYPE,
        name: "el-argument-type",
        severity: Severity::Error,
        summary: "A function argument that can never convert to the parameter's type.",
    },
    Rule {
        code: EL_UNKNOWN_VARIABLE,
        name: "el-unknown-variable",
        severity: Severity::Error,
        summary: "A variable that is neither a job property nor an EL constant.",
    },
    Rule {
        code: EL_EVAL,
        name: "el-evaluation",
        severity: Severity::Error,
        summary: "An expression whose evaluation fails (a failed coercion, `%` by zero, ...).",
    },
    Rule {
        code: EL_NEEDS_CONTEXT,
        name: "el-needs-context",
        severity: Severity::Error,
        summary: "A function or constant evaluated where its context (an action, a dataset, a running workflow) is missing.",
    },
    Rule {
        code: EL_LIMIT,
        name: "el-limit",
        severity: Severity::Error,
        summary: "A text value longer, or an expression nested deeper, than coordc reads.",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_has_a_doc_page_and_a_unique_code() {
        let mut seen = std::collections::HashSet::new();
        for r in RULES {
            assert!(seen.insert(r.code), "{} twice", r.code);
            let page = format!("{}/docs/rules/{}.md", env!("CARGO_MANIFEST_DIR"), r.code);
            let text = std::fs::read_to_string(&page).unwrap_or_else(|_| panic!("missing {page}"));
            assert!(
                text.starts_with(&format!("# {} {}", r.code, r.name)),
                "{page} heading"
            );
        }
    }
}
