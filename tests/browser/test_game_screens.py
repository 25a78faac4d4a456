"""Every game's screens at a phone's size (390x844) and a laptop's (1280x800), in a real browser:
no page wider than the phone's screen (``scrollWidth``) with each game's table in the middle of
a game and once it is over (a player's page, a spectator's and the replay's last step), axe-core
finds nothing serious, and what a player reads there: Points Rummy's drop and declaration ask
first, Mason Rummy's standings lead its game-over panel and its join panel leaves the piles
clear of the docked hand, 21's results wait for the dealer without moving the board.
Screenshots go to test-artifacts/screenshots/ (looked at, not compared)."""

from __future__ import annotations

import pytest

from support.browsing import axe_scan, finished_game

from app.games.mason.definition import MASON
from app.web.words import card_short

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
BOTH = (("phone", PHONE), ("desktop", LAPTOP))
LONG_NAME = "Maximiliana Long"

CARDS_JS = "(sel) => Array.from(document.querySelectorAll(sel + ' [data-card]'), e => e.dataset.card)"
WIDTH_JS = "() => document.documentElement.scrollWidth"
BOX_JS = """(sel) => { const e = document.querySelector(sel); if (!e) return null;
  const r = e.getBoundingClientRect(); return {top: r.top + window.scrollY, bottom: r.bottom + window.scrollY,
  left: r.left, right: r.right, viewTop: r.top, viewBottom: r.bottom}; }"""


def phone(device, name: str = "phone", **options):
    return device(name, viewport=dict(PHONE), is_mobile=True, has_touch=True, **options)


def set_up(device, key: str, seats: list[tuple[str, str]], deck: str | None = None, **options) -> str:
    """The game's set-up form (/setup/<key>): seats [(name, "here" | "own")], options by key."""
    page = device.page
    device.goto(f"/setup/{key}")
    if len(seats) > 1:
        device.choose_seat_count(len(seats))
    for number, (name, where) in enumerate(seats):
        page.locator(f"#name{number}").fill(name)
        if name != "AI" and len(seats) > 1:
            page.locator(f"input[name=device{number}][value={where}]").check()
    for option, value in options.items():
        page.locator(f"#opt-{option}").fill(str(value))
    if deck:
        page.locator(f"input[name=deck][value='{deck}']").check()
    return device.start_set_up_game()


def check_screen(page, screenshot, label: str, problems: list[str]) -> None:
    """At both sizes: the page is no wider than the screen at 390 px (every page, whatever the
    game), a screenshot of each; at the phone's size, axe-core's serious findings."""
    before = page.viewport_size
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(50)
    width = page.evaluate(WIDTH_JS)
    assert width <= PHONE["width"], f"{label}: the page is {width} px wide at a phone's 390 px"
    problems += axe_scan(page, label)
    screenshot(page, label, sizes=BOTH)
    page.set_viewport_size(before)


# -- every game, mid-game and over --------------------------------------------------------------------


GAME_SEATS = {"mason": 2, "rummy": 3, "twentyone": 3, "seahaven": 1, "points": 3}
MID_GAME = {  # a person and computer players, set up through the game's form
    "rummy": ([(LONG_NAME, "here"), ("AI", "here"), ("AI", "here")], None, {}),
    "twentyone": ([(LONG_NAME, "here"), ("AI", "here"), ("AI", "here")], None, {}),
    "seahaven": ([(LONG_NAME, "here")], None, {}),
    "points": ([(LONG_NAME, "here"), ("AI", "here"), ("AI", "here")], None, {}),
}


@pytest.mark.parametrize("key", sorted(GAME_SEATS))
def test_every_game_fits_a_phone_in_play_and_once_over(key, live_server, database_url, decks_folder, tmp_path,
                                                       device, screenshot):
    problems: list[str] = []
    player = phone(device, "player")
    if key == "mason":
        slug = player.start_game([(LONG_NAME, "here"), ("Bob", "own")])
    else:
        seats, deck, options = MID_GAME[key]
        slug = set_up(player, key, seats, deck, **options)
    player.page.locator("#table").wait_for()
    check_screen(player.page, screenshot, f"{key}-in-play", problems)

    over = finished_game(database_url, decks_folder, tmp_path, key, GAME_SEATS[key])
    watcher = phone(device, "spectator")
    watcher.goto(f"/games/{over}/watch")
    results = watcher.page.locator("#table .results")
    results.wait_for()
    assert "Game over" in results.inner_text()
    check_screen(watcher.page, screenshot, f"{key}-over-watched", problems)
    # the replay's last step: the spectator's view once the game is over, every hand shown
    shown = watcher.page.evaluate(CARDS_JS, "#table .results")
    watcher.goto(f"/games/{over}/replay?step=100000")
    watcher.page.locator("#table .results").wait_for()
    assert watcher.page.evaluate(CARDS_JS, "#table .results") == shown, f"{key}: the replay's end shows other hands"
    assert shown or key in ("seahaven", "twentyone"), f"{key}: no hand is shown at the end"
    check_screen(watcher.page, screenshot, f"{key}-over-replay", problems)
    assert problems == [], "\n".join(problems)
    for one in (player, watcher):
        assert one.unexpected_problems() == [], "\n".join(one.unexpected_problems())


def test_a_log_longer_than_its_box_is_named_and_scrolls_from_the_keyboard(live_server, device):
    """The table's log scrolls in a box of its own once its last lines are long enough (long
    names, wrapped lines): that box is named by its heading, takes the keyboard's focus, and a key
    scrolls it, so axe-core's scrollable-region rule holds whatever the lines' length."""
    player = phone(device, "player")
    page = player.page
    player.start_game([(LONG_NAME, "here"), ("Bob", "own")])
    log = page.locator("#table .log-lines")
    log.wait_for()
    page.evaluate("""() => { const log = document.querySelector('#table .log-lines');
      for (let n = 0; n < 30; n++) { const line = document.createElement('li');
        line.textContent = 'Maximiliana Long lays down a run of five and lays off two cards.'; log.append(line); } }""")
    assert page.evaluate("() => { const e = document.querySelector('#table .log-lines'); "
                         "return e.scrollHeight > e.clientHeight; }"), "the log did not overflow its box"
    assert log.get_attribute("aria-labelledby") == "moves-heading"
    assert page.locator("#moves-heading").inner_text() == "Moves"
    assert axe_scan(page, "long-log") == []
    log.focus()
    assert page.evaluate("() => document.activeElement.classList.contains('log-lines')")
    page.keyboard.press("End")
    page.wait_for_function("() => document.querySelector('#table .log-lines').scrollTop > 0")
    assert player.unexpected_problems() == [], "\n".join(player.unexpected_problems())


# -- Points Rummy: asking first, the wrong declaration's seat tile, the keyboard --------------------------


def test_points_drop_and_declare_ask_first_and_keyboard_arranging_keeps_its_place(live_server, device, screenshot):
    problems: list[str] = []
    ann = phone(device, "Ann's phone")
    page = ann.page
    set_up(ann, "points", [(LONG_NAME, "here"), ("AI", "here"), ("AI", "here")], "three_players_two_decks.deck",
           deals=2)
    table = page.locator("#table")
    # Dropping is a row of its own, below the arranging buttons, far from the draws; it asks first.
    drop = table.get_by_role("button", name="Drop (20 points)")
    draw = table.locator(".turn-actions").first.get_by_role("button").first
    assert drop.bounding_box()["y"] - draw.bounding_box()["y"] > 60
    drop.tap()
    dialog = page.locator("dialog.confirm-dialog")
    dialog.wait_for()
    assert dialog.inner_text().startswith("Drop out of this deal? It costs you 20 points.")
    screenshot(page, "points-drop-asks", sizes=(("phone", PHONE),))
    problems += axe_scan(page, "points-drop-dialog")
    version = ann.table.version()
    dialog.get_by_role("button", name="No, go back").click()
    assert ann.table.version() == version and "dropped" not in table.locator(".points-players").inner_text()

    # Keyboard: after "Make a new group" the focus stays on that button, not on the first card.
    before = ann.table.version()
    table.locator(".pile-button[value='draw|source=closed']").click()
    ann.table.wait_past(before)
    first_two = page.evaluate("() => Array.from(document.querySelectorAll('#table input[name=cards]'), e => e.id)")[:3]
    for box in first_two:
        page.locator(f"#{box}").focus()
        page.keyboard.press("Space")
    page.locator("#arrange-group").focus()
    page.evaluate("() => { document.getElementById('table').dataset.pressed = '1'; }")
    page.keyboard.press("Enter")
    page.wait_for_function("() => !document.getElementById('table').dataset.pressed && "
                           "!document.querySelector('.htmx-request, .htmx-settling')")
    page.wait_for_timeout(100)
    assert page.evaluate("() => document.activeElement && document.activeElement.id") == "arrange-group"
    assert page.locator("#table .points-hand .group:not(.ungrouped)").count() == 1

    # Every card in a group: Declare needs the finish card selected, warns, and a wrong one costs 80.
    ann.table.press_private("Group by suit")
    finish = page.evaluate("() => document.querySelector('#table input[name=cards]').value")
    page.locator(f"#table .points-hand label.card[data-card='{finish}']").tap()
    table.get_by_role("button", name="Declare (the selected card is the finish card)").tap()
    dialog.wait_for()
    assert "it costs you 80 points" in dialog.inner_text()
    before = ann.table.version()
    dialog.get_by_role("button", name="Yes, declare").click()
    ann.table.wait_past(before)
    page.locator("#table .summary").wait_for()
    tiles = page.locator("#table .points-players")
    assert "wrong declaration" in tiles.inner_text()
    # the seat tile with "wrong declaration" (and a long name) stays within the phone's width
    check_screen(page, screenshot, "points-wrong-declaration", problems)
    box = page.evaluate(BOX_JS, "#table .points-players .status-wrong")
    assert box["right"] <= PHONE["width"]
    assert problems == [], "\n".join(problems)
    assert ann.unexpected_problems() == [], "\n".join(ann.unexpected_problems())


# -- Mason Rummy: the join panel, the discard pile's card, the standings ------------------------------------


def test_mason_join_panel_leaves_the_piles_clear_and_the_standings_lead_the_game_over_panel(
        live_server, database_url, decks_folder, tmp_path, device, screenshot):
    problems: list[str] = []
    host = phone(device, "host")
    page = host.page
    # Three players, two still to join: the host's board shows both codes, and long names wrap.
    host.start_game([(LONG_NAME, "here"), ("Bartholomew Quint", "own"), ("Anastasia Wrenfield", "own")])
    page.locator("#table .invites").wait_for()
    piles = page.evaluate(BOX_JS, "#table .piles")
    dock = page.evaluate(BOX_JS, "#table .dock")
    assert piles["viewBottom"] <= dock["viewTop"], (piles, dock)  # not under the docked hand
    top = page.locator("#table .piles [data-card]").get_attribute("data-card")
    assert host.table.button(f"Take the {card_short(MASON.deck.parse(top))} from the discard pile").count() == 1
    screenshot(page, "mason-join-waiting", sizes=BOTH)

    over = finished_game(database_url, decks_folder, tmp_path, "mason", 2)
    host.goto(f"/games/{over}/watch")
    standings = page.locator("#table .results .standings")
    standings.wait_for()
    box = page.evaluate(BOX_JS, "#table .results .standings")
    assert box["bottom"] <= PHONE["height"], box  # on the first screen of a phone
    rows = standings.locator("tbody tr")
    assert rows.count() == 2 and standings.locator("thead th").count() == 5  # the player, R1-R3, the total
    assert page.evaluate(BOX_JS, "#table .results .hands-left")["top"] > box["bottom"]
    check_screen(page, screenshot, "mason-game-over", problems)
    assert problems == [], "\n".join(problems)


# -- 21: the dealer's turn, the results, the focus, no hand-over --------------------------------------------


def test_twentyone_results_wait_for_the_dealer_without_moving_the_board(live_server, device, screenshot):
    problems: list[str] = []
    ann = phone(device, "shared phone", reduced_motion="no-preference")
    page = ann.page
    slug = set_up(ann, "twentyone", [("Ann", "here"), ("Bob", "here")], "two_players.deck", rounds=3)
    # two people on one device, every hand face up: no hand-over screen, straight to Ann's turn
    table = page.locator("#table")
    assert table.locator(".handover").count() == 0
    assert "Your turn, Ann" in table.locator(".status-bar").inner_text()
    ann.table.press("Stay")
    assert "Your turn, Bob" in table.locator(".status-bar").inner_text()
    assert table.locator(".handover").count() == 0
    board_before = page.evaluate(BOX_JS, "#table .board")["top"]
    before = ann.table.version()
    ann.table.button("Stay").click()
    page.wait_for_function("() => document.documentElement.classList.contains('tw-revealing')")
    status = page.evaluate("() => getComputedStyle(document.querySelector('#table .status-bar'), '::after').content")
    assert "dealer is playing" in status
    assert not table.locator(".status-bar strong").is_visible()  # not yet "Round 1 is over"
    during = page.evaluate(BOX_JS, "#table .board")["top"]
    page.wait_for_function("() => !document.documentElement.classList.contains('tw-revealing')", timeout=20_000)
    ann.table.wait_past(before)
    after = page.evaluate(BOX_JS, "#table .board")["top"]
    # the results appear below the board: it does not move when the dealer finishes (nor go down
    # from where it was on Bob's turn, whose status line was longer)
    assert during == after <= board_before, (board_before, during, after)
    assert table.locator(".summary").is_visible() and "is over" in table.locator(".status-bar").inner_text()
    assert page.evaluate("() => document.activeElement.textContent.trim()") == "Deal round 2"
    check_screen(page, screenshot, "twentyone-round-over", problems)

    fan = phone(device, "spectator")
    fan.goto(f"/games/{slug}/watch")
    note = fan.page.locator("#table .watching-note")
    assert note.inner_text() == "You are watching."
    check_screen(fan.page, screenshot, "twentyone-watched", problems)
    assert problems == [], "\n".join(problems)
    assert ann.unexpected_problems() == [], "\n".join(ann.unexpected_problems())


# -- reading the game: every card that was public is named, by whom ------------------------------------------

DISCARD_LINE = r"^(.+) discarded the (?:(?:10|[2-9JQKA])[\u2663\u2666\u2665\u2660]|joker)\.$"


def test_points_log_names_who_discarded_what_at_four_seats(live_server, device, screenshot):
    """Four at a Points table, at both sizes: the log names every card discarded and who did it,
    in the table's log and in the whole game's log alike (no line stops at "discards")."""
    import re

    for label, size in BOTH:
        one = device(label, viewport=dict(size), **({"is_mobile": True, "has_touch": True} if label == "phone" else {}))
        page = one.page
        slug = set_up(one, "points", [(LONG_NAME, "here"), ("AI", "here"), ("AI", "here"), ("AI", "here")],
                      "three_players_two_decks.deck")
        table = page.locator("#table")
        before = one.table.version()
        table.locator(".pile-button[value='draw|source=closed']").click()
        one.table.wait_past(before)
        page.locator("#table .points-hand label.card").last.click()
        before = one.table.version()
        table.locator(".turn-actions").get_by_role("button", name="Discard").click()
        one.table.wait_past(before)
        page.wait_for_function("() => document.querySelectorAll('#table .log-lines li').length >= 8")
        lines = [line.strip() for line in table.locator(".log-lines li").all_inner_texts()]
        assert lines[1].startswith("The open pile starts with ") and len(lines[1]) > len("The open pile starts with .")
        discards = [re.match(DISCARD_LINE, line) for line in lines if " discarded" in line]
        assert discards and all(discards), lines
        assert {match.group(1) for match in discards} >= {LONG_NAME, "AI 2"}, lines
        assert not any("?" in line for line in lines)
        screenshot(page, "points-log-four-seats", sizes=((label, size),))
        one.goto(f"/games/{slug}/log")
        whole = [line.strip() for line in page.locator(".log-lines li").all_inner_texts()
                 if " discarded" in line]
        assert all(re.match(DISCARD_LINE, line) for line in whole), whole
        shown = [match.group(0) for match in discards]
        assert whole[-len(shown):] == shown  # the table's last lines are the whole log's
        assert page.evaluate(WIDTH_JS) <= size["width"]
        assert one.unexpected_problems() == [], "\n".join(one.unexpected_problems())


def test_a_finished_classic_game_shows_every_hand_and_a_whole_log_without_hidden_cards(
        live_server, database_url, decks_folder, tmp_path, device, screenshot):
    over = finished_game(database_url, decks_folder, tmp_path, "rummy", 3)
    for label, size in BOTH:
        one = device(label, viewport=dict(size), **({"is_mobile": True, "has_touch": True} if label == "phone" else {}))
        page = one.page
        one.goto(f"/games/{over}/watch")
        results = page.locator("#table .results")
        results.wait_for()
        owners = page.locator("#table .results .hands-left .hand-owner").all_inner_texts()
        assert len(owners) >= 2, owners  # the losers' cards, not only "Eve: 23 points"
        assert page.locator("#table .results .hands-left [data-card]").count() > 0
        one.goto(f"/games/{over}/log?watch=1")
        lines = page.locator(".log-lines li").all_inner_texts()
        assert lines and not [line for line in lines if "?" in line]
        assert page.evaluate(WIDTH_JS) <= size["width"]
        screenshot(page, "rummy-whole-log", sizes=((label, size),))
        assert one.unexpected_problems() == [], "\n".join(one.unexpected_problems())
