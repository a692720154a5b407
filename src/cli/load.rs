//! Reading an application as Oozie receives it: the XML (parsed and validated
//! against its schema), its job configuration, its `<parameters>` and its
//! included dataset files. The commands build on this and only render what it
//! returns: every problem comes back located in the file it is about.

use super::render::human;
use super::{ReadError, read_source};
use crate::config::{JobConfig, Source};
use crate::diag::Diagnostic;
use crate::el::VarMap;
use crate::interp::dryrun::{self, Located};
use crate::interp::parameters;
use crate::ir::{self, Coordinator, Dataset};
use crate::time::datetime::ProcessingZone;
use crate::xml;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// The files a command read, for rendering diagnostics: index 0 is the
/// application; `Located::file` indexes the others.
///
/// Texts are shared: the application's parsed tree borrows its text while
/// included and configuration files are added.
#[derive(Default)]
pub struct Sources {
    pub files: Vec<(String, Arc<str>)>,
}

impl Sources {
    pub fn add(&mut self, name: String, text: impl Into<Arc<str>>) -> usize {
        self.files.push((name, text.into()));
        self.files.len() - 1
    }

    /// `located` rendered as a human-readable diagnostic.
    pub fn render(&self, located: &Located) -> String {
        let (name, text) = &self.files[located.file.unwrap_or(0)];
        human(&located.diagnostic, name, text)
    }
}

/// What a job is given besides its application: configuration files (or the
/// job.properties beside the application), `-D` definitions, where included
/// `hdfs://` paths are found, and Oozie's processing zone.
pub struct JobInput<'a> {
    /// Read once for the run: every coordinator of a check reads them.
    pub configs: &'a [ConfigFile],
    /// Without `configs`, the job.properties beside each application.
    pub beside: &'a BesideConfigs,
    pub defines: &'a [(String, String)],
    pub maps: &'a [(String, String)],
    pub processing_zone: ProcessingZone,
    /// Oozie's `check.maximum.frequency`: frequencies under 5 minutes refused.
    pub check_maximum_frequency: bool,
}

/// A configuration file: its name and its text, or why it cannot be read.
pub struct ConfigFile {
    name: String,
    text: Result<Arc<str>, ReadError>,
}

impl ConfigFile {
    pub fn read(path: &Path) -> ConfigFile {
        ConfigFile {
            name: path.display().to_string(),
            text: read_source(path).map(Arc::from),
        }
    }
}

/// The job.properties (and the defaults: config-default.xml for workflows,
/// coord-config-default.xml for coordinators) beside applications, looked
/// up (and read) once per folder: the applications of one folder share them.
#[derive(Default)]
pub struct BesideConfigs {
    found: Mutex<HashMap<BesideFile, Option<Arc<ConfigFile>>>>,
}

/// A folder, and the name of a configuration file looked for in it.
type BesideFile = (PathBuf, &'static str);

/// The job configuration beside an application.
const JOB_PROPERTIES: &str = "job.properties";

/// The workflow defaults beside a workflow (SubmitXCommand.java:78, 156-174).
const CONFIG_DEFAULT: &str = "config-default.xml";

/// The coordinator defaults beside a coordinator (CoordSubmitXCommand.java:112,
/// 556-578).
const COORD_CONFIG_DEFAULT: &str = "coord-config-default.xml";

impl BesideConfigs {
    fn get(&self, app_dir: &Path, file: &'static str) -> Option<Arc<ConfigFile>> {
        let mut found = self.found.lock().unwrap_or_else(PoisonError::into_inner);
        let key = (app_dir.to_path_buf(), file);
        if let Some(known) = found.get(&key) {
            return known.clone();
        }
        let path = app_dir.join(file);
        let config = path.is_file().then(|| Arc::new(ConfigFile::read(&path)));
        found.insert(key, config.clone());
        config
    }
}

/// Why an application could not be read to the end.
pub enum Stop {
    /// A usage or I/O error (exit 2).
    Usage(String),
    /// Problems in the files, each located; the application's problems found
    /// so far are all there.
    Problems(Vec<Located>),
}

/// A coordinator as submitted: its IR, the job's variables (configuration and
/// parameter defaults), the datasets of its includes, and the include
/// problems (reported with the submission's).
pub struct LoadedCoordinator {
    pub app: Coordinator,
    pub vars: VarMap,
    pub included: Vec<Dataset>,
    pub include_problems: Vec<Located>,
    /// `<parameters>` without a default that the job does not define (CO004).
    pub parameter_problems: Vec<Located>,
    /// Whether the job was given a configuration (files, the job.properties
    /// beside the application, or `-D`): only then do undefined names count.
    pub configured: bool,
}

/// Reads the application file into `sources` (as file 0); its text, to parse
/// with [`parse_document`].
pub fn read_application(path: &Path, sources: &mut Sources) -> Result<Arc<str>, Stop> {
    // (The same text as `display()`, without going through a formatter.)
    let name = path.to_string_lossy().into_owned();
    let text = match read_source(path) {
        Ok(t) => t,
        Err(ReadError::Io(e)) => return Err(Stop::Usage(format!("cannot read {name}: {e}"))),
        Err(ReadError::Refused(d)) => {
            sources.add(name, String::new());
            return Err(Stop::Problems(vec![Located::in_app(d)]));
        }
    };
    let text: Arc<str> = text.into();
    sources.add(name, Arc::clone(&text));
    Ok(text)
}

/// The application's tree (file 0), or why it is not well-formed XML.
pub fn parse_document<'s>(text: &'s str, arena: &'s xml::Arena) -> Result<xml::Document<'s>, Stop> {
    xml::parse(text, arena).map_err(|d| Stop::Problems(vec![Located::in_app(d)]))
}

/// The schema violations of the application `doc` (file 0 of its sources).
pub fn schema_problems(doc: &xml::Document) -> Vec<Located> {
    xml::validate(doc)
        .into_iter()
        .map(Located::in_app)
        .collect()
}

/// The coordinator of `doc` (file 0 of `sources`, already parsed) with its job.
pub fn coordinator(
    doc: &xml::Document,
    app_path: &Path,
    input: &JobInput,
    sources: &mut Sources,
) -> Result<LoadedCoordinator, Stop> {
    let invalid = schema_problems(doc);
    if !invalid.is_empty() {
        return Err(Stop::Problems(invalid));
    }
    let (app, problems) = ir::lower::coordinator(&doc.root);
    if !problems.is_empty() {
        return Err(Stop::Problems(
            problems.into_iter().map(Located::in_app).collect(),
        ));
    }
    let app_dir = app_dir(app_path);
    // The coord-config-default.xml beside it is injected as defaults before
    // anything reads the configuration (CoordSubmitXCommand.java:212, 556-578).
    let defaults = input.beside.get(&app_dir, COORD_CONFIG_DEFAULT);
    let (config, configured) = job(&app_dir, defaults.as_deref(), input, sources)?;
    let (vars, parameter_problems) =
        parameters::verify(&app.parameters, config.vars(), &parameters::COORDINATOR);
    let mut included = Vec::new();
    let mut include_problems = Vec::new();
    let includes = Includes {
        maps: input.maps,
        vars: &vars,
        pz: input.processing_zone,
    };
    includes.read(
        &app.includes,
        None,
        &app_dir,
        &mut Vec::new(),
        sources,
        &mut included,
        &mut include_problems,
    );
    Ok(LoadedCoordinator {
        app,
        vars,
        included,
        include_problems,
        parameter_problems,
        configured,
    })
}

/// The folder of the application at `app_path`.
fn app_dir(app_path: &Path) -> PathBuf {
    app_path
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// A workflow's job: the variables of its configuration, with `<parameters>`
/// applied, and their problems (WF011, WF012); and whether the job was given
/// a configuration (files, the job.properties beside it, or `-D`) that
/// submits the workflow itself.
pub struct WorkflowJob {
    pub vars: VarMap,
    pub parameter_problems: Vec<Located>,
    pub configured: bool,
    /// What the configuration submits when it is not this workflow: a
    /// coordinator, a bundle, or another workflow file (its application
    /// path names it). This workflow then runs with another configuration
    /// (a coordinator action's, a parent workflow's), which coordc does not
    /// have, so the job counts as not configured.
    pub submits_other: Option<String>,
}

/// The properties naming the application a job submits (OozieClient.java:
/// 103-107).
const WORKFLOW_PATH: &str = "oozie.wf.application.path";
const OTHER_PATHS: &[(&str, &str)] = &[
    ("oozie.coord.application.path", "a coordinator"),
    ("oozie.bundle.application.path", "a bundle"),
];

/// What `config` submits if not the workflow file `file_name`: the file
/// its workflow application path names (a folder's `workflow.xml`,
/// WorkflowAppService.java:124-125), else a coordinator or bundle.
fn submits_other(config: &JobConfig, file_name: &str) -> Option<String> {
    match config.get(WORKFLOW_PATH) {
        Some(path) => {
            let last = path.trim_end_matches('/').rsplit('/').next().unwrap_or("");
            let submitted = if last.ends_with(".xml") {
                last
            } else {
                "workflow.xml"
            };
            (submitted != file_name).then(|| format!("the workflow `{submitted}`"))
        }
        None => OTHER_PATHS
            .iter()
            .find(|(property, _)| config.get(property).is_some())
            .map(|(_, what)| (*what).to_string()),
    }
}

/// The job of the workflow `wf` at `app_path`: its configuration as a
/// coordinator's is found, over the config-default.xml beside the workflow,
/// whose values the server injects as defaults before it verifies the
/// parameters (SubmitXCommand.java:156-187, LiteWorkflowAppParser.java:182).
pub fn workflow_job(
    wf: &ir::Workflow,
    app_path: &Path,
    input: &JobInput,
    sources: &mut Sources,
) -> Result<WorkflowJob, Stop> {
    let app_dir = app_dir(app_path);
    let defaults = input.beside.get(&app_dir, CONFIG_DEFAULT);
    let (config, configured) = job(&app_dir, defaults.as_deref(), input, sources)?;
    let (vars, parameter_problems) =
        parameters::verify(&wf.parameters, config.vars(), &parameters::WORKFLOW);
    let file_name = app_path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let submits_other = submits_other(&config, file_name);
    Ok(WorkflowJob {
        vars,
        parameter_problems,
        configured: configured && submits_other.is_none(),
        submits_other,
    })
}

/// The job configuration of the application in `app_dir`: `defaults` (read
/// first, so everything overrides them), the configuration files (without
/// any, the job.properties beside the application) and the -D definitions;
/// and whether it was given one (files or -D: defaults alone are not a job's
/// configuration).
fn job(
    app_dir: &Path,
    defaults: Option<&ConfigFile>,
    input: &JobInput,
    sources: &mut Sources,
) -> Result<(JobConfig, bool), Stop> {
    let beside;
    let files: Vec<&ConfigFile> = if input.configs.is_empty() {
        beside = input.beside.get(app_dir, JOB_PROPERTIES);
        beside.as_deref().into_iter().collect()
    } else {
        input.configs.iter().collect()
    };
    let configured = !files.is_empty() || !input.defines.is_empty();
    let all: Vec<&ConfigFile> = defaults.into_iter().chain(files).collect();
    Ok((job_config(&all, input, sources)?, configured))
}

/// The configuration `files` and the -D definitions, each file added to
/// `sources`; a file that cannot be read or parsed is an error.
fn job_config(
    files: &[&ConfigFile],
    input: &JobInput,
    sources: &mut Sources,
) -> Result<JobConfig, Stop> {
    let mut config_sources = Vec::new();
    let mut indexes = Vec::new();
    for ConfigFile { name, text } in files.iter().copied() {
        match text {
            Ok(text) => {
                indexes.push(sources.add(name.clone(), Arc::clone(text)));
                config_sources.push(Source::File { path: name, text });
            }
            Err(ReadError::Io(e)) => return Err(Stop::Usage(format!("cannot read {name}: {e}"))),
            Err(ReadError::Refused(d)) => {
                let file = sources.add(name.clone(), String::new());
                return Err(Stop::Problems(vec![Located {
                    file: Some(file),
                    diagnostic: d.clone(),
                }]));
            }
        }
    }
    config_sources.push(Source::Definitions(input.defines));
    let (mut config, problems) = JobConfig::build(&config_sources);
    if problems.is_empty() {
        // The Oozie client submits as the local user unless told otherwise.
        // (Looked up once a run: the environment is read under a lock.)
        static LOCAL_USER: OnceLock<Option<String>> = OnceLock::new();
        let local_user = LOCAL_USER.get_or_init(|| {
            ["USER", "LOGNAME"]
                .iter()
                .find_map(|v| std::env::var(v).ok().filter(|u| !u.is_empty()))
        });
        if let Some(user) = local_user {
            config.default_user(user);
        }
        return Ok(config);
    }
    let definitions = sources.add("<-D>".to_string(), String::new());
    Err(Stop::Problems(
        problems
            .into_iter()
            .map(|p| Located {
                file: Some(p.source.map_or(definitions, |i| indexes[i])),
                diagnostic: p.diagnostic,
            })
            .collect(),
    ))
}

/// Follows `<include>`s: paths are EL-resolved at submission, mapped by
/// `--map`, else read relative to the including file; a `scheme://` path no
/// map covers is looked for beside the including file. Cycles are errors.
pub(crate) struct Includes<'a> {
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
                Err(ReadError::Refused(mut d)) => {
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
            let arena = xml::Arena::new();
            let doc = match xml::parse(&sources.files[index].1, &arena) {
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
