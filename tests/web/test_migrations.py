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

from app.games.mason import Game
from app.stacked_decks import read_deck_file
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
    from app import create_app, store
    from app.extensions import db
    from config import TestConfig

    url = empty_database(databases, tmp_path)
    app = create_app(TestConfig, instance_path=str(tmp_path / "instance"), SQLALCHEMY_DATABASE_URI=url,
                     DECKS_FOLDER=str(decks_folder))
    try:
        migrate(app, OLD_HEAD)
        game = Game.new(["Doris", "Ed"], stacked_deck=read_deck_file(decks_folder / "quick_out.deck"))
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
