"""The house's pages in Chromium at 390x844 (touch) and 1280x800: the home page's tiles, how to
play, the scores pages (long names, Classic Rummy's statistics), the host's release asked first
(a dialog with JavaScript, the table's confirmation step without), local times; axe-core scans
of each, screenshots in test-artifacts/screenshots, and no house page wider than a phone."""

from __future__ import annotations

import json
import re
from pathlib import Path

import sqlalchemy as sa
from playwright.sync_api import expect
from support.browsing import axe_scan, finished_game

from app.core import registry
from app.core.names import search_key
from app.core.protocol import ONE_FORM, SCORE_TABLE

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
LONG_NAME = "Maximiliana Überwaldner"  # 23 characters, no break in the first word
WIDTH_JS = "() => [document.documentElement.scrollWidth, document.body.scrollWidth]"


def seed_records(database_url: str) -> None:
    """Names long and short, with accents, in the score table and every game's statistics (the
    module's tests share a server and its database: a second seeding replaces the first's)."""
    engine = sa.create_engine(database_url)
    names = [LONG_NAME, "Zoë", "Sam", "Ann-Kathrin Schmidt-Wolf"]
    with engine.begin() as connection:
        for number, name in enumerate(names):
            for table in ("scores", "game_stats"):
                connection.execute(sa.text(f"DELETE FROM {table} WHERE name_key = :k"), {"k": name.casefold()})
            connection.execute(sa.text("INSERT INTO scores (name, name_key, search_key, won, lost, best) "
                                       "VALUES (:n, :k, :s, :w, :l, :b)"),
                               {"n": name, "k": name.casefold(), "s": search_key(name), "w": 100 + number,
                                "l": 20000 + number, "b": 123456})
            for definition in registry.games():
                if not definition.statistics:
                    continue
                figures = {stat.key: 1234567 + number for stat in definition.statistics}
                connection.execute(sa.text("INSERT INTO game_stats (game, name, name_key, search_key, figures) "
                                           "VALUES (:g, :n, :k, :s, :f)"),
                                   {"g": definition.key, "n": name, "k": name.casefold(), "s": search_key(name),
                                    "f": json.dumps(figures)})
    engine.dispose()


def record_games() -> list:
    return [definition for definition in registry.games()
            if definition.statistics or definition.score_keeping == SCORE_TABLE]


def house_pages() -> list[str]:
    pages = ["/", "/scores", "/scores?q=zoe", "/finished", "/join", "/admin/login"]
    pages += [f"/scores/{definition.key}" for definition in record_games()[1:]]
    pages += [f"/how-to-play/{definition.key}" for definition in registry.games()]
    pages += [f"/setup/{definition.key}" for definition in registry.games() if definition.setup_flow == ONE_FORM]
    return pages


def width_of(page) -> int:
    return max(page.evaluate(WIDTH_JS))


def test_home_tiles_guides_and_scores_at_both_sizes_with_axe(live_server, database_url, device, screenshot):
    seed_records(database_url)
    violations = []
    for label, options in (("phone", PHONE), ("laptop", DESKTOP)):
        one = device(label, **options)
        page = one.page
        one.goto("/")
        # (the tiles themselves, equal and within the screen: tests/browser/test_front_door.py)
        expect(page.locator("li.tile")).to_have_count(len(registry.games()))
        violations += axe_scan(page, f"home ({label})")
        screenshot(page, "home", sizes=((label, options["viewport"]),))

        page.get_by_role("link", name="How to play 21 against the dealer").click()
        page.get_by_role("heading", name="How to play 21 against the dealer").wait_for()
        assert "ace" in page.locator("article.guide").inner_text().lower()
        violations += axe_scan(page, f"a guide ({label})")
        screenshot(page, "guide", sizes=((label, options["viewport"]),))

        one.goto("/scores/rummy")
        page.locator("table.score-table").wait_for()
        assert LONG_NAME in page.locator("table.score-table").inner_text()
        assert width_of(page) <= options["viewport"]["width"]
        violations += axe_scan(page, f"Classic Rummy's statistics ({label})")
        screenshot(page, "scores-rummy", sizes=((label, options["viewport"]),))
        # search without the accent, then sort by a figure, by the form
        page.locator("#score-search").fill("zoe")
        page.get_by_role("button", name="Show").click()
        page.wait_for_url(re.compile(r"q=zoe"))
        assert page.locator("table.score-table tbody th").all_inner_texts() == ["Zoë"]
        one.goto("/scores")
        page.locator("#score-sort").select_option("lost")
        page.locator("#score-order").select_option("desc")
        page.get_by_role("button", name="Show").click()
        page.wait_for_url(re.compile(r"sort=lost"))
        assert page.locator("table.score-table tbody th").first.inner_text() == "Ann-Kathrin Schmidt-Wolf"
        violations += axe_scan(page, f"the score table ({label})")
        screenshot(page, "scores-mason", sizes=((label, options["viewport"]),))
        assert one.unexpected_problems() == []
    assert violations == [], "\n".join(violations)


def test_no_house_page_is_wider_than_a_phone(live_server, database_url, device):
    seed_records(database_url)
    phone = device("phone", **PHONE)
    wide = {}
    for path in house_pages():
        response = phone.goto(path)
        assert response.status == 200, path
        if width_of(phone.page) > 390:
            wide[path] = width_of(phone.page)
    # ...and the admin's pages
    phone.goto("/admin/login")
    phone.page.locator("#password").fill(live_server.admin_password)
    phone.page.get_by_role("button", name="Log in").click()
    phone.page.get_by_role("heading", name="Stacked decks").wait_for()
    for path in ("/admin", "/finished/import", "/admin/scores/import"):
        assert phone.goto(path).status == 200, path
        if width_of(phone.page) > 390:
            wide[path] = width_of(phone.page)
    assert wide == {}
    assert phone.unexpected_problems() == []


def own_device_game(device, options) -> tuple:
    host = device("host", **options)
    slug = host.start_game([("Ann", "here"), ("Bob", "own")], deck="quick_out.deck")
    host.page.locator("#table").wait_for()
    code = host.page.locator(".seats-panel code").first.inner_text().strip()
    bob = device("bob", **options)
    bob.goto("/join")
    bob.page.locator("input[name=code]").fill(code)
    bob.page.get_by_role("button", name="Join").click()
    bob.page.locator("#table").wait_for()
    host.goto(f"/games/{slug}")
    return host, bob, slug


def test_the_release_asks_in_a_dialog_and_is_undone(live_server, device, screenshot):
    violations = []
    for label, options in (("phone", PHONE), ("laptop", DESKTOP)):
        host, bob, slug = own_device_game(device, options)
        page = host.page
        release = page.get_by_role("button", name="release Bob's seat…")
        release.click()
        dialog = page.locator("dialog.confirm-dialog")
        expect(dialog).to_be_visible()
        assert "Release Bob's seat?" in dialog.inner_text()
        assert page.evaluate("() => document.activeElement.textContent") == "No, go back"
        violations += axe_scan(page, f"the release dialog ({label})")
        screenshot(page, "release-dialog", sizes=((label, options["viewport"]),))
        dialog.get_by_role("button", name="No, go back").click()
        expect(dialog).to_be_hidden()
        assert page.evaluate("() => document.activeElement.textContent.trim()") == "release Bob's seat…"
        assert "was released" not in page.locator("#table").inner_text()
        release.click()
        dialog.get_by_role("button", name="Yes, release Bob").click()
        expect(page.locator("#table [role=status]")).to_contain_text("Bob's seat was released")
        screenshot(page, "released", sizes=((label, options["viewport"]),))
        page.get_by_role("button", name=re.compile("undo the release")).click()
        expect(page.locator("#table [role=status]")).to_contain_text("Bob has their seat again.")
        bob.goto(f"/games/{slug}")
        assert "host released" not in bob.page.locator("#table").inner_text()
        # the same question as the table's confirmation step (what a browser without JavaScript gets)
        host.goto(f"/games/{slug}?release=1")
        expect(page.locator(".confirm-step")).to_contain_text("Release Bob's seat?")
        violations += axe_scan(page, f"the confirmation step ({label})")
        screenshot(page, "confirmation-step", sizes=((label, options["viewport"]),))
        assert host.unexpected_problems() == [] and bob.unexpected_problems() == []
    assert violations == [], "\n".join(violations)


def test_without_javascript_the_table_asks_and_times_say_utc(live_server, device, screenshot):
    host, _bob, slug = own_device_game(device, {**PHONE, "java_script_enabled": False})
    page = host.page
    page.get_by_role("button", name="release Bob's seat…").click()
    step = page.locator(".confirm-step")
    expect(step).to_contain_text("Release Bob's seat?")
    assert page.url.split("?")[0].endswith(f"/games/{slug}")  # never left on the address posted to
    screenshot(page, "confirmation-step-no-js", sizes=(("phone", PHONE["viewport"]),))
    assert width_of(page) <= 390
    step.get_by_role("link", name="No, go back").click()
    expect(page.locator(".confirm-step")).to_have_count(0)
    page.get_by_role("button", name="release Bob's seat…").click()
    page.get_by_role("button", name="Yes, release Bob").click()
    expect(page.locator("[role=status]")).to_contain_text("Bob's seat was released")
    assert not page.url.endswith("/release")


def test_times_show_in_the_browser_s_own_zone(live_server, database_url, decks_folder, tmp_path, device):


    finished_game(database_url, decks_folder, tmp_path)
    local = device("tokyo", timezone_id="Asia/Tokyo", **DESKTOP)
    local.goto("/finished")
    shown = local.page.locator("time.local-time").first
    expect(shown).to_have_attribute("data-local", "yes")
    stamp = shown.get_attribute("datetime")
    expected = local.page.evaluate("""(s) => new Date(s).toLocaleString(undefined, {day: "numeric", month: "short",
        year: "numeric", hour: "2-digit", minute: "2-digit"})""", stamp)
    assert shown.inner_text() == expected and "UTC" not in shown.inner_text()
    plain = device("plain", java_script_enabled=False, **DESKTOP)
    plain.goto("/finished")
    assert plain.page.locator("time.local-time").first.inner_text().endswith(" UTC")


def test_a_seat_played_by_the_computer_asks_its_strength_not_a_name(live_server, device, screenshot):
    """The set-up form's seat shows what its choice needs: a person's name, or the computer's
    strength (by the page's style alone: without JavaScript too)."""
    for label, options in (("phone", PHONE), ("laptop", DESKTOP), ("phone-no-js", {**PHONE, "java_script_enabled": False})):
        one = device(label, **options)
        page = one.page
        one.goto("/setup/rummy")
        name, strong = page.locator("#name1"), page.locator("input[name=strength1][value=strong]")
        expect(name).to_be_visible()
        expect(strong).to_be_hidden()
        page.locator("input[name=device1][value=computer]").check()
        expect(name).to_be_hidden()
        expect(strong).to_be_visible()
        expect(page.locator("#name0")).to_be_visible()
        strong.check()
        assert width_of(page) <= options["viewport"]["width"]
        if options.get("java_script_enabled", True):
            assert axe_scan(page, f"Classic Rummy's set-up ({label})") == []
        screenshot(page, "setup-rummy", sizes=((label, options["viewport"]),))
        assert one.unexpected_problems() == []


def test_mason_s_stacked_game_offers_decks_by_name_in_the_one_form(live_server, device, screenshot):
    """Menu A's stacked-deck option at both sizes, with JavaScript and without: the one set-up form
    with its decks named as players read them ("Quick out", never its file's name), and the game
    is set up with quick_out.deck. The deck prompt (R2.2) keeps its own route."""
    violations = []
    for label, options in (("phone", PHONE), ("laptop", DESKTOP), ("phone-no-js", {**PHONE, "java_script_enabled": False})):
        one = device(label, **options)
        page = one.page
        one.goto("/menus/mason")
        page.get_by_role("button", name=re.compile("Play 2-player game with stacked deck$")).click()
        decks = page.locator("#deck-choice")
        decks.wait_for()
        labels = [" ".join(text.split()) for text in decks.locator("label").all_inner_texts()]
        assert any(text.startswith("Quick out ") for text in labels) and not any(".deck" in text for text in labels)
        assert width_of(page) <= options["viewport"]["width"]
        if options.get("java_script_enabled", True):
            violations += axe_scan(page, f"Mason Rummy's stacked set-up ({label})")
        screenshot(page, "stacked-setup", sizes=((label, options["viewport"]),))
        page.locator("input[name=deck][value='quick_out.deck']").check()
        one.fill_seats([("Ann", "here"), ("AI", "here")])
        page.get_by_role("button", name="Start the game").click()
        page.locator("#table").wait_for()
        expect(page.locator("#table .board .badge.computer")).to_have_text("Computer (normal)")
        assert one.unexpected_problems() == []
    prompt = device("menus", **PHONE)
    prompt.goto("/menus/mason")
    prompt.page.get_by_role("button", name=re.compile("Play 2-player game with stacked deck$")).click()
    prompt.page.locator("#deck-choice").wait_for()
    prompt.goto("/setup/deck")  # the menus' own route: the deck prompt
    prompt.page.get_by_role("heading", name="Decks on this server").wait_for()
    assert violations == [], "\n".join(violations)


def test_without_javascript_a_refused_move_leads_back_and_a_late_one_says_the_game_is_over(live_server, device,
                                                                                          screenshot):
    """Plain forms at both sizes: a refused move lands on the table's own address (a reload
    posts nothing again) with its cards still ticked and the reason shown; a move sent from a page
    left open after the game ended says the game is over."""
    for label, options in (("phone", PHONE), ("laptop", DESKTOP)):
        plain = device(label, java_script_enabled=False, **options)
        page = plain.page
        slug = plain.start_game([("Ann", "here"), ("AI", "here")], deck="quick_out.deck")
        with page.expect_navigation():
            plain.table.button("Draw from stock pile").click()
        hand = plain.table.snapshot()["hand"]
        for card in hand[:2]:
            plain.table.card(card).click()
        with page.expect_navigation():
            page.locator("#table button[value=lay_down]").click()
        assert re.search(rf"/games/{slug}\?", page.url) and all(f"cards={card}" in page.url for card in hand[:2])
        alert = page.locator("#table [role=alert]")
        expect(alert).to_be_visible()
        assert all(plain.table.checkbox(card).is_checked() for card in hand[:2])
        assert width_of(page) <= options["viewport"]["width"]
        screenshot(page, "refused-no-js", sizes=((label, options["viewport"]),))
        assert page.reload().request.method == "GET"

        # 21 for one, one round: a second page of the same browser ends it; the first one's Hit comes late
        twentyone = page.context.new_page()
        plain.goto("/setup/twentyone")
        page.locator("#name0").fill("Ann")
        page.locator("#opt-rounds").fill("1")
        with page.expect_navigation():
            page.get_by_role("button", name="Start the game").click()
        table_address = page.url
        twentyone.goto(table_address)
        with twentyone.expect_navigation():
            twentyone.locator("#table").get_by_role("button", name="Stay").click()
        assert "Game over" in twentyone.locator("#table").inner_text()
        with page.expect_navigation():
            page.locator("#table").get_by_role("button", name="Hit").click()
        assert page.url == table_address
        expect(page.locator("#table [role=alert]")).to_have_text("This game is over, so nothing was done.")
        screenshot(page, "late-move-no-js", sizes=((label, options["viewport"]),))
        twentyone.close()
        assert plain.problems == []


def test_the_admin_s_deck_upload_keeps_its_game_and_an_import_leads_through_the_login(
        live_server, database_url, decks_folder, tmp_path, device, screenshot):
    """At both sizes: a refused deck upload names the file and the game and keeps the game chosen
    (the next try is checked against it); "Import an exported game" on the finished games' page
    leads through the login to the import itself; the same game imported twice is refused, with a
    link to the first; the finished games read "won, 12 points", not bare numbers."""
    over = finished_game(database_url, decks_folder, tmp_path)
    violations = []
    for label, options in (("phone", PHONE), ("laptop", DESKTOP)):
        one = device(label, **options)
        page = one.page
        one.goto("/finished")
        row = page.locator(".finished-list li", has=page.locator(f"a[href='/games/{over}/replay?step=0']"))
        assert re.search(r"AI 1 (won|lost), -?\d+ points?", row.inner_text()), row.inner_text()
        with page.expect_download() as info:
            row.get_by_role("link", name="Export").click()
        exported = Path(info.value.path()).read_bytes()
        page.get_by_role("link", name="Import an exported game").click()
        page.locator("#password").fill(live_server.admin_password)
        page.get_by_role("button", name="Log in").click()
        page.get_by_role("heading", name="Import an exported game").wait_for()
        assert page.url.endswith("/finished/import")
        page.locator("#game-file").set_input_files(
            files=[{"name": "game.json", "mimeType": "application/json", "buffer": exported}])
        page.get_by_role("button", name="Import").click()
        if label == "phone":  # the first import; the laptop's is the same game's second
            page.get_by_text("The game was imported").wait_for()  # (the job runner's verdict: the page looks again)
            page.get_by_role("link", name="Open its replay").click()
            page.get_by_text("Replay: step 0 of").wait_for()
            first = page.url.split("/")[4]
            one.goto("/finished/import")
            page.locator("#game-file").set_input_files(
                files=[{"name": "game.json", "mimeType": "application/json", "buffer": exported}])
            page.get_by_role("button", name="Import").click()
        alert = page.locator("[role=alert]")
        expect(alert).to_contain_text("game.json: This game was imported already")
        assert alert.get_by_role("link", name="Open its replay").get_attribute("href") == f"/games/{first}/replay?step=0"
        assert width_of(page) <= options["viewport"]["width"]
        violations += axe_scan(page, f"a second import ({label})")
        screenshot(page, "import-twice", sizes=((label, options["viewport"]),))

        one.goto("/admin")
        page.locator("#deck-game").select_option("rummy")
        page.locator("#deck-file").set_input_files(
            files=[{"name": "short.deck", "mimeType": "text/plain", "buffer": b"AS 2S\n"}])
        page.get_by_role("button", name="Upload", exact=True).click()
        alert = page.locator("main [role=alert]")
        expect(alert).to_contain_text("The deck short.deck for Classic Rummy was not stored: ")
        expect(page.locator("#deck-game")).to_have_value("rummy")
        assert width_of(page) <= options["viewport"]["width"]
        violations += axe_scan(page, f"a refused upload ({label})")
        screenshot(page, "refused-upload", sizes=((label, options["viewport"]),))
        assert one.unexpected_problems(400, 409) == [], "\n".join(one.unexpected_problems(400, 409))
    assert violations == [], "\n".join(violations)
