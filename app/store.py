"""The only bridge between database rows and game states, for every game: a row's ``kind``
names the game whose definition (in the registry) reads its state.

A game row holds the whole state as JSON and a version. Writing goes through
``lock_game`` (which takes the write lock first: ``BEGIN IMMEDIATE`` on SQLite, ``SELECT ... FOR
UPDATE`` elsewhere) and ``save_game``, whose UPDATE only matches the version that was read, so a
stale or doubled action can never apply twice.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets

import sqlalchemy as sa
from blinker import signal
from sqlalchemy.orm import joinedload
from sqlalchemy.orm.attributes import set_committed_value

import app.games  # noqa: F401  (registers every game)

from .core import registry
from .core.names import COMPUTER_NAME, is_computer_name
from .core.protocol import GameDefinition, GameState, Outcome, SeatResult
from .database import IMMEDIATE, release_write_turn, take_write_turn
from .extensions import db
from .offload import let_others_run
from .games.mason import ScoreRow, ScoreTable
from .models import FINISHED, PLAYING, ActionRecord, GameRecord, GameStat, ScoreEntry, utcnow

TOKEN_BYTES = 24  # 192 bits: unguessable per-seat tokens


# Sent with the game's slug after a commit that gave it a new version (the live event streams
# listen: app/web/events.py).
game_changed = signal("card-table-game-changed")


class ConcurrentUpdate(Exception):
    """Another request changed the game between our read and our write."""


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str | None, token_hash: str | None) -> bool:
    """Constant-time comparison of a presented token with a stored hash."""
    if not token or not token_hash:
        return False
    return hmac.compare_digest(hash_token(token), token_hash)


def new_slug() -> str:
    return secrets.token_hex(5)


SLUG = re.compile(r"[0-9A-Za-z_-]{1,16}")


def valid_slug(slug: object) -> bool:
    """Whether ``slug`` can be a game's id: checked before any query, so that no odd character
    (a NUL, which PostgreSQL refuses) ever reaches the database."""
    return isinstance(slug, str) and SLUG.fullmatch(slug) is not None


def definition_of(record: GameRecord) -> GameDefinition:
    return registry.get(record.kind)


def dump_state(state: GameState) -> str:
    return json.dumps(state.to_dict(), separators=(",", ":"))


def load_state(record: GameRecord) -> GameState:
    return definition_of(record).from_dict(json.loads(record.state))


def headline(state: GameState) -> str:
    """Where a game stands, in a few words, for lists of games: "Round 2 of 3, Ann's turn"."""
    view = state.view(None)
    text = view.get("stage") or ""
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


def lock_game(slug: str) -> GameRecord | None:
    if not valid_slug(slug):
        return None
    begin_write()
    return db.session.execute(GAME_BY_SLUG_FOR_UPDATE, {"slug": slug}).unique().scalar_one_or_none()


def save_game(record: GameRecord, game: GameState | None, actions: list[Outcome], **changes) -> int:
    """Store ``game`` (if given) and other column ``changes`` as the next version of ``record``,
    log the ``actions`` (the outcomes of the applied actions, in order), and commit. Returns the
    new version. The row's status follows the state: finished once the game is over.

    The UPDATE matches only the version that was read, so it can never overwrite a newer state;
    the action log's unique (game, version) is a second guard.

    After the commit ``record`` holds what was just written (it is not expired), so the caller
    can answer from it and from ``game`` without reading the row back and parsing it again."""
    slug, read_version = record.slug, record.version
    new_version = read_version + max(1, len(actions))
    values = dict(changes, version=new_version, updated_at=utcnow())
    if game is not None:
        values["state"] = dump_state(game)
        values["headline"] = headline(game)
        if game.is_over() and record.status == PLAYING:
            values.update(status=FINISHED, finished_at=utcnow())
    games = GameRecord.__table__  # plain SQL statements: the ORM is told below
    result = db.session.execute(
        sa.update(games).where(games.c.id == record.id, games.c.version == read_version).values(**values))
    if result.rowcount != 1:
        db.session.rollback()
        raise ConcurrentUpdate(slug)
    session = db.session()
    session.expire_on_commit = False
    try:
        log_actions(record, read_version, actions)
        session.commit()
    except sa.exc.IntegrityError:
        session.rollback()
        raise ConcurrentUpdate(slug) from None
    finally:
        session.expire_on_commit = True
    for key, value in values.items():  # the UPDATE above bypassed the ORM: tell the record
        set_committed_value(record, key, value)
    game_changed.send(slug)
    return new_version


def log_actions(record: GameRecord, from_version: int, actions: list[Outcome]) -> None:
    """Insert the action log rows (one statement, no ORM objects): the action that made version
    ``from_version + 1`` comes first."""
    if actions:
        definition = definition_of(record)
        db.session.execute(sa.insert(ActionRecord.__table__), [
            {"game_id": record.id, "version": from_version + offset, "seat": outcome.seat,
             "action": json.dumps(definition.action_to_dict(outcome.action))}
            for offset, outcome in enumerate(actions, start=1)])


# -- results: Mason Rummy's score table, every other game's statistics ----------------------------


def record_results(definition: GameDefinition, results: list[SeatResult]) -> None:
    """A finished game's results, inside the caller's transaction: Mason Rummy's score table
    (R7.4), or the game's per-name statistics. Every seated name gets a row; computer seats all
    count on the one ``AI`` row (R3.4)."""
    if definition.has_score_table:
        record_scores([(result.name, result.score or 0, result.won) for result in results])
    else:
        record_statistics(definition, results)


def record_statistics(definition: GameDefinition, results: list[SeatResult]) -> None:
    names = {}
    for result in results:
        name = COMPUTER_NAME if is_computer_name(result.name) else result.name
        names.setdefault(name.casefold(), (name, []))[1].append(result)
    existing = {row.name_key: row for row in db.session.scalars(
        sa.select(GameStat).where(GameStat.game == definition.key, GameStat.name_key.in_(list(names))))}
    for key, (name, seat_results) in names.items():
        row = existing.get(key)
        if row is None:
            row = GameStat(game=definition.key, name=name, name_key=key, figures="{}")
            db.session.add(row)
        figures = json.loads(row.figures or "{}")
        for result in seat_results:
            for stat in definition.statistics:
                figures[stat.key] = stat.join(figures.get(stat.key), result.figures.get(stat.key))
        row.figures = json.dumps(figures, separators=(",", ":"))


def statistics(definition: GameDefinition) -> list[tuple[str, dict]]:
    """Every name's statistics in ``definition``'s game, sorted by name ignoring case."""
    rows = db.session.scalars(sa.select(GameStat).where(GameStat.game == definition.key)
                              .order_by(by_name(GameStat.name_key))).all()
    return [(row.name, json.loads(row.figures or "{}")) for row in rows]


def statistics_count(definition: GameDefinition) -> int:
    return db.session.scalar(sa.select(sa.func.count()).select_from(GameStat).where(GameStat.game == definition.key))


def statistics_page(definition: GameDefinition, page: int, size: int) -> list[tuple[str, dict]]:
    """One page (from 1) of ``definition``'s statistics, sorted by name ignoring case: a page
    reads ``size`` rows, however many are stored."""
    rows = db.session.execute(sa.select(GameStat.name, GameStat.figures).where(GameStat.game == definition.key)
                              .order_by(by_name(GameStat.name_key)).offset((page - 1) * size).limit(size)).all()
    return [(name, json.loads(figures or "{}")) for name, figures in rows]


def known_names(definition: GameDefinition, limit: int = 200) -> list[str]:
    """Names that have played ``definition``'s game (the first ``limit`` by name), for a set-up
    form to offer."""
    if definition.has_score_table:
        return score_names(limit=limit)[0]
    return db.session.scalars(sa.select(GameStat.name).where(GameStat.game == definition.key)
                              .order_by(by_name(GameStat.name_key)).limit(limit)).all()


def by_name(column):
    """ORDER BY a casefolded name column in code point order, as Python sorts (R3.3): SQLite
    compares bytes already; PostgreSQL's default collation may follow a locale instead."""
    return sa.collate(column, "C") if db.engine.dialect.name == "postgresql" else column


def like_pattern(text: str) -> str:
    """A LIKE pattern for names containing ``text`` (compared as casefolded keys)."""
    escaped = text.casefold().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


# Mason Rummy's score table (R7.4): pages of it, searches in it, and the whole of it only where a
# whole table is asked for (scores.csv, an import), read in chunks.

SCORE_SORTS = {"name": ScoreEntry.name_key, "won": ScoreEntry.won, "lost": ScoreEntry.lost, "best": ScoreEntry.best}


def score_count(search: str = "") -> int:
    """How many rows the score table has (whose names contain ``search``)."""
    where = [ScoreEntry.name_key.like(like_pattern(search), escape="\\")] if search else []
    return db.session.scalar(sa.select(sa.func.count()).select_from(ScoreEntry).where(*where))


def score_page(page: int, size: int, sort: str = "name", descending: bool = False,
               search: str = "") -> list[ScoreRow]:
    """One page (from 1) of the score table sorted by ``sort`` (ties by name), of the names
    that contain ``search``."""
    where = [ScoreEntry.name_key.like(like_pattern(search), escape="\\")] if search else []
    column = SCORE_SORTS.get(sort, ScoreEntry.name_key)
    order = []
    if column is not ScoreEntry.name_key:
        key = column.desc() if descending else column.asc()
        order.append(key.nulls_last() if column is ScoreEntry.best else key)
    name_key = by_name(ScoreEntry.name_key)
    order.append(name_key.desc() if descending and column is ScoreEntry.name_key else name_key)
    rows = db.session.execute(sa.select(ScoreEntry.name, ScoreEntry.won, ScoreEntry.lost, ScoreEntry.best)
                              .where(*where).order_by(*order).offset((page - 1) * size).limit(size)).all()
    return [ScoreRow(*row) for row in rows]


def score_names(search: str = "", leave_out: set[str] = frozenset(), limit: int = 20) -> tuple[list[str], int]:
    """Menu C (R3.3): the first ``limit`` names, sorted ignoring case, that contain ``search``,
    leaving out the casefolded names ``leave_out``; and how many such names there are."""
    where = []
    if search:
        where.append(ScoreEntry.name_key.like(like_pattern(search), escape="\\"))
    if leave_out:
        where.append(ScoreEntry.name_key.not_in(sorted(leave_out)))
    total = db.session.scalar(sa.select(sa.func.count()).select_from(ScoreEntry).where(*where))
    names = db.session.scalars(sa.select(ScoreEntry.name).where(*where)
                               .order_by(by_name(ScoreEntry.name_key)).limit(limit)).all()
    return list(names), total


def score_row(name: str) -> ScoreRow | None:
    """The row of exactly ``name`` (R7.4), or None."""
    row = db.session.execute(sa.select(ScoreEntry.name, ScoreEntry.won, ScoreEntry.lost, ScoreEntry.best)
                             .where(ScoreEntry.name_key == name.casefold())).first()
    return ScoreRow(*row) if row is not None and row.name == name else None


def score_table() -> ScoreTable:
    """The whole score table (for what needs all of it: a comparison, a digest)."""
    return ScoreTable(chunk_row for chunk in score_chunks() for chunk_row in chunk)


def score_chunks(size: int = 500):
    """The whole score table in name order, ``size`` rows at a time, read by one statement (one
    consistent snapshot). Between chunks the reader pauses for a moment (``let_others_run``:
    under gevent, the worker's other requests run), so a big table never stalls a worker."""
    for partition in _score_partitions(size):
        yield [ScoreRow(name, won, lost, best) for name, won, lost, best, _id in partition]


def _score_partitions(size: int = 500):
    statement = (sa.select(ScoreEntry.name, ScoreEntry.won, ScoreEntry.lost, ScoreEntry.best, ScoreEntry.id)
                 .order_by(by_name(ScoreEntry.name_key)))
    with db.engine.connect() as connection:
        result = connection.execution_options(stream_results=True, yield_per=size).execute(statement)
        for partition in result.partitions():
            yield partition
            let_others_run()


def scores_csv_chunks():
    """The score table as ``scores.csv`` text (R7.5, ``ScoreTable.to_csv`` a chunk at a time):
    the header, then the rows in name order."""
    yield ScoreTable().to_csv()
    for chunk in score_chunks():
        yield ScoreTable(chunk).to_csv().split("\n", 1)[1]


def score_table_and_mark() -> tuple[ScoreTable, str]:
    """The whole score table (read in chunks) and its ``scores_mark``, from the same rows (one
    statement, one snapshot): what an import preview compares and remembers."""
    table = ScoreTable()
    count = won = lost = best = top = 0
    for partition in _score_partitions():
        for name, w, l, b, row_id in partition:
            table.scores[name.casefold()] = ScoreRow(name, w, l, b)
            won, lost, best, top = won + w, lost + l, best + (b or 0), max(top, row_id)
        count += len(partition)
    return table, _mark((count, won, lost, best, top))


def scores_mark() -> str:
    """A mark of the score table's content that every game end changes (won + lost only grow, a
    new name adds a row) and an import too: one aggregate query, cheap enough to check under
    the write lock."""
    return _mark(db.session.execute(sa.select(
        sa.func.count(), sa.func.coalesce(sa.func.sum(ScoreEntry.won), 0),
        sa.func.coalesce(sa.func.sum(ScoreEntry.lost), 0), sa.func.coalesce(sa.func.sum(ScoreEntry.best), 0),
        sa.func.coalesce(sa.func.max(ScoreEntry.id), 0))).one())


def _mark(figures) -> str:
    return hashlib.sha256(repr(tuple(int(figure) for figure in figures)).encode()).hexdigest()


def name_in_scores(name: str) -> bool:
    return db.session.scalar(
        sa.select(sa.func.count()).select_from(ScoreEntry).where(ScoreEntry.name_key == name.casefold())) > 0


def record_scores(results: list[tuple[str, int, bool]]) -> None:
    """R7.4: apply a finished game's results to the score rows, inside the caller's transaction."""
    table = ScoreTable()
    names = {name.casefold() for name, _, _ in results}
    existing = {row.name_key: row for row in db.session.scalars(
        sa.select(ScoreEntry).where(ScoreEntry.name_key.in_(names)))}
    table.scores = {key: ScoreRow(row.name, row.won, row.lost, row.best) for key, row in existing.items()}
    table.record_game(results)
    for key, row in table.scores.items():
        entry = existing.get(key)
        if entry is None:
            db.session.add(ScoreEntry(name=row.name, name_key=key, won=row.won, lost=row.lost, best=row.best))
        else:
            entry.won, entry.lost, entry.best = row.won, row.lost, row.best


def score_rows_for_insert(table: ScoreTable) -> list[tuple]:
    """The rows of ``table`` as ``replace_scores`` inserts them."""
    return [(row.name, key, row.won, row.lost, row.best) for key, row in table.scores.items()]


def replace_scores(table: ScoreTable | None, rows: list[tuple] | None = None, chunk: int = 3000) -> None:
    """Make the score rows exactly ``table`` (an import), inside the caller's transaction: one
    DELETE, then the rows (``rows``: ``score_rows_for_insert(table)``, if made already) inserted
    in bulk by the database driver.

    SQLite: ``chunk`` rows a statement, with a pause between statements (under gevent the
    worker's other requests run in it; the transaction holds the write lock a little longer,
    but no request of this worker waits for all of it). PostgreSQL: one COPY, likewise paused
    every ``chunk`` rows."""
    db.session.execute(sa.delete(ScoreEntry))
    rows = score_rows_for_insert(table) if rows is None else rows
    columns = "name, name_key, won, lost, best"
    connection = db.session.connection()
    if db.engine.dialect.name == "postgresql":
        with connection.connection.driver_connection.cursor() as cursor:
            with cursor.copy(f"COPY {ScoreEntry.__tablename__} ({columns}) FROM STDIN") as copy:
                for count, row in enumerate(rows, start=1):
                    copy.write_row(row)
                    if count % chunk == 0:
                        let_others_run()
        return
    statement = f"INSERT INTO {ScoreEntry.__tablename__} ({columns}) VALUES (?, ?, ?, ?, ?)"
    for start in range(0, len(rows), chunk):
        connection.exec_driver_sql(statement, rows[start:start + chunk])
        let_others_run()
