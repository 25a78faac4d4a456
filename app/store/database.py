"""Database engine settings: SQLite pragmas on every connection, and write transactions.

SQLite: WAL (readers never block the writer), a busy timeout (writers wait instead of failing),
foreign keys on. A write transaction that first reads and then writes must take the write lock
at BEGIN (``BEGIN IMMEDIATE``); otherwise two processes could both read, and the second one's
write would fail at once with "database is locked" instead of waiting. PostgreSQL gets the same
effect from ``SELECT ... FOR UPDATE`` on the game row (see store.py).

A text longer than its column (``String(n)``) is refused before it is written, on SQLite as on
PostgreSQL (which refuses it itself; SQLite would keep it whole): ``TextTooLong``. Input is
checked against the columns before it gets here; this only keeps the two databases alike.

Waiting for SQLite's write lock is done in Python, not by SQLite's busy handler (which would
stop a whole gevent worker): the write transactions of a process take turns (``take_write_turn``)
and the one whose turn it is tries the lock every few milliseconds (``begin_immediate_politely``).
"""

from __future__ import annotations

import sqlite3
import threading
import time
import weakref
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import InstrumentedAttribute, Session, SessionTransaction

from ..extensions import db


class TextTooLong(ValueError):
    """A text longer than the column that would keep it."""

IMMEDIATE = "card_table_immediate"
BUSY_TIMEOUT_MS = 15000

# One write transaction at a time in this process (a gevent lock under gunicorn's gevent workers,
# which patch threading before the app is imported).
_write_turn = threading.Lock()
_HOLDS_TURN = "card_table_write_turn"


def take_write_turn(session: Session) -> None:
    """Wait for this process's turn to write to SQLite; the turn ends with the session's
    transaction (commit, rollback or close).

    SQLite lets one writer in at a time anyway. Without turns, every request of a gevent worker
    waiting for the write lock would keep trying it, and those tries cost the CPU that the
    worker's other requests need. With turns, the requests of a process wait here in order
    without using the CPU, and only the first tries SQLite's lock (against the other workers).
    If the turn does not come within the busy timeout, the transaction goes ahead without it:
    SQLite's lock still keeps the writes apart."""
    if not session.info.get(_HOLDS_TURN) and _write_turn.acquire(timeout=BUSY_TIMEOUT_MS / 1000):
        session.info[_HOLDS_TURN] = True


def release_write_turn(session: Session) -> None:
    if session.info.pop(_HOLDS_TURN, False):
        _write_turn.release()


@event.listens_for(Session, "after_transaction_end")
def _end_write_turn(session: Session, transaction: SessionTransaction) -> None:
    if transaction.parent is None:
        release_write_turn(session)


# The engines configure_engine has set up already.
_configured: weakref.WeakSet[Engine] = weakref.WeakSet()

_LIMITED_TEXTS: dict[sa.orm.Mapper[Any], list[tuple[str, int]]] = {}


def limited_texts(mapper: sa.orm.Mapper[Any]) -> list[tuple[str, int]]:
    """The attributes of ``mapper``'s rows kept in a ``String(n)`` column, with their n."""
    found = _LIMITED_TEXTS.get(mapper)
    if found is None:
        found = _LIMITED_TEXTS[mapper] = [
            (attribute.key, attribute.columns[0].type.length) for attribute in mapper.column_attrs
            if isinstance(attribute.columns[0].type, sa.String) and attribute.columns[0].type.length]
    return found


@event.listens_for(Session, "before_flush")
def _texts_fit_their_columns(session: Session, _context: Any, _instances: Any) -> None:
    for row in (*session.new, *session.dirty):
        state = sa.inspect(row)
        for key, length in limited_texts(state.mapper):
            value = state.dict.get(key)  # (only what is set or loaded: nothing is read here)
            if isinstance(value, str) and len(value) > length:
                raise TextTooLong(f"{state.mapper.class_.__name__}.{key} keeps at most {length} characters, "
                                  f"not {len(value)}")


def configure_engine(engine: Engine) -> None:
    if engine.dialect.name != "sqlite" or engine in _configured:
        return
    _configured.add(engine)

    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection: sqlite3.Connection, _record: Any) -> None:
        # Let SQLAlchemy (below) issue BEGIN itself, instead of the sqlite3 module's implicit one.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys = ON")
        if cursor.execute("PRAGMA journal_mode").fetchone()[0] != "memory":
            cursor.execute("PRAGMA journal_mode = WAL")
            # In WAL mode NORMAL survives a crash of the process (kill -9); only a power cut can
            # lose the last commits.
            cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(connection: Connection) -> None:
        if not connection.get_execution_options().get(IMMEDIATE):
            connection.exec_driver_sql("BEGIN")
            return
        raw = connection.connection.driver_connection
        assert raw is not None  # (a connection beginning a transaction has its sqlite3 connection)
        raw.execute("PRAGMA busy_timeout = 0")
        try:
            if not begin_immediate_politely(raw, BUSY_TIMEOUT_MS / 1000):
                connection.exec_driver_sql("BEGIN IMMEDIATE")  # the last try: fails as it always did
        finally:
            raw.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")


def begin_immediate_politely(raw: sqlite3.Connection, patience: float) -> bool:
    """BEGIN IMMEDIATE on a connection without a busy timeout, retried while another process
    holds the write lock; False if it could not start within ``patience`` seconds.

    SQLite's own busy handler waits inside C, sleeping 1, 2, 5, 10 ... up to 100 ms between
    tries: under gunicorn's gevent workers that stops the whole worker process (every request it
    is serving) and keeps it asleep long after the lock was freed. Here the wait is
    ``time.sleep``, which gevent turns into a pause of this request alone, and the tries stay a
    few milliseconds apart."""
    deadline = time.monotonic() + patience
    pause = 0.0005
    while True:
        try:
            raw.execute("BEGIN IMMEDIATE")
            return True
        except sqlite3.OperationalError as error:
            if error.sqlite_errorcode & 0xFF != sqlite3.SQLITE_BUSY or time.monotonic() > deadline:
                return False
        time.sleep(pause)
        pause = min(2 * pause, 0.002)


def by_name(column: InstrumentedAttribute[str]) -> sa.ColumnElement[str] | InstrumentedAttribute[str]:
    """ORDER BY a casefolded name column in code point order, as Python sorts (R3.3): SQLite
    compares bytes already; PostgreSQL's default collation may follow a locale instead."""
    return sa.collate(column, "C") if db.engine.dialect.name == "postgresql" else column


def like_pattern(text: str) -> str:
    """A LIKE pattern (escape character ``\\``) for names containing ``text``, compared as
    casefolded keys."""
    escaped = text.casefold().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"
