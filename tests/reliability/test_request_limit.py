"""A flood of cheap requests from one device is refused before it reaches the app, and nobody
else notices (docs/RELIABILITY.md section 17), against the real server (gunicorn, 2 gevent
workers; on PostgreSQL too when the suite runs on it), at the default limits:

- one address flooding pages, fragments and actions on 8 connections gets 429 with Retry-After
  and a short message (a fragment to htmx, a small page otherwise), while another address's
  Menu A is answered 200 and its move in its own game applies; static files and the live-update
  stream are never refused;
- a device playing a whole game of each of the five games, as fast as the test can, with a
  second tab refreshing the table after every move, never meets the limit.

Timing is not asserted: how fast the flood goes, and how much the other device waited, is
bench/seahaven_table.py's (``--attack-only``).
"""

from __future__ import annotations

import threading
import time

import pytest
import sqlalchemy as sa
from support.client import Browser
from support.figures import record_figures
from support.moves import sensible_move

from app import create_app
from app.core import registry
from config import Config, TestConfig

LIMIT_MESSAGE = "sending requests faster than the table can answer everybody"
FLOODER, OTHER, PLAYER = "127.0.0.3", "127.0.0.2", "127.0.0.4"


def set_up(browser: Browser, key: str, names: list[str], **options) -> str:
    """A game of ``key`` through its set-up form, every seat on this device; the options not
    given are the form's defaults."""
    defaults = {option.key: int(option.default) if option.kind == "bool" else option.default
                for option in registry.get(key).options}
    form = {"seats": str(len(names)), "deck": "", **{k: str(v) for k, v in {**defaults, **options}.items()}}
    for number, name in enumerate(names):
        form[f"name{number}"] = name
        form[f"device{number}"] = "here"
    response = browser.post(f"/setup/{key}", form)
    assert response.status == 303, (response.status, response.page.alerts or response.body[:500])
    return response.headers["Location"].rstrip("/").rsplit("/", 1)[1]


def play(browser: Browser, server, slug: str) -> None:
    """The move the suite's move chooser picks, posted through the table's form (htmx): it applies."""
    record = server.reader.game(slug)
    choice = sensible_move(record.game())
    answer = browser.act(slug, choice, record.version)
    assert answer.status == 200, (answer.status, answer.page.alerts)
    assert server.reader.game(slug).version == record.version + 1


@pytest.mark.slow
def test_a_flood_from_one_address_is_refused_while_another_address_plays(live_server):
    server = live_server
    other = Browser(server.url, "another device", source=OTHER)
    theirs = set_up(other, "seahaven", ["Ann"], deal=2)
    flooder = Browser(server.url, "flooder", source=FLOODER)
    mine = set_up(flooder, "twentyone", ["Bob"])
    first = sensible_move(server.state(mine)).form(1)  # applies once; the flood's copies are then stale (409)
    static = flooder.get("/").page.html.split('href="/static/', 1)[1].split('"', 1)[0]

    answers: list = []  # (kind, status, retry-after, body)
    lock = threading.Lock()
    stop = threading.Event()

    def flood(number: int) -> None:
        browser = Browser(server.url, f"flooder {number}", source=FLOODER)
        browser._csrf = flooder.csrf_token()  # (one browser's session, on connections of its own)
        browser.cookies = dict(flooder.cookies)
        requests = [("page", "GET", "/", False), ("fragment", "GET", f"/games/{mine}/table", True),
                    ("action", "POST", f"/games/{mine}/act", True), ("page", "GET", f"/games/{theirs}/watch", False)]
        step = number
        while not stop.is_set():
            kind, method, path, htmx = requests[step % len(requests)]
            step += 1
            answer = browser.request(method, path, first if method == "POST" else None, htmx=htmx)
            with lock:
                answers.append((kind, answer.status, answer.headers.get("Retry-After"), answer.body))

    def refused() -> int:
        with lock:
            return sum(1 for _kind, status, _retry, _body in answers if status == 429)

    threads = [threading.Thread(target=flood, args=(number,)) for number in range(8)]
    for thread in threads:
        thread.start()
    try:
        deadline = time.monotonic() + 120  # (a guard against a limit that never comes, not a measure)
        while refused() < 16 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert refused() >= 16, f"no flood refused after {len(answers)} requests"
        # Meanwhile (the flood goes on, and is refused): another device is answered and plays.
        menu = other.get("/")
        assert menu.status == 200 and menu.page.forms, menu.status
        version = server.reader.game(theirs).version
        play(other, server, theirs)
        assert other.get(f"/games/{theirs}").status == 200
        # ... and the flooder's own static files and live stream are not refused.
        assert flooder.get(f"/static/{static}").status == 200
        events = flooder.stream(mine)
        try:
            assert events.next_version() >= 1
        finally:
            events.close()
        still = refused()  # the flood is still refused after the other device played
        while refused() == still and time.monotonic() < deadline + 60:
            time.sleep(0.1)
        assert refused() > still
    finally:
        stop.set()
        for thread in threads:
            thread.join()

    statuses = {status for _kind, status, _retry, _body in answers}
    assert statuses <= {200, 409, 429}, statuses  # (409: the flood's stale action, when let through)
    for kind, status, retry, body in answers:
        if status != 429:
            continue
        assert retry is not None and retry.isdigit() and int(retry) >= 1, retry
        assert LIMIT_MESSAGE in body and "nothing was changed" in body
        if kind == "page":  # a small page of its own; htmx gets the fragment alone
            assert body.lstrip().lower().startswith("<!doctype html") and 'href="/"' in body
        else:
            assert "<html" not in body and 'id="error"' in body
    refused_kinds = {kind for kind, status, _retry, _body in answers if status == 429}
    assert refused_kinds == {"page", "fragment", "action"}, refused_kinds
    # the flood's actions changed nothing: its game moved only when one was let through (once, at most)
    assert server.reader.game(mine).version <= 2 and server.reader.game(theirs).version == version + 1
    record_figures(server.database_url, "request_flood", connections=8, requests=len(answers),
                   refused_429=refused(), other_menu_a=menu.status, other_move=200)


# One game of each, short where the game has a length to set; Mason Rummy through Menu A.
GAMES = {"rummy": {"target": 50}, "twentyone": {"rounds": 2}, "seahaven": {"deal": 2}, "points": {"deals": 1}}
# A move every 0.2 s, the whole game through: faster than any person plays. (Flat out, this test
# sends about 40 requests a second: as many as the flood of bench/seahaven_table.py, which is what
# the limit is for.)
PLAYER_PAUSE = 0.2


@pytest.mark.slow
def test_playing_a_game_of_each_game_never_meets_the_limit(live_server):
    """At the defaults: one device plays each game to its end (every seat on this device) at five
    moves a second, a second tab of it fetching the table after every move, as a live update
    makes it, and the table page and Menu A loaded again every 20 moves: no answer is 429."""
    server = live_server
    device = Browser(server.url, "player", source=PLAYER)
    statuses: dict[int, int] = {}

    def note(answer) -> None:
        statuses[answer.status] = statuses.get(answer.status, 0) + 1
        assert answer.status != 429, f"the limit was met after {sum(statuses.values())} requests"

    played = {}
    for key in ["mason", *GAMES]:
        if key == "mason":
            slug = device.start_game(["Ann", "Bob"], devices=["here", "here"])
        else:
            names = ["Ann", "Bob", "Cy"][:max(2, registry.get(key).min_seats)] if key != "seahaven" else ["Ann"]
            slug = set_up(device, key, names, **GAMES[key])
        moves = 0
        shown = device.get(f"/games/{slug}/table", htmx=True)
        while True:
            record = server.reader.game(slug)
            choice = sensible_move(record.game())
            if choice is None:
                break
            if any("show my hand" in label for label in shown.page.button_texts()):  # a shared device's hand-over
                note(device.post(f"/games/{slug}/reveal", {"version": str(record.version)}, htmx=True))
                record = server.reader.game(slug)
            answer = device.act(slug, choice, record.version)
            note(answer)
            assert answer.status == 200, (key, answer.status, answer.page.alerts)
            moves += 1
            time.sleep(PLAYER_PAUSE)
            shown = device.get(f"/games/{slug}/table", htmx=True)  # the other tab's live refresh
            note(shown)
            if moves % 20 == 0:
                note(device.get(f"/games/{slug}"))
                note(device.get("/"))
            assert moves < 3000, f"{key}: not over after {moves} moves"
        assert server.reader.game(slug).game().is_over()
        played[key] = moves
    assert set(statuses) == {200}, statuses
    record_figures(server.database_url, "request_limit_normal_play", requests=sum(statuses.values()),
                   moves=played, limit_per_minute=Config.REQUESTS_PER_MINUTE, burst=Config.REQUESTS_BURST)


@pytest.fixture
def limited_app(database_url, decks_folder, tmp_path):
    """The app in this process with a small limit: 3 requests at once, then one a second."""
    return create_app(TestConfig, instance_path=str(tmp_path / "instance"), SQLALCHEMY_DATABASE_URI=database_url,
                      DECKS_FOLDER=str(decks_folder), REQUESTS_PER_MINUTE=60, REQUESTS_BURST=3,
                      REQUEST_REFUSAL_PAUSE=0)


def test_a_refusal_makes_no_query_and_static_files_and_streams_take_no_token(limited_app):
    from app.extensions import db

    with limited_app.app_context():
        engine = db.engine
    statements: list[str] = []

    def spy(_connection, _cursor, statement, _parameters, _context, _executemany):
        statements.append(statement)

    client = limited_app.test_client()
    for _ in range(5):  # never limited, and they leave every token to the pages
        assert client.get("/static/css/app.css").status_code == 200
        assert client.get("/games/nosuchgame/events").status_code == 404
    sa.event.listen(engine, "before_cursor_execute", spy)
    try:
        for _ in range(3):
            assert client.get("/finished").status_code == 200
        assert statements, "the pages let through made no query: the spy sees nothing"
        statements.clear()
        refused = client.get("/finished?page=2")
        refused_post = client.post("/games/abcdef/act", data={"action": "x"},
                                   headers={"HX-Request": "true", "HX-Current-URL": "http://localhost/games/abcdef"})
        assert client.get("/games/abcdef/log/events").status_code == 429  # only a table's own stream is exempt
        assert statements == []
    finally:
        sa.event.remove(engine, "before_cursor_execute", spy)
    assert refused.status_code == 429 and refused_post.status_code == 429
    assert int(refused.headers["Retry-After"]) >= 1 and int(refused_post.headers["Retry-After"]) >= 1
    page, fragment = refused.get_data(as_text=True), refused_post.get_data(as_text=True)
    assert LIMIT_MESSAGE in page and LIMIT_MESSAGE in fragment
    assert page.lstrip().startswith("<!doctype html") and 'href="/finished?page=2"' in page  # "Try again"
    assert "<html" not in fragment and 'href="/games/abcdef"' in fragment  # the page it came from
    assert "Set-Cookie" not in refused.headers  # no session was opened
    assert refused.headers["Content-Security-Policy"] and refused.headers["Cache-Control"] == "no-store"
    # another address has its own bucket
    assert client.get("/finished", environ_base={"REMOTE_ADDR": "10.0.0.9"}).status_code == 200
