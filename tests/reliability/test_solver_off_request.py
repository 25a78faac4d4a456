"""The solver never runs on a request's time, against the real
server as `make run` serves it (gunicorn, gevent workers, and the job runner the master keeps
going), on the suite's database (SQLite, and PostgreSQL when the suite runs on it):

- a hard deal's page (and its /watch page) answers while the job runner is stopped (SIGSTOP): no
  request waits for a solve; it shows "checking...";
- the verdict and the hint arrive through the live update (event ``analysed``) once the runner
  goes on, and every page after shows them (kept: the same position is not solved again);
- a spectator never starts a solve, not even of a position nobody has asked about;
- a client's solver-heavy requests are limited per address (``SOLVES_PER_MINUTE``): its moves
  still apply, its table says "checking paused"; another address is not held back;
- the runner's death loses nothing: the master starts it again, and the job it held is done;
  a gunicorn worker's death leaves the runner alone;
- "deal only winnable games" and a computer player (``AI``) work through the runner;
- an imported game's file is replayed by the runner, not by the admin's request: its page says
  it is being checked, then shows the verdict.
"""

from __future__ import annotations

import json
import os
import re
import signal
import time

import pytest
import sqlalchemy as sa
from support.client import Browser, EventStream
from support.waiting import wait_for

from app.games.seahaven import DEFINITION, first_winnable_deal
from app.web.words import card_short
from app.games.seahaven.analysis import ANALYST

pytestmark = [pytest.mark.slow, pytest.mark.own_live_server]  # (the runner starts idle for each)

HARD_DEAL = 358  # the open deal of 1-1000 the solver takes longest over (about 1 s)


def set_up(browser: Browser, deal: int, *, name: str = "Ann", winnable_only: bool = False, classic: bool = False):
    form = [("seats", "1"), ("name0", name), ("device0", "here"), ("deal", str(deal)),
            ("classic", "1" if classic else "0"), ("winnable_only", "1" if winnable_only else "0"), ("deck", "")]

    def posted():
        answer = browser.post("/setup/seahaven", form)
        if winnable_only and answer.status == 409 and "still checking" in " ".join(answer.page.alerts):
            return None  # the runner's verdicts take longer than a set-up waits: pressed again, as the page asks
        return answer

    answer = wait_for(posted, what="the set-up")
    assert answer.status == 303, answer.page.alerts or answer.body[:300]
    return answer.location.rsplit("/", 1)[1]


def rows(server, where: str = "", **values) -> list:
    with server.reader.engine.connect() as connection:
        return connection.execute(sa.text(f"SELECT key, kind, status, answer, waiting_games FROM analyses {where}"),
                                  values).all()


def row_of(server, key: str):
    found = rows(server, "WHERE key = :key", key=key)
    return found[0] if found else None



def runner_of(server) -> int:
    return wait_for(lambda: (server.runner_pids() or [None])[0], what="a job runner")


def mark(page) -> str:
    found = page.find("span", "sh-mark")
    return found.text if found is not None else ""


def post_move(browser: Browser, slug: str, version: int, source: str, target: str):
    return browser.post(f"/games/{slug}/act", [("version", str(version)), ("seat", "0"),
                                               ("move", f"move|from={source}|to={target}")], htmx=True)


class Stopped:
    """The job runner stopped (SIGSTOP) for the ``with`` block: nothing is solved meanwhile."""

    def __init__(self, server):
        self.pid = runner_of(server)

    def __enter__(self):
        os.kill(self.pid, signal.SIGSTOP)
        return self

    def __exit__(self, *exc):
        os.kill(self.pid, signal.SIGCONT)


def test_a_hard_deal_answers_at_once_and_its_verdict_and_hint_arrive_live(live_server):
    ann = Browser(live_server.url, "Ann")
    with Stopped(live_server):
        slug = set_up(ann, HARD_DEAL)  # the set-up asks, and answers at once
        state = live_server.state(slug)
        key = ANALYST.question(state).key
        page = ann.get(f"/games/{slug}")
        assert page.status == 200 and mark(page.page) == "checking\u2026"
        assert "still winnable" not in page.body
        watch = Browser(live_server.url, "spectator").get(f"/games/{slug}/watch")
        assert watch.status == 200 and mark(watch.page) == "checking\u2026"
        hint = ann.get(f"/games/{slug}?hint=1")
        assert "the solver is still checking this position" in hint.page.find("p", "sh-hint").text
        assert row_of(live_server, key).status == "waiting"
        stream = EventStream(live_server.url, slug, since=page.table_version, cookies=ann.cookies)
        assert stream.ready.wait(10)
    try:
        event, data = stream.announced.get(timeout=60)  # the runner went on: the answer is announced
        assert (event, data) == ("analysed", key)
    finally:
        stream.close()
    assert row_of(live_server, key).status == "answered"
    assert mark(ann.get(f"/games/{slug}").page) == "\u2713 still winnable"
    expected = state.hint()
    card = state.layout.card_at(expected.source).code
    text = ann.get(f"/games/{slug}?hint=1").page.find("p", "sh-hint").text
    assert text.startswith(f"Hint: move the {card_short(DEFINITION.deck.parse(card))} from")
    # a move: the new position is asked in the move's transaction, answered, announced
    with Stopped(live_server):
        answer = post_move(ann, slug, page.table_version, expected.source, expected.target)
        assert answer.status == 200 and mark(answer.page) == "checking\u2026"
        stream = EventStream(live_server.url, slug, since=answer.table_version, cookies=ann.cookies)
        assert stream.ready.wait(10)
    try:
        assert stream.announced.get(timeout=60)[0] == "analysed"
    finally:
        stream.close()
    assert mark(ann.get(f"/games/{slug}").page) == "\u2713 still winnable"
    # a second game on the same deal finds the first position kept: nothing is solved again
    before = len(rows(live_server))
    other = set_up(Browser(live_server.url, "Bob", source="127.0.0.3"), HARD_DEAL, name="Bob")
    assert mark(ann.get(f"/games/{other}").page) == "\u2713 still winnable" and len(rows(live_server)) == before


def test_a_spectator_never_starts_a_solve(make_live_server):
    server = make_live_server(SOLVES_PER_MINUTE=1)
    ann = Browser(server.url, "Ann", source="127.0.0.2")
    slug = set_up(ann, 1234)  # the deal's position: asked (Ann's one question this minute)
    wait_for(lambda: all(row.status == "answered" for row in rows(server)), what="the first answer")
    state = server.state(slug)
    source, target = state.layout.legal_moves()[0]
    assert post_move(ann, slug, 1, source, target).status == 200  # applied, but not asked: over the limit
    state = server.state(slug)
    key = ANALYST.question(state).key
    assert row_of(server, key) is None
    spectator = Browser(server.url, "spectator", source="127.0.0.4")
    for _ in range(5):
        watch = spectator.get(f"/games/{slug}/watch")
        assert watch.status == 200 and mark(watch.page) == "not checked"
        assert spectator.get(f"/games/{slug}/table?watch=1", htmx=True).status == 200
        assert spectator.get(f"/games/{slug}").status == 200  # the table's own address, without the seat
    assert row_of(server, key) is None and len(rows(server)) == 1
    # the player's own page would ask: it is over its limit, and says so
    assert mark(ann.get(f"/games/{slug}").page) == "checking paused"
    assert row_of(server, key) is None


def test_solver_heavy_requests_are_limited_per_address(make_live_server):
    server = make_live_server(SOLVES_PER_MINUTE=3)
    ann = Browser(server.url, "Ann", source="127.0.0.2")
    slug = set_up(ann, 1234)  # 1
    version = 1
    marks = []
    for _ in range(4):  # 2, 3, then over the limit: the moves apply all the same
        state = server.state(slug)
        source, target = next(move for move in state.layout.legal_moves() if move[1][0] != "c") \
            if any(move[1][0] != "c" for move in state.layout.legal_moves()) else state.layout.legal_moves()[0]
        answer = post_move(ann, slug, version, source, target)
        assert answer.status == 200
        version = answer.table_version
        marks.append(mark(answer.page))
    assert server.state(slug).moves_made() == 4
    assert marks[-1] == "checking paused" and marks[-2] == "checking paused"
    with server.reader.engine.connect() as connection:
        counted = connection.execute(sa.text("SELECT address, count(*) FROM rate_events WHERE kind = 'solve' "
                                             "GROUP BY address")).all()
    assert dict(counted) == {"127.0.0.2": 3}
    # another device is not held back by Ann's limit
    bob = Browser(server.url, "Bob", source="127.0.0.3")
    other = set_up(bob, 4321, name="Bob")
    assert mark(bob.get(f"/games/{other}").page) in ("checking\u2026", "\u2713 still winnable")
    assert ANALYST.question(server.state(other)).key in {row.key for row in rows(server)}


def test_the_runner_s_death_loses_nothing_and_a_worker_s_death_leaves_it_alone(live_server):
    ann = Browser(live_server.url, "Ann")
    first = runner_of(live_server)
    with Stopped(live_server):
        slug = set_up(ann, HARD_DEAL)
        key = ANALYST.question(live_server.state(slug)).key
    wait_for(lambda: row_of(live_server, key).status in ("working", "answered"), what="the runner taking the job")
    os.kill(first, signal.SIGKILL)  # in the middle of the job, most likely
    second = wait_for(lambda: next((pid for pid in live_server.runner_pids() if pid != first), None),
                      what="the master starting the runner again")
    wait_for(lambda: row_of(live_server, key).status == "answered", what="the job's answer")
    assert mark(ann.get(f"/games/{slug}").page) == "\u2713 still winnable"
    worker = live_server.worker_pids()[0]
    os.kill(worker, signal.SIGKILL)
    wait_for(lambda: worker not in live_server.worker_pids() and len(live_server.worker_pids()) >= 2,
             what="gunicorn replacing its worker")
    assert live_server.runner_pids() == [second]


def test_deal_only_winnable_games_and_a_computer_player_work_through_the_runner(live_server):
    ann = Browser(live_server.url, "Ann")
    slug = set_up(ann, 1, classic=True, winnable_only=True)  # classic deal 1 cannot be won
    state = live_server.state(slug)
    assert state.deal == first_winnable_deal(1, True) and state.deal > 1
    # a computer player thinks in the runner: the set-up answers at once, the game plays on there
    started = time.monotonic()
    robot = set_up(ann, 1234, name="AI")
    assert time.monotonic() - started < 30  # (a sanity bound, not a timing: it never solves)
    final = wait_for(lambda: (lambda s: s if s.is_over() else None)(live_server.state(robot)),
                     what="the computer player's game")
    assert final.layout.is_won() and final.moves_made() > 40
    # the turns' job is done and gone (the runner removes it once the game it played is saved)
    wait_for(lambda: not rows(live_server, "WHERE kind = 'turn'"), what="the turns' job to go")
    assert DEFINITION.key == "seahaven"


def long_export(actions: int, name: str = "Ann") -> dict:
    """An exported Seahaven Towers game of ``actions`` actions (a card moved and taken back, over
    and over, then given up: the longest game a table keeps is ``store.MAX_ACTIONS``), made by
    its rules in this process as its table's export would write it."""
    state = DEFINITION.new_state([name], seed=7)
    initial = state.to_dict()
    logged = []
    for number in range(actions):
        if number == actions - 1:
            action = DEFINITION.action_from_dict({"action": "give_up"})
        elif number % 2 == 0:
            move = next(move for move in state.legal(0) if move.action == "move")
            action = DEFINITION.action_from_dict(move.as_dict())
        else:
            action = DEFINITION.action_from_dict({"action": "undo"})
        state.apply(0, action)
        logged.append({"seat": 0, "action": DEFINITION.action_to_dict(action)})
    assert state.is_over()
    return {"export": "card-table game", "format": 1, "game": "seahaven", "game_name": DEFINITION.name,
            "options": {}, "seats": [{"number": 0, "name": name, "computer": False}], "deck": None,
            "initial_state": initial, "actions": logged}


def imported_games(server) -> int:
    with server.reader.engine.connect() as connection:
        return connection.execute(sa.text("SELECT count(*) FROM games WHERE imported")).scalar()


def test_an_import_is_replayed_by_the_job_runner_and_its_page_shows_the_verdict(live_server):
    """A 20,000-action export (3-4 s of a worker when the request replayed it) is answered at once
    while the job runner is stopped: the import's page says it is being checked (and looks again
    by itself), and no game is stored; once the runner goes on, the page shows the game imported,
    with its replay. A file whose results the rules do not make gets its reason on the page; an
    export that begins with a UTF-8 byte order mark is read."""
    from app.store import MAX_ACTIONS

    admin = Browser(live_server.url, "admin")
    assert admin.post("/admin/login", {"password": live_server.admin_password, "next": "/admin"}).status == 303
    export = long_export(MAX_ACTIONS)
    with Stopped(live_server):
        answer = admin.upload("/finished/import", "game", "long.json", json.dumps(export).encode())
        assert answer.status == 303, (answer.status, answer.page.alerts)
        status_page = answer.location
        assert status_page.startswith("/finished/import/"), status_page
        checking = admin.get(status_page)
        assert checking.status == 200 and "Checking" in checking.body
        assert 'http-equiv="refresh"' in checking.body
        assert imported_games(live_server) == 0
        # the same file again, while it is checked: the same page, not a second game
        again = admin.upload("/finished/import", "game", "long.json", json.dumps(export).encode())
        assert again.status == 303 and again.location == status_page
    done = wait_for(lambda: (page := admin.get(status_page)) and "was imported" in page.body and page, 120,
                    "the import's verdict")
    assert 'http-equiv="refresh"' not in done.body
    replay = re.search(r'href="(/games/[0-9A-Za-z_-]+/replay[^"]*)"', done.body).group(1)
    assert admin.get(replay).status == 200
    assert imported_games(live_server) == 1
    # a file the rules refuse: the reason, on the import's page
    lying = long_export(40, name="Bea")
    lying["results"] = [{"seat": 0, "won": True, "score": 52}]
    answer = admin.upload("/finished/import", "game", "lying.json", json.dumps(lying).encode())
    assert answer.status == 303
    refused = wait_for(lambda: (page := admin.get(answer.location)) and "not imported" in page.body and page, 60,
                       "the refusal")
    assert "results are not what its actions make" in " ".join(refused.page.alerts)
    # an export that begins with a byte order mark (as some editors save it)
    marked = "\ufeff" + json.dumps(long_export(40, name="Cy"))
    answer = admin.upload("/finished/import", "game", "marked.json", marked.encode("utf-8"))
    assert answer.status == 303, answer.page.alerts
    wait_for(lambda: "was imported" in admin.get(answer.location).body, 60, "the marked file's import")
    assert imported_games(live_server) == 2
