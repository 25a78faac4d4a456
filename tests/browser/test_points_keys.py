"""Points Rummy's declaration by keys alone, counted: the stacked deck declare_after_one_draw.deck
(decks/points/README.md) lets seat 1 declare four groups after one draw (P5.1): with the focus on
a card of the hand, a number puts it in that group (the next number starts a new group) and the
focus goes on to the next card not in a group, so the thirteen cards take a key each, and the
whole declaration takes at most 30 key presses. The hint says the keys; axe finds nothing."""

from __future__ import annotations

import pytest

from support.browsing import axe_scan

pytestmark = pytest.mark.browser

MOST_KEYS = 30
FINISH = "8H"
GROUPS = [["5C", "6C", "9H"], ["7C", "7D", "7S"], ["AD", "QD", "KD"], ["AH", "2H", "3H", "4H"]]
ACTIVE_JS = "() => { const a = document.activeElement; return a && a.name === 'cards' ? a.value : null; }"
BUTTON_JS = """(words) => {
  const a = document.activeElement;
  return !!a && a.matches('#table button:not([disabled])') && a.textContent.replace(/\\s+/g, ' ').trim().startsWith(words);
}"""
PRESSED_JS = """() => {
  const t = document.getElementById('table');
  return !!t && !t.dataset.pressed && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling, .htmx-added');
}"""


class Keys:
    """The keyboard, counted."""

    def __init__(self, page):
        self.page = page
        self.count = 0

    def press(self, key: str) -> None:
        self.count += 1
        self.page.keyboard.press(key)

    def tab_to(self, check: str, arg) -> None:
        for _press in range(60):
            if self.page.evaluate(check, arg):
                return
            self.press("Tab")
        raise AssertionError(f"{arg!r} not reached by Tab")

    def press_and_wait(self, key: str) -> None:
        """A key that sends the hand's form: wait for the table it brings."""
        self.page.evaluate("() => { document.getElementById('table').dataset.pressed = '1'; }")
        self.press(key)
        self.page.wait_for_function(PRESSED_JS)


def test_a_four_group_declaration_takes_at_most_30_key_presses(device, live_server, screenshot):
    laptop = device("laptop")
    page = laptop.page
    laptop.goto("/setup/points")
    page.locator("#name0").fill("Ann")
    page.locator("#name1").fill("AI")
    page.locator("input[name=deck][value='declare_after_one_draw.deck']").check()
    slug = laptop.start_set_up_game()
    table = laptop.table
    # the draw (P4.1), by keys too, from where a turn puts the focus: on the turn's first move
    assert page.locator("#table").get_attribute("data-focus") == "moves"
    page.locator("#table .turn-actions button").first.focus()
    keys = Keys(page)
    before = table.version()
    keys.tab_to(BUTTON_JS, "Draw from the closed deck")
    keys.press("Enter")
    table.wait_past(before)
    drawing = keys.count
    hint = page.locator("#points-keys")
    assert hint.is_visible() and "a number puts the card in that group" in hint.inner_text()
    assert page.evaluate(ACTIVE_JS) is not None, "after the draw the focus is on the hand"

    # the arrangement: one key a card (the finish card is stepped over with an arrow)
    keys.count = 0
    made: dict[int, int] = {}  # planned group -> its number on the table
    grouped = 0
    while grouped < sum(len(group) for group in GROUPS):
        card = page.evaluate(ACTIVE_JS)
        assert card is not None, "the focus stays on the hand"
        if card == FINISH:
            keys.press("ArrowRight")
            continue
        planned = next(number for number, group in enumerate(GROUPS) if card in group)
        number = made.setdefault(planned, len(made) + 1)
        keys.press_and_wait(str(number))
        grouped += 1
        shown = page.locator(f"#table .group:not(.ungrouped):nth-child({number}) [data-card='{card}']")
        assert shown.count() == 1, f"{card} is in group {number}"
    arranging = keys.count
    labels = page.locator("#table .points-hand .group:not(.ungrouped) .group-label").all_inner_texts()
    assert len(labels) == 4 and all("\u2713" in label for label in labels), labels
    screenshot(page, "points-arranged-by-keys", sizes=(("phone", {"width": 390, "height": 844}),))
    problems = axe_scan(page, "points arranged")

    # the finish card, selected, and the declaration
    assert page.evaluate(ACTIVE_JS) == FINISH
    keys.press("Space")
    keys.tab_to(BUTTON_JS, "Declare")
    before = table.version()
    keys.press("Enter")
    if page.locator("dialog[open] .confirm-yes").count():  # (a declaration that asks first)
        keys.tab_to("() => document.activeElement.matches('dialog .confirm-yes')", None)
        keys.press("Enter")
    table.wait_past(before)
    total = drawing + keys.count
    state = live_server.state(slug)
    assert state.is_over() and state.results()[0].won, "Ann's declaration is valid and wins the deal (P5.2)"
    print(f"keys: draw {drawing}, arrangement {arranging}, the whole turn {total}")
    assert arranging <= 14, "a key a card, and one to step over the finish card"
    assert total <= MOST_KEYS, f"the turn and its declaration took {total} key presses"
    assert problems == [], "\n".join(problems)
    assert laptop.unexpected_problems() == []
