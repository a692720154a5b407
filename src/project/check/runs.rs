//! The workflows a coordinator's actions or a parent workflow's
//! sub-workflow actions run, checked again with the configuration they are
//! given, as deep as sub-workflows go.

use super::parallel::check_all;
use super::suppressions::mark_used_as;
use super::{Plan, Report, Target, real};
use crate::diag::FileRef;
use crate::diag::rules::EL_UNKNOWN_VARIABLE;
use crate::el::VarMap;
use crate::project::files::Files;
use crate::project::locate::{self, AppKind};
use rustc_hash::FxHashMap;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A workflow application a coordinator's actions (or a parent workflow's
/// sub-workflow action) run, and the configuration they give it: for a
/// coordinator, its job's configuration with the action's `<configuration>`
/// over it and its app-path as `oozie.wf.application.path`
/// (CoordActionStartXCommand.java:109-161 at release-5.2.1), as of its
/// first action.
#[derive(Clone)]
pub(super) struct WorkflowRun {
    /// The application path, resolved.
    pub(super) app_path: String,
    /// The `--map`s of the submitter's folder.
    pub(super) maps: Vec<(String, String)>,
    /// The application whose actions run it.
    pub(super) submitter: PathBuf,
    /// The submitter job's variables it passes on (shared, not copied: a
    /// job may have a million), empty when it passes none.
    pub(super) job: Arc<VarMap>,
    /// What the action gives over them.
    pub(super) given: Vec<(String, String)>,
}

impl WorkflowRun {
    /// The workflow file it runs, when it is local
    /// (`locate::local_application`). (Found only when a workflow of the
    /// check waits for a submitter: finding costs file-system calls.)
    fn workflow(&self, files: &Files) -> Option<PathBuf> {
        let from = self.submitter.parent().unwrap_or(Path::new("."));
        locate::local_application(&self.app_path, from, AppKind::Workflow, &self.maps, files)
    }

    /// The workflow job's configuration, as definitions in order.
    pub(super) fn defines(&self) -> Vec<(String, String)> {
        self.job
            .iter()
            .filter_map(|(k, v)| Some((k.clone(), v.clone()?)))
            .chain(self.given.iter().cloned())
            .collect()
    }
}

/// The workflows among `reports` checked without a configuration, checked
/// again as the coordinators of the check run them (a coordinator beside
/// one, not given, is read for that too): their variables are then the
/// coordinator's job and action configuration. Each workflow keeps its
/// place; the problems of several coordinators' runs are merged.
pub(super) fn check_runs(targets: &[Target], mut reports: Vec<Report>, plan: &Plan) -> Vec<Report> {
    // A workflow checked with its submitter's configuration finds the
    // sub-workflows it runs, checked next: a chain as deep as Oozie allows
    // (`oozie.action.subworkflow.max.depth`, 50 by default:
    // oozie-default.xml:2121 at release-5.2.1) is followed.
    for round in 0..MAX_SUB_WORKFLOW_DEPTH {
        let progressed;
        (reports, progressed) = check_runs_round(targets, reports, plan, round == 0);
        if !progressed {
            break;
        }
    }
    reports
}

/// How deep a chain of workflows running workflows is followed.
const MAX_SUB_WORKFLOW_DEPTH: usize = 50;

/// One round of [`check_runs`]: the waiting workflows that reports run,
/// checked again (and, in the first round, the coordinators beside the
/// others read); whether any was.
fn check_runs_round(
    targets: &[Target],
    mut reports: Vec<Report>,
    plan: &Plan,
    read_beside: bool,
) -> (Vec<Report>, bool) {
    let waiting: FxHashMap<PathBuf, usize> = targets
        .iter()
        .zip(&reports)
        .enumerate()
        .filter(|(_, (_, r))| r.unconfigured_workflow)
        .map(|(i, (t, _))| (real(&t.path), i))
        .collect();
    if waiting.is_empty() {
        return (reports, false);
    }
    let mut runs: Vec<(usize, WorkflowRun)> = reports
        .iter()
        .flat_map(|r| &r.runs)
        .filter_map(|run| {
            Some((
                *waiting.get(&real(&run.workflow(plan.files)?))?,
                run.clone(),
            ))
        })
        .collect();
    // The coordinators beside a workflow no coordinator of the check runs
    // (a commit that changes the workflow alone, an editor's one file).
    // (Each folder is listed once.)
    let checked: HashSet<PathBuf> = targets.iter().map(|t| real(&t.path)).collect();
    let mut folders: BTreeMap<&Path, usize> = BTreeMap::new();
    for (path, &i) in waiting.iter().filter(|_| read_beside) {
        if !runs.iter().any(|(j, _)| *j == i) {
            folders.insert(path.parent().unwrap_or(Path::new(".")), i);
        }
    }
    let mut beside = Vec::new();
    for (dir, i) in folders {
        let Some(target) = targets.get(i) else {
            continue;
        };
        let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "xml") && !checked.contains(p))
            .collect();
        found.sort();
        beside.extend(found.into_iter().map(|p| Target {
            path: p,
            folder: Arc::clone(&target.folder),
            member: None,
            run: None,
        }));
    }
    if !beside.is_empty() {
        for report in check_all(&beside, plan) {
            runs.extend(
                report.runs.into_iter().filter_map(|run| {
                    Some((*waiting.get(&real(&run.workflow(plan.files)?))?, run))
                }),
            );
        }
    }
    if runs.is_empty() {
        return (reports, false);
    }
    let run_targets: Vec<Target> = runs
        .iter()
        .filter_map(|(i, run)| {
            let target = targets.get(*i)?;
            Some(Target {
                path: target.path.clone(),
                folder: Arc::clone(&target.folder),
                member: None,
                run: Some(run.clone()),
            })
        })
        .collect();
    let mut rechecked: FxHashMap<usize, Report> = FxHashMap::default();
    for ((i, run), mut report) in runs.iter().zip(check_all(&run_targets, plan)) {
        for p in &mut report.problems {
            if p.diagnostic.code == EL_UNKNOWN_VARIABLE {
                let help = p.diagnostic.help.take().unwrap_or_default();
                p.diagnostic.help = Some(format!(
                    "{help} (this workflow runs with the configuration {} gives it: its job's properties and its action's <configuration>)",
                    run.submitter.display()
                ));
            }
        }
        match rechecked.get_mut(i) {
            // (The workflow's own problems are the same in every run; what
            // differs is in the workflow's text.)
            Some(first) => {
                mark_used_as(&first.silenced, &report.silenced);
                for p in report.problems {
                    let seen = first.problems.iter().any(|q| {
                        q.file == p.file
                            && q.diagnostic.code == p.diagnostic.code
                            && q.diagnostic.span == p.diagnostic.span
                    });
                    if !seen && p.file == FileRef::App {
                        first.problems.push(p);
                    }
                }
            }
            None => {
                rechecked.insert(*i, report);
            }
        }
    }
    for (i, report) in rechecked {
        if let Some(slot) = reports.get_mut(i) {
            *slot = report;
        }
    }
    (reports, true)
}
