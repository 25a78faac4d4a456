"""Every game in Spanish and in Hindi on a phone (390x844), as a new user whose browser asks for
that language meets it: the page's lang follows Accept-Language, a few moves of each game are made
through the page's own buttons and cards, no page is wider than the screen and axe finds nothing.
The language menu switches a table to another language in place: the same address, the same seat.
Screenshots: test-artifacts/screenshots/languages-<lang>-<game>-*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from support.browsing import axe_scan

import app.games  # noqa: F401  (registers every game)
from app.core import registry

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
WIDTH_JS = "() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"
BUSY = ".htmx-request, .htmx-swapping, .htmx-settling, .htmx-added"
REPLACED_JS = """() => { const t = document.getElementById('table');
  return !!t && !t.dataset.pressed && !document.querySelector('%s'); }""" % BUSY
LOCALES = {"es": "es-ES,es;q=0.9", "hi": "hi-IN,hi;q=0.9"}
MOVES = 4
TIMEOUT_MS = 20_000


def set_up(one, key: str) -> str:
    """The game ``key`` set up through its form in the page's language: a person (Ana) in seat 1,
    the computer in the others its fewest players need; the table's address."""
    definition = registry.get(key)
    page = one.page
    one.goto(f"/setup/{key}")
    page.locator("#name0").fill("Ana")
    for number in range(1, max(definition.min_seats, 1)):
        page.locator(f"input[name=device{number}][value=computer]").check()
    page.locator("#game-setup button.primary.big").click()
    page.wait_for_url("**/games/*")
    page.locator("#table").wait_for()
    return page.url


def play_a_move(page, planner, slug: str) -> bool:
    """One move of the seat to move, chosen by the suite's player, made as a person makes it: its
    cards tapped, then its button (the button found by its name and value, not its words). False
    when there is no move to make now, or it is not one the page offers as a plain button (a
    target on the board)."""
    choice = planner.next(slug)
    if choice is None:  # (the game is over, or nobody has a move until the computer's turn is stored)
        return False
    fields = dict(choice.fields())
    name, value = ("move", fields["move"]) if "move" in fields else ("action", fields["action"])
    extra = set(fields) - {"move", "action", "cards", "confirmed"}
    button = page.locator(f"#table button[name={name}][value='{value}']")
    if extra or button.count() == 0:
        return False
    for card in choice.cards:
        box = page.locator(f"#table .hand-form input[name=cards][value='{card}']")
        if not box.is_checked():
            page.locator(f"#table .hand-form label.card[data-card='{card}']").first.click()
    page.evaluate("() => { document.getElementById('table').dataset.pressed = '1'; }")
    button.first.click()
    if fields.get("confirmed"):
        page.locator("dialog .confirm-yes").click()
    page.wait_for_function(REPLACED_JS, timeout=TIMEOUT_MS)
    return True


def play_seahaven(page) -> bool:
    """A Seahaven move: a card that may move tapped, then the first place it may go."""
    source = page.locator("#table .sh-src").first
    if source.count() == 0:
        return False
    version = page.locator("#table").get_attribute("data-version")
    source.click()
    page.locator("#table .sh-to:not([hidden])").first.click()
    page.wait_for_function(f"() => document.getElementById('table').dataset.version !== '{version}'"
                           f" && !document.querySelector('{BUSY}')", timeout=TIMEOUT_MS)
    return True


def check_the_page(page, language: str, label: str) -> list[str]:
    problems = []
    lang = page.locator("html").get_attribute("lang")
    if lang != language:
        problems.append(f"{label}: lang={lang}")
    if page.evaluate(WIDTH_JS) > PHONE["width"]:
        problems.append(f"{label}: {page.evaluate(WIDTH_JS)} px wide")
    return problems + axe_scan(page, label)


@pytest.mark.parametrize("language", sorted(LOCALES))
@pytest.mark.parametrize("key", [definition.key for definition in registry.games()])
def test_every_game_is_played_in_spanish_and_hindi_on_a_phone(live_server, device, screenshot, planner, language, key):
    one = device(f"{language}-{key}", viewport=dict(PHONE), extra_http_headers={"Accept-Language": LOCALES[language]})
    page = one.page
    one.goto("/")
    problems = check_the_page(page, language, f"{language} front door")
    screenshot(page, f"languages-{language}-{key}-home", sizes=(("phone", PHONE),))
    one.goto(f"/setup/{key}")
    problems += check_the_page(page, language, f"{language} set-up {key}")
    address = set_up(one, key)
    slug = address.rstrip("/").rsplit("/", 1)[-1]
    problems += check_the_page(page, language, f"{language} table {key}")
    screenshot(page, f"languages-{language}-{key}-start", sizes=(("phone", PHONE),))
    made = 0
    for _ in range(MOVES):
        if not (play_seahaven(page) if key == "seahaven" else play_a_move(page, planner, slug)):
            break
        made += 1
    assert made >= 1, f"no move could be made on the {key} table"
    problems += check_the_page(page, language, f"{language} table {key} after {made} moves")
    screenshot(page, f"languages-{language}-{key}-played", sizes=(("phone", PHONE),))
    one.goto(f"/how-to-play/{key}")
    problems += check_the_page(page, language, f"{language} how to play {key}")
    assert problems == []
    assert one.unexpected_problems() == []


def test_the_language_menu_switches_a_table_in_place_keeping_the_seat(live_server, device):
    one = device("switching", viewport=dict(PHONE))
    page = one.page
    address = set_up(one, "twentyone")
    assert page.locator("html").get_attribute("lang") == "en"
    expect(page.locator("#table .hand-form button[name=action]").first).to_be_visible()
    menu = page.get_by_role("group", name="Language")
    menu.get_by_role("button", name="हिन्दी").click()
    page.wait_for_function("() => document.documentElement.lang === 'hi'", timeout=TIMEOUT_MS)
    assert page.url == address  # the same table
    expect(page.locator("#table .hand-form button[name=action]").first).to_be_visible()  # still this seat's moves
    expect(page.get_by_role("group", name="भाषा").get_by_role("button", name="हिन्दी")).to_have_attribute("aria-current", "true")
    page.reload()
    assert page.locator("html").get_attribute("lang") == "hi"  # remembered by this browser
    page.get_by_role("group", name="भाषा").get_by_role("button", name="Español").click()
    page.wait_for_function("() => document.documentElement.lang === 'es'", timeout=TIMEOUT_MS)
    assert page.url == address
    assert axe_scan(page, "the menu in Spanish") == []
