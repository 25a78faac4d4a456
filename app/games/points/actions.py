"""Points Rummy's actions as plain data (P4, P5, and arranging a hand).

An action names cards by id (``QH``, ``QH-2`` for a two-deck game's second queen, ``JK``). As
plain data an action is ``{"action": name, ...fields}`` with its cards under ``"cards"``:

    draw      {"action": "draw", "source": "closed" | "open"}             P4.1
    discard   {"action": "discard", "cards": [id]}                         P4.2
    drop      {"action": "drop"}                                           P4.3
    declare   {"action": "declare", "cards": [finish id],                  P5.1
               "groups": "id id id|id id id|..."  (optional: else the seat's own
               arrangement; a list of lists of ids is read too)}
              or {"action": "declare", "finish": id}: the card the seat's arrangement leaves
              out, which the move names (it wins over selected "cards"); with neither, that
              card too
    group     {"action": "group", "cards": [id, ...]}      the cards form a new group
    move      {"action": "move", "cards": [id, ...], "group": "2"}   into group 2
    ungroup   {"action": "ungroup", "cards": [id, ...]}    the cards leave their groups
    sort      {"action": "sort"}                           one group per suit, jokers apart
    deal      {"action": "deal"}                           the next deal (between deals)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.core.cards import InvalidCardError
from app.core.protocol import OWN, TABLE, TURN, ActionType, BadAction

from .cards import TWO_DECKS

CLOSED = "closed"
OPEN = "open"
MAX_CARDS = 20  # more card ids than any hand holds is not an action of this game


@dataclass(frozen=True)
class Draw:
    source: str


@dataclass(frozen=True)
class Discard:
    cards: tuple[str, ...]  # the card to discard (exactly one, checked by the rules)


@dataclass(frozen=True)
class Drop:
    pass


@dataclass(frozen=True)
class Declare:
    finish: tuple[str, ...]  # the finish card (exactly one, checked by the rules)
    groups: tuple[tuple[str, ...], ...] | None = None


@dataclass(frozen=True)
class MakeGroup:
    cards: tuple[str, ...]


@dataclass(frozen=True)
class MoveToGroup:
    cards: tuple[str, ...]
    group: int


@dataclass(frozen=True)
class Ungroup:
    cards: tuple[str, ...]


@dataclass(frozen=True)
class SortBySuit:
    pass


@dataclass(frozen=True)
class NextDeal:
    pass


ARRANGING = (MakeGroup, MoveToGroup, Ungroup, SortBySuit)
Action = Draw | Discard | Drop | Declare | MakeGroup | MoveToGroup | Ungroup | SortBySuit | NextDeal

# Who may make each action: the seat to move (P4, P5), a seat arranging its own cards at any
# moment of a deal, or anyone at the table between deals.
ACTION_TYPES = (
    ActionType(Draw, ("draw",), TURN),
    ActionType(Discard, ("discard",), TURN),
    ActionType(Drop, ("drop",), TURN),
    ActionType(Declare, ("declare",), TURN),
    ActionType(MakeGroup, ("group",), OWN),
    ActionType(MoveToGroup, ("move",), OWN),
    ActionType(Ungroup, ("ungroup",), OWN),
    ActionType(SortBySuit, ("sort",), OWN),
    ActionType(NextDeal, ("deal",), TABLE),
)


def _card_id(value: Any) -> str:
    """A card id in either letter case, as the two-deck deck writes it (the rules then check it
    is in the seat's hand, in a one-deck game too)."""
    if not isinstance(value, str):
        raise BadAction(f"{value!r} is not a card")
    try:
        return TWO_DECKS.parse(value.strip()).id
    except InvalidCardError as error:
        raise BadAction(str(error)) from None


def _card_ids(value: Any, *, field: str = "cards") -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):  # one id posted alone
        value = [value]
    if not isinstance(value, (list, tuple)):
        raise BadAction(f"'{field}' must be a list of card ids")
    if len(value) > MAX_CARDS:
        raise BadAction(f"'{field}' names {len(value)} cards: far more than a hand holds")
    return tuple(_card_id(item) for item in value)


def _group_number(value: Any) -> int:
    if isinstance(value, bool):
        raise BadAction("'group' must be a group number")
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit() and value.strip().isascii() and len(value.strip()) <= 3:
        return int(value.strip())
    raise BadAction("'group' must be a group number, such as 2")


def action_from_dict(data: Any) -> Action:
    """An action from plain data (a web form, a saved log row); ``BadAction`` for anything that
    is not one."""
    if not isinstance(data, Mapping):
        raise BadAction("an action is a set of fields")
    name = data.get("action")
    if not isinstance(name, str):
        raise BadAction("the action has no name")
    name = name.strip().lower()
    if name == "draw":
        source = data.get("source")
        if not isinstance(source, str) or source.strip().lower() not in (CLOSED, OPEN):
            raise BadAction("draw from 'closed' (the closed deck) or 'open' (the open pile)")
        return Draw(source.strip().lower())
    if name == "discard":
        return Discard(_card_ids(data.get("cards")))
    if name == "drop":
        return Drop()
    if name == "declare":
        named = data.get("finish")
        finish = _card_ids([named] if named else data.get("cards"))
        groups = data.get("groups")
        if isinstance(groups, str):  # as a form posts it: "AH 2H 3H|QD KD AD|..."
            groups = [group.split() for group in groups.split("|")] if groups.strip() else None
        if groups is not None:
            if not isinstance(groups, (list, tuple)) or len(groups) > MAX_CARDS:
                raise BadAction("'groups' must be a list of groups of card ids")
            groups = tuple(_card_ids(group, field="groups") for group in groups)
        return Declare(finish, groups)
    if name == "group":
        return MakeGroup(_card_ids(data.get("cards")))
    if name == "move":
        return MoveToGroup(_card_ids(data.get("cards")), _group_number(data.get("group")))
    if name == "ungroup":
        return Ungroup(_card_ids(data.get("cards")))
    if name == "sort":
        return SortBySuit()
    if name == "deal":
        return NextDeal()
    raise BadAction(f"'{name[:20]}' is not an action of Points Rummy")


def action_to_dict(action: Action) -> dict[str, Any]:
    if isinstance(action, Draw):
        return {"action": "draw", "source": action.source}
    if isinstance(action, Discard):
        return {"action": "discard", "cards": list(action.cards)}
    if isinstance(action, Drop):
        return {"action": "drop"}
    if isinstance(action, Declare):
        data: dict[str, Any] = {"action": "declare", "cards": list(action.finish)}
        if action.groups is not None:  # as a form can post it (and a log row keeps it)
            data["groups"] = "|".join(" ".join(group) for group in action.groups)
        return data
    if isinstance(action, MakeGroup):
        return {"action": "group", "cards": list(action.cards)}
    if isinstance(action, MoveToGroup):
        return {"action": "move", "cards": list(action.cards), "group": str(action.group)}
    if isinstance(action, Ungroup):
        return {"action": "ungroup", "cards": list(action.cards)}
    if isinstance(action, SortBySuit):
        return {"action": "sort"}
    if isinstance(action, NextDeal):
        return {"action": "deal"}
    raise BadAction(f"{action!r} is not an action of Points Rummy")
