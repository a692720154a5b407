//! Fidelity of `coordc dryrun` to Apache Oozie, case by case: each case is a
//! small coordinator built from what Oozie's code does, and cites the Oozie
//! source (`file:line`, with the abbreviations docs/oozie-sources.md defines:
//! CMT CoordMaterializeTransitionXCommand, CEF CoordELFunctions, CCU
//! CoordCommandUtils, CSX CoordSubmitXCommand, DU DateUtils, CEE
//! CoordELEvaluator) or the Oozie test it checks. Calendar results across DST
//! were computed by the JDK itself (the calendar oracle of the development
//! corpus, kept outside this repository; tests/oracles/calendar.rs).

use crate::common;

use common::coordinator::{instance, range};
use common::{coordc, stderr, stdout};
use serde_json::Value;

/// A coordinator: job attributes, `<datasets>` content, `<input-events>`
/// content, `<output-events>` content and the workflow configuration properties.
struct App<'a> {
    frequency: &'a str,
    start: &'a str,
    end: &'a str,
    timezone: &'a str,
    datasets: &'a str,
    inputs: String,
    outputs: String,
    config: &'a [(&'a str, &'a str)],
}

const BASE: App = App {
    frequency: "60",
    start: "2009-01-01T00:00Z",
    end: "2009-01-02T00:00Z",
    timezone: "UTC",
    datasets: "",
    inputs: String::new(),
    outputs: String::new(),
    config: &[],
};

/// An hourly UTC dataset named `hourly`, initial instance 2009-01-01T00:00Z.
const HOURLY: &str = r#"<dataset name="hourly" frequency="${coord:hours(1)}" initial-instance="2009-01-01T00:00Z" timezone="UTC"><uri-template>h/${YEAR}/${MONTH}/${DAY}/${HOUR}/${MINUTE}</uri-template></dataset>"#;

impl App<'_> {
    fn xml(&self) -> String {
        let section = |tag: &str, content: &str| {
            if content.is_empty() {
                String::new()
            } else {
                format!("<{tag}>{content}</{tag}>")
            }
        };
        let config: String = self
            .config
            .iter()
            .map(|(n, v)| format!("<property><name>{n}</name><value>{v}</value></property>"))
            .collect();
        format!(
            r#"<coordinator-app name="fidelity" frequency="{}" start="{}" end="{}" timezone="{}" xmlns="uri:oozie:coordinator:0.4">{}{}{}<action><workflow><app-path>hdfs://nn/wf</app-path>{}</workflow></action></coordinator-app>"#,
            self.frequency,
            self.start,
            self.end,
            self.timezone,
            section("datasets", self.datasets),
            section("input-events", &self.inputs),
            section("output-events", &self.outputs),
            section("configuration", &config),
        )
    }

    /// The dry run's JSON, or the diagnostics when it fails.
    fn run(&self, args: &[&str]) -> Result<Value, String> {
        let dir = std::env::temp_dir().join(format!("coordc-fidelity-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join(format!("app-{}.xml", unique()));
        std::fs::write(&file, self.xml()).unwrap();
        let mut all = vec!["dryrun", file.to_str().unwrap(), "--format", "json"];
        all.extend_from_slice(args);
        let out = coordc(&all);
        let _ = std::fs::remove_file(&file);
        match out.status.code() {
            Some(0) => Ok(serde_json::from_str(&stdout(&out)).expect("JSON")),
            _ => Err(stderr(&out)),
        }
    }

    fn ok(&self, args: &[&str]) -> Vec<Value> {
        match self.run(args) {
            Ok(v) => v["actions"].as_array().unwrap().clone(),
            Err(e) => panic!("{}\n{e}", self.xml()),
        }
    }

    fn fails(&self, args: &[&str], expected: &str) {
        match self.run(args) {
            Ok(v) => panic!("expected an error ({expected}), got {v}"),
            Err(e) => assert!(e.contains(expected), "expected {expected:?} in\n{e}"),
        }
    }
}

fn unique() -> usize {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

fn times(actions: &[Value]) -> Vec<String> {
    actions
        .iter()
        .map(|a| a["nominal_time"].as_str().unwrap().to_string())
        .collect()
}

fn inputs(action: &Value, name: &str) -> Vec<String> {
    action["inputs"][name]
        .as_array()
        .unwrap_or_else(|| panic!("{name} in {action}"))
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

fn config(action: &Value, name: &str) -> String {
    action["workflow"]["configuration"][name]
        .as_str()
        .unwrap()
        .to_string()
}

fn data_in(name: &str, dataset: &str, instances: &str) -> String {
    format!(r#"<data-in name="{name}" dataset="{dataset}">{instances}</data-in>"#)
}

/// A coordinator with one data-in `in` of dataset `d` whose range is
/// `start`..`current(0)`, and one action, at `nominal`.
fn one_range(dataset: &str, start: &str, nominal: &str) -> Result<Vec<String>, String> {
    let end = nominal.replace(":00Z", ":01Z");
    let app = App {
        start: nominal,
        end: &end,
        datasets: dataset,
        inputs: data_in("in", "d", &range(start, "${coord:current(0)}")),
        ..BASE
    };
    app.run(&[]).map(|v| inputs(&v["actions"][0], "in"))
}

#[test]
fn end_of_range_starts() {
    // CCU resolveInstanceRangeEndOfDuration + StartInstanceFinder: the nominal
    // day in the dataset zone at 00:00 (week: its Sunday; month: the 1st), then
    // n+1 units on, expanded as absoluteRange. The cases of Oozie's
    // TestCoordCommandUtils (testCoordEndOf*), with their datasets.
    let daily = r#"<dataset name="d" frequency="${coord:days(1)}" initial-instance="2009-06-06T00:00Z" timezone="UTC"><uri-template>t/${YEAR}/${MONTH}/${DAY}</uri-template></dataset>"#;
    let half_hourly = r#"<dataset name="d" frequency="${coord:minutes(30)}" initial-instance="2009-06-06T01:00Z" timezone="UTC"><uri-template>t/${YEAR}/${MONTH}/${DAY}/${HOUR}/${MINUTE}</uri-template></dataset>"#;
    // endOfMonths(-1) at 2009-08-20T01:00Z: 2009-08-01 .. 2009-08-20, newest first.
    let uris = one_range(daily, "${coord:endOfMonths(-1)}", "2009-08-20T01:00Z").unwrap();
    assert_eq!(uris.len(), 20);
    assert_eq!(
        (uris[0].as_str(), uris[19].as_str()),
        ("t/2009/08/20", "t/2009/08/01")
    );
    // endOfMonths(-2): from 2009-07-01 (testCoordEndOfMonthsStartingFromPrevMonth).
    let uris = one_range(daily, "${coord:endOfMonths(-2)}", "2009-08-20T01:00Z").unwrap();
    assert_eq!(uris.last().unwrap(), "t/2009/07/01");
    // endOfWeeks(-1): from Sunday 2009-08-16 (en_US weeks); (-2): from 2009-08-09.
    let uris = one_range(daily, "${coord:endOfWeeks(-1)}", "2009-08-20T01:00Z").unwrap();
    assert_eq!(uris.last().unwrap(), "t/2009/08/16");
    assert_eq!(uris.len(), 5);
    let uris = one_range(daily, "${coord:endOfWeeks(-2)}", "2009-08-20T01:00Z").unwrap();
    assert_eq!(uris.last().unwrap(), "t/2009/08/09");
    // endOfDays(-1) at 18:00: every half hour from 00:00 of the day, 37 instances.
    let uris = one_range(half_hourly, "${coord:endOfDays(-1)}", "2009-08-20T18:00Z").unwrap();
    assert_eq!(uris.len(), 37);
    assert_eq!(uris.last().unwrap(), "t/2009/08/20/00/00");
    let uris = one_range(half_hourly, "${coord:endOfDays(-2)}", "2009-08-20T18:00Z").unwrap();
    assert_eq!(uris.last().unwrap(), "t/2009/08/19/00/00");
    // The failures: a start after current(0), a start before the initial
    // instance, a start out of phase with the dataset, an end other than current.
    let fails = |dataset, start, nominal, expected: &str| {
        let e = one_range(dataset, start, nominal).unwrap_err();
        assert!(e.contains(expected), "{start}: {e}");
    };
    let later = "should be equal or earlier than the end-instance";
    fails(daily, "${coord:endOfMonths(1)}", "2009-08-06T01:00Z", later);
    fails(daily, "${coord:endOfWeeks(1)}", "2009-08-20T01:00Z", later);
    fails(
        half_hourly,
        "${coord:endOfDays(1)}",
        "2009-08-06T18:00Z",
        later,
    );
    let before = "initial-instance should be equal or earlier than the start-instance";
    fails(
        daily,
        "${coord:endOfMonths(-3)}",
        "2009-08-06T01:00Z",
        before,
    );
    fails(
        daily,
        "${coord:endOfWeeks(-11)}",
        "2009-08-06T01:00Z",
        before,
    );
    // (Oozie's endOfDays file: its second dataset, initial instance 2009-08-01T01:00Z.)
    let half_hourly_from_august = half_hourly.replace("2009-06-06", "2009-08-01");
    fails(
        &half_hourly_from_august,
        "${coord:endOfDays(-11)}",
        "2009-08-06T18:00Z",
        before,
    );
    let out_of_phase = r#"<dataset name="d" frequency="${coord:days(1)}" initial-instance="2009-06-06T01:00Z" timezone="UTC"><uri-template>t/${YEAR}/${MONTH}/${DAY}</uri-template></dataset>"#;
    fails(
        out_of_phase,
        "${coord:endOfMonths(-1)}",
        "2009-08-20T18:00Z",
        "not in phase",
    );
    App {
        start: "2009-08-20T01:00Z",
        end: "2009-08-20T02:00Z",
        datasets: daily,
        inputs: data_in(
            "in",
            "d",
            &range("${coord:endOfMonths(-1)}", "${coord:latest(2)}"),
        ),
        ..BASE
    }
    .fails(
        &[],
        "Only start-instance as absolute/endOfMonths/endOfWeeks/endOfDays and end-instance as current",
    );
    // In the dataset's zone: 00:00 in Los Angeles is 07:00Z in summer.
    let la = r#"<dataset name="d" frequency="${coord:hours(1)}" initial-instance="2009-06-06T07:00Z" timezone="America/Los_Angeles"><uri-template>t/${YEAR}/${MONTH}/${DAY}/${HOUR}</uri-template></dataset>"#;
    let uris = one_range(la, "${coord:endOfDays(-1)}", "2009-08-20T10:00Z").unwrap();
    assert_eq!(uris.last().unwrap(), "t/2009/08/20/07");
    assert_eq!(uris.len(), 4);
}

// ---- Nominal times ----------------------------------------------------------

#[test]
fn nominal_times() {
    // CMT:426-546: action k = start + (k-1)·freq with Calendar.add in the job's
    // zone, always from the start. Days keep the wall clock; a wall time inside
    // the spring-forward gap lands one hour earlier (JDK: 02:00 PST Mar 7 + 1
    // day = 09:00Z, + 2 days = 09:00Z).
    let la = App {
        frequency: "${coord:days(1)}",
        start: "2009-03-07T10:00Z",
        end: "2009-03-10T00:00Z",
        timezone: "America/Los_Angeles",
        ..BASE
    };
    assert_eq!(
        times(&la.ok(&[])),
        [
            "2009-03-07T10:00Z",
            "2009-03-08T09:00Z",
            "2009-03-09T09:00Z"
        ]
    );
    // CEF:81-181: hours(n) is n·60 MINUTE, absolute across DST.
    let hours = App {
        frequency: "${coord:hours(24)}",
        ..la
    };
    assert_eq!(
        times(&hours.ok(&[])),
        [
            "2009-03-07T10:00Z",
            "2009-03-08T10:00Z",
            "2009-03-09T10:00Z"
        ]
    );
    // London: 01:30 GMT Mar 28 + 1 day is in the gap (JDK: 00:30Z), + 2 days 00:30Z.
    let london = App {
        frequency: "${coord:days(1)}",
        start: "2009-03-28T01:30Z",
        end: "2009-03-30T12:00Z",
        timezone: "Europe/London",
        ..BASE
    };
    assert_eq!(
        times(&london.ok(&[])),
        [
            "2009-03-28T01:30Z",
            "2009-03-29T00:30Z",
            "2009-03-30T00:30Z"
        ]
    );
    // New York fall-back: 00:00 EDT Oct 31, then 00:00 EDT Nov 1, then 00:00 EST Nov 2 (JDK).
    let ny = App {
        frequency: "${coord:days(1)}",
        start: "2009-10-31T04:00Z",
        end: "2009-11-02T12:00Z",
        timezone: "America/New_York",
        ..BASE
    };
    assert_eq!(
        times(&ny.ok(&[])),
        [
            "2009-10-31T04:00Z",
            "2009-11-01T04:00Z",
            "2009-11-02T05:00Z"
        ]
    );
    // Months from Jan 31: one add from the start each time (JDK: Feb 28, Mar 31, Apr 30), no drift.
    let months = App {
        frequency: "${coord:months(1)}",
        start: "2009-01-31T00:00Z",
        end: "2009-05-01T00:00Z",
        ..BASE
    };
    assert_eq!(
        times(&months.ok(&[])),
        [
            "2009-01-31T00:00Z",
            "2009-02-28T00:00Z",
            "2009-03-31T00:00Z",
            "2009-04-30T00:00Z"
        ]
    );
    // Asia/Kolkata, +05:30: Feb 1 00:00 IST + 1 month = Mar 1 00:00 IST (JDK).
    let kolkata = App {
        frequency: "${coord:months(1)}",
        start: "2009-01-31T18:30Z",
        end: "2009-03-15T00:00Z",
        timezone: "Asia/Kolkata",
        ..BASE
    };
    assert_eq!(
        times(&kolkata.ok(&[])),
        ["2009-01-31T18:30Z", "2009-02-28T18:30Z"]
    );
    // A GMT offset zone: Mar 1 00:00 +05:30 + 1 month = Apr 1 00:00 (JDK).
    let gmt = App {
        timezone: "GMT+05:30",
        start: "2009-02-28T18:30Z",
        end: "2009-04-15T00:00Z",
        ..kolkata
    };
    assert_eq!(
        times(&gmt.ok(&[])),
        ["2009-02-28T18:30Z", "2009-03-31T18:30Z"]
    );
    // DU:308-332: endOf* always advance, even from a boundary.
    let end_of_days = App {
        frequency: "${coord:endOfDays(1)}",
        start: "2009-01-01T00:00Z",
        end: "2009-01-04T00:00Z",
        ..BASE
    };
    assert_eq!(
        times(&end_of_days.ok(&[])),
        ["2009-01-02T00:00Z", "2009-01-03T00:00Z"]
    );
    let end_of_days_la = App {
        frequency: "${coord:endOfDays(1)}",
        start: "2009-01-01T10:00Z",
        end: "2009-01-03T12:00Z",
        timezone: "America/Los_Angeles",
        ..BASE
    };
    assert_eq!(
        times(&end_of_days_la.ok(&[])),
        ["2009-01-02T08:00Z", "2009-01-03T08:00Z"]
    );
    let end_of_months = App {
        frequency: "${coord:endOfMonths(1)}",
        start: "2009-01-15T10:00Z",
        end: "2009-03-15T00:00Z",
        ..BASE
    };
    assert_eq!(
        times(&end_of_months.ok(&[])),
        ["2009-02-01T00:00Z", "2009-03-01T00:00Z"]
    );
    // endOfWeeks: the next Sunday 00:00 (en_US first day of week).
    let end_of_weeks = App {
        frequency: "${coord:endOfWeeks(1)}",
        start: "2017-01-04T08:00Z",
        end: "2017-01-20T00:00Z",
        ..BASE
    };
    assert_eq!(
        times(&end_of_weeks.ok(&[])),
        ["2017-01-08T00:00Z", "2017-01-15T00:00Z"]
    );
    // moveToEnd always moves forward (DU:308-332), so an endOf* start/end pair
    // can give zero actions, without error.
    let none = App {
        frequency: "${coord:endOfDays(1)}",
        start: "2009-01-01T00:00Z",
        end: "2009-01-01T12:00Z",
        ..BASE
    };
    assert!(none.ok(&[]).is_empty());
    // Frequency functions return counts in their unit (TestCoordELFunctions:91).
    let eight_months = App {
        frequency: "${coord:months(1) + 7}",
        start: "2009-01-01T00:00Z",
        end: "2010-01-01T00:00Z",
        ..BASE
    };
    assert_eq!(
        times(&eight_months.ok(&[])),
        ["2009-01-01T00:00Z", "2009-09-01T00:00Z"]
    );
    let nested = App {
        frequency: "${coord:hours(coord:hours(1))}",
        start: "2009-01-01T00:00Z",
        end: "2009-01-05T00:00Z",
        ..BASE
    };
    assert_eq!(
        times(&nested.ok(&[])),
        ["2009-01-01T00:00Z", "2009-01-03T12:00Z"]
    );
    // A plain integer is minutes; the end is exclusive.
    let minutes = App {
        frequency: "30",
        start: "2009-01-01T00:00Z",
        end: "2009-01-01T01:30Z",
        ..BASE
    };
    assert_eq!(
        times(&minutes.ok(&[])),
        [
            "2009-01-01T00:00Z",
            "2009-01-01T00:30Z",
            "2009-01-01T01:00Z"
        ]
    );
    // Legacy IDs as Java maps them: PST follows Los Angeles (DST), EST is fixed −5 (JDK).
    let pst = App {
        frequency: "${coord:days(1)}",
        start: "2009-03-07T08:00Z",
        end: "2009-03-09T12:00Z",
        timezone: "PST",
        ..BASE
    };
    assert_eq!(times(&pst.ok(&[]))[2], "2009-03-09T07:00Z");
    let est = App {
        timezone: "EST",
        start: "2009-03-07T05:00Z",
        ..pst
    };
    assert_eq!(times(&est.ok(&[]))[2], "2009-03-09T05:00Z");
}

#[test]
fn cron_schedules() {
    // CCU:800-865: "0 " + the five fields for Quartz, in the processing zone;
    // the first action is the first fire time after start − 1 minute.
    let daily = App {
        frequency: "0 10 * * *",
        start: "2009-01-01T10:00Z",
        end: "2009-01-03T12:00Z",
        ..BASE
    };
    assert_eq!(
        times(&daily.ok(&[])),
        [
            "2009-01-01T10:00Z",
            "2009-01-02T10:00Z",
            "2009-01-03T10:00Z"
        ]
    );
    // Day-of-week is Quartz's, 1 = Sunday: 2-6 is Monday to Friday (TestCoordCommandUtils:285-292).
    let weekdays = App {
        frequency: "0 10 * * 2-6",
        start: "2009-01-02T00:00Z",
        end: "2009-01-06T00:00Z",
        ..BASE
    };
    assert_eq!(
        times(&weekdays.ok(&[])),
        ["2009-01-02T10:00Z", "2009-01-05T10:00Z"]
    );
    // OOZIE-2494 (CMT:580-591, DaylightOffsetCalculator:75-91): daily crons are
    // shifted by the job zone's DST difference from the start.
    let shifted = App {
        frequency: "10 23 * * *",
        start: "2016-03-11T23:10Z",
        end: "2016-03-15T00:00Z",
        timezone: "America/Los_Angeles",
        ..BASE
    };
    assert_eq!(
        times(&shifted.ok(&[])),
        [
            "2016-03-11T23:10Z",
            "2016-03-12T23:10Z",
            "2016-03-13T22:10Z",
            "2016-03-14T22:10Z"
        ]
    );
    // Hourly crons are pure UTC.
    let hourly = App {
        frequency: "0 * * * *",
        start: "2016-03-13T08:30Z",
        end: "2016-03-13T11:00Z",
        timezone: "America/Los_Angeles",
        ..BASE
    };
    assert_eq!(
        times(&hourly.ok(&[])),
        ["2016-03-13T09:00Z", "2016-03-13T10:00Z"]
    );
    // CSX:353-368: a cron that never fires, or not in [start, end), is rejected.
    App {
        frequency: "0 10 30 2 *",
        ..BASE
    }
    .fails(&[], "CR003");
    App {
        frequency: "0 10 * * *",
        start: "2013-10-18T21:00Z",
        end: "2013-10-18T22:00Z",
        ..BASE
    }
    .fails(&[], "CR004");
    // ParamChecker.checkFrequency: exactly five fields separated by single spaces.
    App {
        frequency: "0 10 * *",
        ..BASE
    }
    .fails(&[], "CR001");
}

// ---- Dataset instances ------------------------------------------------------

#[test]
fn single_instances() {
    let app = |instances: &str| {
        App {
            start: "2009-01-01T05:30Z",
            end: "2009-01-01T06:00Z",
            datasets: HOURLY,
            inputs: data_in("in", "hourly", instances),
            ..BASE
        }
        .ok(&[])
    };
    let uris = |instances: &str| inputs(&app(instances)[0], "in");
    // CEF:1228-1287: current(0) is the latest instance at or before the nominal time.
    assert_eq!(
        uris(&instance("${coord:current(0)}")),
        ["h/2009/01/01/05/00"]
    );
    assert_eq!(
        uris(&instance("${coord:current(-1)}")),
        ["h/2009/01/01/04/00"]
    );
    // No upper bound: instances after the job end are returned (CEF:958-990).
    assert_eq!(
        uris(&instance("${coord:current(30)}")),
        ["h/2009/01/02/11/00"]
    );
    // Instances before the initial one resolve to "" and are dropped (CCU:225-235, 446).
    assert_eq!(
        uris(&instance("${coord:current(-6)}")),
        Vec::<String>::new()
    );
    assert_eq!(
        uris(&(instance("${coord:current(-6)}") + &instance("${coord:current(-5)}"))),
        ["h/2009/01/01/00/00"]
    );
    // <instance> elements keep document order.
    assert_eq!(
        uris(&(instance("${coord:current(-2)}") + &instance("${coord:current(0)}"))),
        ["h/2009/01/01/03/00", "h/2009/01/01/05/00"]
    );
    // CEF:999-1051: offset rewinds to the latest instance at or before current(0) + n·unit.
    assert_eq!(
        uris(&instance("${coord:offset(-60, 'MINUTE')}")),
        ["h/2009/01/01/04/00"]
    );
    assert_eq!(
        uris(&instance("${coord:offset(-90, 'MINUTE')}")),
        ["h/2009/01/01/03/00"]
    );
    assert_eq!(
        uris(&instance("${coord:offset(1, 'DAY')}")),
        ["h/2009/01/02/05/00"]
    );
    // A nominal time before the initial instance: every current(n) is "",
    // positive n included (TestCoordELFunctions:509-537).
    let early = App {
        start: "2008-12-31T22:00Z",
        end: "2008-12-31T23:00Z",
        datasets: HOURLY,
        inputs: data_in("in", "hourly", &instance("${coord:current(5)}")),
        ..BASE
    };
    assert_eq!(inputs(&early.ok(&[])[0], "in"), Vec::<String>::new());
    // An unknown unit fails the action (TimeUnit.valueOf).
    App {
        start: "2009-01-01T05:30Z",
        end: "2009-01-01T06:00Z",
        datasets: HOURLY,
        inputs: data_in("in", "hourly", &instance("${coord:offset(1, 'FORTNIGHT')}")),
        ..BASE
    }
    .fails(
        &[],
        "No enum constant org.apache.oozie.coord.TimeUnit.FORTNIGHT",
    );
}

#[test]
fn ranges() {
    let app = |instances: &str| App {
        start: "2009-01-01T05:00Z",
        end: "2009-01-01T05:30Z",
        datasets: HOURLY,
        inputs: data_in("in", "hourly", instances),
        ..BASE
    };
    let uris = |instances: &str| inputs(&app(instances).ok(&[])[0], "in");
    // CEF:971-988: currentRange lists newest first.
    assert_eq!(
        uris(&range("${coord:current(-2)}", "${coord:current(0)}")),
        [
            "h/2009/01/01/05/00",
            "h/2009/01/01/04/00",
            "h/2009/01/01/03/00"
        ]
    );
    // The initial instance is kept, earlier ones dropped (TestCoordELFunctions:401).
    assert_eq!(
        uris(&range("${coord:current(-9)}", "${coord:current(-4)}")),
        ["h/2009/01/01/01/00", "h/2009/01/01/00/00"]
    );
    // CCU:285-311: an offset range fast-forwards its start to an instance.
    assert_eq!(
        uris(&range(
            "${coord:offset(-90, 'MINUTE')}",
            "${coord:offset(0, 'MINUTE')}"
        )),
        ["h/2009/01/01/05/00", "h/2009/01/01/04/00"]
    );
    // CEF:754-788: absolute(ts) becomes current(k) for this action.
    assert_eq!(
        uris(&range(
            "${coord:absolute('2009-01-01T03:00Z')}",
            "${coord:current(0)}"
        )),
        [
            "h/2009/01/01/05/00",
            "h/2009/01/01/04/00",
            "h/2009/01/01/03/00"
        ]
    );
    // E1010 cases (CCU checkIfBothSameType, resolveInstanceRange; CEF absoluteRange).
    app(&range("${coord:current(0)}", "${coord:current(-1)}"))
        .fails(&[], "should be equal or earlier than the end-instance");
    app(&range("${coord:current(-1)}", "${coord:latest(0)}")).fails(
        &[],
        "both should be either latest or current or future or offset",
    );
    app(&range(
        "${coord:absolute('2009-01-01T03:30Z')}",
        "${coord:current(0)}",
    ))
    .fails(&[], "not in phase");
    app(&range(
        "${coord:absolute('2008-12-31T23:00Z')}",
        "${coord:current(0)}",
    ))
    .fails(
        &[],
        "initial-instance should be equal or earlier than the start-instance",
    );
    app(&range(
        "${coord:absolute('2009-01-01T03:00Z')}",
        "${coord:latest(0)}",
    ))
    .fails(&[], "Only start-instance as absolute");
    // CCU:288: the offset pre-check compares Calendar field constants × counts,
    // so -1 HOUR (10 × -1) "is after" -30 MINUTE (12 × -30): Oozie rejects a sound range.
    app(&range(
        "${coord:offset(-1, 'HOUR')}",
        "${coord:offset(-30, 'MINUTE')}",
    ))
    .fails(&[], "should be equal or earlier");
    // latest/future stay as Oozie writes them (CCU resolveInstanceRange); dataIn echoes itself.
    let latest = App {
        config: &[("in", "${coord:dataIn('in')}")],
        ..app(&range("${coord:latest(-2)}", "${coord:latest(0)}"))
    }
    .ok(&[]);
    assert_eq!(
        latest[0]["unresolved"]["in"][0],
        "${coord:latestRange(-2,0)}"
    );
    assert_eq!(config(&latest[0], "in"), "${coord:dataIn('in')}");
    let future = app(&range("${coord:future(0, 10)}", "${coord:future(2, 10)}")).ok(&[]);
    assert_eq!(
        future[0]["unresolved"]["in"][0],
        "${coord:futureRange(0,2,'10')}"
    );
}

#[test]
fn dst_aware_instances_and_helpers() {
    const LA_HOURLY: &str = r#"<dataset name="la" frequency="${coord:hours(1)}" initial-instance="2009-01-01T08:00Z" timezone="America/Los_Angeles"><uri-template>la/${YEAR}${MONTH}${DAY}${HOUR}</uri-template></dataset>"#;
    const LA_DAILY: &str = r#"<dataset name="daily" frequency="${coord:days(1)}" initial-instance="2009-01-01T10:00Z" timezone="America/Los_Angeles"><uri-template>d/${YEAR}${MONTH}${DAY}${HOUR}</uri-template></dataset>"#;
    // The first action of a job starting at `nominal`.
    let job = |nominal: &str, instances: &str, datasets: &'static str, dataset: &str| {
        App {
            start: nominal,
            end: "2010-01-01T00:00Z",
            frequency: "${coord:days(1)}",
            datasets,
            inputs: data_in("in", dataset, instances),
            ..BASE
        }
        .ok(&["--limit", "1"])
        .remove(0)
    };
    let day = || {
        range(
            "${coord:current(-(coord:hoursInDay(0) - 1))}",
            "${coord:current(0)}",
        )
    };
    // CEF:560-576, DU:275-288: hoursInDay is 23 on the spring-forward day and 25
    // on the fall-back day, so the range holds that many hourly instances.
    let spring = job("2009-03-09T00:00Z", &day(), LA_HOURLY, "la");
    assert_eq!(inputs(&spring, "in").len(), 23, "2009-03-08 in Los Angeles");
    let fall = job("2009-11-02T00:00Z", &day(), LA_HOURLY, "la");
    assert_eq!(inputs(&fall, "in").len(), 25, "2009-11-01 in Los Angeles");
    let plain = job("2009-06-02T00:00Z", &day(), LA_HOURLY, "la");
    assert_eq!(inputs(&plain, "in").len(), 24);
    // hoursInDay(n) shifts by n dataset frequencies, here hours: at 00:00 PDT
    // Mar 9 (07:00Z), hoursInDay(-1) is the 23-hour Mar 8 though hoursInDay(0) is 24.
    let shifted = job(
        "2009-03-09T07:00Z",
        &range(
            "${coord:current(-(coord:hoursInDay(-1) - 1))}",
            "${coord:current(0)}",
        ),
        LA_HOURLY,
        "la",
    );
    assert_eq!(inputs(&shifted, "in").len(), 23);
    // URIs use the instance's fields in the processing zone (UTC): a daily LA
    // instance at 02:00 PST renders hour 10 (CCU:433-471, CEE:255-266).
    let daily = job(
        "2009-01-05T12:00Z",
        &instance("${coord:current(0)}"),
        LA_DAILY,
        "daily",
    );
    assert_eq!(inputs(&daily, "in"), ["d/2009010510"]);
    // A daily instance at 02:00 local inside the spring-forward gap lands one hour
    // earlier, 09:00Z (TestCoordELFunctions:475).
    let gap = job(
        "2009-03-08T12:00Z",
        &instance("${coord:current(0)}"),
        LA_DAILY,
        "daily",
    );
    assert_eq!(inputs(&gap, "in"), ["d/2009030809"]);
    // daysInMonth: the month of the instance in the dataset zone (DU
    // getActualMaximum). The 02:00 PST instance of Feb 1 is in February (28);
    // a dataset whose instances fall at 00:00Z is still in January in Los
    // Angeles on 2009-02-01T00:00Z (31, JDK).
    let month = |datasets, nominal| {
        let days = range(
            "${coord:current(-(coord:daysInMonth(0) - 1))}",
            "${coord:current(0)}",
        );
        inputs(&job(nominal, &days, datasets, "daily"), "in").len()
    };
    assert_eq!(month(LA_DAILY, "2009-02-01T12:00Z"), 28);
    const LA_DAILY_AT_UTC_MIDNIGHT: &str = r#"<dataset name="daily" frequency="${coord:days(1)}" initial-instance="2009-01-01T00:00Z" timezone="America/Los_Angeles"><uri-template>d/${YEAR}${MONTH}${DAY}</uri-template></dataset>"#;
    assert_eq!(month(LA_DAILY_AT_UTC_MIDNIGHT, "2009-02-01T00:00Z"), 31);
    // tzOffset (CEF:189-194): dataset offset minus job offset, in minutes, DST
    // included; /60 is a Double, truncated for current().
    let winter = job(
        "2009-01-05T12:00Z",
        &instance("${coord:current(coord:tzOffset() / 60)}"),
        LA_HOURLY,
        "la",
    );
    assert_eq!(
        inputs(&winter, "in"),
        ["la/2009010504"],
        "-480 minutes: 8 hours back"
    );
    let summer = job(
        "2009-07-05T12:00Z",
        &instance("${coord:current(coord:tzOffset() / 60)}"),
        LA_HOURLY,
        "la",
    );
    assert_eq!(
        inputs(&summer, "in"),
        ["la/2009070505"],
        "-420 minutes: 7 hours back"
    );
}

// ---- Action functions -------------------------------------------------------

#[test]
fn action_functions() {
    let app = |config: &'static [(&'static str, &'static str)]| {
        App {
        start: "2009-01-04T08:00Z",
        end: "2009-01-04T09:00Z",
        datasets: HOURLY,
        inputs: data_in("in", "hourly", &range("${coord:current(-1)}", "${coord:current(0)}")),
        outputs: r#"<data-out name="out" dataset="hourly"><instance>${coord:current(0)}</instance></data-out>"#.to_string(),
        config,
        ..BASE
    }
    };
    let action = app(&[
        ("in", "${coord:dataIn('in')}"),
        ("out", "${coord:dataOut('out')}"),
        ("nominal", "${coord:nominalTime()}"),
        (
            "day",
            "${coord:formatTime(coord:nominalTime(), 'EEE yyyyMMdd')}",
        ),
        (
            "yesterday",
            "${coord:dateOffset(coord:nominalTime(), -1, 'DAY')}",
        ),
        (
            "nextMonth",
            "${coord:dateOffset('2009-01-31T00:00Z', 1, 'MONTH')}",
        ),
        (
            "local",
            "${coord:dateTzOffset(coord:nominalTime(), 'America/Los_Angeles')}",
        ),
        ("epoch", "${coord:epochTime(coord:nominalTime(), false)}"),
        (
            "epochMillis",
            "${coord:epochTime(coord:nominalTime(), true)}",
        ),
        ("queue", "${coord:conf('queue')}"),
        ("missing", "[${coord:conf('nothing')}]"),
        ("user", "${coord:user()}"),
        ("name", "${coord:name()}"),
    ])
    .ok(&["-D", "queue=etl", "-D", "user.name=joe"])
    .remove(0);
    // CEE:210-235: URIs joined with ',', in instance order (newest first).
    assert_eq!(
        config(&action, "in"),
        "h/2009/01/04/08/00,h/2009/01/04/07/00"
    );
    assert_eq!(config(&action, "out"), "h/2009/01/04/08/00");
    // DU formatDateOozieTZ: the UTC mask.
    assert_eq!(config(&action, "nominal"), "2009-01-04T08:00Z");
    // DU:107-111: SimpleDateFormat in the processing zone (JDK: Sun 20090104).
    assert_eq!(config(&action, "day"), "Sun 20090104");
    // CEF:210-216: Calendar.add in the processing zone, month end clamped.
    assert_eq!(config(&action, "yesterday"), "2009-01-03T08:00Z");
    assert_eq!(config(&action, "nextMonth"), "2009-02-28T00:00Z");
    // CEF:231-237: the wall time in the zone, printed with a literal Z.
    assert_eq!(config(&action, "local"), "2009-01-04T00:00Z");
    // CEF:377-381: seconds, or milliseconds iff the flag is true.
    assert_eq!(config(&action, "epoch"), "1231056000");
    assert_eq!(config(&action, "epochMillis"), "1231056000000");
    // conf(p) is the job property; an absent one is null, rendered empty.
    assert_eq!(config(&action, "queue"), "etl");
    assert_eq!(config(&action, "missing"), "[]");
    // user() is user.name.
    assert_eq!(config(&action, "user"), "joe");
    // name() is the raw name attribute (CSX:715, ELUtils.java:43-52).
    assert_eq!(config(&action, "name"), "fidelity");
    // A GMT+0530 processing zone: datetimes are read and written in it (DU:56-70).
    let in_pz = App {
        start: "2009-01-04T13:30+0530",
        end: "2009-01-04T14:30+0530",
        datasets: r#"<dataset name="hourly" frequency="${coord:hours(1)}" initial-instance="2009-01-01T05:30+0530" timezone="UTC"><uri-template>h/${YEAR}/${MONTH}/${DAY}/${HOUR}/${MINUTE}</uri-template></dataset>"#,
        ..app(&[("nominal", "${coord:nominalTime()}")])
    };
    let pz = in_pz.ok(&["--processing-timezone", "GMT+0530"]).remove(0);
    assert_eq!(config(&pz, "nominal"), "2009-01-04T13:30+0530");
    // ... and the URI fields are its wall time (hour 13, minute 30).
    assert_eq!(inputs(&pz, "in")[0], "h/2009/01/04/13/30");
    // A `Z` datetime is not one in that zone.
    app(&[]).fails(
        &["--processing-timezone", "GMT+0530"],
        "expected `+0530` here",
    );
    // dataIn of a name that is no data-in fails.
    app(&[("x", "${coord:dataIn('nope')}")]).fails(&[], "nope is not a data-in");
}

// ---- Submission (CSX) -------------------------------------------------------

#[test]
fn submission_errors() {
    // CSX:336-338: start must be before end, equal rejected (E1003).
    App {
        end: "2009-01-01T00:00Z",
        ..BASE
    }
    .fails(&[], "the end must be after the start");
    App {
        end: "2008-12-31T00:00Z",
        ..BASE
    }
    .fails(&[], "the end must be after the start");
    // CSX:334-352: below 5 minutes with check.maximum.frequency (default true).
    App {
        frequency: "4",
        ..BASE
    }
    .fails(&[], "below Oozie's 5-minute minimum");
    assert_eq!(
        App {
            frequency: "5",
            end: "2009-01-01T00:10Z",
            ..BASE
        }
        .ok(&[])
        .len(),
        2
    );
    // CEF:81-181: n must be greater than zero.
    App {
        frequency: "${coord:days(0)}",
        ..BASE
    }
    .fails(&[], "parameter [n] = [0] must be greater than zero");
    // No EL constants in a frequency (TestCoordELFunctions:53-61).
    App {
        frequency: "${5 * HOUR}",
        ..BASE
    }
    .fails(&[], "TM003");
    // Datetimes: 24:00 and seconds are rejected (DU:46, 188-200; OOZIE-649).
    App {
        start: "2009-01-01T24:00Z",
        ..BASE
    }
    .fails(&[], "24:00");
    App {
        start: "2009-01-01T00:00:00Z",
        ..BASE
    }
    .fails(&[], "seconds are not allowed");
    App {
        start: "2009-02-30T00:00Z",
        ..BASE
    }
    .fails(&[], "TM001");
    // Zones must round-trip through Java (DU:124-155).
    App {
        timezone: "Americas/Los_Angeles",
        ..BASE
    }
    .fails(&[], "America/Los_Angeles");
    App {
        timezone: "america/los_angeles",
        ..BASE
    }
    .fails(&[], "TM002");
    // CSX:1016-1017: a dataset frequency cannot be cron.
    App { datasets: r#"<dataset name="d" frequency="0 * * * *" initial-instance="2009-01-01T00:00Z" timezone="UTC"><uri-template>u</uri-template></dataset>"#, inputs: data_in("in", "d", &instance("${coord:current(0)}")), ..BASE }
        .fails(&[], "not cron");
    // CSX:1276-1290: initial-instance not before 1970 (E1021).
    App { datasets: r#"<dataset name="d" frequency="60" initial-instance="1969-12-31T00:00Z" timezone="UTC"><uri-template>u</uri-template></dataset>"#, inputs: data_in("in", "d", &instance("${coord:current(0)}")), ..BASE }
        .fails(&[], "1970");
    // CSX:653-662: a data-in naming no dataset.
    App {
        datasets: HOURLY,
        inputs: data_in("in", "hourlyy", &instance("${coord:current(0)}")),
        ..BASE
    }
    .fails(&[], "undefined dataset: hourlyy");
    // CSX:896-898: two data-ins with one name.
    let twice = data_in("in", "hourly", &instance("${coord:current(0)}")).repeat(2);
    App {
        datasets: HOURLY,
        inputs: twice,
        ..BASE
    }
    .fails(&[], "Duplicate dataIn name in");
    // CSX:152-159, 575-582: reserved property names (E0808).
    BASE.fails(&["-D", "YEAR=2009"], "CF002");
    BASE.fails(&["-D", "KB=1"], "CF002");
    // An undefined variable in an attribute (ELEvaluator:107-112).
    App {
        start: "${startTime}",
        ..BASE
    }
    .fails(&[], "variable [startTime] cannot be resolved");
    assert_eq!(
        App {
            start: "${startTime}",
            ..BASE
        }
        .ok(&["-D", "startTime=2009-01-01T23:00Z"])
        .len(),
        1
    );
    // The second phase of a uri-template knows only the instance fields (CCU createURIELEvaluator).
    App { datasets: r#"<dataset name="d" frequency="60" initial-instance="2009-01-01T00:00Z" timezone="UTC"><uri-template>u/${region}</uri-template></dataset>"#, inputs: data_in("in", "d", &instance("${coord:current(0)}")), ..BASE }
        .fails(&[], "variable [region] cannot be resolved");
    // Each part is evaluated by its own ELService group (OD:715; docs/el.md):
    // no dateOffset in <instance> (coord-action-create), no instance functions or
    // SLA constants in the configuration, no action functions at submission.
    App {
        datasets: HOURLY,
        inputs: data_in(
            "in",
            "hourly",
            &instance("${coord:dateOffset('2009-01-01T00:00Z', 1, 'HOUR')}"),
        ),
        ..BASE
    }
    .fails(&[], "coord:dateOffset() cannot be used in an <instance>");
    App {
        config: &[("x", "${coord:current(0)}")],
        ..BASE
    }
    .fails(
        &[],
        "coord:current() cannot be used in the workflow configuration",
    );
    App {
        config: &[("x", "${10 * MINUTES}")],
        ..BASE
    }
    .fails(&[], "MINUTES cannot be used in the workflow configuration");
    App { datasets: r#"<dataset name="d" frequency="60" initial-instance="2009-01-01T00:00Z" timezone="UTC"><uri-template>u/${coord:nominalTime()}</uri-template></dataset>"#, inputs: data_in("in", "d", &instance("${coord:current(0)}")), ..BASE }
        .fails(&[], "EL009");
    // ... while initial-instance may use dateOffset (TestCoordSubmitXCommand:1577-1622).
    let offset_initial = App {
        datasets: r#"<dataset name="d" frequency="60" initial-instance="${coord:dateOffset('2009-01-01T00:00Z', 2, 'HOUR')}" timezone="UTC"><uri-template>u/${HOUR}</uri-template></dataset>"#,
        inputs: data_in("in", "d", &instance("${coord:current(-2)}")),
        end: "2009-01-01T05:00Z",
        start: "2009-01-01T04:00Z",
        ..BASE
    };
    assert_eq!(inputs(&offset_initial.ok(&[])[0], "in"), ["u/02"]);
    // CSX:376-454: an instance element holds exactly one instance (E1021).
    App {
        datasets: HOURLY,
        inputs: data_in("in", "hourly", &instance("")),
        ..BASE
    }
    .fails(&[], "an empty instance");
    App {
        datasets: HOURLY,
        inputs: data_in(
            "in",
            "hourly",
            &instance("${coord:current(0)},${coord:current(-1)}"),
        ),
        ..BASE
    }
    .fails(&[], "CO006");
    // ... while job properties are substituted in the first (submission) phase.
    let submitted = App { datasets: r#"<dataset name="d" frequency="60" initial-instance="2009-01-01T00:00Z" timezone="UTC"><uri-template>u/${region}/${HOUR}</uri-template></dataset>"#, inputs: data_in("in", "d", &instance("${coord:current(0)}")), end: "2009-01-01T01:00Z", ..BASE }
        .ok(&["-D", "region=eu"]);
    assert_eq!(inputs(&submitted[0], "in"), ["u/eu/00"]);
}

#[test]
fn dataset_frequencies() {
    let first = |dataset: &str, nominal: &str, instances: &str| {
        let app = App {
            start: nominal,
            end: "2010-01-01T00:00Z",
            datasets: dataset,
            inputs: data_in("in", "d", instances),
            ..BASE
        };
        inputs(&app.ok(&["--limit", "1"])[0], "in")
    };
    // CEF:1153-1164: an endOf* dataset's initial instance is moved to the end of
    // its day in the dataset zone: 02:00 PST Jan 1 becomes 00:00 PST Jan 2 (08:00Z).
    let end_of_days = r#"<dataset name="d" frequency="${coord:endOfDays(1)}" initial-instance="2009-01-01T10:00Z" timezone="America/Los_Angeles"><uri-template>d/${MONTH}${DAY}${HOUR}</uri-template></dataset>"#;
    assert_eq!(
        first(
            end_of_days,
            "2009-01-05T12:00Z",
            &instance("${coord:current(0)}")
        ),
        ["d/010508"]
    );
    assert_eq!(
        first(
            end_of_days,
            "2009-01-02T07:00Z",
            &instance("${coord:current(0)}")
        ),
        Vec::<String>::new(),
        "before the moved initial instance"
    );
    // A monthly dataset from Jan 31. current(0) alone is one add from the
    // initial instance (Mar 31), but a range adds one month at a time from its
    // first instance (CEF coord_currentRange_sync), so Feb 28 is followed by
    // Mar 28: the same instance has two dates.
    let monthly = r#"<dataset name="d" frequency="${coord:months(1)}" initial-instance="2009-01-31T00:00Z" timezone="UTC"><uri-template>m/${YEAR}${MONTH}${DAY}</uri-template></dataset>"#;
    assert_eq!(
        first(
            monthly,
            "2009-04-15T00:00Z",
            &instance("${coord:current(0)}")
        ),
        ["m/20090331"]
    );
    assert_eq!(
        first(
            monthly,
            "2009-04-15T00:00Z",
            &range("${coord:current(-2)}", "${coord:current(0)}")
        ),
        ["m/20090328", "m/20090228", "m/20090131"]
    );
    // A 15-minute dataset: current(-1) is 15 minutes earlier.
    let quarter = r#"<dataset name="d" frequency="15" initial-instance="2009-01-01T00:00Z" timezone="UTC"><uri-template>q/${HOUR}${MINUTE}</uri-template></dataset>"#;
    assert_eq!(
        first(
            quarter,
            "2009-01-01T01:07Z",
            &range("${coord:current(-1)}", "${coord:current(0)}")
        ),
        ["q/0100", "q/0045"]
    );
    // A range entirely before the initial instance is empty (CEF:971-988).
    assert_eq!(
        first(
            quarter,
            "2008-12-31T23:00Z",
            &range("${coord:current(-3)}", "${coord:current(0)}")
        ),
        Vec::<String>::new()
    );
}

#[test]
fn datetime_functions_in_configuration() {
    let value = |expr: &'static str| {
        let app = App {
            start: "2009-01-04T08:00Z",
            end: "2009-01-04T09:00Z",
            config: &[("v", expr)],
            ..BASE
        };
        config(&app.ok(&[])[0], "v")
    };
    // DU:223-225: any SimpleDateFormat pattern, in the processing zone (UTC).
    assert_eq!(
        value("${coord:formatTime(coord:nominalTime(), 'HH:mm z')}"),
        "08:00 UTC"
    );
    // CEF:210-216: HOUR and YEAR units; a leap day plus a year is Feb 28 (JDK).
    assert_eq!(
        value("${coord:dateOffset(coord:nominalTime(), 5, 'HOUR')}"),
        "2009-01-04T13:00Z"
    );
    assert_eq!(
        value("${coord:dateOffset('2012-02-29T00:00Z', 1, 'YEAR')}"),
        "2013-02-28T00:00Z"
    );
    // dateTzOffset across DST: Kolkata has none, +05:30 all year.
    assert_eq!(
        value("${coord:dateTzOffset(coord:nominalTime(), 'Asia/Kolkata')}"),
        "2009-01-04T13:30Z"
    );
}

// ---- Functions only the server knows, and HCatalog --------------------------

#[test]
fn server_known_and_hcatalog_functions() {
    // CEF ph3_coord_actualTime / ph3_coord_actionId: the creation time and the
    // action id exist only on the server; the value is printed as written.
    let app = App {
        config: &[
            ("t", "${coord:formatTime(coord:actualTime(), 'yyyy')}"),
            ("id", "x-${coord:actionId()}"),
            ("n", "${coord:nominalTime()}"),
        ],
        ..BASE
    };
    let a = &app.ok(&["--limit", "1"])[0];
    assert_eq!(
        config(a, "t"),
        "${coord:formatTime(coord:actualTime(), 'yyyy')}"
    );
    assert_eq!(config(a, "id"), "x-${coord:actionId()}");
    assert_eq!(config(a, "n"), "2009-01-01T00:00Z");
    // HCatELFunctions on hcat:// instances: db and table of the first URI
    // (getURIFromResolved), a pig filter per URI joined with OR
    // (createPartitionFilter), string min/max, the output partition
    // (HCatURI.toPartitionString) and one of its values.
    let hcat = r#"<dataset name="h" frequency="${coord:hours(1)}" initial-instance="2009-01-01T00:00Z" timezone="UTC"><uri-template>hcat://hcat.example.com:9083/db1/clicks/dt=${YEAR}${MONTH}${DAY};hr=${HOUR}</uri-template></dataset>"#;
    let app = App {
        start: "2009-01-01T02:00Z",
        datasets: hcat,
        inputs: data_in(
            "in",
            "h",
            &range("${coord:current(-1)}", "${coord:current(0)}"),
        ),
        outputs: r#"<data-out name="out" dataset="h"><instance>${coord:current(0)}</instance></data-out>"#.to_string(),
        config: &[
            ("db", "${coord:databaseIn('in')}"),
            ("table", "${coord:tableOut('out')}"),
            ("filter", "${coord:dataInPartitionFilter('in', 'hive')}"),
            ("min", "${coord:dataInPartitionMin('in', 'hr')}"),
            ("max", "${coord:dataInPartitionMax('in', 'hr')}"),
            ("parts", "${coord:dataOutPartitions('out')}"),
            ("hr", "${coord:dataOutPartitionValue('out', 'hr')}"),
        ],
        ..BASE
    };
    let a = &app.ok(&["--limit", "1"])[0];
    assert_eq!(config(a, "db"), "db1");
    assert_eq!(config(a, "table"), "clicks");
    assert_eq!(
        config(a, "filter"),
        "(dt='20090101' AND hr='02') OR (dt='20090101' AND hr='01')"
    );
    assert_eq!(
        (config(a, "min"), config(a, "max")),
        ("01".into(), "02".into())
    );
    assert_eq!(config(a, "parts"), "'dt=20090101,hr=02'");
    assert_eq!(config(a, "hr"), "02");
    // An hdfs:// instance is no HCatalog URI: Oozie fails the action.
    let app = App {
        datasets: HOURLY,
        inputs: data_in("in", "hourly", &instance("${coord:current(0)}")),
        config: &[("db", "${coord:databaseIn('in')}")],
        ..BASE
    };
    app.fails(&[], "HCat URI can't be parsed");
}
