//! Diagnostics as data: a code, a severity, a primary span, labels, places
//! in other files and help.
//! `render` draws one for a terminal; the other forms (JSON, SARIF, GitHub,
//! LSP) are made at the edge, in `cli/` and `lsp/`.

pub mod fixes;
pub mod render;
pub mod rules;

use crate::span::Span;
use fixes::FixKind;
use rules::Code;
use serde::Serialize;

/// The candidate closest to `name`, if it is close enough to be a likely
/// typo: the one did-you-mean of every check (functions, variables,
/// elements, attributes, dataset, event, node and zone names, rules).
pub(crate) fn closest<S: AsRef<str>>(
    name: &str,
    candidates: impl IntoIterator<Item = S>,
) -> Option<String> {
    closest_at(name, candidates, LIKELY_TYPO)
}

/// How alike (Jaro-Winkler, case ignored) a candidate must be to be
/// suggested.
const LIKELY_TYPO: f64 = 0.85;

/// [`closest`], with a stricter or looser bar than [`LIKELY_TYPO`] (a time
/// zone ID, whose many candidates share long prefixes, asks more).
pub(crate) fn closest_at<S: AsRef<str>>(
    name: &str,
    candidates: impl IntoIterator<Item = S>,
    min_score: f64,
) -> Option<String> {
    let name = name.to_lowercase();
    candidates
        .into_iter()
        .map(|c| {
            let score = strsim::jaro_winkler(&name, &c.as_ref().to_lowercase());
            (score, c)
        })
        .filter(|(score, _)| *score >= min_score)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c.as_ref().to_string())
}

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

/// A place in another file that explains the diagnostic (the other
/// application writing the same data): the file's name as the check read
/// it, a byte span into that file's text, and what it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Related {
    pub file: std::sync::Arc<str>,
    pub span: Span,
    pub message: String,
}

/// A diagnostic, one pointer wide: a `Result` that may hold one is then as
/// large as its value, not as the diagnostic, and such results are moved at
/// every return. Its fields ([`DiagnosticData`]) are read and written
/// through `Deref`.
#[derive(Clone, PartialEq)]
pub struct Diagnostic(Box<DiagnosticData>);

#[derive(Debug, Clone, PartialEq)]
pub struct DiagnosticData {
    /// A stable rule code from [`crate::diag::rules`], e.g. `EL001`.
    pub code: Code,
    pub severity: Severity,
    pub message: String,
    /// Where in the file; empty when the diagnostic is about the file as a
    /// whole (`whole_file`) or about the command line (`FileRef`).
    pub span: Span,
    /// About its file as a whole (a file that is not text, or too long to
    /// read): there is no place in it to show.
    pub whole_file: bool,
    /// Secondary places that explain the primary one.
    pub labels: Vec<Label>,
    /// Places in other files that explain it.
    pub related: Vec<Related>,
    /// How to fix it, when we know.
    pub help: Option<String>,
    /// The edit that fixes it, when there is one (`coordc check --fix`).
    pub fix: Option<Fix>,
}

/// A replacement of the text at `span` (in the diagnostic's file) that
/// makes the problem go away; its kind says whether it keeps what the
/// application does.
#[derive(Debug, Clone, PartialEq)]
pub struct Fix {
    pub span: Span,
    pub replacement: String,
    pub kind: FixKind,
}

impl Fix {
    pub(crate) fn safety(&self) -> Safety {
        self.kind.safety()
    }

    /// The edit in words, ``replace `OLD` with `NEW` `` (or ``insert `NEW` ``),
    /// `source` being the text of the diagnostic's file.
    pub(crate) fn describe(&self, source: &str) -> String {
        match source.get(self.span.range()) {
            Some("") => format!("insert `{}`", self.replacement),
            Some(old) if self.replacement.is_empty() => format!("remove `{}`", old.trim_end()),
            Some(old) => format!("replace `{old}` with `{}`", self.replacement),
            None => format!("write `{}`", self.replacement),
        }
    }
}

/// Whether a fix keeps what Oozie runs (ruff's applicability): `--fix`
/// applies the safe ones, `--unsafe-fixes` the others too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Safety {
    /// What Oozie runs and reads is unchanged.
    Safe,
    /// It changes what runs or what is read, or guesses what was meant.
    Unsafe,
}

impl Safety {
    pub fn name(self) -> &'static str {
        match self {
            Safety::Safe => "safe",
            Safety::Unsafe => "unsafe",
        }
    }
}

impl Diagnostic {
    pub(crate) fn error(code: Code, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(code, Severity::Error, span, message.into())
    }

    fn new(code: Code, severity: Severity, span: Span, message: String) -> Diagnostic {
        Diagnostic(Box::new(DiagnosticData {
            code,
            severity,
            message,
            span,
            whole_file: false,
            labels: Vec::new(),
            related: Vec::new(),
            help: None,
            fix: None,
        }))
    }

    pub(crate) fn warning(code: Code, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(code, Severity::Warning, span, message.into())
    }

    pub(crate) fn note(code: Code, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(code, Severity::Note, span, message.into())
    }

    /// A diagnostic about its file as a whole, not a place in it.
    pub(crate) fn about_whole_file(code: Code, message: impl Into<String>) -> Diagnostic {
        let mut d = Diagnostic::error(code, Span::EMPTY, message);
        d.whole_file = true;
        d
    }

    pub(crate) fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    /// The edit of `kind` (which declares its safety) that fixes it.
    pub(crate) fn with_fix(
        mut self,
        kind: FixKind,
        span: Span,
        replacement: impl Into<String>,
    ) -> Diagnostic {
        self.fix = Some(Fix {
            span,
            replacement: replacement.into(),
            kind,
        });
        self
    }

    pub(crate) fn with_label(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    pub(crate) fn with_related(
        mut self,
        file: std::sync::Arc<str>,
        span: Span,
        message: impl Into<String>,
    ) -> Diagnostic {
        self.related.push(Related {
            file,
            span,
            message: message.into(),
        });
        self
    }

    /// Every span in the diagnostic's file (the primary one and the
    /// labels', not the related places') moved through `map`: a diagnostic
    /// made on a value's own text, pointed into its file.
    pub(crate) fn map_spans(mut self, map: impl Fn(u32) -> u32) -> Diagnostic {
        self.span = self.span.map(&map);
        for label in &mut self.labels {
            label.span = label.span.map(&map);
        }
        if let Some(fix) = &mut self.fix {
            fix.span = fix.span.map(&map);
        }
        self
    }
}

/// The text a diagnostic is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FileRef {
    /// The application's own file (the first of the files a command read).
    App,
    /// Another file read for the application (an included dataset file, a
    /// job configuration file): its index among the files the command read.
    Read(usize),
    /// The command line (a `-D` definition): no file's text.
    CommandLine,
}

impl FileRef {
    /// Its index among the files a command read (the application is the
    /// first); none for the command line.
    pub(crate) fn index(self) -> Option<usize> {
        match self {
            FileRef::App => Some(0),
            FileRef::Read(index) => Some(index),
            FileRef::CommandLine => None,
        }
    }

    /// The order of the files' diagnostics in a report: the application,
    /// the files in the order they were read, then the command line.
    pub(crate) fn order(self) -> usize {
        self.index().unwrap_or(usize::MAX)
    }
}

/// A diagnostic and the text it is about.
#[derive(Debug, Clone)]
pub struct Located {
    pub file: FileRef,
    pub diagnostic: Diagnostic,
}

impl Located {
    /// A diagnostic in the application file itself.
    pub fn in_app(diagnostic: Diagnostic) -> Located {
        Located {
            file: FileRef::App,
            diagnostic,
        }
    }
}

impl std::ops::Deref for Diagnostic {
    type Target = DiagnosticData;
    fn deref(&self) -> &DiagnosticData {
        &self.0
    }
}

impl std::ops::DerefMut for Diagnostic {
    fn deref_mut(&mut self) -> &mut DiagnosticData {
        &mut self.0
    }
}

impl std::fmt::Debug for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // As the fields' own struct: snapshots show no box.
        let mut s = f.debug_struct("Diagnostic");
        s.field("code", &self.code)
            .field("severity", &self.severity)
            .field("message", &self.message)
            .field("span", &self.span)
            .field("labels", &self.labels)
            .field("help", &self.help);
        // (Only when there is one: snapshots of the rest stay as they were.)
        if let Some(fix) = &self.fix {
            s.field("fix", fix);
        }
        if !self.related.is_empty() {
            s.field("related", &self.related);
        }
        s.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closest_suggests_a_likely_typo_ignoring_case_and_nothing_far() {
        let names = ["nameNode", "jobTracker", "queueName"];
        assert_eq!(closest("namenode", names).as_deref(), Some("nameNode"));
        assert_eq!(closest("jobTrackr", names).as_deref(), Some("jobTracker"));
        assert_eq!(closest("outputDir", names), None);
        // A stricter bar turns down what the default accepts.
        assert_eq!(closest_at("jobTrackr", names, 0.99), None);
        assert_eq!(closest("x", Vec::<String>::new()), None);
    }
}
