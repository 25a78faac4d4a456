"""Per-name statistics of the games that keep them (``GameDefinition.statistics``): one row a
name and game, its figures a JSON object, each joined as its ``Stat`` says.

A page of them is read sorted (by name or by any figure, in SQL on both databases), searched (by
the name's search key: accents and case aside) and counted by the database; the whole of a
game's statistics (its CSV file) is read in chunks."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from ..core.names import COMPUTER_NAME, is_computer_name, search_key
from ..core.protocol import GameDefinition, SeatResult
from ..database import by_name, like_pattern
from ..extensions import db
from ..models import GameStat
from ..offload import let_others_run

# A name a spreadsheet would run as a formula starts with this in the file (read back as text).
FORMULA_STARTS = ("=", "+", "-", "@")


def record_results(definition: GameDefinition, results: list[SeatResult]) -> None:
    """Join a finished game's figures into its names' rows, inside the caller's transaction."""
    names: dict[str, tuple[str, list[SeatResult]]] = {}
    for result in results:
        name = COMPUTER_NAME if is_computer_name(result.name) else result.name
        names.setdefault(name.casefold(), (name, []))[1].append(result)
    existing = {row.name_key: row for row in db.session.scalars(
        sa.select(GameStat).where(GameStat.game == definition.key, GameStat.name_key.in_(list(names))))}
    for key, (name, seat_results) in names.items():
        row = existing.get(key)
        if row is None:
            row = GameStat(game=definition.key, name=name, name_key=key, search_key=search_key(name), figures="{}")
            db.session.add(row)
        figures = json.loads(row.figures or "{}")
        for result in seat_results:
            for stat in definition.statistics:
                figures[stat.key] = stat.join(figures.get(stat.key), result.figures.get(stat.key))
        row.figures = json.dumps(figures, separators=(",", ":"))


def figure(definition: GameDefinition, key: str):
    """The SQL expression of one figure of the rows (an integer, NULL where a name has none):
    ``key`` must be one of the definition's statistics (it becomes part of the statement)."""
    if key not in {stat.key for stat in definition.statistics}:
        raise ValueError(f"{definition.name} keeps no figure {key!r}")
    if db.engine.dialect.name == "postgresql":
        return sa.cast(sa.cast(GameStat.figures, postgresql.JSONB)[key].astext, sa.BigInteger)
    return sa.func.json_extract(GameStat.figures, f"$.{key}")


def _where(definition: GameDefinition, search: str) -> list:
    where = [GameStat.game == definition.key]
    if search:
        where.append(GameStat.search_key.like(like_pattern(search_key(search)), escape="\\"))
    return where


def count(definition: GameDefinition, search: str = "") -> int:
    """How many names have statistics of ``definition``'s game (whose names contain ``search``,
    accents and case aside)."""
    return db.session.scalar(sa.select(sa.func.count()).select_from(GameStat).where(*_where(definition, search)))


def page(definition: GameDefinition, number: int, size: int, sort: str = "name", descending: bool = False,
         search: str = "") -> list[tuple[str, dict]]:
    """One page (from 1) of ``definition``'s statistics, sorted by ``sort`` (``name`` or a
    figure's key; names without that figure last, ties by name) and searched: a page reads
    ``size`` rows, however many are stored."""
    name_key = by_name(GameStat.name_key)
    if sort == "name":
        order = [name_key.desc() if descending else name_key]
    else:
        column = figure(definition, sort)
        order = [(column.desc() if descending else column.asc()).nulls_last(), name_key]
    rows = db.session.execute(sa.select(GameStat.name, GameStat.figures).where(*_where(definition, search))
                              .order_by(*order).offset((number - 1) * size).limit(size)).all()
    return [(name, json.loads(figures or "{}")) for name, figures in rows]


def names(definition: GameDefinition, limit: int) -> list[str]:
    return db.session.scalars(sa.select(GameStat.name).where(GameStat.game == definition.key)
                              .order_by(by_name(GameStat.name_key)).limit(limit)).all()


def csv_header(definition: GameDefinition) -> list[str]:
    return ["name"] + [stat.label.lower() for stat in definition.statistics]


def csv_chunks(definition: GameDefinition, size: int = 500) -> Iterator[str]:
    """The game's statistics as a CSV file (every field quoted, as scores.csv is): the header,
    then a row a name in name order, ``size`` rows at a time from one statement, pausing between
    chunks so a big table never stalls a worker. Empty figures are empty fields."""
    yield _csv_lines([csv_header(definition)])
    statement = (sa.select(GameStat.name, GameStat.figures).where(GameStat.game == definition.key)
                 .order_by(by_name(GameStat.name_key)))
    with db.engine.connect() as connection:
        result = connection.execution_options(stream_results=True, yield_per=size).execute(statement)
        for partition in result.partitions():
            lines = []
            for name, figures in partition:
                values = json.loads(figures or "{}")
                shown = "'" + name if name.startswith(FORMULA_STARTS) else name
                lines.append([shown] + ["" if values.get(stat.key) is None else str(values[stat.key])
                                        for stat in definition.statistics])
            yield _csv_lines(lines)
            let_others_run()


def _csv_lines(rows: list[list[str]]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, quoting=csv.QUOTE_ALL, lineterminator="\n").writerows(rows)
    return buffer.getvalue()
