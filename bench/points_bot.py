"""Points Rummy's computer player against a player that discards at random (P7.3).

    .venv/bin/python bench/points_bot.py                # 1,000 two-player deals, seeds 0-999
    .venv/bin/python bench/points_bot.py --deals 300 --players 3

    .venv/bin/python bench/points_bot.py --hopeless 400000   # P7.2: play out or drop hopeless hands

Each deal is one game of one deal (the default), shuffled with a fixed seed; the computer player
sits in seat 1 for even seeds and in seat 2 for odd ones (the first player alternates). It is
measured twice: as it plays (hopeless hands played out) and dropping hopeless hands (P7.2).
``--hopeless N`` looks through the first N seeds of two-player deals for a hopeless first hand in
seat 1 and plays each such deal both ways, against the computer player and against the random
discarder. A simulation: it prints, it never fails.
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
from app.games.points import DEFINITION as POINTS_RUMMY  # noqa: E402
from app.games.points.bot import PointsBot, RandomDiscardBot, hopeless  # noqa: E402


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


def hopeless_hands(seeds: int) -> None:
    found = [seed for seed in range(seeds)
             if hopeless(POINTS_RUMMY.new_state(["AI", "AI"], seed=seed).hands[0],
                         POINTS_RUMMY.new_state(["AI", "AI"], seed=seed).wild_rank)]
    print(f"P7.2: {len(found)} hopeless first hands in seat 1 among {seeds} two-player deals "
          f"({100 * len(found) / seeds:.3f}%)")
    for opponent_name in ("the computer player", "the random discarder"):
        for label, drop in (("played out", False), ("dropped", True)):
            total = 0
            for seed in found:
                state = POINTS_RUMMY.new_state(["AI", "AI"], seed=seed)
                me = PointsBot(drop_hopeless=drop)
                opponent = PointsBot() if opponent_name == "the computer player" else RandomDiscardBot(random.Random(seed))
                autoplay(state, lambda seat: me if seat == 0 else opponent, deal_on=True)
                total += state.deal_results[-1]["rows"][0]["result"]
            print(f"- against {opponent_name}, hopeless hands {label}: {total / max(1, len(found)):+.1f} points a deal")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--hopeless", type=int, default=0, help="seeds to search for hopeless hands (P7.2)")
    args = parser.parse_args()
    if args.hopeless:
        hopeless_hands(args.hopeless)
        return
    print(f"Points Rummy: the computer player against {args.players - 1} random discarder(s), "
          f"{args.deals} deals (seeds 0-{args.deals - 1})")
    for label, bot in (("as it plays", PointsBot()), ("dropping hopeless hands (P7.2)", PointsBot(drop_hopeless=True))):
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
