"""The coordc program, which answers every Oozie question, and Oozie's time texts."""

from __future__ import annotations

import os
import shutil
import sys
from datetime import datetime, timedelta, timezone

from . import __version__

try:  # Airflow shows its own exception type best; the objects work without it too.
    from airflow.exceptions import AirflowException as _ErrorBase
except ImportError:  # pragma: no cover - depends on the environment
    _ErrorBase = ValueError  # type: ignore[misc,assignment]

OOZIE_TIME = "%Y-%m-%dT%H:%MZ"


class CoordcAirflowError(_ErrorBase):
    """A coordinator question with no answer, or coordc failing."""


def coordc_binary() -> str:
    """The coordc program: $COORDC_BIN, else beside this Python, else on PATH."""
    if os.environ.get("COORDC_BIN"):
        return os.environ["COORDC_BIN"]
    beside = os.path.join(os.path.dirname(sys.executable), "coordc")
    if os.path.isfile(beside) and os.access(beside, os.X_OK):
        return beside
    found = shutil.which("coordc")
    if found:
        return found
    raise CoordcAirflowError(
        f"the coordc program is not installed: pip install coordc=={__version__} (or set COORDC_BIN)"
    )



def utc(moment: datetime | str) -> datetime:
    """An aware datetime, or an ISO 8601 text with an offset, as UTC."""
    if isinstance(moment, str):
        text = moment[:-1] + "+00:00" if moment.endswith("Z") else moment
        try:
            moment = datetime.fromisoformat(text)
        except ValueError as e:
            raise CoordcAirflowError(f"not a time: {moment!r}") from e
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise CoordcAirflowError(f"a nominal time needs a time zone: {moment!r}")
    return moment.astimezone(timezone.utc)


def minute_key(moment: datetime) -> str:
    """Oozie's minute format; a time with seconds is never a nominal time, so it rounds up."""
    if moment.second or moment.microsecond:
        moment = moment.replace(second=0, microsecond=0) + timedelta(minutes=1)
    return moment.strftime(OOZIE_TIME)


def minute_key_after(moment: datetime) -> str:
    """The first minute later than `moment`, in Oozie's format."""
    return minute_key(moment.replace(second=0, microsecond=0) + timedelta(minutes=1))


def parse(text: str) -> datetime:
    return datetime.strptime(text, OOZIE_TIME).replace(tzinfo=timezone.utc)
