//! `xml_check`: arbitrary bytes as an application file (coordinator,
//! workflow, bundle or datasets: the check tells them by their root) through
//! the whole `coordc check` pipeline: XML, schema, lowering, job
//! configuration, EL and submission checks, the first action, the pipeline
//! checks. Bytes that are not UTF-8 are skipped (the file reader refuses
//! them before any of this). A NUL byte splits the input: the text after
//! the first one is the `job.properties` beside the application (without
//! one, the job is not configured). Both are editor buffers at
//! /fuzz/app/ (no such folder on disk). Every problem is rendered as the
//! CLI prints it.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::Arc;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (app, properties) = match text.split_once('\0') {
        Some((app, properties)) => (app, Some(properties)),
        None => (text, None),
    };
    let path = PathBuf::from("/fuzz/app/app.xml");
    let mut buffers = vec![(path.clone(), Arc::<str>::from(app))];
    if let Some(p) = properties {
        buffers.push((PathBuf::from("/fuzz/app/job.properties"), Arc::from(p)));
    }
    common::check_buffers(&[path], buffers);
});
