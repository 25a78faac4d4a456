"""One fresh, migrated database per test: SQLite files copied from a migrated template, or
PostgreSQL databases cloned (CREATE DATABASE ... TEMPLATE) from a migrated template database;
and ``DatabaseReader``, a read-only view of the games in a database."""

from __future__ import annotations

import json
import shutil
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy.engine import make_url


@contextmanager
def sql_statements(app) -> Iterator[list[str]]:
    """The SQL statements ``app``'s engine runs inside the block, each on one line (its
    whitespace squeezed), in order."""
    import sqlalchemy as sa

    from app.extensions import db

    statements: list[str] = []

    def seen(_connection, _cursor, statement, *_args) -> None:
        statements.append(" ".join(statement.split()))

    with app.app_context():
        engine = db.engine
    sa.event.listen(engine, "before_cursor_execute", seen)
    try:
        yield statements
    finally:
        sa.event.remove(engine, "before_cursor_execute", seen)


def migrate(url: str, instance: Path) -> None:
    """Run the project's Alembic migrations (flask db upgrade) against ``url``."""
    from flask_migrate import upgrade

    from app.factory import create_app
    from app.extensions import db
    from config import TestConfig

    app = create_app(TestConfig, instance_path=str(instance), SQLALCHEMY_DATABASE_URI=url)
    with app.app_context():
        upgrade()
        db.session.remove()
        db.engine.dispose()


class TestDatabases:
    def __init__(self, server_url: str | None, workdir: Path):
        self.workdir = workdir
        self.server_url = make_url(server_url) if server_url else None
        if self.server_url is None:
            self.template = workdir / "template.db"
            migrate(f"sqlite:///{self.template}", workdir / "instance")
        else:
            self.template_name = f"mason_tpl_{uuid.uuid4().hex[:10]}"
            self._admin(f'CREATE DATABASE "{self.template_name}"')
            migrate(self._url(self.template_name), workdir / "instance")

    @property
    def is_postgres(self) -> bool:
        return self.server_url is not None

    def _url(self, name: str) -> str:
        return self.server_url.set(database=name).render_as_string(hide_password=False)

    def _admin(self, statement: str) -> None:
        import psycopg

        url = self.server_url.set(database=self.server_url.database or "postgres", drivername="postgresql")
        with psycopg.connect(url.render_as_string(hide_password=False), autocommit=True) as connection:
            connection.execute(statement)

    def new_database(self, sqlite_path: Path) -> str:
        if self.server_url is None:
            shutil.copy(self.template, sqlite_path)
            return f"sqlite:///{sqlite_path}"
        name = f"mason_t_{uuid.uuid4().hex[:12]}"
        self._admin(f'CREATE DATABASE "{name}" TEMPLATE "{self.template_name}"')
        return self._url(name)

    def drop(self, url: str) -> None:
        if self.server_url is None:
            return
        name = make_url(url).database
        self._admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def close(self) -> None:
        if self.server_url is not None:
            self._admin(f'DROP DATABASE IF EXISTS "{self.template_name}" WITH (FORCE)')


# -- a read-only view of a database, as a checker outside the server sees it ---------------------


@dataclass
class StoredGame:
    id: int
    slug: str
    kind: str
    version: int
    status: str
    state: str
    rematch_slug: str | None = None
    seats: list[dict] = field(default_factory=list)

    def game(self):
        """The stored state, rebuilt by its game's ``from_dict`` (which validates it: every card
        of the deck in exactly one place)."""
        import app.games  # noqa: F401  (registers every game)
        from app.core import registry

        return registry.get(self.kind).from_dict(json.loads(self.state))


class DatabaseReader:
    """Reads a database with its own engine (no pool: every read sees the latest commit), as a
    checker outside the server would: the tests' oracle, and the benchmarks' view of a game."""

    def __init__(self, database_url: str):
        import sqlalchemy as sa
        from sqlalchemy.pool import NullPool

        from app.store.models import ActionRecord, GameRecord, SeatRecord

        self.url = database_url
        self.engine = sa.create_engine(database_url, poolclass=NullPool)
        self.games_table = GameRecord.__table__
        self.seats_table = SeatRecord.__table__
        self.actions_table = ActionRecord.__table__

    def close(self) -> None:
        self.engine.dispose()

    @property
    def is_sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"

    def _game(self, row, connection) -> StoredGame:
        import sqlalchemy as sa

        seats = [dict(r._mapping) for r in connection.execute(
            sa.select(self.seats_table).where(self.seats_table.c.game_id == row.id)
            .order_by(self.seats_table.c.number))]
        return StoredGame(row.id, row.slug, row.kind, row.version, row.status, row.state, row.rematch_slug, seats)

    def game(self, slug: str) -> StoredGame:
        import sqlalchemy as sa

        with self.engine.connect() as connection:
            row = connection.execute(sa.select(self.games_table).where(self.games_table.c.slug == slug)).one()
            return self._game(row, connection)

    def games(self) -> list[StoredGame]:
        import sqlalchemy as sa

        with self.engine.connect() as connection:
            rows = connection.execute(sa.select(self.games_table).order_by(self.games_table.c.id)).all()
            return [self._game(row, connection) for row in rows]

    def actions(self, game_id: int) -> list[tuple[int, int | None, dict]]:
        """The action log of a game: (version it made, seat, action), oldest first."""
        import sqlalchemy as sa

        with self.engine.connect() as connection:
            rows = connection.execute(
                sa.select(self.actions_table.c.version, self.actions_table.c.seat, self.actions_table.c.action)
                .where(self.actions_table.c.game_id == game_id).order_by(self.actions_table.c.version)).all()
        return [(version, seat, json.loads(action)) for version, seat, action in rows]

    def scalar(self, statement: str, parameters: dict | None = None):
        """The one value a query of the test's own (SQL text) reads."""
        import sqlalchemy as sa

        with self.engine.connect() as connection:
            return connection.execute(sa.text(statement), parameters or {}).scalar()

    def join_code(self, slug: str, number: int) -> str | None:
        return self.game(slug).seats[number]["join_code"]

    def integrity_check(self) -> str:
        with self.engine.connect() as connection:
            return connection.exec_driver_sql("PRAGMA integrity_check").scalar()
