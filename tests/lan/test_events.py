"""Live updates (issue 4, item 3): the Server-Sent Events stream of a table says "changed" with
the new version whenever the game changes - across the server's worker processes, since it
watches the version in the database - and carries nothing else (no card, ever); the table
fragment answers 204 to ``?since=V`` while nothing changed (the polling fallback).

The stream tests run against the real server (gunicorn, gevent, 2 workers) with raw HTTP
clients: browsers with their own cookie jars, and stream readers in threads.
"""

from __future__ import annotations

import http.client
import http.cookiejar
import queue
import re
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from urllib.parse import urlsplit

import pytest

from support.web import Page

CODE_TOKEN = re.compile(r"(?<![A-Za-z0-9])[2-9TJQKA][CDHSP](?![A-Za-z0-9])")
STREAM_LINE = re.compile(r"^(retry: \d+|event: changed|data: \d+|: keep-alive|)$")
JOIN_CODE = re.compile(r'<code class="join-code">([A-Z2-9]+)</code>')
DATA_VERSION = re.compile(r'id="table"[^>]*data-version="(\d+)"')
WAIT = 15.0  # seconds to wait for an event before calling it lost (not a speed target)


class LiveBrowser:
    """One browser against the live server: its own cookie jar, CSRF tokens read from pages."""

    def __init__(self, base: str):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self._csrf = None

    def request(self, path: str, data: dict | None = None, htmx: bool = False) -> tuple[int, str, str]:
        """(status, final URL, body) of a GET, or of a POST when ``data`` is given."""
        headers = {"HX-Request": "true"} if htmx else {}
        body = None
        if data is not None:
            fields = dict(data)
            fields.setdefault("csrf_token", self.csrf())
            body = urllib.parse.urlencode(fields, doseq=True).encode()
        request = urllib.request.Request(self.base + path, data=body, headers=headers)
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.geturl(), response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.geturl(), error.read().decode()

    def csrf(self) -> str:
        if self._csrf is None:
            self._csrf = Page(self.request("/")[2]).value("csrf_token")
        return self._csrf

    def start_game(self, names: list[str], deck: str, devices: list[str]) -> str:
        choice = {2: 4, 3: 5}[len(names)]
        assert self.request("/", {"choice": str(choice)})[0] == 200
        assert self.request("/setup/deck", {"deck": deck})[0] == 200
        for name, device in zip(names, devices):
            status, url, body = self.request("/setup/seat", {"kind": "1", "name": name, "device": device})
            assert status == 200, Page(body).alerts
        assert "/games/" in url
        return url.rstrip("/").rsplit("/", 1)[1]

    def join(self, code: str) -> None:
        status, url, _body = self.request("/join", {"code": code})
        assert status == 200 and "/games/" in url

    def act(self, slug: str, action: str, cards=(), *, version: int, seat: int) -> tuple[int, str]:
        status, _url, body = self.request(f"/games/{slug}/act", {
            "action": action, "cards": list(cards), "version": str(version), "seat": str(seat)}, htmx=True)
        return status, body


class StreamReader:
    """Reads /games/<slug>/events in a thread; keeps every raw line and the (version, time) of
    every ``changed`` event."""

    def __init__(self, base: str, slug: str, version: int):
        parts = urlsplit(base)
        self.connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=WAIT * 2)
        self.connection.request("GET", f"/games/{slug}/events?v={version}", headers={"Accept": "text/event-stream"})
        self.response = self.connection.getresponse()
        self.lines: list[str] = []
        self.events: queue.Queue = queue.Queue()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        assert self.ready.wait(WAIT), "the stream never started"

    def _read(self) -> None:
        event = None
        try:
            while True:
                raw = self.response.readline()
                if not raw:
                    return
                line = raw.decode().rstrip("\r\n")
                self.lines.append(line)
                if line.startswith("retry:"):
                    self.ready.set()
                elif line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: ") and event == "changed":
                    self.events.put((int(line[6:]), time.monotonic()))
                    event = None
        except (OSError, ValueError, AttributeError):  # hung up by close()
            return

    def next_version(self) -> int:
        try:
            return self.events.get(timeout=WAIT)[0]
        except queue.Empty:
            raise AssertionError(f"no 'changed' event within {WAIT}s; lines so far: {self.lines}") from None

    def wait_for(self, version: int) -> None:
        """Events may coalesce (the stream sends the latest version), so skip older ones."""
        while (seen := self.next_version()) < version:
            pass
        assert seen == version

    def close(self) -> None:
        """Hang up: shut the socket so the reader thread's readline returns, then close."""
        sock = self.connection.sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self.thread.join(WAIT)
        self.connection.close()


def current_version(browser: LiveBrowser, slug: str) -> int:
    return int(DATA_VERSION.search(browser.request(f"/games/{slug}")[2]).group(1))


def live_table(base: str) -> tuple[str, LiveBrowser, LiveBrowser]:
    """Through the real forms: a host sets up a stacked 2-player game with both seats on own
    devices; Ann and Bob join with the codes shown on the host's table."""
    host = LiveBrowser(base)
    slug = host.start_game(["Ann", "Bob"], "ai_showcase.deck", ["own", "own"])
    codes = JOIN_CODE.findall(host.request(f"/games/{slug}")[2])
    assert len(codes) == 2
    ann, bob = LiveBrowser(base), LiveBrowser(base)
    ann.join(codes[0])
    bob.join(codes[1])
    return slug, ann, bob


def test_the_event_stream_on_the_real_server(live_server):
    """Issue 4 item 3 / R4.4, on gunicorn with 2 gevent workers (one server start for all of it,
    the machine is slow):

    1. while Ann plays, Bob's and spectators' streams (several, so both worker processes serve
       some) each get `event: changed` with every new version; the stream is text/event-stream,
       uncached, and holds no card code, only versions;
    2. refused actions (out of turn, stale, wrong seat) wake no stream: the next event is the next
       real action's version;
    3. a stream opened on an old version (a reconnecting page, item 4) catches up at once;
    4. the stream of an unknown game is 404.
    """
    base = live_server.url
    slug, ann, bob = live_table(base)
    version = current_version(ann, slug)
    readers = [StreamReader(base, slug, version) for _ in range(4)]
    try:
        for reader in readers:
            assert reader.response.status == 200
            assert reader.response.getheader("Content-Type").startswith("text/event-stream")
            assert reader.response.getheader("Cache-Control") == "no-store"
        status, body = ann.act(slug, "draw_stock", version=version, seat=0)
        assert status == 200, Page(body).alerts
        for reader in readers:
            reader.wait_for(version + 1)
        drawn = re.search(r'class="card [^"]*drawn" data-card="(..)"', body).group(1)
        status, body = ann.act(slug, "discard", [drawn], version=version + 1, seat=0)
        assert status == 200, Page(body).alerts
        for reader in readers:
            reader.wait_for(version + 2)
        # Bob's browser, woken by the event, fetches the fragment it may see: his turn now
        assert "Your turn, Bob: draw a card" in bob.request(f"/games/{slug}/table?since={version}", htmx=True)[2]

        # 2. refused actions change nothing and send nothing
        version += 2
        assert ann.act(slug, "draw_stock", version=version, seat=0)[0] == 409  # out of turn
        assert bob.act(slug, "draw_stock", version=version - 1, seat=1)[0] == 409  # stale
        assert ann.act(slug, "draw_stock", version=version, seat=1)[0] == 403  # not her seat
        assert current_version(ann, slug) == version
        assert all(reader.events.empty() for reader in readers)
        assert bob.act(slug, "draw_stock", version=version, seat=1)[0] == 200
        for reader in readers:
            assert reader.next_version() == version + 1
    finally:
        for reader in readers:
            reader.close()
    for reader in readers:
        text = "\n".join(reader.lines)
        assert not CODE_TOKEN.findall(text), "the stream never names a card"
        assert all(STREAM_LINE.match(line) for line in reader.lines), reader.lines
        assert f"data: {version + 1}" in reader.lines

    # 3. catching up after a reconnect
    late = StreamReader(base, slug, version - 2)
    try:
        assert late.next_version() == version + 1
    finally:
        late.close()

    # 4. no such game
    with pytest.raises(urllib.error.HTTPError) as error:
        urllib.request.urlopen(base + "/games/nosuchgame/events?v=1", timeout=10)
    assert error.value.code == 404


def test_a_change_wakes_the_streams_of_every_worker_without_waiting_for_a_poll(database_url, decks_folder, tmp_path):
    """Issue 4 item 3 with several worker processes: a commit in one worker rings the doorbell
    of every worker's watcher (app/web/events.py), so events do not wait for the poll. With the
    poll interval set to two minutes, streams spread over both workers still get the event."""
    from support.live import LiveServer

    server = LiveServer(tmp_path / "slow-poll", database_url, decks_folder, workers=2,
                        env={"EVENTS_POLL_SECONDS": "120"})
    server.start()
    try:
        slug, ann, _bob = live_table(server.url)
        version = current_version(ann, slug)
        readers = [StreamReader(server.url, slug, version) for _ in range(6)]
        try:
            assert ann.act(slug, "draw_stock", version=version, seat=0)[0] == 200
            for reader in readers:
                assert reader.next_version() == version + 1
        finally:
            for reader in readers:
                reader.close()
    finally:
        server.stop()


# -- the polling fallback (test client) --------------------------------------------------------


def test_the_fragment_answers_204_while_nothing_changed(make_player):
    """Issue 4 item 3 (polling fallback): ?since=V is 204 with no body at version V, and the
    fresh fragment (for this browser) once the game moved on."""
    host = make_player()
    slug = host.start_game(["Ann", "Bob"], deck="quick_out.deck", devices=["here", "own"])
    game, version = host.state(slug)
    spectator = make_player()
    for browser, watch in ((host, ""), (spectator, "&watch=1"), (spectator, "")):
        response = browser.get(f"/games/{slug}/table?since={version}{watch}", htmx=True)
        assert response.status_code == 204 and response.get_data() == b""
    assert host.act(slug, "draw_stock", version=version, seat=0).status_code == 200
    response = host.get(f"/games/{slug}/table?since={version}", htmx=True)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert DATA_VERSION.search(html).group(1) == str(version + 1)
    assert "<html" not in html and len(Page(html).hand) == 11
    response = spectator.get(f"/games/{slug}/table?since={version}&watch=1", htmx=True)
    assert response.status_code == 200 and Page(response.get_data(as_text=True)).hand == []
    assert host.get(f"/games/{slug}/table?since={version + 1}", htmx=True).status_code == 204
    assert host.get("/games/nosuchgame/table?since=1", htmx=True).status_code == 404


def test_every_table_view_polls_and_listens(make_player):
    """The table page connects the sse extension to this table's stream at its version, and the
    fragment it swaps is fetched on `sse:changed` and every few seconds (the fallback)."""
    host = make_player()
    slug = host.start_game(["Ann", "Bob"], deck="quick_out.deck", devices=["here", "own"])
    game, version = host.state(slug)
    html = host.get(f"/games/{slug}").get_data(as_text=True)
    assert 'hx-ext="sse"' in html and f'sse-connect="/games/{slug}/events?v={version}"' in html
    assert f'hx-get="/games/{slug}/table?since={version}"' in html
    assert 'hx-trigger="sse:changed, every 5s"' in html
    assert re.search(r'<script src="/static/js/htmx-ext-sse-[\d.]+\.min\.js\?v=\w+"', html)
    sse = re.search(r'src="(/static/js/htmx-ext-sse-[^"]+)"', html).group(1)
    assert host.get(sse.replace("&amp;", "&")).status_code == 200  # served from static/, not a CDN
