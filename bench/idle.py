"""Open tables while nobody plays (a benchmark, not a test): the server's CPU with every browser
of ``--tables`` tables keeping its event stream open and no move made, against the minimal app
holding as many streams, measured in the same run.

    .venv/bin/python bench/idle.py [--tables 100] [--seconds 20] [--repeat 2]

A family leaves the table open on a laptop between games, a classroom's phones keep their pages
open: an idle server should cost next to nothing. Both servers are served as `make run` serves
the table (bench/harness.py: gunicorn, gevent workers, WORKERS=2, SQLite in a temporary folder);
the table's ``--tables`` tables are set up through the forms (a third hot-seat, a third LAN 2
players, a third LAN 3 players: 1, 2 or 3 streams each), the minimal app gets as many streams.
After 3 s of settling, the workers' CPU (user + system, /proc) over ``--seconds`` is printed as
a share of one core, for each, round by round (which goes first alternating) with the machine's
load average, and the table's CPU less the minimal app's. No goal is set by the issue: printed
for the record. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import statistics
import time

import harness  # bench/harness.py: the servers, browsers, streams and tables

SETTLE_SECONDS = 3.0


def share_of_a_core(server: harness.LiveServer, seconds: float) -> float:
    time.sleep(SETTLE_SECONDS)
    before, started = server.cpu_seconds(), time.monotonic()
    time.sleep(seconds)
    return (server.cpu_seconds() - before) / (time.monotonic() - started)


def table_case(count: int, seconds: float) -> tuple[float, int]:
    server = harness.bench_server(2, prefix="mason-idle-")
    tables: list[harness.Table] = []
    streams: list[harness.EventStream] = []
    try:
        server.start()
        tables = harness.set_up_tables(server, count)
        streams = harness.open_table_streams(server, tables)
        return share_of_a_core(server, seconds), sum(stream.ready.is_set() for stream in streams)
    finally:
        harness.close_all(server, streams, tables)


def baseline_case(streams_per_table: list[int], seconds: float) -> tuple[float, int]:
    server = harness.baseline_server(2)
    streams: list[harness.EventStream] = []
    try:
        server.start()
        streams = harness.open_baseline_streams(server, streams_per_table)
        return share_of_a_core(server, seconds), sum(stream.ready.is_set() for stream in streams)
    finally:
        harness.close_all(server, streams)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--repeat", type=int, default=2, help="rounds, the table and the minimal app alternating")
    args = parser.parse_args()

    streams_per_table = harness.streams_per_table(args.tables)
    print(f"Idle servers: {args.tables} tables' event streams open, nobody playing, the workers' CPU "
          f"over {args.seconds:.0f} s (2 gevent workers each)")
    differences = []
    for number in range(args.repeat):
        cases = ("table", "base") if number % 2 == 0 else ("base", "table")
        found = {case: table_case(args.tables, args.seconds) if case == "table"
                 else baseline_case(streams_per_table, args.seconds) for case in cases}
        (table, table_streams), (base, base_streams) = found["table"], found["base"]
        differences.append(table - base)
        print(f"  round {number + 1} (load average {harness.load_average()}): the table {100 * table:.1f}% of a "
              f"core ({table_streams} streams), the minimal app {100 * base:.1f}% ({base_streams} streams): "
              f"the table's idle cost beyond the minimal app's {100 * (table - base):+.1f}% of a core")
    print(f"the table's idle CPU beyond the minimal app's, median of {args.repeat}: "
          f"{100 * statistics.median(differences):+.1f}% of a core (no goal: for the record)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
