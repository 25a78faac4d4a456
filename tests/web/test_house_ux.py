"""The house as players meet it: every page in players' words (no rule numbers), how to play each
game, moves and host controls that ask first, plain forms that never leave the browser on the
address they posted to, the home page's tiles, the set-up forms, and every game's statistics
searched, sorted, paginated and downloaded."""

from __future__ import annotations

import ast
import csv
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
from support.games import admin_login, import_file, play_game, text, upload
from support.web import Page, table_rows

from app import store
from app.core import registry
from app.core.protocol import ONE_FORM
from app.extensions import db
from app.store.models import GameStat, ScoreEntry
from app.records import statistics

ROOT = Path(__file__).resolve().parents[2]
# A rule book's citation as players must never read it: "(C3.3)", "(S3.2, S3.4)", "S2.4: ...",
# "(default 100, C5.3)".
CITATION = re.compile(r"\(\s*[CRSTP]\d+(?:\.\d+)*(?:\s*[,;]\s*[CRSTP]?\d+(?:\.\d+)*)*\s*\)|\b[CRSTP]\d+(?:\.\d+)+:"
                      r"|[,;]\s*[CRSTP]\d+(?:\.\d+)*\s*\)")
# In text as shown (a page, a --help), any rule number with a point in it ("see C5.3") is one too; in
# the source such a string may be data never shown (a refusal's rule, kept for tests).
SHOWN_CITATION = re.compile(CITATION.pattern + r"|\b[CRSTP]\d+\.\d+\b")
MENU_A_WORDS = ["View scores", "Play 2-player game", "Play 3-player game",
                "Play 2-player game with stacked deck", "Play 3-player game with stacked deck", "Quit"]


# -- no rule numbers on screen ---------------------------------------------------------------------------------


def docstring_nodes(tree: ast.AST) -> set[int]:
    """The string constants that are docstrings or bare expressions (comments in all but name)."""
    return {id(node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}


def test_no_string_the_web_app_or_a_terminal_can_show_cites_a_rule_number():
    """Every string literal of the app that is not a docstring (messages, log lines, option help,
    labels, the terminal games' prompts and help) and every template outside its comments. (The
    flask commands' docstrings are their help: the test of the commands' help reads those.)"""
    found = []
    for path in sorted((ROOT / "app").rglob("*.py")):
        tree = ast.parse(path.read_text())
        skip = docstring_nodes(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip \
                    and CITATION.search(node.value):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value[:80]}")
    for folder in (ROOT / "templates", ROOT / "tests" / "sample_game" / "templates"):
        for path in sorted(folder.rglob("*.html")):
            shown = re.sub(r"\{#.*?#\}", "", path.read_text(), flags=re.S)
            found.extend(f"{path.relative_to(ROOT)}: {match.group(0)}" for match in CITATION.finditer(shown))
    assert found == []


def terminal_programs() -> list[list[str]]:
    """Every terminal program players or admins start, as its arguments after ``python -m``:
    each registered game's own, Mason Rummy's original name, the Seahaven solver and the simulator."""
    programs = [[f"app.games.{definition.key}"] for definition in registry.games()]
    return programs + [["app.terminal"], ["app.games.seahaven", "solve"], ["app.simulate"]]


@pytest.mark.parametrize("program", terminal_programs(), ids=" ".join)
def test_a_terminal_program_s_help_reads_without_rule_numbers(program):
    shown = subprocess.run([sys.executable, "-m", *program, "--help"], cwd=ROOT, capture_output=True, text=True,
                           timeout=60, check=True).stdout
    assert shown.startswith("usage: python -m ") and "--help" in shown
    assert not SHOWN_CITATION.search(shown), SHOWN_CITATION.search(shown).group(0)


def every_command(group: click.Group, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = []
    for name, command in sorted(group.commands.items()):
        found.append((*path, name))
        if isinstance(command, click.Group):
            found += every_command(command, (*path, name))
    return found


def test_the_flask_commands_help_reads_without_rule_numbers(app):
    """The admin's commands (``flask --app wsgi scores export`` ...): each one's --help, and the
    list of them as ``flask --help`` shows it (a group's first line)."""
    runner = app.test_cli_runner()
    commands = every_command(app.cli)
    assert ("scores", "export") in commands and ("deck", "check") in commands
    for command in [(), *commands]:
        result = runner.invoke(args=[*command, "--help"])
        assert result.exit_code == 0, (command, result.output)
        assert not SHOWN_CITATION.search(result.output), (command, SHOWN_CITATION.search(result.output).group(0))


def test_the_citation_pattern_finds_what_players_complained_of():
    assert all(CITATION.search(words) for words in ("you may not discard it (C3.3).", "S2.4: the deal",
                                                   "a cell holds one card (S3.4)", "(R3.2, R3.4)",
                                                   "the target score (default 100, C5.3)", "against the dealer (T6)"))
    ordinary = ("21 against the dealer", "Take 3H", "Round 2 (of 5)", "(default 100, 10 rounds)", "Card Table 1.1.0",
                "move TC (the ten of clubs)", "t2c T C")
    assert not any(SHOWN_CITATION.search(words) for words in ordinary)
    assert SHOWN_CITATION.search("the deal follows S2.4 exactly") and not CITATION.search("S3.2")


def test_set_up_pages_and_guides_read_without_rule_numbers(player):
    for definition in registry.games():
        pages = [f"/how-to-play/{definition.key}"]
        if definition.setup_flow == ONE_FORM:
            pages.append(f"/setup/{definition.key}")
        for address in pages:
            shown = " ".join(Page(text(player.get(address))).visible_text)
            assert not SHOWN_CITATION.search(shown), (address, SHOWN_CITATION.search(shown).group(0))


# -- how to play -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", [definition.key for definition in registry.games()])
def test_every_game_has_its_guide_rendered_from_its_own_file(player, key):
    definition = registry.get(key)
    source = ROOT / "templates" / "games" / key / "_how_to_play.html"
    assert source.exists()
    response = player.get(f"/how-to-play/{key}")
    assert response.status_code == 200
    page = Page(text(response))
    assert page.texts("h1") == [f"How to play {definition.name}"]
    assert "has no guide yet" not in text(response)
    first_heading = re.search(r"<h2>(.*?)</h2>", re.sub(r"\{#.*?#\}", "", source.read_text(), flags=re.S)).group(1)
    assert f"<h2>{first_heading}</h2>" in text(response)  # the game's own file, not a copy


def test_the_guides_answer_what_surprised_players(player):
    """21's ace always counts 1 (T1.2); Points Rummy says what a pure sequence is (P3.1)."""
    def read(address: str) -> str:
        return " ".join("".join(Page(text(player.get(address))).visible_text).split())

    assert "An ace is always worth 1, never 11." in read("/how-to-play/twentyone")
    points = read("/how-to-play/points")
    assert "A pure sequence: 3 or more cards of one suit in a row with no joker" in points


def test_the_guides_are_linked_from_set_up_home_and_the_table_and_lead_back(player):
    home = text(player.get("/"))
    for definition in registry.games():
        assert f'href="/how-to-play/{definition.key}"' in home
        if definition.setup_flow == ONE_FORM:
            assert f'href="/how-to-play/{definition.key}?back=/setup/{definition.key}"' in text(
                player.get(f"/setup/{definition.key}"))
    slug = player.start_game(["Ann", "AI"], deck="quick_out.deck")
    table = player.table(slug)
    link = f"/how-to-play/mason?back=/games/{slug}"
    assert f'href="{link}"' in table.html
    guide = Page(text(player.get(link)))
    assert any(element.get("href") == f"/games/{slug}" for element in guide.find_all("a")), "a way back to the table"
    # ...and only back to this site
    for elsewhere in ("//evil.example/", "https://evil.example/", "/\\evil.example"):
        html = text(player.get(f"/how-to-play/mason?back={elsewhere}"))
        assert "evil.example" not in html
    assert player.get("/how-to-play/nosuchgame").status_code == 404


def test_mason_s_set_up_links_its_guide_at_the_deck_prompt(player):
    response = player.post("/menus/mason", {"choice": "4"})  # Menu A option 4: a stacked deck to choose
    deck_page = text(player.get(response.headers["Location"]))
    assert 'href="/how-to-play/mason?back=' in deck_page


# -- asking first: the host's release --------------------------------------------------------------------------


def words(response) -> str:
    """What a page says (its visible text)."""
    return " ".join(Page(text(response)).visible_text)


def seat_holder(app, slug: str, number: int) -> str | None:
    with app.app_context():
        return store.find_game(slug).seats[number].token_hash


def joined(make_player):
    host = make_player()
    slug = host.start_game(["Ann", "Bob"], deck="quick_out.deck", devices=["here", "own"])
    code = host.table(slug).join_codes[0]
    bob = make_player()
    assert bob.post("/join", {"code": code}).status_code == 303
    return host, bob, slug


def test_the_release_asks_first_without_javascript_and_can_be_undone(app, make_player):
    host, bob, slug = joined(make_player)
    held = seat_holder(app, slug, 1)
    table = host.table(slug)
    release = [form for form in table.forms if form["action"].endswith("/seats/1/release")]
    assert len(release) == 1
    button = next(b for b in table.find_all("button") if b.text.startswith("release Bob"))
    assert "Release Bob's seat?" in button.get("data-confirm") and button.get("data-confirm-yes") == "Yes, release Bob"
    # the release comes after the board and the dock in the page, so after them in the Tab order
    assert table.html.index("/seats/1/release") > table.html.index('class="dock')

    # a plain post (no JavaScript to ask) is answered with the table's confirmation step; nothing is done
    asked = host.followed(host.post(f"/games/{slug}/seats/1/release", {}), to=f"/games/{slug}")
    page = Page(text(asked))
    step = page.find("section", cls="confirm-step")
    assert step is not None and "Release Bob's seat?" in step.text and "undo" in step.text
    yes = [form for form in page.forms if form["action"] == f"/games/{slug}/seats/1/release"
           and form["inputs"].get("confirmed") == ["1"]]
    assert len(yes) == 1 and page.has_button("Yes, release Bob")
    assert any(a.get("href") == f"/games/{slug}" and a.text == "No, go back" for a in page.find_all("a"))
    assert seat_holder(app, slug, 1) == held and bob.table(slug).seat == 1

    # yes: released, said so, with the undo at hand
    done = host.followed(host.post(f"/games/{slug}/seats/1/release", {"confirmed": "1"}), to=f"/games/{slug}")
    assert "Bob's seat was released" in words(done)
    assert seat_holder(app, slug, 1) is None and bob.table(slug).seat is None
    assert Page(text(done)).posts_ending("/seats/1/restore")
    # the undo gives Bob the seat back, his old browser plays on, and the new code is dead
    new_code = host.table(slug).join_codes[0]
    restored = host.followed(host.post(f"/games/{slug}/seats/1/restore", {}), to=f"/games/{slug}")
    assert "Bob has their seat again." in words(restored)
    assert seat_holder(app, slug, 1) == held and bob.table(slug).seat == 1
    assert make_player().post("/join", {"code": new_code}).status_code == 404
    # ...only once, and only by the host
    assert bob.post(f"/games/{slug}/seats/1/restore", {}, htmx=True).status_code == 403
    assert host.post(f"/games/{slug}/seats/1/restore", {}, htmx=True).status_code == 409


def test_no_undo_once_somebody_took_the_released_seat(app, make_player):
    host, bob, slug = joined(make_player)
    assert host.post(f"/games/{slug}/seats/1/release", {"confirmed": "1"}, htmx=True).status_code == 200
    carl = make_player()
    assert carl.post("/join", {"code": host.table(slug).join_codes[0]}).status_code == 303
    assert not host.table(slug).posts_ending("/seats/1/restore")
    refused = host.post(f"/games/{slug}/seats/1/restore", {}, htmx=True)
    assert refused.status_code == 409 and "cannot be given back" in Page(text(refused)).alerts[0]
    assert carl.table(slug).seat == 1 and bob.table(slug).seat is None


def test_the_release_confirmation_with_htmx_is_the_table_fragment_asking(app, make_player):
    host, _bob, slug = joined(make_player)
    response = host.post(f"/games/{slug}/seats/1/release", {}, htmx=True)
    assert response.status_code == 200 and "Release Bob's seat?" in words(response)
    assert 'data-focus="confirm"' in text(response) and seat_holder(app, slug, 1) is not None


# -- asking first: a game's move (the sample game's Pass asks) ---------------------------------------------------


def test_a_move_that_asks_first_is_not_made_until_answered_yes(app, player, sample_game):
    slug = player.set_up(sample_game.key, ["Ann", "AI"], limit=15, deck="")
    page = player.table(slug)
    button = next(b for b in page.find_all("button") if b.get("value") == "pass")
    assert button.get("data-confirm") == "Pass? If everybody still in passes, the game ends."
    version = page.version
    # htmx without the answer: the table asks, nothing done
    asked = player.act(slug, "pass")
    assert asked.status_code == 200 and player.state(slug)[1] == version
    assert "If everybody still in passes" in Page(text(asked)).find("section", cls="confirm-step").text
    # a plain form: back to the table, which asks (its yes form carries the whole move)
    step = player.followed(player.act(slug, "pass", htmx=False), to=f"/games/{slug}")
    yes = [form for form in Page(text(step)).forms if form["inputs"].get("confirmed") == ["1"]]
    assert len(yes) == 1 and yes[0]["inputs"]["action"] == ["pass"] and yes[0]["inputs"]["version"] == [str(version)]
    assert player.state(slug)[1] == version
    # going back asks nothing
    assert Page(text(player.get(f"/games/{slug}"))).find("section", cls="confirm-step") is None
    # yes: made
    fields = {name: values[0] for name, values in yes[0]["inputs"].items()}
    made = player.post(yes[0]["action"], fields)
    assert made.status_code == 303 and player.state(slug)[1] > version
    assert "Ann passes." in text(player.get(f"/games/{slug}"))


# -- plain forms: never left on the address they posted to ------------------------------------------------------


def test_a_form_posted_after_the_game_ended_says_the_game_is_over(player, sample_game):
    slug = player.set_up(sample_game.key, ["Ann", "AI"], limit=15, deck="")
    stale = player.table(slug)
    while not player.table(slug).game_over:
        assert player.act(slug, "pass", confirmed=True).status_code == 200
    for htmx in (True, False):
        response = player.act(slug, "draw", version=stale.version, seat=0, htmx=htmx)
        if not htmx:
            assert response.status_code == 303 and response.headers["Location"] == f"/games/{slug}"
            response = player.get(response.headers["Location"])
        else:
            assert response.status_code == 409
        assert Page(text(response)).alerts == ["This game is over, so nothing was done."]
    assert Page(text(player.get(f"/games/{slug}"))).alerts == []  # said once, not on every reload


def test_a_refused_plain_form_leads_back_with_its_cards_still_selected(player):
    slug = player.start_game(["Ann", "AI"], deck="quick_out.deck")
    assert player.act(slug, "draw_stock").status_code == 200
    hand = player.table(slug).hand
    response = player.act(slug, "lay_down", hand[:2], htmx=False)
    assert response.status_code == 303
    location = response.headers["Location"]
    assert location.startswith(f"/games/{slug}?") and all(f"cards={card}" in location for card in hand[:2])
    assert player.get(f"/games/{slug}/act").status_code == 405  # (where the browser no longer is)


# -- the admin's uploads and imports ---------------------------------------------------------------------------


def test_admin_links_the_game_import_and_the_same_game_imported_twice_is_refused(app, player, job_runner):
    slug = player.start_game(["Doris", "AI"], deck="quick_out.deck")
    play_game(player, slug)
    admin_login(player)
    assert 'href="/finished/import"' in text(player.get("/admin"))
    exported = player.get(f"/games/{slug}/export.json").get_data()
    first = import_file(player, job_runner, exported)
    assert first.status == 303 and first.slug is not None, first.alerts
    imported = first.slug
    again = upload(player, "/finished/import", "game", "game.json", exported)
    assert again.status_code == 409
    message = Page(text(again)).alerts[0]
    assert message.startswith("game.json: This game was imported already")
    assert f'href="/games/{imported}/replay?step=0"' in text(again)
    # the same game laid out differently (another export's spacing and times) is the same game
    data = json.loads(exported)
    data["finished_at"] = "2020-01-01T00:00:00Z"
    assert upload(player, "/finished/import", "game", "other.json", json.dumps(data, indent=2)).status_code == 409
    listed = text(player.get("/finished"))
    assert listed.count(f"/games/{imported}/replay") == 1 and listed.count("imported") == 1


def test_a_refused_deck_upload_keeps_its_game_and_names_file_and_game(player):
    admin_login(player)
    response = upload(player, "/admin/decks", "deck", "short.deck", "AS\n2S\n", game="rummy")
    assert response.status_code == 400
    assert Page(text(response)).alerts[0].startswith("The deck short.deck for Classic Rummy was not stored: ")
    assert '<option value="rummy" selected>' in text(response)


# -- set-up forms ----------------------------------------------------------------------------------------------


def test_set_up_forms_keep_radios_with_their_words_and_name_decks_readably(player):
    html = text(player.get("/setup/rummy"))
    page = Page(html)
    choices = page.find_all("fieldset", cls="played-by")
    assert choices
    for fieldset in choices:
        labels = fieldset.find_all("label")
        assert [" ".join(label.text.split()) for label in labels] == [
            "A person on this device", "A person on their own device (they join with a code)", "The computer"]
        assert all(label.find_all("input") and label.find_all("span") for label in labels)  # one box, words inside
        assert fieldset.find_all("legend")
    deck = page.find("fieldset", cls="deck-choice")
    labels = [" ".join(label.text.split()) for label in deck.find_all("label")]
    assert "Void hand a stacked deck: the same cards in the same order every time" in labels
    assert "Shuffled a fresh shuffle every time" in labels
    assert not [label for label in labels if ".deck" in label]  # players read a deck's name, not its file
    assert 'aria-describedby="help-rummy_bonus"' in html and 'id="help-rummy_bonus"' in html


def test_the_admin_s_deck_list_names_decks_readably_and_deletes_by_file(player):
    admin_login(player)
    page = Page(text(player.get("/admin")))
    headings = [" ".join(h.text.split()) for h in page.find_all("h3")]
    assert "Classic Rummy: Void hand void_hand.deck" in headings and "Mason Rummy: AI showcase ai_showcase.deck" in headings
    assert any(form["action"] == "/admin/decks/void_hand.deck/delete" and form["inputs"]["game"] == ["rummy"]
               for form in page.forms)


def test_a_computer_seat_never_plays_on_its_own_device(app, player):
    slug = player.set_up("rummy", ["Ann", "AI"], devices=["here", "own"], target=100)
    with app.app_context():
        seats = store.find_game(slug).seats
        assert [(seat.is_ai, seat.device, seat.join_code) for seat in seats] == [(False, "here", None),
                                                                                 (True, "here", None)]
    # the form offers the computer as a seat's own choice, beside the two devices a person plays on
    page = Page(text(player.get("/setup/rummy")))
    assert [radio.get("value") for radio in page.find_all("input", name="device1")] == ["here", "own", "computer"]


# -- home ------------------------------------------------------------------------------------------------------


def test_home_shows_every_game_as_a_tile_and_no_menu(player):
    """(The tiles themselves: tests/web/test_front_door.py.)"""
    page = Page(text(player.get("/")))
    assert len(page.find_all("li", cls="tile")) == len(registry.games())
    assert not [button for name, _value, button in page.buttons if name == "choice"]
    assert "Menu A" not in page.html


# -- scores ----------------------------------------------------------------------------------------------------


def add_statistics(app, key: str, rows: dict[str, dict]) -> None:
    from app.core.names import search_key

    with app.app_context():
        for name, figures in rows.items():
            db.session.add(GameStat(game=key, name=name, name_key=name.casefold(), search_key=search_key(name),
                                    figures=json.dumps(figures)))
        db.session.commit()


def test_zoe_finds_zoe_with_its_accent_in_the_score_table_and_every_game_s_statistics(app, player):
    with app.app_context():
        from app.core.names import search_key

        for name in ("Zoë", "ZOE", "Zed"):
            db.session.add(ScoreEntry(name=name, name_key=name.casefold(), search_key=search_key(name), won=1, lost=0))
        db.session.commit()
    add_statistics(app, "twentyone", {"Zoë": {"games_played": 1}, "Chloé": {"games_played": 2}})
    assert sorted(row[0] for row in table_rows(text(player.get("/scores?q=zoe")))) == ["ZOE", "Zoë"]
    assert [row[0] for row in table_rows(text(player.get("/scores/twentyone?q=ZOE")))] == ["Zoë"]
    assert [row[0] for row in table_rows(text(player.get("/scores/twentyone?q=chloe")))] == ["Chloé"]
    assert "No name contains" in text(player.get("/scores/twentyone?q=xyz"))


def test_a_ratio_is_shown_as_a_percentage_sorted_by_the_database_and_written_to_the_csv(app, player):
    """Seahaven's win rate is kept as two figures (won, played) and worked out when shown: the
    page sorts by it in SQL (names without games last), shows it as a percentage and the CSV file
    holds its value."""
    add_statistics(app, "seahaven", {"Ann": {"played": 4, "won": 1}, "Bob": {"played": 2, "won": 2},
                                     "Cy": {"played": 3, "won": 0}, "Dee": {}})
    shown = table_rows(text(player.get("/scores/seahaven?sort=win_rate&order=desc")))
    assert [(row[0], row[3]) for row in shown] == [("Bob", "100%"), ("Ann", "25%"), ("Cy", "0%"), ("Dee", "")]
    rising = table_rows(text(player.get("/scores/seahaven?sort=win_rate")))
    assert [row[0] for row in rising] == ["Cy", "Ann", "Bob", "Dee"]
    table = list(csv.reader(io.StringIO(player.get("/scores/seahaven/statistics.csv").get_data(as_text=True))))
    rate = table[0].index("win rate")
    assert {row[0]: row[rate] for row in table[1:]} == {"Ann": "0.25", "Bob": "1.0", "Cy": "0.0", "Dee": ""}


def test_every_game_s_statistics_are_sorted_paginated_and_downloadable(app, player):
    definition = registry.get("twentyone")
    figure = definition.statistics[0].key
    rows = {f"Player {number:03d}": {figure: number % 7} for number in range(120)}
    rows["=cmd"] = {figure: 99}
    add_statistics(app, "twentyone", rows)
    first = text(player.get(f"/scores/twentyone?sort={figure}&order=desc"))
    shown = table_rows(first)
    assert len(shown) == 50 and shown[0] == ("=cmd", "99", *[""] * (len(definition.statistics) - 1))
    figures = [int(row[1]) for row in shown[1:]]
    assert figures == sorted(figures, reverse=True)
    assert f'href="/scores/twentyone?sort={figure}&amp;order=desc&amp;page=2"' in first
    third = table_rows(text(player.get(f"/scores/twentyone?sort={figure}&order=desc&page=3")))
    assert len(third) == 121 - 100
    # the CSV: a header, a row a name in name order, a spreadsheet formula kept as text
    response = player.get("/scores/twentyone/statistics.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert 'filename="twentyone-statistics.csv"' in response.headers["Content-Disposition"]
    table = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert table[0] == statistics.csv_header(definition)
    assert len(table) == 122 and table[1][0] == "'=cmd" and table[2][:2] == ["Player 000", "0"]
    assert player.get("/scores/nosuchgame").status_code == 404
    assert player.get("/scores/mason/statistics.csv").status_code == 404  # Mason's file is scores.csv (R7.5)
    assert 'href="/scores/twentyone/statistics.csv"' in first


def test_every_game_that_keeps_records_has_a_tab_on_the_scores_page(player):
    html = text(player.get("/scores"))
    nav = Page(html).find("nav", cls="game-tabs")
    assert nav is not None
    names = [a.text for a in nav.find_all("a")]
    assert names[0] == "Mason Rummy" and len(names) == len([g for g in registry.games()
                                                             if g.score_keeping == "score table" or g.statistics])


# -- local times -----------------------------------------------------------------------------------------------


def test_times_are_shown_in_utc_said_so_for_the_browser_to_make_local(player):
    slug = player.start_game(["Doris", "AI"], deck="quick_out.deck")
    play_game(player, slug)
    html = text(player.get("/finished"))
    times = re.findall(r'<time class="local-time" datetime="(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)">([^<]+)</time>', html)
    assert times and all(shown.endswith(" UTC") for _stamp, shown in times)
    admin_login(player)
    player.start_game(["Ann", "AI"], deck="quick_out.deck")
    assert re.search(r'since <time class="local-time" datetime="[^"]+Z">[^<]+ UTC</time>', text(player.get("/admin")))


def test_view_scores_after_a_game_leads_to_that_game_s_scores(player, sample_game):
    slug = player.set_up(sample_game.key, ["Ann", "AI"], limit=15, deck="")
    while not player.table(slug).game_over:
        assert player.act(slug, "pass", confirmed=True).status_code == 200
    view_scores = [a.get("href") for a in player.table(slug).find_all("a") if a.text == "View scores"]
    assert view_scores == [f"/scores/{sample_game.key}"]
    mason = player.start_game(["Doris", "AI"], deck="quick_out.deck")
    play_game(player, mason)
    assert [a.get("href") for a in player.table(mason).find_all("a") if a.text == "View scores"] == ["/scores"]
