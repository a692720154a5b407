//! The simulated clock's unit, one for the coordinator engine and the
//! workflow runner: milliseconds since the epoch, as Oozie's Java `Date`
//! holds a time; and how a time is written in the reports.

use crate::time::datetime::format_utc_seconds;
use chrono::{DateTime, TimeZone, Utc};

/// Milliseconds since the epoch, the simulators' unit of time.
pub(crate) type Millis = i64;

pub(crate) fn millis(t: DateTime<Utc>) -> Millis {
    t.timestamp_millis()
}

pub(crate) fn datetime(t: Millis) -> DateTime<Utc> {
    Utc.timestamp_millis_opt(t).single().unwrap_or_default()
}

/// A time as the output shows it: UTC with seconds (and milliseconds when
/// there are any).
pub(crate) fn time_text(t: Millis) -> String {
    format_utc_seconds(datetime(t))
}
