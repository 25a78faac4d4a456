"""Mason Rummy's 65 cards (R1): the core's cards of a five-suit deck, values ``2-9 T J Q K A``
(aces high, no ``1``), the fifth suit the green Patriots.

A card is written as two characters, value then suit (``TP`` is the ten of Patriots). Every card
is made once (``DECK``), so ``parse_card("tp") is parse_card("TP")``: equality is identity,
which keeps the engine fast. ``card.rank`` is the value's character, ``card.order`` its place
from low to high (0 for ``2``, 12 for ``A``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from app.core.cards import SORT_KEY, Card as CoreCard, DeckSpec, InvalidCardError, codes, points_of

VALUES = "23456789TJQKA"  # R1.1: low to high, aces high, no "1"
SUITS = "CDHSP"  # R1.2: Clubs, Diamonds, Hearts, Spades, Patriots
SUIT_NAMES = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades", "P": "Patriots"}
SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660", "P": "\u2605"}
POINTS = {value: 15 if value == "A" else 10 if value in "TJQK" else int(value) for value in VALUES}  # R1.5


class Card(CoreCard):
    """A Mason Rummy card, with the behaviours the original assignment names."""

    __slots__ = ()

    def __new__(cls, value: str, suit: str) -> Card:
        """The one card of this value and suit, either letter case (R1.3): cards are made once."""
        return parse_card(f"{value}{suit}")

    @staticmethod
    def parse(text: str) -> Card:
        """Read a card code in either letter case (R1.3)."""
        return parse_card(text)

    @property
    def value(self) -> str:
        """The value's character (R1.1): the assignment's name for a card's rank."""
        return self.rank

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self.suit]

    def card_point_value(self) -> int:
        """R1.5: 2-9 their number, T J Q K 10 each, A 15."""
        return self.points

    def extends_run(self, run: Iterable[Card]) -> bool:
        """True if this card, added at either end, makes ``run`` a longer run (R6.3 step 2).

        ``run`` must already be a run (same suit, consecutive); aces are high only (R1.1).
        """
        cards = list(run)
        if not cards or cards[0].suit != self.suit:
            return False
        low = min(card.order for card in cards)
        high = max(card.order for card in cards)
        return self.order == low - 1 or self.order == high + 1


DECK = DeckSpec("mason", ranks=VALUES, suits=SUITS, points=POINTS, rank_word="value",
                suit_names=SUIT_NAMES, suit_symbols=SUIT_SYMBOLS, example="TP", card_class=Card)

# (The deck makes every card of its card_class: Mason Rummy's Card, whatever the core's types say.)
FULL_DECK = cast(tuple[Card, ...], DECK.cards)  # R1.4: suit by suit, values low to high
# Lookup tables for the engine's hot paths: BY_SUIT_RANK[suit_index][order], BY_RANK[order].
BY_SUIT_RANK: tuple[tuple[Card, ...], ...] = tuple(
    tuple(card for card in FULL_DECK if card.suit == s) for s in SUITS)
BY_RANK: tuple[tuple[Card, ...], ...] = tuple(
    tuple(card for s in SUITS for card in FULL_DECK if card.suit == s and card.rank == v) for v in VALUES)


def parse_card(text: str) -> Card:
    """Read a card code in either letter case (R1.3); ``InvalidCardError`` says why not."""
    if not isinstance(text, str) or len(text) != 2:
        raise InvalidCardError(f"{text!r} is not a card: a card is 2 characters, value then suit")
    return cast(Card, DECK.parse(text))


def full_deck() -> list[Card]:
    """A fresh list of the 65 distinct cards, in a fixed order (suit, then value)."""
    return list(FULL_DECK)


def parse_cards(codes: Iterable[str]) -> list[Card]:
    return [parse_card(code) for code in codes]


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """R9.2 order: suit C D H S P, then value."""
    return sorted(cards, key=SORT_KEY)


__all__ = ["BY_RANK", "BY_SUIT_RANK", "DECK", "FULL_DECK", "POINTS", "SORT_KEY", "SUITS", "SUIT_NAMES",
           "SUIT_SYMBOLS", "VALUES", "Card", "InvalidCardError", "codes", "full_deck", "parse_card", "parse_cards",
           "points_of", "sort_cards"]
