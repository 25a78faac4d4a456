"""Per-name statistics of the games that keep them (``GameDefinition.statistics``): one row a
name and game, its figures a JSON object, each joined as its ``Stat`` says; and the figures a
game keeps per item (``Stat.per_item``: each deal's best result), one row a name, game and item.
A timed figure (``Stat.timed``) is the game's time played, which only the house knows.

A page of them is read sorted (by name or by any figure, in SQL on both databases), searched (by
the name's search key: accents and case aside) and counted by the database; the whole of a
game's statistics (its CSV file) is read in chunks."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from ..core.names import COMPUTER_NAME, is_computer_name, search_key
from ..core.protocol import GameDefinition, SeatResult, Stat, join_figures
from ..store.database import by_name, like_pattern
from ..extensions import db
from ..store.models import GameStat, GameStatItem, HouseRuleSet, utcnow
from .offload import let_others_run

# A name a spreadsheet would run as a formula starts with this in the file (read back as text).
FORMULA_STARTS = ("=", "+", "-", "@")


def name_stats(definition: GameDefinition) -> tuple[Stat, ...]:
    """The figures kept (and shown) per name."""
    return tuple(stat for stat in definition.statistics if not stat.per_item)


def item_stats(definition: GameDefinition) -> tuple[Stat, ...]:
    """The figures kept per name and item (each deal's best)."""
    return tuple(stat for stat in definition.statistics if stat.per_item)


def game_figures(definition: GameDefinition, result: SeatResult, seconds: int | None) -> dict[str, int]:
    """A result's figures, each timed one that it names being the game's time played."""
    figures = dict(result.figures)
    for stat in definition.statistics:
        if stat.timed and stat.key in figures:
            if seconds is None:
                del figures[stat.key]
            else:
                figures[stat.key] = seconds
    return figures


def stats_key(definition: GameDefinition, variant: str = "") -> str:
    """The ``game`` of the rows that keep a game's statistics: its key for the rule book's game,
    and for a game played by house rules (``GameDefinition.variant_key``) its key and a short
    digest of them, so that each set of house rules keeps its results apart."""
    if not variant:
        return definition.key
    return f"{definition.key}~{hashlib.sha256(variant.encode()).hexdigest()[:6]}"


RULES = re.compile(r"[0-9a-f]{6}")  # a set of house rules as an address names it: its digest


def rules_of(game: str) -> str:
    """The digest of the house rules of a ``stats_key`` ("" for the rule book's game)."""
    return game.partition("~")[2]


def kept_under(definition: GameDefinition, rules: str = "") -> str:
    """The ``game`` of the rows of ``definition``'s statistics under the house rules whose digest
    is ``rules`` ("": the rule book's game)."""
    return f"{definition.key}~{rules}" if rules else definition.key


@dataclass(frozen=True)
class RuleSet:
    """A set of house rules some game was played by: its digest and its rules in words."""

    rules: str
    house_rules: list[tuple[str, str]]


def rule_sets(definition: GameDefinition, limit: int = 50) -> list[RuleSet]:
    """The sets of house rules ``definition``'s game has statistics of, the first played first."""
    rows = db.session.execute(sa.select(HouseRuleSet.game, HouseRuleSet.options)
                              .where(HouseRuleSet.definition_key == definition.key)
                              .order_by(HouseRuleSet.first_played_at, HouseRuleSet.game).limit(limit)).all()
    return [RuleSet(rules_of(game), definition.house_rules(json.loads(options or "{}"))) for game, options in rows]


def keep_rule_set(definition: GameDefinition, game: str, options: Mapping[str, Any]) -> None:
    """Remember the house rules kept under ``game`` (once; two games ending at once both try)."""
    if db.session.get(HouseRuleSet, game) is not None:
        return
    differing = {option.key: options[option.key] for option in definition.options
                 if option.house and option.key in options and options[option.key] != option.default}
    try:
        with db.session.begin_nested():
            db.session.add(HouseRuleSet(game=game, definition_key=definition.key,
                                        options=json.dumps(differing, separators=(",", ":"))))
    except IntegrityError:
        pass  # (the other game's transaction kept it first)


def record_results(definition: GameDefinition, results: list[SeatResult], seconds: int | None = None,
                   options: Mapping[str, Any] | None = None) -> None:
    """Join a finished game's figures into its names' rows, inside the caller's transaction.
    ``seconds``: how long the game was played (None: not known, the timed figures are left out);
    ``options``: its set-up options: a game played by house rules keeps its results under
    ``stats_key``, apart from the rule book's."""
    options = options or {}
    game = stats_key(definition, definition.variant_key(options))
    if game != definition.key:
        keep_rule_set(definition, game, options)
    names: dict[str, tuple[str, list[SeatResult]]] = {}
    for result in results:
        name = COMPUTER_NAME if is_computer_name(result.name) else result.name
        names.setdefault(name.casefold(), (name, []))[1].append(result)
    existing = {row.name_key: row for row in db.session.scalars(
        sa.select(GameStat).where(GameStat.game == game, GameStat.name_key.in_(list(names))))}
    per_name, per_item = name_stats(definition), item_stats(definition)
    for key, (name, seat_results) in names.items():
        row = existing.get(key)
        if row is None:
            row = GameStat(game=game, name=name, name_key=key, search_key=search_key(name), figures="{}")
            db.session.add(row)
        figures = json.loads(row.figures or "{}")
        for result in seat_results:
            figures = join_figures(per_name, figures, game_figures(definition, result, seconds))
        row.figures = json.dumps(figures, separators=(",", ":"))
        if per_item:
            for result in seat_results:
                if result.item is not None:
                    record_item(definition, per_item, name, key, result.item[:40],
                                game_figures(definition, result, seconds), game)


def record_item(definition: GameDefinition, stats: tuple[Stat, ...], name: str, name_key: str, item: str,
                figures: dict[str, int], game: str | None = None) -> None:
    game = game or definition.key
    row = db.session.scalar(sa.select(GameStatItem).where(
        GameStatItem.game == game, GameStatItem.item == item, GameStatItem.name_key == name_key))
    if row is None:
        row = GameStatItem(game=game, item=item, name=name, name_key=name_key, figures="{}")
        db.session.add(row)
    row.figures = json.dumps(join_figures(stats, json.loads(row.figures or "{}"), figures), separators=(",", ":"))
    row.updated_at = utcnow()
    db.session.flush()  # (a second seat of the same name and item finds this row)


def figure(definition: GameDefinition, key: str) -> sa.ColumnElement[Any]:
    """The SQL expression of one figure of the rows (a number, NULL where a name has none; a
    ratio worked out from its two kept figures): ``key`` must be one of the definition's per-name
    statistics (it becomes part of the statement)."""
    stat = {stat.key: stat for stat in name_stats(definition)}.get(key)
    if stat is None:
        raise ValueError(f"{definition.name} keeps no figure {key!r}")
    if not stat.stored and isinstance(stat.of, tuple):
        top, bottom = stat.of
        return sa.cast(_kept(top), sa.Float) / sa.func.nullif(_kept(bottom), 0)
    return _kept(key)


def _kept(key: str) -> sa.ColumnElement[Any]:
    if db.engine.dialect.name == "postgresql":
        # (imported here: on SQLite, importing PostgreSQL's dialects would cost each worker 2.4 MB)
        from sqlalchemy.dialects.postgresql import JSONB

        return sa.cast(sa.cast(GameStat.figures, JSONB)[key].astext, sa.BigInteger)
    return sa.func.json_extract(GameStat.figures, f"$.{key}")


def _where(definition: GameDefinition, search: str, rules: str = "") -> list[sa.ColumnElement[bool]]:
    where = [GameStat.game == kept_under(definition, rules)]
    if search:
        where.append(GameStat.search_key.like(like_pattern(search_key(search)), escape="\\"))
    return where


def count(definition: GameDefinition, search: str = "", rules: str = "") -> int:
    """How many names have statistics of ``definition``'s game (whose names contain ``search``,
    accents and case aside)."""
    return db.session.execute(sa.select(sa.func.count()).select_from(GameStat)
                              .where(*_where(definition, search, rules))).scalar_one()


def page(definition: GameDefinition, number: int, size: int, sort: str = "name", descending: bool = False,
         search: str = "", rules: str = "") -> list[tuple[str, dict[str, Any]]]:
    """One page (from 1) of ``definition``'s statistics, sorted by ``sort`` (``name`` or a
    figure's key; names without that figure last, ties by name) and searched, under the house
    rules ``rules`` names (``kept_under``): a page reads ``size`` rows, however many are stored."""
    name_key = by_name(GameStat.name_key)
    if sort == "name":
        order = [name_key.desc() if descending else name_key]
    else:
        column = figure(definition, sort)
        order = [(column.desc() if descending else column.asc()).nulls_last(), name_key]
    rows = db.session.execute(sa.select(GameStat.name, GameStat.figures).where(*_where(definition, search, rules))
                              .order_by(*order).offset((number - 1) * size).limit(size)).all()
    return [(name, json.loads(figures or "{}")) for name, figures in rows]


def names(definition: GameDefinition, limit: int) -> list[str]:
    return list(db.session.scalars(sa.select(GameStat.name).where(GameStat.game == definition.key)
                                   .order_by(by_name(GameStat.name_key)).limit(limit)))


def of_name(definition: GameDefinition, name: str) -> tuple[str, dict[str, Any]] | None:
    """One name's statistics (its name as kept, its figures), or None."""
    row = db.session.execute(sa.select(GameStat.name, GameStat.figures).where(
        GameStat.game == definition.key, GameStat.name_key == name.casefold())).first()
    return (row.name, json.loads(row.figures or "{}")) if row else None


def items_of_name(definition: GameDefinition, name: str, number: int,
                  size: int) -> tuple[list[tuple[str, dict[str, Any]]], int]:
    """One page (from 1) of a name's figures per item, the most recently played first, and how
    many items it has in all."""
    where = (GameStatItem.game == definition.key, GameStatItem.name_key == name.casefold())
    total = db.session.execute(sa.select(sa.func.count()).select_from(GameStatItem).where(*where)).scalar_one()
    rows = db.session.execute(sa.select(GameStatItem.item, GameStatItem.figures).where(*where)
                              .order_by(GameStatItem.updated_at.desc(), GameStatItem.id.desc())
                              .offset((number - 1) * size).limit(size)).all()
    return [(item, json.loads(figures or "{}")) for item, figures in rows], total


def names_of_item(definition: GameDefinition, item: str, number: int,
                  size: int) -> tuple[list[tuple[str, dict[str, Any]]], int]:
    """One page (from 1) of every name's figures on one item, sorted by name, and how many names."""
    where = (GameStatItem.game == definition.key, GameStatItem.item == item)
    total = db.session.execute(sa.select(sa.func.count()).select_from(GameStatItem).where(*where)).scalar_one()
    rows = db.session.execute(sa.select(GameStatItem.name, GameStatItem.figures).where(*where)
                              .order_by(by_name(GameStatItem.name_key)).offset((number - 1) * size).limit(size)).all()
    return [(name, json.loads(figures or "{}")) for name, figures in rows], total


def csv_header(definition: GameDefinition) -> list[str]:
    return ["name"] + [stat.label.lower() for stat in name_stats(definition)]


def csv_chunks(definition: GameDefinition, size: int = 500, rules: str = "") -> Iterator[str]:
    """The game's statistics as a CSV file (every field quoted, as scores.csv is): the header,
    then a row a name in name order, ``size`` rows at a time from one statement, pausing between
    chunks so a big table never stalls a worker. Empty figures are empty fields."""
    yield _csv_lines([csv_header(definition)])
    statement = (sa.select(GameStat.name, GameStat.figures).where(GameStat.game == kept_under(definition, rules))
                 .order_by(by_name(GameStat.name_key)))
    with db.engine.connect() as connection:
        result = connection.execution_options(stream_results=True, yield_per=size).execute(statement)
        for partition in result.partitions():
            lines = []
            for name, figures in partition:
                values = json.loads(figures or "{}")
                shown = "'" + name if name.startswith(FORMULA_STARTS) else name
                lines.append([shown] + [_csv_figure(stat.value(values)) for stat in name_stats(definition)])
            yield _csv_lines(lines)
            let_others_run()


def _csv_figure(value: float | int | None) -> str:
    if value is None:
        return ""
    return str(round(value, 4)) if isinstance(value, float) else str(value)


def _csv_lines(rows: list[list[str]]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, quoting=csv.QUOTE_ALL, lineterminator="\n").writerows(rows)
    return buffer.getvalue()
