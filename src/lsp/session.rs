//! What the server knows: the documents the editor has open (their unsaved
//! text), and the check of every application of the workspace, kept per
//! application with the files it was read from, so that an edit re-checks
//! only the applications that read the file edited.

use super::text::{Encoding, LineIndex};
use crate::check::select::Selection;
use crate::diag::Located;
use crate::diag::Severity;
use crate::diag::rules::{XML_SYNTAX, XML_UNKNOWN_DOCUMENT};
use crate::project::check::{
    CheckOptions, Report, SKIPPED_FOLDERS, Target, check, pipeline_problems,
};
use crate::project::files::{Files, normal};
use crate::time::cron::MaxYear;
use chrono::{Datelike, Utc};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A document open in the editor.
pub(super) struct Document {
    pub uri: String,
    pub version: i32,
    pub text: Arc<str>,
    pub index: LineIndex,
}

impl Document {
    pub(super) fn new(uri: String, version: i32, text: Arc<str>) -> Document {
        let index = LineIndex::new(&text);
        Document {
            uri,
            version,
            text,
            index,
        }
    }
}

/// One application's check: its report, and for a bundle, those of the
/// coordinators it submits.
struct Checked {
    target: Target,
    report: Report,
}

/// A problem found in a file, with the text it was found in (the text its
/// span is an offset into).
pub(super) struct Found<'s> {
    pub problem: &'s Located,
    pub text: &'s Arc<str>,
    /// Where the problem's labels point: the file of each (the same as the
    /// problem's).
    pub file: &'s str,
    /// Where rule pages are linked for the application it was found in
    /// (its coordc.toml's `docs-url`), if set.
    pub docs_url: Option<&'s str>,
}

pub(super) struct Session {
    pub encoding: Encoding,
    /// The workspace folders: every application under them is checked, and
    /// the pipeline rules run across them.
    roots: Vec<PathBuf>,
    /// The open documents, by path.
    pub documents: HashMap<PathBuf, Document>,
    /// What the checks are given (the job, the processing zone).
    options: CheckOptions,
    /// The checks, by the path checked (a bundle's members under the
    /// bundle's path).
    checked: BTreeMap<PathBuf, Vec<Checked>>,
    /// The pipeline problems of the last check, by the application's path.
    pipeline: HashMap<PathBuf, Vec<Located>>,
    /// Files changed since the last check.
    dirty: BTreeSet<PathBuf>,
    /// What stopped a check, or a file in it, that no diagnostic says (a
    /// wrong coordc.toml, a configuration that cannot be read), for the
    /// user's eyes; taken by the server.
    pub messages: Vec<String>,
}

impl Session {
    pub(super) fn new(encoding: Encoding, roots: Vec<PathBuf>) -> Session {
        Session {
            encoding,
            roots: roots.iter().map(|r| normal(r)).collect(),
            documents: HashMap::new(),
            options: CheckOptions {
                configs: Vec::new(),
                defines: Vec::new(),
                maps: Vec::new(),
                processing_timezone: None,
                server: None,
                pipeline: false,
                ignored_folders: SKIPPED_FOLDERS.iter().map(|f| f.to_string()).collect(),
                keep_sources: true,
                selection: Selection::default(),
                // The edge reads the clock: the Oozie server the workspace
                // is submitted to is taken to start this year.
                cron_max_year: MaxYear::for_server_started_in(Utc::now().year()),
            },
            checked: BTreeMap::new(),
            pipeline: HashMap::new(),
            dirty: BTreeSet::new(),
            messages: Vec::new(),
        }
    }

    /// Checks every application under the workspace folders.
    pub(super) fn index(&mut self) {
        let roots = self.roots.clone();
        for root in &roots {
            self.check_paths(std::slice::from_ref(root));
        }
        self.run_pipeline();
    }

    /// `path`'s text changed (or the file was created, deleted or closed).
    pub(super) fn touch(&mut self, path: PathBuf) {
        self.dirty.insert(path);
    }

    pub(super) fn is_dirty(&self) -> bool {
        !self.dirty.is_empty()
    }

    /// Checks again what the changed files change: each changed application,
    /// and every application that reads a changed file. The paths whose
    /// problems may differ.
    pub(super) fn check_changed(&mut self) -> BTreeSet<PathBuf> {
        let changed = std::mem::take(&mut self.dirty);
        if changed.is_empty() {
            return changed;
        }
        let mut again: BTreeSet<PathBuf> = changed
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == "xml"))
            .cloned()
            .collect();
        for (key, checked) in &self.checked {
            let reads_a_change = checked.iter().any(|c| {
                c.report
                    .depends_on(&c.target)
                    .iter()
                    .any(|d| changed.contains(&normal(d)))
            });
            if reads_a_change {
                again.insert(key.clone());
            }
        }
        let mut affected: BTreeSet<PathBuf> = changed;
        for key in &again {
            if let Some(old) = self.checked.remove(key) {
                affected.extend(old.iter().flat_map(|c| files_of(&c.report)));
            }
        }
        // (Each file under its nearest coordc.toml, as `coordc check` reads it.)
        let paths: Vec<PathBuf> = again
            .into_iter()
            .filter(|path| self.documents.contains_key(path) || path.exists())
            .collect();
        if !paths.is_empty() {
            self.check_paths(&paths);
        }
        for checked in self.checked.values() {
            for c in checked {
                affected.extend(files_of(&c.report));
            }
        }
        self.run_pipeline();
        affected
    }

    /// The last year the server's Quartz finds a cron fire time in.
    pub(super) fn cron_max_year(&self) -> MaxYear {
        self.options.cron_max_year
    }

    /// The disk, with the open documents' text in place of their files.
    pub(super) fn files(&self) -> Files {
        Files::with_buffers(
            self.documents
                .iter()
                .map(|(path, d)| (path.clone(), Arc::clone(&d.text))),
        )
    }

    fn check_paths(&mut self, paths: &[PathBuf]) {
        let files = self.files();
        // (A wrong coordc.toml stops a check: it is said, and nothing is
        // checked, as `coordc check` exits 2.)
        let result = match check(paths, &self.options, &files) {
            Ok(result) => result,
            Err(refused) => {
                self.messages.push(format!("coordc: {}", refused.summary()));
                return;
            }
        };
        self.messages
            .extend(result.io_errors.iter().map(|e| format!("coordc: {e}")));
        for (target, report) in result.targets.into_iter().zip(result.reports) {
            let key = normal(report.bundle().unwrap_or(&target.path));
            self.checked
                .entry(key)
                .or_default()
                .push(Checked { target, report });
        }
    }

    fn run_pipeline(&mut self) {
        let all: Vec<(&Target, &Report)> = self
            .checked
            .values()
            .flatten()
            .map(|c| (&c.target, &c.report))
            .collect();
        let found = pipeline_problems(&all);
        self.pipeline.clear();
        for ((target, _), problems) in all.iter().zip(found) {
            if !problems.is_empty() {
                self.pipeline
                    .entry(normal(&target.path))
                    .or_default()
                    .extend(problems);
            }
        }
    }

    /// The problems found in the file at `path`, each once; `None` when it
    /// is no document coordc checks (an XML file of another kind).
    pub(super) fn problems(&self, path: &Path) -> Option<Vec<Found<'_>>> {
        let mut found = Vec::new();
        let mut seen = BTreeSet::new();
        let mut skipped = false;
        for c in self.checked.values().flatten() {
            let own = normal(&c.target.path) == path;
            for (index, (name, text)) in c.report.sources.files.iter().enumerate() {
                if normal(Path::new(name)) != path {
                    continue;
                }
                let in_file = c
                    .report
                    .problems
                    .iter()
                    .filter(|p| p.file.index() == Some(index));
                let pipeline = (own && index == 0)
                    .then(|| self.pipeline.get(path))
                    .flatten()
                    .into_iter()
                    .flatten();
                for problem in in_file.chain(pipeline) {
                    let d = &problem.diagnostic;
                    // (The note that the document is no Oozie document: its
                    // other XML003s, a namespace no schema has, are errors.)
                    if d.code == XML_UNKNOWN_DOCUMENT && d.severity == Severity::Note {
                        skipped = true;
                        continue;
                    }
                    // Not well-formed, and nothing says it is meant for
                    // Oozie (a pom.xml being typed): not coordc's business.
                    if d.code == XML_SYNTAX && own && !looks_like_oozie(text) {
                        skipped = true;
                        continue;
                    }
                    if seen.insert((d.code, d.span.start, d.span.end, d.message.clone())) {
                        found.push(Found {
                            problem,
                            text,
                            file: name,
                            docs_url: c.target.docs_url(),
                        });
                    }
                }
            }
        }
        if skipped && found.is_empty() {
            return None;
        }
        found.sort_by_key(|f| (f.problem.diagnostic.span.start, f.problem.diagnostic.code));
        Some(found)
    }
}

impl Session {
    /// The text of the file at `path` as the checks read it (an open
    /// document's as the editor has it), if a check read it.
    pub(super) fn text_of(&self, path: &Path) -> Option<&Arc<str>> {
        if let Some(doc) = self.documents.get(path) {
            return Some(&doc.text);
        }
        self.checked
            .values()
            .flatten()
            .flat_map(|c| &c.report.sources.files)
            .find(|(name, _)| normal(Path::new(name)) == path)
            .map(|(_, text)| text)
    }

    /// The files read together with the file at `path` (by an application
    /// that reads it: its includes, its job configuration), `path` first,
    /// each with its text (an open document's as the editor has it).
    pub(super) fn related(&self, path: &Path) -> Vec<(PathBuf, Arc<str>)> {
        let mut files: BTreeMap<PathBuf, Arc<str>> = BTreeMap::new();
        // The applications reading `path`, then those reading an XML file
        // they read (two coordinators including one datasets file); not
        // those sharing only a configuration file.
        let mut through: BTreeSet<PathBuf> = BTreeSet::from([path.to_path_buf()]);
        for step in 0..2 {
            let mut next = BTreeSet::new();
            for c in self.checked.values().flatten() {
                let read: Vec<(PathBuf, &Arc<str>)> = c
                    .report
                    .sources
                    .files
                    .iter()
                    .filter(|(name, _)| !name.starts_with('<'))
                    .map(|(name, text)| (normal(Path::new(name)), text))
                    .collect();
                if read.iter().any(|(p, _)| through.contains(p)) {
                    for (p, text) in read {
                        if step == 0 && p.extension().is_some_and(|e| e == "xml") {
                            next.insert(p.clone());
                        }
                        files.entry(p).or_insert_with(|| Arc::clone(text));
                    }
                }
            }
            through = next;
        }
        let own = self
            .documents
            .get(path)
            .map(|d| Arc::clone(&d.text))
            .or_else(|| files.remove(path))
            .or_else(|| self.files().read(path).ok());
        let mut related: Vec<(PathBuf, Arc<str>)> = own
            .map(|text| (path.to_path_buf(), text))
            .into_iter()
            .collect();
        for (p, text) in files {
            if p != path {
                let text = self.documents.get(&p).map_or(text, |d| Arc::clone(&d.text));
                related.push((p, text));
            }
        }
        related
    }
}

/// Whether a document that does not parse means to be an Oozie document:
/// its root is one of Oozie's, or it names an Oozie namespace.
fn looks_like_oozie(text: &str) -> bool {
    const ROOTS: &[&str] = &["coordinator-app", "workflow-app", "bundle-app", "datasets"];
    text.contains("uri:oozie:")
        || super::cursor::root_name(text).is_some_and(|root| ROOTS.contains(&root))
}

/// The files `report` was read from.
fn files_of(report: &Report) -> impl Iterator<Item = PathBuf> + '_ {
    report
        .sources
        .files
        .iter()
        .filter(|(name, _)| !name.starts_with('<'))
        .map(|(name, _)| normal(Path::new(name)))
}
