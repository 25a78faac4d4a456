"""Database engine settings: SQLite pragmas on every connection, and write transactions.

SQLite: WAL (readers never block the writer), a busy timeout (writers wait instead of failing),
foreign keys on. A write transaction that first reads and then writes must take the write lock
at BEGIN (``BEGIN IMMEDIATE``); otherwise two processes could both read, and the second one's
write would fail at once with "database is locked" instead of waiting. PostgreSQL gets the same
effect from ``SELECT ... FOR UPDATE`` on the game row (see store.py).
"""

from __future__ import annotations

from sqlalchemy import event
from sqlalchemy.engine import Engine

IMMEDIATE = "mason_immediate"


def configure_engine(engine: Engine) -> None:
    if engine.dialect.name != "sqlite" or getattr(engine, "_mason_configured", False):
        return
    engine._mason_configured = True

    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection, _record):
        # Let SQLAlchemy (below) issue BEGIN itself, instead of the sqlite3 module's implicit one.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA busy_timeout = 15000")
        cursor.execute("PRAGMA foreign_keys = ON")
        if cursor.execute("PRAGMA journal_mode").fetchone()[0] != "memory":
            cursor.execute("PRAGMA journal_mode = WAL")
            # In WAL mode NORMAL survives a crash of the process (kill -9); only a power cut can
            # lose the last commits.
            cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(connection):
        immediate = connection.get_execution_options().get(IMMEDIATE)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")
