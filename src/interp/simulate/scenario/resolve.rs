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

#[cfg(test)]
mod tests {
    use crate::interp::simulate::engine::fixture::{JOB, coordinator};
    use crate::interp::simulate::scenario::model::{Arrival, Scenario};
    use crate::oozie::job::with_job;

    const TIMES: &str = "start = \"2009-01-01T00:00Z\"\nuntil = \"2009-01-02T00:00Z\"\n";

    /// Each problem with what the scenario names, at the place it names it.
    fn problems(scenario: &str, end: &str) -> Vec<(String, String)> {
        let mut found = Vec::new();
        with_job(&coordinator(end, ""), |job| {
            let read = Scenario::read(scenario).unwrap();
            if let Err(problems) = read.resolve([(JOB, job)]) {
                found = problems
                    .into_iter()
                    .map(|p| (scenario[p.span.range()].to_string(), p.message.to_string()))
                    .collect();
            }
        });
        found
    }

    #[test]
    fn every_unknown_job_is_reported_at_its_name() {
        let scenario = format!(
            "{TIMES}[[workflow]]\njob = \"w\"\naction = 1\n[[op]]\nat = \"2009-01-01T01:00Z\"\njob = \"o\"\ndo = \"suspend\"\n[[data]]\njob = \"d\"\ndataset = \"logs\"\nfrom = \"2009-01-01T00:00Z\"\nto = \"2009-01-01T02:00Z\"\n"
        );
        assert_eq!(
            problems(&scenario, "2009-01-02T00:00Z"),
            [
                ("\"w\"".into(), "no job `w` in this scenario".into()),
                ("\"o\"".into(), "no job `o` in this scenario".into()),
                (
                    "\"2009-01-01T00:00Z\"".into(),
                    "no job `d` in this scenario".into()
                ),
            ]
        );
    }

    #[test]
    fn a_window_with_too_many_actions_is_refused_at_until() {
        let scenario = "start = \"2009-01-01T00:00Z\"\nuntil = \"2999-01-01T00:00Z\"\n";
        assert_eq!(
            problems(scenario, "2999-01-01T00:00Z"),
            [(
                "\"2999-01-01T00:00Z\"".into(),
                "the jobs would create more than 500000 actions before `until`: simulate a shorter window".into()
            )]
        );
    }

    /// A range lists its instances, a `missing` one never arriving; a `uri`
    /// entry comes after the ranges, so it overrides them.
    #[test]
    fn data_ranges_become_arrivals_in_order() {
        let scenario = format!(
            "{TIMES}[[data]]\nuri = \"hdfs://nn/logs/2009010100\"\nat = \"2009-01-01T05:00Z\"\n[[data]]\njob = \"c\"\ndataset = \"logs\"\nfrom = \"2009-01-01T00:00Z\"\nto = \"2009-01-01T02:00Z\"\ndelay = \"1m\"\nmissing = [\"2009-01-01T01:00Z\"]\n"
        );
        with_job(&coordinator("2009-01-02T00:00Z", ""), |job| {
            let simulation = Scenario::read(&scenario)
                .unwrap()
                .resolve([(JOB, job)])
                .unwrap();
            let hour = 3_600_000;
            let start = simulation.start;
            assert_eq!(
                simulation.arrivals,
                [
                    Arrival {
                        uri: "hdfs://nn/logs/2009010100".into(),
                        at: Some(start + 60_000)
                    },
                    Arrival {
                        uri: "hdfs://nn/logs/2009010101".into(),
                        at: None
                    },
                    Arrival {
                        uri: "hdfs://nn/logs/2009010100".into(),
                        at: Some(start + 5 * hour)
                    },
                ]
            );
        });
    }
}
