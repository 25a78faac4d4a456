"""The one HTTP client of the live tests and the benchmarks: browsers talking to a real server.

- ``Browser``: one browser, with its own cookie jar (the session cookie holds its seat tokens and
  CSRF secret), the CSRF token read from a page as a form would, plain or htmx requests
  (``HX-Request``: the #table fragment comes back), redirects followed like a browser on request
  (``follow``, ``go``). By default every request has a connection of its own; ``keep_alive``
  keeps one open (what browsers do, and cheaper for the benchmarks' client); ``compressed`` asks
  for compressed answers as browsers do (``Accept-Encoding``) and decodes them. ``prepare`` opens a
  connection and readies a request whose ``fire`` only sends it, so that threads released
  together by a barrier really send at the same moment.
- ``EventStream``: one browser's open event stream (/games/<slug>/events), read in a thread.

Plain ``http.client``: the client costs little CPU, and nothing is hidden between the test and
the server.
"""

from __future__ import annotations

import gzip
import http.client
import queue
import socket
import threading
import time
import urllib.parse
import zlib
from http.cookies import CookieError, SimpleCookie

import brotli

from support.pages import Page
from support.web import setup_forms

REDIRECTS = (301, 302, 303, 307, 308)
# What a browser asks for (Chromium's header, less zstd, which the table does not use).
BROWSER_ENCODINGS = "gzip, deflate, br"


def decoded(encoding: str, data: bytes) -> str:
    """An answer's body as text, uncompressed as its Content-Encoding (``encoding``) says."""
    if encoding == "br":
        data = brotli.decompress(data)
    elif encoding == "gzip":
        data = gzip.decompress(data)
    elif encoding == "deflate":
        data = zlib.decompress(data)
    elif encoding:
        raise ValueError(f"an answer in {encoding!r}, which no request asked for")
    return data.decode("utf-8", "replace")


class Response:
    """An answer: ``status``, ``headers`` (case-insensitive), ``body`` (text), ``seconds`` from
    sending the request to having read the whole answer, and ``url``, the path asked for (after
    ``follow``: the path it ended on)."""

    __slots__ = ("status", "headers", "body", "seconds", "url", "_page")

    def __init__(self, status: int, headers, body: str, seconds: float = 0.0, url: str = ""):
        self.status, self.headers, self.body, self.seconds, self.url = status, headers, body, seconds, url
        self._page = None

    @property
    def page(self) -> Page:
        if self._page is None:
            self._page = Page(self.body)
        return self._page

    @property
    def table_version(self) -> int | None:
        return self.page.table_version

    @property
    def location(self) -> str | None:
        return self.headers.get("Location")

    def __repr__(self) -> str:
        return f"<Response {self.status} {self.url}>"


def encode_form(form) -> bytes:
    """A form (a dict or (name, value) pairs; a list value gives the field once per item) as
    application/x-www-form-urlencoded."""
    items = list(form.items()) if isinstance(form, dict) else list(form or [])
    fields = []
    for name, value in items:
        if isinstance(value, (list, tuple)):
            fields.extend((name, item) for item in value)
        elif value is not None:
            fields.append((name, value))
    return urllib.parse.urlencode(fields).encode()


class PreparedRequest:
    """A request whose connection is open and whose bytes are ready: ``fire`` only sends them."""

    def __init__(self, browser: "Browser", method: str, path: str, body: bytes | None, headers: dict):
        self.browser = browser
        self.connection = browser.new_connection()
        self.connection.connect()
        self.method, self.path, self.body, self.headers = method, path, body, headers

    def fire(self) -> Response:
        try:
            started = time.perf_counter()
            self.connection.request(self.method, self.path, body=self.body, headers=self.headers)
            answer = self.connection.getresponse()
            body = decoded(answer.getheader("Content-Encoding", ""), answer.read())
            seconds = time.perf_counter() - started
            self.browser.store_cookies(answer.msg.get_all("Set-Cookie") or [])
            return Response(answer.status, answer.msg, body, seconds, self.path)
        finally:
            self.connection.close()


class Browser:
    """One browser (one cookie jar) talking HTTP to a live server, posting forms like its pages.
    ``source``: the client address to connect from (any 127.x.y.z on loopback: another device, as
    the server's per-address limits see it)."""

    IDLE_REUSE = 3.0  # gunicorn closes idle keep-alive connections after 5 s

    def __init__(self, base_url: str, name: str = "browser", *, timeout: float = 60.0, keep_alive: bool = False,
                 source: str | None = None, compressed: bool = False):
        parsed = urllib.parse.urlsplit(base_url)
        self.base_url = base_url
        self.host, self.port = parsed.hostname, parsed.port
        self.name = name
        self.timeout = timeout
        self.keep_alive = keep_alive
        self.source = source
        self.compressed = compressed
        self.cookies: dict[str, str] = {}
        self._csrf: str | None = None
        self.connection: http.client.HTTPConnection | None = None
        self.last_used = 0.0

    # -- cookies and the CSRF token ------------------------------------------------------------------

    def store_cookies(self, set_cookies: list[str]) -> None:
        """Keep the cookies a response set; drop those it deleted (expired or emptied)."""
        for header in set_cookies:
            jar = SimpleCookie()
            try:
                jar.load(header)
            except CookieError:
                continue
            for name, morsel in jar.items():
                if morsel["max-age"] == "0" or morsel.value == "" or "1970" in morsel["expires"]:
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value

    def csrf_token(self) -> str:
        """The CSRF token, read from Menu A's form (/mason/) the first time (which also starts the session)."""
        if self._csrf is None:
            self._csrf = Page(self.get("/menus/mason").body).value("csrf_token")
        return self._csrf

    def forget_csrf(self) -> None:
        """After Quit the session (and its token) is new: read it again from the next page."""
        self._csrf = None

    # -- requests ------------------------------------------------------------------------------------

    def _headers(self, htmx: bool) -> dict:
        headers = {"Host": f"{self.host}:{self.port}"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if htmx:
            headers["HX-Request"] = "true"
        if not self.keep_alive:
            headers["Connection"] = "close"
        if self.compressed:
            headers["Accept-Encoding"] = BROWSER_ENCODINGS
        return headers

    def _encode(self, method: str, form, csrf: bool, headers: dict) -> bytes | None:
        if method != "POST":
            return None
        fields = list(form.items()) if isinstance(form, dict) else list(form or [])
        if csrf and not any(name == "csrf_token" for name, _value in fields):
            fields.append(("csrf_token", self.csrf_token()))
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        return encode_form(fields)

    def prepare(self, method: str, path: str, form=None, htmx: bool = False, csrf: bool = True) -> PreparedRequest:
        if method == "POST" and csrf:
            self.csrf_token()  # first, so that the session cookie it comes with is sent below
        headers = self._headers(htmx)
        body = self._encode(method, form, csrf, headers)
        if body is not None:
            headers["Content-Length"] = str(len(body))
        return PreparedRequest(self, method, path, body, headers)

    def _connection(self) -> http.client.HTTPConnection:
        if self.connection is not None and time.monotonic() - self.last_used > self.IDLE_REUSE:
            self.close()
        if self.connection is None:
            self.connection = self.new_connection()
        return self.connection

    def new_connection(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(self.host, self.port, timeout=self.timeout,
                                          source_address=(self.source, 0) if self.source else None)

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None

    def request(self, method: str, path: str, form=None, htmx: bool = False, csrf: bool = True) -> Response:
        """One request (no redirect followed). A POST sends ``form`` with the CSRF token (unless
        ``csrf`` is False or the form has one)."""
        if not self.keep_alive:
            return self.prepare(method, path, form, htmx, csrf).fire()
        if method == "POST" and csrf:
            self.csrf_token()
        headers = self._headers(htmx)
        body = self._encode(method, form, csrf, headers)
        for attempt in (1, 2):
            reused = self.connection is not None
            connection = self._connection()
            started = time.perf_counter()
            try:
                connection.request(method, path, body=body, headers=headers)
                answer = connection.getresponse()
                data = answer.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.close()
                if attempt == 2 or not reused:
                    raise
                continue  # the server closed an idle keep-alive connection: nothing was done
            seconds = time.perf_counter() - started
            self.last_used = time.monotonic()
            if answer.will_close:
                self.close()
            self.store_cookies(answer.msg.get_all("Set-Cookie") or [])
            return Response(answer.status, answer.msg, decoded(answer.getheader("Content-Encoding", ""), data),
                            seconds, path)
        raise AssertionError("unreachable")

    def get(self, path: str, htmx: bool = False) -> Response:
        return self.request("GET", path, htmx=htmx)

    def post(self, path: str, form=None, htmx: bool = False, csrf: bool = True) -> Response:
        return self.request("POST", path, form or {}, htmx=htmx, csrf=csrf)

    def upload(self, path: str, field: str, filename: str, data: bytes, form: dict | None = None) -> Response:
        """POST a file as a page's upload form does (multipart/form-data, with the CSRF token and
        ``form``'s other fields); no redirect followed."""
        boundary = "card-table-upload-boundary"
        parts = []
        for name, value in {"csrf_token": self.csrf_token(), **(form or {})}.items():
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{field}"; filename="{filename}"\r\n'
                     f"Content-Type: application/octet-stream\r\n\r\n".encode() + data + b"\r\n")
        parts.append(f"--{boundary}--\r\n".encode())
        body = b"".join(parts)
        headers = self._headers(False)
        headers.update({"Content-Type": f"multipart/form-data; boundary={boundary}", "Content-Length": str(len(body))})
        return PreparedRequest(self, "POST", path, body, headers).fire()

    def follow(self, path: str, form=None, htmx: bool = False) -> Response:
        """A page visit (``form`` None) or a form post, then its redirects, like a browser; the
        answer's ``url`` is the path it ended on."""
        answer = self.request("GET" if form is None else "POST", path, form, htmx=htmx)
        for _ in range(5):
            if answer.status not in REDIRECTS:
                break
            path = urllib.parse.urlsplit(answer.headers["Location"]).path
            answer = self.get(path, htmx=htmx)
        answer.url = path
        return answer

    def go(self, path: str, form=None) -> tuple[str, str]:
        """``follow`` that must end on a 200: (final path, body)."""
        answer = self.follow(path, form)
        if answer.status != 200:
            raise RuntimeError(f"{self.name}: {answer.url} answered {answer.status}:\n{answer.body[:1500]}")
        return answer.url, answer.body

    def fetch(self, path: str, htmx: bool = True) -> Response:
        """A GET that must answer 200 (by default an htmx one: the #table fragment)."""
        answer = self.get(path, htmx=htmx)
        if answer.status != 200:
            raise RuntimeError(f"{self.name}: {path} answered {answer.status}:\n{answer.body[:1500]}")
        return answer

    # -- the card table ----------------------------------------------------------------------------------

    def start_game(self, names: list[str], deck: str | None = None, devices: list[str] | None = None) -> str:
        """Mason Rummy through Menu A (2 or 3 players; with ``deck``, the stacked-deck option and
        the deck prompt), then Menu B for every seat: a new player's name and device ("here" or
        "own"). Returns the game's slug."""
        response = None
        for path, form in setup_forms(names, deck, devices):
            response = self.post(path, form)
            assert response.status == 303, response.page.alerts or response.body[:500]
        location = response.headers["Location"]
        assert "/games/" in location, location
        return location.rstrip("/").rsplit("/", 1)[1]

    def join_codes(self, slug: str) -> list[str]:
        """The join codes the table page shows this browser (the host's seats panel)."""
        return self.fetch(f"/games/{slug}", htmx=False).page.join_codes

    def claim(self, code: str) -> Response:
        """POST /join with a seat's code (no redirect followed)."""
        return self.post("/join", {"code": code})

    def table(self, slug: str) -> Response:
        """The table fragment as a live refresh fetches it."""
        return self.get(f"/games/{slug}/table", htmx=True)

    @staticmethod
    def act_form(version: int | None, seat: int | None, action: str, cards=()) -> list:
        """The table form for a move by its action name (the fields a page's button posts)."""
        form = [("action", action), ("version", "" if version is None else str(version)),
                ("seat", "" if seat is None else str(seat))]
        form.extend(("cards", code) for code in cards)
        return form

    def act(self, slug: str, choice, version: int | None, htmx: bool = True) -> Response:
        """Post a ``support.moves.Choice`` through the table form made on ``version``."""
        return self.post(f"/games/{slug}/act", choice.form(version), htmx=htmx)

    def stream(self, slug: str, since: int | None = None, **options) -> "EventStream":
        """This browser's event stream of a table (with its cookies, from its address)."""
        return EventStream(self.base_url, slug, since=since, cookies=self.cookies, source=self.source, **options)


class EventStream:
    """One browser's open event stream (/games/<slug>/events, as the table page keeps it), read
    in a thread.

    ``since``: the version the page shows (``?v=``; None: not sent, and the server announces its
    current version at once). ``ready`` is set once the server has subscribed the stream (its
    ``retry:`` line); ``status`` and ``headers`` are its answer's. Every line is kept in
    ``lines``; each ``changed`` event goes to ``changed(version, at)`` (``at``: its arrival,
    ``time.monotonic()``), which by default queues it for ``next_version``/``wait_for``; ``count``
    counts them. ``reconnect``: open the stream again whenever the server ends it (as
    EventSource does), ``reconnects`` counting how often. ``source``: the client address to
    connect from (as ``Browser``'s)."""

    def __init__(self, base_url: str, slug: str, since: int | None = None, cookies: dict | None = None,
                 reconnect: bool = False, timeout: float = 30.0, source: str | None = None):
        parsed = urllib.parse.urlsplit(base_url)
        self.host, self.port = parsed.hostname, parsed.port
        self.slug, self.cookies, self.latest = slug, cookies, since
        self.reconnect, self.timeout, self.source = reconnect, timeout, source
        self.lines: list[str] = []
        self.events: queue.Queue = queue.Queue()
        self.announced: queue.Queue = queue.Queue()  # (event, data) of every other event
        self.count = 0
        self.reconnects = -1
        self.status: int | None = None
        self.headers = None
        self.stopping = False
        self.ready = threading.Event()
        self.connection: http.client.HTTPConnection | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def changed(self, version: int, at: float) -> None:
        """A ``changed`` event for ``version`` arrived at ``at`` (a subclass may record it)."""
        self.events.put((version, at))

    def _run(self) -> None:
        while not self.stopping:
            self.reconnects += 1
            try:
                self._read_once()
            except (OSError, ValueError, AttributeError, http.client.HTTPException):
                pass  # hung up by close(), or the connection failed
            if not self.reconnect or self.stopping:
                return
            time.sleep(0.1)

    def _read_once(self) -> None:
        self.connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout,
                                                     source_address=(self.source, 0) if self.source else None)
        headers = {"Accept": "text/event-stream"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        query = "" if self.latest is None else f"?v={self.latest}"
        self.connection.request("GET", f"/games/{self.slug}/events{query}", headers=headers)
        response = self.connection.getresponse()
        self.status, self.headers = response.status, response.msg
        event = None
        while not self.stopping:
            raw = response.readline()
            if not raw:
                return
            now = time.monotonic()
            line = raw.decode().rstrip("\r\n")
            self.lines.append(line)
            if line.startswith("retry:"):
                self.ready.set()
            elif line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == "changed":
                self.count += 1
                self.changed(int(line[6:]), now)
                event = None
            elif line.startswith("data: ") and event is not None:
                self.announced.put((event, line[6:]))
                event = None

    def next_version(self, timeout: float = 15.0) -> int:
        """The version of the next ``changed`` event (AssertionError if none comes in time)."""
        try:
            return self.events.get(timeout=timeout)[0]
        except queue.Empty:
            raise AssertionError(f"no 'changed' event within {timeout}s; lines so far: {self.lines}") from None

    def next_announcement(self, timeout: float = 15.0) -> tuple[str, str]:
        """(event, data) of the next event that is not ``changed`` (AssertionError if none comes)."""
        try:
            return self.announced.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no announcement within {timeout}s; lines so far: {self.lines}") from None

    def wait_for(self, version: int, timeout: float = 15.0) -> None:
        """Events may coalesce (the stream sends the latest version), so older ones are skipped."""
        while (seen := self.next_version(timeout)) < version:
            pass
        assert seen == version, (seen, version)

    def close(self) -> None:
        """Hang up: shut the socket so the reader's readline returns, then wait for the thread."""
        self.stopping = True
        connection = self.connection
        if connection is not None and connection.sock is not None:
            try:
                connection.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self.thread.join(self.timeout)
        if connection is not None:
            connection.close()
