"""The sixth game that lives in the tests (tests/sample_game: High card), registered only while a
test asks for it (the ``sample_game`` fixture, or ``sample_registered``), so every other test
sees the table's own games alone."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import app.games  # noqa: F401  (the table's own games first, in their order)
from app.core import registry
from app.core.protocol import GameDefinition
from sample_game import DEFINITION as SAMPLE


@contextmanager
def sample_registered() -> Iterator[GameDefinition]:
    registry.register(SAMPLE)  # all that a sixth game adds outside its own folders: this one line
    try:
        yield SAMPLE
    finally:
        registry.unregister(SAMPLE.key)
