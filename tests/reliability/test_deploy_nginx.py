"""docs/DEPLOY.md's reverse proxy, for real: nginx with docs/deploy/nginx.conf (only the
addresses changed) in front of two servers sharing one database, each with TRUSTED_PROXIES=1.
Through it the table is live (the stream is not buffered: an event arrives while the stream
stays open), each device keeps its own limits (nginx's on its requests at the servers, the
servers' on what they count), the host check sees the name the device asked for, join links use
the public address, and a server going down leaves the table playing.

On PostgreSQL the servers share it; on SQLite they share one database file on this machine (the
doorbells beside it carry the live updates between them). Skipped where nginx is not installed
(scripts/ensure-nginx installs Debian's; CI runs it).
"""

from __future__ import annotations

import http.client
import socket

import pytest
from support.client import Browser, EventStream
from support.live import LiveServer, free_port
from support.proxy import Nginx, nginx_binary

WAIT = 20.0  # seconds before an event that should come is called lost (not a speed target)
DEVICE_REQUESTS = 64  # nginx's limit_conn of a device (docs/deploy/nginx.conf)
PUBLIC_NAME = "table.example.lan"


def status_for_host(port: int, host: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", "/", headers={"Host": host})
        return connection.getresponse().status
    finally:
        connection.close()


def open_stream(port: int, slug: str, source: str) -> socket.socket:
    """A device's event stream through the proxy, left open."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=WAIT * 3, source_address=(source, 0))
    connection.sendall(f"GET /games/{slug}/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                       "Accept: text/event-stream\r\n\r\n".encode())
    return connection


def first_status(connection: socket.socket) -> int | None:
    """The status its answer begins with (None: no answer)."""
    received = b""
    while b"\r\n" not in received:
        chunk = connection.recv(4096)
        if not chunk:
            break
        received += chunk
    parts = received.split(b"\r\n", 1)[0].split()
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None


def set_up_21(browser: Browser) -> int:
    return browser.post("/setup/twentyone", {"seats": "1", "name0": "Ann", "device0": "here", "rounds": "5",
                                             "deck": ""}).status


@pytest.mark.slow
def test_the_deploy_guides_nginx_serves_two_servers_as_one_live_table(database_url, decks_folder, tmp_path):
    if nginx_binary() is None:
        pytest.skip("nginx is not installed here (scripts/ensure-nginx installs Debian's; CI does)")
    port = free_port()
    public = f"http://{PUBLIC_NAME}:{port}"
    # (the servers' stream limits above what nginx lets a device have: which of the two refuses is then plain)
    env = {"TRUSTED_PROXIES": "1", "ALLOWED_HOSTS": PUBLIC_NAME, "GAMES_PER_HOUR": "3",
           "CARD_TABLE_PUBLIC_URL": public, "MASON_PUBLIC_URL": public, "EVENTS_PER_ADDRESS": "1000",
           "EVENTS_PER_GAME": "1000"}
    servers = [LiveServer(tmp_path / f"server-{number}", database_url, decks_folder, env=env) for number in (0, 1)]
    proxy = Nginx(tmp_path / "nginx", port, [])
    streams: list[EventStream] = []
    try:
        for server in servers:
            server.start()
        proxy.upstreams = [f"127.0.0.1:{server.port}" for server in servers]
        proxy.start()

        host = Browser(proxy.url, source="127.0.0.2")
        slug = host.start_game(["Ann", "Bob"], "ai_showcase.deck", ["own", "own"])
        table = host.fetch(f"/games/{slug}", htmx=False)
        invite = host.fetch(f"/games/{slug}/seats/0/invite", htmx=False)
        assert f"{public}/join" in invite.body  # the join link is the public address, not a server's
        ann, bob = Browser(proxy.url, source="127.0.0.3"), Browser(proxy.url, source="127.0.0.4")
        for browser, code in zip((ann, bob), table.page.join_codes):
            assert browser.follow("/join", {"code": code}).url == f"/games/{slug}"

        # Live through the proxy: streams over both servers, each event while the stream stays open.
        version = ann.fetch(f"/games/{slug}", htmx=False).table_version
        streams = [bob.stream(slug, version, timeout=WAIT * 3)]
        streams += [EventStream(proxy.url, slug, since=version, timeout=WAIT * 3) for _ in range(3)]
        for stream in streams:
            assert stream.ready.wait(WAIT), "a stream never started through nginx"
        answer = ann.post(f"/games/{slug}/act", Browser.act_form(version, 0, "draw_stock"), htmx=True)
        assert answer.status == 200, answer.page.alerts
        for stream in streams:
            stream.wait_for(version + 1, WAIT)
            assert stream.status == 200 and stream.headers["Content-Type"].startswith("text/event-stream")

        # Each device has its own limit (3 games an hour), counted by both servers together.
        assert [set_up_21(host) for _ in range(3)] == [303, 303, 429]  # (its first game was Ann and Bob's)
        assert set_up_21(Browser(proxy.url, source="127.0.0.5")) == 303

        # The host check sees the name the device asked nginx for.
        assert status_for_host(port, f"{PUBLIC_NAME}:{port}") == 200
        assert status_for_host(port, f"rebound.attacker.example:{port}") == 400

        # Behind the proxy the servers' cap on a device's connections is off (every connection is
        # nginx's): nginx limits each device to 64 requests at the servers at once (limit_conn).
        flood = [open_stream(port, slug, "127.0.0.6") for _ in range(DEVICE_REQUESTS + 6)]
        try:
            answers = [first_status(connection) for connection in flood]
            assert answers.count(200) == DEVICE_REQUESTS and answers.count(429) == 6, answers
            assert Browser(proxy.url, source="127.0.0.7").get("/").status == 200
        finally:
            for connection in flood:
                connection.close()

        # One server goes down: nginx sends everybody to the other, and the game goes on.
        servers[0].kill9()
        for _ in range(4):
            assert bob.get(f"/games/{slug}/table", htmx=True).status == 200
        shown = ann.fetch(f"/games/{slug}", htmx=False)
        assert len(shown.page.hand) == 11
    finally:
        for stream in streams:
            stream.close()
        proxy.stop()
        for server in servers:
            server.stop()
