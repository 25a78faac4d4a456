"""A name's statistics in one game, and the statistics kept per item of a game (each deal's best
result): pages of their own beside the scores page, for every game that keeps such figures
(``Stat.per_item``), reading one page of rows however many are stored. A game may add a part of
its own to an item's page (``games/<key>/_item.html``: set that deal up, say)."""

from __future__ import annotations

import re

from flask import Blueprint, abort, render_template, url_for
from flask.typing import ResponseReturnValue

from ..core import registry
from ..core.names import MAX_NAME_LENGTH
from ..core.protocol import STATISTICS, GameDefinition
from ..records import statistics
from .input_checks import whole_number
from .words import render

bp = Blueprint("items", __name__, url_prefix="/scores")

PAGE_SIZE = 50
ITEM = re.compile(r"[0-9A-Za-z_-]{1,40}")


def statistics_game(key: str) -> GameDefinition:
    try:
        definition = registry.get(key)
    except registry.UnknownGame:
        abort(404)
    if definition.score_keeping != STATISTICS or not definition.statistics:
        abort(404)
    return definition


def pages(total: int) -> int:
    return max(1, -(-total // PAGE_SIZE))


@bp.get("/<key>/items/<item>")
def item(key: str, item: str) -> ResponseReturnValue:
    """Every name's figures on one item (a deal), by name."""
    definition = statistics_game(key)
    if not ITEM.fullmatch(item) or not statistics.item_stats(definition):
        abort(404)
    page = whole_number("page", 1, low=1, high=100_000)
    rows, total = statistics.names_of_item(definition, item, page, PAGE_SIZE)
    return render_template("scores/item.html", definition=definition, item=item, label=render(definition.describe_item(item), None, html=False),
                           stats=statistics.item_stats(definition), rows=rows, page=page, pages=pages(total),
                           total=total)


@bp.get("/<key>/names/<name>")
def name(key: str, name: str) -> ResponseReturnValue:
    """One name's figures in a game, and its figures per item (the most recent first)."""
    definition = statistics_game(key)
    if not name or len(name) > MAX_NAME_LENGTH:
        abort(404)
    found = statistics.of_name(definition, name)
    if found is None:
        abort(404)
    shown_name, figures = found
    page = whole_number("page", 1, low=1, high=100_000)
    per_item = statistics.item_stats(definition)
    rows, total = statistics.items_of_name(definition, name, page, PAGE_SIZE) if per_item else ([], 0)
    return render_template("scores/name.html", definition=definition, name=shown_name, figures=figures,
                           stats=statistics.name_stats(definition), per_item=per_item, rows=rows, page=page,
                           pages=pages(total), total=total,
                           page_link=lambda number: url_for("items.name", key=key, name=name, page=number))
