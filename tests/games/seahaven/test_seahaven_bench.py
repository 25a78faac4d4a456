"""bench/seahaven_solver.py runs (a few deals, no C baseline), so that it cannot rot; what it
measures is for the benchmark to print, not for a test to judge."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from app.games.seahaven import solver

ROOT = Path(__file__).resolve().parents[3]


def test_the_solver_benchmark_runs_on_a_few_deals_and_says_what_it_timed():
    run = subprocess.run([sys.executable, "bench/seahaven_solver.py", "--deals", "4", "--first", "7"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    out = run.stdout
    assert "C baseline: skipped (neither --c-source PATH nor --c-solver PROGRAM given" in out
    assert out.count("winnable      ") == 2 and out.count("winning lines ") == 2  # open and classic
    if solver.Solver is solver.PythonSolver:
        assert "Solver: plain Python" in out and "plain CPU" not in out
    else:
        assert "Solver: compiled with mypyc" in out and out.count("plain CPU") == 2
