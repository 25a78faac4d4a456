"""The cyclic garbage collector in a served worker (a benchmark, not a test): how many objects a
worker tracks once it has loaded its app, and how long a full collection of them takes, before
and after gunicorn's ``post_worker_init`` (app/serving/gunicorn_config.py) freezes what it loaded - for
the table and for bench/minimal_app.py, which is served with the same settings.

    .venv/bin/python bench/worker_gc.py [--repeat 5]

Each app is loaded in a process of its own as gunicorn's gevent worker loads it (gevent patches
first, then the app), answers one GET /, and then times ``gc.collect()`` (a full collection:
every request and event stream of a worker waits while it runs) ``--repeat`` times before the
hook and as many after. Printed: the objects tracked, the median collection, and the table's
ratio to the minimal app's, with the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

# A worker as gunicorn starts one: gevent first, then the app, one request, then the hook.
WORKER = """
import gc, json, logging, statistics, sys, time, types
from gevent import monkey
monkey.patch_all()
if sys.argv[1] == "minimal":
    from minimal_app import app
else:
    from wsgi import app
from app.serving import gunicorn_config
app.test_client().get("/")
repeat = int(sys.argv[2])

def collections():
    gc.collect()  # (what the start left to free goes first: then the steady cost)
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        gc.collect()
        times.append(time.perf_counter() - started)
    return statistics.median(times), len(gc.get_objects())

before, tracked = collections()
gunicorn_config.post_worker_init(types.SimpleNamespace(log=logging.getLogger("worker"), age=2))
after, left = collections()
print(json.dumps({"tracked": tracked, "before": before, "left": left, "after": after}))
"""


def load_average() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def measure(kind: str, repeat: int, folder: Path) -> dict:
    environment = dict(os.environ, CARD_TABLE_SERVING="1", DATABASE_URL=f"sqlite:///{folder}/table.db",
                       CARD_TABLE_INSTANCE=str(folder / "instance"), MINIMAL_DATABASE=str(folder / "minimal.db"),
                       PYTHONPATH=os.pathsep.join([str(ROOT), str(HERE)]))
    done = subprocess.run([sys.executable, "-c", WORKER, kind, str(repeat)], cwd=ROOT, env=environment,
                          capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise RuntimeError(f"the {kind} worker failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="full collections timed before and after the hook")
    args = parser.parse_args()
    sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(HERE)]
    from support.databases import migrate

    import minimal_app

    folder = Path(tempfile.mkdtemp(prefix="worker-gc-"))
    migrate(f"sqlite:///{folder}/table.db", folder / "instance")
    minimal_app.create(str(folder / "minimal.db"))
    found = {kind: measure(kind, args.repeat, folder) for kind in ("table", "minimal")}
    print(f"A worker's full garbage collection, median of {args.repeat} (load average {load_average()}):")
    for kind, label in (("table", "the table"), ("minimal", "the minimal app")):
        figures = found[kind]
        print(f"  {label}: {figures['tracked']:,} objects tracked, {1000 * figures['before']:.1f} ms a collection; "
              f"after the worker's hook {figures['left']:,} tracked, {1000 * figures['after']:.2f} ms")
    table, minimal = found["table"], found["minimal"]
    print(f"  the table / the minimal app: {table['before'] / minimal['before']:.2f}x before the hook "
          f"({table['tracked'] / minimal['tracked']:.2f}x the objects)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
