//! `cron`: arbitrary cron text, start and end times and zones, as lines:
//!
//! ```text
//! CRON
//! START        (an Oozie datetime; default 2013-01-01T00:00Z)
//! ZONE         (the job's time zone ID; default UTC)
//! END          (default START + 30 days)
//! PROCESSING   (UTC or GMT±HHMM; default UTC)
//! ```
//!
//! The cron is parsed as a coordinator frequency, and its fire times listed
//! (`materialize`, at most 64 of them) and stepped (`next_after`) in the
//! zone; every error renders as a diagnostic within the text.
#![no_main]

mod common;

use chrono::{DateTime, Duration};
use coordc::time::cron::{Cron, materialize};
use coordc::time::datetime::ProcessingZone;
use coordc::time::zone::Zone;
use libfuzzer_sys::fuzz_target;

/// Most fire times listed per input.
const LIMIT: usize = 64;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut lines = text.split('\n');
    let cron_text = lines.next().unwrap_or_default();
    let (start, zone, end, pz) = (lines.next(), lines.next(), lines.next(), lines.next());
    let pz = pz
        .and_then(ProcessingZone::parse)
        .unwrap_or(ProcessingZone::UTC);
    let cron = match Cron::parse(cron_text, common::cron_max_year()) {
        Ok(c) => c,
        Err(e) => {
            let d = e.to_diagnostic(0);
            common::assert_span_in(&d, cron_text);
            common::render(&d, cron_text);
            return;
        }
    };
    for i in 0..5 {
        let (field, (s, e)) = cron.field(i);
        assert_eq!(&cron_text[s..e], field, "field {i} of {cron_text:?}");
    }
    let start = start
        .and_then(|t| common::datetime(t, pz))
        .unwrap_or_else(|| {
            DateTime::parse_from_rfc3339("2013-01-01T00:00:00Z")
                .unwrap()
                .to_utc()
        });
    let zone = match zone.filter(|z| !z.is_empty()).map(Zone::parse) {
        Some(Ok(z)) => z,
        _ => Zone::utc(),
    };
    let end = end
        .and_then(|t| common::datetime(t, pz))
        .unwrap_or_else(|| {
            start
                .checked_add_signed(Duration::days(30))
                .unwrap_or(start)
        });
    match materialize(&cron, &zone, pz, start, end, LIMIT) {
        Ok(times) => {
            assert!(times.len() <= LIMIT);
            for w in times.windows(2) {
                assert!(w[0].cron < w[1].cron, "fire times out of order: {times:?}");
            }
            for t in &times {
                assert!(t.cron < end, "a fire time at or after the end: {t:?}");
                assert!(t.cron >= start, "a fire time before the start: {t:?}");
            }
        }
        Err(kind) => {
            let d = cron.materialize_diagnostic(kind, 0);
            common::assert_span_in(&d, cron_text);
            common::render(&d, cron_text);
        }
    }
    // A few steps from the start, and from the end of Quartz's range.
    let mut t = start;
    for _ in 0..4 {
        match cron.next_after(t, pz) {
            Some(next) => {
                assert!(next > t, "next_after({t}) = {next} is not after it");
                t = next;
            }
            None => break,
        }
    }
    if let Ok(late) = DateTime::parse_from_rfc3339("2999-12-31T23:00:00Z") {
        std::hint::black_box(cron.next_after(late.to_utc(), pz));
    }
});
