"""Points Rummy in a real browser (Playwright, the real server): a phone player arranges a
stacked hand into groups by tapping cards and buttons, watches the server label each group
(P3), and declares with a finish card (P5.1, P5.2); a desktop table of four seats, two of them
computer players. Screenshots go to test-artifacts/screenshots/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
PHONE = {"width": 390, "height": 844}
DECK = "declare_after_one_draw.deck"
# tests/decks/points/README.md: seat 1 draws 4H and declares with 8H as the finish card.
# The groups in the order this test makes them, with the server's labels (P3).
WINNING_GROUPS = [["AH", "2H", "3H", "4H"], ["5C", "6C", "9H"], ["QD", "KD", "AD"], ["7C", "7D", "7S"]]
LABELS = ["pure sequence", "impure sequence", "pure sequence", "set"]

GROUPS_JS = """() => Array.from(document.querySelectorAll('#table .points-hand .group:not(.ungrouped)'), g => ({
  label: g.querySelector('.group-label').innerText.replace(/^\\W+/, '').trim(),
  cards: Array.from(g.querySelectorAll('[data-card]'), c => c.dataset.card),
}))"""
UNGROUPED_JS = """() => Array.from(document.querySelectorAll('#table .points-hand .group.ungrouped [data-card]'), c => c.dataset.card)"""


def set_up(device, seats: list[str], deck: str | None = None, deals: int = 1) -> str:
    """The generic set-up form (/setup/points): names (``AI`` for a computer seat), this device."""
    page = device.page
    device.goto("/setup/points")
    device.choose_seat_count(len(seats))
    for number, name in enumerate(seats):
        page.locator(f"#name{number}").fill(name)
    page.locator("#opt-deals").fill(str(deals))
    if deck:
        page.locator(f"input[name=deck][value='{deck}']").check()
    return device.start_set_up_game()


def on_screen(page, selector: str) -> bool:
    """Every element ``selector`` matches lies inside the viewport as it is scrolled now."""
    return page.evaluate("""(sel) => Array.from(document.querySelectorAll(sel)).every(e => {
        const r = e.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth;
    })""", selector)


def assert_turn_fits_the_phone(page) -> None:
    """At 390x844, unscrolled: the piles, every card of the hand in its groups, the arranging
    buttons and the turn's buttons are all on screen together."""
    assert page.evaluate("() => window.scrollY") == 0
    for selector in ("#table .points-piles", "#table .points-hand label.card", "#table .points-hand .add-tile",
                     "#table .arrange-actions button", "#table .turn-actions button"):
        assert on_screen(page, selector), f"{selector} is not on the phone's screen"


def tap_cards(device, codes) -> None:
    for code in codes:
        device.page.locator(f"#table .points-hand label.card[data-card='{code}']").tap()
    checked = device.table.checked()
    assert sorted(checked) == sorted(codes), checked


def press(device, name: str) -> dict:
    """Tap a table button by its accessible name; wait for the fresh table (an arranging move
    makes no new version: the swapped table is waited for)."""
    if name.startswith(("Make a new group", "Add to group", "Take out of its group", "Group by suit")):
        return device.table.press_private(name)
    before = device.table.version()
    device.page.locator("#table").get_by_role("button", name=name, exact=True).tap()
    return device.table.wait_past(before)


def viewport_shot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"test_points-{name}-phone-viewport.png"), caret="initial")


def test_a_phone_player_arranges_and_declares_a_winning_hand_by_tapping(live_server, device, screenshot):
    """P4.1 (tap the closed deck), P3 (each group labelled by the server as it forms), P5.1/P5.2
    (select the finish card, Declare), P6.3 (then every hand is shown grouped, with points)."""
    phone = device("Ann's phone", viewport=dict(PHONE), is_mobile=True, has_touch=True)
    page = phone.page
    slug = set_up(phone, ["Ann", "AI"], deck=DECK)
    assert page.url.endswith(f"/games/{slug}")
    table = page.locator("#table")
    assert "Your hand counts 8 now" in table.inner_text()
    assert "Nines are jokers this deal" in table.locator(".wild-text").inner_text()
    joker = table.locator(".points-hand label.card[data-card='9H']")
    assert "joker" in joker.get_attribute("class") and joker.locator(".joker-tag").inner_text().lower() == "joker"
    viewport_shot(page, "1-start")
    assert_turn_fits_the_phone(page)
    screenshot(page, "start")

    before = phone.table.version()
    table.locator(".pile-button[value='draw|source=closed']").tap()  # tap the closed deck
    phone.table.wait_past(before)
    assert "4H" in page.evaluate(UNGROUPED_JS) and len(page.evaluate(UNGROUPED_JS)) == 14
    assert table.locator(".turn-actions").get_by_role("button", name="Discard").is_visible()

    # Group the cards, watching the server's labels; one group is made in two steps
    tap_cards(phone, ["AH", "2H", "3H", "4H"])
    press(phone, "Make a new group")
    assert page.evaluate(GROUPS_JS) == [{"label": "pure sequence", "cards": ["AH", "2H", "3H", "4H"]}]
    tap_cards(phone, ["5C", "6C"])
    press(phone, "Make a new group")
    groups = page.evaluate(GROUPS_JS)
    assert groups[1] == {"label": "not a valid group", "cards": ["5C", "6C"]}
    assert "a group needs at least 3 cards" in table.locator(".group.invalid .group-reason").inner_text()
    viewport_shot(page, "2-invalid-group")
    tap_cards(phone, ["9H"])
    press(phone, "Add to group 2")  # the group's own + tile
    assert page.evaluate(GROUPS_JS)[1] == {"label": "impure sequence", "cards": ["5C", "6C", "9H"]}
    tap_cards(phone, ["QD", "KD", "AD"])
    press(phone, "Make a new group")
    assert page.evaluate(GROUPS_JS)[2] == {"label": "pure sequence", "cards": ["QD", "KD", "AD"]}

    # Keyboard: the cards are focusable checkboxes; Space toggles one
    page.locator("#card-7C").focus()
    page.keyboard.press("Space")
    assert phone.table.checked() == ["7C"]
    page.keyboard.press("Space")
    assert phone.table.checked() == []

    tap_cards(phone, ["7C", "7D", "7S"])
    press(phone, "Make a new group")
    groups = page.evaluate(GROUPS_JS)
    assert [group["label"] for group in groups] == LABELS
    assert [group["cards"] for group in groups] == WINNING_GROUPS  # shown in reading order
    assert page.evaluate(UNGROUPED_JS) == ["8H"]
    assert table.locator(".group.finish-slot h3").inner_text() == "Finish card"
    assert "valid declaration with the 8\u2665 as the finish card" in table.locator(".declaration").inner_text()
    assert re.search(r"Your hand counts \d+ now", table.locator(".hand-points").inner_text())
    viewport_shot(page, "3-ready-to-declare")
    assert_turn_fits_the_phone(page)
    screenshot(page, "ready-to-declare")

    # Reconnect: a reload shows the same arrangement (it is kept on the server)
    page.reload()
    table.wait_for()
    assert [group["cards"] for group in page.evaluate(GROUPS_JS)] == WINNING_GROUPS
    assert page.evaluate(UNGROUPED_JS) == ["8H"]

    # P5.1: the card left out is the finish card: Declare names it and needs no selection; it asks first
    before = phone.table.version()
    # (a card in a button is read in words: the 8 of Hearts)
    page.locator("#table").get_by_role("button", name="Declare with the 8 of Hearts as the finish card", exact=True).tap()
    dialog = page.locator("dialog.confirm-dialog")
    dialog.wait_for()
    assert dialog.inner_text().startswith("Declare with the 8\u2665 as the finish card? Your groups make a valid "
                                          "declaration.")
    viewport_shot(page, "4-declare-asks-first")
    dialog.get_by_role("button", name="Yes, declare").click()
    snap = phone.table.wait_past(before)
    assert "Game over" in snap["status"]
    results = table.locator(".results")
    assert "Ann wins with a net total of 80!" in results.inner_text()
    ann = results.locator(".deal-hand", has_text="Ann")
    assert [label.inner_text().strip("✓ ") for label in ann.locator(".deal-label").all()] == \
        LABELS + ["finish card"]
    computer = results.locator(".deal-hand", has_text="AI")
    assert "80 points" in computer.inner_text()
    screenshot(page, "game-over")
    viewport_shot(page, "5-game-over")
    problems = phone.unexpected_problems()
    assert problems == [], "\n".join(problems)


def test_the_table_works_without_javascript(live_server, device, screenshot):
    """Plain form posts: tapping the closed deck (a submit button of the hand's form outside
    it), ticking cards and "Make a new group"; then a drop (P4.3) and the deal's summary."""
    plain = device("no-JS phone", viewport=dict(PHONE), java_script_enabled=False)
    page = plain.page
    slug = set_up(plain, ["Ann", "AI"], deck=DECK, deals=2)
    with page.expect_navigation():
        page.locator("#table .pile-button[value='draw|source=closed']").click()
    assert page.url.endswith(f"/games/{slug}") and len(page.evaluate(UNGROUPED_JS)) == 14
    for code in ("QD", "KD", "AD"):
        page.locator(f"#table .points-hand label.card[data-card='{code}']").click()
    with page.expect_navigation():
        page.locator("#table").get_by_role("button", name="Make a new group").click()
    assert page.evaluate(GROUPS_JS) == [{"label": "pure sequence", "cards": ["QD", "KD", "AD"]}]
    page.locator("#table .points-hand label.card[data-card='7S']").click()
    with page.expect_navigation():
        page.locator("#table").get_by_role("button", name="Discard").click()
    assert "7S" not in page.evaluate(UNGROUPED_JS)
    with page.expect_navigation():
        page.locator("#table").get_by_role("button", name="Drop (40 points)").click()  # a middle drop
    # without JavaScript the table asks first, as a step of the page
    assert "Drop out of this deal? It costs you 40 points." in page.locator("#table .confirm-step").inner_text()
    with page.expect_navigation():
        page.locator("#table .confirm-step").get_by_role("button", name="Yes, drop (40 points)").click()
    summary = page.locator("#table .summary")
    assert "Deal 1 of 2 is over" in summary.inner_text() and "middle drop" in summary.inner_text()
    screenshot(page, "deal-summary")
    with page.expect_navigation():
        summary.get_by_role("button", name="Deal 2 of 2").click()
    assert "Deal 2 of 2" in page.locator("#table .status-bar").inner_text()
    assert plain.problems == []


def test_a_four_seat_table_with_two_computer_players_on_a_desktop(live_server, device, screenshot):
    """Two people on their own devices and two computer players: the desktop shows the four
    seats, the piles and the own hand only (P6.3); Bob joins from a phone and arranges his hand
    while Ann plays; Ann's page follows live and keeps the cards she has ticked."""
    laptop = device("Ann's laptop")
    page = laptop.page
    laptop.goto("/setup/points")
    laptop.choose_seat_count(4)
    for number, name in enumerate(["Ann", "AI", "Bob", "AI"]):
        page.locator(f"#name{number}").fill(name)
    page.locator("input[name=device2][value=own]").check()
    page.locator("#opt-deals").fill("3")
    page.get_by_role("button", name="Start the game").click()
    page.locator("#table").wait_for()
    players = page.locator("#table .points-players li.player")
    assert players.count() == 4
    assert "not joined" in players.nth(2).inner_text()
    assert len(page.evaluate(UNGROUPED_JS)) == 13
    code = page.locator("#table .seats-panel li", has_text="Bob").locator("code.join-code").inner_text().strip()
    laptop.mark_document()

    laptop.table.press_private("Group by suit")
    assert len(page.evaluate(GROUPS_JS)) >= 2
    before = laptop.table.version()
    page.locator("#table .pile-button[value='draw|source=closed']").click()
    laptop.table.wait_past(before)
    ticked = page.evaluate(UNGROUPED_JS)[:1] + [page.evaluate(GROUPS_JS)[0]["cards"][0]]
    for card in ticked:
        page.locator(f"#table .points-hand label.card[data-card='{card}']").click()
    assert sorted(laptop.table.checked()) == sorted(ticked)
    before = laptop.table.version()  # (Bob's claim makes the next version)

    bob = device("Bob's phone", viewport=dict(PHONE), is_mobile=True, has_touch=True)
    bob.goto("/")
    bob.page.get_by_label("Joining a game on your own device? Code:").fill(code)
    bob.page.get_by_role("button", name="Join", exact=True).click()
    bob.page.get_by_role("button", name="I am Bob: take my seat").click()
    bob.page.locator("#table").wait_for()
    laptop.table.wait_past(before)  # Ann sees Bob join, live, and her ticks stay
    assert laptop.same_document() and "not joined" not in players.nth(2).inner_text()
    assert sorted(laptop.table.checked()) == sorted(ticked)

    # Bob arranges during Ann's turn: arranging is not a turn's move
    assert bob.page.locator("#table .turn-actions").count() == 0
    shown = laptop.table.version()
    bob.table.press_private("Group by suit")
    assert len(bob.page.evaluate(GROUPS_JS)) >= 2
    assert laptop.table.version() == shown  # Bob's arrangement is his own: no new version for Ann
    assert sorted(laptop.table.checked()) == sorted(ticked)
    ann_cards = set(page.evaluate("() => Array.from(document.querySelectorAll('#table [data-card]'), e => e.dataset.card)"))
    bob_hand = set(bob.page.evaluate("() => Array.from(document.querySelectorAll('#table input[name=cards]'), e => e.value)"))
    assert len(bob_hand) == 13 and not ann_cards & bob_hand  # P6.3: Ann's page shows none of Bob's cards
    screenshot(page, "four-seats", sizes=(("desktop", {"width": 1280, "height": 900}),))
    screenshot(bob.page, "bob-waiting", sizes=(("phone", PHONE),))
    for one in (laptop, bob):
        problems = one.unexpected_problems()
        assert problems == [], "\n".join(problems)
