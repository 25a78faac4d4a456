"""High card at the terminal: you ("Player") in seat 1, computer players in the others.

    PYTHONPATH=tests python -m sample_game                 # you and one computer player
    PYTHONPATH=tests python -m sample_game --players 4 --seed 7 < answers

One answer a line (D draws, anything else passes), so a session replays from a file of answers;
the end of input ends the program."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterable, Sequence
from typing import IO

from app.core.autoplay import autoplay, computer_seats
from app.core.names import COMPUTER_NAME
from app.core.protocol import Event
from app.core.terminal import Console, EndOfInput, tolerate_bad_bytes

from .actions import Draw, Pass
from .definition import DEFINITION
from .state import DECK

PROMPT = "Draw (D) or pass (P)? "


def show(console: Console, events: Iterable[Event]) -> None:
    for event in events:
        console.say(event["text"] + "".join(f" {DECK.parse(card).code}" for card in event["cards"]))


def play(console: Console, players: int, limit: int, seed: int) -> int:
    state = DEFINITION.new_state(["Player"] + [COMPUTER_NAME] * (players - 1), options={"limit": limit}, seed=seed)
    show(console, state.log)
    bots = computer_seats(state)
    try:
        while not state.is_over():
            for outcome in autoplay(state, bots):
                show(console, outcome.events)
            if state.is_over():
                break
            hand = state.view(0)["hand"] or []
            console.say(f"Your hand: {' '.join(DECK.parse(card).code for card in hand)}, worth {state.worth(0)}.")
            answer = console.ask(PROMPT)
            drawing = answer[:1] in ("D", "d") and any(move.action == "draw" for move in state.legal(0))
            show(console, state.apply(0, Draw() if drawing else Pass()).events)
    except EndOfInput:
        pass
    console.say("Goodbye.")
    return 0


def main(argv: Sequence[str] | None = None, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sample_game", description="High card against the computer.")
    parser.add_argument("--players", type=int, choices=range(DEFINITION.min_seats, DEFINITION.max_seats + 1),
                        default=2, help="seats at the table, yours included")
    limit = DEFINITION.options[0]
    parser.add_argument("--limit", type=int, choices=range(limit.low or 0, (limit.high or 0) + 1),
                        default=limit.default, metavar="LIMIT",
                        help=f"a hand worth more than this is bust ({limit.low}-{limit.high})")
    parser.add_argument("--seed", type=int, default=None, help="the shuffle's seed, for repeatable games")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**63)
    return play(Console(stdin, stdout), args.players, args.limit, seed)


if __name__ == "__main__":
    tolerate_bad_bytes()
    sys.exit(main())
