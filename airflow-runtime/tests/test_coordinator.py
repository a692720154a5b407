import json
import os
import unittest
import xml.etree.ElementTree as ET
from datetime import datetime, timedelta, timezone

import support

from coordc_airflow import CoordcAirflowError, OozieCoordinator, OozieDataIn, OozieDataOut, OozieDataset

HOURS_IN_DAY = os.path.join(support.CORPUS, "coord", "spec-6.6.3-hours-in-day")


def hours_in_day(**changes) -> OozieCoordinator:
    """corpus/coord/spec-6.6.3-hours-in-day as an exported DAG describes it (job.properties resolved)."""
    return OozieCoordinator(
        **{
            "name": "app-coord",
            "xmlns": "uri:oozie:coordinator:0.1",
            "frequency": "${coord:days(1)}",
            "timezone": "America/Los_Angeles",
            "start": "2009-03-07T08:00Z",
            "end": "2009-03-10T07:00Z",
            "properties": {"market": "us", "language": "en"},
            "datasets": {
                "logs": OozieDataset(
                    frequency="${coord:hours(1)}",
                    initial_instance="2009-03-01T08:00Z",
                    timezone="America/Los_Angeles",
                    uri_template="hdfs://bar:8020/app/logs/${market}/${language}/${YEAR}${MONTH}/${DAY}/${HOUR}",
                )
            },
            "data_in": {
                "input": OozieDataIn(
                    dataset="logs",
                    start_instance="${coord:current( -(coord:hoursInDay(0) - 1) )}",
                    end_instance="${coord:current(0)}",
                )
            },
            **changes,
        }
    )


class CorpusApplication(unittest.TestCase):
    """The answers are those of `coordc dryrun` on the application itself."""

    @classmethod
    def setUpClass(cls):
        app = os.path.join(HOURS_IN_DAY, "coordinator.xml")
        job = os.path.join(HOURS_IN_DAY, "job.properties")
        cls.actions = json.loads(support.coordc("dryrun", app, "--config", job, "--format", "json"))["actions"]

    def test_nominal_times(self):
        want = [
            datetime.strptime(a["nominal_time"], "%Y-%m-%dT%H:%MZ").replace(tzinfo=timezone.utc) for a in self.actions
        ]
        self.assertEqual(len(want), 3)
        oozie = hours_in_day()
        self.assertEqual(oozie.nominal_times(), want)
        self.assertEqual(oozie.nominal_times(after=want[0]), want[1:])
        self.assertEqual(oozie.nominal_times(after=want[0] - timedelta(seconds=1), limit=2), want[:2])
        self.assertEqual(oozie.nominal_times(after=want[-1]), [])

    def test_action_and_data_in(self):
        oozie = hours_in_day()
        for action in self.actions:
            t = action["nominal_time"]
            # The same action but for the app-path the synthetic coordinator names.
            self.assertEqual(oozie.action(t)["workflow"]["app_path"], "coordc-airflow://unused")
            self.assertEqual({**oozie.action(t), "workflow": action["workflow"]}, action)
            as_datetime = datetime.fromisoformat(t.replace("Z", "+00:00")).astimezone(timezone(timedelta(hours=-8)))
            self.assertEqual(oozie.data_in(as_datetime, "input"), action["inputs"]["input"])
            self.assertEqual(oozie.configuration(t), {})
        # The spring-forward day has 23 hours, so 23 instances.
        self.assertEqual(len(oozie.data_in("2009-03-08T08:00Z", "input")), 23)

    def test_one_coordc_run_per_window(self):
        oozie = hours_in_day()
        for action in self.actions:
            oozie.action(action["nominal_time"])
        oozie.nominal_times()
        self.assertEqual(list(oozie._windows), ["2009-03-07T08:00Z"])

    def test_few_windows_are_kept(self):
        # Two years of hourly actions asked for one every 1,000: a window each,
        # only the last KEPT_WINDOWS kept in memory.
        from coordc_airflow import coordinator

        oozie = hours_in_day(frequency="${coord:hours(1)}", end="2011-03-07T08:00Z")
        first = oozie.nominal_times(limit=1)[0]
        for n in range(12):
            asked = first + timedelta(hours=1000 * n)
            self.assertEqual(oozie.nominal_times(after=asked - timedelta(minutes=1), limit=1), [asked])
        self.assertEqual(len(oozie._windows), coordinator.KEPT_WINDOWS)
        self.assertEqual(next(iter(oozie._windows)), "2009-08-21T00:00Z")

    def test_an_action_among_times_that_go_back(self):
        # Oozie's cron DST shift: after 2018-11-05T09:00Z comes 08:20Z (the
        # job's listing is out of order there); each action is still found.
        oozie = OozieCoordinator(
            name="c",
            xmlns="uri:oozie:coordinator:0.5",
            frequency="0/20 8-18 ? * 2-6",
            timezone="America/Chicago",
            start="2018-11-01T08:00Z",
            end="2018-11-10T00:00Z",
        )
        oozie.nominal_times()  # the whole job, in its order, one window
        for time in ("2018-11-05T09:00Z", "2018-11-05T08:20Z", "2018-11-05T08:40Z"):
            self.assertEqual(oozie.action(time)["nominal_time"], time)

    def test_no_action(self):
        with self.assertRaisesRegex(CoordcAirflowError, "no action at nominal time 2009-03-07T09:00Z"):
            hours_in_day().action("2009-03-07T09:00:00+00:00")
        with self.assertRaisesRegex(CoordcAirflowError, "no action at nominal time 2009-03-08T07:59:30"):
            hours_in_day().action("2009-03-08T07:59:30+00:00")
        with self.assertRaisesRegex(CoordcAirflowError, "needs a time zone"):
            hours_in_day().action(datetime(2009, 3, 7, 8))


class Configuration(unittest.TestCase):
    def coordinator(self) -> OozieCoordinator:
        return hours_in_day(
            properties={"market": "us", "language": "en", "queue": "prod"},
            configuration={"inputDir": "${coord:dataIn('input')}", "market": "eu-${market}"},
            data_out={"output": OozieDataOut(dataset="logs", instance="${coord:current(0)}")},
            workflow_defaults={"queue": "default", "retries": "3"},
        )

    def test_conf_precedence(self):
        oozie = self.coordinator()
        t = "2009-03-07T08:00Z"
        self.assertEqual(oozie.conf(t, "market"), "eu-us")  # the action configuration first
        self.assertEqual(oozie.conf(t, "queue"), "prod")  # then the job properties
        self.assertEqual(oozie.conf(t, "retries"), "3")  # then config-default.xml
        self.assertEqual(oozie.conf(t, "inputDir"), ",".join(oozie.data_in(t, "input")))
        with self.assertRaisesRegex(CoordcAirflowError, "'nope'"):
            oozie.conf(t, "nope")

    def test_data_out_and_quote(self):
        oozie = self.coordinator()
        t = "2009-03-07T08:00Z"
        self.assertEqual(oozie.data_out(t, "output"), oozie.data_in(t, "input")[:1])  # current(0) of both
        self.assertEqual(oozie.quote("a b'c"), "'a b'\"'\"'c'")


class ProcessingTimeZone(unittest.TestCase):
    def test_start_and_end_in_the_processing_zone_form(self):
        # Under GMT+0530 Oozie reads dates as 2020-01-01T05:30+0530; the
        # coordinator's start and end are given in UTC all the same.
        oozie = OozieCoordinator(
            "ist",
            "uri:oozie:coordinator:0.1",
            "${coord:hours(6)}",
            "Asia/Kolkata",
            "2020-01-01T00:00Z",
            "2020-01-02T00:00Z",
            processing_timezone="GMT+0530",
            datasets={
                "d": OozieDataset(
                    "${coord:hours(6)}", "2019-12-31T05:30+0530", "Asia/Kolkata", "/d/${YEAR}${MONTH}${DAY}${HOUR}"
                )
            },
            data_in={"in": OozieDataIn(dataset="d", instances=["${coord:current(0)}"])},
        )
        root = ET.fromstring(oozie.coordinator_xml())
        self.assertEqual((root.get("start"), root.get("end")), ("2020-01-01T05:30+0530", "2020-01-02T05:30+0530"))
        times = [t.strftime("%H:%M") for t in oozie.nominal_times()]
        self.assertEqual(times, ["00:00", "06:00", "12:00", "18:00"])
        self.assertEqual(oozie.nominal_times(after="2020-01-01T06:00Z")[0].hour, 12)  # --from in the zone's form too
        self.assertEqual(oozie.data_in("2020-01-01T06:00Z", "in"), ["/d/2020010111"])


class SyntheticXml(unittest.TestCase):
    def coordinator(self, done_flag) -> OozieCoordinator:
        return OozieCoordinator(
            name='odd<&"name',
            xmlns="uri:oozie:coordinator:0.2",
            frequency="60",
            timezone="UTC",
            start="2020-01-01T00:00Z",
            end="2020-01-01T03:00Z",
            properties={"weird": 'a<&"b', "root": "/data"},
            datasets={
                "d": OozieDataset(
                    "60", "2019-01-01T00:00Z", "UTC", "file://${root}/${weird}/${YEAR}${MONTH}${DAY}${HOUR}", done_flag
                )
            },
            data_in={"in": OozieDataIn(dataset="d", instances=["${coord:current(-1)}", "${coord:current(0)}"])},
            configuration={"value": 'x<&"${weird}'},
        )

    def test_escaped_and_well_formed(self):
        oozie = self.coordinator(None)
        root = ET.fromstring(oozie.coordinator_xml())
        self.assertEqual(root.get("name"), 'odd<&"name')
        ns = "{uri:oozie:coordinator:0.2}"
        self.assertEqual(root.find(f"{ns}action/{ns}workflow/{ns}app-path").text, "coordc-airflow://unused")
        job = ET.fromstring(oozie.job_xml())
        self.assertEqual({p.findtext("name"): p.findtext("value") for p in job}, {"weird": 'a<&"b', "root": "/data"})

    def test_values_reach_coordc_intact(self):
        oozie = self.coordinator(None)
        self.assertEqual(oozie.configuration("2020-01-01T01:00Z"), {"value": 'x<&"a<&"b'})
        self.assertEqual(
            oozie.data_in("2020-01-01T01:00Z", "in"),
            ['file:///data/a<&"b/2020010100', 'file:///data/a<&"b/2020010101'],
        )

    def test_done_flag_paths(self):
        t = "2020-01-01T00:00Z"
        self.assertEqual(self.coordinator(None).done_flag_paths(t, "in")[1], 'file:///data/a<&"b/2020010100/_SUCCESS')
        self.assertEqual(self.coordinator("").done_flag_paths(t, "in")[1], 'file:///data/a<&"b/2020010100')
        self.assertEqual(self.coordinator("ready").done_flag_paths(t, "in")[1], 'file:///data/a<&"b/2020010100/ready')

    def test_data_in_needs_range_or_instances(self):
        with self.assertRaises(ValueError):
            OozieDataIn(dataset="d")
        with self.assertRaises(ValueError):
            OozieDataIn(dataset="d", start_instance="x", instances=["y"])

    def test_coordc_failure_shows_its_stderr(self):
        oozie = OozieCoordinator(
            "bad", "uri:oozie:coordinator:0.1", "${coord:nonsense(1)}", "UTC", "2020-01-01T00:00Z", "2020-01-02T00:00Z"
        )
        with self.assertRaisesRegex(CoordcAirflowError, "coordc dryrun failed"):
            oozie.nominal_times()


if __name__ == "__main__":
    unittest.main()


class Decisions(unittest.TestCase):
    """A decision node's branch: coordc renders each case with the run's configuration."""

    def test_the_first_true_case_wins_else_the_default(self):
        oozie = hours_in_day(configuration={"input": "${coord:dataIn('input')}"}, workflow_defaults={"limit": "3"})
        run = "2009-03-08T08:00Z"
        cases = [
            ("${market eq 'fr'}", ["french"]),
            ("${wf:conf('limit') gt 2}", ["big"]),
            ("${true}", ["never"]),
        ]
        self.assertEqual(oozie.branch(run, cases, ["small"]), ["big"])
        self.assertEqual(oozie.branch(run, cases[:1], []), [])
        # The run's resolved configuration is what the predicates read.
        self.assertEqual(oozie.branch(run, [("${input eq ''}", ["none"])], ["some"]), ["some"])

    def test_el_renders_a_value_for_the_run(self):
        oozie = hours_in_day(configuration={"day": "${coord:formatTime(coord:nominalTime(), 'yyyyMMdd')}"})
        self.assertEqual(oozie.el("2009-03-08T08:00Z", "${concat(market, '-')}${day}"), "us-20090308")
        self.assertEqual(oozie.el("2009-03-09T07:00Z", "${concat(market, '-')}${day}"), "us-20090309")

    def test_a_case_coordc_cannot_render_is_an_error(self):
        with self.assertRaises(CoordcAirflowError) as raised:
            hours_in_day().branch("2009-03-08T08:00Z", [("${fs:exists('/x')}", ["a"])], [])
        self.assertIn("fs:exists", str(raised.exception))
