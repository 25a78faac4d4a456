"""The terminal game (S4) and the solver's command line (S5.1): command files replayed on deck
files, the screen compared line for line. Most runs call ``main`` in process; a few run the
real program with ``python -m app.games.seahaven``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from seahaven_helpers import (
    DEFINITION, ROOT, SAMPLE_DECKS, SHORT_WIN, STUCK_AFTER_FOUR, deal_cards, deck_file, run_terminal,
)

from app.games.seahaven import MoveCard
from app.games.seahaven.__main__ import HELP, PROMPT, command_of, layout_lines, parse_command
from app.games.seahaven.rules import Layout
from app.games.seahaven.solver import Solver

SCREENS = Path(__file__).resolve().parent / "screens"


def short_win_line() -> list[str]:
    cards = DEFINITION.parse_deck(SHORT_WIN.read_text())
    table = Layout.deal(cards)
    return [command_of(source, target) for source, target in Solver(table.columns).line(table)]


def screen_after(lines: list[str], answer: str) -> list[str]:
    """The lines printed after the prompt that echoed ``answer``, up to the next prompt."""
    start = lines.index(PROMPT + answer) + 1
    end = next((index for index in range(start, len(lines)) if lines[index].startswith(PROMPT)), len(lines))
    return lines[start:end]


# -- S4.5 the layout ---------------------------------------------------------------------------------------


def test_s4_5_the_layout_reads_line_by_line_cells_foundations_then_columns_top_to_bottom():
    table = Layout.deal(DEFINITION.parse_deck(SHORT_WIN.read_text()))
    table.move("t1", "c2")
    table.move("t1", "f3")
    table.move("c2", "f3")
    table.move("t1", "f3")
    assert layout_lines(table) == [
        "Cells: 1 empty, 2 empty, 3 empty, 4 empty",
        "Foundations: 1 empty, 2 empty, 3 AC to 3C, 4 empty",
        "Column 1: 6C 5C 4C",
        "Column 2: QC JC TC 9C 8C 7C",
        "Column 3: 4D 3D 2D AD KC",
        "Column 4: 9D 8D 7D 6D 5D",
        "Column 5: AH KD QD JD TD",
        "Column 6: 6H 5H 4H 3H 2H",
        "Column 7: JH TH 9H 8H 7H",
        "Column 8: 3S 2S AS KH QH",
        "Column 9: 8S 7S 6S 5S 4S",
        "Column 10: KS QS JS TS 9S",
    ]
    table.move("t1", "f3")
    table.move("t1", "c4")
    table.move("t1", "c1")
    assert layout_lines(table)[:3] == ["Cells: 1 6C, 2 empty, 3 empty, 4 5C",
                                       "Foundations: 1 empty, 2 empty, 3 AC to 4C, 4 empty", "Column 1: empty"]


def test_s4_5_and_s4_4_a_session_replayed_from_a_command_file_shows_exactly_the_recorded_screen(monkeypatch):
    """S4.1-S4.5 together: moves in either case with free spaces, every kind of Error: line,
    No legal moves right after the move that left none, undo, q. Compared line for line."""
    monkeypatch.chdir(SAMPLE_DECKS)
    answers = (SCREENS / "stuck_after_four.commands").read_text()
    status, lines = run_terminal(["--deck", "stuck_after_four.deck"], answers)
    assert status == 0
    assert lines == (SCREENS / "stuck_after_four.screen").read_text().splitlines()


def test_s4_5_the_first_screen_is_the_deal_and_its_layout_and_nothing_else_is_asked(tmp_path):
    status, lines = run_terminal(["--deck", str(STUCK_AFTER_FOUR)], "")
    table = Layout.deal(deal_cards(242))
    assert status == 0
    assert lines[0] == (f"Seahaven Towers, deal from the deck file {STUCK_AFTER_FOUR} (open deal). "
                        "Type h for the commands.")
    assert lines[1:13] == layout_lines(table)
    assert lines[13:] == [PROMPT]  # the only prompt, then the end of input


# -- S4.1 and S4.2 commands and errors ---------------------------------------------------------------------


@pytest.mark.parametrize("answer, move", [
    ("t2f 3 1", MoveCard("t3", "f1")), ("  T2C 10  4 ", MoveCard("t10", "c4")), ("t2t 1 2", MoveCard("t1", "t2")),
    ("c2t 4 10", MoveCard("c4", "t10")), ("C2F 2 3", MoveCard("c2", "f3")), ("t2f 03 1", MoveCard("t3", "f1")),
])
def test_s4_1_the_five_move_commands_count_from_1_with_free_spaces_and_either_case(answer, move):
    assert parse_command(answer) == ("move", move)


@pytest.mark.parametrize("answer, message", [
    ("", "type a command (h shows them)."),
    ("move 1 2", "'move' is not a command: type h to see the commands."),
    ("t2f", "t2f takes 2 numbers (t2f T F), not 0."),
    ("c2t 1 2 3", "c2t takes 2 numbers (c2t C T), not 3."),
    ("t2c x 1", "'x' is not a number: t2c takes 2 numbers (t2c T C)."),
    ("t2c -1 1", "'-1' is not a number: t2c takes 2 numbers (t2c T C)."),
    ("t2f 0 1", "there is no column 0: columns are numbered 1 to 10."),
    ("t2f 1 5", "there is no foundation 5: foundations are numbered 1 to 4."),
    ("c2f 5 1", "there is no cell 5: cells are numbered 1 to 4."),
    ("t2t 4 " + "9" * 40, "there is no column 999999999...: columns are numbered 1 to 10."),
    ("u 1", "u stands alone: type just u."),
    ("\x00", "'\\x00' is not a command: type h to see the commands."),  # (quoted once, unprintables escaped)
    ("t2c \x01 1", "'\\x01' is not a number: t2c takes 2 numbers (t2c T C)."),
])
def test_s4_2_answers_that_are_not_commands_say_what_is_wrong(answer, message):
    status, lines = run_terminal(["--deal", "4"], answer + "\nq\n")
    assert status == 0
    assert screen_after(lines, answer) == [f"Error: {message}"]


def test_s4_2_an_illegal_move_is_an_error_naming_the_rule_and_an_accepted_move_prints_the_layout():
    status, lines = run_terminal(["--deck", str(SHORT_WIN)], "t2f 1 1\nt2t 1 3\nt2c 1 1\nq\n")
    assert screen_after(lines, "t2f 1 1") == [
        "Error: 2C cannot go onto empty foundation 1: an empty foundation takes only an ace."]
    assert screen_after(lines, "t2t 1 3") == [
        "Error: 2C cannot go onto KC: a column takes the next lower card of its own suit."]
    table = Layout.deal(DEFINITION.parse_deck(SHORT_WIN.read_text()))
    table.move("t1", "c1")
    assert screen_after(lines, "t2c 1 1") == ["Moved 2C from column 1 to cell 1."] + layout_lines(table)


def test_s4_1_h_shows_the_commands():
    status, lines = run_terminal(["--deal", "4"], "h\n")
    assert screen_after(lines, "h") == HELP
    for command in ("t2f T F", "t2c T C", "t2t T1 T2", "c2t C T", "c2f C F"):
        assert any(line.strip().startswith(command) for line in HELP)


# -- S4.3 winning, losing, undo --------------------------------------------------------------------------------


def test_s4_3_a_win_prints_you_won_and_ends_the_game():
    line = short_win_line()
    assert len(line) == 53
    status, lines = run_terminal(["--deck", str(SHORT_WIN)], "\n".join(line) + "\nq\n")
    assert status == 0
    assert lines[-1] == "You won! All 52 cards are on the foundations in 53 moves."
    assert lines[-2] == "Column 10: empty"
    assert PROMPT + "q" not in lines, "nothing is asked after the win"


def test_s4_3_no_legal_moves_comes_right_after_the_move_that_left_none_and_undo_goes_on():
    answers = "t2c 1 1\nt2c 2 2\nt2c 3 3\nt2c 4 4\nu\nu\nu\nu\nu\n"
    status, lines = run_terminal(["--deck", str(STUCK_AFTER_FOUR)], answers)
    after = screen_after(lines, "t2c 4 4")
    assert after[0] == "Moved TH from column 4 to cell 4."
    assert after[-1] == "No legal moves: this position is lost. Type u to undo a move, or q to quit."
    assert len(after) == 14
    assert sum(line.startswith("No legal moves") for line in lines) == 1
    assert lines.count(PROMPT + "u") == 5
    assert lines[-2] == "Error: There is no move to undo."  # S4.3: u with nothing to undo
    assert lines[-1] == PROMPT


# -- S4.4 starting ---------------------------------------------------------------------------------------------------


def test_s4_4_a_seed_shuffles_repeatably_and_names_its_deal_number():
    first = run_terminal(["--seed", "77"], "")[1]
    again = run_terminal(["--seed", "77"], "")[1]
    other = run_terminal(["--seed", "78"], "")[1]
    assert first == again and first != other
    number = DEFINITION.new_state(["You"], seed=77).deal
    assert first[0] == f"Seahaven Towers, deal {number} (open deal). Type h for the commands."
    assert run_terminal(["--deal", str(number)], "")[1][1:] == first[1:]


def test_s4_4_classic_puts_cards_51_and_52_in_cells_2_and_3(tmp_path):
    deck = deal_cards(8)
    status, lines = run_terminal(["--deck", str(deck_file(tmp_path, deck)), "--classic"], "")
    assert lines[0].endswith("(classic deal). Type h for the commands.")
    assert lines[1] == f"Cells: 1 empty, 2 {deck[50].code}, 3 {deck[51].code}, 4 empty"
    assert lines[3] == "Column 1: " + " ".join(card.code for card in deck[0:50:10])


def test_s4_4_a_bad_deck_file_says_what_is_wrong(tmp_path):
    bad = tmp_path / "bad.deck"
    bad.write_text(" ".join(card.code for card in deal_cards(3)[:51]))
    status, lines = run_terminal(["--deck", str(bad)], "")
    assert status == 1
    assert lines[0].startswith(f"Error: {bad}: the deck holds 51 card codes; it needs exactly 52 (missing: ")
    status, lines = run_terminal(["--deck", str(tmp_path / "none.deck")], "")
    assert status == 1 and lines == [f"Error: {tmp_path / 'none.deck'}: there is no deck file named 'none.deck'"]


def test_s4_4_q_and_the_end_of_input_quit_with_status_0():
    assert run_terminal(["--deal", "4"], "q\n")[1][-1] == "Goodbye."
    assert run_terminal(["--deal", "4"], "t2c 1 1\n")[0] == 0


# -- S5.1 the solver's command line ------------------------------------------------------------------------------


def test_s5_1_solve_prints_winnable_in_n_moves_and_the_line_wins_when_played():
    status, lines = run_terminal(["solve", "--deck", str(SHORT_WIN), "--moves"], "")
    assert status == 0 and lines[0] == "winnable in 53 moves"
    assert lines[1:] == short_win_line()
    played = run_terminal(["--deck", str(SHORT_WIN)], "\n".join(lines[1:]) + "\n")[1]
    assert played[-1].startswith("You won!")


def test_s5_1_solve_prints_not_winnable():
    assert run_terminal(["solve", "--deal", "1", "--classic"], "") == (0, ["not winnable"])
    assert run_terminal(["solve", "--deal", "88"], "") == (0, ["not winnable"])


def test_s5_1_solve_with_a_seed_judges_the_same_deal_the_game_deals():
    number = DEFINITION.new_state(["You"], seed=5).deal
    by_seed = run_terminal(["solve", "--seed", "5"], "")
    by_number = run_terminal(["solve", "--deal", str(number)], "")
    assert by_seed == by_number and by_seed[1][0].startswith(("winnable in", "not winnable"))


# -- the real program --------------------------------------------------------------------------------------------


def run_program(args: list[str], answers: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "app.games.seahaven", *args], input=answers, capture_output=True,
                          text=True, cwd=cwd, timeout=60, env={"PYTHONPATH": str(ROOT), "PATH": ""})


def test_the_program_replays_the_recorded_session():
    answers = (SCREENS / "stuck_after_four.commands").read_text()
    done = run_program(["--deck", "stuck_after_four.deck"], answers, SAMPLE_DECKS)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.splitlines() == (SCREENS / "stuck_after_four.screen").read_text().splitlines()


def test_the_program_wins_the_short_deal_and_solves_it(tmp_path):
    solved = run_program(["solve", "--deck", str(SHORT_WIN), "--moves"], "", tmp_path)
    assert solved.returncode == 0 and solved.stdout.splitlines()[0] == "winnable in 53 moves"
    played = run_program(["--deck", str(SHORT_WIN)], "\n".join(solved.stdout.splitlines()[1:]) + "\n", tmp_path)
    assert played.returncode == 0 and played.stdout.splitlines()[-1].startswith("You won!")
    wrong = run_program(["--seed", "x"], "", tmp_path)
    assert wrong.returncode == 2 and "invalid int value" in wrong.stderr
