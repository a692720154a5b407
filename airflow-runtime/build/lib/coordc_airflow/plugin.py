"""The Airflow plugin: lets the DAG processor and scheduler deserialize OozieTimetable."""

from airflow.plugins_manager import AirflowPlugin

from .timetable import OozieTimetable


class CoordcPlugin(AirflowPlugin):
    name = "coordc"
    timetables = [OozieTimetable]  # noqa: RUF012 - the attribute Airflow reads
