"""The spellings the privacy check reads a hidden card in (card_spellings), from the decks of the
games: what names a card, and what does not (a round number, a rank alone, an English word)."""

from __future__ import annotations

import pytest
from card_spellings import spellings_of

import app.games  # noqa: F401  (registers every game)
from app.core import registry

MASON = spellings_of(registry.get("mason").deck_for(2))  # R1.2: five suits, the fifth the Patriots
POINTS = spellings_of(registry.get("points").deck_for(3))  # P1.1: two decks and two printed jokers


@pytest.mark.parametrize(("text", "named"), [
    ("QH", {("QH", None)}),
    ("Ann holds QH.", {("QH", None)}),
    ("QH 7S", {("QH", None), ("7S", None)}),
    ("QH,7S;2C|AD", {("QH", None), ("7S", None), ("2C", None), ("AD", None)}),
    ("hand: QH7S2C", {("QH", None), ("7S", None), ("2C", None)}),
    ("[ 9S ][ xx ], value = 10", {("9S", None)}),
    ("Seven of Hearts", {("7H", None)}),
    ("the seven of hearts is next", {("7H", None)}),
    ("7 of hearts", {("7H", None)}),
    ("10 of clubs", {("TC", None)}),
    ("ten of clubs", {("TC", None)}),
    ("Q of Spades", {("QS", None)}),
    ("7♥", {("7H", None)}),
    ("10♥", {("TH", None)}),
    ("T♥", {("TH", None)}),
    ("♥️Q", {("QH", None)}),
    ("10H", {("TH", None)}),
    ("ace of patriots", {("AP", None)}),
    ("A★", {("AP", None)}),
    ("TP", {("TP", None)}),
])
def test_a_card_in_any_spelling_is_read(text, named):
    assert MASON.in_text(text) == named


@pytest.mark.parametrize("text", [
    "Round 2", "2 cards", "Deal 10 of 12", "10 of them", "three of a kind", "a run of hearts", "the sevens are wild",
    "such as a card", "as ks js", "AI 2", "Menu D", "Hand 3 - target 100", "Draw from stock pile", "Ann", "x",
    "Stock: 31 cards", "hit or stay with 16?", "a of hearts", "THE END",
])
def test_words_and_numbers_that_name_no_card_are_not_read(text):
    assert MASON.in_text(text) == set() and POINTS.in_text(text) == set()


def test_a_second_copy_and_a_printed_joker_are_read_as_such():
    assert POINTS.in_text("QH-2 and JK-2") == {("QH", 2), ("JK", 2)}
    assert POINTS.in_text("JK") == {("JK", None)} and MASON.in_text("JK") == set()  # Mason Rummy has no joker
    assert POINTS.in_text("ace of patriots") == set()  # four suits


@pytest.mark.parametrize(("fields", "named"), [
    ({"rank": "Q", "suit": "H"}, {("QH", None)}),
    ({"value": "queen", "colour": "Hearts"}, {("QH", None)}),
    ({"r": "10", "s": "♥"}, {("TH", None)}),
    ({"rank": "A", "suit": "P"}, {("AP", None)}),
    ({"seat": 2, "suit": "H"}, set()),  # a number is no rank here: the swap check's business
    ({"label": "Ann", "turn": "Q"}, set()),
    ({"stage": "Round 2", "name": "H"}, set()),
])
def test_rank_and_suit_as_two_fields_of_one_dict_are_read(fields, named):
    assert MASON.in_fields(fields) == named
