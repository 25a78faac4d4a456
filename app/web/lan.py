"""Playing from one's own device: join links, QR codes, short codes; release and AI stand-in."""

from __future__ import annotations

import io
from typing import Any

from flask import Blueprint, Response, abort, current_app, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from config import setting

from .. import tables
from . import identity
from .addresses import client_address
from .htmx import is_htmx
from .play import TableAsked, after_post, release_question, render_table

bp = Blueprint("lan", __name__)


def public_url(path: str) -> str:
    """An address other devices can open: the LAN address `make run` printed, if known."""
    base = setting("PUBLIC_URL") or request.host_url
    return base.rstrip("/") + path


def code_page(code: str, status: int = 200, message: str | None = None) -> ResponseReturnValue:
    """The join page for ``code``: the seat it would claim (a wrong code is counted against this
    address, app/tables/join_codes.py), or the form with a message."""
    seat = None
    if code:
        try:
            seat = tables.seat_of_code(code, client_address())
        except tables.TableError as error:
            return join_form(code, error)
        if seat is None and status == 200:
            message, status = message or str(tables.NO_OPEN_SEAT), 404
    return render_template("lan/join.html", code=code[:12], seat=seat, message=message), status


def join_form(code: str, error: tables.TableError) -> ResponseReturnValue:
    """The join form again, with why ``code`` was refused."""
    return render_template("lan/join.html", code=code[:12], seat=None, message=error.message), error.status


@bp.get("/join")
def join_page() -> ResponseReturnValue:
    return code_page(request.args.get("code", ""))


@bp.get("/join/<code>")
def join_link(code: str) -> ResponseReturnValue:
    """A join link only shows what it would claim; claiming is a POST (link previews in chat
    apps must not take the seat)."""
    return code_page(code)


@bp.post("/join")
def claim() -> ResponseReturnValue:
    code = request.form.get("code", "")
    try:
        slug = tables.claim_seat(code, identity.own_holder(), client_address())
    except tables.TableError as error:  # answered here: the join form again, not a table
        return join_form(code, error)
    return redirect(url_for("play.table", slug=slug), 303)


@bp.get("/games/<slug>/seats/<int:number>/invite")
def invite(slug: str, number: int) -> ResponseReturnValue:
    """The join link, QR code and short code of an own-device seat nobody holds yet: for the
    host's eyes only (anyone who reads a code can take the seat)."""
    seat = tables.invitation(slug, identity.looker(), number)
    if seat is None:
        return redirect(url_for("play.table", slug=slug), 303)
    if seat.joined:
        # the page updates itself (its event stream) when the seat is claimed: say so
        return render_template("lan/invite.html", seat=seat, joined=True)
    link = public_url(url_for("lan.join_link", code=seat.join_code))
    qr = qr_code(link).svg_data_uri(scale=5, border=2)
    return render_template("lan/invite.html", seat=seat, link=link, qr=qr,
                           join_url=public_url(url_for("lan.join_page")))


@bp.post("/games/<slug>/seats/<int:number>/release")
def release(slug: str, number: int) -> ResponseReturnValue:
    """The host releases an own-device seat (a new code), after a confirmation if somebody holds
    it: without ``confirmed``, the table asks first (a plain form: the table's confirmation
    step; static/js/app.js asks in a dialog before it posts)."""
    asking = release_question(slug, number)
    if asking is not None and request.form.get("confirmed") != "1":
        if is_htmx():
            return render_table(TableAsked(slug, asking=asking))
        return redirect(url_for("play.table", slug=slug, release=number), 303)
    name = tables.seat_name(slug, number)
    tables.release_seat(slug, identity.holder(), number)
    notice = (gettext("%(name)s's seat was released: a new code is shown. Undo it from the seats panel until somebody "
                      "takes the seat.", name=name) if asking is not None else None)
    return after_post(slug, notice=notice)


@bp.post("/games/<slug>/seats/<int:number>/restore")
def restore(slug: str, number: int) -> ResponseReturnValue:
    """The host undoes a release: the seat's last holder has it again."""
    tables.restore_seat(slug, identity.holder(), number)
    return after_post(slug, notice=gettext("%(name)s has their seat again.", name=tables.seat_name(slug, number)))


@bp.post("/games/<slug>/seats/<int:number>/standin")
def standin(slug: str, number: int) -> ResponseReturnValue:
    tables.set_standin(slug, identity.holder(), number, request.form.get("on") == "1",
                       current_app.config["IDLE_SECONDS"])
    return after_post(slug)


@bp.get("/games/<slug>/seats/<int:number>/qr.svg")
def invite_qr(slug: str, number: int) -> ResponseReturnValue:
    """The QR code of an own-device seat's join link, as an image the table shows beside the
    seat while nobody has joined (an image of its own keeps the table's page light)."""
    seat = tables.invitation(slug, identity.looker(), number)
    if seat is None or seat.join_code is None:
        abort(404, gettext("This seat has no join code that still works: the host can make a new one."))
    link = public_url(url_for("lan.join_link", code=seat.join_code))
    buffer = io.BytesIO()
    qr_code(link).save(buffer, kind="svg", scale=4, border=2, xmldecl=False)
    return Response(buffer.getvalue(), mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})


def qr_code(link: str) -> Any:
    """A QR code of ``link``. (segno is imported when the first one is made, not to dodge a
    loop: a worker that shows none does not keep it in memory.)"""
    import segno

    return segno.make(link, error="m")
