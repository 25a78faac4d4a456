"""Helpers for the web tests of issue 3: forms on a page, seeded score tables, admin logins,
and playing a human seat through the table's forms.

A human seat is played with the computer player's own choices (R8), computed from the stored
state, but every move goes through the web forms like a browser's would.
"""

from __future__ import annotations

import io
import shutil
from html.parser import HTMLParser
from pathlib import Path

from support.web import Page

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_DECKS = ROOT / "decks"
BAD_DECKS = ROOT / "tests" / "data" / "decks"

# quick_out.deck (decks/README.md): seat 1 is dealt 2C 3C 4C 5C 7D 7H 7S 9P TP JP, seat 2 the
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


# -- forms ----------------------------------------------------------------------------------------


class Forms(HTMLParser):
    """Every <form> of a page: method, action, its named inputs and its buttons' texts."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.forms: list[dict] = []
        self._form: dict | None = None
        self._button: list | None = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "form":
            self._form = {"method": (attributes.get("method") or "get").lower(),
                          "action": attributes.get("action"), "inputs": {}, "buttons": [],
                          "hx_post": attributes.get("hx-post")}
            self.forms.append(self._form)
        elif self._form is not None and tag == "input" and attributes.get("name"):
            self._form["inputs"].setdefault(attributes["name"], []).append(attributes.get("value") or "")
        elif self._form is not None and tag == "button":
            self._button = [attributes.get("name"), attributes.get("value"), []]

    def handle_endtag(self, tag):
        if tag == "button" and self._button is not None and self._form is not None:
            name, value, text = self._button
            self._form["buttons"].append((name, value, " ".join("".join(text).split())))
            self._button = None
        elif tag == "form":
            self._form = None

    def handle_data(self, data):
        if self._button is not None:
            self._button[2].append(data)

    def posting_to(self, action: str) -> list[dict]:
        return [form for form in self.forms if form["method"] == "post" and form["action"] == action]


def forms(html: str) -> Forms:
    return Forms(html)


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

    with app.app_context():
        store.begin_write()
        store.replace_scores(ScoreTable(ScoreRow(*row) for row in rows))
        db.session.commit()


def score_rows(app) -> list[tuple]:
    from app import store

    with app.app_context():
        return [(r.name, r.won, r.lost, r.best) for r in store.score_table().sorted_rows()]


def game_count(app) -> int:
    import sqlalchemy as sa

    from app.extensions import db
    from app.models import GameRecord

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
    return response


def upload(player, url: str, field: str, filename: str, data: bytes | str, **extra):
    if isinstance(data, str):
        data = data.encode()
    return player.post(url, {field: (io.BytesIO(data), filename), **extra}, content_type="multipart/form-data")


# -- playing through the table's forms --------------------------------------------------------------


def reveal_if_needed(player, slug) -> None:
    view = player.table(slug)
    if any("show my hand" in label for label in view.button_texts()):
        response = player.reveal(slug)
        assert response.status_code == 200, text(response)


def play_turn_like_ai(player, slug) -> None:
    """Play the current (human) seat's whole turn through the forms with the R8 choices."""
    from app.games.mason import Draw, LayDown
    from app.games.mason.bot import choose_computer_discard, computer_draw_source, next_computer_play

    reveal_if_needed(player, slug)
    game, _version = player.state(slug)
    seat = game.turn
    source = computer_draw_source(game, seat)
    response = player.act(slug, "draw_stock" if source == "stock" else "draw_discard", seat=seat)
    assert response.status_code == 200, page(response).alerts
    game.apply(seat, Draw(source))
    while True:
        selection = next_computer_play(game.players[seat].hand)
        if selection is None:
            break
        codes = [card.code for card in selection]
        response = player.act(slug, "lay_down", codes, seat=seat)
        assert response.status_code == 200, page(response).alerts
        if game.apply(seat, LayDown(selection)).round_over:
            return
    card = choose_computer_discard(game, seat)
    response = player.act(slug, "discard", [card.code], seat=seat)
    assert response.status_code == 200, page(response).alerts


def next_round(player, slug):
    view = player.table(slug)
    return player.post(f"/games/{slug}/act", {"action": "next_round", "version": str(view.version)})


def play_round(player, slug, max_turns: int = 200) -> None:
    """Play human turns (the AI seats play themselves) until the round or the game is over."""
    from app.games.mason import DRAW_PHASE, PLAY_PHASE

    for _ in range(max_turns):
        game, _version = player.state(slug)
        if game.phase not in (DRAW_PHASE, PLAY_PHASE):
            return
        play_turn_like_ai(player, slug)
    raise AssertionError("the round did not end")


def play_game(player, slug) -> None:
    """Play every round to the final results, dealing the next rounds through the summary's form."""
    from app.games.mason import GAME_OVER

    while True:
        play_round(player, slug)
        game, _version = player.state(slug)
        if game.phase == GAME_OVER:
            return
        response = next_round(player, slug)
        assert response.status_code == 303, text(response)


def go_out_quick(player, slug) -> None:
    """quick_out.deck, seat 1's turn: draw QP and lay everything down (R5.7)."""
    assert player.act(slug, "draw_stock").status_code == 200
    for cards in (["2C", "3C", "4C", "5C"], ["9P", "TP", "JP", "QP"], ["7D", "7H", "7S"]):
        response = player.act(slug, "lay_down", cards)
        assert response.status_code == 200, page(response).alerts
