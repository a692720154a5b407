//! The workflow interpreter on seeded random workflows (nested forks,
//! decisions, retry attributes) and scripts (outcomes, transient failures,
//! durations): every run ends where its graph and statuses say, joins wait
//! for their paths, retries stay within their caps, and a run is the same
//! twice. `COORDC_WF_SEED` and `COORDC_WF_CASES` run other seeds.

use crate::common;

use common::rng::Rng;
use coordc::el::VarMap;
use coordc::interp::workflow::graph::Graph;
use coordc::interp::workflow::run::{NodeStatus, Run, RunInput, RunStatus, run};
use coordc::interp::workflow::script::{NodeScript, Outcome, Script};
use std::fmt::Write;

/// Writes a block of nodes that starts at the returned name and goes on to
/// `next`; `fork_depth` bounds the nesting.
struct Gen {
    rng: Rng,
    out: String,
    count: usize,
    actions: Vec<String>,
}

impl Gen {
    fn fresh(&mut self, prefix: &str) -> String {
        self.count += 1;
        format!("{prefix}{}", self.count)
    }

    fn block(&mut self, next: &str, depth: u32) -> String {
        let length = 1 + self.rng.below(3);
        let mut to = next.to_string();
        // Built back to front: each element goes on to the one after it.
        for _ in 0..length {
            to = match self.rng.below(if depth < 3 { 4 } else { 2 }) {
                0 | 1 => self.action(&to),
                2 => self.decision(&to, depth),
                _ => self.fork(&to, depth),
            };
        }
        to
    }

    fn action(&mut self, ok: &str) -> String {
        let name = self.fresh("a");
        let retry = match self.rng.below(3) {
            0 => String::new(),
            1 => format!(r#" retry-max="{}" retry-interval="1""#, self.rng.below(6)),
            _ => format!(
                r#" retry-max="{}" retry-interval="2" retry-policy="exponential""#,
                1 + self.rng.below(4)
            ),
        };
        write!(
            self.out,
            r#"<action name="{name}"{retry}><java><job-tracker>jt</job-tracker><name-node>nn</name-node><main-class>M</main-class><arg>${{wf:lastErrorNode()}}</arg><capture-output/></java><ok to="{ok}"/><error to="fail"/></action>"#
        )
        .unwrap();
        self.actions.push(name.clone());
        name
    }

    fn decision(&mut self, next: &str, depth: u32) -> String {
        let name = self.fresh("d");
        let left = self.block(next, depth + 1);
        let right = self.block(next, depth + 1);
        let case = match self.rng.below(3) {
            0 => "${fs:exists('/flag')}".to_string(),
            1 => format!(
                "${{wf:actionData('{}')['go'] eq 'yes'}}",
                self.pick_action()
            ),
            _ => "${wf:lastErrorNode() eq ''}".to_string(),
        };
        write!(
            self.out,
            r#"<decision name="{name}"><switch><case to="{left}">{case}</case><default to="{right}"/></switch></decision>"#
        )
        .unwrap();
        name
    }

    fn pick_action(&mut self) -> String {
        if self.actions.is_empty() {
            return "none".to_string();
        }
        let i = self.rng.below(self.actions.len() as u64) as usize;
        self.actions[i].clone()
    }

    fn fork(&mut self, next: &str, depth: u32) -> String {
        let name = self.fresh("f");
        let join = self.fresh("j");
        write!(self.out, r#"<join name="{join}" to="{next}"/>"#).unwrap();
        let paths: Vec<String> = (0..2 + self.rng.below(3))
            .map(|_| {
                // A fork's path starts at an action (E0744's neighbour rule).
                let rest = self.block(&join, depth + 1);
                self.action(&rest)
            })
            .collect();
        write!(self.out, r#"<fork name="{name}">"#).unwrap();
        for p in &paths {
            write!(self.out, r#"<path start="{p}"/>"#).unwrap();
        }
        self.out.push_str("</fork>");
        name
    }
}

fn workflow_text(seed: u64) -> (String, Vec<String>) {
    let mut g = Gen {
        rng: Rng(seed | 1),
        out: String::new(),
        count: 0,
        actions: Vec::new(),
    };
    let first = g.block("end", 0);
    let text = format!(
        r#"<workflow-app name="random" xmlns="uri:oozie:workflow:0.5"><start to="{first}"/>{}<kill name="fail"><message>${{wf:lastErrorNode()}} failed</message></kill><end name="end"/></workflow-app>"#,
        g.out
    );
    (text, g.actions)
}

fn script(rng: &mut Rng, actions: &[String]) -> Script {
    let mut nodes = Vec::new();
    for name in actions {
        nodes.push(NodeScript {
            name: name.clone(),
            outcome: Some(if rng.below(6) == 0 {
                Outcome::Error
            } else {
                Outcome::Ok
            }),
            error_code: Some(["JA018", "JA011", "FS009"][rng.below(3) as usize].to_string()),
            duration: Some(60_000 * (1 + rng.below(20) as i64)),
            transient_failures: Some(if rng.below(4) == 0 {
                rng.below(5) as u32
            } else {
                0
            }),
            action_data: Some(vec![(
                "go".to_string(),
                if rng.below(2) == 0 { "yes" } else { "no" }.to_string(),
            )]),
            ..NodeScript::default()
        });
    }
    Script {
        nodes,
        ..Script::default()
    }
}

fn run_once(graph: &std::sync::Arc<Graph>, script: &Script) -> Run {
    let conf = VarMap::default();
    run(graph, &RunInput::alone(&conf, script))
}

fn check_run(run: &Run, script: &Script, what: &str) {
    let last = run.nodes.last().expect("a node ran");
    match run.status {
        RunStatus::Succeeded => {
            assert_eq!(last.type_name, "end", "{what}");
            assert_eq!(run.end_node.as_deref(), Some("end"), "{what}");
        }
        RunStatus::Killed => {
            assert_eq!(last.type_name, "kill", "{what}");
            assert_eq!(
                run.kill_message.as_deref().map(|m| m.ends_with(" failed")),
                Some(true),
                "{what}"
            );
            // Reached through an action's error transition.
            assert!(
                run.nodes.iter().any(|n| n.status == NodeStatus::Error),
                "{what}"
            );
        }
        RunStatus::Suspended => {
            assert!(run.ended.is_none(), "{what}");
            assert_eq!(
                run.nodes
                    .iter()
                    .filter(|n| n.status == NodeStatus::StartManual)
                    .count(),
                1,
                "{what}"
            );
        }
        other => panic!("{what}: {other:?} (these workflows fail no EL)"),
    }
    for n in &run.nodes {
        if run.status != RunStatus::Suspended {
            assert!(
                n.status != NodeStatus::Running,
                "{what}: {} still running",
                n.name
            );
        }
        if let Some(end) = n.ended {
            assert!(end >= n.started, "{what}: {} ends before it starts", n.name);
            assert!(
                run.ended.is_none_or(|e| end <= e),
                "{what}: {} after the job",
                n.name
            );
        }
        // Retries within the server's caps (3 user retries, 3 transient).
        assert!(n.retries <= 3, "{what}: {} retried {}", n.name, n.retries);
        if n.status == NodeStatus::Ok
            && let Some(s) = script.nodes.iter().find(|s| s.name == n.name)
        {
            // An action that succeeded retried exactly its transient failures.
            assert_eq!(
                n.retries,
                s.transient_failures.unwrap_or(0),
                "{what}: {}",
                n.name
            );
        }
        if n.type_name == "join" {
            // A join fires when its last path arrives: no earlier than every
            // node run that goes to it.
            for m in run
                .nodes
                .iter()
                .filter(|m| m.transition.as_deref() == Some(&n.name))
            {
                assert!(
                    m.ended.is_some_and(|e| e <= n.started),
                    "{what}: {} before {}",
                    n.name,
                    m.name
                );
            }
        }
    }
}

#[test]
fn random_workflows_end_where_their_graph_says() {
    let seed: u64 = std::env::var("COORDC_WF_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5EED_0021);
    let cases: u64 = std::env::var("COORDC_WF_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let mut statuses = std::collections::BTreeMap::new();
    for case in 0..cases {
        let case_seed = seed.wrapping_mul(6364136223846793005).wrapping_add(case);
        let (text, actions) = workflow_text(case_seed);
        let what = format!("seed {case_seed}");
        let arena = coordc::xml::Arena::new();
        let doc = coordc::xml::parse(&text, &arena).unwrap();
        assert!(coordc::xml::validate(&doc).is_empty(), "{what}: {text}");
        let (wf, problems) = coordc::ir::lower::workflow(&doc.root);
        assert!(problems.is_empty(), "{what}");
        let graph_problems = coordc::check::workflow::check(&wf);
        assert!(
            graph_problems.is_empty(),
            "{what}: the generator wrote an invalid graph: {graph_problems:?}\n{text}"
        );
        let graph = std::sync::Arc::new(
            Graph::new(std::sync::Arc::new(wf)).unwrap_or_else(|_| panic!("{what}: a graph")),
        );
        let mut rng = coordc_rng(case_seed);
        let script = script(&mut rng, &actions);
        let first = run_once(&graph, &script);
        check_run(&first, &script, &what);
        let second = run_once(&graph, &script);
        assert_eq!(
            format!("{first:?}"),
            format!("{second:?}"),
            "{what}: not the same twice"
        );
        *statuses.entry(first.status.name()).or_insert(0) += 1;
    }
    // The generator reaches every ending.
    for status in ["SUCCEEDED", "KILLED", "SUSPENDED"] {
        assert!(statuses.get(status).is_some_and(|&n| n > 0), "{statuses:?}");
    }
}

fn coordc_rng(seed: u64) -> Rng {
    Rng(seed.rotate_left(17) | 1)
}
