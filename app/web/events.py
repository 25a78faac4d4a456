"""Live updates: a Server-Sent Events stream per table that says "the game changed" (issue 4).

The database is the only shared state between worker processes, so each process runs one
watcher that polls the versions of the games its browsers are watching (one small query per
interval, however many browsers) and wakes their streams. A commit in any worker rings a
doorbell (a datagram) that makes every watcher poll at once, so the interval is only the
fallback. A stream message carries only the new version number, never a card; the browser then
fetches the table fragment it is allowed to see.
Under gunicorn's gevent workers the watcher thread and the streams are greenlets.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import socket
import threading
import time
from collections import Counter
from dataclasses import dataclass, field

import sqlalchemy as sa
from flask import Blueprint, Flask, Response, abort, current_app, has_app_context, request, session

from .. import limits, store
from ..extensions import db
from ..models import GameRecord

bp = Blueprint("events", __name__)


class Doorbell:
    """Wake-up hints between the worker processes of one server, so a change reaches every
    worker's streams at once instead of at its watcher's next poll.

    Each running watcher listens on a Unix datagram socket in Linux's abstract namespace and
    lists its name as an empty file in ``<instance>/doorbells/``; whoever commits a new game
    version sends one byte to each. Only a hint: the watcher still reads the versions from the
    database, the only shared state, and still polls on its own, so a lost ring (or a system
    without abstract sockets) only costs the poll interval."""

    PREFIX = "\0card-table-doorbell-"

    def __init__(self, instance_path: str):
        self.folder = os.path.join(instance_path, "doorbells")

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

    def ring(self) -> None:
        try:
            names = os.listdir(self.folder)
        except OSError:
            return
        if not names:
            return
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sender:
            sender.setblocking(False)
            for name in names:
                try:
                    sender.sendto(b"!", self.PREFIX + name)
                except (ConnectionRefusedError, FileNotFoundError):
                    self._forget(name)  # its watcher is gone (a stopped or killed worker)
                except OSError:
                    pass  # its queue is full: it is waking up anyway


def ring_doorbells(_sender=None, **_ignored) -> None:
    """After a commit that gave a game a new version (store.game_changed)."""
    if has_app_context() and current_app.config.get("EVENTS_DOORBELL", True):
        Doorbell(current_app.instance_path).ring()


store.game_changed.connect(ring_doorbells)


class VersionWatcher:
    def __init__(self, app: Flask):
        self.app = app
        self.interval = app.config["EVENTS_POLL_SECONDS"]
        self.doorbell = Doorbell(app.instance_path) if app.config.get("EVENTS_DOORBELL", True) else None
        self.changed = threading.Condition()
        self.versions: dict[str, int] = {}
        self.watching: Counter = Counter()
        self.thread: threading.Thread | None = None

    def subscribe(self, slug: str, version: int) -> None:
        with self.changed:
            self.watching[slug] += 1
            self.versions.setdefault(slug, version)
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self._run, name="version-watcher", daemon=True)
                self.thread.start()

    def unsubscribe(self, slug: str) -> None:
        with self.changed:
            self.watching[slug] -= 1
            if self.watching[slug] <= 0:
                del self.watching[slug]
                self.versions.pop(slug, None)

    def wait(self, slug: str, known: int, timeout: float, stream: "Stream | None" = None) -> int | None:
        """The game's version once it differs from ``known``, or None after ``timeout`` (or as soon
        as ``stream`` is dropped)."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                if stream is not None and stream.dropped:
                    return None
                version = self.versions.get(slug, known)
                if version != known:
                    return version
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                self.changed.wait(remaining)

    def poll_once(self, engine) -> None:
        with self.changed:
            slugs = list(self.watching)
        if not slugs:
            return
        with engine.connect() as connection:
            rows = connection.execute(
                sa.select(GameRecord.slug, GameRecord.version).where(GameRecord.slug.in_(slugs))).all()
        with self.changed:
            moved = False
            for slug, version in rows:
                if slug in self.watching and self.versions.get(slug) != version:
                    self.versions[slug] = version
                    moved = True
            if moved:
                self.changed.notify_all()

    def _run(self) -> None:
        with self.app.app_context():
            engine = db.engine
        listening = self.doorbell.listen() if self.doorbell else None
        try:
            while True:
                with self.changed:
                    if not self.watching:
                        self.thread = None
                        return
                try:
                    self.poll_once(engine)
                except Exception:  # a locked or restarting database: try again next tick
                    self.app.logger.exception("version watcher poll failed")
                self._pause(listening[0] if listening else None)
        finally:
            if listening:
                self.doorbell.close(*listening)

    def _pause(self, bell: socket.socket | None) -> None:
        """Until the next poll: the poll interval, or less if the doorbell rings."""
        if bell is None:
            time.sleep(self.interval)
            return
        try:
            bell.settimeout(self.interval)
            bell.recv(16)
            bell.setblocking(False)
            while True:  # several rings: one poll reads them all
                bell.recv(16)
        except OSError:  # timeout, or nothing more to read
            pass


def watcher() -> VersionWatcher:
    app = current_app._get_current_object()
    existing = app.extensions.get("card_table_watcher")
    if existing is None:
        existing = app.extensions["card_table_watcher"] = VersionWatcher(app)
    return existing


# -- how many streams a worker process holds ---------------------------------------------------------


@dataclass(eq=False)
class Stream:
    """One open event stream, as the gate counts it."""

    address: str
    slug: str
    browser: str | None  # the browser's session (a hash of its CSRF secret), if it has one
    last_change: float = field(default_factory=time.monotonic)  # when it last carried an event
    dropped: bool = False


class StreamGate:
    """Which streams a worker process lets open. Each stream holds one of the worker's
    connections (gevent: 1000 at most, app/serve.py) for as long as it lives, so this process
    holds at most ``EVENTS_PER_ADDRESS`` streams of one client address, ``EVENTS_PER_GAME`` of
    one game and ``EVENTS_PER_WORKER`` in all (half the connections: the rest are kept for page
    requests). A browser needs one stream per table: its new stream replaces its older one (a
    reloaded page's old stream may linger until its next keep-alive). When a limit is reached,
    the stream that has carried no change for longest makes room if that is over
    ``EVENTS_IDLE_SECONDS``; otherwise the new stream is refused, and its page keeps polling."""

    def __init__(self, config, hub: VersionWatcher):
        self.per_address = config["EVENTS_PER_ADDRESS"]
        self.per_game = config["EVENTS_PER_GAME"]
        self.total = config["EVENTS_PER_WORKER"]
        self.idle_seconds = config["EVENTS_IDLE_SECONDS"]
        self.hub = hub
        self.lock = threading.Lock()
        self.streams: list[Stream] = []

    def admit(self, address: str, slug: str, browser: str | None) -> Stream | None:
        with self.lock:
            now = time.monotonic()
            if browser is not None:
                for old in [s for s in self.streams if s.browser == browser and s.slug == slug and s.address == address]:
                    self._drop(old)
            for limit, same in ((self.per_address, lambda s: s.address == address),
                                (self.per_game, lambda s: s.slug == slug), (self.total, lambda s: True)):
                group = [s for s in self.streams if same(s)]
                while len(group) >= limit:
                    idlest = min(group, key=lambda s: s.last_change, default=None)
                    if idlest is None or now - idlest.last_change < self.idle_seconds:
                        return None
                    self._drop(idlest)
                    group.remove(idlest)
            stream = Stream(address, slug, browser)
            self.streams.append(stream)
            return stream

    def release(self, stream: Stream) -> None:
        with self.lock:
            if stream in self.streams:
                self.streams.remove(stream)

    def _drop(self, stream: Stream) -> None:
        stream.dropped = True
        self.streams.remove(stream)
        with self.hub.changed:
            self.hub.changed.notify_all()  # it is waiting for a change: wake it to end


def gate() -> StreamGate:
    app = current_app._get_current_object()
    existing = app.extensions.get("card_table_stream_gate")
    if existing is None:
        existing = app.extensions["card_table_stream_gate"] = StreamGate(app.config, watcher())
    return existing


def browser_id() -> str | None:
    secret = session.get("csrf_token")
    return hashlib.sha256(secret.encode()).hexdigest()[:16] if isinstance(secret, str) else None


def close_connection_after(response: Response) -> Response:
    """Close the client's connection once ``response`` is sent. gunicorn keeps a connection
    open for the next request (``--keep-alive``, 5 s) and drops a ``Connection: close`` header
    set by the app, so a client refused hundreds of streams would otherwise hold that many of
    the worker's connections for seconds, idle: the socket is shut down instead."""
    sock = request.environ.get("gunicorn.socket")
    if sock is not None:
        def shut() -> None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

        response.call_on_close(shut)
    return response


REFUSED = "Too many live streams from this device or to this table: the page refreshes itself every few seconds instead.\n"
# A dropped stream's browser waits this long before it tries again (meanwhile its page polls).
DROPPED_RETRY_MS = 30000


@bp.get("/games/<slug>/events")
def stream(slug: str):
    if not store.valid_slug(slug):
        abort(404)
    # Admitted (or refused) before any query: a refusal costs no database connection.
    ticket = gate().admit(limits.client_address(), slug, browser_id())
    if ticket is None:  # the page polls (its hx-trigger has "every 5s"); the SSE extension retries later
        response = Response(REFUSED, status=429, mimetype="text/plain",
                            headers={"Retry-After": "30", "Cache-Control": "no-store"})
        return close_connection_after(response)
    doors = gate()
    record = store.find_game(slug)
    if record is None:
        doors.release(ticket)
        abort(404)
    # ``v``: the version the page was showing; if the game has moved on since, say so at once.
    known = request.args.get("v", type=int)
    current = record.version
    db.session.remove()  # do not hold a database connection for the life of the stream
    hub = watcher()
    keepalive = current_app.config["EVENTS_KEEPALIVE_SECONDS"]
    lifetime = current_app.config["EVENTS_MAX_SECONDS"]

    def events():
        nonlocal known
        hub.subscribe(slug, current)
        try:
            yield "retry: 1000\n\n"  # reconnect after a second if the stream drops
            if known != current:
                yield f"event: changed\ndata: {current}\n\n"
            known = current
            ends = time.monotonic() + lifetime
            while time.monotonic() < ends:
                version = hub.wait(slug, known, min(keepalive, max(0.0, ends - time.monotonic())), ticket)
                if ticket.dropped:
                    yield f"retry: {DROPPED_RETRY_MS}\n\n"
                    return
                if version is None:
                    yield ": keep-alive\n\n"
                    continue
                known = version
                ticket.last_change = time.monotonic()
                yield f"event: changed\ndata: {version}\n\n"
        finally:
            hub.unsubscribe(slug)
            doors.release(ticket)

    response = Response(events(), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
    response.call_on_close(lambda: doors.release(ticket))  # even if the stream never started
    return response
