"""Check exported DAGs against the Oozie actions of their coordinators, with no database.

    python -m coordc_airflow.verify DAG_DIR EXPECTED_DIR [--timings]

EXPECTED_DIR holds <dag_id>.json: {"dag_id", "file", "actions": [coordc dryrun
actions]}: every action of the job's life, or, for a long job, a sample with
"sample" (what was kept) and "previous" (each action's previous nominal time).
Each DAG is loaded as the DAG processor loads it, its runs are computed as the
scheduler computes them (for a sample: the next run after each previous one),
its templates rendered as the task runner renders them; every difference from
the actions is printed.
Exit 0: none; 1: a difference or an import error; 3: Airflow is not installed.
"""

from __future__ import annotations

import argparse
import copy
import difflib
import functools
import json
import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

REQUIREMENTS = "airflow-runtime/requirements-verify.txt"


@dataclass
class Timings:
    """Seconds spent per phase, for --timings."""

    phases: dict[str, float] = field(default_factory=dict)

    def add(self, phase: str, since: float) -> float:
        now = time.perf_counter()
        self.phases[phase] = self.phases.get(phase, 0.0) + now - since
        return now


@dataclass
class DagReport:
    dag_id: str
    runs: int = 0
    data_ins: int = 0
    divergences: int = 0
    # What a sampled comparison kept, for a long job.
    sample: str | None = None

    def diverge(self, run: str, what: str, oozie: Any, airflow: Any) -> None:
        self.divergences += 1
        print(f"{self.dag_id}: run {run}: {what}:\n  Oozie:   {_show(oozie)}\n  Airflow: {_show(airflow)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m coordc_airflow.verify", description=__doc__.splitlines()[0])
    parser.add_argument("dag_dir")
    parser.add_argument("expected_dir")
    parser.add_argument("--timings", action="store_true", help="print the seconds spent per phase on stderr")
    args = parser.parse_args(argv)
    home = tempfile.mkdtemp(prefix="coordc-airflow-home-")
    # Airflow reads these when imported: a throw-away home, so no database or
    # config of the user's is touched, and no example DAGs.
    os.environ.update(
        AIRFLOW_HOME=home,
        AIRFLOW__CORE__LOAD_EXAMPLES="False",
        AIRFLOW__CORE__UNIT_TEST_MODE="False",
        AIRFLOW__CORE__DAGS_FOLDER=os.path.abspath(args.dag_dir),
    )
    try:
        timings = Timings()
        started = time.perf_counter()
        try:
            import airflow  # noqa: F401
        except ImportError as e:
            print(f"cannot import airflow ({e}): pip install -r {REQUIREMENTS}", file=sys.stderr)
            return 3
        timings.add("import airflow", started)
        failed = verify(args.dag_dir, args.expected_dir, timings)
        if args.timings:
            for phase, seconds in timings.phases.items():
                print(f"timing {phase}: {seconds:.2f} s", file=sys.stderr)
        return 1 if failed else 0
    finally:
        shutil.rmtree(home, ignore_errors=True)


def verify(dag_dir: str, expected_dir: str, timings: Timings) -> bool:
    """Print every import error and divergence; True when there was any."""
    started = time.perf_counter()
    from airflow.dag_processing.dagbag import DagBag

    bag = DagBag(dag_folder=dag_dir)
    started = timings.add("dagbag", started)
    failed = False
    for path, error in sorted(bag.import_errors.items()):
        print(f"import error in {path}:\n{error}")
        failed = True
    for name in sorted(os.listdir(expected_dir)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(expected_dir, name), encoding="utf-8") as f:
            expected = json.load(f)
        dag = bag.dags.get(expected["dag_id"])
        if dag is None:
            print(f"{expected['dag_id']}: no such DAG in {dag_dir} (expected by {name})")
            failed = True
            continue
        report = verify_dag(dag, expected, timings)
        sampled = f" (sampled: {report.sample})" if report.sample else ""
        print(
            f"{report.dag_id}: {report.runs} runs, {report.data_ins} data-ins, {report.divergences} divergences{sampled}"
        )
        failed = failed or report.divergences > 0
    return failed


def verify_dag(dag: Any, expected: dict[str, Any], timings: Timings) -> DagReport:
    report = DagReport(dag.dag_id)
    actions = expected["actions"]
    oozie_times = [_parse_utc(a["nominal_time"]) for a in actions]
    started = time.perf_counter()
    serialized = as_dag_processor_stores(dag)
    started = timings.add("serialize", started)
    if "previous" in expected:
        runs = sampled_runs(report, serialized, actions, expected["previous"])
        report.sample = expected.get("sample")
    else:
        runs = scheduled_runs(serialized, oozie_times[-1] if oozie_times else None)
        compare_run_times(report, actions, oozie_times, [info.logical_date for info in runs])
    started = timings.add("runs", started)
    report.runs = len(runs)

    env = dag.get_template_env()
    # Jinja compiles a text anew on each from_string; the same few texts render
    # for every run, so compile each once (most of the time otherwise).
    env.from_string = functools.lru_cache(maxsize=None)(env.from_string)
    # A scheduled run has no conf, so each task's params are the same for every run.
    params = {task.task_id: _params(dag, task) for task in dag.tasks}
    run_of = {info.logical_date: info for info in runs}
    for action, nominal in zip(actions, oozie_times, strict=True):
        info = run_of.get(nominal)
        if info is not None:  # else reported as a run time divergence
            run_id = serialized.timetable.generate_run_id(
                run_type=_scheduled(), run_after=info.run_after, data_interval=info.data_interval
            )
            compare_run(report, dag, env, params, action, info, run_id)
    timings.add("render and compare", started)
    return report


def compare_run_times(report: DagReport, actions: list[dict], oozie_times: list[datetime], run_times: list) -> None:
    """Each nominal time without a run, each run without an action; a moved one as one pair."""
    matcher = difflib.SequenceMatcher(a=oozie_times, b=run_times, autojunk=False)
    for op, o1, o2, a1, a2 in matcher.get_opcodes():
        if op == "equal":
            continue
        for i in range(max(o2 - o1, a2 - a1)):
            oozie = actions[o1 + i]["nominal_time"] if o1 + i < o2 else "(no action)"
            airflow = _oozie_format(run_times[a1 + i]) if a1 + i < a2 else "(no run)"
            report.diverge(oozie if o1 + i < o2 else airflow, "run time", oozie, airflow)


def compare_run(report: DagReport, dag: Any, env: Any, params: dict, action: dict, info: Any, run_id: str) -> None:
    """Render every task of one run; compare data-in sensors' URIs and the configuration."""
    run = action["nominal_time"]
    for task in dag.tasks:
        # The task runner renders the tasks of the DAG file it parses, not the serialized ones.
        rendered = copy.copy(task)
        try:
            context = template_context(dag, task, info, run_id, params[task.task_id])
            rendered.render_template_fields(context, jinja_env=env)
            uris = rendered.uris if _is_data_in_sensor(task) else None
        except Exception as e:  # noqa: BLE001 - any failure is the finding
            report.diverge(run, f"templates of task {task.task_id}", "(renders)", f"{type(e).__name__}: {e}")
            continue
        branch = getattr(rendered, "python_callable", None)
        if _is_decision(branch):
            # A decision: coordc must render its cases for the run, and the
            # tasks it chooses must be the DAG's.
            try:
                chosen = branch(logical_date=info.logical_date, **rendered.op_kwargs)
                unknown = [t for t in chosen if t not in dag.task_dict]
                if unknown:
                    raise ValueError(f"no task {unknown}")
            except Exception as e:  # noqa: BLE001 - any failure is the finding
                report.diverge(run, f"decision of task {task.task_id}", "(decides)", f"{type(e).__name__}: {e}")
        if uris is not None:
            report.data_ins += 1
            want = action["inputs"].get(task.data_in, "(no such data-in)")
            if uris != want:
                report.diverge(run, f"data-in {task.data_in}", want, uris)
    oozie = (dag.user_defined_macros or {}).get("oozie")
    if oozie is None:
        return
    want = action["workflow"]["configuration"]
    try:
        got = oozie.configuration(info.logical_date)
    except Exception as e:  # noqa: BLE001
        report.diverge(run, "configuration", want, f"{type(e).__name__}: {e}")
        return
    for key in sorted(set(want) | set(got)):
        if want.get(key) != got.get(key):
            report.diverge(run, f"configuration {key}", want.get(key, "(unset)"), got.get(key, "(unset)"))


def as_dag_processor_stores(dag: Any) -> Any:
    """The DAG as the scheduler sees it: serialized by the DAG processor, read back."""
    from airflow.serialization.serialized_objects import DagSerialization

    return DagSerialization.from_dict(DagSerialization.to_dict(dag))


def scheduled_runs(serialized: Any, until: datetime | None) -> list[Any]:
    """The runs the scheduler creates for the serialized DAG, in order.

    Stops after the first run later than `until` or not later than the run
    before it (either a divergence).
    """
    restriction = _restriction(serialized)
    runs: list[Any] = []
    info = None
    while True:
        info = serialized.timetable.next_dagrun_info_v2(last_dagrun_info=info, restriction=restriction)
        if info is None:
            break
        # The scheduler reads the last run back from its database, in UTC.
        info = _in_utc(info)
        runs.append(info)
        if (until is None or info.logical_date > until) or (
            len(runs) > 1 and info.logical_date <= runs[-2].logical_date
        ):
            break
    return runs


def sampled_runs(report: DagReport, serialized: Any, actions: list[dict], previous: list[str | None]) -> list[Any]:
    """For each sampled action, the run the scheduler creates after the one before it.

    The scheduler reads the last run back from its database
    (Timetable.run_info_from_dag_run); each previous run is stored as the run
    the timetable gives for it: run_after and data interval at its nominal time.
    The last action of the job is always sampled: no run may follow it.
    """
    restriction = _restriction(serialized)
    timetable = serialized.timetable
    runs: list[Any] = []
    for action, before in zip(actions, previous, strict=True):
        last = None if before is None else timetable.run_info_from_dag_run(dag_run=_stored_run(before))
        info = timetable.next_dagrun_info_v2(last_dagrun_info=last, restriction=restriction)
        info = None if info is None else _in_utc(info)
        nominal = action["nominal_time"]
        if info is None or _oozie_format(info.logical_date) != nominal:
            airflow = "(no run)" if info is None else _oozie_format(info.logical_date)
            report.diverge(nominal, f"run time (the run after {before or 'the start'})", nominal, airflow)
            continue
        if info.data_interval != type(info.data_interval)(info.logical_date, info.logical_date):
            report.diverge(nominal, "data interval", f"{nominal} to {nominal}", str(info.data_interval))
        runs.append(info)
    if actions:
        stored = _stored_run(actions[-1]["nominal_time"])
        after = timetable.next_dagrun_info_v2(
            last_dagrun_info=timetable.run_info_from_dag_run(dag_run=stored), restriction=restriction
        )
        if after is not None:
            report.diverge(actions[-1]["nominal_time"], "run time (after the last action)", "(no action)",
                           _oozie_format(_in_utc(after).logical_date))  # fmt: skip
    return runs


def _stored_run(nominal_time: str) -> Any:
    """The columns the scheduler reads of a stored run of a trigger timetable, at `nominal_time`."""
    from types import SimpleNamespace

    at = _pendulum_utc(_parse_utc(nominal_time))
    return SimpleNamespace(
        run_after=at, data_interval_start=at, data_interval_end=at, partition_key=None, partition_date=None
    )


def _restriction(serialized: Any) -> Any:
    """The scheduler's bounds of the DAG's runs, with catchup (every run of the job's life)."""
    from airflow.timetables.base import TimeRestriction

    bounds = serialized._time_restriction  # start/end of the DAG and its tasks, as the scheduler takes them
    return TimeRestriction(bounds.earliest, bounds.latest, catchup=True)


def template_context(dag: Any, task: Any, info: Any, run_id: str, params: Any) -> dict[str, Any]:
    """The keys the task runner sets (RuntimeTaskInstance.get_template_context) that need no server."""
    from airflow.sdk.execution_time.context import MacrosAccessor

    logical_date = info.logical_date
    ds = logical_date.strftime("%Y-%m-%d")
    ts = logical_date.isoformat()
    return {
        "dag": dag,
        "task": task,
        "run_id": run_id,
        "params": params,
        "macros": MacrosAccessor(),
        "inlets": task.inlets,
        "outlets": task.outlets,
        "map_index_template": task.map_index_template,
        "logical_date": logical_date,
        "ds": ds,
        "ds_nodash": ds.replace("-", ""),
        "ts": ts,
        "ts_nodash": logical_date.strftime("%Y%m%dT%H%M%S"),
        "ts_nodash_with_tz": ts.replace("-", "").replace(":", ""),
        "task_instance_key_str": f"{dag.dag_id}__{task.task_id}__{ds.replace('-', '')}",
        "data_interval_start": info.data_interval.start,
        "data_interval_end": info.data_interval.end,
    }


def _params(dag: Any, task: Any) -> Any:
    from airflow.sdk.definitions.param import process_params

    return process_params(dag, task, None, suppress_exception=False)


def _scheduled() -> Any:
    from airflow.utils.types import DagRunType

    return DagRunType.SCHEDULED


def _is_decision(callable_: Any) -> bool:
    from .workflow import is_branch  # (imports Airflow: only once the environment is set)

    return is_branch(callable_)


def _is_data_in_sensor(task: Any) -> bool:
    from .sensor import OozieDataInSensor

    return isinstance(task, OozieDataInSensor)


def _pendulum_utc(moment: datetime) -> Any:
    import pendulum

    return pendulum.instance(moment).in_timezone("UTC")


def _in_utc(info: Any) -> Any:
    def utc(moment: datetime | None) -> Any:
        return None if moment is None else _pendulum_utc(moment)

    interval = info.data_interval
    if interval is not None:
        interval = type(interval)(utc(interval.start), utc(interval.end))
    return info._replace(run_after=utc(info.run_after), data_interval=interval)


def _parse_utc(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%MZ").replace(tzinfo=timezone.utc)


def _oozie_format(moment: datetime) -> str:
    utc = moment.astimezone(timezone.utc)
    return utc.strftime("%Y-%m-%dT%H:%MZ" if utc.second == 0 and utc.microsecond == 0 else "%Y-%m-%dT%H:%M:%S.%fZ")


def _show(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


if __name__ == "__main__":
    sys.exit(main())
