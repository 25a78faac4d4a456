"""The table's own places (its folder, the Python its served processes run on, the compiled
templates' folder) and its numeric settings from the environment (config.py): a value the
table cannot use stops it at start with a message that names the variable, not a traceback."""

from __future__ import annotations

import math
import os
import sys
from typing import overload

PROJECT_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The Python the served processes run on (gunicorn's and the job runner's): -OO leaves out the
# docstrings, 3-5 MB a process of the table's and its libraries' (bench/README.md, memory).
# Nothing served reads a docstring, and no assert guards a request: they narrow types for the
# checker, and one checks a constant table as its module loads, which the tests still run.
SERVING_PYTHON = (sys.executable, "-OO")
# In the instance folder: the templates' compiled code (app/web/__init__.py), a cache that
# backups leave out.
COMPILED_TEMPLATES = "compiled-templates"


class SettingError(ValueError):
    """A setting from the environment that the table cannot use; its message says what to set."""


def cannot_start(problem: object) -> str:
    """What the terminal shows when the table will not start for ``problem`` (its exit message)."""
    return f"\n  The card table cannot start: {problem}\n"


@overload
def number(name: str, default: str, kind: type[int] = int, low: float = 0, high: float | None = None) -> int: ...


@overload
def number(name: str, default: str, kind: type[float], low: float = 0, high: float | None = None) -> float: ...


def number(name: str, default: str, kind: type[int] | type[float] = int, low: float = 0,
           high: float | None = None) -> int | float:
    """The environment variable ``name`` (empty or unset: ``default``) as a whole number (``kind``
    int) or any number (float) from ``low`` to ``high``. Anything else stops the table at start
    with a ``SettingError`` that names the variable, instead of a traceback."""
    text = os.environ.get(name, "").strip() or default
    try:
        value = kind(text)
    except ValueError:
        value = None
    if value is None or not math.isfinite(value) or value < low or (high is not None and value > high):
        what = "a whole number" if kind is int else "a number"
        span = f"from {low:g} to {high:g}" if high is not None else f"of {low:g} or more"
        raise SettingError(f"{name} must be {what} {span}, not {text!r}")
    return value


def trusted_proxies(value: object) -> int:
    """TRUSTED_PROXIES as a number of proxies (0 to 10); a clear error for anything else."""
    text = str(value if value is not None else "0").strip() or "0"
    if not text.isdigit() or int(text) > 10:
        raise SettingError(f"TRUSTED_PROXIES must be the number of proxies in front of the server "
                           f"(0 for none, usually 1), not {text!r}")
    return int(text)
