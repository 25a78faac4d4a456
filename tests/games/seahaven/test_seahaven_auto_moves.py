"""Seahaven Towers: cards sent home by themselves and "finish" (S3.2, S3.3, S6.1), and the
solver's questions as the house asks them off the request path (S5.2, ``analysis.py``).

The safe rule comes from the rule book: a column takes only the next lower card of its own suit
(S3.3), and that card must be home before this one may go (S3.2), so a card that can go home is
never needed where it is. The tests check it where it matters: sending every card home that can
go never changes the solver's verdict (positions reached by random play of many deals)."""

from __future__ import annotations

import random

import pytest
from seahaven_helpers import SHORT_WIN, everything_but, layout, stacked_state, state_with

from app.core import IllegalAction
from app.core.protocol import NeedsAnswers, OverBudget
from app.games.seahaven import DEFINITION, Finish, GiveUp, MoveCard, Undo, deal_cards, first_winnable_deal
from app.games.seahaven.analysis import ANALYST, position_key, start_layout
from app.games.seahaven.bot import SolverBot
from app.games.seahaven.definition import first_kept_winnable_deal
from app.games.seahaven import solver as solver_module
from app.games.seahaven.rules import Layout
from app.games.seahaven.solver import Solver


def short_win_state():
    return stacked_state(DEFINITION.parse_deck(SHORT_WIN.read_text()))


# -- the safe rule ---------------------------------------------------------------------------------------


def positions_of_random_play(deals: range, moves: int, seed: int = 7):
    """Layouts met by random legal moves on deals ``deals``, every few moves."""
    rng = random.Random(seed)
    for deal in deals:
        for classic in (False, True):
            table = Layout.deal(deal_cards(deal), classic)
            for step in range(moves):
                legal = table.legal_moves()
                if not legal:
                    break
                table.move(*rng.choice(legal))
                if step % 7 == 6:
                    yield deal, classic, table.copy()


def test_s3_2_s3_3_sending_cards_home_never_changes_whether_a_position_can_be_won():
    checked = sent = 0
    for deal, classic, table in positions_of_random_play(range(1, 41), 40):
        home = table.moves_home()
        if not home:
            continue
        after = table.copy()
        for move in home:
            after.move(*move)  # each is legal (S3.2) after the ones before it
        solver = Solver(Layout.deal(deal_cards(deal), classic).columns)
        assert solver.winnable(table) == solver.winnable(after), (deal, classic, table)
        checked += 1
        sent += len(home)
    assert checked >= 30 and sent >= checked


def test_s3_2_moves_home_reach_every_card_foundation_moves_alone_can_lowest_first():
    table = layout(["KH QH JH", "KS QS JS TS 9S 8S 7S 6S 5S 4S", "3S", "AS"], cells="2S -- -- --", home="KC KD TH")
    moves = table.moves_home()
    # the lowest card first (the ace, then 2S from the cell...), 4S before JH
    assert moves[:4] == [("t4", "f4"), ("c1", "f4"), ("t3", "f4"), ("t2", "f4")]
    assert len(moves) == 13 + 3 and table.home_line() == moves
    stuck = layout(["KH QH JH", "KS QS JS TS 9S 8S 7S 6S 5S 4S", "2S 3S", "AS"], home="KC KD TH")
    after = stuck.copy()
    for move in stuck.moves_home():
        after.move(*move)
    # AS and the hearts go; 3S covers 2S, so no other spade can: another move is needed first
    assert after.moves_home() == [] and after.cards_home() == 13 + 13 + 13 + 1
    assert stuck.home_line() is None


def test_home_line_is_the_whole_way_home_or_none():
    state = short_win_state()
    assert state.layout.home_line() is None  # 2C lies on AC: it must move first (S3.1)
    state.apply(0, MoveCard("t1", "c1"))
    line = state.layout.home_line()
    assert line is not None and len(line) == 52
    assert "finish" in [move.action for move in state.legal(0)] and state.view(0)["can_finish"]


# -- a move and its automatic moves, one action -------------------------------------------------------


def test_s6_1_a_move_with_auto_sends_every_card_home_that_can_go_in_the_same_action():
    state = short_win_state()
    outcome = state.apply(0, MoveCard("t1", "c1", "2C", auto=True))
    # 2C to the cell uncovers AC; then AC, 2C from the cell and every card after them go home
    assert state.layout.is_won() and state.is_over() and outcome.game_over
    # S6.1: the counter counts the player's moves; the cards that went home by themselves apart
    assert state.moves_made() == 1 and state.auto_moved() == 52 and state.view(0)["auto_moved"] == 52
    texts = [event["text"] for event in outcome.events]
    assert texts[0] == "Moved 2C from column 1 to cell 1"
    assert texts[1] == "AC went home by itself, from column 1 to foundation 1"
    assert len(texts) == 1 + 52 + 1 and texts[-1].startswith("You won!")
    assert state.view(0)["auto_moves"][0] == {"from": "t1", "to": "f1", "card": "AC"}
    assert len(state.view(0)["auto_moves"]) == 52


def test_s6_1_one_undo_takes_a_move_back_with_the_cards_it_sent_home():
    state = DEFINITION.new_state(["Ann"], options={"deal": 9})
    start = state.layout.copy()
    # find a move after which some card can go home
    for source, target in state.layout.legal_moves():
        trial = state.layout.copy()
        trial.move(source, target)
        if trial.moves_home():
            break
    else:
        pytest.skip("deal 9 has no such move")
    state.apply(0, MoveCard(source, target, auto=True))
    made, auto = state.moves_made(), state.auto_moved()
    assert made == 1 and auto >= 1 and state.last_auto == auto
    assert state.legal(0)[-2].label.startswith("Undo ")  # the undo names the move, not the last card home
    outcome = state.apply(0, Undo())
    assert state.layout == start and state.moves_made() == 0 and state.auto_moved() == 0 and state.undos == 1
    assert outcome.events[0]["text"].endswith(f"and the {auto} card{'s' if auto > 1 else ''} it sent home")
    assert state.view(0)["auto_moves"] == []


def test_without_auto_nothing_moves_by_itself():
    state = short_win_state()
    state.apply(0, MoveCard("t1", "c1"))
    assert state.moves_made() == 1 and state.layout.cards_home() == 0 and state.view(0)["auto_moves"] == []


def test_finish_sends_every_card_home_in_one_action_and_is_refused_when_it_cannot():
    state = short_win_state()
    before = state.to_dict()
    with pytest.raises(IllegalAction, match="move a card elsewhere first") as refused:
        state.apply(0, Finish())
    assert refused.value.rule == "S3.2"
    assert state.to_dict() == before  # a refusal changes nothing
    state.apply(0, MoveCard("t1", "c1"))
    outcome = state.apply(0, Finish())
    # the move, then Finish: two moves of the player's; the other 51 cards went home with Finish
    assert state.layout.is_won() and outcome.game_over and state.moves_made() == 2 and state.auto_moved() == 51
    [event] = [event for event in outcome.events if event["text"].startswith("Finished")]
    assert event["text"] == "Finished: the last 52 cards went home" and len(event["cards"]) == 52


def test_auto_moves_survive_saving_and_older_saves_still_read():
    state = DEFINITION.new_state(["Ann"], options={"deal": 9})
    for source, target in state.layout.legal_moves():
        trial = state.layout.copy()
        trial.move(source, target)
        if trial.moves_home():
            state.apply(0, MoveCard(source, target, auto=True))
            break
    data = state.to_dict()
    again = DEFINITION.from_dict(data)
    assert again == state and again.history == state.history and again.last_auto == state.last_auto
    # a game saved before automatic moves (format 1: three fields a move)
    old = DEFINITION.new_state(["Ann"], options={"deal": 9})
    old.apply(0, MoveCard(*old.layout.legal_moves()[0]))
    saved = old.to_dict()
    saved["format"] = 1
    saved["moves"] = [move[:3] for move in saved["moves"]]
    del saved["last_auto"]
    assert DEFINITION.from_dict(saved).layout == old.layout
    # a move marked automatic that did not go home is not a game
    broken = dict(data, moves=[list(move[:3]) + [1] for move in data["moves"]])
    with pytest.raises(ValueError):
        DEFINITION.from_dict(broken)


def test_actions_with_auto_and_finish_round_trip_as_plain_data():
    for action in (MoveCard("t3", "f1", auto=True), MoveCard("c2", "t10", "QH", True), Finish()):
        assert DEFINITION.action_from_dict(DEFINITION.action_to_dict(action)) == action
    assert DEFINITION.action_from_dict({"action": "move", "from": "t1", "to": "c1", "auto": "1"}).auto
    assert not DEFINITION.action_from_dict({"action": "move", "from": "t1", "to": "c1", "auto": "0"}).auto


# -- the solver's questions (S5.2), answered off the request path ------------------------------------------


def test_s5_2_the_view_never_asks_the_solver(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("view() asked the solver")

    state = DEFINITION.new_state(["Ann"], options={"deal": 358})
    monkeypatch.setattr(Solver, "winnable", refuse)
    monkeypatch.setattr(Solver, "hint", refuse)
    monkeypatch.setattr(Solver, "line", refuse)
    view = state.view(0)
    assert "winnable" not in view and "hint" not in view


def test_s5_2_a_question_is_keyed_by_the_layout_alone():
    first = DEFINITION.new_state(["Ann"], options={"deal": 77})
    second = DEFINITION.new_state(["Bob"], options={"deal": 77})
    assert ANALYST.question(first).key == ANALYST.question(second).key
    assert ANALYST.question(first).requires == ("line",)  # the deal as dealt: a whole solution too
    move = first.layout.legal_moves()[0]
    first.apply(0, MoveCard(*move))
    assert ANALYST.question(first).key != ANALYST.question(second).key
    assert ANALYST.question(first).requires == ()
    second.apply(0, MoveCard(*move))
    assert ANALYST.question(first).key == ANALYST.question(second).key == position_key(first.layout)
    first.apply(0, GiveUp())
    assert ANALYST.question(first) is None


def test_s5_2_answers_are_the_solver_s_verdict_hint_and_line():
    state = DEFINITION.new_state(["Ann"], options={"deal": 1234})
    answer = ANALYST.answer(ANALYST.question(state).data, 10**7)
    assert answer["winnable"] is state.winnable() is True
    hint = state.hint()
    assert (answer["hint"]["from"], answer["hint"]["to"]) == (hint.source, hint.target)
    replay = DEFINITION.new_state(["Ann"], options={"deal": 1234})
    for data in ANALYST.solution(answer):
        replay.apply(0, DEFINITION.action_from_dict(data))
    assert replay.layout.is_won()
    lost = DEFINITION.new_state(["Ann"], options={"deal": 1})
    lost.apply(0, MoveCard("t1", "c1"))  # QC to a cell: deal 1 cannot be won after it
    answer = ANALYST.answer(ANALYST.question(lost).data, 10**7)
    assert answer == {"winnable": False, "hint": None}
    assert ANALYST.solution_offered(lost, answer) and not ANALYST.solution_offered(state, {"winnable": True})


def test_s5_2_an_answer_over_its_budget_carries_on_where_it_stopped(monkeypatch):
    # no solver kept from another test of this process: deal 358 is worked out from nothing here
    monkeypatch.setattr(solver_module, "_SOLVERS", type(solver_module._SOLVERS)())
    state = DEFINITION.new_state(["Ann"], options={"deal": 358})  # the hardest open deal of 1-1000
    data = ANALYST.question(state).data
    spent = 0
    for _slice in range(200):
        try:
            answer = ANALYST.answer(data, 2000)
            break
        except OverBudget:
            spent += 2000
    else:
        raise AssertionError("never answered")
    assert spent > 0 and answer["winnable"] is Solver(Layout.deal(deal_cards(358)).columns).winnable(state.layout)


def test_s5_2_deal_only_winnable_games_from_kept_verdicts():
    with pytest.raises(NeedsAnswers) as needed:
        DEFINITION.new_state(["Ann"], options={"deal": 40, "winnable_only": True}, answers={})
    assert len(needed.value.questions) == 4
    assert needed.value.questions[0].key == position_key(start_layout(deal_cards(40), False))
    # the verdicts as the runner keeps them: the first winnable deal from 40 on, as the solver finds it
    classic = True
    expected = first_winnable_deal(1, classic)  # classic deal 1 cannot be won (solver_verdicts.txt)
    answers = {}
    for number in range(1, expected + 1):
        question = ANALYST.start_question(DEFINITION.new_state(["Ann"], options={"deal": number, "classic": classic}))
        answers[question.key] = ANALYST.answer(question.data, 10**7)
    assert expected > 1 and first_kept_winnable_deal(1, classic, answers) == expected
    state = DEFINITION.new_state(["Ann"], options={"deal": 1, "classic": True, "winnable_only": True}, answers=answers)
    assert state.deal == expected and state.winnable_only
    # an answer the solver could not work out is no proof: that deal is passed over
    first = ANALYST.start_question(DEFINITION.new_state(["Ann"], options={"deal": expected, "classic": True}))
    answers[first.key] = {"too_hard": True}
    with pytest.raises(NeedsAnswers):
        first_kept_winnable_deal(1, classic, answers)


def test_the_computer_player_thinks_off_the_request_path_and_gives_up_past_its_budget():
    from app.games.seahaven import solver

    solver._SOLVERS.clear()  # (no memo of deal 358 from another test: its search starts here)
    assert SolverBot.off_request is True
    state = DEFINITION.new_state(["AI"], options={"deal": 358})
    assert isinstance(SolverBot(budget=10).choose(state, 0), GiveUp)
    assert isinstance(SolverBot().choose(state, 0), MoveCard)


def test_a_layout_no_deal_gives_is_answered_on_its_own():
    table = layout(["KH QH JH"], home=everything_but("JH"))
    state = state_with(table)
    answer = ANALYST.answer(ANALYST.question(state).data, 10**6)
    assert answer["winnable"] is True and answer["hint"]["card"] == "JH"
