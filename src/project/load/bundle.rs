//! A bundle loaded with its job's configuration, and the coordinators it
//! submits: where each is read, what Oozie refuses in one, each loaded with
//! the configuration the bundle gives it.

use super::config::{BUNDLE_CONFIG_DEFAULT, JobInput, JobSource, job};
use super::coordinator::{LoadedCoordinator, coordinator};
use super::{ProblemSink, Sources, Stop, app_dir, lowered, with_application};
use crate::diag::{Diagnostic, Located};
use crate::el::VarMap;
use crate::ir::{self, Bundle};
use crate::oozie::bundle::{SubmittedBundle, SubmittedCoordinator};
use crate::project::files::ConfigFile;
use crate::project::locate::{self, AppKind};
use crate::xml;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A bundle as submitted: its IR and the configuration its job was given
/// (its coordinators are given the same).
pub(crate) struct LoadedBundle {
    pub bundle: Bundle,
    pub config: VarMap,
    pub job: BundleJob,
}

/// The bundle job's configuration files, which its coordinators are given
/// too (the -D and the rest come as definitions).
#[derive(Clone)]
pub(crate) struct BundleJob {
    /// The bundle-config-default.xml beside the bundle.
    pub defaults: Option<Arc<ConfigFile>>,
    /// The job.properties beside the bundle, when that is its configuration.
    pub job_properties: Option<Arc<ConfigFile>>,
    /// Whether the job was given a configuration (files, the job.properties
    /// beside the bundle, or `-D`): only then do undefined names count.
    pub configured: bool,
}

/// The bundle of `doc` (file 0 of `sources`, already parsed) with its job
/// configuration: its defaults (BundleSubmitXCommand.mergeDefaultConfig,
/// 224-260), then its configuration as any application's.
pub(crate) fn bundle(
    doc: &xml::Document,
    bundle_path: &Path,
    input: &JobInput,
    sources: &mut Sources,
) -> Result<LoadedBundle, Stop> {
    let bundle = lowered(doc, ir::lower::bundle)?;
    let dir = app_dir(bundle_path);
    let defaults = input.files.beside(&dir, BUNDLE_CONFIG_DEFAULT);
    let (config, configured) = job(
        bundle_path,
        AppKind::Bundle,
        defaults.as_deref(),
        input,
        sources,
    )?;
    Ok(LoadedBundle {
        bundle,
        config: config.vars().clone(),
        job: BundleJob {
            defaults,
            job_properties: input.own_configuration(bundle_path, AppKind::Bundle),
            configured,
        },
    })
}

/// What a coordinator of a bundle is given (BundleStartXCommand.mergeConfig,
/// 287-337: the bundle job's configuration, its -D among it, then the
/// coordinator's own `<configuration>` over it): the bundle's configuration
/// files (its defaults, and the job.properties beside it, else `input`'s),
/// and `defines`, the rest in order
/// (`oozie::bundle::SubmittedBundle::coordinator_defines`); configured as
/// the bundle is.
pub(crate) fn bundle_coordinator_input<'a>(
    input: &'a JobInput,
    bundle: &'a BundleJob,
    defines: &'a [(String, String)],
) -> JobInput<'a> {
    JobInput {
        job: JobSource::Bundle {
            defaults: bundle.defaults.as_deref(),
            job_properties: bundle.job_properties.as_deref(),
            configured: bundle.configured,
        },
        defines,
        ..*input
    }
}

/// Where a bundle coordinator's application is read, or why it cannot be:
/// `app_path` (resolved) through `--map`, or, relative, from the bundle's
/// folder (coordc's convention: Hadoop resolves it against the user's home
/// folder on the file system); a folder stands for its coordinator.xml
/// (CoordSubmitXCommand:1205-1210).
pub(crate) fn coordinator_file(
    app_path: &str,
    bundle_path: &Path,
    input: &JobInput,
    span: crate::span::Span,
) -> Result<PathBuf, Diagnostic> {
    let maps = input.maps;
    use crate::diag::rules::BUNDLE_APP_PATH;
    let (local, mapped_here) = match locate::mapped(maps, app_path) {
        Some(local) => (local, true),
        // A remote path: a scheme, or an absolute path, which Hadoop reads
        // from the default file system.
        None if app_path.contains("://") || app_path.starts_with('/') => {
            return Err(Diagnostic::warning(
                BUNDLE_APP_PATH,
                span,
                format!("{app_path} is not read: no --map covers it, so this coordinator is not checked"),
            )
            .with_help(
                "map its location to a local folder with --map PREFIX=DIR (e.g. --map hdfs://nn:8020/apps=./apps)",
            ));
        }
        None => (app_dir(bundle_path).join(app_path), false),
    };
    let file = if input.files.is_dir(&local) {
        local.join("coordinator.xml")
    } else {
        local
    };
    if input.files.is_file(&file) {
        return Ok(file);
    }
    let missing = format!(
        "no coordinator application at {app_path} (read as {})",
        file.display()
    );
    if mapped_here {
        return Err(Diagnostic::error(BUNDLE_APP_PATH, span, missing).with_help(
            "Oozie fails the bundle's start (E1001); fix the <app-path>, or the --map that locates it",
        ));
    }
    // Hadoop reads a relative path from the user's home folder, which
    // coordc cannot see: not found beside the bundle is no proof.
    Err(Diagnostic::warning(
        BUNDLE_APP_PATH,
        span,
        format!("{missing}, so this coordinator is not checked"),
    )
    .with_help(
        "Oozie reads a relative app-path from the user's home folder on the cluster (/user/NAME/...): write the full path, and map it with --map PREFIX=DIR",
    ))
}

/// The file at a bundle coordinator's `<app-path>` (`doc`) when it is not a
/// coordinator application.
pub(crate) fn not_a_coordinator(
    doc: &xml::Document,
    bundle_path: &Path,
    name: &str,
) -> Option<Located> {
    (doc.root.name != "coordinator-app").then(|| {
        Located::in_app(
            Diagnostic::error(
                crate::diag::rules::BUNDLE_APP_PATH,
                doc.root.name_span,
                format!(
                    "{} submits this file as its coordinator `{name}`, but it is a <{}>",
                    bundle_path.display(),
                    doc.root.name
                ),
            )
            .with_help(
                "a bundle's <app-path> names a coordinator application (its folder, or its coordinator.xml)",
            ),
        )
    })
}

/// What Oozie refuses in the coordinator `doc` because the bundle at
/// `bundle_path` submits it as `name`: schema 0.1 (E1319,
/// CoordSubmitXCommand:539-541).
pub(crate) fn refused_in_bundle(
    doc: &xml::Document,
    bundle_path: &Path,
    name: &str,
) -> Option<Located> {
    (doc.root.namespace == Some("uri:oozie:coordinator:0.1")).then(|| {
        Located::in_app(
            Diagnostic::error(
                crate::diag::rules::BUNDLE_COORDINATOR_VERSION,
                doc.root.name_span,
                format!(
                    "{} submits this coordinator (as `{name}`), but a bundle cannot submit a coordinator of schema 0.1 (E1319)",
                    bundle_path.display(),
                ),
            )
            .with_help("declare xmlns=\"uri:oozie:coordinator:0.2\" or later (0.2 only adds <throttle>)"),
        )
    })
}

/// A coordinator a bundle submits, read and loaded.
pub(crate) struct Member<'b> {
    pub submitted: &'b SubmittedCoordinator<'b>,
    pub sources: Sources,
    pub loaded: LoadedCoordinator,
}

/// The coordinators a bundle submits (the enabled ones), each read and
/// loaded with the configuration the bundle gives it. The bundle's
/// `problems` (in its `sources`) and theirs are told to `sink`; None when
/// any is an error.
pub(crate) fn bundle_members<'b>(
    bundle_path: &Path,
    input: &JobInput,
    loaded: &LoadedBundle,
    submitted: &'b SubmittedBundle<'b>,
    mut problems: Vec<Located>,
    sources: &Sources,
    sink: ProblemSink,
) -> Option<Vec<Member<'b>>> {
    let mut members = Vec::new();
    let mut failed = false;
    for coordinator in &submitted.coordinators {
        // Every coordinator's app-path must exist when the bundle starts,
        // a disabled one's too (BundleStartXCommand:162-164); only the
        // enabled ones are submitted.
        let file = match coordinator_file(
            &coordinator.app_path,
            bundle_path,
            input,
            coordinator.ir.app_path.span,
        ) {
            Ok(file) => file,
            Err(mut d) => {
                // Without the application, its actions cannot be listed.
                if coordinator.enabled {
                    d.severity = crate::diag::Severity::Error;
                }
                problems.push(Located::in_app(d));
                continue;
            }
        };
        if !coordinator.enabled {
            continue;
        }
        let defines = submitted.coordinator_defines(input.defines, coordinator);
        let coordinator_input = bundle_coordinator_input(input, &loaded.job, &defines);
        let mut member_sources = Sources::default();
        match bundle_coordinator(
            &file,
            &coordinator_input,
            &mut member_sources,
            bundle_path,
            coordinator,
        ) {
            Ok(loaded) => members.push(Member {
                submitted: coordinator,
                sources: member_sources,
                loaded,
            }),
            Err(stop) => {
                sink(&member_sources, stop);
                failed = true;
            }
        }
    }
    let stop = failed
        || problems
            .iter()
            .any(|p| p.diagnostic.severity == crate::diag::Severity::Error);
    if !problems.is_empty() {
        sink(sources, Stop::Problems(problems));
    }
    (!stop).then_some(members)
}

/// The coordinator a bundle submits as `member`, from `file`.
fn bundle_coordinator(
    file: &Path,
    input: &JobInput,
    sources: &mut Sources,
    bundle_path: &Path,
    member: &SubmittedCoordinator,
) -> Result<LoadedCoordinator, Stop> {
    with_application(file, input.files, sources, |sources, opened| {
        let (_, doc) = opened?;
        if let Some(problem) = not_a_coordinator(doc, bundle_path, &member.name) {
            return Err(Stop::Problems(vec![problem]));
        }
        if let Some(refused) = refused_in_bundle(doc, bundle_path, &member.name) {
            return Err(Stop::Problems(vec![refused]));
        }
        coordinator(doc, file, input, sources)
    })
}
