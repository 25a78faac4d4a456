"""Which seats this browser holds: per-game seat tokens kept in the (signed, HttpOnly) session
cookie. Only a token's hash is stored in the database; the server checks every action against it.
"""

from __future__ import annotations

from flask import session

MAX_TABLES = 12  # keep the cookie small: forget the oldest tables first
SESSION_KEY = "tables"  # {game slug: {seat number or "host": token}} (the name sessions have always used)


def tokens_for(slug: str) -> dict:
    entry = (session.get(SESSION_KEY) or {}).get(slug)
    return dict(entry) if isinstance(entry, dict) else {}


def remember(slug: str, tokens: dict) -> None:
    if not tokens:
        return
    by_game = dict(session.get(SESSION_KEY) or {})
    entry = dict(by_game.pop(slug, {}) or {})
    entry.update(tokens)
    by_game[slug] = entry  # most recent last
    while len(by_game) > MAX_TABLES:
        by_game.pop(next(iter(by_game)))
    session[SESSION_KEY] = by_game
    session.permanent = True


def forget(slug: str) -> None:
    by_game = dict(session.get(SESSION_KEY) or {})
    if by_game.pop(slug, None) is not None:
        session[SESSION_KEY] = by_game


def table_slugs() -> list[str]:
    return list((session.get(SESSION_KEY) or {}).keys())
