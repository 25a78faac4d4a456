"""Per-name statistics of the games that keep them (``GameDefinition.statistics``): one row a
name and game, its figures a JSON object, each joined as its ``Stat`` says."""

from __future__ import annotations

import json

import sqlalchemy as sa

from ..core.names import COMPUTER_NAME, is_computer_name
from ..core.protocol import GameDefinition, SeatResult
from ..database import by_name
from ..extensions import db
from ..models import GameStat


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
            row = GameStat(game=definition.key, name=name, name_key=key, figures="{}")
            db.session.add(row)
        figures = json.loads(row.figures or "{}")
        for result in seat_results:
            for stat in definition.statistics:
                figures[stat.key] = stat.join(figures.get(stat.key), result.figures.get(stat.key))
        row.figures = json.dumps(figures, separators=(",", ":"))


def count(definition: GameDefinition) -> int:
    return db.session.scalar(sa.select(sa.func.count()).select_from(GameStat).where(GameStat.game == definition.key))


def page(definition: GameDefinition, number: int, size: int) -> list[tuple[str, dict]]:
    """One page (from 1) of ``definition``'s statistics, sorted by name ignoring case: a page
    reads ``size`` rows, however many are stored."""
    rows = db.session.execute(sa.select(GameStat.name, GameStat.figures).where(GameStat.game == definition.key)
                              .order_by(by_name(GameStat.name_key)).offset((number - 1) * size).limit(size)).all()
    return [(name, json.loads(figures or "{}")) for name, figures in rows]


def names(definition: GameDefinition, limit: int) -> list[str]:
    return db.session.scalars(sa.select(GameStat.name).where(GameStat.game == definition.key)
                              .order_by(by_name(GameStat.name_key)).limit(limit)).all()
