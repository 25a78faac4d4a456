"""The harness the HTTP benchmarks share (bench/load.py, live.py, growth.py, memory.py, weight.py);
not a benchmark itself. Each benchmark keeps its own measuring and printing. The server, the
browsers, the page parser and the move chooser are the test suite's own (tests/support, put on
the path here), so a benchmark drives the app exactly as the live tests do:

- ``bench_server``: support.live.LiveServer as the README serves it (``flask db upgrade``, then
  ``python -m app.serving.serve``: gunicorn with gevent workers, WORKERS=2, ADMIN_PASSWORD set) on a free
  port, SQLite in a temporary instance folder, the bench-only routes on; pids, CPU time and
  memory from /proc, gunicorn's access log on request. ``MASON_BENCH_ROOT`` serves another
  checkout (to measure an older version with the same client).
- ``Browser`` (support.client): one browser, its own cookie jar, the CSRF token read from a page
  as a form would, plain or htmx requests, redirects followed like a browser; the benchmarks'
  browsers ask for compressed answers as browsers do (``compressed=True``); ``EventStream``: one
  browser's open event stream, read in a thread; ``Page`` (support.pages): what a page shows.
- Setting up a table through the forms (``new_game``, ``claim_seat``) and the move chooser
  (support.moves.sensible_move: the game's computer player, on the game as the server stored it).
- ``PostgresDatabase``: a new database on a PostgreSQL server, or on a throwaway one of its own
  (scripts/throwaway-postgres), for the benchmarks that measure PostgreSQL.
- ``Table``: a table of bench/load.py's three kinds (hot-seat, LAN 2 and 3 players) playing real
  turns, with ``Stats`` of every request it makes; ``set_up_tables``, ``run_all``, ``figures``.
"""

from __future__ import annotations

import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
# The project served (MASON_BENCH_ROOT: another checkout, to measure an older version the same way).
ROOT = os.environ.get("MASON_BENCH_ROOT") or os.path.join(HERE, "..")
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(HERE, "..", "tests"))  # tests/support: server, browsers, pages, moves

from support.client import Browser, EventStream, Response  # noqa: E402,F401  (re-exported for the benchmarks)
from support.live import LiveServer, free_port  # noqa: E402,F401
from support.moves import sensible_move  # noqa: E402
from support.pages import Page  # noqa: E402

ADMIN_PASSWORD = "bench-admin-password"


def bench_server(workers: int = 2, prefix: str = "mason-bench-", env: dict | None = None,
                 access_log: bool | str = False, root: str = ROOT, database_url: str | None = None) -> LiveServer:
    """The server as the README serves it, for a benchmark: SQLite in a temporary instance folder
    (upgraded at the first start), the bench-only routes (MASON_BENCH_ROUTES=1), event streams kept
    open for an hour; ``database_url``: a database to serve from instead (its owner upgrades it).
    ``access_log``: gunicorn logs every request (True: its default format; a
    string: that format) to ``server.access_log``."""
    # every simulated device connects from 127.0.0.1: the per-address limits are lifted
    unlimited = {"EVENTS_PER_ADDRESS": "100000", "GAMES_PER_HOUR": "100000"}
    return LiveServer(workers=workers, env={"MASON_BENCH_ROUTES": "1", **unlimited, **(env or {})}, root=root,
                      access_log=access_log, admin_password=ADMIN_PASSWORD, events_max_seconds=3600, prefix=prefix,
                      database_url=database_url)


class BaselineServer(LiveServer):
    """The baseline of the web benchmarks: bench/minimal_app.py (a minimal Flask +
    Flask-SQLAlchemy app) served by gunicorn with exactly the settings ``make run`` serves the
    table with (``app.serving.serve.gunicorn_command``), without the table's job runner, on a free port,
    its SQLite file in a temporary folder; pids, CPU time and memory from /proc as for the table's
    server."""

    def __init__(self, workers: int = 2, prefix: str = "minimal-bench-", access_log: bool | str = False):
        super().__init__(workers=workers, prefix=prefix, access_log=access_log)
        self.database = str(self.instance / "minimal.db")
        self.env.update(MINIMAL_DATABASE=self.database, MINIMAL_BELLS=str(self.instance / "bells"),
                        PYTHONPATH=os.pathsep.join([ROOT, HERE]))
        # The settings file's master keeps the card table's job runner going; the minimal app has
        # none, and that process (the table's code, 60 MB) would count as the minimal app's.
        self.env["SOLVER_PROCESSES"] = "0"
        self.needs_upgrade = False

    def start(self, timeout: float = 60.0, upgrade: bool | None = None) -> None:
        import subprocess
        import urllib.request

        from app.serving.serve import gunicorn_command

        subprocess.run([sys.executable, os.path.join(HERE, "minimal_app.py"), self.database], check=True,
                       env=self.env)
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(gunicorn_command(self.port, self.workers, "minimal_app:app", HERE),
                                            cwd=HERE, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                                            start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the baseline server exited at start:\n{self.log()}")
            try:
                with urllib.request.urlopen(self.url + "/", timeout=2) as response:
                    if response.status == 200 and len(self.worker_pids()) >= self.workers:
                        return
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"the baseline server did not answer within {timeout}s:\n{self.log()}")


def baseline_server(workers: int = 2, access_log: bool | str = False) -> BaselineServer:
    """bench/minimal_app.py, served as `make run` serves the table (see ``BaselineServer``)."""
    return BaselineServer(workers, access_log=access_log)


SERVER_TIME_FORMAT = "%(m)s %(U)s %(s)s %(D)s"  # gunicorn's own time of each request, in microseconds


class ServerTimes:
    """The requests a server logged (``SERVER_TIME_FORMAT``) since the last ``read``:
    (method, path, seconds from reading the request to sending the answer)."""

    def __init__(self, server: LiveServer):
        self.path = server.access_log
        self.offset = 0

    def read(self) -> list[tuple[str, str, float]]:
        try:
            with open(self.path, "rb") as log:
                log.seek(self.offset)
                data = log.read()
        except OSError:
            return []
        end = data.rfind(b"\n") + 1  # (a line being written is read next time)
        self.offset += end
        found = []
        for entry in data[:end].decode(errors="replace").splitlines():
            parts = entry.split()
            if len(parts) == 4 and parts[3].isdigit():
                found.append((parts[0], parts[1], int(parts[3]) / 1e6))
        return found


def load_average() -> str:
    """The machine's load average (1, 5, 15 minutes), printed beside every figure."""
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


# -- setting up a table through the forms -----------------------------------------------------------


def new_game(host: Browser, seats: list[tuple[str, str]], deck: str | None = None) -> tuple[str, list[str]]:
    """Menu A (2 or 3 players, shuffled; with ``deck``: the stacked-deck option and the deck
    prompt), then Menu B for every seat: a new player's name and device ("here" or "own").
    Returns the game's slug and the join codes shown on the host's table."""
    slug = host.start_game([name for name, _device in seats], deck=deck, devices=[device for _name, device in seats])
    return slug, host.join_codes(slug)


def claim_seat(browser: Browser, code: str, slug: str) -> str:
    """POST /join with the code read from the host's table; the browser lands on the table (its
    body is returned)."""
    path, body = browser.go("/join", {"code": code})
    if not path.rstrip("/").endswith(f"/games/{slug}"):
        raise RuntimeError(f"{browser.name} did not land on the table after joining")
    return body


def can_reveal(page: Page) -> bool:
    """A hot-seat hand-over screen: the page offers "show my hand"."""
    return bool(page.posts_ending("/reveal"))


def can_deal(page: Page) -> bool:
    """A round summary: the page offers the next deal."""
    return "next_round" in page.button_values("action")


def play_two_seats(table, wanted: int) -> None:
    """Play ``table`` (two players' browsers ``table.players``, their pages ``table.pages``, its
    ``slug`` and ``actions`` count, ``table.act(seat, version)`` returning the mover's new page)
    until it has made ``wanted`` actions or its game is over: whole turns (draw, lay down what
    fits, discard), and the next round's deal when nobody is to move."""
    table.pages = [Page(player.fetch(f"/games/{table.slug}/table").body) for player in table.players]
    while table.actions < wanted:
        if table.pages[0].game_over:
            return
        turn = next((seat for seat, page in enumerate(table.pages) if page.my_turn), None)
        if turn is None:
            if can_deal(table.pages[0]):
                table.act(0, table.pages[0].table_version)
                continue
            raise RuntimeError("nobody's turn and no next round")
        page = table.pages[turn]
        while page.my_turn and page.hand and table.actions < wanted:
            page = table.act(turn, page.table_version)


# -- tables playing real turns (bench/load.py, growth.py, memory.py, weight.py) -------------------

HOT, LAN2, LAN3 = "hot-seat 2p", "LAN 2p", "LAN 3p"
KINDS = (HOT, LAN2, LAN3)


STREAMS_OF_A_TABLE = {HOT: 1, LAN2: 2, LAN3: 3}  # a table's browsers: one at hot-seat, one a player on LAN


def streams_per_table(count: int) -> list[int]:
    """How many event streams the first ``count`` tables of ``set_up_tables`` keep open."""
    return [STREAMS_OF_A_TABLE[KINDS[number % len(KINDS)]] for number in range(count)]


def open_table_streams(server: LiveServer, tables: list[Table]) -> list[EventStream]:
    """Every browser's event stream at every table, as its open table page keeps it."""
    streams = [EventStream(server.url, table.slug, cookies=browser.cookies, reconnect=True, timeout=120)
               for table in tables for browser in table.browsers]
    for stream in streams:
        stream.ready.wait(30)
    return streams


def open_baseline_streams(server: LiveServer, counts: list[int]) -> list[EventStream]:
    """On the minimal app: ``counts[n]`` streams of its row n."""
    streams = [EventStream(server.url, f"r{number}", since=0, reconnect=True, timeout=120)
               for number, count in enumerate(counts) for _ in range(count)]
    for stream in streams:
        stream.ready.wait(30)
    return streams


class ArrivalStream(EventStream):
    """One browser's open event stream of a table that several browsers watch: each ``changed``
    event is noted in ``seen`` (version, arrival time) and wakes whoever waits on the table's
    ``changed`` condition for its browsers' events."""

    def __init__(self, base: str, slug: str, version: int, table, cookies: dict | None = None):
        self.table = table
        self.seen: list[tuple[int, float]] = []
        super().__init__(base, slug, since=version, cookies=cookies, reconnect=True, timeout=120)

    def changed(self, version: int, at: float) -> None:
        with self.table.changed:
            self.latest = max(self.latest, version)
            self.seen.append((version, at))
            self.table.changed.notify_all()

    def arrival(self, version: int) -> float | None:
        """When this browser first had an event for ``version`` or later (call under the lock)."""
        for seen, at in self.seen:
            if seen >= version:
                return at
        return None


def close_all(server: LiveServer, streams: list[EventStream], tables: list[Table] | None = None) -> None:
    """The end of a case: its streams, its tables' browsers, then its server."""
    for stream in streams:
        stream.close()
    for table in tables or []:
        table.close()
    server.stop()


class Stats:
    """Latencies by kind of request, and when each was answered."""

    def __init__(self):
        self.lock = threading.Lock()
        self.times: dict[str, list[float]] = {}
        self.sizes: dict[str, list[int]] = {}  # response body bytes
        self.largest: dict[str, bytes] = {}  # the largest body of each kind
        self.errors: list[str] = []

    def add(self, kind: str, seconds: float, body: str | None = None) -> None:
        with self.lock:
            self.times.setdefault(kind, []).append(seconds)
            if body is not None:
                data = body.encode()
                self.sizes.setdefault(kind, []).append(len(data))
                if len(data) > len(self.largest.get(kind, b"")):
                    self.largest[kind] = data

    def all(self, *kinds: str) -> list[float]:
        return [value for kind in kinds for value in self.times.get(kind, [])]


ACTION_KINDS = ("draw", "lay_down", "discard", "next_round", "reveal")


class Table:
    """One table of a kind: hot-seat (2 players on the host's browser, every turn starting with
    the hand-over's reveal), LAN 2 or 3 players (the host plays seat 1, the others joined on
    their own browsers)."""

    def __init__(self, server: LiveServer, number: int, kind: str | None = None):
        self.server = server
        self.base = server.url
        self.number = number
        self.kind = kind or KINDS[number % 3]
        self.host = Browser(self.base, f"t{number}-host", keep_alive=True, compressed=True)
        self.joiners = [Browser(self.base, f"t{number}-seat{seat + 2}", keep_alive=True, compressed=True)
                        for seat in range({HOT: 0, LAN2: 1, LAN3: 2}[self.kind])]
        self.browsers = [self.host, *self.joiners]
        self.slug = ""
        self.pages: dict[str, Page] = {}
        self.random = random.Random(number)
        self.games = 1
        self.last: tuple[str, float] | None = None  # the last timed form post: (kind, seconds)
        self.everyone = False  # see pass_turn

    # which browser plays a seat: the host holds seat 0 (and seat 1 at a hot-seat table)
    def browser_for(self, seat: int) -> Browser:
        return self.host if self.kind == HOT or seat == 0 else self.joiners[seat - 1]

    def set_up(self) -> None:
        """Menu A (2 or 3 players, shuffled), a new name for every seat, then the join codes."""
        players = 3 if self.kind == LAN3 else 2
        self.host.go("/")
        self.slug, codes = new_game(self.host, [
            (f"T{self.number}P{seat + 1}", "here" if self.kind == HOT or seat == 0 else "own")
            for seat in range(players)])
        if len(codes) != len(self.joiners):
            raise RuntimeError(f"table {self.number}: {len(codes)} join codes on the host's table")
        for browser, code in zip(self.joiners, codes):
            browser.go("/")
            claim_seat(browser, code, self.slug)
        self.refresh_all()

    def refresh_all(self) -> None:
        for browser in self.browsers:
            self.pages[browser.name] = Page(browser.get(f"/games/{self.slug}/table", htmx=True).body)

    def post(self, stats: Stats, kind: str, browser: Browser, path: str, form: dict) -> Page:
        answer = browser.post(path, form, htmx=True)
        if answer.status != 200:
            raise RuntimeError(f"{browser.name} {kind}: {answer.status}\n{answer.body[:1500]}")
        stats.add(kind, answer.seconds, answer.body)
        self.last = (kind, answer.seconds)
        page = self.pages[browser.name] = Page(answer.body)
        return page

    def act(self, stats: Stats, browser: Browser, page: Page) -> Page:
        """The move the game's computer player would make for the seat (or table) to move, on
        the game as stored, posted through the table form of ``page``."""
        choice = sensible_move(self.server.state(self.slug))
        kind = "draw" if choice.name.startswith("draw") else choice.name
        page = self.post(stats, kind, browser, f"/games/{self.slug}/act", choice.form(page.table_version))
        self.pass_turn(stats, browser, page)
        return page

    def pass_turn(self, stats: Stats, actor: Browser, page: Page) -> None:
        """After an action the other browsers learn of it (the live event) and fetch their
        fragment: every one of them if ``self.everyone`` (what open table pages do), else only
        the one whose turn it now is."""
        if self.kind == HOT:
            return
        if self.everyone:
            others = [browser for browser in self.browsers if browser is not actor]
        else:
            turn = self.server.state(self.slug).to_move()
            others = [self.browser_for(turn)] if turn is not None else []
        for browser in others:
            if browser is actor:
                continue
            answer = browser.get(self.pages[browser.name].refresh_url, htmx=True)
            if answer.status != 200:
                raise RuntimeError(f"{browser.name} refresh: {answer.status}\n{answer.body[:1500]}")
            stats.add("refresh", answer.seconds, answer.body)
            self.pages[browser.name] = Page(answer.body)

    def whose_turn(self) -> tuple[Browser, Page]:
        """The browser to act: whose page offers a turn (or the hand-over), else the freshest
        page (a round summary or the game's end, shown to whoever made the last action)."""
        for browser in self.browsers:
            page = self.pages[browser.name]
            if page.my_turn or can_reveal(page):
                return browser, page
        browser = max(self.browsers, key=lambda b: self.pages[b.name].table_version)
        return browser, self.pages[browser.name]

    def step(self, stats: Stats, think: float) -> None:
        """One decision of whoever is to play (a POST, or a rematch at the game's end)."""
        browser, page = self.whose_turn()
        if think:
            time.sleep(self.random.uniform(0.5 * think, 1.5 * think))
        if page.game_over:
            self.rematch()
        elif can_reveal(page):
            self.post(stats, "reveal", browser, f"/games/{self.slug}/reveal", {"version": str(page.table_version)})
        elif can_deal(page) or page.my_turn:
            self.act(stats, browser, page)
        else:
            self.refresh_all()  # nobody's turn in view (cannot happen; recover anyway)

    def rematch(self) -> None:
        """A game ended: the host starts the rematch, the joined players follow it."""
        path, _ = self.host.go(f"/games/{self.slug}/rematch", {})
        old, self.slug = self.slug, path.rstrip("/").rsplit("/", 1)[1]
        for browser in self.joiners:
            browser.go(f"/games/{old}/follow", {})
        self.games += 1
        self.refresh_all()

    def play(self, stats: Stats, until: float, think: float) -> None:
        try:
            while time.monotonic() < until:
                self.step(stats, think)
        except Exception as error:  # reported with the figures; the other tables go on
            stats.errors.append(f"table {self.number} ({self.kind}): {type(error).__name__}: {error}")

    def close(self) -> None:
        for browser in self.browsers:
            browser.close()


def run_all(tables: list, work, *args) -> float:
    """``work(table, *args)`` for every table at once, a thread each; the wall time it took."""
    threads = [threading.Thread(target=work, args=(table, *args), daemon=True) for table in tables]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.monotonic() - started


def set_up_tables(server: LiveServer, count: int, parallel: int = 8, kind: str | None = None) -> list[Table]:
    tables = [Table(server, number, kind) for number in range(count)]
    for start in range(0, count, parallel):
        run_all(tables[start:start + parallel], Table.set_up)
    # The players choose their moves on the games as stored: this process's first read sets up its
    # reader (the app's models, the queries), which would stall every browser of the first timed phase.
    server.state(tables[0].slug)
    return tables


# -- figures ------------------------------------------------------------------------------------


def figures(values: list[float]) -> dict:
    """Count, percentiles, max and mean of durations in seconds, in ms (only n under 2 values)."""
    ms = sorted(v * 1000 for v in values)
    if len(ms) < 2:
        return {"n": len(ms)}
    cuts = statistics.quantiles(ms, n=100, method="inclusive")
    return {"n": len(ms), "p50": cuts[49], "p90": cuts[89], "p99": cuts[98], "max": ms[-1],
            "mean": statistics.fmean(ms)}


# -- PostgreSQL --------------------------------------------------------------------------------


class PostgresDatabase:
    """A new database on the given PostgreSQL server, or on a throwaway server of its own
    (scripts/throwaway-postgres); ``drop()`` removes both."""

    def __init__(self, server_url: str | None, prefix: str = "bench"):
        from sqlalchemy.engine import make_url

        self.folder = None
        if server_url is None:
            self.folder = tempfile.mkdtemp(prefix="card-table-bench-pg-")
            os.chmod(self.folder, 0o755)  # the postgres user (when we are root) must reach its data
            server_url = subprocess.run([os.path.join(HERE, "..", "scripts", "throwaway-postgres"), "start",
                                         os.path.join(self.folder, "server"), str(free_port())],
                                        check=True, capture_output=True, text=True).stdout.strip()
        self.server = make_url(server_url)
        self.name = f"{prefix}_{uuid.uuid4().hex[:8]}"
        self._admin(f'CREATE DATABASE "{self.name}"')
        self.url = self.server.set(database=self.name).render_as_string(hide_password=False)
        self.libpq_url = self.server.set(database=self.name, drivername="postgresql").render_as_string(hide_password=False)

    def _admin(self, statement: str) -> None:
        import psycopg

        url = self.server.set(database=self.server.database or "postgres", drivername="postgresql")
        with psycopg.connect(url.render_as_string(hide_password=False), autocommit=True) as connection:
            connection.execute(statement)

    def transactions(self) -> int:
        """Transactions committed or rolled back in the database so far (this read is one)."""
        import psycopg

        with psycopg.connect(self.libpq_url, autocommit=True) as connection:
            return connection.execute("SELECT xact_commit + xact_rollback FROM pg_stat_database "
                                      "WHERE datname = current_database()").fetchone()[0]

    def listeners(self) -> int:
        import psycopg

        with psycopg.connect(self.libpq_url, autocommit=True) as connection:
            return connection.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                                      "AND application_name = 'card-table-listener'").fetchone()[0]

    def drop(self) -> None:
        self._admin(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
        if self.folder:
            subprocess.run([os.path.join(HERE, "..", "scripts", "throwaway-postgres"), "stop",
                            os.path.join(self.folder, "server")], capture_output=True)
            shutil.rmtree(self.folder, ignore_errors=True)
