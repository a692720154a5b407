//! The timeline picture of a simulation (`--format svg`): the job's status
//! as a band on top, then one row per action with its waiting, ready and
//! running bars, the running bar coloured by the action's final status.

use super::engine::{Record, Status};
use super::report::Histories;
use crate::interp::clock::{Millis, time_text};
use crate::interp::markup::escape;

use super::status::{ActionStatus, JobStatus};
use std::io::{self, Write};

const WIDTH: f64 = 1000.0;
const LEFT: f64 = 140.0;
const ROW: f64 = 14.0;
const BAND: f64 = 18.0;

fn colour(status: ActionStatus) -> &'static str {
    match status {
        ActionStatus::Succeeded => "#2e7d32",
        ActionStatus::Failed | ActionStatus::Killed => "#c62828",
        ActionStatus::Timedout => "#ef6c00",
        ActionStatus::Skipped | ActionStatus::Ignored => "#9e9e9e",
        ActionStatus::Suspended => "#6a1b9a",
        _ => "#1565c0",
    }
}

fn job_colour(status: JobStatus) -> &'static str {
    match status {
        JobStatus::Prep | JobStatus::PrepPaused | JobStatus::PrepSuspended => "#bdbdbd",
        JobStatus::Running => "#1565c0",
        JobStatus::Succeeded => "#2e7d32",
        JobStatus::Suspended | JobStatus::SuspendedWithError => "#6a1b9a",
        JobStatus::Paused | JobStatus::PausedWithError => "#f9a825",
        _ => "#c62828",
    }
}

pub(crate) fn write_svg(record: &Record, out: &mut dyn Write) -> io::Result<()> {
    let histories = Histories::new(record);
    let first = record.log.changes.first().map_or(record.now, |c| c.at);
    let last = record.now.max(first + 1);
    let x = |t: Millis| LEFT + (t - first) as f64 / (last - first) as f64 * (WIDTH - LEFT - 10.0);
    let rows: usize = record.jobs.iter().map(|j| j.actions.len() + 2).sum();
    let height = 30.0 + rows as f64 * ROW + record.jobs.len() as f64 * BAND;
    writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" font-family="sans-serif" font-size="10">"#
    )?;
    writeln!(
        out,
        r#"<text x="4" y="12">{} to {}</text>"#,
        time_text(first),
        time_text(last)
    )?;
    let mut y = 24.0;
    for (j, job) in record.jobs.iter().enumerate() {
        writeln!(
            out,
            r#"<text x="4" y="{}">{}</text>"#,
            y + 12.0,
            escape(&job.id)
        )?;
        let changes = histories.job(j);
        for (k, change) in changes.iter().enumerate() {
            let Status::Job(status) = change.to else {
                continue;
            };
            let end = changes.get(k + 1).map_or(last, |c| c.at);
            writeln!(
                out,
                r#"<rect x="{:.1}" y="{y}" width="{:.1}" height="{}" fill="{}"><title>{} from {}</title></rect>"#,
                x(change.at),
                (x(end) - x(change.at)).max(0.5),
                BAND - 4.0,
                job_colour(status),
                status.name(),
                time_text(change.at)
            )?;
        }
        y += BAND;
        for (a, action) in job.actions.iter().enumerate() {
            writeln!(
                out,
                r#"<text x="4" y="{}">{} @{}</text>"#,
                y + 10.0,
                escape(&job.id),
                action.number
            )?;
            let changes = histories.action(j, a);
            for (k, change) in changes.iter().enumerate() {
                let Status::Action(status) = change.to else {
                    continue;
                };
                let end = changes.get(k + 1).map_or(last, |c| c.at);
                let (fill, opacity) = match status {
                    ActionStatus::Waiting => ("#90a4ae", 0.5),
                    ActionStatus::Ready | ActionStatus::Submitted => ("#fbc02d", 0.8),
                    ActionStatus::Running | ActionStatus::Suspended => (colour(action.status), 1.0),
                    _ => continue,
                };
                writeln!(
                    out,
                    r#"<rect x="{:.1}" y="{}" width="{:.1}" height="{}" fill="{fill}" fill-opacity="{opacity}"><title>@{} {} {} to {}</title></rect>"#,
                    x(change.at),
                    y + 2.0,
                    (x(end) - x(change.at)).max(0.5),
                    ROW - 4.0,
                    action.number,
                    status.name(),
                    time_text(change.at),
                    time_text(end)
                )?;
            }
            y += ROW;
        }
        y += ROW;
    }
    writeln!(out, "</svg>")
}
