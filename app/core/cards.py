"""Cards of any deck, and the description of a deck.

A ``DeckSpec`` says what a game's deck holds: the ranks (low to high, in the game's order), the
suits, how many copies of each card (two decks shuffled together make two copies), how many
printed jokers, and each rank's points. It makes every card of that deck once, so within one
deck a card is always the same object: equality is identity and cards hash fast (the engines
make millions of comparisons). Cards of two different decks are different objects, even when
they are written alike (Mason Rummy's ``TS`` is not Classic Rummy's ``TS``).

A card is written by its *code*, two characters, rank then suit (``TH``), or ``JK`` for a printed
joker. When a deck holds two copies of a card, the second one's *id* is its code with ``-2``
(``QH-2``); the first copy's id is its code. Codes are what players read; ids tell the copies
apart in forms, actions and saved games.
"""

from __future__ import annotations

from operator import attrgetter
from collections.abc import Callable, Iterable, Mapping

JOKER_CODE = "JK"

STANDARD_SUIT_NAMES = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}
STANDARD_SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
RANK_NAMES = {
    "A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
    "8": "eight", "9": "nine", "T": "ten", "J": "jack", "Q": "queen", "K": "king",
}


class InvalidCardError(ValueError):
    """A text that is not a card of the deck in question; the message says why."""


class Card:
    """One card of one deck. Made only by ``DeckSpec``; read cards with ``DeckSpec.parse``.

    ``rank`` and ``suit`` are the characters of the code (both ``""`` for a printed joker);
    ``order`` is the rank's place in the deck's rank order (0 for
    the lowest) and ``suit_index`` the suit's place; ``sort_key`` orders a hand by suit, then
    rank, jokers last; ``copy`` is 0 for the first copy, 1 for the second.
    """

    __slots__ = ("code", "id", "rank", "suit", "copy", "is_joker", "order", "suit_index", "sort_key",
                 "points", "label", "deck")

    code: str
    id: str
    rank: str
    suit: str
    copy: int
    is_joker: bool
    order: int
    suit_index: int
    sort_key: int
    points: int
    label: str
    deck: DeckSpec

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.id})"

    def __reduce__(self) -> tuple[Callable[[str, str], Card], tuple[str, str]]:
        return (_card_by_id, (self.deck.key, self.id))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self


_DECKS: dict[str, DeckSpec] = {}


def _card_by_id(deck_key: str, card_id: str) -> Card:
    return _DECKS[deck_key].parse(card_id)


def deck_by_key(key: str) -> DeckSpec:
    """The deck made under ``key`` (``KeyError`` if none)."""
    return _DECKS[key]


def quoted(text: str, longest: int = 12) -> str:
    """``text`` as a message quotes what a player typed or a file held: in single quotes, cut
    after ``longest`` characters (then "..."), what cannot be printed written as an escape."""
    shown = text[:longest]
    if not shown.isprintable():
        shown = shown.encode("unicode_escape").decode("ascii")
    return f"'{shown}{'...' if len(text) > longest else ''}'"


class DeckSpec:
    """What a game's deck holds, and its cards, each made once.

    ``ranks``: rank characters low to high in the game's order; ``suits``: suit characters in
    hand order; ``copies``: copies of every card; ``jokers``: printed jokers in all; ``points``:
    points per rank character (a joker scores ``joker_points``). ``rank_word`` is what the rule
    book calls a rank (Mason Rummy says "value"), used in messages. ``card_class``: a subclass of
    ``Card`` (with ``__slots__ = ()``) that gives a game's cards the behaviours its rule book
    names.
    """

    def __init__(self, key: str, *, ranks: str, suits: str, points: Mapping[str, int], copies: int = 1,
                 jokers: int = 0, joker_points: int = 0, rank_word: str = "rank",
                 suit_names: Mapping[str, str] = STANDARD_SUIT_NAMES,
                 suit_symbols: Mapping[str, str] = STANDARD_SUIT_SYMBOLS, example: str = "TH",
                 card_class: type[Card] = Card):
        if key in _DECKS:
            raise ValueError(f"a deck called {key!r} exists already")
        self.key = key
        self.ranks = ranks
        self.suits = suits
        self.copies = copies
        self.jokers = jokers
        self.rank_word = rank_word
        self.suit_names = dict(suit_names)
        self.suit_symbols = dict(suit_symbols)
        self.example = example
        self.points = dict(points)
        self.card_class = card_class
        cards: list[Card] = []
        self._by_id: dict[str, Card] = {}
        self._copies: dict[str, tuple[Card, ...]] = {}
        for copy in range(copies):
            for suit_index, suit in enumerate(suits):
                for order, rank in enumerate(ranks):
                    cards.append(self._make(rank + suit, rank, suit, copy, False, order, suit_index,
                                            self.points[rank]))
        for copy in range(jokers):
            cards.append(self._make(JOKER_CODE, "", "", copy, True, -1, len(suits), joker_points))
        self.cards: tuple[Card, ...] = tuple(cards)
        for card in cards:
            self._copies[card.code] = self._copies.get(card.code, ()) + (card,)
        self.size = len(cards)
        self.codes = frozenset(self._copies)
        _DECKS[key] = self

    def _make(self, code: str, rank: str, suit: str, copy: int, is_joker: bool, order: int, suit_index: int,
              points: int) -> Card:
        card = object.__new__(self.card_class)
        card.code = code
        card.id = code if copy == 0 else f"{code}-{copy + 1}"
        card.rank = rank
        card.suit = suit
        card.copy = copy
        card.is_joker = is_joker
        card.order = order
        card.suit_index = suit_index
        # hand order: by suit, then rank; jokers after every suit; copies side by side
        card.sort_key = (suit_index * (len(self.ranks) + 1) + order + 1) * self.copies + copy
        card.points = points
        if is_joker:
            card.label = f"{JOKER_CODE} (joker)"
        else:
            card.label = f"{code} ({RANK_NAMES.get(rank, rank)} of {self.suit_names.get(suit, suit)})"
        card.deck = self
        self._by_id[card.id] = card
        return card

    # -- reading cards ----------------------------------------------------------------------------

    def parse(self, text: str) -> Card:
        """The card a code or id names, either letter case (``th``, ``QH-2``); the first copy
        for a bare code. Raises ``InvalidCardError`` with a message for players."""
        if not isinstance(text, str):
            raise InvalidCardError(f"{text!r} is not a card")
        # (ASCII only: Unicode's upper case makes a long s "ſ" an S)
        card = self._by_id.get(text.upper()) if text.isascii() else None
        if card is None:
            raise InvalidCardError(self.not_a_card(text))
        return card

    def copies_of(self, code: str) -> tuple[Card, ...]:
        """Every copy of the card ``code`` names (upper case), first copy first; () if none."""
        return self._copies.get(code, ())

    def not_a_card(self, text: str) -> str:
        # No example card here: a refusal shown at a table must not name a card at random.
        return f"{quoted(text)} is not a card: {self.describe_code(example=False)}"

    def describe_code(self, example: bool = True) -> str:
        """How a card is written, for messages: "a card is a value 2-9 T J Q K A followed by a
        suit C D H S P, such as TP"."""
        numbers = [rank for rank in self.ranks if rank.isdigit()]
        letters = [rank for rank in self.ranks if not rank.isdigit()]
        if numbers and "".join(numbers) in "23456789":
            low = [rank for rank in letters if self.ranks.index(rank) < self.ranks.index(numbers[0])]
            high = [rank for rank in letters if rank not in low]
            parts = low + [f"{numbers[0]}-{numbers[-1]}"] + high
        else:
            parts = list(self.ranks)
        joker = f", or {JOKER_CODE} for a joker" if self.jokers else ""
        such_as = f", such as {self.example}" if example else ""
        return (f"a card is a {self.rank_word} {' '.join(parts)} followed by a suit "
                f"{' '.join(self.suits)}{such_as}{joker}")

    def sort(self, cards: Iterable[Card]) -> list[Card]:
        """Hand order: by suit (the deck's suit order), then rank; jokers last."""
        return sorted(cards, key=SORT_KEY)

    def __repr__(self) -> str:
        return f"DeckSpec({self.key}: {self.size} cards)"


SORT_KEY = attrgetter("sort_key")


def ids(cards: Iterable[Card]) -> list[str]:
    return [card.id for card in cards]


def codes(cards: Iterable[Card]) -> list[str]:
    return [card.code for card in cards]


def points_of(cards: Iterable[Card]) -> int:
    return sum(card.points for card in cards)


def standard_deck(key: str, *, ace: str, points: Mapping[str, int], copies: int = 1, jokers: int = 0,
                  joker_points: int = 0) -> DeckSpec:
    """A deck of the four standard suits ``C D H S``; ``ace`` is ``"low"`` (``A 2 ... K``) or
    ``"high"`` (``2 ... K A``)."""
    ranks = "A23456789TJQK" if ace == "low" else "23456789TJQKA"
    return DeckSpec(key, ranks=ranks, suits="CDHS", points=points, copies=copies, jokers=jokers,
                    joker_points=joker_points)
