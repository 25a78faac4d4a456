"""The table page: one blueprint for every game. One URL gives the page or, to htmx, the
fragment; the board is the game's own template (``templates/games/<key>/``), the rest of the
table is shared (``templates/table/``), both reading the ``TableView`` the tables build once a
request. An action is the form as plain data, read by the game's ``action_from_dict``. Refusals
(``TableError``) are answered once, app-wide (app/web/errors.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, abort, flash, get_flashed_messages, redirect, render_template, request, session, url_for
from flask_babel import gettext
from flask.typing import ResponseReturnValue as Answer
from werkzeug.datastructures import MultiDict

from .. import tables
from ..core.protocol import OptionError
from . import identity, words
from .addresses import client_address
from .htmx import is_htmx
from .input_checks import whole_number

bp = Blueprint("play", __name__, url_prefix="/games")

# Form fields that are not part of an action.
NOT_ACTION_FIELDS = {"csrf_token", "version", "seat", "move", "confirmed"}
# The flashed messages of a table (a refusal or a notice kept across the redirect after a plain
# form's post), by kind.
REFUSAL, NOTICE = "refusal", "notice"
MAX_SELECTED = 60  # cards a query string or a redirect carries


@dataclass(frozen=True)
class TableAsked:
    """What a request asks of a table: which one, as whom (``watching``: a spectator), and what
    to show with it.

    ``done``: the action this request just applied (its game is shown as it saved it, nothing
    read again); ``since``: the version the browser showed before (the actions after it are
    shown to it one after another), and ``since_steps`` the game's logged actions then;
    ``confirm``: the seat's move (its button) to ask about before it is made, or ``asking``,
    another question (a confirmation step); ``message``: a refusal, ``notice``: a message that
    is no refusal ("the seat was released"); ``fragment``: the table alone (None: as htmx
    asks)."""

    slug: str
    watching: bool = False
    done: tables.Done | None = None
    selected: Sequence[str] = ()
    message: str | None = None
    notice: str | None = None
    status: int = 200
    since: int | None = None
    since_steps: int | None = None
    confirm: str | None = None
    asking: tables.Ask | None = None
    fragment: bool | None = None


def render_table(asked: TableAsked) -> Answer:
    """The table page (or its fragment), as ``asked``."""
    return render(asked, table_for(asked))


def table_for(asked: TableAsked) -> tables.TableView:
    return tables.show(asked.slug, identity.looker(watching=asked.watching), done=asked.done,
                       selected=asked.selected, message=asked.message, since=asked.since,
                       since_steps=asked.since_steps)


def render(asked: TableAsked, table: tables.TableView) -> Answer:
    asking = asked.asking
    if asked.confirm and not asked.watching:
        asking = ask_about_move(table, asked.confirm)
    if asking is not None or asked.notice is not None:
        table = table.with_dock(asking=asking, notice=asked.notice)
    fragment = is_htmx() if asked.fragment is None else asked.fragment
    if fragment and table.paced_after is not None:
        table.steps_url = url_for("history.steps", slug=table.slug, after=table.paced_after, upto=table.version,
                                  me=table.me)
    template = "table/_table.html" if fragment else "table/page.html"
    return render_template(template, **table.context()), asked.status


def selected_in_query() -> list[str]:
    """Cards a link or a GET form selects (``?cards=7H``): a board that works without JavaScript
    can select a card by loading the table again."""
    return request.args.getlist("cards")[:MAX_SELECTED]


@bp.get("/<slug>")
def table(slug: str) -> Answer:
    """The table; after a plain form's post, with the message it left (a refusal, a notice) and
    the confirmation it asks for (``?confirm=<move>``: the seat's move that asks first)."""
    refusal, notice = last_flashed(REFUSAL), last_flashed(NOTICE)
    asking = release_question(slug, whole_number("release")) if request.args.get("release") else None
    return render_table(TableAsked(slug, selected=selected_in_query(), message=refusal,
                                   confirm=request.args.get("confirm"), asking=asking, notice=notice))


def last_flashed(kind: str) -> str | None:
    """The last message of ``kind`` (a refusal, a notice) flashed for this request, if any."""
    messages = get_flashed_messages(category_filter=[kind])
    last = messages[-1] if messages else None
    return last if isinstance(last, str) else None  # (without categories: messages, not pairs)


def release_question(slug: str, number: int | None) -> tables.Ask | None:
    """The confirmation step of the host releasing seat ``number``, which somebody holds (a
    person leaves the table); None if there is nothing to ask."""
    seat = tables.seat_to_release(slug, identity.looker(), number)
    if seat is None:
        return None
    return tables.Ask(question=gettext("Release %(name)s's seat? The device %(name)s plays on can no longer play it, and a "
                                       "new code lets somebody take it. You can undo this until somebody does.", name=seat.name),
                      yes=gettext("Yes, release %(name)s", name=seat.name),
                      action=url_for("lan.release", slug=slug, number=seat.number),
                      fields=[("confirmed", "1")], back=url_for("play.table", slug=slug))


def ask_about_move(table: tables.TableView, button: str) -> tables.Ask | None:
    """The confirmation step of this seat's move ``button`` (``Move.button``), if it is one of
    the moves it may make now and asks first; None otherwise (nothing to ask any more)."""
    move = next((move for move in table.dock.moves if move.confirm and move.button == button), None)
    if move is None:
        return None
    fields = [("version", str(table.version)), ("seat", "" if table.me is None else str(table.me)),
              ("move" if move.params else "action", move.button if move.params else move.action),
              ("confirmed", "1")] + [("cards", card) for card in sorted(table.dock.selected)]
    question = words.render(move.confirm_say, table.deck_key, html=False) if move.confirm_say else move.confirm
    return tables.Ask(question=question or "", yes=move.yes_label, action=url_for("play.act", slug=table.slug),
                      fields=fields, back=url_for("play.table", slug=table.slug, cards=sorted(table.dock.selected) or None))


@bp.get("/<slug>/watch")
def watch(slug: str) -> Answer:
    """A spectator's view: the whole table, no hands."""
    return render_table(TableAsked(slug, watching=True))


@bp.get("/<slug>/table")
def table_fragment(slug: str) -> Answer:
    """The table alone, for live refreshes. ``since``: answer 204 (nothing to swap) if the
    game is still at that version - the cheap polling fallback when events cannot stream,
    which every open table asks every few seconds: the game's version alone is read for it.
    ``changed=1``: the table's stream said the game changed, so it is read at once (a stream's
    repeat of news this browser shows already is answered 204 after the read)."""
    since = whole_number("since")
    heard_of_a_change = request.args.get("changed") == "1"
    if since is not None and not heard_of_a_change and since == tables.version_of(slug):
        return "", 204
    asked = TableAsked(slug, watching=request.args.get("watch") == "1", fragment=True, since=since,
                       since_steps=whole_number("steps", low=0), selected=selected_in_query())
    table = table_for(asked)
    if since == table.version:  # (news this browser already shows: a stream's repeat)
        return "", 204
    return render(asked, table)


def action_data(form: MultiDict[str, str]) -> dict[str, Any]:
    """The action a table form posted, as plain data for the game's ``action_from_dict``: its
    fields (``cards`` a list), and a pressed ``move`` button's ``action|field=value|...``."""
    data: dict[str, Any] = {key: form.get(key) for key in form if key not in NOT_ACTION_FIELDS}
    data["cards"] = form.getlist("cards")
    move = form.get("move")
    if move:
        name, *fields = move.split("|")
        data["action"] = name
        for item in fields:
            key, _, value = item.partition("=")
            if key and key not in NOT_ACTION_FIELDS:
                data[key] = value
    return data


@bp.post("/<slug>/act")
def act(slug: str) -> Answer:
    version = request.form.get("version", type=int)
    form = tables.ActionForm(version=version, seat=request.form.get("seat", type=int), data=action_data(request.form),
                             confirmed=request.form.get("confirmed") == "1", address=client_address())
    try:
        done = tables.perform(slug, identity.holder(), form)
    except tables.ConfirmFirst as asked:
        # Asked first (without JavaScript, or a script that did not ask): the table with the
        # question, the cards still selected; nothing was done.
        button = asked.move.button
        cards = request.form.getlist("cards")[:MAX_SELECTED]
        if not is_htmx():
            return redirect(url_for("play.table", slug=slug, confirm=button, cards=cards or None), 303)
        return render_table(TableAsked(slug, selected=cards, confirm=button))
    # The browser's own action shows at once; what the computer players did after it, step by step.
    # (A seat's private move needs no version: without one, nothing is shown step by step.)
    return after_post(slug, done=done, since=version + 1 if version is not None else None)


@bp.post("/<slug>/preferences")
def preferences(slug: str) -> Answer:
    """This browser's settings of the game's table (sending cards home by themselves), kept in
    its session for every table of the game: a checkbox posts its hidden "0" and then "1"."""
    definition = tables.definition_of(slug)
    stored = session.get(identity.PREFERENCES)
    stored = dict(stored) if isinstance(stored, dict) else {}
    mine = identity.looker().settings_of(definition)
    for option in definition.preferences:
        posted = request.form.getlist(option.key)
        if posted:
            try:
                mine[option.key] = option.read(posted[-1])
            except OptionError as error:
                raise tables.TableError(str(error)) from None
    stored[definition.key] = mine
    session[identity.PREFERENCES] = stored
    session.permanent = True
    return after_post(slug)


@bp.get("/<slug>/solution")
def solution(slug: str) -> Answer:
    """A whole winning line of the game's deal, kept by the job runner, stepped like a replay:
    offered once the game is over or lost (the game's analyst says when). ``step``: how many of
    its moves are made."""
    try:
        shown = tables.solution(slug, identity.looker(), whole_number("step", 0, low=0) or 0)
    except tables.SolutionRefused:
        return render_template("history/solution.html", refused=True, definition=tables.definition_of(slug),
                               slug=slug), 403
    context = {"definition": shown.definition, "slug": slug, "shown": shown.shown, "line": shown.line}
    if shown.line is None or shown.table is None:
        return render_template("history/solution.html", **context), 200
    return render_template("history/solution.html", step=shown.step, total=len(shown.line), made=shown.made,
                           **(shown.table.context() | context)), 200


@bp.post("/<slug>/reveal")
def reveal(slug: str) -> Answer:
    done = tables.reveal(slug, identity.holder(), request.form.get("version", type=int))
    return after_post(slug, done=done)


@bp.post("/<slug>/abandon")
def abandon(slug: str) -> Answer:
    """The host ends the unfinished game (the button asked for a confirmation first)."""
    tables.abandon(slug, identity.holder())
    return after_post(slug)


@bp.post("/<slug>/rematch")
def rematch(slug: str) -> Answer:
    """A rematch (a game set up, counted like one): every browser at the table holds its seats there."""
    return navigate(url_for("play.table", slug=tables.rematch(slug, identity.own_holder(), client_address())))


@bp.post("/<slug>/follow")
def follow(slug: str) -> Answer:
    return navigate(url_for("play.table", slug=tables.follow_rematch(slug, identity.own_holder())))


def after_post(slug: str, done: tables.Done | None = None, since: int | None = None,
               notice: str | None = None) -> Answer:
    """Answer a successful table form: the fresh table as a fragment for htmx, or for a plain
    form a redirect (so a refresh cannot repeat it). ``done``: the game as the action just saved
    it, shown without reading it back. ``notice``: what the table says was done."""
    if is_htmx():
        return render_table(TableAsked(slug, done=done, since=since, notice=notice))
    if not tables.exists(slug):
        abort(404, gettext("There is no such game: check the link, or pick a game from the home page."))
    if notice:
        flash(notice, NOTICE)
    return redirect(url_for("play.table", slug=slug), 303)


def navigate(url: str) -> Answer:
    """Go to another page after a POST: htmx follows HX-Redirect, a plain form the 303."""
    if is_htmx():
        return "", 204, {"HX-Redirect": url}
    return redirect(url, 303)
