"""C8: the terminal game, replayed from files of answers on the stacked decks of tests/decks/rummy/.
Most sessions run ``main`` in process; a few run the real program in a subprocess."""

from __future__ import annotations

import re

import pytest
from rummy_test_helpers import DECKS, RESULT_LINE, deck_codes, result_lines, run_program, run_terminal, setup

QUICK = str(DECKS / "quick_rummy.deck")
LAY_OFF = str(DECKS / "lay_off.deck")
ACE = str(DECKS / "queen_king_ace.deck")

# Ann (seat 1) draws 2D from the stock and melds everything: a rummy (quick_rummy.deck).
RUMMY_TURN = ["1", "1", "1,2,3,4", "1", "2,3,4", "1", "2,3,4", "3", "1"]


def lines_of(screen: str) -> list[str]:
    return screen.splitlines()


def assert_result_lines_stand_alone(screen: str) -> None:
    """C8.4: the result lines start lines of their own, never after a prompt, and no other line
    has their shapes."""
    for line in lines_of(screen):
        if re.search(r"Hand \d+:|Winner: |: \d+ points, total \d+", line):
            assert RESULT_LINE.match(line), f"a result line shares its line: {line!r}"


def test_c8_4_a_rummy_ends_the_game_subprocess(tmp_path):
    done = run_program(["--deck", QUICK], setup("Ann", "AI") + RUMMY_TURN, tmp_path)
    assert done.returncode == 0, done.stderr
    assert result_lines(done.stdout) == ["Hand 1:", "Ann: 180 points, total 180", "AI: 0 points, total 0",
                                         "Winner: Ann"]
    assert_result_lines_stand_alone(done.stdout)
    assert "Ann went out in one turn: rummy! Ann scores 180 points, doubled." in lines_of(done.stdout)


def test_c8_1_no_rummy_bonus_and_the_same_deck_every_hand():
    status, screen, _ = run_terminal(["--deck", QUICK, "--no-rummy-bonus"], setup("Ann", "AI") + RUMMY_TURN * 2)
    assert status == 0
    assert result_lines(screen) == [
        "Hand 1:", "Ann: 90 points, total 90", "AI: 0 points, total 0",
        # hand 2: the same deck dealt from seat 2, so the computer gets the quick hand and goes out
        "Hand 2:", "Ann: 0 points, total 90", "AI: 90 points, total 90",
        "Hand 3:", "Ann: 90 points, total 180", "AI: 0 points, total 90",
        "Winner: Ann"]
    assert "AI melded a run: AC 2C 3C 4C (meld 1)." in lines_of(screen)  # a computer turn is shown
    assert_result_lines_stand_alone(screen)


def test_c8_1_target_option():
    status, screen, _ = run_terminal(["--deck", QUICK, "--no-rummy-bonus", "--target", "50"],
                                     setup("Ann", "AI") + RUMMY_TURN)
    assert status == 0
    assert result_lines(screen) == ["Hand 1:", "Ann: 90 points, total 90", "AI: 0 points, total 0", "Winner: Ann"]
    assert screen.startswith("Classic Rummy to 50 points, no rummy bonus, stacked deck")


@pytest.mark.parametrize("target", ["49", "501", "many"])
def test_c8_1_target_out_of_range_is_refused(target, capsys):
    with pytest.raises(SystemExit) as stop:
        run_terminal(["--target", target], [])
    assert stop.value.code == 2
    assert "--target" in capsys.readouterr().err


def test_c8_2_set_up_questions_ask_again():
    """C8.2: a number of players outside 2-6 and a refused name (empty, too long, already at the
    table in any case) ask again, the same seat; `ai` makes a computer player."""
    answers = ["7", "x", "", "1", "2", "", " " * 3, "N" * 25, "Ann", "ann", "ANN ", "ai"]
    status, screen, _ = run_terminal(["--deck", QUICK], answers)
    assert status == 0
    shown = lines_of(screen)
    assert shown.count("Please answer with a number from 2 to 6.") == 4
    assert shown.count("A name cannot be empty.") == 2
    assert "A name can have at most 24 characters." in shown
    assert shown.count("The name ann is already taken.") == 1
    assert "The name ANN is already taken." in shown
    assert sum(1 for line in shown if line.startswith("Name of player 2:")) == 3  # the same seat asked again
    assert "Hand 1 dealt: Ann plays first; 7H is turned up on the discard pile." in shown
    assert "  AI: 10 cards in hand, score 0" in shown  # "ai" is a computer player


def test_c8_2_several_computer_players_finish_a_game_alone_subprocess(tmp_path):
    """C8.2: `AI` in any case may repeat; the computer players then play the game alone."""
    done = run_program(["--seed", "7"], ["3", "AI", "ai", "Ai"], tmp_path)
    assert done.returncode == 0
    results = result_lines(done.stdout)
    assert results[-1].startswith("Winner: AI ")
    totals = {}
    for line in results:
        match = re.match(r"(.+): (\d+) points, total (\d+)$", line)
        if match:
            name, points, total = match.group(1), int(match.group(2)), int(match.group(3))
            assert total == totals.get(name, 0) + points
            totals[name] = total
    assert set(totals) == {"AI 1", "AI 2", "AI 3"}
    assert results[-1] == f"Winner: {max(totals, key=totals.get)}"
    assert max(totals.values()) >= 100
    assert_result_lines_stand_alone(done.stdout)


def test_c8_2_the_questions_and_the_name_rules():
    """C8.2: `How many players (2-6)?` (6 is accepted), then `Name of player N:` for each seat in
    turn; a name is trimmed and may have 24 characters but only printable ones (a refused name
    asks the same seat again); `AI`, `Ai`, `aI` all sit as computer players."""
    longest = "N" * 24
    answers = ["6", f"  {longest}  ", "A\tB", "Bea", "AI", "Ai", "aI", "Cy"]
    status, screen, _ = run_terminal(["--deck", QUICK], answers)
    assert status == 0
    shown = lines_of(screen)
    assert shown[1] == "How many players (2-6)? 6"
    asked = [line.split(":")[0] for line in shown if line.startswith("Name of player")]
    assert asked == [f"Name of player {n}" for n in (1, 2, 2, 3, 4, 5, 6)]
    assert shown[shown.index("Name of player 2: A\tB") + 1] == "A name can only hold printable characters."
    start = shown.index("Players:")
    seated = [f"{longest} (you)", "Bea", "AI 3", "AI 4", "AI 5", "Cy"]  # the AI seats told apart by seat
    assert shown[start + 1:start + 7] == [f"  {label}: 6 cards in hand, score 0" for label in seated]


@pytest.mark.parametrize("content, message", [
    (None, "That deck cannot be used: there is no deck file named 'missing.deck'."),
    ("AC 2C", "That deck cannot be used: the deck holds 2 card codes; it needs exactly 52"),
    ("1C " * 52, "That deck cannot be used: code 1 of the deck, '1C', is not a card"),
])
def test_c8_2_an_invalid_deck_stops_before_any_question(tmp_path, content, message):
    """C8.2: an invalid --deck file says what is wrong and exits with status 1 before any
    question."""
    path = tmp_path / "missing.deck"
    if content is not None:
        path.write_text(content)
    status, screen, errors = run_terminal(["--deck", str(path)], ["2", "Ann", "AI"])
    assert status == 1
    assert errors.startswith(message)
    assert "How many players" not in screen


def test_c8_2_an_invalid_deck_subprocess(tmp_path):
    """C8.2: the same from the real program."""
    (tmp_path / "short.deck").write_text("AC 2C 3C\n")
    done = run_program(["--deck", "short.deck"], ["2"], tmp_path)
    assert done.returncode == 1
    assert "the deck holds 3 card codes; it needs exactly 52" in done.stderr
    assert "How many players" not in done.stdout


@pytest.mark.parametrize("cut", [0, 1, 3, 5, 8])
def test_c8_end_of_input_exits_with_status_0(cut):
    status, screen, _ = run_terminal(["--deck", QUICK], (setup("Ann", "AI") + RUMMY_TURN)[:cut])
    assert status == 0
    assert not result_lines(screen)


def test_c8_3_the_human_turn_display():
    status, screen, _ = run_terminal(["--deck", LAY_OFF], setup("Ann", "AI") + ["1", "1", "8,9,10"])
    shown = lines_of(screen)
    assert status == 0
    assert "Discard pile: KS    Stock pile: 31 cards" in shown
    assert "Melds on the table: none" in shown
    assert "  Ann (you): 10 cards in hand, score 0" in shown and "  AI: 10 cards in hand, score 0" in shown
    assert "Your hand: 1) 2C  2) 8C  3) 4D  4) 8D  5) 8H  6) QH  7) 5S  8) 6S  9) 7S  10) 8S" in shown
    assert "You drew 9C (nine of Clubs)." in shown
    # after the draw the drawn card takes its sorted place
    assert "Your hand: 1) 2C  2) 8C  3) 9C  4) 4D  5) 8D  6) 8H  7) QH  8) 5S  9) 6S  10) 7S  11) 8S" in shown
    assert "Ann melded a run: 5S 6S 7S (meld 1)." in shown
    start = shown.index("Melds on the table:")
    assert shown[start:start + 5] == ["Melds on the table:", "  1. 5S 6S 7S  (Ann's run)", "Players:",
                                      "  Ann (you): 8 cards in hand, score 0", "  AI: 10 cards in hand, score 0"]
    for menu in (["Draw menu", "1. Draw from stock pile", "2. Draw from discard pile"],
                 ["Play menu", "1. Meld", "2. Lay off", "3. Discard"]):
        start = shown.index(menu[0])
        assert shown[start:start + len(menu)] == menu


LAY_OFF_SESSION = setup("Ann", "AI") + [
    "1",  # draw 9C
    "2",  # lay off: no meld on the table yet
    "1", "8,9,10",  # meld 5S 6S 7S (meld 1)
    "1", "2,5,6",  # meld 8C 8D 8H (meld 2)
    "2", "6", "5", "3", "2",  # lay off: card 6 (no such card), card 5 = 8S; meld 3 (none), meld 2: the set
    "3", "1",  # discard 2C
    # the computer melds 9H TH JH (meld 3)
    "1",  # draw 2H: 9C 4D 2H QH
    "2", "4", "3",  # lay off QH on the computer's run
    "2", "1", "1",  # lay off 9C on meld 1: refused
    "1", "1,2",  # a meld of two cards: refused
    "1", "1,1", "1,2,3",  # a repeated number asks again; then 9C 4D 2H: refused
]


def test_c8_3_lay_offs_the_players_choice_and_another_players_meld():
    status, screen, _ = run_terminal(["--deck", LAY_OFF], LAY_OFF_SESSION)
    shown = lines_of(screen)
    assert status == 0
    assert "There is no meld on the table to lay off on." in shown
    assert "Please answer with a number from 1 to 5." in shown  # card 6 of 5
    assert "Please answer with a number from 1 to 2." in shown  # meld 3 of 2
    # 8S fits both melds: the player's choice, meld 2, is honoured
    assert "Ann laid off 8S on meld 2, their own set: 8C 8D 8H 8S." in shown
    assert "AI melded a run: 9H TH JH (meld 3)." in shown
    assert "Ann laid off QH on meld 3, AI's run: 9H TH JH QH." in shown
    assert ("Not allowed: 9C does not fit meld 1 (5S 6S 7S, Ann's run): a run grows only at its ends, with the "
            "next card of its suit: 4S or 8S.") in shown
    assert any(line.startswith("Not allowed: 9C 4D: 2 cards cannot make a meld") for line in shown)
    assert "Card 1 was selected twice." in shown
    assert any(line.startswith("Not allowed: 9C 4D 2H is neither a set") for line in shown)
    # the play menu comes back after every meld or lay-off, successful or not
    assert shown.count("Play menu") == 10  # 5 in the first turn; 5 in the second, the last unanswered


def test_c8_3_queen_king_ace_is_refused_with_the_reason():
    answers = setup("Ann", "AI") + ["1", "1", "9,10,6", "1", "10,6,7", "1", "6,7,8", "2", "7", "1", "3", "1"]
    status, screen, _ = run_terminal(["--deck", ACE], answers)
    shown = lines_of(screen)
    assert status == 0
    reason = "is not a run: the ace is low only, so A 2 3 is a run but Q K A and K A 2 are not."
    assert f"Not allowed: AH QH KH {reason}" in shown
    assert f"Not allowed: AH 2H KH {reason}" in shown
    assert "Ann melded a run: AH 2H 3H (meld 1)." in shown
    assert ("Not allowed: KH does not fit meld 1 (AH 2H 3H, Ann's run): a run grows only at its ends, with the "
            "next card of its suit: 4H (the ace is low only: nothing goes below it).") in shown
    assert "Ann discarded 4C." in shown


def test_c8_3_the_c3_3_refusals():
    answers = setup("Ann", "AI") + ["2", "1", "1,2,3,4", "1", "1,2,4", "1", "2,3,4", "3", "1", "2"]
    status, screen, _ = run_terminal(["--deck", QUICK], answers)
    shown = lines_of(screen)
    assert status == 0
    assert "Ann took 7H from the discard pile." in shown
    assert ("Not allowed: Playing 9S TS JS would leave 7H, the card you took from the discard pile this turn, as "
            "your only card, and you may not discard it this turn.") in shown
    assert ("Not allowed: You took 7H from the discard pile this turn: you may not discard it this turn."
            in shown)
    start = shown.index("Not allowed: You took 7H from the discard pile this turn: you may not discard it this "
                        "turn.")
    assert shown[start + 1].startswith("Card to discard (1-4): ")  # the card is asked again
    assert "Ann discarded 9S." in shown


def test_c8_4_one_point_is_written_1_points(tmp_path):
    """C8.4: `NAME: P points, total T`, "`1 points` too: the words never change". Bob melds all
    but an ace; Ann goes out (no rummy bonus) and scores that ace's 1 point."""
    deck = tmp_path / "one_point.deck"
    deck.write_text(" ".join(deck_codes(["AC 2C 3C 4C 5D 5H 5S 9S TS JS", "KC KH KS 6D 7D 8D 8C 8H 8S AS"], "7H",
                                        "2D KD 6C")) + "\n", encoding="utf-8")
    ann_draws_2d_and_discards_it = ["1", "3", "5"]
    bob_melds_all_but_the_ace = ["1", "1", "3,4,5", "1", "1,4,7", "1", "1,3,5", "3", "1"]
    ann_goes_out = ["1", "1", "1,2,3,4", "1", "2,3,4", "1", "2,3,4", "3", "1"]
    answers = setup("Ann", "Bob") + ann_draws_2d_and_discards_it + bob_melds_all_but_the_ace + ann_goes_out
    status, screen, _ = run_terminal(["--deck", str(deck), "--no-rummy-bonus"], answers)
    assert status == 0
    assert result_lines(screen) == ["Hand 1:", "Ann: 1 points, total 1", "Bob: 0 points, total 0"]
    assert_result_lines_stand_alone(screen)


def test_c8_4_a_void_hand():
    """Two people who never meld: the 64th draw from the stock finds it empty for the second
    time (C4.2)."""
    answers = setup("Ann", "Bob") + ["1", "3", "1"] * 63 + ["1"]
    status, screen, _ = run_terminal(["--deck", QUICK], answers)
    assert status == 0
    assert result_lines(screen) == ["Hand 1: no score"]
    assert "The stock pile is empty: the discard pile (32 cards) is turned over to make a new stock." \
        in lines_of(screen)
    assert "Hand 2 dealt: Bob plays first; 7H is turned up on the discard pile." in lines_of(screen)
    assert_result_lines_stand_alone(screen)


def test_c8_4_void_hands_of_computer_players_on_a_stacked_deck():
    status, screen, _ = run_terminal(["--deck", str(DECKS / "void_hand.deck")], ["6"] + ["AI"] * 6)
    assert status == 0
    assert result_lines(screen) == [f"Hand {n}: no score" for n in range(1, 7)]
    assert lines_of(screen)[-1] == "The game ends with no winner."
    assert_result_lines_stand_alone(screen)
