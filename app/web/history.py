"""What happened, for every game: the whole game's log, the steps a table shows one after another
(paced computer turns), the list of finished games, their replays, export and import (JSON)."""

from __future__ import annotations

from flask import Blueprint, Response, abort, redirect, render_template, request, stream_with_context, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from markupsafe import Markup

from .. import tables
from ..core import registry
from . import identity, words
from .admin import admin_required
from .input_checks import whole_number

bp = Blueprint("history", __name__)

MAX_IMPORT_BYTES = 2 * 1024 * 1024  # (the request limit: an export of the longest game is ~100 KB)
PAGE = 30
MAX_NAME_SEARCHED = 24  # (a player's name is 24 characters at most)
MAX_PAGE = 100_000  # (3 million finished games: a page number past it shows that page, empty)


@bp.get("/games/<slug>/log")
def log(slug: str) -> ResponseReturnValue:
    """The whole game's log, a page at a time (``page``: 1 is the deal's; the last page unless
    asked), as this browser may see it (a spectator's, with ``watch=1``)."""
    shown = tables.log_page(slug, identity.looker(watching=request.args.get("watch") == "1"),
                            whole_number("page", low=1))
    return render_template("history/log.html", page=shown.page, pages=shown.pages, log_note=shown.note,
                           **shown.table.context())


@bp.get("/games/<slug>/steps")
def steps(slug: str) -> ResponseReturnValue:
    """The boards of the actions after version ``after`` up to ``upto``, as a spectator saw each
    (a table shows them one after another). ``me``: only which seat's badge says "you"."""
    after = whole_number("after")
    upto = whole_number("upto")
    if after is None or upto is None or not 0 <= upto - after <= tables.MAX_STEPS_ASKED:
        abort(400, gettext("Steps are asked for as after=N and upto=M, %(num)s at most at a time.", num=tables.MAX_STEPS_ASKED))
    parts = []
    for step in tables.paced_steps(slug, after, upto, whole_number("me")):
        board = render_template("games/" + step.table.kind + "/_board.html", **step.table.context())
        said = (words.event_words(event, step.table.deck_key, html=False) for event in step.events)
        parts.append(Markup('<template class="step" data-version="{}" data-text="{}">{}</template>').format(
            step.version, " ".join(text for text in said if text), Markup(board)))
    return Response(Markup("").join(parts), mimetype="text/html")


@bp.get("/finished")
def finished() -> ResponseReturnValue:
    """Finished games, most recent first: players, scores, date; each opens as a replay. ``game``
    (a game's key) and ``name`` (part of a player's name) narrow the list; the pages keep them."""
    page = whole_number("page", 1, low=1, high=MAX_PAGE) or 1
    choices = [(definition.key, definition.name) for definition in registry.games()]
    kind = request.args.get("game", "")
    kind = kind if kind in dict(choices) else ""
    name = " ".join(request.args.get("name", "").split())[:MAX_NAME_SEARCHED]
    games, more = tables.finished(page, PAGE, kind=kind or None, name=name or None)
    filters = {key: value for key, value in (("game", kind), ("name", name)) if value}
    return render_template("history/finished.html", games=games, page=page, more=more, choices=choices,
                           game=kind, name=name, filters=filters)


@bp.get("/games/<slug>/replay")
def replay(slug: str) -> ResponseReturnValue:
    """A finished game, step by step from its action log: each step the table as a spectator saw
    it then (``step`` actions applied; 0 is the deal)."""
    step = whole_number("step", tables.MAX_ACTIONS, low=0, high=tables.MAX_ACTIONS) or 0
    try:
        shown = tables.replay_step(slug, step)
    except tables.ReplayError as error:
        return render_template("history/replay.html", error=error.words(), slug=slug,
                               definition=tables.definition_of(slug)), 404
    return render_template("history/replay.html", step=shown.step, total=shown.total, made=shown.made,
                           rounds=shown.rounds, round_now=shown.round_now, hands=shown.hands,
                           playing=request.args.get("play") == "1" and shown.step < shown.total,
                           **shown.table.context())


@bp.get("/games/<slug>/export.json")
def export(slug: str) -> ResponseReturnValue:
    try:
        name, pieces = tables.export(slug)
    except tables.ReplayError as error:
        abort(404, error.words())
    # Streamed as the actions are read, a slice at a time: the longest game's export is neither
    # held in memory nor waited for before its first bytes.
    return Response(stream_with_context(pieces), mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@bp.route("/finished/import", methods=["GET", "POST"])
@admin_required
def import_game() -> ResponseReturnValue:
    """The admin imports an exported game: what can be checked at once is (its JSON, its shape,
    its players' names), then the job runner replays it through the rules and stores it if they
    accept it, and the import's own page shows the verdict. An imported game is listed and
    replayed, and changes no score."""
    if request.method == "GET":
        return render_template("history/import.html", message=None, here=None)
    upload = request.files.get("game")
    if upload is None or not upload.filename:
        return render_template("history/import.html", message=gettext("Choose an exported game file (.json)."), here=None), 400
    raw = upload.read(MAX_IMPORT_BYTES + 1)
    if len(raw) > MAX_IMPORT_BYTES:
        return render_template("history/import.html", message=gettext("That file is too large to be an exported game."), here=None), 422
    try:
        token = tables.import_game(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return render_template("history/import.html", message=gettext("The file is not text (UTF-8 JSON)."), here=None), 400
    except tables.AlreadyHere as already:
        return render_template("history/import.html", message=f"{upload.filename[:80]}: {already.words()}",
                               here=already.slug), 409
    except tables.ReplayError as error:
        return render_template("history/import.html", message=gettext("The game was not imported: %(why)s", why=error.words()), here=None), 422
    return redirect(url_for("history.import_status", token=token), 303)


@bp.get("/finished/import/<token>")
@admin_required
def import_status(token: str) -> ResponseReturnValue:
    """An imported file's verdict: being checked (the page looks again by itself), imported
    (its replay), or refused with the reason."""
    verdict = tables.import_verdict(token)
    if verdict is None:
        abort(404, gettext("No game file was sent to be imported under this address."))
    return render_template("history/import_status.html", verdict=verdict)
