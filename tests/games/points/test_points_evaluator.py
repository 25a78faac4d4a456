"""The hand evaluator (P5.4, P7.1) against an exhaustive search over every arrangement.

Hands are drawn from a few ranks and suits of one or two decks, with printed jokers and a wild
rank, so that sequences, sets, duplicate cards and jokers all meet often. The exhaustive search
(points_helpers) judges every group with the rules' own judge (P3) and knows nothing of the
evaluator's method.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from points_helpers import TWO_DECKS, brute_force_complete, brute_force_points, cards

from app.games.points.cards import ONE_DECK, RANKS, card_points
from app.games.points.evaluator import HandContext, evaluate
from app.games.points.groups import INVALID, judge_declaration, judge_group

RANK_WINDOWS = [RANKS[start:start + 5] for start in range(0, 9)] + ["QKA23", "JQKA2"]


@st.composite
def small_hands(draw, low=3, high=8):
    deck = draw(st.sampled_from([ONE_DECK, TWO_DECKS]), label="deck")
    window = draw(st.sampled_from(RANK_WINDOWS), label="ranks")
    ranks = draw(st.lists(st.sampled_from(window), min_size=2, max_size=5, unique=True), label="rank subset")
    suits = draw(st.lists(st.sampled_from("CDHS"), min_size=1, max_size=3, unique=True), label="suits")
    wild = draw(st.sampled_from(list(RANKS)), label="wild rank")
    pool = [card for card in deck.cards if card.is_joker or card.rank == wild
            or (card.rank in ranks and card.suit in suits)]
    size = draw(st.integers(low, min(high, len(pool))), label="size")
    hand = draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique=True), label="hand")
    return hand, wild


def check_arrangement(hand, wild, evaluation):
    shown = [card for _label, group in evaluation.groups for card in group] + evaluation.ungrouped
    assert sorted(card.id for card in shown) == sorted(card.id for card in hand)
    for label, group in evaluation.groups:
        assert label == judge_group(group, wild).kind != INVALID
    if evaluation.qualifies:
        assert evaluation.points == sum(card_points(card, wild) for card in evaluation.ungrouped)
        assert judge_declaration([group for _label, group in evaluation.groups], wild).valid
    else:
        assert evaluation.points == sum(card_points(card, wild) for card in hand)


@pytest.mark.slow
@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_hands())
def test_p5_4_the_evaluator_finds_the_fewest_points_exactly(example):
    hand, wild = example
    evaluation = evaluate(hand, wild)
    assert evaluation.points == brute_force_points(hand, wild)
    check_arrangement(hand, wild, evaluation)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_hands(low=6, high=9))
def test_p5_1_the_evaluator_knows_a_complete_declaration(example):
    hand, wild = example
    evaluation = evaluate(hand, wild)
    assert evaluation.complete == brute_force_complete(hand, wild)
    if evaluation.complete:
        assert judge_declaration([group for _label, group in evaluation.groups], wild).valid


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_hands(low=5, high=8))
def test_p7_1_every_card_left_out_is_evaluated_as_its_own_hand(example):
    hand, wild = example
    context = HandContext(hand, wild)
    for card in hand:
        rest = [other for other in hand if other is not card]
        assert context.points_without(card) == brute_force_points(rest, wild)
        evaluation = context.evaluate_without(card)
        check_arrangement(rest, wild, evaluation)


@settings(max_examples=100, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from([ONE_DECK, TWO_DECKS]), st.sampled_from([13, 14]))
def test_full_hands_are_arranged_consistently(rng, deck, size):
    """13 and 14 cards: too many for the exhaustive search, so the arrangement is checked
    instead, and compared with the best of leaving one card out."""
    hand = rng.sample(list(deck.cards), size)
    wild = rng.choice(RANKS)
    evaluation = evaluate(hand, wild)
    check_arrangement(hand, wild, evaluation)
    context = HandContext(hand, wild)
    assert context.points_without(None) == evaluation.points


def test_known_hands():
    assert evaluate(cards("AH 2H 3H 4H QD KD AD 5C 6C 9H 7C 7D 7S"), "9").complete
    # two copies of a card may sit in two sequences
    twice = cards("5H 6H 7H 5H-2 6H-2 7H-2 KC", TWO_DECKS)
    assert evaluate(twice, "2").points == 10
    # three jokers alone make the second sequence
    jokers = cards("4S 5S 6S JK JK-2 9D", TWO_DECKS)
    evaluation = evaluate(jokers, "9")
    assert evaluation.complete
    assert [label for label, _group in evaluation.groups] == ["pure sequence", "impure sequence"]
    # a wild card in its natural place makes the pure sequence
    assert evaluate(cards("8H 9H TH 2C 3C JK"), "9").complete
    assert not evaluate(cards("8H 9D TH 2C 3C JK"), "9").qualifies


@pytest.mark.slow
@settings(max_examples=4000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_hands(low=3, high=9))
def test_p5_4_thousands_more_hands_against_the_exhaustive_search(example):
    hand, wild = example
    evaluation = evaluate(hand, wild)
    assert evaluation.points == brute_force_points(hand, wild)
    assert evaluation.complete == brute_force_complete(hand, wild)
