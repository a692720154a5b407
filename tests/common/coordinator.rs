//! Pieces of coordinator XML the tests assemble applications from.

/// An `<instance>` of a data-in or data-out.
pub fn instance(text: &str) -> String {
    format!("<instance>{text}</instance>")
}

/// A data-in's range of instances.
pub fn range(start: &str, end: &str) -> String {
    format!("<start-instance>{start}</start-instance><end-instance>{end}</end-instance>")
}
