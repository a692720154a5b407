"""The workflow jobs a coordinator's runs start: what their tasks' templates read.

A coordinator action starts a workflow job (OozieCoordinator is that job's
scope); a sub-workflow action of a workflow starts a child job
(OozieSubWorkflow). Each job has its own configuration, which `conf` reads
and with which `el` and `branch` render workflow EL. Every EL value comes from
the coordc binary (`coordc eval`), which evaluates it as Oozie's EL engine does.
"""

from __future__ import annotations

import json
import shlex
import subprocess
from datetime import datetime
from typing import Any

from .coordc import CoordcAirflowError, coordc_binary, minute_key, utc

# Oozie's property naming the workflow application a job runs (OozieClient.APP_PATH).
APP_PATH = "oozie.wf.application.path"


class WorkflowJob:
    """A workflow job of each run: its configuration, and EL rendered with it."""

    def __init__(self) -> None:
        self._rendered: dict[tuple[str, str], str] = {}  # el's answers, by run and text

    def job_configuration(self, logical_date: datetime | str) -> dict[str, str]:
        """Every property of the job of the run at `logical_date`."""
        raise NotImplementedError

    def _describe(self) -> str:
        """The job, for messages."""
        raise NotImplementedError

    def conf(self, logical_date: datetime | str, key: str) -> str:
        """The job's value of `key` for the run."""
        configuration = self.job_configuration(logical_date)
        if key not in configuration:
            raise CoordcAirflowError(f"{self._describe()}: no property {key!r} in its configuration")
        return configuration[key]

    def branch(
        self, logical_date: datetime | str, cases: list[tuple[str, list[str]]], default: list[str]
    ) -> list[str]:
        """A decision node for the run at `logical_date` (a BranchPythonOperator's callable).

        The tasks of the first case whose predicate renders to `true`, else the
        default's (Oozie's DecisionActionExecutor.java:57 compares the trimmed
        text with "true").
        """
        values = self.render(logical_date, [predicate for predicate, _ in cases])
        for (_, targets), value in zip(cases, values, strict=True):
            if value.strip() == "true":
                return list(targets)
        return list(default)

    def el(self, logical_date: datetime | str, text: str) -> str:
        """`text` (workflow EL that reads only the configuration) rendered for the run."""
        key = (minute_key(utc(logical_date)), text)
        if key not in self._rendered:
            self._rendered[key] = self.render(logical_date, [text])[0]
        return self._rendered[key]

    def render(self, logical_date: datetime | str, texts: list[str]) -> list[str]:
        """`texts` rendered by coordc with the workflow EL library and the run's
        configuration, as `conf` reads it; a text coordc cannot render is an error."""
        configuration = self.job_configuration(logical_date)
        lines = "".join(
            json.dumps({"id": i, "expr": text, "vars": configuration}) + "\n" for i, text in enumerate(texts)
        )
        run = subprocess.run(
            [coordc_binary(), "eval", "--context", "workflow", "--batch", "-"],
            input=lines,
            capture_output=True,
            text=True,
            check=False,
        )
        results = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
        if len(results) != len(texts):
            raise CoordcAirflowError(f"coordc eval failed (exit {run.returncode}):\n{run.stderr}")
        for text, result in zip(texts, results, strict=True):
            if not result.get("ok"):
                raise CoordcAirflowError(f"{self._describe()}: {text!r}: {result.get('error')}")
        return [result["value"] for result in results]

    @staticmethod
    def quote(value: str) -> str:
        """The value as one shell word, for templates of shell commands."""
        return shlex.quote(value)

    def sub_workflow(
        self,
        action: str,
        app_path: str,
        propagate: bool = False,
        configuration: dict[str, str] | None = None,
        defaults: dict[str, str] | None = None,
    ) -> OozieSubWorkflow:
        """The child job that this job's sub-workflow action `action` starts."""
        return OozieSubWorkflow(self, action, app_path, propagate, configuration, defaults)


class OozieSubWorkflow(WorkflowJob):
    """The job a sub-workflow action starts, as SubWorkflowActionExecutor.start
    builds its configuration (core/src/main/java/org/apache/oozie/action/oozie/
    SubWorkflowActionExecutor.java:180-212 at release-5.2.1), then SubmitXCommand
    (:174) and the workflow's <parameters> complete it:

    1. with <propagate-configuration/>, every property of the parent's job;
    2. the parent's user (`user.name`, from its proto action configuration:
       :204-205 and WorkflowAppService.java:174-176);
    3. the app-path (`oozie.wf.application.path`);
    4. the action's <configuration>, its EL rendered in the parent's job;
    5. under all of them, the sub-workflow's config-default.xml, then the
       defaults of its <parameters> (`defaults`, config-default.xml's winning).
    """

    def __init__(
        self,
        parent: WorkflowJob,
        action: str,
        app_path: str,
        propagate: bool = False,
        configuration: dict[str, str] | None = None,
        defaults: dict[str, str] | None = None,
    ) -> None:
        super().__init__()
        self.parent = parent
        self.action = action
        self.app_path = app_path
        self.propagate = propagate
        self.action_configuration = dict(configuration or {})
        self.defaults = dict(defaults or {})
        self._configurations: dict[str, dict[str, str]] = {}  # by run

    def __repr__(self) -> str:
        return f"OozieSubWorkflow(action={self.action!r}, app_path={self.app_path!r}, parent={self.parent!r})"

    def _describe(self) -> str:
        return f"sub-workflow {self.app_path!r} of action {self.action!r}"

    def job_configuration(self, logical_date: datetime | str) -> dict[str, str]:
        run = minute_key(utc(logical_date))
        if run not in self._configurations:
            self._configurations[run] = self._configuration(logical_date)
        return dict(self._configurations[run])

    def _configuration(self, logical_date: datetime | str) -> dict[str, str]:
        parent = self.parent.job_configuration(logical_date)
        configuration = dict(self.defaults)
        if self.propagate:
            configuration.update(parent)
        if "user.name" in parent:
            configuration["user.name"] = parent["user.name"]
        configuration[APP_PATH] = self.app_path
        # Names and values as the parent's action resolved them.
        texts = [text for pair in self.action_configuration.items() for text in pair]
        with_el = [text for text in texts if "${" in text]
        rendered = dict(zip(with_el, self.parent.render(logical_date, with_el), strict=True)) if with_el else {}
        for name, value in self.action_configuration.items():
            configuration[rendered.get(name, name)] = rendered.get(value, value)
        return configuration


def is_branch(callable_: Any) -> bool:
    """Whether a BranchPythonOperator's callable is a workflow job's decision."""
    return getattr(callable_, "__func__", None) is WorkflowJob.branch
