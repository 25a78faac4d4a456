"""21 benchmark (not a test): engine speed, and the computer player against the random baseline.

    .venv/bin/python bench/twentyone_bots.py [--games 300] [--rounds 20000] [--repeat 5]

1. Speed: whole bots-only games (default options: 5 rounds) of 1 and 5 seats through
   ``autoplay`` with ``deal_on``, as the generic test and a simulation play them. Prints games
   per second (median and best of ``--repeat`` runs, wall clock and per CPU second) and the time
   of one ``apply`` (median, p99, max, microseconds) over every action of those games.
2. Strength: one seat plays ``--rounds`` rounds against the dealer from the same seed for every
   player measured (the same deck to start with; the deals part as players hit differently), with the computer player (hit while 16 or less), the random baseline
   (``baseline_bot``) and, for comparison, every other fixed threshold from "stand on 12" to
   "stand on 19". Prints rounds won, lost and tied, and won minus lost per 100 rounds.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import app.games  # noqa: E402,F401  (registers every game)
from app.core import registry  # noqa: E402
from app.core.autoplay import autoplay  # noqa: E402
from app.games.twentyone import Deal, DealerRule  # noqa: E402

GAME = registry.get("twentyone")


def play_games(seats: int, games: int, timings: list[float] | None = None) -> tuple[float, float]:
    """Wall-clock and CPU seconds for ``games`` whole bots-only games; ``timings`` collects the
    seconds of every ``apply``."""
    bot = GAME.bot
    started, cpu_started = time.perf_counter(), time.process_time()
    for seed in range(games):
        state = GAME.new_state(["AI"] * seats, options=GAME.validate_options({}), seed=f"bench/{seed}")
        if timings is None:
            autoplay(state, lambda seat: bot, deal_on=True)
            continue
        while not state.is_over():
            seat = state.to_move()
            action = Deal() if seat is None else bot.choose(state, seat)
            before = time.perf_counter()
            state.apply(seat, action)
            timings.append(time.perf_counter() - before)
    return time.perf_counter() - started, time.process_time() - cpu_started


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def speed(games: int, repeat: int) -> None:
    print(f"Speed: {games} whole games (5 rounds) per run, {repeat} runs")
    for seats in (1, 5):
        wall, cpu = [], []
        for _ in range(repeat):
            seconds, cpu_seconds = play_games(seats, games)
            wall.append(games / seconds)
            cpu.append(games / cpu_seconds if cpu_seconds else float("inf"))
        timings: list[float] = []
        play_games(seats, games, timings)
        micro = [seconds * 1e6 for seconds in timings]
        print(f"  {seats} seat{'s' if seats > 1 else ' '}: {statistics.median(wall):8.0f} games/s median "
              f"(best {max(wall):.0f}), {statistics.median(cpu):8.0f} per CPU second; apply: median "
              f"{statistics.median(micro):.0f} us, p99 {percentile(micro, 0.99):.0f} us, max {max(micro):.0f} us "
              f"over {len(micro)} actions")


def strength(rounds: int) -> None:
    print(f"Strength: one seat, {rounds} rounds against the dealer, the same seed for each player")
    players = [("computer player (stand on 17)", lambda rng: GAME.bot),
               ("random baseline", lambda rng: GAME.baseline_bot(rng))]
    players += [(f"stand on {limit}", lambda rng, limit=limit: DealerRule(limit))
                for limit in range(12, 20) if limit != 17]
    for label, make in players:
        bot = make(random.Random("bench/baseline"))
        state = GAME.new_state(["AI"], options={"rounds": 0}, seed="bench/strength")
        started = time.perf_counter()
        while state.round_number < rounds or state.to_move() is not None:
            seat = state.to_move()
            state.apply(seat, Deal() if seat is None else bot.choose(state, seat))
        seconds = time.perf_counter() - started
        tally = state.tally(0)
        print(f"  {label:30s} won {tally['won'] / rounds:6.1%}  lost {tally['lost'] / rounds:6.1%}  "
              f"tied {tally['tied'] / rounds:6.1%}  won-lost per 100 rounds {100 * (tally['won'] - tally['lost']) / rounds:+6.1f}"
              f"  ({rounds / seconds:.0f} rounds/s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.1f}")
    speed(args.games, args.repeat)
    strength(args.rounds)


if __name__ == "__main__":
    main()
