"""Arranging one's cards into groups: random arranging actions (the web table's taps) keep every
group inside the seat's hand, change no one else's view, and a refusal changes nothing."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.core.protocol import IllegalAction
from app.games.points import DEFINITION as POINTS_RUMMY
from app.games.points.actions import action_from_dict


@st.composite
def arranging_plays(draw):
    seats = draw(st.integers(2, 6), label="seats")
    state = POINTS_RUMMY.new_state(["P"] * seats, seed=draw(st.integers(0, 10_000), label="seed"))
    steps = []
    for _step in range(draw(st.integers(1, 25), label="steps")):
        seat = draw(st.integers(0, seats - 1), label="seat")
        kind = draw(st.sampled_from(["group", "move", "ungroup", "sort", "draw", "discard"]), label="kind")
        picks = draw(st.lists(st.integers(0, 13), min_size=0, max_size=5), label="picks")
        group = draw(st.integers(0, 4), label="group")
        steps.append((seat, kind, picks, group))
    return state, steps


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(arranging_plays())
def test_arranging_keeps_groups_in_the_hand_and_private(play):
    state, steps = play
    for seat, kind, picks, group in steps:
        hand = state.hands[seat]
        chosen = [hand[index % len(hand)].id for index in picks]
        if kind == "draw":
            data = {"action": "draw", "source": "closed"}
            seat = state.to_move()
        elif kind == "discard":
            seat = state.to_move()
            data = {"action": "discard", "cards": [state.hands[seat][picks[0] % 13].id if picks else "JK"]}
        else:
            data = {"action": kind, "cards": chosen, "group": str(group)}
        others = {other: json.dumps(state.view(other)) for other in range(len(state.names)) if other != seat}
        before = state.to_dict()
        try:
            state.apply(seat, action_from_dict(data))
        except IllegalAction as refusal:
            assert str(refusal) and state.to_dict() == before
            continue
        if kind not in ("draw", "discard"):
            assert {other: json.dumps(state.view(other)) for other in others} == others
        for index, groups in enumerate(state.arrangements):
            grouped = [card for cards in groups for card in cards]
            assert len(grouped) == len(set(grouped)) and set(grouped) <= set(state.hands[index])
            assert all(groups)
            view = state.view(index)
            assert sorted(view["ungrouped"] + [c for row in view["groups"] for c in row["cards"]]) == \
                sorted(view["hand"])
        assert POINTS_RUMMY.from_dict(json.loads(json.dumps(state.to_dict()))).to_dict() == state.to_dict()
