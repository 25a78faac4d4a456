"""The computer player of Seahaven Towers, apart from the rules.

``SolverBot`` plays the exact solver's winning line (S5), one card at a time, and gives up as
soon as the position cannot be won (so a game of bots alone always ends), or when the solver
cannot decide a position within ``budget`` positions. Its search can take seconds, so the web
lets it play off the request path (``off_request``: the house's job runner). ``RandomBot`` is the
baseline the simulator measures it against: any legal card move at random, giving up when stuck
or after ``RANDOM_MOVES`` moves.
"""

from __future__ import annotations

import random

from .actions import Action, GiveUp, MoveCard
from .solver_budget import SolverBudgetExceeded
from .state import SeahavenState

RANDOM_MOVES = 300
SOLVER_BOT_BUDGET = 2_000_000  # positions a hint may cost (a minute at most; no deal known needs it)


class SolverBot:
    """Deterministic: the solver's verdicts and lines depend only on the position."""

    off_request = True

    def __init__(self, budget: int | None = SOLVER_BOT_BUDGET):
        self.budget = budget

    def choose(self, state: SeahavenState, seat: int) -> Action:
        if not state.layout.rule_book:  # S7: no solver for house rules: every card home it can, then give up
            home = state.layout.moves_home()
            return MoveCard(*home[0]) if home else GiveUp()
        try:
            hint = state.hint(self.budget)
        except SolverBudgetExceeded:
            return GiveUp()
        return hint if hint is not None else GiveUp()


class RandomBot:
    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, state: SeahavenState, seat: int) -> Action:
        moves = state.layout.legal_moves()
        if not moves or state.moves_made() >= RANDOM_MOVES:
            return GiveUp()
        return MoveCard(*self.rng.choice(moves))
