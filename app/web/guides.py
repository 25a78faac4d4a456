"""How to play each game, in players' words: one page a game, rendered from the game's own guide
(``games/<key>/_how_to_play.html``, beside its board; ``_how_to_play.<language>.html`` in another
language), reachable from its set-up and its table; and its guided first game ("Learn by
playing"): a page that says what it is, whose button sets up the table (``tables.start_guide``)."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import get_locale
from flask.typing import ResponseReturnValue
from jinja2 import TemplateNotFound

from .. import tables
from ..core import registry
from ..core.protocol import ONE_FORM
from . import identity
from .addresses import client_address
from .input_checks import local_path

bp = Blueprint("guides", __name__)

GUIDE = "_how_to_play.html"


def guide_template(key: str) -> str:
    return f"games/{key}/{GUIDE}"


def guide_templates(key: str) -> list[str]:
    """The game's guide in the page's language (``_how_to_play.<language>.html`` beside the
    English one), else in English: the first of these that exists."""
    language = get_locale()
    english = guide_template(key)
    if language is None or language.language == "en":
        return [english]
    return [f"games/{key}/_how_to_play.{language.language}.html", english]


@bp.get("/how-to-play/<key>")
def how_to_play(key: str) -> ResponseReturnValue:
    """The game's guide; ``back``: the page it was opened from (its set-up, a table)."""
    try:
        definition = registry.get(key)
    except registry.UnknownGame:
        abort(404)
    back = local_path(request.args.get("back"))
    set_up = url_for("setup.game", key=key) if definition.setup_flow == ONE_FORM else url_for("menu.menus", key=key)
    try:
        return render_template("guides/how_to_play.html", definition=definition, guide=guide_templates(key),
                               back=back, set_up=set_up)
    except TemplateNotFound as missing:
        if missing.name != guide_template(key):
            raise
        return render_template("guides/how_to_play.html", definition=definition, guide=None, back=back, set_up=set_up)


@bp.get("/learn/<key>")
def learn(key: str) -> ResponseReturnValue:
    """What the game's guided first game is, and its start button."""
    definition, guide = tables.guide_for(key)
    return render_template("guides/learn.html", definition=definition, guide=guide,
                           how_to_play=url_for("guides.how_to_play", key=key))


@bp.post("/learn/<key>")
def start_learning(key: str) -> ResponseReturnValue:
    """Set up the guided first game and open its table."""
    slug = tables.start_guide(key, identity.own_holder(), client_address())
    return redirect(url_for("play.table", slug=slug), 303)
