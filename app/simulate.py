"""Play games of computer players only, through the rules, and print what happened.

    python -m app.simulate --games 1000 --players 3 [--game KEY] [--seed 7] [--deck FILE]
                           [--random-seats 2,3]

Every game goes through the game's protocol exactly as a real one does: ``new_state`` with
``AI`` names and the ``autoplay`` loop (the one the web and the terminals use), dealing on
between rounds. The game is the first registered one (Mason Rummy) unless ``--game`` names
another. Shuffled game number ``n`` uses the seed ``"<seed>/<n>"``, so a run is reproducible.
``--random-seats`` seats play the game's baseline player instead (Mason Rummy's
draws and lays down by R8.1/R8.2 but discards a random card, a seeded generator per game), which
measures the computer player's strategy. ``--random-discard`` is the same option under the name
Mason Rummy's README uses.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from typing import Any, Sequence

import app.games  # noqa: F401  (registers every game)
from app.core import registry
from app.core.autoplay import autoplay
from app.core.cards import Card
from app.core.decks import DeckError
from app.core.names import COMPUTER_NAME
from app.core.protocol import Bot, GameDefinition, GameState
from app.core.terminal import FileProblem, read_text_file


def play_bot_game(definition: GameDefinition, players: int, *, seed: int | str | None = None,
                  deck: Sequence[Card] | None = None, random_seats: Sequence[int] = (),
                  rng: random.Random | None = None, options: dict[str, Any] | None = None) -> GameState:
    """One whole game of computer seats, returned finished. ``random_seats`` (0-based) play the
    game's baseline player, drawing from ``rng``."""
    state = definition.new_state([COMPUTER_NAME] * players, options=definition.validate_options(options or {}),
                                 seed=None if deck is not None else seed, stacked_deck=deck)
    bots: dict[int, Bot | None] = dict.fromkeys(range(players), definition.bot)
    if random_seats:
        baseline = definition.baseline_bot(rng or random.Random(f"{seed}/random"))
        bots.update(dict.fromkeys(random_seats, baseline))
    autoplay(state, bots.get, deal_on=True)
    return state


def default_game() -> GameDefinition:
    """The game simulated unless another is named: the first registered one."""
    return registry.games()[0]


def play_ai_game(players: int, *, seed: int | str | None = None, deck: Sequence[Card] | None = None,
                 random_seats: Sequence[int] = (), rng: random.Random | None = None) -> GameState:
    """A game of the default game with computer seats only (see ``play_bot_game``)."""
    return play_bot_game(default_game(), players, seed=seed, deck=deck, random_seats=random_seats,
                         rng=rng or random.Random(f"{seed}/discards"))


class Stats:
    """Totals over many finished games of one game and seat count."""

    def __init__(self, players: int, definition: GameDefinition | None = None):
        self.players = players
        self.definition = definition or default_game()
        self.games = 0
        self.wins = [0] * players  # per seat
        self.scores = [0] * players  # per seat, summed final scores
        self.totals: Counter[str] = Counter()

    def add(self, state: GameState) -> None:
        self.games += 1
        for result in state.results():  # every seat tied for the win won
            if result.won:
                self.wins[result.seat] += 1
            self.scores[result.seat] += result.score or 0
        self.totals.update(self.definition.tally(state))

    def report(self, seconds: float, random_seats: Sequence[int] = ()) -> str:
        games = max(self.games, 1)
        baseline = self.definition.baseline_label
        lines = ["seat  wins   win%  avg score"]
        for seat in range(self.players):
            tag = f"  ({baseline})" if seat in random_seats else ""
            lines.append(f"{seat + 1:>4}  {self.wins[seat]:>4}  {100 * self.wins[seat] / games:5.1f}"
                         f"  {self.scores[seat] / games:9.1f}{tag}")
        if random_seats and len(random_seats) < self.players:  # the strategy against the baseline
            strategy_seats = [seat for seat in range(self.players) if seat not in random_seats]
            words = baseline.split(" ", 1)
            strategy = f"strategy {words[1]}" if len(words) == 2 else "strategy"
            for name, seats in ((strategy, strategy_seats), (baseline, random_seats)):
                wins = sum(self.wins[seat] for seat in seats) / len(seats)
                score = sum(self.scores[seat] for seat in seats) / len(seats)
                lines.append(f"{name}, per seat: {100 * wins / games:.1f}% wins, "
                             f"{score / games:.1f} average score")
        lines += self.definition.tally_lines(self.totals, self.games)
        lines.append(f"games per second: {self.games / seconds:.1f}" if seconds > 0 else "games per second: n/a")
        return "\n".join(lines)


def simulate(games: int, players: int, *, seed: int = 0, deck: Sequence[Card] | None = None,
             random_seats: Sequence[int] = (), definition: GameDefinition | None = None) -> tuple[Stats, float]:
    """Play ``games`` games; return the totals and the seconds they took."""
    definition = definition or default_game()
    stats = Stats(players, definition)
    started = time.perf_counter()
    for number in range(games):
        game_seed = f"{seed}/{number}"
        stats.add(play_bot_game(definition, players, seed=game_seed, deck=deck, random_seats=random_seats,
                                rng=random.Random(f"{game_seed}/discards")))
    return stats, time.perf_counter() - started


def _positive(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"{number} is not a positive number of games")
    return number


def _seats(text: str) -> list[int]:
    try:
        seats = sorted({int(part) for part in text.split(",")})
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of seat numbers such as 2 or 2,3") from None
    return seats


def main(argv: Sequence[str] | None = None) -> int:
    keys = [definition.key for definition in registry.games() if definition.bot is not None]
    parser = argparse.ArgumentParser(prog="python -m app.simulate",
                                     description="Play games of computer players only and print statistics.")
    default = default_game().key
    parser.add_argument("--game", choices=keys, default=default, help=f"which game (default {default})")
    parser.add_argument("--games", type=_positive, required=True, help="how many games to play")
    parser.add_argument("--players", type=int, required=True, help="seats per game")
    parser.add_argument("--seed", type=int, default=0, help="seed for the shuffles (default 0)")
    parser.add_argument("--deck", metavar="FILE", help="play every game with this stacked deck file")
    parser.add_argument("--random-seats", "--random-discard", dest="random_seats", metavar="SEATS", type=_seats,
                        default=[], help="seats (1-based, comma separated) that play the game's baseline "
                                         "(random) player, e.g. 2 or 2,3")
    args = parser.parse_args(argv)
    definition = registry.get(args.game)
    if not definition.min_seats <= args.players <= definition.max_seats:
        choices = ", ".join(str(n) for n in range(definition.min_seats, definition.max_seats + 1))
        parser.error(f"argument --players: invalid choice: {args.players} (choose from {choices})")
    if any(not 1 <= seat <= args.players for seat in args.random_seats):
        parser.error(f"argument --random-seats: seats are numbered 1 to {args.players}")
    if args.random_seats and definition.baseline_bot(random.Random()) is None:
        parser.error(f"argument --random-seats: {definition.name} has no baseline player")
    deck = None
    if args.deck is not None:
        try:
            deck = definition.parse_deck(read_text_file(args.deck, what="deck file"), args.players)
        except (FileProblem, DeckError) as error:
            parser.error(f"argument --deck: {error}")
    random_seats = [seat - 1 for seat in args.random_seats]
    stats, seconds = simulate(args.games, args.players, seed=args.seed, deck=deck, random_seats=random_seats,
                              definition=definition)
    source = f"stacked deck {args.deck}" if deck else f"shuffled decks, seed {args.seed}"
    game = "" if definition is default_game() else f"{definition.name}: "  # the default goes unnamed
    print(f"{game}{args.games} AI-only games, {args.players} players, {source}")
    print(stats.report(seconds, random_seats))
    return 0


if __name__ == "__main__":
    sys.exit(main())
