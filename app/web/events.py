"""Live updates: a Server-Sent Events stream per table, which wakes when the game changes or
something is announced about it (app/live: what wakes it, on every server sharing the database).
A worker process lets only so many streams open (``StreamGate``); a stream refused or dropped
leaves its page polling.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, Flask, Response, abort, current_app, request, session

from .. import live, tables
from . import identity
from .addresses import client_address
from .connections import close_connection_after

bp = Blueprint("events", __name__)


# -- how many streams a worker process holds ---------------------------------------------------------


@dataclass(eq=False)
class Stream:
    """One open event stream, as the gate counts it."""

    address: str
    slug: str
    browser: str | None  # the browser's session (a hash of its CSRF secret), if it has one
    seated: bool = False  # the browser holds a seat (or is the host) at the table
    last_change: float = field(default_factory=time.monotonic)  # when it last carried an event
    dropped: bool = False


class StreamGate:
    """Which streams a worker process lets open. Each stream holds one of the worker's
    connections (gevent: 1000 at most, app/serving/serve.py) for as long as it lives, so this process
    holds at most ``EVENTS_PER_ADDRESS`` streams of one client address, ``EVENTS_PER_GAME`` of
    one game and ``EVENTS_PER_WORKER`` in all (half the connections: the rest are kept for page
    requests). A browser needs one stream per table: its new stream replaces its older one (a
    reloaded page's old stream may linger until its next keep-alive). When a limit is reached,
    the stream that has carried no change for longest makes room if that is over
    ``EVENTS_IDLE_SECONDS``; otherwise a stream of a browser that holds a seat at its table (a
    player, or the host) makes the idlest stream of a browser that holds none give way, and
    anyone else's new stream is refused (its page keeps polling). So strangers may fill a
    table's places, but never keep its own players from their live updates."""

    def __init__(self, config: Mapping[str, Any], hub: live.Hub):
        self.per_address = config["EVENTS_PER_ADDRESS"]
        self.per_game = config["EVENTS_PER_GAME"]
        self.total = config["EVENTS_PER_WORKER"]
        self.idle_seconds = config["EVENTS_IDLE_SECONDS"]
        self.hub = hub
        self.lock = threading.Lock()
        self.streams: list[Stream] = []

    def admit(self, address: str, slug: str, browser: str | None, seated: bool = False) -> Stream | None:
        """The new stream, admitted (others dropped to make room), or None: refused, nothing
        dropped. ``seated``: the browser holds a seat at the table."""
        with self.lock:
            now = time.monotonic()
            if browser is not None:
                for old in [s for s in self.streams if s.browser == browser and s.slug == slug and s.address == address]:
                    self._drop(old)
            making_room: list[Stream] = []
            for limit, same in ((self.per_address, lambda s: s.address == address),
                                (self.per_game, lambda s: s.slug == slug), (self.total, lambda s: True)):
                group = [s for s in self.streams if same(s) and s not in making_room]
                while len(group) >= limit:
                    giving_way = self._giving_way(group, now, seated)
                    if giving_way is None:
                        return None
                    making_room.append(giving_way)
                    group.remove(giving_way)
            for stream in making_room:
                self._drop(stream)
            stream = Stream(address, slug, browser, seated)
            self.streams.append(stream)
            return stream

    def _giving_way(self, group: list[Stream], now: float, seated: bool) -> Stream | None:
        """The stream of ``group`` that makes room for a new one: the idlest, if it is idle; else,
        for a seated newcomer, the idlest of a browser that holds no seat; else none."""
        idlest = min(group, key=lambda s: s.last_change, default=None)
        if idlest is not None and now - idlest.last_change >= self.idle_seconds:
            return idlest
        if seated:
            return min((s for s in group if not s.seated), key=lambda s: s.last_change, default=None)
        return None

    def release(self, stream: Stream) -> None:
        with self.lock:
            if stream in self.streams:
                self.streams.remove(stream)

    def _drop(self, stream: Stream) -> None:
        stream.dropped = True
        self.streams.remove(stream)
        self.hub.wake(stream.slug)  # it is waiting for a change: wake it to end


def gate() -> StreamGate:
    # (the app behind the proxy: Flask types current_app as the app itself)
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    existing: StreamGate | None = app.extensions.get("card_table_stream_gate")
    if existing is None:
        existing = app.extensions["card_table_stream_gate"] = StreamGate(app.config, live.hub())
    return existing


def browser_id() -> str | None:
    secret = session.get("csrf_token")
    return hashlib.sha256(secret.encode()).hexdigest()[:16] if isinstance(secret, str) else None


REFUSED = "Too many live streams from this device or to this table: the page refreshes itself every few seconds instead.\n"
# A dropped stream's browser waits this long before it tries again (meanwhile its page polls).
DROPPED_RETRY_MS = 30000


def known_version() -> int | None:
    """The version the browser last saw: ``Last-Event-ID`` (an EventSource reconnecting after
    events) if it has one, else ``v`` (the version the page was made with)."""
    last = request.headers.get("Last-Event-ID", "")
    if last.isdigit() and len(last) < 19:
        return int(last)
    return request.args.get("v", type=int)


@bp.get("/games/<slug>/events")
def stream(slug: str) -> Response:
    if not live.valid_slug(slug):
        abort(404)
    # A browser without a key holds no seat anywhere: it is admitted (or refused) before any
    # query, so a flood of streams costs no database connection. A browser with a key is asked
    # whether it holds a seat here (its cookie may say; else one query): a player's stream makes
    # a stranger's give way where a limit is reached.
    address, browser = client_address(), browser_id()
    looker = identity.looker()
    ticket = gate().admit(address, slug, browser)
    if looker.holder.key is not None:
        try:
            seated = tables.held(slug, looker).at_table
        except BaseException:
            if ticket is not None:
                gate().release(ticket)
            raise
        if ticket is not None:
            ticket.seated = seated
        elif seated:
            ticket = gate().admit(address, slug, browser, seated=True)
    if ticket is None:  # the page polls (its hx-trigger has "every 5s"); the SSE extension retries later
        response = Response(REFUSED, status=429, mimetype="text/plain",
                            headers={"Retry-After": "30", "Cache-Control": "no-store"})
        return close_connection_after(response)
    doors = gate()
    news = live.hub()
    # Subscribed before the version is read: a change committed after the read is heard, not lost.
    channel = news.subscribe(slug, 0)
    heard = channel.heard  # the announcements it sends are those heard from now on
    done = threading.Event()

    def finish() -> None:  # once, whether the stream ran or not
        if not done.is_set():
            done.set()
            news.unsubscribe(slug)
            doors.release(ticket)

    try:
        version = tables.version_of(slug)
    except BaseException:
        finish()
        raise
    if version is None:
        finish()
        abort(404)
    news.catch_up([(slug, version)])
    # If the game has moved on since the version the browser saw, say so at once.
    known = known_version()
    tables.let_go_of_the_database()  # not held for the life of the stream
    keepalive = current_app.config["EVENTS_KEEPALIVE_SECONDS"]
    lifetime = current_app.config["EVENTS_MAX_SECONDS"]

    def changed(version: int) -> str:
        return f"id: {version}\nevent: changed\ndata: {version}\n\n"

    def events() -> Iterator[str]:
        nonlocal known, heard
        try:
            yield "retry: 1000\n\n"  # reconnect after a second if the stream drops
            version = channel.version
            if known != version:
                yield changed(version)
            known = version
            ends = time.monotonic() + lifetime
            while time.monotonic() < ends:
                update = news.wait(channel, known, heard, min(keepalive, max(0.0, ends - time.monotonic())), ticket)
                if ticket.dropped:
                    yield f"retry: {DROPPED_RETRY_MS}\n\n"
                    return
                if update is None:
                    yield ": keep-alive\n\n"
                    continue
                version, announced, heard = update
                ticket.last_change = time.monotonic()
                if version != known:
                    known = version
                    yield changed(version)
                for name, data in announced:
                    yield f"event: {name}\ndata: {data}\n\n"
        finally:
            finish()

    response = Response(events(), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
    response.call_on_close(finish)  # even if the stream never started
    return response
