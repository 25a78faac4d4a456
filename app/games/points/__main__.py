"""Points Rummy in the terminal: ``python -m app.games.points``.

    python -m app.games.points                      # you against the computer, a random deal
    python -m app.games.points --players 4 --deals 3 --seed 7
    python -m app.games.points --names Ann,AI,Bob   # people and computer seats (AI), hot seat
    python -m app.games.points --deck tests/decks/points/declare_after_one_draw.deck < answers.txt

Every answer is one line, so a file of answers replays a game exactly (with ``--seed`` or
``--deck``): on your turn ``1`` draws from the closed deck, ``2`` takes the open pile's top card,
``3`` drops; after drawing, ``1`` then a card number discards it, ``2`` declares: the finish
card's number, then the groups of the other 13 cards as numbers (``1,2,3 4,5,6,7 8,9,10
11,12,13``). A refused answer prints the rule's reason and asks again; the end of the input
ends the program (status 0).
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from typing import IO
from collections.abc import Sequence

from app.core.autoplay import autoplay
from app.core.cards import Card
from app.core.decks import DeckError
from app.core.menus import NotAChoice, parse_selection
from app.core.names import NameRefused, admit_new_name, is_computer_name
from app.core.protocol import Event, IllegalAction, Outcome
from app.core.terminal import (
    Console, EndOfInput, FileProblem, add_house_rules, house_rules_chosen, house_rules_line, read_text_file,
    tolerate_bad_bytes,
)

from .actions import CLOSED, OPEN, Action, Declare, Discard, Draw, Drop, NextDeal
from .cards import is_joker
from .definition import DEFINITION
from .evaluator import HandContext
from .state import DISCARD, DRAW, PointsState

GROUPS_EXAMPLE = "1,2,3 4,5,6,7 8,9,10 11,12,13"


def card_text(card: Card, wild_rank: str) -> str:
    """A card as the terminal writes it: its code, a star for a joker of this deal."""
    return card.code + ("*" if is_joker(card, wild_rank) else "")


def cards_text(ids: Sequence[str], state: PointsState) -> str:
    return " ".join(card_text(state.deck.parse(card_id), state.wild_rank) for card_id in ids)


def event_text(event: Event, state: PointsState) -> str:
    """A log line as the terminal writes it: the cards it names starred when they are jokers."""
    text = str(event["text"])
    for card_id in event["cards"]:
        card = state.deck.parse(card_id)
        text = re.sub(rf"(?<![A-Za-z0-9*]){re.escape(card.code)}(?![A-Za-z0-9*])", card_text(card, state.wild_rank),
                      text, count=1)
    return text if text.endswith(".") else text + "."


class TerminalGame:
    def __init__(self, state: PointsState, console: Console):
        self.state = state
        self.console = console
        self.people = [seat for seat, name in enumerate(state.names) if not is_computer_name(name)]

    # -- output ---------------------------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        self.console.say(text)

    def show_outcome(self, outcome: Outcome) -> None:
        for event in outcome.events:
            self.say(event_text(event, self.state))
        if outcome.round_over:
            self.show_summary()

    def show_table(self, seat: int) -> None:
        state = self.state
        view = state.view(seat)
        counts = ", ".join(f"{player['label']} {player['cards']} cards"
                           + ("" if player["status"] == "in" else f" ({player['status_text']})")
                           for player in view["players"])
        self.say()
        indicator = cards_text([view["indicator"]], state) if view["indicator"] else "none"
        self.say(f"{view['stage']}. {view['wild_text']} (indicator {indicator}).")
        top = cards_text([view["open_top"]], state) if view["open_top"] else "empty"
        self.say(f"Open pile: {top}. Closed deck: {view['closed_count']} cards. {counts}.")
        self.show_hand(seat)

    def show_hand(self, seat: int) -> None:
        state = self.state
        hand = state.hands[seat]
        numbered = (f"{number}:{card_text(card, state.wild_rank)}" for number, card in enumerate(hand, start=1))
        self.say(f"{state.label(seat)}'s hand: " + "  ".join(numbered))
        points = min(HandContext(hand, state.wild_rank).points_without(None), state.rules["most_points"])  # P5.4
        self.say(f"Your hand counts {points} now.")

    def show_summary(self) -> None:
        state = self.state
        summary = state.view(None)["summary"]
        if summary is None:
            return
        self.say()
        self.say(f"Deal {summary['deal']} of {summary['deals']}: every hand.")
        for row in summary["rows"]:
            result = f"+{row['result']}" if row["result"] > 0 else str(row["result"])
            finish = f", finish card {cards_text([row['finish']], state)}" if row["finish"] else ""
            self.say(f"  {row['label']}: {row['points']} points ({row['reason']}{finish}), deal {result}, "
                     f"total {row['total']}")
            for group in row["groups"]:
                self.say(f"    {group['label']}: {cards_text(group['cards'], state)}")
            if row["ungrouped"]:
                self.say(f"    outside groups: {cards_text(row['ungrouped'], state)}")
        self.say("Totals: " + ", ".join(f"{state.label(seat)} {total:+d}" for seat, total in enumerate(state.totals)))

    # -- input ------------------------------------------------------------------------------------------

    def ask_number(self, question: str, count: int) -> int:
        return self.console.ask_number(question, count)

    def apply(self, seat: int | None, action: Action) -> bool:
        try:
            outcome = self.state.apply(seat, action)
        except IllegalAction as refusal:
            self.say(f"Refused: {refusal}")
            return False
        self.show_outcome(outcome)
        return True

    def draw_turn(self, seat: int) -> None:
        state = self.state
        self.show_table(seat)
        top = state.open_pile[-1].code if state.open_pile else "nothing"
        points = state.drop_points(seat)  # P4.3, P8.1, P8.2
        self.say(f"{state.label(seat)}, your turn: 1. Draw from the closed deck  2. Take {top} from the open pile  "
                 f"3. Drop ({points} points)")
        while True:
            choice = self.ask_number("Your choice", 3)
            actions: dict[int, Action] = {1: Draw(CLOSED), 2: Draw(OPEN), 3: Drop()}
            action = actions[choice]
            hand_before = list(state.hands[seat])
            if self.apply(seat, action):
                if choice in (1, 2):
                    drawn = next(card for card in state.hands[seat] if card not in hand_before)
                    self.say(f"You {'drew' if choice == 1 else 'took'} {card_text(drawn, state.wild_rank)}.")
                return

    def play_turn(self, seat: int) -> None:
        state = self.state
        while state.to_move() == seat and state.phase == DISCARD:
            self.show_hand(seat)
            self.say("1. Discard a card  2. Declare")
            choice = self.ask_number("Your choice", 2)
            count = len(state.hands[seat])
            if choice == 1:
                number = self.ask_number("Card to discard", count)
                self.apply(seat, Discard((state.hands[seat][number - 1].id,)))
                continue
            finish = self.ask_number("Finish card", count)
            groups = self.ask_groups(count)
            hand = state.hands[seat]
            action = Declare((hand[finish - 1].id,), tuple(tuple(hand[n - 1].id for n in group) for group in groups))
            self.apply(seat, action)

    def ask_groups(self, count: int) -> list[list[int]]:
        while True:
            answer = self.console.ask(f"Groups of the other cards, as numbers (such as {GROUPS_EXAMPLE}): ")
            parts = answer.replace("|", " ").replace(";", " ").split()
            try:
                if not parts:
                    raise NotAChoice(f"Type the groups as card numbers, such as {GROUPS_EXAMPLE}.")
                return [parse_selection(part, count) for part in parts]
            except NotAChoice as error:
                self.say(str(error))

    def between_deals(self) -> None:
        state = self.state
        self.console.ask(f"Press Enter to deal deal {state.deal_number + 1} of {state.deals}. ")
        self.apply(None, NextDeal())

    def run(self) -> None:
        state = self.state
        bot = DEFINITION.bot
        names = state.names
        self.say(f"Points Rummy: {', '.join(state.label(seat) for seat in range(len(names)))}; "
                 f"{state.deals} deal{'s' if state.deals > 1 else ''}.")
        house = house_rules_line(DEFINITION, state.rules)  # P8 (none at the rule book's game: as before)
        if house is not None:
            self.say(house)
        for event in state.log:
            self.say(event_text(event, state))
        while not state.is_over():
            autoplay(state, lambda seat: bot if is_computer_name(names[seat]) else None, on_outcome=self.show_outcome)
            if state.is_over():
                break
            seat = state.to_move()
            if seat is None:
                self.between_deals()
            elif state.phase == DRAW:
                self.draw_turn(seat)
            else:
                self.play_turn(seat)
        best = max(state.totals)
        winners = [state.label(seat) for seat in range(len(names)) if state.totals[seat] == best]
        totals = ", ".join(f"{state.label(seat)} {total:+d}" for seat, total in enumerate(state.totals))
        self.say(f"Final totals: {totals}. {' and '.join(winners)} {'wins' if len(winners) == 1 else 'win'}.")


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m app.games.points",
                                     description="Points Rummy against the computer.")
    parser.add_argument("--players", type=int, default=None, help="2 to 6 seats: you and computer players (default 2)")
    parser.add_argument("--names", default=None,
                        help="the seats' names, comma separated; AI is a computer seat (default: Player,AI,...)")
    parser.add_argument("--seed", default=None, help="the shuffle's seed (a game replays with the same seed)")
    parser.add_argument("--deck", default=None, help="a stacked deck file: 53 codes for 2 players, 106 for 3-6")
    parser.add_argument("--deals", default="1", help="the number of deals, 1 to 10 (default 1)")
    add_house_rules(parser, DEFINITION)  # P8
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    args = parse_arguments(argv)
    console = Console(stdin, stdout)
    try:
        if args.players is not None:  # (the count first: "--players 0" is no count of names)
            DEFINITION.check_seat_count(args.players)
        if args.names is not None:
            names: list[str] = []
            for name in args.names.split(","):  # as the web's set-up: each name once, AI any number of times
                names.append(admit_new_name(name, names))
        else:
            names = ["Player"] + ["AI"] * ((args.players or 2) - 1)
        if args.players is not None and args.players != len(names):
            raise ValueError(f"--players {args.players} but {len(names)} names")
        DEFINITION.check_seats(names)
        options = DEFINITION.validate_options({"deals": args.deals, **house_rules_chosen(args, DEFINITION)})
        stacked = None
        if args.deck is not None:
            stacked = DEFINITION.parse_deck(read_text_file(args.deck, what="deck file"), len(names))
        seed = args.seed
        if seed is None and stacked is None:
            seed = random.SystemRandom().randrange(1_000_000)
            console.say(f"Seed {seed} (--seed {seed} replays this game).")
        state = DEFINITION.new_state(names, options=options, seed=seed, stacked_deck=stacked)
    except (NameRefused, FileProblem, DeckError, ValueError) as problem:
        console.say(f"Cannot start: {problem}")
        return 2
    try:
        TerminalGame(state, console).run()
    except EndOfInput:
        console.say("Goodbye.")
    except KeyboardInterrupt:  # (Ctrl+C: like the end of input, no traceback)
        console.say()
        console.say("Goodbye.")
    return 0


if __name__ == "__main__":
    tolerate_bad_bytes()
    sys.exit(main())
