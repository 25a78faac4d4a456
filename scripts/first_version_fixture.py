"""Run by scripts/first-version-fixture inside a checkout of the first web version (5ccc80d):
its own migrations make its database, its own app and test helpers play through its pages as a
family would (a host's browser, a phone), and every row, the instance secrets, the uploaded deck
and the browsers' cookies are written to the fixture (JSON).

Usage: python first_version_fixture.py CHECKOUT OUTPUT
"""

from __future__ import annotations

import base64
import datetime
import json
import os
import random
import sys

checkout, output = os.path.abspath(sys.argv[1]), sys.argv[2]
# Our own package is installed editable in the same venv: its import hook would answer `import
# app` with today's code. The old checkout's code must be the one imported.
sys.meta_path[:] = [finder for finder in sys.meta_path if "__editable__" not in getattr(finder, "__module__", "")]
sys.path_hooks[:] = [hook for hook in sys.path_hooks if "__editable__" not in getattr(hook, "__module__", "")]
sys.path[:] = [checkout, os.path.join(checkout, "tests")] + [
    entry for entry in sys.path if not os.path.isdir(os.path.join(entry or ".", "app"))]
sys.path_importer_cache.clear()

import sqlalchemy as sa  # noqa: E402
from flask_migrate import upgrade  # noqa: E402

from app.factory import create_app  # noqa: E402
from config import Config  # noqa: E402

assert os.path.dirname(sys.modules["app"].__file__) == os.path.join(checkout, "app"), sys.modules["app"].__file__

from support.games import admin_login, next_round, play_game, play_turn_like_ai, upload  # noqa: E402
from support.web import Player  # noqa: E402

ADMIN_PASSWORD = "first-version-admin"
instance = os.path.join(checkout, "instance")
decks = os.path.join(checkout, "decks")
app = create_app(Config, instance_path=instance,
                 SQLALCHEMY_DATABASE_URI="sqlite:///" + os.path.join(instance, "mason.db"),
                 DECKS_FOLDER=decks, ADMIN_PASSWORD=ADMIN_PASSWORD)
with app.app_context():
    upgrade()


def state(player, slug):
    game, _version = player.state(slug)
    return game


def slug_of(response) -> str:
    return response.headers["Location"].rsplit("/", 1)[1]


host = Player(app)  # the computer the table runs on: the family's hot-seat browser
phone = Player(app)  # Dan's phone

# The admin uploads a deck of their own (a fixed order of the 65 cards).
from app.rules.decks import FULL_DECK  # noqa: E402

order = [card.code for card in FULL_DECK]
random.Random(1962).shuffle(order)
family_deck = "\n".join(" ".join(order[i:i + 13]) for i in range(0, 65, 13)) + "\n"
admin_login(host)
response = upload(host, "/admin/decks", "deck", "family.deck", family_deck)
assert response.status_code in (200, 303), response.get_data(as_text=True)
assert os.path.exists(os.path.join(decks, "family.deck"))

# Two finished games: a shuffled one against the computer, and one dealt from the uploaded deck.
finished_shuffled = host.start_game(["Ann", "AI"])
play_game(host, finished_shuffled)
finished_stacked = host.start_game(["Bob", "AI", "AI"], deck="family.deck")
play_game(host, finished_stacked)
assert state(host, finished_shuffled).is_over and state(host, finished_stacked).is_over

# An unfinished game with an own-device seat: Dan joins from his phone with the join code.
with_phone = host.start_game(["Cleo", "Dan"], devices=["here", "own"])
with app.app_context():
    from app import store

    dan_code = store.find_game(with_phone).seats[1].join_code
response = phone.post("/join", {"code": dan_code})
assert response.status_code == 303, response.get_data(as_text=True)
# Played into round 2, and stopped in the middle of a turn (a card drawn, not yet discarded).
while True:
    game = state(host, with_phone)
    if game.round_number == 2 and game.turns_this_round >= 3:
        break
    if game.phase in ("round_over",):
        assert next_round(host, with_phone).status_code == 303
        continue
    play_turn_like_ai(host if game.turn == 0 else phone, with_phone)
game = state(host, with_phone)
mover = host if game.turn == 0 else phone
assert mover.act(with_phone, "draw_stock", seat=game.turn).status_code == 200
assert state(host, with_phone).phase == "play"

# An unfinished game dealt from the uploaded deck whose second seat nobody has claimed yet: its
# join code is to work after the upgrade.
waiting = host.start_game(["Eve", "Gus"], deck="family.deck", devices=["here", "own"])
for _ in range(2):
    play_turn_like_ai(host, waiting)  # Eve's turn...
    game = state(host, waiting)
    if game.turn == 1:
        break
with app.app_context():
    gus_code = store.find_game(waiting).seats[1].join_code

scores_csv = host.get("/scores.csv").get_data()
assert b"Ann" in scores_csv and b"Bob" in scores_csv


def plain(value):
    if isinstance(value, datetime.datetime):
        return {"datetime": value.isoformat()}
    if isinstance(value, bytes):
        return {"base64": base64.b64encode(value).decode()}
    return value


engine = sa.create_engine("sqlite:///" + os.path.join(instance, "mason.db"))
metadata = sa.MetaData()
metadata.reflect(engine)
tables = {}
with engine.connect() as connection:
    for table in metadata.sorted_tables:
        rows = connection.execute(sa.select(table).order_by(*table.primary_key.columns)).all()
        tables[table.name] = {"columns": [column.name for column in table.columns],
                              "rows": [[plain(value) for value in row] for row in rows]}
engine.dispose()


def read(path: str) -> str:
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def seat_holders(*slugs):
    with app.app_context():
        return {slug: [{"name": seat.name, "device": seat.device, "is_ai": seat.is_ai}
                       for seat in store.find_game(slug).seats] for slug in slugs}


fixture = {
    "made_by": "scripts/first-version-fixture: commit 5ccc80d's own migrations, app and test helpers",
    "commit": "5ccc80decfb91a641df4590b7864e7efcbad332f",
    "alembic_head": tables["alembic_version"]["rows"][0][0],
    "tables": tables,
    # The instance folder's secrets and the decks folder's uploaded deck, as the old version wrote them.
    "files": {"instance/secret_key": read(os.path.join(instance, "secret_key")),
              "instance/scores.csv": read(os.path.join(instance, "scores.csv")),
              "decks/family.deck": read(os.path.join(decks, "family.deck"))},
    "games": {"finished_shuffled": finished_shuffled, "finished_stacked": finished_stacked,
              "with_phone": with_phone, "waiting": waiting},
    "seats": seat_holders(finished_shuffled, finished_stacked, with_phone, waiting),
    "cookies": {"host": host.client.get_cookie("session").value,
                "phone": phone.client.get_cookie("session").value},
    "join_code": gus_code,
    "scores_csv": scores_csv.decode("utf-8"),
    "admin_password": ADMIN_PASSWORD,
}
os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
with open(output, "w", encoding="utf-8") as handle:
    json.dump(fixture, handle, indent=1, sort_keys=True)
    handle.write("\n")
