"""Every house rule played to the end in a real browser, on a phone (390x844): each game set up
through its set-up form with its house rules changed from the rule book's (C9, T8, P8, S7), the
table saying which, a game played to its results, and the scores page naming those house rules
with the game's figures kept apart."""

from __future__ import annotations

import re

import pytest
from support.seahaven_page import board, destination, source, wait_past
from test_rummy import button, pile, select, snap, tap

from support.browsing import axe_scan

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PHONE = {"width": 390, "height": 844}
PHONE_ONLY = (("phone", PHONE),)


def phone(device, name: str = "phone"):
    return device(name, viewport=dict(PHONE), is_mobile=True, has_touch=True)


def house_rules_shown(one) -> str:
    return re.sub(r"\s+", " ", one.page.locator("#table .house-rules").inner_text())


def no_wider_than_the_phone(one) -> None:
    width = one.page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide"


def scores_name_the_house_rules(one, key: str, words: str, name: str, screenshot) -> None:
    """The game's scores page links the house rules it was played by, and that link shows the
    player's row, which the rule book's page does not have."""
    one.goto(f"/scores/{key}")
    assert name not in one.page.locator(".score-board").inner_text()
    one.page.locator(".rule-sets a").filter(has_text=words).click()
    one.page.locator(".house-rules-shown").wait_for()
    assert words in one.page.locator(".house-rules-shown").inner_text()
    assert name in one.page.locator("table.score-table").inner_text()
    no_wider_than_the_phone(one)
    screenshot(one.page, f"{key}-statistics-by-house-rules", sizes=PHONE_ONLY)
    assert axe_scan(one.page, f"{key}'s statistics by house rules") == []


def test_21_by_every_house_rule_to_the_end(live_server, device, screenshot):
    zoe = phone(device, "Zoe's phone")
    zoe.set_up_game("21 against the dealer", [("Zoe", "here")], None, rounds=3, aces="eleven",
                    dealer_stands_on=18, dealer_hits_soft_17=True, five_card_charlie=True, ties="dealer")
    shown = house_rules_shown(zoe)
    for words in ("Aces count: 1 or 11", "The dealer stands on: 18", "The dealer hits a soft 17: yes",
                  "Five cards win: yes", "Ties: The dealer wins"):
        assert words in shown, (words, shown)
    screenshot(zoe.page, "21-house-rules", sizes=PHONE_ONLY)
    for _turn in range(12):  # three rounds: Zoe stays at once (a natural 21 needs no move: T8.1)
        seen = zoe.table.snapshot()
        if "Game over" in (seen["status"] or ""):
            break
        deal = [words for words in seen["buttons"] if words.startswith("Deal round")]
        zoe.table.press("Stay" if "Stay" in seen["buttons"] else deal[0])
    seen = zoe.table.snapshot()
    assert "Game over" in seen["status"], seen
    # The deal is shuffled, so Zoe may win, lose or tie each round: the tally counts all three.
    tally = re.search(r"Zoe (\d) (\d) (\d)", seen["results"])
    assert tally and sum(map(int, tally.groups())) == 3, seen["results"]
    assert "the dealer" in seen["results"].lower(), seen["results"]
    no_wider_than_the_phone(zoe)
    scores_name_the_house_rules(zoe, "twentyone", "The dealer stands on: 18", "Zoe", screenshot)


def test_classic_rummy_by_its_house_rules_to_the_end(live_server, device, screenshot):
    """quick_rummy.deck (tests/decks/rummy/README.md) dealt seven cards each (C9.5): Ann holds
    AC 2C 3C 4C 5D 5H 5S, draws the QH, melds twice and goes out by discarding her last card, as
    C9.2 asks; the rummy scores single (C9.1 off), the computer's 67 points, past the 50 aimed at."""
    ann = phone(device, "Ann's phone")
    ann.set_up_game("Classic Rummy", [("Ann", "here"), ("AI", "here")], "quick_rummy.deck", target=50,
                    rummy_bonus=False, must_discard=True, discard_back=True, stock_out="end_hand",
                    deal_size="seven")
    ann.mark_document()
    shown = house_rules_shown(ann)
    for words in ("Rummy bonus: no", "Go out by discarding: yes", "Discard the card just taken: yes",
                  "When the stock runs out: The hand ends, no score", "Cards dealt: Seven each"):
        assert words in shown, (words, shown)
    assert len(snap(ann)["hand"]) == 7
    seen = tap(ann, pile(ann, "draw|source=stock"))
    assert "QH" in seen["hand"]
    for meld in (["AC", "2C", "3C", "4C"], ["5D", "5H", "5S"]):
        select(ann, meld)
        seen = tap(ann, button(ann, "Meld"))
    assert seen["hand"] == ["QH"]
    select(ann, ["QH"])
    seen = tap(ann, button(ann, "Discard"))
    assert "Game over" in snap(ann)["status"], seen
    results = re.sub(r"\s+", " ", ann.page.locator("#table .results").inner_text())
    assert "Ann" in results and "67" in results, results
    screenshot(ann.page, "rummy-house-rules-over", sizes=PHONE_ONLY)
    no_wider_than_the_phone(ann)
    scores_name_the_house_rules(ann, "rummy", "Go out by discarding: yes", "Ann", screenshot)


def test_points_rummy_by_every_house_rule_to_the_end(live_server, device, screenshot):
    """A deal of one: Ann drops at her first turn and pays the house's first drop (P8.1)."""
    ann = phone(device, "Ann's phone")
    ann.set_up_game("Points Rummy", [("Ann", "here"), ("AI", "here")], None, deals=1, first_drop=10,
                    middle_drop=30, most_points=60, wrong_declaration=70, joker_pickup=True)
    shown = house_rules_shown(ann)
    for words in ("First drop costs: 10", "Middle drop costs: 30", "A loser pays at most: 60",
                  "A wrong declaration costs: 70", "Jokers may be taken from the open pile: yes"):
        assert words in shown, (words, shown)
    page = ann.page
    drop = page.locator("#table").get_by_role("button", name="Drop (10 points)")
    drop.wait_for()
    before = ann.table.version()
    drop.click()
    asked = page.locator("dialog.confirm-dialog")
    assert "It costs you 10 points." in asked.inner_text()
    asked.get_by_role("button", name="Yes, drop (10 points)").click()
    ann.table.wait_past(before)
    page.locator("#table .results").wait_for()
    results = re.sub(r"\s+", " ", page.locator("#table .results").inner_text())
    assert "10" in results and "Ann" in results, results
    screenshot(page, "points-house-rules-over", sizes=PHONE_ONLY)
    no_wider_than_the_phone(ann)
    scores_name_the_house_rules(ann, "points", "First drop costs: 10", "Ann", screenshot)


def next_home(shown: dict) -> str | None:
    """An uncovered card (a column's last, a cell's) that may go home now: the next of its suit."""
    order = "A23456789TJQK"
    tops = {card[1]: card[0] for card in shown["foundations"] if card}
    for card in [column[-1] for column in shown["columns"] if column] + [card for card in shown["cells"] if card]:
        rank, suit = card[0], card[1]
        if order.index(rank) == (order.index(tops[suit]) + 1 if suit in tops else 0):
            return card
    return None


def move(page, card: str, place: str) -> dict:
    version = board(page)["version"]
    source(page, card).tap()
    assert place in board(page)["destinations"], (card, place, board(page)["destinations"])
    destination(page, place).tap()
    return wait_past(page, version)


def test_seahaven_with_two_cells_and_any_card_in_an_empty_column_to_the_end(live_server, device, screenshot):
    """short_win.deck (tests/decks/seahaven/README.md) with two cells (S7.1) and any card allowed
    into an empty column (S7.2): the 2C waits in cell 1, the 7C goes to the emptied column 1 (no
    king), and every card goes home."""
    ann = phone(device, "Ann's phone")
    page = ann.page
    ann.goto("/setup/seahaven")
    page.locator("#name0").fill("Ann")
    page.locator("#opt-cells").fill("2")
    page.locator("input[type=checkbox][name=kings_only]").uncheck()
    page.locator("input[name=deck][value='short_win.deck']").check()
    ann.start_set_up_game("#table.game-seahaven")
    page.wait_for_load_state("load")  # (the table's script is wired: a tap selects, not a page load)
    ann.table.wait_settled()
    assert "Cells: 2" in house_rules_shown(ann) and "Only kings fill an empty column: no" in house_rules_shown(ann)
    assert len(board(page)["cells"]) == 2
    shown = move(page, "2C", "c1")
    moved_to_empty = False
    for _move in range(60):
        if shown["results"]:
            break
        if not moved_to_empty and not shown["columns"][0] and shown["columns"][1][-1] == "7C":
            shown = move(page, "7C", "t1")  # S7.2: a seven fills the empty column
            moved_to_empty = True
            continue
        card = next_home(shown)
        assert card is not None, shown
        version = shown["version"]
        source(page, card).tap()
        home = [place for place in board(page)["destinations"] if place.startswith("f")]
        destination(page, home[0]).tap()
        shown = wait_past(page, version)
    assert moved_to_empty and shown["results"], shown
    screenshot(page, "seahaven-house-rules-won", sizes=PHONE_ONLY)
    no_wider_than_the_phone(ann)
