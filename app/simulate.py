"""Play games of computer players only, through the rules, and print what happened.

    python -m app.simulate --games 1000 --players 3 [--game KEY] [--seed 7] [--deck FILE]
                           [--random-seats 2,3 | --strengths easy,normal,strong]
    python -m app.simulate --game KEY --games 1000 --ladder [--seed 7]

Every game goes through the game's protocol exactly as a real one does: ``new_state`` with
``AI`` names and the ``autoplay`` loop (the one the web and the terminals use), dealing on
between rounds. The game is the first registered one (Mason Rummy) unless ``--game`` names
another. Shuffled game number ``n`` uses the seed ``"<seed>/<n>"``, so a run is reproducible.
``--random-seats`` seats play the game's baseline player instead (Mason Rummy's
draws and lays down by R8.1/R8.2 but discards a random card, a seeded generator per game), which
measures the computer player's strategy. ``--random-discard`` is the same option under the name
Mason Rummy's README uses. ``--strengths`` seats a computer player of a strength in each seat, in
seat order (``easy``, ``normal``, ``strong``, or ``random``: the baseline player).

``--ladder`` measures the strengths against each other: each neighbouring pair of them, weakest
first (the baseline against the weakest, then each strength against the next), plays ``--games``
games at two seats, half of the deals played once more with the seats swapped so that neither
player gains from its seat (deal ``n`` is shuffled with the seed ``"<seed>/<n>"``). It prints
the stronger player's share of the games, a tie counting half a game to each, with its 95%
interval (Wilson's). A game played against the house (21: ``round_returns``) or by one player
alone is measured one strength at a time instead: each strength's mean return a round against
the house, or its share of games won, each with its 95% interval.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any, Sequence, TextIO

import app.games  # noqa: F401  (registers every game)
from app.core import registry
from app.core.autoplay import autoplay
from app.core.cards import Card
from app.core.decks import DeckError
from app.core.names import COMPUTER_NAME
from app.core.protocol import Bot, GameDefinition, GameState
from app.core.terminal import FileProblem, read_text_file

RANDOM = "random"  # the game's baseline player, named among the strengths


def bot_of(definition: GameDefinition, strength: str, rng: random.Random) -> Bot | None:
    """The computer player of ``strength``, or the baseline player (``RANDOM``) drawing from
    ``rng``; None if the game has none such."""
    return definition.baseline_bot(rng) if strength == RANDOM else definition.bot_of(strength)


def ladder_of(definition: GameDefinition) -> list[str]:
    """The players a ladder measures, weakest first: the baseline (if the game has one), then the
    game's strengths."""
    baseline = [RANDOM] if definition.baseline_bot(random.Random(0)) is not None else []
    return baseline + list(definition.strengths)


def play_bot_game(definition: GameDefinition, players: int, *, seed: int | str | None = None,
                  deck: Sequence[Card] | None = None, random_seats: Sequence[int] = (),
                  rng: random.Random | None = None, options: dict[str, Any] | None = None,
                  strengths: Sequence[str] = ()) -> GameState:
    """One whole game of computer seats, returned finished. ``strengths`` names each seat's
    player in seat order (a seat not named plays the normal one); ``random_seats`` (0-based) play
    the game's baseline player. The baseline players draw from ``rng``."""
    state = definition.new_state([COMPUTER_NAME] * players, options=definition.validate_options(options or {}),
                                 seed=None if deck is not None else seed, stacked_deck=deck)
    bots: dict[int, Bot | None] = dict.fromkeys(range(players), definition.bot)
    if strengths or random_seats:
        rng = rng or random.Random(f"{seed}/random")
        for seat, strength in enumerate(strengths):
            bots[seat] = bot_of(definition, strength, rng)
        if random_seats:
            bots.update(dict.fromkeys(random_seats, definition.baseline_bot(rng)))
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

    def report(self, seconds: float, random_seats: Sequence[int] = (), strengths: Sequence[str] = ()) -> str:
        games = max(self.games, 1)
        baseline = self.definition.baseline_label
        lines = ["seat  wins   win%  avg score"]
        for seat in range(self.players):
            if seat in random_seats or (seat < len(strengths) and strengths[seat] == RANDOM):
                tag = f"  ({baseline})"
            else:
                tag = f"  ({strengths[seat]})" if seat < len(strengths) else ""
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
        if len(set(strengths)) > 1:  # each strength's seats, as the strategy's above
            for strength in dict.fromkeys(strengths):
                seats = [seat for seat, named in enumerate(strengths) if named == strength]
                name = baseline if strength == RANDOM else strength
                wins = sum(self.wins[seat] for seat in seats) / len(seats)
                score = sum(self.scores[seat] for seat in seats) / len(seats)
                lines.append(f"{name}, per seat: {100 * wins / games:.1f}% wins, {score / games:.1f} average score")
        lines += self.definition.tally_lines(self.totals, self.games)
        lines.append(f"games per second: {self.games / seconds:.1f}" if seconds > 0 else "games per second: n/a")
        return "\n".join(lines)


def simulate(games: int, players: int, *, seed: int = 0, deck: Sequence[Card] | None = None,
             random_seats: Sequence[int] = (), definition: GameDefinition | None = None,
             strengths: Sequence[str] = ()) -> tuple[Stats, float]:
    """Play ``games`` games; return the totals and the seconds they took."""
    definition = definition or default_game()
    stats = Stats(players, definition)
    started = time.perf_counter()
    for number in range(games):
        game_seed = f"{seed}/{number}"
        stats.add(play_bot_game(definition, players, seed=game_seed, deck=deck, random_seats=random_seats,
                                rng=random.Random(f"{game_seed}/discards"), strengths=strengths))
    return stats, time.perf_counter() - started


# -- the ladder ------------------------------------------------------------------------------------------

Z95 = 1.959964  # the normal distribution's 97.5th percentile: a 95% interval


def wilson(share: float, games: int) -> tuple[float, float]:
    """Wilson's 95% interval of a share measured over ``games`` games."""
    if games <= 0:
        return 0.0, 1.0
    z2 = Z95 * Z95
    centre = (share + z2 / (2 * games)) / (1 + z2 / games)
    half = Z95 * math.sqrt(share * (1 - share) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean of ``values`` with its 95% interval (the normal approximation)."""
    count = len(values)
    if count == 0:
        return 0.0, 0.0, 0.0
    mean = sum(values) / count
    if count == 1:
        return mean, mean, mean
    spread = math.sqrt(sum((value - mean) ** 2 for value in values) / (count - 1) / count)
    return mean, mean - Z95 * spread, mean + Z95 * spread


@dataclass(frozen=True)
class Pairing:
    """Games of ``stronger`` against ``weaker`` at two seats: how many each won and how many were
    tied (every seat won: the lowest total shared, say)."""

    stronger: str
    weaker: str
    won: int
    lost: int
    tied: int

    @property
    def games(self) -> int:
        return self.won + self.lost + self.tied

    @property
    def share(self) -> float:
        """The stronger player's share of the games, a tie counting half."""
        return (self.won + self.tied / 2) / self.games if self.games else 0.0


def play_pairing(definition: GameDefinition, stronger: str, weaker: str, games: int, *, seed: int = 0,
                 options: dict[str, Any] | None = None) -> Pairing:
    """``games`` games of two seats, ``stronger`` against ``weaker``: deal ``n`` (seed
    ``"<seed>/<n>"``) is played with ``stronger`` in seat 1, then again in seat 2."""
    won = lost = tied = 0
    for number in range(games):
        deal, swapped = divmod(number, 2)
        game_seed = f"{seed}/{deal}"
        strengths = [weaker, stronger] if swapped else [stronger, weaker]
        state = play_bot_game(definition, 2, seed=game_seed, rng=random.Random(f"{game_seed}/discards"),
                              options=options, strengths=strengths)
        results = {result.seat: result.won for result in state.results()}
        mine, theirs = results[1 if swapped else 0], results[0 if swapped else 1]
        if mine and theirs:
            tied += 1
        elif mine:
            won += 1
        elif theirs:
            lost += 1
        else:
            tied += 1  # nobody won (a game a rule ends without a winner): neither gains
    return Pairing(stronger, weaker, won, lost, tied)


@dataclass(frozen=True)
class Alone:
    """One strength measured alone: against the house (``returns``: its return each round), or
    by itself (``won`` of ``games``). ``expected``: for a player that computes it
    (``expected_return``), the exact expected return of its first decision each round."""

    strength: str
    games: int
    won: int
    returns: tuple[int, ...] | None = None
    expected: tuple[float, ...] = ()


def play_alone(definition: GameDefinition, strength: str, games: int, *, seed: int = 0,
               options: dict[str, Any] | None = None) -> Alone:
    """``games`` games of one seat of ``strength``; against the house, its returns each round."""
    won = 0
    returns: list[int] | None = None
    expected: list[float] = []
    players = max(1, definition.min_seats)
    for number in range(games):
        game_seed = f"{seed}/{number}"
        rng = random.Random(f"{game_seed}/discards")
        bot = bot_of(definition, strength, rng)
        expected_return = getattr(bot, "expected_return", None)
        if expected_return is None:
            state = play_bot_game(definition, players, seed=game_seed, rng=rng, options=options,
                                  strengths=[strength] * players)
        else:
            state = definition.new_state([COMPUTER_NAME] * players, options=definition.validate_options(options or {}),
                                         seed=game_seed)
            while True:  # a round at a time: its first decision is the seat's first move after the deal
                if state.to_move() == 0:
                    expected.append(expected_return(state, 0))
                autoplay(state, lambda seat: bot)
                if state.is_over():
                    break
                state.apply(None, definition.action_from_dict(state.legal(None)[0].as_dict()))
        won += sum(1 for result in state.results() if result.seat == 0 and result.won)
        rounds = definition.round_returns(state, 0)
        if rounds is not None:
            returns = (returns or []) + list(rounds)
    return Alone(strength, games, won, tuple(returns) if returns is not None else None, tuple(expected))


def against_the_house(definition: GameDefinition) -> bool:
    """Whether the game is measured one player at a time (against the house, or alone) rather than
    head to head: a game of one seat, or one whose finished game says its rounds' returns."""
    if definition.max_seats < 2:
        return True
    state = play_bot_game(definition, definition.min_seats, seed="ladder")
    return definition.round_returns(state, 0) is not None


def name_of(definition: GameDefinition, strength: str) -> str:
    return definition.baseline_label if strength == RANDOM else strength


def pairing_line(definition: GameDefinition, pairing: Pairing) -> str:
    low, high = wilson(pairing.share, pairing.games)
    stronger, weaker = name_of(definition, pairing.stronger), name_of(definition, pairing.weaker)
    return (f"{stronger} against {weaker}: {stronger} wins {100 * pairing.share:.1f}% "
            f"[{100 * low:.1f}%, {100 * high:.1f}%] of {pairing.games} games "
            f"({pairing.won} won, {pairing.lost} lost, {pairing.tied} tied)")


def alone_line(definition: GameDefinition, alone: Alone) -> str:
    name = name_of(definition, alone.strength)
    if alone.returns is not None:
        mean, low, high = mean_interval(alone.returns)
        line = (f"{name}: {mean:+.3f} a round [{low:+.3f}, {high:+.3f}] over {len(alone.returns)} rounds "
                f"of {alone.games} games")
        if len(alone.expected) == len(alone.returns):
            # a round's return less its expectation has a spread of its own: the gap's interval
            gap, gap_low, gap_high = mean_interval([got - hoped for got, hoped in zip(alone.returns, alone.expected)])
            line += (f"; the exact expectation of its decisions over the same deals {mean - gap:+.3f}, "
                     f"measured less exact {gap:+.3f} [{gap_low:+.3f}, {gap_high:+.3f}]")
        return line
    share = alone.won / alone.games if alone.games else 0.0
    low, high = wilson(share, alone.games)
    return f"{name}: wins {100 * share:.1f}% [{100 * low:.1f}%, {100 * high:.1f}%] of {alone.games} games"


def ladder(definition: GameDefinition, games: int, *, seed: int = 0, out: TextIO | None = None) -> list[Pairing | Alone]:
    """Measure the game's strengths (``ladder_of``), printing a line each as it is measured."""
    out = out or sys.stdout
    players = ladder_of(definition)
    measured: list[Pairing | Alone] = []
    if against_the_house(definition):
        for strength in players:
            alone = play_alone(definition, strength, games, seed=seed)
            print(alone_line(definition, alone), file=out, flush=True)
            measured.append(alone)
        return measured
    for weaker, stronger in zip(players, players[1:]):
        pairing = play_pairing(definition, stronger, weaker, games, seed=seed)
        print(pairing_line(definition, pairing), file=out, flush=True)
        measured.append(pairing)
    return measured


def _positive(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"{number} is not a positive number of games")
    return number


def _strengths(text: str) -> list[str]:
    return [part.strip().lower() for part in text.split(",")]


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
    parser.add_argument("--games", type=_positive, required=True,
                        help="how many games to play (with --ladder: for each pair of players)")
    parser.add_argument("--players", type=int, help="seats per game (with --ladder: 2, the default)")
    parser.add_argument("--seed", type=int, default=0, help="seed for the shuffles (default 0)")
    parser.add_argument("--deck", metavar="FILE", help="play every game with this stacked deck file")
    parser.add_argument("--random-seats", "--random-discard", dest="random_seats", metavar="SEATS", type=_seats,
                        default=[], help="seats (1-based, comma separated) that play the game's baseline "
                                         "(random) player, e.g. 2 or 2,3")
    parser.add_argument("--strengths", metavar="STRENGTHS", type=_strengths, default=[],
                        help="each seat's player in seat order: easy, normal, strong, or random (the "
                             "baseline), e.g. easy,strong")
    parser.add_argument("--ladder", action="store_true",
                        help="measure each strength against the next, weakest first, at two seats (each "
                             "deal played twice, the seats swapped), and print each one's share of the games "
                             "with its 95%% interval")
    args = parser.parse_args(argv)
    definition = registry.get(args.game)
    if args.ladder:
        return _main_ladder(parser, args, definition)
    if args.players is None:
        parser.error("the following arguments are required: --players")
    if not definition.min_seats <= args.players <= definition.max_seats:
        choices = ", ".join(str(n) for n in range(definition.min_seats, definition.max_seats + 1))
        parser.error(f"argument --players: invalid choice: {args.players} (choose from {choices})")
    if any(not 1 <= seat <= args.players for seat in args.random_seats):
        parser.error(f"argument --random-seats: seats are numbered 1 to {args.players}")
    if args.random_seats and definition.baseline_bot(random.Random()) is None:
        parser.error(f"argument --random-seats: {definition.name} has no baseline player")
    if args.strengths:
        if args.random_seats:
            parser.error("argument --strengths: not with --random-seats (name the seat random instead)")
        if len(args.strengths) != args.players:
            parser.error(f"argument --strengths: name one player for each of the {args.players} seats")
        _check_strengths(parser, definition, args.strengths)
    deck = None
    if args.deck is not None:
        try:
            deck = definition.parse_deck(read_text_file(args.deck, what="deck file"), args.players)
        except (FileProblem, DeckError) as error:
            parser.error(f"argument --deck: {error}")
    random_seats = [seat - 1 for seat in args.random_seats]
    stats, seconds = simulate(args.games, args.players, seed=args.seed, deck=deck, random_seats=random_seats,
                              definition=definition, strengths=args.strengths)
    source = f"stacked deck {args.deck}" if deck else f"shuffled decks, seed {args.seed}"
    game = "" if definition is default_game() else f"{definition.name}: "  # the default goes unnamed
    print(f"{game}{args.games} AI-only games, {args.players} players, {source}")
    print(stats.report(seconds, random_seats, args.strengths))
    return 0


def _check_strengths(parser: argparse.ArgumentParser, definition: GameDefinition, strengths: Sequence[str]) -> None:
    known = ladder_of(definition)
    for strength in strengths:
        if strength not in known:
            parser.error(f"argument --strengths: {definition.name} has no {strength!r} player "
                         f"(choose from {', '.join(known)})")


def _main_ladder(parser: argparse.ArgumentParser, args: argparse.Namespace, definition: GameDefinition) -> int:
    if args.random_seats or args.strengths or args.deck:
        parser.error("argument --ladder: it seats its own players on shuffled decks (no --random-seats, "
                     "--strengths or --deck)")
    alone = against_the_house(definition)
    seats = max(1, definition.min_seats) if alone else 2
    if args.players is not None and args.players != seats:
        parser.error(f"argument --players: the ladder of {definition.name} plays {seats} "
                     f"seat{'s' if seats > 1 else ''}")
    if len(ladder_of(definition)) < 2:
        parser.error(f"argument --ladder: {definition.name} has one computer player only")
    if not alone and args.games % 2:
        parser.error("argument --games: the ladder plays each deal twice, the seats swapped: give an even number")
    started = time.perf_counter()
    if alone:
        print(f"{definition.name}: the ladder, {args.games} games for each player alone at its seat, "
              f"shuffled decks, seed {args.seed}")
    else:
        print(f"{definition.name}: the ladder, {args.games} games for each pair of players at two seats "
              f"({args.games // 2} deals, each played twice, the seats swapped), shuffled decks, seed {args.seed}")
        print("each line: the stronger player's share of the games, a tie counting half a game to each, "
              "with its 95% interval (Wilson)")
    ladder(definition, args.games, seed=args.seed)
    print(f"seconds: {time.perf_counter() - started:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
