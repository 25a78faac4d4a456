"""The table's news for its sounds: what the last change at the table was, as one of the sound
kinds (static/js/app.js plays the sound the table's ``data-news`` names, when the log has grown;
"turn", the seat's own turn coming round, it sees itself from ``data-my-turn``).

The news is the game's own: the game over (won or lost, for a seat; the round's sound for a
spectator), a round over (nobody to move, the game going on), or the last line of the log, read
by its message (the template of the line's ``say``, as a translation catalogue keys a line)."""

from __future__ import annotations

import re
from typing import Any

from flask_babel import lazy_gettext

from ..tables.views import TableView

# Every kind of sound, in the settings' order, with its words there.
SOUND_KINDS = (
    ("turn", lazy_gettext("Your turn")),
    ("draw", lazy_gettext("A card drawn or taken")),
    ("play", lazy_gettext("A card played or discarded")),
    ("meld", lazy_gettext("Cards laid down or laid off")),
    ("round", lazy_gettext("A round over")),
    ("won", lazy_gettext("You won")),
    ("lost", lazy_gettext("You lost")),
)

# A log line's message -> its sound, the first that matches. Lines of no sound (a deal, a
# score, an undo) match none.
LINE_SOUNDS = (
    (re.compile(r"^(Undo|Undid)\b"), ""),
    (re.compile(r"\b(went out|ends round|declared|went bust|wins round|has 21|wins the deal|reaches .* points|"
                r"is blocked|the last card went home|All 52 cards|gave up)\b"), "round"),
    (re.compile(r"\bdiscarded\b|^Moved the\b|\bwent home by itself\b|\bstays on\b"), "play"),
    (re.compile(r"\b(drew|took|draws|takes|turns over)\b"), "draw"),
    (re.compile(r"\b(laid|melded|added)\b"), "meld"),
)


def line_sound(line: dict[str, Any]) -> str:
    """The sound of one log line, by its message; "" for none."""
    say = line.get("say")
    if not say:
        return ""
    message = say[0] if isinstance(say[0], str) else say[0][0]
    for pattern, sound in LINE_SOUNDS:
        if pattern.search(message):
            return sound
    return ""


def table_news(table: TableView) -> str:
    """The sound of the table's latest change, as this seat (or a spectator) hears it; "" for none."""
    if table.ending.abandoned:
        return ""
    if table.ending.finished:
        mine = [result for result in table.ending.results if result.seat == table.me]
        if not mine:
            return "round"
        return "won" if mine[0].won else "lost"
    if table.turn is None and table.log.lines:
        return "round"
    return line_sound(table.log.lines[-1]) if table.log.lines else ""
