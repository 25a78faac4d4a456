"""Who this browser is: the one random key its (signed, HttpOnly) session cookie carries, by
which the tables know what it holds (``tables.holdings``: every seat and host role, however
many tables, kept in the database). The cookie also keeps what the tables told of the browser's
latest tables (``KNOWN_TABLES`` of them), so that a table's page or action reads no more than it
did when the cookie held the seats themselves; the database decides, the cookie only saves
reading it.

A cookie set before holdings were kept on the server carries the seats' tokens themselves: they
are handed to the tables once and leave the cookie."""

from __future__ import annotations

from typing import Any

from flask import Flask, session

from .. import tables
from .addresses import client_address

BROWSER_KEY = "browser"
KNOWN = "held"  # [[game slug, {role: token hash}], ...], the latest learnt last
KNOWN_TABLES = 12
OLD_TOKENS = "tables"  # {game slug: {seat number or "host": token}}, as older cookies keep them
PREFERENCES = "preferences"  # {game key: {setting: value}}: this browser's table settings


class CookieHolder:
    """This browser as the tables take it (``tables.Holder``): its key, and what its cookie keeps
    of its latest tables."""

    def __init__(self, key: str | None):
        self.key = key

    def known(self, slug: str) -> dict[str, str] | None:
        if self.key is None:
            return {}
        for entry in known_tables():
            if entry[0] == slug:
                return dict(entry[1])
        return None

    def learn(self, slug: str, hashes: dict[str, str]) -> None:
        if self.key is None:
            return
        entries = [entry for entry in known_tables() if entry[0] != slug] + [[slug, dict(hashes)]]
        session[KNOWN] = entries[-KNOWN_TABLES:]


def known_tables() -> list[Any]:
    """The cookie's latest tables, as a list (a dict's keys would be sorted by the cookie's
    serializer, and its order lost)."""
    entries = session.get(KNOWN)
    if not isinstance(entries, list):
        return []
    return [entry for entry in entries if isinstance(entry, list) and len(entry) == 2
            and isinstance(entry[0], str) and isinstance(entry[1], dict)]


def browser_key() -> str | None:
    """This browser's key, or None if it never held anything."""
    key = session.get(BROWSER_KEY)
    return key if tables.is_browser_key(key) else None


def holder() -> CookieHolder:
    """This browser, as the tables' commands take it."""
    return CookieHolder(browser_key())


def own_holder() -> CookieHolder:
    """This browser, given a key now if it has none (it is about to take a seat)."""
    key = browser_key()
    if key is None:
        key = session[BROWSER_KEY] = tables.new_browser_key()
    if not session.permanent:  # (setting it again would send the cookie again)
        session.permanent = True  # the seats last a month after the last visit
    return CookieHolder(key)


def looker(watching: bool = False) -> tables.Looker:
    """This browser, as the tables' queries take it."""
    preferences = session.get(PREFERENCES)
    return tables.Looker(holder=holder(), address=client_address(),
                         preferences=preferences if isinstance(preferences, dict) else {}, watching=watching)


def register(app: Flask) -> None:
    @app.before_request
    def adopt_old_tokens() -> None:
        """An older cookie's tokens become this browser's holdings, once."""
        old = session.get(OLD_TOKENS)
        if old is None:
            return
        if isinstance(old, dict) and old:
            tables.adopt_tokens(own_holder().key or "", old)
        session.pop(OLD_TOKENS, None)
