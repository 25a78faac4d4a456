"""The table's news for its sounds (app/web/sounds.py): each line of every game's log is read as
a card drawn or taken, a card played or discarded, cards laid down or off, a round over, or no
sound; what every game's computer players do at a whole game makes each of its kinds."""

from __future__ import annotations

import re

import pytest

from support.games import page, play_game, text

import app.games  # noqa: F401  (registers every game)
from app.core import registry
from app.core.protocol import said
from app.simulate import play_bot_game
from app.web.sounds import SOUND_KINDS, line_sound

SEATS = {"seahaven": 1, "points": 3}
# What a whole game of each game's computer players makes heard (its own moves' kinds).
HEARD = {
    "mason": {"draw", "play", "meld", "round"},
    "rummy": {"draw", "play", "meld", "round"},
    "points": {"draw", "play", "round"},
    "twentyone": {"draw", "play", "round"},
    "seahaven": {"play", "round"},
}


@pytest.mark.parametrize("definition", registry.games(), ids=lambda d: d.key)
def test_every_line_of_a_whole_game_is_a_known_sound_and_every_kind_of_the_game_is_heard(definition):
    assert definition.key in HEARD, "a new game: say what its players hear"
    state = play_bot_game(definition, SEATS.get(definition.key, 2), seed=7)
    kinds = {line_sound(line) for line in state.log}
    assert kinds <= {kind for kind, _ in SOUND_KINDS} | {""}
    assert kinds - {""} == HEARD[definition.key], [(line.get("say"), line_sound(line)) for line in state.log][-30:]


def test_a_line_is_heard_by_its_message():
    assert line_sound({"say": said("{player} drew from the stock pile.", player="Ann")}) == "draw"
    assert line_sound({"say": said("{player} took the {card} from the discard pile.", player="Ann", card="7H")}) == "draw"
    assert line_sound({"say": said("{player} discarded the {card}.", player="Ann", card="7H")}) == "play"
    assert line_sound({"say": said("{player} laid down a run: {cards}.", player="Ann", cards=["2C"])}) == "meld"
    assert line_sound({"say": said("{player} went out and ends round {round}.", player="Ann", round=1)}) == "round"
    assert line_sound({"say": said("Undid the move of the {card} from {from} to {to}.", card="7H")}) == ""
    assert line_sound({"say": said(("{count} card", "{count} cards"), count=2)}) == ""
    assert line_sound({"text": "Ann discarded 7H."}) == ""  # (a line kept before lines had words)


def news(html: str) -> str:
    found = re.search(r'id="table"[^>]* data-news="([a-z]*)" data-news-at="(\d+)"', html)
    assert found, "the table names no news"
    return found.group(1)


def test_the_table_names_its_latest_news_for_the_page_s_sounds(player):
    """quick_out.deck: Doris draws (a card drawn), lays down (cards laid down) and goes out with
    her last lay-down (R5.7: the round over)."""
    slug = player.start_game(["Doris", "AI"], deck="quick_out.deck")
    assert news(player.table(slug).html) == ""  # the deal: no sound
    assert news(page(player.act(slug, "draw_stock")).html) == "draw"
    assert news(page(player.act(slug, "lay_down", ["2C", "3C", "4C", "5C"])).html) == "meld"
    player.act(slug, "lay_down", ["9P", "TP", "JP", "QP"])
    assert news(page(player.act(slug, "lay_down", ["7D", "7H", "7S"])).html) == "round"


def test_a_game_over_is_won_or_lost_for_a_seat_and_the_round_s_sound_for_a_spectator(player, make_player):
    slug = player.start_game(["Doris", "AI"], deck="quick_out.deck")
    play_game(player, slug)
    state, _version = player.state(slug)
    won = {result.seat: result.won for result in state.results()}
    assert news(player.table(slug).html) == ("won" if won[0] else "lost")
    watcher = make_player()
    assert news(text(watcher.get(f"/games/{slug}/watch"))) == "round"
