"""A guided first game ("Learn by playing"): a real table dealt from a known deck, against the
game's computer player, where each step says in players' words what to do and why, and which
control of the table does it. A game's guide is data (its package's ``guide.py``): the deal, the
seats, and the steps, each the move expected of a seat as plain data (``Move.as_dict``), matched
against ``legal(seat)``.

``expects`` says whether a posted action is the step's move; ``walk`` plays the whole script
through the rules (with the computer player's turns between), the check every guide's test
makes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .autoplay import autoplay
from .cards import Card
from .protocol import Bot, GameDefinition, GameState, IllegalAction

GUIDED_SEAT = 0  # the person learning sits in the first seat


@dataclass(frozen=True)
class GuideStep:
    """One step: the move expected (plain data, as the table's form posts it) of ``seat`` (None:
    a move of the table, such as the next round), the words that say what to do and why, and
    the control it points at (a CSS selector of the table page: a button, a card, a pile)."""

    action: Mapping[str, Any]
    say: str
    points_at: str
    seat: int | None = GUIDED_SEAT


@dataclass(frozen=True)
class Guide:
    """A game's guided first game: its deck (card ids, top first, as its deck files hold them),
    its seats' names (the learner first, then the computer players), its options, its steps,
    and the words shown before the first step and after the last."""

    deck: tuple[str, ...]
    names: tuple[str, ...]
    steps: tuple[GuideStep, ...]
    welcome: str
    farewell: str
    options: Mapping[str, Any] = field(default_factory=dict)

    def cards(self, definition: GameDefinition) -> list[Card]:
        """The deck, read by the game's own parser."""
        return definition.parse_deck("\n".join(self.deck), len(self.names))

    def step(self, number: int) -> GuideStep | None:
        """Step ``number`` (from 0), or None once the script is over."""
        return self.steps[number] if 0 <= number < len(self.steps) else None


def normal(definition: GameDefinition, data: Mapping[str, Any]) -> dict[str, Any]:
    """An action's data as its game reads it back (``action_to_dict(action_from_dict(data))``),
    its lists sorted, so two spellings of one move compare equal."""
    plain = definition.action_to_dict(definition.action_from_dict(dict(data)))
    return {key: sorted(value) if isinstance(value, list) else value for key, value in plain.items()}


def expects(definition: GameDefinition, step: GuideStep, seat: int | None, data: Mapping[str, Any]) -> bool:
    """Whether the posted action (``data``, for ``seat``) is the step's move: the same in every
    field the step names (a field it leaves out, such as the card a Seahaven move picked up
    beside the place it left, may be posted too)."""
    if seat != step.seat:
        return False
    try:
        posted, wanted = normal(definition, data), normal(definition, step.action)
    except IllegalAction:
        return False
    return {key: posted.get(key) for key in wanted} == wanted


def is_legal(definition: GameDefinition, state: GameState, step: GuideStep) -> bool:
    """Whether the step's move is among ``legal(seat)`` now."""
    wanted = normal(definition, step.action)
    for move in state.legal(step.seat):
        cards = step.action.get("cards") or ()
        target = step.action.get(move.target) if move.target else None
        try:
            if normal(definition, move.as_dict(cards, target)) == wanted:
                return True
        except IllegalAction:
            continue
    return False


def walk(definition: GameDefinition, guide: Guide) -> GameState:
    """Deal the guide's game and make each step's move, the computer players moving between
    (as at the table); ``IllegalAction`` at the first step that is not legal when it comes.
    Returns the state after the last step."""
    state = definition.new_state(list(guide.names), options=definition.validate_options(guide.options),
                                 stacked_deck=guide.cards(definition))
    bot = definition.bot

    def computer(seat: int) -> Bot | None:
        return bot if seat != GUIDED_SEAT else None

    autoplay(state, computer)
    for number, step in enumerate(guide.steps):
        if not is_legal(definition, state, step):
            raise IllegalAction(f"step {number + 1} ({dict(step.action)}) is not legal now")
        state.apply(step.seat, definition.action_from_dict(dict(step.action)))
        autoplay(state, computer)
    return state


def guide_of(definition: GameDefinition) -> Guide | None:
    """The game's guided first game (its definition's ``guide``), if it has one."""
    guide = getattr(definition, "guide", None)
    return guide if isinstance(guide, Guide) else None
