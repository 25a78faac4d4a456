"""A player's action takes the database's write lock only to write its change: the game is read,
checked and changed by the rules (and the computer players) first. A refusal (a stale form, a
move out of turn) therefore never waits for the lock; and when another write to the game comes
between the read and the write, the action is done again under the lock and answered exactly as
if it had waited for that write: a move (or the hot-seat hand-over's "show my hand") made on the
older version is stale (409, nothing written), a seat's private move (Points Rummy's arranging,
P3) is made on the newer game."""

from __future__ import annotations

import threading

import pytest
import sqlalchemy as sa
from sqlalchemy.pool import NullPool
from support.client import Browser

from app import store


def another_write_comes_between(monkeypatch, database_url: str, slug: str) -> list[int]:
    """Before the action's write lock is taken, another connection commits a new version of the
    game (as a seat being claimed does). Returns the versions it wrote (one per action read
    without the lock)."""
    engine = sa.create_engine(database_url, poolclass=NullPool)
    written: list[int] = []
    start_change = store.start_change

    def overtaken(record) -> None:
        with engine.begin() as connection:
            written.append(connection.execute(sa.text(
                "UPDATE games SET version = version + 1 WHERE slug = :slug RETURNING version"),
                {"slug": slug}).scalar_one())
        start_change(record)

    monkeypatch.setattr(store, "start_change", overtaken)
    return written


def stored(app, slug: str):
    with app.app_context():
        record = store.find_game(slug)
        return record.version, store.load_state(record), len(store.actions_after(record, 0))


def test_a_move_overtaken_between_its_read_and_its_write_is_stale_and_writes_nothing(app, player, database_url,
                                                                                     monkeypatch):
    slug = player.start_game(["Ann", "AI"], deck="run_or_meld.deck")
    page = player.table(slug)
    _version, _state, logged = stored(app, slug)
    written = another_write_comes_between(monkeypatch, database_url, slug)

    answer = player.act(slug, "draw_stock", version=page.version, seat=page.seat)

    assert answer.status_code == 409 and "changed" in answer.get_data(as_text=True)
    version, state, logged_after = stored(app, slug)
    assert written and version == written[-1] and logged_after == logged  # the draw was not made
    assert len(state.players[0].hand.cards) == 10


def test_a_private_move_overtaken_between_its_read_and_its_write_is_made_on_the_newer_game(app, player,
                                                                                           database_url,
                                                                                           monkeypatch):
    slug = player.set_up("points", ["Ann", "AI"], ["here", "here"], deals=1, deck="declare_after_one_draw.deck",
                         setup_token="")
    page = player.table(slug)
    written = another_write_comes_between(monkeypatch, database_url, slug)

    answer = player.post(f"/games/{slug}/act", {"version": str(page.version), "seat": str(page.seat),
                                                "action": "group", "cards": ["AH", "2H", "3H"]}, htmx=True)

    assert answer.status_code == 200, answer.get_data(as_text=True)[:2000]
    version, state, _logged = stored(app, slug)
    assert written == [page.version + 1] and version == written[0]  # (a private move makes no version)
    assert [[card.id for card in group] for group in state.arrangements[0]] == [["AH", "2H", "3H"]]


def test_a_hand_over_overtaken_between_its_read_and_its_write_is_stale_and_shows_no_hand(app, player,
                                                                                         database_url, monkeypatch):
    slug = player.start_game(["Doris", "Ann"], deck="quick_out.deck")  # both on this device (hot-seat)
    page = player.table(slug)
    written = another_write_comes_between(monkeypatch, database_url, slug)

    answer = player.post(f"/games/{slug}/reveal", {"version": str(page.version)}, htmx=True)

    assert answer.status_code == 409 and "The table changed" in answer.get_data(as_text=True)
    with app.app_context():
        record = store.find_game(slug)
        assert written and record.version == written[-1] and record.shown_seat is None


@pytest.mark.slow
def test_a_refused_action_is_answered_while_another_holds_the_write_lock(live_server, db_reader):
    browser = Browser(live_server.url, timeout=10)  # (SQLite's wait for the lock is 15 s)
    slug = browser.start_game(["Ann", "AI"], deck="run_or_meld.deck")
    old = browser.table(slug)
    assert browser.post(f"/games/{slug}/act", browser.act_form(old.table_version, old.page.seat, "draw_stock"),
                        htmx=True).status == 200
    fresh = db_reader.game(slug).version

    engine = sa.create_engine(live_server.database_url, poolclass=NullPool)
    with engine.connect() as holder:
        if engine.dialect.name == "sqlite":
            holder.exec_driver_sql("BEGIN IMMEDIATE")
        else:  # what the server's own lock on a game is there (store.lock_game)
            holder.execute(sa.text("SELECT id FROM games WHERE slug = :slug FOR UPDATE"), {"slug": slug})
        refused = browser.post(f"/games/{slug}/act", browser.act_form(old.table_version, old.page.seat, "draw_stock"),
                               htmx=True)
        assert refused.status == 409 and refused.table_version == fresh  # the stale form, answered at once

        made: list = []
        discard = threading.Thread(target=lambda: made.append(browser.post(
            f"/games/{slug}/act", browser.act_form(fresh, old.page.seat, "discard", [refused.page.hand[0]]),
            htmx=True)))
        discard.start()
        discard.join(1.0)
        assert made == []  # a move waits for the lock to write
        holder.rollback()
    discard.join(10)
    assert made and made[0].status == 200 and db_reader.game(slug).version > fresh
