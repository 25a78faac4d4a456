"""The terminal game of 21 (T6): one player against the dealer, exactly as the original program.

    python -m app.games.twentyone                    # asks for a deck file
    python -m app.games.twentyone --shuffle          # a shuffled deck, no file
    python -m app.games.twentyone --seed 7 < answers # the same shuffles every time

It reads only the deck file name and the answers to its two prompts, one a line, so a session
replays exactly from a file of answers. The end of input at any prompt ends the program as the
answer N does (a round in progress is dropped); every ending exits with status 0.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import IO, Any
from collections.abc import Mapping, Sequence

from app.core.cards import Card as CoreCard
from app.core.protocol import Event, OptionError
from app.core.terminal import (
    Console, EndOfInput, add_house_rules, house_rules_chosen, house_rules_line, tolerate_bad_bytes,
)

from .actions import Deal, Hit, Stay
from .cards import InvalidDeckData, parse_deck_file
from .definition import DEFINITION
from .state import TwentyOneState
from .table import ACTION

BANNER = ("=======================", "Welcome to CARD GAME 21", "=======================")  # T6.1
FILE_PROMPT = "Please, enter input file name: "
CANNOT_OPEN = "Cannot open {}. Please try again."  # T2.3
HIT_PROMPT = "Would you like to HIT (H/h) or STAY (S/s)? >> "  # T6.2
AGAIN_PROMPT = "Would you like to play another round (Y/N)? >> "  # T6.3
INVALID_ENTRY = "Invalid Entry."
GOODBYE = "Thank you for playing. Goodbye..."
MAX_DECK_FILE_BYTES = 1_000_000  # far more than 52 lines of codes: anything longer is invalid data


class Quit(Exception):
    """The player answered N (or the input ended) at the play-again prompt."""


def read_deck(console: Console) -> list[CoreCard] | None:
    """T2.2/T2.3: ask for a deck file until one opens; its cards, or None (the T2.2 message has
    been shown) when its data is invalid."""
    while True:
        name = console.ask(FILE_PROMPT)
        try:
            with open(name, "rb") as handle:  # the name as typed (T6.5)
                data = handle.read(MAX_DECK_FILE_BYTES + 1)
        except (OSError, ValueError):  # missing, a folder, unreadable; ValueError: a NUL in the name
            console.say(CANNOT_OPEN.format(name))
            continue
        try:
            if len(data) > MAX_DECK_FILE_BYTES:
                raise InvalidDeckData(name)
            # bytes that are not text are invalid data, like any other line that is not a code
            return parse_deck_file(data.decode("utf-8-sig", errors="replace"), name)
        except InvalidDeckData:
            console.say(f"Cannot populate deck: invalid data in {name}")
            return None


class TerminalGame:
    def __init__(self, console: Console, *, seed: int, shuffle: bool, house_rules: Mapping[str, Any] | None = None):
        self.console = console
        self.seed = seed
        self.shuffle = shuffle
        self.options = DEFINITION.validate_options({**(house_rules or {}), "rounds": 0})  # T8

    def show(self, events: list[Event]) -> None:
        for entry in events:
            if entry["kind"] != ACTION:  # "Player hits." and "Player stays." are the web log's
                self.console.say(entry["text"])

    def run(self) -> int:
        for line in BANNER:
            self.console.say(line)
        house = house_rules_line(DEFINITION, self.options)  # (none at the rule book's game: T6.1 word for word)
        if house is not None:
            self.console.say(house)
        try:
            stacked = None
            if not self.shuffle:
                stacked = read_deck(self.console)
                if stacked is None:
                    return self.goodbye()
            state = DEFINITION.new_state(["Player"], options=self.options, seed=self.seed, stacked_deck=stacked)
            self.console.say()
            self.show(state.log)
            while True:
                self.play_round(state)
                self.console.say()
                try:
                    self.ask_again()
                except Quit:
                    self.console.say()
                    break
                self.console.say()
                self.show(state.apply(None, Deal()).events)
        except (EndOfInput, KeyboardInterrupt):
            pass  # T6.5: a round in progress is dropped (Ctrl+C too: every way out is status 0)
        return self.goodbye()

    def play_round(self, state: TwentyOneState) -> None:
        """T6.2: hit or stay until the round ends; the answer's first character decides."""
        while state.to_move() == 0:
            answer = self.console.ask(HIT_PROMPT)
            action = Hit() if answer[:1] in ("H", "h") else Stay()
            self.show(state.apply(0, action).events)

    def ask_again(self) -> None:
        """T6.3: Y/y plays on, N/n (or the end of input, T6.5) raises Quit, anything else is an
        invalid entry and the question again, on the same line."""
        while True:
            try:
                answer = self.console.ask(AGAIN_PROMPT)
            except EndOfInput:
                raise Quit from None
            if answer[:1] in ("Y", "y"):
                return
            if answer[:1] in ("N", "n"):
                raise Quit
            self.console.say(INVALID_ENTRY, end=" ")

    def goodbye(self) -> int:
        self.console.say()
        self.console.say(GOODBYE)
        return 0


def main(argv: Sequence[str] | None = None, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.games.twentyone", description="21 against the dealer.")  # T6
    parser.add_argument("--shuffle", action="store_true", help="play a shuffled deck: no deck file is asked for")
    parser.add_argument("--seed", type=int, default=None,
                        help="the seed of the shuffles (the deck with --shuffle, and every refill), "
                             "for repeatable games")
    add_house_rules(parser, DEFINITION)  # T8
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**63)
    try:
        game = TerminalGame(Console(stdin, stdout), seed=seed, shuffle=args.shuffle,
                            house_rules=house_rules_chosen(args, DEFINITION))
    except OptionError as error:
        parser.error(str(error))
    return game.run()


if __name__ == "__main__":
    tolerate_bad_bytes()
    sys.exit(main())
