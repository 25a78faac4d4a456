"""Growth (a benchmark, not a test): does a table page or an action cost more when the
database holds many finished games?

    .venv/bin/python bench/growth.py [--small 10] [--large 10000] [--rounds 7] [--requests 30]
    .venv/bin/python bench/growth.py --large 10 --large-unfinished 2000   # Menu A with many unfinished

Two servers, started as the README serves them (bench/harness.py's ``bench_server``: gunicorn with gevent
workers, WORKERS=2, SQLite in a temporary instance folder), one on a database holding ``--small``
finished games and one on ``--large``. The databases are filled directly (SQL through the app's
models and store functions, no HTTP): each finished game is a real one - a 2- or 3-player game
played to its end by the computer strategy through ``Game.apply``, with its seats, its whole
action log (about 150 rows a game) and the score table it leaves (players drawn from 300 names).
On both servers the same live tables are then set up through the forms (bench/harness.py).

Then, alternating between the two servers ``--rounds`` times (so the shared machine's drift shows
in both), one browser at a time: the full table page (GET /games/<slug>), an action through the
table form (draw, lay down or discard, as bench/load.py plays: bench/harness.py's ``Table``), the
table fragment refresh, and Menu A. Printed: median and p90 per request on each server, the ratio
large/small, and the server's CPU time per request (from /proc, in 10 ms ticks). Then SQLite's
query plan for every query the hot paths run, to show each one uses an index, and - in this
process, without HTTP - the CPU time of the reads every page and action starts with, and of Menu
A's query, on each database.

Target: the same cost with 10 and 10,000 finished games (ratio ~1.0).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import sqlite3
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import harness  # noqa: E402  (bench/harness.py: the server, browsers and tables)

NAMES = [f"Player{n:03d}" for n in range(300)]


# -- filling a database directly -------------------------------------------------------------------


def finished_game_templates(count: int, seed: int = 6):
    """``count`` real finished games: (names, state JSON, [(seat, action dict)...], results)."""
    from app import store
    from app.games.mason import ROUND_OVER, Game, NextRound
    from app.games.mason.actions import action_to_dict
    from app.games.mason.bot import play_computer_turn

    rng = random.Random(seed)
    templates = []
    for number in range(count):
        names = rng.sample(NAMES, rng.choice((2, 3)))
        game = Game.new(names, seed=f"growth/{number}")
        actions = []
        while not game.is_over():
            seat = game.turn
            for outcome in play_computer_turn(game, seat):
                actions.append((seat, action_to_dict(outcome.action)))
                if outcome.round_over:
                    break
            if game.phase == ROUND_OVER:
                game.apply(None, NextRound())
                actions.append((None, {"action": "next_round"}))
        winners = game.winners()
        results = [(p.name, p.score, n in winners) for n, p in enumerate(game.players)]
        templates.append((names, store.dump_state(game), actions, results))
    return templates


def fill(instance: str, finished: int = 0, unfinished: int = 0, batch: int = 500) -> None:
    """Add ``finished`` finished games (rows as a real game leaves them, with the score table) and
    ``unfinished`` games just dealt (tables.lifecycle.create_game, 2-3 players, some seats on their own
    devices) to the SQLite database of the (already upgraded) instance folder."""
    import sqlalchemy as sa

    from app import store, tables
    from app.tables import lifecycle

    from app.factory import create_app
    from app.records import scores_file
    from app.extensions import db
    from app.store.models import FINISHED, HERE, OWN, ActionRecord, GameRecord, SeatRecord, utcnow
    from app.games.mason import MASON
    from app.records import score_table

    app = create_app(instance_path=instance, ADMIN_PASSWORD=harness.ADMIN_PASSWORD,
                     SQLALCHEMY_DATABASE_URI="sqlite:///" + os.path.join(instance, "mason.db"))
    with app.app_context():
        rng = random.Random(finished * 7 + unfinished)
        for number in range(unfinished):
            players = rng.choice((2, 3))
            specs = [tables.SeatSpec(f"U{number}P{seat + 1}", device=OWN if seat else HERE)
                     for seat in range(players)]
            lifecycle.create_game(tables.SetUp(MASON, specs), browser=None, creator=None)
        templates = finished_game_templates(min(finished, 100)) if finished else []
        scores = score_table.whole_table()
        games, seats, actions = GameRecord.__table__, SeatRecord.__table__, ActionRecord.__table__
        start = db.session.scalar(sa.select(sa.func.coalesce(sa.func.max(games.c.id), 0)))
        now = utcnow()
        for first in range(0, finished, batch):
            game_rows, seat_rows, action_rows = [], [], []
            for offset in range(first, min(finished, first + batch)):
                names, state, moves, results = templates[offset % len(templates)]
                game_id = start + offset + 1
                game_rows.append({
                    "id": game_id, "slug": secrets.token_hex(5), "state": state, "version": len(moves) + 1,
                    "status": FINISHED, "deck_name": None, "kind": "mason", "options": "{}",
                    "host_token_hash": store.hash_token(store.new_token()), "shown_seat": None,
                    "rematch_slug": None, "created_at": now, "updated_at": now, "finished_at": now})
                for seat, name in enumerate(names):
                    seat_rows.append({"game_id": game_id, "number": seat, "name": name, "is_ai": False,
                                      "device": HERE, "token_hash": store.hash_token(store.new_token()),
                                      "join_code": None,
                                      "ai_standin": False})
                for version, (seat, move) in enumerate(moves, start=2):
                    action_rows.append({"game_id": game_id, "version": version, "seat": seat,
                                        "action": json.dumps(move), "created_at": now})
                scores.record_game(results)
            db.session.execute(sa.insert(games), game_rows)
            db.session.execute(sa.insert(seats), seat_rows)
            db.session.execute(sa.insert(actions), action_rows)
            db.session.commit()
        if finished:
            score_table.replace(scores)
            db.session.commit()
            scores_file.write_now(app)
        db.session.remove()
        db.engine.dispose()


def counts(database: str) -> dict:
    with sqlite3.connect(database) as connection:
        return {table: connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
                for table in ("games", "seats", "actions", "scores")}


# -- query plans ---------------------------------------------------------------------------------

PLANS = {
    "game by slug (+ seats)": "SELECT * FROM games LEFT OUTER JOIN seats ON games.id = seats.game_id "
                              "WHERE games.slug = 'x' ORDER BY seats.number",
    "save: UPDATE game": "UPDATE games SET version = 2 WHERE games.id = 1 AND games.version = 1",
    "save: INSERT action (unique check)": "INSERT INTO actions (game_id, version, seat, action, created_at) "
                                          "VALUES (1, 2, 0, '', '')",
    "Menu A: unfinished games": "SELECT * FROM games WHERE games.status = 'playing' "
                                "ORDER BY games.updated_at DESC LIMIT 50",
    "Menu A: their seats": "SELECT * FROM seats WHERE seats.game_id IN (1, 2, 3)",
    "live watcher: versions": "SELECT slug, version FROM games WHERE slug IN ('a', 'b')",
    "join code": "SELECT * FROM seats WHERE join_code = 'ABC234'",
    "game end: score rows": "SELECT * FROM scores WHERE name_key IN ('a', 'b')",
    "name in scores": "SELECT count(*) FROM scores WHERE name_key = 'a'",
}


def in_process(sites: list["Site"], rounds: int = 3, count: int = 2000) -> dict:
    """CPU microseconds of the reads every page and action starts with (store.find_game with the
    seats, store.load_state) and of Menu A's query, in this process on each database: no HTTP,
    no server, so the machine's noise hardly shows."""
    from app import store, tables
    from app.factory import create_app
    from app.extensions import db

    apps = []
    for site in sites:
        app = create_app(instance_path=str(site.server.instance), ADMIN_PASSWORD=harness.ADMIN_PASSWORD,
                         SQLALCHEMY_DATABASE_URI="sqlite:///" + site.server.database)
        with app.app_context():
            apps.append((site, app, [table.slug for table in site.tables]))
    found: dict[tuple[str, str], list[float]] = {}
    for _ in range(rounds):
        for site, app, slugs in apps:
            with app.app_context():
                started = time.process_time()
                for index in range(count):
                    record = store.find_game(slugs[index % len(slugs)])
                    store.load_state(record)
                    db.session.rollback()
                found.setdefault((site.label, "game + seats + state"), []).append(
                    (time.process_time() - started) / count * 1e6)
                started = time.process_time()
                for _ in range(count // 10):
                    tables.unfinished(tables.SPECTATOR)
                    db.session.rollback()
                found.setdefault((site.label, "Menu A's query"), []).append(
                    (time.process_time() - started) / (count // 10) * 1e6)
    for _site, app, _slugs in apps:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
    return {key: statistics.median(values) for key, values in found.items()}


def query_plans(database: str) -> None:
    with sqlite3.connect(database) as connection:
        for label, sql in PLANS.items():
            plan = "; ".join(row[3] for row in connection.execute("EXPLAIN QUERY PLAN " + sql))
            print(f"  {label:<36} {plan}")


# -- the measurement -----------------------------------------------------------------------------


class Site:
    """One server with its database and its live tables."""

    def __init__(self, finished: int, tables: int, unfinished: int = 0):
        self.finished = finished
        self.label = f"{finished}" + (f" (+{unfinished} unfinished)" if unfinished else "")
        self.server = harness.bench_server(2, prefix=f"mason-growth-{finished}-")
        self.server.upgrade()
        started = time.monotonic()
        fill(str(self.server.instance), finished=finished, unfinished=unfinished)
        self.fill_seconds = time.monotonic() - started
        self.server.start(upgrade=False)
        # hot-seat tables: an action is one request (a turn passes with the hand-over's reveal)
        self.tables = harness.set_up_tables(self.server, tables, kind=harness.HOT)
        self.times: dict[str, list[float]] = {}
        self.cpu: dict[str, float] = {}

    def timed(self, kind: str, call) -> None:
        cpu = self.server.cpu_seconds()
        seconds = call()
        self.cpu[kind] = self.cpu.get(kind, 0.0) + self.server.cpu_seconds() - cpu
        self.times.setdefault(kind, []).append(seconds)

    def round(self, requests: int) -> None:
        stats = harness.Stats()
        for index in range(requests):
            table = self.tables[index % len(self.tables)]
            self.timed("table page", lambda: table.host.get(f"/games/{table.slug}").seconds)
            self.timed("table fragment", lambda: table.host.get(f"/games/{table.slug}/table", htmx=True).seconds)

            def one_action() -> float:
                table.last = None
                while table.last is None:  # (a game's end makes an untimed rematch first)
                    table.step(stats, 0.0)
                return table.last[1]
            self.timed("action", one_action)
            if index % 3 == 0:
                self.timed("Menu A", lambda: table.host.get("/").seconds)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", type=int, default=10)
    parser.add_argument("--large", type=int, default=10000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--requests", type=int, default=30, help="of each kind per round")
    parser.add_argument("--tables", type=int, default=6, help="live tables on each server")
    parser.add_argument("--small-unfinished", type=int, default=0,
                        help="unfinished games (just dealt) added to the small database")
    parser.add_argument("--large-unfinished", type=int, default=0,
                        help="unfinished games (just dealt) added to the large database")
    args = parser.parse_args()

    sites: list[Site] = []
    try:
        for finished, unfinished in ((args.small, args.small_unfinished), (args.large, args.large_unfinished)):
            site = Site(finished, args.tables, unfinished)
            sites.append(site)
            print(f"server with {site.label} finished games: filled in {site.fill_seconds:.1f} s, "
                  f"rows {counts(site.server.database)}", flush=True)
        for number in range(args.rounds):
            for site in (sites if number % 2 == 0 else sites[::-1]):
                site.round(args.requests)
        print("\nSQLite query plans on the large database:")
        query_plans(sites[1].server.database)
        reads = in_process(sites)
    finally:
        for site in sites:
            for table in site.tables:
                table.close()
            site.server.stop()

    small, large = sites
    print(f"\n{'request':<16} {'finished games':>26} {'n':>5} {'median ms':>10} {'p90 ms':>8} {'server CPU ms':>14}")
    ratios = {}
    for kind in ("table page", "table fragment", "action", "Menu A"):
        for site in sites:
            values = sorted(site.times[kind])
            p90 = values[int(0.9 * (len(values) - 1))]
            print(f"{kind:<16} {site.label:>26} {len(values):>5} {1000 * statistics.median(values):>10.2f} "
                  f"{1000 * p90:>8.2f} {1000 * site.cpu[kind] / len(values):>14.2f}")
        small_cpu = small.cpu[kind] / len(small.times[kind])
        cpu_ratio = (large.cpu[kind] / len(large.times[kind])) / small_cpu if small_cpu else None
        ratios[kind] = (statistics.median(large.times[kind]) / statistics.median(small.times[kind]), cpu_ratio)
    print(f"\nratio {large.label} / {small.label} finished games (target ~1.0: flat):")
    for kind, (wall, cpu) in ratios.items():
        # A very short run may see no CPU tick at all for a kind: no ratio then.
        cpu_text = f"{cpu:.2f}x" if cpu is not None else "n/a (too few requests to measure)"
        print(f"  {kind:<16} median time {wall:.2f}x, server CPU {cpu_text}")
    print("\nIn this process, CPU microseconds (median of 3 rounds):")
    for what in ("game + seats + state", "Menu A's query"):
        a, b = reads[(small.label, what)], reads[(large.label, what)]
        print(f"  {what:<22} {a:8.1f} us with {small.label}, {b:8.1f} us with {large.label}: {b / a:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
