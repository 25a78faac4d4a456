"""Seats: nobody takes your seat.

What an attack on the running table found, each against the real server (gunicorn, 2 gevent
workers) where it is about the server:

1. A join code (and its link and QR code) is shown only to the host, and only while its seat is
   open: a seat holder cannot read another player's code and take their seat.
2. A rematch seat belongs to the old seat's holder: it has no join code at all, only the old
   holder can follow into it, and a follower whose seat is gone is told so.
3. A released seat's old holder is told that the host released it.
4. On a shared device, any move by another seat (a computer stand-in) brings the hand-over
   screen back before the next hot-seat turn.
5. Join codes cannot be guessed without limit (wrong codes are counted per client address) and
   expire (after JOIN_CODE_HOURS, and when the game ends).
"""

from __future__ import annotations

import re
from datetime import timedelta

import sqlalchemy as sa
from support.client import Browser
from support.figures import record_figures
from support.web import Page

from app import store
from app.store.models import SeatRecord, utcnow

JOIN_CODE = re.compile(r'<code class="join-code">([A-Z2-9]+)</code>')
RELEASED = "The host released your seat"


def every_view(browser: Browser, slug: str) -> str:
    """Everything a browser can load about a table: page, htmx page, fragment, watch view."""
    return "".join(response.body for response in (
        browser.get(f"/games/{slug}"), browser.get(f"/games/{slug}", htmx=True), browser.table(slug),
        browser.get(f"/games/{slug}/watch")))


def play_out_with_standins(host: Browser, slug: str, db_reader) -> None:
    """Finish a game quickly: the host lets the AI stand in for whoever is to move (the server
    runs with IDLE_SECONDS=0) and deals the next round between rounds."""
    for _ in range(60):
        stored = db_reader.game(slug)
        if stored.status == "finished":
            return
        turn = stored.game().to_move()
        if turn is None:
            response = host.post(f"/games/{slug}/act", host.act_form(stored.version, None, "next_round"), htmx=True)
        else:
            response = host.post(f"/games/{slug}/seats/{turn}/standin", {"on": "1"}, htmx=True)
        assert response.status == 200, response.body[:500]
    raise AssertionError("the game did not end")


# -- 1. join codes only for the host, only while the seat is open ------------------------------------


def test_join_codes_are_shown_only_to_the_host_and_only_while_the_seat_is_open(live_server, db_reader):
    """Bob (seat 2) must not read Carol's code (seat 3) anywhere: not on his table page, its
    fragment, the watch view, nor her invite page (403). The host sees the codes of the open
    seats only; once Carol has claimed hers, no code is shown to anybody."""
    host = Browser(live_server.url)
    slug = host.start_game(["Ann", "Bob", "Carol"], deck="three_players.deck", devices=["here", "own", "own"])
    bob_code, carol_code = db_reader.join_code(slug, 1), db_reader.join_code(slug, 2)
    assert set(JOIN_CODE.findall(host.get(f"/games/{slug}").body)) == {bob_code, carol_code}
    assert host.get(f"/games/{slug}/seats/2/invite").status == 200

    bob = Browser(live_server.url)
    assert bob.claim(bob_code).status == 303
    bob_sees = every_view(bob, slug)
    assert carol_code not in bob_sees and bob_code not in bob_sees
    assert "/seats/2/invite" not in bob_sees
    for number in (1, 2):
        invite = bob.get(f"/games/{slug}/seats/{number}/invite")
        assert invite.status == 403 and carol_code not in invite.body
        assert bob.get(f"/games/{slug}/seats/{number}/qr.svg").status == 403  # the image encodes the link
    assert Page(bob.table(slug).body).seat == 1  # Bob does hold his own seat

    host_sees = host.get(f"/games/{slug}").body
    assert JOIN_CODE.findall(host_sees) == [carol_code]  # Bob's seat is taken: no code for it

    carol = Browser(live_server.url)
    assert carol.claim(carol_code).status == 303
    assert JOIN_CODE.findall(host.get(f"/games/{slug}").body) == []
    joined = host.get(f"/games/{slug}/seats/2/invite")  # nothing left to share: it says she joined
    assert joined.status == 200 and "Carol has joined" in joined.body and not JOIN_CODE.findall(joined.body)
    assert Page(carol.table(slug).body).seat == 2


# -- 2. rematch seats belong to their holders ------------------------------------------------------------------


def test_a_rematch_seat_belongs_to_the_old_seats_holder(make_live_server, database_url, db_reader):
    """AI, Ben and Cid (both on their own devices) finish a game; the host starts the rematch.
    Ben's and Cid's rematch seats have no join code (nothing a stranger could claim); Ben
    follows into his seat; a stranger following gets nothing; the host releases Cid's rematch
    seat before Cid follows, and Cid is told so (and can join with the new code)."""
    server = make_live_server(IDLE_SECONDS=0)
    host = Browser(server.url)
    slug = host.start_game(["AI", "Ben", "Cid"], deck="three_players.deck", devices=["here", "own", "own"])
    ben, cid, stranger = Browser(server.url), Browser(server.url), Browser(server.url)
    assert ben.claim(db_reader.join_code(slug, 1)).status == 303
    assert cid.claim(db_reader.join_code(slug, 2)).status == 303
    play_out_with_standins(host, slug, db_reader)

    response = host.post(f"/games/{slug}/rematch", {})
    assert response.status == 303
    new_slug = response.headers["location"].rstrip("/").rsplit("/", 1)[1]
    rematch = db_reader.game(new_slug)
    for number in (1, 2):
        assert rematch.seats[number]["join_code"] is None  # nothing to read, guess or claim
        assert rematch.seats[number]["token_hash"] is not None  # held already, by the old holder
    assert JOIN_CODE.findall(every_view(host, new_slug)) == []

    # a stranger who opened the old table and the rematch holds nothing in either
    refused = stranger.follow(f"/games/{slug}/follow", {})  # (a plain form: back to the table, which says why)
    assert refused.url == f"/games/{slug}" and refused.page.alerts == ["Only the players at this table can join its rematch."]
    assert Page(stranger.table(new_slug).body).hand == []

    # Ben follows into his own seat
    response = ben.post(f"/games/{slug}/follow", {})
    assert response.status == 303 and response.headers["location"].endswith(f"/games/{new_slug}")
    assert Page(ben.table(new_slug).body).seat == 1
    assert ben.post(f"/games/{slug}/follow", {}).status == 303  # again: the same seat, the same token
    assert Page(ben.table(new_slug).body).seat == 1

    # the host releases Cid's rematch seat before Cid follows: Cid is told, and takes it again by its code
    assert host.post(f"/games/{new_slug}/seats/2/release", {"confirmed": "1"}, htmx=True).status == 200
    response = cid.follow(f"/games/{slug}/follow", {})
    assert response.url == f"/games/{slug}"
    alerts = response.page.alerts
    assert alerts and "no longer yours" in alerts[0] and "released" in alerts[0], alerts
    new_code = db_reader.join_code(new_slug, 2)
    assert new_code and cid.claim(new_code).status == 303
    assert Page(cid.table(new_slug).body).seat == 2
    record_figures(database_url, "rematch_seats", rematch_seats_with_a_join_code=0,
                   stranger_follow_refused=1, released_follower_told=1)


# -- 3. a released seat's holder is told ---------------------------------------------------------------------


def test_the_old_holder_of_a_released_seat_is_told(live_server, db_reader):
    host = Browser(live_server.url)
    slug = host.start_game(["Ann", "Bob"], deck="quick_out.deck", devices=["here", "own"])
    bob = Browser(live_server.url)
    assert bob.claim(db_reader.join_code(slug, 1)).status == 303
    assert Page(bob.table(slug).body).seat == 1 and not Page(bob.table(slug).body).alerts
    assert host.post(f"/games/{slug}/seats/1/release", {"confirmed": "1"}, htmx=True).status == 200

    for response in (bob.get(f"/games/{slug}"), bob.table(slug)):
        assert response.status == 200
        page = response.page
        assert page.hand == []
        assert any(RELEASED in alert for alert in page.alerts), page.alerts
    version = db_reader.game(slug).version
    response = bob.post(f"/games/{slug}/act", bob.act_form(version, 1, "draw_stock"), htmx=True)
    assert response.status == 403
    assert any(RELEASED in alert for alert in response.page.alerts), response.page.alerts
    # the host and a spectator are told nothing of the kind
    assert not any(RELEASED in alert for alert in host.table(slug).page.alerts)
    assert RELEASED not in Browser(live_server.url).get(f"/games/{slug}/watch").body


# -- 4. the hand-over screen after a computer stand-in ------------------------------------------------------


def test_a_move_by_another_seat_brings_back_the_hand_over_screen(app, player):
    """Anna and Berta share the host's device. Anna plays her turn; the AI stands in for Berta
    and plays hers; then Anna's turn starts with the hand-over screen, not with her cards."""
    app.config["IDLE_SECONDS"] = 0
    slug = player.start_game(["Anna", "Berta"], deck="quick_out.deck")
    game, _version = player.state(slug)
    first = game.to_move()
    second = 1 - first
    page = player.table(slug)
    assert page.has_button("show my hand") and page.hand == []
    assert player.reveal(slug).status_code == 200
    assert player.act(slug, "draw_stock").status_code == 200
    hand = player.table(slug).hand
    assert player.act(slug, "discard", [hand[-1]]).status_code == 200
    game, _version = player.state(slug)
    assert game.to_move() == second

    response = player.post(f"/games/{slug}/seats/{second}/standin", {"on": "1"}, htmx=True)
    assert response.status_code == 200
    game, version = player.state(slug)
    assert game.to_move() == first  # the AI played Berta's turn
    page = player.table(slug)
    assert page.hand == [], "the device showed the next player's cards without a hand-over"
    assert page.has_button("show my hand")
    # and the turn cannot be played before the hand-over
    response = player.act(slug, "draw_stock", version=version, seat=first)
    assert response.status_code == 409
    assert player.reveal(slug).status_code == 200
    assert len(player.table(slug).hand) == 10


# -- 5. join codes: guessing is limited, codes expire -----------------------------------------------------------


def test_wrong_join_codes_are_limited_per_client_address(live_server, db_reader, database_url):
    """20 wrong codes from one address (link previews, the join form and claims alike, spread
    over both workers); then every code from that address - even the right one - gets 429 with a
    message, while another device (another address) still joins with the right code."""
    host = Browser(live_server.url)
    slug = host.start_game(["Ann", "Bob"], deck="quick_out.deck", devices=["here", "own"])
    code = db_reader.join_code(slug, 1)
    guesser = Browser(live_server.url)
    wrong = [c for c in ("ABCDEF", "ZZZZZZ", "234567", "HJKMNP", "QRSTUV") if c != code]
    statuses = []
    for attempt in range(20):
        guess = wrong[attempt % len(wrong)]
        kind = attempt % 3
        if kind == 0:
            response = guesser.get(f"/join/{guess}")
        elif kind == 1:
            response = guesser.get(f"/join?code={guess}")
        else:
            response = guesser.claim(guess)
        statuses.append(response.status)
    assert statuses == [404] * 20
    refused = [guesser.claim(code), guesser.get(f"/join/{code}"), guesser.get(f"/join?code={code}")]
    assert [response.status for response in refused] == [429, 429, 429]
    assert all("Too many wrong codes" in " ".join(response.page.alerts) for response in refused)
    assert db_reader.join_code(slug, 1) == code  # the seat is still open

    other_device = Browser(live_server.url, source="127.0.0.2")
    assert other_device.claim(code).status == 303
    assert Page(other_device.table(slug).body).seat == 1
    record_figures(database_url, "join_code_guessing", wrong_codes_answered_404=20, then_status=429,
                   other_address_claimed=True)


def test_a_join_code_expires(app, player, make_player):
    """After JOIN_CODE_HOURS the code is refused; the host sees that it expired and makes a new one."""
    slug = player.start_game(["Ann", "Bob"], deck="quick_out.deck", devices=["here", "own"])
    with app.app_context():
        seat = store.find_game(slug).seats[1]
        code, expires = seat.join_code, seat.code_expires_at
        assert expires is not None
        hours = (expires - utcnow()).total_seconds() / 3600
        assert 23.9 < hours <= 24.0  # the default: 24 hours
        store.db.session.execute(sa.update(SeatRecord).where(SeatRecord.id == seat.id)
                                 .values(code_expires_at=utcnow() - timedelta(seconds=1)))
        store.db.session.commit()
    bob = make_player()
    response = bob.post("/join", {"code": code})
    assert response.status_code == 404
    assert "expires" in " ".join(Page(response.get_data(as_text=True)).alerts)
    assert bob.get(f"/join/{code}").status_code == 404
    table = player.table(slug)
    assert code not in table.html and "the join code has expired" in table.html
    assert player.post(f"/games/{slug}/seats/1/release", htmx=True).status_code == 200  # "make a new code"
    with app.app_context():
        new_code = store.find_game(slug).seats[1].join_code
    assert new_code != code and new_code in player.table(slug).html
    assert bob.post("/join", {"code": new_code}).status_code == 303


def test_join_codes_stop_working_when_the_game_ends(app, player, make_player):
    """AI and Bob (own device, never joined): the AI stands in for Bob and the game ends; Bob's
    code no longer opens anything."""
    app.config["IDLE_SECONDS"] = 0
    slug = player.start_game(["AI", "Bob"], deck="quick_out.deck", devices=["here", "own"])
    with app.app_context():
        code = store.find_game(slug).seats[1].join_code
    for _ in range(40):
        game, version = player.state(slug)
        if game.is_over():
            break
        turn = game.to_move()
        if turn is None:
            response = player.post(f"/games/{slug}/act", {"action": "next_round", "version": str(version)}, htmx=True)
        else:
            response = player.post(f"/games/{slug}/seats/{turn}/standin", {"on": "1"}, htmx=True)
        assert response.status_code == 200, response.get_data(as_text=True)[:300]
    assert game.is_over()
    with app.app_context():
        assert store.find_game(slug).seats[1].join_code is None
    bob = make_player()
    assert bob.post("/join", {"code": code}).status_code == 404
    assert bob.get(f"/join/{code}").status_code == 404
    assert code not in player.table(slug).html
