//! The nominal times a cron frequency materializes, as Oozie's
//! materialization walks them, with OOZIE-2494's DST shift.

use super::{Cron, CronErrorKind};
use crate::time::datetime::ProcessingZone;
use crate::time::zone::Zone;
use chrono::{DateTime, Duration, Utc};

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
