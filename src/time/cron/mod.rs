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

mod field;
mod materialize;
mod quartz;

pub use materialize::{FireTime, materialize};
pub use quartz::MaxYear;

use super::datetime::ProcessingZone;
use crate::diag::Diagnostic;
use crate::diag::rules::{CRON_NEVER_FIRES, CRON_NO_ACTIONS, CRON_RANGE, CRON_SYNTAX};
use crate::span::Span;
use chrono::{DateTime, Duration, NaiveDateTime, Utc};
use field::{Field, parse_field};
use quartz::{MonthDays, Quartz, WeekDays};

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

/// A cron frequency as Oozie evaluates it: one Quartz expression, or two whose
/// earlier time wins.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cron {
    text: String,
    /// Byte ranges of the five fields in the text as given.
    field_spans: [(usize, usize); 5],
    schedules: Vec<Quartz>,
    quirks: Vec<CronQuirk>,
    /// The last year the server's Quartz searches.
    max_year: MaxYear,
}

/// Text Quartz reads other than as written, and so Oozie does: a step it
/// ignores or that leaves one value, what follows a month or day name. coordc
/// fires as Oozie does and says so (CR009).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CronQuirk {
    /// Bytes of the cron text as given.
    pub start: usize,
    pub end: usize,
    pub message: String,
}

impl Cron {
    /// Parses a cron frequency as Oozie's `ParamChecker.checkFrequency` and Quartz
    /// accept it. The text is trimmed first, as Oozie trims attribute values
    /// (Java's `String.trim`: every character up to U+0020, not Unicode spaces).
    /// Its fire times are searched up to `max_year`, the server's bound.
    pub fn parse(text: &str, max_year: MaxYear) -> Result<Cron, CronError> {
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
            max_year,
        })
    }

    /// What Quartz reads other than as written ([`CronQuirk`]).
    pub(crate) fn quirks(&self) -> &[CronQuirk] {
        &self.quirks
    }

    pub(crate) fn text(&self) -> &str {
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
    pub(crate) fn both_day_fields(&self) -> bool {
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
    /// there is none in Quartz's years (1970 to the [`MaxYear`] it was parsed
    /// with). For an OR of two expressions,
    /// `None` also when either has none: Oozie compares the two and fails
    /// (NullPointerException), so such a frequency never materializes.
    pub fn next_after(&self, t: DateTime<Utc>, pz: ProcessingZone) -> Option<DateTime<Utc>> {
        let offset = Duration::minutes(pz.offset_minutes as i64);
        let local = t.naive_utc() + offset;
        let mut best: Option<NaiveDateTime> = None;
        for schedule in &self.schedules {
            let next = schedule.next_after(local, self.max_year)?;
            best = Some(best.map_or(next, |b| b.min(next)));
        }
        best.map(|n| (n - offset).and_utc())
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

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    /// Quartz's `getTimeAfter` gives up past `MAX_YEAR`
    /// (`if (cl.get(Calendar.YEAR) > MAX_YEAR) return null`): the bound is
    /// the server's, given when the cron is parsed. After 2096 the next
    /// 29 February is in 2104 (2100, divisible by 100 but not by 400, is no
    /// leap year).
    #[test]
    fn the_last_year_searched_is_the_servers() {
        let after = Utc.with_ymd_and_hms(2096, 3, 1, 0, 0, 0).unwrap();
        let next = |started: i32| {
            Cron::parse("0 0 29 2 *", MaxYear::for_server_started_in(started))
                .unwrap()
                .next_after(after, ProcessingZone::UTC)
        };
        assert_eq!(
            next(2026),
            Some(Utc.with_ymd_and_hms(2104, 2, 29, 0, 0, 0).unwrap())
        );
        assert_eq!(next(2000), None);
    }
}
