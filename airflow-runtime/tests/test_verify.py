import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

import support

# Two DAG files of the exporter's shape: one on the Oozie timetable, one on a
# built-in timetable next to an hourly UTC coordinator.
OOZIE_DAG = '''
"""la-daily: daily in Los Angeles across the 2009 spring-forward day."""
from datetime import datetime, timezone

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
from coordc_airflow import OozieCoordinator, OozieDataIn, OozieDataInSensor, OozieDataset

OOZIE = OozieCoordinator(
    name="la-daily",
    xmlns="uri:oozie:coordinator:0.1",
    frequency="${coord:days(1)}",
    timezone="America/Los_Angeles",
    start="2009-03-06T08:00Z",
    end="2009-03-10T07:00Z",
    properties={"market": "us"},
    datasets={
        "logs": OozieDataset(
            frequency="${coord:hours(6)}",
            initial_instance="2009-01-01T08:00Z",
            timezone="America/Los_Angeles",
            uri_template="hdfs://nn:8020/logs/${market}/${YEAR}${MONTH}${DAY}${HOUR}",
        ),
    },
    data_in={"input": OozieDataIn(dataset="logs", start_instance="${coord:current(-3)}", end_instance="${coord:current(0)}")},
    configuration={"inputDir": "${coord:dataIn('input')}", "day": "${coord:formatTime(coord:nominalTime(), 'yyyyMMdd')}"},
    workflow_defaults={"queue": "default"},
)

with DAG(
    dag_id="la-daily",
    schedule=OOZIE.timetable(),
    start_date=datetime(2009, 3, 6, 8, 0, tzinfo=timezone.utc),
    end_date=datetime(2009, 3, 9, 7, 0, tzinfo=timezone.utc),
    catchup=True,
    max_active_runs=1,
    user_defined_macros={"oozie": OOZIE},
    doc_md=__doc__,
) as dag:
    data_in_input = OozieDataInSensor(task_id="data_in_input", coordinator=OOZIE, data_in="input", poke_interval=60, mode="reschedule")
    step = BashOperator(task_id="step", bash_command="run.sh {{ oozie.quote(oozie.conf(logical_date, 'inputDir')) }} {{ oozie.conf(logical_date, 'queue') }}")
    data_in_input >> step
'''

DELTA_DAG = '''
"""utc-hourly: hourly in UTC on a built-in timetable."""
from datetime import datetime, timedelta, timezone

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, DeltaTriggerTimetable
from coordc_airflow import OozieCoordinator, OozieDataIn, OozieDataInSensor, OozieDataset

OOZIE = OozieCoordinator(
    name="utc-hourly",
    xmlns="uri:oozie:coordinator:0.2",
    frequency="60",
    timezone="UTC",
    start="2020-01-01T00:00Z",
    end="2020-01-01T12:00Z",
    properties={"root": "/data"},
    datasets={"ticks": OozieDataset("${coord:hours(1)}", "2019-12-31T00:00Z", "UTC", "file://${root}/${YEAR}/${MONTH}/${DAY}/${HOUR}", "")},
    data_in={"input": OozieDataIn(dataset="ticks", instances=["${coord:current(-1)}", "${coord:current(0)}"])},
)

with DAG(
    dag_id="utc-hourly",
    schedule=DeltaTriggerTimetable(timedelta(hours=1)),
    start_date=datetime(2020, 1, 1, 0, 0, tzinfo=timezone.utc),
    end_date=datetime(2020, 1, 1, 11, 0, tzinfo=timezone.utc),
    catchup=True,
    user_defined_macros={"oozie": OOZIE},
) as dag:
    data_in_input = OozieDataInSensor(task_id="data_in_input", coordinator=OOZIE, data_in="input")
    step = BashOperator(task_id="step", bash_command="echo {{ ts }}")
    data_in_input >> step
'''

# The same two coordinators as Oozie applications, for `coordc dryrun`.
LA_DAILY_XML = """<coordinator-app name="la-daily" frequency="${coord:days(1)}" start="${start}" end="2009-03-10T07:00Z"
    timezone="America/Los_Angeles" xmlns="uri:oozie:coordinator:0.1">
  <datasets>
    <dataset name="logs" frequency="${coord:hours(6)}" initial-instance="2009-01-01T08:00Z" timezone="America/Los_Angeles">
      <uri-template>hdfs://nn:8020/logs/${market}/${YEAR}${MONTH}${DAY}${HOUR}</uri-template>
    </dataset>
  </datasets>
  <input-events>
    <data-in name="input" dataset="logs">
      <start-instance>${coord:current(-3)}</start-instance><end-instance>${coord:current(0)}</end-instance>
    </data-in>
  </input-events>
  <action><workflow><app-path>hdfs://nn:8020/apps/wf</app-path><configuration>
    <property><name>inputDir</name><value>${coord:dataIn('input')}</value></property>
    <property><name>day</name><value>${coord:formatTime(coord:nominalTime(), 'yyyyMMdd')}</value></property>
  </configuration></workflow></action>
</coordinator-app>
"""
LA_DAILY_PROPERTIES = "start=2009-03-06T08:00Z\nmarket=us\n"

UTC_HOURLY_XML = """<coordinator-app name="utc-hourly" frequency="60" start="2020-01-01T00:00Z" end="2020-01-01T12:00Z"
    timezone="UTC" xmlns="uri:oozie:coordinator:0.2">
  <datasets>
    <dataset name="ticks" frequency="${coord:hours(1)}" initial-instance="2019-12-31T00:00Z" timezone="UTC">
      <uri-template>file://${root}/${YEAR}/${MONTH}/${DAY}/${HOUR}</uri-template><done-flag></done-flag>
    </dataset>
  </datasets>
  <input-events>
    <data-in name="input" dataset="ticks"><instance>${coord:current(-1)}</instance><instance>${coord:current(0)}</instance></data-in>
  </input-events>
  <action><workflow><app-path>hdfs://nn:8020/apps/wf</app-path></workflow></action>
</coordinator-app>
"""
UTC_HOURLY_PROPERTIES = "root=/data\n"


def expected(tmp: str, dag_id: str, xml: str, properties: str) -> dict:
    """What the exporter writes: `coordc dryrun` of the original application."""
    app_dir = os.path.join(tmp, "apps", dag_id)
    os.makedirs(app_dir)
    with open(os.path.join(app_dir, "coordinator.xml"), "w") as f:
        f.write(xml)
    with open(os.path.join(app_dir, "job.properties"), "w") as f:
        f.write(properties)
    app = os.path.join(app_dir, "coordinator.xml")
    actions = json.loads(support.coordc("dryrun", app, "--processing-timezone", "UTC", "--format", "json"))["actions"]
    return {"dag_id": dag_id, "file": app, "actions": actions}


class Verifier(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)
        self.dags = os.path.join(self.tmp, "dags")
        self.expected_dir = os.path.join(self.tmp, "expected")
        os.makedirs(self.dags)
        os.makedirs(self.expected_dir)
        for name, text in (("la_daily.py", OOZIE_DAG), ("utc_hourly.py", DELTA_DAG)):
            with open(os.path.join(self.dags, name), "w") as f:
                f.write(textwrap.dedent(text))
        self.la = expected(self.tmp, "la-daily", LA_DAILY_XML, LA_DAILY_PROPERTIES)
        self.utc = expected(self.tmp, "utc-hourly", UTC_HOURLY_XML, UTC_HOURLY_PROPERTIES)
        self.assertEqual(len(self.la["actions"]), 4)  # the 2009-03-08 one at 08:00Z, the next at 07:00Z
        self.assertEqual(len(self.utc["actions"]), 12)

    def write_expected(self):
        for doc in (self.la, self.utc):
            with open(os.path.join(self.expected_dir, doc["dag_id"] + ".json"), "w") as f:
                json.dump(doc, f)

    def verify(self, *python_args: str) -> subprocess.CompletedProcess:
        command = [sys.executable, *python_args, "-m", "coordc_airflow.verify", self.dags, self.expected_dir]
        return subprocess.run(command, check=False, capture_output=True, text=True)

    def test_agreeing_dags_pass(self):
        self.write_expected()
        run = self.verify()
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertIn("la-daily: 4 runs, 4 data-ins, 0 divergences", run.stdout)
        self.assertIn("utc-hourly: 12 runs, 12 data-ins, 0 divergences", run.stdout)

    def test_divergences_are_printed(self):
        self.utc["actions"][2]["inputs"]["input"][0] = "file:///data/elsewhere"
        self.utc["actions"][5]["nominal_time"] = "2020-01-01T05:30Z"
        self.write_expected()
        run = self.verify()
        self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
        self.assertIn(
            "utc-hourly: run 2020-01-01T02:00Z: data-in input:\n"
            '  Oozie:   ["file:///data/elsewhere", "file:///data/2020/01/01/02"]\n'
            '  Airflow: ["file:///data/2020/01/01/01", "file:///data/2020/01/01/02"]',
            run.stdout,
        )
        self.assertIn(
            "utc-hourly: run 2020-01-01T05:30Z: run time:\n  Oozie:   2020-01-01T05:30Z\n  Airflow: 2020-01-01T05:00Z",
            run.stdout,
        )
        self.assertIn("utc-hourly: 12 runs, 11 data-ins, 2 divergences", run.stdout)
        self.assertIn("la-daily: 4 runs, 4 data-ins, 0 divergences", run.stdout)

    def test_a_sample_asks_for_the_run_after_each_previous_one(self):
        actions = self.utc["actions"]
        kept = [0, 3, 4, 11]
        self.utc["previous"] = [None if i == 0 else actions[i - 1]["nominal_time"] for i in kept]
        self.utc["actions"] = [actions[i] for i in kept]
        self.utc["sample"] = "4 of 12 actions"
        self.write_expected()
        run = self.verify()
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertIn("utc-hourly: 4 runs, 4 data-ins, 0 divergences (sampled: 4 of 12 actions)", run.stdout)

    def test_a_sample_finds_a_run_the_job_does_not_have(self):
        actions = self.utc["actions"]
        # Oozie's next action after 03:00 said to be 05:00: Airflow's is 04:00.
        self.utc["previous"] = [None, actions[3]["nominal_time"]]
        self.utc["actions"] = [actions[0], actions[5]]
        self.utc["sample"] = "2 of 12 actions"
        self.write_expected()
        run = self.verify()
        self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
        self.assertIn(
            "utc-hourly: run 2020-01-01T05:00Z: run time (the run after 2020-01-01T03:00Z):\n"
            "  Oozie:   2020-01-01T05:00Z\n  Airflow: 2020-01-01T04:00Z",
            run.stdout,
        )
        # The sample ends before the job does: a run follows its last action.
        self.assertIn(
            "utc-hourly: run 2020-01-01T05:00Z: run time (after the last action):\n"
            "  Oozie:   (no action)\n  Airflow: 2020-01-01T06:00Z",
            run.stdout,
        )

    def test_missing_last_action_is_an_extra_run(self):
        self.utc["actions"] = self.utc["actions"][:11]
        self.write_expected()
        run = self.verify()
        self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
        self.assertIn(
            "utc-hourly: run 2020-01-01T11:00Z: run time:\n  Oozie:   (no action)\n  Airflow: 2020-01-01T11:00Z",
            run.stdout,
        )

    def test_expected_dag_missing(self):
        self.la["dag_id"] = "gone"
        self.write_expected()
        run = self.verify()
        self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
        self.assertIn("gone: no such DAG", run.stdout)

    def test_import_errors_fail(self):
        self.write_expected()
        with open(os.path.join(self.dags, "broken.py"), "w") as f:
            f.write("from airflow.sdk import DAG\nimport no_such_module\n")
        run = self.verify()
        self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
        self.assertIn("import error in", run.stdout)
        self.assertIn("no_such_module", run.stdout)

    def test_without_airflow(self):
        self.write_expected()
        hide_airflow = (
            "import sys, runpy; sys.modules['airflow'] = None;"  # `import airflow` fails
            " runpy.run_module('coordc_airflow.verify', run_name='__main__')"
        )
        run = subprocess.run(
            [sys.executable, "-c", hide_airflow, self.dags, self.expected_dir],
            check=False,
            capture_output=True,
            text=True,
        )
        self.assertEqual(run.returncode, 3, run.stdout + run.stderr)
        self.assertIn("pip install -r", run.stderr)


if __name__ == "__main__":
    unittest.main()
