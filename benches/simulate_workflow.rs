//! The workflow interpreter (issue 21): a 1,000-node workflow (forks of 50
//! paths, a decision every 10 nodes) run once (target ≤ 10 ms), and a year
//! of a 5-minute coordinator whose 105,120 actions each run a 10-node
//! workflow from its local application (target ≤ 3 s). docs/performance.md
//! ("Workflow simulation") keeps the figures.

use coordc::el::VarMap;
use coordc::interp::simulate::engine::{Engine, JobInput};
use coordc::interp::simulate::scenario::model::Scenario;
use coordc::interp::workflow::graph::Graph;
use coordc::interp::workflow::run::{RunInput, RunStatus, SubWorkflow, SubWorkflows, run};
use coordc::interp::workflow::script::Script;
use coordc::ir::{Workflow, lower};
use coordc::oozie::job::{Options, prepare};
use coordc::time::cron::MaxYear;
use coordc::time::datetime::ProcessingZone;
use criterion::{Criterion, criterion_group, criterion_main};
use std::fmt::Write;
use std::hint::black_box;
use std::sync::Arc;

// The allocator the `coordc` binary uses (src/main.rs).
#[global_allocator]
static GLOBAL: coordc::alloc::MiMalloc = coordc::alloc::MiMalloc;

fn action(out: &mut String, name: &str, to: &str) {
    writeln!(
        out,
        r#"<action name="{name}"><java><job-tracker>${{jobTracker}}</job-tracker><name-node>${{nameNode}}</name-node><main-class>com.example.Step</main-class><arg>${{input}}/{name}</arg></java><ok to="{to}"/><error to="fail"/></action>"#
    )
    .unwrap();
}

/// Ten blocks of a fork of 50 one-action paths and its join, then five
/// runs of nine actions and a decision: 1,020 nodes and end and kill.
fn big_workflow() -> String {
    let mut out = String::from(
        r#"<workflow-app name="big" xmlns="uri:oozie:workflow:0.5"><start to="fork0"/>"#,
    );
    for block in 0..10 {
        let next_block = if block == 9 {
            "end".to_string()
        } else {
            format!("fork{}", block + 1)
        };
        write!(out, r#"<fork name="fork{block}">"#).unwrap();
        for p in 0..50 {
            write!(out, r#"<path start="b{block}p{p}"/>"#).unwrap();
        }
        out.push_str("</fork>");
        for p in 0..50 {
            action(&mut out, &format!("b{block}p{p}"), &format!("join{block}"));
        }
        writeln!(out, r#"<join name="join{block}" to="b{block}s0a0"/>"#).unwrap();
        for seg in 0..5 {
            for a in 0..9 {
                let to = if a == 8 {
                    format!("b{block}s{seg}d")
                } else {
                    format!("b{block}s{seg}a{}", a + 1)
                };
                action(&mut out, &format!("b{block}s{seg}a{a}"), &to);
            }
            let after = if seg == 4 {
                next_block.clone()
            } else {
                format!("b{block}s{}a0", seg + 1)
            };
            write!(
                out,
                r#"<decision name="b{block}s{seg}d"><switch><case to="fail">${{fs:exists(concat(input, '/stop'))}}</case><default to="{after}"/></switch></decision>"#
            )
            .unwrap();
        }
    }
    out.push_str(r#"<kill name="fail"><message>failed at ${wf:lastErrorNode()}</message></kill><end name="end"/></workflow-app>"#);
    out
}

/// Ten nodes: an action, a fork of two, the join, a decision between two
/// actions, end and kill.
const SMALL: &str = r#"<workflow-app name="small" xmlns="uri:oozie:workflow:0.5">
  <start to="prepare"/>
  <action name="prepare"><fs><mkdir path="${outputDir}"/></fs><ok to="split"/><error to="fail"/></action>
  <fork name="split"><path start="left"/><path start="right"/></fork>
  <action name="left"><java><job-tracker>jt</job-tracker><name-node>hdfs://bar:8020</name-node><main-class>L</main-class><arg>${inputDir}</arg></java><ok to="joined"/><error to="fail"/></action>
  <action name="right"><java><job-tracker>jt</job-tracker><name-node>hdfs://bar:8020</name-node><main-class>R</main-class><arg>${inputDir}</arg></java><ok to="joined"/><error to="fail"/></action>
  <join name="joined" to="which"/>
  <decision name="which"><switch><case to="big">${fs:exists(concat(outputDir, '/big'))}</case><default to="small"/></switch></decision>
  <action name="big"><java><job-tracker>jt</job-tracker><name-node>hdfs://bar:8020</name-node><main-class>B</main-class></java><ok to="end"/><error to="fail"/></action>
  <action name="small"><java><job-tracker>jt</job-tracker><name-node>hdfs://bar:8020</name-node><main-class>S</main-class></java><ok to="end"/><error to="fail"/></action>
  <kill name="fail"><message>${wf:lastErrorNode()} failed</message></kill>
  <end name="end"/>
</workflow-app>"#;

const COORDINATOR: &str = r#"<coordinator-app name="five" frequency="${coord:minutes(5)}" start="2009-01-01T00:00Z" end="2010-01-01T00:00Z" timezone="UTC" xmlns="uri:oozie:coordinator:0.4">
  <controls><concurrency>3</concurrency></controls>
  <datasets>
    <dataset name="logs" frequency="${coord:hours(1)}" initial-instance="2008-01-01T00:00Z" timezone="UTC">
      <uri-template>hdfs://bar:8020/app/logs/${YEAR}/${MONTH}/${DAY}/${HOUR}</uri-template>
    </dataset>
  </datasets>
  <input-events>
    <data-in name="input" dataset="logs"><instance>${coord:current(0)}</instance></data-in>
  </input-events>
  <action><workflow><app-path>hdfs://bar:8020/app/wf</app-path>
    <configuration>
      <property><name>inputDir</name><value>${coord:dataIn('input')}</value></property>
      <property><name>outputDir</name><value>hdfs://bar:8020/out/${coord:formatTime(coord:nominalTime(), 'yyyyMMddHHmm')}</value></property>
    </configuration>
  </workflow></action>
</coordinator-app>
"#;

const SCENARIO: &str = r#"start = "2009-01-01T00:00Z"
until = "2010-01-01T00:00Z"
[[job]]
id = "five"
app = "coordinator.xml"
[[data]]
job = "five"
dataset = "logs"
from = "2009-01-01T00:00Z"
to = "2010-01-01T00:00Z"
[actions]
duration = "1m"
"#;

fn workflow(text: &str) -> Workflow {
    let arena = coordc::xml::Arena::new();
    let doc = coordc::xml::parse(text, &arena).unwrap();
    assert!(
        coordc::xml::validate(&doc).is_empty(),
        "the workflow is valid"
    );
    let (wf, problems) = lower::workflow(&doc.root);
    assert!(problems.is_empty());
    let graph = coordc::check::workflow::check(&wf);
    assert!(graph.is_empty(), "{graph:?}");
    wf
}

/// The one local application every action names.
struct OneApp(Arc<SubWorkflow>);

impl SubWorkflows for OneApp {
    fn load(&self, _: &str, _: Option<&str>) -> Option<Result<Arc<SubWorkflow>, String>> {
        Some(Ok(Arc::clone(&self.0)))
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("simulate_workflow");
    let big = std::sync::Arc::new(workflow(&big_workflow()));
    let mut conf = VarMap::default();
    for (k, v) in [
        ("jobTracker", "jt:8032"),
        ("nameNode", "hdfs://nn"),
        ("input", "hdfs://nn/in"),
    ] {
        conf.insert(k.to_string(), Some(v.to_string()));
    }
    let script = Script::default();
    group.bench_function("one_thousand_nodes", |b| {
        b.iter(|| {
            let graph =
                std::sync::Arc::new(Graph::new(std::sync::Arc::clone(black_box(&big))).unwrap());
            let run = run(&graph, &RunInput::alone(&conf, &script));
            assert_eq!(run.status, RunStatus::Succeeded);
            assert_eq!(run.nodes.len(), 1021);
        })
    });
    let app = OneApp(Arc::new(SubWorkflow {
        workflow: Arc::new(workflow(SMALL)),
        defaults: VarMap::default(),
        path: "small.xml".into(),
        text: Arc::from(SMALL),
    }));
    group.sample_size(10);
    group.bench_function("five_minutes_one_year_ten_node_workflows", |b| {
        b.iter(|| {
            let scenario = Scenario::read(black_box(SCENARIO)).unwrap();
            let arena = coordc::xml::Arena::new();
            let doc = coordc::xml::parse(COORDINATOR, &arena).unwrap();
            let (coordinator, problems) = lower::coordinator(&doc.root);
            assert!(problems.is_empty());
            let vars = VarMap::default();
            let options = Options::all_actions(
                ProcessingZone::UTC,
                true,
                // A server started in 2026 (a fixed year: the figures do not depend on the date).
                MaxYear::for_server_started_in(2026),
            );
            let job = prepare(&coordinator, &[], &vars, &options)
                .unwrap_or_else(|_| panic!("the app is valid"));
            let input = JobInput {
                id: "five".into(),
                job: &job,
                submit: scenario.start,
                workflows: &app,
            };
            let simulation = scenario.resolve([("five", &job)]).unwrap();
            let mut engine = Engine::new(simulation, vec![input]);
            engine.run(None).unwrap();
            assert_eq!(engine.created, 105_120);
            let last = engine.jobs[0].actions.last().unwrap();
            assert!(last.workflow.as_ref().is_some_and(|w| w.run.is_some()));
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
