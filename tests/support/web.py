"""Test helpers that use the web app the way a browser does: through its pages and forms.

``Player`` wraps a Flask test client (its own cookie jar = one browser). It reads the CSRF token
from the pages like a form would, can set up games through Menus A-C, and posts moves chosen by
support.moves through the table's form. Pages are read with support.pages.Page.
"""

from __future__ import annotations

import json

from support.pages import Page, statistics_rows, table_rows  # noqa: F401  (Page: the one page parser; tests import it from here too)


def setup_forms(names: list[str], deck: str | None = None, devices: list[str] | None = None,
                returning=frozenset()) -> list[tuple[str, dict]]:
    """The forms that set up a Mason Rummy game, in order: Menu A (2 or 3 players; with ``deck``
    the stacked-deck option, then the deck prompt), then Menu B for each seat: a new name, or a
    name of the score table (``returning``), and its device ("here" or "own"). Each is answered
    with a redirect (303); the last one's leads to the table."""
    choice = {(2, False): 2, (3, False): 3, (2, True): 4, (3, True): 5}[(len(names), deck is not None)]
    forms = [("/menus/mason", {"choice": str(choice)})]
    if deck is not None:
        forms.append(("/setup/deck", {"deck": deck}))
    for index, name in enumerate(names):
        device = devices[index] if devices and index < len(devices) else "here"
        forms.append(("/setup/seat", {"kind": "2" if name in returning else "1", "name": name, "device": device}))
    return forms


def new_game_slug(response) -> str:
    """The slug of the game a set-up form's answer (303 to the table) leads to."""
    assert response.status_code == 303, Page(response.get_data(as_text=True)).alerts
    location = response.headers["Location"]
    assert location.startswith("/games/"), location
    return location.rsplit("/", 1)[1]


class Player:
    """One browser. ``post`` adds the CSRF token the way the pages' forms do."""

    def __init__(self, app):
        self.app = app
        self.client = app.test_client()
        self._csrf: str | None = None

    def csrf_token(self) -> str:
        if self._csrf is None:
            page = Page(self.client.get("/menus/mason").get_data(as_text=True))  # (Menu A: a form)
            self._csrf = page.value("csrf_token")
        return self._csrf

    def get(self, url: str, htmx: bool = False, **kwargs):
        headers = kwargs.pop("headers", {})
        if htmx:
            headers["HX-Request"] = "true"
        return self.client.get(url, headers=headers, **kwargs)

    def post(self, url: str, data=None, htmx: bool = False, csrf: bool = True, **kwargs):
        data = dict(data or {})
        if csrf and "csrf_token" not in data:
            data["csrf_token"] = self.csrf_token()
        headers = kwargs.pop("headers", {})
        if htmx:
            headers["HX-Request"] = "true"
        return self.client.post(url, data=data, headers=headers, **kwargs)

    def page(self, url: str, htmx: bool = False) -> Page:
        return Page(self.get(url, htmx=htmx).get_data(as_text=True))

    def followed(self, response, to: str | None = None):
        """A plain form's answer is a redirect (303): the page it leads to (a refused table form
        leads back to the table, the message kept for it). ``to``: the path it must lead to."""
        assert response.status_code == 303, response.status_code
        location = response.headers["Location"]
        if to is not None:
            assert location.split("?", 1)[0] == to, location
        return self.get(location)

    # -- setting up a game through Menus A, B, C ---------------------------------------------

    def start_game(self, names: list[str], deck: str | None = None, devices: list[str] | None = None,
                   returning: set[str] | frozenset = frozenset()) -> str:
        """Menu A option 2-5, the deck prompt, then a seat per name; returns the game's slug."""
        response = None
        for path, form in setup_forms(names, deck, devices, returning):
            response = self.post(path, form)
            assert response.status_code == 303, Page(response.get_data(as_text=True)).alerts
        return new_game_slug(response)

    def set_up(self, key: str, names: list[str], devices: list[str] | None = None, **options) -> str:
        """Post the generic set-up form of /setup/<key> as a browser posts it: a seat per name
        (on ``devices``, "here" by default) and the game's option fields (a list value sends the
        field several times, as a checkbox after its hidden "0" does); returns the game's slug."""
        data = {"seats": str(len(names))}
        data.update({key_: value if isinstance(value, list) else str(value) for key_, value in options.items()})
        for number, name in enumerate(names):
            data[f"name{number}"] = name
            data[f"device{number}"] = devices[number] if devices and number < len(devices) else "here"
        return new_game_slug(self.post(f"/setup/{key}", data))

    # -- the table -------------------------------------------------------------------------------

    def table(self, slug: str) -> Page:
        return self.page(f"/games/{slug}")

    def table_past_handover(self, slug: str) -> Page:
        """The table as this browser shows it, past a hot-seat hand-over screen if there is one."""
        page = self.table(slug)
        if page.has_button("show my hand"):
            assert self.reveal(slug).status_code == 200
            page = self.table(slug)
        return page

    def act(self, slug: str, action: str, cards=(), version: int | None = None, seat: int | None = None,
            htmx: bool = True, confirmed: bool = False):
        """Post a table form (Menus D/E/F). Version and seat default to what the page shows.
        ``confirmed``: the answer yes to a move that asks first (``Move.confirm``)."""
        if version is None or seat is None:
            page = self.table(slug)
            version = page.version if version is None else version
            seat = page.seat if seat is None else seat
        data = {"action": action, "version": "" if version is None else str(version),
                "seat": "" if seat is None else str(seat), **({"confirmed": "1"} if confirmed else {})}
        return self.client.post(f"/games/{slug}/act", data={**data, "cards": list(cards),
                                                            "csrf_token": self.csrf_token()},
                                headers={"HX-Request": "true"} if htmx else {})

    def play(self, slug: str, choice, version: int | None = None, htmx: bool = True):
        """Post a move chosen by support.moves (a ``Choice``) through the table form, made on the
        page of ``version`` (default: the version the table shows now)."""
        if version is None:
            version = self.table(slug).version
        data: dict[str, list[str]] = {}
        for name, value in choice.form(version):
            data.setdefault(name, []).append(value)
        data["csrf_token"] = [self.csrf_token()]
        return self.client.post(f"/games/{slug}/act", data=data, headers={"HX-Request": "true"} if htmx else {})

    def join_seat(self, slug: str, number: int) -> None:
        """Take own-device seat ``number`` with the join code the host's screen shows."""
        from app import store

        with self.app.app_context():
            code = store.find_game(slug).seats[number].join_code
        assert self.post("/join", {"code": code}).status_code == 303

    def statistics(self, key: str) -> dict[str, list[str]]:
        """Game ``key``'s statistics as its scores page shows them: name -> figures."""
        return statistics_rows(self.get(f"/scores/{key}").get_data(as_text=True), key)

    def views(self, slug: str) -> dict[str, str]:
        """What this browser can load of a table: the page and its live fragment."""
        return {"page": self.get(f"/games/{slug}").get_data(as_text=True),
                "fragment": self.get(f"/games/{slug}/table", htmx=True).get_data(as_text=True)}

    def watch_views(self, slug: str) -> dict[str, str]:
        """What a spectator can load of a table: the watch page and its live fragment."""
        return {"watch": self.get(f"/games/{slug}/watch").get_data(as_text=True),
                "watch fragment": self.get(f"/games/{slug}/table?watch=1", htmx=True).get_data(as_text=True)}

    def reveal(self, slug: str):
        page = self.table(slug)
        return self.post(f"/games/{slug}/reveal", {"version": str(page.version)}, htmx=True)

    def browser_key(self) -> str | None:
        """The key this browser's cookie carries (what it holds is kept on the server by it)."""
        with self.client.session_transaction() as session:
            return session.get("browser")

    def holdings(self, slug: str) -> dict[str, str]:
        """What this browser holds at game ``slug``, as the database keeps it: {seat number or
        "host": the hash of that seat's token}."""
        import hashlib

        import sqlalchemy as sa

        from app import store
        from app.extensions import db
        from app.store.models import Holding

        key = self.browser_key()
        if not key:
            return {}
        with self.app.app_context():
            record = store.find_game(slug)
            rows = db.session.execute(sa.select(Holding.role, Holding.token_hash).where(
                Holding.browser == hashlib.sha256(key.encode()).hexdigest(), Holding.game_id == record.id)).all()
            return {row.role: row.token_hash for row in rows}

    def state(self, slug: str):
        """The game's rules state as stored (for assertions; a player never sees this)."""
        from app import store

        with self.app.app_context():
            record = store.find_game(slug)
            return store.load_state(record), record.version


def own_device_duel(make_player, deck: str = "ai_showcase.deck"):
    """Ann and Bob, each on their own device; the host's device holds no seat. Ann starts (R4.3).
    (host, ann, bob, slug)."""
    host = make_player()
    slug = host.start_game(["Ann", "Bob"], deck=deck, devices=["own", "own"])
    ann, bob = make_player(), make_player()
    ann.join_seat(slug, 0)
    bob.join_seat(slug, 1)
    return host, ann, bob, slug


def database_dump(app, skip: tuple[str, ...] = ()) -> str:
    """Every row of every table (but those named in ``skip``), as text: compare before/after to
    prove nothing changed."""
    import sqlalchemy as sa

    from app.extensions import db

    with app.app_context():
        engine = db.engine
        lines = []
        with engine.connect() as connection:
            for table in sorted(db.metadata.tables.values(), key=lambda t: t.name):
                if table.name in skip:
                    continue
                rows = connection.execute(sa.select(table).order_by(*table.primary_key.columns)).all()
                lines.append(f"{table.name}: {json.dumps([list(map(str, row)) for row in rows])}")
        return "\n".join(lines)
