"""The rules of the sample sixth game (tests/sample_game: High card, H1-H6), its computer player
and its terminal game. The generic property test plays it too (test_protocol_properties.py)."""

from __future__ import annotations

import io

import pytest

from app.core.protocol import EVERYONE, NotYourTurn, PileEmpty
from sample_game import DECK, DEFINITION, Cautious, Draw, Pass
from sample_game.__main__ import main


def stacked(*codes: str):
    """The deck with ``codes`` on top, in this order, then every other card in deck order."""
    top = [DECK.parse(code) for code in codes]
    return top + [card for card in DECK.cards if card not in top]


def game(*codes: str, names=("Ann", "Bob"), limit: int = 15):
    return DEFINITION.new_state(list(names), options={"limit": limit}, stacked_deck=stacked(*codes))


def codes(cards) -> list[str]:
    return [card.code for card in cards]


def test_h1_the_deck_is_ace_to_nine_of_four_suits_an_ace_counting_one():
    assert DECK.size == 36 and sum(card.points for card in DECK.cards) == 4 * 45
    assert DECK.parse("AS").points == 1 and DECK.parse("9h").points == 9


def test_h2_each_seat_is_dealt_one_card_that_only_it_sees():
    state = game("5C", "7D", "2H", names=("Ann", "Bob", "Cy"))
    assert [codes(hand) for hand in state.hands] == [["5C"], ["7D"], ["2H"]]
    assert len(state.stock) == 33 and codes(state.stock[:1]) == ["AC"]
    assert state.view(0)["hand"] == ["5C"] and state.view(None)["hand"] is None
    others = state.view(0)["hands"][1]
    assert others["cards"] is None and others["worth"] is None and others["count"] == 1
    assert state.hidden_from(0) == set(state.stock) | set(state.hands[1]) | set(state.hands[2])


def test_h3_seats_draw_or_pass_in_turn_and_only_the_seat_to_move():
    state = game("5C", "7D", "2H")
    assert state.to_move() == 0 and [move.action for move in state.legal(0)] == ["draw", "pass"]
    assert state.legal(1) == [] and state.legal(None) == []
    with pytest.raises(NotYourTurn, match="It is Ann's turn"):
        state.apply(1, Draw())
    state.apply(0, Draw())
    assert codes(state.hands[0]) == ["5C", "2H"] and state.to_move() == 1
    assert [event["text"] for event in state.log[-1:]] == ["Ann draws a card."]
    assert state.log[-1]["cards"] == []  # the card drawn is named to nobody


def test_h4_a_hand_over_the_limit_is_bust_turned_face_up_and_skipped():
    state = game("9C", "2D", "8H", "9S", names=("Ann", "Bob", "Cy"))
    state.apply(0, Draw())  # 9C 9S: 18, over 15
    assert state.bust == [True, False, False] and state.to_move() == 1
    assert state.log[-1]["text"] == "Ann is bust with 18." and state.log[-1]["cards"] == ["9C", "9S"]
    assert next(zone for zone in state.zones() if zone.name == "Ann's hand").visible_to is EVERYONE
    assert state.view(1)["hands"][0]["cards"] == ["9C", "9S"]
    state.apply(1, Pass())
    state.apply(2, Pass())
    assert state.is_over()  # H5: Bob and Cy, the seats not bust, passed


def test_h5_the_game_ends_when_every_seat_not_bust_has_passed_since_the_last_draw():
    state = game("5C", "7D", "2H")
    state.apply(0, Pass())
    state.apply(1, Draw())  # a draw: every seat must pass again
    state.apply(0, Pass())
    assert not state.is_over()
    state.apply(1, Pass())
    assert state.is_over() and state.to_move() is None and state.legal(0) == []
    assert all(zone.visible_to is EVERYONE for zone in state.zones() if zone.name != "stock")


def test_h5_the_game_ends_when_every_seat_is_bust():
    state = game("9C", "9D", "8H", "9S", limit=10)
    state.apply(0, Draw())  # 9C 8H: 17
    state.apply(1, Draw())  # 9D 9S: 18
    assert state.is_over() and state.results()[0].won is False and state.results()[1].won is False
    assert state.log[-1]["text"] == "Every hand is bust: nobody wins."


def test_h6_the_highest_hand_not_bust_wins_and_ties_all_win():
    state = game("7C", "7D", "2H", names=("Ann", "Bob", "Cy"))
    for seat in range(3):
        state.apply(seat, Pass())
    results = state.results()
    assert [(result.won, result.score) for result in results] == [(True, 7), (True, 7), (False, 2)]
    assert state.log[-1]["text"] == "Ann and Bob win with 7."
    assert results[0].figures == {"games_played": 1, "games_won": 1, "busts": 0, "cards_drawn": 0, "best_hand": 7}


def test_a_bust_hand_counts_a_bust_and_no_best_hand():
    state = game("9C", "2D", "8H", "AS")
    state.apply(0, Draw())  # 17: bust
    state.apply(1, Pass())
    result = state.results()[0]
    assert not result.won and result.figures == {"games_played": 1, "games_won": 0, "busts": 1, "cards_drawn": 1}


def test_with_the_stock_empty_a_seat_can_only_pass():
    state = game("AC", "AD")
    data = state.to_dict()
    rest = data["stock"]
    data.update(stock=[], hands=[["AC"], ["AD"], rest[:17], rest[17:]], names=["Ann", "Bob", "Cy", "Di"],
                bust=[False, False, True, True], drawn=[0, 0, 16, 16])
    state = DEFINITION.from_dict(data)
    assert [move.action for move in state.legal(0)] == ["pass"]
    with pytest.raises(PileEmpty):
        state.apply(0, Draw())


@pytest.mark.parametrize("change", [
    {"hands": [["5C", "5C"], ["7D"]]},  # a card twice
    {"bust": [True, False]},  # a bust flag its hand does not earn
    {"turn": None},  # nobody to move before the end
    {"drawn": [1, 0]},  # more draws than cards
    {"options": {"limit": 99}},
])
def test_a_saved_game_the_rules_could_not_have_reached_is_refused(change):
    data = game("5C", "7D").to_dict()
    data.update(change)
    with pytest.raises(ValueError):
        DEFINITION.from_dict(data)


def test_the_computer_draws_while_a_middling_card_keeps_it_in():
    state = game("9C", "2D", "AH", "3S")
    assert Cautious().choose(state, 0) == Draw()  # 9 + 5 <= 15
    state.apply(0, Draw())  # AH: 10
    state.apply(1, Pass())
    assert Cautious().choose(state, 0) == Draw()
    state.apply(0, Draw())  # 3S: 13
    assert Cautious().choose(state, 1) == Draw() and Cautious().choose(state, 0) == Pass()


def test_the_terminal_game_plays_against_the_computer_from_typed_answers():
    out = io.StringIO()
    assert main(["--seed", "3"], stdin=io.StringIO("d\nd\np\np\np\np\n"), stdout=out) == 0
    text = out.getvalue()
    assert text.startswith("Each seat is dealt one card, face down.\nYour hand: ")
    assert "Player draws a card." in text and ("win" in text or "nobody wins" in text)
    assert text.endswith("Goodbye.\n")


def test_the_terminal_game_ends_quietly_when_the_input_ends():
    out = io.StringIO()
    assert main(["--seed", "1", "--players", "3"], stdin=io.StringIO(""), stdout=out) == 0
    assert out.getvalue().endswith("Goodbye.\n")
