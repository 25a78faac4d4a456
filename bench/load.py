"""Actions under load (issue 6; a benchmark, not a test): per-action latency and actions per
second with T tables playing at once, against a baseline measured in the same run.

    .venv/bin/python bench/load.py [--tables 1,10,50,100] [--seconds 12] [--think 1.0]

The server is started as the README serves it (``flask db upgrade``, then ``python -m
app.serve``: gunicorn with gevent workers, WORKERS=2, ADMIN_PASSWORD set) on a free port, with
the SQLite file in a temporary instance folder. Every table is set up through the real forms
(CSRF tokens, Menu A, Menu B seats, session cookies), a third of each kind:

- hot-seat: 2 players on one browser (one cookie jar); every turn starts with the hand-over
  screen and its "show my hand" POST (/reveal);
- LAN, 2 players: the host plays seat 1 on their browser, seat 2 joins on its own browser with
  the join code shown on the host's table (POST /join);
- LAN, 3 players: the same with two joined browsers.

Players take real turns through the table form as htmx sends it (HX-Request, the #table
fragment comes back), each move the game's computer player's choice on the game as the server
stored it (tests/support/moves.py: draw, lay down what the hand allows, discard); at a round's
end "Deal round",
at the game's end a rematch (the others follow it). When a turn passes to another browser, that
browser fetches its fragment (GET /table?since=V, what htmx does on the live event): a
"refresh", timed too. An action is any table form POST (draw, lay down, discard, next round,
reveal); its latency is from sending the request to having read the whole response.

For each T (the first T tables; all are set up at the start):
1. paced: every player thinks 0.5x-1.5x ``--think`` seconds before each action (a fast human),
   for ``--seconds``: the latency players feel with T tables playing (target: p99 < 25 ms at 50);
2. flat out: no think time, one request in flight per table (concurrency T): actions per second;
3. baseline, flat out at the same concurrency T: POST /bench/row/<slug> (app/web/bench.py,
   registered because the server gets MASON_BENCH_ROUTES=1) reads one SQLite row and writes it,
   with the same session cookie and CSRF check. Half is measured before the flat-out actions and
   half after, so drift of the shared machine shows in both. Target: actions/s at least half the
   baseline's requests/s.

The server's own CPU time (user+system of the gunicorn workers, from /proc) per request is
printed as well: unlike wall-clock time it hardly depends on what else runs on the machine.
Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

# bench/harness.py: the server, browsers, pages and tables the benchmarks share
from harness import ACTION_KINDS, KINDS, LiveServer, Stats, Table, bench_server, figures, run_all, set_up_tables

TARGET_P99_MS = 25.0
TARGET_RATIO = 0.5


# -- the baseline client -------------------------------------------------------------------------


def row_baseline(table: Table, stats: Stats, until: float) -> None:
    """The baseline client: the table's host browser posts the one-row read+write route."""
    try:
        while time.monotonic() < until:
            answer = table.host.post(f"/bench/row/{table.slug}", {})
            if answer.status != 200:
                raise RuntimeError(f"baseline: {answer.status}\n{answer.body[:500]}")
            stats.add("row", answer.seconds)
    except Exception as error:
        stats.errors.append(f"baseline {table.number}: {type(error).__name__}: {error}")


# -- figures ------------------------------------------------------------------------------------


def line(label: str, values: list[float], seconds: float | None = None, cpu: float | None = None) -> str:
    f = figures(values)
    if "p50" not in f:
        return f"  {label:<22} n={f['n']} (too few)"
    text = f"  {label:<22} n={f['n']:<6} p50 {f['p50']:6.1f} ms  p99 {f['p99']:6.1f} ms  max {f['max']:6.1f} ms"
    if seconds:
        text += f"  {f['n'] / seconds:7.1f}/s"
    if cpu is not None and f["n"]:
        text += f"  server CPU {1000 * cpu / f['n']:.2f} ms each"
    return text


class Phase:
    """One measured phase: its stats, wall time and the server's CPU seconds."""

    def __init__(self, server: LiveServer):
        self.server = server
        self.stats = Stats()
        self.seconds = 0.0
        self.cpu = 0.0

    def run(self, tables: list[Table], work, *args) -> "Phase":
        cpu = self.server.cpu_seconds()
        self.seconds += run_all(tables, work, self.stats, *args)
        self.cpu += self.server.cpu_seconds() - cpu
        return self

    def count(self, *kinds: str) -> int:
        return len(self.stats.all(*kinds))

    def rate(self, *kinds: str) -> float:
        return self.count(*kinds) / self.seconds if self.seconds else 0.0


def measure(server: LiveServer, tables: list[Table], seconds: float, think: float,
            profile: str | None = None) -> dict:
    """The paced, baseline and flat-out phases for these tables (see the module docstring)."""
    paced = Phase(server).run(tables, Table.play, time.monotonic() + seconds, think)
    baseline = Phase(server)
    flat = Phase(server)
    baseline.run(tables, row_baseline, time.monotonic() + seconds / 2)
    spies = start_profiles(server, seconds, profile, len(tables)) if profile else []
    flat.run(tables, Table.play, time.monotonic() + seconds, 0.0)
    for spy in spies:
        spy.wait()
    baseline.run(tables, row_baseline, time.monotonic() + seconds / 2)
    if spies:
        print_profile([spy.args[spy.args.index("-o") + 1] for spy in spies])
    return {"paced": paced, "flat": flat, "baseline": baseline}


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


def report(count: int, phases: dict, think: float) -> dict:
    paced, flat, baseline = phases["paced"], phases["flat"], phases["baseline"]
    all_kinds = ACTION_KINDS + ("refresh",)
    print(f"\nT = {count} tables, concurrency {count}")
    print(f" paced (think {think:.1f} s): {paced.rate(*ACTION_KINDS):.1f} actions/s over {paced.seconds:.1f} s")
    print(line("actions", paced.stats.all(*ACTION_KINDS), paced.seconds))
    for kind in all_kinds:
        if paced.count(kind) >= 20:
            print(line(f"  {kind}", paced.stats.all(kind)))
    server_ms = 1000 * paced.cpu / max(1, paced.count(*all_kinds))
    print(f"  server CPU {server_ms:.2f} ms per request (actions and refreshes)")
    print(f" flat out: {flat.rate(*ACTION_KINDS):.1f} actions/s, {flat.rate(*all_kinds):.1f} requests/s "
          f"(with refreshes) over {flat.seconds:.1f} s")
    print(line("actions", flat.stats.all(*ACTION_KINDS), flat.seconds))
    print(line("refreshes", flat.stats.all("refresh"), flat.seconds))
    print(f"  server CPU {1000 * flat.cpu / max(1, flat.count(*all_kinds)):.2f} ms per request")
    print(f" baseline (read + write one row), flat out: {baseline.rate('row'):.1f} requests/s")
    print(line("row", baseline.stats.all("row"), baseline.seconds, baseline.cpu))
    result = {"T": count, "paced": figures(paced.stats.all(*ACTION_KINDS)),
              "flat": figures(flat.stats.all(*ACTION_KINDS)), "base": figures(baseline.stats.all("row")),
              "flat_rate": flat.rate(*ACTION_KINDS), "base_rate": baseline.rate("row"),
              "paced_rate": paced.rate(*ACTION_KINDS)}
    if result["base_rate"]:
        ratio = result["flat_rate"] / result["base_rate"]
        result["ratio"] = ratio
        print(f" ratio: actions/s / baseline requests/s = {ratio:.2f} "
              f"(target >= {TARGET_RATIO}: {'meets' if ratio >= TARGET_RATIO else 'MISSES'})")
        if "p50" in result["flat"] and "p50" in result["base"]:
            print(f"        flat-out latency action/baseline: p50 {result['flat']['p50'] / result['base']['p50']:.2f}x, "
                  f"p99 {result['flat']['p99'] / result['base']['p99']:.2f}x")
    errors = [e for phase in phases.values() for e in phase.stats.errors]
    for error in errors[:10]:
        print(f" ERROR {error}")
    result["errors"] = len(errors)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="1,10,50,100", help="comma-separated table counts T")
    parser.add_argument("--seconds", type=float, default=12.0, help="length of each phase")
    parser.add_argument("--think", type=float, default=1.0, help="mean think time (s) of the paced phase")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--refresh", choices=("all", "turn"), default="all",
                        help="after an action, every other browser at the table fetches its fragment "
                             "(all: what open table pages do) or only the one whose turn it is (turn)")
    parser.add_argument("--py-spy", metavar="FOLDER", help="profile the workers with py-spy during each "
                        "flat-out phase; the stacks go to FOLDER, a summary is printed")
    args = parser.parse_args()
    counts = [int(part) for part in args.tables.split(",") if part.strip()]

    server = bench_server(args.workers, prefix="mason-load-bench-")
    print(f"Starting the server as the README serves it: gunicorn, gevent, {args.workers} workers, "
          f"SQLite in {server.instance}, {server.url}", flush=True)
    server.start()
    results = []
    tables: list[Table] = []
    try:
        started = time.monotonic()
        tables = set_up_tables(server, max(counts))
        for table in tables:
            table.everyone = args.refresh == "all"
        kinds = {kind: sum(t.kind == kind for t in tables) for kind in KINDS}
        print(f"Set up {len(tables)} tables through the forms ({', '.join(f'{n} {k}' for k, n in kinds.items())}) "
              f"in {time.monotonic() - started:.1f} s; after an action "
              f"{'every other browser at the table' if args.refresh == 'all' else 'the browser whose turn it is'}"
              f" fetches its fragment", flush=True)
        for count in counts:
            cpu = time.process_time()
            phases = measure(server, tables[:count], args.seconds, args.think, args.py_spy)
            results.append(report(count, phases, args.think))
            print(f" (this client used {time.process_time() - cpu:.1f} CPU s)", flush=True)
        rss = server.rss()
    finally:
        for table in tables:
            table.close()
        server.stop()

    print("\nSummary (ms; actions/s; ratio = flat-out actions/s / baseline requests/s)")
    print(f"{'T':>4} {'paced p50':>10} {'paced p99':>10} {'flat p50':>9} {'flat p99':>9} {'actions/s':>10} "
          f"{'base p50':>9} {'base p99':>9} {'base/s':>8} {'ratio':>6}")
    for r in results:
        p, f, b = r["paced"], r["flat"], r["base"]
        if "p50" not in p or "p50" not in f or "p50" not in b:
            print(f"{r['T']:>4} (too few samples)")
            continue
        print(f"{r['T']:>4} {p['p50']:>10.1f} {p['p99']:>10.1f} {f['p50']:>9.1f} {f['p99']:>9.1f} "
              f"{r['flat_rate']:>10.1f} {b['p50']:>9.1f} {b['p99']:>9.1f} {r['base_rate']:>8.1f} {r.get('ratio', 0):>6.2f}")
    for r in results:
        if r["T"] == 50 and "p99" in r["paced"]:
            verdict = "meets" if r["paced"]["p99"] < TARGET_P99_MS else "MISSES"
            print(f"target paced p99 < {TARGET_P99_MS:.0f} ms with 50 tables: {verdict} ({r['paced']['p99']:.1f} ms)")
    print(f"server RSS at the end: {rss / 2**20:.0f} MB (master + {args.workers} workers)")
    return 1 if any(r["errors"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
