"""The request side of the job runner's work: kept answers read, questions asked, computer turns
and exported games' files queued. Nothing here works an answer out: at most it writes the question down (and rings the
runner, ``bell``) and reads what the runner kept.

What a table shows of its position's question (``Shown.state``):

- ``known``: the kept answer (``Shown.answer``);
- ``checking``: asked, being worked out: the answer comes through the live update, or at the
  next page load;
- ``too_hard``: the runner spent the whole budget on it without an answer;
- ``not_asked``: nobody asked yet (a spectator's page never asks);
- ``paused``: this client address asked more than ``SOLVES_PER_MINUTE`` new questions in the
  last minute: asked again by its next move, or its next page load after that;
- ``busy``: ``SOLVER_WAITING_MAX`` questions are waiting already: asked again later the same way.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Mapping, Sequence

import sqlalchemy as sa
from flask import current_app

from .. import store
from ..store import limits
from ..core.cards import Card
from ..core.protocol import GameDefinition, GameState, NeedsAnswers, Question
from ..extensions import db
from ..store.models import (
    ANSWERED, IMPORT, QUESTION, TOO_HARD as TOO_HARD_ROW, TURN, WAITING, WORKING, Analysis, GameRecord, utcnow,
)
from . import bell


class StillChecking(Exception):
    """A game cannot be dealt before the job runner has answered the questions its deal needs
    (deal only winnable games): asked, but not answered in the time a set-up may wait."""


KNOWN, CHECKING, TOO_HARD, NOT_ASKED, PAUSED, BUSY = "known", "checking", "too_hard", "not_asked", "paused", "busy"
PLAYER, SETUP = 0, 1  # priorities: the position on a player's table first, then a set-up's deals
SOLVE = "solve"  # limits' kind: a new question asked by a client address
WAITING_GAMES = 10  # the games a question's answer is announced to (the latest that asked)


@dataclass(frozen=True)
class Shown:
    """What a table shows of its position's question: ``state`` (the module's docstring) and
    the kept answer when it is ``known``."""

    state: str
    answer: Mapping[str, Any] | None = None
    key: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def known(self) -> bool:
        return self.state == KNOWN

    @property
    def waiting(self) -> bool:
        """An answer is on its way: the page listens for it."""
        return self.state == CHECKING


def _rows(keys: Sequence[str]) -> dict[str, Any]:
    if not keys:
        return {}
    rows = db.session.execute(sa.select(Analysis.key, Analysis.status, Analysis.answer, Analysis.requires)
                              .where(Analysis.key.in_(list(keys)))).all()
    return {row.key: row for row in rows}


def _serves(row: Any, question: Question) -> dict[str, Any] | None:
    """The kept answer of ``row`` if it answers ``question`` (holds what it requires)."""
    if row is None or row.status != ANSWERED or not row.answer:
        return None
    answer = json.loads(row.answer)
    return answer if all(key in answer for key in question.requires) else None


def _shown(question: Question, row: Any) -> Shown:
    answer = _serves(row, question)
    if answer is not None:
        return Shown(KNOWN, answer, question.key)
    if row is None:
        return Shown(NOT_ASKED, key=question.key)
    if row.status == TOO_HARD_ROW:
        return Shown(TOO_HARD, key=question.key)
    if row.status in (WAITING, WORKING):
        return Shown(CHECKING, key=question.key)
    return Shown(NOT_ASKED, key=question.key)  # answered without what this question requires


def shown_for_question(question: Question) -> Shown:
    return _shown(question, _rows([question.key]).get(question.key))


def kept_answers(questions: Sequence[Question]) -> dict[str, dict[str, Any]]:
    """The kept answers to ``questions`` that serve them, by key; a question the runner gave up
    on is answered ``{"too_hard": True}`` (no answer, and no proof of anything)."""
    rows = _rows([question.key for question in questions])
    found: dict[str, dict[str, Any]] = {}
    for question in questions:
        row = rows.get(question.key)
        answer = _serves(row, question)
        if answer is not None:
            found[question.key] = answer
        elif row is not None and row.status == TOO_HARD_ROW:
            found[question.key] = {"too_hard": True}
    return found


# -- asking ------------------------------------------------------------------------------------------


def _insert(values: dict[str, Any]) -> sa.Insert:
    """INSERT that does nothing when the key is there already (two servers asking at once)."""
    # (each dialect's insert imported where it is used: on SQLite, importing PostgreSQL's
    # dialects would cost each worker 2.4 MB)
    if db.engine.dialect.name == "postgresql":
        from sqlalchemy.dialects import postgresql

        return postgresql.insert(Analysis.__table__).values(**values).on_conflict_do_nothing(index_elements=["key"])
    from sqlalchemy.dialects import sqlite

    return sqlite.insert(Analysis.__table__).values(**values).on_conflict_do_nothing(index_elements=["key"])


def _waiting_with(slugs: str, slug: str | None) -> str:
    names = [name for name in slugs.split() if name != slug]
    if slug:
        names.append(slug)
    return " ".join(names[-WAITING_GAMES:])


def ask(game: str, question: Question, *, slug: str | None, address: str, priority: int = PLAYER) -> str:
    """Write ``question`` down for the runner, inside the caller's write transaction (begun: the
    write lock is held), unless its answer is kept or on its way already; ``slug``: the game
    whose tables are told when it is answered. Returns what the table shows now (``KNOWN``,
    ``CHECKING``, ``TOO_HARD``, ``PAUSED``, ``BUSY``). ``address``: the client asking, counted
    against ``SOLVES_PER_MINUTE`` when the question means new work ("": the house itself)."""
    query = sa.select(Analysis).where(Analysis.key == question.key)
    if db.engine.dialect.name == "postgresql":
        query = query.with_for_update()
    row = db.session.scalar(query)
    requires = set(question.requires)
    if row is not None:
        if row.status == ANSWERED and requires <= set((json.loads(row.answer or "{}")).keys()):
            return KNOWN
        if row.status == TOO_HARD_ROW:
            return TOO_HARD
        if row.status in (WAITING, WORKING) and requires <= set(row.requires.split()):
            row.waiting_games = _waiting_with(row.waiting_games, slug)
            row.priority = min(row.priority, priority)
            return CHECKING
    config = current_app.config
    if address:
        limits.begin_counting(begun=True)
        if limits.recent(SOLVE, address, 60) >= config["SOLVES_PER_MINUTE"]:
            return PAUSED
    waiting = db.session.scalar(sa.select(sa.func.count()).select_from(Analysis).where(Analysis.status == WAITING))
    if waiting >= config["SOLVER_WAITING_MAX"]:
        return BUSY
    if address:
        limits.count(SOLVE, address, 60)
    data = json.dumps(dict(question.data), separators=(",", ":"))
    if row is None:
        db.session.execute(_insert(dict(
            key=question.key, kind=QUESTION, game=game, status=WAITING, question=data,
            requires=" ".join(sorted(requires)), answer=None, priority=priority, spent=0,
            waiting_games=slug or "", asked_by=address[:64], asked_at=utcnow())))
    else:  # answered without what is required now, or asked for less: asked again, for more
        row.status, row.question, row.priority = WAITING, data, min(row.priority, priority)
        row.requires = " ".join(sorted(requires | set(row.requires.split())))
        row.waiting_games = _waiting_with(row.waiting_games, slug)
        row.claimed_by = row.claimed_at = None
    bell.ring_after_commit()
    return CHECKING


def ask_turn(record: GameRecord) -> None:
    """Queue the computer's turns of ``record`` for the runner (its bot plays off the request
    path), inside the caller's write transaction; once is enough."""
    db.session.execute(_insert(dict(
        key=f"turn:{record.slug}", kind=TURN, game=record.kind, status=WAITING,
        question=json.dumps({"slug": record.slug}), requires="", answer=None, priority=PLAYER, spent=0,
        waiting_games=record.slug, asked_by="", asked_at=utcnow())))
    bell.ring_after_commit()


def ask_import(key: str, game: str, text: str) -> None:
    """Queue an exported game's file (``text``, of game ``game``) for the runner to check, under
    ``key``, inside the caller's write transaction. A file of the same key waiting or being
    checked is left as it is; one checked before is checked again."""
    row = db.session.scalar(sa.select(Analysis).where(Analysis.key == key))
    if row is not None and row.status in (WAITING, WORKING):
        return
    question = json.dumps({"file": text}, separators=(",", ":"))
    if row is None:
        db.session.execute(_insert(dict(
            key=key, kind=IMPORT, game=game, status=WAITING, question=question, requires="", answer=None,
            priority=SETUP, spent=0, waiting_games="", asked_by="", asked_at=utcnow())))
    else:
        row.status, row.question, row.answer, row.answered_at = WAITING, question, None, None
        row.claimed_by = row.claimed_at = None
    bell.ring_after_commit()


def import_verdict(key: str) -> tuple[str, dict[str, Any] | None] | None:
    """Where the check of the file queued under ``key`` stands: (``CHECKING``, None) or
    (``KNOWN``, the verdict); None if no such file was queued."""
    row = db.session.execute(sa.select(Analysis.status, Analysis.answer)
                             .where(Analysis.key == key, Analysis.kind == IMPORT)).first()
    if row is None:
        return None
    if row.status in (WAITING, WORKING):
        return CHECKING, None
    return KNOWN, json.loads(row.answer or "{}")


def ask_for_table(record: GameRecord, state: GameState, address: str) -> Shown | None:
    """Ask the question of ``state``'s position (if its game has one), inside the caller's write
    transaction; what the table shows then."""
    analyst = state.definition.analyst
    question = analyst.question(state) if analyst is not None else None
    if question is None:
        return None
    result = ask(record.kind, question, slug=record.slug, address=address)
    return Shown(result, key=question.key) if result != KNOWN else shown_for_question(question)


def ask_now(record: GameRecord, state: GameState, address: str) -> None:
    """Ask the question of ``state``'s position (if its game has one) in a short write
    transaction of its own: the tables' news of a position reached, after the move's commit."""
    for_table(record, state, may_ask=True, address=address)


def for_table(record: GameRecord, state: GameState, *, may_ask: bool, address: str) -> Shown | None:
    """What ``record``'s table shows of its position's question: the kept answer, or why there
    is none. ``may_ask`` (the player's own page, never a spectator's): a question nobody asked
    yet is asked now, in a short write transaction of its own."""
    analyst = state.definition.analyst
    question = analyst.question(state) if analyst is not None else None
    if question is None:
        return None
    shown = shown_for_question(question)
    if shown.state != NOT_ASKED or not may_ask:
        return shown
    session = db.session()
    session.expire_on_commit = False  # (the page goes on reading the game's row it loaded)
    try:
        store.begin_write()
        result = ask(record.kind, question, slug=record.slug, address=address)
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.expire_on_commit = True
    return Shown(result, key=question.key) if result != KNOWN else shown_for_question(question)


# -- a set-up that needs answers before it can deal -----------------------------------------------


def deal(definition: GameDefinition, names: Sequence[str], *, options: Mapping[str, Any], seed: int | None,
         stacked_deck: Sequence[Card] | None, address: str, wait: bool = True) -> GameState:
    """A new game's state, dealt with the kept answers it needs (deal only winnable games): the
    answers missing are asked for (``SETUP`` priority) and waited for, a short read at a time, at
    most ``SOLVER_SETUP_WAIT_SECONDS`` (the worker serves other requests meanwhile: the wait is a
    sleep, never a solve); past that, ``StillChecking``. Call it outside any write transaction
    (``wait``: False inside one: only what is kept is used)."""
    if definition.analyst is None:
        return definition.new_state(names, options=options, seed=seed, stacked_deck=stacked_deck)
    deadline = time.monotonic() + current_app.config["SOLVER_SETUP_WAIT_SECONDS"]
    answers: dict[str, dict[str, Any]] = {}
    asked: set[str] = set()
    while True:
        try:
            # (a definition with an analyst takes the keyword ``answers``, as ``Analyst`` says; the
            # protocol's new_state has no such keyword)
            return definition.new_state(names, options=options, seed=seed, stacked_deck=stacked_deck,  # type: ignore[call-arg]
                                        answers=answers)
        except NeedsAnswers as needed:
            questions = needed.questions
        if wait:
            db.session.rollback()  # a fresh read: what the runner committed since
        answers.update(kept_answers(questions))
        missing = [question for question in questions if question.key not in answers]
        if not missing:
            continue
        if wait and any(question.key not in asked for question in missing):
            session = db.session()
            try:
                store.begin_write()
                for question in missing:
                    if ask(definition.key, question, slug=None, address=address, priority=SETUP) == PAUSED:
                        break
                    asked.add(question.key)
                session.commit()
            except BaseException:
                session.rollback()
                raise
        if not wait or time.monotonic() >= deadline:
            raise StillChecking("The solver is still checking which deal can be won (a few take some seconds): "
                                "press the button again in a moment. Your choices are kept.")
        time.sleep(0.05)  # (a gevent worker serves its other requests meanwhile: sleep is cooperative)
