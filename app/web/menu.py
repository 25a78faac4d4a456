"""The home page: the first menu of the game set up through menus (Mason Rummy's Menu A, R9),
then the table's other games and the unfinished games to resume or watch; and Quit."""

from __future__ import annotations

import secrets

from flask import Blueprint, redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue

from .. import tables
from ..core import registry
from ..core.menus import NotAChoice, parse_choice
from . import admin, identity
from .setup import menu_flow, menu_game

bp = Blueprint("menu", __name__)


def menu_page(message: str | None = None, status: int = 200) -> ResponseReturnValue:
    games = tables.unfinished(identity.looker())
    first = menu_game()
    # Every game a tile; the game set up through menus first, its first menu being the page's
    # first form (R9: Menu A).
    tiles = ([first] if first is not None else []) + [definition for definition in registry.games()
                                                      if definition is not first]
    options = first.menus.first_menu if first is not None and first.menus is not None else ()
    return render_template("menu/index.html", options=options, games=games, tiles=tiles, menu_game=first,
                           message=message), status


@bp.get("/")
def index() -> ResponseReturnValue:
    return menu_page()


@bp.post("/")
def choose() -> ResponseReturnValue:
    """Menu A as a form: the answer is the option's number, as in the terminal (R9.1)."""
    menus = menu_flow()
    try:
        choice = parse_choice(request.form.get("choice", ""), len(menus.first_menu))
    except NotAChoice as error:
        return menu_page(str(error), 400)
    if choice == menus.view_scores:
        return redirect(url_for("scores.index"), 303)
    if choice == menus.quit:
        return quit_session()
    players, stacked = menus.games[choice]
    # The menus' set-up begins (its deck prompt and Menus B and C keep their own routes: the
    # token makes the last seat's form posted twice at once one game, app/tables); the page
    # that answers is the one set-up form, with this many seats and, stacked, its decks first.
    session["setup"] = {"players": players, "stacked": stacked, "deck": None, "seats": [],
                        "token": secrets.token_urlsafe(12)}
    definition = menu_game()
    assert definition is not None  # (menu_flow found it)
    form = url_for("setup.game", key=definition.key, seats=players)
    return redirect(form + ("&stacked=1" if stacked else ""), 303)


@bp.post("/quit")
def quit_session() -> ResponseReturnValue:
    """Quit ends this browser's session: a setup in progress and admin rights are forgotten.

    Seats in unfinished games are kept (the browser keeps its key), so a quit never strands the
    other players: the home page offers to resume them. Those of finished games are let go."""
    kept = tables.let_go_of_finished_games(identity.holder())
    key = identity.browser_key()
    admin.end_admin_session()
    session.clear()
    if key is not None:
        session[identity.BROWSER_KEY] = key
        session.permanent = True
    return render_template("menu/goodbye.html", kept=kept)
