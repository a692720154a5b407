"""An Oozie coordinator as an exported DAG describes it, answered by `coordc dryrun`.

Oozie's calendar rules (nominal times across DST, dataset instances, EL) live in
one place, the coordc binary. This module writes the coordinator back as XML,
runs `coordc dryrun --format json` on it a window of actions at a time, and
caches the windows; it computes no date itself.
"""

from __future__ import annotations

import bisect
import json
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from .coordc import CoordcAirflowError, coordc_binary, minute_key, minute_key_after, parse, utc
from .workflow import WorkflowJob

if TYPE_CHECKING:
    from .timetable import OozieTimetable

# Actions per `coordc dryrun` call: a year of hourly runs is 9 calls.
WINDOW = 1000

# Windows kept in memory: runs go forward, so the oldest asked for goes first.
KEPT_WINDOWS = 8

# The app-path of the synthetic coordinator: coordc cannot read it and still
# lists the actions (the workflow's own file is not needed for them).
UNUSED_APP_PATH = "coordc-airflow://unused"

@dataclass(frozen=True)
class OozieDataset:
    """A <dataset>; texts as written, their ${...} resolve from the job's properties."""

    frequency: str
    initial_instance: str
    timezone: str
    uri_template: str
    # None: no <done-flag> (Oozie's default _SUCCESS); "": the directory itself.
    done_flag: str | None = None


@dataclass(frozen=True)
class OozieDataIn:
    """A <data-in>: a start/end instance range or a list of instances."""

    dataset: str
    start_instance: str | None = None
    end_instance: str | None = None
    instances: list[str] | None = None

    def __post_init__(self) -> None:
        has_range = self.start_instance is not None or self.end_instance is not None
        if has_range == (self.instances is not None) or (
            has_range and (self.start_instance is None or self.end_instance is None)
        ):
            raise ValueError(f"data-in of dataset {self.dataset!r}: give start_instance and end_instance, or instances")


@dataclass(frozen=True)
class OozieDataOut:
    """A <data-out>."""

    dataset: str
    instance: str


@dataclass
class _Window:
    """Up to WINDOW actions, all those at or after `start` in order."""

    start: str
    actions: list[dict[str, Any]]
    times: list[str]  # the actions' nominal_time, sorted (the format sorts as text)
    # Fewer than WINDOW actions: the job ends inside this window.
    complete: bool


class OozieCoordinator(WorkflowJob):
    """A coordinator application: start/end resolved, other texts as written.

    The constructor takes the contract's names; the definitions are kept as
    `input_events`, `output_events` and `action_configuration` (Oozie's element
    names), so that `data_in`, `data_out` and `configuration` are the per-run
    answers templates call.
    """

    def __init__(
        self,
        name: str,
        xmlns: str,
        frequency: str,
        timezone: str,
        start: str,
        end: str,
        processing_timezone: str = "UTC",
        properties: dict[str, str] | None = None,
        datasets: dict[str, OozieDataset] | None = None,
        data_in: dict[str, OozieDataIn] | None = None,
        data_out: dict[str, OozieDataOut] | None = None,
        input_logic: str | None = None,
        configuration: dict[str, str] | None = None,
        workflow_defaults: dict[str, str] | None = None,
    ) -> None:
        self.name = name
        self.xmlns = xmlns
        self.frequency = frequency
        self.timezone = timezone
        self.start = start
        self.end = end
        self.processing_timezone = processing_timezone
        self.properties = dict(properties or {})
        self.datasets = dict(datasets or {})
        self.input_events = dict(data_in or {})
        self.output_events = dict(data_out or {})
        # The <input-logic> element as written: coordc reads its named nodes.
        self.input_logic = input_logic
        self.action_configuration = dict(configuration or {})
        self.workflow_defaults = dict(workflow_defaults or {})
        self._windows: dict[str, _Window] = {}  # keyed by the window's start
        super().__init__()

    def __repr__(self) -> str:
        return f"OozieCoordinator(name={self.name!r}, frequency={self.frequency!r}, timezone={self.timezone!r})"

    def timetable(self) -> OozieTimetable:
        """The Airflow timetable of this coordinator's nominal times."""
        from .timetable import OozieTimetable

        return OozieTimetable(
            name=self.name,
            xmlns=self.xmlns,
            frequency=self.frequency,
            timezone=self.timezone,
            start=self.start,
            end=self.end,
            processing_timezone=self.processing_timezone,
        )

    def nominal_times(self, after: datetime | str | None = None, limit: int = WINDOW) -> list[datetime]:
        """Up to `limit` nominal times (UTC) later than `after` (from the start when None)."""
        key = minute_key(utc(self.start)) if after is None else minute_key_after(utc(after))
        found: list[str] = []
        while len(found) < limit:
            window, index = self._window_at_or_after(key)
            taken = window.times[index : index + limit - len(found)]
            found.extend(taken)
            if window.complete and index + len(taken) == len(window.times):
                break
            key = minute_key_after(parse(found[-1]))
        return [parse(t) for t in found]

    def nominal_time_at_or_before(self, moment: datetime, not_before: datetime) -> datetime | None:
        """The latest nominal time <= `moment` and >= `not_before`, if any.

        Looks back from `moment` over growing spans, so a job that started
        years ago costs a few coordc calls, not one per 1000 runs since then.
        """
        span = timedelta(days=1)
        while True:
            low = max(not_before, moment - span)
            times = [t for t in self.nominal_times(after=low - timedelta(minutes=1), limit=WINDOW) if t <= moment]
            while times and len(times) == WINDOW:  # the window stopped before `moment`
                more = [t for t in self.nominal_times(after=times[-1], limit=WINDOW) if t <= moment]
                if not more:
                    break
                times = more
            if times:
                return times[-1]
            if low <= not_before:
                return None
            span *= 8

    def action(self, nominal_time: datetime | str) -> dict[str, Any]:
        """The `coordc dryrun --format json` action whose nominal time this is."""
        moment = utc(nominal_time)
        key = minute_key(moment)
        # Nominal times are whole minutes: a time with seconds has no action.
        if parse(key) == moment:
            window, index = self._window_at_or_after(key)
            if index < len(window.times) and window.times[index] == key:
                return window.actions[index]
            # Times that go back (Oozie's cron DST shift) leave the listing out
            # of order there: look through the window, then the one from this time.
            for window in (window, self._window_at(key)):
                if key in window.times:
                    return window.actions[window.times.index(key)]
        shown = key if parse(key) == moment else moment.isoformat()
        raise CoordcAirflowError(f"coordinator {self.name!r} has no action at nominal time {shown}")

    def data_in(self, nominal_time: datetime | str, name: str) -> list[str]:
        """The URIs of data-in `name` for the action at `nominal_time`."""
        return _member(self.action(nominal_time)["inputs"], name, f"data-in of coordinator {self.name!r}")

    def data_out(self, nominal_time: datetime | str, name: str) -> list[str]:
        """The URIs of data-out `name` for the action at `nominal_time`."""
        return _member(self.action(nominal_time)["outputs"], name, f"data-out of coordinator {self.name!r}")

    def configuration(self, nominal_time: datetime | str) -> dict[str, str]:
        """The action's <configuration>, every EL resolved."""
        return dict(self.action(nominal_time)["workflow"]["configuration"])

    def job_configuration(self, logical_date: datetime | str) -> dict[str, str]:
        """The workflow job's configuration for the run: the action's resolved
        <configuration> over the job properties over the workflow's
        config-default.xml and <parameters> defaults."""
        return {**self.workflow_defaults, **self.properties, **self.configuration(logical_date)}

    def _describe(self) -> str:
        return f"the workflow job of coordinator {self.name!r}"

    def done_flag_paths(self, nominal_time: datetime | str, name: str) -> list[str]:
        """What must exist for data-in `name` to be available: each URI's done flag."""
        data_in = _member(self.input_events, name, f"data-in of coordinator {self.name!r}")
        flag = _member(self.datasets, data_in.dataset, f"dataset of coordinator {self.name!r}").done_flag
        if flag is None:
            flag = "_SUCCESS"  # Oozie's default done flag
        return [uri if flag == "" else f"{uri}/{flag}" for uri in self.data_in(nominal_time, name)]

    def coordinator_xml(self) -> str:
        """The synthetic coordinator application coordc reads."""
        out = [
            (
                f"<coordinator-app name={_attr(self.name)} frequency={_attr(self.frequency)}"
                f" start={_attr(self._as_written(self.start))} end={_attr(self._as_written(self.end))}"
                f" timezone={_attr(self.timezone)} xmlns={_attr(self.xmlns)}>"
            )
        ]
        if self.datasets:
            out.append("<datasets>")
            for name, ds in self.datasets.items():
                out.append(
                    f"<dataset name={_attr(name)} frequency={_attr(ds.frequency)}"
                    f" initial-instance={_attr(ds.initial_instance)} timezone={_attr(ds.timezone)}>"
                    f"<uri-template>{escape(ds.uri_template)}</uri-template>"
                )
                if ds.done_flag is not None:
                    out.append(f"<done-flag>{escape(ds.done_flag)}</done-flag>")
                out.append("</dataset>")
            out.append("</datasets>")
        if self.input_events:
            out.append("<input-events>")
            for name, di in self.input_events.items():
                out.append(f"<data-in name={_attr(name)} dataset={_attr(di.dataset)}>")
                if di.instances is not None:
                    out.extend(f"<instance>{escape(i)}</instance>" for i in di.instances)
                else:
                    out.append(f"<start-instance>{escape(di.start_instance or '')}</start-instance>")
                    out.append(f"<end-instance>{escape(di.end_instance or '')}</end-instance>")
                out.append("</data-in>")
            out.append("</input-events>")
        if self.input_logic:
            out.append(self.input_logic)
        if self.output_events:
            out.append("<output-events>")
            for name, do in self.output_events.items():
                out.append(
                    f"<data-out name={_attr(name)} dataset={_attr(do.dataset)}>"
                    f"<instance>{escape(do.instance)}</instance></data-out>"
                )
            out.append("</output-events>")
        out.append(f"<action><workflow><app-path>{UNUSED_APP_PATH}</app-path>")
        if self.action_configuration:
            out.append(_hadoop_xml(self.action_configuration))
        out.append("</workflow></action></coordinator-app>")
        return "\n".join(out) + "\n"

    def job_xml(self) -> str:
        """The job configuration (`properties`) as a Hadoop XML file."""
        return _hadoop_xml(self.properties) + "\n"

    def _as_written(self, utc: str) -> str:
        """A UTC time in the form Oozie reads under the processing time zone.

        Under `GMT+HHMM` Oozie reads and prints dates as `yyyy-MM-dd'T'HH:mm+HHMM`,
        not in UTC (core/src/main/java/org/apache/oozie/util/DateUtils.java:75);
        coordc requires the same. Texts not in the UTC form pass unchanged.
        """
        offset = re.fullmatch(r"GMT([+-])(\d\d)(\d\d)", self.processing_timezone)
        if offset is None or not re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\dZ", utc):
            return utc
        sign, hours, minutes = offset.groups()
        shift = timedelta(hours=int(hours), minutes=int(minutes)) * (1 if sign == "+" else -1)
        return (parse(utc) + shift).strftime("%Y-%m-%dT%H:%M") + sign + hours + minutes

    def _window_at(self, key: str) -> _Window:
        """The window that starts at `key`, asked for now if need be."""
        return self._windows.get(key) or self._fetch(key)

    def _window_at_or_after(self, key: str) -> tuple[_Window, int]:
        """A window holding the first action at or after `key` (if any), and that action's index."""
        for window in reversed(self._windows.values()):  # the latest first: runs go forward
            if window.start <= key and (window.complete or window.times[-1] >= key):
                return window, bisect.bisect_left(window.times, key)
        return self._fetch(key), 0

    def _fetch(self, key: str) -> _Window:
        """The actions from `key` on, asked of coordc and kept."""
        window = self._dryrun(key)
        self._windows[key] = window
        while len(self._windows) > KEPT_WINDOWS:
            del self._windows[next(iter(self._windows))]
        return window

    def _dryrun(self, start: str) -> _Window:
        with tempfile.TemporaryDirectory(prefix="coordc-airflow-") as tmp:
            app = os.path.join(tmp, "coordinator.xml")
            job = os.path.join(tmp, "job.xml")
            with open(app, "w", encoding="utf-8") as f:
                f.write(self.coordinator_xml())
            with open(job, "w", encoding="utf-8") as f:
                f.write(self.job_xml())
            command = [
                coordc_binary(), "dryrun", app, "--config", job,
                "--processing-timezone", self.processing_timezone,
                "--from", self._as_written(start), "--limit", str(WINDOW), "--format", "json",
            ]  # fmt: skip
            run = subprocess.run(command, check=False, cwd=tmp, capture_output=True, text=True)
        if run.returncode != 0:
            raise CoordcAirflowError(
                f"coordc dryrun failed on coordinator {self.name!r} (exit {run.returncode}):\n{run.stderr}"
            )
        actions = json.loads(run.stdout)["actions"]
        return _Window(start, actions, [a["nominal_time"] for a in actions], len(actions) < WINDOW)


def _hadoop_xml(values: dict[str, str]) -> str:
    body = "".join(
        f"<property><name>{escape(k)}</name><value>{escape(v)}</value></property>" for k, v in values.items()
    )
    return f"<configuration>{body}</configuration>"


def _attr(value: str) -> str:
    return '"' + escape(value, {'"': "&quot;", "\n": "&#10;", "\t": "&#9;"}) + '"'


def _member(mapping: dict, name: str, what: str):
    if name not in mapping:
        raise CoordcAirflowError(f"no {what} named {name!r} (known: {', '.join(sorted(mapping)) or 'none'})")
    return mapping[name]


