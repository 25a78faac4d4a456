"""Play AI-only games through the rules module and print what happened.

    python -m app.simulate --games 1000 --players 3 [--seed 7] [--deck FILE] [--random-discard 2,3]

Every game goes through ``Game.apply`` exactly as a real one does: ``Game.new`` with ``AI``
names, ``play_computer_turn`` for each turn (what ``ComputerPlayer.take_turn`` runs), and
``NextRound`` between rounds. Shuffled game number ``n`` uses the seed ``"<seed>/<n>"``, so a
run is reproducible. ``--random-discard`` seats still draw and lay down by R8.1/R8.2 but discard
a random card (a seeded generator per game), which measures the R8.3 discard strategy.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Sequence

from app.rules import ROUND_OVER, Game, NextRound
from app.rules.cards import Card
from app.rules.decks import DeckError, read_deck_file
from app.rules.players import COMPUTER_NAME, play_computer_turn, random_discard_chooser


def play_ai_game(players: int, *, seed: int | str | None = None, deck: Sequence[Card] | None = None,
                 random_seats: Sequence[int] = (), rng: random.Random | None = None) -> Game:
    """Play one whole AI-only game and return it finished. ``random_seats`` (0-based) discard with
    ``random_discard_chooser(rng)`` instead of the R8.3 strategy."""
    game = Game.new([COMPUTER_NAME] * players, stacked_deck=deck, seed=seed)
    chooser = random_discard_chooser(rng or random.Random(f"{seed}/discards"))
    choosers = dict.fromkeys(random_seats, chooser)
    while not game.is_over:
        for outcome in play_computer_turn(game, game.turn, choosers.get(game.turn)):
            if outcome.round_over:
                break  # the turn's generator is dropped: nothing more to play this round
        if game.phase == ROUND_OVER:
            game.apply(None, NextRound())
    return game


class Stats:
    """Totals over many finished games."""

    def __init__(self, players: int):
        self.players = players
        self.games = self.rounds = self.turns = self.blocked = 0
        self.wins = [0] * players  # per seat
        self.scores = [0] * players  # per seat, summed game scores

    def add(self, game: Game) -> None:
        self.games += 1
        for seat in game.winners():  # R7.3: every seat tied for the lowest score wins
            self.wins[seat] += 1
        for seat, player in enumerate(game.players):
            self.scores[seat] += player.score
        self.rounds += len(game.round_turns)
        self.turns += sum(game.round_turns)
        # A blocked round (R7.2) is the only one where nobody scored 0: the player who went out
        # adds 0 (R7.1), and any hand that still holds a card is worth at least 2 points.
        self.blocked += sum(1 for points in game.round_scores if 0 not in points)

    def report(self, seconds: float, random_seats: Sequence[int] = ()) -> str:
        games = max(self.games, 1)
        lines = ["seat  wins   win%  avg score"]
        for seat in range(self.players):
            tag = "  (random discards)" if seat in random_seats else ""
            lines.append(f"{seat + 1:>4}  {self.wins[seat]:>4}  {100 * self.wins[seat] / games:5.1f}"
                         f"  {self.scores[seat] / games:9.1f}{tag}")
        if random_seats and len(random_seats) < self.players:  # the R8.3 strategy against random
            strategy_seats = [seat for seat in range(self.players) if seat not in random_seats]
            for name, seats in (("strategy", strategy_seats), ("random", random_seats)):
                wins = sum(self.wins[seat] for seat in seats) / len(seats)
                score = sum(self.scores[seat] for seat in seats) / len(seats)
                lines.append(f"{name} discards, per seat: {100 * wins / games:.1f}% wins, "
                             f"{score / games:.1f} average score")
        lines.append(f"average turns per round: {self.turns / max(self.rounds, 1):.1f}")
        lines.append(f"blocked rounds: {self.blocked} of {self.rounds}")
        lines.append(f"games per second: {self.games / seconds:.1f}" if seconds > 0 else "games per second: n/a")
        return "\n".join(lines)


def simulate(games: int, players: int, *, seed: int = 0, deck: Sequence[Card] | None = None,
             random_seats: Sequence[int] = ()) -> tuple[Stats, float]:
    """Play ``games`` games; return the totals and the seconds they took."""
    stats = Stats(players)
    started = time.perf_counter()
    for number in range(games):
        game_seed = f"{seed}/{number}"
        stats.add(play_ai_game(players, seed=None if deck else game_seed, deck=deck,
                               random_seats=random_seats, rng=random.Random(f"{game_seed}/discards")))
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
    parser = argparse.ArgumentParser(prog="python -m app.simulate", description="Play AI-only games and print statistics.")
    parser.add_argument("--games", type=_positive, required=True, help="how many games to play")
    parser.add_argument("--players", type=int, choices=(2, 3), required=True, help="seats per game")
    parser.add_argument("--seed", type=int, default=0, help="seed for the shuffles (default 0)")
    parser.add_argument("--deck", metavar="FILE", help="play every game with this stacked .deck file (R2)")
    parser.add_argument("--random-discard", metavar="SEATS", type=_seats, default=[],
                        help="seats (1-based, comma separated) that discard at random, e.g. 2 or 2,3")
    args = parser.parse_args(argv)
    if any(not 1 <= seat <= args.players for seat in args.random_discard):
        parser.error(f"argument --random-discard: seats are numbered 1 to {args.players}")
    deck = None
    if args.deck is not None:
        try:
            deck = read_deck_file(args.deck)
        except DeckError as error:
            parser.error(f"argument --deck: {error}")
    random_seats = [seat - 1 for seat in args.random_discard]
    stats, seconds = simulate(args.games, args.players, seed=args.seed, deck=deck, random_seats=random_seats)
    source = f"stacked deck {args.deck}" if deck else f"shuffled decks, seed {args.seed}"
    print(f"{args.games} AI-only games, {args.players} players, {source}")
    print(stats.report(seconds, random_seats))
    return 0


if __name__ == "__main__":
    sys.exit(main())
