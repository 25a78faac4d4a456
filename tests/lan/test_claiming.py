"""Seat links and join codes: an own-device seat gets a join code, a link and a
QR code; opening the link only shows the seat; POST /join claims it for that browser with an
unguessable token kept in the session cookie (only its sha256 is stored); a second browser cannot
take a claimed seat unless the host releases it."""

from __future__ import annotations

import hashlib
import re

import pytest

import app.games  # noqa: F401  (registers every game)
from app.core import registry
from app.core.protocol import MENUS
from app.extensions import db
from app.store.models import SeatRecord
from support.web import Page, database_dump

URLSAFE = re.compile(r"^[A-Za-z0-9_-]+$")


def seat_row(app, slug: str, number: int) -> dict:
    from app import store

    with app.app_context():
        record = store.find_game(slug)
        seat = record.seats[number]
        return {"token_hash": seat.token_hash, "join_code": seat.join_code, "device": seat.device,
                "version": record.version}


def session_tokens(browser, slug: str) -> dict:
    """What the browser holds at the game: {seat number or "host": the seat's token hash}."""
    return browser.holdings(slug)


@pytest.fixture
def hosted(make_player):
    """Ann plays on the host's device (hot-seat seat), Bob on his own device."""
    host = make_player()
    slug = host.start_game(["Ann", "Bob"], deck="quick_out.deck", devices=["here", "own"])
    return host, slug


def test_an_own_device_seat_gets_a_join_code_link_and_qr_code(app, hosted):
    """The host's table lists the code; the invite page has the link, a QR code
    and the short code; a hot-seat seat has none."""
    host, slug = hosted
    ann, bob = seat_row(app, slug, 0), seat_row(app, slug, 1)
    assert ann["device"] == "here" and ann["join_code"] is None and ann["token_hash"] is not None
    assert bob["device"] == "own" and bob["token_hash"] is None
    code = bob["join_code"]
    assert code and re.fullmatch(r"[A-Z2-9]{6}", code)
    assert code in host.get(f"/games/{slug}").get_data(as_text=True)
    invite = host.get(f"/games/{slug}/seats/1/invite")
    assert invite.status_code == 200
    html = invite.get_data(as_text=True)
    assert f"/join/{code}" in html
    assert 'src="data:image/svg+xml' in html  # the QR code (segno), inline
    assert code in html
    # a hot-seat seat has no invite: back to the table
    assert host.get(f"/games/{slug}/seats/0/invite").status_code == 303


def test_a_host_with_every_seat_on_own_devices_sees_the_codes(app, make_player):
    """The host's device holds no seat but must still hand out the codes."""
    host = make_player()
    slug = host.start_game(["Ann", "Bob"], deck="quick_out.deck", devices=["own", "own"])
    html = host.get(f"/games/{slug}").get_data(as_text=True)
    for number in (0, 1):
        code = seat_row(app, slug, number)["join_code"]
        assert code in html
        assert host.get(f"/games/{slug}/seats/{number}/invite").status_code == 200
    assert Page(html).hand == []
    assert set(session_tokens(host, slug)) == {"host"}


def test_opening_the_join_link_shows_the_seat_without_claiming_it(app, hosted, make_player):
    """A GET (a link preview in a chat app, say) must not take the seat."""
    host, slug = hosted
    code = seat_row(app, slug, 1)["join_code"]
    before = database_dump(app)
    bob = make_player()
    response = bob.get(f"/join/{code}")
    assert response.status_code == 200
    page = Page(response.get_data(as_text=True))
    assert page.has_button("I am Bob: take my seat")
    assert page.value("code") == code
    assert database_dump(app) == before
    assert session_tokens(bob, slug) == {}
    assert bob.table(slug).hand == []


def test_posting_the_code_claims_the_seat_with_an_unguessable_token(app, hosted, make_player):
    """The browser is known by a key of at least 128 bits, urlsafe, kept in the
    session cookie; the database holds only its sha256, and that the browser holds the seat; the
    code stops working; the table shows Bob's own hand (R4.4)."""
    host, slug = hosted
    code = seat_row(app, slug, 1)["join_code"]
    version = seat_row(app, slug, 1)["version"]
    bob = make_player()
    response = bob.post("/join", {"code": code})
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/games/{slug}")
    key = bob.browser_key()
    assert len(key) >= 22 and URLSAFE.match(key)  # 22 urlsafe characters = 132 bits
    row = seat_row(app, slug, 1)
    assert session_tokens(bob, slug) == {"1": row["token_hash"]}
    assert row["join_code"] is None
    assert row["version"] == version + 1  # the other screens learn that Bob joined
    dump = database_dump(app)
    assert key not in dump and hashlib.sha256(key.encode()).hexdigest() in dump
    game, _version = bob.state(slug)
    page = bob.table(slug)
    assert page.seat == 1 and page.hand == [card.code for card in game.players[1].hand.cards]
    assert "not joined" not in host.get(f"/games/{slug}").get_data(as_text=True)


def test_tokens_differ_for_every_seat_and_game(app, make_player):
    tokens = set()
    for _ in range(3):
        host = make_player()
        slug = host.start_game(["Ann", "Bob"], devices=["own", "own"])
        for number in (0, 1):
            browser = make_player()
            assert browser.post("/join", {"code": seat_row(app, slug, number)["join_code"]}).status_code == 303
            tokens.add(session_tokens(browser, slug)[str(number)])
        tokens.add(session_tokens(host, slug)["host"])
    assert len(tokens) == 9


def test_a_code_typed_in_lower_case_with_a_dash_still_claims(app, hosted, make_player):
    host, slug = hosted
    code = seat_row(app, slug, 1)["join_code"]
    bob = make_player()
    typed = f" {code[:3].lower()}-{code[3:].lower()} "
    assert bob.post("/join", {"code": typed}).status_code == 303
    assert "1" in session_tokens(bob, slug)


def test_a_claimed_code_does_nothing_for_a_second_browser(app, hosted, make_player):
    """Once claimed, the same link or code gives a second browser nothing and
    changes nothing; the first browser keeps its seat."""
    host, slug = hosted
    code = seat_row(app, slug, 1)["join_code"]
    bob = make_player()
    assert bob.post("/join", {"code": code}).status_code == 303
    before = database_dump(app, skip=("rate_events",))  # (wrong codes are counted there)
    eve = make_player()
    assert eve.get(f"/join/{code}").status_code == 404
    response = eve.post("/join", {"code": code})
    assert response.status_code == 404
    assert Page(response.get_data(as_text=True)).alerts
    assert session_tokens(eve, slug) == {}
    assert eve.table(slug).hand == []
    assert eve.act(slug, "draw_stock", seat=1, version=seat_row(app, slug, 1)["version"]).status_code == 403
    assert database_dump(app, skip=("rate_events",)) == before
    assert bob.table(slug).seat == 1


def test_an_unknown_code_is_refused(app, hosted, make_player):
    host, slug = hosted
    stranger = make_player()
    for code in ("ZZZZZZ", "", "x" * 40, "<script>"):
        response = stranger.post("/join", {"code": code})
        assert response.status_code == 404
        assert Page(response.get_data(as_text=True)).alerts
    assert session_tokens(stranger, slug) == {}


def test_the_host_releases_a_seat_the_old_token_stops_and_a_new_code_is_issued(app, hosted, make_player):
    """Unless the host releases the seat."""
    host, slug = hosted
    old_code = seat_row(app, slug, 1)["join_code"]
    bob = make_player()
    assert bob.post("/join", {"code": old_code}).status_code == 303
    assert bob.table(slug).seat == 1
    response = host.post(f"/games/{slug}/seats/1/release", {"confirmed": "1"}, htmx=True)  # (asked first)
    assert response.status_code == 200
    row = seat_row(app, slug, 1)
    assert row["token_hash"] is None
    new_code = row["join_code"]
    assert new_code and new_code != old_code
    assert new_code in response.get_data(as_text=True)
    # Bob's old token no longer holds the seat
    assert bob.table(slug).hand == []
    assert bob.act(slug, "draw_stock", seat=1, version=row["version"]).status_code == 403
    # the old code is dead; the new one claims for another browser
    carl = make_player()
    assert carl.post("/join", {"code": old_code}).status_code == 404
    assert carl.post("/join", {"code": new_code}).status_code == 303
    game, _version = carl.state(slug)
    assert carl.table(slug).hand == [card.code for card in game.players[1].hand.cards]
    assert bob.table(slug).hand == []


def test_only_the_host_releases_and_only_own_device_seats(app, hosted, make_player):
    host, slug = hosted
    bob = make_player()
    assert bob.post("/join", {"code": seat_row(app, slug, 1)["join_code"]}).status_code == 303
    before = database_dump(app)
    assert bob.post(f"/games/{slug}/seats/1/release", htmx=True).status_code == 403
    assert make_player().post(f"/games/{slug}/seats/1/release", htmx=True).status_code == 403
    assert database_dump(app) == before
    # the hot-seat seat on the host's device is not released
    response = host.post(f"/games/{slug}/seats/0/release", htmx=True)
    assert response.status_code == 400
    assert database_dump(app) == before
    assert bob.table(slug).seat == 1


def test_a_seat_token_from_one_game_is_useless_in_another(app, make_player):
    """The token is per seat and per game: Bob's token for game 1, presented for seat 2 of game 2
    (same seat number), holds nothing there."""
    host1 = make_player()
    slug1 = host1.start_game(["Ann", "Bob"], deck="quick_out.deck", devices=["here", "own"])
    host2 = make_player()
    slug2 = host2.start_game(["Cid", "Dee"], deck="quick_out.deck", devices=["here", "own"])
    bob = make_player()
    assert bob.post("/join", {"code": seat_row(app, slug1, 1)["join_code"]}).status_code == 303
    token = session_tokens(bob, slug1)["1"]
    host_token = session_tokens(host1, slug1)["host"]
    with bob.client.session_transaction() as session:  # (as if the server had put them there)
        session["held"] = session.get("held", []) + [[slug2, {"1": token, "0": token, "host": host_token}]]
    before = database_dump(app)
    assert bob.table(slug2).hand == []
    version = seat_row(app, slug2, 1)["version"]
    assert bob.act(slug2, "draw_stock", seat=0, version=version).status_code == 403
    assert bob.post(f"/games/{slug2}/seats/1/release", htmx=True).status_code == 403
    assert bob.get(f"/games/{slug2}/seats/1/invite").status_code == 403
    assert seat_row(app, slug2, 1)["join_code"] not in bob.get(f"/games/{slug2}").get_data(as_text=True)
    assert database_dump(app) == before
    assert bob.table(slug1).seat == 1  # and it still works where it belongs


def test_a_forged_token_holds_nothing(app, hosted, make_player):
    """Holdings a browser claims for itself (its cookie signed as the server would) hold
    nothing: a browser key nobody was given, hashes that are no seat's."""
    host, slug = hosted
    eve = make_player()
    with eve.client.session_transaction() as session:
        session["browser"] = "A" * 32
        session["held"] = [[slug, {"0": "A" * 64, "1": "", "host": "not-a-token"}]]
    before = database_dump(app)
    assert eve.table(slug).hand == []
    assert eve.act(slug, "draw_stock", seat=0, version=seat_row(app, slug, 0)["version"]).status_code == 403
    assert eve.post(f"/games/{slug}/seats/1/release", htmx=True).status_code == 403
    assert database_dump(app) == before


def test_join_codes_are_unique_across_open_seats(app, make_player):
    host = make_player()
    host.start_game(["Ann", "Bob", "Cat"], devices=["own", "own", "own"])
    host2 = make_player()
    host2.start_game(["Dan", "Eve", "Fay"], devices=["own", "own", "own"])
    with app.app_context():
        codes = [seat.join_code for seat in db.session.query(SeatRecord).all()]
    assert len(codes) == 6 and len(set(codes)) == 6


# Every game that seats three, two of them on their own devices; a few set up for a short game.
THREE_SEAT_GAMES = [definition.key for definition in registry.games() if definition.max_seats >= 3]
SHORT_GAME = {"rummy": {"target": 100}, "points": {"deals": 1}, "twentyone": {"rounds": 3}}


@pytest.mark.parametrize("kind", THREE_SEAT_GAMES)
def test_the_host_reads_each_join_code_on_the_seats_badge_and_nobody_else_does(app, make_player, kind):
    """On a phone the invitations' panel comes after the board, under the docked hand: the host's
    board shows each seat nobody joined with its code on its "not joined" badge, a link to the
    seat's invitation. A player who joined and a spectator see the badge without a code."""
    host = make_player()
    names, devices = ["Ann", "Bob", "Cy"], ["here", "own", "own"]
    slug = (host.start_game(names, devices=devices) if registry.get(kind).setup_flow == MENUS
            else host.set_up(kind, names, devices, **SHORT_GAME.get(kind, {})))
    codes = {number: seat_row(app, slug, number)["join_code"] for number in (1, 2)}
    badges = Page(host.get(f"/games/{slug}").get_data(as_text=True)).find_all("a", "badge")
    assert [badge.text for badge in badges] == [f"not joined: code {codes[1]}", f"not joined: code {codes[2]}"]
    for number, badge in zip((1, 2), badges):
        assert badge.get("href") == f"/games/{slug}/seats/{number}/invite"
        invitation = host.get(badge.get("href")).get_data(as_text=True)
        assert Page(invitation).texts("p", "join-code") == [codes[number]]
    bob = make_player()
    assert bob.post("/join", {"code": codes[1]}).status_code == 303
    for browser, path in ((bob, f"/games/{slug}"), (make_player(), f"/games/{slug}/watch")):
        html = browser.get(path).get_data(as_text=True)
        assert Page(html).texts("span", "warn") == ["not joined"]
        assert not Page(html).find_all("a", "badge") and codes[2] not in html
    host_badges = Page(host.get(f"/games/{slug}").get_data(as_text=True)).find_all("a", "badge")
    assert [badge.text for badge in host_badges] == [f"not joined: code {codes[2]}"]
