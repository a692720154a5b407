import os
import tempfile
import textwrap
import unittest
from datetime import datetime, timedelta, timezone

import support  # sets up Airflow's environment first

import pendulum
from airflow.sdk import DAG
from airflow.serialization.serialized_objects import DagSerialization
from airflow.timetables.base import DagRunInfo, TimeRestriction

from coordc_airflow import OozieCoordinator, OozieTimetable

from test_coordinator import hours_in_day

UTC = pendulum.UTC


def hourly(start: str, end: str) -> OozieCoordinator:
    return OozieCoordinator("hourly", "uri:oozie:coordinator:0.1", "${coord:hours(1)}", "UTC", start, end)


class Serialization(unittest.TestCase):
    def test_round_trip_through_dag_serialization(self):
        timetable = hours_in_day().timetable()
        with DAG("rt", schedule=timetable, start_date=datetime(2009, 3, 7, 8, tzinfo=timezone.utc)) as dag:
            pass
        data = DagSerialization.to_dict(dag)
        self.assertEqual(data["dag"]["timetable"]["__var"], timetable.serialize())
        self.assertEqual(data["dag"]["timetable"]["__type"], "coordc_airflow.timetable.OozieTimetable")
        restored = DagSerialization.from_dict(data).timetable
        self.assertIsInstance(restored, OozieTimetable)  # found through the plugin's entry point
        self.assertEqual(restored, timetable)
        self.assertEqual(restored.summary, "Oozie ${coord:days(1)} in America/Los_Angeles")
        self.assertEqual([f for f in os.listdir(support.AIRFLOW_HOME) if f.endswith(".db")], [])  # no database

    def test_dag_file_imports_cleanly(self):
        from airflow.dag_processing.dagbag import DagBag

        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "d.py"), "w") as f:
                f.write(
                    textwrap.dedent("""
                    from datetime import datetime, timezone
                    from airflow.sdk import DAG
                    from coordc_airflow import OozieCoordinator
                    OOZIE = OozieCoordinator("c", "uri:oozie:coordinator:0.1", "60", "UTC", "2020-01-01T00:00Z", "2020-01-02T00:00Z")
                    with DAG("d", schedule=OOZIE.timetable(), start_date=datetime(2020, 1, 1, tzinfo=timezone.utc)):
                        pass
                """)
                )
            bag = DagBag(dag_folder=tmp)
        self.assertEqual(bag.import_errors, {})
        self.assertIsInstance(bag.dags["d"].timetable, OozieTimetable)


class NextRun(unittest.TestCase):
    def test_every_nominal_time_then_none(self):
        timetable = hours_in_day().timetable()
        restriction = TimeRestriction(pendulum.datetime(2009, 3, 7, 8), pendulum.datetime(2009, 3, 10, 7), True)
        info, times = None, []
        while (info := timetable.next_dagrun_info_v2(last_dagrun_info=info, restriction=restriction)) is not None:
            self.assertEqual(info.logical_date, info.run_after)
            self.assertEqual(info.logical_date.tzinfo, UTC)
            times.append(info.logical_date)
        self.assertEqual(
            times,
            [pendulum.datetime(2009, 3, 7, 8), pendulum.datetime(2009, 3, 8, 8), pendulum.datetime(2009, 3, 9, 7)],
        )

    def test_earliest_and_latest_are_inclusive(self):
        timetable = hours_in_day().timetable()
        last = pendulum.datetime(2009, 3, 9, 7)
        self.assertEqual(
            timetable.next_dagrun_info_v2(last_dagrun_info=None, restriction=TimeRestriction(last, last, True)),
            DagRunInfo.exact(last),
        )
        before = TimeRestriction(None, last - timedelta(seconds=1), True)
        info = DagRunInfo.exact(pendulum.datetime(2009, 3, 8, 8))
        self.assertIsNone(timetable.next_dagrun_info_v2(last_dagrun_info=info, restriction=before))
        self.assertEqual(
            timetable.next_dagrun_info_v2(
                last_dagrun_info=None, restriction=TimeRestriction(None, None, True)
            ).logical_date,
            pendulum.datetime(2009, 3, 7, 8),
        )

    def test_last_run_in_another_zone(self):
        timetable = hours_in_day().timetable()
        info = DagRunInfo.exact(pendulum.datetime(2009, 3, 7, 8).in_timezone("America/Los_Angeles"))
        following = timetable.next_dagrun_info_v2(last_dagrun_info=info, restriction=TimeRestriction(None, None, True))
        self.assertEqual(following.logical_date, pendulum.datetime(2009, 3, 8, 8))

    def test_no_catchup_starts_at_the_latest_due(self):
        timetable = hourly("2020-01-01T00:00Z", "2099-01-01T00:00Z").timetable()
        earliest = pendulum.datetime(2020, 1, 1)
        before = pendulum.now("UTC").start_of("hour")
        info = timetable.next_dagrun_info_v2(last_dagrun_info=None, restriction=TimeRestriction(earliest, None, False))
        self.assertIn(info.logical_date, (before, pendulum.now("UTC").start_of("hour")))
        # A last run long ago: still no backfill.
        old = DagRunInfo.exact(pendulum.datetime(2021, 5, 1))
        info = timetable.next_dagrun_info_v2(last_dagrun_info=old, restriction=TimeRestriction(earliest, None, False))
        self.assertIn(info.logical_date, (before, pendulum.now("UTC").start_of("hour")))
        # With catchup, the next one after the last run.
        info = timetable.next_dagrun_info_v2(last_dagrun_info=old, restriction=TimeRestriction(earliest, None, True))
        self.assertEqual(info.logical_date, pendulum.datetime(2021, 5, 1, 1))

    def test_no_catchup_before_the_start(self):
        timetable = hourly("2090-01-01T00:00Z", "2099-01-01T00:00Z").timetable()
        info = timetable.next_dagrun_info_v2(last_dagrun_info=None, restriction=TimeRestriction(None, None, False))
        self.assertEqual(info.logical_date, pendulum.datetime(2090, 1, 1))

    def test_manual_run(self):
        at = pendulum.datetime(2024, 1, 1, 12, 34)
        interval = hours_in_day().timetable().infer_manual_data_interval(run_after=at)
        self.assertEqual((interval.start, interval.end), (at, at))


if __name__ == "__main__":
    unittest.main()
