//! The workflow graph, checked as Oozie checks it at submission
//! (LiteWorkflowAppParser, LiteWorkflowValidator): node names, transitions,
//! loops and fork/join pairing, each with Oozie's error code, all of them in
//! one pass where Oozie stops at the first. Unreachable nodes, which Oozie
//! accepts, are a warning.

use crate::diag::Diagnostic;
use crate::diag::closest;
use crate::diag::fixes::FixKind;
use crate::diag::rules::{
    WF_DUPLICATE, WF_FORK_JOIN, WF_LOOP, WF_NAME, WF_SELF, WF_TRANSITION, WF_UNREACHABLE,
};
use crate::ir::{Name, NodeKind, Workflow};
use std::collections::{HashMap, HashSet};

/// Oozie's name for the start node, which no other node can have.
const START: &str = ":start:";

/// Longest node name Oozie accepts (ParamChecker.validateActionName).
const MAX_NAME: usize = 128;

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Start,
    End,
    Kill,
    Decision,
    Fork,
    Join,
    Action,
}

struct GraphNode<'a> {
    kind: Kind,
    name: &'a Name,
    /// In Oozie's order: an action's ok then error; a decision's cases then
    /// its default; a fork's paths.
    transitions: Vec<&'a Name>,
}

pub fn check(wf: &Workflow) -> Vec<Diagnostic> {
    let start_name = Name {
        name: START.to_string(),
        span: wf.start.span,
    };
    let mut nodes: Vec<GraphNode> = vec![GraphNode {
        kind: Kind::Start,
        name: &start_name,
        transitions: vec![&wf.start],
    }];
    for node in &wf.nodes {
        let (kind, transitions) = match &node.kind {
            NodeKind::Decision { cases, default } => (
                Kind::Decision,
                cases.iter().map(|(_, to)| to).chain([default]).collect(),
            ),
            NodeKind::Fork { paths } => (Kind::Fork, paths.iter().collect()),
            NodeKind::Join { to } => (Kind::Join, vec![to]),
            NodeKind::Kill { .. } => (Kind::Kill, Vec::new()),
            NodeKind::Action(action) => (Kind::Action, vec![&action.ok, &action.error]),
        };
        nodes.push(GraphNode {
            kind,
            name: &node.name,
            transitions,
        });
    }
    nodes.push(GraphNode {
        kind: Kind::End,
        name: &wf.end,
        transitions: Vec::new(),
    });
    let mut out = Vec::new();
    // E0705: each name once (LiteWorkflowApp.addNode); the first one counts.
    let mut by_name: HashMap<&str, usize> = HashMap::new();
    for (i, node) in nodes.iter().enumerate() {
        if let Some(first) = by_name
            .get(node.name.name.as_str())
            .and_then(|&f| nodes.get(f))
        {
            out.push(
                Diagnostic::error(
                    WF_DUPLICATE,
                    node.name.span,
                    format!("Nnode already defined, node [{}] (E0705)", node.name.name),
                )
                .with_label(first.name.span, "first defined here"),
            );
        } else {
            by_name.insert(&node.name.name, i);
        }
    }
    // E0706: no node transitions to itself (LiteWorkflowAppParser).
    for node in &nodes {
        for t in node.transitions.iter().filter(|t| t.name == node.name.name) {
            out.push(Diagnostic::error(
                WF_SELF,
                t.span,
                format!(
                    "Node cannot transition to itself node [{}] (E0706)",
                    node.name.name
                ),
            ));
        }
    }
    let graph = Graph { nodes, by_name };
    let mut basic = Basic {
        graph: &graph,
        path: Vec::new(),
        checked: HashSet::new(),
        forks: Vec::new(),
        joins: Vec::new(),
        out: Vec::new(),
    };
    basic.walk(0, None);
    let visited = basic.checked.clone();
    let (forks, joins, basic_problems) = (basic.forks, basic.joins, basic.out);
    let clean = out.is_empty() && basic_problems.is_empty();
    out.extend(basic_problems);
    // Fork/join pairing, which Oozie validates only on a workflow that passed
    // the checks above (oozie.validate.ForkJoin, on by default).
    if clean {
        if forks.len() != joins.len() {
            out.extend(unpaired(&graph, &forks, &joins));
        } else {
            let mut pairing = ForkJoin {
                graph: &graph,
                path: Vec::new(),
                fork_of_join: HashMap::new(),
                decision_parent: HashMap::new(),
                visited: HashSet::new(),
            };
            if let Err(d) = pairing.walk(0, None, None, None, true) {
                out.push(d);
            }
        }
    }
    // Not Oozie's: a node no path from start reaches never runs.
    for (i, node) in graph.nodes.iter().enumerate().skip(1) {
        if !visited.contains(&i) && graph.by_name.get(node.name.name.as_str()) == Some(&i) {
            out.push(
                Diagnostic::warning(
                    WF_UNREACHABLE,
                    node.name.span,
                    format!("node `{}` is never reached from the start", node.name.name),
                )
                .with_help("remove it, or add a transition to it"),
            );
        }
    }
    out
}

struct Graph<'a> {
    nodes: Vec<GraphNode<'a>>,
    by_name: HashMap<&'a str, usize>,
}

impl<'a> Graph<'a> {
    fn target(&self, name: &Name) -> Option<usize> {
        self.by_name.get(name.name.as_str()).copied()
    }

    #[allow(
        clippy::indexing_slicing,
        reason = "node ids come from this graph only (0 for the start, by_name, target), so each is an index into self.nodes"
    )]
    fn node(&self, i: usize) -> &GraphNode<'a> {
        &self.nodes[i]
    }
}

/// E0730 (LiteWorkflowValidator.validateForkJoin, LiteWorkflowValidator.java:56-60):
/// Oozie compares only the counts of the forks and joins reached from the
/// start, so no one node is to blame; the diagnostic points at the first node
/// of the kind there are more of, and labels the others.
fn unpaired(graph: &Graph, forks: &[usize], joins: &[usize]) -> Option<Diagnostic> {
    let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    let (more, fewer, more_kind) = if forks.len() > joins.len() {
        (forks, joins, "fork")
    } else {
        (joins, forks, "join")
    };
    let span = |i: usize| graph.node(i).name.span;
    let (&first, others) = more.split_first()?;
    let mut d = Diagnostic::error(
        WF_FORK_JOIN,
        span(first),
        format!(
            "Fork/join not in pair (E0730): {} and {}",
            plural(forks.len(), "fork"),
            plural(joins.len(), "join")
        ),
    );
    for &i in others {
        d = d.with_label(span(i), format!("another {more_kind}"));
    }
    let fewer_kind = if more_kind == "fork" { "join" } else { "fork" };
    for &i in fewer {
        d = d.with_label(span(i), format!("a {fewer_kind}"));
    }
    Some(d.with_help(format!(
        "every fork needs one join where its paths meet; this workflow has {} without a {fewer_kind}",
        if more.len() - fewer.len() == 1 {
            format!("a {more_kind}")
        } else {
            format!("{} {more_kind}s", more.len() - fewer.len())
        }
    )))
}

/// LiteWorkflowValidator.performBasicValidation, reporting every problem
/// rather than the first: names, loops, transitions to undefined nodes.
struct Basic<'g, 'a> {
    graph: &'g Graph<'a>,
    path: Vec<usize>,
    checked: HashSet<usize>,
    /// The forks and joins reached, in the order they were.
    forks: Vec<usize>,
    joins: Vec<usize>,
    out: Vec<Diagnostic>,
}

impl<'a> Basic<'_, 'a> {
    /// Walks from node `i`, reached by the transition `via` (none for the
    /// start).
    fn walk(&mut self, i: usize, via: Option<&'a Name>) {
        grow(|| self.walk_here(i, via))
    }

    fn walk_here(&mut self, i: usize, via: Option<&'a Name>) {
        let node = self.graph.node(i);
        if node.kind != Kind::Start && node.name.name.chars().count() > MAX_NAME {
            self.out.push(Diagnostic::error(
                WF_NAME,
                node.name.span,
                format!(
                    "the node name is {} characters long; Oozie accepts at most {MAX_NAME} (E0724)",
                    node.name.name.chars().count()
                ),
            ));
        }
        match node.kind {
            Kind::Fork => self.forks.push(i),
            Kind::Join => self.joins.push(i),
            _ => {}
        }
        if self.path.last() == Some(&i) {
            // A self-transition, reported as such (E0706, which Oozie finds
            // while parsing, before it looks for loops).
            return;
        }
        if self.path.contains(&i) {
            let names: Vec<&str> = self
                .path
                .iter()
                .chain([&i])
                .map(|&n| self.graph.node(n).name.name.as_str())
                .collect();
            // At the transition that closes the loop (LiteWorkflowValidator.java:344-350).
            let closing = via.map_or(node.name.span, |t| t.span);
            self.out.push(
                Diagnostic::error(
                    WF_LOOP,
                    closing,
                    format!(
                        "Loop detected at parsing, node [{}] (E0707): {}",
                        node.name.name,
                        names.join("->")
                    ),
                )
                .with_label(node.name.span, "the loop starts here"),
            );
            return;
        }
        self.path.push(i);
        for t in &node.transitions {
            match self.graph.target(t) {
                None => {
                    let d = Diagnostic::error(
                        WF_TRANSITION,
                        t.span,
                        format!(
                            "Invalid transition, node [{}] transition [{}] (E0708)",
                            node.name.name, t.name
                        ),
                    );
                    let best = closest(
                        &t.name,
                        self.graph.nodes.iter().skip(1).map(|n| n.name.name.clone()),
                    );
                    self.out.push(match best {
                        // (A name written as it is, no entity, is replaced whole.)
                        Some(best) if t.span.range().len() == t.name.len() => d
                            .with_help(format!("did you mean `{best}`?"))
                            .with_fix(FixKind::TransitionDidYouMean, t.span, best),
                        Some(best) => d.with_help(format!("did you mean `{best}`?")),
                        None => d.with_help(format!("no node is named `{}`", t.name)),
                    });
                }
                Some(next) if !self.checked.contains(&next) => {
                    self.walk(next, Some(*t));
                    self.checked.insert(next);
                }
                Some(_) => {}
            }
        }
        self.path.pop();
    }
}

/// Runs one step of a walk that recurses once per node on a path: a long
/// chain of nodes goes deeper than any thread's stack, so the stack grows on
/// the heap when it runs low.
fn grow<R>(step: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(256 * 1024, 8 * 1024 * 1024, step)
}

/// LiteWorkflowValidator.validateForkJoin: forks and joins in pairs, no end
/// inside a fork, one "ok" path to each node. Oozie stops at the first
/// problem here, and so does this walk.
struct ForkJoin<'g, 'a> {
    graph: &'g Graph<'a>,
    path: Vec<usize>,
    /// Join -> the fork whose paths reach it.
    fork_of_join: HashMap<usize, usize>,
    /// Node -> the eldest decision on the "ok" path that reached it.
    decision_parent: HashMap<usize, Option<usize>>,
    visited: HashSet<usize>,
}

impl<'a> ForkJoin<'_, 'a> {
    fn name(&self, i: usize) -> &str {
        &self.graph.node(i).name.name
    }

    fn error(&self, i: usize, message: String) -> Diagnostic {
        Diagnostic::error(WF_FORK_JOIN, self.graph.node(i).name.span, message)
    }

    fn target(&self, t: &Name) -> usize {
        // Transitions are known to exist: the basic walk passed.
        self.graph.target(t).unwrap_or(0)
    }

    /// Walks from node `i`, reached by the transition `via` (none for the
    /// start), on the paths of `fork`.
    fn walk(
        &mut self,
        i: usize,
        via: Option<&'a Name>,
        fork: Option<usize>,
        top_decision: Option<usize>,
        ok_path: bool,
    ) -> Result<(), Diagnostic> {
        grow(|| self.walk_here(i, via, fork, top_decision, ok_path))
    }

    fn walk_here(
        &mut self,
        i: usize,
        via: Option<&'a Name>,
        fork: Option<usize>,
        top_decision: Option<usize>,
        ok_path: bool,
    ) -> Result<(), Diagnostic> {
        let node = self.graph.node(i);
        self.path.push(i);
        if ok_path && !matches!(node.kind, Kind::Kill | Kind::Join | Kind::End) {
            match self.decision_parent.get(&i) {
                None => {
                    self.decision_parent.insert(i, top_decision);
                }
                Some(parent)
                    if parent.is_none() && top_decision.is_none() || *parent != top_decision =>
                {
                    // At the second "ok" transition to the node
                    // (LiteWorkflowValidator.java:185-197).
                    let message = format!(
                        "Multiple \"ok to\" transitions to the same node, [{}], are not allowed (E0743)",
                        self.name(i)
                    );
                    return Err(match via {
                        Some(t) => Diagnostic::error(WF_FORK_JOIN, t.span, message)
                            .with_label(node.name.span, "the node"),
                        None => self.error(i, message),
                    });
                }
                Some(_) => {}
            }
        }
        if self.visited.contains(&i) {
            self.path.pop();
            return Ok(());
        }
        if !matches!(node.kind, Kind::Join | Kind::End) {
            self.visited.insert(i);
        }
        match node.kind {
            Kind::Fork => {
                // E0744: a fork goes to each node once (joins and kills aside).
                for t in &node.transitions {
                    let target = self.target(t);
                    let repeated = node.transitions.iter().filter(|o| o.name == t.name).count() > 1;
                    if repeated && !matches!(self.graph.node(target).kind, Kind::Join | Kind::Kill)
                    {
                        return Err(Diagnostic::error(
                            WF_FORK_JOIN,
                            t.span,
                            format!(
                                "A fork, [{}], is not allowed to have multiple transitions to the same node, [{}] (E0744)",
                                self.name(i),
                                t.name
                            ),
                        ));
                    }
                }
                for t in &node.transitions {
                    let target = self.target(t);
                    self.walk(target, Some(*t), Some(i), top_decision, ok_path)?;
                }
                let mut joins: Vec<usize> = self
                    .fork_of_join
                    .iter()
                    .filter(|(_, f)| **f == i)
                    .map(|(j, _)| *j)
                    .collect();
                joins.sort_unstable();
                match joins.as_slice() {
                    [] => {
                        return Err(self.error(
                            i,
                            format!("Fork node [{}] has no join (E0733)", self.name(i)),
                        ));
                    }
                    [join] => {
                        // A join has one transition, its `to`.
                        if let Some(&to) = self.graph.node(*join).transitions.first() {
                            self.walk(self.target(to), Some(to), fork, top_decision, ok_path)?;
                        }
                    }
                    many => {
                        let names: Vec<&str> = many.iter().map(|&j| self.name(j)).collect();
                        let mut d = self.error(
                            i,
                            format!(
                                "Fork node [{}] has multiple joins: [{}] (E0757)",
                                self.name(i),
                                names.join(",")
                            ),
                        );
                        for &j in many {
                            d = d
                                .with_label(self.graph.node(j).name.span, "a join its paths reach");
                        }
                        return Err(d);
                    }
                }
            }
            Kind::Join => {
                let Some(fork) = fork else {
                    return Err(self.error(
                        i,
                        format!("No Fork for Join [{}] to pair with (E0742)", self.name(i)),
                    ));
                };
                match self.fork_of_join.get(&i) {
                    None => {
                        self.fork_of_join.insert(i, fork);
                    }
                    Some(&other) if other != fork => {
                        return Err(self
                            .error(
                                i,
                                format!(
                                    "Join node [{}] has multiple forks: [{},{}] (E0758)",
                                    self.name(i),
                                    self.name(other),
                                    self.name(fork)
                                ),
                            )
                            .with_label(
                                self.graph.node(other).name.span,
                                "a fork whose paths reach it",
                            )
                            .with_label(self.graph.node(fork).name.span, "another fork")
                            .with_help(
                                "each fork needs its own join; join the inner fork before the outer join",
                            ));
                    }
                    Some(_) => {}
                }
            }
            Kind::Decision => {
                let parent = top_decision.or(Some(i));
                for t in &node.transitions {
                    let target = self.target(t);
                    self.walk(target, Some(*t), fork, parent, ok_path)?;
                }
            }
            Kind::End => {
                if let Some(fork) = fork {
                    // At the transition to the end (LiteWorkflowValidator.java:293-300).
                    // The node before this one on the path (which ends at `i`).
                    let previous = match self.path.as_slice() {
                        [.., previous, _] => *previous,
                        _ => i,
                    };
                    let message = format!(
                        "Invalid transition from node [{}] to node [{}] while using fork/join (E0737)",
                        self.name(previous),
                        self.name(i)
                    );
                    let d = match via {
                        Some(t) => Diagnostic::error(WF_FORK_JOIN, t.span, message),
                        None => self.error(previous, message),
                    };
                    return Err(d
                        .with_label(self.graph.node(fork).name.span, "inside this fork")
                        .with_help("a path of a fork goes to its join, or to a kill node"));
                }
            }
            Kind::Action => {
                // An action's transitions are its ok then its error.
                if let &[ok, error] = node.transitions.as_slice() {
                    self.walk(self.target(ok), Some(ok), fork, top_decision, ok_path)?;
                    self.walk(self.target(error), Some(error), fork, top_decision, false)?;
                }
            }
            Kind::Start => {
                if let Some(&to) = node.transitions.first() {
                    self.walk(self.target(to), Some(to), fork, top_decision, ok_path)?;
                }
            }
            Kind::Kill => {}
        }
        self.path.pop();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::lower;
    use crate::xml::{Arena, parse};

    /// `CODE message` of each problem of a 0.5 workflow made of `nodes`
    /// between `<start to="first">` and `<end name="end"/>`.
    fn problems(first: &str, nodes: &str) -> Vec<String> {
        let src = format!(
            r#"<workflow-app xmlns="uri:oozie:workflow:0.5" name="wf"><start to="{first}"/>{nodes}<end name="end"/></workflow-app>"#
        );
        let arena = Arena::new();
        let doc = parse(&src, &arena).unwrap();
        assert!(crate::xml::validate(&doc).is_empty(), "{src}");
        let (wf, lowering) = lower::workflow(&doc.root);
        assert!(lowering.is_empty());
        check(&wf)
            .into_iter()
            .map(|d| format!("{} {}", d.code, d.message))
            .collect()
    }

    /// What each problem's primary span covers, in the workflow text, with
    /// the text before it on its line (to tell `to="x"` from `name="x"`).
    fn pointed(first: &str, nodes: &str) -> Vec<String> {
        let src = format!(
            r#"<workflow-app xmlns="uri:oozie:workflow:0.5" name="wf"><start to="{first}"/>{nodes}<end name="end"/></workflow-app>"#
        );
        let arena = Arena::new();
        let doc = parse(&src, &arena).unwrap();
        let (wf, _) = lower::workflow(&doc.root);
        check(&wf)
            .into_iter()
            .map(|d| {
                let (start, end) = (d.span.start as usize, d.span.end as usize);
                let before = &src[src[..start].rfind('<').unwrap_or(0)..start];
                format!("{} {before}[{}]", d.code, &src[start..end])
            })
            .collect()
    }

    fn action(name: &str, ok: &str, error: &str) -> String {
        format!(
            r#"<action name="{name}"><fs><mkdir path="/p"/></fs><ok to="{ok}"/><error to="{error}"/></action>"#
        )
    }

    const KILL: &str = r#"<kill name="fail"><message>m</message></kill>"#;

    #[test]
    fn a_valid_workflow_has_no_problems() {
        let nodes = action("a", "d", "fail")
            + r#"<decision name="d"><switch><case to="b">${true}</case><default to="end"/></switch></decision>"#
            + &action("b", "end", "fail")
            + KILL;
        assert_eq!(problems("a", &nodes), Vec::<String>::new());
    }

    #[test]
    fn names_transitions_and_loops_all_reported() {
        // E0705, E0706, E0708 (with a suggestion) and E0707 with its path.
        let nodes = action("a", "a", "fail") + &action("a", "b", "fail") + KILL;
        let found = problems("a", &nodes);
        assert!(
            found.contains(&"WF001 Nnode already defined, node [a] (E0705)".to_string()),
            "{found:?}"
        );
        assert!(
            found.contains(&"WF002 Node cannot transition to itself node [a] (E0706)".to_string()),
            "{found:?}"
        );
        // A self-transition is not reported again as a loop.
        assert!(!found.iter().any(|f| f.starts_with("WF003")), "{found:?}");
        let nodes = action("a", "b", "fail") + &action("b", "a", "fial") + KILL;
        let found = problems("a", &nodes);
        assert_eq!(
            found,
            [
                "WF003 Loop detected at parsing, node [a] (E0707): :start:->a->b->a",
                "WF004 Invalid transition, node [b] transition [fial] (E0708)",
                // True, too: this workflow can never succeed.
                "WF007 node `end` is never reached from the start",
            ]
        );
        // A node nothing reaches is a warning, not an Oozie error.
        let nodes = action("a", "end", "fail") + &action("orphan", "end", "fail") + KILL;
        assert_eq!(
            problems("a", &nodes),
            ["WF007 node `orphan` is never reached from the start"]
        );
    }

    #[test]
    fn fork_join_pairing_as_oozie_validates_it() {
        let fork = |paths: &[&str]| {
            let p: String = paths
                .iter()
                .map(|p| format!(r#"<path start="{p}"/>"#))
                .collect();
            format!(r#"<fork name="f">{p}</fork>"#)
        };
        let join = r#"<join name="j" to="end"/>"#;
        // Paired: fine.
        let nodes =
            fork(&["a", "b"]) + &action("a", "j", "fail") + &action("b", "j", "fail") + join + KILL;
        assert_eq!(problems("f", &nodes), Vec::<String>::new());
        // A path that ends the workflow inside the fork (E0737).
        let nodes = fork(&["a", "b"])
            + &action("a", "j", "fail")
            + &action("b", "end", "fail")
            + join
            + KILL;
        assert_eq!(
            problems("f", &nodes),
            ["WF006 Invalid transition from node [b] to node [end] while using fork/join (E0737)"]
        );
        // The same node started twice (E0744).
        let nodes = fork(&["a", "a"]) + &action("a", "j", "fail") + join + KILL;
        assert_eq!(
            problems("f", &nodes),
            [
                "WF006 A fork, [f], is not allowed to have multiple transitions to the same node, [a] (E0744)"
            ]
        );
        // More forks than joins (E0730).
        let nodes =
            fork(&["a", "b"]) + &action("a", "end", "fail") + &action("b", "end", "fail") + KILL;
        assert_eq!(
            problems("f", &nodes),
            ["WF006 Fork/join not in pair (E0730): 1 fork and 0 joins"]
        );
        // A join no fork leads to: the counts differ first (E0730), as in Oozie.
        let nodes = action("a", "j", "fail") + join + KILL;
        assert_eq!(
            problems("a", &nodes),
            ["WF006 Fork/join not in pair (E0730): 0 forks and 1 join"]
        );
        // Two forks whose paths meet in one join (E0758).
        let nodes = r#"<fork name="f"><path start="a"/><path start="g"/></fork><fork name="g"><path start="b"/><path start="c"/></fork>"#.to_string()
            + &action("a", "j", "fail") + &action("b", "j", "fail") + &action("c", "j", "fail")
            + r#"<join name="j" to="j2"/><join name="j2" to="end"/>"# + KILL;
        assert_eq!(
            problems("f", &nodes),
            ["WF006 Join node [j] has multiple forks: [f,g] (E0758)"]
        );
    }

    #[test]
    fn graph_problems_point_at_the_element_responsible() {
        let fork = r#"<fork name="f"><path start="a"/><path start="b"/></fork>"#;
        let join = r#"<join name="j" to="end"/>"#;
        // E0730 at the fork that has no join, not at the root.
        let nodes =
            fork.to_string() + &action("a", "end", "fail") + &action("b", "end", "fail") + KILL;
        assert_eq!(pointed("f", &nodes), [r#"WF006 <fork name="[f]"#]);
        // E0737 at the `ok to="end"` inside the fork.
        let nodes = fork.to_string()
            + &action("a", "j", "fail")
            + &action("b", "end", "fail")
            + join
            + KILL;
        assert_eq!(pointed("f", &nodes), [r#"WF006 <ok to="[end]"#]);
        // E0743 at the second "ok" transition to the node: `a` reaches `b`
        // first, then the fork's own path does.
        let nodes =
            fork.to_string() + &action("a", "b", "fail") + &action("b", "j", "fail") + join + KILL;
        assert_eq!(pointed("f", &nodes), [r#"WF006 <path start="[b]"#]);
        // E0707 at the transition that closes the loop; E0708 at the `to`.
        let nodes = action("a", "b", "fail") + &action("b", "a", "fial") + KILL;
        assert_eq!(
            pointed("a", &nodes),
            [
                r#"WF003 <ok to="[a]"#,
                r#"WF004 <error to="[fial]"#,
                r#"WF007 <end name="[end]"#
            ]
        );
    }
}
