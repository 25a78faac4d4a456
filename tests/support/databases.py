"""One fresh, migrated database per test: SQLite files copied from a migrated template, or
PostgreSQL databases cloned (CREATE DATABASE ... TEMPLATE) from a migrated template database."""

from __future__ import annotations

import shutil
import uuid
from pathlib import Path

from sqlalchemy.engine import make_url


def migrate(url: str, instance: Path) -> None:
    """Run the project's Alembic migrations (flask db upgrade) against ``url``."""
    from flask_migrate import upgrade

    from app import create_app
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
