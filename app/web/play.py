"""The table: Menus D, E and F as htmx-enhanced forms that also work as plain form posts."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for

from .. import store, tables
from ..htmx import is_htmx
from ..models import FINISHED, OWN, GameRecord, utcnow
from ..rules import (
    DISCARD_PILE, DRAW_PHASE, GAME_OVER, PLAY_PHASE, ROUND_OVER, STOCK, Card, Discard, Draw,
    InvalidCardError, LayDown, NextRound,
)
from ..rules.menus import MENU_D, MENU_E
from . import identity

bp = Blueprint("play", __name__, url_prefix="/games")

LOG_LINES = 12


def load_record(slug: str) -> GameRecord:
    record = store.find_game(slug)
    if record is None:
        abort(404)
    return record


def table_context(record: GameRecord, game, held: tables.Held, *, watching: bool = False,
                  message: str | None = None, selected=()) -> dict:
    shown = None if watching else tables.seat_to_show(record, game, held)
    view = game.view(shown)  # R4.4: the rules decide what this seat may see
    phase = view["phase"]
    my_turn = shown is not None and shown == view["turn"] and phase in (DRAW_PHASE, PLAY_PHASE)
    handover = None
    if not watching and tables.needs_handover(record, game, held):
        handover = view["turn_name"]
    host = not watching and tables.is_host(record, identity.tokens_for(record.slug))
    manages = host or (bool(held.seats) and not watching)  # may see join codes and the seats panel
    seats = []
    for seat in record.seats:
        seats.append({
            "number": seat.number, "name": view["players"][seat.number]["label"], "is_ai": seat.is_ai,
            "device": seat.device,
            "claimed": seat.token_hash is not None, "standin": seat.ai_standin,
            "join_code": seat.join_code if manages else None,
        })
    return {
        "slug": record.slug,
        "version": record.version,
        "view": view,
        "phase": phase,
        "me": shown,
        "my_turn": my_turn,
        "handover": handover,
        "watching": watching,
        "holds_seat": bool(held.seats) and not watching,
        "manages": manages,
        "seats": seats,
        "hand": [Card.parse(code) for code in view["hand"]] if view["hand"] is not None else None,
        "selected": set(selected),
        "message": message,
        "log": view["log"][-LOG_LINES:],
        "log_start": max(1, len(view["log"]) - LOG_LINES + 1),
        "finished": record.status == FINISHED or phase == GAME_OVER,
        "round_over": phase == ROUND_OVER,
        "rematch_slug": record.rematch_slug,
        "winner_names": [view["players"][seat]["label"] for seat in view["winners"]],
        "idle_seat": idle_seat(record, game, held) if not watching else None,
        "is_host": host,
        "menu_d": MENU_D,
        "menu_e": MENU_E,
        "draw_stock": STOCK,
        "draw_discard": DISCARD_PILE,
        "own_device": OWN,
    }


def idle_seat(record: GameRecord, game, held: tables.Held) -> int | None:
    """The seat whose turn has been waiting longer than IDLE_SECONDS, if it is a person's."""
    turn = game.turn
    seat = record.seats[turn]
    if game.phase not in (DRAW_PHASE, PLAY_PHASE) or seat.is_ai or seat.ai_standin or turn in held:
        return None
    waited = (utcnow() - record.updated_at).total_seconds()
    return turn if waited >= current_app.config["IDLE_SECONDS"] else None


def render_table(record: GameRecord, *, message: str | None = None, status: int = 200,
                 selected=(), watching: bool = False, fragment: bool | None = None, game=None):
    """The table page (or its fragment). ``game``: the record's state if the caller has it."""
    if game is None:
        game = store.load_state(record)
    held = tables.Held() if watching else tables.held_seats(record, identity.tokens_for(record.slug))
    context = table_context(record, game, held, watching=watching, message=message, selected=selected)
    use_fragment = is_htmx() if fragment is None else fragment
    template = "play/_table.html" if use_fragment else "play/table.html"
    return render_template(template, **context), status


@bp.get("/<slug>")
def table(slug: str):
    return render_table(load_record(slug))


@bp.get("/<slug>/watch")
def watch(slug: str):
    """A spectator's view: the whole table, no hands (issue: spectators)."""
    return render_table(load_record(slug), watching=True)


@bp.get("/<slug>/table")
def table_fragment(slug: str):
    """The table alone, for live refreshes. ``since``: answer 204 (nothing to swap) if the
    game is still at that version - the cheap polling fallback when events cannot stream."""
    record = load_record(slug)
    since = request.args.get("since", type=int)
    if since is not None and since == record.version:
        return "", 204
    return render_table(record, watching=request.args.get("watch") == "1", fragment=True)


def parse_cards(codes: list[str]) -> tuple[Card, ...]:
    try:
        return tuple(Card.parse(code) for code in codes)
    except InvalidCardError as error:
        raise tables.TableError(str(error)) from None


def action_from_form(form) -> tuple[int | None, object]:
    name = form.get("action", "")
    seat = form.get("seat", type=int)
    codes = form.getlist("cards")
    if name == "draw_stock":
        return seat, Draw(STOCK)
    if name == "draw_discard":
        return seat, Draw(DISCARD_PILE)
    if name == "lay_down":
        if not codes:
            raise tables.Refused("Select the cards to play down first: tap them in your hand.")  # R5.5
        return seat, LayDown(parse_cards(codes))
    if name == "discard":
        if len(codes) != 1:
            raise tables.Refused("Select exactly one card to discard.")  # R5.6
        return seat, Discard(parse_cards(codes)[0])
    if name == "next_round":
        return seat, NextRound()
    raise tables.TableError("That is not one of the offered actions.")  # R9.1


def after_post(slug: str, error: tables.TableError | None = None, selected=(),
               done: tables.Result | None = None):
    """Answer a table form: the fresh table (with the refusal, if any) as a fragment for htmx,
    or for a plain form a redirect after success (so a refresh cannot repeat it). ``done``: the
    game as the successful action just saved it, shown without reading it back."""
    if error is not None and isinstance(error, (tables.NotFound,)):
        abort(404)
    if done is not None and is_htmx():
        return render_table(done.record, game=done.game)
    record = store.find_game(slug)
    if record is None:
        abort(404)
    if error is None and not is_htmx():
        return redirect(url_for("play.table", slug=slug), 303)
    if error is None:
        return render_table(record)
    return render_table(record, message=error.message, status=error.status, selected=selected)


@bp.post("/<slug>/act")
def act(slug: str):
    version = request.form.get("version", type=int)
    selected = request.form.getlist("cards")
    try:
        seat, action = action_from_form(request.form)
        done = tables.perform(slug, identity.tokens_for(slug), version, seat, action)
    except tables.TableError as error:
        store.db.session.rollback()
        return after_post(slug, error, selected)
    return after_post(slug, done=done)


@bp.post("/<slug>/reveal")
def reveal(slug: str):
    try:
        done = tables.reveal(slug, identity.tokens_for(slug), request.form.get("version", type=int))
    except tables.TableError as error:
        store.db.session.rollback()
        return after_post(slug, error)
    return after_post(slug, done=done)


@bp.post("/<slug>/rematch")
def rematch(slug: str):
    return go_to_rematch(slug, tables.rematch)


@bp.post("/<slug>/follow")
def follow(slug: str):
    return go_to_rematch(slug, tables.follow_rematch)


def go_to_rematch(slug: str, take_seats):
    """Start (or follow into) the rematch, keep the seats this browser gets there, go there."""
    try:
        record, tokens = take_seats(slug, identity.tokens_for(slug))
    except tables.TableError as error:
        store.db.session.rollback()
        return after_post(slug, error)
    identity.remember(record.slug, tokens)
    return navigate(url_for("play.table", slug=record.slug))


def navigate(url: str):
    """Go to another page after a POST: htmx follows HX-Redirect, a plain form the 303."""
    if is_htmx():
        return "", 204, {"HX-Redirect": url}
    return redirect(url, 303)
