"""The deals of Seahaven Towers (S2): a *deal number* is always the same shuffle, so two players
given the same number race the same deal. With no number chosen, the number is drawn from the
table's seed; with ``winnable_only`` it is the first deal number from there on that the solver
(S5) finds winnable."""

from __future__ import annotations

import random

from app.core.cards import Card

from .rules import DECK, Layout

MAX_DEAL = 999_999_999


def deal_cards(number: int) -> list[Card]:
    """The deck order of deal ``number``: the same for everyone, always."""
    cards = list(DECK.cards)
    random.Random(f"{number}/deal").shuffle(cards)
    return cards


def deal_number_from_seed(seed: int | str) -> int:
    """The deal a table seeded with ``seed`` plays when no deal number was chosen."""
    return random.Random(f"{seed}/deal-number").randint(1, MAX_DEAL)


def first_winnable_deal(number: int, classic: bool) -> int:
    """The first deal number from ``number`` on (wrapping round) that can be won (S5.2)."""
    from .solver import Solver, keep  # (loaded where it is asked, not by every web worker)

    while True:
        layout = Layout.deal(deal_cards(number), classic)
        solver = Solver(layout.columns)  # lost deals' memos are not kept
        if solver.winnable(layout):
            keep(solver)
            return number
        number = number % MAX_DEAL + 1


__all__ = ["MAX_DEAL", "deal_cards", "deal_number_from_seed", "first_winnable_deal"]
