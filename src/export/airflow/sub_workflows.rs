//! The workflow jobs of a run: the one the coordinator action starts, and
//! one per sub-workflow action. Each job's configuration is what its tasks'
//! templates read (`oozie.conf`); the runtime builds a sub-workflow's as
//! Oozie does (`OozieSubWorkflow`), and the exporter builds it once for the
//! first run, to resolve the app-path of each sub-workflow action and find
//! the workflow it runs.
//!
//! Oozie's order (SubWorkflowActionExecutor.java:180-212 at release-5.2.1,
//! then SubmitXCommand.java:174 and the workflow's `<parameters>`): with
//! `<propagate-configuration/>` every property of the parent's job; the
//! parent's user (its proto action configuration, :204-205 and
//! WorkflowAppService.java:174-176); the app-path
//! (`oozie.wf.application.path`); the action's `<configuration>`, resolved
//! in the parent's job; and, only where none of those gave a value, the
//! sub-workflow's `config-default.xml`, then its `<parameters>` defaults.

use super::Workflow;
use super::jinja::impure_call;
use super::report::{AppReport, Status};
use crate::el::library::FunctionDef;
use crate::el::value::Value;
use crate::el::{Context, Env, Library, VarMap};
use crate::ir::{ElText, WorkflowAction};
use crate::span::Span;
use crate::time::datetime::ProcessingZone;
use std::borrow::Cow;

/// Oozie's property naming the workflow application a job runs
/// (OozieClient.APP_PATH).
pub(super) const APP_PATH: &str = "oozie.wf.application.path";

/// Oozie's default `oozie.action.subworkflow.max.depth` (oozie-default.xml):
/// deeper, the action fails with SUBWF001.
const MAX_DEPTH: usize = 50;

/// A workflow job as the exporter knows it for the first run: its
/// configuration and its app-path (`wf:appPath()`).
pub(super) struct Job {
    pub(super) conf: VarMap,
    pub(super) app_path: String,
}

/// The defaults a workflow gives its job: its `config-default.xml`, then
/// the defaults of its `<parameters>` where that file has none (a default
/// with EL is refused at its place: the runs read no value for it).
pub(super) fn defaults(wf: &Workflow, report: &mut AppReport) -> Vec<(String, String)> {
    let mut defaults: Vec<(String, String)> = wf
        .defaults
        .iter()
        .filter_map(|(k, v)| Some((k.clone(), v.clone()?)))
        // (The reader adds the local user's name, which is the job's, not a
        // default of the workflow's.)
        .filter(|(k, _)| k != "user.name")
        .collect();
    for parameter in &wf.workflow.parameters {
        let Some(text) = &parameter.default else {
            continue;
        };
        if wf.defaults.contains_key(&parameter.name.name) {
            continue;
        }
        match text.template().plain_text() {
            Some(plain) => defaults.push((parameter.name.name.clone(), plain.to_string())),
            None => report.push_at(
                Status::Refused,
                format!("workflow parameter {}", parameter.name.name),
                "a default with EL is not exported yet: the runs read no value for it",
                wf.file().place(text.span),
            ),
        }
    }
    defaults.sort();
    defaults
}

/// Why a sub-workflow action is not exported, and where.
pub(super) struct Refusal {
    pub(super) why: String,
    pub(super) at: Span,
}

/// What a sub-workflow action gives its child job.
pub(super) struct SubWorkflowAction<'a> {
    /// The app-path, resolved in the parent's job for the first run.
    pub(super) app_path: String,
    pub(super) app_path_text: &'a ElText,
    pub(super) propagate: bool,
    /// The `<configuration>`, as written (the runtime resolves it for each run).
    pub(super) configuration: Vec<(&'a ElText, &'a ElText)>,
}

/// The sub-workflow action `action` of a job `parent`, read; refused where
/// its values need more than the parent's configuration (`${wf:id()}` in
/// its configuration, say).
pub(super) fn read_action<'a>(
    action: &'a WorkflowAction,
    parent: &Job,
    pz: ProcessingZone,
) -> Result<SubWorkflowAction<'a>, Refusal> {
    let app_path_text = action
        .body
        .values
        .iter()
        .find(|(n, _)| n.name == "app-path")
        .map(|(_, text)| text)
        .ok_or_else(|| Refusal {
            why: "a sub-workflow action without an <app-path>".to_string(),
            at: action.kind.span,
        })?;
    let app_path = resolve(app_path_text, parent, pz)?.trim().to_string();
    let configuration: Vec<(&ElText, &ElText)> = action
        .body
        .configuration
        .iter()
        .map(|p| (&p.name, &p.value))
        .collect();
    for text in configuration.iter().flat_map(|(n, v)| [*n, *v]) {
        if let Some((name, at)) = text.template().exprs().find_map(impure_call) {
            return Err(Refusal {
                why: format!(
                    "its configuration reads `{name}()`, which needs the cluster or the running workflow: not exported yet"
                ),
                at: text.file_span(at),
            });
        }
    }
    Ok(SubWorkflowAction {
        app_path,
        app_path_text,
        propagate: action
            .body
            .elements
            .iter()
            .any(|e| e.name == "propagate-configuration"),
        configuration,
    })
}

/// The job `action` starts as a child of `parent`, with the sub-workflow's
/// `defaults`, for the first run; or why there is none (a loop, too deep).
pub(super) fn child_job(
    action: &SubWorkflowAction,
    parent: &Job,
    defaults: &[(String, String)],
    depth: usize,
    pz: ProcessingZone,
) -> Result<Job, Refusal> {
    if depth > MAX_DEPTH {
        return Err(Refusal {
            why: format!(
                "the chain of sub-workflows is deeper than Oozie's oozie.action.subworkflow.max.depth ({MAX_DEPTH}), or loops: Oozie fails the action with SUBWF001"
            ),
            at: action.app_path_text.span,
        });
    }
    let mut conf: VarMap = defaults
        .iter()
        .map(|(k, v)| (k.clone(), Some(v.clone())))
        .collect();
    if action.propagate {
        conf.extend(parent.conf.iter().map(|(k, v)| (k.clone(), v.clone())));
    }
    if let Some(user) = parent.conf.get("user.name") {
        conf.insert("user.name".to_string(), user.clone());
    }
    conf.insert(APP_PATH.to_string(), Some(action.app_path.clone()));
    for (name, value) in &action.configuration {
        // (What does not resolve keeps its text: only app-paths read it.)
        let name = resolve(name, parent, pz).unwrap_or_else(|_| name.text().to_string());
        let value = resolve(value, parent, pz).unwrap_or_else(|_| value.text().to_string());
        conf.insert(name, Some(value));
    }
    Ok(Job {
        conf,
        app_path: action.app_path.clone(),
    })
}

/// `text` evaluated in `job` as Oozie's workflow EL does, `wf:appPath()`
/// its app-path.
fn resolve(text: &ElText, job: &Job, pz: ProcessingZone) -> Result<String, Refusal> {
    let context = AppPath(&job.app_path);
    let env = Env {
        vars: &job.conf,
        library: Library::Workflow,
        context: Some(&context),
        processing_zone: pz,
    };
    crate::el::render(text.template(), &env)
        .map(|(value, _)| value)
        .map_err(|d| Refusal {
            why: format!(
                "`{}` does not resolve with the first run's configuration: {}",
                text.text(),
                d.message
            ),
            at: text.file_span(d.span),
        })
}

/// `wf:appPath()`: the one function of a running job an app-path reads.
struct AppPath<'a>(&'a str);

impl Context for AppPath<'_> {
    fn call(
        &self,
        def: &'static FunctionDef,
        _: &[Value],
    ) -> Option<Result<Value<'static>, String>> {
        (def.namespace == Some("wf") && def.name == "appPath")
            .then(|| Ok(Value::Str(Cow::Owned(self.0.to_string()))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::airflow::tests::workflow_of;
    use crate::ir::NodeKind;

    fn action(xml_body: &str) -> crate::ir::Workflow {
        workflow_of(&format!(
            r#"<workflow-app name="w" xmlns="uri:oozie:workflow:0.5"><start to="s"/><action name="s"><sub-workflow>{xml_body}</sub-workflow><ok to="end"/><error to="end"/></action><end name="end"/></workflow-app>"#
        ))
    }

    fn the_action(wf: &crate::ir::Workflow) -> &WorkflowAction {
        match &wf.nodes[0].kind {
            NodeKind::Action(a) => a,
            _ => panic!("an action"),
        }
    }

    fn parent() -> Job {
        let conf: VarMap = [
            ("nameNode", "hdfs://nn"),
            ("user.name", "joe"),
            ("q", "prod"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), Some(v.to_string())))
        .collect();
        Job {
            conf,
            app_path: "hdfs://nn/apps/main".to_string(),
        }
    }

    #[test]
    fn an_app_path_resolves_in_the_parent_job_with_its_app_path() {
        let wf = action(
            "<app-path>${wf:appPath()}/../load.xml</app-path><configuration><property><name>k</name><value>${q}-x</value></property></configuration>",
        );
        let read = read_action(the_action(&wf), &parent(), ProcessingZone::UTC)
            .ok()
            .unwrap();
        assert_eq!(read.app_path, "hdfs://nn/apps/main/../load.xml");
        assert!(!read.propagate);
        let defaults = vec![
            ("k".to_string(), "no".to_string()),
            ("d".to_string(), "1".to_string()),
        ];
        let child = child_job(&read, &parent(), &defaults, 1, ProcessingZone::UTC)
            .ok()
            .unwrap();
        let value = |k: &str| child.conf.get(k).cloned().flatten();
        assert_eq!(value("k").as_deref(), Some("prod-x"));
        assert_eq!(value("d").as_deref(), Some("1"));
        assert_eq!(value("user.name").as_deref(), Some("joe"));
        assert_eq!(value("q"), None);
        assert_eq!(
            value(APP_PATH).as_deref(),
            Some("hdfs://nn/apps/main/../load.xml")
        );
    }

    #[test]
    fn propagation_gives_the_parent_job_over_the_defaults() {
        let wf = action("<app-path>${nameNode}/apps/load</app-path><propagate-configuration/>");
        let read = read_action(the_action(&wf), &parent(), ProcessingZone::UTC)
            .ok()
            .unwrap();
        assert!(read.propagate);
        let defaults = vec![("q".to_string(), "default".to_string())];
        let child = child_job(&read, &parent(), &defaults, 1, ProcessingZone::UTC)
            .ok()
            .unwrap();
        assert_eq!(
            child.conf.get("q").cloned().flatten().as_deref(),
            Some("prod")
        );
        assert_eq!(child.app_path, "hdfs://nn/apps/load");
    }

    #[test]
    fn what_needs_the_running_job_is_refused_at_its_place() {
        let wf = action(
            "<app-path>/apps/load</app-path><configuration><property><name>parent</name><value>${wf:id()}</value></property></configuration>",
        );
        let refused = read_action(the_action(&wf), &parent(), ProcessingZone::UTC)
            .err()
            .unwrap();
        assert!(refused.why.contains("`wf:id()`"), "{}", refused.why);
        let unknown = action("<app-path>${nowhere}/load</app-path>");
        let refused = read_action(the_action(&unknown), &parent(), ProcessingZone::UTC)
            .err()
            .unwrap();
        assert!(refused.why.contains("does not resolve"), "{}", refused.why);
    }

    #[test]
    fn a_chain_deeper_than_oozie_allows_is_refused() {
        let wf = action("<app-path>/apps/load</app-path>");
        let read = read_action(the_action(&wf), &parent(), ProcessingZone::UTC)
            .ok()
            .unwrap();
        let refused = child_job(&read, &parent(), &[], MAX_DEPTH + 1, ProcessingZone::UTC)
            .err()
            .unwrap();
        assert!(refused.why.contains("SUBWF001"), "{}", refused.why);
    }
}
