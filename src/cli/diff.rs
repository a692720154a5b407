//! `coordc diff OLD NEW`: what a change does to what will run. Each
//! coordinator of the old version and of the new is dry-run over one window
//! and the two listings compared action by action (`interp::diff`): the
//! actions that appear, disappear or move, and, for the actions on both
//! sides, the data-in and data-out URIs and the resolved configuration that
//! change. Exit 0 when nothing changes, 1 when something does, 2 when a
//! version cannot be compared.

use super::args::{JobArgs, time_argument};
use super::output::stopped;
use super::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE};
use crate::interp::diff::{self, Change, Comparison, Side};
use crate::oozie::job::{Job, Options};
use crate::project::files::Files;
use crate::project::load::{self, LoadedCoordinator, Sources};
use crate::project::locate::AppKind;
use crate::time::datetime::{ProcessingZone, format_utc};
use chrono::{DateTime, Months, Utc};
use clap::{Args, ValueEnum};
use std::path::{Path, PathBuf};

#[derive(Args)]
pub(crate) struct DiffArgs {
    /// The old version: a coordinator application file, a folder whose
    /// coordinators are compared with the new folder's of the same path, or
    /// a git revision (`main`, `HEAD~1`): the current folder at that commit.
    old: String,
    /// The new version: a file or a folder as OLD is, or a git revision.
    /// Default, after a revision: the current folder as it is.
    new: Option<String>,
    #[command(flatten)]
    job: JobArgs,
    /// Compare the actions at or after this nominal time. Default: now, or
    /// the earlier job's start when both start later.
    #[arg(long, value_name = "T")]
    from: Option<String>,
    /// Compare the actions before this nominal time. Default: a year after
    /// the window's start.
    #[arg(long, value_name = "T")]
    to: Option<String>,
    /// Oozie's processing time zone (`oozie.processing.timezone`): UTC or
    /// GMT±HHMM. Default: the `coordc.toml` that applies to each version.
    #[arg(long, value_name = "TZ")]
    processing_timezone: Option<String>,
    #[arg(long, value_enum, default_value = "text")]
    format: DiffFormat,
}

/// How the differences are written.
#[derive(Clone, Copy, ValueEnum)]
enum DiffFormat {
    /// For a person: each group of changes, then examples.
    Text,
    /// One JSON document.
    Json,
    /// Markdown, for a pull request's comment.
    Markdown,
    /// GitHub Actions annotations (`::notice file=...`), one per group.
    Github,
}

/// One coordinator's two versions, compared; or one side missing.
enum Outcome {
    Compared {
        /// The coordinator: its file, or its path in the folders compared.
        name: String,
        old: String,
        new: String,
        window: Window,
        comparison: Comparison,
    },
    /// Only one version has the application.
    Only { side: Side, file: String },
}

pub(crate) fn run(args: DiffArgs) -> i32 {
    // (A revision's files live in a temporary folder while they are read.)
    let mut extracted: Vec<(Extracted, String)> = Vec::new();
    let mut version = |given: &str| -> Result<PathBuf, String> {
        let path = PathBuf::from(given);
        if path.exists() {
            return Ok(path);
        }
        let (tree, folder) = revision_tree(given, extracted.len())?;
        extracted.push((tree, given.to_string()));
        Ok(folder)
    };
    let sides = version(&args.old).and_then(|old| {
        let new = match &args.new {
            Some(new) => version(new)?,
            None if !Path::new(&args.old).exists() => PathBuf::from("."),
            None => {
                return Err("give the new version: a file, a folder or a git revision".to_string());
            }
        };
        Ok((old, new))
    });
    let pairs = match sides.and_then(|(old, new)| pairs(&old, &new)) {
        Ok(pairs) => pairs,
        Err(why) => {
            eprintln!("error: {why}");
            return EXIT_USAGE;
        }
    };
    let files = Files::default();
    let configs = args.job.read_configs();
    let mut outcomes = Vec::new();
    let mut exit = EXIT_OK;
    // Bundles first: the coordinators they submit are compared through them
    // (with the configuration they give), not again as files of their own.
    let (mut ordered, coordinators): (Vec<Pair>, Vec<Pair>) =
        pairs.into_iter().partition(|pair| pair.bundle);
    ordered.extend(coordinators);
    let mut through_bundles: Vec<PathBuf> = Vec::new();
    for Pair { name, old, new, .. } in ordered {
        let submitted = |p: &Option<PathBuf>| {
            p.as_ref()
                .and_then(|p| std::fs::canonicalize(p).ok())
                .is_some_and(|p| through_bundles.contains(&p))
        };
        if submitted(&old) || submitted(&new) {
            continue;
        }
        // (A side without the file has no coordinator: each of the other's
        // is added or removed.)
        let load = |path: &Option<PathBuf>| match path {
            Some(path) => load_version(&args, &files, &configs, path),
            None => Ok(Vec::new()),
        };
        let (olds, news) = match load(&old).and_then(|o| load(&new).map(|n| (o, n))) {
            Ok(versions) => versions,
            Err(code) => {
                exit = EXIT_USAGE.max(code);
                continue;
            }
        };
        through_bundles.extend(
            olds.iter()
                .chain(&news)
                .filter(|v| v.name.is_some())
                .filter_map(|v| v.sources.files.first())
                .filter_map(|(file, _)| std::fs::canonicalize(file).ok()),
        );
        // A bundle's coordinators are paired by their names in it.
        let mut names: Vec<Option<String>> =
            olds.iter().chain(&news).map(|v| v.name.clone()).collect();
        names.sort();
        names.dedup();
        for member in names {
            let shown = match &member {
                Some(member) => format!("{name}#{member}"),
                None => name.clone(),
            };
            let (o, n) = (
                olds.iter().find(|v| v.name == member),
                news.iter().find(|v| v.name == member),
            );
            let outcome = match (o, n) {
                (Some(o), Some(n)) => match compare(&args, o, n) {
                    Ok((window, comparison)) => Outcome::Compared {
                        name: shown,
                        old: path_text(&old, &extracted),
                        new: path_text(&new, &extracted),
                        window,
                        comparison,
                    },
                    Err(code) => {
                        exit = EXIT_USAGE.max(code);
                        continue;
                    }
                },
                (Some(_), None) => Outcome::Only {
                    side: Side::Old,
                    file: shown,
                },
                (None, _) => Outcome::Only {
                    side: Side::New,
                    file: shown,
                },
            };
            outcomes.push(outcome);
        }
    }
    if exit != EXIT_OK {
        // (Problems are shown at the files read: a revision's are in its
        // temporary folder.)
        for (Extracted(dir), revision) in &extracted {
            eprintln!(
                "note: {} held the files of git revision {revision} while they were read",
                dir.display()
            );
        }
    }
    drop(extracted);
    let mut out = String::new();
    match args.format {
        DiffFormat::Text => write_text(&mut out, &outcomes),
        DiffFormat::Markdown => write_markdown(&mut out, &outcomes),
        DiffFormat::Github => write_github(&mut out, &outcomes),
        DiffFormat::Json => {
            out = serde_json::to_string_pretty(&json(&outcomes)).unwrap_or_default();
            out.push('\n');
        }
    }
    print!("{out}");
    let changed = outcomes.iter().any(|o| match o {
        Outcome::Compared { comparison, .. } => comparison.changed(),
        Outcome::Only { .. } => true,
    });
    match (exit, changed) {
        (EXIT_OK, true) => EXIT_ERRORS,
        (exit, _) => exit,
    }
}

/// A version's file as the report names it: a git revision's as
/// `REVISION:./path`, git's name for it from the folder the diff runs in.
fn path_text(path: &Option<PathBuf>, extracted: &[(Extracted, String)]) -> String {
    let Some(path) = path else {
        return String::new();
    };
    extracted
        .iter()
        .find_map(|(Extracted(dir), revision)| {
            let within = path.strip_prefix(dir).ok()?;
            Some(format!("{revision}:./{}", within.display()))
        })
        .unwrap_or_else(|| path.display().to_string())
}

/// An application to compare: the two files (named by the new one), or
/// a coordinator or bundle of the two folders by its path in them (a side
/// without it: `None`).
struct Pair {
    name: String,
    old: Option<PathBuf>,
    new: Option<PathBuf>,
    /// A bundle on either side.
    bundle: bool,
}

fn pairs(old: &Path, new: &Path) -> Result<Vec<Pair>, String> {
    match (old.is_dir(), new.is_dir()) {
        (false, false) => Ok(vec![Pair {
            name: new.display().to_string(),
            bundle: [old, new].into_iter().any(|p| application(p) == Some(true)),
            old: Some(old.to_path_buf()),
            new: Some(new.to_path_buf()),
        }]),
        (true, true) => {
            let (olds, news) = (applications(old), applications(new));
            let mut relative: Vec<&PathBuf> = olds.keys().chain(news.keys()).collect();
            relative.sort();
            relative.dedup();
            Ok(relative
                .into_iter()
                .map(|r| Pair {
                    name: r.display().to_string(),
                    old: olds.contains_key(r).then(|| old.join(r)),
                    new: news.contains_key(r).then(|| new.join(r)),
                    bundle: [olds.get(r), news.get(r)].contains(&Some(&true)),
                })
                .collect())
        }
        _ => Err(format!(
            "compare a file with a file or a folder with a folder: {} and {}",
            old.display(),
            new.display()
        )),
    }
}

/// Whether `file` is a bundle application (`Some(true)`), a coordinator
/// (`Some(false)`), or neither.
fn application(file: &Path) -> Option<bool> {
    let text = std::fs::read_to_string(file).ok()?;
    match (
        text.contains("<bundle-app"),
        text.contains("<coordinator-app"),
    ) {
        (true, _) => Some(true),
        (false, true) => Some(false),
        (false, false) => None,
    }
}

/// The coordinator and bundle application files under `dir`, by their
/// path in it: whether each is a bundle.
fn applications(dir: &Path) -> std::collections::BTreeMap<PathBuf, bool> {
    let mut found = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let hidden = entry.file_name().to_string_lossy().starts_with('.');
            if path.is_dir() && !hidden {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "xml")
                && let Some(bundle) = application(&path)
                && let Ok(relative) = path.strip_prefix(dir)
            {
                found.insert(relative.to_path_buf(), bundle);
            }
        }
    }
    found
}

/// A revision's files, in a temporary folder removed when dropped.
struct Extracted(PathBuf);

impl Drop for Extracted {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The current folder at git revision `revision`, extracted (`git archive`)
/// into a temporary folder, which is returned twice: to drop, and to read.
fn revision_tree(revision: &str, n: usize) -> Result<(Extracted, PathBuf), String> {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .output()
            .map_err(|e| format!("{revision} is not a file or folder, and git cannot run: {e}"))
    };
    let commit = git(&[
        "rev-parse",
        "--verify",
        "--quiet",
        &format!("{revision}^{{commit}}"),
    ])?;
    if !commit.status.success() {
        return Err(format!(
            "{revision} is not a file, a folder or a git revision of the repository here"
        ));
    }
    let dir = std::env::temp_dir().join(format!("coordc-diff-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let tree = Extracted(dir.clone());
    let mut archive = std::process::Command::new("git")
        .args(["archive", "--format=tar", revision])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("git archive {revision}: {e}"))?;
    let unpacked = archive.stdout.take().map(|out| {
        std::process::Command::new("tar")
            .arg("-x")
            .arg("-C")
            .arg(&dir)
            .stdin(out)
            .status()
    });
    let archived = archive.wait();
    match (archived, unpacked) {
        // (In a sub-folder, `git archive` gives that folder's files.)
        (Ok(a), Some(Ok(u))) if a.success() && u.success() => Ok((tree, dir)),
        _ => Err(format!(
            "cannot extract git revision {revision} (git archive | tar -x)"
        )),
    }
}

/// A coordinator of one version, loaded with its own settings and job.
struct Version {
    /// In a bundle, its name there (the coordinator job's name).
    name: Option<String>,
    /// How it is submitted, as `coordc dryrun` submits it with its
    /// settings: every action (the window is set once both are submitted).
    options: Options,
    loaded: LoadedCoordinator,
    sources: Sources,
}

/// The window compared.
type Window = (DateTime<Utc>, DateTime<Utc>);

fn compare(args: &DiffArgs, old: &Version, new: &Version) -> Result<(Window, Comparison), i32> {
    let mut old_job = submit(old)?;
    let mut new_job = submit(new)?;
    let window = window(args, new.options.processing_zone, &old_job, &new_job)?;
    old_job.set_window(Some(window.0), Some(window.1));
    new_job.set_window(Some(window.0), Some(window.1));
    let zone = new_job.zone.clone();
    match diff::compare(old_job.actions(), new_job.actions(), &zone) {
        Ok(comparison) => Ok((window, comparison)),
        Err((side, d)) => {
            let version = match side {
                Side::Old => old,
                Side::New => new,
            };
            eprint!(
                "{}",
                version.sources.render(&crate::diag::Located::in_app(d))
            );
            Err(EXIT_USAGE)
        }
    }
}

/// The coordinators of one version of `file`: the coordinator, or each
/// one a bundle submits, with the configuration the bundle gives it.
fn load_version(
    args: &DiffArgs,
    files: &Files,
    configs: &[crate::project::files::ConfigFile],
    file: &Path,
) -> Result<Vec<Version>, i32> {
    let settings = args
        .job
        .settings(files, args.processing_timezone.as_deref(), file)?;
    let input = args.job.own_job(configs, files, &settings);
    let pz = settings.processing_zone;
    let options = Options::all_actions(pz, input.check_maximum_frequency, input.cron_max_year);
    let mut sources = Sources::default();
    let mut versions = Vec::new();
    let code = load::with_application(file, files, &mut sources, |sources, opened| {
        let (kind, doc) = match opened {
            Ok(opened) => opened,
            Err(stop) => return stopped(sources, stop),
        };
        match kind {
            Some(AppKind::Coordinator) => match load::coordinator(doc, file, &input, sources) {
                Ok(loaded) => {
                    versions.push(Version {
                        name: None,
                        options,
                        loaded,
                        sources: std::mem::take(sources),
                    });
                    EXIT_OK
                }
                Err(stop) => stopped(sources, stop),
            },
            Some(AppKind::Bundle) => {
                let loaded = match load::bundle(doc, file, &input, sources) {
                    Ok(loaded) => loaded,
                    Err(stop) => return stopped(sources, stop),
                };
                let (submitted, problems) =
                    crate::oozie::bundle::submit(&loaded.bundle, &loaded.config, pz);
                let mut code = EXIT_USAGE;
                let Some(members) = load::bundle_members(
                    file,
                    &input,
                    &loaded,
                    &submitted,
                    problems,
                    sources,
                    &mut super::output::printer(&mut code),
                ) else {
                    return code;
                };
                versions.extend(members.into_iter().map(|m| Version {
                    name: Some(m.submitted.name.to_string()),
                    options,
                    loaded: m.loaded,
                    sources: m.sources,
                }));
                EXIT_OK
            }
            _ => {
                eprintln!(
                    "error: {}: coordc diff compares coordinators and bundles, not <{}>",
                    file.display(),
                    doc.root.name
                );
                EXIT_USAGE
            }
        }
    });
    match code {
        EXIT_OK => Ok(versions),
        code => Err(code.max(EXIT_USAGE)),
    }
}

fn submit(version: &Version) -> Result<Job<'_>, i32> {
    super::dryrun::submit(&version.loaded, &version.sources, &version.options)
        .map_err(|e| e.max(EXIT_USAGE))
}

/// The window compared: `--from`/`--to`, else from now (or the earlier
/// job's start, when both start later) to a year later.
fn window(args: &DiffArgs, pz: ProcessingZone, old: &Job, new: &Job) -> Result<Window, i32> {
    let parse = |flag: &str, text: &Option<String>| {
        text.as_deref()
            .map(|text| time_argument(flag, text, pz))
            .transpose()
    };
    let from =
        parse("--from", &args.from)?.unwrap_or_else(|| Utc::now().max(old.start.min(new.start)));
    let to = parse("--to", &args.to)?
        .unwrap_or_else(|| from.checked_add_months(Months::new(12)).unwrap_or(from));
    Ok((from, to))
}

fn write_text(out: &mut String, outcomes: &[Outcome]) {
    use std::fmt::Write;
    for outcome in outcomes {
        match outcome {
            Outcome::Only { side, file } => {
                let _ = writeln!(
                    out,
                    "{file}: {}",
                    match side {
                        Side::Old => "removed: the new version has no such coordinator",
                        Side::New => "added: the old version has no such coordinator",
                    }
                );
            }
            Outcome::Compared {
                name,
                window,
                comparison,
                ..
            } => {
                let _ = writeln!(
                    out,
                    "{name}: {} old and {} new actions from {} to {}: {}",
                    comparison.old_actions,
                    comparison.new_actions,
                    format_utc(window.0),
                    format_utc(window.1),
                    if comparison.changed() {
                        format!("{} unchanged", comparison.unchanged)
                    } else {
                        "no change".to_string()
                    }
                );
                for group in &comparison.groups {
                    let _ = writeln!(out, "  {}", group.describe());
                }
                for group in &comparison.groups {
                    let _ = writeln!(out, "\n  {}:", group.describe());
                    for line in example_lines(group) {
                        let _ = writeln!(out, "    {line}");
                    }
                }
            }
        }
    }
}

/// A group's first examples as lines, then how many more actions it has.
fn example_lines(group: &diff::Group) -> Vec<String> {
    let mut lines: Vec<String> = group
        .examples
        .iter()
        .take(SHOWN_EXAMPLES)
        .map(|e| example_text(&group.change, e))
        .collect();
    let shown = lines.len();
    if group.count > shown {
        lines.push(format!("... and {} more", group.count - shown));
    }
    lines
}

/// One example as a line.
fn example_text(change: &Change, example: &diff::Example) -> String {
    match (change, &example.to) {
        (_, Some(to)) => format!("{} -> {to}", example.nominal),
        (Change::Appears | Change::Disappears, None) => example.nominal.clone(),
        _ => {
            let side = |values: &[String], sign: &str| -> Vec<String> {
                values
                    .iter()
                    .map(|v| format!("{sign} {}", shortened(v)))
                    .collect()
            };
            let mut lines = side(&example.old, "-");
            lines.extend(side(&example.new, "+"));
            format!("{}: {}", example.nominal, lines.join("  "))
        }
    }
}

/// Examples a group shows in text and Markdown (JSON has more).
const SHOWN_EXAMPLES: usize = 5;

/// Most characters of a value a line shows (JSON has them all).
const SHOWN: usize = 120;

/// `value`, cut after [`SHOWN`] characters with how many more there are.
fn shortened(value: &str) -> String {
    match value.char_indices().nth(SHOWN) {
        Some((cut, _)) => format!(
            "{}... ({} more characters)",
            &value[..cut],
            value[cut..].chars().count()
        ),
        None => value.to_string(),
    }
}

fn write_markdown(out: &mut String, outcomes: &[Outcome]) {
    use std::fmt::Write;
    let _ = writeln!(out, "### What this change does to what will run\n");
    for outcome in outcomes {
        match outcome {
            Outcome::Only { side, file } => {
                let _ = writeln!(
                    out,
                    "- `{file}`: {}\n",
                    match side {
                        Side::Old => "removed",
                        Side::New => "added",
                    }
                );
            }
            Outcome::Compared {
                name,
                window,
                comparison,
                ..
            } => {
                let _ = writeln!(
                    out,
                    "**`{name}`**: {} old and {} new actions from {} to {}{}\n",
                    comparison.old_actions,
                    comparison.new_actions,
                    format_utc(window.0),
                    format_utc(window.1),
                    if comparison.changed() {
                        ""
                    } else {
                        ": no change"
                    }
                );
                if !comparison.changed() {
                    continue;
                }
                let _ = writeln!(
                    out,
                    "| change | actions | first | last |\n| --- | ---: | --- | --- |"
                );
                for group in &comparison.groups {
                    let _ = writeln!(
                        out,
                        "| {} | {} | {} | {} |",
                        group.headline().replace('|', "\\|"),
                        group.count,
                        format_utc(group.first),
                        format_utc(group.last)
                    );
                }
                let _ = writeln!(out, "\n<details><summary>Examples</summary>\n\n```");
                for group in &comparison.groups {
                    let _ = writeln!(out, "{}:", group.describe());
                    for line in example_lines(group) {
                        let _ = writeln!(out, "  {line}");
                    }
                }
                let _ = writeln!(out, "```\n\n</details>\n");
            }
        }
    }
}

/// GitHub Actions workflow commands: a notice per group, on the new file.
fn write_github(out: &mut String, outcomes: &[Outcome]) {
    use std::fmt::Write;
    // (GitHub's escapes for a command's data and its properties.)
    let data = |s: &str| {
        s.replace('%', "%25")
            .replace('\r', "%0D")
            .replace('\n', "%0A")
    };
    let property = |s: &str| data(s).replace(':', "%3A").replace(',', "%2C");
    for outcome in outcomes {
        match outcome {
            Outcome::Only { side, file } => {
                let _ = writeln!(
                    out,
                    "::notice file={}::{}",
                    property(file),
                    data(match side {
                        Side::Old => "this coordinator is removed",
                        Side::New => "this coordinator is added",
                    })
                );
            }
            Outcome::Compared {
                new, comparison, ..
            } => {
                for group in &comparison.groups {
                    let _ = writeln!(
                        out,
                        "::notice file={},title={}::{}",
                        property(new),
                        property("coordc diff"),
                        data(&group.describe())
                    );
                }
            }
        }
    }
}

fn json(outcomes: &[Outcome]) -> serde_json::Value {
    let apps: Vec<serde_json::Value> = outcomes
        .iter()
        .map(|o| match o {
            Outcome::Only { side, file } => serde_json::json!({
                "file": file,
                "only_in": match side { Side::Old => "old", Side::New => "new" },
            }),
            Outcome::Compared {
                name,
                old,
                new,
                window,
                comparison,
            } => serde_json::json!({
                "name": name,
                "old": old,
                "new": new,
                "from": format_utc(window.0),
                "to": format_utc(window.1),
                "changed": comparison.changed(),
                "comparison": comparison,
            }),
        })
        .collect();
    serde_json::json!({ "apps": apps })
}
