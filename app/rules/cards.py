"""Cards and the 65-card deck (R1).

A card is written as two characters, value then suit (``TP`` is the ten of Patriots).
There are exactly 65 cards, so every ``Card`` is interned: ``Card.parse("tp") is Card.parse("TP")``.
That makes equality an identity check and keeps the engine fast.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Iterable

VALUES = "23456789TJQKA"  # R1.1: low to high, aces high, no "1"
SUITS = "CDHSP"  # R1.2: Clubs, Diamonds, Hearts, Spades, Patriots

VALUE_NAMES = {
    "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
    "8": "eight", "9": "nine", "T": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace",
}
SUIT_NAMES = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades", "P": "Patriots"}
SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660", "P": "\u2605"}


class InvalidCardError(ValueError):
    """A text that is not one of the 65 card codes (R1.3)."""


class Card:
    """One of the 65 cards. Build it with ``Card.parse`` or ``Card(value, suit)``."""

    __slots__ = ("value", "suit", "code", "rank", "suit_index", "sort_key", "points")
    _interned: dict[str, "Card"] = {}

    value: str
    suit: str
    code: str
    rank: int
    suit_index: int
    sort_key: int
    points: int

    def __new__(cls, value: str, suit: str) -> "Card":
        code = f"{value}{suit}".upper()
        card = cls._interned.get(code)
        if card is None:
            if len(code) != 2 or code[0] not in VALUES or code[1] not in SUITS:
                raise InvalidCardError(f"{value}{suit} is not a card")
            card = object.__new__(cls)
            cls._interned[code] = card
        return card

    def __init__(self, value: str, suit: str) -> None:
        # Cards are interned by __new__, so this sets the same values on the one instance.
        value, suit = value.upper(), suit.upper()
        self.value = value
        self.suit = suit
        self.code = value + suit
        self.rank = VALUES.index(value)
        self.suit_index = SUITS.index(suit)
        # R9.2: hands are shown sorted by suit (C D H S P), then value.
        self.sort_key = self.suit_index * len(VALUES) + self.rank
        self.points = _points(value)

    @classmethod
    def parse(cls, text: str) -> "Card":
        """Read a card code in either letter case (R1.3)."""
        if not isinstance(text, str) or len(text) != 2:
            raise InvalidCardError(f"{text!r} is not a card: a card is 2 characters, value then suit")
        card = cls._interned.get(text.upper())
        if card is None:
            raise InvalidCardError(
                f"{text!r} is not a card: values are {' '.join(VALUES)}, suits are {' '.join(SUITS)}"
            )
        return card

    def card_point_value(self) -> int:
        """R1.5: 2-9 their number, T J Q K 10 each, A 15."""
        return self.points

    def extends_run(self, run: "Iterable[Card]") -> bool:
        """True if this card, added at either end, makes ``run`` a longer run (R6.3 step 2).

        ``run`` must already be a run (same suit, consecutive); aces are high only (R1.1).
        """
        cards = list(run)
        if not cards or cards[0].suit != self.suit:
            return False
        low = min(card.rank for card in cards)
        high = max(card.rank for card in cards)
        return self.rank == low - 1 or self.rank == high + 1

    @property
    def label(self) -> str:
        """The long form shown beside the code, never instead of it: ``TP (ten of Patriots)``."""
        return f"{self.code} ({VALUE_NAMES[self.value]} of {SUIT_NAMES[self.suit]})"

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"

    def __reduce__(self):
        return (Card.parse, (self.code,))

    def __copy__(self) -> "Card":
        return self

    def __deepcopy__(self, memo) -> "Card":
        return self


def _points(value: str) -> int:
    if value == "A":
        return 15
    if value in "TJQK":
        return 10
    return int(value)


for _suit in SUITS:
    for _value in VALUES:
        Card(_value, _suit)

FULL_DECK: tuple[Card, ...] = tuple(Card.parse(v + s) for s in SUITS for v in VALUES)  # R1.4
# Lookup tables for the engine's hot paths: BY_SUIT_RANK[suit_index][rank], BY_RANK[rank].
BY_SUIT_RANK: tuple[tuple[Card, ...], ...] = tuple(
    tuple(Card.parse(v + s) for v in VALUES) for s in SUITS)
BY_RANK: tuple[tuple[Card, ...], ...] = tuple(
    tuple(Card.parse(v + s) for s in SUITS) for v in VALUES)


def full_deck() -> list[Card]:
    """A fresh list of the 65 distinct cards, in a fixed order (suit, then value)."""
    return list(FULL_DECK)


def parse_cards(codes: Iterable[str]) -> list[Card]:
    return [Card.parse(code) for code in codes]


def codes(cards: Iterable[Card]) -> list[str]:
    return [card.code for card in cards]


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """R9.2 order: suit C D H S P, then value."""
    return sorted(cards, key=_sort_key)


_sort_key = attrgetter("sort_key")


def points_of(cards: Iterable[Card]) -> int:
    return sum(card.points for card in cards)
