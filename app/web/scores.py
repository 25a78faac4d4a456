"""The scores pages: one page a game that keeps records. The score table of the game that keeps
one (Mason Rummy's R7.4) and its file's download (R7.5, exactly), or a game's per-name
statistics (the figures its rule book lists) and their CSV file. Every one of them is searched
(accents and case aside: "zoe" finds "Zoë"), sorted by any column and paginated by the database.

However many rows are stored, a page reads one page of the table (50 rows), and a download is
streamed a chunk at a time."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, Response, abort, render_template, request, stream_with_context, url_for
from flask_babel import gettext
from flask.typing import ResponseReturnValue

from ..core import registry
from ..core.names import MAX_NAME_LENGTH
from ..core.protocol import SCORE_TABLE, STATISTICS, GameDefinition
from ..records import score_table, statistics

bp = Blueprint("scores", __name__)

PAGE_SIZE = 50
# A row's figures in column order (a count, a figure in words; None: none yet).
Figures = list[int | str | None]


@dataclass(frozen=True)
class Column:
    key: str
    label: str
    most_first: bool  # sorted by it, the highest figure comes first (the fewest moves: lowest first)


@dataclass
class Board:
    """One game's records as the scores page shows them."""

    definition: GameDefinition
    columns: list[Column]
    rows: list[tuple[str, Figures]]  # (name, the figures in column order; None: none yet)
    total: int
    page: int
    pages: int
    sort: str
    descending: bool
    search: str
    download: str  # the file's address
    file_name: str
    notes: list[str] = field(default_factory=list)
    rules: str = ""  # the digest of the house rules shown ("": the rule book's game)
    rule_sets: list[statistics.RuleSet] = field(default_factory=list)  # every set played, to choose from

    @property
    def house_rules(self) -> list[tuple[str, str]]:
        """The house rules of the figures shown, in words (none: the rule book's game)."""
        return next((rule_set.house_rules for rule_set in self.rule_sets if rule_set.rules == self.rules), [])

    @property
    def keeps_score_table(self) -> bool:
        return self.definition.score_keeping == SCORE_TABLE


def record_games() -> list[GameDefinition]:
    """The games with a scores page: the one that keeps the score table, then every game that
    keeps statistics, in the registry's order."""
    return [definition for definition in registry.games()
            if definition.score_keeping == SCORE_TABLE
            or (definition.score_keeping == STATISTICS and definition.statistics)]


def scores_url(definition: GameDefinition) -> str:
    """The scores page of ``definition``'s game ("View scores" after a game): its own page, or
    the first one (the score table) for a game that keeps no records."""
    games = record_games()
    if definition in games and definition is not games[0]:
        return url_for("scores.game", key=definition.key)
    return url_for("scores.index")


def page_number(raw: str | None, total: int) -> int:
    pages = pages_of(total)
    try:
        number = int(raw or 1)
    except ValueError:
        number = 1
    return min(max(number, 1), pages)


def pages_of(total: int) -> int:
    return max(1, -(-total // PAGE_SIZE))


def board_for(definition: GameDefinition) -> Board:
    """The page of ``definition``'s records this request asks for (sort, order, search, page)."""
    search = request.args.get("q", "").strip()[:MAX_NAME_LENGTH]
    descending = request.args.get("order") == "desc"
    if definition.score_keeping == SCORE_TABLE:
        columns = [Column("won", gettext("Games won"), True), Column("lost", gettext("Games lost"), True),
                   Column("best", gettext("Best score"), False)]
        sort = request.args.get("sort", "name")
        sort = sort if sort in score_table.SORTS else "name"
        total = score_table.count(search)
        page = page_number(request.args.get("page"), total)
        rows: list[tuple[str, Figures]] = [(row.name, [row.won, row.lost, row.best])
                for row in score_table.page(page, PAGE_SIZE, sort, descending, search)]
        return Board(definition, columns, rows, total, page, pages_of(total), sort, descending, search,
                     url_for("scores.download"), score_table.file_format().file_name,
                     [gettext("The best score is the lowest game score a player has won with.")])
    stats = statistics.name_stats(definition)
    columns = [Column(stat.key, stat.label, stat.combine != "min") for stat in stats]
    sort = request.args.get("sort", "name")
    sort = sort if sort in {column.key for column in columns} else "name"
    rule_sets = statistics.rule_sets(definition)
    rules = rules_asked(rule_sets)
    total = statistics.count(definition, search, rules)
    page = page_number(request.args.get("page"), total)
    rows = [(name, [stat.show(figures) or None for stat in stats])
            for name, figures in statistics.page(definition, page, PAGE_SIZE, sort, descending, search, rules)]
    return Board(definition, columns, rows, total, page, pages_of(total), sort, descending, search,
                 url_for("scores.game_download", key=definition.key, rules=rules or None),
                 statistics_file_name(definition, rules), rules=rules, rule_sets=rule_sets)


def rules_asked(rule_sets: list[statistics.RuleSet]) -> str:
    """The house rules this request asks for (``rules``: a set's digest), if the game was ever
    played by them; else the rule book's game ("")."""
    asked = request.args.get("rules", "")
    return asked if any(rule_set.rules == asked for rule_set in rule_sets) else ""


def statistics_file_name(definition: GameDefinition, rules: str = "") -> str:
    return f"{definition.key}-{rules}-statistics.csv" if rules else f"{definition.key}-statistics.csv"


def render_scores(definition: GameDefinition) -> ResponseReturnValue:
    board = board_for(definition)

    def link(**changes: Any) -> str:
        """This page's address with ``changes`` (None leaves a parameter out); a new sort or
        search starts at page 1."""
        args: dict[str, Any] = {name: value for name, value in request.args.items()
                                if name in ("q", "sort", "order", "page")}
        if board.rules:
            args["rules"] = board.rules
        if set(changes) - {"page"}:
            args.pop("page", None)
        args.update(changes)
        if args.get("page") == 1:
            args.pop("page")
        extra: dict[str, Any]
        endpoint, extra = ("scores.index", {}) if definition is record_games()[0] else \
            ("scores.game", {"key": definition.key})
        return url_for(endpoint, **extra, **{name: value for name, value in args.items() if value is not None})

    def sort_link(column: str, most_first: bool = False) -> str:
        """Sorted by ``column``: the other way round if it is sorted by it already, else names
        from A and figures as ``most_first`` says."""
        desc = not board.descending if column == board.sort else most_first
        return link(sort=None if column == "name" else column, order="desc" if desc else None)

    return render_template("scores/index.html", board=board, games=record_games(), link=link, sort_link=sort_link,
                           page_size=PAGE_SIZE)


def record_game(key: str) -> GameDefinition:
    try:
        definition = registry.get(key)
    except registry.UnknownGame:
        abort(404)
    if definition not in record_games():
        abort(404)
    return definition


@bp.get("/scores")
def index() -> ResponseReturnValue:
    """The first game's records (Menu A's "View scores" leads here: the score table, R9)."""
    games = record_games()
    if not games:
        return render_template("scores/index.html", board=None, games=[])
    return render_scores(games[0])


@bp.get("/scores/<key>")
def game(key: str) -> ResponseReturnValue:
    return render_scores(record_game(key))


@bp.get("/scores.csv")
def download() -> Response:
    """Exactly R7.5, with spreadsheet formulas in names neutralised (the game's score table
    format), streamed in chunks (the worker serves others between them)."""
    if score_table.game() is None:
        abort(404)
    return Response(
        stream_with_context(score_table.csv_chunks()),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{score_table.file_format().file_name}"'},
    )


@bp.get("/scores/<key>/statistics.csv")
def game_download(key: str) -> Response:
    """A game's statistics as a CSV file: a row a name, a column a figure, streamed in chunks."""
    definition = record_game(key)
    if definition.score_keeping != STATISTICS:
        abort(404)
    rules = rules_asked(statistics.rule_sets(definition))
    return Response(
        stream_with_context(statistics.csv_chunks(definition, rules=rules)),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{statistics_file_name(definition, rules)}"'},
    )
