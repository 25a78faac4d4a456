"""Engine benchmark (not a test): complete AI-vs-AI games per second, and the lay-down judge.

    .venv/bin/python bench/engine.py [--repeat 7] [--games 200]

Single process, ``time.perf_counter``. Each figure is measured several times and printed as the
median and the best (min time) run, because the machine is shared and noisy. Targets: at least
300 complete 3-round games per second for 2 and for 3 players, and ``judge_lay_down`` under 20
microseconds per call. The judge is compared with a baseline measured in the same run over the
same inputs (a plain ``is_run`` call on 3 cards), so a slow machine shows up in both. Games are
also counted per CPU second (``time.process_time``), which time spent waiting for a busy core
does not inflate.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from app.games.mason.cards import BY_RANK, BY_SUIT_RANK, FULL_DECK  # noqa: E402
from app.games.mason.melds import MELD, RUN, CardSet, LayOffs, NewSet, Refusal, is_run, judge_lay_down  # noqa: E402
from app.simulate import play_ai_game  # noqa: E402

GAMES_TARGET = 300  # complete 3-round games per second, one core
JUDGE_TARGET_US = 20.0


def time_games(players: int, games: int) -> tuple[float, float]:
    """Wall-clock and CPU seconds to play ``games`` complete AI-only games (fixed seeds)."""
    started, cpu_started = time.perf_counter(), time.process_time()
    for seed in range(games):
        play_ai_game(players, seed=f"bench/{seed}")
    return time.perf_counter() - started, time.process_time() - cpu_started


# -- a realistic mix of lay-down selections -------------------------------------------------------

def _random_sets(rng: random.Random, count: int) -> tuple[list[CardSet], set]:
    """``count`` distinct own sets (runs and melds of 3-5 cards) and the cards they use."""
    sets: list[CardSet] = []
    used: set = set()
    while len(sets) < count:
        if rng.random() < 0.5:
            suit, length = rng.randrange(5), rng.randint(3, 5)
            start = rng.randrange(13 - length + 1)
            cards = list(BY_SUIT_RANK[suit][start:start + length])
            kind = RUN
        else:
            cards = rng.sample(BY_RANK[rng.randrange(13)], rng.randint(3, 4))
            kind = MELD
        if used.isdisjoint(cards):
            sets.append(CardSet(kind, cards))
            used.update(cards)
    return sets, used


def judge_cases(count: int = 2000, seed: int = 1) -> list[tuple[list, list[CardSet]]]:
    """(selection, own sets) pairs, a quarter each: new runs or melds, lay-offs onto 1-4 own sets,
    3-card non-sets, and 1-3 cards that do not all fit (refusals)."""
    rng = random.Random(seed)
    cases = []
    while len(cases) < count:
        kind = len(cases) % 4
        sets, used = _random_sets(rng, rng.randint(0 if kind in (0, 2) else 1, 4))
        free = [card for card in FULL_DECK if card not in used]
        if kind == 0:  # a new run or meld, in a shuffled selection order
            if rng.random() < 0.5:
                suit, length = rng.randrange(5), rng.randint(3, 5)
                start = rng.randrange(13 - length + 1)
                selection = list(BY_SUIT_RANK[suit][start:start + length])
            else:
                selection = rng.sample(BY_RANK[rng.randrange(13)], rng.randint(3, 4))
            if not used.isdisjoint(selection):
                continue
            rng.shuffle(selection)
        elif kind == 1:  # lay-offs: 1-3 cards that each fit one of the sets
            fitting = sorted({card for s in sets for card in s.fitting if card in free}, key=lambda c: c.code)
            if not fitting:
                continue
            selection = rng.sample(fitting, min(len(fitting), rng.randint(1, 3)))
        elif kind == 2:  # 3 random cards: almost never a set
            selection = rng.sample(free, 3)
        else:  # 1-3 random cards against the sets: mostly refused
            selection = rng.sample(free, rng.randint(1, 3))
        cases.append((selection, sets))
    return cases


def measure(function, cases) -> tuple[float, float]:
    """Wall-clock and CPU seconds per call of ``function(selection, sets)`` over ``cases``."""
    started, cpu_started = time.perf_counter(), time.process_time()
    for selection, sets in cases:
        function(selection, sets)
    return (time.perf_counter() - started) / len(cases), (time.process_time() - cpu_started) / len(cases)


def baseline(selection, sets):
    """The cheapest honest comparison: a plain run check of 3 cards (what rule 1 starts with)."""
    return is_run(selection[:3])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7, help="repetitions of each measurement")
    parser.add_argument("--games", type=int, default=200, help="games per repetition")
    args = parser.parse_args()

    print(f"Python {sys.version.split()[0]}, {args.repeat} repetitions; median (best)")
    for players in (2, 3):
        time_games(players, 20)  # warm up
        runs = [time_games(players, args.games) for _ in range(args.repeat)]
        rates = [args.games / wall for wall, _ in runs]
        cpu_rates = [args.games / cpu for _, cpu in runs]
        verdict = "ok" if statistics.median(rates) >= GAMES_TARGET else "BELOW TARGET"
        print(f"{players} players: {statistics.median(rates):6.0f} ({max(rates):.0f}) complete 3-round games/s"
              f"  [target >= {GAMES_TARGET}: {verdict}];"
              f" per CPU second {statistics.median(cpu_rates):.0f} ({max(cpu_rates):.0f})")

    cases = judge_cases()
    kinds = [type(judge_lay_down(selection, sets)).__name__ for selection, sets in cases]
    mix = ", ".join(f"{kinds.count(kind.__name__)} {kind.__name__}" for kind in (NewSet, LayOffs, Refusal))
    judge, judge_cpu, base, base_cpu, ratios = [], [], [], [], []
    for _ in range(args.repeat):  # judge and baseline side by side, so a busy moment hits both
        wall, cpu = measure(judge_lay_down, cases)
        judge.append(wall)
        judge_cpu.append(cpu)
        wall, cpu = measure(baseline, cases)
        base.append(wall)
        base_cpu.append(cpu)
        ratios.append(judge[-1] / base[-1])
    judge_us, base_us = statistics.median(judge) * 1e6, statistics.median(base) * 1e6
    verdict = "ok" if judge_us < JUDGE_TARGET_US else "ABOVE TARGET"
    print(f"judge_lay_down over {len(cases)} selections ({mix}):")
    print(f"  {judge_us:.2f} ({min(judge) * 1e6:.2f}) us/call, {1e6 / judge_us:,.0f} judgements/s"
          f"  [target < {JUDGE_TARGET_US:.0f} us: {verdict}];"
          f" CPU {statistics.median(judge_cpu) * 1e6:.2f} ({min(judge_cpu) * 1e6:.2f}) us/call")
    print(f"  baseline is_run on 3 cards, same inputs: {base_us:.2f} ({min(base) * 1e6:.2f}) us/call;"
          f" judge/baseline = {statistics.median(ratios):.1f}x"
          f" (CPU: {statistics.median(judge_cpu) / statistics.median(base_cpu):.1f}x)")


if __name__ == "__main__":
    main()
