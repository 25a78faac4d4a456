"""Persistence: every action is committed before its response, a game survives a restart (a new
app object on the same database and instance folder) and continues exactly where it was, a
refresh never repeats an action, and a form posted twice is applied once."""

from __future__ import annotations

import pytest

from support.games import (
    QUICK_OUT_SEAT_1, QUICK_OUT_STOCK_TOP, admin_login, go_out_quick, page, play_game,
    score_rows, stored, text, upload,
)
from support.web import Player


@pytest.fixture
def restart(app):
    """Build a second app object like a restarted server: same database, same instance folder."""
    from app.factory import create_app
    from app.extensions import db
    from config import TestConfig

    made = []

    def build():
        second = create_app(TestConfig, instance_path=app.instance_path,
                            SQLALCHEMY_DATABASE_URI=app.config["SQLALCHEMY_DATABASE_URI"],
                            DECKS_FOLDER=app.config["DECKS_FOLDER"])
        made.append(second)
        return second

    yield build
    for second in made:
        with second.app_context():
            db.session.remove()
            db.engine.dispose()


def seen_by(other_app, slug):
    """The game as another app object (another process, after a restart) reads it."""
    from app import store

    with other_app.app_context():
        record = store.find_game(slug)
        return store.load_state(record).to_dict(), record.version


def same_browser(player: Player, other_app) -> Player:
    """The same browser (its cookies) talking to another app object."""
    moved = Player(other_app)
    cookie = player.client.get_cookie("session")
    assert cookie is not None
    moved.client.set_cookie("session", cookie.value)
    return moved


def action_log(other_app, slug) -> list[tuple[int, int | None, str]]:
    import sqlalchemy as sa

    from app.extensions import db
    from app.store.models import ActionRecord, GameRecord

    with other_app.app_context():
        game_id = db.session.scalar(sa.select(GameRecord.id).where(GameRecord.slug == slug))
        return [tuple(row) for row in db.session.execute(
            sa.select(ActionRecord.version, ActionRecord.seat, ActionRecord.action)
            .where(ActionRecord.game_id == game_id).order_by(ActionRecord.version)).all()]


def test_every_action_is_committed_before_the_response(player, restart):
    slug = player.start_game(["Doris", "AI"], deck="quick_out.deck")
    other = restart()
    assert seen_by(other, slug) == stored(player, slug)
    steps = [("draw_stock", []), ("lay_down", ["2C", "3C", "4C"]), ("lay_down", ["5C"]),
             ("discard", [QUICK_OUT_STOCK_TOP]),  # then the AI plays its turn in the same request
             ("draw_discard", [])]
    for action, cards in steps:
        response = player.act(slug, action, cards)
        assert response.status_code == 200, page(response).alerts
        state, version = seen_by(other, slug)
        assert page(response).version == version  # the response shows what is committed
        assert (state, version) == stored(player, slug)
        assert [row[0] for row in action_log(other, slug)] == list(range(2, version + 1))  # one row per version


def test_a_game_survives_a_restart_and_continues_exactly_where_it_was(player, restart):
    slug = player.start_game(["Doris", "AI"], deck="quick_out.deck")
    assert player.act(slug, "draw_stock").status_code == 200
    assert player.act(slug, "lay_down", ["2C", "3C", "4C", "5C"]).status_code == 200
    before = stored(player, slug)

    browser = same_browser(player, restart())
    view = browser.table(slug)
    assert view.version == before[1]
    assert view.hand == ["7D", "7H", "7S", "9P", "TP", "JP", "QP"]
    assert "Doris laid down a run: 2\u2663 3\u2663 4\u2663 5\u2663." in view.log
    assert f'href="/games/{slug}">Resume' in browser.page("/").html  # listed on Menu A to resume
    # Still Menu E (one draw per turn): the drawn card is not forgotten.
    assert browser.act(slug, "draw_stock").status_code == 422
    assert browser.act(slug, "lay_down", ["9P", "TP", "JP", "QP"]).status_code == 200
    response = browser.act(slug, "lay_down", ["7D", "7H", "7S"])
    assert response.status_code == 200
    assert "Round 1 is over" in text(response)


def test_a_finished_game_s_scores_survive_a_restart(app, player, restart):
    slug = player.start_game(["Doris", "AI"], deck="quick_out.deck")
    play_game(player, slug)
    other = restart()
    assert score_rows(other) == [("AI", 0, 1, None), ("Doris", 1, 0, 0)]
    browser = same_browser(player, other)
    assert browser.get("/scores.csv").get_data(as_text=True) == (
        '"name","games won","games lost","best score"\n"AI","0","1",""\n"Doris","1","0","0"\n')
    assert "Doris wins with 0 points!" in browser.table(slug).html


def test_a_refresh_never_repeats_an_action(player):
    slug = player.start_game(["Doris", "AI"], deck="quick_out.deck")
    response = player.act(slug, "draw_stock", htmx=False)
    assert response.status_code == 303  # post/redirect/get: a refresh reloads the GET
    after = stored(player, slug)
    for _ in range(3):
        view = player.page(response.headers["Location"])
        assert view.version == after[1] and len(view.hand) == 11
        assert player.get(f"/games/{slug}/table").status_code == 200
    assert stored(player, slug) == after
    assert player.get(f"/games/{slug}/act").status_code == 405  # the action URL itself cannot be loaded


@pytest.mark.parametrize("htmx", [True, False])
def test_a_form_posted_twice_is_applied_once_and_the_second_gets_the_fresh_table(player, htmx):
    slug = player.start_game(["Doris", "AI"], deck="quick_out.deck")
    version = player.table(slug).version
    first = player.act(slug, "draw_stock", version=version, seat=0, htmx=htmx)
    assert first.status_code == (200 if htmx else 303)
    after = stored(player, slug)
    second = player.act(slug, "draw_stock", version=version, seat=0, htmx=htmx)
    if htmx:
        assert second.status_code == 409
    else:  # a plain form: back to the table, which says why
        second = player.followed(second, to=f"/games/{slug}")
    view = page(second)
    assert view.alerts == ["The table changed before your action arrived, so nothing was done. Here it is now."]
    assert view.version == after[1]
    assert view.hand == QUICK_OUT_SEAT_1 + [QUICK_OUT_STOCK_TOP]
    assert stored(player, slug) == after
    assert len(after[0]["stock"]) == 43  # one card left the stock, not two


def test_a_discard_posted_twice_is_applied_once(player, restart):
    slug = player.start_game(["Doris", "AI"], deck="quick_out.deck")
    assert player.act(slug, "draw_stock").status_code == 200
    version = player.table(slug).version
    assert player.act(slug, "discard", ["2C"], version=version, seat=0).status_code == 200
    after = stored(player, slug)
    assert player.act(slug, "discard", ["3C"], version=version, seat=0).status_code == 409
    assert stored(player, slug) == after
    assert seen_by(restart(), slug) == after
    discards = [row for row in action_log(restart(), slug) if '"discard"' in row[2] and row[1] == 0]
    assert len(discards) == 1


def test_the_next_round_posted_twice_deals_once(player):
    slug = player.start_game(["Doris", "AI"], deck="quick_out.deck")
    go_out_quick(player, slug)
    version = player.table(slug).version
    data = {"action": "next_round", "version": str(version)}
    assert player.post(f"/games/{slug}/act", data).status_code == 303
    after = stored(player, slug)
    assert "The table changed" in page(player.followed(player.post(f"/games/{slug}/act", data))).alerts[0]
    assert stored(player, slug) == after
    assert after[0]["round"] == 2


def test_a_setup_started_on_one_app_object_is_finished_on_another(player, restart):
    """The setup lives in the browser's signed session, so a restart does not lose it."""
    assert player.post("/menus/mason", {"choice": "4"}).status_code == 303
    assert player.post("/setup/deck", {"deck": "quick_out.deck"}).status_code == 303
    assert player.post("/setup/seat", {"kind": "1", "name": "Doris"}).status_code == 303
    browser = same_browser(player, restart())
    response = browser.post("/setup/seat", {"kind": "1", "name": "AI"})
    assert response.status_code == 303
    slug = response.headers["Location"].rsplit("/", 1)[1]
    assert browser.table(slug).hand == QUICK_OUT_SEAT_1
    assert player.state(slug)[0].players[0].name == "Doris"  # the first app object sees it too


def test_a_score_import_previewed_before_a_restart_can_be_applied_after_it(app, player, restart):
    import re

    admin_login(player)
    response = upload(player, "/admin/scores/import", "scores", "scores.csv",
                      '"name","games won","games lost","best score"\n"Eve","1","0","9"\n')
    token = re.search(r'action="/admin/scores/import/([^"]+)"', text(response)).group(1)
    browser = same_browser(player, restart())
    assert browser.post(f"/admin/scores/import/{token}").status_code == 303
    assert score_rows(app) == [("Eve", 1, 0, 9)]
