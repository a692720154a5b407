//! `coordc dryrun`: read a coordinator, its included dataset files and its job
//! configuration, and list the actions Oozie would materialize.

use super::render::human;
use super::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE, Format, ReadError, read_source};
use crate::config::{JobConfig, Source};
use crate::diag::Diagnostic;
use crate::interp::dryrun::{self, Action, Event, Located, Options};
use crate::ir::{self, Dataset};
use crate::time::datetime::{ProcessingZone, format_utc, parse_datetime};
use crate::xml;
use clap::Args;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct DryrunArgs {
    /// The coordinator application XML file.
    app: PathBuf,
    /// A job configuration file (`.properties` or Hadoop XML), repeatable, merged
    /// in order. Default: the job.properties beside the application, if any.
    #[arg(long = "config", value_name = "FILE")]
    configs: Vec<PathBuf>,
    /// A job property, repeatable; overrides the configuration files.
    #[arg(short = 'D', value_name = "NAME=VALUE", value_parser = parse_pair)]
    defines: Vec<(String, String)>,
    /// Read `<include>` paths starting with PREFIX from the local folder DIR,
    /// e.g. hdfs://nn:8020/apps=./apps. Repeatable.
    #[arg(long = "map", value_name = "PREFIX=DIR", value_parser = parse_pair)]
    maps: Vec<(String, String)>,
    /// List only actions at or after this nominal time.
    #[arg(long, value_name = "T")]
    from: Option<String>,
    /// List only actions before this nominal time.
    #[arg(long, value_name = "T")]
    to: Option<String>,
    /// List at most N actions.
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
    /// Oozie's processing time zone (`oozie.processing.timezone`): UTC or GMT±HHMM.
    #[arg(long, value_name = "TZ", default_value = "UTC")]
    processing_timezone: String,
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

fn parse_pair(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((name, value)) if !name.is_empty() => Ok((name.to_string(), value.to_string())),
        _ => Err(format!("expected NAME=VALUE, got {s:?}")),
    }
}

/// The files read, for rendering diagnostics: index 0 is the application.
struct Sources {
    files: Vec<(String, String)>,
}

impl Sources {
    fn print(&self, located: &Located) {
        let (name, text) = &self.files[located.file.unwrap_or(0)];
        let _ = write!(
            std::io::stderr().lock(),
            "{}",
            human(&located.diagnostic, name, text)
        );
    }

    fn print_all(&self, problems: &[Located]) {
        problems.iter().for_each(|p| self.print(p));
    }

    fn add(&mut self, name: String, text: String) -> usize {
        self.files.push((name, text));
        self.files.len() - 1
    }
}

fn usage(message: String) -> i32 {
    eprintln!("error: {message}");
    EXIT_USAGE
}

pub fn run(args: DryrunArgs) -> i32 {
    let pz = match ProcessingZone::parse_option(&args.processing_timezone) {
        Ok(pz) => pz,
        Err(d) => {
            eprint!(
                "{}",
                human(&d, "<--processing-timezone>", &args.processing_timezone)
            );
            return EXIT_USAGE;
        }
    };
    let mut window = [None, None];
    for (slot, (flag, text)) in window
        .iter_mut()
        .zip([("--from", &args.from), ("--to", &args.to)])
    {
        if let Some(text) = text {
            match parse_datetime(text, pz) {
                Ok(t) => *slot = Some(t.instant),
                Err(e) => {
                    eprint!(
                        "{}",
                        human(&e.to_diagnostic(0, pz), &format!("<{flag}>"), text)
                    );
                    return EXIT_USAGE;
                }
            }
        }
    }
    let app_name = args.app.display().to_string();
    let app_text = match read_source(&args.app) {
        Ok(t) => t,
        Err(ReadError::Io(e)) => return usage(format!("cannot read {app_name}: {e}")),
        Err(ReadError::TooLong(d)) => {
            eprint!("{}", human(&d, &app_name, ""));
            return EXIT_ERRORS;
        }
    };
    let mut sources = Sources {
        files: vec![(app_name, app_text)],
    };
    let in_app = |diagnostic| Located {
        file: None,
        diagnostic,
    };
    let doc = match xml::parse(&sources.files[0].1) {
        Ok(doc) => doc,
        Err(d) => {
            sources.print(&in_app(d));
            return EXIT_ERRORS;
        }
    };
    let invalid: Vec<Located> = xml::validate(&doc).into_iter().map(in_app).collect();
    if !invalid.is_empty() {
        sources.print_all(&invalid);
        return EXIT_ERRORS;
    }
    if doc.root.name != "coordinator-app" {
        let d = Diagnostic::error(
            crate::check::rules::XML_UNKNOWN_DOCUMENT,
            doc.root.name_span,
            format!(
                "coordc dryrun reads a <coordinator-app>, not <{}>",
                doc.root.name
            ),
        );
        sources.print(&in_app(d));
        return EXIT_ERRORS;
    }
    let (app, problems) = ir::lower::coordinator(&doc.root);
    if !problems.is_empty() {
        sources.print_all(&problems.into_iter().map(in_app).collect::<Vec<_>>());
        return EXIT_ERRORS;
    }
    let app_dir = args
        .app
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let config = match load_config(&args, &app_dir) {
        Ok(config) => config,
        Err(code) => return code,
    };
    let vars = match dryrun::job_variables(&app, config.vars()) {
        Ok(vars) => vars,
        Err(problems) => {
            sources.print_all(&problems);
            return EXIT_ERRORS;
        }
    };
    let mut included = Vec::new();
    let mut problems = Vec::new();
    let includes = Includes {
        maps: &args.maps,
        vars: &vars,
        pz,
    };
    includes.read(
        &app.includes,
        None,
        &app_dir,
        &mut Vec::new(),
        &mut sources,
        &mut included,
        &mut problems,
    );
    let options = Options {
        includes_incomplete: !problems.is_empty(),
        from: window[0],
        to: window[1],
        limit: args.limit,
        processing_zone: pz,
    };
    // Include problems and submission problems are reported together.
    let job = match dryrun::prepare(&app, &included, &vars, &options) {
        Ok(job) if problems.is_empty() => job,
        Ok(_) => {
            sources.print_all(&problems);
            return EXIT_ERRORS;
        }
        Err(more) => {
            problems.extend(more);
            sources.print_all(&problems);
            return EXIT_ERRORS;
        }
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let result = match args.format {
        Format::Text => write_text(&job, &mut out),
        Format::Json => write_json(&job, &mut out),
    };
    let _ = out.flush();
    match result {
        Ok(None) => EXIT_OK,
        Ok(Some(d)) => {
            sources.print(&in_app(d));
            EXIT_ERRORS
        }
        // A closed stdout (e.g. piped into `head`) ends the listing quietly.
        Err(_) => EXIT_OK,
    }
}

/// The configuration files (or the job.properties beside the application)
/// and the -D definitions; a file that cannot be read or parsed is an error.
fn load_config(args: &DryrunArgs, app_dir: &Path) -> Result<JobConfig, i32> {
    let mut paths = args.configs.clone();
    let beside = app_dir.join("job.properties");
    if paths.is_empty() && beside.is_file() {
        paths.push(beside);
    }
    let mut sources = Vec::new();
    let mut names = Vec::new();
    for path in &paths {
        let name = path.display().to_string();
        match read_source(path) {
            Ok(text) => {
                names.push((name.clone(), text.clone()));
                sources.push(Source::File { path: name, text });
            }
            Err(ReadError::Io(e)) => return Err(usage(format!("cannot read {name}: {e}"))),
            Err(ReadError::TooLong(d)) => {
                eprint!("{}", human(&d, &name, ""));
                return Err(EXIT_ERRORS);
            }
        }
    }
    sources.push(Source::Definitions(args.defines.clone()));
    let (mut config, problems) = JobConfig::build(&sources);
    if problems.is_empty() {
        // The Oozie client submits as the local user unless told otherwise.
        if let Some(user) = ["USER", "LOGNAME"]
            .iter()
            .find_map(|v| std::env::var(v).ok().filter(|u| !u.is_empty()))
        {
            config.default_user(user);
        }
        return Ok(config);
    }
    for p in problems {
        match p.source {
            Some(i) => eprint!("{}", human(&p.diagnostic, &names[i].0, &names[i].1)),
            None => eprint!("{}", human(&p.diagnostic, "<-D>", "")),
        }
    }
    Err(EXIT_ERRORS)
}

/// Follows `<include>`s: paths are EL-resolved at submission, mapped by
/// `--map`, else read relative to the including file; a `scheme://` path no
/// map covers is looked for beside the including file. Cycles are errors.
struct Includes<'a> {
    maps: &'a [(String, String)],
    vars: &'a crate::el::VarMap,
    pz: ProcessingZone,
}

impl Includes<'_> {
    #[allow(clippy::too_many_arguments)]
    fn read(
        &self,
        includes: &[ir::ElText],
        file: Option<usize>,
        dir: &Path,
        stack: &mut Vec<PathBuf>,
        sources: &mut Sources,
        datasets: &mut Vec<Dataset>,
        problems: &mut Vec<Located>,
    ) {
        for include in includes {
            let mut problem = |d: Diagnostic| {
                problems.push(Located {
                    file,
                    diagnostic: d,
                })
            };
            let path = match dryrun::submit_text(include, self.vars, self.pz) {
                Ok(p) => p.trim().to_string(),
                Err(d) => {
                    problem(d);
                    continue;
                }
            };
            let local = self.local_path(&path, dir);
            let text = match read_source(&local) {
                Ok(t) => t,
                Err(ReadError::TooLong(mut d)) => {
                    d.span = include.span;
                    d.message = format!("{}: {}", local.display(), d.message);
                    problem(d);
                    continue;
                }
                Err(ReadError::Io(e)) => {
                    problem(
                        Diagnostic::error(
                            crate::check::rules::UNDEFINED_DATASET,
                            include.span,
                            format!("cannot read the included file {} ({e})", local.display()),
                        )
                        .with_help("map its location to a local folder with --map PREFIX=DIR"),
                    );
                    continue;
                }
            };
            let canonical = local.canonicalize().unwrap_or_else(|_| local.clone());
            if stack.contains(&canonical) {
                problem(Diagnostic::error(
                    crate::check::rules::UNDEFINED_DATASET,
                    include.span,
                    format!(
                        "{} includes itself (through {} file(s))",
                        local.display(),
                        stack.len()
                    ),
                ));
                continue;
            }
            let index = sources.add(local.display().to_string(), text);
            let doc = match xml::parse(&sources.files[index].1) {
                Ok(doc) => doc,
                Err(d) => {
                    problems.push(Located {
                        file: Some(index),
                        diagnostic: d,
                    });
                    continue;
                }
            };
            let (nested, found, lowering) = ir::lower::dataset_file(&doc.root, index);
            problems.extend(lowering.into_iter().map(|d| Located {
                file: Some(index),
                diagnostic: d,
            }));
            datasets.extend(found);
            stack.push(canonical);
            let nested_dir = local
                .parent()
                .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
            self.read(
                &nested,
                Some(index),
                &nested_dir,
                stack,
                sources,
                datasets,
                problems,
            );
            stack.pop();
        }
    }

    fn local_path(&self, path: &str, dir: &Path) -> PathBuf {
        if let Some((prefix, local)) = self.maps.iter().find(|(p, _)| path.starts_with(p.as_str()))
        {
            return PathBuf::from(local).join(path[prefix.len()..].trim_start_matches('/'));
        }
        match path.split_once("://") {
            Some((_, rest)) => dir.join(rest.rsplit('/').next().unwrap_or(rest)),
            None => dir.join(path),
        }
    }
}

fn write_text(job: &dryrun::Job, out: &mut impl Write) -> std::io::Result<Option<Diagnostic>> {
    writeln!(
        out,
        "coordinator {} ({}), {} to {}",
        job.name,
        job.zone.id(),
        format_utc(job.start),
        format_utc(job.end)
    )?;
    for action in job.actions() {
        let action = match action {
            Ok(a) => a,
            Err(d) => return Ok(Some(d)),
        };
        let local = job.zone.local(action.nominal).format("%Y-%m-%d %H:%M");
        writeln!(
            out,
            "\naction {} at {} ({local} {})",
            action.number,
            format_utc(action.nominal),
            job.zone.id()
        )?;
        let events = |out: &mut dyn Write, kind: &str, events: &[Event]| -> std::io::Result<()> {
            for event in events {
                writeln!(out, "  {kind} {}:", event.name)?;
                for uri in &event.uris {
                    writeln!(out, "    {uri}")?;
                }
                for call in &event.unresolved {
                    writeln!(out, "    {call}  (unresolved: needs data)")?;
                }
            }
            Ok(())
        };
        events(out, "data-in", &action.inputs)?;
        if let Some(condition) = &action.input_logic {
            writeln!(
                out,
                "  input logic {condition}  (which data it selects: needs data)"
            )?;
        }
        events(out, "data-out", &action.outputs)?;
        writeln!(out, "  workflow {}", action.app_path)?;
        for (name, value) in &action.configuration {
            writeln!(out, "    {name} = {value}")?;
        }
        if !action.sla.is_empty() {
            writeln!(out, "  sla")?;
            for (name, value) in &action.sla {
                writeln!(out, "    {name} = {value}")?;
            }
        }
    }
    Ok(None)
}

/// One JSON object, written as the actions are produced.
/// Writes the JSON listing of `job`'s actions (public for the benchmark, which
/// measures exactly what `coordc dryrun --format json` does). Returns the
/// diagnostic of an action that failed to resolve, where the listing stopped.
pub fn write_json(job: &dryrun::Job, out: &mut impl Write) -> std::io::Result<Option<Diagnostic>> {
    write!(
        out,
        "{{\"app\": {}, \"actions\": [",
        serde_json::to_string(&job.name)?
    )?;
    let mut failure = None;
    // sonic-rs escapes strings with SIMD: a dry run writes hundreds of MB of URIs.
    let mut buffer = Vec::with_capacity(64 * 1024);
    for (i, action) in job.actions().enumerate() {
        let action = match action {
            Ok(a) => a,
            Err(d) => {
                failure = Some(d);
                break;
            }
        };
        if i > 0 {
            buffer.push(b',');
        }
        buffer.push(b'\n');
        sonic_rs::to_writer(&mut buffer, &ActionJson(&action)).map_err(std::io::Error::other)?;
        // Written in large pieces, which pass the writer's own buffer by.
        if buffer.len() >= 60 * 1024 {
            out.write_all(&buffer)?;
            buffer.clear();
        }
    }
    out.write_all(&buffer)?;
    writeln!(out, "\n]}}")?;
    Ok(failure)
}

/// An action as the JSON object of the output, serialized straight to the
/// writer (no intermediate value tree).
struct ActionJson<'a>(&'a Action<'a>);

/// Events as `{"name": [uris...]}` in document order; with `unresolved`, the
/// events' unresolved calls instead, for the events that have some.
struct EventsJson<'a> {
    events: &'a [Event<'a>],
    unresolved: bool,
}

impl serde::Serialize for EventsJson<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let entries = self.events.iter().filter_map(|e| match self.unresolved {
            false => Some((&e.name, &e.uris)),
            true => (!e.unresolved.is_empty()).then_some((&e.name, &e.unresolved)),
        });
        serializer.collect_map(entries)
    }
}

impl serde::Serialize for ActionJson<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let action = self.0;
        let pending = action.inputs.iter().any(|e| !e.unresolved.is_empty());
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("number", &action.number)?;
        map.serialize_entry("nominal_time", &format_utc(action.nominal))?;
        map.serialize_entry(
            "inputs",
            &EventsJson {
                events: &action.inputs,
                unresolved: false,
            },
        )?;
        map.serialize_entry(
            "outputs",
            &EventsJson {
                events: &action.outputs,
                unresolved: false,
            },
        )?;
        if let Some(condition) = &action.input_logic {
            map.serialize_entry("input_logic", condition)?;
        }
        map.serialize_entry("workflow", &WorkflowJson(action))?;
        if !action.sla.is_empty() {
            map.serialize_entry("sla", &Pairs(&action.sla))?;
        }
        if pending {
            map.serialize_entry(
                "unresolved",
                &EventsJson {
                    events: &action.inputs,
                    unresolved: true,
                },
            )?;
        }
        map.end()
    }
}

struct WorkflowJson<'a>(&'a Action<'a>);

/// `(name, value)` pairs as a JSON object, in order.
struct Pairs<'a, K>(&'a [(K, String)]);

impl<K: serde::Serialize> serde::Serialize for Pairs<'_, K> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

impl serde::Serialize for WorkflowJson<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("app_path", &self.0.app_path)?;
        map.serialize_entry("configuration", &Pairs(&self.0.configuration))?;
        map.end()
    }
}
