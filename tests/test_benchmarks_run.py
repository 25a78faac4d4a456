"""Every benchmark in bench/ runs, briefly: each is started as its README line starts it, with
tiny sizes, and must end without an error and print its figures (the lines named below). No
figure is judged: on a shared machine a time says nothing, and a benchmark never fails on one.
A benchmark that needs what this machine may lack says so instead (the C solver without a
compiler, several servers without PostgreSQL)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from config import setting

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"

# benchmark: (tiny arguments, what its output must say)
RUNS = {
    "bots.py": (["--games", "1"], ["median ms", "load average"]),
    "compression.py": (["--repeat", "2"], ["(served)", "load average"]),
    "engine.py": (["--repeat", "1", "--games", "3"], ["games"]),
    "growth.py": (["--small", "2", "--large", "4", "--rounds", "1", "--requests", "2", "--tables", "1"], ["ratio"]),
    "live.py": (["--tables", "2", "--actions", "2", "--bumps", "2", "--repeat", "1", "--think", "0.1"],
                ["minimal Flask SSE publish p99, over all rounds", "load average"]),
    "idle.py": (["--tables", "3", "--seconds", "1", "--repeat", "1"],
                ["the table's idle CPU beyond the minimal app's", "load average"]),
    "load.py": (["--tables", "3", "--seconds", "2", "--repeat", "1"],
                ["server CPU per request / minimal POST", "paced action p99 / minimal POST p99", "POSTs of the rounds",
                 "beyond a bare request", "load average"]),
    "memory.py": (["--stored", "0", "--live", "3", "--seconds", "2"],
                  ["live tables' peak RSS of the workers / the minimal app's", "the whole servers' peak RSS",
                   "load average", "the workers' anonymous memory",
                   "loading the app adds to a worker", "the table's code alone"]),
    "points_bot.py": (["--deals", "4"], []),
    "points_evaluator.py": (["--hands", "40", "--deals", "2", "--repeat", "1"], []),
    "request_cpu.py": (["--actions", "5", "--repeat", "1", "--parts", "--trims"],
                       ["the minimal POST", "load average", "action, median wall time of its parts: ",
                        "until commit", "making the answer alone, median of 1: an action's",
                        "the trims left together, median of 1"]),
    "replays.py": (["--repeat", "1", "--short", "10", "--long", "60"], ["ratio", "load average"]),
    "rummy_bot.py": (["--games", "4"], []),
    "rummy_hands.py": (["--repeat", "1", "--games", "2"], []),
    "scores.py": (["--rows", "60", "--repeat", "1", "--games", "1"], ["load average"]),
    "seahaven_solver.py": (["--deals", "3", "--kind", "classic", "--no-lines"], ["load average"]),
    "seahaven_table.py": (["--deals", "1", "--baseline", "2", "--moves", "3", "--off-line", "1",
                           "--quiet-seconds", "1", "--attack-seconds", "2", "--connections", "2"],
                          ["Menu A, under the attack", "load average"]),
    "slow_connections.py": (["--connections", "300", "--loads", "3", "--repeat", "1"],
                            ["flood / quiet over 1 rounds", "load average"]),
    "server_start.py": (["--repeat", "1"], ["written ahead / none to read", "load average"]),
    "servers.py": (["--tables", "2", "--actions", "2", "--think", "0.1", "--idle", "2"], ["cross"]),
    "twentyone_bots.py": (["--games", "3", "--rounds", "60", "--repeat", "1"], []),
    "weight.py": (["--turns", "6"], []),
    "worker_gc.py": (["--repeat", "1"], ["the table / the minimal app", "load average"]),
}


def test_every_benchmark_is_run_here():
    """A benchmark added to bench/ gets a tiny run here too (the harness and the baseline app are
    not benchmarks)."""
    found = {path.name for path in BENCH.glob("*.py")} - {"harness.py", "minimal_app.py"}
    assert found == set(RUNS)


def postgres_url() -> str | None:
    url = setting("TEST_DATABASE")
    return url if url and make_url(url).get_backend_name() == "postgresql" else None


# The runs that serve the suite's database when it is PostgreSQL (the others serve SQLite databases
# of their own, so tests/conftest.py marks them database_free).
ON_THE_SUITE_S_DATABASE = ("servers.py", "seahaven_table.py")


@pytest.mark.slow
@pytest.mark.parametrize("name", [pytest.param(name, marks=pytest.mark.suite_database)
                                  if name in ON_THE_SUITE_S_DATABASE else name for name in sorted(RUNS)])
def test_benchmark_runs_briefly(name):
    arguments, expected = RUNS[name]
    if name == "seahaven_solver.py" and os.environ.get("SEAHAVEN_C_SOURCE"):
        arguments = [*arguments, "--c-source", os.environ["SEAHAVEN_C_SOURCE"]]
    if name == "servers.py" and postgres_url() is None:
        pytest.skip("servers.py measures two servers on one PostgreSQL: it runs here when the suite does "
                    "(CARD_TABLE_TEST_DATABASE)")
    if name in ON_THE_SUITE_S_DATABASE and postgres_url() is not None:
        arguments = [*arguments, "--database-url", postgres_url()]
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("DATABASE_URL", "SECRET_KEY", "GUNICORN_CMD_ARGS")}
    done = subprocess.run([sys.executable, str(BENCH / name), *arguments], cwd=ROOT, env=environment,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-4000:]
    assert "Traceback" not in done.stdout, done.stdout[-4000:]
    for text in expected:
        assert text in done.stdout, f"{name} did not print {text!r}:\n{done.stdout[-4000:]}"
    if name == "seahaven_solver.py" and "--c-source" not in arguments:
        assert "skipped" in done.stdout.lower() or "c solver" in done.stdout.lower(), done.stdout[-2000:]
