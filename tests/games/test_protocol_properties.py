"""One property test for every registered game (the protocol of app/core/protocol.py).

Hypothesis deals games of every seat count, with set-up options drawn from the game's own
``options``, from random seeds or random stacked decks, then plays random actions: moves drawn
from ``legal()`` (with random cards and targets where a move takes them), the computer player's
choices, and illegal ones (another seat's moves, made-up actions, cards from elsewhere, seats out
of range, a legal move altered: another action's name, another target, other params, too many
or too few cards, another move's fields). After every step:

- every card of the game's deck is in exactly one place (``card_locations``, and the zones);
- a refused action raised an ``IllegalAction`` and changed nothing (``to_dict`` equal);
- ``from_dict(to_dict())`` is the same state, through JSON too, with the same views and moves;
- an action of a legal move (or the computer player's) survives plain data:
  ``action_from_dict(action_to_dict(a)) == a``;
- nothing a seat (or a spectator) reads names a card it may not see, judged from where the cards
  are (``zones``), not from the game's view code (``game_checks.check_privacy``): no string of
  its view, of its ``legal()`` moves' labels, questions, targets and params, nor any line of the
  whole game's log as the log page shows it (``shown_log``), in any spelling of the card (its
  id, its code inside a longer string, its rank and suit in words or symbols or as two fields of
  one dict);
- nor does anything a seat reads depend on which hidden card lies where (a hidden hand's total,
  the next stock card in a button's words): at some steps, the cards hidden from a seat are
  shuffled among their places, and two of them swap, and its view and moves stay exactly the
  same (``game_checks.check_swaps``);
- every action ``apply`` takes is one of the moves ``legal(seat)`` listed just before: its
  action and params, its cards (as many as the move picks, all from the seat's hand) and its
  target (one of the move's targets) (``listed_move``), the action as the game records it
  (``Outcome.action``, which the action log keeps and a replay applies: a Points Rummy
  declaration sent as "declare" alone is recorded with the finish card it takes);
- the whole game's log (the deal's lines and each applied action's ``Outcome.events``) is the
  log the state counts and whose last lines its views show; the saved state keeps only the last
  lines, and read back it shows every line and hides every card as the one that played
  (``game_checks.check_log``);
- ``to_move()`` is a seat or None, and its seat has moves;
- a move is ``private`` exactly when its action is of kind ``OWN`` (a seat's own business, which
  the house keeps as that seat's data, not as a move of the game);
- take-backs (the option ``take_backs``, drawn like every option; a take-back move, when one is
  listed, is often chosen): no hidden card ever becomes known by a take-back, proved from the
  zones: after a take-back (or the acceptance that makes it), every card a seat or a spectator
  may see was one it could see at some earlier step (``check_take_back``), and the state is the
  one before the action taken back, its log going on.

A planted leak (another seat's hand, the stock, a face-down card added to a view) fails that
check in every game that hides a card, in every spelling of the card; and so do leaks that
give a hidden card away otherwise (21's dealer's total while a card of it lies face down, the
next stock card in a button's words, a hidden card as rank and suit fields, a hand joined into
one string). And a game played by its computer players alone ends, with a result for every
seat. A game gets all of this by registering: every registered game is a parameter, and so is
the sample sixth game of the tests (tests/sample_game), registered for its own runs.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from contextlib import contextmanager

import pytest
from game_checks import check_log, check_privacy, check_swaps, check_zones, hidden_cards
from hypothesis import HealthCheck, assume, given, note, settings
from hypothesis import strategies as st

import app.games  # noqa: F401  (registers every game)
from app.core import IllegalAction, registry
from app.core.autoplay import autoplay
from app.core.cards import RANK_NAMES
from app.core.names import COMPUTER_NAME
from app.core.protocol import NORMAL, OWN, STRONG, BadAction, Move, Option, OptionError, copy_log
from support.sample import SAMPLE, sample_registered

GAMES = [definition.key for definition in registry.games()] + [SAMPLE.key]
# Games whose random play takes more than about 5 s here (Mason Rummy's 65-card deals: about 10 s).
SLOW_GAMES = {"mason"}
GAME_PARAMS = [pytest.param(key, marks=pytest.mark.slow) if key in SLOW_GAMES else key for key in GAMES]
SETTINGS = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example,
                                           HealthCheck.data_too_large])
STEPS = 160
# One step in this many (drawn at random) also rearranges the cards hidden from one seat
# (check_swaps, which reads the state back from its saved data twice): sampled, so that the test
# takes about the time it took before it.
SWAP_EVERY = 6


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
    try:
        options = definition.validate_options(chosen)
    except OptionError:
        assume(False)  # options that do not go together (a soft 17 where an ace is always 1): refused at set-up
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


KINDS = ["legal"] * 6 + ["computer"] + ["other seat", "any cards", "no such cards", "odd values", "made up", "empty",
                                       "wrong types", "altered"]
# How a legal move's action may be altered into one that legal() may not list.
ALTERATIONS = ["other action", "other target", "other params", "more or fewer cards", "cards of another move",
               "fields of another move"]
# What a hand-edited file or a forged form may put in any field of an action.
ODD_VALUES = [None, True, -1, 1.5, 10**30, "", "x" * 300, [], [None], [[]], [{}], [1, 2], {}, {"action": "discard"}]


def pick_action(state, rng: random.Random, params_seen: dict[str, set[str]] | None = None, hands=None):
    """(seat, action data, kind): usually a move drawn from ``legal()`` with random cards and
    target, or the computer player's choice; otherwise an illegal one. ``params_seen``: every
    value of each param that a move of this game has had so far (this step's moves are added);
    ``hands``: the seats' hands of this step (``Hands``)."""
    hands = Hands(state) if hands is None else hands
    seats = len(state.names)
    seat_pool = [None] + list(range(seats))
    legal = [(seat, move) for seat in seat_pool for move in state.legal(seat)]
    params_seen = {} if params_seen is None else params_seen
    for _seat, move in legal:
        for key, value in move.params:
            params_seen.setdefault(key, set()).add(value)
    kind = rng.choice(KINDS) if legal else rng.choice(KINDS[7:-1])
    mover = state.to_move()
    if kind == "computer":  # the game's computer player's choice: an action apply takes, which legal() lists
        if mover is not None and state.definition.bot is not None:
            return mover, state.definition.action_to_dict(state.definition.bot.choose(state, mover)), kind
        kind = "legal"
    if kind in ("made up", "empty", "wrong types"):
        action = {"made up": {"action": "no-such-action"}, "empty": {},
                  "wrong types": {"action": 7, "cards": "QH", "to": ["x"]}}[kind]
        return mover, action, kind
    if kind == "altered":
        seat, move = rng.choice(legal)
        moves = [other for _seat, other in legal]
        return seat, altered_action(state, seat, move, moves, params_seen, hands[seat], rng), kind
    seat, move = rng.choice(legal)
    hand = hands[seat]
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


def altered_action(state, seat, move: Move, moves: list[Move], params_seen: dict[str, set[str]], hand: list[str],
                   rng: random.Random) -> dict:
    """``move``'s action made into one that ``legal(seat)`` may well not list: another action's
    name, a target that is none of its targets, other values of its params (any value a move of
    the game has had, such as the pile a draw may not take now), too many or too few cards, the
    cards or fields of another move. ``hand``: the seat's own cards."""
    cards = rng.sample(hand, min(len(hand), move.pick[1])) if move.pick is not None else []
    action = move.as_dict(cards, rng.choice(move.targets) if move.targets else None)
    other = rng.choice(moves)
    alteration = rng.choice(ALTERATIONS)
    if alteration == "other action":
        names = [name for action_type in state.definition.action_types for name in action_type.names]
        action["action"] = rng.choice(names)
    elif alteration == "other target":
        field = move.target or other.target or "target"
        action[field] = rng.choice(["0", "-1", str(len(move.targets) + 1), "99", "x", ""])
    elif alteration == "other params":
        keys = [key for key, _value in move.params] or ([rng.choice(sorted(params_seen))] if params_seen else [])
        for key in keys:
            action[key] = rng.choice(sorted(params_seen.get(key, set())) + ["x", "", "0"])
    elif alteration == "more or fewer cards":
        size = rng.choice([0, 1, 2, 3, len(hand), len(hand) + 1])
        action["cards"] = rng.sample(hand, min(size, len(hand))) + ([rng.choice(state.deck.cards).id]
                                                                    if size > len(hand) else [])
    elif alteration == "cards of another move":
        action["cards"] = rng.sample(hand, rng.randint(0, min(3, len(hand))))
    else:
        action.update(other.as_dict(rng.sample(hand, min(len(hand), other.pick[0])) if other.pick else [],
                                    rng.choice(other.targets) if other.targets else None))
        action["action"] = move.action
    return action


def hand_of_seat(state, seat) -> list[str]:
    """The seat's own cards as its view lists them ([] for a spectator or no seat)."""
    if not state.is_seat(seat):
        return []
    return list(state.view(seat).get("hand") or [])


class Hands(dict):
    """The seats' own cards at one step, each read once (``hand_of_seat``: a view may be costly)."""

    def __init__(self, state):
        super().__init__()
        self.state = state

    def __missing__(self, seat):
        hand = self[seat] = hand_of_seat(self.state, seat)
        return hand


def listed_move(definition, action, moves: list[Move], hand: list[str]) -> Move | None:
    """The move of ``moves`` (``legal(seat)`` before the action) that ``action`` is, or None:
    the same action and params (compared as the game writes its actions as plain data), as many
    cards as the move picks and all of them from ``hand``, and a target among the move's
    targets. A field the move does not describe (Seahaven Towers' card named beside a move, as
    a check; the groups a Points Rummy declaration gives) may be anything."""
    data = definition.action_to_dict(action)
    for move in moves:
        cards = list(data.get("cards") or []) if move.pick is not None else []
        if move.pick is not None and not (move.pick[0] <= len(cards) <= move.pick[1] and set(cards) <= set(hand)):
            continue
        target = data.get(move.target) if move.target is not None else None
        if move.target is not None and str(target) not in move.targets:
            continue
        try:
            listed = definition.action_to_dict(definition.action_from_dict(move.as_dict(cards, target)))
        except BadAction:
            continue
        if all(data.get(key) == value for key, value in listed.items()):
            return move
    return None


def check_round_trip(definition, action, kind: str) -> None:
    if kind in ("legal", "computer"):
        data = definition.action_to_dict(action)
        assert json.loads(json.dumps(data)) == data, f"{action!r} is not plain JSON data"
        assert definition.action_from_dict(data) == action, f"{action!r} does not survive action_to_dict"


@pytest.mark.parametrize("key", GAME_PARAMS)
@SETTINGS
@given(data=st.data())
def test_random_play_keeps_every_promise(key, data):
    with registered(key) as definition:
        play_randomly(definition, data)


TAKE_BACK_MOVES = ("take_back", "accept_take_back", "refuse_take_back")


def known_cards(state, known: dict) -> None:
    """Add to ``known`` (seat or None -> cards) every card each may see now, from the zones."""
    everything = set(state.card_locations())
    for seat, hidden in state.hidden_by_seat().items():
        known.setdefault(seat, set()).update(everything - hidden)


def check_take_back(state, known: dict, kept_before: dict | None) -> None:
    """After a take-back: nobody may see a card they could not see at some earlier step (the
    zones say who sees what), and the game is the kept state, its log going on."""
    everything = set(state.card_locations())
    for seat, hidden in state.hidden_by_seat().items():
        shown = (everything - hidden) - known[seat]
        assert not shown, f"a take-back showed {'a spectator' if seat is None else f'seat {seat}'} " \
                          f"{sorted(card.id for card in shown)}"
    assert kept_before is not None, "a take-back restored no kept state"
    now = state.to_dict()
    now.pop("take_back", None)
    game_keys = set(kept_before) - set(state.log_to_dict())
    assert {key: now[key] for key in game_keys} == {key: kept_before[key] for key in game_keys}, \
        "the state after a take-back is not the one before the action taken back"


def pick_take_back(state, rng: random.Random):
    """A take-back move listed now (seat, action data), or None."""
    listed = [(seat, move) for seat in range(len(state.names)) for move in state.legal(seat)
              if move.action in TAKE_BACK_MOVES]
    if not listed:
        return None
    seat, move = rng.choice(listed)
    return seat, move.as_dict()


def play_randomly(definition, data) -> None:
    state = new_game(definition, data)
    whole_log = copy_log(state.log)  # the deal's lines
    check_state(state, whole_log)
    params_seen: dict[str, set[str]] = {}
    known: dict = {}
    known_cards(state, known)
    for _step in range(STEPS):
        if state.is_over():
            break
        rng = random.Random(data.draw(st.integers(0, 2**32), label="step"))
        hands = Hands(state)
        taking_back = pick_take_back(state, rng) if rng.randrange(3) == 0 else None
        if taking_back is not None:
            seat, action_data = taking_back
            kind = "legal"
        else:
            seat, action_data, kind = pick_action(state, rng, params_seen, hands)
        kept = state.take_back_to_dict()["kept"]
        before = state.to_dict()
        moves, hand = state.legal(seat), hands[seat]
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
        assert listed_move(definition, outcome.action, moves, hand) is not None, \
            f"apply took {definition.action_to_dict(outcome.action)} for seat {seat}, which legal() did not list: " \
            f"{[move.button for move in moves]}"
        whole_log += copy_log(outcome.events)
        if state.take_back_to_dict()["kept"] is None and kept is not None and \
                action_data.get("action") in ("take_back", "accept_take_back") and \
                state.take_back_asked() is None and "refuse" not in action_data["action"] and \
                any(line["text"].endswith(" took back their " + state.take_back_words(kept["what"]) + ".")
                    for line in outcome.events):
            note(f"took back seat {kept['seat']}'s {kept['what']}")
            check_take_back(state, known, kept["state"])
        known_cards(state, known)
        check_state(state, whole_log)
        if rng.randrange(SWAP_EVERY) == 0:
            check_swaps(state, rng, [rng.choice(seats_and_spectator(state))])


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


# -- a hidden card in any spelling, or a value that gives one away, fails the checks too ---------------------


def fully_hidden(state, seat: int) -> list:
    """The cards hidden from ``seat`` whose every copy is hidden too (a code names any copy), but
    printed jokers (no rank, no suit), in the order of the deck."""
    hidden = hidden_cards(state, seat)
    return [card for card in state.deck.cards if card in hidden and not card.is_joker
            and all(copy in hidden for copy in state.deck.copies_of(card.code))]


def spellings(state, seat: int) -> dict[str, object]:
    """What a careless view may add that names a card hidden from ``seat`` (a ten if one is hidden,
    for the web's "10"), each spelling of it on its own."""
    cards = fully_hidden(state, seat)
    card = next((card for card in cards if card.rank == "T"), cards[0])
    deck = state.deck
    rank = "10" if card.rank == "T" else card.rank
    word, suit = RANK_NAMES[card.rank], deck.suit_names[card.suit]
    symbol = deck.suit_symbols[card.suit]
    codes = [other.code for other in cards[:3]]
    return {
        "its id as a dict's key": {card.id: True},
        "its code in a sentence": f"{state.label((seat + 1) % len(state.names))} holds {card.code}.",
        "codes joined with commas": ",".join(codes),
        "codes run together": "".join(codes),
        "rank and suit in words": f"{word.title()} of {suit}",
        "rank and suit in lower case": f"the {word} of {suit.lower()} is next",
        "rank as the web shows it, suit in words": f"{rank} of {suit.lower()}",
        "rank and suit symbol": f"{rank}{symbol}",
        "rank character and suit symbol": f"[{card.rank}{symbol}]",
        "suit symbol first": f"{symbol}{rank}",
        "rank and suit fields": {"rank": card.rank, "suit": card.suit},
        "rank and suit fields in words": {"value": word, "colour": suit},
        "rank and suit fields as the web shows them": {"r": rank, "s": symbol},
    }


def failure(check, *args, what: str) -> str:
    """The message of the assertion ``check(*args)`` fails with; the test fails if it passes."""
    try:
        check(*args)
    except AssertionError as error:
        return str(error)
    pytest.fail(f"{what}: the check let it through")


def dealt(definition, seats: int = 2):
    return definition.new_state(["Ann", "Bob", "Cy"][:max(definition.min_seats, min(seats, definition.max_seats))],
                                options=definition.validate_options({}), seed=7)


@pytest.mark.parametrize("key", GAMES)
def test_a_hidden_card_in_any_spelling_fails_the_privacy_check(key, monkeypatch):
    """Every spelling, added alone to seat 1's view (nested in a list, as a board's data would
    be), and to the words of a move of its own; the honest game passes first."""
    with registered(key) as definition:
        state = dealt(definition)
        if key in NOTHING_HIDDEN:
            pytest.skip(f"{definition.name} hides nothing: {NOTHING_HIDDEN[key]}")
        check_privacy(state)
        honest_view, honest_legal = type(state).view, type(state).legal
        for what, spelling in spellings(state, 0).items():
            def leaking_view(self, seat, spelling=spelling):
                view = honest_view(self, seat)
                return dict(view, planted=[{"note": spelling}]) if seat == 0 else view

            monkeypatch.setattr(type(state), "view", leaking_view)
            assert "may not see" in failure(check_privacy, state, what=f"{what} in the view")
            monkeypatch.setattr(type(state), "view", honest_view)
            if not isinstance(spelling, str):
                continue

            def leaking_legal(self, seat, spelling=spelling):
                moves = honest_legal(self, seat)
                return [*moves, Move("peek", "Peek", confirm=f"Really? {spelling}")] if seat == 0 else moves

            monkeypatch.setattr(type(state), "legal", leaking_legal)
            assert "moves names" in failure(check_privacy, state, what=f"{what} in a move's question")
            monkeypatch.setattr(type(state), "legal", honest_legal)
        check_privacy(state)


def test_21s_dealer_total_while_a_card_lies_face_down_fails_the_swap_check(monkeypatch):
    """T3.1, T7.2: the dealer's second card lies face down, so the dealer's total is not shown
    (only the face-up card's, ``showing``). A view that shows it gives the hidden card away: it
    names no card, so only the swap check finds it (the hidden card swapped with one of the
    deck, the total changes)."""
    state = dealt(registry.get("twentyone"))
    assert state.view(0)["dealer"]["hidden"] == 1 and state.view(0)["dealer"]["value"] is None
    assert check_swaps(state, random.Random(1), pairs=8) > 0  # the honest view passes
    honest = type(state).view

    def leaking_view(self, seat):
        view = honest(self, seat)
        view["dealer"]["value"] = self.table.dealer.hand_value
        return view

    monkeypatch.setattr(type(state), "view", leaking_view)
    check_privacy(state)
    with pytest.raises(AssertionError, match="view gives a hidden card away"):
        check_swaps(state, random.Random(1), pairs=8)


def test_the_next_stock_card_in_a_moves_words_fails_both_checks(monkeypatch):
    """C7.1: the stock is hidden. Classic Rummy's draw from the stock pile (C3.1), its button
    naming the stock's top card."""
    state = dealt(registry.get("rummy"))
    honest = type(state).legal

    def leaking_legal(self, seat):
        top = self.deck.cards[self.stock.cards[-1]]
        return [Move(move.action, f"{move.label} ({top.code})", params=move.params, menu=move.menu)
                if dict(move.params).get("source") == "stock" else move for move in honest(self, seat)]

    monkeypatch.setattr(type(state), "legal", leaking_legal)
    with pytest.raises(AssertionError, match="moves names"):
        check_privacy(state)
    with pytest.raises(AssertionError, match="moves give a hidden card away"):
        check_swaps(state, random.Random(1), [state.to_move()], pairs=8)


def test_a_hidden_card_as_rank_and_suit_fields_fails_both_checks(monkeypatch):
    """R4.4: another seat's hand is hidden. Mason Rummy's view, each other seat's first card
    written as its value and suit (R1.1, R1.2) in two fields."""
    state = dealt(registry.get("mason"))
    honest = type(state).view

    def leaking_view(self, seat):
        view = honest(self, seat)
        for index, player in enumerate(view["players"]):
            if index != seat:
                first = self.players[index].hand.cards[0]
                player["first"] = {"value": first.rank, "suit": first.suit}
        return view

    monkeypatch.setattr(type(state), "view", leaking_view)
    with pytest.raises(AssertionError, match="as a rank and a suit"):
        check_privacy(state)
    with pytest.raises(AssertionError, match="view gives a hidden card away"):
        check_swaps(state, random.Random(1), [0], pairs=8)


def test_a_hand_joined_into_one_string_fails_both_checks(monkeypatch):
    """P6.3: the other hands are hidden during a deal. Points Rummy's view, each other seat's
    hand as one string of codes run together."""
    state = dealt(registry.get("points"))
    honest = type(state).view

    def leaking_view(self, seat):
        view = honest(self, seat)
        for index, player in enumerate(view["players"]):
            if index != seat:
                player["hand_text"] = "".join(card.code for card in self.hands[index])
        return view

    monkeypatch.setattr(type(state), "view", leaking_view)
    with pytest.raises(AssertionError, match="names"):
        check_privacy(state)
    with pytest.raises(AssertionError, match="view gives a hidden card away"):
        check_swaps(state, random.Random(1), [0], pairs=8)


# -- every action apply accepts is one that legal() listed ------------------------------------------------


def test_an_action_legal_does_not_list_is_found():
    """``listed_move``, which the random play asks of every applied action: Classic Rummy's
    moves (C3.2: discard one card, lay off one card on a meld by its number)."""
    definition = registry.get("rummy")
    discard = Move("discard", "Discard", pick=(1, 1))
    lay_off = Move("lay_off", "Lay off", pick=(1, 1), target="meld", targets=("1", "2"))
    hand = ["2C", "3C", "KH"]
    listed = [discard, lay_off]

    def action(**data):
        return definition.action_from_dict(data)

    assert listed_move(definition, action(action="discard", cards=["KH"]), listed, hand) is discard
    assert listed_move(definition, action(action="lay_off", cards=["2C"], meld="2"), listed, hand) is lay_off
    assert listed_move(definition, action(action="discard", cards=["KS"]), listed, hand) is None  # not in hand
    assert listed_move(definition, action(action="meld", cards=hand), listed, hand) is None  # no meld move
    assert listed_move(definition, action(action="lay_off", cards=["2C"], meld="3"), listed, hand) is None
    assert listed_move(definition, action(action="draw", source="stock"), listed, hand) is None
    draw = Move("draw", "Draw from stock pile", params=(("source", "stock"),))
    assert listed_move(definition, action(action="draw", source="stock"), [draw], hand) is draw
    assert listed_move(definition, action(action="draw", source="discard"), [draw], hand) is None




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
