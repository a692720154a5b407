//! A workflow's nodes with their transitions resolved to indexes: what the
//! interpreter walks. Built once per workflow application, run many times.

use crate::diag::Diagnostic;
use crate::diag::rules::SIMULATE_SCENARIO;
use crate::ir::{ElText, Name, NodeKind, Workflow, WorkflowAction};
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// A workflow's graph. It owns its application (shared), so a job can keep
/// it between the steps of its run.
#[derive(Debug)]
pub struct Graph {
    pub wf: Arc<Workflow>,
    /// Per node of `wf.nodes`, in order, then the `end` node.
    pub nodes: Vec<Kind>,
    /// Where `<start>` goes.
    pub start: usize,
}

/// A node's kind, its transitions resolved to node indexes.
#[derive(Debug)]
pub enum Kind {
    Action {
        ok: usize,
        error: usize,
    },
    /// Each case's target, in order (the predicates are the node's).
    Decision {
        cases: Vec<usize>,
        default: usize,
    },
    Fork {
        paths: Vec<usize>,
    },
    Join {
        to: usize,
    },
    Kill,
    End,
}

impl Kind {
    /// The node's type, as the JSON report names it.
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            Kind::Action { .. } => "action",
            Kind::Decision { .. } => "decision",
            Kind::Fork { .. } => "fork",
            Kind::Join { .. } => "join",
            Kind::Kill => "kill",
            Kind::End => "end",
        }
    }
}

impl Graph {
    /// The graph of `wf`, or the transitions that lead nowhere (which
    /// `coordc check` reports as WF errors, and Oozie refuses with E0708).
    pub fn new(wf: Arc<Workflow>) -> Result<Graph, Vec<Diagnostic>> {
        let mut index: FxHashMap<&str, usize> = FxHashMap::default();
        for (i, node) in wf.nodes.iter().enumerate() {
            index.entry(node.name.name.as_str()).or_insert(i);
        }
        let end = wf.nodes.len();
        index.entry(wf.end.name.as_str()).or_insert(end);
        let mut problems = Vec::new();
        let mut target = |name: &Name| match index.get(name.name.as_str()) {
            Some(&i) => i,
            None => {
                problems.push(
                    Diagnostic::error(
                        SIMULATE_SCENARIO,
                        name.span,
                        format!(
                            "the transition to `{}` goes to no node: the workflow cannot run",
                            name.name
                        ),
                    )
                    .with_help("run `coordc check` on the workflow and fix what it reports"),
                );
                end
            }
        };
        let mut nodes = Vec::with_capacity(wf.nodes.len() + 1);
        for node in &wf.nodes {
            nodes.push(match &node.kind {
                NodeKind::Action(action) => Kind::Action {
                    ok: target(&action.ok),
                    error: target(&action.error),
                },
                NodeKind::Decision { cases, default } => Kind::Decision {
                    cases: cases.iter().map(|(_, to)| target(to)).collect(),
                    default: target(default),
                },
                NodeKind::Fork { paths } => Kind::Fork {
                    paths: paths.iter().map(&mut target).collect(),
                },
                NodeKind::Join { to } => Kind::Join { to: target(to) },
                NodeKind::Kill { .. } => Kind::Kill,
            });
        }
        nodes.push(Kind::End);
        let start = target(&wf.start);
        if problems.is_empty() {
            Ok(Graph { wf, nodes, start })
        } else {
            Err(problems)
        }
    }

    /// Node `node`'s name (`end`'s past the others).
    pub fn name(&self, node: usize) -> &str {
        self.wf
            .nodes
            .get(node)
            .map_or(self.wf.end.name.as_str(), |n| n.name.name.as_str())
    }

    /// Action node `node`'s definition.
    pub(crate) fn action(&self, node: usize) -> Option<&WorkflowAction> {
        match &self.wf.nodes.get(node)?.kind {
            NodeKind::Action(action) => Some(action),
            _ => None,
        }
    }

    /// Decision node `node`'s predicates, in the order of its cases.
    pub(crate) fn predicates(&self, node: usize) -> impl Iterator<Item = &ElText> {
        let cases = match self.wf.nodes.get(node).map(|n| &n.kind) {
            Some(NodeKind::Decision { cases, .. }) => cases.as_slice(),
            _ => &[],
        };
        cases.iter().map(|(predicate, _)| predicate)
    }

    /// Kill node `node`'s message.
    pub(crate) fn kill_message(&self, node: usize) -> Option<&ElText> {
        match &self.wf.nodes.get(node)?.kind {
            NodeKind::Kill { message } => Some(message),
            _ => None,
        }
    }
}
