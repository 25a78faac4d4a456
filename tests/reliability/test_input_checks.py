"""Input checked before the database and the disk:

1. A game id or join code that cannot be one (a NUL, bytes outside the alphabet, too long) is a
   404 on every public route, checked before any query: no traceback, no 500 on PostgreSQL (which
   refuses NUL characters in text).
2. A deck file's name is at most 80 characters (what a game can keep): longer names are refused
   at upload with a clear message, never a 500, and no temporary file stays behind.
3. Only this server's own names are answered (Host check against DNS rebinding): IP addresses,
   localhost, the machine's names and ALLOWED_HOSTS; any other name gets 400, and so does a name
   Werkzeug cannot read (an empty or overlong part), in plain text, never a server error.
"""

from __future__ import annotations

import http.client
import io
import socket
import urllib.parse

import pytest
import sqlalchemy as sa
from support.client import Browser
from support.figures import record_figures
from support.games import admin_login, deck_text
from support.web import Page

from app.extensions import db

# Values a game id or join code can never be (percent-encoded as they travel in a URL).
BAD_IDS = ["%00", "ab%00cd", "abcdef%00", "%FF%FE", "x" * 17, "%27%3B--", "%E2%98%85"]
BAD_CODES = ["%00", "AB%00CD", "ABC%00EF", "%FF%FE%FD%FC%FB%FA", "A" * 41, "%E2%98%85%E2%98%85%E2%98%85"]


def game_routes(slug: str) -> list[tuple[str, str, dict | None]]:
    """Every public route that takes a game id: (method, path, form)."""
    return [
        ("GET", f"/games/{slug}", None), ("GET", f"/games/{slug}/watch", None),
        ("GET", f"/games/{slug}/table", None), ("GET", f"/games/{slug}/table?since=1", None),
        ("GET", f"/games/{slug}/events?v=1", None), ("GET", f"/games/{slug}/seats/1/invite", None),
        ("POST", f"/games/{slug}/act", {"action": "draw_stock", "version": "1", "seat": "0"}),
        ("POST", f"/games/{slug}/reveal", {"version": "1"}), ("POST", f"/games/{slug}/rematch", {}),
        ("POST", f"/games/{slug}/follow", {}), ("POST", f"/games/{slug}/seats/1/release", {}),
        ("POST", f"/games/{slug}/seats/1/standin", {"on": "1"}),
    ]


def test_bad_ids_and_codes_are_404_before_any_query_on_the_live_server(live_server, db_reader, database_url):
    """Against the real server (and, in CI, PostgreSQL): every route, every bad value: 404 with
    a message, never a 5xx; the server log gains no traceback."""
    host = Browser(live_server.url)
    slug = host.start_game(["Ann", "Bob"], deck="quick_out.deck", devices=["here", "own"])
    log_before = live_server.log()
    statuses: dict[int, int] = {}
    requests = 0
    for bad in BAD_IDS:
        for method, path, form in game_routes(bad):
            response = host.request(method, path, form, htmx=method == "POST")
            requests += 1
            statuses[response.status] = statuses.get(response.status, 0) + 1
            assert response.status == 404, (method, path, response.status, response.body[:300])
    # join codes: each batch from its own address (wrong codes are counted per address)
    for number, bad in enumerate(BAD_CODES):
        guesser = Browser(live_server.url, source=f"127.0.0.{10 + number}")
        # a control character in a query string or a form field is refused (400) before any view
        # (test_visitors.py); in the path, the code route says there is no such code
        in_field = 400 if "%00" in bad else 404
        for response, wanted in ((guesser.get(f"/join/{bad}"), 404), (guesser.get(f"/join?code={bad}"), in_field),
                                 (guesser.post("/join", [("code", urllib.parse.unquote(bad))]), in_field)):
            requests += 1
            statuses[response.status] = statuses.get(response.status, 0) + 1
            assert response.status == wanted, (bad, response.status, response.body[:300])
            assert response.page.alerts
    # the game itself is untouched and its real id still works
    assert host.get(f"/games/{slug}").status == 200
    log = live_server.log()[len(log_before):] if live_server.log().startswith(log_before[:200]) else live_server.log()
    assert "Traceback" not in log and "Error" not in log, log[-2000:]
    record_figures(database_url, "bad_ids", requests=requests, statuses=statuses, tracebacks=0)


def test_ids_and_codes_are_checked_before_any_query(app, player):
    """No statement ever carries a bad id or code to the database (SQLite would store and
    compare a NUL happily; PostgreSQL refuses it with an error): they are checked first."""
    slug = player.start_game(["Ann", "Bob"], deck="quick_out.deck", devices=["here", "own"])
    seen: list = []

    def spy(_connection, _cursor, statement, parameters, _context, _executemany):
        seen.append((statement, repr(parameters)))

    with app.app_context():
        engine = db.engine
    sa.event.listen(engine, "before_cursor_execute", spy)
    try:
        for bad in ("ab\x00cd", "\x00", "x" * 17, "é" * 3):
            quoted = urllib.parse.quote(bad)
            for method, path, form in game_routes(quoted):
                response = player.post(path, form, htmx=True) if method == "POST" else player.get(path)
                assert response.status_code == 404, (path, response.status_code)
        for bad in ("AB\x00CD", "ABCDE\x00", "ÀBCDEF", "A" * 41):
            assert player.get(f"/join/{urllib.parse.quote(bad)}").status_code == 404
            assert player.post("/join", {"code": bad}).status_code == (400 if "\x00" in bad else 404)
    finally:
        sa.event.remove(engine, "before_cursor_execute", spy)
    leaked = [statement for statement, parameters in seen
              if "\\x00" in parameters or "xxxxxxxxxxxxxxxxx" in parameters or "ABCDE" in parameters
              or "é" in parameters or "À" in parameters]
    assert leaked == []
    assert player.get(f"/games/{slug}").status_code == 200


def test_a_query_string_that_is_no_utf8_is_a_400_with_a_message(player):
    """A raw byte that is no UTF-8 in the query (a browser percent-encodes it; gunicorn refuses it
    before the app, other servers may pass it on) is refused with a message, not a server error."""
    response = player.client.get("/", environ_overrides={"QUERY_STRING": "q=\xfc"})
    assert response.status_code == 400
    assert "cannot read as text" in " ".join(Page(response.get_data(as_text=True)).alerts)
    assert player.get("/?q=%FC").status_code == 200  # escaped, it is only a query nobody asked for


# -- 10. deck names ---------------------------------------------------------------------------------


def upload_deck(player, name: str):
    data = deck_text("quick_out.deck").encode()
    return player.post("/admin/decks", {"deck": (io.BytesIO(data), name), "replace": "1"},
                       content_type="multipart/form-data")


def test_deck_names_are_limited_at_upload_and_leave_no_temporary_file(app, player, decks_folder, database_url):
    admin_login(player)
    longest = "d" * 75 + ".deck"  # 80 characters: the most a game keeps (games.deck_name)
    for length in (81, 300, 5000):
        name = "d" * (length - 5) + ".deck"
        response = upload_deck(player, name)
        assert response.status_code == 400, (length, response.status_code)
        message = " ".join(Page(response.get_data(as_text=True)).alerts) or response.get_data(as_text=True)
        assert "at most 80 characters" in message, message[:500]
        assert not (decks_folder / name[:255]).exists()
    assert not [path.name for path in decks_folder.iterdir() if path.name.startswith(".upload-")]
    assert upload_deck(player, longest).status_code == 200
    assert (decks_folder / longest).exists()
    # the 80-character deck is kept whole by a game (PostgreSQL would refuse a longer one)
    slug = player.start_game(["Ann", "AI"], deck=longest)
    with app.app_context():
        from app import store

        assert store.find_game(slug).deck_name == longest
    # a longer file put into decks/ by hand is not offered, and typing its name gets a clear message
    by_hand = "h" * 120 + ".deck"
    (decks_folder / by_hand).write_text(deck_text("quick_out.deck"))
    assert by_hand not in player.get("/admin").get_data(as_text=True)
    player.post("/menus/mason", {"choice": "4"})
    response = player.post("/setup/deck", {"deck": by_hand})
    assert response.status_code == 422
    assert "at most 80 characters" in " ".join(Page(response.get_data(as_text=True)).alerts)
    record_figures(database_url, "deck_names", refused_lengths=[81, 300, 5000], status=400, temporary_files_left=0)


# -- 12. the Host check ------------------------------------------------------------------------------


def raw_get(server_url: str, path: str, host: str) -> tuple[int, str]:
    parsed = urllib.parse.urlsplit(server_url)
    connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=20)
    try:
        connection.putrequest("GET", path, skip_host=True)
        connection.putheader("Host", host)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.read().decode("utf-8", "replace")
    finally:
        connection.close()


@pytest.fixture
def live_server_with_allowed_hosts(make_live_server):
    return make_live_server(ALLOWED_HOSTS="cards.lan, Games.Home")


def test_only_this_servers_own_names_are_answered(live_server_with_allowed_hosts, database_url):
    """DNS rebinding: a page on evil.example points its name at the LAN server; the browser then
    sends ``Host: evil.example``, which gets 400 on every kind of route. IP addresses, localhost,
    this machine's names and ALLOWED_HOSTS are served."""
    server = live_server_with_allowed_hosts
    port = server.port
    browser = Browser(server.url)
    slug = browser.start_game(["Ann", "AI"], deck="quick_out.deck")
    paths = ["/", "/scores", "/scores.csv", f"/games/{slug}", f"/games/{slug}/table", "/join?code=ABCDEF",
             "/admin/login", "/static/css/app.css", f"/games/{slug}/events?v=1"]
    refused_hosts = ["evil.example", f"evil.example:{port}", "127.0.0.1.evil.example", "localhost.evil.example",
                     f"{socket.gethostname()}.evil.example", "cards.lan.evil.example"]
    allowed_hosts = [f"127.0.0.1:{port}", "127.0.0.1", f"localhost:{port}", "LOCALHOST", f"[::1]:{port}",
                     "192.168.1.20:5000", "10.0.0.7", f"{socket.gethostname()}:{port}",
                     f"{socket.gethostname().split('.')[0]}.local", "cards.lan", f"games.home:{port}"]
    refused = 0
    for host in refused_hosts:
        for path in paths:
            status, body = raw_get(server.url, path, host)
            assert status == 400, (host, path, status)
            assert "answers only to its own addresses" in body
            refused += 1
    for host in allowed_hosts:
        status, _body = raw_get(server.url, "/", host)
        assert status == 200, (host, status)
    # names Werkzeug cannot read at all (an empty or overlong part): a plain 400 with the reason,
    # never a server error, whether or not the name would pass the check
    for host in ["a..b", "127.0.0.1..", "a..localhost", "a" * 64, "x" * 64 + ".localhost"]:
        for path in ("/", "/scores", f"/games/{slug}"):
            status, body = raw_get(server.url, path, host)
            assert status == 400, (host, path, status)
            assert "Internal Server Error" not in body and body.strip(), (host, path, body)
    assert "Traceback" not in server.log()
    # a form post through a rebound name is refused before anything happens
    response = browser.request("POST", f"/games/{slug}/act", [("action", "draw_stock"), ("version", "1"), ("seat", "0")])
    assert response.status in (200, 303, 409)  # (through the real address: served)
    parsed = urllib.parse.urlsplit(server.url)
    connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=20)
    body = urllib.parse.urlencode({"choice": "2", "csrf_token": browser.csrf_token()})
    connection.request("POST", "/menus/mason", body=body, headers={
        "Host": "evil.example", "Content-Type": "application/x-www-form-urlencoded",
        "Cookie": "; ".join(f"{k}={v}" for k, v in browser.cookies.items())})
    assert connection.getresponse().status == 400
    connection.close()
    record_figures(database_url, "host_check", refused=refused, allowed_hosts=len(allowed_hosts))
