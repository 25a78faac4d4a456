"""Server memory (a benchmark, not a test): resident memory of the server with 0, 100
and 500 unfinished games stored, and of its workers with 100 tables live.

    .venv/bin/python bench/memory.py [--stored 0,100,500] [--live 100] [--seconds 30]

Each case starts its own server as the README serves it (bench/harness.py's ``bench_server``: ``flask db
upgrade``, then ``python -m app.serving.serve``: gunicorn with gevent workers, WORKERS=2, SQLite in a
temporary instance folder). Memory is RSS (VmRSS from /proc/<pid>/status) summed over the
gunicorn master, its workers and the job runner it keeps; PSS (from /proc/<pid>/smaps_rollup,
which splits pages shared between processes) is printed beside it.

- Stored games: the database is filled directly (bench/growth.py's ``fill``: games just dealt,
  2-3 players, with seats waiting for their own devices), then the server is started and used a
  little - Menu A (which lists the unfinished games) 20 times, and 20 of the games watched - before
  its memory is read.
- Live tables: ``--live`` tables set up through the forms (bench/harness.py: a third hot-seat, a
  third LAN 2 players, a third LAN 3 players), every browser at every table with its event stream
  open (/games/<slug>/events, as the table page keeps it), and the players acting at a human pace
  (a mean 1 s of thought before each action) for ``--seconds``. Memory is sampled every second:
  the figures are the highest samples, of the workers' RSS summed (the goal's measure) and of the
  whole server's (the master and the job runner too).

The baseline, in the same run: bench/minimal_app.py (a minimal Flask + Flask-SQLAlchemy app)
served with the same gunicorn settings (gevent, 2 workers; no job runner: the minimal app has
none), holding as many event streams as the live tables' browsers, one client per table
publishing a small write to its streams at the same pace (POST /games/r<n>/bump), sampled the
same way. With ``--repeat`` the two alternate.

Also printed, to say where the difference lies: the workers' memory at the peak in two parts,
anonymous (their objects) and file-backed (the shared libraries they map), for both apps; and
what loading each app adds to a process's anonymous memory beyond Flask, Flask-SQLAlchemy and
SQLAlchemy, which both load (a fresh process, as a worker loads it: gevent's patching first, the
served interpreter's flags), with that difference times the workers beside what the goal allows.

Goal ("measured by RSS of all workers"): the live tables' workers at their peak at most
1.05x the baseline's workers, or 150 MB, whichever is larger. The whole servers are printed beside
it, with no goal: the table's has a process the minimal app has no counterpart for (the job
runner, which keeps a solver's work and slow computer players off the requests).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import growth  # noqa: E402
import harness  # noqa: E402  (bench/harness.py: the server, browsers, streams and tables)

WORKERS = 2  # as `make run` serves the table
GOAL_RATIO = 1.05
GOAL_FLOOR_MB = 150


def pss(server: harness.LiveServer) -> int:
    return sum(server.memory("Pss", "smaps_rollup"))


def per_process(server: harness.LiveServer) -> str:
    return " + ".join(f"{rss / 2**20:.0f}" for rss in server.memory())


def mb(value: int) -> str:
    return f"{value / 2**20:.0f} MB"


def workers_rss(server: harness.LiveServer) -> int:
    """The workers' resident memory summed, bytes (VmRSS; the goal's measure)."""
    return sum(server.memory(pids=server.worker_pids()))


def workers_split(server: harness.LiveServer) -> tuple[int, int]:
    """The workers' resident memory in two parts, bytes: anonymous (their own objects, the
    interpreter's heap) and file-backed (the shared libraries and files they have mapped)."""
    workers = server.worker_pids()
    return sum(server.memory("RssAnon", pids=workers)), sum(server.memory("RssFile", pids=workers))


# Run as a worker loads its app (gevent's patching first, the served interpreter's flags): the
# anonymous memory that importing the app's module adds once Flask, Flask-SQLAlchemy and
# SQLAlchemy, which both apps load, are in.
LOADING = """
import importlib, sys
from gevent import monkey
monkey.patch_all()
def anonymous_kb():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("RssAnon:"))
import flask, flask_sqlalchemy, sqlalchemy
before = anonymous_kb()
importlib.import_module(sys.argv[1])
print(anonymous_kb() - before)
"""


def loading_cost(server: harness.LiveServer, module: str, folder: str) -> int:
    """Bytes of anonymous memory that loading ``module`` (the served WSGI app, from ``folder``,
    with the server's environment) adds to a process, beyond the libraries both apps load."""
    import app

    python = getattr(app, "SERVING_PYTHON", (sys.executable,))  # (an older checkout served without flags)
    env = dict(server.env, CARD_TABLE_SERVING="1")
    done = subprocess.run([*python, "-c", LOADING, module], cwd=folder, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"loading {module} failed:\n{done.stderr[-2000:]}")
    return int(done.stdout.split()[-1]) * 1024


def stored_case(count: int) -> tuple[int, int, str]:
    server = harness.bench_server(WORKERS, prefix=f"mason-memory-{count}-")
    try:
        server.upgrade()
        growth.fill(str(server.instance), unfinished=count)
        server.start(upgrade=False)
        browser = harness.Browser(server.url, "visitor", keep_alive=True, compressed=True)
        slugs = []
        for _ in range(20):
            body = browser.get("/").body
            slugs = [part.split('"', 1)[0] for part in body.split('href="/games/')[1:]]
        for slug in [s.split("/")[0] for s in slugs][:20]:
            browser.get(f"/games/{slug}/watch")
        browser.close()
        time.sleep(0.5)
        return server.rss(), pss(server), per_process(server)
    finally:
        server.stop()


def live_case(count: int, seconds: float, think: float) -> dict:
    server = harness.bench_server(WORKERS, prefix="mason-memory-live-")
    tables: list[harness.Table] = []
    streams: list[harness.EventStream] = []
    try:
        server.start()
        idle = server.rss()
        loading = loading_cost(server, "wsgi", str(server.root))
        tables = harness.set_up_tables(server, count)
        streams = harness.open_table_streams(server, tables)
        opened = sum(stream.ready.is_set() for stream in streams)
        samples: list[tuple[int, int, tuple[int, int], int]] = []
        stats = harness.Stats()
        stop = time.monotonic() + seconds
        players = threading.Thread(target=harness.run_all, args=(tables, harness.Table.play, stats, stop, think))
        players.start()
        while players.is_alive():
            samples.append((server.rss(), pss(server), workers_split(server), workers_rss(server)))
            players.join(1.0)
        actions = len(stats.all(*harness.ACTION_KINDS))
        peak = max(samples, key=lambda sample: sample[3])
        return {"idle": idle, "peak": max(s[0] for s in samples), "peak_pss": max(s[1] for s in samples),
                "workers": peak[3], "split": peak[2],
                "end": samples[-1][0], "streams": opened, "actions": actions, "seconds": seconds,
                "events": sum(stream.count for stream in streams), "errors": stats.errors,
                "processes": per_process(server), "loading": loading}
    finally:
        harness.close_all(server, streams, tables)


class Publisher:
    """One baseline table: a client publishing to its row's streams at a player's pace."""

    def __init__(self, server: harness.LiveServer, number: int):
        self.browser = harness.Browser(server.url, f"base{number}", keep_alive=True, compressed=True)
        self.path = f"/games/r{number}/bump"
        self.random = random.Random(number)

    def play(self, stats: harness.Stats, until: float, think: float) -> None:
        try:
            while time.monotonic() < until:
                time.sleep(self.random.uniform(0.5 * think, 1.5 * think))
                answer = self.browser.post(self.path, {}, csrf=False)
                if answer.status != 200:
                    raise RuntimeError(f"{answer.status} {answer.body[:200]}")
                stats.add("publish", answer.seconds)
        except Exception as error:
            stats.errors.append(f"{self.path}: {type(error).__name__}: {error}")


def baseline_case(count: int, streams_per_table: list[int], seconds: float, think: float) -> dict:
    """The minimal app with the live case's streams and pace (see the module's docstring)."""
    server = harness.baseline_server(WORKERS)
    streams: list[harness.EventStream] = []
    publishers: list[Publisher] = []
    try:
        server.start()
        idle = server.rss()
        loading = loading_cost(server, "minimal_app", harness.HERE)
        streams = harness.open_baseline_streams(server, streams_per_table)
        publishers = [Publisher(server, number) for number in range(count)]
        samples: list[tuple[int, tuple[int, int], int]] = []
        stats = harness.Stats()
        players = threading.Thread(target=harness.run_all,
                                   args=(publishers, Publisher.play, stats, time.monotonic() + seconds, think))
        players.start()
        while players.is_alive():
            samples.append((server.rss(), workers_split(server), workers_rss(server)))
            players.join(1.0)
        peak = max(samples, key=lambda sample: sample[2])
        return {"idle": idle, "peak": max(s[0] for s in samples), "workers": peak[2], "split": peak[1], "streams": sum(s.ready.is_set() for s in streams),
                "publishes": len(stats.all("publish")), "events": sum(stream.count for stream in streams),
                "errors": stats.errors, "processes": per_process(server), "loading": loading}
    finally:
        for stream in streams:
            stream.close()
        for publisher in publishers:
            publisher.browser.close()
        server.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stored", default="0,100,500", help="unfinished games stored, comma-separated")
    parser.add_argument("--live", type=int, default=100, help="live tables")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=1, help="live and baseline cases, alternating")
    args = parser.parse_args()

    print("Server memory: RSS summed over the gunicorn master, its 2 workers and the job runner (PSS beside it); "
          "with live tables, the workers' RSS summed too (the goal's measure)")
    for count in [int(part) for part in args.stored.split(",") if part.strip()]:
        rss, pss_total, processes = stored_case(count)
        print(f"  {count:>4} unfinished games stored: RSS {mb(rss)} ({processes} MB), PSS {mb(pss_total)}", flush=True)
    if args.live:
        streams_per_table = harness.streams_per_table(args.live)  # as many as the live case's browsers
        ratios = []
        servers: list[float] = []
        for number in range(args.repeat):
            cases = ("live", "base") if number % 2 == 0 else ("base", "live")
            found = {}
            for case in cases:
                if case == "live":
                    found[case] = live_case(args.live, args.seconds, args.think)
                else:
                    found[case] = baseline_case(args.live, streams_per_table, args.seconds, args.think)
            live, base = found["live"], found["base"]
            print(f"  round {number + 1} (load average {harness.load_average()}):")
            print(f"    {args.live} live tables: the workers' RSS at the peak {mb(live['workers'])}; the whole server "
                  f"{mb(live['idle'])} before they were set up, peak {mb(live['peak'])} (PSS {mb(live['peak_pss'])}), "
                  f"{mb(live['end'])} at the end (master, job runner and workers: {live['processes']} MB); "
                  f"{live['streams']} event streams open, {live['actions']} actions in {live['seconds']:.0f} s, "
                  f"{live['events']} events received")
            print(f"    the minimal app: the workers' RSS at the peak {mb(base['workers'])}; the whole server "
                  f"{mb(base['idle'])} idle, peak {mb(base['peak'])} (master and workers: {base['processes']} MB); "
                  f"{base['streams']} event streams open, {base['publishes']} publishes, {base['events']} events received")
            print(f"    at the peaks, the workers' anonymous memory {mb(live['split'][0])} against "
                  f"{mb(base['split'][0])}, file-backed (shared libraries) {mb(live['split'][1])} against "
                  f"{mb(base['split'][1])}")
            print(f"    loading the app adds to a worker (anonymous memory, beyond Flask, Flask-SQLAlchemy and "
                  f"SQLAlchemy): {live['loading'] / 2**20:.1f} MB, the minimal app {base['loading'] / 2**20:.1f} MB")
            for error in (live["errors"] + base["errors"])[:5]:
                print(f"    ERROR {error}")
            allowed = max(GOAL_RATIO * base["workers"], GOAL_FLOOR_MB * 2**20)
            ratios.append((live["workers"] / base["workers"], live["workers"], allowed))
            servers.append(live["peak"] / base["peak"])
            code = WORKERS * (live["loading"] - base["loading"])
            print(f"    the workers' peak ratio {ratios[-1][0]:.2f}x (the goal allows {mb(allowed)}); the whole servers' "
                  f"{servers[-1]:.2f}x; the table's code alone, loaded by each of the {WORKERS} workers, is "
                  f"{mb(code)} over the minimal app's")
        ratio, peak, allowed = sorted(ratios)[len(ratios) // 2]
        verdict = "met" if peak <= allowed else "NOT met"
        print(f"  live tables' peak RSS of the workers / the minimal app's, median of {len(ratios)}: {ratio:.2f}x "
              f"({mb(peak)}; goal: at most {GOAL_RATIO}x or {GOAL_FLOOR_MB} MB, whichever is larger, here "
              f"{mb(allowed)}: {verdict})")
        print(f"  the whole servers' peak RSS (the table's master, job runner and workers / the minimal app's master "
              f"and workers), median of {len(servers)}: {statistics.median(servers):.2f}x (no goal)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
