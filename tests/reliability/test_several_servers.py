"""Several servers on one database behave as one table: what a server needs is shared through
the database (the session key, uploaded decks) or the environment, and servers started together
upgrade the database once (docs/DEPLOY.md).

The two-server live test runs real server processes with separate instance and decks folders,
as two computers have, on one PostgreSQL database (CI's PostgreSQL leg); the others run on both
databases.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import uuid

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool
from support.client import Browser, EventStream
from support.games import QUICK_OUT_SEAT_1, QUICK_OUT_SEAT_2, admin_login, deck_text, page, upload
from support.live import ROOT, LiveServer, free_port
from support.web import Player

from app.extensions import db
from app.store.credentials import SecretKeyRefused, forget_secret_key, shared_secret_key

WAIT = 20.0  # seconds before an event that should come is called lost (not a speed target)


@pytest.fixture
def engine(database_url):
    engine = sa.create_engine(database_url, poolclass=NullPool)
    yield engine
    engine.dispose()


# -- the session key ------------------------------------------------------------------------------


def test_servers_without_secret_key_share_the_one_in_the_database_and_an_install_keeps_its_own(engine, tmp_path):
    old_install, second, third = tmp_path / "old", tmp_path / "second", tmp_path / "third"
    for folder in (old_install, second, third):
        folder.mkdir()
    (old_install / "secret_key").write_text("the-key-this-install-always-had\n")
    # The install that kept its key in its instance folder starts first: its key becomes the shared one.
    assert shared_secret_key(engine, None, str(old_install)) == "the-key-this-install-always-had"
    assert not (old_install / "secret_key").exists()  # moved: a forgotten key does not come back from it
    assert shared_secret_key(engine, None, str(second)) == "the-key-this-install-always-had"
    # A server given another key refuses, saying what to do.
    with pytest.raises(SecretKeyRefused, match="Unset SECRET_KEY here"):
        shared_secret_key(engine, "a-key-of-its-own", str(third))
    forget_secret_key(engine)
    fresh = shared_secret_key(engine, None, str(third))
    assert fresh and fresh != "the-key-this-install-always-had" and len(fresh) == 64
    assert shared_secret_key(engine, None, str(old_install)) == fresh


def test_servers_with_secret_key_must_all_set_the_same_one(engine, tmp_path):
    assert shared_secret_key(engine, "key-of-the-house", str(tmp_path)) == "key-of-the-house"
    with engine.connect() as connection:  # only a fingerprint of it is kept
        values = connection.execute(sa.text("SELECT name, value FROM house_secrets")).all()
    assert [name for name, _value in values] == ["session_key_fingerprint"]
    assert "key-of-the-house" not in values[0][1]
    assert shared_secret_key(engine, "key-of-the-house", str(tmp_path)) == "key-of-the-house"
    with pytest.raises(SecretKeyRefused, match="not the one the other servers sharing this database use"):
        shared_secret_key(engine, "another-key", str(tmp_path))
    with pytest.raises(SecretKeyRefused, match="set the same SECRET_KEY for this server too"):
        shared_secret_key(engine, None, str(tmp_path))


def test_a_server_with_another_secret_key_refuses_to_start_saying_what_to_set(engine, database_url, tmp_path):
    shared_secret_key(engine, "key-of-the-house", str(tmp_path))
    env = {key: value for key, value in os.environ.items() if key not in ("SECRET_KEY", "ADMIN_PASSWORD")}
    env.update(DATABASE_URL=database_url, SECRET_KEY="my-own-key", PORT=str(free_port()),
               CARD_TABLE_INSTANCE=str(tmp_path / "instance"))
    done = subprocess.run([sys.executable, "-m", "app.serving.serve"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 1
    assert "cannot start: This server's SECRET_KEY is not the one the other servers" in done.stderr
    assert not (tmp_path / "instance" / "admin_password.hash").exists()  # refused before anything


# -- uploaded decks --------------------------------------------------------------------------------


@pytest.fixture
def two_apps(database_url, decks_folder, tmp_path):
    """Two servers' apps on one database, each with its own instance and decks folders."""
    from app.factory import create_app
    from config import TestConfig

    other_decks = tmp_path / "decks-b"
    shutil.copytree(decks_folder, other_decks)
    apps = [create_app(TestConfig, instance_path=str(tmp_path / name), SQLALCHEMY_DATABASE_URI=database_url,
                       DECKS_FOLDER=str(folder)) for name, folder in (("a", decks_folder), ("b", other_decks))]
    yield apps
    for application in apps:
        with application.app_context():
            db.session.remove()
            db.engine.dispose()


def offered(player) -> str:
    return player.get("/admin").get_data(as_text=True)


def test_a_deck_uploaded_on_one_server_is_offered_and_dealt_by_the_other(two_apps):
    first, second = (Player(application) for application in two_apps)
    admin_login(first)
    admin_login(second)
    answer = upload(first, "/admin/decks", "deck", "shared.deck", deck_text("quick_out.deck"))
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert not os.path.exists(os.path.join(two_apps[1].config["DECKS_FOLDER"], "shared.deck"))
    assert '<code class="deck-file">shared.deck</code>' in offered(second)
    slug = second.start_game(["Doris", "AI"], deck="shared.deck")
    assert second.table(slug).hand == QUICK_OUT_SEAT_1

    # Replaced on the second server: the first deals the new deck (not its own file's copy)...
    seat_2_first = deck_text("quick_out.deck").split("\n", 1)[1] + deck_text("quick_out.deck").split("\n", 1)[0] + "\n"
    replaced = upload(second, "/admin/decks", "deck", "shared.deck", seat_2_first, replace="1")
    assert replaced.status_code == 200
    slug = first.start_game(["Doris", "AI"], deck="shared.deck")
    assert set(first.table(slug).hand) == set(QUICK_OUT_SEAT_2)
    # ...and deleted there, no server offers it, though the first one's copy is still on its disk.
    assert second.post("/admin/decks/shared.deck/delete").status_code == 200
    assert os.path.exists(os.path.join(two_apps[0].config["DECKS_FOLDER"], "shared.deck"))
    assert "<code>shared.deck</code>" not in offered(first)
    assert first.post("/menus/mason", {"choice": "4"}).status_code == 303  # Menu A: a 2-player game with a stacked deck
    answer = first.post("/setup/deck", {"deck": "shared.deck"})
    assert answer.status_code == 422 and "no deck file named 'shared.deck'" in page(answer).alerts[0]
    # A shipped deck deleted on one server is no longer offered by the other either.
    assert second.post("/admin/decks/run_or_meld.deck/delete").status_code == 200
    assert "<code>run_or_meld.deck</code>" not in offered(first)


# -- upgrading the database from several servers at once ---------------------------------------------


def test_servers_started_together_upgrade_the_database_once(databases, tmp_path):
    """`make run` on several machines at once: each runs `flask db upgrade` on the same, empty
    database; they take turns, the first upgrades and the others find nothing to do."""
    if databases.is_postgres:
        name = f"mason_u_{uuid.uuid4().hex[:12]}"
        databases._admin(f'CREATE DATABASE "{name}"')
        url = make_url(databases._url(name)).render_as_string(hide_password=False)
    else:
        url = f"sqlite:///{tmp_path / 'shared.db'}"
    try:
        upgrades = []
        for number in range(3):
            env = {key: value for key, value in os.environ.items() if key != "SECRET_KEY"}
            env.update(DATABASE_URL=url, CARD_TABLE_INSTANCE=str(tmp_path / f"instance-{number}"))
            upgrades.append(subprocess.Popen([sys.executable, "-m", "flask", "--app", "wsgi", "db", "upgrade"],
                                             cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                             text=True))
        outputs = [upgrade.communicate(timeout=300)[0] for upgrade in upgrades]
        assert [upgrade.returncode for upgrade in upgrades] == [0, 0, 0], outputs
        assert sum("Running upgrade  -> 8194b714511d" in output for output in outputs) == 1, outputs
        engine = sa.create_engine(url, poolclass=NullPool)
        with engine.connect() as connection:
            heads = connection.execute(sa.text("SELECT version_num FROM alembic_version")).scalars().all()
        engine.dispose()
        assert len(heads) == 1, heads
    finally:
        if databases.is_postgres:
            databases.drop(url)


# -- two servers, one PostgreSQL, live ------------------------------------------------------------------


@pytest.mark.slow
def test_two_servers_on_one_database_are_one_table(database_url, decks_folder, tmp_path):
    """Two server processes (separate instance and decks folders, as two computers) on one
    PostgreSQL database, a device on each: a move on one reaches the other's stream at once, a
    deck uploaded on one is dealt by the other, and after the first is killed its player carries
    on through the second with the same cookies. A third server with a SECRET_KEY of its own
    refuses to start."""
    if not database_url.startswith("postgresql"):
        pytest.skip("needs PostgreSQL (CI's PostgreSQL leg): several servers share a PostgreSQL database")
    other_decks = tmp_path / "decks-b"
    shutil.copytree(decks_folder, other_decks)
    first = LiveServer(tmp_path / "server-a", database_url, decks_folder)
    second = LiveServer(tmp_path / "server-b", database_url, other_decks)
    streams: list[EventStream] = []
    try:
        first.start()
        second.start()
        host = Browser(first.url)
        slug = host.start_game(["Ann", "Bob"], "ai_showcase.deck", ["own", "own"])
        codes = host.join_codes(slug)
        ann, bob = Browser(first.url), Browser(second.url)
        assert ann.follow("/join", {"code": codes[0]}).url == f"/games/{slug}"
        assert bob.follow("/join", {"code": codes[1]}).url == f"/games/{slug}"  # joined through the other server

        version = bob.fetch(f"/games/{slug}", htmx=False).table_version
        on_second = [bob.stream(slug, version, timeout=WAIT * 3)]  # Bob's, and two spectators' (over both workers)
        on_second += [EventStream(second.url, slug, since=version, timeout=WAIT * 3) for _ in range(2)]
        on_first = [ann.stream(slug, version, timeout=WAIT * 3)]
        streams += on_second + on_first
        for stream in streams:
            assert stream.ready.wait(WAIT), "a stream never started"
        answer = ann.post(f"/games/{slug}/act", Browser.act_form(version, 0, "draw_stock"), htmx=True)
        assert answer.status == 200, answer.page.alerts
        for stream in streams:
            stream.wait_for(version + 1, WAIT)
        assert "Discard" in ann.fetch(f"/games/{slug}").body

        # A deck uploaded on the first server, dealt by the second (whose decks folder lacks it).
        admin = Browser(first.url)
        assert admin.post("/admin/login", {"password": first.admin_password}).status == 303
        stored = admin.upload("/admin/decks", "deck", "club-night.deck", deck_text("quick_out.deck").encode())
        assert stored.status == 200 and "club-night.deck was checked and stored for Mason Rummy." in stored.body
        assert not (other_decks / "club-night.deck").exists()
        table = Browser(second.url)
        dealt = table.start_game(["Doris", "AI"], "club-night.deck")
        assert table.fetch(f"/games/{dealt}", htmx=False).page.hand == QUICK_OUT_SEAT_1

        # The first server dies; Ann carries on through the second, with the same cookies.
        first.kill9()
        again = Browser(second.url)
        again.cookies, again._csrf = dict(ann.cookies), ann._csrf
        shown = again.fetch(f"/games/{slug}", htmx=False)
        assert len(shown.page.hand) == 11 and shown.table_version == version + 1  # her seat and hand, as before
        drawn = re.search(r'class="card [^"]*drawn" data-card="(..)"', shown.body).group(1)
        answer = again.post(f"/games/{slug}/act", Browser.act_form(version + 1, 0, "discard", [drawn]), htmx=True)
        assert answer.status == 200, answer.page.alerts
        for stream in on_second:
            stream.wait_for(version + 2, WAIT)
        assert "Your turn, Bob" in bob.fetch(f"/games/{slug}").body

        # A third computer with a key of its own would show players pages without their seats.
        third = LiveServer(tmp_path / "server-c", database_url, decks_folder, env={"SECRET_KEY": "its-own-key"})
        with pytest.raises(RuntimeError, match="SECRET_KEY"):
            third.start(timeout=60)
        third.stop()
    finally:
        for stream in streams:
            stream.close()
        first.stop()
        second.stop()
