"""The pages run under a strict Content-Security-Policy (scripts and styles from 'self' only, no
eval): in a real browser, Menu A, the setup pages and the table raise no console errors, no CSP
violations and no uncaught page errors, while htmx and the live event stream still work."""

from __future__ import annotations

import re

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # a real browser and server: well over 5 s a test

SSE_OPEN_JS = "document.addEventListener('htmx:sseOpen', function () { window.__masonSseOpen = true; });"


def test_menu_setup_and_table_pages_have_no_console_errors_or_csp_violations(live_server, device):
    one = device("strict browser")
    one.context.add_init_script(SSE_OPEN_JS)
    page = one.page

    response = one.goto("/menus/mason")  # Menu A (R9)
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "style-src 'self'" in policy and "unsafe" not in policy
    options = page.locator("button[name=choice]").all_inner_texts()
    assert [re.sub(r"^\d+\s*", "", text) for text in options] == [
        "View scores", "Play 2-player game", "Play 3-player game", "Play 2-player game with stacked deck",
        "Play 3-player game with stacked deck", "Quit"]

    # Setup: the one set-up form (R3): three seats, each chosen from its control, and a stacked deck (R2).
    page.get_by_role("button", name=re.compile("Play 3-player game with stacked deck$")).click()
    page.locator("fieldset.seat-setup").nth(2).wait_for()
    assert page.locator("input[name=deck]").count() >= 6  # the decks are offered by name
    one.fill_seats([("Ann", "here"), ("Bob", "own"), ("AI", "here")])
    page.locator("input[name=deck][value='three_players.deck']").check()
    page.get_by_role("button", name="Start the game").click()

    # The table: htmx swaps it in place and the event stream connects.
    page.locator("#table").wait_for()
    page.wait_for_function("() => window.__masonSseOpen === true")
    one.mark_document()
    table = one.table
    snap = table.snapshot()
    assert snap["myTurn"] and len(snap["hand"]) == 10 and snap["title"].startswith("\u25b6 Your turn")
    snap = table.press("Draw from stock pile", snap["version"])
    assert "play down cards or discard" in snap["status"] and snap["sameDocument"]
    table.select([snap["hand"][-1]])
    snap = table.press("Discard", snap["version"])
    assert snap["sameDocument"] and snap["alert"] is None

    # The invite page with its QR code (an image from a data: URL, allowed by img-src).
    page.locator("#table .seats-panel li", has_text="Bob").get_by_role("link", name="Link & QR code").click()
    qr = page.get_by_role("img", name="QR code of the join link for Bob")
    qr.wait_for()
    assert qr.evaluate("img => img.complete && img.naturalWidth > 0")
    page.get_by_role("link", name="Back to the table").click()
    page.locator("#table").wait_for()
    page.goto(page.url + "/watch")  # the spectator's page
    page.get_by_text("You are watching: no hands are shown.").wait_for()
    page.get_by_role("link", name="Scores", exact=True).click()
    page.get_by_role("heading", name="Scores", level=1).wait_for()

    # Every console error counts but the sse extension's note of a stream reconnecting, which
    # leaving the table for another page can set off (Device.unexpected_problems says why).
    problems = one.unexpected_problems()
    assert problems == [], "\n".join(problems)
