"""What the player of Seahaven Towers can do, as plain data.

- ``MoveCard(source, target)``: one card from a column or a cell to a column, a cell or a
  foundation (S3), places named ``t1``-``t10``, ``c1``-``c4``, ``f1``-``f4``; plain data
  ``{"action": "move", "from": "t3", "to": "f1"}``, optionally with ``"cards": ["7H"]`` naming
  the card the player took (a move whose card is no longer there is refused), and
  ``"auto": "1"`` when the player's table sends cards home by themselves: every card that can
  then go to its foundation goes, in the same action (so one undo takes them back with it);
- ``Finish()``: sends every card left home, when each can get there by moves to the foundations
  alone (``Layout.home_line``), in one action;
- ``Undo()``: takes back the last move still on the board (S4.1, S6.1), as often as there are;
- ``GiveUp()``: ends an unwon game, so that it counts as played and not won (S6.2).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.core.cards import InvalidCardError
from app.core.protocol import TURN, ActionType, BadAction

from .rules import DECK, NotAPlace, parse_place


@dataclass(frozen=True)
class MoveCard:
    """One card from ``source`` to ``target`` (S3.1). ``card``: the id of the card the player
    took, or None."""

    source: str
    target: str
    card: str | None = None
    auto: bool = False


@dataclass(frozen=True)
class Finish:
    """Every card left goes home, one move each, when each can get there by moves to the
    foundations alone (S3.2)."""


@dataclass(frozen=True)
class Undo:
    """Take back the last move (S4.1, S6.1)."""


@dataclass(frozen=True)
class GiveUp:
    """End the game unwon (S6.2)."""


Action = MoveCard | Undo | GiveUp | Finish

# The one seat plays every action on its turn (which lasts the whole game).
ACTION_TYPES = (
    ActionType(MoveCard, ("move",), TURN),
    ActionType(Undo, ("undo",), TURN),
    ActionType(GiveUp, ("give_up",), TURN),
    ActionType(Finish, ("finish",), TURN),
)

YES = ("1", "on", "yes", "true")
WORDS = {"undo": "Undo", "give_up": "Giving up", "finish": "Finishing"}


def action_from_dict(data: Any) -> Action:
    """An action from a form or a saved row; ``BadAction`` for anything that is not one."""
    if not isinstance(data, Mapping):
        raise BadAction("An action is a set of named fields.")
    name = data.get("action")
    if name == "move":
        source, target = data.get("from"), data.get("to")
        if not isinstance(source, str) or not isinstance(target, str):
            raise BadAction("A move needs the place a card comes from and the place it goes to.")
        try:
            source, target = parse_place(source), parse_place(target)
        except NotAPlace as error:
            raise BadAction(str(error).capitalize() + ".") from None
        card = None
        cards = data.get("cards")
        named = not (cards is None or isinstance(cards, (list, tuple)) and not cards)  # a form's [] names none
        if named:
            if not isinstance(cards, (list, tuple)) or len(cards) != 1 or not isinstance(cards[0], str):
                raise BadAction("A move takes one card at a time.")
            try:
                card = DECK.parse(cards[0].strip()).id
            except InvalidCardError as error:
                raise BadAction(str(error)) from None
        auto = data.get("auto")
        return MoveCard(source, target, card, auto is True or isinstance(auto, str) and auto.strip().lower() in YES)
    if name in ("undo", "give_up", "finish"):
        if data.get("cards"):
            raise BadAction(f"{WORDS[name]} takes no cards.")
        return Undo() if name == "undo" else GiveUp() if name == "give_up" else Finish()
    if isinstance(name, str):
        raise BadAction(f"'{name[:20]}' is not a Seahaven Towers action: move, undo, give_up or finish.")
    raise BadAction("An action needs its name: move, undo, give_up or finish.")


def action_to_dict(action: Action) -> dict[str, Any]:
    if isinstance(action, MoveCard):
        data: dict[str, Any] = {"action": "move", "from": action.source, "to": action.target}
        if action.card is not None:
            data["cards"] = [action.card]
        if action.auto:
            data["auto"] = "1"
        return data
    if isinstance(action, Undo):
        return {"action": "undo"}
    if isinstance(action, GiveUp):
        return {"action": "give_up"}
    if isinstance(action, Finish):
        return {"action": "finish"}
    raise TypeError(f"not a Seahaven Towers action: {action!r}")


__all__ = ["ACTION_TYPES", "Action", "Finish", "GiveUp", "MoveCard", "Undo", "action_from_dict", "action_to_dict"]
