//! `coordc timezones`: every time zone ID Oozie accepts (spec §4.2; Oozie's own is
//! `oozie info -timezones`), with its UTC offset and whether it observes DST.

use super::{EXIT_OK, EXIT_USAGE, Format};
use crate::time::datetime::{ProcessingZone, parse_datetime};
use crate::time::zone::{Zone, all_ids, format_offset};
use chrono::Utc;
use clap::Args;
use std::io::Write;

#[derive(Args)]
pub(super) struct TimezonesArgs {
    /// The instant the offsets are given for (default: now), e.g. 2024-07-01T00:00Z.
    #[arg(long, value_name = "T")]
    at: Option<String>,
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

pub(super) fn run(args: TimezonesArgs) -> i32 {
    let at = match &args.at {
        None => Utc::now(),
        Some(text) => match parse_datetime(text, ProcessingZone::UTC) {
            Ok(t) => t.instant,
            Err(e) => {
                eprintln!("error: --at {text}: {}", e.message);
                return EXIT_USAGE;
            }
        },
    };
    let zones: Vec<Zone> = all_ids()
        .into_iter()
        // (Every listed ID parses: the test below checks.)
        .filter_map(|id| Zone::parse(id).ok())
        .collect();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let written = match args.format {
        Format::Json => {
            let list: Vec<serde_json::Value> = zones
                .iter()
                .map(|z| {
                    serde_json::json!({
                        "id": z.id(),
                        "offset": format_offset(z.offset_seconds(at), true),
                        "dst": z.observes_dst(at),
                        "legacy": z.is_legacy_short_id(),
                    })
                })
                .collect();
            writeln!(out, "{}", serde_json::json!({ "timezones": list }))
        }
        Format::Text => zones.iter().try_for_each(|z| {
            let mut notes = Vec::new();
            if z.observes_dst(at) {
                notes.push("observes DST");
            }
            if z.is_legacy_short_id() {
                notes.push("legacy ID");
            }
            writeln!(
                out,
                "{:<34} UTC{}  {}",
                z.id(),
                format_offset(z.offset_seconds(at), true),
                notes.join(", ")
            )
        }),
    };
    let _ = written.and_then(|_| out.flush());
    EXIT_OK
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_id_parses() {
        for id in all_ids() {
            assert!(Zone::parse(id).is_ok(), "{id}");
        }
    }
}
