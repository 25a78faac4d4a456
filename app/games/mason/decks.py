"""Mason Rummy's stacked decks (R2): 65 card codes separated by any whitespace, the first code
the top of the deck (R2.3). The one parser is the core's (``app.core.decks``); this names it for
Mason Rummy's deck. Reading the file is the caller's business (the terminal, the web)."""

from __future__ import annotations

import random
from typing import cast

from app.core.decks import DeckError, decode_deck_bytes, format_deck, parse_deck as parse_any_deck, shuffled

from .cards import DECK, Card

DECK_SIZE = DECK.size  # R1.4


def parse_deck(text: str) -> list[Card]:
    """Validate deck text (R2.1, R2.2) and return its cards, top of the deck first."""
    return cast(list[Card], parse_any_deck(text, DECK))


def shuffled_deck(rng: random.Random) -> list[Card]:
    """A fresh full deck shuffled with the given generator (R2.4): randomness is passed in."""
    return cast(list[Card], shuffled(DECK, rng))


__all__ = ["DECK_SIZE", "DeckError", "decode_deck_bytes", "format_deck", "parse_deck", "shuffled_deck"]
