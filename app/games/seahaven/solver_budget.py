"""The solver's budget error, apart from the solver so that the pure-Python solver and its
compiled copy (``scripts/build-solver``) raise the one same class."""

from __future__ import annotations


class SolverBudgetExceeded(RuntimeError):
    """The search reached its budget (``budget`` positions expanded in one call) before a
    verdict. Nothing is lost: every verdict found so far stays memoised, so asking again (with a
    larger budget, or none) carries on from there."""

    def __init__(self, budget: int):
        super().__init__(f"the solver expanded its budget of {budget} positions without a verdict")
        self.budget = budget
