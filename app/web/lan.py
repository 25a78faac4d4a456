"""Playing from one's own device: join links, QR codes, short codes; release and AI stand-in."""

from __future__ import annotations

import io
import os

import segno
from flask import Blueprint, Response, abort, current_app, redirect, render_template, request, url_for

from .. import store, tables
from ..models import OWN
from . import identity
from .table import after_post, answer_refusal, load_record

bp = Blueprint("lan", __name__)


def public_url(path: str) -> str:
    """An address other devices can open: the LAN address `make run` printed, if known."""
    base = os.environ.get("MASON_PUBLIC_URL") or request.host_url
    return base.rstrip("/") + path


@bp.get("/join")
def join_page():
    code = request.args.get("code", "")
    seat = tables.find_seat_by_code(code) if code else None
    if code and seat is None:  # typed on Menu A: say so, as the /join/<code> link does
        return render_template("lan/join.html", code=code[:12], seat=None, message=NO_SEAT), 404
    return render_template("lan/join.html", code=code, seat=seat, message=None)


NO_SEAT = "No open seat has that code: it may be mistyped, or already taken. Check it, or ask the host."


@bp.get("/join/<code>")
def join_link(code: str):
    """A join link only shows what it would claim; claiming is a POST (link previews in chat
    apps must not take the seat)."""
    seat = tables.find_seat_by_code(code)
    message = None if seat else NO_SEAT
    return render_template("lan/join.html", code=code, seat=seat, message=message), 200 if seat else 404


@bp.post("/join")
def claim():
    code = request.form.get("code", "")
    try:
        record, tokens = tables.claim_seat(code)
    except tables.TableError as error:  # answered here: the join page, not a table
        store.db.session.rollback()
        return render_template("lan/join.html", code=code[:12], seat=None, message=error.message), error.status
    identity.remember(record.slug, tokens)
    return redirect(url_for("table.table", slug=record.slug), 303)


@bp.get("/games/<slug>/seats/<int:number>/invite")
def invite(slug: str, number: int):
    """The join link, QR code and short code of an own-device seat, for the players to share."""
    record = load_record(slug)
    if not tables.held_seats(record, identity.tokens_for(slug)).at_table:
        abort(403)
    if not 0 <= number < len(record.seats):
        abort(404)
    seat = record.seats[number]
    if seat.device == OWN and seat.join_code is None and seat.token_hash is not None:
        # the page updates itself (its event stream) when the seat is claimed: say so
        return render_template("lan/invite.html", record=record, seat=seat, joined=True)
    if seat.device != OWN or seat.join_code is None:
        return redirect(url_for("table.table", slug=slug), 303)
    link = public_url(url_for("lan.join_link", code=seat.join_code))
    qr = segno.make(link, error="m").svg_data_uri(scale=5, border=2)
    return render_template("lan/invite.html", record=record, seat=seat, link=link, qr=qr,
                           join_url=public_url(url_for("lan.join_page")))


@bp.post("/games/<slug>/seats/<int:number>/release")
def release(slug: str, number: int):
    tables.release_seat(slug, identity.tokens_for(slug), number)
    return after_post(slug)


@bp.post("/games/<slug>/seats/<int:number>/standin")
def standin(slug: str, number: int):
    tables.set_standin(slug, identity.tokens_for(slug), number, request.form.get("on") == "1",
                       current_app.config["IDLE_SECONDS"])
    return after_post(slug)


@bp.get("/games/<slug>/seats/<int:number>/qr.svg")
def invite_qr(slug: str, number: int):
    """The QR code of an own-device seat's join link, as an image the table shows beside the
    seat while nobody has joined (an image of its own keeps the table's page light)."""
    record = load_record(slug)
    if not tables.held_seats(record, identity.tokens_for(slug)).at_table:
        abort(403)
    if not 0 <= number < len(record.seats) or record.seats[number].join_code is None:
        abort(404)
    link = public_url(url_for("lan.join_link", code=record.seats[number].join_code))
    buffer = io.BytesIO()
    segno.make(link, error="m").save(buffer, kind="svg", scale=4, border=2, xmldecl=False)
    return Response(buffer.getvalue(), mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})


bp.register_error_handler(tables.TableError, answer_refusal)
