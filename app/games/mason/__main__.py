"""The terminal game: the original program, menus A-F on standard input and output (R9).

Run it from the folder that holds ``scores.csv`` and the deck files::

    python -m app.terminal            # play (or: python -m app.games.mason)
    python -m app.terminal < answers  # replay a file of answers (R9.4)

It reads exactly the menu answers, names, deck file names and Menu F selections, one per line,
and nothing else, so a game can be replayed from a file. At the end of input it exits with
status 0; an unfinished game changes no scores.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Sequence
from typing import IO

from app.core.autoplay import autoplay, computer_seats
from app.core.names import NameRefused, admit_new_name, is_computer_name
from app.core.protocol import Outcome as CoreOutcome
from app.core.terminal import (
    Console, EndOfInput, FileProblem, read_text_file, tolerate_bad_bytes, write_atomically,
)

from .actions import DISCARD_PILE, STOCK, NextRound, RoundOver
from .cards import Card
from .decks import DeckError, parse_deck
from .definition import DEFINITION
from .menus import (
    GAME_OPTIONS, MENU_A, MENU_B, MENU_D, MENU_E, QUIT, VIEW_SCORES, NotAChoice, parse_choice, parse_selection,
)
from .players import DISCARD_CHOICE, LAY_DOWN_CHOICE
from .scores import ScoresFileError, ScoreTable, decode_scores_bytes
from .state import MasonState, Outcome

SCORES_FILE = "scores.csv"
RULE = "-" * 64


class Terminal:
    def __init__(self, stdin: IO[str] = sys.stdin, stdout: IO[str] = sys.stdout,
                 folder: str = ".", rng: random.Random | None = None):
        self.console = Console(stdin, stdout)
        self.stdout = stdout
        self.folder = folder
        self.rng = rng or random.Random()
        self.scores = ScoreTable()
        self.scores_path = os.path.join(folder, SCORES_FILE)
        self.broken_scores = False

    # -- input and output ----------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        self.console.say(text)

    def ask(self, prompt: str) -> str:
        """One answer (R9.4: scripted answers are echoed, so a transcript reads like a session)."""
        return self.console.ask(prompt)

    def menu(self, title: str, options: Sequence[str], prompt: str = "Your choice") -> int:
        """Show a numbered menu and ask until one of its numbers is given (R9.1)."""
        return self.console.menu(title, options, prompt)

    # -- the program ---------------------------------------------------------------------------------

    def run(self) -> int:
        self.say("Welcome to Mason Rummy!")
        try:
            self.load_scores()
            while True:
                choice = self.menu("\nMenu A: Main Menu", MENU_A)
                if choice == VIEW_SCORES:
                    self.show_scores()
                elif choice == QUIT:
                    self.say("Goodbye!")
                    return 0
                else:
                    players, stacked = GAME_OPTIONS[choice]
                    self.play_game(players, stacked)
        except EndOfInput:
            return 0

    def load_scores(self) -> None:
        try:
            with open(self.scores_path, "rb") as handle:
                text = decode_scores_bytes(handle.read())
        except FileNotFoundError:
            text = None  # R7.5: a missing file is an empty table
        except (ScoresFileError, OSError) as error:  # OSError: a folder, or no permission to read
            self.scores_unreadable(error)
            return
        try:
            self.scores.read_scores(text)
        except ScoresFileError as error:
            self.scores_unreadable(error)

    def scores_unreadable(self, error: Exception) -> None:
        self.broken_scores = True
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        self.say(f"{SCORES_FILE} cannot be read ({reason}).")
        self.say(f"It is kept as it is and will be renamed to {SCORES_FILE}.broken before new scores are saved.")

    def save_scores(self) -> None:
        if self.broken_scores:
            backup = _free_name(self.scores_path + ".broken")
            os.replace(self.scores_path, backup)
            self.say(f"The unreadable {SCORES_FILE} was kept as {os.path.basename(backup)}.")
            self.broken_scores = False
        write_atomically(self.scores_path, self.scores.save_scores(), prefix=".scores-")

    def show_scores(self) -> None:
        self.say("\nScores")
        self.say(str(self.scores))

    def play_game(self, players: int, stacked: bool) -> None:
        deck = None
        if stacked:
            deck = self.ask_deck()
            if deck is None:
                return
        names = self.choose_players(players)
        seed = self.rng.randrange(2**63)
        game = DEFINITION.new_state(names, stacked_deck=deck, seed=None if deck else seed)
        self.say(game.round_log()[0]["text"])
        controls = TerminalControls(self)
        computers = computer_seats(game)
        while not game.is_over():
            if game.to_move() is None:  # a round summary, then the next deal (R9.3)
                self.round_summary(game)
                game.apply(None, NextRound())
                self.say(game.round_log()[0]["text"])
                continue
            autoplay(game, computers, on_outcome=lambda outcome: controls.done(game, outcome.seat, outcome))
            if game.to_move() is None:
                continue
            player = game.current_player
            self.say(f"\n{RULE}\n{player.name}, it is your turn.")
            try:
                player.take_turn(game, controls)
            except RoundOver:
                pass  # the summary is shown at the top of the loop, or below for the last round
        self.round_summary(game)
        self.final_results(game)

    def ask_deck(self) -> list[Card] | None:
        """R2.2: ask until a valid deck file is named, or ``no`` goes back to Menu A."""
        while True:
            answer = self.ask("Deck file name (or no to go back): ").strip()
            if answer.casefold() == "no":
                return None
            if not answer:
                self.say("Please type a deck file name, such as stacked_test1.deck, or no.")
                continue
            try:
                return parse_deck(read_text_file(os.path.join(self.folder, answer), what="deck file"))
            except (FileProblem, DeckError) as error:
                self.say(f"That deck cannot be used: {error}.")

    def choose_players(self, seats: int) -> list[str]:
        """R3: for each seat, Menu B then a new name or Menu C."""
        names: list[str] = []
        for seat in range(1, seats + 1):
            while True:
                kind = self.menu(f"\nPlayer {seat} - Menu B: Choose Player Type", MENU_B)
                name = self.new_player(names) if kind == 1 else self.returning_player(names)
                if name is not None:
                    names.append(name)
                    break
        return names

    def new_player(self, seated: list[str]) -> str:
        while True:  # R3.2, R3.4: the one admission rule, as the web uses it
            try:
                return admit_new_name(self.ask("New player's name: "), seated, known=self.scores.__contains__,
                                      known_hint="; choose Returning player to use it, or another name")
            except NameRefused as error:
                self.say(str(error))

    def returning_player(self, seated: list[str]) -> str | None:
        taken = {name.casefold() for name in seated if not is_computer_name(name)}
        names = [name for name in self.scores.names() if name.casefold() not in taken]  # R3.3
        if not names:
            self.say("There are no returning players to choose from.")
            return None
        return names[self.menu("Menu C: Choose Previous Player", names) - 1]

    # -- the table ---------------------------------------------------------------------------------

    def show_table(self, game: MasonState, seat: int) -> None:
        """R4.4: discard top, stock size, everyone's sets and hand sizes, and the own hand."""
        view = game.view(seat)
        self.say(f"\nRound {view['round']} of {view['rounds']} - {view['turn_name']}'s turn")
        self.say(f"Discard pile: {view['discard_top'] or 'empty'}    Stock pile: {view['stock_size']} cards")
        for player in view["players"]:
            sets = "  ".join("[" + " ".join(s["cards"]) + "]" for s in player["sets"]) or "none"
            marker = " (you)" if player["seat"] == seat else ""
            self.say(f"  {player['label']}{marker}: {player['hand_size']} cards in hand, "
                     f"{player['score']} points; sets: {sets}")
        self.say("Your hand: " + " ".join(view["hand"] or []))

    def menu_f(self, game: MasonState, seat: int) -> list[Card]:
        hand = game.players[seat].hand.cards
        self.say("Menu F: Select Cards")
        for number, card in enumerate(hand, start=1):
            self.say(f"{number}. {card.label}")
        return hand

    def round_summary(self, game: MasonState) -> None:
        """R9.3: each player's points this round and the game total."""
        round_number = len(game.round_scores)
        points = game.round_scores[-1]
        if game.went_out is None:
            self.say(f"\nRound {round_number} is over: it was blocked.")
        else:
            self.say(f"\nRound {round_number} is over: {game.label(game.went_out)} went out.")
        for seat, (player, added) in enumerate(zip(game.players, points)):
            self.say(f"  {game.label(seat)}: {added} points this round, {player.score} in total")

    def final_results(self, game: MasonState) -> None:
        winners = game.winners()
        self.say("\nGame over. Final scores:")
        for seat, player in enumerate(game.players):
            result = "wins" if seat in winners else "loses"
            self.say(f"  {game.label(seat)}: {player.score} points - {result}")
        self.scores.record_game(
            (player.name, player.score, seat in winners) for seat, player in enumerate(game.players))
        try:
            self.save_scores()  # R7.4: at once
        except OSError as error:  # e.g. a read-only folder: say so rather than crash (R9.1)
            self.say(f"The scores could not be saved to {SCORES_FILE}: {error.strerror or error}.")
            return
        self.say(f"Scores saved to {SCORES_FILE}.")


class TerminalControls:
    """A live player's choices, read from the terminal's menus D, E and F."""

    def __init__(self, terminal: Terminal):
        self.terminal = terminal

    def choose_draw(self, game: MasonState, seat: int) -> str:
        self.terminal.show_table(game, seat)
        choice = self.terminal.menu("Menu D: Which Card to Draw", MENU_D)
        return STOCK if choice == 1 else DISCARD_PILE

    def choose_action(self, game: MasonState, seat: int) -> str:
        self.terminal.show_table(game, seat)
        choice = self.terminal.menu("Menu E: Next Action", MENU_E)
        return LAY_DOWN_CHOICE if choice == 1 else DISCARD_CHOICE

    def choose_lay_down(self, game: MasonState, seat: int) -> list[Card]:
        while True:  # R5.5: Menu F again until the selection is well formed
            hand = self.terminal.menu_f(game, seat)
            answer = self.terminal.ask("Cards to play down (numbers separated by commas, such as 1,4,5): ")
            try:
                return [hand[number - 1] for number in parse_selection(answer, len(hand))]
            except NotAChoice as error:
                self.terminal.say(str(error))

    def choose_discard(self, game: MasonState, seat: int) -> Card:
        while True:  # R5.6: one number, asked even when one card is left
            hand = self.terminal.menu_f(game, seat)
            try:
                return hand[parse_choice(self.terminal.ask(f"Card to discard (1-{len(hand)}): "), len(hand)) - 1]
            except NotAChoice as error:
                self.terminal.say(str(error))

    def refused(self, game: MasonState, seat: int, message: str) -> None:
        self.terminal.say(f"Not allowed: {message}")

    def done(self, game: MasonState, seat: int | None, outcome: CoreOutcome) -> None:
        for event in outcome.events:
            self.terminal.say(event["text"])
        drawn = outcome.drawn if isinstance(outcome, Outcome) else None
        if drawn is not None and seat is not None and not game.players[seat].is_computer:
            self.terminal.say(f"You drew {drawn.label}.")


def _free_name(path: str) -> str:
    candidate, number = path, 1
    while os.path.exists(candidate):
        candidate, number = f"{path}.{number}", number + 1
    return candidate


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.terminal", description="Play Mason Rummy in the terminal.")
    parser.add_argument("--seed", type=int, help="seed for shuffled games (to replay them exactly)")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed) if args.seed is not None else random.Random()
    tolerate_bad_bytes()  # R9.1: nothing crashes on any input
    try:
        return Terminal(rng=rng).run()
    except KeyboardInterrupt:
        print()
        return 0


if __name__ == "__main__":
    sys.exit(main())
