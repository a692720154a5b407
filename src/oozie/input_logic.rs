//! `<input-logic>` (schema 0.5, spec §6.10) as Oozie reads it for an action:
//! the condition tree with each input's `min` and `wait` as Oozie's parser
//! hands them down, and the checks that fail the action.
//!
//! Oozie turns the XML into a JEXL expression (`InputLogicParser`): `<and>` is
//! `&&`, `<or>` is `||`, `<combine>` is `combine("A","B")` and
//! `<data-in dataset="A"/>` is `input("A")`, where `A` names a *data-in event*,
//! not a dataset. Whether the condition holds depends on which data exist, so
//! the dry run shows the condition and leaves `coord:dataIn` of a named
//! condition unresolved; the simulator decides it.

use crate::diag::Diagnostic;
use crate::diag::rules::{DRYRUN_UNSUPPORTED, INPUT_LOGIC};
use crate::ir::{ElText, InputLogic, Logic, LogicOptions};
use crate::span::Span;

/// An action's input condition. `min: None` is Oozie's −1 (every instance);
/// `wait: None` is no waiting.
#[derive(Debug, Clone, PartialEq)]
pub enum Condition<'a> {
    And {
        name: Option<&'a str>,
        children: Vec<Condition<'a>>,
    },
    Or {
        name: Option<&'a str>,
        children: Vec<Condition<'a>>,
    },
    /// The first member's missing instances taken, index by index, from the
    /// others.
    Combine {
        name: Option<&'a str>,
        inputs: Vec<&'a str>,
        min: Option<i64>,
        wait: Option<i64>,
        span: Span,
    },
    Input {
        name: Option<&'a str>,
        data_in: &'a str,
        min: Option<i64>,
        wait: Option<i64>,
    },
}

/// The single top-level node Oozie can evaluate. Oozie concatenates several
/// top-level nodes into one JEXL text with no operator between them
/// (`InputLogicParser.parseWithName`), which coordc does not model.
pub(crate) fn root(logic: &InputLogic) -> Result<Option<&Logic>, Diagnostic> {
    match logic.roots.as_slice() {
        [] => Ok(None),
        [root] => Ok(Some(root)),
        _ => Err(Diagnostic::error(
            DRYRUN_UNSUPPORTED,
            logic.span,
            "an <input-logic> with several top-level elements: Oozie joins them without an operator, and coordc does not model what its JEXL engine makes of that",
        )
        .with_help("wrap them in one <and> or <or>")),
    }
}

/// The names `coord:dataIn` accepts besides the data-ins: the named nodes
/// (CoordSubmitXCommand.resolveInputLogic adds them to the data-in names).
pub(crate) fn names(logic: &Logic) -> Vec<&str> {
    let mut out = Vec::new();
    visit(logic, &mut |node| {
        if let Some(name) = &options(node).name {
            out.push(name.name.as_str());
        }
    });
    out
}

/// Every input names a data-in of the coordinator, and a combine has two or
/// more: otherwise Oozie fails the action (E1028, "Data set not found",
/// "Combine should have at least two input sets"). Oozie's dry run checks only
/// the inputs its short-circuit evaluation reaches with no data; the others
/// fail when materialization reaches them, so all are checked here.
pub(crate) fn check_references(logic: &Logic, data_ins: &[&str]) -> Vec<Diagnostic> {
    let mut problems = Vec::new();
    visit(logic, &mut |node| {
        match node {
        Logic::DataIn { data_in, .. } if !data_ins.contains(&data_in.name.as_str()) => {
            let best = crate::diag::closest(&data_in.name, data_ins.iter().map(|n| n.to_string()));
            let mut d = Diagnostic::error(
                    INPUT_LOGIC,
                    data_in.span,
                    format!(
                        "`{}` is not a data-in of this coordinator: Oozie fails the action with \"Data set not found : {}\" (E1028)",
                        data_in.name, data_in.name
                    ),
                )
                .with_help(
                    match &best {
                        Some(best) => format!(
                            "did you mean `{best}`? An input-logic <data-in dataset=...> names a data-in of <input-events> (one of: {}), not a dataset",
                            data_ins.join(", ")
                        ),
                        None => format!(
                            "an input-logic <data-in dataset=...> names a data-in of <input-events> (one of: {}), not a dataset",
                            data_ins.join(", ")
                        ),
                    },
                );
            // (A name written as it is, no entity, is replaced whole.)
            if let Some(best) = best
                && data_in.span.range().len() == data_in.name.len()
            {
                d = d.with_fix(crate::diag::fixes::FixKind::DataInDidYouMean, data_in.span, best);
            }
            problems.push(d);
        }
        Logic::Combine(node) if node.children.len() < 2 => problems.push(Diagnostic::error(
            INPUT_LOGIC,
            node.span,
            "a <combine> needs at least two data-ins: Oozie fails the action (E1028, \"Combine should have at least two input sets\")",
        )),
        _ => {}
    }
    });
    problems
}

/// The condition of one action. `evaluate` renders a `min` or `wait` value as
/// the action's data evaluator does (CoordCommandUtils.evaluateInputCheck).
///
/// As Oozie's parser hands them down (InputLogicParser.getMin, getWait): `min`
/// comes from the nearest node that sets it; a data-in waits its own `wait`
/// or its parent `<and>`/`<or>`'s, and an `<and>`/`<or>`/`<combine>` hands
/// down only a `wait` it sets itself. So in
/// `<or wait="10"><and><data-in dataset="A"/>...`, `A` does not wait: getWait
/// returns the `<and>`'s own (absent) wait whenever one was passed to it.
pub(crate) fn resolve<'a>(
    logic: &'a Logic,
    evaluate: &mut dyn FnMut(&ElText) -> Result<String, Diagnostic>,
) -> Result<Condition<'a>, Diagnostic> {
    node(logic, None, None, evaluate)
}

fn node<'a>(
    logic: &'a Logic,
    inherited_min: Option<i64>,
    parent_wait: Option<i64>,
    evaluate: &mut dyn FnMut(&ElText) -> Result<String, Diagnostic>,
) -> Result<Condition<'a>, Diagnostic> {
    let (own_min, own_wait) = attributes(options(logic), evaluate)?;
    let name = options(logic).name.as_ref().map(|n| n.name.as_str());
    let min = own_min.or(inherited_min);
    Ok(match logic {
        Logic::And(n) | Logic::Or(n) => {
            let children = n
                .children
                .iter()
                .map(|child| node(child, min, own_wait, evaluate))
                .collect::<Result<Vec<_>, _>>()?;
            if matches!(logic, Logic::And(_)) {
                Condition::And { name, children }
            } else {
                Condition::Or { name, children }
            }
        }
        Logic::Combine(n) => Condition::Combine {
            name,
            inputs: n
                .children
                .iter()
                .filter_map(|c| match c {
                    Logic::DataIn { data_in, .. } => Some(data_in.name.as_str()),
                    _ => None,
                })
                .collect(),
            min,
            wait: own_wait,
            span: n.span,
        },
        Logic::DataIn { data_in, .. } => Condition::Input {
            name,
            data_in: &data_in.name,
            min,
            wait: own_wait.or(parent_wait),
        },
    })
}

/// A node's `min` and `wait`, evaluated; an empty value counts as unset
/// (StringUtils.isEmpty). Oozie writes each into a JEXL call (`.min(2)`),
/// so it must be an integer.
fn attributes(
    options: &LogicOptions,
    evaluate: &mut dyn FnMut(&ElText) -> Result<String, Diagnostic>,
) -> Result<(Option<i64>, Option<i64>), Diagnostic> {
    let mut read = |text: &Option<ElText>, what: &str| -> Result<Option<i64>, Diagnostic> {
        let Some(text) = text else { return Ok(None) };
        let value = evaluate(text)?;
        let value = value.trim();
        if value.is_empty() {
            return Ok(None);
        }
        value.parse::<i64>().map(Some).map_err(|_| {
            Diagnostic::error(
                INPUT_LOGIC,
                text.span,
                format!("`{what}` must be an integer, not `{value}`: Oozie writes it into the input check as `.{what}({value})`"),
            )
            .with_help(if what == "wait" {
                "the wait is in minutes, e.g. wait=\"60\""
            } else {
                "the minimum number of available instances, e.g. min=\"2\""
            })
        })
    };
    Ok((
        read(&options.min, "min")?,
        read(&options.wait, "inputWait")?,
    ))
}

/// The `min` and `wait` values, for the checks of where each EL function may be used.
pub(crate) fn values(logic: &Logic) -> Vec<&ElText> {
    let mut out = Vec::new();
    visit(logic, &mut |node| {
        let options = options(node);
        out.extend(options.min.iter().chain(&options.wait));
    });
    out
}

fn options(logic: &Logic) -> &LogicOptions {
    match logic {
        Logic::And(n) | Logic::Or(n) | Logic::Combine(n) => &n.options,
        Logic::DataIn { options, .. } => options,
    }
}

fn visit<'a>(logic: &'a Logic, f: &mut dyn FnMut(&'a Logic)) {
    f(logic);
    if let Logic::And(n) | Logic::Or(n) | Logic::Combine(n) = logic {
        for child in &n.children {
            visit(child, f);
        }
    }
}

/// The per-action checks Oozie makes of a combine (E1028): its inputs must
/// have the same number of instances, and none may wait on `latest` or
/// `future` (CoordInputLogicEvaluatorPhaseValidate.evalCombineInput; in
/// materialization the shorter or unresolved member fails the index lookup of
/// CoordInputLogicEvaluatorPhaseOne.combine). `instances(name)` gives a
/// data-in's resolved instance count and whether it has unresolved ones.
pub(crate) fn check_combines(
    condition: &Condition,
    instances: &dyn Fn(&str) -> (usize, bool),
) -> Result<(), Diagnostic> {
    match condition {
        Condition::And { children, .. } | Condition::Or { children, .. } => children
            .iter()
            .try_for_each(|c| check_combines(c, instances)),
        Condition::Combine {
            inputs, span: at, ..
        } => {
            let at = *at;
            let counts: Vec<(usize, bool)> = inputs.iter().map(|i| instances(i)).collect();
            if let Some((name, _)) = inputs
                .iter()
                .zip(&counts)
                .find(|(_, (_, unresolved))| *unresolved)
            {
                return Err(Diagnostic::error(
                    INPUT_LOGIC,
                    at,
                    format!(
                        "<combine> of {}: `{}` uses coord:latest or coord:future, which combine does not support (E1028)",
                        inputs.join(", "),
                        name
                    ),
                ));
            }
            if counts
                .windows(2)
                .any(|w| matches!(w, [(a, _), (b, _)] if a != b))
            {
                let listed: Vec<String> = inputs
                    .iter()
                    .zip(&counts)
                    .map(|(name, (n, _))| format!("{name}: {n}"))
                    .collect();
                return Err(Diagnostic::error(
                    INPUT_LOGIC,
                    at,
                    format!(
                        "<combine> needs the same number of instances in each data-in ({}): Oozie fails the action (E1028, \"Combine should have same range\")",
                        listed.join(", ")
                    ),
                )
                .with_help("give the combined data-ins the same coord:current range"));
            }
            Ok(())
        }
        Condition::Input { .. } => Ok(()),
    }
}

/// One line: `(A || B)`, `combine(A, B)`, each input with its min and wait,
/// a named node as `AorB=(...)`.
impl std::fmt::Display for Condition<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (name, min, wait) = match self {
            Condition::And { name, .. } | Condition::Or { name, .. } => (name, None, None),
            Condition::Combine {
                name, min, wait, ..
            }
            | Condition::Input {
                name, min, wait, ..
            } => (name, *min, *wait),
        };
        if let Some(name) = name {
            write!(f, "{name}=")?;
        }
        match self {
            Condition::And { children, .. } | Condition::Or { children, .. } => {
                let op = if matches!(self, Condition::And { .. }) {
                    " && "
                } else {
                    " || "
                };
                write!(f, "(")?;
                for (i, child) in children.iter().enumerate() {
                    if i > 0 {
                        f.write_str(op)?;
                    }
                    write!(f, "{child}")?;
                }
                write!(f, ")")?;
            }
            Condition::Combine { inputs, .. } => write!(f, "combine({})", inputs.join(", "))?,
            Condition::Input { data_in, .. } => f.write_str(data_in)?,
        }
        match (min, wait) {
            (None, None) => Ok(()),
            (Some(m), None) => write!(f, "[min {m}]"),
            (None, Some(w)) => write!(f, "[wait {w}m]"),
            (Some(m), Some(w)) => write!(f, "[min {m}, wait {w}m]"),
        }
    }
}

/// JSON: `{"or": [...]}`, `{"and": [...]}`, `{"combine": ["A", "B"]}`,
/// `{"data_in": "A"}`, each with `name`, `min` (absent: every instance) and
/// `wait` (minutes; absent: none) when set.
impl serde::Serialize for Condition<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(None)?;
        let (name, min, wait) = match self {
            Condition::And { name, children } => {
                map.serialize_entry("and", children)?;
                (name, None, None)
            }
            Condition::Or { name, children } => {
                map.serialize_entry("or", children)?;
                (name, None, None)
            }
            Condition::Combine {
                name,
                inputs,
                min,
                wait,
                ..
            } => {
                map.serialize_entry("combine", inputs)?;
                (name, *min, *wait)
            }
            Condition::Input {
                name,
                data_in,
                min,
                wait,
            } => {
                map.serialize_entry("data_in", data_in)?;
                (name, *min, *wait)
            }
        };
        if let Some(name) = name {
            map.serialize_entry("name", name)?;
        }
        if let Some(min) = min {
            map.serialize_entry("min", &min)?;
        }
        if let Some(wait) = wait {
            map.serialize_entry("wait", &wait)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::lower;
    use crate::xml::{Arena, parse};

    /// The condition of `logic` (the inside of <input-logic>), with attribute
    /// values taken as written.
    fn condition(logic: &str) -> Result<String, String> {
        let src = format!(
            r#"<coordinator-app name="a" frequency="60" start="2010-01-01T00:00Z" end="2010-01-02T00:00Z" timezone="UTC" xmlns="uri:oozie:coordinator:0.5">
  <input-logic>{logic}</input-logic>
  <action><workflow><app-path>x</app-path></workflow></action>
</coordinator-app>"#
        );
        let arena = Arena::new();
        let doc = parse(&src, &arena).unwrap();
        let (app, problems) = lower::coordinator(&doc.root);
        assert!(problems.is_empty(), "{problems:?}");
        let logic = app.input_logic.unwrap();
        let root = root(&logic).map_err(|d| d.message.clone())?.unwrap();
        resolve(root, &mut |t| Ok(t.text().to_string()))
            .map(|c| c.to_string())
            .map_err(|d| d.message.clone())
    }

    #[test]
    fn min_is_inherited_from_the_nearest_node_that_sets_it() {
        // Coordinator spec §6.10, example 6 (the spec says min = 2 there; it is 5).
        assert_eq!(
            condition(
                r#"<or name="AorB" min="5" wait="10"><data-in dataset="A"/><data-in dataset="B"/></or>"#
            ),
            Ok("AorB=(A[min 5, wait 10m] || B[min 5, wait 10m])".into())
        );
        // Example 5: a data-in's own wait, the parent's min.
        assert_eq!(
            condition(
                r#"<or name="AorB" min="2"><data-in dataset="A" wait="10"/><data-in dataset="B"/></or>"#
            ),
            Ok("AorB=(A[min 2, wait 10m] || B[min 2])".into())
        );
        assert_eq!(
            condition(
                r#"<or min="3"><and><data-in dataset="A" min="1"/><combine><data-in dataset="B"/><data-in dataset="C"/></combine></and></or>"#
            ),
            Ok("((A[min 1] && combine(B, C)[min 3]))".into())
        );
    }

    #[test]
    fn wait_reaches_only_the_direct_data_in_children_as_oozies_parser_hands_it() {
        // InputLogicParser.getWait returns the node's own wait once one is
        // passed to it, so a nested <and> without one passes nothing on.
        assert_eq!(
            condition(
                r#"<or wait="10"><and><data-in dataset="A"/></and><data-in dataset="B"/></or>"#
            ),
            Ok("((A) || B[wait 10m])".into())
        );
        assert_eq!(
            condition(
                r#"<or wait="10"><and wait="5"><data-in dataset="A"/></and><combine><data-in dataset="B"/><data-in dataset="C"/></combine></or>"#
            ),
            Ok("((A[wait 5m]) || combine(B, C))".into())
        );
        // An empty value counts as unset.
        assert_eq!(
            condition(r#"<or min="2"><data-in dataset="A" min=""/></or>"#),
            Ok("(A[min 2])".into())
        );
    }

    #[test]
    fn min_and_wait_must_be_integers_and_one_top_level_node() {
        assert!(
            condition(r#"<data-in dataset="A" min="two"/>"#)
                .unwrap_err()
                .contains("`min` must be an integer, not `two`")
        );
        assert!(
            condition(r#"<data-in dataset="A"/><data-in dataset="B"/>"#)
                .unwrap_err()
                .contains("several top-level elements")
        );
    }

    #[test]
    fn references_name_data_ins_and_combines_need_equal_resolved_ranges() {
        let src = r#"<coordinator-app name="a" frequency="60" start="2010-01-01T00:00Z" end="2010-01-02T00:00Z" timezone="UTC" xmlns="uri:oozie:coordinator:0.5">
  <input-logic><or name="x"><data-in dataset="A"/><and name="y"><data-in dataset="dataset_b"/><combine><data-in dataset="A"/><data-in dataset="B"/></combine></and></or></input-logic>
  <action><workflow><app-path>x</app-path></workflow></action>
</coordinator-app>"#;
        let arena = Arena::new();
        let doc = parse(src, &arena).unwrap();
        let (app, _) = lower::coordinator(&doc.root);
        let logic = app.input_logic.unwrap();
        let root = root(&logic).unwrap().unwrap();
        assert_eq!(names(root), ["x", "y"]);
        let found = check_references(root, &["A", "B"]);
        assert_eq!(found.len(), 1);
        assert!(found[0].message.starts_with("`dataset_b` is not a data-in"));
        assert_eq!(&src[found[0].span.range()], "dataset_b");
        let condition = resolve(root, &mut |t| Ok(t.text().to_string())).unwrap();
        // Equal counts pass; unequal ones, or latest/future, fail (E1028).
        assert!(check_combines(&condition, &|_| (3, false)).is_ok());
        let unequal = check_combines(&condition, &|n| (if n == "A" { 3 } else { 2 }, false));
        assert!(unequal.unwrap_err().message.contains("(A: 3, B: 2)"));
        let latest = check_combines(&condition, &|n| (1, n == "B"));
        assert!(
            latest
                .unwrap_err()
                .message
                .contains("`B` uses coord:latest")
        );
    }
}
