"""The first web version's database (commit 5ccc80d, Mason Rummy only), rebuilt from the fixture
that version made itself (scripts/first-version-fixture): its schema by our migration chain up
to its head revision (the two revisions it had are unchanged since), its rows as it wrote them,
its instance folder's secrets and its decks folder's uploaded deck."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.pool import NullPool

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "first_version" / "fixture.json"


def fixture() -> dict:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def _value(value, column: sa.Column):
    if isinstance(value, dict) and "datetime" in value:
        return datetime.fromisoformat(value["datetime"])
    if isinstance(value, dict) and "base64" in value:
        return base64.b64decode(value["base64"])
    if value is not None and isinstance(column.type, sa.Boolean):
        return bool(value)
    return value


def build(data: dict, url: str, instance: Path, decks: Path) -> None:
    """The first version's install: its schema at ``url`` (migrated by our chain up to its head
    revision), its rows, and its instance and decks folders' files."""
    from flask_migrate import upgrade

    from app.factory import create_app
    from app.extensions import db
    from config import TestConfig

    instance.mkdir(parents=True, exist_ok=True)
    decks.mkdir(parents=True, exist_ok=True)
    app = create_app(TestConfig, instance_path=str(instance / ".schema"), SQLALCHEMY_DATABASE_URI=url)
    with app.app_context():
        upgrade(revision=data["alembic_head"])
        db.session.remove()
        db.engine.dispose()
    engine = sa.create_engine(url, poolclass=NullPool)
    metadata = sa.MetaData()
    metadata.reflect(engine)
    with engine.begin() as connection:
        for table in metadata.sorted_tables:
            stored = data["tables"].get(table.name)
            if table.name == "alembic_version":
                assert [row[0] for row in stored["rows"]] == [connection.execute(sa.select(table)).scalar()]
                continue
            assert sorted(stored["columns"]) == sorted(column.name for column in table.columns), table.name
            rows = [{name: _value(value, table.columns[name]) for name, value in zip(stored["columns"], row)}
                    for row in stored["rows"]]
            if rows:
                connection.execute(table.insert(), rows)
            if engine.dialect.name == "postgresql" and "id" in table.columns:  # (ids were given: go on after them)
                connection.execute(sa.text(f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                                           f"GREATEST((SELECT max(id) FROM {table.name}), 1))"))
    engine.dispose()
    for name, text in data["files"].items():
        folder, file_name = name.split("/", 1)
        target = (instance if folder == "instance" else decks) / file_name
        target.write_text(text, encoding="utf-8")


def environment(url: str, instance: Path, decks: Path) -> dict:
    """The environment `make run` would run with on that install (no SECRET_KEY, no
    ADMIN_PASSWORD: the instance folder holds them)."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("SECRET_KEY", "ADMIN_PASSWORD", "CARD_TABLE_SERVING", "MASON_SERVING")}
    env.update(DATABASE_URL=url, CARD_TABLE_INSTANCE=str(instance), DECKS_FOLDER=str(decks))
    return env


def flask(env: dict, *arguments: str, check: bool = True) -> subprocess.CompletedProcess:
    """``.venv/bin/flask --app wsgi ARGUMENTS`` as `make run` and `make backup` call it."""
    flask_program = Path(sys.executable).with_name("flask")
    result = subprocess.run([str(flask_program), "--app", "wsgi", *arguments], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=300)
    if check:
        assert result.returncode == 0, result.stdout + result.stderr
    return result


def empty_database(databases, tmp_path: Path) -> str:
    """A new, empty database: a SQLite file, or a PostgreSQL database on the tests' server."""
    import uuid

    from sqlalchemy.engine import make_url

    if not databases.is_postgres:
        return f"sqlite:///{tmp_path / 'mason.db'}"
    name = f"mason_u_{uuid.uuid4().hex[:12]}"
    databases._admin(f'CREATE DATABASE "{name}"')
    return make_url(databases._url(name)).render_as_string(hide_password=False)


def upgraded_app(url: str, instance: Path, decks: Path):
    """The web app on the upgraded install, as its server would run it: the session key the
    database keeps (the old instance folder's, moved there), so the old cookies still sign."""
    from app.factory import create_app
    from config import Config

    return create_app(Config, instance_path=str(instance), SQLALCHEMY_DATABASE_URI=url, DECKS_FOLDER=str(decks),
                      SECRET_KEY=None, TESTING=True, SCORES_FILE_SECONDS=0.0, GAMES_PER_HOUR=100_000,
                      ADMIN_PASSWORD="upgrade-test-admin")


def with_cookie(player, app, cookie: str) -> None:
    """Give a browser (support.web.Player) the session cookie the old version set. Flask refuses
    a cookie signed more than PERMANENT_SESSION_LIFETIME (30 days) ago, so once the fixture is
    older than that the same contents are signed again with the same key, as the family's next
    visit within the month would have had it."""
    from itsdangerous import SignatureExpired

    serializer = app.session_interface.get_signing_serializer(app)
    try:
        serializer.loads(cookie, max_age=int(app.permanent_session_lifetime.total_seconds()))
    except SignatureExpired:
        cookie = serializer.dumps(serializer.loads(cookie))
    player.client.set_cookie("session", cookie, domain="localhost")


def close(app) -> None:
    """Stop what the app started (its scores.csv writer) and let go of the database."""
    from app.records import scores_file
    from app.extensions import db

    if scores_file.EXTENSION in app.extensions:
        scores_file.writer(app).stop(timeout=10)
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
