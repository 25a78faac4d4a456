"""Live updates travel through the database (app/web/live.py): on PostgreSQL a commit sends
NOTIFY in its own transaction and every worker LISTENs on one connection; on SQLite the doorbell
carries the messages between the worker processes of the machine. ``live.announce`` sends any
named event to a game's streams, the same way on both.

In-process tests use the app and its hub of streams directly (real threads, a real database);
the live ones run the server as `make run` does (gunicorn, gevent workers) and read its streams
with raw HTTP clients. Nothing here measures speed: bench/servers.py does.
"""

from __future__ import annotations

import sqlite3
import time
from contextlib import closing

import pytest
import sqlalchemy as sa
from sqlalchemy.pool import NullPool
from support.client import Browser, EventStream

from app import store
from app.extensions import db
from app import live

WAIT = 20.0  # seconds before a message that should come is called lost (not a speed target)


def subscribed(app, slug: str):
    """A stream's view of the game in this process: (hub, channel), its transport listening."""
    with app.test_request_context():
        hub = live.hub()
        version = store.find_game(slug).version
        channel = hub.subscribe(slug, version)
        db.session.remove()
    transport = hub.transport
    if isinstance(transport, live.PostgresListener):
        assert transport.connected.wait(WAIT), "the listener never connected"
    return hub, channel


def next_news(hub, channel, version: int, heard: int):
    news = hub.wait(channel, version, heard, WAIT)
    assert news is not None, "nothing was heard"
    return news


def test_announce_refuses_what_a_stream_cannot_carry(app):
    with app.test_request_context():
        for slug, name, data in (("no such game!", "solved", None), ("abc", "changed", None), ("abc", "Solved", None),
                                 ("abc", "two words", None), ("abc", "", None), ("abc", "x" * 41, None),
                                 ("abc", "solved", "two\nlines"), ("abc", "solved", "x" * 2001),
                                 ("abc", "solved", "\U0001F0A1" * 1900)):  # (7,600 bytes: too many for NOTIFY)
            with pytest.raises(ValueError):
                live.announce(slug, name, data)
        live.announce("abc", "solved", "\U0001F0A1" * 1500)  # 6,000 bytes: fine


def test_a_rolled_back_change_says_nothing_and_a_committed_one_is_heard(app, player):
    """The version a save announces goes out with the commit: rolled back, nothing is heard; the
    next thing heard is what was committed after. An announcement is sent at once."""
    slug = player.start_game(["Ann", "Bob"], deck="quick_out.deck", devices=["here", "own"])
    hub, channel = subscribed(app, slug)
    version, heard = channel.version, channel.heard
    # A move saved by the store: its version is heard.
    assert player.act(slug, "draw_stock", version=version, seat=0).status_code == 200
    assert next_news(hub, channel, version, heard)[0] == version + 1
    with app.test_request_context():
        live.announce(slug)  # sent at once, in a transaction of its own
    assert next_news(hub, channel, version + 1, heard) == (version + 1, [("refresh", "")], heard + 1)
    with app.test_request_context():
        store.begin_write()
        store.game_changed.send(slug, version=version + 7)  # as save_game does before its commit
        db.session.rollback()
        store.begin_write()
        store.game_changed.send(slug, version=version + 8)
        db.session.commit()
    assert next_news(hub, channel, version + 1, heard + 1) == (version + 8, [], heard + 1)
    with app.app_context():
        hub.unsubscribe(slug)


def test_a_message_wakes_only_the_streams_of_its_game(app, make_player):
    host = make_player()
    first = host.start_game(["Ann", "Bob"], deck="quick_out.deck")
    second = host.start_game(["Cy", "Di"], deck="quick_out.deck")
    hub, one = subscribed(app, first)
    _, other = subscribed(app, second)
    with app.test_request_context():
        live.announce(first, "solved", "won")
    assert next_news(hub, one, one.version, 0) == (one.version, [("solved", "won")], 1)
    assert (other.heard, list(other.recent)) == (0, [])  # the other game's channel heard nothing
    with app.app_context():
        hub.unsubscribe(first)
        hub.unsubscribe(second)


def test_the_sqlite_watcher_reads_the_games_only_after_something_was_committed(app, player, database_url):
    """SQLite: a worker's watcher is the fallback for a lost datagram. Every EVENTS_POLL_SECONDS it
    looks whether anything was committed (``live.CommitCount``) and only then reads the watched
    games' versions: with nothing committed it reads nothing, and a change nobody rang for (here
    another connection's UPDATE, no doorbell) is still heard."""
    if not database_url.startswith("sqlite"):
        pytest.skip("SQLite only: PostgreSQL's listener does not poll")
    app.config.update(EVENTS_POLL_SECONDS=0.01, EVENTS_DOORBELL=False)
    slug = player.start_game(["Ann", "Bob"], deck="quick_out.deck", devices=["here", "own"])
    reads: list[str] = []

    def count_reads(_connection, _cursor, statement, *_rest) -> None:
        if statement.startswith("SELECT games.slug, games.version"):
            reads.append(statement)

    with app.app_context():
        engine = db.engine
    sa.event.listen(engine, "before_cursor_execute", count_reads)
    try:
        hub, channel = subscribed(app, slug)
        assert isinstance(hub.transport, live.SqliteWatcher)
        deadline = time.monotonic() + WAIT
        while not reads and time.monotonic() < deadline:  # its first look reads them
            time.sleep(0.01)
        assert reads, "the watcher never read the games' versions"
        time.sleep(0.2)  # (the first look's read done, then some 20 looks with nothing committed)
        before = len(reads)
        time.sleep(0.5)
        assert len(reads) == before, "the watcher read the games while nothing was committed"

        version = channel.version
        with closing(sqlite3.connect(sa.engine.make_url(database_url).database)) as other:
            other.execute("UPDATE games SET version = version + 1 WHERE slug = ?", (slug,))
            other.commit()
        assert next_news(hub, channel, version, channel.heard)[0] == version + 1
        assert len(reads) > before
    finally:
        sa.event.remove(engine, "before_cursor_execute", count_reads)
        with app.app_context():
            hub.unsubscribe(slug)


def live_table(base: str) -> tuple[str, Browser, Browser]:
    """A stacked 2-player game set up through the forms, both seats on own devices, joined."""
    host = Browser(base)
    slug = host.start_game(["Ann", "Bob"], "ai_showcase.deck", ["own", "own"])
    ann, bob = Browser(base), Browser(base)
    for browser, code in zip((ann, bob), host.join_codes(slug)):
        assert browser.follow("/join", {"code": code}).url == f"/games/{slug}"
    return slug, ann, bob


def draw(browser: Browser, slug: str) -> int:
    """Ann draws from the stock through the table form; the new version."""
    version = browser.fetch(f"/games/{slug}", htmx=False).table_version
    answer = browser.post(f"/games/{slug}/act", Browser.act_form(version, 0, "draw_stock"), htmx=True)
    assert answer.status == 200, answer.page.alerts
    return version + 1


def open_streams(base: str, slug: str, count: int) -> list[EventStream]:
    streams = [EventStream(base, slug, timeout=WAIT * 3) for _ in range(count)]
    for stream in streams:
        assert stream.ready.wait(WAIT), "a stream never started"
        stream.next_version()  # opened without ?v=: the server says the version at once
    return streams


def close(streams) -> None:
    for stream in streams:
        stream.close()


@pytest.mark.slow
def test_an_announcement_from_another_process_reaches_every_stream_of_the_game(live_server, app):
    """A process sharing the database (here: the test's own app, as a solver would be) announces
    "solved" for one game: every stream of that game, over both workers, gets it; the streams of
    another game get nothing; then a move still reaches them all."""
    slug, ann, _bob = live_table(live_server.url)
    other, _, _ = live_table(live_server.url)
    watching = open_streams(live_server.url, slug, 6)
    bystanders = open_streams(live_server.url, other, 2)
    try:
        with app.test_request_context():
            live.announce(slug, "solved", {"verdict": "won", "moves": 87})
        for stream in watching:
            assert stream.next_announcement(WAIT) == ("solved", '{"verdict":"won","moves":87}')
        version = draw(ann, slug)
        for stream in watching:
            stream.wait_for(version, WAIT)
        assert all(stream.announced.empty() and stream.events.empty() for stream in bystanders)
    finally:
        close(watching + bystanders)


def needs_postgres(database_url: str) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("PostgreSQL only: LISTEN/NOTIFY (SQLite has the doorbell, tested by the other live tests)")


@pytest.mark.slow
def test_one_gevent_worker_serves_pages_and_moves_while_its_listener_waits(make_live_server, database_url):
    """The listener waits on its socket through psycopg, which gevent must be able to switch
    away from: with ONE worker, the pages and the move are served by the very process whose
    listener waits (for ten minutes at a time here: a wait that held the process would hold
    every request that long), and the move reaches the open streams."""
    needs_postgres(database_url)
    server = make_live_server(workers=1, EVENTS_LISTENER_TICK_SECONDS=600)
    slug, ann, bob = live_table(server.url)
    streams = open_streams(server.url, slug, 3)
    try:
        for _ in range(3):
            assert Browser(server.url).get("/").status == 200
            assert bob.get(f"/games/{slug}/table", htmx=True).status == 200
        version = draw(ann, slug)
        for stream in streams:
            stream.wait_for(version, WAIT)
    finally:
        close(streams)


@pytest.mark.slow
def test_the_listener_catches_up_after_its_connection_drops(live_server, database_url):
    """A change the listeners never heard of (written without NOTIFY, as if sent while their
    connections were down), then every listener's connection is cut: each connects again, reads
    the versions of the games its streams watch, and the streams get the new version."""
    needs_postgres(database_url)
    slug, ann, _bob = live_table(live_server.url)
    streams = open_streams(live_server.url, slug, 4)
    engine = sa.create_engine(database_url, poolclass=NullPool)
    try:
        with engine.begin() as connection:
            version = connection.execute(sa.text(
                "UPDATE games SET version = version + 1 WHERE slug = :slug RETURNING version"), {"slug": slug}).scalar()
        with engine.begin() as connection:
            cut = connection.execute(sa.text(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE application_name = 'card-table-listener' AND datname = current_database()")).scalar()
        assert cut >= 1
        for stream in streams:
            stream.wait_for(version, WAIT)
        # ...and listening goes on: a move afterwards is heard as usual.
        version = draw(ann, slug)
        for stream in streams:
            stream.wait_for(version, WAIT)
    finally:
        close(streams)
        engine.dispose()


def test_a_worker_says_when_psycopg_would_wait_without_letting_gevent_run():
    """gunicorn's worker warns if psycopg was imported before gevent patched select (it would
    then wait in C, holding the whole worker while the listener waits)."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    check = "from app.serving.gunicorn_config import psycopg_blocks_gevent; print(psycopg_blocks_gevent())"
    patch = "from gevent import monkey; monkey.patch_all()"
    as_served = subprocess.run([sys.executable, "-c", f"{patch}\nimport psycopg\n{check}"],
                               capture_output=True, text=True, check=True, cwd=root)
    too_early = subprocess.run([sys.executable, "-c", f"import psycopg\n{patch}\n{check}"],
                               capture_output=True, text=True, check=True, cwd=root)
    assert (as_served.stdout.split()[-1], too_early.stdout.split()[-1]) == ("False", "True")
