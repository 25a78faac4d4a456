"""The terminal game (C8): ``python -m app.games.rummy [--deck FILE] [--seed N] [--target N]
[--no-rummy-bonus]``.

It reads only the answers below, one a line, so a game replays from a file of answers
(``python -m app.games.rummy --deck tests/decks/rummy/quick_rummy.deck < answers``): the number of
players, the names (``AI`` for a computer player), then at each human turn the draw menu, the
play menu, and the card and meld numbers they ask for. An answer that is not one of the offered
numbers asks again; the end of input ends the program with status 0.

After each hand it prints ``Hand N:`` and one ``NAME: P points, total T`` line a seat (or
``Hand N: no score`` for a void hand), and after the game ``Winner: NAME`` (C8.4).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from typing import IO

from app.core.autoplay import autoplay, computer_seats
from app.core.cards import Card
from app.core.decks import DeckError
from app.core.menus import NotAChoice, parse_selection
from app.core.names import NameRefused, admit_new_name
from app.core.protocol import IllegalAction, OptionError, Outcome
from app.core.terminal import (
    Console, EndOfInput, FileProblem, add_house_rules, house_rules_chosen, house_rules_line, read_text_file,
    tolerate_bad_bytes,
)

from .actions import DISCARD_PILE, STOCK, Action, DealHand, DiscardCard, DrawCard, LayOff, MeldCards
from .cards import CARDS
from .definition import DEFINITION
from .state import (
    DEFAULT_TARGET, DRAW_MENU, DRAW_MENU_TITLE, HIGHEST_TARGET, LOWEST_TARGET, MAX_SEATS, MIN_SEATS, PLAY_MENU,
    PLAY_MENU_TITLE, RummyState,
)

MELD, LAY_OFF, DISCARD = 1, 2, 3  # the play menu's answers (C8.3)
RULE = "-" * 64


# -- set-up (C8.2) ---------------------------------------------------------------------------------


def ask_players(console: Console) -> int:
    while True:
        answer = console.ask(f"How many players ({MIN_SEATS}-{MAX_SEATS})? ").strip()
        if answer.isascii() and answer.isdigit() and len(answer) <= 2 and MIN_SEATS <= int(answer) <= MAX_SEATS:
            return int(answer)
        console.say(f"Please answer with a number from {MIN_SEATS} to {MAX_SEATS}.")


def ask_names(console: Console, count: int) -> list[str]:
    names: list[str] = []
    for seat in range(1, count + 1):
        while True:  # a refused name asks the same seat again
            try:
                names.append(admit_new_name(console.ask(f"Name of player {seat}: "), names))
                break
            except NameRefused as refusal:
                console.say(str(refusal))
    return names


class Terminal:
    """One terminal session: the set-up questions, then the game to its end."""

    def __init__(self, console: Console, game: RummyState):
        self.console = console
        self.say = console.say
        self.ask = console.ask
        self.game = game
        self.hand_before = 0  # the human's hand before their draw, to tell them what they drew

    # -- the game ---------------------------------------------------------------------------------

    def play(self) -> None:
        game = self.game
        for event in game.log:
            self.say(event["text"])
        computers = computer_seats(game)
        while not game.is_over():
            autoplay(game, computers, on_outcome=self.report)  # the computer seats' turns
            seat = game.to_move()
            if game.is_over():
                break
            if seat is None:
                self.report(game.apply(None, DealHand()))
            else:
                self.human_turn(seat)

    def report(self, outcome: Outcome, seat: int | None = None) -> None:
        """What an action did: its public events, what a person drew from the stock (only they
        see it), and after a hand the C8.4 lines."""
        game = self.game
        for event in outcome.events:
            self.say(event["text"])
        action = outcome.action
        if seat is not None and type(action) is DrawCard and action.source == STOCK and not outcome.round_over:
            drawn = game.players[seat].hand.mask & ~self.hand_before
            if drawn:
                self.say(f"You drew {CARDS[drawn.bit_length() - 1].label}.")
        if outcome.round_over:
            for line in game.hand_lines(len(game.hand_results) - 1):
                self.say(line)
        if outcome.game_over:
            if game.winner is not None:
                self.say(f"Winner: {game.label(game.winner)}")
            else:
                self.say("The game ends with no winner.")

    def show_table(self, seat: int) -> None:
        """C8.3: the discard top, the stock size, the melds numbered with their owners, every
        player's hand size and score, and the hand numbered, sorted by suit then rank."""
        view = self.game.view(seat)
        self.say(f"\nHand {view['hand_number']} (target {view['target']}) - {self.game.label(seat)}'s turn")
        top = view["discard_top"]
        stock = view["stock_size"]
        self.say(f"Discard pile: {top or 'empty'}    Stock pile: {stock} card{'' if stock == 1 else 's'}")
        if view["melds"]:
            self.say("Melds on the table:")
            for meld in view["melds"]:
                self.say(f"  {meld['number']}. {' '.join(meld['cards'])}  ({meld['owner_label']}'s {meld['kind']})")
        else:
            self.say("Melds on the table: none")
        self.say("Players:")
        for player in view["players"]:
            you = " (you)" if player["seat"] == seat else ""
            size = player["hand_size"]
            self.say(f"  {player['label']}{you}: {size} card{'' if size == 1 else 's'} in hand, "
                     f"score {player['score']}")
        hand = view["hand"] or []
        self.say("Your hand: " + "  ".join(f"{number}) {code}" for number, code in enumerate(hand, start=1)))

    def menu(self, title: str, options: Sequence[str]) -> int:
        return self.console.menu(title, options)

    def ask_number(self, question: str, count: int) -> int:
        """One number from 1 to ``count``; anything else asks the same question again."""
        return self.console.ask_number(question, count)

    def hand(self, seat: int) -> list[Card]:
        return self.game.players[seat].hand.cards()

    def human_turn(self, seat: int) -> None:
        game = self.game
        self.say(f"\n{RULE}\n{game.label(seat)}, it is your turn.")
        self.show_table(seat)
        while True:  # the draw menu
            choice = self.menu(DRAW_MENU_TITLE, DRAW_MENU)
            self.hand_before = game.players[seat].hand.mask
            try:
                outcome = game.apply(seat, DrawCard(STOCK if choice == 1 else DISCARD_PILE))
            except IllegalAction as refusal:
                self.say(f"Not allowed: {refusal}")
                continue
            break
        self.report(outcome, seat)
        while game.to_move() == seat:  # the play menu, again after every meld or lay-off
            self.show_table(seat)
            choice = self.menu(PLAY_MENU_TITLE, PLAY_MENU)
            if choice == MELD:
                self.meld(seat)
            elif choice == LAY_OFF:
                self.lay_off(seat)
            else:
                self.discard(seat)
                return

    def meld(self, seat: int) -> None:
        hand = self.hand(seat)
        while True:
            answer = self.ask("Cards to meld (numbers separated by commas, such as 1,4,5): ")
            try:
                numbers = parse_selection(answer, len(hand))
                break
            except NotAChoice as error:
                self.say(str(error))
        self.attempt(seat, MeldCards(tuple(hand[number - 1] for number in numbers)))

    def lay_off(self, seat: int) -> None:
        melds = len(self.game.melds)
        if not melds:
            self.say("There is no meld on the table to lay off on.")
            return
        hand = self.hand(seat)
        card = hand[self.ask_number("Card to lay off", len(hand)) - 1]
        number = self.ask_number("Meld to lay it off on", melds)
        self.attempt(seat, LayOff(card, number))

    def attempt(self, seat: int, action: Action) -> None:
        """A meld or lay-off: applied, or refused with the reason; the play menu follows."""
        try:
            outcome = self.game.apply(seat, action)
        except IllegalAction as refusal:
            self.say(f"Not allowed: {refusal}")
            return
        self.report(outcome, seat)

    def discard(self, seat: int) -> None:
        hand = self.hand(seat)
        while True:  # C3.3 refusals ask for the card again
            card = hand[self.ask_number("Card to discard", len(hand)) - 1]
            try:
                outcome = self.game.apply(seat, DiscardCard(card))
            except IllegalAction as refusal:
                self.say(f"Not allowed: {refusal}")
                continue
            self.report(outcome, seat)
            return


def _target(text: str) -> int:
    if not (text.strip().isdigit() and text.strip().isascii() and len(text.strip()) <= 6):
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
    value = int(text)
    if not LOWEST_TARGET <= value <= HIGHEST_TARGET:
        raise argparse.ArgumentTypeError(f"the target is {LOWEST_TARGET} to {HIGHEST_TARGET} points, not {value}")
    return value


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m app.games.rummy",
                                     description="Play Classic Rummy in the terminal.")
    # The options of C8.1: the stacked deck (C2.3), the target (C5.3), the rummy bonus (C5.2).
    parser.add_argument("--deck", metavar="FILE",
                        help="a stacked deck: the 52 card codes, top first, dealt in the same order every hand")
    parser.add_argument("--seed", type=int, help="the seed of the shuffles, to replay a game exactly")
    parser.add_argument("--target", type=_target, default=DEFAULT_TARGET,
                        help=f"the target score: the game ends when a total reaches it, "
                             f"{LOWEST_TARGET} to {HIGHEST_TARGET} (default {DEFAULT_TARGET})")
    parser.add_argument("--no-rummy-bonus", action="store_true",
                        help="no double score for going out in one turn without having melded or laid off before")
    add_house_rules(parser, DEFINITION, skip=("rummy_bonus",))  # C9
    return parser


def main(argv: Sequence[str] | None = None, stdin: IO[str] | None = None, stdout: IO[str] | None = None,
         stderr: IO[str] | None = None) -> int:
    args = parser().parse_args(argv)
    stderr = stderr if stderr is not None else sys.stderr
    deck = None
    if args.deck is not None:  # C8.2: an invalid deck stops the program before any question
        try:
            deck = DEFINITION.parse_deck(read_text_file(args.deck, what="deck file"))
        except (FileProblem, DeckError) as error:
            print(f"That deck cannot be used: {error}.", file=stderr)
            return 1
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
    console = Console(stdin, stdout)
    try:
        options = DEFINITION.validate_options({"target": args.target, "rummy_bonus": not args.no_rummy_bonus,
                                               **house_rules_chosen(args, DEFINITION)})
    except OptionError as error:
        print(f"That option cannot be used: {error}", file=stderr)
        return 1
    bonus = "no rummy bonus" if args.no_rummy_bonus else "rummy bonus on"
    how = f"stacked deck {args.deck}" if deck is not None else f"shuffled with seed {seed}"
    console.say(f"Classic Rummy to {args.target} points, {bonus}, {how}.")
    house = house_rules_line(DEFINITION, dict(options, rummy_bonus=True))  # (the bonus is said above)
    if house is not None:
        console.say(house)
    try:
        count = ask_players(console)
        names = ask_names(console, count)
        game = DEFINITION.new_state(names, options=options, seed=None if deck else seed, stacked_deck=deck)
        Terminal(console, game).play()
    except EndOfInput:
        return 0
    except KeyboardInterrupt:
        console.say()
        return 0
    return 0


def run() -> int:
    tolerate_bad_bytes()
    return main()


__all__ = ["main", "run", "Terminal"]

if __name__ == "__main__":
    sys.exit(run())
