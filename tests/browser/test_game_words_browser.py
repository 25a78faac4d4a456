"""Every game's table and How to play page in Spanish and in Hindi, in a real browser at a
phone's size (390x844) whose language is Spanish or Hindi (its Accept-Language): the guided
first game's table shows the game's words in that language (the guide's hint, the moves'
buttons, the log), no page is wider than the screen, and axe-core finds nothing. Screenshots
go to test-artifacts/screenshots/ (looked at, not compared)."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

import app.games  # noqa: F401  (registers the games)
from app.core import guides, registry
from support.browsing import axe_scan

from .conftest import PHONE

pytestmark = pytest.mark.browser

LANGUAGES = ("es", "hi")
WIDTH_JS = "() => document.documentElement.scrollWidth"


def translated(language: str, words: str) -> str:
    with open(f"translations/{language}/LC_MESSAGES/games.po", "rb") as file:
        return next(message.string for message in read_po(file, locale=language) if message.id == words)


def game_keys() -> list[str]:
    return [definition.key for definition in registry.games() if guides.guide_of(definition) is not None]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("key", game_keys())
def test_a_guided_table_and_how_to_play_in_the_browsers_language(live_server, device, screenshot, key, language):
    guide = guides.guide_of(registry.get(key))
    phone = device("reader", viewport=dict(PHONE), is_mobile=True, has_touch=True, locale=language)
    page = phone.page
    page.goto(f"{live_server.url}/learn/{key}")
    assert translated(language, guide.welcome) in page.locator("main").inner_text()
    page.locator("main form button.primary").click()
    page.locator("#learn-hint").wait_for()
    assert page.locator("#learn-hint").inner_text() == translated(language, guide.steps[0].say)
    problems = axe_scan(page, f"{key} table ({language})")
    assert page.evaluate(WIDTH_JS) <= PHONE["width"]
    screenshot(page, f"{key}-table-{language}", sizes=(("phone", PHONE),))
    table = page.locator("#table").inner_text()
    if language == "hi":
        assert re.search("[\u0900-\u097f]", table)

    page.goto(f"{live_server.url}/how-to-play/{key}")
    assert page.evaluate(WIDTH_JS) <= PHONE["width"]
    problems += axe_scan(page, f"{key} how to play ({language})")
    screenshot(page, f"{key}-how-to-play-{language}", sizes=(("phone", PHONE),))
    assert problems == []
    assert phone.unexpected_problems() == []
