//! The pure datetime functions of coordinator EL (spec §6.9), evaluated as Oozie
//! evaluates them: every datetime argument is read, and every datetime result
//! written, as wall time in the processing time zone (`DateUtils.parseDateOozieTZ`
//! and `formatDateOozieTZ`, DateUtils.java:188-213; UTC unless the server sets
//! `oozie.processing.timezone`):
//! - `coord:dateOffset(d, n, unit)` = d + n units with `Calendar.add` in the
//!   processing zone (CoordELFunctions.java:210-216); units through `TimeUnit.valueOf`;
//! - `coord:dateTzOffset(d, tz)` = the wall time of d in tz, printed with the
//!   processing zone's suffix, a literal `Z` in UTC (CoordELFunctions.java:231-237, DateUtils.java:264-266);
//! - `coord:formatTime(d, pattern)` = `SimpleDateFormat(pattern)` in the processing
//!   zone (DateUtils.java:107-111, 223-225);
//! - `coord:epochTime(d, millis)` = seconds since the epoch, milliseconds iff
//!   `Boolean.valueOf(millis)` (CoordELFunctions.java:377-381, DateUtils.java:237-243).

use super::eval::arguments;
use super::value::Value;
use crate::time::calendar::{CalendarUnit, add};
use crate::time::datetime::{ProcessingZone, parse_datetime};
use crate::time::format::format;
use crate::time::zone::Zone;
use chrono::{DateTime, Utc};
use std::borrow::Cow;

fn datetime(v: &Value, pz: ProcessingZone) -> Result<DateTime<Utc>, String> {
    let text = v.to_text();
    match parse_datetime(&text, pz) {
        Ok(t) if !t.hour_24 => Ok(t.instant),
        // Oozie's non-lenient SimpleDateFormat rejects what coordc's parser
        // flags as 24:00 or reports as an error alike.
        _ => Err(format!("Unparseable date: \"{text}\"")),
    }
}

fn string(s: String) -> Value<'static> {
    Value::Str(Cow::Owned(s))
}

pub(super) fn date_offset(args: &[Value], pz: ProcessingZone) -> Result<Value<'static>, String> {
    let [date, n, unit_name] = arguments(args)?;
    let t = datetime(date, pz)?;
    let n = n.to_long()?;
    let unit_name = unit_name.to_text();
    let Some(unit) = CalendarUnit::parse(&unit_name) else {
        return Err(format!(
            "No enum constant org.apache.oozie.coord.TimeUnit.{unit_name}"
        ));
    };
    let shifted = add(&pz.zone(), t, unit, n);
    shifted
        .map(|t| string(pz.format(t)))
        .ok_or_else(|| format!("{n} {unit_name}s from {} is out of range", pz.format(t)))
}

pub(super) fn date_tz_offset(args: &[Value], pz: ProcessingZone) -> Result<Value<'static>, String> {
    let [date, id] = arguments(args)?;
    let t = datetime(date, pz)?;
    let id = id.to_text();
    let zone = Zone::parse(&id).map_err(|_| format!("Invalid TimeZone: {id}"))?;
    Ok(string(pz.format_wall(zone.local(t))))
}

pub(super) fn format_time(args: &[Value], pz: ProcessingZone) -> Result<Value<'static>, String> {
    let [date, pattern] = arguments(args)?;
    let t = datetime(date, pz)?;
    let pattern = pattern.to_text();
    let zone = pz.format_zone();
    let local = t.naive_utc() + chrono::Duration::minutes(i64::from(pz.offset_minutes));
    format(local, zone, &pattern).map(string)
}

pub(super) fn epoch_time(args: &[Value], pz: ProcessingZone) -> Result<Value<'static>, String> {
    let [date, millis] = arguments(args)?;
    let t = datetime(date, pz)?;
    let millis = millis.to_bool()?;
    let ms = t.timestamp_millis();
    Ok(string(if millis { ms } else { ms / 1000 }.to_string()))
}
