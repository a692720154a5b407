//! The typed model of Oozie applications. Every value keeps the text it was
//! written as, its span in the file, and its parsed EL, so any later stage
//! (dry run, checks, an editor) can evaluate it and point at it. `lower.rs`
//! builds the model from a validated XML tree and is the only code that looks
//! at XML.

pub mod lower;

use crate::diag::{Diagnostic, FileRef};
use crate::el::ast::{ExprKind, Part, Template};
use crate::el::parse::literal_template;
use crate::el::shared::{Shared, parse_template_shared};
use crate::span::Span;
use crate::xml::tree::{Text, file_offset};
use std::sync::Arc;

/// A text value of the application: attribute value or element text.
#[derive(Debug, Clone)]
pub struct ElText {
    /// The decoded text (entities replaced, trimmed where Oozie trims) and
    /// its parsed EL, shared by every value with the same text: the tree's
    /// spans are offsets in the text, which [`ElText::file_span`] and
    /// [`ElText::in_file`] map into the file. When the EL does not parse
    /// (`parsed` false; the lowering reported why), the tree is the text as
    /// written.
    shared: Arc<Shared>,
    pub span: Span,
    /// Where entities (or pieces) make the value and the file stop moving
    /// together ([`Text::breaks`]); empty for most values.
    pub breaks: Vec<(u32, u32)>,
    pub parsed: bool,
}

impl ElText {
    /// The decoded text, trimmed where Oozie trims.
    pub fn text(&self) -> &str {
        &self.shared.text
    }

    /// The parsed EL (spans relative to [`ElText::text`]).
    pub fn template(&self) -> &Template {
        &self.shared.template
    }

    /// The text and its parsed EL with what is found in them, shared by
    /// every value with the same text.
    pub(crate) fn shared(&self) -> &Shared {
        &self.shared
    }

    /// Where `at`, a span of the value's text (as the template's spans
    /// are), is in the file.
    pub(crate) fn file_span(&self, at: Span) -> Span {
        at.map(|offset| self.file_offset(offset))
    }

    /// `d`, made on the value's text (by evaluating or checking its
    /// template), pointed into the file.
    pub(crate) fn in_file(&self, d: Diagnostic) -> Diagnostic {
        d.map_spans(|offset| self.file_offset(offset))
    }

    fn file_offset(&self, offset: u32) -> u32 {
        file_offset(self.span.start, &self.breaks, offset)
    }

    /// Where the value is written in the file as it is (no EL, no entity,
    /// nothing trimmed): the span an edit of the whole value replaces.
    pub(crate) fn literal_span(&self) -> Option<Span> {
        let plain = self.template().plain_text().is_some();
        let whole = self.span.range().len() == self.text().len();
        (self.parsed && plain && self.breaks.is_empty() && whole).then_some(self.span)
    }

    /// Whether the EL calls a function with one of `names` (any namespace).
    pub(crate) fn calls_any(&self, names: &[&str]) -> bool {
        self.shared
            .called()
            .iter()
            .any(|name| names.contains(&name.as_str()))
    }

    /// `n` when the value is exactly `${coord:current(n)}` with a literal `n`.
    pub(crate) fn literal_current(&self) -> Option<i64> {
        let [Part::Block { expr, .. }] = self.template().parts.as_slice() else {
            return None;
        };
        let ExprKind::Call(call) = &expr.kind else {
            return None;
        };
        let [arg] = call.args.as_slice() else {
            return None;
        };
        if call.namespace.as_deref() != Some("coord") || call.name != "current" {
            return None;
        }
        arg.literal_long()
    }

    /// Parses `text`'s EL; on failure, the diagnostic (in the file) and
    /// `text` back.
    pub(crate) fn parse(text: Text<'_>) -> Result<ElText, Box<(Diagnostic, Text<'_>)>> {
        match parse_template_shared(&text.value) {
            Ok(shared) => Ok(ElText {
                shared,
                span: text.span,
                breaks: text.breaks,
                parsed: true,
            }),
            Err(d) => {
                let d = d.map_spans(|offset| text.source_offset(offset as usize) as u32);
                Err(Box::new((d, text)))
            }
        }
    }

    /// `text` as written, its EL unread: for a value whose EL does not parse.
    pub(crate) fn unparsed(text: Text) -> ElText {
        ElText {
            shared: Shared::new(&text.value, literal_template(&text.value, 0)),
            span: text.span,
            breaks: text.breaks,
            parsed: false,
        }
    }

    /// An empty value at `at`: what stands in for a required value that is
    /// absent (validation reported it).
    pub(crate) fn empty(at: Span) -> ElText {
        ElText {
            shared: Shared::new("", literal_template("", 0)),
            span: at,
            breaks: Vec::new(),
            parsed: true,
        }
    }
}

/// A name (dataset, data-in, property) with where it is written.
#[derive(Debug, Clone, PartialEq)]
pub struct Name {
    pub name: String,
    pub span: Span,
}

/// A coordinator application (spec §6).
#[derive(Debug)]
pub struct Coordinator {
    /// The schema version, `0.1` to `0.5`.
    pub version: String,
    /// The `name` attribute as written (Oozie's `coord:name()` returns it raw).
    pub name: ElText,
    pub name_span: Span,
    pub frequency: ElText,
    pub start: ElText,
    pub end: ElText,
    pub timezone: ElText,
    pub parameters: Vec<Parameter>,
    pub controls: Controls,
    pub includes: Vec<ElText>,
    pub datasets: Vec<Dataset>,
    pub inputs: Vec<DataIn>,
    pub input_logic: Option<InputLogic>,
    pub outputs: Vec<DataOut>,
    pub action: Action,
}

/// A bundle application (coordinator spec §Bundle; Oozie's bundle schema
/// 0.1/0.2): the coordinators it submits together.
#[derive(Debug)]
pub(crate) struct Bundle {
    pub name: ElText,
    pub name_span: Span,
    /// `<parameters>` (0.2 only).
    pub parameters: Vec<Parameter>,
    /// `<controls><kick-off-time>`: when Oozie submits the coordinators.
    pub kick_off_time: Option<ElText>,
    pub coordinators: Vec<BundleCoordinator>,
    /// The `<description>`s of its properties: Oozie evaluates the whole
    /// definition, these too, though nothing reads them.
    pub descriptions: Vec<ElText>,
}

/// A bundle's `<coordinator>`: the application it submits and the
/// configuration it adds to the bundle's.
#[derive(Debug)]
pub(crate) struct BundleCoordinator {
    pub name: ElText,
    pub critical: Option<ElText>,
    /// `enabled` (0.2): the coordinator is skipped unless it reads `true`.
    pub enabled: Option<ElText>,
    pub app_path: ElText,
    pub configuration: Vec<ConfigProperty>,
}

impl Bundle {
    /// Every value of the bundle that Oozie evaluates as EL: at submission
    /// the whole definition goes through the `bundle-submit` evaluator.
    pub(crate) fn texts(&self) -> Vec<&ElText> {
        let mut texts = vec![&self.name];
        texts.extend(self.parameters.iter().filter_map(|p| p.default.as_ref()));
        texts.extend(self.kick_off_time.iter());
        for c in &self.coordinators {
            texts.push(&c.name);
            texts.extend(c.critical.iter().chain(c.enabled.iter()));
            texts.push(&c.app_path);
            texts.extend(c.configuration.iter().flat_map(|p| [&p.name, &p.value]));
        }
        texts.extend(self.descriptions.iter());
        texts
    }
}

/// A `<parameters>` property: a default, or (without `<value>`) a required name.
#[derive(Debug)]
pub struct Parameter {
    pub name: Name,
    pub default: Option<ElText>,
}

#[derive(Debug, Default)]
pub struct Controls {
    pub timeout: Option<ElText>,
    pub concurrency: Option<ElText>,
    pub execution: Option<ElText>,
    pub throttle: Option<ElText>,
}

#[derive(Debug, Clone)]
pub struct Dataset {
    pub name: Name,
    pub frequency: ElText,
    pub initial_instance: ElText,
    pub timezone: ElText,
    pub uri_template: ElText,
    /// `None`: the default `_SUCCESS`; `Some` with empty text: the directory itself.
    pub done_flag: Option<ElText>,
    /// The file it was read from: the application itself, or an included
    /// file.
    pub file: FileRef,
    pub span: Span,
}

#[derive(Debug)]
pub struct DataIn {
    pub name: Name,
    pub dataset: Name,
    pub instances: Instances,
    pub span: Span,
}

#[derive(Debug)]
pub enum Instances {
    /// `<instance>` elements, in document order.
    List(Vec<ElText>),
    Range {
        start: ElText,
        end: ElText,
    },
}

#[derive(Debug)]
pub struct DataOut {
    pub name: Name,
    pub dataset: Name,
    pub instance: ElText,
    pub nocleanup: Option<bool>,
    pub span: Span,
}

/// `<input-logic>` (schema 0.5): its top-level nodes (one, in any app Oozie
/// can run; see `oozie::input_logic`).
#[derive(Debug)]
pub struct InputLogic {
    pub roots: Vec<Logic>,
    /// The element's name.
    pub span: Span,
    /// The whole element, as written (an export copies it).
    pub element_span: Span,
}

/// An `<input-logic>` node.
#[derive(Debug)]
pub enum Logic {
    And(LogicNode),
    Or(LogicNode),
    Combine(LogicNode),
    DataIn {
        /// The data-in event it reads (Oozie's `input("X")`).
        data_in: Name,
        options: LogicOptions,
    },
}

#[derive(Debug)]
pub struct LogicNode {
    pub options: LogicOptions,
    pub children: Vec<Logic>,
    pub span: Span,
}

#[derive(Debug, Default)]
pub struct LogicOptions {
    pub name: Option<Name>,
    pub min: Option<ElText>,
    pub wait: Option<ElText>,
}

#[derive(Debug)]
pub struct Action {
    pub app_path: ElText,
    pub configuration: Vec<ConfigProperty>,
    pub sla: Option<Sla>,
}

#[derive(Debug)]
pub struct ConfigProperty {
    pub name: ElText,
    pub value: ElText,
}

/// `<sla:info>`: each child element's name and text.
#[derive(Debug)]
pub struct Sla {
    pub namespace: String,
    pub fields: Vec<(Name, ElText)>,
}

/// A workflow application (workflow spec §3-§4): control and action nodes with
/// their transitions.
#[derive(Debug)]
pub struct Workflow {
    /// The schema version, `0.1` to `0.5`.
    pub version: String,
    pub name: ElText,
    pub name_span: Span,
    pub parameters: Vec<Parameter>,
    /// `<global>`: defaults every action inherits.
    pub global: Option<ActionBody>,
    /// `<credentials>`: `None` without the element (Oozie tells the two
    /// apart: JavaActionExecutor.getCredProperties).
    pub credentials: Option<Vec<Credential>>,
    /// `<start to="...">`.
    pub start: Name,
    /// Decision, fork, join, kill and action nodes, in document order.
    pub nodes: Vec<Node>,
    /// The `<end>` node's name.
    pub end: Name,
    /// The workflow's `<sla:info>` (schema 0.5+).
    pub sla: Option<Sla>,
}

impl Workflow {
    /// Every value of the workflow that Oozie evaluates as EL.
    pub(crate) fn texts(&self) -> Vec<&ElText> {
        fn body(b: &ActionBody) -> Vec<&ElText> {
            b.configuration
                .iter()
                .flat_map(|p| [&p.name, &p.value])
                .chain(b.values.iter().map(|(_, v)| v))
                .collect()
        }
        let mut texts = vec![&self.name];
        texts.extend(self.parameters.iter().filter_map(|p| p.default.as_ref()));
        texts.extend(self.global.iter().flat_map(body));
        texts.extend(
            self.credentials
                .iter()
                .flatten()
                .flat_map(|c| &c.properties)
                .flat_map(|p| [&p.name, &p.value]),
        );
        for node in &self.nodes {
            match &node.kind {
                NodeKind::Decision { cases, .. } => texts.extend(cases.iter().map(|(t, _)| t)),
                NodeKind::Kill { message } => texts.push(message),
                NodeKind::Action(action) => {
                    texts.extend(body(&action.body));
                    texts.extend(action.attributes.iter().map(|(_, v)| v));
                }
                NodeKind::Fork { .. } | NodeKind::Join { .. } => {}
            }
        }
        texts
    }
}

#[derive(Debug)]
pub struct Credential {
    pub name: Name,
    pub kind: Name,
    pub properties: Vec<ConfigProperty>,
}

#[derive(Debug)]
pub struct Node {
    pub name: Name,
    pub kind: NodeKind,
    pub span: Span,
}

#[derive(Debug)]
pub enum NodeKind {
    /// `<switch>`: each case's predicate and target, then the default target.
    Decision {
        cases: Vec<(ElText, Name)>,
        default: Name,
    },
    Fork {
        paths: Vec<Name>,
    },
    Join {
        to: Name,
    },
    Kill {
        message: ElText,
    },
    Action(Box<WorkflowAction>),
}

#[derive(Debug)]
pub struct WorkflowAction {
    /// The action element: `map-reduce`, `pig`, `fs`, `java`, `sub-workflow`, or
    /// an extension such as `shell`, with its namespace.
    pub kind: Name,
    pub namespace: Option<String>,
    pub body: ActionBody,
    pub ok: Name,
    pub error: Name,
    /// `cred`, `retry-max`, `retry-interval`, `retry-policy` attributes.
    pub attributes: Vec<(Name, ElText)>,
    /// The action's `<sla:info>`.
    pub sla: Option<Sla>,
}

/// What an action (or `<global>`) holds: its configuration, and every other
/// child element with text (`job-tracker`, `script`, `arg`...) in order, with
/// the attributes of the empty ones (`<delete path="..."/>`) as `element@attribute`.
#[derive(Debug, Default)]
pub struct ActionBody {
    /// The element's own children, in order (`streaming`, `env-var`...),
    /// each with the span of its name.
    pub elements: Vec<Name>,
    pub configuration: Vec<ConfigProperty>,
    pub values: Vec<(Name, ElText)>,
}
