"""Seahaven Towers in a real browser (S6.1, S5.2), against the real server: ``short_win.deck`` won
at phone width (390x844, a touch screen) by tapping, the hint and undo used on the way, every card
that goes home sent there by a double tap; the same by keyboard alone on a laptop; and a move
without JavaScript (the first tap loads the table with the card selected). Screenshots go to
test-artifacts/screenshots/.

``short_win.deck`` (tests/decks/seahaven/README.md): the hint's first move is 2C from column 1 to cell
1; then AC and 2C go home, and every column's cards go home in turn, columns 1 to 10."""

from __future__ import annotations

import re

import pytest
from support.seahaven_page import WINNABLE, board, destination, set_up, source, wait_for_mark, wait_past

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
PHONE_ONLY = (("phone", PHONE),)

DOUBLE_TAP_MS = 450  # static/js/games/seahaven.js: a second tap within this sends the card home
# The time between the two taps as the page saw them (clicks on a card's button).
TAP_TIMES_JS = """document.addEventListener('click', function (e) {
  if (e.target.closest && e.target.closest('.sh-src')) {
    (window.__shTaps = window.__shTaps || []).push(performance.now());
  }
}, true);"""


def double_tap(page, card: str) -> dict:
    """Two taps on a card: the first selects it, the second (at once) sends it home. On a busy
    machine the two taps may arrive further apart than a double tap: then (only then) the card is
    put down and the double tap is tried again."""
    before = board(page)["version"]
    for _attempt in range(3):
        page.evaluate("() => { window.__shTaps = []; }")
        button = source(page, card)
        button.tap()
        button.tap()
        taps = page.evaluate("() => window.__shTaps")
        assert len(taps) == 2, taps
        if taps[1] - taps[0] < DOUBLE_TAP_MS:
            after = wait_past(page, before)
            assert card in after["foundations"], (card, after)
            return after
        assert board(page)["selected"] == [], "a slow second tap puts the card down"
    raise AssertionError(f"the machine never tapped {card} twice within {DOUBLE_TAP_MS} ms")


def test_short_win_at_phone_width_by_tapping_with_hint_and_undo(device, screenshot, live_server):
    phone = device("phone", viewport=dict(PHONE), has_touch=True, is_mobile=True)
    page = phone.page
    phone.context.add_init_script(TAP_TIMES_JS)
    slug = set_up(phone, deck="short_win.deck")
    wait_for_mark(page)  # the job runner's answer, arriving live
    shown = board(page)
    assert shown["columns"][0] == ["6C", "5C", "4C", "3C", "AC", "2C"] and shown["moves"] == "0 moves"
    assert shown["mark"] == WINNABLE and shown["clock"] == "0:00"
    screenshot(page, "start")

    # the hint: 2C to cell 1, its card selected and the cell marked; following it is one tap
    page.get_by_role("link", name="Hint").tap()
    page.locator("#table .sh-hint").wait_for()
    shown = board(page)
    assert shown["hint"] == "Hint: move the 2\u2663 from column 1 to cell 1." and shown["selected"] == ["2C"]
    assert shown["version"] == 1 and live_server.state(slug).moves_made() == 0  # the hint changed nothing
    screenshot(page, "hint", sizes=PHONE_ONLY)
    destination(page, "c1").tap()
    shown = wait_past(page, 1)
    assert shown["cells"][0] == "2C" and shown["moves"] == "1 move"

    # a tap selects a card and shows where it may go; a second tap later puts it down
    source(page, "AC").tap()
    shown = board(page)
    assert shown["selected"] == ["AC"] and sorted(shown["destinations"]) == ["c2", "c3", "c4", "f1", "f2", "f3", "f4"]
    screenshot(page, "selected", sizes=PHONE_ONLY)
    page.wait_for_timeout(600)
    source(page, "AC").tap()
    assert board(page)["selected"] == [] and board(page)["destinations"] == []

    # AC home by a double tap, then undo it, and again
    double_tap(page, "AC")
    version = board(page)["version"]
    page.locator("#table .sh-undo").tap()
    shown = wait_past(page, version)
    assert shown["foundations"][0] is None and shown["columns"][0][-1] == "AC" and shown["moves"] == "1 move"
    double_tap(page, "AC")
    double_tap(page, "2C")  # from its cell

    # every column's cards straight home, columns 1 to 10
    for index in range(10):
        while True:
            column = board(page)["columns"][index]
            if not column:
                break
            shown = double_tap(page, column[-1])
            if index == 4 and len(shown["columns"][4]) == 2:
                screenshot(page, "middle", sizes=PHONE_ONLY)
    page.locator("#table .results").wait_for()
    shown = board(page)
    assert "Ann won! All 52 cards are home in 53 moves" in shown["results"]
    assert re.fullmatch(r"\d+:\d\d", shown["clock"])
    state = live_server.state(slug)
    assert state.layout.is_won() and state.moves_made() == 53 and state.undos == 1
    screenshot(page, "won")
    assert phone.unexpected_problems() == []


def test_s3_6_no_legal_moves_at_phone_width_and_undo_from_there(device, screenshot):
    phone = device("phone", viewport=dict(PHONE), has_touch=True, is_mobile=True)
    page = phone.page
    set_up(phone, deck="stuck_after_four.deck")
    for version, (card, cell) in enumerate((("8C", "c1"), ("JC", "c2"), ("5D", "c3"), ("TH", "c4")), start=1):
        source(page, card).tap()
        destination(page, cell).tap()
        shown = wait_past(page, version)
    assert shown["mark"] == "\u2717 cannot be won from here" and shown["cells"] == ["8C", "JC", "5D", "TH"]
    assert "No legal moves." in page.locator("#table .sh-stuck").inner_text()
    assert page.locator("#table .sh-src").count() == 0
    # the dock's buttons are on the screen without scrolling
    box = page.locator("#table .sh-undo").bounding_box()
    assert box and box["y"] + box["height"] <= PHONE["height"]
    screenshot(page, "stuck", sizes=PHONE_ONLY)
    page.locator("#table .sh-undo").tap()
    shown = wait_past(page, 5)
    assert shown["cells"] == ["8C", "JC", "5D", None] and page.locator("#table .sh-stuck").count() == 0
    for version in (6, 7, 8):  # back to the deal, which can be won
        page.locator("#table .sh-undo").tap()
        shown = wait_past(page, version)
    wait_for_mark(page)
    shown = board(page)
    assert shown["mark"] == WINNABLE and shown["cells"] == [None] * 4 and shown["moves"] == "0 moves"
    assert phone.unexpected_problems() == []


def test_a_move_by_keyboard_alone(device, live_server):
    laptop = device("laptop")
    page = laptop.page
    slug = set_up(laptop, deck="short_win.deck")
    wait_for_mark(page)  # the solver's answer arrives live and redraws the table: keys start after it
    page.locator("#table .sh-src[data-card='2C']").focus()
    page.keyboard.press("Enter")
    shown = board(page)
    # focus goes to the first place the card may go
    assert shown["selected"] == ["2C"] and shown["focused"] == shown["destinations"][0] == "c1"
    page.keyboard.press("Tab")
    assert board(page)["focused"] == "c2"
    page.keyboard.press("Escape")
    shown = board(page)
    assert shown["selected"] == [] and shown["focused"] == "2C"
    page.keyboard.press("Space")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # 2C to cell 2
    shown = wait_past(page, 1)
    assert shown["cells"][1] == "2C"
    # after the move, focus is on a card again
    assert shown["focused"] in {card for column in shown["columns"] for card in column[-1:]} | {"2C"}
    # AC home by keyboard (Enter on it, then on its foundation), then Undo by keyboard: focus stays on Undo
    page.locator("#table .sh-src[data-card='AC']").focus()
    page.keyboard.press("Enter")
    page.locator("#table .sh-to[data-to='f1']").focus()
    page.keyboard.press("Enter")
    shown = wait_past(page, 2)
    assert shown["foundations"][0] == "AC"
    page.locator("#table .sh-undo").focus()
    # a live update (the solver's verdict on the new position, say) comes just then: the player's
    # focus stays on Undo, where the next key goes
    page.evaluate("""(url) => new Promise((done) => {
      document.addEventListener('table:settled', () => setTimeout(done, 0), {once: true});
      htmx.ajax('GET', url, {target: '#table', swap: 'outerHTML'});
    })""", f"/games/{slug}/table")
    assert board(page)["focused"] == "Undo"
    page.keyboard.press("Enter")
    shown = wait_past(page, 3)
    assert shown["foundations"][0] is None and shown["focused"] == "Undo"
    # the timer ticks (the page got the seconds played with the table: none yet)
    page.wait_for_function("() => /^0:0[1-9]$/.test(document.querySelector('#table .sh-clock').textContent)")
    state = live_server.state(slug)
    assert state.layout.cells[1].id == "2C" and state.moves_made() == 1 and state.undos == 1
    assert laptop.unexpected_problems() == []


def test_a_move_without_javascript(device, live_server, screenshot):
    plain = device("no script", java_script_enabled=False, viewport=dict(PHONE))
    page = plain.page
    slug = set_up(plain, deck="short_win.deck")
    source(page, "2C").click()  # the GET form: the table again, 2C selected
    page.wait_for_url(re.compile(r"cards=2C"))
    shown = board(page)
    assert shown["selected"] == ["2C"] and "c1" in shown["destinations"]
    destination(page, "c1").click()
    page.wait_for_url(re.compile(rf"/games/{slug}$"))
    assert board(page)["cells"][0] == "2C"
    screenshot(page, "after-one-move", sizes=PHONE_ONLY)
    page.get_by_role("button", name="ace of Clubs \u2192 foundation 1").click()  # the dock's "to a foundation"
    page.wait_for_url(re.compile(rf"/games/{slug}$"))
    assert board(page)["foundations"][0] == "AC" and live_server.state(slug).moves_made() == 2
