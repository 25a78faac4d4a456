"""A finished game's replay in a real browser at a phone's size (390x844): the jump list goes to
a round, Play steps on by itself (the same page: each step fetched and swapped in) with the focus
kept on its Pause control, Pause stops it there, every hand is shown, nothing is wider than the
screen and axe-core finds nothing serious. Screenshots go to test-artifacts/screenshots/."""

from __future__ import annotations

import re

import pytest

from support.browsing import axe_scan, finished_game

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
WIDTH_JS = "() => document.documentElement.scrollWidth"
STEP_JS = "() => Number(/step (\\d+) of/.exec(document.querySelector('.replay-where').textContent)[1])"


def test_a_replay_jumps_to_a_round_plays_itself_and_pauses(live_server, device, screenshot, database_url,
                                                          decks_folder, tmp_path):
    over = finished_game(database_url, decks_folder, tmp_path, "rummy", 3)
    phone = device("phone", viewport=dict(PHONE), is_mobile=True, has_touch=True)
    page = phone.page
    phone.goto(f"/games/{over}/replay?step=0")
    options = page.locator("#replay-round option")
    assert options.count() >= 2, "the game has several hands"
    assert page.locator(".replay-hands li").count() == 3  # every seat's hand, at the deal
    assert page.evaluate(WIDTH_JS) <= PHONE["width"]
    screenshot(page, "replay-deal", sizes=(("phone", PHONE),))
    problems = axe_scan(page, "replay")

    # jump to the second hand (the keyboard: the select, then Go)
    second = options.nth(1)
    step, name = int(second.get_attribute("value")), second.inner_text()
    page.locator("#replay-round").select_option(str(step))
    page.locator("#replay-round").focus()
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(rf"step={step}\b"))
    assert page.evaluate(STEP_JS) == step
    assert page.locator("#replay-round option:checked").inner_text() == name

    # Play: steps on by itself, on the same page, the focus on Pause
    phone.mark_document()
    play = page.locator("a.replay-play")
    play.wait_for(state="visible")  # (shown by the page's script)
    play.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => {STEP_JS[6:]} >= {step + 3}")
    assert phone.same_document(), "the steps were swapped in, not loaded as new pages"
    assert page.evaluate("() => document.activeElement.classList.contains('replay-pause')")
    screenshot(page, "replay-playing", sizes=(("phone", PHONE),))
    problems += axe_scan(page, "replay playing")
    page.keyboard.press("Enter")  # Pause
    page.locator("a.replay-play").wait_for()
    paused = page.evaluate(STEP_JS)
    assert page.evaluate("() => document.activeElement.classList.contains('replay-play')")
    assert page.locator(".replay-page").get_attribute("data-autoplay") == ""
    assert f"step={paused}" in page.url and "play=1" not in page.url
    # stopped: the page asks for no further step (the next one would have been fetched by now)
    page.wait_for_load_state("networkidle")
    assert page.evaluate(STEP_JS) == paused
    assert page.evaluate(WIDTH_JS) <= PHONE["width"]
    assert problems == [], "\n".join(problems)
    assert phone.unexpected_problems() == []


def test_the_finished_games_search_at_a_phones_width(live_server, device, screenshot, database_url, decks_folder,
                                                     tmp_path):
    over = finished_game(database_url, decks_folder, tmp_path, "twentyone", 2)
    phone = device("phone", viewport=dict(PHONE), is_mobile=True, has_touch=True)
    page = phone.page
    phone.goto("/finished")
    page.locator("#finished-game").select_option("twentyone")
    page.locator("#finished-name").fill("ai")
    page.get_by_role("button", name="Find").click()
    page.wait_for_url(lambda url: "game=twentyone" in url and "name=ai" in url)
    page.locator(f"a[href='/games/{over}/replay?step=0']").wait_for()
    assert page.locator("#finished-game").input_value() == "twentyone"
    assert page.evaluate(WIDTH_JS) <= PHONE["width"]
    screenshot(page, "finished-search", sizes=(("phone", PHONE),))
    assert axe_scan(page, "finished games") == []
    assert phone.unexpected_problems() == []
