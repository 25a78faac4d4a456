"""Several servers on one PostgreSQL: live delivery across servers, and the database's load while
nothing happens.

    .venv/bin/python bench/servers.py                       # its own throwaway PostgreSQL (Debian's)
    .venv/bin/python bench/servers.py --database-url postgresql://postgres@127.0.0.1:55441/postgres
    .venv/bin/python bench/servers.py --idle 120 --tables 20 --actions 12
    .venv/bin/python bench/servers.py --root ../an-older-checkout          # the same, served by other code

Two servers as `make run` starts them (`flask db upgrade`, then `python -m app.serving.serve`: gunicorn,
2 gevent workers each), each with its own instance folder, on one new database.

1. Idle load: the database's transactions a second (``pg_stat_database``: xact_commit +
   xact_rollback, read before and after an idle interval, less this script's own reads), first
   with no stream open, then with 16 streams open (4 tables, 2 on each server per table) and
   nothing happening. Target: under 2 a second with the 16 streams.
2. Live delivery at 20 tables: each table's host and first player use server A, its second player
   server B; besides the players' and the host's streams, each table has a spectator's stream on
   each server. The tables play concurrently (the game's computer player's choices, through the
   table's form, 0.5-1.5 s think time). For each action sent to server X, the time from sending it
   to the ``changed`` event at the spectator's stream on X is a same-server delivery, on the other
   server a cross-server delivery: the same actions, the same moment, so the ratio is fair whatever
   the machine's load. Target: cross-server p99 at most 1.2x same-server p99.

Figures are printed, never asserted. bench/README.md keeps the last ones beside this command.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import threading
import time

import harness  # bench/harness.py: the server, browsers, pages, streams and the move chooser
from harness import Browser, LiveServer, Page, PostgresDatabase, figures, run_all, sensible_move

TARGET_RATIO = 1.2
TARGET_IDLE_PER_SECOND = 2.0
EVENT_TIMEOUT = 10.0  # an event not received by then counts as lost
DECK = "ai_showcase.deck"


def idle_rate(database: PostgresDatabase, seconds: float) -> float:
    """The database's transactions a second over ``seconds`` of nothing happening."""
    before = database.transactions()
    time.sleep(seconds)
    after = database.transactions()
    return max(0, after - before - 1) / seconds  # (-1: the first read itself)


# -- a table on two servers -----------------------------------------------------------------------


class Table:
    """Host and first player on server A, second player on server B, a spectator on each."""

    def __init__(self, servers: list[LiveServer], number: int, think: float):
        self.servers = servers
        self.number = number
        self.think = think
        self.random = random.Random(number)
        a, b = servers
        self.host = Browser(a.url, f"t{number}-host", keep_alive=True, compressed=True)
        self.players = [Browser(a.url, f"t{number}-ann", keep_alive=True, compressed=True),
                        Browser(b.url, f"t{number}-bob", keep_alive=True, compressed=True)]
        self.changed = threading.Condition()
        self.streams: list[harness.ArrivalStream] = []
        self.spectators: list[harness.ArrivalStream] = []  # on server A, on server B
        self.slug = ""
        self.version = 0
        self.same: list[float] = []
        self.cross: list[float] = []
        self.lost = 0
        self.actions = 0
        self.error: str | None = None
        self.pages: list[Page] = []

    def set_up(self) -> None:
        self.slug, codes = harness.new_game(self.host, [(f"Ann{self.number}", "own"), (f"Bob{self.number}", "own")],
                                            deck=DECK)
        for player, code in zip(self.players, codes):
            harness.claim_seat(player, code, self.slug)  # each on its own server: the codes are in the database
        self.version = Page(self.host.fetch(f"/games/{self.slug}/table").body).table_version

    def open_streams(self) -> None:
        for browser in [self.host, *self.players]:
            self.streams.append(harness.ArrivalStream(browser.base_url, self.slug, self.version, self, browser.cookies))
        self.spectators = [harness.ArrivalStream(server.url, self.slug, self.version, self) for server in self.servers]
        self.streams += self.spectators
        for stream in self.streams:
            if not stream.ready.wait(30):
                raise RuntimeError("an event stream did not start")

    def act(self, seat: int, version: int) -> Page:
        if self.think:
            time.sleep(self.random.uniform(0.5 * self.think, 1.5 * self.think))
        choice = sensible_move(self.servers[0].state(self.slug))
        browser = self.players[seat]
        sent = time.monotonic()
        answer = browser.post(f"/games/{self.slug}/act", choice.form(version), htmx=True)
        if answer.status != 200:
            raise RuntimeError(f"{browser.name} {choice.name}: {answer.status}\n{answer.body[:1500]}")
        page = Page(answer.body)
        new = page.table_version
        deadline = sent + EVENT_TIMEOUT
        with self.changed:  # every stream of the table has the new version (as players wait for a move)
            while any(stream.arrival(new) is None for stream in self.streams):
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                self.changed.wait(remaining)
            here, there = (self.spectators[seat], self.spectators[1 - seat])
            if here.arrival(new) is None or there.arrival(new) is None:
                self.lost += 1
            else:
                self.same.append(here.arrival(new) - sent)
                self.cross.append(there.arrival(new) - sent)
        self.actions += 1
        refresh = self.pages[seat].refresh_url  # (the table at ``version``, as every browser there has it)
        self.pages[seat] = page
        other = self.players[1 - seat]
        self.pages[1 - seat] = Page(other.fetch(refresh).body)
        self.host.fetch(refresh)
        return page

    def play(self, wanted: int) -> None:
        try:
            harness.play_two_seats(self, wanted)
        except Exception as error:  # reported with the figures; the other tables go on
            self.error = f"{type(error).__name__}: {error}"

    def close(self) -> None:
        for stream in self.streams:
            stream.close()
        self.streams, self.spectators = [], []


def line(label: str, f: dict) -> str:
    if "p50" not in f:
        return f"{label:<26} n={f['n']} (too few)"
    return (f"{label:<26} n={f['n']:<5} p50 {f['p50']:7.1f} ms  p90 {f['p90']:7.1f} ms  "
            f"p99 {f['p99']:7.1f} ms  max {f['max']:7.1f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", help="a PostgreSQL server to create the database on "
                                               "(default: a throwaway one, scripts/throwaway-postgres)")
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--actions", type=int, default=12, help="timed actions per table")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds before each action (0.5x-1.5x)")
    parser.add_argument("--idle", type=float, default=60.0, help="seconds of each idle measurement")
    parser.add_argument("--workers", type=int, default=2, help="gevent workers per server")
    parser.add_argument("--root", default=harness.ROOT, help="serve this checkout instead (to measure an older "
                                                             "version with the same client)")
    args = parser.parse_args()

    database = PostgresDatabase(args.database_url, prefix="bench_servers")
    unlimited = {"EVENTS_PER_ADDRESS": "100000", "GAMES_PER_HOUR": "100000"}
    servers = [LiveServer(database_url=database.url, workers=args.workers, env=unlimited, root=args.root,
                          admin_password=harness.ADMIN_PASSWORD, events_max_seconds=3600,
                          prefix=f"card-table-bench-{name}-") for name in "ab"]
    tables: list[Table] = []
    try:
        servers[0].upgrade()
        for server in servers:
            server.start()
        print(f"2 servers ({args.workers} gevent workers each, own instance folders) on one PostgreSQL "
              f"database: {servers[0].url}, {servers[1].url}, serving {os.path.abspath(args.root)}", flush=True)
        tables = [Table(servers, number, args.think) for number in range(args.tables)]
        for start in range(0, len(tables), 8):
            run_all(tables[start:start + 8], Table.set_up)
        print(f"Set up {len(tables)} tables through the forms (host and Ann on A, Bob joined on B)", flush=True)

        # PostgreSQL counts an idle connection's transactions up to 10 s late: let the set-up's settle.
        time.sleep(12)
        no_streams = idle_rate(database, args.idle)
        idle_streams = []
        for table in tables[:4]:
            for server in servers:
                idle_streams += [harness.EventStream(server.url, table.slug, since=table.version, timeout=120)
                                 for _ in range(2)]
        for stream in idle_streams:
            stream.ready.wait(30)
        time.sleep(12)
        listening = database.listeners()
        with_streams = idle_rate(database, args.idle)
        for stream in idle_streams:
            stream.close()

        for table in tables:
            table.open_streams()
        print(f"{sum(len(t.streams) for t in tables)} event streams open (5 a table), playing...", flush=True)
        took = run_all(tables, Table.play, args.actions)
    finally:
        for table in tables:
            table.close()
        for server in servers:
            server.stop()
        database.drop()

    same = [v for table in tables for v in table.same]
    cross = [v for table in tables for v in table.cross]
    count = sum(table.actions for table in tables)
    s, c = figures(same), figures(cross)
    print()
    print(f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"idle database, no stream open:       {no_streams:.2f} transactions/s over {args.idle:.0f} s")
    print(f"idle database, {len(idle_streams)} streams open:      {with_streams:.2f} transactions/s over {args.idle:.0f} s "
          f"({listening} LISTEN connections: one per worker holding a stream)")
    verdict = "meets" if with_streams < TARGET_IDLE_PER_SECOND else "MISSES"
    print(f"target idle load with {len(idle_streams)} streams < {TARGET_IDLE_PER_SECOND:.0f}/s: {verdict}")
    print(f"{count} actions on {len(tables)} tables in {took:.1f} s (think time {args.think:.2f} s mean)")
    print(line("same-server delivery", s))
    print(line("cross-server delivery", c))
    if "p50" in s and "p50" in c:
        ratio = c["p99"] / s["p99"]
        print(f"ratio cross/same: p50 {c['p50'] / s['p50']:.2f}x, p99 {ratio:.2f}x")
        print(f"target cross-server p99 <= {TARGET_RATIO}x same-server p99: {'meets' if ratio <= TARGET_RATIO else 'MISSES'}")
    print(f"lost events (> {EVENT_TIMEOUT:.0f} s): {sum(table.lost for table in tables)}")
    errors = [f"table {table.number}: {table.error}" for table in tables if table.error]
    for error in errors:
        print(error)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
