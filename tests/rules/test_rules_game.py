"""R4 (a round), R5 (a turn), R7.1-R7.3 (scoring) and the stalemate decision, through Game."""

import json
import re
from collections import Counter

import pytest
from rules_test_helpers import (
    NAMES2, NAMES3, card, cards, deal, draw_and_discard, go_out_quickly, hand_codes, play_turn, quick_game, rebuilt,
)

from app.games.mason import (
    DISCARD_PILE, DRAW_PHASE, FULL_DECK, GAME_OVER, PLAY_PHASE, ROUND_OVER, STOCK, BadSelection, CardNotInHand, Discard,
    Draw, GameIsOver, IllegalAction, LayDown, LayDownRefused, NextRound, NotYourTurn, PileEmpty, WrongPhase,
)
from app.games.mason.actions import action_from_dict
from app.games.mason.cards import points_of
from app.games.mason.state import STALL_REBUILDS

CODE = re.compile(r"\b[2-9TJQKA][CDHSP]\b")

H1 = "2C 5C 9C 3D 8D KH 4S 7S JS 6P"
H2 = "3C 6C TC 4D 9D AH 5S 8S QS 7P"
H3 = "4C 7C JC 5D TD 2H 6S 9S KS 8P"
H1R = "5H 6H 7H 2C 5C 9C 3D 8D JS 6P"  # H1 with a run of hearts instead of KH 4S 7S
CLUBS = "2C 3C 4C 5C 6C 7C 8C 9C TC JC"  # a 10-card run: goes out at once
H2B = "4D 9D AH 5S 8S QS 7P 2H KD 3H"  # 73 points, no clubs
H3B = "5D TD 6S 9S KS 8P 4H JH QP 2P"  # 74 points, no clubs


def refused_unchanged(game, seat, action, error=IllegalAction):
    """Apply an action that must be refused; check it changed nothing (R5, Game.apply)."""
    before = game.to_dict()
    with pytest.raises(error) as caught:
        game.apply(seat, action)
    assert game.to_dict() == before
    return caught.value


# -- R4 a round ---------------------------------------------------------------------------------

@pytest.mark.parametrize("names", [NAMES2, NAMES3])
def test_r4_1_a_game_is_exactly_three_rounds(names):
    game = quick_game(names)
    for round_number in (1, 2, 3):
        assert game.round_number == round_number
        outcome = go_out_quickly(game)[-1]
        assert outcome.round_over
        if round_number < 3:
            assert game.phase == ROUND_OVER and not outcome.game_over
            game.apply(None, NextRound())
    assert game.phase == GAME_OVER and game.is_over()
    assert len(game.round_scores) == 3
    refused_unchanged(game, None, NextRound(), GameIsOver)
    refused_unchanged(game, game.turn, Draw(STOCK), GameIsOver)


def test_r4_2_deal_ten_each_in_seat_order_then_one_face_up_then_the_stock():
    game = deal(NAMES3, H1, H2, H3, discard="AP", stock="QP KP")
    for seat, hand in enumerate((H1, H2, H3)):
        assert set(game.players[seat].hand.cards) == set(cards(hand))
        assert len(game.players[seat].hand) == 10
    assert game.discard == [card("AP")]
    assert game.stock[:2] == cards("QP KP")
    assert len(game.stock) == 65 - 31
    assert game.players[0].hand.laid_down == []


def test_r4_2_seat_one_gets_the_first_ten_even_when_another_seat_starts():
    game = quick_game(NAMES3)
    go_out_quickly(game)
    game.apply(None, NextRound())
    assert game.turn == 1  # seat 2 starts round 2 ...
    assert hand_codes(game, 0) == "2C 3C 4C 5C 6C 7C 8C 9C TC JC"  # ... but seat 1 was dealt first
    assert game.discard == [card("2S")]


@pytest.mark.parametrize("names, starters", [(NAMES2, [0, 1, 0]), (NAMES3, [0, 1, 2])])
def test_r4_3_round_starting_seats(names, starters):
    game = quick_game(names)
    seen = []
    for round_number in (1, 2, 3):
        seen.append(game.turn)
        assert game.starting_seat(round_number) == game.turn
        assert game.round_log()[0]["text"].endswith(f"{names[game.turn]} starts.")
        go_out_quickly(game)
        if round_number < 3:
            game.apply(None, NextRound())
    assert seen == starters


def test_r4_3_turns_go_in_seat_order_wrapping_around():
    game = quick_game(NAMES3)
    go_out_quickly(game)
    game.apply(None, NextRound())  # round 2 starts with seat 2 (index 1)
    order = []
    for _turn in range(4):
        order.append(game.turn)
        draw_and_discard(game)
    assert order == [1, 2, 0, 1]


def test_r4_4_a_view_shows_only_the_own_hand():
    game = deal(NAMES3, H1, H2, H3, discard="AP", stock="QP KP")
    for seat in range(3):
        view = game.view(seat)
        assert view["hand"] == cards_codes(game.players[seat].hand.cards)
        shown = set(CODE.findall(json.dumps(view)))
        for other in range(3):
            if other != seat:
                assert not shown & {c.code for c in game.players[other].hand.cards}
        assert not shown & {c.code for c in game.stock}  # nor the stock
        assert view["discard_top"] == "AP"
        assert view["stock_size"] == 34
        assert [p["hand_size"] for p in view["players"]] == [10, 10, 10]
    spectator = game.view(None)
    assert spectator["hand"] is None
    assert set(CODE.findall(json.dumps(spectator))) == {"AP"}


def cards_codes(items):
    return [c.code for c in items]


def test_r4_4_a_stock_draw_is_seen_only_by_the_drawer_and_sets_by_everyone():
    game = deal(NAMES2, H1R, H2, discard="AP", stock="KP")
    game.apply(0, Draw(STOCK))
    game.apply(0, LayDown(tuple(cards("5H 6H 7H"))))
    mine, theirs = game.view(0), game.view(1)
    assert mine["drawn"] == "KP" and "KP" in mine["hand"]
    assert "KP" not in CODE.findall(json.dumps(theirs))
    assert theirs["drawn"] is None
    assert theirs["players"][0]["sets"] == [{"kind": "run", "cards": ["5H", "6H", "7H"]}]
    assert theirs["players"][0]["hand_size"] == 8


# -- R5 a turn ----------------------------------------------------------------------------------

def test_r5_1_stock_gives_its_top_and_the_discard_pile_its_face_up_card():
    game = deal(NAMES2, H1, H2, discard="AP", stock="QP KP")
    out = game.apply(0, Draw(STOCK))
    assert out.drawn == card("QP") and card("QP") in game.players[0].hand
    assert game.stock[0] == card("KP")
    assert game.phase == PLAY_PHASE
    game.apply(0, Discard(card("2C")))
    out = game.apply(1, Draw(DISCARD_PILE))
    assert out.drawn == card("2C") and card("2C") in game.players[1].hand
    assert game.discard == [card("AP")]


def test_r5_1_menu_d_choice_1_is_the_stock_and_2_the_discard_pile():
    """Menu D's numbers as ``legal()`` gives them to the tables: 1 draws the stock's top card, 2
    the discard pile's face-up card, named on its choice. (The terminal reads its own Menu D
    from MENU_D; tests/terminal pins it.)"""
    game = deal(NAMES2, H1, H2, discard="AP", stock="QP KP")
    menu = {move.number: move for move in game.legal(0)}
    assert sorted(menu) == [1, 2] and {move.menu for move in menu.values()} == {"Menu D"}
    assert "AP" in menu[2].label
    assert action_from_dict({"action": menu[1].action}) == Draw(STOCK)
    assert action_from_dict({"action": menu[2].action}) == Draw(DISCARD_PILE)
    game.apply(0, action_from_dict({"action": menu[2].action}))
    assert card("AP") in game.players[0].hand
    assert game.discard == [] and game.stock[0] == card("QP")


def test_r5_1_an_unknown_pile_is_refused():
    game = deal(NAMES2, H1, H2, discard="AP")
    refused_unchanged(game, 0, Draw("table"))


def test_r5_2_empty_stock_is_rebuilt_top_discard_stays_oldest_discard_on_top():
    game = deal(NAMES2, H1, H2, discard="AP")
    discarded = []
    while game.stock:
        discarded.append(draw_and_discard(game)[-1].action.card)
    assert len(discarded) == 44
    before_discard = list(game.discard)
    assert before_discard == [card("AP")] + discarded
    out = game.apply(game.turn, Draw(STOCK))
    assert out.drawn == card("AP")  # the oldest discard was the top of the new stock
    assert game.discard == [discarded[-1]]  # the top discard stayed where it was
    assert game.stock == discarded[:-1]
    assert any("ran out" in event["text"] for event in out.events)
    assert game.card_locations() == Counter(FULL_DECK)


def _empty_stock_single_discard(game):
    """A state where the stock is empty and the discard pile holds one card: the stock cards are
    moved into seat 2's hand (hand sizes are not part of what is being tested)."""
    def change(data):
        data["players"][1]["hand"] += data["stock"]
        data["stock"] = []
    return rebuilt(game, change)


def test_r5_3_empty_stock_that_cannot_be_rebuilt_is_refused_and_asked_again():
    game = _empty_stock_single_discard(deal(NAMES2, H1, H2, discard="AP"))
    assert not game.can_draw(STOCK) and game.can_draw(DISCARD_PILE)
    assert [move.action for move in game.legal(0)] == ["draw_discard"]  # Menu D offers the discard pile only
    error = refused_unchanged(game, 0, Draw(STOCK), PileEmpty)
    assert str(error)
    assert game.phase == DRAW_PHASE  # asked again: the same seat still has to draw
    out = game.apply(0, Draw(DISCARD_PILE))
    assert out.drawn == card("AP")


def test_r5_3_an_empty_discard_pile_cannot_give_a_card():
    game = deal(NAMES2, H1, H2, discard="AP")
    game = rebuilt(game, lambda d: (d["players"][1]["hand"].append(d["discard"].pop())))
    assert not game.can_draw(DISCARD_PILE)
    refused_unchanged(game, 0, Draw(DISCARD_PILE), PileEmpty)


def test_r5_4_one_draw_per_turn_even_after_lay_down_attempts():
    game = deal(NAMES2, H1R, H2, discard="AP")
    refused_unchanged(game, 0, Discard(card("2C")), WrongPhase)  # must draw first
    refused_unchanged(game, 0, LayDown(tuple(cards("5H 6H 7H"))), WrongPhase)
    game.apply(0, Draw(STOCK))
    refused_unchanged(game, 0, Draw(STOCK), WrongPhase)
    refused_unchanged(game, 0, LayDown(tuple(cards("3D 8D"))), LayDownRefused)
    assert game.phase == PLAY_PHASE
    refused_unchanged(game, 0, Draw(DISCARD_PILE), WrongPhase)
    game.apply(0, LayDown(tuple(cards("5H 6H 7H"))))
    assert game.phase == PLAY_PHASE  # Menu E again
    refused_unchanged(game, 0, Draw(STOCK), WrongPhase)


def test_r5_5_empty_or_repeated_selection_is_not_a_selection():
    game = deal(NAMES2, H1, H2, discard="AP")
    game.apply(0, Draw(STOCK))
    refused_unchanged(game, 0, LayDown(()), BadSelection)
    refused_unchanged(game, 0, LayDown(tuple(cards("2C 2C 5C"))), BadSelection)


def test_r5_5_cards_not_in_the_hand_cannot_be_laid_down():
    game = deal(NAMES2, H1, H2, discard="AP")
    game.apply(0, Draw(STOCK))
    refused_unchanged(game, 0, LayDown(tuple(cards("3C 4C 5C"))), CardNotInHand)  # 3C is seat 2's


def test_r5_5_refused_selection_stays_in_the_hand_with_a_reason():
    game = deal(NAMES2, H1, H2, discard="AP")
    game.apply(0, Draw(STOCK))
    error = refused_unchanged(game, 0, LayDown(tuple(cards("2C 5C 9C"))), LayDownRefused)
    assert "2C 5C 9C" in str(error)
    assert {c.code for c in cards("2C 5C 9C")} <= set(hand_codes(game, 0).split())


def test_r5_6_discard_goes_face_up_and_the_turn_passes_drawn_card_allowed():
    game = deal(NAMES2, H1, H2, discard="AP", stock="QP")
    game.apply(0, Draw(STOCK))
    out = game.apply(0, Discard(card("QP")))  # the card just drawn
    assert game.discard[-1] == card("QP")
    assert card("QP") not in game.players[0].hand
    assert game.turn == 1 and game.phase == DRAW_PHASE
    assert out.events[-1]["cards"] == ["QP"]


def test_r5_6_only_an_own_card_can_be_discarded_and_only_on_ones_turn():
    game = deal(NAMES2, H1, H2, discard="AP")
    refused_unchanged(game, 1, Draw(STOCK), NotYourTurn)
    game.apply(0, Draw(STOCK))
    refused_unchanged(game, 0, Discard(card("3C")), CardNotInHand)
    refused_unchanged(game, 1, Discard(card("3C")), NotYourTurn)
    refused_unchanged(game, None, Discard(card("2C")), NotYourTurn)


def test_r5_7_going_out_by_laying_down_needs_no_discard():
    game = deal(NAMES2, CLUBS, H2B, discard="AP", stock="QC")
    play_turn(game, 0, draw=STOCK)
    out = game.apply(0, LayDown(tuple(cards("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC"))))
    assert out.round_over and out.went_out == 0
    assert game.phase == ROUND_OVER and game.went_out == 0
    assert len(game.players[0].hand) == 0
    assert game.discard == [card("AP")]  # nothing was discarded
    refused_unchanged(game, 0, Discard(card("AP")), WrongPhase)
    refused_unchanged(game, 1, Draw(STOCK), WrongPhase)


def test_r5_7_going_out_by_discarding_the_last_card():
    game = deal(NAMES2, CLUBS, H2B, discard="AP", stock="6D")
    outs = play_turn(game, 0, draw=STOCK, lay=["2C 3C 4C 5C 6C 7C 8C 9C TC JC"])
    assert not outs[-1].round_over and game.phase == PLAY_PHASE
    out = game.apply(0, Discard(card("6D")))
    assert out.round_over and out.went_out == 0
    assert game.phase == ROUND_OVER
    assert game.discard[-1] == card("6D")


def test_r5_7_round_end_waits_for_next_round():
    game = quick_game(NAMES2)
    go_out_quickly(game)
    refused_unchanged(game, 1, Draw(STOCK), WrongPhase)
    game.apply(1, NextRound())
    refused_unchanged(game, game.turn, NextRound(), WrongPhase)  # only between rounds


# -- R7.1 - R7.3 scoring ----------------------------------------------------------------------------

def test_r7_1_the_others_add_their_hand_points_the_one_who_went_out_adds_zero():
    game = deal(NAMES3, CLUBS, H2B, H3B, discard="AP", stock="6D")
    play_turn(game, 0, draw=STOCK, lay=[CLUBS], discard="6D")
    expected = [0, points_of(cards(H2B)), points_of(cards(H3B))]
    assert expected == [0, 73, 74]
    assert game.round_scores == [expected]
    assert [p.score for p in game.players] == expected
    assert [p["round_points"] for p in game.view(None)["players"]] == [[e] for e in expected]


def test_r7_1_scores_add_up_over_the_rounds():
    game = quick_game(NAMES2)
    for round_number in (1, 2, 3):
        go_out_quickly(game)
        if round_number < 3:
            game.apply(None, NextRound())
    assert game.round_scores == [[0, 64], [64, 0], [0, 64]]
    assert [p.score for p in game.players] == [64, 128]


def test_r7_3_lowest_game_score_wins():
    game = quick_game(NAMES2)
    for round_number in (1, 2, 3):
        assert game.winners() == []  # nobody wins before the end
        go_out_quickly(game)
        if round_number < 3:
            game.apply(None, NextRound())
    assert game.winners() == [0]
    assert game.view(1)["winners"] == [0]


def test_r7_3_players_tied_for_lowest_all_win():
    game = quick_game(NAMES3)
    for round_number in (1, 2, 3):
        go_out_quickly(game)
        if round_number < 3:
            game.apply(None, NextRound())
    assert [p.score for p in game.players] == [128, 128, 180]
    assert game.winners() == [0, 1]


def test_r7_3_three_way_tie_all_win():
    game = quick_game(NAMES3)
    go_out_quickly(game)
    game = rebuilt(game, lambda d: (d.update(phase=GAME_OVER, round=3),
                                    [p.update(score=50) for p in d["players"]]))
    assert game.winners() == [0, 1, 2]


# -- the project's stalemate decision (STALL_REBUILDS, scored as R7.2) ------------------------

def _stall(game):
    rebuilds = 0
    while game.phase not in (ROUND_OVER, GAME_OVER):
        outs = draw_and_discard(game)
        rebuilds += sum("ran out" in e["text"] for out in outs for e in out.events)
    return rebuilds, outs[-1]


def test_stalemate_third_stock_exhaustion_without_lay_down_blocks_the_round_r7_2():
    assert STALL_REBUILDS == 3
    game = deal(NAMES2, H1, H2, discard="AP")
    rebuilds, last = _stall(game)
    assert rebuilds == 2  # the first two exhaustions rebuild the stock ...
    assert last.round_over and last.went_out is None  # ... the third blocks the round
    assert isinstance(last.action, Draw) and last.drawn is None
    assert game.round_turns == [3 * 44]
    # R7.2: every player adds the points in their hand (10 cards each: the block came before a draw)
    assert all(len(p.hand) == 10 for p in game.players)
    expected = [p.hand.hand_point_value() for p in game.players]
    assert game.round_scores == [expected] and [p.score for p in game.players] == expected
    assert all(points > 0 for points in expected)
    assert "blocked" in game.log[-1]["text"]


def test_stalemate_count_restarts_after_a_lay_down():
    game = deal(NAMES2, H1R, H2, discard="AP")
    rebuilds = 0
    while not (game.stall_rebuilds == 2 and game.turn == 0 and game.phase == DRAW_PHASE):
        outs = draw_and_discard(game)
        rebuilds += sum("ran out" in e["text"] for out in outs for e in out.events)
    assert rebuilds == 2
    play_turn(game, 0, draw=STOCK, lay=["5H 6H 7H"], discard="drawn")
    assert game.stall_rebuilds == 0 and game.phase == DRAW_PHASE
    more, last = _stall(game)
    assert more == 2 and last.went_out is None
    assert game.round_scores[-1] == [points_of(game.players[0].hand.cards), points_of(game.players[1].hand.cards)]
