"""How a table's change is read and written: the game read without the write lock or under it
(``Reading``, ``under_the_lock``: the one place a change is tried twice), and saved with what its
commit tells (``save_and_score``), a game's end included."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from .. import store
from ..core.protocol import GameState, Outcome, SeatResult
from ..extensions import db
from ..store.models import PLAYING, GameRecord
from . import news
from .errors import STALE, Conflict, GameNotFound

T = TypeVar("T")
MAX_ACTIONS = store.MAX_ACTIONS  # the most actions one game keeps


@dataclass
class Reading:
    """The game as a change read it: without the write lock (taken only to write: ``write``),
    or ``locked`` under it from the start."""

    record: GameRecord
    locked: bool

    @classmethod
    def of(cls, slug: str, locked: bool) -> Reading:
        record = store.lock_game(slug) if locked else store.find_game(slug)
        if record is None:
            raise GameNotFound()
        return cls(record, locked)

    def write(self) -> None:
        """Take the write lock for the change worked out from this reading
        (``store.ConcurrentUpdate`` if another write changed the game since)."""
        if not self.locked:
            store.start_change(self.record)

    def save(self, state: GameState | None, actions: list[Outcome], **changes: Any) -> list[SeatResult] | None:
        """``save_and_score`` the change; a concurrent write found under the lock is a stale form."""
        try:
            return save_and_score(self.record, state, actions, **changes)
        except store.ConcurrentUpdate:
            if not self.locked:
                raise  # (``under_the_lock`` does it again under the lock)
            raise Conflict(str(STALE)) from None


def under_the_lock(change: Callable[[bool], T]) -> T:
    """``change(False)``: a change worked out from the game read without the write lock; if
    another write came between, ``change(True)``: the same again, read under the lock, so it is
    answered as if it had waited for that write. The one place a change is tried twice."""
    try:
        return change(False)
    except store.ConcurrentUpdate:
        db.session.rollback()
    return change(True)


def save_and_score(record: GameRecord, state: GameState | None, actions: list[Outcome],
                   **changes: Any) -> list[SeatResult] | None:
    """Save the game (``state``: None for a change of its row alone) and tell what happened once
    it commits: its new version, and if it just ended, that it did (its results are recorded
    then: ``records``). Returns the results of a game that is over (worked out once), None while
    it is played."""
    if record.shown_seat is not None and any(outcome.seat not in (None, record.shown_seat) for outcome in actions):
        # Another seat moved (a computer stand-in, a seat on another device...): whoever holds a
        # shared device now, the next hot-seat turn starts with the hand-over screen again.
        changes.setdefault("shown_seat", None)
    results = state.results() if state is not None and state.is_over() else None
    ended = results is not None and record.status == PLAYING
    if ended:
        end_join_codes(record)
        changes["results_recorded"] = False
    store.save_game(record, state, actions, results=results, **changes)
    if ended:
        news.tell(news.game_finished, store.definition_of(record), slug=record.slug)
    return results



def end_join_codes(record: GameRecord) -> None:
    """The game ended: nobody needs a seat at a finished table."""
    for seat in record.seats:
        seat.join_code = seat.code_expires_at = None
