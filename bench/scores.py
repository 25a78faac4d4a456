"""A big score table (a benchmark, not a test): with 30,000 score rows
(and 30,000 statistics rows of another game), what do the scores page, Menu C, a game's end and
an admin import of 30,000 rows cost, and do they make anybody else wait?

    .venv/bin/python bench/scores.py [--rows 30000] [--repeat 15] [--games 12]

One server started as the README serves it (bench/harness.py's ``Server``: gunicorn, 2 gevent
workers, SQLite in a temporary folder), its database filled directly: ``--rows`` Mason Rummy
score rows and as many Points Rummy statistics rows. Then, over HTTP like browsers:

- the scores page: the first page, sorted by games won, the last page, a search; Menu C (R3.3)
  with and without a search; the scores.csv download (``--repeat`` times each; median, p90, max
  and bytes);
- a game's end: AI-against-AI games, each ended by the request that deals its last round (the
  computer players then play it out); the same on a second server with an empty score table, the
  baseline measured in the same run;
- four clients reloading /scores as fast as they can while a fifth loads Menu A every 50 ms;
- the admin's import of a 30,000-row scores.csv (every row changed): the preview and the apply,
  while another client loads Menu A every 20 ms: how long it waited at most.

Targets: /scores and Menu C under 100 ms, a game's end under 50 ms, an import under 2 s
with no other request waiting behind it for more than 100 ms.
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import random
import statistics
import sys
import threading
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import harness  # noqa: E402  (bench/harness.py: the server and the browsers)

HEADER = '"name","games won","games lost","best score"\n'


def names(count: int, seed: int = 15) -> list[str]:
    rng = random.Random(seed)
    found, seen = [], set()
    while len(found) < count:
        name = rng.choice(["Ann", "bob", "Cleo", "dan", "Eve", "Finn", "Gus", "hal"]) + str(rng.randrange(10 ** 6))
        if name.casefold() not in seen:
            seen.add(name.casefold())
            found.append(name)
    return found


def fill(instance: str, rows: int) -> None:
    """``rows`` score rows and ``rows`` Points Rummy statistics rows, straight into the database."""
    import sqlalchemy as sa

    from app import store

    from app.factory import create_app
    from app.extensions import db
    from app.games.mason import ScoreRow, ScoreTable
    from app.store.models import GameStat

    try:
        from app.records.score_table import replace as replace_scores
    except ImportError:  # an older checkout (MASON_BENCH_ROOT)
        replace_scores = store.replace_scores

    app = create_app(instance_path=instance, ADMIN_PASSWORD=harness.ADMIN_PASSWORD,
                     SQLALCHEMY_DATABASE_URI="sqlite:///" + os.path.join(instance, "mason.db"))
    rng = random.Random(7)
    with app.app_context():
        table = ScoreTable()
        for name in names(rows):
            won = rng.randrange(0, 20)
            table.scores[name.casefold()] = ScoreRow(name, won, rng.randrange(0, 20), rng.randrange(0, 90) if won else None)
        store.begin_write()
        replace_scores(table)
        db.session.execute(sa.insert(GameStat.__table__), [
            {"game": "points", "name": f"P{number:06d}", "name_key": f"p{number:06d}",
             "figures": f'{{"deals_played":{number % 9},"deals_won":{number % 4},"net_points":{number % 50},"best_deal":3}}'}
            for number in range(rows)])
        db.session.commit()
        try:
            from app.records import scores_file
        except ImportError:  # an older checkout (MASON_BENCH_ROOT)
            from app.tables import write_scores_file

            write_scores_file()
        else:
            scores_file.write_now(app)
        db.session.remove()
        db.engine.dispose()


def timed(browser: harness.Browser, path: str, repeat: int) -> tuple[list[float], int]:
    times, size = [], 0
    for _ in range(repeat):
        answer = browser.get(path)
        if answer.status != 200:
            raise RuntimeError(f"{path}: {answer.status}\n{answer.body[:800]}")
        times.append(answer.seconds)
        size = len(answer.body.encode())
    return times, size


def row(label: str, times: list[float], size: int | None = None, target_ms: float | None = None) -> str:
    ms = sorted(1000 * t for t in times)
    p90 = ms[int(0.9 * (len(ms) - 1))]
    median = statistics.median(ms)
    verdict = "" if target_ms is None else ("  met" if median < target_ms else "  MISSED")
    kb = "" if size is None else f" {size / 1024:9.1f}"
    return f"  {label:<34} {len(ms):>4} {median:>9.1f} {p90:>8.1f} {ms[-1]:>8.1f}{kb}{verdict}"


def game_ends(server: harness.LiveServer, games: int) -> list[float]:
    """The request that ends an AI-against-AI game (the last "Deal round"), ``games`` times."""
    host = harness.Browser(server.url, "game-ends")
    host.go("/")
    ends = []
    for _ in range(games):
        host.go("/menus/mason", {"choice": "2"})
        host.go("/setup/seat", {"kind": "1", "name": "AI", "device": "here"})
        path, _body = host.go("/setup/seat", {"kind": "1", "name": "AI", "device": "here"})
        slug = path.rstrip("/").rsplit("/", 1)[1]
        for _round in range(5):
            page = harness.Page(host.fetch(f"/games/{slug}/table").body)
            if page.game_over:
                break
            answer = host.post(f"/games/{slug}/act", {"action": "next_round", "version": str(page.version)}, htmx=True)
            if answer.status != 200:
                raise RuntimeError(f"next round: {answer.status}\n{answer.body[:800]}")
            if harness.Page(answer.body).game_over:
                ends.append(answer.seconds)
                break
    host.close()
    return ends


class Watcher(threading.Thread):
    """Another client loading a page every ``every`` seconds, recording how long each took."""

    def __init__(self, url: str, path: str = "/", every: float = 0.05, form: dict | None = None):
        super().__init__(daemon=True)
        self.browser = harness.Browser(url, "watcher")
        self.path, self.every, self.form = path, every, form
        if form is not None:
            self.browser.go("/")
        self.times: list[tuple[float, float]] = []  # (started at, seconds)
        self.stopping = threading.Event()

    def run(self) -> None:
        while not self.stopping.is_set():
            started = time.monotonic()
            if self.form is None:
                answer = self.browser.get(self.path)
            else:
                answer = self.browser.post(self.path, self.form)
            if answer.status != 200:
                raise RuntimeError(f"{self.path}: {answer.status}")
            self.times.append((started, answer.seconds))
            self.stopping.wait(max(0.0, self.every - (time.monotonic() - started)))

    def stop(self) -> list[float]:
        self.stopping.set()
        self.join()
        self.browser.close()
        return [seconds for _at, seconds in self.times]


def multipart(field: str, filename: str, data: bytes, extra: dict) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    parts = []
    for name, value in extra.items():
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{field}"; filename="{filename}"\r\n'
                 f"Content-Type: text/csv\r\n\r\n".encode() + data + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def admin_import(server: harness.LiveServer, rows: int) -> dict:
    import http.client
    import re

    admin = harness.Browser(server.url, "admin")
    admin.go("/")
    admin.go("/admin/login", {"password": harness.ADMIN_PASSWORD, "next": "/admin"})
    csv_text = admin.fetch("/scores.csv", htmx=False).body
    rows = list(csv.reader(io.StringIO(csv_text)))
    for index, fields in enumerate(rows[1:]):
        if index % 2:
            fields[2] = str(int(fields[2]) + 1)  # one more game lost
    out = io.StringIO()
    csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n").writerows(rows)
    data = out.getvalue().encode()
    body, content_type = multipart("scores", "scores.csv", data, {"csrf_token": admin.csrf_token()})
    cookie = "; ".join(f"{k}={v}" for k, v in admin.cookies.items())

    host = harness.Browser(server.url, "host")
    host.go("/")
    host.go("/menus/mason", {"choice": "2"})
    host.go("/setup/seat", {"kind": "1", "name": "AI", "device": "here"})
    path, _body = host.go("/setup/seat", {"kind": "1", "name": "AI", "device": "here"})
    slug = path.rstrip("/").rsplit("/", 1)[1]
    # the baseline: the same two clients for 3 s without an import
    watcher = Watcher(server.url, "/", every=0.02)
    writer = Watcher(server.url, f"/bench/row/{slug}", every=0.02, form={})
    watcher.start()
    writer.start()
    time.sleep(3)
    quiet = {"Menu A": watcher.stop(), "a write": writer.stop()}
    watcher = Watcher(server.url, "/", every=0.02)
    writer = Watcher(server.url, f"/bench/row/{slug}", every=0.02, form={})
    watcher.start()
    writer.start()
    time.sleep(0.5)
    connection = http.client.HTTPConnection(admin.host, admin.port, timeout=120)
    marks = {"preview sent": time.monotonic()}
    started = time.perf_counter()
    connection.request("POST", "/admin/scores/import", body=body, headers={"Content-Type": content_type, "Cookie": cookie})
    answer = connection.getresponse()
    page = answer.read().decode()
    preview_seconds = time.perf_counter() - started
    if answer.status != 200:
        raise RuntimeError(f"preview: {answer.status}\n{page[:800]}")
    token = re.search(r'action="/admin/scores/import/([^"]+)"', page).group(1)
    marks["preview answered"] = time.monotonic()
    started = time.perf_counter()
    applied = admin.post(f"/admin/scores/import/{token}", {})
    apply_seconds = time.perf_counter() - started
    marks["apply answered"] = time.monotonic()
    time.sleep(0.5)
    slowest = sorted(watcher.times + writer.times, key=lambda item: -item[1])[:3]
    waits = watcher.stop()
    writes = writer.stop()
    if applied.status != 303:
        raise RuntimeError(f"apply: {applied.status}\n{applied.body[:800]}")
    connection.close()
    admin.close()
    return {"preview": preview_seconds, "apply": apply_seconds, "preview_kb": len(page.encode()) / 1024,
            "waits": waits, "writes": writes, "csv_kb": len(data) / 1024, "quiet": quiet,
            "slowest": [(f"{1000 * seconds:.0f} ms, sent {1000 * (at - marks['preview sent']):+.0f} ms after the "
                         f"preview was sent (preview answered at {1000 * (marks['preview answered'] - marks['preview sent']):.0f}, "
                         f"apply at {1000 * (marks['apply answered'] - marks['preview sent']):.0f})") for at, seconds in slowest]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=30000)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--games", type=int, default=12)
    args = parser.parse_args()

    big = harness.bench_server(2, prefix="mason-scores-big-")
    small = harness.bench_server(2, prefix="mason-scores-small-")
    # the import is measured on one worker: with two, a blocked worker stops accepting and the
    # other one answers new connections, but a browser's keep-alive connection stays with its worker
    one = harness.bench_server(1, prefix="mason-scores-one-")
    try:
        for server in (big, one):
            server.upgrade()
            started = time.monotonic()
            fill(str(server.instance), args.rows)
            print(f"filled {args.rows:,} score rows and {args.rows:,} statistics rows in "
                  f"{time.monotonic() - started:.1f} s", flush=True)
            server.start(upgrade=False)
        small.start()

        browser = harness.Browser(big.url, "reader")
        browser.go("/")
        print(f"\n{args.rows:,} rows{'':<20} {'n':>4} {'median ms':>9} {'p90':>8} {'max':>8} {'KB':>9}")
        for label, path in (("/scores", "/scores"), ("/scores sorted by games won", "/scores?sort=won&order=desc"),
                            ("/scores last page", f"/scores?page={args.rows // 50}"),
                            ("/scores search", "/scores?q=ann12"),
                            ("/scores Points Rummy page 300", "/scores?page_points=300")):
            times, size = timed(browser, path, args.repeat)
            print(row(label, times, size, 100), flush=True)
        browser.go("/menus/mason", {"choice": "2"})
        for label, path in (("Menu C", "/setup/seat?kind=2"), ("Menu C search", "/setup/seat?kind=2&q=eve4")):
            times, size = timed(browser, path, args.repeat)
            print(row(label, times, size, 100), flush=True)
        times, size = timed(browser, "/scores.csv", max(3, args.repeat // 3))
        print(row("/scores.csv download (streamed)", times, size), flush=True)

        print("\na game's end (the request that deals the last round and the AI plays it out)")
        ends_big = game_ends(big, args.games)
        ends_small = game_ends(small, args.games)
        print(row(f"with {args.rows:,} score rows", ends_big, None, 50))
        print(row("with an empty score table (baseline)", ends_small, None, 50))
        print(f"  ratio of medians {statistics.median(ends_big) / statistics.median(ends_small):.2f}x")

        print("\nfour clients reloading a page as fast as they can for 5 s; another loads Menu A every 50 ms "
              "(baseline: the four reload Menu A itself)")
        for path in ("/scores", "/"):
            watcher = Watcher(big.url, "/", every=0.05)
            watcher.start()
            stop = time.monotonic() + 5
            reloads = []

            def reload() -> None:
                reader = harness.Browser(big.url, "reloader")
                while time.monotonic() < stop:
                    reloads.append(reader.get(path).seconds)
                reader.close()

            threads = [threading.Thread(target=reload) for _ in range(4)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            waits = watcher.stop()
            print(row(f"{path}, 4 clients at once", reloads))
            print(row("  Menu A meanwhile", waits))

        print(f"\nthe admin imports a {args.rows:,}-row scores.csv (every other row changed) on a one-worker "
              "server; another client loads Menu A every 20 ms, and a third makes a write every 20 ms")
        found = admin_import(one, args.rows)
        print(f"  file {found['csv_kb']:.0f} KB; preview {1000 * found['preview']:.0f} ms "
              f"({found['preview_kb']:.0f} KB page), apply {1000 * found['apply']:.0f} ms "
              f"(target: the apply under 2000 ms: {'met' if found['apply'] < 2 else 'MISSED'})")
        for label, waits in (("Menu A, 3 s before the import", found["quiet"]["Menu A"]),
                             ("Menu A during the import", found["waits"]),
                             ("a write (bench/row), 3 s before", found["quiet"]["a write"]),
                             ("a write during the import", found["writes"])):
            print(row(label, waits, None, 100)
                  + f"   (max {1000 * max(waits):.0f} ms; target: nobody waits > 100 ms: "
                    f"{'met' if max(waits) < 0.1 else 'MISSED'})")
        for line in found["slowest"]:
            print("  slowest:", line)
        print(f"\nserver CPU seconds used (workers): {big.cpu_seconds():.1f}; load average {os.getloadavg()[0]:.1f}")
    finally:
        big.stop()
        small.stop()
        one.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
