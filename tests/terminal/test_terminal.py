"""The terminal game, driven the way R9.4 promises: a file of answers on standard input.

Most tests run the real program (``python -m app.terminal``) in a temporary folder holding the
deck files, as a player would; a few run ``app.terminal.Terminal`` in-process where that is
simpler. Long games are not typed by hand: ``answer_script.play`` plays the game through
``app.games.mason.Game`` first and records the answers, and the program must then play the very same
game. ``tests/data/answers/quick_out_doris_vs_ai.txt`` is a short hand-written game to read.
"""

from __future__ import annotations

import io
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from answer_script import PlayedGame, expected_rows, never_lay_down, play, scores_csv, seat_label

from app.games.mason.definition import MASON
from app.tables.decks import read_deck_file
from app.terminal import Terminal

ROOT = Path(__file__).resolve().parents[2]
DECKS = ROOT / "tests" / "decks"
DATA = ROOT / "tests" / "data"
HEADER = '"name","games won","games lost","best score"\n'
MENU_A = (
    "Menu A: Main Menu\n1. View scores\n2. Play 2-player game\n3. Play 3-player game\n"
    "4. Play 2-player game with stacked deck\n5. Play 3-player game with stacked deck\n6. Quit\n"
)
MENU_B = "Menu B: Choose Player Type\n1. New player\n2. Returning player\n"
MENU_D = "Menu D: Which Card to Draw\n1. Draw from stock pile\n2. Draw from discard pile\n"
MENU_E = "Menu E: Next Action\n1. Play down cards\n2. Discard\n"
NOT_A_CHOICE = "Please answer with a number from 1 to {}."
QUICK_OUT_ANSWERS = (DATA / "answers" / "quick_out_doris_vs_ai.txt").read_text(encoding="utf-8").splitlines()
AI_QUICK_OUT_HAND = "2D 4D 6H 8H TS QS 3P 5P KC AD"  # seat 2's hand in quick_out.deck


# -- running the program ------------------------------------------------------------------------


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """The folder the program runs in: the sample decks and the test decks, no scores.csv."""
    play_folder = tmp_path / "play"
    play_folder.mkdir()
    for deck in list(DECKS.glob("*.deck")) + list((DATA / "decks").glob("*.deck")):
        shutil.copy(deck, play_folder)
    return play_folder


def as_bytes(answers) -> bytes:
    if isinstance(answers, bytes):
        return answers
    if isinstance(answers, str):
        return answers.encode("utf-8")
    return ("\n".join(answers) + "\n").encode("utf-8")


def run_program(folder: Path, answers, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """``python -m app.terminal`` in ``folder``, standard input read from a file of answers."""
    answers_file = folder.parent / "answers.txt"
    answers_file.write_bytes(as_bytes(answers))
    environment = dict(os.environ, PYTHONPATH=str(ROOT))
    environment.update(env or {})
    with open(answers_file, "rb") as stdin:
        result = subprocess.run(
            [sys.executable, "-m", "app.terminal", *args], cwd=folder, stdin=stdin,
            capture_output=True, timeout=120, env=environment)
    result.out = result.stdout.decode("utf-8", errors="replace")
    return result


def run_here(folder: Path, answers, seed: int = 0) -> tuple[int, str]:
    """The same program in-process: ``Terminal`` with string streams."""
    text = answers if isinstance(answers, str) else "\n".join(answers) + "\n"
    stdout = io.StringIO()
    code = Terminal(stdin=io.StringIO(text), stdout=stdout, folder=str(folder), rng=random.Random(seed)).run()
    return code, stdout.getvalue()


def ok(result: subprocess.CompletedProcess) -> str:
    """The program ended cleanly (R9.4): status 0 and nothing on standard error."""
    assert result.returncode == 0, result.stderr.decode()
    assert result.stderr == b""
    return result.out


def scores_text(folder: Path) -> str | None:
    path = folder / "scores.csv"
    return path.read_text(encoding="utf-8") if path.exists() else None


def in_order(text: str, *parts: str) -> None:
    """Every part appears in ``text``, each after the previous one."""
    position = 0
    for part in parts:
        found = text.find(part, position)
        assert found >= 0, f"not found (in order): {part!r}"
        position = found + len(part)


def deck(name: str):
    return read_deck_file(DECKS / f"{name}.deck", MASON)


def check_replayed(out: str, played: PlayedGame) -> None:
    """The program played the scripted game: every log line, round summary and result (R9.3).
    Seats are shown by their label: several AI seats as AI 1, AI 2, AI 3 (R3.4)."""
    in_order(out, *played.events)
    game = played.game
    names = [player.name for player in game.players]
    totals = [0] * len(game.players)
    summaries = []
    for number, points in enumerate(game.round_scores, start=1):
        summaries.append(f"\nRound {number} is over: ")
        for seat in range(len(game.players)):
            totals[seat] += points[seat]
            summaries.append(f"  {seat_label(names, seat)}: {points[seat]} points this round, "
                             f"{totals[seat]} in total\n")
    in_order(out, *summaries)
    winners = game.winners()
    results = [f"  {seat_label(names, s)}: {p.score} points - {'wins' if s in winners else 'loses'}\n"
               for s, p in enumerate(game.players)]
    in_order(out, "\nGame over. Final scores:\n", *results, "Scores saved to scores.csv.\n", MENU_A)


def check_table_shows(out: str, rows) -> None:
    """View scores (Menu A 1) showed these rows (name, won, lost, best) in the score table."""
    for name, won, lost, best in rows:
        assert re.search(rf"\n{re.escape(name)} +{won} +{lost} +{'' if best is None else best} *\n", out), name


def check_only_own_hand_shown(out: str) -> None:
    """R4.4: each table shows the hand of the player whose turn it is, marked (you)."""
    blocks = re.findall(r"^Round \d of 3 - ([^\n]+)'s turn\n((?:[^\n]*\n)*?)Your hand:", out, flags=re.M)
    assert blocks
    for name, block in blocks:
        assert f"\n  {name} (you): " in "\n" + block
        assert block.count("(you)") == 1


# -- Menu A -------------------------------------------------------------------------------------


def test_menu_a_shows_the_six_options_in_order_and_quit_exits_0(folder):
    out = ok(run_program(folder, ["6"]))
    assert out == f"Welcome to Mason Rummy!\n\n{MENU_A}Your choice (1-6): 6\nGoodbye!\n"
    assert scores_text(folder) is None


@pytest.mark.parametrize("answer", ["abc", "0", "7", "", "1.5", "-1", "+1", "6.0", "\uff16", "1 2", "six", "  "])
def test_menu_a_asks_again_after_anything_but_1_to_6(folder, answer):
    code, out = run_here(folder, [answer, "6"])
    assert code == 0
    in_order(out, MENU_A, f"Your choice (1-6): {answer}\n{NOT_A_CHOICE.format(6)}\n\n{MENU_A}", "Goodbye!\n")
    assert out.count("Menu A: Main Menu") == 2


def test_menu_a_invalid_answers_in_a_row_each_get_a_message(folder):
    out = ok(run_program(folder, ["abc", "0", "7", "", "1.5", " 6 "]))
    assert out.count(NOT_A_CHOICE.format(6)) == 5
    assert out.count(MENU_A) == 6
    assert out.endswith("Goodbye!\n")


def test_view_scores_without_a_scores_file(folder):
    out = ok(run_program(folder, ["1", "6"]))
    in_order(out, "Your choice (1-6): 1\n", "\nScores\nNo scores yet.\n", MENU_A, "Goodbye!")
    assert scores_text(folder) is None  # viewing writes nothing


def test_view_scores_with_a_scores_file(folder):
    table = HEADER + '"doris","3","1","42"\n"AI","0","4",""\n"Bob Smith","1","0","7"\n'
    (folder / "scores.csv").write_text(table, encoding="utf-8")
    out = ok(run_program(folder, ["1", "6"]))
    rows = out.split("\nScores\n", 1)[1].split("\n\nMenu A", 1)[0].splitlines()
    assert [row.split() for row in rows] == [
        ["Name", "Won", "Lost", "Best"], ["AI", "0", "4"], ["Bob", "Smith", "1", "0", "7"], ["doris", "3", "1", "42"]]
    assert scores_text(folder) == table


def test_empty_input_exits_0(folder):
    result = run_program(folder, b"")
    assert ok(result).startswith("Welcome to Mason Rummy!\n")


def test_last_answer_without_a_newline_still_counts(folder):
    assert ok(run_program(folder, b"1\n6")).endswith("Goodbye!\n")


@pytest.mark.parametrize("option, seats, stock", [("2", 2, 44), ("3", 3, 34)])
def test_menu_a_shuffled_games_start(folder, option, seats, stock):
    """A game of 2 or 3 seats, filled in order, each through Menu B (R3.1)."""
    names = ["Ann", "Bob", "Cy"][:seats]
    answers = [option] + [line for name in names for line in ("1", name)]
    code, out = run_here(folder, answers, seed=11)
    assert code == 0
    assert "Deck file name" not in out  # options 2 and 3 shuffle, no deck is asked for
    in_order(out, *[f"Player {n} - {MENU_B}" for n in range(1, seats + 1)],
             "Round 1 dealt; Ann starts.", "Ann, it is your turn.", f"Stock pile: {stock} cards",
             *[f"  {name}{' (you)' if name == 'Ann' else ''}: 10 cards in hand, 0 points; sets: none"
               for name in names],
             MENU_D)
    assert scores_text(folder) is None  # input ended mid-game


def test_shuffled_game_with_seed_is_repeatable_and_another_seed_deals_differently(folder):
    answers = ["2", "1", "Ann", "1", "Bob"] + ["1", "2", "1"] * 6
    first = ok(run_program(folder, answers, "--seed", "7"))
    assert ok(run_program(folder, answers, "--seed", "7")) == first
    assert ok(run_program(folder, answers, "--seed", "8")) != first
    assert first.count("Menu D: Which Card to Draw") == 7


# -- end of input (R9.4) --------------------------------------------------------------------------


@pytest.mark.parametrize("cut", [1, 2, 4, 6, 7, 9, 13, 14, 26])
@pytest.mark.parametrize("had_scores", [False, True])
def test_end_of_input_mid_game_exits_0_and_changes_no_scores(folder, cut, had_scores):
    table = HEADER + '"AI","2","0","9"\n"Doris","0","2",""\n'
    if had_scores:
        (folder / "scores.csv").write_text(table, encoding="utf-8")
    out = ok(run_program(folder, QUICK_OUT_ANSWERS[:cut]))
    assert "Game over" not in out
    assert scores_text(folder) == (table if had_scores else None)
    left = sorted(p.name for p in folder.iterdir() if not p.name.endswith(".deck"))
    assert left == (["scores.csv"] if had_scores else [])


# -- the stacked-deck prompt (R2.2) ---------------------------------------------------------------


def test_deck_prompt_says_what_is_wrong_and_asks_again_until_no(folder):
    answers = ["4", "nope.deck", "too_few.deck", "bad_code.deck", "duplicate.deck", "empty.deck",
               "sixty_six.deck", "comment.deck", "", ".", "a\x00b.deck", "no",
               "5", " NO ", "4", "No", "1", "6"]
    out = ok(run_program(folder, answers))
    prompt = "Deck file name (or no to go back): "
    in_order(
        out,
        "Your choice (1-6): 4\n",
        f"{prompt}nope.deck\nThat deck cannot be used: there is no deck file named 'nope.deck'.\n",
        f"{prompt}too_few.deck\nThat deck cannot be used: the deck holds 64 card codes; "
        "it needs exactly 65 (missing: 5S).\n",
        f"{prompt}bad_code.deck\nThat deck cannot be used: code 9 of the deck (line 1), '10P', is not a card",
        f"{prompt}duplicate.deck\nThat deck cannot be used: 7H appears twice, at codes 6 and 49 (lines 1 and 5)",
        f"{prompt}empty.deck\nThat deck cannot be used: the deck holds 0 card codes; it needs exactly 65",
        f"{prompt}sixty_six.deck\nThat deck cannot be used: 9C appears twice, at codes 21 and 66 (lines 3 and 7)",
        "(and the deck holds 66 card codes, not 65)",
        f"{prompt}comment.deck\nThat deck cannot be used: code 1 of the deck (line 1), '#', is not a card",
        f"{prompt}\nPlease type a deck file name, such as stacked_test1.deck, or no.\n",
        f"{prompt}.\nThat deck cannot be used: '.' is a folder, not a deck file.\n",
        "That deck cannot be used: there is no deck file named 'a\\x00b.deck'.\n",
        f"{prompt}no\n\n{MENU_A}",
        f"Your choice (1-6): 5\n{prompt} NO \n\n{MENU_A}",
        f"Your choice (1-6): 4\n{prompt}No\n\n{MENU_A}",
        "Your choice (1-6): 1\n\nScores\nNo scores yet.\n",
        "Goodbye!\n",
    )
    assert out.count(prompt) == 13
    assert "Menu B" not in out


def test_deck_prompt_then_a_valid_file_starts_the_game(folder):
    out = ok(run_program(folder, ["4", "missing.deck", "quick_out.deck", "1", "Doris", "1", "AI"]))
    in_order(out, "there is no deck file named 'missing.deck'", "quick_out.deck\n\nPlayer 1 - " + MENU_B,
             "Round 1 dealt; Doris starts.", "Discard pile: 9C    Stock pile: 44 cards",
             "Your hand: 2C 3C 4C 5C 7D 7H 7S 9P TP JP\n" + MENU_D)


@pytest.mark.parametrize("deck_file", ["lowercase.deck", "mixed_whitespace.deck"])
def test_lowercase_and_any_whitespace_decks_are_valid(folder, deck_file):
    # R1.3: either letter case is read, every display is upper case; R2.1: any whitespace.
    out = ok(run_program(folder, ["4", deck_file, "1", "Doris", "1", "AI"]))
    assert "cannot be used" not in out
    in_order(out, "Discard pile: 9C    Stock pile: 44 cards", "Your hand: 2C 3C 4C 5C 7D 7H 7S 9P TP JP\n")


# -- seats: new players (R3.2, R3.4) ---------------------------------------------------------------


def test_new_player_names_are_checked(folder):
    (folder / "scores.csv").write_text(HEADER + '"Doris","1","0","5"\n', encoding="utf-8")
    long_name, longest = "x" * 25, "y" * 24
    answers = ["4", "quick_out.deck",
               "1", "", "   ", long_name, "doris", " DORIS ", "Bell\x07", "  Ann  ",
               "1", "ann", "ANN ", longest]
    code, out = run_here(folder, answers)
    assert code == 0
    ask = "New player's name: "
    in_order(
        out,
        f"{ask}\nA name cannot be empty.\n",
        f"{ask}   \nA name cannot be empty.\n",
        f"{ask}{long_name}\nA name can have at most 24 characters.\n",
        f"{ask}doris\nThe name doris is already taken; choose Returning player to use it, or another name.\n",
        f"{ask} DORIS \nThe name DORIS is already taken",
        f"{ask}Bell\x07\nA name can only hold printable characters.\n",
        f"{ask}  Ann  \n\nPlayer 2 - {MENU_B}",
        f"{ask}ann\nThe name ann is already taken",
        f"{ask}ANN \nThe name ANN is already taken",
        f"{ask}{longest}\nRound 1 dealt; Ann starts.\n",  # trimmed: "Ann"
        "  Ann (you): 10 cards in hand",
        f"  {longest}: 10 cards in hand",
    )
    assert out.count(ask) == 10


def test_ai_may_sit_in_every_seat_and_all_of_them_are_the_one_ai_row(folder):
    """A 3-player stacked game with three computer players plays itself to the end (R3.4)."""
    out = ok(run_program(folder, ["5", "three_players.deck", "1", "AI", "1", "ai", "1", " Ai ", "1", "6"]))
    played = play(["AI", "AI", "AI"], deck("three_players"))
    check_replayed(out, played)
    rows = expected_rows(played)
    [(name, won, lost, best)] = rows
    assert name == "AI" and won + lost == 3 and won >= 1
    check_table_shows(out, rows)
    assert scores_text(folder) == scores_csv(rows)
    assert "Your hand" not in out and "Menu D" not in out  # no human seat, no hand shown


def test_new_player_ai_is_allowed_although_ai_is_in_the_score_table(folder):
    (folder / "scores.csv").write_text(HEADER + '"AI","0","1",""\n', encoding="utf-8")
    out = ok(run_program(folder, ["4", "stock_rebuild.deck", "1", "AI", "1", "AI", "6"]))
    played = play(["AI", "AI"], deck("stock_rebuild"))
    check_replayed(out, played)
    # stock_rebuild.deck: the stock runs out in round 1 and is rebuilt (R5.2). The two AI seats
    # are shown as AI 1 and AI 2 (R3.4).
    assert played.went_out[0] is not None
    in_order(out, "Round 1 dealt; AI 1 starts.", "The stock pile ran out: 44 discards were turned over to rebuild it.",
             f"Round 1 is over: {seat_label(['AI', 'AI'], played.went_out[0])} went out.")
    rows = expected_rows(played, before=[("AI", 0, 1, None)])
    assert rows[0][1] + rows[0][2] == 3
    assert scores_text(folder) == scores_csv(rows)


# -- seats: returning players (R3.3) ---------------------------------------------------------------


def test_menu_c_is_sorted_ignoring_case_and_leaves_out_seated_humans(folder):
    (folder / "scores.csv").write_text(
        HEADER + '"doris","0","1",""\n"Bob","1","0","50"\n"AI","2","2","30"\n"carl","0","0",""\n"Ann","0","3",""\n',
        encoding="utf-8")
    answers = ["4", "quick_out.deck", "2", "0", "6", "x", "", "3", "2", "1"]
    code, out = run_here(folder, answers)
    assert code == 0
    menu_c = "Menu C: Choose Previous Player\n"
    in_order(
        out,
        f"Player 1 - {MENU_B}Your choice (1-2): 2\n",
        f"{menu_c}1. AI\n2. Ann\n3. Bob\n4. carl\n5. doris\nYour choice (1-5): 0\n{NOT_A_CHOICE.format(5)}\n",
        f"Your choice (1-5): 6\n{NOT_A_CHOICE.format(5)}\n",
        f"Your choice (1-5): x\n{NOT_A_CHOICE.format(5)}\n",
        f"Your choice (1-5): \n{NOT_A_CHOICE.format(5)}\n",
        f"Your choice (1-5): 3\n\nPlayer 2 - {MENU_B}Your choice (1-2): 2\n",
        f"{menu_c}1. AI\n2. Ann\n3. carl\n4. doris\nYour choice (1-4): 1\n",  # Bob is seated
        "Round 1 dealt; Bob starts.", "  Bob (you): 10 cards in hand", "  AI: 10 cards in hand",
    )
    assert out.count(menu_c) == 6


def test_menu_c_keeps_ai_after_an_ai_seat(folder):
    (folder / "scores.csv").write_text(HEADER + '"AI","0","1",""\n"Zoe","0","1",""\n', encoding="utf-8")
    code, out = run_here(folder, ["5", "three_players.deck", "2", "1", "2", "2", "2", "1"])
    assert code == 0
    menu_c = "Menu C: Choose Previous Player\n"
    # Seats 1 and 3 are both AI: shown as AI 1 and AI 3 (R3.4).
    in_order(out, f"{menu_c}1. AI\n2. Zoe\n", f"{menu_c}1. AI\n2. Zoe\n", f"{menu_c}1. AI\nYour choice (1-1): 1\n",
             "Round 1 dealt; AI 1 starts.")


def test_empty_returning_list_says_so_and_shows_menu_b_again(folder):
    code, out = run_here(folder, ["4", "quick_out.deck", "2", "1", "Doris", "2", "1", "AI"])
    assert code == 0
    empty = "There are no returning players to choose from.\n"
    in_order(out, f"Player 1 - {MENU_B}Your choice (1-2): 2\n{empty}\nPlayer 1 - {MENU_B}",
             f"Player 2 - {MENU_B}Your choice (1-2): 2\n{empty}\nPlayer 2 - {MENU_B}", "Round 1 dealt; Doris starts.")


def test_returning_list_empty_because_its_only_name_is_seated(folder):
    (folder / "scores.csv").write_text(HEADER + '"Doris","0","1",""\n', encoding="utf-8")
    code, out = run_here(folder, ["4", "quick_out.deck", "2", "1", "2", "1", "AI"])
    assert code == 0
    in_order(out, "1. Doris\nYour choice (1-1): 1\n", f"Player 2 - {MENU_B}Your choice (1-2): 2\n"
             "There are no returning players to choose from.\n", f"Player 2 - {MENU_B}", "Round 1 dealt; Doris starts.")


# -- Menus D, E and F (R5, R9.1) -------------------------------------------------------------------


def test_menus_d_e_f_ask_again_and_a_refused_lay_down_returns_to_menu_e(folder):
    # quick_out.deck: after drawing QP, Doris's Menu F is 1 2C 2 3C 3 4C 4 5C 5 7D 6 7H 7 7S
    # 8 9P 9 TP 10 JP 11 QP.
    answers = ["4", "quick_out.deck", "1", "Doris", "1", "AI",
               "3", "x", "", "0", "1",  # Menu D: asked again, then the stock
               "3", "abc", "1",  # Menu E
               "", "1,,2", "a", "12", "1,1", "0", "1;2", "((1,2))", "1 2", "()", " (1, 4, 5) ",  # Menu F
               "1", " (1, 2, 3, 4) ",  # the run 2C 3C 4C 5C
               "1", "(3,)",  # 7S alone fits nothing: refused
               "1", "3,2,1",  # the meld 7D 7H 7S, typed backwards
               "2", "0", "5", "1,2", "", "x", "4"]  # discard QP (numbers 1-4)
    code, out = run_here(folder, answers)
    assert code == 0
    f_prompt = "Cards to play down (numbers separated by commas, such as 1,4,5): "
    menu_f = "Menu F: Select Cards\n1. 2C (two of Clubs)\n"
    in_order(
        out,
        *[f"Your choice (1-2): {answer}\n{NOT_A_CHOICE.format(2)}\n{MENU_D}" for answer in ("3", "x", "", "0")],
        "Your choice (1-2): 1\nDoris drew from the stock pile.\nYou drew QP (queen of Patriots).\n",
        *[f"Your choice (1-2): {answer}\n{NOT_A_CHOICE.format(2)}\n{MENU_E}" for answer in ("3", "abc")],
        f"Your choice (1-2): 1\n{menu_f}",
        f"{f_prompt}\nSelect cards by their numbers, separated by commas, such as 1,4,5 (1 to 11).\n{menu_f}",
        f"{f_prompt}1,,2\n'' is not a card number: use numbers from 1 to 11, separated by commas.\n{menu_f}",
        f"{f_prompt}a\n'a' is not a card number",
        f"{f_prompt}12\nThere is no card 12: use numbers from 1 to 11.\n{menu_f}",
        f"{f_prompt}1,1\nCard 1 was selected twice.\n{menu_f}",
        f"{f_prompt}0\nThere is no card 0",
        f"{f_prompt}1;2\n'1;2' is not a card number",
        f"{f_prompt}((1,2))\n'(1' is not a card number",
        f"{f_prompt}1 2\n'1 2' is not a card number",
        f"{f_prompt}()\nSelect cards by their numbers",
        # R5.5/R5.4: a well-formed selection that R6 refuses: the reason, then Menu E (not D).
        f"{f_prompt} (1, 4, 5) \nNot allowed: 2C 5C 7D is neither a meld (same value) "
        "nor a run (same suit, values in a row); "
        "single cards can only go onto your own sets, and you have none yet\n\nRound 1 of 3 - Doris's turn\n",
        "Your hand: 2C 3C 4C 5C 7D 7H 7S 9P TP JP QP\n" + MENU_E,  # nothing moved
        f"{f_prompt} (1, 2, 3, 4) \nDoris laid down a run: 2C 3C 4C 5C.\n",
        "  Doris (you): 7 cards in hand, 0 points; sets: [2C 3C 4C 5C]\n",
        f"Your hand: 7D 7H 7S 9P TP JP QP\n{MENU_E}",
        f"{f_prompt}(3,)\nNot allowed: 7S: one card is too few for a new meld or run (3 or more are needed); "
        "and 7S does not fit onto any of your own sets\n",
        f"Your hand: 7D 7H 7S 9P TP JP QP\n{MENU_E}",
        f"{f_prompt}3,2,1\nDoris laid down a meld: 7D 7H 7S.\n",
        f"Your hand: 9P TP JP QP\n{MENU_E}Your choice (1-2): 2\nMenu F: Select Cards\n1. 9P (nine of Patriots)\n",
        *[f"Card to discard (1-4): {answer}\n{NOT_A_CHOICE.format(4)}\nMenu F: Select Cards\n"
          for answer in ("0", "5", "1,2", "", "x")],
        "Card to discard (1-4): 4\nDoris discarded QP.\n",
        "AI drew from the stock pile.",  # QP does not help the AI
    )
    assert out.count(MENU_D) == 6  # five times in turn 1 (one draw per turn, R5.4), then turn 2
    assert scores_text(folder) is None


def test_discard_is_asked_even_for_the_last_card_and_discarding_it_ends_the_round(folder):
    answers = ["4", "quick_out.deck", "1", "Doris", "1", "AI", "1",
               "1", "1,2,3,4", "1", "1,2,3", "1", "1,2,3",  # 2C-5C, 7D 7H 7S, 9P TP JP: QP is left
               "2", "2", "1"]
    code, out = run_here(folder, answers)
    assert code == 0
    in_order(out, "Your hand: QP\n" + MENU_E + "Your choice (1-2): 2\nMenu F: Select Cards\n1. QP (queen of Patriots)\n"
             f"Card to discard (1-1): 2\n{NOT_A_CHOICE.format(1)}\n",
             "Card to discard (1-1): 1\nDoris discarded QP.\nDoris went out and ends round 1.\n",
             "\nRound 1 is over: Doris went out.\n  Doris: 0 points this round, 0 in total\n"
             "  AI: 73 points this round, 73 in total\nRound 2 dealt; AI starts.\n")


def test_refused_lay_downs_on_the_queen_king_ace_deck(folder):
    answers = ["4", "queen_king_ace.deck", "1", "Ann", "1", "AI", "1",
               "1", "8,9,4", "1", "9,4,5", "1", "7,8,9", "1", "4", "1", "6"]
    out = ok(run_program(folder, answers))
    in_order(out, "You drew JH (jack of Hearts).",
             "8,9,4\nNot allowed: 2H KH AH is neither a meld", f"Your hand: 4C 9C 6D 2H 3H JH QH KH AH 8S TP\n{MENU_E}",
             "9,4,5\nNot allowed: 2H 3H AH is neither a meld", f"{MENU_E}",
             "7,8,9\nAnn laid down a run: QH KH AH.\n",
             "4\nNot allowed: 2H: one card is too few for a new meld or run (3 or more are needed); "
             "and 2H does not fit onto any of your own sets\n", MENU_E,
             "6\nAnn laid JH onto their run JH QH KH AH.\n", "sets: [JH QH KH AH]\n")


def test_a_card_fitting_a_run_and_a_meld_goes_on_the_run(folder):
    out = ok(run_program(folder, ["4", "run_or_meld.deck", "1", "Ann", "1", "AI", "1",
                                  "1", "7,8,9", "1", "1,4,6", "1", "4"]))
    in_order(out, "You drew 8S (eight of Spades).", "Ann laid 8S onto their run 5S 6S 7S 8S.\n",
             "  Ann (you): 4 cards in hand, 0 points; sets: [5S 6S 7S 8S]  [8C 8D 8H]\n")


# -- whole games, the exact scores.csv (R7) ----------------------------------------------------------


def test_hand_written_quick_out_game(folder):
    """tests/data/answers/quick_out_doris_vs_ai.txt, line by line:
    4 (stacked 2-player), quick_out.deck, 1 Doris (new), 1 AI (new);
    round 1: 1 (stock: QP), 1 1,2,3,4 (2C-5C), 1 1,2,3 (7D 7H 7S), 1 1,2,3,4 (9P-QP): out;
    round 2 (the AI starts; it draws and discards AD): 1 (stock: 6C), 1 1,2,3,4,5, 1 1,2,3, 1 1,2,3;
    round 3 as round 1; then 1 (view scores) and 6 (quit)."""
    out = ok(run_program(folder, QUICK_OUT_ANSWERS))
    assert scores_text(folder) == HEADER + '"AI","0","1",""\n"Doris","1","0","0"\n'
    # What the AI throws away in round 2 is its own strategy's choice (R8.3): take it, and the
    # points it leaves, from the same game played through app.games.mason.
    played = play(["Doris", "AI"], deck("quick_out"))
    ai_discard = next(line for line in played.round_events[1] if line.startswith("AI discarded "))
    round_2 = played.game.round_scores[1][1]
    in_order(
        out,
        "Round 1 dealt; Doris starts.\n\n" + "-" * 64 + "\nDoris, it is your turn.\n\n",
        "Round 1 of 3 - Doris's turn\nDiscard pile: 9C    Stock pile: 44 cards\n"
        "  Doris (you): 10 cards in hand, 0 points; sets: none\n"
        "  AI: 10 cards in hand, 0 points; sets: none\n"
        "Your hand: 2C 3C 4C 5C 7D 7H 7S 9P TP JP\n" + MENU_D,
        "You drew QP (queen of Patriots).\n\nRound 1 of 3 - Doris's turn\nDiscard pile: 9C    Stock pile: 43 cards\n"
        "  Doris (you): 11 cards in hand",
        "Doris laid down a run: 2C 3C 4C 5C.\n",
        "  Doris (you): 4 cards in hand, 0 points; sets: [2C 3C 4C 5C]  [7D 7H 7S]\n",
        "Doris laid down a run: 9P TP JP QP.\nDoris went out and ends round 1.\n",
        "\nRound 1 is over: Doris went out.\n  Doris: 0 points this round, 0 in total\n"
        "  AI: 73 points this round, 73 in total\n",
        f"Round 2 dealt; AI starts.\nAI drew from the stock pile.\n{ai_discard}\n",
        f"Round 2 of 3 - Doris's turn\nDiscard pile: {ai_discard[-3:-1]}    Stock pile: 43 cards\n"
        "  Doris (you): 10 cards in hand, 0 points; sets: none\n  AI: 10 cards in hand, 73 points; sets: none\n",
        "You drew 6C (six of Clubs).",
        "Doris laid down a run: 2C 3C 4C 5C 6C.\n",
        "\nRound 2 is over: Doris went out.\n  Doris: 0 points this round, 0 in total\n"
        f"  AI: {round_2} points this round, {73 + round_2} in total\nRound 3 dealt; Doris starts.\n",
        "\nRound 3 is over: Doris went out.\n  Doris: 0 points this round, 0 in total\n"
        f"  AI: 73 points this round, {146 + round_2} in total\n",
        f"\nGame over. Final scores:\n  Doris: 0 points - wins\n  AI: {146 + round_2} points - loses\n"
        "Scores saved to scores.csv.\n",
        MENU_A + "Your choice (1-6): 1\n\nScores\nName   Won  Lost  Best\n"
        "AI       0     1      \nDoris    1     0     0\n",
        MENU_A + "Your choice (1-6): 6\nGoodbye!\n",
    )
    assert AI_QUICK_OUT_HAND not in out  # R4.4: never another player's hand
    check_only_own_hand_shown(out)
    assert out.count("Round 3 is over") == 1 and "Round 4" not in out  # R4.1


def test_windows_line_endings_in_the_answers_file_play_the_same_game(folder):
    out = ok(run_program(folder, "\r\n".join(QUICK_OUT_ANSWERS) + "\r\n"))
    assert "Game over" in out
    assert scores_text(folder) == HEADER + '"AI","0","1",""\n"Doris","1","0","0"\n'


def test_human_against_ai_scripted_game(folder):
    played = play(["Ann", "AI"], deck("run_or_meld"))
    out = ok(run_program(folder, played.answers("4", ["1", "Ann", "1", "AI"], "run_or_meld.deck", after=["1", "6"])))
    check_replayed(out, played)
    check_only_own_hand_shown(out)
    in_order(out, "Round 1 dealt; Ann starts.", "Round 2 dealt; AI starts.", "Round 3 dealt; Ann starts.")
    rows = expected_rows(played)
    assert [row[0] for row in rows] == ["AI", "Ann"] and all(row[1] + row[2] == 1 for row in rows)
    check_table_shows(out, rows)
    assert scores_text(folder) == scores_csv(rows)


def test_human_against_human(folder):
    played = play(["Ann", "Bob"], deck("run_or_meld"))
    assert played.game.round_scores == [[0, 78], [0, 14], [0, 78]]
    out = ok(run_program(folder, played.answers("4", ["1", "Ann", "1", "Bob"], "run_or_meld.deck", after=["1", "6"])))
    check_replayed(out, played)
    check_only_own_hand_shown(out)
    in_order(out, "Round 2 dealt; Bob starts.", "  Ann: 0 points - wins\n  Bob: 170 points - loses\n")
    assert scores_text(folder) == HEADER + '"Ann","1","0","0"\n"Bob","0","1",""\n'
    check_table_shows(out, [("Ann", 1, 0, 0), ("Bob", 0, 1, None)])


def test_human_against_human_nobody_lays_down_so_every_round_is_blocked(folder):
    """Both humans answer 1, 2, 1 every turn (draw from the stock, discard card 1): the stock runs
    out after 44 draws and is rebuilt (R5.2), again after 44 more, and the third time it runs out
    the round is blocked (STALL_REBUILDS), everyone counting their hand (R7.2). The round ends on
    a human's draw, before Menu E."""
    played = play(["Ann", "Bob"], deck("stock_rebuild"), strategy=never_lay_down)
    assert played.turn_lines == (["1", "2", "1"] * 132 + ["1"]) * 3
    out = ok(run_program(folder, played.answers("4", ["1", "Ann", "1", "Bob"], "stock_rebuild.deck")))
    check_replayed(out, played)
    check_only_own_hand_shown(out)
    in_order(out, "Round 1 of 3 - Ann's turn\nDiscard pile: AS    Stock pile: 44 cards\n",  # the deal's face-up card
             "The stock pile ran out: 44 discards were turned over to rebuild it.\nAnn drew from the stock pile.\n"
             "You drew AS (ace of Spades).\n",  # R5.2: the oldest discard is drawn first
             "The stock pile ran out: 44 discards were turned over to rebuild it.",
             "Your choice (1-2): 1\nRound 1 is blocked (nobody can go out): every player counts their hand.\n\n"
             "Round 1 is over: it was blocked.\n  Ann: 83 points this round, 83 in total\n"
             "  Bob: 88 points this round, 88 in total\nRound 2 dealt; Bob starts.\n",
             "Round 2 is over: it was blocked.", "Round 3 is over: it was blocked.",
             "  Ann: 251 points - wins\n  Bob: 262 points - loses\n")
    assert out.count("Round 1 of 3 - Ann's turn\nDiscard pile: ") == 2 * 67 - 1  # Menu D and E, but not E at the end
    assert scores_text(folder) == HEADER + '"Ann","1","0","251"\n"Bob","0","1",""\n'


def test_three_humans(folder):
    played = play(["Ann", "Bob", "Cy"], deck("three_players"))
    answers = played.answers("5", ["1", "Ann", "1", "Bob", "1", "Cy"], "three_players.deck")
    out = ok(run_program(folder, answers))
    check_replayed(out, played)
    check_only_own_hand_shown(out)
    in_order(out, "Round 1 dealt; Ann starts.", "Discard pile: 5C    Stock pile: 34 cards",
             "Round 2 dealt; Bob starts.", "Round 3 dealt; Cy starts.",  # R4.3
             "  Ann: 30 points - wins\n  Bob: 31 points - loses\n  Cy: 52 points - loses\n")
    assert scores_text(folder) == HEADER + '"Ann","1","0","30"\n"Bob","0","1",""\n"Cy","0","1",""\n'


def test_three_players_human_and_two_ai(folder):
    played = play(["Ann", "AI", "AI"], deck("three_players"))
    out = ok(run_program(folder, played.answers("5", ["1", "Ann", "1", "AI", "1", "AI"], "three_players.deck")))
    check_replayed(out, played)
    # Two AI seats, shown as AI 2 and AI 3 in the table listing (R3.4, R9.3) ...
    in_order(out, "Round 1 of 3 - Ann's turn\nDiscard pile: 5C    Stock pile: 34 cards\n"
                  "  Ann (you): 10 cards in hand, 0 points; sets: none\n"
                  "  AI 2: 10 cards in hand, 0 points; sets: none\n"
                  "  AI 3: 10 cards in hand, 0 points; sets: none\n")
    # ... and one AI row that counts both seats' results (R3.4, R7.4).
    rows = expected_rows(played)
    assert [row[0] for row in rows] == ["AI", "Ann"] and rows[0][1] + rows[0][2] == 2
    assert scores_text(folder) == scores_csv(rows)


@pytest.mark.parametrize("old_best, new_best", [(35, 30), (5, 5)])
def test_returning_players_rows_are_updated(folder, old_best, new_best):
    (folder / "scores.csv").write_text(
        HEADER + f'"Zed","1","1","9"\n"Ann","2","3","{old_best}"\n"bob","0","2",""\n', encoding="utf-8")
    played = play(["Ann", "bob", "Cy"], deck("three_players"))  # humans only: Ann wins with 30
    assert [player.score for player in played.game.players] == [30, 31, 52]
    # Menu C: 1 Ann, 2 bob, 3 Zed; then, Ann seated: 1 bob, 2 Zed; the third seat is new.
    seats = ["2", "1", "2", "1", "1", "Cy"]
    out = ok(run_program(folder, played.answers("5", seats, "three_players.deck", after=["1", "6"])))
    in_order(out, "Menu C: Choose Previous Player\n1. Ann\n2. bob\n3. Zed\n",
             "Menu C: Choose Previous Player\n1. bob\n2. Zed\n")
    check_replayed(out, played)
    # Best score is the lowest winning score (R7.4); other rows are kept as they were.
    rows = [("Ann", 3, 3, new_best), ("bob", 0, 3, None), ("Cy", 0, 1, None), ("Zed", 1, 1, 9)]
    assert scores_text(folder) == scores_csv(rows)
    check_table_shows(out, rows)


def test_scores_are_saved_when_a_game_ends_not_when_the_program_ends(folder):
    """The table is written the moment the game ends (R7.4); a second, unfinished game changes
    nothing; the second game's Menu C already lists the new names."""
    answers = QUICK_OUT_ANSWERS[:-2] + ["4", "quick_out.deck", "2", "2", "2", "1", "1"]
    out = ok(run_program(folder, answers))
    in_order(out, "Scores saved to scores.csv.", "Menu C: Choose Previous Player\n1. AI\n2. Doris\n",
             "Round 1 dealt; Doris starts.")
    assert scores_text(folder) == HEADER + '"AI","0","1",""\n"Doris","1","0","0"\n'


def test_same_answers_give_the_same_output_and_scores(tmp_path):
    played = play(["Ann", "AI"], deck("run_or_meld"))
    answers = played.answers("4", ["1", "Ann", "1", "AI"], "run_or_meld.deck")
    results = []
    for name in ("first", "second"):
        folder = tmp_path / name / "play"
        folder.mkdir(parents=True)
        shutil.copy(DECKS / "run_or_meld.deck", folder)
        results.append((ok(run_program(folder, answers)), scores_text(folder)))
    assert results[0] == results[1]
    assert results[0][1] == scores_csv(expected_rows(played))


# -- a broken scores.csv --------------------------------------------------------------------------


BROKEN = [
    ("name;won;lost\nDoris;3;1\n", "line 1: the first row must be the header"),
    (HEADER + '"Doris","3","1"\n', "line 2: expected 4 fields"),
    (HEADER + '"Doris","three","1","42"\n', "line 2: 'three' is not a whole number of games won"),
    (HEADER + '"Doris","1","0","4"\n"DORIS","0","1",""\n', "line 3: the name 'DORIS' appears twice"),
    ("", "the file is empty"),
]


@pytest.mark.parametrize("content, reason", BROKEN)
def test_a_broken_scores_file_is_reported_and_left_alone_without_a_game(folder, content, reason):
    (folder / "scores.csv").write_text(content, encoding="utf-8")
    out = ok(run_program(folder, ["1", "6"]))
    in_order(out, f"scores.csv cannot be read ({reason}", ").\nIt is kept as it is and will be renamed to "
             "scores.csv.broken before new scores are saved.\n", MENU_A)
    assert (folder / "scores.csv").read_text(encoding="utf-8") == content
    assert not (folder / "scores.csv.broken").exists()


def test_a_broken_scores_file_is_kept_as_scores_csv_broken_when_a_game_ends(folder):
    content = b'"name","won"\r\n\xff\xfe not even text'
    (folder / "scores.csv").write_bytes(content)
    out = ok(run_program(folder, QUICK_OUT_ANSWERS))
    in_order(out, "scores.csv cannot be read (the file is not UTF-8 text).",
             "Scores saved to scores.csv.", "Doris    1     0     0\n")
    assert "The unreadable scores.csv was kept as scores.csv.broken.\n" in out
    assert (folder / "scores.csv.broken").read_bytes() == content
    assert scores_text(folder) == HEADER + '"AI","0","1",""\n"Doris","1","0","0"\n'


def test_an_older_broken_copy_is_not_overwritten(folder):
    (folder / "scores.csv").write_text("broken again\n", encoding="utf-8")
    (folder / "scores.csv.broken").write_text("broken first\n", encoding="utf-8")
    out = ok(run_program(folder, QUICK_OUT_ANSWERS))
    assert "The unreadable scores.csv was kept as scores.csv.broken.1.\n" in out
    assert (folder / "scores.csv.broken").read_text(encoding="utf-8") == "broken first\n"
    assert (folder / "scores.csv.broken.1").read_text(encoding="utf-8") == "broken again\n"
    assert scores_text(folder) == HEADER + '"AI","0","1",""\n"Doris","1","0","0"\n'


def test_a_scores_csv_that_is_a_folder_is_reported_and_kept(folder):
    (folder / "scores.csv").mkdir()
    out = ok(run_program(folder, QUICK_OUT_ANSWERS))
    in_order(out, "scores.csv cannot be read (Is a directory).",
             "The unreadable scores.csv was kept as scores.csv.broken.",
             "Scores saved to scores.csv.")
    assert (folder / "scores.csv.broken").is_dir()
    assert scores_text(folder) == HEADER + '"AI","0","1",""\n"Doris","1","0","0"\n'


def test_scores_that_cannot_be_saved_are_reported_not_a_crash(folder, monkeypatch):
    from app.games.mason import __main__ as terminal  # the program behind python -m app.terminal

    def read_only(path, data, **_options):
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(terminal, "write_atomically", read_only)
    code, out = run_here(folder, QUICK_OUT_ANSWERS)
    assert code == 0
    in_order(out, "Game over. Final scores:", "The scores could not be saved to scores.csv: Read-only file system.\n",
             MENU_A, "Doris    1     0     0\n", "Goodbye!")  # the table in memory is still up to date
    assert scores_text(folder) is None


# -- nothing crashes on any input (R9.1) ----------------------------------------------------------


def test_bytes_that_are_not_text_do_not_crash_the_program(folder):
    result = run_program(folder, b"\xff\xfe\n4\nquick\xe9.deck\nno\n1\n\xc3\n6\n", env={"PYTHONIOENCODING": "utf-8"})
    out = ok(result)
    assert out.count(NOT_A_CHOICE.format(6)) == 2
    assert "there is no deck file named 'quick\ufffd.deck'" in out
    assert out.endswith("Goodbye!\n")


def test_huge_numbers_and_long_answers_do_not_crash_the_program(folder):
    huge = "9" * 5000  # int() refuses over 4300 digits: it must never see such an answer
    answers = [huge, "4", "x" * 100_000, "quick_out.deck", "1", "N" * 5000, "Doris", huge, "1", "AI",
               huge, "1", huge, "1", huge, "1," * 3000, "0" * 4999 + "1", "1", "1,2,3,4"]
    out = ok(run_program(folder, answers))
    in_order(out, NOT_A_CHOICE.format(6), "That deck cannot be used: 'xxxxxxxxxx",
             "A name can have at most 24 characters.",
             NOT_A_CHOICE.format(2), NOT_A_CHOICE.format(2), NOT_A_CHOICE.format(2),
             "There is no card 9999999999...", "Card 1 was selected twice.",
             "Not allowed: 2C: one card is too few",  # 000...01 is card 1
             "Doris laid down a run: 2C 3C 4C 5C.")


def test_answers_at_random_never_crash_the_program(folder):
    vocabulary = ["1", "2", "3", "4", "5", "6", "0", "7", "", " ", "x", "AI", "ai", "Ann", "Bob", "no",
                  "quick_out.deck", "three_players.deck", "run_or_meld.deck", "too_few.deck",
                  "1,2,3", "(1,2,3)", "1,4,5", "3,", "(2,)", "1,1", "99", "1.5", "-1", "\x00", "\u00e9\u00e9"]
    weights = [30, 30, 10, 8, 8, 1] + [2] * (len(vocabulary) - 6)
    for seed in range(25):
        rng = random.Random(seed)
        answers = rng.choices(vocabulary, weights, k=400)
        code, out = run_here(folder, answers, seed=seed)
        assert code == 0
        assert out.startswith("Welcome to Mason Rummy!\n")


# -- tests/decks/README.md: the answers it gives do what it says ------------------------------------------


README_SHOWS = {
    "quick_out": ["Doris laid down a run: 9P TP JP QP.\nDoris went out and ends round 1."],
    "queen_king_ace": ["Not allowed: 2H KH AH is neither", "Not allowed: 2H 3H AH is neither",
                       "Ann laid down a run: QH KH AH.", "Not allowed: 2H: one card",
                       "Ann laid JH onto their run JH QH KH AH."],
    "run_or_meld": ["Ann laid down a meld: 8C 8D 8H.", "Ann laid 8S onto their run 5S 6S 7S 8S."],
    "stock_rebuild": ["The stock pile ran out: 44 discards were turned over to rebuild it.", "Round 1 is over"],
    "three_players": ["Discard pile: 5C    Stock pile: 34 cards", "Ann laid down a run: 2C 3C 4C."],
    "ai_showcase": ["AI 1 took 7D from the discard pile.", "AI 1 laid down a run: 3D 4D 5D 6D 7D.",
                    "AI 1 laid down a meld: KC KH KS.", "AI 1 laid KP onto their meld KC KH KS KP.",
                    "AI 1 laid 8D onto their run 3D 4D 5D 6D 7D 8D.", "AI 1 went out and ends round 1.",
                    "Round 1 is over: AI 1 went out.\n  AI 1: 0 points this round, 0 in total\n  AI 2: "],
}


@pytest.mark.parametrize("name", sorted(README_SHOWS))
def test_readme_answers_show_what_the_readme_says(folder, name):
    line = next(line for line in (DECKS / "README.md").read_text(encoding="utf-8").splitlines()
                if line.startswith(f"- `{name}.deck`"))
    # The answers are the backquoted words after the colon, leaving out remarks in parentheses.
    answers = re.findall(r"`([^`]*)`", re.sub(r"\([^)]*\)", "", line[re.search(r": `[45]`", line).start():]))
    assert answers[:2] in (["4", f"{name}.deck"], ["5", f"{name}.deck"])
    code, out = run_here(folder, answers)
    assert code == 0
    for refusal in ("Please answer", "is not a card number", "cannot be used", "already taken", "Select cards by"):
        assert refusal not in out
    in_order(out, *README_SHOWS[name])
