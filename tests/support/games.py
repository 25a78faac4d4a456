"""Helpers for the web tests: test decks, seeded score tables, admin logins, and playing a human
seat through the table's forms.

A human seat is played with the computer player's own choices (support.moves.sensible_move, from
the stored state), but every move goes through the table's form like a browser's would.
"""

from __future__ import annotations

import io
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from support.moves import sensible_move
from support.pages import Page

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_DECKS = ROOT / "tests" / "decks"
BAD_DECKS = ROOT / "tests" / "data" / "decks"

# quick_out.deck (tests/decks/README.md): seat 1 is dealt 2C 3C 4C 5C 7D 7H 7S 9P TP JP, seat 2 the
# second line; 9C is turned up; QP tops the stock. With QP seat 1 lays everything down.
QUICK_OUT_SEAT_1 = ["2C", "3C", "4C", "5C", "7D", "7H", "7S", "9P", "TP", "JP"]
QUICK_OUT_SEAT_2 = ["2D", "4D", "6H", "8H", "TS", "QS", "3P", "5P", "KC", "AD"]
QUICK_OUT_FACE_UP = "9C"
QUICK_OUT_STOCK_TOP = "QP"

# What each invalid deck in tests/data/decks must be refused for (R2.2).
BAD_DECK_REASONS = {
    "bad_code.deck": ["'10P'", "code 9"],
    "comment.deck": ["'#'", "code 1"],
    "duplicate.deck": ["7H appears twice", "codes 6 and 49"],
    "empty.deck": ["0 card codes", "65"],
    "too_few.deck": ["64 card codes", "missing: 5S"],
    "sixty_six.deck": ["9C appears twice", "66 card codes"],
}
# Valid despite their looks: lower case codes (R1.3) and any whitespace (R2.1).
ODD_BUT_VALID_DECKS = ["lowercase.deck", "mixed_whitespace.deck"]


def copy_test_decks(decks_folder: Path, names=None) -> list[str]:
    """Put the test decks (all of them by default) into the app's decks folder."""
    copied = []
    for path in sorted(BAD_DECKS.glob("*.deck")):
        if names is None or path.name in names:
            shutil.copy(path, decks_folder / path.name)
            copied.append(path.name)
    return copied


def deck_text(name: str) -> str:
    return (SAMPLE_DECKS / name).read_text()


# -- pages ------------------------------------------------------------------------------------------


def text(response) -> str:
    return response.get_data(as_text=True)


def page(response) -> Page:
    return Page(text(response))


def is_fragment(html: str) -> bool:
    return "<html" not in html.lower() and "<body" not in html.lower()


def forget_csrf(player) -> None:
    """After Quit the session (and its CSRF token) is new: read the token again, as a browser
    does from the page it shows next."""
    player._csrf = None


# -- the database -------------------------------------------------------------------------------


def seed_scores(app, rows) -> None:
    """Make the score table exactly ``rows``: (name, won, lost, best)."""
    from app import store
    from app.extensions import db
    from app.games.mason import ScoreRow, ScoreTable
    from app.records import score_table

    with app.app_context():
        store.begin_write()
        score_table.replace(ScoreTable(ScoreRow(*row) for row in rows))
        db.session.commit()


def score_rows(app) -> list[tuple]:
    from app.records import score_table

    with app.app_context():
        return [(r.name, r.won, r.lost, r.best) for r in score_table.whole_table().sorted_rows()]


def game_count(app) -> int:
    import sqlalchemy as sa

    from app.extensions import db
    from app.store.models import GameRecord

    with app.app_context():
        return db.session.scalar(sa.select(sa.func.count()).select_from(GameRecord))


def stored(player, slug):
    """(state dict, version) of a game as stored: compare before/after a refused action."""
    game, version = player.state(slug)
    return game.to_dict(), version


def hand(player, slug, seat: int) -> list[str]:
    game, _version = player.state(slug)
    return [card.code for card in game.players[seat].hand.cards]


# -- admin ------------------------------------------------------------------------------------------


def admin_login(player, password: str | None = None):
    password = password if password is not None else player.app.config["ADMIN_PASSWORD"]
    response = player.post("/admin/login", {"password": password, "next": "/admin"})
    assert response.status_code == 303, text(response)
    assert response.headers["Location"] == "/admin", response.headers["Location"]
    return response


def admin_player(app):
    """A new browser, logged in as the admin."""
    from support.web import Player

    player = Player(app)
    admin_login(player)
    return player


def upload(player, url: str, field: str, filename: str, data: bytes | str, **extra):
    if isinstance(data, str):
        data = data.encode()
    return player.post(url, {field: (io.BytesIO(data), filename), **extra}, content_type="multipart/form-data")


@dataclass
class Imported:
    """An exported game sent to the admin's import: the upload's ``status``, and the messages of
    its answer or, once the job runner has checked the file (303), of the verdict's page; the
    ``slug`` of the game imported (None: refused)."""

    status: int
    alerts: list[str]
    slug: str | None
    body: str


def import_file(player, runner, data: bytes | str, filename: str = "game.json") -> Imported:
    """Send an exported game to the admin's import, and wait for the job runner's verdict
    (``runner``: the ``job_runner`` fixture)."""
    response = upload(player, "/finished/import", "game", filename, data)
    if response.status_code != 303:
        return Imported(response.status_code, Page(text(response)).alerts, None, text(response))
    assert response.headers["Location"].startswith("/finished/import/"), response.headers["Location"]
    runner.settle()
    body = text(player.get(response.headers["Location"]))
    found = re.search(r'href="/games/([0-9A-Za-z_-]+)/replay', body)
    return Imported(303, Page(body).alerts, found.group(1) if found else None, body)


# -- playing through the table's forms --------------------------------------------------------------


def reveal_if_needed(player, slug) -> None:
    view = player.table(slug)
    if any("show my hand" in label for label in view.button_texts()):
        response = player.reveal(slug)
        assert response.status_code == 200, text(response)


def play_turn_like_ai(player, slug) -> None:
    """Play the current (human) seat's whole turn through the table's form, each move the
    computer player's choice, until the turn passes (the seat to move changes, or computer seats
    played after it) or the round ends. Any registered game."""
    reveal_if_needed(player, slug)
    state, version = player.state(slug)
    seat = state.to_move()
    assert seat is not None, "nobody is to move"
    while state.to_move() == seat:
        response = player.play(slug, sensible_move(state), version=version)
        assert response.status_code == 200, page(response).alerts
        state, after = player.state(slug)
        assert after > version, "an accepted move made no new version"
        if after > version + 1:
            return  # the computer seats played after it: the turn has passed
        version = after


def next_round(player, slug):
    """Press Mason Rummy's "deal the next round" on the round summary (a plain form post)."""
    view = player.table(slug)
    return player.post(f"/games/{slug}/act", {"action": "next_round", "version": str(view.version)})


def play_round(player, slug, max_turns: int = 200) -> None:
    """Play human turns (the AI seats play themselves) until the round or the game is over."""
    for _ in range(max_turns):
        state, _version = player.state(slug)
        if state.is_over() or state.to_move() is None:
            return
        play_turn_like_ai(player, slug)
    raise AssertionError("the round did not end")


def play_game(player, slug, max_rounds: int = 50) -> None:
    """Play every round to the final results, dealing the next rounds through the summary's form
    (the table's move, ``legal(None)``)."""
    for _ in range(max_rounds):
        play_round(player, slug)
        state, version = player.state(slug)
        if state.is_over():
            return
        response = player.play(slug, sensible_move(state), version=version, htmx=False)
        assert response.status_code == 303, text(response)
    raise AssertionError("the game did not end")


def go_out_quick(player, slug) -> None:
    """quick_out.deck, seat 1's turn: draw QP and lay everything down (R5.7)."""
    assert player.act(slug, "draw_stock").status_code == 200
    for cards in (["2C", "3C", "4C", "5C"], ["9P", "TP", "JP", "QP"], ["7D", "7H", "7S"]):
        response = player.act(slug, "lay_down", cards)
        assert response.status_code == 200, page(response).alerts
