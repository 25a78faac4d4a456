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


LIVE_FIXTURES = ("live_server", "make_live_server")


# Files whose tests share nothing but the session: each of their tests is a unit of its own for
# pytest-xdist (the benchmarks' runs, the computer players' whole games), not one long file.
EACH_TEST_ITS_OWN_UNIT = ("tests/test_benchmarks_run.py", "tests/games/test_protocol_properties.py",
                          "tests/games/test_strengths.py")
SLOW_WEIGHT, QUICK_WEIGHT = 20.0, 0.05  # a test's rough cost in seconds, for the order of the units

# Files and folders whose tests touch no database (the games, their terminals, the simulator, the
# benchmarks' runs, which serve SQLite databases of their own): marked ``database_free``, they run
# alike on every database, so CI runs them once, on its SQLite leg (.ci/run).
DATABASE_FREE = ("tests/games/", "tests/rules/", "tests/terminal/", "tests/test_simulate.py",
                 "tests/test_rule_citations.py", "tests/test_house_boundaries.py", "tests/test_benchmarks_run.py")
DATABASE_FIXTURES = ("databases", "database_url", "app", *LIVE_FIXTURES)


@pytest.hookimpl(tryfirst=True)  # (before pytest-xdist reads the groups, and before -m deselects)
def pytest_collection_modifyitems(config, items):
    """A test with a real server process is slow (over about 5 s with its server's start and
    stop): `make test-fast` leaves it out, `make test` runs it.

    For the Makefile's DIST (`--dist loadgroup`): each file is one unit of work, as with loadfile
    (its module-scoped server is started once), but a file of independent long tests is one unit
    per test; and the units are handed out longest first (xdist keeps this order with
    ``--no-loadscope-reorder``), so that no long unit is left alone on one worker at the end."""
    for item in items:
        fixtures = getattr(item, "fixturenames", ())
        if any(name in fixtures for name in LIVE_FIXTURES):
            item.add_marker(pytest.mark.slow)
        if item.nodeid.startswith(DATABASE_FREE) and not item.get_closest_marker("suite_database"):
            used = [name for name in DATABASE_FIXTURES if name in fixtures]
            if used:
                raise pytest.UsageError(f"{item.nodeid} takes {used} in a folder of tests that touch no database "
                                        "(DATABASE_FREE, tests/conftest.py): move it, or take its file off that list")
            item.add_marker(pytest.mark.database_free)
    if config.getoption("dist", "no") != "loadgroup":
        return
    cost: dict[str, float] = {}
    for item in items:
        slow = item.get_closest_marker("slow") or item.get_closest_marker("browser")
        cost[unit_of(item)] = cost.get(unit_of(item), 0.0) + (SLOW_WEIGHT if slow else QUICK_WEIGHT)
        item.add_marker(pytest.mark.xdist_group(unit_of(item)))
    items.sort(key=lambda item: -cost[unit_of(item)])  # (stable: a file's tests stay in order)


def unit_of(item) -> str:
    """The unit of work pytest-xdist hands a worker that ``item`` belongs to: its file, or itself."""
    path = item.nodeid.split("::")[0]
    return item.nodeid if path in EACH_TEST_ITS_OWN_UNIT else path


def shares_the_module_server(request) -> bool:
    """Whether the test uses the module's live server (``live_server``): its database and decks
    are then the server's."""
    return "live_server" in request.fixturenames and request.node.get_closest_marker("own_live_server") is None


@pytest.fixture
def database_url(request, databases, tmp_path):
    if shares_the_module_server(request):
        yield request.getfixturevalue("module_database_url")
        return
    url = databases.new_database(tmp_path / "mason.db")
    yield url
    databases.drop(url)


def copy_sample_decks(folder: Path) -> Path:
    folder.mkdir()
    for deck in SAMPLE_DECKS.glob("*.deck"):
        shutil.copy(deck, folder / deck.name)
    for game_folder in SAMPLE_DECKS.iterdir():
        if game_folder.is_dir():
            shutil.copytree(game_folder, folder / game_folder.name)
    return folder


@pytest.fixture
def decks_folder(request, tmp_path) -> Path:
    """A decks/ folder with the sample decks (Mason Rummy's, and every game's decks/<key>/),
    which a test may change freely (beside ``live_server``: the module's server's)."""
    if shares_the_module_server(request):
        return request.getfixturevalue("module_decks_folder")
    return copy_sample_decks(tmp_path / "decks")


@pytest.fixture(scope="module")
def module_database_url(databases, tmp_path_factory):
    url = databases.new_database(tmp_path_factory.mktemp("live-db") / "mason.db")
    yield url
    databases.drop(url)


@pytest.fixture(scope="module")
def module_decks_folder(tmp_path_factory) -> Path:
    return copy_sample_decks(tmp_path_factory.mktemp("live-decks") / "decks")


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


@pytest.fixture(scope="module")
def module_live_server(module_database_url, module_decks_folder, tmp_path_factory):
    # (the module's tests together set up more games and make more moves from this one address
    # than a family does in an hour: the limits' own tests take servers of their own)
    roomy = {"GAMES_PER_HOUR": "100000", "OWN_MOVES_PER_MINUTE": "100000", "SOLVES_PER_MINUTE": "100000"}
    server = LiveServer(tmp_path_factory.mktemp("live-instance"), module_database_url, module_decks_folder,
                        workers=int(setting("TEST_WORKERS", "2")), env=roomy)
    yield server
    server.stop()


@pytest.fixture
def live_server(request):
    """The app served as `make run` serves it: gunicorn, gevent workers, a real database. The
    tests of a module share one server, its database and its decks folder (each test sets up
    tables of its own; a server's start costs seconds): a test that stopped or killed it leaves
    it to be started again for the next. A test marked ``own_live_server`` gets a server, a
    database and decks of its own (a module whose job runner must start idle: the solver's); a
    test that needs other settings takes ``make_live_server``."""
    if request.node.get_closest_marker("own_live_server"):
        server = LiveServer(request.getfixturevalue("tmp_path") / "live-instance", request.getfixturevalue("database_url"),
                            request.getfixturevalue("decks_folder"), workers=int(setting("TEST_WORKERS", "2")))
        server.start()
        yield server
        server.stop()
        return
    server = request.getfixturevalue("module_live_server")
    if server.process is None or server.process.poll() is not None:
        server.stop(remove=False)
        server.start()
    yield server


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
