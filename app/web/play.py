"""The table page: one blueprint for every game. One URL gives the page or, to htmx, the
fragment; the board is the game's own template (``templates/games/<key>/``), the rest of the
table is shared (``templates/table/``), both reading the ``TableView`` built once a request. An
action is the form as plain data, read by the game's ``action_from_dict``. Refusals
(``TableError``) are answered once, app-wide (app/web/errors.py).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, flash, g, get_flashed_messages, redirect, render_template, request, session, url_for

from .. import store, tables
from ..store import limits
from ..tables import replays
from ..core.protocol import GameDefinition, IllegalAction, OptionError
from .htmx import is_htmx
from ..store.models import OWN, GameRecord
from ..solving import kept
from . import identity
from .input_checks import whole_number
from ..tables.views import Ask, TableView, table_view

bp = Blueprint("play", __name__, url_prefix="/games")

# A browser this many actions behind is shown the table at once, not step by step.
MAX_PACED = 15
# Form fields that are not part of an action.
NOT_ACTION_FIELDS = {"csrf_token", "version", "seat", "move", "confirmed"}
# The flashed messages of a table (a refusal or a notice kept across the redirect after a plain
# form's post), by kind.
REFUSAL, NOTICE = "refusal", "notice"
MAX_SELECTED = 60  # cards a query string or a redirect carries


def load_record(slug: str) -> GameRecord:
    record = store.find_game(slug)
    if record is None:
        abort(404, "There is no such game: check the link, or pick a game from the home page.")
    return record


def access(record: GameRecord) -> tables.Held:
    """The seats (and host role) this browser holds in ``record``, worked out once a request."""
    cache = g.setdefault("held", {})
    key = (record.slug, record.version)
    if key not in cache:
        cache[key] = tables.held_seats(record, identity.tokens_for(record.slug))
    return cache[key]


def view_for(record: GameRecord, state=None, *, watching: bool = False, message: str | None = None,
             selected=(), done: tables.Result | None = None) -> TableView:
    """The table as this browser sees it (a spectator's, ``watching``); ``state``: the record's
    state if the caller has it; ``done``: the action this request just applied, whose game,
    held seats and results are used as they are."""
    if done is not None:
        state = done.game
    state = state if state is not None else store.shown_state(record)
    if watching:
        held = tables.Held()
    else:
        held = done.held if done is not None else access(record)
    table = table_view(record, state, held, watching=watching, message=message, selected=selected,
                       idle_seconds=current_app.config["IDLE_SECONDS"], results=done.results if done else None,
                       preferences=preferences_of(state.definition))
    # The kept answer of the position's question (a solver's verdict), never worked out here; the
    # player's own page asks it if nobody has (a spectator's never does).
    table.analysis = kept.for_table(record, state, may_ask=table.my_turn and not watching,
                                    address=limits.client_address())
    return table


PREFERENCES = "preferences"


def preferences_of(definition: GameDefinition) -> dict[str, Any]:
    """This browser's settings of ``definition``'s table (its ``preferences``), defaults filled in."""
    stored = session.get(PREFERENCES)
    mine = stored.get(definition.key) if isinstance(stored, dict) else None
    mine = mine if isinstance(mine, dict) else {}
    values = {}
    for option in definition.preferences:
        try:
            values[option.key] = option.read(mine[option.key]) if option.key in mine else option.default
        except OptionError:
            values[option.key] = option.default
    return values


def spectator_view(record: GameRecord, state) -> TableView:
    """The table as a spectator saw it in ``state`` (a replay's step)."""
    return table_view(record, state, tables.Held(), watching=True)


def render_table(record: GameRecord, *, message: str | None = None, status: int = 200,
                 selected=(), watching: bool = False, fragment: bool | None = None, game=None,
                 done: tables.Result | None = None, since: int | None = None, since_steps: int | None = None,
                 confirm: str | None = None, asking: Ask | None = None, notice: str | None = None):
    """The table page (or its fragment). ``game``: the record's state if the caller has it;
    ``done``: the action this request just applied (its game is the record's state).
    ``since``: the version this browser showed before; the actions after it are shown to it one
    after another (``steps_url``). ``since_steps``: the game's logged actions at that version, as
    the browser's refresh says them (``TableView.steps``); without it they are counted.
    ``confirm``: the seat's move (its button) to ask about before it is made, or ``asking``,
    another question (a confirmation step); ``notice``: a message that is no refusal ("the seat
    was released")."""
    table = view_for(record, game, watching=watching, message=message, selected=selected, done=done)
    if confirm and not watching:
        asking = ask_about_move(table, confirm)
    if asking is not None or notice is not None:
        table = table.replace(asking=asking, notice=notice)
    use_fragment = is_htmx() if fragment is None else fragment
    if use_fragment and since is not None and since < record.version:
        if since_steps is not None and since_steps <= record.steps:
            count = record.steps - since_steps  # (a wrong number only changes whether they are paced)
        else:
            count = replays.count_actions(record, since, record.version)
        if 0 < count <= MAX_PACED and replays.replayable(record):
            table.steps_url = url_for("history.steps", slug=record.slug, after=since, upto=record.version,
                                      me=table.me)
    template = "table/_table.html" if use_fragment else "table/page.html"
    return render_template(template, **table.context()), status


def selected_in_query() -> list[str]:
    """Cards a link or a GET form selects (``?cards=7H``): a board that works without JavaScript
    can select a card by loading the table again."""
    return request.args.getlist("cards")[:MAX_SELECTED]


@bp.get("/<slug>")
def table(slug: str):
    """The table; after a plain form's post, with the message it left (a refusal, a notice) and
    the confirmation it asks for (``?confirm=<move>``: the seat's move that asks first)."""
    record = load_record(slug)
    refusals = get_flashed_messages(category_filter=[REFUSAL])
    notices = get_flashed_messages(category_filter=[NOTICE])
    asking = release_question(record, whole_number("release")) if request.args.get("release") else None
    return render_table(record, selected=selected_in_query(), message=refusals[-1] if refusals else None,
                        confirm=request.args.get("confirm"), asking=asking, notice=notices[-1] if notices else None)


def release_question(record: GameRecord, number: int | None) -> Ask | None:
    """The confirmation step of the host releasing seat ``number``, which somebody holds (a
    person leaves the table); None if there is nothing to ask."""
    if number is None or not 0 <= number < len(record.seats) or not access(record).host:
        return None
    seat = record.seats[number]
    if seat.token_hash is None or seat.is_ai or seat.device != OWN:
        return None
    return Ask(question=f"Release {seat.name}'s seat? The device {seat.name} plays on can no longer play it, "
                        "and a new code lets somebody take it. You can undo this until somebody does.",
               yes=f"Yes, release {seat.name}", action=url_for("lan.release", slug=record.slug, number=number),
               fields=[("confirmed", "1")], back=url_for("play.table", slug=record.slug))


def ask_about_move(table: TableView, button: str) -> Ask | None:
    """The confirmation step of this seat's move ``button`` (``Move.button``), if it is one of
    the moves it may make now and asks first; None otherwise (nothing to ask any more)."""
    move = next((move for move in table.moves if move.confirm and move.button == button), None)
    if move is None:
        return None
    fields = [("version", str(table.version)), ("seat", "" if table.me is None else str(table.me)),
              ("move" if move.params else "action", move.button if move.params else move.action),
              ("confirmed", "1")] + [("cards", card) for card in sorted(table.selected)]
    return Ask(question=move.confirm or "", yes=move.yes_label, action=url_for("play.act", slug=table.slug),
               fields=fields, back=url_for("play.table", slug=table.slug, cards=sorted(table.selected) or None))


@bp.get("/<slug>/watch")
def watch(slug: str):
    """A spectator's view: the whole table, no hands."""
    return render_table(load_record(slug), watching=True)


@bp.get("/<slug>/table")
def table_fragment(slug: str):
    """The table alone, for live refreshes. ``since``: answer 204 (nothing to swap) if the
    game is still at that version - the cheap polling fallback when events cannot stream,
    which every open table asks every few seconds: the game's version alone is read for it.
    ``changed=1``: the table's stream said the game changed, so it is read at once, in one
    query (its version compared after)."""
    since = whole_number("since")
    heard_of_a_change = request.args.get("changed") == "1"
    if since is not None and not heard_of_a_change and since == store.version_of(slug):
        return "", 204
    record = load_record(slug)
    if since == record.version:  # (news this browser already shows: a stream's repeat)
        return "", 204
    return render_table(record, watching=request.args.get("watch") == "1", fragment=True, since=since,
                        since_steps=whole_number("steps", low=0), selected=selected_in_query())


def action_data(form) -> dict[str, Any]:
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
def act(slug: str):
    version = request.form.get("version", type=int)
    seat = request.form.get("seat", type=int)  # none: a move of the table (the next deal)
    try:
        done = tables.perform(slug, identity.tokens_for(slug), version, seat, action_data(request.form),
                              address=limits.client_address(), confirmed=request.form.get("confirmed") == "1")
    except tables.ConfirmFirst as asked:
        # Asked first (without JavaScript, or a script that did not ask): the table with the
        # question, the cards still selected; nothing was done.
        button = asked.move.button
        cards = request.form.getlist("cards")[:MAX_SELECTED]
        if not is_htmx():
            return redirect(url_for("play.table", slug=slug, confirm=button, cards=cards or None), 303)
        return render_table(load_record(slug), selected=cards, confirm=button)
    # The browser's own action shows at once; what the computer players did after it, step by step.
    # (A seat's private move needs no version: without one, nothing is shown step by step.)
    return after_post(slug, done=done, since=version + 1 if version is not None else None)


@bp.post("/<slug>/preferences")
def preferences(slug: str):
    """This browser's settings of the game's table (sending cards home by themselves), kept in
    its session for every table of the game: a checkbox posts its hidden "0" and then "1"."""
    record = load_record(slug)
    definition = store.definition_of(record)
    stored = session.get(PREFERENCES)
    stored = dict(stored) if isinstance(stored, dict) else {}
    mine = preferences_of(definition)
    for option in definition.preferences:
        posted = request.form.getlist(option.key)
        if posted:
            try:
                mine[option.key] = option.read(posted[-1])
            except OptionError as error:
                raise tables.TableError(str(error)) from None
    stored[definition.key] = mine
    session[PREFERENCES] = stored
    session.permanent = True
    return after_post(slug)


@bp.get("/<slug>/solution")
def solution(slug: str):
    """A whole winning line of the game's deal, kept by the job runner, stepped like a replay:
    offered once the game is over or lost (the game's analyst says when). ``step``: how many of
    its moves are made."""
    record = load_record(slug)
    definition = store.definition_of(record)
    analyst = definition.analyst
    start = store.initial_state(record)
    if analyst is None or start is None:
        abort(404)
    now = store.load_state(record)
    table = view_for(record, now, watching=True)
    position = table.analysis.answer if table.analysis is not None and table.analysis.known else None
    context = {"record": record, "game": definition, "slug": slug}
    if not analyst.solution_offered(now, position):
        return render_template("history/solution.html", refused=True, **context), 403
    question = analyst.start_question(start)
    shown = kept.shown_for_question(question)
    if shown.state == kept.NOT_ASKED and access(record).seats:
        shown = kept.for_table(record, start, may_ask=True, address=limits.client_address()) or shown
    line = analyst.solution(shown.answer) if shown.known and shown.answer else None
    if line is None:
        return render_template("history/solution.html", shown=shown, line=None, **context)
    step = whole_number("step", 0, low=0, high=len(line))
    state, made = start, []
    try:
        for data in line[:step]:
            made = state.apply(state.to_move(), definition.action_from_dict(data)).events
    except IllegalAction:  # (a kept line the rules refuse would be a bug: shown as no solution)
        return render_template("history/solution.html", shown=shown, line=None, **context)
    board = spectator_view(record, state).replace(replay=True, finished=state.is_over(),
                                                   results=state.results() if state.is_over() else [])
    return render_template("history/solution.html", step=step, total=len(line), made=made, shown=shown, line=line,
                           **(board.context() | context))


@bp.post("/<slug>/reveal")
def reveal(slug: str):
    done = tables.reveal(slug, identity.tokens_for(slug), request.form.get("version", type=int))
    return after_post(slug, done=done)


@bp.post("/<slug>/abandon")
def abandon(slug: str):
    """The host ends the unfinished game (the button asked for a confirmation first)."""
    tables.abandon(slug, identity.tokens_for(slug))
    return after_post(slug)


@bp.post("/<slug>/rematch")
def rematch(slug: str):
    address = limits.client_address()  # a rematch is a game set up, counted like one
    return go_to_rematch(slug, lambda slug, tokens: tables.rematch(slug, tokens, creator=address))


@bp.post("/<slug>/follow")
def follow(slug: str):
    return go_to_rematch(slug, tables.follow_rematch)


def go_to_rematch(slug: str, take_seats):
    """Start (or follow into) the rematch, keep the seats this browser gets there, go there."""
    record, tokens = take_seats(slug, identity.tokens_for(slug))
    identity.remember(record.slug, tokens)
    return navigate(url_for("play.table", slug=record.slug))


def after_post(slug: str, done: tables.Result | None = None, since: int | None = None, notice: str | None = None):
    """Answer a successful table form: the fresh table as a fragment for htmx, or for a plain
    form a redirect (so a refresh cannot repeat it). ``done``: the game as the action just saved
    it, shown without reading it back. ``notice``: what the table says was done."""
    if is_htmx():
        if done is not None:
            return render_table(done.record, done=done, since=since, notice=notice)
        return render_table(load_record(slug), notice=notice)
    load_record(slug)
    if notice:
        flash(notice, NOTICE)
    return redirect(url_for("play.table", slug=slug), 303)


def navigate(url: str):
    """Go to another page after a POST: htmx follows HX-Redirect, a plain form the 303."""
    if is_htmx():
        return "", 204, {"HX-Redirect": url}
    return redirect(url, 303)
