"""The computer players of 21, apart from the rules: they read what their seat sees and return an
action.

``DealerRule`` (seats named AI: the normal strength) plays like the dealer must (T3.4): hit while
the hand is worth 16 or less, stay from 17. The rule book leaves the computer player's strategy
to the project; this one is the project's choice because it is simple and predictable (the
family can tell what the computer will do). It is not the strongest fixed rule: with aces always
worth 1 the dealer goes bust often, and standing from 14 loses fewer rounds
(``bench/twentyone_bots.py`` measures every threshold and the random baseline).
``RandomChoice`` hits or stays at random: the baseline.

The other strengths (``TwentyOneDefinition.other_bots``) read only their seat's view and choose
among its legal moves:

- ``Hopeful`` (easy) hits while its hand is worth 17 or less: a beginner hoping to come closer to
  21, who goes bust more often than the dealer's rule does.
- ``CardCounter`` (strong) makes the move of the better exact expected return, worked out from
  the cards its seat has not seen since the deck was last shuffled (``expectation``).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from app.core.protocol import Move

from .actions import Hit, Stay
from .cards import DECK
from .expectation import Position, best_move_hits, expectation
from .state import TwentyOneState
from .table import DEALER_STANDS_ON


class DealerRule:
    """Hit while the hand is worth 16 or less (the dealer's own rule)."""

    def __init__(self, stand_on: int = DEALER_STANDS_ON):
        self.stand_on = stand_on

    def choose(self, state: TwentyOneState, seat: int) -> Hit | Stay:
        value = state.hand_value(seat)  # a player's cards are all face up: public
        return Hit() if value < self.stand_on else Stay()

    def __repr__(self) -> str:
        return f"DealerRule(stand_on={self.stand_on})"


class RandomChoice:
    """Hit or stay, one chance in two each, from the generator it is given."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, state: TwentyOneState, seat: int) -> Hit | Stay:
        return Hit() if self.rng.random() < 0.5 else Stay()


def _legal_choice(state: TwentyOneState, seat: int, hit: bool) -> Hit | Stay:
    """Hit or stay, as one of the seat's legal moves (refused if it has none: not its turn)."""
    wanted = "hit" if hit else "stay"
    moves: list[Move] = state.legal(seat)
    if not any(move.action == wanted for move in moves):
        raise ValueError(f"seat {seat} may not {wanted} now")
    return Hit() if hit else Stay()


class Hopeful:
    """Easy: hit while the hand is worth 17 or less (one more than the dealer's rule)."""

    stand_on = DEALER_STANDS_ON + 1

    def choose(self, state: TwentyOneState, seat: int) -> Hit | Stay:
        view = state.view(seat)
        return _legal_choice(state, seat, view["hands"][seat]["value"] < self.stand_on)

    def __repr__(self) -> str:
        return "Hopeful()"


def position_of(view: Any, seat: int) -> Position:
    """What ``seat``'s view tells of its cards: its total, the dealer's up card, and the counts by
    value of the cards it has not seen since the last shuffle (every card but the face-up ones
    on the table and in the discard pile, T7.2), the deck's size and the face-up discards."""
    face_up = [card for hand in view["hands"] for card in hand["cards"]]
    dealer = view["dealer"]["cards"]
    face_up += [card for card in dealer if card is not None]
    discards = [card for card in view["discard_pile"] if card is not None]
    seen = Counter(DECK.parse(card).points for card in face_up + discards)
    every = Counter(card.points for card in DECK.cards)
    face_up_discards = Counter(DECK.parse(card).points for card in discards)
    return Position(total=view["hands"][seat]["value"], up=DECK.parse(dealer[0]).points,
                    unseen=tuple(every[value] - seen[value] for value in range(1, 11)),
                    deck=view["deck_count"],
                    discards=tuple(face_up_discards[value] for value in range(1, 11)))


class CardCounter:
    """Strong: the move of the better exact expected return from the cards not yet seen
    (``expectation.best_move_hits``: the recursion over their composition for its own hits and
    the dealer's play by T3.4), read from its seat's view only. Deterministic: no chance."""

    def choose(self, state: TwentyOneState, seat: int) -> Hit | Stay:
        return _legal_choice(state, seat, best_move_hits(position_of(state.view(seat), seat)))

    def expected_return(self, state: TwentyOneState, seat: int) -> float:
        """The exact expected return of the round from here, playing on as this player does
        (the better move now and at every later decision): what its measured mean is set
        against (``python -m app.simulate --game twentyone --ladder``)."""
        return expectation(position_of(state.view(seat), seat)).best

    def __repr__(self) -> str:
        return "CardCounter()"
