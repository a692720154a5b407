//! Diagnostics as data: a code, a severity, a primary span, labels and help.
//! Rendering (terminal, JSON, SARIF, LSP) happens at the edge, in `cli/`.

use crate::span::Span;
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Note,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    /// A stable rule code from [`crate::check::rules`], e.g. `EL001`.
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    pub span: Span,
    /// Secondary places that explain the primary one.
    pub labels: Vec<Label>,
    /// How to fix it, when we know.
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn error(code: &'static str, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            severity: Severity::Error,
            message: message.into(),
            span,
            labels: Vec::new(),
            help: None,
        }
    }

    pub fn warning(code: &'static str, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, span, message)
        }
    }

    pub fn note(code: &'static str, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Note,
            ..Diagnostic::error(code, span, message)
        }
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    /// Every span (the primary one and the labels') moved through `map`: a
    /// diagnostic made on a value's own text, pointed into its file.
    pub fn map_spans(mut self, map: impl Fn(u32) -> u32) -> Diagnostic {
        self.span = self.span.map(&map);
        for label in &mut self.labels {
            label.span = label.span.map(&map);
        }
        self
    }
}
