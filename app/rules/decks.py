"""Stacked deck files (R2).

A ``.deck`` file is 65 card codes separated by any whitespace; the first code is the top of the
deck, dealt first (R2.3). ``parse_deck`` is the one validator: the terminal, the web upload, the
admin CLI and the tests all call it.
"""

from __future__ import annotations

import os
import random

from .cards import FULL_DECK, Card, InvalidCardError

DECK_SIZE = len(FULL_DECK)  # R1.4


class DeckError(ValueError):
    """A deck file that cannot be used; the message says what is wrong (R2.2)."""


def parse_deck(text: str) -> list[Card]:
    """Validate deck text (R2.1, R2.2) and return its cards, top of the deck first."""
    tokens = text.split()  # R2.1: any whitespace separates codes
    cards: list[Card] = []
    for position, token in enumerate(tokens, start=1):
        try:
            cards.append(Card.parse(token))
        except InvalidCardError:
            shown = token if len(token) <= 12 and token.isprintable() else repr(token[:12])
            raise DeckError(
                f"code {position} of the deck, '{shown}', is not a card "
                "(a card is a value 2-9 T J Q K A followed by a suit C D H S P, such as TP)"
            ) from None
    seen: dict[Card, int] = {}
    for position, card in enumerate(cards, start=1):
        if card in seen:
            count = "" if len(cards) == DECK_SIZE else f" (and the deck holds {len(cards)} card codes, not {DECK_SIZE})"
            raise DeckError(
                f"{card.code} appears twice, at codes {seen[card]} and {position}: "
                f"every card must appear exactly once{count}"
            )
        seen[card] = position
    if len(cards) != DECK_SIZE:
        missing = [card.code for card in FULL_DECK if card not in seen]
        hint = f" (missing: {' '.join(missing[:8])}{' ...' if len(missing) > 8 else ''})" if missing else ""
        raise DeckError(
            f"the deck holds {len(cards)} card codes; it needs exactly {DECK_SIZE}{hint}"
        )
    return cards


def decode_deck_bytes(data: bytes) -> str:
    """Bytes of an uploaded or stored deck file as text; a UTF-8 BOM is allowed."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise DeckError("the file is not text (it is not UTF-8): a deck file holds card codes") from None


def read_deck_file(path: str | os.PathLike) -> list[Card]:
    """Read and validate a deck file; a missing file is a ``DeckError`` too (R2.2)."""
    name = os.fspath(path)
    try:
        with open(name, "rb") as handle:
            data = handle.read(1_000_001)
    except FileNotFoundError:
        raise DeckError(f"there is no deck file named '{os.path.basename(name)}'") from None
    except IsADirectoryError:
        raise DeckError(f"'{os.path.basename(name)}' is a folder, not a deck file") from None
    except OSError as error:
        raise DeckError(f"'{os.path.basename(name)}' cannot be read: {error.strerror}") from None
    except ValueError:  # e.g. a NUL character in the typed name: no file can have that name
        raise DeckError(f"there is no deck file named {os.path.basename(name)!r}") from None
    if len(data) > 1_000_000:
        raise DeckError("the file is far too large to be a deck file (65 codes)")
    return parse_deck(decode_deck_bytes(data))


def format_deck(cards: list[Card], per_line: int = 10) -> str:
    """Deck text with ten codes a line, so each seat's first hand reads as one line."""
    lines = [" ".join(card.code for card in cards[i:i + per_line]) for i in range(0, len(cards), per_line)]
    return "\n".join(lines) + "\n"


def shuffled_deck(rng: random.Random) -> list[Card]:
    """A fresh full deck shuffled with the given generator (R2.4): randomness is passed in."""
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    return deck
