"""Seahaven Towers as a solitaire app, in a real browser against the real server (gunicorn, gevent
workers and the job runner the master keeps going):

- ``short_win.deck`` won at phone size (390x844, a touch screen) by drags alone: real touch
  events (chromium's touch input), the places the card may go marked while it is dragged, each
  next drag started while the board of the last one is still settling, the first two drags
  made before the server answered the first;
- the same deal won at desktop size (1280x800) by keys alone: arrows, Space and Enter, F, H,
  U and Ctrl+Z;
- "send cards home by themselves" (off by default, kept per browser): on, one drag sends every
  card that can go home; "Finish" when every card left can go home;
- the "still winnable" mark and the hint arrive live (the runner held, then let go: same page,
  no reload), and "show a solution" after giving up, stepped like a replay;
- the statistics pages (a name's, a deal's);
- an axe-core scan of each of these screens, and no page wider than a phone's screen.

Screenshots go to test-artifacts/screenshots/. The cards of ``short_win.deck`` go home column by
column (tests/decks/seahaven/README.md)."""

from __future__ import annotations

import os
import re
import signal
import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from support.browsing import axe_scan
from support.seahaven_page import WINNABLE, board, destination, set_up, source, wait_for_mark, wait_past

pytestmark = [pytest.mark.browser, pytest.mark.own_live_server]  # (the runner starts idle for each)

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
PHONE_ONLY = (("phone", PHONE),)


def touch_phone(device, name: str = "phone", **options):
    options.setdefault("reduced_motion", "reduce")
    phone = device(name, viewport=dict(PHONE), has_touch=True, is_mobile=True, **options)
    phone.touch = phone.context.new_cdp_session(phone.page)
    return phone


def not_wider_than_the_screen(page) -> None:
    # (against the screen's width: a mobile browser widens its window to a page wider than that)
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= PHONE["width"], f"{page.url} is {wide} px wide on a {PHONE['width']} px screen"


def check_screen(page, label: str) -> None:
    """At phone width: nothing wider than the screen, and no serious or critical axe finding."""
    before = page.viewport_size
    page.set_viewport_size(PHONE)
    not_wider_than_the_screen(page)
    assert axe_scan(page, label) == []
    page.set_viewport_size(before)


def centre(page, selector: str) -> tuple[float, float]:
    """The middle of ``selector``'s element on the screen (waiting while the board is swapped)."""
    for _attempt in range(40):
        page.locator(selector).first.wait_for()
        box = page.locator(selector).first.bounding_box()
        if box and box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]:
            return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        if box:  # below the screen's edge (not while the board fits the screen)
            page.evaluate("(s) => document.querySelector(s).scrollIntoView({block: 'center'})", selector)
        page.wait_for_timeout(50)
    raise AssertionError(f"{selector} is not on the screen")


AIMED_AT_JS = """([x0, y0, x1, y1, card, place]) => {
  const at = (x, y) => document.elementFromPoint(x, y);
  const source = at(x0, y0), target = at(x1, y1);
  return !!source && !!source.closest(`.sh-src[data-card='${card}']`) && !!target && !!target.closest(`[data-place='${place}']`);
}"""


def touch_drag(phone, card: str, place: str, *, during=None) -> None:
    """A finger on ``card``'s button, moved in steps onto the place ``place`` and lifted there:
    chromium's own touch input (pointer events of type touch). ``during(page)`` runs while the
    card is held over its place."""
    page = phone.page
    # (a finger aims at where the card is now: a board redrawn or moved meanwhile is aimed at again)
    for _attempt in range(40):
        x0, y0 = centre(page, f"#table .sh-src[data-card='{card}']")
        x1, y1 = centre(page, f"#table [data-place='{place}']")
        if page.evaluate(AIMED_AT_JS, [x0, y0, x1, y1, card, place]):
            break
        page.wait_for_timeout(50)
    else:
        raise AssertionError(f"{card} or {place} does not stay where it is on the screen")

    def touch(kind: str, x: float | None = None, y: float | None = None) -> None:
        points = [] if x is None else [{"x": x, "y": y, "id": 1}]
        phone.touch.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", x0, y0)
    steps = 6
    for step in range(1, steps + 1):
        touch("touchMove", x0 + (x1 - x0) * step / steps, y0 + (y1 - y0) * step / steps)
    if during is not None:
        during(page)
    touch("touchEnd")


# -- drags alone, at phone size -------------------------------------------------------------------


def test_a_deal_won_by_drags_alone_at_phone_size(device, screenshot, live_server):
    phone = touch_phone(device)
    page = phone.page
    slug = set_up(phone, deck="short_win.deck")
    wait_for_mark(page)
    phone.mark_document()
    drags = 0

    # while 2C is held over cell 1, the places it may go are marked (and the one under it)
    def held(page):
        shown = board(page)
        assert shown["selected"] == ["2C"] and sorted(shown["destinations"]) == ["c1", "c2", "c3", "c4"]
        assert page.locator("#table .sh-to.sh-over").get_attribute("data-to") == "c1"
        assert page.locator(".sh-ghost").count() == 1
        screenshot(page, "dragging", sizes=PHONE_ONLY)

    # the server's answer to the first drag is held back: the second drag, made meanwhile on the
    # board still shown, is kept and made on the new board
    answers: list = []

    def hold(route) -> None:  # the first move's request waits; any later one goes
        if answers:
            route.continue_()
        else:
            answers.append(route)

    page.route(re.compile(r"/act$"), hold)
    touch_drag(phone, "2C", "c1", during=held)
    while not answers:
        page.wait_for_timeout(20)
    touch_drag(phone, "QH", "c2")
    drags += 2
    assert board(page)["cells"] == [None] * 4
    answers[0].continue_()
    page.wait_for_function("() => document.querySelectorAll('#table .sh-cell .sh-src').length === 2")
    shown = wait_past(page, 2)
    page.unroute(re.compile(r"/act$"), hold)
    assert shown["cells"][:2] == ["2C", "QH"] and page.locator(".sh-ghost").count() == 0

    # a drop on a place the card may not go puts it back
    touch_drag(phone, "AC", "t2")
    shown = board(page)
    assert shown["selected"] == [] and shown["columns"][0][-1] == "AC"

    # every card home by drags, suit after suit (each card is free when its turn comes), each drag
    # made as soon as the last move's board is in (not settled yet; the live update of the last
    # move then redraws the board while the card is held). A finger that lands in the very frame
    # the redraw puts the new board in can miss its card (docs/RELIABILITY.md, known limits): no
    # move is sent, the card stays where it was, and the player drags again. So does the test, a
    # few times in a game at most.
    dragged_again = 0
    for suit, foundation in zip("CDHS", ("f1", "f2", "f3", "f4")):
        for rank in "A23456789TJQK":
            card = rank + suit
            page.wait_for_function("(v) => Number(document.getElementById('table').dataset.version) > v", arg=drags)
            for _attempt in range(3):
                touch_drag(phone, card, foundation)
                try:
                    page.wait_for_function("(v) => Number(document.getElementById('table').dataset.version) > v",
                                           arg=drags + 1, timeout=8000)
                    break
                except PlaywrightTimeoutError:
                    shown = board(page)
                    assert card in sum(shown["columns"], []), f"{card} moved without a new board"
                    dragged_again += 1
            drags += 1
            if card == "9D":
                wait_past(page, drags)
                screenshot(page, "middle", sizes=PHONE_ONLY)
    page.locator("#table .results").wait_for()
    shown = board(page)
    assert "Ann won! All 52 cards are home" in shown["results"]
    assert dragged_again <= 3, f"{dragged_again} drags missed their card"
    state = live_server.state(slug)
    assert state.layout.is_won() and state.moves_made() == drags == 54 and state.undos == 0
    assert phone.same_document(), "every drag was made in the page, without a reload"
    screenshot(page, "won", sizes=PHONE_ONLY)
    check_screen(page, "won table")
    assert phone.unexpected_problems() == []


def test_a_mouse_drag_moves_a_card_and_a_drop_outside_puts_it_back(device):
    laptop = device("laptop", viewport=dict(LAPTOP))
    page = laptop.page
    set_up(laptop, deck="short_win.deck")
    x0, y0 = centre(page, "#table .sh-src[data-card='2C']")
    x1, y1 = centre(page, "#table [data-place='c3']")
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x1, y1, steps=8)
    assert page.locator("#table .sh-to.sh-over").get_attribute("data-to") == "c3"
    page.mouse.up()
    shown = wait_past(page, 1)
    assert shown["cells"] == [None, None, "2C", None]
    x0, y0 = centre(page, "#table .sh-src[data-card='AC']")
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x0 + 300, y0 + 260, steps=8)  # over nothing it may go to
    page.mouse.up()
    shown = board(page)
    assert shown["selected"] == [] and shown["columns"][0][-1] == "AC" and shown["version"] == 2
    assert laptop.unexpected_problems() == []


# -- keys alone, at desktop size -------------------------------------------------------------------


def focused(page) -> str | None:
    return board(page)["focused"]


def focus_by_arrows(page, card: str) -> None:
    """ArrowRight (ArrowUp, ArrowDown between the rows) until ``card`` has the focus."""
    for key in ("ArrowRight",) * 12 + ("ArrowUp",) + ("ArrowRight",) * 8 + ("ArrowDown",) + ("ArrowRight",) * 12:
        if focused(page) == card:
            return
        page.keyboard.press(key)
    assert focused(page) == card, (card, board(page))


def test_a_deal_won_by_keys_alone_at_desktop_size(device, screenshot, live_server):
    laptop = device("laptop", viewport=dict(LAPTOP))
    page = laptop.page
    slug = set_up(laptop, deck="short_win.deck")
    wait_for_mark(page)
    # the keys are listed on the page
    page.locator("#table .sh-options summary").focus()
    page.keyboard.press("Enter")
    keys = page.locator("#table .sh-keys").inner_text()
    for words in ("hint", "undo", "send the card to its foundation", "move between the columns and the cells"):
        assert words in keys
    screenshot(page, "keys", sizes=(("desktop", LAPTOP),))
    page.keyboard.press("Enter")  # folded again

    # arrows from nowhere: the first card that may move; Space picks 2C up, focus on where it may go
    page.evaluate("() => document.activeElement.blur()")
    page.keyboard.press("ArrowRight")
    assert focused(page) == "2C"
    page.keyboard.press("Space")
    shown = board(page)
    assert shown["selected"] == ["2C"] and shown["focused"] == "c1"
    page.keyboard.press("ArrowRight")
    assert focused(page) == "c2"
    page.keyboard.press("Enter")  # 2C to cell 2
    shown = wait_past(page, 1)
    assert shown["cells"][1] == "2C"
    page.keyboard.press("u")
    shown = wait_past(page, 2)
    assert shown["cells"] == [None] * 4 and shown["moves"] == "0 moves"

    # H: the hint (2C to cell 1), its place focused; Enter follows it
    page.keyboard.press("h")
    page.locator("#table .sh-hint").wait_for()
    # the hint's place takes the focus once the solver's answer is on the page (it may come live)
    page.wait_for_function("() => document.activeElement && document.activeElement.matches('.sh-to.sh-hinted')",
                           timeout=15000)
    shown = board(page)
    assert shown["hint"] == "Hint: move the 2\u2663 from column 1 to cell 1." and shown["focused"] == "c1"
    page.keyboard.press("Enter")
    version = wait_past(page, 3)["version"]

    # F sends the focused card home; Ctrl+Z takes it back
    focus_by_arrows(page, "AC")
    page.keyboard.press("f")
    version = wait_past(page, version)["version"]
    assert board(page)["foundations"][0] == "AC"
    page.keyboard.press("Control+z")
    version = wait_past(page, version)["version"]
    assert board(page)["foundations"][0] is None

    # every card home by keys: the arrows to it, then F
    while True:
        shown = board(page)
        if shown["results"]:
            break
        candidates = [c for c in shown["cells"] if c] + [column[-1] for column in shown["columns"] if column]
        home = page.evaluate("(ids) => ids.filter(id => { const s = document.querySelector("
                             "`#table .sh-src[data-card='${id}']`); return s && s.dataset.home; })", candidates)
        assert home, shown
        focus_by_arrows(page, home[0])
        page.keyboard.press("F")
        page.wait_for_function("""(v) => { const t = document.getElementById('table');
          return !!t && (Number(t.dataset.version) > v) && !document.querySelector('.htmx-request, .htmx-settling'); }""",
                               arg=version)
        version = board(page)["version"]
    assert "Ann won! All 52 cards are home in 53 moves" in board(page)["results"]
    state = live_server.state(slug)
    assert state.layout.is_won() and state.moves_made() == 53 and state.undos == 2
    screenshot(page, "won", sizes=(("desktop", LAPTOP),))
    assert laptop.unexpected_problems() == []


# -- cards home by themselves, and Finish -----------------------------------------------------------


def test_cards_home_by_themselves_is_this_browser_s_setting_and_finish(device, screenshot, live_server):
    phone = touch_phone(device, reduced_motion="no-preference")
    page = phone.page
    slug = set_up(phone, deck="short_win.deck")
    wait_for_mark(page)
    options = page.locator("#table .sh-options")
    assert "cards home by themselves: off" in options.locator("summary").inner_text()  # off at first
    options.locator("summary").tap()
    box = page.locator("#table .sh-auto input[type=checkbox]")
    assert not box.is_checked()
    check_screen(page, "the table's options")
    screenshot(page, "options", sizes=PHONE_ONLY)
    box.tap()
    page.wait_for_function(
        "() => /by themselves: on/.test(document.querySelector('#table .sh-options summary').textContent)")
    # kept for this browser: a page loaded again says so; another browser's tables do not
    phone.goto(f"/games/{slug}")
    assert "by themselves: on" in page.locator("#table .sh-options summary").inner_text()
    other = touch_phone(device, "another phone")
    other_slug = set_up(other, deck="short_win.deck", name="Bea")
    assert "by themselves: off" in other.page.locator("#table .sh-options summary").inner_text()

    # QH to a cell: nothing can go home yet; then 2C to a cell: every card goes home after it
    touch_drag(phone, "QH", "c1")
    shown = wait_past(page, 1)
    assert shown["cells"][0] == "QH" and shown["foundations"] == [None] * 4
    wait_for_mark(page)
    for _attempt in range(3):  # (a finger landing in the very frame of a redraw misses: dragged again)
        touch_drag(phone, "2C", "c2")
        try:
            page.wait_for_function("() => document.querySelector('#table .sh-board.sh-stepping')", timeout=8000)
            break
        except PlaywrightTimeoutError:
            assert board(page)["version"] == 2, "2C moved, but its cards were not shown going home"
    screenshot(page, "going-home", sizes=PHONE_ONLY)  # the cards shown going home one by one
    # the same table swapped in again meanwhile (the solver's answer, a live update): the cards
    # still on their way go on from where they were on the new board, not all at once
    page.evaluate("(url) => { window.oldBoard = document.querySelector('#table .sh-board');"
                  " return htmx.ajax('GET', url, {target: '#table', swap: 'outerHTML'}); }", f"/games/{slug}/table")
    page.wait_for_function("() => !window.oldBoard.isConnected")
    assert page.evaluate("() => !!document.querySelector('#table .sh-board.sh-stepping')")
    tops = page.evaluate("() => [...document.querySelectorAll('#table .sh-foundation .card[data-card]')].map(card => card.dataset.card)")
    assert len(tops) < 4 or not all(top.startswith("K") for top in tops)  # (not every king home yet)
    page.locator("#table .results").wait_for()
    page.wait_for_function("() => !document.querySelector('#table .sh-board.sh-stepping')")
    state = live_server.state(slug)
    # two moves of the player's, the other 52 cards sent home by themselves with the second
    assert state.layout.is_won() and state.moves_made() == 2 and state.auto_moved() == 52 and board(page)["version"] == 3
    screenshot(page, "won-by-themselves", sizes=PHONE_ONLY)

    # the other browser (setting off): one move, then Finish sends every card home
    touch_drag(other, "2C", "c1")
    wait_past(other.page, 1)
    assert board(other.page)["foundations"] == [None] * 4
    wait_for_mark(other.page)
    other.page.locator("#table .sh-finish").click()
    other.page.locator("#table .results").wait_for()
    state = live_server.state(other_slug)
    assert state.layout.is_won() and "Bea won!" in board(other.page)["results"]
    assert phone.unexpected_problems() == [] and other.unexpected_problems() == []


# -- the solver's answers arrive live; show a solution; the statistics pages -------------------------


class RunnerHeld:
    """The job runner stopped (SIGSTOP) in the ``with`` block: nothing is worked out meanwhile."""

    def __init__(self, server):
        deadline = time.monotonic() + 30
        while not server.runner_pids() and time.monotonic() < deadline:
            time.sleep(0.05)
        self.pid = server.runner_pids()[0]

    def __enter__(self):
        os.kill(self.pid, signal.SIGSTOP)
        return self

    def __exit__(self, *exc):
        os.kill(self.pid, signal.SIGCONT)


def test_the_mark_and_the_hint_arrive_live(device, screenshot, live_server):
    phone = touch_phone(device)
    page = phone.page
    with RunnerHeld(live_server):
        set_up(phone, deck="short_win.deck")
        assert board(page)["mark"] == "checking\u2026"
        page.locator("#table .sh-hint-button").tap()
        page.locator("#table .sh-hint").wait_for()
        assert "the solver is still checking this position" in board(page)["hint"]
        phone.mark_document()
        screenshot(page, "checking", sizes=PHONE_ONLY)
        check_screen(page, "the table, checking")
    # the runner goes on: the hint and the mark arrive in the same page
    page.wait_for_function("() => /^Hint: move the 2\u2663/.test((document.querySelector('#table .sh-hint') || {}).textContent"
                           " ? document.querySelector('#table .sh-hint').textContent.trim() : '')")
    shown = board(page)
    assert shown["mark"] == WINNABLE and shown["hint"] == "Hint: move the 2\u2663 from column 1 to cell 1."
    assert shown["selected"] == ["2C"] and phone.same_document()
    screenshot(page, "hint-arrived", sizes=PHONE_ONLY)
    assert phone.unexpected_problems() == []


def test_the_solver_s_answer_redraws_its_mark_alone_and_the_board_stays_under_the_finger(device, live_server):
    """The answer that arrives while a player looks at the board changes its mark alone: the board,
    the picked-up card and the table element are the ones the page had (a card under the finger is
    not swapped for another), the waiting ends, and the new mark is said to a screen reader."""
    phone = touch_phone(device)
    page = phone.page
    with RunnerHeld(live_server):
        set_up(phone, deck="short_win.deck")
        assert board(page)["mark"] == "checking\u2026"
        source(page, "2C").tap()
        page.wait_for_function("() => !!document.querySelector('#table .sh-src[aria-pressed=true]')")
        phone.mark_document()
        page.evaluate("() => { window.shownBoard = document.querySelector('#table .sh-board');"
                      " window.shownTable = document.getElementById('table'); }")
    wait_for_mark(page)
    shown = board(page)
    assert shown["selected"] == ["2C"] and "c1" in shown["destinations"] and phone.same_document()
    assert page.evaluate("() => window.shownBoard.isConnected && window.shownTable.isConnected"), \
        "the answer swapped the whole board"
    assert page.locator("#table .sh-awaiting").count() == 0  # nothing waits or polls any more
    page.wait_for_function("() => /still winnable/.test(document.getElementById('announcer').textContent)")
    # and the move goes on from the same board
    destination(page, "c1").tap()
    wait_past(page, shown["version"])
    assert board(page)["cells"][0] == "2C"
    assert phone.unexpected_problems() == []


def test_show_a_solution_after_giving_up_and_the_statistics_pages(device, screenshot, live_server):
    phone = touch_phone(device)
    page = phone.page
    # a win first (Finish after one move), then a numbered deal given up
    set_up(phone, deck="short_win.deck", name="Cleo")
    touch_drag(phone, "2C", "c1")
    wait_past(page, 1)
    wait_for_mark(page)
    page.locator("#table .sh-finish").click()
    page.locator("#table .results").wait_for()
    slug = set_up(phone, deal=7, name="Cleo")
    page.wait_for_function("() => !/checking/.test(document.querySelector('#table .sh-mark').textContent)")
    page.locator("#table .sh-give-up summary").tap()
    page.get_by_role("button", name="Yes, give up").tap()
    page.locator("#table .results").wait_for()
    page.get_by_role("link", name="Show a solution").first.tap()
    page.wait_for_url(re.compile(rf"/games/{slug}/solution"))
    # worked out by the runner: the page looks again by itself until the line is there
    page.get_by_text(re.compile(r"^A line of moves the solver found")).wait_for(timeout=60_000)
    first = page.locator("main").inner_text()
    screenshot(page, "solution")
    check_screen(page, "show a solution")
    assert "move 0 of" in first
    page.get_by_role("link", name="Forward one move").click()
    page.wait_for_url(re.compile(r"step=1$"))
    assert "move 1 of" in page.locator("main").inner_text()

    # the statistics: the name's page and the deal's
    phone.goto("/scores/seahaven/names/Cleo")
    text = page.locator("main").inner_text()
    for words in ("Games played", "Games won", "Win rate", "50%", "Current streak", "Best streak",
                  "Best time", "Fewest moves"):
        assert words in text, (words, text)
    screenshot(page, "name")
    check_screen(page, "a name's statistics")
    page.get_by_role("link", name=re.compile("Deal 7")).first.click()
    page.wait_for_url(re.compile(r"/scores/seahaven/items/7-"))
    assert "Cleo" in page.locator("main").inner_text()
    screenshot(page, "deal")
    check_screen(page, "a deal's best results")
    assert phone.unexpected_problems() == []
