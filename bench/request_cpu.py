"""CPU per request in one process, without a server (a benchmark, not a test): an action, a live
refresh and bench/minimal_app.py's POST, each through its app's Flask test client, taking turns.

    .venv/bin/python bench/request_cpu.py [--actions 150] [--repeat 3]
    .venv/bin/python bench/request_cpu.py --root /path/to/older/checkout   # that checkout's app
    .venv/bin/python bench/request_cpu.py --parts   # also: where an action's and a refresh's time goes
                                                    # (the timing wraps add a little to the ratios),
                                                    # and what making the answer alone costs
    .venv/bin/python bench/request_cpu.py --trims   # also: the most the trims left could save (each
                                                    # macro call and include inline, a Core read)

A game of Mason Rummy is set up through the forms (a stacked deck, ``ai_showcase.deck``: the same
game every run; Ann on this browser, Bob joined on his own), on a migrated SQLite file; then, in
turn: the player to move posts the computer player's choice as htmx posts it (the answer is the
table's fragment), the other browser fetches its fragment of the new version as its stream's news
sets it off (GET /table?since=V&steps=S&changed=1), then polls it as an open table does every few seconds (GET
/table?since=V of the version it now shows: 204, nothing changed), and the minimal app's POST
reads and writes one row. Every request asks for a compressed answer, as a browser asks
(``Accept-Encoding``): the table compresses its fragments, the minimal app's answers are too
short to compress. Each request's CPU time
(``time.process_time``, this process alone) is recorded; printed: the median of each, and the
action's, refresh's and poll's ratios to the minimal POST, per round and their median, with the load
average. No gunicorn, no network, no other process: what the app's own code costs, against the
least a Flask + SQLAlchemy POST costs, on one core. The first ``WARM_UP`` turns are played and
not counted: the templates a first render compiles (about 12 ms each) would otherwise swell the
parts' means.
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

from load import GOAL_CPU

HERE = Path(__file__).resolve().parent


WARM_UP = 20  # turns played before any is counted (templates compiled, caches filled)

# The parts of a request timed with --parts: (module, function, label).
PARTS = [("flask.templating", "_render", "render"), ("app.store", "find_game", "read the row"),
         ("app.store", "lock_game", "lock and read the row"), ("app.store", "load_state", "parse the state"),
         ("app.store", "save_game", "write and commit"), ("app.tables.pages", "show", "the view"),
         ("app.tables.replays", "count_actions", "count the steps")]
# The parts that make a table's answer from its game, which the minimal POST does none of: the
# state parsed, the view and the render (a part inside another is counted once, in the outer).
ANSWER_PARTS = frozenset({"parse the state", "the view", "render"})
ANSWER = "making the answer"


def time_parts(spent: dict[str, float]) -> None:
    """Wrap each of PARTS so that its wall time adds up in ``spent`` (the caller empties it per
    request), and note when the request's commit is done (``until commit``)."""
    import functools
    import importlib

    import sqlalchemy.engine.default

    depth = [0]  # wrapped parts running now
    for module_name, name, label in PARTS:
        module = importlib.import_module(module_name)
        function = getattr(module, name)

        def timed(*args, _function=function, _label=label, **kwargs):
            started = time.perf_counter()
            depth[0] += 1
            try:
                return _function(*args, **kwargs)
            finally:
                depth[0] -= 1
                took = time.perf_counter() - started
                spent[_label] = spent.get(_label, 0.0) + took
                if _label in ANSWER_PARTS and depth[0] == 0:
                    spent[ANSWER] = spent.get(ANSWER, 0.0) + took

        setattr(module, name, functools.wraps(function)(timed))
    dialect = sqlalchemy.engine.default.DefaultDialect
    commit = dialect.do_commit

    def do_commit(self, connection):
        commit(self, connection)
        if "started" in spent:  # (a request being measured)
            spent["until commit"] = time.perf_counter() - spent["started"]

    dialect.do_commit = do_commit


def count_template_calls(counted: dict[str, int]) -> None:
    """Count Jinja's macro calls (a call block's body is one too) and the contexts its templates
    make (one a render, one more an include) in ``counted``."""
    import jinja2.environment
    import jinja2.runtime

    def counting(owner, name: str, key: str) -> None:
        function = getattr(owner, name)

        def counted_call(*args, **kwargs):
            counted[key] = counted.get(key, 0) + 1
            return function(*args, **kwargs)

        setattr(owner, name, counted_call)

    counting(jinja2.runtime.Macro, "__call__", "macro calls")
    counting(jinja2.environment.Template, "new_context", "contexts")


# The same HTML made through a macro and through an include, and written inline: what each costs
# Jinja beyond the HTML (the most a flatter template tree saves on each; a call block's body is a
# macro call too).
JINJA_SHAPES = {
    "macro.html": "{% macro b(x) %}<b>{{ x }}</b>{% endmacro %}",
    "part.html": "<b>{{ x }}</b>",
    "macro calls": "{% from 'macro.html' import b %}" + "{{ b(x) }}" * 16,
    "macro calls inline": "<b>{{ x }}</b>" * 16,
    "includes": "{% include 'part.html' %}" * 16,
    "includes inline": "<b>{{ x }}</b>" * 16,
}


def jinja_overheads() -> dict[str, float]:
    """What a macro call and an include cost beyond the same HTML inline, in ms (best of 5)."""
    import timeit

    from jinja2 import DictLoader, Environment

    environment = Environment(loader=DictLoader(JINJA_SHAPES), autoescape=True)
    costs = {}
    for shape in ("macro calls", "includes"):
        best = {}
        for name in (shape, f"{shape} inline"):
            template = environment.get_template(name)
            best[name] = min(timeit.repeat(lambda: template.render(x="card"), number=2000, repeat=5)) / 2000
        costs[shape] = 1000 * (best[shape] - best[f"{shape} inline"]) / 16
    return costs


def read_costs(slug: str) -> dict[str, float]:
    """The game's row with its seats read as the table reads it (the ORM's joined load) and read
    with SQLAlchemy Core (one outer join), each with its transaction's end, in ms (best of 5)."""
    import timeit

    import sqlalchemy as sa
    from app import store
    from app.extensions import db
    from app.store.models import GameRecord, SeatRecord

    games, seats = GameRecord.__table__, SeatRecord.__table__
    core = (sa.select(games, seats).select_from(games.outerjoin(seats, seats.c.game_id == games.c.id))
            .where(games.c.slug == sa.bindparam("slug")))

    def orm_read():
        store.find_game(slug)
        db.session.rollback()

    def core_read():
        db.session.execute(core, {"slug": slug}).all()
        db.session.rollback()

    return {name: 1000 * min(timeit.repeat(read, number=500, repeat=5)) / 500
            for name, read in (("the ORM's read", orm_read), ("a Core read", core_read))}


def measure(root: str, actions: int, parts: bool = False, trims: bool = False) -> dict[str, float]:
    """One round in this process (``root``'s app): the medians, in ms (with ``parts``, also the
    median wall time of each part of an action and of a refresh, keyed "action: <part>": a median,
    since a template compiled the first time a game reaches its end would swell a mean; with
    ``trims``, what the trims left could save at most, keyed "trims: <what>")."""
    sys.path[:0] = [root, os.path.join(str(HERE.parent), "tests"), str(HERE)]
    from support.client import BROWSER_ENCODINGS, decoded
    from support.databases import migrate
    from support.live import sample_decks
    from support.moves import mover, sensible_move
    from support.pages import Page
    from support.web import Player

    folder = Path(tempfile.mkdtemp(prefix="request-cpu-"))
    url = f"sqlite:///{folder}/table.db"
    migrate(url, folder / "instance")
    os.environ["MINIMAL_DATABASE"] = str(folder / "minimal.db")
    import minimal_app
    from app import store
    from app.factory import create_app
    from config import Config

    as_a_browser = {"Accept-Encoding": BROWSER_ENCODINGS}
    spent: dict[str, float] = {}
    totals: dict[str, list[float]] = {}  # each part's time in each request
    if parts:
        time_parts(spent)
    counted: dict[str, int] = {}  # with trims: Jinja's macro calls and contexts in this request
    calls: dict[str, list[int]] = {}  # each request's, by "<kind>: macro calls" and "<kind>: includes"
    if trims:
        count_template_calls(counted)

    def add_calls(kind: str) -> None:
        if trims:
            calls.setdefault(f"{kind}: macro calls", []).append(counted.get("macro calls", 0))
            calls.setdefault(f"{kind}: includes", []).append(counted.get("contexts", 1) - 1)  # (less the page's own)
        counted.clear()

    def add_parts(kind: str) -> None:
        spent.pop("started", None)
        for label, seconds in spent.items():
            totals.setdefault(f"{kind}: {label}", []).append(seconds)
        spent.clear()

    minimal_app.create(str(folder / "minimal.db"))
    minimal = minimal_app.app.test_client()
    app = create_app(Config, instance_path=str(folder / "instance"), SQLALCHEMY_DATABASE_URI=url,
                     DECKS_FOLDER=str(sample_decks(Path(root))), ADMIN_PASSWORD="request-cpu")
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
    times: dict[str, list[float]] = {"action": [], "refresh": [], "poll": [], "minimal": []}
    played = 0
    while len(times["action"]) < actions:
        if played == WARM_UP:  # what came before was the warm-up
            for values in times.values():
                values.clear()
            totals.clear()
        played += 1
        state, version = host.state(slug)
        with app.app_context():  # (the table's refresh says the steps it showed: templates/table/_table.html)
            steps = store.find_game(slug).steps
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
        spent.clear()  # (what the loop did since, reading the game and the form, is not the action's)
        counted.clear()
        if parts:
            spent["started"] = time.perf_counter()
        started = time.process_time()
        answer = player.client.post(f"/games/{slug}/act", data=form, headers={"HX-Request": "true", **as_a_browser})
        times["action"].append(time.process_time() - started)
        add_parts("action")
        add_calls("action")
        if answer.status_code != 200:
            raise RuntimeError(f"action answered {answer.status_code}")
        if parts:
            spent["started"] = time.perf_counter()
        started = time.process_time()
        answer = other.get(f"/games/{slug}/table?since={version}&steps={steps}&changed=1", htmx=True,
                           headers=dict(as_a_browser))
        times["refresh"].append(time.process_time() - started)
        add_parts("refresh")
        add_calls("refresh")
        shown = Page(decoded(answer.headers.get("Content-Encoding", ""), answer.get_data())).table_version
        spent.clear()
        started = time.process_time()
        answer = other.get(f"/games/{slug}/table?since={shown}", htmx=True, headers=dict(as_a_browser))
        times["poll"].append(time.process_time() - started)
        if answer.status_code != 204:
            raise RuntimeError(f"a poll of an unchanged table answered {answer.status_code}")
        started = time.process_time()
        answer = minimal.post("/row/r1", headers=as_a_browser)
        times["minimal"].append(time.process_time() - started)
    found = {kind: 1000 * statistics.median(values) for kind, values in times.items()}
    if trims:
        found |= {f"trims: {label}": statistics.median(values) for label, values in calls.items()}
        found |= {f"trims: {shape}": cost for shape, cost in jinja_overheads().items()}
        with app.test_request_context():
            found |= {f"trims: {name}": cost for name, cost in read_costs(slug).items()}
    return found | {label: 1000 * statistics.median(values) for label, values in totals.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=150, help="actions (and refreshes and POSTs) a round")
    parser.add_argument("--repeat", type=int, default=3, help="rounds, each in a fresh process")
    parser.add_argument("--root", default=str(HERE.parent), help="the checkout whose app is measured")
    parser.add_argument("--parts", action="store_true",
                        help="also time the parts of each request (wall time; the wrapping adds a little)")
    parser.add_argument("--trims", action="store_true",
                        help="also the most the trims left could save: no macro call or include, a Core read")
    parser.add_argument("--one-round", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one_round:
        found = measure(os.path.abspath(args.root), args.actions, args.parts, args.trims)
        print("\t".join(f"{kind}={value:.4f}" for kind, value in found.items()))
        return 0
    print(f"CPU per request in one process, {os.path.abspath(args.root)}; median of {args.actions} each a round")
    ratios: dict[str, list[float]] = {"action": [], "refresh": [], "poll": []}
    answers: dict[str, list[float]] = {}  # with --parts: making the answer / the minimal POST
    trimmed: dict[str, list[float]] = {}  # with --trims: the most the trims save, a share of the request
    for number in range(args.repeat):
        done = subprocess.run([sys.executable, __file__, "--one-round", "--root", args.root,
                               "--actions", str(args.actions)] + (["--parts"] if args.parts else [])
                              + (["--trims"] if args.trims else []),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            print(done.stderr[-3000:])
            return 1
        found = {kind: float(value) for kind, value in
                 (item.split("=") for item in done.stdout.strip().splitlines()[-1].split("\t"))}
        for kind in ratios:
            ratios[kind].append(found[kind] / found["minimal"])
        print(f"  round {number + 1} (load average {' '.join(f'{v:.2f}' for v in os.getloadavg())}): action "
              f"{found['action']:.2f} ms, refresh {found['refresh']:.2f} ms, poll {found['poll']:.2f} ms, minimal POST "
              f"{found['minimal']:.2f} ms: {ratios['action'][-1]:.2f}x, {ratios['refresh'][-1]:.2f}x and "
              f"{ratios['poll'][-1]:.2f}x")
        for kind in ("action", "refresh"):
            spent = {label.split(": ", 1)[1]: value for label, value in found.items() if label.startswith(kind + ": ")}
            answer = spent.pop(ANSWER, None)
            if spent:
                print(f"    {kind}, median wall time of its parts: "
                      + ", ".join(f"{label} {value:.3f} ms" for label, value in spent.items()))
            if answer is not None:
                answers.setdefault(kind, []).append(answer / found["minimal"])
                print(f"    {kind}, making its answer alone (the state parsed, the view, the render: none of it in "
                      f"the minimal POST): {answer:.3f} ms, {answers[kind][-1]:.2f}x the minimal POST")
        if args.trims:
            print_trims(found, {kind: ratios[kind][-1] for kind in ("action", "refresh")}, trimmed)
    print(f"median of {args.repeat}: an action {statistics.median(ratios['action']):.2f}x the minimal POST, "
          f"a live refresh {statistics.median(ratios['refresh']):.2f}x, a poll {statistics.median(ratios['poll']):.2f}x")
    if answers:
        print(f"making the answer alone, median of {args.repeat}: an action's "
              f"{statistics.median(answers['action']):.2f}x the minimal POST, a refresh's "
              f"{statistics.median(answers['refresh']):.2f}x (the CPU goal allows a whole action "
              f"{GOAL_CPU - 1:.2f}x more than the minimal POST)")
    if trimmed:
        print(f"the trims left together, median of {args.repeat}: at most {statistics.median(trimmed['action']):.1%} "
              f"of an action and {statistics.median(trimmed['refresh']):.1%} of a refresh; "
              f"{GOAL_CPU}x needs {statistics.median(trimmed['action needs']):.1%} and "
              f"{statistics.median(trimmed['refresh needs']):.1%} less")
    return 0


def print_trims(found: dict[str, float], ratios: dict[str, float], trimmed: dict[str, list[float]]) -> None:
    """A round's figures of the trims left: a template tree without macro calls and includes,
    and a Core read of the game instead of the ORM's; what they save at most, as a share of the
    request, beside the share the goal needs."""
    macro, include = found["trims: macro calls"], found["trims: includes"]
    orm, core = found["trims: the ORM's read"], found["trims: a Core read"]
    flatter = {kind: found[f"trims: {kind}: macro calls"] * macro + found[f"trims: {kind}: includes"] * include
               for kind in ratios}
    print(f"    the trims left, at most: a flatter template tree, each macro call and include written inline "
          f"(an action's answer makes {found['trims: action: macro calls']:.0f} and "
          f"{found['trims: action: includes']:.0f}, a refresh's {found['trims: refresh: macro calls']:.0f} and "
          f"{found['trims: refresh: includes']:.0f}; each costs Jinja {1000 * macro:.1f} and {1000 * include:.1f} us "
          f"beyond the same HTML): {flatter['action']:.3f} and {flatter['refresh']:.3f} ms; a Core read of the game "
          f"with its seats: {core:.3f} ms against the ORM's {orm:.3f} ms")
    for kind, ratio in ratios.items():
        trimmed.setdefault(kind, []).append((flatter[kind] + orm - core) / found[kind])
        trimmed.setdefault(f"{kind} needs", []).append(max(0.0, 1 - GOAL_CPU / ratio))
    print(f"    together at most {trimmed['action'][-1]:.1%} of an action and {trimmed['refresh'][-1]:.1%} of a refresh; "
          f"{GOAL_CPU}x the minimal POST needs {trimmed['action needs'][-1]:.1%} and "
          f"{trimmed['refresh needs'][-1]:.1%} less")


if __name__ == "__main__":
    sys.exit(main())
