//! The scenario file as written: the TOML shape, read with serde and
//! unknown keys refused. Nothing here is checked yet (`read.rs` does that).
//!
//! These types are also the source of `docs/simulate.schema.json`
//! (schemars): what the file may say is written once.

use schemars::JsonSchema;
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// A scenario, as written.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "coordc simulate scenario")]
pub(crate) struct ScenarioFile {
    /// When the simulated Oozie server starts (an Oozie datetime,
    /// YYYY-MM-DDTHH:mmZ); for a workflow, when it starts (default
    /// 2000-01-01T00:00Z).
    #[schemars(with = "Option<String>")]
    pub start: Option<Spanned<String>>,
    /// When the simulation ends (exclusive); coordinator scenarios only.
    #[schemars(with = "Option<String>")]
    pub until: Option<Spanned<String>>,
    /// oozie-site settings, with Oozie's names, units and defaults.
    #[serde(default)]
    pub server: ServerFile,
    /// The jobs submitted.
    #[serde(default, rename = "job")]
    pub jobs: Vec<JobFile>,
    /// When data instances complete.
    #[serde(default)]
    pub data: Vec<DataFile>,
    /// What every action's workflow does once it runs (default: SUCCEEDED after 10m).
    #[serde(default)]
    pub workflows: WorkflowsFile,
    /// What one action's workflow does.
    #[serde(default, rename = "workflow")]
    pub workflow: Vec<WorkflowFile>,
    /// What users do, with the Oozie CLI's verbs.
    #[serde(default, rename = "op")]
    pub ops: Vec<OpFile>,
    /// Times the server is down.
    #[serde(default, rename = "outage")]
    pub outages: Vec<OutageFile>,
    /// What every workflow action node does (default: ok, 1m; an fs action 0s).
    #[serde(default)]
    pub actions: Option<NodeFile>,
    /// What one workflow action node does.
    #[serde(default, rename = "node")]
    pub nodes: Vec<NodeFile>,
    /// The file system the fs: and hcat: functions see.
    #[serde(default)]
    pub fs: Option<FsFile>,
}

/// A workflow action node's script (`[actions]`: every node's).
#[derive(Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct NodeFile {
    /// The action node (`[[node]]` only).
    #[schemars(with = "Option<String>")]
    pub name: Option<Spanned<String>>,
    /// Inside a coordinator simulation: only this job's workflows (`[[node]]` only).
    pub job: Option<String>,
    /// ... and only this action's, numbered from 1 (`[[node]]` only).
    #[schemars(with = "Option<i64>")]
    pub action: Option<Spanned<i64>>,
    /// ok or error (a non-transient error: the error transition).
    #[schemars(with = "Option<String>")]
    pub outcome: Option<Spanned<String>>,
    /// wf:errorCode after an error.
    pub error_code: Option<String>,
    /// wf:errorMessage after an error.
    pub error_message: Option<String>,
    /// Each attempt's duration (30s, 5m, 2h, 1d).
    #[schemars(with = "Option<String>")]
    pub duration: Option<Spanned<String>>,
    /// Its first attempts fail this many times with a retryable error.
    #[schemars(with = "Option<i64>")]
    pub transient_failures: Option<Spanned<i64>>,
    /// Its <capture-output> properties (wf:actionData).
    pub action_data: Option<BTreeMap<String, String>>,
    /// wf:actionExternalStatus.
    pub external_status: Option<String>,
    /// hadoop:counters: group -> counter -> value.
    pub counters: Option<BTreeMap<String, BTreeMap<String, i64>>>,
}

/// The file system the workflow functions see.
#[derive(Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct FsFile {
    /// Files, path = size in bytes (their folders exist too).
    #[serde(default)]
    pub files: BTreeMap<String, i64>,
    /// Folders.
    #[serde(default)]
    pub dirs: Vec<String>,
    /// fs:blockSize of every file (134217728).
    pub block_size: Option<i64>,
}

/// The oozie-site settings the engine reads (oozie-default.xml's names).
#[derive(Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct ServerFile {
    /// Seconds; how far ahead the materialization trigger looks (300).
    #[serde(rename = "oozie.service.CoordMaterializeTriggerService.lookup.interval")]
    #[schemars(with = "Option<i64>")]
    pub lookup_interval: Option<Spanned<i64>>,
    /// Seconds between two materialization trigger runs (the lookup interval).
    #[serde(rename = "oozie.service.CoordMaterializeTriggerService.scheduling.interval")]
    #[schemars(with = "Option<i64>")]
    pub scheduling_interval: Option<Spanned<i64>>,
    /// Seconds of actions one materialization creates ahead (3600).
    #[serde(rename = "oozie.service.CoordMaterializeTriggerService.materialization.window")]
    #[schemars(with = "Option<i64>")]
    pub materialization_window: Option<Spanned<i64>>,
    /// Actions one LAST_ONLY/NONE catch-up run creates (10000; -1 unlimited).
    #[serde(rename = "oozie.service.CoordMaterializeTriggerService.action.batch.size")]
    #[schemars(with = "Option<i64>")]
    pub action_batch_size: Option<Spanned<i64>>,
    /// Jobs one materialization trigger run selects (50).
    #[serde(rename = "oozie.service.CoordMaterializeTriggerService.materialization.system.limit")]
    #[schemars(with = "Option<i64>")]
    pub materialization_system_limit: Option<Spanned<i64>>,
    /// Minutes an action waits for its inputs when the app sets no timeout (120).
    #[serde(rename = "oozie.service.coord.normal.default.timeout")]
    #[schemars(with = "Option<i64>")]
    pub default_timeout: Option<Spanned<i64>>,
    /// Actions running at once when the app sets no concurrency (1).
    #[serde(rename = "oozie.service.coord.default.concurrency")]
    #[schemars(with = "Option<i64>")]
    pub default_concurrency: Option<Spanned<i64>>,
    /// Actions waiting at once when the app sets no throttle (12).
    #[serde(rename = "oozie.service.coord.default.throttle")]
    #[schemars(with = "Option<i64>")]
    pub default_throttle: Option<Spanned<i64>>,
    /// The throttle's cap is this fraction of the queue size (0.05).
    #[serde(rename = "oozie.service.coord.materialization.throttling.factor")]
    #[schemars(with = "Option<f64>")]
    pub throttling_factor: Option<Spanned<f64>>,
    /// The command queue's size (10000), for the throttle's cap.
    #[serde(rename = "oozie.service.CallableQueueService.queue.size")]
    #[schemars(with = "Option<i64>")]
    pub queue_size: Option<Spanned<i64>>,
    /// Milliseconds between two input checks of a waiting action (60000).
    #[serde(rename = "oozie.service.coord.input.check.requeue.interval")]
    #[schemars(with = "Option<i64>")]
    pub input_check_interval: Option<Spanned<i64>>,
    /// Seconds added to that interval when a check found nothing new (0).
    #[serde(rename = "oozie.service.coord.input.check.requeue.interval.additional.delay")]
    #[schemars(with = "Option<i64>")]
    pub input_check_additional_delay: Option<Spanned<i64>>,
    /// Minutes after its nominal time a NONE action is skipped (1).
    #[serde(rename = "oozie.coord.execution.none.tolerance")]
    #[schemars(with = "Option<i64>")]
    pub none_tolerance: Option<Spanned<i64>>,
    /// latest() counts from the check's time, not the action's creation (false).
    #[serde(rename = "oozie.service.ELService.latest-el.use-current-time")]
    #[schemars(with = "Option<bool>")]
    pub latest_use_current_time: Option<Spanned<bool>>,
    /// Seconds between two RecoveryService runs (60).
    #[serde(rename = "oozie.service.RecoveryService.interval")]
    #[schemars(with = "Option<i64>")]
    pub recovery_interval: Option<Spanned<i64>>,
    /// Seconds an action is left alone before the RecoveryService re-drives it (600).
    #[serde(rename = "oozie.service.RecoveryService.coord.older.than")]
    #[schemars(with = "Option<i64>")]
    pub recovery_older_than: Option<Spanned<i64>>,
    /// Seconds between two StatusTransitService runs (60).
    #[serde(rename = "oozie.service.StatusTransitService.statusTransit.interval")]
    #[schemars(with = "Option<i64>")]
    pub status_transit_interval: Option<Spanned<i64>>,
    /// No RUNNINGWITHERROR, SUSPENDEDWITHERROR, PAUSEDWITHERROR states (true).
    #[serde(
        rename = "oozie.service.StatusTransitService.backward.support.for.states.without.error"
    )]
    #[schemars(with = "Option<bool>")]
    pub states_without_error: Option<Spanned<bool>>,
    /// Seconds between two PauseTransitService runs (60).
    #[serde(rename = "oozie.service.PauseTransitService.PauseTransit.interval")]
    #[schemars(with = "Option<i64>")]
    pub pause_transit_interval: Option<Spanned<i64>>,
    /// A frequency under 5 minutes is refused at submission (true).
    #[serde(rename = "oozie.service.coord.check.maximum.frequency")]
    #[schemars(with = "Option<bool>")]
    pub check_maximum_frequency: Option<Spanned<bool>>,
    /// The cap on an action's retry-max (3).
    #[serde(rename = "oozie.service.LiteWorkflowStoreService.user.retry.max")]
    #[schemars(with = "Option<i64>")]
    pub user_retry_max: Option<Spanned<i64>>,
    /// Transient retries of an action before its workflow is suspended (3).
    #[serde(rename = "oozie.action.retries.max")]
    #[schemars(with = "Option<i64>")]
    pub action_retries_max: Option<Spanned<i64>>,
    /// Seconds between transient retries (10).
    #[serde(rename = "oozie.action.retry.interval")]
    #[schemars(with = "Option<i64>")]
    pub action_retry_interval: Option<Spanned<i64>>,
    /// How deep sub-workflows may nest (50).
    #[serde(rename = "oozie.action.subworkflow.max.depth")]
    #[schemars(with = "Option<i64>")]
    pub subworkflow_max_depth: Option<Spanned<i64>>,
}

/// One job submitted.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct JobFile {
    /// The job's name in the scenario (default: the application's name).
    pub id: Option<String>,
    /// A coordinator or bundle XML file, relative to the scenario file.
    #[schemars(with = "String")]
    pub app: Spanned<String>,
    /// Job configuration files, as --config (default: the job.properties beside the app).
    pub config: Option<Vec<String>>,
    /// Job properties, as -D.
    #[serde(default)]
    pub properties: BTreeMap<String, String>,
    /// Where included paths are found, as --map: PREFIX = local folder.
    #[serde(default)]
    pub map: BTreeMap<String, String>,
    /// When it is submitted (default: the start).
    #[schemars(with = "Option<String>")]
    pub submit: Option<Spanned<String>>,
}

/// Data that completes: one instance by `uri`, or a job's dataset over a range.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct DataFile {
    /// One instance's URI (its done-flag appears; the directory itself when the flag is empty).
    pub uri: Option<String>,
    /// When it completes (default: already there at the start). With `uri` only.
    #[schemars(with = "Option<String>")]
    pub at: Option<Spanned<String>>,
    /// With `dataset`: the job whose dataset this is.
    pub job: Option<String>,
    /// A dataset name of that job (as a data-in or data-out's dataset= says).
    pub dataset: Option<String>,
    /// The first nominal time of the range (inclusive).
    #[schemars(with = "Option<String>")]
    pub from: Option<Spanned<String>>,
    /// The end of the range (exclusive).
    #[schemars(with = "Option<String>")]
    pub to: Option<Spanned<String>>,
    /// Each instance completes at its nominal time plus this (30s, 5m, 2h, 1d; default 0).
    #[schemars(with = "Option<String>")]
    pub delay: Option<Spanned<String>>,
    /// Nominal times in the range that never arrive.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub missing: Vec<Spanned<String>>,
}

/// What an action's workflow does once RUNNING.
#[derive(Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct WorkflowsFile {
    /// SUCCEEDED, FAILED or KILLED (default SUCCEEDED).
    #[schemars(with = "Option<String>")]
    pub status: Option<Spanned<String>>,
    /// How long it runs (default 10m).
    #[schemars(with = "Option<String>")]
    pub duration: Option<Spanned<String>>,
    /// A SUCCEEDED action's data-out instances complete when it ends (default true).
    pub outputs: Option<bool>,
}

/// One action's workflow.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct WorkflowFile {
    #[schemars(with = "String")]
    pub job: Spanned<String>,
    /// The action's number.
    pub action: Option<u32>,
    /// Or its nominal time.
    #[schemars(with = "Option<String>")]
    pub nominal: Option<Spanned<String>>,
    /// SUCCEEDED, FAILED or KILLED.
    #[schemars(with = "Option<String>")]
    pub status: Option<Spanned<String>>,
    #[schemars(with = "Option<String>")]
    pub duration: Option<Spanned<String>>,
}

/// What a user does at a time.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct OpFile {
    #[schemars(with = "String")]
    pub at: Spanned<String>,
    #[schemars(with = "String")]
    pub job: Spanned<String>,
    /// suspend, resume, kill, change, rerun or ignore.
    #[serde(rename = "do")]
    #[schemars(with = "String")]
    pub verb: Spanned<String>,
    /// For change: endtime=T;pausetime=T;concurrency=N;status=S (the CLI's -value).
    #[schemars(with = "Option<String>")]
    pub value: Option<Spanned<String>>,
    /// For kill, rerun, ignore: action numbers, e.g. 1-3,7 (the CLI's -action).
    #[schemars(with = "Option<String>")]
    pub actions: Option<Spanned<String>>,
}

/// The server is down in [from, to).
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct OutageFile {
    #[schemars(with = "String")]
    pub from: Spanned<String>,
    #[schemars(with = "String")]
    pub to: Spanned<String>,
}

#[cfg(test)]
mod schema_tests {
    /// docs/simulate.schema.json is the schema of the serde types; run with
    /// COORDC_WRITE_SCHEMA=1 to write it after changing them.
    #[test]
    fn the_shipped_schema_is_the_generated_one() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/simulate.schema.json");
        let schema = schemars::schema_for!(super::ScenarioFile);
        let generated = serde_json::to_string_pretty(&schema).unwrap() + "\n";
        if std::env::var_os("COORDC_WRITE_SCHEMA").is_some() {
            std::fs::write(path, &generated).unwrap();
        }
        let shipped = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            shipped == generated,
            "docs/simulate.schema.json is not the schema of the scenario types: run COORDC_WRITE_SCHEMA=1 cargo test the_shipped_schema"
        );
    }
}
