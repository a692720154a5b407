//! Lowering a `frequency` attribute (spec §4.4; CoordELFunctions.java, the frequency functions)
//! to a typed [`Frequency`], as Oozie's `coord-job-submit-freq` evaluation does
//! it (CoordSubmitXCommand, CoordELFunctions.ph1_coord_*):
//! - each frequency function returns a count in its own unit and sets the unit
//!   (`coord:hours(n)` returns n·60 and sets MINUTE), so EL arithmetic on the
//!   count keeps the unit: `${coord:months(1) + 7}` is 8 months;
//! - the EL constants (`HOUR`, `KB`, ...) do not exist there, so the spec's
//!   `${5 * HOUR}` is rejected;
//! - a plain integer is minutes; any other text is a cron expression.

use super::ast::Template;
use super::eval::{Context, Env, Variables, arguments, render_into};
use super::library::{self, FunctionDef, Library, Place};
use super::value::Value;
use crate::diag::Diagnostic;
use crate::diag::rules::TIME_FREQUENCY;
use crate::time::datetime::ProcessingZone;
use crate::time::frequency::{Frequency, FrequencyUnit};
use std::cell::Cell;

/// A lowered frequency.
#[derive(Debug, Clone, PartialEq)]
pub enum LoweredFrequency {
    Every(Frequency),
    /// The rendered text, for the cron parser.
    Cron(String),
}

/// The unit and end-of flag the last frequency function set, as the
/// `timeunit` and `endOfDuration` evaluator variables of Oozie.
struct FrequencyContext {
    unit: Cell<Option<(FrequencyUnit, bool)>>,
}

/// Renders `template` with the frequency functions, and the unit (and
/// end-of flag) the last of them set, if any called one. No datetime is read
/// or written in a frequency or a timeout: the processing zone is moot.
fn render_with_unit(
    template: &Template,
    vars: &dyn Variables,
) -> Result<(String, Option<(FrequencyUnit, bool)>), Diagnostic> {
    let context = FrequencyContext {
        unit: Cell::new(None),
    };
    let env = Env {
        vars,
        library: Library::Coordinator,
        context: Some(&context),
        processing_zone: ProcessingZone::UTC,
    };
    let mut rendered = String::new();
    render_into(template, &env, &mut rendered)?;
    Ok((rendered, context.unit.get()))
}

impl Context for FrequencyContext {
    fn call(
        &self,
        def: &'static FunctionDef,
        args: &[Value],
    ) -> Option<Result<Value<'static>, String>> {
        let (unit, end_of, factor) = match (def.namespace, def.name) {
            (Some("coord"), "minutes") => (FrequencyUnit::Minute, false, 1),
            (Some("coord"), "hours") => (FrequencyUnit::Minute, false, 60),
            (Some("coord"), "days") => (FrequencyUnit::Day, false, 1),
            (Some("coord"), "months") => (FrequencyUnit::Month, false, 1),
            (Some("coord"), "endOfDays") => (FrequencyUnit::Day, true, 1),
            (Some("coord"), "endOfWeeks") => (FrequencyUnit::Week, true, 1),
            (Some("coord"), "endOfMonths") => (FrequencyUnit::Month, true, 1),
            _ => return None,
        };
        // The evaluator has already coerced the `int` parameter to a Long.
        let n = arguments(args).and_then(|[n]| n.to_int());
        Some(n.and_then(|n| {
            // ParamChecker.checkGTZero.
            if n <= 0 {
                return Err(format!("parameter [n] = [{n}] must be greater than zero"));
            }
            self.unit.set(Some((unit, end_of)));
            // Java int arithmetic: `val * 60` wraps.
            Ok(Value::Long(n.wrapping_mul(factor) as i64))
        }))
    }
}

/// Lowers a frequency, from its parsed EL.
pub fn lower_frequency(
    template: &Template,
    vars: &dyn Variables,
) -> Result<LoweredFrequency, Diagnostic> {
    // Only what Oozie's frequency evaluator defines: the frequency functions
    // and the job's properties.
    if let Some(m) = library::first_misplaced(template, Place::Frequency, vars) {
        let d = if m.is_function {
            Diagnostic::error(TIME_FREQUENCY, m.span, format!("{} cannot be used in a frequency", m.what))
                .with_help("a frequency may call coord:minutes, hours, days, months, endOfDays, endOfWeeks and endOfMonths")
        } else {
            Diagnostic::error(TIME_FREQUENCY, m.span, format!("the EL constant {} does not exist in a frequency", m.what))
                .with_help("Oozie evaluates frequencies without constants: write a count with its unit, such as ${coord:hours(5)}")
        };
        return Err(d);
    }
    let (rendered, unit) = render_with_unit(template, vars)?;
    let trimmed = rendered.trim();
    // The attribute is trimmed; an integer is minutes, anything else is cron
    // (CoordELFunctions.java, `ParamChecker.checkGTZero`).
    let Ok(count) = trimmed.parse::<i32>() else {
        return Ok(LoweredFrequency::Cron(trimmed.to_string()));
    };
    let (unit, end_of) = unit.unwrap_or((FrequencyUnit::Minute, false));
    Ok(LoweredFrequency::Every(Frequency {
        count: count as i64,
        unit,
        end_of,
    }))
}

/// A coordinator's `<timeout>` in minutes, as Oozie's `coord-job-wait-timeout`
/// evaluation reads it (CoordSubmitXCommand:735-765): the frequency functions
/// give a count and set its unit (days ×1440, months ×43200, hours already in
/// minutes), the text must then be a Java `int`, and a value below 0 or over
/// `oozie.service.coord.default.max.timeout` (86400) becomes 86400. `None`:
/// an empty timeout, which takes the server default (120).
pub fn lower_timeout(template: &Template, vars: &dyn Variables) -> Result<Option<i64>, Diagnostic> {
    if let Some(m) = library::first_misplaced(template, Place::Timeout, vars) {
        return Err(Diagnostic::error(
            TIME_FREQUENCY,
            m.span,
            format!("{} cannot be used in a timeout", m.what),
        )
        .with_help("a timeout is minutes, or coord:minutes, hours, days or months"));
    }
    let (rendered, unit) = render_with_unit(template, vars)?;
    let trimmed = rendered.trim();
    if trimmed.is_empty() {
        return Ok(None);
    }
    let span = template.span;
    let count: i32 = trimmed.parse().map_err(|_| {
        Diagnostic::error(
            crate::diag::rules::CONTROLS,
            span,
            format!("the timeout must be a number of minutes, not `{trimmed}` (E1003: For input string: \"{trimmed}\")"),
        )
        .with_help("write minutes, e.g. 60, or ${coord:hours(1)}; -1 means the server's maximum")
    })?;
    let minutes = match unit.map(|(u, _)| u) {
        Some(FrequencyUnit::Day) => count.wrapping_mul(1440),
        Some(FrequencyUnit::Month) => count.wrapping_mul(43200),
        _ => count,
    } as i64;
    const MAX_TIMEOUT: i64 = 86_400;
    Ok(Some(if !(0..=MAX_TIMEOUT).contains(&minutes) {
        MAX_TIMEOUT
    } else {
        minutes
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::el::VarMap;

    fn lower(text: &str) -> Result<LoweredFrequency, Diagnostic> {
        let vars: VarMap = [("freq".to_string(), Some("15".to_string()))]
            .into_iter()
            .collect();
        lower_frequency(&crate::el::parse::parse_template(text, 0)?, &vars)
    }

    fn every(
        count: i64,
        unit: FrequencyUnit,
        end_of: bool,
    ) -> Result<LoweredFrequency, Diagnostic> {
        Ok(LoweredFrequency::Every(Frequency {
            count,
            unit,
            end_of,
        }))
    }

    #[test]
    fn timeouts_are_minutes_as_oozie_scales_them() {
        // CoordSubmitXCommand:735-765: days ×1440, months ×43200, hours already
        // minutes; below 0 or over 86400 is the 86400 maximum; empty is the default.
        let vars = VarMap::default();
        let timeout = |t: &str| lower_timeout(&crate::el::parse::parse_template(t, 0)?, &vars);
        assert_eq!(timeout("10").unwrap(), Some(10));
        assert_eq!(timeout("${coord:hours(2)}").unwrap(), Some(120));
        assert_eq!(timeout("${coord:days(1)}").unwrap(), Some(1440));
        assert_eq!(timeout("${coord:months(1)}").unwrap(), Some(43200));
        assert_eq!(timeout("-1").unwrap(), Some(86400));
        assert_eq!(timeout("${coord:days(100)}").unwrap(), Some(86400));
        assert_eq!(timeout(" ").unwrap(), None);
        let e = timeout("ten").unwrap_err();
        assert_eq!(e.code, crate::diag::rules::CONTROLS);
        assert!(e.message.contains("For input string: \"ten\""));
        // No EL constants, no dataset functions there.
        assert!(
            timeout("${2 * HOUR}")
                .unwrap_err()
                .message
                .contains("cannot be used in a timeout")
        );
    }

    #[test]
    fn spec_4_4_frequency_functions_keep_their_unit() {
        use FrequencyUnit::*;
        assert_eq!(
            lower("60"),
            every(60, Minute, false),
            "a plain integer is minutes"
        );
        assert_eq!(lower("${coord:minutes(45)}"), every(45, Minute, false));
        assert_eq!(
            lower("${coord:hours(2)}"),
            every(120, Minute, false),
            "hours are 60 minutes"
        );
        assert_eq!(lower("${coord:days(1)}"), every(1, Day, false));
        assert_eq!(lower("${coord:months(1)}"), every(1, Month, false));
        assert_eq!(lower("${coord:endOfDays(1)}"), every(1, Day, true));
        assert_eq!(lower("${coord:endOfWeeks(2)}"), every(2, Week, true));
        assert_eq!(lower("${coord:endOfMonths(1)}"), every(1, Month, true));
        // TestCoordELFunctions: a count in its unit, not minutes.
        assert_eq!(lower("${coord:months(1) + 7}"), every(8, Month, false));
        assert_eq!(
            lower("${coord:hours(coord:hours(1))}"),
            every(3600, Minute, false)
        );
        assert_eq!(
            lower("${freq}"),
            every(15, Minute, false),
            "job properties are visible"
        );
    }

    #[test]
    fn constants_and_other_functions_are_rejected() {
        let err = lower("${5 * HOUR}").unwrap_err();
        assert_eq!(
            (err.code, err.span.start, err.span.end),
            (TIME_FREQUENCY, 6, 10)
        );
        let err = lower("${coord:current(0)}").unwrap_err();
        assert_eq!((err.code, err.span.start), (TIME_FREQUENCY, 2));
        assert!(
            lower("${coord:days(0)}")
                .unwrap_err()
                .message
                .contains("greater than zero")
        );
    }

    #[test]
    fn other_text_is_cron_and_absurd_counts_are_defined() {
        assert_eq!(
            lower("0 * * * *"),
            Ok(LoweredFrequency::Cron("0 * * * *".to_string()))
        );
        assert_eq!(
            lower(" 0 * * * *\n"),
            Ok(LoweredFrequency::Cron("0 * * * *".to_string())),
            "the attribute is trimmed"
        );
        assert_eq!(lower(" 60 "), every(60, FrequencyUnit::Minute, false));
        assert_eq!(
            lower("${coord:days(2147483647)}"),
            every(2147483647, FrequencyUnit::Day, false)
        );
        // Java's int multiplication wraps: the frequency is then negative.
        assert_eq!(
            lower("${coord:hours(2147483647)}"),
            every(-60, FrequencyUnit::Minute, false)
        );
    }
}
