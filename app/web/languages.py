"""The table's languages: each browser reads the table in its own. A browser's choice from the
language menu (every page's footer) is kept in a cookie for a year; without one, the best of
its ``Accept-Language`` among the languages the table speaks; else English. The page's ``lang``
follows (base.html), and every device at one table reads its own: the live stream carries only
versions, and each browser fetches its table under its own cookie and headers.

The words are Flask-Babel's catalogues in translations/ (``messages``: the house's pages; the
games' own words are the ``games`` domain, app/core and app/games)."""

from __future__ import annotations

import urllib.parse
from collections.abc import Mapping

from flask import Blueprint, Flask, current_app, has_request_context, redirect, request
from flask.typing import ResponseReturnValue
from flask_babel import get_locale, gettext

bp = Blueprint("languages", __name__)

COOKIE = "card_table_language"
COOKIE_SECONDS = 365 * 24 * 3600


def offered() -> Mapping[str, str]:
    """The languages the table speaks: code -> name in that language (config ``LANGUAGES``)."""
    languages: Mapping[str, str] = current_app.config["LANGUAGES"]
    return languages


def chosen_language() -> str:
    """The browser's language: its menu choice (the cookie), else the best match of its
    Accept-Language, else English."""
    languages = offered()
    choice = request.cookies.get(COOKIE, "")
    if choice in languages:
        return choice
    return request.accept_languages.best_match(list(languages), default="en") or "en"


def page_language() -> str:
    """The ``lang`` of the page being rendered (English outside a request)."""
    if not has_request_context():
        return "en"
    locale = get_locale()
    return str(locale).replace("_", "-") if locale is not None else "en"


def safe_next(target: str | None) -> str:
    """Where the menu returns: a path of this site only (never another site's address)."""
    if not target:
        return "/"
    parts = urllib.parse.urlsplit(target)
    if parts.scheme or parts.netloc or not parts.path.startswith("/") or parts.path.startswith("//") or "\\" in target:
        return "/"
    return target


def return_to() -> str:
    """The page the menu returns to: this one's path (a page answered to a form's post: "/").
    Its query is not written into the page (a page never repeats what its address was given);
    ``choose`` takes it from the Referer when that names the same page."""
    return request.path if request.method == "GET" else "/"


def back_to(target: str | None) -> str:
    """Where the menu's post returns: ``target`` (a path of this site), with the query of the
    page it came from when the Referer names that same page on this host."""
    path = safe_next(target)
    referrer = urllib.parse.urlsplit(request.referrer or "")
    if referrer.netloc == request.host and referrer.path == path and referrer.query:
        return safe_next(f"{path}?{referrer.query}")
    return path


@bp.post("/language")
def choose() -> ResponseReturnValue:
    """The language menu: keeps the browser's choice and returns to the page it was on (the seats
    and games a browser holds are in its session, which this leaves alone)."""
    language = request.form.get("language", "")
    response = redirect(back_to(request.form.get("next")), code=303)
    if language in offered():
        response.set_cookie(COOKIE, language, max_age=COOKIE_SECONDS, samesite="Lax", httponly=True)
    return response


def script_words() -> dict[str, str]:
    """The words static/js shows, in the page's language (base.html gives them to the scripts as
    its body's data-words; a ``%(name)s`` is filled in by the script)."""
    return {
        "sound_on": gettext("Sound: on"), "sound_off": gettext("Sound: off"), "your_turn": gettext("Your turn"),
        "skip": gettext("Skip"), "no_go_back": gettext("No, go back"), "yes": gettext("Yes"),
        "to_foundation": gettext("%(card)s to foundation %(number)s"),
        "selected": gettext("%(card)s selected: tap or drag it where it goes."),
        "selected_home": gettext("%(card)s selected: tap or drag it where it goes, or send it home."),
    }


def register(app: Flask) -> None:
    """The menu's route and the templates' ``languages`` (code, name) and ``page_language()``."""
    app.register_blueprint(bp)
    app.jinja_env.globals["page_language"] = page_language
    app.jinja_env.globals["language_return_to"] = return_to
    app.jinja_env.globals["script_words"] = script_words
    app.jinja_env.globals["languages"] = lambda: list(offered().items())
    app.jinja_env.policies["ext.i18n.trimmed"] = True
