"""What the web table reads from Points Rummy's view beyond the rules: valid groups shown in
reading order (P3), the between-deals summary's title for the status bar (P6.1)."""

from __future__ import annotations

from pathlib import Path

from points_helpers import act

from app.games.points import DEFINITION as POINTS_RUMMY

DECK = Path(__file__).resolve().parents[3] / "tests" / "decks" / "points" / "declare_after_one_draw.deck"


def game(deals: int = 1):
    order = POINTS_RUMMY.parse_deck(DECK.read_text(), 2)
    return POINTS_RUMMY.new_state(["Ann", "AI"], options={"deals": deals}, stacked_deck=order)


def test_p3_a_valid_group_is_shown_in_reading_order_an_invalid_one_as_placed():
    state = game()
    act(state, 0, action="group", cards=["KD", "AD", "QD"])  # Q K A: the ace high (P1.2)
    act(state, 0, action="group", cards=["9H", "6C", "5C"])  # the wild 9H stands for 7C (P3.2)
    act(state, 0, action="group", cards=["KD", "QD"])  # taken from group 1: two cards are no group
    view = state.view(0)
    assert [(row["cards"], row["label"]) for row in view["groups"]] == [
        (["AD"], "not a valid group"), (["5C", "6C", "9H"], "impure sequence"), (["KD", "QD"], "not a valid group")]
    act(state, 0, action="move", cards=["AD"], group="3")
    assert state.view(0)["groups"][1] == {**state.view(0)["groups"][1], "cards": ["QD", "KD", "AD"],
                                          "label": "pure sequence"}


def test_p6_1_the_summary_between_deals_has_a_title_for_the_status_bar():
    state = game(deals=2)
    act(state, 0, action="drop")
    assert state.view(None)["summary"]["title"] == "Deal 1 of 2 is over"
    assert state.view(0)["summary"]["title"] == "Deal 1 of 2 is over"
