//! Workflow actions as a stock Oozie server accepts them: the action types it
//! has executors for (E0723), the job-tracker and name-node the Hadoop actions
//! need (E0701), and the definition length it reads (E0736).
//! research/oozie-validations.md §4, W9 and W10.

use super::rules::{WF_ACTION_TYPE, WF_CLUSTER, WF_LENGTH};
use crate::diag::Diagnostic;
use crate::ir::{ActionBody, NodeKind, Workflow};
use crate::span::Span;
use crate::xml::schema::schemas;
use crate::xml::validate::and_list;

/// WorkflowAppService rejects longer definitions before parsing them
/// (oozie.service.WorkflowAppService.WorkflowDefinitionMaxLength).
pub const MAX_DEFINITION_BYTES: usize = 100_000;

/// Actions that run on the cluster and so need a job-tracker (or, in schema
/// 1.0, resource-manager) and a name-node from the action or `<global>`
/// (LiteWorkflowAppParser.addGlobalJobTrackerNameNode and the executors).
const CLUSTER_ACTIONS: &[&str] = &[
    "map-reduce",
    "pig",
    "java",
    "hive",
    "hive2",
    "shell",
    "sqoop",
    "distcp",
    "spark",
    "git",
];

pub fn check(wf: &Workflow, definition_bytes: usize) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if definition_bytes > MAX_DEFINITION_BYTES {
        out.push(
            Diagnostic::error(
                WF_LENGTH,
                wf.name_span,
                format!(
                    "Workflow definition length [{definition_bytes}] exceeded maximum allowed length [{MAX_DEFINITION_BYTES}] (E0736)"
                ),
            )
            .with_help("split the workflow into sub-workflows"),
        );
    }
    for node in &wf.nodes {
        let NodeKind::Action(action) = &node.kind else {
            continue;
        };
        let kind = action.kind.name.as_str();
        if let Some(namespace) = &action.namespace
            && !namespace.starts_with("uri:oozie:workflow:")
            && let Some(problem) = unknown_extension(namespace)
        {
            let workflow = format!("uri:oozie:workflow:{}", wf.version);
            let stock = match schemas().namespace_for(kind, &workflow) {
                Some(own) => format!("write xmlns=\"{own}\""),
                None => "use a stock action (e.g. <shell xmlns=\"uri:oozie:shell-action:0.3\">)"
                    .to_string(),
            };
            out.push(
                Diagnostic::error(
                    WF_ACTION_TYPE,
                    action.kind.span,
                    format!(
                        "Unsupported action type, node [{}] type [{kind}] (E0723): {problem}",
                        node.name.name
                    ),
                )
                .with_help(format!(
                    "{stock}; a server with a custom executor and schema registered can turn this rule off in coordc.toml"
                )),
            );
        }
        if CLUSTER_ACTIONS.contains(&kind) {
            let global = wf.global.as_ref();
            let has = |names: &[&str]| {
                defines(&action.body, names) || global.is_some_and(|g| defines(g, names))
            };
            let missing: Vec<(&str, &str)> = [
                (&["job-tracker", "resource-manager"][..], "jobTracker"),
                (&["name-node"][..], "nameNode"),
            ]
            .into_iter()
            .filter(|(names, _)| !has(names))
            .map(|(names, property)| (names[0], property))
            .collect();
            if !missing.is_empty() {
                out.push(missing_cluster(action.kind.span, &node.name.name, &missing));
            }
        }
    }
    out
}

/// Why an extension action in `namespace` has no executor on a stock server.
/// The stock extension actions are those whose `uri:oozie:NAME-action:VERSION`
/// schemas oozie-default.xml registers (`oozie.service.SchemaService.wf.schemas`,
/// OD:1742-1757, all embedded in coordc), each with its executor
/// (`oozie.service.ActionService.executor.classes`, OD:1879-1896). An element
/// in a registered namespace was validated against its schema already (an
/// element the schema does not declare is XML004).
fn unknown_extension(namespace: &str) -> Option<String> {
    let Some((schema, version)) = namespace
        .strip_prefix("uri:oozie:")
        .and_then(|rest| rest.rsplit_once(':'))
    else {
        return Some(format!("`{namespace}` is not an Oozie action schema"));
    };
    let Some(name) = schema.strip_suffix("-action") else {
        return Some(format!(
            "`{namespace}` is not an action schema (uri:oozie:NAME-action:VERSION)"
        ));
    };
    if schemas().has(namespace) {
        return None;
    }
    let versions = schemas().versions(&format!("uri:oozie:{schema}"));
    if versions.is_empty() {
        return Some(format!("a stock Oozie server has no `{name}` action"));
    }
    Some(format!(
        "the {name} action has no schema version {version} (there are {})",
        and_list(&versions)
    ))
}

fn defines(body: &ActionBody, names: &[&str]) -> bool {
    body.values
        .iter()
        .any(|(n, _)| names.contains(&n.name.as_str()))
}

/// E0701 for the `(element, property)` pairs an action lacks, in one
/// diagnostic: Oozie reports the first.
fn missing_cluster(span: Span, node: &str, missing: &[(&str, &str)]) -> Diagnostic {
    let what: Vec<String> = missing
        .iter()
        .map(|(element, _)| match *element {
            "job-tracker" => "job-tracker or resource-manager".to_string(),
            other => other.to_string(),
        })
        .collect();
    let add: Vec<String> = missing
        .iter()
        .map(|(element, property)| format!("<{element}>${{{property}}}</{element}>"))
        .collect();
    let settings: Vec<String> = missing
        .iter()
        .map(|(element, _)| format!("oozie.actions.default.{element}"))
        .collect();
    Diagnostic::error(
        WF_CLUSTER,
        span,
        format!(
            "No {} defined for action [{node}] (E0701)",
            what.join(" and no ")
        ),
    )
    .with_help(format!(
        "add {} to the action or to <global>; a server that sets {} can turn this rule off in coordc.toml",
        add.join(" and "),
        settings.join(" and ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::lower;
    use crate::xml::{Arena, parse};

    /// `(message, help)` of the WF008 problems of a workflow of `version`
    /// whose one action is `element`.
    fn unsupported(version: &str, element: &str) -> Vec<(String, String)> {
        let src = format!(
            r#"<workflow-app xmlns="uri:oozie:workflow:{version}" name="wf"><start to="a"/><action name="a">{element}<ok to="end"/><error to="end"/></action><end name="end"/></workflow-app>"#
        );
        let arena = Arena::new();
        let doc = parse(&src, &arena).unwrap();
        assert!(crate::xml::validate(&doc).is_empty(), "{src}");
        let (wf, _) = lower::workflow(&doc.root);
        check(&wf, src.len())
            .into_iter()
            .filter(|d| d.code == WF_ACTION_TYPE)
            .map(|d| (d.message.clone(), d.help.clone().unwrap_or_default()))
            .collect()
    }

    /// The stock action versions are the schemas oozie-default.xml registers
    /// (oozie.service.SchemaService.wf.schemas, oozie-default.xml:1747-1756).
    #[test]
    fn an_unknown_action_version_names_the_versions_there_are() {
        let found = unsupported(
            "0.5",
            r#"<shell xmlns="uri:oozie:shell-action:0.9"><exec>x</exec></shell>"#,
        );
        assert_eq!(
            found,
            [(
                "Unsupported action type, node [a] type [shell] (E0723): the shell action has no schema version 0.9 (there are 0.1, 0.2, 0.3 and 1.0)".to_string(),
                "write xmlns=\"uri:oozie:shell-action:0.3\"; a server with a custom executor and schema registered can turn this rule off in coordc.toml".to_string()
            )]
        );
        // hive-action starts at 0.2 (oozie-default.xml:1749); workflow 1.0
        // pairs with the 1.0 action.
        let found = unsupported(
            "1.0",
            r#"<hive xmlns="uri:oozie:hive-action:0.1"><script>q</script></hive>"#,
        );
        assert!(found[0].0.ends_with(
            "the hive action has no schema version 0.1 (there are 0.2, 0.3, 0.4, 0.5, 0.6 and 1.0)"
        ));
        assert!(
            found[0]
                .1
                .starts_with("write xmlns=\"uri:oozie:hive-action:1.0\"")
        );
        // Every registered version passes; a custom action is reported.
        for version in ["0.2", "0.3", "0.4", "0.5", "0.6", "1.0"] {
            let hive = format!(
                r#"<hive xmlns="uri:oozie:hive-action:{version}"><job-tracker>jt</job-tracker><name-node>nn</name-node><script>q</script></hive>"#
            );
            assert_eq!(unsupported("0.5", &hive), [], "{version}");
        }
        let found = unsupported("0.5", r#"<sge xmlns="uri:oozie:sge-action:1.0"/>"#);
        assert!(
            found[0]
                .0
                .ends_with("a stock Oozie server has no `sge` action")
        );
    }
}
