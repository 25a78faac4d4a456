"""The computer players of other strengths (easy and strong, beside the rule book's normal one):
each chooses only among ``legal(seat)``, sees only ``view(seat)`` (the same move whatever the
hidden cards are), plays the same in the same position, and plays games to their end. The
strength of each is measured by the simulator's ladder (``python -m app.simulate --ladder``),
not here."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import app.games  # noqa: F401  (registers every game)
from app.core import registry
from app.core.autoplay import autoplay
from app.core.names import COMPUTER_NAME
from app.core.protocol import EASY, NORMAL, STRENGTHS, STRONG, GameState, Measured

# The games whose other strengths this branch brings (Mason Rummy's R8 and Classic Rummy's C6
# players stay the normal ones).
KEYS = ["mason", "rummy"]
# (The strong players weigh their choices by playing them out: their games take seconds.)
PAIRS = [pytest.param(key, strength, marks=pytest.mark.slow) if strength == STRONG else (key, strength)
         for key in KEYS for strength in (EASY, STRONG)]
TABLE_SEATS = {"mason": (2, 3), "rummy": (2, 3, 6)}


def legal_move_for(state: GameState, seat: int, action: Any):
    """The legal move of ``seat`` that ``action`` is (its name, fixed fields, cards of the seat's
    hand in number and a target it offers), or None."""
    data = state.definition.action_to_dict(action)
    hand = set(state.view(seat)["hand"] or ())
    for move in state.legal(seat):
        if move.action != data["action"] or any(str(data.get(key)) != value for key, value in move.params):
            continue
        if move.pick is not None:
            cards = data.get("cards", [])
            fewest, most = move.pick
            if not fewest <= len(cards) <= most or not set(cards) <= hand or len(set(cards)) != len(cards):
                continue
        if move.target is not None and str(data.get(move.target)) not in move.targets:
            continue
        return move
    return None


def positions(key: str, strength: str, seats: int, games: int, seed: str = "s"):
    """Every position where a seat played by the ``strength`` player is to move, in ``games``
    games of that player in seat 1 against the normal one in the others (the state, the seat and
    the player's choice), played through to each game's end."""
    definition = registry.get(key)
    bot = definition.bot_of(strength)
    bots = [bot] + [definition.bot] * (seats - 1)
    for number in range(games):
        state = definition.new_state([COMPUTER_NAME] * seats, options=definition.validate_options({}),
                                     seed=f"{seed}/{number}")
        while not state.is_over():
            seat = state.to_move()
            if seat is None:
                state.apply(None, definition.action_from_dict(state.legal(None)[0].as_dict()))
                continue
            action = bots[seat].choose(state, seat)
            if seat == 0:
                yield state, seat, action
            state.apply(seat, action)


def shuffled_hidden(state: GameState, seat: int, rng: random.Random) -> GameState:
    """``state`` with the cards ``seat`` may not see (the other hands, the stock...) shuffled
    among their places: every other card, the log and how the game was dealt stay as they are."""
    hidden = sorted(card.id for card in state.hidden_from(seat))
    shuffled = list(hidden)
    rng.shuffle(shuffled)
    swap = dict(zip(hidden, shuffled))

    def change(value: Any) -> Any:
        if isinstance(value, str):
            return swap.get(value, value)
        if isinstance(value, list):
            return [change(item) for item in value]
        if isinstance(value, dict):
            return {key: item if key in ("log", "stacked_deck", "seed") else change(item)
                    for key, item in value.items()}
        return value

    return state.definition.from_dict(change(json.loads(json.dumps(state.to_dict()))))


@pytest.mark.parametrize("key, strength", PAIRS)
def test_a_strength_is_registered_beside_the_rule_books_player(key, strength):
    definition = registry.get(key)
    assert definition.strengths == STRENGTHS
    assert definition.bot_of(NORMAL) is definition.bot  # R8 and C6: the seats named AI
    assert definition.bot_of(strength) is definition.other_bots[strength]
    assert definition.bot_of(strength) is not definition.bot


@pytest.mark.parametrize("key, strength", PAIRS)
def test_every_choice_is_a_legal_move_and_the_game_takes_it(key, strength):
    """Through whole games (R8/C6's player in the other seat): each choice is one of
    ``legal(seat)``, with cards of the seat's own hand, and ``apply`` takes it (``positions``
    applies every choice)."""
    seen = set()
    for state, seat, action in positions(key, strength, 2, 2):
        move = legal_move_for(state, seat, action)
        assert move is not None, f"{action} is none of {[m.button for m in state.legal(seat)]}"
        seen.add(move.action)
    assert len(seen) >= 3  # drawing, laying down or melding, discarding


@pytest.mark.parametrize("key, strength", PAIRS)
def test_the_same_position_gets_the_same_move(key, strength):
    """Deterministic for a state: asked twice, or asked of the state read back from its saved
    data, the player makes the same move."""
    definition = registry.get(key)
    bot = definition.bot_of(strength)
    for index, (state, seat, action) in enumerate(positions(key, strength, 2, 1, seed="same")):
        if index % 3:
            continue
        assert bot.choose(state, seat) == action
        assert bot.choose(definition.from_dict(state.to_dict()), seat) == action


@pytest.mark.parametrize("key, strength", PAIRS)
def test_a_game_of_the_player_is_the_same_game_from_the_same_seed(key, strength):
    definition = registry.get(key)
    bot = definition.bot_of(strength)

    def game() -> dict:
        state = definition.new_state([COMPUTER_NAME] * 2, options=definition.validate_options({}), seed="again")
        autoplay(state, lambda seat: bot, deal_on=True)
        assert state.is_over()
        return state.to_dict()

    assert game() == game()


@pytest.mark.parametrize("key, strength", PAIRS)
def test_the_player_sees_only_its_view_the_hidden_cards_change_nothing(key, strength):
    """R4.4 / C7.1: with the cards the seat may not see shuffled among their places (the other
    hands, the stock), the player makes the same move."""
    definition = registry.get(key)
    bot = definition.bot_of(strength)
    rng = random.Random(7)
    checked = 0
    for index, (state, seat, action) in enumerate(positions(key, strength, 2, 1, seed="hidden")):
        if index % 2:
            continue
        other = shuffled_hidden(state, seat, rng)
        if other.to_dict() == state.to_dict():
            continue  # nothing was hidden (or the shuffle left every card where it was)
        assert other.view(seat) == state.view(seat)
        assert bot.choose(other, seat) == action, f"move {index}: the hidden cards changed the move"
        checked += 1
    assert checked >= 20


def test_shuffling_the_hidden_cards_changes_what_the_seat_cannot_see():
    """The check above is no empty one: the shuffled state holds the other hand's cards in other
    places, and the rule book's player, which reads the state, may tell them apart."""
    state = next(state for state, _seat, _action in positions("rummy", STRONG, 2, 1, seed="hidden"))
    other = shuffled_hidden(state, 0, random.Random(1))
    assert other.players[1].hand.mask != state.players[1].hand.mask
    assert other.players[0].hand.mask == state.players[0].hand.mask


@pytest.mark.slow
@pytest.mark.parametrize("key, strength", PAIRS)
def test_tables_of_the_player_alone_play_to_the_end(key, strength):
    """Every seat the same player, at each table size: every game ends with a result a seat."""
    definition = registry.get(key)
    bot = definition.bot_of(strength)
    for seats in TABLE_SEATS[key]:
        state = definition.new_state([COMPUTER_NAME] * seats, options=definition.validate_options({}),
                                     seed=f"alone/{seats}")
        autoplay(state, lambda seat: bot, deal_on=True)
        assert state.is_over()
        assert [result.seat for result in state.results()] == list(range(seats))


@pytest.mark.parametrize("measured, line", [
    (Measured(2000, share=0.667), "beats normal in 2 of 3 games"),
    (Measured(2000, share=0.61), "beats normal in 3 of 5 games"),
    (Measured(2000, share=0.33), "loses to normal in 2 of 3 games"),
    (Measured(2000, share=0.5), "wins about half its games against normal"),
    (Measured(2000, share=0.563), "beats normal in 56% of games"),
    (Measured(2000, share=0.91, against="random play"), "beats random play in 9 of 10 games"),
    (Measured(1000, share=0.994, against="random discards"), "beats random discards in 99% of games"),
    (Measured(5000, per_round=-0.046), "on balance loses 5 rounds in 100 against the dealer"),
    (Measured(5000, per_round=0.012), "on balance wins 1 round in 100 against the dealer"),
])
def test_a_measured_strength_reads_as_a_line_for_players(measured, line):
    assert measured.line() == line


def games_with_strengths() -> list:
    return [definition for definition in registry.games() if len(definition.strengths) > 1]


@pytest.mark.parametrize("definition", games_with_strengths(), ids=lambda definition: definition.key)
def test_every_strength_has_its_measured_line_and_the_ladder_climbs(definition):
    """The players choosing a computer player read how each strength did (``strength_note``, from
    the figures ``python -m app.simulate --ladder`` printed, kept in the definition's
    ``measured``): each beats the one below it, or does better than it against the dealer."""
    for strength in definition.strengths:
        assert definition.strength_note(strength), strength
    figures = [definition.measured[strength] for strength in definition.strengths]
    if all(measured.per_round is not None for measured in figures):
        returns = [measured.per_round for measured in figures]
        assert returns == sorted(returns), returns
    else:
        for weaker, stronger in zip(definition.strengths, definition.strengths[1:]):
            assert definition.measured[stronger].against == weaker
            assert definition.measured[stronger].share > 0.5
