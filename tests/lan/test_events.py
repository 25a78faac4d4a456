"""Live updates: the Server-Sent Events stream of a table says "changed" with
the new version whenever the game changes - across the server's worker processes, since it
watches the version in the database - and carries nothing else (no card, ever); the table
fragment answers 204 to ``?since=V`` while nothing changed (the polling fallback).

The stream tests run against the real server (gunicorn, gevent, 2 workers) with raw HTTP
clients: browsers with their own cookie jars, and stream readers in threads.
"""

from __future__ import annotations

import re
import selectors
import socket
import time

import pytest
from support.client import Browser, EventStream
from support.pages import Page

CODE_TOKEN = re.compile(r"(?<![A-Za-z0-9])[2-9TJQKA][CDHSP](?![A-Za-z0-9])")
STREAM_LINE = re.compile(r"^(retry: \d+|id: \d+|event: changed|data: \d+|: keep-alive|)$")
WAIT = 15.0  # seconds to wait for an event before calling it lost (not a speed target)


def current_version(browser: Browser, slug: str) -> int:
    return browser.fetch(f"/games/{slug}", htmx=False).table_version


def act(browser: Browser, slug: str, action: str, cards=(), *, version: int, seat: int) -> tuple[int, str]:
    """Post a table form by its action name; (status, body)."""
    response = browser.post(f"/games/{slug}/act", Browser.act_form(version, seat, action, cards), htmx=True)
    return response.status, response.body


def open_stream(base: str, slug: str, version: int) -> EventStream:
    stream = EventStream(base, slug, since=version, timeout=WAIT * 2)
    assert stream.ready.wait(WAIT), "the stream never started"
    return stream


def live_table(base: str) -> tuple[str, Browser, Browser]:
    """Through the real forms: a host sets up a stacked 2-player game with both seats on own
    devices; Ann and Bob join with the codes shown on the host's table."""
    host = Browser(base)
    slug = host.start_game(["Ann", "Bob"], "ai_showcase.deck", ["own", "own"])
    codes = host.join_codes(slug)
    assert len(codes) == 2
    ann, bob = Browser(base), Browser(base)
    for browser, code in ((ann, codes[0]), (bob, codes[1])):
        joined = browser.follow("/join", {"code": code})
        assert joined.status == 200 and joined.url == f"/games/{slug}", joined.url
    return slug, ann, bob


@pytest.mark.slow
def test_the_event_stream_on_the_real_server(live_server):
    """R4.4, on gunicorn with 2 gevent workers (one server start for all of it,
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
    readers = [open_stream(base, slug, version) for _ in range(4)]
    try:
        for reader in readers:
            assert reader.status == 200
            assert reader.headers["Content-Type"].startswith("text/event-stream")
            assert reader.headers["Cache-Control"] == "no-store"
        status, body = act(ann, slug, "draw_stock", version=version, seat=0)
        assert status == 200, Page(body).alerts
        for reader in readers:
            reader.wait_for(version + 1)
        drawn = re.search(r'class="card [^"]*drawn" data-card="(..)"', body).group(1)
        status, body = act(ann, slug, "discard", [drawn], version=version + 1, seat=0)
        assert status == 200, Page(body).alerts
        for reader in readers:
            reader.wait_for(version + 2)
        # Bob's browser, woken by the event, fetches the fragment it may see: his turn now
        assert "Your turn, Bob: draw a card" in bob.get(f"/games/{slug}/table?since={version}", htmx=True).body

        # 2. refused actions change nothing and send nothing
        version += 2
        assert act(ann, slug, "draw_stock", version=version, seat=0)[0] == 409  # out of turn
        assert act(bob, slug, "draw_stock", version=version - 1, seat=1)[0] == 409  # stale
        assert act(ann, slug, "draw_stock", version=version, seat=1)[0] == 403  # not her seat
        assert current_version(ann, slug) == version
        assert all(reader.events.empty() for reader in readers)
        assert act(bob, slug, "draw_stock", version=version, seat=1)[0] == 200
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
    late = open_stream(base, slug, version - 2)
    try:
        assert late.next_version() == version + 1
    finally:
        late.close()

    # 4. no such game
    assert Browser(base).get("/games/nosuchgame/events?v=1").status == 404


@pytest.mark.slow
def test_a_change_wakes_the_streams_of_every_worker_without_waiting_for_a_poll(make_live_server):
    """With several worker processes: a commit in one worker rings the doorbell
    of every worker's watcher (app/web/events.py), so events do not wait for the poll. With the
    poll interval set to two minutes, streams spread over both workers still get the event."""
    server = make_live_server(workers=2, EVENTS_POLL_SECONDS=120)
    slug, ann, _bob = live_table(server.url)
    version = current_version(ann, slug)
    readers = [open_stream(server.url, slug, version) for _ in range(6)]
    try:
        assert act(ann, slug, "draw_stock", version=version, seat=0)[0] == 200
        for reader in readers:
            assert reader.next_version() == version + 1
    finally:
        for reader in readers:
            reader.close()


def first_to_arrive(stream: socket.socket, request) -> tuple[str, str]:
    """Send ``request`` (a ``PreparedRequest``: a move) and watch its connection and ``stream``
    (a raw event stream, nothing unread): which brought bytes first, "event" (a ``changed`` event)
    or "answer", or "both" if both were there at once; and the answer's body."""
    stream.setblocking(False)
    request.connection.request(request.method, request.path, body=request.body, headers=request.headers)
    selector = selectors.DefaultSelector()
    selector.register(stream, selectors.EVENT_READ, "event")
    selector.register(request.connection.sock, selectors.EVENT_READ, "answer")
    first, heard = "", b""
    deadline = time.monotonic() + WAIT
    try:
        while not first and time.monotonic() < deadline:
            ready = {key.data for key, _ in selector.select(timeout=deadline - time.monotonic())}
            if "event" in ready:
                heard += stream.recv(65536)
                if b"event: changed" not in heard:  # a keep-alive comment: not the news
                    ready.discard("event")
            first = "both" if ready == {"event", "answer"} else ready.pop() if ready else ""
    finally:
        selector.close()
    answer = request.connection.getresponse()
    body = answer.read().decode()
    request.connection.close()
    while b"event: changed" not in heard:  # the event came after the answer: read it now
        stream.setblocking(True)
        stream.settimeout(WAIT)
        heard += stream.recv(65536)
    return first, body


@pytest.mark.slow
def test_a_move_reaches_the_streams_of_its_own_worker_before_its_answer(make_live_server):
    """The streams a move wakes in the worker that stored it send the news before that worker
    renders the mover's answer: the other players see the move once it is stored, not once the
    mover's page is drawn. One worker, so that every stream is its; moves (draw, discard the card
    drawn) until the event was seen alone first three times, or 60 moves. The answer alone first
    would mean the streams waited for the answer; "both" is a client that looked too late to tell
    (on a busy machine most looks are: the test then needs the event seen alone first once)."""
    server = make_live_server(workers=1)
    slug, ann, bob = live_table(server.url)
    version = current_version(ann, slug)
    seen = []
    stream = socket.create_connection(("127.0.0.1", server.port), timeout=WAIT)
    try:
        stream.sendall(f"GET /games/{slug}/events?v={version} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                       "Accept: text/event-stream\r\n\r\n".encode())
        assert stream.recv(65536).startswith(b"HTTP/1.1 200")
        player, seat, drawn = ann, 0, None
        while seen.count("event") < 3 and len(seen) < 60:
            form = Browser.act_form(version, seat, "discard" if drawn else "draw_stock", [drawn] if drawn else [])
            first, body = first_to_arrive(stream, player.prepare("POST", f"/games/{slug}/act", form, htmx=True))
            seen.append(first)
            assert 'data-version="{}"'.format(version + 1) in body, Page(body).alerts
            version += 1
            if drawn:
                player, seat, drawn = (bob, 1, None) if seat == 0 else (ann, 0, None)
            else:
                drawn = re.search(r'class="card [^"]*drawn" data-card="(..)"', body).group(1)
    finally:
        stream.close()
    assert "answer" not in seen, seen
    assert "event" in seen, seen


# -- the polling fallback (test client) --------------------------------------------------------


def test_the_fragment_answers_204_while_nothing_changed(make_player):
    """The polling fallback: ?since=V is 204 with no body at version V, and the
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
    assert Page(html).table_version == version + 1
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
    # (with the steps it showed: the server need not count them again; on the stream's news,
    # saying the game changed, so that the server reads it at once)
    table = Page(html)
    assert table.refresh_url == f"/games/{slug}/table?since={version}&steps=0&changed=1"
    assert table.poll_url == f"/games/{slug}/table?since={version}&steps=0"
    assert re.search(r'<script src="/static/js/htmx-ext-sse-[\d.]+\.min\.js\?v=\w+"', html)
    sse = re.search(r'src="(/static/js/htmx-ext-sse-[^"]+)"', html).group(1)
    assert host.get(sse.replace("&amp;", "&")).status_code == 200  # served from static/, not a CDN
