"""Mason Rummy's computer players beside R8's: the easy one (R8.1 and R8.2, a careless discard)
and the strong one (R8.2; R8.1's draw and R8.3's discard weighed against others by playing the
round out).
The generic checks (legal moves, the view alone, the same move for the same position) are in
tests/games/test_strengths.py."""

from __future__ import annotations

from rules_test_helpers import card, deal

from app.games.mason import DISCARD_PILE, STOCK, Discard, Draw
from app.games.mason.bot import choose_computer_discard, computer_draw_source
from app.games.mason.easy import careless_discard
from app.games.mason.strong import StrongBot, read_view, surely_better, worth_taking

AI_HAND = "7H 8H 2C 5C 9C 3D JS 6P KD 4P"
OTHER = "3C 6C TC 4D 9D AH 5S 8S QS 7P"


def test_r8_1_and_more_the_strong_player_takes_a_discard_that_pairs_a_card_of_its_hand():
    """R8.1 takes the stock here (5H makes no meld, no run, fits no set); the strong player takes
    5H: with 5C it is a pair, worth more than its 5 points in keeping."""
    game = deal(["AI", "Bob"], AI_HAND, OTHER.replace("5S", "QH"), discard="5H")
    assert computer_draw_source(game, 0) == STOCK
    assert StrongBot(draws=False).choose(game, 0) == Draw(DISCARD_PILE)
    assert StrongBot().choose(game, 0) == Draw(DISCARD_PILE)  # and the play-outs agree


def test_r8_1_the_strong_player_leaves_an_isolated_high_card_and_takes_what_r8_1_takes():
    game = deal(["AI", "Bob"], AI_HAND, OTHER, discard="QH")
    assert StrongBot(draws=False).choose(game, 0) == Draw(STOCK)  # no pair, no neighbour: worth its 10 points only
    assert StrongBot().choose(game, 0) == Draw(STOCK)
    game = deal(["AI", "Bob"], AI_HAND, OTHER, discard="9H")
    assert StrongBot().choose(game, 0) == Draw(DISCARD_PILE)  # 7H 8H 9H: R8.1's own take


def test_a_card_is_worth_taking_when_kept_for_more_than_its_points_and_far_from_the_discard():
    hand = [card(code) for code in AI_HAND.split()]
    assert worth_taking(hand, card("5H"))  # a pair of fives
    assert worth_taking(hand, card("3P"))  # a three like 3D, and beside 4P
    assert not worth_taking(hand, card("QH"))
    assert not worth_taking(hand, card("AS"))  # 15 points, nothing beside it


def test_r8_3_the_strong_players_discard_is_r8_3s_unless_another_is_surely_better():
    """With one card weighed (R8.3's best) it discards exactly as R8.3 does."""
    game = deal(["AI", "Bob"], AI_HAND, OTHER, discard="QH")
    game.apply(0, Draw(STOCK))
    assert StrongBot(candidates=1).choose(game, 0) == Discard(choose_computer_discard(game, 0))


def test_the_surely_better_choice_needs_a_clear_gain_deal_by_deal():
    first = [0.0, 10.0, -5.0, 3.0, 8.0, 0.0]
    assert surely_better([first, [value + 0.5 for value in first]], 1.0) == 1  # always better: sure
    assert surely_better([first, [value + 20 * (-1) ** index for index, value in enumerate(first)]], 1.0) == 0
    assert surely_better([first, list(first)], 1.0) == 0  # no gain: the rule book's choice
    assert surely_better([first, [v + 1 for v in first], [v + 2 for v in first]], 1.0) == 2  # the largest gain


def test_the_strong_player_reads_who_has_played_and_the_cards_taken_from_the_view():
    game = deal(["AI", "Bob"], AI_HAND, OTHER, discard="9H")
    knowledge = read_view(game.view(0), 0)
    assert knowledge.played == [False, False] and knowledge.pile == [card("9H")]
    game.apply(0, Draw(DISCARD_PILE))
    game.apply(0, Discard(card("KD")))
    knowledge = read_view(game.view(1), 1)
    assert knowledge.played == [True, False]
    assert knowledge.held[0] == {card("9H")} and knowledge.pile == [card("KD")]
    assert card("9H") not in knowledge.unseen() and card("7H") in knowledge.unseen()


def test_the_easy_player_sheds_its_highest_card_keeping_only_pairs():
    hand = [card(code) for code in "5C 5D 7H 8H 9H KD AS".split()]
    assert careless_discard(hand) == card("AS")
    hand = [card(code) for code in "AC AD 7H 8H KD".split()]
    assert careless_discard(hand) == card("KD")  # the aces are a pair: 15 - 12
    hand = [card(code) for code in "7H 8H 9C".split()]
    assert careless_discard(hand) == card("9C")  # half a run is worth nothing to it
