"""Actions under load (a benchmark, not a test): what a table action costs the server, and the
latency players feel with T tables playing, each as a ratio to a minimal Flask app's POST
measured in the same run.

    .venv/bin/python bench/load.py [--tables 10,50] [--seconds 10] [--think 1.0] [--repeat 3]

Two servers, both served the way `make run` serves the table (gunicorn, gevent workers,
WORKERS=2; ``app.serve.gunicorn_command``), each with its SQLite file in a temporary folder:

- the card table (``flask db upgrade``, then ``python -m app.serve``), its tables set up through
  the real forms (CSRF tokens, Menu A, Menu B seats, session cookies), a third of each kind:
  hot-seat (2 players on one browser; every turn starts with the hand-over's "show my hand" POST),
  LAN 2 players and LAN 3 players (the others joined with the code shown on the host's table).
  Players take real turns through the table form as htmx sends it (each move the game's computer
  player's choice, tests/support/moves.py); after each action every other browser at the table
  fetches its fragment (GET /table?since=V), what an open table page does on its live event
  (``--refresh turn``: only the browser whose turn it is);
- the baseline, bench/minimal_app.py: a minimal Flask + Flask-SQLAlchemy app whose POST reads one
  row and writes it (one small write a request), one client per table.

For each T (the first T tables), ``--repeat`` rounds, the table and the baseline taking turns
(which goes first alternates), each round:
1. paced: every player (and every baseline client) thinks 0.5x-1.5x ``--think`` seconds before
   each request, for ``--seconds``: the latency players feel with T tables playing;
2. flat out: no think time, one request in flight per table: requests a second.

Printed for each round, with the machine's load average, and as the median of the rounds:
- server CPU (user+system of the workers, from /proc: what other processes do hardly changes
  it) per request, actions and the refreshes they cause, against the baseline's per POST
  (goal: at most 1.3x), and per action with its refreshes counted in;
- paced action p99 against the paced baseline POST's p99 (goal at T = 50: at most 2x);
- flat-out actions a second against baseline POSTs a second.
Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time

# bench/harness.py: the servers, browsers, pages and tables the benchmarks share
from harness import (ACTION_KINDS, KINDS, Browser, LiveServer, Stats, Table, baseline_server, bench_server,
                     figures, load_average, run_all, set_up_tables)

# -- profiling the workers (--py-spy) -------------------------------------------------------------


def start_profiles(server: LiveServer, seconds: float, folder: str, count: int) -> list[subprocess.Popen]:
    """py-spy samples every worker during the flat-out phase (collapsed stacks, one file each)."""
    os.makedirs(folder, exist_ok=True)
    spy = os.path.join(os.path.dirname(sys.executable), "py-spy")
    return [subprocess.Popen([spy, "record", "--pid", str(pid), "--duration", str(max(1, int(seconds) - 1)),
                              "--rate", "250", "--format", "raw", "--nonblocking",
                              "-o", os.path.join(folder, f"T{count}-worker{pid}.txt")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for pid in server.worker_pids()]


def print_profile(paths: list[str], top: int = 25) -> None:
    """The functions of the app (and its templates) with the largest share of the samples,
    counting the time spent in what they call (inclusive)."""
    inclusive: dict[str, int] = {}
    total = 0
    for path in paths:
        try:
            lines = open(path).read().splitlines()
        except OSError:
            continue
        for line in lines:
            stack, _, count = line.rpartition(" ")
            total += int(count)
            seen = set()
            for frame in stack.split(";"):
                name, _, where = frame.partition(" (")
                if where.startswith(("app/", "templates/")) or ".html:" in where or name in ("Flask.wsgi_app", "_sendall"):
                    key = f"{name} ({where.rsplit(':', 1)[0].split('/')[-1]})"
                    if key not in seen:
                        seen.add(key)
                        inclusive[key] = inclusive.get(key, 0) + int(count)
    print(f"  py-spy, flat-out phase ({total} samples; stacks in {os.path.dirname(paths[0])}):")
    for key, count in sorted(inclusive.items(), key=lambda item: -item[1])[:top]:
        print(f"    {100 * count / max(1, total):5.1f}%  {key}")


GOAL_CPU = 1.3  # server CPU per request, at most this times the minimal POST's
GOAL_P99 = 2.0  # paced action p99 at 50 tables, at most this times the minimal POST's
GOAL_P99_TABLES = 50


class BaselineClient:
    """One baseline client per table: POST /row/r<number> to the minimal app."""

    def __init__(self, server: LiveServer, number: int):
        self.browser = Browser(server.url, f"base{number}", keep_alive=True)
        self.path = f"/row/r{number}"
        self.random = random.Random(number)

    def play(self, stats: Stats, until: float, think: float) -> None:
        try:
            while time.monotonic() < until:
                if think:
                    time.sleep(self.random.uniform(0.5 * think, 1.5 * think))
                answer = self.browser.post(self.path, {}, csrf=False)
                if answer.status != 200:
                    raise RuntimeError(f"baseline: {answer.status}\n{answer.body[:500]}")
                stats.add("row", answer.seconds)
        except Exception as error:
            stats.errors.append(f"baseline {self.path}: {type(error).__name__}: {error}")

    def close(self) -> None:
        self.browser.close()


class Phase:
    """One measured phase: its stats, wall time, the server's CPU seconds and the load."""

    def __init__(self, server: LiveServer, clients: list, until_seconds: float, think: float):
        self.stats = Stats()
        cpu = server.cpu_seconds()
        self.seconds = run_all(clients, type(clients[0]).play, self.stats, time.monotonic() + until_seconds, think)
        self.cpu = server.cpu_seconds() - cpu
        self.load = load_average()

    def count(self, *kinds: str) -> int:
        return len(self.stats.all(*kinds))

    def rate(self, *kinds: str) -> float:
        return self.count(*kinds) / self.seconds if self.seconds else 0.0


def ms(value: float) -> str:
    return f"{value:.2f}"


def one_round(number: int, server: LiveServer, base: LiveServer, tables: list[Table], clients: list,
              seconds: float, think: float, spy: str | None) -> dict:
    """The paced and flat-out phases of the table and of the baseline, taking turns."""
    phases: dict[str, Phase] = {}
    order = ("table", "base") if number % 2 == 0 else ("base", "table")
    for pace, pause in (("paced", think), ("flat", 0.0)):
        for who in order:
            if who == "table":
                spies = start_profiles(server, seconds, spy, len(tables)) if spy and pace == "flat" else []
                phases[f"{pace} table"] = Phase(server, tables, seconds, pause)
                for process in spies:
                    process.wait()
                if spies:
                    print_profile([p.args[p.args.index("-o") + 1] for p in spies])
            else:
                phases[f"{pace} base"] = Phase(base, clients, seconds, pause)
    return phases


def round_figures(phases: dict[str, Phase]) -> dict:
    kinds = ACTION_KINDS + ("refresh",)
    paced, base = phases["paced table"], phases["paced base"]
    flat, flat_base = phases["flat table"], phases["flat base"]
    actions, requests, posts = paced.count(*ACTION_KINDS), paced.count(*kinds), base.count("row")
    result = {"actions": actions, "requests": requests, "posts": posts,
              "cpu_request": 1000 * paced.cpu / max(1, requests), "cpu_action": 1000 * paced.cpu / max(1, actions),
              "cpu_post": 1000 * base.cpu / max(1, posts),
              "p99": figures(paced.stats.all(*ACTION_KINDS)).get("p99", 0.0),
              "p50": figures(paced.stats.all(*ACTION_KINDS)).get("p50", 0.0),
              "base_p99": figures(base.stats.all("row")).get("p99", 0.0),
              "base_p50": figures(base.stats.all("row")).get("p50", 0.0),
              "flat_rate": flat.rate(*ACTION_KINDS), "flat_requests": flat.rate(*kinds),
              "base_rate": flat_base.rate("row"),
              "errors": [e for phase in phases.values() for e in phase.stats.errors],
              "loads": [phase.load for phase in phases.values()]}
    result["cpu_ratio"] = result["cpu_request"] / result["cpu_post"] if result["cpu_post"] else 0.0
    result["cpu_action_ratio"] = result["cpu_action"] / result["cpu_post"] if result["cpu_post"] else 0.0
    result["p99_ratio"] = result["p99"] / result["base_p99"] if result["base_p99"] else 0.0
    result["rate_ratio"] = result["flat_rate"] / result["base_rate"] if result["base_rate"] else 0.0
    return result


def print_round(number: int, r: dict) -> None:
    print(f"  round {number + 1} (load average {r['loads'][0]} ... {r['loads'][-1]})")
    print(f"    paced: {r['actions']} actions + {r['requests'] - r['actions']} refreshes, {r['posts']} baseline POSTs")
    print(f"    server CPU per request {ms(r['cpu_request'])} ms, per action with its refreshes "
          f"{ms(r['cpu_action'])} ms; baseline per POST {ms(r['cpu_post'])} ms: "
          f"{r['cpu_ratio']:.2f}x ({r['cpu_action_ratio']:.2f}x per action)")
    print(f"    paced latency p50 / p99: actions {r['p50']:.1f} / {r['p99']:.1f} ms, baseline "
          f"{r['base_p50']:.1f} / {r['base_p99']:.1f} ms: p99 {r['p99_ratio']:.2f}x")
    print(f"    flat out: {r['flat_rate']:.0f} actions/s ({r['flat_requests']:.0f} requests/s with refreshes), "
          f"baseline {r['base_rate']:.0f} POSTs/s: {r['rate_ratio']:.2f}")
    for error in r["errors"][:5]:
        print(f"    ERROR {error}")


def verdict(value: float, goal: float) -> str:
    return f"goal <= {goal}x: {'met' if value <= goal else 'NOT met'}"


def summary(count: int, rounds: list[dict]) -> dict:
    median = {key: statistics.median(r[key] for r in rounds)
              for key in ("cpu_ratio", "cpu_action_ratio", "p99_ratio", "rate_ratio", "cpu_request", "cpu_post")}
    print(f" T = {count}, median of {len(rounds)} rounds (load average now {load_average()}):")
    print(f"   server CPU per request / minimal POST: {median['cpu_ratio']:.2f}x "
          f"({ms(median['cpu_request'])} / {ms(median['cpu_post'])} ms; {verdict(median['cpu_ratio'], GOAL_CPU)}); "
          f"per action with its refreshes {median['cpu_action_ratio']:.2f}x")
    p99_goal = verdict(median["p99_ratio"], GOAL_P99) if count == GOAL_P99_TABLES else f"goal at T = {GOAL_P99_TABLES}"
    print(f"   paced action p99 / minimal POST p99: {median['p99_ratio']:.2f}x ({p99_goal})")
    print(f"   flat-out actions/s / minimal POSTs/s: {median['rate_ratio']:.2f}")
    return {"T": count, **median, "errors": sum(len(r["errors"]) for r in rounds)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="10,50", help="comma-separated table counts T")
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each phase")
    parser.add_argument("--think", type=float, default=1.0, help="mean think time (s) of the paced phase")
    parser.add_argument("--repeat", type=int, default=3, help="rounds per T (the median is reported)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--refresh", choices=("all", "turn"), default="all",
                        help="after an action, every other browser at the table fetches its fragment "
                             "(all: what open table pages do) or only the one whose turn it is (turn)")
    parser.add_argument("--py-spy", metavar="FOLDER", help="profile the workers with py-spy during each "
                        "flat-out phase of the table; the stacks go to FOLDER, a summary is printed")
    args = parser.parse_args()
    counts = [int(part) for part in args.tables.split(",") if part.strip()]

    server = bench_server(args.workers, prefix="mason-load-bench-")
    base = baseline_server(args.workers)
    print(f"The table and the minimal app, each served as `make run` serves the table: gunicorn, gevent, "
          f"{args.workers} workers, SQLite (load average {load_average()})", flush=True)
    server.start()
    base.start()
    summaries = []
    tables: list[Table] = []
    clients: list[BaselineClient] = []
    try:
        started = time.monotonic()
        tables = set_up_tables(server, max(counts))
        clients = [BaselineClient(base, number) for number in range(max(counts))]
        for table in tables:
            table.everyone = args.refresh == "all"
        kinds = {kind: sum(t.kind == kind for t in tables) for kind in KINDS}
        print(f"Set up {len(tables)} tables through the forms ({', '.join(f'{n} {k}' for k, n in kinds.items())}) "
              f"in {time.monotonic() - started:.1f} s", flush=True)
        for count in counts:
            print(f"\nT = {count} tables", flush=True)
            rounds = []
            for number in range(args.repeat):
                phases = one_round(number, server, base, tables[:count], clients[:count], args.seconds,
                                   args.think, args.py_spy)
                rounds.append(round_figures(phases))
                print_round(number, rounds[-1])
            summaries.append(summary(count, rounds))
    finally:
        for client in [*tables, *clients]:
            client.close()
        server.stop()
        base.stop()
    return 1 if any(s["errors"] for s in summaries) else 0


if __name__ == "__main__":
    sys.exit(main())
