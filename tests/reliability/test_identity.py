"""Promise 2: identity comes only from what the server knows a browser holds.

A browser is known by the key its signed cookie carries; the seats it holds are the server's
rows (holdings), each naming its seat's token by hash. A browser holding seat A cannot act for
seat B by changing the seat field, the URL or a hidden input (403); a seat's token of one game is
useless in another; a released seat's old token stops working; tokens are compared in constant
time (hmac.compare_digest on their hashes).
"""

from __future__ import annotations

import ast
import hmac
import inspect
from pathlib import Path
from types import SimpleNamespace

from support.web import Page, Player, database_dump

from app import store

APP_DIR = Path(__file__).resolve().parents[2] / "app"


def two_browser_game(app, deck="quick_out.deck"):
    """Ann on the host's browser (seat 0, also the host), Bob on his own device (seat 1)."""
    host, guest = Player(app), Player(app)
    slug = host.start_game(["Ann", "Bob"], deck=deck, devices=["here", "own"])
    with app.app_context():
        code = store.find_game(slug).seats[1].join_code
    assert guest.post("/join", {"code": code}).status_code == 303
    return slug, host, guest


def version_of(app, slug) -> int:
    with app.app_context():
        return store.find_game(slug).version


def assert_forbidden_and_unchanged(app, response_factory):
    before = database_dump(app)
    response = response_factory()
    assert response.status_code == 403, response.get_data(as_text=True)[:300]
    assert Page(response.get_data(as_text=True)).alerts, "a 403 must say why"
    assert database_dump(app) == before
    return response


def test_changing_the_seat_field_does_not_give_the_seat(app):
    """R4.3: it is Ann's turn (seat 1 starts round 1); Bob's browser says it is seat 0: 403."""
    slug, host, guest = two_browser_game(app)
    version = version_of(app, slug)
    assert_forbidden_and_unchanged(app, lambda: guest.act(slug, "draw_stock", version=version, seat=0))
    # and the other way round: the host's browser posting as Bob
    assert_forbidden_and_unchanged(app, lambda: host.act(slug, "draw_stock", version=version, seat=1))
    # the real holder can make the same move
    assert host.act(slug, "draw_stock", version=version, seat=0).status_code == 200


def test_the_url_of_another_game_does_not_give_its_seats(app):
    """A browser holding seat 0 in game X posts to game Y's URL with Y's version and seat 0."""
    slug_x, host_x, _guest = two_browser_game(app)
    other = Player(app)
    slug_y = other.start_game(["Cai", "AI"], deck="run_or_meld.deck")
    version = version_of(app, slug_y)
    assert_forbidden_and_unchanged(app, lambda: host_x.act(slug_y, "draw_stock", version=version, seat=0))
    # Y's table shows X's player no hand: they are only a spectator there
    assert host_x.table(slug_y).hand == []
    assert other.act(slug_y, "draw_stock", version=version, seat=0).status_code == 200


def remember(player, slug, holdings):
    """Put ``holdings`` in the player's cookie as what it holds at ``slug`` (as if the server
    had: the cookie is signed)."""
    with player.client.session_transaction() as session:
        session["held"] = [entry for entry in session.get("held", []) if entry[0] != slug] + [[slug, holdings]]


def test_a_token_of_one_game_is_useless_in_another(app):
    """Hold the seat and host tokens of game X under game Y: still 403."""
    slug_x, host_x, guest_x = two_browser_game(app)
    other = Player(app)
    slug_y = other.start_game(["Cai", "AI"], deck="run_or_meld.deck")
    remember(host_x, slug_y, host_x.holdings(slug_x))  # {"host": ..., "0": ...}
    version = version_of(app, slug_y)
    assert_forbidden_and_unchanged(app, lambda: host_x.act(slug_y, "draw_stock", version=version, seat=0))
    # a token under another seat's number of the same game does not work either
    remember(guest_x, slug_x, {"0": guest_x.holdings(slug_x)["1"]})
    version = version_of(app, slug_x)
    assert_forbidden_and_unchanged(app, lambda: guest_x.act(slug_x, "draw_stock", version=version, seat=0))
    # the database holds the browser's key only as its hash: the key a browser presents is in
    # no row
    dump = database_dump(app)
    for player in (host_x, guest_x):
        assert player.browser_key() not in dump and store.hash_token(player.browser_key()) in dump


def test_a_tampered_session_cookie_gives_no_seat(app):
    """The session is signed: a changed cookie is a new, empty session."""
    slug, host, _guest = two_browser_game(app)
    version = version_of(app, slug)
    cookie = host.client.get_cookie("session")
    value = cookie.value
    tampered = value[:-3] + ("AAA" if not value.endswith("AAA") else "BBB")
    host.client.set_cookie("session", tampered, domain=cookie.domain or "localhost")
    before = database_dump(app)
    response = host.client.post(f"/games/{slug}/act", data={
        "action": "draw_stock", "version": str(version), "seat": "0", "csrf_token": host.csrf_token()})
    assert response.status_code == 400  # the CSRF token lived in the signed session too
    assert database_dump(app) == before
    host.client.set_cookie("session", tampered, domain=cookie.domain or "localhost")
    assert host.table(slug).hand == []  # the table shows no hand: the tampered cookie holds no seat


def test_a_released_seats_old_token_stops_working(app):
    """The host releases Bob's seat: Bob's browser and his old token lose it; the new code works."""
    slug, host, guest = two_browser_game(app)
    assert host.act(slug, "draw_stock").status_code == 200
    hand = host.table(slug).hand
    assert host.act(slug, "discard", [hand[-1]]).status_code == 200  # now it is Bob's turn
    old_holdings = guest.holdings(slug)
    response = host.post(f"/games/{slug}/seats/1/release", {"confirmed": "1"}, htmx=True)
    assert response.status_code == 200
    version = version_of(app, slug)
    assert_forbidden_and_unchanged(app, lambda: guest.act(slug, "draw_stock", version=version, seat=1))
    # the old token in a brand-new browser does not work either
    thief = Player(app)
    thief.csrf_token()
    remember(thief, slug, old_holdings)
    assert_forbidden_and_unchanged(app, lambda: thief.act(slug, "draw_stock", version=version, seat=1))
    # the new join code gives the seat to whoever claims it
    with app.app_context():
        code = store.find_game(slug).seats[1].join_code
    assert code
    newcomer = Player(app)
    assert newcomer.post("/join", {"code": code}).status_code == 303
    assert newcomer.act(slug, "draw_stock", version=version_of(app, slug), seat=1).status_code == 200
    # and the old code is spent
    assert guest.post("/join", {"code": code}).status_code == 404


def test_only_the_host_token_releases_a_seat(app):
    """Bob holds a seat but not the host token: he cannot release Ann's or his own seat."""
    slug, _host, guest = two_browser_game(app)
    assert_forbidden_and_unchanged(app, lambda: guest.post(f"/games/{slug}/seats/1/release", {}, htmx=True))


def test_tokens_are_compared_in_constant_time(app, monkeypatch):
    """store.hashes_match compares SHA-256 hashes with hmac.compare_digest, and it is the one
    place seats, the host and admin sessions are recognised (store.token_matches uses it)."""
    source = inspect.getsource(store.hashes_match)
    assert "hmac.compare_digest(" in source
    assert store.hmac is hmac

    calls = []
    real = hmac.compare_digest

    def spy(a, b):
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(store, "hmac", SimpleNamespace(compare_digest=spy))  # only store's view of hmac
    assert store.token_matches("some-token", store.hash_token("some-token"))
    assert calls == [(store.hash_token("some-token"), store.hash_token("some-token"))]
    assert not store.token_matches("some-token", store.hash_token("other-token"))
    assert not store.token_matches(None, store.hash_token("x")) and not store.token_matches("x", None)

    # every request that recognises a seat goes through it
    slug, host, _guest = two_browser_game(app)
    calls.clear()
    assert len(host.table(slug).hand) == 10
    assert calls, "the table request did not compare tokens with hmac.compare_digest"

    # and no code in app/ compares a seat or host token (or its hash) with == or !=
    offenders = []
    for path in APP_DIR.rglob("*.py"):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare) and any(isinstance(op, (ast.Eq, ast.NotEq)) for op in node.ops):
                names = ast.unparse(node)
                if "token_hash" in names or "hash_token" in names or "tokens" in names:
                    offenders.append(f"{path.name}:{node.lineno}: {names}")
    assert offenders == []
