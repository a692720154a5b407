//! What the outside world does while a workflow runs, as a scenario scripts
//! it: each action node's outcome, duration, errors and outputs, the file
//! system the `fs:` functions read, and the server's retry settings.

use crate::interp::clock::Millis;
use std::collections::{BTreeMap, BTreeSet};

/// How an action's work ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Ok,
    /// A non-transient error: the `error` transition.
    Error,
}

/// What one action node does when it runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Behaviour {
    pub outcome: Outcome,
    /// `wf:errorCode` and `wf:errorMessage` after an error.
    pub error_code: String,
    pub error_message: String,
    /// Each attempt's duration; `None`: the default for the action's kind
    /// (see [`Behaviour::duration_of`]).
    pub duration: Option<Millis>,
    /// The first attempts that fail with a retryable error.
    pub transient_failures: u32,
    /// `<capture-output>` properties (`wf:actionData`).
    pub action_data: Vec<(String, String)>,
    /// `wf:actionExternalStatus`; `None`: what the outcome implies.
    pub external_status: Option<String>,
    /// `hadoop:counters`: group → counter → value.
    pub counters: Counters,
}

/// Hadoop counters: group → counter → value.
pub(crate) type Counters = Vec<(String, Vec<(String, i64)>)>;

/// An asynchronous action's default duration.
pub(crate) const DEFAULT_DURATION: Millis = 60_000;

/// The error code and message of a scripted error that names none.
pub(crate) const DEFAULT_ERROR_CODE: &str = "ERROR";
pub(crate) const DEFAULT_ERROR_MESSAGE: &str = "the scenario fails this action";

impl Default for Behaviour {
    fn default() -> Behaviour {
        Behaviour {
            outcome: Outcome::Ok,
            error_code: DEFAULT_ERROR_CODE.to_string(),
            error_message: DEFAULT_ERROR_MESSAGE.to_string(),
            duration: None,
            transient_failures: 0,
            action_data: Vec::new(),
            external_status: None,
            counters: Vec::new(),
        }
    }
}

impl Behaviour {
    /// One attempt's duration for an action of `kind`: the scripted one, else
    /// none for the `fs` action, which Oozie runs synchronously (workflow spec
    /// §3.2.1.2), else a minute.
    pub(crate) fn duration_of(&self, kind: &str) -> Millis {
        self.duration
            .unwrap_or(if kind == "fs" { 0 } else { DEFAULT_DURATION })
    }
}

/// A `[[node]]` entry: which node (and which job's action, inside a
/// coordinator simulation) it scripts, and what it changes.
#[derive(Debug, Clone, Default)]
pub struct NodeScript {
    pub name: String,
    /// Where the scenario names the node.
    pub span: crate::span::Span,
    /// Inside a coordinator simulation: only this job's workflows.
    pub job: Option<String>,
    /// ... and only this action's (numbered from 1).
    pub action: Option<usize>,
    pub outcome: Option<Outcome>,
    pub error_code: Option<String>,
    pub error_message: Option<String>,
    pub duration: Option<Millis>,
    pub transient_failures: Option<u32>,
    pub action_data: Option<Vec<(String, String)>>,
    pub external_status: Option<String>,
    pub counters: Option<Counters>,
}

impl NodeScript {
    pub(crate) fn apply(&self, b: &mut Behaviour) {
        if let Some(o) = self.outcome {
            b.outcome = o;
        }
        if let Some(c) = &self.error_code {
            b.error_code.clone_from(c);
        }
        if let Some(m) = &self.error_message {
            b.error_message.clone_from(m);
        }
        if self.duration.is_some() {
            b.duration = self.duration;
        }
        if let Some(n) = self.transient_failures {
            b.transient_failures = n;
        }
        if let Some(d) = &self.action_data {
            b.action_data.clone_from(d);
        }
        if self.external_status.is_some() {
            b.external_status.clone_from(&self.external_status);
        }
        if let Some(c) = &self.counters {
            b.counters.clone_from(c);
        }
    }
}

/// The file system the `fs:` and `hcat:` functions see: files with their
/// sizes, and folders (a file's parents are folders too).
#[derive(Debug, Clone, Default)]
pub struct FileSystem {
    pub files: BTreeMap<String, i64>,
    pub dirs: BTreeSet<String>,
    /// `fs:blockSize` of every file (Hadoop's default, 128 MB).
    pub block_size: i64,
}

/// HDFS's default block size (`dfs.blocksize`).
pub(crate) const DEFAULT_BLOCK_SIZE: i64 = 128 * 1024 * 1024;

impl FileSystem {
    pub(crate) fn new(files: BTreeMap<String, i64>, dirs: BTreeSet<String>) -> FileSystem {
        let mut fs = FileSystem {
            files: BTreeMap::new(),
            dirs: BTreeSet::new(),
            block_size: DEFAULT_BLOCK_SIZE,
        };
        for dir in dirs {
            fs.add_dir(&dir);
        }
        for (path, size) in files {
            fs.add_file(&path, size);
        }
        fs
    }

    /// `path` without a trailing `/` (the root keeps its own).
    pub(crate) fn normal(path: &str) -> &str {
        let trimmed = path.trim_end_matches('/');
        if trimmed.is_empty() || trimmed.ends_with(':') {
            path
        } else {
            trimmed
        }
    }

    /// The folders above `path`, its root (`/`, `hdfs://nn`) first.
    fn parents(path: &str) -> impl Iterator<Item = &str> {
        // (The part after `scheme://authority` is the path proper.)
        let root = path.find("://").map_or(0, |i| {
            path[i + 3..].find('/').map_or(path.len(), |j| i + 3 + j)
        });
        let top = match root {
            0 if path.starts_with('/') && path.len() > 1 => Some("/"),
            r if r > 0 && r < path.len() => Some(&path[..r]),
            _ => None,
        };
        top.into_iter().chain(
            path.char_indices()
                .filter(move |&(i, c)| c == '/' && i > root)
                .map(move |(i, _)| &path[..i]),
        )
    }

    /// What paths under the folder `path` start with.
    fn under(path: &str) -> String {
        let path = Self::normal(path);
        if path.ends_with('/') {
            path.to_string()
        } else {
            format!("{path}/")
        }
    }

    pub(crate) fn add_dir(&mut self, path: &str) {
        let path = Self::normal(path);
        for parent in Self::parents(path) {
            self.dirs.insert(parent.to_string());
        }
        self.dirs.insert(path.to_string());
    }

    pub(crate) fn add_file(&mut self, path: &str, size: i64) {
        let path = Self::normal(path);
        for parent in Self::parents(path) {
            self.dirs.insert(parent.to_string());
        }
        self.files.insert(path.to_string(), size);
    }

    /// Removes `path` and everything under it; whether anything was there.
    pub(crate) fn delete(&mut self, path: &str) -> bool {
        let under = Self::under(path);
        let path = Self::normal(path);
        let before = self.files.len() + self.dirs.len();
        self.files
            .retain(|p, _| p != path && !p.starts_with(&under));
        self.dirs.retain(|p| p != path && !p.starts_with(&under));
        before != self.files.len() + self.dirs.len()
    }

    /// Moves `from` and everything under it to `to`.
    pub(crate) fn rename(&mut self, from: &str, to: &str) {
        if from.is_empty() || to.is_empty() {
            return;
        }
        let from = Self::normal(from).to_string();
        let to = Self::normal(to).to_string();
        let moved = |p: &String| {
            (p == &from || p.starts_with(&format!("{from}/")))
                .then(|| format!("{to}{}", &p[from.len()..]))
        };
        let files: Vec<(String, i64)> = self
            .files
            .iter()
            .filter_map(|(p, s)| moved(p).map(|n| (n, *s)))
            .collect();
        let dirs: Vec<String> = self.dirs.iter().filter_map(moved).collect();
        self.delete(&from);
        for d in dirs {
            self.add_dir(&d);
        }
        for (f, s) in files {
            self.add_file(&f, s);
        }
    }

    pub(crate) fn is_dir(&self, path: &str) -> bool {
        self.dirs.contains(Self::normal(path))
    }

    /// Whether `path` exists, or, with glob characters, anything matches it
    /// (FsELFunctions.fs_exists reads `globStatus`: `*`, `?`, `[ab]`,
    /// `{a,b}`, none of which crosses a `/`).
    pub(crate) fn exists(&self, path: &str) -> bool {
        let path = Self::normal(path);
        if !path.contains(['*', '?', '[', '{']) {
            return self.files.contains_key(path) || self.dirs.contains(path);
        }
        let Ok(glob) = globset::GlobBuilder::new(path)
            .literal_separator(true)
            .build()
        else {
            return false;
        };
        let matcher = glob.compile_matcher();
        self.files
            .keys()
            .chain(&self.dirs)
            .any(|p| matcher.is_match(p))
    }

    /// A file's size, `None` for no file.
    pub(crate) fn file_size(&self, path: &str) -> Option<i64> {
        self.files.get(Self::normal(path)).copied()
    }

    /// The files directly in the folder `path` (FsELFunctions.fs_dirSize
    /// sums `listStatus`, not recursively), with their sizes.
    pub(crate) fn files_in<'a>(
        &'a self,
        path: &str,
    ) -> impl Iterator<Item = (&'a String, &'a i64)> + 'a {
        let prefix = Self::under(path);
        let len = prefix.len();
        self.files
            .range(prefix.clone()..)
            .take_while(move |(p, _)| p.starts_with(&prefix))
            .filter(move |(p, _)| !p[len..].contains('/'))
    }
}

/// The server settings a workflow's run reads (oozie-default.xml).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetrySettings {
    /// `oozie.service.LiteWorkflowStoreService.user.retry.max`: the cap on an
    /// action's `retry-max`.
    pub user_retry_max: u32,
    /// `oozie.action.retries.max`: transient retries before the workflow is
    /// suspended.
    pub retries_max: u32,
    /// `oozie.action.retry.interval`, in milliseconds.
    pub retry_interval: Millis,
    /// `oozie.action.subworkflow.max.depth`.
    pub subworkflow_max_depth: u32,
}

impl Default for RetrySettings {
    fn default() -> RetrySettings {
        RetrySettings {
            user_retry_max: 3,
            retries_max: 3,
            retry_interval: 10_000,
            subworkflow_max_depth: 50,
        }
    }
}

/// Everything a scenario scripts for workflows.
#[derive(Debug, Clone, Default)]
pub struct Script {
    /// `[actions]`: every action's default.
    pub default: Behaviour,
    /// `[[node]]`, in the order written: later entries win.
    pub nodes: Vec<NodeScript>,
    pub fs: FileSystem,
    pub settings: RetrySettings,
}

/// Which workflow a node belongs to, for `[[node]]` entries scoped to a job
/// and an action.
#[derive(Debug, Clone, Copy, Default)]
pub struct Scope<'a> {
    pub job: Option<&'a str>,
    pub action: Option<usize>,
}

impl Script {
    /// What node `name` does in the workflow of `scope`.
    pub(crate) fn behaviour(&self, name: &str, scope: Scope) -> Behaviour {
        let mut b = self.default.clone();
        for entry in &self.nodes {
            let applies = entry.name == name
                && entry.job.as_deref().is_none_or(|j| Some(j) == scope.job)
                && entry.action.is_none_or(|a| Some(a) == scope.action);
            if applies {
                entry.apply(&mut b);
            }
        }
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_of_files_exist_and_dir_size_is_not_recursive() {
        let fs = FileSystem::new(
            [
                ("hdfs://nn/in/a".to_string(), 10),
                ("hdfs://nn/in/b".to_string(), 5),
                ("hdfs://nn/in/sub/c".to_string(), 100),
            ]
            .into(),
            ["hdfs://nn/empty/".to_string()].into(),
        );
        assert!(fs.is_dir("hdfs://nn/in"));
        assert!(fs.is_dir("hdfs://nn/in/"));
        assert!(fs.is_dir("hdfs://nn/in/sub"));
        assert!(fs.is_dir("hdfs://nn/empty"));
        assert!(!fs.is_dir("hdfs://nn/in/a"));
        assert!(fs.exists("hdfs://nn/in/a"));
        assert!(!fs.exists("hdfs://nn/in/z"));
        // Globs (TestFsELFunctions: file{1,2}, file*), not across a `/`.
        assert!(fs.exists("hdfs://nn/in/{a,z}"));
        assert!(fs.exists("hdfs://nn/in/*"));
        assert!(fs.exists("hdfs://nn/in/sub/?"));
        assert!(!fs.exists("hdfs://nn/in/*/z"));
        assert!(!fs.exists("hdfs://nn/*/c"));
        let sizes: i64 = fs.files_in("hdfs://nn/in").map(|(_, s)| s).sum();
        assert_eq!(sizes, 15);
    }

    #[test]
    fn roots_are_folders() {
        let fs = FileSystem::new(
            [("/f".to_string(), 3), ("hdfs://nn/g".to_string(), 4)].into(),
            Default::default(),
        );
        assert!(fs.is_dir("/"));
        assert!(fs.is_dir("hdfs://nn"));
        assert!(fs.is_dir("hdfs://nn/"));
        assert_eq!(fs.files_in("/").map(|(_, s)| s).sum::<i64>(), 3);
        let mut gone = fs.clone();
        gone.delete("/");
        assert!(!gone.exists("/f"));
        let mut kept = fs.clone();
        kept.rename("", "/x");
        assert!(kept.exists("/f"));
    }

    #[test]
    fn delete_removes_what_is_under() {
        let mut fs = FileSystem::new([("/a/b/c".to_string(), 1)].into(), Default::default());
        assert!(fs.exists("/a/b"));
        assert!(fs.delete("/a/b"));
        assert!(!fs.exists("/a/b/c"));
        assert!(fs.exists("/a"));
        assert!(!fs.delete("/a/b"));
    }

    #[test]
    fn later_node_entries_win_and_scopes_apply() {
        let script = Script {
            nodes: vec![
                NodeScript {
                    name: "n".into(),
                    outcome: Some(Outcome::Error),
                    ..NodeScript::default()
                },
                NodeScript {
                    name: "n".into(),
                    job: Some("j".into()),
                    action: Some(3),
                    outcome: Some(Outcome::Ok),
                    ..NodeScript::default()
                },
            ],
            ..Script::default()
        };
        let any = Scope::default();
        assert_eq!(script.behaviour("n", any).outcome, Outcome::Error);
        let third = Scope {
            job: Some("j"),
            action: Some(3),
        };
        assert_eq!(script.behaviour("n", third).outcome, Outcome::Ok);
        let fourth = Scope {
            job: Some("j"),
            action: Some(4),
        };
        assert_eq!(script.behaviour("n", fourth).outcome, Outcome::Error);
        assert_eq!(script.behaviour("other", third).outcome, Outcome::Ok);
    }
}
