"""The terminal game (T6, T2.2, T2.3, T6.4, T6.5), fed files of answers; the screen is compared
line for line.

Most sessions run ``main`` in process (string streams, in a folder holding the deck files); a
few run the real program, ``python -m app.games.twentyone``, as a player would. Scripted answers
are echoed after their prompt (``app.core.terminal.Console``), so a transcript reads as the
session did. Where the original program and T6 leave a choice, these are the lines chosen:

- a blank line after the deck file is read, before ``Round 1``;
- after a round's last line a blank line, then ``Would you like to play another round (Y/N)? >> ``;
  ``Invalid Entry.`` ends with a space and the question follows on the same line;
- after the Y or N answer a blank line; the goodbye is preceded by a blank line (so N is
  followed by two); after an invalid deck, the message, a blank line, the goodbye;
- the end of input at the play-again prompt is N (the same lines, without the echoed N); at the
  file or hit-or-stay prompt it ends the prompt's line, then the blank line and the goodbye.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from twentyone_helpers import (
    AGAIN, BANNER, FILE_PROMPT, GOODBYE, HIT, LOWS, SAMPLE_DECKS, TENS, closing_after_no, deck_text, opening, planned,
    play_here, play_program, stacked,
)

from app.games.twentyone import DECK, DEFINITION

CODES = [card.code for card in DECK.cards]
INVALID = "Cannot populate deck: invalid data in {}"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    play = tmp_path / "play"
    play.mkdir()
    return play


def with_deck(folder: Path, cards, name: str = "deck.txt") -> Path:
    (folder / name).write_text(deck_text(cards))
    return folder


# -- whole sessions ---------------------------------------------------------------------------------------


def test_t6_1_t6_2_t3_3_a_natural_21_after_a_hit_and_the_goodbye(folder):
    """T6.1: banner, file prompt, ``Round 1``, the dealing line, the table (T4.2: the player's
    line, then the dealer's). T6.2: the prompt, ``h`` hits, the table again with the card hidden,
    then T3.3 ends the round."""
    with_deck(folder, stacked("9S", "5C", "7H", "KD", "5D"))
    status, screen = play_here(folder, ["deck.txt", "h", "n"])
    assert status == 0
    assert screen == opening("deck.txt") + [
        "Round 1",
        "Dealing cards to player and dealer...",
        "Player's hand:[ 9S ][ 7H ], value = 16",
        "Dealer's hand:[ 5C ][ xx ]",
        HIT + "h",
        "Player's hand:[ 9S ][ 7H ][ 5D ], value = 21",
        "Dealer's hand:[ 5C ][ xx ]",
        "Player wins round 1 with a natural 21!",
        "",
        AGAIN + "n",
    ] + closing_after_no()


def test_t6_2_t3_4_t5_2_staying_the_dealer_turns_over_and_takes_cards_one_by_one(folder):
    """T6.2: after a stay, the table with the hidden card turned over, T5.2 for each card, the
    result line."""
    with_deck(folder, stacked("TS", "6C", "8H", "9D", "AC", "KC"))
    status, screen = play_here(folder, ["deck.txt", "s", "N"])
    assert screen == opening("deck.txt") + [
        "Round 1",
        "Dealing cards to player and dealer...",
        "Player's hand:[ TS ][ 8H ], value = 18",
        "Dealer's hand:[ 6C ][ xx ]",
        HIT + "s",
        "Player's hand:[ TS ][ 8H ], value = 18",
        "Dealer's hand:[ 6C ][ 9D ], value = 15",
        "Dealer must take a card...",
        "Player's hand:[ TS ][ 8H ], value = 18",
        "Dealer's hand:[ 6C ][ 9D ][ AC ], value = 16",
        "Dealer must take a card...",
        "Player's hand:[ TS ][ 8H ], value = 18",
        "Dealer's hand:[ 6C ][ 9D ][ AC ][ KC ], value = 26",
        "Dealer went bust. Player wins round 1!",
        "",
        AGAIN + "N",
    ] + closing_after_no()


def test_t3_2_t5_1_going_bust_shows_the_table_with_the_card_still_hidden(folder):
    """T6.2: the table after every hit, the dealer's card still hidden, then T3.2 ends the round."""
    with_deck(folder, stacked("TS", "6C", "8H", "9D", "2C", "KC"))
    status, screen = play_here(folder, ["deck.txt", "H", "Hit", "n"])
    assert screen == opening("deck.txt") + [
        "Round 1",
        "Dealing cards to player and dealer...",
        "Player's hand:[ TS ][ 8H ], value = 18",
        "Dealer's hand:[ 6C ][ xx ]",
        HIT + "H",
        "Player's hand:[ TS ][ 8H ][ 2C ], value = 20",
        "Dealer's hand:[ 6C ][ xx ]",
        HIT + "Hit",
        "Player's hand:[ TS ][ 8H ][ 2C ][ KC ], value = 30",
        "Dealer's hand:[ 6C ][ xx ]",
        "Player went bust. Dealer won round 1!",
        "",
        AGAIN + "n",
    ] + closing_after_no()


@pytest.mark.parametrize("front, dealer_line, result", [
    (["TS", "5C", "9H", "6D", "KC"], ["Dealer's hand:[ 5C ][ 6D ], value = 11", "Dealer must take a card...",
                                      "Player's hand:[ TS ][ 9H ], value = 19",
                                      "Dealer's hand:[ 5C ][ 6D ][ KC ], value = 21"],
     "Dealer has a natural 21! Dealer wins round 1!"),
    (["TS", "TC", "9H", "7D"], ["Dealer's hand:[ TC ][ 7D ], value = 17"], "Player wins round 1!"),
    (["TS", "TC", "9H", "9D"], ["Dealer's hand:[ TC ][ 9D ], value = 19"], "Tie! No one wins round 1!"),
    (["TS", "TC", "9H", "QD"], ["Dealer's hand:[ TC ][ QD ], value = 20"], "Dealer wins round 1!"),
])
def test_t5_1_every_result_line_after_the_dealer_played(folder, front, dealer_line, result):
    with_deck(folder, stacked(*front))
    status, screen = play_here(folder, ["deck.txt", "s", "n"])
    player = f"Player's hand:[ {front[0]} ][ {front[2]} ], value = 19"
    assert screen[5:] == [
        "Round 1", "Dealing cards to player and dealer...", player, f"Dealer's hand:[ {front[1]} ][ xx ]",
        HIT + "s", player, *dealer_line, result, "", AGAIN + "n",
    ] + closing_after_no()


def test_t6_3_t3_7_invalid_entries_then_a_second_round_from_the_same_deck(folder):
    """T6.1 for a later round: ``Round 2``, the dealing line, then the table."""
    with_deck(folder, stacked("9S", "5C", "7H", "KD", "5D", "TS", "TC", "8H", "9D"))
    status, screen = play_here(folder, ["deck.txt", "h", "maybe", "", " y", "Yes", "stay", "No"])
    assert status == 0
    assert screen == opening("deck.txt") + [
        "Round 1",
        "Dealing cards to player and dealer...",
        "Player's hand:[ 9S ][ 7H ], value = 16",
        "Dealer's hand:[ 5C ][ xx ]",
        HIT + "h",
        "Player's hand:[ 9S ][ 7H ][ 5D ], value = 21",
        "Dealer's hand:[ 5C ][ xx ]",
        "Player wins round 1 with a natural 21!",
        "",
        AGAIN + "maybe",
        "Invalid Entry. " + AGAIN,
        "Invalid Entry. " + AGAIN + " y",
        "Invalid Entry. " + AGAIN + "Yes",
        "",
        "Round 2",
        "Dealing cards to player and dealer...",
        "Player's hand:[ TS ][ 8H ], value = 18",
        "Dealer's hand:[ TC ][ xx ]",
        HIT + "stay",
        "Player's hand:[ TS ][ 8H ], value = 18",
        "Dealer's hand:[ TC ][ 9D ], value = 19",
        "Dealer wins round 2!",
        "",
        AGAIN + "No",
    ] + closing_after_no()


@pytest.mark.parametrize("answer, hits", [
    ("h", True), ("H", True), ("hit me", True), ("Hello", True),
    ("s", False), ("S", False), ("", False), (" h", False), ("x", False), ("y", False), ("\u00e9", False),
])
def test_t6_2_the_first_character_decides_and_anything_but_h_stays(folder, answer, hits):
    """T6.2: the prompt's exact text; ``H``/``h`` first hits, any other answer (empty too) stays."""
    with_deck(folder, stacked("2C", "TC", "3C", "TD", "2D"))  # 5 against 20: a hit gives 2D
    status, screen = play_here(folder, ["deck.txt", answer])
    after = screen[10:]
    if hits:
        assert after == ["Player's hand:[ 2C ][ 3C ][ 2D ], value = 7", "Dealer's hand:[ TC ][ xx ]", HIT, "",
                         GOODBYE, ""]
    else:
        assert after == ["Player's hand:[ 2C ][ 3C ], value = 5", "Dealer's hand:[ TC ][ TD ], value = 20",
                         "Dealer wins round 1!", "", AGAIN, "", "", GOODBYE, ""]
    assert screen[9] == HIT + answer


# -- T6.5 the end of input ------------------------------------------------------------------------------------


def test_t6_5_end_of_input_at_the_file_prompt(folder):
    status, screen = play_here(folder, [])
    assert (status, screen) == (0, BANNER + [FILE_PROMPT, "", GOODBYE, ""])


def test_t6_5_end_of_input_at_the_hit_prompt_drops_the_round(folder):
    with_deck(folder, stacked("TS", "6C", "8H", "9D", "KC"))
    status, screen = play_here(folder, ["deck.txt"])
    assert status == 0
    assert screen == opening("deck.txt") + [
        "Round 1", "Dealing cards to player and dealer...", "Player's hand:[ TS ][ 8H ], value = 18",
        "Dealer's hand:[ 6C ][ xx ]", HIT, "", GOODBYE, ""]


def test_t6_5_end_of_input_at_the_hit_prompt_of_a_later_round(folder):
    with_deck(folder, stacked("9S", "5C", "7H", "KD", "5D"))
    status, screen = play_here(folder, ["deck.txt", "h", "y", "h"])
    assert status == 0
    assert "Round 2" in screen
    assert screen[-7:] == [HIT + "h", screen[-6], screen[-5], HIT, "", GOODBYE, ""]
    assert not any("round 2!" in line for line in screen)


def test_t6_5_end_of_input_at_the_play_again_prompt_is_n(folder):
    with_deck(folder, stacked("9S", "5C", "7H", "KD", "5D"))
    _, answered = play_here(folder, ["deck.txt", "h", "n"])
    status, ended = play_here(folder, ["deck.txt", "h"])
    assert status == 0
    assert ended == answered[:-5] + [AGAIN] + answered[-4:]
    _, after_invalid = play_here(folder, ["deck.txt", "h", "what"])
    assert after_invalid[-6:] == [AGAIN + "what", "Invalid Entry. " + AGAIN, "", "", GOODBYE, ""]


def test_t6_5_a_last_answer_without_a_line_end_still_counts(folder):
    with_deck(folder, stacked("9S", "5C", "7H", "KD", "5D"))
    _, screen = play_here(folder, "deck.txt\nh")
    assert "Player wins round 1 with a natural 21!" in screen


# -- T2.2 invalid decks, T2.3 files that cannot be opened -----------------------------------------------------


def invalid_decks() -> dict[str, bytes]:
    lines = [code + "\n" for code in CODES]
    return {
        "bad code": "".join(lines[:20] + ["ZZ\n"] + lines[21:]).encode(),
        "two codes on a line": "".join(lines[:10] + [CODES[10] + " " + CODES[11] + "\n"] + lines[12:]).encode(),
        "duplicate": "".join(lines[:51] + [lines[3]]).encode(),
        "51 cards": "".join(lines[:51]).encode(),
        "53 cards": "".join(lines + [lines[0]]).encode(),
        "empty file": b"",
        "blank lines only": b"\n  \n\t\n",
        "a ten written 10": "".join(lines[:9] + ["10C\n"] + lines[10:]).encode(),
        "joker": "".join(lines[:51] + ["JK\n"]).encode(),
        "not text": bytes(range(256)) * 3,
    }


@pytest.mark.parametrize("what", list(invalid_decks()))
def test_t2_2_an_invalid_deck_ends_the_game_with_the_message_then_the_goodbye(folder, what):
    (folder / "my deck.txt").write_bytes(invalid_decks()[what])
    status, screen = play_here(folder, ["my deck.txt", "h", "y"])
    assert status == 0
    assert screen == BANNER + [FILE_PROMPT + "my deck.txt", INVALID.format("my deck.txt"), "", GOODBYE, ""]


def test_t2_2_the_file_name_is_shown_as_typed(folder):
    (folder / "sub").mkdir()
    (folder / "sub" / "bad.txt").write_text("AS\n")
    status, screen = play_here(folder, ["./sub/../sub/bad.txt"])
    assert screen[4] == INVALID.format("./sub/../sub/bad.txt")


@pytest.mark.parametrize("name", ["lower.txt", "spaced.txt"])
def test_t2_1_lower_case_blank_lines_spaces_and_tabs_are_a_valid_deck(folder, name):
    codes = [card.code for card in stacked("9S", "5C", "7H", "KD", "5D")]
    if name == "lower.txt":
        text = "".join(code.lower() + "\n" for code in codes)
    else:
        text = "\n\n" + "".join(f"  {code}\t \n \t\n" for code in codes) + "   "
    (folder / name).write_text(text)
    _, screen = play_here(folder, [name, "h", "n"])
    assert screen[5:13] == ["Round 1", "Dealing cards to player and dealer...",
                            "Player's hand:[ 9S ][ 7H ], value = 16",
                            "Dealer's hand:[ 5C ][ xx ]", HIT + "h", "Player's hand:[ 9S ][ 7H ][ 5D ], value = 21",
                            "Dealer's hand:[ 5C ][ xx ]", "Player wins round 1 with a natural 21!"]


def test_t2_3_a_file_that_cannot_be_opened_is_asked_again(folder):
    with_deck(folder, stacked("9S", "5C", "7H", "KD", "5D"))
    (folder / "a folder").mkdir()
    status, screen = play_here(folder, ["missing.txt", "a folder", "", " deck.txt", "deck.txt", "h", "n"])
    assert status == 0
    assert screen[:13] == BANNER + [
        FILE_PROMPT + "missing.txt", "Cannot open missing.txt. Please try again.",
        FILE_PROMPT + "a folder", "Cannot open a folder. Please try again.",
        FILE_PROMPT, "Cannot open . Please try again.",
        FILE_PROMPT + " deck.txt", "Cannot open  deck.txt. Please try again.",  # the name as typed: no trimming
        FILE_PROMPT + "deck.txt", "",
    ]
    assert screen[13] == "Round 1"


def test_t2_3_a_name_no_file_can_have_is_asked_again(folder):
    status, screen = play_here(folder, ["bad\0name"])
    assert screen[3:6] == [FILE_PROMPT + "bad\0name", "Cannot open bad\0name. Please try again.", FILE_PROMPT]


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads any file")
def test_t2_3_an_unreadable_file_is_asked_again(folder):
    with_deck(folder, stacked(), "locked.txt").joinpath("locked.txt").chmod(0)
    _, screen = play_here(folder, ["locked.txt"])
    assert screen[4] == "Cannot open locked.txt. Please try again."


# -- T6.4 refills --------------------------------------------------------------------------------------------


def refill_at_dealer_deck():
    """Twelve rounds of four cards (the dealer stands on two cards), then 7C 7D 7H 7S: the deck
    is empty after the thirteenth deal."""
    rounds = [[LOWS[2 * i], TENS[2 * i], LOWS[2 * i + 1], TENS[2 * i + 1]] for i in range(8)]
    rounds += [[LOWS[16 + 2 * j], "9" + suit, LOWS[17 + 2 * j], "8" + suit] for j, suit in enumerate("CDHS")]
    rounds.append(["7C", "7D", "7H", "7S"])
    return planned(rounds)


def refill_at_deal_deck():
    """Thirteen rounds of four cards in which the dealer stands on two cards: the fourteenth deal
    starts on an empty deck."""
    dealers = [["T" + suit, "7" + suit] for suit in "CDHS"] + [["J" + suit, "8" + suit] for suit in "CDHS"]
    dealers += [["Q" + suit, "9" + suit] for suit in "CDHS"] + [["KC", "KD"]]
    players = LOWS + ["KH", "KS"]
    return planned([[players[2 * i], dealers[i][0], players[2 * i + 1], dealers[i][1]] for i in range(13)])


def twelve_rounds_staying() -> list[str]:
    return ["deck.txt"] + ["s", "y"] * 12


def after(screen: list[str], line: str) -> list[str]:
    return screen[screen.index(line):]


def test_t6_4_refill_when_the_dealer_must_take_a_card(folder):
    with_deck(folder, refill_at_dealer_deck())
    status, screen = play_here(folder, twelve_rounds_staying() + ["s", "n"], "--seed", "4")
    assert status == 0
    round_13 = after(screen, "Round 13")
    assert round_13[:12] == [
        "Round 13", "Dealing cards to player and dealer...", "Player's hand:[ 7C ][ 7H ], value = 14",
        "Dealer's hand:[ 7D ][ xx ]", HIT + "s", "Player's hand:[ 7C ][ 7H ], value = 14",
        "Dealer's hand:[ 7D ][ 7S ], value = 14", "Dealer must take a card...", "Repopulating deck with cards...",
        "Player's hand:[ 7C ][ 7H ], value = 14", round_13[10], round_13[11]]
    assert round_13[10].startswith("Dealer's hand:[ 7D ][ 7S ][ ")
    taken = round_13[10][len("Dealer's hand:[ 7D ][ 7S ][ "):][:2]
    earlier = set(CODES) - {"7C", "7D", "7H", "7S"}
    assert taken in earlier  # the card comes from the discard pile of rounds 1-12
    assert screen.count("Repopulating deck with cards...") == 1


def test_t6_4_refill_when_the_player_hits_on_an_empty_deck(folder):
    with_deck(folder, refill_at_dealer_deck())
    _, screen = play_here(folder, twelve_rounds_staying() + ["h", "n", "n"], "--seed", "4")
    round_13 = after(screen, "Round 13")
    assert round_13[4:7] == [HIT + "h", "Repopulating deck with cards...", round_13[6]]
    assert round_13[6].startswith("Player's hand:[ 7C ][ 7H ][ ")


def test_t6_4_refill_at_the_start_of_a_deal(folder):
    with_deck(folder, refill_at_deal_deck())
    _, screen = play_here(folder, ["deck.txt"] + ["s", "y"] * 13 + ["n"], "--seed", "4")
    round_13 = after(screen, "Round 13")
    assert round_13[2:4] == ["Player's hand:[ KH ][ KS ], value = 20", "Dealer's hand:[ KC ][ xx ]"]
    round_14 = after(screen, "Round 14")
    assert round_14[:3] == ["Round 14", "Dealing cards to player and dealer...", "Repopulating deck with cards..."]
    assert round_14[3].startswith("Player's hand:") and round_14[4].startswith("Dealer's hand:")
    assert screen.count("Repopulating deck with cards...") == 1


def test_t3_6_refills_follow_the_seed(folder):
    with_deck(folder, refill_at_dealer_deck())
    answers = twelve_rounds_staying() + ["s", "y", "h", "h", "s", "n"]
    first = play_here(folder, answers, "--seed", "4")
    assert play_here(folder, answers, "--seed", "4") == first
    assert play_here(folder, answers, "--seed", "5") != first


# -- --shuffle and --seed ------------------------------------------------------------------------------------


def test_t2_4_shuffle_asks_for_no_file_and_the_seed_repeats_the_game(folder):
    """T2.4 (and T6.5): ``--shuffle`` deals the game's own seeded deck, no file asked for."""
    answers = ["h", "y", "s", "y", "h", "h", "n"]
    status, screen = play_here(folder, answers, "--shuffle", "--seed", "7")
    assert status == 0
    assert screen[:5] == BANNER + ["", "Round 1"]
    assert FILE_PROMPT not in "\n".join(screen)
    assert play_here(folder, answers, "--shuffle", "--seed", "7") == (status, screen)
    assert play_here(folder, answers, "--seed", "8", "--shuffle") != (status, screen)
    state = DEFINITION.new_state(["Player"], options={"rounds": 0}, seed=7)
    assert screen[6:8] == [line["text"] for line in state.log[2:4]]  # the game's own seeded deck


# -- the real program ---------------------------------------------------------------------------------------------


def test_the_program_plays_a_sample_deck(folder):
    status, screen = play_program(folder, [str(SAMPLE_DECKS / "dealer_busts.deck"), "s", "n"])
    assert status == 0
    assert screen[4:] == [
        "", "Round 1", "Dealing cards to player and dealer...", "Player's hand:[ TS ][ 8H ], value = 18",
        "Dealer's hand:[ 6C ][ xx ]", HIT + "s", "Player's hand:[ TS ][ 8H ], value = 18",
        "Dealer's hand:[ 6C ][ 9D ], value = 15", "Dealer must take a card...",
        "Player's hand:[ TS ][ 8H ], value = 18", "Dealer's hand:[ 6C ][ 9D ][ KC ], value = 25",
        "Dealer went bust. Player wins round 1!", "", AGAIN + "n"] + closing_after_no()


def test_the_program_ends_with_status_0_after_an_invalid_deck_and_at_the_end_of_input(folder):
    (folder / "bad.txt").write_text("AS\nAS\n")
    assert play_program(folder, ["bad.txt"]) == (0, BANNER + [FILE_PROMPT + "bad.txt", INVALID.format("bad.txt"), "",
                                                                  GOODBYE, ""])
    with_deck(folder, stacked())
    status, screen = play_program(folder, ["deck.txt"])
    assert status == 0 and screen[-4:] == [HIT, "", GOODBYE, ""]


def test_the_program_replays_a_shuffled_game_from_the_same_answers_and_seed(folder):
    answers = ["h", "s", "y", "h", "y", "s", "n"]
    first = play_program(folder, answers, "--shuffle", "--seed", "12")
    assert first == play_program(folder, answers, "--shuffle", "--seed", "12")
    assert first == play_here(folder, answers, "--shuffle", "--seed", "12")


def test_the_program_survives_bytes_that_are_not_text(folder):
    status, screen = play_program(folder, b"\xff\xfe.txt\n")
    assert status == 0
    assert screen[4] == "Cannot open \ufffd\ufffd.txt. Please try again."


def test_t5_3_the_terminal_keeps_no_tally(folder):
    with_deck(folder, stacked("9S", "5C", "7H", "KD", "5D", "TS", "TC", "8H", "9D"))
    _, screen = play_here(folder, ["deck.txt", "h", "y", "s", "n"])
    assert screen[-7:] == ["Dealer wins round 2!", "", AGAIN + "n"] + closing_after_no()
    assert not [line for line in screen if "lost" in line or "tied" in line or "won " in line]
