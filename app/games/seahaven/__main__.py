"""The terminal game (S4) and the solver's command line (S5.1).

    python -m app.games.seahaven [--deck FILE | --seed N | --deal N] [--classic]
    python -m app.games.seahaven solve [--deck FILE | --seed N | --deal N] [--classic] [--moves]

The game reads one command a line (S4.1): ``t2f T F``, ``t2c T C``, ``t2t T1 T2``, ``c2t C T``,
``c2f C F`` (numbers from 1), ``u`` (undo), ``h`` (help), ``q`` (quit); spaces are free and
letters may be in either case. It prints the layout after every accepted move, as lines a
screen reader or a diff reads one by one (S4.5), and nothing but ``Error:`` lines otherwise
(S4.2). The end of standard input quits with status 0 (S4.4). Scripted answers are echoed after
the prompt, so a transcript of a replayed file reads like the session did.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from typing import IO

from app.core.cards import quoted
from app.core.decks import DeckError
from app.core.protocol import IllegalAction, OptionError
from app.core.terminal import (
    Console, EndOfInput, FileProblem, add_house_rules, house_rules_chosen, house_rules_line, read_text_file,
    tolerate_bad_bytes,
)

from .actions import MoveCard, Undo
from .deals import MAX_DEAL
from .definition import DEFINITION
from .rules import CELLS, COLUMNS, FOUNDATIONS, Layout
from .solver import Solver
from .state import WON, SeahavenState

PROMPT = "Your move (h for help): "
PLAYER = "You"

# S4.1: each move command, the kinds of place its two numbers name, and how the help writes it
COMMANDS = {
    "t2f": (("t", "f"), "t2f T F", "move the bottom card of column T to foundation F"),
    "t2c": (("t", "c"), "t2c T C", "move the bottom card of column T to cell C"),
    "t2t": (("t", "t"), "t2t T1 T2", "move the bottom card of column T1 onto column T2"),
    "c2t": (("c", "t"), "c2t C T", "move the card in cell C onto column T"),
    "c2f": (("c", "f"), "c2f C F", "move the card in cell C to foundation F"),
}
WORDS = {"t": ("column", COLUMNS), "c": ("cell", CELLS), "f": ("foundation", FOUNDATIONS)}
HELP = [
    "Commands (columns, cells and foundations are numbered from 1):",
    *(f"  {usage:<10} {text}" for _kinds, usage, text in COMMANDS.values()),
    f"  {'u':<10} undo the last move",
    f"  {'h':<10} show these commands",
    f"  {'q':<10} quit",
]


class CommandError(ValueError):
    """An answer that is not a command the game can carry out; the message says why (S4.2)."""


def parse_command(answer: str) -> tuple[str, MoveCard | None]:
    """``("move", MoveCard)``, ``("u", None)``, ``("h", None)`` or ``("q", None)``; otherwise
    ``CommandError`` saying what is wrong (S4.1, S4.2)."""
    words = answer.lower().split()
    if not words:
        raise CommandError("type a command (h shows them).")
    name, numbers = words[0], words[1:]
    if name in ("u", "h", "q"):
        if numbers:
            raise CommandError(f"{name} stands alone: type just {name}.")
        return name, None
    if name not in COMMANDS:
        raise CommandError(f"{quoted(words[0])} is not a command: type h to see the commands.")
    kinds, usage, _text = COMMANDS[name]
    if len(numbers) != 2:
        raise CommandError(f"{name} takes 2 numbers ({usage}), not {len(numbers)}.")
    places = []
    for kind, number in zip(kinds, numbers):
        word, size = WORDS[kind]
        if not (number.isdigit() and number.isascii()):
            raise CommandError(f"{quoted(number)} is not a number: {name} takes 2 numbers ({usage}).")
        value = number.lstrip("0") or "0"
        if len(value) > 9 or not 1 <= int(value) <= size:
            raise CommandError(f"there is no {word} {value[:9]}{'...' if len(value) > 9 else ''}: "
                               f"{word}s are numbered 1 to {size}.")
        places.append(f"{kind}{int(value)}")
    return "move", MoveCard(places[0], places[1])


def layout_lines(layout: Layout) -> list[str]:
    """S4.5: the cells, the foundations (a foundation holds its suit from the ace up, so it is
    written by its first and last card), then each column from its top card to its bottom card."""
    cells = ", ".join(f"{index} {card.code if card is not None else 'empty'}"
                      for index, card in enumerate(layout.cells[:layout.open_cells], start=1))  # S7.1
    homes = []
    for index, pile in enumerate(layout.foundations, start=1):
        if not pile:
            homes.append(f"{index} empty")
        elif len(pile) == 1:
            homes.append(f"{index} {pile[0].code}")
        else:
            homes.append(f"{index} {pile[0].code} to {pile[-1].code}")
    lines = [f"Cells: {cells}", f"Foundations: {', '.join(homes)}"]
    for index, column in enumerate(layout.columns, start=1):
        cards = " ".join(card.code for card in column) if column else "empty"
        lines.append(f"Column {index}: {cards}")
    return lines


def command_of(source: str, target: str) -> str:
    """A move as the terminal command that makes it (``t3``, ``f1`` -> ``t2f 3 1``)."""
    return f"{source[0]}2{target[0]} {source[1:]} {target[1:]}"


# -- starting a game ------------------------------------------------------------------------------------


def argument_parser(solve: bool) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(  # the game is S4, the solver S5.1
        prog="python -m app.games.seahaven" + (" solve" if solve else ""),
        description=("Decide whether a deal of Seahaven Towers can be won." if solve else
                     "Play Seahaven Towers in the terminal. 'python -m app.games.seahaven solve "
                     "--help' describes the solver."))
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--deck", metavar="FILE", help="deal from a deck file: the 52 card codes, top first")
    source.add_argument("--seed", metavar="N", type=int, help="shuffle repeatably from this seed")
    source.add_argument("--deal", metavar="N", type=int, help=f"play deal number N (1 to {MAX_DEAL})")
    parser.add_argument("--classic", action="store_true",
                        help="the classic deal: cards 51 and 52 start in cells 2 and 3")
    if solve:
        parser.add_argument("--moves", action="store_true", help="also print the winning line, one command a line")
    else:
        add_house_rules(parser, DEFINITION)  # S7 (the solver knows the rule book's game only)
    return parser


class StartError(ValueError):
    """The game cannot start (a deck file that is no deck, a deal number out of range)."""


def new_game(options: argparse.Namespace, rng: random.Random | None = None) -> SeahavenState:
    values = {"classic": options.classic, **house_rules_chosen(options, DEFINITION)}
    if options.deck is not None:
        try:
            cards = DEFINITION.parse_deck(read_text_file(options.deck, what="deck file"))
        except (FileProblem, DeckError) as error:
            raise StartError(f"{options.deck}: {error}") from None
        return DEFINITION.new_state([PLAYER], options=values, stacked_deck=cards)
    if options.deal is not None:
        if not 1 <= options.deal <= MAX_DEAL:
            raise StartError(f"there is no deal {options.deal}: deals are numbered 1 to {MAX_DEAL}")
        values["deal"] = options.deal
        return DEFINITION.new_state([PLAYER], options=values)
    seed = options.seed if options.seed is not None else (rng or random.SystemRandom()).randrange(2**32)
    return DEFINITION.new_state([PLAYER], options=values, seed=seed)


def describe_deal(state: SeahavenState, options: argparse.Namespace) -> str:
    kind = "classic deal" if state.classic else "open deal"
    if state.deal is None:
        return f"deal from the deck file {options.deck} ({kind})"
    return f"deal {state.deal} ({kind})"


# -- the game -------------------------------------------------------------------------------------------


def play(state: SeahavenState, console: Console, title: str) -> int:
    """S4: the game loop, until a win, ``q``, the end of input or Ctrl+C (status 0 every time)."""
    console.say(f"Seahaven Towers, {title}. Type h for the commands.")
    house = house_rules_line(DEFINITION, {"cells": state.cells, "kings_only": state.kings_only})
    if house is not None:  # S7 (none at the rule book's game: the output as before)
        console.say(house)
    show(console, state)
    try:
        while True:
            answer = console.ask(PROMPT)
            try:
                kind, move = parse_command(answer)
            except CommandError as error:
                console.say(f"Error: {error}")
                continue
            if kind == "q":
                console.say("Goodbye.")
                return 0
            if kind == "h":
                for line in HELP:
                    console.say(line)
                continue
            try:
                outcome = state.apply(0, move if kind == "move" else Undo())
            except IllegalAction as refusal:
                message = str(refusal)
                console.say(f"Error: {message}{'' if message.endswith('.') else '.'}")
                continue
            console.say(outcome.events[0]["text"] + ".")
            show(console, state)
            if state.status == WON:
                console.say(f"You won! All 52 cards are on the foundations in {state.moves_made()} moves.")
                return 0
            if state.is_stuck():
                console.say("No legal moves: this position is lost. Type u to undo a move, or q to quit.")
    except EndOfInput:
        return 0
    except KeyboardInterrupt:
        console.say()
        return 0


def show(console: Console, state: SeahavenState) -> None:
    for line in layout_lines(state.layout):
        console.say(line)


def solve(state: SeahavenState, console: Console, moves: bool) -> int:
    """S5.1: ``winnable in N moves`` (N: the length of the line found, not always the fewest)
    or ``not winnable``."""
    line = Solver(state.layout.columns).line(state.layout)
    if line is None:
        console.say("not winnable")
        return 0
    console.say(f"winnable in {len(line)} moves")
    if moves:
        for source, target in line:
            console.say(command_of(source, target))
    return 0


def main(argv: Sequence[str] | None = None, stdin: IO[str] | None = None, stdout: IO[str] | None = None,
         rng: random.Random | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    solving = bool(args) and args[0] == "solve"
    parser = argument_parser(solving)
    try:
        options = parser.parse_args(args[1:] if solving else args)
    except SystemExit as stop:  # --help, or arguments argparse refused (it has said why)
        return int(stop.code or 0)
    console = Console(stdin, stdout)
    try:
        state = new_game(options, rng)
    except (StartError, OptionError) as error:
        console.say(f"Error: {error}")
        return 1
    if solving:
        try:
            return solve(state, console, options.moves)
        except KeyboardInterrupt:  # stopped before its verdict: no traceback, the shell's status for Ctrl+C
            return 130
    return play(state, console, describe_deal(state, options))


def run() -> None:
    tolerate_bad_bytes()
    raise SystemExit(main())


if __name__ == "__main__":
    run()
