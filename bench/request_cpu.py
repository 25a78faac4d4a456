"""CPU per request in one process, without a server (a benchmark, not a test): an action, a live
refresh and bench/minimal_app.py's POST, each through its app's Flask test client, taking turns.

    .venv/bin/python bench/request_cpu.py [--actions 150] [--repeat 3]
    .venv/bin/python bench/request_cpu.py --root /path/to/older/checkout   # that checkout's app

A game of Mason Rummy is set up through the forms (a stacked deck, ``ai_showcase.deck``: the same
game every run; Ann on this browser, Bob joined on his own), on a migrated SQLite file; then, in
turn: the player to move posts the computer player's choice as htmx posts it (the answer is the
table's fragment), the other browser fetches its fragment of the new version (GET
/table?since=V), and the minimal app's POST reads and writes one row. Each request's CPU time
(``time.process_time``, this process alone) is recorded; printed: the median of each, and the
action's and refresh's ratios to the minimal POST, per round and their median, with the load
average. No gunicorn, no network, no other process: what the app's own code costs, against the
least a Flask + SQLAlchemy POST costs, on one core.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def measure(root: str, actions: int) -> dict[str, float]:
    """One round in this process (``root``'s app): the medians, in ms."""
    sys.path[:0] = [root, os.path.join(str(HERE.parent), "tests"), str(HERE)]
    from support.databases import migrate
    from support.moves import mover, sensible_move
    from support.web import Player

    folder = Path(tempfile.mkdtemp(prefix="request-cpu-"))
    url = f"sqlite:///{folder}/table.db"
    migrate(url, folder / "instance")
    os.environ["MINIMAL_DATABASE"] = str(folder / "minimal.db")
    import minimal_app
    from app import create_app
    from config import Config

    minimal_app.create(str(folder / "minimal.db"))
    minimal = minimal_app.app.test_client()
    app = create_app(Config, instance_path=str(folder / "instance"), SQLALCHEMY_DATABASE_URI=url,
                     DECKS_FOLDER=os.path.join(root, "decks"), ADMIN_PASSWORD="request-cpu")
    host, bob = Player(app), Player(app)
    games = 0

    def new_game() -> str:
        nonlocal games
        games += 1  # (a finished game's names are on the score table: new ones each game)
        slug = host.start_game([f"Ann{games}", f"Bob{games}"], deck="ai_showcase.deck", devices=["here", "own"])
        bob.join_seat(slug, 1)
        return slug

    slug = new_game()
    players = {0: host, 1: bob}
    times: dict[str, list[float]] = {"action": [], "refresh": [], "minimal": []}
    while len(times["action"]) < actions:
        state, version = host.state(slug)
        choice = sensible_move(state)
        if choice is None:  # the game is over: the next one
            slug = new_game()
            continue
        seat = mover(state)
        player = players[seat] if seat is not None else host
        other = players[1 - seat] if seat is not None else bob
        form: dict[str, list[str]] = {"csrf_token": [player.csrf_token()]}
        for name, value in choice.form(version):
            form.setdefault(name, []).append(value)
        started = time.process_time()
        answer = player.client.post(f"/games/{slug}/act", data=form, headers={"HX-Request": "true"})
        times["action"].append(time.process_time() - started)
        if answer.status_code != 200:
            raise RuntimeError(f"action answered {answer.status_code}")
        started = time.process_time()
        answer = other.get(f"/games/{slug}/table?since={version}", htmx=True)
        times["refresh"].append(time.process_time() - started)
        started = time.process_time()
        answer = minimal.post("/row/r1")
        times["minimal"].append(time.process_time() - started)
    return {kind: 1000 * statistics.median(values) for kind, values in times.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=150, help="actions (and refreshes and POSTs) a round")
    parser.add_argument("--repeat", type=int, default=3, help="rounds, each in a fresh process")
    parser.add_argument("--root", default=str(HERE.parent), help="the checkout whose app is measured")
    parser.add_argument("--one-round", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one_round:
        found = measure(os.path.abspath(args.root), args.actions)
        print(" ".join(f"{kind}={value:.4f}" for kind, value in found.items()))
        return 0
    print(f"CPU per request in one process, {os.path.abspath(args.root)}; median of {args.actions} each a round")
    ratios: dict[str, list[float]] = {"action": [], "refresh": []}
    for number in range(args.repeat):
        done = subprocess.run([sys.executable, __file__, "--one-round", "--root", args.root,
                               "--actions", str(args.actions)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
        if done.returncode != 0:
            print(done.stderr[-3000:])
            return 1
        found = {kind: float(value) for kind, value in
                 (item.split("=") for item in done.stdout.strip().splitlines()[-1].split())}
        for kind in ratios:
            ratios[kind].append(found[kind] / found["minimal"])
        print(f"  round {number + 1} (load average {' '.join(f'{v:.2f}' for v in os.getloadavg())}): action "
              f"{found['action']:.2f} ms, refresh {found['refresh']:.2f} ms, minimal POST {found['minimal']:.2f} ms: "
              f"{ratios['action'][-1]:.2f}x and {ratios['refresh'][-1]:.2f}x")
    print(f"median of {args.repeat}: an action {statistics.median(ratios['action']):.2f}x the minimal POST, "
          f"a live refresh {statistics.median(ratios['refresh']):.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
