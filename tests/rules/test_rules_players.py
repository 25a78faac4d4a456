"""Hand, Player, LivePlayer and ComputerPlayer (R3.4, R5.3-R5.7 through take_turn, R8, R9.2)."""

import pytest
from rules_test_helpers import (
    NAMES2, RecordingControls, ScriptedControls, arrange, card, cards, codes, deal, hand_codes, playable_selections,
    rebuilt, set_codes, stacked_deck,
)

from app.games.mason import (
    DISCARD_PILE, GAME_OVER, ROUND_OVER, STOCK, CardSet, ComputerPlayer, Discard, Draw, Game, Hand, LayDown, LivePlayer,
    NextRound, Player, RoundOver, is_computer_name,
)
from app.games.mason.bot import choose_computer_discard, computer_draw_source, play_computer_turn
from app.games.mason.definition import DEFINITION
from app.games.mason.melds import MELD, RUN

H1R = "5H 6H 7H 2C 5C 9C 3D 8D JS 6P"
H2 = "3C 6C TC 4D 9D AH 5S 8S QS 7P"
CLUBS = "2C 3C 4C 5C 6C 7C 8C 9C TC JC"
H2B = "4D 9D AH 5S 8S QS 7P 2H KD 3H"


# -- Hand ------------------------------------------------------------------------------------------

def test_hand_point_value_r1_5():
    assert Hand(cards("AS KD 2C 9P")).hand_point_value() == 15 + 10 + 2 + 9
    assert Hand().hand_point_value() == 0


def test_hand_str_is_the_codes_in_hand_order_r9_2():
    hand = Hand(cards("AP 2C KD 3C TS 9H"))
    assert str(hand) == "2C 3C KD 9H TS AP"
    hand.add(card("4C"))
    hand.add(card("2P"))
    assert str(hand) == "2C 3C 4C KD 9H TS 2P AP"
    assert hand.card_at(1) == card("2C") and hand.card_at(8) == card("AP")  # Menu F numbering
    assert str(Hand()) == ""


def test_hand_already_laid_down_lists_sets_first_laid_first():
    game = deal(NAMES2, "5H 6H 7H 8C 8D 8H 2C 3C 9C JC", H2B, discard="AD")
    assert game.players[0].hand.already_laid_down() == []
    game.apply(0, Draw(STOCK))
    game.apply(0, LayDown(tuple(cards("8C 8D 8H"))))
    game.apply(0, LayDown(tuple(cards("5H 6H 7H"))))
    laid = game.players[0].hand.already_laid_down()
    assert [(s.kind, codes(s.cards)) for s in laid] == [(MELD, "8C 8D 8H"), (RUN, "5H 6H 7H")]
    assert all(isinstance(s, CardSet) for s in laid)


# -- Player ----------------------------------------------------------------------------------------

def test_player_str_names_hand_size_and_score():
    assert str(LivePlayer("Ann", Hand(cards("2C 3C")), 17)) == "Ann: 2 cards in hand, 17 points"
    assert str(ComputerPlayer("AI", Hand(cards("2C")))) == "AI: 1 card in hand, 0 points"


@pytest.mark.parametrize("names", [["Ann"], ["Ann", "Bob", "Cy", "Dee"], ["AI", "AI", "AI", "AI"]])
def test_r3_1_a_game_has_two_or_three_seats(names):
    """R3.1: a game has 2 or 3 seats; any other number is refused, by the game and its definition."""
    refused = rf"players, not {len(names)}\b"
    with pytest.raises(ValueError, match=refused):
        Game.new(names, seed=5)
    with pytest.raises(ValueError, match=refused):
        DEFINITION.new_state(names, seed=5)


@pytest.mark.parametrize("name", ["AI", "ai", "Ai", " aI "])
def test_r3_4_the_name_ai_in_any_case_makes_a_computer_player(name):
    assert is_computer_name(name)
    player = Player.create(name)
    assert isinstance(player, ComputerPlayer) and player.is_computer and player.name == "AI"


@pytest.mark.parametrize("name", ["Ann", "AIda", "A I", "Al", "a\u0131"])  # (a dotless ı upper-cases to I)
def test_r3_4_other_names_are_live_players(name):
    assert not is_computer_name(name)
    player = Player.create(name)
    assert isinstance(player, LivePlayer) and not player.is_computer and player.name == name


def test_r3_4_several_seats_may_be_ai():
    game = Game.new(["AI", "ai", "Bob"], seed=3)
    assert [type(p) for p in game.players] == [ComputerPlayer, ComputerPlayer, LivePlayer]
    assert [p.name for p in game.players] == ["AI", "AI", "Bob"]
    assert game.seat_of(game.players[1]) == 1


def test_player_base_class_take_turn_is_abstract():
    game = deal(NAMES2, H1R, H2, discard="AP")
    with pytest.raises(NotImplementedError, match="^$"):  # a bare raise: subclasses play turns
        Player.take_turn(game.players[0], game)


# -- LivePlayer.take_turn with scripted controls ---------------------------------------------------------

def test_live_player_take_turn_draw_lay_down_refusal_and_discard_r5_4_r5_5_r5_6():
    game = deal(NAMES2, H1R, H2, discard="AP", stock="KS")
    # hand after the draw, Menu F order: 1 2C 2 5C 3 9C 4 3D 5 8D 6 5H 7 6H 8 7H 9 JS 10 KS 11 6P
    controls = ScriptedControls(["1", "1", "(8, 6,7)", "1", "1,4", "2", "1"])
    game.players[0].take_turn(game, controls)
    assert controls.answers == []
    assert controls.asked == ["D", "E", "F", "E", "F", "E", "discard"]  # Menu E after every attempt
    assert len(controls.refusals) == 1 and "2C 3D" in controls.refusals[0]
    assert set_codes(game, 0) == ["5H 6H 7H"]
    assert game.discard[-1] == card("2C")
    assert hand_codes(game, 0) == "5C 9C 3D 8D JS KS 6P"
    assert game.turn == 1
    assert [type(o.action) for o in controls.outcomes] == [Draw, LayDown, Discard]


def test_live_player_take_turn_r5_3_asks_again_when_the_stock_cannot_give_a_card():
    game = deal(NAMES2, H1R, H2, discard="AP")
    game = rebuilt(game, lambda d: (d["players"][1]["hand"].extend(d["stock"]), d.update(stock=[])))
    controls = ScriptedControls(["1", "2", "2", "1"])
    game.players[0].take_turn(game, controls)
    assert controls.asked == ["D", "D", "E", "discard"]
    assert len(controls.refusals) == 1
    assert controls.outcomes[0].drawn == card("AP")


def test_live_player_take_turn_raises_round_over_when_going_out_by_lay_down_r5_7():
    game = deal(NAMES2, CLUBS, H2B, discard="AP", stock="QC")
    controls = ScriptedControls(["1", "1", "1,2,3,4,5,6,7,8,9,10,11"])
    with pytest.raises(RoundOver) as over:
        game.players[0].take_turn(game, controls)
    assert over.value.went_out == 0
    assert controls.asked == ["D", "E", "F"]  # no discard after the last card went down
    assert game.phase == ROUND_OVER


def test_live_player_take_turn_raises_round_over_when_going_out_by_discard_r5_6_r5_7():
    game = deal(NAMES2, CLUBS, H2B, discard="AP", stock="6D")
    controls = ScriptedControls(["1", "1", "(1,2,3,4,5,6,7,8,9,10)", "2", "1"])
    with pytest.raises(RoundOver) as over:
        game.players[0].take_turn(game, controls)
    assert over.value.went_out == 0
    assert controls.asked[-2:] == ["E", "discard"]  # asked even with one card left
    assert game.discard[-1] == card("6D")


def test_live_player_needs_controls():
    game = deal(NAMES2, H1R, H2, discard="AP")
    with pytest.raises(ValueError, match="^a live player needs controls to choose with$"):
        game.players[0].take_turn(game)


# -- ComputerPlayer (R8) ---------------------------------------------------------------------------

AI_HAND = "7H 8H 2C 5C 9C 3D JS 6P KD 4P"


@pytest.mark.parametrize("top", ["9H", "6H"])
def test_r8_1_ai_takes_the_discard_that_makes_a_run(top):
    game = deal(["AI", "Bob"], AI_HAND, H2, discard=top)
    assert computer_draw_source(game, 0) == DISCARD_PILE


def test_r8_1_ai_takes_the_discard_that_fills_a_run_gap():
    game = deal(["AI", "Bob"], "7H 9H 2C 5C 9C 3D JS 6P KD 4P", H2, discard="8H")
    assert computer_draw_source(game, 0) == DISCARD_PILE


def test_r8_1_ai_takes_the_discard_that_makes_a_meld():
    game = deal(["AI", "Bob"], "7H 8H 2C 2D 9C 3D JS 6P KC 4P", H2B.replace("4D", "4S"), discard="2S")
    assert computer_draw_source(game, 0) == DISCARD_PILE
    game = deal(["AI", "Bob"], AI_HAND, H2, discard="2S")  # a single 2 in the hand: no meld
    assert computer_draw_source(game, 0) == STOCK


@pytest.mark.parametrize("top", ["TH", "AS", "QH", "5H"])
def test_r8_1_ai_otherwise_takes_the_stock(top):
    game = deal(["AI", "Bob"], AI_HAND, H2.replace("AH", "AC"), discard=top)
    assert computer_draw_source(game, 0) == STOCK


def test_r8_1_no_ace_low_run_for_the_draw_choice():
    game = deal(["AI", "Bob"], "2S 3S 5C 9C 3D JH 6P KC 4P 8H", H2B.replace("5S", "5P"), discard="AS")
    assert computer_draw_source(game, 0) == STOCK


def test_r8_1_ai_takes_the_discard_that_fits_its_own_set():
    dealt = deal(["AI", "Bob"], AI_HAND, H2, discard="AP")
    game = arrange(dealt, 0, "2C 5C 9C 3D JH 6P KD", sets=["run 3S 4S 5S", "meld TC TD TH"], discard="6S")
    assert computer_draw_source(game, 0) == DISCARD_PILE  # extends the run
    game = arrange(dealt, 0, "2C 5C 9C 3D JH 6P KD", sets=["run 3S 4S 5S", "meld TC TD TH"], discard="TP")
    assert computer_draw_source(game, 0) == DISCARD_PILE  # fits the meld
    game = arrange(dealt, 0, "2C 5C 9C 3D JH 6P KD", sets=["run 3S 4S 5S", "meld TC TD TH"], discard="7S")
    assert computer_draw_source(game, 0) == STOCK


def test_r8_1_ai_does_not_take_a_card_that_only_fits_another_players_set():
    game = deal(["AI", "Bob"], AI_HAND, "3S 4S 5S 9D AH 8S QS 7P 2H KH", discard="AP")
    game = arrange(game, 1, "9D AH 8S QS 7P 2H KH", sets=["run 3S 4S 5S"])
    game = arrange(game, 0, AI_HAND, discard="6S")
    assert computer_draw_source(game, 0) == STOCK


def test_r8_1_ai_take_turn_draws_as_chosen():
    game = deal(["AI", "Bob"], AI_HAND, H2, discard="9H")
    controls = RecordingControls()
    game.players[0].take_turn(game, controls)
    assert controls.outcomes[0].action == Draw(DISCARD_PILE)
    assert controls.outcomes[0].drawn == card("9H")


def test_r8_2_runs_longest_first_then_melds_and_goes_out():
    game = deal(["AI", "Bob"], "2C 3C 4C 6D 7D 8D 9D QH QS 5P", "5C 6C TC 4S 9S AH 6S 8S JS 7P", discard="QP")
    controls = RecordingControls()
    with pytest.raises(RoundOver) as over:
        game.players[0].take_turn(game, controls)
    assert over.value.went_out == 0
    actions = [o.action for o in controls.outcomes]
    assert actions[0] == Draw(DISCARD_PILE)  # R8.1: QP makes a meld
    assert [codes(a.cards) for a in actions[1:4]] == ["6D 7D 8D 9D", "2C 3C 4C", "QH QS QP"]
    assert actions[4] == Discard(card("5P"))
    assert set_codes(game, 0) == ["6D 7D 8D 9D", "2C 3C 4C", "QH QS QP"]


def test_r8_2_then_single_cards_onto_own_sets_repeating_until_nothing_fits():
    game = deal(["AI", "Bob"], AI_HAND, H2.replace("5S", "5P").replace("4D", "4H"), discard="AP")
    # The AI already has a run 3H 4H 5H and a meld 9C 9D 9H; its hand holds a future meld of fours,
    # a run needing the KS on the discard pile, and 6H 7H 9S that fit its own sets only one by one.
    game = arrange(game, 0, "4C 4D 4S 6H 7H 9S JS QS 2C KP", sets=["run 3H 4H 5H", "meld 9C 9D 9H"], discard="KS")
    controls = RecordingControls()
    game.players[0].take_turn(game, controls)
    actions = [o.action for o in controls.outcomes]
    assert actions[0] == Draw(DISCARD_PILE)
    assert [codes(a.cards) for a in actions[1:-1]] == ["JS QS KS", "4C 4D 4S", "6H", "7H", "9S"]
    assert isinstance(actions[-1], Discard) and actions[-1].card in cards("2C KP")
    assert set_codes(game, 0) == ["3H 4H 5H 6H 7H", "9C 9D 9H 9S", "JS QS KS", "4C 4D 4S"]


def test_r8_2_goes_out_by_lay_down_without_discarding():
    game = deal(["AI", "Bob"], CLUBS, H2B, discard="QC")
    controls = RecordingControls()
    with pytest.raises(RoundOver) as over:
        game.players[0].take_turn(game, controls)
    assert over.value.went_out == 0
    assert not any(isinstance(o.action, Discard) for o in controls.outcomes)
    assert set_codes(game, 0) == [CLUBS + " QC"]


def test_r8_2_lays_its_last_card_onto_its_own_set_rather_than_holding_it_back():
    """R8.2: the AI never holds back a playable card, its last one included: with 9D taken from
    the discard pile (R8.1: it fits its meld) and 6S in hand, both go onto its own sets one by one
    and it goes out by laying down (R5.7), never discarding the playable 6S."""
    dealt = deal(["AI", "Bob"], AI_HAND, H2, discard="AP")
    game = arrange(dealt, 0, "6S", sets=["run 3S 4S 5S", "meld 9C 9H 9S"], discard="9D")
    controls = RecordingControls()
    with pytest.raises(RoundOver) as over:
        game.players[0].take_turn(game, controls)
    assert over.value.went_out == 0
    actions = [o.action for o in controls.outcomes]
    assert actions[0] == Draw(DISCARD_PILE)
    assert sorted(codes(a.cards) for a in actions[1:]) == ["6S", "9D"]
    assert not any(isinstance(a, Discard) for a in actions)
    assert set_codes(game, 0) == ["3S 4S 5S 6S", "9C 9H 9S 9D"]


def _play_ai_game(game, check_turn=None):
    while not game.is_over():
        if game.phase == ROUND_OVER:
            game.apply(None, NextRound())
            continue
        seat = game.turn
        controls = RecordingControls()
        try:
            game.current_player.take_turn(game, controls)
        except RoundOver:
            pass
        if check_turn:
            check_turn(game, seat, controls)
    return game


def _never_holds_back(game, seat, controls):
    outcomes = controls.outcomes
    last_play = len(outcomes) - 2 if isinstance(outcomes[-1].action, Discard) else len(outcomes) - 1
    before_discard = controls.hands[last_play]
    if outcomes[-1].round_over and not isinstance(outcomes[-1].action, Discard):
        assert before_discard == [] or outcomes[-1].went_out is None
        return
    assert playable_selections(before_discard, game.players[seat].hand.laid_down) == []


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_r8_2_never_holds_back_a_playable_card(seed):
    game = _play_ai_game(Game.new(["AI", "AI", "AI"], seed=seed), _never_holds_back)
    assert game.phase == GAME_OVER


def test_r8_3_discard_choice_is_deterministic_for_a_state():
    game = Game.new(["AI", "Bob"], seed=11)
    game.apply(0, Draw(STOCK))
    first = choose_computer_discard(game, 0)
    assert first in game.players[0].hand
    assert choose_computer_discard(game, 0) == first
    assert choose_computer_discard(game.copy(), 0) == first
    assert choose_computer_discard(Game.from_dict(game.to_dict()), 0) == first


def test_r8_3_a_stacked_deck_game_with_ai_seats_always_plays_the_same():
    deck = stacked_deck("2C 9C 3D 8D KH 4S 7S JS 6P QP", "3C 6C TC 4D 9D AH 5S 8S QS 7P",
                        "4C 7C JC 5D TD 2H 6S 9S KS 8P", discard="AD")
    runs = [_play_ai_game(Game.new(["AI", "AI", "AI"], stacked_deck=deck)) for _ in range(2)]
    assert runs[0].to_dict() == runs[1].to_dict()
    assert runs[0].is_over() and len(runs[0].round_scores) == 3
    assert sum(runs[0].round_turns) > 3


def test_computer_player_take_turn_works_without_controls():
    game = deal(["AI", "Bob"], AI_HAND, H2, discard="9H")
    game.players[0].take_turn(game)
    assert game.turn == 1
    assert card("9H") in [c for s in game.players[0].hand.laid_down for c in s.cards] + game.players[0].hand.cards
    assert set_codes(game, 0) == ["7H 8H 9H"]


# -- the stalemate rule at a computer's or a person's draw --------------------------------------------

def _about_to_stall(names):
    """A game where the stock has run out twice with no lay-down and is empty again: the next
    stock draw blocks the round (STALL_REBUILDS). The discard top (AP) is no use to seat 1."""
    game = deal(names, AI_HAND, H2, discard="2S")
    game = rebuilt(game, lambda d: d.update(discard=d["discard"] + d["stock"], stock=[], stall_rebuilds=2))
    assert game.discard[-1] == card("AP") and computer_draw_source(game, 0) == STOCK
    return game


def test_stalemate_play_computer_turn_stops_after_a_blocked_draw():
    game = _about_to_stall(["AI", "Bob"])
    outcomes = list(play_computer_turn(game, 0))  # nothing is tried after the round ended
    assert len(outcomes) == 1 and outcomes[0].round_over and outcomes[0].went_out is None
    assert game.phase == ROUND_OVER
    assert game.round_scores == [[p.hand.hand_point_value() for p in game.players]]  # R7.2


def test_stalemate_computer_take_turn_raises_round_over():
    game = _about_to_stall(["AI", "Bob"])
    controls = RecordingControls()
    with pytest.raises(RoundOver) as over:
        game.players[0].take_turn(game, controls)
    assert over.value.went_out is None and len(controls.outcomes) == 1


def test_stalemate_live_take_turn_raises_round_over_after_the_draw():
    game = _about_to_stall(NAMES2)
    controls = ScriptedControls(["1"])
    with pytest.raises(RoundOver) as over:
        game.players[0].take_turn(game, controls)
    assert over.value.went_out is None
    assert controls.asked == ["D"]  # no Menu E once the round is over
    assert game.phase == ROUND_OVER
