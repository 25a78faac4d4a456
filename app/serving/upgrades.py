"""What `make run` does before serving (`flask --app wsgi upgrade`): say which version runs,
suggest a backup when a migration is about to change a database that holds games, migrate, and
give every game stored before replays were kept its state as dealt again.

The deal is rebuilt here, after the migrations and before any request, not in a migration (a
migration runs no game's rules, so it works whatever the rules become) nor lazily on a page (an
old game replays all its actions once: work no request should wait for). Each game is rebuilt in
its own transaction with its row locked, so servers sharing one PostgreSQL database may all run
it: a game already rebuilt, or found not replayable, is not looked at again.
"""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa

from .. import store
from ..extensions import db
from ..store.models import GameRecord

BATCH = 50  # games read at a time


def holds_games() -> bool:
    """Whether the database has a games table with a game in it."""
    if not sa.inspect(db.engine).has_table("games"):
        return False
    return db.session.execute(sa.text("SELECT 1 FROM games LIMIT 1")).first() is not None


def pending_migrations() -> list[str]:
    """The revisions `flask db upgrade` would apply, oldest first (empty: at the head)."""
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory
    from flask import current_app

    config = current_app.extensions["migrate"].migrate.get_config()
    script = ScriptDirectory.from_config(config)
    with db.engine.connect() as connection:
        current = MigrationContext.configure(connection).get_current_heads()
    pending = [revision.revision for revision in script.iterate_revisions(tuple(script.get_heads()), current or None)]
    return pending[::-1]


def any_game_without_deal() -> bool:
    """Whether a game stored before replays were kept waits for its deal (one row looked for,
    however many games are stored: `make run` asks at every start)."""
    return db.session.execute(sa.select(GameRecord.id).where(
        GameRecord.initial_state.is_(None), GameRecord.replay_problem.is_(None)).limit(1)).first() is not None


def give_old_games_their_deal(say: Callable[[str], None] = lambda text: None) -> tuple[int, list[tuple[str, str]]]:
    """Rebuild the state as dealt of every game stored before replays were kept
    (``store.give_deal_again``), one transaction each: (how many were rebuilt, [(slug, why
    not)] for those that could not be)."""
    problems: list[tuple[str, str]] = []
    rebuilt, last = 0, 0
    while True:
        batch = db.session.execute(
            sa.select(GameRecord.id, GameRecord.slug)
            .where(GameRecord.id > last, GameRecord.initial_state.is_(None), GameRecord.replay_problem.is_(None))
            .order_by(GameRecord.id).limit(BATCH)).all()
        db.session.rollback()  # (end the read: each game is written in its own transaction)
        if not batch:
            return rebuilt, problems
        for _game_id, slug in batch:
            record = store.lock_game(slug)
            if record is None or record.initial_state or record.replay_problem:
                db.session.rollback()  # (another server did it meanwhile)
                continue
            try:
                problem = store.give_deal_again(record)
            except Exception:
                db.session.rollback()
                raise
            db.session.commit()
            if problem is None:
                rebuilt += 1
            else:
                problems.append((slug, problem))
                say(f"  Game {slug} keeps no replay: {problem}")
        last = batch[-1][0]
