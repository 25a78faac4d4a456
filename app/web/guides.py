"""How to play each game, in players' words: one page a game, rendered from the game's own guide
(``games/<key>/_how_to_play.html``, beside its board), reachable from its set-up and its table."""

from __future__ import annotations

from flask import Blueprint, abort, render_template, request, url_for
from flask.typing import ResponseReturnValue
from jinja2 import TemplateNotFound

from ..core import registry
from ..core.protocol import ONE_FORM
from .input_checks import local_path

bp = Blueprint("guides", __name__)

GUIDE = "_how_to_play.html"


def guide_template(key: str) -> str:
    return f"games/{key}/{GUIDE}"


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
        return render_template("guides/how_to_play.html", definition=definition, guide=guide_template(key), back=back,
                               set_up=set_up)
    except TemplateNotFound as missing:
        if missing.name != guide_template(key):
            raise
        return render_template("guides/how_to_play.html", definition=definition, guide=None, back=back, set_up=set_up)
