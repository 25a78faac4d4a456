"""C3 (a turn: draw, melds and lay-offs, the discard and its restriction, going out) and C4
(the stock runs out: turned over once, then a void hand)."""

from __future__ import annotations

import pytest
from rummy_test_helpers import act, deal, hand_codes, meld_codes, situation

from app.core.protocol import IllegalAction, NotYourTurn, WrongPhase
from app.games.rummy.actions import LayOffRefused, MeldRefused, PileEmpty, TakenCardRefused

ANN = "5S 6S 7S 8C 8D 8H 8S QH 2C 4D"
BOB = "9H TH JH 3C 6C KD AS 3D JC 7D"
QUICK = "AC 2C 3C 4C 5D 5H 5S 9S TS JS"
HIGH = "KC QD JH TD 9H 8C KD QH 7S 6H"


def refused(game, seat, name, *codes, error=IllegalAction, **fields) -> str:
    before = game.to_dict()
    with pytest.raises(error) as refusal:
        act(game, seat, name, *codes, **fields)
    assert game.to_dict() == before, "a refusal changes nothing"
    return str(refusal.value)


def test_c3_1_draw_from_the_stock_or_the_discard_pile():
    game = deal(["Ann", "Bob"], [ANN, BOB], "KS", "9C KC")
    assert [m.label for m in game.legal(0)] == ["Draw from stock pile", "Draw from discard pile"]
    assert game.legal(1) == []
    refused(game, 1, "draw", source="stock", error=NotYourTurn)
    refused(game, 0, "discard", "2C", error=WrongPhase)  # draw first
    act(game, 0, "draw", source="stock")
    assert "9C" in hand_codes(game, 0)
    refused(game, 0, "draw", source="discard", error=WrongPhase)  # one draw a turn
    act(game, 0, "discard", "2C")
    act(game, 1, "draw", source="discard")
    assert "2C" in hand_codes(game, 1) and game.taken is not None


def test_c3_2_melds_sets_of_three_or_four_and_runs_of_three_or_more():
    game = deal(["Ann", "Bob"], [ANN, BOB], "KS", "9C KC")
    act(game, 0, "draw", source="stock")
    assert "Meld" in [m.label for m in game.legal(0)]
    message = refused(game, 0, "meld", "8C", "8D", error=MeldRefused)
    assert "3 or more" in message
    message = refused(game, 0, "meld", "7S", "8S", "9C", error=MeldRefused)
    assert "9C is not a spade" in message
    message = refused(game, 0, "meld", "5S", "7S", "8S", error=MeldRefused)
    assert message == "7S does not follow 5S: a run needs consecutive ranks."
    act(game, 0, "meld", "5S", "6S", "7S", "8S")
    act(game, 0, "meld", "8c", "8d", "8h")  # ids in any letter case
    assert meld_codes(game) == ["5S 6S 7S 8S", "8C 8D 8H"]
    assert [(m.owner, m.kind) for m in game.melds] == [(0, "run"), (0, "set")]


def test_c3_2_cards_must_be_the_players_own():
    game = deal(["Ann", "Bob"], [ANN, BOB], "KS", "9C KC")
    act(game, 0, "draw", source="stock")
    assert "not in your hand" in refused(game, 0, "meld", "9H", "TH", "JH")
    assert "twice" in refused(game, 0, "meld", "5S", "5S", "6S")


def lay_off_table():
    """Ann melds 5S 6S 7S (meld 1) and 8C 8D 8H (meld 2) and holds 8S, which fits both."""
    game = deal(["Ann", "Bob"], [ANN, BOB], "KS", "9C KC 2H")
    act(game, 0, "draw", source="stock")
    act(game, 0, "meld", "5S", "6S", "7S")
    act(game, 0, "meld", "8C", "8D", "8H")
    return game


def test_c3_2_a_card_that_fits_two_melds_goes_where_the_player_chooses():
    game = lay_off_table()
    act(game, 0, "lay_off", "8S", meld="2")
    assert meld_codes(game) == ["5S 6S 7S", "8C 8D 8H 8S"]
    other = lay_off_table()
    act(other, 0, "lay_off", "8S", meld=1)
    assert meld_codes(other) == ["5S 6S 7S 8S", "8C 8D 8H"]


def test_c3_2_lay_off_on_any_players_meld():
    game = lay_off_table()
    act(game, 0, "discard", "2C")
    act(game, 1, "draw", source="stock")
    act(game, 1, "meld", "9H", "TH", "JH")
    act(game, 1, "discard", "JC")
    act(game, 0, "draw", source="stock")
    outcome = act(game, 0, "lay_off", "QH", meld="3")
    assert meld_codes(game)[2] == "9H TH JH QH"
    assert game.melds[2].owner == 1  # the meld stays Bob's
    assert outcome.events[0]["text"] == "Ann laid off QH on meld 3, Bob's run: 9H TH JH QH."


def test_c3_2_lay_off_refusals_say_why():
    game = lay_off_table()
    assert "run grows only at its ends" in refused(game, 0, "lay_off", "9C", meld="1", error=LayOffRefused)
    assert "4S or 8S" in refused(game, 0, "lay_off", "9C", meld="1")
    assert "takes only another eight" in refused(game, 0, "lay_off", "9C", meld="2")
    assert "There is no meld 3" in refused(game, 0, "lay_off", "8S", meld="3")
    act(game, 0, "lay_off", "8S", meld="2")
    assert game.melds[1].fits == 0  # a set of four is complete


def test_c3_2_nothing_goes_below_the_ace_or_above_the_king():
    game = deal(["Ann", "Bob"], ["AH 2H 3H QH KH 4C 7C 9D TD 5S", "2C 5C 8C JC 3D 6D JD 4S 8S KS"], "6H", "9C JH")
    act(game, 0, "draw", source="stock")
    act(game, 0, "meld", "AH", "2H", "3H")
    assert "nothing goes below it" in refused(game, 0, "lay_off", "KH", meld="1")
    act(game, 0, "discard", "9C")
    act(game, 1, "draw", source="stock")
    act(game, 1, "discard", "JH")
    act(game, 0, "draw", source="discard")
    act(game, 0, "meld", "JH", "QH", "KH")
    assert meld_codes(game)[1] == "JH QH KH"
    assert game.melds[1].fits & (1 << 26) == 0  # AH does not follow KH


def test_c3_3_the_card_taken_from_the_discard_pile_may_not_be_discarded_this_turn():
    game = deal(["Ann", "Bob"], [QUICK, HIGH], "7H", "2D")
    act(game, 0, "draw", source="discard")
    message = refused(game, 0, "discard", "7H", error=TakenCardRefused)
    assert "7H" in message and "may not discard it this turn" in message
    act(game, 0, "discard", "AC")
    # next turn it is an ordinary card
    act(game, 1, "draw", source="stock")
    act(game, 1, "discard", "KC")
    act(game, 0, "draw", source="stock")
    act(game, 0, "discard", "7H")


def test_c3_3_a_meld_that_would_leave_the_taken_card_alone_is_refused():
    game = deal(["Ann", "Bob"], [QUICK, HIGH], "7H", "2D")
    act(game, 0, "draw", source="discard")
    act(game, 0, "meld", "AC", "2C", "3C", "4C")
    act(game, 0, "meld", "5D", "5H", "5S")
    message = refused(game, 0, "meld", "9S", "TS", "JS", error=TakenCardRefused)
    assert message == ("Playing 9S TS JS would leave 7H, the card you took from the discard pile this turn, "
                       "as your only card, and you may not discard it this turn.")
    act(game, 0, "discard", "JS")  # the way out: discard another card
    assert hand_codes(game, 0) == "7H 9S TS"  # hand order: hearts before spades


def test_c3_3_a_lay_off_that_would_leave_the_taken_card_alone_is_refused():
    game = situation(["5C 7H", "KC QD JH"], melds=[(1, "2C 3C 4C")], discard="8D", taken="7H")
    message = refused(game, 0, "lay_off", "5C", meld="1", error=TakenCardRefused)
    assert "would leave 7H" in message
    other = situation(["5C 7H 9D", "KC QD JH"], melds=[(1, "2C 3C 4C")], discard="8D", taken="7H")
    act(other, 0, "lay_off", "5C", meld="1")  # two cards are left: allowed
    third = situation(["5C 7H", "KC QD JH"], melds=[(1, "2C 3C 4C")], discard="8D", taken="5C")
    assert act(third, 0, "lay_off", "5C", meld="1").events  # the taken card itself may be played


def test_c3_4_going_out_by_a_meld_needs_no_discard():
    game = deal(["Ann", "Bob"], [QUICK, HIGH], "5C", "2D")
    act(game, 0, "draw", source="discard")  # 5C: AC-5C is a run of five
    act(game, 0, "meld", "AC", "2C", "3C", "4C", "5C")
    act(game, 0, "meld", "5D", "5H", "5S")
    outcome = act(game, 0, "meld", "9S", "TS", "JS")
    assert outcome.round_over and game.players[0].hand.mask == 0
    assert game.hand_results[-1]["went_out"] == 0


def test_c3_4_going_out_by_a_lay_off():
    game = deal(["Ann", "Bob"], ["AC 2C 3C 4C 5D 5H 5S 9S TS 5C", HIGH], "JS", "2D")
    act(game, 0, "draw", source="discard")  # JS
    act(game, 0, "meld", "AC", "2C", "3C", "4C")
    act(game, 0, "meld", "5D", "5H", "5S")
    act(game, 0, "meld", "9S", "TS", "JS")
    outcome = act(game, 0, "lay_off", "5C", meld="1")
    assert outcome.round_over and game.hand_results[-1]["went_out"] == 0


def test_c3_4_going_out_by_the_discard():
    game = deal(["Ann", "Bob"], [QUICK, HIGH], "7H", "2D")
    act(game, 0, "draw", source="stock")
    for meld in ("AC 2C 3C 4C", "5D 5H 5S", "9S TS JS"):
        act(game, 0, "meld", *meld.split())
    outcome = act(game, 0, "discard", "2D")
    assert outcome.round_over and game.hand_results[-1]["went_out"] == 0
    assert game.to_move() is None


def draw_and_discard_until(game, stop):
    """Every seat draws from the stock and discards the card drawn, until ``stop(outcome)``."""
    for _ in range(200):
        seat = game.to_move()
        before = game.players[seat].hand.mask
        outcome = act(game, seat, "draw", source="stock")
        if stop(outcome) or outcome.round_over:
            return outcome
        drawn = game.players[seat].hand.mask & ~before
        code = game.players[seat].hand.cards()[0].deck.cards[drawn.bit_length() - 1].id
        act(game, seat, "discard", code)
    raise AssertionError("the hand never stopped")


def test_c4_1_the_discard_pile_is_turned_over_once_oldest_card_on_top():
    game = deal(["Ann", "Bob"], [ANN, BOB], "KS")
    assert len(game.stock) == 31
    discards = []
    for _ in range(31):
        seat = game.to_move()
        before = game.players[seat].hand.mask
        act(game, seat, "draw", source="stock")
        drawn = game.players[seat].hand.mask & ~before
        code = game.deck.cards[drawn.bit_length() - 1].id
        act(game, seat, "discard", code)
        discards.append(code)
    assert len(game.stock) == 0 and len(game.discard) == 32
    seat = game.to_move()
    before = game.players[seat].hand.mask
    outcome = act(game, seat, "draw", source="stock")
    assert "turned over" in outcome.events[0]["text"]
    drawn = game.players[seat].hand.mask & ~before
    assert game.deck.cards[drawn.bit_length() - 1].code == "KS"  # the oldest card: the one turned up
    assert game.to_dict()["stock"] == discards  # then the discards in the order they were made
    assert len(game.discard) == 0  # empty until this player discards
    assert [m.label for m in game.legal(seat)][:1] == ["Discard"]
    refused_draw = game.to_dict()
    with pytest.raises(WrongPhase):
        act(game, seat, "draw", source="discard")
    assert game.to_dict() == refused_draw


def test_c4_1_the_player_may_take_the_discard_instead():
    game = deal(["Ann", "Bob"], [ANN, BOB], "KS")
    game.stock.cards.clear()  # as if the stock had just run out
    act(game, 0, "draw", source="discard")
    assert "KS" in hand_codes(game, 0) and not game.turned_over


def test_c4_2_an_empty_stock_turned_over_once_already_makes_a_void_hand():
    game = deal(["Ann", "Bob"], [ANN, BOB], "KS")
    outcome = draw_and_discard_until(game, lambda outcome: False)
    assert outcome.round_over
    assert "void" in outcome.events[-1]["text"]
    assert game.hand_results == [{"hand": 1, "went_out": None, "points": [0, 0], "rummy": False, "void": True}]
    assert [p.score for p in game.players] == [0, 0]
    assert game.hand_lines(0) == ["Hand 1: no score"]
    assert [m.label for m in game.legal(None)] == ["Deal hand 2"]  # a void hand counts as a hand
    act(game, None, "deal")
    assert game.hand_number == 2 and game.to_move() == 1  # ... and the next seat starts (C2.4)


def test_c4_2_draws_before_the_void():
    """2 seats: 31 stock cards, then the 32 cards of the discard pile turned over: the 64th
    draw from the stock finds it empty again."""
    game = deal(["Ann", "Bob"], [ANN, BOB], "KS")
    draws = 0

    def count(outcome):
        nonlocal draws
        draws += 1
        return False

    draw_and_discard_until(game, count)
    assert draws == 64


def test_c4_2_the_stock_turned_over_in_an_earlier_hand_is_turned_over_again():
    """C4.2: a hand is void when the stock was "already turned over once in this hand": hand 1's
    turn-over (and void) leaves hand 2 its own turn-over before its void."""
    game = deal(["Ann", "Bob"], [ANN, BOB], "KS")
    draw_and_discard_until(game, lambda outcome: False)
    assert game.hand_results[-1]["void"]
    act(game, None, "deal")
    draws = []

    def keep(outcome):
        draws.append(outcome)
        return False

    draw_and_discard_until(game, keep)
    assert game.hand_results[-1]["hand"] == 2 and game.hand_results[-1]["void"]
    assert sum("is turned over to make a new stock" in draw.events[0]["text"] for draw in draws) == 1
    assert len(draws) == 64  # 31 stock cards, then the 32 turned over, then the empty stock again


def test_pile_empty_is_a_refusal():
    game = deal(["Ann", "Bob"], [ANN, BOB], "KS")
    game.discard.cards.clear()
    with pytest.raises(PileEmpty):
        act(game, 0, "draw", source="discard")
