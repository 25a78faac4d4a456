"""What each browser holds: its seats and host roles at every table, kept in the database.

A browser is known by one random key (``new_browser_key``) that its session cookie carries;
only the key's hash is stored. Each seat or host role it takes is a row (``Holding``) with the
hash of that seat's token: the browser holds the seat while the seat's token is still that one
(a seat the host released is no longer held, and held again if the release is undone). So the
cookie stays one key however many tables a browser sits at, and no table is ever forgotten
while its game is played.

The door that knows the browser (the web, its cookie) may keep what it learnt of the latest
tables, so that a table's page or action needs no query for it (a ``Holder``'s ``known`` and
``learn``): the rows are what counts, the door's copy only saves reading them.

A cookie set before holdings were kept on the server carries the seats' tokens themselves
(``{game: {role: token}}``): ``adopt`` turns them into rows the first time the browser comes back.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Protocol

import sqlalchemy as sa

from .. import store
from ..extensions import db
from ..store.models import PLAYING, GameRecord, Holding
from . import news

HOST = "host"
# A browser key: as many random bits as a seat's token.
KEY_BYTES = store.TOKEN_BYTES

Hashes = dict[str, str]
"""A browser's holdings at one table: {role: token hash}, a role being a seat's number ("0") or
"host"."""


class Holder(Protocol):
    """A browser as the tables take it: its ``key`` (None: it never held anything), and what its
    door keeps of its holdings at the latest tables."""

    key: str | None

    def known(self, slug: str) -> Hashes | None:
        """What the door knows the browser holds at game ``slug`` (None: it does not know)."""

    def learn(self, slug: str, hashes: Hashes) -> None:
        """What the browser holds at game ``slug``, as the rows say now."""


class Nobody:
    """A browser that holds nothing (a spectator)."""

    key: str | None = None

    def known(self, slug: str) -> Hashes | None:
        return {}

    def learn(self, slug: str, hashes: Hashes) -> None:
        pass


NOBODY = Nobody()


class KeyHolder:
    """A browser known by its key alone, whose door keeps nothing: what it holds is read each
    time (a tool, a benchmark or a test acting as a browser)."""

    def __init__(self, key: str | None = None):
        self.key = key if key is not None else new_browser_key()

    def known(self, slug: str) -> Hashes | None:
        return None

    def learn(self, slug: str, hashes: Hashes) -> None:
        pass


def new_browser_key() -> str:
    return secrets.token_urlsafe(KEY_BYTES)


def browser_hash(key: str) -> str:
    return store.hash_token(key)


def is_browser_key(key: object) -> bool:
    """Whether ``key`` can be a browser key (checked before any query)."""
    return isinstance(key, str) and 16 <= len(key) <= 64 and store.valid_token_text(key)


HOLDINGS = Holding.__table__.c
HELD_AT = (sa.select(HOLDINGS.role, HOLDINGS.token_hash)
           .where(HOLDINGS.browser == sa.bindparam("browser"), HOLDINGS.game_id == sa.bindparam("game_id")))


def held_hashes(holder: Holder, record: GameRecord) -> Hashes:
    """What ``holder`` holds at ``record``'s table: as its door knows it, else read (one query,
    and the door learns it)."""
    known = holder.known(record.slug)
    if known is not None:
        return known
    if not is_browser_key(holder.key) or record.id is None:
        return {}
    rows = db.session.execute(HELD_AT, {"browser": browser_hash(holder.key or ""), "game_id": record.id})
    found = {row.role: row.token_hash for row in rows}
    holder.learn(record.slug, found)
    return found


def reread(holder: Holder, record: GameRecord) -> Hashes:
    """What ``holder`` holds at ``record``'s table as the rows say now (its door learns it):
    after a change of its holdings there."""
    if not is_browser_key(holder.key):
        return {}
    rows = db.session.execute(HELD_AT, {"browser": browser_hash(holder.key or ""), "game_id": record.id})
    found = {row.role: row.token_hash for row in rows}
    holder.learn(record.slug, found)
    return found


def hold(browser: str, record: GameRecord, role: str, token_hash: str) -> None:
    """In the caller's write transaction: the browser with key ``browser`` holds ``role`` at
    ``record``'s table, the role's token being the one of hash ``token_hash``."""
    hold_hashes(browser_hash(browser), record, {role: token_hash})


def hold_hashes(browser_hash_: str, record: GameRecord, hashes: Mapping[str, str]) -> None:
    """``hold`` for a browser known by its key's hash, several roles at once."""
    if not hashes:
        return
    if sa.inspect(record).identity is None:  # (a row not flushed yet: no id)
        db.session.flush()
    roles = list(hashes)
    db.session.execute(sa.delete(Holding).where(Holding.browser == browser_hash_, Holding.game_id == record.id,
                                                Holding.role.in_(roles)))
    db.session.execute(sa.insert(Holding), [{"browser": browser_hash_, "game_id": record.id, "role": role,
                                             "token_hash": token_hash} for role, token_hash in hashes.items()])


def holders(record: GameRecord) -> dict[str, Hashes]:
    """Every browser holding something at ``record``'s table: {browser hash: {role: token hash}}."""
    found: dict[str, Hashes] = {}
    rows = db.session.execute(sa.select(HOLDINGS.browser, HOLDINGS.role, HOLDINGS.token_hash)
                              .where(HOLDINGS.game_id == record.id))
    for row in rows:
        found.setdefault(row.browser, {})[row.role] = row.token_hash
    return found


def adopt(browser: str, tokens_by_game: Mapping[str, Mapping[str, str]]) -> None:
    """In the caller's write transaction: the tokens an older cookie carried
    (``{game slug: {role: token}}``) become holdings of the browser with key ``browser``. What
    cannot be a game or a token is passed over: the cookie was signed by this server, but an
    old server may have written what this one no longer reads."""
    slugs = [slug for slug in tokens_by_game if store.valid_slug(slug)][:200]
    if not slugs:
        return
    ids = dict(db.session.execute(sa.select(GameRecord.slug, GameRecord.id).where(GameRecord.slug.in_(slugs))).all())
    key_hash = browser_hash(browser)
    for slug in slugs:
        tokens = tokens_by_game[slug]
        game_id = ids.get(slug)
        if game_id is None or not isinstance(tokens, Mapping):
            continue
        hashes = {str(role)[:8]: store.hash_token(token) for role, token in tokens.items()
                  if isinstance(token, str) and token}
        if hashes:
            db.session.execute(sa.delete(Holding).where(Holding.browser == key_hash, Holding.game_id == game_id,
                                                        Holding.role.in_(list(hashes))))
            db.session.execute(sa.insert(Holding), [{"browser": key_hash, "game_id": game_id, "role": role,
                                                     "token_hash": token_hash}
                                                    for role, token_hash in hashes.items()])


def everything_held(holder: Holder) -> dict[int, Hashes]:
    """What ``holder`` holds at every table: {game id: {role: token hash}} (one query)."""
    if not is_browser_key(holder.key):
        return {}
    found: dict[int, Hashes] = {}
    rows = db.session.execute(sa.select(HOLDINGS.game_id, HOLDINGS.role, HOLDINGS.token_hash)
                              .where(HOLDINGS.browser == browser_hash(holder.key or "")))
    for row in rows:
        found.setdefault(row.game_id, {})[row.role] = row.token_hash
    return found


@news.command
def let_go_of_finished_games(holder: Holder) -> int:
    """``holder`` holds nothing any more at games no longer played (a browser that quits keeps
    only its seats at unfinished games); how many unfinished games it still holds anything at."""
    if not is_browser_key(holder.key):
        return 0
    key_hash = browser_hash(holder.key or "")
    store.begin_write()
    playing = sa.select(GameRecord.id).where(GameRecord.status == PLAYING)
    db.session.execute(sa.delete(Holding).where(Holding.browser == key_hash, Holding.game_id.not_in(playing)))
    kept = db.session.scalar(sa.select(sa.func.count(sa.distinct(Holding.game_id))).where(Holding.browser == key_hash))
    db.session.commit()
    return kept or 0


@news.command
def adopt_tokens(browser: str, tokens_by_game: Mapping[str, Mapping[str, str]]) -> None:
    """``adopt``, as a transaction of its own (a browser coming back with an older cookie)."""
    store.begin_write()
    adopt(browser, tokens_by_game)
    db.session.commit()
