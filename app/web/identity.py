"""Which seats this browser holds: per-game seat tokens kept in the (signed, HttpOnly) session
cookie. Only a token's hash is stored in the database; the server checks every action against it.
"""

from __future__ import annotations

from flask import session

MAX_TABLES = 12  # keep the cookie small: forget the oldest tables first


def tokens_for(slug: str) -> dict:
    tables = session.get("tables") or {}
    entry = tables.get(slug)
    return dict(entry) if isinstance(entry, dict) else {}


def remember(slug: str, tokens: dict) -> None:
    if not tokens:
        return
    tables = dict(session.get("tables") or {})
    entry = dict(tables.pop(slug, {}) or {})
    entry.update(tokens)
    tables[slug] = entry  # most recent last
    while len(tables) > MAX_TABLES:
        tables.pop(next(iter(tables)))
    session["tables"] = tables
    session.permanent = True


def forget(slug: str) -> None:
    tables = dict(session.get("tables") or {})
    if tables.pop(slug, None) is not None:
        session["tables"] = tables


def table_slugs() -> list[str]:
    return list((session.get("tables") or {}).keys())
