"""Fixtures shared by the web, LAN, reliability and browser tests.

Real parts, not mocks: every test gets its own database, migrated by the project's Alembic
migrations. SQLite by default (a real file); set CARD_TABLE_TEST_DATABASE (or MASON_TEST_DATABASE)
to a PostgreSQL server URL (for example ``postgresql://postgres@127.0.0.1:55432/postgres``) to
run the same tests against PostgreSQL: each test then gets a database cloned from a migrated
template.
"""

from __future__ import annotations

import shutil
import sys
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))  # tests/support

from config import setting  # noqa: E402
from support.databases import TestDatabases  # noqa: E402
from support.live import LiveServer  # noqa: E402
from support.web import Player  # noqa: E402

SAMPLE_DECKS = ROOT / "tests" / "decks"
TEST_DECKS = ROOT / "tests" / "data" / "decks"


@pytest.fixture(scope="session")
def databases(tmp_path_factory):
    manager = TestDatabases(setting("TEST_DATABASE"), tmp_path_factory.mktemp("db-template"))
    yield manager
    manager.close()


@pytest.fixture
def database_url(databases, tmp_path):
    url = databases.new_database(tmp_path / "mason.db")
    yield url
    databases.drop(url)


@pytest.fixture
def decks_folder(tmp_path) -> Path:
    """A decks/ folder with the sample decks (Mason Rummy's, and every game's decks/<key>/),
    which a test may change freely."""
    folder = tmp_path / "decks"
    folder.mkdir()
    for deck in SAMPLE_DECKS.glob("*.deck"):
        shutil.copy(deck, folder / deck.name)
    for game_folder in SAMPLE_DECKS.iterdir():
        if game_folder.is_dir():
            shutil.copytree(game_folder, folder / game_folder.name)
    return folder


@pytest.fixture
def app(database_url, decks_folder, tmp_path):
    from app.factory import create_app
    from config import TestConfig

    instance = tmp_path / "instance"
    application = create_app(TestConfig, instance_path=str(instance), SQLALCHEMY_DATABASE_URI=database_url,
                             DECKS_FOLDER=str(decks_folder))
    yield application
    from app.records import scores_file
    from app.extensions import db

    if scores_file.EXTENSION in application.extensions:  # its writer must not outlive the database
        scores_file.writer(application).stop(timeout=10)
    with application.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def job_runner(app):
    """The job runner working for ``app`` (a thread of this process running the runner of `make
    run`'s runner process): solvers' verdicts and off-request computer players. Without it, the
    pages of the test client show "checking..." for ever."""
    from support.runner import RunnerThread

    runner = RunnerThread(app).start()
    yield runner
    runner.stop()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def player(app):
    """A browser-like test client that sends CSRF tokens like the pages' forms do."""
    return Player(app)


@pytest.fixture
def make_player(app):
    return lambda: Player(app)


@pytest.fixture
def live_server(database_url, decks_folder, tmp_path):
    """The app served as `make run` serves it: gunicorn, gevent workers, a real database."""
    server = LiveServer(tmp_path / "live-instance", database_url, decks_folder,
                        workers=int(setting("TEST_WORKERS", "2")))
    server.start()
    yield server
    server.stop()


@pytest.fixture
def make_live_server(database_url, decks_folder, tmp_path):
    """Starts live servers like ``live_server``'s with other settings: ``workers`` and extra
    environment (``IDLE_SECONDS=0``, limits...); each stops after the test."""
    servers = []

    def start(workers: int = 2, **env) -> LiveServer:
        server = LiveServer(tmp_path / f"live-{len(servers)}", database_url, decks_folder, workers=workers,
                            env={key: str(value) for key, value in env.items()})
        servers.append(server)
        server.start()
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def sample_game():
    """The sample sixth game (tests/sample_game), registered for this test: its definition."""
    from support.sample import sample_registered

    with sample_registered() as definition:
        yield definition


@pytest.fixture
def unique_name():
    return lambda prefix="P": f"{prefix}{uuid.uuid4().hex[:6]}"
