"""R6: melds, runs and the one lay-down judge (R6.3), in judge_lay_down and through Game."""

import pytest
from rules_test_helpers import NAMES2, card, cards, codes, deal, play_turn, set_codes

from app.games.mason import (
    STOCK, CardNotInHand, CardSet, Draw, LayDown, LayDownRefused, LayOffs, NewSet, Refusal, is_meld, is_run,
    judge_lay_down,
)
from app.games.mason.melds import MELD, RUN

OTHER = "2D 3D 4D 9D AH 5P 8P QP 7P KD"  # a hand that plays no part


def sets(*specs):
    """``sets("run 5S 6S 7S", "meld 8C 8D 8H")`` -> CardSets, first laid down first."""
    built = []
    for spec in specs:
        kind, *rest = spec.split()
        built.append(CardSet(kind, cards(" ".join(rest))))
    return built


# -- R6.1 melds, R6.2 runs -------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["8C 8D 8H", "8C 8D 8H 8S", "8C 8D 8H 8S 8P", "AS AC AP"])
def test_r6_1_three_to_five_of_a_value_is_a_meld(text):
    assert is_meld(cards(text))


@pytest.mark.parametrize("text", ["8C 8D", "8C", "8C 8D 9H", "8C 8D 8H 9H", "8C 8C 8D"])
def test_r6_1_not_a_meld(text):
    assert not is_meld(cards(text))


@pytest.mark.parametrize("text", ["5S 6S 7S", "7S 5S 6S", "QS KS AS", "2P 3P 4P 5P 6P 7P 8P 9P TP JP QP KP AP"])
def test_r6_2_same_suit_consecutive_is_a_run(text):
    assert is_run(cards(text))


@pytest.mark.parametrize("text", ["KS AS 2S", "AS 2S 3S", "5S 6S", "5S 6S 8S", "5S 6H 7S", "5H 6S 7S", "5S 6S 7H",
                                  "5S 5S 6S", "5S 6S 6S 7S"])
def test_r6_2_not_a_run(text):
    assert not is_run(cards(text))


def test_r6_1_r6_2_new_meld_and_new_run_are_laid_down_in_front_of_the_player():
    game = deal(NAMES2, "5S 6S 7S 8C 8D 8H 2C 3C 9C JC", OTHER, discard="AD")
    play_turn(game, 0, lay=["8C 8D 8H", "7S 5S 6S"])
    assert set_codes(game, 0) == ["8C 8D 8H", "5S 6S 7S"]
    assert [s.kind for s in game.players[0].hand.laid_down] == [MELD, RUN]
    assert game.players[1].hand.laid_down == []


# -- R6.3 the judge ------------------------------------------------------------------------------

def test_r6_3_rule1_a_meld_or_run_becomes_a_new_set():
    assert judge_lay_down(cards("7S 5S 6S"), []) == NewSet(RUN, tuple(cards("5S 6S 7S")))
    judged = judge_lay_down(cards("8H 8C 8D"), [])
    assert isinstance(judged, NewSet) and judged.kind == MELD and set(judged.cards) == set(cards("8C 8D 8H"))


def test_r6_3_rule1_wins_over_laying_off():
    # 8S 9S TS would all extend the run, but they form a run themselves: a new set (first rule that fits)
    own = sets("run 5S 6S 7S")
    assert judge_lay_down(cards("8S 9S TS"), own) == NewSet(RUN, tuple(cards("8S 9S TS")))


def test_r6_3_card_fitting_run_and_meld_goes_on_run():
    own = sets("meld 8C 8D 8H", "run 5S 6S 7S")  # the meld was laid down first
    assert judge_lay_down(cards("8S"), own) == LayOffs(((card("8S"), 1),))


def test_r6_3_card_fitting_run_and_meld_goes_on_run_in_a_game():
    game = deal(NAMES2, "5S 6S 7S 8C 8D 8H 8S 3C 9C JC", OTHER, discard="AD")
    play_turn(game, 0, lay=["8C 8D 8H", "5S 6S 7S", "8S"])
    assert set_codes(game, 0) == ["8C 8D 8H", "5S 6S 7S 8S"]


@pytest.mark.parametrize("typed", ["8S 9S", "9S 8S"])
def test_r6_3_8s_9s_and_9s_8s_both_extend_5s_6s_7s(typed):
    own = sets("run 5S 6S 7S")
    assert judge_lay_down(cards(typed), own) == LayOffs(((card("8S"), 0), (card("9S"), 0)))
    game = deal(NAMES2, "5S 6S 7S 8S 9S 2C 3C 9C JC KH", OTHER, discard="AD")
    play_turn(game, 0, lay=["5S 6S 7S", typed])
    assert set_codes(game, 0) == ["5S 6S 7S 8S 9S"]


def test_r6_3_cards_extending_both_ends_in_any_typed_order():
    own = sets("run 5S 6S 7S")
    judged = judge_lay_down(cards("9S 3S 8S 4S"), own)
    assert isinstance(judged, LayOffs)
    assert [c.code for c, _ in judged.placements] == ["4S", "3S", "8S", "9S"]  # hand order, repeatedly


def test_r6_3_a_card_that_extends_a_run_after_another_goes_on_the_run_not_the_meld():
    # 9S fits the meld of nines, but once 8S is on the run 9S extends the run: runs come first
    own = sets("meld 9C 9D 9H", "run 5S 6S 7S")
    assert judge_lay_down(cards("9S 8S"), own) == LayOffs(((card("8S"), 1), (card("9S"), 1)))


def test_r6_3_run_laid_down_first_wins_when_a_card_extends_two_runs():
    low, high = "run 5S 6S 7S", "run 9S TS JS"
    assert judge_lay_down(cards("8S"), sets(low, high)) == LayOffs(((card("8S"), 0),))
    assert judge_lay_down(cards("8S"), sets(high, low)) == LayOffs(((card("8S"), 0),))
    assert judge_lay_down(cards("8S"), sets("meld 2C 2D 2H", high, low)) == LayOffs(((card("8S"), 1),))


@pytest.mark.parametrize("first, second, expected", [
    ("5S 6S 7S", "9S TS JS", ["5S 6S 7S 8S", "9S TS JS"]),
    ("9S TS JS", "5S 6S 7S", ["8S 9S TS JS", "5S 6S 7S"]),
])
def test_r6_3_run_laid_down_first_wins_in_a_game(first, second, expected):
    game = deal(NAMES2, "5S 6S 7S 8S 9S TS JS 2C 3C KH", OTHER, discard="AD")
    play_turn(game, 0, lay=[first, second, "8S"])
    assert set_codes(game, 0) == expected


@pytest.mark.parametrize("run, card_code", [("2S 3S 4S", "AS"), ("QS KS AS", "2S")])
def test_r1_1_r6_3_no_lay_off_wraps_past_the_ace(run, card_code):
    """R1.1: aces are high only, so an ace does not go below a run's 2 and a 2 does not go above
    its ace (R6.3: the card fits no set, and the lay-down is refused)."""
    assert not CardSet(RUN, cards(run)).fits(card(card_code))
    assert isinstance(judge_lay_down(cards(card_code), sets(f"run {run}")), Refusal)


def test_r6_3_meld_lay_off():
    assert judge_lay_down(cards("8S 8P"), sets("run 2C 3C 4C", "meld 8C 8D 8H")) == \
        LayOffs(((card("8S"), 1), (card("8P"), 1)))


def test_r6_3_only_own_sets_never_another_players():
    game = deal(NAMES2, "2C 2D 2H 8S KH 3C 9C JC 4D 6D", "5S 6S 7S AH 5P 8P QP 7P KD 9D", discard="AD")
    play_turn(game, 0, lay=["2C 2D 2H"], discard="KH")
    play_turn(game, 1, lay=["5S 6S 7S"], discard="AH")
    game.apply(0, Draw(STOCK))
    before = game.to_dict()
    with pytest.raises(LayDownRefused) as refused:
        game.apply(0, LayDown((card("8S"),)))  # would extend Bob's run, but not Ann's own sets
    assert "8S" in str(refused.value)
    assert game.to_dict() == before
    assert set_codes(game, 1) == ["5S 6S 7S"]
    assert card("8S") in game.players[0].hand


def test_r6_3_single_cards_need_own_sets():
    judged = judge_lay_down(cards("8S"), [])
    assert isinstance(judged, Refusal) and "8S" in judged.reason


def test_r6_3_refused_lay_down_leaves_hand_and_sets_unchanged():
    game = deal(NAMES2, "5S 6S 7S 8S 4H 2C 3C 9C JC KH", OTHER, discard="AD")
    play_turn(game, 0, lay=["5S 6S 7S"])
    hand_before, sets_before, state_before = list(game.players[0].hand.cards), set_codes(game, 0), game.to_dict()
    for selection in ("8S 4H", "2C 3C", "4H", "2C 9C JC"):
        with pytest.raises(LayDownRefused) as refused:
            game.apply(0, LayDown(tuple(cards(selection))))
        assert str(refused.value).strip()
        assert refused.value.code == "lay_down_refused"
        assert game.players[0].hand.cards == hand_before
        assert set_codes(game, 0) == sets_before
        assert game.to_dict() == state_before


def test_r6_3_all_or_nothing_reason_names_the_unplaced_card():
    judged = judge_lay_down(cards("8S 4D"), sets("run 5S 6S 7S"))
    assert isinstance(judged, Refusal)
    assert "4D" in judged.reason


def test_r6_3_judge_is_pure():
    own = sets("run 5S 6S 7S", "meld 9C 9D 9H")
    before = [s.to_dict() for s in own]
    judge_lay_down(cards("8S 9S 4S 3S 9P"), own)
    judge_lay_down(cards("8S 2D"), own)
    assert [s.to_dict() for s in own] == before


# -- R6.4 sets only grow ------------------------------------------------------------------------

def test_r6_4_sets_are_never_rearranged_or_split():
    game = deal(NAMES2, "5S 6S 7S 4S 8S 8C 8D 8H 3C KH", OTHER, discard="AD")
    play_turn(game, 0, lay=["5S 6S 7S", "8C 8D 8H", "4S 8S"])
    assert set_codes(game, 0) == ["4S 5S 6S 7S 8S", "8C 8D 8H"]
    before = game.to_dict()
    for taken in ("5S 6S 7S", "8C 8D 8H", "3C 4S"):
        with pytest.raises(CardNotInHand):  # cards down cannot be picked up again
            game.apply(0, LayDown(tuple(cards(taken))))
    assert game.to_dict() == before


def test_r6_4_card_set_add_only_extends_the_ends():
    run = CardSet(RUN, cards("6S 5S 7S"))
    assert codes(run.cards) == "5S 6S 7S"
    run.add(card("4S"))
    run.add(card("8S"))
    assert codes(run.cards) == "4S 5S 6S 7S 8S"
    meld = CardSet(MELD, cards("8C 8D 8H"))
    meld.add(card("8P"))
    assert codes(meld.cards) == "8C 8D 8H 8P"
    assert run.fitting == {card("3S"), card("9S")} and meld.fitting == {card("8S")}
