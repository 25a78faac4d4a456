"""The only bridge between database rows and game states, for every game: a row's ``kind``
names the game whose definition (in the registry) reads its state.

A game row holds the whole state as JSON and a version. A new game row is made by ``new_record``
and ``insert_game``; a stored one is read by ``load_state``; writing goes through ``lock_game``
(which takes the write lock first: ``BEGIN IMMEDIATE`` on SQLite, ``SELECT ... FOR UPDATE``
elsewhere), or ``find_game`` and then ``start_change`` (the lock taken only to write: a player's
action), and ``save_game``, whose UPDATE only matches the version that was read, so a stale or
doubled action can never apply twice. What a row says of its state (headline, status, results)
is worked out in one place, ``state_columns``. A seat's private move (arranging its cards) is
written by ``save_private``: the same lock, no new version, nothing logged.

The game's log: each action row holds the log lines the action made (its ``Outcome.events``)
and the number of the first of them; ``games.opening_log`` holds the lines no action made (the
deal's). A state keeps only its log's last lines (``LOG_KEPT``, app/core/protocol.py), so it is
as large after 20,000 actions as after 100; ``log_lines`` reads any lines of the whole log, a
page at a time.

Replays: a game's log holds at most ``MAX_ACTIONS`` actions (``ActionLogFull`` refuses more), and
every so many actions (``SNAPSHOT_EVERY`` at least, more if the state is large: see
``snapshot_spacing``) the state is kept as a snapshot. ``state_at`` and ``steps_between`` start
from the nearest snapshot and apply the logged actions after it through the game's rules, so a
replayed step costs about what the table's own page does, however long the game.

Seat and host tokens are made and recognised here too: only their hashes are stored.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import re
import secrets
from collections import OrderedDict
from datetime import datetime

from typing import Any, Callable, Iterable, Iterator, Mapping, ParamSpec, Protocol, Sequence, TypeVar, cast

import sqlalchemy as sa
from blinker import signal
from sqlalchemy.engine import CursorResult
from sqlalchemy.orm import joinedload
from sqlalchemy.orm.attributes import set_committed_value

from ..core import registry
from ..core.cards import Card
from ..core.protocol import Event, GameDefinition, GameState, IllegalAction, Outcome, SeatResult
from .database import IMMEDIATE, release_write_turn, take_write_turn
from ..extensions import db
from .models import FINISHED, PLAYING, ActionRecord, GameRecord, Snapshot, utcnow
from ..core.refusal import Refusal

TOKEN_BYTES = 24  # 192 bits: unguessable per-seat tokens

# The most actions one game keeps: far beyond any game played to its end (the longest the
# computer players make are about 1,000), and what an exported game may hold to be imported
# again. A game that reaches it cannot go on (``ActionLogFull``).
MAX_ACTIONS = 20_000
# A snapshot of the state every this many actions at least...
SNAPSHOT_EVERY = 100
# ...and at least every (the state's size in bytes / this) actions: a state stored before the log
# moved to the action rows carries its whole log, and grows with the game; snapshots spaced by
# their size take space in proportion to the actions (about this many bytes each), not to their
# square. Applying that many actions costs about what reading a state of that size does.
SNAPSHOT_BYTES_PER_ACTION = 400


# Sent with the game's slug and its new ``version`` inside the transaction that writes it, just
# before the commit: the live updates (app/live) announce it with that transaction, so a change
# that rolls back says nothing (the app's factory connects them).
game_changed = signal("card-table-game-changed")


class ConcurrentUpdate(Exception):
    """Another request changed the game between our read and our write."""


class ActionLogFull(Refusal):
    """The game has ``MAX_ACTIONS`` actions: nothing more is applied (its table says so)."""

    status = 409

    def __init__(self) -> None:
        super().__init__(LOG_FULL)


LOG_FULL = (f"This game has reached {MAX_ACTIONS:,} moves, the most one game keeps, so it cannot go on. "
            "The host can abandon it; a new game can be set up from the home page.")


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def hashes_match(held: str | None, token_hash: str | None) -> bool:
    """Whether a token hash a browser holds is the stored one, compared in constant time (the
    hashes are credentials): the one place seats, host roles and admin sessions are recognised."""
    return bool(held) and bool(token_hash) and hmac.compare_digest(held or "", token_hash or "")


def token_matches(token: str | None, token_hash: str | None) -> bool:
    """Constant-time comparison of a presented token with a stored hash."""
    return bool(token) and hashes_match(hash_token(token or ""), token_hash)


def new_slug() -> str:
    return secrets.token_hex(5)


SLUG = re.compile(r"[0-9A-Za-z_-]{1,16}")
TOKEN_TEXT = re.compile(r"[0-9A-Za-z_-]+")


def valid_token_text(text: str) -> bool:
    """Whether ``text`` is made of the characters a token is written in (checked before any query)."""
    return TOKEN_TEXT.fullmatch(text) is not None


def valid_slug(slug: object) -> bool:
    """Whether ``slug`` can be a game's id: checked before any query, so that no odd character
    (a NUL, which PostgreSQL refuses) ever reaches the database."""
    return isinstance(slug, str) and SLUG.fullmatch(slug) is not None


def definition_of(record: GameRecord) -> GameDefinition:
    return registry.get(record.kind)


def dump_state(state: GameState) -> str:
    return json.dumps(state.to_dict(), separators=(",", ":"))


def load_state(record: GameRecord) -> GameState:
    """The record's state, parsed: a new object of the caller's own, to change at will."""
    return definition_of(record).from_dict(json.loads(record.state))


# The states this process wrote or showed last, parsed, by their stored text: after a move every
# other browser at the table fetches its fragment of the state the move wrote, and parsing it
# again for each would be most of what reading the table costs. A state found here is shared by
# every request that shows it, so it is only looked at (its view, its moves, its results), never
# changed: whoever changes a game loads its own (``load_state``).
SHOWN_STATES = 32
_shown: OrderedDict[tuple[str, str], GameState] = OrderedDict()


def shown_state(record: GameRecord) -> GameState:
    """The record's state to show, not to change (see ``_shown``)."""
    key = (record.kind, record.state)
    state = _shown.get(key)
    if state is None:
        state = load_state(record)
        remember_shown(key, state)
    else:
        _shown.move_to_end(key)
    return state


def remember_shown(key: tuple[str, str], state: GameState) -> None:
    _shown[key] = state
    while len(_shown) > SHOWN_STATES:
        _shown.popitem(last=False)


def options_of(record: GameRecord) -> dict[str, Any]:
    """The game's set-up options, as it was set up (a rematch is set up the same way)."""
    options: dict[str, Any] = json.loads(record.options or "{}")
    return options


def stacked_deck_of(record: GameRecord) -> list[Card] | None:
    """The stacked deck the game was dealt from (a rematch deals it again), or None: shuffled."""
    if not record.deck_cards:
        return None
    deck = definition_of(record).deck_for(len(record.seats))
    return [deck.parse(card_id) for card_id in record.deck_cards.split()]


def results_data(state: GameState, results: Sequence[SeatResult] | None = None) -> list[dict[str, Any]]:
    """A finished game's results as a game row keeps them: [{seat, name, won, score}].
    ``results``: ``state.results()``, if the caller has them already."""
    results = state.results() if results is None else results
    return [{"seat": r.seat, "name": state.label(r.seat), "won": r.won, "score": r.score} for r in results]


def state_columns(record: GameRecord, game: GameState,
                  results: Sequence[SeatResult] | None = None) -> dict[str, Any]:
    """The columns of ``record`` that follow its state ``game``: the state and the headline, and
    once the game is over its results (``results``: ``game.results()``, if the caller has them),
    and the finished status and time if the row still says it is being played."""
    values: dict[str, Any] = {"state": dump_state(game), "headline": headline(game)}
    if game.is_over():
        values["results"] = json.dumps(results_data(game, results))
        if record.status == PLAYING:
            values.update(status=FINISHED, finished_at=utcnow())
    return values


# -- new games -------------------------------------------------------------------------------------


def new_record(definition: GameDefinition, dealt: GameState, *, options: Mapping[str, Any],
               deck: Sequence[str] | None = None, **columns: Any) -> GameRecord:
    """A game row (not stored yet) for ``dealt``, the state as dealt: from this state and the
    action log, a replay rebuilds every step. ``deck``: the stacked deck's card ids, which a
    rematch deals from again. The caller adds the seats, then calls ``insert_game``."""
    initial = dump_state(dealt)
    values: dict[str, Any] = dict(slug=new_slug(), kind=definition.key, options=json.dumps(dict(options)),
                                  state=initial, initial_state=initial, version=1, status=PLAYING,
                                  deck_cards=" ".join(str(card_id) for card_id in deck) if deck else None,
                                  host_token_hash="")
    values.update(columns)
    return GameRecord(**values)


def insert_game(record: GameRecord, game: GameState, actions: list[Outcome], *,
                results: Sequence[SeatResult] | None = None) -> None:
    """Add the new game ``record`` in the caller's write transaction: its state ``game`` after
    ``actions`` (applied to the state as dealt, each making a version) and their log. The log's
    lines before the actions' (the deal's) are the game's ``opening_log``: ``game`` holds every
    line since it was dealt. ``results``: the over game's ``results()``, if the caller has them."""
    if len(actions) > MAX_ACTIONS:
        raise ActionLogFull()
    first_line = game.log_total - sum(len(outcome.events) for outcome in actions)
    record.opening_log = json.dumps(game.log[:max(0, first_line - game.log_before)], separators=(",", ":"))
    for key, value in state_columns(record, game, results).items():
        setattr(record, key, value)
    record.version = 1 + len(actions)
    record.steps = len(actions)
    db.session.add(record)
    db.session.flush()
    log_actions(record, 1, actions, first_line)
    keep_snapshots(record, 0, record.steps, record.version, record.state)


# -- replays ---------------------------------------------------------------------------------------


def initial_state(record: GameRecord) -> GameState | None:
    """The game as dealt, or None for a game stored before replays were kept."""
    if not record.initial_state:
        return None
    return definition_of(record).from_dict(json.loads(record.initial_state))


ACTION_COLUMNS = (ActionRecord.version, ActionRecord.seat, ActionRecord.action)  # a row: .version, .seat, .action


class LoggedAction(Protocol):
    """A row of the action log as replays read it (``ACTION_COLUMNS``, or a whole ``ActionRecord``)."""

    @property
    def version(self) -> int: ...
    @property
    def seat(self) -> int | None: ...
    @property
    def action(self) -> str: ...


R = TypeVar("R", bound=LoggedAction)


def replay(record: GameRecord, state: GameState, rows: Iterable[R]) -> Iterator[tuple[R, Outcome, GameState]]:
    """``state`` after each of the logged actions ``rows`` (oldest first, each with ``version``,
    ``seat`` and ``action``), applied through the game's rules: (row, outcome, state). The same
    state object changes between steps."""
    definition = definition_of(record)
    for row in rows:
        outcome = state.apply(row.seat, definition.action_from_dict(json.loads(row.action)))
        yield row, outcome, state


def nearest_snapshot(record: GameRecord, *, step: int | None = None,
                     before_version: int | None = None) -> tuple[int, int, GameState]:
    """The latest state kept of the game at or before its action ``step`` (or before the action
    that made version ``before_version``): (its step, the version it was, the state). A snapshot,
    else the state as dealt (step 0, version 1). ``ValueError`` for a game stored before replays
    were kept."""
    query = sa.select(Snapshot.step, Snapshot.version, Snapshot.state).where(Snapshot.game_id == record.id)
    if step is not None:
        query = query.where(Snapshot.step <= step)
    if before_version is not None:
        query = query.where(Snapshot.version < before_version)
    found = db.session.execute(query.order_by(Snapshot.step.desc()).limit(1)).first()
    if found is not None:
        return found.step, found.version, definition_of(record).from_dict(json.loads(found.state))
    state = initial_state(record)
    if state is None:
        raise ValueError("this game was stored before replays were kept")
    return 0, 1, state


def actions_after(record: GameRecord, version: int, *, upto_version: int | None = None,
                  limit: int | None = None) -> list[LoggedAction]:
    """The logged actions after game version ``version`` (up to ``upto_version``), oldest first,
    ``limit`` of them at most: rows with ``version``, ``seat`` and ``action``."""
    query = sa.select(*ACTION_COLUMNS).where(ActionRecord.game_id == record.id, ActionRecord.version > version)
    if upto_version is not None:
        query = query.where(ActionRecord.version <= upto_version)
    return list(db.session.execute(query.order_by(ActionRecord.version).limit(limit)))


def state_at(record: GameRecord, step: int) -> tuple[GameState, LoggedAction | None, Outcome | None]:
    """The game after its first ``step`` actions (0: as dealt; at most ``record.steps``), from
    the nearest snapshot before it: (state, the row of the action that made it, its outcome),
    the last two None for the deal."""
    step = max(0, min(step, record.steps))
    kept_step, kept_version, state = nearest_snapshot(record, step=max(0, step - 1))
    row: LoggedAction | None = None
    outcome: Outcome | None = None
    for row, outcome, state in replay(record, state, actions_after(record, kept_version, limit=step - kept_step)):
        pass
    return state, row, outcome


def steps_between(record: GameRecord, after_version: int, upto_version: int,
                  most: int) -> Iterator[tuple[LoggedAction, Outcome, GameState]]:
    """(row, outcome, state) for each logged action that made a version after ``after_version``
    up to ``upto_version`` (the last ``most`` of them, if more), from the nearest snapshot
    before the first of them. The same state object changes between steps."""
    wanted: Sequence[LoggedAction] = list(db.session.execute(
        sa.select(*ACTION_COLUMNS).where(ActionRecord.game_id == record.id, ActionRecord.version > after_version,
                                         ActionRecord.version <= upto_version)
        .order_by(ActionRecord.version.desc()).limit(most)))[::-1]
    if not wanted:
        return
    _step, kept_version, state = nearest_snapshot(record, before_version=wanted[0].version)
    for _row, _outcome, state in replay(record, state, actions_after(record, kept_version,
                                                                     upto_version=wanted[0].version - 1)):
        pass
    yield from replay(record, state, wanted)


def snapshot_spacing(state_bytes: int) -> int:
    """How many actions a snapshot of a state of ``state_bytes`` bytes is kept after the last."""
    return max(SNAPSHOT_EVERY, state_bytes // SNAPSHOT_BYTES_PER_ACTION)


def keep_snapshots(record: GameRecord, before: int, after: int, version: int, state_text: str) -> None:
    """The game's log went from ``before`` to ``after`` actions and its state at ``version`` is
    now ``state_text``: keep it as a snapshot if the last one is far enough behind
    (``snapshot_spacing``). Actions applied together (the computer players' turns, an imported
    game) that are more than that apart get snapshots within them too, replayed from the last
    one: a cost of the order of the work just done."""
    if after // SNAPSHOT_EVERY == before // SNAPSHOT_EVERY and after - before < SNAPSHOT_EVERY:
        return  # (asked only when a multiple of SNAPSHOT_EVERY is passed: rarely a query)
    last = db.session.scalar(sa.select(sa.func.max(Snapshot.step)).where(Snapshot.game_id == record.id)) or 0
    spacing = snapshot_spacing(len(state_text))
    if after - last < spacing:
        return
    kept = []
    if after - max(last, before) > spacing and record.initial_state:
        kept_step, kept_version, state = nearest_snapshot(record, step=last)
        rows = actions_after(record, kept_version, limit=after - kept_step - 1)
        for number, (row, _outcome, state) in enumerate(replay(record, state, rows), start=kept_step + 1):
            if number - kept_step >= spacing and after - number >= spacing:  # (the end is kept below)
                kept.append({"game_id": record.id, "step": number, "version": row.version, "state": dump_state(state)})
                kept_step = number
    kept.append({"game_id": record.id, "step": after, "version": version, "state": state_text})
    db.session.execute(sa.insert(Snapshot.__table__), kept)


def headline(state: GameState) -> str:
    """Where a game stands, in a few words, for lists of games: "Round 2 of 3, Ann's turn"."""
    text = state.stage()
    turn = state.to_move()
    if state.is_over():
        text = "Game over"
    elif turn is not None:
        text = f"{text}, {state.label(turn)}'s turn" if text else f"{state.label(turn)}'s turn"
    return text[:120]


# The game row as stored now (even if this session already holds it: save_game leaves the records
# it wrote loaded), with its seats in the same query: every page and action needs them. Built
# once; FOR UPDATE OF games because PostgreSQL cannot lock the outer-joined seats (SQLite has no
# FOR UPDATE: BEGIN IMMEDIATE took the lock).
GAME_BY_SLUG = (sa.select(GameRecord).where(GameRecord.slug == sa.bindparam("slug"))
                .options(joinedload(GameRecord.seats)).execution_options(populate_existing=True))
GAME_BY_SLUG_FOR_UPDATE = GAME_BY_SLUG.with_for_update(of=GameRecord)


# Built once (every open table asks it every few seconds): a game's version alone, from the table
# itself (Core), so that SQLAlchemy skips the ORM's work for a query that loads no object: half
# the time of the same select of GameRecord.version.
VERSION_BY_SLUG = (sa.select(GameRecord.__table__.c.version)
                   .where(GameRecord.__table__.c.slug == sa.bindparam("slug")))


def version_of(slug: str) -> int | None:
    """The game's version, without loading the game (None: no such game)."""
    if not valid_slug(slug):
        return None
    return db.session.scalar(VERSION_BY_SLUG, {"slug": slug})


def find_game(slug: str) -> GameRecord | None:
    if not valid_slug(slug):
        return None
    return db.session.execute(GAME_BY_SLUG, {"slug": slug}).unique().scalar_one_or_none()


def begin_write() -> None:
    """Start a write transaction that holds the write lock from its first statement."""
    session = db.session()
    if session.in_transaction():
        session.rollback()  # end any read transaction; nothing was written in it
    if db.engine.dialect.name == "sqlite":
        take_write_turn(session)  # wait here, not polling SQLite (database.py)
    try:
        session.connection(execution_options={IMMEDIATE: True})
    except Exception:
        release_write_turn(session)  # no transaction began, so its end will not release the turn
        raise


P = ParamSpec("P")
T = TypeVar("T")


def transaction(function: Callable[P, T]) -> Callable[P, T]:
    """``function`` writes as one transaction: if it raises (a refusal, a stale form, a failure),
    whatever it began is rolled back here, the one place a refused request's changes are undone,
    and the error goes on to whoever answers it."""

    @functools.wraps(function)
    def in_one_transaction(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return function(*args, **kwargs)
        except BaseException:
            db.session.rollback()
            raise

    return in_one_transaction


# The writes of every action, built once: the game's row (its SET clause is the parameters given,
# besides the two below) and the action log's rows.
GAMES = GameRecord.__table__
UPDATE_GAME = GAMES.update().where(GAMES.c.id == sa.bindparam("row_id"),
                                   GAMES.c.version == sa.bindparam("read_version"))
INSERT_ACTIONS = sa.insert(ActionRecord.__table__)


def updated(statement: sa.Update, values: Mapping[str, Any]) -> CursorResult[Any]:
    """Run ``statement``, an UPDATE of the tables (no ORM objects), in the session: its result
    counts the rows it matched. (``Session.execute`` is typed to answer a plain ``Result``;
    what a DML statement answers is its ``CursorResult``, as SQLAlchemy's typing notes say.)"""
    return cast("CursorResult[Any]", db.session.execute(statement, values))


# The game's row locked, and its version (PostgreSQL: see start_change).
GAME_VERSION_FOR_UPDATE = (sa.select(GameRecord.version).where(GameRecord.id == sa.bindparam("row_id"))
                           .with_for_update())


def start_change(record: GameRecord) -> None:
    """Take the write lock for a change of ``record`` worked out from ``find_game``'s read,
    without the lock: the lock is then held only for the write, not while the rules and the
    computer players work the change out. The read's transaction ends without forgetting what
    it read; ``ConcurrentUpdate`` if another write changed the game since (found here on
    PostgreSQL, by ``save_game``'s UPDATE on SQLite). On PostgreSQL the game's row is locked
    first, as ``lock_game`` does, so that writes take their row locks in one order; SQLite's
    BEGIN IMMEDIATE has locked the whole database already."""
    session = db.session()
    if session.in_transaction():
        session.expire_on_commit = False
        try:
            session.commit()  # (a read: nothing to write)
        finally:
            session.expire_on_commit = True
    begin_write()
    if db.engine.dialect.name == "sqlite":
        return
    if session.execute(GAME_VERSION_FOR_UPDATE, {"row_id": record.id}).scalar() != record.version:
        session.rollback()
        raise ConcurrentUpdate(record.slug)


def lock_game(slug: str) -> GameRecord | None:
    if not valid_slug(slug):
        return None
    begin_write()
    return db.session.execute(GAME_BY_SLUG_FOR_UPDATE, {"slug": slug}).unique().scalar_one_or_none()


def save_private(record: GameRecord, game: GameState, **changes: Any) -> None:
    """Store a seat's private change of ``game`` (arranging its own cards) and commit, over the
    version the caller read (``ConcurrentUpdate`` if another write came between). It is not a
    move of the game: the version stays (no other seat's form becomes stale), nothing is logged
    (a replay needs none of it), and ``updated_at`` stays (the idle rule counts from the last
    move of the game). Nobody else's screen shows it, so no change is announced."""
    state = dump_state(game)
    result = updated(UPDATE_GAME, {"row_id": record.id, "read_version": record.version, "state": state, **changes})
    if result.rowcount != 1:
        db.session.rollback()
        raise ConcurrentUpdate(record.slug)
    for key, value in changes.items():  # (other columns: a guided game's step)
        set_committed_value(record, key, value)
    session = db.session()
    session.expire_on_commit = False
    try:
        session.commit()
    finally:
        session.expire_on_commit = True
    set_committed_value(record, "state", state)


def save_game(record: GameRecord, game: GameState | None, actions: list[Outcome], *,
              results: Sequence[SeatResult] | None = None, **changes: Any) -> int:
    """Store ``game`` (if given) and other column ``changes`` as the next version of ``record``,
    log the ``actions`` (the outcomes of the applied actions, in order), and commit. Returns the
    new version. The row's status follows the state: finished once the game is over
    (``state_columns``; ``results``: the over game's ``results()``, if the caller has them).

    The UPDATE matches only the version that was read, so it can never overwrite a newer state;
    the action log's unique (game, version) is a second guard.

    After the commit ``record`` holds what was just written (it is not expired), so the caller
    can answer from it and from ``game`` without reading the row back and parsing it again; and
    the browsers that fetch the table after it get ``game`` as it is (``shown_state``): the caller
    changes it no more."""
    slug, read_version, read_steps = record.slug, record.version, record.steps
    if read_steps + len(actions) > MAX_ACTIONS:
        raise ActionLogFull()
    if actions and game is None:
        raise ValueError("applied actions are saved with the state they made")
    new_version = read_version + max(1, len(actions))
    values = dict(changes, version=new_version, updated_at=utcnow())
    if actions:
        values["steps"] = read_steps + len(actions)
    if game is not None:
        values.update(state_columns(record, game, results))
    # a plain SQL statement: the ORM is told below
    result = updated(UPDATE_GAME, {"row_id": record.id, "read_version": read_version, **values})
    if result.rowcount != 1:
        db.session.rollback()
        raise ConcurrentUpdate(slug)
    session = db.session()
    session.expire_on_commit = False
    try:
        if actions and game is not None:
            log_actions(record, read_version, actions,
                        game.log_total - sum(len(outcome.events) for outcome in actions))
            keep_snapshots(record, read_steps, read_steps + len(actions), new_version, values["state"])
        game_changed.send(slug, version=new_version)
        session.commit()
    except sa.exc.IntegrityError:
        session.rollback()
        raise ConcurrentUpdate(slug) from None
    finally:
        session.expire_on_commit = True
    for key, value in values.items():  # the UPDATE above bypassed the ORM: tell the record
        set_committed_value(record, key, value)
    if game is not None:
        remember_shown((record.kind, values["state"]), game)
    return new_version


def log_actions(record: GameRecord, from_version: int, actions: list[Outcome], first_line: int) -> None:
    """Insert the action log rows (one statement, no ORM objects): the action that made version
    ``from_version + 1`` comes first, and its log lines are the game's from line ``first_line``."""
    if actions:
        definition = definition_of(record)
        rows = []
        line = first_line
        for version, outcome in enumerate(actions, start=from_version + 1):
            rows.append({"game_id": record.id, "version": version, "seat": outcome.seat,
                         "action": json.dumps(definition.action_to_dict(outcome.action)),
                         "events": json.dumps(outcome.events, separators=(",", ":")), "line": line})
            line += len(outcome.events)
        db.session.execute(INSERT_ACTIONS, rows)


def log_lines(record: GameRecord, start: int, end: int) -> list[Event]:
    """Lines ``start`` to ``end`` (not included) of the game's whole log, as stored: from the
    action rows that hold them (found by line number, however long the game) and the lines
    before the first action's (``opening_log``). Each line is shown to a seat through its
    game's ``shown_log``."""
    actions = ActionRecord.__table__.c
    holding_start = db.session.scalar(sa.select(sa.func.max(actions.line)).where(
        actions.game_id == record.id, actions.line <= start))
    rows = db.session.execute(
        sa.select(actions.line, actions.events)
        .where(actions.game_id == record.id, actions.line >= (holding_start or 0), actions.line < end)
        .order_by(actions.line, actions.version)).all()
    lines: list[Event] = []
    if holding_start is None:
        opening = json.loads(record.opening_log or "[]")  # (before the first action with its lines)
        lines += opening[start:end]
    for row in rows:
        for number, event in enumerate(json.loads(row.events), start=row.line):
            if start <= number < end:
                lines.append(event)
    return lines


def first_action_at(record: GameRecord) -> datetime | None:
    """When the game's first action was applied, or None before it."""
    return db.session.scalar(sa.select(ActionRecord.created_at).where(ActionRecord.game_id == record.id)
                             .order_by(ActionRecord.version).limit(1))


# -- games stored before replays were kept -----------------------------------------------------------


def same_game(one: GameState, other: GameState) -> bool:
    """Whether two states are the same game, their logs apart: a state stored before the log
    kept every round holds fewer of its lines (and their facts)."""
    log_keys = set(one.log_to_dict()) | set(other.log_to_dict())
    return ({key: value for key, value in one.to_dict().items() if key not in log_keys}
            == {key: value for key, value in other.to_dict().items() if key not in log_keys})


def give_deal_again(record: GameRecord) -> str | None:
    """Give ``record``, a game stored before replays were kept (no ``initial_state``), its state
    as dealt, rebuilt by its game from what its state keeps of the deal, in the caller's write
    transaction (the row locked). Checked: its stored actions replayed from that deal must make
    its stored state. Then the game replays and exports like any other, and its whole game's log
    is every round's: the replayed state (the stored game, with every line) replaces the stored
    one, and each action row gets the lines it made. Otherwise nothing of the game changes but
    the reason, kept in ``replay_problem`` (and ``log_note``): returned, None if rebuilt."""
    definition = definition_of(record)
    try:
        stored = load_state(record)
    except (ValueError, KeyError, TypeError) as error:
        return _not_replayable(record, None, f"This game was stored before replays were kept, and today's rules "
                                             f"cannot read its stored state ({error}), so it cannot be replayed.")
    dealt, state = definition.dealt_again(stored), definition.dealt_again(stored)
    if dealt is None or state is None:
        return _not_replayable(record, stored, "This game was stored before replays were kept, and its state "
                                               "does not say how it was dealt, so it cannot be replayed.")
    rows = actions_after(record, 0)  # (the whole log: an upgrade step, never a request)
    outcomes: list[Outcome] = []
    try:
        for _row, outcome, state in replay(record, state, rows):
            outcomes.append(outcome)
    except (IllegalAction, ValueError, KeyError, TypeError) as error:
        return _not_replayable(record, stored, f"This game was stored before replays were kept, and today's rules "
                                               f"refuse its action {len(outcomes) + 1} of {len(rows)} when they "
                                               f"replay it from its deal ({error}), so it cannot be replayed.")
    if not same_game(state, stored):
        return _not_replayable(record, stored, f"This game was stored before replays were kept, and its "
                                               f"{len(rows)} stored actions replayed from its deal do not make the "
                                               f"game as it was stored, so it cannot be replayed.")
    first_line = state.log_total - sum(len(outcome.events) for outcome in outcomes)
    values = state_columns(record, state)
    values.update(initial_state=dump_state(dealt), replay_problem=None, log_note=None,
                  opening_log=json.dumps(state.log[:max(0, first_line - state.log_before)], separators=(",", ":")))
    games = GameRecord.__table__
    db.session.execute(sa.update(games).where(games.c.id == record.id).values(**values))
    actions = ActionRecord.__table__
    numbered, line = [], first_line
    for row, outcome in zip(rows, outcomes):
        numbered.append({"row_version": row.version, "events": json.dumps(outcome.events, separators=(",", ":")),
                         "line": line})
        line += len(outcome.events)
    if numbered:
        db.session.execute(
            sa.update(actions).where(actions.c.game_id == record.id, actions.c.version == sa.bindparam("row_version"))
            .values(events=sa.bindparam("events"), line=sa.bindparam("line")), numbered)
    # Snapshots kept before hold states with the log as it was: kept again from the deal.
    db.session.execute(sa.delete(Snapshot.__table__).where(Snapshot.__table__.c.game_id == record.id))
    for key, value in values.items():
        set_committed_value(record, key, value)
    keep_snapshots(record, 0, record.steps, record.version, values["state"])
    return None


def _not_replayable(record: GameRecord, stored: GameState | None, reason: str) -> str:
    first = stored.log[0] if stored is not None and stored.log else None
    kept = len(json.loads(db.session.scalar(sa.select(GameRecord.opening_log).where(GameRecord.id == record.id))
                          or "[]"))
    since = f", from round {first['round']}" if first is not None and "round" in first else ""
    note = (f"This game was stored before its log kept every round: it starts with the {kept} lines it held "
            f"then{since}; the lines of the rounds before are not kept.") if kept else None
    games = GameRecord.__table__
    db.session.execute(sa.update(games).where(games.c.id == record.id).values(replay_problem=reason, log_note=note))
    set_committed_value(record, "replay_problem", reason)
    set_committed_value(record, "log_note", note)
    return reason
