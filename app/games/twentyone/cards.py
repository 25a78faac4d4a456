"""Cards and the deck of 21 (T1, T2, T3.6): the user's ``Card``, ``Deck`` and
``EmptyDeckException``, on top of the core cards of one 52-card ``DeckSpec``.

A ``Card`` here is a core card (rank, suit, value) plus which way up it lies: it shows as
``[ JD ]`` face up and ``[ xx ]`` face down (T1.3). The ``Deck`` is a queue, front first: cards
are dealt from the front and added at the rear (T2.1, T3.6).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable, Iterator

from app.core.cards import Card as CoreCard
from app.core.cards import standard_deck
from app.core.decks import DeckError, parse_deck

# T1.2: an ace is always 1, 2-9 their number, T J Q K 10 each.
VALUES = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
          "T": 10, "J": 10, "Q": 10, "K": 10}
DECK = standard_deck("twentyone", ace="low", points=VALUES)  # T1.1: A 2 ... K, suits C D H S
DECK_SIZE = DECK.size  # 52

INVALID_DECK_DATA = "Cannot populate deck: invalid data in {}"  # T2.2, FILE as the user typed it
EMPTY_DECK = "Cannot deal card from an empty deck."  # T3.6


class EmptyDeckException(Exception):
    """T3.6: a card must be dealt and there is none (the table never holds all 52, so play never
    raises it)."""

    def __init__(self) -> None:
        super().__init__(EMPTY_DECK)


class InvalidDeckData(DeckError):
    """T2.2: a deck file that does not hold the 52 cards once each, one code a line."""


class Card:
    """One card of the deck, face up or face down.

    ``Card("jd", True)`` reads a code in either letter case (T1.1); ``Card(core_card)`` wraps a
    card of ``DECK``. ``rank`` and ``suit`` are upper-case characters, ``value`` is T1.2's.
    Two cards are equal when they are the same card of the deck, whichever way up they lie.
    """

    __slots__ = ("_card", "_face_up")

    def __init__(self, code: str | CoreCard, face_up: bool = False):
        if isinstance(code, CoreCard):
            if code.deck is not DECK:
                raise ValueError(f"{code.id} is not a card of the 52-card deck of 21")
            self._card = code
        else:
            self._card = DECK.parse(code)  # InvalidCardError (a ValueError) says why
        if not isinstance(face_up, bool):
            raise TypeError("face_up is True or False")
        self._face_up = face_up

    @property
    def rank(self) -> str:
        return self._card.rank

    @property
    def suit(self) -> str:
        return self._card.suit

    @property
    def value(self) -> int:
        return self._card.points

    @property
    def code(self) -> str:
        return self._card.code

    @property
    def id(self) -> str:
        return self._card.id

    @property
    def core(self) -> CoreCard:
        """The core card (what the protocol's ``card_locations`` and ``hidden_from`` count)."""
        return self._card

    @property
    def face_up(self) -> bool:
        return self._face_up

    def turn_over(self) -> None:
        self._face_up = not self._face_up

    def __str__(self) -> str:
        return f"[ {self.code} ]" if self._face_up else "[ xx ]"  # T1.3

    def __repr__(self) -> str:
        return f"Card({self.code!r}, {self._face_up})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and other._card is self._card

    def __hash__(self) -> int:
        return hash(self._card)


def face(card: Card, up: bool) -> Card:
    """Lay ``card`` face up or face down (whichever way it lay), and return it."""
    if card.face_up != up:
        card.turn_over()
    return card


class Deck:
    """The deck: a queue of at most 52 cards, face down, the front dealt first.

    ``Deck(cards)`` holds ``cards`` front first (a stacked deck, or a shuffled one);
    ``Deck.shuffled(rng)`` the 52 cards in an order from ``rng`` (T2.4).
    """

    CAPACITY = DECK_SIZE

    def __init__(self, cards: Iterable[Card | CoreCard] = ()):
        self._cards: deque[Card] = deque(maxlen=self.CAPACITY)
        self._add(cards)

    @classmethod
    def shuffled(cls, rng: random.Random) -> Deck:
        cards = list(DECK.cards)
        rng.shuffle(cards)
        return cls(cards)

    def _add(self, cards: Iterable[Card | CoreCard]) -> None:
        added = [face(card if isinstance(card, Card) else Card(card), False) for card in cards]
        if len(self._cards) + len(added) > self.CAPACITY:
            # a full deque would silently drop cards from the front: refuse instead
            raise ValueError(f"a deck holds at most {self.CAPACITY} cards")
        seen = set(self._cards)
        for card in added:
            if card in seen:
                raise ValueError(f"{card.code} is in the deck already")
            seen.add(card)
        self._cards.extend(added)

    def deal(self) -> Card:
        """The front card, taken from the deck and turned face up (O(1))."""
        if not self._cards:
            raise EmptyDeckException()
        return face(self._cards.popleft(), True)

    def repopulate(self, card_list: Iterable[Card], rng: random.Random) -> None:
        """T3.6: add ``card_list`` at the rear, face down, in an order shuffled by ``rng`` (the
        game's own generator)."""
        cards = list(card_list)
        rng.shuffle(cards)
        self._add(cards)

    def __len__(self) -> int:
        return len(self._cards)

    def __iter__(self) -> Iterator[Card]:
        """The cards, front first."""
        return iter(self._cards)

    def __str__(self) -> str:
        """Every card face up, the front one first: ``front [ 9S ][ AD ] ... [ KC ] rear``."""
        if not self._cards:
            return "front (empty deck) rear"
        return "front " + "".join(f"[ {card.code} ]" for card in self._cards) + " rear"

    def __repr__(self) -> str:
        return f"Deck({len(self._cards)} cards)"


def parse_deck_file(text: str, file_name: str) -> list[CoreCard]:
    """T2.1/T2.2 for the terminal game: the 52 cards of a deck file, front first, or
    ``InvalidDeckData`` with exactly ``Cannot populate deck: invalid data in FILE``. (The web's
    upload asks ``parse_deck`` for its precise messages instead.)"""
    try:
        return parse_deck(text, DECK, one_per_line=True)
    except DeckError:
        raise InvalidDeckData(INVALID_DECK_DATA.format(file_name)) from None
