"""No request answers 500 for what a client sends, on either database, against the real server
(gunicorn parses the framing of a body, which Flask's test client never does):

- a control character (a NUL above all: PostgreSQL refuses it in text) in any path segment is a
  404 with a message, as it is a 400 in a query or a form field;
- names and texts longer than the columns that keep them are refused with a message (the same
  limit on SQLite as on PostgreSQL): an imported game's seat names; a name whose search key (its
  accents taken off) is far longer than the name is kept at a game's end and in a scores.csv;
- a body the server cannot read (a chunk size that is no number, a body cut short) is a 400;
- and the fuzz: every route of the app's url_map gets bad values in each path segment, in its
  query string and in its form fields (long, huge numbers, control characters, bytes that are no
  UTF-8, ligatures), and every POST route bodies framed wrong: no answer is a 5xx and the
  server's log holds no traceback.
"""

from __future__ import annotations

import json
import re
import socket
import urllib.parse
from collections import Counter

import pytest
from support.client import Browser
from support.figures import record_figures

from app.core import registry
from app.core.names import MAX_NAME_LENGTH

# A ligature (printable, one character) that becomes 18 letters once its accents are taken off: a
# 24-character name of it has a search key of 432.
LIGATURE = "\ufdfa"


def new_log(server, before: int) -> str:
    return server.log_path.read_text(errors="replace")[before:]


def log_size(server) -> int:
    return len(server.log_path.read_text(errors="replace"))


def raw_exchange(port: int, data: bytes, *, half_close: bool = False, timeout: float = 10.0,
                 source: str = "127.0.0.1") -> bytes:
    """Send ``data`` on a connection of its own and read until the server closes it (or
    ``timeout``); ``half_close``: say the request is over (a body cut short)."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(source, 0))
    try:
        connection.sendall(data)
        if half_close:
            connection.shutdown(socket.SHUT_WR)
        answer = b""
        while True:
            try:
                chunk = connection.recv(65536)
            except TimeoutError:
                return answer + b"<timeout>"
            except OSError:
                return answer
            if not chunk:
                return answer
            answer += chunk
    finally:
        connection.close()


def status_of(answer: bytes) -> int | None:
    match = re.match(rb"HTTP/1\.[01] (\d{3})", answer)
    return int(match.group(1)) if match else None


def alerts_of(answer: bytes) -> str:
    from support.pages import Page

    return " ".join(Page(answer.split(b"\r\n\r\n", 1)[-1].decode("utf-8", "replace")).alerts)


def set_up(browser: Browser, key: str, names: list[str], devices: list[str] | None = None, **options) -> str:
    form = {"seats": str(len(names)), **{k: str(v) for k, v in options.items()}}
    for number, name in enumerate(names):
        form[f"name{number}"] = name
        form[f"device{number}"] = (devices or ["here"] * len(names))[number]
    response = browser.post(f"/setup/{key}", form)
    assert response.status == 303, response.page.alerts or response.body[:500]
    return response.headers["Location"].rstrip("/").rsplit("/", 1)[1]


def give_up_seahaven(browser: Browser, slug: str) -> None:
    """End a Seahaven game at once (S5: giving up ends it as played)."""
    version = browser.table(slug).table_version
    form = [("action", "give_up"), ("version", str(version)), ("seat", "0"), ("confirmed", "1")]
    response = browser.post(f"/games/{slug}/act", form, htmx=True)
    assert response.status == 200, response.page.alerts or response.body[:500]


def admin_browser(server, source: str = "127.0.0.1") -> Browser:
    admin = Browser(server.url, "admin", keep_alive=True, source=source)
    response = admin.post("/admin/login", {"password": server.admin_password, "next": "/admin"})
    assert response.status == 303, response.page.alerts
    return admin


# -- the breaks found, one test each --------------------------------------------------------------------


def test_a_control_character_in_a_path_segment_is_a_404_with_a_message(live_server, database_url):
    """``/scores/<game>/names/%00`` answered 500 on PostgreSQL (psycopg's DataError: a NUL in
    text) for the four games that keep statistics; any control character in any segment of any
    path is now a 404 that says why, before any query."""
    browser = Browser(live_server.url, keep_alive=True)
    before = log_size(live_server)
    keeping = [definition.key for definition in registry.games() if definition.statistics
               and not definition.score_table]
    assert len(keeping) == 4, keeping
    answers = Counter()
    for key in keeping:
        for bad in ("%00", "a%00b", "%01", "%1F", "%7F", "Ann%0D%0Ax"):
            for path in (f"/scores/{key}/names/{bad}", f"/scores/{key}/items/{bad}", f"/setup/{key}{bad}",
                         f"/how-to-play/{bad}"):
                response = browser.get(path)
                answers[response.status] += 1
                assert response.status == 404, (path, response.status, response.body[:300])
                assert "control character" in " ".join(response.page.alerts), (path, response.body[:300])
    assert "Traceback" not in new_log(live_server, before)
    record_figures(database_url, "control_characters_in_paths", answers=dict(answers))


MALFORMED_CHUNKED = {
    "a chunk size that is no number": b"zz\r\nabc\r\n0\r\n\r\n",
    "a chunk without its line end": b"3\r\nabcXX0\r\n\r\n",
    "a NUL in a chunk extension": b"3;\x00\r\nabc\r\n0\r\n\r\n",
    "a chunk size too large to be one": b"FFFFFFFFFFFFFFFFFFFF\r\nabc\r\n0\r\n\r\n",
}


def test_a_malformed_chunked_body_is_a_400_not_a_500(live_server, database_url):
    """``POST /`` with ``Transfer-Encoding: chunked`` and a bad chunk size answered 500
    (gunicorn's InvalidChunkSize, raised while the form was read): the body's framing is the
    client's, so it is a 400 with a message, and the connection is closed (nothing after it can
    be read)."""
    browser = Browser(live_server.url)
    browser.csrf_token()
    cookie = "; ".join(f"{k}={v}" for k, v in browser.cookies.items())
    before = log_size(live_server)
    answers = {}
    for name, body in MALFORMED_CHUNKED.items():
        for path in ("/", "/setup/seat", "/join"):
            head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{live_server.port}\r\nCookie: {cookie}\r\n"
                    "Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n")
            answer = raw_exchange(live_server.port, head.encode() + body, half_close=True)
            answers[f"{name} {path}"] = status_of(answer)
            assert status_of(answer) == 400, (name, path, answer[:300])
            assert answer.count(b"HTTP/1.1 ") == 1, answer[:600]  # one answer, then the connection closes
    assert "Traceback" not in new_log(live_server, before)
    assert browser.get("/").status == 200
    record_figures(database_url, "malformed_chunked_bodies", answers=answers)


def exported_seahaven_game(browser: Browser, name: str) -> dict:
    """A finished Seahaven Towers game of ``name``, exported from its table."""
    slug = set_up(browser, "seahaven", [name], deal=1)
    give_up_seahaven(browser, slug)
    response = browser.get(f"/games/{slug}/export.json")
    assert response.status == 200, response.body[:300]
    return json.loads(response.body)


def renamed(export: dict, old: str, new: str) -> bytes:
    """The export with every seat named ``old`` named ``new`` (in its seats and in its state as
    dealt, where the rules read the names): a game from another table with other players."""
    text = json.dumps(export).replace(json.dumps(old), json.dumps(new))
    return text.encode()


def import_file(admin: Browser, data: bytes, filename: str = "game.json"):
    return admin.upload("/finished/import", "game", filename, data)


def test_an_imported_game_with_a_name_longer_than_a_seat_keeps_is_refused_with_a_message(live_server, database_url,
                                                                                          db_reader):
    """An export whose seat names have more than 24 characters answered 500 on PostgreSQL
    (``value too long for type character varying(24)``) and was stored whole on SQLite: now
    both refuse it with the reason (R3.2's 1-24 characters), and store nothing."""
    admin = admin_browser(live_server)
    export = exported_seahaven_game(admin, "Ann")
    games_before = db_reader.scalar("SELECT count(*) FROM games")
    before = log_size(live_server)
    refused = {}
    for length in (MAX_NAME_LENGTH + 1, 300, 5000):
        response = import_file(admin, renamed(export, "Ann", "n" * length))
        refused[length] = response.status
        assert response.status == 422, (length, response.status, response.body[:300])
        message = " ".join(response.page.alerts)
        assert "is no player's name here" in message and f"at most {MAX_NAME_LENGTH} characters" in message, message
    assert db_reader.scalar("SELECT count(*) FROM games") == games_before
    # the longest name a seat keeps is imported
    response = import_file(admin, renamed(export, "Ann", "n" * MAX_NAME_LENGTH))
    assert response.status == 303, (response.status, response.page.alerts)
    assert "Traceback" not in new_log(live_server, before)
    record_figures(database_url, "long_names_in_imports", refused=refused, longest_kept=MAX_NAME_LENGTH)


def test_a_name_whose_search_key_is_long_is_kept_at_a_games_end_and_in_a_scores_file(live_server, database_url,
                                                                                    db_reader):
    """A name of 24 ligatures is a name (R3.2: 24 printable characters), but its search key, the
    name without accents (kept beside it, at most 100 characters), is 432 characters: on
    PostgreSQL its statistics were lost at the game's end (the insert failed after the commit)
    and a scores.csv holding it failed to apply (500). Both are kept now, and found by a search."""
    name = LIGATURE * MAX_NAME_LENGTH
    admin = admin_browser(live_server)
    before = log_size(live_server)
    slug = set_up(admin, "seahaven", [name], deal=1)
    give_up_seahaven(admin, slug)
    assert db_reader.scalar("SELECT count(*) FROM game_stats WHERE name = :name", {"name": name}) == 1
    assert name in admin.get(f"/scores/seahaven/names/{urllib.parse.quote(name)}").body
    csv = f'"name","games won","games lost","best score"\n"{name}","3","1","42"\n'.encode()
    preview = admin.upload("/admin/scores/import", "scores", "scores.csv", csv)
    assert preview.status == 200, (preview.status, preview.page.alerts)
    token = re.search(r"/admin/scores/import/([\w-]+)", preview.body).group(1)
    applied = admin.post(f"/admin/scores/import/{token}", {})
    assert applied.status in (200, 303), (applied.status, applied.body[:300])
    assert db_reader.scalar("SELECT count(*) FROM scores WHERE name = :name", {"name": name}) == 1
    found = admin.get("/scores?q=" + urllib.parse.quote(LIGATURE * 2))
    assert name in found.body
    log = new_log(live_server, before)
    assert "Traceback" not in log and "Error" not in log, log[-3000:]
    record_figures(database_url, "long_search_keys", name_length=len(name), kept=True)


# -- the fuzz ---------------------------------------------------------------------------------------------

# Path segments as they travel (percent-encoded): control characters, bytes that are no UTF-8, a
# surrogate's bytes, far too long, a number no column holds, what reads as another path.
BAD_SEGMENTS = ["%00", "a%00b", "%0D%0A", "%7F", "%FF%FE", "%ED%A0%80", "x" * 3000, urllib.parse.quote(LIGATURE * 24),
                "99999999999999999999", "-1", "%2E%2E", "%252F%00"]
# Values of query and form fields (encoded by the client): the same kinds, as text.
BAD_VALUES = ["\x00", "\x01", "\x7f", "x" * 3000, "n" * (MAX_NAME_LENGTH + 1), LIGATURE * 24, "é" * 300,
              "99999999999999999999", "-99999999999999999999", "1e309", "nan", "", " ", "%_\\",
              "<script>a(1)</script>", "//evil.example/", "AI"]
# Field values raw in the query string: bytes that are no UTF-8 and escapes that are none.
RAW_QUERIES = ["%FF", "%ED%A0%80", "%", "%G0"]


def field_names() -> list[str]:
    """Every field name a view reads (its query, form and file fields, from the web's source),
    every set-up option and the fields of every game's first moves."""
    from pathlib import Path

    names = set()
    source = Path(__file__).resolve().parents[2] / "app" / "web"
    for path in source.glob("*.py"):
        text = path.read_text()
        names.update(re.findall(r"""(?:args|form|files)\.get(?:list)?\(\s*["']([a-z_0-9]+)["']""", text))
        names.update(re.findall(r"""whole_number\(\s*["']([a-z_0-9]+)["']""", text))
    for number in range(6):
        names.update((f"name{number}", f"device{number}"))
    for definition in registry.games():
        names.update(option.key for option in (*definition.options, *definition.preferences))
        state = definition.new_state([f"P{n}" for n in range(definition.min_seats)], seed=1)
        for move in state.legal(state.to_move()):
            names.update(move.as_dict())
    names.update(("seats", "version", "seat", "confirmed", "cards"))
    names.discard("csrf_token")
    return sorted(names)


def good_forms(good: dict[str, str], version: int) -> dict[str, tuple[str | None, dict[str, str]]]:
    """For every POST endpoint: a form it would accept (each field then gets every bad value in
    turn, the others kept), and the menu choice that leads to it first, if any."""
    slug = good["slug"]
    return {
        "menu.choose": (None, {"choice": "2"}),
        "menu.quit_session": (None, {}),
        "guides.start_learning": (None, {}),
        "languages.choose": (None, {"language": "es", "next": "/"}),
        "setup.choose_deck": ("4", {"deck": "quick_out.deck"}),
        "setup.add_seat": ("2", {"kind": "1", "name": "Zed", "device": "here"}),
        "setup.cancel": ("2", {}),
        "setup.start_other_game": (None, {"seats": "1", "name0": "Zed", "device0": "here", "deal": "1",
                                          "classic": "0", "winnable_only": "0", "deck": ""}),
        "play.act": (None, {"action": "draw_stock", "seat": "0", "version": str(version), "cards": "AS"}),
        "play.reveal": (None, {"version": str(version)}),
        "play.rematch": (None, {}),
        "play.follow": (None, {}),
        "play.abandon": (None, {"confirmed": "1"}),
        "play.preferences": (None, {"auto_home": "1"}),
        "history.import_game": (None, {}),
        "lan.claim": (None, {"code": good["code"]}),
        "lan.release": (None, {"next": f"/games/{slug}"}),
        "lan.restore": (None, {}),
        "lan.standin": (None, {"on": "1"}),
        "admin.do_login": (None, {"password": "not the password", "next": "/admin"}),
        "admin.logout": (None, {}),
        "admin.upload_deck": (None, {"replace": "1"}),
        "admin.delete_deck": (None, {}),
        "admin.import_preview": (None, {}),
        "admin.import_apply": (None, {}),
    }


class Fuzzer:
    """A browser that sends bad input and counts the answers; every 5xx is kept with its request."""

    def __init__(self, browser: Browser):
        self.browser = browser
        self.statuses: Counter = Counter()
        self.failures: list[tuple[str, str, int | None, str]] = []
        self.sent: Counter = Counter()

    def note(self, kind: str, what: str, status: int | None, body: str = "") -> None:
        self.sent[kind] += 1
        self.statuses[status] += 1
        if status is None or status >= 500:
            self.failures.append((kind, what, status, body[:300]))

    def request(self, kind: str, method: str, path: str, form=None) -> None:
        try:
            response = self.browser.request(method, path, form, htmx=False)
        except (OSError, ValueError) as error:  # (a connection the server closed: no answer at all)
            self.note(kind, f"{method} {path[:200]}", None, repr(error))
            return
        self.note(kind, f"{method} {path[:200]} {str(form)[:200]}", response.status, response.body)


@pytest.mark.slow
def test_no_route_answers_500_to_anything_a_client_sends(app, make_live_server, database_url):
    """Walk the app's url_map: each path segment of each route gets every bad segment; each GET
    route every bad value in every query field at once, and raw bytes that are no UTF-8; each
    POST route (as the admin and host of a game, with a valid CSRF token, so that its view reads
    what it gets) a form it would accept with each field in turn given every bad value, then
    every field it might read given each bad value at once, then bodies framed wrong (chunked,
    cut short, form encodings broken, a file that is no JSON). Not one answer is a 5xx, and the
    server logs no traceback. (A new POST route without a good form here fails the test.)"""
    # (an event stream answered to the fuzz ends after a second: each is read whole)
    server = make_live_server(GAMES_PER_HOUR=100_000, SOLVES_PER_MINUTE=100_000, OWN_MOVES_PER_MINUTE=100_000,
                              EVENTS_MAX_SECONDS=1)
    before = log_size(server)
    fields = field_names()
    contexts = iter(range(1, 250))

    def context() -> tuple[Browser, dict[str, str]]:
        """A fresh admin browser hosting a game, with good values for each path segment; from
        an address of its own (wrong admin passwords and join codes count per address)."""
        host = admin_browser(server, source=f"127.0.2.{next(contexts)}")
        playing = host.start_game(["Ann", "Bob"], deck="quick_out.deck", devices=["here", "own"])
        finished = set_up(host, "seahaven", ["Sol"], deal=1)
        give_up_seahaven(host, finished)
        good = {"slug": playing, "number": "1", "key": "seahaven", "item": "1", "name": "Sol", "token": "x" * 12,
                "code": (host.join_codes(playing) or ["ABCDEF"])[0], "filename": "css/app.css"}
        return host, good

    menu_game = next(definition.key for definition in registry.games() if definition.menus is not None)

    def path_of(rule, values: dict[str, str]) -> str:
        if rule.endpoint.startswith("menu.") and values.get("key") == good["key"]:  # (the menus are the menu game's: any other key is a 404)
            values = {**values, "key": menu_game}
        path = rule.rule
        for argument in rule.arguments:
            path = re.sub(r"<(?:[a-z]+:)?" + argument + ">", values[argument], path)
        return path

    rules = sorted(app.url_map.iter_rules(), key=lambda rule: rule.rule)
    post_endpoints = {rule.endpoint for rule in rules if "POST" in rule.methods}
    browser, good = context()
    assert post_endpoints == set(good_forms(good, 1)), "a POST route has no good form here (or a form no route)"
    fuzzer = Fuzzer(browser)
    for rule in rules:
        if "GET" in rule.methods:
            for argument in rule.arguments:
                for bad in BAD_SEGMENTS:
                    fuzzer.request("path", "GET", path_of(rule, {**good, argument: bad}))
            path = path_of(rule, good)
            for value in BAD_VALUES:
                fuzzer.request("query", "GET", f"{path}?" + urllib.parse.urlencode([(name, value) for name in fields]))
            for raw in RAW_QUERIES:
                fuzzer.request("query", "GET", f"{path}?" + "&".join(f"{name}={raw}" for name in fields))
        if "POST" not in rule.methods:
            continue
        browser, good = context()  # each POST route on a table of its own (a quit, an abandon, a release...)
        fuzzer.browser = browser
        path = path_of(rule, good)
        version = browser.table(good["slug"]).table_version or 1
        choice, form = good_forms(good, version)[rule.endpoint]
        for argument in rule.arguments:
            for bad in BAD_SEGMENTS:
                fuzzer.request("path", "POST", path_of(rule, {**good, argument: bad}), form)
        for name in form:
            for value in BAD_VALUES:
                if choice is not None:  # (the set-up's menu first: the form is part of its flow)
                    browser.post("/menus/mason", {"choice": choice})
                fuzzer.request("form, one field", "POST", path, {**form, name: value})
        for value in BAD_VALUES:
            fuzzer.request("form, every field", "POST", path, [(name, value) for name in fields])
        for name, (head, body, half_close) in bodies(server.port, path, browser).items():
            answer = raw_exchange(server.port, head + body, half_close=half_close, source=browser.source)
            fuzzer.note("body", f"{name}: POST {path}", status_of(answer), answer.decode("utf-8", "replace"))

    log = new_log(server, before)
    record_figures(database_url, "fuzz_every_route", routes=len(rules), field_names=len(fields), sent=dict(fuzzer.sent),
                   statuses={str(status): count for status, count in sorted(fuzzer.statuses.items(), key=str)},
                   answers_5xx=len(fuzzer.failures), tracebacks=log.count("Traceback"))
    assert fuzzer.failures == [], [(kind, what[:160], status) for kind, what, status, _body in fuzzer.failures[:40]]
    assert "Traceback" not in log, log[-4000:]


def bodies(port: int, path: str, browser: Browser) -> dict[str, tuple[bytes, bytes, bool]]:
    """Requests to ``path`` whose bodies are framed wrong: (head, body, close the sending side)."""
    cookie = "; ".join(f"{k}={v}" for k, v in browser.cookies.items())
    csrf = urllib.parse.quote(browser.csrf_token())

    def head(content_type: str, framing: str) -> bytes:
        return (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: {cookie}\r\nConnection: close\r\n"
                f"Content-Type: {content_type}\r\n{framing}\r\n").encode()

    form = "application/x-www-form-urlencoded"
    chunked = "Transfer-Encoding: chunked\r\n"
    found = {name: (head(form, chunked), body, True) for name, body in MALFORMED_CHUNKED.items()}
    good = f"csrf_token={csrf}&name=Ann".encode()

    def sized(content_type: str, body: bytes, length: int | None = None) -> tuple[bytes, bytes, bool]:
        """A body sent whole, with its length (or ``length``, which is more: cut short)."""
        size = len(body) if length is None else length
        return head(content_type, f"Content-Length: {size}\r\n"), body, length is not None

    found.update({
        "a chunked body cut short": (head(form, chunked), b"40\r\n" + good[:20], True),
        "a body shorter than its length": sized(form, good, 500),
        "a length that is no number": (head(form, "Content-Length: abc\r\n"), good, False),
        "a negative length": (head(form, "Content-Length: -5\r\n"), good, False),
        "both a length and chunks": (head(form, f"Content-Length: {len(good)}\r\n{chunked}"), good, False),
        "an unknown transfer coding": (head(form, "Transfer-Encoding: gzip, chunked\r\n"), good, True),
        "form bytes that are no UTF-8": sized(form, b"csrf_token=" + csrf.encode() + b"&name=\xff\xfe\xc3(%ZZ%&%"),
        "a multipart form without a boundary": sized("multipart/form-data", b"hello"),
        "a multipart form cut short": sized("multipart/form-data; boundary=xyz",
                                            b'--xyz\r\nContent-Disposition: form-data; name="csrf_token"\r\n', 400),
        "a multipart part without a name": sized("multipart/form-data; boundary=xyz",
                                                 b"--xyz\r\nContent-Disposition: form-data\r\n\r\nvalue\r\n--xyz--\r\n"),
        "a multipart file that is no UTF-8 JSON": sized(
            "multipart/form-data; boundary=xyz",
            b'--xyz\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n' + csrf.encode()
            + b'\r\n--xyz\r\nContent-Disposition: form-data; name="game"; filename="g.json"\r\n\r\n'
            + b'\xef\xbb\xbf{"export": [\xff\r\n--xyz--\r\n'),
        "JSON that is none": sized("application/json", b'{"a": [1,'),
        "a content type that is none": sized("\x01/\x7f; boundary=", b"abcd"),
    })
    return found

