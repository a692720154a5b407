//! One file checked: read, parsed, and checked as its root element's kind
//! of document, with its suppressions applied and its folder's settings.

use super::bundle::{Member, bundle};
use super::coordinator::coordinator;
use super::datasets::datasets;
use super::filters::{apply_settings, dedup};
use super::workflow::workflow;
use super::{Plan, Report, Target};
use crate::check;
use crate::check::suppress::{self, is_suppressed, suppressions};
use crate::diag::FileRef;
use crate::diag::rules::{WF_ACTION_TYPE, XML_UNKNOWN_DOCUMENT};
use crate::diag::{Diagnostic, Located, Severity, closest};
use crate::oozie::servers::Server;
use crate::project::load::{self, JobInput, JobSource, Sources, Stop};
use crate::project::locate::AppKind;
use crate::xml;
use std::path::Path;

/// Checks one file with its folder's settings: the processing zone and the
/// frequency check for the checks, the levels and ignores for the report.
pub(super) fn check_target(target: &Target, plan: &Plan) -> Report {
    let folder = &target.folder;
    let input = JobInput {
        configs: plan.configs,
        files: plan.files,
        job: JobSource::Own,
        defines: &plan.options.defines,
        maps: &folder.maps,
        processing_zone: folder.processing_zone,
        check_maximum_frequency: folder.settings.check_maximum_frequency,
        cron_max_year: plan.options.cron_max_year,
    };
    let server = plan.options.server.or(folder.settings.server);
    let mut report = match (&target.member, &target.run) {
        (Some(member), _) => {
            let input = load::bundle_coordinator_input(&input, &member.job, &member.defines);
            check_file(&target.path, &input, Some(member), server)
        }
        (None, Some(run)) => {
            let defines = run.defines();
            let input = JobInput {
                configs: &[],
                job: JobSource::Run,
                defines: &defines,
                ..input
            };
            check_file(&target.path, &input, None, server)
        }
        (None, None) => check_file(&target.path, &input, None, server),
    };
    if report.problems.is_empty() && !plan.options.keep_sources {
        // Nothing to render from a clean file: its text need not be kept
        // (it is read again if the pipeline checks find something), nor the
        // room its problems had before they were filtered. Every page a run
        // keeps is a page the kernel must clear.
        report.sources = Sources::default();
        report.problems = Vec::new();
    }
    report.unselected = apply_settings(target, &mut report.problems);
    report
}

/// An application loaded, or, when it could not be, what checking it
/// returns: its problems (and nothing else found), or the usage error that
/// stops the check.
pub(super) fn unloaded_as_checked<T, Found: Default>(
    loaded: Result<T, Stop>,
) -> Result<T, Result<(Vec<Located>, Found), String>> {
    loaded.map_err(|stop| match stop {
        Stop::Usage(message) => Err(message),
        Stop::Problems(problems) => Ok((problems, Found::default())),
    })
}

/// Checks the file at `path`; `member` when a bundle submits it; against
/// `server`'s profile when there is one.
fn check_file(
    path: &Path,
    input: &JobInput,
    member: Option<&Member>,
    server: Option<Server>,
) -> Report {
    let mut sources = Sources::default();
    let mut events = None;
    let mut silenced = Vec::new();
    let mut members = Vec::new();
    let mut runs = Vec::new();
    let mut unconfigured_workflow = false;
    let mut skipped = false;
    let checked = load::with_application(path, input.files, &mut sources, |sources, opened| {
        let (kind, doc) = match opened {
            Err(Stop::Usage(message)) => return Err(message),
            Err(Stop::Problems(problems)) => return Ok(problems),
            Ok(opened) => opened,
        };
        // Whether the server check reads the document: not a skipped one,
        // nor a bundle's member that is no coordinator.
        let mut application = true;
        // (`Err`: a configuration that cannot be read, an I/O error.)
        let problems = match (kind, member) {
            (Some(AppKind::Coordinator), _) => {
                let (mut problems, found, found_runs) = coordinator(doc, path, input, sources)?;
                events = found;
                runs = found_runs;
                if let Some(member) = member {
                    problems.extend(load::refused_in_bundle(
                        doc,
                        &member.bundle_path,
                        &member.name,
                    ));
                }
                problems
            }
            (_, Some(member)) => {
                application = false;
                load::not_a_coordinator(doc, &member.bundle_path, &member.name)
                    .into_iter()
                    .collect()
            }
            (Some(AppKind::Bundle), None) => {
                let (problems, found) = bundle(doc, path, input, sources)?;
                members = found;
                problems
            }
            (Some(AppKind::Workflow), None) => {
                let (problems, configured, found_runs) = workflow(doc, path, input, sources)?;
                unconfigured_workflow = !configured;
                runs = found_runs;
                problems
            }
            (None, None) if doc.root.name == "datasets" => datasets(doc, path, input, sources)?,
            (None, None) => {
                application = false;
                let said = unknown_document(&doc.root, doc.root.name);
                skipped = said.severity == Severity::Note;
                vec![Located::in_app(said)]
            }
        };
        let problems = match server {
            Some(server) if application => {
                against_server(problems, doc, sources.application(), server)
            }
            _ => problems,
        };
        // `<!-- coordc: ignore CODE -->` in the application file.
        silenced = suppressions(doc, sources.application());
        Ok(problems
            .into_iter()
            .chain(
                suppress::unknown_codes(&silenced)
                    .into_iter()
                    .map(Located::in_app),
            )
            .filter(|p| p.file != FileRef::App || !is_suppressed(&silenced, &p.diagnostic))
            .collect())
    });
    let problems = match checked {
        Ok(problems) => problems,
        Err(message) => return Report::failed(message),
    };
    let mut problems = dedup(problems);
    // In the order of the text, file by file (the application first), as an
    // editor lists them.
    problems.sort_by_key(|p| (p.file.order(), p.diagnostic.span.start));
    Report {
        sources,
        problems,
        io_error: None,
        unselected: 0,
        skipped,
        events,
        silenced,
        members,
        bundle: None,
        runs,
        unconfigured_workflow,
    }
}

/// `problems` with what `server`'s profile adds: its own (SV001-SV003), and
/// none that an element is of an unknown action type (WF008) where the
/// server accepts that action. (The WF008 span is the action element's
/// name, as the server check's is: tests/check/servers.rs checks that none
/// is left on cdp-7.3.)
fn against_server(
    mut problems: Vec<Located>,
    doc: &xml::Document,
    source: &str,
    server: Server,
) -> Vec<Located> {
    let found = check::server::check(doc, source, server);
    problems.retain(|p| {
        !(p.file == FileRef::App
            && p.diagnostic.code == WF_ACTION_TYPE
            && found.unchecked.contains(&p.diagnostic.span))
    });
    problems.extend(found.problems.into_iter().map(Located::in_app));
    problems
}

/// The roots of the documents coordc checks.
const DOCUMENT_ROOTS: &[&str] = &["coordinator-app", "bundle-app", "workflow-app", "datasets"];

/// A document whose root is none of [`DOCUMENT_ROOTS`]: skipped (a note),
/// unless it is in an Oozie namespace, where the name is a mistake Oozie
/// refuses (an error, with the name meant).
fn unknown_document(root: &xml::Element, name: &str) -> Diagnostic {
    let in_oozie = root
        .namespace
        .is_some_and(|ns| ns.starts_with("uri:oozie:"));
    if !in_oozie {
        return Diagnostic::note(
            XML_UNKNOWN_DOCUMENT,
            root.name_span,
            format!(
                "skipped: <{name}> is not a coordinator, bundle, datasets or workflow document"
            ),
        );
    }
    let namespace = root.namespace.unwrap_or_default();
    let d = Diagnostic::error(
        XML_UNKNOWN_DOCUMENT,
        root.name_span,
        format!(
            "<{name}> is not a document of {namespace}: Oozie refuses it when it validates the application"
        ),
    );
    match closest(name, DOCUMENT_ROOTS.iter().map(|r| r.to_string())) {
        // (No machine fix: the end tag holds the name too.)
        Some(best) => d.with_help(format!("did you mean <{best}>? (rename the end tag too)")),
        None => d.with_help(format!(
            "an Oozie application's root is one of {}",
            DOCUMENT_ROOTS
                .iter()
                .map(|r| format!("<{r}>"))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}
