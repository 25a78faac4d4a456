"""T8: the house rules a table of 21 may play by, each default the rule book's rule."""

from __future__ import annotations

import pytest
from twentyone_helpers import BANNER, FILE_PROMPT, play_here, stacked

from app.core.protocol import OptionError
from app.games.twentyone import DEFINITION
from app.games.twentyone.actions import Hit, Stay


def game(*front: str, names=("Ann",), **options):
    return DEFINITION.new_state(list(names), options={"rounds": 3, **options}, seed=0, stacked_deck=stacked(*front))


def test_t8_every_house_rule_defaults_to_the_rule_book_and_is_numbered():
    rules = [o for o in DEFINITION.options if o.house]
    assert [o.rule for o in rules] == ["T8.1", "T8.2", "T8.3", "T8.4", "T8.5"]
    assert DEFINITION.house_rules(DEFINITION.validate_options({})) == []


def test_t8_1_an_ace_counts_11_when_that_does_not_go_over():
    # Ann: 9S AD = 10 by T1.2, 20 with the ace as 11; the dealer 5C and 8H (hidden), then 2S.
    high = game("9S", "5C", "AD", "8H", "5D", aces="eleven")
    assert high.hand_value(0) == 20
    high.apply(0, Hit())  # 9S AD 5D: 25 with the ace as 11, so the ace counts 1: 15
    assert high.hand_value(0) == 15 and high.status[0] == "to play"
    rule_book = game("9S", "5C", "AD", "8H")
    assert rule_book.hand_value(0) == 10  # T1.2


def test_t8_1_21_on_the_deal_wins_at_once():
    high = game("AS", "5C", "KD", "8H", aces="eleven")
    assert high.results_now[0] == "won" and high.status[0] == "21" and high.to_move() is None
    assert any("natural 21" in line["text"] for line in high.log)
    rule_book = game("AS", "5C", "KD", "8H")
    assert rule_book.to_move() == 0 and rule_book.hand_value(0) == 11


def test_t8_2_the_dealer_stands_on_the_chosen_value():
    # Ann stays on 20 (TS QS); the dealer holds 9C 7H = 16, then 2D = 18.
    low = game("TS", "9C", "QS", "7H", "2D", dealer_stands_on="16")
    low.apply(0, Stay())
    assert low.table.dealer.hand_value == 16 and low.results_now[0] == "won"
    rule_book = game("TS", "9C", "QS", "7H", "2D")
    rule_book.apply(0, Stay())
    assert rule_book.table.dealer.hand_value == 18  # T3.4: hits 16


def test_t8_3_the_dealer_hits_a_soft_17_only_with_aces_high():
    # Ann stays on 20; the dealer holds AC 6H: soft 17, then 3D: 20.
    soft = game("TS", "AC", "QS", "6H", "3D", aces="eleven", dealer_hits_soft_17="1")
    soft.apply(0, Stay())
    assert soft.table.dealer.hand_value == 20 and soft.results_now[0] == "tied"
    stands = game("TS", "AC", "QS", "6H", "3D", aces="eleven")
    stands.apply(0, Stay())
    assert stands.table.dealer.hand_value == 17 and stands.results_now[0] == "won"
    with pytest.raises(OptionError):
        game("TS", "AC", "QS", "6H", dealer_hits_soft_17="1")  # aces always 1: no soft hand


def test_t8_4_five_cards_without_going_over_win():
    charlie = game("2S", "TC", "3S", "7H", "AD", "2D", "4C", five_card_charlie="on")
    charlie.apply(0, Hit())
    charlie.apply(0, Hit())
    assert charlie.to_move() == 0
    charlie.apply(0, Hit())  # 2S 3S AD 2D 4C = 12, five cards
    assert charlie.status[0] == "five cards" and charlie.results_now[0] == "won" and charlie.to_move() is None
    assert DEFINITION.from_dict(charlie.to_dict()).status[0] == "five cards"
    rule_book = game("2S", "TC", "3S", "7H", "AD", "2D", "4C")
    for _ in range(3):
        rule_book.apply(0, Hit())
    assert rule_book.to_move() == 0  # plays on


def test_t8_5_ties_go_to_the_dealer():
    to_dealer = game("TS", "TC", "8S", "8H", ties="dealer")
    to_dealer.apply(0, Stay())
    assert to_dealer.results_now[0] == "lost"
    assert any(line["text"] == "Dealer wins round 1!" for line in to_dealer.log)
    rule_book = game("TS", "TC", "8S", "8H")
    rule_book.apply(0, Stay())
    assert rule_book.results_now[0] == "tied"  # T3.4


def test_t8_house_rules_survive_saving_and_old_games_read_as_the_rule_book():
    saved = game("9S", "5C", "AD", "8H", aces="eleven", ties="dealer").to_dict()
    again = DEFINITION.from_dict(saved)
    assert again.hand_value(0) == 20 and again.options["ties"] == "dealer"
    old = dict(saved, options={"rounds": 3})
    assert DEFINITION.from_dict(old).hand_value(0) == 10


def test_t8_the_terminal_takes_the_house_rules_and_says_them(tmp_path):
    (tmp_path / "deck.txt").write_text("".join(card.code + "\n" for card in stacked("9S", "5C", "AD", "8H")))
    status, lines = play_here(tmp_path, ["deck.txt", "s", "n"], "--aces", "eleven", "--ties", "dealer")
    assert status == 0
    assert lines[3] == "House rules: Aces count: 1 or 11; Ties: The dealer wins."
    assert "Player's hand:[ 9S ][ AD ], value = 20" in lines
    status, plain = play_here(tmp_path, ["deck.txt", "s", "n"])
    assert plain[:4] == BANNER + [FILE_PROMPT + "deck.txt"]  # T6.1: the rule book's game, word for word
