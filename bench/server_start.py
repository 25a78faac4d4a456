"""A server's start (a benchmark, not a test): the wall time until it answers with every worker
up, and the CPU its processes (gunicorn's master, its workers and the job runner) spend until
they settle, with Python's bytecode written ahead (`make run`'s ``bytecode`` step) against the
same server with no bytecode to read, as on a machine where PYTHONDONTWRITEBYTECODE is set and
nothing was compiled ahead (an empty PYTHONPYCACHEPREFIX), measured in the same run.

    .venv/bin/python bench/server_start.py [--repeat 3]

The server runs Python with -OO (app/settings.py); `pip install` compiles the libraries only at
the plain level. Every test with a live server, every benchmark and every restart of the table
pays a start. Run ``make bytecode`` first (``make run`` and ``make test`` do). Nothing is
asserted.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time

import harness  # bench/harness.py: the server as `make run` serves it

SETTLED_BELOW = 0.02  # CPU seconds over half a second: the processes are done starting


def settled_cpu(server: harness.LiveServer, timeout: float = 20.0) -> float:
    """The server's processes' CPU seconds once they stop spending it (the job runner loads the
    games after the server answers)."""
    deadline = time.monotonic() + timeout
    last = server.cpu_seconds(master=True)
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = server.cpu_seconds(master=True)
        if now - last < SETTLED_BELOW:
            return now
        last = now
    return last


def one_start(uncompiled: bool) -> tuple[float, float]:
    """(wall seconds until the server answers, CPU seconds until it settles)."""
    with tempfile.TemporaryDirectory(prefix="no-bytecode-") as empty:
        env = {"PYTHONPYCACHEPREFIX": empty, "PYTHONDONTWRITEBYTECODE": "1"} if uncompiled else {}
        server = harness.bench_server(2, prefix="mason-start-", env=env)
        try:
            server.upgrade()
            started = time.monotonic()
            server.start()
            wall = time.monotonic() - started
            return wall, settled_cpu(server)
        finally:
            server.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="starts of each kind, alternating")
    args = parser.parse_args()

    print("A server's start (2 gevent workers and the job runner, SQLite): wall time until it answers, "
          "CPU of all its processes until they settle")
    found: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
    for number in range(args.repeat):
        for uncompiled in ((False, True) if number % 2 == 0 else (True, False)):
            wall, cpu = one_start(uncompiled)
            found[uncompiled].append((wall, cpu))
            kind = "no bytecode to read" if uncompiled else "bytecode written ahead"
            print(f"  start {number + 1}, {kind}: {wall:.2f} s until it answers, {cpu:.2f} s CPU "
                  f"(load average {harness.load_average()})")
    walls = {kind: statistics.median(wall for wall, _ in runs) for kind, runs in found.items()}
    cpus = {kind: statistics.median(cpu for _, cpu in runs) for kind, runs in found.items()}
    print(f"median of {args.repeat}: bytecode written ahead {walls[False]:.2f} s until it answers, "
          f"{cpus[False]:.2f} s CPU; no bytecode to read {walls[True]:.2f} s, {cpus[True]:.2f} s CPU")
    print(f"written ahead / none to read: wall {walls[False] / walls[True]:.2f}x, CPU {cpus[False] / cpus[True]:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
