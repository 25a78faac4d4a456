"""What a served worker loads: each of the server's workers holds its own copy of every module it
imports, so a module that only the database commands, the job runner or the other database need
stays out of it (``bench/memory.py`` measures what that saves). And what it loaded is kept out of
the cyclic garbage collector's way."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# A worker as gunicorn starts one (app/serve.py): gevent patches first, then the app.
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


# A worker as gunicorn starts one, then gunicorn's hook once the app is loaded (app/gunicorn_config.py).
START_A_WORKER = """
import gc, json, logging, types
from gevent import monkey
monkey.patch_all()
from wsgi import app
from app import gunicorn_config
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
