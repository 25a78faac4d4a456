"""The computer players of High card, apart from the rules: they read only what their seat may
see (its own hand, the stock's size) and return an action.

``Cautious`` (seats named AI) draws while a card of middling worth would not take its hand over
the limit; ``RandomChoice`` draws or passes at random: the baseline the simulator measures it
against."""

from __future__ import annotations

import random

from .actions import Draw, Pass
from .state import HighCardState

MIDDLING = 5  # the worth of an average card of the deck (H1)


class Cautious:
    """Draw while the hand is worth at most the limit less a middling card; else pass."""

    def choose(self, state: HighCardState, seat: int) -> Draw | Pass:
        if state.stock and state.worth(seat) + MIDDLING <= state.limit:
            return Draw()
        return Pass()


class RandomChoice:
    """Draw or pass, one chance in two each (pass when the stock is empty)."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, state: HighCardState, seat: int) -> Draw | Pass:
        return Draw() if state.stock and self.rng.random() < 0.5 else Pass()
