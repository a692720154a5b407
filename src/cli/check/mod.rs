//! `coordc check`: every problem of every application given, in one run
//! (`project::check`), printed in the format asked for.

mod ci;
mod fix;
mod format;

use super::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE};
use crate::check::select::{RuleSet, Selection, Selector};
use crate::diag::Severity;
use crate::oozie::servers::Server;
use crate::project::check::{CheckOptions, Checked, Report, SKIPPED_FOLDERS, Target, check};
use crate::project::files::Files;
use clap::{Args, ValueEnum};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Args)]
pub(super) struct CheckArgs {
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
    #[arg(short = 'D', value_name = "NAME=VALUE", value_parser = super::args::parse_pair)]
    defines: Vec<(String, String)>,
    /// Read `<include>` paths starting with PREFIX from the local folder DIR.
    #[arg(long = "map", value_name = "PREFIX=DIR", value_parser = super::args::parse_pair)]
    maps: Vec<(String, String)>,
    /// Oozie's processing time zone (`oozie.processing.timezone`): UTC or
    /// GMT±HHMM. Default: the folder's coordc.toml, else UTC.
    #[arg(long, value_name = "TZ")]
    processing_timezone: Option<String>,
    /// Check against what this server accepts: its schema versions,
    /// actions and EL functions (docs/servers.md). Default: the folder's
    /// coordc.toml `server`, else the newest Apache release (5.2.1).
    #[arg(long, value_enum, value_name = "PROFILE")]
    server: Option<Server>,
    #[arg(long, value_enum, default_value = "human")]
    format: CheckFormat,
    /// Colour in the human format: `auto` when stdout is a terminal and
    /// NO_COLOR is unset or empty; `always` even then.
    #[arg(long, value_enum, default_value = "auto", value_name = "WHEN")]
    color: ColorChoice,
    /// Exit 1 on warnings too.
    #[arg(long)]
    deny_warnings: bool,
    /// Apply the safe fixes (what Oozie runs is unchanged), say what changed,
    /// then report what is left.
    #[arg(long, long_help = fix_help())]
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
    /// With --fix or --diff, apply the unsafe fixes too (they change what
    /// runs, or guess what was meant); alone, count them as fixable.
    #[arg(long)]
    unsafe_fixes: bool,
    /// Print a unified diff of what --fix (with --unsafe-fixes) would
    /// change, and write nothing; exit 1 if there is something to fix.
    #[arg(long)]
    diff: bool,
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

/// The `--fix` help: every kind of fix and its safety, from the table.
fn fix_help() -> String {
    format!(
        "Apply the safe fixes (what Oozie runs is unchanged), say what changed, then report what is left. \
         Fixing can let a later check run, so --fix checks and fixes again, five passes at most. \
         Only values written as they are (no EL, no entity) are edited. The fixes:\n\n{}",
        crate::diag::fixes::listing()
    )
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

pub(super) fn run(args: CheckArgs) -> i32 {
    if RuleSet::default().with(&args.selection()).is_empty() {
        eprintln!("warning: --select, --extend-select and --ignore leave no rule to report");
    }
    if args.fix || args.diff {
        let (fixed, said, hidden) = match fix_passes(&args) {
            Ok(fixed) => fixed,
            Err(code) => return code,
        };
        if args.diff {
            return print_diff(&fixed, said.len(), hidden);
        }
        for line in &said {
            eprintln!("fixed {line}");
        }
        for file in &fixed {
            if let Err(e) = std::fs::write(&file.name, &file.after) {
                eprintln!("error: cannot write the fixed {}: {e}", file.name);
                return EXIT_USAGE;
            }
        }
    }
    let Checked {
        targets,
        reports,
        io_errors,
    } = match check_paths(&args, &Files::default()) {
        Ok(checked) => checked,
        Err(code) => return code,
    };
    warn_without_applications(&args.paths, &targets, &reports);
    print_reports(&args, &targets, reports, &io_errors)
}

/// How many times `--fix` checks and fixes before it reports.
const FIX_PASSES: usize = 5;

/// The files the fixes `args` asks for change, each as it was and as it is
/// after every pass, the edits said, and how many unsafe fixes the last
/// check found and left. A fix can let a later check run (a schema error
/// stops the EL checks): the texts fixed so far are checked again, until
/// nothing is left to fix, [`FIX_PASSES`] times at most. Nothing is written.
fn fix_passes(args: &CheckArgs) -> Result<(Vec<fix::FixedFile>, Vec<String>, usize), i32> {
    let mut fixed: Vec<fix::FixedFile> = Vec::new();
    let mut said = Vec::new();
    let mut hidden = 0;
    for _ in 0..FIX_PASSES {
        let buffers = fixed
            .iter()
            .map(|f| (PathBuf::from(&f.name), Arc::from(f.after.as_str())));
        let reports = check_paths(args, &Files::with_buffers(buffers))?.reports;
        if !args.unsafe_fixes {
            hidden = fix::available(&reports).1;
        }
        let changed = fix::apply(&reports, args.unsafe_fixes, &mut said);
        if changed.is_empty() {
            break;
        }
        for file in changed {
            match fixed.iter_mut().find(|f| f.name == file.name) {
                Some(earlier) => earlier.after = file.after,
                None => fixed.push(file),
            }
        }
    }
    Ok((fixed, said, hidden))
}

/// `--diff`: each fixed file's unified diff on stdout, how many edits (and
/// `hidden` unsafe fixes left) on stderr; exit 1 if there is something to
/// fix.
fn print_diff(fixed: &[fix::FixedFile], edits: usize, hidden: usize) -> i32 {
    let mut out = std::io::stdout().lock();
    for file in fixed {
        let _ = write!(
            out,
            "{}",
            fix::unified_diff(&file.name, &file.before, &file.after)
        );
    }
    let _ = out.flush();
    let hint = fix_hint(0, hidden, false).map_or(String::new(), |h| format!("; {h}"));
    eprintln!(
        "would fix {edits} problem{} in {} file{}{hint}",
        plural(edits),
        fixed.len(),
        plural(fixed.len())
    );
    if fixed.is_empty() {
        EXIT_OK
    } else {
        EXIT_ERRORS
    }
}

/// Checks every file `args` names, reading through `files`; or the exit
/// code of a usage error.
fn check_paths(args: &CheckArgs, files: &Files) -> Result<Checked, i32> {
    let options = CheckOptions {
        configs: args.configs.clone(),
        defines: args.defines.clone(),
        maps: args.maps.clone(),
        processing_timezone: args.processing_timezone.clone(),
        server: args.server,
        pipeline: true,
        ignored_folders: SKIPPED_FOLDERS.iter().map(|f| f.to_string()).collect(),
        keep_sources: false,
        selection: args.selection(),
        cron_max_year: super::cron_max_year(),
    };
    check(&args.paths, &options, files).map_err(|refused| {
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
    let (safe_fixes, unsafe_fixes) = fix::available(&reports);
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
        if let Some(hint) = fix_hint(safe_fixes, unsafe_fixes, args.unsafe_fixes) {
            eprintln!("{hint}");
        }
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

/// What the fixes left in a report can do, as ruff says it: those `--fix`
/// applies, and the unsafe ones it applies only with `--unsafe-fixes`.
fn fix_hint(safe: usize, not_safe: usize, unsafe_fixes: bool) -> Option<String> {
    let (fixable, hidden) = if unsafe_fixes {
        (safe + not_safe, 0)
    } else {
        (safe, not_safe)
    };
    let hidden_text = |m: usize| {
        format!(
            "{m} hidden fix{} can be enabled with the `--unsafe-fixes` option",
            if m == 1 { "" } else { "es" }
        )
    };
    match (fixable, hidden) {
        (0, 0) => None,
        (n, 0) => Some(format!("[*] {n} fixable with the `--fix` option")),
        (0, m) => Some(format!("no fixes available ({})", hidden_text(m))),
        (n, m) => Some(format!(
            "[*] {n} fixable with the `--fix` option ({})",
            hidden_text(m)
        )),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
