"""Helpers for the rules tests: readable cards, stacked decks, scripted turns and controls.

Imported by the tests as ``rules_test_helpers`` (see conftest.py).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence

from app.games.mason import (
    DISCARD_PILE, FULL_DECK, GAME_OVER, ROUND_OVER, STOCK, Card, Discard, Draw, Game, LayDown, Outcome, Refusal,
    is_meld, is_run, judge_lay_down,
)
from app.games.mason.bot import play_computer_turn
from app.games.mason.menus import parse_choice, parse_selection
from app.games.mason.players import DISCARD_CHOICE, LAY_DOWN_CHOICE

NAMES2 = ["Ann", "Bob"]
NAMES3 = ["Ann", "Bob", "Cy"]


def cards(text: str) -> list[Card]:
    """``"QS KS AS"`` -> the three cards, in that order."""
    return [Card.parse(code) for code in text.split()]


def card(code: str) -> Card:
    return Card.parse(code)


def codes(items: Iterable[Card]) -> str:
    return " ".join(item.code for item in items)


def stacked_deck(*hands: str, discard: str, stock: str = "") -> list[Card]:
    """A 65-card deck: each seat's 10 cards in seat order, the face-up discard, then the stock
    top-first; every other card follows in the fixed FULL_DECK order (suit, then value)."""
    first: list[Card] = []
    for hand in hands:
        dealt = cards(hand)
        assert len(dealt) == 10, f"a hand is 10 cards, not {len(dealt)}: {hand}"
        first += dealt
    up = cards(discard)
    assert len(up) == 1, "exactly one face-up discard"
    first += up + cards(stock)
    assert len(set(first)) == len(first), "a card was given twice"
    used = set(first)
    return first + [c for c in FULL_DECK if c not in used]


def deal(names: Sequence[str], *hands: str, discard: str, stock: str = "") -> Game:
    """A new game dealt from a stacked deck (R4.2)."""
    assert len(names) == len(hands)
    return Game.new(list(names), stacked_deck=stacked_deck(*hands, discard=discard, stock=stock))


def play_turn(game: Game, seat: int, draw: str = STOCK, lay: Sequence[str] = (),
              discard: str | None = None) -> list[Outcome]:
    """Apply one turn: a draw, some lay-downs (``"5S 6S 7S"`` each), then a discard (a code, or
    ``"drawn"`` for the card just drawn, or None for no discard)."""
    outcomes = [game.apply(seat, Draw(draw))]
    for selection in lay:
        outcomes.append(game.apply(seat, LayDown(tuple(cards(selection)))))
    if discard is not None:
        chosen = outcomes[0].drawn if discard == "drawn" else card(discard)
        outcomes.append(game.apply(seat, Discard(chosen)))
    return outcomes


def draw_and_discard(game: Game) -> list[Outcome]:
    """The current seat draws from the stock and discards the card drawn; both outcomes."""
    seat = game.turn
    drawn = game.apply(seat, Draw(STOCK))
    if drawn.round_over:
        return [drawn]
    return [drawn, game.apply(seat, Discard(drawn.drawn))]


def set_codes(game: Game, seat: int) -> list[str]:
    return [codes(card_set.cards) for card_set in game.players[seat].hand.laid_down]


def hand_codes(game: Game, seat: int) -> str:
    return codes(game.players[seat].hand.cards)


def rebuilt(game: Game, change: Callable[[dict], None]) -> Game:
    """A game made from ``game``'s plain data after ``change`` edits it (for states that play
    cannot reach quickly)."""
    data = game.to_dict()
    change(data)
    return Game.from_dict(data)


def finish_round_by_ai(game: Game, max_turns: int = 10_000) -> None:
    """Let the computer strategy play every seat until the round ends (the stall rule, or someone
    going out, guarantees that)."""
    for _ in range(max_turns):
        if game.phase in (ROUND_OVER, GAME_OVER):
            return
        for _outcome in play_computer_turn(game, game.turn):
            pass
    raise AssertionError("the round did not end")


QUICK_HANDS = {
    # Every seat holds a 10-card run, so whoever starts goes out at once: draw the 2S from the
    # discard pile, lay the run down, discard the 2S.
    "Ann": "2C 3C 4C 5C 6C 7C 8C 9C TC JC",  # 64 points
    "Bob": "2D 3D 4D 5D 6D 7D 8D 9D TD JD",  # 64 points
    "Cy": "5H 6H 7H 8H 9H TH JH QH KH AH",  # 90 points
}


def quick_game(names: Sequence[str] = NAMES3) -> Game:
    return deal(names, *(QUICK_HANDS[name] for name in names), discard="2S")


def go_out_quickly(game: Game) -> list[Outcome]:
    """The current seat of a ``quick_game`` goes out on its first turn (R5.7 by discard)."""
    seat = game.turn
    run = codes(game.players[seat].hand.cards)
    return play_turn(game, seat, draw=DISCARD_PILE, lay=[run], discard="drawn")


def playable_selections(hand_cards: Sequence[Card], sets) -> list[tuple[Card, ...]]:
    """Every selection the rules would accept that a player could still make: new sets of 3 or
    more (checked on all 3-card subsets, which is enough: any bigger set contains one) and single
    cards that fit the player's own sets."""
    found = [combo for combo in itertools.combinations(hand_cards, 3) if is_run(combo) or is_meld(combo)]
    found += [(c,) for c in hand_cards if not isinstance(judge_lay_down([c], sets), Refusal)]
    return found


class ScriptedControls:
    """A ``Controls`` for ``LivePlayer.take_turn`` that answers from typed strings, the way the
    terminal reads them: Menu D and E numbers, Menu F selections (``"1,4,5"``) and discards."""

    def __init__(self, answers: Iterable[str]):
        self.answers = list(answers)
        self.refusals: list[str] = []
        self.outcomes: list[Outcome] = []
        self.asked: list[str] = []

    def _next(self, menu: str) -> str:
        self.asked.append(menu)
        assert self.answers, f"the script ran out of answers at {menu}"
        return self.answers.pop(0)

    def choose_draw(self, game: Game, seat: int) -> str:
        return STOCK if parse_choice(self._next("D"), 2) == 1 else DISCARD_PILE

    def choose_action(self, game: Game, seat: int) -> str:
        return LAY_DOWN_CHOICE if parse_choice(self._next("E"), 2) == 1 else DISCARD_CHOICE

    def choose_lay_down(self, game: Game, seat: int) -> list[Card]:
        hand = game.players[seat].hand
        return [hand.card_at(n) for n in parse_selection(self._next("F"), len(hand))]

    def choose_discard(self, game: Game, seat: int) -> Card:
        hand = game.players[seat].hand
        return hand.card_at(parse_choice(self._next("discard"), len(hand)))

    def refused(self, game: Game, seat: int, message: str) -> None:
        self.refusals.append(message)

    def done(self, game: Game, seat: int, outcome: Outcome) -> None:
        self.outcomes.append(outcome)


class RecordingControls:
    """Controls for a computer player: records each outcome and the hand right after it."""

    def __init__(self):
        self.outcomes: list[Outcome] = []
        self.hands: list[list[Card]] = []

    def done(self, game: Game, seat: int, outcome: Outcome) -> None:
        self.outcomes.append(outcome)
        self.hands.append(list(game.players[seat].hand.cards))


def arrange(game: Game, seat: int, hand: str, sets: Sequence[str] = (), discard: str | None = None) -> Game:
    """A copy of ``game`` where ``seat`` holds exactly ``hand`` and has ``sets`` down (``"run 3S 4S
    5S"``), with ``discard`` on top of the discard pile. The cards are taken from wherever they
    were; the seat's old cards go to the bottom of the stock and other hands are refilled from the
    bottom of the stock, so the top of the stock is unchanged where possible. For strategy tests
    of states that would take many turns to reach."""
    wanted_hand = [c.code for c in cards(hand)]
    wanted_sets = []
    for spec in sets:
        kind, rest = spec.split(None, 1)
        wanted_sets.append({"kind": kind, "cards": [c.code for c in cards(rest)]})
    wanted = set(wanted_hand) | {code for s in wanted_sets for code in s["cards"]}
    wanted |= {card(discard).code} if discard else set()
    assert len(wanted) == len(wanted_hand) + sum(len(s["cards"]) for s in wanted_sets) + (1 if discard else 0)

    def change(data: dict) -> None:
        me = data["players"][seat]
        freed = [c for c in me["hand"] if c not in wanted]
        freed += [c for s in me["sets"] for c in s["cards"] if c not in wanted]
        sizes = [len(p["hand"]) for p in data["players"]]
        for player in data["players"]:
            player["hand"] = [c for c in player["hand"] if c not in wanted]
            for card_set in player["sets"]:
                assert not set(card_set["cards"]) & wanted, "arrange() does not take cards from sets"
        data["stock"] = [c for c in data["stock"] if c not in wanted] + freed
        data["discard"] = [c for c in data["discard"] if c not in wanted]
        me["hand"], me["sets"] = wanted_hand, wanted_sets
        for index, player in enumerate(data["players"]):
            while index != seat and len(player["hand"]) < sizes[index]:
                player["hand"].append(data["stock"].pop())
        if discard:
            data["discard"].append(card(discard).code)

    return rebuilt(game, change)
