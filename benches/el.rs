//! EL throughput on the public commons-el case mix (tests/data/el_cases.jsonl),
//! compared in docs/performance.md with the JVM baseline (commons-el 1.0 on the
//! same expressions, same variables, measured with the development corpus's
//! harness, kept outside this repository).

use coordc::el::{Compiled, Env, Expr, ExprKind, Library, VarMap, parse_template, render_into};
use coordc::time::datetime::ProcessingZone;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

// The allocator the `coordc` binary uses (src/main.rs).
#[global_allocator]
static GLOBAL: coordc::alloc::MiMalloc = coordc::alloc::MiMalloc;

/// The expressions of the oracle mix that evaluate, as ElBench.java selects them.
fn mix() -> (Vec<String>, VarMap) {
    let data = include_str!("../tests/data/el_cases.jsonl");
    let exprs: Vec<String> = data
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v["ok"] == true)
        .map(|v| v["expr"].as_str().unwrap().to_string())
        .collect();
    // The same variables ElBench.java defines.
    let mut vars: VarMap = [
        ("x", "7"),
        ("y", "2.5"),
        ("z", "-4"),
        ("s", "abc"),
        ("b", "true"),
        ("e", ""),
        ("t", "12"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), Some(v.to_string())))
    .collect();
    vars.insert("n".to_string(), None);
    (exprs, vars)
}

fn reads_variable(expr: &Expr) -> bool {
    let mut found = false;
    expr.walk(&mut |e| found |= matches!(e.kind, ExprKind::Var(_)));
    found
}

fn bench(c: &mut Criterion) {
    let (exprs, vars) = mix();
    let env = Env {
        vars: &vars,
        library: Library::Coordinator,
        context: None,
        processing_zone: ProcessingZone::UTC,
    };
    let parsed: Vec<_> = exprs
        .iter()
        .map(|e| parse_template(e, 0).unwrap())
        .collect();
    let evaluable: Vec<_> = parsed
        .iter()
        .filter(|t| render_into(t, &env, &mut String::new()).is_ok())
        .collect();

    let mut group = c.benchmark_group("el");
    group.throughput(Throughput::Elements(exprs.len() as u64));
    group.bench_function("parse", |b| {
        b.iter(|| {
            for e in &exprs {
                black_box(parse_template(black_box(e), 0).unwrap());
            }
        })
    });
    // What commons-el measures: evaluating expressions parsed (and here compiled,
    // that is constant-folded) beforehand.
    let compiled: Vec<Compiled> = evaluable
        .iter()
        .map(|t| Compiled::new((*t).clone()))
        .collect();
    let mut bench_compiled = |name: &str, templates: &[&Compiled]| {
        group.throughput(Throughput::Elements(templates.len() as u64));
        group.bench_function(name, |b| {
            let mut out = String::with_capacity(256);
            b.iter(|| {
                for c in templates {
                    out.clear();
                    black_box(c.render_into(&env, &mut out).unwrap());
                }
            })
        });
    };
    bench_compiled("evaluate", &compiled.iter().collect::<Vec<_>>());
    // What coordc does for a job: compiled and bound to the job's variables once
    // (they do not change between its actions), then evaluated.
    let bound: Vec<Compiled> = compiled.iter().map(|c| c.bind(&vars)).collect();
    bench_compiled("evaluate_bound", &bound.iter().collect::<Vec<_>>());
    let bound_with_variables: Vec<&Compiled> = bound
        .iter()
        .zip(&compiled)
        .filter(|(_, c)| c.template().exprs().any(reads_variable))
        .map(|(b, _)| b)
        .collect();
    bench_compiled("evaluate_bound_with_variables", &bound_with_variables);
    // The expressions that read variables, which folding cannot evaluate away.
    let with_variables: Vec<&Compiled> = compiled
        .iter()
        .filter(|c| c.template().exprs().any(reads_variable))
        .collect();
    bench_compiled("evaluate_with_variables", &with_variables);
    // The tree walk alone, without folding.
    group.throughput(Throughput::Elements(evaluable.len() as u64));
    group.bench_function("evaluate_unfolded", |b| {
        let mut out = String::with_capacity(256);
        b.iter(|| {
            for t in &evaluable {
                out.clear();
                black_box(render_into(t, &env, &mut out).unwrap());
            }
        })
    });
    // A realistic batch: 10,000 expressions parsed and evaluated.
    let batch: Vec<&String> = exprs.iter().cycle().take(10_000).collect();
    group.throughput(Throughput::Elements(batch.len() as u64));
    group.bench_function("parse_and_evaluate_10k", |b| {
        let mut out = String::with_capacity(256);
        b.iter(|| {
            for e in &batch {
                out.clear();
                let t = parse_template(e, 0).unwrap();
                let _ = black_box(render_into(&t, &env, &mut out));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
