//! The command line. Only this layer knows about arguments, files, terminals and
//! output formats; the library below returns data.

mod actions_json;
mod args;
mod check;
mod cron;
mod diff;
pub mod dryrun;
mod eval;
mod export;
mod lsp;
mod output;

mod simulate;
mod timezones;

use crate::time::cron::MaxYear;
use chrono::{Datelike, Utc};
use clap::{Parser, Subcommand, ValueEnum};
use std::io::Write;

#[derive(Parser)]
#[command(
    name = "coordc",
    version,
    about = "A toolchain for Apache Oozie coordinator and workflow applications"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Render a text value as Oozie would render it in an application.
    Eval(eval::EvalArgs),
    /// Check applications for every mistake Oozie would reject, and more.
    Check(check::CheckArgs),
    /// List every action a coordinator materializes, with its inputs, outputs and
    /// resolved workflow configuration.
    Dryrun(dryrun::DryrunArgs),
    /// Compare what two versions of coordinators will run: the actions that
    /// appear, disappear or move, and the URIs and configuration that change.
    /// Exit 0: no change; 1: a change; 2: a version cannot be compared.
    Diff(diff::DiffArgs),
    /// Export coordinators (and the coordinators of bundles) to another
    /// scheduler: Apache Airflow DAG files, with a report of what maps.
    Export {
        #[command(subcommand)]
        target: export::ExportTarget,
    },
    /// Run coordinators through a simulated Oozie server: when each action is
    /// created, waits, runs and ends, and why.
    Simulate(simulate::SimulateArgs),
    /// Serve the checker to an editor: a language server on stdin and stdout
    /// (diagnostics, hover, completion, navigation, quick fixes).
    Lsp(lsp::LspArgs),
    /// List the nominal times a coordinator with a cron frequency materializes.
    Cron(cron::CronArgs),
    /// List every time zone ID Oozie accepts, with its offset and DST use.
    Timezones(timezones::TimezonesArgs),
    /// List every rule coordc checks: code, severity, Oozie's error code,
    /// name and summary.
    Rules {
        /// `text`: a header, then a line per rule; `json`: an array of
        /// `{code, name, severity, oozie_code, summary, url}` (`url`: the
        /// rule's page where coordc publishes it).
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Print the page of a rule: what it checks, why, an example, the fix.
    Explain {
        /// A rule code or name, e.g. TM005 or legacy-zone-id.
        code: String,
    },
    /// Print a shell's completion script for coordc (e.g. `coordc
    /// completions bash > /etc/bash_completion.d/coordc`).
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print coordc's manual page in roff (`coordc man > coordc.1`), or,
    /// with --dir, write one page per command into DIR.
    Man {
        /// Write coordc.1 and coordc-COMMAND.1 into this folder.
        #[arg(long, value_name = "DIR")]
        dir: Option<std::path::PathBuf>,
    },
}

/// Output for people, or one JSON document for programs.
#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
}

/// Exit codes: 0 success, 1 the input has errors, 2 usage or I/O error.
pub(crate) const EXIT_OK: i32 = 0;
pub(crate) const EXIT_ERRORS: i32 = 1;
pub(crate) const EXIT_USAGE: i32 = 2;

/// Quartz's search bound on the Oozie server a command's jobs are submitted
/// to, taken to start this year: the edge reads the clock, the library is
/// given the year.
fn cron_max_year() -> MaxYear {
    MaxYear::for_server_started_in(Utc::now().year())
}

pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { EXIT_OK };
            let _ = e.print();
            return code;
        }
    };
    match cli.command {
        Command::Eval(args) => eval::run(args),
        Command::Check(args) => check::run(args),
        Command::Dryrun(args) => dryrun::run(args),
        Command::Diff(args) => diff::run(args),
        Command::Simulate(args) => simulate::run(args),
        Command::Export { target } => export::run(target),
        Command::Cron(args) => cron::run(args),
        Command::Lsp(args) => lsp::run(args),
        Command::Timezones(args) => timezones::run(args),
        Command::Completions { shell } => {
            let mut command = <Cli as clap::CommandFactory>::command();
            clap_complete::generate(shell, &mut command, "coordc", &mut std::io::stdout());
            EXIT_OK
        }
        Command::Man { dir } => man(dir.as_deref()),
        Command::Rules { format } => rules(format),
        Command::Explain { code } => explain(&code),
    }
}

/// `coordc rules`: the registry, as a table or as JSON.
fn rules(format: Format) -> i32 {
    use crate::diag::rules::RULES;
    let severity = |rule: &crate::diag::rules::Rule| format!("{:?}", rule.severity).to_lowercase();
    // A closed stdout (`coordc rules | head`) ends the listing quietly.
    let mut out = std::io::stdout().lock();
    match format {
        Format::Text => {
            let row = |out: &mut std::io::StdoutLock, cells: [&str; 5]| {
                let [code, level, oozie, name, summary] = cells;
                writeln!(
                    out,
                    "{code:<6}  {level:<7}  {oozie:<5}  {name:<24}  {summary}"
                )
            };
            if row(&mut out, ["CODE", "LEVEL", "OOZIE", "NAME", "SUMMARY"]).is_err() {
                return EXIT_OK;
            }
            for rule in RULES {
                let cells = [
                    rule.code.as_str(),
                    &severity(rule),
                    rule.oozie.unwrap_or("-"),
                    rule.name,
                    rule.summary,
                ];
                if row(&mut out, cells).is_err() {
                    break;
                }
            }
        }
        Format::Json => {
            let list: Vec<serde_json::Value> = RULES
                .iter()
                .map(|rule| {
                    serde_json::json!({
                        "code": rule.code,
                        "name": rule.name,
                        "severity": severity(rule),
                        "oozie_code": rule.oozie,
                        "summary": rule.summary,
                        "url": crate::diag::rules::docs_url(None, rule.code.as_str()),
                    })
                })
                .collect();
            let _ = writeln!(out, "{}", serde_json::Value::Array(list));
        }
    }
    EXIT_OK
}

/// `coordc explain`: the page of the rule with a code, or of each rule
/// with a name (CO004 and WF011 are both `missing-parameter`).
fn explain(code_or_name: &str) -> i32 {
    use crate::diag::rules::{RULES, page, rules_named};
    let pages: Vec<&str> = match page(code_or_name) {
        Some(page) => vec![page],
        None => rules_named(code_or_name)
            .filter_map(|r| page(r.code.as_str()))
            .collect(),
    };
    if pages.is_empty() {
        let candidates = RULES.iter().flat_map(|r| [r.code.as_str(), r.name]);
        let hint = match crate::diag::closest(code_or_name, candidates.map(str::to_string)) {
            Some(close) => format!("did you mean {close}? "),
            None => String::new(),
        };
        eprintln!("error: no rule {code_or_name}; {hint}`coordc rules` lists them");
        return EXIT_USAGE;
    }
    let _ = write!(std::io::stdout().lock(), "{}", pages.join("\n"));
    EXIT_OK
}

/// `coordc man`: the manual page, or with `dir` one page per command
/// (clap_mangen, from the same definitions as `--help`).
fn man(dir: Option<&std::path::Path>) -> i32 {
    let command = <Cli as clap::CommandFactory>::command();
    let Some(dir) = dir else {
        let mut out = std::io::stdout().lock();
        // (A closed stdout ends the page quietly.)
        let _ = clap_mangen::Man::new(command).render(&mut out);
        return EXIT_OK;
    };
    let written =
        std::fs::create_dir_all(dir).and_then(|()| clap_mangen::generate_to(command, dir));
    match written {
        Ok(()) => EXIT_OK,
        Err(e) => {
            eprintln!(
                "error: cannot write the manual pages into {}: {e}",
                dir.display()
            );
            EXIT_USAGE
        }
    }
}
