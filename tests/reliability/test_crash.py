"""Promise 5: kill -9 of the server at a random moment, 20 times in a row, loses nothing answered.

A player keeps playing against the live server (gunicorn, gevent workers) while a killer sends
SIGKILL to the whole server (master and workers) at a random moment. After each kill the server
is started again and the database is checked: every action that was answered 2xx is in the action
log with the version it made, every stored game loads with Game.from_dict (which validates that
the 65 cards are each in exactly one place, R1.4), every game's version is 1 + its action rows,
scores.csv (if written) is a whole R7.5 file, and on SQLite `PRAGMA integrity_check` says ok.
"""

from __future__ import annotations

import http.client
import os
import random
import threading
import time

import pytest
from support.client import Browser
from support.figures import record_figures
from support.moves import logged_action, random_move, sensible_move

from app.games.mason import ScoreTable

KILLS = 20
CONNECTION_ERRORS = (OSError, http.client.HTTPException)
RANDOM_MOVES = 0.2  # the share of random legal moves (often refused) among the computer player's


@pytest.mark.slow
def test_kill_9_at_random_moments_loses_no_answered_action(live_server, db_reader):
    seed = int.from_bytes(os.urandom(4), "big")
    rng = random.Random(seed)
    browser = Browser(live_server.url, timeout=20)
    state = {"slug": None, "started": 0}
    answered: list[tuple[str, int, int | None, dict]] = []
    problems: list[str] = []
    answered_between_kills: list[int] = []
    server_errors: list[int] = []

    def play(stop: threading.Event, playing: threading.Event) -> None:
        while not stop.is_set():
            try:
                if state["slug"] is None:  # a new game (the first, or after one finished)
                    state["started"] += 1
                    deck = rng.choice([None, "stock_rebuild.deck", "ai_showcase.deck", "run_or_meld.deck"])
                    state["slug"] = browser.start_game([f"Kim{seed % 1000}x{state['started']}", "AI"], deck=deck)
                    continue
                slug = state["slug"]
                table = browser.table(slug)
                if table.status != 200:
                    problems.append(f"table: {table.status}")
                    return
                version = table.table_version
                game = db_reader.game(slug).game()
                choice = random_move(game, rng) if rng.random() < RANDOM_MOVES else sensible_move(game)
                if choice is None:  # the game is over
                    state["slug"] = None
                    continue
                response = browser.act(slug, choice, version)
                if 200 <= response.status < 300:
                    answered.append((slug, version, choice.seat, logged_action(game, choice)))
                    playing.set()
                elif response.status >= 500:
                    server_errors.append(response.status)
                    problems.append(f"act: {response.status}")
                    return
            except CONNECTION_ERRORS as error:
                if not stop.wait(10):  # not the killer's doing
                    problems.append(f"connection error while the server was up: {error!r}")
                return
            except AssertionError as error:  # a game set-up cut short by the kill: start over
                if not stop.wait(10):
                    problems.append(f"a game set-up failed while the server was up: {error!r}")
                return

    for kill in range(KILLS):
        stop, playing = threading.Event(), threading.Event()
        player = threading.Thread(target=play, args=(stop, playing))
        before = len(answered)
        player.start()
        playing.wait(30)  # once the game is under way, kill at a random moment
        time.sleep(rng.uniform(0.0, 1.0))
        live_server.kill9()
        stop.set()
        player.join(timeout=60)
        assert not player.is_alive()
        assert problems == [], (seed, problems)
        answered_between_kills.append(len(answered) - before)

        # the database as the crash left it
        if db_reader.is_sqlite:
            assert db_reader.integrity_check() == "ok", seed

        live_server.start()
        if state["slug"] is not None:
            assert browser.table(state["slug"]).status == 200
        stored_games = {game.slug: game for game in db_reader.games()}
        for slug, version, seat, action in answered:
            game = stored_games[slug]
            rows = {v: (s, a) for v, s, a in db_reader.actions(game.id)}
            assert rows.get(version + 1) == (seat, action), (seed, kill, slug, version)
        for game in stored_games.values():
            game.game()  # Game.from_dict validates: 65 cards, each in exactly one place
            rows = db_reader.actions(game.id)
            assert game.version == 1 + len(rows) + (1 if game.rematch_slug else 0), (seed, game.slug)
        scores = live_server.instance / "scores.csv"
        if scores.exists():
            ScoreTable.from_csv(scores.read_text(encoding="utf-8"))  # a whole file, never half of one

    log = live_server.log_path.read_text(errors="replace")
    record_figures(live_server.database_url, "kill9", kills_survived=KILLS, answered_actions_checked=len(answered),
                   answered_between_kills=answered_between_kills, games=len(db_reader.games()),
                   integrity_check="ok after every kill" if db_reader.is_sqlite else "n/a (PostgreSQL)",
                   server_errors=len(server_errors), database_is_locked=log.count("database is locked"),
                   tracebacks_in_server_log=log.count("Traceback"))
    assert all(n > 0 for n in answered_between_kills)  # every kill hit a game in play
    assert "database is locked" not in log and "Traceback" not in log
