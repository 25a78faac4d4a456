"""In real browsers: one device per player. Separate browser contexts (separate cookies)
join with the invite link or the typed code and play whole games against each other through the
real server; every page updates live (no reload) when anyone acts, shows only its own hand, a
reload resumes the same phase, the tab title says "Your turn", a spectator sees no hand; and the
table also works with JavaScript disabled (plain form posts)."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from app.games.mason.definition import MASON
from app.tables.decks import read_deck_file
from support.browsing import button_words

from app.web.words import card_short

# (each test seats new players Ann and Bob: R3.2 refuses a new name the score table holds, so each has a server
# and a database of its own)
pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.own_live_server]

TURN_CAP = 80
YOUR_TURN = "\u25b6 Your turn"  # static/js/app.js puts this before the title


@dataclass
class Seat:
    name: str
    device: object  # conftest.Device

    @property
    def page(self):
        return self.device.page

    @property
    def table(self):
        return self.device.table


def open_invite(host, name: str) -> tuple[str, str]:
    """The host's table -> the seat's invite page: join link, QR code image, short code."""
    page = host.page
    # the seat's own row, by its name alone (a join code such as 78TTCY holds "Cy" too)
    row = page.locator("#table .seats-panel li").filter(
        has=page.locator("strong", has_text=re.compile(rf"^\d+\. {re.escape(name)}$")))
    code = row.locator("code.join-code").inner_text().strip()
    row.get_by_role("link", name="Link & QR code").click()
    page.get_by_role("heading", name=f"{name}, join from your phone or laptop").wait_for()
    link = page.locator("main a[href*='/join/']").get_attribute("href")
    qr = page.get_by_role("img", name=f"QR code of the join link for {name}")
    assert qr.get_attribute("src").startswith("data:image/svg+xml")
    assert qr.evaluate("img => img.complete && img.naturalWidth > 0"), "the QR code image did not load"
    assert page.locator(".join-code.big").inner_text().strip() == code
    assert re.fullmatch(r"[A-HJ-NP-Z2-9]{6}", code) and link.endswith("/join/" + code)
    return link, code


def join_with_link(guest, link: str, name: str) -> None:
    guest.page.goto(link)
    guest.page.get_by_role("button", name=f"I am {name}: take my seat").click()
    guest.page.locator("#table").wait_for()


class LiveGame:
    """Drives a game where every seat is on its own device, checking each page after each step."""

    def __init__(self, slug: str, seats: list[Seat], planner, spectator=None):
        self.slug = slug
        self.seats = seats
        self.planner = planner
        self.spectator = spectator
        self.devices = [seat.device for seat in seats] + ([spectator] if spectator else [])
        self.reloaded = False
        for one in self.devices:
            one.mark_document()

    def sync_all(self) -> dict:
        """Every page catches up with the newest version any of them shows (e.g. after joins)."""
        return self.sync(max(one.table.version() for one in self.devices))

    def sync(self, version: int) -> dict:
        """Every page reaches ``version`` by itself (live update, same document); check them."""
        snaps = {}
        for one in self.devices:
            snaps[one.name] = one.table.wait_for_version(version)
            assert snaps[one.name]["sameDocument"], f"{one.name}'s page was reloaded to show the change"
        self.check(snaps)
        return snaps

    def check(self, snaps: dict) -> None:
        versions = {snap["version"] for snap in snaps.values()}
        assert len(versions) == 1, versions
        hands = {seat.name: set(snaps[seat.device.name]["hand"] or ()) for seat in self.seats}
        playing = not any(snap["summary"] or snap["results"] for snap in snaps.values())
        for seat in self.seats:
            snap = snaps[seat.device.name]
            mine = [p["name"] for p in snap["players"] if p["me"]]
            assert mine == [seat.name], (seat.name, mine)
            if playing:
                assert snap["hand"] is not None and snap["handForms"] == 1
            others = set().union(*(hand for name, hand in hands.items() if name != seat.name))
            if not playing:  # R7.1: once a round is over, every hand left is shown to everyone
                others = set()
            leaked = others & (set(snap["codeAttributes"]) | set(snap["allCards"]) | set(snap["cardInputs"]))
            assert not leaked, f"{seat.name}'s page shows {sorted(leaked)} from another seat's hand"
            if snap["myTurn"]:  # (static/js/app.js)
                assert snap["title"].startswith(YOUR_TURN), (seat.name, snap["title"])
            else:
                assert "Your turn" not in snap["title"], (seat.name, snap["title"])
        if playing:
            assert sum(snaps[seat.device.name]["myTurn"] for seat in self.seats) == 1
        if self.spectator is not None:  # the watch link shows no hand
            snap = snaps[self.spectator.name]
            everything = set().union(*hands.values()) if playing else set()  # (R7.1: shown once over)
            assert snap["hand"] is None and snap["handForms"] == 0 and "Your turn" not in snap["title"]
            assert not everything & (set(snap["codeAttributes"]) | set(snap["allCards"]))
            assert "watching" in snap["status"] or not playing

    def act(self, seat: Seat, words: str, cards=(), version: int | None = None) -> dict:
        """``seat`` selects ``cards`` and presses ``words``; every page shows it without reloading."""
        if cards:
            seat.table.select(cards)
        snap = seat.table.press(words, version)
        assert snap["alert"] is None, snap["alert"]
        snaps = self.sync(snap["version"])
        for one in self.devices:  # the change itself is on every page: the log and the discard top
            assert snaps[one.name]["log"] == snap["log"] and snaps[one.name]["discardTop"] == snap["discardTop"]
        return snaps

    def play(self, deal_order: list[Seat]) -> dict:
        snaps = self.sync_all()
        turns = 0
        while True:
            first = snaps[self.seats[0].device.name]
            if first["results"]:
                return snaps
            if first["summary"]:  # R9.3: any player at the table may deal the next round
                number = int(re.search(r"Round (\d) is over", first["summary"]).group(1))
                dealer = deal_order[number - 1]
                snaps = self.act(dealer, f"Deal round {number + 1}", version=first["version"])
                continue
            turns += 1
            assert turns <= TURN_CAP, f"no game over after {TURN_CAP} turns: the planner is stuck"
            snaps = self.turn(snaps)

    def turn(self, snaps: dict) -> dict:
        number = next(n for n, seat in enumerate(self.seats) if snaps[seat.device.name]["myTurn"])
        seat = self.seats[number]
        snap = snaps[seat.device.name]
        assert "draw a card" in snap["status"], snap["status"]
        choice = self.planner.next(self.slug)  # the computer player's choice, for this seat
        assert choice.seat == number and choice.name.startswith("draw"), choice
        snaps = self.act(seat, button_words(choice.move), version=snap["version"])
        snap = snaps[seat.device.name]
        assert "play down cards or discard" in snap["status"]
        if not self.reloaded and seat is not self.seats[0]:
            snap = self.reload(seat, snap)
        while (choice := self.planner.next(self.slug)).name == "lay_down":
            snaps = self.act(seat, button_words(choice.move), choice.cards, version=snap["version"])
            snap = snaps[seat.device.name]
            if snap["summary"] or snap["results"]:
                return snaps  # went out by laying down (R5.7)
        assert choice.name == "discard" and choice.seat == number, choice
        return self.act(seat, button_words(choice.move), choice.cards, version=snap["version"])

    def reload(self, seat: Seat, before: dict) -> dict:
        """A refresh brings the player back to their seat and phase."""
        seat.page.reload()
        seat.page.locator("#table").wait_for()
        seat.table.wait_settled()
        after = seat.table.snapshot()
        assert not after["sameDocument"]
        assert "play down cards or discard" in after["status"], after["status"]
        assert after["hand"] == before["hand"] and after["version"] == before["version"]
        assert after["title"].startswith(YOUR_TURN), after["title"]
        seat.device.mark_document()
        self.reloaded = True
        return after


def assert_first_hands(snaps: dict, seats: list[Seat], deck) -> None:
    """Each device's hand is its own seat's: with a stacked deck, seat n holds the n-th ten
    cards of the file (R2.3, R4.2)."""
    codes = [card.code for card in read_deck_file(deck, MASON)]
    for number, seat in enumerate(seats):
        assert sorted(snaps[seat.device.name]["hand"]) == sorted(codes[number * 10:(number + 1) * 10]), seat.name


def test_two_devices_play_a_whole_game_live(live_server, device, screenshot, planner):
    """Two browsers: the host plays seat 1 on their laptop, seat 2 joins from a
    phone with the invite link. Privacy (R4.4), live updates, reconnect, whose turn."""
    ann = device("Ann's laptop")
    slug = ann.start_game([("Ann", "here"), ("Bob", "own")], deck="ai_showcase.deck")
    badge = ann.page.locator("#table li.player", has_text="Bob").locator(".badge.warn").inner_text()
    link, code = open_invite(ann, "Bob")
    assert badge == f"not joined: code {code}"  # (the host reads it on the board, above the docked hand)
    screenshot(ann.page, "invite")
    ann.page.get_by_role("link", name="Back to the table").click()
    ann.page.locator("#table").wait_for()
    ann.mark_document()
    before = ann.table.version()

    bob = device("Bob's phone", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    join_with_link(bob, link, "Bob")
    assert bob.page.url.endswith(f"/games/{slug}")
    ann.table.wait_past(before)  # the host sees Bob join, live
    assert ann.same_document()
    assert ann.page.locator("#table li.player", has_text="Bob").locator(".badge.warn").count() == 0

    # The same link does nothing for another browser once the seat is claimed.
    other = device("someone else")
    response = other.page.goto(link)
    assert response.status == 404 and other.page.locator("#table").count() == 0

    game = LiveGame(slug, [Seat("Ann", ann), Seat("Bob", bob)], planner)
    snaps = game.sync_all()
    assert_first_hands(snaps, game.seats, live_server.decks_folder / "ai_showcase.deck")
    screenshot(ann.page, "ann-table")
    screenshot(bob.page, "bob-table")
    snaps = game.play(deal_order=[game.seats[1], game.seats[0]])
    assert game.reloaded
    for snap in snaps.values():
        assert "Game over" in snap["status"] and snap["results"].startswith("Game over")
    assert snaps[ann.name]["scoreboard"] == snaps[bob.name]["scoreboard"]
    screenshot(bob.page, "bob-game-over")
    for one in (ann, bob):
        problems = one.unexpected_problems()
        assert problems == [], "\n".join(problems)


def test_three_devices_and_a_spectator_play_a_whole_game_live(live_server, device, screenshot, planner):
    """Three browsers (link, typed code) and a fourth watching: each sees only its
    own hand (R4.4), every move live on every page, the watch link shows no hand."""
    ann = device("Ann's laptop")
    slug = ann.start_game([("Ann", "here"), ("Bob", "own"), ("Cy", "own")], deck="quick_out.deck")
    bob_link, _ = open_invite(ann, "Bob")
    ann.page.get_by_role("link", name="Back to the table").click()
    ann.page.locator("#table").wait_for()
    _, cy_code = open_invite(ann, "Cy")
    ann.page.get_by_role("link", name="Back to the table").click()
    ann.page.locator("#table").wait_for()
    watch = ann.page.locator("#table .seats-panel a[href$='/watch']").get_attribute("href")
    assert watch == f"/games/{slug}/watch"

    bob = device("Bob's phone", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    join_with_link(bob, bob_link, "Bob")
    cy = device("Cy's tablet", viewport={"width": 820, "height": 1180})
    cy.join_with_code(cy_code.lower(), "Cy")
    fan = device("spectator")
    fan.goto(watch)
    assert fan.page.get_by_text("You are watching: no hands are shown.").is_visible()

    game = LiveGame(slug, [Seat("Ann", ann), Seat("Bob", bob), Seat("Cy", cy)], planner, spectator=fan)
    snaps = game.sync_all()  # the host's page shows both joins live
    assert_first_hands(snaps, game.seats, live_server.decks_folder / "quick_out.deck")
    screenshot(cy.page, "cy-table")
    screenshot(fan.page, "spectator")
    snaps = game.play(deal_order=[game.seats[2], game.seats[1]])
    assert game.reloaded
    results = {snap["results"].split(" The score table")[0] for snap in snaps.values()}
    assert len(results) == 1, results  # every page shows the same results
    # quick_out: Ann goes out every round; the last round's hands left follow (R7.1)
    shown = results.pop()  # the standings first (each round's points, the totals), then the hands left
    assert shown.startswith("Game over Ann wins with 0 points! Standings Player R1 R2 R3 Total Ann 0 0 0 0 ")
    assert " Round 3 is over Ann no cards 0 pts Bob " in shown
    assert "Rematch with the same players" not in snaps[fan.name]["results"]
    for one in (ann, bob, cy, fan):
        problems = one.unexpected_problems()
        assert problems == [], "\n".join(problems)


def test_table_works_without_javascript(live_server, device, screenshot):
    """htmx only enhances; with JavaScript off, a draw and a discard are plain
    form posts (full page loads, 303 then the table) - R5.1, R5.6."""
    plain = device("no-JS browser", java_script_enabled=False)
    page = plain.page
    slug = plain.start_game([("Ann", "here"), ("AI", "here")], deck="run_or_meld.deck")
    hand = plain.table.snapshot()["hand"]
    assert len(hand) == 10 and "draw a card" in plain.table.snapshot()["status"]

    with page.expect_navigation(), page.expect_request("**/act") as posted:
        plain.table.button("Draw from stock pile").click()
    assert_plain_post(posted.value, slug)
    snap = plain.table.snapshot()
    assert page.url.endswith(f"/games/{slug}")
    assert len(snap["hand"]) == 11 and set(hand) < set(snap["hand"])
    assert "play down cards or discard" in snap["status"]
    assert snap["log"][-1] == "Ann drew from the stock pile.", snap["log"]  # not which card

    discard = snap["hand"][0]
    plain.table.card(discard).click()  # a plain checkbox inside the card's label
    assert plain.table.checkbox(discard).is_checked()
    with page.expect_navigation(), page.expect_request("**/act") as posted:
        plain.table.button("Discard").click()
    assert_plain_post(posted.value, slug)
    snap = plain.table.snapshot()
    assert discard not in snap["hand"] and len(snap["hand"]) == 10
    assert f"Ann discarded the {card_short(MASON.deck.parse(discard))}." in snap["log"], snap["log"]
    assert any(line.startswith("AI ") for line in snap["log"]), snap["log"]  # the AI played at once
    assert "Your turn, Ann: draw a card" in snap["status"]
    screenshot(page, "no-javascript")
    assert plain.problems == []


def assert_plain_post(request, slug: str) -> None:
    """A form post by the browser itself (no htmx header), answered by a 303 to the table."""
    assert request.method == "POST" and request.is_navigation_request()
    assert "hx-request" not in request.all_headers()
    assert request.response().status == 303
    assert request.redirected_to is not None and request.redirected_to.url.endswith(f"/games/{slug}")
