"""Server memory (issue 6; a benchmark, not a test): resident memory of the whole server with 0,
100 and 500 unfinished games stored, and with 100 tables live.

    .venv/bin/python bench/memory.py [--stored 0,100,500] [--live 100] [--seconds 30]

Each case starts its own server as the README serves it (bench/harness.py's ``bench_server``: ``flask db
upgrade``, then ``python -m app.serve``: gunicorn with gevent workers, WORKERS=2, SQLite in a
temporary instance folder). Memory is RSS (VmRSS from /proc/<pid>/status) summed over the
gunicorn master and its workers; PSS (from /proc/<pid>/smaps_rollup, which splits pages shared
between processes) is printed beside it.

- Stored games: the database is filled directly (bench/growth.py's ``fill``: games just dealt,
  2-3 players, with seats waiting for their own devices), then the server is started and used a
  little - Menu A (which lists the unfinished games) 20 times, and 20 of the games watched - before
  its memory is read.
- Live tables: ``--live`` tables set up through the forms (bench/harness.py: a third hot-seat, a
  third LAN 2 players, a third LAN 3 players), every browser at every table with its event stream
  open (/games/<slug>/events, as the table page keeps it), and the players acting at a human pace
  (a mean 1 s of thought before each action) for ``--seconds``. Memory is sampled every second:
  the figure is the highest sample.

Target: under 150 MB with 100 live tables.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import growth  # noqa: E402
import harness  # noqa: E402  (bench/harness.py: the server, browsers, streams and tables)

TARGET_MB = 150


def pss(server: harness.LiveServer) -> int:
    return sum(server.memory("Pss", "smaps_rollup"))


def per_process(server: harness.LiveServer) -> str:
    return " + ".join(f"{rss / 2**20:.0f}" for rss in server.memory())


def mb(value: int) -> str:
    return f"{value / 2**20:.0f} MB"


def stored_case(count: int) -> tuple[int, int, str]:
    server = harness.bench_server(2, prefix=f"mason-memory-{count}-")
    try:
        server.upgrade()
        growth.fill(str(server.instance), unfinished=count)
        server.start(upgrade=False)
        browser = harness.Browser(server.url, "visitor", keep_alive=True)
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
    server = harness.bench_server(2, prefix="mason-memory-live-")
    tables: list[harness.Table] = []
    streams: list[harness.EventStream] = []
    try:
        server.start()
        idle = server.rss()
        tables = harness.set_up_tables(server, count)
        for table in tables:
            for browser in table.browsers:
                streams.append(harness.EventStream(server.url, table.slug, cookies=browser.cookies, reconnect=True, timeout=120))
        for stream in streams:
            stream.ready.wait(30)
        opened = sum(stream.ready.is_set() for stream in streams)
        samples: list[tuple[int, int]] = []
        stats = harness.Stats()
        stop = time.monotonic() + seconds
        players = threading.Thread(target=harness.run_all, args=(tables, harness.Table.play, stats, stop, think))
        players.start()
        while players.is_alive():
            samples.append((server.rss(), pss(server)))
            players.join(1.0)
        actions = len(stats.all(*harness.ACTION_KINDS))
        return {"idle": idle, "peak": max(s[0] for s in samples), "peak_pss": max(s[1] for s in samples),
                "end": samples[-1][0], "streams": opened, "actions": actions, "seconds": seconds,
                "events": sum(stream.count for stream in streams), "errors": stats.errors,
                "processes": per_process(server)}
    finally:
        for stream in streams:
            stream.close()
        for table in tables:
            table.close()
        server.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stored", default="0,100,500", help="unfinished games stored, comma-separated")
    parser.add_argument("--live", type=int, default=100, help="live tables")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=1.0)
    args = parser.parse_args()

    print("Server memory: RSS summed over the gunicorn master and its 2 workers (PSS beside it)")
    for count in [int(part) for part in args.stored.split(",") if part.strip()]:
        rss, pss_total, processes = stored_case(count)
        print(f"  {count:>4} unfinished games stored: RSS {mb(rss)} ({processes} MB), PSS {mb(pss_total)}", flush=True)
    if args.live:
        live = live_case(args.live, args.seconds, args.think)
        print(f"  {args.live} live tables: RSS {mb(live['idle'])} before they were set up, "
              f"peak {mb(live['peak'])} (PSS {mb(live['peak_pss'])}), {mb(live['end'])} at the end "
              f"({live['processes']} MB)")
        print(f"    {live['streams']} event streams open, {live['actions']} actions in {live['seconds']:.0f} s, "
              f"{live['events']} events received")
        for error in live["errors"][:5]:
            print(f"    ERROR {error}")
        verdict = "meets" if live["peak"] < TARGET_MB * 2**20 else "MISSES"
        print(f"  target < {TARGET_MB} MB with {args.live} live tables: {verdict} ({mb(live['peak'])})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
