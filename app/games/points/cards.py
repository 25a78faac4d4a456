"""Points Rummy's decks and cards (P1), and which cards are jokers in a deal (P2.2).

Two players play with one 52-card deck and one printed joker, three to six with two decks and
two printed jokers (P1.1): two ``DeckSpec`` s, so a two-deck game's second ``QH`` is ``QH-2``.
Ranks run ``A 2 ... K`` (the ace's place in a sequence is the evaluator's business, P1.2).
"""

from __future__ import annotations

from collections.abc import Iterable

from app.core.cards import JOKER_CODE, Card, DeckSpec

RANKS = "A23456789TJQK"
SUITS = "CDHS"
# P1.3: A K Q J 10 points each, 2-9 and T their number, jokers 0.
POINTS = {"A": 10, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10,
          "J": 10, "Q": 10, "K": 10}
ACE_HIGH = len(RANKS)  # the ace's place above the king in Q K A (P1.2)

ONE_DECK = DeckSpec("points1", ranks=RANKS, suits=SUITS, points=POINTS, copies=1, jokers=1)
TWO_DECKS = DeckSpec("points2", ranks=RANKS, suits=SUITS, points=POINTS, copies=2, jokers=2)
DECKS = (ONE_DECK, TWO_DECKS)


def deck_for_seats(seats: int) -> DeckSpec:
    """P1.1: one deck and a joker for two players, two decks and two jokers for three to six."""
    return ONE_DECK if seats <= 2 else TWO_DECKS


def wild_rank_for(indicator: Card) -> str:
    """P2.2: the rank that is wild this deal; a printed joker turned up makes the aces wild."""
    return "A" if indicator.is_joker else indicator.rank


def is_joker(card: Card, wild_rank: str) -> bool:
    """P2.2: printed jokers always, and every card of the wild rank this deal."""
    return card.is_joker or card.rank == wild_rank


def card_points(card: Card, wild_rank: str) -> int:
    """P1.3: a card's points; a joker (printed or of the wild rank) counts 0."""
    return 0 if card.is_joker or card.rank == wild_rank else card.points


def hand_points(cards: Iterable[Card], wild_rank: str) -> int:
    return sum(card_points(card, wild_rank) for card in cards)


def codes_text(cards: Iterable[Card]) -> str:
    return " ".join(card.code for card in cards)


__all__ = ["ACE_HIGH", "DECKS", "JOKER_CODE", "ONE_DECK", "POINTS", "RANKS", "SUITS", "TWO_DECKS",
           "card_points", "codes_text", "deck_for_seats", "hand_points", "is_joker", "wild_rank_for"]
