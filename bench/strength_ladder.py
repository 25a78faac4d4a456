"""The computer players' strengths measured as a ladder (a simulation: it prints, it never fails).

    .venv/bin/python bench/strength_ladder.py --game points [--games 1000] [--seed 1]
    .venv/bin/python bench/strength_ladder.py --game twentyone [--games 20000] [--seed 1] [--exact]
    .venv/bin/python bench/strength_ladder.py --game points --cpu 200    # CPU of each move, per strength

A game played between the seats (Points Rummy) is measured head to head, two seats: strong
against normal, normal against easy, easy against the random baseline (``baseline_bot``). Game
number n is shuffled with the seed ``"<seed>/<n>"`` and played twice, each player in each seat
(``--games`` seeds: twice as many games); a player's share is its wins (a tie counts half) over
the games, with its Wilson 95% interval.

A game against the house (21: ``round_returns``) is measured one seat alone at the table, each
strength over the same ``--games`` games (seeds ``"<seed>/<n>"``, the default options: 5 rounds
each): the mean return per round (+1 won, 0 tied, -1 lost) with its 95% interval.
``--exact`` also prints, for a player that can say it (``expected_return(state, seat)``: 21's
strong player), the mean over the rounds of the exact expected return of its first decision,
beside its measured mean.

``--cpu N``: the CPU time of every move of each strength over N games (process time; median,
p90, p99 and max, milliseconds), in the same games as the ladder plays them.

Every game goes through ``new_state`` and the ``autoplay`` loop as the simulator plays them
(``app/simulate.py``), dealing on between rounds.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import app.games  # noqa: E402,F401  (registers every game)
from app.core import registry  # noqa: E402
from app.core.autoplay import autoplay  # noqa: E402
from app.core.names import COMPUTER_NAME  # noqa: E402
from app.core.protocol import EASY, NORMAL, STRONG, Bot, GameDefinition, GameState  # noqa: E402

BASELINE = "baseline"
PAIRINGS = ((STRONG, NORMAL), (NORMAL, EASY), (EASY, BASELINE))
Z = 1.959963984540054  # the 95% quantile of a normal distribution, two-sided


def wilson(successes: float, trials: int) -> tuple[float, float]:
    """Wilson's 95% score interval of a share."""
    if not trials:
        return 0.0, 1.0
    share = successes / trials
    centre = share + Z * Z / (2 * trials)
    spread = Z * math.sqrt(share * (1 - share) / trials + Z * Z / (4 * trials * trials))
    scale = 1 + Z * Z / trials
    return (centre - spread) / scale, (centre + spread) / scale


def player(definition: GameDefinition, strength: str, game_seed: str) -> Bot:
    if strength == BASELINE:
        bot = definition.baseline_bot(random.Random(f"{game_seed}/discards"))
    else:
        bot = definition.bot_of(strength)
    if bot is None:
        raise SystemExit(f"{definition.name} has no {strength} player")
    return bot


class Timed:
    """A bot whose every choice's CPU time is kept (``seconds``)."""

    def __init__(self, bot: Bot, seconds: list[float]):
        self.bot = bot
        self.seconds = seconds

    def choose(self, state: GameState, seat: int) -> object:
        started = time.process_time()
        action = self.bot.choose(state, seat)
        self.seconds.append(time.process_time() - started)
        return action


def play(definition: GameDefinition, seats: list[Bot], game_seed: str) -> GameState:
    state = definition.new_state([COMPUTER_NAME] * len(seats), options=definition.validate_options({}),
                                 seed=game_seed)
    autoplay(state, lambda seat: seats[seat], deal_on=True)
    return state


def head_to_head(definition: GameDefinition, first: str, second: str, games: int, seed: int,
                 timings: dict[str, list[float]] | None = None) -> dict[str, float]:
    """``games`` seeds, each played twice (``first`` in seat 1, then in seat 2): wins, ties."""
    wins = ties = 0
    for number in range(games):
        game_seed = f"{seed}/{number}"
        for first_seat in (0, 1):
            bots = {first: player(definition, first, game_seed), second: player(definition, second, game_seed)}
            if timings is not None:
                bots = {strength: Timed(bot, timings.setdefault(strength, [])) for strength, bot in bots.items()}
            seats = [bots[first], bots[second]] if first_seat == 0 else [bots[second], bots[first]]
            results = play(definition, seats, game_seed).results()
            won = [result.won for result in results]
            if won[first_seat] and won[1 - first_seat]:
                ties += 1
            elif won[first_seat]:
                wins += 1
    played = 2 * games
    share = (wins + ties / 2) / played
    low, high = wilson(wins + ties / 2, played)
    return {"games": played, "wins": wins, "ties": ties, "losses": played - wins - ties, "share": share,
            "low": low, "high": high}


def house_returns(definition: GameDefinition, strength: str, games: int, seed: int, exact: bool = False,
                  timings: list[float] | None = None) -> dict[str, float]:
    """One seat of ``strength`` alone at the table over ``games`` games: its returns per round."""
    returns: list[int] = []
    expected: list[float] = []
    bot = player(definition, strength, f"{seed}")
    measured: Bot = Timed(bot, timings) if timings is not None else bot
    expected_return: Callable[[GameState, int], float] | None = getattr(bot, "expected_return", None)
    for number in range(games):
        state = definition.new_state([COMPUTER_NAME], options=definition.validate_options({}),
                                     seed=f"{seed}/{number}")
        while True:  # a round at a time: its first decision is the seat's first move after the deal
            if expected_return is not None and exact and state.to_move() == 0:
                expected.append(expected_return(state, 0))
            autoplay(state, lambda seat: measured)
            if state.is_over():
                break
            state.apply(None, definition.action_from_dict(state.legal(None)[0].as_dict()))
        found = definition.round_returns(state, 0)
        assert found is not None
        returns += found
    mean = statistics.fmean(returns)
    spread = Z * statistics.pstdev(returns) / math.sqrt(len(returns))
    figures = {"rounds": len(returns), "mean": mean, "low": mean - spread, "high": mean + spread,
               "won": returns.count(1) / len(returns), "lost": returns.count(-1) / len(returns)}
    if expected:
        figures["exact"] = statistics.fmean(expected)
        figures["exact_rounds"] = len(expected)
        # the measured mean less the exact one: a round's return less its expectation has a
        # spread of its own, which gives the interval of the difference
        gaps = [returned - hoped for returned, hoped in zip(returns, expected)]
        figures["gap_spread"] = Z * statistics.pstdev(gaps) / math.sqrt(len(gaps))
    return figures


def cpu_line(strength: str, seconds: list[float]) -> str:
    milli = sorted(1000 * value for value in seconds)
    if not milli:
        return f"  {strength:7s} no moves"

    def at(fraction: float) -> float:
        return milli[min(len(milli) - 1, int(fraction * len(milli)))]

    return (f"  {strength:7s} {len(milli):7d} moves: median {statistics.median(milli):7.3f} ms, p90 {at(0.9):7.3f}, "
            f"p99 {at(0.99):7.3f}, max {milli[-1]:7.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True, choices=[game.key for game in registry.games() if game.other_bots])
    parser.add_argument("--games", type=int, default=None, help="seeds (head to head: each played twice)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--exact", action="store_true", help="a house game: the exact expectation beside the mean")
    parser.add_argument("--cpu", type=int, default=0, help="only the CPU of each move, over this many games")
    parser.add_argument("--strengths", default=None, help="the house game's strengths (comma separated)")
    args = parser.parse_args()
    definition = registry.get(args.game)
    house = definition.round_returns(definition.new_state([COMPUTER_NAME] * definition.min_seats, seed=0), 0) is not None
    print(f"{definition.name}, seed {args.seed}, Python {sys.version.split()[0]}, "
          f"load average {os.getloadavg()[0]:.1f}")
    started = time.perf_counter()
    if args.cpu:
        timings: dict[str, list[float]] = {}
        if house:
            for strength in definition.strengths:
                house_returns(definition, strength, args.cpu, args.seed, timings=timings.setdefault(strength, []))
        else:
            for first, second in PAIRINGS[:2]:
                head_to_head(definition, first, second, args.cpu, args.seed, timings=timings)
        print(f"CPU per move over {args.cpu} {'games' if house else 'seeds'} (process time):")
        for strength in definition.strengths:
            print(cpu_line(strength, timings.get(strength, [])))
    elif house:
        games = args.games or 20000
        strengths = args.strengths.split(",") if args.strengths else list(definition.strengths)
        print(f"One seat against the dealer, {games} games each (seeds {args.seed}/0-{games - 1}):")
        for strength in strengths:
            figures = house_returns(definition, strength, games, args.seed, exact=args.exact)
            print(f"  {strength:7s} {figures['mean']:+.4f} per round, 95% [{figures['low']:+.4f}, {figures['high']:+.4f}] "
                  f"over {figures['rounds']:.0f} rounds (won {figures['won']:.1%}, lost {figures['lost']:.1%})")
            if "exact" in figures:
                print(f"          exact expected return of its first decisions: {figures['exact']:+.4f} "
                      f"(measured less exact {figures['mean'] - figures['exact']:+.4f} "
                      f"+- {figures['gap_spread']:.4f}, over {figures['exact_rounds']:.0f} rounds)")
    else:
        games = args.games or 1000
        print(f"Head to head, two seats, {games} seeds each played in both seat orders "
              f"({2 * games} games a pairing):")
        for first, second in PAIRINGS:
            figures = head_to_head(definition, first, second, games, args.seed)
            print(f"  {first} against {second}: {figures['share']:.1%} (95% [{figures['low']:.1%}, {figures['high']:.1%}]), "
                  f"won {figures['wins']:.0f}, lost {figures['losses']:.0f}, tied {figures['ties']:.0f} "
                  f"of {figures['games']:.0f}")
    print(f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
