"""Actions under load (issue 6; a benchmark, not a test): per-action latency and actions per
second with T tables playing at once, against a baseline measured in the same run.

    .venv/bin/python bench/load.py [--tables 1,10,50,100] [--seconds 12] [--think 1.0]

The server is started as the README serves it (``flask db upgrade``, then ``python -m
app.serve``: gunicorn with gevent workers, WORKERS=2, ADMIN_PASSWORD set) on a free port, with
the SQLite file in a temporary instance folder. Every table is set up through the real forms
(CSRF tokens, Menu A, Menu B seats, session cookies), a third of each kind:

- hot-seat: 2 players on one browser (one cookie jar); every turn starts with the hand-over
  screen and its "show my hand" POST (/reveal);
- LAN, 2 players: the host plays seat 1 on their browser, seat 2 joins on its own browser with
  the join code shown on the host's table (POST /join);
- LAN, 3 players: the same with two joined browsers.

Players take real turns through the table form as htmx sends it (HX-Request, the #table
fragment comes back): draw (stock, or the discard pile when the stock cannot give a card), lay
down what the visible hand allows (``app.rules.players.next_computer_play`` on the hand and own
sets read from the page, R8.2), discard the highest-scoring card; at a round's end "Deal round",
at the game's end a rematch (the others follow it). When a turn passes to another browser, that
browser fetches its fragment (GET /table?since=V, what htmx does on the live event): a
"refresh", timed too. An action is any table form POST (draw, lay down, discard, next round,
reveal); its latency is from sending the request to having read the whole response.

For each T (the first T tables; all are set up at the start):
1. paced: every player thinks 0.5x-1.5x ``--think`` seconds before each action (a fast human),
   for ``--seconds``: the latency players feel with T tables playing (target: p99 < 25 ms at 50);
2. flat out: no think time, one request in flight per table (concurrency T): actions per second;
3. baseline, flat out at the same concurrency T: POST /bench/row/<slug> (app/web/bench.py,
   registered because the server gets MASON_BENCH_ROUTES=1) reads one SQLite row and writes it,
   with the same session cookie and CSRF check. Half is measured before the flat-out actions and
   half after, so drift of the shared machine shows in both. Target: actions/s at least half the
   baseline's requests/s.

The server's own CPU time (user+system of the gunicorn workers, from /proc) per request is
printed as well: unlike wall-clock time it hardly depends on what else runs on the machine.
Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request

# The project served (MASON_BENCH_ROOT: another checkout, to measure an older version the same way).
ROOT = os.environ.get("MASON_BENCH_ROOT") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

from app.rules.cards import Card  # noqa: E402
from app.rules.melds import CardSet  # noqa: E402
from app.rules.players import Hand, next_computer_play  # noqa: E402

TARGET_P99_MS = 25.0
TARGET_RATIO = 0.5
ADMIN_PASSWORD = "bench-admin-password"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


# -- the server ----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """The app as the README serves it (`make run`: db upgrade, then app.serve -> gunicorn with
    gevent workers), on a free port, with SQLite in a temporary instance folder."""

    def __init__(self, workers: int = 2, prefix: str = "mason-bench-", env: dict | None = None,
                 root: str = ROOT):
        self.root = root  # the project folder to serve (another checkout, to compare two versions)
        self.instance = tempfile.mkdtemp(prefix=prefix)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.workers = workers
        self.env = {key: value for key, value in os.environ.items()
                    if key not in ("DATABASE_URL", "SECRET_KEY", "GUNICORN_CMD_ARGS")}
        self.env.update(PORT=str(self.port), WORKERS=str(workers), MASON_INSTANCE=self.instance,
                        MASON_BENCH_ROUTES="1", EVENTS_MAX_SECONDS="3600", MASON_PUBLIC_URL=self.url,
                        ADMIN_PASSWORD=ADMIN_PASSWORD, DECKS_FOLDER=os.path.join(ROOT, "decks"))
        self.env.update(env or {})
        self.database = os.path.join(self.instance, "mason.db")
        self.log_path = os.path.join(self.instance, "server.log")
        self.process: subprocess.Popen | None = None

    def upgrade(self) -> None:
        subprocess.run([sys.executable, "-m", "flask", "--app", "wsgi", "db", "upgrade"], cwd=self.root,
                       env=self.env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def start(self, upgrade: bool = True) -> None:
        if upgrade:
            self.upgrade()
        log = open(self.log_path, "ab")
        self.process = subprocess.Popen([sys.executable, "-m", "app.serve"], cwd=self.root, env=self.env,
                                        stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"the server exited:\n{self.log()}")
            try:
                with urllib.request.urlopen(self.url + "/", timeout=2) as response:
                    if response.status == 200 and len(self.worker_pids()) >= self.workers:
                        return
            except OSError:
                pass
            time.sleep(0.2)
        raise SystemExit(f"the server did not start within 60 s:\n{self.log()}")

    def log(self) -> str:
        try:
            with open(self.log_path, errors="replace") as handle:
                return handle.read()[-3000:]
        except OSError:
            return ""

    def stop(self, remove: bool = True) -> None:
        if self.process is not None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
                self.process.wait(timeout=15)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                try:
                    os.killpg(self.process.pid, signal.SIGKILL)
                    self.process.wait(timeout=5)
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    pass
            self.process = None
        if remove:
            shutil.rmtree(self.instance, ignore_errors=True)

    # -- /proc: the gunicorn master (app.serve exec's into it) and its workers

    def worker_pids(self) -> list[int]:
        if self.process is None:
            return []
        master = self.process.pid
        children = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/stat") as handle:
                        fields = handle.read().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                if int(fields[1]) == master:
                    children.append(int(entry))
        return sorted(children)

    def pids(self) -> list[int]:
        return [self.process.pid, *self.worker_pids()] if self.process else []

    def rss(self) -> int:
        """Resident memory of the master and every worker, in bytes (VmRSS from /proc)."""
        total = 0
        for pid in self.pids():
            try:
                with open(f"/proc/{pid}/status") as handle:
                    for line in handle:
                        if line.startswith("VmRSS:"):
                            total += int(line.split()[1]) * 1024
            except OSError:
                pass
        return total

    def cpu_seconds(self) -> float:
        """User + system CPU seconds used so far by the workers."""
        total = 0
        for pid in self.worker_pids():
            try:
                with open(f"/proc/{pid}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
                total += int(fields[11]) + int(fields[12])
            except OSError:
                pass
        return total / CLOCK_TICKS


# -- browsers -----------------------------------------------------------------------------------

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


class Response:
    __slots__ = ("status", "headers", "body", "seconds")

    def __init__(self, status: int, headers, body: str, seconds: float):
        self.status, self.headers, self.body, self.seconds = status, headers, body, seconds


class Browser:
    """One browser: a keep-alive connection and its own cookie jar (the session cookie holds
    its seat tokens and CSRF secret). Plain ``http.client``, so the client costs little CPU."""

    IDLE_REUSE = 3.0  # gunicorn closes idle keep-alive connections after 5 s

    def __init__(self, base: str, name: str):
        parts = urllib.parse.urlsplit(base)
        self.host, self.port = parts.hostname, parts.port
        self.name = name
        self.cookies: dict[str, str] = {}
        self.csrf: str | None = None
        self.connection: http.client.HTTPConnection | None = None
        self.last_used = 0.0

    def _connection(self) -> http.client.HTTPConnection:
        if self.connection is not None and time.monotonic() - self.last_used > self.IDLE_REUSE:
            self.connection.close()
            self.connection = None
        if self.connection is None:
            self.connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
        return self.connection

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None

    def request(self, method: str, path: str, form: dict | None = None, htmx: bool = False) -> Response:
        headers = {}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if htmx:
            headers["HX-Request"] = "true"
        body = None
        if form is not None:
            if self.csrf is None:
                self.csrf = CSRF.search(self.request("GET", "/").body).group(1)
            body = urllib.parse.urlencode(dict(form, csrf_token=self.csrf), doseq=True)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        for attempt in (1, 2):
            reused = self.connection is not None
            connection = self._connection()
            started = time.perf_counter()
            try:
                connection.request(method, path, body=body, headers=headers)
                answer = connection.getresponse()
                data = answer.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.close()
                if attempt == 2 or not reused:
                    raise
                continue  # the server closed an idle keep-alive connection: nothing was done
            seconds = time.perf_counter() - started
            self.last_used = time.monotonic()
            if answer.will_close:
                self.close()
            for cookie in answer.msg.get_all("Set-Cookie") or []:
                name, _, rest = cookie.partition("=")
                value = rest.split(";", 1)[0]
                if value and "Max-Age=0" not in cookie and "1970" not in cookie:
                    self.cookies[name.strip()] = value
                else:
                    self.cookies.pop(name.strip(), None)
            return Response(answer.status, answer.msg, data.decode(), seconds)
        raise AssertionError("unreachable")

    def get(self, path: str, htmx: bool = False) -> Response:
        return self.request("GET", path, htmx=htmx)

    def post(self, path: str, form: dict, htmx: bool = False) -> Response:
        return self.request("POST", path, form, htmx)

    def go(self, path: str, form: dict | None = None) -> tuple[str, str]:
        """A plain (non-htmx) page visit or form post, following redirects like a browser:
        (final path, body). Anything but 200 in the end is an error."""
        answer = self.request("GET" if form is None else "POST", path, form)
        for _ in range(5):
            if answer.status not in (301, 302, 303):
                break
            path = urllib.parse.urlsplit(answer.headers["Location"]).path
            answer = self.get(path)
        if answer.status != 200:
            raise RuntimeError(f"{self.name}: {path} answered {answer.status}:\n{answer.body[:1500]}")
        return path, answer.body


# -- reading a table page -----------------------------------------------------------------------

TABLE = re.compile(r'id="table"[^>]*data-version="(\d+)"[^>]*data-my-turn="(yes|no)"')
SEAT = re.compile(r'name="seat" value="(\d+)"')
HAND_CARD = re.compile(r'<input type="checkbox" name="cards" value="(..)"')
PLAYER = re.compile(r'<li class="player([^"]*)">(.*?)</li>', re.S)
DATA_CARD = re.compile(r'data-card="(..)"')
JOIN_CODE = re.compile(r'<code class="join-code">([A-Z2-9]+)</code>')


class Page:
    """What a player reads on their table fragment (nothing a real player could not see)."""

    def __init__(self, html: str):
        found = TABLE.search(html)
        if not found:
            raise RuntimeError(f"not a table:\n{html[:1500]}")
        self.version = int(found.group(1))
        self.my_turn = found.group(2) == "yes"
        seat = SEAT.search(html)
        self.seat = int(seat.group(1)) if seat else None
        self.hand = [Card.parse(code) for code in HAND_CARD.findall(html)]
        self.turn = None
        self.sets: list[CardSet] = []
        for number, (classes, body) in enumerate(PLAYER.findall(html)):
            if " turn" in classes:
                self.turn = number
            if " me" in classes:
                for part in body.split('<span class="set ')[1:]:
                    kind = part.split('"', 1)[0]
                    self.sets.append(CardSet(kind, [Card.parse(c) for c in DATA_CARD.findall(part)]))
        self.can_draw_stock = 'value="draw_stock">' in html
        self.draw = 'value="draw_stock"' in html
        self.reveal = "/reveal" in html
        self.next_round = 'value="next_round"' in html
        self.over = "<h2>Game over</h2>" in html


# -- tables -------------------------------------------------------------------------------------

HOT, LAN2, LAN3 = "hot-seat 2p", "LAN 2p", "LAN 3p"
KINDS = (HOT, LAN2, LAN3)


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
    def __init__(self, base: str, number: int, kind: str | None = None):
        self.base = base
        self.number = number
        self.kind = kind or KINDS[number % 3]
        self.host = Browser(base, f"t{number}-host")
        self.joiners = [Browser(base, f"t{number}-seat{seat + 2}")
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
        h = self.host
        players = 3 if self.kind == LAN3 else 2
        h.go("/")
        h.go("/", {"choice": str(players)})
        body = ""
        for seat in range(players):
            device = "here" if self.kind == HOT or seat == 0 else "own"
            path, body = h.go("/setup/seat", {"kind": "1", "name": f"T{self.number}P{seat + 1}", "device": device})
        self.slug = path.rstrip("/").rsplit("/", 1)[1]
        codes = JOIN_CODE.findall(body)
        if len(codes) != len(self.joiners):
            raise RuntimeError(f"table {self.number}: {len(codes)} join codes on the host's table")
        for browser, code in zip(self.joiners, codes):
            browser.go("/")
            path, _ = browser.go("/join", {"code": code})
            if not path.endswith(self.slug):
                raise RuntimeError(f"{browser.name} did not land on the table after joining")
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

    def act(self, stats: Stats, browser: Browser, action: str, page: Page, cards=()) -> Page:
        kind = "draw" if action.startswith("draw") else action
        page = self.post(stats, kind, browser, f"/games/{self.slug}/act", {
            "action": action, "version": str(page.version), "seat": str(page.seat),
            "cards": [card.code for card in cards]})
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
            others = [self.browser_for(page.turn)] if page.turn is not None else []
        for browser in others:
            if browser is actor:
                continue
            known = self.pages[browser.name].version
            answer = browser.get(f"/games/{self.slug}/table?since={known}", htmx=True)
            if answer.status != 200:
                raise RuntimeError(f"{browser.name} refresh: {answer.status}\n{answer.body[:1500]}")
            stats.add("refresh", answer.seconds, answer.body)
            self.pages[browser.name] = Page(answer.body)

    def whose_turn(self) -> tuple[Browser, Page]:
        """The browser to act: whose page offers a turn (or the hand-over), else the freshest
        page (a round summary or the game's end, shown to whoever made the last action)."""
        for browser in self.browsers:
            page = self.pages[browser.name]
            if page.my_turn or page.reveal:
                return browser, page
        browser = max(self.browsers, key=lambda b: self.pages[b.name].version)
        return browser, self.pages[browser.name]

    def step(self, stats: Stats, think: float) -> None:
        """One decision of whoever is to play (a POST, or a rematch at the game's end)."""
        browser, page = self.whose_turn()
        if think:
            time.sleep(self.random.uniform(0.5 * think, 1.5 * think))
        if page.over:
            self.rematch()
        elif page.reveal:
            self.post(stats, "reveal", browser, f"/games/{self.slug}/reveal", {"version": str(page.version)})
        elif page.next_round:
            self.act(stats, browser, "next_round", page)
        elif page.my_turn and page.draw:
            self.act(stats, browser, "draw_stock" if page.can_draw_stock else "draw_discard", page)
        elif page.my_turn:
            selection = next_computer_play(Hand(page.hand, page.sets))  # R8.2 on the visible hand
            if selection:
                self.act(stats, browser, "lay_down", page, selection)
            else:
                worst = max(page.hand, key=lambda card: (card.points, card.sort_key))
                self.act(stats, browser, "discard", page, [worst])
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

    def baseline(self, stats: Stats, until: float) -> None:
        """The baseline client: the same browser posts the one-row read+write route."""
        try:
            while time.monotonic() < until:
                answer = self.host.post(f"/bench/row/{self.slug}", {})
                if answer.status != 200:
                    raise RuntimeError(f"baseline: {answer.status}\n{answer.body[:500]}")
                stats.add("row", answer.seconds)
        except Exception as error:
            stats.errors.append(f"baseline {self.number}: {type(error).__name__}: {error}")

    def close(self) -> None:
        for browser in self.browsers:
            browser.close()


def run_all(tables: list[Table], work, *args) -> float:
    threads = [threading.Thread(target=work, args=(table, *args), daemon=True) for table in tables]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.monotonic() - started


def set_up_tables(base: str, count: int, parallel: int = 8, kind: str | None = None) -> list[Table]:
    tables = [Table(base, number, kind) for number in range(count)]
    for start in range(0, count, parallel):
        run_all(tables[start:start + parallel], Table.set_up)
    return tables


# -- figures ------------------------------------------------------------------------------------


def figures(values: list[float]) -> dict:
    ms = sorted(v * 1000 for v in values)
    if len(ms) < 2:
        return {"n": len(ms)}
    cuts = statistics.quantiles(ms, n=100, method="inclusive")
    return {"n": len(ms), "p50": cuts[49], "p90": cuts[89], "p99": cuts[98], "max": ms[-1]}


def line(label: str, values: list[float], seconds: float | None = None, cpu: float | None = None) -> str:
    f = figures(values)
    if "p50" not in f:
        return f"  {label:<22} n={f['n']} (too few)"
    text = f"  {label:<22} n={f['n']:<6} p50 {f['p50']:6.1f} ms  p99 {f['p99']:6.1f} ms  max {f['max']:6.1f} ms"
    if seconds:
        text += f"  {f['n'] / seconds:7.1f}/s"
    if cpu is not None and f["n"]:
        text += f"  server CPU {1000 * cpu / f['n']:.2f} ms each"
    return text


class Phase:
    """One measured phase: its stats, wall time and the server's CPU seconds."""

    def __init__(self, server: Server):
        self.server = server
        self.stats = Stats()
        self.seconds = 0.0
        self.cpu = 0.0

    def run(self, tables: list[Table], work, *args) -> "Phase":
        cpu = self.server.cpu_seconds()
        self.seconds += run_all(tables, work, self.stats, *args)
        self.cpu += self.server.cpu_seconds() - cpu
        return self

    def count(self, *kinds: str) -> int:
        return len(self.stats.all(*kinds))

    def rate(self, *kinds: str) -> float:
        return self.count(*kinds) / self.seconds if self.seconds else 0.0


def measure(server: Server, tables: list[Table], seconds: float, think: float,
            profile: str | None = None) -> dict:
    """The paced, baseline and flat-out phases for these tables (see the module docstring)."""
    paced = Phase(server).run(tables, Table.play, time.monotonic() + seconds, think)
    baseline = Phase(server)
    flat = Phase(server)
    baseline.run(tables, Table.baseline, time.monotonic() + seconds / 2)
    spies = start_profiles(server, seconds, profile, len(tables)) if profile else []
    flat.run(tables, Table.play, time.monotonic() + seconds, 0.0)
    for spy in spies:
        spy.wait()
    baseline.run(tables, Table.baseline, time.monotonic() + seconds / 2)
    if spies:
        print_profile([spy.args[spy.args.index("-o") + 1] for spy in spies])
    return {"paced": paced, "flat": flat, "baseline": baseline}


# -- profiling the workers (--py-spy) -------------------------------------------------------------


def start_profiles(server: Server, seconds: float, folder: str, count: int) -> list[subprocess.Popen]:
    """py-spy samples every worker during the flat-out phase (collapsed stacks, one file each)."""
    os.makedirs(folder, exist_ok=True)
    spy = os.path.join(os.path.dirname(sys.executable), "py-spy")
    return [subprocess.Popen([spy, "record", "--pid", str(pid), "--duration", str(max(1, int(seconds) - 1)),
                              "--rate", "250", "--format", "raw", "--nonblocking",
                              "-o", os.path.join(folder, f"T{count}-worker{pid}.txt")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for pid in server.worker_pids()]


def print_profile(paths: list[str], top: int = 25) -> None:
    """The functions of the app (and its templates) with the largest share of the samples,
    counting the time spent in what they call (inclusive)."""
    inclusive: dict[str, int] = {}
    total = 0
    for path in paths:
        try:
            lines = open(path).read().splitlines()
        except OSError:
            continue
        for line in lines:
            stack, _, count = line.rpartition(" ")
            total += int(count)
            seen = set()
            for frame in stack.split(";"):
                name, _, where = frame.partition(" (")
                if where.startswith(("app/", "templates/")) or ".html:" in where or name in ("Flask.wsgi_app", "_sendall"):
                    key = f"{name} ({where.rsplit(':', 1)[0].split('/')[-1]})"
                    if key not in seen:
                        seen.add(key)
                        inclusive[key] = inclusive.get(key, 0) + int(count)
    print(f"  py-spy, flat-out phase ({total} samples; stacks in {os.path.dirname(paths[0])}):")
    for key, count in sorted(inclusive.items(), key=lambda item: -item[1])[:top]:
        print(f"    {100 * count / max(1, total):5.1f}%  {key}")


def report(count: int, phases: dict, think: float) -> dict:
    paced, flat, baseline = phases["paced"], phases["flat"], phases["baseline"]
    all_kinds = ACTION_KINDS + ("refresh",)
    print(f"\nT = {count} tables, concurrency {count}")
    print(f" paced (think {think:.1f} s): {paced.rate(*ACTION_KINDS):.1f} actions/s over {paced.seconds:.1f} s")
    print(line("actions", paced.stats.all(*ACTION_KINDS), paced.seconds))
    for kind in all_kinds:
        if paced.count(kind) >= 20:
            print(line(f"  {kind}", paced.stats.all(kind)))
    server_ms = 1000 * paced.cpu / max(1, paced.count(*all_kinds))
    print(f"  server CPU {server_ms:.2f} ms per request (actions and refreshes)")
    print(f" flat out: {flat.rate(*ACTION_KINDS):.1f} actions/s, {flat.rate(*all_kinds):.1f} requests/s "
          f"(with refreshes) over {flat.seconds:.1f} s")
    print(line("actions", flat.stats.all(*ACTION_KINDS), flat.seconds))
    print(line("refreshes", flat.stats.all("refresh"), flat.seconds))
    print(f"  server CPU {1000 * flat.cpu / max(1, flat.count(*all_kinds)):.2f} ms per request")
    print(f" baseline (read + write one row), flat out: {baseline.rate('row'):.1f} requests/s")
    print(line("row", baseline.stats.all("row"), baseline.seconds, baseline.cpu))
    result = {"T": count, "paced": figures(paced.stats.all(*ACTION_KINDS)),
              "flat": figures(flat.stats.all(*ACTION_KINDS)), "base": figures(baseline.stats.all("row")),
              "flat_rate": flat.rate(*ACTION_KINDS), "base_rate": baseline.rate("row"),
              "paced_rate": paced.rate(*ACTION_KINDS)}
    if result["base_rate"]:
        ratio = result["flat_rate"] / result["base_rate"]
        result["ratio"] = ratio
        print(f" ratio: actions/s / baseline requests/s = {ratio:.2f} "
              f"(target >= {TARGET_RATIO}: {'meets' if ratio >= TARGET_RATIO else 'MISSES'})")
        if "p50" in result["flat"] and "p50" in result["base"]:
            print(f"        flat-out latency action/baseline: p50 {result['flat']['p50'] / result['base']['p50']:.2f}x, "
                  f"p99 {result['flat']['p99'] / result['base']['p99']:.2f}x")
    errors = [e for phase in phases.values() for e in phase.stats.errors]
    for error in errors[:10]:
        print(f" ERROR {error}")
    result["errors"] = len(errors)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="1,10,50,100", help="comma-separated table counts T")
    parser.add_argument("--seconds", type=float, default=12.0, help="length of each phase")
    parser.add_argument("--think", type=float, default=1.0, help="mean think time (s) of the paced phase")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--refresh", choices=("all", "turn"), default="all",
                        help="after an action, every other browser at the table fetches its fragment "
                             "(all: what open table pages do) or only the one whose turn it is (turn)")
    parser.add_argument("--py-spy", metavar="FOLDER", help="profile the workers with py-spy during each "
                        "flat-out phase; the stacks go to FOLDER, a summary is printed")
    args = parser.parse_args()
    counts = [int(part) for part in args.tables.split(",") if part.strip()]

    server = Server(args.workers, prefix="mason-load-bench-")
    print(f"Starting the server as the README serves it: gunicorn, gevent, {args.workers} workers, "
          f"SQLite in {server.instance}, {server.url}", flush=True)
    server.start()
    results = []
    tables: list[Table] = []
    try:
        started = time.monotonic()
        tables = set_up_tables(server.url, max(counts))
        for table in tables:
            table.everyone = args.refresh == "all"
        kinds = {kind: sum(t.kind == kind for t in tables) for kind in KINDS}
        print(f"Set up {len(tables)} tables through the forms ({', '.join(f'{n} {k}' for k, n in kinds.items())}) "
              f"in {time.monotonic() - started:.1f} s; after an action "
              f"{'every other browser at the table' if args.refresh == 'all' else 'the browser whose turn it is'}"
              f" fetches its fragment", flush=True)
        for count in counts:
            cpu = time.process_time()
            phases = measure(server, tables[:count], args.seconds, args.think, args.py_spy)
            results.append(report(count, phases, args.think))
            print(f" (this client used {time.process_time() - cpu:.1f} CPU s)", flush=True)
        rss = server.rss()
    finally:
        for table in tables:
            table.close()
        server.stop()

    print("\nSummary (ms; actions/s; ratio = flat-out actions/s / baseline requests/s)")
    print(f"{'T':>4} {'paced p50':>10} {'paced p99':>10} {'flat p50':>9} {'flat p99':>9} {'actions/s':>10} "
          f"{'base p50':>9} {'base p99':>9} {'base/s':>8} {'ratio':>6}")
    for r in results:
        p, f, b = r["paced"], r["flat"], r["base"]
        if "p50" not in p or "p50" not in f or "p50" not in b:
            print(f"{r['T']:>4} (too few samples)")
            continue
        print(f"{r['T']:>4} {p['p50']:>10.1f} {p['p99']:>10.1f} {f['p50']:>9.1f} {f['p99']:>9.1f} "
              f"{r['flat_rate']:>10.1f} {b['p50']:>9.1f} {b['p99']:>9.1f} {r['base_rate']:>8.1f} {r.get('ratio', 0):>6.2f}")
    for r in results:
        if r["T"] == 50 and "p99" in r["paced"]:
            verdict = "meets" if r["paced"]["p99"] < TARGET_P99_MS else "MISSES"
            print(f"target paced p99 < {TARGET_P99_MS:.0f} ms with 50 tables: {verdict} ({r['paced']['p99']:.1f} ms)")
    print(f"server RSS at the end: {rss / 2**20:.0f} MB (master + {args.workers} workers)")
    return 1 if any(r["errors"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
