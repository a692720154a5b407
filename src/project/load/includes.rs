//! Included dataset files (`<include>`), followed as Oozie follows them,
//! and a datasets file loaded on its own.

use super::config::{JobInput, job_config};
use super::{Sources, Stop, app_dir};
use crate::diag::FileRef;
use crate::diag::{Diagnostic, Located};
use crate::el::VarMap;
use crate::ir::{self, Dataset};
use crate::oozie::job::submit_text;
use crate::project::files::{ConfigFile, Files, ReadError};
use crate::project::locate;
use crate::time::datetime::ProcessingZone;
use crate::xml;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A datasets file checked on its own: the variables of the job it is
/// checked for, and the datasets its `<include>`s read with them.
pub(crate) struct LoadedDatasets {
    /// The `--config` files and `-D` (a job.properties beside the file
    /// belongs to the coordinators that include it, and is not read).
    pub vars: VarMap,
    /// Whether any were given: only then do undefined names count.
    pub configured: bool,
    /// The datasets of its includes (nested `<include>`s, read as a
    /// coordinator's are), each file added to `sources`.
    pub included: Vec<Dataset>,
    pub include_problems: Vec<Located>,
}

/// [`LoadedDatasets`] for the datasets file at `path`, whose `<include>`s
/// are `includes`; a configuration that cannot be read stops it.
pub(crate) fn datasets_file(
    includes: &[ir::ElText],
    path: &Path,
    input: &JobInput,
    sources: &mut Sources,
) -> Result<LoadedDatasets, Stop> {
    let configured = !input.configs.is_empty() || !input.defines.is_empty();
    let files: Vec<&ConfigFile> = input.configs.iter().collect();
    let vars = job_config(&files, input.defines, sources)?.vars().clone();
    let dir = app_dir(path);
    let reader = Includes {
        files: input.files,
        maps: input.maps,
        vars: &vars,
        pz: input.processing_zone,
    };
    let (mut included, mut include_problems) = (Vec::new(), Vec::new());
    let mut stack = vec![path.canonicalize().unwrap_or_else(|_| path.to_path_buf())];
    reader.read(
        includes,
        FileRef::App,
        &dir,
        &mut stack,
        sources,
        &mut included,
        &mut include_problems,
    );
    Ok(LoadedDatasets {
        vars,
        configured,
        included,
        include_problems,
    })
}

/// Follows `<include>`s: paths are EL-resolved at submission, mapped by
/// `--map`, else read relative to the including file; a `scheme://` path no
/// map covers is looked for beside the including file. Cycles are errors.
pub(crate) struct Includes<'a> {
    pub(super) files: &'a Files,
    pub(super) maps: &'a [(String, String)],
    pub(super) vars: &'a crate::el::VarMap,
    pub(super) pz: ProcessingZone,
}

impl Includes<'_> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn read(
        &self,
        includes: &[ir::ElText],
        file: FileRef,
        dir: &Path,
        stack: &mut Vec<PathBuf>,
        sources: &mut Sources,
        datasets: &mut Vec<Dataset>,
        problems: &mut Vec<Located>,
    ) {
        for include in includes {
            let mut problem = |d: Diagnostic| {
                problems.push(Located {
                    file,
                    diagnostic: d,
                })
            };
            let path = match submit_text(include, self.vars, self.pz) {
                Ok(p) => p.trim().to_string(),
                Err(d) => {
                    problem(d);
                    continue;
                }
            };
            let local = self.local_path(&path, dir);
            let text = match self.files.read(&local) {
                Ok(t) => t,
                Err(ReadError::Refused(mut d)) => {
                    d.span = include.span;
                    d.message = format!("{}: {}", local.display(), d.message);
                    problem(d);
                    continue;
                }
                Err(ReadError::Io(_))
                    if path.contains("://") && locate::mapped(self.maps, &path).is_none() =>
                {
                    // A remote file coordc cannot see: not a mistake in the
                    // application, but its datasets go unchecked.
                    sources.absent.push(local.clone());
                    problem(
                        Diagnostic::warning(
                            crate::diag::rules::UNDEFINED_DATASET,
                            include.span,
                            format!(
                                "{path} is not read: no --map covers it and no file of that name is in this checkout, so the datasets it defines are not checked"
                            ),
                        )
                        .with_help("map its location to a local folder with --map PREFIX=DIR, or [map] in coordc.toml"),
                    );
                    continue;
                }
                Err(ReadError::Io(e)) => {
                    sources.absent.push(local.clone());
                    problem(
                        Diagnostic::error(
                            crate::diag::rules::UNDEFINED_DATASET,
                            include.span,
                            format!("cannot read the included file {} ({e})", local.display()),
                        )
                        .with_help("map its location to a local folder with --map PREFIX=DIR"),
                    );
                    continue;
                }
            };
            let canonical = local.canonicalize().unwrap_or_else(|_| local.clone());
            if stack.contains(&canonical) {
                problem(Diagnostic::error(
                    crate::diag::rules::UNDEFINED_DATASET,
                    include.span,
                    format!(
                        "{} includes itself (through {} file(s))",
                        local.display(),
                        stack.len()
                    ),
                ));
                continue;
            }
            let index = sources.add(local.display().to_string(), Arc::clone(&text));
            let arena = xml::Arena::new();
            let doc = match xml::parse(&text, &arena) {
                Ok(doc) => doc,
                Err(d) => {
                    problems.push(Located {
                        file: FileRef::Read(index),
                        diagnostic: d,
                    });
                    continue;
                }
            };
            let (nested, found, lowering) =
                ir::lower::dataset_file(&doc.root, FileRef::Read(index));
            problems.extend(lowering.into_iter().map(|d| Located {
                file: FileRef::Read(index),
                diagnostic: d,
            }));
            datasets.extend(found);
            stack.push(canonical);
            let nested_dir = local
                .parent()
                .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
            self.read(
                &nested,
                FileRef::Read(index),
                &nested_dir,
                stack,
                sources,
                datasets,
                problems,
            );
            stack.pop();
        }
    }

    fn local_path(&self, path: &str, dir: &Path) -> PathBuf {
        locate::mapped(self.maps, path).unwrap_or_else(|| match path.split_once("://") {
            // Read by its name in the checkout, else beside the including file.
            Some((_, rest)) => locate::by_name(path, dir, None, self.files)
                .unwrap_or_else(|| dir.join(rest.rsplit('/').next().unwrap_or(rest))),
            None => dir.join(path),
        })
    }
}
