//! Reading an application as Oozie receives it: the XML (parsed and validated
//! against its schema), its job configuration, its `<parameters>` and its
//! included dataset files. The commands build on this and only render what it
//! returns: every problem comes back located in the file it is about.

use super::files::{ConfigFile, Files, ReadError};
use super::locate::{self, AppKind};
use crate::config::{JobConfig, Property, Source};
use crate::diag::Diagnostic;
use crate::diag::Located;
use crate::diag::render::{Lines, human, human_styled, related_note, related_note_without_text};
use crate::el::VarMap;
use crate::interp::workflow::run::{SubWorkflow, SubWorkflows};
use crate::ir::{self, Bundle, Coordinator, Dataset};
use crate::oozie::bundle::{SubmittedBundle, SubmittedCoordinator};
use crate::oozie::job::{Job, Options, prepare, submit_text};
use crate::oozie::parameters;
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
    /// Files looked for and not found (an `<include>` not there yet): a
    /// file created there changes what the application reads.
    pub absent: Vec<PathBuf>,
    /// Each file's lines, found when first needed (a file with thousands of
    /// problems is then read for its lines once, not once a problem).
    lines: Vec<OnceLock<Lines>>,
}

impl Sources {
    pub fn add(&mut self, name: String, text: impl Into<Arc<str>>) -> usize {
        self.files.push((name, text.into()));
        self.lines.push(OnceLock::new());
        self.files.len() - 1
    }

    /// The application's text (file 0), empty before it is added.
    pub fn application(&self) -> &str {
        self.files.first().map_or("", |(_, text)| text)
    }

    /// The lines of file `file`.
    fn lines(&self, file: usize) -> Option<(&str, &Lines)> {
        let (_, text) = self.files.get(file)?;
        let lines = self.lines.get(file)?.get_or_init(|| Lines::new(text));
        Some((text, lines))
    }

    /// `located` rendered as a human-readable diagnostic.
    pub fn render(&self, located: &Located) -> String {
        self.render_styled(located, false, |_| Vec::new())
    }

    /// [`Sources::render`], in a terminal's colours when `colour` says so,
    /// with the notes `notes` makes from the text of the diagnostic's file
    /// shown after its help, and a note for each place in another file.
    pub fn render_styled(
        &self,
        located: &Located,
        colour: bool,
        notes: impl FnOnce(&str) -> Vec<String>,
    ) -> String {
        let file = located.file.unwrap_or(0);
        let mut out = match (self.files.get(file), self.lines(file)) {
            (Some((name, _)), Some((text, lines))) => {
                human_styled(&located.diagnostic, name, text, lines, colour, notes(text))
            }
            _ => human(&located.diagnostic, "<unknown file>", ""),
        };
        for related in &located.diagnostic.related {
            match self.index_of(&related.file).and_then(|i| self.lines(i)) {
                Some((text, lines)) => out.push_str(&related_note(related, text, lines, colour)),
                None => out.push_str(&related_note_without_text(related)),
            }
        }
        out
    }

    /// The text of the line of file `file` that holds byte `offset`, without
    /// its line end.
    pub fn line_text(&self, file: usize, offset: usize) -> &str {
        self.lines(file).map_or("", |(text, lines)| {
            let range = lines.range(text, lines.line(offset));
            text.get(range).unwrap_or("").trim_end_matches(['\r', '\n'])
        })
    }

    /// The index of the file named `name`, if it was read.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.files.iter().position(|(n, _)| n == name)
    }

    /// The 1-based line and column (in characters) of byte `offset` of file
    /// `file`.
    pub fn line_column(&self, file: usize, offset: usize) -> (usize, usize) {
        self.lines(file)
            .map_or((1, 1), |(text, lines)| lines.line_column(text, offset))
    }
}

impl Sources {
    /// Where the job property `name` is set among the configuration files
    /// read (the last definition wins, as the merge does): the file's
    /// index, its name, its text and the property.
    pub fn property_definition(&self, name: &str) -> Option<(usize, &str, &str, Property)> {
        self.files
            .iter()
            .enumerate()
            .skip(1)
            .rev()
            .find_map(|(index, (file, text))| {
                let properties = properties_of(file, text)?;
                let found = properties.into_iter().rev().find(|p| p.name == name)?;
                Some((index, file.as_str(), &**text, found))
            })
    }
}

/// The properties of a configuration file (`.properties`, else Hadoop XML).
pub fn properties_of(file: &str, text: &str) -> Option<Vec<Property>> {
    if file.ends_with(".xml") {
        crate::config::parse_hadoop_xml(text).ok()
    } else {
        crate::config::properties::parse(text).ok()
    }
}

/// What a job is given besides its application: configuration files (or the
/// job.properties beside the application), `-D` definitions, where included
/// `hdfs://` paths are found, and Oozie's processing zone.
pub struct JobInput<'a> {
    /// Read once for the run: every coordinator of a check reads them.
    pub configs: &'a [ConfigFile],
    /// What is read: the configuration files beside each application (its
    /// defaults, and without `configs`, its job.properties, unless `job`
    /// says otherwise), includes and sub-workflows.
    pub files: &'a Files,
    /// Whose job the application is submitted in.
    pub job: JobSource<'a>,
    pub defines: &'a [(String, String)],
    pub maps: &'a [(String, String)],
    pub processing_zone: ProcessingZone,
    /// Oozie's `check.maximum.frequency`: frequencies under 5 minutes refused.
    pub check_maximum_frequency: bool,
}

/// Whose job an application is submitted in, which decides the files of its
/// configuration.
#[derive(Clone, Copy)]
pub enum JobSource<'a> {
    /// Its own: `--config`, else the job.properties beside it.
    Own,
    /// A bundle's (a coordinator the bundle submits): the bundle job's
    /// configuration, i.e. the bundle's defaults and `--config`, else the
    /// job.properties beside the bundle; nothing beside the coordinator but
    /// its own defaults.
    Bundle {
        defaults: Option<&'a ConfigFile>,
        job_properties: Option<&'a ConfigFile>,
        /// Whether the bundle's job was given a configuration.
        configured: bool,
    },
    /// Another application's of the check: a workflow a coordinator's
    /// actions or a parent workflow run. Its configuration is the
    /// definitions given (what the submitter's job and action give it);
    /// nothing beside it is read but its defaults.
    Run,
}

/// The job configuration beside an application.
const JOB_PROPERTIES: &str = "job.properties";

/// The workflow defaults beside a workflow (SubmitXCommand.java:78, 156-174).
const CONFIG_DEFAULT: &str = "config-default.xml";

/// The coordinator defaults beside a coordinator (CoordSubmitXCommand.java:112,
/// 556-578).
const COORD_CONFIG_DEFAULT: &str = "coord-config-default.xml";

/// The bundle defaults beside a bundle (BundleSubmitXCommand.java:81, 224-260).
const BUNDLE_CONFIG_DEFAULT: &str = "bundle-config-default.xml";

/// Every configuration file an application's check may read beside it.
pub const CONFIGURATION_FILES: &[&str] = &[
    JOB_PROPERTIES,
    CONFIG_DEFAULT,
    COORD_CONFIG_DEFAULT,
    BUNDLE_CONFIG_DEFAULT,
];

/// Why an application could not be read to the end.
pub enum Stop {
    /// A usage or I/O error (exit 2).
    Usage(String),
    /// Problems in the files, each located; the application's problems found
    /// so far are all there.
    Problems(Vec<Located>),
}

/// Where loading and submitting tell what they find (warnings too), with
/// the sources the problems point into: `coordc dryrun` and `coordc
/// simulate` print them; the fuzz targets render them and go on.
pub type ProblemSink<'s> = &'s mut dyn FnMut(&Sources, Stop);

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
pub fn read_application(
    path: &Path,
    files: &Files,
    sources: &mut Sources,
) -> Result<Arc<str>, Stop> {
    // (The same text as `display()`, without going through a formatter.)
    let name = path.to_string_lossy().into_owned();
    let text = match files.read(path) {
        Ok(t) => t,
        Err(ReadError::Io(e)) => return Err(Stop::Usage(format!("cannot read {name}: {e}"))),
        Err(ReadError::Refused(d)) => {
            sources.add(name, String::new());
            return Err(Stop::Problems(vec![Located::in_app(d)]));
        }
    };
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

/// The IR of `doc` (file 0), by `lower`, once it is valid against its schema
/// and its EL parses; or every problem that stops it.
fn lowered<T>(
    doc: &xml::Document,
    lower: impl FnOnce(&xml::Element) -> (T, Vec<Diagnostic>),
) -> Result<T, Stop> {
    let invalid = schema_problems(doc);
    if !invalid.is_empty() {
        return Err(Stop::Problems(invalid));
    }
    let (ir, problems) = lower(&doc.root);
    if !problems.is_empty() {
        return Err(Stop::Problems(
            problems.into_iter().map(Located::in_app).collect(),
        ));
    }
    Ok(ir)
}

/// The workflow of `doc` (file 0), valid, lowered, and with transitions
/// that all lead to nodes and a graph Oozie accepts (the graph errors
/// `coordc check` reports); or every problem that stops it.
pub fn workflow(doc: &xml::Document) -> Result<ir::Workflow, Stop> {
    let wf = lowered(doc, ir::lower::workflow)?;
    let graph: Vec<Located> = crate::check::workflow::check(&wf)
        .into_iter()
        .filter(|d| d.severity == crate::diag::Severity::Error)
        .map(Located::in_app)
        .collect();
    if graph.is_empty() {
        Ok(wf)
    } else {
        Err(Stop::Problems(graph))
    }
}

/// Workflow applications read from local files when a sub-workflow action
/// or a coordinator action names one: an app-path `--map`ped to a folder,
/// or a local path (relative to `base`). Each file is read once.
pub struct LocalWorkflows<'a> {
    pub maps: &'a [(String, String)],
    pub base: PathBuf,
    pub files: &'a Files,
    /// Each application file, read once (two app-paths can name one file).
    read: Mutex<HashMap<PathBuf, Result<Arc<SubWorkflow>, String>>>,
    /// The answer for each app-path (and the file naming it), found once: a
    /// coordinator asks for every action, and finding means file-system calls.
    found: Mutex<HashMap<(String, Option<String>), Found>>,
}

/// What [`SubWorkflows::load`] answers.
type Found = Option<Result<Arc<SubWorkflow>, String>>;

impl<'a> LocalWorkflows<'a> {
    pub fn new(maps: &'a [(String, String)], base: PathBuf, files: &'a Files) -> Self {
        LocalWorkflows {
            maps,
            base,
            files,
            read: Mutex::default(),
            found: Mutex::default(),
        }
    }

    fn read_workflow(&self, file: &Path) -> Result<Arc<SubWorkflow>, String> {
        let mut sources = Sources::default();
        let first = |sources: &Sources, stop: Stop| match stop {
            Stop::Usage(message) => message,
            Stop::Problems(problems) => problems
                .first()
                .map(|p| sources.render(p).lines().next().unwrap_or("").to_string())
                .unwrap_or_default(),
        };
        let text =
            read_application(file, self.files, &mut sources).map_err(|s| first(&sources, s))?;
        let arena = xml::Arena::new();
        let doc = parse_document(&text, &arena).map_err(|s| first(&sources, s))?;
        if doc.root.name != "workflow-app" {
            return Err(format!(
                "{} is a <{}>, not a <workflow-app>",
                file.display(),
                doc.root.name
            ));
        }
        let wf = workflow(&doc).map_err(|s| first(&sources, s))?;
        let dir = app_dir(file);
        let defaults = self.files.beside(&dir, CONFIG_DEFAULT);
        let input = JobInput {
            configs: &[],
            files: self.files,
            job: JobSource::Own,
            defines: &[],
            maps: self.maps,
            processing_zone: ProcessingZone::UTC,
            check_maximum_frequency: true,
        };
        let defaults = job_config(
            &defaults.as_deref().into_iter().collect::<Vec<_>>(),
            &input,
            &mut sources,
        )
        .map_err(|s| first(&sources, s))?;
        Ok(Arc::new(SubWorkflow {
            workflow: Arc::new(wf),
            defaults: defaults.vars().clone(),
            path: file.display().to_string(),
        }))
    }
}

impl SubWorkflows for LocalWorkflows<'_> {
    fn load(&self, app_path: &str, parent: Option<&str>) -> Found {
        let key = (app_path.to_string(), parent.map(str::to_string));
        if let Some(found) = self
            .found
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&key)
        {
            return found.clone();
        }
        let found = self.find(app_path, parent);
        self.found
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(key, found.clone());
        found
    }
}

impl LocalWorkflows<'_> {
    /// The application `app_path` names, read (once per file).
    fn find(&self, app_path: &str, parent: Option<&str>) -> Found {
        let app_path = app_path.trim();
        let (local, is_mapped) = match locate::mapped(self.maps, app_path) {
            Some(local) => (local, true),
            // Another file system coordc cannot see: the action is scripted.
            None if app_path.contains("://") => return None,
            // Relative: beside the application that names it.
            None => {
                let folder = parent.map_or_else(|| self.base.clone(), |p| app_dir(Path::new(p)));
                (folder.join(app_path), false)
            }
        };
        // A folder stands for its workflow.xml (WorkflowAppService:124-125).
        let file = if self.files.is_dir(&local) {
            local.join("workflow.xml")
        } else {
            local
        };
        if !self.files.is_file(&file) {
            // (What Oozie's client answers for a path with no workflow.xml.)
            return is_mapped.then(|| {
                Err(format!(
                    "E0505: App definition [{app_path}] does not exist (read as {})",
                    file.display()
                ))
            });
        }
        let mut read = self.read.lock().unwrap_or_else(PoisonError::into_inner);
        let found = read
            .entry(file.clone())
            .or_insert_with(|| self.read_workflow(&file));
        Some(found.clone())
    }
}

/// The coordinator of `doc` (file 0 of `sources`, already parsed) with its job.
pub fn coordinator(
    doc: &xml::Document,
    app_path: &Path,
    input: &JobInput,
    sources: &mut Sources,
) -> Result<LoadedCoordinator, Stop> {
    let app = lowered(doc, ir::lower::coordinator)?;
    let app_dir = app_dir(app_path);
    // The coord-config-default.xml beside it is injected as defaults before
    // anything reads the configuration (CoordSubmitXCommand.java:212, 556-578).
    let defaults = input.files.beside(&app_dir, COORD_CONFIG_DEFAULT);
    let (config, configured) = job(
        app_path,
        AppKind::Coordinator,
        defaults.as_deref(),
        input,
        sources,
    )?;
    let (vars, mut parameter_problems) = parameters::verify(
        &app.parameters,
        config.into_vars(),
        &parameters::COORDINATOR,
    );
    let mut app = app;
    if configured {
        parameter_problems.extend(resolve_dataset_names(
            &mut app,
            &vars,
            input.processing_zone,
        ));
    }
    let mut included = Vec::new();
    let mut include_problems = Vec::new();
    let includes = Includes {
        files: input.files,
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

/// A datasets file checked on its own: the variables of the job it is
/// checked for, and the datasets its `<include>`s read with them.
pub struct LoadedDatasets {
    /// The `--config` files and `-D` (a job.properties beside the file
    /// belongs to the coordinators that include it, and is not read).
    pub vars: VarMap,
    /// Whether any were given: only then do undefined names count.
    pub configured: bool,
    /// The datasets of its includes (nested `<include>`s, read as a
    /// coordinator's are), each file added to `sources`.
    pub included: Vec<Dataset>,
    pub include_problems: Vec<Located>,
}

/// [`LoadedDatasets`] for the datasets file at `path`, whose `<include>`s
/// are `includes`; a configuration that cannot be read stops it.
pub fn datasets_file(
    includes: &[ir::ElText],
    path: &Path,
    input: &JobInput,
    sources: &mut Sources,
) -> Result<LoadedDatasets, Stop> {
    let configured = !input.configs.is_empty() || !input.defines.is_empty();
    let files: Vec<&ConfigFile> = input.configs.iter().collect();
    let vars = job_config(&files, input, sources)?.vars().clone();
    let dir = app_dir(path);
    let reader = Includes {
        files: input.files,
        maps: input.maps,
        vars: &vars,
        pz: input.processing_zone,
    };
    let (mut included, mut include_problems) = (Vec::new(), Vec::new());
    let mut stack = vec![path.canonicalize().unwrap_or_else(|_| path.to_path_buf())];
    reader.read(
        includes,
        None,
        &dir,
        &mut stack,
        sources,
        &mut included,
        &mut include_problems,
    );
    Ok(LoadedDatasets {
        vars,
        configured,
        included,
        include_problems,
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
    let defaults = input.files.beside(&app_dir, CONFIG_DEFAULT);
    let (config, configured) = job(
        app_path,
        AppKind::Workflow,
        defaults.as_deref(),
        input,
        sources,
    )?;
    let file_name = app_path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    // (A workflow run by another application gets that one's configuration.)
    let submits_other = match input.job {
        JobSource::Run => None,
        _ => submits_other(&config, file_name),
    };
    let (vars, parameter_problems) =
        parameters::verify(&wf.parameters, config.into_vars(), &parameters::WORKFLOW);
    Ok(WorkflowJob {
        vars,
        parameter_problems,
        configured: configured && submits_other.is_none(),
        submits_other,
    })
}

impl JobInput<'_> {
    /// The configuration beside the application at `app_path` of `kind`,
    /// when that is its job's (its own job, no `--config`): the first
    /// `.properties` file there (by name) whose application path names
    /// this application, as the Oozie client would submit it (`oozie job
    /// -config F -run`), else the job.properties there.
    fn own_configuration(&self, app_path: &Path, kind: AppKind) -> Option<Arc<ConfigFile>> {
        if !self.configs.is_empty() || !matches!(self.job, JobSource::Own) {
            return None;
        }
        let dir = app_dir(app_path);
        self.files
            .properties_in(&dir)
            .into_iter()
            .find(|file| submits(file, app_path, kind))
            .or_else(|| self.files.beside(&dir, JOB_PROPERTIES))
    }
}

/// Whether the configuration `file` submits the application at `app_path`
/// of `kind`: its application path (its `${...}` resolved with the file's
/// own properties) names it.
fn submits(file: &ConfigFile, app_path: &Path, kind: AppKind) -> bool {
    let Ok(text) = &file.text else {
        return false;
    };
    // (Most files name no application: they are not read twice.)
    if !text.contains(kind.path_property()) {
        return false;
    }
    let (config, _) = JobConfig::build(
        &[Source::File {
            path: &file.name,
            text,
        }],
        None,
    );
    config
        .get(kind.path_property())
        .is_some_and(|path| locate::names(path, app_path, kind))
}

/// The job configuration of the application in `app_dir`: `defaults` (read
/// first, so everything overrides them), the configuration files (without
/// any, the job.properties beside the application) and the -D definitions;
/// and whether it was given one (files or -D: defaults alone are not a job's
/// configuration).
fn job(
    app_path: &Path,
    kind: AppKind,
    defaults: Option<&ConfigFile>,
    input: &JobInput,
    sources: &mut Sources,
) -> Result<(JobConfig, bool), Stop> {
    let beside = input.own_configuration(app_path, kind);
    let files: Vec<&ConfigFile> = match input.job {
        JobSource::Run => Vec::new(),
        _ if !input.configs.is_empty() => input.configs.iter().collect(),
        JobSource::Own => beside.as_deref().into_iter().collect(),
        JobSource::Bundle { job_properties, .. } => job_properties.into_iter().collect(),
    };
    let bundle_defaults = match input.job {
        JobSource::Bundle { defaults, .. } => defaults,
        JobSource::Own | JobSource::Run => None,
    };
    let configured = match input.job {
        JobSource::Own => !files.is_empty() || !input.defines.is_empty(),
        JobSource::Bundle { configured, .. } => configured,
        JobSource::Run => true,
    };
    // (The application's defaults fill in only what the rest leaves
    // unset, so they come first; a bundle's defaults are part of its job.)
    let all: Vec<&ConfigFile> = defaults
        .into_iter()
        .chain(bundle_defaults)
        .chain(files)
        .collect();
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
    // The Oozie client submits as the local user unless told otherwise.
    // (Looked up once a run: the environment is read under a lock.)
    static LOCAL_USER: OnceLock<Option<String>> = OnceLock::new();
    let local_user = LOCAL_USER.get_or_init(local_user);
    let (config, problems) = JobConfig::build(&config_sources, local_user.as_deref());
    if problems.is_empty() {
        return Ok(config);
    }
    let definitions = sources.add("<-D>".to_string(), String::new());
    Err(Stop::Problems(
        problems
            .into_iter()
            .map(|p| Located {
                file: Some(
                    p.source
                        .and_then(|i| indexes.get(i).copied())
                        .unwrap_or(definitions),
                ),
                diagnostic: p.diagnostic,
            })
            .collect(),
    ))
}

/// Follows `<include>`s: paths are EL-resolved at submission, mapped by
/// `--map`, else read relative to the including file; a `scheme://` path no
/// map covers is looked for beside the including file. Cycles are errors.
pub(crate) struct Includes<'a> {
    files: &'a Files,
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
            let path = match submit_text(include, self.vars, self.pz) {
                Ok(p) => p.trim().to_string(),
                Err(d) => {
                    problem(d);
                    continue;
                }
            };
            let local = self.local_path(&path, dir);
            let text = match self.files.read(&local) {
                Ok(t) => t,
                Err(ReadError::Refused(mut d)) => {
                    d.span = include.span;
                    d.message = format!("{}: {}", local.display(), d.message);
                    problem(d);
                    continue;
                }
                Err(ReadError::Io(_))
                    if path.contains("://") && locate::mapped(self.maps, &path).is_none() =>
                {
                    // A remote file coordc cannot see: not a mistake in the
                    // application, but its datasets go unchecked.
                    sources.absent.push(local.clone());
                    problem(
                        Diagnostic::warning(
                            crate::diag::rules::UNDEFINED_DATASET,
                            include.span,
                            format!(
                                "{path} is not read: no --map covers it and no file of that name is in this checkout, so the datasets it defines are not checked"
                            ),
                        )
                        .with_help("map its location to a local folder with --map PREFIX=DIR, or [map] in coordc.toml"),
                    );
                    continue;
                }
                Err(ReadError::Io(e)) => {
                    sources.absent.push(local.clone());
                    problem(
                        Diagnostic::error(
                            crate::diag::rules::UNDEFINED_DATASET,
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
                    crate::diag::rules::UNDEFINED_DATASET,
                    include.span,
                    format!(
                        "{} includes itself (through {} file(s))",
                        local.display(),
                        stack.len()
                    ),
                ));
                continue;
            }
            let index = sources.add(local.display().to_string(), Arc::clone(&text));
            let arena = xml::Arena::new();
            let doc = match xml::parse(&text, &arena) {
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
        locate::mapped(self.maps, path).unwrap_or_else(|| match path.split_once("://") {
            // Read by its name in the checkout, else beside the including file.
            Some((_, rest)) => locate::by_name(path, dir, None, self.files)
                .unwrap_or_else(|| dir.join(rest.rsplit('/').next().unwrap_or(rest))),
            None => dir.join(path),
        })
    }
}

/// A bundle as submitted: its IR and the configuration its job was given
/// (its coordinators are given the same).
pub struct LoadedBundle {
    pub bundle: Bundle,
    pub config: VarMap,
    pub job: BundleJob,
}

/// The bundle job's configuration files, which its coordinators are given
/// too (the -D and the rest come as definitions).
#[derive(Clone)]
pub struct BundleJob {
    /// The bundle-config-default.xml beside the bundle.
    pub defaults: Option<Arc<ConfigFile>>,
    /// The job.properties beside the bundle, when that is its configuration.
    pub job_properties: Option<Arc<ConfigFile>>,
    /// Whether the job was given a configuration (files, the job.properties
    /// beside the bundle, or `-D`): only then do undefined names count.
    pub configured: bool,
}

/// The bundle of `doc` (file 0 of `sources`, already parsed) with its job
/// configuration: its defaults (BundleSubmitXCommand.mergeDefaultConfig,
/// 224-260), then its configuration as any application's.
pub fn bundle(
    doc: &xml::Document,
    bundle_path: &Path,
    input: &JobInput,
    sources: &mut Sources,
) -> Result<LoadedBundle, Stop> {
    let bundle = lowered(doc, ir::lower::bundle)?;
    let dir = app_dir(bundle_path);
    let defaults = input.files.beside(&dir, BUNDLE_CONFIG_DEFAULT);
    let (config, configured) = job(
        bundle_path,
        AppKind::Bundle,
        defaults.as_deref(),
        input,
        sources,
    )?;
    Ok(LoadedBundle {
        bundle,
        config: config.vars().clone(),
        job: BundleJob {
            defaults,
            job_properties: input.own_configuration(bundle_path, AppKind::Bundle),
            configured,
        },
    })
}

/// What a coordinator of a bundle is given (BundleStartXCommand.mergeConfig,
/// 287-337: the bundle job's configuration, its -D among it, then the
/// coordinator's own `<configuration>` over it): the bundle's configuration
/// files (its defaults, and the job.properties beside it, else `input`'s),
/// and `defines`, the rest in order
/// (`oozie::bundle::SubmittedBundle::coordinator_defines`); configured as
/// the bundle is.
pub fn bundle_coordinator_input<'a>(
    input: &'a JobInput,
    bundle: &'a BundleJob,
    defines: &'a [(String, String)],
) -> JobInput<'a> {
    JobInput {
        job: JobSource::Bundle {
            defaults: bundle.defaults.as_deref(),
            job_properties: bundle.job_properties.as_deref(),
            configured: bundle.configured,
        },
        defines,
        ..*input
    }
}

/// Where a bundle coordinator's application is read, or why it cannot be:
/// `app_path` (resolved) through `--map`, or, relative, from the bundle's
/// folder (coordc's convention: Hadoop resolves it against the user's home
/// folder on the file system); a folder stands for its coordinator.xml
/// (CoordSubmitXCommand:1205-1210).
pub fn coordinator_file(
    app_path: &str,
    bundle_path: &Path,
    input: &JobInput,
    span: crate::span::Span,
) -> Result<PathBuf, Diagnostic> {
    let maps = input.maps;
    use crate::diag::rules::BUNDLE_APP_PATH;
    let (local, mapped_here) = match locate::mapped(maps, app_path) {
        Some(local) => (local, true),
        // A remote path: a scheme, or an absolute path, which Hadoop reads
        // from the default file system.
        None if app_path.contains("://") || app_path.starts_with('/') => {
            return Err(Diagnostic::warning(
                BUNDLE_APP_PATH,
                span,
                format!("{app_path} is not read: no --map covers it, so this coordinator is not checked"),
            )
            .with_help(
                "map its location to a local folder with --map PREFIX=DIR (e.g. --map hdfs://nn:8020/apps=./apps)",
            ));
        }
        None => (app_dir(bundle_path).join(app_path), false),
    };
    let file = if input.files.is_dir(&local) {
        local.join("coordinator.xml")
    } else {
        local
    };
    if input.files.is_file(&file) {
        return Ok(file);
    }
    let missing = format!(
        "no coordinator application at {app_path} (read as {})",
        file.display()
    );
    if mapped_here {
        return Err(Diagnostic::error(BUNDLE_APP_PATH, span, missing).with_help(
            "Oozie fails the bundle's start (E1001); fix the <app-path>, or the --map that locates it",
        ));
    }
    // Hadoop reads a relative path from the user's home folder, which
    // coordc cannot see: not found beside the bundle is no proof.
    Err(Diagnostic::warning(
        BUNDLE_APP_PATH,
        span,
        format!("{missing}, so this coordinator is not checked"),
    )
    .with_help(
        "Oozie reads a relative app-path from the user's home folder on the cluster (/user/NAME/...): write the full path, and map it with --map PREFIX=DIR",
    ))
}

/// The file at a bundle coordinator's `<app-path>` (`doc`) when it is not a
/// coordinator application.
pub fn not_a_coordinator(doc: &xml::Document, bundle_path: &Path, name: &str) -> Option<Located> {
    (doc.root.name != "coordinator-app").then(|| {
        Located::in_app(
            Diagnostic::error(
                crate::diag::rules::BUNDLE_APP_PATH,
                doc.root.name_span,
                format!(
                    "{} submits this file as its coordinator `{name}`, but it is a <{}>",
                    bundle_path.display(),
                    doc.root.name
                ),
            )
            .with_help(
                "a bundle's <app-path> names a coordinator application (its folder, or its coordinator.xml)",
            ),
        )
    })
}

/// What Oozie refuses in the coordinator `doc` because the bundle at
/// `bundle_path` submits it as `name`: schema 0.1 (E1319,
/// CoordSubmitXCommand:539-541).
pub fn refused_in_bundle(doc: &xml::Document, bundle_path: &Path, name: &str) -> Option<Located> {
    (doc.root.namespace == Some("uri:oozie:coordinator:0.1")).then(|| {
        Located::in_app(
            Diagnostic::error(
                crate::diag::rules::BUNDLE_COORDINATOR_VERSION,
                doc.root.name_span,
                format!(
                    "{} submits this coordinator (as `{name}`), but a bundle cannot submit a coordinator of schema 0.1 (E1319)",
                    bundle_path.display(),
                ),
            )
            .with_help("declare xmlns=\"uri:oozie:coordinator:0.2\" or later (0.2 only adds <throttle>)"),
        )
    })
}

/// The `dataset` of each data-in and data-out, where it is written with EL,
/// resolved with the job's variables as Oozie resolves it at submission,
/// before the datasets are looked up (CoordSubmitXCommand.resolveIODataset,
/// 956-969): `dataset="raw_${source}"` names the dataset `raw_web`. What
/// cannot be resolved is reported.
fn resolve_dataset_names(app: &mut Coordinator, vars: &VarMap, pz: ProcessingZone) -> Vec<Located> {
    let names = app
        .inputs
        .iter_mut()
        .map(|d| &mut d.dataset)
        .chain(app.outputs.iter_mut().map(|d| &mut d.dataset));
    let mut problems = Vec::new();
    for name in names.filter(|n| n.name.contains("${")) {
        let base = name.span.start as usize;
        let resolved = crate::el::parse_template(&name.name, base).and_then(|template| {
            let env = crate::el::Env {
                vars,
                library: crate::el::Library::Coordinator,
                context: None,
                processing_zone: pz,
            };
            crate::el::render(&template, &env)
        });
        match resolved {
            Ok((value, _)) => name.name = value,
            // (At the whole value: the text was decoded, and the offsets
            // of what failed in it are not the file's where an entity was.)
            Err(mut d) => {
                d.span = name.span;
                problems.push(Located::in_app(d));
            }
        }
    }
    problems
}

/// The local user's name, as Java's `user.name` (which the Oozie client
/// sends) has it: `$USER` or `$LOGNAME`, else the name the password file
/// gives this process's user (a container often sets neither variable).
fn local_user() -> Option<String> {
    if let Some(user) = ["USER", "LOGNAME"]
        .iter()
        .find_map(|v| std::env::var(v).ok().filter(|u| !u.is_empty()))
    {
        return Some(user);
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let uid = std::fs::metadata("/proc/self").ok()?.uid().to_string();
        let passwd = std::fs::read_to_string("/etc/passwd").ok()?;
        passwd.lines().find_map(|line| {
            let mut fields = line.split(':');
            let name = fields.next()?;
            (fields.nth(1)? == uid).then(|| name.to_string())
        })
    }
    #[cfg(not(unix))]
    None
}

/// A loaded coordinator submitted as Oozie submits it (`prepare`), its
/// warnings told to `sink`; None when Oozie refuses it, its problems told
/// (include problems and submission problems together).
pub fn submit<'a>(
    loaded: &'a LoadedCoordinator,
    sources: &Sources,
    options: &Options,
    sink: ProblemSink,
) -> Option<Job<'a>> {
    if !loaded.parameter_problems.is_empty() {
        sink(sources, Stop::Problems(loaded.parameter_problems.clone()));
        return None;
    }
    let options = Options {
        includes_incomplete: !loaded.include_problems.is_empty(),
        ..*options
    };
    let mut problems = loaded.include_problems.clone();
    match prepare(&loaded.app, &loaded.included, &loaded.vars, &options) {
        Ok(job) if problems.is_empty() => {
            if !job.warnings.is_empty() {
                sink(sources, Stop::Problems(job.warnings.clone()));
            }
            Some(job)
        }
        Ok(_) => {
            sink(sources, Stop::Problems(problems));
            None
        }
        Err(more) => {
            problems.extend(more);
            sink(sources, Stop::Problems(problems));
            None
        }
    }
}

/// A coordinator a bundle submits, read and loaded.
pub struct Member<'b> {
    pub submitted: &'b SubmittedCoordinator<'b>,
    pub sources: Sources,
    pub loaded: LoadedCoordinator,
}

/// The coordinators a bundle submits (the enabled ones), each read and
/// loaded with the configuration the bundle gives it. The bundle's
/// `problems` (in its `sources`) and theirs are told to `sink`; None when
/// any is an error.
pub fn bundle_members<'b>(
    bundle_path: &Path,
    input: &JobInput,
    loaded: &LoadedBundle,
    submitted: &'b SubmittedBundle<'b>,
    mut problems: Vec<Located>,
    sources: &Sources,
    sink: ProblemSink,
) -> Option<Vec<Member<'b>>> {
    let mut members = Vec::new();
    let mut failed = false;
    for coordinator in &submitted.coordinators {
        // Every coordinator's app-path must exist when the bundle starts,
        // a disabled one's too (BundleStartXCommand:162-164); only the
        // enabled ones are submitted.
        let file = match coordinator_file(
            &coordinator.app_path,
            bundle_path,
            input,
            coordinator.ir.app_path.span,
        ) {
            Ok(file) => file,
            Err(mut d) => {
                // Without the application, its actions cannot be listed.
                if coordinator.enabled {
                    d.severity = crate::diag::Severity::Error;
                }
                problems.push(Located::in_app(d));
                continue;
            }
        };
        if !coordinator.enabled {
            continue;
        }
        let defines = submitted.coordinator_defines(input.defines, coordinator);
        let coordinator_input = bundle_coordinator_input(input, &loaded.job, &defines);
        let mut member_sources = Sources::default();
        match bundle_coordinator(
            &file,
            &coordinator_input,
            &mut member_sources,
            bundle_path,
            coordinator,
        ) {
            Ok(loaded) => members.push(Member {
                submitted: coordinator,
                sources: member_sources,
                loaded,
            }),
            Err(stop) => {
                sink(&member_sources, stop);
                failed = true;
            }
        }
    }
    let stop = failed
        || problems
            .iter()
            .any(|p| p.diagnostic.severity == crate::diag::Severity::Error);
    if !problems.is_empty() {
        sink(sources, Stop::Problems(problems));
    }
    (!stop).then_some(members)
}

/// The coordinator a bundle submits as `member`, from `file`.
fn bundle_coordinator(
    file: &Path,
    input: &JobInput,
    sources: &mut Sources,
    bundle_path: &Path,
    member: &SubmittedCoordinator,
) -> Result<LoadedCoordinator, Stop> {
    let text = read_application(file, input.files, sources)?;
    let arena = xml::Arena::new();
    let doc = parse_document(&text, &arena)?;
    if let Some(problem) = not_a_coordinator(&doc, bundle_path, &member.name) {
        return Err(Stop::Problems(vec![problem]));
    }
    if let Some(refused) = refused_in_bundle(&doc, bundle_path, &member.name) {
        return Err(Stop::Problems(vec![refused]));
    }
    coordinator(&doc, file, input, sources)
}
