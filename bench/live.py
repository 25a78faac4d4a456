"""Live updates benchmark (not a test): how long after one player's action every other
browser at that table receives its ``changed`` event, with 20 tables playing at once.

    .venv/bin/python bench/live.py [--tables 20] [--actions 12] [--bumps 12] [--repeat 3] [--think 1.0]
                                   [--workers 2] [--poll SECONDS] [--access-log]

It starts the server as `make run` does (bench/harness.py's ``bench_server``: ``flask db upgrade``, then
``python -m app.serving.serve``: gunicorn with gevent workers, WORKERS=2) on a free port with a SQLite
file in a temporary instance folder, and sets up every table through the real forms (CSRF tokens,
Menus A/B, the deck prompt, each seat "own device", the join codes from the host's table, POST
/join with a cookie jar per browser). Every browser at every table (the host's and both players')
keeps an event stream open. The tables then play concurrently - each move the game's computer
player's choice (draw, lay down what the hand allows, discard; tests/support/moves.py, on the game
as the server stored it) - and for each action the time from sending it
to the moment every OTHER browser of the table (the other player and the host) has its ``changed``
event with the new version is recorded; the table's next action waits for that, like a player
waiting for the other's move, and then for the player's think time (0.5-1.5 s, ``--think``; 0
saturates the server). On each event the other browsers fetch their fragment, as htmx does.
All the browsers are threads of this one process: the mover's browser reads the new version from
its answer with a pattern, as the baseline's reads its number, and parses the page only once the
events are in, so that no parsing in this process holds up the moment an event is seen to arrive.

Baseline, same run: bench/minimal_app.py, a minimal Flask + Flask-SQLAlchemy app served with the
same gunicorn settings, with as many tables of three open streams; at each of its tables one
client publishes (POST /games/r<n>/bump: one small write, then the new number to that row's
streams, in this process and, by a datagram, in the other worker) at the players' pace, and the
time to the other two streams' events is recorded the same way. The tables and the baseline play
at the same time, ``--repeat`` rounds; each round prints the p99 ratio, with the load average;
the figures are the p99 ratio over all the rounds' events together and the median of the rounds'
ratios (goal: at most 1.5x).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import statistics
import sys
import threading
import time

import harness  # bench/harness.py: the server, browsers, pages, streams and the move chooser
from harness import Browser, LiveServer, Page, figures, run_all, sensible_move

GOAL_RATIO = 1.5  # live update p99 at most this times the minimal Flask SSE publish's
EVENT_TIMEOUT = 10.0  # an event not received by then counts as lost
DECK = "ai_showcase.deck"
ACCESS_LOG_FORMAT = "%(m)s %(U)s %(s)s %(D)s"  # gunicorn's own timing of each request, in microseconds


TABLE_VERSION = re.compile(r'<div id="table"[^>]*\sdata-version="(\d+)"')


def answered_version(html: str) -> int:
    """The version the answered fragment shows (its #table's ``data-version``), read without
    parsing the page."""
    found = TABLE_VERSION.search(html)
    if found is None:
        raise RuntimeError(f"no table version in the answer:\n{html[:1500]}")
    return int(found.group(1))


# -- a table ------------------------------------------------------------------------------------


class Table:
    """The host's browser (which only watches) and two players on their own devices. Every
    browser opens a new connection for each request (``keep_alive=False``), as this benchmark
    always has."""

    def __init__(self, server: LiveServer, number: int):
        self.server = server
        self.base = base = server.url
        self.number = number
        self.host = Browser(base, f"t{number}-host", keep_alive=False, compressed=True)
        self.players = [Browser(base, f"t{number}-seat{seat}", keep_alive=False, compressed=True) for seat in (0, 1)]
        self.changed = threading.Condition()
        self.streams: dict[str, harness.ArrivalStream] = {}
        self.slug = ""
        self.version = 0
        self.latencies: list[float] = []
        self.baseline: list[float] = []
        self.requests: list[float] = []  # send -> response of the actions (for the profile)
        self.baseline_requests: list[float] = []
        self.after_answer: list[float] = []  # the events' delay after the action's own answer
        self.lost = 0
        self.actions = 0
        self.error: str | None = None
        self.think = 0.0
        self.random = random.Random(number)
        self.pages: list[Page] = []

    def set_up(self) -> None:
        """Menu A option 4, the deck prompt, two new players on their own devices, then each
        player opens the join link shown on the host's table and claims the seat."""
        self.slug, codes = harness.new_game(
            self.host, [(f"Ann{self.number}", "own"), (f"Bob{self.number}", "own")], deck=DECK)
        assert len(codes) == 2, "the host's table lists both join codes"
        for player, code in zip(self.players, codes):
            player.go(f"/join/{code}")  # the link only shows the seat
            body = harness.claim_seat(player, code, self.slug)  # claiming is the POST
            assert Page(body).hand, "the joined player sees a hand"
        self.version = Page(self.host.fetch(f"/games/{self.slug}/table").body).table_version

    def open_streams(self) -> None:
        for browser in [self.host, *self.players]:
            self.streams[browser.name] = harness.ArrivalStream(self.base, self.slug, self.version, self)
        for stream in self.streams.values():
            if not stream.ready.wait(30):
                raise RuntimeError("an event stream did not start")

    def wait_others(self, sent: float, version: int, actor: Browser | None, others: list[Browser]) -> float | None:
        """Block until every browser in ``others`` has the event for ``version``; the latency."""
        deadline = sent + EVENT_TIMEOUT
        with self.changed:
            while True:
                arrivals = [self.streams[b.name].arrival(version) for b in others]
                if all(at is not None for at in arrivals):
                    return max(arrivals) - sent
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    self.lost += 1
                    return None
                self.changed.wait(remaining)

    def act(self, seat: int, version: int) -> Page:
        """One timed action through the table form (an htmx post), after the player's think
        time: the game's computer player's choice for the seat to move (or the next deal), on
        the game as stored. Then wait for the other browsers' events, and let each of them
        fetch its fresh fragment as htmx does on `sse:changed` (that load is part of the run,
        not of the time)."""
        if self.think:
            time.sleep(self.random.uniform(0.5 * self.think, 1.5 * self.think))
        choice = sensible_move(self.server.state(self.slug))
        browser = self.players[seat]
        others = [self.players[1 - seat], self.host]
        sent = time.monotonic()
        answer = browser.post(f"/games/{self.slug}/act", choice.form(version), htmx=True)
        answered = time.monotonic()
        self.requests.append(answered - sent)
        if answer.status != 200:
            raise RuntimeError(f"{browser.name} {choice.name}: {answer.status}\n{answer.body[:1500]}")
        # The new version read from the answer as cheaply as the baseline reads its number; the
        # page is parsed once the events are in, so the parsing never holds up their arrival.
        latency = self.wait_others(sent, answered_version(answer.body), browser, others)
        if latency is not None:
            self.latencies.append(latency)
            self.after_answer.append(sent + latency - answered)
        page = Page(answer.body)
        self.actions += 1
        refresh = self.pages[seat].refresh_url  # (the table at ``version``, as every browser there has it)
        self.pages[seat] = page
        for other in others:
            html = other.fetch(refresh).body
            if other is self.players[1 - seat]:
                self.pages[1 - seat] = Page(html)
        return page

    def bump(self, count: int) -> None:
        """The baseline: a bare publish, the same two receivers as an action by alternating seats."""
        for index in range(count):
            if self.think:
                time.sleep(self.random.uniform(0.5 * self.think, 1.5 * self.think))
            seat = index % 2
            others = [self.players[1 - seat], self.host]
            sent = time.monotonic()
            answer = self.players[seat].post(f"/games/{self.slug}/bump", {}, csrf=False)
            if answer.status != 200:
                raise RuntimeError(f"baseline publish: {answer.status}\n{answer.body[:500]}")
            body = answer.body
            self.baseline_requests.append(time.monotonic() - sent)
            latency = self.wait_others(sent, int(body), None, others)
            if latency is not None:
                self.baseline.append(latency)

    def publish(self, count: int) -> None:
        try:
            self.bump(count)
        except Exception as error:
            self.error = f"{type(error).__name__}: {error}"

    def play(self, wanted: int) -> None:
        try:
            harness.play_two_seats(self, wanted)
        except Exception as error:  # reported with the figures; the other tables go on
            self.error = f"{type(error).__name__}: {error}"


# -- figures ------------------------------------------------------------------------------------


def line(label: str, f: dict) -> str:
    if "p50" not in f:
        return f"{label:<28} n={f['n']} (too few)"
    return (f"{label:<28} n={f['n']:<5} p50 {f['p50']:7.1f} ms  p90 {f['p90']:7.1f} ms  "
            f"p99 {f['p99']:7.1f} ms  max {f['max']:7.1f} ms")


def server_times(path: str) -> None:
    """The server's own time per request kind, from gunicorn's access log."""
    kinds: dict[str, list[float]] = {}
    with open(path) as log:
        for entry in log:
            parts = entry.split()
            if len(parts) != 4 or parts[1].endswith("/events"):
                continue
            method, url, _status, micros = parts
            kind = f"{method} " + re.sub(r"/games/[0-9a-f]+", "/games/<slug>", re.sub(r"/(join|bump)/\w+", r"/\1/<code>", url))
            kinds.setdefault(kind, []).append(int(micros) / 1e6)
    for kind, values in sorted(kinds.items(), key=lambda item: -len(item[1])):
        if len(values) >= 20:
            print(line(f"  server {kind}", figures(values)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--actions", type=int, default=12, help="timed actions per table (at least)")
    parser.add_argument("--bumps", type=int, default=12, help="baseline publishes per table")
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean seconds a player takes before each action (uniform 0.5x-1.5x); 0: none")
    parser.add_argument("--repeat", type=int, default=3, help="rounds (the median ratio is reported)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--access-log", action="store_true",
                        help="also print the server's own request times (gunicorn access log)")
    parser.add_argument("--poll", type=float, default=None,
                        help="EVENTS_POLL_SECONDS for the server (default: the app's own)")
    args = parser.parse_args()

    server = harness.bench_server(args.workers, prefix="mason-live-bench-",
                                  env=None if args.poll is None else {"EVENTS_POLL_SECONDS": str(args.poll)},
                                  access_log=ACCESS_LOG_FORMAT if args.access_log else False)
    base = harness.baseline_server(args.workers)
    print(f"The table and the minimal app, each served as `make run` serves the table: gunicorn, gevent, "
          f"{args.workers} workers, SQLite (load average {harness.load_average()})", flush=True)
    server.start()
    base.start()
    tables = [Table(server, number) for number in range(args.tables)]
    baselines = [Table(base, number) for number in range(args.tables)]
    for table in tables + baselines:
        table.think = args.think
    for table in baselines:
        table.slug = f"r{table.number}"
    rounds = []
    try:
        took = run_all(tables, Table.set_up)
        print(f"Set up {len(tables)} tables through the forms (2 own-device seats each, joined with "
              f"their codes) in {took:.1f} s", flush=True)
        server.state(tables[0].slug)  # (this process's first read of a stored game sets up its reader: not timed)
        for table in tables + baselines:
            table.open_streams()
        print(f"{3 * len(tables)} event streams open on each server (host and both players of every table)",
              flush=True)
        for number in range(args.repeat):
            marks = [(len(t.latencies), len(t.requests)) for t in tables]
            base_marks = [(len(t.baseline), len(t.baseline_requests)) for t in baselines]
            cpu, base_cpu = server.cpu_seconds(), base.cpu_seconds()
            played = threading.Thread(target=run_all, args=(tables, Table.play, args.actions * (number + 1)))
            played.start()
            run_all(baselines, Table.publish, args.bumps)
            played.join()
            cpu, base_cpu = server.cpu_seconds() - cpu, base.cpu_seconds() - base_cpu
            actions = [v for t, (a, _r) in zip(tables, marks) for v in t.latencies[a:]]
            publishes = [v for t, (b, _r) in zip(baselines, base_marks) for v in t.baseline[b:]]
            figures_round = {"a": figures(actions), "b": figures(publishes), "load": harness.load_average(),
                             "cpu": 1000 * cpu / max(1, len(actions)), "base_cpu": 1000 * base_cpu / max(1, len(publishes))}
            rounds.append(figures_round)
            print(f"\nround {number + 1} (load average {figures_round['load']}), the tables and the baseline at once:")
            print(line("  action -> other browsers", figures_round["a"]))
            print(line("  minimal publish -> event", figures_round["b"]))
            if "p99" in figures_round["a"] and "p99" in figures_round["b"]:
                figures_round["ratio"] = figures_round["a"]["p99"] / figures_round["b"]["p99"]
                print(f"  p99 ratio {figures_round['ratio']:.2f}x; server CPU {figures_round['cpu']:.1f} ms per action "
                      f"(with the fragment fetches) against {figures_round['base_cpu']:.1f} ms per publish")
    finally:
        for table in tables + baselines:
            for stream in table.streams.values():
                stream.close()
        server.stop(remove=False)  # the access log is read below
        base.stop()

    count = sum(table.actions for table in tables)
    print()
    print(f"server: {args.workers} gevent workers, EVENTS_POLL_SECONDS="
          f"{args.poll if args.poll is not None else os.environ.get('EVENTS_POLL_SECONDS', 'default (0.05)')}, SQLite; "
          f"think time {args.think:.2f} s mean before each action or publish")
    print(line("(action request alone)", figures([v for t in tables for v in t.requests])))
    print(line("(publish request alone)", figures([v for t in baselines for v in t.baseline_requests])))
    print(line("(events after the answer)", figures([v for t in tables for v in t.after_answer])))
    ratios = [r["ratio"] for r in rounds if "ratio" in r]
    # Every round's actions and publishes together: a round's p99 is about its third-slowest
    # event, which one stall of the shared machine moves several times over.
    pooled = figures([v for t in tables for v in t.latencies]), figures([v for t in baselines for v in t.baseline])
    if "p99" in pooled[0] and "p99" in pooled[1]:
        ratio = pooled[0]["p99"] / pooled[1]["p99"]
        print(line("action -> other browsers", pooled[0]))
        print(line("minimal publish -> event", pooled[1]))
        print(f"live update p99 / minimal Flask SSE publish p99, over all rounds: {ratio:.2f}x "
              f"(goal <= {GOAL_RATIO}x: {'met' if ratio <= GOAL_RATIO else 'NOT met'})")
    if ratios:
        median = statistics.median(ratios)
        verdict = "met" if median <= GOAL_RATIO else "NOT met"
        print(f"live update p99 / minimal Flask SSE publish p99, median of {len(ratios)} rounds: {median:.2f}x "
              f"(rounds: {', '.join(f'{r:.2f}' for r in ratios)}; goal <= {GOAL_RATIO}x: {verdict}; "
              f"load average {harness.load_average()})")
    if args.access_log:
        server_times(server.access_log)
    lost = sum(table.lost for table in tables + baselines)
    reconnects = sum(stream.reconnects for table in tables + baselines for stream in table.streams.values())
    print(f"lost events (> {EVENT_TIMEOUT:.0f} s): {lost}; stream reconnects: {reconnects}")
    errors = [f"table {table.number}: {table.error}" for table in tables + baselines if table.error]
    for error in errors:
        print(error)
    shutil.rmtree(server.instance, ignore_errors=True)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
