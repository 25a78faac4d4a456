"""Nobody starves the server with event streams.

Each live event stream holds one of a gevent worker's connections (1000 at most) for up to an
hour. Each worker holds at most EVENTS_PER_ADDRESS streams of one client address, EVENTS_PER_GAME
of one game and EVENTS_PER_WORKER in all; a browser's new stream of a table replaces its older
one; a stream idle for EVENTS_IDLE_SECONDS makes room for a new one; a refused stream gets 429 and
its page keeps polling. Against the real server (gunicorn, 2 gevent workers), with raw sockets.
"""

from __future__ import annotations

import selectors
import socket
import statistics
import time

from support.client import Browser
from support.figures import record_figures
from support.sockets import read_all

ATTACK_STREAMS = 2000


def open_stream(port: int, slug: str, source: str = "127.0.0.1", cookies: dict | None = None) -> socket.socket:
    """Send a stream request and leave the connection open (as an idle browser tab would)."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0))
    cookie = f"Cookie: {'; '.join(f'{k}={v}' for k, v in cookies.items())}\r\n" if cookies else ""
    connection.sendall(f"GET /games/{slug}/events?v=1 HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                       f"Accept: text/event-stream\r\n{cookie}\r\n".encode())
    return connection


def statuses(connections: list[socket.socket], timeout: float = 60.0) -> list[int | None]:
    """The HTTP status each connection was answered with (None: no answer within ``timeout``)."""
    found: dict[socket.socket, int | None] = {}
    buffers: dict[socket.socket, bytes] = {c: b"" for c in connections}
    selector = selectors.DefaultSelector()
    for connection in connections:
        connection.setblocking(False)
        selector.register(connection, selectors.EVENT_READ)
    deadline = time.monotonic() + timeout
    while len(found) < len(connections) and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=max(0.0, deadline - time.monotonic())):
            connection = key.fileobj
            try:
                data = connection.recv(4096)
            except (BlockingIOError, InterruptedError):
                continue
            except OSError:
                data = b""
            buffers[connection] += data
            if b"\r\n" in buffers[connection] or not data:
                line = buffers[connection].split(b"\r\n", 1)[0].split()
                found[connection] = int(line[1]) if len(line) > 1 and line[1].isdigit() else None
                selector.unregister(connection)
    selector.close()
    for connection in connections:
        connection.setblocking(True)
    return [found.get(connection) for connection in connections]


def read_until_ended(connection: socket.socket, timeout: float) -> bytes:
    """What the stream sent until it ended (its last chunk, or the connection closed), or with
    ``<still open>`` at the end if it is still streaming after ``timeout``."""
    connection.settimeout(timeout)
    data = b""
    try:
        while not data.endswith(b"\r\n0\r\n\r\n"):
            chunk = connection.recv(4096)
            if not chunk:
                return data
            data += chunk
        return data
    except TimeoutError:
        return data + b"<still open>"


def read_until_closed(connection: socket.socket, timeout: float) -> bool:
    """Whether the server closes the connection within ``timeout`` (what it sent is skipped)."""
    connection.settimeout(timeout)
    try:
        while connection.recv(4096):
            pass
        return True
    except (TimeoutError, BlockingIOError):
        return False
    except OSError:
        return True


def close_all(connections) -> None:
    for connection in connections:
        try:
            connection.close()
        except OSError:
            pass


def menu_a_seconds(server_url: str, source: str, times: int = 5) -> list[float]:
    durations = []
    for _ in range(times):
        browser = Browser(server_url, timeout=10, source=source)
        started = time.perf_counter()
        try:
            response = browser.get("/")
            assert response.status == 200
        except OSError:
            durations.append(float("inf"))
            continue
        durations.append(time.perf_counter() - started)
    return durations


def test_2000_idle_streams_from_one_client_do_not_stop_the_server_answering_others(live_server, database_url):
    """One client (127.0.0.1) opens 2,000 event streams of a public game (as idle as it likes)
    and keeps them open; another client (127.0.0.2) still gets every Menu A it asks for (how fast
    is the benchmarks' to say), and its own streams and polling work. The first client gets at most EVENTS_PER_ADDRESS streams per
    worker; the rest are refused at once with 429 and closed."""
    host = Browser(live_server.url)
    slug = host.start_game(["Ann", "AI"], deck="quick_out.deck")
    started = time.perf_counter()
    attack = []
    for _ in range(ATTACK_STREAMS):
        attack.append(open_stream(live_server.port, slug))
    opened_in = time.perf_counter() - started
    try:
        answers = statuses(attack)
        accepted, refused = answers.count(200), answers.count(429)
        per_worker = 16  # config.Config.EVENTS_PER_ADDRESS
        assert accepted + refused == ATTACK_STREAMS, {status: answers.count(status) for status in set(answers)}
        assert 0 < accepted <= per_worker * live_server.workers, accepted

        # a refused stream's connection is closed at once: it holds none of the worker's connections
        refused_ones = [c for c, status in zip(attack, answers) if status == 429][:20]
        assert all(read_until_closed(c, 2.0) for c in refused_ones)
        durations = menu_a_seconds(live_server.url, "127.0.0.2")
        assert all(duration != float("inf") for duration in durations), durations  # each answered 200
        # the other client's own live updates and polling still work
        other = Browser(live_server.url, source="127.0.0.2")
        own_stream = open_stream(live_server.port, slug, source="127.0.0.2")
        assert statuses([own_stream], timeout=10) == [200]
        own_stream.close()
        version = Browser(live_server.url).table(slug).table_version
        assert other.get(f"/games/{slug}/table?since={version}", htmx=True).status == 204
        # the refused client keeps polling too: pages never depend on a stream
        assert Browser(live_server.url).get(f"/games/{slug}/table?since={version}", htmx=True).status == 204
    finally:
        close_all(attack)
    record_figures(database_url, "event_streams_flood", streams_attempted=ATTACK_STREAMS, accepted=accepted,
                   refused_429=refused, seconds_to_open=round(opened_in, 2),
                   menu_a_ms_other_client=[round(1000 * d, 1) for d in durations],
                   menu_a_median_ms=round(1000 * statistics.median(durations), 1))


def ended(connection: socket.socket) -> bool:
    data = read_until_ended(connection, 0.5)
    return not data.endswith(b"<still open>")


def test_a_browsers_new_stream_replaces_its_old_one_and_idle_streams_make_room(make_live_server):
    """One worker, 2 streams per address, idle after 2 s:
    - a browser's second stream of a table replaces its first, which is told to retry later
      (a reloaded page's old stream may linger until its next keep-alive);
    - a third stream from the address is refused (429) while its two are fresh, and admitted
      once they have been idle for 2 s: the idlest one is closed to make room."""
    server = make_live_server(workers=1, EVENTS_PER_ADDRESS=2, EVENTS_IDLE_SECONDS=2)
    host = Browser(server.url)
    slug = host.start_game(["Ann", "AI"], deck="quick_out.deck")
    other_slug = host.start_game(["Bea", "AI"], deck="quick_out.deck")
    host.get(f"/games/{slug}")  # (the session cookie that names this browser)

    first = open_stream(server.port, slug, cookies=host.cookies)
    assert statuses([first]) == [200]
    second = open_stream(server.port, slug, cookies=host.cookies)  # the same browser, the same table
    assert statuses([second]) == [200]
    data = read_until_ended(first, 5)
    assert b"retry: 30000" in data and not data.endswith(b"<still open>"), data[-200:]
    another = open_stream(server.port, other_slug)  # the address's 2nd stream
    assert statuses([another]) == [200]
    refused = open_stream(server.port, other_slug)
    assert statuses([refused]) == [429]  # 2 per address, both fresh
    time.sleep(2.5)
    admitted = open_stream(server.port, other_slug)
    assert statuses([admitted]) == [200]  # the idlest made room
    assert ended(second) and not ended(another)
    close_all([second, another, refused, admitted])


def test_streams_are_limited_per_game_and_per_worker(make_live_server):
    """One worker, 3 streams per game, 4 in all (none idle yet): the 4th stream of a game and
    the 5th of the worker are refused, each from its own address."""
    server = make_live_server(workers=1, EVENTS_PER_GAME=3, EVENTS_PER_WORKER=4)
    host = Browser(server.url)
    slug = host.start_game(["Ann", "AI"], deck="quick_out.deck")
    other_slug = host.start_game(["Bea", "AI"], deck="quick_out.deck")
    one_game = [open_stream(server.port, slug, source=f"127.0.0.{n}") for n in (21, 22, 23, 24)]
    assert sorted(statuses(one_game)) == [200, 200, 200, 429]  # (in whatever order they are served)
    in_all = [open_stream(server.port, other_slug, source=f"127.0.0.{n}") for n in (31, 32)]
    assert sorted(statuses(in_all)) == [200, 429]
    close_all(one_game + in_all)


def told_to_retry_later(connections: list[socket.socket], seconds: float = 3.0) -> int:
    """How many of the open streams ``connections`` the server ended with "retry later" (a
    stream dropped to make room), reading them all for ``seconds``."""
    received, _closed = read_all(connections, seconds)
    return sum(1 for data in received.values() if b"retry: 30000" in data)


def test_strangers_filling_a_tables_places_never_cut_its_players_off(make_live_server, database_url):
    """16 streams from each of 2 addresses fill a public table's places (32, in the server's one
    worker: with two, which worker takes a connection is the kernel's choice, and the attack took
    16 from each of 8 addresses to fill both); a stranger's next stream is refused. The table's
    own players, on their own devices (the host and a player who joined with a code), still get
    their streams: a stranger's stream gives way to each. A move then reaches both players'
    streams at once. (Before, the players got 429 and polled every 5 s for up to
    EVENTS_IDLE_SECONDS.)"""
    live_server = make_live_server(workers=1)
    host = Browser(live_server.url, "host", source="127.0.0.40")
    slug = host.start_game(["Ann", "Bob"], deck="quick_out.deck", devices=["here", "own"])
    bob = Browser(live_server.url, "Bob", source="127.0.0.41")
    assert bob.claim(host.join_codes(slug)[0]).status == 303
    per_address, per_game = 16, 32  # config.Config's EVENTS_PER_ADDRESS and EVENTS_PER_GAME
    places = per_game * live_server.workers
    strangers = [open_stream(live_server.port, slug, source=f"127.0.0.{50 + n}")
                 for n in range(places // per_address) for _ in range(per_address)]
    players = []
    try:
        answers = statuses(strangers)
        assert answers.count(200) == places, {status: answers.count(status) for status in set(answers)}
        one_more = open_stream(live_server.port, slug, source="127.0.0.70")
        strangers.append(one_more)
        assert statuses([one_more]) == [429]  # every place is taken: a stranger is refused
        version = host.table(slug).table_version
        for player in (host, bob):
            stream = player.stream(slug, since=version)
            players.append(stream)
            assert stream.ready.wait(15), stream.lines
            assert stream.status == 200
        # Ann (on the host's device) moves: both players hear it
        assert host.post(f"/games/{slug}/act", host.act_form(version, 0, "draw_stock"), htmx=True).status == 200
        for stream in players:
            stream.wait_for(version + 1)
        given_way = told_to_retry_later(strangers[:places])
        assert given_way == len(players), given_way  # one stranger's stream for each player's
    finally:
        for stream in players:
            stream.close()
        close_all(strangers)
    record_figures(database_url, "players_first_for_live_places", strangers_admitted=places,
                   stranger_refused_once_full=429, players_admitted=len(players), strangers_given_way=len(players))
