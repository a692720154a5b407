"""The job a sub-workflow action starts: its configuration, as Oozie builds it
(SubWorkflowActionExecutor.java:180-212 and SubmitXCommand.java:174 at
release-5.2.1), and EL rendered with it."""

import unittest

import support  # noqa: F401 - puts coordc on the path
from test_coordinator import hours_in_day

from coordc_airflow import CoordcAirflowError, OozieSubWorkflow

RUN = "2009-03-08T08:00Z"


def parent():
    return hours_in_day(
        properties={"market": "us", "language": "en", "user.name": "joe", "queue": "prod"},
        configuration={"day": "${coord:formatTime(coord:nominalTime(), 'yyyyMMdd')}"},
        workflow_defaults={"retries": "3"},
    )


class Configuration(unittest.TestCase):
    def test_without_propagation_only_the_user_the_app_path_and_the_action_configuration(self):
        sub = parent().sub_workflow(
            "load",
            "hdfs://nn/apps/load",
            configuration={"target": "/data/${market}/${day}", "plain": "x"},
            defaults={"target": "unused", "threads": "4"},
        )
        self.assertIsInstance(sub, OozieSubWorkflow)
        self.assertEqual(
            sub.job_configuration(RUN),
            {
                "user.name": "joe",
                "oozie.wf.application.path": "hdfs://nn/apps/load",
                # EL rendered in the parent's job, for the run.
                "target": "/data/us/20090308",
                "plain": "x",
                # The sub-workflow's own defaults, under everything.
                "threads": "4",
            },
        )
        # The parent's properties are not the child's.
        with self.assertRaisesRegex(CoordcAirflowError, "sub-workflow 'hdfs://nn/apps/load' of action 'load': no property 'queue'"):
            sub.conf(RUN, "queue")

    def test_propagation_copies_the_parent_job_under_the_action_configuration(self):
        sub = parent().sub_workflow(
            "load",
            "hdfs://nn/apps/load",
            propagate=True,
            configuration={"queue": "${queue}-sub"},
            defaults={"retries": "9", "threads": "4"},
        )
        conf = sub.job_configuration(RUN)
        self.assertEqual(conf["queue"], "prod-sub")
        self.assertEqual(conf["day"], "20090308")
        # The parent's config-default.xml value is in the parent's job: it wins
        # over the child's default (SubmitXCommand injects defaults only where absent).
        self.assertEqual(conf["retries"], "3")
        self.assertEqual(conf["threads"], "4")
        self.assertEqual(conf["oozie.wf.application.path"], "hdfs://nn/apps/load")

    def test_nested_sub_workflows_read_their_parent_job(self):
        outer = parent().sub_workflow("outer", "/apps/outer", propagate=True, configuration={"level": "1"})
        inner = outer.sub_workflow("inner", "/apps/inner", configuration={"path": "${level}/${day}"})
        self.assertEqual(inner.conf(RUN, "path"), "1/20090308")
        self.assertEqual(inner.el(RUN, "${concat(path, '!')}"), "1/20090308!")
        self.assertEqual(inner.branch(RUN, [("${path eq '1/20090308'}", ["yes"])], ["no"]), ["yes"])
        self.assertEqual(inner.branch("2009-03-09T07:00Z", [("${path eq '1/20090308'}", ["yes"])], ["no"]), ["no"])

    def test_a_value_coordc_cannot_render_is_an_error_naming_the_job(self):
        sub = parent().sub_workflow("load", "/apps/load", configuration={"x": "${fs:exists('/x')}"})
        with self.assertRaisesRegex(CoordcAirflowError, "fs:exists"):
            sub.conf(RUN, "x")


if __name__ == "__main__":
    unittest.main()
