"""Deck files: the one parser of stacked decks, for every game's deck (Mason Rummy's R2.2
messages, with the deck's own size, ranks and suits).

A deck file holds card codes separated by any whitespace (or, for a game that says so, one code
per line); the first code is the top of the deck. It is valid only if it holds exactly the deck's
cards: every code valid and every card as many times as the deck has copies of it. When a deck
has two copies of a card, its first appearance in the file is the first copy. A message names a
wrong code by its place in the deck and, in a file of several lines, by its line as an editor
shows it (a file of one code a line, by its line alone).

Pure text in, cards out: reading the file is the caller's business.
"""

from __future__ import annotations

import random
import re

from .cards import Card, DeckSpec, quoted

MAX_DECK_FILE_BYTES = 1_000_000


class DeckError(ValueError):
    """A deck that cannot be used; the message says what is wrong (R2.2)."""


def parse_deck(text: str, deck: DeckSpec, *, one_per_line: bool = False) -> list[Card]:
    """Validate deck text and return its cards, top of the deck first."""
    words: list[str] = []
    lines_of: list[int] = []  # each code's line, as the messages name it
    # (lines as an editor shows them: a form feed or a Unicode line separator is no line break)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for number, line in enumerate(lines, start=1):
        if one_per_line:
            # T2.1 ignores only spaces and tabs around a code: any other space (a no-break space,
            # a form feed) stays part of the line's code, which is then no card
            on_line = [word for word in re.split("[ \t]+", line) if word]
            if len(on_line) > 1:
                raise DeckError(f"line {number} holds {len(on_line)} codes: a line holds one card code")
        else:
            on_line = line.split()  # (any whitespace, R2.1: the codes of text.split(), line by line)
        words += on_line
        lines_of += [number] * len(on_line)
    # A deck of one code a line names a code by its line; one of several lines, by its place and
    # its line; one written on a single line, by its place alone.
    with_lines = not one_per_line and bool(lines_of) and lines_of[0] != lines_of[-1]

    def place(position: int) -> str:
        """Where code ``position`` (counted from 1) is: "code 9 of the deck (line 2)", "line 9"."""
        if one_per_line:
            return f"line {lines_of[position - 1]}"
        return f"code {position} of the deck" + (f" (line {lines_of[position - 1]})" if with_lines else "")

    def places(positions: list[int]) -> str:
        """Where codes ``positions`` are: "codes 3 and 9 (lines 1 and 2)", or "lines 4 and 11"."""
        def listed(numbers: list[int]) -> str:
            return f"{', '.join(map(str, numbers[:-1]))} and {numbers[-1]}"
        on_lines = [lines_of[position - 1] for position in positions]
        if one_per_line:
            return f"lines {listed(on_lines)}"
        return f"codes {listed(positions)}" + (f" (lines {listed(on_lines)})" if with_lines else "")

    cards: list[Card] = []
    seen: dict[str, list[int]] = {}
    limit = deck.copies
    for position, token in enumerate(words, start=1):
        code = token.upper() if token.isascii() else ""  # (Unicode's upper case makes "ſ" an S)
        copies = deck.copies_of(code)
        if not copies:
            raise DeckError(f"{place(position)}, {quoted(token)}, is not a card ({deck.describe_code()})")
        where = seen.setdefault(code, [])
        if len(where) == len(copies):
            count = "" if len(words) == deck.size else f" (and the deck holds {len(words)} card codes, not {deck.size})"
            if limit == 1:
                raise DeckError(f"{code} appears twice, at {places([where[0], position])}: "
                                f"every card must appear exactly once{count}")
            times = "once" if len(copies) == 1 else "twice" if len(copies) == 2 else f"{len(copies)} times"
            raise DeckError(f"{code} appears {len(where) + 1} times, at {places(where + [position])}: "
                            f"the deck holds it {times}{count}")
        where.append(position)
        cards.append(copies[len(where) - 1])
    if len(cards) != deck.size:
        missing = [card.code for card in deck.cards
                   if len(seen.get(card.code, ())) <= card.copy]
        hint = f" (missing: {' '.join(missing[:8])}{' ...' if len(missing) > 8 else ''})" if missing else ""
        raise DeckError(f"the deck holds {len(cards)} card codes; it needs exactly {deck.size}{hint}")
    return cards


def decode_deck_bytes(data: bytes) -> str:
    """Bytes of an uploaded or stored deck file as text; a UTF-8 BOM is allowed."""
    if len(data) > MAX_DECK_FILE_BYTES:
        raise DeckError("the file is far too large to be a deck file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise DeckError("the file is not text (it is not UTF-8): a deck file holds card codes") from None


def format_deck(cards: list[Card], per_line: int = 10) -> str:
    """Deck text with ``per_line`` codes a line (one line a seat's first hand, say)."""
    lines = [" ".join(card.code for card in cards[i:i + per_line]) for i in range(0, len(cards), per_line)]
    return "\n".join(lines) + "\n"


def shuffled(deck: DeckSpec, rng: random.Random) -> list[Card]:
    """A fresh full deck in an order from ``rng``: randomness is always passed in."""
    cards = list(deck.cards)
    rng.shuffle(cards)
    return cards
