"""Reading the table's numeric settings from the environment (config.py): a value the table
cannot use stops it at start with a message that names the variable, not a traceback."""

from __future__ import annotations

import math
import os


class SettingError(ValueError):
    """A setting from the environment that the table cannot use; its message says what to set."""


def cannot_start(problem: object) -> str:
    """What the terminal shows when the table will not start for ``problem`` (its exit message)."""
    return f"\n  The card table cannot start: {problem}\n"


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
