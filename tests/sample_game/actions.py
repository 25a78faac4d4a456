"""The actions of High card as plain data: ``{"action": "draw"}`` and ``{"action": "pass"}``, both
the seat to move's (H3)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.core.protocol import TURN, ActionType, BadAction


@dataclass(frozen=True)
class Draw:
    """The stock's top card into the hand (H3)."""

    name = "draw"


@dataclass(frozen=True)
class Pass:
    """No card this turn (H3)."""

    name = "pass"


Action = Draw | Pass
ACTIONS: dict[str, type[Action]] = {kind.name: kind for kind in (Draw, Pass)}
ACTION_TYPES = (
    ActionType(Draw, (Draw.name,), TURN),
    ActionType(Pass, (Pass.name,), TURN),
)


def action_from_dict(data: Any) -> Action:
    """An action from a form or a saved row: ``{"action": "draw"}`` (any letter case). No action
    takes cards: a non-empty ``cards`` is refused; other fields (a form's token) are ignored."""
    if not isinstance(data, Mapping):
        raise BadAction("An action is a set of form fields.")
    name = data.get("action")
    if not isinstance(name, str):
        raise BadAction("The action is missing: draw or pass.")
    kind = ACTIONS.get(name.strip().lower())
    if kind is None:
        shown = name[:20] if name.isprintable() else repr(name[:20])
        raise BadAction(f"'{shown}' is not an action of High card: draw or pass.")
    if data.get("cards") not in (None, "", [], ()):
        raise BadAction("Nobody chooses cards in High card: draw or pass.")
    return kind()


def action_to_dict(action: Action) -> dict[str, Any]:
    if not isinstance(action, (Draw, Pass)):
        raise BadAction(f"{action!r} is not an action of High card.")
    return {"action": action.name}
