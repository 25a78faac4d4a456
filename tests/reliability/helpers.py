"""Helpers for the reliability tests: card bookkeeping, the action an accepted form logs, and the
figures file the docs quote. The browser for the live server (support.client), the read-only view
of the database (support.databases, the test's oracle) and the move chooser (support.moves) are
the suite's shared ones, re-exported here.

Loaded by conftest.py as the module ``reliability_helpers``.
"""

from __future__ import annotations

import fcntl
import json
import os
import tempfile
import time
from pathlib import Path

from support.client import Browser, Response  # noqa: F401  (re-exported for the tests)
from support.databases import DatabaseReader, StoredGame  # noqa: F401
from support.moves import Choice, random_move, sensible_move  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]
FIGURES_PATH = ROOT / "test-artifacts" / "reliability.json"


# -- figures for docs/RELIABILITY.md ----------------------------------------------------------------


def backend(database_url: str) -> str:
    return "postgresql" if database_url.startswith("postgresql") else "sqlite"


def record_figures(database_url: str, section: str, **figures) -> None:
    """Merge ``figures`` into test-artifacts/reliability.json under the database kind and
    ``section``. Several xdist workers may write at once, so writers take a lock file."""
    FIGURES_PATH.parent.mkdir(parents=True, exist_ok=True)
    with open(str(FIGURES_PATH) + ".lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            try:
                data = json.loads(FIGURES_PATH.read_text())
            except (OSError, ValueError):
                data = {}
            run = os.environ.get("PYTEST_XDIST_TESTRUNUID") or f"pid-{os.getpid()}"  # which run wrote it
            entry = dict(figures, recorded_at=time.strftime("%Y-%m-%dT%H:%M:%S"), run=run[:16])
            data.setdefault(backend(database_url), {})[section] = entry
            fd, temporary = tempfile.mkstemp(dir=FIGURES_PATH.parent, prefix=".reliability-", suffix=".tmp")
            with os.fdopen(fd, "w") as handle:
                json.dump(data, handle, indent=2, sort_keys=True)
                handle.write("\n")
            os.replace(temporary, FIGURES_PATH)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


# -- cards ----------------------------------------------------------------------------------------


def public_cards(game) -> set[str]:
    """What everyone may see (R4.4): the top of the discard pile and every laid-down set; once
    a round is over, every hand left too (R7.1: shown with its points)."""
    cards = {game.discard[-1].code} if game.discard else set()
    for player in game.players:
        for card_set in player.hand.laid_down:
            cards.update(card.code for card in card_set.cards)
        if game.to_move() is None:
            cards.update(card.code for card in player.hand.cards)
    return cards


def allowed_cards(game, seat: int | None) -> set[str]:
    """R4.4: the public cards plus ``seat``'s own hand (``None``: a spectator)."""
    cards = public_cards(game)
    if seat is not None:
        cards.update(card.code for card in game.players[seat].hand.cards)
    return cards


def check_65_cards(game) -> None:
    """Every one of the 65 cards is in exactly one place (stock, discard, a hand, a set)."""
    from collections import Counter

    from app.games.mason import FULL_DECK

    assert game.card_locations() == Counter(FULL_DECK)


def logged_action(state, choice: Choice) -> dict:
    """The action log entry that the table form of ``choice`` makes once accepted: the form's
    action as the game reads it, written back as plain data."""
    definition = state.definition
    return definition.action_to_dict(definition.action_from_dict(choice.action))
