"""Replays, for every game: a game's state at any step, rebuilt through its rules from the
nearest snapshot before it (or the state as dealt, ``GameRecord.initial_state``) and the action
log after it (``ActionRecord``, applied in version order); the steps a table shows one after
another (paced computer turns); the list of finished games; and export and import of a finished
game as JSON.

States are rebuilt from rows by the store (``store.state_at``, ``store.steps_between``) alone;
the replay page and the paced steps use it, so a step is always exactly what the rules made of
the stored actions, at a cost that follows the steps shown, not the game's length. An export is
streamed from the stored actions a slice at a time, without replaying them.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Iterator

import sqlalchemy as sa
from flask_babel import gettext
from sqlalchemy.orm import selectinload

from .. import store
from ..core import registry
from ..core.names import NameRefused, check_player_name, is_computer_name
from ..core.protocol import N_, Event, GameDefinition, GameState, IllegalAction, Outcome
from ..extensions import db
from ..records.statistics import game_figures
from ..solving import kept
from ..store.models import FINISHED, HERE, ActionRecord, GameRecord, SeatRecord, utcnow
from . import news

EXPORT_KIND = "card-table game"
EXPORT_FORMAT = 1
MAX_IMPORT_ACTIONS = store.MAX_ACTIONS  # what a game of this table can hold
MAX_PACED_STEPS = 40  # a browser far behind sees the last steps paced, the rest at once
EXPORT_SLICE = 1000  # actions read and written at a time
# An exported game's data is nested 6 deep; a file nested deeper is none (and 100,000 nested
# lists would exhaust the parser's recursion).
MAX_IMPORT_DEPTH = 32
# Control characters are no text of a game (PostgreSQL refuses a NUL in text).
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


NOT_REPLAYABLE = "This game was stored before replays were kept."
NOT_REBUILT_YET = (NOT_REPLAYABLE + " Its replay is rebuilt from its deal when the server is next started "
                   "with `make run` (or `.venv/bin/flask --app wsgi upgrade`).")


class ReplayError(ValueError):
    """A game that cannot be replayed (stored before replays were kept), or a file to import
    that is not a game the rules accept; the message says which and why: ``str()`` in English,
    ``words()`` in the reader's language (its ``template``, a catalogue's message, with
    ``fields``)."""

    def __init__(self, template: str | None, **fields: Any):
        self.template = template or ""
        self.fields = fields
        super().__init__(self.template % fields if fields else self.template)

    def words(self) -> str:
        return gettext(self.template, **self.fields) if self.template else ""


class AlreadyHere(ReplayError):
    """A file to import whose game was imported here before; ``slug`` is that game's."""

    def __init__(self, slug: str):
        self.slug = slug
        super().__init__(N_("This game was imported already: importing it again would list it twice."))


@dataclass
class Step:
    """One applied action of a replay: its log row and what it did (the outcome's events)."""

    number: int  # 1 for the first action
    version: int  # the game version it made
    seat: int | None
    events: list[Event]


def action_rows(record: GameRecord) -> list[store.LoggedAction]:
    """The whole action log (for tools and tests: no request reads it whole)."""
    return store.actions_after(record, 0)


def replayable(record: GameRecord) -> bool:
    return bool(record.initial_state)


def not_replayable_reason(record: GameRecord) -> str | None:
    """Why the game has no replay (None if it has one): the reason found when its deal was
    rebuilt at the upgrade, or that the upgrade has not rebuilt it yet."""
    if replayable(record):
        return None
    return record.replay_problem or NOT_REBUILT_YET


def replay(record: GameRecord) -> Iterator[tuple[Step, GameState]]:
    """The game's state after each action of its whole log, through its rules, from the deal:
    (step, state) pairs (for tools and tests: a request asks for ``state_at`` or
    ``steps_between``). The same state object changes between steps."""
    if not replayable(record):
        raise ReplayError(not_replayable_reason(record))
    dealt = store.initial_state(record)
    assert dealt is not None  # (replayable: it has its state as dealt)
    steps = store.replay(record, dealt, action_rows(record))
    for number, (row, outcome, state) in enumerate(steps, start=1):
        yield Step(number, row.version, row.seat, list(outcome.events)), state


def state_at(record: GameRecord, step: int) -> tuple[GameState, Step | None, int]:
    """The state after the first ``step`` actions (0: as dealt), the step that made it, and how
    many steps the game has."""
    if not replayable(record):
        raise ReplayError(not_replayable_reason(record))
    step = max(0, min(step, record.steps))
    state, row, outcome = store.state_at(record, step)
    made = Step(step, row.version, row.seat, list(outcome.events)) if row is not None and outcome else None
    return state, made, record.steps


def steps_between(record: GameRecord, after_version: int, upto_version: int) -> Iterator[tuple[Step, GameState]]:
    """(step, state) for the actions that made the versions after ``after_version`` up to
    ``upto_version`` (the last ``MAX_PACED_STEPS`` of them, if more). A step's ``number`` is
    not known here (0): the paced steps show versions."""
    if not replayable(record):
        return
    for row, outcome, state in store.steps_between(record, after_version, upto_version, MAX_PACED_STEPS):
        yield Step(0, row.version, row.seat, list(outcome.events)), state


# -- where a replay may jump: the rounds ------------------------------------------------------------


@dataclass(frozen=True)
class RoundStart:
    """A round (a hand, a deal) of a game: the replay's step at which it is dealt, and its name."""

    step: int
    name: str


MAX_ROUNDS_LISTED = 500  # (the longest games have a few dozen rounds)
ROUNDS_KEPT = 128  # finished games whose rounds are kept in memory
_rounds: OrderedDict[tuple[int, int], list[RoundStart]] = OrderedDict()


def round_starts(record: GameRecord) -> list[RoundStart]:
    """The rounds of a finished game, in order: the step at which each is dealt (0: at the set-up)
    and its name, from the lines its game logs as a round starts (``round_lines``), read from
    the stored actions' lines by the database (``MAX_ROUNDS_LISTED`` at most), never by
    replaying the game. A finished game does not change: its rounds are kept for the next
    request (``ROUNDS_KEPT`` games)."""
    definition = store.definition_of(record)
    if not definition.round_lines or not replayable(record):
        return []
    key = (record.id, record.steps)
    known = _rounds.get(key)
    if known is not None:
        _rounds.move_to_end(key)
        return known
    starts = []
    for event in json.loads(record.opening_log or "[]"):
        name = definition.round_name(event) if isinstance(event, dict) else None
        if name is not None:
            starts.append(RoundStart(0, name))
    numbered = sa.select(sa.func.row_number().over(order_by=ActionRecord.version).label("step"),
                         ActionRecord.events).where(ActionRecord.game_id == record.id).subquery()
    marks = [numbered.c.events.contains(json.dumps(template), autoescape=True) for template in definition.round_lines]
    rows = db.session.execute(sa.select(numbered.c.step, numbered.c.events).where(sa.or_(*marks))
                              .order_by(numbered.c.step).limit(MAX_ROUNDS_LISTED))
    for step, events in rows:
        for event in json.loads(events or "[]"):
            name = definition.round_name(event) if isinstance(event, dict) else None
            if name is not None:
                starts.append(RoundStart(step, name))
    if record.status == FINISHED:
        _rounds[key] = starts
        while len(_rounds) > ROUNDS_KEPT:
            _rounds.popitem(last=False)
    return starts


# -- the list of finished games ------------------------------------------------------------------


def finished_games(limit: int = 30, offset: int = 0, *, kind: str | None = None,
                   name: str | None = None) -> list[GameRecord]:
    """Finished games, most recently finished first, with their seats; only games of ``kind``
    (a game's key) and only those a seat of which has a name containing ``name`` (any case), if
    given; never the guided first games."""
    query = sa.select(GameRecord).where(GameRecord.status == FINISHED, GameRecord.guide_step.is_(None))
    if kind:
        query = query.where(GameRecord.kind == kind)
    if name:
        query = query.where(sa.select(SeatRecord.id).where(
            SeatRecord.game_id == GameRecord.id,
            sa.func.lower(SeatRecord.name).contains(name.lower(), autoescape=True)).exists())
    return list(db.session.scalars(
        query.options(selectinload(GameRecord.seats))
        .order_by(GameRecord.finished_at.desc(), GameRecord.id.desc()).limit(limit).offset(offset)))


def results_of(record: GameRecord) -> list[dict[str, Any]]:
    """A finished game's results as stored with it; worked out from its state for a game
    finished before they were stored."""
    if record.results:
        results: list[dict[str, Any]] = json.loads(record.results)
        return results
    try:
        return store.results_data(store.load_state(record))
    except (ValueError, KeyError):
        return []


# -- export and import ---------------------------------------------------------------------------------


def iso(moment: datetime | None) -> str | None:
    return moment.replace(microsecond=0).isoformat() + "Z" if moment else None


def export(record: GameRecord) -> Iterator[str]:
    """A finished game as JSON text, a piece at a time: the state as dealt (the deck order, now
    that the game is over), every action of the rules in order (read ``EXPORT_SLICE`` at a time,
    as stored: nothing is replayed), and the results. ``ReplayError`` (at once) if the game
    cannot be exported."""
    if record.status != FINISHED:
        raise ReplayError(N_("Only a finished game can be exported: its cards are still hidden."))
    if not replayable(record):
        raise ReplayError(not_replayable_reason(record))
    definition = store.definition_of(record)
    head = {
        "export": EXPORT_KIND,
        "format": EXPORT_FORMAT,
        "game": definition.key,
        "game_name": definition.name,
        "options": store.options_of(record),
        # the house rules it was played by, in words (the options that differ from the rule book)
        "house_rules": [f"{label}: {words}" for label, words in definition.house_rules(store.options_of(record))],
        "seats": [{"number": seat.number, "name": seat.name, "computer": seat.is_ai} for seat in record.seats],
        "deck": record.deck_cards.split() if record.deck_cards else None,
    }
    tail = {"results": results_of(record), "started_at": iso(record.created_at),
            "finished_at": iso(record.finished_at), **export_extras(record, definition)}
    initial_state = record.initial_state  # (stored JSON: written as it is)
    assert initial_state is not None  # (replayable)

    def pieces() -> Iterator[str]:
        yield json.dumps(head, indent=1)[:-2] + ',\n "initial_state": ' + initial_state
        yield ',\n "actions": ['
        version, first = 0, True
        while True:
            rows = store.actions_after(record, version, limit=EXPORT_SLICE)
            for row in rows:
                yield ("\n  " if first else ",\n  ") + f'{{"seat": {json.dumps(row.seat)}, "action": {row.action}}}'
                first = False
            if len(rows) < EXPORT_SLICE:
                break
            version = rows[-1].version
        yield "\n ],\n" + json.dumps(tail, indent=1)[2:]

    return pieces()


def export_extras(record: GameRecord, definition: GameDefinition) -> dict[str, Any]:
    """What an export adds for people (an import reads none of it): each seat's statistics from
    this game (its figures, the time played in the timed ones, the item they were kept for), and
    a whole solution of the deal where the game's analyst keeps one (the job runner's answer:
    None if it is not known)."""
    extras: dict[str, Any] = {}
    if definition.statistics and not definition.score_table:
        started = store.first_action_at(record)
        seconds = int((record.finished_at - started).total_seconds()) if started and record.finished_at else None
        try:
            final = store.load_state(record)
        except (ValueError, KeyError):
            final = None
        if final is not None:
            extras["statistics"] = [{"seat": result.seat, "name": result.name, "item": result.item,
                                     "figures": game_figures(definition, result, seconds)}
                                    for result in final.results()]
    if definition.analyst is not None:
        start = store.initial_state(record)
        question = definition.analyst.start_question(start) if start is not None else None
        answer = kept.kept_answers([question]).get(question.key) if question is not None else None
        extras["solution"] = definition.analyst.solution(answer) if answer else None
    return extras


def _field(data: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    value = data.get(key)
    if not isinstance(value, kind):
        raise ReplayError(N_("The file has no %(part)s (this is not an exported game)."), part=key.replace("_", " "))
    return value


def read_export(text: str) -> tuple[GameState, list[tuple[int | None, Any, Outcome]], dict[str, Any]]:
    """Check an exported game through its rules: (final state, [(seat, action, outcome)], data).
    ``ReplayError`` says what is wrong (``read_file``, ``replay_file``)."""
    data = read_file(text)
    state, applied = replay_file(data)
    return state, applied, data


def read_file(text: str) -> dict[str, Any]:
    """What can be checked of an exported game without replaying it, at a cost that follows the
    file's size: JSON (after a byte order mark, which some editors write), of plain data, an
    export of a game this table has, its parts of the right shapes, at most
    ``MAX_IMPORT_ACTIONS`` actions, a state as dealt its rules read, with players' names. Its
    data, or ``ReplayError`` saying what is wrong."""
    try:
        data = json.loads(text.removeprefix("\ufeff"))
    except (ValueError, RecursionError):
        raise ReplayError(N_("The file is not JSON: export a finished game from its replay page.")) from None
    check_plain_data(data)
    if not isinstance(data, dict) or data.get("export") != EXPORT_KIND:
        raise ReplayError(N_("The file is not an exported game of this card table."))
    if data.get("format") != EXPORT_FORMAT:
        raise ReplayError(N_("The file's format %(format)s is not one this table reads."), format=repr(data.get("format")))
    key = _field(data, "game", str)
    for name, kind in (("options", dict), ("seats", list)):
        if data.get(name) is not None and not isinstance(data[name], kind):
            raise ReplayError(N_("The file's %(part)s are not a game's %(part)s."), part=name)
    try:
        definition = registry.get(key)
    except registry.UnknownGame:
        raise ReplayError(N_("This table has no game called %(name)s."), name=repr(key[:40])) from None
    actions = _field(data, "actions", list)
    if len(actions) > MAX_IMPORT_ACTIONS:
        raise ReplayError(N_("The file holds %(count)s actions: a game of this table keeps at most %(most)s."),
                          count=f"{len(actions):,}", most=f"{MAX_IMPORT_ACTIONS:,}")
    check_names(dealt(definition, data).names)
    return data


def dealt(definition: GameDefinition, data: dict[str, Any]) -> GameState:
    """The exported game's state as dealt, read by its rules (``ReplayError`` if they cannot)."""
    try:
        state: GameState = definition.from_dict(_field(data, "initial_state", dict))
        return state
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as error:
        raise ReplayError(N_("The rules of %(game)s cannot read the game as dealt: %(why)s"), game=definition.name,
                          why=str(error)) from None


def replay_file(data: dict[str, Any]) -> tuple[GameState, list[tuple[int | None, Any, Outcome]]]:
    """The exported game ``data`` (read by ``read_file``) replayed through its rules: (final
    state, [(seat, action, outcome)]). ``ReplayError`` if they refuse an action, if the actions
    do not finish the game, or if the file's results differ from the rules' own."""
    definition = registry.get(data["game"])
    state = dealt(definition, data)
    actions = data["actions"]
    applied = []
    for number, entry in enumerate(actions, start=1):
        seat = entry.get("seat", "") if isinstance(entry, dict) else ""  # ("": none given)
        if not (seat is None or type(seat) is int):
            raise ReplayError(N_("Action %(number)s is not a seat and an action."), number=number)
        try:
            action = definition.action_from_dict(entry.get("action"))
            outcome = state.apply(seat, action)
        except IllegalAction as error:
            if seat is None:
                raise ReplayError(N_("The rules refuse action %(number)s (the table): %(why)s"), number=number,
                                  why=str(error)) from None
            raise ReplayError(N_("The rules refuse action %(number)s (seat %(seat)s): %(why)s"), number=number,
                              seat=seat + 1, why=str(error)) from None
        applied.append((seat, action, outcome))
    if not state.is_over():
        raise ReplayError(N_("The file's %(count)s actions do not finish the game."), count=len(actions))
    claimed = data.get("results")
    if claimed is not None:
        if not isinstance(claimed, list):
            raise ReplayError(N_("The file's results are not a list of the seats' results."))
        ours = [(r["seat"], r["won"], r["score"]) for r in store.results_data(state)]
        theirs = [(r.get("seat"), r.get("won"), r.get("score")) for r in claimed if isinstance(r, dict)]
        if ours != theirs:
            raise ReplayError(N_("The file's results are not what its actions make under the rules."))
    return state, applied


def check_names(names: Any) -> None:
    """Refuse (``ReplayError``) seats whose names no player of this table could have (R3.2: 1-24
    printable characters, trimmed): the seats' rows keep names of that length."""
    for number, name in enumerate(names, start=1):
        problem = None
        if not isinstance(name, str):
            problem = "A name is a text."
        else:
            try:
                if check_player_name(name) != name:
                    problem = "A name has no spaces before or after it."
            except NameRefused as refused:
                problem = str(refused)
        if problem is not None:
            shown = name[:30] + "..." if isinstance(name, str) and len(name) > 30 else name
            raise ReplayError(N_("Seat %(number)s's name %(name)s is no player's name here. %(why)s"), number=number,
                              name=repr(shown), why=problem)


def check_plain_data(data: Any) -> None:
    """Refuse (``ReplayError``) data nested deeper than an exported game ever is, or holding a
    text with a control character; looked at without recursion, so no file exhausts the stack."""
    pending = [(data, 1)]
    while pending:
        value, depth = pending.pop()
        if depth > MAX_IMPORT_DEPTH:
            raise ReplayError(N_("The file's data is nested more than %(depth)s levels deep: it is not an exported "
                                 "game."), depth=MAX_IMPORT_DEPTH)
        if isinstance(value, str):
            if CONTROL.search(value):
                raise ReplayError(N_("The file holds a control character in a text: it is not an exported game."))
        elif isinstance(value, dict):
            pending.extend((key, depth + 1) for key in value)
            pending.extend((item, depth + 1) for item in value.values())
        elif isinstance(value, list):
            pending.extend((item, depth + 1) for item in value)


def _moment(text: Any) -> datetime | None:
    if not isinstance(text, str):
        return None
    try:
        return datetime.fromisoformat(text.rstrip("Z")).replace(tzinfo=None)
    except ValueError:
        return None


def import_digest(data: dict[str, Any]) -> str:
    """What makes an exported game the same game, as a digest: its game, seats, deal and actions
    (not its export's layout, nor its times)."""
    same = {"game": data.get("game"), "seats": [seat.get("name") for seat in data.get("seats") or []
                                                 if isinstance(seat, dict)],
            "initial_state": data.get("initial_state"), "actions": data.get("actions")}
    return hashlib.sha256(json.dumps(same, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def game_already_here(digest: str) -> GameRecord | None:
    """The game imported before from a file of the same game (same digest)."""
    return db.session.scalar(sa.select(GameRecord).where(GameRecord.import_digest == digest).limit(1))


@news.command
def store_import(text: str) -> str:
    """Store an exported game that the rules replay to its end, as a finished, imported game (it
    changes no score: the game was counted where it was played); its slug. One transaction. A
    game imported here before (``AlreadyHere``) is not imported again. (It replays the whole
    game: the job runner calls it, ``imports``.)"""
    state, applied, data = read_export(text)
    digest = import_digest(data)
    store.begin_write()  # (before the look-up: two imports of one file at once make one game)
    existing = game_already_here(digest)
    if existing is not None:
        raise AlreadyHere(existing.slug)
    definition = state.definition
    now = utcnow()
    record = store.new_record(
        definition, definition.from_dict(data["initial_state"]), options=data.get("options") or {},
        deck=data["deck"] if isinstance(data.get("deck"), list) else None, status=FINISHED, imported=True,
        created_at=_moment(data.get("started_at")) or now, finished_at=_moment(data.get("finished_at")) or now,
        updated_at=now, import_digest=digest)
    for number, name in enumerate(state.names):
        record.seats.append(SeatRecord(number=number, name=name, is_ai=is_computer_name(name), device=HERE))
    try:
        store.insert_game(record, state, [outcome for _seat, _action, outcome in applied])
        db.session.commit()
    except sa.exc.IntegrityError:  # the same file, imported by another request just now
        db.session.rollback()
        existing = game_already_here(digest)
        if existing is None:
            raise
        raise AlreadyHere(existing.slug) from None
    return record.slug


# Built once (every live refresh asks it): the actions between two versions, counted up to a limit.
ACTIONS_BETWEEN = sa.select(sa.func.count()).select_from(
    sa.select(ActionRecord.id).where(
        ActionRecord.game_id == sa.bindparam("game"), ActionRecord.version > sa.bindparam("after"),
        ActionRecord.version <= sa.bindparam("upto")).limit(MAX_PACED_STEPS + 1).subquery())


def count_actions(record: GameRecord, after_version: int, upto_version: int) -> int:
    """How many logged actions made the versions after ``after_version`` up to ``upto_version``
    (counted up to ``MAX_PACED_STEPS + 1``: a browser further behind is not shown them paced)."""
    return db.session.execute(ACTIONS_BETWEEN, {"game": record.id, "after": max(after_version, 0),
                                                "upto": upto_version}).scalar_one()
