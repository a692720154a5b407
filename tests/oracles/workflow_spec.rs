//! The workflow examples of the workflow spec (§3.1 control nodes, §3.2.2.2 config-class),
//! completed into whole applications in corpus/wf/, read through the workflow
//! schemas and lowered to the IR. The spec's fork/join example names an
//! action that does not exist; the IR keeps what a graph check needs to say so.

use coordc::ir::lower;
use coordc::ir::{NodeKind, Workflow};
use coordc::xml::{Arena, parse, validate};

fn corpus(name: &str) -> String {
    let path = format!("{}/corpus/wf/{name}.xml", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The schema problems of a corpus workflow, as `CODE text-at-span: message`.
fn schema_problems(name: &str) -> Vec<String> {
    let src = corpus(name);
    let arena = Arena::new();
    let doc = parse(&src, &arena).unwrap();
    validate(&doc)
        .into_iter()
        .map(|d| format!("{} {}: {}", d.code, &src[d.span.range()], d.message))
        .collect()
}

fn lowered(name: &str) -> Workflow {
    assert_eq!(schema_problems(name), Vec::<String>::new(), "{name}");
    let src = corpus(name);
    let arena = Arena::new();
    let doc = parse(&src, &arena).unwrap();
    let (workflow, problems) = lower::workflow(&doc.root);
    assert!(problems.is_empty(), "{name}: {problems:?}");
    workflow
}

/// Each node as `name kind -> targets`.
fn graph(workflow: &Workflow) -> Vec<String> {
    workflow
        .nodes
        .iter()
        .map(|node| {
            let (kind, targets): (&str, Vec<&str>) = match &node.kind {
                NodeKind::Decision { cases, default } => (
                    "decision",
                    cases
                        .iter()
                        .map(|(_, to)| to.name.as_str())
                        .chain([default.name.as_str()])
                        .collect(),
                ),
                NodeKind::Fork { paths } => {
                    ("fork", paths.iter().map(|p| p.name.as_str()).collect())
                }
                NodeKind::Join { to } => ("join", vec![to.name.as_str()]),
                NodeKind::Kill { .. } => ("kill", vec![]),
                NodeKind::Action(action) => (
                    action.kind.name.as_str(),
                    vec![action.ok.name.as_str(), action.error.name.as_str()],
                ),
            };
            format!("{} {kind} -> {}", node.name.name, targets.join(","))
        })
        .collect()
}

#[test]
fn control_nodes_4_1() {
    // §3.1.1 start, §3.1.2 end, §3.1.3 kill, §3.1.4 decision: cases in order,
    // then the default.
    let wf = lowered("spec-4.1-control-nodes");
    assert_eq!(wf.version, "0.1");
    assert_eq!(wf.start.name, "firstHadoopJob");
    assert_eq!(wf.end.name, "end");
    assert_eq!(
        graph(&wf),
        [
            "firstHadoopJob map-reduce -> secondjob,killBecauseNoInput",
            "secondjob map-reduce -> mydecision,killBecauseNoInput",
            "mydecision decision -> reconsolidatejob,rexpandjob,recomputejob,end",
            "reconsolidatejob fs -> end,killBecauseNoInput",
            "rexpandjob fs -> end,killBecauseNoInput",
            "recomputejob fs -> end,killBecauseNoInput",
            "killBecauseNoInput kill -> ",
        ]
    );
    // The predicates are parsed EL; the third uses `[...]` access on a function
    // result (JSP.2.3), with the spec's inner spaces.
    let NodeKind::Decision { cases, .. } = &wf.nodes[2].kind else {
        panic!("a decision")
    };
    assert_eq!(
        cases[2].0.text(),
        "${ hadoop:counters('secondjob')[RECORDS][REDUCE_OUT] lt 1000000 }"
    );
    assert_eq!(cases[2].0.template().parts.len(), 1);
    let NodeKind::Kill { message } = &wf.nodes[6].kind else {
        panic!("a kill")
    };
    assert_eq!(message.text(), "Input unavailable");
}

#[test]
fn fork_and_join_4_1_5() {
    let wf = lowered("spec-4.1.5-fork-join");
    assert_eq!(
        graph(&wf),
        [
            "forking fork -> firstparalleljob,secondparalleljob",
            "firstparalleljob map-reduce -> joining,kill",
            "secondparalleljob map-reduce -> joining,kill",
            "joining join -> nextaction",
            "nextaction fs -> end,kill",
            "kill kill -> ",
        ]
    );
    // As written: the schema accepts it, but the fork's first path names no
    // node (the action is "firstparallejob"). Oozie rejects it at submission
    // (E0708); the IR holds the dangling name for the graph checks.
    let wf = lowered("spec-4.1.5-fork-join-as-written");
    let names: Vec<&str> = wf.nodes.iter().map(|n| n.name.name.as_str()).collect();
    let NodeKind::Fork { paths } = &wf.nodes[0].kind else {
        panic!("a fork")
    };
    let dangling: Vec<&str> = paths
        .iter()
        .map(|p| p.name.as_str())
        .filter(|p| !names.contains(p))
        .collect();
    assert_eq!(dangling, ["firstparalleljob"]);
    let src = corpus("spec-4.1.5-fork-join-as-written");
    assert_eq!(&src[paths[0].span.range()], "firstparalleljob");
}

#[test]
fn config_class_needs_schema_0_5() {
    // §3.2.2.2: <config-class> after <configuration>, from schema 0.5.
    let wf = lowered("spec-4.2.2.2-config-class");
    let NodeKind::Action(action) = &wf.nodes[0].kind else {
        panic!("an action")
    };
    let values: Vec<(&str, &str)> = action
        .body
        .values
        .iter()
        .map(|(n, v)| (n.name.as_str(), v.text()))
        .collect();
    assert!(values.contains(&("config-class", "com.example.MyConfigClass")));
    assert!(values.contains(&("job-xml", "job.xml")));
    assert_eq!(action.body.configuration.len(), 1);
    // Schema 0.4 has no config-class: Oozie's schema (and coordc's) rejects it.
    let problems = schema_problems("spec-4.2.2.2-config-class-0.4");
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].starts_with("XML004 config-class: `<config-class>` is not allowed here"),
        "{problems:?}"
    );
}
