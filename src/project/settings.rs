//! Which `coordc.toml` applies to a file, and what it makes of the options:
//! the nearest one in the file's folder or a parent, up to the repository
//! root (the first folder holding `.git`), as ruff finds its configuration.
//! `coordc check`, `dryrun`, `simulate` and `lsp` all ask here, whether a
//! folder or files are named, so they read one application the same way.
//! A mistake in the file stops the command before anything runs.

use super::files::{Files, normal};
use crate::check::select::{RuleSet, Selection};
use crate::check::settings::Settings;
use crate::diag::Diagnostic;
use crate::diag::render::human;
use crate::time::datetime::ProcessingZone;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

/// The settings file's name.
pub(crate) const SETTINGS_FILE: &str = "coordc.toml";

/// The settings that apply to the files of a folder, with the command's
/// options applied over them.
pub struct Folder {
    /// The folder of the `coordc.toml` (its `[ignore]` patterns and `[map]`
    /// folders are relative to it); without one, the file's folder.
    pub base: PathBuf,
    /// The `coordc.toml` read, if any.
    pub file: Option<PathBuf>,
    pub settings: Settings,
    /// `--processing-timezone`, else the file's, else UTC.
    pub processing_zone: ProcessingZone,
    /// `--map`s first, then the file's `[map]` (made absolute).
    pub maps: Vec<(String, String)>,
    /// The rules reported: the file's `[check]`, then the command line's
    /// selection over it.
    pub rules: RuleSet,
}

/// Why a command cannot run at all.
pub enum Refused {
    /// An option's text is wrong (the processing zone): what it is (e.g.
    /// `<--processing-timezone>`), the text, and the diagnostic on it.
    Option {
        name: String,
        text: String,
        diagnostic: Diagnostic,
    },
    /// A `coordc.toml` that cannot be read or says something wrong.
    Settings { path: PathBuf, message: String },
}

impl Refused {
    /// What a terminal shows.
    pub fn render(&self) -> String {
        match self {
            Refused::Option {
                name,
                text,
                diagnostic,
            } => human(diagnostic, name, text),
            Refused::Settings { path, message } => {
                format!("error: {}: {message}\n", path.display())
            }
        }
    }

    /// The same in one line (an editor's message).
    pub(crate) fn summary(&self) -> String {
        match self {
            Refused::Option {
                name,
                text,
                diagnostic,
            } => format!("{name} `{text}`: {}", diagnostic.message),
            Refused::Settings { path, message } => {
                let first = message.lines().next().unwrap_or_default();
                format!("{}: {first}", path.display())
            }
        }
    }
}

/// Finds the settings of the files of a run, each folder's once.
pub struct Finder<'a> {
    files: &'a Files,
    /// `--processing-timezone`, over every file's settings.
    processing_timezone: Option<&'a str>,
    /// `--map`s, before every file's `[map]`.
    maps: &'a [(String, String)],
    /// The command line's rule selection, over every file's.
    selection: Option<&'a Selection>,
    /// Each folder asked about, and its answer.
    known: Mutex<HashMap<PathBuf, Arc<Folder>>>,
}

impl<'a> Finder<'a> {
    pub fn new(
        files: &'a Files,
        processing_timezone: Option<&'a str>,
        maps: &'a [(String, String)],
    ) -> Self {
        Finder {
            files,
            processing_timezone,
            maps,
            selection: None,
            known: Mutex::default(),
        }
    }

    /// The same, with the command line's rule selection.
    pub(crate) fn selecting(self, selection: &'a Selection) -> Self {
        Finder {
            selection: Some(selection),
            ..self
        }
    }

    /// The settings of the file or folder at `path`.
    pub(crate) fn of(&self, path: &Path) -> Result<Arc<Folder>, Refused> {
        if self.files.is_dir(path) {
            self.in_folder(path)
        } else {
            self.of_file(path)
        }
    }

    /// The settings of the file at `path` (not a folder).
    pub fn of_file(&self, path: &Path) -> Result<Arc<Folder>, Refused> {
        match path.parent().filter(|p| !p.as_os_str().is_empty()) {
            Some(dir) => self.in_folder(dir),
            None => self.in_folder(Path::new(".")),
        }
    }

    fn in_folder(&self, dir: &Path) -> Result<Arc<Folder>, Refused> {
        if let Some(known) = self.known().get(dir) {
            return Ok(Arc::clone(known));
        }
        let folder = Arc::new(self.read(dir)?);
        self.known().insert(dir.to_path_buf(), Arc::clone(&folder));
        Ok(folder)
    }

    fn known(&self) -> std::sync::MutexGuard<'_, HashMap<PathBuf, Arc<Folder>>> {
        self.known.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The settings that apply in `dir`: read from the nearest file.
    fn read(&self, dir: &Path) -> Result<Folder, Refused> {
        let start = normal(dir);
        let (file, settings) = match nearest(self.files, &start) {
            Some(file) => {
                let settings = match self.files.read(&file) {
                    Ok(text) => Settings::parse(&text),
                    Err(super::files::ReadError::Io(e)) => Err(format!("cannot read it: {e}")),
                    Err(super::files::ReadError::Refused(d)) => Err(d.message.clone()),
                }
                .map_err(|message| Refused::Settings {
                    path: file.clone(),
                    message,
                })?;
                (Some(file), settings)
            }
            None => (None, Settings::none()),
        };
        let base = file
            .as_deref()
            .and_then(Path::parent)
            .map_or(start, Path::to_path_buf);
        let (zone, name) = match (self.processing_timezone, &settings.processing_timezone) {
            (Some(zone), _) => (zone, "<--processing-timezone>".to_string()),
            (None, Some(zone)) => (
                zone.as_str(),
                format!(
                    "processing-timezone in {}",
                    file.as_deref()
                        .unwrap_or(Path::new(SETTINGS_FILE))
                        .display()
                ),
            ),
            (None, None) => ("UTC", String::new()),
        };
        let processing_zone =
            ProcessingZone::parse_option(zone).map_err(|diagnostic| Refused::Option {
                name,
                text: zone.to_string(),
                diagnostic,
            })?;
        let mut maps = self.maps.to_vec();
        let shown = relative_to_current(&base);
        maps.extend(settings.maps.iter().map(|(prefix, local)| {
            (
                prefix.clone(),
                shown.join(local).to_string_lossy().into_owned(),
            )
        }));
        let mut rules = RuleSet::default().with(&settings.selection);
        if let Some(selection) = self.selection {
            rules = rules.with(selection);
        }
        Ok(Folder {
            base,
            file,
            settings,
            processing_zone,
            maps,
            rules,
        })
    }
}

/// `path` (absolute) relative to the current folder when it is under it,
/// as the user would write it in a command (the paths read through a
/// `[map]` are shown in diagnostics).
fn relative_to_current(path: &Path) -> PathBuf {
    let current = std::env::current_dir().unwrap_or_default();
    match path.strip_prefix(&current) {
        Ok(rest) if rest.as_os_str().is_empty() => PathBuf::from("."),
        Ok(rest) => rest.to_path_buf(),
        Err(_) => path.to_path_buf(),
    }
}

/// The nearest `coordc.toml` in `dir` (absolute) or a parent, stopping at
/// the repository root: a folder holding `.git` is the last one looked in.
fn nearest(files: &Files, dir: &Path) -> Option<PathBuf> {
    for folder in dir.ancestors() {
        let candidate = folder.join(SETTINGS_FILE);
        if files.is_file(&candidate) {
            return Some(candidate);
        }
        if folder.join(".git").exists() {
            return None;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh folder for one test.
    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("coordc-settings-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn zone(id: &str) -> ProcessingZone {
        ProcessingZone::parse(id).unwrap()
    }

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn the_nearest_file_up_to_the_repository_root_applies() {
        let root = scratch("nearest");
        let repo = root.join("repo");
        // Above the repository: never read.
        write(
            &root.join(SETTINGS_FILE),
            "processing-timezone = \"GMT+0100\"\n",
        );
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        write(
            &repo.join(SETTINGS_FILE),
            "processing-timezone = \"GMT+0530\"\n[map]\n\"hdfs://nn/apps\" = \"apps\"\n",
        );
        write(&repo.join("apps/a/coordinator.xml"), "<x/>");
        write(
            &repo.join("apps/b/coordc.toml"),
            "[rules]\nTM002 = \"off\"\n",
        );
        write(&repo.join("apps/b/coordinator.xml"), "<x/>");
        let files = Files::default();
        let maps = [("hdfs://other".to_string(), "/o".to_string())];
        let finder = Finder::new(&files, None, &maps);
        let a = finder
            .of(&repo.join("apps/a/coordinator.xml"))
            .ok()
            .unwrap();
        assert_eq!(a.file.as_deref(), Some(repo.join(SETTINGS_FILE).as_path()));
        assert_eq!(a.base, normal(&repo));
        assert_eq!(a.processing_zone, zone("GMT+0530"));
        // The command's maps first, then the file's, relative to its folder.
        assert_eq!(a.maps[0].0, "hdfs://other");
        assert_eq!(normal(Path::new(&a.maps[1].1)), normal(&repo).join("apps"));
        // A nearer file wins, whole: its zone is UTC, not the root's.
        let b = finder.of(&repo.join("apps/b")).ok().unwrap();
        assert_eq!(b.base, normal(&repo.join("apps/b")));
        assert_eq!(b.processing_zone, ProcessingZone::UTC);
        // The command's zone wins over every file's.
        let given = Finder::new(&files, Some("GMT-0200"), &[]);
        let a = given.of(&repo.join("apps/a/coordinator.xml")).ok().unwrap();
        assert_eq!(a.processing_zone, zone("GMT-0200"));
        // Outside the repository nothing is read above the repository root.
        std::fs::remove_file(repo.join(SETTINGS_FILE)).unwrap();
        let none = Finder::new(&files, None, &[]);
        let a = none.of(&repo.join("apps/a/coordinator.xml")).ok().unwrap();
        assert!(a.file.is_none());
        assert_eq!(a.base, normal(&repo.join("apps/a")));
    }

    #[test]
    fn a_mistake_in_the_file_refuses_the_run() {
        let root = scratch("mistake");
        std::fs::create_dir_all(root.join(".git")).unwrap();
        write(&root.join(SETTINGS_FILE), "colour = 1\n");
        let files = Files::default();
        let finder = Finder::new(&files, None, &[]);
        let Err(refused) = finder.of(&root) else {
            panic!("a wrong coordc.toml was accepted");
        };
        let shown = refused.render();
        assert!(shown.contains("coordc.toml") && shown.contains("unknown field"));
        write(
            &root.join(SETTINGS_FILE),
            "processing-timezone = \"Mars\"\n",
        );
        let Err(refused) = Finder::new(&files, None, &[]).of(&root) else {
            panic!("a wrong processing zone was accepted");
        };
        assert!(refused.summary().contains("processing-timezone in"));
    }
}
