"""Guided first games ("Learn by playing"): every registered game has one; its script is legal
move by move for its stacked deal (walked through the game's rules, and again through the table's
forms); while the script lasts only the step's move is made; a guided game changes no score or
statistic and no list of games shows it."""

from __future__ import annotations

import re
from pathlib import Path
from datetime import timedelta

import pytest
import sqlalchemy as sa
from babel.messages.pofile import read_po
from werkzeug.datastructures import MultiDict

import app.games  # noqa: F401  (registers the games)
from app.core import guides, registry
from app.core.protocol import IllegalAction
from app.extensions import db
from app.store.models import ABANDONED, PLAYING, GameRecord, utcnow
from app import records
from app.records import known_names, score_table, statistics

from support.pages import squeeze
from support.web import Page

ROOT = Path(__file__).resolve().parents[2]

VERSION = re.compile(r'id="table"[^>]*data-version="(\d+)"')


def guided():
    return [(definition, guides.guide_of(definition)) for definition in registry.games()]


def test_every_registered_game_has_a_guide():
    games = guided()
    assert games and all(guide is not None for _definition, guide in games), [d.key for d, g in games if g is None]


@pytest.mark.parametrize("key", [definition.key for definition, _guide in guided()])
def test_the_script_is_legal_move_by_move_for_its_deal(key):
    definition = registry.get(key)
    guide = guides.guide_of(definition)
    state = guides.walk(definition, guide)
    assert len(guide.steps) >= 4
    assert state is not None


def test_a_step_out_of_order_is_not_legal():
    """The walk is a real check: the same script with two steps swapped fails."""
    definition = registry.get("twentyone")
    guide = guides.guide_of(definition)
    steps = list(guide.steps)
    swapped = guides.Guide(deck=guide.deck, names=guide.names, options=guide.options, welcome="", farewell="",
                           steps=(steps[2], steps[0], steps[1], *steps[3:]))
    with pytest.raises(IllegalAction):
        guides.walk(definition, swapped)


def text_of(html: str) -> str:
    """The words a browser shows."""
    return squeeze(Page(html).root.text)


def pointed_at(html: str) -> str | None:
    guide = Page(html).find("section", "learn")
    return None if guide is None else guide.get("data-learn-target")


def version_of(html: str) -> int:
    found = VERSION.search(html)
    assert found, html[:500]
    return int(found.group(1))


def form_of(step: guides.GuideStep, version: int) -> list[tuple[str, str]]:
    fields = [("version", str(version)), ("seat", "" if step.seat is None else str(step.seat)),
              ("confirmed", "1")]  # (a move that asks first, as a declaration does: answered yes)
    for name, value in step.action.items():
        if isinstance(value, list):
            fields += [(name, str(item)) for item in value]
        elif value is not None:
            fields.append((name, str(value)))
    return fields


def post_move(player, slug: str, fields: list[tuple[str, str]]):
    """A table form's post, as htmx sends it (a field may come more than once: the cards)."""
    return player.client.post(f"/games/{slug}/act", data=MultiDict(fields + [("csrf_token", player.csrf_token())]),
                              headers={"HX-Request": "true"})


def statistics_now(app):
    with app.app_context():
        seen = {definition.key: known_names(definition) for definition in registry.games()}
        seen["rows"] = [len(score_table.names(limit=1000)[0])] + [
            len(statistics.names(definition, 1000)) for definition in registry.games()]
        db.session.rollback()
    return seen


@pytest.mark.parametrize("key", [definition.key for definition, _guide in guided()])
def test_the_guide_is_played_at_a_real_table_and_changes_no_score(app, player, key):
    definition = registry.get(key)
    guide = guides.guide_of(definition)
    before = statistics_now(app)
    learn = player.page(f"/learn/{key}")
    assert guide.welcome in squeeze(learn.root.text)
    answer = player.post(f"/learn/{key}")
    assert answer.status_code == 303
    table_url = answer.headers["Location"]
    slug = table_url.rsplit("/", 1)[1]
    html = player.get(table_url).get_data(as_text=True)
    for number, step in enumerate(guide.steps):
        shown = text_of(html)
        assert f"step {number + 1} of {len(guide.steps)}" in shown, shown[:800]
        assert step.say in shown
        assert pointed_at(html) == step.points_at
        if number == 0:  # any other move is refused with the step's words, and changes nothing
            other = post_move(player, slug, form_of(guides.GuideStep({"action": "no such move"}, "", ""), version_of(html)))
            assert other.status_code in (400, 422)
        answer = post_move(player, slug, form_of(step, version_of(html)))
        assert answer.status_code == 200, Page(answer.get_data(as_text=True)).alerts
        html = player.get(table_url).get_data(as_text=True)
    assert guide.farewell in text_of(html)
    assert "Guide finished" in text_of(html)
    # no list shows it, and no score or statistic changed
    assert slug not in player.get("/").get_data(as_text=True)
    assert slug not in player.get("/finished").get_data(as_text=True)
    assert statistics_now(app) == before


def test_a_move_the_step_does_not_ask_for_is_refused_with_its_words(app, player):
    definition = registry.get("twentyone")
    guide = guides.guide_of(definition)
    answer = player.post("/learn/twentyone")
    slug = answer.headers["Location"].rsplit("/", 1)[1]
    html = player.get(f"/games/{slug}").get_data(as_text=True)
    stay = guides.GuideStep({"action": "stay"}, "", "")  # legal by the rules (T3.2), not the step's
    refused = post_move(player, slug, form_of(stay, version_of(html)))
    assert refused.status_code == 422
    assert guide.steps[0].say in text_of(refused.get_data(as_text=True))
    assert version_of(player.get(f"/games/{slug}").get_data(as_text=True)) == version_of(html)
    # ... in the reader's language: the house's sentence and the step's words as the guide shows them
    with open(ROOT / "translations" / "es" / "LC_MESSAGES" / "games.po", "rb") as handle:
        step_in_spanish = read_po(handle)[guide.steps[0].say].string
    player.post("/language", {"language": "es", "next": "/"})
    spanish = text_of(post_move(player, slug, form_of(stay, version_of(html))).get_data(as_text=True))
    assert "Aquí la guía pide otra jugada." in spanish and step_in_spanish in spanish
    assert guide.steps[0].say not in spanish


def test_a_guide_of_no_game_is_not_found(player):
    assert player.get("/learn/nosuchgame").status_code == 404


def test_the_home_page_and_each_how_to_play_page_link_each_guide(player):
    home = player.get("/").get_data(as_text=True)
    for definition, _guide in guided():
        assert f'href="/learn/{definition.key}"' in home
        assert f'href="/learn/{definition.key}"' in player.get(f"/how-to-play/{definition.key}").get_data(as_text=True)


def test_a_finished_guided_game_is_never_recorded_not_even_when_a_server_starts(app, player):
    """The results of a finished game a stopped server had not recorded are recorded when a server
    starts (``records.record_pending``); a guided game's never are."""
    definition = registry.get("twentyone")
    guide = guides.guide_of(definition)
    before = statistics_now(app)
    slug = player.post("/learn/twentyone").headers["Location"].rsplit("/", 1)[1]
    for step in guide.steps:
        html = player.get(f"/games/{slug}").get_data(as_text=True)
        assert post_move(player, slug, form_of(step, version_of(html))).status_code == 200
    with app.app_context():
        assert records.record_game(slug) is False
        assert records.record_pending() == 0
        db.session.rollback()
    assert statistics_now(app) == before


def test_a_guided_game_left_part_way_for_a_day_ends_when_another_guide_starts(app, player):
    """Guided games are listed nowhere: one left part-way would stay in play for ever. Untouched
    for a day, it is abandoned when a guided game is next started; a fresh one is left alone."""
    left = player.post("/learn/twentyone").headers["Location"].rsplit("/", 1)[1]
    fresh = player.post("/learn/rummy").headers["Location"].rsplit("/", 1)[1]
    with app.app_context():
        db.session.execute(sa.update(GameRecord).where(GameRecord.slug == left)
                           .values(updated_at=utcnow() - timedelta(days=1, minutes=1)))
        db.session.commit()
    player.post("/learn/points")
    with app.app_context():
        status = dict(db.session.execute(sa.select(GameRecord.slug, GameRecord.status)
                                         .where(GameRecord.slug.in_([left, fresh]))).all())
    assert status == {left: ABANDONED, fresh: PLAYING}
