"""Cards that look like cards, and players' words at the tables, in a real browser at a phone's
size (390x844) and a laptop's (1280x800): every face shows its rank as players write it (10,
not T) over its suit's sign, an index readable on the phone; the Patriots are green with a star;
a hidden card is a back; every colour of a card is a custom property (a theme sets them alone);
buttons carry no menu letter or number, hands no index numbers; each game's log is sentences
naming cards as cards. Seahaven counts the player's moves, the cards home by themselves apart,
and a solution says it is the solver's; Points marks the drawn card and its results' jokers.
axe-core finds nothing serious, no page is wider than the phone. Screenshots go to
test-artifacts/screenshots/ (looked at, not compared)."""

from __future__ import annotations

import re

import pytest

from support.browsing import axe_scan, finished_game
from support.seahaven_page import set_up as seahaven_set_up

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
BOTH = (("phone", PHONE), ("desktop", LAPTOP))
WIDTH_JS = "() => document.documentElement.scrollWidth"
CODE = re.compile(r"(?<![A-Za-z0-9])(?:[2-9TJQKA][CDHSP]|JK)(?![A-Za-z0-9])")
SIGNS = "\u2663\u2666\u2665\u2660\u2605"
LOG_JS = "() => Array.from(document.querySelectorAll('.log-lines li'), li => li.innerText.replace(/\\s+/g, ' ').trim())"
FACE_JS = """(id) => {
  const card = document.querySelector(`#table [data-card="${id}"]`);
  const index = card.querySelector('b');
  const style = getComputedStyle(card), corner = getComputedStyle(index);
  return {text: index.innerText.replace(/\\s+/g, ''), color: style.color, background: style.backgroundColor,
          indexSize: parseFloat(corner.fontSize), pip: getComputedStyle(card, '::after').content,
          mark: getComputedStyle(card, '::before').content, label: card.getAttribute('aria-label')
                || (card.querySelector('input') || {getAttribute: () => null}).getAttribute('aria-label')};
}"""

# A card's top edge over the next ten animation frames.
BOXES_OVER_FRAMES_JS = """(id) => new Promise((done) => {
  const card = document.querySelector(`#table label.card[data-card="${id}"]`), tops = [];
  const look = () => { tops.push(card.getBoundingClientRect().top); tops.length < 10 ? requestAnimationFrame(look) : done(tops); };
  requestAnimationFrame(look);
})"""


def device_for(device, label: str, size: dict):
    extra = {"is_mobile": True, "has_touch": True} if label == "phone" else {}
    return device(label, viewport=dict(size), **extra)


def check_log(lines: list[str], where: str) -> None:
    assert lines, where
    for line in lines:
        assert not CODE.search(line), f"{where}: {line!r} writes a card as a code"
        assert line.endswith((".", "!")) and "..." not in line and "hand:" not in line, f"{where}: {line!r}"
    assert any(sign in line for line in lines for sign in SIGNS), f"{where}: no card named as a card"


@pytest.mark.parametrize("label, size", BOTH)
def test_mason_cards_look_like_cards_and_the_table_speaks_players_words(live_server, device, screenshot, label, size):
    one = device_for(device, label, size)
    page = one.page
    slug = one.start_game([("Ann", "here"), ("AI", "here")], deck="quick_out.deck")
    table = page.locator("#table")
    # quick_out.deck: Ann holds 2C 3C 4C 5C 7D 7H 7S 9P TP JP; 9C is face up
    ten = page.evaluate(FACE_JS, "TP")
    assert ten["text"] == "10\u2605" and ten["label"] == "10 of Patriots"  # the ten reads 10, never T
    assert ten["indexSize"] >= 12, ten  # the corner index is readable on a phone
    assert ten["pip"].startswith('"\u2605"'), ten  # the large star in the middle
    clubs, hearts = page.evaluate(FACE_JS, "2C"), page.evaluate(FACE_JS, "7H")
    assert ten["color"] == "rgb(22, 128, 60)" and ten["background"] != clubs["background"]  # the Patriots' green
    assert len({ten["color"], clubs["color"], hearts["color"]}) == 3
    top = page.evaluate(FACE_JS, "9C")
    assert top["text"] == "9\u2663" and top["label"] == "9 of Clubs"
    back = table.locator(".piles .card.back")
    assert back.count() == 1 and "gradient" in back.evaluate("e => getComputedStyle(e).backgroundImage")
    # the menus' words, without their letters and numbers; no index number on a card
    assert table.get_by_role("button", name="Draw from stock pile", exact=True).count() == 1
    assert table.get_by_role("button", name="Take the 9 of Clubs from the discard pile", exact=True).count() == 1
    assert table.locator(".num, .menu-title").count() == 0
    assert "Menu D" not in table.inner_text()
    check_log(page.evaluate(LOG_JS), "the deal")
    screenshot(page, "deal", sizes=((label, size),))
    before = one.table.version()
    table.get_by_role("button", name="Draw from stock pile", exact=True).click()
    one.table.wait_past(before)
    drawn = page.evaluate(FACE_JS, "QP")  # quick_out.deck's stock top
    assert drawn["mark"].startswith('"new"') and drawn["label"] == "queen of Patriots, just drawn"
    assert table.get_by_role("button", name="Play down cards", exact=True).count() == 1
    check_log(page.evaluate(LOG_JS), "after the draw")
    # a theme changes the custom properties alone: a four-colour deck's clubs turn green
    page.evaluate("() => document.documentElement.style.setProperty('--suit-C', 'rgb(0, 110, 0)')")
    assert page.evaluate(FACE_JS, "2C")["color"] == "rgb(0, 110, 0)"
    page.evaluate("() => document.documentElement.style.removeProperty('--suit-C')")
    assert page.evaluate(WIDTH_JS) <= size["width"]
    assert axe_scan(page, f"mason {label}") == []
    if label == "desktop":  # a mouse: a card under the pointer shows it, and stays where it is
        card = table.locator("label.card[data-card='7H']")
        box = card.bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] - 2)  # its lower edge
        boxes = page.evaluate(BOXES_OVER_FRAMES_JS, "7H")
        assert len(set(boxes)) == 1, f"the card under the pointer moves: {boxes}"
        assert card.evaluate("c => getComputedStyle(c).boxShadow") != "none"
        page.mouse.move(0, 0)
    screenshot(page, "drawn", sizes=((label, size),))
    assert one.unexpected_problems() == [], "\n".join(one.unexpected_problems())
    assert slug


@pytest.mark.parametrize("label, size", BOTH)
def test_every_finished_game_s_log_is_sentences_naming_its_cards(live_server, database_url, decks_folder, tmp_path,
                                                                 device, screenshot, label, size):
    """A finished game of each card game between computer players: its table's log and its whole
    game's log in players' words, Classic Rummy's hand result a table, 21's results sentences."""
    one = device_for(device, label, size)
    page = one.page
    for key, seats in (("mason", 2), ("rummy", 3), ("twentyone", 2), ("points", 3)):
        over = finished_game(database_url, decks_folder, tmp_path / f"{key}-{label}", key, seats)
        one.goto(f"/games/{over}/watch")
        page.locator("#table .results").wait_for()
        check_log(page.evaluate(LOG_JS), f"{key}'s table")
        if key == "twentyone":
            lines = page.locator("#table .tw-lines li").all_inner_texts()
            assert lines and all(line.endswith((".", "!")) and not CODE.search(line) for line in lines), lines
        if key == "rummy":
            assert page.locator("#table .rm-hand-scores, #table .results .hands-left").count() >= 1
            assert page.locator("#table .rm-lines").count() == 0  # no monospace block of terminal lines
        assert page.evaluate(WIDTH_JS) <= size["width"], key
        assert axe_scan(page, f"{key} {label}") == []
        screenshot(page, f"{key}-over", sizes=((label, size),))
        # the log's last page can hold only the game's end, so its first page is read too
        whole = []
        for which in ("&page=1", ""):
            one.goto(f"/games/{over}/log?watch=1{which}")
            whole += page.evaluate(LOG_JS)
        check_log(whole, f"{key}'s whole log")
        if key == "mason":
            screenshot(page, "mason-whole-log", sizes=((label, size),))
    assert one.unexpected_problems() == [], "\n".join(one.unexpected_problems())


def test_seahaven_counts_the_player_s_moves_and_the_solver_s_line_is_the_solver_s(live_server, device, screenshot):
    one = device_for(device, "phone", PHONE)
    page = one.page
    slug = seahaven_set_up(one, deck="short_win.deck")
    table = page.locator("#table")
    assert table.locator("[data-card='TC'] b").inner_text().replace("\n", "") == "10\u2663"
    page.locator("#table .sh-options summary").click()
    page.locator("#table .sh-auto input[type=checkbox]").click()
    page.wait_for_function(
        "() => /by themselves: on/.test(document.querySelector('#table .sh-options summary').textContent)")
    before = one.table.version()
    table.locator(".sh-src[data-card='2C']").click()
    table.locator(".sh-to[data-to='c1']").click()  # 2C to a cell: every card goes home after it
    one.table.wait_past(before)
    page.locator("#table .results").wait_for()
    page.wait_for_function("() => !document.querySelector('#table .sh-board.sh-stepping')")
    moves = table.locator(".sh-moves").inner_text()
    assert moves == "1 move + 52 home by themselves", moves
    winners = table.locator(".results .winners").inner_text()
    assert re.fullmatch(r"Ann won! All 52 cards are home in 1 move, in \d+:\d\d\. 52 cards went home by themselves\.",
                        winners), winners
    check_log(page.evaluate(LOG_JS), "seahaven")
    assert axe_scan(page, "seahaven won") == []
    screenshot(page, "won-by-themselves", sizes=BOTH)
    one.goto(f"/games/{slug}/solution")
    page.wait_for_function("() => !!document.querySelector('.replay-bar')", timeout=60_000)
    total = int(re.search(r"move 0 of (\d+)", page.locator(".replay-bar").inner_text()).group(1))
    one.goto(f"/games/{slug}/solution?step={total}")
    solved = page.locator("#table .results .winners").inner_text()
    assert solved == f"The solver's line: all 52 cards are home in {total} moves.", solved
    assert "Ann won" not in page.locator("#table").inner_text()
    assert axe_scan(page, "seahaven solution") == []
    screenshot(page, "solver-s-line", sizes=BOTH)
    assert one.unexpected_problems() == [], "\n".join(one.unexpected_problems())


def test_points_marks_the_drawn_card_its_jokers_and_counts_the_declarer_s_cards(live_server, device, screenshot):
    """declare_after_one_draw.deck (tests/decks/points/README.md): Ann draws 4H, groups her hand and
    declares with 8H; nines are wild (P2.2)."""
    one = device_for(device, "phone", PHONE)
    page = one.page
    one.set_up_game("Points Rummy", [("Ann", "here"), ("AI", "here")], deck="declare_after_one_draw.deck")
    table = page.locator("#table")
    before = one.table.version()
    table.locator(".pile-button[value='draw|source=closed']").click()
    one.table.wait_past(before)
    drawn = table.locator(".points-hand label.card[data-card='4H']")
    assert "new" in drawn.get_attribute("class").split() and drawn.locator(".tag").inner_text().lower() == "new"
    assert drawn.locator("input").get_attribute("aria-label") == "4 of Hearts, just drawn"
    assert table.locator(".points-hand .hand-size").inner_text() == "14 cards"
    screenshot(page, "drawn", sizes=BOTH)
    for group in (["AH", "2H", "3H", "4H"], ["5C", "6C", "9H"], ["QD", "KD", "AD"], ["7C", "7D", "7S"]):
        for code in group:
            table.locator(f".points-hand label.card[data-card='{code}']").click()
        one.table.press_private("Make a new group")
    before = one.table.version()
    table.get_by_role("button", name="Declare with the 8 of Hearts as the finish card", exact=True).click()
    dialog = page.locator("dialog.confirm-dialog")
    assert dialog.inner_text().startswith("Declare with the 8\u2665 as the finish card?")
    dialog.get_by_role("button", name="Yes, declare").click()
    one.table.wait_past(before)
    results = table.locator(".results")
    joker = results.locator(".deal-hand", has_text="Ann").locator(".card.joker[data-card='9H']")
    assert joker.count() == 1 and joker.get_attribute("aria-label") == "9 of Hearts, a joker"
    assert joker.locator(".tag").inner_text().lower() == "joker"
    ann = table.locator(".points-players .player", has_text="Ann")
    assert "14 cards" in ann.inner_text()
    check_log(page.evaluate(LOG_JS), "points")
    assert page.evaluate(WIDTH_JS) <= PHONE["width"]
    assert axe_scan(page, "points over") == []
    screenshot(page, "declared", sizes=BOTH)
    assert one.unexpected_problems() == [], "\n".join(one.unexpected_problems())
