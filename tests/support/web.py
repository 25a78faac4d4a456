"""Test helpers that use the web app the way a browser does: through its pages and forms.

``Player`` wraps a Flask test client (its own cookie jar = one browser). It reads the CSRF token
from the pages like a form would, and can set up games through Menus A-C.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

CARD_CODE = re.compile(r"^[2-9TJQKA][CDHSP]$")


class Page(HTMLParser):
    """What a test needs from an HTML page or fragment."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.html = html
        self.inputs: dict[str, list[str]] = {}
        self.cards: list[str] = []  # every data-card attribute, in order
        self.hand: list[str] = []  # the checkboxes of the own hand (Menu F)
        self.alerts: list[str] = []
        self.buttons: list[tuple[str | None, str | None, str]] = []  # (name, value, text)
        self._alert_depth = 0
        self._button: list | None = None
        self._text: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if "data-card" in attributes:
            self.cards.append(attributes["data-card"])
        if tag == "input":
            name = attributes.get("name")
            if name:
                self.inputs.setdefault(name, []).append(attributes.get("value") or "")
            if name == "cards":
                self.hand.append(attributes.get("value"))
        if attributes.get("role") == "alert":
            self._alert_depth = 1
            self._text = []
        elif self._alert_depth:
            self._alert_depth += 1
        if tag == "button":
            self._button = [attributes.get("name"), attributes.get("value"), []]

    def handle_endtag(self, tag):
        if self._alert_depth:
            self._alert_depth -= 1
            if self._alert_depth == 0:
                self.alerts.append(" ".join("".join(self._text).split()))
        if tag == "button" and self._button is not None:
            self.buttons.append((self._button[0], self._button[1], " ".join("".join(self._button[2]).split())))
            self._button = None

    def handle_data(self, data):
        if self._alert_depth:
            self._text.append(data)
        if self._button is not None:
            self._button[2].append(data)

    def value(self, name: str) -> str | None:
        values = self.inputs.get(name)
        return values[0] if values else None

    @property
    def version(self) -> int | None:
        value = self.value("version")
        return int(value) if value else None

    @property
    def seat(self) -> int | None:
        value = self.value("seat")
        return int(value) if value not in (None, "") else None

    def button_texts(self) -> list[str]:
        return [text for _name, _value, text in self.buttons]

    def has_button(self, text: str) -> bool:
        return any(text in label for label in self.button_texts())


class Player:
    """One browser. ``post`` adds the CSRF token the way the pages' forms do."""

    def __init__(self, app):
        self.app = app
        self.client = app.test_client()
        self._csrf: str | None = None

    def csrf_token(self) -> str:
        if self._csrf is None:
            page = Page(self.client.get("/").get_data(as_text=True))
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

    # -- setting up a game through Menus A, B, C ---------------------------------------------

    def start_game(self, names: list[str], deck: str | None = None, devices: list[str] | None = None,
                   returning: set[str] | frozenset = frozenset()) -> str:
        """Menu A option 2-5, the deck prompt, then a seat per name; returns the game's slug."""
        choice = {(2, False): 2, (3, False): 3, (2, True): 4, (3, True): 5}[(len(names), deck is not None)]
        response = self.post("/", {"choice": str(choice)})
        assert response.status_code == 303, response.get_data(as_text=True)
        if deck is not None:
            response = self.post("/setup/deck", {"deck": deck})
            assert response.status_code == 303, Page(response.get_data(as_text=True)).alerts
        for index, name in enumerate(names):
            device = (devices or [])[index] if devices and index < len(devices) else "here"
            if name in returning:
                response = self.post("/setup/seat", {"kind": "2", "name": name, "device": device})
            else:
                response = self.post("/setup/seat", {"kind": "1", "name": name, "device": device})
            assert response.status_code == 303, Page(response.get_data(as_text=True)).alerts
        location = response.headers["Location"]
        assert location.startswith("/games/"), location
        return location.rsplit("/", 1)[1]

    # -- the table -------------------------------------------------------------------------------

    def table(self, slug: str) -> Page:
        return self.page(f"/games/{slug}")

    def act(self, slug: str, action: str, cards=(), version: int | None = None, seat: int | None = None,
            htmx: bool = True):
        """Post a table form (Menus D/E/F). Version and seat default to what the page shows."""
        if version is None or seat is None:
            page = self.table(slug)
            version = page.version if version is None else version
            seat = page.seat if seat is None else seat
        data = {"action": action, "version": "" if version is None else str(version),
                "seat": "" if seat is None else str(seat)}
        return self.client.post(f"/games/{slug}/act", data={**data, "cards": list(cards),
                                                            "csrf_token": self.csrf_token()},
                                headers={"HX-Request": "true"} if htmx else {})

    def reveal(self, slug: str):
        page = self.table(slug)
        return self.post(f"/games/{slug}/reveal", {"version": str(page.version)}, htmx=True)

    def state(self, slug: str):
        """The game's rules state as stored (for assertions; a player never sees this)."""
        from app import store

        with self.app.app_context():
            record = store.find_game(slug)
            return store.load_state(record), record.version


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
