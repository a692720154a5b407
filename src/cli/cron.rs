//! `coordc cron`: the nominal times a coordinator with a cron frequency, a start,
//! an end and a time zone materializes, as Oozie 5.1+ computes them.

use super::{EXIT_ERRORS, EXIT_OK, Format};
use crate::diag::Diagnostic;
use crate::diag::render::human;
use crate::span::Span;
use crate::time::cron::{Cron, materialize};
use crate::time::datetime::{ProcessingZone, format_utc, parse_datetime};
use crate::time::zone::{Zone, format_offset};
use chrono::{DateTime, Timelike, Utc};
use clap::Args;
use std::io::Write;

/// Most times one run lists; a longer window needs an explicit `--count`.
const MAX_COUNT: usize = 1_000_000;

#[derive(Args)]
pub(super) struct CronArgs {
    /// The 5-field cron frequency, e.g. '0 10 * * 2-6' (day-of-week 1 = Sunday).
    expr: String,
    /// The coordinator start (default: now), e.g. 2013-01-01T00:00Z.
    #[arg(long, value_name = "T")]
    from: Option<String>,
    /// The coordinator end, excluded.
    #[arg(long, value_name = "T")]
    to: Option<String>,
    /// List at most N times (default 10 without --to, else all up to 1,000,000).
    #[arg(long, value_name = "N")]
    count: Option<usize>,
    /// The coordinator's time zone (affects only the DST shift of daily and
    /// longer schedules; cron itself runs in the processing time zone).
    #[arg(long, value_name = "TZ", default_value = "UTC")]
    timezone: String,
    /// Oozie's processing time zone (`oozie.processing.timezone`): UTC or GMT±HHMM.
    #[arg(long, value_name = "TZ", default_value = "UTC")]
    processing_timezone: String,
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

pub(super) fn run(args: CronArgs) -> i32 {
    let mut diagnostics: Vec<(Diagnostic, &str, String)> = Vec::new();
    let pz = ProcessingZone::parse_option(&args.processing_timezone)
        .map_err(|d| {
            let text = args.processing_timezone.clone();
            diagnostics.push((d, "<--processing-timezone>", text));
        })
        .unwrap_or_default();
    let cron = Cron::parse(&args.expr, super::cron_max_year())
        .map_err(|e| diagnostics.push((e.to_diagnostic(0), "<cron>", args.expr.clone())))
        .ok();
    let zone = Zone::parse(&args.timezone)
        .map_err(|e| {
            let d = e.to_diagnostic(&args.timezone, Span::new(0, args.timezone.len()));
            diagnostics.push((d, "<--timezone>", args.timezone.clone()));
        })
        .ok();
    let mut time = |text: &Option<String>, name: &'static str| -> Option<Option<DateTime<Utc>>> {
        let Some(text) = text else {
            return Some(None);
        };
        match parse_datetime(text, pz) {
            Ok(t) => Some(Some(t.instant)),
            Err(e) => {
                diagnostics.push((e.to_diagnostic(0, pz), name, text.clone()));
                None
            }
        }
    };
    let from = time(&args.from, "<--from>");
    let to = time(&args.to, "<--to>");
    let (Some(cron), Some(zone), Some(from), Some(to)) = (cron, zone, from, to) else {
        return report(&diagnostics);
    };
    // The current minute (every minute has a second 0: the fallback is never taken).
    let now = Utc::now();
    let minute = now
        .with_second(0)
        .and_then(|t| t.with_nanosecond(0))
        .unwrap_or(now);
    let start = from.unwrap_or(minute);
    let end = to.unwrap_or(DateTime::<Utc>::MAX_UTC);
    if start >= end {
        let relation = if start == end { "equal to" } else { "before" };
        let d = Diagnostic::error(
            crate::diag::rules::TIME_DATETIME,
            Span::new(0, args.to.as_deref().map_or(0, str::len)),
            format!(
                "the end is not after the start: --to {} is {relation} --from {}",
                pz.format(end),
                pz.format(start)
            ),
        )
        .with_help("Oozie requires start < end (CoordSubmitXCommand rejects equal times)");
        return report(&[(d, "<--to>", args.to.clone().unwrap_or_default())]);
    }
    let limit = args
        .count
        .unwrap_or(if to.is_some() { MAX_COUNT } else { 10 })
        .min(MAX_COUNT);
    let times = match materialize(&cron, &zone, pz, start, end, limit) {
        Ok(times) => times,
        Err(kind) => {
            let d = cron.materialize_diagnostic(kind, 0);
            return report(&[(d, "<cron>", args.expr.clone())]);
        }
    };
    // What `coordc check` says of this cron as a coordinator's frequency:
    // its reading (CR005-CR007, CR009) and, for a job zone other than the
    // processing zone, where the first time falls (CR008).
    let mut warnings = crate::check::cron::expression(&cron, 0, true);
    warnings.extend(crate::check::cron::zone_shift(
        Span::new(0, args.expr.len()),
        &cron,
        &zone,
        pz,
        times.first().map(|t| t.nominal),
    ));
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let written = match args.format {
        Format::Json => {
            let list: Vec<String> = times.iter().map(|t| format_utc(t.nominal)).collect();
            let weekdays: Vec<String> = times
                .iter()
                .map(|t| zone.local(t.nominal).format("%a").to_string())
                .collect();
            let column = |offset: u32| {
                args.expr
                    .get(..offset as usize)
                    .map_or(0, |s| s.chars().count())
                    + 1
            };
            let warnings: Vec<serde_json::Value> = warnings
                .iter()
                .map(|d| {
                    serde_json::json!({
                        "code": d.code,
                        "severity": d.severity,
                        "message": d.message,
                        "help": d.help,
                        "column": column(d.span.start),
                        "end_column": column(d.span.end),
                    })
                })
                .collect();
            writeln!(
                out,
                "{}",
                serde_json::json!({ "times": list, "weekdays": weekdays, "warnings": warnings })
            )
        }
        Format::Text => times.iter().try_for_each(|t| {
            let local = zone.local(t.nominal).format("%Y-%m-%d %a %H:%M");
            let offset = format_offset(zone.offset_seconds(t.nominal), true);
            let shift = if t.nominal != t.cron {
                format!("  (cron time {}, shifted for DST)", format_utc(t.cron))
            } else {
                String::new()
            };
            writeln!(
                out,
                "{}  {local} {} (UTC{offset}){shift}",
                format_utc(t.nominal),
                zone.id()
            )
        }),
    };
    let _ = written.and_then(|_| out.flush());
    if matches!(args.format, Format::Text) {
        let mut err = std::io::stderr().lock();
        for d in &warnings {
            let _ = write!(err, "{}", human(d, "<cron>", &args.expr));
        }
    }
    if times.len() == MAX_COUNT && args.count.is_none() {
        eprintln!(
            "note: stopped after {MAX_COUNT} times; pass --count to list fewer or a later --to in steps"
        );
    }
    EXIT_OK
}

fn report(diagnostics: &[(Diagnostic, &str, String)]) -> i32 {
    let mut err = std::io::stderr().lock();
    for (d, name, source) in diagnostics {
        let _ = write!(err, "{}", human(d, name, source));
    }
    EXIT_ERRORS
}
