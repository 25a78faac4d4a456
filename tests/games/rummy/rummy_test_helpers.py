"""Helpers for the Classic Rummy tests: stacked decks from the hands wanted, games dealt from
them, actions as the web posts them, and the terminal program run on a file of answers."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import app.games  # noqa: F401  (registers every game)
from app.core import registry
from app.games.rummy.__main__ import main
from app.games.rummy.cards import DECK, codes_of
from app.games.rummy.state import RummyState

ROOT = Path(__file__).resolve().parents[3]
DECKS = ROOT / "tests" / "decks" / "rummy"
RUMMY = registry.get("rummy")
RESULT_LINE = re.compile(r"^(Hand \d+:|Hand \d+: no score|.+: \d+ points, total \d+|Winner: .+)$")


def card(code: str):
    return DECK.parse(code)


def cards(text: str) -> list:
    return [DECK.parse(code) for code in text.split()]


def deck_codes(hands: Sequence[str], up: str, stock: str = "", first: int = 0) -> list[str]:
    """The 52 codes of a stacked deck that deals ``hands`` (one string of codes a seat, seat 1
    first) one card at a time from seat ``first`` (C2.3), turns ``up`` face up, and puts
    ``stock`` (top first) on top of the stock; every other card follows in deck order."""
    seats = len(hands)
    dealt = [hand.split() for hand in hands]
    size = len(dealt[0])
    assert all(len(hand) == size for hand in dealt), "every hand has the same size"
    order = []
    for index in range(size):
        for turn in range(seats):
            order.append(dealt[(first + turn) % seats][index])
    order += [up] + stock.split()
    assert len(set(order)) == len(order), "a card was given twice"
    rest = [c.code for c in DECK.cards if c.code not in set(order)]
    return order + rest


def deal(names: Sequence[str], hands: Sequence[str], up: str, stock: str = "", **options) -> RummyState:
    codes = deck_codes(hands, up, stock)
    return RUMMY.new_state(list(names), options=options, stacked_deck=[DECK.parse(c) for c in codes])


def act(game: RummyState, seat, name: str, *codes: str, **fields):
    """Apply an action as a web form would post it: ``act(game, 0, "meld", "5S", "6S", "7S")``."""
    data = {"action": name, **{key: str(value) for key, value in fields.items()}}
    if codes:
        data["cards"] = list(codes)
    return game.apply(seat, RUMMY.action_from_dict(data))


def hand_codes(game: RummyState, seat: int) -> str:
    return " ".join(c.code for c in game.players[seat].hand.cards())


def meld_codes(game: RummyState) -> list[str]:
    return [codes_of(meld.mask) for meld in game.melds]


def run_terminal(argv: Sequence[str], answers: Sequence[str], cwd: Path | None = None) -> tuple[int, str, str]:
    """The terminal program in process: ``(status, screen, errors)``."""
    stdin = io.StringIO("".join(answer + "\n" for answer in answers))
    stdout, stderr = io.StringIO(), io.StringIO()
    old = os.getcwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        status = main(list(argv), stdin, stdout, stderr)
    finally:
        os.chdir(old)
    return status, stdout.getvalue(), stderr.getvalue()


def run_program(argv: Sequence[str], answers: Sequence[str], cwd: Path) -> subprocess.CompletedProcess:
    """The real program, ``python -m app.games.rummy < answers.txt``, in a subprocess in ``cwd``."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    script = cwd / "answers.txt"
    script.write_text("".join(answer + "\n" for answer in answers), encoding="utf-8")
    with open(script, encoding="utf-8") as stdin:
        return subprocess.run([sys.executable, "-m", "app.games.rummy", *argv], stdin=stdin, capture_output=True,
                              text=True, cwd=cwd, env=env, timeout=60)


def result_lines(screen: str) -> list[str]:
    """The C8.4 lines of a session, in order."""
    return [line for line in screen.splitlines() if RESULT_LINE.match(line)]


def setup(*names: str) -> list[str]:
    return [str(len(names)), *names]


def situation(hands: Sequence[str], melds: Sequence[tuple[int, str]] = (), discard: str = "", stock: str = "",
              turn: int = 0, phase: str = "play", taken: str | None = None, names: Sequence[str] | None = None,
              opened: Sequence[bool] | None = None, **options) -> RummyState:
    """A game in an exact position, made through ``from_dict`` (so it is checked like a saved
    game): the hands, the melds on the table (owner, codes), the discard pile (bottom first),
    the stock's top cards; every card not named goes to the bottom of the stock."""
    names = list(names or ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"][:len(hands)])
    game = RUMMY.new_state(names, options=options, seed=0)
    data = game.to_dict()
    named = [code for text in [*hands, *(codes for _, codes in melds), discard, stock] for code in text.split()]
    assert len(set(named)) == len(named), "a card was named twice"
    rest = [c.code for c in DECK.cards if c.code not in set(named)]
    for seat, hand in enumerate(hands):
        data["players"][seat]["hand"] = hand.split()
        if opened is not None:
            data["players"][seat]["opened"] = opened[seat]
    data["melds"] = [{"owner": owner, "kind": "run" if len({code[1] for code in codes.split()}) == 1 else "set",
                      "cards": codes.split()} for owner, codes in melds]
    data["discard"] = discard.split()
    data["stock"] = stock.split() + rest
    data["turn"] = turn
    data["phase"] = phase
    data["taken"] = taken
    data["seen"] = [code for text in [*(codes for _, codes in melds), discard, taken or ""] for code in text.split()]
    return RUMMY.from_dict(data)
