//! `coordc eval`: render one text value, or a batch of JSON lines.

use super::render::{human, line_column};
use super::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE};
use crate::check::el::{ElCheckContext, check_template};
use crate::diag::Diagnostic;
use crate::el::{Env, Library, ValueType, parse_template, render_into};
use clap::{Args, ValueEnum};
use serde::Deserialize;
use std::collections::HashMap;
use std::io::{BufRead, BufWriter, Write};

#[derive(Args)]
pub struct EvalArgs {
    /// A variable (job property), repeatable: NAME=VALUE.
    #[arg(long = "var", value_name = "NAME=VALUE", value_parser = parse_var)]
    vars: Vec<(String, String)>,
    /// A variable defined with a null value, repeatable.
    #[arg(long = "null-var", value_name = "NAME")]
    null_vars: Vec<String>,
    /// Which Oozie EL library is visible.
    #[arg(long, value_enum, default_value = "coordinator")]
    context: Library,
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Evaluate JSON lines {"id", "expr", "vars"} from FILE (`-` for stdin), one
    /// result line each.
    #[arg(long, value_name = "FILE", conflicts_with = "text")]
    batch: Option<String>,
    /// The text value, e.g. 'hdfs://nn/${market}/${7/2}'.
    #[arg(required_unless_present = "batch")]
    text: Option<String>,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
}

fn parse_var(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((name, value)) if !name.is_empty() => Ok((name.to_string(), value.to_string())),
        _ => Err(format!("expected NAME=VALUE, got {s:?}")),
    }
}

pub fn run(args: EvalArgs) -> i32 {
    if let Some(path) = &args.batch {
        return run_batch(path, args.context);
    }
    let text = args.text.as_deref().expect("clap requires TEXT without --batch");
    let mut vars: HashMap<String, Option<String>> = args.vars.into_iter().map(|(k, v)| (k, Some(v))).collect();
    vars.extend(args.null_vars.into_iter().map(|k| (k, None)));
    match evaluate(text, &vars, args.context) {
        Ok((value, ty)) => {
            match args.format {
                Format::Text => println!("{value}"),
                Format::Json => println!("{}", serde_json::json!({"value": value, "type": ty})),
            }
            EXIT_OK
        }
        Err(diag) => {
            eprint!("{}", human(&diag, "<text>", text));
            EXIT_ERRORS
        }
    }
}

/// Parses and renders `text`. A failure that the static checks can explain better
/// (a misspelt function, a wrong argument count) gets their diagnostic.
pub fn evaluate(
    text: &str,
    vars: &HashMap<String, Option<String>>,
    library: Library,
) -> Result<(String, ValueType), Diagnostic> {
    let template = parse_template(text, 0)?;
    let env = Env { vars, library };
    let mut out = String::new();
    match render_into(&template, &env, &mut out) {
        Ok(ty) => Ok((out, ty)),
        Err(runtime) => {
            let ctx = ElCheckContext { library, known_variables: None };
            let better = check_template(&template, &ctx)
                .into_iter()
                .find(|d| d.code == runtime.code && d.span.start == runtime.span.start);
            Err(better.unwrap_or(runtime))
        }
    }
}

#[derive(Deserialize)]
struct BatchCase {
    #[serde(default)]
    id: serde_json::Value,
    expr: String,
    #[serde(default)]
    vars: HashMap<String, Option<String>>,
    /// `"wf"`, as in the oracle files, selects the workflow library.
    #[serde(default)]
    functions: Option<String>,
}

fn run_batch(path: &str, default_library: Library) -> i32 {
    let reader: Box<dyn BufRead> = if path == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        match std::fs::File::open(path) {
            Ok(f) => Box::new(std::io::BufReader::new(f)),
            Err(e) => {
                eprintln!("error: cannot read {path}: {e}");
                return EXIT_USAGE;
            }
        }
    };
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut failures = false;
    for (n, line) in reader.lines().enumerate() {
        let line = match line {
            Ok(l) => l,
            Err(e) => {
                eprintln!("error: cannot read {path}: {e}");
                return EXIT_USAGE;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        let result = match serde_json::from_str::<BatchCase>(&line) {
            Err(e) => {
                failures = true;
                serde_json::json!({"id": null, "ok": false, "error": format!("line {}: malformed input: {e}", n + 1)})
            }
            Ok(case) => {
                let library = match case.functions.as_deref() {
                    Some("wf") => Library::Workflow,
                    _ => default_library,
                };
                match evaluate(&case.expr, &case.vars, library) {
                    Ok((value, ty)) => serde_json::json!({"id": case.id, "ok": true, "value": value, "type": ty}),
                    Err(d) => {
                        failures = true;
                        let (_, column) = line_column(&case.expr, d.span.start as usize);
                        serde_json::json!({"id": case.id, "ok": false, "error": d.message, "code": d.code, "column": column})
                    }
                }
            }
        };
        if writeln!(out, "{result}").is_err() {
            return EXIT_USAGE;
        }
    }
    if out.flush().is_err() {
        return EXIT_USAGE;
    }
    if failures { EXIT_ERRORS } else { EXIT_OK }
}
