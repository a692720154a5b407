//! `datetime_zone_frequency`: Oozie datetimes, zone IDs, frequencies (EL
//! text as in a `frequency` attribute) and the calendar arithmetic on them,
//! from lines:
//!
//! ```text
//! DATETIME     (parsed in the processing zone; default 2009-01-01T00:00Z)
//! ZONE         (a time zone ID, as in timezone="..."; default UTC)
//! FREQUENCY    (EL text: ${coord:days(1)}, 60, a cron...; default 60)
//! N            (a count for Calendar.add, offsets and ranges; default 1)
//! PROCESSING   (UTC or GMT±HHMM; default UTC)
//! PATTERN      (a coord:formatTime pattern; default yyyyMMdd)
//! NOMINAL      (a datetime; default DATETIME + 1 year)
//! ```
//!
//! Drives: `parse_datetime`, `ProcessingZone::parse`, `Zone::parse` and the
//! zone's offsets, `calendar::add` in every unit, `lower_frequency` and
//! `lower_timeout`, `nominal_times`, `move_to_end`, a `DatasetClock`'s
//! instances (`current`, ranges, `offset`, `hoursInDay`, `daysInMonth`...),
//! and `time::format::format`.
#![no_main]

mod common;

use chrono::{DateTime, Duration};
use coordc::el::frequency::{LoweredFrequency, lower_frequency, lower_timeout};
use coordc::el::parse_template;
use coordc::span::Span;
use coordc::time::calendar::{self, CalendarUnit};
use coordc::time::cron::Cron;
use coordc::time::datetime::{ProcessingZone, parse_datetime};
use coordc::time::format::format;
use coordc::time::frequency::{FrequencyUnit, move_to_end, nominal_times};
use coordc::time::instance::{DatasetClock, hours_in_local_day};
use coordc::time::zone::Zone;
use libfuzzer_sys::fuzz_target;

const FREQUENCY_UNITS: [FrequencyUnit; 4] = [
    FrequencyUnit::Minute,
    FrequencyUnit::Day,
    FrequencyUnit::Week,
    FrequencyUnit::Month,
];

/// The farthest, in dataset frequencies, that instances are asked for: a
/// nominal time at most this many frequencies after the initial instance,
/// offsets and ranges at most this many frequencies wide. The library walks
/// up to 10^7 frequencies one at a time (`MAX_STEPS`, as Oozie does), which
/// is seconds per input under the sanitizer: the `dryrun` and
/// `xml_check_structured` targets meet those limits, with real apps.
const MAX_STEPS: i64 = 200;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut lines = text.split('\n');
    let mut line = || lines.next().filter(|l| !l.is_empty());
    let (dt_text, zone_text, freq_text, n_text, pz_text, pattern, nominal_text) =
        (line(), line(), line(), line(), line(), line(), line());

    let pz = match pz_text {
        Some(id) => match ProcessingZone::parse_option(id) {
            Ok(pz) => pz,
            Err(d) => {
                common::assert_span_in(&d, id);
                common::render(&d, id);
                ProcessingZone::UTC
            }
        },
        None => ProcessingZone::UTC,
    };
    let default_t = DateTime::parse_from_rfc3339("2009-01-01T00:00:00Z")
        .unwrap()
        .to_utc();
    let t = dt_text
        .and_then(|s| common::datetime(s, pz))
        .unwrap_or(default_t);
    // Formatting back and parsing again gives the same instant.
    let printed = pz.format(t);
    if let Ok(again) = parse_datetime(&printed, pz) {
        assert_eq!(again.instant, t, "{printed} does not read back");
    }

    let zone = match zone_text.map(Zone::parse) {
        Some(Ok(z)) => z,
        Some(Err(e)) => {
            let id = zone_text.unwrap_or_default();
            let d = e.to_diagnostic(id, Span::new(0, id.len()));
            common::render(&d, id);
            Zone::utc()
        }
        None => Zone::utc(),
    };
    std::hint::black_box((
        zone.offset_seconds(t),
        zone.dst_seconds(t),
        zone.standard_offset_seconds(t),
        zone.local(t),
        zone.observes_dst(t),
        zone.canonical_id(),
        zone.is_legacy_short_id(),
        hours_in_local_day(&zone, t),
        calendar::in_range(t),
    ));

    let n: i64 = n_text.and_then(|s| s.trim().parse().ok()).unwrap_or(1);
    for unit in CalendarUnit::ALL {
        for k in [n, -n, n.wrapping_mul(1_000_003)] {
            if let Some(u) = calendar::add(&zone, t, unit, k) {
                // What `add` returns is in the calendar's range.
                std::hint::black_box(zone.local(u));
            }
        }
    }
    for unit in FREQUENCY_UNITS {
        if let Some(end) = move_to_end(&zone, t, unit) {
            assert!(end >= t, "move_to_end went back: {t} -> {end}");
        }
    }

    if let Some(pattern) = pattern {
        let local = t
            .naive_utc()
            .checked_add_signed(Duration::minutes(pz.offset_minutes.into()));
        if let Some(local) = local {
            let zone = pz.format_zone();
            std::hint::black_box(format(local, zone, pattern).ok());
        }
    }

    let nominal = nominal_text
        .and_then(|s| common::datetime(s, pz))
        .or_else(|| t.checked_add_signed(Duration::days(365)))
        .unwrap_or(t);

    let freq_text = freq_text.unwrap_or("60");
    let template = match parse_template(freq_text, 0) {
        Ok(t) => t,
        Err(d) => {
            common::assert_span_in(&d, freq_text);
            common::render(&d, freq_text);
            return;
        }
    };
    let vars = common::vars();
    match lower_timeout(&template, vars) {
        Ok(m) => {
            std::hint::black_box(m);
        }
        Err(d) => common::render(&d, freq_text),
    }
    let frequency = match lower_frequency(&template, vars) {
        Ok(LoweredFrequency::Every(f)) => f,
        Ok(LoweredFrequency::Cron(cron)) => {
            if let Err(e) = Cron::parse(&cron, common::cron_max_year()) {
                common::render(&e.to_diagnostic(0), &cron);
            }
            return;
        }
        Err(d) => {
            common::assert_span_in(&d, freq_text);
            common::render(&d, freq_text);
            return;
        }
    };
    let horizon = t.checked_add_signed(Duration::days(400)).unwrap_or(t);
    let times = nominal_times(frequency, &zone, t, horizon, 16);
    for w in times.windows(2) {
        assert!(
            w[0] < w[1],
            "nominal times out of order: {times:?} for {frequency:?}"
        );
    }
    let Ok(clock) = DatasetClock::new(t, frequency, zone.clone()) else {
        return;
    };
    // (Bounded: see MAX_STEPS.)
    let far = calendar::add(
        &zone,
        clock.initial,
        frequency.unit.calendar_unit(),
        frequency.count.saturating_mul(MAX_STEPS),
    );
    let nominal = far.map_or(nominal, |far| nominal.min(far));
    let n = n.clamp(-MAX_STEPS, MAX_STEPS);
    let (lo, hi) = (n.min(n / 3), n.max(n / 3));
    let _ = std::hint::black_box(clock.current_instance(nominal));
    let _ = std::hint::black_box(clock.current(nominal, n));
    if let Ok(range) = clock.current_range(nominal, lo, hi) {
        assert!(range.len() as i64 <= hi - lo + 1);
        for w in range.windows(2) {
            assert!(w[0] > w[1], "current range not newest first: {range:?}");
        }
    }
    // An offset of at most MAX_STEPS frequencies, in minutes (a month and a
    // year at their longest).
    const UNIT_MINUTES: [i64; 6] = [1, 60, 1_440, 10_080, 44_640, 527_040];
    const FREQUENCY_MINUTES: [i64; 4] = [1, 1_440, 10_080, 44_640];
    let frequency_minutes = FREQUENCY_MINUTES[match frequency.unit {
        FrequencyUnit::Minute => 0,
        FrequencyUnit::Day => 1,
        FrequencyUnit::Week => 2,
        FrequencyUnit::Month => 3,
    }]
    .saturating_mul(frequency.count);
    let unit_index = n.unsigned_abs() as usize % 6;
    let unit = CalendarUnit::ALL[unit_index];
    let k_max = MAX_STEPS.saturating_mul(frequency_minutes) / UNIT_MINUTES[unit_index];
    let k = n.clamp(-k_max, k_max);
    let _ = std::hint::black_box(clock.offset(nominal, k, unit));
    let _ = std::hint::black_box(clock.offset_range(
        nominal,
        (k.min(k / 3), unit),
        (k.max(k / 3), unit),
    ));
    let _ = std::hint::black_box(clock.hours_in_day(nominal, n));
    let _ = std::hint::black_box(clock.days_in_month(nominal, n));
    for u in FREQUENCY_UNITS {
        let _ = std::hint::black_box(clock.end_of_range_start(nominal, u, n));
    }
    std::hint::black_box(clock.tz_offset(nominal, &Zone::utc()));
});
