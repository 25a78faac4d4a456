"""The actions of 21 as plain data: ``{"action": "hit"}``, ``stay``, ``deal`` (the next round)
and ``end`` (end the table between rounds). None carries cards or fields."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.core.cards import quoted
from app.core.protocol import TABLE, TURN, ActionType, BadAction


@dataclass(frozen=True)
class Hit:
    """One more card, face up (T3.2)."""

    name = "hit"


@dataclass(frozen=True)
class Stay:
    """No more cards this round (T3.2, T3.4)."""

    name = "stay"


@dataclass(frozen=True)
class Deal:
    """Clear the table onto the discard pile and deal the next round (T3.5, T3.1)."""

    name = "deal"


@dataclass(frozen=True)
class EndTable:
    """End the game between rounds: the rounds played so far are its result."""

    name = "end"


Action = Hit | Stay | Deal | EndTable
ACTIONS: dict[str, type[Action]] = {kind.name: kind for kind in (Hit, Stay, Deal, EndTable)}
# Who may make each action: the seat to move (T3.2), or anyone at the table between rounds.
ACTION_TYPES = (
    ActionType(Hit, (Hit.name,), TURN),
    ActionType(Stay, (Stay.name,), TURN),
    ActionType(Deal, (Deal.name,), TABLE),
    ActionType(EndTable, (EndTable.name,), TABLE),
)


def action_from_dict(data: Any) -> Action:
    """An action from a form or a saved row: ``{"action": "hit"}`` (any letter case, surrounding
    spaces ignored). No action of 21 takes cards: a non-empty ``cards`` is refused; other fields
    (a form's token) are ignored."""
    if not isinstance(data, Mapping):
        raise BadAction("An action is a set of form fields.")
    name = data.get("action")
    if not isinstance(name, str):
        raise BadAction("The action is missing: hit, stay, deal or end.")
    kind = ACTIONS.get(name.strip().lower())
    if kind is None:
        raise BadAction(f"{quoted(name, 20)} is not an action of 21: hit, stay, deal or end.")
    cards = data.get("cards")
    if cards not in (None, "", [], ()):
        raise BadAction(f"{kind.__name__} takes no cards: nobody chooses cards in 21.")
    return kind()


def action_to_dict(action: Action) -> dict[str, Any]:
    if not isinstance(action, tuple(ACTIONS.values())):
        raise BadAction(f"{action!r} is not an action of 21.")
    return {"action": action.name}
