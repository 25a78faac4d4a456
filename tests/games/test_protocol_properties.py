"""One property test for every registered game (the protocol of app/core/protocol.py).

Hypothesis deals games of every seat count, with set-up options drawn from the game's own
``options``, from random seeds or random stacked decks, then plays random actions: moves drawn
from ``legal()`` (with random cards and targets where a move takes them) and illegal ones
(another seat's moves, made-up actions, cards from elsewhere, seats out of range). After every
step:

- every card of the game's deck is in exactly one place (``card_locations``, and the zones);
- a refused action raised an ``IllegalAction`` and changed nothing (``to_dict`` equal);
- ``from_dict(to_dict())`` is the same state, through JSON too, with the same views and moves;
- an action of a legal move survives plain data: ``action_from_dict(action_to_dict(a)) == a``;
- no seat's view (nor a spectator's) names a card it may not see, judged from where the cards
  are (``zones``), not from the game's view code (``game_checks.check_privacy``), and no line of
  the whole game's log does as the log page shows it (``shown_log``);
- the whole game's log (the deal's lines and each applied action's ``Outcome.events``) is the
  log the state counts and whose last lines its views show; the saved state keeps only the last
  lines, and read back it shows every line and hides every card as the one that played
  (``game_checks.check_log``);
- ``to_move()`` is a seat or None, and its seat has moves;
- a move is ``private`` exactly when its action is of kind ``OWN`` (a seat's own business, which
  the house keeps as that seat's data, not as a move of the game).

A planted leak (another seat's hand, the stock, a face-down card added to a view) fails that
check in every game that hides a card. And a game played by its computer players alone ends,
with a result for every seat. A game gets all of this by registering: every registered game is
a parameter, and so is the sample sixth game of the tests (tests/sample_game), registered for
its own runs.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from contextlib import contextmanager

import pytest
from game_checks import check_log, check_privacy, check_zones, hidden_cards
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

import app.games  # noqa: F401  (registers every game)
from app.core import IllegalAction, registry
from app.core.autoplay import autoplay
from app.core.names import COMPUTER_NAME
from app.core.protocol import NORMAL, OWN, STRONG, BadAction, Option, copy_log
from support.sample import SAMPLE, sample_registered

GAMES = [definition.key for definition in registry.games()] + [SAMPLE.key]
# Games whose random play takes more than about 5 s here (Mason Rummy's 65-card deals: about 10 s).
SLOW_GAMES = {"mason"}
GAME_PARAMS = [pytest.param(key, marks=pytest.mark.slow) if key in SLOW_GAMES else key for key in GAMES]
SETTINGS = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example,
                                           HealthCheck.data_too_large])
STEPS = 160


@contextmanager
def registered(key: str):
    """The game ``key``'s definition, registered while the test runs (the sample game is
    registered for it alone)."""
    if key == SAMPLE.key:
        with sample_registered() as definition:
            yield definition
    else:
        yield registry.get(key)


def seat_names(definition, seats: int, computers: list[bool]) -> list[str]:
    people = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]
    return [COMPUTER_NAME if definition.bot is not None and computers[seat] else people[seat] for seat in range(seats)]


def option_values(option: Option) -> st.SearchStrategy:
    """Any value the set-up form accepts for ``option``, as a form posts it or as a value."""
    if option.kind == "bool":
        return st.booleans()
    if option.kind == "int":
        return st.integers(option.low, option.high) | st.integers(option.low, option.high).map(str)
    return st.sampled_from([value for value, _label in option.choices])


def new_game(definition, data):
    seats = data.draw(st.integers(definition.min_seats, definition.max_seats), label="seats")
    computers = data.draw(st.lists(st.booleans(), min_size=seats, max_size=seats), label="computer seats")
    names = seat_names(definition, seats, computers)
    chosen = data.draw(st.fixed_dictionaries({}, optional={option.key: option_values(option)
                                                           for option in definition.options}), label="options")
    options = definition.validate_options(chosen)
    seed = data.draw(st.integers(0, 2**32), label="seed")
    stacked = None
    if definition.deck is not None and data.draw(st.booleans(), label="stacked"):
        deck = definition.deck_for(seats)
        stacked = list(deck.cards)
        random.Random(seed).shuffle(stacked)
    return definition.new_state(names, options=options, seed=None if stacked else seed, stacked_deck=stacked)


def seats_and_spectator(state) -> list[int | None]:
    return [*range(len(state.names)), None]


def check_state(state, whole_log) -> None:
    """``whole_log``: every line of the game's log since the deal."""
    definition = state.definition
    assert state.card_locations() == Counter(state.deck.cards), "a card is missing or in two places"
    check_zones(state)
    data = state.to_dict()
    assert json.loads(json.dumps(data)) == data, "the state is not plain JSON data"
    again = definition.from_dict(json.loads(json.dumps(data)))
    assert again.to_dict() == data, "from_dict(to_dict()) is not the same state"
    for seat in seats_and_spectator(state):
        assert again.view(seat) == state.view(seat), f"seat {seat}'s view changed through to_dict/from_dict"
        assert again.legal(seat) == state.legal(seat), f"seat {seat}'s moves changed through to_dict/from_dict"
    check_log(state, again, whole_log)
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
    check_private_moves(state)
    check_privacy(state, whole_log)


def check_private_moves(state) -> None:
    """Every seat's moves: ``private`` exactly for the actions of kind OWN."""
    definition = state.definition
    for seat in seats_and_spectator(state):
        hand = (state.view(seat).get("hand") or []) if seat is not None else []
        for move in state.legal(seat):
            cards = hand[:move.pick[0]] if move.pick is not None else []
            action = definition.action_from_dict(move.as_dict(cards, move.targets[0] if move.targets else None))
            own = definition.action_kinds.get(type(action)) is OWN
            assert move.private == own, f"{move.action}: private={move.private}, but its action's kind is " \
                                        f"{definition.action_kinds.get(type(action))}"


KINDS = ["legal"] * 6 + ["other seat", "any cards", "no such cards", "odd values", "made up", "empty", "wrong types"]
# What a hand-edited file or a forged form may put in any field of an action.
ODD_VALUES = [None, True, -1, 1.5, 10**30, "", "x" * 300, [], [None], [[]], [{}], [1, 2], {}, {"action": "discard"}]


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
    elif kind == "odd values":
        action[rng.choice(sorted(action) + ["cards"])] = rng.choice(ODD_VALUES)
    return seat, action, kind


def check_round_trip(definition, action, kind: str) -> None:
    if kind == "legal":
        data = definition.action_to_dict(action)
        assert json.loads(json.dumps(data)) == data, f"{action!r} is not plain JSON data"
        assert definition.action_from_dict(data) == action, f"{action!r} does not survive action_to_dict"


@pytest.mark.parametrize("key", GAME_PARAMS)
@SETTINGS
@given(data=st.data())
def test_random_play_keeps_every_promise(key, data):
    with registered(key) as definition:
        play_randomly(definition, data)


def play_randomly(definition, data) -> None:
    state = new_game(definition, data)
    whole_log = copy_log(state.log)  # the deal's lines
    check_state(state, whole_log)
    for _step in range(STEPS):
        if state.is_over():
            break
        rng = random.Random(data.draw(st.integers(0, 2**32), label="step"))
        seat, action_data, kind = pick_action(state, rng)
        before = state.to_dict()
        try:
            action = definition.action_from_dict(action_data)
            check_round_trip(definition, action, kind)
            outcome = state.apply(seat, action)
        except IllegalAction as refusal:
            note(f"refused ({kind}) {action_data} for seat {seat}: {refusal}")
            assert str(refusal), "a refusal must say why"
            assert state.to_dict() == before, f"a refused action changed the game: {action_data}"
            continue
        note(f"applied ({kind}) {action_data} for seat {seat}")
        whole_log += copy_log(outcome.events)
        check_state(state, whole_log)


@pytest.mark.parametrize("key", GAMES)
def test_an_object_that_is_no_action_of_the_game_is_a_bad_action(key):
    with registered(key) as definition:
        state = definition.new_state([COMPUTER_NAME] * definition.min_seats, seed=1)
        before = state.to_dict()
        for seat in seats_and_spectator(state):
            with pytest.raises(BadAction):
                state.apply(seat, object())
        assert state.to_dict() == before


# -- a planted leak fails the privacy check, in every game that hides a card ------------------------------


def others_hand(state, seat: int) -> list[str]:
    """Another seat's hidden cards: what a leaking view would add."""
    other = (seat + 1) % len(state.names)
    return sorted(card.id for card in hidden_cards(state, seat) if card in set(hand_of(state, other)))


CARD_OF = {definition.deck: definition.deck.cards for definition in registry.games() if definition.deck}


def hand_of(state, seat: int):
    return {"mason": lambda: state.players[seat].hand.cards,
            "rummy": lambda: state.players[seat].hand.cards(),
            "points": lambda: state.hands[seat]}[state.definition.key]()


def log_leak(state, seat: int, view) -> None:
    """Any game's leak: a log line that names a card the seat may not see (a draw announced with
    the card drawn)."""
    hidden = sorted(card.id for card in hidden_cards(state, seat))
    assert hidden, f"{state.definition.name} hides nothing from seat {seat}: list it in NOTHING_HIDDEN"
    view["log"].append({"seat": None, "text": "A card is drawn.", "cards": hidden[:1]})


# Where a careless view of each game might put another seat's cards, the stock, or a face-down
# card; any other game gets ``log_leak``.
LEAKS = {
    "mason": lambda state, seat, view: view["players"][(seat + 1) % len(state.names)].update(
        hand=others_hand(state, seat)),
    "rummy": lambda state, seat, view: view.update(stock=[CARD_OF[state.deck][n].id for n in state.stock.cards]),
    "points": lambda state, seat, view: view["groups"].append({"cards": others_hand(state, seat)}),
    "twentyone": lambda state, seat, view: view["dealer"].update(cards=[card.id for card in state.table.dealer.hand]),
}
NOTHING_HIDDEN = {"seahaven": "every card lies face up (S2.1)"}


@pytest.mark.parametrize("key", GAMES)
def test_a_view_that_shows_a_hidden_card_fails_the_privacy_check(key, monkeypatch):
    with registered(key) as definition:
        plant_a_leak(definition, monkeypatch)


def plant_a_leak(definition, monkeypatch) -> None:
    key = definition.key
    state = definition.new_state(["Ann", "Bob"][:max(definition.min_seats, min(2, definition.max_seats))],
                                 options=definition.validate_options({}), seed=7)
    check_privacy(state)
    if key in NOTHING_HIDDEN:
        assert all(not hidden_cards(state, seat) for seat in seats_and_spectator(state))
        pytest.skip(f"{definition.name} hides nothing: {NOTHING_HIDDEN[key]}")
    leak = LEAKS.get(key, log_leak)
    honest = type(state).view

    def leaking_view(self, seat):
        view = honest(self, seat)
        if seat is not None:
            leak(self, seat, view)
        return view

    monkeypatch.setattr(type(state), "view", leaking_view)
    with pytest.raises(AssertionError, match="may not see"):
        check_privacy(state)


def strength_params() -> list:
    """(key, strength) for every game and each strength of its computer players (normal alone
    for a game without one: the test says so); the slow games' and the strong players' marked
    slow."""
    params = []
    for key in GAMES:
        definition = SAMPLE if key == SAMPLE.key else registry.get(key)
        for strength in definition.strengths or (NORMAL,):
            slow = key in SLOW_GAMES or strength == STRONG
            params.append(pytest.param(key, strength, marks=pytest.mark.slow) if slow else (key, strength))
    return params


@pytest.mark.parametrize("key, strength", strength_params())
def test_computer_players_alone_finish_the_game(key, strength):
    with registered(key) as definition:
        play_with_computers(definition, strength)


@pytest.mark.parametrize("key", GAMES)
def test_once_the_game_is_over_nothing_is_hidden_and_the_whole_log_names_every_card(key):
    """After a game every hand is shown (its results, the replay's last steps) and the whole
    game's log masks no card (``??``) for anyone: every zone is everyone's."""
    with registered(key) as definition:
        if definition.bot is None:
            pytest.skip(f"{definition.name} has no computer player")
        for seats in sorted({definition.min_seats, definition.max_seats}):
            for seed in range(2):
                state = definition.new_state([COMPUTER_NAME] * seats, options=definition.validate_options({}),
                                             seed=seed)
                whole_log = copy_log(state.log)
                for outcome in autoplay(state, lambda seat: definition.bot, deal_on=True):
                    whole_log += copy_log(outcome.events)
                assert state.is_over()
                check_zones(state)
                for seat in [*range(seats), None]:
                    assert state.hidden_from(seat) == set()
                    assert not [event["text"] for event in state.shown_log(seat, whole_log, 0) if "??" in event["text"]]


def play_with_computers(definition, strength: str = NORMAL) -> None:
    bot = definition.bot_of(strength)
    if bot is None:
        pytest.skip(f"{definition.name} has no computer player")
    for seats in range(definition.min_seats, definition.max_seats + 1):
        for seed in range(3):
            state = definition.new_state([COMPUTER_NAME] * seats, options=definition.validate_options({}), seed=seed)
            autoplay(state, lambda seat: bot, deal_on=True)
            assert state.is_over(), f"{seats} computer seats, seed {seed}: the game did not end"
            results = state.results()
            assert [result.seat for result in results] == list(range(seats))
