"""Limits per client address, counted in the database so that every worker process sees the same
counts: wrong join codes (someone guessing) and games set up (someone growing the score table).

Each check runs inside a write transaction that holds the lock (``BEGIN IMMEDIATE`` on SQLite, a
table lock on PostgreSQL), so requests sent at once - to one worker or several - cannot all pass
the limit together.
"""

from __future__ import annotations

from datetime import timedelta

import sqlalchemy as sa
from flask import request

from . import store
from .extensions import db
from .models import RateEvent, utcnow

WRONG_JOIN_CODE = "join"
GAME_SET_UP = "game"


def client_address() -> str:
    """The device's address: the one the connection comes from, or behind ``TRUSTED_PROXIES``
    the one those proxies forward (Werkzeug's ProxyFix, app/__init__.py); a forwarded header
    is never believed otherwise."""
    return (request.remote_addr or "unknown")[:64]


def begin_counting() -> None:
    """Start the write transaction a check and its count share."""
    store.begin_write()
    if db.engine.dialect.name == "postgresql":
        db.session.execute(sa.text(f"LOCK TABLE {RateEvent.__tablename__} IN SHARE ROW EXCLUSIVE MODE"))


def recent(kind: str, address: str, window_seconds: float) -> int:
    since = utcnow() - timedelta(seconds=window_seconds)
    return db.session.scalar(sa.select(sa.func.count()).select_from(RateEvent).where(
        RateEvent.kind == kind, RateEvent.address == address, RateEvent.at >= since))


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
