//! One field of a cron text read as Quartz 2.3.2's `CronExpression` reads it
//! (`buildExpression`, `storeExpressionVals`): the values, ranges, steps and
//! names of a field, the day rules (`L`, `W`, `#`), and the text Quartz
//! reads other than as written.

use super::quartz::{MonthDays, WeekDays};
use super::{CronError, CronErrorKind, CronQuirk};
use logos::Logos;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Field {
    Minute,
    Hour,
    DayOfMonth,
    Month,
    DayOfWeek,
}

impl Field {
    fn name(self) -> &'static str {
        match self {
            Field::Minute => "minute",
            Field::Hour => "hour",
            Field::DayOfMonth => "day-of-month",
            Field::Month => "month",
            Field::DayOfWeek => "day-of-week",
        }
    }

    /// The values a field takes, as Quartz numbers them.
    fn range(self) -> (u32, u32) {
        match self {
            Field::Minute => (0, 59),
            Field::Hour => (0, 23),
            Field::DayOfMonth => (1, 31),
            Field::Month => (1, 12),
            Field::DayOfWeek => (1, 7),
        }
    }
}

#[derive(Logos, Debug, Clone, Copy, PartialEq, Eq)]
enum Tok {
    #[regex("[0-9]+")]
    Number,
    #[regex("[A-Za-z]+")]
    Word,
    #[token("*")]
    Star,
    #[token("?")]
    Question,
    #[token("/")]
    Slash,
    #[token("-")]
    Dash,
    #[token(",")]
    Comma,
    #[token("#")]
    Hash,
}

/// A parsed field: its items and whether it was exactly `*` or `?`.
pub(super) struct ParsedField {
    pub(super) bits: u64,
    pub(super) star: bool,
    pub(super) question: bool,
    /// What the field selects if it is the day-of-month one.
    pub(super) month_days: MonthDays,
    /// What the field selects if it is the day-of-week one.
    pub(super) week_days: WeekDays,
    pub(super) quirks: Vec<CronQuirk>,
}

const MONTH_NAMES: [&str; 12] = [
    "JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC",
];
const DAY_NAMES: [&str; 7] = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"];

/// One field's text (`at` is its byte offset in the cron text).
pub(super) fn parse_field(text: &str, at: usize, field: Field) -> Result<ParsedField, CronError> {
    let err = |kind, message: String, start: usize, end: usize, help: Option<&str>| CronError {
        kind,
        message: format!("{} field: {message}", field.name()),
        start: at + start,
        end: at + end.max(start + 1),
        help: help.map(str::to_string),
    };
    let mut tokens = Vec::new();
    let mut lexer = Tok::lexer(text);
    while let Some(tok) = lexer.next() {
        let span = lexer.span();
        match tok {
            Ok(t) => tokens.push((t, span.start, span.end)),
            Err(()) => {
                return Err(err(
                    CronErrorKind::Syntax,
                    format!("unexpected character `{}`", &text[span.clone()]),
                    span.start,
                    span.end,
                    Some(
                        "fields are separated by single spaces and use digits, names, `* ? / - , # L W`",
                    ),
                ));
            }
        }
    }
    let is_days = matches!(field, Field::DayOfMonth | Field::DayOfWeek);
    let star = text == "*";
    let question = text == "?";
    if question {
        if !is_days {
            return Err(err(
                CronErrorKind::Range,
                "`?` is only allowed in day-of-month or day-of-week".to_string(),
                0,
                1,
                Some("use `*`"),
            ));
        }
        return Ok(ParsedField {
            bits: 0,
            star,
            question,
            month_days: MonthDays::Unspecified,
            week_days: WeekDays::Unspecified,
            quirks: Vec::new(),
        });
    }
    // Quartz splits with a StringTokenizer, which skips empty items (`,1` is `1`).
    let items: Vec<&[(Tok, usize, usize)]> = tokens
        .split(|t| t.0 == Tok::Comma)
        .filter(|item| !item.is_empty())
        .collect();
    // Quartz refuses an `L` anywhere in a day field that has a comma anywhere
    // (`storeExpressionVals`: "Support for specifying 'L' ... with other
    // days ... is not implemented"), an empty item's too (`,L`), in any case
    // (it reads the expression upper-cased).
    if is_days
        && text.contains(',')
        && let Some(l) = text.find(['L', 'l'])
    {
        return Err(err(
            CronErrorKind::Range,
            "`L` cannot be combined with other values in a list".to_string(),
            l,
            l + 1,
            None,
        ));
    }
    if items.is_empty() {
        return Err(err(
            CronErrorKind::Syntax,
            "no values".to_string(),
            0,
            text.len(),
            Some("give a value, a range, a list, or `*`"),
        ));
    }
    let (low, high) = field.range();
    let mut bits = 0u64;
    let mut special_month_days = None;
    let mut special_week_days = None;
    let mut quirks = Vec::new();
    for item in &items {
        // (Items are not empty: see the filter above.)
        let (Some(&(_, item_start, _)), Some(&(_, _, item_end))) = (item.first(), item.last())
        else {
            continue;
        };
        // Token i's bytes and text. The arms below read only tokens their
        // pattern matched; one past the end would read as empty.
        let span = |i: usize| item.get(i).map_or((item_end, item_end), |t| (t.1, t.2));
        let src = |i: usize| {
            let (s, e) = span(i);
            text_at(text, s, e)
        };
        let word = |i: usize| src(i).to_ascii_uppercase();
        // Quartz reads a name's first three letters.
        let name = |i: usize| -> String { word(i).chars().take(3).collect() };
        let number = |i: usize| -> Result<u32, CronError> {
            src(i).parse::<u32>().map_err(|_| {
                let (s, e) = span(i);
                err(
                    CronErrorKind::Range,
                    format!("`{}` is too large", src(i)),
                    s,
                    e,
                    None,
                )
            })
        };
        // A value: a number or, in the month and day-of-week fields, a name.
        let value = |i: usize| -> Result<u32, CronError> {
            let (s, e) = span(i);
            let v = match item.get(i).map(|t| t.0) {
                Some(Tok::Number) => number(i)?,
                Some(Tok::Word) => {
                    let names: &[&str] = match field {
                        Field::Month => &MONTH_NAMES,
                        Field::DayOfWeek => &DAY_NAMES,
                        _ => &[],
                    };
                    // Quartz reads three letters and ignores the rest (`MONDAY`).
                    let w = name(i);
                    match names.iter().position(|n| w.len() == 3 && *n == w) {
                        Some(p) => p as u32 + 1,
                        None => {
                            return Err(err(
                                CronErrorKind::Syntax,
                                format!("`{}` is not a {} value", src(i), field.name()),
                                s,
                                e,
                                Some(match field {
                                    Field::Month => "months are 1-12 or JAN-DEC",
                                    Field::DayOfWeek => {
                                        "days of the week are 1-7 (1 = Sunday) or SUN-SAT"
                                    }
                                    _ => "use numbers in this field",
                                }),
                            ));
                        }
                    }
                }
                _ => return Err(unexpected(&err, text, s, e)),
            };
            if v < low || v > high {
                let help = if field == Field::DayOfWeek && v == 0 {
                    Some("Quartz numbers days of the week 1 = Sunday … 7 = Saturday; Sunday is 1")
                } else {
                    None
                };
                return Err(err(
                    CronErrorKind::Range,
                    format!("{v} is out of range ({low}-{high})"),
                    s,
                    e,
                    help,
                ));
            }
            Ok(v)
        };
        // A step after a range is read as it is; after `*` or a value,
        // Quartz's `checkIncrementRange` holds it to the field's largest value.
        let range_step = |i: usize| -> Result<u32, CronError> {
            if item.get(i).map(|t| t.0) != Some(Tok::Number) {
                let at_end = item.get(i).map_or((item_end, item_end + 1), |t| (t.1, t.2));
                return Err(err(
                    CronErrorKind::Syntax,
                    "`/` must be followed by a number".to_string(),
                    at_end.0,
                    at_end.1,
                    None,
                ));
            }
            number(i)
        };
        let step = |i: usize| -> Result<u32, CronError> {
            let s = range_step(i)?;
            if s > high {
                let (start, end) = span(i);
                return Err(err(
                    CronErrorKind::Range,
                    format!("step {s} is larger than {high}"),
                    start,
                    end,
                    None,
                ));
            }
            Ok(s)
        };
        let kinds: Vec<Tok> = item.iter().map(|t| t.0).collect();
        let mut quirk = |start: usize, end: usize, message: String| {
            quirks.push(CronQuirk {
                start: at + start,
                end: at + end,
                message: format!("{} field: {message}", field.name()),
            })
        };
        let item_text = text_at(text, item_start, item_end);
        let special_alone = |what: &str| {
            err(
                CronErrorKind::Range,
                format!("`{what}` cannot be combined with other values in a list"),
                item_start,
                item_end,
                None,
            )
        };
        // Letters that are options rather than names: L, W, LW, and a name or
        // number followed by L.
        match (field, kinds.as_slice()) {
            (_, [Tok::Star]) => bits |= range_bits(low, high, 1, field),
            (_, [Tok::Star, Tok::Slash, ..]) | (_, [Tok::Slash, ..]) => {
                let at_step = if kinds.first() == Some(&Tok::Star) {
                    2
                } else {
                    1
                };
                if item.len() != at_step + 1 {
                    // (A `/` with no step after it is shown whole.)
                    let from = item.get(at_step).map_or(item_start, |t| t.1);
                    return Err(unexpected(&err, text, from, item_end));
                }
                // `*/0` means every value in Quartz.
                let s = step(at_step)?.max(1);
                bits |= range_bits(low, high, s, field);
            }
            (Field::DayOfMonth, [Tok::Word]) if matches!(word(0).as_str(), "L" | "LW") => {
                special_month_days = Some(MonthDays::Last {
                    offset: 0,
                    weekday: word(0) == "LW",
                });
            }
            (Field::DayOfMonth, [Tok::Word, Tok::Dash, Tok::Number])
            | (Field::DayOfMonth, [Tok::Word, Tok::Dash, Tok::Number, Tok::Word])
                if word(0) == "L" && (item.len() == 3 || word(3) == "W") =>
            {
                let offset = number(2)?;
                if offset > 30 {
                    return Err(err(
                        CronErrorKind::Range,
                        format!("offset from the last day is {offset}; Quartz allows at most 30"),
                        span(2).0,
                        span(2).1,
                        None,
                    ));
                }
                special_month_days = Some(MonthDays::Last {
                    offset,
                    weekday: item.len() == 4,
                });
            }
            // Quartz ignores anything after `nW` (`1W-5` is `1W`).
            (Field::DayOfMonth, [Tok::Number, Tok::Word, ..]) if word(1).starts_with('W') => {
                if items.len() > 1 {
                    return Err(special_alone("W"));
                }
                special_month_days = Some(MonthDays::NearestWeekday(value(0)?));
            }
            (Field::DayOfWeek, [Tok::Word]) if word(0) == "L" => {
                // (`L` among other days is refused above, for the field.)
                // `L` alone in day-of-week is Saturday (Quartz adds 7).
                bits |= 1 << 7;
            }
            (Field::DayOfWeek, [Tok::Number, Tok::Word, ..]) if word(1).starts_with('L') => {
                special_week_days = Some(WeekDays::Last(value(0)?));
            }
            // `SATL`: a day name and `L` (an unknown name is an error here
            // as anywhere).
            (Field::DayOfWeek, [Tok::Word]) if word(0).len() == 4 && word(0).ends_with('L') => {
                let day = value(0)?;
                special_week_days = Some(WeekDays::Last(day));
            }
            (Field::DayOfWeek, [_, Tok::Hash, ..]) => {
                if items.len() > 1 {
                    return Err(special_alone("#"));
                }
                let day = value(0)?;
                let nth = match (item.get(2), item.len()) {
                    (Some((Tok::Number, ..)), 3) => number(2)?,
                    _ => 0,
                };
                if !(1..=5).contains(&nth) {
                    let (s, e) = span(if item.len() > 2 { 2 } else { 1 });
                    return Err(err(
                        CronErrorKind::Range,
                        "`#` must be followed by a number from 1 to 5".to_string(),
                        s,
                        e,
                        None,
                    ));
                }
                special_week_days = Some(WeekDays::Nth(day, nth));
            }
            (_, [_]) => bits |= 1 << value(0)?,
            // After a name Quartz reads only `-` and a second name: `JAN/2`
            // and `JAN/` are January.
            (_, [Tok::Word, Tok::Slash, ..]) => {
                let v = value(0)?;
                let slash = span(1).0;
                quirk(
                    slash,
                    item_end,
                    format!(
                        "Quartz ignores `{}` after the name `{}`: `{item_text}` is {} alone",
                        text_at(text, slash, item_end),
                        src(0),
                        name(0)
                    ),
                );
                bits |= 1 << v;
            }
            (_, [_, Tok::Slash, ..]) => {
                if item.len() != 3 {
                    // (A `/` with no step after it is shown from the `/`.)
                    let from = span(if item.len() > 2 { 2 } else { 1 }).0;
                    return Err(unexpected(&err, text, from, item_end));
                }
                let start = value(0)?;
                let s = step(2)?;
                if s == 0 {
                    quirk(
                        item_start,
                        item_end,
                        format!(
                            "a step of 0 keeps only the first value: Quartz reads `{item_text}` as {start}"
                        ),
                    );
                    bits |= 1 << start;
                } else {
                    bits |= range_bits(start, high, s, field);
                }
            }
            (_, [first, Tok::Dash, second, rest @ ..]) => {
                let a = value(0)?;
                // A name is its first three letters; only a `-` right after
                // them makes a range (`MONDAY-FRI` and `MONDAY-5` are MON),
                // and nothing after the second name counts (`MON-FRI/2` is
                // MON-FRI).
                if *first == Tok::Word && word(0).len() > 3 {
                    quirk(
                        item_start + 3,
                        item_end,
                        format!(
                            "Quartz reads a name's first three letters and then only `-`: `{item_text}` is {} alone",
                            name(0)
                        ),
                    );
                    bits |= 1 << a;
                    continue;
                }
                // Quartz reads a name range (`MON-FRI`) and a number range
                // (`2-6`) with different code; a mixed one (`3-TUE`) is an error.
                if first != second {
                    return Err(err(
                        CronErrorKind::Syntax,
                        "a range is two numbers or two names, not one of each".to_string(),
                        item_start,
                        span(2).1,
                        None,
                    ));
                }
                if *first == Tok::Word {
                    let b = value(2)?;
                    // (`MON-FRIDAY` is MON-FRI, as meant: not worth a word.)
                    if let Some(from) = item.get(3).map(|t| t.1) {
                        quirk(
                            from,
                            item_end,
                            format!(
                                "Quartz ignores `{}` after the range: `{item_text}` is {}-{}",
                                text_at(text, from, item_end),
                                name(0),
                                name(2)
                            ),
                        );
                    }
                    bits |= range_bits(a, b, 1, field);
                    continue;
                }
                // A range's end of 0 in a field that starts at 1 runs to the
                // field's end, as Quartz wraps it (`28-0` is 28-31; CR006).
                let b = if low == 1 && *second == Tok::Number && number(2)? == 0 {
                    0
                } else {
                    value(2)?
                };
                let s = match rest {
                    [] => 1,
                    [Tok::Slash, ..] if item.len() == 5 => range_step(4)?,
                    _ => return Err(unexpected(&err, text, span(3).0, item_end)),
                };
                let size = high - low + 1;
                let length = if b < a { b + size - a } else { b - a };
                if s == 0 || length > 0 && s > length {
                    let why = if s == 0 {
                        "a step of 0 keeps only the first value".to_string()
                    } else {
                        format!("step {s} is past the range's end")
                    };
                    quirk(
                        item_start,
                        item_end,
                        format!("{why}: Quartz reads `{item_text}` as {a}"),
                    );
                    bits |= 1 << a;
                } else {
                    bits |= range_bits(a, b, s, field);
                }
            }
            _ => return Err(unexpected(&err, text, item_start, item_end)),
        }
    }
    Ok(ParsedField {
        bits,
        star,
        question,
        month_days: special_month_days.unwrap_or(MonthDays::Set(bits as u32)),
        week_days: special_week_days.unwrap_or(WeekDays::Set(bits as u8)),
        quirks,
    })
}

fn unexpected(
    err: &impl Fn(CronErrorKind, String, usize, usize, Option<&str>) -> CronError,
    text: &str,
    start: usize,
    end: usize,
) -> CronError {
    err(
        CronErrorKind::Syntax,
        format!(
            "`{}` is not valid cron syntax here",
            text_at(text, start, end)
        ),
        start,
        end,
        Some(
            "an item is `*`, `*/n`, `a`, `a-b`, `a-b/n`, `a/n`, or for days `L`, `L-n`, `nW`, `LW`, `nL`, `n#k`",
        ),
    )
}

/// Bytes `start..end` of `text`; empty if they are not a piece of it (token
/// spans always are).
fn text_at(text: &str, start: usize, end: usize) -> &str {
    text.get(start..end).unwrap_or("")
}

/// Bits for `start`, `start + step`, … up to `end`; a range whose end is below
/// its start wraps around the field (`22-2`, `NOV-FEB`), as Quartz's addToSet.
fn range_bits(start: u32, end: u32, step: u32, field: Field) -> u64 {
    let (low, high) = field.range();
    let size = high - low + 1;
    let stop = if end < start { end + size } else { end };
    let mut bits = 0u64;
    let mut v = start;
    while v <= stop {
        let wrapped = if v > high { v - size } else { v };
        bits |= 1 << wrapped;
        let Some(next) = v.checked_add(step) else {
            break;
        };
        v = next;
    }
    bits
}
