"""A request refused, having changed nothing: what the house's refusals have in common."""

from __future__ import annotations

from typing import Any


class Refusal(Exception):
    """``message`` says why, for the person who asked; ``status`` is the HTTP status that
    answers it. ``say``: a game's refusal as a ``said`` text (``app.core.protocol.said``), for
    the web to show in its reader's language, its cards from the deck ``deck_key``."""

    status = 400

    def __init__(self, message: str, status: int | None = None, say: list[Any] | None = None,
                 deck_key: str | None = None):
        super().__init__(message)
        self.message = message
        self.say = say
        self.deck_key = deck_key
        if status is not None:
            self.status = status
