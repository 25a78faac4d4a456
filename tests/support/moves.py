"""The one move chooser of the tests and benchmarks, for every registered game, driven by the game
protocol (app/core/protocol.py): a state's ``legal(seat)`` gives the ``Move`` s, and
``move.as_dict(cards, target)`` is the action the table's form posts.

- ``sensible_move(state)``: what the game's computer player would do for the seat to move
  (``definition.bot.choose``), checked against the legal moves; between rounds, the move that
  deals on (``legal(None)[0]``). Games played this way end.
- ``random_move(state, rng)``: a random legal move, with random cards of the seat's own hand and
  a random target where the move takes them.

Both give a ``Choice``: the seat, the legal move, the action as plain data, and ``form(version)``,
the fields the table's form posts for it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True)
class Choice:
    """A move chosen for ``seat`` (None: a move of the table, such as the next deal)."""

    seat: int | None
    move: object  # app.core.protocol.Move
    action: dict  # the action as plain data, as the game's action_from_dict reads it

    @property
    def name(self) -> str:
        return self.action["action"]

    @property
    def cards(self) -> list[str]:
        return list(self.action.get("cards") or [])

    def fields(self) -> list[tuple[str, str]]:
        """The action's fields as the table's form posts them: the pressed button (``action``, or
        ``move`` = ``action|field=value`` for a move with fixed fields), a board target, the
        selected cards."""
        move = self.move
        fields = [("move", move.button)] if move.params else [("action", move.action)]
        fixed = {"action", "cards", *dict(move.params)}
        fields.extend((key, str(value)) for key, value in self.action.items()
                      if key not in fixed and value is not None)
        fields.extend(("cards", card) for card in self.cards)
        if getattr(move, "confirm", None):  # a move that asks first: answered yes, as its dialog does
            fields.append(("confirmed", "1"))
        return fields

    def form(self, version: int | None) -> list[tuple[str, str]]:
        """The whole table form (POST /games/<slug>/act), made on the page of ``version``."""
        return [*self.fields(), ("version", "" if version is None else str(version)),
                ("seat", "" if self.seat is None else str(self.seat))]


def mover(state) -> int | None:
    """The seat to move; None between rounds and at the end."""
    return state.to_move()


def _matching_move(moves, action: dict):
    """The legal move whose action (and fixed fields) ``action`` is, or None."""
    for move in moves:
        if move.action == action.get("action") and all(str(action.get(k)) == v for k, v in move.params):
            return move
    return None


def _moves_of(state, seat: int | None) -> tuple[int | None, list]:
    """``seat`` (default: the seat to move) and its legal moves; none once the game is over."""
    seat = state.to_move() if seat is None else seat
    return seat, [] if state.is_over() else state.legal(seat)


def sensible_move(state, seat: int | None = None) -> Choice | None:
    """The computer player's move for ``seat`` (default: the seat to move), or between rounds the
    move that deals on; None when the game is over or ``seat`` has nothing to do. A game without a
    computer player gets its first legal move."""
    seat, moves = _moves_of(state, seat)
    if not moves:
        return None
    if seat is None or seat != state.to_move():
        return Choice(seat, moves[0], moves[0].as_dict())  # a table move: the next deal
    definition = state.definition
    if definition.bot is None:
        return Choice(seat, moves[0], moves[0].as_dict())
    action = definition.action_to_dict(definition.bot.choose(state, seat))
    move = _matching_move(moves, action)
    assert move is not None, (f"{definition.key}: the computer player chose {action}, which is none of "
                              f"the legal moves {[m.button for m in moves]}")
    return Choice(seat, move, action)


def random_move(state, rng: random.Random, seat: int | None = None) -> Choice | None:
    """A random legal move for ``seat`` (default: the seat to move; between rounds a move of the
    table), with random cards of the seat's own hand and a random target; None if there is none."""
    seat, moves = _moves_of(state, seat)
    if not moves:
        return None
    move = rng.choice(moves)
    cards: list[str] = []
    if move.pick is not None and seat is not None:
        hand = list(state.view(seat).get("hand") or [])
        fewest, most = move.pick
        cards = rng.sample(hand, rng.randint(min(fewest, len(hand)), min(most, len(hand))))
    target = rng.choice(move.targets) if move.targets else None
    return Choice(seat, move, move.as_dict(cards, target))


def logged_action(state, choice: Choice) -> dict:
    """The action log entry that the table form of ``choice`` makes once accepted: the form's
    action as the game reads it, written back as plain data."""
    definition = state.definition
    return definition.action_to_dict(definition.action_from_dict(choice.action))
