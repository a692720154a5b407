//! A job's configuration: what the job is given, the files beside an
//! application that configure it, and the configuration read from them.

use super::sources::COMMAND_LINE;
use super::user::local_user;
use super::{Sources, Stop, app_dir};
use crate::config::{JobConfig, Source};
use crate::diag::{FileRef, Located};
use crate::project::files::{ConfigFile, Files, ReadError};
use crate::project::locate::{self, AppKind};
use crate::time::cron::MaxYear;
use crate::time::datetime::ProcessingZone;
use std::path::Path;
use std::sync::{Arc, OnceLock};

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
    /// The last year the server's Quartz finds a cron fire time in.
    pub cron_max_year: MaxYear,
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
pub(super) const CONFIG_DEFAULT: &str = "config-default.xml";

/// The coordinator defaults beside a coordinator (CoordSubmitXCommand.java:112,
/// 556-578).
pub(super) const COORD_CONFIG_DEFAULT: &str = "coord-config-default.xml";

/// The bundle defaults beside a bundle (BundleSubmitXCommand.java:81, 224-260).
pub(super) const BUNDLE_CONFIG_DEFAULT: &str = "bundle-config-default.xml";

/// Every configuration file an application's check may read beside it.
pub const CONFIGURATION_FILES: &[&str] = &[
    JOB_PROPERTIES,
    CONFIG_DEFAULT,
    COORD_CONFIG_DEFAULT,
    BUNDLE_CONFIG_DEFAULT,
];

impl JobInput<'_> {
    /// The configuration beside the application at `app_path` of `kind`,
    /// when that is its job's (its own job, no `--config`): the first
    /// `.properties` file there (by name) whose application path names
    /// this application, as the Oozie client would submit it (`oozie job
    /// -config F -run`), else the job.properties there.
    pub(super) fn own_configuration(
        &self,
        app_path: &Path,
        kind: AppKind,
    ) -> Option<Arc<ConfigFile>> {
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
pub(super) fn job(
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
    Ok((job_config(&all, input.defines, sources)?, configured))
}

/// The configuration `files` and the -D definitions `defines`, each file
/// added to `sources`; a file that cannot be read or parsed is an error.
pub(super) fn job_config(
    files: &[&ConfigFile],
    defines: &[(String, String)],
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
                    file: FileRef::Read(file),
                    diagnostic: d.clone(),
                }]));
            }
        }
    }
    config_sources.push(Source::Definitions(defines));
    // The Oozie client submits as the local user unless told otherwise.
    // (Looked up once a run: the environment is read under a lock.)
    static LOCAL_USER: OnceLock<Option<String>> = OnceLock::new();
    let local_user = LOCAL_USER.get_or_init(local_user);
    let (config, problems) = JobConfig::build(&config_sources, local_user.as_deref());
    if problems.is_empty() {
        return Ok(config);
    }
    // (What the command line's problems are rendered against.)
    sources.add(COMMAND_LINE.to_string(), String::new());
    Err(Stop::Problems(
        problems
            .into_iter()
            .map(|p| Located {
                // From the index among the configuration sources to the
                // index among the files read.
                file: match p.file.index().and_then(|i| indexes.get(i)) {
                    Some(&index) => FileRef::Read(index),
                    None => FileRef::CommandLine,
                },
                diagnostic: p.diagnostic,
            })
            .collect(),
    ))
}
