"""R9 menus and R5.5 / R5.6 answers: parse_choice and parse_selection (app/rules/menus.py)."""

import io
import re

import pytest
from rules_test_helpers import NAMES2, cards, deal, hand_codes

from app.games.mason import STOCK, Draw, Hand
from app.games.mason.menus import (
    GAME_OPTIONS, MENU_A, MENU_B, MENU_D, MENU_E, QUIT, VIEW_SCORES, NotAChoice, parse_choice, parse_selection,
)
from app.terminal import Terminal, TerminalControls


@pytest.mark.parametrize("answer, count, number", [("1", 2, 1), (" 2 ", 2, 2), ("6", 6, 6), ("\t3\n", 6, 3),
                                                   ("01", 2, 1)])
def test_r9_1_a_menu_answer_is_one_offered_number(answer, count, number):
    assert parse_choice(answer, count) == number


@pytest.mark.parametrize("answer", ["", " ", "0", "3", "-1", "+1", "1.0", "one", "1,2", "１", "²", "1 2",
                                    "99999999999999999999999", "\x00", "é"])
def test_r9_1_anything_else_is_not_a_choice_and_gets_a_short_message(answer):
    with pytest.raises(NotAChoice) as error:
        parse_choice(answer, 2)
    assert "1 to 2" in str(error.value)


@pytest.mark.parametrize("answer, numbers", [
    ("1,4,5", [1, 4, 5]),
    ("(1,4,5)", [1, 4, 5]),
    (" ( 1 , 4 , 5 ) ", [1, 4, 5]),
    ("5,1,4", [5, 1, 4]),
    ("3", [3]),
    ("(3)", [3]),
    ("(3,)", [3]),
    ("10", [10]),
])
def test_r5_5_selection_is_numbers_separated_by_commas(answer, numbers):
    assert parse_selection(answer, 10) == numbers


@pytest.mark.parametrize("answer", [
    "", "  ", "()", ",", "(,)", "1,,2", "a", "1,a", "1;2", "1 2", "0", "11", "1,11", "-1", "1,1", "(1,4,1)",
    "((1,2))", "(1,2", "1,2)", "[1,2]", "1.5", "２", "1,,",
])
def test_r5_5_malformed_selection_is_not_a_selection(answer):
    with pytest.raises(NotAChoice) as error:
        parse_selection(answer, 10)
    assert str(error.value)


def test_r5_5_repeated_number_message_names_it():
    with pytest.raises(NotAChoice) as error:
        parse_selection("2,3,2", 5)
    assert "2" in str(error.value) and "twice" in str(error.value)


def test_r9_2_menu_f_numbers_follow_the_sorted_hand():
    hand = Hand(cards("AP 2C KD 3C TS 9H 2P AC 5S 7D"))
    assert str(hand) == "2C 3C AC 7D KD 9H 5S TS 2P AP"
    chosen = [hand.card_at(n).code for n in parse_selection("(1,2,3)", len(hand))]
    assert chosen == ["2C", "3C", "AC"]
    assert hand.card_at(parse_choice("10", len(hand))).code == "AP"  # R5.6 discard by number


def test_r9_2_the_terminal_menu_f_lists_the_hand_in_suit_then_value_order_and_reads_those_numbers(tmp_path):
    """R9.2: the terminal shows Menu F as the hand sorted by suit (C D H S P) then value, numbered
    from 1, and a selection's numbers pick the cards listed under them (R5.5)."""
    game = deal(NAMES2, "5H 6H 7H 2C 5C 9C 3D 8D JS 6P", "3C 6C TC 4D 9D AH 5S 8S QS 7P", discard="AP",
                stock="KC")
    game.apply(0, Draw(STOCK))
    stdout = io.StringIO()
    terminal = Terminal(stdin=io.StringIO("1,5,11\n"), stdout=stdout, folder=str(tmp_path))
    chosen = TerminalControls(terminal).choose_lay_down(game, 0)
    listed = re.findall(r"^(\d+)\. (\S\S) ", stdout.getvalue(), flags=re.M)
    assert [code for _, code in listed] == "2C 5C 9C KC 3D 8D 5H 6H 7H JS 6P".split()
    assert [number for number, _ in listed] == [str(n) for n in range(1, 12)]
    assert hand_codes(game, 0) == "2C 5C 9C KC 3D 8D 5H 6H 7H JS 6P"
    assert [c.code for c in chosen] == ["2C", "3D", "6P"]


def test_r9_menu_wording_and_order():
    assert MENU_A == ("View scores", "Play 2-player game", "Play 3-player game",
                      "Play 2-player game with stacked deck", "Play 3-player game with stacked deck", "Quit")
    assert MENU_B == ("New player", "Returning player")
    assert MENU_D == ("Draw from stock pile", "Draw from discard pile")
    assert MENU_E == ("Play down cards", "Discard")
    assert GAME_OPTIONS == {2: (2, False), 3: (3, False), 4: (2, True), 5: (3, True)}
    assert (VIEW_SCORES, QUIT) == (1, 6)


@pytest.mark.parametrize("answer", ["1" * 5000, "9" * 4301, " " + "2" * 10000 + " ", "1234567890"])
def test_r9_1_very_long_numbers_are_not_a_choice_and_do_not_crash(answer):
    with pytest.raises(NotAChoice):
        parse_choice(answer, 6)
    with pytest.raises(NotAChoice):
        parse_selection(answer, 10)
    with pytest.raises(NotAChoice):
        parse_selection(f"1,{answer.strip()}", 10)


def test_r9_1_leading_zeros_still_read_as_the_number():
    assert parse_choice("0" * 5000 + "2", 2) == 2
    assert parse_selection("(" + "0" * 5000 + "3, 01)", 10) == [3, 1]
