"""Seahaven Towers at the web table: what the solver (S5.2: the "still winnable?" mark and the
hint, computed with every page) costs on the request path. Not a test: it prints, never fails.

    .venv/bin/python bench/seahaven_table.py [--deals 358 554 612] [--baseline 2] [--moves 40]
                                             [--off-line 15] [--workers 2]

It starts the server as `make run` does (bench/harness.py: gunicorn with gevent workers, SQLite
in a temporary folder) and, for each deal number (open deal; by default the three slowest deals
of bench/seahaven_solver.py, then an easy deal as the baseline of the same run), sets a game up
through the set-up form, then times, from the client (send to last byte, one new connection a
request, so gunicorn spreads them over its workers):

- the table pages: each worker process has its own solver memo, so the first page a worker draws
  of a new deal pays for the whole verdict (what a player meets once per deal and worker, and
  again after a restart); of 8 pages, the 2 slowest are reported apart (with 2 workers: the
  cold ones, if both workers answered);
- a move along the winning line (the hint's move, posted as the page's form posts it, htmx: the
  answer is the new table with its mark), ``--moves`` of them;
- a move off the line (a random legal move, then its undo), ``--off-line`` pairs: a position the
  memo may not know yet;
- the hint page (GET ?hint=1).

Figures: median, p99 and max in milliseconds per kind, and the baseline deal's the same way.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import harness  # bench/harness.py: the server, browsers and pages of the test suite
from harness import Browser

from app.games.seahaven import DEFINITION
from app.games.seahaven import MoveCard


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def line(label: str, seconds: list[float]) -> str:
    if not seconds:
        return f"  {label:<34} -"
    ms = [s * 1000 for s in seconds]
    return (f"  {label:<34} n={len(ms):<3} median {statistics.median(ms):7.1f} ms   p99 {percentile(ms, .99):7.1f} ms"
            f"   max {max(ms):7.1f} ms")


def set_up(browser: Browser, deal: int) -> str:
    """The set-up form, posted; the redirect to the table is not followed (its first page is timed)."""
    answer = browser.post("/setup/seahaven", [("seats", "1"), ("name0", "Bench"), ("device0", "here"),
                                              ("deal", str(deal)), ("classic", "0"), ("winnable_only", "0"),
                                              ("deck", "")])
    assert answer.status == 303 and answer.location.startswith("/games/"), (answer.status, answer.location)
    return answer.location.rsplit("/", 1)[1]


def post_move(browser: Browser, slug: str, version: int, fields: list[tuple[str, str]]):
    answer = browser.post(f"/games/{slug}/act", [("version", str(version)), ("seat", "0"), *fields], htmx=True)
    assert answer.status == 200, (answer.status, answer.page.alerts)
    return answer


def measure(url: str, deal: int, moves: int, off_line: int, rng: random.Random) -> dict[str, list[float]]:
    browser = Browser(url, f"deal {deal}")
    slug = set_up(browser, deal)
    state = DEFINITION.new_state(["Bench"], options={"deal": deal}, seed=1)  # the same deal, to plan moves
    times: dict[str, list[float]] = {"first pages (cold memo per worker)": [], "pages after": [],
                                     "move on the winning line": [], "move off the line (and undo)": [],
                                     "hint page (GET ?hint=1)": []}
    # The first page a worker draws solves the deal; which worker answers is the kernel's choice:
    # pages are asked for until both were (one clearly slower than the rest), at most 8.
    pages = [browser.get(f"/games/{slug}").seconds for _ in range(8)]
    times["first pages (cold memo per worker)"] = sorted(pages)[-2:]
    times["pages after"] = sorted(pages)[:-2]
    version = 1
    for _ in range(moves):
        hint = state.hint()
        if hint is None:
            break
        answer = browser.get(f"/games/{slug}/table?hint=1", htmx=True)
        times["hint page (GET ?hint=1)"].append(answer.seconds)
        card = state.layout.card_at(hint.source).id
        answer = post_move(browser, slug, version, [("from", hint.source), ("cards", card),
                                                    ("move", f"move|to={hint.target}")])
        times["move on the winning line"].append(answer.seconds)
        state.apply(0, MoveCard(hint.source, hint.target))
        version += 1
    for _ in range(off_line):
        if state.is_over():
            break
        source, target = rng.choice(state.layout.legal_moves())
        answer = post_move(browser, slug, version, [("move", f"move|from={source}|to={target}")])
        times["move off the line (and undo)"].append(answer.seconds)
        version += 1
        answer = post_move(browser, slug, version, [("action", "undo")])
        times["move off the line (and undo)"].append(answer.seconds)
        version += 1
        state.apply(0, MoveCard(source, target))
        state.apply(0, DEFINITION.action_from_dict({"action": "undo"}))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, nargs="+", default=[358, 554, 612])
    parser.add_argument("--baseline", type=int, default=2, help="an easy deal, measured the same way")
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--off-line", type=int, default=15)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    server = harness.bench_server(workers=args.workers, prefix="seahaven-bench-")
    server.start()
    try:
        print(f"Seahaven Towers table, {args.workers} gevent workers; client-side wall time per request")
        for deal in [*args.deals, args.baseline]:
            started = time.perf_counter()
            times = measure(server.url, deal, args.moves, args.off_line, random.Random(deal))
            kind = "baseline (easy deal)" if deal == args.baseline else "hard deal"
            print(f"deal {deal}, open ({kind}), {time.perf_counter() - started:.1f} s in all")
            for label, seconds in times.items():
                print(line(label, seconds))
    finally:
        server.stop()


if __name__ == "__main__":
    main()
