"""The scores page: Mason Rummy's score table (R7.4) and its scores.csv download (R7.5), then
every other game's statistics per name (the figures its rule book lists)."""

from __future__ import annotations

from flask import Blueprint, Response, render_template

from .. import store
from ..core import registry

bp = Blueprint("scores", __name__)


@bp.get("/scores")
def index():
    table = store.score_table()
    others = [(definition, store.statistics(definition)) for definition in registry.games()
              if not definition.has_score_table and definition.statistics]
    return render_template("scores/index.html", rows=table.sorted_rows(), others=others)


@bp.get("/scores.csv")
def download():
    """Exactly R7.5, with spreadsheet formulas in names neutralised (see rules/scores.py)."""
    return Response(
        store.score_table().to_csv(),
        mimetype="text/csv",
        headers={"Content-Disposition": 'attachment; filename="scores.csv"'},
    )
