//! The second phase of a dataset's uri-template: how the template as
//! submitted (job properties in, `${YEAR}`... kept) becomes the URI of one
//! instance, its fields in the processing zone (CoordCommandUtils.java:433-471).
//! Submission (`job.rs`) makes the [`SecondPhase`]; resolving an action
//! (`action/`) and the checks ask the [`Job`] for URIs and fields.

use crate::diag::Diagnostic;
use crate::el::ast::Template;
use crate::el::eval::Env;
use crate::el::library::Library;
use crate::el::parse::find_block;
use crate::el::{NoVariables, render_into};
use crate::oozie::datasets::JobDataset;
use crate::oozie::job::{Job, Layered};
use chrono::{DateTime, Datelike, Timelike, Utc};

/// A submitted uri-template, for its second phase.
pub(super) enum SecondPhase {
    /// Only text and `${YEAR}`-style fields, the common form: no evaluator.
    Fields(Vec<UriPiece>),
    /// Anything else, parsed (second-phase errors point at the start of the
    /// uri-template); boxed, the rarer and much larger form.
    Template(Box<Template>),
}

impl Job<'_> {
    /// The URI of the instance at `instance` of the dataset named `dataset`
    /// (as a data-in's or data-out's `dataset=` names it), through the
    /// uri-template's second phase; `None` when no data-in or data-out of the
    /// job reads such a dataset.
    pub(crate) fn instance_uri(
        &self,
        dataset: &str,
        instance: DateTime<Utc>,
    ) -> Option<Result<String, Diagnostic>> {
        self.datasets.get(dataset).map(|d| self.uri(d, instance))
    }

    /// Which instance fields (YEAR, MONTH, DAY, HOUR, MINUTE, in that
    /// order) the second phase of the uri-template of the dataset named
    /// `dataset` reads: an instance's URI is a function of them. Read from
    /// the template as submitted, so a field written to survive the first
    /// phase (`${"$"}{MONTH + 0}`) counts, and an echoed `${YEAR}` too.
    pub(crate) fn uri_fields(&self, dataset: &str) -> Option<[bool; 5]> {
        let mut read = [false; 5];
        let mut mark = |i: usize| {
            if let Some(r) = read.get_mut(i) {
                *r = true;
            }
        };
        match &self.datasets.get(dataset)?.uri {
            SecondPhase::Fields(pieces) => {
                for piece in pieces {
                    if let UriPiece::Field(i) = piece {
                        mark(usize::from(*i));
                    }
                }
            }
            SecondPhase::Template(template) => {
                for expr in template.exprs() {
                    expr.walk(&mut |e| {
                        if let crate::el::ast::ExprKind::Var(name) = &e.kind
                            && let Some(i) = FIELDS.iter().position(|f| **f == **name)
                        {
                            mark(i);
                        }
                    });
                }
            }
        }
        Some(read)
    }

    /// The second phase of the uri-template: the instance's fields, in the
    /// processing zone (CoordCommandUtils:433-471).
    pub(super) fn uri(&self, dataset: &JobDataset, t: DateTime<Utc>) -> Result<String, Diagnostic> {
        let local = match self.pz.offset_minutes {
            0 => t.naive_utc(),
            offset => t.naive_utc() + chrono::Duration::minutes(i64::from(offset)),
        };
        let template = match &dataset.uri {
            SecondPhase::Fields(pieces) => return Ok(fields_uri(pieces, local)),
            SecondPhase::Template(template) => template,
        };
        let fields = [
            ("YEAR", format!("{:04}", local.year())),
            ("MONTH", format!("{:02}", local.month())),
            ("DAY", format!("{:02}", local.day())),
            ("HOUR", format!("{:02}", local.hour())),
            ("MINUTE", format!("{:02}", local.minute())),
        ];
        let vars = Layered {
            first: &fields,
            base: &NoVariables,
        };
        let env = Env {
            vars: &vars,
            library: Library::Coordinator,
            context: None,
            processing_zone: self.pz,
        };
        let mut out = String::with_capacity(template.span.range().len());
        // (Its text is the submitted value: its errors point at the start of
        // the uri-template.)
        let at = dataset.dataset.uri_template.span.start;
        render_into(template, &env, &mut out).map_err(|d| {
            d.map_spans(|_| at).with_help(format!(
                "the uri-template of dataset `{}` is evaluated again for each instance, with only YEAR, MONTH, DAY, HOUR and MINUTE defined",
                dataset.dataset.name.name
            ))
        })?;
        Ok(out)
    }
}

/// A piece of a uri-template made of text and the instance fields only, the
/// common form, which needs no evaluator.
#[derive(Debug, PartialEq)]
pub(super) enum UriPiece {
    Text(String),
    Field(u8),
}

const FIELDS: [&str; 5] = ["YEAR", "MONTH", "DAY", "HOUR", "MINUTE"];

/// The pieces, when the submitted text is only text and blocks written
/// exactly `${YEAR}` (or another field): what the EL parser would read as
/// text parts and those variables, read without it. Anything else (spaces in
/// a block, another expression) is left to the parser.
pub(super) fn fields_only(text: &str) -> Option<Vec<UriPiece>> {
    let mut pieces = Vec::new();
    let mut rest = text;
    while let Some(open) = find_block(rest.as_bytes(), 0) {
        if open > 0 {
            pieces.push(UriPiece::Text(rest[..open].to_string()));
        }
        let block = &rest[open + 2..];
        let close = block.find('}')?;
        let field = FIELDS.iter().position(|f| *f == &block[..close])?;
        pieces.push(UriPiece::Field(field as u8));
        rest = &block[close + 1..];
    }
    if !rest.is_empty() {
        pieces.push(UriPiece::Text(rest.to_string()));
    }
    Some(pieces)
}

/// What rendering the template with the fields as strings gives.
fn fields_uri(pieces: &[UriPiece], local: chrono::NaiveDateTime) -> String {
    let mut out = String::with_capacity(64);
    let two = |out: &mut String, n: u32| {
        out.push(char::from(b'0' + (n / 10 % 10) as u8));
        out.push(char::from(b'0' + (n % 10) as u8));
    };
    for piece in pieces {
        match piece {
            UriPiece::Text(text) => out.push_str(text),
            UriPiece::Field(0) if (0..10_000).contains(&local.year()) => {
                two(&mut out, local.year() as u32 / 100);
                two(&mut out, local.year() as u32 % 100);
            }
            UriPiece::Field(0) => out.push_str(&format!("{:04}", local.year())),
            UriPiece::Field(1) => two(&mut out, local.month()),
            UriPiece::Field(2) => two(&mut out, local.day()),
            UriPiece::Field(3) => two(&mut out, local.hour()),
            UriPiece::Field(_) => two(&mut out, local.minute()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::el::ast::{ExprKind, Part};
    use crate::el::parse_template;

    /// The pieces as the EL parser reads the text, when it is only text and
    /// field variables: what `fields_only` must agree with.
    fn parsed_pieces(text: &str) -> Option<Vec<UriPiece>> {
        let template = parse_template(text, 0).ok()?;
        template
            .parts
            .iter()
            .map(|part| match part {
                Part::Text { text, .. } => Some(UriPiece::Text(text.to_string())),
                Part::Block { expr, .. } => match &expr.kind {
                    ExprKind::Var(name) => FIELDS
                        .iter()
                        .position(|f| f == &&**name)
                        .map(|i| UriPiece::Field(i as u8)),
                    _ => None,
                },
            })
            .collect()
    }

    #[test]
    fn uri_fields_are_read_as_the_el_parser_reads_them() {
        let texts = [
            "",
            "hdfs://nn:8020/data/${YEAR}/${MONTH}/${DAY}/${HOUR}/${MINUTE}",
            "${YEAR}${MONTH}${DAY}",
            "s3://b/k=${YEAR}-${MONTH}/_SUCCESS",
            "no fields at all",
            "$ {YEAR} and $YEAR and {YEAR}",
            "tail ${YEAR}}",
            "a$${YEAR}",
        ];
        for text in texts {
            assert_eq!(fields_only(text), parsed_pieces(text), "{text:?}");
            assert!(fields_only(text).is_some(), "{text:?}");
        }
        // Left to the parser: what it would read otherwise, or not read.
        for text in [
            "x/${ YEAR }",
            "x/${year}",
            "x/${coord:user()}",
            "x/${YEAR",
            "x/${YEAR + 1}",
            "x/${SECOND}",
        ] {
            assert_eq!(fields_only(text), None, "{text:?}");
        }
    }
}
