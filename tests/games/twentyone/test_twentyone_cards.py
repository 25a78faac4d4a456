"""T1 (cards, values, how a card shows), T2 (deck files) and the user's Card, Deck and
EmptyDeckException (T3.6)."""

from __future__ import annotations

import random

import pytest
from twentyone_helpers import SAMPLE_DECKS, deck_text, stacked

from app.core.cards import InvalidCardError
from app.core.decks import DeckError
from app.games.twentyone import DECK, DEFINITION, Card, Deck, EmptyDeckException, InvalidDeckData, parse_deck_file

ALL_CODES = [card.code for card in DECK.cards]


# -- T1 -----------------------------------------------------------------------------------------


def test_t1_1_the_deck_is_52_cards_of_13_ranks_and_4_suits():
    assert DECK.size == 52
    assert {card.rank for card in DECK.cards} == set("A23456789TJQK")
    assert {card.suit for card in DECK.cards} == set("CDHS")
    assert len(set(ALL_CODES)) == 52


@pytest.mark.parametrize("code", ["th", "Th", "tH", "TH"])
def test_t1_1_a_code_reads_in_either_letter_case_and_shows_in_upper_case(code):
    card = Card(code, True)
    assert (card.rank, card.suit, card.code, str(card)) == ("T", "H", "TH", "[ TH ]")


@pytest.mark.parametrize("bad", ["", "T", "THH", "1H", "TX", "JK", "10H", " TH"])
def test_t1_1_a_card_is_two_characters_rank_then_suit(bad):
    with pytest.raises(InvalidCardError):
        Card(bad)


@pytest.mark.parametrize("rank, value", [("A", 1), ("2", 2), ("5", 5), ("9", 9), ("T", 10), ("J", 10), ("Q", 10),
                                         ("K", 10)])
def test_t1_2_values(rank, value):
    for suit in "CDHS":
        assert Card(rank + suit).value == value


def test_t1_2_an_ace_is_always_1_and_two_cards_are_worth_at_most_20():
    values = sorted(Card(code).value for code in ALL_CODES)
    assert values[:4] == [1, 1, 1, 1]
    assert values[-1] + values[-2] == 20


def test_t1_3_face_up_and_face_down():
    """T1.3: face up ``[ JD ]``, face down ``[ xx ]``."""
    card = Card("jd", False)
    assert str(card) == "[ xx ]" and not card.face_up
    card.turn_over()
    assert str(card) == "[ JD ]" and card.face_up
    card.turn_over()
    assert str(card) == "[ xx ]"


def test_cards_are_equal_whichever_way_up():
    assert Card("QS", True) == Card("qs", False)
    assert Card("QS") != Card("QH")
    assert len({Card("QS", True), Card("QS", False)}) == 1


def test_a_card_wraps_only_cards_of_the_deck_of_21():
    core = DECK.parse("9C")
    assert Card(core).core is core
    with pytest.raises(TypeError, match="^face_up is True or False$"):
        Card("9C", "yes")


# -- the deck ------------------------------------------------------------------------------------


def test_the_deck_is_a_queue_dealt_from_the_front_face_up():
    deck = Deck(stacked("9S", "AD"))
    assert len(deck) == 52
    assert all(not card.face_up for card in deck)  # cards in the deck are face down
    first = deck.deal()
    assert (first.code, first.face_up) == ("9S", True)
    assert deck.deal().code == "AD"
    assert len(deck) == 50


def test_t3_6_dealing_from_an_empty_deck_raises_empty_deck_exception():
    deck = Deck()
    with pytest.raises(EmptyDeckException) as raised:
        deck.deal()
    assert str(raised.value) == "Cannot deal card from an empty deck."
    assert raised.value.args == ("Cannot deal card from an empty deck.",)


def test_the_deck_holds_at_most_52_cards_each_once():
    deck = Deck(stacked())
    with pytest.raises(ValueError, match="^a deck holds at most 52 cards$"):
        deck.repopulate([Card("AS")], random.Random(0))
    assert len(deck) == 52
    half = Deck(stacked()[:10])
    with pytest.raises(ValueError, match=f"^{stacked()[0].code} is in the deck already$"):
        half.repopulate([Card(stacked()[0])], random.Random(0))


def test_t3_6_repopulate_adds_the_cards_at_the_rear_face_down_shuffled_by_the_given_generator():
    deck = Deck([DECK.parse("KC")])
    pile = [Card(code, True) for code in ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C"]]
    deck.repopulate(list(pile), random.Random("seed"))
    cards = list(deck)
    assert cards[0].code == "KC"
    assert sorted(card.code for card in cards[1:]) == sorted(card.code for card in pile)
    assert all(not card.face_up for card in cards)
    expected = list(pile)
    random.Random("seed").shuffle(expected)
    assert [card.code for card in cards[1:]] == [card.code for card in expected]
    again = Deck([DECK.parse("KC")])
    again.repopulate([Card(card.code, True) for card in pile], random.Random("other"))
    assert [card.code for card in again] != [card.code for card in cards]


def test_deck_str_shows_every_card_face_up_front_first():
    deck = Deck(stacked("9S", "AD"))
    text = str(deck)
    assert text.startswith("front [ 9S ][ AD ]") and text.endswith(" rear")
    assert text.count("[ ") == 52 and "xx" not in text
    assert all(not card.face_up for card in deck)  # showing the deck turned nothing over
    assert "empty" in str(Deck())


def test_t2_4_a_shuffled_deck_comes_from_the_seeded_generator():
    """T2.4: the 52 cards in an order from the generator given."""
    one = [card.code for card in Deck.shuffled(random.Random(5))]
    assert one == [card.code for card in Deck.shuffled(random.Random(5))]
    assert sorted(one) == sorted(ALL_CODES)
    assert one != [card.code for card in Deck.shuffled(random.Random(6))]


# -- T2: deck files ------------------------------------------------------------------------------------


def test_t2_1_one_code_a_line_the_first_dealt_first():
    cards = stacked("KD", "2S")
    assert parse_deck_file(deck_text(cards), "d.txt") == cards
    assert DEFINITION.deck_one_code_per_line


def test_t2_1_spaces_tabs_blank_lines_and_lower_case_are_accepted():
    codes = ALL_CODES[::-1]
    text = "\n\n" + "\n".join(f" \t{code.lower() if i % 2 else code}  " + ("\n   \n" if i % 5 == 0 else "")
                              for i, code in enumerate(codes)) + "\n\t\n"
    assert [card.code for card in parse_deck_file(text, "d.txt")] == codes


def invalid_files() -> dict[str, str]:
    codes = list(ALL_CODES)
    return {
        "a bad code": deck_text(stacked())[:-3] + "1X\n",
        "a line with two codes": ("\n".join(codes[:2]) + "\n" + codes[2] + " " + codes[3] + "\n"
                                  + "\n".join(codes[4:]) + "\n"),
        "a duplicate": "\n".join(codes[:51] + [codes[0]]) + "\n",
        "51 cards": "\n".join(codes[:51]) + "\n",
        "53 cards": "\n".join(codes + [codes[7]]) + "\n",
        "no cards": "",
        "a joker": "\n".join(codes[:51] + ["JK"]) + "\n",
        "three characters": "\n".join(codes[:51] + [codes[51] + "X"]) + "\n",
        "two codes run together": "\n".join(codes[:50] + [codes[50] + codes[51]]) + "\n",
        # T2.1 ignores spaces and tabs around a code, no other space
        "a no-break space after a code": "\n".join(codes[:51] + [codes[51] + "\u00a0"]) + "\n",
        "a line of an em space": "\n".join(codes) + "\n\u2003\n",
        "a form feed before a code": "\n".join(codes[:51] + ["\f" + codes[51]]) + "\n",
    }


@pytest.mark.parametrize("what", list(invalid_files()))
def test_t2_2_an_invalid_file_gives_exactly_the_t2_2_message(what):
    with pytest.raises(InvalidDeckData) as raised:
        parse_deck_file(invalid_files()[what], "my deck.txt")
    assert str(raised.value) == "Cannot populate deck: invalid data in my deck.txt"


@pytest.mark.parametrize("what", list(invalid_files()))
def test_t2_2_the_web_upload_gets_the_precise_messages_of_the_core_parser(what):
    with pytest.raises(DeckError) as raised:
        DEFINITION.parse_deck(invalid_files()[what])
    assert "Cannot populate" not in str(raised.value) and str(raised.value)


def test_t2_2_the_web_upload_names_the_line_with_two_codes():
    with pytest.raises(DeckError, match="line 3 holds 2 codes"):
        DEFINITION.parse_deck(invalid_files()["a line with two codes"])


def test_the_sample_decks_are_valid_and_do_what_their_readme_says():
    for name in ["natural_after_hit.deck", "dealer_busts.deck", "two_players.deck", "shuffledDeck.txt",
                 "spaces_and_lower_case.txt"]:
        text = (SAMPLE_DECKS / name).read_text()
        assert len(parse_deck_file(text, name)) == 52
        assert name in (SAMPLE_DECKS / "README.md").read_text()
    with pytest.raises(InvalidDeckData):
        parse_deck_file((SAMPLE_DECKS / "invalid_duplicate.txt").read_text(), "x")
    assert [card.code for card in parse_deck_file((SAMPLE_DECKS / "natural_after_hit.deck").read_text(), "x")][:5] == \
        ["9S", "5C", "7H", "KD", "5D"]
    assert parse_deck_file((SAMPLE_DECKS / "spaces_and_lower_case.txt").read_text(), "x") == \
        parse_deck_file((SAMPLE_DECKS / "natural_after_hit.deck").read_text(), "x")
