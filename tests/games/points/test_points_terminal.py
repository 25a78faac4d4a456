"""The terminal game, ``python -m app.games.points``, fed files of answers: in process through
``main(argv, stdin, stdout)`` and, a few times, as a real program."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from app.games.points.__main__ import main

ROOT = Path(__file__).resolve().parents[3]
DECKS = ROOT / "tests" / "decks" / "points"
DECLARE_DECK = str(DECKS / "declare_after_one_draw.deck")
JOKER_DECK = str(DECKS / "joker_first_open.deck")
THREE_DECK = str(DECKS / "three_players_two_decks.deck")
WINNING_ANSWERS = "1\n2\n12\n8,9,10,11 4,6,7 1,2,13 3,5,14\n"


def run(argv, answers: str) -> tuple[int, list[str]]:
    out = io.StringIO()
    status = main(argv, io.StringIO(answers), out)
    return status, out.getvalue().splitlines()


def test_p5_2_a_declaration_replayed_from_a_file_of_answers():
    status, lines = run(["--deck", DECLARE_DECK], WINNING_ANSWERS)
    assert status == 0
    assert lines[:13] == [
        "Points Rummy: Player, AI; 1 deal.",
        "Deal 1 of 1: Player plays first. The wild joker indicator 9S* makes the nines jokers this deal, besides "
        "the printed jokers.",
        "The open pile starts with 6S.",
        "",
        "Deal 1 of 1. Nines are jokers this deal, and the printed jokers (indicator 9S*).",
        "Open pile: 6S. Closed deck: 25 cards. Player 13 cards, AI 13 cards.",
        "Player's hand: 1:5C  2:6C  3:7C  4:AD  5:7D  6:QD  7:KD  8:AH  9:2H  10:3H  11:8H  12:9H*  13:7S",
        "Your hand counts 8 now.",
        "Player, your turn: 1. Draw from the closed deck  2. Take 6S from the open pile  3. Drop (20 points)",
        "Your choice (1-3): 1",
        "Player draws from the closed deck.",
        "You drew 4H.",
        "Player's hand: 1:5C  2:6C  3:7C  4:AD  5:7D  6:QD  7:KD  8:AH  9:2H  10:3H  11:4H  12:8H  13:9H*  14:7S",
    ]
    assert lines[16:21] == [
        "Finish card (1-14): 12",
        "Groups of the other cards, as numbers (such as 1,2,3 4,5,6,7 8,9,10 11,12,13): 8,9,10,11 4,6,7 1,2,13 3,5,14",
        "Player declares with 8H as the finish card: a valid declaration.",
        "Deal 1: Player wins the deal and collects 80 points.",
        "The game is over: Player wins with a net total of 80.",
    ]
    assert "  Player: 0 points (declared, finish card 8H), deal +80, total 80" in lines
    assert "    pure sequence: AD QD KD" not in lines and "    pure sequence: QD KD AD" in lines
    assert "    impure sequence: 5C 6C 9H*" in lines and "    set: 7C 7D 7S" in lines
    assert lines[-1] == "Final totals: Player +80, AI -80. Player wins."


def test_p4_1_refusals_give_the_rules_reason_and_ask_again():
    answers = "2\n1\n6\n2\n1\n1\n1\n"  # Ann takes JK (the first open card), discards 5D; Bob may not take it
    status, lines = run(["--deck", JOKER_DECK, "--names", "Ann,Bob"], answers)
    assert status == 0
    assert "Ann takes JK* from the open pile." in lines
    assert "Ann discards 5D*." in lines
    refusal = lines.index("Refused: 5D is a joker: a joker on the open pile may not be taken (only the open pile's "
                          "first card of the deal may be).")
    assert lines[refusal - 1] == "Your choice (1-3): 2"
    assert lines[refusal + 1] == "Your choice (1-3): 1"
    assert lines[-1] == "Goodbye."


def test_p4_2_a_card_taken_from_the_open_pile_is_refused_as_the_discard():
    status, lines = run(["--deck", DECLARE_DECK], "2\n1\n13\n1\n11\n")
    assert status == 0
    assert "Refused: 6S was taken from the open pile this turn: it may not be discarded this turn." in lines
    assert "Player discards 8H." in lines


def test_p4_3_a_drop_ends_a_two_player_deal():
    status, lines = run(["--deck", DECLARE_DECK], "3\n")
    assert status == 0
    assert "Player drops (first drop, 20 points) and leaves the deal." in lines
    assert "  Player: 20 points (first drop), deal -20, total -20" in lines
    assert lines[-1] == "Final totals: Player -20, AI +20. AI wins."


def test_p5_3_a_wrong_declaration_with_three_players_and_play_goes_on():
    answers = "1\n2\n4\n5,6,8,9,10 12,13,14 1,3,11 2,7\n"
    status, lines = run(["--deck", THREE_DECK, "--names", "Ann,AI,AI"], answers)
    assert status == 0
    assert ("Ann's hand: 1:2C  2:2C  3:2D  4:5D  5:6H  6:7H  7:7H  8:8H  9:9H*  10:TH  11:2S  12:JS  13:QS  14:KS"
            in lines)
    wrong = lines.index("Ann declares wrongly (80 points) and leaves the deal.")
    assert lines[wrong + 1].startswith("AI 2 ")  # play goes on with the next seat
    assert "  Ann: 80 points (wrong declaration), deal -80, total -80" in lines
    assert "    not a valid group: 2C 7H" in lines
    assert lines[-1].startswith("Final totals: Ann -80, ")


def test_p5_1_the_groups_must_hold_every_card_but_the_finish_card():
    answers = "1\n2\n12\n8,9,10,11 4,6,7 1,2,13\n2\n12\nx\n8,9,10,11 4,6,7 1,2,13 3,5,14\n"
    status, lines = run(["--deck", DECLARE_DECK], answers)
    assert status == 0
    assert "Refused: Put every card but the finish card in a group before declaring: 7C 7D 7S are in no group." in lines
    assert "'x' is not a card number: use numbers from 1 to 14, separated by commas." in lines
    assert "Player declares with 8H as the finish card: a valid declaration." in lines


def test_menus_refuse_answers_that_are_not_choices():
    status, lines = run(["--deck", DECLARE_DECK], "9\n\nabc\n1\n3\n")
    assert status == 0
    assert lines.count("Please answer with a number from 1 to 3.") == 3
    assert "Please answer with a number from 1 to 2." in lines


def test_end_of_input_exits_with_status_0():
    status, lines = run(["--deck", DECLARE_DECK], "")
    assert status == 0 and lines[-1] == "Goodbye."


def test_a_seeded_game_replays_exactly():
    answers = "1\n1\n1\n" * 12
    first = run(["--seed", "42", "--players", "3"], answers)
    second = run(["--seed", "42", "--players", "3"], answers)
    assert first == second and first[0] == 0
    assert first[1][0] == "Points Rummy: Player, AI 2, AI 3; 1 deal."


def test_p6_1_several_deals_and_the_table_deals_on():
    status, lines = run(["--deck", DECLARE_DECK, "--deals", "2"], "3\n\n")
    assert status == 0
    assert "Press Enter to deal deal 2 of 2. " in lines
    assert any(line.startswith("Deal 2 of 2: AI plays first.") for line in lines)  # P2.4: seat 2 starts deal 2


@pytest.mark.parametrize("argv, message", [
    (["--deck", "no-such.deck"], "Cannot start: there is no deck file named 'no-such.deck'"),
    (["--deck", THREE_DECK],
     "Cannot start: 2 players use one deck and a joker (53 cards): 7H appears twice, at codes 1 and 4"),
    (["--deck", DECLARE_DECK, "--players", "3"], "Cannot start: --players 3 but 2 names"),
    (["--players", "7"], "Cannot start: Points Rummy seats 2 to 6 players, not 7."),
    (["--players", "0"], "Cannot start: Points Rummy seats 2 to 6 players, not 0."),
    (["--players", "-3"], "Cannot start: Points Rummy seats 2 to 6 players, not -3."),
    (["--names", "Ann,ann"], "Cannot start: The name ann is already taken."),  # (as the web's set-up)
    (["--deals", "11", "--seed", "1"], "Cannot start: Number of deals: 11 is not between 1 and 10."),
])
def test_set_up_problems_are_explained(argv, message):
    if argv == ["--deck", DECLARE_DECK, "--players", "3"]:
        argv = ["--deck", DECLARE_DECK, "--players", "3", "--names", "Ann,AI"]
    status, lines = run(argv, "")
    assert status == 2
    assert lines[-1].startswith(message)


def program(tmp_path, argv, answers: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "app.games.points", *argv], input=answers, capture_output=True,
                          text=True, cwd=tmp_path, env=env, timeout=60)


def test_the_program_replays_a_declaration(tmp_path):
    shutil.copy(DECLARE_DECK, tmp_path / "deal.deck")
    done = program(tmp_path, ["--deck", "deal.deck"], WINNING_ANSWERS)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "Final totals: Player +80, AI -80. Player wins."
    assert done.stdout == io_transcript(["--deck", DECLARE_DECK], WINNING_ANSWERS)


def test_the_program_ends_quietly_at_the_end_of_input(tmp_path):
    done = program(tmp_path, ["--seed", "3"], "1\n")
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.splitlines()[-1] == "Goodbye."


def io_transcript(argv, answers: str) -> str:
    out = io.StringIO()
    main(argv, io.StringIO(answers), out)
    return out.getvalue()
