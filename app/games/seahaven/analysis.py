"""The solver's questions about a position (S5.2), as the house asks them off the request path
(the protocol's ``Analyst``): "can this position still be won, and what is the next move of a
winning line?", and for a deal as dealt also "what is a whole winning line?" (shown after giving
up, "show a solution"). Pure: the house works the answers out in its job runner, keeps them by
the position's key, and hands the kept ones to the pages; nothing here is asked on a request.

A position's key depends on the layout alone (the columns in order, the cells in order, each
foundation's top card): the solver's verdict and hint are functions of the layout (solver.py),
so two games that reach the same layout (two friends racing one deal) share one answer.

An answer is plain data: ``{"winnable": bool, "hint": {"from", "to", "card", "text", "say"} | None}``,
with ``"line": [[from, to], ...]`` (a whole winning line, the rules checking every move, or None)
when the question asked for it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from app.core.cards import Card
from app.core.protocol import OverBudget, Question, said

from .rules import DECK, Layout, describe_move, place_said
from .solver_budget import SolverBudgetExceeded

KEY_FORMAT = "seahaven/1"  # a change of what an answer holds changes this, so old answers are not used
LINE = "line"


def position_key(layout: Layout) -> str:
    """The key of a layout: equal layouts, equal keys (and no two layouts alike but theirs)."""
    columns = "|".join(" ".join(card.id for card in column) for column in layout.columns)
    cells = " ".join(card.id if card is not None else "-" for card in layout.cells)
    tops = " ".join(pile[-1].id if pile else "-" for pile in layout.foundations)
    text = f"{KEY_FORMAT}/{columns}/{cells}/{tops}"
    return "sh1-" + hashlib.sha256(text.encode()).hexdigest()[:40]


def layout_data(layout: Layout) -> dict[str, Any]:
    return {"columns": [[card.id for card in column] for column in layout.columns],
            "cells": [card.id if card is not None else None for card in layout.cells],
            "tops": [pile[-1].id if pile else None for pile in layout.foundations]}


def layout_from(data: Mapping[str, Any]) -> Layout:
    """A layout from ``layout_data``; ``ValueError`` if it is not one of 52 cards."""
    columns = [[DECK.parse(card_id) for card_id in column] for column in data["columns"]]
    cells: list[Card | None] = [DECK.parse(card_id) if card_id else None for card_id in data["cells"]]
    foundations: list[list[Card]] = []
    for top_id in data["tops"]:
        if top_id is None:
            foundations.append([])
            continue
        top = DECK.parse(top_id)
        foundations.append([card for card in DECK.cards if card.suit == top.suit and card.order <= top.order])
    layout = Layout(columns, cells, foundations)
    if sorted(card.id for card in layout.cards()) != sorted(card.id for card in DECK.cards):
        raise ValueError("a position holds the 52 cards once each")
    return layout


def question_for(layout: Layout, dealt: Sequence[Card], classic: bool, *, line: bool = False) -> Question:
    data = {"deck": [card.id for card in dealt], "classic": classic, "layout": layout_data(layout), LINE: line}
    return Question(position_key(layout), data, (LINE,) if line else ())


def start_layout(dealt: Sequence[Card], classic: bool) -> Layout:
    return Layout.deal(dealt, classic)


class SeahavenAnalyst:
    """The protocol's ``Analyst`` for Seahaven Towers (S5.2)."""

    def question(self, state: Any) -> Question | None:
        """The question the table shows the answer to: none once the game is over, nor for a
        position with no legal move (lost at a glance, S3.6: the board says so itself). The
        deal as dealt asks for a whole line too (its "show a solution")."""
        if state.is_over() or state.is_stuck() or not state.layout.rule_book:  # (S7: no solver for house rules)
            return None
        return question_for(state.layout, state.dealt, state.classic,
                            line=state.layout == start_layout(state.dealt, state.classic))

    def start_question(self, state: Any) -> Question | None:
        if not state.layout.rule_book:
            return None
        return question_for(start_layout(state.dealt, state.classic), state.dealt, state.classic, line=True)

    def answer(self, data: Mapping[str, Any], budget: int) -> dict[str, Any]:
        """S5.1, S5.2: the verdict, the hint, and (if asked) a whole line, spending at most
        ``budget`` of the solver's positions (``OverBudget`` past them; the solver's memo keeps
        what it found, so asking again in this process carries on)."""
        from .solver import Solver, solver_for  # (the job runner's: a web worker never loads it)

        dealt = [DECK.parse(card_id) for card_id in data["deck"]]
        layout = layout_from(data["layout"])
        solver = solver_for(start_layout(dealt, bool(data["classic"])).columns)
        if not solver.fits(layout):
            solver = Solver(layout.columns)  # a layout no play of the deal gives: judged on its own
        spent_before = solver.positions

        def left() -> int:
            return max(0, budget - (solver.positions - spent_before))

        try:
            winnable = solver.winnable(layout, budget=left())
            step = solver.hint(layout, budget=left()) if winnable else None
            line = solver.line(layout, budget=left()) if winnable and data.get(LINE) else None
        except SolverBudgetExceeded:
            raise OverBudget(f"{budget} positions were not enough") from None
        hint = None
        if step is not None:
            card = layout.card_at(step[0])
            assert card is not None  # (a winning line's place holds a card)
            hint = {"from": step[0], "to": step[1], "card": card.id, "text": describe_move(card, *step),
                    "say": said("the {card} from {from} to {to}", card=card.id,
                                **{"from": place_said(step[0]), "to": place_said(step[1])})}
        answer: dict[str, Any] = {"winnable": winnable, "hint": hint}
        if data.get(LINE):
            answer[LINE] = [list(move) for move in line] if line is not None else None
        return answer

    def solution(self, answer: Mapping[str, Any]) -> list[dict[str, Any]] | None:
        line = answer.get(LINE)
        if not isinstance(line, list):
            return None
        return [{"action": "move", "from": source, "to": target} for source, target in line]

    def solution_offered(self, state: Any, answer: Mapping[str, Any] | None) -> bool:
        """Once the game is over (given up; or won, to compare), or in a position that cannot be
        won (S3.6, S5.2). While the deal can still be won the hint gives the next move of a line."""
        if not state.layout.rule_book:
            return False  # S7: the solver knows the rule book's game only
        if state.is_over():
            return True
        return bool(state.is_stuck() or (answer is not None and answer.get("winnable") is False))


ANALYST = SeahavenAnalyst()

__all__ = ["ANALYST", "LINE", "SeahavenAnalyst", "layout_from", "position_key", "question_for", "start_layout"]
