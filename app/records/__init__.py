"""What the house keeps of finished games, long-term, as each game's definition says
(``score_keeping``): the game's own score table (``score_table``, with its file), or per-name
statistics (``statistics``). The rest of the house asks for names here, never per game.

A finished game's results are recorded after the commit that ends it (``record_finished``: the
tables tell it), in a transaction of their own that marks the game recorded, so no game is ever
counted twice (and a guided first game never); a game whose results a stopped server did not record yet is recorded when a
server next starts (``record_pending``)."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa

from .. import store
from ..core.names import computer_name
from ..core.protocol import SCORE_TABLE, GameDefinition, SeatResult
from ..extensions import db
from ..store.models import FINISHED, GameRecord
from . import score_table, scores_file, statistics

log = logging.getLogger(__name__)


def keeps_score_table(definition: GameDefinition) -> bool:
    return definition.score_keeping == SCORE_TABLE


def record_results(definition: GameDefinition, results: list[SeatResult], seconds: int | None = None,
                   options: Mapping[str, Any] | None = None) -> None:
    """A finished game's results, inside the caller's transaction. Every seated name gets a row;
    computer seats all count on the one ``AI`` row. ``seconds``: how long the game was played
    (its timed statistics), if known; ``options``: its set-up options (the results of a game
    played by house rules are kept apart from the rule book's)."""
    if keeps_score_table(definition):
        score_table.record_results(results)
    else:
        statistics.record_results(definition, results, seconds, options)


def record_finished(definition: GameDefinition, slug: str, **_told: object) -> None:
    """Record the results of game ``slug``, which just ended (the tables tell it after the commit
    that ended it), unless they are recorded already; then the score table's file follows, in
    the background (a game's end costs the same however big the table)."""
    if record_game(slug) and keeps_score_table(definition):
        scores_file.mark_stale()


def record_game(slug: str) -> bool:
    """Record the results of finished game ``slug`` in one write transaction, which marks it
    recorded; whether it recorded them (False: they were recorded already)."""
    session = db.session()
    session.expire_on_commit = False  # (the request goes on reading what it loaded)
    try:
        record = store.lock_game(slug)
        if record is None or record.status != FINISHED or record.results_recorded:
            session.rollback()
            return False
        if record.guide_step is not None:  # a guided first game changes no score or statistic
            record.results_recorded = True
            session.commit()
            return False
        state = store.load_state(record)
        started = store.first_action_at(record)
        seconds = (max(0, int((record.finished_at - started).total_seconds()))
                   if started is not None and record.finished_at is not None else 0)
        record_results(store.definition_of(record), by_strength(record, state.results()), seconds,
                       store.options_of(record))
        record.results_recorded = True
        session.commit()
        return True
    except BaseException:
        session.rollback()
        raise
    finally:
        session.expire_on_commit = True


def by_strength(record: GameRecord, results: list[SeatResult]) -> list[SeatResult]:
    """The results with each computer seat named by its strength (``computer_name``: "AI" for
    the normal player, "AI (strong)"), so that each strength's results are kept apart."""
    seats = record.seats
    return [dataclasses.replace(result, name=computer_name(seats[result.seat].strength))
            if result.seat < len(seats) and seats[result.seat].is_ai else result for result in results]


def record_pending() -> int:
    """Record every finished game whose results are not recorded yet (a server stopped between
    a game's end and its recording); how many."""
    slugs = list(db.session.scalars(sa.select(GameRecord.slug).where(
        GameRecord.status == FINISHED, GameRecord.results_recorded.is_(False))))
    db.session.rollback()
    done = 0
    for slug in slugs:
        try:
            done += record_game(slug)
        except Exception:
            log.exception("recording the results of game %s failed", slug)
    if done and score_table.game() is not None:
        scores_file.mark_stale()
    return done


def known_names(definition: GameDefinition, limit: int = 200) -> list[str]:
    """Names that have played ``definition``'s game (the first ``limit`` by name), for a set-up
    form to offer."""
    if keeps_score_table(definition):
        return score_table.names(limit=limit)[0]
    return statistics.names(definition, limit)
