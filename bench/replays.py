"""Replays, steps and exports of a long game against a short one (issue: every request does
bounded work). A benchmark, not a test: it prints figures and never fails on timing.

Two finished Seahaven Towers games are stored through the app's own store (``save_game``, 50
actions a save, as a player's posts would make them, snapshots included): one of 100 actions and
one of 20,000 (a card moved and taken back, over and over: the longest log a player can build,
``store.MAX_ACTIONS``), each ended by giving up. Then, against the server as `make run` serves it
(gunicorn, 2 gevent workers, SQLite), each request is timed ``--repeat`` times (median, best):

- ``/games/<id>/steps`` of the last 10 actions and of 10 in the middle (what a table shows one
  after another);
- ``/games/<id>/replay?step=`` at the last step and in the middle;
- ``/games/<id>/export.json``: the time to its first byte and to its last;
- ``/games/<id>/watch``: the table itself, for scale;
- ``/games/<id>/log``: the whole game's log as the table links to it (its last page).

and each long/short ratio is printed, with the machine's load average. ``--before REV`` does the
same with the commit REV (a git worktree in a temporary folder): its own migrations make a new
database, its own store (its ``bench/replays.py``'s ``store_game``) keeps the two games there, as
that code kept games, and its server answers the same requests; the same table is printed for it.

    .venv/bin/python bench/replays.py [--repeat 5] [--long 20000] [--before 3545be5]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from harness import ROOT, bench_server

PAGES = ("steps (last 10)", "steps (middle 10)", "replay (last step)", "replay (middle step)",
         "export (first byte)", "export (whole)", "table page (/watch)", "whole log (/log)")


def store_game(database_url: str, count: int) -> str:
    """A finished Seahaven game of ``count`` actions, stored through the app's store; its slug."""
    sys.path.insert(0, ROOT)
    from app import store
    from app.factory import create_app
    from app.core import registry
    from app.extensions import db
    from app.store.models import HERE, SeatRecord
    from config import Config

    app = create_app(Config, SQLALCHEMY_DATABASE_URI=database_url, instance_path=tempfile.mkdtemp(prefix="bench-app-"))
    definition = registry.get("seahaven")
    state = definition.new_state(["Ann"], seed=7)
    with app.app_context():
        record = store.new_record(definition, definition.from_dict(state.to_dict()), options={})
        record.seats.append(SeatRecord(number=0, name="Ann", device=HERE))
        store.begin_write()
        store.insert_game(record, state, [])
        db.session.commit()
        slug, outcomes = record.slug, []
        for number in range(count):
            if number == count - 1:
                action = definition.action_from_dict({"action": "give_up"})
            elif number % 2 == 0:
                move = next(move for move in state.legal(0) if move.action == "move")
                action = definition.action_from_dict(move.as_dict())
            else:
                action = definition.action_from_dict({"action": "undo"})
            outcomes.append(state.apply(0, action))
            if len(outcomes) == 50 or number == count - 1:
                store.save_game(store.lock_game(slug), state, outcomes)
                outcomes = []
        db.session.remove()
        db.engine.dispose()
    return slug


def timed(url: str) -> tuple[float, float]:
    """(seconds to the first byte of the body, seconds to the last)."""
    start = time.perf_counter()
    with urllib.request.urlopen(url, timeout=600) as response:
        assert response.status == 200, (url, response.status)
        response.read(1)
        first = time.perf_counter() - start
        while response.read(65536):
            pass
    return first, time.perf_counter() - start


def measure(base: str, slug: str, count: int, version: int, repeat: int) -> dict[str, list[float]]:
    middle_version = version - count // 2
    urls = {
        "steps (last 10)": f"/games/{slug}/steps?after={version - 10}&upto={version}",
        "steps (middle 10)": f"/games/{slug}/steps?after={middle_version - 10}&upto={middle_version}",
        "replay (last step)": f"/games/{slug}/replay?step={count}",
        "replay (middle step)": f"/games/{slug}/replay?step={count // 2}",
        "export": f"/games/{slug}/export.json",
        "table page (/watch)": f"/games/{slug}/watch",
        "whole log (/log)": f"/games/{slug}/log",
    }
    times: dict[str, list[float]] = {name: [] for name in PAGES}
    for path in urls.values():  # a pass not counted: a worker's first requests compile templates
        try:
            timed(base + path)
        except urllib.error.HTTPError:
            pass
    for _ in range(repeat):
        for name, path in urls.items():
            try:
                first, whole = timed(base + path)
            except urllib.error.HTTPError as error:  # (a page that code did not have)
                if error.code != 404:
                    raise
                continue
            if name == "export":
                times["export (first byte)"].append(first)
                times["export (whole)"].append(whole)
            else:
                times[name].append(whole)
    return times


def version_of(database_url: str, slug: str) -> int:
    import sqlalchemy as sa

    engine = sa.create_engine(database_url)
    with engine.connect() as connection:
        version = connection.execute(sa.text("SELECT version FROM games WHERE slug = :slug"), {"slug": slug}).scalar()
    engine.dispose()
    return version


def ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:9.1f} ({min(values) * 1000:.1f})"


def load() -> str:
    return "load average " + " ".join(f"{figure:.1f}" for figure in os.getloadavg())


def report(title: str, runs: dict[int, dict[str, list[float]]], args) -> None:
    print(f"\n{title}: ms, median (best) of {args.repeat}; the server as `make run` serves it, SQLite ({load()})")
    print(f"{'request':24} {args.short:>7}-action game {args.long:>7}-action game    ratio")
    for name in PAGES:
        short_times, long_times = runs[args.short][name], runs[args.long][name]
        if not short_times or not long_times:
            continue
        ratio = statistics.median(long_times) / statistics.median(short_times)
        print(f"{name:24} {ms(short_times):>20} {ms(long_times):>20} {ratio:8.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--short", type=int, default=100)
    parser.add_argument("--long", type=int, default=20_000)
    parser.add_argument("--before", help="also the same with this commit, on games its own store keeps")
    args = parser.parse_args()
    print(f"{load()} at the start")
    server = bench_server(prefix="card-table-bench-replays-")
    server.upgrade()
    started = time.perf_counter()
    slugs = {count: store_game(server.database_url, count) for count in (args.short, args.long)}
    print(f"stored a {args.short}-action and a {args.long}-action Seahaven game in {time.perf_counter() - started:.0f} s")
    runs = serve_and_measure(server, slugs, args)
    report("this code", runs, args)
    shutil.rmtree(server.instance, ignore_errors=True)
    if args.before:
        report(f"commit {args.before}", before(args), args)
    print(f"\n{load()} at the end")


def serve_and_measure(server, slugs: dict[int, str], args) -> dict[int, dict[str, list[float]]]:
    versions = {count: version_of(server.database_url, slug) for count, slug in slugs.items()}
    server.start(upgrade=False)
    try:
        return {count: measure(server.url, slug, count, versions[count], args.repeat) for count, slug in slugs.items()}
    finally:
        server.stop(remove=False)


def stored_by(checkout: str, database_url: str, count: int) -> str:
    """A game of ``count`` actions kept by the store of the code in ``checkout``; its slug."""
    program = ("import sys; sys.path[:0] = [sys.argv[1] + '/bench', sys.argv[1]]; from replays import store_game; "
               "print(store_game(sys.argv[2], int(sys.argv[3])))")
    done = subprocess.run([sys.executable, "-c", program, checkout, database_url, str(count)], cwd=checkout,
                          check=True, stdout=subprocess.PIPE, text=True)
    return done.stdout.split()[-1]


def before(args) -> dict[int, dict[str, list[float]]]:
    """The same requests served by commit ``args.before``, on games its own store kept."""
    folder = tempfile.mkdtemp(prefix="card-table-bench-before-")
    checkout = os.path.join(folder, "checkout")
    subprocess.run(["git", "-C", ROOT, "worktree", "add", "--detach", checkout, args.before], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        old = bench_server(prefix="card-table-bench-before-", root=checkout)
        old.upgrade()
        started = time.perf_counter()
        slugs = {count: stored_by(checkout, old.database_url, count) for count in (args.short, args.long)}
        print(f"\ncommit {args.before} stored the same two games in {time.perf_counter() - started:.0f} s")
        runs = serve_and_measure(old, slugs, args)
        shutil.rmtree(old.instance, ignore_errors=True)
        return runs
    finally:
        subprocess.run(["git", "-C", ROOT, "worktree", "remove", "--force", checkout], check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
