"""The computer player of Seahaven Towers, apart from the rules.

``SolverBot`` plays the exact solver's winning line (S5), one card at a time, and gives up as
soon as the position cannot be won (so a game of bots alone always ends). ``RandomBot`` is the
baseline the simulator measures it against: any legal card move at random, giving up when stuck
or after ``RANDOM_MOVES`` moves.
"""

from __future__ import annotations

import random

from .actions import Action, GiveUp, MoveCard
from .state import SeahavenState

RANDOM_MOVES = 300


class SolverBot:
    """Deterministic: the solver's verdicts and lines depend only on the position."""

    def choose(self, state: SeahavenState, seat: int) -> Action:
        hint = state.hint()
        return hint if hint is not None else GiveUp()


class RandomBot:
    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, state: SeahavenState, seat: int) -> Action:
        moves = state.layout.legal_moves()
        if not moves or state.moves_made() >= RANDOM_MOVES:
            return GiveUp()
        return MoveCard(*self.rng.choice(moves))
