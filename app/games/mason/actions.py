"""What a seat can do to a game, and the typed reasons an action is refused.

An action is plain data (a named tuple: cheap to make, the engine makes millions).
``MasonState.apply(seat, action)`` either applies it whole or raises an ``IllegalAction`` and
changes nothing. As plain data (a web form, a row of the action log) an action is
``{"action": "draw_stock" | "draw_discard" | "lay_down" | "discard" | "next_round", "cards": [...]}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple, cast

from app.core.cards import InvalidCardError
from app.core.protocol import (
    TABLE, TURN, ActionType, BadAction, BadSelection, CardNotInHand, GameIsOver, IllegalAction, NotYourTurn,
    PileEmpty, WrongPhase,
)

from .cards import DECK, Card

STOCK = "stock"
DISCARD_PILE = "discard"


class Draw(NamedTuple):
    """Menu D (R5.1): ``source`` is ``STOCK`` or ``DISCARD_PILE``."""

    source: str


class LayDown(NamedTuple):
    """Menu E option 1 then Menu F (R5.5): lay these cards from the hand."""

    cards: tuple[Card, ...]


class Discard(NamedTuple):
    """Menu E option 2 then Menu F (R5.6): put this card on the discard pile."""

    card: Card


class NextRound(NamedTuple):
    """Deal the next round after a round summary (R9.3)."""


Action = Draw | LayDown | Discard | NextRound

DRAW_ACTIONS = {"draw_stock": STOCK, "draw_discard": DISCARD_PILE}

# Who may make each action: the seat to move (R5), or anyone at the table between rounds (R9.3).
ACTION_TYPES = (
    ActionType(Draw, tuple(DRAW_ACTIONS), TURN),
    ActionType(LayDown, ("lay_down",), TURN),
    ActionType(Discard, ("discard",), TURN),
    ActionType(NextRound, ("next_round",), TABLE),
)


def action_to_dict(action: Action) -> dict[str, Any]:
    if isinstance(action, Draw):
        return {"action": "draw_stock" if action.source == STOCK else "draw_discard"}
    if isinstance(action, LayDown):
        return {"action": "lay_down", "cards": [card.code for card in action.cards]}
    if isinstance(action, Discard):
        return {"action": "discard", "cards": [action.card.code]}
    if isinstance(action, NextRound):
        return {"action": "next_round"}
    raise TypeError(f"not an action: {action!r}")


def action_from_dict(data: Any) -> Action:
    """An action from a form or a log row; ``BadAction`` if it is none, ``BadSelection`` for a
    selection that is not one (R5.5, R5.6). Log rows of the first format (``{"type": ...}``)
    are read too."""
    if not isinstance(data, Mapping):
        raise BadAction("That is not one of the offered actions.")
    if "type" in data and "action" not in data:
        data = _first_format(data)
    name = data.get("action")
    if not isinstance(name, str):
        raise BadAction("That is not one of the offered actions.")  # R9.1
    if name in DRAW_ACTIONS:
        return Draw(DRAW_ACTIONS[name])
    if name == "next_round":
        return NextRound()
    if name in ("lay_down", "discard"):
        codes = data.get("cards", [])
        if isinstance(codes, str):
            codes = [codes]
        if name == "lay_down":
            if not codes:
                raise BadSelection("Select the cards to play down first: tap them in your hand.")  # R5.5
            return LayDown(_cards(codes))
        if isinstance(codes, (list, tuple)) and len(codes) != 1:
            raise BadSelection("Select exactly one card to discard.")  # R5.6
        return Discard(_cards(codes)[0])
    raise BadAction("That is not one of the offered actions.")  # R9.1


def _cards(codes: Any) -> tuple[Card, ...]:
    if not isinstance(codes, (list, tuple)):
        raise BadAction("The cards of an action are a list of card codes.")
    try:
        return tuple(cast(Card, DECK.parse(code)) for code in codes)
    except InvalidCardError as error:
        raise BadAction(str(error)) from None


def _first_format(data: Mapping[str, Any]) -> dict[str, Any]:
    kind = data.get("type")
    if kind == "draw":
        return {"action": "draw_stock" if data.get("source") == STOCK else "draw_discard"}
    if kind == "discard":
        return {"action": "discard", "cards": [data.get("card")]}
    return {"action": kind, "cards": data.get("cards", [])}


class LayDownRefused(IllegalAction):
    """R6.3 rule 3: a well-formed selection that is neither a new set nor fits the player's sets."""

    code = "lay_down_refused"


class RoundOver(Exception):
    """Signals that the current round has ended: a hand is empty (R5.7) or the round is blocked.

    ``MasonState`` raises it internally at the moment a hand empties and catches it to score the round;
    ``Player.take_turn`` raises it to tell the game loop that the round it was playing is over.
    """

    def __init__(self, went_out: int | None):
        super().__init__("the round is over")
        self.went_out = went_out


__all__ = ["ACTION_TYPES", "DISCARD_PILE", "STOCK", "Action", "BadAction", "BadSelection", "CardNotInHand", "Discard",
           "Draw", "GameIsOver", "IllegalAction", "LayDown", "LayDownRefused", "NextRound", "NotYourTurn", "PileEmpty",
           "RoundOver", "WrongPhase", "action_from_dict", "action_to_dict"]
