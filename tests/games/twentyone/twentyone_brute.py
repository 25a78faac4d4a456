"""The best expected return at 21 by brute force, to check ``expectation`` against: every way the
unseen cards can lie (each order of them alike: the dealer's hidden card, the deck front first,
the hidden discards), the rule book's round played card by card on each (T3.2-T3.4, T3.6), and
the seat's choice made on what it has seen only (an expectimax over what it has drawn).

It shares nothing with ``app/games/twentyone/expectation.py`` but the rule book: no composition
and no symmetry argument, only the orders themselves, in exact fractions."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

BUST_LIMIT = 21  # T3.2
DEALER_STANDS_ON = 17  # T3.4


class World:
    """One way the unseen cards lie, and the cards dealt so far from it: ``weight`` its chance,
    ``hole`` the dealer's hidden card, ``deck`` the deck's cards still to deal (front first),
    ``hidden`` the hidden discards, ``pool`` the refilled deck's cards still to deal (None: no
    refill yet; its order is not fixed: every card of it comes next alike)."""

    def __init__(self, weight, hole, deck, hidden, pool=None):
        self.weight, self.hole, self.deck, self.hidden, self.pool = weight, hole, deck, hidden, pool

    def next_cards(self, face_up_discards):
        """[(chance, card, the world after)] for the next card dealt (T3.6 when the deck is empty)."""
        if self.deck:
            return [(Fraction(1), self.deck[0], World(self.weight, self.hole, self.deck[1:], self.hidden))]
        pool = self.pool if self.pool is not None else list(face_up_discards) + list(self.hidden)
        counts = Counter(pool)
        found = []
        for card, count in counts.items():
            rest = list(pool)
            rest.remove(card)
            found.append((Fraction(count, len(pool)), card, World(self.weight, self.hole, [], [], rest)))
        return found


def worlds(unseen, deck_count):
    """Every order of the unseen cards: the first is the hidden card, the next ``deck_count`` the
    deck, the rest the hidden discards; equal orders of equal values merged."""
    orders = Counter(itertools.permutations(unseen))
    total = sum(orders.values())
    return [World(Fraction(count, total), order[0], list(order[1:1 + deck_count]), list(order[1 + deck_count:]))
            for order, count in orders.items()]


def dealer_result(total, world, up, face_up_discards):
    """The expected return of a seat staying on ``total`` in ``world`` (T3.4): the dealer shows the
    hidden card and draws while 16 or less."""

    def play(dealer, now):
        if dealer > BUST_LIMIT:
            return Fraction(1)
        if dealer >= DEALER_STANDS_ON:
            return Fraction((total > dealer) - (total < dealer))
        return sum(chance * play(dealer + card, after) for chance, card, after in now.next_cards(face_up_discards))

    return play(up + world.hole, world)


def best(total, up, unseen, deck_count, face_up_discards):
    """(stay, hit): the exact expected returns of staying and of hitting (then playing on at
    best), by expectimax over the worlds, grouped by the card the seat draws."""

    def values(total, group):
        weight = sum(world.weight for world in group)
        stay = sum(world.weight * dealer_result(total, world, up, face_up_discards) for world in group) / weight
        by_card: dict[int, list[World]] = {}
        for world in group:
            for chance, card, after in world.next_cards(face_up_discards):
                by_card.setdefault(card, []).append(World(world.weight * chance, after.hole, after.deck,
                                                          after.hidden, after.pool))
        hit = Fraction(0)
        for card, children in by_card.items():
            share = sum(world.weight for world in children) / weight
            reached = total + card
            if reached > BUST_LIMIT:  # T3.2
                hit -= share
            elif reached == BUST_LIMIT:  # T3.3: 21 after a hit wins at once
                hit += share
            else:
                hit += share * max(values(reached, children))
        return stay, hit

    return values(total, worlds(unseen, deck_count))
