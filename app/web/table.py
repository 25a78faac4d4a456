"""The table: one blueprint for every game. One URL gives the page or, to htmx, the fragment;
the board is the game's own template (``templates/games/<key>/``), the rest of the table is
shared (``templates/table/``). What a seat sees is the game's ``view(seat)``; the buttons are
its ``legal(seat)``. An action is the form as plain data, read by the game's
``action_from_dict``. Refusals (``TableError``) are answered once, app-wide (app/web/errors.py).
"""

from __future__ import annotations

import json
from datetime import datetime
from functools import cached_property
from typing import Any

from flask import Blueprint, abort, current_app, g, redirect, render_template, request, url_for

from .. import replays, store, tables
from ..htmx import is_htmx
from ..models import ABANDONED, FINISHED, OWN, GameRecord, utcnow
from . import identity

bp = Blueprint("table", __name__, url_prefix="/games")

LOG_LINES = 10  # the table's last lines; the whole game's log is a page of its own
# A browser this many actions behind is shown the table at once, not step by step.
MAX_PACED = 15
# Form fields that are not part of an action.
NOT_ACTION_FIELDS = {"csrf_token", "version", "seat", "move"}


def load_record(slug: str) -> GameRecord:
    record = store.find_game(slug)
    if record is None:
        abort(404)
    return record


def access(record: GameRecord) -> tables.Held:
    """The seats (and host role) this browser holds in ``record``, worked out once a request."""
    cache = g.setdefault("held", {})
    key = (record.slug, record.version)
    if key not in cache:
        cache[key] = tables.held_seats(record, identity.tokens_for(record.slug))
    return cache[key]


class Clock:
    """How long a game has been played: from its first action to its end (or now). A template
    that shows a timer reads it; nothing is asked of the database unless one does."""

    def __init__(self, record: GameRecord):
        self.record = record

    @cached_property
    def started_at(self) -> datetime | None:
        """When the first action was applied (an imported game: when it was started), or None."""
        if self.record.imported:
            return self.record.created_at
        return replays.first_action_at(self.record)

    @property
    def ended_at(self) -> datetime | None:
        if self.record.status == ABANDONED:
            return self.record.updated_at
        return self.record.finished_at

    @property
    def running(self) -> bool:
        return self.started_at is not None and self.ended_at is None

    @cached_property
    def seconds(self) -> int:
        """Whole seconds played so far (0 before the first action)."""
        if self.started_at is None:
            return 0
        return max(0, int(((self.ended_at or utcnow()) - self.started_at).total_seconds()))


def table_context(record: GameRecord, state, held: tables.Held, *, watching: bool = False,
                  message: str | None = None, selected=()) -> dict[str, Any]:
    """Everything the shared table templates read; the game's own templates read ``view``."""
    definition = state.definition
    shown = None if watching else tables.seat_to_show(record, state, held)
    view = state.view(shown)  # the rules decide what this seat may see
    turn = state.to_move()
    handover = None
    if not watching and tables.needs_handover(record, state, held):
        handover = state.label(turn)
    at_table = held.at_table and not watching
    if shown is not None:
        moves = state.legal(shown)
    elif at_table and handover is None:
        moves = state.legal(None)  # the table's moves: the next deal
    else:
        moves = []
    host = held.host and not watching
    manages = host or (bool(held.seats) and not watching)  # sees the seats panel
    finished = record.status == FINISHED or state.is_over()
    abandoned = record.status == ABANDONED
    seats = []
    for seat in record.seats:
        open_seat = seat.device == OWN and not seat.is_ai and seat.token_hash is None and not (finished or abandoned)
        live_code = open_seat and tables.code_is_live(seat)
        seats.append({
            "number": seat.number, "name": state.label(seat.number), "is_ai": seat.is_ai, "device": seat.device,
            "claimed": seat.token_hash is not None, "standin": seat.ai_standin,
            # Whoever reads a code can take the seat: only the host sees it, while nobody holds it.
            "join_code": seat.join_code if host and live_code else None,
            "code_expired": host and open_seat and not live_code,
        })
    if abandoned:
        moves, handover = [], None
    if message is None and held.released and not watching:
        message = tables.RELEASED
    log = view.get("log") or []
    log_start = max(0, len(log) - LOG_LINES)
    by_computer = tables.standin_lines(record, log_start, len(log)) if record.standins else {}
    waiting = [seat for seat in seats if seat["device"] == OWN and not seat["claimed"] and not seat["is_ai"]]
    my_turn = shown is not None and shown == turn and not abandoned
    if abandoned or finished:
        focus = ""
    elif my_turn and moves:
        focus = "hand" if any(move.pick is not None for move in moves) and view.get("hand") else "moves"
    else:
        focus = ""
    return {
        "slug": record.slug,
        "version": record.version,
        "game": definition,
        "kind": definition.key,
        "deck_key": state.deck.key if getattr(state, "deck", None) is not None else None,
        "view": view,
        "me": shown,
        "turn": turn,
        "my_turn": my_turn,
        "moves": moves,
        "pick": any(move.pick is not None for move in moves),
        "handover": handover,
        "watching": watching,
        "holds_seat": bool(held.seats) and not watching,
        "at_table": at_table,
        "manages": manages,
        "seats": seats,
        "selected": set(selected),
        "message": message,
        "log": [dict(event, by=state.label(by_computer[index]) if index in by_computer else None)
                for index, event in enumerate(log[log_start:], start=log_start)],
        "log_start": log_start + 1,
        "log_total": len(log),
        "finished": finished,
        "abandoned": abandoned,
        "waiting": waiting,  # own-device seats nobody has joined yet
        "standin_me": shown is not None and record.seats[shown].ai_standin and not finished,
        "focus": focus,
        "steps_url": None,
        "results": state.results() if finished else [],
        "rematch_slug": record.rematch_slug,
        "idle_seat": None if watching else tables.idle_seat(record, state, held, current_app.config["IDLE_SECONDS"]),
        "is_host": host,
        "own_device": OWN,
        "clock": Clock(record),
        "options": json.loads(record.options or "{}"),  # as set up (a rematch is set up the same way)
    }


def render_table(record: GameRecord, *, message: str | None = None, status: int = 200,
                 selected=(), watching: bool = False, fragment: bool | None = None, game=None,
                 since: int | None = None):
    """The table page (or its fragment). ``game``: the record's state if the caller has it.
    ``since``: the version this browser showed before; the actions after it are shown to it one
    after another (``steps_url``)."""
    state = game if game is not None else store.load_state(record)
    held = tables.Held() if watching else access(record)
    context = table_context(record, state, held, watching=watching, message=message, selected=selected)
    use_fragment = is_htmx() if fragment is None else fragment
    if use_fragment and since is not None and since < record.version:
        count = replays.count_actions(record, since, record.version)
        if 0 < count <= MAX_PACED and replays.replayable(record):
            context["steps_url"] = url_for("history.steps", slug=record.slug, after=since, upto=record.version,
                                           me=context["me"])
    template = "table/_table.html" if use_fragment else "table/page.html"
    return render_template(template, **context), status


def selected_in_query() -> list[str]:
    """Cards a link or a GET form selects (``?cards=7H``): a board that works without JavaScript
    can select a card by loading the table again."""
    return request.args.getlist("cards")[:60]


@bp.get("/<slug>")
def table(slug: str):
    return render_table(load_record(slug), selected=selected_in_query())


@bp.get("/<slug>/watch")
def watch(slug: str):
    """A spectator's view: the whole table, no hands."""
    return render_table(load_record(slug), watching=True)


@bp.get("/<slug>/table")
def table_fragment(slug: str):
    """The table alone, for live refreshes. ``since``: answer 204 (nothing to swap) if the
    game is still at that version - the cheap polling fallback when events cannot stream."""
    record = load_record(slug)
    since = request.args.get("since", type=int)
    if since is not None and since == record.version:
        return "", 204
    return render_table(record, watching=request.args.get("watch") == "1", fragment=True, since=since,
                        selected=selected_in_query())


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
    done = tables.perform(slug, identity.tokens_for(slug), version, seat, action_data(request.form))
    # The browser's own action shows at once; what the computer players did after it, step by step.
    return after_post(slug, done=done, since=version + 1)


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
    return go_to_rematch(slug, tables.rematch)


@bp.post("/<slug>/follow")
def follow(slug: str):
    return go_to_rematch(slug, tables.follow_rematch)


def go_to_rematch(slug: str, take_seats):
    """Start (or follow into) the rematch, keep the seats this browser gets there, go there."""
    record, tokens = take_seats(slug, identity.tokens_for(slug))
    identity.remember(record.slug, tokens)
    return navigate(url_for("table.table", slug=record.slug))


def after_post(slug: str, done: tables.Result | None = None, since: int | None = None):
    """Answer a successful table form: the fresh table as a fragment for htmx, or for a plain
    form a redirect (so a refresh cannot repeat it). ``done``: the game as the action just saved
    it, shown without reading it back."""
    if is_htmx():
        if done is not None:
            return render_table(done.record, game=done.game, since=since)
        return render_table(load_record(slug))
    load_record(slug)
    return redirect(url_for("table.table", slug=slug), 303)


def navigate(url: str):
    """Go to another page after a POST: htmx follows HX-Redirect, a plain form the 303."""
    if is_htmx():
        return "", 204, {"HX-Redirect": url}
    return redirect(url, 303)
