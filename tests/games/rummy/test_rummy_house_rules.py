"""C9: the house rules a Classic Rummy table may play by, each default the rule book's rule."""

from __future__ import annotations

import pytest
from rummy_test_helpers import RUMMY, act, deal, hand_codes, run_terminal, situation

from app.core.protocol import IllegalAction
from app.games.rummy.actions import LastCardRefused, TakenCardRefused

QUICK = "AC 2C 3C 4C 5D 5H 5S 9S TS JS"
HIGH = "KC QD JH TD 9H 8C KD QH 7S 6H"
ANN = "AC 3D 5H 7S 9C JD KH 2S 4C 6D"
BOB = "AD 3H 5S 7C 9D JH KS 2C 4D 6H"


def house(option: str):
    return next(o for o in RUMMY.options if o.key == option)


def test_c9_every_house_rule_defaults_to_the_rule_book_and_is_numbered():
    values = RUMMY.validate_options({})
    rules = [o for o in RUMMY.options if o.house]
    assert len(rules) >= 5
    assert [o.rule for o in rules] == ["C9.1", "C9.2", "C9.3", "C9.4", "C9.5"]
    assert RUMMY.house_rules(values) == []  # the rule book's game
    assert RUMMY.variant_key(values) == ""


def test_c9_1_rummy_bonus_off_scores_a_rummy_single():
    game = deal(["Ann", "Bob"], [QUICK, HIGH], "7H", "2D", rummy_bonus=False)
    act(game, 0, "draw", source="stock")
    for meld in ("AC 2C 3C 4C", "5D 5H 5S", "9S TS JS"):
        act(game, 0, "meld", *meld.split())
    act(game, 0, "discard", "2D")
    assert game.hand_results[-1]["points"] == [90, 0]
    assert RUMMY.house_rules({"rummy_bonus": False}) == [("Rummy bonus", "no")]


def test_c9_2_go_out_by_discarding_refuses_melding_the_last_card():
    game = situation(["9C 9D 9H", "KC QD"], **{"must_discard": True})
    with pytest.raises(LastCardRefused):
        act(game, 0, "meld", "9C", "9D", "9H")
    assert hand_codes(game, 0) == "9C 9D 9H"
    rule_book = situation(["9C 9D 9H", "KC QD"])
    assert act(rule_book, 0, "meld", "9C", "9D", "9H").round_over  # C3.4: by the rule book it goes out


def test_c9_2_lay_off_of_the_last_card_is_refused_and_the_discard_goes_out():
    game = situation(["9C 2S", "KC QD"], melds=[(1, "9D 9H 9S")], must_discard=True)
    act(game, 0, "lay_off", "9C", meld=1)
    assert act(game, 0, "discard", "2S").round_over
    game = situation(["9C", "KC QD"], melds=[(1, "9D 9H 9S")], must_discard=True)
    with pytest.raises(LastCardRefused):
        act(game, 0, "lay_off", "9C", meld=1)


def test_c9_3_the_card_just_taken_may_be_discarded_back():
    game = deal(["Ann", "Bob"], [ANN, BOB], "KC", discard_back=True)
    act(game, 0, "draw", source="discard")
    act(game, 0, "discard", "KC")
    assert game.discard.top() is not None and game.to_move() == 1
    rule_book = deal(["Ann", "Bob"], [ANN, BOB], "KC")
    act(rule_book, 0, "draw", source="discard")
    with pytest.raises(TakenCardRefused):  # C3.3
        act(rule_book, 0, "discard", "KC")


def test_c9_3_a_play_may_leave_the_taken_card_alone():
    game = situation(["9C 9D 9H KS", "KC QD"], taken="KS", discard_back=True)
    act(game, 0, "meld", "9C", "9D", "9H")
    assert act(game, 0, "discard", "KS").round_over
    rule_book = situation(["9C 9D 9H KS", "KC QD"], taken="KS")
    with pytest.raises(TakenCardRefused):
        act(rule_book, 0, "meld", "9C", "9D", "9H")


def draw_from_stock_until_empty(game):
    while game.stock.cards:
        seat = game.to_move()
        before = game.players[seat].hand.mask
        act(game, seat, "draw", source="stock")
        drawn = game.players[seat].hand.mask & ~before
        act(game, seat, "discard", game.deck.cards[drawn.bit_length() - 1].id)


def test_c9_4_an_empty_stock_ends_the_hand():
    game = deal(["Ann", "Bob"], [ANN, BOB], "QC", stock_out="end_hand")
    draw_from_stock_until_empty(game)
    outcome = act(game, game.to_move(), "draw", source="stock")
    assert outcome.round_over and not game.turned_over
    assert game.hand_results[-1]["void"] is True
    rule_book = deal(["Ann", "Bob"], [ANN, BOB], "QC")
    draw_from_stock_until_empty(rule_book)
    act(rule_book, rule_book.to_move(), "draw", source="stock")
    assert rule_book.turned_over and not rule_book.hand_results  # C4.1


def test_c9_5_seven_cards_each_whatever_the_seat_count():
    for seats, by_seats in ((2, 10), (5, 6), (6, 6)):
        names = [f"P{n}" for n in range(seats)]
        seven = RUMMY.new_state(names, options={"deal_size": "seven"}, seed=3)
        assert all(len(player.hand) == 7 for player in seven.players)
        assert len(seven.stock) == 52 - 7 * seats - 1
        rule_book = RUMMY.new_state(names, seed=3)
        assert all(len(player.hand) == by_seats for player in rule_book.players)  # C2.2


@pytest.mark.parametrize("options", [{"must_discard": True}, {"discard_back": True}, {"stock_out": "end_hand"},
                                     {"deal_size": "seven"}, {"must_discard": True, "discard_back": True}])
def test_c9_computer_players_finish_games_under_every_house_rule(options):
    for strength in RUMMY.strengths:
        game = RUMMY.new_state(["AI", "AI", "AI"], options=dict(options, target=50), seed=11)
        bot = RUMMY.bot_of(strength)
        steps = 0
        while not game.is_over() and steps < 20000:
            seat = game.to_move()
            if seat is None:
                act(game, None, "deal")
            else:
                try:
                    game.apply(seat, bot.choose(game, seat))
                except IllegalAction as refusal:  # pragma: no cover - the failure says which rule
                    raise AssertionError(f"{strength} under {options}: {refusal}") from None
            steps += 1
        assert game.is_over()


def test_c9_house_rules_survive_saving():
    game = RUMMY.new_state(["Ann", "Bob"], options={"must_discard": "1", "discard_back": "yes",
                                                    "stock_out": "end_hand", "deal_size": "seven"}, seed=5)
    again = RUMMY.from_dict(game.to_dict())
    assert (again.must_discard, again.discard_back, again.stock_out, again.deal_size) == (True, True, "end_hand",
                                                                                        "seven")
    view = again.view(0)
    assert (view["must_discard"], view["discard_back"], view["stock_out"]) == (True, True, "end_hand")
    old = game.to_dict()
    for key in ("must_discard", "discard_back", "stock_out", "deal_size"):
        del old[key]  # saved before the house rules
    assert RUMMY.from_dict(old).stock_out == "turn_over"


def test_c9_house_rules_in_words_and_their_variant_key():
    values = RUMMY.validate_options({"stock_out": "end_hand", "must_discard": "on"})
    assert RUMMY.house_rules(values) == [("Go out by discarding", "yes"),
                                         ("When the stock runs out", "The hand ends, no score")]
    assert RUMMY.variant_key(values) == "must_discard=true;stock_out=end_hand"
    assert RUMMY.variant_key(dict(values, target=300)) == RUMMY.variant_key(values)  # the target is no house rule
    assert house("stock_out").words("turn_over") == "Turn the discard pile over once"


def test_c8_1_the_terminal_takes_the_house_rules_and_says_them():
    status, screen, _ = run_terminal(["--seed", "4", "--deal-size", "seven", "--must-discard"], ["2", "AI", "AI"])
    assert status == 0
    lines = screen.splitlines()
    assert lines[0] == "Classic Rummy to 100 points, rummy bonus on, shuffled with seed 4."
    assert lines[1] == "House rules: Go out by discarding: yes; Cards dealt: Seven each."
    status, plain, _ = run_terminal(["--seed", "4"], ["2", "AI", "AI"])
    assert not plain.splitlines()[1].startswith("House rules")  # the rule book's game: word for word
