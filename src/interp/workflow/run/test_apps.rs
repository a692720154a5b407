//! Workflow applications held in memory by app-path, for the unit tests of
//! the runner and of the engine's local workflows.

use super::{SubWorkflow, SubWorkflows};
use crate::el::VarMap;
use crate::ir::Workflow;
use std::sync::Arc;

/// The workflow of `text` (a whole `workflow-app`), valid and lowered.
pub(crate) fn workflow(text: &str) -> Arc<Workflow> {
    let arena = crate::xml::Arena::new();
    let doc = crate::xml::parse(text, &arena).unwrap();
    assert!(crate::xml::validate(&doc).is_empty(), "{text}");
    let (workflow, problems) = crate::ir::lower::workflow(&doc.root);
    assert!(problems.is_empty(), "{problems:?}");
    Arc::new(workflow)
}

/// Applications by app-path, each read from `APP-PATH/workflow.xml`.
pub(crate) struct TestApps(Vec<(String, Arc<SubWorkflow>)>);

impl TestApps {
    pub(crate) fn new(apps: impl IntoIterator<Item = (String, Arc<Workflow>)>) -> TestApps {
        TestApps(
            apps.into_iter()
                .map(|(path, workflow)| {
                    let app = SubWorkflow {
                        workflow,
                        defaults: VarMap::default(),
                        path: format!("{path}/workflow.xml"),
                        text: Arc::from(""),
                    };
                    (path, Arc::new(app))
                })
                .collect(),
        )
    }
}

impl SubWorkflows for TestApps {
    /// A relative app-path is read beside `parent`; one held by no
    /// application is the last one's (so one application can stand for
    /// every app-path).
    fn load(
        &self,
        app_path: &str,
        parent: Option<&str>,
    ) -> Option<Result<Arc<SubWorkflow>, String>> {
        let relative = !app_path.starts_with('/') && !app_path.contains("://");
        let wanted = match parent.and_then(|p| p.rsplit_once('/')) {
            Some((folder, _)) if relative => format!("{folder}/{app_path}"),
            _ => app_path.to_string(),
        };
        let (_, app) = self
            .0
            .iter()
            .find(|(path, _)| *path == wanted)
            .or(self.0.last())?;
        Some(Ok(Arc::clone(app)))
    }
}
