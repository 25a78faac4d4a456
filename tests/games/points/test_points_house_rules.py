"""P8: the house rules a Points Rummy table may play by, each default the rule book's rule."""

from __future__ import annotations

from points_helpers import POINTS_RUMMY, act, stacked_game
from test_points_rules import DECLARER, OTHER, THIRD, WINNING_GROUPS, WRONG_GROUPS, joker_game
from test_points_terminal import DECLARE_DECK, run

from app.games.points.evaluator import evaluate


def declaring(names=("P1", "P2"), **options):
    return stacked_game([DECLARER, OTHER, THIRD][:len(names)], "9S", "6S", "4H", names=names, **options)


def test_p8_every_house_rule_defaults_to_the_rule_book_and_is_numbered():
    rules = [o for o in POINTS_RUMMY.options if o.house]
    assert [o.rule for o in rules] == ["P8.1", "P8.2", "P8.3", "P8.4", "P8.5"]
    assert POINTS_RUMMY.house_rules(POINTS_RUMMY.validate_options({})) == []
    assert POINTS_RUMMY.variant_key({"deals": 5}) == ""  # the number of deals is no house rule


def test_p8_1_the_first_drop_costs_the_chosen_points():
    state = declaring(first_drop="25")
    assert [m.label for m in state.legal(0) if m.action == "drop"] == ["Drop (25 points)"]
    act(state, 0, action="drop")
    assert [row["result"] for row in state.deal_results[-1]["rows"]] == [-25, 25]
    assert state.deal_results[-1]["rows"][0]["reason"] == "first drop"
    rule_book = declaring()
    act(rule_book, 0, action="drop")
    assert [row["result"] for row in rule_book.deal_results[-1]["rows"]] == [-20, 20]  # P4.3


def test_p8_2_the_middle_drop_costs_the_chosen_points():
    state = declaring(names=("P1", "P2", "P3"), middle_drop="60")
    act(state, 0, action="draw", source="closed")
    act(state, 0, action="discard", cards=["8H"])
    act(state, 1, action="drop")
    act(state, 2, action="draw", source="closed")
    act(state, 2, action="discard", cards=["AS"])
    assert [m.label for m in state.legal(0) if m.action == "drop"] == ["Drop (60 points)"]
    act(state, 0, action="drop")
    rows = state.deal_results[-1]["rows"]
    assert [row["points"] for row in rows] == [60, 20, 0]
    assert rows[0]["reason"] == "middle drop"


def test_p8_3_a_loser_pays_at_most_the_chosen_cap():
    hands = [DECLARER, "KC KH KS TC TH TS 3C 3D 3S JC JD 8D 5S"]
    state = stacked_game(hands, "9S", "6S", "4H", most_points="100")
    act(state, 0, action="draw", source="closed")
    act(state, 0, action="declare", cards=["8H"], groups=WINNING_GROUPS)
    assert evaluate(state.hands[1], "9").points == 102
    assert state.deal_results[-1]["rows"][1]["points"] == 100
    rule_book = stacked_game(hands, "9S", "6S", "4H")
    act(rule_book, 0, action="draw", source="closed")
    act(rule_book, 0, action="declare", cards=["8H"], groups=WINNING_GROUPS)
    assert rule_book.deal_results[-1]["rows"][1]["points"] == 80  # P5.4


def test_p8_4_a_wrong_declaration_costs_the_chosen_points():
    state = declaring(wrong_declaration="120")
    act(state, 0, action="draw", source="closed")
    declare = next(m for m in state.legal(0) if m.action == "declare")
    assert "120 points" in (declare.confirm or "")
    act(state, 0, action="declare", cards=["8H"], groups=WRONG_GROUPS)
    assert [row["result"] for row in state.deal_results[-1]["rows"]] == [-120, 120]


def test_p8_5_a_joker_on_the_open_pile_may_be_taken():
    state = stacked_game(["5D 8C 9C TC 2D 3S 6S 8S KH KD QH JH 4C",
                          "2C 3C 7H 8H AS AD TD 6D 3H 4H 9D JD QC"], "5C", "JK", "KS KC", joker_pickup="1")
    act(state, 0, action="draw", source="closed")
    act(state, 0, action="discard", cards=["5D"])  # a wild joker
    assert any(move.params == (("source", "open"),) for move in state.legal(1))
    act(state, 1, action="draw", source="open")
    assert any(card.id == "5D" for card in state.hands[1])
    rule_book = joker_game()  # P4.1
    act(rule_book, 0, action="draw", source="closed")
    act(rule_book, 0, action="discard", cards=["5D"])
    assert not any(move.params == (("source", "open"),) for move in rule_book.legal(1))


def test_p8_house_rules_survive_saving_and_old_games_read_as_the_rule_book():
    state = declaring(first_drop="10", joker_pickup="yes")
    again = POINTS_RUMMY.from_dict(state.to_dict())
    assert again.rules["first_drop"] == 10 and again.rules["joker_pickup"] is True
    old = state.to_dict()
    del old["rules"]
    assert POINTS_RUMMY.from_dict(old).rules["first_drop"] == 20


def test_p8_the_terminal_takes_the_house_rules_and_says_them():
    status, lines = run(["--deck", DECLARE_DECK, "--first-drop", "30"], "3\n")
    assert status == 0
    assert lines[1] == "House rules: First drop costs: 30."
    assert "Player drops (first drop, 30 points) and leaves the deal." in lines
    status, plain = run(["--deck", DECLARE_DECK], "3\n")
    assert not plain[1].startswith("House rules")  # the rule book's game: the output as before
