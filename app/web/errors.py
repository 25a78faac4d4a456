"""Every error a request can end in is answered here, once, by its type: a refused table action
(the fresh table with the reason, at the refusal's status), a game that is not there, a bad or
expired form, an HTTP error, and anything unexpected (never a traceback). A refused request
changed nothing: the transaction it began was rolled back where it was refused
(``tables.news.command``)."""

from __future__ import annotations

from flask import Flask, flash, make_response, redirect, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from .. import tables
from ..core.refusal import Refusal
from .connections import close_connection_after
from .error_pages import http_message, render_error
from .htmx import is_htmx
from .input_checks import UnreadableBody
from .play import MAX_SELECTED, REFUSAL, TableAsked, render_table
from .words import refusal_words


def register(app: Flask) -> None:
    @app.errorhandler(Refusal)
    def refused(error: Refusal) -> ResponseReturnValue:
        """A refused table action (``tables.TableError``, or the store's: a game that keeps no
        more actions): the fresh table with the message, at the error's status (a stale form's
        cards stay selected only where they still can be: the template checks). A plain form
        (no JavaScript) is sent back to the table (303) with the message kept for it, so the
        browser never stays on the address it posted to (a reload would post again)."""
        slug = (request.view_args or {}).get("slug")
        message = refusal_words(error)
        if not slug or not tables.exists(slug):
            return render_error(error.status, message)
        selected = request.form.getlist("cards")[:MAX_SELECTED]
        if request.method == "POST" and not is_htmx():
            flash(message, REFUSAL)
            return redirect(url_for("play.table", slug=slug, cards=selected or None), 303)
        return render_table(TableAsked(slug, message=message, status=error.status, selected=selected))

    @app.errorhandler(tables.GameNotFound)
    def no_such_game(error: tables.GameNotFound) -> ResponseReturnValue:
        return render_error(error.status, error.message)

    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError) -> ResponseReturnValue:
        return render_error(400, gettext("This form has expired or did not come from this site. "
                                         "Reload the page and try again; nothing was changed."))

    @app.errorhandler(UnreadableBody)
    def unreadable_body(error: UnreadableBody) -> ResponseReturnValue:
        # The rest of the body cannot be read either: nothing more can come on this connection.
        return close_connection_after(make_response(render_error(400, http_message(error))))

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> ResponseReturnValue:
        return render_error(error.code or 500, http_message(error))

    @app.errorhandler(Exception)
    def server_error(error: Exception) -> ResponseReturnValue:  # never show a traceback (or any state) to players
        app.logger.exception("Unhandled error")
        return render_error(500, gettext("Something went wrong on the server. Nothing you did was lost: "
                                         "every finished action is saved. Reload the page."))
