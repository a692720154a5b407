//! `xml_check_structured`: a valid application of corpus/ (coordinators
//! with their includes and job.properties, workflows, datasets files, the
//! bundle with its coordinators), mutated element by element (see
//! `common/mutate.rs`: attribute values and texts replaced by numbers,
//! EL calls, datetimes, zones, crons or arbitrary text; numbers changed;
//! elements duplicated, deleted, moved; attributes added), then checked
//! as `coordc check` checks it. The edits keep the XML well-formed, so the
//! fuzzer works past the schema, in lowering, the job and the checks.
#![no_main]

mod common;

use arbitrary::Arbitrary;
use common::apps::APPS;
use common::mutate::{FileEdit, mutate};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

#[derive(Arbitrary, Debug)]
struct Input {
    app: u8,
    edits: Vec<FileEdit>,
}

fuzz_target!(|input: Input| {
    let app = &APPS[input.app as usize % APPS.len()];
    let files = mutate(app, &input.edits);
    common::show_files(&files);
    let path = Path::new(common::APP_DIR).join(app.file_name());
    common::check_buffers(&[path], common::buffers(&files));
});
