"""The scores page: the score table of the game that keeps one (Mason Rummy's R7.4) and its file's
download (R7.5), then every other game's statistics per name (the figures its rule book lists).

However many rows are stored, a page reads one page of each table (50 rows, sorted and searched
by the database), and the download is streamed a chunk at a time."""

from __future__ import annotations

from flask import Blueprint, Response, abort, render_template, request, stream_with_context, url_for

from ..core import registry
from ..core.names import MAX_NAME_LENGTH
from ..core.protocol import STATISTICS
from ..records import score_table, statistics

bp = Blueprint("scores", __name__)

PAGE_SIZE = 50


def page_number(raw: str | None, total: int) -> int:
    pages = pages_of(total)
    try:
        number = int(raw or 1)
    except ValueError:
        number = 1
    return min(max(number, 1), pages)


def pages_of(total: int) -> int:
    return max(1, -(-total // PAGE_SIZE))


@bp.get("/scores")
def index():
    sort = request.args.get("sort", "name")
    sort = sort if sort in score_table.SORTS else "name"
    descending = request.args.get("order") == "desc"
    search = request.args.get("q", "").strip()[:MAX_NAME_LENGTH]
    table_game = score_table.game()
    total = score_table.count(search) if table_game else 0
    page = page_number(request.args.get("page"), total)
    rows = score_table.page(page, PAGE_SIZE, sort, descending, search) if table_game else []

    def sort_link(column: str) -> str:
        """The score table sorted by ``column``: the other way round if it is sorted by it already,
        else most games won or lost first, and names and best scores from the lowest."""
        if column == sort:
            desc = not descending
        else:
            desc = column in ("won", "lost")
        return page_link("page", 1, sort=None if column == "name" else column, order="desc" if desc else None)

    others = []
    for definition in registry.games():
        if definition.score_keeping != STATISTICS or not definition.statistics:
            continue
        field = f"page_{definition.key}"
        stats_total = statistics.count(definition)
        stats_page = page_number(request.args.get(field), stats_total)
        stats = statistics.page(definition, stats_page, PAGE_SIZE)
        others.append({"game": definition, "rows": stats, "page": stats_page, "pages": pages_of(stats_total),
                       "total": stats_total, "field": field})
    return render_template("scores/index.html", table_game=table_game, rows=rows, total=total, page=page,
                           pages=pages_of(total), sort=sort, descending=descending, search=search,
                           sort_link=sort_link, page_link=page_link, others=others, page_size=PAGE_SIZE)


def page_link(field: str, number: int, **changes) -> str:
    """This page's address with page ``number`` of the table whose page is ``field`` (and any
    other ``changes``; None leaves a parameter out); the rest of the query is kept."""
    args = request.args.to_dict()
    args.pop("imported", None)
    args.update(changes)
    args[field] = number if number > 1 else None
    key = field[len("page_"):] if field.startswith("page_") else score_table.game().key
    return url_for("scores.index", **{name: value for name, value in args.items() if value is not None},
                   _anchor=f"stats-{key}")


@bp.get("/scores.csv")
def download():
    """Exactly R7.5, with spreadsheet formulas in names neutralised (the game's score table
    format), streamed in chunks (the worker serves others between them)."""
    if score_table.game() is None:
        abort(404)
    return Response(
        stream_with_context(score_table.csv_chunks()),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{score_table.file_format().file_name}"'},
    )
