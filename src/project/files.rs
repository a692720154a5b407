//! The files a check reads: an editor's unsaved buffers first, then the
//! disk. Every reader of an application (its XML, its job configuration, its
//! includes, its sub-workflows) goes through [`Files`], so `coordc lsp`
//! checks what the user sees and `coordc check` what is saved.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

/// Why a source file could not be read.
pub(crate) enum ReadError {
    Io(std::io::Error),
    /// Not read as text: over the size coordc reads, or not UTF-8; with the
    /// diagnostic that says so.
    Refused(crate::diag::Diagnostic),
}

/// Reads a source file, refusing one over `xml::read::MAX_FILE_LEN` before
/// reading it into memory.
pub(crate) fn read_source(path: &std::path::Path) -> Result<String, ReadError> {
    use crate::xml::read::{MAX_FILE_LEN, too_long};
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(ReadError::Io)?;
    let metadata = file.metadata().map_err(ReadError::Io)?;
    if let Some(d) = too_long(metadata.len()) {
        return Err(ReadError::Refused(d));
    }
    // A regular file is read to the length it has; a pipe or a device has
    // none, and is read to its end but at most one byte past the limit.
    // (Through `take`: `File`'s own read_to_end asks for the length and the
    // position again, two more system calls a file, then reads once more to
    // find the end.)
    let limit = if metadata.is_file() {
        metadata.len()
    } else {
        MAX_FILE_LEN as u64 + 1
    };
    let mut bytes = Vec::with_capacity(metadata.len() as usize);
    file.take(limit)
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if let Some(d) = too_long(bytes.len() as u64) {
        return Err(ReadError::Refused(d));
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        ReadError::Refused(
            crate::diag::Diagnostic::about_whole_file(
                crate::diag::rules::XML_SYNTAX,
                format!("the file is not UTF-8 text (byte {at} is not valid UTF-8)"),
            )
            .with_help("coordc reads UTF-8 (and ASCII) XML; save the file as UTF-8"),
        )
    })
}

/// A configuration file: its name and its text, or why it cannot be read.
pub struct ConfigFile {
    pub(crate) name: String,
    pub(crate) text: Result<Arc<str>, ReadError>,
}

impl ConfigFile {
    /// The file at `path`, read from disk.
    pub(crate) fn read(path: &Path) -> ConfigFile {
        Files::default().config(path)
    }
}

/// What a check reads: the texts of editor buffers (by absolute path, which
/// win over the disk), and the configuration files beside applications,
/// looked up (and read) once per folder: the applications of one folder
/// share them.
#[derive(Default)]
pub struct Files {
    buffers: HashMap<PathBuf, Arc<str>>,
    beside: Mutex<HashMap<BesideFile, Option<Arc<ConfigFile>>>>,
    /// The `.properties` files of each folder asked about.
    properties: Mutex<HashMap<PathBuf, Vec<Arc<ConfigFile>>>>,
}

/// A folder, and the name of a configuration file looked for in it.
type BesideFile = (PathBuf, &'static str);

impl Files {
    /// The disk, with `buffers` (by path) in place of the files they name.
    pub fn with_buffers(buffers: impl IntoIterator<Item = (PathBuf, Arc<str>)>) -> Files {
        Files {
            buffers: buffers
                .into_iter()
                .map(|(path, text)| (normal(&path), text))
                .collect(),
            beside: Mutex::default(),
            properties: Mutex::default(),
        }
    }

    fn buffer(&self, path: &Path) -> Option<&Arc<str>> {
        if self.buffers.is_empty() {
            return None;
        }
        self.buffers.get(&normal(path))
    }

    /// The text at `path`: its buffer, else the file (see [`read_source`]).
    pub(crate) fn read(&self, path: &Path) -> Result<Arc<str>, ReadError> {
        match self.buffer(path) {
            Some(text) => match crate::xml::read::too_long(text.len() as u64) {
                Some(d) => Err(ReadError::Refused(d)),
                None => Ok(Arc::clone(text)),
            },
            None => read_source(path).map(Arc::from),
        }
    }

    /// Whether `path` is a buffer or a file.
    pub(crate) fn is_file(&self, path: &Path) -> bool {
        self.buffer(path).is_some() || path.is_file()
    }

    /// Whether `path` is a buffer, or anything on disk (a pipe too).
    pub(crate) fn exists(&self, path: &Path) -> bool {
        self.buffer(path).is_some() || path.exists()
    }

    /// Whether `path` is a folder (on disk: buffers are files).
    pub(crate) fn is_dir(&self, path: &Path) -> bool {
        path.is_dir()
    }

    /// The configuration file at `path`.
    pub fn config(&self, path: &Path) -> ConfigFile {
        ConfigFile {
            name: path.display().to_string(),
            text: self.read(path),
        }
    }

    /// The configuration file `file` in `app_dir`, if there is one.
    pub(crate) fn beside(&self, app_dir: &Path, file: &'static str) -> Option<Arc<ConfigFile>> {
        let mut found = self.beside.lock().unwrap_or_else(PoisonError::into_inner);
        let key = (app_dir.to_path_buf(), file);
        if let Some(known) = found.get(&key) {
            return known.clone();
        }
        let path = app_dir.join(file);
        let config = self.is_file(&path).then(|| Arc::new(self.config(&path)));
        found.insert(key, config.clone());
        config
    }
}

impl Files {
    /// The `.properties` files in `dir` (buffers too), in name order, each
    /// read once per run.
    pub(crate) fn properties_in(&self, dir: &Path) -> Vec<Arc<ConfigFile>> {
        let mut known = self
            .properties
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(found) = known.get(dir) {
            return found.clone();
        }
        let is_properties = |p: &Path| p.extension().is_some_and(|e| e == "properties");
        let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| is_properties(p) && p.is_file())
            .collect();
        let folder = normal(dir);
        for path in self.buffers.keys() {
            if is_properties(path)
                && path.parent() == Some(folder.as_path())
                && !paths.iter().any(|p| normal(p) == *path)
            {
                paths.push(dir.join(path.file_name().unwrap_or_default()));
            }
        }
        paths.sort();
        let found: Vec<Arc<ConfigFile>> = paths.iter().map(|p| Arc::new(self.config(p))).collect();
        known.insert(dir.to_path_buf(), found.clone());
        found
    }
}

/// `path` absolute, with `.` and `..` taken out (without asking the file
/// system: a buffer need not exist on disk), to name one file one way.
pub(crate) fn normal(path: &Path) -> PathBuf {
    let absolute = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_default().join(path)
    };
    let mut out = PathBuf::new();
    for component in absolute.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_buffer_is_read_in_place_of_its_file_under_any_spelling() {
        let files =
            Files::with_buffers([(PathBuf::from("/no/such/dir/app.xml"), Arc::from("<x/>"))]);
        let read = files.read(Path::new("/no/such/dir/sub/../app.xml"));
        assert!(matches!(read, Ok(text) if &*text == "<x/>"));
        assert!(files.is_file(Path::new("/no/such/./dir/app.xml")));
        assert!(!files.is_file(Path::new("/no/such/dir/other.xml")));
        assert!(matches!(
            files.read(Path::new("/no/such/dir/other.xml")),
            Err(ReadError::Io(_))
        ));
    }

    #[test]
    fn a_configuration_beside_an_application_can_be_a_buffer() {
        let files =
            Files::with_buffers([(PathBuf::from("/nowhere/job.properties"), Arc::from("a=1\n"))]);
        let found = files.beside(Path::new("/nowhere"), "job.properties");
        assert!(found.is_some_and(|c| c.text.as_deref().ok() == Some("a=1\n")));
        assert!(
            files
                .beside(Path::new("/nowhere"), "config-default.xml")
                .is_none()
        );
    }
}
