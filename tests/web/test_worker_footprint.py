"""What a served worker loads: each of the server's workers holds its own copy of every module it
imports, so a module that only the database commands, the job runner or the other database need
stays out of it (``bench/memory.py`` measures what that saves). What it loaded is kept out of
the cyclic garbage collector's way. And a worker that starts loads the templates compiled by
`make run`'s upgrade (or by the worker before it) instead of compiling them while players wait."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from jinja2.bccache import bc_magic
from support import first_version

from app.settings import COMPILED_TEMPLATES

ROOT = Path(__file__).resolve().parents[2]

# A worker as gunicorn starts one (app/serving/serve.py): gevent patches first, then the app.
LOAD_AS_A_WORKER = """
import json, sys
from gevent import monkey
monkey.patch_all()
from wsgi import app
print(json.dumps(sorted(sys.modules)))
"""


def modules_of_a_served_worker(database_url: str, instance: Path) -> set[str]:
    environment = dict(os.environ, CARD_TABLE_SERVING="1", DATABASE_URL=database_url,
                       CARD_TABLE_INSTANCE=str(instance))
    done = subprocess.run([sys.executable, "-c", LOAD_AS_A_WORKER], cwd=ROOT, env=environment,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def test_a_served_worker_loads_neither_the_database_commands_nor_the_solver_nor_another_database(
        database_url, tmp_path):
    loaded = modules_of_a_served_worker(database_url, tmp_path / "instance")
    assert "app.web.play" in loaded and "app.games.seahaven" in loaded  # (it did load the table)

    def loaded_from(package: str) -> list[str]:
        return sorted(name for name in loaded if name == package or name.startswith(package + "."))

    # `flask db` (Alembic, Mako) is for `make run`'s upgrade, before any worker starts.
    assert loaded_from("alembic") == [] and loaded_from("flask_migrate") == [] and loaded_from("mako") == []
    # Seahaven's solver answers in the job runner (S5), never on a request.
    assert loaded_from("app.games.seahaven.solver") == []
    assert not [name for name in loaded if name.startswith("app.games.seahaven._solver_native")]
    if database_url.startswith("sqlite"):
        assert loaded_from("sqlalchemy.dialects.postgresql") == []


# A worker as gunicorn starts one, then gunicorn's hook once the app is loaded (app/serving/gunicorn_config.py).
START_A_WORKER = """
import gc, json, logging, types
from gevent import monkey
monkey.patch_all()
from wsgi import app
from app.serving import gunicorn_config
gunicorn_config.post_worker_init(types.SimpleNamespace(log=logging.getLogger("worker"), age=2))
print(json.dumps({"frozen": gc.get_freeze_count(), "tracked": len(gc.get_objects())}))
"""


def test_a_worker_that_has_loaded_the_app_leaves_what_it_loaded_out_of_the_collectors_walks(database_url, tmp_path):
    """A full collection walks every object it tracks, and each worker holds some 85,000 after
    loading the app: every request of the worker waited 15-45 ms each time. Frozen once loaded,
    they are no longer walked (gc.freeze)."""
    environment = dict(os.environ, CARD_TABLE_SERVING="1", DATABASE_URL=database_url,
                       CARD_TABLE_INSTANCE=str(tmp_path / "instance"))
    done = subprocess.run([sys.executable, "-c", START_A_WORKER], cwd=ROOT, env=environment,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    counts = json.loads(done.stdout.strip().splitlines()[-1])
    assert counts["frozen"] > 10 * counts["tracked"], counts


# -- compiled templates -----------------------------------------------------------------------------


@pytest.fixture
def a_worker(database_url, decks_folder):
    """``a_worker(instance)``: an app as a newly started worker has it (its own process would hold
    nothing else), with the templates it compiles counted; each is closed after the test."""
    from app.factory import create_app
    from config import TestConfig

    started = []

    def start(instance: Path):
        app = create_app(TestConfig, instance_path=str(instance), SQLALCHEMY_DATABASE_URI=database_url,
                         DECKS_FOLDER=str(decks_folder))
        started.append(app)
        app.compiled = []  # type: ignore[attr-defined]
        compile_source = app.jinja_env.compile

        def counted(source, name=None, *args, **kwargs):
            app.compiled.append(name)  # type: ignore[attr-defined]
            return compile_source(source, name, *args, **kwargs)

        app.jinja_env.compile = counted  # type: ignore[method-assign]
        return app

    yield start
    for app in started:
        first_version.close(app)


def shows_a_table(app) -> None:
    """Menu A, a game set up and its table: the pages a worker renders first."""
    from support.web import Player

    player = Player(app)
    assert player.client.get("/").status_code == 200
    slug = player.start_game(["Ann", "Bob"], devices=["here", "here"])
    page = player.get(f"/games/{slug}")
    assert page.status_code == 200 and 'id="table"' in page.get_data(as_text=True)


def test_the_upgrade_compiles_every_template_and_a_worker_then_compiles_none(app, a_worker):
    """`make run`'s upgrade (`flask --app wsgi upgrade`) compiles them before any worker starts:
    a worker that compiled a table's templates at its first table held up all of its requests
    for 50-150 ms (an upgrade compiles the 73 templates in about 0.4 s; a worker loads them
    compiled about 30 times faster)."""
    instance = Path(app.instance_path)
    done = app.test_cli_runner().invoke(args=["upgrade"])
    assert done.exit_code == 0, done.output
    templates = app.jinja_env.list_templates()
    assert len(templates) > 50 and "table/_table.html" in templates and "games/mason/_board.html" in templates
    assert len(list((instance / COMPILED_TEMPLATES).iterdir())) == len(templates)

    worker = a_worker(instance)
    shows_a_table(worker)
    assert worker.compiled == []


def test_a_worker_keeps_what_it_compiles_for_the_next_one(a_worker, tmp_path):
    instance = tmp_path / "instance"
    first = a_worker(instance)
    shows_a_table(first)
    assert "table/_table.html" in first.compiled

    second = a_worker(instance)
    shows_a_table(second)
    assert second.compiled == []


@pytest.mark.parametrize("damage", ["cut short", "not a cache file", "folder gone"])
def test_a_damaged_or_missing_cache_costs_only_a_compilation(damage, a_worker, tmp_path):
    instance = tmp_path / "instance"
    shows_a_table(a_worker(instance))
    folder = instance / COMPILED_TEMPLATES
    worker = a_worker(instance)
    if damage == "folder gone":  # (after the worker started: nothing can be written either)
        shutil.rmtree(folder)
    for file in folder.glob("*") if folder.exists() else []:
        # cut short inside the source's checksum: Jinja checks the header before it, not the checksum
        file.write_bytes(file.read_bytes()[:len(bc_magic) + 5] if damage == "cut short" else b"not compiled code")

    shows_a_table(worker)
    assert "table/_table.html" in worker.compiled
    if damage != "folder gone":  # what it compiled again replaced the damaged files
        next_worker = a_worker(instance)
        shows_a_table(next_worker)
        assert next_worker.compiled == []
