//! Small simulations built in code, for the unit tests of the engine's
//! commands: an hourly coordinator over an hourly dataset, with the
//! controls and the scenario each test gives, and what the engine
//! recorded, in order.

use super::{Engine, JobInput, Record, Why};
use crate::interp::clock::{Millis, datetime, millis};
use crate::interp::simulate::scenario::model::Scenario;
use crate::interp::workflow::run::test_apps::{TestApps, workflow};
use crate::interp::workflow::run::{NoSubWorkflows, SubWorkflows};
use crate::oozie::job::with_job;
use crate::time::datetime::{ProcessingZone, format_utc, parse_datetime};

/// The job's id in every scenario.
pub(in crate::interp::simulate) const JOB: &str = "c";

/// An hourly coordinator from 2009-01-01T00:00Z to `end`, with `controls`
/// (the `<controls>` element's content) and one data-in, its dataset's
/// current hour.
pub(in crate::interp::simulate) fn coordinator(end: &str, controls: &str) -> String {
    format!(
        r#"<coordinator-app name="c" frequency="${{coord:hours(1)}}" start="2009-01-01T00:00Z" end="{end}" timezone="UTC" xmlns="uri:oozie:coordinator:0.4">
  <controls>{controls}</controls>
  <datasets>
    <dataset name="logs" frequency="${{coord:hours(1)}}" initial-instance="2008-01-01T00:00Z" timezone="UTC">
      <uri-template>hdfs://nn/logs/${{YEAR}}${{MONTH}}${{DAY}}${{HOUR}}</uri-template>
    </dataset>
  </datasets>
  <input-events>
    <data-in name="input" dataset="logs"><instance>${{coord:current(0)}}</instance></data-in>
  </input-events>
  <action><workflow><app-path>hdfs://nn/app</app-path></workflow></action>
</coordinator-app>"#
    )
}

/// An Oozie datetime as the engine's time.
pub(super) fn at(text: &str) -> Millis {
    millis(parse_datetime(text, ProcessingZone::UTC).unwrap().instant)
}

/// What the engine recorded of action `number` (`None`: of the job), in
/// order: when, the status it took, and why.
pub(super) fn history(engine: &Engine, number: Option<usize>) -> Vec<(String, &'static str, Why)> {
    let job = &engine.jobs[0];
    engine
        .log
        .changes
        .iter()
        .filter(|change| {
            change
                .action
                .map(|a| job.actions.get(a).map_or(0, |x| x.number))
                == number
        })
        .map(|change| {
            (
                format_utc(datetime(change.at)),
                change.to.name(),
                change.why.clone(),
            )
        })
        .collect()
}

/// Local workflow applications: (app-path, body: its nodes, `end` named
/// "end"), the last for any app-path not listed.
pub(super) fn local_apps(apps: &[(&str, &str)]) -> TestApps {
    TestApps::new(apps.iter().map(|&(path, body)| {
        let text = format!(
            r#"<workflow-app name="w" xmlns="uri:oozie:workflow:0.5">{body}<end name="end"/></workflow-app>"#
        );
        (path.to_string(), workflow(&text))
    }))
}

/// The workflow application of `body` at every app-path.
pub(super) fn local_app(body: &str) -> TestApps {
    local_apps(&[("", body)])
}

/// Runs `scenario` (TOML; it calls the job [`JOB`]) over the coordinator
/// `app`, submitted at the scenario's start, its actions' workflow
/// applications read from `workflows`, to `until` (or the scenario's own),
/// and hands the engine to `f`.
fn run(
    app: &str,
    workflows: &dyn SubWorkflows,
    scenario: &str,
    until: Option<&str>,
    f: impl FnOnce(Engine<'_>),
) {
    with_job(app, |job| {
        let scenario = Scenario::read(scenario).unwrap();
        let input = JobInput {
            id: JOB.into(),
            job,
            submit: scenario.start,
            workflows,
        };
        let simulation = scenario.resolve([(JOB, job)]).unwrap();
        let mut engine = Engine::new(simulation, vec![input]);
        engine.run(until.map(at)).unwrap();
        f(engine);
    });
}

/// [`run`] with no local workflow application, the engine handed to `check`.
pub(super) fn simulate(
    app: &str,
    scenario: &str,
    until: Option<&str>,
    check: impl FnOnce(&Engine),
) {
    simulate_with(app, &NoSubWorkflows, scenario, until, check);
}

/// [`run`] with no local workflow application, the engine's record handed
/// to `check`.
pub(super) fn record(app: &str, scenario: &str, until: Option<&str>, check: impl FnOnce(&Record)) {
    record_with(app, &NoSubWorkflows, scenario, until, check);
}

/// [`run`], the engine handed to `check`.
pub(super) fn simulate_with(
    app: &str,
    workflows: &dyn SubWorkflows,
    scenario: &str,
    until: Option<&str>,
    check: impl FnOnce(&Engine),
) {
    run(app, workflows, scenario, until, |engine| check(&engine));
}

/// [`run`], the engine's record handed to `check`.
pub(super) fn record_with(
    app: &str,
    workflows: &dyn SubWorkflows,
    scenario: &str,
    until: Option<&str>,
    check: impl FnOnce(&Record),
) {
    run(app, workflows, scenario, until, |engine| {
        check(&engine.into_record())
    });
}
