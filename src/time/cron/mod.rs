//! Oozie's 5-field cron frequency (coordinator spec §4.4.3), evaluated as Oozie evaluates
//! it: `CoordCommandUtils.getNextValidActionTimeForCronFrequency` (CoordCommandUtils.java:800-865)
//! prefixes a seconds field `0` and hands the text to Quartz 2.3.2's
//! `CronExpression` in the Oozie *processing* time zone, never the app's. Quartz
//! cannot take both day fields: when neither is `?`, a `*` one becomes `?`, and if
//! both are concrete Oozie builds one expression per day field and takes the
//! earlier time (OR). Materialization (CoordMaterializeTransitionXCommand.java:503-514, 580-591) starts from
//! `start − 1 minute` so `start` itself can fire, stops before `end`, and since
//! Oozie 5.1 (OOZIE-2494) shifts a nominal time by the job zone's DST difference
//! between the job start and that time when consecutive fire times are ≥ 24 h apart.
//!
//! Field semantics are Quartz's: day-of-week 1=SUN … 7=SAT, names
//! case-insensitive, `L`, `L-n`, `W`, `LW`, `nL`, `n#k`, ranges that wrap
//! (`22-2`, `NOV-FEB`), steps.

use super::datetime::ProcessingZone;
use super::zone::Zone;
use crate::diag::Diagnostic;
use crate::diag::rules::{CRON_NEVER_FIRES, CRON_NO_ACTIONS, CRON_RANGE, CRON_SYNTAX};
use crate::span::Span;
use chrono::{DateTime, Datelike, Duration, NaiveDate, NaiveDateTime, Timelike, Utc};
use logos::Logos;

/// Quartz's years start at 1970: a cron never fires before.
const FIRST_YEAR: i32 = 1970;

/// The last year Quartz 2.3.2 looks in: `CronExpression.MAX_YEAR`, the
/// year it was loaded plus 100 (so an Oozie server started in 2026 finds
/// nothing after 2126, and refuses a cron that fires only later).
fn last_year() -> i32 {
    static LAST: std::sync::OnceLock<i32> = std::sync::OnceLock::new();
    *LAST.get_or_init(|| Utc::now().year() + 100)
}

/// A problem with a cron text: which rule, what, and where (bytes of the text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CronError {
    pub kind: CronErrorKind,
    pub message: String,
    pub start: usize,
    pub end: usize,
    pub help: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CronErrorKind {
    /// Not cron syntax Quartz parses, in the shape Oozie passes it.
    Syntax,
    /// A value outside its field's range, or an option Quartz rejects there.
    Range,
    /// Parses, but can never fire (`0 10 30 2 *`).
    NeverFires,
    /// Fires, but not in the job's [start, end).
    NoActionInWindow,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
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

/// The days a day-of-month field selects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum MonthDays {
    /// `?`: the day-of-week field decides.
    Unspecified,
    /// Bit d for day d (1..=31).
    Set(u32),
    /// `L`, `L-n`, `LW`, `L-nW`.
    Last { offset: u32, weekday: bool },
    /// `nW`: the weekday nearest to day n, within the month.
    NearestWeekday(u32),
}

/// The days a day-of-week field selects (1=SUN … 7=SAT).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum WeekDays {
    Unspecified,
    /// Bit d for weekday d.
    Set(u8),
    /// `nL`: the last weekday n of the month.
    Last(u32),
    /// `n#k`: the k-th weekday n of the month.
    Nth(u32, u32),
}

/// One Quartz expression (seconds fixed at 0, every year).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Quartz {
    minutes: u64,
    hours: u32,
    months: u16,
    month_days: MonthDays,
    week_days: WeekDays,
}

/// A cron frequency as Oozie evaluates it: one Quartz expression, or two whose
/// earlier time wins.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cron {
    text: String,
    /// Byte ranges of the five fields in the text as given.
    field_spans: [(usize, usize); 5],
    schedules: Vec<Quartz>,
    quirks: Vec<CronQuirk>,
}

/// Text Quartz reads other than as written, and so Oozie does: a step it
/// ignores or that leaves one value, what follows a month or day name. coordc
/// fires as Oozie does and says so (CR009).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CronQuirk {
    /// Bytes of the cron text as given.
    pub start: usize,
    pub end: usize,
    pub message: String,
}

/// A parsed field: its items and whether it was exactly `*` or `?`.
struct ParsedField {
    bits: u64,
    star: bool,
    question: bool,
    /// What the field selects if it is the day-of-month one.
    month_days: MonthDays,
    /// What the field selects if it is the day-of-week one.
    week_days: WeekDays,
    quirks: Vec<CronQuirk>,
}

impl Cron {
    /// Parses a cron frequency as Oozie's `ParamChecker.checkFrequency` and Quartz
    /// accept it. The text is trimmed first, as Oozie trims attribute values
    /// (Java's `String.trim`: every character up to U+0020, not Unicode spaces).
    pub fn parse(text: &str) -> Result<Cron, CronError> {
        let java_blank = |c: char| c <= ' ';
        let lead = text.len() - text.trim_start_matches(java_blank).len();
        let trimmed = text.trim_matches(java_blank);
        if !trimmed.is_empty() && trimmed.bytes().all(|b| b.is_ascii_digit()) {
            return Err(CronError {
                kind: CronErrorKind::Syntax,
                message: format!("`{trimmed}` is a frequency in minutes, not a cron expression"),
                start: lead,
                end: lead + trimmed.len(),
                help: Some("write a cron expression such as `0 * * * *` (minute hour day-of-month month day-of-week)".to_string()),
            });
        }
        // Oozie splits on single spaces and needs exactly five fields.
        let mut fields = Vec::new();
        let mut offset = lead;
        for piece in trimmed.split(' ') {
            fields.push((offset, piece));
            offset += piece.len() + 1;
        }
        let fields = match <[(usize, &str); 5]>::try_from(fields) {
            Ok(fields) if fields.iter().all(|(_, f)| !f.is_empty()) => fields,
            Ok(fields) => return Err(field_count_error(trimmed, lead, &fields)),
            Err(fields) => return Err(field_count_error(trimmed, lead, &fields)),
        };
        let [minute, hour, day, month, weekday] = fields;
        let parsed = [
            parse_field(minute.1, minute.0, Field::Minute)?,
            parse_field(hour.1, hour.0, Field::Hour)?,
            parse_field(day.1, day.0, Field::DayOfMonth)?,
            parse_field(month.1, month.0, Field::Month)?,
            parse_field(weekday.1, weekday.0, Field::DayOfWeek)?,
        ];
        let [minutes, hours, dom, months, dow] = &parsed;
        if dom.question && dow.question {
            return Err(CronError {
                kind: CronErrorKind::Range,
                message: "`?` can be given for day-of-month or day-of-week, not both".to_string(),
                start: weekday.0,
                end: weekday.0 + 1,
                help: Some("use `*` in one of them".to_string()),
            });
        }
        let base = Quartz {
            minutes: minutes.bits,
            hours: hours.bits as u32,
            months: months.bits as u16,
            month_days: MonthDays::Unspecified,
            week_days: WeekDays::Unspecified,
        };
        let only_month_days = Quartz {
            month_days: dom.month_days,
            ..base.clone()
        };
        let only_week_days = Quartz {
            week_days: dow.week_days,
            ..base
        };
        let schedules = if dow.question || dow.star && !dom.question {
            // `* ?`-like, or `d *`: the day-of-month field decides (CoordCommandUtils.java:812-820).
            vec![only_month_days]
        } else if dom.question || dom.star {
            vec![only_week_days]
        } else {
            vec![only_month_days, only_week_days]
        };
        let field_spans = fields.map(|(at, piece)| (at, at + piece.len()));
        let quirks = parsed.into_iter().flat_map(|f| f.quirks).collect();
        Ok(Cron {
            text: trimmed.to_string(),
            field_spans,
            schedules,
            quirks,
        })
    }

    /// What Quartz reads other than as written ([`CronQuirk`]).
    pub fn quirks(&self) -> &[CronQuirk] {
        &self.quirks
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// Field `i` (0 minute, 1 hour, 2 day-of-month, 3 month, 4 day-of-week)
    /// and its byte range in the text as given; past the last field, the
    /// empty text at the end.
    pub fn field(&self, i: usize) -> (&str, (usize, usize)) {
        let [(lead, _), .., (_, end_of_text)] = self.field_spans;
        let (start, end) = self
            .field_spans
            .get(i)
            .copied()
            .unwrap_or((end_of_text, end_of_text));
        (
            self.text.get(start - lead..end - lead).unwrap_or(""),
            (start, end),
        )
    }

    /// Whether both day fields are given, so Oozie fires when either matches.
    pub fn both_day_fields(&self) -> bool {
        self.schedules.len() == 2
    }

    /// The diagnostic for a failed [`materialize`], pointing at the day fields
    /// (where a schedule that never fires almost always goes wrong) or at the
    /// whole text. `base` is the text's offset in its file.
    pub fn materialize_diagnostic(&self, kind: CronErrorKind, base: usize) -> Diagnostic {
        let span = |(s, e): (usize, usize)| Span::new(base + s, base + e);
        let [(start, _), _, days, months, weekdays] = self.field_spans;
        let whole = Span::new(base + start, base + weekdays.1);
        match kind {
            CronErrorKind::NeverFires => Diagnostic::error(
                CRON_NEVER_FIRES,
                span(days),
                format!("the cron frequency `{}` never fires", self.text),
            )
            .with_label(span(months), "in these months")
            .with_label(span(weekdays), "on these days of the week")
            .with_help("Oozie rejects it at submission (\"Invalid coordinator cron frequency\"); when both day fields are given, each must fire on its own; Quartz also finds nothing before 1970 or more than 100 years after the server started"),
            _ => Diagnostic::error(
                CRON_NO_ACTIONS,
                whole,
                format!("the cron frequency `{}` fires nowhere between start and end", self.text),
            )
            .with_help("Oozie rejects the job at submission (\"materializes no actions between start and end time\"); start is included, end is not"),
        }
    }

    /// The first fire time strictly after `t`, in processing zone `pz`; `None` if
    /// there is none in Quartz's years (1970 to this year + 100). For an OR of two expressions,
    /// `None` also when either has none: Oozie compares the two and fails
    /// (NullPointerException), so such a frequency never materializes.
    pub fn next_after(&self, t: DateTime<Utc>, pz: ProcessingZone) -> Option<DateTime<Utc>> {
        let offset = Duration::minutes(pz.offset_minutes as i64);
        let local = t.naive_utc() + offset;
        let mut best: Option<NaiveDateTime> = None;
        for schedule in &self.schedules {
            let next = schedule.next_after(local)?;
            best = Some(best.map_or(next, |b| b.min(next)));
        }
        best.map(|n| (n - offset).and_utc())
    }
}

impl Quartz {
    /// The first fire time after `after`, searched in Quartz's order
    /// (`CronExpression.getTimeAfter`): the time of day first (none left
    /// moves to the next day), then the day, then the month. Only `nW`
    /// depends on that order; the other day rules hold of a date alone.
    fn next_after(&self, after: NaiveDateTime) -> Option<NaiveDateTime> {
        // Fire times are whole minutes: start at the next minute.
        let first = after.with_second(0)?.with_nanosecond(0)? + Duration::minutes(1);
        let first = first.max(NaiveDate::from_ymd_opt(FIRST_YEAR, 1, 1)?.and_hms_opt(0, 0, 0)?);
        let mut date = first.date();
        let mut from_minute = first.hour() * 60 + first.minute();
        let last_year = last_year();
        while date.year() <= last_year {
            let Some(minute) = self.first_time_from(from_minute) else {
                date = date.succ_opt()?;
                from_minute = 0;
                continue;
            };
            if let MonthDays::NearestWeekday(target) = self.month_days {
                let to = nearest_weekday_turn(date, target, minute, after)?;
                if to != date {
                    date = to;
                    from_minute = 0;
                    continue;
                }
            }
            if self.months & (1 << date.month()) == 0 {
                date = first_of_next_month(date)?;
                from_minute = 0;
                continue;
            }
            if self.day_matches(date) {
                return date.and_hms_opt(minute / 60, minute % 60, 0);
            }
            date = date.succ_opt()?;
            from_minute = 0;
        }
        None
    }

    /// The first minute of the day (h × 60 + m) at or after `from` that fires.
    fn first_time_from(&self, from: u32) -> Option<u32> {
        (from / 60..24)
            .filter(|h| self.hours & (1 << h) != 0)
            .find_map(|h| {
                let low = if h == from / 60 { from % 60 } else { 0 };
                let mask = self.minutes & !((1u64 << low) - 1);
                (mask != 0).then(|| h * 60 + mask.trailing_zeros())
            })
    }

    fn day_matches(&self, date: NaiveDate) -> bool {
        let day = date.day();
        let last = super::calendar::days_in_month(date);
        let weekday = date.weekday().number_from_sunday();
        match self.month_days {
            MonthDays::Unspecified => {}
            MonthDays::Set(bits) => return bits & (1 << day) != 0,
            MonthDays::Last {
                offset,
                weekday: false,
            } => return last.checked_sub(offset) == Some(day),
            MonthDays::Last {
                offset,
                weekday: true,
            } => {
                return last
                    .checked_sub(offset)
                    .filter(|d| *d >= 1)
                    .is_some_and(|target| nearest_weekday(date, target, last) == day);
            }
            MonthDays::NearestWeekday(target) => return nearest_weekday(date, target, last) == day,
        }
        match self.week_days {
            WeekDays::Unspecified => false,
            WeekDays::Set(bits) => bits & (1 << weekday) != 0,
            WeekDays::Last(d) => weekday == d && day + 7 > last,
            WeekDays::Nth(d, n) => weekday == d && (day - 1) / 7 + 1 == n,
        }
    }
}

/// The error for text that is not five non-empty fields (`fields` are the
/// pieces between single spaces, with their byte offsets).
fn field_count_error(trimmed: &str, lead: usize, fields: &[(usize, &str)]) -> CronError {
    let hint = if trimmed.starts_with('@') {
        "Oozie has no `@daily`-style macros: write the five fields, e.g. `0 0 * * *`"
    } else if fields.len() == 6 {
        "Oozie's cron has no seconds or year field: write minute hour day-of-month month day-of-week"
    } else {
        "write five fields separated by single spaces: minute hour day-of-month month day-of-week"
    };
    CronError {
        kind: CronErrorKind::Syntax,
        message: format!(
            "a cron frequency has exactly 5 fields separated by single spaces; this has {}",
            fields.iter().filter(|(_, f)| !f.is_empty()).count()
        ),
        start: lead,
        end: lead + trimmed.len().max(1),
        help: Some(hint.to_string()),
    }
}

/// Quartz's `W` rule: Saturday moves to Friday (or to Monday the 3rd when it is
/// the 1st), Sunday to Monday (or to Friday when it is the last day). Quartz
/// finds the weekday with a lenient calendar, so a day past the month's end
/// (`31W` in November) takes the weekday of the date it rolls over to.
fn nearest_weekday(in_month: NaiveDate, target: u32, last: u32) -> u32 {
    let from_day = i64::from(target) - i64::from(in_month.day());
    let Some(date) = in_month.checked_add_signed(Duration::days(from_day)) else {
        return 0;
    };
    match date.weekday().number_from_sunday() {
        7 if target == 1 => target + 2,
        7 => target - 1,
        1 if target == last => target - 2,
        1 => target + 1,
        _ => target,
    }
}

/// One turn of Quartz's `nW` search (`getTimeAfter`, the `nearestWeekday`
/// branch) standing on `date` at `minute` of the day: the date the search
/// moves to, or `date` itself when it fires there (None only past chrono's
/// calendar). Quartz takes the nearest weekday of the search's month; when
/// that time is not after `after`, it goes on from day n of the next month,
/// set on a lenient calendar. From the month before a month too short for n
/// (January for `30W`, or for `29W` outside leap years; the month before a
/// 30-day month for `31W`), day n of that month is in the month after, so the
/// short month never fires: `0 0 29W * ?` from
/// 2025-01-30 next fires on 2025-03-28, though 2025-02-28 is the Friday
/// nearest to 29 February (that one fires only when the search starts in
/// February). Oozie, searching from each fire time, skips it (C18 in
/// docs/robustness.md).
fn nearest_weekday_turn(
    date: NaiveDate,
    target: u32,
    minute: u32,
    after: NaiveDateTime,
) -> Option<NaiveDate> {
    let day = nearest_weekday(date, target, super::calendar::days_in_month(date));
    let weekday =
        date.checked_add_signed(Duration::days(i64::from(day) - i64::from(date.day())))?;
    // Quartz's test is `nTime.before(afterTime)`, with afterTime one second
    // past `after`: a time at `after` itself has gone by too.
    if weekday.and_hms_opt(minute / 60, minute % 60, 0)? <= after {
        return first_of_next_month(date)?
            .checked_add_signed(Duration::days(i64::from(target) - 1));
    }
    Some(weekday)
}

fn first_of_next_month(date: NaiveDate) -> Option<NaiveDate> {
    let (y, m) = if date.month() == 12 {
        (date.year() + 1, 1)
    } else {
        (date.year(), date.month() + 1)
    };
    NaiveDate::from_ymd_opt(y, m, 1)
}

const MONTH_NAMES: [&str; 12] = [
    "JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC",
];
const DAY_NAMES: [&str; 7] = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"];

/// One field's text (`at` is its byte offset in the cron text).
fn parse_field(text: &str, at: usize, field: Field) -> Result<ParsedField, CronError> {
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

impl CronError {
    /// As a diagnostic; `base` is the cron text's offset in its file.
    pub fn to_diagnostic(&self, base: usize) -> Diagnostic {
        let code = match self.kind {
            CronErrorKind::Syntax => CRON_SYNTAX,
            CronErrorKind::Range => CRON_RANGE,
            CronErrorKind::NeverFires => CRON_NEVER_FIRES,
            CronErrorKind::NoActionInWindow => CRON_NO_ACTIONS,
        };
        let d = Diagnostic::error(
            code,
            Span::new(base + self.start, base + self.end),
            self.message.clone(),
        );
        match &self.help {
            Some(h) => d.with_help(h.clone()),
            None => d,
        }
    }
}

/// One materialized action time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FireTime {
    /// The nominal time Oozie gives the action.
    pub nominal: DateTime<Utc>,
    /// The cron time before the OOZIE-2494 DST shift (equal when unshifted).
    pub cron: DateTime<Utc>,
}

/// The nominal times a coordinator with this cron frequency, job zone and
/// [start, end) materializes, at most `limit` of them (CoordMaterializeTransitionXCommand.java:503-514, 580-591).
/// Fails as Oozie's submission does (CoordSubmitXCommand.java:353-368) when the cron never fires or
/// fires nowhere in the window.
pub fn materialize(
    cron: &Cron,
    zone: &Zone,
    pz: ProcessingZone,
    start: DateTime<Utc>,
    end: DateTime<Utc>,
    limit: usize,
) -> Result<Vec<FireTime>, CronErrorKind> {
    let mut effective = start - Duration::minutes(1);
    let mut upcoming = match cron.next_after(effective, pz) {
        None => return Err(CronErrorKind::NeverFires),
        Some(first) if first >= end => return Err(CronErrorKind::NoActionInWindow),
        first => first,
    };
    let mut times = Vec::new();
    while let Some(next) = upcoming.filter(|n| *n < end && times.len() < limit) {
        let nominal = if next - effective >= Duration::days(1) {
            next + Duration::seconds(dst_shift(zone, start, next) as i64)
        } else {
            next
        };
        times.push(FireTime {
            nominal,
            cron: next,
        });
        effective = next;
        upcoming = cron.next_after(effective, pz);
    }
    Ok(times)
}

/// `DaylightOffsetCalculator.getDSTOffset(zone, begin, end)`: the DST saving
/// gained or lost between `begin` and `end`, in seconds.
fn dst_shift(zone: &Zone, begin: DateTime<Utc>, end: DateTime<Utc>) -> i32 {
    let (dst_begin, dst_end) = (zone.dst_seconds(begin), zone.dst_seconds(end));
    match (dst_begin != 0, dst_end != 0) {
        (true, false) => dst_begin,
        (false, true) => -dst_end,
        _ => 0,
    }
}
