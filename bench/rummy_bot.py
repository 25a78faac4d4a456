"""Classic Rummy's computer player (C6.3) against a random discard, and the tuning of its weights.

    .venv/bin/python bench/rummy_bot.py [--games 1000] [--seed 1]
    .venv/bin/python bench/rummy_bot.py --tuning [--games 1000]

Every game is played through ``autoplay`` by the definition's ``bot`` and ``baseline_bot(rng)``
(the same draws and plays, C6.1 and C6.2, but a random discard), shuffled with the seeds
``"<seed>/<game>"``. The seats rotate: in game g the lone seat is seat g mod N.

- one strategy seat against N-1 random ones, and one random seat against N-1 strategy ones,
  for 2, 4 and 6 seats: the win rate of each kind of seat (a fair share is 1/N);
- ``--tuning``: the variants tried, each in half of the seats against the chosen weights in the
  other half (a fair share per seat is 1/N: above it, the variant is the better).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import app.games  # noqa: E402,F401
from app.core import registry  # noqa: E402
from app.core.autoplay import autoplay  # noqa: E402
from app.games.rummy.bot import ComputerPlayer, Weights  # noqa: E402

RUMMY = registry.get("rummy")

VARIANTS = {
    "points only (no keep values)": Weights(pair=0, near=0, gap=0, feed=0, danger=0, late=1, live="none"),
    "every unseen card counted live": Weights(live="none"),
    "seen cards never live again": Weights(live="seen"),
    "first weights (pair 10, near 8, gap 4)": Weights(pair=10, near=8, gap=4),
    "late points at every table": Weights(late_players=6),
    "no late points": Weights(late=1),
    "no feed or danger": Weights(feed=0, danger=0),
    "pair 14, near 12": Weights(pair=14, near=12),
    "gap 9": Weights(gap=9),
    "late x4": Weights(late=4),
}


def play(seats: int, games: int, seed: int, lone, rest, lone_seats: int = 1) -> tuple[float, float]:
    """Win rate per seat of the ``lone_seats`` seats played by ``lone(rng)`` and of the others."""
    lone_wins = rest_wins = 0
    for number in range(games):
        rng = random.Random(f"{seed}/{number}/baseline")
        lone_bot, rest_bot = lone(rng), rest(rng)
        chosen = {(number + k) % seats for k in range(lone_seats)}
        bots = [lone_bot if seat in chosen else rest_bot for seat in range(seats)]
        state = RUMMY.new_state(["AI"] * seats, seed=f"{seed}/{number}")
        autoplay(state, lambda seat: bots[seat], deal_on=True)
        if state.winner in chosen:
            lone_wins += 1
        else:
            rest_wins += 1
    return lone_wins / games / lone_seats, rest_wins / games / (seats - lone_seats)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tuning", action="store_true")
    args = parser.parse_args(argv)
    strategy = lambda rng: RUMMY.bot  # noqa: E731
    baseline = RUMMY.baseline_bot
    started = time.perf_counter()
    if not args.tuning:
        print(f"{args.games} games per line, seeds '{args.seed}/<game>'; win rate per seat (fair share 1/N)")
        print("seats  one strategy seat vs random   one random seat vs strategy")
        for seats in (2, 4, 6):
            alone, others = play(seats, args.games, args.seed, strategy, baseline)
            random_alone, strategy_rest = play(seats, args.games, args.seed, baseline, strategy)
            print(f"{seats:>5}  strategy {100 * alone:5.1f}%, random {100 * others:5.1f}%"
                  f"   random {100 * random_alone:5.1f}%, strategy {100 * strategy_rest:5.1f}%")
    else:
        print(f"{args.games} games per figure; each variant in half the seats, the chosen weights in the other "
              f"half; win rate per variant seat (fair: 50% / 25% / 16.7%)")
        for name, weights in VARIANTS.items():
            variant = ComputerPlayer(weights)
            figures = []
            for seats in (2, 4, 6):
                share, _ = play(seats, args.games, args.seed, lambda rng: variant, strategy, lone_seats=seats // 2)
                figures.append(f"{seats} seats {100 * share:5.1f}%")
            print(f"{name:40s} " + "   ".join(figures), flush=True)
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
