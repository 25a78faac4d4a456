"""Helpers for the Points Rummy tests: cards from codes, stacked deals, the exhaustive search."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from app.games.points import DEFINITION as POINTS_RUMMY
from app.games.points.actions import action_from_dict
from app.games.points.cards import ONE_DECK, TWO_DECKS, card_points
from app.games.points.groups import INVALID, PURE, SEQUENCES, judge_group


def cards(text: str, deck=ONE_DECK) -> list:
    """Cards from codes or ids (``QH QH-2 JK``)."""
    return [deck.parse(word) for word in text.split()]


def stacked_order(deck, hands: Sequence[str], indicator: str, open_card: str, closed_top: str = "",
                  first: int = 0) -> list:
    """A full deck order that deals ``hands`` (codes, seat 0 first) one card at a time from seat
    ``first``, then turns up ``indicator`` and ``open_card``, then ``closed_top`` on the closed
    deck; the other cards follow in deck order."""
    seats = len(hands)
    pools: dict[str, list] = {}
    for card in deck.cards:
        pools.setdefault(card.code, []).append(card)
    order = [None] * (13 * seats)
    for seat, hand in enumerate(hands):
        codes = hand.split()
        assert len(codes) == 13, f"seat {seat} holds {len(codes)} cards"
        for index, code in enumerate(codes):
            order[index * seats + (seat - first) % seats] = pools[code].pop(0)
    order += [pools[indicator].pop(0), pools[open_card].pop(0)]
    order += [pools[code].pop(0) for code in closed_top.split()]
    order += [card for card in deck.cards if any(card is c for pool in pools.values() for c in pool)]
    assert len(order) == deck.size and len(set(order)) == deck.size
    return order


def stacked_game(hands: Sequence[str], indicator: str, open_card: str, closed_top: str = "", *,
                 names: Sequence[str] | None = None, deals: int = 1, seed=0, **options):
    names = list(names) if names is not None else [f"P{seat + 1}" for seat in range(len(hands))]
    deck = POINTS_RUMMY.deck_for(len(names))
    order = stacked_order(deck, hands, indicator, open_card, closed_top)
    return POINTS_RUMMY.new_state(names, options={"deals": deals, **options}, seed=seed, stacked_deck=order)


def act(state, seat, **data):
    """Apply an action given as plain data (as a door does)."""
    return state.apply(seat, action_from_dict(data))


def ids(hand_cards) -> list[str]:
    return [card.id for card in hand_cards]


def brute_force_points(hand: Sequence, wild_rank: str) -> int:
    """P5.4 by exhaustive search: every way to pick disjoint groups (each judged by the rules'
    judge), the rest counting; two sequences with a pure one, or every card counts."""
    count = len(hand)
    total = sum(card_points(card, wild_rank) for card in hand)
    best = total
    kinds: dict[tuple, str] = {}

    def kind(members):
        found = kinds.get(members)
        if found is None:
            found = kinds[members] = judge_group([hand[i] for i in members], wild_rank).kind
        return found

    def search(remaining, pure, sequences, left):
        nonlocal best
        if not remaining:
            if pure and sequences >= 2 and left < best:
                best = left
            return
        first, rest = remaining[0], remaining[1:]
        search(rest, pure, sequences, left + card_points(hand[first], wild_rank))
        for size in range(2, len(rest) + 1):
            for others in itertools.combinations(rest, size):
                label = kind((first,) + others)
                if label == INVALID:
                    continue
                search(tuple(i for i in rest if i not in others), pure or label == PURE,
                       sequences + (label in SEQUENCES), left)

    search(tuple(range(count)), False, 0, 0)
    return best


def brute_force_complete(hand: Sequence, wild_rank: str) -> bool:
    """P5.1 by exhaustive search: every card in a valid group, two sequences, one pure."""
    def search(remaining, pure, sequences):
        if not remaining:
            return pure and sequences >= 2
        first, rest = remaining[0], remaining[1:]
        for size in range(2, len(rest) + 1):
            for others in itertools.combinations(rest, size):
                label = judge_group([hand[i] for i in (first,) + others], wild_rank).kind
                if label == INVALID:
                    continue
                if search(tuple(i for i in rest if i not in others), pure or label == PURE,
                          sequences + (label in SEQUENCES)):
                    return True
        return False

    return search(tuple(range(len(hand))), False, 0)


__all__ = ["ONE_DECK", "TWO_DECKS", "act", "brute_force_complete", "brute_force_points", "cards", "ids",
           "stacked_game", "stacked_order"]
