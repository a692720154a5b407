//! Time as Oozie computes it: datetimes, zones, Java calendar arithmetic, cron.

pub mod calendar;
pub mod cron;
pub mod datetime;
pub mod format;
pub mod frequency;
pub mod instance;
pub mod zone;
