//! `coordc check`: every problem of every application given, in one run
//! (`project::check`), printed in the format asked for.

mod ci;
mod fix;
mod format;

use super::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE};
use crate::check::select::{RuleSet, Selection, Selector};
use crate::diag::Severity;
use crate::project::check::{CheckOptions, Checked, Report, SKIPPED_FOLDERS, Target, check};
use crate::project::files::Files;
use clap::{Args, ValueEnum};
use std::io::Write;
use std::path::PathBuf;

#[derive(Args)]
pub struct CheckArgs {
    /// Application files, or folders searched for `.xml` files.
    #[arg(value_name = "PATH", default_value = ".")]
    paths: Vec<PathBuf>,
    /// A job configuration file (Hadoop XML if it ends in `.xml`, else
    /// properties; any name), repeatable. Default: the `.properties` beside
    /// each application whose application path names it, else the
    /// job.properties beside it (the coord-config-default.xml or
    /// config-default.xml beside it is read under it); a workflow a
    /// coordinator of the check runs gets that coordinator's. Without any,
    /// names the job must define are listed rather than reported.
    #[arg(long = "config", value_name = "FILE")]
    configs: Vec<PathBuf>,
    /// A job property, repeatable.
    #[arg(short = 'D', value_name = "NAME=VALUE", value_parser = super::dryrun::parse_pair)]
    defines: Vec<(String, String)>,
    /// Read `<include>` paths starting with PREFIX from the local folder DIR.
    #[arg(long = "map", value_name = "PREFIX=DIR", value_parser = super::dryrun::parse_pair)]
    maps: Vec<(String, String)>,
    /// Oozie's processing time zone (`oozie.processing.timezone`): UTC or
    /// GMT±HHMM. Default: the folder's coordc.toml, else UTC.
    #[arg(long, value_name = "TZ")]
    processing_timezone: Option<String>,
    #[arg(long, value_enum, default_value = "human")]
    format: CheckFormat,
    /// Colour in the human format: `auto` when stdout is a terminal and
    /// NO_COLOR is unset or empty; `always` even then.
    #[arg(long, value_enum, default_value = "auto", value_name = "WHEN")]
    color: ColorChoice,
    /// Exit 1 on warnings too.
    #[arg(long)]
    deny_warnings: bool,
    /// Apply the fixes that are certain (a legacy zone ID's canonical ID,
    /// `24:00` as the next day's `00:00`, cron day-of-week numbers as the
    /// Unix day names), say what changed, then report what is left.
    #[arg(long)]
    fix: bool,
    /// Report only these rules: codes, families (DST) or prefixes (EL00),
    /// or ALL; comma-separated or repeated. Replaces a coordc.toml's
    /// `[check] select`.
    #[arg(long, value_name = "CODE", value_delimiter = ',', value_parser = Selector::parse)]
    select: Vec<Selector>,
    /// Report these rules too, over what is selected.
    #[arg(long, value_name = "CODE", value_delimiter = ',', value_parser = Selector::parse)]
    extend_select: Vec<Selector>,
    /// Do not report these rules (the more specific of a select and an
    /// ignore wins: `--select EL --ignore EL005`, `--select EL005 --ignore EL`).
    #[arg(long, value_name = "CODE", value_delimiter = ',', value_parser = Selector::parse)]
    ignore: Vec<Selector>,
}

impl CheckArgs {
    /// The rule selection the options make.
    fn selection(&self) -> Selection {
        Selection {
            select: (!self.select.is_empty()).then(|| self.select.clone()),
            extend_select: self.extend_select.clone(),
            ignore: self.ignore.clone(),
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum CheckFormat {
    /// rustc-like: code, message, location, excerpt, help.
    Human,
    /// One JSON document: `{"files_checked", "diagnostics": [...]}`.
    Json,
    /// GitHub Actions workflow commands (`::error file=...`).
    Github,
    /// SARIF 2.1.0, with the rules' metadata.
    Sarif,
    /// One line per problem: `file:line:col: severity[CODE]: message`.
    Concise,
    /// JUnit XML (Jenkins, GitLab test reports): a test case per problem.
    Junit,
    /// GitLab Code Quality JSON.
    Gitlab,
    /// Checkstyle XML.
    Checkstyle,
}

#[derive(Clone, Copy, ValueEnum)]
enum ColorChoice {
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// Whether to colour what goes to stdout: `always` and `never` as said
    /// (an option given wins over the environment, as no-color.org asks);
    /// `auto` when stdout is a terminal, NO_COLOR is unset or empty, and
    /// TERM is not `dumb`.
    fn colour_stdout(self) -> bool {
        use std::io::IsTerminal;
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                let set = |name| std::env::var_os(name).is_some_and(|v| !v.is_empty());
                std::io::stdout().is_terminal()
                    && !set("NO_COLOR")
                    && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
            }
        }
    }
}

pub fn run(args: CheckArgs) -> i32 {
    if RuleSet::default().with(&args.selection()).is_empty() {
        eprintln!("warning: --select, --extend-select and --ignore leave no rule to report");
    }
    if args.fix {
        // A fix can let a later check run (a schema error stops the EL
        // checks): again until nothing is left to fix, a few times at most.
        for _ in 0..FIX_PASSES {
            let reports = match check_paths(&args) {
                Ok(checked) => checked.reports,
                Err(code) => return code,
            };
            match fix::apply(&reports, &mut std::io::stderr()) {
                Ok(0) => break,
                Ok(_) => {}
                Err(message) => {
                    eprintln!("error: {message}");
                    return EXIT_USAGE;
                }
            }
        }
    }
    let Checked {
        targets,
        reports,
        io_errors,
    } = match check_paths(&args) {
        Ok(checked) => checked,
        Err(code) => return code,
    };
    warn_without_applications(&args.paths, &targets, &reports);
    print_reports(&args, &targets, reports, &io_errors)
}

/// How many times `--fix` checks and fixes before it reports.
const FIX_PASSES: usize = 5;

/// Checks every file `args` names; or the exit code of a usage error.
fn check_paths(args: &CheckArgs) -> Result<Checked, i32> {
    let options = CheckOptions {
        configs: args.configs.clone(),
        defines: args.defines.clone(),
        maps: args.maps.clone(),
        processing_timezone: args.processing_timezone.clone(),
        pipeline: true,
        ignored_folders: SKIPPED_FOLDERS.iter().map(|f| f.to_string()).collect(),
        keep_sources: false,
        selection: args.selection(),
    };
    check(&args.paths, &options, &Files::default()).map_err(|refused| {
        eprint!("{}", refused.render());
        EXIT_USAGE
    })
}

/// Says so for each folder of `paths` where no Oozie application was
/// found: no `.xml` file, or only XML of other namespaces (as ruff says "No
/// Python files found"; the exit code is still 0).
fn warn_without_applications(paths: &[PathBuf], targets: &[Target], reports: &[Report]) {
    for path in paths.iter().filter(|p| p.is_dir()) {
        let found = targets
            .iter()
            .zip(reports)
            .any(|(t, r)| t.path.starts_with(path) && !r.skipped());
        if !found {
            eprintln!("warning: no Oozie application found in {}", path.display());
        }
    }
}

/// Prints the reports in `args`' format; the exit code they make.
fn print_reports(
    args: &CheckArgs,
    targets: &[Target],
    reports: Vec<Report>,
    io_errors: &[String],
) -> i32 {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let checked = format::Checked {
        targets,
        reports: &reports,
    };
    let _ = match args.format {
        CheckFormat::Human => format::write_human(checked, args.color.colour_stdout(), &mut out),
        CheckFormat::Json => format::write_json(checked, &mut out),
        CheckFormat::Github => format::write_github(checked, &mut out),
        CheckFormat::Sarif => format::write_sarif(checked, &mut out),
        CheckFormat::Concise => format::write_concise(checked, &mut out),
        CheckFormat::Junit => ci::write_junit(checked, &mut out),
        CheckFormat::Gitlab => ci::write_gitlab(checked, &mut out),
        CheckFormat::Checkstyle => ci::write_checkstyle(checked, &mut out),
    };
    let _ = out.flush();
    for e in io_errors {
        eprintln!("error: {e}");
    }
    let count = |severity| {
        reports
            .iter()
            .flat_map(|r| &r.problems)
            .filter(|p| p.diagnostic.severity == severity)
            .count()
    };
    let (errors, warnings, notes) = (
        count(Severity::Error),
        count(Severity::Warning),
        count(Severity::Note),
    );
    let unconfigured = reports.iter().filter(|r| r.unconfigured()).count();
    let unselected: usize = reports.iter().map(|r| r.unselected).sum();
    // The process ends with this command: its memory goes back to the system
    // at once, where freeing every report's texts and trees one by one would
    // be serial work after the parallel checks (4 ms for 10,000 files).
    std::mem::forget(reports);
    if matches!(args.format, CheckFormat::Human) {
        let without = match unconfigured {
            0 => String::new(),
            n => format!(
                "; {n} application{} checked without a job configuration (values that read job variables not evaluated)",
                plural(n)
            ),
        };
        let hidden = match unselected {
            0 => String::new(),
            n => format!("; {n} problem{} of rules not selected not shown", plural(n)),
        };
        eprintln!(
            "checked {} file{}: {errors} error{}, {warnings} warning{}, {notes} note{}{without}{hidden}",
            targets.len(),
            plural(targets.len()),
            plural(errors),
            plural(warnings),
            plural(notes)
        );
    }
    if !io_errors.is_empty() {
        EXIT_USAGE
    } else if errors > 0 || (args.deny_warnings && warnings > 0) {
        EXIT_ERRORS
    } else {
        EXIT_OK
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
