"""The harness the HTTP benchmarks share (bench/load.py, live.py, growth.py, memory.py, weight.py);
not a benchmark itself. Each benchmark keeps its own measuring and printing; this module holds
what they all do the same way:

- ``Server``: the app as the README serves it (``flask --app wsgi db upgrade``, then ``python -m
  app.serve``: gunicorn with gevent workers, WORKERS=2, ADMIN_PASSWORD set) on a free port, with
  the SQLite file in a temporary instance folder; the master's and workers' pids, CPU time and
  memory from /proc, gunicorn's access log on request. ``MASON_BENCH_ROOT`` serves another
  checkout (to measure an older version with the same client).
- ``Browser``: one browser, with its own cookie jar (the session cookie holds its seat tokens and
  CSRF secret), the CSRF token read from a page as a form would, plain or htmx requests
  (``HX-Request``: the #table fragment comes back), redirects followed like a browser.
- ``Page``: what a player reads on their table fragment (nothing a real player could not see).
- ``Stream``: one browser's open event stream (/games/<slug>/events), read in a thread.
- Setting up a table through the forms (``new_game``, ``claim_seat``) and the move planner
  (``next_move``: draw, lay down by the computer strategy's R8.2 choice, discard).
- ``Table``: a table of bench/load.py's three kinds (hot-seat, LAN 2 and 3 players) playing real
  turns, with ``Stats`` of every request it makes; ``set_up_tables``, ``run_all``, ``figures``.
"""

from __future__ import annotations

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

from app.games.mason.cards import Card  # noqa: E402
from app.games.mason.melds import CardSet  # noqa: E402
from app.games.mason.bot import next_computer_play  # noqa: E402
from app.games.mason.players import Hand  # noqa: E402

ADMIN_PASSWORD = "bench-admin-password"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


# -- the server ----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """The app as the README serves it (`make run`: db upgrade, then app.serve -> gunicorn with
    gevent workers), on a free port, with SQLite in a temporary instance folder.

    ``env``: more environment for the server. ``access_log``: gunicorn logs every request to
    ``self.access_log`` (True: in its default format; a string: in that format)."""

    def __init__(self, workers: int = 2, prefix: str = "mason-bench-", env: dict | None = None,
                 root: str = ROOT, access_log: bool | str = False):
        self.root = root  # the project folder to serve (another checkout, to compare two versions)
        self.instance = tempfile.mkdtemp(prefix=prefix)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.workers = workers
        self.env = {key: value for key, value in os.environ.items()
                    if key not in ("DATABASE_URL", "SECRET_KEY", "GUNICORN_CMD_ARGS")}
        self.env.update(PORT=str(self.port), WORKERS=str(workers), MASON_INSTANCE=self.instance,
                        MASON_BENCH_ROUTES="1", EVENTS_MAX_SECONDS="3600", MASON_PUBLIC_URL=self.url,
                        ADMIN_PASSWORD=ADMIN_PASSWORD, DECKS_FOLDER=os.path.join(ROOT, "decks"),
                        # every simulated device connects from 127.0.0.1: lift the per-address limits
                        EVENTS_PER_ADDRESS="100000", GAMES_PER_HOUR="100000")
        self.access_log = os.path.join(self.instance, "access.log")
        if access_log:
            self.env["GUNICORN_CMD_ARGS"] = f"--access-logfile {self.access_log}" + (
                f" --access-logformat '{access_log}'" if isinstance(access_log, str) else "")
        self.env.update(env or {})
        self.database = os.path.join(self.instance, "mason.db")
        self.log_path = os.path.join(self.instance, "server.log")
        self.process: subprocess.Popen | None = None

    def upgrade(self) -> None:
        """``flask db upgrade``; if it fails, the benchmark stops with its error output."""
        done = subprocess.run([sys.executable, "-m", "flask", "--app", "wsgi", "db", "upgrade"], cwd=self.root,
                              env=self.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if done.returncode != 0:
            raise SystemExit(f"the database upgrade failed (exit status {done.returncode}):\n{done.stdout[-3000:]}")

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
        """Stop the server (its whole process group); ``remove``: delete the instance folder too."""
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

    def memory(self, field: str = "VmRSS", file: str = "status") -> list[int]:
        """Bytes of ``field`` (a line in kB of /proc/<pid>/<file>) of the master and of each worker,
        in that order: VmRSS from status by default; Pss from smaps_rollup splits shared pages."""
        found = []
        for pid in self.pids():
            try:
                with open(f"/proc/{pid}/{file}") as handle:
                    found.append(sum(int(line.split()[1]) * 1024 for line in handle
                                     if line.startswith(field + ":")))
            except OSError:
                pass
        return found

    def rss(self) -> int:
        """Resident memory of the master and every worker, in bytes (VmRSS from /proc)."""
        return sum(self.memory())

    def cpu_seconds(self, master: bool = False) -> float:
        """User + system CPU seconds used so far by the workers (``master``: and the gunicorn
        master): unlike wall-clock figures, other processes on the machine hardly change it."""
        total = 0
        for pid in self.pids() if master else self.worker_pids():
            try:
                with open(f"/proc/{pid}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
                total += int(fields[11]) + int(fields[12])  # utime, stime
            except (OSError, IndexError, ValueError):
                pass
        return total / CLOCK_TICKS


# -- browsers -----------------------------------------------------------------------------------

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


class Response:
    __slots__ = ("status", "headers", "body", "seconds")

    def __init__(self, status: int, headers, body: str, seconds: float):
        self.status, self.headers, self.body, self.seconds = status, headers, body, seconds


class Browser:
    """One browser: its own cookie jar (the session cookie holds its seat tokens and CSRF
    secret) and a keep-alive connection (``keep_alive=False``: a new connection for every
    request, ``Connection: close``). Plain ``http.client``, so the client costs little CPU."""

    IDLE_REUSE = 3.0  # gunicorn closes idle keep-alive connections after 5 s

    def __init__(self, base: str, name: str, keep_alive: bool = True):
        parts = urllib.parse.urlsplit(base)
        self.host, self.port = parts.hostname, parts.port
        self.name = name
        self.keep_alive = keep_alive
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
        """One request (no redirect followed); a form is sent with the CSRF token, read from Menu A
        the first time. ``seconds``: from sending the request to having read the whole answer."""
        if form is not None and self.csrf is None:  # first, so that its session cookie is sent too
            self.csrf = CSRF.search(self.request("GET", "/").body).group(1)
        headers = {}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if htmx:
            headers["HX-Request"] = "true"
        if not self.keep_alive:
            headers["Connection"] = "close"
        body = None
        if form is not None:
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

    def fetch(self, path: str, htmx: bool = True) -> Response:
        """A GET that must answer 200 (by default an htmx one: the #table fragment)."""
        answer = self.get(path, htmx=htmx)
        if answer.status != 200:
            raise RuntimeError(f"{self.name}: {path} answered {answer.status}:\n{answer.body[:1500]}")
        return answer

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


# -- event streams ------------------------------------------------------------------------------


class Stream:
    """One browser's open event stream (/games/<slug>/events, as the table page keeps it), read
    in a thread. ``since``: the version the page shows (``?v=``; None: not sent, and the server
    announces its current version at once). ``ready`` is set once the server has subscribed the
    stream (its ``retry:`` line); ``events`` counts the ``changed`` events, each also handed to
    ``changed(version, at)`` with its arrival (``time.monotonic()``)."""

    TIMEOUT = 120  # seconds without a byte (the server sends a keep-alive every 15 s)

    def __init__(self, base: str, slug: str, cookies: dict | None = None, since: int | None = None):
        parts = urllib.parse.urlsplit(base)
        self.host, self.port = parts.hostname, parts.port
        self.slug, self.cookies, self.latest = slug, cookies, since
        self.events = 0
        self.reconnects = -1
        self.stopping = False
        self.ready = threading.Event()
        self.connection: http.client.HTTPConnection | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def changed(self, version: int, at: float) -> None:
        """A ``changed`` event for ``version`` arrived at ``at``: for a subclass to record."""

    def _run(self) -> None:
        while not self.stopping:
            self.reconnects += 1
            try:
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=self.TIMEOUT)
                headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())} if self.cookies else {}
                query = "" if self.latest is None else f"?v={self.latest}"
                self.connection.request("GET", f"/games/{self.slug}/events{query}", headers=headers)
                response = self.connection.getresponse()
                event = None
                while not self.stopping:
                    raw = response.readline()
                    if not raw:
                        break
                    now = time.monotonic()
                    line = raw.decode().rstrip("\r\n")
                    if line.startswith("retry:"):
                        self.ready.set()
                    elif line.startswith("event: "):
                        event = line[7:]
                    elif line.startswith("data: ") and event == "changed":
                        self.events += 1
                        self.changed(int(line[6:]), now)
                        event = None
            except (OSError, ValueError, AttributeError, http.client.HTTPException):
                if self.stopping:
                    return
                time.sleep(0.1)

    def close(self) -> None:
        self.stopping = True
        if self.connection is not None and self.connection.sock is not None:
            try:
                self.connection.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


# -- setting up a table through the forms, and the move planner ------------------------------------


def new_game(host: Browser, seats: list[tuple[str, str]], deck: str | None = None) -> tuple[str, list[str]]:
    """Menu A (2 or 3 players, shuffled; with ``deck``: the stacked-deck option and the deck
    prompt), then Menu B for every seat: a new player's name and device ("here" or "own").
    Returns the game's slug and the join codes shown on the host's table."""
    if deck is None:
        host.go("/", {"choice": str(len(seats))})
    else:
        host.go("/", {"choice": str(len(seats) + 2)})
        host.go("/setup/deck", {"deck": deck})
    path = body = ""
    for name, device in seats:
        path, body = host.go("/setup/seat", {"kind": "1", "name": name, "device": device})
    return path.rstrip("/").rsplit("/", 1)[1], JOIN_CODE.findall(body)


def claim_seat(browser: Browser, code: str, slug: str) -> str:
    """POST /join with the code read from the host's table; the browser lands on the table (its
    body is returned)."""
    path, body = browser.go("/join", {"code": code})
    if not path.rstrip("/").endswith(f"/games/{slug}"):
        raise RuntimeError(f"{browser.name} did not land on the table after joining")
    return body


def next_move(page: Page) -> tuple[str, list[Card]]:
    """The next table-form action on one's turn, from one's own page only: draw (the stock, else
    the discard pile when the stock cannot give a card), then lay down what the visible hand
    allows (``next_computer_play`` on the hand and own sets, R8.2), else discard the
    highest-scoring card."""
    if page.draw:
        return ("draw_stock" if page.can_draw_stock else "draw_discard"), []
    selection = next_computer_play(Hand(page.hand, page.sets))  # R8.2 on the visible hand
    if selection:
        return "lay_down", selection
    return "discard", [max(page.hand, key=lambda card: (card.points, card.sort_key))]


# -- tables playing real turns (bench/load.py, growth.py, memory.py, weight.py) -------------------

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
    """One table of a kind: hot-seat (2 players on the host's browser, every turn starting with
    the hand-over's reveal), LAN 2 or 3 players (the host plays seat 1, the others joined on
    their own browsers)."""

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
        elif page.my_turn:
            action, cards = next_move(page)
            self.act(stats, browser, action, page, cards)
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


def set_up_tables(base: str, count: int, parallel: int = 8, kind: str | None = None) -> list[Table]:
    tables = [Table(base, number, kind) for number in range(count)]
    for start in range(0, count, parallel):
        run_all(tables[start:start + parallel], Table.set_up)
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
