//! `dryrun`: a valid coordinator of corpus/ (with its includes and
//! job.properties) with mutated numbers, values and elements (frequencies,
//! offsets, instance ranges, start and end, zones: see `common/mutate.rs`),
//! read and submitted as `coordc dryrun` does (`load::coordinator`, then
//! `oozie::job::prepare`), and its actions resolved and written as JSON
//! with a small `limit` (1 to 16), from its start or from a window start a
//! few hours later.
#![no_main]

mod common;

use arbitrary::Arbitrary;
use chrono::Duration;
use common::mutate::{FileEdit, mutate};
use coordc::oozie::job::{Options, prepare};
use coordc::project::files::Files;
use coordc::project::load::{self, JobInput, JobSource, Sources, parse_document, read_application};
use coordc::time::datetime::ProcessingZone;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

#[derive(Arbitrary, Debug)]
struct Input {
    app: u8,
    edits: Vec<FileEdit>,
    /// Actions listed: 1 + limit % 16.
    limit: u8,
    /// When not 0, the listing starts this many hours after the job's start.
    from_hours: u8,
    /// The processing zone (see `common::processing_zone`).
    processing_zone: u8,
}

fuzz_target!(|input: Input| {
    let apps: Vec<_> = common::apps::coordinators().collect();
    let app = apps[input.app as usize % apps.len()];
    let files = mutate(app, &input.edits);
    common::show_files(&files);
    let path = Path::new(common::APP_DIR).join(app.file_name());
    let files = Files::with_buffers(common::buffers(&files));
    let pz: ProcessingZone = common::processing_zone(input.processing_zone);
    let job_input = JobInput {
        configs: &[],
        files: &files,
        job: JobSource::Own,
        defines: &[],
        maps: &[],
        processing_zone: pz,
        check_maximum_frequency: true,
        cron_max_year: common::cron_max_year(),
    };
    let mut sources = Sources::default();
    let Ok(text) = read_application(&path, &files, &mut sources) else {
        return;
    };
    let arena = coordc::xml::Arena::new();
    let Ok(doc) = parse_document(&text, &arena) else {
        return;
    };
    if doc.root.name != "coordinator-app" {
        return;
    }
    let loaded = match load::coordinator(&doc, &path, &job_input, &mut sources) {
        Ok(loaded) => loaded,
        Err(load::Stop::Problems(problems)) => {
            for p in &problems {
                show(sources.render(p));
            }
            return;
        }
        Err(load::Stop::Usage(_)) => return,
    };
    for p in loaded
        .parameter_problems
        .iter()
        .chain(&loaded.include_problems)
    {
        show(sources.render(p));
    }
    let mut options = Options {
        includes_incomplete: !loaded.include_problems.is_empty(),
        from: None,
        to: None,
        limit: Some(1 + input.limit as usize % 16),
        processing_zone: pz,
        check_maximum_frequency: true,
        cron_max_year: job_input.cron_max_year,
    };
    let start = match prepare(&loaded.app, &loaded.included, &loaded.vars, &options) {
        Ok(job) => {
            for w in &job.warnings {
                show(sources.render(w));
            }
            list(&job, &sources, options.limit);
            job.start
        }
        Err(problems) => {
            for p in &problems {
                show(sources.render(p));
            }
            return;
        }
    };
    if input.from_hours != 0 {
        options.from = start.checked_add_signed(Duration::hours(input.from_hours.into()));
        if let Ok(job) = prepare(&loaded.app, &loaded.included, &loaded.vars, &options) {
            list(&job, &sources, options.limit);
        }
    }
});

fn list(job: &coordc::oozie::job::Job, sources: &Sources, limit: Option<usize>) {
    let limit = limit.unwrap_or(usize::MAX);
    let mut n = 0;
    for action in job.actions() {
        n += 1;
        match action {
            Ok(a) => {
                if common::verbose() {
                    eprintln!("action {} at {}", a.number, a.nominal);
                }
                std::hint::black_box(&a);
            }
            Err(d) => {
                show(sources.render(&coordc::diag::Located::in_app(d)));
                break;
            }
        }
    }
    assert!(n <= limit, "{n} actions listed with a limit of {limit}");
    let mut out = std::io::sink();
    let _ = coordc::cli::dryrun::write_json(job, &mut out);
}

/// A rendered problem: printed when `FUZZ_VERBOSE` is set.
fn show(rendered: String) {
    if common::verbose() {
        eprint!("{rendered}");
    }
    std::hint::black_box(rendered);
}
