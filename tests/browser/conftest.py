"""Real-browser tests: Playwright's sync API driving Debian's chromium (headless) against the real
server process (the ``live_server`` fixture: ``python -m app.serving.serve`` = gunicorn, gevent workers).

Fixtures here:
- ``browser``: chromium launched once per test session (per xdist worker). Missing chromium is a
  clear failure that says to run ``scripts/ensure-chromium``; ``SKIP_BROWSER=1`` skips instead.
- ``device``: a factory of fresh browser contexts (own cookies = one phone or laptop each), each
  with one page, wrapped in ``Device``; every context is closed at the end of the test.
- ``screenshot``: saves a page at desktop (1280x900) and phone (390x844) widths under
  test-artifacts/screenshots/ (git-ignored).

``Device`` and ``TableView`` drive the pages the way a person does (buttons with the menu words,
clicking cards); ``planner`` decides the moves with the suite's move chooser (support.moves: the
game's computer player) on the game as the server stored it, so stacked-deck games always play
out the same way and finish.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

from support.moves import sensible_move

ROOT = Path(__file__).resolve().parents[2]
# A browser test may use another's helpers by its module name (``from test_rummy import tap``),
# whatever pytest's import mode: this folder is on ``sys.path``.
if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
TIMEOUT_MS = 20_000  # generous: this machine is slow and shared; nothing here measures time


# -- the browser -------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def browser():
    if os.environ.get("SKIP_BROWSER") == "1":
        pytest.skip("SKIP_BROWSER=1: the browser tests are skipped")
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"Debian chromium is missing at {CHROMIUM}: run scripts/ensure-chromium to install it "
                    "(or set SKIP_BROWSER=1 to skip the browser tests).", pytrace=False)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


class Device:
    """One phone or laptop: a browser context (its own cookies) with one page.

    ``problems`` collects console errors (CSP violations are reported there) and uncaught page
    errors of every page of this context."""

    def __init__(self, name: str, context, base_url: str):
        self.name = name
        self.context = context
        self.base_url = base_url
        self.problems: list[str] = []
        context.on("page", self._watch)
        # CSP violations also reach the console in chromium's words; this says it a second way.
        context.add_init_script(CSP_REPORTER_JS)
        self.page = context.new_page()

    def _watch(self, page) -> None:
        def console(message) -> None:
            if message.type in ("error", "warning"):
                where = message.location.get("url", "") if message.location else ""
                self.problems.append(f"console {message.type} on {page.url} ({where}): {message.text}")

        page.on("console", console)
        page.on("pageerror", lambda error: self.problems.append(f"page error on {page.url}: {error}"))

    def unexpected_problems(self, *statuses: int) -> list[str]:
        """``problems`` except the browser's note about each deliberately refused request (the
        ``statuses`` a test provoked, e.g. 422 for a refused lay-down)."""
        # The sse extension logs every reconnect of the event stream as console.error of the
        # browser's Event ("[object Event]"): the server ends each stream after EVENTS_MAX_SECONDS
        # (60 s under the live_server fixture) so that connections rotate, and EventSource
        # reconnects. A stream that really fails is also reported by chromium in its own words.
        problems = [p for p in self.problems if not p.endswith("): [object Event]")]
        expected = re.compile(r"Failed to load resource: the server responded with a status of (%s) "
                              % "|".join(str(s) for s in statuses)) if statuses else None
        return [p for p in problems if expected is None or not expected.search(p)]

    def mark_document(self) -> None:
        """Tag the current document; ``same_document()`` is False after any reload or navigation."""
        self.page.evaluate("() => { window.__cardTableSameDocument = true; }")

    def same_document(self) -> bool:
        return self.page.evaluate("() => window.__cardTableSameDocument === true")

    def goto(self, path: str):
        return self.page.goto(self.base_url + path)

    @property
    def table(self) -> "TableView":
        return TableView(self.page)

    # -- setting up a game: Menu A (/menus/mason), then the one set-up form (R9, R2.2, R3) ----------

    def start_game(self, seats: list[tuple[str, str]], deck: str | None = None) -> str:
        """Set up a Mason Rummy game through the pages: Menu A's option, then the set-up form with
        ``seats`` = [(name, "here" | "own")] (``AI``: the computer, normal) and the stacked
        ``deck``; returns the slug."""
        page = self.page
        self.goto("/menus/mason")  # Mason Rummy's Menu A (its tile's Play)
        label = f"Play {len(seats)}-player game" + (" with stacked deck" if deck else "")
        page.get_by_role("button", name=re.compile(re.escape(label) + "$")).click()
        page.locator("fieldset.seat-setup").nth(len(seats) - 1).wait_for()
        self.fill_seats(seats)
        if deck:
            page.locator(f"input[name=deck][value='{deck}']").check()
        return self.start_set_up_game()

    def fill_seats(self, seats: list[tuple[str, str]], strengths: dict[int, str] | None = None) -> None:
        """The set-up form's seats: [(name, "here" | "own")] fills a person's name and device; the
        name ``AI`` chooses the computer (of ``strengths[number]``, normal by default)."""
        page = self.page
        for number, (who, where) in enumerate(seats):
            if who.upper() == "AI":
                page.locator(f"input[name=device{number}][value=computer]").check()
                strength = (strengths or {}).get(number, "normal")
                page.locator(f"input[name=strength{number}][value={strength}]").check()
            else:
                page.locator(f"input[name=device{number}][value={where}]").check()
                page.locator(f"#name{number}").fill(who)

    def set_up_game(self, name: str, seats: list[tuple[str, str]], deck: str | None = None, **options) -> str:
        """From the home page: the game's Play (its tile's, ``name``), then its set-up form: the seats
        [(name, "here" | "own")] (the form grows its seats through htmx), the options (a value
        fills ``#opt-<key>``; True or False ticks or clears the checkbox ``<key>``), the deck.
        Returns the new game's slug."""
        page = self.page
        self.goto("/")
        page.get_by_role("link", name=f"Play {name}", exact=True).click()
        page.get_by_role("heading", name=name).wait_for()
        self.choose_seat_count(len(seats))
        self.fill_seats(seats)
        for key, value in options.items():
            if isinstance(value, bool):
                box = page.locator(f"input[type=checkbox][name={key}]")
                box.check() if value else box.uncheck()
            elif page.locator(f"select#opt-{key}").count():
                page.locator(f"select#opt-{key}").select_option(str(value))
            else:
                page.locator(f"#opt-{key}").fill(str(value))
        if deck:
            page.locator(f"input[name=deck][value='{deck}']").check()
        return self.start_set_up_game()

    def choose_seat_count(self, count: int) -> None:
        """The set-up form's seat count, which re-renders the form (htmx): first the page htmx
        swapped in is wired (no htmx class left), then the new form's last seat is waited for."""
        page = self.page
        page.wait_for_function(f"() => !document.querySelector('{BUSY}')", timeout=TIMEOUT_MS)
        if page.locator("#seats").input_value() != str(count):
            with page.expect_response(lambda response: "/setup/" in response.url and "seats=" in response.url):
                page.locator("#seats").select_option(str(count))
            page.locator(f"#name{count - 1}").wait_for()
            page.wait_for_function(f"() => !document.querySelector('{BUSY}')", timeout=TIMEOUT_MS)

    def join_with_code(self, code: str, name: str) -> None:
        """The home page's join box: type the code shown on the host's screen, take ``name``'s seat."""
        self.goto("/")
        self.page.get_by_label("Joining a game on your own device? Code:").fill(code)
        self.page.get_by_role("button", name="Join", exact=True).click()
        self.page.get_by_role("button", name=f"I am {name}: take my seat").click()
        self.page.locator("#table").wait_for()

    def start_set_up_game(self, table: str = "#table") -> str:
        """Press a filled-in set-up form's "Start the game"; the new game's slug."""
        self.page.get_by_role("button", name="Start the game").click()
        return self.game_slug(table)

    def game_slug(self, table: str = "#table") -> str:
        """The slug of the game whose table this page is loading (``table``: the table's selector)."""
        self.page.locator(table).wait_for()
        # (a table shown as a whole new page: its scripts have run, htmx included, before a test
        # presses anything in it)
        self.page.wait_for_load_state("domcontentloaded")
        match = re.search(r"/games/([^/?#]+)$", self.page.url)
        assert match, self.page.url
        return match.group(1)


CSP_REPORTER_JS = """document.addEventListener('securitypolicyviolation', function (e) {
  console.error('CSP violation: ' + e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline')
                + ' at ' + e.sourceFile + ':' + e.lineNumber);
});"""


@pytest.fixture
def device(browser, live_server):
    """``device(name, **context_options)`` -> a fresh Device on the live server."""
    made: list[Device] = []

    def make(name: str = "device", **options) -> Device:
        options.setdefault("viewport", dict(DESKTOP))
        # The table shows others' moves step by step (static/js/app.js) unless the browser asks for
        # reduced motion: tests about other things ask for it, tests of the steps pass "no-preference".
        options.setdefault("reduced_motion", "reduce")
        options.setdefault("accept_downloads", True)
        context = browser.new_context(**options)
        context.set_default_timeout(TIMEOUT_MS)
        made.append(Device(name, context, live_server.url))
        return made[-1]

    yield make
    for one in made:
        one.context.close()


# -- screenshots -------------------------------------------------------------------------------


@pytest.fixture
def screenshot(request):
    """``screenshot(page, "name")`` saves <test>-<name>-desktop.png and -phone.png (full page)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    test = re.sub(r"[^A-Za-z0-9_-]+", "-", request.node.name).strip("-")

    def save(page, name: str, sizes=(("desktop", DESKTOP), ("phone", PHONE))) -> list[Path]:
        before = page.viewport_size
        paths = []
        for label, size in sizes:
            page.set_viewport_size(size)
            path = SCREENSHOTS / f"{test}-{name}-{label}.png"
            # caret="initial": hiding the caret leaves style="" on inputs, which htmx's settle then
            # copies onto swapped inputs - an inline style the page's CSP (rightly) blocks.
            page.screenshot(path=str(path), full_page=True, caret="initial")
            paths.append(path)
        page.set_viewport_size(before)
        return paths

    return save


# -- the table, as a person sees it ----------------------------------------------------------------

SNAPSHOT_JS = """() => {
  const t = document.getElementById('table');
  const all = (sel, root) => Array.from((root || document).querySelectorAll(sel));
  const text = (el) => el ? el.innerText.replace(/\\s+/g, ' ').trim() : null;
  const page = {
    title: document.title,
    allCards: all('[data-card]').map(e => e.dataset.card),
    cardInputs: all('input[name=cards]').map(e => e.value),
    // every attribute value anywhere in the document that is a card code (data-card, value, ...)
    codeAttributes: Array.from(new Set(all('*').flatMap(e => Array.from(e.attributes, a => a.value))
                                               .filter(v => /^[2-9TJQKA][CDHSP]$/.test(v)))),
    sameDocument: window.__cardTableSameDocument === true,
    handForms: all('.hand-form').length,
  };
  if (!t) return page;
  const form = t.querySelector('.hand-form');
  const discard = t.querySelectorAll('.piles .pile')[1];
  const top = discard && discard.querySelector('[data-card]');
  return Object.assign(page, {
    version: Number(t.dataset.version),
    myTurn: t.dataset.myTurn === 'yes',
    status: text(t.querySelector('.status-bar')),
    alert: text(t.querySelector('[role=alert]')),
    hand: form ? all('label.card[data-card]', form).map(e => e.dataset.card) : null,
    checked: form ? all('input[name=cards]:checked', form).map(e => e.value) : [],
    players: all('li.player', t).map(li => ({
      name: text(li.querySelector('.player-name')),
      me: li.classList.contains('me'),
      stats: text(li.querySelector('.player-stats')),
      sets: all('.set', li).map(s => ({kind: s.classList.contains('run') ? 'run' : 'meld',
                                        cards: all('[data-card]', s).map(c => c.dataset.card)})),
    })),
    discardTop: top ? top.dataset.card : null,
    buttons: all('button', t).map(b => text(b)),
    log: all('.log li', t).map(li => text(li)),
    handover: text(t.querySelector('.handover h2')),
    summary: text(t.querySelector('.summary h2')),
    results: text(t.querySelector('.results')),
    scoreboard: all('.scoreboard tbody tr', t).map(tr => all('th, td', tr).map(c => text(c))),
  });
}"""

BUSY = ".htmx-request, .htmx-swapping, .htmx-settling, .htmx-added"  # htmx's classes while it works
SETTLED_JS = """(v) => {
  const t = document.getElementById('table');
  return !!t && Number(t.dataset.version) > v && !document.querySelector('%s');
}""" % BUSY


PRESSED_JS = """() => {
  const t = document.getElementById('table');
  return !!t && !t.dataset.pressed && !document.querySelector('%s');
}""" % BUSY


CHECKED_JS = "() => Array.from(document.querySelectorAll('#table .hand-form input[name=cards]:checked'), e => e.value)"


class TableView:
    """The table page (#table) of one device."""

    def __init__(self, page):
        self.page = page

    def snapshot(self) -> dict:
        return self.page.evaluate(SNAPSHOT_JS)

    def version(self) -> int:
        return int(self.page.locator("#table").get_attribute("data-version"))

    def wait_past(self, version: int) -> dict:
        """Wait (without reloading) until the table shows a version after ``version``."""
        self.page.wait_for_function(SETTLED_JS, arg=version, timeout=TIMEOUT_MS)
        return self.snapshot()

    def wait_for_version(self, version: int) -> dict:
        """Wait (without reloading) until the table shows ``version`` or later."""
        return self.wait_past(version - 1)

    def wait_settled(self) -> None:
        self.page.wait_for_function(f"() => !document.querySelector('{BUSY}')", timeout=TIMEOUT_MS)

    def button(self, words: str):
        """A table button by its words (the menu words, R9)."""
        return self.page.locator("#table button").filter(has_text=re.compile(re.escape(words) + "$"))

    def press(self, words: str, before: int | None = None) -> dict:
        """Press a button that makes a new game version; wait for the swapped table. ``before``:
        the version shown now, if the caller knows it."""
        before = self.version() if before is None else before
        self.button(words).click()
        return self.wait_past(before)

    def press_private(self, words: str) -> dict:
        """Press a private move's button (arranging one's cards: no new version); wait for the
        table that replaces the one shown now."""
        self.page.evaluate("() => { document.getElementById('table').dataset.pressed = '1'; }")
        self.button(words).click()
        self.page.wait_for_function(PRESSED_JS, timeout=TIMEOUT_MS)
        return self.snapshot()

    def card(self, code: str):
        return self.page.locator(f"#table .hand-form label.card[data-card='{code}']")

    def checkbox(self, code: str):
        return self.page.locator(f"#table .hand-form input[name=cards][value='{code}']")

    def checked(self) -> list[str]:
        return self.page.evaluate(CHECKED_JS)

    def select(self, codes) -> None:
        """Tap cards in the hand (Menu F) until exactly ``codes`` are selected."""
        already = self.checked()
        for code in codes:
            if code not in already:
                self.card(code).click()
        checked = self.checked()
        assert sorted(checked) == sorted(codes), (checked, codes)


@pytest.fixture
def planner(live_server):
    """The move chooser of the suite (support.moves.sensible_move: the game's computer player,
    checked against ``legal()``) on a game as the live server stored it. ``next(slug)`` is the
    ``Choice`` for the seat to move (between rounds: the next deal): ``button_words(move)`` is the
    button to press, its ``cards`` the cards to select first; ``state(slug)`` the stored game."""

    class Planner:
        @staticmethod
        def state(slug: str):
            return live_server.state(slug)

        @staticmethod
        def next(slug: str):
            return sensible_move(live_server.state(slug))

    return Planner()
