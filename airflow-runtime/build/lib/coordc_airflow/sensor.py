"""Wait for an Oozie data-in: every instance's done flag exists."""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import urlparse

from airflow.exceptions import AirflowException
from airflow.sdk import BaseSensorOperator

from .coordinator import OozieCoordinator

HDFS_PROVIDER = "apache-airflow-providers-apache-hdfs"


class OozieDataInSensor(BaseSensorOperator):
    """Succeeds once every done-flag path of data-in `data_in` exists.

    The nominal time is a template field (the run's logical_date by default),
    so the URIs are those of the run being executed.
    """

    template_fields = ("nominal_time",)

    def __init__(
        self,
        *,
        coordinator: OozieCoordinator,
        data_in: str,
        webhdfs_conn_id: str = "webhdfs_default",
        nominal_time: str = "{{ logical_date.isoformat() }}",
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.coordinator = coordinator
        self.data_in = data_in
        self.webhdfs_conn_id = webhdfs_conn_id
        self.nominal_time = nominal_time

    @property
    def uris(self) -> list[str]:
        """The data-in's URIs at the (rendered) nominal time."""
        return self.coordinator.data_in(self.nominal_time, self.data_in)

    def poke(self, context: Any) -> bool:
        paths = self.coordinator.done_flag_paths(self.nominal_time, self.data_in)
        missing = [p for p in paths if not self._exists(p)]
        if missing:
            self.log.info("data-in %s: %d of %d not there yet: %s", self.data_in, len(missing), len(paths), missing)
        return not missing

    def _exists(self, path: str) -> bool:
        parsed = urlparse(path)
        if parsed.scheme in ("hdfs", "webhdfs"):
            # The connection names the namenode; the URI's authority is not used.
            return self._webhdfs().check_for_path(parsed.path)
        if parsed.scheme == "file":
            return os.path.exists(parsed.path)
        if parsed.scheme == "" and os.path.isabs(path):
            return os.path.exists(path)
        raise AirflowException(f"data-in {self.data_in}: cannot check {path!r}: scheme {parsed.scheme!r} unsupported")

    def _webhdfs(self):
        try:
            from airflow.providers.apache.hdfs.hooks.webhdfs import WebHDFSHook
        except ImportError as e:
            raise AirflowException(f"data-in {self.data_in} is on HDFS: pip install {HDFS_PROVIDER}") from e
        return WebHDFSHook(webhdfs_conn_id=self.webhdfs_conn_id)
