"""Judging groups (P3) and declarations (P5.1): what the server says about a player's groups.

A group is a list of cards. ``judge_group`` labels it a pure sequence (P3.1), an impure sequence
(P3.2), a set (P3.3) or not a valid group, with the reason. A group that is both an impure
sequence and a set (``7H JK 5C`` with fives wild) is labelled a sequence: that is what it counts
as towards a declaration.

Jokers (P2.2) are the printed jokers and every card of the wild rank. A card of the wild rank may
also stand as itself: in its natural place it keeps a sequence pure (P3.1). Elsewhere standing as
itself or as a joker comes to the same, so a group of jokers alone (three or more) is a valid
impure sequence: a card of the wild rank stands as itself and the others take the places beside
it (there are at most two printed jokers, so such a group always holds one).
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Sequence
from typing import Any

from app.core.cards import Card, ids
from app.core.protocol import N_, Said, said

from .cards import ACE_HIGH, codes_text, is_joker

PURE = "pure sequence"
IMPURE = "impure sequence"
SET = "set"
INVALID = "not a valid group"
SEQUENCES = (PURE, IMPURE)
KIND_WORDS = (N_(PURE), N_(IMPURE), N_(SET), N_(INVALID))  # a group's label, in the catalogue
MAX_SEQUENCE = 13  # A to K or 2 to A: the ace is never both low and high (P1.2)
MAX_SET = 4  # P3.3


Why = tuple[str, Said]  # why a group is not valid: the reason's text, and in players' words (the web's)


def _why(text: str, template: str | tuple[str, str], **fields: Any) -> Why:
    return text, said(template, **fields)


@dataclass(frozen=True)
class GroupJudgement:
    kind: str  # PURE, IMPURE, SET or INVALID
    reason: str = ""  # why a group is not valid, for players
    say: Said | None = None  # the reason in players' words, its cards named as cards (the web's)

    @property
    def valid(self) -> bool:
        return self.kind != INVALID

    @property
    def is_sequence(self) -> bool:
        return self.kind in SEQUENCES


def _consecutive(orders: list[int]) -> bool:
    return all(later - earlier == 1 for earlier, later in zip(orders, orders[1:]))


def is_pure_sequence(cards: Sequence[Card]) -> bool:
    """P3.1 with P1.2: three or more cards of one suit in consecutive ranks, the ace low
    (``A 2 3``) or high (``Q K A``); no printed joker (a card of the wild rank stands as itself)."""
    if len(cards) < 3 or len(cards) > MAX_SEQUENCE or any(card.is_joker for card in cards):
        return False
    if len({card.suit for card in cards}) != 1:
        return False
    low = sorted(card.order for card in cards)
    if len(set(low)) != len(low):
        return False
    if _consecutive(low):
        return True
    high = sorted(ACE_HIGH if order == 0 else order for order in low)
    return low[0] == 0 and _consecutive(high)


def sequence_span(orders: Sequence[int]) -> int:
    """The fewest places that hold these distinct ranks of one suit, the ace low or high."""
    low = min(orders), max(orders)
    span = low[1] - low[0] + 1
    if 0 in orders:
        high = [ACE_HIGH if order == 0 else order for order in orders]
        span = min(span, max(high) - min(high) + 1)
    return span


def judge_group(cards: Sequence[Card], wild_rank: str) -> GroupJudgement:
    """The server's label for one group (P3), and the reason when it is no valid group."""
    count = len(cards)
    if count < 3:
        return _invalid(_why(f"{_named(cards)}: a group needs at least 3 cards",
                             "{cards}: a group needs at least 3 cards", cards=ids(cards)))
    if is_pure_sequence(cards):
        return GroupJudgement(PURE)
    naturals = [card for card in cards if not is_joker(card, wild_rank)]
    if not naturals:
        if count <= MAX_SEQUENCE:
            return GroupJudgement(IMPURE)
        return _invalid(_why(f"a sequence holds at most {MAX_SEQUENCE} cards",
                             "a sequence holds at most {count} cards", count=MAX_SEQUENCE))
    suits = {card.suit for card in naturals}
    ranks = {card.rank for card in naturals}
    if len(suits) == 1 and len(naturals) > 1 or len(ranks) > 1:
        reason = _sequence_problem(naturals, count)
        if reason is None:
            return GroupJudgement(IMPURE)
        if len(ranks) == 1:  # two cards alike: neither a sequence nor a set
            return _invalid(_set_problem(naturals, count) or reason)
        return _invalid(reason)
    # one natural card, or naturals of one rank in several suits
    if len(naturals) == 1 and count <= MAX_SEQUENCE:
        return GroupJudgement(IMPURE)
    reason = _set_problem(naturals, count)
    if reason is None:
        return GroupJudgement(SET)
    return _invalid(reason)


def _invalid(why: Why) -> GroupJudgement:
    return GroupJudgement(INVALID, why[0], why[1])


def _sequence_problem(naturals: Sequence[Card], count: int) -> Why | None:
    """Why these natural cards (with ``count`` cards in all, the rest jokers) make no sequence,
    or None if they make one."""
    suits = {card.suit for card in naturals}
    if len(suits) > 1:
        return _why(f"{_named(naturals)} are neither of one suit (a sequence) nor of one rank (a set)",
                    "{cards} are neither of one suit (a sequence) nor of one rank (a set)", cards=ids(naturals))
    orders = [card.order for card in naturals]
    if len(set(orders)) != len(orders):
        twice = next(card for card in naturals if orders.count(card.order) > 1)
        return _why(f"a sequence holds each rank once: {twice.code} is there twice",
                    "a sequence holds each rank once: the {card} is there twice", card=twice.id)
    if count > MAX_SEQUENCE:
        return _why(f"a sequence holds at most {MAX_SEQUENCE} cards",
                    "a sequence holds at most {count} cards", count=MAX_SEQUENCE)
    span = sequence_span(orders)
    if span <= count:
        return None
    jokers = count - len(naturals)
    ordered = sorted(naturals, key=lambda card: card.order)
    if 0 in orders and set(orders) & {11, 12} and set(orders) & {1, 2}:
        return _why(f"{_named(ordered)} is no sequence: the ace is low (A 2 3) or high (Q K A), never both (K A 2)",
                    "{cards} is no sequence: the ace is low (A 2 3) or high (Q K A), never both (K A 2)",
                    cards=ids(ordered))
    missing = span - len(naturals)
    needs = "rank needs a joker" if missing == 1 else f"ranks need {missing} jokers"
    return _why(f"{_named(ordered)} are not consecutive: {missing} missing {needs}, and the group has {jokers}",
                ("{cards} are not consecutive: {count} missing rank needs a joker, and the group has {jokers}",
                 "{cards} are not consecutive: {count} missing ranks need {count} jokers, and the group has {jokers}"),
                cards=ids(ordered), count=missing, jokers=jokers)


def _set_problem(naturals: Sequence[Card], count: int) -> Why | None:
    if count > MAX_SET:
        return _why(f"a set holds at most {MAX_SET} cards", "a set holds at most {count} cards", count=MAX_SET)
    seen: dict[str, Card] = {}
    for card in naturals:
        if card.suit in seen:
            return _why(f"{seen[card.suit].code} and {card.code} are of the same suit and rank: "
                        f"the cards of a set are all of different suits",
                        "the {card} and the {other_card} are of the same suit and rank: the cards of a set are all "
                        "of different suits", card=seen[card.suit].id, other_card=card.id)
        seen[card.suit] = card
    return None


def _named(cards: Sequence[Card]) -> str:
    return codes_text(cards)


@dataclass(frozen=True)
class DeclarationJudgement:
    valid: bool
    reason: str = ""
    kinds: tuple[str, ...] = ()
    say: Said | None = None  # the reason in players' words (the web's)


def judge_declaration(groups: Sequence[Sequence[Card]], wild_rank: str) -> DeclarationJudgement:
    """P5.1: every card in a valid group, at least two sequences, at least one of them pure."""
    kinds = []
    for number, group in enumerate(groups, start=1):
        judgement = judge_group(group, wild_rank)
        if not judgement.valid:
            assert judgement.say is not None  # (every invalid group says why)
            return DeclarationJudgement(False, f"group {number} ({codes_text(group)}) is not a valid group: "
                                               f"{judgement.reason}",
                                        say=said("group {number} ({group_cards}) is not a valid group: {reason}",
                                                 number=number, group_cards=ids(group), reason=judgement.say))
        kinds.append(judgement.kind)
    if PURE not in kinds:
        text = "there is no pure sequence: a declaration needs one"
        return DeclarationJudgement(False, text, tuple(kinds), said(text))
    sequences = sum(1 for kind in kinds if kind in SEQUENCES)
    if sequences < 2:
        text = "there is only one sequence: a declaration needs two, one of them pure"
        return DeclarationJudgement(False, text, tuple(kinds), said(text))
    return DeclarationJudgement(True, "", tuple(kinds))
