"""R1: cards and the deck; the Card class (extends_run, card_point_value, __str__)."""

import pytest
from rules_test_helpers import card, cards, codes

from app.games.mason import FULL_DECK, SUITS, VALUES, Card, InvalidCardError, full_deck, is_run
from app.games.mason.cards import points_of, sort_cards


def test_r1_1_values_run_low_to_high_and_there_is_no_one():
    assert VALUES == "23456789TJQKA"
    ranks = [card(v + "S").order for v in "23456789TJQKA"]
    assert ranks == list(range(13))
    with pytest.raises(InvalidCardError):
        Card.parse("1S")


def test_r1_1_aces_are_always_high():
    assert is_run(cards("QS KS AS"))
    assert not is_run(cards("KS AS 2S"))
    assert not is_run(cards("AS 2S 3S"))
    assert card("AS").extends_run(cards("JS QS KS"))
    assert not card("AS").extends_run(cards("2S 3S 4S"))  # no ace-low
    assert not card("2S").extends_run(cards("QS KS AS"))  # no wrap-around


def test_r1_2_five_suits_with_patriots_fifth():
    assert SUITS == "CDHSP"
    assert [card("T" + s).suit for s in SUITS] == list("CDHSP")
    assert "Patriots" in card("TP").label
    assert {c.suit for c in FULL_DECK} == set("CDHSP")


@pytest.mark.parametrize("text", ["tp", "TP", "tP", "Tp"])
def test_r1_3_codes_read_in_either_case_and_show_upper_case(text):
    read = Card.parse(text)
    assert read is Card.parse("TP")
    assert str(read) == "TP"
    assert (read.value, read.suit) == ("T", "P")


def test_r1_3_long_label_is_shown_beside_the_code_never_instead():
    assert card("TP").label == "TP (ten of Patriots)"
    assert card("as").label.startswith("AS ")


@pytest.mark.parametrize("text", ["", "T", "TPX", "10P", "1P", "TX", "XP", " TP", "TP ", "PT", "♠S"])
def test_r1_3_a_card_is_exactly_two_valid_characters(text):
    with pytest.raises(InvalidCardError):
        Card.parse(text)


@pytest.mark.parametrize("bad", [None, 10, ("T", "P")])
def test_r1_3_non_text_is_not_a_card(bad):
    with pytest.raises(InvalidCardError):
        Card.parse(bad)


def test_r1_3_card_constructor_accepts_either_case_and_rejects_bad_values():
    assert Card("t", "p") is card("TP")
    with pytest.raises(InvalidCardError):
        Card("1", "S")
    with pytest.raises(InvalidCardError):
        Card("T", "X")


def test_r1_4_the_deck_is_65_distinct_cards():
    assert len(FULL_DECK) == 65
    assert len(set(FULL_DECK)) == 65
    assert {c.code for c in FULL_DECK} == {v + s for v in VALUES for s in SUITS}
    fresh = full_deck()
    assert fresh == list(FULL_DECK)
    fresh.pop()
    assert len(full_deck()) == 65  # a fresh list each time


@pytest.mark.parametrize("value, points", [
    ("2", 2), ("3", 3), ("4", 4), ("5", 5), ("6", 6), ("7", 7), ("8", 8), ("9", 9),
    ("T", 10), ("J", 10), ("Q", 10), ("K", 10), ("A", 15),
])
def test_r1_5_card_point_value(value, points):
    """R1.5: 2-9 their number, T J Q K 10 each, A 15."""
    for suit in SUITS:
        assert Card.parse(value + suit).card_point_value() == points


def test_r1_5_whole_deck_is_worth_the_sum_of_its_points():
    """R1.5 summed over the 65 cards."""
    # per suit: 2..9 = 44, T J Q K = 40, A = 15 -> 99; five suits -> 495
    assert points_of(FULL_DECK) == 495


# -- the Card class ------------------------------------------------------------------------------

def test_card_str_is_the_two_character_code():
    assert str(card("9h")) == "9H"
    assert f"{card('ad')}" == "AD"
    assert repr(card("QS")) == "Card(QS)"


def test_card_extends_run_at_either_end_r6_3():
    run = cards("5S 6S 7S")
    assert card("4S").extends_run(run)
    assert card("8S").extends_run(run)
    assert card("8S").extends_run(list(reversed(run)))  # order of the given cards does not matter


def test_card_extends_run_refuses_other_suits_gaps_and_inner_cards():
    run = cards("5S 6S 7S")
    assert not card("8H").extends_run(run)
    assert not card("4D").extends_run(run)
    assert not card("9S").extends_run(run)
    assert not card("3S").extends_run(run)
    assert not card("6S").extends_run(run)
    assert not card("8S").extends_run([])


def test_card_is_interned_so_equal_cards_are_the_same_object():
    assert Card.parse("5c") is Card("5", "C")
    assert len({Card.parse("5c"), Card.parse("5C")}) == 1


def test_r9_2_cards_sort_by_suit_then_value():
    shuffled = cards("AP 2C KD 3C TS 9H 2P AC")
    assert codes(sort_cards(shuffled)) == "2C 3C AC KD 9H TS 2P AP"
