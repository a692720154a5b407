//! `coordc eval`: render one text value, or a batch of JSON lines.

use super::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE, Format};
use crate::check::el::{ElCheckContext, check_template};
use crate::diag::Diagnostic;
use crate::diag::render::{human, line_column};
use crate::el::{Env, Library, ValueType, VarMap, parse_template, render_into};
use crate::time::datetime::ProcessingZone;
use clap::Args;
use serde::Deserialize;
use std::io::{BufRead, BufWriter, Write};

#[derive(Args)]
pub(super) struct EvalArgs {
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
    /// Oozie's processing time zone (`oozie.processing.timezone`): UTC or
    /// GMT±HHMM. Datetime arguments and results of coord: functions are wall
    /// times in it (`2009-01-01T05:30+0530`).
    #[arg(long, value_name = "TZ", default_value = "UTC")]
    processing_timezone: String,
    /// Evaluate JSON lines {"id", "expr", "vars"} from FILE (`-` for stdin), one
    /// result line each.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["text", "text_file"])]
    batch: Option<String>,
    /// Read the text value from FILE (`-` for stdin) instead of the command line,
    /// for values too long for an argument. A trailing newline is not part of it.
    #[arg(long, value_name = "FILE", conflicts_with = "text")]
    text_file: Option<String>,
    /// The text value, e.g. 'hdfs://nn/${market}/${7/2}'.
    #[arg(required_unless_present_any = ["batch", "text_file"])]
    text: Option<String>,
}

fn parse_var(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((name, value)) if !name.is_empty() => Ok((name.to_string(), value.to_string())),
        _ => Err(format!("expected NAME=VALUE, got {s:?}")),
    }
}

pub(super) fn run(args: EvalArgs) -> i32 {
    let pz = match ProcessingZone::parse_option(&args.processing_timezone) {
        Ok(pz) => pz,
        Err(d) => {
            let rendered = human(&d, "<--processing-timezone>", &args.processing_timezone);
            let _ = write!(std::io::stderr().lock(), "{rendered}");
            return EXIT_USAGE;
        }
    };
    if let Some(path) = &args.batch {
        return run_batch(path, args.context, pz);
    }
    let text = match (&args.text, &args.text_file) {
        (Some(t), _) => t.clone(),
        (None, Some(path)) => match read_input(path) {
            Ok(t) => t
                .strip_suffix('\n')
                .map(|t| t.strip_suffix('\r').unwrap_or(t))
                .unwrap_or(&t)
                .to_string(),
            Err(e) => {
                eprintln!("error: cannot read {path}: {e}");
                return EXIT_USAGE;
            }
        },
        (None, None) => unreachable!("clap requires TEXT, --text-file or --batch"),
    };
    let text = text.as_str();
    let mut vars: VarMap = args.vars.into_iter().map(|(k, v)| (k, Some(v))).collect();
    vars.extend(args.null_vars.into_iter().map(|k| (k, None)));
    match evaluate(text, &vars, args.context, pz) {
        Ok((value, ty)) => {
            let line = match args.format {
                Format::Text => value,
                Format::Json => serde_json::json!({"value": value, "type": ty}).to_string(),
            };
            // A closed stdout (e.g. piped into `head`) is not worth a panic.
            let _ = writeln!(std::io::stdout().lock(), "{line}");
            EXIT_OK
        }
        Err(diag) => {
            let name = match args.text_file.as_deref() {
                Some(path) if path != "-" => path,
                _ => "<text>",
            };
            let _ = write!(std::io::stderr().lock(), "{}", human(&diag, name, text));
            EXIT_ERRORS
        }
    }
}

/// Parses and renders `text`. A failure that the static checks can explain better
/// (a misspelt function, a wrong argument count) gets their diagnostic.
pub(super) fn evaluate(
    text: &str,
    vars: &VarMap,
    library: Library,
    processing_zone: ProcessingZone,
) -> Result<(String, ValueType), Diagnostic> {
    let template = parse_template(text, 0)?;
    let env = Env {
        vars,
        library,
        context: None,
        processing_zone,
    };
    let mut out = String::new();
    match render_into(&template, &env, &mut out) {
        Ok(ty) => Ok((out, ty)),
        Err(runtime) => {
            let ctx = ElCheckContext {
                library,
                known_variables: None,
            };
            let better = check_template(&template, &ctx)
                .into_iter()
                .find(|d| d.code == runtime.code && d.span.start == runtime.span.start);
            Err(better.unwrap_or(runtime))
        }
    }
}

fn read_input(path: &str) -> std::io::Result<String> {
    if path == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)?;
        Ok(s)
    } else {
        std::fs::read_to_string(path)
    }
}

#[derive(Deserialize)]
struct BatchCase {
    #[serde(default)]
    id: serde_json::Value,
    expr: String,
    #[serde(default)]
    vars: VarMap,
    /// `"wf"`, as in the oracle files, selects the workflow library.
    #[serde(default)]
    functions: Option<String>,
}

fn run_batch(path: &str, default_library: Library, pz: ProcessingZone) -> i32 {
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
                match evaluate(&case.expr, &case.vars, library, pz) {
                    Ok((value, ty)) => {
                        serde_json::json!({"id": case.id, "ok": true, "value": value, "type": ty})
                    }
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
