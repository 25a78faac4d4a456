"""Every way a text or a view's plain data may write a card, read from the card's deck
(``app.core.cards``), so a privacy check finds a hidden card however it is spelled:

- its id (``QH-2``) or its code (``QH``), alone or inside a longer string, between any characters
  that are not letters or digits ("QH 7S", "QH,7S", "[ QH ]"), or codes run together ("QH7S2C");
- its rank and suit in words or symbols: "queen of hearts", "Q of Hearts", "10 of hearts",
  "ten of hearts", "Q♥", "10♥", "T♥", "♥Q" (each deck's suit names and symbols: Mason Rummy's
  fifth suit is the Patriots, ★); ten written "10" too, as the web shows it;
- its rank and suit as two fields of one dict (``{"rank": "Q", "suit": "H"}``, in any words the
  deck knows), found by the values, whatever the keys are called.

A bare number ("2 cards", "Round 7") or a rank alone ("the sevens are wild") names no card, and
neither does an upper-case letter pair that is not a code of the deck; codes are upper case only,
so English words ("as", "ks") are no cards. Ranks count as numbers only in strings: a hidden
card's rank as an int is for the invariance check (``game_checks.check_swaps``) to find.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache, lru_cache
from typing import Any

from app.core.cards import JOKER_CODE, RANK_NAMES, DeckSpec

# How a rank may be shown besides its character (the web writes ten as "10").
RANK_SHOWN = {"T": ("10",)}
VARIATION_SELECTOR = "\ufe0f"  # an emoji-style suit symbol: "♥️"
WORD = re.compile(r"[A-Za-z0-9]{4,}")  # letters and digits that may be codes run together

Mention = tuple[str, int | None]
"""A card a string names: its code, and which copy (1, 2...) if the string says (``QH-2``)."""


def _alternatives(words: Iterable[str]) -> str:
    """A regular expression matching any of ``words``, the longest first."""
    return "|".join(re.escape(word) for word in sorted(set(words), key=lambda word: (-len(word), word)))


def _singular(name: str) -> str:
    return name[:-1] if name.endswith("s") else name


class Spellings:
    """The spellings of one deck's cards (see the module's docstring)."""

    def __init__(self, deck: DeckSpec):
        self.deck = deck
        self.codes = deck.codes
        # rank and suit spellings -> their characters (words in lower case)
        self.rank_chars: dict[str, str] = {}
        self.rank_words: dict[str, str] = {}
        for rank in deck.ranks:
            for shown in (rank, *RANK_SHOWN.get(rank, ())):
                self.rank_chars[shown] = rank
            if rank in RANK_NAMES:
                self.rank_words[RANK_NAMES[rank]] = rank
        self.suit_chars = {suit: suit for suit in deck.suits}
        self.suit_words: dict[str, str] = {}
        self.suit_symbols: dict[str, str] = {}
        for suit in deck.suits:
            name = deck.suit_names.get(suit, "").lower()
            if name:
                self.suit_words[name] = suit
                self.suit_words[_singular(name)] = suit
            if suit in deck.suit_symbols:
                self.suit_symbols[deck.suit_symbols[suit]] = suit
        # A whole string that spells a rank or a suit (words in the usual letter cases), for the
        # look-ups of ``in_fields``, which reads every dict of every view.
        self.parts: dict[str, tuple[str, str]] = {}
        for kind, exact, words in (("rank", self.rank_chars, self.rank_words),
                                   ("suit", {**self.suit_chars, **self.suit_symbols}, self.suit_words)):
            for word, char in words.items():
                for written in (word, word.title(), word.upper()):
                    self.parts[written] = (kind, char)
            for written, char in exact.items():
                self.parts[written] = (kind, char)
                self.parts[written + VARIATION_SELECTOR] = (kind, char)
        chars = _alternatives(self.rank_chars)
        suits = _alternatives(self.suit_chars)
        code = f"(?:{chars})(?:{suits})" + (f"|{JOKER_CODE}" if deck.jokers else "")
        ranks = f"(?i:{_alternatives(self.rank_words)})|{chars}" if self.rank_words else chars
        symbols = _alternatives(self.suit_symbols) or "(?!)"
        edge, end = "(?<![A-Za-z0-9])", "(?![A-Za-z0-9])"
        self.pattern = re.compile(
            f"{edge}(?P<code>{code})(?:-(?P<copy>[0-9]+))?{end}"
            f"|{edge}(?P<wrank>{ranks})(?i:\\s+of\\s+)(?P<wsuit>(?i:{_alternatives(self.suit_words)})){end}"
            f"|{edge}(?P<yrank>{chars})\\s?(?P<ysuit>{symbols})"
            f"|(?P<zsuit>{symbols}){VARIATION_SELECTOR}?\\s?(?P<zrank>{chars}){end}")
        # codes run together with nothing between them: "QH7S2C"
        self.run = re.compile(f"(?:{code})+")
        self.run_code = re.compile(f"(?P<code>{code})")

    def rank_of(self, text: str) -> str | None:
        """The rank a whole string spells ("Q", "10", "queen"), or None."""
        text = text.strip()
        return self.rank_chars.get(text) or self.rank_words.get(text.lower())

    def suit_of(self, text: str) -> str | None:
        """The suit a whole string spells ("H", "hearts", "Heart", "♥"), or None."""
        text = text.strip().rstrip(VARIATION_SELECTOR)
        return self.suit_chars.get(text) or self.suit_symbols.get(text) or self.suit_words.get(text.lower())

    def card(self, rank: str, suit: str) -> str | None:
        code = rank + suit
        return code if code in self.codes else None

    def in_text(self, text: str) -> frozenset[Mention]:
        return _mentions(self, text)

    def in_fields(self, fields: dict[Any, Any]) -> set[Mention]:
        """The cards a dict's string values spell as a rank in one field and a suit in another."""
        ranks, suits = set(), set()
        parts = self.parts
        for value in fields.values():
            part = parts.get(value) if isinstance(value, str) else None
            if part is not None:
                (ranks if part[0] == "rank" else suits).add(part[1])
        if not ranks or not suits:
            return set()
        return {(code, None) for rank in ranks for suit in suits if (code := self.card(rank, suit))}

    def _read(self, match: re.Match[str]) -> Mention | None:
        groups = match.groupdict()
        if groups["code"]:
            code = groups["code"]
            if code[:2] == "10":
                code = self.card("T", code[2:]) or code
            copy = groups.get("copy")
            return code, int(copy) if copy else None
        if groups.get("wrank"):
            rank = self.rank_of(groups["wrank"])
            suit = self.suit_of(groups["wsuit"])
        elif groups.get("yrank"):
            rank, suit = self.rank_of(groups["yrank"]), self.suit_of(groups["ysuit"])
        else:
            rank, suit = self.rank_of(groups["zrank"]), self.suit_of(groups["zsuit"])
        code = self.card(rank, suit) if rank and suit else None
        return (code, None) if code else None


@lru_cache(maxsize=200_000)
def _mentions(spellings: Spellings, text: str) -> frozenset[Mention]:
    """Every card ``text`` names (the log's lines come back step after step: read once)."""
    found = {mention for match in spellings.pattern.finditer(text) if (mention := spellings._read(match))}
    for word in WORD.findall(text):
        if spellings.run.fullmatch(word):
            found |= {mention for match in spellings.run_code.finditer(word) if (mention := spellings._read(match))}
    return frozenset(found)


@cache
def spellings_of(deck: DeckSpec) -> Spellings:
    return Spellings(deck)
