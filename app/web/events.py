"""Live updates: a Server-Sent Events stream per table that says "the game changed" (issue 4).

The database is the only shared state between worker processes, so each process runs one
watcher that polls the versions of the games its browsers are watching (one small query per
interval, however many browsers) and wakes their streams. A stream message carries only the new
version number, never a card; the browser then fetches the table fragment it is allowed to see.
Under gunicorn's gevent workers the watcher thread and the streams are greenlets.
"""

from __future__ import annotations

import threading
import time
from collections import Counter

import sqlalchemy as sa
from flask import Blueprint, Flask, Response, abort, current_app, request

from .. import store
from ..extensions import db
from ..models import GameRecord

bp = Blueprint("events", __name__)


class VersionWatcher:
    def __init__(self, app: Flask):
        self.app = app
        self.interval = app.config["EVENTS_POLL_SECONDS"]
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
        while True:
            with self.changed:
                if not self.watching:
                    self.thread = None
                    return
            try:
                self.poll_once(engine)
            except Exception:  # a locked or restarting database: try again next tick
                self.app.logger.exception("version watcher poll failed")
            time.sleep(self.interval)


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
