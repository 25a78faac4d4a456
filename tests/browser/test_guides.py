"""Learn by playing, in a real browser at phone width (390x844): from the home page's link, each
game's guided first game is played to the end of its script by tapping what each step points at
(outlined, and described by the step's hint), answering yes where a move asks first. The game
changes no score or statistic, and no list of games shows it; axe finds nothing on its pages."""

from __future__ import annotations

import pytest

import app.games  # noqa: F401  (registers the games)
from app.core import guides, registry
from support.browsing import axe_scan

from .conftest import PHONE

pytestmark = pytest.mark.browser

STEP_TITLE = "#table .learn-title"
# The step's title once the table shows another step (or the guide's end) than ``shown``.
NEXT_STEP_JS = """(shown) => {
  const title = document.querySelector('#table .learn-title');
  return !!title && title.textContent !== shown
    && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling');
}"""


def game_keys() -> list[str]:
    return [definition.key for definition in registry.games() if guides.guide_of(definition) is not None]


def play_the_guide(page, key: str, screenshot) -> list[str]:
    """Tap what each step points at until the guide says it is finished; the problems axe found."""
    guide = guides.guide_of(registry.get(key))
    problems: list[str] = []
    for number, step in enumerate(guide.steps):
        title = page.locator(STEP_TITLE).inner_text()
        assert title.endswith(f"step {number + 1} of {len(guide.steps)}"), title
        assert page.locator("#learn-hint").inner_text() == step.say
        parts = [part.strip() for part in step.points_at.split(", ")]
        if number == 1:
            screenshot(page, f"{key}-step", sizes=(("phone", PHONE),))
            problems += axe_scan(page, f"{key} step 2")
        for index, part in enumerate(parts):
            target = page.locator(f"#table {part} >> visible=true").first
            target.wait_for()
            # outlined once the page's script has run (a new page's or a swap's end)
            page.wait_for_function("(el) => el.classList.contains('learn-target')", arg=target.element_handle())
            marked = target.evaluate("(el) => [el.classList.contains('learn-target'), "
                                     "(el.matches('label') ? el.querySelector('input') : el).getAttribute('aria-describedby') || '']")
            assert marked[0] and "learn-hint" in marked[1].split(), (part, marked)
            target.click()
            if index == len(parts) - 1:
                dialog = page.locator("dialog.confirm-dialog[open]")
                try:
                    dialog.locator(".confirm-yes").click(timeout=1500)
                except Exception:  # (the move asks nothing first)
                    pass
        page.wait_for_function(NEXT_STEP_JS, arg=title)
    assert page.locator(STEP_TITLE).inner_text() == "Guide finished"
    assert guide.farewell in page.locator("#learn-hint").inner_text()
    return problems


@pytest.mark.parametrize("key", game_keys())
def test_each_guide_is_played_to_its_end_following_the_hints(live_server, device, screenshot, key):
    phone = device("learner", viewport=dict(PHONE))
    page = phone.page
    page.goto(live_server.url + "/scores")
    scores_before = page.locator("main").inner_text()
    page.goto(live_server.url + "/")
    if key == game_keys()[0]:
        screenshot(page, "home", sizes=(("phone", PHONE),))
        problems_home = axe_scan(page, "home")
        assert problems_home == []
    page.locator(f"a[href='/learn/{key}']").click()
    problems = axe_scan(page, f"{key} learn page")
    screenshot(page, f"{key}-learn", sizes=(("phone", PHONE),))
    page.get_by_role("button", name="Start the guided game").click()
    page.wait_for_selector(STEP_TITLE)
    slug = page.url.rstrip("/").rsplit("/", 1)[1]
    problems += play_the_guide(page, key, screenshot)
    problems += axe_scan(page, f"{key} guide finished")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    page.get_by_role("link", name="Leave the guide").click()
    page.wait_for_url(live_server.url + "/")
    assert f"/games/{slug}" not in page.content()  # not among the unfinished games
    page.goto(live_server.url + "/finished")
    assert f"/{slug}" not in page.content()
    page.goto(live_server.url + "/scores")
    assert page.locator("main").inner_text() == scores_before
    assert problems == []
    assert phone.unexpected_problems() == []
