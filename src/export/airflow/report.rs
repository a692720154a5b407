//! The export report: for each application, what maps exactly, what maps
//! with a difference, and what is refused, each with why and its place.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Airflow does what Oozie does (proved by `--verify` where it computes).
    Exact,
    /// Exported, with the difference the item says.
    Mapped,
    /// Not exported: the DAG fails loudly where it would be.
    Refused,
}

impl Status {
    fn label(self) -> &'static str {
        match self {
            Status::Exact => "exact",
            Status::Mapped => "mapped",
            Status::Refused => "refused",
        }
    }
}

/// A place in an application file, 1-based.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Place {
    pub file: String,
    pub line: usize,
    pub column: usize,
}

impl Place {
    /// Where `span` is in `file`, the first of `sources` (an application's
    /// own file, or a workflow read for its tasks).
    pub(super) fn of(
        file: &str,
        sources: &crate::project::load::Sources,
        span: crate::span::Span,
    ) -> Place {
        let (line, column) = sources.line_column(0, span.start as usize);
        Place {
            file: file.to_string(),
            line,
            column,
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Item {
    pub status: Status,
    /// What of the application: `schedule`, `data-in input`, `action load`...
    pub what: String,
    /// How it maps, or why it does not.
    pub detail: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<Place>,
}

/// One coordinator's export.
#[derive(Debug, Clone, Serialize)]
pub struct AppReport {
    /// The coordinator file, as given.
    pub app: String,
    /// In a bundle, the bundle file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bundle: Option<String>,
    pub dag_id: String,
    /// The DAG file written, relative to the output folder.
    pub dag_file: String,
    pub items: Vec<Item>,
}

impl AppReport {
    pub fn refused(&self) -> usize {
        self.items
            .iter()
            .filter(|i| i.status == Status::Refused)
            .count()
    }

    pub(super) fn push(
        &mut self,
        status: Status,
        what: impl Into<String>,
        detail: impl Into<String>,
    ) {
        self.items.push(Item {
            status,
            what: what.into(),
            detail: detail.into(),
            at: None,
        });
    }

    pub(super) fn push_at(
        &mut self,
        status: Status,
        what: impl Into<String>,
        detail: impl Into<String>,
        at: Place,
    ) {
        self.items.push(Item {
            status,
            what: what.into(),
            detail: detail.into(),
            at: Some(at),
        });
    }

    /// The report as text: a heading, then a line per item (refused ones
    /// as `file:line:column: refused ...`, as compilers point).
    pub fn text(&self) -> String {
        let mut out = format!("{} -> {} (DAG {})\n", self.app, self.dag_file, self.dag_id);
        if let Some(bundle) = &self.bundle {
            out = format!("{bundle}: {out}");
        }
        for item in &self.items {
            let place = item
                .at
                .as_ref()
                .map(|p| format!("{}:{}:{}: ", p.file, p.line, p.column))
                .unwrap_or_default();
            out.push_str(&format!(
                "  {:<8} {place}{}: {}\n",
                item.status.label(),
                item.what,
                item.detail
            ));
        }
        out
    }

    /// The items with a difference or refused, for the DAG's own doc.
    pub(super) fn notes(&self) -> impl Iterator<Item = &Item> {
        self.items.iter().filter(|i| i.status != Status::Exact)
    }
}
