"""The runtime of the Airflow DAGs `coordc export airflow` writes from Oozie coordinators."""

from .coordinator import (
    VERSION as __version__,
    CoordcAirflowError,
    OozieCoordinator,
    OozieDataIn,
    OozieDataOut,
    OozieDataset,
)

__all__ = [
    "CoordcAirflowError",
    "OozieCoordinator",
    "OozieDataIn",
    "OozieDataInSensor",
    "OozieDataOut",
    "OozieDataset",
    "OozieTimetable",
    "__version__",
]


def __getattr__(name: str):
    # Imported on first use: they need Airflow, and `python -m coordc_airflow.verify`
    # must run far enough to say how to install it when it is missing.
    if name == "OozieTimetable":
        from .timetable import OozieTimetable

        return OozieTimetable
    if name == "OozieDataInSensor":
        from .sensor import OozieDataInSensor

        return OozieDataInSensor
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
