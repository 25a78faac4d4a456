"""Take-backs (the core's ``TAKE_BACKS`` option of every game with opponents): a seat takes back its
own last action until the next seat acts, unless it showed anyone a card hidden from that seat."""

from __future__ import annotations

import pytest

import app.games  # noqa: F401  (registers every game)
from app.core import registry
from app.core.protocol import AcceptTakeBack, BadAction, RefuseTakeBack, TakeBack, WrongPhase

RUMMY = registry.get("rummy")
TWENTY_ONE = registry.get("twentyone")


def rummy(mode: str, names=("Ann", "Bob")):
    return RUMMY.new_state(list(names), options={"take_backs": mode}, seed=7)


def act(state, seat, **data):
    return state.apply(seat, state.definition.action_from_dict(data))


def moves(state, seat):
    return [move.action for move in state.legal(seat)]


def test_every_game_with_opponents_offers_take_backs_and_a_solitaire_none():
    for definition in registry.games():
        assert definition.takes_back == (definition.max_seats > 1)
    assert not registry.get("seahaven").takes_back


def test_off_by_default_no_move_and_the_action_refused():
    state = rummy("off")
    act(state, 0, action="draw", source="discard")
    assert "take_back" not in moves(state, 0)
    with pytest.raises(BadAction):
        state.apply(0, TakeBack())
    assert RUMMY.validate_options({})["take_backs"] == "off"


def test_free_a_discard_taken_back_restores_the_state_before_it():
    state = rummy("free")
    act(state, 0, action="draw", source="discard")
    card = state.players[0].hand.cards()[0].id
    before = state.to_dict()
    act(state, 0, action="discard", cards=[card])
    assert state.to_move() == 1 and "take_back" in moves(state, 0)
    outcome = state.apply(0, TakeBack())
    assert [line["text"] for line in outcome.events] == ["Ann took back their discard."]
    assert state.to_move() == 0 and card in [c.id for c in state.players[0].hand.cards()]
    after = state.to_dict()
    for key in ("players", "discard", "stock", "phase", "turn"):
        assert after[key] == before[key]
    assert "take_back" not in moves(state, 0)  # one action back only


def test_a_draw_from_the_stock_shows_a_hidden_card_and_cannot_be_taken_back():
    state = rummy("free")
    act(state, 0, action="draw", source="stock")
    assert "take_back" not in moves(state, 0)
    with pytest.raises(WrongPhase):
        state.apply(0, TakeBack())


def test_the_next_seat_acting_ends_the_take_back():
    state = rummy("free")
    act(state, 0, action="draw", source="discard")
    act(state, 0, action="discard", cards=[state.players[0].hand.cards()[0].id])
    act(state, 1, action="draw", source="discard")
    assert "take_back" not in moves(state, 0)
    assert "take_back" in moves(state, 1)  # Bob's own draw of a face-up card


def test_asked_the_other_player_accepts_with_one_tap():
    state = rummy("asked")
    act(state, 0, action="draw", source="discard")
    act(state, 0, action="discard", cards=[state.players[0].hand.cards()[0].id])
    asked = state.apply(0, TakeBack())
    assert asked.events[-1]["text"] == "Ann asks to take back their discard."
    assert [m.label for m in state.legal(1) if m.action.endswith("take_back")] == [
        "Let Ann take back their discard", "Keep Ann's discard"]
    with pytest.raises(WrongPhase):
        state.apply(0, AcceptTakeBack())  # not one's own
    outcome = state.apply(1, AcceptTakeBack())
    assert outcome.events[-1]["text"] == "Ann took back their discard." and state.to_move() == 0


def test_asked_the_other_player_may_refuse_and_the_action_stands():
    state = rummy("asked")
    act(state, 0, action="draw", source="discard")
    act(state, 0, action="discard", cards=[state.players[0].hand.cards()[0].id])
    state.apply(0, TakeBack())
    outcome = state.apply(1, RefuseTakeBack())
    assert outcome.events[-1]["text"] == "Bob keeps Ann's discard: it stands."
    assert state.to_move() == 1 and "take_back" not in moves(state, 0)


def test_asked_a_computer_player_accepts_at_once():
    state = rummy("asked", names=("Ann", "AI"))
    act(state, 0, action="draw", source="discard")
    assert [m.label for m in state.legal(0) if m.action == "take_back"] == ["Take back your draw"]
    outcome = state.apply(0, TakeBack())
    assert outcome.events[-1]["text"] == "Ann took back their draw." and state.phase == "draw"


def test_21_a_hit_cannot_be_taken_back_a_stay_can_until_the_next_player_acts():
    state = TWENTY_ONE.new_state(["Ann", "Bob"], options={"take_backs": "free"}, seed=3)
    act(state, 0, action="hit")
    assert "take_back" not in moves(state, 0)
    if state.to_move() == 0:
        act(state, 0, action="stay")
        assert state.to_move() == 1 and "take_back" in moves(state, 0)
        state.apply(0, TakeBack())
        assert state.to_move() == 0 and state.log[-1]["text"] == "Ann took back their stay."


def test_a_kept_take_back_survives_saving():
    state = rummy("asked")
    act(state, 0, action="draw", source="discard")
    act(state, 0, action="discard", cards=[state.players[0].hand.cards()[0].id])
    state.apply(0, TakeBack())
    again = RUMMY.from_dict(state.to_dict())
    assert again.take_back_asked() == 0 and again.legal(1) == state.legal(1)
    again.apply(1, AcceptTakeBack())
    assert again.to_move() == 0


def test_mason_rummy_takes_back_a_draw_from_the_discard_pile():
    mason = registry.get("mason")
    state = mason.new_state(["Ann", "Bob"], options={"take_backs": "free"}, seed=2)
    seat = state.to_move()
    state.apply(seat, mason.action_from_dict({"action": "draw_discard"}))
    assert "take_back" in moves(state, seat)
    state.apply(seat, TakeBack())
    assert state.log[-1]["text"].endswith("took back their draw.")
    assert [m.action for m in state.legal(seat)] == ["draw_stock", "draw_discard"]


def test_mason_rummy_a_stock_draw_cannot_be_taken_back_though_an_earlier_round_named_the_card():
    """R2.4: each round is dealt from a fresh deck, so a card round 1's log named may lie hidden
    in round 2's stock: drawing it shows it to the drawer (R4.4), and taking that back would let
    them put a card they know on top of the stock."""
    mason = registry.get("mason")
    state = mason.new_state(["Ann", "Bob"], options={"take_backs": "free"}, seed="x")
    named_earlier = set()
    while not (state.round_number == 2 and moves(state, state.to_move() or 0)[:1] == ["draw_stock"]
               and state.stock and state.stock[0].code in named_earlier):
        assert not state.is_over(), "no stock draw of a card named in round 1 came up"
        seat = state.to_move()
        if seat is None:
            named_earlier = {code for line in state.log for code in line["cards"]}
            act(state, None, action="next_round")
        else:
            state.apply(seat, mason.bot.choose(state, seat))
    seat = state.to_move()
    act(state, seat, action="draw_stock")
    assert "take_back" not in moves(state, seat)
    with pytest.raises(WrongPhase):
        state.apply(seat, TakeBack())


def test_21_a_hit_from_a_refilled_deck_cannot_be_taken_back():
    """T3.6: the discard pile becomes the deck, shuffled: its cards were named face up before,
    but where each lies now is hidden, and a hit shows the one drawn."""
    state = TWENTY_ONE.new_state(["Ann", "Bob"], options={"take_backs": "free", "rounds": 50}, seed=3)
    while not (state.table.refills and state.to_move() is not None):
        assert not state.is_over(), "the deck was never refilled"
        seat = state.to_move()
        if seat is None:
            act(state, None, action="deal")
        else:
            act(state, seat, action="stay" if state.table.players[seat].hand_value > 14 else "hit")
    seat = state.to_move()
    act(state, seat, action="hit")
    assert "take_back" not in moves(state, seat)
    with pytest.raises(WrongPhase):
        state.apply(seat, TakeBack())
