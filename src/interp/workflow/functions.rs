//! The EL functions that need a running workflow job (DagELFunctions,
//! FsELFunctions, HadoopELFunctions, HCatELFunctions, `timestamp()`), answered
//! from the run's state and the scenario's file system.

use super::run::NodeRun;
use super::script::FileSystem;
use crate::el::Context;
use crate::el::library::FunctionDef;
use crate::el::value::{ElMap, Value};
use crate::interp::clock::Millis;

use crate::time::datetime::ProcessingZone;
use std::borrow::Cow;
use std::sync::Arc;

/// What the functions read of a run.
pub(crate) struct RunView<'a> {
    pub id: &'a str,
    pub conf: &'a crate::el::VarMap,
    pub name: &'a str,
    pub app_path: &'a str,
    pub nodes: &'a [NodeRun],
    pub last_error_node: Option<&'a str>,
    pub fs: &'a FileSystem,
    pub now: Millis,
}

/// The functions, for the node being evaluated (`current`: `wf:callback`'s).
pub(crate) struct Functions<'a> {
    pub run: RunView<'a>,
    pub current: &'a str,
}

/// The Oozie server coordc stands in for (`oozie.base.url`'s default).
const BASE_URL: &str = "http://localhost:11000/oozie";

fn text(s: impl Into<String>) -> Value<'static> {
    Value::Str(Cow::Owned(s.into()))
}

fn or_null(s: Option<&String>) -> Value<'static> {
    s.map_or(Value::Null, |s| text(s.clone()))
}

impl Functions<'_> {
    /// The last run of node `name`.
    fn node(&self, name: &str) -> Option<&NodeRun> {
        self.run.nodes.iter().rev().find(|n| n.name == name)
    }

    fn workflow(&self, name: &str, args: &[Value]) -> Option<Value<'static>> {
        let arg = || {
            args.first()
                .map(|a| a.to_text().into_owned())
                .unwrap_or_default()
        };
        Some(match name {
            "id" => text(self.run.id),
            "name" => text(self.run.name),
            "appPath" => text(self.run.app_path),
            // The job's `group.name` (SubmitXCommand:224-225); null without.
            "group" => or_null(self.run.conf.get("group.name").and_then(Option::as_ref)),
            "callback" => text(format!(
                "{BASE_URL}/callback?id={}@{}&status={}",
                self.run.id,
                self.current,
                arg()
            )),
            "transition" => or_null(self.node(&arg()).and_then(|n| n.transition.as_ref())),
            // Null (written "") when the workflow has none (DagELFunctions).
            "lastErrorNode" => self.run.last_error_node.map_or(Value::Null, text),
            "errorCode" => or_null(self.node(&arg()).and_then(|n| n.error_code.as_ref())),
            "errorMessage" => or_null(self.node(&arg()).and_then(|n| n.error_message.as_ref())),
            "run" => Value::Long(0),
            "actionData" => {
                let data: ElMap = self
                    .node(&arg())
                    .map(|n| {
                        n.action_data
                            .iter()
                            .map(|(k, v)| (k.clone(), text(v.clone())))
                            .collect()
                    })
                    .unwrap_or_default();
                Value::Map(Arc::new(data))
            }
            "actionExternalId" => or_null(self.node(&arg()).and_then(|n| n.external_id.as_ref())),
            "actionTrackerUri" => or_null(self.node(&arg()).and_then(|n| n.tracker_uri.as_ref())),
            "actionExternalStatus" => {
                or_null(self.node(&arg()).and_then(|n| n.external_status.as_ref()))
            }
            _ => return None,
        })
    }

    fn file_system(&self, name: &str, path: &str) -> Option<Value<'static>> {
        let fs = self.run.fs;
        Some(match name {
            "exists" => Value::Bool(fs.exists(path)),
            "isDir" => Value::Bool(fs.is_dir(path)),
            // -1 for what is not a folder (FsELFunctions.fs_dirSize).
            "dirSize" if fs.is_dir(path) => Value::Long(fs.files_in(path).map(|(_, s)| s).sum()),
            "dirSize" => Value::Long(-1),
            // -1 for what does not exist; a folder's length is 0 on HDFS
            // (fs_fileSize, fs_blockSize read FileStatus as it is).
            "fileSize" if fs.is_dir(path) => Value::Long(0),
            "fileSize" => Value::Long(fs.file_size(path).unwrap_or(-1)),
            "blockSize" if fs.is_dir(path) => Value::Long(0),
            "blockSize" => Value::Long(fs.file_size(path).map_or(-1, |_| fs.block_size)),
            _ => return None,
        })
    }

    /// A node's counters; an error when it has none
    /// (HadoopELFunctions.hadoop_counters:74-80).
    fn counters(&self, node: &str) -> Result<Value<'static>, String> {
        Ok(match self.node(node) {
            Some(n) if !n.counters.is_empty() => {
                let groups: ElMap = n
                    .counters
                    .iter()
                    .map(|(group, counters)| {
                        let inner: ElMap = counters
                            .iter()
                            .map(|(k, v)| (k.clone(), Value::Long(*v)))
                            .collect();
                        (group.clone(), Value::Map(Arc::new(inner)))
                    })
                    .collect();
                Value::Map(Arc::new(groups))
            }
            _ => return Err(format!("Hadoop counters not available for action [{node}]")),
        })
    }
}

impl Context for Functions<'_> {
    fn call(
        &self,
        def: &'static FunctionDef,
        args: &[Value],
    ) -> Option<Result<Value<'static>, String>> {
        let first = || {
            args.first()
                .map(|a| a.to_text().into_owned())
                .unwrap_or_default()
        };
        let value = match (def.namespace, def.name) {
            (Some("wf"), name) => self.workflow(name, args)?,
            (Some("fs"), name) => self.file_system(name, &first())?,
            (Some("hadoop"), "counters") => return Some(self.counters(&first())),
            // No cluster's configuration is known: Oozie's fallback, an
            // empty string (HadoopELFunctions.hadoop_conf, :60-71).
            (Some("hadoop"), "conf") => text(""),
            (Some("hcat"), "exists") => Value::Bool(self.run.fs.exists(&first())),
            (None, "timestamp") => {
                let now = chrono::DateTime::from_timestamp_millis(self.run.now).unwrap_or_default();
                text(ProcessingZone::UTC.format(now))
            }
            _ => return None,
        };
        Some(Ok(value))
    }
}
