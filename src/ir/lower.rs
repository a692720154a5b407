//! XML tree → IR. The tree has passed schema validation (`xml::validate`), so
//! the structure is known; what remains to report here is EL that does not
//! parse. Lowering never stops at the first problem: a value whose EL does not
//! parse is reported and the rest is lowered.

use super::{
    Action, ActionBody, Bundle, BundleCoordinator, ConfigProperty, Controls, Coordinator,
    Credential, DataIn, DataOut, Dataset, ElText, InputLogic, Instances, Logic, LogicNode,
    LogicOptions, Name, Node, NodeKind, Parameter, Sla, Workflow, WorkflowAction,
};
use crate::diag::Diagnostic;
use crate::diag::FileRef;
use crate::diag::rules::DATASET_NO_URI_TEMPLATE;
use crate::span::Span;
use crate::xml::tree::{Element, Text};

/// Collects the EL parse errors met while lowering.
struct Lowering {
    problems: Vec<Diagnostic>,
}

impl Lowering {
    fn el(&mut self, text: Text) -> ElText {
        match ElText::parse(text) {
            Ok(t) => t,
            Err(failed) => {
                let (d, text) = *failed;
                self.problems.push(d);
                // The value stays, as plain text, so the rest can be lowered.
                ElText::unparsed(text)
            }
        }
    }

    fn attribute(&mut self, element: &Element, name: &str) -> Option<ElText> {
        element.attribute(name).map(|a| self.el(a.text()))
    }

    /// A required attribute; validation has reported it when absent, so an
    /// empty value at the element stands in.
    fn required(&mut self, element: &Element, name: &str) -> ElText {
        self.attribute(element, name)
            .unwrap_or_else(|| empty_at(element.name_span))
    }

    fn child_text(&mut self, element: &Element, name: &str) -> Option<ElText> {
        element.child(name).map(|c| self.el(c.text_trimmed()))
    }

    fn required_child(&mut self, element: &Element, name: &str) -> ElText {
        self.child_text(element, name)
            .unwrap_or_else(|| empty_at(element.name_span))
    }
}

fn empty_at(span: Span) -> ElText {
    ElText::empty(Span::new(span.end as usize, span.end as usize))
}

fn name_of(element: &Element, attribute: &str) -> Name {
    match element.attribute(attribute) {
        Some(a) => Name {
            name: a.value.to_string(),
            span: a.value_span,
        },
        None => Name {
            name: String::new(),
            span: element.name_span,
        },
    }
}

/// The schema version `root`'s namespace names after `prefix` (`0.4` in
/// `uri:oozie:coordinator:0.4`); empty in another namespace.
fn schema_version(root: &Element, prefix: &str) -> String {
    root.namespace
        .and_then(|ns| ns.strip_prefix(prefix))
        .unwrap_or("")
        .to_string()
}

/// Lowers a validated `<coordinator-app>`.
pub fn coordinator(root: &Element) -> (Coordinator, Vec<Diagnostic>) {
    let mut l = Lowering {
        problems: Vec::new(),
    };
    let version = schema_version(root, "uri:oozie:coordinator:");
    let parameters = root
        .child("parameters")
        .map(|p| parameters(&mut l, p))
        .unwrap_or_default();
    let controls = root
        .child("controls")
        .map(|c| Controls {
            timeout: l.child_text(c, "timeout"),
            concurrency: l.child_text(c, "concurrency"),
            execution: l.child_text(c, "execution"),
            throttle: l.child_text(c, "throttle"),
        })
        .unwrap_or_default();
    let (includes, datasets) = match root.child("datasets") {
        Some(d) => datasets(&mut l, d, FileRef::App, true),
        None => (Vec::new(), Vec::new()),
    };
    let inputs = root
        .child("input-events")
        .map(|events| {
            events
                .children_named("data-in")
                .map(|d| data_in(&mut l, d))
                .collect()
        })
        .unwrap_or_default();
    let input_logic = root.child("input-logic").map(|logic| InputLogic {
        roots: logic
            .children
            .iter()
            .map(|c| logic_node(&mut l, c))
            .collect(),
        span: logic.name_span,
        element_span: logic.span,
    });
    let outputs = root
        .child("output-events")
        .map(|events| {
            events
                .children_named("data-out")
                .map(|d| DataOut {
                    name: name_of(d, "name"),
                    dataset: name_of(d, "dataset"),
                    instance: l.required_child(d, "instance"),
                    nocleanup: d
                        .attribute("nocleanup")
                        .map(|a| matches!(a.value.trim(), "true" | "1")),
                    span: d.name_span,
                })
                .collect()
        })
        .unwrap_or_default();
    let action = match root.child("action") {
        Some(a) => action(&mut l, a),
        None => Action {
            app_path: empty_at(root.name_span),
            configuration: Vec::new(),
            sla: None,
        },
    };
    let coordinator = Coordinator {
        version,
        name: l.required(root, "name"),
        name_span: root.name_span,
        frequency: l.required(root, "frequency"),
        start: l.required(root, "start"),
        end: l.required(root, "end"),
        timezone: l.required(root, "timezone"),
        parameters,
        controls,
        includes,
        datasets,
        inputs,
        input_logic,
        outputs,
        action,
    };
    (coordinator, l.problems)
}

/// Lowers a validated `<bundle-app>`.
pub(crate) fn bundle(root: &Element) -> (Bundle, Vec<Diagnostic>) {
    let mut l = Lowering {
        problems: Vec::new(),
    };
    let parameters = root
        .child("parameters")
        .map(|p| parameters(&mut l, p))
        .unwrap_or_default();
    let kick_off_time = root
        .child("controls")
        .and_then(|c| c.child("kick-off-time"))
        .map(|k| {
            // White space alone is kept: Oozie takes only an empty element
            // as no kick-off time (BundleSubmitXCommand:371), and fails to
            // parse a blank one.
            match k.text.iter().find(|p| !p.text.is_empty()) {
                Some(blank) if k.text.iter().all(|p| p.text.trim().is_empty()) => {
                    ElText::unparsed(Text {
                        value: blank.text.into(),
                        span: blank.span,
                        breaks: Vec::new(),
                    })
                }
                _ => l.el(k.text_trimmed()),
            }
        });
    let coordinators = root
        .children_named("coordinator")
        .map(|c| BundleCoordinator {
            name: l.required(c, "name"),
            critical: l.attribute(c, "critical"),
            enabled: l.attribute(c, "enabled"),
            app_path: l.required_child(c, "app-path"),
            configuration: c
                .child("configuration")
                .map(|conf| properties(&mut l, conf))
                .unwrap_or_default(),
        })
        .collect();
    let descriptions = root
        .child("parameters")
        .into_iter()
        .chain(
            root.children_named("coordinator")
                .filter_map(|c| c.child("configuration")),
        )
        .flat_map(|properties| properties.children_named("property"))
        .filter_map(|property| l.child_text(property, "description"))
        .collect();
    let bundle = Bundle {
        descriptions,
        name: l.required(root, "name"),
        name_span: root.name_span,
        parameters,
        kick_off_time,
        coordinators,
    };
    (bundle, l.problems)
}

/// The `<include>`s and `<dataset>`s of a `<datasets>` element. In an included
/// file (`embedded` false) Oozie reads `<dataset>` children by local name in no
/// namespace, so a namespaced include file contributes none
/// (CoordSubmitXCommand.java:1143-1144 at release-5.2.1).
fn datasets(
    l: &mut Lowering,
    element: &Element,
    file: FileRef,
    embedded: bool,
) -> (Vec<ElText>, Vec<Dataset>) {
    let includes = element
        .children_named("include")
        .map(|i| l.el(i.text_trimmed()))
        .collect();
    let datasets = element
        .children_named("dataset")
        .filter(|d| embedded || d.namespace.is_none())
        .map(|d| {
            // An embedded dataset without one fails the schema; an included
            // file is not validated, and Oozie's copy of each of its datasets
            // calls `getChild("uri-template").setNamespace(...)`: a
            // NullPointerException, which submission reports as E0803
            // (CoordSubmitXCommand.java:1153 and 266-270 at release-5.2.1).
            if !embedded && d.child("uri-template").is_none() {
                l.problems.push(missing_uri_template(d));
            }
            Dataset {
                name: name_of(d, "name"),
                frequency: l.required(d, "frequency"),
                initial_instance: l.required(d, "initial-instance"),
                timezone: l.required(d, "timezone"),
                uri_template: l.required_child(d, "uri-template"),
                done_flag: l.child_text(d, "done-flag"),
                file,
                span: d.name_span,
            }
        })
        .collect();
    (includes, datasets)
}

fn missing_uri_template(dataset: &Element) -> Diagnostic {
    let named = match dataset.attribute("name") {
        Some(name) => format!("dataset `{}`", name.value),
        None => "this dataset".to_string(),
    };
    Diagnostic::error(
        DATASET_NO_URI_TEMPLATE,
        dataset.name_span,
        format!("{named} has no `<uri-template>`: Oozie fails the submission of every coordinator that includes this file (E0803)"),
    )
    .with_help("add the dataset's `<uri-template>` (before its `<done-flag>`, if it has one): the coordinator schema requires one in every dataset, though nothing validates an included file against it")
}

/// Lowers a `<datasets>` file: `file`, an included one, or the application
/// checked when it is checked on its own.
pub(crate) fn dataset_file(
    root: &Element,
    file: FileRef,
) -> (Vec<ElText>, Vec<Dataset>, Vec<Diagnostic>) {
    let mut l = Lowering {
        problems: Vec::new(),
    };
    let (includes, datasets) = datasets(&mut l, root, file, false);
    (includes, datasets, l.problems)
}

fn data_in(l: &mut Lowering, element: &Element) -> DataIn {
    let instances = match (
        element.child("start-instance"),
        element.child("end-instance"),
    ) {
        (Some(start), Some(end)) => Instances::Range {
            start: l.el(start.text_trimmed()),
            end: l.el(end.text_trimmed()),
        },
        _ => Instances::List(
            element
                .children_named("instance")
                .map(|i| l.el(i.text_trimmed()))
                .collect(),
        ),
    };
    DataIn {
        name: name_of(element, "name"),
        dataset: name_of(element, "dataset"),
        instances,
        span: element.name_span,
    }
}

fn logic_node(l: &mut Lowering, element: &Element) -> Logic {
    let options = LogicOptions {
        name: element.attribute("name").map(|a| Name {
            name: a.value.to_string(),
            span: a.value_span,
        }),
        min: l.attribute(element, "min"),
        wait: l.attribute(element, "wait"),
    };
    let node = |l: &mut Lowering, options| LogicNode {
        options,
        children: element.children.iter().map(|c| logic_node(l, c)).collect(),
        span: element.name_span,
    };
    match element.name {
        "and" => Logic::And(node(l, options)),
        "or" => Logic::Or(node(l, options)),
        "combine" => Logic::Combine(node(l, options)),
        _ => Logic::DataIn {
            data_in: name_of(element, "dataset"),
            options,
        },
    }
}

fn action(l: &mut Lowering, element: &Element) -> Action {
    let workflow = element.child("workflow");
    let app_path = match workflow {
        Some(w) => l.required_child(w, "app-path"),
        None => empty_at(element.name_span),
    };
    let configuration = workflow
        .and_then(|w| w.child("configuration"))
        .map(|c| properties(l, c))
        .unwrap_or_default();
    Action {
        app_path,
        configuration,
        sla: sla(l, element),
    }
}

/// The `<sla:info>` child of `element` (a coordinator's or workflow's
/// action, or a workflow), each field's name and text.
fn sla(l: &mut Lowering, element: &Element) -> Option<Sla> {
    element
        .children
        .iter()
        .find(|c| c.name == "info" && c.namespace.is_some_and(|n| n.starts_with("uri:oozie:sla:")))
        .map(|info| Sla {
            namespace: info.namespace.unwrap_or_default().to_string(),
            fields: info
                .children
                .iter()
                .map(|f| {
                    (
                        Name {
                            name: f.name.to_string(),
                            span: f.name_span,
                        },
                        l.el(f.text_trimmed()),
                    )
                })
                .collect(),
        })
}

/// Lowers a validated `<workflow-app>`.
pub fn workflow(root: &Element) -> (Workflow, Vec<Diagnostic>) {
    let mut l = Lowering {
        problems: Vec::new(),
    };
    let version = schema_version(root, "uri:oozie:workflow:");
    let parameters = root
        .child("parameters")
        .map(|p| parameters(&mut l, p))
        .unwrap_or_default();
    let global = root.child("global").map(|g| action_body(&mut l, g));
    let credentials = root.child("credentials").map(|c| {
        c.children_named("credential")
            .map(|cred| Credential {
                name: name_of(cred, "name"),
                kind: name_of(cred, "type"),
                properties: properties(&mut l, cred),
            })
            .collect()
    });
    let mut nodes = Vec::new();
    for element in root.children {
        let kind = match element.name {
            "decision" => {
                let switch = element.child("switch");
                let cases = switch
                    .map(|s| {
                        s.children_named("case")
                            .map(|c| (l.el(c.text_trimmed()), name_of(c, "to")))
                            .collect()
                    })
                    .unwrap_or_default();
                let default = switch
                    .and_then(|s| s.child("default"))
                    .map_or_else(|| name_of(element, "to"), |d| name_of(d, "to"));
                NodeKind::Decision { cases, default }
            }
            "fork" => NodeKind::Fork {
                paths: element
                    .children_named("path")
                    .map(|p| name_of(p, "start"))
                    .collect(),
            },
            "join" => NodeKind::Join {
                to: name_of(element, "to"),
            },
            "kill" => NodeKind::Kill {
                message: l.required_child(element, "message"),
            },
            "action" => {
                let body = element
                    .children
                    .iter()
                    .find(|c| !matches!(c.name, "ok" | "error" | "info"));
                let transition = |name: &str| {
                    element
                        .child(name)
                        .map_or_else(|| name_of(element, name), |t| name_of(t, "to"))
                };
                let attributes = ["cred", "retry-max", "retry-interval", "retry-policy"]
                    .iter()
                    .filter_map(|a| {
                        let attribute = element.attribute(a)?;
                        let name = Name {
                            name: (*a).to_string(),
                            span: attribute.name_span,
                        };
                        Some((name, l.el(attribute.text())))
                    })
                    .collect();
                NodeKind::Action(Box::new(WorkflowAction {
                    kind: body.map_or_else(
                        || Name {
                            name: String::new(),
                            span: element.name_span,
                        },
                        |b| Name {
                            name: b.name.to_string(),
                            span: b.name_span,
                        },
                    ),
                    namespace: body.and_then(|b| b.namespace.map(str::to_string)),
                    body: body.map(|b| action_body(&mut l, b)).unwrap_or_default(),
                    ok: transition("ok"),
                    error: transition("error"),
                    attributes,
                    sla: sla(&mut l, element),
                }))
            }
            _ => continue,
        };
        nodes.push(Node {
            name: name_of(element, "name"),
            kind,
            span: element.name_span,
        });
    }
    let start = root
        .child("start")
        .map_or_else(|| name_of(root, "start"), |s| name_of(s, "to"));
    let end = root
        .child("end")
        .map_or_else(|| name_of(root, "end"), |e| name_of(e, "name"));
    let workflow = Workflow {
        version,
        name: l.required(root, "name"),
        name_span: root.name_span,
        parameters,
        global,
        credentials,
        start,
        nodes,
        end,
        sla: sla(&mut l, root),
    };
    (workflow, l.problems)
}

fn parameters(l: &mut Lowering, element: &Element) -> Vec<Parameter> {
    element
        .children_named("property")
        .map(|prop| Parameter {
            name: prop.child("name").map_or_else(
                || name_of(prop, "name"),
                |n| {
                    let t = n.text_trimmed();
                    // An empty name (E0739) is pointed at by its element.
                    let span = if t.value.is_empty() {
                        n.name_span
                    } else {
                        t.span
                    };
                    Name {
                        name: t.value.into_owned(),
                        span,
                    }
                },
            ),
            default: l.child_text(prop, "value"),
        })
        .collect()
}

fn properties(l: &mut Lowering, element: &Element) -> Vec<ConfigProperty> {
    element
        .children_named("property")
        .map(|p| ConfigProperty {
            name: l.required_child(p, "name"),
            value: l.required_child(p, "value"),
        })
        .collect()
}

/// The configuration and the other values of an action element, nested
/// elements (`<prepare>`, `<streaming>`) flattened.
fn action_body(l: &mut Lowering, element: &Element) -> ActionBody {
    let mut body = ActionBody {
        elements: element
            .children
            .iter()
            .map(|c| Name {
                name: c.name.to_string(),
                span: c.name_span,
            })
            .collect(),
        ..ActionBody::default()
    };
    collect_values(l, element, &mut body);
    body
}

fn collect_values(l: &mut Lowering, element: &Element, body: &mut ActionBody) {
    for child in element.children {
        if child.name == "configuration" {
            body.configuration.extend(properties(l, child));
            continue;
        }
        for attribute in child.attributes {
            let name = Name {
                name: format!("{}@{}", child.name, attribute.name),
                span: attribute.name_span,
            };
            body.values.push((name, l.el(attribute.text())));
        }
        if child.children.is_empty() && !child.text.is_empty() {
            let name = Name {
                name: child.name.to_string(),
                span: child.name_span,
            };
            body.values.push((name, l.el(child.text_trimmed())));
        } else {
            collect_values(l, child, body);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xml::{Arena, parse, validate};

    #[test]
    fn lowers_a_coordinator_with_spans_and_el() {
        let src = r#"<coordinator-app name="app" frequency="${coord:days(1)}" start="2009-01-01T08:00Z" end="2009-01-03T08:00Z" timezone="UTC" xmlns="uri:oozie:coordinator:0.4">
  <parameters><property><name>market</name><value>us</value></property></parameters>
  <datasets>
    <include>hdfs://nn/app/datasets.xml</include>
    <dataset name="logs" frequency="${coord:hours(1)}" initial-instance="2009-01-01T00:00Z" timezone="UTC">
      <uri-template>
         hdfs://bar/${market}/${YEAR}/${MONTH}
      </uri-template>
    </dataset>
  </datasets>
  <input-events>
    <data-in name="input" dataset="logs"><start-instance>${coord:current(-23)}</start-instance><end-instance>${coord:current(0)}</end-instance></data-in>
  </input-events>
  <output-events><data-out name="output" dataset="logs" nocleanup="true"><instance>${coord:current(0)}</instance></data-out></output-events>
  <action><workflow><app-path>hdfs://bar/wf</app-path>
    <configuration><property><name>wfInput</name><value>${coord:dataIn('input') &amp;&amp; x}</value></property></configuration>
  </workflow></action>
</coordinator-app>"#;
        let arena = Arena::new();
        let doc = parse(src, &arena).unwrap();
        assert!(validate(&doc).is_empty());
        let (app, problems) = coordinator(&doc.root);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(app.version, "0.4");
        assert_eq!(app.parameters[0].name.name, "market");
        assert_eq!(app.includes[0].text(), "hdfs://nn/app/datasets.xml");
        let logs = &app.datasets[0];
        assert_eq!(
            logs.uri_template.text(),
            "hdfs://bar/${market}/${YEAR}/${MONTH}"
        );
        assert_eq!(
            &src[logs.uri_template.span.range()],
            "hdfs://bar/${market}/${YEAR}/${MONTH}"
        );
        assert!(matches!(app.inputs[0].instances, Instances::Range { .. }));
        assert_eq!(app.outputs[0].nocleanup, Some(true));
        // EL inside escaped text points at the value's text, and through the
        // value at the file: `x` sits after two `&amp;`.
        let value = &app.action.configuration[0].value;
        assert_eq!(value.text(), "${coord:dataIn('input') && x}");
        let crate::el::ast::Part::Block { expr, .. } = &value.template().parts[0] else {
            panic!("one block")
        };
        let crate::el::ast::ExprKind::Binary(b) = &expr.kind else {
            panic!("&&")
        };
        let x = b.rest[0].2.span;
        assert_eq!(&value.text()[x.range()], "x");
        assert_eq!(&src[value.file_span(x).range()], "x");
    }

    #[test]
    fn lowers_a_workflow_graph_with_its_values() {
        // Workflow spec §3.1.4-3.1.5 (decision, fork and join), completed.
        let src = r#"<workflow-app name="sample-wf" xmlns="uri:oozie:workflow:0.5">
  <global><job-tracker>foo:8021</job-tracker></global>
  <start to="mydecision"/>
  <decision name="mydecision">
    <switch>
      <case to="forking">${fs:fileSize(secondjobOutputDir) gt 10 * GB}</case>
      <default to="end"/>
    </switch>
  </decision>
  <fork name="forking"><path start="first"/><path start="second"/></fork>
  <action name="first" retry-max="2">
    <map-reduce><name-node>bar:8020</name-node><prepare><delete path="${out}"/></prepare>
      <configuration><property><name>mapred.input.dir</name><value>${input}</value></property></configuration>
    </map-reduce>
    <ok to="joining"/><error to="kill"/>
  </action>
  <action name="second">
    <shell xmlns="uri:oozie:shell-action:0.3"><exec>run.sh</exec><argument>a</argument></shell>
    <ok to="joining"/><error to="kill"/>
  </action>
  <join name="joining" to="end"/>
  <kill name="kill"><message>failed: ${wf:errorMessage(wf:lastErrorNode())}</message></kill>
  <end name="end"/>
</workflow-app>"#;
        let arena = Arena::new();
        let doc = parse(src, &arena).unwrap();
        assert!(validate(&doc).is_empty(), "{:?}", validate(&doc));
        let (wf, problems) = workflow(&doc.root);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(
            (
                wf.version.as_str(),
                wf.start.name.as_str(),
                wf.end.name.as_str()
            ),
            ("0.5", "mydecision", "end")
        );
        let names: Vec<&str> = wf.nodes.iter().map(|n| n.name.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "mydecision",
                "forking",
                "first",
                "second",
                "joining",
                "kill"
            ]
        );
        let NodeKind::Decision { cases, default } = &wf.nodes[0].kind else {
            panic!("a decision")
        };
        assert_eq!(
            (cases[0].1.name.as_str(), default.name.as_str()),
            ("forking", "end")
        );
        let NodeKind::Action(first) = &wf.nodes[2].kind else {
            panic!("an action")
        };
        assert_eq!(
            (
                first.kind.name.as_str(),
                first.ok.name.as_str(),
                first.error.name.as_str()
            ),
            ("map-reduce", "joining", "kill")
        );
        let values: Vec<(&str, &str)> = first
            .body
            .values
            .iter()
            .map(|(n, v)| (n.name.as_str(), v.text()))
            .collect();
        assert_eq!(
            values,
            [("name-node", "bar:8020"), ("delete@path", "${out}")]
        );
        assert_eq!(first.body.configuration[0].value.text(), "${input}");
        assert_eq!(first.attributes[0].0.name, "retry-max");
        let NodeKind::Action(second) = &wf.nodes[3].kind else {
            panic!("an action")
        };
        assert_eq!(
            second.namespace.as_deref(),
            Some("uri:oozie:shell-action:0.3")
        );
        assert_eq!(second.body.values.len(), 2);
        assert_eq!(wf.global.as_ref().unwrap().values[0].1.text(), "foo:8021");
    }

    #[test]
    fn el_that_does_not_parse_is_reported_and_lowering_goes_on() {
        let src = r#"<coordinator-app name="app" frequency="${coord:days(1)" start="2009-01-01T08:00Z" end="2009-01-03T08:00Z" timezone="UTC" xmlns="uri:oozie:coordinator:0.1">
  <action><workflow><app-path>${x y}</app-path></workflow></action>
</coordinator-app>"#;
        let arena = Arena::new();
        let doc = parse(src, &arena).unwrap();
        let (app, problems) = coordinator(&doc.root);
        assert_eq!(problems.len(), 2);
        let frequency = src.find("${coord:days(1)").unwrap();
        let app_path = src.find("${x y}").unwrap();
        let mut at: Vec<usize> = problems.iter().map(|p| p.span.start as usize).collect();
        at.sort();
        assert!(at[0] > frequency && at[0] <= frequency + 15, "{at:?}");
        assert!(at[1] > app_path && at[1] <= app_path + 6, "{at:?}");
        assert_eq!(app.start.text(), "2009-01-01T08:00Z");
    }
}
