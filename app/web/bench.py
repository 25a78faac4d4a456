"""Bench-only routes, registered only when CARD_TABLE_BENCH_ROUTES=1 (never by `make run` otherwise).

- /bench/bump/<slug> (bench/live.py): a bare publish that bumps a game's version and nothing
  else, so the benchmark can time publish -> event through the same watcher and stream as a real
  action, without the game logic.
- /bench/row/<slug> (bench/load.py): the baseline of the actions benchmark, the least a Flask
  route on this server can do with the database: read one row and write it, in one write
  transaction (same session cookie, CSRF check, engine and pragmas as an action)."""

from __future__ import annotations

import sqlalchemy as sa
from flask import Blueprint, abort

from .. import store
from ..extensions import db
from ..models import GameRecord, utcnow

bp = Blueprint("bench", __name__, url_prefix="/bench")


@bp.post("/bump/<slug>")
@store.transaction
def bump(slug: str):
    store.begin_write()
    result = db.session.execute(
        sa.update(GameRecord).where(GameRecord.slug == slug).values(version=GameRecord.version + 1))
    if result.rowcount != 1:
        abort(404)
    version = db.session.scalar(sa.select(GameRecord.version).where(GameRecord.slug == slug))
    store.game_changed.send(slug, version=version)  # announced with the commit, as save_game does
    db.session.commit()
    return str(version), 200, {"Content-Type": "text/plain"}


@bp.post("/row/<slug>")
@store.transaction
def row(slug: str):
    store.begin_write()
    version = db.session.scalar(sa.select(GameRecord.version).where(GameRecord.slug == slug))
    if version is None:
        abort(404)
    db.session.execute(sa.update(GameRecord).where(GameRecord.slug == slug).values(updated_at=utcnow()))
    db.session.commit()
    return str(version), 200, {"Content-Type": "text/plain"}
