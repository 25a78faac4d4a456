"""The computer players of 21, apart from the rules: they read the public state (a hand's value)
and return an action.

``DealerRule`` (seats named AI) plays like the dealer must (T3.4): hit while the hand is worth
16 or less, stay from 17. The rule book leaves the computer player's strategy to the project;
this one is the project's choice because it is simple and predictable (the family can tell
what the computer will do). It is not the strongest fixed rule: with aces always worth 1 the
dealer goes bust often, and standing from 14 loses fewer rounds (``bench/twentyone_bots.py``
measures every threshold and the random baseline). ``RandomChoice`` hits or stays at random:
the baseline."""

from __future__ import annotations

import random

from .actions import Hit, Stay
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
