"""A family that installed the first web version (commit 5ccc80d, Mason Rummy only) upgrades in
place: its database, made by that version's own migrations and code (the fixture of
scripts/first-version-fixture: two finished games, two unfinished ones, an own-device seat with
its cookie, an unclaimed join code, scores, an uploaded deck), is upgraded as `make run` does
(`flask --app wsgi upgrade`, a real process), on SQLite and, with CARD_TABLE_TEST_DATABASE, on
PostgreSQL. Nothing is lost and everything replays: the unfinished games resume exactly and are
played to their end by the browsers that held their seats, the finished ones replay and export
(their whole game's log every round's), scores.csv is byte for byte what it was, the uploaded deck
is offered, and every page says which version runs."""

from __future__ import annotations

import json
import re

import pytest

from app import store
from app.tables import replays
from app.core import registry
from support import first_version
from support.moves import sensible_move
from support.pages import squeeze
from support.web import Page, Player

pytestmark = pytest.mark.slow

VERSION_LINE = re.compile(r"The card table (\d+\.\d+\.\d+)( \(commit [0-9a-f]+\))?")


@pytest.fixture
def old_install(databases, tmp_path):
    """The first version's install (database, instance folder, decks folder), not upgraded yet."""
    data = first_version.fixture()
    url = first_version.empty_database(databases, tmp_path)
    instance, decks = tmp_path / "instance", tmp_path / "decks"
    first_version.build(data, url, instance, decks)
    yield data, url, instance, decks
    databases.drop(url)


def stored_states(data: dict) -> dict[str, dict]:
    """Each game's state as the first version stored it, by slug."""
    columns = data["tables"]["games"]["columns"]
    return {row[columns.index("slug")]: json.loads(row[columns.index("state")])
            for row in data["tables"]["games"]["rows"]}


def play_to_the_end(app, slug: str, browsers: dict) -> None:
    """Play the game through the table's forms: each seat by the browser holding it (``browsers``:
    seat -> Player; None: the table's moves between rounds), with the computer player's choices."""
    for _ in range(2000):
        with app.app_context():
            state = store.load_state(store.find_game(slug))
        if state.is_over():
            return
        choice = sensible_move(state)
        browser = browsers[choice.seat]
        response = browser.play(slug, choice)
        assert response.status_code in (200, 303), Page(response.get_data(as_text=True)).alerts
    raise AssertionError("the game did not end")


def check_replays_and_exports(app, browser: Player, slug: str) -> None:
    """The finished game is listed with Replay and Export; its replay steps from the deal to the
    stored end; its export is a game the rules replay to the same results."""
    finished = browser.page("/finished")
    links = [element.get("href") for element in finished.find_all("a")]
    assert f"/games/{slug}/replay?step=0" in links and f"/games/{slug}/export.json" in links
    with app.app_context():
        record = store.find_game(slug)
        final, steps = store.load_state(record), record.steps
        replayed, _made, total = replays.state_at(record, steps)
        assert total == steps and store.same_game(replayed, final)
    assert browser.get(f"/games/{slug}/replay?step=0").status_code == 200
    last = browser.get(f"/games/{slug}/replay?step={steps}")
    assert last.status_code == 200
    exported = browser.get(f"/games/{slug}/export.json")
    assert exported.status_code == 200
    text = exported.get_data(as_text=True)  # (streamed: read outside any app context of ours)
    with app.app_context():
        state, applied, _data = replays.read_export(text)
        assert len(applied) == steps and store.same_game(state, final)


def test_an_upgrade_from_the_first_web_version_keeps_everything_and_replays_every_game(old_install, tmp_path):
    data, url, instance, decks = old_install
    games, before = data["games"], stored_states(data)
    env = first_version.environment(url, instance, decks)

    # `make run`'s first step says which version runs, suggests a backup (the database holds
    # games and is about to be migrated), migrates and rebuilds every old game's deal.
    started = first_version.flask(env, "upgrade")
    version = VERSION_LINE.search(started.stdout)
    assert version, started.stdout
    assert "a backup first is wise (`make backup`" in started.stdout
    assert "4 games stored before replays were kept can be replayed now." in started.stdout
    again = first_version.flask(env, "upgrade")  # the next start: nothing to migrate or rebuild
    assert "make backup" not in again.stdout and "replayed" not in again.stdout
    assert first_version.flask(env, "version").stdout.strip() == version.group(0)
    assert first_version.flask(env, "db", "heads").stdout.split()[0] in first_version.flask(env, "db", "current").stdout

    app = first_version.upgraded_app(url, instance, decks)
    try:
        host, phone, newcomer = Player(app), Player(app), Player(app)
        first_version.with_cookie(host, app, data["cookies"]["host"])
        first_version.with_cookie(phone, app, data["cookies"]["phone"])

        # Every page's footer says which version runs.
        assert f"Card Table {version.group(0).removeprefix('The card table ')}" in squeeze(
            host.get("/").get_data(as_text=True))

        # scores.csv is byte for byte what the first version served; the uploaded deck is offered.
        assert host.get("/scores.csv").get_data() == data["scores_csv"].encode("utf-8")
        assert host.post("/menus/mason", {"choice": "4"}).status_code == 303
        assert "family.deck" in host.get("/setup/deck").get_data(as_text=True)
        host.post("/setup/cancel")

        # Both unfinished games resume exactly: the same hands, turn, phase, round, piles.
        with app.app_context():
            for key in ("with_phone", "waiting"):
                now = store.load_state(store.find_game(games[key])).to_dict()
                old = before[games[key]]
                for field in ("players", "round", "phase", "turn", "stock", "discard", "round_scores", "drawn"):
                    assert now[field] == old[field], (key, field)
        # Dan's phone still holds his seat with the cookie it had, in the middle of his turn...
        with app.app_context():
            dan_hand = [card.code for card in store.load_state(store.find_game(games["with_phone"])).players[1].hand.cards]
        phone_view = phone.table(games["with_phone"])
        assert phone_view.seat == 1 and sorted(phone_view.hand) == sorted(dan_hand)
        # ...and Gus's join code, issued before the upgrade, gives the newcomer his seat.
        assert newcomer.post("/join", {"code": data["join_code"]}).status_code == 303
        assert newcomer.table(games["waiting"]).seat == 1

        # The games finished before the upgrade replay and export, and their logs are whole.
        for key in ("finished_shuffled", "finished_stacked"):
            check_replays_and_exports(app, host, games[key])
            with app.app_context():
                record = store.find_game(games[key])
                lines = store.log_lines(record, 0, store.load_state(record).log_total)
            assert {line["round"] for line in lines} == {1, 2, 3}
            log_page = squeeze(host.get(f"/games/{games[key]}/log?page=1").get_data(as_text=True))
            assert "every round, oldest first" in log_page

        # The unfinished games are played to their end by the browsers holding their seats; then
        # they replay and export too.
        play_to_the_end(app, games["with_phone"], {0: host, 1: phone, None: host})
        play_to_the_end(app, games["waiting"], {0: host, 1: newcomer, None: host})
        for key in ("with_phone", "waiting"):
            check_replays_and_exports(app, host, games[key])
        with app.app_context():
            assert all(record.replay_problem is None for record in replays.finished_games())
    finally:
        first_version.close(app)


def test_an_old_game_whose_actions_do_not_make_its_stored_state_says_why_it_has_no_replay(old_install):
    data, url, instance, decks = old_install
    slug = data["games"]["finished_shuffled"]
    # The stored end differs from what its stored actions make (a score written by hand, say).
    import sqlalchemy as sa

    engine = sa.create_engine(url)
    with engine.begin() as connection:
        state = json.loads(connection.execute(sa.text("SELECT state FROM games WHERE slug = :slug"), {"slug": slug}).scalar())
        state["players"][0]["score"] += 1
        connection.execute(sa.text("UPDATE games SET state = :state WHERE slug = :slug"),
                           {"state": json.dumps(state), "slug": slug})
    engine.dispose()
    started = first_version.flask(first_version.environment(url, instance, decks), "upgrade")
    assert f"Game {slug} keeps no replay" in started.stdout
    assert "3 games stored before replays were kept can be replayed now; 1 cannot" in started.stdout

    app = first_version.upgraded_app(url, instance, decks)
    try:
        browser = Player(app)
        with app.app_context():
            reason = store.find_game(slug).replay_problem
        assert "do not make the game as it was stored" in reason
        # /finished lists it without Replay or Export, with the reason; the others keep theirs.
        finished = browser.page("/finished")
        links = [element.get("href") for element in finished.find_all("a")]
        assert f"/games/{slug}/replay?step=0" not in links and f"/games/{slug}/export.json" not in links
        assert f"/games/{data['games']['finished_stacked']}/export.json" in links
        assert "No replay or export: " + reason in squeeze(finished.html)
        # Its replay and its export say the same reason (the export is no generic 404).
        for url_path in (f"/games/{slug}/replay", f"/games/{slug}/export.json"):
            response = browser.get(url_path)
            assert response.status_code == 404 and Page(response.get_data(as_text=True)).alerts == [reason]
        # Its whole game's log says which lines it holds: the last round's, then every line since.
        log_page = squeeze(browser.get(f"/games/{slug}/log?page=1").get_data(as_text=True))
        assert "every round, oldest first" not in log_page
        kept = len(stored_states(data)[slug]["log"])  # (the first version kept the last round's lines)
        assert (f"This game was stored before its log kept every round: it starts with the {kept} lines it held "
                "then, from round 3; the lines of the rounds before are not kept.") in log_page
        with app.app_context():
            assert registry.get(store.find_game(slug).kind).key == "mason"
    finally:
        first_version.close(app)


def test_after_flask_db_upgrade_alone_the_old_games_say_that_make_run_gives_them_their_replay(old_install):
    data, url, instance, decks = old_install
    env = first_version.environment(url, instance, decks)
    first_version.flask(env, "db", "upgrade")  # the migrations alone, not `make run`'s upgrade
    slug = data["games"]["finished_stacked"]
    app = first_version.upgraded_app(url, instance, decks)
    try:
        browser = Player(app)
        assert "No replay or export: " + replays.NOT_REBUILT_YET in squeeze(browser.page("/finished").html)
        response = browser.get(f"/games/{slug}/export.json")
        assert response.status_code == 404 and Page(response.get_data(as_text=True)).alerts == [replays.NOT_REBUILT_YET]
        started = first_version.flask(env, "upgrade")
        assert "make backup" not in started.stdout  # (nothing left to migrate)
        assert "4 games stored before replays were kept can be replayed now." in started.stdout
        check_replays_and_exports(app, browser, slug)
    finally:
        first_version.close(app)
