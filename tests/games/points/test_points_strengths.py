"""Points Rummy's computer players at three strengths: easy (``Beginner``), normal (P7,
``PointsBot``: the rule book's) and strong (``Strategist``). Each sees only its seat's view and
the cards its seat has seen, chooses among its legal moves, always the same in the same state,
and plays games to the end."""

from __future__ import annotations

import random

import pytest
from points_helpers import stacked_game

from app.core.autoplay import autoplay
from app.core.protocol import EASY, NORMAL, STRENGTHS, STRONG
from app.games.points import DEFINITION
from app.games.points.actions import CLOSED, OPEN, Declare, Discard, Draw, action_to_dict
from app.games.points.bot import PointsBot
from app.games.points.strengths import Beginner, Strategist


def test_three_strengths_the_normal_one_is_the_rule_books():
    assert DEFINITION.strengths == STRENGTHS
    assert DEFINITION.bot_of(NORMAL) is DEFINITION.bot and isinstance(DEFINITION.bot, PointsBot)  # P7
    assert isinstance(DEFINITION.bot_of(EASY), Beginner) and isinstance(DEFINITION.bot_of(STRONG), Strategist)


def decisions(strengths, games=6, seats=2, deals=1):
    """States where a computer seat is to move, in games of these strengths seat by seat."""
    bots = [DEFINITION.bot_of(strength) for strength in strengths]
    for number in range(games):
        state = DEFINITION.new_state(["AI"] * seats, options={"deals": deals}, seed=f"strengths/{number}")
        while not state.is_over():
            seat = state.to_move()
            if seat is None:
                state.apply(None, DEFINITION.action_from_dict(state.legal(None)[0].as_dict()))
                continue
            yield state, seat, bots[seat % len(bots)]
            state.apply(seat, bots[seat % len(bots)].choose(state, seat))


def hidden_shuffled(state, seat, rng):
    """A copy of ``state`` with the cards ``seat`` may not see (the closed deck's and the other
    hands' unseen cards, P6.3) dealt among their places again at random."""
    hidden = {card.id for card in state.hidden_from(seat)}
    data = state.to_dict()
    places = [("closed", None, index) for index, card in enumerate(data["closed"]) if card in hidden]
    for other, hand in enumerate(data["hands"]):
        if other != seat:
            places += [("hands", other, index) for index, card in enumerate(hand) if card in hidden]
            data["arrangements"][other] = []  # (private groups of cards that may move away)
    cards = [data[key][index] if other is None else data[key][other][index] for key, other, index in places]
    rng.shuffle(cards)
    for (key, other, index), card in zip(places, cards):
        if other is None:
            data[key][index] = card
        else:
            data[key][other][index] = card
    again = DEFINITION.from_dict(data)
    assert again.view(seat) == state.view(seat)
    assert again.to_dict() != state.to_dict() or len(cards) < 2
    return again


@pytest.mark.parametrize("strength", [EASY, pytest.param(STRONG, marks=pytest.mark.slow)])
def test_a_player_sees_only_what_its_seat_sees_the_hidden_cards_dealt_again_change_nothing(strength):
    rng = random.Random(strength)
    checked = 0
    for state, seat, bot in decisions((strength, NORMAL), games=3):
        if seat != 0:
            continue
        assert bot.choose(hidden_shuffled(state, seat, rng), seat) == bot.choose(state, seat)
        checked += 1
    assert checked > 30


@pytest.mark.parametrize("strength", [EASY, pytest.param(STRONG, marks=pytest.mark.slow)])
def test_a_player_is_deterministic_and_changes_nothing(strength):
    for state, seat, bot in decisions((strength, strength), games=2):
        before = state.to_dict()
        first = bot.choose(state, seat)
        assert state.to_dict() == before
        assert bot.choose(DEFINITION.from_dict(before), seat) == first


def as_legal(state, seat, action) -> bool:
    """Whether ``action`` is one of the seat's legal moves, with cards of its own hand."""
    data = action_to_dict(action)
    own = {card.id for card in state.hands[seat]}
    for move in state.legal(seat):
        if move.action != data["action"] or any(data.get(key) != value for key, value in move.params):
            continue
        chosen = data.get("cards", [])
        if move.pick is None or (move.pick[0] <= len(chosen) <= move.pick[1] and set(chosen) <= own):
            return True
    return False


@pytest.mark.parametrize("strength", [EASY, pytest.param(STRONG, marks=pytest.mark.slow)])
def test_a_player_chooses_among_its_legal_moves_only(strength):
    for state, seat, bot in decisions((strength, strength, NORMAL), games=2, seats=3):
        if bot is DEFINITION.bot:
            continue
        assert as_legal(state, seat, bot.choose(state, seat))
    state = DEFINITION.new_state(["AI", "AI"], seed=1)
    with pytest.raises(ValueError, match="may not"):
        DEFINITION.bot_of(strength).choose(state, 1 - state.to_move())  # not its turn


@pytest.mark.parametrize("strengths", [(EASY, STRONG), pytest.param((STRONG, NORMAL, EASY), marks=pytest.mark.slow),
                                       pytest.param((STRONG,) * 2, marks=pytest.mark.slow)])
def test_every_strength_plays_whole_games_to_the_end(strengths):
    bots = [DEFINITION.bot_of(strength) for strength in strengths]
    for number in range(2):
        state = DEFINITION.new_state(["AI"] * len(strengths), options={"deals": 1 + number},
                                     seed=f"to the end/{number}")
        autoplay(state, lambda seat: bots[seat], deal_on=True)
        assert state.is_over() and len(state.deal_results) == 1 + number
        assert all(result["how"] != "wrong declaration" for result in state.deal_results)
        assert not any(row["reason"] == "wrong declaration" for result in state.deal_results for row in result["rows"])


# -- the strong player's choices ----------------------------------------------------------------------

HANDS = ["4C 5C 7C 9S JK JS 2S 2H 2D KH KS KD 5H",  # 6C would make it one card from declaring
         "AD 3D 6D 8D TD QD 3C 9C JC 3H 7H 9H JH"]


def test_strong_takes_the_open_card_that_brings_it_closer_and_not_one_that_does_not():
    takes = stacked_game(HANDS, "QC", "6C")
    assert takes.to_move() == 0 and Strategist().choose(takes, 0) == Draw(OPEN)
    leaves = stacked_game(HANDS, "QC", "8S")
    assert Strategist().choose(leaves, 0) == Draw(CLOSED)


def test_strong_declares_as_soon_as_it_can_and_rightly():
    state = stacked_game(HANDS, "QC", "6C")
    state.apply(0, Draw(OPEN))
    action = Strategist().choose(state, 0)
    assert isinstance(action, Declare) and action.finish == ("5H",)
    state.apply(0, action)
    assert state.deal_results[-1]["winner"] == 0 and state.deal_results[-1]["how"] == "declared"  # P5.2


def test_strong_keeps_what_brings_it_closest_and_throws_a_loose_card():
    state = stacked_game(HANDS, "QC", "8C", closed_top="3S")
    state.apply(0, Draw(CLOSED))
    action = Strategist().choose(state, 0)
    assert isinstance(action, Discard) and action.cards[0] in {"5H", "3S"}  # every other card is needed
