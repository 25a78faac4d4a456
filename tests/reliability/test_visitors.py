"""A visitor cannot stall a game or the server, against the real server
(gunicorn, gevent workers; on PostgreSQL too when the suite runs on it):

4. Arranging is not a turn: a seat arranging its cards in a loop leaves the seat on turn playing
   (its draw and discard apply at once), writes no action row and no new version, is limited per
   client address (429), and leaves the idle rule's clock alone (the computer may stand in for
   the idle seat on turn while another seat arranges).
5. Rematches count against GAMES_PER_HOUR like set-ups.
6. No 500 from input: a control character in a query string or a form field gets 400 with a
   message before any query; page numbers and steps are clamped; a deeply nested or huge game
   file at the admin import gets 422 with a message.
"""

from __future__ import annotations

import json
import threading
import time
import uuid

import sqlalchemy as sa
from support.client import Browser, PreparedRequest
from support.figures import record_figures

CONTROL_MESSAGE = "invisible control character"


def set_up(browser: Browser, key: str, names: list[str], devices: list[str], **options) -> str:
    form = {"seats": str(len(names)), **{k: str(v) for k, v in options.items()}}
    for number, (name, device) in enumerate(zip(names, devices)):
        form[f"name{number}"] = name
        form[f"device{number}"] = device
    response = browser.post(f"/setup/{key}", form)
    assert response.status == 303, response.page.alerts or response.body[:500]
    return response.headers["Location"].rstrip("/").rsplit("/", 1)[1]


def game_row(server, slug: str):
    with server.reader.engine.connect() as connection:
        return connection.execute(sa.text("SELECT id, version, updated_at, steps FROM games WHERE slug = :slug"),
                                  {"slug": slug}).one()


def act(browser: Browser, slug: str, seat: int, version: int | None, fields: list[tuple[str, str]]):
    form = [*fields, ("version", "" if version is None else str(version)), ("seat", str(seat))]
    return browser.post(f"/games/{slug}/act", form, htmx=True)


def test_a_seat_arranging_in_a_loop_never_stops_the_seat_on_turn(make_live_server):
    server = make_live_server(IDLE_SECONDS=3, OWN_MOVES_PER_MINUTE=30)
    host = Browser(server.url, "host")
    slug = set_up(host, "points", ["Ann", "Bob"], ["own", "own"], deals=1)
    codes = host.join_codes(slug)
    ann, bob = Browser(server.url, "Ann", source="127.0.0.2"), Browser(server.url, "Bob", source="127.0.0.3")
    assert ann.claim(codes[0]).status == 303 and bob.claim(codes[1]).status == 303
    start = game_row(server, slug)
    assert server.state(slug).to_move() == 0  # Ann plays first (P2.4)

    def arrange_in_a_loop(browser: Browser, seat: int, seconds: float, answers: list[int]) -> None:
        version = game_row(server, slug).version  # the page's version: stale once the other seat moves
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            answers.append(act(browser, slug, seat, version, [("action", "sort")]).status)

    bob_answers: list[int] = []
    loop = threading.Thread(target=arrange_in_a_loop, args=(bob, 1, 6.0, bob_answers))
    loop.start()
    time.sleep(1.0)
    draw = act(ann, slug, 0, start.version, [("move", "draw|source=closed")])
    card = server.state(slug).hands[0][0].id
    discard = act(ann, slug, 0, start.version + 1, [("action", "discard"), ("cards", card)])
    loop.join()
    assert draw.status == 200 and discard.status == 200, (draw.status, draw.page.alerts, discard.page.alerts)
    assert set(bob_answers) <= {200, 429}, sorted(set(bob_answers))  # never stale, never an error
    assert bob_answers.count(200) >= 1 and 429 in bob_answers  # limited: 30 a minute per worker
    after = game_row(server, slug)
    assert after.version == start.version + 2 and after.steps == start.steps + 2  # Ann's draw and discard only
    logged = [action["action"] for _version, _seat, action in server.reader.actions(after.id)]
    assert logged == ["draw", "discard"]
    state = server.state(slug)
    assert state.to_move() == 1 and len(state.arrangements[1]) >= 1  # Bob's arrangement was kept

    # Bob is on turn and idle; Ann arranges in a loop: the idle rule still fires
    ann_answers: list[int] = []
    arrange_in_a_loop(ann, 0, 4.0, ann_answers)
    assert game_row(server, slug).updated_at == after.updated_at  # arranging is not a move of the game
    standin = host.post(f"/games/{slug}/seats/1/standin", {"on": "1"})
    assert standin.status == 303, standin.page.alerts
    played = game_row(server, slug)
    assert played.version > after.version  # the computer played Bob's turn
    record_figures(server.database_url, "arranging_loop", bob_posts=len(bob_answers),
                   bob_applied=bob_answers.count(200), bob_refused_429=bob_answers.count(429),
                   ann_draw=draw.status, ann_discard=discard.status, action_rows_written=2,
                   idle_standin=standin.status)


def test_rematches_count_against_games_per_hour(make_live_server):
    server = make_live_server(GAMES_PER_HOUR=3)
    player = Browser(server.url, "player", source="127.0.0.4")
    slug = set_up(player, "seahaven", ["Ann"], ["here"], deal=1)
    statuses, outcomes = [], []
    for _ in range(5):
        version = game_row(server, slug).version
        assert act(player, slug, 0, version, [("action", "give_up")]).status == 200
        response = player.post(f"/games/{slug}/rematch", {})
        statuses.append(response.status)
        assert response.status == 303  # a plain form: to the new game, or refused: back to its table
        target = response.headers["Location"].split("?", 1)[0].rstrip("/").rsplit("/", 1)[1]
        if target == slug:
            outcomes.append("refused")
            break
        outcomes.append("new game")
        slug = target
    assert outcomes == ["new game", "new game", "refused"], statuses  # the set-up and two rematches: 3 this hour
    refused = player.follow(f"/games/{slug}/rematch", {})
    assert refused.url.split("?", 1)[0] == f"/games/{slug}" and "rematches count too" in " ".join(refused.page.alerts)
    assert player.post(f"/games/{slug}/rematch", {}, htmx=True).status == 429  # (htmx: the table, at 429)
    with server.reader.engine.connect() as connection:
        assert connection.execute(sa.text("SELECT count(*) FROM games")).scalar() == 3
    other = Browser(server.url, "other", source="127.0.0.5")
    assert set_up(other, "seahaven", ["Bo"], ["here"], deal=1)  # another address still sets up
    record_figures(server.database_url, "rematch_flood", games_per_hour=3, answers=outcomes)


def multipart(browser: Browser, path: str, field: str, filename: str, data: bytes):
    """POST a file as a browser's upload form does (multipart, with the form's CSRF token)."""
    boundary = uuid.uuid4().hex
    token = browser.csrf_token()
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"csrf_token\"\r\n\r\n{token}\r\n"
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"{filename}\"\r\n"
            f"Content-Type: application/json\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
    headers = browser._headers(False)
    headers.update({"Content-Type": f"multipart/form-data; boundary={boundary}", "Content-Length": str(len(body))})
    return PreparedRequest(browser, "POST", path, body, headers).fire()


def test_bad_input_gets_a_clear_4xx_never_a_500(live_server):
    """Each bad input against the real server, on the suite's database: a 400 (control
    characters), 200 (numbers clamped) or 422 (game files) with a message; no traceback."""
    browser = Browser(live_server.url, "visitor", source="127.0.0.6")
    slug = set_up(browser, "seahaven", ["Ann"], ["here"], deal=3)
    assert act(browser, slug, 0, game_row(live_server, slug).version, [("action", "give_up")]).status == 200
    log_before = len(live_server.log())
    control = [
        ("GET", "/scores?q=%00", None), ("GET", "/scores?q=Ann%01", None), ("GET", "/?x=%7F", None),
        ("GET", "/finished?page=%00", None), ("GET", f"/games/{slug}/replay?step=1%00", None),
        ("GET", "/menu?%00=1", None),
        ("POST", "/menus/mason", {"choice": "\x00"}), ("POST", "/setup/points", {"seats": "2", "name0": "A\x00n", "name1": "Bo"}),
        ("POST", "/setup/seat", {"kind": "1", "name": "Do\x07ris", "device": "here"}),
        ("POST", "/join", {"code": "AB\x00CD"}),
    ]
    answers = {}
    for method, path, form in control:
        response = browser.request(method, path, form)
        answers[path if form is None else f"{path} {sorted(form)}"] = response.status
        assert response.status == 400, (path, form, response.status, response.body[:300])
        assert CONTROL_MESSAGE in " ".join(response.page.alerts), (path, response.body[:500])
    clamped = ["/finished?page=99999999999999999999", "/finished?page=-99999999999999999999",
               f"/games/{slug}/replay?step=99999999999999999999", f"/games/{slug}/replay?step=-99999999999999999999",
               f"/games/{slug}/table?since=-99999999999999999999",
               f"/games/{slug}/steps?after=99999999999999999999&upto=99999999999999999999",
               "/scores?page=99999999999999999999"]
    for path in clamped:
        response = browser.get(path)
        answers[path] = response.status
        assert response.status == 200, (path, response.status, response.body[:300])
    # the admin's import: a deeply nested file, control characters in its texts, a huge one
    admin = Browser(live_server.url, "admin", source="127.0.0.7")
    assert admin.post("/admin/login", {"password": live_server.admin_password, "next": "/admin"}).status == 303
    files = {"nested": b"[" * 100_000 + b"]" * 100_000,
             "nested object": b'{"a":' * 40 + b"1" + b"}" * 40,  # (parses: the depth check refuses it)
             "control": json.dumps({"export": "card-table game", "format": 1, "game": "sea\x00haven"}).encode(),
             "huge": json.dumps({"export": "card-table game", "format": 1, "game": "seahaven", "initial_state": {},
                                 "actions": [{}] * 200_000}).encode()}
    messages = {}
    for name, data in files.items():
        response = multipart(admin, "/finished/import", "game", "game.json", data)
        answers[f"import {name}"] = response.status
        assert response.status == 422, (name, response.status)
        messages[name] = " ".join(response.page.alerts)
        assert messages[name].startswith("The game was not imported"), (name, response.body[:500])
    assert "nested more than" in messages["nested object"] and "control character" in messages["control"]
    assert "200,000 actions" in messages["huge"]
    log = live_server.log()[log_before:]
    assert "Traceback" not in log, log[-3000:]
    record_figures(live_server.database_url, "bad_input", answers=answers, tracebacks=0)
