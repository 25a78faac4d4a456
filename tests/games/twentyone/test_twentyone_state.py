"""The game state of 21 on the protocol: T3 and T5 as lines in the log, T7 (several players,
privacy), T5.3 (statistics), the moves between rounds, the end of the game, refusals, plain
data, the computer players."""

from __future__ import annotations

import json
import random

import pytest
from game_checks import strings_in
from twentyone_helpers import LOWS, TENS, new_game, planned, stacked, texts

from app.core import BadAction, GameIsOver, NotYourTurn, OptionError, WrongPhase
from app.core.autoplay import autoplay, computer_seats
from app.games.twentyone import DECK, DEFINITION, Deal, DealerRule, EndTable, Hit, RandomChoice, Stay

ANN_BOB_CY = ("Ann", "Bob", "Cy")


def hand_lines(events) -> list[str]:
    return [event["text"] for event in events if event["kind"] == "hand"]


def results_of(events) -> list[str]:
    return [event["text"] for event in events if event["kind"] == "result"]


# -- a new game, one player (T3, T5.1 word for word) -----------------------------------------------------


def test_t3_1_a_new_game_has_round_1_dealt_and_the_first_seat_to_play():
    game = new_game(("Ann",), "9S", "5C", "AD", "KH")
    assert texts(game.log) == ["Round 1", "Dealing cards to player and dealer...",
                               "Player's hand:[ 9S ][ AD ], value = 10", "Dealer's hand:[ 5C ][ xx ]"]
    assert game.to_move() == 0
    assert [move.action for move in game.legal(0)] == ["hit", "stay"]
    assert game.legal(None) == []
    view = game.view(0)
    assert view["hand"] == ["9S", "AD"]
    assert view["dealer"]["cards"] == ["5C", None]
    assert (view["dealer"]["value"], view["dealer"]["showing"], view["dealer"]["hidden"]) == (None, 5, 1)
    assert view["hands"][0]["value"] == 10 and view["stage"] == "Round 1 of 5"


def test_t3_2_and_t5_1_bust_ends_the_round_at_once_and_the_hidden_card_stays_hidden():
    game = new_game(("Ann",), "TS", "6C", "8H", "9D", "KC")
    outcome = game.apply(0, Hit())
    assert texts(outcome.events) == ["Player hits.", "Player's hand:[ TS ][ 8H ][ KC ], value = 28",
                                     "Dealer's hand:[ 6C ][ xx ]", "Player went bust. Dealer won round 1!"]
    assert outcome.round_over and game.to_move() is None
    assert game.view(0)["dealer"]["cards"] == ["6C", None]
    assert DECK.parse("9D") in game.hidden_from(0) and DECK.parse("9D") in game.hidden_from(None)
    for seat in (0, None):
        assert "9D" not in json.dumps(game.view(seat))
    game.apply(None, Deal())  # T3.5: the hidden card goes to the discard pile face down
    assert DECK.parse("9D") in game.hidden_from(0)
    assert "9D" not in json.dumps(game.view(0))


def test_t3_3_and_t5_1_exactly_21_after_a_hit_wins_at_once_and_the_dealer_does_not_play():
    game = new_game(("Ann",), "9S", "5C", "7H", "KD", "5D")
    outcome = game.apply(0, Hit())
    assert results_of(outcome.events) == ["Player wins round 1 with a natural 21!"]
    assert hand_lines(outcome.events)[-1] == "Dealer's hand:[ 5C ][ xx ]"
    assert game.view(0)["dealer"]["played"] is False
    assert "KD" not in json.dumps(game.view(0))
    assert game.view(0)["hands"][0]["result"] == "won"


@pytest.mark.parametrize("front, hits, line", [
    (["TS", "6C", "8H", "9D", "KC"], 0, "Dealer went bust. Player wins round 1!"),
    (["TS", "5C", "9H", "6D", "KC"], 0, "Dealer has a natural 21! Dealer wins round 1!"),
    (["TS", "TC", "9H", "7D"], 0, "Player wins round 1!"),
    (["9S", "TC", "7H", "8D"], 0, "Dealer wins round 1!"),
    (["TS", "9C", "8H", "9D"], 0, "Tie! No one wins round 1!"),
    (["5S", "9C", "4H", "9D", "2H", "7D"], 2, "Tie! No one wins round 1!"),
    (["5S", "6C", "4H", "9D", "2H", "KC"], 1, "Dealer went bust. Player wins round 1!"),
])
def test_t3_4_and_t5_1_the_lines_after_the_dealer_played(front, hits, line):
    game = new_game(("Ann",), *front)
    for _ in range(hits):
        game.apply(0, Hit())
    outcome = game.apply(0, Stay())
    assert results_of(outcome.events) == [line]
    assert outcome.round_over and game.view(0)["dealer"]["played"]


def test_t6_2_and_t5_2_the_dealer_plays_card_by_card_each_card_its_own_event():
    game = new_game(("Ann",), "TS", "6C", "8H", "9D", "AC", "KC")
    outcome = game.apply(0, Stay())
    assert texts(outcome.events) == [
        "Player stays.",
        "Player's hand:[ TS ][ 8H ], value = 18", "Dealer's hand:[ 6C ][ 9D ], value = 15",
        "Dealer must take a card...",
        "Player's hand:[ TS ][ 8H ], value = 18", "Dealer's hand:[ 6C ][ 9D ][ AC ], value = 16",
        "Dealer must take a card...",
        "Player's hand:[ TS ][ 8H ], value = 18", "Dealer's hand:[ 6C ][ 9D ][ AC ][ KC ], value = 26",
        "Dealer went bust. Player wins round 1!",
    ]
    steps = game.view(None)["dealer"]["steps"]
    assert [(step["cards"], step["value"]) for step in steps] == [
        (["6C", "9D"], 15), (["6C", "9D", "AC"], 16), (["6C", "9D", "AC", "KC"], 26)]
    assert game.view(None)["dealer"]["bust"] is True


# -- several players (T7.1) ------------------------------------------------------------------------------


def three_player_round():
    # Ann TS 8H stays on 18; Bob 9C 7D hits KC, bust; Cy 9S 7C hits 5D, 21;
    # the dealer 6C 9D takes AC and 2C: 18.
    return new_game(ANN_BOB_CY, "TS", "9C", "9S", "6C", "8H", "7D", "7C", "9D", "KC", "5D", "AC", "2C")


def test_t7_1_players_act_in_seat_order_and_each_result_is_against_the_dealer_alone():
    game = three_player_round()
    assert hand_lines(game.log) == ["Ann's hand:[ TS ][ 8H ], value = 18", "Bob's hand:[ 9C ][ 7D ], value = 16",
                                    "Cy's hand:[ 9S ][ 7C ], value = 16", "Dealer's hand:[ 6C ][ xx ]"]
    assert texts(game.log)[1] == "Dealing cards to players and dealer..."
    assert game.to_move() == 0
    with pytest.raises(NotYourTurn):
        game.apply(1, Hit())
    assert texts(game.apply(0, Stay()).events) == ["Ann stays."]
    assert game.to_move() == 1 and game.legal(0) == [] and game.legal(2) == []
    bob = game.apply(1, Hit())
    assert texts(bob.events) == ["Bob hits.", "Bob's hand:[ 9C ][ 7D ][ KC ], value = 26",
                                 "Bob went bust. Dealer won round 1 against Bob!"]
    assert game.to_move() == 2 and not bob.round_over
    cy = game.apply(2, Hit())
    assert texts(cy.events) == [
        "Cy hits.", "Cy's hand:[ 9S ][ 7C ][ 5D ], value = 21", "Cy wins round 1 with a natural 21!",
        "Dealer's hand:[ 6C ][ 9D ], value = 15", "Dealer must take a card...",
        "Dealer's hand:[ 6C ][ 9D ][ AC ], value = 16", "Dealer must take a card...",
        "Dealer's hand:[ 6C ][ 9D ][ AC ][ 2C ], value = 18",
        "Tie! No one wins round 1 between Ann and the dealer!",
    ]
    assert cy.round_over
    assert [hand["result"] for hand in game.view(None)["hands"]] == ["tied", "lost", "won"]
    assert [hand["status"] for hand in game.view(None)["hands"]] == ["stayed", "bust", "21"]


def test_t7_1_the_dealer_does_not_play_when_nobody_stands():
    game = new_game(("Ann", "Bob"), "TS", "9C", "6C", "8H", "7D", "9D", "KC", "5D")
    game.apply(0, Hit())  # 28: bust
    outcome = game.apply(1, Hit())  # 21
    assert results_of(outcome.events) == ["Bob wins round 1 with a natural 21!"]
    assert outcome.round_over
    assert game.view(None)["dealer"]["cards"] == ["6C", None]
    assert "9D" not in json.dumps(game.view(None))


def test_t7_1_dealer_bust_and_dealer_21_are_said_once_then_each_player_s_line():
    game = new_game(("Ann", "Bob"), "TS", "9C", "6C", "8H", "8D", "9D", "KC")
    game.apply(0, Stay())
    assert results_of(game.apply(1, Stay()).events) == ["Dealer went bust.", "Ann wins round 1!", "Bob wins round 1!"]
    game = new_game(("Ann", "Bob"), "TS", "9C", "5C", "8H", "8D", "6D", "KC")
    game.apply(0, Stay())
    assert results_of(game.apply(1, Stay()).events) == [
        "Dealer has a natural 21!", "Dealer wins round 1 against Ann!", "Dealer wins round 1 against Bob!"]


def test_several_computer_seats_are_told_apart_in_the_lines():
    game = new_game(("AI", "Ann", "AI"), "TS", "9C", "6C", "8H", "8D", "9D", "KC", "7S")
    assert hand_lines(game.log) == ["AI 1's hand:[ TS ][ 8D ], value = 18", "Ann's hand:[ 9C ][ 9D ], value = 18",
                                    "AI 3's hand:[ 6C ][ KC ], value = 16", "Dealer's hand:[ 8H ][ xx ]"]
    assert [player["label"] for player in game.view(None)["players"]] == ["AI 1", "Ann", "AI 3"]


# -- between rounds, the end ------------------------------------------------------------------------------


def finish_round(game) -> None:
    while game.to_move() is not None:
        game.apply(game.to_move(), Stay())


def test_between_rounds_nobody_is_to_move_and_anyone_deals_or_ends():
    game = new_game(("Ann", "Bob"))
    finish_round(game)
    assert game.to_move() is None
    assert [(move.action, move.label) for move in game.legal(None)] == [("deal", "Deal round 2"),
                                                                       ("end", "End the table")]
    assert game.legal(0) == game.legal(None) == game.legal(1)
    with pytest.raises(WrongPhase):
        game.apply(0, Hit())
    game.apply(1, Deal())
    assert game.round_number == 2 and game.to_move() == 0
    assert "Round 2" in texts(game.log)
    with pytest.raises(WrongPhase):
        game.apply(None, Deal())
    with pytest.raises(WrongPhase):
        game.apply(0, EndTable())


def test_t3_7_the_next_round_deals_on_from_the_same_deck():
    game = new_game(("Ann",), "9S", "TC", "AD", "KH", "2C", "3C", "4C", "5D")  # the dealer stands on 20
    game.apply(0, Stay())
    game.apply(None, Deal())
    assert game.view(0)["hand"] == ["2C", "4C"]
    assert game.view(0)["dealer"]["cards"] == ["3C", None]
    assert (game.view(0)["deck_count"], game.view(0)["discard_count"]) == (44, 4)


def test_the_game_ends_after_the_rounds_option_with_the_tally():
    game = new_game(("Ann", "Bob"), rounds=2)
    finish_round(game)
    game.apply(None, Deal())
    outcome = None
    while game.to_move() is not None:
        outcome = game.apply(game.to_move(), Stay())
    assert outcome.game_over and game.is_over()
    assert game.legal(None) == [] and game.legal(0) == []
    with pytest.raises(GameIsOver):
        game.apply(None, Deal())
    results = game.results()
    assert [result.seat for result in results] == [0, 1]
    for result in results:
        tally = game.tally(result.seat)
        assert sum(tally.values()) == 2
        assert result.figures == {"rounds_won": tally["won"], "rounds_lost": tally["lost"],
                                  "rounds_tied": tally["tied"]}
        assert result.won == (tally["won"] > tally["lost"]) and result.score == tally["won"]
    assert texts(game.log)[-3] == "That was the last round (2)."


def test_ending_the_table_ends_the_game_with_the_rounds_played():
    game = new_game(("Ann",), "TS", "6C", "8H", "9D", "KC", rounds=0)
    assert game.view(0)["stage"] == "Round 1"
    game.apply(0, Stay())  # the dealer goes bust: Ann won round 1
    assert game.results() == []  # an unfinished game has no results
    outcome = game.apply(0, EndTable())
    assert outcome.game_over and game.is_over()
    assert game.results()[0].figures == {"rounds_won": 1, "rounds_lost": 0, "rounds_tied": 0}
    assert game.results()[0].won
    assert texts(outcome.events) == ["The table is ended after round 1.", "Ann: 1 won, 0 lost, 0 tied."]


def test_t5_3_statistics_are_rounds_won_lost_and_tied():
    assert [(stat.key, stat.combine) for stat in DEFINITION.statistics] == [
        ("rounds_won", "sum"), ("rounds_lost", "sum"), ("rounds_tied", "sum")]


def test_the_summary_between_rounds_lists_the_round_s_results_and_the_tally():
    game = three_player_round()
    for seat, action in ((0, Stay()), (1, Hit()), (2, Hit())):
        game.apply(seat, action)
    summary = game.view(1)["summary"]
    assert summary["lines"] == ["Bob went bust. Dealer won round 1 against Bob!", "Cy wins round 1 with a natural 21!",
                                "Tie! No one wins round 1 between Ann and the dealer!"]
    assert [row["result"] for row in summary["results"]] == ["tied", "lost", "won"]
    assert [(row["won"], row["lost"], row["tied"]) for row in summary["tally"]] == [(0, 0, 1), (0, 1, 0), (1, 0, 0)]
    assert game.view(1)["prompt"] == "Deal round 2, or end the table."


# -- refusals ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seat", [-1, 3, 7, True, "0"])
def test_seats_that_do_not_exist_are_refused(seat):
    game = new_game(("Ann", "Bob", "Cy"))
    before = game.to_dict()
    with pytest.raises(NotYourTurn):
        game.apply(seat, Stay())
    assert game.to_dict() == before
    assert game.legal(seat if not isinstance(seat, str) else 9) == []


def test_a_refusal_changes_nothing_and_says_why():
    game = new_game(("Ann", "Bob"))
    before = game.to_dict()
    for seat, action, refusal in [(1, Hit(), NotYourTurn), (None, Stay(), NotYourTurn), (0, Deal(), WrongPhase),
                                  (0, "hit", BadAction)]:
        with pytest.raises(refusal) as raised:
            game.apply(seat, action)
        assert str(raised.value)
        assert game.to_dict() == before


@pytest.mark.parametrize("data", [None, "hit", [], {}, {"action": 7}, {"action": "double"}, {"action": None},
                                  {"action": "hit", "cards": ["QH"]}, {"action": "stay", "cards": "QH"}])
def test_malformed_actions_are_bad_actions(data):
    with pytest.raises(BadAction):
        DEFINITION.action_from_dict(data)


@pytest.mark.parametrize("data, action", [({"action": "hit"}, Hit()), ({"action": " Stay "}, Stay()),
                                          ({"action": "DEAL", "cards": []}, Deal()),
                                          ({"action": "end", "csrf_token": "x"}, EndTable())])
def test_actions_from_forms(data, action):
    assert DEFINITION.action_from_dict(data) == action
    assert DEFINITION.action_from_dict(DEFINITION.action_to_dict(action)) == action


def test_every_move_s_dict_is_an_action():
    game = new_game(("Ann",))
    for move in game.legal(0):
        assert DEFINITION.action_from_dict(move.as_dict()).name == move.action
    finish_round(game)
    for move in game.legal(None):
        assert DEFINITION.action_from_dict(move.as_dict()).name == move.action


# -- set-up ------------------------------------------------------------------------------------------------


def test_t7_1_one_to_five_seats():
    assert (DEFINITION.min_seats, DEFINITION.max_seats) == (1, 5)
    for names in ([], ["A", "B", "C", "D", "E", "F"]):
        with pytest.raises(OptionError):
            DEFINITION.new_state(names, seed=1)
    assert len(DEFINITION.new_state(["A", "B", "C", "D", "E"], seed=1).view(None)["hands"]) == 5


def test_the_rounds_option():
    assert DEFINITION.validate_options({})["rounds"] == 5
    assert DEFINITION.validate_options({"rounds": "12"})["rounds"] == 12
    assert DEFINITION.validate_options({"rounds": "0"})["rounds"] == 0
    for bad in ("51", "-1", "five", ""):
        with pytest.raises(OptionError):
            DEFINITION.validate_options({"rounds": bad})


def test_a_shuffled_game_needs_a_seed_and_a_stacked_deck_must_be_the_52_cards():
    with pytest.raises(ValueError, match="^a shuffled game needs a seed$"):
        DEFINITION.new_state(["Ann"])
    with pytest.raises(ValueError, match="^a stacked deck holds the 52 cards of 21 once each$"):
        DEFINITION.new_state(["Ann"], stacked_deck=stacked()[:51])
    with pytest.raises(ValueError, match="^a stacked deck holds the 52 cards of 21 once each$"):
        DEFINITION.new_state(["Ann"], stacked_deck=stacked()[:51] + stacked()[:1])


def test_t2_4_the_same_seed_deals_the_same_game():
    """T2.4: without a deck file the game's own seed decides the deck."""
    one = DEFINITION.new_state(["Ann", "Bob"], seed=42)
    two = DEFINITION.new_state(["Ann", "Bob"], seed=42)
    assert one.to_dict() == two.to_dict()
    assert one.to_dict()["deck"] != DEFINITION.new_state(["Ann", "Bob"], seed=43).to_dict()["deck"]


def test_t2_4_without_a_deck_file_the_game_deals_the_52_cards_in_its_seeded_order():
    """T2.4: no deck file (the web's default): the 52 cards once each, in a random order that the
    game's seed decides (the same seed, the same order; another seed, another)."""

    def deck_order(seed):
        data = DEFINITION.new_state(["Ann"], seed=seed).to_dict()
        (first, third), (second, fourth) = data["hands"][0], data["dealer"]  # T3.1's deal order
        return [first, second, third, fourth] + data["deck"]

    order = deck_order(42)
    assert len(order) == 52 and sorted(order) == sorted(card.id for card in DECK.cards)
    assert order != [card.id for card in DECK.cards]
    assert deck_order(42) == order
    assert deck_order(43) != order


# -- privacy (T7.2, T3.2, T3.3) -------------------------------------------------------------------------------


def test_t7_2_the_deck_order_is_in_no_view():
    game = new_game(ANN_BOB_CY)
    deck_ids = {card.id for card in game.table.deck}
    for seat in (0, 1, 2, None):
        assert not deck_ids & strings_in(game.view(seat))
        assert {DECK.parse(card_id) for card_id in deck_ids} <= game.hidden_from(seat)
    assert game.view(0)["deck_count"] == 44


def test_t7_2_a_face_down_card_is_never_named_while_it_lies_face_down_in_a_long_game():
    """Five computer seats play 30 rounds (the deck is refilled several times): after every
    action, no event of that action names a card that is not face up on the table, and the
    dealer's hidden card is in no view except in log entries older than its deal."""
    game = DEFINITION.new_state(["AI"] * 5, options={"rounds": 30}, seed=7)
    bot = DEFINITION.bot
    refills = 0
    while not game.is_over():
        seat = game.to_move()
        action = Deal() if seat is None else bot.choose(game, seat)
        log_before = len(game.log)
        outcome = game.apply(seat, action)
        face_up = {card.id for card in game.table.cards_on_table() if card.face_up}
        for event in outcome.events:
            assert set(event["cards"]) <= face_up, event
        refills += sum(event["kind"] == "refill" for event in outcome.events)
        dealt_at = max(index for index, entry in enumerate(game.log[:log_before + len(outcome.events)])
                       if entry["kind"] == "round")
        for card in game.table.dealer.hand:
            if not card.face_up:
                for seat_view in (0, 4, None):
                    view = game.view(seat_view)
                    recent = view.pop("log")[dealt_at:]
                    assert card.id not in strings_in(view) | strings_in(recent)
                    assert card.code not in " ".join(entry["text"] for entry in recent)
    assert refills >= 3


# -- T3.6 / T6.4 in the state ----------------------------------------------------------------------------------


def refill_at_dealer_deck():
    """Twelve rounds of four cards in which the dealer stands on two cards, then the player
    and the dealer both hold 7 7: the deck is empty when the dealer must take a card."""
    rounds = [[LOWS[2 * i], TENS[2 * i], LOWS[2 * i + 1], TENS[2 * i + 1]] for i in range(8)]
    rounds += [[LOWS[16 + 2 * j], "9" + suit, LOWS[17 + 2 * j], "8" + suit] for j, suit in enumerate("CDHS")]
    rounds.append(["7C", "7D", "7H", "7S"])
    return planned(rounds)


def test_t3_6_and_t6_4_the_deck_is_refilled_when_the_dealer_needs_a_card():
    game = new_game(("Ann",), deck=refill_at_dealer_deck(), rounds=0, seed=3)
    for _ in range(12):
        outcome = game.apply(0, Stay())
        assert "Dealer must take a card..." not in texts(outcome.events)
        game.apply(None, Deal())
    assert game.view(0)["deck_count"] == 0 and game.view(0)["discard_count"] == 48
    outcome = game.apply(0, Stay())
    lines = texts(outcome.events)
    assert lines[:5] == ["Player stays.", "Player's hand:[ 7C ][ 7H ], value = 14",
                         "Dealer's hand:[ 7D ][ 7S ], value = 14",
                         "Dealer must take a card...", "Repopulating deck with cards..."]
    assert lines.count("Repopulating deck with cards...") == 1
    assert game.view(0)["discard_count"] == 0
    third = game.table.dealer.hand[2]
    assert third.code not in ("7C", "7D", "7H", "7S")
    assert game.card_locations() == {card: 1 for card in DECK.cards}


def test_t3_6_and_t6_4_a_refill_during_a_hit_comes_right_after_the_hit():
    game = new_game(("Ann",), deck=refill_at_dealer_deck(), rounds=0)
    for _ in range(12):
        game.apply(0, Stay())
        game.apply(None, Deal())
    assert texts(game.apply(0, Hit()).events)[:2] == ["Player hits.", "Repopulating deck with cards..."]


def test_t3_6_and_t6_4_a_refill_in_the_middle_of_a_deal():
    # Round 1 the player hits two aces; eleven rounds of four cards; two cards are left for round 13.
    lows = LOWS[4:]  # 2-6: 20 cards
    rounds = [["AC", "TC", "AD", "TD", "AH", "AS"]]
    tens = TENS[2:]  # 14 tens left
    players = lows + ["7C", "7D"]
    dealers = [tens[2 * i: 2 * i + 2] for i in range(7)] + [["9" + suit, "8" + suit] for suit in "CDHS"]
    for i in range(11):
        rounds.append([players[2 * i], dealers[i][0], players[2 * i + 1], dealers[i][1]])
    rounds.append(["7H", "7S"])
    game = new_game(("Ann",), deck=planned(rounds), rounds=0)
    game.apply(0, Hit())
    game.apply(0, Hit())
    game.apply(0, Stay())
    for _ in range(11):
        game.apply(None, Deal())
        game.apply(0, Stay())
    assert game.view(0)["deck_count"] == 2
    outcome = game.apply(None, Deal())
    assert texts(outcome.events)[:3] == ["Round 13", "Dealing cards to player and dealer...",
                                         "Repopulating deck with cards..."]
    assert [card.code for card in game.table.players[0].hand][0] == "7H"
    assert game.table.dealer.hand[0].code == "7S"


# -- plain data -------------------------------------------------------------------------------------------


def test_the_state_round_trips_through_json_at_every_step():
    game = DEFINITION.new_state(["Ann", "AI", "Bob"], seed=11)
    rng = random.Random(1)
    while not game.is_over():
        data = json.loads(json.dumps(game.to_dict()))
        again = DEFINITION.from_dict(data)
        assert again.to_dict() == game.to_dict()
        assert again.view(1) == game.view(1)
        seat = game.to_move()
        game.apply(seat, Deal() if seat is None else rng.choice([Hit(), Stay()]))


@pytest.mark.parametrize("spoil, message", [
    (lambda data: data["deck"].append(data["deck"][0]), r"^\w\w is in two places$"),
    (lambda data: data["deck"].pop(), r"^the table holds 51 cards, not 52$"),
    (lambda data: data.update(phase="dancing"), r"^'dancing' is not one of playing, between, over$"),
    (lambda data: data.update(turn=5), r"^the seat to play is not playing$"),
    (lambda data: data.update(round=0), r"^the rounds do not add up$"),
    (lambda data: data["face_down"].append(data["hands"][0][0]), r"^players' cards are face up$"),
    (lambda data: data["hands"].pop(), r"^one hand a player$"),
    (lambda data: data.update(names="Ann"), r"^names is a list of names$"),
    (lambda data: data.update(options={"rounds": 99}), r"99 is not between 0 and 50"),
    (lambda data: data.update(seed=[1]), r"^the seed is a number or a text$"),
    (lambda data: data.pop("log"), r"^not a saved game of 21: KeyError\('log'\)$"),
    (lambda data: data["log"].append({"seat": None, "text": "x", "cards": ["ZZ"], "kind": "hand"}),
     r"^'ZZ' is not a card"),
    (lambda data: data["status"].__setitem__(1, "bust"), r"^seat 1 cannot be 'bust' with a hand worth \d+$"),
    (lambda data: data["status"].__setitem__(0, "21"), r"^the seat to play is not playing$"),
    (lambda data: data["hands"][0].extend([data["deck"].pop(0) for _ in range(4)]),  # over 21, still to play
     r"^seat 0 cannot be 'to play' with a hand worth \d+$"),
])
def test_from_dict_refuses_data_that_is_not_a_game(spoil, message):
    data = json.loads(json.dumps(new_game(("Ann", "Bob")).to_dict()))
    spoil(data)
    with pytest.raises(ValueError, match=message):
        DEFINITION.from_dict(data)


# -- the computer players ---------------------------------------------------------------------------------------


def test_the_computer_player_hits_on_16_or_less_and_stays_from_17():
    game = new_game(("AI",), "TS", "TC", "6H", "9D", "AC", "KC")  # 16, then 17
    assert DEFINITION.bot.choose(game, 0) == Hit()
    game.apply(0, Hit())
    assert game.hand_value(0) == 17
    assert DEFINITION.bot.choose(game, 0) == Stay()
    assert isinstance(DEFINITION.bot, DealerRule)


def test_the_baseline_hits_or_stays_at_random_from_its_generator():
    bot = DEFINITION.baseline_bot(random.Random(3))
    assert isinstance(bot, RandomChoice)
    game = new_game(("AI",))
    choices = [bot.choose(game, 0) for _ in range(40)]
    assert {Hit(), Stay()} == set(choices)
    again = DEFINITION.baseline_bot(random.Random(3))
    assert [again.choose(game, 0) for _ in range(40)] == choices


def test_autoplay_runs_computer_seats_and_stops_at_a_person():
    game = DEFINITION.new_state(["AI", "Ann", "AI"], seed=5)
    autoplay(game, computer_seats(game))
    assert game.to_move() == 1
    game.apply(1, Stay())
    autoplay(game, computer_seats(game))
    assert game.to_move() is None and not game.is_over()  # between rounds the table waits


@pytest.mark.parametrize("seats", [1, 3, 5])
def test_computer_players_alone_finish_with_a_result_each(seats):
    game = DEFINITION.new_state(["AI"] * seats, seed=seats)
    autoplay(game, lambda seat: DEFINITION.bot, deal_on=True)
    assert game.is_over() and game.round_number == 5
    assert all(sum(result.figures.values()) == 5 for result in game.results())


def test_the_view_shows_the_discard_pile_s_face_up_cards_and_a_place_for_a_hidden_one():
    game = new_game(("Ann",), "TS", "6C", "8H", "9D", "KC")
    game.apply(0, Hit())  # bust: the dealer's hidden 9D goes to the discard pile face down
    game.apply(None, Deal())
    pile = game.view(0)["discard_pile"]
    assert sorted(card for card in pile if card is not None) == ["6C", "8H", "KC", "TS"] and pile.count(None) == 1
