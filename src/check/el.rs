//! Static checks on EL syntax trees: unknown functions (with did-you-mean), wrong
//! arity, arguments that can never convert to the parameter type, and unknown
//! variables when the set of defined names is known. These find in one pass what
//! Oozie reports one at a time, and only when the expression is evaluated.

use crate::diag::fixes::FixKind;
use crate::diag::rules::{
    EL_ARG_TYPE, EL_ARITY, EL_DOTTED_NAME, EL_UNKNOWN_FUNCTION, EL_UNKNOWN_VARIABLE,
};
use crate::diag::{Diagnostic, closest};
use crate::el::ast::{Access, BinaryOp, Call, Expr, ExprKind, Suffix, Template, UnaryOp};
use crate::el::library::{self, CONSTANTS, FUNCTIONS, Library, Ty};
use crate::el::shared::{Findings, Shared};
use crate::span::Span;
use rustc_hash::FxHashSet;

/// What the checks may assume about the text's surroundings.
pub struct ElCheckContext<'a> {
    pub library: Library,
    /// The names defined as variables (job properties), when they are all known.
    pub known_variables: Option<&'a FxHashSet<&'a str>>,
}

pub fn check_template(template: &Template, ctx: &ElCheckContext) -> Vec<Diagnostic> {
    problems(template, &find(template, ctx.library), ctx)
}

/// [`check_template`] on a shared text: what its tree alone gives is found
/// once for every value with that text, and only the job's names are
/// compared each time.
pub(crate) fn check_shared(shared: &Shared, ctx: &ElCheckContext) -> Vec<Diagnostic> {
    problems(&shared.template, findings(shared, ctx.library), ctx)
}

/// The problems in `template`, from `found` (what the tree alone gives) and
/// the names the job defines.
fn problems(template: &Template, found: &Findings, ctx: &ElCheckContext) -> Vec<Diagnostic> {
    let mut out = found.problems.clone();
    if let Some(known) = ctx.known_variables {
        // (Two names at least make a hyphenated one.)
        let hyphenated = if found.variables.len() >= 2 {
            hyphenated_names(template)
        } else {
            Vec::new()
        };
        let mut explained: Vec<Span> = Vec::new();
        for (name, span, parts) in &hyphenated {
            let undefined: Vec<&str> = parts
                .iter()
                .map(|(part, _)| &**part)
                .filter(|part| !known.contains(part))
                .collect();
            if !undefined.is_empty() {
                out.push(hyphenated_name(name, *span, &undefined, ctx.library));
                explained.extend(parts.iter().map(|(_, s)| *s));
            }
        }
        for (name, span) in &found.variables {
            if !known.contains(&**name) && !explained.contains(span) {
                out.push(unknown_variable(name, *span, known, ctx.library));
            }
        }
    }
    out
}

/// A name with hyphens and its parts: `${compute-result-dir}`, which EL
/// reads as the subtraction `compute - result - dir` (an EL identifier
/// has no `-`).
type Hyphenated = (String, Span, Vec<(Box<str>, Span)>);

/// The names with hyphens in `template`: subtractions of variables with
/// nothing between the names and the `-`s.
fn hyphenated_names(template: &Template) -> Vec<Hyphenated> {
    let mut out = Vec::new();
    for expr in template.exprs() {
        expr.walk(&mut |e| {
            let ExprKind::Binary(binary) = &e.kind else {
                return;
            };
            let ExprKind::Var(first) = &binary.first.kind else {
                return;
            };
            let mut name = first.to_string();
            let mut parts = vec![(first.clone(), binary.first.span)];
            let mut end = binary.first.span.end;
            for (op, op_span, operand) in &binary.rest {
                let ExprKind::Var(part) = &operand.kind else {
                    return;
                };
                if *op != BinaryOp::Sub || op_span.start != end || operand.span.start != op_span.end
                {
                    return;
                }
                name.push('-');
                name.push_str(part);
                parts.push((part.clone(), operand.span));
                end = operand.span.end;
            }
            out.push((
                name,
                Span::new(binary.first.span.start as usize, end as usize),
                parts,
            ));
        });
    }
    out
}

/// `name` (with hyphens) at `span` reads the `undefined` variables.
fn hyphenated_name(name: &str, span: Span, undefined: &[&str], library: Library) -> Diagnostic {
    let conf = match library {
        Library::Coordinator => "coord:conf",
        Library::Workflow => "wf:conf",
        Library::Bundle => "bundle:conf",
    };
    let listed: Vec<String> = undefined.iter().map(|n| format!("`{n}`")).collect();
    Diagnostic::error(
        EL_UNKNOWN_VARIABLE,
        span,
        format!(
            "`{name}` is not a variable name: EL reads it as the subtraction `{}`, and {} {} not defined",
            name.replace('-', " - "),
            listed.join(", "),
            if undefined.len() == 1 { "is" } else { "are" }
        ),
    )
    .with_help(format!(
        "EL names cannot contain `-`: read the property with ${{{conf}('{name}')}}, or rename it without hyphens (e.g. `{}`) in the configuration and here",
        camel_case(&name.replace('-', "."))
    ))
}

/// What the checks find in `shared`'s tree in `library` from the tree
/// alone, found once per text.
pub(crate) fn findings(shared: &Shared, library: Library) -> &Findings {
    shared.findings(library, find)
}

/// What the checks find in `template` in `library` from the tree alone.
fn find(template: &Template, library: Library) -> Findings {
    let mut problems = Vec::new();
    let mut variables = Vec::new();
    for expr in template.exprs() {
        // The variables of dotted names, reported as such (EL010); a walk
        // visits a name before its variable.
        let mut dotted: Vec<Span> = Vec::new();
        expr.walk(&mut |e| match &e.kind {
            ExprKind::Call(call) => check_call(e, call, library, &mut problems),
            ExprKind::Var(name)
                if !dotted.contains(&e.span) && library::constant(library, name).is_none() =>
            {
                variables.push((name.clone(), e.span));
            }
            ExprKind::Access(access) => {
                if let Some(d) = dotted_name(access, library) {
                    dotted.push(access.base.span);
                    problems.push(d);
                }
            }
            _ => {}
        });
    }
    Findings {
        problems,
        variables,
    }
}

/// `${job.tracker}`: EL reads property `tracker` of a variable `job`, which
/// no job defines (Oozie: "variable [job] cannot be resolved"); a Hadoop
/// property with dots is read with `conf('job.tracker')`.
fn dotted_name(access: &Access, library: Library) -> Option<Diagnostic> {
    let (base, name, end) = dotted(access)?;
    let conf = match library {
        Library::Coordinator => "coord:conf",
        Library::Workflow => "wf:conf",
        Library::Bundle => "bundle:conf",
    };
    Some(
        Diagnostic::error(
            EL_DOTTED_NAME,
            Span::new(access.base.span.start as usize, end as usize),
            format!(
                "`{name}` is not a variable name: EL reads it as property `{}` of a variable `{base}`, which Oozie cannot resolve",
                &name[base.len() + 1..]
            ),
        )
        .with_help(format!(
            "read the property with ${{{conf}('{name}')}}, or name it without dots (e.g. `{}`)",
            camel_case(&name)
        )),
    )
}

/// A dotted name `a.b.c` read as properties of the variable `a`: the
/// variable, the whole name and where it ends.
fn dotted(access: &Access) -> Option<(&str, String, u32)> {
    let ExprKind::Var(base) = &access.base.kind else {
        return None;
    };
    let mut name = base.to_string();
    let mut end = access.base.span.end;
    for suffix in &access.suffixes {
        let Suffix::Property { name: part, span } = suffix else {
            break;
        };
        name.push('.');
        name.push_str(part);
        end = span.end;
    }
    (end != access.base.span.end).then_some((&**base, name, end))
}

/// `job.tracker` as `jobTracker`.
fn camel_case(dotted: &str) -> String {
    let mut out = String::new();
    for (i, part) in dotted.split('.').enumerate() {
        let mut chars = part.chars();
        match chars.next() {
            Some(first) if i > 0 => {
                out.extend(first.to_uppercase());
                out.push_str(chars.as_str());
            }
            _ => out.push_str(part),
        }
    }
    out
}

fn check_call(expr: &Expr, call: &Call, library: Library, out: &mut Vec<Diagnostic>) {
    // (The qualified name is made only for a message: most calls are fine.)
    let Some(def) = library::function(library, call) else {
        let qualified = call.qualified_name();
        let mut d = Diagnostic::error(
            EL_UNKNOWN_FUNCTION,
            call.name_span,
            format!(
                "unknown function `{qualified}` in {} EL",
                library_name(library)
            ),
        );
        let others: &[Library] = match library {
            Library::Coordinator => &[Library::Workflow],
            Library::Workflow => &[Library::Coordinator],
            Library::Bundle => &[Library::Coordinator, Library::Workflow],
        };
        let other = others
            .iter()
            .copied()
            .find(|other| library::function(*other, call).is_some());
        // The same function under another prefix, or none (`dateOffset`,
        // `wf:dateOffset` for `coord:dateOffset`): the name is right, the
        // prefix is not, which spelling distance does not see.
        let prefixed: Vec<String> = FUNCTIONS
            .iter()
            .filter(|f| {
                f.in_library(library)
                    && f.name == call.name
                    && f.namespace != call.namespace.as_deref()
            })
            .map(|f| format!("`{}`", f.qualified_name()))
            .collect();
        if let Some(other) = other {
            let only = if library == Library::Bundle {
                "; a bundle's EL has the job's properties and `bundle:conf`, nothing else"
            } else {
                ""
            };
            d = d.with_help(format!(
                "`{qualified}` exists only in {} EL; Oozie rejects it here{only}",
                library_name(other)
            ));
        } else if !prefixed.is_empty() {
            d = d.with_help(format!(
                "did you mean {}? Oozie finds a function by its prefix and name",
                prefixed.join(" or ")
            ));
            // (One function of that name: the prefix it needs is certain.)
            if let [only] = prefixed.as_slice() {
                d = d.with_fix(
                    FixKind::FunctionPrefix,
                    call.name_span,
                    only.trim_matches('`'),
                );
            }
        } else if let Some(best) = closest(
            &qualified,
            FUNCTIONS
                .iter()
                .filter(|f| f.in_library(library))
                .map(|f| f.qualified_name()),
        ) {
            d = d.with_help(format!("did you mean `{best}`?")).with_fix(
                FixKind::FunctionDidYouMean,
                call.name_span,
                best,
            );
        }
        out.push(d);
        return;
    };
    if def.params.len() != call.args.len() {
        out.push(
            Diagnostic::error(
                EL_ARITY,
                expr.span,
                format!(
                    "`{}` takes {} argument{} but {} {} given",
                    call.qualified_name(),
                    def.params.len(),
                    if def.params.len() == 1 { "" } else { "s" },
                    call.args.len(),
                    if call.args.len() == 1 { "was" } else { "were" }
                ),
            )
            .with_help(format!("the signature is `{}`", def.signature())),
        );
        return;
    }
    for (arg, ty) in call.args.iter().zip(def.params) {
        if let Some(problem) = argument_mismatch(arg, *ty) {
            out.push(
                Diagnostic::error(
                    EL_ARG_TYPE,
                    arg.span,
                    format!(
                        "argument of `{}` must be {}: {problem}",
                        call.qualified_name(),
                        ty.name()
                    ),
                )
                .with_help(format!("the signature is `{}`", def.signature())),
            );
        }
    }
}

/// `name`, read as a variable at `span`, is not among the `known` names.
fn unknown_variable(
    name: &str,
    span: Span,
    known: &FxHashSet<&str>,
    library: Library,
) -> Diagnostic {
    let d = Diagnostic::error(
        EL_UNKNOWN_VARIABLE,
        span,
        format!("variable `{name}` is not defined"),
    );
    let candidates = known.iter().map(|k| k.to_string()).chain(
        CONSTANTS
            .iter()
            .filter(|c| c.in_library(library))
            .map(|c| c.name.to_string()),
    );
    // A constant of another library (`${YEAR}` in a bundle) is no job
    // property either: Oozie refuses those names in a configuration (E0808).
    let elsewhere = crate::config::RESERVED_NAMES.contains(&name)
        && CONSTANTS
            .iter()
            .any(|c| c.name == name && !c.in_library(library));
    match (elsewhere, closest(name, candidates)) {
        (true, _) => d.with_help(format!(
            "`{name}` is an EL constant that {} EL does not have, and no job property may take its name",
            library_name(library)
        )),
        (false, Some(best)) => d
            .with_help(format!("did you mean `{best}`?"))
            .with_fix(FixKind::VariableDidYouMean, span, best),
        (false, None) => d.with_help(format!("define `{name}` as a job property")),
    }
}

fn library_name(library: Library) -> &'static str {
    match library {
        Library::Coordinator => "coordinator",
        Library::Workflow => "workflow",
        Library::Bundle => "bundle",
    }
}

/// What the value of an expression is, when it is known without evaluating.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Static {
    Bool,
    Number,
    Str,
}

fn static_kind(expr: &Expr) -> Option<Static> {
    match &expr.kind {
        ExprKind::Bool(_) => Some(Static::Bool),
        ExprKind::Long(_) | ExprKind::Double(_) => Some(Static::Number),
        ExprKind::Str(_) => Some(Static::Str),
        ExprKind::Unary(unary) => match unary.ops.first()?.0 {
            UnaryOp::Not | UnaryOp::Empty => Some(Static::Bool),
            UnaryOp::Minus => Some(Static::Number),
        },
        ExprKind::Binary(binary) => match binary.rest.first()?.0 {
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Mod => {
                Some(Static::Number)
            }
            _ => Some(Static::Bool),
        },
        _ => None,
    }
}

/// Why `arg` can never convert to `ty`, when that is certain.
fn argument_mismatch(arg: &Expr, ty: Ty) -> Option<String> {
    match (ty, static_kind(arg)) {
        (Ty::Int | Ty::Long, Some(Static::Bool)) => {
            Some("a boolean never converts to a number".to_string())
        }
        (Ty::Int, _) => match &arg.kind {
            ExprKind::Str(s) if !s.is_empty() && s.parse::<i32>().is_err() => {
                Some(format!("the string '{s}' is not an integer"))
            }
            ExprKind::Long(l) if i32::try_from(*l).is_err() => {
                Some(format!("{l} does not fit in an int"))
            }
            _ => None,
        },
        (Ty::Long, _) => match &arg.kind {
            ExprKind::Str(s) if !s.is_empty() && s.parse::<i64>().is_err() => {
                Some(format!("the string '{s}' is not an integer"))
            }
            _ => None,
        },
        (Ty::Boolean, Some(Static::Number)) => {
            Some("a number never converts to a boolean".to_string())
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::el::parse_template;

    #[test]
    fn a_text_checked_once_answers_each_library_and_each_job() {
        // One text, as equal values share it: what its tree holds is found
        // once per library, and whether its variables are defined is asked
        // each time, as checking the tree alone does.
        let text = "${wf:id()}/${region}/${YEAR}";
        let shared = Shared::new(text, parse_template(text, 0).unwrap());
        let check = |library, known: Option<&FxHashSet<&str>>| -> Vec<&'static str> {
            let ctx = ElCheckContext {
                library,
                known_variables: known,
            };
            let found = check_shared(&shared, &ctx);
            assert_eq!(found, check_template(&shared.template, &ctx));
            found.iter().map(|d| d.code.as_str()).collect()
        };
        let none = FxHashSet::default();
        let region: FxHashSet<&str> = ["region"].into_iter().collect();
        for _ in 0..2 {
            // wf:id is workflow EL; YEAR a coordinator constant, not a workflow one.
            assert_eq!(check(Library::Coordinator, None), [EL_UNKNOWN_FUNCTION]);
            assert_eq!(
                check(Library::Coordinator, Some(&none)),
                [EL_UNKNOWN_FUNCTION, EL_UNKNOWN_VARIABLE]
            );
            assert_eq!(
                check(Library::Coordinator, Some(&region)),
                [EL_UNKNOWN_FUNCTION]
            );
            assert_eq!(
                check(Library::Workflow, Some(&region)),
                [EL_UNKNOWN_VARIABLE]
            );
        }
        assert!(std::ptr::eq(
            findings(&shared, Library::Workflow),
            findings(&shared, Library::Workflow)
        ));
        assert_eq!(findings(&shared, Library::Workflow).variables.len(), 2);
    }

    fn codes(
        text: &str,
        library: Library,
        known: Option<&FxHashSet<&str>>,
    ) -> Vec<(crate::diag::rules::Code, String)> {
        let t = parse_template(text, 0).unwrap();
        check_template(
            &t,
            &ElCheckContext {
                library,
                known_variables: known,
            },
        )
        .into_iter()
        .map(|d| (d.code, d.help.clone().unwrap_or_default()))
        .collect()
    }

    #[test]
    fn unknown_function_suggests_the_closest() {
        let got = codes("${coord:curent(0)}", Library::Coordinator, None);
        assert_eq!(
            got,
            vec![(
                EL_UNKNOWN_FUNCTION,
                "did you mean `coord:current`?".to_string()
            )]
        );
    }

    #[test]
    fn a_function_without_its_prefix_or_with_another_suggests_the_prefix() {
        for text in [
            "${coord:formatTime(dateOffset(coord:nominalTime(), 1, 'DAY'), 'yyyy')}",
            "${wf:dateOffset(coord:nominalTime(), 1, 'DAY')}",
            "${hadoop:dateOffset(coord:nominalTime(), 1, 'DAY')}",
        ] {
            let got = codes(text, Library::Coordinator, None);
            assert_eq!(
                got,
                vec![(
                    EL_UNKNOWN_FUNCTION,
                    "did you mean `coord:dateOffset`? Oozie finds a function by its prefix and name"
                        .to_string()
                )],
                "{text}"
            );
        }
        // Every function of that name in the library.
        let got = codes("${conf('x')}", Library::Coordinator, None);
        assert!(
            got[0].1.contains("`coord:conf`") && got[0].1.contains("`hadoop:conf`"),
            "{got:?}"
        );
        let got = codes("${coord:id()}", Library::Workflow, None);
        assert_eq!(
            got[0].1,
            "did you mean `wf:id`? Oozie finds a function by its prefix and name"
        );
    }

    #[test]
    fn workflow_only_function_in_coordinator() {
        let got = codes("${concat('a','b')}", Library::Coordinator, None);
        assert_eq!(got[0].0, EL_UNKNOWN_FUNCTION);
        assert!(got[0].1.contains("only in workflow EL"), "{got:?}");
    }

    #[test]
    fn arity_and_types() {
        assert_eq!(
            codes("${coord:current(1, 2)}", Library::Coordinator, None)[0].0,
            EL_ARITY
        );
        assert_eq!(
            codes("${coord:current('x')}", Library::Coordinator, None)[0].0,
            EL_ARG_TYPE
        );
        assert_eq!(
            codes("${coord:current(true)}", Library::Coordinator, None)[0].0,
            EL_ARG_TYPE
        );
        assert_eq!(
            codes(
                "${coord:epochTime('2009-01-01T00:00Z', 1)}",
                Library::Coordinator,
                None
            )[0]
            .0,
            EL_ARG_TYPE
        );
        assert!(
            codes(
                "${coord:current(-(coord:hoursInDay(0) - 1))}",
                Library::Coordinator,
                None
            )
            .is_empty()
        );
        assert!(codes("${coord:current('-3')}", Library::Coordinator, None).is_empty());
    }

    #[test]
    fn unknown_variables_only_when_names_are_known() {
        let known: FxHashSet<&str> = ["market", "nameNode"].into_iter().collect();
        let got = codes(
            "${nameNod}/${market}/${KB}",
            Library::Workflow,
            Some(&known),
        );
        assert_eq!(
            got,
            vec![(EL_UNKNOWN_VARIABLE, "did you mean `nameNode`?".to_string())]
        );
        assert!(codes("${anything}", Library::Workflow, None).is_empty());
        // `YEAR` is a coordinator constant; a bundle's EL has none.
        assert_eq!(
            codes("${YEAR}", Library::Bundle, Some(&known)),
            vec![(
                EL_UNKNOWN_VARIABLE,
                "`YEAR` is an EL constant that bundle EL does not have, and no job property may take its name".to_string()
            )]
        );
    }
}
