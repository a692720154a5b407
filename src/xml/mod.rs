//! The XML front end: text → a span-keeping element tree (`tree`, built by
//! `read`, which recovers from malformed text and reports all of it), validated
//! against the Oozie schema of its namespace (`schema`, `validate`, with an
//! automaton per content model for valid content, `content_dfa`), read from
//! the XSD files in `grammar/xsd/`.

mod content_dfa;
pub mod read;
pub mod schema;
pub mod tree;
pub mod validate;

pub use read::{Parsed, parse, read};
pub use tree::{Arena, Document, Element};
pub use validate::validate;
