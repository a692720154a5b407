//! `coordc export airflow`: each coordinator given (or submitted by a bundle
//! given) as an Apache Airflow DAG file in `--out`, with the export report;
//! with `--verify`, the proof by Airflow that the DAGs run when Oozie would
//! and read what it would.

use super::args::JobArgs;
use super::output::{printer, stopped, usage};
use super::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE, Format};
use crate::diag::Located;
use crate::export::airflow::report::AppReport;
use crate::export::airflow::{self, FindWorkflow, Source, Workflow};
use crate::oozie::job::{Job, Options};
use crate::project::files::Files;
use crate::project::load::{self, LoadedCoordinator, LocalWorkflows, Sources};
use crate::project::locate::{self, AppKind};
use clap::{Args, Subcommand};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(Subcommand)]
pub(super) enum ExportTarget {
    /// Write an Apache Airflow 3 DAG file (Python) for each coordinator,
    /// and report what maps exactly, with a difference, or not at all.
    Airflow(AirflowArgs),
}

#[derive(Args)]
pub(super) struct AirflowArgs {
    /// Coordinator or bundle application XML files.
    #[arg(required = true)]
    apps: Vec<PathBuf>,
    /// The folder the DAG files are written to (created if needed).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    #[command(flatten)]
    job: JobArgs,
    /// Then prove with Airflow (no database needed) that every DAG's runs,
    /// data-in URIs and configuration are those of `coordc dryrun`.
    #[arg(long)]
    verify: bool,
    /// The Python that has Airflow and coordc-airflow installed (for
    /// --verify). Default: $COORDC_AIRFLOW_PYTHON, else python3.
    #[arg(long, value_name = "PATH")]
    python: Option<PathBuf>,
    /// The report's format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

pub(super) fn run(target: ExportTarget) -> i32 {
    let ExportTarget::Airflow(args) = target;
    if let Err(e) = std::fs::create_dir_all(&args.out) {
        return usage(format!("cannot create {}: {e}", args.out.display()));
    }
    let files = Files::default();
    let configs = args.job.read_configs();
    let mut exit = EXIT_OK;
    let mut reports = Vec::new();
    let mut taken = BTreeSet::new();
    let expected_dir = args.verify.then(verify_dir);
    for app in &args.apps {
        let settings = match args.job.settings(&files, None, app) {
            Ok(settings) => settings,
            Err(code) => {
                exit = exit.max(code);
                continue;
            }
        };
        let input = args.job.own_job(&configs, &files, &settings);
        let options = Options::all_actions(
            settings.processing_zone,
            input.check_maximum_frequency,
            input.cron_max_year,
        );
        let exporter = Exporter {
            out: &args.out,
            files: &files,
            maps: &settings.maps,
            options: &options,
            expected_dir: expected_dir.as_deref(),
        };
        let mut sources = Sources::default();
        let code = load::with_application(app, &files, &mut sources, |sources, opened| {
            let (kind, doc) = match opened {
                Ok(opened) => opened,
                Err(stop) => return stopped(sources, stop),
            };
            match kind {
                Some(AppKind::Coordinator) => {
                    let loaded = match load::coordinator(doc, app, &input, sources) {
                        Ok(loaded) => loaded,
                        Err(stop) => return stopped(sources, stop),
                    };
                    let file = app.display().to_string();
                    exporter.coordinator(
                        &file,
                        None,
                        &loaded,
                        sources,
                        None,
                        &mut taken,
                        &mut reports,
                    )
                }
                Some(AppKind::Bundle) => {
                    let loaded = match load::bundle(doc, app, &input, sources) {
                        Ok(loaded) => loaded,
                        Err(stop) => return stopped(sources, stop),
                    };
                    let (submitted, problems) = crate::oozie::bundle::submit(
                        &loaded.bundle,
                        &loaded.config,
                        input.processing_zone,
                    );
                    let mut code = EXIT_ERRORS;
                    let Some(members) = load::bundle_members(
                        app,
                        &input,
                        &loaded,
                        &submitted,
                        problems,
                        sources,
                        &mut printer(&mut code),
                    ) else {
                        return code;
                    };
                    let bundle = app.display().to_string();
                    let mut code = EXIT_OK;
                    for member in &members {
                        let file = member
                            .sources
                            .files
                            .first()
                            .map_or_else(String::new, |(name, _)| name.clone());
                        code = code.max(exporter.coordinator(
                            &file,
                            Some(&bundle),
                            &member.loaded,
                            &member.sources,
                            Some(&member.submitted.name),
                            &mut taken,
                            &mut reports,
                        ));
                    }
                    code
                }
                _ => super::output::print_problems(
                    sources,
                    &[Located::in_app(crate::diag::Diagnostic::error(
                        crate::diag::rules::XML_UNKNOWN_DOCUMENT,
                        doc.root.name_span,
                        format!(
                            "coordc export airflow reads a <coordinator-app> or a <bundle-app>, not <{}>",
                            doc.root.name
                        ),
                    ))],
                ),
            }
        });
        exit = exit.max(code);
    }
    print_reports(&reports, args.format);
    let refused: usize = reports.iter().map(AppReport::refused).sum();
    if refused > 0 {
        eprintln!(
            "warning: {refused} part(s) not exported: their tasks fail when they run (the report says what and why)"
        );
    }
    if let Some(expected) = &expected_dir {
        // (What was exported is verified even when another application
        // could not be: one bad file hides nothing of the others.)
        if !reports.is_empty() {
            exit = exit.max(verify(&args, expected));
        }
        let _ = std::fs::remove_dir_all(expected);
    }
    exit
}

struct Exporter<'a> {
    out: &'a Path,
    files: &'a Files,
    maps: &'a [(String, String)],
    options: &'a Options,
    expected_dir: Option<&'a Path>,
}

impl Exporter<'_> {
    /// Exports one loaded coordinator, its DAG named after the job, or after
    /// `name` in a bundle (made unique, with its file, among `taken`): the
    /// exit code.
    #[allow(clippy::too_many_arguments)]
    fn coordinator(
        &self,
        file: &str,
        bundle: Option<&str>,
        loaded: &LoadedCoordinator,
        sources: &Sources,
        name: Option<&str>,
        taken: &mut BTreeSet<String>,
        reports: &mut Vec<AppReport>,
    ) -> i32 {
        let mut exit = EXIT_ERRORS;
        let Some(job) = load::submit(loaded, sources, self.options, &mut printer(&mut exit)) else {
            return exit;
        };
        // The DAG id and its file both unique (`p-q` and `p_q` are one file name).
        let base = airflow::dag_id(name.unwrap_or(&job.name));
        let (dag_id, file_name) = (1..)
            .map(|n| match n {
                1 => base.clone(),
                n => format!("{base}_{n}"),
            })
            .map(|id| {
                let file = format!("{}.py", id.replace(['-', '.'], "_"));
                (id, file)
            })
            .find(|(id, file)| !taken.contains(id) && !taken.contains(file))
            .unwrap_or_default();
        taken.extend([dag_id.clone(), file_name.clone()]);
        let finder = LocalFinder {
            workflows: LocalWorkflows::new(
                self.maps,
                Path::new(file)
                    .parent()
                    .map_or_else(|| PathBuf::from("."), Path::to_path_buf),
                self.files,
            ),
            maps: self.maps,
            files: self.files,
        };
        let workflow = match job.actions().next() {
            Some(Ok(action)) => finder.find(&action.app_path, file),
            // Oozie could not materialize it: nothing to migrate.
            Some(Err(d)) => {
                eprint!("{}", sources.render(&Located::in_app(d)));
                return EXIT_ERRORS;
            }
            None => Err("the job has no action".to_string()),
        };
        let source = Source {
            file,
            bundle,
            sources,
            loaded,
            job: &job,
            workflow,
            find: &finder,
            version: env!("CARGO_PKG_VERSION"),
        };
        let dag = airflow::export(&source, &dag_id, &file_name);
        let path = self.out.join(&file_name);
        if let Err(e) = std::fs::write(&path, &dag.python) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return EXIT_USAGE;
        }
        reports.push(dag.report);
        match self.expected_dir {
            Some(dir) => write_expected(dir, &dag_id, file, &job),
            None => EXIT_OK,
        }
    }
}

/// The workflows of a checkout: through `--map`, else found by name.
struct LocalFinder<'a> {
    workflows: LocalWorkflows<'a>,
    maps: &'a [(String, String)],
    files: &'a Files,
}

impl FindWorkflow for LocalFinder<'_> {
    fn find(&self, app_path: &str, from: &str) -> Result<Workflow, String> {
        use crate::interp::workflow::run::SubWorkflows;
        let mut found_by_name = false;
        let found = self.workflows.load(app_path, Some(from)).or_else(|| {
            // Not mapped: found by its name in the checkout, as `check`
            // finds it (project::locate), and said so in the report.
            let dir = Path::new(from).parent().unwrap_or(Path::new("."));
            let local =
                locate::local_application(app_path, dir, AppKind::Workflow, self.maps, self.files)?;
            found_by_name = true;
            let local = std::path::absolute(&local).unwrap_or(local);
            self.workflows.load(&local.display().to_string(), None)
        });
        let loaded = match found {
            Some(Ok(loaded)) => loaded,
            Some(Err(why)) => return Err(why),
            None => {
                return Err(format!(
                    "its app-path `{app_path}` is not a local application: give its folder with --map PREFIX=DIR"
                ));
            }
        };
        let mut sources = Sources::default();
        sources.add(loaded.path.clone(), Arc::clone(&loaded.text));
        Ok(Workflow {
            app_path: app_path.to_string(),
            workflow: loaded.workflow.clone(),
            defaults: loaded.defaults.clone(),
            found_by_name,
            path: loaded.path.clone(),
            sources,
        })
    }
}

fn print_reports(reports: &[AppReport], format: Format) {
    match format {
        Format::Text => {
            for report in reports {
                print!("{}", report.text());
            }
        }
        Format::Json => {
            let json = serde_json::json!({ "apps": reports });
            println!("{json:#}");
        }
    }
}

/// A fresh folder for the dry runs the verifier compares with.
fn verify_dir() -> PathBuf {
    std::env::temp_dir().join(format!("coordc-verify-{}", std::process::id()))
}

/// How many actions of a job `--verify` compares: a job's whole life up to
/// this (two years and more of an hourly job), else a sample of this many
/// (every DST transition, and an even spread: [`airflow::sample`]).
const MOST_VERIFIED: usize = 20_000;

/// Writes `dag_id`'s expected actions: the dry run of the job, whole or
/// sampled; a sample gives each action's previous nominal time, from which
/// the verifier asks Airflow's timetable for the next run.
fn write_expected(dir: &Path, dag_id: &str, file: &str, job: &Job) -> i32 {
    let sample = airflow::sample::sample(job, MOST_VERIFIED);
    let mut listing = Vec::new();
    let mut previous = Vec::new();
    let written = match &sample {
        None => super::actions_json::write_json_of(job, job.actions(), &mut listing),
        Some(sample) => {
            let kept = job
                .kept_actions(|i| sample.keeps(i))
                .map(|(before, action)| {
                    previous.push(before.map(crate::time::datetime::format_utc));
                    action
                });
            super::actions_json::write_json_of(job, kept, &mut listing)
        }
    };
    match written {
        Ok(None) => {}
        Ok(Some(d)) => {
            eprintln!("error: {file}: an action does not resolve: {}", d.message);
            return EXIT_ERRORS;
        }
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_USAGE;
        }
    }
    // The dry run's object (`{"app": ..., "actions": [...]}`), with what the
    // verifier needs first.
    let head = match &sample {
        None => serde_json::json!({ "dag_id": dag_id, "file": file }),
        Some(sample) => serde_json::json!({
            "dag_id": dag_id,
            "file": file,
            "sample": sample.describe(),
            "previous": previous,
        }),
    }
    .to_string();
    let mut expected = head.into_bytes();
    expected.pop();
    expected.push(b',');
    expected.extend_from_slice(listing.get(1..).unwrap_or_default());
    let _ = std::fs::create_dir_all(dir);
    match std::fs::write(dir.join(format!("{dag_id}.json")), expected) {
        Ok(()) => EXIT_OK,
        Err(e) => {
            eprintln!("error: cannot write the dry run of {file}: {e}");
            EXIT_USAGE
        }
    }
}

/// Runs the runtime package's verifier with Airflow: its exit code (0 all
/// equal, 1 a divergence or a DAG that does not import).
fn verify(args: &AirflowArgs, expected: &Path) -> i32 {
    let python = args
        .python
        .clone()
        .or_else(|| std::env::var_os("COORDC_AIRFLOW_PYTHON").map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from("python3"));
    // (Without the runtime package, `python -m` fails before the verifier
    // can say what is missing.)
    let has_runtime = std::process::Command::new(&python)
        .args(["-c", "import coordc_airflow"])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    if !has_runtime {
        eprintln!("{}", install_help(&python));
        return EXIT_USAGE;
    }
    let mut command = std::process::Command::new(&python);
    command
        .args(["-m", "coordc_airflow.verify"])
        .arg(&args.out)
        .arg(expected);
    if let Ok(exe) = std::env::current_exe() {
        command.env("COORDC_BIN", exe);
    }
    match command.status() {
        Ok(status) if status.code() == Some(3) => {
            eprintln!("{}", install_help(&python));
            EXIT_USAGE
        }
        Ok(status) => match status.code() {
            Some(0) => EXIT_OK,
            _ => EXIT_ERRORS,
        },
        Err(e) => {
            eprintln!(
                "error: cannot run {}: {e}\n{}",
                python.display(),
                install_help(&python)
            );
            EXIT_USAGE
        }
    }
}

fn install_help(python: &Path) -> String {
    format!(
        "--verify needs Apache Airflow 3.2 or newer and coordc-airflow {} in the Python it runs ({}):\n  {} -m pip install 'apache-airflow>=3.2' coordc-airflow=={}\nor, from a checkout of coordc, the pinned Airflow it is tested with and the runtime package:\n  {} -m pip install -r airflow-runtime/requirements-verify.txt && {} -m pip install --no-deps ./airflow-runtime\n(or give another Python with --python or $COORDC_AIRFLOW_PYTHON)",
        env!("CARGO_PKG_VERSION"),
        python.display(),
        python.display(),
        env!("CARGO_PKG_VERSION"),
        python.display(),
        python.display(),
    )
}
