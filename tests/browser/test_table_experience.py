"""In a real browser (Debian chromium through Playwright, against the real server), at
phone size (390x844, touch) and desktop size (1280x800), with screenshots under
test-artifacts/screenshots/: the table as people feel it, for every game through the shared shell.

1. the hand and this turn's buttons stay on screen at 390x844 with 3 players; tapping a pile draws
2. a refusal shows next to the hand and buttons, inside the screen
3. a live update keeps the selected cards; after a refusal no card stays selected that cannot be
4. a tapped card does not stay raised; a raised card does not cover the row above; the deck picker
   offers tappable decks; Menu B says "New player"; no empty hand panel after going out
5. the computer's turn is shown step by step (skippable, at once with reduced motion); the discard
   pile says who discarded its top card
6. the whole game's log; every hand left at the end of a round
7. finished games listed, replayed forwards and backwards, exported and imported
8. the host abandons a game after confirming; the admin's deck delete asks first
9. a wrong join code typed on the home page says so
10. QR codes and codes at once; "Waiting for Hana to join"; the invite page updates when she joins
11. the AI stand-in banner with "I'm back"; the log says "AI for Finn"
12. without JavaScript, a waiting page reloads itself
13. focus after an action, arrow keys between cards
14. one stable live region, an h1, aria-current, piles read their label first
and an axe-core scan of Menu A, a table, the scores page and a replay: no serious or critical
violation.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from support.browsing import axe_scan, finished_game
from support.live import LiveServer

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2,
         "reduced_motion": "no-preference"}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}


# -- helpers -------------------------------------------------------------------------------------


def in_viewport(page, selector: str) -> bool:
    return page.evaluate("""(sel) => Array.from(document.querySelectorAll(sel)).every(e => {
        const r = e.getBoundingClientRect();
        return r.width > 0 && r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth;
    }) && document.querySelectorAll(sel).length > 0""", selector)


def finger_tap(page, locator) -> None:
    """Tap ``locator`` where a finger would: at its centre, as it is on the screen. Playwright's
    own ``tap`` of a raised (selected) card of the docked hand scrolls the window first, 500 px
    and more, where a finger's tap leaves the page where it is."""
    box = locator.bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def start_three_player_game(phone, deck: str = "three_players.deck") -> str:
    """Menu A, then the set-up form: the deck as a tappable choice, the seats Ann, AI, AI."""
    return phone.start_game([("Ann", "here"), ("AI", "here"), ("AI", "here")], deck=deck)


def wait_calm(page) -> None:
    """Until htmx has swapped and any paced steps have been shown."""
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling, .table.pacing')")


# -- the phone ---------------------------------------------------------------------------------


def computer_discard(planner, slug: str) -> str:
    """The card the computer player (R8.3) would discard for the seat to move."""
    from app.games.mason.bot import choose_computer_discard

    game = planner.state(slug)
    return choose_computer_discard(game, game.turn).code


def test_phone_play_messages_paced_turns_focus_and_live_region(live_server, device, screenshot, planner):
    """Items 1-6, 13, 14 at 390x844 with touch: Ann against two computer players."""
    phone = device("phone", **PHONE)
    page = phone.page
    problems = []
    start_three_player_game(phone)
    table = phone.table
    announcer = page.locator("#announcer")
    page.evaluate("() => { document.getElementById('announcer').__kept = true; }")

    # item 14: an h1, the current player marked, piles read their label before their card
    assert page.locator("h1").count() == 1 and page.locator("h1").inner_text() == "Mason Rummy"
    assert page.locator(".player[aria-current=true] .player-name").inner_text() == "Ann"
    assert page.locator(".pile").nth(1).evaluate("p => p.firstElementChild.className") == "pile-label"

    # item 1: the whole hand and the draw buttons are on screen at once, without scrolling
    snap = table.snapshot()
    assert len(snap["hand"]) == 10 and snap["myTurn"]
    assert page.evaluate("() => window.scrollY") == 0
    assert in_viewport(page, "#table .hand-form label.card") and in_viewport(page, "#table .dock .actions button")
    screenshot(page, "turn-start", sizes=(("phone", PHONE["viewport"]),))

    # item 1: tapping the stock pile draws from it; item 13: focus goes to the first card
    before = snap["version"]
    phone.mark_document()
    page.locator("button.pile", has_text="Stock pile").tap()
    snap = table.wait_past(before)
    wait_calm(page)
    assert snap["sameDocument"], "the pile's button reloaded the page instead of swapping the table"
    assert len(snap["hand"]) == 11 and "play down cards or discard" in snap["status"]
    assert page.evaluate("() => document.activeElement.name") == "cards", page.evaluate("() => [document.activeElement.outerHTML.slice(0, 80), document.getElementById('table').dataset.focus, document.getElementById('table').dataset.steps]")
    assert page.evaluate("() => document.activeElement.value") == snap["hand"][0]
    # item 13: arrow keys move between the cards
    page.keyboard.press("ArrowRight")
    assert page.evaluate("() => document.activeElement.value") == snap["hand"][1]
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("() => document.activeElement.value") == snap["hand"][0]
    assert in_viewport(page, "#table .hand-form label.card") and in_viewport(page, "#table .dock .actions button")
    assert page.evaluate("() => window.scrollY") == 0

    # item 4: a tapped card does not stay raised (no hover on touch); a raised card keeps clear of
    # the row above in a two-row hand
    first = table.card(snap["hand"][0])
    first.tap()
    finger_tap(page, first)
    page.wait_for_timeout(400)  # (the card's transition)
    assert page.evaluate("() => window.scrollY") == 0  # (taking a card back moves nothing)
    assert first.evaluate("c => getComputedStyle(c).transform") in ("none", "matrix(1, 0, 0, 1, 0, 0)")
    tops = page.evaluate("() => Array.from(document.querySelectorAll('#table .hand-form label.card'), c => c.getBoundingClientRect().top)")
    rows = sorted(set(round(top) for top in tops))
    assert len(rows) >= 2, "11 cards make two rows at 390 px"
    second_row = [code for code, top in zip(snap["hand"], tops) if round(top) == rows[1]]
    table.card(second_row[0]).tap()
    page.wait_for_timeout(400)
    gap = page.evaluate("""(code) => {
        const cards = Array.from(document.querySelectorAll('#table .hand-form label.card'));
        const raised = cards.find(c => c.dataset.card === code).getBoundingClientRect();
        const above = cards.filter(c => c.getBoundingClientRect().top < raised.top - 20);
        return Math.min(...above.map(c => raised.top - c.getBoundingClientRect().bottom));
    }""", second_row[0])
    assert gap >= 0, f"the raised card covers the row above by {-gap:.0f} px"
    finger_tap(page, table.card(second_row[0]))

    # item 2: a refused lay-down says why next to the hand, inside the screen
    pair = None
    slug = page.url.rsplit("/", 1)[1]
    game = planner.state(slug)
    hand = game.players[game.turn].hand
    from app.games.mason.melds import Refusal, judge_lay_down
    for a in hand.cards:
        for b in hand.cards:
            if a.sort_key < b.sort_key and isinstance(judge_lay_down([a, b], hand.laid_down), Refusal):
                pair = [a.code, b.code]
                break
        if pair:
            break
    table.select(pair)
    table.button("Play down cards").tap()
    page.locator("#table [role=alert]").wait_for()
    wait_calm(page)
    assert in_viewport(page, "#table [role=alert]"), "the refusal is not on screen"
    assert page.locator("#table .dock [role=alert]").count() == 1
    # item 3: the refused cards stay selected (they still can be)
    assert sorted(table.checked()) == sorted(pair)
    screenshot(page, "refused", sizes=(("phone", PHONE["viewport"]),))
    for code in pair:
        table.card(code).tap()

    # item 5: the discard; the computers' turns are shown step by step, then Ann's turn again
    code = computer_discard(planner, slug)
    table.select([code])
    page.evaluate("""() => { window.__paceTexts = []; new MutationObserver(() => {
        const t = document.querySelector('.pace-text'); if (t && t.textContent && window.__paceTexts.at(-1) !== t.textContent) window.__paceTexts.push(t.textContent);
    }).observe(document.body, {subtree: true, childList: true, characterData: true}); }""")
    version = table.version()
    table.button("Discard").tap()
    page.locator(".pace").wait_for()
    screenshot(page, "paced-computer-turn", sizes=(("phone", PHONE["viewport"]),))
    wait_calm(page)
    texts = [t for t in page.evaluate("() => window.__paceTexts") if t != "\u2026"]
    assert texts[0] == "AI 2 drew from the stock pile." or texts[0].startswith("AI 2 took"), texts
    assert any(t.startswith("AI 2 discarded") for t in texts) and any(t.startswith("AI 3 discarded") for t in texts), texts
    snap = table.snapshot()
    assert snap["version"] > version and snap["myTurn"]
    # item 5: the discard pile says who discarded its top card
    assert page.locator(".pile-by").inner_text() == "top from AI 3"
    # item 13: at the start of the turn focus is on the draw buttons
    assert page.evaluate("() => document.activeElement.closest('.actions') !== null")
    # item 14: the same live region, told whose turn it is
    assert page.evaluate("() => document.getElementById('announcer').__kept === true")
    assert announcer.inner_text().startswith("Your turn, Ann")
    screenshot(page, "after-computer-turns", sizes=(("phone", PHONE["viewport"]),))

    # item 5: Skip shows the table at once
    table.press("Draw from stock pile")
    wait_calm(page)
    snap = table.snapshot()
    table.select([computer_discard(planner, slug)])
    table.button("Discard").tap()
    page.locator(".pace-skip").tap()
    page.wait_for_function("() => !document.querySelector('.pace')")
    assert table.snapshot()["myTurn"]

    # items 6: the log panel links to the whole game's log
    page.locator(".log a", has_text="The whole game's log").wait_for(state="attached")
    problems += phone.unexpected_problems(422)
    assert problems == [], "\n".join(problems)


def test_reduced_motion_shows_the_table_at_once(live_server, device):
    """Item 5: with prefers-reduced-motion, no steps: the table as it is now, at once."""
    phone = device("calm phone", **{**PHONE, "reduced_motion": "reduce"})
    page = phone.page
    start_three_player_game(phone)
    table = phone.table
    page.evaluate("() => { window.__paced = false; new MutationObserver(() => { if (document.querySelector('.pace')) window.__paced = true; }).observe(document.body, {subtree: true, childList: true}); }")
    snap = table.press("Draw from stock pile")
    table.select([snap["hand"][-1]])
    snap = table.press("Discard", snap["version"])
    wait_calm(page)
    assert snap["myTurn"] and page.evaluate("() => window.__paced") is False


def test_a_button_pressed_just_as_a_live_update_lands_still_posts_in_the_page(live_server, device):
    """A table swapped in (here by a live refresh) is wired up at once: a button pressed in the
    first moment after the swap posts through htmx, in the page, not as a plain form that loads
    the whole page again."""
    laptop = device("laptop")
    page = laptop.page
    slug = laptop.set_up_game("21 against the dealer", [("Zoe", "here")], "two_players.deck", rounds=2)
    laptop.table.wait_settled()
    laptop.mark_document()
    version = int(page.locator("#table").get_attribute("data-version"))
    page.evaluate("""(url) => {
      document.addEventListener('htmx:afterSwap', () => {
        // the next task after the swap: as soon as a finger or a key could press it
        setTimeout(() => document.querySelector('#table button[value=hit]').click(), 0);
      }, {once: true});
      htmx.ajax('GET', url, {target: '#table', swap: 'outerHTML'});
    }""", f"/games/{slug}/table")
    page.wait_for_function("""(v) => { const t = document.getElementById('table');
      return !!t && Number(t.dataset.version) > v && !document.querySelector('.htmx-request, .htmx-settling'); }""",
                           arg=version)
    page.wait_for_load_state()
    assert laptop.same_document(), "the press loaded the whole page again"
    assert laptop.unexpected_problems() == []


def test_round_end_shows_every_hand_left_and_no_empty_hand_panel(live_server, device, screenshot):
    """Items 4 and 6: after going out, no empty "Your hand" panel; the summary shows every hand."""
    phone = device("phone", **PHONE)
    page = phone.page
    phone.start_game([("Ann", "here"), ("AI", "here")], deck="quick_out.deck")
    table = phone.table
    snap = table.press("Draw from stock pile")  # QP: Ann lays everything down (tests/decks/README.md)
    table.select(["2C", "3C", "4C", "5C"])
    snap = table.press("Play down cards", snap["version"])
    table.select(["7D", "7H", "7S"])
    snap = table.press("Play down cards", snap["version"])
    table.select(["9P", "TP", "JP", "QP"])
    snap = table.press("Play down cards", snap["version"])
    wait_calm(page)
    assert snap["summary"] == "Round 1 is over"
    assert page.locator(".hand-form").count() == 0 and "Your hand" not in page.locator("#table").inner_text()
    owners = page.locator(".summary .hands-left .hand-owner").all_inner_texts()
    assert owners == ["Ann", "AI"]
    assert page.locator(".summary .hands-left li").nth(1).locator("[data-card]").count() == 10
    assert in_viewport(page, ".summary button")  # the next deal, without scrolling
    screenshot(page, "round-over")


# -- own devices, desktop --------------------------------------------------------------------------


def test_join_invites_selection_standin_abandon_and_no_javascript(database_url, decks_folder, tmp_path, browser,
                                                                   screenshot):
    """Items 3, 8-12 on desktops (1280x800): Ann hosts, Hana joins on her own device."""
    server = LiveServer(tmp_path / "live-instance", database_url, decks_folder, env={"IDLE_SECONDS": "0"})
    server.start()
    contexts = []
    try:
        def device(name, **options):
            context = browser.new_context(**{**DESKTOP, **options})
            context.set_default_timeout(20_000)
            contexts.append(context)
            return context.new_page()

        ann = device("host")
        ann.goto(server.url + "/menus/mason")
        ann.get_by_role("button", name=re.compile("Play 2-player game with stacked deck$")).click()
        ann.locator("input[name=deck][value='ai_showcase.deck']").check()  # the one set-up form
        for number, (name, where) in enumerate([("Ann", "here"), ("Hana", "own")]):
            ann.locator(f"input[name=device{number}][value={where}]").check()
            ann.locator(f"#name{number}").fill(name)
        ann.get_by_role("button", name="Start the game").click()
        ann.locator("#table").wait_for()
        slug = ann.url.rsplit("/", 1)[1]

        # item 10: the QR code and the code at once, and the table says who it waits for
        invite = ann.locator(".invites .invite")
        assert "Waiting for Hana to join." in invite.inner_text()
        code = invite.locator(".invite-code").inner_text().strip()
        qr = invite.locator("img.qr")
        qr.evaluate("img => img.decode()")  # (wait for the image to load; it fails if it cannot)
        assert qr.evaluate("img => img.complete && img.naturalWidth > 0")
        screenshot(ann, "host-waiting-for-hana")

        # item 3: Ann selects cards; Hana's joining (a live update) keeps them selected
        ann.locator("#table .dock button", has_text="Draw from stock pile").click()
        ann.wait_for_function("() => document.querySelector('#table').dataset.myTurn === 'yes' && document.querySelectorAll('#table input[name=cards]:not([disabled])').length > 0")
        hand = ann.locator("#table input[name=cards]").evaluate_all("inputs => inputs.map(i => i.value)")
        for card in hand[:2]:
            ann.locator(f"#table label.card[data-card='{card}']").click()

        # item 9: a wrong code typed on the home page says so
        hana = device("hana")
        hana.goto(server.url + "/")
        hana.get_by_label("Joining a game on your own device? Code:").fill("ZZZZZZ")
        hana.get_by_role("button", name="Join", exact=True).click()
        assert "No open seat has that code" in hana.locator("[role=alert]").inner_text()

        # item 10: the invite page updates when she joins
        host_invite = device("host invite", storage_state=ann.context.storage_state())
        host_invite.goto(f"{server.url}/games/{slug}/seats/1/invite")
        host_invite.wait_for_function("() => window.htmx !== undefined")
        host_invite.wait_for_timeout(500)  # its event stream connects
        hana.get_by_label("The code shown on the host's screen").fill(code)
        hana.get_by_role("button", name="Join", exact=True).click()
        hana.locator("#table").wait_for()
        host_invite.get_by_role("heading", name="Hana has joined").wait_for()
        ann.wait_for_function("() => !document.querySelector('.invites')")
        checked = ann.locator("#table input[name=cards]:checked").evaluate_all("inputs => inputs.map(i => i.value)")
        assert sorted(checked) == sorted(hand[:2]), "the live update cleared Ann's selection"

        # item 12: without JavaScript, Hana's waiting page reloads itself
        nojs = device("no javascript", java_script_enabled=False, storage_state=hana.context.storage_state())
        nojs.goto(f"{server.url}/games/{slug}")
        assert nojs.locator("noscript meta[http-equiv=refresh], meta[http-equiv=refresh]").count() >= 1
        assert nojs.get_by_role("link", name="reload it now").is_visible()
        screenshot(nojs, "waiting-without-javascript", sizes=(("desktop", DESKTOP["viewport"]),))

        # Ann discards; now it is Hana's turn. Item 11: the host lets the AI stand in for her
        ann.locator(f"#table label.card[data-card='{hand[0]}']").click()
        ann.locator("#table .dock button", has_text="Discard").click()
        ann.wait_for_function("() => document.querySelector('#table').dataset.myTurn === 'no'")
        ann.get_by_role("button", name="idle: let the AI play for Hana").click()
        ann.wait_for_function("() => document.querySelector('#table').dataset.myTurn === 'yes'")
        hana.get_by_text("The computer is playing for you, Hana.").wait_for()
        hana.locator(".log .badge", has_text="AI for Hana").first.wait_for()
        screenshot(hana, "standin")
        # item 8: the host abandons the game, after a confirmation; the confirmation she opened
        # stays open while another device's action updates her table
        ann.locator("summary", has_text="Abandon this game").click()
        version = ann.locator("#table").get_attribute("data-version")
        hana.get_by_role("button", name="I'm back: take my seat back").click()
        hana.wait_for_function("() => !document.querySelector('.banner.standin')")
        ann.wait_for_function(f"() => document.querySelector('#table').dataset.version !== '{version}'")
        assert ann.locator("#table details.confirm").evaluate("d => d.open"), "a live update closed the confirmation"
        screenshot(ann, "abandon-confirmation", sizes=(("desktop", DESKTOP["viewport"]),))
        ann.get_by_role("button", name="Yes, abandon this game").click()
        ann.get_by_text("This game was abandoned").wait_for()
        hana.locator("#table").get_by_text("The host abandoned this game").wait_for()  # live, on the other device
        ann.goto(server.url + "/")
        assert slug not in ann.content()

        # item 8: the admin's deck delete asks first
        admin = device("admin")
        admin.goto(server.url + "/admin/login")
        admin.locator("#password").fill(server.admin_password)
        admin.get_by_role("button", name="Log in").click()
        admin.get_by_role("heading", name="Stacked decks").wait_for()
        admin.locator("summary", has_text="Delete").first.click()
        admin.get_by_role("button", name=re.compile(r"^Yes, delete ")).first.wait_for()
    finally:
        for context in contexts:
            context.close()
        server.stop()


# -- finished games, replays, export and import; accessibility ------------------------------------


def test_finished_games_replay_export_import_and_accessibility(live_server, database_url, decks_folder, tmp_path,
                                                                device, screenshot):
    """Item 7 at both sizes, and the axe-core scans of Menu A, a table, the scores page and a replay."""
    slug = finished_game(database_url, decks_folder, tmp_path)
    violations = []
    laptop = device("laptop", **DESKTOP)
    page = laptop.page

    laptop.goto("/")
    violations += axe_scan(page, "the home page")
    page.get_by_role("link", name="Finished games: replays and exports").click()
    page.get_by_role("heading", name="Finished games").wait_for()
    row = page.locator(".finished-list li").first
    assert "Mason Rummy" in row.inner_text() and "won" in row.inner_text()
    screenshot(page, "finished-games")
    row.get_by_role("link", name="Replay").click()
    page.get_by_text("Replay: step 0 of").wait_for()
    total = int(re.search(r"step 0 of (\d+)", page.locator(".replay-where").inner_text()).group(1))
    assert total > 10
    page.get_by_role("link", name="Forward one step").click()
    page.get_by_text("Replay: step 1 of").wait_for()
    assert page.locator(".replay-what").inner_text().startswith("AI")
    page.keyboard.press("ArrowRight")
    page.get_by_text("Replay: step 2 of").wait_for()
    page.keyboard.press("ArrowLeft")
    page.get_by_text("Replay: step 1 of").wait_for()
    page.get_by_role("link", name="Back one step").click()
    page.get_by_text("Replay: step 0 of").wait_for()
    assert page.locator(".hand-form").count() == 0  # a spectator's view: no hand
    laptop.goto(f"/games/{slug}/replay?step={total // 2}")
    violations += axe_scan(page, "a replay")
    screenshot(page, "replay-middle")
    laptop.goto(f"/games/{slug}/replay?step={total}")
    assert "Game over" in page.locator("#table").inner_text()
    screenshot(page, "replay-end")

    with page.expect_download() as info:
        page.get_by_role("link", name="Export JSON").click()
    exported = json.loads(Path(info.value.path()).read_text())
    assert exported["game"] == "mason" and len(exported["actions"]) == total

    # the admin imports it: replayed through the rules, listed as imported
    laptop.goto("/admin/login")
    page.locator("#password").fill(live_server.admin_password)
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("heading", name="Stacked decks").wait_for()
    laptop.goto("/finished/import")
    tampered = dict(exported, actions=exported["actions"][:-1])
    page.locator("#game-file").set_input_files(files=[{"name": "g.json", "mimeType": "application/json",
                                                       "buffer": json.dumps(tampered).encode()}])
    page.get_by_role("button", name="Import").click()
    page.locator("[role=alert]").wait_for()  # (the job runner's verdict: the import's page looks again)
    assert "do not finish the game" in page.locator("[role=alert]").inner_text()
    laptop.goto("/finished/import")
    page.locator("#game-file").set_input_files(files=[{"name": "g.json", "mimeType": "application/json",
                                                       "buffer": json.dumps(exported).encode()}])
    page.get_by_role("button", name="Import").click()
    page.get_by_role("link", name="Open its replay").click()
    page.get_by_text("Replay: step 0 of").wait_for()
    laptop.goto("/finished")
    assert page.locator(".finished-list li", has_text="imported").count() == 1  # listed by when it was played

    laptop.goto("/scores")
    violations += axe_scan(page, "the scores page")

    # a table in play, on a phone
    phone = device("phone", **PHONE)
    start_three_player_game(phone)
    violations += axe_scan(phone.page, "a table (phone)")
    phone.goto(f"/games/{slug}/replay?step=3")
    screenshot(phone.page, "replay-phone", sizes=(("phone", PHONE["viewport"]),))
    violations += axe_scan(phone.page, "a replay (phone)")
    assert violations == [], "\n".join(violations)
    problems = laptop.unexpected_problems(422) + phone.unexpected_problems()
    assert problems == [], "\n".join(problems)
