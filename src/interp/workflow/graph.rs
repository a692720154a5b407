//! A workflow's nodes with their transitions resolved to indexes: what the
//! interpreter walks. Built once per workflow application, run many times.

use crate::diag::Diagnostic;
use crate::diag::rules::SIMULATE_SCENARIO;
use crate::ir::{ElText, Name, NodeKind, Workflow, WorkflowAction};
use rustc_hash::FxHashMap;

pub struct Graph<'w> {
    pub wf: &'w Workflow,
    pub nodes: Vec<GraphNode<'w>>,
    /// Where `<start>` goes.
    pub start: usize,
}

pub struct GraphNode<'w> {
    pub name: &'w str,
    pub kind: Kind<'w>,
}

pub enum Kind<'w> {
    Action {
        action: &'w WorkflowAction,
        ok: usize,
        error: usize,
    },
    Decision {
        cases: Vec<(&'w ElText, usize)>,
        default: usize,
    },
    Fork {
        paths: Vec<usize>,
    },
    Join {
        to: usize,
    },
    Kill {
        message: &'w ElText,
    },
    End,
}

impl Kind<'_> {
    /// The node's type, as the JSON report names it.
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            Kind::Action { .. } => "action",
            Kind::Decision { .. } => "decision",
            Kind::Fork { .. } => "fork",
            Kind::Join { .. } => "join",
            Kind::Kill { .. } => "kill",
            Kind::End => "end",
        }
    }
}

impl<'w> Graph<'w> {
    /// The graph of `wf`, or the transitions that lead nowhere (which
    /// `coordc check` reports as WF errors, and Oozie refuses with E0708).
    pub fn new(wf: &'w Workflow) -> Result<Graph<'w>, Vec<Diagnostic>> {
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
            let kind = match &node.kind {
                NodeKind::Action(action) => Kind::Action {
                    action,
                    ok: target(&action.ok),
                    error: target(&action.error),
                },
                NodeKind::Decision { cases, default } => Kind::Decision {
                    cases: cases.iter().map(|(p, to)| (p, target(to))).collect(),
                    default: target(default),
                },
                NodeKind::Fork { paths } => Kind::Fork {
                    paths: paths.iter().map(&mut target).collect(),
                },
                NodeKind::Join { to } => Kind::Join { to: target(to) },
                NodeKind::Kill { message } => Kind::Kill { message },
            };
            nodes.push(GraphNode {
                name: &node.name.name,
                kind,
            });
        }
        nodes.push(GraphNode {
            name: &wf.end.name,
            kind: Kind::End,
        });
        let start = target(&wf.start);
        if problems.is_empty() {
            Ok(Graph { wf, nodes, start })
        } else {
            Err(problems)
        }
    }
}
