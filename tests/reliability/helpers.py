"""Helpers for the reliability tests: a real HTTP browser for the live server, a read-only view of
the database (the test's oracle), card bookkeeping, and the figures file the docs quote.

Loaded by conftest.py as the module ``reliability_helpers``.
"""

from __future__ import annotations

import fcntl
import http.client
import itertools
import json
import os
import re
import tempfile
import time
import urllib.parse
from dataclasses import dataclass, field
from html.parser import HTMLParser
from http.cookies import SimpleCookie
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.pool import NullPool

from support.web import Page

ROOT = Path(__file__).resolve().parents[2]
FIGURES_PATH = ROOT / "test-artifacts" / "reliability.json"
TABLE_VERSION = re.compile(r'id="table"[^>]*data-version="(\d+)"')


# -- figures for docs/RELIABILITY.md ----------------------------------------------------------------


def backend(database_url: str) -> str:
    return "postgresql" if database_url.startswith("postgresql") else "sqlite"


def record_figures(database_url: str, section: str, **figures) -> None:
    """Merge ``figures`` into test-artifacts/reliability.json under the database kind and
    ``section``. Several xdist workers may write at once, so writers take a lock file."""
    FIGURES_PATH.parent.mkdir(parents=True, exist_ok=True)
    with open(str(FIGURES_PATH) + ".lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            try:
                data = json.loads(FIGURES_PATH.read_text())
            except (OSError, ValueError):
                data = {}
            run = os.environ.get("PYTEST_XDIST_TESTRUNUID") or f"pid-{os.getpid()}"  # which run wrote it
            entry = dict(figures, recorded_at=time.strftime("%Y-%m-%dT%H:%M:%S"), run=run[:16])
            data.setdefault(backend(database_url), {})[section] = entry
            fd, temporary = tempfile.mkstemp(dir=FIGURES_PATH.parent, prefix=".reliability-", suffix=".tmp")
            with os.fdopen(fd, "w") as handle:
                json.dump(data, handle, indent=2, sort_keys=True)
                handle.write("\n")
            os.replace(temporary, FIGURES_PATH)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


# -- cards ----------------------------------------------------------------------------------------


def public_cards(game) -> set[str]:
    """What everyone may see (R4.4): the top of the discard pile and every laid-down set."""
    cards = {game.discard[-1].code} if game.discard else set()
    for player in game.players:
        for card_set in player.hand.laid_down:
            cards.update(card.code for card in card_set.cards)
    return cards


def allowed_cards(game, seat: int | None) -> set[str]:
    """R4.4: the public cards plus ``seat``'s own hand (``None``: a spectator)."""
    cards = public_cards(game)
    if seat is not None:
        cards.update(card.code for card in game.players[seat].hand.cards)
    return cards


def find_new_set(codes: list[str]) -> list[str] | None:
    """Three cards of ``codes`` that form a meld or a run (R6.1, R6.2), if any."""
    from app.games.mason import Card, is_meld, is_run

    cards = [Card.parse(code) for code in codes]
    for trio in itertools.combinations(cards, 3):
        if is_meld(trio) or is_run(trio):
            return [card.code for card in trio]
    return None


def check_65_cards(game) -> None:
    """Every one of the 65 cards is in exactly one place (stock, discard, a hand, a set)."""
    from collections import Counter

    from app.games.mason import FULL_DECK

    assert game.card_locations() == Counter(FULL_DECK)


# -- a read-only view of the database -------------------------------------------------------------


@dataclass
class StoredGame:
    id: int
    slug: str
    version: int
    status: str
    state: str
    rematch_slug: str | None = None
    seats: list[dict] = field(default_factory=list)

    def game(self):
        """The stored state, rebuilt by Game.from_dict (which validates: 65 cards once each)."""
        from app.games.mason import Game

        return Game.from_dict(json.loads(self.state))


class DatabaseReader:
    """Reads the test's database with its own engine, as a checker outside the server would."""

    def __init__(self, database_url: str):
        from app.models import ActionRecord, GameRecord, SeatRecord  # noqa: F401  (tables)

        self.url = database_url
        self.engine = sa.create_engine(database_url, poolclass=NullPool)
        self.games_table = GameRecord.__table__
        self.seats_table = SeatRecord.__table__
        self.actions_table = ActionRecord.__table__

    def close(self) -> None:
        self.engine.dispose()

    @property
    def is_sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"

    def _game(self, row, connection) -> StoredGame:
        seats = [dict(r._mapping) for r in connection.execute(
            sa.select(self.seats_table).where(self.seats_table.c.game_id == row.id)
            .order_by(self.seats_table.c.number))]
        return StoredGame(row.id, row.slug, row.version, row.status, row.state, row.rematch_slug, seats)

    def game(self, slug: str) -> StoredGame:
        with self.engine.connect() as connection:
            row = connection.execute(sa.select(self.games_table).where(self.games_table.c.slug == slug)).one()
            return self._game(row, connection)

    def games(self) -> list[StoredGame]:
        with self.engine.connect() as connection:
            rows = connection.execute(sa.select(self.games_table).order_by(self.games_table.c.id)).all()
            return [self._game(row, connection) for row in rows]

    def actions(self, game_id: int) -> list[tuple[int, int | None, dict]]:
        """The action log of a game: (version it made, seat, action), oldest first."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                sa.select(self.actions_table.c.version, self.actions_table.c.seat, self.actions_table.c.action)
                .where(self.actions_table.c.game_id == game_id).order_by(self.actions_table.c.version)).all()
        return [(version, seat, json.loads(action)) for version, seat, action in rows]

    def join_code(self, slug: str, number: int) -> str | None:
        stored = self.game(slug)
        return stored.seats[number]["join_code"]

    def integrity_check(self) -> str:
        with self.engine.connect() as connection:
            return connection.exec_driver_sql("PRAGMA integrity_check").scalar()


# -- a real browser for the live server ----------------------------------------------------------


@dataclass
class Response:
    status: int
    headers: dict
    body: str

    @property
    def page(self) -> Page:
        return Page(self.body)

    @property
    def table_version(self) -> int | None:
        match = TABLE_VERSION.search(self.body)
        return int(match.group(1)) if match else None


class PreparedRequest:
    """A request whose connection is open and whose bytes are ready: ``fire`` only sends them,
    so threads released together by a barrier really send at the same moment."""

    def __init__(self, browser: "Browser", method: str, path: str, body: bytes | None, headers: dict):
        self.browser = browser
        source = (browser.source, 0) if browser.source else None
        self.connection = http.client.HTTPConnection(browser.host, browser.port, timeout=browser.timeout,
                                                     source_address=source)
        self.connection.connect()
        self.method, self.path, self.body, self.headers = method, path, body, headers

    def fire(self) -> Response:
        try:
            self.connection.request(self.method, self.path, body=self.body, headers=self.headers)
            answer = self.connection.getresponse()
            body = answer.read().decode("utf-8", "replace")
            headers = {}
            for name, value in answer.getheaders():
                headers.setdefault(name.lower(), []).append(value)
            self.browser._store_cookies(headers.get("set-cookie", []))
            return Response(answer.status, {k: v[-1] for k, v in headers.items()}, body)
        finally:
            self.connection.close()


class Browser:
    """One browser (one cookie jar) talking HTTP to the live server, form posts like the pages'.
    ``source``: the client address to connect from (any 127.x.y.z on loopback: another device,
    as the server's per-address limits see it)."""

    def __init__(self, base_url: str, timeout: float = 60.0, source: str | None = None):
        parsed = urllib.parse.urlsplit(base_url)
        self.host, self.port = parsed.hostname, parsed.port
        self.timeout = timeout
        self.source = source
        self.cookies: dict[str, str] = {}
        self._csrf: str | None = None

    def _store_cookies(self, set_cookies: list[str]) -> None:
        for header in set_cookies:
            jar = SimpleCookie()
            jar.load(header)
            for name, morsel in jar.items():
                if morsel["max-age"] == "0" or morsel.value == "":
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value

    def _headers(self, htmx: bool, extra: dict | None = None) -> dict:
        headers = {"Host": f"{self.host}:{self.port}"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if htmx:
            headers["HX-Request"] = "true"
        headers.update(extra or {})
        return headers

    def prepare(self, method: str, path: str, form=None, htmx: bool = False, csrf: bool = True) -> PreparedRequest:
        body = None
        if method == "POST" and csrf:
            self.csrf_token()  # first, so the session cookie it comes with is sent below
        headers = self._headers(htmx)
        if method == "POST":
            items = list(form.items()) if isinstance(form, dict) else list(form or [])
            expanded = []
            for name, value in items:
                if isinstance(value, (list, tuple)):
                    expanded.extend((name, v) for v in value)
                else:
                    expanded.append((name, value))
            if csrf and not any(name == "csrf_token" for name, _ in expanded):
                expanded.append(("csrf_token", self.csrf_token()))
            body = urllib.parse.urlencode(expanded).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Content-Length"] = str(len(body))
        return PreparedRequest(self, method, path, body, headers)

    def request(self, method: str, path: str, form=None, htmx: bool = False, csrf: bool = True) -> Response:
        return self.prepare(method, path, form, htmx, csrf).fire()

    def get(self, path: str, htmx: bool = False) -> Response:
        return self.request("GET", path, htmx=htmx)

    def post(self, path: str, form=None, htmx: bool = False, csrf: bool = True) -> Response:
        return self.request("POST", path, form, htmx=htmx, csrf=csrf)

    def csrf_token(self) -> str:
        if self._csrf is None:
            self._csrf = Page(self.get("/").body).value("csrf_token")
        return self._csrf

    # -- games ------------------------------------------------------------------------------------

    def start_game(self, names: list[str], deck: str | None = None, devices: list[str] | None = None) -> str:
        choice = {(2, False): 2, (3, False): 3, (2, True): 4, (3, True): 5}[(len(names), deck is not None)]
        response = self.post("/", {"choice": str(choice)})
        assert response.status == 303, response.body[:500]
        if deck is not None:
            response = self.post("/setup/deck", {"deck": deck})
            assert response.status == 303, response.page.alerts
        for index, name in enumerate(names):
            device = devices[index] if devices else "here"
            response = self.post("/setup/seat", {"kind": "1", "name": name, "device": device})
            assert response.status == 303, response.page.alerts
        location = response.headers["location"]
        assert "/games/" in location, location
        return location.rstrip("/").rsplit("/", 1)[1]

    def claim(self, code: str) -> Response:
        return self.post("/join", {"code": code})

    def table(self, slug: str) -> Response:
        """The table fragment as a live refresh fetches it."""
        return self.get(f"/games/{slug}/table", htmx=True)

    def act_form(self, version: int | None, seat: int | None, action: str, cards=()) -> list:
        form = [("action", action), ("version", "" if version is None else str(version)),
                ("seat", "" if seat is None else str(seat))]
        form.extend(("cards", code) for code in cards)
        return form


def lay_off(hand: list[str], game, seat: int | None) -> str | None:
    """A card of ``hand`` that fits one of ``seat``'s own sets (R6.3 step 2), if any."""
    from app.games.mason import Card, judge_lay_down
    from app.games.mason.melds import Refusal

    if game is None or seat is None:
        return None
    sets = game.players[seat].hand.laid_down
    for code in hand:
        if sets and not isinstance(judge_lay_down((Card.parse(code),), sets), Refusal):
            return code
    return None


def next_move(page_html: str, rng, game=None) -> tuple[str, list[str]] | None:
    """What a player would press on this table fragment: (action, cards), or None if there is
    nothing to do (not this browser's turn). Plays sensibly enough to make rounds end; with the
    stored ``game`` it also lays single cards onto its own sets."""
    page = Page(page_html)
    values = {value for name, value, _text in page.buttons if name == "action"}
    if "next_round" in values:
        return "next_round", []
    if "draw_stock" in values:
        if re.search(r'value="draw_stock" disabled', page_html):
            return "draw_discard", []
        return ("draw_discard" if rng.random() < 0.2 else "draw_stock"), []
    if "lay_down" in values:
        hand = [code for code in page.hand if code]
        trio = find_new_set(hand)
        if trio is not None:
            return "lay_down", trio
        single = lay_off(hand, game, page.seat)
        if single is not None:
            return "lay_down", [single]
        return "discard", [rng.choice(hand)]
    return None


class Forms(HTMLParser):
    """Every form of a page: its action, method, hidden inputs and buttons."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.forms: list[dict] = []
        self._current: dict | None = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "form":
            self._current = {"action": attributes.get("action") or "", "method": (attributes.get("method") or "get").lower(),
                             "hx_post": attributes.get("hx-post"), "inputs": {}, "buttons": []}
            self.forms.append(self._current)
        elif self._current is not None and tag == "input" and attributes.get("name"):
            self._current["inputs"].setdefault(attributes["name"], []).append(attributes.get("value") or "")
        elif self._current is not None and tag == "button":
            self._current["buttons"].append((attributes.get("name"), attributes.get("value")))

    def handle_endtag(self, tag):
        if tag == "form":
            self._current = None
