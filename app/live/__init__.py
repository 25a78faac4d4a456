"""Live news of the games, to every open stream of a table on every server sharing the database,
fed by the database's own notifications. The streams themselves are the web's (app/web/events.py);
here is what wakes them: each worker process's ``Hub`` of the games its streams watch, and how a
change reaches it (a PostgreSQL listener, or SQLite's doorbell and watcher).

What a stream says (and nothing else; never a card):
    ``id: <version>`` ``event: changed`` ``data: <version>``  the game has a new version: the
        browser fetches the fragment it may see (``id`` lets a reconnecting EventSource say
        which version it last saw, in ``Last-Event-ID``);
    ``event: <name>`` ``data: <text>``  something else was announced about the game (below).

Announcing something about a game (the app's factory connects it to what is announced)::

    live.announce(slug, "solved", {"verdict": "won"})   # data: {"verdict": "won"}
    live.announce(slug)                                   # event: refresh, data empty

reaches every open stream of that game on every server sharing the database, on PostgreSQL as on
SQLite. It needs an app context, and is sent at once, in a transaction of its own: it is called
after the commit of whatever the browsers will fetch when they hear it (the solver's verdict in
its row). Names are lower-case words (``[a-z][a-z0-9_-]*``, not ``changed``: a new version is
announced by ``store.save_game`` alone, ``announce_version``); data is one line of text, or
anything JSON can write; 2,000 characters at most. An announcement is a wake-up, not a record:
a browser that was not listening then (no stream open, or a dropped connection) does not get it
later, so whatever it announces must also be readable from the database.

How a change travels
- PostgreSQL (one or several servers): ``store.save_game`` sends ``NOTIFY card_table`` in the
  transaction that writes the new version (``game_changed``, before the commit), so the
  notification goes out with the commit and a rolled-back change says nothing. The committing
  process's own streams hear a new version at the commit, as on SQLite below. Each worker
  process ``LISTEN``s on one connection of its own (``PostgresListener``, running while the
  process has a stream open) and wakes exactly the streams of the game named. Nothing polls: with
  nothing happening the listener waits on its socket and the database serves no transaction. If
  the connection drops, the listener connects again and reads the versions of the games its
  streams watch (one query), so a missed notification costs a short delay, never an update.
  Under gunicorn's gevent workers the listener is a greenlet, and psycopg waits on its socket with
  ``select.poll``, which gevent patches (psycopg chooses that wait itself when it finds gevent's
  patching): the wait yields to the worker's other requests.
- SQLite (one machine): the one home-made part, ``Doorbell``: after the commit, the message goes to
  this process's streams directly and, as a datagram, to every other worker process on the machine
  (abstract Unix sockets, named by files in a folder beside the database). Each process's
  ``SqliteWatcher`` also looks every ``EVENTS_POLL_SECONDS`` whether anything was committed
  (``CommitCount``) and then reads the watched games' versions, which is all a lost datagram (or
  a system without abstract sockets) costs; with nothing committed it reads nothing.
- Either way, a commit that woke streams of its own process lets them send before its request
  goes on (``time.sleep(0)``: under gevent, a turn for the woken greenlets): the other players
  hear of a move before the mover's answer is rendered, not after.
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
import socket
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol

import sqlalchemy as sa
from flask import Flask
from sqlalchemy import event as sa_event
from sqlalchemy.engine import Row
from sqlalchemy.pool import PoolProxiedConnection
from sqlalchemy.orm import Session, SessionTransaction

from .. import store
from ..extensions import app_itself, db
from ..store.database import release_write_turn
from ..store.models import GameRecord

if TYPE_CHECKING:
    # (the type only: psycopg itself is imported where it is used, by a server on PostgreSQL)
    import psycopg

log = logging.getLogger(__name__)

valid_slug = store.valid_slug  # (checked before any query)
CHANNEL = "card_table"  # the PostgreSQL notification channel
EVENT_NAME = re.compile(r"[a-z][a-z0-9_-]{0,39}")
MAX_DATA = 2000
MAX_PAYLOAD = 7000  # bytes of an encoded message: PostgreSQL's NOTIFY takes under 8000
RECENT_EVENTS = 32  # announcements a game's channel keeps for streams that are busy sending


# -- messages ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Message:
    """A game's new ``version``, or an announced ``event`` with its ``data``."""

    slug: str
    version: int | None = None
    event: str | None = None
    data: str = ""

    def encode(self) -> str:
        fields: dict[str, Any] = {"g": self.slug}
        if self.version is not None:
            fields["v"] = self.version
        else:
            fields.update(e=self.event, d=self.data)
        return json.dumps(fields, separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def decode(cls, text: str | bytes) -> Message | None:
        """The message, or None for anything malformed (never raises: it comes from outside)."""
        try:
            fields = json.loads(text)
            slug = fields["g"]
            if not store.valid_slug(slug):
                return None
            if "v" in fields:
                return cls(slug, version=int(fields["v"]))
            name, data = fields["e"], fields.get("d", "")
            if not isinstance(name, str) or not EVENT_NAME.fullmatch(name) or not isinstance(data, str):
                return None
            return cls(slug, event=name, data=data[:MAX_DATA].replace("\n", " ").replace("\r", " "))
        except (ValueError, TypeError, KeyError):
            return None


def announce(slug: str, event: str = "refresh", data: Any = None) -> None:
    """Send ``event: <event>`` with ``data`` to every open stream of game ``slug`` on every server
    sharing the database (see the module's docstring). ``ValueError`` for a name or data it
    cannot send."""
    if not store.valid_slug(slug):
        raise ValueError(f"not a game id: {slug!r}")
    if not isinstance(event, str) or not EVENT_NAME.fullmatch(event) or event == "changed":
        raise ValueError(f"an event name is a lower-case word other than 'changed', not {event!r}")
    text = "" if data is None else data if isinstance(data, str) else json.dumps(data, separators=(",", ":"))
    if "\n" in text or "\r" in text:
        raise ValueError("an event's data is one line of text")
    message = Message(slug, event=event, data=text)
    if len(text) > MAX_DATA or len(message.encode().encode()) > MAX_PAYLOAD:
        raise ValueError(f"an event's data has at most {MAX_DATA} characters ({MAX_PAYLOAD} bytes encoded)")
    publish(message, on_commit=False)


def announce_version(slug: str, version: int | None = None, **_ignored: Any) -> None:
    """``store.game_changed``: sent inside the transaction that writes the new version, which
    the news joins (heard when it commits, never if it rolls back)."""
    if version is not None:
        publish(Message(slug, version=version), on_commit=True)


def announce_answer(slug: str, key: str = "", **_ignored: Any) -> None:
    """The job runner kept an answer game ``slug`` waits for: its tables fetch it."""
    announce(slug, "analysed", key)

PENDING = "card_table_pending_messages"  # SQLite: messages waiting for the session's commit


def publish(message: Message, on_commit: bool) -> None:
    if db.engine.dialect.name == "postgresql":
        notify = sa.select(sa.func.pg_notify(CHANNEL, message.encode()))
        if on_commit:
            db.session.execute(notify)  # PostgreSQL sends it when (and only if) this transaction commits
            if message.version is not None:
                # This process's streams hear a new version at the commit, as on SQLite, not when
                # the listener next runs (its copy then brings nothing new).
                db.session().info.setdefault(PENDING, []).append(message)
        else:
            with db.engine.begin() as connection:
                connection.execute(notify)
        return
    if on_commit:
        db.session().info.setdefault(PENDING, []).append(message)
    else:
        deliver_on_this_machine(app_itself(), [message])


WOKE_STREAMS = "card_table_woke_streams"  # the commit woke streams of this process


@sa_event.listens_for(Session, "after_commit")
def _send_pending(session: Session) -> None:
    messages = session.info.pop(PENDING, None)
    if messages:
        try:
            app = app_itself()
            deliver = deliver_here if db.engine.dialect.name == "postgresql" else deliver_on_this_machine
            if deliver(app, messages):
                session.info[WOKE_STREAMS] = True
        except Exception:  # the change is committed: a failed wake-up must not look like a failed change
            log.exception("live updates: announcing a committed change failed (the watchers' poll will find it)")


@sa_event.listens_for(Session, "after_transaction_end")
def _forget_pending(session: Session, transaction: SessionTransaction) -> None:
    if transaction.parent is None:  # rolled back (a commit has sent them already)
        session.info.pop(PENDING, None)
        if session.info.pop(WOKE_STREAMS, False):
            # The streams woken are this process's (gevent greenlets): they send the news now,
            # while this request goes on to render its answer, not after it. The write turn
            # is given back first: nobody waits to write while they send.
            release_write_turn(session)
            time.sleep(0)


def deliver_here(app: Flask, messages: list[Message]) -> bool:
    """To this process's streams; True if any was woken."""
    hub = app.extensions.get(HUB)
    woke = False
    if hub is not None:
        for message in messages:
            woke = hub.deliver(message) or woke
    return woke


def deliver_on_this_machine(app: Flask, messages: list[Message]) -> bool:
    """SQLite: to this process's streams, then to the other worker processes' doorbells. True if
    a stream of this process was woken."""
    woke = deliver_here(app, messages)
    hub = app.extensions.get(HUB)
    transport = hub.transport if hub is not None else None
    own = transport.bell_name if isinstance(transport, SqliteWatcher) else None
    if app.config.get("EVENTS_DOORBELL", True):
        Doorbell.for_app(app).ring([m.encode().encode() for m in messages], skip=own)
    return woke


# -- the streams of this process -------------------------------------------------------------------


class Droppable(Protocol):
    """A waiting stream that may be dropped (to make room for another): its wait then ends."""

    dropped: bool


@dataclass(eq=False)
class Channel:
    """The streams of one game in this process: the newest version heard of, and the latest
    announcements (numbered, so that each stream sends each of them once)."""

    wake: threading.Condition
    version: int
    streams: int = 0
    heard: int = 0  # announcements heard so far
    recent: deque[tuple[int, str, str]] = field(default_factory=lambda: deque(maxlen=RECENT_EVENTS))  # (number, event, data)


class Hub:
    """What this worker process knows of the games its streams watch. The database's messages
    come in through one transport (a PostgreSQL listener, or SQLite's watcher), which runs while
    any stream is open; a message wakes only the streams of its game."""

    def __init__(self, app: Flask):
        self.app = app
        self.lock = threading.Lock()  # one lock; each game's Condition on it wakes that game's streams only
        self.channels: dict[str, Channel] = {}
        self.transport: PostgresListener | SqliteWatcher | None = None
        with app.app_context():
            self.postgres = db.engine.dialect.name == "postgresql"

    def subscribe(self, slug: str, version: int) -> Channel:
        with self.lock:
            channel = self.channels.get(slug)
            if channel is None:
                channel = self.channels[slug] = Channel(threading.Condition(self.lock), version)
            channel.version = max(channel.version, version)
            channel.streams += 1
            if self.transport is None:
                self.transport = PostgresListener(self) if self.postgres else SqliteWatcher(self)
                self.transport.start()
            return channel

    def unsubscribe(self, slug: str) -> None:
        with self.lock:
            channel = self.channels.get(slug)
            if channel is not None:
                channel.streams -= 1
                if channel.streams <= 0:
                    del self.channels[slug]

    def still_needed(self, transport: PostgresListener | SqliteWatcher) -> bool:
        """Called by the running transport: False (and it must stop) once no stream is open."""
        with self.lock:
            if self.transport is not transport:
                return False
            if not self.channels:
                self.transport = None
                return False
            return True

    def stopped(self, transport: PostgresListener | SqliteWatcher) -> None:
        """Called by a transport as it ends, whatever ended it: the next stream starts another."""
        with self.lock:
            if self.transport is transport:
                self.transport = None

    def watched(self) -> dict[str, int]:
        with self.lock:
            return {slug: channel.version for slug, channel in self.channels.items()}

    def deliver(self, message: Message) -> bool:
        """Wake the streams of the message's game; True if there were any to wake."""
        with self.lock:
            channel = self.channels.get(message.slug)
            if channel is None:
                return False
            if message.version is not None:
                if message.version <= channel.version:
                    return False
                channel.version = message.version
            else:
                assert message.event is not None  # (a message is a version or an event)
                channel.heard += 1
                channel.recent.append((channel.heard, message.event, message.data))
            channel.wake.notify_all()
            return True

    def wake(self, slug: str) -> None:
        with self.lock:
            channel = self.channels.get(slug)
            if channel is not None:
                channel.wake.notify_all()

    def wait(self, channel: Channel, version: int, heard: int, timeout: float,
             stream: Droppable | None = None) -> tuple[int, list[tuple[str, str]], int] | None:
        """Once the game's version is not ``version`` or announcements after number ``heard``
        came: (version, [(event, data)], announcements heard); None after ``timeout``, or as
        soon as ``stream`` is dropped."""
        deadline = time.monotonic() + timeout
        with self.lock:
            while True:
                if stream is not None and stream.dropped:
                    return None
                if channel.version != version or channel.heard != heard:
                    news = [(name, data) for number, name, data in channel.recent if number > heard]
                    return channel.version, news, channel.heard
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                channel.wake.wait(remaining)

    def catch_up(self, rows: Iterable[tuple[str, int] | Row[str, int]]) -> None:
        """The versions read from the database (after a start or a dropped connection)."""
        for slug, version in rows:
            self.deliver(Message(slug, version=version))


HUB = "card_table_events"


def hub() -> Hub:
    app = app_itself()
    existing: Hub | None = app.extensions.get(HUB)
    if existing is None:
        existing = app.extensions[HUB] = Hub(app)
    return existing


def watched_versions_query(slugs: list[str]) -> sa.Select[str, int]:
    return sa.select(GameRecord.slug, GameRecord.version).where(GameRecord.slug.in_(slugs))


# -- PostgreSQL: LISTEN on one connection per worker process -----------------------------------------


class PostgresListener(threading.Thread):
    """Holds the process's one LISTEN connection (its own, outside the pool, in autocommit: a
    transaction would hold back the notifications) while the process has streams open."""

    def __init__(self, hub: Hub):
        super().__init__(name="card-table-listener", daemon=True)
        self.hub = hub
        self.connected = threading.Event()  # (for the tests: LISTEN is in place)
        self.backend_pid: int | None = None
        # How often it looks up from its wait to see whether its process still has streams.
        self.tick = hub.app.config["EVENTS_LISTENER_TICK_SECONDS"]

    def conninfo(self) -> str:
        with self.hub.app.app_context():
            url = db.engine.url
        return url.set(drivername="postgresql").render_as_string(hide_password=False)

    def connect(self) -> psycopg.Connection[tuple[Any, ...]]:
        import psycopg

        connection = psycopg.connect(
            self.conninfo(), autocommit=True, application_name="card-table-listener",
            # a database that vanished without closing the connection is noticed within a minute
            keepalives=1, keepalives_idle=30, keepalives_interval=10, keepalives_count=3)
        try:
            connection.execute(f"LISTEN {CHANNEL}")
            # Anything committed before the LISTEN took effect was not heard: read it.
            slugs = list(self.hub.watched())
            if slugs:
                rows = connection.execute(
                    f"SELECT slug, version FROM {GameRecord.__tablename__} WHERE slug = ANY(%s)", [slugs]).fetchall()
                self.hub.catch_up(rows)
        except BaseException:
            connection.close()
            raise
        self.backend_pid = connection.info.backend_pid
        return connection

    def run(self) -> None:
        try:
            self.listen()
        except Exception:  # never a silent end: the next stream starts another listener
            log.exception("live updates: the listener stopped")
        finally:
            self.hub.stopped(self)

    def listen(self) -> None:
        pause = 0.2
        failing_since: float | None = None
        while self.hub.still_needed(self):
            try:
                connection = self.connect()
            except Exception as error:  # the database is down or restarting: try again, less and less often
                if failing_since is None:
                    failing_since = time.monotonic()
                    log.warning("live updates: cannot listen to the database (%s); trying again", error)
                time.sleep(pause)
                pause = min(2 * pause, 5.0)
                continue
            if failing_since is not None:
                log.warning("live updates: listening again after %.1f s", time.monotonic() - failing_since)
            failing_since, pause = None, 0.2
            self.connected.set()
            try:
                while self.hub.still_needed(self):
                    for note in connection.notifies(timeout=self.tick):
                        message = Message.decode(note.payload)
                        if message is not None:
                            self.hub.deliver(message)
            except Exception as error:
                log.warning("live updates: the listening connection dropped (%s); listening again", error)
                failing_since = time.monotonic()
            finally:
                self.connected.clear()
                connection.close()


# -- SQLite: the doorbell and a poll ------------------------------------------------------------------


class Doorbell:
    """Messages between the worker processes of one machine (SQLite only), so a change reaches
    every worker's streams at once instead of at its watcher's next poll.

    Each running watcher listens on a Unix datagram socket in Linux's abstract namespace and lists
    its name as an empty file in a folder beside the database; whoever commits sends each the
    encoded messages, one datagram each. Only a hint: the watcher also polls, so a lost datagram
    (a full queue, a system without abstract sockets) costs the poll interval."""

    PREFIX = "\0card-table-doorbell-"

    def __init__(self, folder: str):
        self.folder = folder

    @classmethod
    def for_app(cls, app: Flask) -> Doorbell:
        """Beside the SQLite file (every server using it rings the same bells), else in the
        instance folder."""
        existing: Doorbell | None = app.extensions.get("card_table_doorbell")
        if existing is None:
            uri = app.config["SQLALCHEMY_DATABASE_URI"]
            database = sa.engine.make_url(uri).database if uri.startswith("sqlite") else None
            if database and database != ":memory:" and not database.startswith("file:"):
                path = os.path.abspath(database)
                folder = os.path.join(os.path.dirname(path), f".{os.path.basename(path)}-doorbells")
            else:
                folder = os.path.join(app.instance_path, "doorbells")
            existing = app.extensions["card_table_doorbell"] = cls(folder)
        return existing

    def listen(self) -> tuple[socket.socket, str] | None:
        name = f"{os.getpid()}-{secrets.token_hex(6)}"
        try:
            os.makedirs(self.folder, exist_ok=True)
            bell = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            bell.bind(self.PREFIX + name)
            open(os.path.join(self.folder, name), "w").close()
        except OSError:
            return None
        return bell, name

    def close(self, bell: socket.socket, name: str) -> None:
        bell.close()
        self._forget(name)

    def _forget(self, name: str) -> None:
        try:
            os.unlink(os.path.join(self.folder, name))
        except OSError:
            pass

    def ring(self, payloads: list[bytes], skip: str | None = None) -> None:
        try:
            names = [name for name in os.listdir(self.folder) if name != skip]
        except OSError:
            return
        if not names:
            return
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sender:
            sender.setblocking(False)
            for name in names:
                for payload in payloads:
                    try:
                        sender.sendto(payload, self.PREFIX + name)
                    except (ConnectionRefusedError, FileNotFoundError):
                        self._forget(name)  # its watcher is gone (a stopped or killed worker)
                        break
                    except OSError:
                        break  # its queue is full: its next poll reads the versions anyway


class SqliteWatcher(threading.Thread):
    """This process's doorbell, and a poll of the watched games' versions (the fallback) every
    ``EVENTS_POLL_SECONDS`` in which something was committed, while the process has streams
    open."""

    def __init__(self, hub: Hub):
        super().__init__(name="card-table-watcher", daemon=True)
        self.hub = hub
        self.interval = hub.app.config["EVENTS_POLL_SECONDS"]
        doorbell = Doorbell.for_app(hub.app) if hub.app.config.get("EVENTS_DOORBELL", True) else None
        # Listening before the thread starts: a commit of this process skips its own bell (its
        # streams get the message directly) from the first moment the bell is listed.
        self.listening = doorbell.listen() if doorbell else None
        self.doorbell = doorbell
        self.bell_name = self.listening[1] if self.listening else None

    def run(self) -> None:
        commits: CommitCount | None = None
        try:
            with self.hub.app.app_context():
                engine = db.engine
            commits = CommitCount.of(engine)
            polled_at: int | None = None  # the commit count the last poll saw (None: none yet)
            while self.hub.still_needed(self):
                count = commits.read() if commits else None
                if count is None or count != polled_at:
                    try:
                        self.poll(engine)
                        polled_at = count
                    except Exception:  # a locked or restarting database: try again next tick
                        log.exception("live updates: reading the games' versions failed")
                self.listen_until_next_poll(self.listening[0] if self.listening else None)
        finally:
            if commits:
                commits.close()
            self.hub.stopped(self)
            if self.listening and self.doorbell:
                self.doorbell.close(*self.listening)

    def poll(self, engine: sa.Engine) -> None:
        slugs = list(self.hub.watched())
        if slugs:
            with engine.connect() as connection:
                self.hub.catch_up(connection.execute(watched_versions_query(slugs)).all())

    def listen_until_next_poll(self, bell: socket.socket | None) -> None:
        if bell is None:
            time.sleep(self.interval)
            return
        deadline = time.monotonic() + self.interval
        while (remaining := deadline - time.monotonic()) > 0:
            bell.settimeout(remaining)
            try:
                payload = bell.recv(4096)
            except OSError:  # the interval is over
                return
            message = Message.decode(payload)
            if message is not None:
                self.hub.deliver(message)


class CommitCount:
    """Whether anything was committed to a SQLite file since the last look: ``PRAGMA
    data_version`` on a connection the watcher keeps (SQLite changes it whenever another
    connection, of any process, commits). It reads no table and costs microseconds, so a watcher
    polls the games only after a commit: an idle server with open tables does not query its
    database 20 times a second per worker."""

    def __init__(self, connection: PoolProxiedConnection):
        self.connection = connection

    @classmethod
    def of(cls, engine: sa.Engine) -> CommitCount | None:
        """For a database file; None for an in-memory one, whose connections may be the
        requests' own (a connection's own commits do not change its count)."""
        name = engine.url.database or ""
        if not name or name == ":memory:" or name.startswith("file:"):
            return None
        try:
            return cls(engine.raw_connection())
        except Exception:
            return None

    def read(self) -> int | None:
        """The count now; None if it could not be read (the caller polls, to be safe)."""
        try:
            cursor = self.connection.cursor()
            try:
                cursor.execute("PRAGMA data_version")
                row = cursor.fetchone()
                assert row is not None  # (the pragma answers one row)
                count: int = row[0]
                return count
            finally:
                cursor.close()
        except Exception:
            return None

    def close(self) -> None:
        try:
            self.connection.close()  # back to the pool
        except Exception:
            pass
