"""What a seat can do in Classic Rummy, as plain data, and the typed reasons it is refused.

Actions are named tuples (cheap: the simulator makes millions). As plain data (a web form, a
saved log row) they are ``{"action": NAME, ...}``:

    {"action": "draw", "source": "stock" | "discard"}        C3.1 (C4.1, C4.2)
    {"action": "meld", "cards": [ids]}                      C3.2, a new set or run
    {"action": "lay_off", "cards": [id], "meld": "2"}       C3.2, on meld number 2 of the table
    {"action": "discard", "cards": [id]}                    C3.3, ends the turn
    {"action": "deal"}                                      the next hand, between hands

Card ids are read in either letter case; the meld number is a string (a form's value) or an int.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from app.core.cards import Card, InvalidCardError
from app.core.protocol import (
    TABLE, TURN, ActionType, BadAction, BadSelection, CardNotInHand, IllegalAction, PileEmpty,
)

from .cards import DECK

STOCK = "stock"
DISCARD_PILE = "discard"


class DrawCard(NamedTuple):
    """C3.1: take the top card of the stock (``STOCK``) or of the discard pile."""

    source: str


class MeldCards(NamedTuple):
    """C3.2: put these cards down as a new meld."""

    cards: tuple[Card, ...]


class LayOff(NamedTuple):
    """C3.2: add one card to the meld numbered ``meld`` (from 1, in the order laid down)."""

    card: Card
    meld: int


class DiscardCard(NamedTuple):
    """C3.3: put this card on the discard pile, which ends the turn."""

    card: Card


class DealHand(NamedTuple):
    """Deal the next hand (between hands; anyone at the table may)."""


Action = DrawCard | MeldCards | LayOff | DiscardCard | DealHand

# Who may make each action: the seat to move (C3), or anyone at the table between hands.
ACTION_TYPES = (
    ActionType(DrawCard, ("draw",), TURN),
    ActionType(MeldCards, ("meld",), TURN),
    ActionType(LayOff, ("lay_off",), TURN),
    ActionType(DiscardCard, ("discard",), TURN),
    ActionType(DealHand, ("deal",), TABLE),
)


# -- refusals (the shared core's typed refusals, and this game's own) ---------------------------


class MeldRefused(IllegalAction):
    """The selection is no set or run (C3.2)."""

    code = "meld_refused"


class LayOffRefused(IllegalAction):
    """The card does not fit that meld, or there is no such meld (C3.2)."""

    code = "lay_off_refused"


class TakenCardRefused(IllegalAction):
    """C3.3: the card taken from the discard pile this turn may not be discarded this turn, nor
    be left as the only card in hand."""

    code = "taken_card"


class LastCardRefused(IllegalAction):
    """C9.2: at a table where a player goes out by discarding, a play that would leave no card."""

    code = "last_card"


# -- plain data -------------------------------------------------------------------------------------


def action_to_dict(action: Action) -> dict[str, Any]:
    if isinstance(action, DrawCard):
        return {"action": "draw", "source": action.source}
    if isinstance(action, MeldCards):
        return {"action": "meld", "cards": [card.id for card in action.cards]}
    if isinstance(action, LayOff):
        return {"action": "lay_off", "cards": [action.card.id], "meld": str(action.meld)}
    if isinstance(action, DiscardCard):
        return {"action": "discard", "cards": [action.card.id]}
    if isinstance(action, DealHand):
        return {"action": "deal"}
    raise TypeError(f"not a Classic Rummy action: {action!r}")


def action_from_dict(data: Any) -> Action:
    """An action from plain data; ``BadAction`` for anything that is not one."""
    if not isinstance(data, Mapping):
        raise BadAction("An action is a set of named fields.")
    name = data.get("action")
    if name == "draw":
        source = data.get("source")
        if source not in (STOCK, DISCARD_PILE):
            raise BadAction("Draw from the stock pile or the discard pile.")
        return DrawCard(source)
    if name == "meld":
        return MeldCards(tuple(_cards(data)))
    if name == "lay_off":
        cards = _cards(data)
        if len(cards) != 1:
            raise BadAction("Lay off one card at a time: select one card, then the meld.")
        return LayOff(cards[0], _meld_number(data.get("meld")))
    if name == "discard":
        cards = _cards(data)
        if len(cards) != 1:
            raise BadAction("Select exactly one card to discard.")
        return DiscardCard(cards[0])
    if name == "deal":
        return DealHand()
    shown = name if isinstance(name, str) and len(name) <= 20 and name.isprintable() else "that"
    raise BadAction(f"Classic Rummy has no action called {shown!r}.")


def _cards(data: Mapping[str, Any]) -> list[Card]:
    raw = data.get("cards", [])
    if isinstance(raw, str) or not isinstance(raw, (list, tuple)):
        raise BadAction("The cards must be a list of card ids.")
    cards = []
    for text in raw:
        try:
            cards.append(DECK.parse(text))
        except InvalidCardError as error:
            raise BadAction(str(error)) from None
    return cards


def _meld_number(raw: Any) -> int:
    if isinstance(raw, int) and not isinstance(raw, bool):
        number = raw
    elif isinstance(raw, str) and raw.strip().isdigit() and raw.strip().isascii() and len(raw.strip()) <= 6:
        number = int(raw.strip())
    else:
        raise BadAction("Choose the meld to lay the card off on, by its number.")
    if number < 1:
        raise BadAction("Melds are numbered from 1.")
    return number


__all__ = [
    "ACTION_TYPES", "DISCARD_PILE", "STOCK", "Action", "BadAction", "BadSelection", "CardNotInHand", "DealHand",
    "DiscardCard", "DrawCard", "LastCardRefused", "LayOff", "LayOffRefused", "MeldCards", "MeldRefused", "PileEmpty",
    "TakenCardRefused", "action_from_dict", "action_to_dict",
]
