"""In a real browser: a whole stacked-deck hot-seat game with an AI seat, played through
the pages (hand-over screens, clicking and keyboard-selecting cards, the menu-word buttons, a
refused lay-down), every round summary to "Game over"; then the score table, scores.csv download
(R7.5), its re-import by the admin (preview, apply), and deck uploads (R2.2)."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from app.games.mason import MASON, Game, NextRound
from app.tables.decks import read_deck_file
from app.games.mason import GAME_OVER, ROUND_OVER
from app.games.mason.melds import Refusal, judge_lay_down
from app.games.mason.bot import play_computer_turn
from app.web.words import card_short
from support.browsing import button_words

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # a real browser and server: well over 5 s a test

ROOT = Path(__file__).resolve().parents[2]
DECK = "three_players.deck"
SEATS = [("Ann", "here"), ("Bob", "here"), ("AI", "here")]
HUMANS = ("Ann", "Bob")
TURN_CAP = 120  # the planner finishes this deck's game in about 55 human turns
HEADER = '"name","games won","games lost","best score"'


def me_of(snap: dict) -> str | None:
    mine = [p["name"] for p in snap["players"] if p["me"]]
    assert len(mine) <= 1, f"the page marks several seats as 'you': {mine}"
    return mine[0] if mine else None


def check_hot_seat_privacy(snap: dict, known: dict[str, set[str]]) -> None:
    """R4.4 on a shared screen: it never shows two hands at once, and no card of
    the other person's hand appears anywhere in the page (attributes or form values)."""
    assert snap["handForms"] <= 1, "two hands on one page"
    me = me_of(snap)
    if snap["hand"] is not None:
        assert me in HUMANS, f"a hand is shown but no seat is marked as 'you': {snap['status']}"
    shown = set(snap["allCards"]) | set(snap["cardInputs"]) | set(snap["codeAttributes"])
    for name, hand in known.items():
        if name != me:
            leaked = hand & shown
            assert not leaked, f"{name}'s hand cards {sorted(leaked)} are on the page while {me or 'nobody'} is shown"


def refusable_pair(game: Game, seat: int) -> tuple[list[str], str] | None:
    """Two cards of the hand that R6.3 refuses (no set, no place on own sets), with the reason."""
    hand = game.players[seat].hand
    for first in hand.cards:
        for second in hand.cards:
            if first.sort_key < second.sort_key:
                judgement = judge_lay_down([first, second], hand.laid_down)
                if isinstance(judgement, Refusal):
                    return [first.code, second.code], judgement.reason
    return None


def replay(actions: list[tuple[int, object]]) -> Game:
    """The same game in the rules module alone: the humans' recorded actions, the AI by R8."""
    game = Game.new([name for name, _ in SEATS], stacked_deck=read_deck_file(ROOT / "tests" / "decks" / DECK, MASON))
    pending = list(actions)
    while game.phase != GAME_OVER:
        if game.phase == ROUND_OVER:
            game.apply(None, NextRound())
        elif game.current_player.is_computer:
            list(play_computer_turn(game, game.turn))
        else:
            seat, action = pending.pop(0)
            assert seat == game.turn, (seat, game.turn, action)
            game.apply(seat, action)
    assert not pending
    return game


def test_hot_seat_stacked_game_with_ai_to_game_over_then_scores_csv_and_admin(
        live_server, device, screenshot, planner):
    """R4.2-R4.4, R5, R6.3 (refusal shown, hand unchanged), R7, R8 (AI on the server),
    R9.3 (round summaries, next round, results), then R7.4/R7.5 and admin imports and decks."""
    laptop = device("hot-seat laptop")
    page = laptop.page
    slug = laptop.start_game(SEATS, deck=DECK)
    assert page.url == f"{live_server.url}/games/{slug}"
    table = laptop.table
    seat_of = {name: number for number, (name, _) in enumerate(SEATS)}

    known: dict[str, set[str]] = {}  # each human's hand as last seen on their own turn
    recorded: list[tuple[int, object]] = []
    done: set[str] = set()
    summaries: list[str] = []
    draws = {"draw_stock": 0, "draw_discard": 0}
    human_turns = ai_turns = 0
    snap = table.snapshot()
    assert snap["status"].startswith("Round 1 of 3")

    while not snap["results"]:
        if snap["summary"]:
            known.clear()  # R7.1: once the round is over, every hand left is shown to everyone
        check_hot_seat_privacy(snap, known)
        if snap["summary"]:  # R9.3: a round summary, then the next round
            summaries.append(snap["summary"])
            assert snap["hand"] is None
            if "summary" not in done:
                screenshot(page, "round-summary")
                done.add("summary")
            number = int(re.search(r"Round (\d) is over", snap["summary"]).group(1))
            snap = table.press(f"Deal round {number + 1}", snap["version"])
            assert snap["status"].startswith(f"Round {number + 1} of 3"), snap["status"]
            known.clear()  # new hands were dealt (R4.2)
            continue

        if snap["handover"]:  # a hand-over screen names the player, shows no cards
            name = re.fullmatch(r"Pass the device to (\w+)", snap["handover"]).group(1)
            assert name in HUMANS and snap["hand"] is None and snap["handForms"] == 0
            public = {c for p in snap["players"] for s in p["sets"] for c in s["cards"]} | {snap["discardTop"]}
            assert set(snap["allCards"]) <= public, "a hand-over screen shows more than the sets and the discard top"
            if "handover" not in done:
                screenshot(page, "handover")
                done.add("handover")
            snap = table.press(f"I am {name}: show my hand", snap["version"])
            assert me_of(snap) == name and snap["hand"] and snap["myTurn"]
            check_hot_seat_privacy(snap, known)

        # -- one human turn: Menu D, then Menu E/F until the discard (R5) ----------------------
        human_turns += 1
        assert human_turns <= TURN_CAP, f"no game over after {TURN_CAP} human turns: the planner is stuck"
        me = me_of(snap)
        seat = seat_of[me]
        assert snap["myTurn"] and "draw a card" in snap["status"], snap["status"]
        assert snap["title"].startswith("\u25b6 Your turn"), snap["title"]
        # Menu D's words, without the terminal's numbers; the discard pile's card named as a card
        assert "Draw from stock pile" in snap["buttons"]
        assert f"Take the {card_short(MASON.deck.parse(snap['discardTop']))} from the discard pile" in snap["buttons"]
        known[me] = set(snap["hand"])
        choice = planner.next(slug)
        assert choice.seat == seat and choice.name in ("draw_stock", "draw_discard"), choice
        draw = button_words(choice.move)
        top = snap["discardTop"]
        snap = table.press(draw, snap["version"])
        draws[choice.name] += 1
        recorded.append((seat, MASON.action_from_dict(choice.action)))
        assert "play down cards or discard" in snap["status"] and snap["alert"] is None, snap
        assert "Play down cards" in snap["buttons"] and "Discard" in snap["buttons"]  # Menu E
        assert len(snap["hand"]) == len(known[me]) + 1
        if "discard" in draw:
            assert top in snap["hand"]
        known[me] = set(snap["hand"])
        check_hot_seat_privacy(snap, known)

        game = planner.state(slug)
        assert sorted(card.code for card in game.players[seat].hand.cards) == sorted(snap["hand"])
        if "refused" not in done and (pair := refusable_pair(game, seat)):
            codes, reason = pair  # R6.3 rule 3: refused with the reason; nothing moves
            table.select(codes)
            before = snap
            table.button("Play down cards").click()
            page.locator("#table [role=alert]").wait_for()
            table.wait_settled()
            snap = table.snapshot()
            assert reason in snap["alert"], (reason, snap["alert"])
            assert snap["hand"] == before["hand"] and snap["version"] == before["version"]
            assert "play down cards or discard" in snap["status"]
            screenshot(page, "refused-lay-down")
            for code in snap["checked"]:  # the refused cards stay selected: clear them
                table.card(code).click()
            done.add("refused")

        round_ended = False
        while (choice := planner.next(slug)).name == "lay_down":
            selection = choice.cards
            if "keyboard" not in done:  # Menu F by keyboard: focus a card, press Space
                table.checkbox(selection[0]).focus()
                page.keyboard.press("Space")
                assert table.checkbox(selection[0]).is_checked()
                done.add("keyboard")
            table.select(selection)
            if "table" not in done and snap["alert"] is None:  # (not with the refusal still shown)
                screenshot(page, "table-selecting")
                done.add("table")
            snap = table.press(button_words(choice.move), snap["version"])
            recorded.append((seat, MASON.action_from_dict(choice.action)))
            assert snap["alert"] is None, snap["alert"]
            laid = card_short(MASON.deck.parse(selection[0]))  # the log names the card as a card: 5C is 5♣
            assert any(line.startswith((f"{me} laid ", f"{me} added ")) and laid in line for line in snap["log"]), snap["log"]
            if snap["summary"] or snap["results"]:  # went out by laying down (R5.7)
                round_ended = True
                break
            known[me] = set(snap["hand"])
            check_hot_seat_privacy(snap, known)
        if round_ended:
            continue

        assert choice.name == "discard", choice
        code, = choice.cards
        table.select([code])
        known[me] = set(snap["hand"]) - {code}
        snap = table.press(button_words(choice.move), snap["version"])
        recorded.append((seat, MASON.action_from_dict(choice.action)))
        assert snap["alert"] is None, snap["alert"]
        if SEATS[(seat + 1) % len(SEATS)][0] == "AI" and not snap["summary"]:
            # the AI played its turn on the server at once; the log says what it did
            after = snap["log"][snap["log"].index(f"{me} discarded the {card_short(MASON.deck.parse(code))}.") + 1:]
            assert any(line.startswith("AI ") for line in after), snap["log"]
            assert not any(line.startswith(human) for line in after for human in HUMANS), snap["log"]
            ai_turns += 1

    # -- game over (R7.3, R9.3): every hand left is shown (R7.1) ------------------------------------
    check_hot_seat_privacy(snap, {})
    assert "Game over" in snap["status"] and snap["results"].startswith("Game over")
    assert summaries == ["Round 1 is over", "Round 2 is over"]
    assert "refused" in done and "keyboard" in done and "handover" in done
    assert draws["draw_stock"] > 0 and draws["draw_discard"] > 0 and ai_turns > 0
    screenshot(page, "game-over")

    final = replay(recorded)  # the browser game is the rules module's game, AI moves included (R8.3)
    board = {row[0]: row for row in snap["scoreboard"]}
    assert set(board) == {"Ann", "Bob", "AI"}
    for player in final.view(None)["players"]:
        assert board[player["name"]][1:] == [str(p) for p in player["round_points"]] + [str(player["score"])]
    winners = {final.players[n].name for n in final.winners()}
    assert all(name in snap["results"].split(" with ")[0] for name in winners), snap["results"]

    # -- the score table (R7.4) and scores.csv (R7.5) -----------------------------------------------
    expected = {}
    for player in final.players:
        won = player.name in winners
        expected[player.name] = (str(int(won)), str(int(not won)), str(player.score) if won else "")
    page.get_by_role("link", name="View scores").first.click()
    page.get_by_role("heading", name="Scores", level=1).wait_for()
    rows = page.locator("table.score-table tbody tr").evaluate_all(
        "rows => rows.map(r => Array.from(r.querySelectorAll('th, td')).map(c => c.innerText.trim()))")
    assert {row[0]: tuple(row[1:]) for row in rows} == expected

    csv_text = download_scores(page)
    lines = csv_text.split("\n")
    assert csv_text.endswith("\n") and lines[0] == HEADER
    assert sorted(lines[1:-1]) == sorted(f'"{name}","{won}","{lost}","{best}"'
                                         for name, (won, lost, best) in expected.items())
    # the server's own copy, written in the background within moments
    for _ in range(100):
        kept = (live_server.instance / "scores.csv").read_text()
        if sorted(kept.splitlines()) == sorted(csv_text.splitlines()):
            break
        time.sleep(0.1)
    assert sorted(kept.splitlines()) == sorted(csv_text.splitlines())

    # -- the admin re-imports it, with one more row: preview, then apply -----------------------------
    laptop.goto("/admin/login")
    page.locator("#password").fill(live_server.admin_password)
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("heading", name="Admin", exact=True).wait_for()
    page.get_by_role("link", name="Import a scores.csv").click()
    incoming = csv_text + '"Zed","2","1","30"\n'
    page.locator("#scores-file").set_input_files(
        files=[{"name": "scores.csv", "mimeType": "text/csv", "buffer": incoming.encode()}])
    page.get_by_role("button", name="Preview").click()
    page.get_by_role("heading", name="What the import will change").wait_for()
    preview = page.locator("main").inner_text()
    assert "The file holds 4 rows; 3 of them are unchanged." in preview
    assert "Added (1)" in preview and "Zed: 2 won, 1 lost, best 30" in preview
    assert "Changed" not in preview and "Removed" not in preview
    assert "Zed" not in (live_server.instance / "scores.csv").read_text()  # nothing applied yet
    page.get_by_role("button", name="Apply the import").click()
    page.get_by_text("The scores were imported.").wait_for()
    assert page.locator("table.score-table tbody tr", has_text="Zed").inner_text().split() == ["Zed", "2", "1", "30"]
    assert sorted(download_scores(page).split("\n")) == sorted(incoming.split("\n"))

    # -- the admin uploads decks: a valid one is stored and previewed, an invalid one refused (R2.2) --
    page.get_by_role("link", name="Admin", exact=True).click()
    page.get_by_role("heading", name="Stacked decks").wait_for()
    codes = read_deck_file(ROOT / "tests" / "decks" / DECK, MASON)
    mine = [card.code for card in reversed(codes)]
    page.locator("#deck-file").set_input_files(
        files=[{"name": "My Deck.deck", "mimeType": "text/plain", "buffer": " ".join(mine).encode()}])
    page.get_by_role("button", name="Upload", exact=True).click()
    page.get_by_text("My_Deck.deck was checked and stored for Mason Rummy.").wait_for()
    preview = page.locator("article.deck-preview", has=page.locator("h3", has_text="My_Deck.deck"))
    seat_one = preview.locator(".deck-hand").first.locator("[data-card]").evaluate_all(
        "cards => cards.map(c => c.dataset.card)")
    assert seat_one == mine[:10]  # R2.3/R4.2: the first ten codes are seat 1's first hand
    assert (live_server.decks_folder / "My_Deck.deck").read_text().split() == mine
    screenshot(page, "admin-decks", sizes=(("desktop", {"width": 1280, "height": 900}),))

    bad = ROOT / "tests" / "data" / "decks" / "duplicate.deck"
    page.locator("#deck-file").set_input_files(str(bad))
    page.get_by_role("button", name="Upload", exact=True).click()
    alert = page.locator("main [role=alert]")
    alert.wait_for()
    assert re.search(r"The deck duplicate.deck for Mason Rummy was not stored: .*7H appears twice", alert.inner_text()), alert.inner_text()
    assert not (live_server.decks_folder / "duplicate.deck").exists()
    assert page.locator("article.deck-preview h3", has_text="duplicate.deck").count() == 0

    problems = laptop.unexpected_problems(422, 400)  # the refused lay-down and the refused deck
    assert problems == [], "\n".join(problems)  # no console errors or CSP violations on any page of the game


def download_scores(page) -> str:
    """The score page's Download link, as a real browser download."""
    if "/scores" not in page.url or "/scores.csv" in page.url:
        page.get_by_role("link", name="Scores", exact=True).click()
        page.get_by_role("heading", name="Scores", level=1).wait_for()
    with page.expect_download() as info:
        page.get_by_role("link", name="Download scores.csv").click()
    download = info.value
    assert download.suggested_filename == "scores.csv"
    return Path(download.path()).read_text()
