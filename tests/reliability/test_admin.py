"""Promise 10: admin - no default password works, wrong passwords are rate limited, admin pages
refuse everyone else."""

from __future__ import annotations

import io
import os
import re
import threading
from collections import Counter
from datetime import timedelta

import pytest
import sqlalchemy as sa
from support.client import Browser
from support.figures import record_figures
from support.web import Player, database_dump

from app.factory import create_app
from app.extensions import db
from app.store.models import AdminFailure, utcnow
from app.store.credentials import ADMIN_HASH_FILE
from config import Config, TestConfig

COMMON_PASSWORDS = ["", " ", "admin", "Admin", "password", "123456", "mason", "rummy", "masonrummy", "changeme",
                    "secret", "letmein", "test-admin-password", "live-admin-password", "None", "null"]


# (its live tests log in and out again and again from one address: each has a server of its own)
pytestmark = pytest.mark.own_live_server


def fresh_app(database_url, instance, decks_folder, **overrides):
    return create_app(TestConfig, instance_path=str(instance), SQLALCHEMY_DATABASE_URI=database_url,
                      DECKS_FOLDER=str(decks_folder), **overrides)


def dispose(application):
    with application.app_context():
        db.session.remove()
        db.engine.dispose()


def login(player, password):
    return player.post("/admin/login", {"password": password})


@pytest.mark.slow
def test_no_default_password_works(database_url, decks_folder, tmp_path, capsys):
    """Without ADMIN_PASSWORD a password is generated at first start, printed once, and only its
    hash is kept in the instance folder; empty and common passwords never work."""
    if "ADMIN_PASSWORD" not in os.environ:
        assert Config.ADMIN_PASSWORD is None  # the code has no default
    instance = tmp_path / "fresh-instance"
    for configured in (None, ""):  # unset, or set but empty: both mean "generate one"
        capsys.readouterr()
        application = fresh_app(database_url, instance / repr(configured), decks_folder,
                                ADMIN_PASSWORD=configured, ADMIN_MAX_FAILURES=1000)
        printed = capsys.readouterr()
        match = re.search(r"admin password.*\n\s+(\S+)\n", printed.err + printed.out)
        assert match, "the generated password was not printed"
        password = match.group(1)
        assert len(password) >= 12
        stored = (instance / repr(configured) / ADMIN_HASH_FILE).read_text()
        assert password not in stored and re.match(r"^(scrypt|pbkdf2):", stored), stored
        assert oct((instance / repr(configured) / ADMIN_HASH_FILE).stat().st_mode & 0o777) == "0o600"

        # a second start (another worker, a restart) prints nothing and keeps the hash
        again = fresh_app(database_url, instance / repr(configured), decks_folder, ADMIN_PASSWORD=configured)
        printed = capsys.readouterr()
        assert password not in printed.err + printed.out and "admin password" not in printed.err + printed.out
        assert (instance / repr(configured) / ADMIN_HASH_FILE).read_text() == stored
        dispose(again)

        browser = Player(application)
        for guess in COMMON_PASSWORDS:
            response = login(browser, guess)
            assert response.status_code == 401, guess
            assert browser.get("/admin").status_code in (302, 303)
        assert login(browser, password).status_code == 303
        assert browser.get("/admin").status_code == 200
        dispose(application)


def test_wrong_passwords_are_rate_limited_across_worker_processes(app, database_url, decks_folder):
    """Two app objects on one database, as two gunicorn workers: five wrong passwords in all,
    and even the right one is refused (429) on both, until the window has passed."""
    other = fresh_app(database_url, app.instance_path, decks_folder)
    try:
        first, second = Player(app), Player(other)
        limit = app.config["ADMIN_MAX_FAILURES"]
        assert limit == 5
        for attempt in range(limit):
            browser = first if attempt % 2 == 0 else second
            assert login(browser, f"wrong-{attempt}").status_code == 401
        before = database_dump(app)
        for browser in (first, second):
            response = login(browser, app.config["ADMIN_PASSWORD"])
            assert response.status_code == 429
            assert "Too many wrong passwords" in response.get_data(as_text=True)
            assert browser.get("/admin").status_code in (302, 303)
        assert database_dump(app) == before  # refused attempts do not even count against the limit again
        # once the failures are older than the window, the right password works again
        window = app.config["ADMIN_FAILURE_WINDOW_SECONDS"]
        with app.app_context():
            db.session.execute(sa.update(AdminFailure).values(at=utcnow() - timedelta(seconds=window + 1)))
            db.session.commit()
        assert login(second, app.config["ADMIN_PASSWORD"]).status_code == 303
        assert second.get("/admin").status_code == 200
    finally:
        dispose(other)


def test_admin_pages_refuse_everyone_else(app, player):
    """A stranger, and a player who holds seats (and the host token) of a game, are not admins."""
    slug = player.start_game(["Ann", "AI"], deck="quick_out.deck")
    samples = {"name": "quick_out.deck", "token": "whatever"}
    checked = 0
    for browser in (Player(app), player):
        for rule in app.url_map.iter_rules():
            if not rule.endpoint.startswith("admin.") or rule.endpoint in ("admin.login", "admin.do_login", "admin.logout"):
                continue
            url = rule.rule
            for name in rule.arguments:
                url = url.replace(f"<{name}>", samples[name])
            before = database_dump(app)
            if "GET" in rule.methods:
                response = browser.get(url)
                assert response.status_code in (302, 303), url
                assert response.headers["Location"].startswith("/admin/login"), url
            if "POST" in rule.methods:
                data = {}
                if rule.endpoint == "admin.upload_deck":
                    data = {"deck": (io.BytesIO(b"2C"), "x.deck")}
                if rule.endpoint == "admin.import_preview":
                    data = {"scores": (io.BytesIO(b'"name","games won","games lost","best score"\n'), "s.csv")}
                response = browser.post(url, data)
                assert response.status_code == 403, url
                assert "quick_out" not in response.get_data(as_text=True) or rule.endpoint == "admin.delete_deck"
            assert database_dump(app) == before
            checked += 1
    assert checked >= 2 * 6
    assert len(player.table(slug).hand) == 10  # the player still holds their seat, just no admin pages


def test_the_login_only_redirects_within_admin(app):
    browser = Player(app)
    for target in ("//evil.example/", "https://evil.example/admin", "/scores", "javascript:alert(1)"):
        response = browser.post("/admin/login", {"password": app.config["ADMIN_PASSWORD"], "next": target})
        assert response.status_code == 303
        assert response.headers["Location"] in ("/admin", "http://localhost/admin"), target


@pytest.mark.slow
def test_wrong_passwords_sent_at_once_to_the_live_server_are_limited_and_never_fail(live_server):
    """30 browsers send a wrong password at the same moment, 3 times, to the 2-worker server:
    no 5xx, no "database is locked", and at most ADMIN_MAX_FAILURES (5) are even checked."""
    statuses = Counter()
    for _round in range(3):
        browsers = [Browser(live_server.url) for _ in range(30)]
        requests = [browser.prepare("POST", "/admin/login", {"password": "wrong"}) for browser in browsers]
        barrier = threading.Barrier(len(requests))
        lock = threading.Lock()

        def send(request):
            barrier.wait(timeout=60)
            response = request.fire()
            with lock:
                statuses[response.status] += 1

        threads = [threading.Thread(target=send, args=(request,)) for request in requests]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
    log = live_server.log_path.read_text(errors="replace")
    record_figures(live_server.database_url, "admin_guesses_at_once", guesses=sum(statuses.values()),
                   checked_401=statuses[401], refused_429=statuses[429],
                   server_errors=sum(n for code, n in statuses.items() if code >= 500),
                   database_is_locked=log.count("database is locked"))
    assert "database is locked" not in log and "Traceback" not in log
    assert set(statuses) <= {401, 429}, statuses
    assert sum(statuses.values()) == 90
    assert statuses[401] == 5, statuses  # the count and the insert are one locked transaction


# -- admin sessions live on the server ----------------------------------------------


def copy_of(browser: Player, app) -> Player:
    """Another browser holding a copy of ``browser``'s session cookie (as a thief would)."""
    thief = Player(app)
    thief.client.set_cookie("session", browser.client.get_cookie("session").value)
    return thief


def test_a_copied_admin_cookie_stops_working_at_logout_on_the_live_server(live_server, database_url):
    """A copy of the admin's cookie taken before Logout opens /admin until the admin logs out,
    then never again, on both workers."""
    admin = Browser(live_server.url)
    assert admin.post("/admin/login", {"password": live_server.admin_password, "next": "/admin"}).status == 303
    thief = Browser(live_server.url)
    thief.cookies = dict(admin.cookies)
    assert [thief.get("/admin").status for _ in range(4)] == [200] * 4
    assert admin.post("/admin/logout", {}).status == 303
    answers = [thief.get("/admin") for _ in range(4)]  # (several: both workers)
    assert [answer.status for answer in answers] == [303] * 4
    assert all(answer.headers["location"].startswith("/admin/login") for answer in answers)
    thief._csrf = None
    assert thief.post("/admin/decks/quick_out.deck/delete", {}).status == 403
    record_figures(database_url, "admin_sessions", copied_cookie_after_logout=303)


def test_a_new_admin_password_ends_every_admin_session(database_url, decks_folder, tmp_path):
    """`flask admin set-password` (the hash in the instance folder) ends the sessions opened with
    the old password, and so does a changed ADMIN_PASSWORD (another start of the server)."""
    application = fresh_app(database_url, tmp_path / "no-env-password", decks_folder, ADMIN_PASSWORD=None)
    try:
        cli = application.test_cli_runner()
        assert cli.invoke(args=["admin", "set-password", "--password", "first password"]).exit_code == 0
        admin = Player(application)
        assert login(admin, "first password").status_code == 303
        thief = copy_of(admin, application)
        assert thief.get("/admin").status_code == 200
        result = cli.invoke(args=["admin", "set-password", "--password", "second password"])
        assert result.exit_code == 0, result.output
        for browser in (admin, thief):
            response = browser.get("/admin")
            assert response.status_code == 303 and response.headers["Location"].startswith("/admin/login")
        assert login(admin, "second password").status_code == 303
        assert admin.get("/admin").status_code == 200
    finally:
        dispose(application)
    # ADMIN_PASSWORD from the environment: a session opened with one password is void under another
    first = fresh_app(database_url, tmp_path / "env-1", decks_folder, ADMIN_PASSWORD="environment one")
    second = fresh_app(database_url, tmp_path / "env-2", decks_folder, ADMIN_PASSWORD="environment two")
    try:
        admin = Player(first)
        assert login(admin, "environment one").status_code == 303
        assert admin.get("/admin").status_code == 200
        moved = copy_of(admin, second)  # the same cookie, the server restarted with a new password
        assert moved.get("/admin").status_code == 303
    finally:
        dispose(first)
        dispose(second)


def test_an_admin_session_expires_after_12_hours(app, player):
    from app.store.models import AdminSession

    assert app.config["ADMIN_SESSION_HOURS"] == 12
    assert login(player, app.config["ADMIN_PASSWORD"]).status_code == 303
    with app.app_context():
        row = db.session.scalars(sa.select(AdminSession)).one()
        hours = (row.expires_at - row.created_at).total_seconds() / 3600
        assert hours == 12
        assert player.client.get_cookie("session") and row.token_hash not in player.client.get_cookie("session").value
        db.session.execute(sa.update(AdminSession).values(expires_at=utcnow() - timedelta(seconds=1)))
        db.session.commit()
    response = player.get("/admin")
    assert response.status_code == 303 and response.headers["Location"].startswith("/admin/login")
    # Quit ends the admin session on the server too
    assert login(player, app.config["ADMIN_PASSWORD"]).status_code == 303
    thief = copy_of(player, app)
    player.post("/quit")
    assert thief.get("/admin").status_code == 303
