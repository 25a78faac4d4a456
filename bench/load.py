"""Actions under load (a benchmark, not a test): what a table action costs the server, and the
latency players feel with T tables playing, each as a ratio to a minimal Flask app's POST
measured in the same run.

    .venv/bin/python bench/load.py [--tables 10,50] [--seconds 10] [--think 1.0] [--repeat 3]

Two servers, both served the way `make run` serves the table (gunicorn, gevent workers,
WORKERS=2; ``app.serving.serve.gunicorn_command``), each with its SQLite file in a temporary folder:

- the card table (``flask db upgrade``, then ``python -m app.serving.serve``), its tables set up through
  the real forms (CSRF tokens, Menu A, Menu B seats, session cookies), a third of each kind:
  hot-seat (2 players on one browser; every turn starts with the hand-over's "show my hand" POST),
  LAN 2 players and LAN 3 players (the others joined with the code shown on the host's table).
  Players take real turns through the table form as htmx sends it (each move the game's computer
  player's choice, tests/support/moves.py); after each action every other browser at the table
  fetches its fragment (GET /table?since=V&steps=S), what an open table page does on its live event
  (``--refresh turn``: only the browser whose turn it is);
- the baseline, bench/minimal_app.py: a minimal Flask + Flask-SQLAlchemy app whose POST reads one
  row and writes it (one small write a request), one client per table.

For each T (the first T tables), ``--repeat`` rounds, the table and the baseline taking turns
(which goes first alternates), each round:
1. paced: every player (and every baseline client) thinks 0.5x-1.5x ``--think`` seconds before
   each request, for ``--seconds``: the latency players feel with T tables playing;
2. flat out: no think time, one request in flight per table: requests a second.

Printed for each round, with the machine's load average, and as the median of the rounds (the
p99 also over all the rounds' requests together):
- server CPU (user+system of the workers, from /proc: what other processes do hardly changes
  it) per request, actions and the refreshes they cause, against the baseline's per POST
  (goal: at most 1.3x), and per action with its refreshes counted in;
- the same beyond a bare request: a third paced phase, after the first, has the baseline's
  clients GET the minimal app's "/" (it answers "ok": gunicorn's, gevent's and Flask's own work
  for a request, the same for both apps), and that CPU is taken from both sides of the ratio (a
  diagnosis: where the difference lies, no goal);
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
import threading
import time

# bench/harness.py: the servers, browsers, pages and tables the benchmarks share
from harness import (ACTION_KINDS, KINDS, SERVER_TIME_FORMAT, Browser, LiveServer, Response, ServerTimes, Stats,
                     Table, baseline_server, bench_server, figures, load_average, set_up_tables)

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

    kind = "row"  # (its requests' name in the stats)

    def __init__(self, server: LiveServer, number: int):
        self.browser = Browser(server.url, f"base{number}", keep_alive=True, compressed=True)
        self.path = f"/row/r{number}"
        self.random = random.Random(number)

    def ask(self) -> Response:
        return self.browser.post(self.path, {}, csrf=False)

    def play(self, stats: Stats, until: float, think: float) -> None:
        try:
            while time.monotonic() < until:
                if think:
                    time.sleep(self.random.uniform(0.5 * think, 1.5 * think))
                answer = self.ask()
                if answer.status != 200:
                    raise RuntimeError(f"baseline: {answer.status}\n{answer.body[:500]}")
                stats.add(self.kind, answer.seconds)
        except Exception as error:
            stats.errors.append(f"baseline {self.kind} {self.path}: {type(error).__name__}: {error}")

    def close(self) -> None:
        self.browser.close()


class BareClient(BaselineClient):
    """A baseline client that asks the minimal app for "/" (the least a request costs the server)."""

    kind = "bare"

    def ask(self) -> Response:
        return self.browser.get("/")


class Phase:
    """One measured phase of one server: its stats, wall time, its workers' CPU seconds, the
    server's own time of each request (its access log), and the load average at its end."""

    def __init__(self, server: LiveServer):
        self.server = server
        self.stats = Stats()
        self.seconds = 0.0
        self.cpu = 0.0
        self.served: list[tuple[str, str, float]] = []
        self.load = ""
        self.times = ServerTimes(server)

    def begin(self) -> None:
        self.times.read()  # (what came before is not this phase's)
        self._cpu = self.server.cpu_seconds()

    def end(self, seconds: float) -> None:
        self.seconds = seconds
        self.cpu = self.server.cpu_seconds() - self._cpu
        self.served = self.times.read()
        self.load = load_average()

    def count(self, *kinds: str) -> int:
        return len(self.stats.all(*kinds))

    def rate(self, *kinds: str) -> float:
        return self.count(*kinds) / self.seconds if self.seconds else 0.0

    def server_seconds(self, method: str, *endings: str) -> list[float]:
        return [seconds for m, path, seconds in self.served
                if m == method and (not endings or path.endswith(endings))]


def run_phases(groups: list[tuple[Phase, list]], seconds: float, think: float) -> None:
    """Every client of every group at once, a thread each, for ``seconds``."""
    until = time.monotonic() + seconds
    threads = [threading.Thread(target=type(client).play, args=(client, phase.stats, until, think), daemon=True)
               for phase, clients in groups for client in clients]
    for phase, _clients in groups:
        phase.begin()
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for phase, _clients in groups:
        phase.end(time.monotonic() - started)


def ms(value: float) -> str:
    return f"{value:.2f}"


def one_round(number: int, server: LiveServer, base: LiveServer, tables: list[Table], clients: list,
              seconds: float, think: float, spy: str | None) -> dict:
    """The paced phase (the tables and the baseline's clients at once: the same machine, the same
    moment), then the flat-out phases of each in turn (which goes first alternates)."""
    phases = {"paced table": Phase(server), "paced base": Phase(base), "paced bare": Phase(base)}
    run_phases([(phases["paced table"], tables), (phases["paced base"], clients)], seconds, think)
    bare = [BareClient(base, number) for number in range(len(clients))]
    try:
        run_phases([(phases["paced bare"], bare)], seconds, think)
    finally:
        for client in bare:
            client.close()
    order = ("table", "base") if number % 2 == 0 else ("base", "table")
    for who in order:
        phase = phases[f"flat {who}"] = Phase(server if who == "table" else base)
        spies = start_profiles(server, seconds, spy, len(tables)) if spy and who == "table" else []
        run_phases([(phase, tables if who == "table" else clients)], seconds, 0.0)
        for process in spies:
            process.wait()
        if spies:
            print_profile([p.args[p.args.index("-o") + 1] for p in spies])
    return phases


def p99(values: list[float]) -> float:
    return figures(values).get("p99", 0.0)


def round_figures(phases: dict[str, Phase]) -> dict:
    kinds = ACTION_KINDS + ("refresh",)
    paced, base = phases["paced table"], phases["paced base"]
    flat, flat_base = phases["flat table"], phases["flat base"]
    actions, requests, posts = paced.count(*ACTION_KINDS), paced.count(*kinds), base.count("row")
    result = {"actions": actions, "requests": requests, "posts": posts,
              "cpu_request": 1000 * paced.cpu / max(1, requests), "cpu_action": 1000 * paced.cpu / max(1, actions),
              "cpu_post": 1000 * base.cpu / max(1, posts),
              "cpu_bare": 1000 * phases["paced bare"].cpu / max(1, phases["paced bare"].count("bare")),
              "p99": p99(paced.stats.all(*ACTION_KINDS)), "p50": figures(paced.stats.all(*ACTION_KINDS)).get("p50", 0.0),
              "base_p99": p99(base.stats.all("row")), "base_p50": figures(base.stats.all("row")).get("p50", 0.0),
              "server_p99": p99(paced.server_seconds("POST", "/act", "/reveal")),
              "server_refresh_p99": p99(paced.server_seconds("GET", "/table")),
              "server_base_p99": p99(base.server_seconds("POST")),
              "flat_rate": flat.rate(*ACTION_KINDS), "flat_requests": flat.rate(*kinds),
              "base_rate": flat_base.rate("row"),
              "action_seconds": paced.stats.all(*ACTION_KINDS), "post_seconds": base.stats.all("row"),
              "errors": [e for phase in phases.values() for e in phase.stats.errors],
              "loads": [phase.load for phase in phases.values()]}
    result["cpu_ratio"] = result["cpu_request"] / result["cpu_post"] if result["cpu_post"] else 0.0
    result["cpu_action_ratio"] = result["cpu_action"] / result["cpu_post"] if result["cpu_post"] else 0.0
    beyond_post = result["cpu_post"] - result["cpu_bare"]
    result["cpu_beyond_ratio"] = (result["cpu_request"] - result["cpu_bare"]) / beyond_post if beyond_post > 0 else 0.0
    result["p99_ratio"] = result["p99"] / result["base_p99"] if result["base_p99"] else 0.0
    result["server_p99_ratio"] = result["server_p99"] / result["server_base_p99"] if result["server_base_p99"] else 0.0
    result["rate_ratio"] = result["flat_rate"] / result["base_rate"] if result["base_rate"] else 0.0
    return result


def print_round(number: int, r: dict) -> None:
    print(f"  round {number + 1} (load average {r['loads'][0]} ... {r['loads'][-1]})")
    print(f"    paced, at once: {r['actions']} actions + {r['requests'] - r['actions']} refreshes; "
          f"{r['posts']} baseline POSTs")
    print(f"    server CPU per request {ms(r['cpu_request'])} ms, per action with its refreshes "
          f"{ms(r['cpu_action'])} ms; baseline per POST {ms(r['cpu_post'])} ms: "
          f"{r['cpu_ratio']:.2f}x ({r['cpu_action_ratio']:.2f}x per action)")
    print(f"    a bare GET / of the minimal app {ms(r['cpu_bare'])} ms; beyond it, a table request "
          f"{ms(r['cpu_request'] - r['cpu_bare'])} ms, the minimal POST {ms(r['cpu_post'] - r['cpu_bare'])} ms: "
          f"{r['cpu_beyond_ratio']:.2f}x")
    print(f"    paced latency p50 / p99 at the client: actions {r['p50']:.1f} / {r['p99']:.1f} ms, baseline "
          f"{r['base_p50']:.1f} / {r['base_p99']:.1f} ms: p99 {r['p99_ratio']:.2f}x")
    print(f"    paced p99 in the server (gunicorn's own time): actions {r['server_p99']:.1f} ms (refreshes "
          f"{r['server_refresh_p99']:.1f}), baseline {r['server_base_p99']:.1f} ms: {r['server_p99_ratio']:.2f}x")
    print(f"    flat out: {r['flat_rate']:.0f} actions/s ({r['flat_requests']:.0f} requests/s with refreshes), "
          f"baseline {r['base_rate']:.0f} POSTs/s: {r['rate_ratio']:.2f}")
    for error in r["errors"][:5]:
        print(f"    ERROR {error}")


def verdict(value: float, goal: float) -> str:
    return f"goal <= {goal}x: {'met' if value <= goal else 'NOT met'}"


def summary(count: int, rounds: list[dict]) -> dict:
    median = {key: statistics.median(r[key] for r in rounds)
              for key in ("cpu_ratio", "cpu_action_ratio", "p99_ratio", "server_p99_ratio", "rate_ratio",
                          "cpu_request", "cpu_post", "cpu_bare", "cpu_beyond_ratio")}
    print(f" T = {count}, median of {len(rounds)} rounds (load average now {load_average()}):")
    print(f"   server CPU per request / minimal POST: {median['cpu_ratio']:.2f}x "
          f"({ms(median['cpu_request'])} / {ms(median['cpu_post'])} ms; {verdict(median['cpu_ratio'], GOAL_CPU)}); "
          f"per action with its refreshes {median['cpu_action_ratio']:.2f}x")
    print(f"   the same beyond a bare request (a bare GET / of the minimal app, {ms(median['cpu_bare'])} ms, taken "
          f"from both): {median['cpu_beyond_ratio']:.2f}x (a diagnosis, no goal)")
    # Every round's actions and POSTs together: a round's p99 is about its fifth-slowest request,
    # which one stall of the shared machine moves several times over.
    pooled_actions = [v for r in rounds for v in r["action_seconds"]]
    pooled_posts = [v for r in rounds for v in r["post_seconds"]]
    posts_p99 = p99(pooled_posts)
    pooled = p99(pooled_actions) / posts_p99 if posts_p99 else 0.0

    def p99_goal(ratio: float) -> str:
        return verdict(ratio, GOAL_P99) if count == GOAL_P99_TABLES else f"goal at T = {GOAL_P99_TABLES}"

    print(f"   paced action p99 / minimal POST p99, at the client: {median['p99_ratio']:.2f}x the median of the "
          f"rounds' ({p99_goal(median['p99_ratio'])}); {pooled:.2f}x over all {len(pooled_actions)} actions and "
          f"{len(pooled_posts)} POSTs of the rounds ({p99_goal(pooled)})")
    print(f"   the same in the server (gunicorn's time, no client in it): {median['server_p99_ratio']:.2f}x")
    print(f"   flat-out actions/s / minimal POSTs/s: {median['rate_ratio']:.2f}")
    return {"T": count, **median, "pooled_p99_ratio": pooled, "errors": sum(len(r["errors"]) for r in rounds)}


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

    server = bench_server(args.workers, prefix="mason-load-bench-", access_log=SERVER_TIME_FORMAT)
    base = baseline_server(args.workers, access_log=SERVER_TIME_FORMAT)
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
