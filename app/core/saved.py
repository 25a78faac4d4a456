"""Reading the plain data of a saved state, the same way in every game: a saved state that is not
a game the rules could have reached is a ``ValueError`` that says what is wrong."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def reading(what: str) -> Iterator[None]:
    """While reading a saved ``what`` ("Classic Rummy game"), a missing key or a value of the
    wrong type or shape becomes ``ValueError("not a saved <what>: ...")``."""
    try:
        yield
    except (KeyError, TypeError, IndexError, AttributeError) as error:
        raise ValueError(f"not a saved {what}: {error!r}") from None


def text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{value!r} is not text")
    return value


def texts(value: Any) -> list[str]:
    """A list of texts (card ids, say)."""
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError("a list of texts was expected")
    return value


def flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{value!r} is not true or false")
    return value


def whole(value: Any, low: int = 0, high: int | None = None) -> int:
    """A whole number from ``low`` (to ``high``); never a bool."""
    if type(value) is not int or value < low or (high is not None and value > high):
        span = f" from {low} to {high}" if high is not None else f" from {low}"
        raise ValueError(f"{value!r} is not a whole number{span}")
    return value


def one_of(value: Any, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise ValueError(f"{value!r} is not one of {', '.join(allowed)}")
    return str(value)
