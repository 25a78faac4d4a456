"""Classic Rummy engine speed: complete hands a second, computer players only, through the one
autoplay loop (``app.core.autoplay.autoplay(state, bots, deal_on=True)``, as the simulator
plays), for 2, 4 and 6 seats; beside it, open_spiel's gin rummy (random play, complete games a
second) measured in the same run when ``pyspiel`` is importable.

    .venv/bin/python bench/rummy_hands.py [--repeat 5] [--games 40]

A benchmark, not a test: it prints, it never fails. Every figure is the median of ``--repeat``
runs (and the best and worst run), by the wall clock and by CPU time (``time.process_time``,
which waiting for a busy core does not inflate). Per hand: median, p99 and max milliseconds.
Targets: 1,000 two-player hands and 300 six-player hands a second on one core.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import app.games  # noqa: E402,F401
from app.core import registry  # noqa: E402
from app.core.autoplay import autoplay  # noqa: E402

TARGETS = {2: 1000, 6: 300}


def run_games(seats: int, games: int, first_seed: int) -> tuple[int, int, float, float, list[float]]:
    """Play ``games`` whole games; (hands, void hands, wall seconds, CPU seconds, seconds of each
    hand)."""
    rummy = registry.get("rummy")
    bot = rummy.bot
    hand_times: list[float] = []
    hands = voids = 0
    wall = cpu = 0.0
    for number in range(games):
        state = rummy.new_state(["AI"] * seats, seed=first_seed + number)
        mark = [time.perf_counter()]

        def lap(outcome, mark=mark):
            if outcome.round_over:
                now = time.perf_counter()
                hand_times.append(now - mark[0])
                mark[0] = now

        started, started_cpu = time.perf_counter(), time.process_time()
        autoplay(state, lambda seat: bot, deal_on=True, on_outcome=lap)
        wall += time.perf_counter() - started
        cpu += time.process_time() - started_cpu
        hands += len(state.hand_results)
        voids += sum(result["void"] for result in state.hand_results)
    return hands, voids, wall, cpu, hand_times


def open_spiel_games_per_second(seconds: float, seed: int) -> float | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    games = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                action = rng.choice(state.chance_outcomes())[0]
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
        games += 1
    return games / (time.perf_counter() - started)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--games", type=int, default=40, help="games per run and seat count")
    args = parser.parse_args(argv)
    print(f"Python {sys.version.split()[0]}; {args.repeat} runs of {args.games} games each; seeds fixed")
    print("seats  hands/s median (worst-best)   per CPU s   ms/hand median  p99    max   hands/game  void  target")
    for seats in (2, 4, 6):
        rates, cpu_rates, times = [], [], []
        hands_per_game = 0.0
        for run in range(args.repeat):
            hands, voids, wall, cpu, hand_times = run_games(seats, args.games, first_seed=1000 * seats)
            rates.append(hands / wall)
            cpu_rates.append(hands / cpu if cpu else float("nan"))
            times += hand_times
            hands_per_game = hands / args.games
        target = TARGETS.get(seats)
        verdict = "" if target is None else f"{target:>6}  {'met' if statistics.median(rates) >= target else 'NOT met'}"
        print(f"{seats:>5}  {statistics.median(rates):>8.0f} ({min(rates):.0f}-{max(rates):.0f})"
              f"{statistics.median(cpu_rates):>15.0f}  {1000 * statistics.median(times):>13.2f}"
              f"  {1000 * percentile(times, 0.99):>5.2f}  {1000 * max(times):>5.2f}  {hands_per_game:>10.1f}  {100 * voids / hands:>3.0f}%  {verdict}")
    spiel = [open_spiel_games_per_second(2.0, seed) for seed in range(args.repeat)]
    if spiel[0] is None:
        print("open_spiel gin rummy: open_spiel not installed (pip install open_spiel in this venv to compare)")
    else:
        print(f"open_spiel gin rummy, random play from Python (C++ engine): {statistics.median(spiel):.0f} "
              f"complete games/s median ({min(spiel):.0f}-{max(spiel):.0f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
