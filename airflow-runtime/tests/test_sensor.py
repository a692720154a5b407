import os
import shutil
import tempfile
import unittest

import support  # noqa: F401 - sets up Airflow's environment first

import pendulum
from airflow.exceptions import AirflowException

from coordc_airflow import OozieCoordinator, OozieDataIn, OozieDataInSensor, OozieDataset


def coordinator(uri_root: str, done_flag) -> OozieCoordinator:
    return OozieCoordinator(
        "files",
        "uri:oozie:coordinator:0.1",
        "60",
        "UTC",
        "2020-01-01T00:00Z",
        "2020-01-01T05:00Z",
        properties={"root": uri_root},
        datasets={
            "d": OozieDataset("60", "2019-01-01T00:00Z", "UTC", "${root}/${YEAR}${MONTH}${DAY}${HOUR}", done_flag)
        },
        data_in={
            "in": OozieDataIn(dataset="d", start_instance="${coord:current(-1)}", end_instance="${coord:current(0)}")
        },
    )


def rendered(oozie: OozieCoordinator, at) -> OozieDataInSensor:
    sensor = OozieDataInSensor(task_id="wait", coordinator=oozie, data_in="in")
    sensor.render_template_fields({"logical_date": at})
    return sensor


class Sensor(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)
        self.at = pendulum.datetime(2020, 1, 1, 2)
        self.dirs = [os.path.join(self.tmp, "2020010101"), os.path.join(self.tmp, "2020010102")]

    def test_uris_of_the_rendered_run(self):
        sensor = rendered(coordinator("file://" + self.tmp, None), self.at)
        self.assertEqual(sensor.nominal_time, "2020-01-01T02:00:00+00:00")
        self.assertEqual(sensor.uris, ["file://" + d for d in reversed(self.dirs)])

    def test_default_done_flag(self):
        sensor = rendered(coordinator("file://" + self.tmp, None), self.at)
        for d in self.dirs:
            os.makedirs(d)
        self.assertFalse(sensor.poke({}))
        open(os.path.join(self.dirs[0], "_SUCCESS"), "w").close()
        self.assertFalse(sensor.poke({}))
        open(os.path.join(self.dirs[1], "_SUCCESS"), "w").close()
        self.assertTrue(sensor.poke({}))

    def test_empty_done_flag_is_the_directory(self):
        sensor = rendered(coordinator(self.tmp, ""), self.at)  # a bare absolute path
        os.makedirs(self.dirs[0])
        self.assertFalse(sensor.poke({}))
        os.makedirs(self.dirs[1])
        self.assertTrue(sensor.poke({}))

    def test_custom_done_flag(self):
        sensor = rendered(coordinator("file://" + self.tmp, "ready"), self.at)
        for d in self.dirs:
            os.makedirs(d)
            open(os.path.join(d, "_SUCCESS"), "w").close()
        self.assertFalse(sensor.poke({}))
        for d in self.dirs:
            open(os.path.join(d, "ready"), "w").close()
        self.assertTrue(sensor.poke({}))

    def test_unsupported_scheme(self):
        sensor = rendered(coordinator("s3://bucket", None), self.at)
        with self.assertRaisesRegex(AirflowException, "'s3'"):
            sensor.poke({})

    def test_hdfs_needs_the_provider(self):
        try:
            import airflow.providers.apache.hdfs  # noqa: F401
        except ImportError:
            sensor = rendered(coordinator("hdfs://nn:8020/data", None), self.at)
            with self.assertRaisesRegex(AirflowException, "apache-airflow-providers-apache-hdfs"):
                sensor.poke({})
        else:
            self.skipTest("the HDFS provider is installed")


if __name__ == "__main__":
    unittest.main()
