//! The job a command gives the one application it reads.

use crate::project::files::{ConfigFile, Files};
use crate::project::load::{JobInput, JobSource};
use crate::time::datetime::ProcessingZone;
use std::path::PathBuf;

/// The job a command gives the one application it reads (`dryrun`,
/// `simulate`): configuration files, `-D` properties and `--map` folders.
#[derive(clap::Args)]
pub struct JobArgs {
    /// A job configuration file (`.properties` or Hadoop XML), repeatable,
    /// merged in order. Default: the job.properties beside the application,
    /// if any.
    #[arg(long = "config", value_name = "FILE")]
    pub configs: Vec<PathBuf>,
    /// A job property, repeatable; overrides the configuration files.
    #[arg(short = 'D', value_name = "NAME=VALUE", value_parser = super::dryrun::parse_pair)]
    pub defines: Vec<(String, String)>,
    /// Read paths starting with PREFIX (`<include>`s, workflow app-paths)
    /// from the local folder DIR, e.g. hdfs://nn:8020/apps=./apps. Repeatable.
    #[arg(long = "map", value_name = "PREFIX=DIR", value_parser = super::dryrun::parse_pair)]
    pub maps: Vec<(String, String)>,
}

impl JobArgs {
    pub fn read_configs(&self) -> Vec<ConfigFile> {
        self.configs.iter().map(|p| ConfigFile::read(p)).collect()
    }

    /// The application's own job, with `configs` (from [`JobArgs::read_configs`]).
    pub fn own_job<'a>(
        &'a self,
        configs: &'a [ConfigFile],
        files: &'a Files,
        processing_zone: ProcessingZone,
    ) -> JobInput<'a> {
        JobInput {
            configs,
            files,
            job: JobSource::Own,
            defines: &self.defines,
            maps: &self.maps,
            processing_zone,
            check_maximum_frequency: true,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.configs.is_empty() && self.defines.is_empty() && self.maps.is_empty()
    }
}
