"""The runtime of the Airflow DAGs `coordc export airflow` writes from Oozie coordinators."""

__version__ = "0.1.0"

# Every name is imported on first use: importing Airflow reads its environment
# (AIRFLOW_HOME, ...), which `python -m coordc_airflow.verify` must set first,
# and the verifier must run far enough to say how to install a missing Airflow.
_MODULE_OF = {
    "CoordcAirflowError": "coordc",
    "OozieCoordinator": "coordinator",
    "OozieDataIn": "coordinator",
    "OozieDataOut": "coordinator",
    "OozieDataset": "coordinator",
    "OozieDataInSensor": "sensor",
    "OozieTimetable": "timetable",
    "OozieSubWorkflow": "workflow",
}

__all__ = [
    "CoordcAirflowError",
    "OozieCoordinator",
    "OozieDataIn",
    "OozieDataInSensor",
    "OozieDataOut",
    "OozieDataset",
    "OozieSubWorkflow",
    "OozieTimetable",
    "__version__",
]


def __getattr__(name: str):
    if name not in _MODULE_OF:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(f".{_MODULE_OF[name]}", __name__), name)
