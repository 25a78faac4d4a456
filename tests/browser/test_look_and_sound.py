"""Themes, four suit colours, sounds and cards that move, in a real browser.

- every theme (light, dark, high contrast), each with two and with four suit colours, passes
  axe-core (its colour-contrast rule included) on the home page, a set-up page, a table of every
  game, a replay and a finished game's results; the footer's settings set the theme and keep it;
  without a choice the theme follows the device's prefers-color-scheme;
- sounds: a player's page hears the other's draw or discard and its own turn; a page whose sounds
  are off hears none, nor does a spectator's by default (``window.__soundsPlayed``, a test's list
  the page adds each sound's kind to);
- a discard slides the card to the discard pile (the Web Animations API) unless the browser asks
  for reduced motion; a spectator's page never holds a hidden card's id while cards move.
Screenshots of a Mason Rummy and a Classic Rummy table in every theme at 390x844 go to
test-artifacts/screenshots/ (looked at, not compared)."""

from __future__ import annotations

import pytest

from support.browsing import axe_scan, finished_game

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
THEMES = ("light", "dark", "contrast")
SUITS = ("two", "four")
LOOK_JS = """([theme, suits]) => { const root = document.documentElement;
  root.setAttribute('data-theme', theme); root.setAttribute('data-suits', suits); }"""
# A test's ears and eyes: the sounds the page plays, and the card ids in the page at each card's move.
LISTEN_JS = """window.__soundsPlayed = [];
window.__idsWhileMoving = [];
window.__cardsMoved = 0;
window.__arriving = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function () {
  if (this.hasAttribute && this.hasAttribute('data-card')) {
    window.__cardsMoved += 1;
    if (this.classList.contains('arriving')) window.__arriving.push(this.dataset.card);
    window.__idsWhileMoving.push(...Array.from(document.querySelectorAll('[data-card]'), e => e.dataset.card));
  }
  return animate.apply(this, arguments);
};"""
SOUND_ON_JS = "try { localStorage.setItem('card-table-sound', 'on'); } catch (e) {}"
MID_GAME = {  # a person and computer players, set up through the game's form
    "rummy": [("Ann", "here"), ("AI", "here")],
    "twentyone": [("Ann", "here"), ("AI", "here")],
    "seahaven": [("Ann", "here")],
    "points": [("Ann", "here"), ("AI", "here"), ("AI", "here")],
}


def set_up(one, key: str, seats: list[tuple[str, str]]) -> str:
    """The game's set-up form (/setup/<key>) with ``seats`` [(name, "here" | "own")]."""
    page = one.page
    one.goto(f"/setup/{key}")
    if len(seats) > 1:
        one.choose_seat_count(len(seats))
    for number, (name, where) in enumerate(seats):
        page.locator(f"#name{number}").fill(name)
        if name != "AI" and len(seats) > 1:
            page.locator(f"input[name=device{number}][value={where}]").check()
    return one.start_set_up_game()


def scan_every_look(page, label: str, found: list[str]) -> None:
    for theme in THEMES:
        for suits in SUITS:
            page.evaluate(LOOK_JS, [theme, suits])
            found += axe_scan(page, f"{label} ({theme}, {suits} suit colours)")


def test_every_theme_and_four_suit_colours_pass_axe_on_every_kind_of_page(
        live_server, database_url, decks_folder, tmp_path, device, screenshot):
    from app.core import registry

    found: list[str] = []
    one = device("phone", viewport=dict(PHONE))
    page = one.page
    one.goto("/")
    scan_every_look(page, "home", found)
    one.goto("/setup/rummy")
    scan_every_look(page, "a set-up page", found)

    keys = [definition.key for definition in registry.games()]
    assert set(MID_GAME) | {"mason"} == set(keys), "a new game: give it a table here"
    for key in keys:
        if key == "mason":
            one.start_game([("Ann", "here"), ("Bob", "own")])
        else:
            set_up(one, key, MID_GAME[key])
        page.locator("#table").wait_for()
        scan_every_look(page, f"{key}'s table", found)
        if key in ("mason", "rummy"):
            for theme in THEMES:
                for suits in SUITS:
                    page.evaluate(LOOK_JS, [theme, suits])
                    screenshot(page, f"{key}-{theme}-{suits}", sizes=(("phone", PHONE),))

    over = finished_game(database_url, decks_folder, tmp_path, "mason", 2)
    one.goto(f"/games/{over}/watch")
    page.locator("#table .results").wait_for()
    scan_every_look(page, "a finished game's results", found)
    one.goto(f"/games/{over}/replay?step=12")
    page.locator("#table").wait_for()
    scan_every_look(page, "a replay", found)
    assert found == [], "\n".join(found)
    assert one.unexpected_problems() == [], "\n".join(one.unexpected_problems())


def test_the_footer_settings_set_the_look_and_keep_it_and_the_device_s_scheme_leads_otherwise(live_server, device,
                                                                                             screenshot):
    dark_device = device("dark device", viewport=dict(PHONE), color_scheme="dark")
    dark_device.goto("/")
    root = dark_device.page.locator("html")
    assert root.get_attribute("data-theme") == "dark" and root.get_attribute("data-suits") == "two"

    one = device("light device", viewport=dict(PHONE), color_scheme="light")
    page = one.page
    one.goto("/")
    assert page.locator("html").get_attribute("data-theme") == "light"
    page.locator("#settings summary").click()
    page.get_by_label("Theme").select_option("contrast")
    page.get_by_label("Four suit colours", exact=False).check()
    assert page.locator("html").get_attribute("data-theme") == "contrast"
    assert page.locator("html").get_attribute("data-suits") == "four"
    screenshot(page, "settings-open", sizes=(("phone", PHONE),))
    # the four colours: diamonds and clubs apart from hearts and spades, patriots apart from clubs
    colours = page.evaluate("""() => { const style = getComputedStyle(document.documentElement);
      return ['C', 'D', 'H', 'S', 'P'].map(s => style.getPropertyValue('--suit-' + s).trim()); }""")
    assert len(set(colours)) == 5, colours
    # another page (hx-boost) and a reload keep it, and the settings show it
    page.get_by_role("link", name="Scores").click()
    page.get_by_role("heading", name="Scores").first.wait_for()
    page.reload()
    assert page.locator("html").get_attribute("data-theme") == "contrast"
    assert page.locator("#set-theme").input_value() == "contrast" and page.locator("#set-suits").is_checked()
    page.locator("#settings summary").click()
    page.get_by_label("Theme").select_option("")
    assert page.locator("html").get_attribute("data-theme") == "light"
    assert one.unexpected_problems() == [] and dark_device.unexpected_problems() == []


def two_players(device, first_options: dict, second_options: dict):
    """Ann (the host's device) and Bob (his own, joined by his code) at a Mason Rummy table:
    (the one to move, the other, the slug)."""
    ann = device("Ann", **first_options)
    slug = ann.start_game([("Ann", "here"), ("Bob", "own")])
    code = ann.page.locator("#table .invite-code").first.inner_text().strip()
    bob = device("Bob", **second_options)
    bob.join_with_code(code, "Bob")
    ann.goto(f"/games/{slug}")
    ann.page.locator("#table").wait_for()
    return (ann, bob, slug) if ann.table.snapshot()["myTurn"] else (bob, ann, slug)


def draw_and_discard(mover) -> str:
    """The seat to move draws from the stock and discards its last card: which card."""
    table = mover.table
    snap = table.press("Draw from stock pile")
    table.select([snap["hand"][-1]])
    table.press("Discard", snap["version"])
    return snap["hand"][-1]


def test_sounds_for_the_other_s_discard_and_one_s_turn_not_when_off_nor_for_a_spectator(live_server, device, planner):
    both = {"viewport": dict(PHONE)}
    first, other, slug = two_players(device, both, both)
    # the one to move has sounds off (as every device until switched on); the other on
    for one in (first, other):
        one.context.add_init_script(LISTEN_JS)
    other.context.add_init_script(SOUND_ON_JS)
    watcher = device("spectator", **both)
    watcher.context.add_init_script(LISTEN_JS)
    watcher.context.add_init_script(SOUND_ON_JS)  # on, but not for watching
    for one in (first, other):
        one.goto(f"/games/{slug}")
        one.page.locator("#table").wait_for()
    watcher.goto(f"/games/{slug}/watch")
    watcher.page.locator("#table").wait_for()
    before = other.table.version()
    draw_and_discard(first)
    other.page.wait_for_function("() => document.getElementById('table').dataset.myTurn === 'yes'")
    heard = other.page.evaluate("() => window.__soundsPlayed")
    assert "play" in heard and "turn" in heard, heard
    assert heard.index("play") < heard.index("turn")  # the news first, then the turn
    assert first.page.evaluate("() => window.__soundsPlayed") == []  # sounds off: none
    watcher.table.wait_past(before)
    watcher.page.wait_for_function("() => document.getElementById('table').dataset.myTurn === 'no'"
                                   " && !document.querySelector('.table.pacing')")
    assert watcher.page.evaluate("() => window.__soundsPlayed") == []
    # a kind switched off in the settings is not heard; the others still are
    other.page.locator("#settings summary").click()
    other.page.get_by_label("A card drawn or taken").uncheck()
    assert other.page.evaluate("() => localStorage.getItem('card-table-sound-off')") == "draw"
    other.page.evaluate("() => { window.__soundsPlayed = []; }")
    version = other.table.version()
    first.page.wait_for_function("() => document.getElementById('table').dataset.myTurn === 'no'")
    other.table.press("Draw from stock pile", version)
    first.table.wait_past(version)
    assert "draw" not in other.page.evaluate("() => window.__soundsPlayed")
    for one in (first, other, watcher):
        assert one.unexpected_problems() == [], "\n".join(one.unexpected_problems())


def test_a_discard_slides_unless_motion_is_reduced_and_a_spectator_never_holds_a_hidden_card(
        live_server, device, planner):
    moving = {"viewport": dict(PHONE), "reduced_motion": "no-preference"}
    still = {"viewport": dict(PHONE), "reduced_motion": "reduce"}
    first, other, slug = two_players(device, moving, still)
    watcher = device("spectator", **moving)
    for one in (first, other, watcher):
        one.context.add_init_script(LISTEN_JS)
    for one in (first, other):
        one.goto(f"/games/{slug}")
        one.page.locator("#table").wait_for()
    watcher.goto(f"/games/{slug}/watch")
    watcher.page.locator("#table").wait_for()

    # the mover's own draw and discard: its cards slide (the drawn card from the stock)
    discarded = draw_and_discard(first)
    assert first.page.evaluate("() => window.__cardsMoved") > 0
    # the other's page, with reduced motion, shows the end at once
    other.page.wait_for_function("() => document.getElementById('table').dataset.myTurn === 'yes'")
    assert other.page.evaluate("() => window.__cardsMoved") == 0
    draw_and_discard(other)
    assert other.page.evaluate("() => window.__cardsMoved") == 0

    # the spectator saw cards move, and never a card of a hand; the discard came face down from
    # the seat's hand, its face shown once landed
    watcher.page.wait_for_function("(card) => window.__arriving.includes(card)", arg=discarded)
    state = planner.state(slug)
    hands = {card.id for player in state.players for card in player.hand.cards}
    seen = set(watcher.page.evaluate("() => window.__idsWhileMoving"))
    assert seen and not seen & hands, seen & hands
    for one in (first, other, watcher):
        assert one.unexpected_problems() == [], "\n".join(one.unexpected_problems())
