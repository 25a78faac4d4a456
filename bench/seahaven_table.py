"""Seahaven Towers at the web table: what the solver (S5.2: the "still winnable?" mark and the
hint) costs the requests, now that the job runner works it out off the request path. Not a test:
it prints, never fails.

    .venv/bin/python bench/seahaven_table.py [--deals 358 554 612] [--baseline 2] [--moves 40]
                                             [--off-line 15] [--workers 2]
    .venv/bin/python bench/seahaven_table.py --attack-only [--attack-seconds 30] [--connections 6]
    .venv/bin/python bench/seahaven_table.py --attack-only --postgres   # on a throwaway PostgreSQL

**One visitor cannot stall the server** (the attack, printed after the per-request figures, or
alone with ``--attack-only``): another client times Menu A (GET /, the home page) for
``--quiet-seconds`` with nothing else happening (the quiet baseline), then for
``--attack-seconds`` while ``--connections`` connections of one visitor (one address) each set a
hard classic deal up (358, 554, 612 in turn), then loop: the deal's table page (the player's: it
asks the solver), its /watch page, a move off the winning line (a new position to check) and its
undo. Printed: Menu A's median and max, quiet and under attack, and their ratios (the goal:
median under 100 ms and max under 500 ms under attack); the attack's own requests; the answers the
job runner kept meanwhile and the CPU seconds of the runner and of the workers. Then the same
attack on an easy deal (``--baseline``) as a control: what the visitor's requests cost by
themselves, with next to nothing to solve.

It starts the server as `make run` does (bench/harness.py: gunicorn with gevent workers, SQLite
in a temporary folder; with ``--postgres`` a new database on a throwaway PostgreSQL, or on the
server ``--database-url`` names) and, for each deal number (open deal; by default the three slowest deals
of bench/seahaven_solver.py, then an easy deal as the baseline of the same run), sets a game up
through the set-up form, then times, from the client (send to last byte, one new connection a
request, so gunicorn spreads them over its workers):

- the table pages, 8 of them: the 2 slowest are reported apart (they once paid for the whole
  verdict, the solver running in the request; now the page shows "checking..." at once);
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
import threading
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
    times: dict[str, list[float]] = {"2 slowest of 8 first pages": [], "pages after": [],
                                     "move on the winning line": [], "move off the line (and undo)": [],
                                     "hint page (GET ?hint=1)": []}
    pages = [browser.get(f"/games/{slug}").seconds for _ in range(8)]
    times["2 slowest of 8 first pages"] = sorted(pages)[-2:]
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


def time_menu_a(url: str, seconds: float, pause: float = 0.05) -> list[float]:
    """GET / (Menu A) one after another for ``seconds`` by a client of its own; wall times."""
    client = Browser(url, "Menu A client")
    times = []
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        answer = client.get("/")
        assert answer.status == 200, answer.status
        times.append(answer.seconds)
        time.sleep(pause)
    return times


def attacker(url: str, number: int, deal: int, until: float, times: dict[str, list[float]], lock) -> None:
    """One connection of the visitor: a hard classic deal set up, then its pages and moves off the
    line in a loop until ``until``."""
    browser = Browser(url, f"attacker {number}")
    answer = browser.post("/setup/seahaven", [("seats", "1"), ("name0", f"Visitor{number}"), ("device0", "here"),
                                              ("deal", str(deal)), ("classic", "1"), ("winnable_only", "0"),
                                              ("deck", "")])
    assert answer.status == 303, (answer.status, answer.page.alerts)
    slug = answer.location.rsplit("/", 1)[1]
    state = DEFINITION.new_state(["Visitor"], options={"deal": deal, "classic": True}, seed=1)
    rng = random.Random(number)
    version = 1
    mine: dict[str, list[float]] = {"table page (player's)": [], "/watch page": [], "move off the line, undo": []}
    while time.monotonic() < until:
        mine["table page (player's)"].append(browser.get(f"/games/{slug}").seconds)
        mine["/watch page"].append(browser.get(f"/games/{slug}/watch").seconds)
        source, target = rng.choice(state.layout.legal_moves())
        for fields in ([("move", f"move|from={source}|to={target}")], [("action", "undo")]):
            answer = browser.post(f"/games/{slug}/act", [("version", str(version)), ("seat", "0"), *fields], htmx=True)
            assert answer.status == 200, (answer.status, answer.page.alerts)
            mine["move off the line, undo"].append(answer.seconds)
            version += 1
    with lock:
        for label, seconds in mine.items():
            times.setdefault(label, []).extend(seconds)


def kept_answers(server) -> int:
    import sqlalchemy as sa

    with server.reader.engine.connect() as connection:
        return connection.execute(sa.text("SELECT count(*) FROM analyses WHERE answer IS NOT NULL")).scalar_one()


def runner_cpu_seconds(server) -> float:
    """User + system CPU seconds the job runner has used so far (from /proc)."""
    import support.live

    total = 0
    for pid in server.runner_pids():
        try:
            with open(f"/proc/{pid}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            pass
    return total / support.live.CLOCK_TICKS


def attack(server, deals: list[int], connections: int, quiet_seconds: float, attack_seconds: float,
           label: str) -> None:
    quiet = time_menu_a(server.url, quiet_seconds)
    kept_before, runner_before, workers_before = kept_answers(server), runner_cpu_seconds(server), server.cpu_seconds()
    until = time.monotonic() + attack_seconds
    times: dict[str, list[float]] = {}
    lock = threading.Lock()
    threads = [threading.Thread(target=attacker, args=(server.url, n, deals[n % len(deals)], until, times, lock))
               for n in range(connections)]
    for thread in threads:
        thread.start()
    attacked = time_menu_a(server.url, attack_seconds)
    for thread in threads:
        thread.join()
    print(f"{label}: one visitor on {connections} connections, classic deals {' '.join(map(str, deals))}, "
          f"{attack_seconds:.0f} s; Menu A (GET /) timed by another client")
    print(line("Menu A, quiet (the baseline)", quiet))
    print(line("Menu A, under the attack", attacked))
    print(f"  ratios under attack / quiet: median {statistics.median(attacked) / statistics.median(quiet):.2f}x, "
          f"max {max(attacked) / max(quiet):.2f}x   (goal: median < 100 ms, max < 500 ms under attack)")
    for kind, seconds in times.items():
        print(line(f"the visitor's {kind}", seconds))
    print(f"  answers the job runner kept meanwhile: {kept_answers(server) - kept_before}; CPU seconds: "
          f"job runner {runner_cpu_seconds(server) - runner_before:.1f}, "
          f"gunicorn workers {server.cpu_seconds() - workers_before:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, nargs="+", default=[358, 554, 612])
    parser.add_argument("--baseline", type=int, default=2, help="an easy deal, measured the same way")
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--off-line", type=int, default=15)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--attack-only", action="store_true", help="only the one-visitor attack")
    parser.add_argument("--connections", type=int, default=6)
    parser.add_argument("--quiet-seconds", type=float, default=15.0)
    parser.add_argument("--attack-seconds", type=float, default=30.0)
    parser.add_argument("--postgres", action="store_true", help="serve from PostgreSQL (a throwaway server)")
    parser.add_argument("--database-url", help="the PostgreSQL server to create the database on (implies --postgres)")
    args = parser.parse_args()
    postgres = args.postgres or args.database_url is not None
    database = harness.PostgresDatabase(args.database_url, prefix="bench_seahaven") if postgres else None
    server = harness.bench_server(workers=args.workers, prefix="seahaven-bench-",
                                  database_url=database.url if database else None)
    try:
        if database:
            server.upgrade()
        server.start()
        print(f"database: {'PostgreSQL' if database else 'SQLite'}; load average {harness.load_average()}")
        if not args.attack_only:
            print(f"Seahaven Towers table, {args.workers} gevent workers; client-side wall time per request")
            for deal in [*args.deals, args.baseline]:
                started = time.perf_counter()
                times = measure(server.url, deal, args.moves, args.off_line, random.Random(deal))
                kind = "baseline (easy deal)" if deal == args.baseline else "hard deal"
                print(f"deal {deal}, open ({kind}), {time.perf_counter() - started:.1f} s in all")
                for label, seconds in times.items():
                    print(line(label, seconds))
        attack(server, args.deals, args.connections, args.quiet_seconds, args.attack_seconds, "Hard deals")
        # the same attack on an easy deal: what the requests cost without any solving to speak of
        attack(server, [args.baseline], args.connections, args.quiet_seconds, args.attack_seconds,
               "Control, an easy deal")
    finally:
        server.stop()
        if database:
            database.drop()


if __name__ == "__main__":
    main()
