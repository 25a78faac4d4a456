"""The 52 cards of Classic Rummy (C1), numbered so that a hand is one integer.

Card number ``n`` is ``suit * 13 + rank`` (suits ``C D H S``, ranks ``A 2 ... K`` from 0, the ace
low only, C1.1). Bit ``n`` of an integer then stands for that card, and the bits in increasing
order are the hand order of C8.3 (by suit ``C D H S``, then rank). The rules and the computer
player work on these numbers and masks; ``CARDS[n]`` is the shared core's ``Card`` a player
reads, and ``NUMBER[card]`` its number.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from app.core.cards import RANK_NAMES, Card, standard_deck

# C1.2: A 1, 2-9 their number, T J Q K 10.
POINTS = {"A": 1, **{str(n): n for n in range(2, 10)}, "T": 10, "J": 10, "Q": 10, "K": 10}
DECK = standard_deck("rummy", ace="low", points=POINTS)  # C1.1: one 52-card deck, no jokers, ace low

RANKS = 13
SUITS = 4
SUIT_BITS = (1 << RANKS) - 1  # one suit's 13 ranks, as the low bits of an integer
ALL = (1 << 52) - 1

CARDS: tuple[Card, ...] = DECK.cards  # DeckSpec makes them suit by suit, rank by rank
NUMBER: dict[Card, int] = {card: number for number, card in enumerate(CARDS)}
assert all(card.suit_index * RANKS + card.order == number for card, number in NUMBER.items())

BIT = tuple(1 << number for number in range(52))
RANK_OF = tuple(number % RANKS for number in range(52))
SUIT_OF = tuple(number // RANKS for number in range(52))
POINTS_OF = tuple(card.points for card in CARDS)
CODE_OF = tuple(card.code for card in CARDS)
RANK_MASK = tuple(sum(1 << (suit * RANKS + rank) for suit in range(SUITS)) for rank in range(RANKS))
SUIT_MASK = tuple(SUIT_BITS << (suit * RANKS) for suit in range(SUITS))
SUIT_WORDS = ("club", "diamond", "heart", "spade")
RANK_WORDS = tuple(RANK_NAMES[rank] for rank in DECK.ranks)  # "ace", "two", ... "king"
RANK_PLURALS = tuple("sixes" if word == "six" else word + "s" for word in RANK_WORDS)
# Points of each possible holding of one suit, so a hand's points are four look-ups.
_SUIT_POINTS = [0] * (1 << RANKS)
for _holding in range(1, 1 << RANKS):
    _low = _holding & -_holding
    _SUIT_POINTS[_holding] = _SUIT_POINTS[_holding ^ _low] + POINTS_OF[_low.bit_length() - 1]
SUIT_POINTS = tuple(_SUIT_POINTS)
del _holding, _low, _SUIT_POINTS


def numbers(mask: int) -> Iterator[int]:
    """The card numbers of a mask, in hand order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for number in cards:
        mask |= BIT[number]
    return mask


def points(mask: int) -> int:
    """C1.2: the points of the cards of a mask."""
    return (SUIT_POINTS[mask & SUIT_BITS] + SUIT_POINTS[(mask >> 13) & SUIT_BITS]
            + SUIT_POINTS[(mask >> 26) & SUIT_BITS] + SUIT_POINTS[mask >> 39])


def cards_of(mask: int) -> list[Card]:
    """The cards of a mask, in hand order (C8.3)."""
    return [CARDS[number] for number in numbers(mask)]


def ids_of(mask: int) -> list[str]:
    return [CARDS[number].id for number in numbers(mask)]


def codes_of(mask: int) -> str:
    """``"5S 6S 7S"``: the codes of a mask in hand order, for messages."""
    return " ".join(CODE_OF[number] for number in numbers(mask))


def parse_card(text: str) -> int:
    """The number of the card a code or id names (either letter case); ``InvalidCardError``."""
    return NUMBER[DECK.parse(text)]
