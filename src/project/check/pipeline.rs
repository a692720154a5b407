//! The pipeline rules across applications: the data one coordinator
//! produces and another consumes, among the coordinators given on their own
//! and among each bundle's.

use super::filters::apply_settings;
use super::{Report, Target};
use crate::check::pipeline::AppEvents;
use crate::check::suppress::is_suppressed;
use crate::diag::Located;
use crate::project::files::Files;
use rustc_hash::FxHashMap;
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

/// The pipeline checks across every coordinator of `checked` (a file's
/// own, and those a bundle submits as a pipeline of their own), a list of
/// problems for each report, with its folder's settings applied.
pub(crate) fn pipeline_problems(checked: &[(&Target, &Report)]) -> Vec<Vec<Located>> {
    pipeline_problems_counted(checked)
        .into_iter()
        .map(|(problems, _)| problems)
        .collect()
}

/// [`pipeline_problems`], each list with how many problems were left out
/// because their rule is not selected.
fn pipeline_problems_counted(checked: &[(&Target, &Report)]) -> Vec<(Vec<Located>, usize)> {
    let mut found: Vec<Vec<Located>> = (0..checked.len()).map(|_| Vec::new()).collect();
    // One pipeline of the coordinators given on their own, and one of each
    // bundle's coordinators.
    let mut groups: Vec<Option<&Arc<Path>>> = vec![None];
    groups.extend(
        checked
            .iter()
            .filter_map(|(_, r)| r.bundle.as_ref())
            .collect::<BTreeSet<&Arc<Path>>>()
            .into_iter()
            .map(Some),
    );
    for group in groups {
        let apps: Vec<Option<&AppEvents>> = checked
            .iter()
            .map(|(_, r)| r.events.as_ref().filter(|_| r.bundle.as_ref() == group))
            .collect();
        for (i, diagnostic) in crate::check::pipeline::check(&apps) {
            // `i` indexes `apps`, one for each of `checked` and `found`.
            if let (Some((_, report)), Some(list)) = (checked.get(i), found.get_mut(i))
                && !is_suppressed(&report.silenced, &diagnostic)
            {
                list.push(Located::in_app(diagnostic));
            }
        }
    }
    checked
        .iter()
        .zip(found)
        .map(|((target, _), mut problems)| {
            let unselected = apply_settings(target, &mut problems);
            (problems, unselected)
        })
        .collect()
}

/// [`pipeline_problems`] across every report, added to it, with the texts
/// of the other applications they point to.
pub(super) fn add_pipeline_problems(targets: &[Target], files: &Files, reports: &mut [Report]) {
    let checked: Vec<(&Target, &Report)> = targets.iter().zip(reports.iter()).collect();
    let found = pipeline_problems_counted(&checked);
    // Each application's text, by the name its problems' related places
    // give it: kept by its report, else read again (a clean file's was
    // dropped).
    let mut texts: FxHashMap<Arc<str>, Option<Arc<str>>> = FxHashMap::default();
    for related in found
        .iter()
        .flat_map(|(problems, _)| problems)
        .flat_map(|p| &p.diagnostic.related)
    {
        texts.entry(Arc::clone(&related.file)).or_insert_with(|| {
            let kept = reports.iter().find_map(|r| {
                r.sources
                    .files
                    .first()
                    .filter(|(name, _)| **name == *related.file)
                    .map(|(_, text)| Arc::clone(text))
            });
            kept.or_else(|| files.read(Path::new(&*related.file)).ok())
        });
    }
    for ((target, report), (problems, unselected)) in
        targets.iter().zip(reports.iter_mut()).zip(found)
    {
        report.unselected += unselected;
        if problems.is_empty() || !keep_text(target, files, report) {
            continue;
        }
        for related in problems.iter().flat_map(|p| &p.diagnostic.related) {
            if report.sources.index_of(&related.file).is_none()
                && let Some(Some(text)) = texts.get(&related.file)
            {
                report
                    .sources
                    .add(related.file.to_string(), Arc::clone(text));
            }
        }
        report.problems.extend(problems);
    }
}

/// Whether `report` has its file's text to render problems with: the text
/// of a clean file was dropped, and is read again.
pub(super) fn keep_text(target: &Target, files: &Files, report: &mut Report) -> bool {
    if report.sources.files.is_empty() {
        match files.read(&target.path) {
            Ok(text) => report.sources.add(target.path.display().to_string(), text),
            Err(_) => return false,
        };
    }
    true
}
