"""What happened, for every game: the whole game's log, the steps a table shows one after another
(paced computer turns), the list of finished games, their replays, export and import (JSON)."""

from __future__ import annotations


from flask import Blueprint, Response, abort, redirect, render_template, request, stream_with_context, url_for
from markupsafe import Markup

from .. import store, tables
from ..tables import replays
from ..store.models import ABANDONED, FINISHED
from .admin import admin_required
from .input_checks import whole_number
from .play import load_record, spectator_view, view_for

bp = Blueprint("history", __name__)

MAX_IMPORT_BYTES = 2 * 1024 * 1024  # (the request limit: an export of the longest game is ~100 KB)
PAGE = 30
LOG_PAGE = 100  # lines of the whole game's log a page shows
MAX_PAGE = 100_000  # (3 million finished games: a page number past it shows that page, empty)


@bp.get("/games/<slug>/log")
def log(slug: str):
    """The whole game's log, ``LOG_PAGE`` lines a page (``page``: 1 is the deal's; the last page
    unless asked), as this browser may see it (a spectator's, with ``watch=1``): the lines are
    read from the stored actions that hold them and shown through the game's ``shown_log``."""
    record = load_record(slug)
    state = store.shown_state(record)
    watching = request.args.get("watch") == "1"
    table = view_for(record, state, watching=watching)
    total = state.log_total
    pages = max(1, -(-total // LOG_PAGE))
    page = whole_number("page", pages, low=1, high=pages)
    start = (page - 1) * LOG_PAGE
    shown = state.shown_log(table.me, store.log_lines(record, start, min(total, start + LOG_PAGE)), start)
    lines = tables.log_lines(record, state, shown, start)
    return render_template("history/log.html", page=page, pages=pages, log_note=record.log_note,
                           **table.replace(log=lines, log_start=start + 1, log_total=total).context())


@bp.get("/games/<slug>/steps")
def steps(slug: str):
    """The boards of the actions after version ``after`` up to ``upto``, as a spectator saw each
    (a table shows them one after another). ``me``: only which seat's badge says "you"."""
    record = load_record(slug)
    after = whole_number("after")
    upto = whole_number("upto")
    if after is None or upto is None or not 0 <= upto - after <= 60:
        abort(400, "Steps are asked for as after=N and upto=M, 60 at most at a time.")
    me = whole_number("me")
    parts = []
    for step, state in replays.steps_between(record, after, upto):
        table = spectator_view(record, state).replace(me=me, version=step.version, replay=True)
        text = " ".join(event["text"] for event in step.events)
        board = render_template("games/" + record.kind + "/_board.html", **table.context())
        parts.append(Markup('<template class="step" data-version="{}" data-text="{}">{}</template>').format(
            step.version, text, Markup(board)))
    return Response(Markup("").join(parts), mimetype="text/html")


@bp.get("/finished")
def finished():
    """Finished games, most recent first: players, scores, date; each opens as a replay."""
    page = whole_number("page", 1, low=1, high=MAX_PAGE)
    records = replays.finished_games(PAGE + 1, (page - 1) * PAGE)
    games = []
    for record in records[:PAGE]:
        definition = store.definition_of(record)
        games.append({
            "slug": record.slug, "game": definition.name,
            "results": result_words(definition, replays.results_of(record)),
            "names": [seat.name for seat in record.seats], "finished_at": record.finished_at,
            "imported": record.imported, "replayable": replays.replayable(record),
            "why_not": replays.not_replayable_reason(record),
        })
    return render_template("history/finished.html", games=games, page=page, more=len(records) > PAGE)


def result_words(definition, results: list[dict]) -> list[dict]:
    """Each seat's result in words: "Sam won, 2 points", "Ann lost, 14 points" (the game's
    ``score_unit``); ``won`` says which to stress."""
    singular, plural = definition.score_unit
    lines = []
    for result in results:
        text = f"{result.get('name')} {'won' if result.get('won') else 'lost'}"
        score = result.get("score")
        if score is not None:
            text += f", {score} {singular if score in (1, -1) else plural}"
        lines.append({"text": text, "won": bool(result.get("won"))})
    return lines


def finished_record(slug: str):
    record = load_record(slug)
    if record.status == ABANDONED:
        abort(404, "This game was abandoned before its end: it has no replay and no export.")
    if record.status != FINISHED:
        abort(404, "This game is not over yet: its replay and its export come once it ends.")
    return record


@bp.get("/games/<slug>/replay")
def replay(slug: str):
    """A finished game, step by step from its action log: each step the table as a spectator saw
    it then (``step`` actions applied; 0 is the deal)."""
    record = finished_record(slug)
    try:
        state, made, total = replays.state_at(record, whole_number("step", store.MAX_ACTIONS, low=0,
                                                                 high=store.MAX_ACTIONS))
    except replays.ReplayError as error:
        return render_template("history/replay.html", error=str(error), record=record, game=store.definition_of(record)), 404
    step = made.number if made else 0
    table = spectator_view(record, state).replace(replay=True, finished=state.is_over(),
                                                   results=state.results() if state.is_over() else [])
    return render_template("history/replay.html", step=step, total=total, made=made, record=record, **table.context())


@bp.get("/games/<slug>/export.json")
def export(slug: str):
    record = finished_record(slug)
    try:
        pieces = replays.export(record)
    except replays.ReplayError as error:
        abort(404, str(error))
    name = f"{record.kind}-{record.finished_at:%Y-%m-%d}-{record.slug}.json" if record.finished_at else f"{record.slug}.json"
    # Streamed as the actions are read, a slice at a time: the longest game's export is neither
    # held in memory nor waited for before its first bytes.
    return Response(stream_with_context(pieces), mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@bp.route("/finished/import", methods=["GET", "POST"])
@admin_required
def import_game():
    """The admin imports an exported game: the rules replay it; a file whose actions they refuse
    is refused with the reason. An imported game is listed and replayed, and changes no score."""
    if request.method == "GET":
        return render_template("history/import.html", message=None, here=None)
    upload = request.files.get("game")
    if upload is None or not upload.filename:
        return render_template("history/import.html", message="Choose an exported game file (.json).", here=None), 400
    raw = upload.read(MAX_IMPORT_BYTES + 1)
    if len(raw) > MAX_IMPORT_BYTES:
        return render_template("history/import.html", message="That file is too large to be an exported game.", here=None), 422
    try:
        record = replays.import_game(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return render_template("history/import.html", message="The file is not text (UTF-8 JSON).", here=None), 400
    except replays.AlreadyHere as already:
        return render_template("history/import.html", message=f"{upload.filename[:80]}: {already}",
                               here=already.record), 409
    except replays.ReplayError as error:
        return render_template("history/import.html", message=f"The game was not imported: {error}", here=None), 422
    return redirect(url_for("history.replay", slug=record.slug, step=0), 303)


