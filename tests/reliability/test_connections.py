"""Slow connections are bounded per device: a worker process holds at most
CONNECTIONS_PER_ADDRESS open connections of one client address (app/serving/workers.py); the
next is answered 429 and closed as soon as it is accepted. Against the real server (gunicorn, 2
gevent workers of 1,000 connections each), with raw sockets from loopback addresses.

How much another device's page is slowed is the benchmark's to say (bench/slow_connections.py):
here, that the flood's connections are refused at once, and the other device is served.
"""

from __future__ import annotations

import socket
import statistics
import time

from support.client import Browser
from support.figures import record_figures
from support.sockets import read_all
from support.waiting import wait_for

HALF_SENT = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow\r\n"  # (the blank line never comes)


def half_sent(port: int, count: int, source: str) -> list[socket.socket]:
    """``count`` connections from ``source``, each with a request whose headers never end."""
    connections = []
    for _ in range(count):
        connection = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0))
        try:
            connection.sendall(HALF_SENT)
        except OSError:  # (refused and closed already)
            pass
        connections.append(connection)
    return connections


def answers(connections: list[socket.socket], seconds: float) -> tuple[int, int, int]:
    """Read every connection for ``seconds``: (answered 429, closed without an answer, still
    open and silent)."""
    received, closed = read_all(connections, seconds)
    refused = sum(1 for data in received.values() if data.startswith(b"HTTP/1.1 429"))
    silent_close = sum(1 for connection in closed if not received[connection])
    still_open = sum(1 for connection in connections if connection not in closed and not received[connection])
    return refused, silent_close, still_open


def close_all(connections: list[socket.socket]) -> None:
    for connection in connections:
        try:
            connection.close()
        except OSError:
            pass


def home_page_status(server_url: str, source: str) -> int | None:
    """The home page's status for a device at ``source`` (None: no answer at all)."""
    try:
        return Browser(server_url, timeout=30, source=source).get("/").status
    except OSError:
        return None


def home_page_seconds(server_url: str, source: str, times: int) -> list[float]:
    durations = []
    for _ in range(times):
        browser = Browser(server_url, timeout=30, source=source)
        started = time.perf_counter()
        assert browser.get("/").status == 200
        durations.append(time.perf_counter() - started)
    return durations


def test_one_address_holds_at_most_its_connections_and_another_device_is_served(live_server, database_url):
    """2,200 half-sent requests from 127.0.0.1 (more than the 2 workers' 2,000 connections: it
    filled them and another device's home page waited for a place, 2-5 s): each worker holds 64
    of them (CONNECTIONS_PER_ADDRESS) and answers every other one 429 at once; 127.0.0.2's home
    page is served meanwhile, and once the flood is gone 127.0.0.1 is served again."""
    per_address = 64  # app/serving/workers.py's default
    flood = half_sent(live_server.port, 2200, "127.0.0.1")
    try:
        refused, silent_close, still_open = answers(flood, 2.0)
        durations = home_page_seconds(live_server.url, "127.0.0.2", 15)
        assert still_open <= per_address * live_server.workers, (refused, silent_close, still_open)
        # every other connection was answered 429 (the first held may have timed out meanwhile: the
        # keep-alive timeout, 5 s, closes a request whose headers never end, without an answer)
        assert refused >= len(flood) - per_address * live_server.workers - silent_close, (refused, silent_close)
        assert refused > 0
    finally:
        close_all(flood)
    wait_for(lambda: home_page_status(live_server.url, "127.0.0.1") == 200, 30, "127.0.0.1 served again")
    record_figures(database_url, "slow_connections_per_address", half_sent=len(flood), refused_429=refused,
                   held=still_open, closed_unanswered=silent_close,
                   other_device_home_page_ms=[round(1000 * d, 1) for d in durations],
                   other_device_median_ms=round(1000 * statistics.median(durations), 1))


def test_the_cap_is_a_setting_and_behind_a_trusted_proxy_it_is_the_proxys(make_live_server):
    """CONNECTIONS_PER_ADDRESS=3, one worker: the 4th connection of an address is refused, and
    another address is not; one of the three closed, the address gets a place again. With
    TRUSTED_PROXIES=1 every device comes through the proxy's address: the server sets no cap
    (the proxy does, docs/DEPLOY.md)."""
    server = make_live_server(workers=1, CONNECTIONS_PER_ADDRESS=3)
    held = half_sent(server.port, 3, "127.0.0.3")
    try:
        assert answers(held, 0.5) == (0, 0, 3)
        extra = half_sent(server.port, 1, "127.0.0.3")
        assert answers(extra, 5.0)[0] == 1
        assert home_page_status(server.url, "127.0.0.4") == 200
        held[0].close()
        wait_for(lambda: home_page_status(server.url, "127.0.0.3") == 200, 30,
                 "a place for the address once one of its connections closed")
    finally:
        close_all(held)
    proxied = make_live_server(workers=1, CONNECTIONS_PER_ADDRESS=3, TRUSTED_PROXIES=1)
    through_proxy = half_sent(proxied.port, 6, "127.0.0.5")
    try:
        assert answers(through_proxy, 0.5) == (0, 0, 6)
    finally:
        close_all(through_proxy)
