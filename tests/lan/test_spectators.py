"""Spectators: the watch link shows the table - every player's sets, hand
sizes and scores, the piles, whose turn - with no hand at all (R4.4), keeps itself up to date
without hands, and a spectator cannot act."""

from __future__ import annotations

import html as htmllib
import re

import pytest

from app.games.mason import ROUND_OVER, Discard, Draw, LayDown
from app.games.mason.actions import STOCK
from app.games.mason.bot import play_computer_turn
from support.web import Page, database_dump, own_device_duel

PLAYER_BLOCK = re.compile(r'<li class="player[^"]*"[^>]*>(.*?)</li>', re.S)
STATS = re.compile(r'<span class="player-stats">(\d+) cards? &middot; (\d+) pts</span>')
NAME = re.compile(r'<span class="player-name">(.*?)</span>')
SET_BLOCK = re.compile(r'<span class="set (meld|run)"[^>]*>(.*?)</span>(?=<span class="set|\s*</div>)', re.S)
DATA_CARD = re.compile(r'data-card="([2-9TJQKA][CDHSP])"')


def play_turn(browser, slug: str, seat: int) -> None:
    """One whole turn as the computer strategy (R8) would play it, sent through the forms."""
    game, version = browser.state(slug)
    for outcome in play_computer_turn(game.copy(), seat):
        action = outcome.action
        if isinstance(action, Draw):
            name, cards = ("draw_stock" if action.source == STOCK else "draw_discard"), []
        elif isinstance(action, LayDown):
            name, cards = "lay_down", [card.code for card in action.cards]
        else:
            assert isinstance(action, Discard)
            name, cards = "discard", [action.card.code]
        response = browser.act(slug, name, cards, version=browser.state(slug)[1], seat=seat)
        assert response.status_code == 200, Page(response.get_data(as_text=True)).alerts
        if outcome.round_over:
            return


def players_shown(html: str) -> list[dict]:
    """Each player's name, hand size, score and laid-down sets as the page shows them."""
    shown = []
    for block in PLAYER_BLOCK.findall(html):
        size, score = STATS.search(block).groups()
        sets_part = block.split('<div class="sets">', 1)[1]
        sets = [DATA_CARD.findall(cards) for _kind, cards in SET_BLOCK.findall(sets_part)]
        shown.append({"name": htmllib.unescape(NAME.search(block).group(1)), "hand_size": int(size),
                      "score": int(score), "sets": sets})
    return shown


def expected_players(game) -> list[dict]:
    return [{"name": player.name, "hand_size": len(player.hand.cards), "score": player.score,
             "sets": [[card.code for card in card_set.cards] for card_set in player.hand.laid_down]}
            for player in game.players]


def assert_watch_page(html: str, game) -> None:
    page = Page(html)
    assert page.hand == [] and page.seat is None, "a spectator sees no hand (R4.4)"
    assert "Your hand" not in html
    if game.to_move() is not None:
        assert "You are watching: no hands are shown." in html
    else:  # every hand left is shown (below): the note does not say otherwise
        assert "You are watching." in html and "no hands are shown" not in html
    assert players_shown(html) == expected_players(game)  # R4.4: every player's sets and hand size
    assert f'<strong>{len(game.stock)}</strong> card' in html
    top = game.discard[-1].code
    assert re.search(rf'<div class="pile">\s*<span class="pile-label">Discard pile.*?</span>\s*<span class="card[^"]*" data-card="{top}"', html, re.S)
    hands = {card.code for player in game.players for card in player.hand.cards}
    if game.to_move() is None:  # R7.1: once the round is over, every hand left is shown
        hands = set()
    assert not set(page.cards) & (hands | {card.code for card in game.stock})


@pytest.fixture
def duel(make_player):
    host, ann, bob, slug = own_device_duel(make_player)
    return host, {0: ann, 1: bob}, slug


def test_the_watch_page_shows_sets_and_hand_sizes_and_no_hand(duel, make_player):
    """R4.4, turn after turn until both players have sets down and a round ends."""
    host, seats, slug = duel
    spectator = make_player()
    seen_sets = set()
    for _turn in range(30):
        game, version = spectator.state(slug)
        for html in (spectator.get(f"/games/{slug}/watch").get_data(as_text=True),
                     spectator.get(f"/games/{slug}/table?watch=1", htmx=True).get_data(as_text=True),
                     seats[0].get(f"/games/{slug}/watch").get_data(as_text=True)):
            assert_watch_page(html, game)
        seen_sets.update(seat for seat, player in enumerate(game.players) if player.hand.laid_down)
        if game.phase == ROUND_OVER:
            break
        play_turn(seats[game.turn], slug, game.turn)
    assert seen_sets == {0, 1}, "both players' sets were shown to the spectator"
    assert game.phase == ROUND_OVER
    watch = spectator.get(f"/games/{slug}/watch").get_data(as_text=True)
    assert "Round 1 is over" in watch
    assert not Page(watch).has_button("Deal round 2")


def test_the_watch_page_refreshes_itself_without_hands(duel, make_player):
    """Live updates for spectators fetch the hand-free fragment (watch=1) and the event stream."""
    host, seats, slug = duel
    game, version = make_player().state(slug)
    html = make_player().get(f"/games/{slug}/watch").get_data(as_text=True)
    assert f"/games/{slug}/table?since={version}&amp;watch=1" in html
    assert f'sse-connect="/games/{slug}/events?v={version}"' in html


def test_spectators_cannot_act(app, duel, make_player):
    """A browser holding no seat gets 403 for every table action, and nothing changes."""
    host, seats, slug = duel
    spectator = make_player()
    spectator.get(f"/games/{slug}/watch")
    game, version = spectator.state(slug)
    before = database_dump(app)
    for seat in (0, 1, None):
        for action, cards in (("draw_stock", []), ("draw_discard", []),
                              ("discard", [game.players[0].hand.cards[0].code]), ("next_round", [])):
            response = spectator.act(slug, action, cards, version=version, seat=seat)
            assert response.status_code == 403, (seat, action)
            page = Page(response.get_data(as_text=True))
            assert page.alerts and page.hand == []
    assert spectator.post(f"/games/{slug}/reveal", {"version": str(version)}, htmx=True).status_code == 403
    assert spectator.post(f"/games/{slug}/seats/0/release", htmx=True).status_code == 403
    assert spectator.post(f"/games/{slug}/seats/0/standin", {"on": "1"}, htmx=True).status_code == 403
    assert spectator.post(f"/games/{slug}/seats/0/standin", {"on": "0"}, htmx=True).status_code == 403
    assert spectator.post(f"/games/{slug}/rematch", htmx=True).status_code == 403
    assert spectator.get(f"/games/{slug}/seats/0/invite").status_code == 403
    assert database_dump(app) == before
    # the players can still play
    assert seats[0].act(slug, "draw_stock", version=version, seat=0).status_code == 200


def test_a_spectator_cannot_deal_the_next_round(app, make_player):
    """quick_out.deck: Ann goes out in her first turn (R5.7); only the table's players deal on."""
    host = make_player()
    slug = host.start_game(["Ann", "Bob"], deck="quick_out.deck", devices=["here", "own"])
    play_turn(host, slug, 0)
    game, version = host.state(slug)
    assert game.phase == ROUND_OVER
    spectator = make_player()
    assert_watch_page(spectator.get(f"/games/{slug}/watch").get_data(as_text=True), game)
    before = database_dump(app)
    assert spectator.act(slug, "next_round", version=version, seat=None).status_code == 403
    assert database_dump(app) == before
    assert host.act(slug, "next_round", version=version, seat=None).status_code == 200


def test_watching_a_game_that_does_not_exist_is_404(make_player):
    assert make_player().get("/games/nosuchgame/watch").status_code == 404
