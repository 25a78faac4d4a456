"""Guided first games ("Learn by playing"): a real table of the game, dealt from its guide's known
deck, the learner in the first seat against the game's computer player. The game's own guide
(``app.core.guides``) says each step's move; the table keeps the step it is at
(``GameRecord.guide_step``; ``lifecycle.start_guide`` sets one up). While the script lasts, only the step's move is made (any other is
refused with the step's words); after its last step the game goes on by its rules alone. A
guided game changes no score or statistic (``records``) and no list of games shows it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask_babel import gettext

from ..core import guides, registry
from ..core.guides import Guide, GuideStep
from ..core.protocol import GameDefinition, said
from ..store.models import GameRecord
from .errors import NotFound, Refused


@dataclass(frozen=True)
class GuideShown:
    """What the table page shows of its guide: the step's words and the control it points at
    (``points_at``, a CSS selector; empty once the script is over), which step of how many,
    and the words before the first step and after the last."""

    say: str
    points_at: str
    number: int  # from 1; ``total`` + 1 once the script is over
    total: int
    welcome: str
    farewell: str

    @property
    def over(self) -> bool:
        return self.number > self.total


def guide_for(key: str) -> tuple[GameDefinition, Guide]:
    """The game ``key`` and its guide (NotFound if there is no such game or it has none)."""
    try:
        definition = registry.get(key)
    except registry.UnknownGame:
        raise NotFound(gettext("There is no such game.")) from None
    guide = guides.guide_of(definition)
    if guide is None:
        raise NotFound(gettext("%(game)s has no guided first game.", game=definition.name))
    return definition, guide


def guided_games() -> list[tuple[GameDefinition, Guide]]:
    """Every registered game that has a guide, with it."""
    found = []
    for definition in registry.games():
        guide = guides.guide_of(definition)
        if guide is not None:
            found.append((definition, guide))
    return found


def guide_of_record(record: GameRecord, definition: GameDefinition) -> Guide | None:
    return guides.guide_of(definition) if record.guide_step is not None else None


def check_guided(record: GameRecord, definition: GameDefinition, seat: int | None, data: dict[str, Any]) -> int | None:
    """A guided game's step after this action (None: not a guided game): while the script lasts,
    only its step's move may be made (Refused, with the step's words)."""
    guide = guide_of_record(record, definition)
    if guide is None or record.guide_step is None:
        return None
    step = guide.step(record.guide_step)
    if step is None:
        return record.guide_step
    if not guides.expects(definition, step, seat, data):
        asks = gettext("The guide asks for another move here.")
        # (the step's words are the game's: the web reads them in its catalogue, as the guide shows them)
        raise Refused(f"{asks} {step.say}", say=said("{asks} {step}", asks=asks, step=said(step.say)))
    return record.guide_step + 1


def shown(record: GameRecord, definition: GameDefinition) -> GuideShown | None:
    """The guide's part of the table page, for a guided game."""
    guide = guide_of_record(record, definition)
    if guide is None or record.guide_step is None:
        return None
    step: GuideStep | None = guide.step(record.guide_step)
    return GuideShown(say=step.say if step is not None else guide.farewell,
                      points_at=step.points_at if step is not None else "",
                      number=record.guide_step + 1, total=len(guide.steps),
                      welcome=guide.welcome, farewell=guide.farewell)
