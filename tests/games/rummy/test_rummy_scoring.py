"""C5: scoring, the rummy bonus, the target score and the statistics."""

from __future__ import annotations

import pytest
from rummy_test_helpers import DECKS, RUMMY, act, deal, situation

from app.core.autoplay import autoplay
from app.core.protocol import GameIsOver, IllegalAction, OptionError

QUICK = "AC 2C 3C 4C 5D 5H 5S 9S TS JS"
HIGH = "KC QD JH TD 9H 8C KD QH 7S 6H"  # 90 points, no meld
FIFTY = "KC QD 8C 6D 4H 3S 2H AD 4D 2S"  # 50 points, no meld
BOB_MELDS = "KC KH KS 6D 7D 8D 8C 8H 8S AS"  # 76 points; melds: the kings, the eights, 6D 7D 8D


def go_out(game, seat, draw="stock"):
    act(game, seat, "draw", source=draw)
    for meld in ("AC 2C 3C 4C", "5D 5H 5S", "9S TS JS"):
        act(game, seat, "meld", *meld.split())
    last = game.players[seat].hand.cards()
    if last:
        return act(game, seat, "discard", last[0].id)
    return None


def test_c5_1_the_player_who_went_out_scores_the_cards_left_in_the_other_hands():
    game = situation(["9C 9D 9H 2S", "KC QD", "AS 5H 7D"], opened=[True, False, False], names=["Ann", "Bob", "Cy"])
    act(game, 0, "meld", "9C", "9D", "9H")
    outcome = act(game, 0, "discard", "2S")
    assert outcome.round_over
    assert game.hand_results[-1]["points"] == [20 + 13, 0, 0]  # K Q = 20, A 5 7 = 13
    assert [p.score for p in game.players] == [33, 0, 0]
    assert game.hand_lines(0) == ["Hand 1:", "Ann: 33 points, total 33", "Bob: 0 points, total 0",
                                  "Cy: 0 points, total 0"]


def test_c5_2_rummy_scores_double():
    game = deal(["Ann", "Bob"], [QUICK, HIGH], "7H", "2D")
    go_out(game, 0)
    assert game.hand_results[-1] == {"hand": 1, "went_out": 0, "points": [180, 0], "rummy": True, "void": False}
    assert game.players[0].rummies == 1


def test_c5_2_the_bonus_can_be_switched_off():
    game = deal(["Ann", "Bob"], [QUICK, HIGH], "7H", "2D", rummy_bonus=False)
    go_out(game, 0)
    assert game.hand_results[-1]["points"] == [90, 0]
    assert game.hand_results[-1]["rummy"] is True  # still a rummy, counted in the statistics
    assert RUMMY.validate_options({})["rummy_bonus"] is True  # on by default


def test_c5_2_refused_attempts_in_earlier_turns_do_not_count():
    game = deal(["Ann", "Bob"], [QUICK, HIGH], "7H", "2D 6C 8D")
    act(game, 0, "draw", source="stock")
    with pytest.raises(IllegalAction):
        act(game, 0, "meld", "2D", "5D", "9S")
    act(game, 0, "discard", "2D")
    act(game, 1, "draw", source="stock")
    act(game, 1, "discard", "6C")
    go_out(game, 0)  # draws 8D and goes out in this one turn
    assert game.hand_results[-1]["rummy"] is True
    assert game.hand_results[-1]["points"] == [2 * 90, 0]


def test_c5_2_a_meld_or_lay_off_in_an_earlier_turn_is_no_rummy():
    game = situation(["5C 9H 9D 9S KH", "KC QD JH"], melds=[(1, "2C 3C 4C")], phase="draw", stock="AD 8H 6C")
    act(game, 0, "draw", source="stock")  # AD
    act(game, 0, "lay_off", "5C", meld="1")  # a lay-off in turn 1
    act(game, 0, "discard", "AD")
    act(game, 1, "draw", source="stock")  # 8H
    act(game, 1, "discard", "8H")
    act(game, 0, "draw", source="stock")  # 6C
    act(game, 0, "lay_off", "6C", meld="1")
    act(game, 0, "meld", "9H", "9D", "9S")
    act(game, 0, "discard", "KH")
    assert game.hand_results[-1]["rummy"] is False
    assert game.hand_results[-1]["points"] == [30, 0]  # K Q J, not doubled
    for opened, rummy in ((True, False), (False, True)):  # melded in an earlier turn, or not
        other = situation(["9H 9D 9S", "KC QD JH"], phase="draw", stock="KH", opened=[opened, False])
        act(other, 0, "draw", source="stock")
        act(other, 0, "meld", "9H", "9D", "9S")
        act(other, 0, "discard", "KH")
        assert other.hand_results[-1]["rummy"] is rummy
        assert other.hand_results[-1]["points"] == [60 if rummy else 30, 0]


def test_c5_2_a_meld_in_an_earlier_hand_does_not_spoil_a_rummy():
    """C5.2: "nothing in their earlier turns of the hand": Bob melds in hand 1, and going out in
    his first turn of hand 2 is a rummy. The stacked deck deals hand 2 from Bob (C2.4), so he
    holds the quick hand then, and draws 2D first as Ann did in hand 1."""
    game = deal(["Ann", "Bob"], [QUICK, BOB_MELDS], "7H", "2D KD 6C")
    act(game, 0, "draw", source="stock")
    act(game, 0, "discard", "2D")
    act(game, 1, "draw", source="stock")
    act(game, 1, "meld", "KC", "KH", "KS")
    act(game, 1, "discard", "KD")
    go_out(game, 0)
    assert game.hand_results[-1]["went_out"] == 0 and not game.is_over()
    act(game, None, "deal")
    assert game.to_move() == 1
    go_out(game, 1)
    assert game.hand_results[-1] == {"hand": 2, "went_out": 1, "points": [0, 2 * 76], "rummy": True,
                                     "void": False}


def test_c5_3_the_game_ends_when_a_total_reaches_the_target():
    game = deal(["Ann", "Bob"], [QUICK, FIFTY], "7H", "2D", rummy_bonus=False, target=50)
    outcome = go_out(game, 0)
    assert game.players[0].score == 50  # equals the target: that is enough
    assert outcome.game_over and game.is_over() and game.winner == 0
    assert game.to_move() is None and game.legal(None) == [] and game.legal(0) == []
    with pytest.raises(GameIsOver):
        act(game, None, "deal")


def test_c5_3_below_the_target_the_game_goes_on():
    game = deal(["Ann", "Bob"], [QUICK, FIFTY], "7H", "2D", rummy_bonus=False, target=51)
    go_out(game, 0)
    assert not game.is_over() and game.to_move() is None
    assert game.results() == []  # an unfinished game has no results


def test_c5_3_target_option_50_to_500_default_100():
    assert RUMMY.validate_options({})["target"] == 100
    assert RUMMY.validate_options({"target": "50"})["target"] == 50
    chosen = RUMMY.validate_options({"target": "500", "rummy_bonus": "off"})
    assert (chosen["target"], chosen["rummy_bonus"]) == (500, False)
    for bad in ("49", "501", "ten", ""):
        with pytest.raises(OptionError):
            RUMMY.validate_options({"target": bad})


def test_c5_4_statistics_per_name():
    assert [(s.key, s.combine) for s in RUMMY.statistics] == [
        ("games_played", "sum"), ("games_won", "sum"), ("games_lost", "sum"),
        ("best_winning_total", "max"), ("hands_won", "sum"), ("rummies", "sum")]
    game = deal(["Ann", "Bob"], [QUICK, HIGH], "7H", "2D", rummy_bonus=False, target=150)
    go_out(game, 0)  # Ann 90
    act(game, None, "deal")
    go_out(game, 1)  # Bob (dealt Ann's old hand) 90
    act(game, None, "deal")
    go_out(game, 0)  # Ann 180: the game is over
    ann, bob = game.results()
    assert (ann.name, ann.won, ann.score) == ("Ann", True, 180)
    assert dict(ann.figures) == {"games_played": 1, "games_won": 1, "games_lost": 0, "best_winning_total": 180,
                                 "hands_won": 2, "rummies": 2}
    assert (bob.won, bob.score) == (False, 90)
    assert dict(bob.figures) == {"games_played": 1, "games_won": 0, "games_lost": 1, "hands_won": 1, "rummies": 1}
    keys = {stat.key for stat in RUMMY.statistics}
    assert set(ann.figures) <= keys and set(bob.figures) <= keys


def test_decision_an_all_computer_stacked_game_that_can_only_void_ends_with_no_winner():
    """Project decision (the rule book is silent): a stacked deck deals the same hands again
    every cycle of one hand a seat (C8.1, C2.4), and the computer player is deterministic, so
    when a whole cycle of hands is void (C4.2) and every seat is a computer, no one can ever
    score: the game ends there, with no winner."""
    deck = RUMMY.parse_deck((DECKS / "void_hand.deck").read_text())
    game = RUMMY.new_state(["AI"] * 6, stacked_deck=deck)
    autoplay(game, lambda seat: RUMMY.bot, deal_on=True)
    assert game.is_over() and game.winner is None
    assert [r["void"] for r in game.hand_results] == [True] * 6
    results = game.results()
    assert not any(r.won for r in results)
    assert all(dict(r.figures) == {"games_played": 1, "games_won": 0, "games_lost": 0, "hands_won": 0, "rummies": 0}
               for r in results)
    assert RUMMY.from_dict(game.to_dict()).is_over()
    # with one person at the table the same six void hands end nothing: people choose their plays
    data = game.to_dict()
    data["names"][0] = "Ann"
    with pytest.raises(ValueError):
        RUMMY.from_dict(data)
    people = RUMMY.from_dict(dict(data, phase="between_hands"))
    assert not people.replays_for_ever()
    act(people, 0, "deal")
    assert people.hand_number == 7 and not people.is_over()
