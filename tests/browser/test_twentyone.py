"""21 against the dealer in real browsers (T7), against the real server: a two-player table on
two devices (the host's laptop, a phone that joins with the code, and a spectator) played live
to the end of its rounds with a stacked deck, then the statistics and a rematch; and a
one-player table at phone width (390x844) for a few rounds. The dealer's turn is shown card by
card (static/js/games/twentyone.js): a page records every state of the dealer's hand it shows,
so the order is checked without any timing; a paused clock stops it midway for a look, a tap
shows the rest; with prefers-reduced-motion it shows at once. The dealer's hidden card is in no
page before it is turned over (T7.2).

Decks (tests/decks/twentyone/README.md): ``two_players.deck`` and ``natural_after_hit.deck``, played
as the computer player plays (hit while 16 or less)."""

from __future__ import annotations

import re

import pytest

from app.games.twentyone import DECK
from support import pages

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
PHONE_ONLY = (("phone", PHONE),)
TURN_CAP = 40
TWO_PLAYERS_HIDDEN = {1: "9D", 2: "8C", 3: "2C"}  # two_players.deck: the dealer's hidden card, round by round

# Every state of the dealer's hand a page shows during a dealer's turn: "<turn> <cards shown face
# up> <value shown>" and " revealing" while the turn is being shown card by card.
DEALER_FRAMES_JS = """
window.__twFrames = [];
new MutationObserver(function () {
  var dealer = document.querySelector('.tw-dealer[data-dealer-turn]');
  var table = document.getElementById('table');
  if (!dealer || !table) return;
  var shown = dealer.querySelectorAll('.tw-cards .card').length
            - dealer.querySelectorAll('.tw-later .card, .tw-turning .card').length;
  var frame = dealer.getAttribute('data-dealer-turn') + ' ' + shown + ' '
            + dealer.querySelector('.tw-value').textContent
            + (document.documentElement.classList.contains('tw-revealing') ? ' revealing' : '');
  if (window.__twFrames[window.__twFrames.length - 1] !== frame) window.__twFrames.push(frame);
}).observe(document, {subtree: true, childList: true, attributes: true, attributeFilter: ['class']});
"""

BOARD_JS = """() => {
  const t = document.getElementById('table');
  const text = (el) => el ? el.innerText.replace(/\\s+/g, ' ').trim() : null;
  const me = t.querySelector('.tw-hand.me .tw-value');
  return {
    version: Number(t.dataset.version),
    myTurn: t.dataset.myTurn === 'yes',
    status: text(t.querySelector('.status-bar')),
    alert: text(t.querySelector('[role=alert]')),
    myValue: me ? Number(me.textContent) : null,
    buttons: Array.from(t.querySelectorAll('button'), b => text(b)),
    hands: Array.from(t.querySelectorAll('.tw-hand'), li => ({
      name: text(li.querySelector('.tw-name')), value: Number(li.querySelector('.tw-value').textContent),
      cards: Array.from(li.querySelectorAll('[data-card]'), c => c.dataset.card),
      result: text(li.querySelector('.tw-badge'))})),
    dealer: Array.from(t.querySelectorAll('.tw-dealer [data-card]'), c => c.dataset.card),
    faceDown: t.querySelectorAll('.tw-dealer .card.back').length,
    summary: text(t.querySelector('.summary')),
    results: text(t.querySelector('.results')),
    revealing: document.documentElement.classList.contains('tw-revealing'),
    sameDocument: window.__cardTableSameDocument === true,
    frames: window.__twFrames || [],
  };
}"""


def board(device) -> dict:
    return device.page.evaluate(BOARD_JS)


def names_card(html: str, code: str) -> bool:
    return pages.names_card(html, code, DECK)


def set_up(device, seats: list[tuple[str, str]], deck: str, rounds: int) -> str:
    """From the home page: the game's link, then the set-up form (seats, Rounds, the deck)."""
    return device.set_up_game("21 against the dealer", seats, deck, rounds=rounds)


def in_view(page, selector: str) -> bool:
    """The element is on screen without scrolling (the page scrolled to the top)."""
    box = page.locator(selector).first.bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"] \
        and box["x"] >= 0 and box["x"] + box["width"] <= size["width"]


def wait_revealed(device) -> dict:
    """Wait until the dealer's turn has been shown to its end."""
    device.page.wait_for_function("() => !document.documentElement.classList.contains('tw-revealing')")
    device.table.wait_settled()
    return board(device)


def assert_card_by_card(frames: list[str], turn: str, values: list[str]) -> None:
    """The page showed the dealer's turn ``turn`` one step at a time: the hidden card turned
    over, then each card taken, every value in order, and the results only after the last."""
    mine = [frame for frame in frames if frame.startswith(turn + " ")]
    steps = len(values)
    expected = [f"{turn} 1 ? revealing"] + [f"{turn} {2 + step} {value} revealing" for step, value in enumerate(values)]
    expected.append(f"{turn} {1 + steps} {values[-1]}")
    assert mine == expected, mine


class Table:
    """Every device of one table (players and a spectator), kept in step."""

    def __init__(self, players: dict, spectator=None):
        self.players = players  # name -> Device
        self.spectator = spectator
        self.devices = list(players.values()) + ([spectator] if spectator else [])
        for one in self.devices:
            one.mark_document()

    def sync(self) -> dict:
        """Every page shows the newest version by itself (live update, no reload)."""
        version = max(one.table.version() for one in self.devices)
        boards = {}
        for one in self.devices:
            one.table.wait_for_version(version)
            boards[one.name] = wait_revealed(one)
            assert boards[one.name]["sameDocument"], f"{one.name}'s page was reloaded to show a change"
            assert boards[one.name]["version"] == version
        return boards

    def assert_hidden(self, code: str) -> None:
        for one in self.devices:
            where = pages.card_naming(one.page.content(), code, DECK)
            assert where is None, f"{one.name}'s page shows the hidden {code}: {where}"


def test_two_devices_play_three_rounds_live_then_statistics_and_rematch(live_server, device, screenshot):
    ann = device("Ann's laptop", reduced_motion="no-preference")
    ann.context.add_init_script(DEALER_FRAMES_JS)
    slug = set_up(ann, [("Ann", "here"), ("Bob", "own")], "two_players.deck", rounds=3)
    code = ann.page.locator("#table .seats-panel code.join-code").inner_text().strip()
    bob = device("Bob's phone", viewport=dict(PHONE), is_mobile=True, has_touch=True, reduced_motion="reduce")
    bob.context.add_init_script(DEALER_FRAMES_JS)
    bob.join_with_code(code, "Bob")
    fan = device("spectator")
    fan.goto(f"/games/{slug}/watch")
    table = Table({"Ann": ann, "Bob": bob}, spectator=fan)
    boards = table.sync()
    assert boards[ann.name]["myTurn"] and not boards[bob.name]["myTurn"]
    assert [hand["cards"] for hand in boards[fan.name]["hands"]] == [["TS", "8H"], ["5C", "4D"]]
    assert boards[fan.name]["dealer"] == ["6C"] and boards[fan.name]["faceDown"] == 1
    assert not any(label in ("Hit", "Stay") for label in boards[fan.name]["buttons"])
    screenshot(ann.page, "host-table")
    reloaded = False

    for number in (1, 2, 3):
        hidden = TWO_PLAYERS_HIDDEN[number]
        for _ in range(TURN_CAP):
            boards = table.sync()
            name = next((name for name, one in table.players.items() if boards[one.name]["myTurn"]), None)
            if name is None:
                break  # the round is over
            table.assert_hidden(hidden)
            one = table.players[name]
            if name == "Bob":
                assert in_view(bob.page, "#table button[value=hit]") and in_view(bob.page, "#table button[value=stay]")
                assert in_view(bob.page, "#table .tw-hand.me") and in_view(bob.page, "#table .tw-dealer")
                if not reloaded:  # a reload shows the same table, Bob's turn still
                    screenshot(bob.page, "bob-turn", sizes=PHONE_ONLY)
                    before = boards[bob.name]
                    bob.page.reload()
                    after = board(bob)
                    assert after["version"] == before["version"] and after["myTurn"] and after["hands"] == before["hands"]
                    bob.mark_document()
                    reloaded = True
            action = "Hit" if boards[one.name]["myValue"] <= 16 else "Stay"
            one.table.press(action)
        boards = table.sync()
        for one in table.devices:  # the hidden card is turned over, everybody sees the same round
            assert hidden in boards[one.name]["dealer"], one.name
            assert boards[one.name]["hands"] == boards[ann.name]["hands"]
        values = re.search(r'data-values="([\d ]+)"', ann.page.content()).group(1).split()
        assert_card_by_card(board(ann)["frames"], f"{slug}/{number}", values)
        bob_frames = [frame for frame in board(bob)["frames"] if frame.startswith(f"{slug}/{number} ")]
        assert bob_frames == [f"{slug}/{number} {1 + len(values)} {values[-1]}"]  # reduced motion: at once
        if number == 2:
            assert [hand["result"] for hand in boards[ann.name]["hands"]] == ["lost", "tied"]
            assert re.search(r"Bob and the dealer tie round 2 at \d+\.", boards[ann.name]["summary"])
            screenshot(bob.page, "round-2-over", sizes=PHONE_ONLY)
            screenshot(ann.page, "round-2-over", sizes=(("desktop", {"width": 1280, "height": 900}),))
        if number < 3:
            dealer = bob if number == 1 else ann  # anyone at the table deals the next round
            assert f"Deal round {number + 1}" in boards[dealer.name]["buttons"]
            assert not [label for label in boards[fan.name]["buttons"] if label.startswith("Deal")]
            dealer.table.press(f"Deal round {number + 1}")

    boards = table.sync()
    for one in table.devices:
        assert "Game over" in boards[one.name]["status"]
    results = boards[ann.name]["results"]
    assert "The dealer wins round 3 against Ann: " in results and "The dealer wins the table." in results
    assert "Ann 1 2 0" in results and "Bob 1 1 1" in results
    screenshot(ann.page, "game-over")
    screenshot(bob.page, "game-over", sizes=PHONE_ONLY)

    ann.page.get_by_role("link", name="View scores").first.click()
    ann.page.get_by_role("heading", name="Scores").wait_for()
    stats = ann.page.locator("#stats-twentyone + div table")
    headers = [re.sub(r"\s*[↑↓]$", "", cell.strip()) for cell in stats.locator("thead th").all_inner_texts()]
    assert headers == ["Name", "Rounds won", "Rounds lost", "Rounds tied"]  # (sorted by name: its arrow aside)
    rows = [re.sub(r"\s+", " ", row).strip() for row in stats.locator("tbody tr").all_inner_texts()]
    assert rows == ["Ann 1 2 0", "Bob 1 1 1"]
    screenshot(ann.page, "scores")

    ann.goto(f"/games/{slug}")
    ann.page.locator("#table").wait_for()
    ann.table.button("Rematch with the same players").click()
    ann.page.locator("#table .tw-moves").wait_for()  # Ann's turn again, in the new game
    assert ann.page.url != live_server.url + f"/games/{slug}"
    bob.table.button("Go to the rematch").click()
    bob.page.wait_for_url(re.compile(r"/games/(?!%s)" % slug))
    rematch = board(bob)
    assert [hand["cards"] for hand in rematch["hands"]] == [["TS", "8H"], ["5C", "4D"]] and not rematch["myTurn"]
    for one in (ann, bob, fan):
        problems = one.unexpected_problems()
        assert problems == [], "\n".join(problems)


def test_one_player_at_phone_width_plays_four_rounds(live_server, device, screenshot):
    """natural_after_hit.deck: round 1 a natural 21 after a hit (the dealer's KD never shown),
    round 2 the dealer's 20 wins (shown card by card: paused midway, then a tap shows the rest),
    round 3 the dealer goes bust, round 4 Zoe goes bust (the dealer's 4D never shown)."""
    zoe = device("Zoe's phone", viewport=dict(PHONE), is_mobile=True, has_touch=True, reduced_motion="no-preference")
    zoe.context.add_init_script(DEALER_FRAMES_JS)
    page = zoe.page
    page.clock.install()  # time runs as usual until the test pauses it
    slug = set_up(zoe, [("Zoe", "here")], "natural_after_hit.deck", rounds=4)
    zoe.mark_document()
    start = board(zoe)
    assert start["myTurn"] and start["hands"][0]["cards"] == ["9S", "7H"] and start["hands"][0]["value"] == 16
    assert start["dealer"] == ["5C"] and start["faceDown"] == 1
    for selector in ("#table button[value=hit]", "#table button[value=stay]", "#table .tw-hand", "#table .tw-dealer"):
        assert in_view(page, selector), selector
    screenshot(page, "round-1")

    # Round 1 (T3.3): 5D makes 21, the round is won at once; KD stays face down, in no page.
    zoe.table.press("Hit")
    snap = wait_revealed(zoe)
    assert snap["hands"][0]["result"] == "won" and snap["faceDown"] == 1 and "KD" not in snap["dealer"]
    assert "Zoe has 21 and wins round 1!" in snap["summary"]  # the player by name, one player too
    assert not names_card(page.content(), "KD")
    assert in_view(page, "#table .summary button[value=deal]")
    screenshot(page, "round-1-natural")
    zoe.table.press("Deal round 2")
    assert not names_card(page.content(), "KD")

    # Round 2: Zoe stays on 18; the dealer turns over 3S (13), takes 7C (20). The clock is paused:
    # the page shows the turn-over step by step as the clock moves, and a tap shows the rest.
    assert board(zoe)["myValue"] == 18 and not names_card(page.content(), "3S")
    before = zoe.table.version()
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    zoe.table.button("Stay").click()
    page.locator(f"html.tw-revealing #table[data-version='{before + 1}']").wait_for()
    snap = board(zoe)
    assert snap["frames"][-1] == f"{slug}/2 1 ? revealing"  # the hidden card shows its back first
    for waiting in (".summary", ".tw-hand .tw-badge", ".tw-hand .tw-tally", ".log ol"):  # the results wait
        assert page.locator(f"#table {waiting}").is_hidden(), waiting
    page.clock.run_for(600)
    assert board(zoe)["frames"][-1] == f"{slug}/2 2 13 revealing"  # 3S turned over
    page.wait_for_timeout(400)  # (real time: the card's small movement ends, for the picture)
    screenshot(page, "dealer-turning", sizes=PHONE_ONLY)
    page.locator("#table .tw-dealer").tap()
    snap = board(zoe)
    assert snap["frames"][-1] == f"{slug}/2 3 20" and not snap["revealing"]  # 7C, at once
    page.clock.resume()
    snap = wait_revealed(zoe)
    assert snap["dealer"] == ["TS", "3S", "7C"] and snap["hands"][0]["result"] == "lost"
    assert "The dealer wins round 2 against Zoe: 20 against 18." in snap["summary"]
    screenshot(page, "round-2-lost", sizes=PHONE_ONLY)
    zoe.table.press("Deal round 3")

    # Round 3 at the page's own pace: Zoe hits 4H (19), stays; the dealer's JC, JH: bust.
    zoe.table.press("Hit")
    zoe.table.press("Stay")
    snap = wait_revealed(zoe)
    assert_card_by_card(snap["frames"], f"{slug}/3", ["13", "23"])
    assert snap["hands"][0]["result"] == "won"
    assert "The dealer went bust with 23. Zoe wins round 3: 19 against the dealer's 23." in snap["summary"]
    zoe.table.press("Deal round 4")

    # Round 4 (T3.2): a hit to 26 is bust; the dealer's 4D stays face down.
    assert not names_card(page.content(), "4D")
    zoe.table.press("Hit")
    snap = wait_revealed(zoe)
    assert not names_card(page.content(), "4D") and snap["faceDown"] == 1
    assert "Game over" in snap["status"] and "Zoe went bust: the dealer wins round 4 against Zoe." in snap["results"]
    assert "Zoe 2 2 0" in snap["results"] and "The dealer wins the table." in snap["results"]
    screenshot(page, "game-over")
    assert zoe.same_document()
    problems = zoe.unexpected_problems()
    assert problems == [], "\n".join(problems)


def test_five_players_and_the_buttons_fit_one_phone_screen(live_server, device, screenshot):
    """T7.1's largest table at 390x844: the dealer, five hands and Hit/Stay without scrolling."""
    ann = device("Ann's phone", viewport=dict(PHONE), is_mobile=True, has_touch=True)
    set_up(ann, [("Ann", "here"), ("AI", "here"), ("AI", "here"), ("AI", "here"), ("AI", "here")],
           "two_players.deck", rounds=1)
    snap = board(ann)
    assert snap["myTurn"] and [hand["name"] for hand in snap["hands"]] == ["Ann", "AI 2", "AI 3", "AI 4", "AI 5"]
    for selector in ("#table .tw-dealer", "#table .tw-hand:last-child", "#table button[value=hit]",
                     "#table button[value=stay]"):
        assert in_view(ann.page, selector), selector
    screenshot(ann.page, "five-players")
    assert ann.unexpected_problems() == []


def test_without_javascript_the_table_works_and_the_dealer_s_turn_is_shown_at_once(live_server, device, screenshot):
    """Plain form posts (303, then the table): dealer_busts.deck, Zoe stays on 18, the dealer
    turns over 9D (15), takes KC (25): every card is on the page at once."""
    plain = device("no-JS browser", java_script_enabled=False, viewport=dict(PHONE))
    page = plain.page
    slug = set_up(plain, [("Zoe", "here")], "dealer_busts.deck", rounds=2)
    with page.expect_navigation(), page.expect_request("**/act") as posted:
        plain.table.button("Stay").click()
    assert posted.value.response().status == 303 and page.url.endswith(f"/games/{slug}")
    dealer = page.locator("#table .tw-dealer [data-card]").evaluate_all("cards => cards.map(c => c.dataset.card)")
    assert dealer == ["6C", "9D", "KC"] and page.locator("#table .tw-dealer .tw-value").inner_text() == "25"
    assert page.locator("#table .tw-hand .tw-badge").inner_text() == "won"
    assert page.get_by_text(re.compile(r"^The dealer went bust with 25\. Zoe wins round 1: \d+ against the dealer's 25\.$")
                            ).first.is_visible()
    screenshot(page, "no-javascript", sizes=PHONE_ONLY)
    with page.expect_navigation():
        plain.table.button("Deal round 2").click()
    assert plain.table.button("Hit").is_visible() and page.locator("#table .tw-dealer .card.back").count() == 1
    assert plain.problems == []
