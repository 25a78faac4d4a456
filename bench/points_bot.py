"""Points Rummy's computer player against a player that discards at random (P7.3).

    .venv/bin/python bench/points_bot.py                # 1,000 two-player deals, seeds 0-999
    .venv/bin/python bench/points_bot.py --deals 300 --players 3

Each deal is one game of one deal (the default), shuffled with a fixed seed; the computer player
sits in seat 1 for even seeds and in seat 2 for odd ones (the first player alternates). It is
measured twice: with the P7.2 drop of hopeless hands and without. A simulation: it prints, it
never fails.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.core.autoplay import autoplay  # noqa: E402
from app.games.points import POINTS_RUMMY  # noqa: E402
from app.games.points.bot import PointsBot, RandomDiscardBot  # noqa: E402


def play(deals: int, players: int, bot: PointsBot) -> dict:
    won = points = drops = wrong = actions = 0
    opponent_drops = 0
    results = []
    for seed in range(deals):
        seat = seed % players
        baseline = RandomDiscardBot(random.Random(f"baseline/{seed}"))
        state = POINTS_RUMMY.new_state(["AI"] * players, seed=seed)
        outcomes = autoplay(state, lambda s: bot if s == seat else baseline, deal_on=True)
        actions += len(outcomes)
        result = state.deal_results[-1]
        row = result["rows"][seat]
        won += result["winner"] == seat
        points += row["result"]
        results.append(row["result"])
        drops += row["reason"].endswith("drop")
        wrong += row["reason"] == "wrong declaration"
        opponent_drops += sum(1 for other in result["rows"] if other["seat"] != seat and other["reason"].endswith("drop"))
    return {"won": won, "net": points, "mean": points / deals, "median": statistics.median(results),
            "drops": drops, "wrong": wrong, "actions": actions / deals, "opponent_drops": opponent_drops}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    print(f"Points Rummy: the computer player against {args.players - 1} random discarder(s), "
          f"{args.deals} deals (seeds 0-{args.deals - 1})")
    for label, bot in (("drops hopeless hands (P7.2)", PointsBot(drop_hopeless=True)),
                       ("never drops", PointsBot(drop_hopeless=False))):
        start = time.perf_counter()
        figures = play(args.deals, args.players, bot)
        seconds = time.perf_counter() - start
        print(f"- computer player, {label}: won {figures['won']} of {args.deals} deals "
              f"({100 * figures['won'] / args.deals:.1f}%), net {figures['net']:+d} points "
              f"({figures['mean']:+.1f} a deal, median {figures['median']:+g}), "
              f"drops {figures['drops']}, wrong declarations {figures['wrong']}, "
              f"{figures['actions']:.1f} actions a deal; {args.deals / seconds:.0f} deals/s")


if __name__ == "__main__":
    main()
