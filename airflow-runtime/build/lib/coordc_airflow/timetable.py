"""An Airflow timetable whose runs are an Oozie coordinator's nominal times."""

from __future__ import annotations

import functools
from datetime import datetime, timedelta
from typing import Any

import pendulum
from airflow.timetables.base import DagRunInfo, DataInterval, TimeRestriction, Timetable

from .coordinator import OozieCoordinator

# The schedule part of a coordinator: what the timetable serializes.
FIELDS = ("name", "xmlns", "frequency", "timezone", "start", "end", "processing_timezone")


class OozieTimetable(Timetable):
    """Runs at each nominal time, logical_date == run_after == the nominal time (UTC).

    A subclass of the core Timetable, as Airflow requires of a custom timetable
    found through a plugin (see plugin.py).
    """

    def __init__(
        self,
        *,
        name: str,
        xmlns: str,
        frequency: str,
        timezone: str,
        start: str,
        end: str,
        processing_timezone: str = "UTC",
    ) -> None:
        self.name = name
        self.xmlns = xmlns
        self.frequency = frequency
        self.timezone = timezone
        self.start = start
        self.end = end
        self.processing_timezone = processing_timezone

    @classmethod
    def deserialize(cls, data: dict[str, Any]) -> OozieTimetable:
        return cls(**{k: data[k] for k in FIELDS})

    def serialize(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in FIELDS}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, OozieTimetable) and self.serialize() == other.serialize()

    def __hash__(self) -> int:
        return hash(tuple(self.serialize().values()))

    @property
    def summary(self) -> str:
        return f"Oozie {self.frequency} in {self.timezone}"

    @property
    def description(self) -> str:  # type: ignore[override]
        return f"Oozie coordinator {self.name}: {self.frequency} in {self.timezone}, {self.start} to {self.end}"

    def infer_manual_data_interval(self, *, run_after: datetime) -> DataInterval:
        return DataInterval.exact(run_after)

    def next_dagrun_info(
        self, *, last_automated_data_interval: DataInterval | None, restriction: TimeRestriction
    ) -> DagRunInfo | None:
        last = last_automated_data_interval.start if last_automated_data_interval else None
        return self._next(last, restriction)

    def next_dagrun_info_v2(
        self, *, last_dagrun_info: DagRunInfo | None, restriction: TimeRestriction
    ) -> DagRunInfo | None:
        last = None
        if last_dagrun_info is not None:
            last = last_dagrun_info.logical_date or last_dagrun_info.run_after
        return self._next(last, restriction)

    def _next(self, last: datetime | None, restriction: TimeRestriction) -> DagRunInfo | None:
        coordinator = self._coordinator()
        if last is not None:
            after = last
        elif restriction.earliest is not None:
            after = restriction.earliest - timedelta(minutes=1)  # the first one >= earliest
        else:
            after = None
        found = coordinator.nominal_times(after=after, limit=1)
        if not found:
            return None
        nominal = found[0]
        if not restriction.catchup:
            # As Airflow's trigger timetables do: no backfill of missed runs,
            # start from the latest one due.
            now = pendulum.now("UTC")
            if nominal < now:
                nominal = coordinator.nominal_time_at_or_before(now, nominal) or nominal
        if restriction.latest is not None and nominal > restriction.latest:
            return None
        return DagRunInfo.exact(pendulum.instance(nominal).in_timezone("UTC"))

    def _coordinator(self) -> OozieCoordinator:
        return _schedule_coordinator(*(getattr(self, k) for k in FIELDS))


@functools.lru_cache(maxsize=64)
def _schedule_coordinator(*schedule: str) -> OozieCoordinator:
    """One coordinator (and its window cache) per schedule in this process.

    The scheduler deserializes a DAG, and with it a fresh timetable, again and
    again; the nominal times stay, so coordc need not run again.
    """
    return OozieCoordinator(**dict(zip(FIELDS, schedule, strict=True)))
