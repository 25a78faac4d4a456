"""The score table of the game that keeps one (``GameDefinition.score_keeping``: Mason Rummy's
R7.4: games won, games lost, best score per name), and its file's text (R7.5). The rows are read
and written here; what a row is, how a game's results change it and the file's format are the
game's own (its ``ScoreTableFormat``).

Pages of the table, searches in it, and the whole of it only where a whole table is asked for
(the file, an import), read in chunks."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Sequence, Set
from typing import Any, SupportsInt

import sqlalchemy as sa
from sqlalchemy.engine import Row
from sqlalchemy.orm import InstrumentedAttribute

from ..core import registry
from ..core.names import search_key
from ..core.protocol import SCORE_TABLE, GameDefinition, ScoreLine, ScoreTableFormat, SeatResult
from ..store.database import by_name, like_pattern
from ..extensions import db
from ..store.models import ScoreEntry
from .offload import let_others_run

ROWS_A_SLICE = 1000  # rows made between two pauses (a long import lets the worker's other requests run)
SORTS = {"name": ScoreEntry.name_key, "won": ScoreEntry.won, "lost": ScoreEntry.lost, "best": ScoreEntry.best}
# A score row as ``replace`` inserts it: name, name_key, search_key, won, lost, best.
InsertedRow = tuple[str, str, str, int, int, int | None]
# (A table is of the game's own class, ``ScoreTableFormat.table``: the house knows it as ``Any``.)


def game() -> GameDefinition | None:
    """The game whose score table this is (the one table holds one game's), or None."""
    keepers = [definition for definition in registry.games() if definition.score_keeping == SCORE_TABLE]
    if len(keepers) > 1:
        raise RuntimeError(f"only one game can keep the score table, not {len(keepers)}")
    return keepers[0] if keepers else None


def file_format() -> ScoreTableFormat:
    definition = game()
    if definition is None or definition.score_table is None:
        raise RuntimeError("no game keeps a score table")
    return definition.score_table


def _row(name: str, won: int, lost: int, best: int | None) -> ScoreLine:
    return file_format().row(name, won, lost, best)


def _containing(search: str) -> list[sa.ColumnElement[bool]]:
    """Names containing ``search``, accents and case aside ("zoe" finds "Zoë")."""
    return [ScoreEntry.search_key.like(like_pattern(search_key(search)), escape="\\")] if search else []


def count(search: str = "") -> int:
    """How many rows the score table has (whose names contain ``search``)."""
    return db.session.execute(sa.select(sa.func.count()).select_from(ScoreEntry)
                              .where(*_containing(search))).scalar_one()


def page(number: int, size: int, sort: str = "name", descending: bool = False, search: str = "") -> list[ScoreLine]:
    """One page (from 1) of the score table sorted by ``sort`` (ties by name), of the names
    that contain ``search``."""
    column = SORTS.get(sort, ScoreEntry.name_key)
    order: list[sa.ColumnElement[Any] | InstrumentedAttribute[str]] = []
    if column is not ScoreEntry.name_key:
        key = column.desc() if descending else column.asc()
        order.append(key.nulls_last() if column is ScoreEntry.best else key)
    name_key = by_name(ScoreEntry.name_key)
    order.append(name_key.desc() if descending and column is ScoreEntry.name_key else name_key)
    rows = db.session.execute(sa.select(ScoreEntry.name, ScoreEntry.won, ScoreEntry.lost, ScoreEntry.best)
                              .where(*_containing(search)).order_by(*order)
                              .offset((number - 1) * size).limit(size)).all()
    return [_row(*row) for row in rows]


def names(search: str = "", leave_out: Set[str] = frozenset(), limit: int = 20) -> tuple[list[str], int]:
    """The returning players' list (R3.3): the first ``limit`` names, sorted ignoring case, that
    contain ``search``, leaving out the casefolded names ``leave_out``; and how many such names
    there are."""
    where = _containing(search)
    if leave_out:
        where.append(ScoreEntry.name_key.not_in(sorted(leave_out)))
    total = db.session.execute(sa.select(sa.func.count()).select_from(ScoreEntry).where(*where)).scalar_one()
    found = db.session.scalars(sa.select(ScoreEntry.name).where(*where)
                               .order_by(by_name(ScoreEntry.name_key)).limit(limit)).all()
    return list(found), total


def row(name: str) -> ScoreLine | None:
    """The row of exactly ``name`` (R7.4), or None."""
    found = db.session.execute(sa.select(ScoreEntry.name, ScoreEntry.won, ScoreEntry.lost, ScoreEntry.best)
                               .where(ScoreEntry.name_key == name.casefold())).first()
    return _row(*found) if found is not None and found.name == name else None


def has_name(name: str) -> bool:
    return db.session.execute(
        sa.select(sa.func.count()).select_from(ScoreEntry).where(ScoreEntry.name_key == name.casefold())).scalar_one() > 0


def whole_table() -> Any:
    """The whole score table (for what needs all of it: a comparison, a digest)."""
    return file_format().table(chunk_row for chunk in chunks() for chunk_row in chunk)


def chunks(size: int = 500) -> Iterator[list[ScoreLine]]:
    """The whole score table in name order, ``size`` rows at a time, read by one statement (one
    consistent snapshot). Between chunks the reader pauses for a moment (``let_others_run``:
    under gevent, the worker's other requests run), so a big table never stalls a worker."""
    for partition in _partitions(size):
        yield [_row(name, won, lost, best) for name, won, lost, best, _id in partition]


def _partitions(size: int = 500) -> Iterator[Sequence[Row[str, int, int, int | None, int]]]:
    statement = (sa.select(ScoreEntry.name, ScoreEntry.won, ScoreEntry.lost, ScoreEntry.best, ScoreEntry.id)
                 .order_by(by_name(ScoreEntry.name_key)))
    with db.engine.connect() as connection:
        result = connection.execution_options(stream_results=True, yield_per=size).execute(statement)
        for partition in result.partitions():
            yield partition
            let_others_run()


def csv_chunks() -> Iterator[str]:
    """The score table as its file's text (R7.5, the format's ``to_csv`` a chunk at a time): the
    header, then the rows in name order."""
    table = file_format().table
    yield table().to_csv()
    for chunk in chunks():
        yield table(chunk).to_csv().split("\n", 1)[1]


def table_and_mark() -> tuple[Any, str]:
    """The whole score table (read in chunks) and its ``mark``, from the same rows (one
    statement, one snapshot): what an import preview compares and remembers."""
    table = file_format().table()
    total = won = lost = best = top = 0
    for partition in _partitions():
        for name, w, l, b, row_id in partition:
            table.scores[name.casefold()] = _row(name, w, l, b)
            won, lost, best, top = won + w, lost + l, best + (b or 0), max(top, row_id)
        total += len(partition)
    return table, _mark((total, won, lost, best, top))


def mark() -> str:
    """A mark of the score table's content that every game end changes (won + lost only grow, a
    new name adds a row) and an import too: one aggregate query, cheap enough to check under
    the write lock."""
    return _mark(db.session.execute(sa.select(
        sa.func.count(), sa.func.coalesce(sa.func.sum(ScoreEntry.won), 0),
        sa.func.coalesce(sa.func.sum(ScoreEntry.lost), 0), sa.func.coalesce(sa.func.sum(ScoreEntry.best), 0),
        sa.func.coalesce(sa.func.max(ScoreEntry.id), 0))).one())


def _mark(figures: Iterable[SupportsInt | None]) -> str:
    # (no figure is None: the sums are coalesced to 0, which their type does not say)
    return hashlib.sha256(repr(tuple(int(figure or 0) for figure in figures)).encode()).hexdigest()


def record_results(results: list[SeatResult]) -> None:
    """R7.4: apply a finished game's results to the score rows, inside the caller's transaction."""
    outcomes = [(result.name, result.score or 0, result.won) for result in results]
    table = file_format().table()
    keys = {name.casefold() for name, _, _ in outcomes}
    existing = {entry.name_key: entry for entry in db.session.scalars(
        sa.select(ScoreEntry).where(ScoreEntry.name_key.in_(keys)))}
    table.scores = {key: _row(entry.name, entry.won, entry.lost, entry.best) for key, entry in existing.items()}
    table.record_game(outcomes)
    for key, new in table.scores.items():
        entry = existing.get(key)
        if entry is None:
            db.session.add(ScoreEntry(name=new.name, name_key=key, search_key=search_key(new.name), won=new.won,
                                      lost=new.lost, best=new.best))
        else:
            entry.won, entry.lost, entry.best = new.won, new.lost, new.best


def rows_for_insert(table: Any) -> list[InsertedRow]:
    """The rows ``score_table.replace`` inserts, made a slice at a time."""
    rows: list[InsertedRow] = []
    for count, (key, row) in enumerate(table.scores.items(), start=1):
        rows.append((row.name, key, search_key(row.name), row.won, row.lost, row.best))
        if count % ROWS_A_SLICE == 0:
            let_others_run()
    return rows


def replace(table: Any, rows: list[InsertedRow] | None = None, chunk: int = 3000) -> None:
    """Make the score rows exactly ``table`` (an import), inside the caller's transaction: one
    DELETE, then the rows (``rows``: ``rows_for_insert(table)``, if made already) inserted in bulk by the database driver.

    SQLite: ``chunk`` rows a statement, with a pause between statements (under gevent the
    worker's other requests run in it; the transaction holds the write lock a little longer,
    but no request of this worker waits for all of it). PostgreSQL: one COPY, likewise paused
    every ``chunk`` rows."""
    db.session.execute(sa.delete(ScoreEntry))
    if rows is None:
        rows = rows_for_insert(table)
    columns = "name, name_key, search_key, won, lost, best"
    connection = db.session.connection()
    if db.engine.dialect.name == "postgresql":
        driver = connection.connection.driver_connection
        assert driver is not None  # (a connection in a transaction has its psycopg connection)
        with driver.cursor() as cursor:
            with cursor.copy(f"COPY {ScoreEntry.__tablename__} ({columns}) FROM STDIN") as copy:
                for number, values in enumerate(rows, start=1):
                    copy.write_row(values)
                    if number % chunk == 0:
                        let_others_run()
        return
    statement = f"INSERT INTO {ScoreEntry.__tablename__} ({columns}) VALUES (?, ?, ?, ?, ?, ?)"
    for start in range(0, len(rows), chunk):
        connection.exec_driver_sql(statement, rows[start:start + chunk])
        let_others_run()
