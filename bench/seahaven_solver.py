"""Seahaven Towers solver benchmark (S5): a benchmark, not a test; it prints, it never fails.

    .venv/bin/python bench/seahaven_solver.py                 # 1,000 open and 1,000 classic deals
    .venv/bin/python bench/seahaven_solver.py --deals 200     # fewer
    .venv/bin/python bench/seahaven_solver.py --kind classic --first 5001 --no-lines

For deal numbers first .. first+deals-1 (the game's own deals, so fixed and repeatable) and each
kind of deal, a fresh solver (an empty memo) decides the deal; the figures are the fraction
winnable with its sampling error, and the time per verdict (median, p99, max), counted in CPU
seconds of this one process (``time.process_time``: one core, not inflated by other programs
waiting for the same core) and in wall-clock seconds. Then, unless ``--no-lines``, the winning
line of every winnable deal is built (single-card moves, S3.1) and replayed through the rules to
the win, and its time and length are reported apart.

The reference figures of the issue are printed beside ours: jhoenicke/seahaven's C solver over
210,000 classic deals, 89.2-89.3 % winnable at 0.28 ms a deal; a plain-Python exact search
reaching about 15 ms median and under 2 s at worst, about 98 % of open deals winnable.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.games.seahaven import deal_cards  # noqa: E402
from app.games.seahaven.rules import Layout  # noqa: E402
from app.games.seahaven.solver import Solver  # noqa: E402

REFERENCE_CLASSIC = 0.892  # jhoenicke/seahaven, 210,000 classic deals: 89.2-89.3 %
REFERENCE_OPEN = 0.98  # "about 98 %" of open deals (no exact figure given)
TARGET_MEDIAN_MS = 15.0
TARGET_P99_MS = 1000.0


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(math.ceil(fraction * len(ordered))) - 1)]


def run_kind(classic: bool, first: int, deals: int, lines: bool) -> dict:
    cpu, wall, positions, line_cpu, line_moves = [], [], [], [], []
    won = 0
    for number in range(first, first + deals):
        table = Layout.deal(deal_cards(number), classic)
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        solver = Solver(table.columns)
        verdict = solver.winnable(table)
        cpu.append(time.process_time() - start_cpu)
        wall.append(time.perf_counter() - start_wall)
        positions.append(solver.positions)
        if not verdict:
            continue
        won += 1
        if lines:
            start = time.process_time()
            line = solver.line(table)
            line_cpu.append(time.process_time() - start)
            played = table.copy()
            for source, target in line:
                played.move(source, target)  # the rules check every move
            if not played.is_won():
                raise SystemExit(f"deal {number}: the winning line does not win")
            line_moves.append(len(line))
    return {"cpu": cpu, "wall": wall, "positions": positions, "won": won, "deals": deals,
            "line_cpu": line_cpu, "line_moves": line_moves}


def report(kind: str, result: dict, reference: float) -> None:
    deals, won = result["deals"], result["won"]
    share = won / deals
    error = math.sqrt(share * (1 - share) / deals)
    print(f"\n{kind} deal: {deals} deals")
    print(f"  winnable      {won}/{deals} = {share:.1%} +- {error:.1%} (one standard error); "
          f"reference {reference:.1%}: {(share - reference) / error if error else 0:+.1f} standard errors away")
    for name, values in (("CPU", result["cpu"]), ("wall", result["wall"])):
        ms = [value * 1000 for value in values]
        print(f"  verdict {name:<5} median {statistics.median(ms):7.2f} ms   p99 {percentile(ms, 0.99):8.1f} ms   "
              f"max {max(ms):8.1f} ms   mean {statistics.fmean(ms):6.2f} ms   "
              f"{len(ms) / (sum(ms) / 1000):6.1f} deals/s")
    positions = result["positions"]
    print(f"  positions     median {statistics.median(positions):7.0f}   p99 {percentile(positions, 0.99):8.0f}   "
          f"max {max(positions):8.0f}")
    ms = [value * 1000 for value in result["cpu"]]
    print(f"  targets       median under {TARGET_MEDIAN_MS:.0f} ms: {'yes' if statistics.median(ms) < TARGET_MEDIAN_MS else 'NO'}; "
          f"p99 under {TARGET_P99_MS:.0f} ms: {'yes' if percentile(ms, 0.99) < TARGET_P99_MS else 'NO'} (CPU)")
    if result["line_cpu"]:
        line_ms = [value * 1000 for value in result["line_cpu"]]
        moves = result["line_moves"]
        print(f"  winning lines {len(moves)} built and replayed to the win; build median {statistics.median(line_ms):.1f} ms, "
              f"max {max(line_ms):.1f} ms (CPU, after the verdict); length median {statistics.median(moves):.0f} "
              f"moves, min {min(moves)}, max {max(moves)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000, help="deals of each kind (default 1000)")
    parser.add_argument("--first", type=int, default=1, help="the first deal number (default 1)")
    parser.add_argument("--kind", choices=("open", "classic", "both"), default="both")
    parser.add_argument("--no-lines", action="store_true", help="only the verdicts, no winning lines")
    options = parser.parse_args()
    print(f"Seahaven Towers solver: deals {options.first} to {options.first + options.deals - 1}, Python "
          f"{sys.version.split()[0]}, one process")
    print("Reference (the issue): jhoenicke/seahaven C solver, 210,000 classic deals: 89.2-89.3 % winnable, "
          "0.28 ms a deal; an exact plain-Python search: about 15 ms median, under 2 s at worst; "
          "about 98 % of open deals winnable")
    started = time.perf_counter()
    if options.kind in ("open", "both"):
        report("open", run_kind(False, options.first, options.deals, not options.no_lines), REFERENCE_OPEN)
    if options.kind in ("classic", "both"):
        report("classic", run_kind(True, options.first, options.deals, not options.no_lines), REFERENCE_CLASSIC)
    print(f"\n{time.perf_counter() - started:.0f} s in all")


if __name__ == "__main__":
    main()
