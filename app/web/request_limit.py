"""A flood of cheap requests from one device is answered 429 before it reaches the app.

Each client address has a token bucket in each worker process: ``REQUESTS_BURST`` requests at
once, and ``REQUESTS_PER_MINUTE`` more a minute after that. Pages, fragments, live refreshes and
actions take a token; static files and the live-update stream take none (the streams have their
own limits, app/web/events.py). Real play is far below it: a person makes a move or two a second
at most, a table's refresh comes every few seconds, and the burst holds a page with its fragments
and a few tabs opened at once. Devices of a classroom each have their own address on the LAN, so
each has its own bucket; behind the documented reverse proxy the address is the one it forwards
(``TRUSTED_PROXIES``: ProxyFix sits outside this middleware).

It is WSGI middleware around the Flask app, so a refusal costs a dictionary look-up and a short
answer: no request context, no session, no route, no query. The buckets live in each worker's
memory (a refusal never writes, and with ``WORKERS=2`` a device's share is at most twice the
setting). A refusal is answered after ``REQUEST_REFUSAL_PAUSE`` seconds: a client that loops with
no pause then gets one refusal a second per connection, instead of keeping the workers busy with
refusals as fast as they can answer. Under gevent the pause is a timer, which holds no worker.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

from markupsafe import escape

MESSAGE = ("This device is sending requests faster than the table can answer everybody. "
           "Wait {wait} and try again; nothing was changed.")
# Answers that take no token: assets (cached by the browser for a year), and a table's live-update
# stream (/games/<id>/events), which its own per-address limits guard (it stays open: one request
# a visit).
# Placeholders in the bodies rendered once, filled per refusal.
WAIT, AGAIN = "\x00wait\x00", "\x00again\x00"


class Buckets:
    """A token bucket per key: ``burst`` tokens at most, ``per_minute`` back a minute. Keys whose
    bucket is full again are forgotten when many are kept (at most once a second), so memory
    follows the devices seen lately, not all devices ever."""

    KEPT = 4096

    def __init__(self, per_minute: float, burst: float):
        self.rate = per_minute / 60.0
        self.burst = max(1.0, burst)
        self.full_after = self.burst / self.rate
        self.buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens left, when counted)
        self.swept = 0.0
        self.lock = threading.Lock()  # (gevent never switches inside; real threads in tests might)

    def take(self, key: str, now: float | None = None) -> float:
        """Take a token for ``key``: 0.0 if there was one, else the seconds until there is."""
        now = time.monotonic() if now is None else now
        with self.lock:
            tokens, then = self.buckets.get(key, (self.burst, now))
            tokens = min(self.burst, tokens + (now - then) * self.rate)
            if tokens < 1.0:
                self.buckets[key] = (tokens, now)
                return (1.0 - tokens) / self.rate
            self.buckets[key] = (tokens - 1.0, now)
            if len(self.buckets) > self.KEPT and now - self.swept >= 1.0:
                self.swept = now
                for old in [k for k, (_tokens, when) in self.buckets.items() if now - when >= self.full_after]:
                    del self.buckets[old]
            return 0.0


def limited(path: str) -> bool:
    if path.startswith("/static/"):
        return False
    return not (path.startswith("/games/") and path.endswith("/events") and path.count("/") == 3)


def in_words(seconds: int) -> str:
    return "a second" if seconds <= 1 else f"{seconds} seconds"


class RequestLimit:
    """WSGI middleware: ``wsgi_app`` behind a per-address request limit (see the module)."""

    def __init__(self, wsgi_app: Callable, flask_app, per_minute: float, burst: float, pause: float):
        self.wsgi_app = wsgi_app
        self.flask_app = flask_app
        self.buckets = Buckets(per_minute, burst)
        self.pause = max(0.0, pause)
        self.bodies: dict[bool, str] = {}

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        if not limited(environ.get("PATH_INFO", "")):
            return self.wsgi_app(environ, start_response)
        wait = self.buckets.take((environ.get("REMOTE_ADDR") or "unknown")[:64])
        if not wait:
            return self.wsgi_app(environ, start_response)
        if self.pause:
            time.sleep(self.pause)  # (gevent: a timer; the worker answers others meanwhile)
            wait = max(0.0, wait - self.pause)
        return self.refuse(environ, start_response, max(1, math.ceil(wait)))

    def refuse(self, environ: dict, start_response: Callable, seconds: int) -> Iterable[bytes]:
        htmx = environ.get("HTTP_HX_REQUEST") == "true" and environ.get("HTTP_HX_BOOSTED") != "true"
        body = self.bodies.get(htmx)
        if body is None:
            body = self.bodies[htmx] = self.render(htmx)
        again = self.again(environ, htmx)
        data = body.replace(WAIT, in_words(seconds)).replace(AGAIN, str(escape(again))).encode()
        from . import CONTENT_SECURITY_POLICY

        start_response("429 Too Many Requests", [
            ("Content-Type", "text/html; charset=utf-8"), ("Content-Length", str(len(data))),
            ("Retry-After", str(seconds)), ("Cache-Control", "no-store"), ("Vary", "HX-Request"),
            ("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY"),
            ("Referrer-Policy", "same-origin"), ("Content-Security-Policy", CONTENT_SECURITY_POLICY)])
        return [data]

    @staticmethod
    def again(environ: dict, htmx: bool) -> str:
        """Where "Try again" leads: the page the request came from (htmx says it) or the page
        asked for (a plain GET); Menu A otherwise (a form's post is not sent again by a link)."""
        if htmx:
            parts = urlsplit(environ.get("HTTP_HX_CURRENT_URL", ""))
            target = parts.path + (f"?{parts.query}" if parts.query else "")
        elif environ.get("REQUEST_METHOD") == "GET":
            query = environ.get("QUERY_STRING", "")
            target = environ.get("PATH_INFO", "") + (f"?{query}" if query else "")
        else:
            target = "/"
        from .input_checks import local_path

        return local_path(target) or "/"

    def render(self, htmx: bool) -> str:
        """The page (or, to htmx, its fragment), rendered once with placeholders."""
        from flask import render_template

        with self.flask_app.test_request_context("/"):
            return render_template("errors/_too_many.html" if htmx else "errors/too_many.html",
                                   message=MESSAGE.format(wait=WAIT), again=AGAIN)


def install(flask_app) -> None:
    """Put the limit in front of ``flask_app`` unless ``REQUESTS_PER_MINUTE`` or
    ``REQUESTS_BURST`` is 0 (off)."""
    config = flask_app.config
    per_minute, burst = float(config["REQUESTS_PER_MINUTE"]), float(config["REQUESTS_BURST"])
    if per_minute > 0 and burst > 0:
        flask_app.wsgi_app = RequestLimit(flask_app.wsgi_app, flask_app, per_minute, burst,
                                          float(config["REQUEST_REFUSAL_PAUSE"]))
