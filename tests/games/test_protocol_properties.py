"""One property test for every registered game (the protocol of app/core/protocol.py).

Hypothesis deals games of every seat count from random seeds or random stacked decks, then plays
random actions: moves drawn from ``legal()`` (with random cards and targets where a move takes
them) and illegal ones (another seat's moves, made-up actions, cards from elsewhere, seats out of
range). After every step:

- every card of the game's deck is in exactly one place (``card_locations``);
- a refused action raised an ``IllegalAction`` and changed nothing (``to_dict`` equal);
- ``from_dict(to_dict())`` is the same state, and the state survives JSON;
- no seat's view (nor a spectator's) holds a card the game hides from it (``hidden_from``);
- ``to_move()`` is a seat or None, and its seat has moves.

And a game played by its computer players alone ends, with a result for every seat. A game gets
all of this by registering.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, note, settings, strategies as st

import app.games  # noqa: F401  (registers every game)
from app.core import IllegalAction, registry
from app.core.autoplay import autoplay
from app.core.names import COMPUTER_NAME

GAMES = [definition.key for definition in registry.games()]
# Games whose random play takes more than about 5 s here (Mason Rummy's 65-card deals: about 10 s).
SLOW_GAMES = {"mason"}
GAME_PARAMS = [pytest.param(key, marks=pytest.mark.slow) if key in SLOW_GAMES else key for key in GAMES]
SETTINGS = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example,
                                           HealthCheck.data_too_large])
STEPS = 160
WORD = re.compile(r"[A-Za-z0-9]{2}(?:-\d)?")


def seat_names(definition, seats: int, computers: list[bool]) -> list[str]:
    people = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]
    return [COMPUTER_NAME if definition.bot is not None and computers[seat] else people[seat] for seat in range(seats)]


def new_game(definition, data):
    seats = data.draw(st.integers(definition.min_seats, definition.max_seats), label="seats")
    computers = data.draw(st.lists(st.booleans(), min_size=seats, max_size=seats), label="computer seats")
    names = seat_names(definition, seats, computers)
    options = definition.validate_options({})
    seed = data.draw(st.integers(0, 2**32), label="seed")
    stacked = None
    if definition.deck is not None and data.draw(st.booleans(), label="stacked"):
        deck = definition.deck_for(seats)
        stacked = list(deck.cards)
        random.Random(seed).shuffle(stacked)
    return definition.new_state(names, options=options, seed=None if stacked else seed, stacked_deck=stacked)


def strings_in(value, found: set[str]) -> set[str]:
    if isinstance(value, str):
        found.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            strings_in(item, found)
    elif isinstance(value, (list, tuple)):
        for item in value:
            strings_in(item, found)
    return found


def check_privacy(state) -> None:
    seats = len(state.names)
    for seat in list(range(seats)) + [None]:
        view = state.view(seat)
        hidden = state.hidden_from(seat)
        if not hidden:
            continue
        hidden_ids = {card.id for card in hidden}
        leaves = strings_in(view, set())
        leaked = hidden_ids & leaves
        assert not leaked, f"seat {seat}'s view shows {sorted(leaked)}"
        # In texts (the log), a code gives a card away only if every copy of it is hidden.
        fully_hidden = {card.code for card in hidden
                        if all(copy in hidden for copy in state.deck.copies_of(card.code))}
        for text in leaves:
            if " " in text:
                words = set(WORD.findall(text))
                assert not words & fully_hidden, f"seat {seat}'s view names {sorted(words & fully_hidden)} in {text!r}"


def check_state(state) -> None:
    definition = state.definition
    assert state.card_locations() == Counter(state.deck.cards), "a card is missing or in two places"
    data = state.to_dict()
    assert json.loads(json.dumps(data)) == data, "the state is not plain JSON data"
    again = definition.from_dict(json.loads(json.dumps(data)))
    assert again.to_dict() == data, "from_dict(to_dict()) is not the same state"
    mover = state.to_move()
    if state.is_over():
        assert mover is None
        assert len(state.results()) == len(state.names)
    else:
        assert state.results() == []
        if mover is not None:
            assert 0 <= mover < len(state.names)
            assert state.legal(mover), "the seat to move has nothing it may do"
        else:
            assert state.legal(None), "between rounds, nothing deals on"
    for move in state.legal(None):
        assert move.action in definition.table_actions, f"{move.action} is a table move but not in table_actions"
    check_privacy(state)


KINDS = ["legal"] * 6 + ["other seat", "any cards", "no such cards", "made up", "empty", "wrong types"]


def pick_action(state, rng: random.Random):
    """(seat, action data, kind): usually a move drawn from ``legal()`` with random cards and
    target; otherwise an illegal one."""
    seats = len(state.names)
    seat_pool = [None] + list(range(seats))
    legal = [(seat, move) for seat in seat_pool for move in state.legal(seat)]
    kind = rng.choice(KINDS) if legal else rng.choice(KINDS[6:])
    mover = state.to_move()
    if kind in ("made up", "empty", "wrong types"):
        action = {"made up": {"action": "no-such-action"}, "empty": {},
                  "wrong types": {"action": 7, "cards": "QH", "to": ["x"]}}[kind]
        return mover, action, kind
    seat, move = rng.choice(legal)
    hand = (state.view(seat).get("hand") or []) if seat is not None else []
    cards = []
    if move.pick is not None:
        fewest, most = move.pick
        size = rng.randint(min(fewest, len(hand)), min(most, len(hand)))
        cards = rng.sample(hand, size)
    target = rng.choice(move.targets) if move.targets else None
    action = move.as_dict(cards, target)
    if kind == "other seat":
        seat = rng.choice([other for other in seat_pool + [seats, -1] if other != seat])
    elif kind == "any cards":
        action["cards"] = rng.sample([card.id for card in state.deck.cards], rng.randint(0, 4))
    elif kind == "no such cards":
        action["cards"] = ["ZZ", "", "1C", "qh-9"][:rng.randint(1, 4)]
    return seat, action, kind


@pytest.mark.parametrize("key", GAME_PARAMS)
@SETTINGS
@given(data=st.data())
def test_random_play_keeps_every_promise(key, data):
    definition = registry.get(key)
    state = new_game(definition, data)
    check_state(state)
    for _step in range(STEPS):
        if state.is_over():
            break
        rng = random.Random(data.draw(st.integers(0, 2**32), label="step"))
        seat, action_data, kind = pick_action(state, rng)
        before = state.to_dict()
        try:
            action = definition.action_from_dict(action_data)
            state.apply(seat, action)
        except IllegalAction as refusal:
            note(f"refused ({kind}) {action_data} for seat {seat}: {refusal}")
            assert str(refusal), "a refusal must say why"
            assert state.to_dict() == before, f"a refused action changed the game: {action_data}"
            continue
        note(f"applied ({kind}) {action_data} for seat {seat}")
        check_state(state)


@pytest.mark.parametrize("key", GAMES)
def test_computer_players_alone_finish_the_game(key):
    definition = registry.get(key)
    if definition.bot is None:
        pytest.skip(f"{definition.name} has no computer player")
    for seats in range(definition.min_seats, definition.max_seats + 1):
        for seed in range(3):
            state = definition.new_state([COMPUTER_NAME] * seats, options=definition.validate_options({}), seed=seed)
            autoplay(state, lambda seat: definition.bot, deal_on=True)
            assert state.is_over(), f"{seats} computer seats, seed {seed}: the game did not end"
            results = state.results()
            assert [result.seat for result in results] == list(range(seats))
