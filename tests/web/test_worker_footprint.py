"""What a served worker loads: each of the server's workers holds its own copy of every module it
imports, so a module that only the database commands, the job runner or the other database need
stays out of it (``bench/memory.py`` measures what that saves)."""

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
