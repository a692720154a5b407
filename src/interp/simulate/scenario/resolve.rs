//! A scenario bound to the jobs it submits: each job a `[[workflow]]`,
//! `[[node]]`, `[[op]]` or `[[data]]` entry names found, each data range
//! listed instance by instance, and the window checked against what the
//! simulator holds. What comes out, a [`Simulation`], names jobs by index
//! and points into no file.

use super::model::{Arrival, DataEntry, JobOp, Scenario, Simulation};
use super::read::problem;
use crate::diag::Diagnostic;
use crate::interp::clock::millis;
use crate::interp::simulate::calendar::{MAX_ACTIONS, actions_before, dataset_instances};
use crate::interp::simulate::data::MAX_INSTANCES;
use crate::oozie::job::Job;

impl Scenario {
    /// This scenario run over `jobs` (each its id and its submitted
    /// definition, in the engine's order); or every problem with what it
    /// names.
    pub fn resolve<'j, 'a: 'j>(
        &self,
        jobs: impl IntoIterator<Item = (&'j str, &'j Job<'a>)>,
    ) -> Result<Simulation, Vec<Diagnostic>> {
        let jobs: Vec<(&str, &Job)> = jobs.into_iter().collect();
        // (The first job of that id, as Oozie has one job per id.)
        let find = |id: &str| jobs.iter().position(|(job, _)| *job == id);
        let mut problems = Vec::new();
        let mut action_scripts = vec![Vec::new(); jobs.len()];
        for w in &self.workflow {
            match find(&w.job).and_then(|j| action_scripts.get_mut(j)) {
                Some(scripts) => scripts.push(w.script),
                None => problems.push(problem(
                    w.job_span,
                    format!("no job `{}` in this scenario", w.job),
                )),
            }
        }
        for node in &self.script.nodes {
            if let Some(job) = &node.job
                && find(job).is_none()
            {
                problems.push(problem(
                    node.span,
                    format!("this [[node]] names no job of this scenario: `{job}`"),
                ));
            }
        }
        let mut ops = Vec::new();
        for op in &self.ops {
            match find(&op.job) {
                Some(job) => ops.push(JobOp {
                    at: millis(op.at),
                    job,
                    command: op.command.clone(),
                    text: op.text.clone(),
                }),
                None => problems.push(problem(
                    op.job_span,
                    format!("no job `{}` in this scenario", op.job),
                )),
            }
        }
        // More actions than coordc holds are refused before the simulation
        // starts (for a cron schedule, when the run reaches them).
        let until = millis(self.until);
        let mut total = 0usize;
        for (_, job) in &jobs {
            total = total.saturating_add(actions_before(job, millis(job.end).min(until)));
        }
        if total > MAX_ACTIONS {
            problems.push(problem(
                self.until_span,
                format!(
                    "the jobs would create more than {MAX_ACTIONS} actions before `until`: simulate a shorter window"
                ),
            ));
        }
        // Ranges first: a `uri` entry overrides them.
        let mut arrivals = Vec::new();
        for entry in &self.data {
            if let DataEntry::Range {
                job,
                dataset,
                span,
                from,
                to,
                delay,
                missing,
            } = entry
            {
                let Some((id, definition)) = find(job).and_then(|j| jobs.get(j)) else {
                    problems.push(problem(*span, format!("no job `{job}` in this scenario")));
                    continue;
                };
                match dataset_instances(definition, id, dataset, *from, *to) {
                    Ok(instances) => {
                        if arrivals.len() + instances.len() > MAX_INSTANCES {
                            problems.push(problem(
                                *span,
                                format!("the [[data]] ranges list more than {MAX_INSTANCES} instances: simulate a shorter window"),
                            ));
                            break;
                        }
                        arrivals.extend(instances.into_iter().map(|(t, uri)| Arrival {
                            uri,
                            at: (!missing.contains(&t)).then(|| millis(t) + delay),
                        }));
                    }
                    Err(message) => problems.push(problem(*span, message)),
                }
            }
        }
        for entry in &self.data {
            if let DataEntry::Uri { uri, at } = entry {
                arrivals.push(Arrival {
                    uri: uri.clone(),
                    at: Some(millis(*at)),
                });
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        Ok(Simulation {
            start: millis(self.start),
            until,
            settings: self.settings.clone(),
            workflows: self.workflows,
            outputs: self.outputs,
            action_scripts,
            ops,
            arrivals,
            outages: self
                .outages
                .iter()
                .map(|(from, to)| (millis(*from), millis(*to)))
                .collect(),
            script: self.script.clone(),
        })
    }
}
