"""A sixth game takes its own folder and one registry line: the sample game of the tests
(tests/sample_game, High card), registered by the ``sample_game`` fixture for each test here,
is on the home page, set up by the one set-up form, played to its end through the table's forms
with its board from its own templates, replayed, exported and imported, and counted on the scores
page; and nothing outside its folder (but the one line in tests/support/sample.py) names it.

The generic tests run for it too: tests/games/test_protocol_properties.py and
tests/games/test_boundaries.py take it as one of their games."""

from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

import pytest

from app import store
from app.tables import replays
from app.store.models import FINISHED
from sample_game import DECK
from support.games import admin_login, import_file
from support.pages import names_card
from support.sample import SAMPLE
from support.web import Page, database_dump

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_FOLDER = ROOT / "tests" / "sample_game"
KEY = SAMPLE.key
TURN_CAP = 80


@pytest.fixture
def watcher(make_player, sample_game):
    return make_player()


def set_up(player, names, **options) -> str:
    return player.set_up(KEY, names, **{"limit": 15, "deck": "", **options})


def hidden_codes(state, seat) -> set[str]:
    """The codes of the cards ``seat`` (None: a spectator) may not see now, from the zones."""
    return {card.code for card in state.hidden_from(seat)}


def assert_names_none(html: str, codes: set[str], where: str) -> None:
    named = sorted(code for code in codes if names_card(html, code, DECK))
    assert not named, f"{where} names {named}"


def play_to_the_end(player, watcher, slug) -> int:
    """Ann (seat 1) draws while her hand is worth 10 or less, by the table's buttons; the
    computer plays seat 2. Every page on the way shows the board from the game's own template
    and no card its reader may not see. Returns the number of Ann's moves."""
    for moves in range(TURN_CAP):
        state, _version = player.state(slug)
        if state.is_over():
            return moves
        assert state.to_move() == 0, "the computer's turns play themselves"
        page = player.table(slug)
        assert 'class="felt hc-board"' in page.html  # the board of tests/sample_game/templates
        assert page.my_turn and page.seat == 0
        assert set(page.hand) == {card.id for card in state.hands[0]}
        for name, html in player.views(slug).items():
            assert_names_none(html, hidden_codes(state, 0), f"Ann's {name}")
        for name, html in watcher.watch_views(slug).items():
            assert_names_none(html, hidden_codes(state, None), f"the spectator's {name}")
        action = "draw" if page.has_button("Draw a card") and state.worth(0) <= 10 else "pass"
        response = player.act(slug, action, confirmed=True)
        assert response.status_code == 200, Page(response.get_data(as_text=True)).alerts
    raise AssertionError("the game did not end")


@pytest.fixture
def finished(player, watcher):
    slug = set_up(player, ["Ann", "AI"])
    play_to_the_end(player, watcher, slug)
    return slug


# -- the home page and the set-up form --------------------------------------------------------------


def test_the_home_page_lists_the_sixth_game(player, sample_game):
    html = player.get("/").get_data(as_text=True)
    assert f'href="/setup/{KEY}"' in html and sample_game.name in html and sample_game.summary in html


def test_without_the_registry_line_the_table_does_not_offer_it(player):
    assert f'href="/setup/{KEY}"' not in player.get("/").get_data(as_text=True)
    assert player.get(f"/setup/{KEY}").status_code == 404


def test_the_setup_form_offers_its_seats_and_its_option(player, sample_game):
    html = player.get(f"/setup/{KEY}").get_data(as_text=True)
    page = Page(html)
    assert re.findall(r'<option value="(\d)"', html) == ["2", "3", "4"]
    assert page.value("limit") == "15" and 'min="10" max="30"' in html
    assert page.inputs["deck"] == [""]  # shuffled: the game has no stacked decks folder
    three = Page(player.get(f"/setup/{KEY}?seats=3").get_data(as_text=True))
    assert {"name0", "name1", "name2"} <= set(three.inputs) and "name3" not in three.inputs


def test_a_refused_setup_says_why_and_creates_nothing(app, player, sample_game):
    before = database_dump(app)
    response = player.post(f"/setup/{KEY}", {"seats": "2", "name0": "Ann", "device0": "here", "name1": "Bob",
                                             "device1": "here", "limit": "31", "deck": ""})
    assert response.status_code == 422
    assert "Bust over: 31 is not between 10 and 30." in Page(response.get_data(as_text=True)).alerts
    assert database_dump(app) == before


def test_the_setup_form_starts_the_game_with_its_options(player, sample_game):
    slug = set_up(player, ["Ann", "Bob", "AI"], limit=20)
    state, version = player.state(slug)
    assert state.definition is sample_game and state.names == ["Ann", "Bob", "AI"]
    assert state.limit == 20 and version == 1 and [len(hand) for hand in state.hands] == [1, 1, 1]


# -- playing through the web ---------------------------------------------------------------------------


def test_a_game_is_played_to_the_end_through_the_table_forms(app, player, watcher, sample_game):
    slug = set_up(player, ["Ann", "AI"])
    assert play_to_the_end(player, watcher, slug) >= 1
    state, _version = player.state(slug)
    assert state.is_over() and not state.hidden_from(0) - set(state.stock)
    page = player.table(slug)
    assert page.game_over and 'class="hc-results"' in page.html  # the game's own results fragment
    for hand in state.hands:  # H5: every hand face up at the end
        assert {card.id for card in hand} <= set(page.cards)
    assert_names_none(page.html, {card.code for card in state.stock}, "the results")
    winners = [state.label(result.seat) for result in state.results() if result.won]
    assert all(label in page.html for label in winners)
    with app.app_context():
        record = store.find_game(slug)
        assert record.status == FINISHED and json.loads(record.results) == store.results_data(state)


def test_the_seat_not_to_move_is_refused_and_nothing_changes(player, sample_game):
    slug = set_up(player, ["Ann", "Bob"])
    before, version = player.state(slug)
    response = player.act(slug, "draw", seat=1, version=version)
    assert response.status_code == 409
    assert "It is Ann's turn." in Page(response.get_data(as_text=True)).alerts
    after, same = player.state(slug)
    assert same == version and after.to_dict() == before.to_dict()


def test_a_hot_seat_table_hands_the_device_over_and_shows_each_hand_to_its_seat(player, sample_game):
    slug = set_up(player, ["Ann", "Bob"])
    assert player.table(slug).has_button("I am Ann: show my hand")
    assert player.table_past_handover(slug).seat == 0
    assert player.act(slug, "pass", confirmed=True).status_code == 200
    page = player.table(slug)
    assert page.has_button("I am Bob: show my hand") and page.hand == []
    state, _version = player.state(slug)
    page = player.table_past_handover(slug)
    assert page.seat == 1 and set(page.hand) == {card.id for card in state.hands[1]}
    assert_names_none(page.html, hidden_codes(state, 1), "Bob's table")


# -- replay, export, import -------------------------------------------------------------------------------


def test_the_replay_shows_each_step_as_a_spectator_saw_it(app, player, finished):
    with app.app_context():
        total = len(replays.action_rows(store.find_game(finished)))
    for step in range(total + 1):
        html = player.get(f"/games/{finished}/replay?step={step}").get_data(as_text=True)
        assert f"step {step} of {total}" in html and 'class="felt hc-board"' in html
        with app.app_context():
            state, _made, _total = replays.state_at(store.find_game(finished), step)
        assert_names_none(html, hidden_codes(state, None), f"replay step {step}")
    assert 'class="hc-results"' in html


def test_the_export_imports_again_through_the_rules(app, player, finished, job_runner):
    answer = player.get(f"/games/{finished}/export.json")
    assert answer.status_code == 200
    data = json.loads(answer.get_data(as_text=True))
    original, _version = player.state(finished)
    assert data["game"] == KEY and data["game_name"] == "High card" and data["options"] == {"limit": 15}
    assert data["results"] == store.results_data(original) and data["actions"]
    admin_login(player)
    done = import_file(player, job_runner, json.dumps(data))
    assert done.status == 303 and done.slug is not None, done.alerts or done.body[:500]
    slug = done.slug
    imported, _version = player.state(slug)
    assert slug != finished and imported.to_dict() == original.to_dict()
    assert player.get(f"/games/{slug}/replay?step=1").status_code == 200
    listed = player.get("/finished").get_data(as_text=True)
    assert f"/games/{slug}/replay" in listed and f"/games/{finished}/replay" in listed


# -- statistics ----------------------------------------------------------------------------------------------


def test_the_statistics_of_finished_games_are_on_the_scores_page(player, watcher, finished, sample_game):
    state, _version = player.state(finished)
    first = {result.name: result for result in state.results()}
    again = set_up(player, ["Ann", "AI"])
    play_to_the_end(player, watcher, again)
    second = {result.name: result for result in player.state(again)[0].results()}
    shown = player.statistics(KEY)
    assert set(shown) == {"Ann", "AI"}
    for name in shown:
        expected = []
        for stat in sample_game.statistics:
            total = None
            for results in (first, second):
                total = stat.join(total, results[name].figures.get(stat.key))
            expected.append("" if total is None else str(total))
        assert shown[name] == expected, name
    assert shown["Ann"][0] == "2"  # games played
    html = player.get(f"/scores/{KEY}").get_data(as_text=True)
    assert all(stat.label in html for stat in sample_game.statistics)


# -- all it took: its own folder and one line ------------------------------------------------------------------


def absolute_imports(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            found.append((node.lineno, node.module or ""))
    return found


def test_the_sample_imports_only_the_standard_library_and_the_core():
    bad = []
    for path in sorted(SAMPLE_FOLDER.rglob("*.py")):
        for line, module in absolute_imports(path):
            top = module.split(".")[0]
            if top != "__future__" and top not in sys.stdlib_module_names and not module.startswith("app.core"):
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert not bad, "\n".join(bad)


# Where the project's files are: what the house, the tests and the docs are made of.
PROJECT = ["app", "templates", "static", "migrations", "tests", "bench", "scripts", "decks", "docs", "config.py",
           "wsgi.py", "pyproject.toml", "Makefile", "README.md", "requirements.txt", "requirements-dev.txt"]


def project_files() -> list[Path]:
    files = []
    for name in PROJECT:
        path = ROOT / name
        candidates = [path] if path.is_file() else path.rglob("*")
        files += [file for file in candidates if file.is_file() and "__pycache__" not in file.parts
                  and SAMPLE_FOLDER not in file.parents]
    return files


def registry_calls(path: Path) -> list[str]:
    """Where a module registers a game: ``register(...)`` or ``registry.register(...)``."""
    calls = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and (
                (isinstance(node.func, ast.Name) and node.func.id == "register")
                or (isinstance(node.func, ast.Attribute) and node.func.attr == "register"
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "registry")):
            calls.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    return calls


def test_nothing_outside_the_sample_names_it_but_the_one_registry_line():
    files = project_files()
    assert len(files) > 100, "the scan finds the project's files"
    naming = [str(path.relative_to(ROOT)) for path in files if KEY.encode() in path.read_bytes().lower()]
    assert naming == []
    # The table's own games register in their own folders (app/games/<key>/__init__.py); every
    # other registration in the project is the sample's one line.
    games = ROOT / "app" / "games"
    calls = [call for path in files if path.suffix == ".py" and games not in path.parents
             for call in registry_calls(path)]
    assert calls == ["tests/support/sample.py:18: registry.register(SAMPLE)"]
    assert not (ROOT / "templates" / "games" / KEY).exists() and not (ROOT / "app" / "games" / KEY).exists()


def test_the_sample_brings_its_own_templates():
    assert sorted(path.name for path in (SAMPLE_FOLDER / SAMPLE.templates_folder).iterdir()) == [
        "_board.html", "_how_to_play.html", "_results.html"]


def test_registering_puts_it_last_and_unregistering_takes_it_off(sample_game):
    from app.core import registry

    packages = {path.parent.name for path in (ROOT / "app" / "games").glob("*/__init__.py")}
    assert registry.games()[-1] is sample_game and len(registry.games()) == len(packages) + 1
    assert registry.get(KEY) is sample_game
