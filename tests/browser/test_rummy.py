"""Classic Rummy in real browsers, against the real server: a four-seat table (the host's laptop,
a phone that joins with the invite link, two computer players) set up from the home page with
its options and ``four_seats.deck``, played live through a whole hand by tapping the piles, the
cards, Meld / Discard and the melds (a lay-off on another player's meld), with the C3.3
refusal shown, a reload in the middle of a turn; the hand's lines on both devices, the next
hand dealt from the phone. Then a six-seat table on a phone, and a table without JavaScript. Screenshots at phone (390x844) and desktop sizes go to
test-artifacts/screenshots/.

``four_seats.deck`` (tests/decks/rummy/README.md): Ann holds 4H 5H 6H KC KD 2S 9C and 7H is turned up;
Bob holds 8H 9D 9H 9S 2C 5C JD; the stock's top cards are 7C 4D 8S KH. Ann takes 7H and melds
4H-7H, Bob melds his nines and lays 8H off on Ann's run, the computers draw and discard, and Ann
goes out with KC KD KH: 87 points."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
PHONE_ONLY = (("phone", PHONE),)
ANN_HAND = {"4H", "5H", "6H", "KC", "KD", "2S", "9C"}
BOB_HAND = {"8H", "9D", "9H", "9S", "2C", "5C", "JD"}

SNAPSHOT_JS = """() => {
  const t = document.getElementById('table');
  const all = (sel, root) => Array.from((root || document).querySelectorAll(sel));
  const text = (el) => el ? el.innerText.replace(/\\s+/g, ' ').trim() : null;
  const form = t.querySelector('.hand-form');
  return {
    version: Number(t.dataset.version),
    myTurn: t.dataset.myTurn === 'yes',
    sameDocument: window.__cardTableSameDocument === true,
    title: document.title,
    status: text(t.querySelector('.status-bar')),
    alert: text(t.querySelector('[role=alert]')),
    hand: form ? all('label.card[data-card]', form).map(e => e.dataset.card) : null,
    taken: form ? all('label.card.taken', form).map(e => e.dataset.card) : [],
    drawn: form ? all('label.card.drawn', form).map(e => e.dataset.card) : [],
    allCards: all('[data-card]').map(e => e.dataset.card),
    codeAttributes: Array.from(new Set(all('*').flatMap(e => Array.from(e.attributes, a => a.value))
                                               .filter(v => /^[2-9TJQKA][CDHS]$/.test(v)))),
    melds: all('.rm-meld', t).map(m => ({number: m.dataset.meld, button: m.tagName === 'BUTTON',
                                          fits: m.classList.contains('fits'),
                                          cards: all('[data-card]', m).map(c => c.dataset.card)})),
    open: all('details.rm-owner', t).map(d => [d.dataset.owner, d.open]),
    seats: all('.rm-seat', t).map(li => text(li.querySelector('.rm-head'))),
    discardTop: (t.querySelector('.rm-piles .rm-pile:nth-child(2) [data-card]') || {}).dataset?.card || null,
    buttons: all('button', t).map(b => text(b)),
    log: all('.log li', t).map(li => text(li)),
    summary: text(t.querySelector('.summary')),
    results: text(t.querySelector('.results')),
  };
}"""

BUSY = ".htmx-request, .htmx-swapping, .htmx-settling, .htmx-added"
SETTLED_JS = """(v) => {
  const t = document.getElementById('table');
  return !!t && Number(t.dataset.version) >= v && !document.querySelector('%s');
}""" % BUSY

# How far the page must scroll for an element to be fully on screen (0: it is).
BELOW_JS = "(sel) => { const e = document.querySelector(sel); const r = e.getBoundingClientRect(); return Math.max(0, r.bottom - window.innerHeight); }"


def snap(device) -> dict:
    return device.page.evaluate(SNAPSHOT_JS)


def wait_for(device, version: int) -> dict:
    """The page shows ``version`` or later, swapped in live (same document)."""
    device.page.wait_for_function(SETTLED_JS, arg=version)
    seen = snap(device)
    assert seen["sameDocument"], f"{device.name}'s page was reloaded"
    return seen


def tap(device, locator) -> dict:
    """Tap a button that changes the game; wait for the swapped table."""
    before = snap(device)["version"]
    locator.click()
    return wait_for(device, before + 1)


def select(device, codes) -> None:
    """Tap cards in the hand until exactly ``codes`` are selected."""
    page = device.page
    checked = lambda: page.evaluate(  # noqa: E731
        "() => Array.from(document.querySelectorAll('#table .hand-form input[name=cards]:checked'), e => e.value)")
    for code in checked():
        if code not in codes:
            page.locator(f"#table .hand-form label.card[data-card='{code}']").click()
    for code in codes:
        if code not in checked():
            page.locator(f"#table .hand-form label.card[data-card='{code}']").click()
    assert sorted(checked()) == sorted(codes)


def button(device, words: str):
    return device.page.locator("#table .hand-form button").filter(has_text=re.compile("^" + re.escape(words) + "$"))


def pile(device, value: str):
    return device.page.locator(f"#table .rm-piles button[value='{value}']")


def meld(device, number: int):
    return device.page.locator(f"#table button.rm-meld[data-meld='{number}']")


def set_up(device, seats: list[tuple[str, str]], deck: str, target: int, bonus: bool) -> str:
    """From the home page: Classic Rummy's link, then the set-up form (seats, options, deck)."""
    return device.set_up_game("Classic Rummy", seats, deck, target=target, rummy_bonus=bonus)


def invite_link(host, name: str) -> str:
    page = host.page
    row = page.locator("#table .seats-panel li", has_text=name)
    row.get_by_role("link", name="Link & QR code").click()
    page.get_by_role("heading", name=f"{name}, join from your phone or laptop").wait_for()
    link = page.locator("main a[href*='/join/']").get_attribute("href")
    page.get_by_role("link", name="Back to the table").click()
    page.locator("#table").wait_for()
    return link


def check_privacy(seen: dict, others: set[str], who: str) -> None:
    shown = (set(seen["allCards"]) | set(seen["codeAttributes"])) & others
    assert not shown, f"{who}'s page shows {sorted(shown)} of another hand"


def test_four_seats_two_devices_and_two_computers_play_a_whole_hand_live(live_server, device, screenshot):
    ann = device("Ann's laptop")
    slug = set_up(ann, [("Ann", "here"), ("Bob", "own"), ("AI", "here"), ("AI", "here")], "four_seats.deck",
                  target=200, bonus=False)
    link = invite_link(ann, "Bob")
    bob = device("Bob's phone", viewport=dict(PHONE), is_mobile=True, has_touch=True)
    bob.goto(link.replace(live_server.url, ""))
    bob.page.get_by_role("button", name="I am Bob: take my seat").click()
    bob.page.locator("#table").wait_for()
    for one in (ann, bob):
        one.mark_document()
    version = snap(bob)["version"]
    a = wait_for(ann, version)
    b = snap(bob)
    assert sorted(a["hand"]) == sorted(ANN_HAND) and sorted(b["hand"]) == sorted(BOB_HAND)
    assert "Hand 1 - target 200" in a["status"] and "Your turn, Ann" in a["status"]
    assert a["seats"] == ["Ann you 7 cards · 0 pts", "Bob 7 cards · 0 pts", "AI 3 Computer (normal) 7 cards · 0 pts",
                          "AI 4 Computer (normal) 7 cards · 0 pts"]
    assert not b["myTurn"] and "Ann's turn" in b["status"]
    check_privacy(b, ANN_HAND, "Bob")
    screenshot(ann.page, "deal")

    # Ann taps the discard pile (C3.1): 7H is marked as taken, and discarding it is refused (C3.3)
    a = tap(ann, pile(ann, "draw|source=discard"))
    assert a["taken"] == ["7H"] and "7H" in a["hand"]
    select(ann, ["7H"])
    with ann.page.expect_response(re.compile(r"/act$")) as answer:
        button(ann, "Discard").click()
    assert answer.value.status == 422
    ann.table.wait_settled()
    a = snap(ann)
    assert a["alert"] == "You took 7H from the discard pile this turn: you may not discard it this turn."
    assert len(a["hand"]) == 8 and a["taken"] == ["7H"]
    screenshot(ann.page, "taken-card-refused")
    select(ann, ["4H", "5H", "6H", "7H"])
    a = tap(ann, button(ann, "Meld"))
    assert a["melds"] == [{"number": "1", "button": False, "fits": False, "cards": ["4H", "5H", "6H", "7H"]}]
    select(ann, ["9C"])
    a = tap(ann, button(ann, "Discard"))
    b = wait_for(bob, a["version"])
    assert b["myTurn"] and b["log"] == a["log"] and b["discardTop"] == "9C"
    assert b["title"].startswith("\u25b6 Your turn")

    # Bob, on his phone: the stock, a meld, then 8H laid off on Ann's run (another player's meld)
    b = tap(bob, pile(bob, "draw|source=stock"))
    assert b["drawn"] == ["7C"]
    select(bob, ["9D", "9H", "9S"])
    b = tap(bob, button(bob, "Meld"))
    assert [m["number"] for m in b["melds"] if m["button"]] == ["1", "2"]
    bob.page.reload()  # a reconnect resumes the same turn, the same hand and the same table
    bob.page.locator("#table").wait_for()
    again = snap(bob)
    assert not again["sameDocument"] and again["myTurn"] and again["version"] == b["version"]
    assert again["hand"] == b["hand"] and again["melds"] == b["melds"] and again["drawn"] == ["7C"]
    bob.mark_document()
    select(bob, ["8H"])
    b = snap(bob)
    assert [m["number"] for m in b["melds"] if m["fits"]] == ["1"]  # highlighted: it fits Ann's run
    # the hand, the melds and the buttons of this turn are on the phone's screen together
    bob.page.evaluate("() => window.scrollTo(0, 0)")
    for selector in ("#table .hand-form .actions", "#table .rm-board"):
        assert bob.page.evaluate(BELOW_JS, selector) == 0, f"{selector} is below the phone's screen"
    screenshot(bob.page, "bob-lays-off", sizes=PHONE_ONLY)
    b = tap(bob, meld(bob, 1))
    assert b["melds"][0]["cards"] == ["4H", "5H", "6H", "7H", "8H"]
    assert "Bob laid off the 8\u2665 on meld 1, Ann's run: 4\u2665 5\u2665 6\u2665 7\u2665 8\u2665." in b["log"]
    select(bob, ["JD"])
    b = tap(bob, button(bob, "Discard"))

    # the computers play on the server; Ann's turn comes back live: she goes out
    a = wait_for(ann, b["version"])
    assert a["myTurn"], a["status"]
    assert any(line.startswith("AI 3 ") for line in a["log"]) and any(line.startswith("AI 4 ") for line in a["log"])
    check_privacy(a, BOB_HAND - {"8H", "9D", "9H", "9S", "JD"}, "Ann")
    a = tap(ann, pile(ann, "draw|source=stock"))
    assert a["drawn"] == ["KH"]
    select(ann, ["KC", "KD", "KH"])
    a = tap(ann, button(ann, "Meld"))
    select(ann, ["2S"])
    a = tap(ann, button(ann, "Discard"))
    b = wait_for(bob, a["version"])
    for seen in (a, b):
        assert "Hand 1: Ann went out" in seen["status"]
        # C8.4's lines as a table: each player's points this hand, and their totals
        assert "Player This hand Total Ann 87 87 Bob 0 0 AI 3 0 0 AI 4 0 0" in seen["summary"]
        assert "Deal hand 2" in seen["buttons"]
    screenshot(ann.page, "hand-1-summary")
    screenshot(bob.page, "hand-1-summary-bob", sizes=PHONE_ONLY)

    # anyone at the table deals the next hand: Bob, who plays first in hand 2 (C2.4)
    b = tap(bob, bob.page.locator("#table .summary button", has_text="Deal hand 2"))
    a = wait_for(ann, b["version"])
    assert "Hand 2 - target 200" in b["status"] and b["myTurn"] and not a["myTurn"]
    assert sorted(b["hand"]) == sorted(ANN_HAND)  # the same deck, dealt from seat 2
    screenshot(bob.page, "hand-2-bob", sizes=PHONE_ONLY)
    for one in (ann, bob):
        problems = one.unexpected_problems(422)
        assert problems == [], "\n".join(problems)


def test_six_seats_on_a_phone(live_server, device, screenshot):
    """Ann on a phone against five computers (six_seats.deck): after two rounds of drawing and
    discarding, five melds by five owners; the table stays readable: the seats one line each,
    the melds folded but the latest owner's, the selected card's meld highlighted and opened."""
    ann = device("Ann's phone", viewport=dict(PHONE), is_mobile=True, has_touch=True)
    set_up(ann, [("Ann", "here")] + [("AI", "here")] * 5, "six_seats.deck", target=100, bonus=True)
    ann.mark_document()
    for _ in range(2):
        a = tap(ann, pile(ann, "draw|source=stock"))
        select(ann, a["drawn"])
        tap(ann, button(ann, "Discard"))
    a = tap(ann, pile(ann, "draw|source=stock"))
    assert len(a["melds"]) == 5 and all(m["button"] for m in a["melds"])
    assert len(a["seats"]) == 6
    folded = [owner for owner, is_open in a["open"] if not is_open]
    assert len(folded) == 4, a["open"]
    select(ann, ["8S"])  # fits meld 3, AI 4's run 9S TS JS QS
    a = snap(ann)
    assert [m["number"] for m in a["melds"] if m["fits"]] == ["3"]
    assert dict(a["open"])["3"] is True
    screenshot(ann.page, "six-seats", sizes=PHONE_ONLY)
    ann.page.evaluate("() => window.scrollTo(0, 0)")
    assert ann.page.evaluate(BELOW_JS, "#table .hand-form .actions") == 0
    a = tap(ann, meld(ann, 3))
    assert a["melds"][2]["cards"] == ["8S", "9S", "TS", "JS", "QS"]
    screenshot(ann.page, "six-seats-desktop", sizes=(("desktop", {"width": 1280, "height": 900}),))
    assert ann.unexpected_problems() == []


def test_without_javascript_the_piles_and_the_melds_are_plain_form_buttons(live_server, device, screenshot):
    """With JavaScript off, tapping the stock and tapping a meld are plain form posts (the buttons
    submit the hand's form from outside it): lay_off.deck, 8S goes on the set Ann taps (C3.2)."""
    plain = device("no-JS browser", java_script_enabled=False)
    page = plain.page
    plain.goto("/setup/rummy")
    page.locator("#name0").fill("Ann")
    page.locator("#name1").fill("AI")
    page.locator("input[name=deck][value='lay_off.deck']").check()
    page.get_by_role("button", name="Start the game").click()
    page.locator("#table").wait_for()

    def plain_post(locator) -> None:
        with page.expect_navigation(), page.expect_request("**/act") as posted:
            locator.click()
        assert "hx-request" not in posted.value.all_headers() and posted.value.response().status == 303

    def tick(codes) -> None:
        for code in codes:
            page.locator(f"#table .hand-form label.card[data-card='{code}']").click()

    plain_post(pile(plain, "draw|source=stock"))
    tick(["5S", "6S", "7S"])
    plain_post(button(plain, "Meld"))
    tick(["8C", "8D", "8H"])
    plain_post(button(plain, "Meld"))
    tick(["8S"])
    plain_post(meld(plain, 2))
    seen = snap(plain)
    assert [m["cards"] for m in seen["melds"]] == [["5S", "6S", "7S"], ["8C", "8D", "8H", "8S"]]
    assert "Ann laid off the 8\u2660 on meld 2, their own set: 8\u2663 8\u2666 8\u2665 8\u2660." in seen["log"]
    screenshot(page, "no-javascript")
    assert plain.problems == []
