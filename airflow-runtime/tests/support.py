"""Shared by the tests: an isolated Airflow home, the coordc binary, the corpus."""

import os
import subprocess
import tempfile

# Before anything imports Airflow: no database, config or DAGs of the user's.
AIRFLOW_HOME = tempfile.mkdtemp(prefix="coordc-airflow-test-home-")
os.environ["AIRFLOW_HOME"] = AIRFLOW_HOME
os.environ["AIRFLOW__CORE__LOAD_EXAMPLES"] = "False"
os.environ["AIRFLOW__CORE__UNIT_TEST_MODE"] = "False"

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(REPO, "corpus")


def coordc(*args: str) -> str:
    """Run the coordc binary the runtime finds ($COORDC_BIN in CI); its stdout."""
    from coordc_airflow.coordc import coordc_binary

    return subprocess.run([coordc_binary(), *args], check=True, capture_output=True, text=True).stdout
