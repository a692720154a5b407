//! Instances Oozie refuses only when an action is created or started, checked
//! in every data-in and data-out: an instance element holding several
//! instances or none (CO006; Oozie's submission looks at the first data-in and
//! data-out only), and instance functions with arguments out of range
//! (CoordELFunctions.java:273-274, 316-318): `coord:latest(n)` needs n <= 0,
//! `coord:future(n, limit)` needs n >= 0 and limit > 0.

use crate::diag::Diagnostic;
use crate::diag::Located;
use crate::diag::rules::{INSTANCE_ARGUMENT, INSTANCE_SYNTAX};
use crate::el::ast::ExprKind;
use crate::ir::{Coordinator, ElText, Instances};
use crate::oozie::job::instance_problem;

pub(crate) fn check(app: &Coordinator) -> Vec<Located> {
    let texts = app
        .inputs
        .iter()
        .flat_map(|d| match &d.instances {
            Instances::List(list) => list.iter().collect::<Vec<&ElText>>(),
            Instances::Range { start, end } => vec![start, end],
        })
        .chain(app.outputs.iter().map(|d| &d.instance));
    let mut out = Vec::new();
    for text in texts {
        // Every event's, where Oozie's submission looks at the first data-in
        // and data-out only (the others fail when an action is created).
        if let Some(problem) = instance_problem(text) {
            out.push(Located::in_app(
                Diagnostic::error(INSTANCE_SYNTAX, text.span, problem).with_help(
                    "write one instance per <instance> element, e.g. ${coord:current(0)}",
                ),
            ));
        }
        for expr in text.template().exprs() {
            expr.walk(&mut |e| {
                let ExprKind::Call(call) = &e.kind else {
                    return;
                };
                if call.namespace.as_deref() != Some("coord") {
                    return;
                }
                let arg = |i: usize| call.args.get(i).and_then(|a| a.literal_long());
                let problem = match call.name.as_str() {
                    "latest" => arg(0)
                        .filter(|n| *n > 0)
                        .map(|n| format!("coord:latest({n}): n must be 0 or less (the newest available instance is latest(0))")),
                    "future" => match (arg(0), arg(1)) {
                        (Some(n), _) if n < 0 => Some(format!(
                            "coord:future({n}, ...): n must be 0 or more (future(0) is the first instance at or after the action)"
                        )),
                        (_, Some(limit)) if limit <= 0 => Some(format!(
                            "coord:future(..., {limit}): the limit must be greater than 0"
                        )),
                        _ => None,
                    },
                    _ => None,
                };
                if let Some(problem) = problem {
                    out.push(Located::in_app(Diagnostic::error(INSTANCE_ARGUMENT, text.file_span(e.span), problem)
                            .with_help("Oozie accepts the job and fails every action when it starts (IllegalArgumentException)")));
                }
            });
        }
    }
    out
}
