"""Limits per client address, counted in the database so that every worker process sees the same
counts: wrong join codes (someone guessing) and games set up or rematched (someone growing the
score table and the finished games).

Each check runs inside a write transaction that holds the lock (``BEGIN IMMEDIATE`` on SQLite, a
table lock on PostgreSQL), so requests sent at once - to one worker or several - cannot all pass
the limit together.

A seat's private moves (arranging its cards) are limited in each worker process instead
(``own_moves``): the limit is there to keep a loop from filling the database's write turns, so a
refusal must cost no write, and a worker's count is enough for that.
"""

from __future__ import annotations

import time
from datetime import timedelta

import sqlalchemy as sa
from flask import current_app

from .. import store
from ..extensions import db
from .models import RateEvent, utcnow

WRONG_JOIN_CODE = "join"
GAME_SET_UP = "game"


def begin_counting(*, begun: bool = False) -> None:
    """Start the write transaction a check and its count share (``begun``: the caller's write
    transaction has started already, holding the lock of the game it changes)."""
    if not begun:
        store.begin_write()
    if db.engine.dialect.name == "postgresql":
        db.session.execute(sa.text(f"LOCK TABLE {RateEvent.__tablename__} IN SHARE ROW EXCLUSIVE MODE"))


def recent(kind: str, address: str, window_seconds: float) -> int:
    since = utcnow() - timedelta(seconds=window_seconds)
    return db.session.execute(sa.select(sa.func.count()).select_from(RateEvent).where(
        RateEvent.kind == kind, RateEvent.address == address, RateEvent.at >= since)).scalar_one()


def count(kind: str, address: str, window_seconds: float) -> None:
    """Count one event (in the caller's transaction); this address's events of that kind older
    than the window go, so the table holds only what a limit still needs."""
    now = utcnow()
    db.session.execute(sa.delete(RateEvent).where(
        RateEvent.kind == kind, RateEvent.address == address,
        RateEvent.at < now - timedelta(seconds=window_seconds)))
    db.session.add(RateEvent(kind=kind, address=address, at=now))


def minutes(window_seconds: float) -> int:
    return max(1, round(window_seconds / 60))


class Bucket:
    """A token bucket per key, in each app (worker process): ``per_minute`` tokens (the app's
    setting), one back every ``60 / per_minute`` seconds; ``allow(key)`` takes one, or answers
    False when none is left. Keys unused for a minute are forgotten when many are kept."""

    KEPT = 4096

    def __init__(self, setting: str, default: int):
        self.setting = setting
        self.default = default

    def allow(self, key: str) -> bool:
        per_minute = float(current_app.config.get(self.setting, self.default))
        buckets: dict[str, tuple[float, float]] = current_app.extensions.setdefault(self.setting, {})
        now = time.monotonic()
        tokens, then = buckets.get(key, (per_minute, now))  # (tokens left, when counted)
        tokens = min(per_minute, tokens + (now - then) * per_minute / 60)
        if tokens < 1:
            buckets[key] = (tokens, now)
            return False
        if len(buckets) >= self.KEPT:
            for old in [k for k, (_tokens, when) in buckets.items() if now - when >= 60]:
                del buckets[old]
        buckets[key] = (tokens - 1, now)
        return True


# A person arranging 13 or 14 cards makes a few dozen changes a minute at most.
own_moves = Bucket("OWN_MOVES_PER_MINUTE", 120)
