"""Stacked decks and program runs for the tests of 21.

``stacked("9S", "5C", ...)`` is a whole deck whose front is the given codes (the player, the
dealer, the player, the dealer's hidden card, then the hits: T3.1), the other cards after them
in the deck's own order, so a test fixes exactly the cards it talks about. ``planned(rounds)``
is a deck written round by round, every card placed by hand.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import app.games  # noqa: F401  (registers every game)
from app.games.twentyone import DECK, DEFINITION
from app.games.twentyone.__main__ import main

ROOT = Path(__file__).resolve().parents[3]
SAMPLE_DECKS = ROOT / "tests" / "decks" / "twentyone"
LOWS = [rank + suit for rank in "A23456" for suit in "CDHS"]  # 24 cards worth 1-6
TENS = [rank + suit for rank in "TJQK" for suit in "CDHS"]  # 16 cards worth 10
BANNER = ["=======================", "Welcome to CARD GAME 21", "======================="]
FILE_PROMPT = "Please, enter input file name: "
HIT = "Would you like to HIT (H/h) or STAY (S/s)? >> "
AGAIN = "Would you like to play another round (Y/N)? >> "
GOODBYE = "Thank you for playing. Goodbye..."


def stacked(*front: str) -> list:
    cards = [DECK.parse(code) for code in front]
    assert len(set(cards)) == len(cards), "a card twice in the front of a test deck"
    return cards + [card for card in DECK.cards if card not in cards]


def planned(rounds: Sequence[Sequence[str]]) -> list:
    cards = [DECK.parse(code) for one_round in rounds for code in one_round]
    assert len(cards) == 52 and len(set(cards)) == 52, "a planned deck places the 52 cards once each"
    return cards


def deck_text(cards) -> str:
    return "".join(card.code + "\n" for card in cards)


def new_game(names=("Ann",), *front: str, rounds: int = 5, seed: int | str = 0, deck=None):
    return DEFINITION.new_state(list(names), options={"rounds": rounds}, seed=seed,
                                stacked_deck=deck if deck is not None else stacked(*front))


def texts(events) -> list[str]:
    return [event["text"] for event in events]


def play_here(folder: Path, answers: Sequence[str] | str, *args: str) -> tuple[int, list[str]]:
    """``main`` in process, in ``folder``, fed ``answers`` (lines); the screen as lines."""
    text = answers if isinstance(answers, str) else "".join(answer + "\n" for answer in answers)
    out = io.StringIO()
    here = os.getcwd()
    os.chdir(folder)
    try:
        status = main(list(args), io.StringIO(text), out)
    finally:
        os.chdir(here)
    return status, out.getvalue().split("\n")


def play_program(folder: Path, answers: Sequence[str] | bytes, *args: str) -> tuple[int, list[str]]:
    """``python -m app.games.twentyone`` in ``folder``, standard input a file of answers."""
    data = answers if isinstance(answers, bytes) else "".join(answer + "\n" for answer in answers).encode()
    answers_file = folder.parent / f"{folder.name}-answers.txt"
    answers_file.write_bytes(data)
    with open(answers_file, "rb") as stdin:
        result = subprocess.run([sys.executable, "-m", "app.games.twentyone", *args], cwd=folder, stdin=stdin,
                                capture_output=True, timeout=60, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert result.stderr == b"", result.stderr.decode()
    return result.returncode, result.stdout.decode().split("\n")


def opening(file_name: str) -> list[str]:
    """The screen up to the first round: the banner, the file prompt, the blank line."""
    return BANNER + [FILE_PROMPT + file_name, ""]


def closing_after_no() -> list[str]:
    """The screen after the answer N: the blank line after every answer, then T6.3's goodbye
    after its blank line (and the end of the output)."""
    return ["", "", GOODBYE, ""]
