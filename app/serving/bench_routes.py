"""Bench-only routes, registered only when CARD_TABLE_BENCH_ROUTES=1 (never by `make run` otherwise).

- /bench/row/<slug> (bench/scores.py): a small write on this server, the least a Flask route on it
  can do with the database: read one row and write it, in one write transaction (same session
  cookie, CSRF check, engine and pragmas as an action), to see whether it waits behind an import.

(The web benchmarks' baseline is another app: bench/minimal_app.py.)"""

from __future__ import annotations

import sqlalchemy as sa
from flask import Blueprint, abort
from flask.typing import ResponseReturnValue

from .. import store
from ..extensions import db
from ..store.models import GameRecord, utcnow
from ..tables import news

bp = Blueprint("bench", __name__, url_prefix="/bench")


@bp.post("/row/<slug>")
@news.command
def row(slug: str) -> ResponseReturnValue:
    store.begin_write()
    version = db.session.scalar(sa.select(GameRecord.version).where(GameRecord.slug == slug))
    if version is None:
        abort(404)
    db.session.execute(sa.update(GameRecord).where(GameRecord.slug == slug).values(updated_at=utcnow()))
    db.session.commit()
    return str(version), 200, {"Content-Type": "text/plain"}
