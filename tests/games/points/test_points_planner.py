"""The strong computer player's measure of a hand (``planner``): the fewest cards still to draw
before 13 of its cards make a valid declaration (P5.1), checked against the rules' own judge
(the evaluator's complete arrangements, P3, P5.1) by trying every replacement of the hand's
cards by live ones."""

from __future__ import annotations

import itertools
import random

import pytest
from points_helpers import cards

from app.games.points.cards import ONE_DECK, TWO_DECKS, wild_rank_for
from app.games.points.evaluator import HandContext
from app.games.points.planner import Planner, live_counts


def declarable(hand, wild_rank) -> bool:
    """13 cards every one of which is in a group, two sequences, one pure (P5.1)."""
    return HandContext(hand, wild_rank).evaluate_without(None).complete


def draws_needed(hand, wild_rank, live, most) -> int | None:
    """The fewest of ``hand``'s cards (13) to replace by ``live`` cards (one each) before the
    hand can be declared, by trying every replacement of up to ``most`` cards; None: more."""
    for count in range(most + 1):
        for out in itertools.combinations(range(len(hand)), count):
            kept = [card for index, card in enumerate(hand) if index not in out]
            for drawn in itertools.combinations(live, count):
                if declarable(kept + list(drawn), wild_rank):
                    return count
    return None


def planner_for(wild_rank, deck, live_cards):
    """A planner for whom exactly ``live_cards`` are unseen."""
    seen = [card for card in deck.cards if card not in live_cards]
    return Planner(wild_rank, live_counts(deck.cards, seen))


def test_a_hand_that_can_be_declared_has_no_card_to_go():
    hand = cards("AH 2H 3H 4C 5C 6C 7D 7S 7H 9S TS JS QS")  # P3.1 pure runs and a set
    assert declarable(hand, "K")
    assert planner_for("K", ONE_DECK, []).cards_to_go(hand) == 0


def test_one_card_to_go_whether_it_fills_a_gap_or_extends():
    gap = cards("AH 2H 3H 4C 5C 7C 7D 7S 8H 9S TS JS QS")  # 6C fills 4C 5C _ 7C
    live = [ONE_DECK.parse("6C")]
    assert planner_for("K", ONE_DECK, live).cards_to_go(gap) == 1
    assert draws_needed(gap, "K", live, 1) == 1


def test_a_pure_sequence_s_gap_counts_only_while_its_card_is_live():
    # the only pure sequence to be is 4C 5C _ 7C (the spades hold a joker: impure, P3.2)
    hand = cards("4C 5C 7C 9S JK JS 2S 2H 2D KH KS KD 5H")
    assert planner_for("Q", ONE_DECK, cards("6C 3C 8C")).cards_to_go(hand) == 1
    # 6C seen (on the open pile, say): the pure sequence must be 3C 4C 5C, and 7C goes
    assert planner_for("Q", ONE_DECK, cards("3C 8C")).cards_to_go(hand) == 2


def test_jokers_fill_impure_sequences_and_sets():
    # P2.2: sevens are wild; 7D fills the set's third place and JK the run's gap
    hand = cards("AH 2H 3H 4C 5C JK 9D 9S 7D TS JS QS KS")
    assert declarable(hand, "7")
    assert planner_for("7", ONE_DECK, []).cards_to_go(hand) == 0
    assert planner_for("7", ONE_DECK, []).cards_to_go(cards("AH 2H 3H 4C 5C 2D 9D 9S 7D TS JS QS KS")) == 1


def random_hands(seed, count, deck=ONE_DECK, live_size=10):
    rng = random.Random(seed)
    for _ in range(count):
        shuffled = list(deck.cards)
        rng.shuffle(shuffled)
        yield shuffled[:13], wild_rank_for(shuffled[13]), shuffled[14:14 + live_size]


@pytest.mark.slow
@pytest.mark.parametrize("deck", [ONE_DECK, TWO_DECKS], ids=["one deck", "two decks"])
def test_the_measure_equals_the_fewest_replacements_by_live_cards(deck):
    """Hands one or two cards from a declaration (a declarable hand with cards swapped out) and
    random ones, the live cards a few of the others, the cards swapped out and every joker (the
    measure counts a gap of an impure sequence or a set as one a joker may fill): a measure of
    1 or 2 is the fewest replacements that make the hand declarable, a larger one needs more."""
    rng = random.Random(3)
    base = cards("AH 2H 3H 4C 5C 6C 7C 9D TD JD 8S 8H 8C", deck)
    jokers = [card for card in deck.cards if card.is_joker or card.rank == "K"]
    hands = []
    for _ in range(12):
        out = rng.sample(range(13), rng.choice((1, 2)))
        pool = [card for card in deck.cards if card not in base and card not in jokers]
        swapped = [card for index, card in enumerate(base) if index not in out] + rng.sample(pool, len(out))
        others = rng.sample([card for card in pool if card not in swapped], 4)
        hands.append((swapped, others + [base[index] for index in out]))
    shuffled = [card for card in deck.cards if card not in jokers]
    for _ in range(3):
        rng.shuffle(shuffled)
        hands.append((shuffled[:13], shuffled[13:18]))
    measures = []
    for hand, live in hands:
        live = live + [card for card in jokers if card not in hand]
        measure = planner_for("K", deck, live).cards_to_go(hand)
        assert draws_needed(hand, "K", live, 2) == (measure if measure <= 2 else None)
        measures.append(measure)
    assert {1, 2} <= set(measures) and max(measures) > 2


def test_the_measure_of_each_discard_and_the_outs_are_the_measure_of_each_hand():
    for hand13, wild, live in random_hands(5, 6, live_size=20):
        hand = hand13 + [live.pop()]
        planner = planner_for(wild, ONE_DECK, live)
        without = planner.cards_to_go_without(hand)
        for card in hand:
            rest = [other for other in hand if other is not card]
            assert without[card] == planner.cards_to_go(rest)
        candidates = hand[:4]
        outs = planner.outs_without(hand, candidates, live)
        for card in candidates:
            rest = [other for other in hand if other is not card]
            now = planner.cards_to_go(rest)
            assert outs[card] == sum(1 for drawn in live if planner.cards_to_go(rest + [drawn]) < now)
