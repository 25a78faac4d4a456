"""Seahaven Towers solver benchmark (S5): a benchmark, not a test; it prints, it never fails.

    .venv/bin/python bench/seahaven_solver.py                        # 1,000 open and 1,000 classic deals
    .venv/bin/python bench/seahaven_solver.py --c-source PATH        # ...against the C solver, built here
    .venv/bin/python bench/seahaven_solver.py --kind classic --no-lines --c-solver PROGRAM
    .venv/bin/python bench/seahaven_solver.py --deals 200 --first 5001

For deal numbers first .. first+deals-1 (the game's own deals, so fixed and repeatable) and each
kind of deal, a fresh solver (an empty memo) decides the deal; the figures are the fraction
winnable with its sampling error, the time per verdict (median, p99, max, mean) in CPU seconds
of this one process (``time.process_time``: one core, not inflated by other programs waiting for
the same core) and in wall-clock seconds, and the positions the search expanded. Then, unless
``--no-lines``, the winning line of every winnable deal is built (single-card moves, S3.1) and
replayed through the rules to the win (in a second pass, after every verdict), and its time and
length are reported apart.

The baseline: jhoenicke/seahaven's C solver, measured in the same run on the same classic deals
(S2.4: the C program deals card i to pile i mod 10 and the last two to the cells, as we do). It
is AGPL, so this repository never holds it: ``--c-source PATH`` names a checkout of
jhoenicke/seahaven, or a bare or mirror git directory of it (its ``solver/solver.c`` is then read
from ``HEAD``). The benchmark copies that one file into a temporary folder, writes beside it
``DRIVER`` (our own few lines: it ``#include``s their file with its ``main`` renamed), compiles
both with the flags of the author's own build (``-O3 -DNDEBUG``, solver/Makefile; plus
``-DSTANDALONE``, which the file asks for outside Emscripten), runs the program for the whole
run and removes the folder at the end. With no compiler, no ``solver/solver.c`` at PATH, or a
failed build, that part is skipped, saying why. ``--c-solver PROGRAM`` instead names such a
program built by hand.

The program reads deals from its standard input, one a line: the 52 cards in deal order, each as
the number 13 * suit + rank (suit 0-3 as ``Card.suit_index``, rank 1-13, ace 1), separated by
spaces. For each deal it writes one line: ``1`` or ``0`` (winnable or not), the CPU seconds the
solver spent on the deal (its own per-deal timing: clearing its tables for the deal, then the
solve, ``CLOCK_PROCESS_CPUTIME_ID``), and the positions it expanded (its memo's misses). The
program runs beside this one, and each deal goes first to it and then to ours, so both meet the
machine in the same state. Without either option (or if the program cannot be built or started)
that part is skipped and said so. The load average is printed beside the figures: the machine is
shared, so only ratios from the same run mean anything.

Ours is the ``Solver`` the game uses: compiled with mypyc (``scripts/build-solver``, ``make
solver``) where that was built from this very solver.py, else plain Python, and the first line
says which. With the compiled one in use, the plain-Python run of the same search is timed too
on each deal, just after (``plain`` rows: what a machine with no compiler runs), and it must
reach the same verdict.

Goals: every verdict the same as the C solver's, and in CPU time, ours at most 10 times the C
solver's median and at most 40 times its maximum.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.games.seahaven import deal_cards  # noqa: E402
from app.games.seahaven.rules import Layout  # noqa: E402
from app.games.seahaven.solver import PythonSolver, Solver  # noqa: E402

COMPILED = Solver is not PythonSolver

REFERENCE_CLASSIC = 0.892  # jhoenicke/seahaven, 210,000 classic deals: 89.2-89.3 %
REFERENCE_OPEN = 0.98  # "about 98 %" of open deals (no exact figure given)
GOAL_MEDIAN_RATIO = 10.0
GOAL_MAX_RATIO = 40.0
C_FLAGS = ("-O3", "-DNDEBUG", "-DSTANDALONE")  # the author's (solver/Makefile); STANDALONE: not Emscripten
C_SOURCE = "solver/solver.c"

# The C baseline's driver (this project's code, not theirs): their solver.c is included with its
# own main renamed; one deal a line in, "verdict cpu-seconds positions" a line out.
DRIVER = r"""
#define main jh_standalone_main
#include "solver.c"
#undef main
#include <time.h>

static double cpu(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(void) {
    int v[52];
    uint8_t shuffle[52];
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (;;) {
        for (int i = 0; i < 52; i++)
            if (scanf("%d", &v[i]) != 1)
                return 0;
        for (int i = 0; i < 52; i++)
            shuffle[i] = (uint8_t) v[i];
        double start = cpu();
        hit = 0;
        miss = 0;
        int verdict = checkFreshGame(shuffle);  /* clears its tables for the deal, then solves */
        double spent = cpu() - start;
        printf("%d %.9f %u\n", verdict == SUCCESS, spent, miss);
    }
}
"""


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(math.ceil(fraction * len(ordered))) - 1)]


def load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


class CSolver:
    """The C baseline, a program beside this one (see the module's docstring)."""

    def __init__(self, program: str):
        self.process = subprocess.Popen([program], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                        bufsize=1)

    def solve(self, cards) -> tuple[bool, float, int]:
        self.process.stdin.write(" ".join(str(13 * card.suit_index + card.order + 1) for card in cards) + "\n")
        self.process.stdin.flush()
        while True:
            answer = self.process.stdout.readline()
            if not answer:
                raise RuntimeError("the C solver stopped")
            fields = answer.split()
            if len(fields) == 3 and fields[0] in ("0", "1"):
                return fields[0] == "1", float(fields[1]), int(fields[2])

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=10)


def run_kind(classic: bool, first: int, deals: int, lines: bool, c_solver: CSolver | None) -> dict:
    cpu, wall, positions, line_cpu, line_moves = [], [], [], [], []
    c_cpu, c_positions, disagree = [], [], []
    plain_cpu, plain_positions = [], []
    won = []
    for number in range(first, first + deals):
        cards = deal_cards(number)
        if c_solver is not None:
            c_verdict, c_seconds, c_expanded = c_solver.solve(cards)
            c_cpu.append(c_seconds)
            c_positions.append(c_expanded)
        table = Layout.deal(cards, classic)
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        solver = Solver(table.columns)
        verdict = solver.winnable(table)
        cpu.append(time.process_time() - start_cpu)
        wall.append(time.perf_counter() - start_wall)
        positions.append(solver.positions)
        if COMPILED:  # the same search as plain Python, timed on the same deal just after
            start_cpu = time.process_time()
            plain = PythonSolver(table.columns)
            if plain.winnable(table) != verdict:
                raise SystemExit(f"deal {number}: the compiled and the plain solver disagree")
            plain_cpu.append(time.process_time() - start_cpu)
            plain_positions.append(plain.positions)
        if c_solver is not None and c_verdict != verdict:
            disagree.append(number)
        if verdict:
            won.append(number)
    # the lines in a pass of their own, so that the verdicts' pass is the same with or without them
    for number in won if lines else ():
        table = Layout.deal(deal_cards(number), classic)
        solver = Solver(table.columns)
        solver.winnable(table)
        start = time.process_time()
        line = solver.line(table)
        line_cpu.append(time.process_time() - start)
        played = table.copy()
        for source, target in line:
            played.move(source, target)  # the rules check every move
        if not played.is_won():
            raise SystemExit(f"deal {number}: the winning line does not win")
        line_moves.append(len(line))
    return {"cpu": cpu, "wall": wall, "positions": positions, "won": len(won), "deals": deals,
            "line_cpu": line_cpu, "line_moves": line_moves, "c_cpu": c_cpu, "c_positions": c_positions,
            "disagree": disagree, "plain_cpu": plain_cpu, "plain_positions": plain_positions}


def figures(values: list[float]) -> tuple[float, float, float, float]:
    return statistics.median(values), percentile(values, 0.99), max(values), statistics.fmean(values)


def report(kind: str, result: dict, reference: float, load_before: str) -> None:
    deals, won = result["deals"], result["won"]
    share = won / deals
    error = math.sqrt(share * (1 - share) / deals)
    print(f"\n{kind} deal: {deals} deals (load average {load_before} before, {load()} after)")
    print(f"  winnable      {won}/{deals} = {share:.1%} +- {error:.1%} (one standard error); "
          f"reference {reference:.1%}: {(share - reference) / error if error else 0:+.1f} standard errors away")
    rows = [("ours CPU", result["cpu"]), ("ours wall", result["wall"])]
    if result["plain_cpu"]:
        rows.append(("plain CPU", result["plain_cpu"]))
    if result["c_cpu"]:
        rows.append(("C CPU", result["c_cpu"]))
    for name, values in rows:
        median, p99, most, mean = figures([value * 1000 for value in values])
        print(f"  {name:<10}    median {median:8.3f} ms   p99 {p99:8.2f} ms   max {most:8.1f} ms   mean {mean:7.3f} ms")
    position_rows = [("ours", result["positions"])] + ([("C", result["c_positions"])] if result["c_positions"] else [])
    for name, values in position_rows:
        median, p99, most, mean = figures(values)
        print(f"  positions {name:<4}  median {median:8.0f}      p99 {p99:8.0f}      max {most:8.0f}      "
              f"mean {mean:7.0f}     total {sum(values)}")
    if result["c_cpu"]:
        ours, theirs = figures(result["cpu"]), figures(result["c_cpu"])
        ratios = [mine / baseline for mine, baseline in zip(ours, theirs)]
        print(f"  ours / C      median {ratios[0]:7.1f}x      p99 {ratios[1]:7.1f}x      max {ratios[2]:7.1f}x      "
              f"mean {ratios[3]:6.1f}x   (CPU)")
        print(f"  goals         median at most {GOAL_MEDIAN_RATIO:.0f}x: {'met' if ratios[0] <= GOAL_MEDIAN_RATIO else 'NOT met'}; "
              f"max at most {GOAL_MAX_RATIO:.0f}x: {'met' if ratios[2] <= GOAL_MAX_RATIO else 'NOT met'}")
        if result["plain_cpu"]:
            plain = [mine / baseline for mine, baseline in zip(figures(result["plain_cpu"]), theirs)]
            print(f"  plain / C     median {plain[0]:7.1f}x      p99 {plain[1]:7.1f}x      max {plain[2]:7.1f}x      "
                  f"mean {plain[3]:6.1f}x   (CPU; the same search as plain Python, where no compiler built it)")
        per_deal = sorted(mine / baseline for mine, baseline in zip(result["positions"], result["c_positions"])
                          if baseline)
        print(f"  positions ours / C, deal by deal: median {statistics.median(per_deal):.2f}, "
              f"p99 {percentile(per_deal, 0.99):.1f}; CPU per position: ours "
              f"{sum(result['cpu']) / sum(result['positions']) * 1e6:.2f} us"
              + (f" (plain Python {sum(result['plain_cpu']) / sum(result['plain_positions']) * 1e6:.2f} us)"
                 if result["plain_cpu"] else "") + ", C "
              f"{sum(result['c_cpu']) / sum(result['c_positions']) * 1e6:.3f} us (totals)")
        agree = deals - len(result["disagree"])
        print(f"  verdicts      the same as the C solver's on {agree}/{deals} deals"
              + (f"; DIFFERENT on {result['disagree'][:20]}" if result["disagree"] else ""))
    if result["line_cpu"]:
        line_ms = [value * 1000 for value in result["line_cpu"]]
        moves = result["line_moves"]
        print(f"  winning lines {len(moves)} built and replayed to the win; build median {statistics.median(line_ms):.1f} ms, "
              f"max {max(line_ms):.1f} ms (CPU, after the verdict); length median {statistics.median(moves):.0f} "
              f"moves, min {min(moves)}, max {max(moves)}")


def read_c_source(path: Path) -> str:
    """Their solver.c: from a work tree at ``path``, or from ``HEAD`` of the git directory (bare,
    mirror or checkout) at ``path``. Raises OSError saying why not."""
    in_tree = path / C_SOURCE
    if in_tree.is_file():
        return in_tree.read_text()
    if not path.is_dir():
        raise OSError(f"{path} is not a directory")
    try:
        shown = subprocess.run(["git", "-C", str(path), "show", f"HEAD:{C_SOURCE}"], capture_output=True, text=True,
                               timeout=60)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise OSError(f"no {C_SOURCE} in {path}, and git could not read it: {error}") from error
    if shown.returncode:
        raise OSError(f"no {C_SOURCE} in {path}, and git could not read it: {shown.stderr.strip()[:200]}")
    return shown.stdout


def build_c_solver(source: str, folder: str) -> str:
    """Compile their solver.c (copied into ``folder``, a temporary one) with our driver; the
    program's path. Raises OSError saying why not."""
    compiler = shutil.which(os.environ.get("CC", "gcc")) or shutil.which("cc")
    if compiler is None:
        raise OSError("no C compiler (gcc or cc) on the PATH")
    text = read_c_source(Path(source).expanduser())
    Path(folder, "solver.c").write_text(text)
    Path(folder, "driver.c").write_text(DRIVER)
    program = str(Path(folder, "c-solver"))
    command = [compiler, *C_FLAGS, "-o", program, "driver.c"]
    built = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=300)
    if built.returncode:
        errors = [line for line in built.stderr.splitlines() if "error" in line] or built.stderr.splitlines()
        raise OSError(f"the build failed ({' '.join(command)}): {' | '.join(errors[:3])[:400]}")
    version = subprocess.run([compiler, "--version"], capture_output=True, text=True).stdout.splitlines()
    print(f"C baseline: {C_SOURCE} of {source} built in a temporary folder with "
          f"{' '.join([Path(compiler).name, *C_FLAGS])} ({version[0] if version else compiler})")
    return program


def start_c_solver(program: str) -> CSolver | None:
    try:
        c_solver = CSolver(program)
        c_solver.solve(deal_cards(1))  # it answers, or the baseline is skipped
    except (OSError, RuntimeError, ValueError) as error:
        print(f"C baseline: skipped ({program} could not be run: {error})")
        return None
    print(f"C baseline: {program}, on the classic deals, each deal to it and then to ours")
    return c_solver


def c_baseline(options, folder: str) -> CSolver | None:
    """The C solver, started (built first in ``folder`` from ``--c-source``), or None, saying why."""
    if options.kind == "open":
        return None  # the C solver deals only the classic deal
    program = options.c_solver
    if options.c_source:
        try:
            program = build_c_solver(options.c_source, folder)
        except (OSError, subprocess.TimeoutExpired) as error:
            print(f"C baseline: skipped ({error})")
            return None
    if not program:
        print("C baseline: skipped (neither --c-source PATH nor --c-solver PROGRAM given; the module's docstring "
              "says what they are)")
        return None
    return start_c_solver(program)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000, help="deals of each kind (default 1000)")
    parser.add_argument("--first", type=int, default=1, help="the first deal number (default 1)")
    parser.add_argument("--kind", choices=("open", "classic", "both"), default="both")
    parser.add_argument("--no-lines", action="store_true", help="only the verdicts, no winning lines")
    baseline = parser.add_mutually_exclusive_group()
    baseline.add_argument("--c-source", metavar="PATH",
                          help="the C baseline, built here from a checkout or git directory of jhoenicke/seahaven")
    baseline.add_argument("--c-solver", metavar="PROGRAM",
                          help="the C baseline, built by hand: an executable that reads deals and writes verdicts")
    options = parser.parse_args()
    print(f"Seahaven Towers solver: deals {options.first} to {options.first + options.deals - 1}, Python "
          f"{sys.version.split()[0]}, one process; {os.cpu_count()} cores, load average {load()}")
    print("Solver: " + ("compiled with mypyc from this solver.py (scripts/build-solver); the plain-Python run of the "
                        "same search is timed too, on each deal just after" if COMPILED else
                        "plain Python (the compiled copy is not built, or not from this solver.py: make solver)"))
    # their code lives only in this temporary folder, removed when the run ends
    with tempfile.TemporaryDirectory(prefix="seahaven-c-") as folder:
        c_solver = c_baseline(options, folder)
        try:
            started = time.perf_counter()
            if options.kind in ("open", "both"):
                before = load()
                report("open", run_kind(False, options.first, options.deals, not options.no_lines, None),
                       REFERENCE_OPEN, before)
            if options.kind in ("classic", "both"):
                before = load()
                report("classic", run_kind(True, options.first, options.deals, not options.no_lines, c_solver),
                       REFERENCE_CLASSIC, before)
            print(f"\n{time.perf_counter() - started:.0f} s in all")
        finally:
            if c_solver is not None:
                c_solver.close()


if __name__ == "__main__":
    main()
