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

import os
import secrets
import socket
import threading
import time
from collections import Counter

import sqlalchemy as sa
from flask import Blueprint, Flask, Response, abort, current_app, has_app_context, request

from .. import store
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

    PREFIX = "\0mason-doorbell-"

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

    def wait(self, slug: str, known: int, timeout: float) -> int | None:
        """The game's version once it differs from ``known``, or None after ``timeout``."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
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
    existing = app.extensions.get("mason_watcher")
    if existing is None:
        existing = app.extensions["mason_watcher"] = VersionWatcher(app)
    return existing


@bp.get("/games/<slug>/events")
def stream(slug: str):
    record = store.find_game(slug)
    if record is None:
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
                version = hub.wait(slug, known, min(keepalive, max(0.0, ends - time.monotonic())))
                if version is None:
                    yield ": keep-alive\n\n"
                    continue
                known = version
                yield f"event: changed\ndata: {version}\n\n"
        finally:
            hub.unsubscribe(slug)

    return Response(events(), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
