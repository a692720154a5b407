//! A parsed text shared by every value with that text, and what is found in
//! it: the functions it calls, the library's functions and constants it
//! names, what the EL checks find from the tree alone. The tree (`ast`) is
//! only what was written; what is found is kept here, beside it, once for
//! every value with that text (applications repeat their values).

use super::ast::Template;
use super::eval::{Env, render_resolved};
use super::library::{
    Library, Misplaced, Place, Reference, Resolved, first_misplaced_of, references,
};
use super::parse::parse_template;
use super::value::ValueType;
use crate::diag::Diagnostic;
use crate::span::Span;
use compact_str::CompactString;
use std::sync::{Arc, OnceLock};

/// A text and its parsed EL (`parse_template(text, 0)`), shared by every
/// value with that text (one reference count for all), and what is found in
/// it, found the first time it is asked for.
pub(crate) struct Shared {
    pub text: Box<str>,
    pub template: Template,
    calls: OnceLock<Box<[CompactString]>>,
    resolved: OnceLock<Resolved>,
    references: PerLibrary<Box<[Reference]>>,
    findings: PerLibrary<Findings>,
}

/// What the checks (`check::el`) find from a tree and its library alone: the
/// problems, and the names it reads as variables (neither EL constants nor
/// dotted names), which the job may or may not define.
#[derive(Debug)]
pub(crate) struct Findings {
    pub problems: Vec<Diagnostic>,
    pub variables: Vec<(Box<str>, Span)>,
}

/// One slot for each library: what a text is found to hold depends on the
/// library it is read in.
type PerLibrary<T> = [OnceLock<T>; 3];

fn slot<T>(per_library: &PerLibrary<T>, library: Library) -> &OnceLock<T> {
    let [coordinator, workflow, bundle] = per_library;
    match library {
        Library::Coordinator => coordinator,
        Library::Workflow => workflow,
        Library::Bundle => bundle,
    }
}

impl Shared {
    pub(crate) fn new(text: &str, template: Template) -> Arc<Shared> {
        Arc::new(Shared {
            text: text.into(),
            template,
            calls: OnceLock::new(),
            resolved: OnceLock::new(),
            references: Default::default(),
            findings: Default::default(),
        })
    }

    /// The names of the functions the tree calls, in any namespace, in the
    /// order of its text.
    pub(crate) fn called(&self) -> &[CompactString] {
        self.calls
            .get_or_init(|| self.template.called().into_boxed_slice())
    }

    /// [`super::render`] of the tree, the functions its calls name found
    /// once for every value with this text.
    pub(crate) fn render(&self, env: &Env) -> Result<(String, ValueType), Diagnostic> {
        let resolved = self.resolved.get_or_init(|| Resolved::of(&self.template));
        render_resolved(&self.template, Some(resolved), env)
    }

    /// [`super::library::first_misplaced`], from the functions and constants
    /// the tree names, looked up once per library.
    pub(crate) fn first_misplaced(
        &self,
        place: Place,
        vars: &dyn super::Variables,
    ) -> Option<Misplaced> {
        let library = place.library();
        let named = slot(&self.references, library)
            .get_or_init(|| references(&self.template, library).into_boxed_slice());
        first_misplaced_of(named, place, vars)
    }

    /// What the checks find in the tree in `library`: `find`'s answer, asked
    /// the first time.
    pub(crate) fn findings(
        &self,
        library: Library,
        find: impl FnOnce(&Template, Library) -> Findings,
    ) -> &Findings {
        slot(&self.findings, library).get_or_init(|| find(&self.template, library))
    }
}

// (The text and its tree: what was found in it is not shown.)
impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shared")
            .field("text", &self.text)
            .field("template", &self.template)
            .finish_non_exhaustive()
    }
}

/// A shared text as the parse cache's key: found by the text alone.
struct ByText(Arc<Shared>);

impl std::hash::Hash for ByText {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.text.hash(state);
    }
}

impl PartialEq for ByText {
    fn eq(&self, other: &ByText) -> bool {
        self.0.text == other.0.text
    }
}

impl Eq for ByText {}

impl std::borrow::Borrow<str> for ByText {
    fn borrow(&self) -> &str {
        &self.0.text
    }
}

/// `text` parsed, shared: the one kept when the same text was parsed before,
/// if it was (applications repeat their values: `${coord:current(0)}`, a
/// dataset's uri-template in every app that reads it, a zone, a date). The
/// tree's spans are offsets in `text`, so one tree serves the value wherever
/// it stands; `ElText` maps them into the file. Each thread keeps its own
/// texts, a bounded number of short ones.
pub(crate) fn parse_template_shared(text: &str) -> Result<Arc<Shared>, Diagnostic> {
    const MAX_TEXT: usize = 256;
    // (Few: the values an application repeats are found again at once, and a
    // small table stays in the cache, where 4,096 texts and their trees,
    // mostly values seen once, cost more in misses than re-parsing saves:
    // 512 took 3-4% less time than 4,096 over 10,000 apps.)
    const MAX_TEXTS: usize = 512;
    type Parsed = rustc_hash::FxHashSet<ByText>;
    thread_local!(static PARSED: std::cell::RefCell<Parsed> = std::cell::RefCell::default());
    if text.len() > MAX_TEXT {
        return Ok(Shared::new(text, parse_template(text, 0)?));
    }
    PARSED.with_borrow_mut(|parsed| {
        if let Some(kept) = parsed.get(text) {
            return Ok(Arc::clone(&kept.0));
        }
        // A text that does not parse is not kept.
        let template = parse_template(text, 0)?;
        if parsed.len() == MAX_TEXTS {
            parsed.clear();
        }
        let shared = Shared::new(text, template);
        parsed.insert(ByText(Arc::clone(&shared)));
        Ok(shared)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_parsed_again_shares_the_first_tree() {
        let shared = |text: &str| {
            let kept = parse_template_shared(text).unwrap();
            assert_eq!(&*kept.text, text);
            assert_eq!(kept.template, parse_template(text, 0).unwrap());
            kept
        };
        // With EL, and plain text too (a value without EL: a zone, a date).
        for text in [
            "${coord:formatTime(coord:nominalTime(), 'yyyy')}/${YEAR}",
            "UTC",
        ] {
            assert!(Arc::ptr_eq(&shared(text), &shared(text)));
        }
        // A long text is parsed, not kept.
        let long = format!("${{'{}'}}", "x".repeat(300));
        assert!(!Arc::ptr_eq(&shared(&long), &shared(&long)));
        // A text that does not parse fails every time, as the parser says.
        for _ in 0..2 {
            assert_eq!(
                parse_template_shared("${coord:current(}").unwrap_err(),
                parse_template("${coord:current(}", 0).unwrap_err()
            );
        }
    }

    #[test]
    fn a_text_lists_the_functions_it_calls_in_every_namespace() {
        let text = "${coord:formatTime(coord:nominalTime(), 'y')}/${wf:id()}";
        let shared = Shared::new(text, parse_template(text, 0).unwrap());
        for _ in 0..2 {
            assert_eq!(shared.called(), ["formatTime", "nominalTime", "id"]);
        }
        assert!(parse_template("plain", 0).unwrap().called().is_empty());
    }

    #[test]
    fn a_text_finds_the_misplaced_names_once_as_its_tree_does_each_time() {
        let text = "${MINUTES}/${coord:dateOffset('2009-01-01T00:00Z', 1, 'DAY')}";
        let shared = Shared::new(text, parse_template(text, 0).unwrap());
        let defines_minutes: super::super::VarMap =
            [("MINUTES".to_string(), Some("5".to_string()))]
                .into_iter()
                .collect();
        let jobs: [&dyn super::super::Variables; 2] =
            [&super::super::NoVariables, &defines_minutes];
        for _ in 0..2 {
            for place in [Place::Instance, Place::Submit, Place::Workflow] {
                for vars in jobs {
                    let from_tree =
                        super::super::library::first_misplaced(&shared.template, place, vars);
                    assert_eq!(shared.first_misplaced(place, vars), from_tree);
                }
            }
        }
    }
}
