"""C7.1 (what each seat sees) and the protocol: actions as plain data, moves, saved games."""

from __future__ import annotations

import json
import re

import pytest
from game_checks import strings_in
from rummy_test_helpers import RUMMY, act, deal, hand_codes, situation

from app.core.protocol import BadAction, GameIsOver, NotYourTurn, WrongPhase
from app.games.rummy.actions import DealHand, DiscardCard, DrawCard, LayOff, MeldCards

QUICK = "AC 2C 3C 4C 5D 5H 5S 9S TS JS"
HIGH = "KC QD JH TD 9H 8C KD QH 7S 6H"


def test_c7_1_a_seat_sees_the_table_its_hand_and_sizes_never_another_hand_or_the_stock():
    game = deal(["Ann", "Bob"], [QUICK, HIGH], "7H", "2D")
    act(game, 0, "draw", source="stock")
    act(game, 0, "meld", "AC", "2C", "3C", "4C")
    view = game.view(0)
    assert view["hand"] == ["2D", "5D", "5H", "5S", "9S", "TS", "JS"]
    assert view["discard_top"] == "7H" and view["stock_size"] == 30
    assert view["melds"] == [{"number": 1, "owner": 0, "owner_label": "Ann", "kind": "run",
                              "cards": ["AC", "2C", "3C", "4C"]}]
    assert [(p["label"], p["hand_size"], p["score"], p["melds"]) for p in view["players"]] == [
        ("Ann", 7, 0, [1]), ("Bob", 10, 0, [])]
    seen = strings_in(view)
    assert not seen & set(HIGH.split()), "Bob's cards"
    assert not seen & set(game.to_dict()["stock"]), "the stock"
    assert {c.code for c in game.hidden_from(0)} == set(HIGH.split()) | set(game.to_dict()["stock"])
    spectator = game.view(None)
    assert spectator["hand"] is None and not strings_in(spectator) & set(QUICK.split()[4:])


def test_c7_1_a_card_taken_from_the_discard_pile_is_no_secret():
    game = deal(["Ann", "Bob"], [QUICK, HIGH], "7H", "2D")
    act(game, 0, "draw", source="discard")
    assert "7H" not in {c.code for c in game.hidden_from(1)}
    assert game.view(1)["log"][-1]["text"] == "Ann took 7H from the discard pile."


def test_c7_1_earlier_hands_do_not_name_cards_now_hidden():
    game = deal(["Ann", "Bob"], [QUICK, HIGH], "7H", "2D", rummy_bonus=False)
    act(game, 0, "draw", source="stock")
    act(game, 0, "meld", "AC", "2C", "3C", "4C")
    act(game, 0, "meld", "5D", "5H", "5S")
    act(game, 0, "meld", "9S", "TS", "JS")
    act(game, 0, "discard", "2D")
    act(game, None, "deal")  # hand 2: Bob is dealt Ann's old cards
    ann = [event["text"] for event in game.view(0)["log"]]
    bob = [event["text"] for event in game.view(1)["log"]]
    assert "Ann melded a run: ?? ?? ?? ?? (meld 1)." in ann  # those cards are in Bob's hand now
    assert "Ann melded a run: AC 2C 3C 4C (meld 1)." in bob  # ... which Bob sees
    assert game.log[2]["text"] == "Ann melded a run: AC 2C 3C 4C (meld 1)."  # the log itself is whole
    assert len(ann) == len(game.log)  # the whole game's log, every hand


def test_c7_1_earlier_hands_lay_offs_do_not_name_hidden_meld_cards():
    """A lay-off's text names the whole meld; in a later hand none of those cards may show if
    it is hidden from the seat."""
    game = situation(["5C 9H 9D 9S", "KC QD JH"], melds=[(1, "2C 3C 4C")], phase="draw", stock="KH",
                     opened=[True, False])
    act(game, 0, "draw", source="stock")
    act(game, 0, "lay_off", "5C", meld="1")
    act(game, 0, "meld", "9H", "9D", "9S")
    act(game, 0, "discard", "KH")
    act(game, None, "deal")
    assert any("Bob's run: 2C 3C 4C 5C" in event["text"] for event in game.log)
    for seat in (None, 0, 1):
        hidden = {card.code for card in game.hidden_from(seat)}
        for event in game.view(seat)["log"]:
            named = set(re.findall(r"\b[A2-9TJQK][CDHS]\b", event["text"])) | set(event["cards"])
            assert not named & hidden, (seat, event)


def test_action_plain_data_round_trip():
    d = RUMMY.deck.parse
    for action in (DrawCard("stock"), DrawCard("discard"), MeldCards((d("5S"), d("6S"), d("7S"))),
                   LayOff(d("8S"), 2), DiscardCard(d("KD")), DealHand()):
        data = RUMMY.action_to_dict(action)
        assert json.loads(json.dumps(data)) == data
        assert RUMMY.action_from_dict(data) == action
    assert RUMMY.action_from_dict({"action": "lay_off", "cards": ["8s"], "meld": " 2 "}) == LayOff(d("8S"), 2)
    assert RUMMY.action_from_dict({"action": "discard", "cards": ["kd"], "csrf": "x"}) == DiscardCard(d("KD"))


@pytest.mark.parametrize("data", [
    None, "draw", [], {}, {"action": 7}, {"action": "fly"}, {"action": "draw"}, {"action": "draw", "source": "deck"},
    {"action": "meld", "cards": "5S 6S 7S"}, {"action": "meld", "cards": ["5S", "ZZ"]},
    {"action": "meld", "cards": [5]},
    {"action": "lay_off", "cards": ["8S"]}, {"action": "lay_off", "cards": ["8S"], "meld": "two"},
    {"action": "lay_off", "cards": ["8S"], "meld": "0"}, {"action": "lay_off", "cards": ["8S", "9S"], "meld": "1"},
    {"action": "lay_off", "cards": ["8S"], "meld": True}, {"action": "discard", "cards": []},
    {"action": "discard", "cards": ["KD", "KS"]}, {"action": "discard"},
])
def test_malformed_actions_are_bad_actions(data):
    with pytest.raises(BadAction) as refusal:
        RUMMY.action_from_dict(data)
    assert str(refusal.value)


def test_moves_turn_into_actions():
    game = deal(["Ann", "Bob"], ["5S 6S 7S 8C 8D 8H 8S QH 2C 4D", "9H TH JH 3C 6C KD AS 3D JC 7D"], "KS", "9C KC 2H")
    draws = game.legal(0)
    assert [(m.action, m.label, m.menu) for m in draws] == [("draw", "Draw from stock pile", "Draw menu"),
                                                            ("draw", "Draw from discard pile", "Draw menu")]
    game.apply(0, RUMMY.action_from_dict(draws[0].as_dict()))
    moves = {m.action: m for m in game.legal(0)}
    assert list(moves) == ["discard", "meld"]  # nothing to lay off on yet
    assert moves["meld"].pick == (3, 11) and moves["discard"].pick == (1, 1)
    game.apply(0, RUMMY.action_from_dict(moves["meld"].as_dict(["5s", "6S", "7S"])))
    lay_off = {m.action: m for m in game.legal(0)}["lay_off"]
    assert (lay_off.pick, lay_off.target, lay_off.targets) == ((1, 1), "meld", ("1",))
    game.apply(0, RUMMY.action_from_dict(lay_off.as_dict(["8S"], "1")))
    assert hand_codes(game, 0).split().count("8S") == 0


def test_turns_phases_and_the_end_are_refused_with_their_reasons():
    game = deal(["Ann", "Bob"], [QUICK, HIGH], "7H", "2D")
    with pytest.raises(NotYourTurn, match="Ann's turn"):
        act(game, 1, "draw", source="stock")
    with pytest.raises(WrongPhase, match="still being played"):
        act(game, 0, "deal")
    with pytest.raises(BadAction):
        game.apply(0, "draw")
    act(game, 0, "draw", source="stock")
    for meld in ("AC 2C 3C 4C", "5D 5H 5S", "9S TS JS"):
        act(game, 0, "meld", *meld.split())
    act(game, 0, "discard", "2D")
    assert game.is_over()
    with pytest.raises(GameIsOver):
        act(game, 0, "discard", "KC")


def test_between_hands_every_seat_may_deal_and_nothing_else():
    game = deal(["Ann", "Bob"], [QUICK, HIGH], "7H", "2D", rummy_bonus=False)
    act(game, 0, "draw", source="stock")
    for meld in ("AC 2C 3C 4C", "5D 5H 5S", "9S TS JS"):
        act(game, 0, "meld", *meld.split())
    act(game, 0, "discard", "2D")
    assert game.to_move() is None
    for seat in (None, 0, 1):
        assert [(m.action, m.label) for m in game.legal(seat)] == [("deal", "Deal hand 2")]
    with pytest.raises(WrongPhase, match="deal the next hand"):
        act(game, 1, "draw", source="stock")
    with pytest.raises(NotYourTurn):
        game.apply(5, DealHand())
    assert game.view(1)["summary"]["lines"] == ["Hand 1:", "Ann: 90 points, total 90", "Bob: 0 points, total 0"]


def test_a_game_saved_after_the_taken_card_was_melded():
    game = deal(["Ann", "Bob"], [QUICK, HIGH], "5C", "2D")
    act(game, 0, "draw", source="discard")  # 5C
    act(game, 0, "meld", "AC", "2C", "3C", "4C", "5C")
    again = RUMMY.from_dict(json.loads(json.dumps(game.to_dict())))
    assert again.to_dict() == game.to_dict()
    act(again, 0, "discard", "JS")


def test_saved_games_round_trip_and_bad_ones_are_refused():
    game = situation(["5C 7H 9D", "KC QD JH"], melds=[(1, "2C 3C 4C")], discard="8D", taken="7H")
    data = json.loads(json.dumps(game.to_dict()))
    assert RUMMY.from_dict(data).to_dict() == data
    broken = [
        dict(data, phase="dancing"),
        dict(data, turn=2),
        dict(data, melds=[{"owner": 1, "kind": "run", "cards": ["2C", "3C", "5C"]}]),
        dict(data, stock=data["stock"][1:]),  # a card missing
        dict(data, discard=data["discard"] + [data["stock"][0]]),  # a card twice
        dict(data, taken="KC"),  # not in the hand of the seat to move
        dict(data, names=["Ann"]),
        {key: value for key, value in data.items() if key != "log"},
        dict(data, target=20),
        "not a game",
    ]
    for bad in broken:
        with pytest.raises(ValueError):
            RUMMY.from_dict(bad)


def test_c7_1_the_web_table_s_marks_the_drawn_card_for_its_drawer_only_the_latest_meld_and_a_title():
    """The web table marks the card just drawn (from either pile) in its drawer's hand (nobody
    else's view names it) and the meld played on last; a summary has a title for the status bar.
    Games saved before these marks existed load without them."""
    game = deal(["Ann", "Bob"], [QUICK, HIGH], "7H", "2D", target=500)
    assert game.view(0)["drawn"] is None
    act(game, 0, "draw", source="stock")
    assert game.view(0)["drawn"] == "2D"
    assert game.view(1)["drawn"] is None and game.view(None)["drawn"] is None
    assert "2D" not in strings_in(game.view(1)) and "2D" not in strings_in(game.view(None))
    data = json.loads(json.dumps(game.to_dict()))
    assert data["drawn"] == "2D" and RUMMY.from_dict(data).view(0)["drawn"] == "2D"
    del data["drawn"]
    assert RUMMY.from_dict(data).view(0)["drawn"] is None
    assert game.view(1)["latest_meld"] is None
    act(game, 0, "meld", "AC", "2C", "3C")
    act(game, 0, "meld", "5D", "5H", "5S")
    assert game.view(1)["latest_meld"] == 2
    act(game, 0, "lay_off", "4C", meld="1")
    assert game.view(None)["latest_meld"] == 1  # a lay-off makes its meld the latest
    data = json.loads(json.dumps(game.to_dict()))
    assert RUMMY.from_dict(data).view(0)["latest_meld"] == 1
    for bad in (0, 3, "1"):
        with pytest.raises(ValueError):
            RUMMY.from_dict(dict(data, latest_meld=bad))
    del data["latest_meld"]
    assert RUMMY.from_dict(data).view(0)["latest_meld"] is None
    act(game, 0, "meld", "9S", "TS", "JS")
    act(game, 0, "discard", "2D")
    assert game.view(0)["drawn"] is None
    assert game.view(1)["summary"]["title"] == "Hand 1: Ann went out with a rummy"
    with pytest.raises(ValueError):
        RUMMY.from_dict(dict(game.to_dict(), drawn="2D"))  # between hands nobody has drawn
    act(game, None, "deal")
    assert game.view(1)["latest_meld"] is None and game.view(1)["melds"] == []


def test_c7_1_the_view_lists_the_cards_seen_face_up_during_the_hand():
    """The cards every player saw face up in this hand (the card turned up, discards, cards
    taken from the pile, melds), which the computer player counts as no longer to come (C6.3):
    every seat's view and a spectator's list the same, and never a card nobody saw."""
    game = deal(["Ann", "Bob"], [QUICK, HIGH], "7H", "2D")
    assert game.view(0)["seen"] == ["7H"]
    act(game, 0, "draw", source="stock")
    act(game, 0, "meld", "AC", "2C", "3C", "4C")
    act(game, 0, "discard", "2D")
    act(game, 1, "draw", source="discard")  # Bob takes 2D: seen, though now in his hand
    seen = ["AC", "2C", "3C", "4C", "2D", "7H"]
    assert sorted(game.view(0)["seen"]) == sorted(seen)
    assert game.view(1)["seen"] == game.view(0)["seen"] == game.view(None)["seen"]
    assert not set(game.view(0)["seen"]) & {card.code for card in game.hidden_from(0)}
