"""The front door in a real browser, at a phone's size (390x844) and a laptop's (1280x800): a tile
for every registered game, all of one size, each with its picture, players, line, Play and How to
play; nothing wider than the screen; axe finds nothing. A first visit fetches at most six files;
a table, reached from the home page by its Play (boosted links, a set-up form), loads its own
game's stylesheet and script; Mason Rummy's Play leads to its Menu A."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from support.browsing import axe_scan

from app.core import registry
from app.core.protocol import MENUS

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
WIDTH_JS = "() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"
BOXES_JS = """() => Array.from(document.querySelectorAll('li.tile')).map(t => {
  const r = t.getBoundingClientRect(); return [Math.round(r.width), Math.round(r.height), Math.round(r.right), Math.round(r.top)]; })"""


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_the_home_page_s_tiles_are_equal_within_the_screen_and_axe_clean(live_server, device, screenshot, size):
    viewport = PHONE if size == "phone" else LAPTOP
    one = device(size, viewport=dict(viewport))
    page = one.page
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    one.goto("/")
    tiles = page.locator("li.tile")
    expect(tiles).to_have_count(len(registry.games()))
    page.wait_for_load_state("load")
    assert len(fetched) <= 6, fetched  # the page, its stylesheet, htmx, the site's script
    assert not [url for url in fetched if "/games/" in url], fetched

    boxes = page.evaluate(BOXES_JS)
    assert len({(width, height) for width, height, _right, _top in boxes}) == 1, boxes  # every tile alike
    assert max(right for _width, _height, right, _top in boxes) <= viewport["width"], boxes
    assert page.evaluate(WIDTH_JS) <= viewport["width"]
    if size == "laptop" and len(boxes) <= 5:  # one row on a laptop's screen
        assert len({top for _width, _height, _right, top in boxes}) == 1, boxes
    for number, definition in enumerate(registry.games()):
        tile = tiles.nth(number)
        expect(tile.get_by_role("heading", level=2)).to_have_text(definition.name)
        cards = tile.locator(".tile-picture .card")
        expect(cards).to_have_count(len(definition.picture()))
        for index in range(cards.count()):  # the cards fanned inside their picture
            card, picture = cards.nth(index).bounding_box(), tile.locator(".tile-picture").bounding_box()
            assert card is not None and picture is not None
            assert picture["x"] - 1 <= card["x"] and card["x"] + card["width"] <= picture["x"] + picture["width"] + 1, (definition.key, card, picture)
        expect(tile.get_by_role("link", name=f"Play {definition.name}", exact=True)).to_be_visible()
        expect(tile.get_by_role("link", name=f"How to play {definition.name}", exact=True)).to_be_visible()
    # Mason Rummy's fifth suit, green, is in its picture
    patriot = page.locator("li.tile[data-game=mason] .card.suit-P").first
    assert patriot.evaluate("card => getComputedStyle(card).color") == "rgb(22, 128, 60)"

    expect(page.get_by_label("Joining a game on your own device? Code:")).to_be_visible()
    assert axe_scan(page, f"the home page ({size})") == []
    screenshot(page, "home", sizes=((size, viewport),))
    assert one.unexpected_problems() == []


def test_play_leads_to_each_game_s_set_up_and_its_table_loads_its_own_files(live_server, device):
    """From the home page, through boosted links and the set-up form, to a table of each game
    set up by one form: the table page, brought in by htmx, needs its game's files, so it is
    loaded whole, and its own stylesheet and script are there (and no other game's)."""
    one = device("laptop", viewport=dict(LAPTOP))
    page = one.page
    for definition in registry.games():
        one.goto("/")
        if definition.setup_flow == MENUS:
            page.get_by_role("link", name=f"Play {definition.name}", exact=True).click()
            page.get_by_role("heading", name="Main menu").wait_for()
            assert page.url.endswith(f"/menus/{definition.key}")
            continue
        page.get_by_role("link", name=f"Play {definition.name}", exact=True).click()
        page.get_by_role("heading", name=definition.name).wait_for()
        if page.locator("#seats").count():
            one.choose_seat_count(definition.min_seats)
        for number in range(definition.min_seats):
            page.locator(f"#name{number}").fill("Ann" if number == 0 else "AI")
        one.start_set_up_game()
        loaded = page.evaluate("""() => Array.from(document.querySelectorAll('link[rel=stylesheet], script[src]'))
                                      .map(e => (e.href || e.src).split('?')[0].split('/static/')[1])""")
        games = {name for name in loaded if name.startswith(("css/games/", "js/games/"))}
        assert games and all(f"/{definition.key}." in name for name in games), loaded
        assert "js/htmx-ext-sse-2.2.4.min.js" in loaded
        assert page.locator(f"#table.game-{definition.key}").count() == 1
    assert one.unexpected_problems() == []
