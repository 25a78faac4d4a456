"""The error page (or, to htmx, its fragment), with a message for the person who asked."""

from __future__ import annotations

from flask import Response, render_template
from flask_babel import gettext, lazy_gettext
from flask.globals import request_ctx
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException

from .htmx import is_htmx

HTTP_MESSAGES = {
    404: lazy_gettext("There is nothing here."),
    405: lazy_gettext("That is not how this page is used."),
    413: lazy_gettext("That file is too large."),
}


def http_message(error: HTTPException) -> str:
    """The reason the code gave (``abort(404, "This game was stored before...")``), else the
    house's words for the status, else Werkzeug's."""
    given = error.description
    if given and given != type(error).description:
        return given
    house = HTTP_MESSAGES.get(error.code or 500)
    return str(house) if house is not None else gettext(given or error.name)


def render_error(status: int, message: str) -> ResponseReturnValue:
    """The error page (or, to htmx, its fragment) with ``message``, at ``status``; in plain text
    for a request whose Host header Werkzeug cannot read (an empty or overlong name part): no
    address can be built for it, and the page links to the stylesheet and the menus."""
    if request_ctx.url_adapter is None:
        return Response(message + "\n", status, mimetype="text/plain")
    template = "errors/_error.html" if is_htmx() else "errors/error.html"
    return render_template(template, status=status, message=message), status
