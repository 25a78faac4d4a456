"""Turns at a LAN table: out-of-turn, stale and wrong-seat actions
are refused with a clear message and the fresh table and change nothing; a browser that comes
back gets exactly its seat and phase; every page names whose turn it is; the host may let the AI
play an idle player's turns, and the player takes the seat back."""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa

from app.store.models import ActionRecord
from support.cards import hand_of
from support.web import Page, Player, database_dump, own_device_duel

STATUS_BAR = re.compile(r'<div class="status-bar"[^>]*>(.*?)</div>', re.S)
DATA_VERSION = re.compile(r'id="table"[^>]*data-version="(\d+)"')
TITLE = re.compile(r"<title>(.*?)</title>", re.S)


def status_text(html: str) -> str:
    found = STATUS_BAR.search(html)
    assert found, "every table view has a status bar"
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split())


def shown_version(html: str) -> int:
    return int(DATA_VERSION.search(html).group(1))


@pytest.fixture
def duel(make_player):
    """Ann and Bob, each on their own device; the host's device holds no seat. Ann starts (R4.3)."""
    return own_device_duel(make_player)


# -- item 7: out-of-turn, stale and wrong-seat actions ----------------------------------------


@pytest.mark.parametrize("action, cards", [("draw_stock", []), ("draw_discard", []),
                                           ("discard", None), ("lay_down", None)])
def test_an_action_out_of_turn_is_refused_and_changes_nothing(app, duel, action, cards):
    """R4.3: Bob acting on Ann's turn gets 409, a message naming whose turn it
    is, and the fresh table with his own hand; the database is unchanged."""
    host, ann, bob, slug = duel
    game, version = bob.state(slug)
    if cards is None:
        cards = hand_of(game, 1)[:1 if action == "discard" else 3]
    before = database_dump(app)
    response = bob.act(slug, action, cards, version=version, seat=1)
    assert response.status_code == 409
    html = response.get_data(as_text=True)
    page = Page(html)
    assert page.alerts == ["It is Ann's turn, not yours."]
    assert shown_version(html) == version and page.version == version
    assert page.seat == 1 and page.hand == hand_of(game, 1)
    assert database_dump(app) == before


def test_out_of_turn_as_a_plain_form_post_leads_back_to_the_whole_page(app, duel):
    """Without JavaScript the refusal leads back to the full table page (303), which says why."""
    host, ann, bob, slug = duel
    game, version = bob.state(slug)
    before = database_dump(app)
    response = bob.followed(bob.act(slug, "draw_stock", version=version, seat=1, htmx=False), to=f"/games/{slug}")
    html = response.get_data(as_text=True)
    assert "<html" in html and Page(html).alerts == ["It is Ann's turn, not yours."]
    assert database_dump(app) == before


def test_a_stale_action_is_refused_with_the_fresh_table(app, duel):
    """Every form carries the version; an action made on an old view is 409."""
    host, ann, bob, slug = duel
    game, old = ann.state(slug)
    assert ann.act(slug, "draw_stock", version=old, seat=0).status_code == 200
    game, version = ann.state(slug)
    assert version == old + 1
    before = database_dump(app)
    response = ann.act(slug, "discard", hand_of(game, 0)[:1], version=old, seat=0)
    assert response.status_code == 409
    html = response.get_data(as_text=True)
    page = Page(html)
    assert page.alerts and "changed" in page.alerts[0] and "nothing was done" in page.alerts[0]
    assert page.version == version and page.hand == hand_of(game, 0)  # the fresh table: 11 cards
    assert len(page.hand) == 11
    assert database_dump(app) == before


def test_a_double_submitted_action_applies_once(app, duel):
    """The same form sent twice (a double tap): the second is stale and refused."""
    host, ann, bob, slug = duel
    game, version = ann.state(slug)
    first = ann.act(slug, "draw_stock", version=version, seat=0)
    second = ann.act(slug, "draw_stock", version=version, seat=0)
    assert (first.status_code, second.status_code) == (200, 409)
    game, now = ann.state(slug)
    assert now == version + 1 and len(hand_of(game, 0)) == 11
    with app.app_context():
        from app.extensions import db

        rows = db.session.scalars(sa.select(ActionRecord)).all()
        assert [row.version for row in rows] == [version + 1]


def test_acting_for_another_seat_by_changing_the_seat_field_is_forbidden(app, duel):
    """The seat field is checked against the browser's tokens: 403."""
    host, ann, bob, slug = duel
    game, version = bob.state(slug)
    before = database_dump(app)
    for browser in (bob, host):
        response = browser.act(slug, "draw_stock", version=version, seat=0)
        assert response.status_code == 403
        page = Page(response.get_data(as_text=True))
        assert page.alerts == ["This browser does not hold that seat."]
        assert page.seat != 0  # no view of Ann's hand comes back
    for seat in ("", "5", "-1", "x"):
        response = bob.client.post(f"/games/{slug}/act", headers={"HX-Request": "true"},
                                   data={"action": "draw_stock", "version": str(version), "seat": seat,
                                         "csrf_token": bob.csrf_token()})
        assert response.status_code == 403
    assert database_dump(app) == before
    assert ann.act(slug, "draw_stock", version=version, seat=0).status_code == 200


def test_a_shared_device_cannot_act_for_the_own_device_seat(app, make_player):
    """Mixed table: the host's device holds Ann and Bob (hot-seat), not Cat."""
    host = make_player()
    slug = host.start_game(["Ann", "Bob", "Cat"], deck="three_players.deck", devices=["here", "here", "own"])
    cat = make_player()
    cat.join_seat(slug, 2)
    assert host.reveal(slug).status_code == 200
    game, version = host.state(slug)
    assert host.act(slug, "draw_stock", version=version, seat=0).status_code == 200
    assert host.act(slug, "discard", hand_of(host.state(slug)[0], 0)[:1], seat=0).status_code == 200
    assert host.reveal(slug).status_code == 200  # Bob's turn on the shared device
    game, version = host.state(slug)
    assert host.act(slug, "draw_stock", version=version, seat=1).status_code == 200
    assert host.act(slug, "discard", hand_of(host.state(slug)[0], 1)[:1], seat=1).status_code == 200
    game, version = host.state(slug)
    assert game.turn == 2
    before = database_dump(app)
    assert host.act(slug, "draw_stock", version=version, seat=2).status_code == 403
    assert database_dump(app) == before
    assert cat.act(slug, "draw_stock", version=version, seat=2).status_code == 200


def test_a_refused_lay_down_is_422_and_keeps_the_cards(app, duel):
    """R6.3 rule 3: a lone card is no set; the cards stay in the hand and stay selected."""
    host, ann, bob, slug = duel
    assert ann.act(slug, "draw_stock").status_code == 200
    game, version = ann.state(slug)
    card = hand_of(game, 0)[0]
    before = database_dump(app)
    response = ann.act(slug, "lay_down", [card], version=version, seat=0)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert Page(html).alerts
    assert re.search(rf'value="{card}" checked', html)
    assert database_dump(app) == before


# -- item 4: reconnect ---------------------------------------------------------------------------


def copy_browser(app, browser) -> Player:
    """A new browser given the old one's session cookie (a reopened tab, a phone back on Wi-Fi)."""
    cookie = browser.client.get_cookie("session")
    assert cookie is not None
    again = Player(app)
    again.client.set_cookie("session", cookie.value)
    return again


def test_the_seat_cookie_outlives_the_browser_session(app, make_player):
    """A closed tab or browser keeps the seat: the session cookie is persistent (has an expiry)."""
    host = make_player()
    slug = host.start_game(["Ann", "Bob"], deck="quick_out.deck", devices=["here", "own"])
    bob = make_player()
    from app import store

    with app.app_context():
        code = store.find_game(slug).seats[1].join_code
    response = bob.post("/join", {"code": code})
    cookie = [value for value in response.headers.getlist("Set-Cookie") if value.startswith("session=")]
    assert cookie and "Expires=" in cookie[0] and "HttpOnly" in cookie[0]
    assert bob.client.get_cookie("session").expires is not None


def test_reconnecting_brings_back_the_same_seat_and_phase(app, duel):
    """After Ann draws, a fresh browser with her cookie shows "play down cards or
    discard" (Menu E), her 11 cards with the drawn one marked; Bob's shows Ann's turn and his
    own hand; after a refresh the same, and the reconnected browser can go on playing."""
    host, ann, bob, slug = duel
    assert ann.act(slug, "draw_stock").status_code == 200
    game, version = ann.state(slug)
    expected = {ann: (0, "Your turn, Ann: play down cards or discard"), bob: (1, "Ann's turn")}
    for browser, (seat, status) in expected.items():
        before = browser.get(f"/games/{slug}").get_data(as_text=True)
        again = copy_browser(app, browser)
        after = again.get(f"/games/{slug}").get_data(as_text=True)
        for html in (before, after, again.get(f"/games/{slug}").get_data(as_text=True)):
            page = Page(html)
            assert page.seat == seat and page.hand == hand_of(game, seat)
            assert page.version == version
            assert status_text(html).endswith(status)
        assert Page(after).button_texts() == Page(before).button_texts()
    ann_again = copy_browser(app, ann)
    page = ann_again.table(slug)
    assert page.has_button("Play down cards") and page.has_button("Discard")
    assert 'class="card suit-' in ann_again.get(f"/games/{slug}").get_data(as_text=True)
    assert re.search(rf'drawn" data-card="{game.drawn.code}"', ann_again.get(f"/games/{slug}").get_data(as_text=True))
    response = ann_again.act(slug, "discard", [game.drawn.code], version=version, seat=0)
    assert response.status_code == 200
    assert status_text(response.get_data(as_text=True)).endswith("Bob's turn")
    bob_again = copy_browser(app, bob)
    assert status_text(bob_again.get(f"/games/{slug}").get_data(as_text=True)).endswith("Your turn, Bob: draw a card")


def test_reconnecting_on_a_shared_device_keeps_the_hand_over_screen(app, make_player):
    """Hot-seat: a refresh of the shared device between turns shows the hand-over screen, not
    the last player's hand."""
    host = make_player()
    slug = host.start_game(["Ann", "Bob"], deck="quick_out.deck", devices=["here", "here"])
    again = copy_browser(app, host)
    page = again.table(slug)
    assert page.hand == [] and page.has_button("I am Ann: show my hand")
    assert again.reveal(slug).status_code == 200
    assert copy_browser(app, host).table(slug).seat == 0


# -- item 5: whose turn ---------------------------------------------------------------------------


def test_every_table_page_names_whose_turn_it_is(app, make_player):
    """Over several turns of a 3-player mixed table: each browser's page and
    fragment, and the watch page, name the player whose turn it is; only that player's browser
    says "Your turn" in the status bar, in the tab title and in data-my-turn."""
    host = make_player()
    slug = host.start_game(["Ann", "Bob", "Cat"], deck="three_players.deck", devices=["own", "here", "own"])
    ann, cat = make_player(), make_player()
    ann.join_seat(slug, 0)
    cat.join_seat(slug, 2)
    browsers = {0: ann, 1: host, 2: cat}
    spectator = make_player()
    for _turn in range(6):
        game, version = ann.state(slug)
        seat, name = game.turn, game.players[game.turn].name
        for phase in ("draw", "play"):
            for number, browser in browsers.items():
                mine = number == seat
                for html in (browser.get(f"/games/{slug}").get_data(as_text=True),
                             browser.get(f"/games/{slug}/table", htmx=True).get_data(as_text=True)):
                    text = status_text(html)
                    if mine:
                        wanted = "draw a card" if phase == "draw" else "play down cards or discard"
                        assert text == f"Round 1 of 3 Your turn, {name}: {wanted}"
                        assert 'data-my-turn="yes"' in html
                    else:
                        assert text == f"Round 1 of 3 {name}'s turn"
                        assert 'data-my-turn="no"' in html
                page = browser.get(f"/games/{slug}").get_data(as_text=True)
                assert TITLE.search(page).group(1).startswith("Your turn") == mine
            watch = spectator.get(f"/games/{slug}/watch").get_data(as_text=True)
            assert status_text(watch) == f"Round 1 of 3 {name}'s turn watching"
            assert not TITLE.search(watch).group(1).startswith("Your turn")
            if phase == "draw":
                assert browsers[seat].act(slug, "draw_stock", seat=seat).status_code == 200
        game, version = ann.state(slug)
        assert browsers[seat].act(slug, "discard", [game.drawn.code], version=version, seat=seat).status_code == 200


# -- item 5: an AI stands in for an idle player --------------------------------------------------


@pytest.fixture
def idle_app(database_url, decks_folder, tmp_path):
    """The app with IDLE_SECONDS=0: every waiting turn counts as idle at once."""
    from app.factory import create_app
    from app.extensions import db
    from config import TestConfig

    application = create_app(TestConfig, instance_path=str(tmp_path / "idle-instance"),
                             SQLALCHEMY_DATABASE_URI=database_url, DECKS_FOLDER=str(decks_folder),
                             IDLE_SECONDS=0)
    yield application
    with application.app_context():
        db.session.remove()
        db.engine.dispose()


def seat_flags(app, slug: str, number: int) -> bool:
    from app import store

    with app.app_context():
        return store.find_game(slug).seats[number].ai_standin


def test_the_host_lets_the_ai_play_an_idle_players_turns_and_the_player_takes_them_back(idle_app):
    """R8: Ann hosts on her device, Bob plays on his own and goes idle. Only the
    host may let the AI stand in (403 for Bob and for strangers); the AI then plays Bob's turns
    at once, the log shows its moves; Bob presses "I'm back" and plays his next turn himself."""
    host, bob, stranger = Player(idle_app), Player(idle_app), Player(idle_app)
    slug = host.start_game(["Ann", "Bob"], deck="ai_showcase.deck", devices=["here", "own"])
    bob.join_seat(slug, 1)

    def ann_plays_a_turn():
        game, version = host.state(slug)
        assert game.turn == 0
        assert host.act(slug, "draw_stock", version=version, seat=0).status_code == 200
        game, version = host.state(slug)
        assert host.act(slug, "discard", [game.drawn.code], version=version, seat=0).status_code == 200

    ann_plays_a_turn()
    game, version = host.state(slug)
    assert game.turn == 1
    page = host.table(slug)
    assert page.has_button("idle: let the AI play for Bob")
    assert not bob.table(slug).has_button("idle: let the AI play for Bob")

    before = database_dump(idle_app)
    for browser in (bob, stranger):
        response = browser.post(f"/games/{slug}/seats/1/standin", {"on": "1"}, htmx=True)
        assert response.status_code == 403
        assert Page(response.get_data(as_text=True)).alerts
    assert database_dump(idle_app) == before

    response = host.post(f"/games/{slug}/seats/1/standin", {"on": "1"}, htmx=True)
    assert response.status_code == 200
    assert seat_flags(idle_app, slug, 1) is True
    game, after = host.state(slug)
    assert game.turn == 0 and after > version + 1  # the AI drew and discarded for Bob
    log = [event["text"] for event in game.log]
    assert any(text.startswith("Bob drew") or text.startswith("Bob took") for text in log)
    assert any(text.startswith("Bob discarded") for text in log)
    html = host.get(f"/games/{slug}").get_data(as_text=True)
    assert "Bob discarded" in html and "AI stands in" in html
    with idle_app.app_context():
        from app.extensions import db

        seats = db.session.scalars(sa.select(ActionRecord.seat).where(ActionRecord.version > version)).all()
        assert set(seats) == {1}

    ann_plays_a_turn()  # the AI plays Bob's next turn too, at once
    game, version = host.state(slug)
    assert game.turn == 0

    bob_page = bob.table(slug)
    assert bob_page.has_button("I'm back: take my seat back")
    assert stranger.post(f"/games/{slug}/seats/1/standin", {"on": "0"}, htmx=True).status_code == 403
    assert seat_flags(idle_app, slug, 1) is True
    response = bob.post(f"/games/{slug}/seats/1/standin", {"on": "0"}, htmx=True)
    assert response.status_code == 200
    assert seat_flags(idle_app, slug, 1) is False
    ann_plays_a_turn()
    game, version = host.state(slug)
    assert game.turn == 1 and game.phase == "draw"  # Bob's own turn again: the AI waits
    assert status_text(bob.get(f"/games/{slug}").get_data(as_text=True)).endswith("Your turn, Bob: draw a card")
    assert bob.act(slug, "draw_stock", version=version, seat=1).status_code == 200


def test_the_ai_cannot_stand_in_before_the_player_is_idle(app, make_player):
    """With the default IDLE_SECONDS the host's request comes too early: 409, nothing changes;
    nor for a seat whose turn it is not, nor for a computer seat; and stopping an AI that does not
    stand in changes nothing either."""
    host, bob = make_player(), make_player()
    slug = host.start_game(["Ann", "Bob"], deck="quick_out.deck", devices=["here", "own"])
    bob.join_seat(slug, 1)
    assert not host.table(slug).has_button("idle: let the AI play for Bob")
    before = database_dump(app)
    assert host.post(f"/games/{slug}/seats/1/standin", {"on": "1"}, htmx=True).status_code == 409
    assert host.post(f"/games/{slug}/seats/0/standin", {"on": "1"}, htmx=True).status_code == 409
    assert database_dump(app) == before
    # stopping an AI that does not stand in (an old page, "I'm back" posted twice) is no change:
    # the table is answered as it is, and no version is spent that would make the others' forms stale
    assert bob.post(f"/games/{slug}/seats/1/standin", {"on": "0"}, htmx=True).status_code == 200
    assert host.post(f"/games/{slug}/seats/1/standin", {"on": "x"}, htmx=True).status_code == 200
    assert bob.post(f"/games/{slug}/seats/1/standin", {"on": "0"}).status_code == 303
    assert database_dump(app) == before
    ai_host = make_player()
    ai_slug = ai_host.start_game(["Cid", "AI"], deck="quick_out.deck")
    assert ai_host.post(f"/games/{ai_slug}/seats/1/standin", {"on": "1"}, htmx=True).status_code == 400
