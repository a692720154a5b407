//! Java's `SimpleDateFormat` pattern language (Locale en_US), which
//! `coord:formatTime` formats with (DateUtils.java:107-111, 223-225). A pattern is compiled
//! into fields and literals, as Java's `SimpleDateFormat.compile` does: ASCII
//! letters are fields (an unknown one is an error), `'...'` quotes text, `''` is a
//! quote, anything else is literal. Weeks follow en_US: weeks start on Sunday and
//! week 1 is the one containing January 1st.

use super::zone::format_offset;
use chrono::{Datelike, NaiveDate, NaiveDateTime, Timelike};

/// One compiled piece of a pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    Literal(String),
    /// A pattern letter repeated `count` times.
    Field(char, usize),
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const DAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

/// The letters `SimpleDateFormat` knows (its `patternChars`).
const PATTERN_LETTERS: &str = "GyMdkHmsSEDFwWahKzZYuXL";

fn compile(pattern: &str) -> Result<Vec<Piece>, String> {
    let mut pieces = Vec::new();
    let mut chars = pattern.chars().peekable();
    let mut literal = String::new();
    while let Some(c) = chars.next() {
        if c == '\'' {
            if chars.peek() == Some(&'\'') {
                chars.next();
                literal.push('\'');
                continue;
            }
            // Quoted text up to the closing quote; `''` inside is a quote.
            loop {
                match chars.next() {
                    None => return Err(format!("Unterminated quote in pattern \"{pattern}\"")),
                    Some('\'') if chars.peek() == Some(&'\'') => {
                        chars.next();
                        literal.push('\'');
                    }
                    Some('\'') => break,
                    Some(q) => literal.push(q),
                }
            }
        } else if c.is_ascii_alphabetic() {
            if !PATTERN_LETTERS.contains(c) {
                return Err(format!("Illegal pattern character '{c}'"));
            }
            let mut count = 1;
            while chars.peek() == Some(&c) {
                chars.next();
                count += 1;
            }
            if c == 'X' && count > 3 {
                return Err(format!("invalid ISO 8601 format: length={count}"));
            }
            if !literal.is_empty() {
                pieces.push(Piece::Literal(std::mem::take(&mut literal)));
            }
            pieces.push(Piece::Field(c, count));
        } else {
            literal.push(c);
        }
    }
    if !literal.is_empty() {
        pieces.push(Piece::Literal(literal));
    }
    Ok(pieces)
}

/// The zone a time is formatted in: a fixed offset east of UTC, in minutes, as
/// Oozie's processing time zone is.
#[derive(Debug, Clone, Copy)]
pub struct FixedZone {
    pub offset_minutes: i32,
    /// A custom `GMT±HH:MM` zone rather than `UTC`, even at offset 0
    /// (`ProcessingZone::gmt`).
    pub gmt: bool,
    /// `GMT-00:00`, the sign kept (`ProcessingZone::minus_zero`).
    pub minus_zero: bool,
}

/// Formats `local` (wall time in `zone`) with `pattern` as `SimpleDateFormat`.
pub fn format(local: NaiveDateTime, zone: FixedZone, pattern: &str) -> Result<String, String> {
    // The last pattern stays compiled: a dry run formats with the same one for
    // every action.
    thread_local!(static LAST: std::cell::RefCell<Option<(String, Vec<Piece>)>> = const { std::cell::RefCell::new(None) });
    LAST.with_borrow_mut(|last| {
        let pieces = match last {
            Some((p, pieces)) if p == pattern => pieces,
            _ => &last.insert((pattern.to_string(), compile(pattern)?)).1,
        };
        Ok(render(pieces, local, zone))
    })
}

fn render(pieces: &[Piece], local: NaiveDateTime, zone: FixedZone) -> String {
    let mut out = String::with_capacity(32);
    for piece in pieces {
        match piece {
            Piece::Literal(text) => out.push_str(text),
            Piece::Field(letter, count) => field(&mut out, local, zone, *letter, *count),
        }
    }
    out
}

fn pad(out: &mut String, value: i64, width: usize) {
    if value < 0 {
        out.push('-');
    }
    let mut buffer = itoa::Buffer::new();
    let digits = buffer.format(value.unsigned_abs());
    for _ in digits.len()..width {
        out.push('0');
    }
    out.push_str(digits);
}

/// Name `index` of `names` (`MONTHS` by month0, `DAYS` from Sunday, so
/// always there), in full or in three letters.
fn text(out: &mut String, names: &[&str], index: u32, count: usize) {
    let Some(full) = names.get(index as usize) else {
        return;
    };
    if count >= 4 {
        out.push_str(full);
    } else {
        out.push_str(full.get(..3).unwrap_or(full));
    }
}

fn field(out: &mut String, t: NaiveDateTime, zone: FixedZone, letter: char, count: usize) {
    let date = t.date();
    match letter {
        'G' => out.push_str(if date.year() > 0 { "AD" } else { "BC" }),
        'y' | 'Y' => {
            let year = if letter == 'y' {
                date.year()
            } else {
                week_of_year(date).0
            };
            // Java prints the year of era, and `yy` as its last two digits.
            let year = if year > 0 { year } else { 1 - year } as i64;
            if count == 2 {
                pad(out, year % 100, 2);
            } else {
                pad(out, year, count);
            }
        }
        'M' | 'L' => match count {
            1 | 2 => pad(out, date.month() as i64, count),
            _ => text(out, &MONTHS, date.month0(), count),
        },
        'd' => pad(out, date.day() as i64, count),
        'D' => pad(out, date.ordinal() as i64, count),
        'F' => pad(out, ((date.day() - 1) / 7 + 1) as i64, count),
        'E' => text(out, &DAYS, date.weekday().num_days_from_sunday(), count),
        'u' => pad(out, date.weekday().number_from_monday() as i64, count),
        'w' => pad(out, week_of_year(date).1 as i64, count),
        'W' => pad(out, week_of_month(date) as i64, count),
        'a' => out.push_str(if t.hour() < 12 { "AM" } else { "PM" }),
        'H' => pad(out, t.hour() as i64, count),
        'k' => pad(out, if t.hour() == 0 { 24 } else { t.hour() } as i64, count),
        'K' => pad(out, (t.hour() % 12) as i64, count),
        'h' => pad(
            out,
            if t.hour().is_multiple_of(12) {
                12
            } else {
                t.hour() % 12
            } as i64,
            count,
        ),
        'm' => pad(out, t.minute() as i64, count),
        's' => pad(out, t.second() as i64, count),
        'S' => pad(out, (t.nanosecond() / 1_000_000) as i64, count),
        'z' => zone_name(out, zone, count),
        'Z' => out.push_str(&format_offset(zone.offset_minutes * 60, false)),
        'X' if zone.offset_minutes == 0 => out.push('Z'),
        // `X` is the sign and hours only, `XX` adds minutes, `XXX` a colon too.
        'X' => {
            let offset = format_offset(zone.offset_minutes * 60, count >= 3);
            out.push_str(if count == 1 { &offset[..3] } else { &offset });
        }
        _ => unreachable!("compile admits only pattern letters"),
    }
}

/// `z`: the zone's short name, `zzzz` its long name; a custom offset zone is
/// named `GMT+05:30` either way.
fn zone_name(out: &mut String, zone: FixedZone, count: usize) {
    if !zone.gmt {
        out.push_str(if count >= 4 {
            "Coordinated Universal Time"
        } else {
            "UTC"
        });
    } else if zone.minus_zero {
        out.push_str("GMT-00:00");
    } else {
        out.push_str("GMT");
        out.push_str(&format_offset(zone.offset_minutes * 60, true));
    }
}

/// (week year, week of year) with weeks starting on Sunday and week 1 being the
/// week that contains January 1st (en_US: minimal days in first week 1).
fn week_of_year(date: NaiveDate) -> (i32, u32) {
    let week_start =
        |d: NaiveDate| d - chrono::Days::new(d.weekday().num_days_from_sunday() as u64);
    // The week belongs to next year if it contains next January 1st.
    let next_jan1 = NaiveDate::from_ymd_opt(date.year() + 1, 1, 1);
    if next_jan1.is_some_and(|j| week_start(j) == week_start(date)) {
        return (date.year() + 1, 1);
    }
    (date.year(), week_counting_from(date, date.ordinal0()))
}

/// Week of month: week 1 contains the 1st (weeks start on Sunday).
fn week_of_month(date: NaiveDate) -> u32 {
    week_counting_from(date, date.day0())
}

/// The week of `date`, counting the week (Sunday to Saturday) of the day
/// `days_before` days earlier as week 1.
fn week_counting_from(date: NaiveDate, days_before: u32) -> u32 {
    // Days the week of that day had run before it (0 on a Sunday).
    let first_weekday = (date.weekday().num_days_from_sunday() + 7 - days_before % 7) % 7;
    (days_before + first_weekday) / 7 + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(t: &str, pattern: &str) -> String {
        let local = NaiveDateTime::parse_from_str(t, "%Y-%m-%d %H:%M").unwrap();
        format(
            local,
            FixedZone {
                offset_minutes: 0,
                gmt: false,
                minus_zero: false,
            },
            pattern,
        )
        .unwrap()
    }

    #[test]
    fn spec_examples() {
        // Coordinator spec §6.9.3: formatTime('2009-01-01T00:00Z', 'yyyyMMdd') → 20090101 etc.
        assert_eq!(fmt("2009-01-01 00:00", "yyyyMMdd"), "20090101");
        assert_eq!(fmt("2009-01-01 00:00", "yyyy-MM-dd EEE"), "2009-01-01 Thu");
        assert_eq!(
            fmt("2009-07-04 15:05", "yy/M/d h:mm a EEEE MMMM"),
            "09/7/4 3:05 PM Saturday July"
        );
        assert_eq!(
            fmt("2009-01-01 00:00", "'at' HH 'o''clock' ''"),
            "at 00 o'clock '"
        );
        assert_eq!(
            fmt("2009-01-01 00:00", "z zzzz Z X XXX"),
            "UTC Coordinated Universal Time +0000 Z Z"
        );
    }

    #[test]
    fn offsets_of_a_gmt_processing_zone() {
        let local = NaiveDateTime::parse_from_str("2009-01-01 09:00", "%Y-%m-%d %H:%M").unwrap();
        let zone = FixedZone {
            offset_minutes: 330,
            gmt: true,
            minus_zero: false,
        };
        let got = format(local, zone, "Z X XX XXX z").unwrap();
        assert_eq!(got, "+0530 +05 +0530 +05:30 GMT+05:30");
        let west = FixedZone {
            offset_minutes: -480,
            gmt: true,
            minus_zero: false,
        };
        assert_eq!(format(local, west, "Z XXX").unwrap(), "-0800 -08:00");
        // GMT+0000 is a custom zone in Java, not UTC: named by its offset
        // (differential fuzzing finding K3, the JDK's SimpleDateFormat).
        let zero = FixedZone {
            offset_minutes: 0,
            gmt: true,
            minus_zero: false,
        };
        assert_eq!(
            format(local, zero, "z zzzz Z X").unwrap(),
            "GMT+00:00 GMT+00:00 +0000 Z"
        );
        // GMT-0000 keeps its sign in the name, not in the offset.
        let minus_zero = crate::time::datetime::ProcessingZone::parse("GMT-0000")
            .unwrap()
            .format_zone();
        assert_eq!(
            format(local, minus_zero, "z zzzz Z").unwrap(),
            "GMT-00:00 GMT-00:00 +0000"
        );
    }

    #[test]
    fn weeks_follow_en_us() {
        // 2008-12-28 (Sunday) starts the week that holds 2009-01-01: week 1 of 2009.
        assert_eq!(fmt("2008-12-28 00:00", "YYYY w"), "2009 1");
        assert_eq!(fmt("2009-01-04 00:00", "w W F D"), "2 2 1 4");
        assert_eq!(fmt("2009-12-31 00:00", "w D u"), "1 365 4");
    }

    #[test]
    fn bad_patterns_are_errors() {
        let local = NaiveDateTime::parse_from_str("2009-01-01 00:00", "%Y-%m-%d %H:%M").unwrap();
        let zone = FixedZone {
            offset_minutes: 0,
            gmt: false,
            minus_zero: false,
        };
        assert!(format(local, zone, "yyyy-q").unwrap_err().contains("'q'"));
        assert!(
            format(local, zone, "'open")
                .unwrap_err()
                .contains("Unterminated")
        );
    }
}
