"""Keyboard alone, every game: several moves of each registered game made with Tab, Enter and
Space only (the cards picked with Space, the move's button pressed with Enter), and after each
move the keyboard's focus is on a control inside the table, never on the page's body (the next
key press goes on from there)."""

from __future__ import annotations

import pytest

import app.games  # noqa: F401  (registers every game)
from app.core import registry
from support.browsing import button_words
from support.moves import sensible_move

pytestmark = pytest.mark.browser

MOVES = 8  # moves of each game
MAX_TABS = 400  # a control this many Tab presses away is not reached by keyboard
WINNABLE_DEAL = 1  # Seahaven's open deal 1, which its solver wins

FOCUS_JS = """() => {
  const a = document.activeElement, t = document.getElementById('table');
  return {inTable: !!(a && t && a !== document.body && t.contains(a)), body: a === document.body,
          what: a ? a.tagName + '.' + a.className + ' ' + (a.textContent || '').trim().slice(0, 40) : null};
}"""
SETTLED_JS = """(v) => {
  const t = document.getElementById('table');
  return !!t && Number(t.dataset.version) > v
    && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling, .htmx-added')
    && !t.classList.contains('pacing');
}"""
IS_JS = "(selector) => !!document.activeElement && document.activeElement.matches(selector)"
# Where the focus is once each new table is shown (after every script's part in it).
SETTLED_FOCUS_JS = """document.addEventListener('table:settled', function () {
  setTimeout(function () {
    var a = document.activeElement, t = document.getElementById('table');
    (window.__focusAfterSettle = window.__focusAfterSettle || []).push(
      !!(a && t && a !== document.body && t.contains(a)) ? 'table' : (a ? a.tagName + '.' + a.className : 'none'));
  }, 0);
});"""
BUTTON_JS = """(words) => {
  const a = document.activeElement;
  return !!a && a.matches('#table button:not([disabled])') && !a.closest('[hidden]')
    && a.textContent.replace(/\\s+/g, ' ').trim().endsWith(words);
}"""


def tab_to(page, check: str, arg) -> int:
    """Press Tab until the focused element passes ``check`` (a JS function of ``arg``); the presses."""
    for presses in range(MAX_TABS + 1):
        if page.evaluate(check, arg):
            return presses
        page.keyboard.press("Tab")
    raise AssertionError(f"{arg!r} was not reached with Tab")


def setup(device, key: str) -> tuple[object, str]:
    """A game of ``key`` for one person (Ann) and, where the game has more seats, a computer player,
    set up through its form; the person's page."""
    laptop = device("laptop", reduced_motion="no-preference")  # (the others' moves and the dealer's shown step by step)
    page = laptop.page
    page.add_init_script(SETTLED_FOCUS_JS)
    definition = registry.get(key)
    if definition.menus is not None:  # set up through its menus
        laptop.start_game([("Ann", "here"), ("AI", "here")])
        return laptop, laptop.game_slug()
    laptop.goto(f"/setup/{key}")
    seats = [("Ann", "here")] + ([("AI", "here")] if definition.min_seats > 1 else [])
    if len(seats) > 1:
        laptop.choose_seat_count(len(seats))
    for number, (name, _where) in enumerate(seats):
        page.locator(f"#name{number}").fill(name)
    numbered_deal = page.locator("#opt-deal")  # (a numbered deal that can be won: a shuffle may offer only Give up)
    if numbered_deal.count():
        numbered_deal.fill(str(WINNABLE_DEAL))
    return laptop, laptop.start_set_up_game()


def move_by_keys(page, state, deck_key: str) -> None:
    """The sensible move of the seat to move (or the table's next deal), by keys alone."""
    choice = sensible_move(state)
    if choice.action.get("action") == "move" and "from" in choice.action:  # a card moved on a board
        tab_to(page, IS_JS, f"#table .sh-src[data-from='{choice.action['from']}']")
        page.keyboard.press("Enter")  # picked up: the focus goes to the first place it may go
        tab_to(page, IS_JS, f"#table .sh-to[data-to='{choice.action['to']}']")
        page.keyboard.press("Enter")
        return
    target = getattr(choice.move, "target", None)
    for card in choice.cards:
        tab_to(page, IS_JS, f"#table input[name=cards][value='{card}']:not(:checked)")
        page.keyboard.press("Space")
    if target:  # the button of the place on the board it goes to (a meld)
        tab_to(page, IS_JS, f"#table button[value='{choice.move.button}|{target}={choice.action[target]}']")
    else:
        tab_to(page, BUTTON_JS, button_words(choice.move, deck_key))
    page.keyboard.press("Enter")
    if getattr(choice.move, "confirm", None):  # it asks first: Yes, by keys
        tab_to(page, IS_JS, "dialog .confirm-yes")
        page.keyboard.press("Enter")


@pytest.mark.parametrize("key", [definition.key for definition in registry.games()])
def test_after_every_move_by_keyboard_the_focus_stays_in_the_table(device, live_server, key):
    laptop, slug = setup(device, key)
    page = laptop.page
    page.locator("#table").click(position={"x": 1, "y": 1})  # (the page has the keyboard; nothing pressed)
    made = 0
    for _move in range(MOVES):
        state = live_server.state(slug)
        if state.is_over() or "groups" in sensible_move(state).action:
            break  # (a declaration's groups are arranged first: test_points_declaration_by_keys)
        deck_key = state.deck.key if getattr(state, "deck", None) is not None else key
        before = int(page.locator("#table").get_attribute("data-version"))
        move_by_keys(page, state, deck_key)
        page.wait_for_function(SETTLED_JS, arg=before)
        page.wait_for_function("() => !document.documentElement.classList.contains('tw-revealing')")
        focus = page.evaluate(FOCUS_JS)
        assert focus["inTable"], f"{key}, move {made + 1}: the focus is on {focus['what']}"
        page.wait_for_function("() => (window.__focusAfterSettle || []).length > 0")
        seen = page.evaluate("() => window.__focusAfterSettle.splice(0)")
        # (a live update of the same move may swap the table once more: the focus is back in it
        # when that settles too)
        assert seen[-1] == "table", f"{key}, move {made + 1}: once the table was shown, the focus was on {seen}"
        made += 1
    assert made >= 3, f"{key}: only {made} moves were made"
    assert laptop.unexpected_problems() == []
