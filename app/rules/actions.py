"""What a seat can do to a game, and the typed reasons an action is refused.

An action is plain data (a named tuple: cheap to make, the engine makes millions). ``Game.apply(seat, action)`` either applies it whole or raises an
``IllegalAction`` and changes nothing.
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import Card

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


def action_to_dict(action: Action) -> dict:
    if isinstance(action, Draw):
        return {"type": "draw", "source": action.source}
    if isinstance(action, LayDown):
        return {"type": "lay_down", "cards": [card.code for card in action.cards]}
    if isinstance(action, Discard):
        return {"type": "discard", "card": action.card.code}
    if isinstance(action, NextRound):
        return {"type": "next_round"}
    raise TypeError(f"not an action: {action!r}")


def action_from_dict(data: dict) -> Action:
    kind = data.get("type")
    if kind == "draw":
        return Draw(data["source"])
    if kind == "lay_down":
        return LayDown(tuple(Card.parse(code) for code in data["cards"]))
    if kind == "discard":
        return Discard(Card.parse(data["card"]))
    if kind == "next_round":
        return NextRound()
    raise ValueError(f"unknown action type {kind!r}")


class IllegalAction(Exception):
    """An action the rules refuse. The game is unchanged. ``str()`` is a message for players."""

    code = "illegal"


class NotYourTurn(IllegalAction):
    code = "not_your_turn"


class WrongPhase(IllegalAction):
    """For example a second draw in one turn (R5.4) or a discard before drawing."""

    code = "wrong_phase"


class PileEmpty(IllegalAction):
    """R5.3: the chosen pile cannot give a card."""

    code = "pile_empty"


class CardNotInHand(IllegalAction):
    code = "card_not_in_hand"


class BadSelection(IllegalAction):
    """R5.5: empty, repeated or unknown cards: not a selection at all."""

    code = "bad_selection"


class LayDownRefused(IllegalAction):
    """R6.3 rule 3: a well-formed selection that is neither a new set nor fits the player's sets."""

    code = "lay_down_refused"


class GameIsOver(IllegalAction):
    code = "game_over"


class RoundOver(Exception):
    """Signals that the current round has ended: a hand is empty (R5.7) or the round is blocked.

    ``Game`` raises it internally at the moment a hand empties and catches it to score the round;
    ``Player.take_turn`` raises it to tell the game loop that the round it was playing is over.
    """

    def __init__(self, went_out: int | None):
        super().__init__("the round is over")
        self.went_out = went_out
