//! Time zones as Oozie accepts them (`DateUtils.getTimeZone`, DateUtils.java:124-155): an ID is
//! valid iff Java's `TimeZone.getTimeZone(id).getID()` gives it back unchanged, after
//! Oozie rewrites `GMT±HHMM` to `GMT±HH:MM`. So IANA names match exactly and
//! case-sensitively, `GMT±HH:MM` custom IDs work, and Java's legacy three-letter IDs
//! (`PST`, `IST`, ...) are accepted with the rules Java maps them to.

use crate::diag::Diagnostic;
use crate::diag::rules::TIME_ZONE;
use crate::span::Span;
use chrono::{DateTime, Datelike, FixedOffset, NaiveDateTime, Offset, TimeZone, Utc};
use chrono_tz::{OffsetComponents, Tz};
use compact_str::CompactString;

/// A time zone Oozie accepts, under the ID the application wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct Zone {
    /// (Inline up to 24 bytes: a zone is cloned into every dataset clock.)
    id: CompactString,
    rules: Rules,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Rules {
    Fixed(FixedOffset),
    Tz(Tz),
}

/// Java's three-letter IDs that are not tzdb names, and the zone each follows
/// (the JDK's `ZoneInfoFile` old mappings; `EST`, `MST` and `HST` are the
/// fixed offsets of [`JAVA_FIXED_IDS`]).
/// Java's three-letter IDs of a fixed offset (seconds east of UTC). tzdb
/// 2024b made them links to regions with a history (`MST` to
/// America/Phoenix, with DST in 1942-44 and 1967; `HST` to Pacific/Honolulu,
/// -10:30 before 1947), which chrono-tz follows; the JDK keeps them fixed
/// (differential fuzzing finding K4).
const JAVA_FIXED_IDS: &[(&str, i32)] =
    &[("EST", -5 * 3600), ("MST", -7 * 3600), ("HST", -10 * 3600)];

pub const JAVA_SHORT_IDS: &[(&str, &str)] = &[
    ("ACT", "Australia/Darwin"),
    ("AET", "Australia/Sydney"),
    ("AGT", "America/Argentina/Buenos_Aires"),
    ("ART", "Africa/Cairo"),
    ("AST", "America/Anchorage"),
    ("BET", "America/Sao_Paulo"),
    ("BST", "Asia/Dhaka"),
    ("CAT", "Africa/Harare"),
    ("CNT", "America/St_Johns"),
    ("CST", "America/Chicago"),
    ("CTT", "Asia/Shanghai"),
    ("EAT", "Africa/Addis_Ababa"),
    ("ECT", "Europe/Paris"),
    ("IET", "America/Indiana/Indianapolis"),
    ("IST", "Asia/Kolkata"),
    ("JST", "Asia/Tokyo"),
    ("MIT", "Pacific/Apia"),
    ("NET", "Asia/Yerevan"),
    ("NST", "Pacific/Auckland"),
    ("PLT", "Asia/Karachi"),
    ("PNT", "America/Phoenix"),
    ("PRT", "America/Puerto_Rico"),
    ("PST", "America/Los_Angeles"),
    ("SST", "Pacific/Guadalcanal"),
    ("VST", "Asia/Ho_Chi_Minh"),
];

/// tzdb names Java does not give back unchanged: `GMT+0`/`GMT-0` are read as
/// custom IDs (`GMT+00:00`), and the JDK has no `ROC` (checked with the JDK
/// itself: tests/calendar_oracle.rs).
const NOT_JAVA_IDS: &[&str] = &["GMT+0", "GMT-0", "ROC"];

/// Why an ID is not a zone Oozie accepts.
#[derive(Debug, Clone, PartialEq)]
pub struct UnknownZone {
    /// The accepted ID the text most likely meant.
    pub suggestion: Option<String>,
}

impl UnknownZone {
    /// As a diagnostic for `id`, written at `span`.
    pub fn to_diagnostic(&self, id: &str, span: Span) -> Diagnostic {
        let d = Diagnostic::error(TIME_ZONE, span, format!("unknown time zone `{id}`"));
        match &self.suggestion {
            Some(s) => d.with_help(format!("did you mean `{s}`? (zone IDs are case-sensitive)")),
            None => d.with_help(
                "use an IANA name such as `America/Los_Angeles`, `UTC`, or `GMT+05:30`; `coordc timezones` lists them all",
            ),
        }
    }
}

impl Zone {
    pub fn utc() -> Zone {
        Zone {
            id: CompactString::const_new("UTC"),
            rules: Rules::Tz(Tz::UTC),
        }
    }

    /// Resolves an ID as Oozie does; `GMT+0530` is accepted and kept as written.
    pub fn parse(id: &str) -> Result<Zone, UnknownZone> {
        if let Some(offset) = custom_gmt_offset(id) {
            return Ok(Zone {
                id: CompactString::from(id),
                rules: Rules::Fixed(offset),
            });
        }
        if let Some(offset) = JAVA_FIXED_IDS
            .iter()
            .find(|(short, _)| *short == id)
            .and_then(|(_, seconds)| FixedOffset::east_opt(*seconds))
        {
            return Ok(Zone {
                id: CompactString::from(id),
                rules: Rules::Fixed(offset),
            });
        }
        let tz_name = JAVA_SHORT_IDS
            .iter()
            .find(|(short, _)| *short == id)
            .map_or(id, |(_, name)| name);
        match tz_name.parse::<Tz>() {
            // chrono-tz also parses names case-insensitively; Java does not.
            Ok(tz) if tz.name() == tz_name && !NOT_JAVA_IDS.contains(&id) => Ok(Zone {
                id: CompactString::from(id),
                rules: Rules::Tz(tz),
            }),
            _ => Err(UnknownZone {
                suggestion: suggest(id),
            }),
        }
    }

    pub(crate) fn id(&self) -> &str {
        &self.id
    }

    /// A legacy three-letter ID: Oozie accepts it with a warning, since most
    /// users expect it to be a fixed offset, and many of them observe DST.
    pub fn is_legacy_short_id(&self) -> bool {
        // (Every one is three letters: other IDs are not compared one by one.)
        self.id.len() == 3
            && (JAVA_SHORT_IDS.iter().any(|(short, _)| *short == self.id)
                || JAVA_FIXED_IDS.iter().any(|(short, _)| *short == self.id))
    }

    /// What a legacy three-letter ID stands for, written as an ID Oozie
    /// takes without a warning: the region Java maps it to, or for `EST`,
    /// `MST`, `HST` (fixed offsets in Java) the custom `GMT-hh:mm` ID.
    pub fn canonical_id(&self) -> Option<&'static str> {
        if !self.is_legacy_short_id() {
            return None;
        }
        match self.id.as_str() {
            "EST" => Some("GMT-05:00"),
            "MST" => Some("GMT-07:00"),
            "HST" => Some("GMT-10:00"),
            id => JAVA_SHORT_IDS
                .iter()
                .find(|(short, _)| *short == id)
                .map(|(_, region)| *region),
        }
    }

    /// The total UTC offset at `t`, in seconds.
    pub fn offset_seconds(&self, t: DateTime<Utc>) -> i32 {
        match self.rules {
            Rules::Fixed(f) => f.local_minus_utc(),
            Rules::Tz(tz) => tz
                .offset_from_utc_datetime(&t.naive_utc())
                .fix()
                .local_minus_utc(),
        }
    }

    /// The daylight-saving part of the offset at `t`, in seconds (Java's
    /// `Calendar.DST_OFFSET`); 0 when `t` is in standard time.
    pub fn dst_seconds(&self, t: DateTime<Utc>) -> i32 {
        match self.rules {
            Rules::Fixed(_) => 0,
            Rules::Tz(tz) => {
                let dst = tz.offset_from_utc_datetime(&t.naive_utc()).dst_offset();
                dst.num_seconds() as i32
            }
        }
    }

    /// The smaller of the offsets at the start of January and of July of
    /// `year`: a time whose offset is above it is in the year's summer
    /// time, whichever way the rules write it (tzdb's main data gives
    /// Europe/Dublin a negative DST in winter rather than a positive one in
    /// summer, so [`Zone::dst_seconds`] alone does not say).
    pub fn winter_offset_seconds(&self, year: i32) -> i32 {
        let at = |month| {
            chrono::NaiveDate::from_ymd_opt(year, month, 1)
                .and_then(|d| d.and_hms_opt(0, 0, 0))
                .map_or(0, |n| self.offset_seconds(n.and_utc()))
        };
        at(1).min(at(7))
    }

    /// The standard (non-DST) offset at `t`, in seconds (Java's `ZONE_OFFSET`).
    pub fn standard_offset_seconds(&self, t: DateTime<Utc>) -> i32 {
        self.offset_seconds(t) - self.dst_seconds(t)
    }

    /// Wall-clock time at `t`.
    pub fn local(&self, t: DateTime<Utc>) -> NaiveDateTime {
        t.naive_utc() + chrono::Duration::seconds(self.offset_seconds(t) as i64)
    }

    /// Whether the zone's offset never changes: a custom `GMT±HH:MM`, Java's
    /// fixed IDs, UTC and tzdb's other names for a fixed offset (`Etc/...`).
    pub(crate) fn has_fixed_offset(&self) -> bool {
        match self.rules {
            Rules::Fixed(_) => true,
            Rules::Tz(tz) => {
                let name = tz.name();
                name.starts_with("Etc/")
                    || matches!(
                        name,
                        "UTC"
                            | "UCT"
                            | "GMT"
                            | "GMT0"
                            | "GMT+0"
                            | "GMT-0"
                            | "Greenwich"
                            | "Universal"
                            | "Zulu"
                    )
            }
        }
    }

    /// Whether the zone has daylight saving time in the year of `t` (Java's
    /// `useDaylightTime`, which looks at the current rules).
    pub fn observes_dst(&self, t: DateTime<Utc>) -> bool {
        let Rules::Tz(_) = self.rules else {
            return false;
        };
        let year = self.local(t).year();
        (1..=12).any(|month| {
            let probe = chrono::NaiveDate::from_ymd_opt(year, month, 15)
                .and_then(|d| d.and_hms_opt(12, 0, 0))
                .map(|n| n.and_utc());
            probe.is_some_and(|p| self.dst_seconds(p) != 0)
        })
    }
}

/// `GMT±HH:MM` as Java accepts it in a custom ID (hours 0-23, minutes 0-59, two
/// digits each), or `GMT±HHMM`, which Oozie rewrites to that form first.
fn custom_gmt_offset(id: &str) -> Option<FixedOffset> {
    let (sign, digits) = match id.strip_prefix("GMT")?.as_bytes() {
        [b'+', d @ ..] => (1, d),
        [b'-', d @ ..] => (-1, d),
        _ => return None,
    };
    let (h, m) = match *digits {
        [h1, h2, b':', m1, m2] | [h1, h2, m1, m2] => (two_digits(h1, h2)?, two_digits(m1, m2)?),
        _ => return None,
    };
    if h > 23 || m > 59 {
        return None;
    }
    FixedOffset::east_opt(sign * (h * 3600 + m * 60))
}

/// The value of two ASCII digits (`b'0', b'5'` is 5); `None` if either is not a digit.
pub(super) fn two_digits(tens: u8, ones: u8) -> Option<i32> {
    (tens.is_ascii_digit() && ones.is_ascii_digit())
        .then(|| i32::from(tens - b'0') * 10 + i32::from(ones - b'0'))
}

/// A UTC offset as `+HH:MM` (`colon`) or `+HHMM`.
pub(crate) fn format_offset(seconds: i32, colon: bool) -> String {
    let sign = if seconds < 0 { '-' } else { '+' };
    let minutes = seconds.abs() / 60;
    let colon = if colon { ":" } else { "" };
    format!("{sign}{:02}{colon}{:02}", minutes / 60, minutes % 60)
}

/// Every ID `Zone::parse` accepts apart from custom `GMT±HH:MM` ones, sorted.
pub(crate) fn all_ids() -> Vec<&'static str> {
    let mut ids: Vec<&'static str> = chrono_tz::TZ_VARIANTS
        .iter()
        .map(|tz| tz.name())
        .chain(JAVA_SHORT_IDS.iter().map(|(short, _)| *short))
        .filter(|id| !NOT_JAVA_IDS.contains(id))
        .collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

fn suggest(id: &str) -> Option<String> {
    let ids = all_ids();
    if let Some(exact) = ids.iter().find(|c| c.eq_ignore_ascii_case(id)) {
        return Some(exact.to_string());
    }
    crate::diag::closest_at(&id.replace(' ', "_"), ids, 0.9)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    #[test]
    fn accepts_what_oozie_accepts() {
        // DateUtils.java:124-155.
        for id in [
            "America/Los_Angeles",
            "Asia/Kolkata",
            "GMT+05:30",
            "GMT+0530",
            "UTC",
            "GMT",
            "PST",
            "IST",
            "EST",
        ] {
            assert!(Zone::parse(id).is_ok(), "{id}");
        }
        for id in [
            "GMT+5:30",
            "america/los_angeles",
            "Americas/Los_Angeles",
            "US/Los Angeles",
            "GMT+24:00",
            "Foo/Bar",
            "utc",
        ] {
            assert!(Zone::parse(id).is_err(), "{id}");
        }
    }

    #[test]
    fn did_you_mean() {
        let s = |id| Zone::parse(id).unwrap_err().suggestion;
        assert_eq!(
            s("Americas/Los_Angeles").as_deref(),
            Some("America/Los_Angeles")
        );
        assert_eq!(
            s("america/los_angeles").as_deref(),
            Some("America/Los_Angeles")
        );
        assert_eq!(s("utc").as_deref(), Some("UTC"));
        assert_eq!(s("Nowhere/Special"), None);
    }

    /// Summer time by offset, in both hemispheres and in Dublin, whose
    /// tzdb rules write winter as a negative DST.
    #[test]
    fn the_winter_offset_is_the_years_smaller_one() {
        let winter = |id: &str| Zone::parse(id).unwrap().winter_offset_seconds(2025);
        assert_eq!(winter("America/Los_Angeles"), -8 * 3600);
        assert_eq!(winter("Australia/Sydney"), 10 * 3600);
        assert_eq!(winter("Europe/Dublin"), 0);
        assert_eq!(winter("UTC"), 0);
        let dublin = Zone::parse("Europe/Dublin").unwrap();
        let july = Utc.with_ymd_and_hms(2025, 7, 1, 12, 0, 0).unwrap();
        assert!(dublin.offset_seconds(july) > winter("Europe/Dublin"));
    }

    #[test]
    fn offsets_follow_java() {
        let la = Zone::parse("America/Los_Angeles").unwrap();
        assert_eq!(la.offset_seconds(at("2009-01-01T00:00:00Z")), -8 * 3600);
        assert_eq!(la.offset_seconds(at("2009-07-01T00:00:00Z")), -7 * 3600);
        assert_eq!(la.dst_seconds(at("2009-07-01T00:00:00Z")), 3600);
        let pst = Zone::parse("PST").unwrap();
        assert!(pst.is_legacy_short_id());
        assert!(Zone::parse("EST").unwrap().is_legacy_short_id());
        assert!(!la.is_legacy_short_id() && !Zone::parse("UTC").unwrap().is_legacy_short_id());
        // `is_legacy_short_id` compares three-letter IDs only.
        assert!(JAVA_SHORT_IDS.iter().all(|(short, _)| short.len() == 3));
        assert_eq!(pst.dst_seconds(at("2009-07-01T00:00:00Z")), 3600);
        let est = Zone::parse("EST").unwrap();
        assert_eq!(est.dst_seconds(at("2009-07-01T00:00:00Z")), 0);
        // Fixed in the JDK, whatever tzdb links them to (differential fuzzing
        // K4, the JDK's answers): no DST for MST in 1967, HST -10:00 in 1944.
        let mst = Zone::parse("MST").unwrap();
        assert_eq!(mst.offset_seconds(at("1967-07-01T12:00:00Z")), -7 * 3600);
        assert_eq!(mst.dst_seconds(at("1967-07-01T12:00:00Z")), 0);
        let hst = Zone::parse("HST").unwrap();
        assert_eq!(hst.offset_seconds(at("1944-02-12T23:00:00Z")), -10 * 3600);
        assert_eq!(est.offset_seconds(at("1900-01-01T00:00:00Z")), -5 * 3600);
        let ist = Zone::parse("GMT+0530").unwrap();
        assert_eq!(ist.offset_seconds(at("2009-07-01T00:00:00Z")), 19800);
        assert!(la.observes_dst(at("2009-07-01T00:00:00Z")));
        assert!(
            !Zone::parse("Asia/Kolkata")
                .unwrap()
                .observes_dst(at("2009-07-01T00:00:00Z"))
        );
    }
}
