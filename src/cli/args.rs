//! What the subcommands' arguments share: the job a command gives the
//! application it reads (`--config`, `-D`, `--map`), and how a `NAME=VALUE`
//! argument is read.

use crate::project::files::{ConfigFile, Files};
use crate::project::load::{JobInput, JobSource};
use crate::project::settings::{Finder, Folder};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The job a command gives the one application it reads (`dryrun`,
/// `simulate`): configuration files, `-D` properties and `--map` folders.
#[derive(clap::Args)]
pub(super) struct JobArgs {
    /// A job configuration file (`.properties` or Hadoop XML), repeatable,
    /// merged in order. Default: the job.properties beside the application,
    /// if any.
    #[arg(long = "config", value_name = "FILE")]
    pub configs: Vec<PathBuf>,
    /// A job property, repeatable; overrides the configuration files.
    #[arg(short = 'D', value_name = "NAME=VALUE", value_parser = parse_pair)]
    pub defines: Vec<(String, String)>,
    /// Read paths starting with PREFIX (`<include>`s, workflow app-paths)
    /// from the local folder DIR, e.g. hdfs://nn:8020/apps=./apps. Repeatable.
    #[arg(long = "map", value_name = "PREFIX=DIR", value_parser = parse_pair)]
    pub maps: Vec<(String, String)>,
}

impl JobArgs {
    pub(super) fn read_configs(&self) -> Vec<ConfigFile> {
        self.configs.iter().map(|p| ConfigFile::read(p)).collect()
    }

    /// The application's own job, with `configs` (from
    /// [`JobArgs::read_configs`]) and the settings that apply to it (from
    /// [`JobArgs::settings`]): its processing zone, frequency check and maps.
    pub(super) fn own_job<'a>(
        &'a self,
        configs: &'a [ConfigFile],
        files: &'a Files,
        settings: &'a Folder,
    ) -> JobInput<'a> {
        JobInput {
            configs,
            files,
            job: JobSource::Own,
            defines: &self.defines,
            maps: &settings.maps,
            processing_zone: settings.processing_zone,
            check_maximum_frequency: settings.settings.check_maximum_frequency,
            cron_max_year: super::cron_max_year(),
        }
    }

    /// The settings that apply to the application at `app` as `coordc check`
    /// applies them: its nearest `coordc.toml` (project::settings), with
    /// `processing_timezone` (`--processing-timezone`) and these `--map`s
    /// over it. A wrong one, or a wrong zone, is printed: the exit code (2).
    pub(super) fn settings(
        &self,
        files: &Files,
        processing_timezone: Option<&str>,
        app: &Path,
    ) -> Result<Arc<Folder>, i32> {
        Finder::new(files, processing_timezone, &self.maps)
            .of_file(app)
            .map_err(refused)
    }

    pub(super) fn is_empty(&self) -> bool {
        self.configs.is_empty() && self.defines.is_empty() && self.maps.is_empty()
    }
}

/// A nominal time given on the command line (`--from`, `--at`...), read
/// as Oozie reads one under the processing zone `pz`; else its problem is
/// printed against the argument: the exit code (2).
pub(super) fn time_argument(
    flag: &str,
    text: &str,
    pz: crate::time::datetime::ProcessingZone,
) -> Result<chrono::DateTime<chrono::Utc>, i32> {
    crate::time::datetime::parse_datetime(text, pz)
        .map(|t| t.instant)
        .map_err(|e| {
            eprint!(
                "{}",
                crate::diag::render::human(&e.to_diagnostic(0, pz), &format!("<{flag}>"), text)
            );
            super::EXIT_USAGE
        })
}

/// Prints why a command cannot run (a wrong `coordc.toml` or processing
/// zone): the exit code, 2.
pub(super) fn refused(refused: crate::project::settings::Refused) -> i32 {
    eprint!("{}", refused.render());
    super::EXIT_USAGE
}

/// A `NAME=VALUE` argument (`-D`, `--map`).
pub(super) fn parse_pair(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((name, value)) if !name.is_empty() => Ok((name.to_string(), value.to_string())),
        _ => Err(format!("expected NAME=VALUE, got {s:?}")),
    }
}
