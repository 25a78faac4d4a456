"""Helpers of the browser tests (tests/browser): an axe-core scan of a page, a finished game made
on a live server's database, and a move's button words."""

from __future__ import annotations

from pathlib import Path

AXE = Path(__file__).resolve().parents[1] / "browser" / "vendor" / "axe-core-4.14.1.min.js"


def axe_scan(page, label: str) -> list[str]:
    """The serious and critical violations axe-core finds on the page (an empty list is a pass)."""
    page.evaluate(AXE.read_text())
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    found = []
    for violation in result["violations"]:
        if violation["impact"] in ("serious", "critical"):
            targets = [node["target"] for node in violation["nodes"]][:3]
            found.append(f"{label}: {violation['id']} ({violation['impact']}): {violation['help']} {targets}")
    return found


class Maker:
    """The browser that sets the finished game up and plays it, as the tables take a browser
    (``tables.Holder``): its key, and no cookie's copy of what it holds."""

    def __init__(self, key: str):
        self.key = key

    def known(self, slug: str) -> None:
        return None

    def learn(self, slug: str, hashes: dict) -> None:
        pass


def finished_game(database_url, decks_folder, tmp_path, key: str = "mason", seats: int = 2) -> str:
    """A finished game of ``seats`` computer players of game ``key``, made in this process on the
    live server's database: the rounds dealt on by the table's first move, as a browser would (the
    table's last move from the third deal on, which ends a game that could go on for ever, as
    21's "End the table"). A game whose computer player plays only off the request path (the
    job runner's) is played by a person here instead, its last move from the third on ("Give up")."""
    from app import store, tables
    from app.factory import create_app
    from app.core import registry
    from app.core.protocol import plays_off_request
    from config import TestConfig

    app = create_app(TestConfig, instance_path=str(tmp_path / f"maker-{key}"), SQLALCHEMY_DATABASE_URI=database_url,
                     DECKS_FOLDER=str(decks_folder))
    with app.app_context():
        definition = registry.get(key)
        people = plays_off_request(definition.bot)
        specs = [tables.SeatSpec(f"Player {number + 1}", False) if people else tables.SeatSpec("AI", True)
                 for number in range(seats)]
        maker = Maker(tables.new_browser_key())
        slug = tables.set_up(tables.SetUp(definition, specs), maker, "")
        for dealt in range(300):
            record = store.find_game(slug)
            if record.status != "playing":
                break
            state = store.load_state(record)
            moves = state.legal(None)
            seat = None if moves else state.to_move()
            moves = moves or state.legal(seat)
            move = moves[0] if dealt < 2 else moves[-1]
            tables.perform(slug, maker, tables.ActionForm(record.version, seat, move.as_dict()))
        else:
            raise AssertionError(f"{key}: the computer players did not finish")
        store.db.session.remove()
        store.db.engine.dispose()
    return slug


def button_words(move, deck_key: str = "mason") -> str:
    """The words of a move's button as the table shows them: its say (its cards named as cards,
    "Take the 9\u2663 from the discard pile"), else its label."""
    from app.web.words import render

    return render(move.say, deck_key, html=False) if move.say else move.label
