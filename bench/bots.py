"""The computer players' CPU time per move, each strength of every game that has several.

    .venv/bin/python bench/bots.py [--games 20] [--game KEY ...] [--seed 1]

For each game with computer players of several strengths (``GameDefinition.strengths``), and each
strength, ``--games`` whole two-seat games (one seat for a game of one seat) are played with that
strength in the first seat and the rule book's normal player in the others, shuffled with the
seeds ``"<seed>/<game>"``. Every ``choose`` of the measured seat is timed with
``time.process_time`` (CPU time: waiting for a busy core does not count). It prints, per
strength, the moves timed and their median, 99th percentile and maximum CPU in milliseconds,
beside normal's. The goal (a strong player must not stall the table): a strong move costs at
most 50 ms at the median and 250 ms at the most. A benchmark: it prints, it never fails.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import app.games  # noqa: E402,F401  (registers every game)
from app.core import registry  # noqa: E402
from app.core.names import COMPUTER_NAME  # noqa: E402

MEDIAN_GOAL, MAX_GOAL = 50.0, 250.0  # milliseconds of a strong move


def move_times(definition, strength: str, games: int, seed: int) -> list[float]:
    """CPU seconds of every move the ``strength`` player chose in seat 1."""
    bot = definition.bot_of(strength)
    seats = 2 if definition.max_seats >= 2 else 1
    times: list[float] = []
    for number in range(games):
        state = definition.new_state([COMPUTER_NAME] * seats, options=definition.validate_options({}),
                                     seed=f"{seed}/{number}")
        while not state.is_over():
            seat = state.to_move()
            if seat is None:
                state.apply(None, definition.action_from_dict(state.legal(None)[0].as_dict()))
                continue
            player = bot if seat == 0 else definition.bot
            started = time.process_time()
            action = player.choose(state, seat)
            if seat == 0:
                times.append(time.process_time() - started)
            state.apply(seat, action)
    return times


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="CPU time per move of each strength's computer player.")
    parser.add_argument("--games", type=int, default=20, help="games per strength (default 20)")
    parser.add_argument("--game", action="append", dest="games_named", metavar="KEY",
                        help="only this game (repeatable; default: every game with several strengths)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    definitions = [definition for definition in registry.games()
                   if len(definition.strengths) > 1 and (not args.games_named or definition.key in args.games_named)]
    print(f"CPU per move (time.process_time), {args.games} games per strength, the strength in seat 1 against "
          f"normal, seeds '{args.seed}/<game>'; goal for strong: median <= {MEDIAN_GOAL:.0f} ms, "
          f"max <= {MAX_GOAL:.0f} ms")
    print(f"{'game':<22} {'strength':<8} {'moves':>6} {'median ms':>10} {'p99 ms':>8} {'max ms':>8}")
    started = time.process_time()
    for definition in definitions:
        for strength in definition.strengths:
            times = move_times(definition, strength, args.games, args.seed)
            median, p99, most = (1000 * statistics.median(times), 1000 * percentile(times, 0.99),
                                 1000 * max(times))
            verdict = ""
            if strength == "strong":
                met = median <= MEDIAN_GOAL and most <= MAX_GOAL
                verdict = "  goal met" if met else "  goal NOT met"
            print(f"{definition.name:<22} {strength:<8} {len(times):>6} {median:>10.3f} {p99:>8.2f} {most:>8.2f}"
                  f"{verdict}", flush=True)
    print(f"({time.process_time() - started:.0f} s of CPU; load average {os.getloadavg()[0]:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
