//! Bundles: a bundle's own problems, and the coordinators it submits,
//! checked next with the configuration it gives them.

use super::document::unloaded_as_checked;
use super::el::{check_el, free_variables, needed_note};
use super::parallel::check_all;
use super::{Plan, Report, Target, real};
use crate::diag::FileRef;
use crate::diag::rules::{EL_UNKNOWN_VARIABLE, MISSING_PARAMETER};
use crate::diag::{Located, Severity};
use crate::el::library::Library;
use crate::project::load::{self, BundleJob, JobInput, Sources};
use crate::xml;
use rustc_hash::FxHashSet;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A coordinator a bundle submits, checked with the configuration the bundle
/// gives it.
pub(super) struct Member {
    /// The coordinator application's file.
    pub(super) file: PathBuf,
    /// Its name in the bundle (the coordinator job's name).
    pub(super) name: String,
    /// The bundle file.
    pub(super) bundle_path: PathBuf,
    /// What it is given besides the bundle's configuration files
    /// (`SubmittedBundle::coordinator_defines`).
    pub(super) defines: Vec<(String, String)>,
    /// The bundle job's configuration files.
    pub(super) job: BundleJob,
}

/// The coordinators the bundles among `reports` submit, checked as their
/// bundle configures them, each report placed after its bundle's.
pub(super) fn check_members(
    targets: Vec<Target>,
    mut reports: Vec<Report>,
    plan: &Plan,
) -> (Vec<Target>, Vec<Report>) {
    let mut owners = Vec::new();
    let mut member_targets = Vec::new();
    for (i, (target, report)) in targets.iter().zip(reports.iter_mut()).enumerate() {
        for member in std::mem::take(&mut report.members) {
            owners.push(i);
            member_targets.push(Target {
                path: member.file.clone(),
                folder: Arc::clone(&target.folder),
                member: Some(member),
                run: None,
            });
        }
    }
    if member_targets.is_empty() {
        return (targets, reports);
    }
    let member_reports = check_all(&member_targets, plan);
    let member_paths: HashSet<PathBuf> = member_targets.iter().map(|t| real(&t.path)).collect();
    for (target, report) in targets.iter().zip(reports.iter_mut()) {
        if member_paths.contains(&real(&target.path)) {
            // Checked alone it had no configuration; its bundle gave it one,
            // so the note listing the names the job must define is moot.
            report.problems.retain(|p| {
                !(p.diagnostic.code == EL_UNKNOWN_VARIABLE
                    && p.diagnostic.severity == Severity::Note)
            });
        }
    }
    let mut all_targets = Vec::with_capacity(targets.len() + member_targets.len());
    let mut all_reports = Vec::with_capacity(all_targets.capacity());
    let mut members = member_targets
        .into_iter()
        .zip(member_reports)
        .zip(owners)
        .peekable();
    for (i, (target, report)) in targets.into_iter().zip(reports).enumerate() {
        let bundle: Arc<Path> = Arc::from(target.path.as_path());
        all_targets.push(target);
        all_reports.push(report);
        while let Some(((target, mut report), _)) = members.next_if(|(_, owner)| *owner == i) {
            report.bundle = Some(Arc::clone(&bundle));
            all_targets.push(target);
            all_reports.push(report);
        }
    }
    (all_targets, all_reports)
}

/// A bundle's problems, and the coordinators it submits (each with the file
/// to check); or why its configuration could not be read.
pub(super) fn bundle(
    doc: &xml::Document,
    path: &Path,
    input: &JobInput,
    sources: &mut Sources,
) -> Result<(Vec<Located>, Vec<Member>), String> {
    let loaded = match unloaded_as_checked(load::bundle(doc, path, input, sources)) {
        Ok(loaded) => loaded,
        Err(checked) => return checked,
    };
    let bundle = &loaded.bundle;
    let texts = bundle.texts();
    let (submitted, submission) =
        crate::oozie::bundle::submit(bundle, &loaded.config, input.processing_zone);
    // Whether the coordinators are checked: the bundle gives them its
    // configuration, so one it was not given must need none.
    let mut reach_coordinators = true;
    // (The static checks first: where evaluation fails on the same call,
    // their diagnostic, with its help, is the one kept.)
    let mut problems;
    if loaded.job.configured {
        let known: FxHashSet<&str> = submitted
            .vars
            .keys()
            .map(String::as_str)
            .chain(bundle.parameters.iter().map(|p| p.name.name.as_str()))
            .collect();
        problems = check_el(
            texts.iter().map(|t| (FileRef::App, *t)),
            Library::Bundle,
            Some(&known),
        );
        problems.extend(submission);
    } else {
        // Without a configuration, the names the job must define (parameters
        // without a default among them) are a note, and if there are any, its
        // coordinators, which would be given that configuration, are not
        // checked.
        let mut needed = free_variables(texts.iter().copied(), Library::Bundle, &submitted.vars);
        needed.extend(
            bundle
                .parameters
                .iter()
                .filter(|p| !submitted.vars.contains_key(&p.name.name))
                .map(|p| p.name.name.clone()),
        );
        problems = check_el(
            texts.iter().map(|t| (FileRef::App, *t)),
            Library::Bundle,
            None,
        );
        problems.extend(submission.into_iter().filter(|p| {
            p.diagnostic.code != EL_UNKNOWN_VARIABLE && p.diagnostic.code != MISSING_PARAMETER
        }));
        if !needed.is_empty() {
            reach_coordinators = false;
            problems.push(needed_note(
                bundle.name_span,
                "the job",
                needed.iter().map(String::as_str),
                "give its configuration (--config FILE, -D NAME=VALUE, or a job.properties beside the bundle) to check the values and the coordinators",
            ));
        }
    }
    let mut members = Vec::new();
    for coordinator in &submitted.coordinators {
        // Every coordinator's app-path must exist when the bundle starts,
        // a disabled one's too (BundleStartXCommand:162-164, mergeConfig
        // before isEnabled); only the enabled ones are submitted.
        match load::coordinator_file(
            &coordinator.app_path,
            path,
            input,
            coordinator.ir.app_path.span,
        ) {
            Ok(file) if reach_coordinators && coordinator.enabled => members.push(Member {
                file,
                name: coordinator.name.clone(),
                bundle_path: path.to_path_buf(),
                defines: submitted.coordinator_defines(input.defines, coordinator),
                job: loaded.job.clone(),
            }),
            Ok(_) => {}
            Err(d) => problems.push(Located::in_app(d)),
        }
    }
    Ok((problems, members))
}
