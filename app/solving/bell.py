"""Waking the job runner when work is written down, so it starts at once instead of at its next
look (``SOLVER_POLL_SECONDS``), and its waiting without a transaction otherwise.

- PostgreSQL: ``NOTIFY card_table_runner`` in the transaction that asks (sent with its commit, not
  at all if it rolls back); each runner ``LISTEN``s on a connection of its own, in autocommit (no
  transaction while it waits), so every server's runner hears it.
- SQLite (one machine): after the commit, one datagram to the runner's abstract Unix socket, named
  after the database file. A second server's runner on the same file cannot take the name and
  looks every ``SOLVER_POLL_SECONDS`` instead.

A lost ring costs a look's delay, never an answer: the runner also looks on its own.
"""

from __future__ import annotations

import hashlib
import logging
import os
import socket
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from flask import Flask, current_app
from sqlalchemy import event as sa_event
from sqlalchemy.orm import Session, SessionTransaction

from ..extensions import db

if TYPE_CHECKING:
    # (the type only: psycopg itself is imported where it is used, by a runner on PostgreSQL)
    import psycopg

CHANNEL = "card_table_runner"
PENDING = "card_table_ring_runner"
log = logging.getLogger(__name__)


def socket_name(database_uri: str, instance_path: str) -> str:
    """The runner's abstract socket for a SQLite database (its file's absolute path decides)."""
    database = sa.engine.make_url(database_uri).database or ""
    where = os.path.abspath(database) if database and database != ":memory:" else instance_path
    return "\0card-table-runner-" + hashlib.sha256(where.encode()).hexdigest()[:20]


def ring_after_commit() -> None:
    """Ring the runner when the session's open transaction commits."""
    if db.engine.dialect.name == "postgresql":
        db.session.execute(sa.select(sa.func.pg_notify(CHANNEL, "")))
    else:
        db.session().info[PENDING] = socket_name(current_app.config["SQLALCHEMY_DATABASE_URI"],
                                                 current_app.instance_path)


def ring(name: str) -> None:
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sender:
            sender.setblocking(False)
            sender.sendto(b"work", name)
    except OSError:  # no runner listening (yet), or its queue is full: it looks by itself anyway
        pass


@sa_event.listens_for(Session, "after_commit")
def _ring_pending(session: Session) -> None:
    name = session.info.pop(PENDING, None)
    if name:
        ring(name)


@sa_event.listens_for(Session, "after_transaction_end")
def _forget_pending(session: Session, transaction: SessionTransaction) -> None:
    if transaction.parent is None:  # rolled back (a commit has rung already)
        session.info.pop(PENDING, None)


class Listener:
    """The runner's ear: ``wait(seconds)`` returns when rung, or after ``seconds``."""

    def __init__(self, app: Flask):
        self.app = app
        with app.app_context():
            self.postgres = db.engine.dialect.name == "postgresql"
            self.url = db.engine.url
        self.connection: psycopg.Connection[tuple[Any, ...]] | None = None
        self.socket: socket.socket | None = None
        if not self.postgres:
            name = socket_name(app.config["SQLALCHEMY_DATABASE_URI"], app.instance_path)
            bound = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            try:
                bound.bind(name)
                self.socket = bound
            except OSError:  # another runner on this database has the name: looking is enough
                bound.close()

    def _listen(self) -> psycopg.Connection[tuple[Any, ...]]:
        if self.connection is None:
            import psycopg

            conninfo = self.url.set(drivername="postgresql").render_as_string(hide_password=False)
            self.connection = psycopg.connect(conninfo, autocommit=True, application_name="card-table-runner",
                                              keepalives=1, keepalives_idle=30, keepalives_interval=10,
                                              keepalives_count=3)
            self.connection.execute(f"LISTEN {CHANNEL}")
        return self.connection

    def wait(self, seconds: float) -> bool:
        """True if rung within ``seconds``."""
        if self.postgres:
            try:
                connection = self._listen()
                for _note in connection.notifies(timeout=seconds, stop_after=1):
                    return True
                return False
            except Exception as error:  # the database restarting: look again after the pause
                log.warning("job runner: cannot listen to the database (%s)", error)
                self.close()
                import time

                time.sleep(min(seconds, 2.0))
                return False
        if self.socket is None:
            import time

            time.sleep(seconds)
            return False
        self.socket.settimeout(max(0.001, seconds))
        try:
            self.socket.recv(64)
        except OSError:
            return False
        self.socket.setblocking(False)
        try:  # several rings at once are one
            while self.socket.recv(64):
                pass
        except OSError:
            pass
        return True

    def close(self) -> None:
        if self.connection is not None:
            try:
                self.connection.close()
            except Exception:
                pass
            self.connection = None
        if self.socket is not None and not self.postgres:
            pass  # (kept: the name stays this runner's)
