//! The workflows actions run, read from local files for the simulator.

use super::config::{CONFIG_DEFAULT, job_config};
use super::workflow::workflow;
use super::{Sources, Stop, app_dir, with_application};
use crate::interp::workflow::run::{SubWorkflow, SubWorkflows};
use crate::project::files::Files;
use crate::project::locate;
use crate::project::locate::AppKind;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

/// Workflow applications read from local files when a sub-workflow action
/// or a coordinator action names one: an app-path `--map`ped to a folder,
/// or a local path (relative to `base`). Each file is read once.
pub(crate) struct LocalWorkflows<'a> {
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
    pub(crate) fn new(maps: &'a [(String, String)], base: PathBuf, files: &'a Files) -> Self {
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
        let wf = with_application(file, self.files, &mut sources, |sources, opened| {
            let (kind, doc) = opened.map_err(|s| first(sources, s))?;
            if kind != Some(AppKind::Workflow) {
                return Err(format!(
                    "{} is a <{}>, not a <workflow-app>",
                    file.display(),
                    doc.root.name
                ));
            }
            workflow(doc).map_err(|s| first(sources, s))
        })?;
        let text = sources
            .files
            .first()
            .map_or_else(|| Arc::from(""), |(_, text)| Arc::clone(text));
        let dir = app_dir(file);
        let defaults = self.files.beside(&dir, CONFIG_DEFAULT);
        let defaults = job_config(
            &defaults.as_deref().into_iter().collect::<Vec<_>>(),
            &[],
            &mut sources,
        )
        .map_err(|s| first(&sources, s))?;
        Ok(Arc::new(SubWorkflow {
            workflow: Arc::new(wf),
            defaults: defaults.vars().clone(),
            path: file.display().to_string(),
            text,
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
