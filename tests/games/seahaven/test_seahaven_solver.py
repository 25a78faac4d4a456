"""The solver (S5): exact verdicts on hand-built positions and against a brute-force judge, and
winning lines that the rules accept move by move up to the win."""

from __future__ import annotations

from pathlib import Path

import pytest
from seahaven_brute import brute_force_winnable, crowded_position, small_position
from seahaven_helpers import DEFINITION, Layout, deal_cards, layout, state_with

from app.games.seahaven import MoveCard
from app.games.seahaven import solver as solver_module
from app.games.seahaven.solver import Solver, SolverBudgetExceeded, solve, solver_for

# S5.1 positions built by hand. Run: 9H 8H 7H covers 6C (and 6H): with two free cells it can
# only leave by being carried onto TH through the cells; the run TH 9H 8H 7H needs three.
NEEDS_A_CARRY = dict(columns=["6H 9C 6C 9H 8H 7H", "KH QH JH TH", "TC", "JC", "QC", "KC"], cells="7C 8C -- --",
                     home="5C KD 5H KS")
CARRY_TOO_LONG = dict(columns=["6H 9C 6C TH 9H 8H 7H", "KH QH JH", "TC", "JC", "QC", "KC"], cells="7C 8C -- --",
                      home="5C KD 5H KS")


def replay(table: Layout, line) -> Layout:
    """Play a line through the rules, move by move (each one checked), from a copy."""
    played = table.copy()
    for source, target in line:
        played.move(source, target)
    return played


def test_s5_1_a_won_position_is_winnable_with_nothing_left_to_do():
    won = layout([], home="KC KD KH KS")
    assert solve(won) == []
    assert Solver(won.columns).hint(won) is None


def test_s5_1_one_move_from_a_win():
    table = layout([], cells="-- -- KS --", home="KC KD KH QS")
    assert solve(table) == [("c3", "f4")]


def test_s5_1_a_provably_stuck_position_is_not_winnable():
    table = Layout.deal(deal_cards(242))
    for column in range(1, 5):
        table.move(f"t{column}", f"c{column}")
    assert table.legal_moves() == []
    assert not brute_force_winnable(table)
    assert solve(table) is None
    assert Solver(Layout.deal(deal_cards(242)).columns).winnable(table) is False


def test_s5_1_a_run_carried_through_the_cells_onto_its_place():
    table = layout(**NEEDS_A_CARRY)
    line = solve(table)
    assert line is not None and replay(table, line).is_won()
    # 7H and 8H wait in the two free cells while 9H goes onto TH: S3.1, one card at a time
    assert line[:3] == [("t1", "c3"), ("t1", "c4"), ("t1", "t2")]
    assert brute_force_winnable(table)


def test_s5_1_a_run_longer_than_the_cells_allow_cannot_be_carried():
    table = layout(**CARRY_TOO_LONG)
    assert solve(table) is None
    assert not brute_force_winnable(table)


@pytest.mark.parametrize("number", [2, 3, 9, 17])
@pytest.mark.parametrize("classic", [False, True])
def test_s5_1_winning_lines_of_whole_deals_replay_through_the_rules_to_the_win(number, classic):
    state = DEFINITION.new_state(["Ann"], options={"deal": number, "classic": classic})
    line = state.winning_line()
    if line is None:
        assert not state.winnable()
        return
    for move in line:
        state.apply(0, move)  # the game's own checks, S3
    assert state.status == "won" and state.moves_made() == len(line)


def test_s5_1_a_lost_deal_is_not_winnable_and_has_no_line():
    state = DEFINITION.new_state(["Ann"], options={"deal": 88})
    assert not state.winnable() and state.hint() is None and state.winning_line() is None


@pytest.mark.parametrize("seed", range(6))
def test_s5_1_verdicts_agree_with_a_brute_force_search_on_small_positions(seed):
    table = small_position(seed, left=14, in_cells=3, width=8)
    line = solve(table)
    assert (line is not None) == brute_force_winnable(table)
    if line is not None:
        assert replay(table, line).is_won()


# Crowded positions of real deals (random play until the cells are full) that the brute-force
# judge explores whole in well under a second each: lost ones and won ones.
CROWDED = [1, 7, 12, 15, 18, 33, 35]


@pytest.mark.parametrize("seed", CROWDED)
def test_s5_1_verdicts_agree_with_a_brute_force_search_on_crowded_deals(seed):
    table = crowded_position(seed, classic=seed % 2 == 1, extra=2)
    line = solve(table)
    assert (line is not None) == brute_force_winnable(table, limit=200_000)
    if line is not None:
        assert replay(table, line).is_won()


# Deals whose crowded position the brute-force judge settles within its limit (the others would
# only spend the suite's time before being skipped).
MORE_CROWDED = [40, 41, 42, 44, 45, 46, 47, 48, 49, 50, 52, 53, 54, 55, 57, 59, 60, 61, 62, 63, 64, 66, 68, 69]


@pytest.mark.slow
@pytest.mark.parametrize("seed", MORE_CROWDED)
def test_s5_1_verdicts_agree_with_brute_force_on_many_more_crowded_deals(seed):
    table = crowded_position(seed, classic=seed % 2 == 1, extra=3)
    try:
        judged = brute_force_winnable(table, limit=100_000)
    except RuntimeError:
        pytest.skip("too large for the brute-force judge")
    assert (solve(table) is not None) == judged


def test_s5_2_the_hint_is_the_next_move_of_a_winning_line_and_following_hints_wins():
    state = DEFINITION.new_state(["Ann"], options={"deal": 17})
    line = state.winning_line()
    hints = []
    while not state.is_over():
        hint = state.hint()
        hints.append(hint)
        state.apply(0, hint)
    assert hints == line and state.status == "won"


def test_s5_2_the_hint_depends_on_the_position_only():
    number = 23
    state = DEFINITION.new_state(["Ann"], options={"deal": number})
    for move in state.winning_line()[:30]:
        state.apply(0, move)
    state.apply(0, MoveCard(*state.layout.legal_moves()[-1]))  # a detour from the line
    shared = state.hint()  # after the shared solver of the deal answered other questions
    fresh = Solver(Layout.deal(deal_cards(number)).columns).hint(state.layout)
    alone = Solver(state.layout.columns).hint(state.layout)
    assert shared is not None and (shared.source, shared.target) == fresh
    assert (alone is None) == (fresh is None)


def test_s5_2_still_winnable_after_every_move_of_a_game_and_lost_after_a_bad_one():
    state = DEFINITION.new_state(["Ann"], options={"deal": 242})
    verdicts = [state.winnable()]
    for column in range(1, 5):
        state.apply(0, MoveCard(f"t{column}", f"c{column}"))
        verdicts.append(state.winnable())
        assert verdicts[-1] == (state.hint() is not None)
    assert verdicts[0] and not verdicts[-1]
    assert verdicts == sorted(verdicts, reverse=True), "a lost position stays lost"
    for _ in range(4):
        state.apply(0, DEFINITION.action_from_dict({"action": "undo"}))
    assert state.winnable()


def test_s5_2_hints_after_a_detour_lead_back_to_a_win():
    state = DEFINITION.new_state(["Ann"], options={"deal": 30})
    first = state.layout.legal_moves()
    state.apply(0, MoveCard(*first[0]))
    if not state.winnable():
        state.apply(0, DEFINITION.action_from_dict({"action": "undo"}))
    steps = 0
    while not state.is_over():
        state.apply(0, state.hint())
        steps += 1
        assert steps < 500
    assert state.status == "won"


def test_the_solver_of_a_deal_is_shared_and_remembers_its_verdicts():
    columns = Layout.deal(deal_cards(31)).columns
    solver = solver_for(columns)
    assert solver_for([list(column) for column in columns]) is solver
    solver.winnable(Layout.deal(deal_cards(31)))
    known = len(solver.memo)
    solver.winnable(Layout.deal(deal_cards(31)))
    assert len(solver.memo) == known


def test_a_layout_no_play_of_the_deal_gives_is_judged_on_its_own():
    state = state_with(layout(**NEEDS_A_CARRY))
    assert state.winnable() and state.hint() == MoveCard("t1", "c3")
    assert not state_with(layout(**CARRY_TOO_LONG)).winnable()
    dealt = DEFINITION.new_state(["Ann"], options={"deal": 5})
    assert dealt.solver().fits(dealt.layout) and dealt.solver() is solver_for(dealt.layout.columns)


# Deals 342 (open) and 749 (classic) are won only by a king's unit taking a free column while
# another king waits in a cell: a dominance rule that forgot that case called them lost.
@pytest.mark.parametrize("number, classic", [(342, False), (749, True)] + [(n, n % 2 == 0) for n in range(40, 52)])
def test_s5_1_the_dominance_rules_change_no_verdict(number, classic):
    table = Layout.deal(deal_cards(number), classic)
    pruned, plain = Solver(table.columns), Solver(table.columns, prune=False)
    assert pruned.winnable(table) == plain.winnable(table)
    line = pruned.line(table)
    if line is not None:
        assert replay(table, line).is_won()


# -- verdicts stored once (solver_verdicts.txt), and the budget ---------------------------------------------


def stored_verdicts() -> dict[tuple[bool, int], bool]:
    """(classic, deal number) -> winnable, as stored in solver_verdicts.txt."""
    verdicts, kind, number = {}, None, 0
    for text in (Path(__file__).parent / "solver_verdicts.txt").read_text().splitlines():
        if text.startswith("#") or not text.strip():
            continue
        if text[0].isalpha():
            name, first = text.split()
            kind, number = name == "classic", int(first)
            continue
        for mark in text.strip():
            verdicts[kind, number] = mark == "1"
            number += 1
    return verdicts


VERDICTS = stored_verdicts()


def test_the_stored_verdicts_cover_a_thousand_deals_of_each_kind():
    assert len(VERDICTS) == 2000
    assert sum(VERDICTS[True, number] for number in range(1, 1001)) == 891  # the C solver's count too
    assert sum(VERDICTS[False, number] for number in range(1, 1001)) == 983


@pytest.mark.parametrize("classic", [True, False])
@pytest.mark.parametrize("start", range(1, 6))
def test_s5_1_verdicts_match_the_stored_ones_on_a_sample_of_deals(classic, start):
    # every fifth deal: 200 classic and 200 open deals in all, each with a fresh solver
    assert wrong_verdicts(classic, range(start * 5 - 4, 1001, 25)) == []


@pytest.mark.slow
@pytest.mark.parametrize("classic", [True, False])
def test_s5_1_verdicts_match_the_stored_ones_on_every_stored_deal(classic):
    assert wrong_verdicts(classic, range(1, 1001)) == []


def wrong_verdicts(classic: bool, numbers) -> list[int]:
    """The deals among ``numbers`` whose verdict, each from a fresh solver, is not the stored one."""
    wrong = []
    for number in numbers:
        table = Layout.deal(deal_cards(number), classic)
        if Solver(table.columns).winnable(table) != VERDICTS[classic, number]:
            wrong.append(number)
    return wrong


@pytest.mark.slow
@pytest.mark.parametrize("classic", [True, False])
def test_s5_1_the_shortcuts_change_no_verdict_on_many_deals(classic):
    # prune=False: the plain search, with every kings' group searched whole and no child judged
    # at a glance
    for number in range(1, 121):
        table = Layout.deal(deal_cards(number), classic)
        assert Solver(table.columns, prune=False).winnable(table) == VERDICTS[classic, number], number


# The search counts KH as in a column of its own (a free column to spare, S3.3): the hint moves it
# there first, and the line goes on from there.
KING_IN_A_CELL = dict(columns=["6H QH", "JH 8H", "TH 9H 7H"], cells="KH -- -- --", home="KC KD 5H KS")


def test_s5_2_a_king_waiting_in_a_cell_goes_to_an_empty_column_first():
    table = layout(**KING_IN_A_CELL)
    solver = Solver(table.columns)
    assert solver.hint(table) == ("c1", "t4")
    line = solver.line(table)
    assert line[0] == ("c1", "t4") and replay(table, line).is_won()
    assert brute_force_winnable(table)
    assert Solver(table.columns, prune=False).winnable(table)


# Classic deal 554 is the hardest of deals 1-1000 for the search (winnable, thousands of positions).
HARD = 554


def test_a_budget_too_small_gives_no_verdict_and_a_later_call_carries_on():
    table = Layout.deal(deal_cards(HARD), classic=True)
    solver = Solver(table.columns)
    with pytest.raises(SolverBudgetExceeded) as raised:
        solver.winnable(table, budget=50)
    assert raised.value.budget == 50 and solver.positions == 50
    assert solver.winnable(table) is True  # no budget: the exact verdict, as before
    fresh = Solver(table.columns)
    assert fresh.winnable(table) is True
    # the memo is the same as a search without a budget; redone: only the positions the search
    # was in the middle of (at most one a level, and levels are fewer than the 50 positions)
    assert solver.memo == fresh.memo
    assert fresh.positions < solver.positions < fresh.positions + 50
    assert solver.line(table) == fresh.line(table)


def test_small_budgets_one_after_another_reach_the_exact_verdicts():
    for number, classic in [(HARD, True), (1, True), (88, False)]:
        table = Layout.deal(deal_cards(number), classic)
        solver = Solver(table.columns)
        tries = 0
        while True:
            tries += 1
            try:
                verdict = solver.winnable(table, budget=200)
                break
            except SolverBudgetExceeded:
                assert tries < 1000
        assert verdict == VERDICTS[classic, number]
        assert tries > 1 or number != HARD


def test_a_budget_bounds_hints_and_lines_too():
    table = Layout.deal(deal_cards(HARD), classic=True)
    with pytest.raises(SolverBudgetExceeded):
        Solver(table.columns).hint(table, budget=10)
    with pytest.raises(SolverBudgetExceeded):
        Solver(table.columns).line(table, budget=10)
    solver = Solver(table.columns)
    assert solver.winnable(table, budget=10**6)
    known = solver.positions
    line = solver.line(table, budget=0)  # every step of the line is memoised already
    assert solver.positions == known and replay(table, line).is_won()
    assert solver.hint(table, budget=0) == line[0]


def test_a_budget_of_a_call_does_not_outlive_it():
    table = Layout.deal(deal_cards(HARD), classic=True)
    solver = Solver(table.columns)
    with pytest.raises(SolverBudgetExceeded):
        solver.winnable(table, budget=5)
    assert solver.hint(table) is not None  # no budget given: no limit


# -- the compiled copy (scripts/build-solver) ---------------------------------------------------------------


def test_the_compiled_solver_is_the_same_search_as_the_plain_one():
    if solver_module.Solver is solver_module.PythonSolver:
        pytest.skip("the compiled solver is not built here (scripts/build-solver): the plain one is in use")
    # the same positions expanded, the same verdicts and the same lines, deal by deal
    for classic in (True, False):
        for number in (*range(1, 1001, 50), HARD):
            table = Layout.deal(deal_cards(number), classic)
            compiled, plain = solver_module.Solver(table.columns), solver_module.PythonSolver(table.columns)
            assert compiled.winnable(table) == plain.winnable(table) == VERDICTS[classic, number], number
            assert compiled.positions == plain.positions, number
            assert compiled.line(table) == plain.line(table), number


def test_the_plain_solver_agrees_with_the_stored_verdicts_too():
    # whichever is in use, the plain-Python search is what a machine without a compiler runs
    wrong = []
    for number in range(3, 1001, 40):
        table = Layout.deal(deal_cards(number), True)
        if solver_module.PythonSolver(table.columns).winnable(table) != VERDICTS[True, number]:
            wrong.append(number)
    assert wrong == []


def test_a_compiled_solver_built_from_another_source_is_not_used(monkeypatch):
    monkeypatch.setattr(solver_module, "SOURCE_DIGEST", "0" * 64)
    assert solver_module.compiled_solver() is None


def test_a_budget_error_is_one_class_whichever_solver_raises_it():
    table = Layout.deal(deal_cards(HARD), classic=True)
    for solver_class in {solver_module.Solver, solver_module.PythonSolver}:
        with pytest.raises(SolverBudgetExceeded) as raised:
            solver_class(table.columns).winnable(table, budget=3)
        assert raised.value.budget == 3
