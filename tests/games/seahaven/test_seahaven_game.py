"""Seahaven Towers on the game protocol: actions as plain data, undo, giving up, the result and
the statistics (S6.1, S6.2), the options, saving and loading, the view."""

from __future__ import annotations

import json

import pytest
from seahaven_helpers import DECK, SHORT_WIN, layout, stacked_state, state_with, table

from app.core import BadAction, GameIsOver, NotYourTurn, OptionError, WrongPhase, registry
from app.core.autoplay import autoplay
from app.games.seahaven import DEFINITION, GiveUp, MoveCard, Undo, deal_cards, first_winnable_deal
from app.games.seahaven.solver import Solver


def short_win_state():
    return stacked_state(DEFINITION.parse_deck(SHORT_WIN.read_text()))


def test_registered_with_one_seat_and_a_computer_player():
    definition = registry.get("seahaven")
    assert definition is DEFINITION and definition.name == "Seahaven Towers"
    assert definition.min_seats == definition.max_seats == 1
    assert definition.bot is not None
    with pytest.raises(OptionError):
        definition.check_seats(["Ann", "Bob"])


def test_actions_round_trip_as_plain_data():
    for action in (MoveCard("t3", "f1"), MoveCard("c2", "t10", "QH"), Undo(), GiveUp()):
        data = DEFINITION.action_to_dict(action)
        assert json.loads(json.dumps(data)) == data
        assert DEFINITION.action_from_dict(data) == action
    assert DEFINITION.action_from_dict({"action": "move", "from": " T3", "to": "F1 "}) == MoveCard("t3", "f1")


@pytest.mark.parametrize("data, message", [
    ("t3", "An action is a set of named fields."),
    ({}, "An action needs its name"),
    ({"action": 7}, "An action needs its name"),
    ({"action": "fly"}, "'fly' is not a Seahaven Towers action"),
    ({"action": "move", "from": "t3"}, "A move needs the place a card comes from"),
    ({"action": "move", "from": "t3", "to": 4}, "A move needs the place a card comes from"),
    ({"action": "move", "from": "t11", "to": "c1"}, "There is no column 11"),
    ({"action": "move", "from": "t1", "to": "c1", "cards": ["QH", "KH"]}, "one card at a time"),
    ({"action": "move", "from": "t1", "to": "c1", "cards": "QH"}, "one card at a time"),
    ({"action": "move", "from": "t1", "to": "c1", "cards": ["ZZ"]}, "'ZZ' is not a card"),
    ({"action": "undo", "cards": ["QH"]}, "Undo takes no cards"),
])
def test_malformed_actions_are_bad_actions(data, message):
    with pytest.raises(BadAction, match=message):
        DEFINITION.action_from_dict(data)


def test_legal_lists_every_card_move_with_its_fields():
    state = DEFINITION.new_state(["Ann"], options={"deal": 9})
    moves = state.legal(0)
    card_moves = {(dict(move.params)["from"], dict(move.params)["to"]) for move in moves if move.action == "move"}
    assert card_moves == set(state.layout.legal_moves())
    # every column's bottom card can go to every empty cell at the start
    assert {("t5", f"c{cell}") for cell in range(1, 5)} <= card_moves
    for move in moves:
        data = move.as_dict()
        action = DEFINITION.action_from_dict(data)
        copy = state.copy()
        copy.apply(0, action)  # every listed move is accepted
    assert [move.action for move in moves][-1] == "give_up"
    assert state.legal(None) == [] and state.legal(1) == []
    label = next(move.label for move in moves if dict(move.params) == {"from": "t5", "to": "c1"})
    assert label == f"{state.layout.columns[4][-1].code} from column 5 to cell 1"


def test_only_seat_0_plays():
    state = DEFINITION.new_state(["Ann"], options={"deal": 9})
    for seat in (None, 1, -1):
        with pytest.raises(NotYourTurn):
            state.apply(seat, MoveCard("t1", "c1"))


def test_s6_1_undo_is_unlimited_and_the_move_counter_counts_the_moves_on_the_board():
    state = DEFINITION.new_state(["Ann"], options={"deal": 9})
    start = state.layout.copy()
    with pytest.raises(WrongPhase, match="There is no move to undo"):
        state.apply(0, Undo())
    for column in range(1, 5):
        state.apply(0, MoveCard(f"t{column}", f"c{column}"))
    assert state.moves_made() == 4 and state.view(0)["moves_made"] == 4
    for left in range(3, -1, -1):
        state.apply(0, Undo())
        assert state.moves_made() == left
    assert state.layout == start and state.undos == 4
    assert state.view(0)["undos"] == 4 and not state.view(0)["can_undo"]
    assert [event["text"] for event in state.log][-1].startswith("Undid the move of")
    assert len(state.log) == 8, "the log keeps the whole game, undone moves too"


def test_s6_1_double_tap_and_tap_tap_come_from_the_view():
    state = short_win_state()
    view = state.view(0)
    assert view["to_foundation"] == {}
    assert view["targets"]["t1"] == ["c1", "c2", "c3", "c4"]
    state.apply(0, MoveCard("t1", "c1"))
    view = state.view(0)
    assert view["to_foundation"] == {"t1": "f1"}  # AC, to the first empty foundation
    assert "f1" in view["targets"]["t1"]
    assert view["last_move"] == {"from": "t1", "to": "c1", "card": "2C"}


def test_s6_2_a_win_counts_played_won_and_its_moves():
    state = short_win_state()
    line = Solver(state.layout.columns).line(state.layout)
    for source, target in line:
        state.apply(0, MoveCard(source, target))
    assert state.is_over() and state.to_move() is None and state.legal(0) == []
    [result] = state.results()
    assert result.won and result.score == 52
    # S6.2's figures, and a solitaire player's (the time is the house's: it names best_time)
    assert result.figures == {"played": 1, "won": 1, "streak": 1, "best_streak": 0, "fewest_moves": 53,
                              "best_time": 0, "deal_played": 1, "deal_won": 1, "deal_most_home": 52,
                              "deal_fewest_moves": 53, "deal_best_time": 0}
    assert result.item is None  # a stacked deck is no deal number: no deal's best is kept
    assert state.view(0)["summary"]["text"] == "Won in 53 moves."
    with pytest.raises(GameIsOver):
        state.apply(0, Undo())
    keys = {stat.key: stat.combine for stat in DEFINITION.statistics if not stat.per_item}
    assert keys == {"played": "sum", "won": "sum", "win_rate": "ratio", "streak": "streak", "best_streak": "max",
                    "best_time": "min", "fewest_moves": "min"}


def test_s6_2_giving_up_ends_the_game_unwon():
    state = DEFINITION.new_state(["Ann"], options={"deal": 9})
    assert state.results() == [], "an unfinished game changes no statistics"
    state.apply(0, MoveCard("t1", "c1"))
    outcome = state.apply(0, GiveUp())
    assert outcome.game_over and state.is_over()
    [result] = state.results()
    assert not result.won and result.figures == {"played": 1, "won": 0, "streak": 0, "best_streak": 0,
                                                 "deal_played": 1, "deal_won": 0, "deal_most_home": 0}
    assert result.item == "9-open"
    assert state.view(0)["status"] == "given_up"
    # the line says it with its plurals right: one move, no card home
    assert outcome.events[-1]["text"] == "Ann gave up with 0 cards home after 1 move."
    assert outcome.events[-1]["say"] == [["{player} gave up after {count} move, with {home} of the 52 cards home.",
                                          "{player} gave up after {count} moves, with {home} of the 52 cards home."],
                                         {"player": "Ann", "count": 1, "home": 0}]
    assert state.view(0)["summary"]["text"] == "Given up with 0 cards home."


def test_s6_1_s6_2_the_counter_counts_the_player_s_moves_and_the_cards_home_by_themselves_apart():
    """S6.1's move counter is the player's: a move that sends cards home by themselves counts one,
    Finish one; the cards home by themselves are counted apart, and S6.2's fewest moves (a win's
    figure) is the player's count too."""
    state = short_win_state()
    state.apply(0, MoveCard("t1", "c1", "2C", auto=True))
    assert state.is_over() and state.moves_made() == 1 and state.auto_moved() == 52
    view = state.view(0)
    assert view["moves_made"] == 1 and view["auto_moved"] == 52
    assert view["summary"] == {"won": True, "moves": 1, "auto_moved": 52, "cards_home": 52, "text": "Won in 1 move."}
    [result] = state.results()
    assert result.figures["fewest_moves"] == 1 and result.figures["deal_fewest_moves"] == 1
    assert state.log[-1]["say"] == [["All 52 cards are home in {count} move.",
                                     "All 52 cards are home in {count} moves."], {"count": 1}]


def test_s6_2_the_layout_and_the_move_list_survive_saving():
    state = DEFINITION.new_state(["Ann"], options={"deal": 9, "classic": True})
    state.apply(0, MoveCard("t1", "c1"))
    state.apply(0, MoveCard("t2", "c4"))
    state.apply(0, Undo())
    data = json.loads(json.dumps(state.to_dict()))
    again = DEFINITION.from_dict(data)
    assert again.to_dict() == data and again.layout == state.layout
    assert again.moves_made() == 1 and again.undos == 1 and again.classic and again.deal == 9
    broken = dict(data, moves=[["t1", "f1", "AC"]])
    with pytest.raises(ValueError):
        DEFINITION.from_dict(broken)
    with pytest.raises(ValueError):
        DEFINITION.from_dict(dict(data, status="won"))


def test_options_classic_deal_number_and_winnable_only():
    values = DEFINITION.validate_options({"classic": "on", "deal": "42", "winnable_only": "no"})
    assert {key: values[key] for key in ("classic", "deal", "winnable_only")} == {"classic": True, "deal": 42,
                                                                                 "winnable_only": False}
    with pytest.raises(OptionError):
        DEFINITION.validate_options({"deal": "-3"})
    # deal 1 is lost in the classic deal; "winnable only" moves on to the next winnable number
    lost = DEFINITION.new_state(["Ann"], options={"deal": 1, "classic": True})
    assert not lost.winnable()
    chosen = DEFINITION.new_state(["Ann"], options={"deal": 1, "classic": True, "winnable_only": True})
    assert chosen.deal == first_winnable_deal(1, True) == 2
    assert chosen.winnable() and chosen.dealt == deal_cards(2)


def test_winnable_only_from_a_seed_is_the_first_winnable_deal_from_the_seeds_number():
    plain = DEFINITION.new_state(["Ann"], options={"classic": True}, seed=5)
    chosen = DEFINITION.new_state(["Ann"], options={"classic": True, "winnable_only": True}, seed=5)
    assert chosen.deal >= plain.deal and chosen.winnable()
    for number in range(plain.deal, chosen.deal):
        assert not DEFINITION.new_state(["Ann"], options={"deal": number, "classic": True}).winnable()


def test_a_stacked_deck_must_be_the_52_cards():
    with pytest.raises(ValueError):
        DEFINITION.new_state(["Ann"], stacked_deck=list(DECK.cards)[:51])
    with pytest.raises(ValueError):
        DEFINITION.new_state(["Ann"])  # neither a seed nor a deal number


def test_the_view_has_the_standard_keys_and_the_board():
    state = DEFINITION.new_state(["AI"], options={"deal": 9})
    view = state.view(None)
    for key in ("seat", "players", "turn", "stage", "prompt", "hand", "log", "summary"):
        assert key in view
    assert view["players"] == [{"seat": 0, "name": "AI", "label": "AI", "computer": True}]
    assert view["hand"] is None and view["turn"] == 0 and view["status"] == "playing"
    assert json.loads(json.dumps(view)) == view


def test_the_bot_plays_the_solvers_line_and_wins_a_winnable_deal():
    state = DEFINITION.new_state(["AI"], options={"deal": 9})
    line = state.winning_line()
    outcomes = autoplay(state, lambda seat: DEFINITION.bot)
    assert state.status == "won"
    assert [outcome.action for outcome in outcomes] == line


def test_the_bot_gives_up_a_lost_deal():
    state = DEFINITION.new_state(["AI"], options={"deal": 1, "classic": True})
    autoplay(state, lambda seat: DEFINITION.bot)
    assert state.status == "given_up" and state.moves_made() == 0


def test_the_baseline_bot_ends_its_games():
    import random

    state = DEFINITION.new_state(["AI"], options={"deal": 9})
    bot = DEFINITION.baseline_bot(random.Random(1))
    autoplay(state, lambda seat: bot)
    assert state.is_over()


def test_a_position_with_one_move_left_wins_through_the_protocol():
    state = state_with(layout([], cells="KS", home="KC KD KH QS"))
    assert state.hint() == MoveCard("c1", "f4")
    state.apply(0, state.hint())
    assert state.status == "won"


def test_a_hand_built_table_keeps_every_card_once():
    state = state_with(table(["JS"]))
    assert sorted(card.id for card in state.card_locations()) == sorted(card.id for card in DECK.cards)
