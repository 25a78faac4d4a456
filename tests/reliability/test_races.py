"""Promises 3 and 4: stale and doubled actions, and seats racing, against the real server.

- Every form that changes a game carries the game version; an action made on an old view gets
  409 and the fresh table.
- The same POST sent twice at the same moment (two threads released together by a barrier, 100
  times, each time a fresh action) is applied exactly once.
- A set-up form posted three times at once (a double-click: Mason Rummy's last seat, another
  game's one form) sets up one game, and every answer leads to it with this browser's seats.
- Different seats racing (12 browsers on 4 tables, 400 action posts, 2 gunicorn worker processes)
  never lose an update and never see a 5xx or "database is locked"; every action is one
  transaction: each game's version is 1 + its action rows (+ its seat claims), and the 65 cards
  are each in exactly one place.
"""

from __future__ import annotations

import random
import threading
from collections import Counter

import pytest
from support.cards import check_65_cards
from support.client import Browser
from support.databases import StoredGame
from support.figures import record_figures
from support.moves import logged_action, random_move, sensible_move
from support.pages import Page
from support.web import setup_forms

GAME_CHANGING = ("/act", "/reveal")


def assert_log_is_consistent(stored: StoredGame, rows: list, other_versions: int = 0) -> None:
    """Each applied action made exactly one version: the game's version is 1 + its action rows
    (+ the versions made by seat claims or the rematch link, which log no action)."""
    assert stored.version == 1 + len(rows) + other_versions
    assert len({version for version, _seat, _action in rows}) == len(rows)
    check_65_cards(stored.game())


# -- every form carries the version; an old view gets 409 and the fresh table ----------------------


def test_every_form_that_changes_a_game_carries_its_version(player, app):
    """Menus D, E, the hand-over screen (hot-seat) and the round summary all post the version
    the view was made on."""
    from app import store

    slug = player.start_game(["Ann", "Bob"], deck="quick_out.deck")  # two people on one device
    seen = Counter()
    for _ in range(80):
        with app.app_context():
            record = store.find_game(slug)
            version = record.version
            game = store.load_state(record)
        html = player.get(f"/games/{slug}").get_data(as_text=True)
        for form in Page(html).forms:
            target = form["hx_post"] or form["action"] or ""
            if form["method"] == "post" and target.endswith(GAME_CHANGING):
                assert form["inputs"].get("version") == [str(version)], form
                kinds = ["reveal"] if target.endswith("/reveal") else [
                    value for name, value, _text in form["buttons"] if name == "action"]
                seen.update(kinds)
                if set(kinds) & {"draw_stock", "draw_discard", "lay_down", "discard"}:
                    assert form["inputs"].get("seat") == [str(game.turn)], form
        if game.is_over() or seen["next_round"]:
            break
        page = Page(html)
        if page.has_button("show my hand"):
            assert player.reveal(slug).status_code == 200
            continue
        choice = sensible_move(game)
        assert choice is not None
        assert player.play(slug, choice, version=version).status_code == 200
    assert {"reveal", "draw_stock", "lay_down", "discard", "next_round"} <= set(seen), seen


@pytest.mark.slow  # a live server: about 8 s with its start and stop
def test_an_action_on_an_old_view_gets_409_and_the_fresh_table(live_server, db_reader):
    browser = Browser(live_server.url)
    slug = browser.start_game(["Ann", "AI"], deck="run_or_meld.deck")
    old = browser.table(slug)
    old_version, seat = old.table_version, old.page.seat
    assert browser.post(f"/games/{slug}/act", browser.act_form(old_version, seat, "draw_stock"), htmx=True).status == 200
    fresh_version = db_reader.game(slug).version
    assert fresh_version > old_version
    before = db_reader.actions(db_reader.game(slug).id)

    # the old view's Menu D again, and a discard made with the old version
    for form, htmx in ((browser.act_form(old_version, seat, "draw_stock"), True),
                       (browser.act_form(old_version, seat, "discard", [old.page.hand[0]]), True),
                       (browser.act_form(old_version, seat, "discard", [old.page.hand[0]]), False)):
        response = browser.post(f"/games/{slug}/act", form, htmx=htmx)
        if not htmx:  # a plain form is sent back to the table (303), which shows the message
            assert response.status == 303, response.body[:300]
            assert response.headers["Location"].split("?", 1)[0].endswith(f"/games/{slug}")
            response = browser.get(response.headers["Location"])
            assert response.status == 200
        else:
            assert response.status == 409, response.body[:300]
        assert response.table_version == fresh_version  # the fresh table, not the old one
        page = response.page
        assert page.alerts and "changed" in page.alerts[0]
        assert len(page.hand) == 11  # the hand as it is now: ten dealt plus the drawn card
        if not htmx:
            assert "<html" in response.body  # a plain form gets the whole page
    assert db_reader.actions(db_reader.game(slug).id) == before
    assert db_reader.game(slug).version == fresh_version


# -- the same POST twice at the same moment ------------------------------------------------------------


def fire_together(requests) -> list:
    """Send prepared requests from threads released together by a barrier."""
    barrier = threading.Barrier(len(requests))
    results: list = [None] * len(requests)

    def run(index, request):
        try:
            barrier.wait(timeout=30)
            results[index] = request.fire()
        except Exception as error:  # noqa: BLE001 - reported below
            results[index] = error

    threads = [threading.Thread(target=run, args=(i, r)) for i, r in enumerate(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return results


@pytest.mark.slow
def test_the_same_post_sent_twice_at_once_is_applied_exactly_once(live_server, db_reader):
    races = 100
    browser = Browser(live_server.url)
    slug = browser.start_game(["Ann", "AI"], deck="stock_rebuild.deck")
    games, rematched, statuses, run, locked = {slug}, set(), Counter(), 0, 0
    while run < races:
        table = browser.table(slug)
        assert table.status == 200
        game = db_reader.game(slug).game()
        choice = sensible_move(game)
        if choice is None:  # the game is over: a rematch (R9.3), and race on in the new game
            response = browser.post(f"/games/{slug}/rematch", {})
            assert response.status == 303, response.body[:300]
            rematched.add(slug)  # the link to the rematch is a new version of the old game
            slug = response.headers["location"].rstrip("/").rsplit("/", 1)[1]
            games.add(slug)
            continue
        version, seat = table.table_version, choice.seat
        form = choice.form(version)
        results = fire_together([browser.prepare("POST", f"/games/{slug}/act", form, htmx=True) for _ in range(2)])
        run += 1
        assert all(not isinstance(r, Exception) for r in results), results
        codes = sorted(r.status for r in results)
        statuses.update(codes)
        locked += sum("database is locked" in r.body for r in results)
        assert codes == [200, 409], (choice.action, [r.body[:200] for r in results])

        stored = db_reader.game(slug)
        after = [(v, s, a) for v, s, a in db_reader.actions(stored.id) if v > version]
        human = [(v, s, a) for v, s, a in after if s != 1]  # seat 1 is the AI, which then plays
        assert human == [(version + 1, seat, logged_action(game, choice))], human

    for slug in games:
        stored = db_reader.game(slug)
        assert_log_is_consistent(stored, db_reader.actions(stored.id), other_versions=int(slug in rematched))
    log = live_server.log_path.read_text(errors="replace")
    locked += log.count("database is locked")
    server_errors = sum(n for code, n in statuses.items() if code >= 500) + log.count("Traceback")
    record_figures(live_server.database_url, "double_posts", races=run, games=len(games),
                   answered_200=statuses[200], answered_409=statuses[409], server_errors=server_errors,
                   database_is_locked=locked)
    assert server_errors == 0 and locked == 0


# -- seats racing --------------------------------------------------------------------------------------


@pytest.mark.slow
def test_seats_racing_on_two_workers_lose_no_update(live_server, db_reader):
    """4 tables x 3 seats on their own browsers; every tick all three seats of a table read the
    table and post at once (the seat on turn its move, the others out of turn, sometimes with a
    stale version; at a round's end all three press "deal the next round"). 400 action posts."""
    tables_count, seats, ticks = 4, 3, 34
    tables = []
    for number in range(tables_count):
        host = Browser(live_server.url)
        slug = host.start_game([f"Ann{number}", f"Bob{number}", f"Cid{number}"], deck="three_players.deck",
                               devices=["here", "own", "own"])
        browsers = [host]
        for seat in (1, 2):
            guest = Browser(live_server.url)
            assert guest.claim(db_reader.join_code(slug, seat)).status == 303
            browsers.append(guest)
        tables.append((slug, browsers))

    lock = threading.Lock()
    answered: list[tuple[str, int, int | None, dict]] = []
    statuses: Counter = Counter()
    problems: list[str] = []

    seen = Counter()

    def note(response, what):
        with lock:
            if what == "post":
                statuses[response.status] += 1
            if response.status >= 500:
                seen["server_errors"] += 1
                problems.append(f"{what}: {response.status} {response.body[:200]}")
            if "database is locked" in response.body:
                seen["database_is_locked"] += 1
                problems.append(f"{what}: database is locked")

    def seat_loop(slug, seat, browser, barrier, rng):
        try:
            for _ in range(ticks):
                table = browser.table(slug)
                note(table, "get")
                stored = db_reader.game(slug)  # what this browser's page shows, as the server has it
                version, game = stored.version, stored.game()
                mover = game.to_move()
                stale = False
                if game.is_over() or (mover is not None and mover != seat):
                    choice = None  # not this seat's turn: an out-of-turn draw, which must be refused
                else:  # its turn, or between rounds every seat presses "deal the next round"
                    choice = random_move(game, rng) if rng.random() < 0.2 else sensible_move(game)
                    stale = rng.random() < 0.1
                sent_version = version - 1 if stale else version
                if choice is None:
                    form, logged, form_seat = browser.act_form(sent_version, seat, "draw_stock"), None, seat
                else:
                    form, logged, form_seat = choice.form(sent_version), logged_action(game, choice), choice.seat
                request = browser.prepare("POST", f"/games/{slug}/act", form, htmx=True)
                barrier.wait(timeout=120)
                response = request.fire()
                note(response, "post")
                if 200 <= response.status < 300:
                    with lock:
                        answered.append((slug, sent_version, form_seat, logged))
                elif response.status not in (403, 409, 422):
                    with lock:
                        problems.append(f"post: unexpected {response.status}")
        except Exception as error:  # noqa: BLE001
            with lock:
                problems.append(f"seat {seat} of {slug}: {error!r}")
            barrier.abort()

    threads = []
    for index, (slug, browsers) in enumerate(tables):
        barrier = threading.Barrier(seats)
        for seat, browser in enumerate(browsers):
            threads.append(threading.Thread(target=seat_loop, args=(slug, seat, browser, barrier,
                                                                      random.Random(index * 10 + seat))))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=600)
    assert not any(thread.is_alive() for thread in threads)
    log = live_server.log_path.read_text(errors="replace")
    seen["database_is_locked"] += log.count("database is locked")
    seen["server_errors"] += log.count("Traceback")
    posts = sum(statuses.values())
    record_figures(live_server.database_url, "seat_races", workers=live_server.workers, tables=tables_count,
                   browsers=tables_count * seats, action_posts=posts, applied=len(answered),
                   refused=posts - len(answered), statuses={str(k): v for k, v in sorted(statuses.items())},
                   server_errors=seen["server_errors"], database_is_locked=seen["database_is_locked"])
    assert problems == []
    assert seen["server_errors"] == 0 and seen["database_is_locked"] == 0
    assert posts == tables_count * seats * ticks

    for slug, _browsers in tables:
        stored = db_reader.game(slug)
        rows = db_reader.actions(stored.id)
        assert_log_is_consistent(stored, rows, other_versions=2)  # two seats claimed
        mine = sorted((v + 1, s, a) for g, v, s, a in answered if g == slug)
        assert mine == [(v, s, a) for v, s, a in rows], "an answered action is missing, or one applied unanswered"
    assert statuses[200] == len(answered) > 0


@pytest.mark.slow
def test_a_rematch_posted_four_times_at_once_makes_one_rematch(live_server, db_reader):
    """The Rematch button (R9.3) pressed on four tabs at once: one new game, and every answer
    leads to it (before the fix, PostgreSQL made four rematches)."""
    browser = Browser(live_server.url)
    for trial in range(3):
        slug = browser.start_game([f"Rae{trial}", "AI"], deck="quick_out.deck")
        while True:  # play the game to its end
            table = browser.table(slug)
            choice = sensible_move(db_reader.game(slug).game())
            if choice is None:
                break
            response = browser.act(slug, choice, table.table_version)
            assert response.status == 200, response.body[:300]
        assert db_reader.game(slug).status == "finished"
        games_before = len(db_reader.games())
        results = fire_together([browser.prepare("POST", f"/games/{slug}/rematch", {}) for _ in range(4)])
        assert all(not isinstance(r, Exception) for r in results), results
        assert [r.status for r in results] == [303] * 4
        locations = {r.headers["location"] for r in results}
        assert len(locations) == 1, locations
        assert len(db_reader.games()) == games_before + 1
        old = db_reader.game(slug)
        assert locations == {f"/games/{old.rematch_slug}"}
        assert_log_is_consistent(old, db_reader.actions(old.id), other_versions=1)
    log = live_server.log_path.read_text(errors="replace")
    record_figures(live_server.database_url, "rematch_races", races=3, posts_each=4, rematches_made_each=1,
                   database_is_locked=log.count("database is locked"), tracebacks_in_server_log=log.count("Traceback"))
    assert "Traceback" not in log and "database is locked" not in log


@pytest.mark.slow
def test_a_set_up_form_posted_three_times_at_once_sets_up_one_game(live_server, db_reader):
    """A double-click on the last set-up button, without JavaScript to stop it: Mason Rummy's last
    seat (Menu B) and 21's one form, each posted three times at once, three times over. One game
    each time; every answer leads to it, and the browser holds its seats (before the fix, each
    post set up a game of its own). Another browser posting the same form sets up its own."""
    games_before = len(db_reader.games())
    made = 0
    for trial in range(3):
        browser = Browser(live_server.url)
        *first, last = setup_forms([f"Ida{trial}", "AI"])
        for path, form in first:
            assert browser.post(path, form).status == 303
        results = fire_together([browser.prepare("POST", last[0], last[1]) for _ in range(3)])
        assert all(not isinstance(r, Exception) for r in results), results
        assert [r.status for r in results] == [303] * 3, [r.body[:300] for r in results]
        (location,) = {r.headers["location"] for r in results}
        made += 1
        assert len(db_reader.games()) == games_before + made
        assert 'data-player="yes"' in browser.get(location).body  # (the table shows this browser a seat's hand)

        player = Browser(live_server.url)
        token = Page(player.get("/setup/twentyone").body).value("setup_token")
        form = {"seats": "1", "name0": f"Racer{trial}", "rounds": "3", "setup_token": token}
        results = fire_together([player.prepare("POST", "/setup/twentyone", form) for _ in range(3)])
        assert [r.status for r in results] == [303] * 3, [getattr(r, "body", r) for r in results]
        (location,) = {r.headers["location"] for r in results}
        made += 1
        assert len(db_reader.games()) == games_before + made
        slug = location.rsplit("/", 1)[1]
        assert 'data-player="yes"' in player.get(f"/games/{slug}").body
        # the same form from another browser (its own session) is its own set-up
        other = Browser(live_server.url)
        assert other.post("/setup/twentyone", form).headers["location"] != location
        made += 1
    log = live_server.log_path.read_text(errors="replace")
    record_figures(live_server.database_url, "set_up_races", races=3, posts_each=3, games_made_each=1,
                   tracebacks_in_server_log=log.count("Traceback"))
    assert "Traceback" not in log and "database is locked" not in log
