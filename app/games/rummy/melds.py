"""Melds (C3.2): the one judge of a new meld and of a lay-off, and the melds on the table.

A *set* is 3 or 4 cards of one rank; a *run* is 3 or more cards of one suit in consecutive ranks,
the ace low only (C1.1: ``A 2 3`` is a run, ``Q K A`` and ``K A 2`` are not). A meld on the table
only grows, by lay-offs at a run's ends or with the missing suits of a set, and is never
rearranged. The judges return ``None`` for yes, or the reason for no in words a player reads.
"""

from __future__ import annotations

from typing import Any

from app.core.protocol import Said, filled, said

from .cards import BIT, CODE_OF, RANK_MASK, RANK_OF, RANKS, SUIT_MASK, SUIT_OF, codes_of, numbers

# The words a reason names a rank or a suit by (``cards.RANK_WORDS``, ``RANK_PLURALS``, ``SUIT_WORDS``),
# as the catalogue holds them.
RANK_SAID = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king")
RANKS_SAID = ("aces", "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens", "jacks",
              "queens", "kings")
SUIT_SAID = ("club", "diamond", "heart", "spade")

SET = "set"
RUN = "run"
KINDS = (SET, RUN)
MIN_MELD = 3
ACE, KING = 0, RANKS - 1


def meld_kind(mask: int) -> str | None:
    """``SET`` or ``RUN`` if the cards of ``mask`` form a meld, else None."""
    if mask.bit_count() < MIN_MELD:
        return None
    low = (mask & -mask).bit_length() - 1
    if mask & RANK_MASK[RANK_OF[low]] == mask:
        return SET  # one rank: at most 4 cards, one deck
    suit = SUIT_OF[low]
    if mask & SUIT_MASK[suit] == mask:
        holding = mask >> (suit * RANKS)
        holding >>= (holding & -holding).bit_length() - 1
        if holding & (holding + 1) == 0:  # the bits are one unbroken stretch
            return RUN
    return None


def holds_meld(hand: int) -> bool:
    """Does ``hand`` hold at least one meld (3 cards of a rank, or 3 in a row of a suit)?"""
    in_a_row = hand & (hand >> 1) & (hand >> 2) & RUN_STARTS
    if in_a_row:
        return True
    return any((hand & mask).bit_count() >= MIN_MELD for mask in RANK_MASK)


# The cards that can start a run of three: ranks A to J of each suit (a run does not wrap, C1.1).
RUN_STARTS = sum(((1 << (RANKS - 2)) - 1) << (suit * RANKS) for suit in range(4))


def why_not_a_meld(mask: int) -> str:
    """The reason the cards of ``mask`` (not a meld) are refused as a new meld."""
    return filled(meld_refusal(mask))


def meld_refusal(mask: int) -> Said:
    """``why_not_a_meld`` as a ``said`` text (the cards by their codes, as the terminal shows them)."""
    shown = codes_of(mask)
    count = mask.bit_count()
    if count < MIN_MELD:
        return said(("{codes}: one card cannot make a meld: a meld is 3 or more cards, a set of one rank or a run of "
                     "one suit",
                     "{codes}: {count} cards cannot make a meld: a meld is 3 or more cards, a set of one rank or a "
                     "run of one suit"), codes=shown, count=count)
    cards = list(numbers(mask))
    suits = {SUIT_OF[n] for n in cards}
    ranks = [RANK_OF[n] for n in cards]
    if len(suits) > 1:
        suit_counts = [sum(1 for n in cards if SUIT_OF[n] == suit) for suit in range(4)]
        if len(set(ranks)) == len(ranks) and max(suit_counts) > 1:
            main = suit_counts.index(max(suit_counts))  # the suit most of the cards have
            like = next(n for n in cards if SUIT_OF[n] == main)
            other = next(n for n in cards if SUIT_OF[n] != main)
            return said("{codes} is not a run: a run is one suit, and {code} is not a {suit} like {like}; nor a set: "
                        "a set is one rank", codes=shown, code=CODE_OF[other], suit=said(SUIT_SAID[main]),
                        like=CODE_OF[like])
        return said("{codes} is neither a set (cards of one rank) nor a run (one suit, consecutive ranks)", codes=shown)
    # one suit, ranks not consecutive (numbers() gives them in rank order)
    if ranks[0] == ACE and ranks[-1] == KING:
        return said("{codes} is not a run: the ace is low only, so A 2 3 is a run but Q K A and K A 2 are not",
                    codes=shown)
    for lower, higher in zip(cards, cards[1:]):
        if RANK_OF[higher] != RANK_OF[lower] + 1:
            return said("{code} does not follow {lower}: a run needs consecutive ranks", code=CODE_OF[higher],
                        lower=CODE_OF[lower])
    raise AssertionError(f"{shown} is a meld")  # pragma: no cover


class Meld:
    """A meld on the table: its ``owner`` (the seat that laid it down), ``kind`` and cards (a
    mask); ``fits`` is the mask of the cards that could be laid off on it."""

    __slots__ = ("owner", "kind", "mask", "fits")

    def __init__(self, owner: int, kind: str, mask: int):
        self.owner = owner
        self.kind = kind
        self.mask = mask
        self.fits = fitting(kind, mask)

    def lay_off(self, card: int) -> None:
        self.mask |= BIT[card]
        self.fits = fitting(self.kind, self.mask)

    def __repr__(self) -> str:
        return f"Meld({self.kind} {codes_of(self.mask)}, seat {self.owner})"


def fitting(kind: str, mask: int) -> int:
    """The cards that would go on a meld: the missing suits of a set's rank, or the next card of
    a run's suit at either end (none below an ace or above a king: C1.1)."""
    if kind == SET:
        low = (mask & -mask).bit_length() - 1
        return RANK_MASK[RANK_OF[low]] & ~mask
    low = (mask & -mask).bit_length() - 1
    high = mask.bit_length() - 1
    fits = 0
    if RANK_OF[low] != ACE:
        fits |= BIT[low - 1]
    if RANK_OF[high] != KING:
        fits |= BIT[high + 1]
    return fits


def fitting_any(melds: list[Meld]) -> int:
    """Every card that would lay off on one of ``melds``."""
    fits = 0
    for meld in melds:
        fits |= meld.fits
    return fits


def why_it_does_not_fit(card: int, meld: Meld, number: int, owner_label: str) -> str:
    """The reason ``card`` cannot be laid off on ``meld`` (numbered ``number`` on the table)."""
    return filled(lay_off_refusal(card, meld, number, owner_label))


def lay_off_refusal(card: int, meld: Meld, number: int, owner_label: str) -> Said:
    """``why_it_does_not_fit`` as a ``said`` text (the cards by their codes)."""
    which = said("meld {meld} ({codes}, {owner}'s set)" if meld.kind == SET else "meld {meld} ({codes}, {owner}'s run)",
                 meld=number, codes=codes_of(meld.mask), owner=owner_label)
    code = CODE_OF[card]
    if meld.kind == SET:
        rank = RANK_OF[(meld.mask & -meld.mask).bit_length() - 1]
        if not meld.fits:
            return said("{code} does not fit {which}: it is complete, a set has at most 4 cards", code=code,
                        which=which)
        return said("{code} does not fit {which}: a set of {ranks} takes only another {rank} ({fits})", code=code,
                    which=which, ranks=said(RANKS_SAID[rank]), rank=said(RANK_SAID[rank]), fits=codes_of(meld.fits))
    ends = codes_of(meld.fits)
    low = (meld.mask & -meld.mask).bit_length() - 1
    high = meld.mask.bit_length() - 1
    if not ends:
        return said("{code} does not fit {which}: a run grows only at its ends, with the next card of its suit: "
                    "no card", code=code, which=which)
    first, *more = ends.split()  # one card at each open end: at most two
    fits: Any = said("{first} or {second}", first=first, second=more[0]) if more else first
    if RANK_OF[low] == ACE and RANK_OF[card] == KING and SUIT_OF[card] == SUIT_OF[low]:
        return said("{code} does not fit {which}: a run grows only at its ends, with the next card of its suit: {fits} "
                    "(the ace is low only: nothing goes below it)", code=code, which=which, fits=fits)
    if RANK_OF[high] == KING and RANK_OF[card] == ACE and SUIT_OF[card] == SUIT_OF[high]:
        return said("{code} does not fit {which}: a run grows only at its ends, with the next card of its suit: {fits} "
                    "(the ace is low only: nothing follows the king)", code=code, which=which, fits=fits)
    return said("{code} does not fit {which}: a run grows only at its ends, with the next card of its suit: {fits}",
                code=code, which=which, fits=fits)

