//! The files a check is given: files as named, folders searched for `.xml`
//! files, each with the folder whose settings apply to it.

use super::{CheckOptions, Target};
use crate::project::files::Files;
use crate::project::settings::{Finder, Refused};
use rustc_hash::FxHashSet;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The files to check, in a stable order: files as given, folders searched
/// (recursively, sorted) for `.xml` files, each with its folder (a file's
/// own folder, for a file); and the paths that cannot be read. Or a
/// processing zone that is wrong.
pub(super) fn discover(
    paths: &[PathBuf],
    options: &CheckOptions,
    files: &Files,
) -> Result<(Vec<Target>, Vec<String>), Refused> {
    let mut targets = Vec::new();
    let mut errors = Vec::new();
    let mut searched = HashSet::new();
    let mut checked = FxHashSet::default();
    // One path's walk finds each file once (each folder is searched once, and
    // names in a folder differ): only files found under several paths need
    // their real paths compared.
    let keyed = paths.len() > 1;
    let finder = Finder::new(files, options.processing_timezone.as_deref(), &options.maps)
        .selecting(&options.selection);
    for path in paths {
        // (A path that does not exist is said below; its folder's settings
        // are still read, so a wrong coordc.toml is never passed over.)
        let folder = finder.of(path)?;
        let given_file = !path.is_dir();
        let mut found = Vec::new();
        if path.is_dir() {
            let mut walk = Walk {
                keyed,
                ignored: &options.ignored_folders,
                files: &mut found,
                errors: &mut errors,
                searched: &mut searched,
            };
            walk.folder(path);
        } else if files.exists(path) {
            let real = keyed.then(|| path.canonicalize().unwrap_or_else(|_| path.clone()));
            found.push((path.clone(), real));
        } else {
            errors.push(format!("{}: no such file or folder", path.display()));
        }
        // A file given twice (or found under two paths) is checked once.
        targets.reserve(found.len());
        for (path, real) in found {
            // (Keyed by the path's bytes: `Path` hashes component by component.)
            if real.is_none_or(|real| checked.insert(real.into_os_string())) {
                // Each file's nearest coordc.toml, which may be below the
                // folder given.
                let folder = if given_file {
                    Arc::clone(&folder)
                } else {
                    finder.of_file(&path)?
                };
                targets.push(Target {
                    path,
                    folder,
                    member: None,
                    run: None,
                });
            }
        }
    }
    Ok((targets, errors))
}

/// The `.xml` files under `dir`, in path order, each with its real path when
/// `keyed`. A folder reached twice (a symbolic link back up the tree, or to a
/// folder already searched) is searched once.
struct Walk<'a> {
    keyed: bool,
    /// Folder names not searched.
    ignored: &'a [String],
    files: &'a mut Vec<(PathBuf, Option<PathBuf>)>,
    errors: &'a mut Vec<String>,
    searched: &'a mut HashSet<PathBuf>,
}

impl Walk<'_> {
    fn folder(&mut self, dir: &Path) {
        let real = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
        if !self.searched.insert(real.clone()) {
            return;
        }
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) => {
                self.errors
                    .push(format!("cannot read {}: {e}", dir.display()));
                return;
            }
        };
        // The entry's type comes with the listing: no stat per file. (Each entry
        // is kept as its path, made once: the name alone would be a second copy.)
        let mut entries: Vec<(PathBuf, bool)> = entries
            .filter_map(|e| {
                let e = e.ok()?;
                let path = e.path();
                let is_dir = match e.file_type() {
                    Ok(t) if t.is_symlink() => path.is_dir(),
                    Ok(t) => t.is_dir(),
                    Err(_) => false,
                };
                Some((path, is_dir))
            })
            .collect();
        // In path order: within one folder, the order of the names' bytes (the
        // paths share the folder's prefix).
        entries.sort_unstable_by(|a, b| {
            a.0.as_os_str()
                .as_encoded_bytes()
                .cmp(b.0.as_os_str().as_encoded_bytes())
        });
        // (Sized once: growing lists of 10,000 paths is fresh memory each time.)
        self.files.reserve(entries.len());
        for (path, is_dir) in entries {
            if is_dir {
                let name = path.file_name().unwrap_or_default();
                if !self.ignored.iter().any(|i| name == i.as_str()) {
                    self.folder(&path);
                }
            } else if path.extension().is_some_and(|e| e == "xml") {
                // Its real path, without a system call per file.
                let key = self
                    .keyed
                    .then(|| real.join(path.file_name().unwrap_or_default()));
                self.files.push((path, key));
            }
        }
    }
}

/// Folders a walk does not enter, as they hold no applications of their
/// own: version control, build output (a Maven build copies the
/// applications into `target/`), dependencies and virtual environments. A
/// folder named on the command line is checked all the same.
pub(crate) const SKIPPED_FOLDERS: &[&str] = &[
    ".git",
    ".hg",
    ".svn",
    "target",
    "node_modules",
    ".venv",
    ".venv-tools",
];
