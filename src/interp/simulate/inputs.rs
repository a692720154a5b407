//! What an input check decides from the data that exist: `latest` and
//! `future` instances resolved at run time (CoordActionInputCheckXCommand.java),
//! and `<input-logic>` evaluated as Oozie's phase one does
//! (CoordInputLogicEvaluatorPhaseOne.java).

use crate::oozie::input_logic::Condition;

/// A `latest`/`future` instance, or range, left unresolved at
/// materialization (as `CoordCommandUtils` writes them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unresolved {
    /// `latest(from)` .. `latest(to)`, `from <= to <= 0`.
    Latest { from: i64, to: i64 },
    /// `future(from)` .. `future(to)` among `current(0)` .. `current(limit)`.
    Future { from: i64, to: i64, limit: i64 },
}

impl Unresolved {
    /// Reads `${coord:latest(-1)}`, `${coord:latestRange(-3,0)}`,
    /// `${coord:future(0, 3)}` or `${coord:futureRange(0,3,'5')}`.
    pub(crate) fn parse(text: &str) -> Option<Unresolved> {
        let call = text.trim().strip_prefix("${coord:")?.strip_suffix(")}")?;
        let (name, args) = call.split_once('(')?;
        let args: Vec<i64> = args
            .split(',')
            .map(|a| a.trim().trim_matches(['\'', '"']).parse().ok())
            .collect::<Option<_>>()?;
        match (name, args.as_slice()) {
            ("latest", [n]) => Some(Unresolved::Latest { from: *n, to: *n }),
            ("latestRange", [a, b]) => Some(Unresolved::Latest { from: *a, to: *b }),
            ("future", [n, limit]) => Some(Unresolved::Future {
                from: *n,
                to: *n,
                limit: *limit,
            }),
            ("futureRange", [a, b, limit]) => Some(Unresolved::Future {
                from: *a,
                to: *b,
                limit: *limit,
            }),
            _ => None,
        }
        .filter(|u| match *u {
            Unresolved::Latest { from, to } => from <= to && to <= 0,
            Unresolved::Future { from, to, limit } => 0 <= from && from <= to && to <= limit,
        })
    }
}

impl std::fmt::Display for Unresolved {
    /// The call as Oozie writes it in the action (what [`Unresolved::parse`] reads).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Unresolved::Latest { from, to } if from == to => write!(f, "${{coord:latest({from})}}"),
            Unresolved::Latest { from, to } => write!(f, "${{coord:latestRange({from},{to})}}"),
            Unresolved::Future { from, to, limit } if from == to => {
                write!(f, "${{coord:future({from}, {limit})}}")
            }
            Unresolved::Future { from, to, limit } => {
                write!(f, "${{coord:futureRange({from},{to},'{limit}')}}")
            }
        }
    }
}

/// Picks positions `from..=to` (0-based) among the available instances of
/// `candidates` (in walking order), walking no further than needed; `None`
/// when fewer are available.
pub(crate) fn pick<T>(
    candidates: impl Iterator<Item = T>,
    available: &mut dyn FnMut(&T) -> bool,
    from: usize,
    to: usize,
) -> Option<Vec<T>> {
    let mut found = 0;
    let mut picked = Vec::with_capacity(to - from + 1);
    for candidate in candidates {
        if available(&candidate) {
            if found >= from {
                picked.push(candidate);
            }
            found += 1;
            if found > to {
                return Some(picked);
            }
        }
    }
    None
}

/// The result of a condition (CoordInputLogicEvaluatorResult).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Outcome {
    /// True, with the instances chosen: (data-in index, instance index).
    True(Vec<(usize, usize)>),
    /// Waiting for its `wait` to pass (TIMED_WAITING): it counts as true for
    /// `or` (ILR:73-86), and holds the action.
    Waiting,
    False,
}

impl Outcome {
    /// "True" as JEXL's `||` reads it: TRUE and TIMED_WAITING.
    fn truthy(&self) -> bool {
        !matches!(self, Outcome::False)
    }
}

/// The data-ins a condition reads: names, and per data-in which instances
/// are available (remembered across checks: a path found is never checked
/// again).
pub(crate) struct LogicInputs<'n> {
    pub names: Vec<&'n str>,
    pub available: Vec<Vec<bool>>,
}

/// Evaluates `condition` (P1:82-258, OJI:46-79). `probe(d, i)` checks the
/// file system for instance `i` of data-in `d`; `waited` is the whole
/// minutes since max(nominal, created).
pub(crate) fn evaluate(
    condition: &Condition,
    inputs: &mut LogicInputs,
    probe: &mut dyn FnMut(usize, usize) -> bool,
    waited: i64,
) -> Outcome {
    match condition {
        Condition::Or { children, .. } => {
            let mut last = Outcome::False;
            for child in children {
                last = evaluate(child, inputs, probe, waited);
                if last.truthy() {
                    return last;
                }
            }
            last
        }
        Condition::And { children, .. } => {
            let mut chosen: Vec<(usize, usize)> = Vec::new();
            for child in children {
                match evaluate(child, inputs, probe, waited) {
                    // The right side's datasets first, then the left's
                    // (OJI:60-79).
                    Outcome::True(mut right) => {
                        right.append(&mut chosen);
                        chosen = right;
                    }
                    other => return other,
                }
            }
            Outcome::True(chosen)
        }
        Condition::Input {
            data_in, min, wait, ..
        } => {
            let Some(d) = inputs.names.iter().position(|n| n == data_in) else {
                return Outcome::False;
            };
            let Some(available) = inputs.available.get_mut(d) else {
                return Outcome::False;
            };
            let count = available.len();
            // min < 0 (unset): stop at the first missing, as the plain check.
            let scan_all = min.is_some_and(|m| m >= 0);
            for (i, found) in available.iter_mut().enumerate() {
                if !*found {
                    if probe(d, i) {
                        *found = true;
                    } else if !scan_all {
                        break;
                    }
                }
            }
            let chosen: Vec<(usize, usize)> = available
                .iter()
                .enumerate()
                .filter(|(_, found)| **found)
                .map(|(i, _)| (d, i))
                .collect();
            verdict(chosen, count, *min, *wait, waited)
        }
        Condition::Combine {
            inputs: members,
            min,
            wait,
            ..
        } => {
            let indexes: Vec<usize> = members
                .iter()
                .filter_map(|m| inputs.names.iter().position(|n| n == m))
                .collect();
            let Some(&first) = indexes.first() else {
                return Outcome::False;
            };
            let count = inputs.available.get(first).map_or(0, Vec::len);
            let mut chosen = Vec::new();
            for i in 0..count {
                for &d in &indexes {
                    let Some(found) = inputs.available.get_mut(d).and_then(|a| a.get_mut(i)) else {
                        continue;
                    };
                    if !*found && probe(d, i) {
                        *found = true;
                    }
                    if *found {
                        chosen.push((d, i));
                        break;
                    }
                }
            }
            verdict(chosen, count, *min, *wait, waited)
        }
    }
}

/// A leaf's or combine's result from what it found (P1:133-142, 240-258).
fn verdict(
    chosen: Vec<(usize, usize)>,
    count: usize,
    min: Option<i64>,
    wait: Option<i64>,
    waited: i64,
) -> Outcome {
    let found = chosen.len() == count;
    let min = min.unwrap_or(-1);
    let wait = wait.unwrap_or(-1);
    if !found && wait > 0 && waited < wait {
        Outcome::Waiting
    } else if found || (min > 0 && chosen.len() as i64 >= min) || min == 0 {
        Outcome::True(chosen)
    } else {
        Outcome::False
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unresolved_calls_as_materialization_writes_them() {
        assert_eq!(
            Unresolved::parse("${coord:latest(-1)}"),
            Some(Unresolved::Latest { from: -1, to: -1 })
        );
        assert_eq!(
            Unresolved::parse("${coord:latestRange(-3,0)}"),
            Some(Unresolved::Latest { from: -3, to: 0 })
        );
        assert_eq!(
            Unresolved::parse("${coord:future(0, 3)}"),
            Some(Unresolved::Future {
                from: 0,
                to: 0,
                limit: 3
            })
        );
        assert_eq!(
            Unresolved::parse("${coord:futureRange(0,3,'5')}"),
            Some(Unresolved::Future {
                from: 0,
                to: 3,
                limit: 5
            })
        );
        assert_eq!(Unresolved::parse("${coord:latest(1)}"), None);
        // What it writes, it reads back.
        for u in [
            Unresolved::Latest { from: -1, to: -1 },
            Unresolved::Latest { from: -3, to: 0 },
            Unresolved::Future {
                from: 0,
                to: 0,
                limit: 3,
            },
            Unresolved::Future {
                from: 0,
                to: 3,
                limit: 5,
            },
        ] {
            assert_eq!(Unresolved::parse(&u.to_string()), Some(u));
        }
        assert_eq!(Unresolved::parse("${coord:current(0)}"), None);
    }

    #[test]
    fn picking_among_available_instances() {
        let present = [true, false, true, true, false, true];
        let mut available = |i: &usize| present[*i];
        assert_eq!(pick(0..6, &mut available, 0, 0), Some(vec![0]));
        assert_eq!(pick(0..6, &mut available, 1, 2), Some(vec![2, 3]));
        assert_eq!(pick(0..6, &mut available, 0, 3), Some(vec![0, 2, 3, 5]));
        assert_eq!(pick(0..6, &mut available, 0, 4), None);
    }

    fn inputs<'n>(names: &[&'n str], sizes: &[usize]) -> LogicInputs<'n> {
        LogicInputs {
            names: names.to_vec(),
            available: sizes.iter().map(|n| vec![false; *n]).collect(),
        }
    }

    fn input<'a>(data_in: &'a str, min: Option<i64>, wait: Option<i64>) -> Condition<'a> {
        Condition::Input {
            name: None,
            data_in,
            min,
            wait,
        }
    }

    /// Fact 35 (TCIL:364-394): `or(A min 3, B min 3)`, A 2 of 6, B 3 of 6.
    #[test]
    fn or_takes_the_first_true_branch() {
        let condition = Condition::Or {
            name: None,
            children: vec![input("A", Some(3), None), input("B", Some(3), None)],
        };
        let mut state = inputs(&["A", "B"], &[6, 6]);
        let present = |d: usize, i: usize| if d == 0 { i < 2 } else { i < 3 };
        let outcome = evaluate(&condition, &mut state, &mut |d, i| present(d, i), 0);
        assert_eq!(outcome, Outcome::True(vec![(1, 0), (1, 1), (1, 2)]));
    }

    /// Fact 35 (TCIL:396-428): `and(A min 2, B min 3, C min 0)` gives 5 URIs.
    #[test]
    fn and_joins_its_branches() {
        let condition = Condition::And {
            name: None,
            children: vec![
                input("A", Some(2), None),
                input("B", Some(3), None),
                input("C", Some(0), None),
            ],
        };
        let mut state = inputs(&["A", "B", "C"], &[6, 6, 6]);
        let present = |d: usize, i: usize| match d {
            0 => i < 2,
            1 => i < 3,
            _ => false,
        };
        match evaluate(&condition, &mut state, &mut |d, i| present(d, i), 0) {
            Outcome::True(chosen) => assert_eq!(chosen.len(), 5),
            other => panic!("{other:?}"),
        }
    }

    /// Fact 36 (TCIL:511-579): combine covers each index from either input.
    #[test]
    fn combine_covers_indexes() {
        let condition = Condition::Combine {
            name: None,
            inputs: vec!["A", "B"],
            min: None,
            wait: None,
            span: crate::span::Span::EMPTY,
        };
        let mut state = inputs(&["A", "B"], &[6, 6]);
        let outcome = evaluate(&condition, &mut state, &mut |d, i| (d == 0) == (i < 3), 0);
        match outcome {
            Outcome::True(chosen) => assert_eq!(chosen.len(), 6),
            other => panic!("{other:?}"),
        }
        // A 2 + B 2, index 2 in neither: not covered.
        let mut state = inputs(&["A", "B"], &[6, 6]);
        let outcome = evaluate(
            &condition,
            &mut state,
            &mut |d, i| if d == 0 { i < 2 } else { i > 3 },
            0,
        );
        assert_eq!(outcome, Outcome::False);
    }

    /// Fact 37 (TCIL:722-752, 646-682): a waiting first branch holds an
    /// `or`; a combine with min 4 and wait 1 takes 5 of 6 after a minute.
    #[test]
    fn waits() {
        let condition = Condition::Or {
            name: None,
            children: vec![
                input("A", Some(4), Some(180)),
                input("B", Some(4), Some(180)),
            ],
        };
        let mut state = inputs(&["A", "B"], &[6, 6]);
        let outcome = evaluate(&condition, &mut state, &mut |d, i| d == 1 && i < 5, 10);
        assert_eq!(outcome, Outcome::Waiting);
        let combine = Condition::Combine {
            name: None,
            inputs: vec!["A", "B"],
            min: Some(4),
            wait: Some(1),
            span: crate::span::Span::EMPTY,
        };
        let mut state = inputs(&["A", "B"], &[6, 6]);
        let mut probe = |d: usize, i: usize| d == 0 && i < 5;
        assert_eq!(
            evaluate(&combine, &mut state, &mut probe, 0),
            Outcome::Waiting
        );
        match evaluate(&combine, &mut state, &mut probe, 1) {
            Outcome::True(chosen) => assert_eq!(chosen.len(), 5),
            other => panic!("{other:?}"),
        }
    }
}
