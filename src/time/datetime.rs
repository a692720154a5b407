//! Oozie datetimes (spec §4.1): `YYYY-MM-DDTHH:mmZ`, parsed as Oozie parses them,
//! with `SimpleDateFormat("yyyy-MM-dd'T'HH:mm'Z'")`, non-lenient, in the
//! processing time zone (DateUtils.java:46, 99-105, 188-200): the text is trimmed, each number
//! may have any count of digits (`2009-1-1T7:00Z` parses), nothing may follow, and
//! fields must be in range (no Feb 30, no minute 60, no seconds).

use super::zone::{Zone, format_offset, two_digits};
use crate::diag::Diagnostic;
use crate::diag::rules::{TIME_DATETIME, TIME_ZONE};
use crate::span::Span;
use chrono::{DateTime, Datelike, NaiveDate, Utc};
use std::borrow::Cow;

/// Oozie's processing time zone (`oozie.processing.timezone`): `UTC`, or a fixed
/// `GMT±HHMM` offset, which changes the datetime suffix from `Z` to `±HHMM`.
/// Every datetime Oozie reads or writes (start, end, function arguments and
/// results) is wall time in this zone (DateUtils.java:56-70, 188-213).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ProcessingZone {
    /// East of UTC, in minutes.
    pub offset_minutes: i32,
    /// Configured as `GMT±HHMM` rather than `UTC`. Java's zone is then a
    /// custom one even at `GMT+0000`, which Oozie does not take for UTC
    /// (`ACTIVE_TIMEZONE.equals(UTC)`, DateUtils.java:74): its datetimes end in `+0000`
    /// and `SimpleDateFormat` names it `GMT+00:00`.
    pub gmt: bool,
    /// Configured as `GMT-0000`: Java keeps the `-` of a zero offset in the
    /// custom zone's ID (`GMT-00:00`), and Oozie in its mask (`-0000`).
    pub minus_zero: bool,
}

impl ProcessingZone {
    pub const UTC: ProcessingZone = ProcessingZone {
        offset_minutes: 0,
        gmt: false,
        minus_zero: false,
    };

    /// `UTC` or `GMT±HHMM`, the only IDs an Oozie server starts with
    /// (`DateUtils.setConf`: `^UTC$|^GMT(\+|\-)\d{4}$`); hours above 23 or
    /// minutes above 59 are not an offset Java reads.
    pub fn parse(id: &str) -> Option<ProcessingZone> {
        if id == "UTC" {
            return Some(ProcessingZone::UTC);
        }
        let rest = id.strip_prefix("GMT")?;
        let (sign, digits) = match rest.as_bytes() {
            [b'+', d @ ..] => (1, d),
            [b'-', d @ ..] => (-1, d),
            _ => return None,
        };
        let &[h1, h2, m1, m2] = digits else {
            return None;
        };
        let (hours, minutes) = (two_digits(h1, h2)?, two_digits(m1, m2)?);
        let offset_minutes = sign * (hours * 60 + minutes);
        (hours <= 23 && minutes <= 59).then_some(ProcessingZone {
            offset_minutes,
            gmt: true,
            minus_zero: sign < 0 && offset_minutes == 0,
        })
    }

    /// [`ProcessingZone::parse`] for a command-line option: a diagnostic over the
    /// whole text when it is not a processing zone.
    pub fn parse_option(id: &str) -> Result<ProcessingZone, Diagnostic> {
        ProcessingZone::parse(id).ok_or_else(|| {
            Diagnostic::error(
                TIME_ZONE,
                Span::new(0, id.len()),
                format!("`{id}` cannot be Oozie's processing time zone"),
            )
            .with_help(
                "Oozie's processing time zone is UTC or a fixed offset written GMT±HHMM, such as GMT+0530",
            )
        })
    }

    /// The zone `coord:formatTime` writes in (its `z`, `Z`, `X`).
    pub fn format_zone(self) -> crate::time::format::FixedZone {
        crate::time::format::FixedZone {
            offset_minutes: self.offset_minutes,
            gmt: self.gmt,
            minus_zero: self.minus_zero,
        }
    }

    /// The zone calendar arithmetic in the processing zone runs in.
    #[allow(
        clippy::expect_used,
        reason = "every processing zone but UTC comes from `parse`, which takes only GMT±HHMM with hours ≤ 23 and minutes ≤ 59, an ID `Zone::parse` accepts too"
    )]
    pub(crate) fn zone(self) -> Zone {
        if self.offset_minutes == 0 {
            return Zone::utc();
        }
        Zone::parse(&format!("GMT{}", self.suffix())).expect("GMT±HHMM is a zone")
    }

    /// `DateUtils.formatDateOozieTZ`: `t` as wall time in this zone, with the suffix.
    pub fn format(self, t: DateTime<Utc>) -> String {
        let local = t.naive_utc() + chrono::Duration::minutes(i64::from(self.offset_minutes));
        self.format_wall(local)
    }

    /// `DateUtils.formatDate(Calendar)`: a wall time of any zone written with this
    /// zone's mask, suffix included (how `coord:dateTzOffset` prints).
    pub(crate) fn format_wall(self, local: chrono::NaiveDateTime) -> String {
        let mut out = String::with_capacity(21);
        write_minutes(&mut out, local);
        out.push_str(&self.suffix());
        out
    }

    /// The literal that ends every datetime: `Z`, or `+0530` style.
    pub(crate) fn suffix(self) -> Cow<'static, str> {
        if !self.gmt {
            return Cow::Borrowed("Z");
        }
        if self.minus_zero {
            return Cow::Borrowed("-0000");
        }
        Cow::Owned(format_offset(self.offset_minutes * 60, false))
    }

    /// The ID Oozie is configured with: `UTC` or `GMT±HHMM`.
    pub(crate) fn id(self) -> String {
        if self.gmt {
            format!("GMT{}", self.suffix())
        } else {
            "UTC".to_string()
        }
    }

    /// The accepted form, for messages.
    pub(crate) fn mask(self) -> String {
        format!("YYYY-MM-DDTHH:mm{}", self.suffix())
    }
}

/// A datetime Oozie parses, or the spec's `24:00` (which Oozie rejects).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OozieTime {
    pub instant: DateTime<Utc>,
    /// Written as `T24:00` of the previous day (spec §4.1.1); Oozie servers since
    /// 3.3 (OOZIE-649) reject it. `instant` is 00:00 of the next day.
    pub hour_24: bool,
}

/// Why a datetime does not parse: what is wrong, and the byte range of the text
/// (relative to its start) that is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DatetimeError {
    pub message: String,
    pub start: usize,
    pub end: usize,
    /// The processing zone the text is written for, when it is a datetime
    /// of another one (`+0900` where the mask ends in `Z`).
    pub written_for: Option<ProcessingZone>,
}

impl DatetimeError {
    /// As a diagnostic; `base` is the text's offset in its file.
    pub fn to_diagnostic(&self, base: usize, pz: ProcessingZone) -> Diagnostic {
        let d = Diagnostic::error(
            TIME_DATETIME,
            Span::new(base + self.start, base + self.end),
            format!("invalid datetime: {}", self.message),
        );
        // Oozie parses with its processing zone's mask, whose suffix is a
        // literal: `yyyy-MM-dd'T'HH:mm'Z'` in UTC, `yyyy-MM-dd'T'HH:mm+0900` in
        // GMT+0900 (DateUtils.setConf and parseDateOozieTZ, DateUtils.java:68-76,
        // 188-200), so a datetime is only read by a server of its own zone.
        match self.written_for {
            Some(other) => d.with_help(format!(
                "the processing time zone here is {} ({}); this datetime is written for a server whose processing time zone is {}: check with --processing-timezone {} (for coordc check, also processing-timezone = \"{}\" in coordc.toml)",
                pz.id(),
                pz.mask(),
                other.id(),
                other.id(),
                other.id()
            )),
            None => d.with_help(format!(
                "Oozie accepts exactly {} (e.g. 2009-01-01T08:00{}), in the processing time zone",
                pz.mask(),
                pz.suffix()
            )),
        }
    }
}

/// Parses `text` as Oozie parses a datetime in processing zone `pz`.
pub fn parse_datetime(text: &str, pz: ProcessingZone) -> Result<OozieTime, DatetimeError> {
    match canonical_utc(text, pz) {
        Some(instant) => Ok(OozieTime {
            instant,
            hour_24: false,
        }),
        None => parse_fields(text, pz),
    }
}

/// The instant of `text` when it is exactly `YYYY-MM-DDTHH:mmZ`, in range,
/// and the processing zone is UTC: the form coordc and Oozie print, which is
/// parsed back at every action (`coord:formatTime` of `coord:nominalTime()`),
/// read here without the general parser. Anything else is left to
/// [`parse_fields`], which reads it the same way and says what is wrong.
fn canonical_utc(text: &str, pz: ProcessingZone) -> Option<DateTime<Utc>> {
    let Ok(b) = <&[u8; 17]>::try_from(text.as_bytes()) else {
        return None;
    };
    if pz.gmt || (b[4], b[7], b[10], b[13], b[16]) != (b'-', b'-', b'T', b':', b'Z') {
        return None;
    }
    let number = |digits: &[u8]| {
        digits.iter().try_fold(0u32, |n, &c| {
            c.is_ascii_digit().then(|| n * 10 + u32::from(c - b'0'))
        })
    };
    let (hour, minute) = (number(&b[11..13])?, number(&b[14..16])?);
    if hour > 23 {
        // `24:00` is read (and warned about) by the general parser.
        return None;
    }
    // (Year 0 is left to the general parser, which refuses it.)
    let year = number(&b[..4]).filter(|&y| y > 0)?;
    let date = NaiveDate::from_ymd_opt(year as i32, number(&b[5..7])?, number(&b[8..10])?)?;
    Some(date.and_hms_opt(hour, minute, 0)?.and_utc())
}

/// [`parse_datetime`] for any text: each field read, checked and explained.
fn parse_fields(text: &str, pz: ProcessingZone) -> Result<OozieTime, DatetimeError> {
    // (Trimmed as Java's `String.trim`: characters up to U+0020, control
    // characters too, and not Unicode spaces.)
    let java_blank = |c: char| c <= ' ';
    let lead = text.len() - text.trim_start_matches(java_blank).len();
    let s = text.trim_matches(java_blank);
    let bytes = s.as_bytes();
    let mut pos = 0;
    let err = |message: String, start: usize, end: usize| DatetimeError {
        message,
        start: lead + start,
        end: lead + end.clamp(start + 1, s.len().max(start + 1)),
        written_for: None,
    };
    let number = |pos: &mut usize, what: &str| -> Result<(i64, usize), DatetimeError> {
        let start = *pos;
        // (At most 9 digits: the value fits, and is read as it is scanned.)
        let mut value = 0;
        while let Some(&c) = bytes.get(*pos)
            && c.is_ascii_digit()
            && *pos - start < 9
        {
            value = value * 10 + i64::from(c - b'0');
            *pos += 1;
        }
        if *pos == start {
            return Err(err(format!("expected the {what} here"), start, start + 1));
        }
        Ok((value, start))
    };
    // (The message is made only when the literal is missing: a datetime is
    // parsed at every action.)
    let literal = |pos: &mut usize, lit: &str| -> Result<(), DatetimeError> {
        if s[*pos..].starts_with(lit) {
            *pos += lit.len();
            Ok(())
        } else {
            Err(err(format!("expected `{lit}` here"), *pos, *pos + 1))
        }
    };
    let (year, year_at) = number(&mut pos, "year")?;
    if year == 0 {
        // `SimpleDateFormat`'s `yyyy` is a year of an era, 1 or more: Oozie
        // refuses year 0 (differential fuzzing; the JDK's answer).
        return Err(err(
            "year 0 does not exist in Java's calendar (1 BC is followed by 1 AD)".to_string(),
            year_at,
            pos,
        ));
    }
    literal(&mut pos, "-")?;
    let (month, month_at) = number(&mut pos, "month")?;
    literal(&mut pos, "-")?;
    let (day, day_at) = number(&mut pos, "day")?;
    literal(&mut pos, "T")?;
    let (hour, hour_at) = number(&mut pos, "hour")?;
    literal(&mut pos, ":")?;
    let (minute, minute_at) = number(&mut pos, "minute")?;
    if s[pos..].starts_with(':') {
        return Err(err(
            "seconds are not allowed: Oozie parses datetimes to the minute".to_string(),
            pos,
            s.len(),
        ));
    }
    let suffix = pz.suffix();
    literal(&mut pos, &suffix).map_err(|mut e| {
        // The rest is another processing zone's suffix.
        let rest = &s[pos..];
        e.written_for = match rest {
            "Z" => Some(ProcessingZone::UTC),
            _ if rest.len() == 5 => ProcessingZone::parse(&format!("GMT{rest}")),
            _ => None,
        }
        .filter(|&other| other != pz);
        if e.written_for.is_some() {
            e.message = format!("expected `{suffix}` here, not `{rest}`");
            e.end = e.start + rest.len();
        }
        e
    })?;
    if pos < s.len() {
        return Err(err(
            "unexpected text after the datetime".to_string(),
            pos,
            s.len(),
        ));
    }
    if !(1..=12).contains(&month) {
        return Err(err(
            format!("month {month} does not exist"),
            month_at,
            day_at - 1,
        ));
    }
    let Some(date) = NaiveDate::from_ymd_opt(year as i32, month as u32, 1) else {
        return Err(err(
            format!("year {year} is out of range"),
            year_at,
            month_at - 1,
        ));
    };
    let Some(date) = u32::try_from(day).ok().and_then(|d| date.with_day(d)) else {
        return Err(err(
            format!("day {day} does not exist in {}", date.format("%B %Y")),
            day_at,
            hour_at - 1,
        ));
    };
    let hour_24 = hour == 24 && minute == 0;
    if hour > 23 && !hour_24 {
        return Err(err(
            format!("hour {hour} does not exist"),
            hour_at,
            minute_at - 1,
        ));
    }
    // (Only the minute can be out of range here.)
    let Some(local) = date.and_hms_opt(hour.min(23) as u32, minute as u32, 0) else {
        return Err(err(
            format!("minute {minute} does not exist"),
            minute_at,
            pos - suffix.len(),
        ));
    };
    // (Near the calendar's ends, the next hour or UTC may be past them:
    // instants keep two days from each end, `calendar::in_range`.)
    let instant = local
        .checked_add_signed(chrono::Duration::hours(i64::from(hour_24)))
        .and_then(|l| l.checked_sub_signed(chrono::Duration::minutes(pz.offset_minutes as i64)))
        .map(|l| l.and_utc())
        .filter(|&t| super::calendar::in_range(t))
        .ok_or_else(|| {
            err(
                format!("year {year} is out of range"),
                year_at,
                month_at - 1,
            )
        })?;
    Ok(OozieTime { instant, hour_24 })
}

/// `YYYY-MM-DDTHH:mmZ`, the form of every datetime coordc prints.
pub fn format_utc(t: DateTime<Utc>) -> String {
    let mut out = String::with_capacity(17);
    write_minutes(&mut out, t.naive_utc());
    out.push('Z');
    out
}

/// `yyyy-MM-dd'T'HH:mm` of `t` (a dry run writes millions of these; chrono's
/// `format` interprets its pattern every time).
pub(crate) fn write_minutes(out: &mut String, t: chrono::NaiveDateTime) {
    use chrono::Timelike;
    fn two(out: &mut String, n: u32) {
        out.push(char::from(b'0' + (n / 10 % 10) as u8));
        out.push(char::from(b'0' + (n % 10) as u8));
    }
    let year = t.year();
    if (0..10_000).contains(&year) {
        two(out, year as u32 / 100);
        two(out, year as u32 % 100);
    } else if year > 0 {
        // As Java's `SimpleDateFormat` `yyyy` writes a year: all its digits,
        // without the `+` chrono's `%Y` adds past 9999.
        out.push_str(&year.to_string());
    } else {
        // Before year 0 the JDK's calendar is Julian and its years have no
        // sign (docs/robustness.md); chrono's form is kept.
        out.push_str(&t.format("%Y").to_string());
    }
    out.push('-');
    two(out, t.month());
    out.push('-');
    two(out, t.day());
    out.push('T');
    two(out, t.hour());
    out.push(':');
    two(out, t.minute());
}

/// `YYYY-MM-DDTHH:mm:ssZ`, with `.SSS` milliseconds when there are any: a
/// time as `coordc simulate` reports it.
pub(crate) fn format_utc_seconds(t: DateTime<Utc>) -> String {
    use chrono::Timelike;
    let mut out = String::with_capacity(24);
    write_minutes(&mut out, t.naive_utc());
    let second = t.second();
    out.push(':');
    out.push(char::from(b'0' + (second / 10) as u8));
    out.push(char::from(b'0' + (second % 10) as u8));
    let millis = t.timestamp_subsec_millis();
    if millis > 0 {
        out.push('.');
        for digit in [millis / 100, millis / 10 % 10, millis % 10] {
            out.push(char::from(b'0' + digit as u8));
        }
    }
    out.push('Z');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_with_seconds_show_milliseconds_only_when_there_are_some() {
        let at = |ms: i64| DateTime::<Utc>::from_timestamp_millis(ms).unwrap();
        assert_eq!(
            format_utc_seconds(at(1_230_768_010_000)),
            "2009-01-01T00:00:10Z"
        );
        assert_eq!(
            format_utc_seconds(at(1_230_768_000_100)),
            "2009-01-01T00:00:00.100Z"
        );
        assert_eq!(
            format_utc_seconds(at(1_230_768_059_007)),
            "2009-01-01T00:00:59.007Z"
        );
    }

    fn parse(s: &str) -> Result<String, String> {
        parse_datetime(s, ProcessingZone::UTC)
            .map(|t| format_utc(t.instant))
            .map_err(|e| e.message)
    }

    #[test]
    fn the_canonical_form_reads_as_the_general_parser_reads_it() {
        // Every field at and around its bounds, and characters out of place:
        // what the shortcut takes, the general parser takes, to the same
        // instant; what it leaves, the general parser decides.
        let years = ["0000", "1969", "2012", "2013", "9999", "20x2"];
        let months = ["00", "01", "02", "12", "13"];
        let days = ["00", "01", "28", "29", "30", "31", "32"];
        let hours = ["00", "23", "24", "25"];
        let minutes = ["00", "59", "60"];
        let ends = ["Z", "z", "+"];
        let mut taken = 0;
        for y in years {
            for m in months {
                for d in days {
                    for h in hours {
                        for mi in minutes {
                            for end in ends {
                                let text = format!("{y}-{m}-{d}T{h}:{mi}{end}");
                                let Some(instant) = canonical_utc(&text, ProcessingZone::UTC)
                                else {
                                    continue;
                                };
                                taken += 1;
                                let general = parse_fields(&text, ProcessingZone::UTC).unwrap();
                                assert_eq!(
                                    (general.instant, general.hour_24),
                                    (instant, false),
                                    "{text}"
                                );
                            }
                        }
                    }
                }
            }
        }
        // (Year 0000 is not taken: the general parser refuses it.)
        assert_eq!(taken, 196, "the in-range combinations");
        assert!(parse_datetime("0000-01-01T00:00Z", ProcessingZone::UTC).is_err());
        assert!(parse_datetime("0001-01-01T00:00Z", ProcessingZone::UTC).is_ok());
        // Another processing zone, or another shape, is the general parser's.
        let gmt = ProcessingZone::parse_option("GMT+0530").unwrap();
        assert_eq!(canonical_utc("2009-01-01T08:00Z", gmt), None);
        assert_eq!(
            canonical_utc(" 2009-01-01T08:00Z", ProcessingZone::UTC),
            None
        );
        assert_eq!(canonical_utc("2009-1-01T08:00Z", ProcessingZone::UTC), None);
    }

    #[test]
    fn oozie_accepts() {
        assert_eq!(parse("2009-01-01T08:00Z").unwrap(), "2009-01-01T08:00Z");
        // SimpleDateFormat takes any count of digits (TestCoordELFunctions.java:555).
        assert_eq!(parse("2009-1-1T7:00Z").unwrap(), "2009-01-01T07:00Z");
        assert_eq!(parse("  2009-01-01T08:00Z ").unwrap(), "2009-01-01T08:00Z");
        assert_eq!(parse("2012-02-29T00:00Z").unwrap(), "2012-02-29T00:00Z");
    }

    #[test]
    fn oozie_rejects() {
        // DateUtils.java (parseDateOozieTZ).
        assert!(
            parse("2009-01-01T00:15:00Z")
                .unwrap_err()
                .contains("seconds")
        );
        assert!(parse("2009-01-01T00:15").is_err());
        assert!(parse("2013-02-30T00:00Z").unwrap_err().contains("day 30"));
        assert!(parse("2013-01-01T00:60Z").is_err());
        assert!(parse("2013-13-01T00:00Z").is_err());
        assert!(parse("2013-01-01T00:00Zx").is_err());
        assert!(parse("2013-01-01 00:00Z").is_err());
    }

    #[test]
    fn a_datetime_of_another_processing_zone_says_which() {
        let utc = ProcessingZone::UTC;
        let tokyo = ProcessingZone::parse("GMT+0900").unwrap();
        let e = parse_datetime("2017-07-10T01:00+0900", utc).unwrap_err();
        assert_eq!(e.written_for, Some(tokyo));
        assert_eq!(e.message, "expected `Z` here, not `+0900`");
        let help = e.to_diagnostic(0, utc).help.clone().unwrap();
        assert!(
            help.contains("--processing-timezone GMT+0900")
                && help.contains(
                    "(for coordc check, also processing-timezone = \"GMT+0900\" in coordc.toml)"
                ),
            "{help}"
        );
        // And the other way, and between two offsets.
        let e = parse_datetime("2017-07-10T01:00Z", tokyo).unwrap_err();
        assert_eq!(e.written_for, Some(utc));
        assert!(
            e.to_diagnostic(0, tokyo)
                .help
                .clone()
                .unwrap()
                .contains("--processing-timezone UTC")
        );
        let e = parse_datetime("2017-07-10T01:00-0530", tokyo).unwrap_err();
        assert_eq!(e.written_for, ProcessingZone::parse("GMT-0530"));
        // Not a processing zone's suffix: the usual help.
        for text in [
            "2017-07-10T01:00+09:00",
            "2017-07-10T01:00+2500",
            "2017-07-10T01:00",
        ] {
            assert_eq!(
                parse_datetime(text, utc).unwrap_err().written_for,
                None,
                "{text}"
            );
        }
        assert_eq!(
            parse_datetime("2017-07-10T10:00+0900", tokyo)
                .unwrap()
                .instant
                .to_rfc3339(),
            "2017-07-10T01:00:00+00:00"
        );
    }

    #[test]
    fn the_last_day_of_the_calendar_is_an_error_not_a_panic() {
        assert!(parse_datetime("262142-12-31T24:00Z", ProcessingZone::UTC).is_err());
        let west = ProcessingZone::parse("GMT-1200").unwrap();
        assert!(parse_datetime("262142-12-31T23:00-1200", west).is_err());
        let east = ProcessingZone::parse("GMT+1200").unwrap();
        assert!(parse_datetime("-262143-01-01T00:00+1200", east).is_err());
    }

    #[test]
    fn hour_24_is_next_midnight_and_flagged() {
        // Spec §4.1.1: 2009-01-01T24:00Z is 2009-01-02T00:00Z.
        let t = parse_datetime("2009-01-01T24:00Z", ProcessingZone::UTC).unwrap();
        assert!(t.hour_24);
        assert_eq!(format_utc(t.instant), "2009-01-02T00:00Z");
    }

    #[test]
    fn processing_zone_offsets() {
        // Spec §4.1: 2009-01-01T09:00+0530 is 03:30 UTC. GMT+0000 is not UTC
        // to Oozie (DateUtils.java:74, `ACTIVE_TIMEZONE.equals(UTC)` is false for Java's
        // custom zone): its mask ends in +0000, not Z.
        for (id, local, utc) in [
            ("GMT+0530", "2009-01-01T09:00+0530", "2009-01-01T03:30Z"),
            ("GMT+0000", "2009-01-01T09:00+0000", "2009-01-01T09:00Z"),
            ("GMT-0000", "2009-01-01T09:00-0000", "2009-01-01T09:00Z"),
        ] {
            let pz = ProcessingZone::parse(id).unwrap();
            assert_eq!(pz.id(), id);
            let t = parse_datetime(local, pz).unwrap();
            assert_eq!(format_utc(t.instant), utc);
            assert!(parse_datetime("2009-01-01T09:00Z", pz).is_err());
            assert_eq!(pz.format(t.instant), local);
        }
        assert_eq!(
            ProcessingZone::parse("GMT-0800").unwrap().offset_minutes,
            -480
        );
        // Years past 9999 are written with all their digits and no sign, as
        // SimpleDateFormat's yyyy writes them (differential fuzzing K2), and
        // read back.
        let far = parse_datetime("10009-01-01T00:00Z", ProcessingZone::UTC).unwrap();
        assert_eq!(format_utc(far.instant), "10009-01-01T00:00Z");
        // Only what DateUtils.setConf accepts: UTC and GMT±HHMM.
        for rejected in [
            "GMT",
            "GMT-08:00",
            "GMT+5",
            "GMT+2400",
            "GMT+0560",
            "America/Los_Angeles",
        ] {
            assert!(ProcessingZone::parse(rejected).is_none(), "{rejected}");
        }
    }
}
