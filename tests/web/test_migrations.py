"""The migrations keep every stored game playable: a Mason Rummy game saved before the table
hosted several games (schema 5e03c6a6f98e) is, after `flask db upgrade`, a game of kind
``mason`` with its seats, stacked deck and headline, and it plays on through the table. (On
SQLite, batch mode copies a table and drops the old one: with foreign keys on, that dropped every
seat of every game through ON DELETE CASCADE; migrations/env.py turns them off while migrating.)"""

from __future__ import annotations

import json
import uuid

import sqlalchemy as sa
from sqlalchemy.engine import make_url

from app.factory import create_app
from app.core import registry
from app.core.protocol import LOG_KEPT, copy_log
from app.games.mason import Game, NextRound
from app.games.mason.phases import DRAW_PHASE
from app.store.models import ActionRecord
from app.tables import pages
from app.games.mason.definition import MASON
from app.tables.decks import read_deck_file
from app.web.words import event_words
from support.pages import squeeze
from support.web import Player

OLD_HEAD = "5e03c6a6f98e"


def empty_database(databases, tmp_path) -> str:
    if not databases.is_postgres:
        return f"sqlite:///{tmp_path / 'old.db'}"
    name = f"mason_m_{uuid.uuid4().hex[:12]}"
    databases._admin(f'CREATE DATABASE "{name}"')
    return make_url(databases._url(name)).render_as_string(hide_password=False)


def migrate(app, revision: str) -> None:
    from flask_migrate import upgrade

    with app.app_context():
        upgrade(revision=revision)


def test_an_old_mason_game_is_playable_after_the_upgrade(databases, tmp_path, decks_folder):
    from app import store
    from app.factory import create_app
    from app.extensions import db
    from config import TestConfig

    url = empty_database(databases, tmp_path)
    app = create_app(TestConfig, instance_path=str(tmp_path / "instance"), SQLALCHEMY_DATABASE_URI=url,
                     DECKS_FOLDER=str(decks_folder))
    try:
        migrate(app, OLD_HEAD)
        game = Game.new(["Doris", "Ed"], stacked_deck=read_deck_file(decks_folder / "quick_out.deck", MASON))
        with app.app_context():
            connection = db.session.connection()
            connection.execute(sa.text(
                "INSERT INTO games (slug, state, version, status, players, deck_name, host_token_hash, "
                "created_at, updated_at) VALUES ('oldgame001', :state, 1, 'playing', 2, 'quick_out.deck', "
                ":host, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"),
                {"state": json.dumps(game.to_dict()), "host": store.hash_token("host-token")})
            game_id = connection.execute(sa.text("SELECT id FROM games WHERE slug = 'oldgame001'")).scalar()
            for number, name in enumerate(["Doris", "Ed"]):
                connection.execute(sa.text(
                    "INSERT INTO seats (game_id, number, name, is_ai, device, token_hash, ai_standin) "
                    "VALUES (:game, :number, :name, false, 'here', :token, false)"),
                    {"game": game_id, "number": number, "name": name, "token": store.hash_token(f"seat-{number}")})
            db.session.commit()
        migrate(app, "head")
        with app.app_context():
            record = store.find_game("oldgame001")
            assert record.kind == "mason" and json.loads(record.options) == {}
            assert record.deck_cards.split() == [card.code for card in game.stacked_deck]
            assert record.headline == "Round 1 of 3, Doris's turn"
            assert store.load_state(record).to_dict() == game.to_dict()
        # The two players go on playing it in a browser that holds their seats.
        player = Player(app)
        with player.client.session_transaction() as session:
            session["tables"] = {"oldgame001": {"0": "seat-0", "1": "seat-1", "host": "host-token"}}
        assert player.reveal("oldgame001").status_code == 200  # two people share the device: hand-over
        response = player.act("oldgame001", "draw_stock", seat=0)
        assert response.status_code == 200, response.get_data(as_text=True)
        after, version = player.state("oldgame001")
        assert version == 3 and after.phase == "play" and len(after.players[0].hand) == 11
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
        databases.drop(url)


BEFORE_LOG_LINES = "e5b91c3a7d20"  # the revision before each action kept its own log lines


def legacy_data(state, whole_log) -> dict:
    """``state`` as the code before that revision saved it: its whole log in it, no facts."""
    data = state.to_dict()
    data["log"] = copy_log(whole_log)
    for key in [key for key in data if key.startswith("log_")]:
        del data[key]
    return data


def test_a_game_stored_with_its_whole_log_keeps_every_line_after_the_upgrade(databases, tmp_path):
    """The upgrade copies the state's log into ``opening_log``; the state is read as it is, and
    the next action's lines are numbered on from the copied ones."""
    from app import store
    from app.extensions import db
    from config import TestConfig

    definition = registry.get("mason")
    game = definition.new_state(["Doris", "Ed"], seed="an old game")
    dealt, whole, actions = legacy_data(game, game.log), copy_log(game.log), []
    while len(whole) <= LOG_KEPT + pages.LOG_PAGE or game.to_move() != 0 or game.phase != DRAW_PHASE:
        seat = game.to_move()
        action = definition.bot.choose(game, seat) if seat is not None else NextRound()
        whole += copy_log(game.apply(seat, action).events)
        actions.append((seat, json.dumps(definition.action_to_dict(action))))
    assert not game.is_over()

    url = empty_database(databases, tmp_path)
    app = create_app(TestConfig, instance_path=str(tmp_path / "instance"), SQLALCHEMY_DATABASE_URI=url)
    try:
        migrate(app, BEFORE_LOG_LINES)
        with app.app_context():
            connection = db.session.connection()
            connection.execute(sa.text(
                "INSERT INTO games (slug, kind, options, state, initial_state, version, steps, status, "
                "host_token_hash, created_at, updated_at) VALUES ('oldlog0001', 'mason', '{}', :state, :dealt, "
                ":version, :steps, 'playing', :host, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"),
                {"state": json.dumps(legacy_data(game, whole)), "dealt": json.dumps(dealt),
                 "version": 1 + len(actions), "steps": len(actions), "host": store.hash_token("host-token")})
            game_id = connection.execute(sa.text("SELECT id FROM games WHERE slug = 'oldlog0001'")).scalar()
            for number, name in enumerate(["Doris", "Ed"]):
                connection.execute(sa.text(
                    "INSERT INTO seats (game_id, number, name, is_ai, device, token_hash, ai_standin) "
                    "VALUES (:game, :number, :name, false, 'here', :token, false)"),
                    {"game": game_id, "number": number, "name": name, "token": store.hash_token(f"seat-{number}")})
            for version, (seat, action) in enumerate(actions, start=2):
                connection.execute(sa.text(
                    "INSERT INTO actions (game_id, version, seat, action, created_at) "
                    "VALUES (:game, :version, :seat, :action, CURRENT_TIMESTAMP)"),
                    {"game": game_id, "version": version, "seat": seat, "action": action})
            db.session.commit()
        migrate(app, "head")
        with app.app_context():
            record = store.find_game("oldlog0001")
            assert json.loads(record.opening_log) == whole
            assert store.log_lines(record, 0, len(whole) + 5) == whole
            loaded = store.load_state(record)
            assert loaded.log_total == len(whole)
            for seat in (0, 1, None):
                assert loaded.view(seat) == game.view(seat) and loaded.hidden_from(seat) == game.hidden_from(seat)
        player = Player(app)
        with player.client.session_transaction() as session:
            session["tables"] = {"oldlog0001": {"0": "seat-0", "1": "seat-1", "host": "host-token"}}
        assert player.reveal("oldlog0001").status_code == 200
        assert player.act("oldlog0001", "draw_stock", seat=0).status_code == 200
        with app.app_context():
            record = store.find_game("oldlog0001")
            row = db.session.execute(sa.select(ActionRecord.line, ActionRecord.events).where(
                ActionRecord.game_id == record.id).order_by(ActionRecord.version.desc()).limit(1)).one()
            assert row.line == len(whole) and json.loads(row.events)[0]["text"] == "Doris drew from the stock pile."
            saved = json.loads(record.state)  # written the new way: the last lines only
            assert saved["log_before"] == len(whole) + 1 - LOG_KEPT and len(saved["log"]) == LOG_KEPT
        texts = []
        page = player.page("/games/oldlog0001/log?page=1")
        while True:
            texts += [item.text for item in page.find("ol", cls="log-lines").find_all("li")]
            later = page.find("a", rel="next")
            if later is None:
                break
            page = player.page(later.get("href"))
        assert texts == [squeeze(event_words(line, "mason", html=False)) for line in whole] + [
            "Doris drew from the stock pile."]
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
        databases.drop(url)
